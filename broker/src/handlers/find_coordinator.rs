//! FindCoordinator. Groups (key type 0) are coordinated by this broker,
//! and transactional ids (key type 1) by the leader of their partition of
//! `__consumer_offsets` / `__transaction_state` (each topic is created
//! here on first use). There is no share-group coordinator yet: that key
//! is answered with COORDINATOR_NOT_AVAILABLE and a message, as Kafka
//! answers while a coordinator cannot be found.
//!
//! Why it was advertised before groups existed: librdkafka decides whether
//! the broker supports LZ4 by whether FindCoordinator is listed in
//! ApiVersions, and otherwise silently sends LZ4 batches uncompressed.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::find_coordinator_response::Coordinator;
use kafka_protocol::generated::{FindCoordinatorRequest, FindCoordinatorResponse};

use crate::acl::{Authz, op};
use crate::shard::Shard;

fn why(key_type: i8) -> String {
    match key_type {
        0 => "the group coordinator is not available".into(),
        1 => "the transaction coordinator is not available".into(),
        2 => "share groups are not available on this broker yet".into(),
        other => format!("unknown coordinator key type {other}"),
    }
}

/// The coordinator of `key`: the leader of its `__consumer_offsets`
/// partition (this broker on a single node), as (id, host, port).
async fn answer(
    shard: &Rc<Shard>,
    key_type: i8,
    key: &str,
    listener: &str,
    authz: &Authz<'_>,
) -> Result<(i32, String, i32), ErrorCode> {
    match key_type {
        0 if !authz.group(op::DESCRIBE, key) => Err(ErrorCode::GroupAuthorizationFailed),
        1 if !authz.transactional_id(op::DESCRIBE, key) => {
            Err(ErrorCode::TransactionalIdAuthorizationFailed)
        }
        0 => {
            let t = crate::groups::offsets_topic(shard).await?;
            let p = crate::groups::partition_for(key, t.partitions);
            leader_endpoint(shard, listener, (t.id, p))
        }
        1 => {
            let t = crate::txn::txn_topic(shard).await?;
            let p = crate::txn::partition_for(key, t.partitions);
            leader_endpoint(shard, listener, (t.id, p))
        }
        2 => Err(ErrorCode::CoordinatorNotAvailable),
        _ => Err(ErrorCode::InvalidRequest),
    }
}

/// The address, on the client's listener, of the leader of a
/// coordinator's partition.
fn leader_endpoint(
    shard: &Shard,
    listener: &str,
    key: crate::shard::PartitionKey,
) -> Result<(i32, String, i32), ErrorCode> {
    let leader = shard.leader_of(&key);
    super::metadata::brokers(shard, listener)
        .into_iter()
        .find(|b| b.node_id == leader)
        .map(|b| (b.node_id, b.host, b.port))
        .ok_or(ErrorCode::CoordinatorNotAvailable)
}

fn split(
    outcome: Result<(i32, String, i32), ErrorCode>,
    key_type: i8,
) -> ((i32, String, i32), (ErrorCode, Option<String>)) {
    match outcome {
        Ok(c) => (c, (ErrorCode::None, None)),
        Err(
            c @ (ErrorCode::GroupAuthorizationFailed
            | ErrorCode::TransactionalIdAuthorizationFailed),
        ) => (
            (-1, String::new(), -1),
            (c, Some("Authorization failed.".into())),
        ),
        Err(c) => ((-1, String::new(), -1), (c, Some(why(key_type)))),
    }
}

pub async fn handle(
    shard: &Rc<Shard>,
    req: FindCoordinatorRequest,
    version: i16,
    listener: &str,
    authz: &Authz<'_>,
) -> FindCoordinatorResponse {
    let outcome = answer(shard, req.key_type, &req.key, listener, authz).await;
    let ((node_id, host, port), (code, message)) = split(outcome, req.key_type);
    let mut resp = FindCoordinatorResponse {
        node_id,
        host: host.clone(),
        port,
        ..Default::default()
    };
    if version >= 4 {
        // v4+: one answer per key (every group is coordinated here).
        // The v0-3 fields must keep their defaults to be encodable.
        resp.node_id = 0;
        resp.host = String::new();
        resp.port = 0;
        let mut coordinators = Vec::with_capacity(req.coordinator_keys.len());
        for key in req.coordinator_keys {
            let outcome = answer(shard, req.key_type, &key, listener, authz).await;
            let ((node_id, host, port), (code, message)) = split(outcome, req.key_type);
            coordinators.push(Coordinator {
                key,
                node_id,
                host,
                port,
                error_code: code.code(),
                error_message: message,
                ..Default::default()
            });
        }
        resp.coordinators = coordinators;
    } else {
        resp.error_code = code.code();
        resp.error_message = message;
    }
    resp
}
