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
//! live next to the classic ones and are written as Kafka 4's records
//! ([`persist_consumer_group`]); after a restart their members go on with
//! the same ids, epochs and partitions. An empty consumer group is deleted
//! (tombstones) once it has no committed offsets left, as Kafka's cleanup
//! does.
//!
//! Commits and the expiry tick: a commit's record is placed in the log
//! when its append starts, but it reaches the group's state only once
//! durable. The expiry tick therefore skips a group while any commit of it
//! is in flight (`Group::inflight_commits`), so a tombstone is never
//! computed from state that misses a commit already in the log; and state
//! changes carry log offsets, so the later record wins in memory as it
//! does on replay. On replay a group's tombstone clears its membership but
//! not its offsets (each has its own key and tombstone, as in Kafka).

pub mod consumer_protocol;
pub mod group;
pub mod records;
pub mod share_protocol;
pub mod txn_offsets;

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
use records::{ConsumerKey, OffsetsRecord};

/// The internal topic of group metadata and committed offsets.
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

/// `offset.metadata.max.bytes` (read-only, as in Kafka): a commit whose
/// metadata is longer gets OFFSET_METADATA_TOO_LARGE for that partition.
pub fn max_metadata_bytes(settings: &crate::settings::Settings) -> usize {
    usize::try_from(settings.i64("offset.metadata.max.bytes")).unwrap_or(0)
}

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
    /// Offsets committed in transactions not yet ended, by producer id
    /// ([`txn_offsets`]).
    pub pending_txn_offsets: HashMap<i64, Vec<txn_offsets::PendingOffset>>,
    /// Share groups (KIP-932), in memory ([`share_protocol`]).
    pub share_groups: HashMap<String, share_protocol::ShareGroup>,
}

/// A group as ListGroups names it (shared with the status API).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct GroupListing {
    pub group: String,
    /// The classic protocol type (`consumer`, `connect`, ...; empty when
    /// never joined), or `consumer` / `share` for KIP-848 / KIP-932 groups.
    pub protocol_type: String,
    /// Kafka's state name (`Stable`, `Empty`, `Assigning`, ...).
    pub state: &'static str,
    /// ListGroups' group type: `classic`, `consumer` or `share`.
    pub kind: &'static str,
    pub members: usize,
}

impl Coordinator {
    /// Whether `id` is a KIP-848 group here: a consumer group exists and no
    /// classic member holds the id (the classic entry then only carries the
    /// group's committed offsets).
    pub fn is_consumer_group(&self, id: &str) -> bool {
        self.consumer_groups.contains_key(id)
            && self.groups.get(id).is_none_or(|g| g.members.is_empty())
    }

    /// Every group of this shard, classified as ListGroups does: a
    /// KIP-848 group keeps an empty classic entry for its offsets, so a
    /// classic entry counts only while it is not such a shadow.
    pub fn listings(&self) -> Vec<GroupListing> {
        let mut out: Vec<GroupListing> = self
            .groups
            .values()
            .filter(|g| !self.is_consumer_group(&g.id))
            .map(|g| GroupListing {
                group: g.id.clone(),
                protocol_type: g.protocol_type.clone().unwrap_or_default(),
                state: g.state.name(),
                kind: "classic",
                members: g.members.len(),
            })
            .collect();
        out.extend(
            self.consumer_groups
                .values()
                .filter(|g| self.is_consumer_group(&g.id))
                .map(|g| GroupListing {
                    group: g.id.clone(),
                    protocol_type: "consumer".into(),
                    state: g.state_name(),
                    kind: "consumer",
                    members: g.members.len(),
                }),
        );
        out.extend(self.share_groups.values().map(|g| GroupListing {
            group: g.id.clone(),
            protocol_type: "share".into(),
            state: g.state_name(),
            kind: "share",
            members: g.members.len(),
        }));
        out
    }
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
    let replicas = crate::topics::place_replicas(shard, 0, n, -1).map_err(|(code, m)| {
        tracing::error!(?code, %m, "cannot place {OFFSETS_TOPIC}");
        ErrorCode::CoordinatorNotAvailable
    })?;
    match crate::topics::create_topic(shard, OFFSETS_TOPIC.to_string(), n, configs, replicas).await
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
    // In a cluster the coordinator is the leader of the group's partition
    // (announced only once its groups are loaded, see `cluster::leadership`).
    if shard.is_cluster() && shard.leader_of(&(t.id, partition)) != shard.ctx.config.node_id {
        return Err(ErrorCode::NotCoordinator);
    }
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
    append_with(shard, route, move || records)
        .await
        .map(|o| o.unwrap_or(-1))
}

/// Like [`append`], but the records are made by `make` at the moment the
/// batch takes its place in the log, with nothing running in between: a
/// state change drained into records is then always written after the
/// ones drained before it. (The partition may need waiting for just after
/// `__consumer_offsets` is created; that wait comes before `make`.)
/// `Ok(None)`: `make` had nothing to write.
pub async fn append_with<F>(
    shard: &Rc<Shard>,
    route: Route,
    make: F,
) -> Result<Option<i64>, ErrorCode>
where
    F: FnOnce() -> Vec<(Bytes, Option<Bytes>)>,
{
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
    // From here to the append's first poll (which places the batch in
    // the log) nothing awaits.
    let records = make();
    if records.is_empty() {
        return Ok(None);
    }
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
    match part
        .append(batch, -1, std::time::Duration::from_secs(30))
        .await
    {
        Ok((info, _)) => Ok(Some(info.base_offset)),
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

/// The route of a group whose `__consumer_offsets` partition is on this
/// shard.
pub fn local_route(shard: &Rc<Shard>, group: &str) -> Option<Route> {
    let topic = shard.metadata().topic(OFFSETS_TOPIC).cloned()?;
    Some(Route {
        topic_id: topic.id,
        partition: partition_for(group, topic.partitions),
        shard: shard.id,
    })
}

/// Writes what changed in a KIP-848 group since its last write and
/// returns once that write, and every earlier one of the group, is
/// durable (so an answer never shows state a crash could take back).
pub async fn persist_consumer_group(shard: &Rc<Shard>, group: &str) -> Result<(), ErrorCode> {
    let route = local_route(shard, group).ok_or(ErrorCode::NotCoordinator)?;
    let c = coordinator();
    // (keys written, this write's sequence number), set by the drain.
    let drained: std::cell::RefCell<(Vec<ConsumerKey>, u64)> = Default::default();
    // The drain runs when the batch takes its place in the log, so two
    // drains of the group are always written in the order they ran.
    let r = append_with(shard, route, || {
        let mut c = c.borrow_mut();
        let Some(g) = c.consumer_groups.get_mut(group) else {
            return Vec::new();
        };
        let recs = g.drain_records();
        if !recs.is_empty() {
            g.writes_started += 1;
        }
        *drained.borrow_mut() = (
            recs.iter().map(|(k, _)| k.clone()).collect(),
            g.writes_started,
        );
        recs.into_iter()
            .map(|(k, v)| (records::consumer_key(group, &k), v))
            .collect()
    })
    .await;
    let (keys, seq) = drained.take();
    if let Ok(None) = r {
        // Nothing new, but what the caller answers may come from a write
        // still in flight: wait for it (bounded).
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let done = c
                .borrow()
                .consumer_groups
                .get(group)
                .is_none_or(|g| g.writes_done >= seq);
            if done || Instant::now() > deadline {
                return Ok(());
            }
            monoio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    if !keys.is_empty()
        && let Some(g) = c.borrow_mut().consumer_groups.get_mut(group)
    {
        // Failed or not, waiters stop waiting; a failed write's keys are
        // written again by the next drain.
        g.writes_done = g.writes_done.max(seq);
        if r.is_err() {
            g.mark_unwritten(&keys);
        }
    }
    r.map(|_| ())
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
        let mut changed_consumer_groups = Vec::new();
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
                    if !g.tick(now, session, &topics, &*meta).is_empty() {
                        changed_consumer_groups.push(g.id.clone());
                    }
                }
            }
        }
        for id in changed_consumer_groups {
            if let Err(code) = persist_consumer_group(&shard, &id).await {
                tracing::warn!(group = %id, ?code, "cannot write a consumer group's expired members");
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
    let topics = consumer_protocol::topics_of(&shard.metadata());
    let expired: Vec<Expired> = c
        .borrow()
        .groups
        .values()
        .filter_map(|g| {
            let mut e = g.expired_offsets(now, retention_ms);
            // A KIP-848 group keeps the offsets of topics it subscribes
            // to (Kafka's cleanupExpiredOffsets).
            if let Some(cg) = c.borrow().consumer_groups.get(&g.id)
                && !cg.members.is_empty()
            {
                let subscribed = cg.subscribed_topic_names(&topics);
                e.retain(|(t, _)| !subscribed.contains(t));
            }
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
    delete_empty_consumer_groups(shard).await;
}

/// Deletes this shard's KIP-848 groups that have no members and no
/// committed offsets left (Kafka's cleanup deletes an empty group once its
/// offsets have expired). The group leaves the state before its tombstones
/// are written, so a member joining meanwhile starts a new group whose
/// records follow the tombstones in the log.
async fn delete_empty_consumer_groups(shard: &Rc<Shard>) {
    let c = coordinator();
    let doomed: Vec<(String, Vec<ConsumerKey>)> = {
        let mut c = c.borrow_mut();
        let ids: Vec<String> = c
            .consumer_groups
            .values()
            .filter(|g| g.members.is_empty())
            .map(|g| g.id.clone())
            .filter(|id| {
                c.groups
                    .get(id)
                    .is_none_or(|g| g.offsets.is_empty() && g.inflight_commits.is_empty())
            })
            .collect();
        ids.into_iter()
            .filter_map(|id| {
                let g = c.consumer_groups.remove(&id)?;
                Some((id, g.tombstones()))
            })
            .collect()
    };
    for (group, keys) in doomed {
        let Some(route) = local_route(shard, &group) else {
            continue;
        };
        if keys.is_empty() {
            continue;
        }
        let recs = keys
            .iter()
            .map(|k| (records::consumer_key(&group, k), None))
            .collect();
        match append(shard, route, recs).await {
            Ok(_) => tracing::info!(%group, "deleted empty consumer group"),
            Err(code) => {
                tracing::warn!(%group, ?code, "cannot write an empty consumer group's tombstones")
            }
        }
    }
}

/// What kind of record [`replay`] applied.
#[derive(Debug, PartialEq, Eq)]
pub enum Replayed {
    Offset,
    Group,
    Consumer,
}

/// Applies one record of `__consumer_offsets` (at log offset `at`) to a
/// shard's groups, at start-up.
pub fn replay(c: &mut Coordinator, rec: OffsetsRecord, at: i64, delay: Duration) -> Replayed {
    match rec {
        OffsetsRecord::Offset {
            group,
            topic,
            partition,
            value,
        } => {
            let g = c
                .groups
                .entry(group.clone())
                .or_insert_with(|| Group::new(group, delay));
            g.apply_offset(topic, partition, value, at);
            Replayed::Offset
        }
        OffsetsRecord::Group {
            group,
            value: Some(v),
        } => {
            c.groups
                .entry(group.clone())
                .or_insert_with(|| Group::new(group, delay))
                .load_value(&v, Instant::now());
            Replayed::Group
        }
        OffsetsRecord::Group { group, value: None } => {
            // The group's membership ends; its offsets have their own
            // records (and tombstones): a commit written before this
            // tombstone but after the expiry computed it stays.
            if let Some(old) = c.groups.remove(&group) {
                let mut g = Group::new(group.clone(), delay);
                g.offsets = old.offsets;
                c.groups.insert(group, g);
            }
            Replayed::Group
        }
        OffsetsRecord::Consumer { group, key, value } => {
            if key == ConsumerKey::Metadata && value.is_none() {
                c.consumer_groups.remove(&group);
            } else {
                c.consumer_groups
                    .entry(group.clone())
                    .or_insert_with(|| consumer_protocol::ConsumerGroup::new(group))
                    .replay(key, value, Instant::now());
            }
            Replayed::Consumer
        }
    }
}

/// Replays one partition from its log start into this shard's groups.
/// Forgets the groups of `__consumer_offsets` partition `partition` (this
/// broker no longer leads it: the new leader loads them from the log).
pub fn unload_partition(shard: &Shard, partition: i32) {
    let Some(t) = shard.metadata().topic(OFFSETS_TOPIC).cloned() else {
        return;
    };
    let c = coordinator();
    let mut c = c.borrow_mut();
    let mine = |g: &String| partition_for(g, t.partitions) == partition;
    let before = c.groups.len() + c.consumer_groups.len();
    c.groups.retain(|g, _| !mine(g));
    c.consumer_groups.retain(|g, _| !mine(g));
    drop(c);
    txn_offsets::unload(partition);
    let c = coordinator();
    let c = c.borrow();
    let after = c.groups.len() + c.consumer_groups.len();
    tracing::info!(
        partition,
        groups = before - after,
        "unloaded {OFFSETS_TOPIC} partition"
    );
}

/// Reads a `__consumer_offsets` partition from its start into this
/// shard's coordinator (at start-up, or when this broker becomes its
/// leader).
pub async fn load_partition(shard: &Rc<Shard>, part: &Partition) {
    let delay = initial_delay(shard);
    let started = Instant::now();
    let mut offset = part.log.log_start_offset();
    let (mut offsets, mut groups, mut consumer_records) = (0usize, 0usize, 0usize);
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
                // A transaction's end settles the offsets it committed here.
                if let Ok(mut recs) = batch.records()
                    && let Some(Ok(rec)) = recs.next()
                    && let Ok(marker) = kafka_protocol::records::EndTxnMarker::from_record(&rec)
                {
                    txn_offsets::complete(part.index, batch.producer_id(), marker.commit, delay);
                }
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
            let txn_producer = batch.is_transactional().then(|| batch.producer_id());
            for rec in recs {
                let Ok(rec) = rec else { break };
                let at = base + rec.offset_delta() as i64;
                let decoded =
                    records::decode(rec.key().map(|k| &k[..]), rec.value().map(|v| &v[..]));
                match decoded {
                    // Part of a transaction: pending until its marker.
                    Ok(OffsetsRecord::Offset {
                        group,
                        topic,
                        partition,
                        value: Some(value),
                    }) if txn_producer.is_some() => {
                        let pid = txn_producer.unwrap_or(-1);
                        c.borrow_mut()
                            .pending_txn_offsets
                            .entry(pid)
                            .or_default()
                            .push(txn_offsets::PendingOffset {
                                partition: part.index,
                                group,
                                topic,
                                topic_partition: partition,
                                value,
                                log_offset: at,
                            });
                        offsets += 1;
                    }
                    Ok(rec) => {
                        let kind = replay(&mut c.borrow_mut(), rec, at, delay);
                        match kind {
                            Replayed::Offset => offsets += 1,
                            Replayed::Group => groups += 1,
                            Replayed::Consumer => consumer_records += 1,
                        }
                    }
                    Err(e) => {
                        tracing::warn!(partition = part.index, offset = at, error = %e, "undecodable record skipped");
                    }
                }
            }
        }
        offset = r.next_offset;
    }
    {
        let mut c = c.borrow_mut();
        c.groups.retain(|_, g| !g.is_disposable());
        let meta = shard.metadata();
        let topics = consumer_protocol::topics_of(&meta);
        let now = Instant::now();
        // Records of a group whose epoch record is gone (or never came)
        // are leftovers of a deletion.
        c.consumer_groups.retain(|_, g| g.is_persisted());
        for g in c.consumer_groups.values_mut() {
            g.finish_load(&topics, &*meta, now);
        }
    }
    if offsets + groups + consumer_records > 0 {
        tracing::info!(
            partition = part.index,
            offsets,
            groups,
            consumer_records,
            ms = started.elapsed().as_millis() as u64,
            "loaded {OFFSETS_TOPIC} partition"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use records::OffsetValue;

    fn committed(offset: i64, ts: i64) -> Option<OffsetValue> {
        Some(OffsetValue {
            offset,
            leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp: ts,
        })
    }

    fn offset_rec(p: i32, v: Option<OffsetValue>) -> OffsetsRecord {
        OffsetsRecord::Offset {
            group: "g".into(),
            topic: "t".into(),
            partition: p,
            value: v,
        }
    }

    /// The expiry tick racing an OffsetCommit of the same group: whatever
    /// the interleaving, the newer commit survives, in memory and after a
    /// replay of the log.
    #[test]
    fn expiry_never_loses_a_newer_commit() {
        let d = Duration::ZERO;
        let retention = 60_000;
        let now = 10_000_000;
        let mut c = Coordinator::default();
        // An Empty group whose only offset is long expired (log offset 0).
        replay(&mut c, offset_rec(0, committed(5, 0)), 0, d);
        assert_eq!(
            c.groups["g"].expired_offsets(now, retention),
            vec![("t".to_string(), 0)]
        );

        // 1. A commit of partition 1 is in flight (its record took log
        //    offset 1) when the tick looks: nothing may expire now, since a
        //    group tombstone computed from state without the commit would
        //    land after it.
        let k1 = [("t".to_string(), 1)];
        c.groups.get_mut("g").unwrap().begin_commit(&k1);
        assert!(c.groups["g"].expired_offsets(now, retention).is_empty());
        assert!(!c.groups["g"].is_disposable());
        let g = c.groups.get_mut("g").unwrap();
        g.end_commit(&k1);
        g.apply_offset("t".into(), 1, committed(9, now), 1);
        // The next tick expires only the old offset (not the whole group).
        let e = c.groups["g"].expired_offsets(now, retention);
        assert_eq!(e, vec![("t".to_string(), 0)]);
        assert_ne!(e.len(), c.groups["g"].offsets.len());

        // 2. The tick's tombstone for partition 0 took log offset 2, and a
        //    new commit of partition 0 log offset 3; the commit finishes
        //    first. Applying the older tombstone afterwards changes nothing.
        let g = c.groups.get_mut("g").unwrap();
        g.apply_offset("t".into(), 0, committed(7, now), 3);
        g.apply_offset("t".into(), 0, None, 2);
        assert_eq!(g.offsets[&("t".to_string(), 0)].value.offset, 7);

        // 3. Replay of that log, including a group tombstone written by an
        //    expiry (log offset 4) after a commit it did not see (log
        //    offset 3): the commit's record stays.
        let mut back = Coordinator::default();
        let log = vec![
            offset_rec(0, committed(5, 0)),
            offset_rec(1, committed(9, now)),
            offset_rec(0, None),
            offset_rec(0, committed(7, now)),
            OffsetsRecord::Group {
                group: "g".into(),
                value: None,
            },
        ];
        for (at, r) in log.into_iter().enumerate() {
            replay(&mut back, r, at as i64, d);
        }
        let g = &back.groups["g"];
        assert_eq!(g.offsets[&("t".to_string(), 0)].value.offset, 7);
        assert_eq!(g.offsets[&("t".to_string(), 1)].value.offset, 9);
        // A tombstone after the commit (the commit was older) does delete.
        replay(&mut back, offset_rec(0, None), 5, d);
        assert!(!back.groups["g"].offsets.contains_key(&("t".to_string(), 0)));
    }

    /// DeleteGroups while a commit is in flight: the deletion is the newer
    /// write, so it tombstones the in-flight partition too, and the commit
    /// finishing afterwards does not reach a new group of the same id.
    #[test]
    fn deletion_covers_commits_in_flight() {
        let d = Duration::ZERO;
        let mut g = Group::new("g".into(), d);
        g.apply_offset("t".into(), 0, committed(1, 0), 0);
        let k = [("t".to_string(), 3)];
        g.begin_commit(&k);
        assert_eq!(
            g.offset_keys(),
            vec![("t".to_string(), 0), ("t".to_string(), 3)]
        );
        assert!(!g.is_disposable());
        let again = Group::new("g".into(), d);
        assert_ne!(again.incarnation, g.incarnation);
        g.end_commit(&k);
        assert!(g.inflight_commits.is_empty());
    }

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
