//! [`RecordBatchBuilder`]: encodes records into a batch, for tests, tools
//! and the broker's own internal writes (markers, dead letters). The
//! produce path never uses it: client batches are stored as they came.

use bytes::Bytes;

use super::compression::{self, Compression};
use super::error::RecordError;
use super::header::{
    self as h, Attributes, MAGIC_V2, NO_PARTITION_LEADER_EPOCH, NO_PRODUCER_EPOCH, NO_PRODUCER_ID,
    NO_SEQUENCE, NO_TIMESTAMP, RECORD_BATCH_OVERHEAD, TimestampType,
};
use super::record::Header;
use super::varint::{write_varint, write_varlong};

/// A record to be built into a batch.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NewRecord {
    pub key: Option<Bytes>,
    pub value: Option<Bytes>,
    pub headers: Vec<Header>,
    /// Create time, milliseconds since the epoch.
    pub timestamp: i64,
}

impl NewRecord {
    /// A record with a value, no key, no headers, timestamp 0.
    pub fn new(value: impl Into<Bytes>) -> Self {
        NewRecord {
            value: Some(value.into()),
            ..NewRecord::default()
        }
    }

    pub fn with_key(mut self, key: impl Into<Bytes>) -> Self {
        self.key = Some(key.into());
        self
    }

    pub fn with_timestamp(mut self, timestamp: i64) -> Self {
        self.timestamp = timestamp;
        self
    }

    /// Adds a header (a `None` value is a null header value).
    pub fn with_header(mut self, key: impl Into<Bytes>, value: Option<Bytes>) -> Self {
        self.headers.push(Header {
            key: key.into(),
            value,
        });
        self
    }
}

/// Builds one magic 2 batch with a correct CRC.
///
/// Defaults match a plain (non-idempotent) producer: base offset 0, no
/// producer id, epoch or sequence, leader epoch -1, `CreateTime`, no
/// compression. The base timestamp is the first record's timestamp (or the
/// delete horizon, when set) and the max timestamp the largest one, as
/// Kafka's `MemoryRecordsBuilder` writes them.
#[derive(Debug, Clone)]
pub struct RecordBatchBuilder {
    base_offset: i64,
    partition_leader_epoch: i32,
    producer_id: i64,
    producer_epoch: i16,
    base_sequence: i32,
    attributes: Attributes,
    log_append_time: Option<i64>,
    delete_horizon_ms: Option<i64>,
    last_offset_delta: Option<i32>,
    records: Vec<NewRecord>,
}

impl Default for RecordBatchBuilder {
    fn default() -> Self {
        RecordBatchBuilder {
            base_offset: 0,
            partition_leader_epoch: NO_PARTITION_LEADER_EPOCH,
            producer_id: NO_PRODUCER_ID,
            producer_epoch: NO_PRODUCER_EPOCH,
            base_sequence: NO_SEQUENCE,
            attributes: Attributes::default(),
            log_append_time: None,
            delete_horizon_ms: None,
            last_offset_delta: None,
            records: Vec::new(),
        }
    }
}

impl RecordBatchBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn base_offset(mut self, base_offset: i64) -> Self {
        self.base_offset = base_offset;
        self
    }

    pub fn partition_leader_epoch(mut self, epoch: i32) -> Self {
        self.partition_leader_epoch = epoch;
        self
    }

    /// Idempotent / transactional producer fields.
    pub fn producer(mut self, producer_id: i64, producer_epoch: i16, base_sequence: i32) -> Self {
        self.producer_id = producer_id;
        self.producer_epoch = producer_epoch;
        self.base_sequence = base_sequence;
        self
    }

    pub fn transactional(mut self, on: bool) -> Self {
        self.attributes = self.attributes.with_transactional(on);
        self
    }

    pub fn control(mut self, on: bool) -> Self {
        self.attributes = self.attributes.with_control(on);
        self
    }

    pub fn compression(mut self, codec: Compression) -> Self {
        self.attributes = self.attributes.with_compression(codec);
        self
    }

    /// Marks the batch `LogAppendTime` with this append time as its max
    /// timestamp (what a broker would have stamped).
    pub fn log_append_time(mut self, now: i64) -> Self {
        self.attributes = self
            .attributes
            .with_timestamp_type(TimestampType::LogAppendTime);
        self.log_append_time = Some(now);
        self
    }

    /// Sets the delete horizon (KIP-534): stored as the base timestamp with
    /// attribute bit 6 set; record timestamp deltas are relative to it.
    pub fn delete_horizon_ms(mut self, horizon: i64) -> Self {
        self.attributes = self.attributes.with_delete_horizon(true);
        self.delete_horizon_ms = Some(horizon);
        self
    }

    /// Overrides `lastOffsetDelta` (normally records - 1); for empty
    /// batches, which compaction leaves behind to keep producer state.
    pub fn last_offset_delta(mut self, delta: i32) -> Self {
        self.last_offset_delta = Some(delta);
        self
    }

    pub fn record(mut self, record: NewRecord) -> Self {
        self.records.push(record);
        self
    }

    pub fn records(mut self, records: impl IntoIterator<Item = NewRecord>) -> Self {
        self.records.extend(records);
        self
    }

    pub fn push(&mut self, record: NewRecord) {
        self.records.push(record);
    }

    /// Encodes the batch.
    pub fn build(&self) -> Result<Bytes, RecordError> {
        let count = i32::try_from(self.records.len()).map_err(|_| RecordError::BatchTooLarge)?;
        let base_timestamp = self
            .delete_horizon_ms
            .or_else(|| self.records.first().map(|r| r.timestamp))
            .unwrap_or(NO_TIMESTAMP);
        let max_timestamp = self
            .log_append_time
            .or_else(|| self.records.iter().map(|r| r.timestamp).max())
            .unwrap_or(NO_TIMESTAMP);

        let mut payload = Vec::new();
        let mut body = Vec::new();
        for (delta, record) in (0..count).zip(&self.records) {
            body.clear();
            encode_record(
                &mut body,
                record,
                record.timestamp.wrapping_sub(base_timestamp),
                delta,
            )?;
            let len = i32::try_from(body.len()).map_err(|_| RecordError::BatchTooLarge)?;
            write_varint(&mut payload, len);
            payload.extend_from_slice(&body);
        }
        let codec = self.attributes.compression()?;
        let payload = match codec {
            Compression::None => payload,
            c => compression::compress(c, &payload)?,
        };

        let size = RECORD_BATCH_OVERHEAD
            .checked_add(payload.len())
            .ok_or(RecordError::BatchTooLarge)?;
        let batch_length =
            i32::try_from(size - h::LOG_OVERHEAD).map_err(|_| RecordError::BatchTooLarge)?;
        let last_offset_delta = self.last_offset_delta.unwrap_or((count - 1).max(0));

        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(&self.base_offset.to_be_bytes());
        out.extend_from_slice(&batch_length.to_be_bytes());
        out.extend_from_slice(&self.partition_leader_epoch.to_be_bytes());
        out.push(MAGIC_V2 as u8);
        out.extend_from_slice(&[0; 4]); // CRC, filled below
        out.extend_from_slice(&self.attributes.0.to_be_bytes());
        out.extend_from_slice(&last_offset_delta.to_be_bytes());
        out.extend_from_slice(&base_timestamp.to_be_bytes());
        out.extend_from_slice(&max_timestamp.to_be_bytes());
        out.extend_from_slice(&self.producer_id.to_be_bytes());
        out.extend_from_slice(&self.producer_epoch.to_be_bytes());
        out.extend_from_slice(&self.base_sequence.to_be_bytes());
        out.extend_from_slice(&count.to_be_bytes());
        out.extend_from_slice(&payload);
        let crc = h::compute_crc(&out);
        out[h::CRC..h::CRC + 4].copy_from_slice(&crc.to_be_bytes());
        Ok(Bytes::from(out))
    }
}

fn write_nullable(out: &mut Vec<u8>, b: Option<&Bytes>) -> Result<(), RecordError> {
    match b {
        None => write_varint(out, -1),
        Some(b) => {
            let len = i32::try_from(b.len()).map_err(|_| RecordError::BatchTooLarge)?;
            write_varint(out, len);
            out.extend_from_slice(b);
        }
    }
    Ok(())
}

/// A record's body: everything after its length prefix.
fn encode_record(
    out: &mut Vec<u8>,
    r: &NewRecord,
    timestamp_delta: i64,
    offset_delta: i32,
) -> Result<(), RecordError> {
    out.push(0); // record attributes: unused
    write_varlong(out, timestamp_delta);
    write_varint(out, offset_delta);
    write_nullable(out, r.key.as_ref())?;
    write_nullable(out, r.value.as_ref())?;
    let headers = i32::try_from(r.headers.len()).map_err(|_| RecordError::BatchTooLarge)?;
    write_varint(out, headers);
    for header in &r.headers {
        write_nullable(out, Some(&header.key))?;
        write_nullable(out, header.value.as_ref())?;
    }
    Ok(())
}
