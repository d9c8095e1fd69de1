//! [`Log`]: one partition's segmented log.
//!
//! # Concurrency model
//!
//! A log belongs to one thread (one shard) and is shared between that
//! thread's tasks as `Rc<Log>`; every method takes `&self`. State lives in
//! a `RefCell` that is never borrowed across an `.await`. Appends are
//! synchronous memory operations: they assign offsets, update the in-memory
//! index and tail cache and queue an I/O op. Whoever then needs durability
//! takes the single I/O role and runs *all* queued ops with one fdatasync
//! at the end, while the others wait: appends that arrive together share an
//! fdatasync (group commit), and the order of file operations is the order
//! of the log operations that queued them.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use kafka_protocol::records::{RecordBatch, RecordBatchMut, RecordBatches, Stamp, stamp_batch};
use monoio::fs::File;

use crate::config::{FlushPolicy, LogConfig};
use crate::direct_read::{DataReader, ReadClass};
use crate::error::{Result, StorageError};
use crate::failpoint;
use crate::file::{self, ScanEnd, SegmentWriter};
use crate::fs_pool;
use crate::index::{self, SegIndex};
use crate::notify::Notify;
use crate::producers::{PRODUCER_ID_EXPIRATION_MS, ProducerBatch, ProducerBatches};
use crate::spare::{self, Spare};
use crate::txn::{
    AbortedRange, AbortedTxn, MAX_STATE_FILE_BYTES, ProducerTxnState, Transactions, TxnMarkerInfo,
};

const RECOVERY_POINT: &str = "recovery-point-offset-checkpoint";
const LOG_START: &str = "log-start-offset-checkpoint";
const EPOCHS: &str = "leader-epoch-checkpoint";
pub(crate) const CLEANER: &str = "cleaner-offset-checkpoint";
const INDEX_CACHE_SEGMENTS: usize = 8;
/// The tail cache holds at most this many times `tail_cache_bytes` for
/// followers that still need it (see [`Log::set_cache_floor`]).
pub const CACHE_FLOOR_FACTOR: usize = 8;

/// The files of one segment (`<base>.<ext>`); the snapshot holds the
/// producer state at the segment's base.
const SEGMENT_FILES: [&str; 5] = ["log", "index", "timeindex", "txnindex", "snapshot"];

/// Producer-state snapshots kept (the latest segment bases'): a truncation
/// into one of the last segments still finds one at or below its cut.
const SNAPSHOTS_KEPT: usize = 3;

/// The most aborted transactions one [`Log::aborted_transactions`] returns.
pub const MAX_ABORTED_PER_READ: usize = 10_000;

/// What an append assigned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppendInfo {
    pub base_offset: i64,
    pub last_offset: i64,
    pub log_start_offset: i64,
}

/// Batches read from the log, as stored: concatenated they are a Fetch
/// response's `records`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadResult {
    pub batches: Vec<Bytes>,
    /// Total bytes in `batches`.
    pub bytes: usize,
    /// The offset after the last returned batch (where the next read
    /// starts), or the requested offset when nothing was returned.
    pub next_offset: i64,
}

/// Where a sealed segment was found corrupt; the log serves nothing at or
/// past `offset` until truncated below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corruption {
    pub path: PathBuf,
    pub position: u64,
    pub offset: i64,
    pub reason: String,
}

impl Corruption {
    fn error(&self) -> StorageError {
        StorageError::Corrupt {
            path: self.path.clone(),
            position: self.position,
            offset: self.offset,
            reason: self.reason.clone(),
        }
    }
}

pub(crate) struct Segment {
    pub base: i64,
    /// Offset after the last batch (the next segment's base for sealed
    /// segments, which may exceed the last batch's after compaction).
    pub next: i64,
    /// Logical size including unflushed bytes.
    pub size: u64,
    /// Bytes that are on disk and may be read from the file.
    pub disk_size: u64,
    pub max_ts: i64,
    first_append: Option<Instant>,
    /// The in-memory index; only the active segment has one.
    index: Option<SegIndex>,
    /// The consumers' reader of the segment (the active one's too), opened
    /// by the first read that needs the disk and kept until the log parks.
    reader: Option<Rc<DataReader>>,
    /// Bumped when the segment's file is replaced or truncated, so that a
    /// compaction prepared against an older version is discarded.
    pub generation: u64,
}

pub(crate) enum IoOp {
    Write {
        base: i64,
        data: Bytes,
    },
    Roll {
        new: i64,
        index: Rc<SegIndex>,
        /// The sealed segment's aborted transactions (its `.txnindex`).
        aborted: Vec<AbortedRange>,
        /// The producer-state snapshot at `new`.
        snapshot: Vec<u8>,
        /// An older snapshot to remove (see [`SNAPSHOTS_KEPT`]).
        drop_snapshot: Option<i64>,
    },
    Checkpoint {
        name: &'static str,
        data: Vec<u8>,
    },
    /// Removes a prefix of the log (retention, DeleteRecords): the
    /// segments' bases and end offsets, and the number of the first read
    /// that started after they left the log (`spare::ReadsInFlight`).
    Delete {
        segments: Vec<(i64, i64)>,
        reads_before: u64,
    },
}

pub(crate) struct State {
    pub segments: BTreeMap<i64, Segment>,
    pub log_start: i64,
    leo: i64,
    durable: i64,
    epochs: Vec<(i32, i64)>,
    cache: VecDeque<(i64, i64, Bytes)>,
    cache_bytes: usize,
    ops: Vec<IoOp>,
    unflushed: usize,
    writer: Option<SegmentWriter>,
    /// The active segment's writer is closed (an idle log, see
    /// [`Log::park`]): its base and logical length; the next flush opens
    /// it again.
    parked: Option<(i64, u64)>,
    /// The log's folder and first segment were created and not yet made
    /// durable: the first flush fsyncs the folder and its parent, unless a
    /// syncfs that started after the creation (the mark held here) has
    /// completed since (a batch of new partitions is synced at once).
    dir_unsynced: Option<Option<(u64, u64)>>,
    failed: Option<String>,
    /// `failed` came from a full file system (see
    /// [`StorageError::is_no_space`]).
    failed_no_space: bool,
    corruption: Option<Corruption>,
    index_cache: VecDeque<(i64, u64, Rc<SegIndex>)>,
    exclusive: bool,
    /// The idempotent producers' last batches (see [`Log::producer_batches`]).
    producers: ProducerBatches,
    /// Open, unreplicated and aborted transactions (see `txn.rs`).
    pub(crate) txns: Transactions,
}

/// One partition's log. See the module docs for the concurrency model.
pub struct Log {
    pub(crate) dir: PathBuf,
    pub(crate) config: LogConfig,
    pub(crate) st: RefCell<State>,
    io_busy: Cell<bool>,
    pub(crate) cleaning: Cell<bool>,
    /// Retention, DeleteRecords and compaction leave offsets at and past
    /// this alone (see [`Log::set_max_collectible_offset`]).
    pub(crate) max_collectible: Cell<i64>,
    /// The tail cache keeps batches ending past this (see
    /// [`Log::set_cache_floor`]).
    cache_floor: Cell<i64>,
    syncs: Cell<u64>,
    /// When a batch was last appended (see [`Log::park_if_idle`]).
    last_append: Cell<std::time::Instant>,
    changed: Notify,
    direct: bool,
    /// Removed data files kept for the next segments (`crate::spare`).
    spares: RefCell<Vec<Spare>>,
    /// Reads in flight, so that a spare is never written over under one.
    reads: RefCell<spare::ReadsInFlight>,
    /// When the log last rolled (wall-clock ms; `spare::RECENT_ROLL_MS`).
    last_roll_ms: Cell<i64>,
}

/// A read in flight (`spare::ReadsInFlight`), ended when dropped.
pub(crate) struct ReadTicket<'a>(&'a Log, u64);

impl Drop for ReadTicket<'_> {
    fn drop(&mut self) {
        self.0.reads.borrow_mut().end(self.1);
    }
}

/// Holds the I/O role; releasing it wakes the waiters.
pub(crate) struct IoGuard<'a>(&'a Log);

impl Drop for IoGuard<'_> {
    fn drop(&mut self) {
        self.0.io_busy.set(false);
        self.0.changed.notify_all();
    }
}

/// Wall-clock milliseconds (producer id expiry).
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub(crate) fn seg_path(dir: &Path, base: i64, ext: &str) -> PathBuf {
    dir.join(format!("{base:020}.{ext}"))
}

pub(crate) fn parse_base(name: &str) -> Option<(i64, &str)> {
    let (stem, ext) = name.split_once('.')?;
    if stem.len() != 20 || !stem.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((stem.parse().ok()?, ext))
}

fn read_checkpoint(dir: &Path, name: &str) -> Option<String> {
    match std::fs::read_to_string(dir.join(name)) {
        Ok(s) => Some(s),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            tracing::warn!(file = name, error = %e, "unreadable checkpoint; ignoring it");
            None
        }
    }
}

fn encode_epochs(epochs: &[(i32, i64)]) -> Vec<u8> {
    let mut s = format!("0\n{}\n", epochs.len());
    for (e, o) in epochs {
        s.push_str(&format!("{e} {o}\n"));
    }
    s.into_bytes()
}

/// Frees removed segments' data a step at a time (`file::Removal`), a
/// pause before each step; one such task per retention pass of a log, so
/// the log's writes never wait for it. A failure is logged: the segments
/// are already out of the log, and `Log::open` removes what is left.
async fn free_in_steps(removals: Vec<file::Removal>) {
    for first in removals {
        let mut left = Some(first);
        while let Some(mut r) = left.take() {
            monoio::time::sleep(Duration::from_micros(file::DELETE_STEP_PAUSE_US)).await;
            match fs_pool::run(move || r.step().map(|done| (r, done))).await {
                Ok((_, true)) => {}
                Ok((r, false)) => left = Some(r),
                Err(e) => {
                    tracing::warn!(error = %e, "freeing a removed segment; its file is left for the next start")
                }
            }
        }
    }
}

/// Frees spare data files (`crate::spare`) in the background, the large
/// ones a step at a time like removed segments.
fn free_spares(spares: Vec<Spare>) {
    if spares.is_empty() {
        return;
    }
    monoio::spawn(async move {
        let started = fs_pool::run(move || {
            let mut removals = Vec::new();
            for s in spares {
                removals.extend(file::Removal::start(&s.path)?);
            }
            Ok(removals)
        })
        .await;
        match started {
            Ok(removals) => free_in_steps(removals).await,
            Err(e) => {
                tracing::warn!(error = %e, "freeing spare segment files; what is left goes at the next start")
            }
        }
    });
}

fn decode_epochs(s: &str) -> Option<Vec<(i32, i64)>> {
    let mut lines = s.lines();
    if lines.next()? != "0" {
        return None;
    }
    let n: usize = lines.next()?.parse().ok()?;
    let mut v = Vec::with_capacity(n.min(1 << 16));
    for _ in 0..n {
        let (e, o) = lines.next()?.split_once(' ')?;
        v.push((e.parse().ok()?, o.parse().ok()?));
    }
    Some(v)
}

impl Log {
    /// Opens (or creates) the log in `dir`, recovering it: segments after
    /// the recovery checkpoint (and any whose index is missing or damaged)
    /// are read batch by batch and checked by length and CRC-32C; the
    /// active segment is cut at its first torn or corrupt batch; a corrupt
    /// sealed segment is reported ([`Log::corruption`]) and nothing at or
    /// past the damage is served.
    pub async fn open(dir: impl AsRef<Path>, config: LogConfig) -> Result<Rc<Log>> {
        config.validate()?;
        file::check_uring_once();
        let dir = dir.as_ref().to_path_buf();
        std::fs::create_dir_all(&dir).map_err(|e| StorageError::io("mkdir", &dir, e))?;

        let mut bases = Vec::new();
        let mut snapshots = Vec::new();
        let entries = std::fs::read_dir(&dir).map_err(|e| StorageError::io("readdir", &dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| StorageError::io("readdir", &dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".tmp")
                || name.ends_with(".cleaned")
                || name.ends_with(file::DELETING_SUFFIX)
                || name.ends_with(crate::spare::SPARE_SUFFIX)
            {
                // Leftovers of an interrupted atomic write or compaction
                // (the originals are intact), of a segment removal
                // (`file::Removal`), or spares of the last run
                // (`crate::spare`): these are dropped.
                file::remove_if_exists(&entry.path())?;
                continue;
            }
            match parse_base(&name) {
                Some((base, "log")) => bases.push(base),
                Some((offset, "snapshot")) => snapshots.push(offset),
                _ => {}
            }
        }
        bases.sort_unstable();

        let ckpt_i64 =
            |name: &str| read_checkpoint(&dir, name).and_then(|s| s.trim().parse::<i64>().ok());
        let log_start_ckpt = ckpt_i64(LOG_START);
        let mut epochs_ckpt = read_checkpoint(&dir, EPOCHS).map(|s| decode_epochs(&s));
        let mut recovery_point = ckpt_i64(RECOVERY_POINT).unwrap_or(0);
        if let Some(None) = epochs_ckpt {
            tracing::warn!(dir = %dir.display(), "damaged leader-epoch checkpoint; rescanning the whole log");
            recovery_point = i64::MIN;
            epochs_ckpt = None;
        }
        // A new log's folder and first segment are made durable by its
        // first flush (`dir_unsynced`), not here: creating ten thousand
        // partitions would otherwise cost two directory fsyncs each, and
        // an empty log that a crash loses had nothing acknowledged.
        let mut dir_unsynced = None;
        if bases.is_empty() {
            let base = log_start_ckpt.unwrap_or(0).max(0);
            let path = seg_path(&dir, base, "log");
            std::fs::File::create(&path).map_err(|e| StorageError::io("create", &path, e))?;
            dir_unsynced = Some(file::sync_mark(&dir));
            bases.push(base);
        }

        let mut epochs: Vec<(i32, i64)> = epochs_ckpt
            .flatten()
            .unwrap_or_default()
            .into_iter()
            .filter(|&(_, o)| o < recovery_point)
            .collect();
        let mut segments = BTreeMap::new();
        let mut corruption = None;
        let mut active_index = SegIndex::new();
        // Producer and transaction state: the latest valid snapshot at a
        // segment base (`state_from`), the aborted transactions of the
        // segments below it from their `.txnindex`, and a read of every
        // segment from it on. Without one, every segment is read.
        let (state_from, mut txns, mut producers) =
            load_producer_state(&dir, &bases, &mut snapshots)?;
        let n = bases.len();
        for (i, &base) in bases.iter().enumerate() {
            let last = i + 1 == n;
            let next_base = bases.get(i + 1).copied().unwrap_or(i64::MAX);
            let path = seg_path(&dir, base, "log");
            let len = file::file_len(&path)?;
            let (ip, tp) = (
                seg_path(&dir, base, "index"),
                seg_path(&dir, base, "timeindex"),
            );
            if !last
                && base < recovery_point
                && base < state_from
                && let Some(idx) = index::read_files(len, &ip, &tp)?
            {
                segments.insert(base, Segment::sealed(base, next_base, len, idx.max_ts));
                continue;
            }
            // Below `state_from` the snapshot already holds the state.
            let record_state = base >= state_from;
            let reader = file::open_read(&path)?;
            let mut idx = SegIndex::new();
            let mut expected = base;
            let interval = u64::from(config.index_interval_bytes);
            let scan_epochs = base >= recovery_point;
            // Where a batch from before the segment's base was met: the
            // old bytes of a recycled file past its new data (`spare.rs`).
            let mut stale_at = None;
            let end = file::scan_segment(&reader, &path, len, config.max_batch_bytes, |pos, b| {
                if b.base_offset() < base {
                    stale_at = Some(pos);
                }
                if b.base_offset() < expected || b.last_offset() < b.base_offset() {
                    return Err(format!(
                        "batch offsets {}..={} out of order (expected >= {expected})",
                        b.base_offset(),
                        b.last_offset()
                    ));
                }
                if b.last_offset() >= next_base {
                    return Err(format!(
                        "batch offset {} overlaps the next segment",
                        b.last_offset()
                    ));
                }
                idx.on_batch(
                    b.base_offset(),
                    pos,
                    b.size() as u64,
                    b.max_timestamp(),
                    interval,
                );
                let e = b.partition_leader_epoch();
                if scan_epochs && e >= 0 && epochs.last().is_none_or(|l| e > l.0) {
                    epochs.push((e, b.base_offset()));
                }
                if record_state {
                    producers.record(b);
                    txns.record(b);
                }
                expected = b.next_offset();
                Ok(())
            })
            .await?;
            let size = match end {
                ScanEnd::Clean => len,
                ScanEnd::Invalid { position, reason } if last => {
                    // The active segment is preallocated: after a clean
                    // stop its data ends where zeros begin. Only a tail
                    // that is not zeros is worth a warning (the log is cut
                    // at `position` either way).
                    let zeros = position < len
                        && file::read_at(
                            &reader,
                            &path,
                            position,
                            (len - position).min(4096) as usize,
                        )
                        .await
                        .is_ok_and(|b| b.iter().all(|&x| x == 0));
                    if stale_at == Some(position) {
                        tracing::debug!(path = %path.display(), position, "recycled segment: old bytes past its data");
                    } else if position < len && !zeros {
                        tracing::warn!(path = %path.display(), position, %reason, "cutting torn or corrupt tail");
                    }
                    position
                }
                ScanEnd::Invalid { position, reason } => {
                    tracing::error!(path = %path.display(), position, offset = expected, %reason,
                        "corrupt sealed segment; refusing to serve from this offset on");
                    if corruption.is_none() {
                        corruption = Some(Corruption {
                            path: path.clone(),
                            position,
                            offset: expected,
                            reason,
                        });
                    }
                    position
                }
            };
            if last {
                let mut seg = Segment::sealed(base, expected, size, idx.max_ts);
                seg.disk_size = size;
                segments.insert(base, seg);
                active_index = idx;
            } else {
                idx.finish();
                if corruption.as_ref().is_none_or(|c| c.path != path) {
                    index::write_files(&idx, len, &ip, &tp)?;
                    if record_state {
                        file::write_atomic_if_changed(
                            &seg_path(&dir, base, "txnindex"),
                            &crate::txn::encode_txnindex(len, &txns.aborted_in(base, next_base)),
                            None,
                        )?;
                    }
                }
                // The scan's buffered reader is not kept: consumers read
                // through a `DataReader`, opened at their first read.
                segments.insert(base, Segment::sealed(base, next_base, size, idx.max_ts));
            }
        }

        let (&active_base, active) = segments.iter_mut().next_back().expect("one segment");
        // The writer opens at the first flush (a parked writer): an idle
        // partition holds no descriptor and no write buffer. Whether the
        // file system takes O_DIRECT is probed now.
        let (_, direct) =
            file::open_for_write(&seg_path(&dir, active_base, "log"), false, config.io_mode)?;
        let parked = Some((active_base, active.size));
        // The active segment has no index files: it is always rescanned.
        file::remove_if_exists(&seg_path(&dir, active_base, "index"))?;
        file::remove_if_exists(&seg_path(&dir, active_base, "timeindex"))?;
        file::remove_if_exists(&seg_path(&dir, active_base, "txnindex"))?;
        // Snapshots past the active segment's base describe batches that
        // are gone (a truncation cut short by a crash).
        for &o in snapshots.iter().filter(|&&o| o > active_base) {
            file::remove_if_exists(&seg_path(&dir, o, "snapshot"))?;
        }
        // Snapshots below the latest `SNAPSHOTS_KEPT` segment bases: a
        // crash between a roll's new snapshot and its removal of the
        // oldest leaves one behind, and nothing else would ever remove it
        // (each roll removes exactly one, retention only with its
        // segment). Kept, it would hold back compaction's removal of every
        // later transaction marker for good (see `compact.rs`).
        let oldest_kept = bases
            .len()
            .checked_sub(SNAPSHOTS_KEPT)
            .map_or(i64::MIN, |i| bases[i]);
        for &o in snapshots.iter().filter(|&&o| o < oldest_kept) {
            file::remove_if_exists(&seg_path(&dir, o, "snapshot"))?;
        }
        active.index = Some(active_index);
        active.reader = None;
        let leo = active.next;
        let first_base = *segments.keys().next().expect("one segment");
        let log_start = log_start_ckpt
            .unwrap_or(first_base)
            .max(first_base)
            .min(leo);
        epochs.retain(|&(_, o)| o < leo);
        truncate_epochs_from_start(&mut epochs, log_start);
        txns.drop_below(log_start);
        file::write_atomic_if_changed(
            &dir.join(EPOCHS),
            &encode_epochs(&epochs),
            Some(&encode_epochs(&[])),
        )?;
        file::write_atomic_if_changed(
            &dir.join(RECOVERY_POINT),
            active_base.to_string().as_bytes(),
            Some(b"0"),
        )?;

        let log = Rc::new(Log {
            dir,
            st: RefCell::new(State {
                segments,
                log_start,
                leo,
                durable: leo,
                epochs,
                cache: VecDeque::new(),
                cache_bytes: 0,
                ops: Vec::new(),
                unflushed: 0,
                writer: None,
                parked,
                dir_unsynced,
                failed: None,
                failed_no_space: false,
                corruption,
                index_cache: VecDeque::new(),
                exclusive: false,
                producers,
                txns,
            }),
            io_busy: Cell::new(false),
            cleaning: Cell::new(false),
            max_collectible: Cell::new(i64::MAX),
            cache_floor: Cell::new(i64::MAX),
            syncs: Cell::new(0),
            last_append: Cell::new(std::time::Instant::now()),
            changed: Notify::default(),
            direct,
            config,
            spares: RefCell::new(Vec::new()),
            reads: RefCell::new(spare::ReadsInFlight::default()),
            last_roll_ms: Cell::new(i64::MIN),
        });
        if let FlushPolicy::Interval { interval, .. } = log.config.flush {
            monoio::spawn(interval_flusher(Rc::downgrade(&log), interval));
        }
        tracing::debug!(dir = %log.dir.display(), log_start, leo, direct, "log opened");
        Ok(log)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn config(&self) -> &LogConfig {
        &self.config
    }

    /// How many flushes (each ending in one fdatasync) ran: with group
    /// commit, fewer than the appends they made durable.
    pub fn flush_count(&self) -> u64 {
        self.syncs.get()
    }

    /// Whether data files use O_DIRECT (false: buffered fallback).
    pub fn is_direct_io(&self) -> bool {
        self.direct
    }

    pub fn log_start_offset(&self) -> i64 {
        self.st.borrow().log_start
    }

    /// The log end offset: the offset the next append gets.
    pub fn log_end_offset(&self) -> i64 {
        self.st.borrow().leo
    }

    /// Offsets below this are fdatasynced.
    pub fn durable_offset(&self) -> i64 {
        self.st.borrow().durable
    }

    /// Base offset of the active segment (never compacted).
    pub fn active_segment_base(&self) -> i64 {
        *self
            .st
            .borrow()
            .segments
            .keys()
            .next_back()
            .expect("one segment")
    }

    pub fn segment_count(&self) -> usize {
        self.st.borrow().segments.len()
    }

    /// Total bytes of all segments.
    pub fn size_bytes(&self) -> u64 {
        self.st.borrow().segments.values().map(|s| s.size).sum()
    }

    /// The corruption found in a sealed segment, if any.
    pub fn corruption(&self) -> Option<Corruption> {
        self.st.borrow().corruption.clone()
    }

    /// On a Raft leader: the offset from which its followers still need
    /// batches (the lowest of their next offsets, among followers near the
    /// tail). The tail cache then keeps batches past it beyond
    /// `tail_cache_bytes`, up to [`CACHE_FLOOR_FACTOR`] times that, so
    /// that replication is served from memory: a follower more than the
    /// 8 MiB cache behind (two 4 MiB AppendEntries in flight are enough)
    /// was served by reading the segment file back, and those page-cache
    /// copies were 41% of a three-node leader's CPU. `i64::MAX` (the
    /// default; followers and single replicas) keeps only the plain cache.
    pub fn set_cache_floor(&self, offset: i64) {
        self.cache_floor.set(offset);
    }

    /// Lets the tail cache shrink now to what its size and floor allow
    /// (otherwise it shrinks after the next append's flush: a partition
    /// that went idle while a follower trailed would hold the extra).
    pub fn trim_cache(&self) {
        let mut st = self.st.borrow_mut();
        self.evict_cache(&mut st);
    }

    /// Bounds what retention, DeleteRecords and compaction may touch:
    /// only segments that end at or below `offset` are deleted or
    /// compacted, and the log start never moves past it. Unbounded
    /// (`i64::MAX`) unless set.
    ///
    /// Why: the Raft replica reads its log entries from this log. Below
    /// its purge point the batches are only Kafka data and may go; above
    /// it, deleting a segment or dropping a batch from it would remove
    /// Raft entries that a follower may still need, and would break the
    /// counting of entries (one batch, one entry). Redpanda has the same
    /// bound under the same name.
    pub fn set_max_collectible_offset(&self, offset: i64) {
        self.max_collectible.set(offset);
    }

    pub fn max_collectible_offset(&self) -> i64 {
        self.max_collectible.get()
    }

    /// The leader-epoch cache: (epoch, first offset) pairs.
    pub fn epochs(&self) -> Vec<(i32, i64)> {
        self.st.borrow().epochs.clone()
    }

    /// The idempotent producers' last batches in this log (up to five per
    /// producer id, each producer's in log order), and whether they account
    /// for the whole log from offset 0: when true, a producer id not among
    /// them never wrote to this log (or was forgotten by expiry, which makes
    /// it false). Kept as batches are appended and truncated, so this reads
    /// nothing, except after a truncation that cut all the remembered
    /// batches of a producer with older ones: then the segment holding the
    /// cut is read again once (see `producers.rs`).
    pub async fn producer_batches(&self) -> Result<(Vec<ProducerBatch>, bool)> {
        let _reading = self.start_read();
        for _ in 0..3 {
            let (from, until, generation) = {
                let st = self.st.borrow();
                let Some(until) = st.producers.stale_until() else {
                    return Ok(st.producers.snapshot());
                };
                let base = st
                    .segments
                    .range(..=until)
                    .next_back()
                    .map_or(st.log_start, |(&b, _)| b);
                (base.max(st.log_start), until, st.producers.generation)
            };
            let mut older = Vec::new();
            let mut offset = from;
            while offset < until {
                let r = self.read(offset, 1 << 20, Some(until)).await?;
                if r.batches.is_empty() {
                    break;
                }
                for b in r.batches {
                    let b = RecordBatch::new(b)?;
                    if b.base_offset() >= until {
                        break;
                    }
                    if let Some(p) = ProducerBatch::of(&b) {
                        older.push((p, b.max_timestamp()));
                    }
                }
                offset = r.next_offset;
            }
            let mut st = self.st.borrow_mut();
            if st.producers.generation == generation {
                tracing::debug!(dir = %self.dir.display(), from, until, "producer state read again after a truncation");
                st.producers.rebuilt(from, older);
                return Ok(st.producers.snapshot());
            }
        }
        Err(StorageError::Busy(
            "the log was truncated three times while its producers were read",
        ))
    }

    /// The last stable offset at high watermark `high_watermark`: the
    /// first offset of any open transaction, or of any completed one whose
    /// marker is not below the high watermark (a truncation may still cut
    /// it and reopen the transaction), else the high watermark; never
    /// below the log start (Kafka's `firstUnstableOffset` handling).
    /// read_committed consumers read below it. Forgets completed
    /// transactions once their marker is below the high watermark.
    pub fn last_stable_offset(&self, high_watermark: i64) -> i64 {
        let mut st = self.st.borrow_mut();
        let first = st.txns.first_unstable(high_watermark);
        first.max(st.log_start).min(high_watermark)
    }

    /// The aborted transactions whose data meets `[from, upper)` (Kafka:
    /// marker offset `>= from` and first offset `< upper`), by first
    /// offset; at most [`MAX_ABORTED_PER_READ`] of them (a read returns at
    /// most that many transactions' worth of data in practice; the bound
    /// keeps a hostile range from building a huge answer).
    pub fn aborted_transactions(&self, from: i64, upper: i64) -> Vec<AbortedTxn> {
        self.st
            .borrow()
            .txns
            .aborted_between(from, upper, MAX_ABORTED_PER_READ)
    }

    /// The first offset of `producer_id`'s open transaction in this log, if
    /// it has one (Kafka refuses its non-transactional batches meanwhile).
    pub fn open_transaction(&self, producer_id: i64) -> Option<i64> {
        self.st.borrow().txns.open_of(producer_id)
    }

    /// The open transactions: (producer id, first offset), by first offset.
    pub fn ongoing_transactions(&self) -> Vec<(i64, i64)> {
        let st = self.st.borrow();
        let mut v: Vec<(i64, i64)> = st.txns.ongoing.iter().map(|(&p, &o)| (p, o)).collect();
        v.sort_by_key(|&(p, o)| (o, p));
        v
    }

    /// Each transactional producer's last marker (its producer epoch and
    /// coordinator epoch), so that a new leader fences zombies and stale
    /// coordinators as the old one did.
    pub fn producer_markers(&self) -> Vec<TxnMarkerInfo> {
        self.st.borrow().txns.markers.values().copied().collect()
    }

    /// Every producer this log remembers (idempotent batches, markers, open
    /// transactions), for DescribeProducers. Reads nothing: a producer
    /// state made stale by a truncation is shown as it is.
    pub fn producer_states(&self) -> Vec<ProducerTxnState> {
        let st = self.st.borrow();
        let mut out: HashMap<i64, ProducerTxnState> = HashMap::new();
        let blank = |producer_id| ProducerTxnState {
            producer_id,
            producer_epoch: -1,
            last_sequence: -1,
            last_timestamp: -1,
            coordinator_epoch: -1,
            current_txn_start_offset: -1,
        };
        for (b, ts) in st.producers.last_batches() {
            let e = out
                .entry(b.producer_id)
                .or_insert_with(|| blank(b.producer_id));
            e.producer_epoch = b.epoch;
            e.last_sequence = if b.base_sequence < 0 {
                -1
            } else {
                ((i64::from(b.base_sequence) + i64::from(b.records) - 1)
                    % (i64::from(i32::MAX) + 1)) as i32
            };
            e.last_timestamp = ts;
        }
        for m in st.txns.markers.values() {
            let e = out
                .entry(m.producer_id)
                .or_insert_with(|| blank(m.producer_id));
            if m.producer_epoch > e.producer_epoch {
                e.producer_epoch = m.producer_epoch;
                e.last_sequence = -1;
            }
            e.coordinator_epoch = m.coordinator_epoch;
            e.last_timestamp = e.last_timestamp.max(m.timestamp);
        }
        for (&pid, &first) in &st.txns.ongoing {
            out.entry(pid)
                .or_insert_with(|| blank(pid))
                .current_txn_start_offset = first;
        }
        let mut v: Vec<ProducerTxnState> = out.into_values().collect();
        v.sort_by_key(|p| p.producer_id);
        v
    }

    /// Heap bytes held by in-memory indexes and the tail cache (for the
    /// memory-bound checks).
    pub fn memory_bytes(&self) -> usize {
        let st = self.st.borrow();
        st.cache_bytes
            + st.index_cache
                .iter()
                .map(|e| e.2.heap_bytes())
                .sum::<usize>()
            + st.segments
                .values()
                .filter_map(|s| s.index.as_ref())
                .map(SegIndex::heap_bytes)
                .sum::<usize>()
            + st.segments.len() * std::mem::size_of::<Segment>()
            + st.txns.heap_bytes()
    }

    /// Why the log refuses writes (an earlier write or fsync failed), and
    /// whether that was a full file system: such a log may be reopened once
    /// space is back ([`StorageError::is_no_space`]); any other failure
    /// waits for the process to restart. `None` while the log is writable.
    pub fn failure(&self) -> Option<(String, bool)> {
        let st = self.st.borrow();
        st.failed.clone().map(|f| (f, st.failed_no_space))
    }

    fn check_writable(st: &State) -> Result<()> {
        if let Some(f) = &st.failed {
            return Err(StorageError::Failed(f.clone()));
        }
        if st.exclusive {
            return Err(StorageError::Busy("a truncation is in progress"));
        }
        Ok(())
    }

    /// Appends one batch as the leader: stamps its base offset (the log end
    /// offset), `leader_epoch` and, for LogAppendTime topics, the append
    /// time in place (verifying its CRC first), and returns the offsets.
    /// With [`FlushPolicy::SyncBeforeAck`] it returns once the batch is on
    /// disk.
    pub async fn append(
        &self,
        batch: BytesMut,
        leader_epoch: i32,
        log_append_time: Option<i64>,
    ) -> Result<AppendInfo> {
        self.append_leader(batch, leader_epoch, log_append_time, true)
            .await
    }

    /// [`Log::append`] of a batch whose CRC the caller has verified (the
    /// broker's produce validation) or computed (a batch it built): the
    /// CRC is not checked again. Kafka checks a produced batch once; this
    /// second pass over every byte was half of a leader's CRC-32C time.
    /// (For LogAppendTime topics the CRC is rewritten, and the one pass
    /// that does so also checks it.)
    pub async fn append_verified(
        &self,
        batch: BytesMut,
        leader_epoch: i32,
        log_append_time: Option<i64>,
    ) -> Result<AppendInfo> {
        self.append_leader(batch, leader_epoch, log_append_time, false)
            .await
    }

    async fn append_leader(
        &self,
        batch: BytesMut,
        leader_epoch: i32,
        log_append_time: Option<i64>,
        check_crc: bool,
    ) -> Result<AppendInfo> {
        let info = {
            let mut st = self.st.borrow_mut();
            Self::check_writable(&st)?;
            self.check_size(batch.len())?;
            self.config.check_fits_segment(batch.len())?;
            let stamp = Stamp {
                base_offset: st.leo,
                partition_leader_epoch: leader_epoch,
                log_append_time,
            };
            let rb = stamp_and_check(batch, &stamp, check_crc)?;
            self.push_batch(&mut st, rb)?
        };
        self.after_append(info.last_offset + 1).await?;
        Ok(info)
    }

    /// Appends batches that already carry offsets and epochs (a Raft
    /// follower copying the leader's log). The first must start at the log
    /// end offset and the rest follow contiguously; CRCs are verified.
    pub async fn append_replicated(&self, batches: Bytes) -> Result<AppendInfo> {
        self.append_stamped(batches, false).await
    }

    /// Appends batches copied from another replica's log below its Raft
    /// log (a log reset, see [`Log::reset_to`]): like
    /// [`Log::append_replicated`], but offsets may skip forward, since
    /// compaction leaves gaps in the part of a log that is copied so.
    pub async fn append_copied(&self, batches: Bytes) -> Result<AppendInfo> {
        self.append_stamped(batches, true).await
    }

    async fn append_stamped(&self, batches: Bytes, gaps: bool) -> Result<AppendInfo> {
        let mut parsed = Vec::new();
        for b in RecordBatches::new(batches) {
            let b = b?;
            b.verify_crc()?;
            self.check_size(b.size())?;
            parsed.push(b);
        }
        let info = {
            let mut st = self.st.borrow_mut();
            Self::check_writable(&st)?;
            let mut expected = st.leo;
            for b in &parsed {
                let behind = if gaps {
                    b.base_offset() < expected
                } else {
                    b.base_offset() != expected
                };
                if behind || b.last_offset() < b.base_offset() {
                    return Err(StorageError::NonContiguous {
                        expected,
                        got: b.base_offset(),
                    });
                }
                expected = b.next_offset();
            }
            let mut info: Option<AppendInfo> = None;
            for b in parsed {
                let i = self.push_batch(&mut st, b)?;
                info = Some(match info {
                    Some(first) => AppendInfo {
                        last_offset: i.last_offset,
                        ..first
                    },
                    None => i,
                });
            }
            match info {
                Some(i) => i,
                None => {
                    return Err(StorageError::InvalidBatch(
                        kafka_protocol::records::RecordError::Truncated {
                            needed: 61,
                            available: 0,
                        },
                    ));
                }
            }
        };
        self.after_append(info.last_offset + 1).await?;
        Ok(info)
    }

    fn check_size(&self, size: usize) -> Result<()> {
        if size > self.config.max_batch_bytes {
            return Err(StorageError::BatchTooLarge {
                size,
                max: self.config.max_batch_bytes,
            });
        }
        Ok(())
    }

    async fn after_append(&self, target: i64) -> Result<()> {
        match self.config.flush {
            FlushPolicy::SyncBeforeAck => self.flush_to(target, false).await,
            FlushPolicy::Interval { bytes, .. } => {
                if self.st.borrow().unflushed >= bytes {
                    self.flush_to(target, false).await?;
                }
                Ok(())
            }
        }
    }

    /// The synchronous part of an append: roll if due, index, cache, queue.
    fn push_batch(&self, st: &mut State, b: RecordBatch) -> Result<AppendInfo> {
        self.last_append.set(std::time::Instant::now());
        if b.last_offset_delta() < 0 {
            return Err(StorageError::InvalidBatch(
                kafka_protocol::records::RecordError::InvalidBatchLength(b.last_offset_delta()),
            ));
        }
        let size = b.size() as u64;
        let roll = {
            let active = st.segments.values().next_back().expect("one segment");
            let roll_after_ms = self.roll_after_ms(active.base);
            active.size > 0
                && (active.size + size > self.config.segment_bytes
                    || active
                        .first_append
                        .is_some_and(|t| t.elapsed().as_millis() as i64 >= roll_after_ms))
        };
        if roll {
            self.roll(st);
        }
        let (base, next) = (b.base_offset(), b.next_offset());
        let interval = u64::from(self.config.index_interval_bytes);
        let active = st.segments.values_mut().next_back().expect("one segment");
        let idx = active.index.as_mut().expect("active segment has an index");
        idx.on_batch(base, active.size, size, b.max_timestamp(), interval);
        active.size += size;
        active.next = next;
        active.max_ts = active.max_ts.max(b.max_timestamp());
        active.first_append.get_or_insert_with(Instant::now);
        let seg_base = active.base;
        let epoch = b.partition_leader_epoch();
        if epoch >= 0 && st.epochs.last().is_none_or(|l| epoch > l.0) {
            st.epochs.push((epoch, base));
            let data = encode_epochs(&st.epochs);
            st.ops.push(IoOp::Checkpoint { name: EPOCHS, data });
        }
        st.producers.record(&b);
        st.txns.record(&b);
        let bytes = b.into_bytes();
        st.ops.push(IoOp::Write {
            base: seg_base,
            data: bytes.clone(),
        });
        st.cache.push_back((base, next, bytes));
        st.cache_bytes += size as usize;
        st.unflushed += size as usize;
        st.leo = next;
        Ok(AppendInfo {
            base_offset: base,
            last_offset: next - 1,
            log_start_offset: st.log_start,
        })
    }

    /// How long after its first append the segment at `base` rolls:
    /// `segment.ms`, less this segment's share of `segment.jitter.ms`
    /// (Kafka draws it at random per segment; here it is a hash of the
    /// base offset, as spread out and stable across restarts), and for a
    /// compacted log at most `max.compaction.lag.ms`, so that its records
    /// become cleanable in time (Kafka's `maxSegmentMs`).
    fn roll_after_ms(&self, base: i64) -> i64 {
        let c = &self.config;
        let mut ms = c.segment_ms;
        if c.segment_jitter_ms > 0 {
            let span = c.segment_jitter_ms.min(c.segment_ms).max(1) as u64;
            // splitmix64's finaliser: neighbouring offsets spread apart.
            let mut z = (base as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            ms -= (z % span) as i64;
        }
        if c.cleanup_policy.compacts() {
            ms = ms.min(c.max_compaction_lag_ms);
        }
        ms
    }

    fn roll(&self, st: &mut State) {
        let new = st.leo;
        let active = st.segments.values_mut().next_back().expect("one segment");
        let mut idx = active.index.take().expect("active index");
        idx.finish();
        let idx = Rc::new(idx);
        let (old_base, generation) = (active.base, active.generation);
        active.next = new;
        st.index_cache
            .push_back((old_base, generation, idx.clone()));
        if st.index_cache.len() > INDEX_CACHE_SEGMENTS {
            st.index_cache.pop_front();
        }
        let mut seg = Segment::sealed(new, new, 0, -1);
        seg.index = Some(SegIndex::new());
        st.segments.insert(new, seg);
        let now = now_ms();
        self.last_roll_ms.set(now);
        st.producers.expire(now);
        st.txns
            .expire(now.saturating_sub(PRODUCER_ID_EXPIRATION_MS));
        let aborted = st.txns.aborted_in(old_base, new);
        let snapshot = crate::txn::encode_snapshot(new, &st.txns, &st.producers.encode(new));
        let drop_snapshot = st.segments.keys().rev().nth(SNAPSHOTS_KEPT).copied();
        st.ops.push(IoOp::Roll {
            new,
            index: idx,
            aborted,
            snapshot,
            drop_snapshot,
        });
        tracing::debug!(dir = %self.dir.display(), old_base, new, "rolling segment");
    }

    /// Makes everything appended so far durable and runs queued file
    /// operations.
    pub async fn flush(&self) -> Result<()> {
        let leo = self.st.borrow().leo;
        self.flush_to(leo, true).await
    }

    pub(crate) async fn acquire_io(&self) -> IoGuard<'_> {
        while self.io_busy.get() {
            self.changed.wait().await;
        }
        self.io_busy.set(true);
        IoGuard(self)
    }

    /// Waits until offsets below `target` are durable (and, with `drain`,
    /// until no file operation is queued), running the flush itself when no
    /// one else is.
    async fn flush_to(&self, target: i64, drain: bool) -> Result<()> {
        loop {
            {
                let st = self.st.borrow();
                if let Some(f) = &st.failed {
                    return Err(StorageError::Failed(f.clone()));
                }
                if st.durable >= target && (!drain || st.ops.is_empty()) {
                    return Ok(());
                }
            }
            if self.io_busy.get() {
                self.changed.wait().await;
                continue;
            }
            let _guard = self.acquire_io().await;
            self.flush_once().await?;
        }
    }

    /// Runs every queued op, then one fdatasync. Caller holds the I/O role.
    pub(crate) async fn flush_once(&self) -> Result<()> {
        let (ops, target, writer, parked, dir_unsynced) = {
            let mut st = self.st.borrow_mut();
            let ops = std::mem::take(&mut st.ops);
            (
                ops,
                st.leo,
                st.writer.take(),
                st.parked.take(),
                st.dir_unsynced,
            )
        };
        let mut writer = writer;
        if writer.is_none()
            && let Some((base, len)) = parked
        {
            match self.reopen_writer(base, len).await {
                Ok(w) => writer = Some(w),
                Err(e) => {
                    // Not a failure of the log (nothing was written): put
                    // everything back for the next flush to try again.
                    let mut st = self.st.borrow_mut();
                    st.parked = Some((base, len));
                    let mut newer = std::mem::take(&mut st.ops);
                    st.ops = ops;
                    st.ops.append(&mut newer);
                    return Err(e);
                }
            }
        }
        let mut res = self.run_ops(ops, &mut writer).await;
        if res.is_ok()
            && let Some(mark) = dir_unsynced
        {
            if !file::synced_since(mark) {
                let dir = self.dir.clone();
                res = fs_pool::run(move || {
                    file::fsync_dir(&dir)?;
                    match dir.parent() {
                        Some(p) => file::fsync_dir(p),
                        None => Ok(()),
                    }
                })
                .await;
            }
            if res.is_ok() {
                self.st.borrow_mut().dir_unsynced = None;
            }
        }
        self.syncs.set(self.syncs.get() + 1);
        let mut st = self.st.borrow_mut();
        let Some(writer) = writer else {
            st.failed_no_space = res.as_ref().err().is_some_and(StorageError::is_no_space);
            let msg = res
                .err()
                .map_or("segment writer lost".to_string(), |e| e.to_string());
            st.failed = Some(msg.clone());
            return Err(StorageError::Failed(msg));
        };
        let written = writer.written();
        if let Some(seg) = st.segments.get_mut(&writer.base) {
            seg.disk_size = written;
        }
        st.writer = Some(writer);
        match res {
            Ok(()) => {
                st.durable = st.durable.max(target);
                st.unflushed = 0;
                self.evict_cache(&mut st);
                Ok(())
            }
            Err(e) => {
                tracing::error!(dir = %self.dir.display(), error = %e, "log write failed; the log is now failed");
                st.failed_no_space = e.is_no_space();
                st.failed = Some(e.to_string());
                Err(e)
            }
        }
    }

    /// Opens a parked writer again. Out of descriptors (the process or
    /// the system limit), it waits for others to be released (idle logs
    /// park theirs) for up to 10 s before giving up: the Raft layer
    /// treats a failed flush as fatal for the group.
    async fn reopen_writer(&self, base: i64, len: u64) -> Result<SegmentWriter> {
        const WAIT_MS: u64 = 50;
        const MAX_WAIT_MS: u64 = 10_000;
        let mut waited_ms = 0;
        loop {
            let r = SegmentWriter::open(
                base,
                seg_path(&self.dir, base, "log"),
                len,
                false,
                self.config.io_mode,
                self.prealloc_limit(),
                false,
            )
            .await;
            match r {
                Err(StorageError::Io { ref source, .. })
                    if matches!(source.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
                        && waited_ms < MAX_WAIT_MS =>
                {
                    if waited_ms == 0 {
                        tracing::warn!(dir = %self.dir.display(), "out of file descriptors reopening a log's writer; waiting (raise the open-file limit)");
                    }
                    monoio::time::sleep(std::time::Duration::from_millis(WAIT_MS)).await;
                    waited_ms += WAIT_MS;
                }
                other => return other,
            }
        }
    }

    /// The preallocation limit of a segment writer (0: none).
    fn prealloc_limit(&self) -> u64 {
        if self.config.preallocate {
            self.config.segment_bytes
        } else {
            0
        }
    }

    async fn run_ops(&self, ops: Vec<IoOp>, slot: &mut Option<SegmentWriter>) -> Result<()> {
        let mode = self.config.io_mode;
        let prealloc = self.prealloc_limit();
        for op in ops {
            match op {
                IoOp::Write { base, data } => {
                    let w = slot
                        .as_mut()
                        .ok_or(StorageError::Failed("no writer".into()))?;
                    debug_assert_eq!(base, w.base);
                    w.push(&data);
                }
                IoOp::Roll {
                    new,
                    index,
                    aborted,
                    snapshot,
                    drop_snapshot,
                } => {
                    // Seal first, then create the next file: a crash in
                    // between leaves a clean sealed segment as the last one.
                    let old = slot
                        .take()
                        .ok_or(StorageError::Failed("no writer".into()))?;
                    let old_base = old.base;
                    let len = old.seal().await?;
                    if let Some(s) = self.st.borrow_mut().segments.get_mut(&old_base) {
                        s.disk_size = len;
                        s.size = len;
                    }
                    failpoint::hit("roll.after_seal");
                    // The rest blocks on the file system (fsyncs, a file
                    // create, a journal commit under a heavy writer): off
                    // the shard's thread (`fs_pool`), in the same order.
                    let dir = self.dir.clone();
                    let index = (*index).clone();
                    let txnindex = crate::txn::encode_txnindex(len, &aborted);
                    let new_path = seg_path(&self.dir, new, "log");
                    let path = new_path.clone();
                    let spare = self.take_spare(new);
                    let opened = fs_pool::run(move || {
                        index::write_files(
                            &index,
                            len,
                            &seg_path(&dir, old_base, "index"),
                            &seg_path(&dir, old_base, "timeindex"),
                        )?;
                        // With the other index files: trusted at open only if
                        // they all are; else the segment is read again.
                        file::write_atomic(&seg_path(&dir, old_base, "txnindex"), &txnindex)?;
                        file::write_atomic(&seg_path(&dir, new, "snapshot"), &snapshot)?;
                        if let Some(b) = drop_snapshot {
                            file::remove_if_exists(&seg_path(&dir, b, "snapshot"))?;
                        }
                        match spare {
                            Some(s) => SegmentWriter::open_recycled(&s.path, &path, mode),
                            None => SegmentWriter::open_file(&path, 0, true, mode, prealloc),
                        }
                    })
                    .await?;
                    *slot = Some(
                        SegmentWriter::from_opened(new, new_path, opened, prealloc, true).await?,
                    );
                    let dir = self.dir.clone();
                    fs_pool::run(move || {
                        file::fsync_dir(&dir)?;
                        failpoint::hit("roll.after_create");
                        file::write_atomic(&dir.join(RECOVERY_POINT), new.to_string().as_bytes())
                    })
                    .await?;
                }
                IoOp::Checkpoint { name, data } => {
                    let path = self.dir.join(name);
                    fs_pool::run(move || file::write_atomic(&path, &data)).await?
                }
                IoOp::Delete {
                    segments,
                    reads_before,
                } => {
                    // The small files go at once. Each segment's data file
                    // is kept as a spare for the next segments while there
                    // is room (`crate::spare`), or renamed aside
                    // (`file::Removal`) and freed a step at a time, with
                    // pauses between, by a task of its own
                    // (`free_in_steps`), so this log's writes do not wait.
                    let now = now_ms();
                    self.release_unneeded_spares();
                    let rolled_recently =
                        now.saturating_sub(self.last_roll_ms.get()) <= spare::RECENT_ROLL_MS;
                    let room = if spare::allowed() && rolled_recently {
                        spare::MAX_SPARES_PER_LOG.saturating_sub(self.spares.borrow().len())
                    } else {
                        0
                    };
                    let dir = self.dir.clone();
                    let (removals, kept) = fs_pool::run(move || {
                        let mut removals = Vec::new();
                        let mut kept = Vec::new();
                        for (b, next) in segments {
                            for ext in SEGMENT_FILES {
                                let path = seg_path(&dir, b, ext);
                                if ext != "log" {
                                    file::remove_if_exists(&path)?;
                                    continue;
                                }
                                if kept.len() < room
                                    && let Some(s) =
                                        Spare::set_aside(&path, next, reads_before, now)?
                                {
                                    kept.push(s);
                                    continue;
                                }
                                removals.extend(file::Removal::start(&path)?);
                            }
                        }
                        file::fsync_dir(&dir)?;
                        Ok((removals, kept))
                    })
                    .await?;
                    self.spares.borrow_mut().extend(kept);
                    if !removals.is_empty() {
                        monoio::spawn(free_in_steps(removals));
                    }
                }
            }
        }
        let w = slot
            .as_mut()
            .ok_or(StorageError::Failed("no writer".into()))?;
        w.write_out().await?;
        w.sync().await
    }

    fn evict_cache(&self, st: &mut State) {
        let floor = self.cache_floor.get();
        let cap = self
            .config
            .tail_cache_bytes
            .saturating_mul(CACHE_FLOOR_FACTOR);
        while st.cache_bytes > self.config.tail_cache_bytes {
            match st.cache.front() {
                Some(&(_, next, ref b))
                    if next <= st.durable && (next <= floor || st.cache_bytes > cap) =>
                {
                    st.cache_bytes -= b.len();
                    st.cache.pop_front();
                }
                _ => break,
            }
        }
    }

    /// Reads batches from `offset` (the batch containing it first) up to
    /// `max_bytes` (at least one whole batch is returned, as Kafka does),
    /// stopping before `max_offset` (exclusive; the high watermark for
    /// consumers) when given. Recent batches come from memory; older ones
    /// from the segment files, checked by CRC.
    pub async fn read(
        &self,
        offset: i64,
        max_bytes: usize,
        max_offset: Option<i64>,
    ) -> Result<ReadResult> {
        self.read_as(offset, max_bytes, max_offset, ReadClass::Consumer)
            .await
    }

    /// [`Log::read`] for `class`: Raft replication and the replica's own
    /// reads pass [`ReadClass::Replication`], so that the device budget
    /// does not hold a follower's catch-up behind the appends the way it
    /// holds a consumer's.
    pub async fn read_as(
        &self,
        mut offset: i64,
        max_bytes: usize,
        max_offset: Option<i64>,
        class: ReadClass,
    ) -> Result<ReadResult> {
        let _reading = self.start_read();
        loop {
            let plan = {
                let mut st = self.st.borrow_mut();
                if offset < st.log_start || offset > st.leo {
                    return Err(StorageError::OffsetOutOfRange {
                        offset,
                        log_start: st.log_start,
                        log_end: st.leo,
                    });
                }
                let limit = max_offset.unwrap_or(st.leo).min(st.leo);
                let empty = ReadResult {
                    next_offset: offset,
                    ..Default::default()
                };
                if offset >= limit {
                    return Ok(empty);
                }
                if let Some(c) = &st.corruption
                    && offset >= c.offset
                {
                    return Err(c.error());
                }
                if st.cache.front().is_some_and(|e| e.0 <= offset) {
                    return Ok(read_cache(&st.cache, offset, max_bytes, limit));
                }
                let cache_start = st.cache.front().map_or(st.leo, |e| e.0);
                let Some(seg) = st
                    .segments
                    .range(..=offset)
                    .next_back()
                    .map(|(_, s)| s)
                    .filter(|s| offset < s.next)
                    .or_else(|| st.segments.range(offset + 1..).next().map(|(_, s)| s))
                else {
                    return Ok(empty);
                };
                let base = seg.base;
                let seg_next = seg.next;
                let pos = match &seg.index {
                    Some(idx) => Some(idx.position_for(offset).1),
                    None => st
                        .index_cache
                        .iter()
                        .find(|e| e.0 == base && e.1 == seg.generation)
                        .map(|e| e.2.position_for(offset).1),
                };
                match pos {
                    None => Err(base),
                    Some(pos) => {
                        let disk_end = seg.disk_size;
                        // The reader is kept until the log parks, the active
                        // segment's too: a catch-up reader continues where
                        // its last read ended, and its read-ahead lives in
                        // the reader. Only partitions read below their tail
                        // cache (catch-up readers) hold one, so the extra
                        // descriptors are bounded by those, not by every
                        // partition.
                        let reader = match &seg.reader {
                            Some(r) => r.clone(),
                            None => {
                                let r = DataReader::open(
                                    &seg_path(&self.dir, base, "log"),
                                    self.config.io_mode,
                                )?;
                                st.segments.get_mut(&base).expect("segment").reader =
                                    Some(r.clone());
                                r
                            }
                        };
                        Ok((
                            base,
                            pos,
                            disk_end,
                            reader,
                            limit.min(cache_start),
                            seg_next.min(cache_start),
                        ))
                    }
                }
            };
            match plan {
                Err(base) => {
                    self.load_index(base).await?;
                }
                Ok((base, pos, disk_end, reader, limit, seg_next)) => {
                    let r = self
                        .read_disk(
                            base, &reader, pos, disk_end, offset, max_bytes, limit, class,
                        )
                        .await?;
                    // Compaction can leave the rest of a segment empty:
                    // go on to the next one rather than return nothing.
                    if r.batches.is_empty() && seg_next > offset {
                        offset = seg_next;
                        continue;
                    }
                    return Ok(r);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn read_disk(
        &self,
        base: i64,
        reader: &DataReader,
        mut pos: u64,
        disk_end: u64,
        offset: i64,
        max_bytes: usize,
        limit: i64,
        class: ReadClass,
    ) -> Result<ReadResult> {
        let path = seg_path(&self.dir, base, "log");
        let mut out = ReadResult {
            next_offset: offset,
            ..Default::default()
        };
        let slack =
            self.config.index_interval_bytes as usize + self.config.max_batch_bytes.min(64 << 10);
        let mut want = max_bytes.saturating_add(slack).min(64 << 20);
        let mut expected = base;
        // A consumer continuing where the last read of this segment ended
        // starts at that batch boundary (where the read-ahead went), not
        // at the index entry before it.
        if let Some((next_offset, at)) = reader.cursor()
            && next_offset == offset
            && at >= pos
            && at < disk_end
        {
            pos = at;
            expected = offset;
        }
        // The end of the last batch returned.
        let mut end_pos = pos;
        // Whether the read stopped at `limit` (the tail cache's start or
        // the high watermark): the next fetch from there is not a disk read.
        let mut at_limit = false;
        'outer: while pos < disk_end {
            let n = want.min((disk_end - pos) as usize);
            let chunk = reader.read_as(&path, pos, n, class).await?;
            // The file ends before `disk_end` only when it was cut under
            // this read: the segment left the log meanwhile and is being
            // freed (`file::Removal`). What was read is whole batches and
            // then part of one: serve the whole ones and stop.
            let cut_short = chunk.len() < n;
            let mut it = RecordBatches::new(chunk.clone());
            let mut consumed = 0;
            for item in it.by_ref() {
                let bad = |reason: String, at: u64, expected: i64| {
                    let c = Corruption {
                        path: path.clone(),
                        position: at,
                        offset: expected,
                        reason,
                    };
                    let err = c.error();
                    tracing::error!(error = %err, "corrupt batch on read");
                    let mut st = self.st.borrow_mut();
                    if st.corruption.as_ref().is_none_or(|o| o.offset > c.offset) {
                        st.corruption = Some(c);
                    }
                    err
                };
                match item {
                    Ok(b) => {
                        let at = pos + consumed as u64;
                        consumed += b.size();
                        if b.next_offset() <= offset {
                            expected = b.next_offset();
                            continue;
                        }
                        if b.base_offset() >= limit {
                            at_limit = true;
                            break 'outer;
                        }
                        if out.bytes > 0 && out.bytes + b.size() > max_bytes {
                            break 'outer;
                        }
                        if let Err(e) = b.verify_crc() {
                            return Err(bad(e.to_string(), at, expected.max(offset)));
                        }
                        out.bytes += b.size();
                        out.next_offset = b.next_offset();
                        expected = b.next_offset();
                        end_pos = pos + consumed as u64;
                        out.batches.push(b.into_bytes());
                    }
                    Err(kafka_protocol::records::RecordError::PartialBatch { needed, .. })
                        if pos + (consumed + needed) as u64 <= disk_end
                            && needed <= self.config.max_batch_bytes =>
                    {
                        if out.bytes > 0 || cut_short {
                            break 'outer;
                        }
                        want = needed.max(want);
                        break;
                    }
                    Err(e) => {
                        return Err(bad(
                            e.to_string(),
                            pos + consumed as u64,
                            expected.max(offset),
                        ));
                    }
                }
            }
            pos += consumed as u64;
            if out.bytes >= max_bytes || cut_short {
                break;
            }
        }
        // The next fetch of a catch-up reader starts where this one ends:
        // start reading it while this one is sent, unless that fetch is
        // served from the tail cache (or waits for the high watermark).
        if !out.batches.is_empty() {
            reader.set_cursor(out.next_offset, end_pos);
            if end_pos < disk_end && !at_limit {
                reader.prefetch(end_pos, (want as u64).min(disk_end - end_pos), class);
            }
        }
        Ok(out)
    }

    /// Loads a sealed segment's index into the cache, rebuilding it from
    /// the segment if its files are missing or damaged.
    async fn load_index(&self, base: i64) -> Result<Rc<SegIndex>> {
        let (size, generation) = {
            let st = self.st.borrow();
            let s = st
                .segments
                .get(&base)
                .ok_or(StorageError::Busy("segment removed"))?;
            (s.disk_size, s.generation)
        };
        let (ip, tp) = (
            seg_path(&self.dir, base, "index"),
            seg_path(&self.dir, base, "timeindex"),
        );
        let idx = match index::read_files(size, &ip, &tp)? {
            Some(i) => i,
            None => {
                let path = seg_path(&self.dir, base, "log");
                let reader = file::open_read(&path)?;
                let mut idx = SegIndex::new();
                let interval = u64::from(self.config.index_interval_bytes);
                file::scan_segment(
                    &reader,
                    &path,
                    size,
                    self.config.max_batch_bytes,
                    |pos, b| {
                        idx.on_batch(
                            b.base_offset(),
                            pos,
                            b.size() as u64,
                            b.max_timestamp(),
                            interval,
                        );
                        Ok(())
                    },
                )
                .await?;
                idx.finish();
                index::write_files(&idx, size, &ip, &tp)?;
                idx
            }
        };
        let idx = Rc::new(idx);
        let mut st = self.st.borrow_mut();
        st.index_cache.retain(|e| e.0 != base);
        st.index_cache.push_back((base, generation, idx.clone()));
        if st.index_cache.len() > INDEX_CACHE_SEGMENTS {
            st.index_cache.pop_front();
        }
        Ok(idx)
    }

    /// ListOffsets by timestamp: the first record whose timestamp is at
    /// least `ts`, as (offset, timestamp), or `None` when there is none.
    pub async fn offset_for_timestamp(&self, ts: i64) -> Result<Option<(i64, i64)>> {
        let _reading = self.start_read();
        let (seg_base, log_start) = {
            let st = self.st.borrow();
            let seg = st
                .segments
                .values()
                .find(|s| s.max_ts >= ts && s.next > st.log_start);
            match seg {
                None => return Ok(None),
                Some(s) => (s.base, st.log_start),
            }
        };
        let active_start = {
            let st = self.st.borrow();
            st.segments
                .get(&seg_base)
                .and_then(|s| s.index.as_ref().map(|i| i.offset_for_time(ts)))
        };
        let start = match active_start {
            Some(s) => s,
            None => self.load_index(seg_base).await?.offset_for_time(ts),
        };
        let mut from = start.unwrap_or(seg_base).max(log_start);
        loop {
            let r = self.read(from, 256 << 10, None).await?;
            if r.batches.is_empty() {
                return Ok(None);
            }
            for bytes in r.batches {
                let b = RecordBatch::new(bytes)?;
                if b.max_timestamp() < ts {
                    continue;
                }
                for rec in b.decompressed_records(self.config.max_decompressed_bytes)? {
                    let rec = rec?;
                    if rec.timestamp() >= ts && rec.offset() >= log_start {
                        return Ok(Some((rec.offset(), rec.timestamp())));
                    }
                }
            }
            from = r.next_offset;
        }
    }

    /// OffsetForLeaderEpoch, as Kafka's `LeaderEpochFileCache.endOffsetFor`:
    /// for the latest epoch the log end offset; otherwise the largest
    /// epoch not above `epoch` and the start offset of the epoch after it.
    /// `(-1, -1)` when unknown.
    pub fn end_offset_for_epoch(&self, epoch: i32) -> (i32, i64) {
        let st = self.st.borrow();
        const UNDEFINED: (i32, i64) = (-1, -1);
        if epoch < 0 {
            return UNDEFINED;
        }
        match st.epochs.last() {
            Some(&(latest, _)) if latest == epoch => return (latest, st.leo),
            None => return UNDEFINED,
            _ => {}
        }
        let Some(&(_, higher_start)) = st.epochs.iter().find(|e| e.0 > epoch) else {
            return UNDEFINED;
        };
        match st.epochs.iter().rev().find(|e| e.0 <= epoch) {
            Some(&(floor, _)) => (floor, higher_start),
            None => (epoch, higher_start),
        }
    }

    /// Removes everything at and after `offset` (a Raft follower whose log
    /// diverged). When `offset` falls inside a batch the whole batch goes.
    /// Returns the new log end offset. Appends are refused while it runs.
    pub async fn truncate(&self, offset: i64) -> Result<i64> {
        self.flush().await?;
        let _io = self.acquire_io().await;
        self.st.borrow_mut().exclusive = true;
        let res = self.truncate_locked(offset).await;
        self.st.borrow_mut().exclusive = false;
        if let Err(e) = &res
            && !matches!(e, StorageError::OffsetOutOfRange { .. })
        {
            let mut st = self.st.borrow_mut();
            st.failed = Some(e.to_string());
            // A truncation rewrites what was durable: never reopened
            // without a restart.
            st.failed_no_space = false;
        }
        res
    }

    async fn truncate_locked(&self, offset: i64) -> Result<i64> {
        if !self.st.borrow().ops.is_empty() {
            self.flush_once().await?;
        }
        let (base, sealed, pos_hint, disk_end, leo) = {
            let st = self.st.borrow();
            if offset >= st.leo {
                return Ok(st.leo);
            }
            if offset < st.log_start {
                return Err(StorageError::OffsetOutOfRange {
                    offset,
                    log_start: st.log_start,
                    log_end: st.leo,
                });
            }
            let (&base, seg) = st
                .segments
                .range(..=offset)
                .next_back()
                .expect("segment at log start");
            (
                base,
                seg.index.is_none(),
                seg.index.as_ref().map(|i| i.position_for(offset).1),
                seg.disk_size,
                st.leo,
            )
        };
        let idx_loaded = if sealed {
            Some(self.load_index(base).await?)
        } else {
            None
        };
        // Where to start reading for `target`: the index entry at or before
        // it (the active segment's index lives in the state).
        let index_position = |target: i64| -> u64 {
            idx_loaded.as_ref().map_or_else(
                || {
                    self.st
                        .borrow()
                        .segments
                        .get(&base)
                        .and_then(|s| s.index.as_ref())
                        .map_or(0, |i| i.position_for(target).1)
                },
                |i| i.position_for(target).1,
            )
        };
        let _ = pos_hint;
        let path = seg_path(&self.dir, base, "log");
        let reader = file::open_read(&path)?;
        // Find the first batch that reaches `offset`.
        let (cut, scanned_max, scanned_end) =
            scan_to_cut(&reader, &path, index_position(offset), disk_end, offset).await?;
        let (pos, new_leo) = cut.unwrap_or((disk_end, offset.min(leo)));
        // Where a reopen will put the log end: after the last batch kept in
        // this segment (or at its base when none is).
        let kept_end = match scanned_end {
            Some(end) => end,
            None if pos == 0 => base,
            None => {
                // The cut batch was the first one read: read the batches
                // before it, from the index entry below its base.
                let from = index_position(new_leo - 1);
                scan_to_cut(&reader, &path, from, pos, i64::MAX)
                    .await?
                    .2
                    .unwrap_or(base)
            }
        };
        // When compaction emptied the offsets between the last batch kept
        // and `new_leo`, a reopen would find the end lower than `new_leo`
        // and hand the same offsets out again. The log end stays `new_leo`
        // and a fresh segment starts there (below), so a reopen agrees.
        let roll = new_leo > kept_end.max(base);
        // File operations: later segments, then this one.
        let later: Vec<i64> = self
            .st
            .borrow()
            .segments
            .range(base + 1..)
            .map(|(&b, _)| b)
            .collect();
        for &b in &later {
            for ext in SEGMENT_FILES {
                file::remove_if_exists(&seg_path(&self.dir, b, ext))?;
            }
        }
        file::remove_if_exists(&seg_path(&self.dir, base, "index"))?;
        file::remove_if_exists(&seg_path(&self.dir, base, "timeindex"))?;
        file::remove_if_exists(&seg_path(&self.dir, base, "txnindex"))?;
        file::fsync_dir(&self.dir)?;
        let prealloc = self.prealloc_limit();
        let old_writer = {
            let mut st = self.st.borrow_mut();
            st.parked = None;
            st.writer.take()
        };
        drop(old_writer);
        let writer =
            SegmentWriter::open(base, path, pos, false, self.config.io_mode, prealloc, true)
                .await?;
        file::write_atomic(&self.dir.join(RECOVERY_POINT), base.to_string().as_bytes())?;
        let epochs = {
            let mut st = self.st.borrow_mut();
            st.writer = Some(writer);
            st.segments.split_off(&(base + 1));
            st.index_cache.retain(|e| e.0 < base);
            let mut idx = match idx_loaded {
                Some(i) => (*i).clone(),
                None => st
                    .segments
                    .get_mut(&base)
                    .and_then(|s| s.index.take())
                    .unwrap_or_default(),
            };
            idx.truncate(new_leo, pos);
            idx.max_ts = idx.max_ts.max(scanned_max);
            let seg = st.segments.get_mut(&base).expect("segment");
            seg.size = pos;
            seg.disk_size = pos;
            seg.next = new_leo;
            seg.max_ts = idx.max_ts;
            seg.index = Some(idx);
            seg.reader = None;
            seg.generation += 1;
            seg.first_append = None;
            st.leo = new_leo;
            st.durable = new_leo;
            st.producers.truncate(new_leo);
            st.txns.truncate(new_leo);
            while st.cache.back().is_some_and(|e| e.0 >= new_leo) {
                let (_, _, b) = st.cache.pop_back().expect("entry");
                st.cache_bytes -= b.len();
            }
            if st.cache.back().is_some_and(|e| e.1 > new_leo) {
                // Offsets inside a cached batch: drop the cache rather than serve it.
                st.cache.clear();
                st.cache_bytes = 0;
            }
            st.epochs.retain(|e| e.1 < new_leo);
            if st.corruption.as_ref().is_some_and(|c| c.offset >= new_leo) {
                st.corruption = None;
            }
            st.log_start = st.log_start.min(new_leo);
            if roll {
                self.roll(&mut st);
            }
            encode_epochs(&st.epochs)
        };
        if roll {
            self.flush_once().await?;
        }
        file::write_atomic(&self.dir.join(EPOCHS), &epochs)?;
        tracing::info!(dir = %self.dir.display(), offset, new_leo, "log truncated");
        Ok(new_leo)
    }

    /// Empties the log and starts it again at `offset` (Kafka's
    /// `truncateFullyAndStartAt`): a Raft follower so far behind that its
    /// leader no longer holds the entries it needs takes the leader's log
    /// from its log start on instead. Every segment goes; the log start and
    /// end offsets become `offset`. Appends are refused while it runs.
    pub async fn reset_to(&self, offset: i64) -> Result<()> {
        if offset < 0 {
            return Err(StorageError::OffsetOutOfRange {
                offset,
                log_start: self.log_start_offset(),
                log_end: self.log_end_offset(),
            });
        }
        self.flush().await?;
        let _io = self.acquire_io().await;
        self.st.borrow_mut().exclusive = true;
        let res = self.reset_locked(offset).await;
        let mut st = self.st.borrow_mut();
        st.exclusive = false;
        if let Err(e) = &res {
            st.failed = Some(e.to_string());
            st.failed_no_space = false;
        }
        res
    }

    async fn reset_locked(&self, offset: i64) -> Result<()> {
        if !self.st.borrow().ops.is_empty() {
            self.flush_once().await?;
        }
        let bases: Vec<i64> = self.st.borrow().segments.keys().copied().collect();
        let old_writer = {
            let mut st = self.st.borrow_mut();
            st.parked = None;
            st.writer.take()
        };
        drop(old_writer);
        // The checkpoints first: a crash half-way leaves either the old
        // segments (and a log start the open clamps to them) or none, and
        // an empty directory opens at the log start checkpoint.
        file::write_atomic(&self.dir.join(LOG_START), offset.to_string().as_bytes())?;
        file::write_atomic(&self.dir.join(EPOCHS), &encode_epochs(&[]))?;
        file::write_atomic(
            &self.dir.join(RECOVERY_POINT),
            offset.to_string().as_bytes(),
        )?;
        for &b in &bases {
            for ext in SEGMENT_FILES {
                file::remove_if_exists(&seg_path(&self.dir, b, ext))?;
            }
        }
        file::fsync_dir(&self.dir)?;
        let prealloc = self.prealloc_limit();
        let path = seg_path(&self.dir, offset, "log");
        let writer =
            SegmentWriter::open(offset, path, 0, true, self.config.io_mode, prealloc, true).await?;
        file::fsync_dir(&self.dir)?;
        let mut st = self.st.borrow_mut();
        let generation = st
            .segments
            .values()
            .map(|s| s.generation)
            .max()
            .unwrap_or(0)
            + 1;
        st.segments.clear();
        let mut seg = Segment::sealed(offset, offset, 0, -1);
        seg.index = Some(SegIndex::new());
        seg.generation = generation;
        st.segments.insert(offset, seg);
        st.writer = Some(writer);
        st.index_cache.clear();
        st.cache.clear();
        st.cache_bytes = 0;
        st.unflushed = 0;
        st.leo = offset;
        st.durable = offset;
        st.log_start = offset;
        st.epochs.clear();
        st.corruption = None;
        st.producers.reset(offset);
        st.txns = Transactions::default();
        drop(st);
        tracing::info!(dir = %self.dir.display(), offset, "log reset");
        Ok(())
    }

    /// Moves the log end offset forward to `offset` with nothing in
    /// between, by starting a new segment there (a log reset whose copied
    /// part ends in offsets compaction removed). Durable on return.
    pub async fn skip_to(&self, offset: i64) -> Result<()> {
        let empty = {
            let st = self.st.borrow();
            Self::check_writable(&st)?;
            if offset <= st.leo {
                return Ok(());
            }
            let active_empty = st.segments.values().next_back().is_none_or(|s| s.size == 0);
            if active_empty && st.leo != st.log_start {
                return Err(StorageError::Busy(
                    "cannot skip offsets from an empty active segment",
                ));
            }
            active_empty
        };
        if empty {
            // Nothing in the log: it just starts further on.
            return self.reset_to(offset).await;
        }
        {
            let mut st = self.st.borrow_mut();
            st.leo = offset;
            self.roll(&mut st);
        }
        self.flush().await
    }

    /// Deletes whole sealed segments past `retention.ms` (by their largest
    /// timestamp) or beyond `retention.bytes` (when the cleanup policy
    /// includes `delete`), and segments wholly below the log start offset.
    /// Returns how many segments were deleted.
    pub async fn apply_retention(&self, now_ms: i64) -> Result<usize> {
        let deleted = {
            let mut st = self.st.borrow_mut();
            Self::check_writable(&st)?;
            let doomed = self.retention_doomed(&st, now_ms, self.max_collectible.get());
            if !doomed.is_empty() {
                self.remove_segments(&mut st, &doomed);
            }
            doomed.len()
        };
        if deleted > 0 {
            tracing::info!(dir = %self.dir.display(), deleted, "retention deleted segments");
            self.flush().await?;
        }
        Ok(deleted)
    }

    /// Where retention would move the log start now if nothing held it
    /// back (`None`: it would delete nothing). The log's owner makes
    /// `max_collectible_offset` reach it first; a Raft replica hands over
    /// exactly this much of its log prefix, and keeps the rest for
    /// followers that need to catch up.
    pub fn retention_cut(&self, now_ms: i64) -> Option<i64> {
        let st = self.st.borrow();
        self.retention_doomed(&st, now_ms, i64::MAX)
            .last()
            .map(|(_, next)| *next)
    }

    /// The sealed segments retention deletes (base, next offset), oldest
    /// first, none ending past `limit`.
    fn retention_doomed(&self, st: &State, now_ms: i64, limit: i64) -> Vec<(i64, i64)> {
        let deletes = self.config.cleanup_policy.deletes();
        let total: u64 = st.segments.values().map(|s| s.size).sum();
        let mut remaining = total;
        let mut doomed = Vec::new();
        let n = st.segments.len();
        for (i, s) in st.segments.values().enumerate() {
            if i + 1 == n || s.next > limit {
                break;
            }
            let expired = deletes
                && self.config.retention_ms >= 0
                && s.max_ts < now_ms.saturating_sub(self.config.retention_ms);
            let too_big = deletes
                && self.config.retention_bytes >= 0
                && remaining - s.size >= self.config.retention_bytes as u64;
            let below_start = s.next <= st.log_start;
            if !(expired || too_big || below_start) {
                break;
            }
            remaining -= s.size;
            doomed.push((s.base, s.next));
        }
        doomed
    }

    /// Removes the segments `doomed` (base, end offset), a prefix of the
    /// log.
    fn remove_segments(&self, st: &mut State, doomed: &[(i64, i64)]) {
        for (b, _) in doomed {
            st.segments.remove(b);
        }
        st.index_cache
            .retain(|e| !doomed.iter().any(|&(b, _)| b == e.0));
        let first = *st.segments.keys().next().expect("active remains");
        st.log_start = st.log_start.max(first);
        let log_start = st.log_start;
        st.txns.drop_below(log_start);
        truncate_epochs_from_start(&mut st.epochs, log_start);
        let epochs = encode_epochs(&st.epochs);
        st.ops.push(IoOp::Checkpoint {
            name: LOG_START,
            data: log_start.to_string().into_bytes(),
        });
        st.ops.push(IoOp::Checkpoint {
            name: EPOCHS,
            data: epochs,
        });
        st.ops.push(IoOp::Delete {
            segments: doomed.to_vec(),
            reads_before: self.reads.borrow_mut().mark_removal(),
        });
    }

    /// DeleteRecords: moves the log start offset forward to `offset`
    /// (durably) and deletes segments wholly below it. Returns the new log
    /// start offset.
    pub async fn delete_records(&self, offset: i64) -> Result<i64> {
        {
            let mut st = self.st.borrow_mut();
            Self::check_writable(&st)?;
            if offset > st.leo || offset < 0 {
                return Err(StorageError::OffsetOutOfRange {
                    offset,
                    log_start: st.log_start,
                    log_end: st.leo,
                });
            }
            let limit = self.max_collectible.get();
            if offset > limit {
                return Err(StorageError::NotCollectible { offset, limit });
            }
            if offset > st.log_start {
                st.log_start = offset;
                let n = st.segments.len();
                let doomed: Vec<(i64, i64)> = st
                    .segments
                    .values()
                    .take(n - 1)
                    .take_while(|s| s.next <= offset)
                    .map(|s| (s.base, s.next))
                    .collect();
                self.remove_segments(&mut st, &doomed);
            }
        }
        self.flush().await?;
        Ok(self.log_start_offset())
    }

    /// Flushes and stops; the log may be reopened afterwards.
    pub async fn close(&self) -> Result<()> {
        self.flush().await
    }

    /// Releases what an idle log holds: the active segment's writer (its
    /// descriptor and write buffer; the next flush opens it again), the
    /// tail cache, open segment readers and cached indexes. Only when
    /// nothing is being written (every append durable, no file operation
    /// queued, no flush, reset or compaction running); returns whether it
    /// parked. Why: a broker holds tens of thousands of partitions, most
    /// of them idle, and an open log costs ~48 KB and a descriptor or two
    /// (raft/ARCHITECTURE.md); a parked one costs its segment table and
    /// the active segment's sparse index.
    pub fn park(&self) -> bool {
        if self.io_busy.get() || self.cleaning.get() {
            return false;
        }
        let mut st = self.st.borrow_mut();
        if st.exclusive || st.failed.is_some() || !st.ops.is_empty() || st.durable < st.leo {
            return false;
        }
        if let Some(w) = st.writer.take() {
            if w.len() != w.written() {
                st.writer = Some(w);
                return false;
            }
            st.parked = Some((w.base, w.written()));
        }
        st.cache.clear();
        st.cache.shrink_to_fit();
        st.cache_bytes = 0;
        st.ops.shrink_to_fit();
        st.index_cache.clear();
        st.index_cache.shrink_to_fit();
        for seg in st.segments.values_mut() {
            seg.reader = None;
        }
        drop(st);
        self.free_spares_where(|_| true);
        true
    }

    /// A spare data file for a new segment at `base` (`crate::spare`), if
    /// the log keeps one. Spares that could hold offsets at or past `base`
    /// (the log was reset below them) are freed instead: their old
    /// batches would pass for the new segment's.
    fn take_spare(&self, base: i64) -> Option<Spare> {
        self.free_spares_where(|s| s.next > base);
        let mut spares = self.spares.borrow_mut();
        // The newest spare no read may still use (`spare::ReadsInFlight`).
        let reads = self.reads.borrow();
        let i = spares
            .iter()
            .rposition(|s| reads.all_ended_before(s.reads_before))?;
        Some(spares.remove(i))
    }

    /// Numbers a read starting now, until the ticket is dropped.
    pub(crate) fn start_read(&self) -> ReadTicket<'_> {
        let n = self.reads.borrow_mut().start();
        ReadTicket(self, n)
    }

    /// Frees, in the background, the spares this log keeps that `doomed`
    /// picks.
    fn free_spares_where(&self, doomed: impl Fn(&Spare) -> bool) {
        let freed: Vec<Spare> = {
            let mut spares = self.spares.borrow_mut();
            if !spares.iter().any(&doomed) {
                return;
            }
            let (freed, kept) = spares.drain(..).partition(|s| doomed(s));
            *spares = kept;
            freed
        };
        free_spares(freed);
    }

    /// Frees the spares the log no longer needs (`crate::spare`): all of
    /// them while the disk guard says space is short, else those kept
    /// longer than `spare::MAX_SPARE_AGE_MS` without being written over
    /// (the log stopped rolling as fast). Called by every removal and by
    /// the broker's retention pass.
    pub fn release_unneeded_spares(&self) {
        if !spare::allowed() {
            self.free_spares_where(|_| true);
            return;
        }
        let oldest_kept_ms = now_ms().saturating_sub(spare::MAX_SPARE_AGE_MS);
        self.free_spares_where(|s| s.kept_at_ms < oldest_kept_ms);
    }

    /// How many spare data files the log keeps (`crate::spare`).
    pub fn spare_count(&self) -> usize {
        self.spares.borrow().len()
    }

    /// [`Log::park`] if no batch was appended for `idle`.
    pub fn park_if_idle(&self, idle: std::time::Duration) -> bool {
        self.last_append.get().elapsed() >= idle && self.park()
    }

    /// Whether the log is parked ([`Log::park`]).
    pub fn is_parked(&self) -> bool {
        let st = self.st.borrow();
        st.writer.is_none() && st.parked.is_some()
    }
}

/// Stamps a produced batch in place and checks its CRC.
///
/// Without a LogAppendTime the CRC-covered bytes are not touched (the base
/// offset and leader epoch lie before the covered range), so one plain
/// CRC-32C pass verifies the batch: about 1 us for 16 KiB. `stamp_batch`
/// verifies by combining the CRCs of the editable head and the tail, and
/// `crc32c_combine` (zlib's GF(2) matrix method) alone costs 13-45 us per
/// call here, 30-40 us of a ~250 us fsync'd 16 KiB append (measured; see
/// benches/RESULTS.md). With a LogAppendTime the covered bytes change and
/// the CRC must be rewritten, so that (rarer) case keeps `stamp_batch`.
/// What [`Log::truncate`] learns reading a segment from `from` to `end`:
/// the cut (position and new log end) at the first batch that reaches
/// `offset`, the largest timestamp before it, and the end offset of the
/// last batch before it (`None` when the first batch read is the cut).
/// The producer and transaction state to start a log's open with: the
/// latest snapshot that names a segment base and reads back whole, with
/// the aborted transactions of every segment below it (from their
/// `.txnindex`), and the offset from which segments must be read (the
/// snapshot's). Falls back to reading every segment (state from the first
/// base) when there is no usable snapshot or a `.txnindex` below it is
/// damaged: correctness over speed.
///
/// Logs written before transactions existed (no `.txnindex` anywhere)
/// hold no transactional batch (no producer could end one): their
/// segments without a `.txnindex`, a prefix of the log, count as having no
/// aborted transaction, and without a snapshot the state starts at the
/// active segment as it did then (Kafka skips the full rebuild of such
/// logs the same way). A missing `.txnindex` after one that exists is
/// damage.
fn load_producer_state(
    dir: &Path,
    bases: &[i64],
    snapshots: &mut [i64],
) -> Result<(i64, Transactions, ProducerBatches)> {
    let first = bases[0];
    let fresh = |from: i64| {
        (
            from,
            Transactions::default(),
            ProducerBatches::starting_at(from),
        )
    };
    let (sealed, active) = bases.split_at(bases.len() - 1);
    // Each sealed segment's `.txnindex`: None when missing, Some(None)
    // when damaged. Read only as far as needed.
    let txnindex = |base: i64| -> Result<Option<Option<Vec<AbortedRange>>>> {
        let path = seg_path(dir, base, "txnindex");
        let len = match std::fs::metadata(&path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StorageError::io("stat", &path, e)),
        };
        if len > MAX_STATE_FILE_BYTES {
            return Ok(Some(None));
        }
        let data = std::fs::read(&path).map_err(|e| StorageError::io("read", &path, e))?;
        let log_len = file::file_len(&seg_path(dir, base, "log"))?;
        Ok(Some(crate::txn::decode_txnindex(&data, log_len)))
    };
    snapshots.sort_unstable();
    for &offset in snapshots.iter().rev() {
        if offset < first || bases.binary_search(&offset).is_err() {
            continue;
        }
        let path = seg_path(dir, offset, "snapshot");
        let data = match std::fs::metadata(&path) {
            Ok(m) if m.len() <= MAX_STATE_FILE_BYTES => {
                std::fs::read(&path).map_err(|e| StorageError::io("read", &path, e))?
            }
            _ => continue,
        };
        let Some((mut txns, producer_bytes)) = crate::txn::decode_snapshot(&data, offset) else {
            tracing::warn!(path = %path.display(), "damaged producer snapshot; trying an older one");
            continue;
        };
        let Some(producers) = ProducerBatches::decode(producer_bytes) else {
            tracing::warn!(path = %path.display(), "damaged producer snapshot; trying an older one");
            continue;
        };
        let mut aborted = Vec::new();
        let mut legacy_prefix = true;
        for &base in sealed.iter().take_while(|&&b| b < offset) {
            match txnindex(base)? {
                None if legacy_prefix => {}
                Some(Some(e)) => {
                    legacy_prefix = false;
                    aborted.extend(e);
                }
                _ => {
                    tracing::warn!(dir = %dir.display(), base, "missing or damaged transaction index; reading every segment");
                    return Ok(fresh(first));
                }
            }
        }
        txns.aborted = aborted;
        return Ok((offset, txns, producers));
    }
    let mut legacy = true;
    for &base in sealed {
        if txnindex(base)?.is_some() {
            legacy = false;
            break;
        }
    }
    if legacy && !sealed.is_empty() {
        tracing::info!(dir = %dir.display(), "log written before transactions: producer state from the active segment");
        return Ok(fresh(active[0]));
    }
    if !sealed.is_empty() {
        tracing::warn!(dir = %dir.display(), "no usable producer snapshot; reading every segment");
    }
    Ok(fresh(first))
}

async fn scan_to_cut(
    reader: &File,
    path: &Path,
    from: u64,
    end: u64,
    offset: i64,
) -> Result<(Option<(u64, i64)>, i64, Option<i64>)> {
    let mut cut = None;
    let mut scanned_max = -1i64;
    let mut scanned_end = None;
    let mut p = from;
    while cut.is_none() && p < end {
        let chunk = file::read_at(reader, path, p, (1usize << 20).min((end - p) as usize)).await?;
        let mut consumed = 0u64;
        let mut progressed = false;
        for b in RecordBatches::new(chunk) {
            let Ok(b) = b else { break };
            if b.last_offset() >= offset {
                cut = Some((p + consumed, b.base_offset().min(offset)));
                break;
            }
            scanned_max = scanned_max.max(b.max_timestamp());
            scanned_end = Some(b.next_offset());
            consumed += b.size() as u64;
            progressed = true;
        }
        if !progressed && cut.is_none() {
            // A batch larger than the chunk, or damage: cut here.
            cut = Some((p, offset));
        }
        p += consumed;
    }
    Ok((cut, scanned_max, scanned_end))
}

fn stamp_and_check(batch: BytesMut, stamp: &Stamp, check_crc: bool) -> Result<RecordBatch> {
    if stamp.log_append_time.is_some() {
        let mut batch = batch;
        stamp_batch(&mut batch, stamp)?;
        return Ok(RecordBatch::new(batch.freeze())?);
    }
    let mut b = RecordBatchMut::new(batch)?;
    b.set_base_offset(stamp.base_offset);
    b.set_partition_leader_epoch(stamp.partition_leader_epoch);
    let rb = b.freeze();
    // A corrupt batch is refused (the stamped copy is dropped with it).
    if check_crc {
        rb.verify_crc()?;
    }
    Ok(rb)
}

fn read_cache(
    cache: &VecDeque<(i64, i64, Bytes)>,
    offset: i64,
    max_bytes: usize,
    limit: i64,
) -> ReadResult {
    let i = cache.partition_point(|e| e.1 <= offset);
    let mut out = ReadResult {
        next_offset: offset,
        ..Default::default()
    };
    for (base, next, b) in cache.iter().skip(i) {
        if *base >= limit || (out.bytes > 0 && out.bytes + b.len() > max_bytes) {
            break;
        }
        out.bytes += b.len();
        out.next_offset = *next;
        out.batches.push(b.clone());
    }
    out
}

/// Kafka's `truncateFromStart`: epochs that began before the new log
/// start collapse into one entry starting at it.
fn truncate_epochs_from_start(epochs: &mut Vec<(i32, i64)>, start: i64) {
    let below = epochs.iter().take_while(|e| e.1 < start).count();
    if below > 0 {
        let keep = epochs[below - 1].0;
        epochs.drain(..below);
        if epochs.first().is_none_or(|e| e.1 > start) {
            epochs.insert(0, (keep, start));
        }
    }
}

impl Segment {
    fn sealed(base: i64, next: i64, size: u64, max_ts: i64) -> Self {
        Segment {
            base,
            next,
            size,
            disk_size: size,
            max_ts,
            first_append: None,
            index: None,
            reader: None,
            generation: 0,
        }
    }
    pub(crate) fn set_reader(&mut self, r: Option<Rc<DataReader>>) {
        self.reader = r;
    }
}

impl State {
    pub(crate) fn drop_cached_index(&mut self, base: i64) {
        self.index_cache.retain(|e| e.0 != base);
    }
    pub(crate) fn insert_cached_index(&mut self, base: i64, generation: u64, idx: Rc<SegIndex>) {
        self.index_cache.push_back((base, generation, idx));
        if self.index_cache.len() > INDEX_CACHE_SEGMENTS {
            self.index_cache.pop_front();
        }
    }
    /// Drops tail-cache entries below `offset` (their bytes on disk were
    /// replaced, e.g. by compaction). They are durable, so nothing is lost.
    pub(crate) fn drop_cache_below(&mut self, offset: i64) {
        while self.cache.front().is_some_and(|e| e.0 < offset) {
            let (_, _, b) = self.cache.pop_front().expect("entry");
            self.cache_bytes -= b.len();
        }
    }

    pub(crate) fn active_base(&self) -> i64 {
        *self.segments.keys().next_back().expect("one segment")
    }
}

async fn interval_flusher(log: Weak<Log>, interval: std::time::Duration) {
    loop {
        monoio::time::sleep(interval).await;
        let Some(log) = log.upgrade() else { return };
        let pending = {
            let st = log.st.borrow();
            st.failed.is_none() && (st.durable < st.leo || !st.ops.is_empty())
        };
        if pending && let Err(e) = log.flush().await {
            tracing::warn!(error = %e, "interval flush failed");
        }
    }
}

#[cfg(test)]
mod spare_read_tests {
    use super::*;
    use kafka_protocol::records::{NewRecord, RecordBatchBuilder};

    fn batch(i: u64) -> BytesMut {
        let mut b = RecordBatchBuilder::new();
        b.push(NewRecord::new(vec![i as u8; 4000]));
        BytesMut::from(&b.build().unwrap()[..])
    }

    /// Appends until the log rolls, then flushes (the roll's file work runs).
    async fn append_past_a_roll(log: &Log, i: &mut u64) {
        let active = log.active_segment_base();
        for _ in 0..1000 {
            if log.active_segment_base() != active {
                break;
            }
            log.append(batch(*i), 0, None).await.unwrap();
            *i += 1;
        }
        assert_ne!(log.active_segment_base(), active);
        log.append(batch(*i), 0, None).await.unwrap();
        *i += 1;
        log.flush().await.unwrap();
    }

    #[test]
    fn a_spare_is_not_written_over_while_an_earlier_read_is_in_flight() {
        let dir = std::env::temp_dir().join(format!("tm-spare-read-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
            .enable_timer()
            .build()
            .unwrap()
            .block_on(async {
                let cfg = LogConfig {
                    segment_bytes: 64 * 1024,
                    max_batch_bytes: 16 * 1024,
                    retention_ms: -1,
                    ..LogConfig::default()
                };
                let log = Log::open(&dir, cfg).await.unwrap();
                let mut i = 0;
                while log.segment_count() < 3 {
                    append_past_a_roll(&log, &mut i).await;
                }
                // A read of the oldest segments, started before they go.
                let reading = log.start_read();
                log.delete_records(log.active_segment_base()).await.unwrap();
                let kept = log.spare_count();
                assert_eq!(kept, 2);
                append_past_a_roll(&log, &mut i).await;
                assert_eq!(
                    log.spare_count(),
                    kept,
                    "no spare written over under the read"
                );
                // A read that starts after the removal does not hold them.
                let later = log.start_read();
                drop(reading);
                append_past_a_roll(&log, &mut i).await;
                assert_eq!(log.spare_count(), kept - 1);
                drop(later);
            });
        std::fs::remove_dir_all(&dir).ok();
    }
}
