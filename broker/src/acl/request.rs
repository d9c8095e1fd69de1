//! The authorization view of one request: who asks (principal and client
//! address), the broker's authorizer settings and the ACLs of the metadata
//! snapshot the request reads. Handlers ask it one question per resource
//! (`topic`, `group`, `cluster`, ...); with no authorizer configured every
//! answer is yes.

use std::sync::Arc;

use super::authorizer::{Authorizer, Requester, operations_of};
use super::resource;
use crate::metadata::ClusterMetadata;

pub struct Authz<'a> {
    authorizer: Option<&'a Authorizer>,
    meta: Arc<ClusterMetadata>,
    principal: &'a str,
    host: String,
}

/// The bit field Kafka sends when authorized operations were not asked
/// for (`INT32_MIN`).
pub const OPERATIONS_NOT_REQUESTED: i32 = i32::MIN;

impl<'a> Authz<'a> {
    pub fn new(
        authorizer: Option<&'a Authorizer>,
        meta: Arc<ClusterMetadata>,
        principal: &'a str,
        peer: std::net::IpAddr,
    ) -> Self {
        Authz {
            authorizer,
            meta,
            principal,
            // Formatted only when an authorizer will read it: this runs
            // for every request, produce and fetch included.
            host: if authorizer.is_some() {
                peer.to_string()
            } else {
                String::new()
            },
        }
    }

    /// Every request allowed (no authorizer): for tests of one module.
    pub fn allow_all(meta: Arc<ClusterMetadata>) -> Authz<'static> {
        Authz {
            authorizer: None,
            meta,
            principal: "User:ANONYMOUS",
            host: "127.0.0.1".into(),
        }
    }

    /// Whether an authorizer is configured (CreateAcls and friends answer
    /// SECURITY_DISABLED without one, as Kafka does).
    pub fn enabled(&self) -> bool {
        self.authorizer.is_some()
    }

    /// The requester's principal (`User:...`).
    pub fn principal(&self) -> &str {
        self.principal
    }

    /// The requester's client address, as ACL hosts name it (empty
    /// without an authorizer).
    pub fn host(&self) -> &str {
        &self.host
    }

    fn who(&self) -> Requester<'_> {
        Requester {
            principal: self.principal,
            host: &self.host,
        }
    }

    pub fn allows(&self, operation: i8, rt: i8, name: &str) -> bool {
        match self.authorizer {
            None => true,
            Some(a) => a.authorize(&self.meta.acls, self.who(), operation, rt, name),
        }
    }

    pub fn topic(&self, operation: i8, name: &str) -> bool {
        self.allows(operation, resource::TOPIC, name)
    }

    pub fn group(&self, operation: i8, name: &str) -> bool {
        self.allows(operation, resource::GROUP, name)
    }

    pub fn cluster(&self, operation: i8) -> bool {
        self.allows(operation, resource::CLUSTER, resource::CLUSTER_NAME)
    }

    pub fn transactional_id(&self, operation: i8, id: &str) -> bool {
        self.allows(operation, resource::TRANSACTIONAL_ID, id)
    }

    /// Whether `operation` is allowed on some resource of type `rt`.
    pub fn any(&self, operation: i8, rt: i8) -> bool {
        match self.authorizer {
            None => true,
            Some(a) => a.authorize_any(&self.meta.acls, self.who(), operation, rt),
        }
    }

    /// The `authorized_operations` bit field of a resource: bit `op` set
    /// for each operation of its type the requester may do.
    pub fn operations(&self, rt: i8, name: &str) -> i32 {
        operations_of(rt)
            .iter()
            .filter(|&&o| self.allows(o, rt, name))
            .fold(0i32, |bits, &o| bits | (1 << o))
    }
}

/// An authorization outside a request (a connecting broker, a consumer
/// group's regex resolved later): `principal` at `host` against the
/// shard's ACLs of this moment; everything is allowed without an
/// authorizer.
pub fn authorize_now(
    shard: &crate::shard::Shard,
    principal: &str,
    host: &str,
    operation: i8,
    rt: i8,
    name: &str,
) -> bool {
    match shard.ctx.authorizer.as_ref() {
        None => true,
        Some(a) => a.authorize(
            &shard.metadata().acls,
            Requester { principal, host },
            operation,
            rt,
            name,
        ),
    }
}
