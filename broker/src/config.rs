//! The broker's start-up configuration: command-line flags, `TIDEMARK_*`
//! environment variables and a TOML file, in that order of precedence
//! (flags win). Kafka-named settings go through [`crate::settings`].

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;

use clap::Parser;
use serde::Deserialize;

use crate::settings::{SettingError, Settings};

/// Command-line flags. Every flag also reads `TIDEMARK_<FLAG>`.
#[derive(Debug, Parser)]
#[command(name = "tidemark", version, about = "A Kafka-protocol message broker")]
pub struct Cli {
    /// TOML file with any of the settings below (flags and environment win).
    #[arg(long, env = "TIDEMARK_CONFIG")]
    pub config: Option<PathBuf>,
    /// Folder for the log and metadata.
    #[arg(long, env = "TIDEMARK_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Address the Kafka listener binds.
    #[arg(long, env = "TIDEMARK_KAFKA_ADDR")]
    pub kafka_addr: Option<String>,
    /// Address clients are told to connect to (defaults to --kafka-addr).
    #[arg(long, env = "TIDEMARK_ADVERTISE_KAFKA_ADDR")]
    pub advertise_kafka_addr: Option<String>,
    /// This broker's node id.
    #[arg(long, env = "TIDEMARK_NODE_ID")]
    pub node_id: Option<i32>,
    /// Shards (threads, one per core); default: every core.
    #[arg(long, env = "TIDEMARK_CORES")]
    pub cores: Option<usize>,
    /// A broker setting by its Kafka name, e.g. `--set num.partitions=6`.
    /// May be repeated. `TIDEMARK_SET` takes a comma-separated list.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

/// The TOML file's shape.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FileConfig {
    data_dir: Option<PathBuf>,
    kafka_addr: Option<String>,
    advertise_kafka_addr: Option<String>,
    node_id: Option<i32>,
    cores: Option<usize>,
    /// Kafka-named settings: `[settings]` with `"log.retention.ms" = 1000`.
    #[serde(default)]
    settings: toml::Table,
}

/// Everything the broker needs to start.
#[derive(Debug, Clone)]
pub struct BrokerConfig {
    pub data_dir: PathBuf,
    pub kafka_addr: SocketAddr,
    pub advertised_host: String,
    pub advertised_port: u16,
    pub node_id: i32,
    pub cores: usize,
    pub settings: Settings,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("config file {path}: {message}")]
    Toml { path: PathBuf, message: String },
    #[error("invalid address '{0}': expected HOST:PORT")]
    Address(String),
    #[error("--set expects NAME=VALUE, got '{0}'")]
    SetSyntax(String),
    #[error("{0}")]
    Setting(#[from] SettingError),
    #[error("--cores must be at least 1")]
    Cores,
    #[error("--node-id must not be negative")]
    NodeId,
}

fn split_host_port(s: &str) -> Result<(String, u16), ConfigError> {
    let (host, port) = s
        .rsplit_once(':')
        .ok_or_else(|| ConfigError::Address(s.to_string()))?;
    let port: u16 = port
        .parse()
        .map_err(|_| ConfigError::Address(s.to_string()))?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err(ConfigError::Address(s.to_string()));
    }
    Ok((host.to_string(), port))
}

fn toml_value_string(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl BrokerConfig {
    /// Builds the configuration from flags, environment and file.
    pub fn from_cli(cli: Cli) -> Result<Self, ConfigError> {
        let file = match &cli.config {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| ConfigError::File {
                    path: path.clone(),
                    source,
                })?;
                toml::from_str::<FileConfig>(&text).map_err(|e| ConfigError::Toml {
                    path: path.clone(),
                    message: e.to_string(),
                })?
            }
            None => FileConfig::default(),
        };
        let mut settings = Settings::default();
        for (k, v) in &file.settings {
            settings.set_static(k, &toml_value_string(v))?;
        }
        // TIDEMARK_SET="a=1,b=2", then TIDEMARK_<KAFKA_NAME> for known names.
        if let Ok(list) = std::env::var("TIDEMARK_SET") {
            for item in list.split(',').filter(|s| !s.trim().is_empty()) {
                let (k, v) = item
                    .split_once('=')
                    .ok_or_else(|| ConfigError::SetSyntax(item.to_string()))?;
                settings.set_static(k.trim(), v)?;
            }
        }
        for def in crate::settings::BROKER_SETTINGS {
            let var = format!(
                "TIDEMARK_{}",
                def.name.replace('.', "_").to_ascii_uppercase()
            );
            if let Ok(v) = std::env::var(&var) {
                settings.set_static(def.name, &v)?;
            }
        }
        for item in &cli.set {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| ConfigError::SetSyntax(item.clone()))?;
            settings.set_static(k.trim(), v)?;
        }

        let addr_text = cli
            .kafka_addr
            .or(file.kafka_addr)
            .unwrap_or_else(|| "127.0.0.1:9092".to_string());
        let kafka_addr = addr_text
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| ConfigError::Address(addr_text.clone()))?;
        let (advertised_host, advertised_port) =
            match cli.advertise_kafka_addr.or(file.advertise_kafka_addr) {
                Some(a) => split_host_port(&a)?,
                None => {
                    let host = if kafka_addr.ip().is_unspecified() {
                        "127.0.0.1".to_string()
                    } else {
                        kafka_addr.ip().to_string()
                    };
                    (host, kafka_addr.port())
                }
            };
        let cores = cli.cores.or(file.cores).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        });
        if cores == 0 {
            return Err(ConfigError::Cores);
        }
        let node_id = cli.node_id.or(file.node_id).unwrap_or(1);
        if node_id < 0 {
            return Err(ConfigError::NodeId);
        }
        Ok(BrokerConfig {
            data_dir: cli
                .data_dir
                .or(file.data_dir)
                .unwrap_or_else(|| PathBuf::from("tidemark-data")),
            kafka_addr,
            advertised_host,
            advertised_port,
            node_id,
            cores,
            settings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_file_and_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.toml");
        std::fs::write(
            &path,
            "data-dir = \"/x\"\nnode-id = 4\n[settings]\n\"num.partitions\" = 3\n\"log.retention.ms\" = 1000\n",
        )
        .unwrap();
        let cli = Cli::parse_from([
            "tidemark",
            "--config",
            path.to_str().unwrap(),
            "--set",
            "num.partitions=6",
            "--kafka-addr",
            "127.0.0.1:19092",
        ]);
        let c = BrokerConfig::from_cli(cli).unwrap();
        assert_eq!(c.data_dir, PathBuf::from("/x"));
        assert_eq!(c.node_id, 4);
        assert_eq!(c.settings.i32("num.partitions"), 6);
        assert_eq!(c.settings.i64("log.retention.ms"), 1000);
        assert_eq!(
            (c.advertised_host.as_str(), c.advertised_port),
            ("127.0.0.1", 19092)
        );

        let bad = Cli::parse_from(["tidemark", "--set", "no.such.thing=1"]);
        let err = BrokerConfig::from_cli(bad).unwrap_err().to_string();
        assert!(err.contains("unknown setting 'no.such.thing'"), "{err}");
        let bad = Cli::parse_from(["tidemark", "--set", "num.partitions"]);
        assert!(matches!(
            BrokerConfig::from_cli(bad),
            Err(ConfigError::SetSyntax(_))
        ));
    }
}
