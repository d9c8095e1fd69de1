//! The fixed 61-byte header of a record batch (magic 2): field offsets,
//! the attributes bit field, and the timestamp type.
//!
//! ```text
//! offset  size  field
//!      0     8  baseOffset
//!      8     4  batchLength          (bytes after this field)
//!     12     4  partitionLeaderEpoch
//!     16     1  magic                (2)
//!     17     4  crc                  (CRC-32C of bytes 21..end)
//!     21     2  attributes
//!     23     4  lastOffsetDelta
//!     27     8  baseTimestamp        (Kafka's docs: firstTimestamp)
//!     35     8  maxTimestamp
//!     43     8  producerId
//!     51     2  producerEpoch
//!     53     4  baseSequence
//!     57     4  recordsCount
//!     61        records...
//! ```
//!
//! The CRC deliberately starts after the fields a broker assigns (base
//! offset and leader epoch), so the broker can stamp them without touching
//! the CRC; see [`super::stamp`].

use super::compression::Compression;
use super::error::RecordError;

pub(crate) const BASE_OFFSET: usize = 0;
pub(crate) const BATCH_LENGTH: usize = 8;
pub(crate) const PARTITION_LEADER_EPOCH: usize = 12;
pub(crate) const MAGIC: usize = 16;
pub(crate) const CRC: usize = 17;
pub(crate) const ATTRIBUTES: usize = 21;
pub(crate) const LAST_OFFSET_DELTA: usize = 23;
pub(crate) const BASE_TIMESTAMP: usize = 27;
pub(crate) const MAX_TIMESTAMP: usize = 35;
pub(crate) const PRODUCER_ID: usize = 43;
pub(crate) const PRODUCER_EPOCH: usize = 51;
pub(crate) const BASE_SEQUENCE: usize = 53;
pub(crate) const RECORDS_COUNT: usize = 57;

/// Size of the header; also the smallest possible batch (no records).
pub const RECORD_BATCH_OVERHEAD: usize = 61;
/// The base offset and length prefix that every message set entry of every
/// magic starts with (Kafka's `LOG_OVERHEAD`).
pub const LOG_OVERHEAD: usize = 12;
/// The only batch format this crate reads or writes.
pub const MAGIC_V2: i8 = 2;
/// The smallest `batchLength` a magic 2 batch can have.
pub(crate) const MIN_BATCH_LENGTH: i32 = (RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) as i32;

/// `producerId` of a batch from a non-idempotent producer.
pub const NO_PRODUCER_ID: i64 = -1;
/// `producerEpoch` of a batch from a non-idempotent producer.
pub const NO_PRODUCER_EPOCH: i16 = -1;
/// `baseSequence` of a batch from a non-idempotent producer.
pub const NO_SEQUENCE: i32 = -1;
/// `partitionLeaderEpoch` as a producer sends it, before the broker stamps.
pub const NO_PARTITION_LEADER_EPOCH: i32 = -1;
/// A missing timestamp.
pub const NO_TIMESTAMP: i64 = -1;

const COMPRESSION_MASK: i16 = 0b111;
const TIMESTAMP_TYPE_BIT: i16 = 1 << 3;
const TRANSACTIONAL_BIT: i16 = 1 << 4;
const CONTROL_BIT: i16 = 1 << 5;
const DELETE_HORIZON_BIT: i16 = 1 << 6;

/// Whose clock a batch's timestamps are (attribute bit 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimestampType {
    /// Set by the producer for each record.
    #[default]
    CreateTime,
    /// Set by the broker on append: the batch's `maxTimestamp` is then
    /// every record's timestamp, and the per-record deltas are ignored.
    LogAppendTime,
}

/// The batch attributes (`int16`).
///
/// Bits 0-2 compression, 3 timestamp type, 4 transactional, 5 control,
/// 6 "has delete horizon" (KIP-534: the base timestamp is then the time
/// after which compaction may drop tombstones and aborted markers).
/// Higher bits are unused and kept as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Attributes(pub i16);

impl Attributes {
    /// The codec, or an error for the unassigned ids 5-7.
    pub fn compression(self) -> Result<Compression, RecordError> {
        let id = (self.0 & COMPRESSION_MASK) as u8;
        Compression::from_id(id).ok_or(RecordError::UnknownCompression(id))
    }

    pub fn timestamp_type(self) -> TimestampType {
        if self.0 & TIMESTAMP_TYPE_BIT != 0 {
            TimestampType::LogAppendTime
        } else {
            TimestampType::CreateTime
        }
    }

    pub fn is_transactional(self) -> bool {
        self.0 & TRANSACTIONAL_BIT != 0
    }

    pub fn is_control(self) -> bool {
        self.0 & CONTROL_BIT != 0
    }

    pub fn has_delete_horizon(self) -> bool {
        self.0 & DELETE_HORIZON_BIT != 0
    }

    /// These attributes with the compression bits replaced.
    pub fn with_compression(self, c: Compression) -> Self {
        Attributes((self.0 & !COMPRESSION_MASK) | i16::from(c.id()))
    }

    pub fn with_timestamp_type(self, t: TimestampType) -> Self {
        self.with_bit(TIMESTAMP_TYPE_BIT, t == TimestampType::LogAppendTime)
    }

    pub fn with_transactional(self, on: bool) -> Self {
        self.with_bit(TRANSACTIONAL_BIT, on)
    }

    pub fn with_control(self, on: bool) -> Self {
        self.with_bit(CONTROL_BIT, on)
    }

    pub fn with_delete_horizon(self, on: bool) -> Self {
        self.with_bit(DELETE_HORIZON_BIT, on)
    }

    fn with_bit(self, bit: i16, on: bool) -> Self {
        Attributes(if on { self.0 | bit } else { self.0 & !bit })
    }
}

/// Big-endian readers over a buffer already known to hold a full header.
/// They take `&[u8]` and an offset below [`RECORD_BATCH_OVERHEAD`].
pub(crate) fn get_i16(b: &[u8], at: usize) -> i16 {
    i16::from_be_bytes([b[at], b[at + 1]])
}

pub(crate) fn get_i32(b: &[u8], at: usize) -> i32 {
    i32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

pub(crate) fn get_i64(b: &[u8], at: usize) -> i64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    i64::from_be_bytes(a)
}

/// Checks what every magic 2 batch must satisfy before any field is
/// trusted: the magic, the header size, the length field against the
/// buffer (which must hold exactly one batch), and the codec id.
pub(crate) fn check(buf: &[u8]) -> Result<(), RecordError> {
    if let Some(&magic) = buf.get(MAGIC) {
        let magic = magic as i8;
        match magic {
            MAGIC_V2 => {}
            0 | 1 => return Err(RecordError::LegacyMagic(magic)),
            _ => return Err(RecordError::UnknownMagic(magic)),
        }
    }
    if buf.len() < RECORD_BATCH_OVERHEAD {
        return Err(RecordError::Truncated {
            needed: RECORD_BATCH_OVERHEAD,
            available: buf.len(),
        });
    }
    let batch_length = get_i32(buf, BATCH_LENGTH);
    if batch_length < MIN_BATCH_LENGTH {
        return Err(RecordError::InvalidBatchLength(batch_length));
    }
    let declared = LOG_OVERHEAD + batch_length as usize;
    if declared > buf.len() {
        return Err(RecordError::Truncated {
            needed: declared,
            available: buf.len(),
        });
    }
    if declared < buf.len() {
        return Err(RecordError::LengthMismatch {
            declared,
            actual: buf.len(),
        });
    }
    Attributes(get_i16(buf, ATTRIBUTES)).compression()?;
    Ok(())
}

/// The CRC-32C a batch should carry: over everything from the attributes
/// to the end.
pub(crate) fn compute_crc(buf: &[u8]) -> u32 {
    crc32c::crc32c(&buf[ATTRIBUTES..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_bits() {
        let a = Attributes(0)
            .with_compression(Compression::Zstd)
            .with_timestamp_type(TimestampType::LogAppendTime)
            .with_transactional(true)
            .with_control(true)
            .with_delete_horizon(true);
        assert_eq!(a.0, 0b111_1100);
        assert_eq!(a.compression(), Ok(Compression::Zstd));
        assert_eq!(a.timestamp_type(), TimestampType::LogAppendTime);
        assert!(a.is_transactional() && a.is_control() && a.has_delete_horizon());
        let b = a
            .with_compression(Compression::None)
            .with_timestamp_type(TimestampType::CreateTime)
            .with_transactional(false)
            .with_control(false)
            .with_delete_horizon(false);
        assert_eq!(b.0, 0);
        assert_eq!(
            Attributes(5).compression(),
            Err(RecordError::UnknownCompression(5))
        );
        // Unused high bits survive edits.
        assert_eq!(Attributes(0x4000).with_control(true).0, 0x4020);
    }
}
