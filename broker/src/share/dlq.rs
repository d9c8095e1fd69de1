//! The dead-letter topic of a share group (beyond Kafka, in the shape of
//! KIP-1191): a record rejected by a consumer, or archived because it was
//! delivered `share.delivery.count.limit` times without being accepted, is
//! written to the group's `errors.deadletterqueue.topic.name` with headers
//! saying where it came from and why, and with its key, value and headers
//! when `errors.deadletterqueue.copy.record.enable` is on.
//!
//! The share-partition leader writes here before it writes the archive
//! ([`super::leader`]), so a record is never lost from both places. That
//! a record is never dead-lettered twice (a crash between the two writes)
//! is the leader's dead-letter fence, which needs two things from here:
//! [`end_offset`] (where the next dead letter will go at the earliest) and
//! [`scan`] (the source offsets of one share-partition's dead letters from
//! an offset on, read back from the dead-letter partition).
//!
//! The record goes to the dead-letter partition with the source
//! partition's number (modulo the partition count), keeping one source
//! partition's dead letters in order; when a peer leads it, the batch is
//! sent to that peer over the node-to-node transport
//! ([`crate::cluster::SHARE_DLQ_GROUP`], a Produce request with acks=all)
//! and appended there like any produce; reads go through
//! [`super::remote_read`]. A failed write
//! answers the acknowledgement with an error and keeps the record in
//! flight (it is tried again later).

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
use super::remote_read;
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

/// The headers that say which record a dead letter stands for.
const H_TOPIC: &str = "__dlq.errors.topic";
const H_PARTITION: &str = "__dlq.errors.partition";
const H_OFFSET: &str = "__dlq.errors.offset";
const H_GROUP: &str = "__dlq.errors.group";

fn header(key: &str, value: String) -> Header {
    Header {
        key: Bytes::copy_from_slice(key.as_bytes()),
        value: Some(Bytes::from(value)),
    }
}

/// Where a share-partition's dead letters go: the group's dead-letter
/// topic (created here when allowed) and the partition of it.
#[derive(Debug, Clone)]
pub struct Target {
    pub topic: crate::metadata::TopicMeta,
    pub partition: i32,
}

impl Target {
    pub fn key(&self) -> (uuid::Uuid, i32) {
        (self.topic.id, self.partition)
    }
}

/// The dead-letter partition of the share-partition `key`, `None` when its
/// group has no dead-letter topic.
pub async fn target(
    shard: &Rc<Shard>,
    key: &ShareKey,
) -> Result<Option<Target>, (ErrorCode, String)> {
    let Some(dlq) = topic_name(shard, &key.group_id) else {
        return Ok(None);
    };
    let topic = match shard.metadata().topic(&dlq).cloned() {
        Some(t) => t,
        None => create(shard, &dlq).await?,
    };
    let partition = key.partition.rem_euclid(topic.partitions.max(1));
    Ok(Some(Target { topic, partition }))
}

/// Writes the dead-letter records of `archived` (records of `part`, the
/// share-partition `key`) to `target`; returns once they are durable, with
/// the dead-letter partition's offset just past them.
pub async fn write(
    shard: &Rc<Shard>,
    key: &ShareKey,
    part: &Rc<Partition>,
    target: &Target,
    archived: &[Archived],
) -> Result<i64, (ErrorCode, String)> {
    debug_assert!(!archived.is_empty(), "nothing to dead-letter");
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
        headers.push(header(H_TOPIC, source_topic.clone()));
        headers.push(header(H_PARTITION, key.partition.to_string()));
        headers.push(header(H_OFFSET, a.offset.to_string()));
        headers.push(header(H_GROUP, key.group_id.clone()));
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
    let count = archived.len() as i64;
    let dlq = target.topic.name.clone();
    let p = target.partition;
    let me = shard.ctx.config.node_id;
    if shard.is_cluster() {
        let leader = shard.leader_of(&target.key());
        if leader < 0 {
            return Err((
                ErrorCode::NotLeaderOrFollower,
                format!("partition {p} of the dead-letter topic {dlq} has no leader"),
            ));
        }
        if leader != me {
            let base = write_peer(shard, leader, &dlq, p, batch).await?;
            return Ok(base + count);
        }
    }
    let tp = target.key();
    let owner = owner_shard(tp.0, p, shard.shard_count());
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
                .map(|(info, _)| info.last_offset + 1)
                .map_err(|e| (e.code, format!("dead-letter write: {}", e.message)))
        })
        .await
        .unwrap_or(Err((ErrorCode::NotLeaderOrFollower, "shard gone".into())))
}

/// Sends a dead-letter batch to the peer leading its partition; returns
/// the offset it was written at.
async fn write_peer(
    shard: &Rc<Shard>,
    leader: i32,
    topic: &str,
    partition: i32,
    batch: Bytes,
) -> Result<i64, (ErrorCode, String)> {
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
    let (code, base) = resp
        .responses
        .iter()
        .flat_map(|t| &t.partition_responses)
        .map(|p| (p.error_code, p.base_offset))
        .next()
        .unwrap_or((ErrorCode::UnknownServerError.code(), -1));
    match code {
        0 if base >= 0 => Ok(base),
        0 => Err((
            ErrorCode::UnknownServerError,
            format!("dead-letter write at broker {leader}: no offset in the answer"),
        )),
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
            let (code, base_offset) = match (&topic, p.records) {
                (Some(topic), Some(batch)) if p.index >= 0 && p.index < topic.partitions => {
                    let tp = (topic.id, p.index);
                    let owner = owner_shard(topic.id, p.index, shard.shard_count());
                    shard
                        .submit_to(owner, move |s| async move {
                            match s.led_partition(&tp) {
                                None => (ErrorCode::NotLeaderOrFollower, -1),
                                Some(dp) => match dp.append(batch, -1, APPEND_TIMEOUT).await {
                                    Ok((info, _)) => (ErrorCode::None, info.base_offset),
                                    Err(e) => (e.code, -1),
                                },
                            }
                        })
                        .await
                        .unwrap_or((ErrorCode::NotLeaderOrFollower, -1))
                }
                _ => (ErrorCode::UnknownTopicOrPartition, -1),
            };
            tr.partition_responses.push(PartitionProduceResponse {
                index: p.index,
                error_code: code.code(),
                base_offset,
                ..Default::default()
            });
        }
        resp.responses.push(tr);
    }
    resp.encode_to_bytes(RPC_VERSION).map_err(|e| e.to_string())
}

// ---- reading dead letters back (the leader's fence) ----

/// The most one read of a dead-letter partition returns.
const READ_BYTES: usize = 1 << 20;
/// Longest a whole [`scan`] may take; a longer one fails (retriable) and
/// the share-partition is tried again later.
const SCAN_TIMEOUT: Duration = Duration::from_secs(20);
/// Reads of one [`scan`] at most (with [`READ_BYTES`]: 4 GiB of dead
/// letters written since the share-partition's last recorded archive).
const SCAN_MAX_READS: usize = 4096;

/// Where the next dead letter written to `target` goes at the earliest:
/// its high watermark (every later append lands at or past it).
pub async fn end_offset(shard: &Rc<Shard>, target: &Target) -> Result<i64, (ErrorCode, String)> {
    remote_read::high_watermark(shard, target.key()).await
}

/// The source offsets of the share-partition `key`'s dead letters in
/// `target` at or after `from` (their `__dlq.errors.*` headers name the
/// group, topic and partition), read up to the partition's high
/// watermark as it is when the scan starts, which is returned too (every
/// dead letter written later lands past it).
pub async fn scan(
    shard: &Rc<Shard>,
    key: &ShareKey,
    target: &Target,
    from: i64,
) -> Result<(Vec<i64>, i64), (ErrorCode, String)> {
    let source_topic = shard
        .metadata()
        .topic_by_id(&key.topic_id)
        .map(|t| t.name.clone())
        .unwrap_or_default();
    let partition = key.partition.to_string();
    let started = std::time::Instant::now();
    let mut found = Vec::new();
    let mut at = from;
    let mut until = None;
    for _ in 0..SCAN_MAX_READS {
        if started.elapsed() > SCAN_TIMEOUT {
            break;
        }
        let chunk = remote_read::read(shard, target.key(), at, READ_BYTES).await?;
        let until = *until.get_or_insert(chunk.high_watermark);
        at = at.max(chunk.log_start_offset);
        let mut next = at;
        for batch in kafka_protocol::records::RecordBatches::new(chunk.records) {
            let Ok(batch) = batch else { break };
            next = next.max(batch.last_offset() + 1);
            if batch.is_control() {
                continue;
            }
            let recs = batch.decompressed_records(64 << 20).map_err(|e| {
                (
                    ErrorCode::CorruptMessage,
                    format!("reading the dead-letter partition: {e}"),
                )
            })?;
            for rec in recs.flatten() {
                let h = rec.headers();
                let is = |name: &str, want: &str| {
                    h.get(name.as_bytes())
                        .and_then(|v| v.value)
                        .is_some_and(|v| v.as_ref() == want.as_bytes())
                };
                if !(is(H_GROUP, &key.group_id)
                    && is(H_TOPIC, &source_topic)
                    && is(H_PARTITION, &partition))
                {
                    continue;
                }
                let offset = h
                    .get(H_OFFSET.as_bytes())
                    .and_then(|v| v.value)
                    .and_then(|v| std::str::from_utf8(&v).ok()?.parse::<i64>().ok());
                if let Some(o) = offset {
                    found.push(o);
                }
            }
        }
        if next >= until {
            found.sort_unstable();
            found.dedup();
            return Ok((found, until));
        }
        if next <= at {
            // Nothing readable past `at` below the high watermark yet.
            return Err((
                ErrorCode::OffsetNotAvailable,
                format!("the dead-letter partition read stalled at offset {at}"),
            ));
        }
        at = next;
    }
    Err((
        ErrorCode::RequestTimedOut,
        format!(
            "reading back the dead letters of partition {} of {} took too long",
            target.partition, target.topic.name
        ),
    ))
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
