//! Client quotas as Kafka has them (KIP-13, KIP-55, KIP-124, KIP-219,
//! KIP-599, KIP-612): the entities (`user`, `client-id`, `ip`, each with
//! a default: a null name), the keys, Kafka's validation
//! (`ClientQuotaControlManager`), DescribeClientQuotas' filter
//! (`ClientQuotasImage.describe`) and the resolution of the quota that
//! applies to a client (`ClientQuotaManager`'s eight levels).
//!
//! The quotas live in the cluster metadata (`ClusterMetadata::client_quotas`,
//! changed by `Command::AlterClientQuotas` through `admin::submit`), so
//! they survive restarts and every broker of a cluster reads the same.
//! Enforcement (rates over Kafka's sample windows, throttle times, muted
//! connections) is in [`manager`]; the sampled rate itself in [`rate`].

pub mod hooks;
pub mod manager;
pub mod mutation;
pub mod rate;

use std::collections::BTreeMap;

use kafka_protocol::ErrorCode;
use serde::{Deserialize, Serialize};

/// Kafka's entity types (`ClientQuotaEntity.USER`, `CLIENT_ID`, `IP`).
pub const USER: &str = "user";
pub const CLIENT_ID: &str = "client-id";
pub const IP: &str = "ip";

/// The quota keys (`QuotaConfig`).
pub const PRODUCER_BYTE_RATE: &str = "producer_byte_rate";
pub const CONSUMER_BYTE_RATE: &str = "consumer_byte_rate";
pub const REQUEST_PERCENTAGE: &str = "request_percentage";
pub const CONTROLLER_MUTATION_RATE: &str = "controller_mutation_rate";
pub const CONNECTION_CREATION_RATE: &str = "connection_creation_rate";

/// DescribeClientQuotas match types.
pub const MATCH_TYPE_EXACT: i8 = 0;
pub const MATCH_TYPE_DEFAULT: i8 = 1;
pub const MATCH_TYPE_SPECIFIED: i8 = 2;

/// How Kafka types a key's value (`ConfigDef.Type`): integral types must
/// carry no fraction and fit their range.
#[derive(Debug, Clone, Copy, PartialEq)]
enum KeyType {
    Long,
    Int,
    Double,
}

/// The keys a user and/or client-id entity takes
/// (`QuotaConfig.userAndClientQuotaConfigs`).
const USER_CLIENT_KEYS: &[(&str, KeyType)] = &[
    (PRODUCER_BYTE_RATE, KeyType::Long),
    (CONSUMER_BYTE_RATE, KeyType::Long),
    (REQUEST_PERCENTAGE, KeyType::Double),
    (CONTROLLER_MUTATION_RATE, KeyType::Double),
];

/// The keys an ip entity takes (`QuotaConfig.ipConfigs`).
const IP_KEYS: &[(&str, KeyType)] = &[(CONNECTION_CREATION_RATE, KeyType::Int)];

/// One quota entity: its types (sorted, each at most once) and names
/// (`None`: the type's default entity).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct QuotaEntity(pub Vec<(String, Option<String>)>);

impl QuotaEntity {
    /// From (type, name) pairs; a type named twice keeps its last name,
    /// as Kafka's request-to-map conversion does.
    pub fn new(parts: impl IntoIterator<Item = (String, Option<String>)>) -> Self {
        let mut m: BTreeMap<String, Option<String>> = BTreeMap::new();
        for (t, n) in parts {
            m.insert(t, n);
        }
        QuotaEntity(m.into_iter().collect())
    }

    /// The name of entity type `t`: `None` if absent, `Some(None)` for
    /// the default entity.
    pub fn get(&self, t: &str) -> Option<Option<&str>> {
        self.0
            .iter()
            .find(|(ty, _)| ty == t)
            .map(|(_, n)| n.as_deref())
    }

    fn of(parts: &[(&str, Option<&str>)]) -> Self {
        QuotaEntity::new(
            parts
                .iter()
                .map(|(t, n)| (t.to_string(), n.map(str::to_string))),
        )
    }
}

impl std::fmt::Display for QuotaEntity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(t, n)| format!("{t}={}", n.as_deref().unwrap_or("<default>")))
            .collect();
        write!(f, "ClientQuotaEntity({})", parts.join(", "))
    }
}

/// One entity's quotas: key -> value.
pub type QuotaValues = BTreeMap<String, f64>;

/// Every quota by entity, shared with the shards' snapshots.
pub type ClientQuotas = imbl::OrdMap<QuotaEntity, QuotaValues>;

/// One entity's change (`Command::AlterClientQuotas`): keys set and keys
/// removed, already validated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuotaAlteration {
    pub entity: QuotaEntity,
    #[serde(default)]
    pub set: BTreeMap<String, f64>,
    #[serde(default)]
    pub remove: Vec<String>,
}

/// Applies `alterations` in order (deterministic; never refused: the
/// handler validated them). An entity left without keys is removed.
pub fn apply(quotas: &mut ClientQuotas, alterations: &[QuotaAlteration]) {
    for a in alterations {
        let mut values = quotas.get(&a.entity).cloned().unwrap_or_default();
        for k in &a.remove {
            values.remove(k);
        }
        for (k, v) in &a.set {
            values.insert(k.clone(), *v);
        }
        if values.is_empty() {
            quotas.remove(&a.entity);
        } else {
            quotas.insert(a.entity.clone(), values);
        }
    }
}

/// `ClientQuotas` as a JSON list of `[entity, values]` (an entity is not
/// a string, so not a JSON object key).
pub mod serde_list {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};

    use super::{ClientQuotas, QuotaEntity};

    pub fn serialize<S: Serializer>(m: &ClientQuotas, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(m.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ClientQuotas, D::Error> {
        let v = Vec::<(QuotaEntity, BTreeMap<String, f64>)>::deserialize(d)?;
        Ok(v.into_iter().collect())
    }
}

/// A Kafka error and its message.
pub type QuotaError = (ErrorCode, String);

fn invalid(message: impl Into<String>) -> QuotaError {
    (ErrorCode::InvalidRequest, message.into())
}

/// Kafka's `validateEntity` and `configKeysForEntityType`: known types,
/// no empty name, an ip entity alone and a valid address; the keys that
/// entity takes.
fn entity_keys(entity: &QuotaEntity) -> Result<&'static [(&'static str, KeyType)], QuotaError> {
    if entity.0.is_empty() {
        return Err(invalid("Invalid empty client quota entity"));
    }
    for (t, n) in &entity.0 {
        if t != USER && t != CLIENT_ID && t != IP {
            return Err(invalid(format!("Unhandled client quota entity type: {t}")));
        }
        if n.as_deref() == Some("") {
            return Err(invalid(format!("Empty {t} not supported")));
        }
    }
    let has_ip = entity.get(IP).is_some();
    if has_ip {
        if entity.0.len() > 1 {
            // Kafka's message, missing space included.
            return Err(invalid(
                "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId",
            ));
        }
        if let Some(Some(ip)) = entity.get(IP)
            && ip.parse::<std::net::IpAddr>().is_err()
        {
            return Err(invalid(format!(
                "{ip} is not a valid IP or resolvable host."
            )));
        }
        return Ok(IP_KEYS);
    }
    Ok(USER_CLIENT_KEYS)
}

/// Kafka's `validateQuotaKeyValue`.
fn check_value(keys: &[(&str, KeyType)], key: &str, value: f64) -> Result<(), QuotaError> {
    let Some((_, ty)) = keys.iter().find(|(k, _)| *k == key) else {
        return Err(invalid(format!("Invalid configuration key {key}")));
    };
    if value.is_nan() || value <= 0.0 {
        return Err(invalid(format!("Quota {key} must be greater than 0")));
    }
    let (max, what) = match ty {
        KeyType::Double => return Ok(()),
        KeyType::Int => (i32::MAX as f64, "an INT"),
        KeyType::Long => (i64::MAX as f64, "a LONG"),
    };
    if value > max {
        return Err(invalid(format!(
            "Proposed value for {key} is too large for {what}."
        )));
    }
    if (value % 1.0).abs() > 1e-6 {
        return Err(invalid(format!("{key} cannot be a fractional value.")));
    }
    Ok(())
}

/// One entry of an AlterClientQuotas request: its entity and its ops
/// (key, `Some(value)` to set, `None` to remove).
pub struct RequestedAlteration {
    pub entity: QuotaEntity,
    pub ops: Vec<(String, Option<f64>)>,
}

/// Kafka's `ClientQuotaControlManager.alterClientQuotas`: per distinct
/// entity (in first-seen order) its result, and the alterations of the
/// accepted ones. A key named twice in one entry, or an entity named in
/// two entries, is INVALID_REQUEST for that entity (Kafka's messages); a
/// removal needs no valid key (removing what is not there changes
/// nothing).
#[allow(clippy::type_complexity)]
pub fn validate(
    entries: Vec<RequestedAlteration>,
) -> (
    Vec<(QuotaEntity, Result<(), QuotaError>)>,
    Vec<QuotaAlteration>,
) {
    let mut results: Vec<(QuotaEntity, Result<(), QuotaError>)> = Vec::new();
    let mut accepted: Vec<QuotaAlteration> = Vec::new();
    for e in entries {
        let mut ops: BTreeMap<String, Option<f64>> = BTreeMap::new();
        let mut dup_key = None;
        for (k, v) in e.ops {
            match ops.entry(k) {
                std::collections::btree_map::Entry::Occupied(o) => dup_key = Some(o.key().clone()),
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(v);
                }
            }
        }
        let seen = results.iter().position(|(ent, _)| *ent == e.entity);
        // Kafka records a duplicate key's error under the entity, then
        // finds the entity already has a result and answers this instead
        // (as for an entity named in an earlier entry).
        let result = if seen.is_some() || dup_key.is_some() {
            Err(invalid(format!("Ignoring duplicate entity {}", e.entity)))
        } else {
            alteration(&e.entity, &ops).map(|a| accepted.push(a))
        };
        match seen {
            Some(i) => results[i].1 = result,
            None => results.push((e.entity, result)),
        }
    }
    (results, accepted)
}

fn alteration(
    entity: &QuotaEntity,
    ops: &BTreeMap<String, Option<f64>>,
) -> Result<QuotaAlteration, QuotaError> {
    let keys = entity_keys(entity)?;
    let mut a = QuotaAlteration {
        entity: entity.clone(),
        set: BTreeMap::new(),
        remove: Vec::new(),
    };
    for (k, v) in ops {
        match v {
            None => a.remove.push(k.clone()),
            Some(v) => {
                check_value(keys, k, *v)?;
                a.set.insert(k.clone(), *v);
            }
        }
    }
    Ok(a)
}

/// One DescribeClientQuotas filter component: entity type, match type,
/// match string.
pub struct Component {
    pub entity_type: String,
    pub match_type: i8,
    pub match_: Option<String>,
}

/// Kafka's `ClientQuotasImage.describe`: the filter checked as Kafka does
/// (errors as Kafka's exceptions map to codes), then every entity it
/// matches with its values.
pub fn describe(
    quotas: &ClientQuotas,
    components: &[Component],
    strict: bool,
) -> Result<Vec<(QuotaEntity, QuotaValues)>, QuotaError> {
    let mut exact: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    let mut typed: Vec<&str> = Vec::new();
    for c in components {
        let t = c.entity_type.as_str();
        if t.is_empty() {
            return Err(invalid("Invalid empty entity type."));
        }
        if exact.contains_key(t) || typed.contains(&t) {
            return Err(invalid(format!(
                "Entity type {t} cannot appear more than once in the filter."
            )));
        }
        if t != IP && t != USER && t != CLIENT_ID {
            return Err((
                ErrorCode::UnsupportedVersion,
                format!("Unsupported entity type {t}"),
            ));
        }
        match c.match_type {
            MATCH_TYPE_EXACT => match &c.match_ {
                None => {
                    return Err(invalid(
                        "Request specified MATCH_TYPE_EXACT, but set match string to null.",
                    ));
                }
                Some(m) => {
                    exact.insert(t, Some(m.as_str()));
                }
            },
            MATCH_TYPE_DEFAULT => {
                if c.match_.is_some() {
                    return Err(invalid(
                        "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.",
                    ));
                }
                exact.insert(t, None);
            }
            MATCH_TYPE_SPECIFIED => {
                if c.match_.is_some() {
                    return Err(invalid(
                        "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.",
                    ));
                }
                typed.push(t);
            }
            other => return Err(invalid(format!("Unknown match type {other}"))),
        }
    }
    let has = |t: &str| exact.contains_key(t) || typed.contains(&t);
    if has(IP) && (has(USER) || has(CLIENT_ID)) {
        return Err(invalid(
            "Invalid entity filter component combination. IP filter component should not be used with user or clientId filter component.",
        ));
    }
    let matches = |e: &QuotaEntity| {
        if strict && e.0.len() != exact.len() + typed.len() {
            return false;
        }
        exact.iter().all(|(t, n)| e.get(t) == Some(*n)) && typed.iter().all(|t| e.get(t).is_some())
    };
    Ok(quotas
        .iter()
        .filter(|(e, _)| matches(e))
        .map(|(e, v)| (e.clone(), v.clone()))
        .collect())
}

/// Which clients share one rate: Kafka's metric tags (user tag,
/// client-id tag; empty when that part does not count at the matched
/// level), with the quota type.
pub type SensorKey = (String, String);

/// The quota `key` that applies to a client (principal name `user`,
/// `client_id`), by Kafka's precedence:
/// 1. /config/users/<user>/clients/<client-id>
/// 2. /config/users/<user>/clients/<default>
/// 3. /config/users/<user>
/// 4. /config/users/<default>/clients/<client-id>
/// 5. /config/users/<default>/clients/<default>
/// 6. /config/users/<default>
/// 7. /config/clients/<client-id>
/// 8. /config/clients/<default>
///
/// Each key resolves on its own (Kafka keeps one quota manager per key),
/// so a level that sets only `consumer_byte_rate` does not hide a
/// `producer_byte_rate` below it. Returns the bound and whose rate it
/// counts against: clients matched at a user-only level share one rate
/// per user, at a client-id-only level one per client id.
pub fn resolve(
    quotas: &ClientQuotas,
    key: &str,
    user: &str,
    client_id: &str,
) -> Option<(f64, SensorKey)> {
    if quotas.is_empty() {
        return None;
    }
    let u = Some(user);
    let c = Some(client_id);
    let both = (user.to_string(), client_id.to_string());
    let user_only = (user.to_string(), String::new());
    let client_only = (String::new(), client_id.to_string());
    let levels: [(QuotaEntity, &SensorKey); 8] = [
        (QuotaEntity::of(&[(USER, u), (CLIENT_ID, c)]), &both),
        (QuotaEntity::of(&[(USER, u), (CLIENT_ID, None)]), &both),
        (QuotaEntity::of(&[(USER, u)]), &user_only),
        (QuotaEntity::of(&[(USER, None), (CLIENT_ID, c)]), &both),
        (QuotaEntity::of(&[(USER, None), (CLIENT_ID, None)]), &both),
        (QuotaEntity::of(&[(USER, None)]), &user_only),
        (QuotaEntity::of(&[(CLIENT_ID, c)]), &client_only),
        (QuotaEntity::of(&[(CLIENT_ID, None)]), &client_only),
    ];
    levels.into_iter().find_map(|(e, tags)| {
        quotas
            .get(&e)
            .and_then(|v| v.get(key))
            .map(|b| (*b, tags.clone()))
    })
}

/// The `connection_creation_rate` of an address: its own entity, else
/// the default ip entity (`ConnectionQuotas.connectionRateForIp`).
pub fn ip_connection_rate(quotas: &ClientQuotas, ip: &str) -> Option<f64> {
    if quotas.is_empty() {
        return None;
    }
    [
        QuotaEntity::of(&[(IP, Some(ip))]),
        QuotaEntity::of(&[(IP, None)]),
    ]
    .iter()
    .find_map(|e| {
        quotas
            .get(e)
            .and_then(|v| v.get(CONNECTION_CREATION_RATE))
            .copied()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ent(parts: &[(&str, Option<&str>)]) -> QuotaEntity {
        QuotaEntity::of(parts)
    }

    fn set(q: &mut ClientQuotas, e: QuotaEntity, k: &str, v: f64) {
        apply(
            q,
            &[QuotaAlteration {
                entity: e,
                set: [(k.to_string(), v)].into_iter().collect(),
                remove: vec![],
            }],
        );
    }

    #[test]
    fn precedence_follows_kafkas_eight_levels() {
        let mut q = ClientQuotas::new();
        set(&mut q, ent(&[(CLIENT_ID, None)]), PRODUCER_BYTE_RATE, 8.0);
        assert_eq!(resolve(&q, PRODUCER_BYTE_RATE, "u", "c").unwrap().0, 8.0);
        set(
            &mut q,
            ent(&[(CLIENT_ID, Some("c"))]),
            PRODUCER_BYTE_RATE,
            7.0,
        );
        assert_eq!(resolve(&q, PRODUCER_BYTE_RATE, "u", "c").unwrap().0, 7.0);
        set(&mut q, ent(&[(USER, None)]), PRODUCER_BYTE_RATE, 6.0);
        assert_eq!(resolve(&q, PRODUCER_BYTE_RATE, "u", "c").unwrap().0, 6.0);
        set(
            &mut q,
            ent(&[(USER, None), (CLIENT_ID, None)]),
            PRODUCER_BYTE_RATE,
            5.0,
        );
        assert_eq!(resolve(&q, PRODUCER_BYTE_RATE, "u", "c").unwrap().0, 5.0);
        set(
            &mut q,
            ent(&[(USER, None), (CLIENT_ID, Some("c"))]),
            PRODUCER_BYTE_RATE,
            4.0,
        );
        assert_eq!(resolve(&q, PRODUCER_BYTE_RATE, "u", "c").unwrap().0, 4.0);
        set(&mut q, ent(&[(USER, Some("u"))]), PRODUCER_BYTE_RATE, 3.0);
        let (b, tags) = resolve(&q, PRODUCER_BYTE_RATE, "u", "c").unwrap();
        assert_eq!((b, tags), (3.0, ("u".into(), String::new())));
        set(
            &mut q,
            ent(&[(USER, Some("u")), (CLIENT_ID, None)]),
            PRODUCER_BYTE_RATE,
            2.0,
        );
        assert_eq!(resolve(&q, PRODUCER_BYTE_RATE, "u", "c").unwrap().0, 2.0);
        set(
            &mut q,
            ent(&[(USER, Some("u")), (CLIENT_ID, Some("c"))]),
            PRODUCER_BYTE_RATE,
            1.0,
        );
        assert_eq!(resolve(&q, PRODUCER_BYTE_RATE, "u", "c").unwrap().0, 1.0);
        // Another key resolves on its own.
        assert!(resolve(&q, CONSUMER_BYTE_RATE, "u", "c").is_none());
        // Another client of another user falls to the defaults.
        assert_eq!(resolve(&q, PRODUCER_BYTE_RATE, "v", "d").unwrap().0, 5.0);
    }

    #[test]
    fn validation_answers_kafkas_errors() {
        let alter = |e: QuotaEntity, ops: Vec<(&str, Option<f64>)>| {
            validate(vec![RequestedAlteration {
                entity: e,
                ops: ops.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            }])
            .0
            .remove(0)
            .1
        };
        let c = || ent(&[(CLIENT_ID, Some("c"))]);
        assert!(alter(c(), vec![(PRODUCER_BYTE_RATE, Some(1024.0))]).is_ok());
        let e = alter(c(), vec![("bogus", Some(1.0))]).unwrap_err();
        assert_eq!(e.1, "Invalid configuration key bogus");
        let e = alter(c(), vec![(PRODUCER_BYTE_RATE, Some(-1.0))]).unwrap_err();
        assert_eq!(e.1, "Quota producer_byte_rate must be greater than 0");
        let e = alter(c(), vec![(PRODUCER_BYTE_RATE, Some(1.5))]).unwrap_err();
        assert_eq!(e.1, "producer_byte_rate cannot be a fractional value.");
        assert!(alter(c(), vec![(REQUEST_PERCENTAGE, Some(1.5))]).is_ok());
        let e = alter(c(), vec![(CONNECTION_CREATION_RATE, Some(1.0))]).unwrap_err();
        assert_eq!(e.0, ErrorCode::InvalidRequest);
        let e = alter(
            ent(&[(IP, Some("1.2.3.4")), (USER, Some("u"))]),
            vec![(CONNECTION_CREATION_RATE, Some(1.0))],
        )
        .unwrap_err();
        assert!(e.1.starts_with("Invalid quota entity combination"));
        assert!(
            alter(
                ent(&[(IP, None)]),
                vec![(CONNECTION_CREATION_RATE, Some(3.0))]
            )
            .is_ok()
        );
        let e = alter(ent(&[("bogus", Some("x"))]), vec![]).unwrap_err();
        assert_eq!(e.1, "Unhandled client quota entity type: bogus");
        let e = alter(ent(&[(USER, Some(""))]), vec![]).unwrap_err();
        assert_eq!(e.1, "Empty user not supported");
        // Removing a key that is not valid for the entity is allowed.
        assert!(alter(c(), vec![("bogus", None)]).is_ok());
    }

    #[test]
    fn describe_filters_as_kafka() {
        let mut q = ClientQuotas::new();
        set(&mut q, ent(&[(USER, Some("u"))]), PRODUCER_BYTE_RATE, 1.0);
        set(
            &mut q,
            ent(&[(USER, Some("u")), (CLIENT_ID, None)]),
            PRODUCER_BYTE_RATE,
            2.0,
        );
        set(
            &mut q,
            ent(&[(CLIENT_ID, Some("c"))]),
            PRODUCER_BYTE_RATE,
            3.0,
        );
        let comp = |t: &str, m: i8, s: Option<&str>| Component {
            entity_type: t.into(),
            match_type: m,
            match_: s.map(str::to_string),
        };
        let n = |c: &[Component], strict| describe(&q, c, strict).unwrap().len();
        assert_eq!(n(&[], false), 3);
        assert_eq!(n(&[], true), 0);
        assert_eq!(n(&[comp(USER, MATCH_TYPE_EXACT, Some("u"))], false), 2);
        assert_eq!(n(&[comp(USER, MATCH_TYPE_EXACT, Some("u"))], true), 1);
        assert_eq!(n(&[comp(CLIENT_ID, MATCH_TYPE_DEFAULT, None)], false), 1);
        assert_eq!(n(&[comp(CLIENT_ID, MATCH_TYPE_SPECIFIED, None)], false), 2);
        let e = describe(&q, &[comp("bogus", MATCH_TYPE_SPECIFIED, None)], false).unwrap_err();
        assert_eq!(e.0, ErrorCode::UnsupportedVersion);
        let e = describe(
            &q,
            &[
                comp(IP, MATCH_TYPE_SPECIFIED, None),
                comp(USER, MATCH_TYPE_SPECIFIED, None),
            ],
            false,
        )
        .unwrap_err();
        assert_eq!(e.0, ErrorCode::InvalidRequest);
    }
}
