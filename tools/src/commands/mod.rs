//! One module per command family; `run` dispatches the parsed tree, and
//! `connect` / `kerr` are the two bridges to the client library: settings
//! to a `Config`, client errors to the one-line `TmkError`.

pub mod bench;
pub mod cluster;
pub mod consume;
pub mod drain;
pub mod group;
pub mod produce;
pub mod profile;
pub mod quotas;
pub mod security;
pub mod topic;

use clap::CommandFactory;
use tidemark_client::{Client, Config, Error, SaslConfig, SaslMechanism, TlsConfig};

use crate::cli::{BenchCmd, Cli, Command, ConnFlags, Shell};
use crate::errors::{Result, TmkError, hint_for};
use crate::output::write_stdout;
use crate::profile::resolve;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Profile(cmd) => profile::run(&cli.conn, cmd),
        Command::Version => write_stdout(format!("tmk {}\n", env!("CARGO_PKG_VERSION")).as_bytes()),
        Command::Completion { shell } => {
            let mut cmd = Cli::command();
            let mut out = Vec::new();
            let sh = match shell {
                Shell::Bash => clap_complete::Shell::Bash,
                Shell::Zsh => clap_complete::Shell::Zsh,
                Shell::Fish => clap_complete::Shell::Fish,
            };
            clap_complete::generate(sh, &mut cmd, "tmk", &mut out);
            write_stdout(&out)
        }
        Command::Bench(BenchCmd::Produce(b)) => bench::produce(&cli.conn, b),
        Command::Bench(BenchCmd::Consume(b)) => bench::consume(&cli.conn, b),
        Command::Bench(BenchCmd::E2e(b)) => bench::e2e(&cli.conn, b),
        Command::Topic(cmd) => topic::run(&cli.conn, cmd),
        Command::Group(cmd) => group::run(&cli.conn, cmd),
        Command::Cluster(cmd) => cluster::run(&cli.conn, cmd),
        Command::Security(cmd) => security::run(&cli.conn, cmd),
    }
}

/// The client's TLS settings from the profile's `tls.*` (the Kafka
/// connections use them; the admin API too, with `admin.tls.enabled`).
pub fn tls_config(t: crate::profile::Tls) -> TlsConfig {
    TlsConfig {
        ca_file: t.ca,
        cert_file: t.cert,
        key_file: t.key,
        insecure_skip_verify: t.insecure_skip_verify,
    }
}

/// The client configuration for the resolved connection settings.
pub fn client_config(conn: &ConnFlags) -> Result<Config> {
    let s = resolve(conn)?;
    let mut cfg = Config::new(s.brokers.clone());
    cfg.request_timeout_ms = conn.request_timeout_ms;
    // A CLI should fail fast when nothing answers: a few quick retries
    // cover a leader move, not a broker that is down.
    cfg.retries = 3;
    if let Some(t) = s.tls.filter(|t| t.enabled) {
        cfg.tls = Some(tls_config(t));
    }
    if let Some(sasl) = s.sasl.filter(|s| s.user.is_some() || s.pass.is_some()) {
        let mech = sasl.mechanism.as_deref().unwrap_or("SCRAM-SHA-256");
        let mechanism: SaslMechanism = mech.parse().map_err(|_| {
            TmkError::msg(format!("unknown SASL mechanism {mech:?}"))
                .with_hint("use PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512")
        })?;
        cfg.sasl = Some(SaslConfig {
            mechanism,
            user: sasl.user.unwrap_or_default(),
            pass: sasl.pass.unwrap_or_default(),
        });
    }
    Ok(cfg)
}

/// Connects (bootstrap, ApiVersions, Metadata) with the resolved settings.
pub fn connect(conn: &ConnFlags) -> Result<Client> {
    let cfg = client_config(conn)?;
    let brokers = cfg.brokers.join(",");
    Client::connect(cfg).map_err(|e| kerr(&format!("connecting to {brokers}"), e))
}

/// A client error, for the action `what`, as a one-line `TmkError`.
pub fn kerr(what: &str, e: Error) -> TmkError {
    match e {
        Error::Kafka { code, message, context } => {
            let mut w = what.to_string();
            if !context.is_empty() && !what.contains(&context) {
                w = format!("{w} ({context})");
            }
            if let Some(m) = message.filter(|m| !m.is_empty() && m != code.message()) {
                w = format!("{w}: {m}");
            }
            TmkError {
                what: w,
                name: Some(code.name().to_string()),
                hint: Some(hint_for(code.name()).unwrap_or(code.message()).to_string()),
            }
        }
        // The client's `broker` often says "connecting to ADDR" already.
        Error::Io { broker, source } if what.starts_with("connecting to") && broker.starts_with("connecting to") => {
            TmkError::msg(format!("{broker}: {source}"))
                .with_hint("is the broker up? set the address with -X brokers=HOST:PORT, --brokers or TMK_BROKERS")
        }
        Error::Io { broker, source } => TmkError::msg(format!("{what}: {broker}: {source}"))
            .with_hint("is the broker up? set the address with -X brokers=HOST:PORT, --brokers or TMK_BROKERS"),
        Error::Timeout { what: w, after_ms } => TmkError::msg(format!("{what}: timed out after {after_ms} ms ({w})"))
            .with_hint("check that the broker is up and reachable (-X brokers=)"),
        Error::Tls(m) => TmkError::msg(format!("{what}: TLS: {m}")).with_hint("check -X tls.ca=, tls.cert=, tls.key="),
        Error::Sasl(m) => TmkError::msg(format!("{what}: SASL: {m}"))
            .with_hint("check -X user=, pass= and sasl.mechanism="),
        Error::UnsupportedVersion { api } => TmkError::msg(format!("{what}: the broker does not support {api}")),
        other => TmkError::msg(format!("{what}: {other}")),
    }
}

/// Prints `rows` as a table (or JSON/YAML), then fails with the first
/// per-item error, so a partial failure still shows what succeeded and
/// exits 1.
pub fn first_error(errors: Vec<TmkError>) -> Result<()> {
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tidemark_client::ErrorCode;

    #[test]
    fn kafka_errors_name_the_code_and_a_next_step() {
        let e = Error::Kafka {
            code: ErrorCode::from_code(3).unwrap(),
            message: None,
            context: "foo/0".into(),
        };
        let line = kerr("producing to foo", e).to_string();
        assert!(
            line.starts_with("tmk: producing to foo (foo/0): UNKNOWN_TOPIC_OR_PARTITION: "),
            "{line}"
        );
        assert!(line.contains("tmk topic list"), "{line}");
    }

    #[test]
    fn connection_errors_say_where_and_what_to_do() {
        let e = Error::Io {
            broker: "connecting to 127.0.0.1:1".into(),
            source: std::io::Error::from(std::io::ErrorKind::ConnectionRefused),
        };
        let line = kerr("connecting to 127.0.0.1:1", e).to_string();
        assert_eq!(line.matches("127.0.0.1:1").count(), 1, "{line}");
        assert!(line.contains("-X brokers="), "{line}");
    }

    #[test]
    fn settings_become_a_client_config() {
        let conn = ConnFlags {
            x: vec![
                "brokers=a:1,b:2".into(),
                "tls.ca=/ca.pem".into(),
                "user=u".into(),
                "pass=p".into(),
            ],
            config: Some("/nonexistent/tmk.yaml".into()),
            request_timeout_ms: 5000,
            ..ConnFlags::default()
        };
        let cfg = client_config(&conn).unwrap();
        assert_eq!(cfg.brokers, ["a:1", "b:2"]);
        assert_eq!(
            cfg.tls.unwrap().ca_file.as_deref(),
            Some(std::path::Path::new("/ca.pem"))
        );
        let sasl = cfg.sasl.unwrap();
        assert_eq!(
            (sasl.user.as_str(), sasl.mechanism),
            ("u", SaslMechanism::ScramSha256)
        );
        let bad = ConnFlags {
            x: vec!["user=u".into(), "sasl.mechanism=GSSAPI".into()],
            config: conn.config.clone(),
            ..ConnFlags::default()
        };
        assert!(client_config(&bad).is_err());
    }
}
