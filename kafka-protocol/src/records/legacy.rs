//! Magic 0 and 1 message sets (Kafka before 0.11): recognised, refused.
//!
//! Every message-set entry of every magic starts with
//! `[offset: i64][size: i32]`; in a v0/v1 message the next fields are
//! `[crc: u32][magic: i8]`, and in a v2 batch the partition leader epoch
//! (4 bytes) comes before the magic. Either way the magic is byte 16,
//! which is how Kafka tells the formats apart before parsing further.
//!
//! Kafka 4 removed message formats v0 and v1 (KIP-724) and the Produce
//! versions that carried them (v0-v2, KIP-896). A Produce v3+ whose records
//! hold a batch of magic below 2 fails Kafka's
//! `ProduceRequest.validateRecords` with `InvalidRecordException`
//! ("Produce requests with version N are only allowed to contain record
//! batches with magic version 2"), which the broker returns for that
//! partition as `INVALID_RECORD` (87), not `UNSUPPORTED_FOR_MESSAGE_FORMAT`
//! (43). A Produce v0-v2 request never gets that far: those versions are
//! not advertised and get `UNSUPPORTED_VERSION` at the request level.

use super::header::{MAGIC, MAGIC_V2};

/// Kafka's `INVALID_RECORD`: the per-partition error for a Produce whose
/// records are a magic 0/1 message set.
pub const LEGACY_PRODUCE_ERROR_CODE: i16 = 87;

/// The magic byte of the first entry in a records buffer, if it is long
/// enough to have one.
pub fn peek_magic(records: &[u8]) -> Option<i8> {
    records.get(MAGIC).map(|&m| m as i8)
}

/// Whether a records buffer starts with a magic 0 or 1 message set.
pub fn is_legacy_message_set(records: &[u8]) -> bool {
    matches!(peek_magic(records), Some(0 | 1))
}

/// The Kafka error code (`i16`) to answer a Produce partition whose
/// records start with this magic, or `None` when the magic is 2 (and the
/// records should be parsed). Unknown magics are corruption
/// (`CORRUPT_MESSAGE`, 2), as in Kafka's `ByteBufferLogInputStream`.
pub fn produce_error_code_for_magic(magic: i8) -> Option<i16> {
    match magic {
        MAGIC_V2 => None,
        0 | 1 => Some(LEGACY_PRODUCE_ERROR_CODE),
        _ => Some(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A magic 1 message as Kafka 0.10 wrote it: offset, size, crc, magic,
    /// attributes, timestamp, key (-1), value.
    fn v1_message() -> Vec<u8> {
        let mut m = Vec::new();
        m.extend(0i64.to_be_bytes());
        let body_len: i32 = 4 + 1 + 1 + 8 + 4 + 4 + 3;
        m.extend(body_len.to_be_bytes());
        m.extend(0u32.to_be_bytes()); // crc (not checked here)
        m.push(1); // magic
        m.push(0); // attributes
        m.extend(1_700_000_000_000i64.to_be_bytes());
        m.extend((-1i32).to_be_bytes());
        m.extend(3i32.to_be_bytes());
        m.extend(b"abc");
        m
    }

    #[test]
    fn legacy_sets_are_recognised() {
        let m = v1_message();
        assert_eq!(peek_magic(&m), Some(1));
        assert!(is_legacy_message_set(&m));
        assert_eq!(produce_error_code_for_magic(1), Some(87));
        assert_eq!(produce_error_code_for_magic(0), Some(87));
        assert_eq!(produce_error_code_for_magic(2), None);
        assert_eq!(produce_error_code_for_magic(3), Some(2));
        assert_eq!(peek_magic(&m[..16]), None);
    }
}
