//! Transaction markers: the coordinator's side (send each partition's
//! marker to its leader: this broker, or a peer over the node-to-node
//! transport at [`TXN_MARKERS_GROUP`](crate::cluster::TXN_MARKERS_GROUP),
//! the body being Kafka's WriteTxnMarkers request) and the partition
//! leader's side ([`write_here`], also what the WriteTxnMarkers API runs
//! for a Kafka client with CLUSTER_ACTION).
//!
//! A marker on a `__consumer_offsets` partition also settles the offsets
//! the transaction committed there (`groups::complete_txn`), once the
//! marker is durable.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

use kafka_protocol::ErrorCode;
use kafka_protocol::Message;
use kafka_protocol::generated::write_txn_markers_request::{
    WritableTxnMarker, WritableTxnMarkerTopic,
};
use kafka_protocol::generated::write_txn_markers_response::{
    WritableTxnMarkerPartitionResult, WritableTxnMarkerResult, WritableTxnMarkerTopicResult,
};
use kafka_protocol::generated::{WriteTxnMarkersRequest, WriteTxnMarkersResponse};

use crate::shard::{Shard, owner_shard};

/// How long one marker append may take on the leader.
const MARKER_TIMEOUT: Duration = Duration::from_secs(10);

/// The WriteTxnMarkers version spoken between brokers.
const RPC_VERSION: i16 = 1;

/// Writes the markers of one transaction to `partitions`; returns each
/// partition's outcome (`None` = durable).
pub async fn write(
    shard: &Rc<Shard>,
    producer_id: i64,
    producer_epoch: i16,
    coordinator_epoch: i32,
    commit: bool,
    partitions: Vec<(String, i32)>,
) -> Vec<((String, i32), ErrorCode)> {
    let meta = shard.metadata();
    let me = shard.ctx.config.node_id;
    let mut out = Vec::with_capacity(partitions.len());
    // Leader -> topic -> partitions.
    let mut by_leader: BTreeMap<i32, BTreeMap<String, Vec<i32>>> = BTreeMap::new();
    for (t, p) in partitions {
        let Some(tm) = meta.topic(&t).filter(|tm| p >= 0 && p < tm.partitions) else {
            out.push(((t, p), ErrorCode::UnknownTopicOrPartition));
            continue;
        };
        let leader = shard.leader_of(&(tm.id, p));
        if leader < 0 {
            out.push(((t, p), ErrorCode::NotLeaderOrFollower));
            continue;
        }
        by_leader
            .entry(leader)
            .or_default()
            .entry(t)
            .or_default()
            .push(p);
    }
    let marker = |topics: BTreeMap<String, Vec<i32>>| WritableTxnMarker {
        producer_id,
        producer_epoch,
        transaction_result: commit,
        coordinator_epoch,
        topics: topics
            .into_iter()
            .map(|(name, partition_indexes)| WritableTxnMarkerTopic {
                name,
                partition_indexes,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let calls = by_leader.into_iter().map(|(leader, topics)| {
        let m = marker(topics.clone());
        async move {
            let result = if leader == me {
                Ok(write_here(shard, m).await)
            } else {
                call_peer(shard, leader, m).await
            };
            match result {
                Ok(r) => r
                    .topics
                    .into_iter()
                    .flat_map(|t| {
                        let name = t.name;
                        t.partitions.into_iter().map(move |p| {
                            (
                                (name.clone(), p.partition_index),
                                ErrorCode::from_code(p.error_code)
                                    .unwrap_or(ErrorCode::UnknownServerError),
                            )
                        })
                    })
                    .collect::<Vec<_>>(),
                Err(e) => {
                    tracing::debug!(leader, error = %e, "cannot reach a partition leader for markers");
                    topics
                        .into_iter()
                        .flat_map(|(t, ps)| {
                            ps.into_iter()
                                .map(move |p| ((t.clone(), p), ErrorCode::NotLeaderOrFollower))
                        })
                        .collect()
                }
            }
        }
    });
    for r in futures_util::future::join_all(calls).await {
        out.extend(r);
    }
    out
}

async fn call_peer(
    shard: &Rc<Shard>,
    leader: i32,
    marker: WritableTxnMarker,
) -> Result<WritableTxnMarkerResult, String> {
    let net = shard.net().ok_or("not in cluster mode")?;
    let req = WriteTxnMarkersRequest {
        markers: vec![marker],
        ..Default::default()
    };
    let body = req
        .encode_to_bytes(RPC_VERSION)
        .map_err(|e| e.to_string())?;
    let reply = crate::cluster::call_group(
        &net,
        leader,
        crate::cluster::TXN_MARKERS_GROUP,
        body,
        MARKER_TIMEOUT + Duration::from_secs(1),
    )
    .await?;
    let resp =
        WriteTxnMarkersResponse::decode_exact(reply, RPC_VERSION).map_err(|e| e.to_string())?;
    resp.markers
        .into_iter()
        .next()
        .ok_or_else(|| "empty WriteTxnMarkers answer".to_string())
}

/// A peer coordinator's markers, on shard 0 of the partitions' leader.
pub async fn serve(shard: &Rc<Shard>, body: bytes::Bytes) -> Result<bytes::Bytes, String> {
    let req = WriteTxnMarkersRequest::decode_exact(body, RPC_VERSION).map_err(|e| e.to_string())?;
    let resp = handle(shard, req).await;
    resp.encode_to_bytes(RPC_VERSION).map_err(|e| e.to_string())
}

/// Every marker of a WriteTxnMarkers request, written here.
pub async fn handle(shard: &Rc<Shard>, req: WriteTxnMarkersRequest) -> WriteTxnMarkersResponse {
    let mut markers = Vec::with_capacity(req.markers.len());
    for m in req.markers {
        markers.push(write_here(shard, m).await);
    }
    WriteTxnMarkersResponse {
        markers,
        ..Default::default()
    }
}

/// Writes one transaction's marker to each named partition led here, all
/// at once; answers once each is durable (or failed).
pub async fn write_here(shard: &Rc<Shard>, m: WritableTxnMarker) -> WritableTxnMarkerResult {
    let meta = shard.metadata();
    let (pid, epoch, coord_epoch, commit) = (
        m.producer_id,
        m.producer_epoch,
        m.coordinator_epoch,
        m.transaction_result,
    );
    let mut topics = Vec::with_capacity(m.topics.len());
    for t in m.topics {
        let tm = meta.topic(&t.name).cloned();
        let writes = t.partition_indexes.iter().map(|&p| {
            let tm = tm.clone();
            async move {
                let code = match tm.filter(|tm| p >= 0 && p < tm.partitions) {
                    None => ErrorCode::UnknownTopicOrPartition,
                    Some(tm) => {
                        let owner = owner_shard(tm.id, p, shard.shard_count());
                        let key = (tm.id, p);
                        shard
                            .submit_to(owner, move |s| async move {
                                write_one(&s, key, pid, epoch, coord_epoch, commit).await
                            })
                            .await
                            .unwrap_or(ErrorCode::NotLeaderOrFollower)
                    }
                };
                WritableTxnMarkerPartitionResult {
                    partition_index: p,
                    error_code: code.code(),
                    ..Default::default()
                }
            }
        });
        let partitions = futures_util::future::join_all(writes).await;
        topics.push(WritableTxnMarkerTopicResult {
            name: t.name,
            partitions,
            ..Default::default()
        });
    }
    WritableTxnMarkerResult {
        producer_id: pid,
        topics,
        ..Default::default()
    }
}

/// On the partition's owner shard.
async fn write_one(
    s: &Rc<Shard>,
    key: crate::shard::PartitionKey,
    pid: i64,
    epoch: i16,
    coord_epoch: i32,
    commit: bool,
) -> ErrorCode {
    let Some(part) = s.partition(&key) else {
        return ErrorCode::NotLeaderOrFollower;
    };
    match part
        .write_txn_marker(pid, epoch, coord_epoch, commit, MARKER_TIMEOUT)
        .await
    {
        Ok(_) => {
            if part.topic == crate::groups::OFFSETS_TOPIC {
                crate::groups::txn_offsets::complete(
                    part.index,
                    pid,
                    commit,
                    crate::groups::initial_delay(s),
                );
            }
            ErrorCode::None
        }
        Err(e) => {
            tracing::debug!(topic = %part.topic, partition = part.index, pid, code = ?e.code, message = %e.message, "marker refused");
            e.code
        }
    }
}
