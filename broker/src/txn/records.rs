//! The records of `__transaction_state`, in Kafka's byte layout
//! (`TransactionLogKey.json` / `TransactionLogValue.json` of Kafka's
//! transaction coordinator, which are not in the schema set the codec is
//! generated from), so the topic reads the same as Kafka's:
//!
//! | part | layout |
//! |---|---|
//! | key | `int16 version=0, string transactional_id` |
//! | value v0 | `int16 version=0, int64 producer_id, int16 producer_epoch, int32 timeout_ms, int8 state, [string topic, [int32] partitions] (nullable), int64 last_update_ms, int64 start_ms` |
//! | value v1 | the same fields, flexible (compact strings and arrays, tagged fields: 0 previous producer id, 1 next producer id, 2 client transaction version) |
//!
//! This broker writes v1 (what Kafka writes once `transaction.version`
//! is 1 or more; the tagged fields carry what transactions v2 need across
//! a coordinator move: an exhausted producer id's successor, and how a
//! retried EndTxn is recognised) and reads both. A null value is a
//! tombstone: the transactional id expired.

use std::collections::BTreeSet;

use bytes::{Buf, BufMut, Bytes, BytesMut};

use super::state::{TxnMeta, TxnState};

#[derive(Debug, thiserror::Error)]
#[error("bad __transaction_state record: {0}")]
pub struct TxnRecordError(pub &'static str);

/// The stored part of one transactional id's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxnValue {
    pub producer_id: i64,
    pub previous_producer_id: i64,
    pub producer_epoch: i16,
    pub timeout_ms: i32,
    pub state: TxnState,
    pub partitions: BTreeSet<(String, i32)>,
    pub last_update_ms: i64,
    pub start_ms: i64,
    pub next_producer_id: i64,
    pub client_version: i16,
}

/// v1's tagged fields.
const TAG_PREVIOUS_PRODUCER_ID: u64 = 0;
const TAG_NEXT_PRODUCER_ID: u64 = 1;
const TAG_CLIENT_VERSION: u64 = 2;

impl TxnValue {
    pub fn of(m: &TxnMeta) -> Self {
        TxnValue {
            producer_id: m.producer_id,
            previous_producer_id: m.previous_producer_id,
            producer_epoch: m.producer_epoch,
            timeout_ms: m.timeout_ms,
            state: m.state,
            partitions: m.partitions.clone(),
            last_update_ms: m.last_update_ms,
            start_ms: m.start_ms,
            next_producer_id: m.next_producer_id,
            client_version: m.client_version,
        }
    }
}

fn put_uvarint(b: &mut BytesMut, mut v: u64) {
    while v >= 0x80 {
        b.put_u8((v as u8) | 0x80);
        v >>= 7;
    }
    b.put_u8(v as u8);
}

fn put_compact_str(b: &mut BytesMut, s: &str) {
    put_uvarint(b, s.len() as u64 + 1);
    b.put_slice(s.as_bytes());
}

fn put_str(b: &mut BytesMut, s: &str) {
    b.put_i16(s.len() as i16);
    b.put_slice(s.as_bytes());
}

pub fn key(transactional_id: &str) -> Bytes {
    let mut b = BytesMut::with_capacity(4 + transactional_id.len());
    b.put_i16(0);
    put_str(&mut b, transactional_id);
    b.freeze()
}

pub fn value(v: &TxnValue) -> Bytes {
    let mut b = BytesMut::with_capacity(64);
    b.put_i16(1);
    b.put_i64(v.producer_id);
    b.put_i16(v.producer_epoch);
    b.put_i32(v.timeout_ms);
    b.put_i8(v.state as i8);
    // Grouped by topic, in order (the set is sorted).
    let mut topics: Vec<(&str, Vec<i32>)> = Vec::new();
    for (t, p) in &v.partitions {
        match topics.last_mut() {
            Some((name, ps)) if *name == t.as_str() => ps.push(*p),
            _ => topics.push((t.as_str(), vec![*p])),
        }
    }
    put_uvarint(&mut b, topics.len() as u64 + 1);
    for (t, ps) in topics {
        put_compact_str(&mut b, t);
        put_uvarint(&mut b, ps.len() as u64 + 1);
        for p in ps {
            b.put_i32(p);
        }
        put_uvarint(&mut b, 0);
    }
    b.put_i64(v.last_update_ms);
    b.put_i64(v.start_ms);
    // Tagged fields, in tag order, each only when not its default.
    let mut tags: Vec<(u64, Vec<u8>)> = Vec::new();
    if v.previous_producer_id != -1 {
        tags.push((
            TAG_PREVIOUS_PRODUCER_ID,
            v.previous_producer_id.to_be_bytes().to_vec(),
        ));
    }
    if v.next_producer_id != -1 {
        tags.push((
            TAG_NEXT_PRODUCER_ID,
            v.next_producer_id.to_be_bytes().to_vec(),
        ));
    }
    if v.client_version != 0 {
        tags.push((TAG_CLIENT_VERSION, v.client_version.to_be_bytes().to_vec()));
    }
    put_uvarint(&mut b, tags.len() as u64);
    for (tag, data) in tags {
        put_uvarint(&mut b, tag);
        put_uvarint(&mut b, data.len() as u64);
        b.put_slice(&data);
    }
    b.freeze()
}

/// Reads what a field needs, or fails (never panics on short input).
struct Reader<'a> {
    buf: &'a [u8],
    flexible: bool,
}

impl Reader<'_> {
    fn need(&self, n: usize) -> Result<(), TxnRecordError> {
        if self.buf.remaining() < n {
            Err(TxnRecordError("truncated"))
        } else {
            Ok(())
        }
    }
    fn i8(&mut self) -> Result<i8, TxnRecordError> {
        self.need(1)?;
        Ok(self.buf.get_i8())
    }
    fn i16(&mut self) -> Result<i16, TxnRecordError> {
        self.need(2)?;
        Ok(self.buf.get_i16())
    }
    fn i32(&mut self) -> Result<i32, TxnRecordError> {
        self.need(4)?;
        Ok(self.buf.get_i32())
    }
    fn i64(&mut self) -> Result<i64, TxnRecordError> {
        self.need(8)?;
        Ok(self.buf.get_i64())
    }
    fn uvarint(&mut self) -> Result<u64, TxnRecordError> {
        let mut v = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.i8()? as u8;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(TxnRecordError("varint too long"))
    }
    /// A length: `None` for null.
    fn len(&mut self, wide: bool) -> Result<Option<usize>, TxnRecordError> {
        let n = if self.flexible {
            self.uvarint()? as i64 - 1
        } else if wide {
            i64::from(self.i32()?)
        } else {
            i64::from(self.i16()?)
        };
        if n < 0 {
            return Ok(None);
        }
        let n = n as usize;
        // A count is never larger than the bytes left (each element takes
        // at least one).
        self.need(n)?;
        Ok(Some(n))
    }
    fn string(&mut self) -> Result<String, TxnRecordError> {
        let n = self.len(false)?.ok_or(TxnRecordError("null string"))?;
        let s = std::str::from_utf8(&self.buf[..n])
            .map_err(|_| TxnRecordError("string is not UTF-8"))?
            .to_string();
        self.buf.advance(n);
        Ok(s)
    }
    fn skip_tags(&mut self) -> Result<(), TxnRecordError> {
        if !self.flexible {
            return Ok(());
        }
        let n = self.uvarint()?;
        for _ in 0..n {
            let _tag = self.uvarint()?;
            let size = self.uvarint()? as usize;
            self.need(size)?;
            self.buf.advance(size);
        }
        Ok(())
    }
}

/// The transactional id of a key.
pub fn decode_key(buf: &[u8]) -> Result<String, TxnRecordError> {
    let mut r = Reader {
        buf,
        flexible: false,
    };
    if r.i16()? != 0 {
        return Err(TxnRecordError("unknown key version"));
    }
    r.string()
}

pub fn decode_value(buf: &[u8]) -> Result<TxnValue, TxnRecordError> {
    let mut r = Reader {
        buf,
        flexible: false,
    };
    let version = r.i16()?;
    if !(0..=1).contains(&version) {
        return Err(TxnRecordError("unknown value version"));
    }
    r.flexible = version >= 1;
    let producer_id = r.i64()?;
    let producer_epoch = r.i16()?;
    let timeout_ms = r.i32()?;
    let state = TxnState::from_id(r.i8()?).ok_or(TxnRecordError("unknown state"))?;
    let mut partitions = BTreeSet::new();
    if let Some(n) = r.len(true)? {
        for _ in 0..n {
            let topic = r.string()?;
            let m = r.len(true)?.ok_or(TxnRecordError("null partitions"))?;
            for _ in 0..m {
                partitions.insert((topic.clone(), r.i32()?));
            }
            r.skip_tags()?;
        }
    }
    let last_update_ms = r.i64()?;
    let start_ms = r.i64()?;
    let (mut previous_producer_id, mut next_producer_id, mut client_version) = (-1, -1, 0);
    if r.flexible {
        let n = r.uvarint()?;
        for _ in 0..n {
            let tag = r.uvarint()?;
            let size = r.uvarint()? as usize;
            r.need(size)?;
            let mut field = Reader {
                buf: &r.buf[..size],
                flexible: true,
            };
            match tag {
                TAG_PREVIOUS_PRODUCER_ID => previous_producer_id = field.i64()?,
                TAG_NEXT_PRODUCER_ID => next_producer_id = field.i64()?,
                TAG_CLIENT_VERSION => client_version = field.i16()?,
                // Unknown tags are skipped, as Kafka's readers do.
                _ => {}
            }
            r.buf.advance(size);
        }
    }
    Ok(TxnValue {
        producer_id,
        previous_producer_id,
        producer_epoch,
        timeout_ms,
        state,
        partitions,
        last_update_ms,
        start_ms,
        next_producer_id,
        client_version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_kafka_layout() {
        let v = TxnValue {
            producer_id: 7,
            previous_producer_id: -1,
            producer_epoch: 3,
            timeout_ms: 60_000,
            state: TxnState::Ongoing,
            partitions: [("a".to_string(), 1), ("a".to_string(), 0), ("b".into(), 2)]
                .into_iter()
                .collect(),
            last_update_ms: 11,
            start_ms: 10,
            next_producer_id: -1,
            client_version: 0,
        };
        let bytes = value(&v);
        assert_eq!(decode_value(&bytes).unwrap(), v);
        // version 1, pid, epoch, timeout, state, then 2 topics (compact:
        // count + 1), no tagged field at the end.
        assert_eq!(&bytes[..2], &[0, 1]);
        assert_eq!(bytes[16], 1, "state byte of Ongoing");
        assert_eq!(bytes[17], 3);
        assert_eq!(bytes[bytes.len() - 1], 0, "no tagged fields");
        // The tagged fields of transactions v2 round-trip.
        let v2 = TxnValue {
            previous_producer_id: 4,
            next_producer_id: 9,
            client_version: 2,
            ..v.clone()
        };
        assert_eq!(decode_value(&value(&v2)).unwrap(), v2);
        // A v0 record (what earlier releases wrote) still reads.
        let mut v0 = BytesMut::new();
        v0.put_i16(0);
        v0.put_i64(7);
        v0.put_i16(3);
        v0.put_i32(60_000);
        v0.put_i8(4);
        v0.put_i32(-1);
        v0.put_i64(11);
        v0.put_i64(10);
        let old = decode_value(&v0).unwrap();
        assert_eq!(
            (
                old.producer_id,
                old.state,
                old.partitions.len(),
                old.client_version
            ),
            (7, TxnState::CompleteCommit, 0, 0)
        );
        assert_eq!(decode_key(&key("tx")).unwrap(), "tx");
        assert_eq!(&key("tx")[..], &[0, 0, 0, 2, b't', b'x']);
        // Truncated input is an error, never a panic.
        for n in 0..bytes.len() {
            assert!(decode_value(&bytes[..n]).is_err());
        }
    }
}
