//! Records inside a batch, read lazily one at a time.
//!
//! ```text
//! length          varint   bytes after this field
//! attributes      int8     unused, kept
//! timestampDelta  varlong  from the batch's baseTimestamp
//! offsetDelta     varint   from the batch's baseOffset
//! keyLength       varint   -1 for a null key
//! key             bytes
//! valueLength     varint   -1 for a null value
//! value           bytes
//! headerCount     varint
//! headers         [headerKeyLength varint, headerKey, headerValueLength varint, headerValue]
//! ```
//!
//! Keys, values and headers are `Bytes` slices of the buffer the records
//! were read from: for an uncompressed batch that is the batch itself, so
//! nothing is copied; for a compressed one, the decompressed buffer.

use bytes::Bytes;

use super::error::RecordError;
use super::header::TimestampType;
use super::varint::{read_varint, read_varlong};

/// One record, with its absolute offset and timestamp already worked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    offset: i64,
    timestamp: i64,
    sequence: i32,
    attributes: i8,
    timestamp_delta: i64,
    offset_delta: i32,
    key: Option<Bytes>,
    value: Option<Bytes>,
    headers: Headers,
}

impl Record {
    /// Batch base offset plus this record's offset delta.
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The record's timestamp: for `LogAppendTime` batches the batch's
    /// `maxTimestamp` (as Kafka's readers do), else base plus delta.
    pub fn timestamp(&self) -> i64 {
        self.timestamp
    }

    /// The producer sequence number of this record, or -1 when the batch
    /// has none. Wraps at `i32::MAX` to 0, as Kafka's does.
    pub fn sequence(&self) -> i32 {
        self.sequence
    }

    /// The record's own attributes byte (unused by Kafka so far).
    pub fn attributes(&self) -> i8 {
        self.attributes
    }

    pub fn timestamp_delta(&self) -> i64 {
        self.timestamp_delta
    }

    pub fn offset_delta(&self) -> i32 {
        self.offset_delta
    }

    /// The key, `None` when null.
    pub fn key(&self) -> Option<&Bytes> {
        self.key.as_ref()
    }

    /// The value, `None` when null (a tombstone on compacted topics).
    pub fn value(&self) -> Option<&Bytes> {
        self.value.as_ref()
    }

    pub fn headers(&self) -> &Headers {
        &self.headers
    }
}

/// One record header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The key's bytes. Kafka declares it a string but its Java reader
    /// never rejects bad UTF-8 (it substitutes), so neither do we; see
    /// [`Header::key_str`].
    pub key: Bytes,
    /// The value, `None` when null.
    pub value: Option<Bytes>,
}

impl Header {
    /// The key as text, if it is valid UTF-8.
    pub fn key_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.key).ok()
    }
}

/// A record's headers, kept as the already-validated bytes they arrived in
/// and decoded when iterated, so a record costs no allocation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Headers {
    raw: Bytes,
    count: usize,
}

impl Headers {
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn iter(&self) -> HeaderIter {
        HeaderIter {
            raw: self.raw.clone(),
            pos: 0,
            left: self.count,
        }
    }

    /// The first header with this key.
    pub fn get(&self, key: &[u8]) -> Option<Header> {
        self.iter().find(|h| h.key == key)
    }
}

impl IntoIterator for &Headers {
    type Item = Header;
    type IntoIter = HeaderIter;
    fn into_iter(self) -> HeaderIter {
        self.iter()
    }
}

/// Iterator over [`Headers`].
#[derive(Debug, Clone)]
pub struct HeaderIter {
    raw: Bytes,
    pos: usize,
    left: usize,
}

impl Iterator for HeaderIter {
    type Item = Header;

    fn next(&mut self) -> Option<Header> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // The bytes were validated when the record was read, so this cannot
        // fail; if it somehow did, the iteration just ends.
        read_header(&self.raw, &mut self.pos, self.raw.len()).ok()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

/// What a record needs from its batch to become absolute.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BatchContext {
    pub base_offset: i64,
    pub base_timestamp: i64,
    pub max_timestamp: i64,
    pub timestamp_type: TimestampType,
    pub base_sequence: i32,
}

/// Lazily reads a batch's records. Yields `Err` at most once, then stops.
///
/// Checks as Kafka does: exactly `recordsCount` records, each exactly as
/// long as its length prefix says, and no bytes left over afterwards.
#[derive(Debug, Clone)]
pub struct RecordIter {
    data: Bytes,
    pos: usize,
    left: u32,
    ctx: BatchContext,
    done: bool,
}

impl RecordIter {
    pub(crate) fn new(data: Bytes, count: u32, ctx: BatchContext) -> Self {
        RecordIter {
            data,
            pos: 0,
            left: count,
            ctx,
            done: false,
        }
    }

    /// Records not yet read (as declared by the batch).
    pub fn remaining(&self) -> u32 {
        if self.done { 0 } else { self.left }
    }

    fn fail(&mut self, e: RecordError) -> Option<Result<Record, RecordError>> {
        self.done = true;
        Some(Err(e))
    }
}

impl Iterator for RecordIter {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if self.left == 0 {
            self.done = true;
            let trailing = self.data.len() - self.pos;
            return (trailing > 0).then_some(Err(RecordError::TrailingRecordBytes(trailing)));
        }
        match read_record(&self.data, &mut self.pos, &self.ctx) {
            Ok(r) => {
                self.left -= 1;
                Some(Ok(r))
            }
            Err(e) => self.fail(e),
        }
    }
}

impl std::iter::FusedIterator for RecordIter {}

/// Reads a nullable byte string (`varint` length, negative for null).
///
/// Kafka's reader treats every negative length as null, not just -1, so we
/// do too rather than refuse what Kafka accepts.
fn read_nullable(data: &Bytes, pos: &mut usize, end: usize) -> Result<Option<Bytes>, RecordError> {
    let len = read_varint(&data[..end], pos)?;
    if len < 0 {
        return Ok(None);
    }
    let stop = pos
        .checked_add(len as usize)
        .filter(|&stop| stop <= end)
        .ok_or(RecordError::InvalidRecord(
            "field length exceeds the record",
        ))?;
    let b = data.slice(*pos..stop);
    *pos = stop;
    Ok(Some(b))
}

fn read_header(data: &Bytes, pos: &mut usize, end: usize) -> Result<Header, RecordError> {
    let key = read_nullable(data, pos, end)?
        .ok_or(RecordError::InvalidRecord("negative header key length"))?;
    let value = read_nullable(data, pos, end)?;
    Ok(Header { key, value })
}

fn read_record(data: &Bytes, pos: &mut usize, ctx: &BatchContext) -> Result<Record, RecordError> {
    let len = read_varint(data, pos)?;
    if len < 0 {
        return Err(RecordError::InvalidRecord("negative record length"));
    }
    let end = pos
        .checked_add(len as usize)
        .filter(|&end| end <= data.len())
        .ok_or(RecordError::InvalidRecord(
            "record length exceeds the batch",
        ))?;
    let body = &data[..end];

    let attributes = *body
        .get(*pos)
        .ok_or(RecordError::InvalidRecord("record too short"))? as i8;
    *pos += 1;
    let timestamp_delta = read_varlong(body, pos)?;
    let offset_delta = read_varint(body, pos)?;
    let key = read_nullable(data, pos, end)?;
    let value = read_nullable(data, pos, end)?;

    let count = read_varint(body, pos)?;
    if count < 0 {
        return Err(RecordError::InvalidRecord("negative header count"));
    }
    let headers_start = *pos;
    for _ in 0..count {
        read_header(data, pos, end)?;
    }
    let headers = Headers {
        raw: data.slice(headers_start..*pos),
        count: count as usize,
    };
    if *pos != end {
        return Err(RecordError::InvalidRecord(
            "record length does not match its contents",
        ));
    }

    let timestamp = match ctx.timestamp_type {
        TimestampType::LogAppendTime => ctx.max_timestamp,
        TimestampType::CreateTime => ctx.base_timestamp.wrapping_add(timestamp_delta),
    };
    let sequence = if ctx.base_sequence >= 0 {
        // Kafka's DefaultRecordBatch.incrementSequence: wrap past i32::MAX to 0.
        ((i64::from(ctx.base_sequence) + i64::from(offset_delta)).rem_euclid(1 << 31)) as i32
    } else {
        -1
    };
    Ok(Record {
        offset: ctx.base_offset.wrapping_add(i64::from(offset_delta)),
        timestamp,
        sequence,
        attributes,
        timestamp_delta,
        offset_delta,
        key,
        value,
        headers,
    })
}
