//! Client telemetry (KIP-714), as Kafka's `ClientMetricsManager` and
//! `ClientMetricsConfigs`:
//!
//! - Subscriptions are config resources of type CLIENT_METRICS (16), kept
//!   in the cluster metadata (`ClusterMetadata::client_metrics`,
//!   `Command::SetClientMetrics`) with three configs: `metrics` (metric
//!   name prefixes, `*` for all), `interval.ms` (push interval, 100 ..
//!   3600000, default 300000) and `match` (`selector=regex` pairs, all of
//!   which must match the whole attribute; none matches every client).
//! - A client's subscription is the union of the metrics of every
//!   subscription matching it, at the smallest of their intervals; its id
//!   is a CRC-32C of that set and interval mixed with the client
//!   instance id, so it changes when the subscriptions do.
//! - `Telemetry` (one per broker, shared by the shards) keeps each client
//!   instance's subscription and request times (GetTelemetrySubscriptions
//!   and PushTelemetry throttling), and the latest payload each client
//!   pushed, bounded in clients and bytes, oldest evicted first.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::net::SocketAddr;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::describe_configs_response::{
    DescribeConfigsResourceResult, DescribeConfigsSynonym,
};
use uuid::Uuid;

/// The config resource type of a client-metrics subscription.
pub const CLIENT_METRICS: i8 = 16;

pub const METRICS: &str = "metrics";
pub const INTERVAL_MS: &str = "interval.ms";
pub const MATCH: &str = "match";
/// Every metric (`ClientMetricsConfigs.ALL_SUBSCRIBED_METRICS_CONFIG`).
pub const ALL_METRICS: &str = "*";

pub const DEFAULT_INTERVAL_MS: i32 = 300_000;
pub const MIN_INTERVAL_MS: i32 = 100;
pub const MAX_INTERVAL_MS: i32 = 3_600_000;
/// The largest payload a client may push (Kafka's `telemetry.max.bytes`
/// default, 1 MiB), compressed as sent.
pub const TELEMETRY_MAX_BYTES: i32 = 1024 * 1024;
/// A payload is refused when it decompresses to more than this.
pub const DECOMPRESSED_MAX_BYTES: usize = 8 * 1024 * 1024;
/// Client instances tracked (subscription and request times); the least
/// recently seen goes first past this.
pub const INSTANCES_MAX: usize = 16_384;
/// Client instances whose latest payload is kept.
pub const PAYLOADS_KEPT_MAX: usize = 256;
/// Bytes of kept payloads (decompressed) over all clients; the oldest
/// payloads go first past this.
pub const PAYLOADS_KEPT_MAX_BYTES: usize = 64 * 1024 * 1024;
/// Metric names decoded from one payload.
pub const METRIC_NAMES_MAX: usize = 4096;
/// An instance not heard from for max(this, 3 push intervals) is
/// forgotten (Kafka's cache expiry).
pub const INSTANCE_EXPIRY_MS: i64 = 60_000;

/// The compression types PushTelemetry accepts (Kafka's order: zstd, lz4,
/// gzip, snappy; none is always accepted).
pub const ACCEPTED_COMPRESSION: [i8; 4] = [4, 3, 1, 2];

/// Kafka's ConfigSource of a set client-metrics config.
pub const CLIENT_METRICS_CONFIG_SOURCE: i8 = 7;

/// The selectors `match` may name (`ClientMetricsConfigs.ALLOWED_MATCH_PARAMS`).
pub const SELECTORS: [&str; 6] = [
    "client_instance_id",
    "client_id",
    "client_software_name",
    "client_software_version",
    "client_source_address",
    "client_source_port",
];

/// One config of a subscription: name, Kafka's config type code, default,
/// documentation.
pub struct ConfigDef {
    pub name: &'static str,
    pub config_type: i8,
    pub default: &'static str,
    pub doc: &'static str,
}

pub const CONFIGS: [ConfigDef; 3] = [
    ConfigDef {
        name: METRICS,
        config_type: 7,
        default: "",
        doc: "Metric name prefixes the matching clients push; * for every metric.",
    },
    ConfigDef {
        name: INTERVAL_MS,
        config_type: 3,
        default: "300000",
        doc: "Push interval in milliseconds (100 to 3600000).",
    },
    ConfigDef {
        name: MATCH,
        config_type: 7,
        default: "",
        doc: "Client selectors, selector=regex (client_id, client_instance_id, \
              client_software_name, client_software_version, client_source_address, \
              client_source_port); every one must match the whole value. None: every client.",
    },
];

/// Configs whose values are comma-separated lists (APPEND / SUBTRACT).
pub fn is_list(name: &str) -> bool {
    name == METRICS || name == MATCH
}

/// Kafka's LIST parsing: comma-separated, trimmed, empty items dropped.
fn list(v: &str) -> Vec<String> {
    v.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A parsed subscription.
#[derive(Debug, Clone)]
pub struct Subscription {
    pub metrics: Vec<String>,
    pub interval_ms: i32,
    /// (selector, anchored regex); empty matches every client.
    pub selectors: Vec<(String, regex::Regex)>,
}

/// Parses and validates a subscription's configs as Kafka's
/// `ClientMetricsConfigs.validate` does (unknown names, interval bounds,
/// selector names and regexes).
pub fn parse(configs: &BTreeMap<String, String>) -> Result<Subscription, String> {
    let mut sub = Subscription {
        metrics: Vec::new(),
        interval_ms: DEFAULT_INTERVAL_MS,
        selectors: Vec::new(),
    };
    for (k, v) in configs {
        match k.as_str() {
            METRICS => sub.metrics = list(v),
            INTERVAL_MS => {
                let ms: i32 = v.trim().parse().map_err(|_| {
                    format!("Invalid value {v} for configuration {INTERVAL_MS}: Not a number of type INT")
                })?;
                if !(MIN_INTERVAL_MS..=MAX_INTERVAL_MS).contains(&ms) {
                    return Err(format!(
                        "Invalid value {ms} for {INTERVAL_MS}, interval must be between 100 and 3600000 (1 hour)"
                    ));
                }
                sub.interval_ms = ms;
            }
            MATCH => {
                for pattern in list(v) {
                    let illegal = || format!("Illegal client matching pattern: {pattern}");
                    let parts: Vec<&str> = pattern.split('=').collect();
                    if parts.len() != 2 {
                        return Err(illegal());
                    }
                    let selector = parts[0].trim();
                    if !SELECTORS.contains(&selector) {
                        return Err(illegal());
                    }
                    let re = regex::Regex::new(&format!("^(?:{})$", parts[1].trim()))
                        .map_err(|_| illegal())?;
                    sub.selectors.push((selector.to_string(), re));
                }
            }
            other => return Err(format!("Unknown client metrics configuration: {other}")),
        }
    }
    Ok(sub)
}

type Subscriptions = imbl::OrdMap<String, BTreeMap<String, String>>;
type ApiError = (ErrorCode, String);

/// DescribeConfigs of subscription `name`: its three configs, each set one
/// with source CLIENT_METRICS_CONFIG (7), the others with their default and
/// DEFAULT_CONFIG (5), as Kafka's `ConfigHelper` answers (a subscription
/// that does not exist describes as all defaults).
pub fn describe(
    subscriptions: &Subscriptions,
    name: &str,
    wanted: &dyn Fn(&str) -> bool,
    include_synonyms: bool,
    include_documentation: bool,
) -> Result<Vec<DescribeConfigsResourceResult>, ApiError> {
    if name.is_empty() {
        return Err((
            ErrorCode::InvalidRequest,
            "Client metrics subscription name must not be empty".into(),
        ));
    }
    let set = subscriptions.get(name);
    Ok(CONFIGS
        .iter()
        .filter(|d| wanted(d.name))
        .map(|d| {
            let (value, source) = match set.and_then(|m| m.get(d.name)) {
                Some(v) => (v.clone(), CLIENT_METRICS_CONFIG_SOURCE),
                None => (d.default.to_string(), 5),
            };
            let synonyms = if include_synonyms {
                vec![DescribeConfigsSynonym {
                    name: d.name.to_string(),
                    value: Some(value.clone()),
                    source,
                    ..Default::default()
                }]
            } else {
                Vec::new()
            };
            DescribeConfigsResourceResult {
                name: d.name.to_string(),
                value: Some(value),
                read_only: false,
                config_source: source,
                is_sensitive: false,
                synonyms,
                config_type: d.config_type,
                documentation: include_documentation.then(|| d.doc.to_string()),
                ..Default::default()
            }
        })
        .collect())
}

/// AlterConfigs / IncrementalAlterConfigs of subscription `name`: `edit`
/// changes its current configs, the result is validated (INVALID_CONFIG
/// with Kafka's message) and becomes the metadata command to submit (an
/// empty set deletes the subscription).
pub fn alter(
    subscriptions: &Subscriptions,
    name: &str,
    edit: impl FnOnce(&mut BTreeMap<String, String>) -> Result<(), ApiError>,
) -> Result<crate::metadata::Command, ApiError> {
    if name.is_empty() {
        return Err((
            ErrorCode::InvalidRequest,
            "Subscription name can't be empty".into(),
        ));
    }
    let mut configs = subscriptions.get(name).cloned().unwrap_or_default();
    edit(&mut configs)?;
    parse(&configs).map_err(|e| (ErrorCode::InvalidConfig, e))?;
    Ok(crate::metadata::Command::SetClientMetrics {
        name: name.to_string(),
        configs,
    })
}

/// What a client is, as the selectors see it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClientInfo {
    pub client_id: String,
    pub software_name: String,
    pub software_version: String,
    pub address: String,
    pub port: String,
}

impl ClientInfo {
    pub fn from_conn(
        client_id: Option<&str>,
        software: &(String, String),
        peer: SocketAddr,
    ) -> Self {
        ClientInfo {
            client_id: client_id.unwrap_or_default().to_string(),
            software_name: software.0.clone(),
            software_version: software.1.clone(),
            address: peer.ip().to_string(),
            port: peer.port().to_string(),
        }
    }

    fn attribute(&self, instance: Uuid, selector: &str) -> Option<String> {
        Some(match selector {
            "client_instance_id" => kafka_uuid(instance),
            "client_id" => self.client_id.clone(),
            "client_software_name" => self.software_name.clone(),
            "client_software_version" => self.software_version.clone(),
            "client_source_address" => self.address.clone(),
            "client_source_port" => self.port.clone(),
            _ => return None,
        })
    }
}

/// Kafka's text form of a Uuid: URL-safe base64 without padding.
pub fn kafka_uuid(id: Uuid) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id.as_bytes())
}

impl Subscription {
    pub fn matches(&self, instance: Uuid, client: &ClientInfo) -> bool {
        self.selectors.iter().all(|(sel, re)| {
            client
                .attribute(instance, sel)
                .is_some_and(|a| re.is_match(&a))
        })
    }
}

/// A client's subscription: the metrics it is asked for, at which
/// interval, and the id naming that pair.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientSubscription {
    /// Sorted; `["*"]` when any matching subscription asks for every
    /// metric; empty when none matches (the client pushes nothing).
    pub metrics: Vec<String>,
    pub interval_ms: i32,
    pub id: i32,
}

/// The subscription of client `instance` under `subscriptions` (invalid
/// stored ones are skipped; the handler never stores one).
pub fn subscription_for(
    subscriptions: &Subscriptions,
    instance: Uuid,
    client: &ClientInfo,
) -> ClientSubscription {
    let mut metrics = BTreeSet::new();
    let mut interval_ms = DEFAULT_INTERVAL_MS;
    let mut all = false;
    for configs in subscriptions.values() {
        let Ok(sub) = parse(configs) else { continue };
        if !sub.matches(instance, client) {
            continue;
        }
        all |= sub.metrics.iter().any(|m| m == ALL_METRICS);
        metrics.extend(sub.metrics.iter().cloned());
        interval_ms = interval_ms.min(sub.interval_ms);
    }
    let metrics: Vec<String> = if all {
        vec![ALL_METRICS.to_string()]
    } else {
        metrics.into_iter().collect()
    };
    let id = subscription_id(&metrics, interval_ms, instance);
    ClientSubscription {
        metrics,
        interval_ms,
        id,
    }
}

/// Kafka's `computeSubscriptionId`: CRC-32C of the metric set's text and
/// the interval, XOR the instance id's Java hash code (Kafka's set text
/// is in hash order; here it is sorted, so ids differ from Kafka's, which
/// no client can tell).
pub fn subscription_id(metrics: &[String], interval_ms: i32, instance: Uuid) -> i32 {
    let text = format!("[{}]{}", metrics.join(", "), interval_ms);
    let crc = crc32c::crc32c(text.as_bytes()) as i32;
    let (hi, lo) = instance.as_u64_pair();
    let h = hi ^ lo;
    let java_hash = ((h >> 32) as i32) ^ (h as i32);
    crc ^ java_hash
}

/// One client instance as the broker tracks it.
#[derive(Debug, Clone)]
struct Instance {
    subscription: ClientSubscription,
    last_get_ms: i64,
    last_push_ms: i64,
    last_seen_ms: i64,
    terminating: bool,
    last_error: ErrorCode,
}

/// The latest payload a client pushed.
#[derive(Debug, Clone)]
pub struct Received {
    pub client_instance_id: Uuid,
    pub client: ClientInfo,
    pub received_at_ms: i64,
    pub compression_type: i8,
    /// OTLP `MetricsData`, decompressed.
    pub payload: bytes::Bytes,
    /// The metric names in it (at most `METRIC_NAMES_MAX`), or empty when
    /// it is not valid protobuf.
    pub metric_names: Vec<String>,
}

/// The broker's telemetry state.
#[derive(Default)]
pub struct Telemetry {
    instances: HashMap<Uuid, Instance>,
    /// Latest payload per client, oldest first.
    received: VecDeque<Received>,
    received_bytes: usize,
    pub pushes_total: u64,
}

/// A GetTelemetrySubscriptions answer.
pub struct GetAnswer {
    pub error: ErrorCode,
    pub instance: Uuid,
    pub subscription: ClientSubscription,
}

impl Telemetry {
    /// The instance `id`, (re)created when unknown or when its
    /// subscription changed since (Kafka makes a new instance then: the
    /// request times start over).
    fn instance(
        &mut self,
        id: Uuid,
        client: &ClientInfo,
        subscriptions: &Subscriptions,
        now_ms: i64,
    ) -> &mut Instance {
        self.expire(now_ms);
        let sub = subscription_for(subscriptions, id, client);
        let fresh = self
            .instances
            .get(&id)
            .is_none_or(|i| i.subscription != sub);
        if fresh {
            if !self.instances.contains_key(&id) && self.instances.len() >= INSTANCES_MAX {
                let oldest = self
                    .instances
                    .iter()
                    .min_by_key(|(_, i)| i.last_seen_ms)
                    .map(|(k, _)| *k);
                if let Some(k) = oldest {
                    self.instances.remove(&k);
                }
            }
            self.instances.insert(
                id,
                Instance {
                    subscription: sub,
                    last_get_ms: 0,
                    last_push_ms: 0,
                    last_seen_ms: now_ms,
                    terminating: false,
                    last_error: ErrorCode::None,
                },
            );
        }
        let i = self.instances.get_mut(&id).expect("inserted above");
        i.last_seen_ms = now_ms;
        i
    }

    fn expire(&mut self, now_ms: i64) {
        self.instances.retain(|_, i| {
            now_ms - i.last_seen_ms
                < INSTANCE_EXPIRY_MS.max(3 * i64::from(i.subscription.interval_ms))
        });
    }

    /// GetTelemetrySubscriptions: a zero `instance` gets a new id.
    pub fn get(
        &mut self,
        instance: Uuid,
        client: &ClientInfo,
        subscriptions: &Subscriptions,
        now_ms: i64,
    ) -> GetAnswer {
        let id = if instance.is_nil() {
            loop {
                let id = Uuid::new_v4();
                if !self.instances.contains_key(&id) {
                    break id;
                }
            }
        } else {
            instance
        };
        let i = self.instance(id, client, subscriptions, now_ms);
        // Kafka: throttled unless a push interval passed since the last
        // request (a new or re-subscribed instance has none), or the last
        // push was refused for a stale subscription or an unknown codec:
        // the client must learn the new subscription at once (KIP-714's
        // intent; Kafka's own test of it is always true, a bug).
        let last = i.last_get_ms.max(i.last_push_ms);
        let refetch = matches!(
            i.last_error,
            ErrorCode::UnknownSubscriptionId | ErrorCode::UnsupportedCompressionType
        );
        let error = if refetch || now_ms - last >= i64::from(i.subscription.interval_ms) {
            i.last_get_ms = now_ms;
            i.last_error = ErrorCode::None;
            ErrorCode::None
        } else {
            ErrorCode::ThrottlingQuotaExceeded
        };
        GetAnswer {
            error,
            instance: id,
            subscription: i.subscription.clone(),
        }
    }

    /// PushTelemetry's checks, in Kafka's order: terminated, too early,
    /// stale subscription id, compression type, size. On success the
    /// caller decompresses and calls [`Telemetry::keep`].
    #[allow(clippy::too_many_arguments)]
    pub fn check_push(
        &mut self,
        instance: Uuid,
        client: &ClientInfo,
        subscriptions: &Subscriptions,
        subscription_id: i32,
        terminating: bool,
        compression_type: i8,
        payload_bytes: usize,
        now_ms: i64,
    ) -> Result<(), (ErrorCode, String)> {
        if instance.is_nil() || instance == Uuid::from_u128(1) {
            return Err((
                ErrorCode::InvalidRequest,
                format!(
                    "Invalid request from the client [{}], invalid client instance id",
                    kafka_uuid(instance)
                ),
            ));
        }
        let i = self.instance(instance, client, subscriptions, now_ms);
        let result = (|| {
            if i.terminating {
                return Err((
                    ErrorCode::InvalidRequest,
                    format!(
                        "Client [{}] sent the previous request with state terminating to TRUE, can not accept any requests after that",
                        kafka_uuid(instance)
                    ),
                ));
            }
            // An immediate push after a GetTelemetrySubscriptions is
            // accepted (the client jitters its interval).
            let can_accept = i.last_get_ms > i.last_push_ms
                || now_ms - i.last_push_ms >= i64::from(i.subscription.interval_ms);
            if can_accept {
                i.last_push_ms = now_ms;
            } else if !terminating {
                return Err((
                    ErrorCode::ThrottlingQuotaExceeded,
                    format!(
                        "Request from the client [{}] arrived before the next push interval time",
                        kafka_uuid(instance)
                    ),
                ));
            }
            if subscription_id != i.subscription.id {
                return Err((
                    ErrorCode::UnknownSubscriptionId,
                    format!(
                        "Unknown client subscription id for the client [{}]",
                        kafka_uuid(instance)
                    ),
                ));
            }
            if !(0..=4).contains(&compression_type) {
                return Err((
                    ErrorCode::UnsupportedCompressionType,
                    format!(
                        "Unknown compression type [{compression_type}] is received in telemetry request from [{}]",
                        kafka_uuid(instance)
                    ),
                ));
            }
            if payload_bytes > TELEMETRY_MAX_BYTES as usize {
                return Err((
                    ErrorCode::TelemetryTooLarge,
                    format!(
                        "Telemetry request from [{}] is larger than the maximum allowed size [{TELEMETRY_MAX_BYTES}]",
                        kafka_uuid(instance)
                    ),
                ));
            }
            Ok(())
        })();
        i.last_error = match &result {
            Ok(()) => ErrorCode::None,
            Err((e, _)) => *e,
        };
        i.terminating = terminating;
        result
    }

    /// Keeps `r` as its client's latest payload, evicting the oldest
    /// payloads past the bounds. Returns whether it is the client's first.
    pub fn keep(&mut self, r: Received) -> bool {
        self.pushes_total += 1;
        let before = self.received.len();
        self.received
            .retain(|x| x.client_instance_id != r.client_instance_id);
        let first = self.received.len() == before;
        self.received_bytes = self.received.iter().map(|x| x.payload.len()).sum();
        self.received_bytes += r.payload.len();
        self.received.push_back(r);
        while self.received.len() > PAYLOADS_KEPT_MAX
            || (self.received_bytes > PAYLOADS_KEPT_MAX_BYTES && self.received.len() > 1)
        {
            if let Some(old) = self.received.pop_front() {
                self.received_bytes -= old.payload.len();
            }
        }
        first
    }

    /// The latest payload of every client kept, oldest first (for
    /// observability).
    pub fn received(&self) -> impl Iterator<Item = &Received> {
        self.received.iter()
    }

    /// The latest payload of one client instance.
    pub fn latest(&self, instance: Uuid) -> Option<&Received> {
        self.received
            .iter()
            .find(|r| r.client_instance_id == instance)
    }
}

/// The metric names in an OTLP `MetricsData` message (resource_metrics =
/// 1 -> scope_metrics = 2 -> metrics = 2 -> name = 1), at most
/// `METRIC_NAMES_MAX`; `None` when the bytes are not such a message.
pub fn otlp_metric_names(data: &[u8]) -> Option<Vec<String>> {
    let mut names = Vec::new();
    for (f, rm) in fields(data)? {
        if f != (1, 2) {
            continue;
        }
        for (f, sm) in fields(rm)? {
            if f != (2, 2) {
                continue;
            }
            for (f, m) in fields(sm)? {
                if f != (2, 2) {
                    continue;
                }
                for (f, name) in fields(m)? {
                    if f == (1, 2) && names.len() < METRIC_NAMES_MAX {
                        names.push(String::from_utf8_lossy(name).into_owned());
                    }
                }
            }
        }
    }
    Some(names)
}

fn varint(b: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*pos)?;
        *pos += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// (field number, wire type) and the bytes of a length-delimited field.
type Field<'a> = ((u64, u64), &'a [u8]);

/// One protobuf message's fields as ((number, wire type), bytes): the
/// contents of length-delimited fields, empty for the others.
fn fields(b: &[u8]) -> Option<Vec<Field<'_>>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < b.len() {
        let key = varint(b, &mut pos)?;
        let (num, wt) = (key >> 3, key & 7);
        match wt {
            0 => {
                varint(b, &mut pos)?;
                out.push(((num, wt), &b[0..0]));
            }
            1 => {
                pos = pos.checked_add(8).filter(|&p| p <= b.len())?;
                out.push(((num, wt), &b[0..0]));
            }
            2 => {
                let len = usize::try_from(varint(b, &mut pos)?).ok()?;
                let end = pos.checked_add(len).filter(|&e| e <= b.len())?;
                out.push(((num, wt), &b[pos..end]));
                pos = end;
            }
            5 => {
                pos = pos.checked_add(4).filter(|&p| p <= b.len())?;
                out.push(((num, wt), &b[0..0]));
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subs(list: &[(&str, &[(&str, &str)])]) -> imbl::OrdMap<String, BTreeMap<String, String>> {
        list.iter()
            .map(|(n, kv)| {
                (
                    n.to_string(),
                    kv.iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect::<BTreeMap<_, _>>(),
                )
            })
            .collect()
    }

    fn client(id: &str) -> ClientInfo {
        ClientInfo {
            client_id: id.into(),
            software_name: "librdkafka".into(),
            software_version: "2.16.0".into(),
            address: "127.0.0.1".into(),
            port: "5000".into(),
        }
    }

    #[test]
    fn validation_as_kafka() {
        let one = |k: &str, v: &str| BTreeMap::from([(k.to_string(), v.to_string())]);
        assert!(parse(&one(INTERVAL_MS, "100")).is_ok());
        assert!(parse(&one(INTERVAL_MS, "3600000")).is_ok());
        assert!(parse(&one(INTERVAL_MS, "50")).is_err());
        assert!(parse(&one(INTERVAL_MS, "3600001")).is_err());
        assert!(parse(&one(INTERVAL_MS, "x")).is_err());
        assert!(parse(&one("colour", "red")).is_err());
        assert!(parse(&one(MATCH, "client_id=a.*,client_software_name=librdkafka")).is_ok());
        assert!(parse(&one(MATCH, "client_id=(")).is_err());
        assert!(parse(&one(MATCH, "client_colour=x")).is_err());
        assert!(parse(&one(MATCH, "client_id")).is_err());
        assert!(parse(&one(MATCH, "client_id=a=b")).is_err());
    }

    #[test]
    fn union_of_matching_subscriptions_at_smallest_interval() {
        let id = Uuid::new_v4();
        let s = subs(&[
            (
                "a",
                &[
                    (METRICS, "org.apache.kafka.producer."),
                    (INTERVAL_MS, "5000"),
                    (MATCH, "client_id=app-.*"),
                ],
            ),
            (
                "b",
                &[
                    (
                        METRICS,
                        "org.apache.kafka.consumer.,org.apache.kafka.producer.",
                    ),
                    (INTERVAL_MS, "2000"),
                ],
            ),
            (
                "c",
                &[
                    (METRICS, "*"),
                    (INTERVAL_MS, "100"),
                    (MATCH, "client_id=other"),
                ],
            ),
        ]);
        let got = subscription_for(&s, id, &client("app-1"));
        assert_eq!(
            got.metrics,
            vec!["org.apache.kafka.consumer.", "org.apache.kafka.producer."]
        );
        assert_eq!(got.interval_ms, 2000);
        // Whole-value match: "xapp-1" is not "app-.*".
        let got = subscription_for(&s, id, &client("other"));
        assert_eq!(got.metrics, vec!["*"]);
        assert_eq!(got.interval_ms, 100);
        // Nothing matches: no metrics, Kafka's default interval.
        let none = subscription_for(
            &subs(&[("a", &[(METRICS, "x"), (MATCH, "client_id=zz")])]),
            id,
            &client("app-1"),
        );
        assert!(none.metrics.is_empty());
        assert_eq!(none.interval_ms, DEFAULT_INTERVAL_MS);
        // Selectors on software, address and instance id.
        let s = subs(&[(
            "a",
            &[
                (METRICS, "m"),
                (
                    MATCH,
                    &format!(
                        "client_software_name=librd.*,client_source_address=127\\.0\\.0\\.1,client_instance_id={}",
                        kafka_uuid(id)
                    ),
                ),
            ],
        )]);
        assert_eq!(subscription_for(&s, id, &client("x")).metrics, vec!["m"]);
        assert!(
            subscription_for(&s, Uuid::new_v4(), &client("x"))
                .metrics
                .is_empty()
        );
    }

    #[test]
    fn subscription_id_changes_with_the_subscription() {
        let id = Uuid::new_v4();
        let m = vec!["a".to_string()];
        let base = subscription_id(&m, 1000, id);
        assert_eq!(base, subscription_id(&m, 1000, id));
        assert_ne!(base, subscription_id(&m, 2000, id));
        assert_ne!(base, subscription_id(&["b".to_string()], 1000, id));
        assert_ne!(base, subscription_id(&m, 1000, Uuid::new_v4()));
    }

    #[test]
    fn throttling_and_stale_ids() {
        let s = subs(&[("a", &[(METRICS, "*"), (INTERVAL_MS, "1000")])]);
        let c = client("x");
        let mut t = Telemetry::default();
        let a = t.get(Uuid::nil(), &c, &s, 10_000);
        assert_eq!(a.error, ErrorCode::None);
        assert!(!a.instance.is_nil());
        let id = a.instance;
        let sid = a.subscription.id;
        // A second get within the interval is throttled.
        assert_eq!(
            t.get(id, &c, &s, 10_100).error,
            ErrorCode::ThrottlingQuotaExceeded
        );
        // First push right after the get: accepted.
        assert!(t.check_push(id, &c, &s, sid, false, 0, 10, 10_200).is_ok());
        // Second push too early.
        let e = t
            .check_push(id, &c, &s, sid, false, 0, 10, 10_300)
            .unwrap_err();
        assert_eq!(e.0, ErrorCode::ThrottlingQuotaExceeded);
        // After the interval, a stale id.
        let e = t
            .check_push(id, &c, &s, sid ^ 1, false, 0, 10, 11_300)
            .unwrap_err();
        assert_eq!(e.0, ErrorCode::UnknownSubscriptionId);
        // ... after which the client may ask for its subscription at once.
        assert_eq!(t.get(id, &c, &s, 11_310).error, ErrorCode::None);
        let e = t
            .check_push(
                id,
                &c,
                &s,
                sid,
                false,
                0,
                TELEMETRY_MAX_BYTES as usize + 1,
                12_400,
            )
            .unwrap_err();
        assert_eq!(e.0, ErrorCode::TelemetryTooLarge);
        // A changed subscription gives a new id at once.
        let s2 = subs(&[("a", &[(METRICS, "*"), (INTERVAL_MS, "500")])]);
        let b = t.get(id, &c, &s2, 12_500);
        assert_eq!(b.error, ErrorCode::None);
        assert_ne!(b.subscription.id, sid);
        // Terminating push, then nothing more.
        assert!(
            t.check_push(id, &c, &s2, b.subscription.id, true, 0, 1, 12_600)
                .is_ok()
        );
        let e = t
            .check_push(id, &c, &s2, b.subscription.id, false, 0, 1, 20_000)
            .unwrap_err();
        assert_eq!(e.0, ErrorCode::InvalidRequest);
    }

    #[test]
    fn kept_payloads_are_bounded() {
        let mut t = Telemetry::default();
        let r = |n: u128, len: usize| Received {
            client_instance_id: Uuid::from_u128(n),
            client: client("x"),
            received_at_ms: 0,
            compression_type: 0,
            payload: bytes::Bytes::from(vec![0u8; len]),
            metric_names: Vec::new(),
        };
        assert!(t.keep(r(2, 10)));
        assert!(!t.keep(r(2, 20)));
        assert_eq!(t.received().count(), 1);
        for n in 0..(PAYLOADS_KEPT_MAX as u128 + 10) {
            t.keep(r(100 + n, 1));
        }
        assert_eq!(t.received().count(), PAYLOADS_KEPT_MAX);
        assert!(t.latest(Uuid::from_u128(2)).is_none());
        t.keep(r(5, PAYLOADS_KEPT_MAX_BYTES));
        assert_eq!(t.received().count(), 1);
        assert!(t.latest(Uuid::from_u128(5)).is_some());
    }

    #[test]
    fn otlp_names() {
        // MetricsData{resource_metrics{scope_metrics{metrics{name}}}} by hand.
        fn ld(field: u8, body: &[u8]) -> Vec<u8> {
            let mut v = vec![(field << 3) | 2, body.len() as u8];
            v.extend_from_slice(body);
            v
        }
        let m1 = ld(1, b"org.apache.kafka.producer.record.queue.time.avg");
        let m2 = [ld(1, b"b.c"), vec![0x18, 0x05]].concat();
        let sm = [ld(1, b"scope"), ld(2, &m1), ld(2, &m2)].concat();
        let rm = [ld(1, b"res"), ld(2, &sm)].concat();
        let data = ld(1, &rm);
        assert_eq!(
            otlp_metric_names(&data).unwrap(),
            vec!["org.apache.kafka.producer.record.queue.time.avg", "b.c"]
        );
        assert!(otlp_metric_names(&[0x0a, 0x7f]).is_none());
        assert_eq!(otlp_metric_names(&[]).unwrap(), Vec::<String>::new());
    }
}
