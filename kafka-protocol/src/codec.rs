//! Primitive readers and writers of the Kafka wire format.
//!
//! [`Decoder`] reads from a [`Bytes`] so that byte and record fields are
//! returned as slices of the same allocation (no copy). [`Encoder`] writes
//! small fields into a scratch buffer and keeps large byte fields as their
//! own [`Bytes`] chunks, so a Fetch response carries the log's record bytes
//! to the socket without copying them (see [`Encoder::finish`]).
//!
//! Every length read from the wire is checked against the bytes actually
//! remaining before anything is allocated, which is what keeps a hostile
//! length prefix from making us allocate more than the frame holds.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use uuid::Uuid;

use crate::error::{DecodeError, EncodeError};

/// Byte fields at least this long are kept as separate chunks by the
/// encoder instead of being copied into the scratch buffer.
pub const ZERO_COPY_MIN_LEN: usize = 1024;

/// A tagged field this codec does not know, kept so it can be re-encoded
/// unchanged (forward compatibility of flexible versions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawTaggedField {
    pub tag: u32,
    pub data: Bytes,
}

/// Unknown tagged fields of one struct, in the order they were read.
pub type UnknownTaggedFields = Vec<RawTaggedField>;

/// A reader over one frame (or part of one).
#[derive(Debug, Clone)]
pub struct Decoder {
    buf: Bytes,
}

impl Decoder {
    pub fn new(buf: Bytes) -> Self {
        Decoder { buf }
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.buf.len()
    }

    /// The unread bytes, without consuming them.
    pub fn peek_rest(&self) -> &[u8] {
        &self.buf
    }

    /// Consumes the decoder, returning the unread bytes.
    pub fn into_rest(self) -> Bytes {
        self.buf
    }

    /// Fails unless every byte has been read.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::TrailingBytes(self.buf.len()))
        }
    }

    fn need(&self, n: usize) -> Result<(), DecodeError> {
        if self.buf.len() < n {
            Err(DecodeError::Truncated {
                needed: n,
                remaining: self.buf.len(),
            })
        } else {
            Ok(())
        }
    }

    pub fn i8(&mut self) -> Result<i8, DecodeError> {
        self.need(1)?;
        Ok(self.buf.get_i8())
    }

    pub fn i16(&mut self) -> Result<i16, DecodeError> {
        self.need(2)?;
        Ok(self.buf.get_i16())
    }

    pub fn u16(&mut self) -> Result<u16, DecodeError> {
        self.need(2)?;
        Ok(self.buf.get_u16())
    }

    pub fn i32(&mut self) -> Result<i32, DecodeError> {
        self.need(4)?;
        Ok(self.buf.get_i32())
    }

    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        self.need(4)?;
        Ok(self.buf.get_u32())
    }

    pub fn i64(&mut self) -> Result<i64, DecodeError> {
        self.need(8)?;
        Ok(self.buf.get_i64())
    }

    pub fn f64(&mut self) -> Result<f64, DecodeError> {
        self.need(8)?;
        Ok(self.buf.get_f64())
    }

    /// Kafka reads any non-zero byte as true.
    pub fn bool(&mut self) -> Result<bool, DecodeError> {
        Ok(self.i8()? != 0)
    }

    pub fn uuid(&mut self) -> Result<Uuid, DecodeError> {
        self.need(16)?;
        let mut b = [0u8; 16];
        self.buf.copy_to_slice(&mut b);
        Ok(Uuid::from_bytes(b))
    }

    /// Takes the next `n` bytes as a slice of the same allocation.
    pub fn take(&mut self, n: usize) -> Result<Bytes, DecodeError> {
        self.need(n)?;
        Ok(self.buf.split_to(n))
    }

    /// An unsigned LEB128 varint of at most 5 bytes (a `u32`).
    pub fn unsigned_varint(&mut self) -> Result<u32, DecodeError> {
        let mut value: u32 = 0;
        for i in 0..5 {
            let b = self.u8_raw()?;
            if i == 4 && b & 0xf0 != 0 {
                return Err(DecodeError::InvalidVarint);
            }
            value |= ((b & 0x7f) as u32) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(DecodeError::InvalidVarint)
    }

    /// An unsigned LEB128 varint of at most 10 bytes (a `u64`).
    pub fn unsigned_varlong(&mut self) -> Result<u64, DecodeError> {
        let mut value: u64 = 0;
        for i in 0..10 {
            let b = self.u8_raw()?;
            if i == 9 && b & 0xfe != 0 {
                return Err(DecodeError::InvalidVarint);
            }
            value |= ((b & 0x7f) as u64) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(DecodeError::InvalidVarint)
    }

    /// A zigzag-encoded signed varint (record fields).
    pub fn varint(&mut self) -> Result<i32, DecodeError> {
        let v = self.unsigned_varint()?;
        Ok(((v >> 1) as i32) ^ -((v & 1) as i32))
    }

    /// A zigzag-encoded signed varlong (record fields).
    pub fn varlong(&mut self) -> Result<i64, DecodeError> {
        let v = self.unsigned_varlong()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    fn u8_raw(&mut self) -> Result<u8, DecodeError> {
        self.need(1)?;
        Ok(self.buf.get_u8())
    }

    /// Reads a length prefix: `None` is null. Checks the length against the
    /// bytes remaining (times `min_item_size`) before anything allocates.
    fn length(
        &mut self,
        what: &'static str,
        flexible: bool,
        short: bool,
        min_item_size: usize,
    ) -> Result<Option<usize>, DecodeError> {
        let len: i64 = if flexible {
            self.unsigned_varint()? as i64 - 1
        } else if short {
            self.i16()? as i64
        } else {
            self.i32()? as i64
        };
        if len == -1 {
            return Ok(None);
        }
        if len < 0 {
            return Err(DecodeError::InvalidLength { what, len });
        }
        let needed = (len as u64).saturating_mul(min_item_size as u64);
        if needed > self.buf.len() as u64 {
            return Err(DecodeError::LengthExceedsInput {
                what,
                len: len as u64,
                remaining: self.buf.len(),
            });
        }
        Ok(Some(len as usize))
    }

    /// A nullable string (int16 length, or compact length when flexible).
    pub fn nullable_string(&mut self, flexible: bool) -> Result<Option<String>, DecodeError> {
        match self.length("string", flexible, true, 1)? {
            None => Ok(None),
            Some(n) => {
                let raw = self.buf.split_to(n);
                match std::str::from_utf8(&raw) {
                    Ok(s) => Ok(Some(s.to_owned())),
                    Err(_) => Err(DecodeError::InvalidUtf8),
                }
            }
        }
    }

    /// A non-nullable string; null is an error naming `field`.
    pub fn string(&mut self, flexible: bool, field: &'static str) -> Result<String, DecodeError> {
        self.nullable_string(flexible)?
            .ok_or(DecodeError::UnexpectedNull { field })
    }

    /// Nullable bytes (int32 length, or compact when flexible), zero-copy.
    pub fn nullable_bytes(&mut self, flexible: bool) -> Result<Option<Bytes>, DecodeError> {
        match self.length("bytes", flexible, false, 1)? {
            None => Ok(None),
            Some(n) => Ok(Some(self.buf.split_to(n))),
        }
    }

    /// Non-nullable bytes; null is an error naming `field`.
    pub fn bytes(&mut self, flexible: bool, field: &'static str) -> Result<Bytes, DecodeError> {
        self.nullable_bytes(flexible)?
            .ok_or(DecodeError::UnexpectedNull { field })
    }

    /// An array length, `None` for null. Like Kafka, a count larger than
    /// the bytes remaining is refused before anything is allocated.
    pub fn array_len(&mut self, flexible: bool) -> Result<Option<usize>, DecodeError> {
        self.length("array", flexible, false, 1)
    }

    /// Reads a whole array with `item`, `None` for null.
    pub fn nullable_array<T>(
        &mut self,
        flexible: bool,
        mut item: impl FnMut(&mut Decoder) -> Result<T, DecodeError>,
    ) -> Result<Option<Vec<T>>, DecodeError> {
        match self.array_len(flexible)? {
            None => Ok(None),
            Some(n) => {
                // Reserve no more memory than the bytes that remain could
                // fill, whatever the count says; a real array grows as read.
                let cap = n.min(self.buf.len() / std::mem::size_of::<T>().max(1));
                let mut v = Vec::with_capacity(cap);
                for _ in 0..n {
                    v.push(item(self)?);
                }
                Ok(Some(v))
            }
        }
    }

    /// Reads a non-nullable array; null is an error naming `field`.
    pub fn array<T>(
        &mut self,
        flexible: bool,
        field: &'static str,
        item: impl FnMut(&mut Decoder) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        self.nullable_array(flexible, item)?
            .ok_or(DecodeError::UnexpectedNull { field })
    }

    /// Reads a tagged-field section. `known` is called with each tag and a
    /// decoder over exactly that field's bytes; it returns `Ok(false)` for
    /// a tag it does not know, which is then kept raw.
    pub fn tagged_fields(
        &mut self,
        message: &'static str,
        mut known: impl FnMut(u32, &mut Decoder) -> Result<bool, DecodeError>,
    ) -> Result<UnknownTaggedFields, DecodeError> {
        let count = self.unsigned_varint()? as usize;
        // Each tagged field takes at least two bytes (tag and size).
        if count.saturating_mul(2) > self.buf.len() {
            return Err(DecodeError::LengthExceedsInput {
                what: "tagged fields",
                len: count as u64,
                remaining: self.buf.len(),
            });
        }
        let mut unknown = Vec::new();
        for _ in 0..count {
            let tag = self.unsigned_varint()?;
            let size = self.unsigned_varint()? as usize;
            let data = self.take(size)?;
            let mut sub = Decoder::new(data.clone());
            if known(tag, &mut sub)? {
                if sub.remaining() != 0 {
                    return Err(DecodeError::MalformedTaggedField { message, tag });
                }
            } else {
                unknown.push(RawTaggedField { tag, data });
            }
        }
        Ok(unknown)
    }
}

/// A writer that produces a list of chunks: small fields are gathered in a
/// scratch buffer, large byte fields are kept as the caller's own [`Bytes`].
#[derive(Debug, Default)]
pub struct Encoder {
    chunks: Vec<Bytes>,
    cur: BytesMut,
    chunked_len: usize,
    drop_unsupported: bool,
}

impl Encoder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_capacity(n: usize) -> Self {
        Encoder {
            chunks: Vec::new(),
            cur: BytesMut::with_capacity(n),
            chunked_len: 0,
            drop_unsupported: false,
        }
    }

    /// An encoder that leaves out fields the version cannot carry instead
    /// of failing. A broker builds one response for every version and lets
    /// the encoder say what each version can say; a client encoding a
    /// request wants the strict default, so nothing it set is lost silently.
    pub fn dropping_unsupported_fields() -> Self {
        Encoder {
            drop_unsupported: true,
            ..Self::default()
        }
    }

    /// A new, empty encoder with the same settings (for tagged fields,
    /// whose size must be known before they are written).
    pub fn child(&self) -> Encoder {
        Encoder {
            drop_unsupported: self.drop_unsupported,
            ..Self::default()
        }
    }

    /// Whether fields absent at the version are dropped (see
    /// [`Encoder::dropping_unsupported_fields`]).
    pub fn drops_unsupported_fields(&self) -> bool {
        self.drop_unsupported
    }

    /// Total bytes written so far.
    pub fn len(&self) -> usize {
        self.chunked_len + self.cur.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn flush_cur(&mut self) {
        if !self.cur.is_empty() {
            let b = self.cur.split().freeze();
            self.chunked_len += b.len();
            self.chunks.push(b);
        }
    }

    /// The encoded bytes as chunks, in order, ready for a vectored write.
    pub fn finish(mut self) -> Vec<Bytes> {
        self.flush_cur();
        self.chunks
    }

    /// The encoded bytes as one contiguous buffer (copies when there is
    /// more than one chunk; meant for tests and small messages).
    pub fn to_bytes(self) -> Bytes {
        let mut chunks = self.finish();
        match chunks.len() {
            0 => Bytes::new(),
            1 => chunks.pop().unwrap_or_default(),
            _ => {
                let total = chunks.iter().map(|c| c.len()).sum();
                let mut out = BytesMut::with_capacity(total);
                for c in chunks {
                    out.extend_from_slice(&c);
                }
                out.freeze()
            }
        }
    }

    /// Appends everything another encoder wrote.
    pub fn append(&mut self, other: Encoder) {
        for c in other.finish() {
            if c.len() >= ZERO_COPY_MIN_LEN {
                self.flush_cur();
                self.chunked_len += c.len();
                self.chunks.push(c);
            } else {
                self.cur.extend_from_slice(&c);
            }
        }
    }

    pub fn i8(&mut self, v: i8) {
        self.cur.put_i8(v);
    }
    pub fn i16(&mut self, v: i16) {
        self.cur.put_i16(v);
    }
    pub fn u16(&mut self, v: u16) {
        self.cur.put_u16(v);
    }
    pub fn i32(&mut self, v: i32) {
        self.cur.put_i32(v);
    }
    pub fn u32(&mut self, v: u32) {
        self.cur.put_u32(v);
    }
    pub fn i64(&mut self, v: i64) {
        self.cur.put_i64(v);
    }
    pub fn f64(&mut self, v: f64) {
        self.cur.put_f64(v);
    }
    pub fn bool(&mut self, v: bool) {
        self.cur.put_u8(v as u8);
    }
    pub fn uuid(&mut self, v: &Uuid) {
        self.cur.put_slice(v.as_bytes());
    }
    pub fn raw(&mut self, b: &[u8]) {
        self.cur.put_slice(b);
    }

    /// Appends `b` without copying it when it is large.
    pub fn raw_bytes(&mut self, b: &Bytes) {
        if b.len() >= ZERO_COPY_MIN_LEN {
            self.flush_cur();
            self.chunked_len += b.len();
            self.chunks.push(b.clone());
        } else {
            self.cur.put_slice(b);
        }
    }

    pub fn unsigned_varint(&mut self, mut v: u32) {
        while v >= 0x80 {
            self.cur.put_u8((v as u8) | 0x80);
            v >>= 7;
        }
        self.cur.put_u8(v as u8);
    }

    pub fn unsigned_varlong(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.cur.put_u8((v as u8) | 0x80);
            v >>= 7;
        }
        self.cur.put_u8(v as u8);
    }

    pub fn varint(&mut self, v: i32) {
        self.unsigned_varint(((v << 1) ^ (v >> 31)) as u32);
    }

    pub fn varlong(&mut self, v: i64) {
        self.unsigned_varlong(((v << 1) ^ (v >> 63)) as u64);
    }

    fn length(
        &mut self,
        what: &'static str,
        len: Option<usize>,
        flexible: bool,
        short: bool,
    ) -> Result<(), EncodeError> {
        let max = if short {
            i16::MAX as usize
        } else {
            i32::MAX as usize - 1
        };
        match len {
            Some(n) if n > max => Err(EncodeError::TooLong { what, len: n }),
            Some(n) if flexible => {
                self.unsigned_varint(n as u32 + 1);
                Ok(())
            }
            Some(n) if short => {
                self.i16(n as i16);
                Ok(())
            }
            Some(n) => {
                self.i32(n as i32);
                Ok(())
            }
            None if flexible => {
                self.unsigned_varint(0);
                Ok(())
            }
            None if short => {
                self.i16(-1);
                Ok(())
            }
            None => {
                self.i32(-1);
                Ok(())
            }
        }
    }

    pub fn string(&mut self, s: &str, flexible: bool) -> Result<(), EncodeError> {
        self.length("string", Some(s.len()), flexible, true)?;
        self.cur.put_slice(s.as_bytes());
        Ok(())
    }

    pub fn nullable_string(&mut self, s: Option<&str>, flexible: bool) -> Result<(), EncodeError> {
        match s {
            Some(s) => self.string(s, flexible),
            None => self.length("string", None, flexible, true),
        }
    }

    pub fn bytes(&mut self, b: &Bytes, flexible: bool) -> Result<(), EncodeError> {
        self.length("bytes", Some(b.len()), flexible, false)?;
        self.raw_bytes(b);
        Ok(())
    }

    pub fn nullable_bytes(&mut self, b: Option<&Bytes>, flexible: bool) -> Result<(), EncodeError> {
        match b {
            Some(b) => self.bytes(b, flexible),
            None => self.length("bytes", None, flexible, false),
        }
    }

    /// Writes an array length prefix (`None` for null).
    pub fn array_len(&mut self, len: Option<usize>, flexible: bool) -> Result<(), EncodeError> {
        self.length("array", len, flexible, false)
    }

    /// Writes an array with `item` for each element.
    pub fn array<T>(
        &mut self,
        items: &[T],
        flexible: bool,
        mut item: impl FnMut(&mut Encoder, &T) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        self.array_len(Some(items.len()), flexible)?;
        for i in items {
            item(self, i)?;
        }
        Ok(())
    }

    /// Writes an optional array (`None` is null).
    pub fn nullable_array<T>(
        &mut self,
        items: Option<&[T]>,
        flexible: bool,
        item: impl FnMut(&mut Encoder, &T) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        match items {
            Some(items) => self.array(items, flexible, item),
            None => self.array_len(None, flexible),
        }
    }

    /// Writes a tagged-field section from the known fields (tag and their
    /// encoded value) and the unknown ones, in ascending tag order as Kafka
    /// requires.
    pub fn tagged_fields(&mut self, mut known: Vec<(u32, Encoder)>, unknown: &[RawTaggedField]) {
        for f in unknown {
            let mut e = Encoder::new();
            e.raw_bytes(&f.data);
            known.push((f.tag, e));
        }
        known.sort_by_key(|(tag, _)| *tag);
        self.unsigned_varint(known.len() as u32);
        for (tag, value) in known {
            self.unsigned_varint(tag);
            self.unsigned_varint(value.len() as u32);
            self.append(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_reject_overlong() {
        for v in [0u32, 1, 127, 128, 300, 16383, 16384, u32::MAX] {
            let mut e = Encoder::new();
            e.unsigned_varint(v);
            let mut d = Decoder::new(e.to_bytes());
            assert_eq!(d.unsigned_varint().unwrap(), v);
            assert_eq!(d.remaining(), 0);
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX, -300] {
            let mut e = Encoder::new();
            e.varlong(v);
            assert_eq!(Decoder::new(e.to_bytes()).varlong().unwrap(), v);
        }
        let overlong = Bytes::from_static(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
        assert_eq!(
            Decoder::new(overlong).unsigned_varint(),
            Err(DecodeError::InvalidVarint)
        );
        let too_big = Bytes::from_static(&[0xff, 0xff, 0xff, 0xff, 0x1f]);
        assert_eq!(
            Decoder::new(too_big).unsigned_varint(),
            Err(DecodeError::InvalidVarint)
        );
    }

    #[test]
    fn huge_lengths_are_refused_before_allocating() {
        let mut d = Decoder::new(Bytes::from_static(&[0x7f, 0xff, 0xff, 0xff, 1, 2]));
        assert!(matches!(
            d.array_len(false),
            Err(DecodeError::LengthExceedsInput { .. })
        ));
        let mut d = Decoder::new(Bytes::from_static(&[0xff, 0xfe]));
        assert!(matches!(
            d.nullable_string(false),
            Err(DecodeError::InvalidLength { .. })
        ));
        let mut d = Decoder::new(Bytes::from_static(&[0, 2, 0xc3, 0x28]));
        assert_eq!(d.nullable_string(false), Err(DecodeError::InvalidUtf8));
    }

    #[test]
    fn large_bytes_are_not_copied() {
        let payload = Bytes::from(vec![7u8; 4096]);
        let mut e = Encoder::new();
        e.i32(1);
        e.bytes(&payload, false).unwrap();
        e.i32(2);
        let chunks = e.finish();
        assert!(chunks.iter().any(|c| c.as_ptr() == payload.as_ptr()));
    }
}
