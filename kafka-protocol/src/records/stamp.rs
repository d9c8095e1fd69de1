//! In-place stamping of a produced batch: the broker's only write to a
//! batch's bytes (records are never re-encoded).
//!
//! # Why editing the bytes in place is safe
//!
//! * The base offset and the partition leader epoch lie *before* the
//!   CRC-covered range (which starts at the attributes), by design of the
//!   format, so assigning them needs no CRC work and cannot disturb it.
//! * Records store only deltas from the batch's base offset and base
//!   timestamp, so moving the base offset moves every record with it and
//!   changes no record byte; the records (possibly compressed) are never
//!   touched.
//! * For `LogAppendTime`, Kafka's readers (Java's `DefaultRecordBatch`,
//!   librdkafka) take every record's timestamp from the batch's
//!   `maxTimestamp` and ignore the per-record deltas, so setting the
//!   timestamp-type bit and `maxTimestamp` is the whole change. Kafka's
//!   broker does exactly this (`setMaxTimestamp(LOG_APPEND_TIME, now)`)
//!   and leaves `baseTimestamp` alone; so do we, so stored batches are
//!   byte-identical to what Kafka would store.
//! * These two fields are inside the CRC, so the CRC is rewritten. The old
//!   CRC is verified first, in the same pass: a batch corrupted in flight
//!   is refused with [`RecordError::CrcMismatch`] rather than given a fresh
//!   valid CRC that would hide the damage. The verification is the
//!   produce path's CRC check, so no second pass is needed.
//! * Only fixed-size header fields are written, at offsets validated by
//!   [`header::check`](super::header) before anything is touched; the length
//!   of the buffer never changes.

use bytes::BytesMut;

use super::batch::RecordBatch;
use super::error::RecordError;
use super::header::{self as h, Attributes, TimestampType};

/// The CRC-covered bytes that stamping may change: attributes through
/// `maxTimestamp` (offsets 21..43). Everything after is hashed once.
const EDITABLE_END: usize = h::PRODUCER_ID;

/// What the broker assigns to a batch when appending it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// The offset of the batch's first record in the partition.
    pub base_offset: i64,
    /// The leader epoch (the Raft term) under which it is appended.
    pub partition_leader_epoch: i32,
    /// `Some(now)` for topics with `message.timestamp.type=LogAppendTime`.
    pub log_append_time: Option<i64>,
}

/// Verifies the CRC of a whole batch in `buf`, then stamps it in place.
///
/// On error nothing is written.
pub fn stamp_batch(buf: &mut [u8], stamp: &Stamp) -> Result<(), RecordError> {
    h::check(buf)?;
    let timestamp = stamp
        .log_append_time
        .map(|t| (TimestampType::LogAppendTime, t));
    rewrite_crc_covered(buf, timestamp)?;
    buf[h::BASE_OFFSET..h::BASE_OFFSET + 8].copy_from_slice(&stamp.base_offset.to_be_bytes());
    put_i32(buf, h::PARTITION_LEADER_EPOCH, stamp.partition_leader_epoch);
    Ok(())
}

fn put_i32(buf: &mut [u8], at: usize, v: i32) {
    buf[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

/// Verifies the stored CRC and, when `timestamp` is given, sets the
/// timestamp type and `maxTimestamp` and writes the new CRC. One pass over
/// the batch: the unchanged tail's CRC is combined with the old and new
/// head's.
fn rewrite_crc_covered(
    buf: &mut [u8],
    timestamp: Option<(TimestampType, i64)>,
) -> Result<(), RecordError> {
    let tail_len = buf.len() - EDITABLE_END;
    let tail_crc = crc32c::crc32c(&buf[EDITABLE_END..]);
    let head_crc = |b: &[u8]| {
        crc32c::crc32c_combine(
            crc32c::crc32c(&b[h::ATTRIBUTES..EDITABLE_END]),
            tail_crc,
            tail_len,
        )
    };
    let stored = h::get_i32(buf, h::CRC) as u32;
    let computed = head_crc(buf);
    if stored != computed {
        return Err(RecordError::CrcMismatch { stored, computed });
    }
    let Some((timestamp_type, max_timestamp)) = timestamp else {
        return Ok(());
    };
    let attributes = Attributes(h::get_i16(buf, h::ATTRIBUTES)).with_timestamp_type(timestamp_type);
    buf[h::ATTRIBUTES..h::ATTRIBUTES + 2].copy_from_slice(&attributes.0.to_be_bytes());
    buf[h::MAX_TIMESTAMP..h::MAX_TIMESTAMP + 8].copy_from_slice(&max_timestamp.to_be_bytes());
    let crc = head_crc(buf);
    put_i32(buf, h::CRC, crc as i32);
    Ok(())
}

/// A batch the broker owns and may stamp: the mutable twin of
/// [`RecordBatch`], over a `BytesMut` (the produce request's buffer).
#[derive(Debug)]
pub struct RecordBatchMut {
    buf: BytesMut,
}

impl RecordBatchMut {
    /// Takes `buf`, which must hold exactly one magic 2 batch.
    pub fn new(buf: BytesMut) -> Result<Self, RecordError> {
        h::check(&buf)?;
        Ok(RecordBatchMut { buf })
    }

    /// Not CRC-covered: a plain write.
    pub fn set_base_offset(&mut self, base_offset: i64) {
        self.buf[h::BASE_OFFSET..h::BASE_OFFSET + 8].copy_from_slice(&base_offset.to_be_bytes());
    }

    /// Not CRC-covered: a plain write.
    pub fn set_partition_leader_epoch(&mut self, epoch: i32) {
        put_i32(&mut self.buf, h::PARTITION_LEADER_EPOCH, epoch);
    }

    /// Sets the timestamp type and `maxTimestamp` (Kafka's
    /// `setMaxTimestamp`), verifying the old CRC and writing the new one.
    pub fn set_max_timestamp(
        &mut self,
        timestamp_type: TimestampType,
        max_timestamp: i64,
    ) -> Result<(), RecordError> {
        rewrite_crc_covered(&mut self.buf, Some((timestamp_type, max_timestamp)))
    }

    /// [`stamp_batch`] on this batch.
    pub fn stamp(&mut self, stamp: &Stamp) -> Result<(), RecordError> {
        stamp_batch(&mut self.buf, stamp)
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Hands the bytes back as a read-only view, without copying.
    pub fn freeze(self) -> RecordBatch {
        // These bytes passed `check` in `new`; stamping changes only
        // fixed-size fields and keeps the codec bits, so they still do.
        RecordBatch::from_checked(self.buf.freeze())
    }
}
