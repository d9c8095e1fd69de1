//! SASL (PLAIN, SCRAM-SHA-256/512, SCRAM users made through the admin
//! API) and TLS (a CA made with the openssl CLI) against a real broker.

use crate::common;
use std::path::Path;
use std::process::Command;

use tidemark_client::admin::{NewTopic, ScramUpsert};
use tidemark_client::consumer::{Fetcher, FetcherConfig, StartOffset};
use tidemark_client::producer::{Producer, ProducerConfig, ProducerRecord};
use tidemark_client::{Client, Config, Error, SaslConfig, SaslMechanism, TlsConfig};

const ADMIN: &str = "admin";
const ADMIN_PW: &str = "adm1n-s3cret";

fn sasl_cfg(port: u16, mechanism: SaslMechanism, user: &str, pass: &str) -> Config {
    let mut cfg = Config::new([format!("127.0.0.1:{port}")]);
    cfg.request_timeout_ms = 10_000;
    cfg.retries = 2;
    cfg.sasl = Some(SaslConfig {
        mechanism,
        user: user.into(),
        pass: pass.into(),
    });
    cfg
}

/// Produces one record and reads it back.
fn round_trip(c: &Client, topic: &str) {
    let r = c
        .create_topics(&[NewTopic::new(topic, 1, 1)], false)
        .unwrap();
    r[0].1.as_ref().unwrap();
    let p = Producer::new(c.clone(), ProducerConfig::default()).unwrap();
    let h = p.send(ProducerRecord::new(topic, "hello")).unwrap();
    p.flush().unwrap();
    assert_eq!(h.wait().unwrap(), (0, 0));
    let mut f = Fetcher::new(c.clone(), FetcherConfig::default());
    f.assign(vec![(topic.into(), 0, StartOffset::Earliest)])
        .unwrap();
    let mut got = Vec::new();
    for _ in 0..20 {
        got.extend(f.poll(500).unwrap());
        if !got.is_empty() {
            break;
        }
    }
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].value.as_deref(), Some(&b"hello"[..]));
}

#[test]
fn sasl_plain_and_scram() {
    let Some(b) = common::start(common::Opts {
        settings: vec![
            ("num.partitions".into(), "1".into()),
            (
                "sasl.enabled.mechanisms".into(),
                "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512".into(),
            ),
        ],
        env: vec![(
            "TIDEMARK_BOOTSTRAP_USER".into(),
            format!("{ADMIN}:{ADMIN_PW}"),
        )],
        listeners: Some((
            "PLAINTEXT://127.0.0.1:{0},SASL_PLAINTEXT://127.0.0.1:{1}".into(),
            2,
        )),
    }) else {
        return;
    };
    let sasl_port = b.ports[0];
    for (i, m) in [
        SaslMechanism::Plain,
        SaslMechanism::ScramSha256,
        SaslMechanism::ScramSha512,
    ]
    .into_iter()
    .enumerate()
    {
        let c = Client::connect(sasl_cfg(sasl_port, m, ADMIN, ADMIN_PW))
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(
            c.brokers()[0].port as u16,
            sasl_port,
            "metadata names the SASL listener"
        );
        round_trip(&c, &format!("sasl-{i}"));
        let err = Client::connect(sasl_cfg(sasl_port, m, ADMIN, "wrong")).unwrap_err();
        assert!(matches!(err, Error::Sasl(_)), "{m}: {err}");
        let err = Client::connect(sasl_cfg(sasl_port, m, "nobody", "x")).unwrap_err();
        assert!(matches!(err, Error::Sasl(_)), "{m}: {err}");
    }

    // A user made through AlterUserScramCredentials (salted here) logs in.
    let admin = Client::connect(sasl_cfg(
        sasl_port,
        SaslMechanism::ScramSha512,
        ADMIN,
        ADMIN_PW,
    ))
    .unwrap();
    let r = admin
        .alter_user_scram_credentials(
            &[ScramUpsert {
                user: "bob".into(),
                mechanism: SaslMechanism::ScramSha256,
                password: "b0b-pw".into(),
                iterations: 8192,
            }],
            &[],
        )
        .unwrap();
    assert!(r[0].1.is_ok(), "{:?}", r[0].1);
    let d = admin
        .describe_user_scram_credentials(Some(&["bob".to_string()]))
        .unwrap();
    assert_eq!(
        d[0].1.as_ref().unwrap(),
        &vec![(SaslMechanism::ScramSha256, 8192)]
    );
    let mut ok = false;
    for _ in 0..50 {
        if Client::connect(sasl_cfg(
            sasl_port,
            SaslMechanism::ScramSha256,
            "bob",
            "b0b-pw",
        ))
        .is_ok()
        {
            ok = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(ok, "bob can log in with the credential made client-side");
    let err = Client::connect(sasl_cfg(
        sasl_port,
        SaslMechanism::ScramSha256,
        "bob",
        "nope",
    ))
    .unwrap_err();
    assert!(matches!(err, Error::Sasl(_)), "{err}");
}

fn openssl(dir: &Path, args: &[&str]) -> bool {
    Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// A CA and a server certificate for 127.0.0.1 signed by it.
fn make_pki(dir: &Path, ca: &str) -> bool {
    let ok = openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            &format!("{ca}.key"),
            "-out",
            &format!("{ca}.pem"),
            "-days",
            "2",
            "-subj",
            "/CN=Test CA",
        ],
    );
    if !ok {
        return false;
    }
    std::fs::write(dir.join("server.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n").unwrap();
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=localhost",
        ],
    ) && openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            &format!("{ca}.pem"),
            "-CAkey",
            &format!("{ca}.key"),
            "-set_serial",
            "1001",
            "-days",
            "2",
            "-extfile",
            "server.ext",
            "-out",
            "server.crt",
        ],
    )
}

#[test]
fn tls_with_a_ca_insecure_and_wrong_ca() {
    assert!(
        common::binary().is_some(),
        "no tidemark binary: set TIDEMARK_BIN or build target/release/tidemark"
    );
    let pki = tempfile::tempdir().unwrap();
    if !make_pki(pki.path(), "ca")
        || !openssl(
            pki.path(),
            &[
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-keyout",
                "other.key",
                "-out",
                "other.pem",
                "-days",
                "2",
                "-subj",
                "/CN=Other CA",
            ],
        )
    {
        panic!("openssl CLI missing or failing (conformance/install.sh installs it)");
    }
    let keystore = pki.path().join("server.keystore.pem");
    let mut ks = std::fs::read(pki.path().join("server.key")).unwrap();
    ks.extend(std::fs::read(pki.path().join("server.crt")).unwrap());
    std::fs::write(&keystore, ks).unwrap();
    let b = common::start(common::Opts {
        settings: vec![
            ("num.partitions".into(), "1".into()),
            (
                "ssl.keystore.location".into(),
                keystore.display().to_string(),
            ),
            ("sasl.enabled.mechanisms".into(), "SCRAM-SHA-512".into()),
        ],
        env: vec![(
            "TIDEMARK_BOOTSTRAP_USER".into(),
            format!("{ADMIN}:{ADMIN_PW}"),
        )],
        listeners: Some((
            "PLAINTEXT://127.0.0.1:{0},SSL://127.0.0.1:{1},SASL_SSL://127.0.0.1:{2}".into(),
            3,
        )),
    })
    .unwrap();
    let ssl_port = b.ports[0];
    let tls_cfg = |tls: TlsConfig| {
        let mut cfg = Config::new([format!("127.0.0.1:{ssl_port}")]);
        cfg.request_timeout_ms = 10_000;
        cfg.retries = 1;
        cfg.tls = Some(tls);
        cfg
    };
    let c = Client::connect(tls_cfg(TlsConfig {
        ca_file: Some(pki.path().join("ca.pem")),
        ..Default::default()
    }))
    .unwrap();
    assert_eq!(c.brokers()[0].port as u16, ssl_port);
    round_trip(&c, "tls-1");

    let c = Client::connect(tls_cfg(TlsConfig {
        insecure_skip_verify: true,
        ..Default::default()
    }))
    .unwrap();
    round_trip(&c, "tls-2");

    // SASL over TLS.
    let mut cfg = sasl_cfg(b.ports[1], SaslMechanism::ScramSha512, ADMIN, ADMIN_PW);
    cfg.tls = Some(TlsConfig {
        ca_file: Some(pki.path().join("ca.pem")),
        ..Default::default()
    });
    let c = Client::connect(cfg.clone()).unwrap();
    round_trip(&c, "tls-3");
    cfg.sasl.as_mut().unwrap().pass = "wrong".into();
    let err = Client::connect(cfg).unwrap_err();
    assert!(matches!(err, Error::Sasl(_)), "{err}");

    let err = Client::connect(tls_cfg(TlsConfig {
        ca_file: Some(pki.path().join("other.pem")),
        ..Default::default()
    }))
    .unwrap_err();
    assert!(matches!(err, Error::Tls(_)), "{err}");
    let err = Client::connect(tls_cfg(TlsConfig {
        ca_file: Some(pki.path().join("missing.pem")),
        ..Default::default()
    }))
    .unwrap_err();
    assert!(matches!(err, Error::Tls(_)), "{err}");

    drop(b);

    // Mutual TLS: a broker that requires a client certificate from the CA.
    std::fs::write(
        pki.path().join("client.ext"),
        "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n",
    )
    .unwrap();
    let issued = openssl(
        pki.path(),
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "client.key",
            "-out",
            "client.csr",
            "-subj",
            "/CN=alice",
        ],
    ) && openssl(
        pki.path(),
        &[
            "x509",
            "-req",
            "-in",
            "client.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-set_serial",
            "1002",
            "-days",
            "2",
            "-extfile",
            "client.ext",
            "-out",
            "client.crt",
        ],
    );
    assert!(issued, "openssl could not issue the client certificate");
    let b = common::start(common::Opts {
        settings: vec![
            ("num.partitions".into(), "1".into()),
            (
                "ssl.keystore.location".into(),
                keystore.display().to_string(),
            ),
            (
                "ssl.truststore.location".into(),
                pki.path().join("ca.pem").display().to_string(),
            ),
            ("ssl.client.auth".into(), "required".into()),
        ],
        env: Vec::new(),
        listeners: Some(("PLAINTEXT://127.0.0.1:{0},SSL://127.0.0.1:{1}".into(), 2)),
    })
    .unwrap();
    let mtls_cfg = |tls: TlsConfig| {
        let mut cfg = Config::new([format!("127.0.0.1:{}", b.ports[0])]);
        cfg.request_timeout_ms = 5_000;
        cfg.retries = 0;
        cfg.tls = Some(tls);
        cfg
    };
    let c = Client::connect(mtls_cfg(TlsConfig {
        ca_file: Some(pki.path().join("ca.pem")),
        cert_file: Some(pki.path().join("client.crt")),
        key_file: Some(pki.path().join("client.key")),
        insecure_skip_verify: false,
    }))
    .unwrap();
    round_trip(&c, "mtls");
    // Without a certificate the broker refuses the handshake (TLS 1.3
    // reports it after the client's side is done, so the first request
    // may be what fails).
    let r = Client::connect(mtls_cfg(TlsConfig {
        ca_file: Some(pki.path().join("ca.pem")),
        ..Default::default()
    }));
    assert!(r.is_err(), "a client without a certificate got in");
    let err = Client::connect(mtls_cfg(TlsConfig {
        ca_file: Some(pki.path().join("ca.pem")),
        cert_file: Some(pki.path().join("client.crt")),
        ..Default::default()
    }))
    .unwrap_err();
    assert!(matches!(err, Error::Config(_)), "{err}");
}
