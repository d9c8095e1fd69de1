//! Zigzag varints as records use them (protobuf style), read from a slice
//! with an explicit position so a record parser can stay inside its record.
//!
//! Kept here rather than shared with the request codec so the record layer
//! can report [`RecordError`]s with record-level meaning.

use super::error::RecordError;

/// Reads an unsigned LEB128 of at most `max_bytes` bytes.
///
/// Like Kafka's `ByteUtils.readVarint`, bits beyond the type's width in the
/// last byte are dropped rather than refused; only a continuation bit on the
/// last allowed byte is an error.
fn read_unsigned(buf: &[u8], pos: &mut usize, max_bytes: u32) -> Result<u64, RecordError> {
    let mut value: u64 = 0;
    for i in 0..max_bytes {
        let Some(&b) = buf.get(*pos) else {
            return Err(RecordError::InvalidRecord("record ends inside a varint"));
        };
        *pos += 1;
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(RecordError::InvalidVarint)
}

/// A zigzag-encoded 32-bit varint (at most 5 bytes).
pub(crate) fn read_varint(buf: &[u8], pos: &mut usize) -> Result<i32, RecordError> {
    // Truncation to 32 bits is Kafka's behaviour for an over-long 5th byte.
    let raw = read_unsigned(buf, pos, 5)? as u32;
    Ok(((raw >> 1) as i32) ^ -((raw & 1) as i32))
}

/// A zigzag-encoded 64-bit varlong (at most 10 bytes).
pub(crate) fn read_varlong(buf: &[u8], pos: &mut usize) -> Result<i64, RecordError> {
    let raw = read_unsigned(buf, pos, 10)?;
    Ok(((raw >> 1) as i64) ^ -((raw & 1) as i64))
}

fn write_unsigned(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a zigzag-encoded 32-bit varint.
pub(crate) fn write_varint(out: &mut Vec<u8>, v: i32) {
    write_unsigned(out, u64::from(((v << 1) ^ (v >> 31)) as u32));
}

/// Appends a zigzag-encoded 64-bit varlong.
pub(crate) fn write_varlong(out: &mut Vec<u8>, v: i64) {
    write_unsigned(out, ((v << 1) ^ (v >> 63)) as u64);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_encodings() {
        // Values from the protobuf/Kafka zigzag tables.
        for (v, enc) in [
            (0, &[0x00][..]),
            (-1, &[0x01]),
            (1, &[0x02]),
            (-64, &[0x7f]),
            (64, &[0x80, 0x01]),
            (i32::MAX, &[0xfe, 0xff, 0xff, 0xff, 0x0f]),
            (i32::MIN, &[0xff, 0xff, 0xff, 0xff, 0x0f]),
        ] {
            let mut out = Vec::new();
            write_varint(&mut out, v);
            assert_eq!(out, enc, "encoding {v}");
            let mut pos = 0;
            assert_eq!(read_varint(enc, &mut pos).unwrap(), v);
            assert_eq!(pos, enc.len());
        }
    }

    #[test]
    fn varlong_round_trip_extremes() {
        for v in [0, -1, 1, i64::MAX, i64::MIN, 1 << 40, -(1 << 40)] {
            let mut out = Vec::new();
            write_varlong(&mut out, v);
            let mut pos = 0;
            assert_eq!(read_varlong(&out, &mut pos).unwrap(), v);
            assert_eq!(pos, out.len());
        }
    }

    #[test]
    fn too_long_and_truncated() {
        let mut pos = 0;
        assert_eq!(
            read_varint(&[0x80; 6], &mut pos),
            Err(RecordError::InvalidVarint)
        );
        let mut pos = 0;
        assert!(matches!(
            read_varint(&[0x80, 0x80], &mut pos),
            Err(RecordError::InvalidRecord(_))
        ));
        let mut pos = 0;
        assert_eq!(
            read_varlong(&[0xff; 11], &mut pos),
            Err(RecordError::InvalidVarint)
        );
    }
}
