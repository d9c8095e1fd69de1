//! The share coordinator (KIP-932): where each share-partition's delivery
//! state is made durable. A (group, topic, partition) belongs to
//! partition [`records::partition_for`] of the compacted internal topic
//! `__share_group_state` (Kafka's mapping), and its state lives on the
//! shard owning that partition, on the broker leading it.
//!
//! A share-partition leader reads its state once, when it starts serving
//! the share-partition, and writes a snapshot each time acknowledgements,
//! releases or lock expiries change it ([`write`]); the write is answered
//! once the record is durable (replicated like any produce). Every write
//! carries the leader epoch of the topic partition it serves: a write from
//! an older leader than the last one written is refused
//! (FENCED_LEADER_EPOCH), so a deposed leader cannot overwrite what its
//! successor wrote.
//!
//! Loading is lazy: the first request for a `__share_group_state`
//! partition on its leader replays it from the log start into memory
//! ([`ensure_loaded`]); a change of the partition's leader epoch (a new
//! term, possibly another leader in between) replays it again. A peer's
//! share-partition leader reaches this broker over the node-to-node
//! transport ([`crate::cluster::SHARE_STATE_GROUP`]) with Kafka's own
//! ReadShareGroupState / WriteShareGroupState requests (and
//! DescribeShareGroupOffsets for the share-partitions of a group a peer
//! holds, [`group_keys`]).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::Message;
use kafka_protocol::generated::describe_share_group_offsets_request::DescribeShareGroupOffsetsRequestGroup;
use kafka_protocol::generated::read_share_group_state_request::{
    PartitionData as ReadPartitionData, ReadStateData,
};
use kafka_protocol::generated::write_share_group_state_request::{
    PartitionData as WritePartitionData, StateBatch as WireStateBatch, WriteStateData,
};
use kafka_protocol::generated::{
    DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsResponse,
    ReadShareGroupStateRequest, ReadShareGroupStateResponse, WriteShareGroupStateRequest,
    WriteShareGroupStateResponse,
};
use kafka_protocol::records::{NewRecord, RecordBatch, RecordBatchBuilder};
use uuid::Uuid;

use super::records::{
    self, DLQ_FENCE_TAG, DlqFence, STATE_TOPIC, ShareKey, ShareSnapshot, ShareStateRecord,
    StateBatch,
};
use crate::metadata::TopicMeta;
use crate::partition::{Partition, now_ms};
use crate::shard::{Shard, owner_shard};

/// Version of the Read/WriteShareGroupState requests between brokers.
const RPC_VERSION: i16 = 0;
/// How long a peer's write may take before the leader gives up (it
/// answers its acknowledgements with an error then; nothing is lost).
const PEER_TIMEOUT: Duration = Duration::from_secs(15);
/// Longest a single state write may wait for its partition.
const APPEND_TIMEOUT: Duration = Duration::from_secs(30);

/// A share-partition's durable state as the coordinator keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredState {
    pub state_epoch: i32,
    pub leader_epoch: i32,
    pub start_offset: i64,
    pub batches: Vec<StateBatch>,
    /// Where dead letters not reflected in `batches` may be (Tidemark's
    /// own; carried between brokers as a tagged field).
    pub dlq_fence: Option<DlqFence>,
}

#[derive(Default)]
struct CoordinatorState {
    /// Loaded `__share_group_state` partitions and the leader epoch they
    /// were loaded at.
    loaded: HashMap<i32, i32>,
    loading: HashSet<i32>,
    states: HashMap<ShareKey, StoredState>,
}

thread_local! {
    static STATE: Rc<RefCell<CoordinatorState>> = Rc::new(RefCell::new(CoordinatorState::default()));
}

fn state() -> Rc<RefCell<CoordinatorState>> {
    STATE.with(|s| s.clone())
}

/// `__share_group_state`, created (compacted,
/// `share.coordinator.state.topic.num.partitions` partitions,
/// `share.coordinator.state.topic.replication.factor` replicas, at most
/// the brokers there are) on first use.
pub async fn state_topic(shard: &Rc<Shard>) -> Result<TopicMeta, ErrorCode> {
    let settings = shard.metadata().settings.clone();
    crate::topics::internal_topic(
        shard,
        STATE_TOPIC,
        settings.i32("share.coordinator.state.topic.num.partitions"),
        settings.i32("share.coordinator.state.topic.replication.factor"),
        settings.i32("share.coordinator.state.topic.min.isr"),
    )
    .await
}

/// Where a share-partition's state is kept: the `__share_group_state`
/// partition and the broker leading it.
async fn locate(shard: &Rc<Shard>, key: &ShareKey) -> Result<(Uuid, i32, i32), ErrorCode> {
    let t = state_topic(shard).await?;
    let p = records::partition_for(key, t.partitions);
    let leader = if shard.is_cluster() {
        shard.leader_of(&(t.id, p))
    } else {
        shard.ctx.config.node_id
    };
    if leader < 0 {
        tracing::debug!(partition = p, "{STATE_TOPIC} partition has no known leader");
        return Err(ErrorCode::CoordinatorNotAvailable);
    }
    Ok((t.id, p, leader))
}

/// Reads a share-partition's state (`None`: never written, or deleted).
pub async fn read(shard: &Rc<Shard>, key: ShareKey) -> Result<Option<StoredState>, ErrorCode> {
    let (topic_id, p, leader) = locate(shard, &key).await?;
    if leader == shard.ctx.config.node_id {
        let owner = owner_shard(topic_id, p, shard.shard_count());
        return shard
            .submit_to(owner, move |s| async move {
                read_here(&s, topic_id, p, &key).await
            })
            .await
            .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable));
    }
    read_peer(shard, leader, key).await
}

/// Writes a share-partition's state; returns once durable.
pub async fn write(shard: &Rc<Shard>, key: ShareKey, st: StoredState) -> Result<(), ErrorCode> {
    let (topic_id, p, leader) = locate(shard, &key).await?;
    if leader == shard.ctx.config.node_id {
        let owner = owner_shard(topic_id, p, shard.shard_count());
        return shard
            .submit_to(owner, move |s| async move {
                write_here(&s, topic_id, p, key, st).await
            })
            .await
            .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable));
    }
    write_peer(shard, leader, key, st).await
}

/// Deletes a share-partition's state (a tombstone); returns once durable.
pub async fn delete(shard: &Rc<Shard>, key: ShareKey) -> Result<(), ErrorCode> {
    let (topic_id, p, leader) = locate(shard, &key).await?;
    if leader == shard.ctx.config.node_id {
        let owner = owner_shard(topic_id, p, shard.shard_count());
        return shard
            .submit_to(owner, move |s| async move {
                delete_here(&s, topic_id, p, key).await
            })
            .await
            .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable));
    }
    delete_peer(shard, leader, key).await
}

/// The share-partitions of `group` with state in the `__share_group_state`
/// partitions this broker leads (a peer's are not seen).
pub async fn local_keys(shard: &Rc<Shard>, group: &str) -> Vec<ShareKey> {
    let Some(t) = shard.metadata().topic(STATE_TOPIC).cloned() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for owner in 0..shard.shard_count() {
        let group = group.to_string();
        let t = t.clone();
        let keys = shard
            .submit_to(owner, move |s| async move {
                let mut keys = Vec::new();
                for p in 0..t.partitions {
                    let Some(part) = s.led_partition(&(t.id, p)) else {
                        continue;
                    };
                    if ensure_loaded(&s, &part).await.is_err() {
                        continue;
                    }
                    keys.extend(
                        state()
                            .borrow()
                            .states
                            .keys()
                            .filter(|k| {
                                k.group_id == group && records::partition_for(k, t.partitions) == p
                            })
                            .cloned(),
                    );
                }
                keys
            })
            .await
            .unwrap_or_default();
        out.extend(keys);
    }
    out.sort_by_key(|k| (k.topic_id, k.partition));
    out.dedup();
    out
}

/// The share-partitions of `group` with state anywhere in the cluster:
/// [`local_keys`] here and at every peer leading a `__share_group_state`
/// partition (asked at once, each within [`PEER_TIMEOUT`]). Kafka's group
/// coordinator knows them from the ShareGroupStatePartitionMetadata it
/// persists; this broker asks the share coordinators instead. A peer that
/// does not answer is left out (logged), as a partition whose state is
/// not readable.
pub async fn group_keys(shard: &Rc<Shard>, group: &str) -> Vec<ShareKey> {
    let mut out = local_keys(shard, group).await;
    let (Some(t), Some(net)) = (shard.metadata().topic(STATE_TOPIC).cloned(), shard.net()) else {
        return out;
    };
    let me = shard.ctx.config.node_id;
    let peers: BTreeSet<i32> = (0..t.partitions)
        .map(|p| shard.leader_of(&(t.id, p)))
        .filter(|&l| l >= 0 && l != me)
        .collect();
    let calls = peers.into_iter().map(|peer| {
        let net = net.clone();
        async move {
            let req = DescribeShareGroupOffsetsRequest {
                groups: vec![DescribeShareGroupOffsetsRequestGroup {
                    group_id: group.to_string(),
                    topics: None,
                    ..Default::default()
                }],
                ..Default::default()
            };
            let body = framed(KEYS_API, req.encode_to_bytes(KEYS_RPC_VERSION)).ok()?;
            let reply = crate::cluster::call_group(
                &net,
                peer,
                crate::cluster::SHARE_STATE_GROUP,
                body,
                PEER_TIMEOUT,
            )
            .await
            .inspect_err(|e| tracing::warn!(peer, error = %e, "a peer's share-partitions of a group are not known"))
            .ok()?;
            DescribeShareGroupOffsetsResponse::decode_exact(reply, KEYS_RPC_VERSION).ok()
        }
    });
    for resp in futures_util::future::join_all(calls)
        .await
        .into_iter()
        .flatten()
    {
        for g in resp.groups {
            for t in g.topics {
                out.extend(t.partitions.iter().map(|p| ShareKey {
                    group_id: group.to_string(),
                    topic_id: t.topic_id,
                    partition: p.partition_index,
                }));
            }
        }
    }
    out.sort_by_key(|k| (k.topic_id, k.partition));
    out.dedup();
    out
}

async fn delete_here(
    shard: &Rc<Shard>,
    topic_id: Uuid,
    p: i32,
    key: ShareKey,
) -> Result<(), ErrorCode> {
    let part = local_partition(shard, topic_id, p)?;
    ensure_loaded(shard, &part).await?;
    if !state().borrow().states.contains_key(&key) {
        return Ok(());
    }
    let now = now_ms();
    let mut b = RecordBatchBuilder::new();
    b.push(NewRecord {
        key: Some(records::snapshot_key(&key)),
        value: None,
        headers: Vec::new(),
        timestamp: now,
    });
    let batch = b.build().map_err(|_| ErrorCode::UnknownServerError)?;
    match part.append(batch, -1, APPEND_TIMEOUT).await {
        Ok(_) => {
            state().borrow_mut().states.remove(&key);
            Ok(())
        }
        Err(e) => Err(match e.code {
            ErrorCode::NotLeaderOrFollower => ErrorCode::NotCoordinator,
            _ => ErrorCode::CoordinatorNotAvailable,
        }),
    }
}

async fn delete_peer(shard: &Rc<Shard>, leader: i32, key: ShareKey) -> Result<(), ErrorCode> {
    use kafka_protocol::generated::delete_share_group_state_request::{
        DeleteStateData, PartitionData as DeletePartitionData,
    };
    use kafka_protocol::generated::{DeleteShareGroupStateRequest, DeleteShareGroupStateResponse};
    let net = shard.net().ok_or(ErrorCode::CoordinatorNotAvailable)?;
    let req = DeleteShareGroupStateRequest {
        group_id: key.group_id.clone(),
        topics: vec![DeleteStateData {
            topic_id: key.topic_id,
            partitions: vec![DeletePartitionData {
                partition: key.partition,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let body = framed(DELETE_API, req.encode_to_bytes(RPC_VERSION))?;
    let reply = crate::cluster::call_group(
        &net,
        leader,
        crate::cluster::SHARE_STATE_GROUP,
        body,
        PEER_TIMEOUT,
    )
    .await
    .map_err(|_| ErrorCode::CoordinatorNotAvailable)?;
    let resp = DeleteShareGroupStateResponse::decode_exact(reply, RPC_VERSION)
        .map_err(|_| ErrorCode::CoordinatorNotAvailable)?;
    let code = resp
        .results
        .into_iter()
        .flat_map(|t| t.partitions)
        .next()
        .map(|p| p.error_code)
        .unwrap_or(ErrorCode::CoordinatorNotAvailable.code());
    match code {
        0 => Ok(()),
        c => Err(ErrorCode::from_code(c).unwrap_or(ErrorCode::UnknownServerError)),
    }
}

/// Where a share-partition's state lives on this broker: its state
/// partition's id, index and owner shard, or NOT_COORDINATOR when this
/// broker does not lead it. A peer's request is served only here, never
/// passed on (two brokers whose views of the leader differ would
/// otherwise send it back and forth).
fn here(shard: &Rc<Shard>, key: &ShareKey) -> Result<(Uuid, i32, usize), ErrorCode> {
    let t = shard
        .metadata()
        .topic(STATE_TOPIC)
        .cloned()
        .ok_or(ErrorCode::CoordinatorNotAvailable)?;
    let p = records::partition_for(key, t.partitions);
    if shard.is_cluster() && shard.leader_of(&(t.id, p)) != shard.ctx.config.node_id {
        return Err(ErrorCode::NotCoordinator);
    }
    Ok((t.id, p, owner_shard(t.id, p, shard.shard_count())))
}

async fn read_local(shard: &Rc<Shard>, key: ShareKey) -> Result<Option<StoredState>, ErrorCode> {
    let (topic_id, p, owner) = here(shard, &key)?;
    shard
        .submit_to(owner, move |s| async move {
            read_here(&s, topic_id, p, &key).await
        })
        .await
        .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
}

async fn write_local(shard: &Rc<Shard>, key: ShareKey, st: StoredState) -> Result<(), ErrorCode> {
    let (topic_id, p, owner) = here(shard, &key)?;
    shard
        .submit_to(owner, move |s| async move {
            write_here(&s, topic_id, p, key, st).await
        })
        .await
        .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
}

async fn delete_local(shard: &Rc<Shard>, key: ShareKey) -> Result<(), ErrorCode> {
    let (topic_id, p, owner) = here(shard, &key)?;
    shard
        .submit_to(owner, move |s| async move {
            delete_here(&s, topic_id, p, key).await
        })
        .await
        .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
}

/// The state partition on this shard, if this broker leads it.
fn local_partition(shard: &Rc<Shard>, topic_id: Uuid, p: i32) -> Result<Rc<Partition>, ErrorCode> {
    shard
        .led_partition(&(topic_id, p))
        .ok_or(ErrorCode::NotCoordinator)
}

async fn read_here(
    shard: &Rc<Shard>,
    topic_id: Uuid,
    p: i32,
    key: &ShareKey,
) -> Result<Option<StoredState>, ErrorCode> {
    let part = local_partition(shard, topic_id, p)?;
    ensure_loaded(shard, &part).await?;
    Ok(state().borrow().states.get(key).cloned())
}

async fn write_here(
    shard: &Rc<Shard>,
    topic_id: Uuid,
    p: i32,
    key: ShareKey,
    st: StoredState,
) -> Result<(), ErrorCode> {
    let part = local_partition(shard, topic_id, p)?;
    ensure_loaded(shard, &part).await?;
    if let Some(cur) = state().borrow().states.get(&key) {
        // An admin change (AlterShareGroupOffsets) starts a new state
        // epoch: a leader still holding the old state is refused and
        // reloads.
        if st.state_epoch < cur.state_epoch {
            return Err(ErrorCode::FencedStateEpoch);
        }
        if st.leader_epoch < cur.leader_epoch && st.state_epoch == cur.state_epoch {
            return Err(ErrorCode::FencedLeaderEpoch);
        }
    }
    let now = now_ms();
    let snapshot = ShareSnapshot {
        snapshot_epoch: 0,
        state_epoch: st.state_epoch,
        leader_epoch: st.leader_epoch,
        start_offset: st.start_offset,
        create_timestamp_ms: now,
        write_timestamp_ms: now,
        state_batches: st.batches.clone(),
        delivery_complete_count: -1,
        dlq_fence: st.dlq_fence,
    };
    let mut b = RecordBatchBuilder::new();
    b.push(NewRecord {
        key: Some(records::snapshot_key(&key)),
        value: Some(records::snapshot_value(&snapshot)),
        headers: Vec::new(),
        timestamp: now,
    });
    let batch = b.build().map_err(|e| {
        tracing::error!(error = %e, "cannot build a {STATE_TOPIC} batch");
        ErrorCode::UnknownServerError
    })?;
    match part.append(batch, -1, APPEND_TIMEOUT).await {
        Ok(_) => {
            // Writes of one key come from its one leader, one at a time,
            // so the map takes them in log order.
            state().borrow_mut().states.insert(key, st);
            Ok(())
        }
        Err(e) => {
            tracing::warn!(code = ?e.code, message = %e.message, "{STATE_TOPIC} append failed");
            Err(match e.code {
                ErrorCode::NotLeaderOrFollower => ErrorCode::NotCoordinator,
                _ => ErrorCode::CoordinatorNotAvailable,
            })
        }
    }
}

/// Replays a `__share_group_state` partition led here into memory, once
/// per leader epoch. Concurrent callers wait for the one loading.
async fn ensure_loaded(shard: &Rc<Shard>, part: &Rc<Partition>) -> Result<(), ErrorCode> {
    let epoch = part.leader_epoch();
    for _ in 0..3000 {
        {
            let st = state();
            let mut st = st.borrow_mut();
            if st.loaded.get(&part.index) == Some(&epoch) {
                return Ok(());
            }
            if !st.loading.contains(&part.index) {
                st.loading.insert(part.index);
                break;
            }
        }
        monoio::time::sleep(Duration::from_millis(5)).await;
    }
    // In a task of its own, so that a caller that goes away never leaves
    // the partition marked as loading.
    let (shard, part) = (shard.clone(), part.clone());
    monoio::spawn(async move {
        let result = load(&part).await;
        let st = state();
        let mut st = st.borrow_mut();
        st.loading.remove(&part.index);
        match result {
            Ok(found) => {
                let index = part.index;
                let topic_partitions = shard
                    .metadata()
                    .topic(STATE_TOPIC)
                    .map_or(1, |t| t.partitions);
                st.states
                    .retain(|k, _| records::partition_for(k, topic_partitions) != index);
                st.states.extend(found);
                st.loaded.insert(index, epoch);
                Ok(())
            }
            Err(code) => Err(code),
        }
    })
    .await
}

async fn load(part: &Rc<Partition>) -> Result<HashMap<ShareKey, StoredState>, ErrorCode> {
    // A new leader's high watermark covers its whole log once an entry of
    // its term commits: wait (bounded) so the replay misses nothing.
    // Loading less would answer "no state" for share-partitions whose
    // state is in the uncommitted tail, and they would start over from
    // `share.auto.offset.reset`: refuse instead (the caller retries).
    for _ in 0..1000 {
        if part.high_watermark() >= part.log.log_end_offset() {
            break;
        }
        monoio::time::sleep(Duration::from_millis(5)).await;
    }
    if part.high_watermark() < part.log.log_end_offset() {
        return Err(ErrorCode::CoordinatorLoadInProgress);
    }
    let mut found: HashMap<ShareKey, StoredState> = HashMap::new();
    let mut offset = part.log.log_start_offset();
    while offset < part.high_watermark() {
        let r = part.read(offset, 1 << 20).await.map_err(|e| {
            tracing::error!(partition = part.index, error = %e, "cannot read {STATE_TOPIC}");
            ErrorCode::CoordinatorNotAvailable
        })?;
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
                continue;
            };
            for rec in recs {
                let Ok(rec) = rec else { break };
                let Some(k) = rec.key() else { continue };
                match records::decode(k.clone(), rec.value().cloned()) {
                    Ok(ShareStateRecord::Snapshot(key, Some(s))) => {
                        found.insert(
                            key,
                            StoredState {
                                state_epoch: s.state_epoch,
                                leader_epoch: s.leader_epoch,
                                start_offset: s.start_offset,
                                batches: s.state_batches,
                                dlq_fence: s.dlq_fence,
                            },
                        );
                    }
                    Ok(ShareStateRecord::Snapshot(key, None)) => {
                        found.remove(&key);
                    }
                    // This broker writes only snapshots; Kafka's updates
                    // apply over the snapshot before them.
                    Ok(ShareStateRecord::Update(key, Some(u))) => {
                        if let Some(cur) = found.get_mut(&key) {
                            cur.leader_epoch = u.leader_epoch.max(cur.leader_epoch);
                            if u.start_offset >= 0 {
                                cur.start_offset = u.start_offset;
                            }
                            cur.batches =
                                merge_update(&cur.batches, &u.state_batches, cur.start_offset);
                        }
                    }
                    Ok(ShareStateRecord::Update(_, None)) => {}
                    Err(e) => {
                        tracing::warn!(partition = part.index, error = %e, "undecodable {STATE_TOPIC} record skipped");
                    }
                }
            }
        }
        offset = r.next_offset;
    }
    Ok(found)
}

/// Kafka's update semantics: the update's batches replace what the
/// snapshot said for their offsets; batches below the start are dropped.
fn merge_update(base: &[StateBatch], update: &[StateBatch], start: i64) -> Vec<StateBatch> {
    let mut by_offset: BTreeMap<i64, (i8, i16)> = BTreeMap::new();
    for b in base.iter().chain(update.iter()) {
        for o in b.first_offset.max(start)..=b.last_offset {
            by_offset.insert(o, (b.delivery_state, b.delivery_count));
        }
    }
    let mut out: Vec<StateBatch> = Vec::new();
    for (o, (st, c)) in by_offset {
        match out.last_mut() {
            Some(b)
                if b.last_offset + 1 == o && b.delivery_state == st && b.delivery_count == c =>
            {
                b.last_offset = o
            }
            _ => out.push(StateBatch {
                first_offset: o,
                last_offset: o,
                delivery_state: st,
                delivery_count: c,
            }),
        }
    }
    out
}

// ---- between brokers: Kafka's ReadShareGroupState / WriteShareGroupState

async fn read_peer(
    shard: &Rc<Shard>,
    leader: i32,
    key: ShareKey,
) -> Result<Option<StoredState>, ErrorCode> {
    let net = shard.net().ok_or(ErrorCode::CoordinatorNotAvailable)?;
    let req = ReadShareGroupStateRequest {
        group_id: key.group_id.clone(),
        topics: vec![ReadStateData {
            topic_id: key.topic_id,
            partitions: vec![ReadPartitionData {
                partition: key.partition,
                leader_epoch: -1,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let body = framed(READ_API, req.encode_to_bytes(RPC_VERSION))?;
    let reply = crate::cluster::call_group(
        &net,
        leader,
        crate::cluster::SHARE_STATE_GROUP,
        body,
        PEER_TIMEOUT,
    )
    .await
    .map_err(|e| {
        tracing::warn!(leader, error = %e, "share state read from a peer failed");
        ErrorCode::CoordinatorNotAvailable
    })?;
    let resp = ReadShareGroupStateResponse::decode_exact(reply, RPC_VERSION)
        .map_err(|_| ErrorCode::CoordinatorNotAvailable)?;
    let p = resp
        .results
        .into_iter()
        .flat_map(|t| t.partitions)
        .next()
        .ok_or(ErrorCode::CoordinatorNotAvailable)?;
    if p.error_code == ErrorCode::UnknownTopicOrPartition.code() {
        return Ok(None);
    }
    if p.error_code != 0 {
        return Err(ErrorCode::from_code(p.error_code).unwrap_or(ErrorCode::UnknownServerError));
    }
    let dlq_fence = fence_from_tags(&p.unknown_tagged_fields);
    Ok(Some(StoredState {
        state_epoch: p.state_epoch,
        leader_epoch: -1,
        start_offset: p.start_offset,
        dlq_fence,
        batches: p
            .state_batches
            .into_iter()
            .map(|b| StateBatch {
                first_offset: b.first_offset,
                last_offset: b.last_offset,
                delivery_state: b.delivery_state,
                delivery_count: b.delivery_count,
            })
            .collect(),
    }))
}

async fn write_peer(
    shard: &Rc<Shard>,
    leader: i32,
    key: ShareKey,
    st: StoredState,
) -> Result<(), ErrorCode> {
    let net = shard.net().ok_or(ErrorCode::CoordinatorNotAvailable)?;
    let req = WriteShareGroupStateRequest {
        group_id: key.group_id.clone(),
        topics: vec![WriteStateData {
            topic_id: key.topic_id,
            partitions: vec![WritePartitionData {
                partition: key.partition,
                state_epoch: st.state_epoch,
                leader_epoch: st.leader_epoch,
                start_offset: st.start_offset,
                state_batches: st
                    .batches
                    .iter()
                    .map(|b| WireStateBatch {
                        first_offset: b.first_offset,
                        last_offset: b.last_offset,
                        delivery_state: b.delivery_state,
                        delivery_count: b.delivery_count,
                        ..Default::default()
                    })
                    .collect(),
                unknown_tagged_fields: fence_tags(st.dlq_fence.as_ref()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let body = framed(WRITE_API, req.encode_to_bytes(RPC_VERSION))?;
    let reply = crate::cluster::call_group(
        &net,
        leader,
        crate::cluster::SHARE_STATE_GROUP,
        body,
        PEER_TIMEOUT,
    )
    .await
    .map_err(|_| ErrorCode::CoordinatorNotAvailable)?;
    let resp = WriteShareGroupStateResponse::decode_exact(reply, RPC_VERSION)
        .map_err(|_| ErrorCode::CoordinatorNotAvailable)?;
    let code = resp
        .results
        .into_iter()
        .flat_map(|t| t.partitions)
        .next()
        .map(|p| p.error_code)
        .unwrap_or(ErrorCode::CoordinatorNotAvailable.code());
    if code == 0 {
        Ok(())
    } else {
        Err(ErrorCode::from_code(code).unwrap_or(ErrorCode::UnknownServerError))
    }
}

/// A peer's Read/WriteShareGroupState, on shard 0 of this broker: the
/// first two bytes of the body say which (the API key).
pub async fn serve(shard: &Rc<Shard>, body: Bytes) -> Result<Bytes, String> {
    if body.len() < 2 {
        return Err("short share state request".into());
    }
    let api = i16::from_be_bytes([body[0], body[1]]);
    let body = body.slice(2..);
    match api {
        READ_API => {
            let req = ReadShareGroupStateRequest::decode_exact(body, RPC_VERSION)
                .map_err(|e| e.to_string())?;
            let mut resp = ReadShareGroupStateResponse::default();
            for t in req.topics {
                let mut out =
                    kafka_protocol::generated::read_share_group_state_response::ReadStateResult {
                        topic_id: t.topic_id,
                        ..Default::default()
                    };
                for p in t.partitions {
                    let key = ShareKey {
                        group_id: req.group_id.clone(),
                        topic_id: t.topic_id,
                        partition: p.partition,
                    };
                    let mut pr = kafka_protocol::generated::read_share_group_state_response::PartitionResult {
                        partition: p.partition,
                        ..Default::default()
                    };
                    match read_local(shard, key).await {
                        Ok(Some(st)) => {
                            pr.state_epoch = st.state_epoch;
                            pr.start_offset = st.start_offset;
                            pr.unknown_tagged_fields = fence_tags(st.dlq_fence.as_ref());
                            pr.state_batches = st
                                .batches
                                .iter()
                                .map(|b| kafka_protocol::generated::read_share_group_state_response::StateBatch {
                                    first_offset: b.first_offset,
                                    last_offset: b.last_offset,
                                    delivery_state: b.delivery_state,
                                    delivery_count: b.delivery_count,
                                    ..Default::default()
                                })
                                .collect();
                        }
                        Ok(None) => pr.error_code = ErrorCode::UnknownTopicOrPartition.code(),
                        Err(code) => pr.error_code = code.code(),
                    }
                    out.partitions.push(pr);
                }
                resp.results.push(out);
            }
            resp.encode_to_bytes(RPC_VERSION).map_err(|e| e.to_string())
        }
        WRITE_API => {
            let req = WriteShareGroupStateRequest::decode_exact(body, RPC_VERSION)
                .map_err(|e| e.to_string())?;
            let mut resp = WriteShareGroupStateResponse::default();
            for t in req.topics {
                let mut out =
                    kafka_protocol::generated::write_share_group_state_response::WriteStateResult {
                        topic_id: t.topic_id,
                        ..Default::default()
                    };
                for p in t.partitions {
                    let key = ShareKey {
                        group_id: req.group_id.clone(),
                        topic_id: t.topic_id,
                        partition: p.partition,
                    };
                    let st = StoredState {
                        state_epoch: p.state_epoch,
                        leader_epoch: p.leader_epoch,
                        start_offset: p.start_offset,
                        dlq_fence: fence_from_tags(&p.unknown_tagged_fields),
                        batches: p
                            .state_batches
                            .iter()
                            .map(|b| StateBatch {
                                first_offset: b.first_offset,
                                last_offset: b.last_offset,
                                delivery_state: b.delivery_state,
                                delivery_count: b.delivery_count,
                            })
                            .collect(),
                    };
                    let code = match write_local(shard, key, st).await {
                        Ok(()) => 0,
                        Err(c) => c.code(),
                    };
                    out.partitions.push(
                        kafka_protocol::generated::write_share_group_state_response::PartitionResult {
                            partition: p.partition,
                            error_code: code,
                            ..Default::default()
                        },
                    );
                }
                resp.results.push(out);
            }
            resp.encode_to_bytes(RPC_VERSION).map_err(|e| e.to_string())
        }
        DELETE_API => {
            use kafka_protocol::generated::delete_share_group_state_response::{
                DeleteStateResult, PartitionResult,
            };
            use kafka_protocol::generated::{
                DeleteShareGroupStateRequest, DeleteShareGroupStateResponse,
            };
            let req = DeleteShareGroupStateRequest::decode_exact(body, RPC_VERSION)
                .map_err(|e| e.to_string())?;
            let mut resp = DeleteShareGroupStateResponse::default();
            for t in req.topics {
                let mut out = DeleteStateResult {
                    topic_id: t.topic_id,
                    ..Default::default()
                };
                for p in t.partitions {
                    let key = ShareKey {
                        group_id: req.group_id.clone(),
                        topic_id: t.topic_id,
                        partition: p.partition,
                    };
                    let code = match delete_local(shard, key).await {
                        Ok(()) => 0,
                        Err(c) => c.code(),
                    };
                    out.partitions.push(PartitionResult {
                        partition: p.partition,
                        error_code: code,
                        ..Default::default()
                    });
                }
                resp.results.push(out);
            }
            resp.encode_to_bytes(RPC_VERSION).map_err(|e| e.to_string())
        }
        KEYS_API => {
            use kafka_protocol::generated::describe_share_group_offsets_response::{
                DescribeShareGroupOffsetsResponseGroup, DescribeShareGroupOffsetsResponsePartition,
                DescribeShareGroupOffsetsResponseTopic,
            };
            let req = DescribeShareGroupOffsetsRequest::decode_exact(body, KEYS_RPC_VERSION)
                .map_err(|e| e.to_string())?;
            let mut resp = DescribeShareGroupOffsetsResponse::default();
            for g in req.groups {
                let mut out = DescribeShareGroupOffsetsResponseGroup {
                    group_id: g.group_id.clone(),
                    ..Default::default()
                };
                for k in local_keys(shard, &g.group_id).await {
                    let p = DescribeShareGroupOffsetsResponsePartition {
                        partition_index: k.partition,
                        start_offset: -1,
                        leader_epoch: -1,
                        lag: -1,
                        ..Default::default()
                    };
                    match out.topics.last_mut() {
                        Some(t) if t.topic_id == k.topic_id => t.partitions.push(p),
                        _ => out.topics.push(DescribeShareGroupOffsetsResponseTopic {
                            topic_id: k.topic_id,
                            partitions: vec![p],
                            ..Default::default()
                        }),
                    }
                }
                resp.groups.push(out);
            }
            resp.encode_to_bytes(KEYS_RPC_VERSION)
                .map_err(|e| e.to_string())
        }
        other => Err(format!("unknown share state api {other}")),
    }
}

/// The dead-letter fence as a tagged field of Read/WriteShareGroupState's
/// partition data (the same tag as in the snapshot value).
fn fence_tags(fence: Option<&DlqFence>) -> kafka_protocol::codec::UnknownTaggedFields {
    fence
        .map(|f| kafka_protocol::codec::RawTaggedField {
            tag: DLQ_FENCE_TAG,
            data: f.encode(),
        })
        .into_iter()
        .collect()
}

/// The fence carried by [`fence_tags`]. A malformed one (a bug) is
/// logged and dropped: the state is still written, at the cost that a
/// dead letter in flight at that moment could be written again.
fn fence_from_tags(tags: &kafka_protocol::codec::UnknownTaggedFields) -> Option<DlqFence> {
    let t = tags.iter().find(|t| t.tag == DLQ_FENCE_TAG)?;
    DlqFence::decode(&t.data)
        .inspect_err(|e| tracing::warn!(error = %e, "malformed dead-letter fence from a peer"))
        .ok()
}

/// The body of a call to a peer: the API key, then the request.
fn framed<E>(api: i16, body: Result<Bytes, E>) -> Result<Bytes, ErrorCode> {
    let body = body.map_err(|_| ErrorCode::UnknownServerError)?;
    let mut b = bytes::BytesMut::with_capacity(2 + body.len());
    b.extend_from_slice(&api.to_be_bytes());
    b.extend_from_slice(&body);
    Ok(b.freeze())
}

const READ_API: i16 = 84;
const WRITE_API: i16 = 85;
const DELETE_API: i16 = 86;
/// A peer's share-partitions of a group: DescribeShareGroupOffsets with
/// no topics, answered with the partitions alone ([`group_keys`]).
const KEYS_API: i16 = 90;
const KEYS_RPC_VERSION: i16 = 0;
