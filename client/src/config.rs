//! Client configuration: where the brokers are and how to talk to them.

use std::str::FromStr;

use crate::error::Error;
pub use crate::tls::TlsConfig;

/// How to reach and authenticate with a cluster, and how hard to try.
#[derive(Debug, Clone)]
pub struct Config {
    /// Bootstrap addresses, "host:port"; any one reachable is enough.
    pub brokers: Vec<String>,
    /// Sent in every request header (brokers log and quota by it).
    pub client_id: String,
    pub tls: Option<TlsConfig>,
    pub sasl: Option<SaslConfig>,
    /// Longest wait for one response (and for connect, handshake, SASL).
    pub request_timeout_ms: u64,
    /// Pause before retrying after a retriable error.
    pub retry_backoff_ms: u64,
    /// Retries after retriable errors, leader moves and lost connections.
    pub retries: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            brokers: vec!["127.0.0.1:9092".into()],
            client_id: "tmk".into(),
            tls: None,
            sasl: None,
            request_timeout_ms: 30_000,
            retry_backoff_ms: 100,
            retries: 10,
        }
    }
}

impl Config {
    /// Defaults with these bootstrap brokers.
    pub fn new<S: Into<String>>(brokers: impl IntoIterator<Item = S>) -> Self {
        Config {
            brokers: brokers.into_iter().map(Into::into).collect(),
            ..Config::default()
        }
    }
}

/// The SASL mechanisms this client implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SaslMechanism {
    Plain,
    ScramSha256,
    ScramSha512,
}

impl SaslMechanism {
    /// Kafka's name, as in `sasl.mechanism`.
    pub fn name(self) -> &'static str {
        match self {
            SaslMechanism::Plain => "PLAIN",
            SaslMechanism::ScramSha256 => "SCRAM-SHA-256",
            SaslMechanism::ScramSha512 => "SCRAM-SHA-512",
        }
    }
}

impl std::fmt::Display for SaslMechanism {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SaslMechanism {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        match s.to_ascii_uppercase().as_str() {
            "PLAIN" => Ok(SaslMechanism::Plain),
            "SCRAM-SHA-256" => Ok(SaslMechanism::ScramSha256),
            "SCRAM-SHA-512" => Ok(SaslMechanism::ScramSha512),
            _ => Err(Error::Config(format!(
                "unknown SASL mechanism {s:?} (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)"
            ))),
        }
    }
}

/// SASL credentials.
#[derive(Debug, Clone)]
pub struct SaslConfig {
    pub mechanism: SaslMechanism,
    pub user: String,
    pub pass: String,
}
