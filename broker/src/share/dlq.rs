//! The dead-letter topic of a share group (beyond Kafka, in the shape of
//! KIP-1191): a record rejected by a consumer, or archived because it was
//! delivered `share.delivery.count.limit` times without being accepted, is
//! written to the group's `errors.deadletterqueue.topic.name` with headers
//! saying where it came from and why, and with its key, value and headers
//! when `errors.deadletterqueue.copy.record.enable` is on.
//!
//! The share-partition leader writes here before it writes the archive
//! ([`super::leader`]), so a record is never lost from both places; a
//! crash between the two writes delivers it again, and it may then be
//! dead-lettered twice (at least once, like any produce without
//! idempotence).
//!
//! The record goes to the dead-letter partition with the source
//! partition's number (modulo the partition count), keeping one source
//! partition's dead letters in order; when a peer leads it, the batch is
//! sent to that peer over the node-to-node transport
//! ([`crate::cluster::SHARE_DLQ_GROUP`], a Produce request with acks=all)
//! and appended there like any produce. A failed write answers the
//! acknowledgement with an error and keeps the record in flight (it is
//! tried again later).

use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::Message;
use kafka_protocol::generated::produce_request::{PartitionProduceData, TopicProduceData};
use kafka_protocol::generated::produce_response::{PartitionProduceResponse, TopicProduceResponse};
use kafka_protocol::generated::{ProduceRequest, ProduceResponse};
use kafka_protocol::records::{Header, NewRecord, RecordBatch, RecordBatchBuilder};

use super::inflight::Archived;
use super::records::ShareKey;
use crate::partition::{Partition, now_ms};
use crate::shard::{Shard, owner_shard};

const APPEND_TIMEOUT: Duration = Duration::from_secs(30);
/// The Produce version of dead-letter batches sent to a peer.
const RPC_VERSION: i16 = 9;

/// The group's dead-letter topic, if it has one.
fn topic_name(shard: &Shard, group: &str) -> Option<String> {
    let name = crate::group_config::get(
        &shard.metadata(),
        group,
        "errors.deadletterqueue.topic.name",
    );
    (!name.is_empty()).then_some(name)
}

/// Whether the group dead-letters what it archives.
pub fn enabled(shard: &Shard, group: &str) -> bool {
    topic_name(shard, group).is_some()
}

/// A source record's key, value and headers, copied to the dead letter.
type Original = (Option<Bytes>, Option<Bytes>, Vec<Header>);

fn header(key: &str, value: String) -> Header {
    Header {
        key: Bytes::copy_from_slice(key.as_bytes()),
        value: Some(Bytes::from(value)),
    }
}

/// Writes the dead-letter records of `archived` (records of `part`, the
/// share-partition `key`); returns once they are durable.
pub async fn write(
    shard: &Rc<Shard>,
    key: &ShareKey,
    part: &Rc<Partition>,
    archived: &[Archived],
) -> Result<(), (ErrorCode, String)> {
    let Some(dlq) = topic_name(shard, &key.group_id) else {
        return Ok(());
    };
    if archived.is_empty() {
        return Ok(());
    }
    let meta = shard.metadata();
    let copy = crate::group_config::get_bool(
        &meta,
        &key.group_id,
        "errors.deadletterqueue.copy.record.enable",
    );
    let source_topic = meta
        .topic_by_id(&key.topic_id)
        .map(|t| t.name.clone())
        .unwrap_or_default();
    let topic = match meta.topic(&dlq).cloned() {
        Some(t) => t,
        None => create(shard, &dlq).await?,
    };
    // The originals, when copied.
    let mut originals: BTreeMap<i64, Original> = BTreeMap::new();
    if copy {
        let mut wanted: Vec<i64> = archived.iter().map(|a| a.offset).collect();
        wanted.sort_unstable();
        let mut at = wanted[0];
        let last = *wanted.last().unwrap_or(&at);
        while at <= last {
            let r = part.read(at, 1 << 20).await.map_err(|e| {
                (
                    crate::partition::storage_error_code(&e),
                    format!("reading the record: {e}"),
                )
            })?;
            if r.batches.is_empty() || r.next_offset <= at {
                break;
            }
            for b in r.batches {
                let Ok(batch) = RecordBatch::new(b) else {
                    continue;
                };
                let Ok(recs) = batch.decompressed_records(64 << 20) else {
                    continue;
                };
                for rec in recs.flatten() {
                    if wanted.binary_search(&rec.offset()).is_ok() {
                        originals.insert(
                            rec.offset(),
                            (
                                rec.key().cloned(),
                                rec.value().cloned(),
                                rec.headers().iter().collect(),
                            ),
                        );
                    }
                }
            }
            at = r.next_offset;
        }
    }
    let mut b = RecordBatchBuilder::new();
    let now = now_ms();
    for a in archived {
        let (k, v, mut headers) = originals
            .remove(&a.offset)
            .unwrap_or((None, None, Vec::new()));
        headers.push(header("__dlq.errors.topic", source_topic.clone()));
        headers.push(header("__dlq.errors.partition", key.partition.to_string()));
        headers.push(header("__dlq.errors.offset", a.offset.to_string()));
        headers.push(header("__dlq.errors.group", key.group_id.clone()));
        headers.push(header(
            "__dlq.errors.delivery.count",
            a.delivery_count.to_string(),
        ));
        headers.push(header(
            "__dlq.errors.message",
            a.reason.message().to_string(),
        ));
        b.push(NewRecord {
            key: k,
            value: v,
            headers,
            timestamp: now,
        });
    }
    let batch = b.build().map_err(|e| {
        (
            ErrorCode::UnknownServerError,
            format!("building the dead-letter batch: {e}"),
        )
    })?;
    let me = shard.ctx.config.node_id;
    let p = key.partition.rem_euclid(topic.partitions.max(1));
    if shard.is_cluster() {
        let leader = shard.leader_of(&(topic.id, p));
        if leader < 0 {
            return Err((
                ErrorCode::NotLeaderOrFollower,
                format!("partition {p} of the dead-letter topic {dlq} has no leader"),
            ));
        }
        if leader != me {
            return write_peer(shard, leader, &dlq, p, batch).await;
        }
    }
    let tp = (topic.id, p);
    let owner = owner_shard(topic.id, p, shard.shard_count());
    shard
        .submit_to(owner, move |s| async move {
            let Some(dp) = s.led_partition(&tp) else {
                return Err((
                    ErrorCode::NotLeaderOrFollower,
                    "the dead-letter partition moved".to_string(),
                ));
            };
            dp.append(batch, -1, APPEND_TIMEOUT)
                .await
                .map(|_| ())
                .map_err(|e| (e.code, format!("dead-letter write: {}", e.message)))
        })
        .await
        .unwrap_or(Err((ErrorCode::NotLeaderOrFollower, "shard gone".into())))
}

/// Sends a dead-letter batch to the peer leading its partition.
async fn write_peer(
    shard: &Rc<Shard>,
    leader: i32,
    topic: &str,
    partition: i32,
    batch: Bytes,
) -> Result<(), (ErrorCode, String)> {
    let net = shard.net().ok_or((
        ErrorCode::NotLeaderOrFollower,
        "not in cluster mode".to_string(),
    ))?;
    let req = ProduceRequest {
        acks: -1,
        timeout_ms: APPEND_TIMEOUT.as_millis() as i32,
        topic_data: vec![TopicProduceData {
            name: topic.to_string(),
            partition_data: vec![PartitionProduceData {
                index: partition,
                records: Some(batch),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let body = req
        .encode_to_bytes(RPC_VERSION)
        .map_err(|e| (ErrorCode::UnknownServerError, e.to_string()))?;
    let reply = crate::cluster::call_group(
        &net,
        leader,
        crate::cluster::SHARE_DLQ_GROUP,
        body,
        APPEND_TIMEOUT + Duration::from_secs(1),
    )
    .await
    .map_err(|e| {
        (
            ErrorCode::NotLeaderOrFollower,
            format!("dead-letter write to broker {leader}: {e}"),
        )
    })?;
    let resp = ProduceResponse::decode_exact(reply, RPC_VERSION)
        .map_err(|e| (ErrorCode::UnknownServerError, e.to_string()))?;
    let code = resp
        .responses
        .iter()
        .flat_map(|t| &t.partition_responses)
        .map(|p| p.error_code)
        .next()
        .unwrap_or(ErrorCode::UnknownServerError.code());
    match code {
        0 => Ok(()),
        c => {
            let code = ErrorCode::from_code(c).unwrap_or(ErrorCode::UnknownServerError);
            Err((
                code,
                format!("dead-letter write at broker {leader}: {}", code.message()),
            ))
        }
    }
}

/// A peer's dead-letter batches, on shard 0 of the partitions' leader:
/// each appended (acks=all) if this broker leads its partition.
pub async fn serve(shard: &Rc<Shard>, body: Bytes) -> Result<Bytes, String> {
    let req = ProduceRequest::decode_exact(body, RPC_VERSION).map_err(|e| e.to_string())?;
    let mut resp = ProduceResponse::default();
    for t in req.topic_data {
        let topic = shard.metadata().topic(&t.name).cloned();
        let mut tr = TopicProduceResponse {
            name: t.name.clone(),
            ..Default::default()
        };
        for p in t.partition_data {
            let code = match (&topic, p.records) {
                (Some(topic), Some(batch)) if p.index >= 0 && p.index < topic.partitions => {
                    let tp = (topic.id, p.index);
                    let owner = owner_shard(topic.id, p.index, shard.shard_count());
                    shard
                        .submit_to(owner, move |s| async move {
                            match s.led_partition(&tp) {
                                None => ErrorCode::NotLeaderOrFollower,
                                Some(dp) => match dp.append(batch, -1, APPEND_TIMEOUT).await {
                                    Ok(_) => ErrorCode::None,
                                    Err(e) => e.code,
                                },
                            }
                        })
                        .await
                        .unwrap_or(ErrorCode::NotLeaderOrFollower)
                }
                _ => ErrorCode::UnknownTopicOrPartition,
            };
            tr.partition_responses.push(PartitionProduceResponse {
                index: p.index,
                error_code: code.code(),
                ..Default::default()
            });
        }
        resp.responses.push(tr);
    }
    resp.encode_to_bytes(RPC_VERSION).map_err(|e| e.to_string())
}

/// Creates the dead-letter topic when `errors.deadletterqueue.auto.create.topics.enable`.
async fn create(
    shard: &Rc<Shard>,
    name: &str,
) -> Result<crate::metadata::TopicMeta, (ErrorCode, String)> {
    let meta = shard.metadata();
    if !meta
        .settings
        .bool("errors.deadletterqueue.auto.create.topics.enable")
    {
        return Err((
            ErrorCode::UnknownTopicOrPartition,
            format!("the dead-letter topic {name} does not exist"),
        ));
    }
    let n = meta.settings.i32("num.partitions").max(1);
    let replicas = crate::topics::place_replicas(shard, 0, n, -1)?;
    match crate::topics::create_topic(shard, name.to_string(), n, BTreeMap::new(), replicas).await {
        Ok(t) => {
            // Its partitions open just after the metadata is published.
            for _ in 0..200 {
                let all_open = (0..t.partitions)
                    .all(|p| !shard.is_cluster() || shard.leader_of(&(t.id, p)) >= 0);
                if all_open {
                    break;
                }
                monoio::time::sleep(Duration::from_millis(10)).await;
            }
            Ok(t)
        }
        Err((ErrorCode::TopicAlreadyExists, _)) => meta_topic(shard, name),
        Err(e) => Err(e),
    }
}

fn meta_topic(
    shard: &Shard,
    name: &str,
) -> Result<crate::metadata::TopicMeta, (ErrorCode, String)> {
    shard.metadata().topic(name).cloned().ok_or((
        ErrorCode::UnknownTopicOrPartition,
        format!("the dead-letter topic {name} does not exist"),
    ))
}
