//! Kafka 4.1's broker configs: every name Kafka's DescribeConfigs lists for
//! a BROKER resource, with its ConfigDef type, default and update mode.
//!
//! The list is data (`kafka_broker.tsv`, included with `include_str!`)
//! rather than Rust: it is generated from Kafka's documentation page by
//! `broker/tools/kafka_broker_configs.py`, so the next Kafka release is a
//! regeneration and a diff of a table, not an edit of 300 struct literals.
//! The last column says what a config Tidemark has no setting for does
//! here (mostly "no effect", and why); a name that is also in
//! `BROKER_SETTINGS` is Tidemark's own setting and keeps its own row
//! there (type, default, dynamic flag, doc).

use std::net::IpAddr;
use std::sync::LazyLock;

use super::{SettingError, ValueType, invalid};

/// Kafka's `ConfigDef.Type`, with the numbers DescribeConfigs v3+ uses
/// (`DescribeConfigsResponse.ConfigType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KafkaType {
    Boolean,
    String,
    Int,
    Short,
    Long,
    Double,
    List,
    Class,
    Password,
}

impl KafkaType {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "BOOLEAN" => Self::Boolean,
            "STRING" => Self::String,
            "INT" => Self::Int,
            "SHORT" => Self::Short,
            "LONG" => Self::Long,
            "DOUBLE" => Self::Double,
            "LIST" => Self::List,
            "CLASS" => Self::Class,
            "PASSWORD" => Self::Password,
            _ => return None,
        })
    }

    pub fn kafka_code(self) -> i8 {
        match self {
            Self::Boolean => 1,
            Self::String => 2,
            Self::Int => 3,
            Self::Short => 4,
            Self::Long => 5,
            Self::Double => 6,
            Self::List => 7,
            Self::Class => 8,
            Self::Password => 9,
        }
    }

    /// The type `settings::validate` checks a value against (a SHORT is
    /// range-checked apart, a CLASS or PASSWORD is any string).
    pub fn value_type(self) -> ValueType {
        match self {
            Self::Boolean => ValueType::Boolean,
            Self::Int | Self::Short => ValueType::Int,
            Self::Long => ValueType::Long,
            Self::Double => ValueType::Double,
            Self::List => ValueType::List,
            Self::String | Self::Class | Self::Password => ValueType::String,
        }
    }
}

/// Kafka's "Update Mode" of a broker config (`DynamicBrokerConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateMode {
    /// Only in the static configuration; IncrementalAlterConfigs refuses it.
    ReadOnly,
    /// Dynamic, but only for one broker (resource name = its id).
    PerBroker,
    /// Dynamic for one broker or as the cluster-wide default (name "").
    ClusterWide,
}

#[derive(Debug)]
pub struct KafkaBrokerConfig {
    pub name: &'static str,
    pub ty: KafkaType,
    /// `None` where Kafka's default is null.
    pub default: Option<&'static str>,
    pub mode: UpdateMode,
    /// Kafka's "Valid Values" as its docs print them (`[1,...]`,
    /// `[0,...,1]`, `[a, b]`, `(case insensitive) [A, B]`, `non-empty
    /// string`); empty when Kafka checks nothing beyond the type.
    pub valid: &'static str,
    /// What the config does in Tidemark; empty for Tidemark's own settings.
    pub doc: &'static str,
}

/// Kafka's `SslConfigs.RECONFIGURABLE_CONFIGS`: dynamic in Kafka only with a
/// listener prefix (`listener.name.<l>.ssl...`); without one Kafka refuses
/// them ("These security configs can be dynamically updated only
/// per-listener using the listener prefix").
pub const LISTENER_ONLY_SECURITY_CONFIGS: &[&str] = &[
    "ssl.keystore.type",
    "ssl.keystore.location",
    "ssl.keystore.password",
    "ssl.key.password",
    "ssl.truststore.type",
    "ssl.truststore.location",
    "ssl.truststore.password",
    "ssl.keystore.certificate.chain",
    "ssl.keystore.key",
    "ssl.truststore.certificates",
];

/// The most entries `max.connections.per.ip.overrides` may hold (a
/// bound on the work of parsing and resolving it).
pub const OVERRIDES_MAX: usize = 1024;

/// `max.connections.per.ip.overrides` as written: `host:count` pairs
/// separated by commas (Kafka's format; the count after the last `:`,
/// so an IPv6 address may be written as it is). Hosts are IP addresses
/// or names; checked, not resolved.
pub fn parse_ip_overrides(text: &str) -> Result<Vec<(&str, usize)>, String> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (host, count) = item
            .rsplit_once(':')
            .ok_or_else(|| format!("'{item}' is not host:count"))?;
        let host = host.trim();
        let count: usize = count
            .trim()
            .parse()
            .map_err(|_| format!("'{item}': the count is not a non-negative integer"))?;
        if host.parse::<IpAddr>().is_err() && !valid_host_name(host) {
            return Err(format!("'{host}' is not an IP address or a host name"));
        }
        out.push((host, count));
    }
    if out.len() > OVERRIDES_MAX {
        return Err(format!("more than {OVERRIDES_MAX} overrides"));
    }
    Ok(out)
}

/// Kafka's `Utils.validHostPattern` for names: letters, digits, `-`,
/// `.` and `_`, starting with a letter or digit.
fn valid_host_name(host: &str) -> bool {
    let mut chars = host.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

static TABLE: &str = include_str!("kafka_broker.tsv");

/// The table, parsed once. A malformed row is a build-time mistake in the
/// data file, caught by this module's test, so parsing panics on it.
pub static KAFKA_BROKER_CONFIGS: LazyLock<Vec<KafkaBrokerConfig>> = LazyLock::new(|| {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut f = line.split('\t');
            let mut next = || f.next().unwrap_or("");
            let (name, ty, default, mode) = (next(), next(), next(), next());
            let (valid, doc) = (next(), next());
            KafkaBrokerConfig {
                name,
                ty: KafkaType::parse(ty)
                    .unwrap_or_else(|| panic!("kafka_broker.tsv: bad type {ty:?} for {name}")),
                default: (default != "null").then_some(default),
                mode: match mode {
                    "read-only" => UpdateMode::ReadOnly,
                    "per-broker" => UpdateMode::PerBroker,
                    "cluster-wide" => UpdateMode::ClusterWide,
                    other => panic!("kafka_broker.tsv: bad update mode {other:?} for {name}"),
                },
                valid,
                doc,
            }
        })
        .collect()
});

pub fn kafka_broker_config(name: &str) -> Option<&'static KafkaBrokerConfig> {
    KAFKA_BROKER_CONFIGS.iter().find(|c| c.name == name)
}

impl KafkaBrokerConfig {
    /// Checks `value` as Kafka's `ConfigDef` does: parsed as the type, then
    /// the validator (range, allowed strings, non-empty).
    pub fn validate(&self, value: &str) -> Result<(), SettingError> {
        let (name, v) = (self.name, value.trim());
        if name == "max.connections.per.ip.overrides" {
            parse_ip_overrides(v).map_err(|why| invalid(name, value, why))?;
        }
        let number: Option<f64> = match self.ty {
            KafkaType::Boolean => {
                if !v.eq_ignore_ascii_case("true") && !v.eq_ignore_ascii_case("false") {
                    return Err(invalid(
                        name,
                        value,
                        "Expected value to be either true or false",
                    ));
                }
                None
            }
            KafkaType::Int => Some(
                v.parse::<i32>()
                    .map_err(|_| invalid(name, value, "Not a number of type INT"))?
                    as f64,
            ),
            KafkaType::Short => Some(
                v.parse::<i16>()
                    .map_err(|_| invalid(name, value, "Not a number of type SHORT"))?
                    as f64,
            ),
            KafkaType::Long => Some(
                v.parse::<i64>()
                    .map_err(|_| invalid(name, value, "Not a number of type LONG"))?
                    as f64,
            ),
            KafkaType::Double => Some(
                v.parse::<f64>()
                    .map_err(|_| invalid(name, value, "Not a number of type DOUBLE"))?,
            ),
            _ => None,
        };
        let spec = self.valid;
        if spec.is_empty() {
            return Ok(());
        }
        if spec == "non-empty string" || spec == "non-empty list" {
            return if v.is_empty() {
                Err(invalid(name, value, format!("Value must be a {spec}")))
            } else {
                Ok(())
            };
        }
        let (case_insensitive, list) = match spec.strip_prefix("(case insensitive) ") {
            Some(rest) => (true, rest),
            None => (false, spec),
        };
        let inner = list.trim_start_matches('[').trim_end_matches(']');
        // A range: "[min,...]" or "[min,...,max]".
        if let (Some(n), Some((lo, hi))) = (number, inner.split_once(",...")) {
            let lo: f64 = lo.parse().unwrap_or(f64::MIN);
            let hi: f64 = hi.trim_start_matches(',').parse().unwrap_or(f64::MAX);
            return if n < lo {
                Err(invalid(name, value, format!("Value must be at least {lo}")))
            } else if n > hi {
                Err(invalid(
                    name,
                    value,
                    format!("Value must be no more than {hi}"),
                ))
            } else {
                Ok(())
            };
        }
        let allowed: Vec<&str> = inner.split(',').map(str::trim).collect();
        let ok = |x: &str| {
            allowed.iter().any(|a| {
                if case_insensitive {
                    a.eq_ignore_ascii_case(x)
                } else {
                    *a == x
                }
            })
        };
        let items: Vec<&str> = if self.ty == KafkaType::List {
            v.split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .collect()
        } else {
            vec![v]
        };
        match items.iter().find(|x| !ok(x)) {
            Some(bad) => Err(invalid(
                name,
                value,
                format!("'{bad}' is not one of: {}", allowed.join(", ")),
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{BROKER_SETTINGS, broker_setting};

    #[test]
    fn overrides_parse_as_kafka_writes_them() {
        assert_eq!(
            parse_ip_overrides("hostName:100, 127.0.0.1:200,::1:3").unwrap(),
            vec![("hostName", 100), ("127.0.0.1", 200), ("::1", 3)]
        );
        assert_eq!(parse_ip_overrides("").unwrap(), vec![]);
        for bad in [
            "127.0.0.1",
            "127.0.0.1:x",
            "host:-1",
            ":5",
            "bad host:1",
            "-x:1",
        ] {
            assert!(parse_ip_overrides(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_table_parses_and_its_defaults_are_valid() {
        let all = &*KAFKA_BROKER_CONFIGS;
        assert_eq!(all.len(), 316);
        let mut names: Vec<_> = all.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len(), "a name twice");
        assert!(all.iter().all(|c| !c.name.starts_with("zookeeper.")));
        let count = |m| all.iter().filter(|c| c.mode == m).count();
        assert_eq!(
            (
                count(UpdateMode::ReadOnly),
                count(UpdateMode::PerBroker),
                count(UpdateMode::ClusterWide)
            ),
            (226, 36, 54)
        );
        for c in all {
            // Every config Tidemark has no setting for says what it does.
            assert_eq!(
                c.doc.is_empty(),
                broker_setting(c.name).is_some(),
                "{}",
                c.name
            );
            // Kafka's own default passes Kafka's type check (an empty
            // numeric default is "required, no default", as node.id).
            if let Some(d) = c.default.filter(|d| !d.is_empty()) {
                c.validate(d)
                    .unwrap_or_else(|e| panic!("{}: default {d}: {e}", c.name));
            }
        }
        assert_eq!(
            kafka_broker_config("num.io.threads").map(|c| (c.ty, c.default, c.mode)),
            Some((KafkaType::Int, Some("8"), UpdateMode::ClusterWide))
        );
        assert_eq!(
            kafka_broker_config("ssl.key.password").map(|c| (c.ty, c.default, c.mode)),
            Some((KafkaType::Password, None, UpdateMode::PerBroker))
        );
        // Tidemark-only settings stay; most of Tidemark's settings are Kafka's.
        let own_kafka = BROKER_SETTINGS
            .iter()
            .filter(|s| kafka_broker_config(s.name).is_some())
            .count();
        assert!(own_kafka > 70, "{own_kafka}");
    }

    #[test]
    fn values_are_checked_as_kafka_checks_them() {
        let c = |n| kafka_broker_config(n).unwrap();
        assert!(c("num.io.threads").validate("16").is_ok());
        assert!(c("num.io.threads").validate("0").is_err()); // [1,...]
        assert!(c("num.io.threads").validate("2147483648").is_err()); // INT
        assert!(c("num.io.threads").validate("x").is_err());
        assert!(
            c("offsets.topic.replication.factor")
                .validate("32768")
                .is_err()
        ); // SHORT
        assert!(c("broker.id").validate("-5").is_ok()); // no validator
        assert!(
            c("log.cleaner.io.buffer.load.factor")
                .validate("0.75")
                .is_ok()
        );
        assert!(
            c("log.cleaner.io.buffer.load.factor")
                .validate("most")
                .is_err()
        );
        // [0,...,86400]
        assert!(
            c("sasl.oauthbearer.assertion.claim.exp.seconds")
                .validate("86401")
                .is_err()
        );
        assert!(
            c("sasl.oauthbearer.assertion.claim.exp.seconds")
                .validate("86400")
                .is_ok()
        );
        assert!(
            c("group.consumer.migration.policy")
                .validate("upgrade")
                .is_ok()
        );
        assert!(
            c("group.consumer.migration.policy")
                .validate("sideways")
                .is_err()
        );
        assert!(c("process.roles").validate("broker,controller").is_ok());
        assert!(c("process.roles").validate("broker,observer").is_err());
        assert!(
            c("remote.log.storage.manager.impl.prefix")
                .validate("")
                .is_err()
        );
        assert!(c("controlled.shutdown.enable").validate("TRUE").is_ok());
        assert!(c("controlled.shutdown.enable").validate("yes").is_err());
    }
}
