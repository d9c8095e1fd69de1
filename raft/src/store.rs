//! openraft's storage traits over the partition log.
//!
//! [`LogStore`] is openraft's log: each data entry is one batch of the
//! [`Log`], written nowhere else; openraft's blank and membership entries
//! are kept in the state file (`meta.rs`) so that they take no Kafka
//! offset. [`StateMachine`] is the high watermark: applying an entry moves
//! it past the entry's last offset, which is exactly "the Raft commit
//! point is the high watermark" (invariant 2).
//!
//! Purging (openraft's `purge`, after a snapshot) is how the log start is
//! allowed to move: the snapshot is only metadata (the partition log below
//! its last log id *is* the data), and the purge point becomes the log's
//! max collectible offset, below which retention, DeleteRecords and
//! compaction may act and above which they may not.
//!
//! Both share one [`Shared`] (an `Rc`: one partition belongs to one shard,
//! invariant 3, and openraft runs `single-threaded` here).

use std::cell::{Cell, RefCell};
use std::fmt::Debug;
use std::future::Future;
use std::io;
use std::ops::{Bound, RangeBounds};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::rc::Rc;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures_util::{Stream, StreamExt};
use kafka_protocol::records::RecordBatch;
use openraft::storage::{EntryResponder, IOFlushed, LogState, RaftLogStorage, RaftStateMachine};
use openraft::{OptionalSend, RaftLogReader, RaftSnapshotBuilder};
use tidemark_storage::slot_file::Slots;
use tidemark_storage::{FlushPolicy, Log, LogConfig, ReadClass};

use crate::error::{Error, to_io};
use crate::index::{IndexMap, Locate};
use crate::meta::{Meta, SideEntry};
use crate::types::{
    Appended, Entry, KafkaBatch, LogId, NodeId, Payload, ResetSource, Snapshot, SnapshotMeta,
    StoredMembership, Term, TypeConfig, Vote, log_id,
};

/// Bytes read from the log per read call when collecting entries.
const READ_CHUNK: usize = 1 << 20;
/// Bytes of batches one AppendEntries carries at most (beyond its first
/// batch): bounds the leader's memory per lagging follower and keeps
/// requests far below the transport's frame limit.
const REPLICATION_BYTES: usize = 4 << 20;
/// The state file is rewritten (moving its recovery anchor, the applied
/// point) each time the high watermark has moved this many offsets, so a
/// crash rescans a bounded tail of the log at the next open.
const META_EVERY_OFFSETS: i64 = 1 << 16;
/// Present while a log reset runs: a replica that finds it at open lost
/// its log half-way through the reset and starts empty (as a wiped one).
const RESET_MARKER: &str = "raft-reset-in-progress";

/// Reads committed batches of another replica's partition log, for a log
/// reset: `(node, from, until)` gives the batches from the one holding
/// offset `from` on, below `until`, a few MiB at most (empty when there
/// are none). The broker's node-to-node transport provides it; tests read
/// another local replica's log directly.
pub type LogSource =
    Rc<dyn Fn(NodeId, i64, i64) -> Pin<Box<dyn Future<Output = Result<Bytes, String>>>>>;

/// State shared by the log store, its readers and the state machine.
pub(crate) struct Shared {
    pub log: Rc<Log>,
    pub dir: PathBuf,
    pub map: RefCell<IndexMap>,
    /// The persisted state (vote, commit and apply points, membership);
    /// `first` and `epochs` are copied from `map` when it is written.
    pub meta: RefCell<Meta>,
    /// The high watermark: the offset after the last applied entry.
    pub hw: Cell<i64>,
    pub(crate) meta_hw: Cell<i64>,
    /// Whether appends are fdatasynced before openraft hears they are
    /// flushed (the log's configured `SyncBeforeAck`).
    sync: bool,
    /// This replica's node (named in the snapshots it builds, as the
    /// node to copy from).
    node_id: NodeId,
    /// Where a log reset copies the leader's log from.
    pub log_source: RefCell<Option<LogSource>>,
    /// The replica is being created as one of a batch the caller makes
    /// durable at once (see `OpenOptions::defer_sync`): state-file writes
    /// are held in memory (`store_pending`) and written once, without an
    /// fsync, by [`Shared::end_deferred_sync`]. Each write of the file is
    /// a new inode for the file system to allocate; creating a partition
    /// wrote it eight times, most of the kernel time a creation took.
    defer_sync: Cell<bool>,
    store_pending: Cell<bool>,
    /// Called after each apply round that moved the high watermark (set
    /// by the embedder through `PartitionReplica::on_high_watermark`): a
    /// follower's readers (KIP-392 follower fetching) wait for it, and
    /// only the state machine knows when a follower's commit point moves.
    pub hw_listener: RefCell<Option<Rc<dyn Fn()>>>,
    /// One state-file write at a time (they run on the storage's helper
    /// threads, `tidemark_storage::fs_pool`): which slot a write may use
    /// depends on where the one before it landed, and a later write must
    /// not land before an earlier one. Each write encodes the state as it
    /// is once its turn comes, so it carries every change made while it
    /// waited.
    persist_turn: futures_util::lock::Mutex<()>,
    /// The state file's two slots and where the next write goes.
    slots: RefCell<Slots>,
    /// The raft index purged up to once that purge is durable and the
    /// log's collectible limit has moved with it (`meta.purged` is set
    /// before its state-file write, which now awaits a helper thread):
    /// what `release_prefix_to` waits for.
    pub(crate) purged_durable: Cell<Option<u64>>,
}

fn epoch_of(term: Term) -> Result<i32, io::Error> {
    i32::try_from(term)
        .map_err(|_| to_io(format!("term {term} exceeds the Kafka leader epoch range")))
}

impl Shared {
    /// Opens the partition log and the Raft state beside it, and rebuilds
    /// the index map by scanning the log from the newest valid anchor.
    /// `adopt_foreign`: a log with data but no Raft state beside it (one
    /// written before its partition went through Raft) becomes the
    /// group's purged prefix: everything in it counts as committed, and
    /// the Raft log starts at its end. Only safe when this node is the
    /// group's only voter (then nothing else can hold a newer copy); a
    /// replica of a multi-voter group refuses such a log instead.
    pub async fn open(
        dir: &Path,
        mut config: LogConfig,
        adopt_foreign: bool,
        node_id: NodeId,
        defer_sync: bool,
    ) -> Result<Rc<Shared>, Error> {
        let interrupted_reset = dir.join(RESET_MARKER).exists();
        if interrupted_reset {
            tracing::warn!(dir = %dir.display(), "a log reset was interrupted: the replica starts empty, as a wiped one");
            remove_files_except(dir, RESET_MARKER)?;
        }
        // Raft decides when to fdatasync: an append hands all its entries
        // to the log, then one flush makes them durable and only then is
        // openraft told (IOFlushed). With the log's own SyncBeforeAck each
        // batch would be synced on its own.
        let sync = config.flush == FlushPolicy::SyncBeforeAck;
        if sync {
            config.flush = FlushPolicy::Interval {
                interval: Duration::from_secs(3600),
                bytes: usize::MAX,
            };
        }
        // Votes must be durable before they are sent: only a group this
        // node is alone in (no one to vote for or with) defers its writes.
        // A fresh state (below) holds no vote, so a new replica of any
        // group created in a batch leaves that one unwritten.
        let batch_creation = defer_sync;
        let defer_sync = defer_sync && adopt_foreign;
        let log = Log::open(dir, config).await?;
        let (log_start, leo) = (log.log_start_offset(), log.log_end_offset());
        let (mut slots, loaded) = match Meta::load(dir) {
            // A state file written without fsync (a partition created in
            // a batch, see `OpenOptions::defer_sync`) may be empty or torn
            // after a crash before the batch was made durable. Beside an
            // empty log nothing was ever acknowledged from it, and any
            // vote it held was cast later, durably: start afresh.
            Err(Error::CorruptState(why)) if leo == log_start && log_start == 0 => {
                tracing::warn!(dir = %dir.display(), %why, "damaged raft state beside an empty log; starting afresh");
                (Slots::afresh(&Meta::path(dir)), None)
            }
            other => other?,
        };
        let mut meta = match loaded {
            Some(m) => m,
            None if leo > log_start && !adopt_foreign => {
                return Err(Error::ForeignLog(dir.to_path_buf()));
            }
            None if leo > log_start => {
                tracing::warn!(dir = %dir.display(), log_start, log_end = leo, "adopting a log written without raft: its batches become the committed prefix");
                let m = Meta::fresh(leo);
                if !defer_sync {
                    m.store(&mut slots, true)?;
                }
                m
            }
            None => {
                // No vote and no membership: a crash that loses this file
                // leaves what the next open makes again, so a batch
                // creation does not write it at all (the membership's
                // durable write is the replica's first state file; each
                // new file is an inode for the file system to make).
                let m = Meta::fresh(log_start);
                if !batch_creation {
                    m.store(&mut slots, true)?;
                }
                m
            }
        };
        // Nothing but Raft moves the log start past the purge point (the
        // log refuses to, see below); if it happened anyway (the log was
        // changed by something else), the index of the first batch is
        // unknown and guessing could corrupt the Raft log.
        if log_start > meta.first.1 {
            return Err(Error::CorruptState(format!(
                "log start offset {log_start} is past the raft purge point at offset {} \
                 (raft index {}): the log was cut by something other than its replica",
                meta.first.1, meta.first.0
            )));
        }
        // Purging flushes first, so the purge point is always on disk.
        if leo < meta.first.1 {
            return Err(Error::CorruptState(format!(
                "log ends at offset {leo}, below the raft purge point at offset {}",
                meta.first.1
            )));
        }
        // From here on retention, DeleteRecords and compaction leave the
        // Raft log (everything from the purge point on) alone.
        log.set_max_collectible_offset(meta.first.1);
        // Entries appended after a tail that a crash lost (never synced)
        // are gone with it: anchors past the log end, and non-data entries
        // appended after data that is missing now.
        let side_before = meta.side.len();
        meta.side.retain(|_, e| e.offset <= leo);
        let side = &meta.side;
        meta.epochs
            .retain(|e| e.2 < leo || (e.2 == leo && side.contains_key(&e.1)));
        let mut start = meta.first;
        if let Some(e) = meta.epochs.last() {
            start = start.max((e.1, e.2));
        }
        if let Some((id, next)) = &meta.applied
            && *next <= leo
        {
            start = start.max((id.index + 1, *next));
        }
        let epochs: Vec<_> = meta
            .epochs
            .iter()
            .copied()
            .filter(|e| e.1 < start.0)
            .collect();
        let mut map = IndexMap::resume(meta.first, epochs, start);
        let mut offset = start.1;
        let mut scanned = 0u64;
        loop {
            let r = if offset < leo {
                log.read_as(offset, READ_CHUNK, None, ReadClass::Replication)
                    .await?
                    .batches
            } else {
                Vec::new()
            };
            if r.is_empty() {
                // The non-data entries appended at the log end.
                push_side(&meta.side, &mut map, leo)?;
                break;
            }
            for b in r {
                let rb = RecordBatch::new(b).map_err(Error::Decode)?;
                if rb.base_offset() != offset {
                    return Err(Error::CorruptState(format!(
                        "raft anchor at offset {offset} is not a batch boundary (batch at {})",
                        rb.base_offset()
                    )));
                }
                push_side(&meta.side, &mut map, offset)?;
                let epoch = rb.partition_leader_epoch();
                if epoch < 0 {
                    return Err(Error::CorruptState(format!(
                        "batch at offset {offset} has no leader epoch: not written through raft"
                    )));
                }
                map.push(epoch as Term, rb.base_offset(), rb.next_offset());
                offset = rb.next_offset();
                scanned += 1;
            }
        }
        if let Some((i, e)) = meta.side.range(map.next_index()..).next() {
            return Err(Error::CorruptState(format!(
                "raft entry {i} at offset {} does not follow the log (which ends at raft index {})",
                e.offset,
                map.next_index()
            )));
        }
        // The apply and commit points cannot be past the recovered log: a
        // leader may apply an entry a quorum of others made durable before
        // its own copy was synced. Everything up to them was committed, so
        // any prefix of it is too.
        let last = map.last_log_id().or(meta.purged);
        let last_index = last.as_ref().map(|l| l.index);
        if meta.committed.as_ref().map(|c| c.index) > last_index {
            meta.committed = last;
        }
        if let Some((id, _)) = &meta.applied
            && Some(id.index) > last_index
        {
            let clamp = last.and_then(|l| {
                let m = meta.membership.log_id().as_ref().map(|m| m.index);
                (m <= Some(l.index)).then_some(l)
            });
            meta.applied = match clamp {
                Some(l) => Some((l, map.end_offset())),
                None => {
                    meta.membership = StoredMembership::default();
                    None
                }
            };
        }
        // A snapshot is never past the apply point (openraft would try to
        // install it); without one openraft asks for a new one.
        if meta.snapshot.as_ref().map(|s| s.0.index) > meta.applied.as_ref().map(|a| a.0.index) {
            meta.snapshot = None;
        }
        let hw = meta.applied.as_ref().map_or(meta.first.1, |a| a.1);
        let purged_index = meta.purged.map(|p| p.index);
        tracing::debug!(dir = %dir.display(), leo, scanned, last = ?last, hw, "raft log recovered");
        // Dropped entries must not come back at the next open (a later
        // batch could end where they claim to sit).
        if meta.side.len() != side_before {
            meta.store(&mut slots, true)?;
        }
        if interrupted_reset {
            remove_marker(dir)?;
        }
        Ok(Rc::new(Shared {
            log,
            dir: dir.to_path_buf(),
            map: RefCell::new(map),
            meta: RefCell::new(meta),
            hw: Cell::new(hw),
            meta_hw: Cell::new(hw),
            sync,
            node_id,
            log_source: RefCell::new(None),
            defer_sync: Cell::new(defer_sync),
            store_pending: Cell::new(defer_sync),
            hw_listener: RefCell::new(None),
            persist_turn: futures_util::lock::Mutex::new(()),
            slots: RefCell::new(slots),
            purged_durable: Cell::new(purged_index),
        }))
    }

    /// Writes the state file from the current state, durably, and returns
    /// once it is on disk (a vote must survive a crash).
    ///
    /// The write runs on a helper thread, not the shard's: a vote was two
    /// fsyncs (now one), and in an election storm (a three-node restart at 3,000
    /// partitions) thousands of them ran back to back on the shard, which
    /// sent no heartbeat meanwhile, so more elections started than
    /// finished. The writes of all groups are group-committed
    /// (`tidemark_storage::write_batch`): one syncfs per batch instead
    /// of an fsync per write, which is what lets ~3,400 simultaneous
    /// elections (a broker of 10,000 partitions lost) finish in time.
    pub async fn persist(&self) -> Result<(), Error> {
        if self.defer_sync.get() {
            self.copy_map_into_meta();
            self.store_pending.set(true);
            self.meta_hw.set(self.hw.get());
            return Ok(());
        }
        let _turn = self.persist_turn.lock().await;
        self.copy_map_into_meta();
        let text = self.meta.borrow().encode();
        let hw = self.hw.get();
        let fatal = |e: tidemark_storage::StorageError| {
            Error::Fatal(format!(
                "writing the raft state in {}: {e}",
                self.dir.display()
            ))
        };
        let mut w = self
            .slots
            .borrow_mut()
            .prepare(text.as_bytes())
            .map_err(fatal)?;
        let bytes = std::mem::take(&mut w.bytes);
        tidemark_storage::write_batch::write_durably(w.path.clone(), bytes)
            .await
            .map_err(fatal)?;
        self.slots.borrow_mut().landed(&w, true);
        self.meta_hw.set(hw);
        Ok(())
    }

    /// `first` and `epochs` of the state file come from the index map.
    fn copy_map_into_meta(&self) {
        let mut meta = self.meta.borrow_mut();
        let map = self.map.borrow();
        meta.first = map.first;
        meta.epochs.clone_from(&map.epochs);
    }

    /// Ends the deferral of a replica's creation (see `defer_sync`): the
    /// state file is written now if anything is pending, without an
    /// fsync; from here on every write of it is durable.
    pub fn end_deferred_sync(&self) -> Result<(), Error> {
        if !self.defer_sync.replace(false) {
            return Ok(());
        }
        if self.store_pending.replace(false) {
            self.copy_map_into_meta();
            self.meta
                .borrow()
                .store(&mut self.slots.borrow_mut(), false)?;
        }
        Ok(())
    }

    /// Whether this replica is the only voter of its group and its state
    /// file says everything in the log is applied under this node's own
    /// committed leadership: the state hibernation (or a clean stop)
    /// leaves. Such a replica can start hibernating, without running
    /// openraft at all, and resume its term on the first write (the path
    /// a hibernating group wakes by): the high watermark is the log end.
    pub fn is_clean_single_voter(&self) -> bool {
        let meta = self.meta.borrow();
        let Some(v) = meta.vote else {
            return false;
        };
        let m = meta.membership.membership();
        let alone = m.voter_ids().eq([self.node_id]) && m.learner_ids().next().is_none();
        // Applied to the end, under the leadership being resumed.
        let applied_to_end = match &meta.applied {
            Some((id, next)) => {
                *next == self.log.log_end_offset()
                    && self.map.borrow().last_log_id().as_ref() == Some(id)
                    && id.leader_id.term == v.leader_id.term
            }
            None => false,
        };
        v.committed && v.leader_id.voted_for == self.node_id && alone && applied_to_end
    }

    /// A single voter whose state file lags its log (a kill -9 between
    /// writes and the next save of the state) counts every entry the
    /// recovered log holds as committed and applied, as its own election
    /// would (its blank entry commits everything before it): a group that
    /// is its own quorum commits what it holds durably, and recovery kept
    /// only whole, checked batches. Then it is clean
    /// ([`Shared::is_clean_single_voter`]) and opens asleep, in its term,
    /// instead of starting openraft for an election: a kill -9 of a broker
    /// with 50,000 partitions written in the last seconds cost an openraft
    /// instance and an election each (~5 ms) at the restart.
    ///
    /// Only under this node's committed vote with itself the only voter,
    /// and only when no membership entry lies past the apply point (the
    /// group of a cluster's single-replica partition being reassigned is
    /// left to openraft).
    pub fn catch_up_single_voter(&self) {
        let mut meta = self.meta.borrow_mut();
        let Some(v) = meta.vote else {
            return;
        };
        let m = meta.membership.membership();
        let alone = m.voter_ids().eq([self.node_id]) && m.learner_ids().next().is_none();
        if !(v.committed && v.leader_id.voted_for == self.node_id && alone) {
            return;
        }
        let applied_index = meta.applied.as_ref().map(|a| a.0.index);
        if meta
            .side
            .range(applied_index.map_or(0, |i| i + 1)..)
            .any(|(_, e)| matches!(e.payload, Payload::Membership(_)))
        {
            return;
        }
        let map = self.map.borrow();
        let (Some(last), Some(applied)) = (map.last_log_id(), applied_index) else {
            return;
        };
        // Only entries of the vote's own term past the apply point: the
        // leadership being resumed is the one that wrote them (a log
        // whose last entry is older than the vote has no entry of the
        // term to resume; that takes an election).
        if last.index <= applied || last.leader_id.term != v.leader_id.term {
            return;
        }
        let end = map.end_offset();
        tracing::debug!(dir = %self.dir.display(), from = applied, to = last.index, end, "single voter: the recovered log tail counts as committed");
        meta.applied = Some((last, end));
        meta.committed = Some(last);
        self.hw.set(end);
    }

    /// The Kafka offset where entry `index` starts (for `next_index`:
    /// the log end offset), walking from an anchor when needed.
    pub async fn offset_of(&self, index: u64) -> Result<i64, io::Error> {
        let loc = self.map.borrow().locate(index);
        match loc {
            Locate::Exact(o) => Ok(o),
            Locate::OutOfRange => Err(to_io(format!("raft index {index} is not in the log"))),
            Locate::Scan { index: i, offset } => {
                Ok(self.walk(i, offset, index, None, usize::MAX).await?.1)
            }
        }
    }

    /// The first entry that starts at or past Kafka offset `offset`
    /// (`next_index` if none does): purging up to the entry before it
    /// hands exactly the log below `offset` over to retention.
    pub async fn first_index_at(&self, offset: i64) -> Result<u64, io::Error> {
        let (from, next) = {
            let map = self.map.borrow();
            (map.floor_below(offset), map.next_index())
        };
        let Some((i, off)) = from else {
            // Nothing known starts below `offset`: the first entry does not.
            return Ok(self.map.borrow().first.0);
        };
        Ok(self
            .walk_until(i, off, next, offset, None, usize::MAX)
            .await?
            .0)
    }

    /// Entries `[start, end)`.
    async fn entries(&self, start: u64, end: u64) -> Result<Vec<Entry>, io::Error> {
        self.entries_limited(start, end, usize::MAX).await
    }

    /// The entries `[start, end)` for the state machine, which needs only
    /// where each data entry lies in the log: those the map knows exactly
    /// (the recent tail) are given by their offsets alone
    /// ([`KafkaBatch::offsets_only`]), without reading their batches; older
    /// ones are read. Why: under load the apply point trails the log end
    /// by more than the log's tail cache holds (a three-node benchmark
    /// showed a third of all segment-file reads coming from apply), and
    /// reading every committed batch back only to learn its offsets cost a
    /// copy of all replicated data on every replica.
    async fn entries_for_apply(&self, start: u64, end: u64) -> Result<Vec<Entry>, io::Error> {
        let mut out = Vec::with_capacity(end.saturating_sub(start).min(4096) as usize);
        let mut i = start;
        while i < end {
            let exact_from = self.map.borrow().exact_from();
            if i < exact_from {
                // Read; the tail may move on meanwhile, so look again after.
                let got = self.entries(i, end.min(exact_from)).await?;
                if got.is_empty() {
                    return Err(to_io(format!("raft index {i} is not in the log")));
                }
                i += got.len() as u64;
                out.extend(got);
                continue;
            }
            // No await from here on: the map cannot change under the loop.
            let map = self.map.borrow();
            let meta = self.meta.borrow();
            for i in i..end {
                if let Some(e) = meta.side.get(&i) {
                    out.push(Entry {
                        log_id: e.log_id,
                        payload: e.payload.clone(),
                    });
                    continue;
                }
                let (Locate::Exact(base), Locate::Exact(next), Some(term)) =
                    (map.locate(i), map.locate(i + 1), map.term_at(i))
                else {
                    return Err(to_io(format!("raft index {i} is not in the log")));
                };
                if next <= base {
                    return Err(to_io(format!(
                        "raft index {i}: batch at offset {base} ends at {next}"
                    )));
                }
                out.push(Entry {
                    log_id: log_id(term, i),
                    payload: Payload::Normal(KafkaBatch::offsets_only(base, next)),
                });
            }
            break;
        }
        Ok(out)
    }

    /// The entries from `start` towards `end`, stopping after the batch
    /// that brings their bytes to `budget` (at least one entry): what one
    /// AppendEntries carries, so that a follower far behind is sent a few
    /// MiB at a time rather than `max_payload_entries` whole batches
    /// (256 x 1 MiB), which the leader would hold in memory per follower.
    async fn entries_limited(
        &self,
        start: u64,
        end: u64,
        budget: usize,
    ) -> Result<Vec<Entry>, io::Error> {
        let mut out = Vec::with_capacity((end.saturating_sub(start)).min(4096) as usize);
        if start >= end {
            return Ok(out);
        }
        let loc = self.map.borrow().locate(start);
        let (i, off) = match loc {
            Locate::Exact(o) => (start, o),
            Locate::Scan { index, offset } => (index, offset),
            Locate::OutOfRange => {
                return Err(to_io(format!("raft index {start} is not in the log")));
            }
        };
        self.walk(i, off, end, Some((start, &mut out)), budget)
            .await?;
        Ok(out)
    }

    /// Walks the entries from index `i` (which starts at offset `off`) up
    /// to `end`, collecting those from `collect.0` on into `collect.1`.
    /// Returns the walk state at `end`.
    async fn walk(
        &self,
        i: u64,
        off: i64,
        end: u64,
        collect: Option<(u64, &mut Vec<Entry>)>,
        budget: usize,
    ) -> Result<(u64, i64), io::Error> {
        self.walk_until(i, off, end, i64::MAX, collect, budget)
            .await
    }

    /// [`Shared::walk`], also stopping at the first entry that starts at
    /// or past offset `until` (before taking it). Records the anchors it
    /// passes (entries older than the map's exact tail are otherwise only
    /// known through sparse anchors, which a restart forgets), so that
    /// walks over an old part of the log (a follower catching up from far
    /// behind) start near where they are going instead of from the first
    /// entry each time.
    async fn walk_until(
        &self,
        mut i: u64,
        mut off: i64,
        end: u64,
        until: i64,
        mut collect: Option<(u64, &mut Vec<Entry>)>,
        budget: usize,
    ) -> Result<(u64, i64), io::Error> {
        if off >= until {
            return Ok((i, off));
        }
        let mut collected = 0usize;
        // Takes the non-data entries numbered `i`, `i + 1`, ... that sit at
        // `off`.
        let side_entries = |i: &mut u64, off: i64, collect: &mut Option<(u64, &mut Vec<Entry>)>| {
            let meta = self.meta.borrow();
            while *i < end {
                let Some(e) = meta.side.get(i) else { break };
                if e.offset != off {
                    return Err(to_io(format!(
                        "raft entry {i} is recorded at offset {}, the walk is at {off}",
                        e.offset
                    )));
                }
                if let Some((from, out)) = collect
                    && *i >= *from
                {
                    out.push(Entry {
                        log_id: e.log_id,
                        payload: e.payload.clone(),
                    });
                }
                *i += 1;
            }
            Ok(())
        };
        side_entries(&mut i, off, &mut collect)?;
        while i < end {
            let r = self
                .log
                .read_as(off, READ_CHUNK, None, ReadClass::Replication)
                .await
                .map_err(to_io)?;
            if r.batches.is_empty() {
                return Err(to_io(format!(
                    "log ends at offset {off} before raft index {i} (wanted up to {end})"
                )));
            }
            for b in r.batches {
                if i >= end {
                    break;
                }
                let rb = RecordBatch::new(b).map_err(to_io)?;
                if rb.base_offset() != off {
                    return Err(to_io(format!(
                        "raft index {i}: expected a batch at offset {off}, found {}",
                        rb.base_offset()
                    )));
                }
                self.map.borrow_mut().note_anchor(i, off);
                off = rb.next_offset();
                if let Some((from, out)) = &mut collect
                    && i >= *from
                {
                    let term = rb.partition_leader_epoch();
                    let known = self.map.borrow().term_at(i);
                    if term < 0 || known != Some(term as Term) {
                        return Err(to_io(format!(
                            "batch at {} has leader epoch {term}, raft index {i} is in term {known:?}",
                            rb.base_offset()
                        )));
                    }
                    collected += rb.as_bytes().len();
                    out.push(Entry {
                        log_id: log_id(term as Term, i),
                        payload: Payload::Normal(KafkaBatch::stored(rb.as_bytes().clone())),
                    });
                }
                i += 1;
                if collected >= budget || off >= until {
                    return Ok((i, off));
                }
                side_entries(&mut i, off, &mut collect)?;
            }
        }
        Ok((i, off))
    }

    /// What openraft calls a snapshot: the last applied log id and the
    /// membership then; the data is the partition log itself, and the
    /// snapshot says where a follower finds it (this node's log, from its
    /// log start up to the entry after `id`).
    async fn snapshot_of(
        &self,
        id: LogId,
        membership: StoredMembership,
    ) -> Result<Snapshot, io::Error> {
        let next_offset = self.offset_of(id.index + 1).await?;
        let epochs = self
            .map
            .borrow()
            .epochs
            .iter()
            .copied()
            .filter(|e| e.1 <= id.index)
            .collect();
        Ok(Snapshot {
            meta: SnapshotMeta {
                last_log_id: Some(id),
                last_membership: membership,
            },
            snapshot: ResetSource {
                leader: self.node_id,
                log_start: self.log.log_start_offset().min(next_offset),
                next_offset,
                epochs,
            },
        })
    }

    /// Records a snapshot of the apply point (all a snapshot is here).
    pub fn snapshot_applied(&self) -> Option<(LogId, StoredMembership)> {
        let mut meta = self.meta.borrow_mut();
        let (id, _) = meta.applied?;
        let membership = meta.membership.clone();
        meta.snapshot = Some((id, membership.clone()));
        Some((id, membership))
    }

    /// Installs a leader's snapshot on a follower that is behind the
    /// leader's purge point: a log reset. The log is emptied and started
    /// at the leader's log start, the leader's batches below the entry
    /// after the snapshot are copied (gaps included: compaction thins
    /// that part), and Raft resumes at that entry with everything up to
    /// the snapshot purged, committed and applied. A marker file makes a
    /// crash half-way come back as an empty (wiped) replica rather than a
    /// log with a hole.
    pub async fn install_reset(
        &self,
        meta: &SnapshotMeta,
        src: ResetSource,
    ) -> Result<(), io::Error> {
        let last = meta
            .last_log_id
            .ok_or_else(|| to_io("a snapshot without a last log id"))?;
        if src.log_start < 0 || src.next_offset < src.log_start {
            return Err(to_io(format!(
                "bad log reset source: log start {} after next offset {}",
                src.log_start, src.next_offset
            )));
        }
        if src.epochs.iter().any(|e| e.1 > last.index) {
            return Err(to_io("bad log reset source: an epoch past the snapshot"));
        }
        let fetch = self
            .log_source
            .borrow()
            .clone()
            .ok_or_else(|| to_io("no log source to copy a leader's log from"))?;
        let started = std::time::Instant::now();
        write_marker(&self.dir)?;
        self.log.reset_to(src.log_start).await.map_err(to_io)?;
        // Retention and DeleteRecords may go on at the leader during the
        // copy: the leader answers from its log start then, and the copy
        // simply has a gap.
        self.log.set_max_collectible_offset(src.next_offset);
        let (mut at, mut copied) = (src.log_start, 0usize);
        while at < src.next_offset {
            let bytes = fetch_retrying(&fetch, src.leader, at, src.next_offset).await?;
            if bytes.is_empty() {
                break;
            }
            if copied == 0 {
                // The leader's log start may sit inside a batch (after
                // DeleteRecords); the copy starts at that batch, and the
                // log start is moved up to the leader's afterwards. (Too
                // short to hold a base offset: `append_copied` refuses it.)
                let base = bytes.get(..8).map_or(i64::MAX, |b| {
                    i64::from_be_bytes(b.try_into().expect("8 bytes"))
                });
                if base < self.log.log_end_offset() {
                    self.log.reset_to(base.max(0)).await.map_err(to_io)?;
                }
            }
            copied += bytes.len();
            let info = self.log.append_copied(bytes).await.map_err(to_io)?;
            if info.last_offset + 1 > src.next_offset {
                return Err(to_io(format!(
                    "the leader sent offsets up to {} for a copy below {}",
                    info.last_offset, src.next_offset
                )));
            }
            at = info.last_offset + 1;
        }
        self.log.skip_to(src.next_offset).await.map_err(to_io)?;
        if self.log.log_start_offset() < src.log_start {
            self.log
                .delete_records(src.log_start)
                .await
                .map_err(to_io)?;
        }
        self.log.flush().await.map_err(to_io)?;
        let first = (last.index + 1, src.next_offset);
        *self.map.borrow_mut() = IndexMap::resume(first, src.epochs, first);
        {
            let mut m = self.meta.borrow_mut();
            m.purged = Some(last);
            m.committed = Some(last);
            m.applied = Some((last, src.next_offset));
            m.side.clear();
            m.snapshot = Some((last, meta.last_membership.clone()));
            m.membership = meta.last_membership.clone();
        }
        self.hw.set(src.next_offset);
        self.persist().await.map_err(to_io)?;
        self.log.set_max_collectible_offset(src.next_offset);
        self.purged_durable.set(Some(last.index));
        remove_marker(&self.dir).map_err(to_io)?;
        // A warning: a replica lost its log or fell far behind, which an
        // operator wants to hear of.
        tracing::warn!(
            dir = %self.dir.display(),
            leader = src.leader,
            log_start = src.log_start,
            next_offset = src.next_offset,
            index = last.index + 1,
            copied_bytes = copied,
            ms = started.elapsed().as_millis() as u64,
            "log reset from the leader's log"
        );
        Ok(())
    }

    /// Purges the entries up to `log_id` (see [`LogStore`]'s `purge`).
    pub async fn purge(&self, log_id: LogId) -> Result<(), io::Error> {
        let first = log_id.index + 1;
        if first <= self.map.borrow().first.0 {
            return Ok(());
        }
        let offset = self.offset_of(first).await?;
        self.log.flush().await.map_err(to_io)?;
        self.map.borrow_mut().purge((first, offset));
        {
            let mut meta = self.meta.borrow_mut();
            meta.purged = Some(log_id);
            meta.side = meta.side.split_off(&first);
        }
        self.persist().await.map_err(to_io)?;
        self.log.set_max_collectible_offset(offset);
        self.purged_durable.set(Some(log_id.index));
        tracing::debug!(dir = %self.dir.display(), index = log_id.index, offset, "raft log purged");
        Ok(())
    }
}

/// One read of a log reset's copy, retried for a while: the leader may
/// be busy or changing. An error that lasts is returned, and openraft then
/// stops the group (the marker makes the replica come back empty at the
/// next start, and it catches up again).
async fn fetch_retrying(
    fetch: &LogSource,
    leader: NodeId,
    at: i64,
    until: i64,
) -> Result<Bytes, io::Error> {
    let mut last = String::new();
    for attempt in 0..30 {
        if attempt > 0 {
            monoio::time::sleep(Duration::from_secs(1)).await;
        }
        match fetch(leader, at, until).await {
            Ok(b) => return Ok(b),
            Err(e) => {
                tracing::warn!(leader, at, attempt, error = %e, "log reset: reading the leader's log failed");
                last = e;
            }
        }
    }
    Err(to_io(format!(
        "copying node {leader}'s log at offset {at}: {last}"
    )))
}

fn write_marker(dir: &Path) -> Result<(), io::Error> {
    let path = dir.join(RESET_MARKER);
    let f = std::fs::File::create(&path)?;
    f.sync_all()?;
    std::fs::File::open(dir)?.sync_all()
}

fn remove_marker(dir: &Path) -> Result<(), Error> {
    let io = |e: io::Error| Error::Fatal(format!("{}: {e}", dir.display()));
    match std::fs::remove_file(dir.join(RESET_MARKER)) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io)
}

/// Removes every file of a replica's folder but `keep` (an interrupted
/// log reset: what is there is neither the old log nor the new one).
fn remove_files_except(dir: &Path, keep: &str) -> Result<(), Error> {
    let io = |e: io::Error| Error::Fatal(format!("{}: {e}", dir.display()));
    for e in std::fs::read_dir(dir).map_err(io)? {
        let e = e.map_err(io)?;
        if e.file_name() != keep && e.file_type().map_err(io)?.is_file() {
            std::fs::remove_file(e.path()).map_err(io)?;
        }
    }
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io)
}

/// Feeds the map the non-data entries recorded at `offset` that come next.
fn push_side(
    side: &std::collections::BTreeMap<u64, SideEntry>,
    map: &mut IndexMap,
    offset: i64,
) -> Result<(), Error> {
    while let Some(e) = side.get(&map.next_index()) {
        if e.offset != offset {
            return Err(Error::CorruptState(format!(
                "raft entry {} is recorded at offset {}, but entry {} of the log starts at {offset}",
                e.log_id.index,
                e.offset,
                map.next_index()
            )));
        }
        map.push(e.log_id.leader_id.term, offset, offset);
    }
    Ok(())
}

/// openraft's log store and log reader: the partition log.
#[derive(Clone)]
pub struct LogStore {
    pub(crate) shared: Rc<Shared>,
}

fn bounds(range: &impl RangeBounds<u64>, next: u64) -> (u64, u64) {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s + 1,
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e + 1,
        Bound::Excluded(&e) => e,
        Bound::Unbounded => next,
    };
    (start, end.min(next))
}

impl RaftLogReader<TypeConfig> for LogStore {
    async fn try_get_log_entries<RB: RangeBounds<u64> + Clone + Debug + OptionalSend>(
        &mut self,
        range: RB,
    ) -> Result<Vec<Entry>, io::Error> {
        let (start, end) = bounds(&range, self.shared.map.borrow().next_index());
        self.shared.entries(start, end).await
    }

    /// The state machine's reads (openraft's apply reads nothing else):
    /// data entries by their offsets alone (see [`Shared::entries_for_apply`]).
    async fn entries_stream<RB>(
        &mut self,
        range: RB,
    ) -> impl Stream<Item = Result<Entry, io::Error>> + OptionalSend
    where
        RB: RangeBounds<u64> + Clone + Debug + OptionalSend,
    {
        let (start, end) = bounds(&range, self.shared.map.borrow().next_index());
        let items: Vec<Result<Entry, io::Error>> =
            match self.shared.entries_for_apply(start, end).await {
                Ok(entries) => entries.into_iter().map(Ok).collect(),
                Err(e) => vec![Err(e)],
            };
        futures_util::stream::iter(items)
    }

    /// Replication reads through here: at most ~4 MiB per call.
    async fn limited_get_log_entries(
        &mut self,
        start: u64,
        end: u64,
    ) -> Result<Vec<Entry>, io::Error> {
        let end = end.min(self.shared.map.borrow().next_index());
        self.shared
            .entries_limited(start, end, REPLICATION_BYTES)
            .await
    }

    async fn read_vote(&mut self) -> Result<Option<Vote>, io::Error> {
        Ok(self.shared.meta.borrow().vote)
    }

    /// From the per-term anchors: no log read (openraft's default binary
    /// search would read entries all over the log at startup).
    async fn get_key_log_ids(
        &mut self,
        range: std::ops::RangeInclusive<LogId>,
    ) -> Result<Vec<LogId>, io::Error> {
        Ok(self
            .shared
            .map
            .borrow()
            .key_log_ids(range.start().index, range.end()))
    }
}

impl RaftLogStorage<TypeConfig> for LogStore {
    type LogReader = LogStore;

    async fn get_log_state(&mut self) -> Result<LogState<TypeConfig>, io::Error> {
        let last = self.shared.map.borrow().last_log_id();
        let purged = self.shared.meta.borrow().purged;
        Ok(LogState {
            last_log_id: last.or(purged),
            last_purged_log_id: purged,
        })
    }

    async fn get_log_reader(&mut self) -> Self::LogReader {
        self.clone()
    }

    /// Durable before returning: a vote must survive a crash (Raft safety).
    async fn save_vote(&mut self, vote: &Vote) -> Result<(), io::Error> {
        self.shared.meta.borrow_mut().vote = Some(*vote);
        self.shared.persist().await.map_err(to_io)
    }

    /// Kept in memory and written with the next state-file write: a lower
    /// commit point after a crash is safe (openraft re-learns it).
    async fn save_committed(&mut self, committed: Option<LogId>) -> Result<(), io::Error> {
        self.shared.meta.borrow_mut().committed = committed;
        Ok(())
    }

    async fn read_committed(&mut self) -> Result<Option<LogId>, io::Error> {
        Ok(self.shared.meta.borrow().committed)
    }

    /// Writes each data entry once into the partition log: the leader's
    /// new batches are stamped here (base offset = log end offset, leader
    /// epoch = term), a follower's arrive stamped. Blank and membership
    /// entries go to the state file, written (durably) before this
    /// returns. One fdatasync of the log covers the whole call, in the
    /// background; openraft hears of it through `callback`.
    async fn append<I>(
        &mut self,
        entries: I,
        callback: IOFlushed<TypeConfig>,
    ) -> Result<(), io::Error>
    where
        I: IntoIterator<Item = Entry> + OptionalSend,
        I::IntoIter: OptionalSend,
    {
        let sh = &self.shared;
        let mut side_changed = false;
        for entry in entries {
            let term = entry.log_id.leader_id.term;
            let epoch = epoch_of(term)?;
            let expected = sh.map.borrow().next_index();
            if entry.log_id.index != expected {
                return Err(to_io(format!(
                    "append of raft index {} but the log's next index is {expected}",
                    entry.log_id.index
                )));
            }
            let batch = match entry.payload {
                Payload::Normal(batch) => batch,
                payload => {
                    let offset = sh.map.borrow().end_offset();
                    sh.meta.borrow_mut().side.insert(
                        expected,
                        SideEntry {
                            log_id: entry.log_id,
                            offset,
                            payload,
                        },
                    );
                    sh.map.borrow_mut().push(term, offset, offset);
                    side_changed = true;
                    continue;
                }
            };
            let info = match batch.unstamped {
                Some(log_append_time) => {
                    let buf = batch
                        .bytes
                        .try_into_mut()
                        .unwrap_or_else(|b| BytesMut::from(&b[..]));
                    // A new batch's CRC was checked where it entered
                    // Raft (see `KafkaBatch::new`).
                    sh.log.append_verified(buf, epoch, log_append_time).await
                }
                None => sh.log.append_replicated(batch.bytes).await,
            }
            .map_err(to_io)?;
            sh.map
                .borrow_mut()
                .push(term, info.base_offset, info.last_offset + 1);
        }
        // Rare (one blank per election, one entry per voter change), so a
        // state-file write each time is cheap. Data appended before them
        // in this call may still be unsynced: if a crash loses it, the
        // entries recorded past the recovered log end are dropped at open.
        if side_changed {
            sh.persist().await.map_err(to_io)?;
        }
        if sh.sync {
            let log = sh.log.clone();
            monoio::spawn(async move {
                let res = log.flush().await.map_err(to_io);
                if let Err(e) = &res {
                    tracing::error!(dir = %log.dir().display(), error = %e, "raft log flush failed");
                }
                callback.io_completed(res);
            });
        } else {
            callback.io_completed(Ok(()));
        }
        Ok(())
    }

    async fn truncate_after(&mut self, last: Option<LogId>) -> Result<(), io::Error> {
        let sh = &self.shared;
        let first = sh.map.borrow().first.0;
        let keep = last.map_or(first, |l| l.index + 1);
        if keep >= sh.map.borrow().next_index() {
            return Ok(());
        }
        let offset = sh.offset_of(keep).await?;
        tracing::info!(dir = %sh.dir.display(), from_index = keep, from_offset = offset, "truncating divergent raft log");
        sh.map.borrow_mut().truncate(keep, offset);
        sh.meta.borrow_mut().side.split_off(&keep);
        // The state file must not keep anchors or entries in the part
        // being replaced: write it before the log is cut.
        sh.persist().await.map_err(to_io)?;
        if offset < sh.log.log_end_offset() {
            sh.log.truncate(offset).await.map_err(to_io)?;
        }
        Ok(())
    }

    /// Nothing is deleted for Raft's sake: the partition log is the Kafka
    /// data and retention, DeleteRecords and compaction decide what goes.
    /// Purging hands the prefix over to them: the purge point becomes
    /// the log's max collectible offset. Flushed and recorded first, so
    /// that the state file never points into a lost tail and the log
    /// never loses what the state file still counts as Raft's.
    async fn purge(&mut self, log_id: LogId) -> Result<(), io::Error> {
        self.shared.purge(log_id).await
    }
}

/// openraft's state machine: the high watermark.
#[derive(Clone)]
pub struct StateMachine {
    pub(crate) shared: Rc<Shared>,
}

impl RaftStateMachine<TypeConfig> for StateMachine {
    type SnapshotData = ResetSource;
    type SnapshotBuilder = SnapshotBuilder;

    async fn applied_state(&mut self) -> Result<(Option<LogId>, StoredMembership), io::Error> {
        let meta = self.shared.meta.borrow();
        Ok((meta.applied.as_ref().map(|a| a.0), meta.membership.clone()))
    }

    async fn apply<Strm>(&mut self, mut entries: Strm) -> Result<(), io::Error>
    where
        Strm: Stream<Item = Result<EntryResponder<TypeConfig>, io::Error>> + Unpin + OptionalSend,
    {
        let sh = &self.shared;
        let mut membership_changed = false;
        let hw_before = sh.hw.get();
        while let Some(item) = entries.next().await {
            let (entry, responder) = item?;
            let index = entry.log_id.index;
            let (base, next) = match &entry.payload {
                Payload::Normal(b) => match b.offsets {
                    Some(offsets) => offsets,
                    None => {
                        let rb = RecordBatch::new(b.bytes.clone()).map_err(to_io)?;
                        (rb.base_offset(), rb.next_offset())
                    }
                },
                Payload::Blank | Payload::Membership(_) => {
                    (sh.offset_of(index).await?, sh.offset_of(index + 1).await?)
                }
            };
            {
                let mut meta = sh.meta.borrow_mut();
                if let Payload::Membership(m) = &entry.payload {
                    meta.membership = StoredMembership::new(Some(entry.log_id), m.clone());
                    membership_changed = true;
                }
                meta.applied = Some((entry.log_id, next));
            }
            sh.hw.set(next);
            if let Some(r) = responder {
                r.send(Appended {
                    base_offset: base,
                    last_offset: next - 1,
                });
            }
        }
        if membership_changed || sh.hw.get() - sh.meta_hw.get() >= META_EVERY_OFFSETS {
            sh.persist().await.map_err(to_io)?;
        }
        if sh.hw.get() != hw_before {
            // Cloned out first: the listener may wake tasks that read the
            // replica again, never this cell, but keep the borrow short.
            let listener = sh.hw_listener.borrow().clone();
            if let Some(f) = listener {
                f();
            }
        }
        Ok(())
    }

    async fn get_snapshot_builder(&mut self) -> Self::SnapshotBuilder {
        SnapshotBuilder {
            shared: self.shared.clone(),
        }
    }

    /// A follower behind its leader's purge point: a log reset (see
    /// [`Shared::install_reset`]).
    async fn install_snapshot(
        &mut self,
        meta: &SnapshotMeta,
        source: ResetSource,
    ) -> Result<(), io::Error> {
        self.shared.install_reset(meta, source).await
    }

    async fn get_current_snapshot(&mut self) -> Result<Option<Snapshot>, io::Error> {
        let snap = self.shared.meta.borrow().snapshot.clone();
        match snap {
            Some((id, m)) => Ok(Some(self.shared.snapshot_of(id, m).await?)),
            None => Ok(None),
        }
    }
}

/// Builds openraft's snapshot: a record of the apply point, which is
/// enough because the data is the partition log (every entry up to the
/// apply point is in it, and stays until purged and then collected).
pub struct SnapshotBuilder {
    shared: Rc<Shared>,
}

impl RaftSnapshotBuilder<TypeConfig> for SnapshotBuilder {
    type SnapshotData = ResetSource;

    async fn build_snapshot(&mut self) -> Result<Snapshot, io::Error> {
        let (id, m) = self
            .shared
            .snapshot_applied()
            .ok_or_else(|| to_io("no entry applied yet: nothing to snapshot"))?;
        self.shared.snapshot_of(id, m).await
    }
}
