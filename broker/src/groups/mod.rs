//! The group coordinator (classic protocol) and committed offsets.
//!
//! Where things live: a group belongs to partition
//! `abs(javaHashCode(group_id)) % partitions` of the compacted internal
//! topic `__consumer_offsets` (Kafka's mapping, so tools that compute a
//! group's partition agree), and its state lives on the shard that owns
//! that partition ([`crate::shard::owner_shard`]). Handlers on any shard
//! reach it with [`Shard::submit_to`]. Keeping the state with the partition
//! is what lets it move with partition leadership once there is a cluster.
//!
//! Durability: committed offsets and each completed rebalance are records
//! of that partition ([`records`] has the byte layout, Kafka's), appended
//! through [`Partition::append`] like any produce, so a commit is
//! acknowledged only once durable. At start-up every shard replays its
//! `__consumer_offsets` partitions from the log start ([`start`]) before it
//! serves anything. Compaction keeps the latest record per key.
//!
//! The coordinator's state is per shard thread ([`coordinator`]): it is
//! only ever touched by the shard that owns it, like a partition, and a
//! thread-local keeps [`Shard`] itself unchanged.
//!
//! Offsets expire (`offsets.retention.minutes`, checked every
//! `offsets.retention.check.interval.ms`) once their group is Empty.
//!
//! After a restart, the members of each classic group's last completed
//! rebalance are reloaded (Stable, fresh sessions) and go on heartbeating,
//! as with Kafka; when a group's last member leaves, the tick writes a
//! member-less record. KIP-848 consumer groups ([`consumer_protocol`])
//! live next to the classic ones, in memory only: their members rejoin
//! after a restart too.

pub mod consumer_protocol;
pub mod group;
pub mod records;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::records::{NewRecord, RecordBatch, RecordBatchBuilder};
use uuid::Uuid;

use crate::metadata::TopicMeta;
use crate::partition::{Partition, now_ms};
use crate::shard::{Shard, owner_shard};
use group::Group;
use records::OffsetsRecord;

/// The internal topic of group metadata and committed offsets.
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

/// Kafka's `offset.metadata.max.bytes` default.
pub const MAX_METADATA_BYTES: usize = 4096;

/// How often sessions, join phases and KIP-394 ids are checked.
const TICK: Duration = Duration::from_millis(50);

/// Java's `String.hashCode` (over UTF-16 code units).
pub fn java_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// The `__consumer_offsets` partition of `group` (Kafka's `Utils.abs`
/// maps `i32::MIN` to 0).
pub fn partition_for(group: &str, partitions: i32) -> i32 {
    let h = java_hash(group);
    let abs = if h == i32::MIN { 0 } else { h.abs() };
    abs % partitions.max(1)
}

/// One shard's groups.
#[derive(Default)]
pub struct Coordinator {
    pub groups: HashMap<String, Group>,
    /// KIP-848 groups. A group id is in use by one protocol at a time; the
    /// classic map may still hold an (empty) entry carrying the offsets.
    pub consumer_groups: HashMap<String, consumer_protocol::ConsumerGroup>,
}

thread_local! {
    static COORDINATOR: Rc<RefCell<Coordinator>> = Rc::new(RefCell::new(Coordinator::default()));
}

/// This shard's coordinator state.
pub fn coordinator() -> Rc<RefCell<Coordinator>> {
    COORDINATOR.with(|c| c.clone())
}

/// Where a group's coordinator runs.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    pub topic_id: Uuid,
    pub partition: i32,
    pub shard: usize,
}

/// `__consumer_offsets`, created (compacted, `offsets.topic.num.partitions`
/// partitions) on first use so that brokers that never see a group do not
/// carry its partitions.
pub async fn offsets_topic(shard: &Rc<Shard>) -> Result<TopicMeta, ErrorCode> {
    if let Some(t) = shard.metadata().topic(OFFSETS_TOPIC) {
        return Ok(t.clone());
    }
    let n = shard
        .metadata()
        .settings
        .i32("offsets.topic.num.partitions")
        .max(1);
    let configs = BTreeMap::from([("cleanup.policy".to_string(), "compact".to_string())]);
    match crate::handlers::topics::create_topic(shard, OFFSETS_TOPIC.to_string(), n, configs).await
    {
        Ok(t) => Ok(t),
        Err((ErrorCode::TopicAlreadyExists, _)) => shard
            .metadata()
            .topic(OFFSETS_TOPIC)
            .cloned()
            .ok_or(ErrorCode::CoordinatorNotAvailable),
        Err((code, message)) => {
            tracing::error!(?code, %message, "cannot create {OFFSETS_TOPIC}");
            Err(ErrorCode::CoordinatorNotAvailable)
        }
    }
}

/// The coordinator of `group` (creating `__consumer_offsets` if needed).
pub async fn route(shard: &Rc<Shard>, group: &str) -> Result<Route, ErrorCode> {
    let t = offsets_topic(shard).await?;
    let partition = partition_for(group, t.partitions);
    Ok(Route {
        topic_id: t.id,
        partition,
        shard: owner_shard(t.id, partition, shard.shard_count()),
    })
}

/// Appends records (key, value or tombstone) to a `__consumer_offsets`
/// partition of this shard as one batch; returns the first record's
/// offset once durable.
pub async fn append(
    shard: &Rc<Shard>,
    route: Route,
    records: Vec<(Bytes, Option<Bytes>)>,
) -> Result<i64, ErrorCode> {
    // Just after `__consumer_offsets` is created, its metadata is
    // published before every partition is open: wait (bounded) for it.
    let mut part = shard.partition(&(route.topic_id, route.partition));
    for _ in 0..100 {
        if part.is_some() || shard.metadata().topic(OFFSETS_TOPIC).is_none() {
            break;
        }
        monoio::time::sleep(Duration::from_millis(20)).await;
        part = shard.partition(&(route.topic_id, route.partition));
    }
    let part = part.ok_or(ErrorCode::NotCoordinator)?;
    let now = now_ms();
    let mut b = RecordBatchBuilder::new();
    for (key, value) in records {
        b.push(NewRecord {
            key: Some(key),
            value,
            headers: Vec::new(),
            timestamp: now,
        });
    }
    let batch = b.build().map_err(|e| {
        tracing::error!(error = %e, "cannot build a __consumer_offsets batch");
        ErrorCode::UnknownServerError
    })?;
    match part.append(batch).await {
        Ok((info, _)) => Ok(info.base_offset),
        Err(e) => {
            tracing::warn!(code = ?e.code, message = %e.message, "__consumer_offsets append failed");
            Err(match e.code {
                ErrorCode::MessageTooLarge | ErrorCode::RecordListTooLarge => {
                    ErrorCode::InvalidCommitOffsetSize
                }
                ErrorCode::NotLeaderOrFollower => ErrorCode::NotCoordinator,
                _ => ErrorCode::CoordinatorNotAvailable,
            })
        }
    }
}

/// The initial rebalance delay now in force.
pub fn initial_delay(shard: &Shard) -> Duration {
    let ms = shard
        .metadata()
        .settings
        .i32("group.initial.rebalance.delay.ms")
        .max(0);
    Duration::from_millis(ms as u64)
}

/// Start-up on each shard: replay this shard's `__consumer_offsets`
/// partitions, then keep the coordinator's clock ticking.
pub async fn start(shard: &Rc<Shard>) {
    let parts: Vec<Rc<Partition>> = shard
        .partitions
        .borrow()
        .values()
        .filter(|p| p.topic == OFFSETS_TOPIC)
        .cloned()
        .collect();
    for p in parts {
        load_partition(shard, &p).await;
    }
    monoio::spawn(ticker(shard.clone()));
}

async fn ticker(shard: Rc<Shard>) {
    let c = coordinator();
    let mut last_expiry = Instant::now();
    loop {
        monoio::select! {
            _ = monoio::time::sleep(TICK) => {}
            _ = shard.stopping() => break,
        }
        let now = Instant::now();
        {
            let mut c = c.borrow_mut();
            for g in c.groups.values_mut() {
                g.tick(now);
            }
            c.groups.retain(|_, g| !g.is_disposable());
            if !c.consumer_groups.is_empty() {
                let meta = shard.metadata();
                let session = Duration::from_millis(
                    meta.settings
                        .i32("group.consumer.session.timeout.ms")
                        .max(1) as u64,
                );
                let topics = consumer_protocol::topics_of(&meta);
                for g in c.consumer_groups.values_mut() {
                    g.tick(now, session, &topics);
                }
            }
        }
        let interval = shard
            .metadata()
            .settings
            .i64("offsets.retention.check.interval.ms")
            .max(1) as u64;
        store_empty_groups(&shard).await;
        if now.duration_since(last_expiry) >= Duration::from_millis(interval) {
            last_expiry = now;
            expire_offsets(&shard).await;
        }
    }
}

/// Writes the metadata record of groups that became Empty (as Kafka does
/// when a group's last member leaves), so that a restart does not reload
/// members that have left.
async fn store_empty_groups(shard: &Rc<Shard>) {
    let Some(topic) = shard.metadata().topic(OFFSETS_TOPIC).cloned() else {
        return;
    };
    let c = coordinator();
    let todo: Vec<(String, Bytes)> = c
        .borrow_mut()
        .groups
        .values_mut()
        .filter(|g| g.store_empty)
        .map(|g| {
            g.store_empty = false;
            (g.id.clone(), records::group_value(&g.to_value()))
        })
        .collect();
    for (group, value) in todo {
        let route = Route {
            topic_id: topic.id,
            partition: partition_for(&group, topic.partitions),
            shard: shard.id,
        };
        if append(
            shard,
            route,
            vec![(records::group_key(&group), Some(value))],
        )
        .await
        .is_err()
            && let Some(g) = c.borrow_mut().groups.get_mut(&group)
            && g.state == group::GroupState::Empty
        {
            g.store_empty = true; // retried at the next tick
        }
    }
}

/// `offsets.retention.minutes`: removes the expired committed offsets of
/// this shard's Empty groups, writing their tombstones (and the group's
/// own tombstone once nothing is left), as Kafka's periodic cleanup does.
async fn expire_offsets(shard: &Rc<Shard>) {
    let Some(topic) = shard.metadata().topic(OFFSETS_TOPIC).cloned() else {
        return;
    };
    let retention_ms = shard
        .metadata()
        .settings
        .i64("offsets.retention.minutes")
        .max(1)
        .saturating_mul(60_000);
    let now = now_ms();
    let c = coordinator();
    // (group, expired offsets, whether they are all its offsets)
    type Expired = (String, Vec<(String, i32)>, bool);
    let expired: Vec<Expired> = c
        .borrow()
        .groups
        .values()
        .filter_map(|g| {
            let e = g.expired_offsets(now, retention_ms);
            let all = !e.is_empty() && e.len() == g.offsets.len();
            (!e.is_empty()).then(|| (g.id.clone(), e, all))
        })
        .collect();
    for (group, keys, all) in expired {
        let partition = partition_for(&group, topic.partitions);
        let route = Route {
            topic_id: topic.id,
            partition,
            shard: shard.id,
        };
        let mut recs: Vec<(Bytes, Option<Bytes>)> = keys
            .iter()
            .map(|(t, p)| (records::offset_key(&group, t, *p), None))
            .collect();
        if all {
            recs.push((records::group_key(&group), None));
        }
        let Ok(base) = append(shard, route, recs).await else {
            continue;
        };
        tracing::info!(%group, offsets = keys.len(), "expired committed offsets");
        let mut c = c.borrow_mut();
        if let Some(g) = c.groups.get_mut(&group) {
            for (i, (t, p)) in keys.into_iter().enumerate() {
                g.apply_offset(t, p, None, base + i as i64);
            }
        }
    }
}

/// Replays one partition from its log start into this shard's groups.
async fn load_partition(shard: &Rc<Shard>, part: &Partition) {
    let delay = initial_delay(shard);
    let started = Instant::now();
    let mut offset = part.log.log_start_offset();
    let (mut offsets, mut groups) = (0usize, 0usize);
    let c = coordinator();
    while offset < part.high_watermark() {
        let r = match part.read(offset, 1 << 20).await {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(partition = part.index, error = %e, "cannot read {OFFSETS_TOPIC}");
                return;
            }
        };
        if r.batches.is_empty() || r.next_offset <= offset {
            break;
        }
        for b in r.batches {
            let Ok(batch) = RecordBatch::new(b) else {
                continue;
            };
            if batch.is_control() {
                continue;
            }
            let Ok(recs) = batch.decompressed_records(64 << 20) else {
                tracing::warn!(
                    partition = part.index,
                    offset = batch.base_offset(),
                    "unreadable batch skipped"
                );
                continue;
            };
            let base = batch.base_offset();
            for rec in recs {
                let Ok(rec) = rec else { break };
                let at = base + rec.offset_delta() as i64;
                let decoded =
                    records::decode(rec.key().map(|k| &k[..]), rec.value().map(|v| &v[..]));
                let mut c = c.borrow_mut();
                match decoded {
                    Ok(OffsetsRecord::Offset {
                        group,
                        topic,
                        partition,
                        value,
                    }) => {
                        offsets += 1;
                        let g = c
                            .groups
                            .entry(group.clone())
                            .or_insert_with(|| Group::new(group, delay));
                        g.apply_offset(topic, partition, value, at);
                    }
                    Ok(OffsetsRecord::Group {
                        group,
                        value: Some(v),
                    }) => {
                        groups += 1;
                        c.groups
                            .entry(group.clone())
                            .or_insert_with(|| Group::new(group, delay))
                            .load_value(&v, Instant::now());
                    }
                    Ok(OffsetsRecord::Group { group, value: None }) => {
                        c.groups.remove(&group);
                    }
                    Err(e) => {
                        tracing::warn!(partition = part.index, offset = at, error = %e, "undecodable record skipped");
                    }
                }
            }
        }
        offset = r.next_offset;
    }
    c.borrow_mut().groups.retain(|_, g| !g.is_disposable());
    if offsets + groups > 0 {
        tracing::info!(
            partition = part.index,
            offsets,
            groups,
            ms = started.elapsed().as_millis() as u64,
            "loaded {OFFSETS_TOPIC} partition"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hash_matches_kafka() {
        // Values of Java's "...".hashCode().
        assert_eq!(java_hash(""), 0);
        assert_eq!(java_hash("a"), 97);
        assert_eq!(java_hash("hello"), 99_162_322);
        assert_eq!(java_hash("my-group"), -1_906_497_762);
        assert_eq!(partition_for("my-group", 50), 1_906_497_762 % 50);
        assert_eq!(partition_for("hello", 50), 99_162_322 % 50);
        // Negative hash: abs.
        let h = java_hash("polygenelubricants");
        assert_eq!(h, i32::MIN);
        assert_eq!(partition_for("polygenelubricants", 50), 0);
    }
}
