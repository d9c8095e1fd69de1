//! Preferred-leader elections on request (Kafka's ElectLeaders, what
//! `kafka-leader-election.sh` and `AdminClient.electLeaders` send).
//!
//! Kafka's controller moves leadership itself; here a partition's leader
//! is its Raft group's, so the broker that takes the request asks each
//! partition's current leader (itself, or a peer over the node-to-node
//! transport at [`ELECTIONS_GROUP`](super::ELECTIONS_GROUP)) to hand the
//! leadership to the preferred replica, the first of the partition's
//! replicas, and waits until it has. Raft only lets a replica that holds
//! every committed entry lead, so the preferred replica must be in sync.
//!
//! Unclean elections (a replica outside the in-sync set takes over when
//! none is left) have no Raft equivalent: a partition without a leader has
//! lost its majority, and electing a minority replica could drop committed
//! records. They are answered as Kafka answers when no eligible replica
//! is alive.

use std::rc::Rc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::leadership::REPLICA_LAG_MAX;
use crate::shard::{PartitionKey, Shard, owner_shard};

/// What a broker asks a partition leader to do.
#[derive(Debug, Serialize, Deserialize)]
pub struct ElectRequest {
    pub partitions: Vec<(u128, i32)>,
    pub timeout_ms: u64,
}

/// One partition's outcome: Kafka error code and message.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ElectOutcome {
    pub topic: u128,
    pub partition: i32,
    pub code: i16,
    pub message: Option<String>,
}

impl ElectOutcome {
    fn new(key: PartitionKey, code: ErrorCode, message: Option<String>) -> Self {
        ElectOutcome {
            topic: key.0.as_u128(),
            partition: key.1,
            code: code.code(),
            message,
        }
    }
}

/// Moves the leadership of `keys` (led, as far as the caller knows, by
/// this broker) to their preferred replicas, on their owner shards, all
/// at once; each waits at most `timeout`.
pub async fn elect_preferred_here(
    shard: &Rc<Shard>,
    keys: Vec<PartitionKey>,
    timeout: Duration,
) -> Vec<ElectOutcome> {
    let futs = keys.into_iter().map(|key| {
        let owner = owner_shard(key.0, key.1, shard.shard_count());
        async move {
            shard
                .submit_to(
                    owner,
                    move |s| async move { elect_one(&s, key, timeout).await },
                )
                .await
                .unwrap_or_else(|_| {
                    ElectOutcome::new(
                        key,
                        ErrorCode::NotLeaderOrFollower,
                        Some("the broker is shutting down".into()),
                    )
                })
        }
    });
    futures_util::future::join_all(futs).await
}

/// On the partition's owner shard.
async fn elect_one(shard: &Rc<Shard>, key: PartitionKey, timeout: Duration) -> ElectOutcome {
    let me = shard.ctx.config.node_id;
    let Some(topic) = shard.metadata().topic_by_id(&key.0).cloned() else {
        return ElectOutcome::new(key, ErrorCode::UnknownTopicOrPartition, None);
    };
    let preferred = topic.preferred_leader(key.1, me);
    let Some(part) = shard.partition(&key) else {
        return ElectOutcome::new(
            key,
            ErrorCode::NotLeaderOrFollower,
            Some(format!("broker {me} has no replica of the partition")),
        );
    };
    if part.leader_id() == Some(preferred) {
        return ElectOutcome::new(key, ErrorCode::ElectionNotNeeded, None);
    }
    if !part.is_leader() {
        return ElectOutcome::new(
            key,
            ErrorCode::NotLeaderOrFollower,
            Some(format!(
                "broker {me} does not lead the partition (leader: {:?})",
                part.leader_id()
            )),
        );
    }
    let in_sync = part
        .in_sync_replicas(REPLICA_LAG_MAX)
        .is_some_and(|isr| isr.contains(&preferred));
    if !in_sync {
        return ElectOutcome::new(
            key,
            ErrorCode::PreferredLeaderNotAvailable,
            Some(format!(
                "the preferred replica {preferred} is not in sync with the leader"
            )),
        );
    }
    tracing::info!(topic = %part.topic, partition = key.1, to = preferred, "electing the preferred leader on request");
    if let Err(e) = part.transfer_leadership(preferred).await {
        return ElectOutcome::new(
            key,
            crate::partition::raft_error_code(&e),
            Some(format!("handing the leadership to {preferred} failed: {e}")),
        );
    }
    let deadline = Instant::now() + timeout;
    while part.leader_id() != Some(preferred) && Instant::now() < deadline {
        monoio::time::sleep(Duration::from_millis(10)).await;
    }
    if part.leader_id() == Some(preferred) {
        ElectOutcome::new(key, ErrorCode::None, None)
    } else {
        ElectOutcome::new(
            key,
            ErrorCode::RequestTimedOut,
            Some(format!(
                "replica {preferred} did not take the leadership within {} ms",
                timeout.as_millis()
            )),
        )
    }
}

/// Serves a peer's [`ElectRequest`] (on shard 0).
pub async fn serve(s0: &Rc<Shard>, body: &[u8]) -> Result<Bytes, String> {
    let req: ElectRequest = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let keys = req
        .partitions
        .iter()
        .map(|&(t, p)| (Uuid::from_u128(t), p))
        .collect();
    let out = elect_preferred_here(s0, keys, Duration::from_millis(req.timeout_ms)).await;
    serde_json::to_vec(&out)
        .map(Bytes::from)
        .map_err(|e| e.to_string())
}

/// Asks broker `leader` to elect the preferred leaders of `keys`.
pub async fn elect_preferred_at(
    shard: &Rc<Shard>,
    leader: i32,
    keys: Vec<PartitionKey>,
    timeout: Duration,
) -> Vec<ElectOutcome> {
    if leader == shard.ctx.config.node_id {
        return elect_preferred_here(shard, keys, timeout).await;
    }
    let failed = |keys: &[PartitionKey], why: String| {
        keys.iter()
            .map(|k| ElectOutcome::new(*k, ErrorCode::NotLeaderOrFollower, Some(why.clone())))
            .collect()
    };
    let Some(net) = shard.net() else {
        return failed(&keys, "not in cluster mode".into());
    };
    let req = ElectRequest {
        partitions: keys.iter().map(|k| (k.0.as_u128(), k.1)).collect(),
        timeout_ms: timeout.as_millis() as u64,
    };
    let Ok(body) = serde_json::to_vec(&req) else {
        return failed(&keys, "cannot encode the request".into());
    };
    let call = net.transport.call(
        leader as tidemark_raft::NodeId,
        super::ELECTIONS_GROUP,
        tidemark_raft::transport::RaftRequest::App(Bytes::from(body)),
        timeout + Duration::from_secs(2),
    );
    match call.await {
        Ok(tidemark_raft::transport::RaftResponse::App(b)) => serde_json::from_slice(&b)
            .unwrap_or_else(|e| failed(&keys, format!("broker {leader} answered garbage: {e}"))),
        Ok(other) => failed(&keys, format!("broker {leader} refused: {other:?}")),
        Err(e) => failed(&keys, format!("broker {leader} is unreachable: {e}")),
    }
}
