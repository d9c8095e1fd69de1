//! SASL authentication on a new connection: SaslHandshake v1 then
//! SaslAuthenticate frames carrying PLAIN (RFC 4616) or SCRAM (RFC 5802 /
//! RFC 7677) messages. SCRAM checks the server's nonce extension and its
//! final signature, so a broker that does not know the password cannot
//! pretend to.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use bytes::Bytes;
use kafka_protocol::ApiKey;
use kafka_protocol::generated::{SaslAuthenticateRequest, SaslHandshakeRequest};
use ring::{digest, hmac, pbkdf2};
use std::num::NonZeroU32;

use crate::config::{SaslConfig, SaslMechanism};
use crate::conn::Conn;
use crate::error::Error;

/// Kafka's minimum SCRAM iteration count, and the default for new users.
pub const SCRAM_MIN_ITERATIONS: u32 = 4096;
/// Kafka's maximum; a server asking more is refused (it would cost CPU).
pub const SCRAM_MAX_ITERATIONS: u32 = 16384;

pub(crate) fn authenticate(conn: &Conn, cfg: &SaslConfig, timeout_ms: u64) -> Result<(), Error> {
    let hv = conn.version_for(ApiKey::SaslHandshake).map_err(|_| {
        Error::Sasl(format!(
            "{} does not offer SASL (SaslHandshake v1)",
            conn.addr()
        ))
    })?;
    let hs = conn.request(
        &SaslHandshakeRequest {
            mechanism: cfg.mechanism.name().into(),
            ..Default::default()
        },
        hv,
        timeout_ms,
    )?;
    if hs.error_code != 0 {
        return Err(Error::Sasl(format!(
            "{} refuses mechanism {} (offers {}): {}",
            conn.addr(),
            cfg.mechanism,
            hs.mechanisms.join(", "),
            Error::from_code(hs.error_code, None, "")
                .map(|e| e.to_string())
                .unwrap_or_default()
        )));
    }
    let av = conn.version_for(ApiKey::SaslAuthenticate)?;
    let step = |bytes: Vec<u8>| -> Result<Bytes, Error> {
        let r = conn.request(
            &SaslAuthenticateRequest {
                auth_bytes: Bytes::from(bytes),
                ..Default::default()
            },
            av,
            timeout_ms,
        )?;
        if r.error_code != 0 {
            let e = Error::from_code(r.error_code, r.error_message, "")
                .map(|e| e.to_string())
                .unwrap_or_default();
            return Err(Error::Sasl(format!(
                "{} as {:?} with {}: {e}",
                conn.addr(),
                cfg.user,
                cfg.mechanism
            )));
        }
        Ok(r.auth_bytes)
    };
    match cfg.mechanism {
        SaslMechanism::Plain => {
            let mut msg = Vec::with_capacity(cfg.user.len() + cfg.pass.len() + 2);
            msg.push(0);
            msg.extend_from_slice(cfg.user.as_bytes());
            msg.push(0);
            msg.extend_from_slice(cfg.pass.as_bytes());
            step(msg)?;
            Ok(())
        }
        SaslMechanism::ScramSha256 | SaslMechanism::ScramSha512 => {
            let mut scram =
                ScramClient::new(cfg.mechanism, &cfg.user, &cfg.pass, &random_nonce()?)?;
            let server_first = step(scram.client_first().into_bytes())?;
            let client_final = scram.client_final(&server_first)?;
            let server_final = step(client_final.into_bytes())?;
            scram.verify_server_final(&server_final)
        }
    }
}

fn random_nonce() -> Result<String, Error> {
    use ring::rand::SecureRandom;
    let mut b = [0u8; 24];
    ring::rand::SystemRandom::new()
        .fill(&mut b)
        .map_err(|_| Error::Sasl("no randomness for the SCRAM nonce".into()))?;
    Ok(B64.encode(b))
}

/// Random bytes for a SCRAM salt.
pub(crate) fn random_salt() -> Result<Vec<u8>, Error> {
    use ring::rand::SecureRandom;
    let mut b = vec![0u8; 32];
    ring::rand::SystemRandom::new()
        .fill(&mut b)
        .map_err(|_| Error::Sasl("no randomness for the SCRAM salt".into()))?;
    Ok(b)
}

struct Algo {
    pbkdf2: pbkdf2::Algorithm,
    hmac: hmac::Algorithm,
    digest: &'static digest::Algorithm,
    len: usize,
}

fn algo(m: SaslMechanism) -> Result<Algo, Error> {
    match m {
        SaslMechanism::ScramSha256 => Ok(Algo {
            pbkdf2: pbkdf2::PBKDF2_HMAC_SHA256,
            hmac: hmac::HMAC_SHA256,
            digest: &digest::SHA256,
            len: 32,
        }),
        SaslMechanism::ScramSha512 => Ok(Algo {
            pbkdf2: pbkdf2::PBKDF2_HMAC_SHA512,
            hmac: hmac::HMAC_SHA512,
            digest: &digest::SHA512,
            len: 64,
        }),
        SaslMechanism::Plain => Err(Error::Config("PLAIN is not a SCRAM mechanism".into())),
    }
}

/// `Hi(password, salt, i)`: the salted password SCRAM stores and Kafka's
/// AlterUserScramCredentials takes (the broker never sees the password).
pub fn salted_password(
    mechanism: SaslMechanism,
    password: &str,
    salt: &[u8],
    iterations: u32,
) -> Result<Vec<u8>, Error> {
    let a = algo(mechanism)?;
    let n = NonZeroU32::new(iterations)
        .ok_or_else(|| Error::Config("SCRAM iterations must be > 0".into()))?;
    let mut out = vec![0u8; a.len];
    pbkdf2::derive(a.pbkdf2, n, salt, password.as_bytes(), &mut out);
    Ok(out)
}

fn hmac_sign(a: &Algo, key: &[u8], data: &[u8]) -> Vec<u8> {
    hmac::sign(&hmac::Key::new(a.hmac, key), data)
        .as_ref()
        .to_vec()
}

/// The client side of one SCRAM exchange.
pub(crate) struct ScramClient {
    mechanism: SaslMechanism,
    user: String,
    pass: String,
    nonce: String,
    client_first_bare: String,
    server_signature: Option<Vec<u8>>,
}

impl ScramClient {
    pub(crate) fn new(
        mechanism: SaslMechanism,
        user: &str,
        pass: &str,
        nonce: &str,
    ) -> Result<Self, Error> {
        algo(mechanism)?;
        let user = user.replace('=', "=3D").replace(',', "=2C");
        let client_first_bare = format!("n={user},r={nonce}");
        Ok(ScramClient {
            mechanism,
            user,
            pass: pass.to_string(),
            nonce: nonce.to_string(),
            client_first_bare,
            server_signature: None,
        })
    }

    pub(crate) fn client_first(&self) -> String {
        format!("n,,{}", self.client_first_bare)
    }

    pub(crate) fn client_final(&mut self, server_first: &[u8]) -> Result<String, Error> {
        let bad = |why: &str| Error::Sasl(format!("bad SCRAM server-first message: {why}"));
        let sf = std::str::from_utf8(server_first).map_err(|_| bad("not UTF-8"))?;
        let (mut r, mut s, mut i) = (None, None, None);
        for attr in sf.split(',') {
            match attr.split_once('=') {
                Some(("r", v)) => r = Some(v),
                Some(("s", v)) => s = Some(v),
                Some(("i", v)) => i = Some(v),
                Some(("e", v)) => {
                    return Err(Error::Sasl(format!(
                        "server refused user {:?}: {v}",
                        self.user
                    )));
                }
                _ => {}
            }
        }
        let r = r.ok_or_else(|| bad("no nonce"))?;
        if !r.starts_with(&self.nonce) || r.len() <= self.nonce.len() {
            return Err(bad("server nonce does not extend ours"));
        }
        let salt = B64
            .decode(s.ok_or_else(|| bad("no salt"))?)
            .map_err(|_| bad("salt not base64"))?;
        let iterations: u32 = i
            .ok_or_else(|| bad("no iteration count"))?
            .parse()
            .map_err(|_| bad("iteration count"))?;
        if !(1..=SCRAM_MAX_ITERATIONS).contains(&iterations) {
            return Err(bad("iteration count out of range"));
        }
        let a = algo(self.mechanism)?;
        let salted = salted_password(self.mechanism, &self.pass, &salt, iterations)?;
        let client_key = hmac_sign(&a, &salted, b"Client Key");
        let stored_key = digest::digest(a.digest, &client_key);
        let without_proof = format!("c=biws,r={r}");
        let auth_message = format!("{},{sf},{without_proof}", self.client_first_bare);
        let client_sig = hmac_sign(&a, stored_key.as_ref(), auth_message.as_bytes());
        let proof: Vec<u8> = client_key
            .iter()
            .zip(&client_sig)
            .map(|(k, s)| k ^ s)
            .collect();
        let server_key = hmac_sign(&a, &salted, b"Server Key");
        self.server_signature = Some(hmac_sign(&a, &server_key, auth_message.as_bytes()));
        Ok(format!("{without_proof},p={}", B64.encode(proof)))
    }

    pub(crate) fn verify_server_final(&self, server_final: &[u8]) -> Result<(), Error> {
        let sf = std::str::from_utf8(server_final)
            .map_err(|_| Error::Sasl("bad SCRAM server-final message".into()))?;
        if let Some(e) = sf.strip_prefix("e=") {
            return Err(Error::Sasl(format!("server refused: {e}")));
        }
        let v = sf
            .split(',')
            .find_map(|a| a.strip_prefix("v="))
            .ok_or_else(|| Error::Sasl("SCRAM server-final without a signature".into()))?;
        let got = B64
            .decode(v)
            .map_err(|_| Error::Sasl("SCRAM server signature not base64".into()))?;
        match &self.server_signature {
            Some(want)
                if want.len() == got.len()
                    && want.iter().zip(&got).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0 =>
            {
                Ok(())
            }
            _ => Err(Error::Sasl(
                "SCRAM server signature does not match: the server does not know the password"
                    .into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7677 section 3's example exchange.
    #[test]
    fn scram_sha256_rfc7677() {
        let mut c = ScramClient::new(
            SaslMechanism::ScramSha256,
            "user",
            "pencil",
            "rOprNGfwEbeRWgbNEkqO",
        )
        .unwrap();
        assert_eq!(c.client_first(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        let fin = c
            .client_final(b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
            .unwrap();
        assert_eq!(
            fin,
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
        );
        c.verify_server_final(b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
            .unwrap();
        assert!(
            c.verify_server_final(b"v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
                .is_err()
        );
        assert!(c.verify_server_final(b"e=invalid-proof").is_err());
    }

    #[test]
    fn scram_refuses_a_nonce_that_is_not_ours() {
        let mut c = ScramClient::new(SaslMechanism::ScramSha512, "u", "p", "abc").unwrap();
        assert!(c.client_final(b"r=xyz123,s=AAAA,i=4096").is_err());
        assert!(c.client_final(b"r=abc123,s=AAAA,i=99999999").is_err());
    }
}
