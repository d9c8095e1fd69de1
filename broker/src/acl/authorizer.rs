//! The authorization decision, with Kafka's StandardAuthorizer semantics
//! (`authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer`):
//!
//! - a principal in `super.users` may do anything;
//! - otherwise every ACL whose pattern covers the resource (its literal
//!   name, the literal `*`, each prefix) is looked at; one that matches the
//!   principal (or `User:*`), the host (or `*`) and the operation decides:
//!   any matching DENY denies, else any matching ALLOW allows;
//! - ALLOW of READ, WRITE, DELETE or ALTER also allows DESCRIBE, and ALLOW
//!   of ALTER_CONFIGS also allows DESCRIBE_CONFIGS; a DENY denies only the
//!   operation it names (or ALL);
//! - when no ACL at all covers the resource, `allow.everyone.if.no.acl.found`
//!   decides (default false: denied).

use std::collections::HashSet;

use super::{AclEntry, Acls, WILDCARD, WILDCARD_PRINCIPAL, op, pattern, permission};

/// The one authorizer class Tidemark implements.
pub const STANDARD_AUTHORIZER: &str = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

/// Why the authorizer settings are refused at start.
#[derive(Debug, thiserror::Error)]
pub enum AuthorizerError {
    #[error(
        "authorizer.class.name={0} is not supported: the only authorizer is {STANDARD_AUTHORIZER} (or leave it empty for none)"
    )]
    UnknownClass(String),
    #[error("super.users: '{0}' is not a principal (expected Type:name, e.g. User:admin)")]
    BadSuperUser(String),
}

/// The static authorizer settings of a broker with authorization on.
#[derive(Debug, Clone)]
pub struct Authorizer {
    super_users: HashSet<String>,
    allow_if_no_acl: bool,
}

/// Who is asking: the connection's principal and its client address.
#[derive(Debug, Clone, Copy)]
pub struct Requester<'a> {
    pub principal: &'a str,
    pub host: &'a str,
}

impl Authorizer {
    /// `None` when `authorizer.class.name` is empty (every request is
    /// allowed, as in Kafka without an authorizer).
    pub fn from_settings(
        class: &str,
        super_users: &str,
        allow_if_no_acl: bool,
    ) -> Result<Option<Self>, AuthorizerError> {
        let class = class.trim();
        if class.is_empty() {
            return Ok(None);
        }
        if class != STANDARD_AUTHORIZER {
            return Err(AuthorizerError::UnknownClass(class.to_string()));
        }
        let mut set = HashSet::new();
        for p in super_users
            .split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            match p.split_once(':') {
                Some((t, n)) if !t.is_empty() && !n.is_empty() => {
                    set.insert(p.to_string());
                }
                _ => return Err(AuthorizerError::BadSuperUser(p.to_string())),
            }
        }
        Ok(Some(Authorizer {
            super_users: set,
            allow_if_no_acl,
        }))
    }

    pub fn is_super_user(&self, principal: &str) -> bool {
        self.super_users.contains(principal)
    }

    /// Whether `who` may do `operation` on resource `name` of type `rt`.
    pub fn authorize(
        &self,
        acls: &Acls,
        who: Requester<'_>,
        operation: i8,
        rt: i8,
        name: &str,
    ) -> bool {
        if self.is_super_user(who.principal) {
            return true;
        }
        let mut found = false;
        let mut allowed = false;
        for e in acls.covering(rt, name) {
            found = true;
            match decide(e, who, operation) {
                Some(false) => return false,
                Some(true) => allowed = true,
                None => {}
            }
        }
        if !found {
            return self.allow_if_no_acl;
        }
        allowed
    }

    /// Whether `who` may do `operation` on at least one resource of type
    /// `rt` (Kafka's `authorizeByResourceType`: InitProducerId without a
    /// transactional id is allowed with WRITE on any topic). An ALLOW
    /// counts unless a DENY of the same principal covers every resource
    /// the ALLOW covers.
    pub fn authorize_any(&self, acls: &Acls, who: Requester<'_>, operation: i8, rt: i8) -> bool {
        if self.is_super_user(who.principal) {
            return true;
        }
        let bindings: Vec<_> = acls.of_type(rt).collect();
        if bindings.is_empty() {
            return self.allow_if_no_acl;
        }
        let applies = |e: &AclEntry, perm: i8| {
            e.permission == perm
                && principal_matches(e, who)
                && host_matches(e, who)
                && (e.operation == op::ALL || e.operation == operation)
        };
        let denies: Vec<_> = bindings
            .iter()
            .filter(|b| applies(&b.entry, permission::DENY))
            .collect();
        bindings
            .iter()
            .filter(|b| applies(&b.entry, permission::ALLOW))
            .any(|allow| {
                !denies.iter().any(|deny| {
                    let wildcard = deny.pattern_type == pattern::LITERAL && deny.name == WILDCARD;
                    let covers = match (deny.pattern_type, allow.pattern_type) {
                        (pattern::LITERAL, pattern::LITERAL) => deny.name == allow.name,
                        (pattern::PREFIXED, _) => allow.name.starts_with(&deny.name),
                        _ => false,
                    };
                    wildcard || covers
                })
            })
    }
}

fn principal_matches(e: &AclEntry, who: Requester<'_>) -> bool {
    e.principal == who.principal
        || (e.principal == WILDCARD_PRINCIPAL && who.principal.starts_with("User:"))
}

fn host_matches(e: &AclEntry, who: Requester<'_>) -> bool {
    e.host == WILDCARD || e.host == who.host
}

/// What one entry says about `operation`: `Some(true)` allows,
/// `Some(false)` denies, `None` says nothing.
fn decide(e: &AclEntry, who: Requester<'_>, operation: i8) -> Option<bool> {
    if !principal_matches(e, who) || !host_matches(e, who) {
        return None;
    }
    let allow = e.permission == permission::ALLOW;
    if e.operation != op::ALL {
        let applies = if !allow {
            // A DENY of WRITE does not deny DESCRIBE.
            e.operation == operation
        } else {
            match operation {
                op::DESCRIBE => matches!(
                    e.operation,
                    op::DESCRIBE | op::READ | op::WRITE | op::DELETE | op::ALTER
                ),
                op::DESCRIBE_CONFIGS => {
                    matches!(e.operation, op::DESCRIBE_CONFIGS | op::ALTER_CONFIGS)
                }
                _ => e.operation == operation,
            }
        };
        if !applies {
            return None;
        }
    }
    Some(allow)
}

/// The operations a client may be told it has, per resource type, for
/// the `authorized_operations` bit fields.
pub fn operations_of(rt: i8) -> &'static [i8] {
    use super::resource;
    match rt {
        resource::TOPIC => &[
            op::READ,
            op::WRITE,
            op::CREATE,
            op::DELETE,
            op::ALTER,
            op::DESCRIBE,
            op::DESCRIBE_CONFIGS,
            op::ALTER_CONFIGS,
        ],
        resource::GROUP => &[op::READ, op::DESCRIBE, op::DELETE],
        resource::CLUSTER => &[
            op::CREATE,
            op::ALTER,
            op::DESCRIBE,
            op::CLUSTER_ACTION,
            op::DESCRIBE_CONFIGS,
            op::ALTER_CONFIGS,
            op::IDEMPOTENT_WRITE,
            op::CREATE_TOKENS,
            op::DESCRIBE_TOKENS,
        ],
        resource::TRANSACTIONAL_ID => &[op::DESCRIBE, op::WRITE],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::super::{AclBinding, resource};
    use super::*;

    fn acl(name: &str, pt: i8, who: &str, host: &str, o: i8, p: i8) -> AclBinding {
        AclBinding {
            resource_type: resource::TOPIC,
            name: name.into(),
            pattern_type: pt,
            entry: AclEntry {
                principal: who.into(),
                host: host.into(),
                operation: o,
                permission: p,
            },
        }
    }

    fn who(p: &str) -> Requester<'_> {
        Requester {
            principal: p,
            host: "127.0.0.1",
        }
    }

    fn authz(allow_if_no_acl: bool) -> Authorizer {
        Authorizer::from_settings(STANDARD_AUTHORIZER, "User:admin; User:ops", allow_if_no_acl)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn settings() {
        assert!(Authorizer::from_settings("", "", false).unwrap().is_none());
        assert!(
            Authorizer::from_settings("kafka.security.authorizer.AclAuthorizer", "", false)
                .is_err()
        );
        assert!(Authorizer::from_settings(STANDARD_AUTHORIZER, "admin", false).is_err());
    }

    #[test]
    fn deny_wins_and_implied_operations() {
        let a = authz(false);
        let mut acls = Acls::default();
        acls.insert(&acl(
            "team-a.",
            pattern::PREFIXED,
            "User:alice",
            "*",
            op::WRITE,
            permission::ALLOW,
        ));
        acls.insert(&acl(
            "team-a.secret",
            pattern::LITERAL,
            "User:alice",
            "*",
            op::WRITE,
            permission::DENY,
        ));
        acls.insert(&acl(
            "team-a.cfg",
            pattern::LITERAL,
            "User:alice",
            "*",
            op::ALTER_CONFIGS,
            permission::ALLOW,
        ));
        let t = resource::TOPIC;
        assert!(a.authorize(&acls, who("User:alice"), op::WRITE, t, "team-a.orders"));
        assert!(a.authorize(&acls, who("User:alice"), op::DESCRIBE, t, "team-a.orders"));
        assert!(!a.authorize(&acls, who("User:alice"), op::READ, t, "team-a.orders"));
        assert!(!a.authorize(&acls, who("User:alice"), op::WRITE, t, "team-a.secret"));
        // A DENY of WRITE leaves DESCRIBE (implied by the prefixed WRITE).
        assert!(a.authorize(&acls, who("User:alice"), op::DESCRIBE, t, "team-a.secret"));
        assert!(a.authorize(
            &acls,
            who("User:alice"),
            op::DESCRIBE_CONFIGS,
            t,
            "team-a.cfg"
        ));
        assert!(!a.authorize(&acls, who("User:bob"), op::DESCRIBE, t, "team-a.orders"));
        // No ACL covers it: allow.everyone.if.no.acl.found decides.
        assert!(!a.authorize(&acls, who("User:bob"), op::READ, t, "other"));
        assert!(authz(true).authorize(&acls, who("User:bob"), op::READ, t, "other"));
        // ...but only when no ACL covers it at all.
        assert!(!authz(true).authorize(&acls, who("User:bob"), op::READ, t, "team-a.orders"));
        // Super users.
        assert!(a.authorize(&acls, who("User:ops"), op::WRITE, t, "team-a.secret"));
    }

    #[test]
    fn wildcards_and_hosts() {
        let a = authz(false);
        let mut acls = Acls::default();
        acls.insert(&acl(
            "*",
            pattern::LITERAL,
            "User:*",
            "*",
            op::READ,
            permission::ALLOW,
        ));
        acls.insert(&acl(
            "x",
            pattern::LITERAL,
            "User:eve",
            "127.0.0.1",
            op::ALL,
            permission::DENY,
        ));
        acls.insert(&acl(
            "y",
            pattern::LITERAL,
            "User:eve",
            "10.0.0.9",
            op::ALL,
            permission::DENY,
        ));
        let t = resource::TOPIC;
        assert!(a.authorize(&acls, who("User:anyone"), op::READ, t, "z"));
        assert!(!a.authorize(&acls, who("User:eve"), op::READ, t, "x"));
        assert!(a.authorize(&acls, who("User:eve"), op::READ, t, "y"));
    }

    #[test]
    fn authorize_any_topic() {
        let a = authz(false);
        let mut acls = Acls::default();
        let t = resource::TOPIC;
        assert!(!a.authorize_any(&acls, who("User:alice"), op::WRITE, t));
        acls.insert(&acl(
            "team-a.",
            pattern::PREFIXED,
            "User:alice",
            "*",
            op::WRITE,
            permission::ALLOW,
        ));
        assert!(a.authorize_any(&acls, who("User:alice"), op::WRITE, t));
        assert!(!a.authorize_any(&acls, who("User:bob"), op::WRITE, t));
        acls.insert(&acl(
            "team-",
            pattern::PREFIXED,
            "User:alice",
            "*",
            op::WRITE,
            permission::DENY,
        ));
        assert!(!a.authorize_any(&acls, who("User:alice"), op::WRITE, t));
    }
}
