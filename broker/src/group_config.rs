//! Group configs (Kafka 4's `GroupConfig`, KIP-848/KIP-932): per-group
//! overrides set with IncrementalAlterConfigs/AlterConfigs on a GROUP
//! resource (type 32) and stored in the cluster metadata
//! (`ClusterMetadata::group_configs`, `Command::SetGroupConfigs`).
//!
//! One table says which names exist, their types, and where a group
//! without an override gets its value: a broker setting (Kafka's
//! `extractGroupConfigMap`: `share.session.timeout.ms` follows
//! `group.share.session.timeout.ms`) or a literal. The group coordinators
//! read values through [`get`], [`get_i64`] and [`get_bool`], so an
//! override counts from the next read, on every broker, whether or not
//! the group exists yet (Kafka keeps group configs apart from groups).

use std::collections::BTreeMap;
use std::time::Duration;

use crate::metadata::ClusterMetadata;
use crate::settings::{Settings, ValueType};

/// Where a group without an override gets a config's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupDefault {
    /// The broker setting of this name (as it is in force on the broker).
    Broker(&'static str),
    /// A fixed value.
    Literal(&'static str),
}

/// A group config the broker accepts.
#[derive(Debug)]
pub struct GroupConfigDef {
    pub name: &'static str,
    pub ty: ValueType,
    pub default: GroupDefault,
    pub doc: &'static str,
}

macro_rules! g {
    ($name:expr, $ty:ident, broker $setting:expr, $doc:expr) => {
        GroupConfigDef {
            name: $name,
            ty: ValueType::$ty,
            default: GroupDefault::Broker($setting),
            doc: $doc,
        }
    };
    ($name:expr, $ty:ident, literal $value:expr, $doc:expr) => {
        GroupConfigDef {
            name: $name,
            ty: ValueType::$ty,
            default: GroupDefault::Literal($value),
            doc: $doc,
        }
    };
}

pub const CONSUMER_SESSION_TIMEOUT_MS: &str = "consumer.session.timeout.ms";
pub const CONSUMER_HEARTBEAT_INTERVAL_MS: &str = "consumer.heartbeat.interval.ms";
pub const SHARE_SESSION_TIMEOUT_MS: &str = "share.session.timeout.ms";
pub const SHARE_HEARTBEAT_INTERVAL_MS: &str = "share.heartbeat.interval.ms";
pub const SHARE_RECORD_LOCK_DURATION_MS: &str = "share.record.lock.duration.ms";
pub const SHARE_AUTO_OFFSET_RESET: &str = "share.auto.offset.reset";
pub const SHARE_ISOLATION_LEVEL: &str = "share.isolation.level";
pub const SHARE_DELIVERY_COUNT_LIMIT: &str = "share.delivery.count.limit";
pub const SHARE_PARTITION_MAX_RECORD_LOCKS: &str = "share.partition.max.record.locks";
pub const DLQ_TOPIC_NAME: &str = "errors.deadletterqueue.topic.name";
pub const DLQ_COPY_RECORD_ENABLE: &str = "errors.deadletterqueue.copy.record.enable";
pub const SHARE_RELEASE_BACKOFF_MS: &str = "share.release.backoff.ms";

/// The longest `share.release.backoff.ms` (an hour, like the longest lock).
pub const MAX_RELEASE_BACKOFF_MS: i64 = 3_600_000;

/// Every group config, by Kafka name.
pub const GROUP_CONFIGS: &[GroupConfigDef] = &[
    g!(
        CONSUMER_SESSION_TIMEOUT_MS,
        Int,
        broker "group.consumer.session.timeout.ms",
        "KIP-848 consumer group: a member silent this long is removed."
    ),
    g!(
        CONSUMER_HEARTBEAT_INTERVAL_MS,
        Int,
        broker "group.consumer.heartbeat.interval.ms",
        "KIP-848 consumer group: the heartbeat interval told to members."
    ),
    g!(
        SHARE_SESSION_TIMEOUT_MS,
        Int,
        broker "group.share.session.timeout.ms",
        "Share group: a member silent this long is removed."
    ),
    g!(
        SHARE_HEARTBEAT_INTERVAL_MS,
        Int,
        broker "group.share.heartbeat.interval.ms",
        "Share group: the heartbeat interval told to members."
    ),
    g!(
        SHARE_RECORD_LOCK_DURATION_MS,
        Int,
        broker "group.share.record.lock.duration.ms",
        "Share group: how long a delivered record stays acquired before it is released."
    ),
    g!(
        SHARE_AUTO_OFFSET_RESET,
        String,
        literal "latest",
        "Share group: where a share partition starts: earliest, latest or by_duration:<ISO-8601 duration> (that long before now)."
    ),
    g!(
        SHARE_ISOLATION_LEVEL,
        String,
        literal "read_uncommitted",
        "Share group: read_committed delivers only committed transactional records; read_uncommitted delivers all."
    ),
    g!(
        SHARE_DELIVERY_COUNT_LIMIT,
        Int,
        broker "group.share.delivery.count.limit",
        "Share group: delivery attempts after which a record is archived (or dead-lettered)."
    ),
    g!(
        SHARE_PARTITION_MAX_RECORD_LOCKS,
        Int,
        broker "group.share.partition.max.record.locks",
        "Share group: records a share partition holds acquired at once."
    ),
    g!(
        DLQ_TOPIC_NAME,
        String,
        literal "",
        "KIP-1191: the topic a record goes to once it is archived after its last delivery attempt or rejected; empty: none. Must start with the broker's errors.deadletterqueue.topic.name.prefix."
    ),
    g!(
        DLQ_COPY_RECORD_ENABLE,
        Boolean,
        literal "false",
        "KIP-1191: whether a dead letter carries the record's key and value, or only headers naming it."
    ),
    g!(
        SHARE_RELEASE_BACKOFF_MS,
        Long,
        literal "0",
        "Share group: a released record becomes available again after this many ms times its delivery count (0-3600000)."
    ),
];

/// A group config change that is refused: INVALID_CONFIG with this
/// message (Kafka's wording where Kafka has the check).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GroupConfigError {
    #[error("Unknown group config name: {0}")]
    Unknown(String),
    #[error("Invalid value {value} for configuration {name}: {why}")]
    Invalid {
        name: String,
        value: String,
        why: String,
    },
    /// A rule between two values (session timeout above heartbeat).
    #[error("{0}")]
    Rule(String),
}

pub fn group_config(name: &str) -> Option<&'static GroupConfigDef> {
    GROUP_CONFIGS.iter().find(|d| d.name == name)
}

/// The value a group without an override has, under `settings`.
pub fn default_value(settings: &Settings, def: &GroupConfigDef) -> String {
    match def.default {
        GroupDefault::Broker(setting) => settings.get(setting),
        GroupDefault::Literal(v) => v.to_string(),
    }
}

/// The value of `name` for `group` and whether it is the group's own
/// override; `None` for a name not in the table.
pub fn value_with_source(
    meta: &ClusterMetadata,
    group: &str,
    name: &str,
) -> Option<(String, bool)> {
    let def = group_config(name)?;
    if let Some(v) = meta.group_configs.get(group).and_then(|m| m.get(name)) {
        return Some((v.clone(), true));
    }
    Some((default_value(&meta.settings, def), false))
}

/// The value of group config `name` for `group`: its override, else the
/// default. A name not in the table is a programming error: it asserts in
/// debug builds and reads as "" in release ones.
pub fn get(meta: &ClusterMetadata, group: &str, name: &str) -> String {
    match value_with_source(meta, group, name) {
        Some((v, _)) => v,
        None => {
            debug_assert!(false, "unknown group config {name}");
            String::new()
        }
    }
}

/// [`get`] as a number (0 if it does not parse, which validation prevents).
pub fn get_i64(meta: &ClusterMetadata, group: &str, name: &str) -> i64 {
    get(meta, group, name).trim().parse().unwrap_or_default()
}

/// [`get`] as a boolean (Kafka's case-insensitive "true").
pub fn get_bool(meta: &ClusterMetadata, group: &str, name: &str) -> bool {
    get(meta, group, name).trim().eq_ignore_ascii_case("true")
}

/// `share.auto.offset.reset`, parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoOffsetReset {
    Earliest,
    Latest,
    /// Start at the first record no older than this.
    ByDuration(Duration),
}

impl AutoOffsetReset {
    /// Kafka's `ShareGroupAutoOffsetResetStrategy.fromString`: exactly
    /// `earliest`, `latest` (no `none`: a share group always starts
    /// somewhere) or `by_duration:` and a non-negative Java
    /// `Duration.parse` text.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "earliest" => return Ok(AutoOffsetReset::Earliest),
            "latest" => return Ok(AutoOffsetReset::Latest),
            "by_duration" => {
                return Err(
                    "<:duration> part is missing in by_duration auto offset reset strategy.".into(),
                );
            }
            _ => {}
        }
        if let Some(iso) = s.strip_prefix("by_duration:") {
            return parse_iso_duration(iso)
                .map(AutoOffsetReset::ByDuration)
                .map_err(|_| {
                    "Unable to parse duration string in by_duration offset reset strategy.".into()
                });
        }
        Err(format!("Unknown auto offset reset strategy: {s}"))
    }
}

/// An ISO-8601 duration as Java's `Duration.parse` reads it:
/// `[-+]P[nD][T[nH][nM][n[.f]S]]`, case-insensitive, each number signed
/// or not, at least one part, a `T` only with a time part, up to nine
/// fraction digits (`.` or `,`). A negative total is refused (by_duration
/// looks back, never ahead).
pub fn parse_iso_duration(text: &str) -> Result<Duration, String> {
    const NANOS: i128 = 1_000_000_000;
    let bad = || format!("'{text}' is not an ISO-8601 duration (PnDTnHnMn.nS)");
    let upper = text.to_ascii_uppercase();
    let (negative, rest) = match upper.as_bytes().first() {
        Some(b'-') => (true, &upper[1..]),
        Some(b'+') => (false, &upper[1..]),
        _ => (false, upper.as_str()),
    };
    let rest = rest.strip_prefix('P').ok_or_else(bad)?;
    let (date, time) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    // A signed run of digits at the start of `s`, and what follows.
    fn number(s: &str) -> Option<(i128, bool, &str)> {
        let (neg, digits_start) = match s.as_bytes().first() {
            Some(b'-') => (true, 1),
            Some(b'+') => (false, 1),
            _ => (false, 0),
        };
        let len = s[digits_start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if len == 0 || len > 19 {
            return None;
        }
        let n: i128 = s[digits_start..digits_start + len].parse().ok()?;
        Some((if neg { -n } else { n }, neg, &s[digits_start + len..]))
    }
    let mut total: i128 = 0;
    let mut parts = 0;
    if !date.is_empty() {
        let (n, _, after) = number(date).ok_or_else(bad)?;
        if after != "D" {
            return Err(bad());
        }
        total += n * 86_400 * NANOS;
        parts += 1;
    }
    if let Some(mut t) = time {
        let mut time_parts = 0;
        for (unit, seconds) in [('H', 3_600), ('M', 60)] {
            if let Some((n, _, after)) = number(t)
                && let Some(after) = after.strip_prefix(unit)
            {
                total += n * seconds * NANOS;
                t = after;
                time_parts += 1;
            }
        }
        if !t.is_empty() {
            let (n, neg, after) = number(t).ok_or_else(bad)?;
            let (fraction, after) = match after.strip_prefix(['.', ',']) {
                Some(f) => {
                    let len = f.bytes().take_while(u8::is_ascii_digit).count();
                    if len > 9 {
                        return Err(bad());
                    }
                    let digits = format!("{:0<9}", &f[..len]);
                    (digits.parse::<i128>().map_err(|_| bad())?, &f[len..])
                }
                None => (0, after),
            };
            if after != "S" {
                return Err(bad());
            }
            total += n * NANOS + if neg { -fraction } else { fraction };
            time_parts += 1;
        }
        if time_parts == 0 {
            return Err(bad());
        }
        parts += time_parts;
    }
    if parts == 0 {
        return Err(bad());
    }
    if negative {
        total = -total;
    }
    if total < 0 {
        return Err("a negative duration is not allowed".into());
    }
    let secs = u64::try_from(total / NANOS).map_err(|_| bad())?;
    Ok(Duration::new(secs, (total % NANOS) as u32))
}

/// The bounds a consumer/share session timeout or heartbeat interval
/// override must respect. This broker has no `group.*.min/max.*` settings
/// for them, so Kafka's defaults of those are the bounds, widened to take
/// in the broker's own default (tests run brokers with short timeouts).
fn session_bounds(settings: &Settings, name: &str) -> Option<(i64, i64, &'static str)> {
    let (lo, hi, setting, what) = match name {
        CONSUMER_SESSION_TIMEOUT_MS => (
            45_000,
            60_000,
            "group.consumer.session.timeout.ms",
            "group.consumer.min.session.timeout.ms and group.consumer.max.session.timeout.ms",
        ),
        CONSUMER_HEARTBEAT_INTERVAL_MS => (
            5_000,
            15_000,
            "group.consumer.heartbeat.interval.ms",
            "group.consumer.min.heartbeat.interval.ms and group.consumer.max.heartbeat.interval.ms",
        ),
        SHARE_SESSION_TIMEOUT_MS => (
            45_000,
            60_000,
            "group.share.session.timeout.ms",
            "group.share.min.session.timeout.ms and group.share.max.session.timeout.ms",
        ),
        SHARE_HEARTBEAT_INTERVAL_MS => (
            5_000,
            15_000,
            "group.share.heartbeat.interval.ms",
            "group.share.min.heartbeat.interval.ms and group.share.max.heartbeat.interval.ms",
        ),
        _ => return None,
    };
    let own = settings.i64(setting);
    Some((lo.min(own), hi.max(own), what))
}

/// The bounds Kafka checks an override against with broker settings.
fn broker_bounds(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        SHARE_RECORD_LOCK_DURATION_MS => Some((
            "group.share.min.record.lock.duration.ms",
            "group.share.max.record.lock.duration.ms",
        )),
        SHARE_DELIVERY_COUNT_LIMIT => Some((
            "group.share.min.delivery.count.limit",
            "group.share.max.delivery.count.limit",
        )),
        SHARE_PARTITION_MAX_RECORD_LOCKS => Some((
            "group.share.min.partition.max.record.locks",
            "group.share.max.partition.max.record.locks",
        )),
        _ => None,
    }
}

/// Checks one override's value under the broker's `settings`.
pub fn validate_value(
    settings: &Settings,
    name: &str,
    value: &str,
) -> Result<(), GroupConfigError> {
    let def = group_config(name).ok_or_else(|| GroupConfigError::Unknown(name.to_string()))?;
    let invalid = |why: String| GroupConfigError::Invalid {
        name: name.to_string(),
        value: value.to_string(),
        why,
    };
    let v = value.trim();
    let n = match def.ty {
        ValueType::Int => Some(
            v.parse::<i32>()
                .map_err(|_| invalid("Not a number of type INT".into()))? as i64,
        ),
        ValueType::Long => Some(
            v.parse::<i64>()
                .map_err(|_| invalid("Not a number of type LONG".into()))?,
        ),
        ValueType::Boolean => {
            if !v.eq_ignore_ascii_case("true") && !v.eq_ignore_ascii_case("false") {
                return Err(invalid("Expected value to be either true or false".into()));
            }
            None
        }
        ValueType::Double | ValueType::String | ValueType::List => None,
    };
    // Kafka's ConfigDef floors (atLeast), checked before the broker bounds.
    let floor = match name {
        SHARE_RECORD_LOCK_DURATION_MS => 1000,
        SHARE_DELIVERY_COUNT_LIMIT => 2,
        SHARE_PARTITION_MAX_RECORD_LOCKS => 100,
        SHARE_RELEASE_BACKOFF_MS => 0,
        _ => 1,
    };
    if let Some(n) = n
        && n < floor
    {
        return Err(invalid(format!("Value must be at least {floor}")));
    }
    if let (Some(n), Some((lo, hi, what))) = (n, session_bounds(settings, name))
        && (n < lo || n > hi)
    {
        return Err(GroupConfigError::Rule(format!(
            "{name} must be in the range {lo} to {hi} inclusive ({what})."
        )));
    }
    if let (Some(n), Some((min_setting, max_setting))) = (n, broker_bounds(name)) {
        let (lo, hi) = (settings.i64(min_setting), settings.i64(max_setting));
        if n < lo {
            return Err(GroupConfigError::Rule(format!(
                "{name} must be greater than or equal to {min_setting} ({lo})"
            )));
        }
        if n > hi {
            return Err(GroupConfigError::Rule(format!(
                "{name} must be less than or equal to {max_setting} ({hi})"
            )));
        }
    }
    match name {
        SHARE_RELEASE_BACKOFF_MS if n.is_some_and(|n| n > MAX_RELEASE_BACKOFF_MS) => {
            return Err(invalid(format!(
                "Value must be no more than {MAX_RELEASE_BACKOFF_MS}"
            )));
        }
        SHARE_AUTO_OFFSET_RESET => {
            AutoOffsetReset::parse(value).map_err(|e| {
                invalid(format!(
                    "{e} The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'."
                ))
            })?;
        }
        SHARE_ISOLATION_LEVEL if !matches!(value, "read_committed" | "read_uncommitted") => {
            return Err(invalid(
                "String must be one of: read_committed, read_uncommitted".into(),
            ));
        }
        DLQ_TOPIC_NAME if !value.is_empty() => {
            let prefix = settings.get("errors.deadletterqueue.topic.name.prefix");
            if !value.starts_with(&prefix) {
                return Err(invalid(format!(
                    "a dead-letter topic name must start with the broker's errors.deadletterqueue.topic.name.prefix '{prefix}'"
                )));
            }
            // Kafka's topic name rules (topics.rs has the full check; it
            // sits above this module).
            let legal = value.len() <= 249
                && value != "."
                && value != ".."
                && value
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'));
            if !legal {
                return Err(invalid(
                    "not a legal topic name (at most 249 of ASCII letters, digits, '.', '_' and '-')"
                        .into(),
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// Checks a group's whole new set of overrides as Kafka's
/// `GroupConfig.validate` does: every name known, every value valid, and
/// with the defaults filled in, each session timeout above its heartbeat
/// interval.
pub fn validate(
    settings: &Settings,
    overrides: &BTreeMap<String, String>,
) -> Result<(), GroupConfigError> {
    for (k, v) in overrides {
        validate_value(settings, k, v)?;
    }
    let effective = |name: &str| -> i64 {
        match overrides.get(name) {
            Some(v) => v.trim().parse().unwrap_or_default(),
            None => group_config(name)
                .map(|d| default_value(settings, d))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or_default(),
        }
    };
    for (session, heartbeat) in [
        (CONSUMER_SESSION_TIMEOUT_MS, CONSUMER_HEARTBEAT_INTERVAL_MS),
        (SHARE_SESSION_TIMEOUT_MS, SHARE_HEARTBEAT_INTERVAL_MS),
    ] {
        let touched = overrides.contains_key(session) || overrides.contains_key(heartbeat);
        if touched && effective(session) <= effective(heartbeat) {
            return Err(GroupConfigError::Rule(format!(
                "{session} must be greater than {heartbeat}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta_with(settings: Settings) -> ClusterMetadata {
        let mut st = crate::metadata::MetadataState::new(settings, 1);
        st.apply(&crate::metadata::Command::SetGroupConfigs {
            group: "g1".into(),
            configs: BTreeMap::from([
                (
                    SHARE_RECORD_LOCK_DURATION_MS.to_string(),
                    "45000".to_string(),
                ),
                (DLQ_COPY_RECORD_ENABLE.to_string(), "TRUE".to_string()),
            ]),
        })
        .unwrap();
        st.snapshot()
    }

    #[test]
    fn defaults_come_from_broker_settings_or_literals() {
        let mut s = Settings::default();
        s.set_static("group.share.record.lock.duration.ms", "20000")
            .unwrap();
        let meta = meta_with(s);
        // Another group: the broker setting and the literal defaults.
        assert_eq!(get_i64(&meta, "g2", SHARE_RECORD_LOCK_DURATION_MS), 20000);
        assert_eq!(get_i64(&meta, "g2", SHARE_SESSION_TIMEOUT_MS), 45000);
        assert_eq!(get_i64(&meta, "g2", SHARE_DELIVERY_COUNT_LIMIT), 5);
        assert_eq!(get_i64(&meta, "g2", SHARE_PARTITION_MAX_RECORD_LOCKS), 2000);
        assert_eq!(get(&meta, "g2", SHARE_AUTO_OFFSET_RESET), "latest");
        assert_eq!(get(&meta, "g2", SHARE_ISOLATION_LEVEL), "read_uncommitted");
        assert_eq!(get(&meta, "g2", DLQ_TOPIC_NAME), "");
        assert!(!get_bool(&meta, "g2", DLQ_COPY_RECORD_ENABLE));
        assert_eq!(get_i64(&meta, "g2", SHARE_RELEASE_BACKOFF_MS), 0);
        // The group's overrides.
        assert_eq!(get_i64(&meta, "g1", SHARE_RECORD_LOCK_DURATION_MS), 45000);
        assert!(get_bool(&meta, "g1", DLQ_COPY_RECORD_ENABLE));
        assert_eq!(
            value_with_source(&meta, "g1", SHARE_RECORD_LOCK_DURATION_MS),
            Some(("45000".into(), true))
        );
        assert_eq!(value_with_source(&meta, "g1", "no.such"), None);
        // Every default is valid under default settings.
        for d in GROUP_CONFIGS {
            let v = default_value(&Settings::default(), d);
            assert!(
                validate_value(&Settings::default(), d.name, &v).is_ok(),
                "{}",
                d.name
            );
        }
    }

    #[test]
    fn values_are_bounded_like_kafka() {
        let s = Settings::default();
        let one = |k: &str, v: &str| validate(&s, &BTreeMap::from([(k.into(), v.into())]));
        assert!(one(SHARE_RECORD_LOCK_DURATION_MS, "15000").is_ok());
        assert!(one(SHARE_RECORD_LOCK_DURATION_MS, "60000").is_ok());
        let e = one(SHARE_RECORD_LOCK_DURATION_MS, "60001").unwrap_err();
        assert!(
            e.to_string()
                .contains("less than or equal to group.share.max.record.lock.duration.ms"),
            "{e}"
        );
        assert!(one(SHARE_RECORD_LOCK_DURATION_MS, "14999").is_err());
        assert!(one(SHARE_RECORD_LOCK_DURATION_MS, "999").is_err());
        assert!(one(SHARE_RECORD_LOCK_DURATION_MS, "abc").is_err());
        assert!(one(SHARE_DELIVERY_COUNT_LIMIT, "10").is_ok());
        assert!(one(SHARE_DELIVERY_COUNT_LIMIT, "11").is_err());
        assert!(one(SHARE_DELIVERY_COUNT_LIMIT, "1").is_err());
        assert!(one(SHARE_PARTITION_MAX_RECORD_LOCKS, "100").is_ok());
        assert!(one(SHARE_PARTITION_MAX_RECORD_LOCKS, "99").is_err());
        assert!(one(SHARE_PARTITION_MAX_RECORD_LOCKS, "10001").is_err());
        assert!(one(SHARE_SESSION_TIMEOUT_MS, "50000").is_ok());
        assert!(one(SHARE_SESSION_TIMEOUT_MS, "70000").is_err());
        assert!(one(CONSUMER_HEARTBEAT_INTERVAL_MS, "1").is_err());
        assert!(one(SHARE_ISOLATION_LEVEL, "read_committed").is_ok());
        assert!(one(SHARE_ISOLATION_LEVEL, "READ_COMMITTED").is_err());
        assert!(one(SHARE_RELEASE_BACKOFF_MS, "3600000").is_ok());
        assert!(one(SHARE_RELEASE_BACKOFF_MS, "3600001").is_err());
        assert!(one(SHARE_RELEASE_BACKOFF_MS, "-1").is_err());
        assert!(one(DLQ_COPY_RECORD_ENABLE, "yes").is_err());
        assert!(one(DLQ_TOPIC_NAME, "").is_ok());
        assert!(one(DLQ_TOPIC_NAME, "dlq.orders").is_ok());
        let e = one(DLQ_TOPIC_NAME, "orders-dlq").unwrap_err();
        assert!(e.to_string().contains("'dlq.'"), "{e}");
        assert!(one(DLQ_TOPIC_NAME, "dlq.a b").is_err());
        assert_eq!(
            one("no.such", "1"),
            Err(GroupConfigError::Unknown("no.such".into()))
        );
        assert_eq!(
            one("no.such", "1").unwrap_err().to_string(),
            "Unknown group config name: no.such"
        );
        // Session above heartbeat, with the defaults filled in.
        let e = one(SHARE_HEARTBEAT_INTERVAL_MS, "15000");
        assert!(e.is_ok(), "{e:?}");
        let both = BTreeMap::from([
            (CONSUMER_SESSION_TIMEOUT_MS.to_string(), "45000".to_string()),
            (
                CONSUMER_HEARTBEAT_INTERVAL_MS.to_string(),
                "15000".to_string(),
            ),
        ]);
        assert!(validate(&s, &both).is_ok());
        // A broker with a short default still accepts it as an override.
        let mut short = Settings::default();
        short
            .set_static("group.consumer.session.timeout.ms", "6000")
            .unwrap();
        let m = BTreeMap::from([(CONSUMER_SESSION_TIMEOUT_MS.to_string(), "6000".to_string())]);
        assert!(validate(&short, &m).is_ok());
        // A broker with a narrower lock range narrows the overrides.
        let mut narrow = Settings::default();
        narrow
            .set_static("group.share.max.record.lock.duration.ms", "40000")
            .unwrap();
        let m = BTreeMap::from([(
            SHARE_RECORD_LOCK_DURATION_MS.to_string(),
            "45000".to_string(),
        )]);
        assert!(validate(&narrow, &m).is_err());
    }

    #[test]
    fn auto_offset_reset_and_durations_parse_like_java() {
        use AutoOffsetReset::*;
        assert_eq!(AutoOffsetReset::parse("earliest"), Ok(Earliest));
        assert_eq!(AutoOffsetReset::parse("latest"), Ok(Latest));
        assert!(AutoOffsetReset::parse("none").is_err());
        assert!(AutoOffsetReset::parse("EARLIEST").is_err());
        assert!(AutoOffsetReset::parse("by_duration").is_err());
        assert_eq!(
            AutoOffsetReset::parse("by_duration:PT10S"),
            Ok(ByDuration(Duration::from_secs(10)))
        );
        let d = |s: &str| parse_iso_duration(s);
        assert_eq!(d("PT1H"), Ok(Duration::from_secs(3600)));
        assert_eq!(d("P2D"), Ok(Duration::from_secs(2 * 86_400)));
        assert_eq!(
            d("P1DT2H3M4.5S"),
            Ok(Duration::from_millis(
                ((86_400 + 2 * 3600 + 3 * 60 + 4) * 1000 + 500) as u64
            ))
        );
        assert_eq!(d("pt0.000000001s"), Ok(Duration::from_nanos(1)));
        assert_eq!(d("PT1,5S"), Ok(Duration::from_millis(1500)));
        assert_eq!(d("PT-0S"), Ok(Duration::ZERO));
        assert_eq!(d("PT2H-30M"), Ok(Duration::from_secs(5400)));
        assert_eq!(d("+PT1M"), Ok(Duration::from_secs(60)));
        for bad in [
            "",
            "P",
            "PT",
            "1H",
            "PT1",
            "P1DT",
            "-PT10S",
            "PT1.0000000001S",
            "P1H",
            "PT1D",
            "invalid",
            "PT1S2S",
        ] {
            assert!(d(bad).is_err(), "{bad:?} parsed");
        }
        assert!(AutoOffsetReset::parse("by_duration:-PT10S").is_err());
        assert!(AutoOffsetReset::parse("by_duration:invalid").is_err());
    }
}
