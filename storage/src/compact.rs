//! Log compaction (`cleanup.policy=compact`): keep the latest record per
//! key in the sealed segments, keeping offsets (gaps are fine in Kafka).
//!
//! Each sealed segment is rewritten into `<base>.log.cleaned` and swapped
//! in with one `rename(2)`, which is atomic: a crash leaves either the old
//! file or the new one, and both hold valid batches with the right offsets
//! (compaction only removes records). The segment's index files are
//! removed *before* the rename and rewritten after it, so an index never
//! describes the wrong file; a missing index is rebuilt at open. Leftover
//! `.cleaned` files are deleted at open.
//!
//! Transactions (Kafka's `LogCleaner` with `CleanedTransactionMetadata`):
//! records of aborted transactions are removed at once; a COMMIT or ABORT
//! marker is stamped with a delete horizon once its transaction has no data
//! left, and removed by a pass past that horizon (KIP-534; see
//! [`TxnMarkers`]), so a compacted topic written transactionally does not
//! keep a marker per transaction for ever.

use std::collections::{HashMap, HashSet};

use bytes::{BufMut, Bytes, BytesMut};
use kafka_protocol::records::{Compression, Record, RecordBatch, compress};

use crate::error::{Result, StorageError};
use crate::failpoint;
use crate::file::{self, ScanEnd};
use crate::index::{self, SegIndex};
use crate::log::{CLEANER, Log, seg_path};

/// The max timestamp of a segment's first batch (Kafka's
/// `getFirstBatchTimestamp`), read with a plain 61-byte read: `None` when
/// the file cannot be read or holds no batch.
fn first_batch_timestamp(path: &std::path::Path) -> Option<i64> {
    use std::os::unix::fs::FileExt;
    let f = std::fs::File::open(path).ok()?;
    let mut head = [0u8; kafka_protocol::records::RECORD_BATCH_OVERHEAD];
    f.read_exact_at(&mut head, 0).ok()?;
    // maxTimestamp: bytes 35..43 of a magic 2 header.
    let ts = i64::from_be_bytes(head[35..43].try_into().ok()?);
    (head[16] == 2).then_some(ts)
}

/// What one compaction pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompactionStats {
    /// False when skipped (policy, dirty ratio, nothing sealed).
    pub ran: bool,
    pub segments_rewritten: usize,
    pub records_removed: u64,
    /// Transaction markers (COMMIT/ABORT control batches) removed.
    pub markers_removed: u64,
    /// Markers given their delete horizon (rewritten, kept).
    pub markers_stamped: u64,
    pub bytes_before: u64,
    pub bytes_after: u64,
}

struct CleaningFlag<'a>(&'a Log);
impl Drop for CleaningFlag<'_> {
    fn drop(&mut self) {
        self.0.cleaning.set(false);
    }
}

impl Log {
    /// Runs one compaction pass if the policy includes `compact` and the
    /// dirty ratio (bytes written since the last pass over all sealed
    /// bytes) reaches `min.cleanable.dirty.ratio`. The active segment is
    /// never touched, nor are segments reaching past the max collectible
    /// offset ([`Log::set_max_collectible_offset`]). Tombstones are removed once their batch's max
    /// timestamp is older than `now_ms - delete.retention.ms`; transaction
    /// markers by the rule of [`TxnMarkers`].
    pub async fn compact(&self, now_ms: i64) -> Result<CompactionStats> {
        // Its reads of sealed segments count as reads in flight: a segment
        // removed meanwhile is not written over under them (`spare.rs`).
        let _reading = self.start_read();
        if !self.config.cleanup_policy.compacts() || self.cleaning.replace(true) {
            return Ok(CompactionStats::default());
        }
        let _flag = CleaningFlag(self);
        let clean_offset = std::fs::read_to_string(self.dir.join(CLEANER))
            .ok()
            .and_then(|s| s.trim().parse::<i64>().ok())
            .unwrap_or(i64::MIN);
        let sealed: Vec<(i64, u64, u64)> = {
            let st = self.st.borrow();
            let active = st.active_base();
            // Nothing at or past the first offset whose transaction is
            // undecided (or whose marker may still be cut): its records
            // may yet be aborted (Kafka cleans below the first unstable
            // offset only).
            let limit = self
                .max_collectible
                .get()
                .min(st.txns.first_open().unwrap_or(i64::MAX));
            // `min.compaction.lag.ms`: stop at the first segment holding
            // a record newer than the lag (Kafka's first uncleanable
            // offset), so a prefix of the log is cleaned.
            let newest_cleanable = now_ms.saturating_sub(self.config.min_compaction_lag_ms);
            st.segments
                .values()
                .filter(|s| s.base < active && s.next <= limit)
                .take_while(|s| {
                    self.config.min_compaction_lag_ms == 0 || s.max_ts <= newest_cleanable
                })
                .map(|s| (s.base, s.disk_size, s.generation))
                .collect()
        };
        let total: u64 = sealed.iter().map(|s| s.1).sum();
        let dirty: u64 = sealed
            .iter()
            .filter(|s| s.0 >= clean_offset)
            .map(|s| s.1)
            .sum();
        // `max.compaction.lag.ms`: a dirty segment whose first batch is
        // older than the lag is cleaned whatever the dirty ratio.
        let overdue = dirty > 0
            && self.config.max_compaction_lag_ms < i64::MAX
            && sealed.iter().filter(|s| s.0 >= clean_offset).any(|s| {
                first_batch_timestamp(&seg_path(&self.dir, s.0, "log")).is_some_and(|ts| {
                    ts >= 0 && now_ms.saturating_sub(ts) > self.config.max_compaction_lag_ms
                })
            });
        if total == 0
            || dirty == 0
            || (!overdue && (dirty as f64) < self.config.min_cleanable_dirty_ratio * total as f64)
        {
            return Ok(CompactionStats::default());
        }
        let max_dec = self.config.max_decompressed_bytes;
        let max_batch = self.config.max_batch_bytes;

        // Records of aborted transactions are removed and never shadow a
        // key (Kafka's cleaner); their markers go later (`TxnMarkers`).
        let aborted = AbortedIndex::of(&self.st.borrow().txns);
        // Pass 1: the latest offset of every key in the sealed segments.
        let mut latest: HashMap<Bytes, i64> = HashMap::new();
        for &(base, size, _) in &sealed {
            let path = seg_path(&self.dir, base, "log");
            let reader = file::open_read(&path)?;
            let end = file::scan_segment(&reader, &path, size, max_batch, |_, b| {
                if b.is_control() || aborted.holds(b) {
                    return Ok(());
                }
                if let Ok(records) = b.decompressed_records(max_dec) {
                    for r in records.flatten() {
                        if let Some(k) = r.key() {
                            latest.insert(k.clone(), r.offset());
                        }
                    }
                }
                Ok(())
            })
            .await?;
            if let ScanEnd::Invalid { position, reason } = end {
                return Err(StorageError::Corrupt {
                    path,
                    position,
                    offset: base,
                    reason,
                });
            }
        }

        // Pass 2: rewrite each segment that loses records.
        let horizon = now_ms.saturating_sub(self.config.delete_retention_ms);
        let mut markers = TxnMarkers {
            data_read: HashSet::new(),
            last_marker: self
                .st
                .borrow()
                .txns
                .markers
                .values()
                .map(|m| (m.producer_id, m.offset))
                .collect(),
            keep_from: oldest_snapshot(&self.dir)?.unwrap_or(i64::MAX),
            now_ms,
            delete_retention_ms: self.config.delete_retention_ms,
        };
        let mut stats = CompactionStats {
            ran: true,
            ..Default::default()
        };
        for &(base, size, generation) in &sealed {
            let path = seg_path(&self.dir, base, "log");
            let reader = file::open_read(&path)?;
            let mut out = BytesMut::new();
            let mut idx = SegIndex::new();
            let mut removed = 0u64;
            // Offsets of the markers removed from this segment, ascending.
            let mut markers_removed: Vec<i64> = Vec::new();
            let mut aborts_removed: Vec<i64> = Vec::new();
            let mut markers_stamped = 0u64;
            let mut failed: Option<StorageError> = None;
            let interval = u64::from(self.config.index_interval_bytes);
            file::scan_segment(&reader, &path, size, max_batch, |_, b| {
                let decided = if b.is_control() {
                    match markers.on_control(b) {
                        MarkerFate::Remove { commit } => {
                            markers_removed.push(b.base_offset());
                            if !commit {
                                aborts_removed.push(b.base_offset());
                            }
                            Ok((None, 0))
                        }
                        MarkerFate::Stamp { horizon_ms } => {
                            match with_delete_horizon(b, horizon_ms, max_dec) {
                                Ok(stamped) => {
                                    markers_stamped += 1;
                                    Ok((Some(stamped), 0))
                                }
                                // Its first record decoded (it is a
                                // marker); a batch that does not decode
                                // past it stays as written, like any
                                // batch compaction cannot open.
                                Err(_) => Ok((Some(b.clone()), 0)),
                            }
                        }
                        MarkerFate::Keep => Ok((Some(b.clone()), 0)),
                    }
                } else {
                    markers.on_data(b);
                    if aborted.holds(b) {
                        // At least one, so that the segment is rewritten
                        // even for a batch claiming no records.
                        Ok((None, b.records_count().max(1) as u64))
                    } else {
                        retain(b, &latest, horizon, max_dec)
                    }
                };
                match decided {
                    Ok((kept, n)) => {
                        removed += n;
                        if let Some(kept) = kept {
                            let pos = out.len() as u64;
                            idx.on_batch(
                                kept.base_offset(),
                                pos,
                                kept.size() as u64,
                                kept.max_timestamp(),
                                interval,
                            );
                            out.put_slice(kept.as_bytes());
                        }
                    }
                    Err(e) => failed = Some(e),
                }
                Ok(())
            })
            .await?;
            if let Some(e) = failed {
                return Err(e);
            }
            stats.bytes_before += size;
            if removed == 0 && markers_removed.is_empty() && markers_stamped == 0 {
                stats.bytes_after += size;
                continue;
            }
            idx.finish();
            let new_len = out.len() as u64;
            let cleaned = path.with_extension("log.cleaned");
            write_file(&cleaned, out.freeze()).await?;
            failpoint::hit("compact.before_swap");
            // The swap: short, under the I/O role, and only if the segment
            // is unchanged since we read it (not truncated or deleted).
            let _io = self.acquire_io().await;
            let still = self.st.borrow().segments.get(&base).is_some_and(|s| {
                s.generation == generation && s.base < self.st.borrow().active_base()
            });
            if !still {
                file::remove_if_exists(&cleaned)?;
                continue;
            }
            let (ip, tp) = (
                seg_path(&self.dir, base, "index"),
                seg_path(&self.dir, base, "timeindex"),
            );
            file::remove_if_exists(&ip)?;
            file::remove_if_exists(&tp)?;
            // The `.txnindex` is replaced, not removed, before the swap: it
            // names the new length, so until the rename it reads as damaged
            // (open then reads every segment) and is never missing (a
            // missing one may be taken for a log older than transactions).
            // It loses the entries of the ABORT markers removed: an entry
            // names a marker of this segment, and one whose marker is gone
            // has no data left either (`TxnMarkers`), so no read_committed
            // Fetch can return a record it would have to hide. Keeping
            // them would be harmless but would grow with every abort.
            let xp = seg_path(&self.dir, base, "txnindex");
            let aborted = {
                let st = self.st.borrow();
                let next = st.segments.get(&base).map_or(base, |s| s.next);
                let mut v = st.txns.aborted_in(base, next);
                v.retain(|a| aborts_removed.binary_search(&a.last_offset).is_err());
                v
            };
            file::write_atomic(&xp, &crate::txn::encode_txnindex(new_len, &aborted))?;
            file::fsync_dir(&self.dir)?;
            failpoint::hit("compact.before_rename");
            std::fs::rename(&cleaned, &path).map_err(|e| StorageError::io("rename", &path, e))?;
            file::fsync_dir(&self.dir)?;
            failpoint::hit("compact.after_rename");
            index::write_files(&idx, new_len, &ip, &tp)?;
            let mut st = self.st.borrow_mut();
            let seg = st.segments.get_mut(&base).expect("checked above");
            seg.size = new_len;
            seg.disk_size = new_len;
            seg.generation += 1;
            seg.set_reader(None);
            let new_gen = seg.generation;
            let seg_next = seg.next;
            st.txns.forget_aborted(&aborts_removed);
            st.drop_cache_below(seg_next);
            st.drop_cached_index(base);
            st.insert_cached_index(base, new_gen, std::rc::Rc::new(idx));
            stats.segments_rewritten += 1;
            stats.records_removed += removed;
            stats.markers_removed += markers_removed.len() as u64;
            stats.markers_stamped += markers_stamped;
            stats.bytes_after += new_len;
        }
        if let Some(&(last, _, _)) = sealed.last() {
            let next = self
                .st
                .borrow()
                .segments
                .get(&last)
                .map(|s| s.next)
                .unwrap_or(last);
            file::write_atomic(&self.dir.join(CLEANER), next.to_string().as_bytes())?;
        }
        tracing::info!(dir = %self.dir.display(), ?stats, "compaction pass done");
        Ok(stats)
    }
}

async fn write_file(path: &std::path::Path, data: Bytes) -> Result<()> {
    let f = std::fs::File::create(path).map_err(|e| StorageError::io("create", path, e))?;
    let f = monoio::fs::File::from_std(f).map_err(|e| StorageError::io("open", path, e))?;
    let (res, _) = f.write_all_at(data, 0).await;
    res.map_err(|e| StorageError::io("write", path, e))?;
    f.sync_data()
        .await
        .map_err(|e| StorageError::io("fdatasync", path, e))?;
    Ok(())
}

/// The offset of the oldest producer-state snapshot in `dir`, if any.
fn oldest_snapshot(dir: &std::path::Path) -> Result<Option<i64>> {
    let entries = std::fs::read_dir(dir).map_err(|e| StorageError::io("readdir", dir, e))?;
    let mut oldest = None;
    for entry in entries {
        let entry = entry.map_err(|e| StorageError::io("readdir", dir, e))?;
        let name = entry.file_name();
        if let Some((offset, "snapshot")) = crate::log::parse_base(&name.to_string_lossy()) {
            oldest = Some(oldest.map_or(offset, |o: i64| o.min(offset)));
        }
    }
    Ok(oldest)
}

/// When a transaction marker (a COMMIT or ABORT control batch) is removed
/// (Kafka's `LogCleaner.cleanInto` with `CleanedTransactionMetadata` and
/// KIP-534). Pass 2 reads every sealed segment from the log start in
/// offset order, so a transaction's data is always read before its
/// marker. A marker is *removable* when all of these hold:
///
/// - No data batch of its transaction was read in this pass (Kafka's
///   `onControlBatchRead`: a COMMIT is removable when
///   `ongoingCommittedTxns` did not hold its producer, an ABORT when no
///   batch of it was observed). A batch that this very pass removes
///   (aborted data, or records all superseded) still counts, as in Kafka,
///   so a marker becomes removable one pass after its last data went at
///   the earliest. So an aborted transaction loses its data at the first
///   pass; a committed one keeps its marker while any record survives.
/// - It is not its producer's last marker while the producer is
///   remembered (not expired): Kafka keeps that batch
///   (`isBatchLastRecordOfProducer`, case 3) because it carries the
///   producer epoch that fences zombies, and so do we, for a state rebuilt
///   by reading the segments. (Kafka also keeps each producer's last data
///   batch, for its last sequence; here the producer snapshot at the
///   active segment's base carries those, and compaction never touches
///   the active segment or a snapshot.)
/// - It lies below the oldest producer snapshot on disk: open may start
///   from any kept snapshot (an older one when the latest is damaged),
///   and one taken inside the transaction holds it as open; with its
///   marker gone it would stay open for ever and pin the last stable
///   offset. Below every snapshot, each state open can load already has
///   the transaction ended, and a read of all segments sees neither its
///   data nor its marker. Only the latest three segment bases have one
///   (open removes older ones a crash left), so this keeps the markers of
///   the last few segments only.
///
/// A removable marker without a delete horizon is rewritten with one,
/// `now + delete.retention.ms` (KIP-534: attribute bit 0x40, the horizon
/// in the base timestamp, records' timestamp deltas taken from it, same
/// offset, max timestamp and CRC-32C recomputed; Kafka's `filterTo`
/// `needToSetDeleteHorizon`); one whose horizon has passed is removed
/// (`deleteHorizonMs <= currentTime`). The horizon is stamped rather than
/// taken from the marker's own timestamp (as our tombstones are): the
/// window then starts when the transaction's data is gone, so a reader
/// that read the data before a pass still finds the marker (and an
/// ABORT's aborted-transaction entry, which goes with it) for
/// `delete.retention.ms`, however old the marker; and it is in the batch,
/// so it survives restarts and every replica applies the same rule.
/// Clients accept such batches (Kafka's cleaner writes them), and so do
/// our fetch path and `kafka-protocol` (`RecordBatch::delete_horizon_ms`).
///
/// Undecided transactions are never reached: the pass stops below the
/// first unstable offset.
struct TxnMarkers {
    /// Producers of which a transactional data batch was read in this pass
    /// since their last marker.
    data_read: HashSet<i64>,
    /// Producer id -> offset of its last marker (remembered producers).
    last_marker: HashMap<i64, i64>,
    /// The oldest snapshot's offset: markers at or past it are kept.
    keep_from: i64,
    now_ms: i64,
    delete_retention_ms: i64,
}

/// What a pass does with a control batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MarkerFate {
    Keep,
    /// Rewrite it with this delete horizon.
    Stamp {
        horizon_ms: i64,
    },
    /// Drop it; `commit` tells a COMMIT from an ABORT marker.
    Remove {
        commit: bool,
    },
}

impl TxnMarkers {
    fn on_data(&mut self, b: &RecordBatch) {
        if b.is_transactional() && b.producer_id() >= 0 {
            self.data_read.insert(b.producer_id());
        }
    }

    fn on_control(&mut self, b: &RecordBatch) -> MarkerFate {
        let pid = b.producer_id();
        if !b.is_transactional() || pid < 0 {
            return MarkerFate::Keep;
        }
        let Some(marker) = crate::txn::marker_of(b) else {
            return MarkerFate::Keep;
        };
        let data_read = self.data_read.remove(&pid);
        let removable = !data_read
            && b.base_offset() < self.keep_from
            && self.last_marker.get(&pid) != Some(&b.base_offset());
        match b.delete_horizon_ms() {
            _ if !removable => MarkerFate::Keep,
            None => MarkerFate::Stamp {
                horizon_ms: self.now_ms.saturating_add(self.delete_retention_ms),
            },
            Some(h) if h <= self.now_ms => MarkerFate::Remove {
                commit: marker.commit,
            },
            Some(_) => MarkerFate::Keep,
        }
    }
}

/// Control batch `b` rewritten with delete horizon `horizon_ms` (see
/// [`TxnMarkers`]).
fn with_delete_horizon(b: &RecordBatch, horizon_ms: i64, max_dec: usize) -> Result<RecordBatch> {
    let records: Vec<Record> = b
        .decompressed_records(max_dec)?
        .collect::<std::result::Result<_, _>>()?;
    let kept: Vec<&Record> = records.iter().collect();
    encode_retained(b, &kept, Some(horizon_ms))
}

/// The aborted transactions' ranges by producer, to recognise their
/// batches.
struct AbortedIndex(HashMap<i64, Vec<(i64, i64)>>);

impl AbortedIndex {
    fn of(t: &crate::txn::Transactions) -> Self {
        let mut m: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
        for a in &t.aborted {
            m.entry(a.producer_id)
                .or_default()
                .push((a.first_offset, a.last_offset));
        }
        AbortedIndex(m)
    }

    /// Whether `b` is a data batch of an aborted transaction.
    fn holds(&self, b: &RecordBatch) -> bool {
        !b.is_control()
            && b.is_transactional()
            && self.0.get(&b.producer_id()).is_some_and(|ranges| {
                ranges
                    .iter()
                    .any(|&(first, last)| first <= b.base_offset() && b.base_offset() < last)
            })
    }
}

/// Decides what of batch `b` survives: `(batch to write, records removed)`.
/// Control batches and batches too large to decompress are kept whole.
fn retain(
    b: &RecordBatch,
    latest: &HashMap<Bytes, i64>,
    horizon: i64,
    max_dec: usize,
) -> Result<(Option<RecordBatch>, u64)> {
    if b.is_control() {
        return Ok((Some(b.clone()), 0));
    }
    let Ok(records) = b.decompressed_records(max_dec) else {
        return Ok((Some(b.clone()), 0));
    };
    let records: Vec<Record> = match records.collect::<std::result::Result<_, _>>() {
        Ok(r) => r,
        Err(_) => return Ok((Some(b.clone()), 0)),
    };
    let total = records.len();
    let kept: Vec<&Record> = records
        .iter()
        .filter(|r| match r.key() {
            None => true,
            Some(k) => {
                latest.get(k).is_none_or(|&o| o == r.offset())
                    && !(r.value().is_none() && b.max_timestamp() < horizon)
            }
        })
        .collect();
    let removed = (total - kept.len()) as u64;
    if removed == 0 {
        return Ok((Some(b.clone()), 0));
    }
    if kept.is_empty() {
        return Ok((None, removed));
    }
    Ok((Some(encode_retained(b, &kept, None)?), removed))
}

fn put_varint(out: &mut Vec<u8>, v: i64) {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

fn put_nullable(out: &mut Vec<u8>, b: Option<&Bytes>) {
    match b {
        None => put_varint(out, -1),
        Some(b) => {
            put_varint(out, b.len() as i64);
            out.extend_from_slice(b);
        }
    }
}

/// Re-encodes `orig` with only `kept`, preserving each record's offset
/// and timestamp deltas (so offsets keep their gaps), the header fields
/// and the codec. kafka-protocol's `RecordBatchBuilder` numbers records
/// consecutively, so compaction carries its own small encoder. With
/// `delete_horizon_ms` the batch gets KIP-534's horizon: attribute bit
/// 0x40 and the horizon as base timestamp, each record's delta taken from
/// it so that its timestamp is unchanged (Kafka's `buildRetainedRecordsInto`).
fn encode_retained(
    orig: &RecordBatch,
    kept: &[&Record],
    delete_horizon_ms: Option<i64>,
) -> Result<RecordBatch> {
    let base_ts = delete_horizon_ms.unwrap_or(orig.base_timestamp());
    let mut payload = Vec::new();
    let mut body = Vec::new();
    for r in kept {
        body.clear();
        body.push(r.attributes() as u8);
        put_varint(
            &mut body,
            orig.base_timestamp()
                .wrapping_add(r.timestamp_delta())
                .wrapping_sub(base_ts),
        );
        put_varint(&mut body, i64::from(r.offset_delta()));
        put_nullable(&mut body, r.key());
        put_nullable(&mut body, r.value());
        let headers: Vec<_> = r.headers().iter().collect();
        put_varint(&mut body, headers.len() as i64);
        for h in headers {
            put_nullable(&mut body, Some(&h.key));
            put_nullable(&mut body, h.value.as_ref());
        }
        put_varint(&mut payload, body.len() as i64);
        payload.extend_from_slice(&body);
    }
    let payload = match orig.compression() {
        Compression::None => payload,
        c => compress(c, &payload)?,
    };
    let last_delta = kept.last().map_or(0, |r| r.offset_delta());
    let size = 61 + payload.len();
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&orig.base_offset().to_be_bytes());
    out.extend_from_slice(&((size - 12) as i32).to_be_bytes());
    out.extend_from_slice(&orig.partition_leader_epoch().to_be_bytes());
    out.push(2);
    out.extend_from_slice(&[0; 4]);
    let attributes = match delete_horizon_ms {
        Some(_) => orig.attributes().with_delete_horizon(true),
        None => orig.attributes(),
    };
    out.extend_from_slice(&attributes.0.to_be_bytes());
    out.extend_from_slice(&last_delta.to_be_bytes());
    out.extend_from_slice(&base_ts.to_be_bytes());
    out.extend_from_slice(&orig.max_timestamp().to_be_bytes());
    out.extend_from_slice(&orig.producer_id().to_be_bytes());
    out.extend_from_slice(&orig.producer_epoch().to_be_bytes());
    out.extend_from_slice(&orig.base_sequence().to_be_bytes());
    out.extend_from_slice(&(kept.len() as i32).to_be_bytes());
    out.extend_from_slice(&payload);
    let crc = crc32c::crc32c(&out[21..]);
    out[17..21].copy_from_slice(&crc.to_be_bytes());
    let b = RecordBatch::new(Bytes::from(out))?;
    b.verify_crc()?;
    Ok(b)
}
