//! The share-partition leader (KIP-932): on the shard that owns a topic
//! partition, on the broker leading it, one [`SharePartitionState`] per
//! share group reading it. ShareFetch acquires records here, ShareFetch
//! and ShareAcknowledge acknowledge them here, and a tick returns records
//! whose acquisition lock expired.
//!
//! Durability: acquisitions are not written (as in Kafka: a new leader
//! delivers what was acquired again, with the delivery count last
//! written); every acknowledgement, release, rejection and lock expiry is
//! written through the share coordinator ([`super::coordinator::write`])
//! before it is answered, a whole snapshot per write, with concurrent
//! changes of one share-partition carried by one write (group commit).
//! A failed write answers its acknowledgements with an error and puts
//! their records back as they were (acquired by the member, under the
//! same lock), as Kafka does: the member is told its acknowledgement
//! failed, and the records come back after the lock. Releases and lock
//! expiries whose write fails stay applied in memory: that can only
//! deliver a record again, never lose one.
//!
//! Dead-letter topic: records archived by a rejection or by the delivery
//! count limit are written to the group's dead-letter topic
//! ([`super::dlq`]) before the archive itself is written, so a crash in
//! between never loses a record from both places. That it is never
//! dead-lettered twice either is the share-partition's **dead-letter
//! fence** ([`DlqFence`], stored with its state), with this invariant:
//! every dead letter written for the share-partition whose archive the
//! stored state does not hold lies in the fence's dead-letter partition at
//! or after the fence's offset.
//! - Before its first dead letter goes to a partition, the leader stores
//!   a fence at that partition's high watermark (every later append lands
//!   past it), and writes nothing until that is durable.
//! - A state write moves the fence to the end of this leader's last dead
//!   letter only when every record it dead-lettered is done in the state
//!   being written.
//! - A new leader (after a crash, a failover or a restart) reads the
//!   dead-letter partition from the fence to its high watermark
//!   ([`super::dlq::scan`]) before serving anything, and archives the
//!   records whose dead letters it finds: they are neither delivered nor
//!   dead-lettered again.
//! - A leader remembers what it dead-lettered, so a record archived again
//!   under the same leader (its rejection's write failed and was put
//!   back, or its lock expired meanwhile) is not written twice; a
//!   dead-letter write that failed may still have landed, so the next one
//!   reads back from the fence first. One dead-letter write at a time per
//!   share-partition.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::records::RecordBatch;
use uuid::Uuid;

use super::coordinator::{self, StoredState};
use super::inflight::{Acquired, Archived, Limits, LogBatch, SharePartitionState, Undo};
use super::records::{DlqFence, ShareKey, StateBatch};
use crate::notify::LocalNotify;
use crate::partition::{Partition, now_ms};
use crate::shard::Shard;

/// The header that holds a record back until a time (epoch ms, decimal).
pub const DELIVER_AT_HEADER: &[u8] = b"tidemark.deliver.at.ms";

/// How long a share-partition's start keeps retrying a share coordinator
/// that is not available yet (its `__share_group_state` partition has no
/// leader yet, is loading, or lacks in-sync replicas, as right after a
/// broker restart), as Kafka's persister retries its RPCs with back-off
/// (`PersisterStateManager`) instead of failing the share fetch at once:
/// a fetch meanwhile answers "nothing yet", not an error every client
/// would surface to the application and retry in a tight loop.
const LOAD_RETRY: Duration = Duration::from_secs(15);
/// First and longest pause between those retries.
const LOAD_BACKOFF_FIRST: Duration = Duration::from_millis(50);
const LOAD_BACKOFF_MAX: Duration = Duration::from_secs(1);
/// Longest an acknowledgement waits for its share-partition to start.
const ACK_LOAD_WAIT: Duration = Duration::from_secs(5);

/// How often lock expiries are looked for.
const TICK: Duration = Duration::from_millis(100);
/// The most log one share fetch reads from a partition. Records past what
/// is acquired (at most MaxRecords, 500 by default) are read again by the
/// next fetch, so reading a client's whole MaxBytes (librdkafka: 50 MiB)
/// each time made a long backlog cost 40x more broker CPU per record
/// (benches/RESULTS.md, share groups); 1 MiB holds 500 records of 2 KiB.
/// At least one whole batch is always read.
const MAX_READ_BYTES: usize = 1 << 20;

pub struct SharePartition {
    pub state: SharePartitionState,
    leader_epoch: i32,
    state_epoch: i32,
    /// Group commit of writes: changes made (`dirty`), written (`durable`),
    /// the last failed write's sequence and error.
    dirty: u64,
    durable: u64,
    failed: (u64, ErrorCode),
    /// What each not yet durable acknowledgement changed, by the change's
    /// sequence number: dropped once a write covers it, put back if the
    /// write covering it fails.
    undo: Vec<(u64, Undo)>,
    /// Offsets (at or past the start) this leader wrote to the
    /// dead-letter topic, or found there: never written again.
    dead_lettered: BTreeSet<i64>,
    /// The dead-letter fence as last stored (see the module docs).
    dlq_fence: Option<DlqFence>,
    /// The fence partition's offset past this leader's last dead letter
    /// there (or past what it read back), -1 before any.
    dlq_written_end: i64,
    /// A dead-letter write failed after it may have landed: read back
    /// from the fence before the next one.
    dlq_uncertain: bool,
    /// A dead-letter write is under way ([`DlqTurn`]).
    dlq_busy: bool,
    dlq_turn: Rc<LocalNotify>,
    writing: bool,
    written: Rc<LocalNotify>,
    /// A lock-expiry task is running (one at a time, so a slow
    /// dead-letter write is not started twice for the same records).
    expiring: bool,
}

#[derive(Default)]
struct Leaders {
    parts: HashMap<ShareKey, Rc<RefCell<SharePartition>>>,
    loading: HashSet<ShareKey>,
}

thread_local! {
    static LEADERS: RefCell<Leaders> = RefCell::new(Leaders::default());
    /// Fired when records become available again (release, expiry), for
    /// share fetches waiting on this shard.
    static AVAILABLE: Rc<LocalNotify> = Rc::new(LocalNotify::default());
}

/// This shard's "records became available" notification.
pub fn available() -> Rc<LocalNotify> {
    AVAILABLE.with(|n| n.clone())
}

/// What a client is told when the share coordinator failed, as Kafka's
/// `SharePartition.fetchPersisterError` maps it: the coordinator's own
/// errors are COORDINATOR_NOT_AVAILABLE, a fenced state epoch is a leader
/// change.
pub fn client_code(code: ErrorCode) -> ErrorCode {
    match code {
        ErrorCode::NotCoordinator | ErrorCode::CoordinatorLoadInProgress => {
            ErrorCode::CoordinatorNotAvailable
        }
        ErrorCode::FencedStateEpoch => ErrorCode::NotLeaderOrFollower,
        other => other,
    }
}

/// The limits of a group's share-partitions, from its group configs.
pub fn limits(shard: &Shard, group: &str) -> Limits {
    let meta = shard.metadata();
    let get = |name: &str| crate::group_config::get_i64(&meta, group, name);
    Limits {
        now_ms: now_ms(),
        lock_duration_ms: get("share.record.lock.duration.ms").max(1),
        delivery_count_limit: get("share.delivery.count.limit").clamp(1, i64::from(u16::MAX))
            as u16,
        max_record_locks: get("share.partition.max.record.locks").max(1),
        release_backoff_ms: get("share.release.backoff.ms").max(0),
    }
}

/// The share-partition of `key` on this shard, loaded from the share
/// coordinator (or initialized by `share.auto.offset.reset`) for the
/// partition's current leader epoch.
pub async fn get_or_load(
    shard: &Rc<Shard>,
    key: &ShareKey,
    part: &Rc<Partition>,
) -> Result<Rc<RefCell<SharePartition>>, ErrorCode> {
    let epoch = part.leader_epoch();
    for _ in 0..2000 {
        let ready = LEADERS.with(|l| {
            let mut l = l.borrow_mut();
            if let Some(sp) = l.parts.get(key)
                && sp.borrow().leader_epoch == epoch
            {
                return Some(Some(sp.clone()));
            }
            if l.loading.insert(key.clone()) {
                Some(None)
            } else {
                None
            }
        });
        match ready {
            Some(Some(sp)) => return Ok(sp),
            Some(None) => break,
            None => monoio::time::sleep(Duration::from_millis(5)).await,
        }
    }
    // In a task of its own, so that a caller that goes away (its client
    // disconnected) never leaves the key marked as loading.
    let (s, k, p) = (shard.clone(), key.clone(), part.clone());
    monoio::spawn(async move {
        let loaded = load(&s, &k, &p, epoch).await;
        LEADERS.with(|l| {
            let mut l = l.borrow_mut();
            l.loading.remove(&k);
            if let Ok(sp) = &loaded {
                l.parts.insert(k.clone(), sp.clone());
            }
        });
        loaded
    })
    .await
}

/// Longest a dead-letter write waits for the one before it.
const DLQ_TURN_WAIT: Duration = Duration::from_secs(120);

impl SharePartition {
    /// The fence a state write stores: moved to the end of this leader's
    /// dead letters only when every record dead-lettered is done in the
    /// state written (the module docs' invariant).
    fn fence_to_write(&self) -> Option<DlqFence> {
        let mut f = self.dlq_fence?;
        if self.dlq_written_end > f.offset
            && self.dead_lettered.iter().all(|&o| self.state.is_done_at(o))
        {
            f.offset = self.dlq_written_end;
        }
        Some(f)
    }
}

/// One dead-letter write at a time per share-partition: held from the
/// check of what was dead-lettered to the end of the write.
struct DlqTurn {
    sp: Rc<RefCell<SharePartition>>,
}

impl DlqTurn {
    async fn take(sp: &Rc<RefCell<SharePartition>>) -> Result<DlqTurn, (ErrorCode, String)> {
        let started = std::time::Instant::now();
        loop {
            let turn = {
                let mut p = sp.borrow_mut();
                if !p.dlq_busy {
                    p.dlq_busy = true;
                    return Ok(DlqTurn { sp: sp.clone() });
                }
                p.dlq_turn.clone()
            };
            if started.elapsed() > DLQ_TURN_WAIT {
                return Err((
                    ErrorCode::RequestTimedOut,
                    "an earlier dead-letter write is still under way".into(),
                ));
            }
            let waiting = turn.notified();
            if sp.borrow().dlq_busy {
                let _ = monoio::time::timeout(Duration::from_secs(1), waiting).await;
            }
        }
    }
}

impl Drop for DlqTurn {
    fn drop(&mut self) {
        let turn = {
            let mut p = self.sp.borrow_mut();
            p.dlq_busy = false;
            p.dlq_turn.clone()
        };
        turn.notify_all();
    }
}

/// Whether a share coordinator error may pass by itself (a leader being
/// elected or loading, replicas catching up).
fn coordinator_may_recover(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::CoordinatorNotAvailable
            | ErrorCode::NotCoordinator
            | ErrorCode::CoordinatorLoadInProgress
            | ErrorCode::NotEnoughReplicas
            | ErrorCode::RequestTimedOut
    )
}

/// [`load_once`], retried with back-off for up to [`LOAD_RETRY`] while
/// the coordinator's error may pass and this broker still leads the
/// partition at `epoch`.
async fn load(
    shard: &Rc<Shard>,
    key: &ShareKey,
    part: &Rc<Partition>,
    epoch: i32,
) -> Result<Rc<RefCell<SharePartition>>, ErrorCode> {
    let started = std::time::Instant::now();
    let mut backoff = LOAD_BACKOFF_FIRST;
    loop {
        let code = match load_once(shard, key, part, epoch).await {
            Ok(sp) => return Ok(sp),
            Err(code) => code,
        };
        let still_leader = shard
            .led_partition(&(key.topic_id, key.partition))
            .is_some_and(|p| p.leader_epoch() == epoch);
        if !coordinator_may_recover(code)
            || !still_leader
            || started.elapsed() + backoff > LOAD_RETRY
            || shard.is_stopping()
        {
            return Err(code);
        }
        monoio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(LOAD_BACKOFF_MAX);
    }
}

async fn load_once(
    shard: &Rc<Shard>,
    key: &ShareKey,
    part: &Rc<Partition>,
    epoch: i32,
) -> Result<Rc<RefCell<SharePartition>>, ErrorCode> {
    let stored = coordinator::read(shard, key.clone()).await.inspect_err(|code| {
        tracing::debug!(group = %key.group_id, partition = key.partition, ?code, "cannot read a share-partition's state");
    })?;
    let dlq_fence = stored.as_ref().and_then(|st| st.dlq_fence);
    let (state, state_epoch, fresh) = match stored {
        Some(st) => {
            let batches: Vec<super::inflight::PersistedBatch> = st
                .batches
                .iter()
                .map(|b| super::inflight::PersistedBatch {
                    first_offset: b.first_offset,
                    last_offset: b.last_offset,
                    delivery_state: b.delivery_state,
                    delivery_count: b.delivery_count,
                })
                .collect();
            (
                SharePartitionState::restore(st.start_offset, &batches),
                st.state_epoch,
                false,
            )
        }
        None => (
            SharePartitionState::new(initial_offset(shard, &key.group_id, part).await),
            0,
            true,
        ),
    };
    tracing::debug!(
        group = %key.group_id,
        partition = key.partition,
        leader_epoch = epoch,
        state_epoch,
        fresh,
        start_offset = state.start_offset(),
        next_offset = state.next_offset(),
        in_flight = state.in_flight(),
        "share-partition loaded"
    );
    let sp = Rc::new(RefCell::new(SharePartition {
        state,
        leader_epoch: epoch,
        state_epoch,
        dirty: 0,
        durable: 0,
        failed: (0, ErrorCode::None),
        undo: Vec::new(),
        dead_lettered: BTreeSet::new(),
        dlq_fence,
        dlq_written_end: -1,
        dlq_uncertain: false,
        dlq_busy: false,
        dlq_turn: Rc::new(LocalNotify::default()),
        writing: false,
        written: Rc::new(LocalNotify::default()),
        expiring: false,
    }));
    if let Some(fence) = dlq_fence {
        settle_dead_letters(shard, key, part, &sp, fence).await?;
    }
    // A new share-partition's start is written before anything is served,
    // so `latest` means the end of the log when the group first read it,
    // also after a restart.
    if fresh {
        persist(shard, key, &sp).await?;
    }
    Ok(sp)
}

/// A new leader's look at the dead letters its predecessors wrote past
/// the fence (module docs): the records they stand for are archived (and
/// that written) before anything is served, and the fence moves past
/// what was read.
async fn settle_dead_letters(
    shard: &Rc<Shard>,
    key: &ShareKey,
    part: &Rc<Partition>,
    sp: &Rc<RefCell<SharePartition>>,
    fence: DlqFence,
) -> Result<(), ErrorCode> {
    let topic = shard.metadata().topic_by_id(&fence.topic_id).cloned();
    let Some(topic) = topic.filter(|t| fence.partition < t.partitions) else {
        // The dead-letter topic is gone, and its dead letters with it.
        sp.borrow_mut().dlq_fence = None;
        return Ok(());
    };
    let target = super::dlq::Target {
        topic,
        partition: fence.partition,
    };
    let (found, until) = super::dlq::scan(shard, key, &target, fence.offset)
        .await
        .map_err(|(code, message)| {
            tracing::warn!(group = %key.group_id, partition = key.partition, ?code, %message, "cannot read back the dead-letter partition; the share-partition waits");
            ErrorCode::CoordinatorLoadInProgress
        })?;
    tracing::debug!(group = %key.group_id, partition = key.partition, from = fence.offset, until, ?found, "dead letters read back");
    let max_record_locks = limits(shard, &key.group_id).max_record_locks;
    let archived = {
        let mut p = sp.borrow_mut();
        let found = plausible_letters(
            found,
            p.state.start_offset(),
            part.high_watermark(),
            max_record_locks,
        );
        let n = p.state.archive_offsets(&found);
        p.dead_lettered.extend(found);
        p.dlq_written_end = until;
        n
    };
    if archived > 0 {
        tracing::info!(group = %key.group_id, partition = key.partition, archived, "records found dead-lettered by an earlier leader are archived");
    }
    if archived > 0 || until > fence.offset {
        persist(shard, key, sp).await?;
    }
    Ok(())
}

/// Of the source offsets read back from the dead-letter topic, those that
/// can stand for records of this share-partition: at or past its `start`,
/// below the log's high watermark, and less than `max_record_locks` past
/// the start (no leader acquires further: the record-lock limit counts
/// from a start that only moves forward). Anything else, a record in the
/// dead-letter topic with forged or stale headers, is ignored, so it can
/// neither make the state hand out millions of offsets nor hold the fence
/// back for ever.
fn plausible_letters(
    found: Vec<i64>,
    start: i64,
    high_watermark: i64,
    max_record_locks: i64,
) -> Vec<i64> {
    let end = high_watermark.min(start.saturating_add(max_record_locks));
    found
        .into_iter()
        .filter(|&o| o >= start && o < end)
        .collect()
}

/// Where a share group starts reading a partition it never read:
/// `share.auto.offset.reset` (latest, earliest, by_duration:<ISO-8601>).
async fn initial_offset(shard: &Rc<Shard>, group: &str, part: &Rc<Partition>) -> i64 {
    let meta = shard.metadata();
    let reset =
        crate::group_config::get(&meta, group, crate::group_config::SHARE_AUTO_OFFSET_RESET);
    let start = part.log.log_start_offset();
    let end = part.high_watermark();
    match crate::group_config::AutoOffsetReset::parse(&reset) {
        Ok(crate::group_config::AutoOffsetReset::Earliest) => start,
        Ok(crate::group_config::AutoOffsetReset::ByDuration(d)) => {
            let ts = now_ms().saturating_sub(d.as_millis().min(i64::MAX as u128) as i64);
            match part.log.offset_for_timestamp(ts).await {
                Ok(Some((o, _))) => o.clamp(start, end),
                _ => end,
            }
        }
        _ => end,
    }
}

/// Starts the share-partitions of groups reading them for the first time
/// (each `(group, topic id, partition)` led by this broker): loads their
/// state, or writes their starting offset by `share.auto.offset.reset`.
/// One led by a peer starts when its leader first serves it.
pub async fn initialize_all(shard: &Rc<Shard>, parts: Vec<(String, Uuid, i32)>) {
    let mut waits = Vec::with_capacity(parts.len());
    for (group_id, topic_id, partition) in parts {
        let owner = crate::shard::owner_shard(topic_id, partition, shard.shard_count());
        let key = ShareKey {
            group_id,
            topic_id,
            partition,
        };
        waits.push(shard.submit_to(owner, move |s| async move {
            let Some(part) = s.led_partition(&(key.topic_id, key.partition)) else {
                return;
            };
            if let Err(code) = get_or_load(&s, &key, &part).await {
                tracing::warn!(group = %key.group_id, partition = key.partition, ?code, "cannot start a share-partition");
            }
        }));
    }
    futures_util::future::join_all(waits).await;
}

/// Writes the share-partition's state (all changes so far); returns once
/// they are durable. One write at a time per share-partition; changes
/// made while one is in flight go in the next.
pub async fn persist(
    shard: &Rc<Shard>,
    key: &ShareKey,
    sp: &Rc<RefCell<SharePartition>>,
) -> Result<(), ErrorCode> {
    persist_undoable(shard, key, sp, Undo::default()).await
}

/// [`persist`] for a change that is put back ([`Undo`]) if the write
/// covering it fails. The caller makes the change and calls this with no
/// await in between, so the change's sequence number is the one of the
/// writes that include it.
async fn persist_undoable(
    shard: &Rc<Shard>,
    key: &ShareKey,
    sp: &Rc<RefCell<SharePartition>>,
    undo: Undo,
) -> Result<(), ErrorCode> {
    let mine = {
        let mut p = sp.borrow_mut();
        p.dirty += 1;
        let mine = p.dirty;
        if !undo.is_empty() {
            p.undo.push((mine, undo));
        }
        mine
    };
    loop {
        let notify = {
            let p = sp.borrow();
            if p.durable >= mine {
                return Ok(());
            }
            if p.failed.0 >= mine {
                return Err(p.failed.1);
            }
            if !p.writing {
                None
            } else {
                Some(p.written.clone())
            }
        };
        match notify {
            Some(n) => {
                let waiting = n.notified();
                // Re-check: the write may have finished in between.
                let done = {
                    let p = sp.borrow();
                    p.durable >= mine || p.failed.0 >= mine || !p.writing
                };
                if !done {
                    let _ = monoio::time::timeout(Duration::from_secs(35), waiting).await;
                }
            }
            None => {
                let (seq, st) = {
                    let mut p = sp.borrow_mut();
                    p.writing = true;
                    let (start, batches) = p.state.persisted();
                    (
                        p.dirty,
                        StoredState {
                            dlq_fence: p.fence_to_write(),
                            state_epoch: p.state_epoch,
                            leader_epoch: p.leader_epoch,
                            start_offset: start,
                            batches: batches
                                .into_iter()
                                .map(|b| StateBatch {
                                    first_offset: b.first_offset,
                                    last_offset: b.last_offset,
                                    delivery_state: b.delivery_state,
                                    delivery_count: b.delivery_count,
                                })
                                .collect(),
                        },
                    )
                };
                let (st_fence, st_start) = (st.dlq_fence, st.start_offset);
                let r = coordinator::write(shard, key.clone(), st).await;
                let n = {
                    let mut p = sp.borrow_mut();
                    p.writing = false;
                    // Every change up to `seq` was in this write: now
                    // durable, or put back before any other write starts.
                    let covered: Vec<(u64, Undo)> = {
                        let split = p.undo.partition_point(|(s, _)| *s <= seq);
                        p.undo.drain(..split).collect()
                    };
                    match r {
                        Ok(()) => {
                            p.durable = p.durable.max(seq);
                            // Dead letters below a start that is durable are
                            // done for good: forgotten. (Not below the start
                            // in memory: a failed write puts a rejection
                            // back, and its record must still be known as
                            // dead-lettered.)
                            if p.dead_lettered.first().is_some_and(|&o| o < st_start) {
                                p.dead_lettered = p.dead_lettered.split_off(&st_start);
                            }
                            // The fence moves only forward, and only for
                            // the partition it is about (a newer fence for
                            // another one may have been set meanwhile).
                            if let (Some(cur), Some(new)) = (p.dlq_fence.as_mut(), st_fence)
                                && (cur.topic_id, cur.partition) == (new.topic_id, new.partition)
                            {
                                cur.offset = cur.offset.max(new.offset);
                            }
                        }
                        Err(code) => {
                            p.failed = (seq, code);
                            let mut restored = 0;
                            for (_, u) in covered.iter().rev() {
                                restored += p.state.rollback(u);
                            }
                            if restored > 0 {
                                tracing::warn!(group = %key.group_id, partition = key.partition, ?code, restored, "share-partition state write failed; its acknowledgements are put back");
                            }
                        }
                    }
                    p.written.clone()
                };
                n.notify_all();
                // The state was changed by an administrator (a new state
                // epoch): this copy is stale; the next use reloads it.
                if r == Err(ErrorCode::FencedStateEpoch) {
                    LEADERS.with(|l| {
                        let mut l = l.borrow_mut();
                        if l.parts.get(key).is_some_and(|x| Rc::ptr_eq(x, sp)) {
                            l.parts.remove(key);
                        }
                    });
                }
            }
        }
    }
}

/// What a fetch of one share-partition returns.
#[derive(Debug, Default)]
pub struct Fetched {
    pub error: Option<ErrorCode>,
    pub batches: Vec<Bytes>,
    pub acquired: Vec<Acquired>,
    pub leader_epoch: i32,
}

/// What one share fetch asks of a share-partition.
#[derive(Debug, Clone, Copy)]
pub struct FetchAsk {
    /// At most this many records (see `whole_batches`).
    pub max_records: usize,
    /// Kafka's batch-optimized acquire mode: whole batches of new records.
    pub whole_batches: bool,
    /// The client's MaxBytes (at most [`MAX_READ_BYTES`] is read).
    pub max_bytes: usize,
    /// The member's share session was just opened.
    pub new_session: bool,
    /// How long a share-partition still starting may take.
    pub load_wait: Duration,
}

/// Acquires records of the share-partition for `member` (on the owner
/// shard of the topic partition).
pub async fn fetch(shard: &Rc<Shard>, key: ShareKey, member: Rc<str>, ask: FetchAsk) -> Fetched {
    let FetchAsk {
        max_records,
        whole_batches,
        max_bytes,
        new_session,
        load_wait,
    } = ask;
    let tp = (key.topic_id, key.partition);
    let Some(part) = shard.led_partition(&tp) else {
        return Fetched {
            error: Some(ErrorCode::NotLeaderOrFollower),
            ..Default::default()
        };
    };
    let leader_epoch = part.leader_epoch();
    // A member's new session reads the state again when nothing is in
    // flight here, so an administrator's change (AlterShareGroupOffsets,
    // DeleteShareGroupOffsets, made while the group was empty) is seen
    // also by a leader on another broker.
    if new_session {
        LEADERS.with(|l| {
            let mut l = l.borrow_mut();
            let idle = l.parts.get(&key).is_some_and(|sp| {
                let p = sp.borrow();
                !p.writing && !p.state.has_acquired()
            });
            if idle {
                l.parts.remove(&key);
            }
        });
    }
    // A share-partition still starting (its coordinator not available
    // yet) has nothing to give this fetch; its start goes on meanwhile.
    let sp = match monoio::time::timeout(load_wait, get_or_load(shard, &key, &part)).await {
        Ok(Ok(sp)) => sp,
        Ok(Err(code)) => {
            return Fetched {
                error: Some(client_code(code)),
                leader_epoch,
                ..Default::default()
            };
        }
        Err(_) => {
            return Fetched {
                leader_epoch,
                ..Default::default()
            };
        }
    };
    let mut lim = limits(shard, &key.group_id);
    let read_committed =
        crate::group_config::get(&shard.metadata(), &key.group_id, "share.isolation.level")
            == "read_committed";
    let from = {
        let mut p = sp.borrow_mut();
        p.state.move_start_to(part.log.log_start_offset());
        archive_dead_lettered(&mut p);
        p.state.fetch_from(&lim)
    };
    let Some(from) = from else {
        return Fetched {
            leader_epoch,
            ..Default::default()
        };
    };
    let upper = if read_committed {
        part.last_stable_offset()
    } else {
        part.high_watermark()
    };
    if from >= upper {
        return Fetched {
            leader_epoch,
            ..Default::default()
        };
    }
    let read = match part
        .read_until(from, max_bytes.clamp(1, MAX_READ_BYTES), upper)
        .await
    {
        Ok(r) => r,
        Err(e) => {
            return Fetched {
                error: Some(crate::partition::storage_error_code(&e)),
                leader_epoch,
                ..Default::default()
            };
        }
    };
    let aborted = if read_committed && !read.batches.is_empty() {
        part.aborted_transactions(from, read.next_offset)
    } else {
        Vec::new()
    };
    let next_known = sp.borrow().state.next_offset();
    let delay_ms = topic_delay_ms(shard, &key.topic_id);
    let mut log_batches = Vec::with_capacity(read.batches.len());
    for b in &read.batches {
        let Ok(batch) = RecordBatch::new(b.clone()) else {
            continue;
        };
        log_batches.extend(describe_batch(&batch, &aborted, next_known, delay_ms));
    }
    lim.now_ms = now_ms();
    let acquired = sp.borrow_mut().state.acquire(
        &member,
        &log_batches,
        max_records.max(1),
        whole_batches,
        &lim,
    );
    // Only the batches holding acquired records go back.
    let batches = read
        .batches
        .into_iter()
        .filter(|b| {
            RecordBatch::new(b.clone()).is_ok_and(|batch| {
                acquired.iter().any(|a| {
                    a.first_offset <= batch.last_offset() && a.last_offset >= batch.base_offset()
                })
            })
        })
        .collect();
    Fetched {
        error: None,
        batches,
        acquired,
        leader_epoch,
    }
}

/// A record this leader dead-lettered whose archive was put back (the
/// state write after the dead letter failed) is archived again before
/// anything is delivered, once it is available (its lock ran out), so a
/// dead-lettered record is not delivered again. The next state write
/// stores it; until then the dead-letter fence still covers it.
fn archive_dead_lettered(p: &mut SharePartition) {
    let again: Vec<i64> = p
        .dead_lettered
        .iter()
        .copied()
        .filter(|&o| p.state.is_available_at(o))
        .collect();
    if !again.is_empty() {
        p.state.archive_offsets(&again);
    }
}

/// The topic's `share.delivery.delay.ms`.
fn topic_delay_ms(shard: &Shard, topic_id: &Uuid) -> i64 {
    let meta = shard.metadata();
    meta.topic_by_id(topic_id)
        .and_then(|t| {
            meta.settings
                .topic_value("share.delivery.delay.ms", &t.configs)
        })
        .and_then(|(v, _)| v.parse::<i64>().ok())
        .unwrap_or(0)
        .max(0)
}

/// How the acquisition sees a batch: control batches and aborted
/// transactional data are never delivered; records never fetched before
/// are held back until their [`DELIVER_AT_HEADER`] time, or their
/// timestamp plus the topic's `delay_ms`, in runs of equal times.
fn describe_batch(
    batch: &RecordBatch,
    aborted: &[tidemark_storage::AbortedTxn],
    next_known: i64,
    delay_ms: i64,
) -> Vec<LogBatch> {
    let whole = LogBatch {
        base_offset: batch.base_offset(),
        last_offset: batch.last_offset(),
        is_control: batch.is_control(),
        deliver_at_ms: 0,
    };
    if batch.is_control() {
        return vec![whole];
    }
    if batch.is_transactional()
        && aborted
            .iter()
            .any(|a| a.producer_id == batch.producer_id() && a.first_offset <= batch.base_offset())
    {
        return vec![LogBatch {
            is_control: true,
            ..whole
        }];
    }
    // Only new records need their headers looked at.
    if batch.last_offset() < next_known {
        return vec![whole];
    }
    let now = now_ms();
    let Ok(records) = batch.decompressed_records(64 << 20) else {
        return vec![whole];
    };
    let mut runs: Vec<LogBatch> = Vec::new();
    let mut any_delay = false;
    for r in records {
        let Ok(r) = r else { return vec![whole] };
        let header_at = r
            .headers()
            .get(DELIVER_AT_HEADER)
            .and_then(|h| h.value)
            .and_then(|v| {
                std::str::from_utf8(&v)
                    .ok()
                    .and_then(|s| s.trim().parse::<i64>().ok())
            })
            .unwrap_or(0);
        let topic_at = if delay_ms > 0 {
            r.timestamp().saturating_add(delay_ms)
        } else {
            0
        };
        // A time already past is no delay.
        let at = header_at.max(topic_at);
        let at = if at > now { at } else { 0 };
        any_delay |= at > 0;
        let o = r.offset();
        match runs.last_mut() {
            Some(l) if l.deliver_at_ms == at && l.last_offset + 1 == o => l.last_offset = o,
            _ => runs.push(LogBatch {
                base_offset: o,
                last_offset: o,
                is_control: false,
                deliver_at_ms: at,
            }),
        }
    }
    if !any_delay || runs.is_empty() {
        return vec![whole];
    }
    // Offsets of the batch no record has (compaction) stay inside runs.
    if let Some(first) = runs.first_mut() {
        first.base_offset = whole.base_offset;
    }
    if let Some(last) = runs.last_mut() {
        last.last_offset = whole.last_offset;
    }
    runs
}

/// One acknowledgement batch from the wire.
#[derive(Debug, Clone)]
pub struct AckBatch {
    pub first_offset: i64,
    pub last_offset: i64,
    pub types: Vec<i8>,
}

/// Applies a member's acknowledgements to one share-partition (all or
/// none), dead-letters what they archive, and returns once durable.
pub async fn acknowledge(
    shard: &Rc<Shard>,
    key: ShareKey,
    member: String,
    batches: Vec<AckBatch>,
) -> Result<(), (ErrorCode, String)> {
    let tp = (key.topic_id, key.partition);
    let Some(part) = shard.led_partition(&tp) else {
        return Err((
            ErrorCode::NotLeaderOrFollower,
            "not the partition's leader".into(),
        ));
    };
    let unavailable = |c: ErrorCode| {
        (
            client_code(c),
            "the share-partition's state is not available".to_string(),
        )
    };
    let sp = monoio::time::timeout(ACK_LOAD_WAIT, get_or_load(shard, &key, &part))
        .await
        .map_err(|_| unavailable(ErrorCode::CoordinatorNotAvailable))?
        .map_err(unavailable)?;
    let lim = limits(shard, &key.group_id);
    let apply = |state: &mut SharePartitionState| apply_all(state, &member, &batches, &lim);
    // The dead-letter records are written before the archive, from a
    // trial run on a copy (nothing changes if that write fails).
    if super::dlq::enabled(shard, &key.group_id) {
        let preview = apply(&mut sp.borrow().state.clone())?;
        dead_letter(shard, &key, &part, &sp, preview.0).await?;
    }
    let (_, undo) = apply(&mut sp.borrow_mut().state)?;
    persist_undoable(shard, &key, &sp, undo)
        .await
        .map_err(|c| {
            (
                client_code(c),
                "the share-partition's state could not be written".into(),
            )
        })?;
    if batches
        .iter()
        .any(|b| b.types.contains(&super::inflight::ack::RELEASE))
    {
        available().notify_all();
    }
    Ok(())
}

/// Every batch applied, or none (the state is left as it was); returns
/// what they archived and how to put them back.
fn apply_all(
    state: &mut SharePartitionState,
    member: &str,
    batches: &[AckBatch],
    lim: &Limits,
) -> Result<(Vec<Archived>, Undo), (ErrorCode, String)> {
    let before = state.clone();
    let mut archived = Vec::new();
    let mut undo = Undo::default();
    for b in batches {
        match state.acknowledge_undoable(
            member,
            b.first_offset,
            b.last_offset,
            &b.types,
            lim,
            &mut undo,
        ) {
            Ok(a) => archived.extend(a),
            Err(e) => {
                *state = before;
                let code = match e {
                    super::inflight::AckError::NotAcquired { .. } => ErrorCode::InvalidRecordState,
                    super::inflight::AckError::Invalid(_) => ErrorCode::InvalidRequest,
                };
                return Err((code, e.to_string()));
            }
        }
    }
    Ok((archived, undo))
}

/// Runs a state change that may archive records (a member's release, lock
/// expiry): dead-letters what a trial run archives, then applies it and
/// writes the state.
async fn change_and_settle<F>(
    shard: &Rc<Shard>,
    key: &ShareKey,
    sp: &Rc<RefCell<SharePartition>>,
    part: &Rc<Partition>,
    change: F,
) where
    F: Fn(&mut SharePartitionState) -> Vec<Archived>,
{
    if super::dlq::enabled(shard, &key.group_id) {
        let preview = change(&mut sp.borrow().state.clone());
        if !preview.is_empty()
            && let Err(e) = dead_letter(shard, key, part, sp, preview).await
        {
            // Nothing changes; the next tick tries again.
            tracing::warn!(group = %key.group_id, error = %e.1, "dead-letter write failed; records stay in flight");
            return;
        }
    }
    change(&mut sp.borrow_mut().state);
    if let Err(code) = persist(shard, key, sp).await {
        tracing::warn!(group = %key.group_id, ?code, "share-partition state write failed");
    }
    available().notify_all();
}

/// Writes the dead letters of `archived` that were not written yet, and
/// remembers them (module docs: the dead-letter fence).
async fn dead_letter(
    shard: &Rc<Shard>,
    key: &ShareKey,
    part: &Rc<Partition>,
    sp: &Rc<RefCell<SharePartition>>,
    mut archived: Vec<Archived>,
) -> Result<(), (ErrorCode, String)> {
    let not_written = |p: &SharePartition, archived: &mut Vec<Archived>| {
        archived.retain(|a| !p.dead_lettered.contains(&a.offset));
    };
    not_written(&sp.borrow(), &mut archived);
    if archived.is_empty() {
        return Ok(());
    }
    let _turn = DlqTurn::take(sp).await?;
    not_written(&sp.borrow(), &mut archived);
    if archived.is_empty() {
        return Ok(());
    }
    let Some(target) = super::dlq::target(shard, key).await? else {
        return Ok(());
    };
    let (topic_id, partition) = target.key();
    let stored = sp
        .borrow()
        .dlq_fence
        .filter(|f| (f.topic_id, f.partition) == (topic_id, partition));
    let fence = match stored {
        Some(f) => f,
        None => {
            // The first dead letter to this partition: its fence is
            // stored before anything is written there.
            let offset = super::dlq::end_offset(shard, &target).await?;
            let f = DlqFence {
                topic_id,
                partition,
                offset,
            };
            {
                let mut p = sp.borrow_mut();
                p.dlq_fence = Some(f);
                p.dlq_written_end = -1;
                p.dlq_uncertain = false;
            }
            persist(shard, key, sp).await.map_err(|c| {
                (
                    client_code(c),
                    "the share-partition's state could not be written".to_string(),
                )
            })?;
            f
        }
    };
    if sp.borrow().dlq_uncertain {
        let (found, until) = super::dlq::scan(shard, key, &target, fence.offset).await?;
        let max_record_locks = limits(shard, &key.group_id).max_record_locks;
        let mut p = sp.borrow_mut();
        let found = plausible_letters(
            found,
            p.state.start_offset(),
            part.high_watermark(),
            max_record_locks,
        );
        p.dead_lettered.extend(found);
        p.dlq_written_end = p.dlq_written_end.max(until);
        p.dlq_uncertain = false;
        not_written(&p, &mut archived);
    }
    if archived.is_empty() {
        return Ok(());
    }
    tracing::debug!(group = %key.group_id, partition = key.partition, fence = fence.offset, count = archived.len(), "writing dead letters");
    match super::dlq::write(shard, key, part, &target, &archived).await {
        Ok(end) => {
            let mut p = sp.borrow_mut();
            p.dead_lettered.extend(archived.iter().map(|a| a.offset));
            p.dlq_written_end = p.dlq_written_end.max(end);
            Ok(())
        }
        Err(e) => {
            // It may have landed (a timeout, a lost answer).
            sp.borrow_mut().dlq_uncertain = true;
            Err(e)
        }
    }
}

/// Releases every record `member` holds in the share-partitions of
/// `group` on this shard (its share session closed).
pub async fn release_member(
    shard: &Rc<Shard>,
    group: &str,
    member: &str,
    topic_partitions: &[(Uuid, i32)],
) {
    for &(topic_id, partition) in topic_partitions {
        let key = ShareKey {
            group_id: group.to_string(),
            topic_id,
            partition,
        };
        let Some(sp) = LEADERS.with(|l| l.borrow().parts.get(&key).cloned()) else {
            continue;
        };
        let Some(part) = shard.led_partition(&(topic_id, partition)) else {
            continue;
        };
        let lim = limits(shard, group);
        change_and_settle(shard, &key, &sp, &part, |st| {
            st.release_member(member, &lim)
        })
        .await;
    }
}

/// Per shard: returns records whose lock expired, every [`TICK`].
pub async fn ticker(shard: Rc<Shard>) {
    loop {
        monoio::select! {
            _ = monoio::time::sleep(TICK) => {}
            _ = shard.stopping() => return,
        }
        let now = now_ms();
        let due: Vec<(ShareKey, Rc<RefCell<SharePartition>>)> = LEADERS.with(|l| {
            l.borrow()
                .parts
                .iter()
                .filter(|(_, sp)| {
                    let p = sp.borrow();
                    !p.expiring && p.state.has_expired_locks(now)
                })
                .map(|(k, sp)| (k.clone(), sp.clone()))
                .collect()
        });
        for (key, sp) in due {
            let Some(part) = shard.led_partition(&(key.topic_id, key.partition)) else {
                continue;
            };
            let s = shard.clone();
            sp.borrow_mut().expiring = true;
            monoio::spawn(async move {
                let lim = limits(&s, &key.group_id);
                change_and_settle(&s, &key, &sp, &part, |st| st.expire_locks(&lim)).await;
                sp.borrow_mut().expiring = false;
            });
        }
    }
}

/// The next time (epoch ms) a held-back or locked record of the
/// share-partition changes (for a waiting fetch).
pub fn next_wakeup_ms(key: &ShareKey) -> Option<i64> {
    LEADERS.with(|l| {
        l.borrow()
            .parts
            .get(key)
            .and_then(|sp| sp.borrow().state.next_wakeup_ms())
    })
}

/// The share-partitions of a group on this shard, with their start
/// offsets (DescribeShareGroupOffsets reads the coordinator instead).
pub fn start_offsets(group: &str) -> Vec<((Uuid, i32), i64)> {
    LEADERS.with(|l| {
        l.borrow()
            .parts
            .iter()
            .filter(|(k, _)| k.group_id == group)
            .map(|(k, sp)| ((k.topic_id, k.partition), sp.borrow().state.start_offset()))
            .collect()
    })
}

/// Forgets a group's share-partitions on this shard (the group was
/// deleted or its offsets altered: the next use reloads them).
pub fn forget_group(group: &str) {
    LEADERS.with(|l| l.borrow_mut().parts.retain(|k, _| k.group_id != group));
}

#[cfg(test)]
mod tests {
    use super::plausible_letters;

    #[test]
    fn dead_letters_read_back_are_kept_only_where_a_leader_could_have_acquired() {
        // Start 100, high watermark 1,000, at most 50 records locked.
        let found = vec![-1, 99, 100, 120, 149, 150, 999, i64::MAX];
        assert_eq!(
            plausible_letters(found, 100, 1_000, 50),
            vec![100, 120, 149]
        );
        // The high watermark cuts before the lock limit.
        assert_eq!(
            plausible_letters(vec![100, 104, 105], 100, 105, 50),
            vec![100, 104]
        );
        // No overflow at the edges.
        assert_eq!(
            plausible_letters(vec![i64::MAX - 1], i64::MAX - 2, i64::MAX, i64::MAX),
            vec![i64::MAX - 1]
        );
    }
}
