//! [`RecordBatch`]: a read-only, zero-copy view of one magic 2 batch.

use bytes::Bytes;

use super::compression::{self, Compression};
use super::error::RecordError;
use super::header::{self as h, Attributes, TimestampType};
use super::record::{BatchContext, RecordIter};

/// One record batch (magic 2), exactly as it travels: the broker checks and
/// stores these bytes and never re-encodes them.
///
/// Construction validates only what is needed to read the header safely
/// (magic, sizes, codec id); the CRC is checked on demand with
/// [`RecordBatch::verify_crc`], so a caller that already trusts the bytes
/// (say, its own log) does not pay for it twice. Cloning is cheap: it is a
/// `Bytes` handle.
#[derive(Clone, PartialEq, Eq)]
pub struct RecordBatch {
    buf: Bytes,
}

impl std::fmt::Debug for RecordBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordBatch")
            .field("base_offset", &self.base_offset())
            .field("batch_length", &self.batch_length())
            .field("attributes", &self.attributes())
            .field("records_count", &self.records_count())
            .finish_non_exhaustive()
    }
}

impl RecordBatch {
    /// Views `buf`, which must hold exactly one batch.
    ///
    /// To walk a buffer of several batches (a Produce partition's `records`,
    /// a Fetch response), use [`RecordBatches`](super::RecordBatches).
    pub fn new(buf: Bytes) -> Result<Self, RecordError> {
        h::check(&buf)?;
        Ok(RecordBatch { buf })
    }

    /// For bytes that already passed `header::check`.
    pub(crate) fn from_checked(buf: Bytes) -> Self {
        RecordBatch { buf }
    }

    /// The batch's bytes.
    pub fn as_bytes(&self) -> &Bytes {
        &self.buf
    }

    pub fn into_bytes(self) -> Bytes {
        self.buf
    }

    /// Total size in bytes, header included (`batch_length + 12`).
    pub fn size(&self) -> usize {
        self.buf.len()
    }

    pub fn base_offset(&self) -> i64 {
        h::get_i64(&self.buf, h::BASE_OFFSET)
    }

    /// Bytes after the length field (`size() - 12`).
    pub fn batch_length(&self) -> i32 {
        h::get_i32(&self.buf, h::BATCH_LENGTH)
    }

    pub fn partition_leader_epoch(&self) -> i32 {
        h::get_i32(&self.buf, h::PARTITION_LEADER_EPOCH)
    }

    /// Always 2: other magics are refused at construction.
    pub fn magic(&self) -> i8 {
        self.buf[h::MAGIC] as i8
    }

    /// The stored CRC-32C.
    pub fn crc(&self) -> u32 {
        h::get_i32(&self.buf, h::CRC) as u32
    }

    pub fn attributes(&self) -> Attributes {
        Attributes(h::get_i16(&self.buf, h::ATTRIBUTES))
    }

    pub fn last_offset_delta(&self) -> i32 {
        h::get_i32(&self.buf, h::LAST_OFFSET_DELTA)
    }

    /// Kafka's `baseTimestamp` (the protocol guide's `firstTimestamp`): the
    /// first record's timestamp, or the delete horizon when
    /// [`Attributes::has_delete_horizon`] is set.
    pub fn base_timestamp(&self) -> i64 {
        h::get_i64(&self.buf, h::BASE_TIMESTAMP)
    }

    pub fn max_timestamp(&self) -> i64 {
        h::get_i64(&self.buf, h::MAX_TIMESTAMP)
    }

    pub fn producer_id(&self) -> i64 {
        h::get_i64(&self.buf, h::PRODUCER_ID)
    }

    pub fn producer_epoch(&self) -> i16 {
        h::get_i16(&self.buf, h::PRODUCER_EPOCH)
    }

    pub fn base_sequence(&self) -> i32 {
        h::get_i32(&self.buf, h::BASE_SEQUENCE)
    }

    /// The declared number of records (may be negative in a corrupt batch;
    /// iteration then fails).
    pub fn records_count(&self) -> i32 {
        h::get_i32(&self.buf, h::RECORDS_COUNT)
    }

    /// The codec. Never fails: unknown ids are refused at construction.
    pub fn compression(&self) -> Compression {
        self.attributes().compression().unwrap_or_default()
    }

    pub fn timestamp_type(&self) -> TimestampType {
        self.attributes().timestamp_type()
    }

    pub fn is_transactional(&self) -> bool {
        self.attributes().is_transactional()
    }

    pub fn is_control(&self) -> bool {
        self.attributes().is_control()
    }

    pub fn has_delete_horizon(&self) -> bool {
        self.attributes().has_delete_horizon()
    }

    /// The delete horizon (KIP-534), when attribute bit 6 says the base
    /// timestamp holds one.
    pub fn delete_horizon_ms(&self) -> Option<i64> {
        self.has_delete_horizon().then(|| self.base_timestamp())
    }

    /// `base_offset + last_offset_delta`.
    pub fn last_offset(&self) -> i64 {
        self.base_offset()
            .wrapping_add(i64::from(self.last_offset_delta()))
    }

    /// The offset after this batch (`last_offset + 1`).
    pub fn next_offset(&self) -> i64 {
        self.last_offset().wrapping_add(1)
    }

    /// Whether the producer id is set (idempotent or transactional).
    pub fn has_producer_id(&self) -> bool {
        self.producer_id() >= 0
    }

    /// The CRC-32C the batch should carry (attributes to end).
    pub fn compute_crc(&self) -> u32 {
        h::compute_crc(&self.buf)
    }

    /// Checks the stored CRC against the bytes.
    pub fn verify_crc(&self) -> Result<(), RecordError> {
        let (stored, computed) = (self.crc(), self.compute_crc());
        if stored == computed {
            Ok(())
        } else {
            Err(RecordError::CrcMismatch { stored, computed })
        }
    }

    /// The records section as stored (compressed when
    /// [`RecordBatch::compression`] is not `None`).
    pub fn records_payload(&self) -> Bytes {
        self.buf.slice(h::RECORD_BATCH_OVERHEAD..)
    }

    /// Reads the records of an uncompressed batch, zero-copy.
    ///
    /// A compressed batch gives [`RecordError::Compressed`]: decompression
    /// costs memory, so the caller must choose a bound with
    /// [`RecordBatch::decompressed_records`].
    pub fn records(&self) -> Result<RecordIter, RecordError> {
        match self.compression() {
            Compression::None => self.iter_over(self.records_payload()),
            c => Err(RecordError::Compressed(c)),
        }
    }

    /// Reads the records of any batch, decompressing first if needed into
    /// a buffer of at most `max_decompressed` bytes (ignored when the batch
    /// is uncompressed: that path never allocates).
    pub fn decompressed_records(&self, max_decompressed: usize) -> Result<RecordIter, RecordError> {
        let payload = self.records_payload();
        match self.compression() {
            Compression::None => self.iter_over(payload),
            c => {
                // Check the count before paying for decompression.
                self.count()?;
                let data = compression::decompress(c, &payload, max_decompressed)?;
                self.iter_over(Bytes::from(data))
            }
        }
    }

    fn count(&self) -> Result<u32, RecordError> {
        let n = self.records_count();
        u32::try_from(n).map_err(|_| RecordError::InvalidRecordCount(n))
    }

    fn iter_over(&self, data: Bytes) -> Result<RecordIter, RecordError> {
        let ctx = BatchContext {
            base_offset: self.base_offset(),
            base_timestamp: self.base_timestamp(),
            max_timestamp: self.max_timestamp(),
            timestamp_type: self.timestamp_type(),
            base_sequence: self.base_sequence(),
        };
        Ok(RecordIter::new(data, self.count()?, ctx))
    }
}
