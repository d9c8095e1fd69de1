//! Kafka ACLs: the bindings kept in the cluster metadata, the filters of
//! DescribeAcls and DeleteAcls, and (in [`authorizer`]) the decision
//! StandardAuthorizer makes from them.
//!
//! Codes are Kafka's wire codes (`i8`), kept as they travel: a binding is
//! stored exactly as CreateAcls named it, and filters keep ANY (1) and
//! MATCH (2) as Kafka defines them.
//!
//! Invariant: every stored binding passed [`validate`] (no ANY, MATCH or
//! UNKNOWN code, a non-empty name, a `Type:name` principal), so lookups
//! never meet a wildcard code on the stored side.

pub mod authorizer;
pub mod request;

pub use request::Authz;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// Resource types.
pub mod resource {
    pub const ANY: i8 = 1;
    pub const TOPIC: i8 = 2;
    pub const GROUP: i8 = 3;
    pub const CLUSTER: i8 = 4;
    pub const TRANSACTIONAL_ID: i8 = 5;
    pub const DELEGATION_TOKEN: i8 = 6;
    pub const USER: i8 = 7;
    /// The one name a CLUSTER resource has.
    pub const CLUSTER_NAME: &str = "kafka-cluster";
}

/// Pattern types.
pub mod pattern {
    pub const ANY: i8 = 1;
    /// Filters only: every pattern that matches the filter's name.
    pub const MATCH: i8 = 2;
    pub const LITERAL: i8 = 3;
    pub const PREFIXED: i8 = 4;
}

/// Operations.
pub mod op {
    pub const ANY: i8 = 1;
    pub const ALL: i8 = 2;
    pub const READ: i8 = 3;
    pub const WRITE: i8 = 4;
    pub const CREATE: i8 = 5;
    pub const DELETE: i8 = 6;
    pub const ALTER: i8 = 7;
    pub const DESCRIBE: i8 = 8;
    pub const CLUSTER_ACTION: i8 = 9;
    pub const DESCRIBE_CONFIGS: i8 = 10;
    pub const ALTER_CONFIGS: i8 = 11;
    pub const IDEMPOTENT_WRITE: i8 = 12;
    pub const CREATE_TOKENS: i8 = 13;
    pub const DESCRIBE_TOKENS: i8 = 14;
    pub const TWO_PHASE_COMMIT: i8 = 15;
}

/// Permission types.
pub mod permission {
    pub const ANY: i8 = 1;
    pub const DENY: i8 = 2;
    pub const ALLOW: i8 = 3;
}

/// The literal name that matches every resource of its type.
pub const WILDCARD: &str = "*";
/// The principal that matches every user.
pub const WILDCARD_PRINCIPAL: &str = "User:*";

/// One ACL: a resource pattern and an access control entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AclBinding {
    pub resource_type: i8,
    pub name: String,
    pub pattern_type: i8,
    pub entry: AclEntry,
}

/// Who may (or may not) do what, from where.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AclEntry {
    /// `User:alice`, or `User:*`.
    pub principal: String,
    /// A client IP address, or `*`.
    pub host: String,
    pub operation: i8,
    pub permission: i8,
}

/// Why a binding or filter is refused: Kafka answers INVALID_REQUEST with
/// this message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

fn known_resource(t: i8) -> bool {
    (resource::TOPIC..=resource::USER).contains(&t)
}

fn known_operation(o: i8) -> bool {
    (op::ALL..=op::TWO_PHASE_COMMIT).contains(&o)
}

/// Checks a binding before it is stored (Kafka's `AclControlManager`
/// rules, and the CLUSTER name rule of its request handler).
pub fn validate(b: &AclBinding) -> Result<(), Invalid> {
    if !known_resource(b.resource_type) {
        return Err(Invalid(format!("Invalid resourceType {}", b.resource_type)));
    }
    if b.pattern_type != pattern::LITERAL && b.pattern_type != pattern::PREFIXED {
        return Err(Invalid(format!("Invalid patternType {}", b.pattern_type)));
    }
    if !known_operation(b.entry.operation) {
        return Err(Invalid(format!("Invalid operation {}", b.entry.operation)));
    }
    if b.entry.permission != permission::ALLOW && b.entry.permission != permission::DENY {
        return Err(Invalid(format!(
            "Invalid permissionType {}",
            b.entry.permission
        )));
    }
    if b.name.is_empty() {
        return Err(Invalid("Resource name should not be empty".into()));
    }
    if b.resource_type == resource::CLUSTER && b.name != resource::CLUSTER_NAME {
        return Err(Invalid(
            "The only valid name for the CLUSTER resource is kafka-cluster".into(),
        ));
    }
    match b.entry.principal.split_once(':') {
        Some((t, n)) if !t.is_empty() && !n.is_empty() => {}
        _ => {
            return Err(Invalid(format!(
                "Could not parse principal from `{}` (no colon is present separating the principal type from the principal name)",
                b.entry.principal
            )));
        }
    }
    if b.entry.host.is_empty() {
        return Err(Invalid(
            "Host should not be empty (use * for any host)".into(),
        ));
    }
    Ok(())
}

/// A DescribeAcls or DeleteAcls filter; `None` matches any value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AclFilter {
    pub resource_type: i8,
    pub name: Option<String>,
    pub pattern_type: i8,
    pub principal: Option<String>,
    pub host: Option<String>,
    pub operation: i8,
    pub permission: i8,
}

impl AclFilter {
    /// Refuses UNKNOWN codes, as Kafka does.
    pub fn validate(&self) -> Result<(), Invalid> {
        if self.resource_type != resource::ANY && !known_resource(self.resource_type) {
            return Err(Invalid(format!(
                "Invalid resourceType {}",
                self.resource_type
            )));
        }
        if !(pattern::ANY..=pattern::PREFIXED).contains(&self.pattern_type) {
            return Err(Invalid(format!(
                "Invalid patternType {}",
                self.pattern_type
            )));
        }
        if self.operation != op::ANY && !known_operation(self.operation) {
            return Err(Invalid(format!("Invalid operation {}", self.operation)));
        }
        if !(permission::ANY..=permission::ALLOW).contains(&self.permission) {
            return Err(Invalid(format!(
                "Invalid permissionType {}",
                self.permission
            )));
        }
        Ok(())
    }

    /// Whether `b` is one of the bindings this filter selects (Kafka's
    /// `AclBindingFilter.matches`).
    pub fn matches(&self, b: &AclBinding) -> bool {
        let code = |f: i8, v: i8, any: i8| f == any || f == v;
        let text = |f: &Option<String>, v: &str| f.as_deref().is_none_or(|f| f == v);
        code(self.resource_type, b.resource_type, resource::ANY)
            && self.pattern_matches(b)
            && text(&self.principal, &b.entry.principal)
            && text(&self.host, &b.entry.host)
            && code(self.operation, b.entry.operation, op::ANY)
            && code(self.permission, b.entry.permission, permission::ANY)
    }

    fn pattern_matches(&self, b: &AclBinding) -> bool {
        match self.pattern_type {
            pattern::ANY => self.name.as_deref().is_none_or(|n| n == b.name),
            pattern::MATCH => match self.name.as_deref() {
                None => true,
                Some(n) => match b.pattern_type {
                    pattern::LITERAL => b.name == n || b.name == WILDCARD,
                    pattern::PREFIXED => n.starts_with(&b.name),
                    _ => false,
                },
            },
            p => p == b.pattern_type && self.name.as_deref().is_none_or(|n| n == b.name),
        }
    }
}

/// The entries of each pattern name of one (resource type, pattern type).
type EntriesByName = imbl::OrdMap<String, Arc<Vec<AclEntry>>>;

/// Every ACL, indexed for the authorizer: per resource type, literal and
/// prefixed patterns by name. `imbl` maps: a snapshot costs O(1) and a
/// change copies only the nodes it touches.
#[derive(Debug, Clone, Default)]
pub struct Acls {
    /// `(resource type, pattern type)` -> name -> entries.
    by_pattern: imbl::OrdMap<(i8, i8), EntriesByName>,
    len: usize,
}

impl Acls {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a binding; false if it was there already (creating an existing
    /// ACL succeeds and changes nothing, as in Kafka).
    pub fn insert(&mut self, b: &AclBinding) -> bool {
        let names = self
            .by_pattern
            .entry((b.resource_type, b.pattern_type))
            .or_default();
        let entries = names.entry(b.name.clone()).or_default();
        if entries.contains(&b.entry) {
            return false;
        }
        Arc::make_mut(entries).push(b.entry.clone());
        self.len += 1;
        true
    }

    /// Removes every binding `filter` selects and returns them.
    pub fn remove_matching(&mut self, filter: &AclFilter) -> Vec<AclBinding> {
        let gone: Vec<AclBinding> = self.iter().filter(|b| filter.matches(b)).collect();
        for b in &gone {
            let key = (b.resource_type, b.pattern_type);
            let Some(names) = self.by_pattern.get_mut(&key) else {
                continue;
            };
            if let Some(entries) = names.get_mut(&b.name) {
                Arc::make_mut(entries).retain(|e| *e != b.entry);
                if entries.is_empty() {
                    names.remove(&b.name);
                }
            }
            if names.is_empty() {
                self.by_pattern.remove(&key);
            }
            self.len -= 1;
        }
        gone
    }

    /// Every binding, in (type, pattern, name) order.
    pub fn iter(&self) -> impl Iterator<Item = AclBinding> + '_ {
        self.by_pattern.iter().flat_map(|(&(rt, pt), names)| {
            names.iter().flat_map(move |(name, entries)| {
                entries.iter().map(move |e| AclBinding {
                    resource_type: rt,
                    name: name.clone(),
                    pattern_type: pt,
                    entry: e.clone(),
                })
            })
        })
    }

    /// The entries of every pattern that covers resource `name` of type
    /// `rt`: the literal name, the literal wildcard, and each prefix.
    pub fn covering<'a>(
        &'a self,
        rt: i8,
        name: &'a str,
    ) -> impl Iterator<Item = &'a AclEntry> + 'a {
        let literal = self.by_pattern.get(&(rt, pattern::LITERAL));
        let prefixed = self.by_pattern.get(&(rt, pattern::PREFIXED));
        let exact = literal.and_then(|m| m.get(name));
        let wildcard = literal
            .filter(|_| name != WILDCARD)
            .and_then(|m| m.get(WILDCARD));
        // Whichever is fewer: one probe per prefix length of the name (at
        // most 249 for a topic), or one comparison per prefixed pattern
        // (a few per tenant). Metadata for every topic asks this once per
        // topic, so both ends matter.
        let prefixes = prefixed.into_iter().flat_map(move |m| {
            let probe: Box<dyn Iterator<Item = &'a Arc<Vec<AclEntry>>> + 'a> =
                if m.len() < name.len() {
                    Box::new(
                        m.iter()
                            .filter(move |(p, _)| name.starts_with(p.as_str()))
                            .map(|(_, v)| v),
                    )
                } else {
                    Box::new(
                        name.char_indices()
                            .map(|(i, c)| i + c.len_utf8())
                            .filter_map(move |end| m.get(&name[..end])),
                    )
                };
            probe
        });
        exact
            .into_iter()
            .chain(wildcard)
            .chain(prefixes)
            .flat_map(|v| v.iter())
    }

    /// Every binding of resource type `rt` (for authorization by type).
    pub fn of_type(&self, rt: i8) -> impl Iterator<Item = AclBinding> + '_ {
        self.iter().filter(move |b| b.resource_type == rt)
    }
}

impl Serialize for Acls {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Acls {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<AclBinding>::deserialize(d)?;
        let mut acls = Acls::default();
        for b in &list {
            acls.insert(b);
        }
        Ok(acls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn binding(rt: i8, name: &str, pt: i8, who: &str, o: i8, p: i8) -> AclBinding {
        AclBinding {
            resource_type: rt,
            name: name.into(),
            pattern_type: pt,
            entry: AclEntry {
                principal: who.into(),
                host: "*".into(),
                operation: o,
                permission: p,
            },
        }
    }

    fn any_filter() -> AclFilter {
        AclFilter {
            resource_type: resource::ANY,
            name: None,
            pattern_type: pattern::ANY,
            principal: None,
            host: None,
            operation: op::ANY,
            permission: permission::ANY,
        }
    }

    #[test]
    fn validation_refuses_what_kafka_refuses() {
        let ok = binding(
            resource::TOPIC,
            "a",
            pattern::LITERAL,
            "User:x",
            op::READ,
            permission::ALLOW,
        );
        assert!(validate(&ok).is_ok());
        let mut b = ok.clone();
        b.pattern_type = pattern::MATCH;
        assert!(validate(&b).is_err());
        let mut b = ok.clone();
        b.entry.operation = op::ANY;
        assert!(validate(&b).is_err());
        let mut b = ok.clone();
        b.entry.principal = "alice".into();
        assert!(validate(&b).is_err());
        let mut b = ok.clone();
        b.resource_type = resource::CLUSTER;
        assert!(validate(&b).is_err());
        b.name = resource::CLUSTER_NAME.into();
        assert!(validate(&b).is_ok());
        let mut b = ok;
        b.name.clear();
        assert!(validate(&b).is_err());
    }

    #[test]
    fn insert_is_idempotent_and_remove_follows_the_filter() {
        let mut acls = Acls::default();
        let a = binding(
            resource::TOPIC,
            "pay-",
            pattern::PREFIXED,
            "User:a",
            op::READ,
            permission::ALLOW,
        );
        let b = binding(
            resource::TOPIC,
            "pay-x",
            pattern::LITERAL,
            "User:b",
            op::WRITE,
            permission::DENY,
        );
        let c = binding(
            resource::GROUP,
            "g",
            pattern::LITERAL,
            "User:a",
            op::READ,
            permission::ALLOW,
        );
        assert!(acls.insert(&a));
        assert!(!acls.insert(&a));
        assert!(acls.insert(&b));
        assert!(acls.insert(&c));
        assert_eq!(acls.len(), 3);

        // MATCH on a name selects the literal and the covering prefix.
        let mut f = any_filter();
        f.resource_type = resource::TOPIC;
        f.pattern_type = pattern::MATCH;
        f.name = Some("pay-x".into());
        let matched: Vec<_> = acls.iter().filter(|x| f.matches(x)).collect();
        assert_eq!(matched.len(), 2);

        // A LITERAL filter does not select the prefixed binding.
        f.pattern_type = pattern::LITERAL;
        let gone = acls.remove_matching(&f);
        assert_eq!(gone, vec![b]);
        assert_eq!(acls.len(), 2);
        let gone = acls.remove_matching(&any_filter());
        assert_eq!(gone.len(), 2);
        assert!(acls.is_empty());
    }

    #[test]
    fn covering_finds_literal_wildcard_and_prefixes() {
        let mut acls = Acls::default();
        for (name, pt) in [
            ("orders", pattern::LITERAL),
            ("*", pattern::LITERAL),
            ("ord", pattern::PREFIXED),
            ("orders-x", pattern::PREFIXED),
            ("other", pattern::LITERAL),
        ] {
            acls.insert(&binding(
                resource::TOPIC,
                name,
                pt,
                "User:a",
                op::READ,
                permission::ALLOW,
            ));
        }
        assert_eq!(acls.covering(resource::TOPIC, "orders").count(), 3);
        assert_eq!(acls.covering(resource::GROUP, "orders").count(), 0);
        // More prefixed patterns than the name has characters: the other
        // lookup (one probe per prefix length) finds the same ones.
        for i in 0..20 {
            acls.insert(&binding(
                resource::TOPIC,
                &format!("zz{i}"),
                pattern::PREFIXED,
                "User:a",
                op::READ,
                permission::ALLOW,
            ));
        }
        assert_eq!(acls.covering(resource::TOPIC, "orders").count(), 3);
        assert_eq!(acls.covering(resource::TOPIC, "zz1x").count(), 1 + 1);
    }

    #[test]
    fn serde_round_trip() {
        let mut acls = Acls::default();
        acls.insert(&binding(
            resource::TOPIC,
            "t",
            pattern::LITERAL,
            "User:a",
            op::READ,
            permission::ALLOW,
        ));
        acls.insert(&binding(
            resource::GROUP,
            "g",
            pattern::PREFIXED,
            "User:b",
            op::ALL,
            permission::DENY,
        ));
        let json = serde_json::to_string(&acls).unwrap();
        let back: Acls = serde_json::from_str(&json).unwrap();
        assert_eq!(
            back.iter().collect::<Vec<_>>(),
            acls.iter().collect::<Vec<_>>()
        );
    }
}
