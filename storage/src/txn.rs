//! [`Transactions`]: the transaction state of one log, kept up to date as
//! batches pass through the append path (leader or follower), as Kafka's
//! `ProducerStateManager` and `TransactionIndex` keep it per partition.
//!
//! What is kept, and why:
//! - the open transactions (producer id -> offset of its first
//!   transactional batch): they hold the last stable offset (LSO) back;
//! - completed transactions whose marker may not be committed yet (Kafka's
//!   "unreplicated transactions"): until the high watermark passes the
//!   marker, a truncation may cut the marker and reopen the transaction,
//!   so they still hold the LSO back; pruned lazily once below the high
//!   watermark;
//! - the aborted transactions (producer id, first offset, marker offset):
//!   read_committed consumers are told which producers' records to drop;
//! - per transactional producer, what its last marker said (producer
//!   epoch, coordinator epoch, offset, time): a new leader fences zombie
//!   producers and stale coordinators with it (DescribeProducers shows it).
//!
//! An idle log holds empty collections only (no allocation).

use std::collections::{HashMap, VecDeque};

use kafka_protocol::records::RecordBatch;
use kafka_protocol::records::{ControlRecordType, EndTxnMarker};

/// An aborted transaction, as a Fetch response names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbortedTxn {
    pub producer_id: i64,
    pub first_offset: i64,
}

/// An aborted transaction with its marker's offset (Kafka's `AbortedTxn`
/// of the `.txnindex`, whose `lastStableOffset` this log does not need).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AbortedRange {
    pub producer_id: i64,
    pub first_offset: i64,
    /// The offset of the ABORT marker.
    pub last_offset: i64,
    /// The last stable offset once it completed (Kafka keeps it in the
    /// `.txnindex` entry; written for the same layout, not read).
    pub last_stable_offset: i64,
}

/// A completed transaction whose marker may not be committed yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Completed {
    pub producer_id: i64,
    pub first_offset: i64,
    pub marker_offset: i64,
}

/// What a producer's last transaction marker said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxnMarkerInfo {
    pub producer_id: i64,
    /// The producer epoch of the marker (an abort that fences a zombie
    /// carries the bumped epoch).
    pub producer_epoch: i16,
    pub coordinator_epoch: i32,
    pub offset: i64,
    pub timestamp: i64,
}

/// One producer's transaction state, for DescribeProducers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProducerTxnState {
    pub producer_id: i64,
    /// The producer's latest epoch (of its last batch or last marker).
    pub producer_epoch: i16,
    /// The last sequence of its last batch (-1 when none is remembered).
    pub last_sequence: i32,
    /// The largest timestamp of its last batch or marker (-1 if unknown).
    pub last_timestamp: i64,
    /// The coordinator epoch of its last marker (-1 if none).
    pub coordinator_epoch: i32,
    /// The first offset of its open transaction (-1 if none).
    pub current_txn_start_offset: i64,
}

/// The transaction state of one log (see the module docs).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Transactions {
    /// Producer id -> first offset of its open transaction.
    pub ongoing: HashMap<i64, i64>,
    /// Completed transactions not yet known to be below the high
    /// watermark, in marker order.
    pub unreplicated: VecDeque<Completed>,
    /// Aborted transactions, in marker order (which is also
    /// `last_offset` order).
    pub aborted: Vec<AbortedRange>,
    /// Producer id -> its last marker.
    pub markers: HashMap<i64, TxnMarkerInfo>,
}

/// The marker carried by a control batch, if it is a COMMIT or ABORT.
pub(crate) fn marker_of(b: &RecordBatch) -> Option<EndTxnMarker> {
    if !b.is_control() {
        return None;
    }
    // A control batch holds one small record; 64 KiB bounds a hostile
    // compressed one.
    let mut records = b.decompressed_records(64 << 10).ok()?;
    let record = records.next()?.ok()?;
    match record.key().map(|k| ControlRecordType::parse_key(k)) {
        Some(Ok(ControlRecordType::Commit | ControlRecordType::Abort)) => {
            EndTxnMarker::from_record(&record).ok()
        }
        _ => None,
    }
}

impl Transactions {
    /// Records a batch appended at its base offset.
    pub fn record(&mut self, b: &RecordBatch) {
        let pid = b.producer_id();
        if pid < 0 || !b.is_transactional() {
            return;
        }
        if b.is_control() {
            if let Some(m) = marker_of(b) {
                self.end(
                    TxnMarkerInfo {
                        producer_id: pid,
                        producer_epoch: b.producer_epoch(),
                        coordinator_epoch: m.coordinator_epoch,
                        offset: b.base_offset(),
                        timestamp: b.max_timestamp(),
                    },
                    m.commit,
                );
            }
            return;
        }
        self.ongoing.entry(pid).or_insert(b.base_offset());
    }

    /// A marker ends the producer's open transaction. A marker with no
    /// open transaction (a retry, or an abort of a transaction that wrote
    /// nothing here) completes nothing: it neither holds the LSO back nor
    /// enters the aborted list (Kafka's `appendEndTxnMarker` emits no
    /// `CompletedTxn` then).
    fn end(&mut self, m: TxnMarkerInfo, commit: bool) {
        self.markers.insert(m.producer_id, m);
        let Some(first_offset) = self.ongoing.remove(&m.producer_id) else {
            return;
        };
        self.unreplicated.push_back(Completed {
            producer_id: m.producer_id,
            first_offset,
            marker_offset: m.offset,
        });
        if !commit {
            // Kafka's `ProducerStateManager.lastStableOffset(completedTxn)`.
            let last_stable_offset = self.ongoing.values().copied().min().unwrap_or(m.offset + 1);
            self.aborted.push(AbortedRange {
                producer_id: m.producer_id,
                first_offset,
                last_offset: m.offset,
                last_stable_offset,
            });
        }
    }

    /// The first offset that is not stable at high watermark `hw`, or `hw`
    /// (callers clamp it to the log start). Prunes completed transactions
    /// whose marker is below `hw`.
    pub fn first_unstable(&mut self, hw: i64) -> i64 {
        while self
            .unreplicated
            .front()
            .is_some_and(|c| c.marker_offset < hw)
        {
            self.unreplicated.pop_front();
        }
        if self.unreplicated.is_empty() && self.unreplicated.capacity() > 0 {
            // An idle log keeps no allocation.
            self.unreplicated = VecDeque::new();
        }
        let ongoing = self.ongoing.values().copied().min();
        let unreplicated = self.unreplicated.iter().map(|c| c.first_offset).min();
        [ongoing, unreplicated]
            .into_iter()
            .flatten()
            .fold(hw, i64::min)
    }

    /// The first offset of `producer_id`'s open transaction.
    pub fn open_of(&self, producer_id: i64) -> Option<i64> {
        self.ongoing.get(&producer_id).copied()
    }

    /// The first offset of any open transaction or of any completed one
    /// not yet pruned (its marker may not be committed), without pruning.
    pub fn first_open(&self) -> Option<i64> {
        let ongoing = self.ongoing.values().copied().min();
        let unreplicated = self.unreplicated.iter().map(|c| c.first_offset).min();
        [ongoing, unreplicated].into_iter().flatten().min()
    }

    /// The aborted transactions whose range meets `[from, upper)`, by
    /// first offset (Kafka: `lastOffset >= fetchOffset` and
    /// `firstOffset < upperBoundOffset`), at most `limit` of them.
    pub fn aborted_between(&self, from: i64, upper: i64, limit: usize) -> Vec<AbortedTxn> {
        let start = self.aborted.partition_point(|a| a.last_offset < from);
        let mut out = Vec::new();
        for a in &self.aborted[start..] {
            if a.first_offset < upper {
                if out.len() == limit {
                    break;
                }
                out.push(AbortedTxn {
                    producer_id: a.producer_id,
                    first_offset: a.first_offset,
                });
            }
            // Kafka's stop (`TxnIndexSearchResult.isComplete`): every
            // transaction open when this one ended had started at or past
            // its last stable offset, so none ending later started below
            // `upper`. Without it every fetch would walk all later aborts.
            if a.last_stable_offset >= upper {
                break;
            }
        }
        out.sort_by_key(|a| a.first_offset);
        out
    }

    /// Forgets everything at or past `offset` (a truncation): transactions
    /// that started there are gone; a completed one whose marker is cut
    /// but whose data is not is open again.
    pub fn truncate(&mut self, offset: i64) {
        self.ongoing.retain(|_, first| *first < offset);
        let mut reopened: Vec<(i64, i64)> = Vec::new();
        while self
            .unreplicated
            .back()
            .is_some_and(|c| c.marker_offset >= offset)
        {
            let c = self.unreplicated.pop_back().expect("checked");
            if c.first_offset < offset {
                reopened.push((c.producer_id, c.first_offset));
            }
        }
        while self.aborted.last().is_some_and(|a| a.last_offset >= offset) {
            let a = self.aborted.pop().expect("checked");
            // Normally also among the unreplicated ones (their marker was
            // not committed); counted once either way.
            if a.first_offset < offset {
                reopened.push((a.producer_id, a.first_offset));
            }
        }
        for (pid, first) in reopened {
            let e = self.ongoing.entry(pid).or_insert(first);
            *e = (*e).min(first);
        }
        self.markers.retain(|_, m| m.offset < offset);
        self.shrink();
    }

    /// The aborted transactions whose marker lies in `[from, until)` (one
    /// segment's `.txnindex`).
    pub fn aborted_in(&self, from: i64, until: i64) -> Vec<AbortedRange> {
        let a = self.aborted.partition_point(|a| a.last_offset < from);
        let b = self.aborted.partition_point(|a| a.last_offset < until);
        self.aborted[a..b].to_vec()
    }

    /// Forgets the aborted transactions whose ABORT marker compaction has
    /// removed (`marker_offsets`, ascending): their data went before their
    /// marker, so no read can return a record of theirs any more.
    pub fn forget_aborted(&mut self, marker_offsets: &[i64]) {
        if marker_offsets.is_empty() {
            return;
        }
        self.aborted
            .retain(|a| marker_offsets.binary_search(&a.last_offset).is_err());
        self.shrink();
    }

    /// Forgets aborted transactions wholly below the new log start.
    pub fn drop_below(&mut self, log_start: i64) {
        let n = self.aborted.partition_point(|a| a.last_offset < log_start);
        if n > 0 {
            self.aborted.drain(..n);
            self.shrink();
        }
    }

    /// Forgets producers whose last marker is older than `expire_before`
    /// and which have no open transaction.
    pub fn expire(&mut self, expire_before: i64) {
        let ongoing = &self.ongoing;
        self.markers
            .retain(|pid, m| m.timestamp >= expire_before || ongoing.contains_key(pid));
        self.shrink();
    }

    fn shrink(&mut self) {
        if self.aborted.is_empty() {
            self.aborted = Vec::new();
        }
        if self.ongoing.is_empty() {
            self.ongoing = HashMap::new();
        }
        if self.markers.is_empty() {
            self.markers = HashMap::new();
        }
        if self.unreplicated.is_empty() {
            self.unreplicated = VecDeque::new();
        }
    }

    /// Heap bytes held (approximate, for the memory-bound checks).
    pub fn heap_bytes(&self) -> usize {
        self.ongoing.capacity() * 24
            + self.unreplicated.capacity() * std::mem::size_of::<Completed>()
            + self.aborted.capacity() * std::mem::size_of::<AbortedRange>()
            + self.markers.capacity() * (8 + std::mem::size_of::<TxnMarkerInfo>())
    }
}

/// The most bytes a `.txnindex` or producer snapshot file may have (a
/// bound on what open reads; a larger file is treated as damaged).
pub(crate) const MAX_STATE_FILE_BYTES: u64 = 256 << 20;

const TXNINDEX_MAGIC: &[u8; 4] = b"TMTX";
const SNAPSHOT_MAGIC: &[u8; 4] = b"TMPS";
const SNAPSHOT_VERSION: u8 = 1;
/// Kafka's `.txnindex` entry: version i16, producer id, first offset,
/// last offset, last stable offset.
const TXN_ENTRY: usize = 34;

/// The `.txnindex` of a sealed segment of `log_len` bytes: the aborted
/// transactions whose marker it holds, as Kafka's 34-byte entries, framed
/// like the other index files (magic, segment length, count, CRC-32C).
pub(crate) fn encode_txnindex(log_len: u64, entries: &[AbortedRange]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + entries.len() * TXN_ENTRY + 4);
    out.extend_from_slice(TXNINDEX_MAGIC);
    out.extend_from_slice(&log_len.to_be_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_be_bytes());
    for a in entries {
        out.extend_from_slice(&0i16.to_be_bytes());
        out.extend_from_slice(&a.producer_id.to_be_bytes());
        out.extend_from_slice(&a.first_offset.to_be_bytes());
        out.extend_from_slice(&a.last_offset.to_be_bytes());
        out.extend_from_slice(&a.last_stable_offset.to_be_bytes());
    }
    let crc = crc32c::crc32c(&out);
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

/// Reads a `.txnindex`; `None` if damaged or not for a segment of
/// `log_len` bytes.
pub(crate) fn decode_txnindex(data: &[u8], log_len: u64) -> Option<Vec<AbortedRange>> {
    let mut r = Reader::checked(data, TXNINDEX_MAGIC)?;
    if r.u64()? != log_len {
        return None;
    }
    let n = r.u32()? as usize;
    if r.left() != n.checked_mul(TXN_ENTRY)? {
        return None;
    }
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        r.i16()?;
        v.push(AbortedRange {
            producer_id: r.i64()?,
            first_offset: r.i64()?,
            last_offset: r.i64()?,
            last_stable_offset: r.i64()?,
        });
    }
    v.windows(2)
        .all(|w| w[0].last_offset < w[1].last_offset)
        .then_some(v)
}

/// A producer-state snapshot at `offset` (the base of the segment that
/// starts there): the open and unreplicated transactions, the producers'
/// last markers, and the idempotent producers' last batches (their
/// encoding is `producers.rs`'s). Aborted transactions are not in it:
/// the `.txnindex` files hold them.
pub(crate) fn encode_snapshot(offset: i64, t: &Transactions, producers: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + t.ongoing.len() * 16 + producers.len());
    out.extend_from_slice(SNAPSHOT_MAGIC);
    out.push(SNAPSHOT_VERSION);
    out.extend_from_slice(&offset.to_be_bytes());
    out.extend_from_slice(&(t.ongoing.len() as u32).to_be_bytes());
    let mut ongoing: Vec<_> = t.ongoing.iter().collect();
    ongoing.sort();
    for (pid, first) in ongoing {
        out.extend_from_slice(&pid.to_be_bytes());
        out.extend_from_slice(&first.to_be_bytes());
    }
    out.extend_from_slice(&(t.unreplicated.len() as u32).to_be_bytes());
    for c in &t.unreplicated {
        out.extend_from_slice(&c.producer_id.to_be_bytes());
        out.extend_from_slice(&c.first_offset.to_be_bytes());
        out.extend_from_slice(&c.marker_offset.to_be_bytes());
    }
    out.extend_from_slice(&(t.markers.len() as u32).to_be_bytes());
    let mut markers: Vec<_> = t.markers.values().collect();
    markers.sort_by_key(|m| m.producer_id);
    for m in markers {
        out.extend_from_slice(&m.producer_id.to_be_bytes());
        out.extend_from_slice(&m.producer_epoch.to_be_bytes());
        out.extend_from_slice(&m.coordinator_epoch.to_be_bytes());
        out.extend_from_slice(&m.offset.to_be_bytes());
        out.extend_from_slice(&m.timestamp.to_be_bytes());
    }
    out.extend_from_slice(&(producers.len() as u32).to_be_bytes());
    out.extend_from_slice(producers);
    let crc = crc32c::crc32c(&out);
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

/// Reads a snapshot taken at `offset`: the transactions (without aborted
/// ones) and the producers' encoded batches; `None` if damaged.
pub(crate) fn decode_snapshot(data: &[u8], offset: i64) -> Option<(Transactions, &[u8])> {
    let mut r = Reader::checked(data, SNAPSHOT_MAGIC)?;
    if r.u8()? != SNAPSHOT_VERSION || r.i64()? != offset {
        return None;
    }
    let mut t = Transactions::default();
    let n = r.count(16)?;
    for _ in 0..n {
        let (pid, first) = (r.i64()?, r.i64()?);
        t.ongoing.insert(pid, first);
    }
    let n = r.count(24)?;
    for _ in 0..n {
        t.unreplicated.push_back(Completed {
            producer_id: r.i64()?,
            first_offset: r.i64()?,
            marker_offset: r.i64()?,
        });
    }
    let n = r.count(30)?;
    for _ in 0..n {
        let m = TxnMarkerInfo {
            producer_id: r.i64()?,
            producer_epoch: r.i16()?,
            coordinator_epoch: r.i32()?,
            offset: r.i64()?,
            timestamp: r.i64()?,
        };
        t.markers.insert(m.producer_id, m);
    }
    let n = r.u32()? as usize;
    let producers = r.take(n)?;
    (r.left() == 0).then_some((t, producers))
}

/// A bounds-checked big-endian reader over a CRC-checked body.
pub(crate) struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    /// The body of `data` if it starts with `magic` and ends with the
    /// CRC-32C of what precedes it.
    pub fn checked(data: &'a [u8], magic: &[u8; 4]) -> Option<Self> {
        if data.len() < 8 || &data[..4] != magic {
            return None;
        }
        let (body, crc) = data.split_at(data.len() - 4);
        (crc32c::crc32c(body).to_be_bytes() == crc).then_some(Reader(&body[4..]))
    }

    pub fn new(data: &'a [u8]) -> Self {
        Reader(data)
    }

    pub fn left(&self) -> usize {
        self.0.len()
    }

    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    pub fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }

    pub fn i16(&mut self) -> Option<i16> {
        Some(i16::from_be_bytes(self.array()?))
    }

    pub fn i32(&mut self) -> Option<i32> {
        Some(i32::from_be_bytes(self.array()?))
    }

    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.array()?))
    }

    pub fn i64(&mut self) -> Option<i64> {
        Some(i64::from_be_bytes(self.array()?))
    }

    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_be_bytes(self.array()?))
    }

    /// A u32 count of entries of at least `min_size` bytes each, checked
    /// against what is left (no allocation is sized by an unchecked count).
    pub fn count(&mut self, min_size: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.checked_mul(min_size)? <= self.left()).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use bytes::BytesMut;
    use kafka_protocol::records::{NewRecord, RecordBatchBuilder, RecordBatchMut};

    fn at(b: Bytes, offset: i64) -> RecordBatch {
        let mut m = RecordBatchMut::new(BytesMut::from(&b[..])).unwrap();
        m.set_base_offset(offset);
        m.freeze()
    }

    fn data(pid: i64, offset: i64, txn: bool) -> RecordBatch {
        let buf = RecordBatchBuilder::new()
            .producer(pid, 0, 0)
            .transactional(txn)
            .record(NewRecord {
                key: None,
                value: Some(Bytes::from_static(b"v")),
                headers: Vec::new(),
                timestamp: 1,
            })
            .build()
            .unwrap();
        at(buf, offset)
    }

    fn marker(pid: i64, offset: i64, commit: bool) -> RecordBatch {
        let buf = EndTxnMarker {
            commit,
            coordinator_epoch: 3,
        }
        .batch(pid, 0, 1)
        .build()
        .unwrap();
        at(buf, offset)
    }

    #[test]
    fn lso_and_aborted_ranges() {
        let mut t = Transactions::default();
        t.record(&data(1, 0, true));
        t.record(&data(2, 1, true));
        t.record(&data(3, 2, false));
        assert_eq!(t.first_unstable(3), 0);
        t.record(&marker(1, 3, false));
        // The marker is not below the high watermark yet.
        assert_eq!(t.first_unstable(3), 0);
        assert_eq!(t.first_unstable(4), 1);
        t.record(&marker(2, 4, true));
        assert_eq!(t.first_unstable(5), 5);
        assert_eq!(
            t.aborted_between(0, 5, 10),
            vec![AbortedTxn {
                producer_id: 1,
                first_offset: 0
            }]
        );
        assert!(t.aborted_between(4, 10, 10).is_empty());
        // The search stops at an abort whose last stable offset reaches
        // the upper bound: pid 1's abort left pid 2's open (LSO 1).
        assert_eq!(t.aborted[0].last_stable_offset, 1);
        assert!(t.aborted_between(0, 0, 10).is_empty());
        assert_eq!(t.markers[&1].coordinator_epoch, 3);
        t.drop_below(4);
        assert!(t.aborted.is_empty());
        // A marker with nothing open completes nothing.
        t.record(&marker(5, 6, false));
        assert!(t.aborted.is_empty());
        assert_eq!(t.first_unstable(6), 6);
        assert_eq!(t.markers[&5].offset, 6);
    }

    #[test]
    fn truncation_reopens_a_transaction_whose_marker_is_cut() {
        let mut t = Transactions::default();
        t.record(&data(1, 0, true));
        t.record(&marker(1, 1, false));
        t.record(&data(2, 2, true));
        t.truncate(1);
        assert_eq!(t.ongoing.get(&1), Some(&0));
        assert!(t.aborted.is_empty());
        assert!(!t.ongoing.contains_key(&2));
        let snap = encode_snapshot(1, &t, b"xyz");
        let (back, producers) = decode_snapshot(&snap, 1).unwrap();
        assert_eq!((back, producers), (t.clone(), &b"xyz"[..]));
        assert!(decode_snapshot(&snap, 2).is_none());
        let entries = [AbortedRange {
            producer_id: 1,
            first_offset: 0,
            last_offset: 1,
            last_stable_offset: 2,
        }];
        let idx = encode_txnindex(100, &entries);
        assert_eq!(idx.len(), 16 + 34 + 4);
        assert_eq!(decode_txnindex(&idx, 100).unwrap(), entries);
        assert!(decode_txnindex(&idx, 99).is_none());
        let mut bad = snap.clone();
        bad[10] ^= 1;
        assert!(decode_snapshot(&bad, 1).is_none());
        assert_eq!(t.first_unstable(1), 0);
        t.truncate(0);
        assert_eq!(t, Transactions::default());
    }
}
