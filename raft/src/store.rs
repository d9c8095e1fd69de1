//! openraft's storage traits over the partition log.
//!
//! [`LogStore`] is openraft's log: each entry is one batch of the
//! [`Log`] (Kafka data batches as they are; blank and membership entries as
//! Tidemark control batches, see `types.rs`). Nothing of an entry is
//! written anywhere else. [`StateMachine`] is the high watermark: applying
//! an entry moves it past the entry's last offset, which is exactly "the
//! Raft commit point is the high watermark" (invariant 2).
//!
//! Both share one [`Shared`] (an `Rc`: one partition belongs to one shard,
//! invariant 3, and openraft runs `single-threaded` here).

use std::cell::{Cell, RefCell};
use std::fmt::Debug;
use std::io;
use std::ops::{Bound, RangeBounds};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::BytesMut;
use futures_util::{Stream, StreamExt};
use kafka_protocol::records::RecordBatch;
use openraft::storage::{EntryResponder, IOFlushed, LogState, RaftLogStorage, RaftStateMachine};
use openraft::{OptionalSend, RaftLogReader, RaftSnapshotBuilder};
use tidemark_storage::{FlushPolicy, Log, LogConfig};

use crate::error::{Error, to_io};
use crate::index::{IndexMap, Locate};
use crate::meta::Meta;
use crate::types::{
    Appended, Entry, LogId, Payload, StoredMembership, Term, TypeConfig, Vote, control_batch,
    decode_payload, log_id,
};

/// Bytes read from the log per read call when collecting entries.
const READ_CHUNK: usize = 1 << 20;
/// The state file is rewritten (moving its recovery anchor, the applied
/// point) each time the high watermark has moved this many offsets, so a
/// crash rescans a bounded tail of the log at the next open.
const META_EVERY_OFFSETS: i64 = 1 << 16;

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
    meta_hw: Cell<i64>,
    /// Whether appends are fdatasynced before openraft hears they are
    /// flushed (the log's configured `SyncBeforeAck`).
    sync: bool,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn epoch_of(term: Term) -> Result<i32, io::Error> {
    i32::try_from(term)
        .map_err(|_| to_io(format!("term {term} exceeds the Kafka leader epoch range")))
}

impl Shared {
    /// Opens the partition log and the Raft state beside it, and rebuilds
    /// the index map by scanning the log from the newest valid anchor.
    pub async fn open(dir: &Path, mut config: LogConfig) -> Result<Rc<Shared>, Error> {
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
        let log = Log::open(dir, config).await?;
        let (log_start, leo) = (log.log_start_offset(), log.log_end_offset());
        let mut meta = match Meta::load(dir)? {
            Some(m) => m,
            None if leo > log_start => return Err(Error::ForeignLog(dir.to_path_buf())),
            None => {
                let m = Meta::fresh(log_start);
                m.store(dir)?;
                m
            }
        };
        if meta.first.1 < log_start {
            // Retention or DeleteRecords moved the log start: the raft
            // index of the first batch is no longer known.
            return Err(Error::CorruptState(format!(
                "log start offset {log_start} is past the first raft entry at offset {}",
                meta.first.1
            )));
        }
        // Anchors past the log end point at batches lost in a crash
        // (never synced); they are dropped.
        meta.epochs.retain(|e| e.2 < leo);
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
        while offset < leo {
            let r = log.read(offset, READ_CHUNK, None).await?;
            if r.batches.is_empty() {
                break;
            }
            for b in r.batches {
                let rb = RecordBatch::new(b).map_err(Error::Decode)?;
                if rb.base_offset() != offset {
                    return Err(Error::CorruptState(format!(
                        "raft anchor at offset {offset} is not a batch boundary (batch at {})",
                        rb.base_offset()
                    )));
                }
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
        // The apply and commit points cannot be past the recovered log: a
        // leader may apply an entry a quorum of others made durable before
        // its own copy was synced. Everything up to them was committed, so
        // any prefix of it is too.
        let last = map.last_log_id();
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
        let hw = meta.applied.as_ref().map_or(meta.first.1, |a| a.1);
        tracing::debug!(dir = %dir.display(), leo, scanned, last = ?last, hw, "raft log recovered");
        Ok(Rc::new(Shared {
            log,
            dir: dir.to_path_buf(),
            map: RefCell::new(map),
            meta: RefCell::new(meta),
            hw: Cell::new(hw),
            meta_hw: Cell::new(hw),
            sync,
        }))
    }

    /// Writes the state file from the current state.
    pub fn persist(&self) -> Result<(), Error> {
        let mut meta = self.meta.borrow_mut();
        {
            let map = self.map.borrow();
            meta.first = map.first;
            meta.epochs.clone_from(&map.epochs);
        }
        meta.store(&self.dir)?;
        self.meta_hw.set(self.hw.get());
        Ok(())
    }

    /// The Kafka offset where entry `index` starts (`next_index`: the log
    /// end offset), counting batches from an anchor when needed.
    pub async fn offset_of(&self, index: u64) -> Result<i64, io::Error> {
        let loc = self.map.borrow().locate(index);
        match loc {
            Locate::Exact(o) => Ok(o),
            Locate::OutOfRange => Err(to_io(format!("raft index {index} is not in the log"))),
            Locate::Scan {
                index: mut i,
                offset: mut off,
            } => {
                while i < index {
                    let r = self.log.read(off, READ_CHUNK, None).await.map_err(to_io)?;
                    if r.batches.is_empty() {
                        return Err(to_io(format!("log ends before raft index {index}")));
                    }
                    for b in &r.batches {
                        if i == index {
                            break;
                        }
                        let rb = RecordBatch::new(b.clone()).map_err(to_io)?;
                        off = rb.next_offset();
                        i += 1;
                    }
                }
                Ok(off)
            }
        }
    }

    /// Entries `[start, end)`, read from the log.
    async fn entries(&self, start: u64, end: u64) -> Result<Vec<Entry>, io::Error> {
        let mut out = Vec::with_capacity((end.saturating_sub(start)).min(4096) as usize);
        if start >= end {
            return Ok(out);
        }
        let loc = self.map.borrow().locate(start);
        let (mut i, mut off) = match loc {
            Locate::Exact(o) => (start, o),
            Locate::Scan { index, offset } => (index, offset),
            Locate::OutOfRange => {
                return Err(to_io(format!("raft index {start} is not in the log")));
            }
        };
        while i < end {
            let r = self.log.read(off, READ_CHUNK, None).await.map_err(to_io)?;
            if r.batches.is_empty() {
                return Err(to_io(format!(
                    "log ends at offset {off} before raft index {i} (wanted [{start}, {end}))"
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
                off = rb.next_offset();
                if i >= start {
                    let term = rb.partition_leader_epoch();
                    let known = self.map.borrow().term_at(i);
                    if term < 0 || known != Some(term as Term) {
                        return Err(to_io(format!(
                            "batch at {} has leader epoch {term}, raft index {i} is in term {known:?}",
                            rb.base_offset()
                        )));
                    }
                    let payload = decode_payload(&rb).map_err(to_io)?;
                    out.push(Entry {
                        log_id: log_id(term as Term, i),
                        payload,
                    });
                }
                i += 1;
            }
        }
        Ok(out)
    }
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
        self.shared.persist().map_err(to_io)
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

    /// Writes each entry once into the partition log: the leader's new
    /// batches are stamped here (base offset = log end offset, leader
    /// epoch = term), a follower's arrive stamped; blank and membership
    /// entries become control batches. One fdatasync covers the whole
    /// call, in the background; openraft hears of it through `callback`.
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
            let info = match entry.payload {
                Payload::Normal(batch) => match batch.unstamped {
                    Some(log_append_time) => {
                        let buf = batch
                            .bytes
                            .try_into_mut()
                            .unwrap_or_else(|b| BytesMut::from(&b[..]));
                        sh.log.append(buf, epoch, log_append_time).await
                    }
                    None => sh.log.append_replicated(batch.bytes).await,
                },
                other => {
                    let buf = control_batch(&other, now_ms()).map_err(to_io)?;
                    sh.log.append(buf, epoch, None).await
                }
            }
            .map_err(to_io)?;
            sh.map
                .borrow_mut()
                .push(term, info.base_offset, info.last_offset + 1);
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
        // The state file must not keep anchors into the part being
        // replaced: write it before the log is cut.
        sh.persist().map_err(to_io)?;
        sh.log.truncate(offset).await.map_err(to_io)?;
        Ok(())
    }

    /// Entries are never deleted for Raft's sake: the partition log is the
    /// Kafka data and its retention decides. The purge point is recorded.
    async fn purge(&mut self, log_id: LogId) -> Result<(), io::Error> {
        self.shared.meta.borrow_mut().purged = Some(log_id);
        self.shared.persist().map_err(to_io)
    }
}

/// openraft's state machine: the high watermark.
#[derive(Clone)]
pub struct StateMachine {
    pub(crate) shared: Rc<Shared>,
}

impl RaftStateMachine<TypeConfig> for StateMachine {
    type SnapshotData = ();
    type SnapshotBuilder = NoSnapshots;

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
        while let Some(item) = entries.next().await {
            let (entry, responder) = item?;
            let index = entry.log_id.index;
            let (base, next) = match &entry.payload {
                Payload::Normal(b) => {
                    let rb = RecordBatch::new(b.bytes.clone()).map_err(to_io)?;
                    (rb.base_offset(), rb.next_offset())
                }
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
            sh.persist().map_err(to_io)?;
        }
        Ok(())
    }

    async fn get_snapshot_builder(&mut self) -> Self::SnapshotBuilder {
        NoSnapshots
    }

    async fn install_snapshot(
        &mut self,
        _meta: &openraft::alias::SnapshotMetaOf<TypeConfig>,
        _snapshot: (),
    ) -> Result<(), io::Error> {
        Err(no_snapshots())
    }

    async fn get_current_snapshot(
        &mut self,
    ) -> Result<Option<openraft::alias::SnapshotOf<TypeConfig, ()>>, io::Error> {
        Ok(None)
    }
}

fn no_snapshots() -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        "snapshots are not supported yet: the partition log is the state, and a follower \
         behind the leader's log start needs a log reset (see the raft crate docs)",
    )
}

/// Snapshots are never built (the snapshot policy is `Never`); this
/// builder refuses if asked.
pub struct NoSnapshots;

impl RaftSnapshotBuilder<TypeConfig> for NoSnapshots {
    type SnapshotData = ();

    async fn build_snapshot(
        &mut self,
    ) -> Result<openraft::alias::SnapshotOf<TypeConfig, ()>, io::Error> {
        Err(no_snapshots())
    }
}
