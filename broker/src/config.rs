//! The broker's start-up configuration: command-line flags, `TIDEMARK_*`
//! environment variables and a TOML file, in that order of precedence
//! (flags win). Kafka-named settings go through [`crate::settings`].

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;

use clap::Parser;
use serde::Deserialize;

use crate::listeners::{Listener, ListenerError};
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
    /// Address for broker-to-broker (Raft) traffic; cluster mode only.
    #[arg(long, env = "TIDEMARK_RPC_ADDR")]
    pub rpc_addr: Option<String>,
    /// Address other brokers are told to reach this one at (defaults to
    /// --rpc-addr), e.g. behind a proxy or NAT.
    #[arg(long, env = "TIDEMARK_ADVERTISE_RPC_ADDR")]
    pub advertise_rpc_addr: Option<String>,
    /// The initial controller voters, `ID@HOST:PORT,...` (their
    /// --rpc-addr). Without it the broker runs alone (single node).
    #[arg(long, env = "TIDEMARK_SEEDS")]
    pub seeds: Option<String>,
    /// This broker's rack (Kafka's `broker.rack`, an availability zone):
    /// replicas of a partition go to distinct racks.
    #[arg(long, env = "TIDEMARK_RACK")]
    pub rack: Option<String>,
    /// The admin HTTP server's address (/metrics, /v1/...), HOST:PORT;
    /// port 0 picks a free one; empty: no admin server. Overrides the
    /// `admin.listeners` setting (default 127.0.0.1:9644).
    #[arg(long, env = "TIDEMARK_ADMIN_ADDR")]
    pub admin_addr: Option<String>,
    /// A bearer token the admin server then asks of every request but the
    /// liveness and readiness probes (`Authorization: Bearer TOKEN`).
    /// Give it through the environment: a flag is visible to `ps`.
    #[arg(long, env = "TIDEMARK_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Log lines as plain text (default) or as one JSON object per line
    /// (tracing-subscriber's JSON format, for log shippers).
    #[arg(long, env = "TIDEMARK_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// A broker setting by its Kafka name, e.g. `--set num.partitions=6`.
    /// May be repeated. `TIDEMARK_SET` takes a comma-separated list.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
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
    rpc_addr: Option<String>,
    advertise_rpc_addr: Option<String>,
    seeds: Option<String>,
    rack: Option<String>,
    admin_addr: Option<String>,
    /// Kafka-named settings: `[settings]` with `"log.retention.ms" = 1000`.
    #[serde(default)]
    settings: toml::Table,
}

/// Everything the broker needs to start.
#[derive(Debug, Clone)]
pub struct BrokerConfig {
    pub data_dir: PathBuf,
    /// The first listener's bind address and advertised address (what a
    /// broker registered before listeners existed; logs).
    pub kafka_addr: SocketAddr,
    pub advertised_host: String,
    pub advertised_port: u16,
    /// Every Kafka listener (`listeners`, or one PLAINTEXT listener on
    /// `--kafka-addr`).
    pub listeners: Vec<Listener>,
    pub node_id: i32,
    pub cores: usize,
    pub settings: Settings,
    /// Cluster mode: set when `--seeds` is given.
    pub cluster: Option<ClusterConfig>,
    /// The admin HTTP server's address (`None`: no admin server).
    pub admin_addr: Option<SocketAddr>,
    /// `metrics.enabled`: the shards count requests, bytes and records.
    pub metrics_enabled: bool,
    /// `replica.selector.class` is Kafka's `RackAwareReplicaSelector`: a
    /// partition's leader points a consumer that names its rack at a
    /// replica in that rack (KIP-392; `cluster::read_replica`).
    pub rack_aware_reads: bool,
    /// `TIDEMARK_ADMIN_TOKEN`: the admin server's bearer token.
    pub admin_token: Option<AdminToken>,
}

/// The admin server's bearer token; its `Debug` does not show it.
#[derive(Clone)]
pub struct AdminToken(pub String);

impl std::fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AdminToken(..)")
    }
}

/// How this broker takes part in a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterConfig {
    /// Where this broker listens for other brokers.
    pub rpc_addr: SocketAddr,
    /// Where other brokers reach it (registered with the controller).
    pub advertised_rpc_addr: String,
    /// The controller voters and their rpc addresses.
    pub seeds: Vec<(i32, SocketAddr)>,
    pub rack: Option<String>,
}

impl ClusterConfig {
    /// Whether this broker is one of the controller voters.
    pub fn is_voter(&self, node_id: i32) -> bool {
        self.seeds.iter().any(|(id, _)| *id == node_id)
    }
}

fn resolve(text: &str) -> Result<SocketAddr, ConfigError> {
    text.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| ConfigError::Address(text.to_string()))
}

/// Parses `1@host:port,2@host:port`.
/// Splits `TIDEMARK_SET`'s `name=value,name=value` list. A value may hold
/// commas itself (`listeners=PLAINTEXT://h:9092,SSL://h:9093`,
/// `sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256`, mapping rules): a piece
/// starts a new setting only if the text before its first `=` names a
/// known setting; otherwise it continues the previous value (so an
/// unknown name after the first setting is refused as part of that
/// setting's value).
fn split_set_list(list: &str) -> Result<Vec<(String, String)>, ConfigError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for piece in list.split(',') {
        let starts_setting = piece.split_once('=').is_some_and(|(k, _)| {
            let k = k.trim();
            crate::settings::broker_setting(k).is_some()
                || crate::settings::topic_config(k).is_some()
                || crate::settings::kafka_broker_config(k).is_some()
        });
        match (starts_setting, out.last_mut()) {
            (true, _) => {
                let (k, v) = piece.split_once('=').expect("checked above");
                out.push((k.trim().to_string(), v.to_string()));
            }
            (false, Some((_, v))) => {
                v.push(',');
                v.push_str(piece);
            }
            (false, None) if piece.trim().is_empty() => {}
            // An unknown name first: handed on, to be refused by name.
            (false, None) => match piece.split_once('=') {
                Some((k, v)) => out.push((k.trim().to_string(), v.to_string())),
                None => return Err(ConfigError::SetSyntax(piece.to_string())),
            },
        }
    }
    // A trailing comma leaves an empty continuation: drop it.
    for (_, v) in &mut out {
        while v.ends_with(',') {
            v.pop();
        }
    }
    Ok(out)
}

fn parse_seeds(text: &str) -> Result<Vec<(i32, SocketAddr)>, ConfigError> {
    let mut out: Vec<(i32, SocketAddr)> = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let bad = || ConfigError::Seeds(item.to_string());
        let (id, addr) = item.split_once('@').ok_or_else(bad)?;
        let id: i32 = id.trim().parse().map_err(|_| bad())?;
        if id < 0 || out.iter().any(|(o, _)| *o == id) {
            return Err(bad());
        }
        out.push((id, resolve(addr.trim()).map_err(|_| bad())?));
    }
    if out.is_empty() {
        return Err(ConfigError::Seeds(text.to_string()));
    }
    Ok(out)
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
    #[error("{0}")]
    Listener(#[from] ListenerError),
    #[error(
        "--kafka-addr/--advertise-kafka-addr and the listeners setting both given: use listeners and advertised.listeners"
    )]
    ListenersTwice,
    #[error("{key}: this broker has no listener of that name (its listeners: {listeners})")]
    NoSuchListener { key: String, listeners: String },
    #[error("--cores must be at least 1")]
    Cores,
    #[error("--node-id must not be negative")]
    NodeId,
    #[error("invalid --seeds entry '{0}': expected ID@HOST:PORT with a unique, non-negative id")]
    Seeds(String),
    #[error("--seeds needs --rpc-addr (this broker's address for other brokers)")]
    RpcAddrMissing,
    #[error("--rpc-addr and --rack only make sense with --seeds (cluster mode)")]
    ClusterFlagsWithoutSeeds,
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
            for (k, v) in split_set_list(&list)? {
                settings.set_static(&k, &v)?;
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
        settings.check_combinations()?;

        let kafka_addr_flag = cli.kafka_addr.or(file.kafka_addr);
        let advertise_flag = cli.advertise_kafka_addr.or(file.advertise_kafka_addr);
        let listeners_text = settings.get("listeners");
        let protocol_map = settings.get("listener.security.protocol.map");
        let advertised_listeners = settings.get("advertised.listeners");
        let listeners = if listeners_text.trim().is_empty() {
            // --kafka-addr: shorthand for one PLAINTEXT listener.
            let addr_text = kafka_addr_flag.unwrap_or_else(|| "127.0.0.1:9092".to_string());
            let kafka_addr = resolve(&addr_text)?;
            let (host, port) = match advertise_flag {
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
            let mut l = vec![Listener {
                name: "PLAINTEXT".to_string(),
                protocol: crate::listeners::SecurityProtocol::Plaintext,
                bind: kafka_addr,
                advertised_host: host,
                advertised_port: port,
            }];
            // Written out as the `listeners` in force, so DescribeConfigs
            // (admin tools, `kafka-configs.sh --describe --all`) shows the
            // listener rather than an empty default.
            let bind = if kafka_addr.is_ipv6() {
                format!("PLAINTEXT://[{}]:{}", kafka_addr.ip(), kafka_addr.port())
            } else {
                format!("PLAINTEXT://{kafka_addr}")
            };
            if !advertised_listeners.trim().is_empty() {
                // advertised.listeners may still rename the address.
                l = crate::listeners::parse(&bind, &advertised_listeners, &protocol_map)?;
            }
            settings.set_static("listeners", &bind)?;
            l
        } else {
            if kafka_addr_flag.is_some() || advertise_flag.is_some() {
                return Err(ConfigError::ListenersTwice);
            }
            crate::listeners::parse(&listeners_text, &advertised_listeners, &protocol_map)?
        };
        // A per-listener setting must name a listener of this broker
        // (Kafka ignores one that does not; here a typo in a listener
        // name would silently leave that listener on the broker's
        // certificates or mechanisms, so it is refused).
        for (key, _) in settings.listener_statics() {
            let Some((name, _)) = crate::settings::listener_prefixed(key) else {
                continue;
            };
            if !listeners.iter().any(|l| l.name.eq_ignore_ascii_case(name)) {
                return Err(ConfigError::NoSuchListener {
                    key: key.clone(),
                    listeners: listeners
                        .iter()
                        .map(|l| l.name.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
        }
        let first = &listeners[0];
        let (kafka_addr, advertised_host, advertised_port) = (
            first.bind,
            first.advertised_host.clone(),
            first.advertised_port,
        );
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
        let rpc_addr = cli.rpc_addr.or(file.rpc_addr);
        let rack = cli.rack.or(file.rack).filter(|r| !r.is_empty());
        let cluster = match cli.seeds.or(file.seeds) {
            Some(seeds) => {
                let seeds = parse_seeds(&seeds)?;
                let rpc_text = rpc_addr.ok_or(ConfigError::RpcAddrMissing)?;
                let rpc_addr = resolve(&rpc_text)?;
                let advertised_rpc_addr = match cli.advertise_rpc_addr.or(file.advertise_rpc_addr) {
                    Some(a) => resolve(&a)?.to_string(),
                    None => rpc_addr.to_string(),
                };
                Some(ClusterConfig {
                    rpc_addr,
                    advertised_rpc_addr,
                    seeds,
                    rack,
                })
            }
            None if rpc_addr.is_some() || rack.is_some() => {
                return Err(ConfigError::ClusterFlagsWithoutSeeds);
            }
            None => None,
        };
        // --admin-addr, the file's admin-addr, else admin.listeners.
        let admin_text = cli
            .admin_addr
            .or(file.admin_addr)
            .unwrap_or_else(|| settings.get("admin.listeners"));
        let admin_addr = match admin_text.trim() {
            "" => None,
            a => Some(resolve(a)?),
        };
        let admin_token = cli.admin_token.filter(|t| !t.is_empty()).map(AdminToken);
        Ok(BrokerConfig {
            admin_token,
            metrics_enabled: settings.get("metrics.enabled") == "true",
            rack_aware_reads: settings.get("replica.selector.class")
                == crate::settings::RACK_AWARE_SELECTOR,
            admin_addr,
            cluster,
            data_dir: cli
                .data_dir
                .or(file.data_dir)
                .unwrap_or_else(|| PathBuf::from("tidemark-data")),
            kafka_addr,
            advertised_host,
            advertised_port,
            listeners,
            node_id,
            cores,
            settings,
        })
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn set_list_values_may_hold_commas() {
        let got = super::split_set_list(
            "listeners=PLAINTEXT://127.0.0.1:9092,SSL://127.0.0.1:9093,num.partitions=3,\
             sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,\
             ssl.principal.mapping.rules=RULE:^CN=(.*?),OU=(.*?)$/$1/,DEFAULT,",
        )
        .unwrap();
        let want = [
            (
                "listeners",
                "PLAINTEXT://127.0.0.1:9092,SSL://127.0.0.1:9093",
            ),
            ("num.partitions", "3"),
            ("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256"),
            (
                "ssl.principal.mapping.rules",
                "RULE:^CN=(.*?),OU=(.*?)$/$1/,DEFAULT",
            ),
        ];
        assert_eq!(
            got,
            want.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>()
        );
        assert!(super::split_set_list("nonsense").is_err());
    }

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

    #[test]
    fn per_listener_settings_name_a_listener_of_this_broker() {
        let cli = Cli::parse_from([
            "tidemark",
            "--set",
            "listeners=PLAINTEXT://127.0.0.1:19092,SASL_SSL://127.0.0.1:19093",
            "--set",
            "listener.name.SASL_SSL.sasl.enabled.mechanisms=SCRAM-SHA-512",
            "--set",
            "listener.name.sasl_ssl.connections.max.reauth.ms=60000",
        ]);
        let c = BrokerConfig::from_cli(cli).unwrap();
        let s = &c.settings;
        assert_eq!(
            s.get_for_listener("SASL_SSL", "sasl.enabled.mechanisms"),
            "SCRAM-SHA-512"
        );
        assert_eq!(
            s.get_for_listener("SASL_SSL", "connections.max.reauth.ms"),
            "60000"
        );
        // Other listeners keep the broker's value.
        assert_eq!(
            s.get_for_listener("PLAINTEXT", "sasl.enabled.mechanisms"),
            s.get("sasl.enabled.mechanisms")
        );

        let typo = Cli::parse_from([
            "tidemark",
            "--set",
            "listener.name.sasl_sll.sasl.enabled.mechanisms=PLAIN",
        ]);
        let err = BrokerConfig::from_cli(typo).unwrap_err().to_string();
        assert!(
            err.contains("listener.name.sasl_sll.sasl.enabled.mechanisms")
                && err.contains("no listener of that name")
                && err.contains("PLAINTEXT"),
            "{err}"
        );
        let not_per_listener = Cli::parse_from([
            "tidemark",
            "--set",
            "listener.name.plaintext.num.partitions=3",
        ]);
        let err = BrokerConfig::from_cli(not_per_listener)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("takes only these settings per listener"),
            "{err}"
        );
        let bad_value = Cli::parse_from([
            "tidemark",
            "--set",
            "listener.name.plaintext.connections.max.reauth.ms=soon",
        ]);
        let err = BrokerConfig::from_cli(bad_value).unwrap_err().to_string();
        assert!(err.contains("invalid value 'soon'"), "{err}");
    }

    #[test]
    fn cluster_flags() {
        let cli = Cli::parse_from([
            "tidemark",
            "--node-id",
            "2",
            "--rpc-addr",
            "127.0.0.1:19192",
            "--rack",
            "zone-b",
            "--seeds",
            "1@127.0.0.1:19191, 2@127.0.0.1:19192,3@127.0.0.1:19193",
        ]);
        let c = BrokerConfig::from_cli(cli).unwrap();
        let cl = c.cluster.unwrap();
        assert_eq!(cl.seeds.len(), 3);
        assert_eq!(cl.seeds[2].0, 3);
        assert_eq!(cl.rack.as_deref(), Some("zone-b"));
        assert!(cl.is_voter(2) && !cl.is_voter(4));
        for bad in [
            "1@127.0.0.1:1,1@127.0.0.1:2",
            "x@127.0.0.1:1",
            "1-127.0.0.1:1",
            "",
        ] {
            let cli = Cli::parse_from(["tidemark", "--rpc-addr", "127.0.0.1:1", "--seeds", bad]);
            assert!(
                matches!(BrokerConfig::from_cli(cli), Err(ConfigError::Seeds(_))),
                "{bad}"
            );
        }
        let cli = Cli::parse_from(["tidemark", "--seeds", "1@127.0.0.1:1"]);
        assert!(matches!(
            BrokerConfig::from_cli(cli),
            Err(ConfigError::RpcAddrMissing)
        ));
        let cli = Cli::parse_from(["tidemark", "--rack", "a"]);
        assert!(matches!(
            BrokerConfig::from_cli(cli),
            Err(ConfigError::ClusterFlagsWithoutSeeds)
        ));
    }
}
