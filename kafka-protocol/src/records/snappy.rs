//! Snappy as Kafka clients send it.
//!
//! The Java client wraps snappy in xerial's `SnappyOutputStream` framing:
//! a 16-byte header (magic `0x82 "SNAPPY" 0x00`, then version 1 and minimum
//! compatible version 1 as big-endian `i32`s) followed by chunks of
//! `[u32 big-endian compressed length][raw snappy block]`, each block
//! holding at most 32 KiB of input. librdkafka and others may send one raw
//! (unframed) snappy block instead; the Java consumer's xerial reader
//! accepts both, so we decode both and always write the xerial form.

use std::io;

use super::compression::{BoundedOutput, Compression};
use super::error::RecordError;

/// xerial's stream magic: the first 8 bytes of its header.
const XERIAL_MAGIC: [u8; 8] = [0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0];
/// Magic, then version and compatible version.
const XERIAL_HEADER_LEN: usize = 16;
/// The header's version and minimum compatible version (both 1).
const XERIAL_VERSION: i32 = 1;
/// xerial's default block size, which Kafka keeps.
const XERIAL_BLOCK: usize = 32 * 1024;

/// Compresses into the xerial framing the Java client produces.
pub(crate) fn compress_xerial(input: &[u8]) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(XERIAL_HEADER_LEN + input.len() / 2 + 64);
    out.extend_from_slice(&XERIAL_MAGIC);
    out.extend_from_slice(&XERIAL_VERSION.to_be_bytes());
    out.extend_from_slice(&XERIAL_VERSION.to_be_bytes());
    let mut encoder = snap::raw::Encoder::new();
    for block in input.chunks(XERIAL_BLOCK) {
        let compressed = encoder.compress_vec(block)?;
        // A block of 32 KiB compresses to well under 4 GiB.
        let len = u32::try_from(compressed.len()).map_err(io::Error::other)?;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&compressed);
    }
    Ok(out)
}

fn is_xerial_header(data: &[u8]) -> bool {
    data.len() >= XERIAL_HEADER_LEN && data[..XERIAL_MAGIC.len()] == XERIAL_MAGIC
}

/// Decompresses xerial-framed or raw snappy, at most `max_output` bytes.
pub(crate) fn decompress(input: &[u8], max_output: usize) -> Result<Vec<u8>, RecordError> {
    let mut out = BoundedOutput::new(max_output);
    if !is_xerial_header(input) {
        raw_block(input, &mut out)?;
        return Ok(out.into_vec());
    }
    let mut pos = XERIAL_HEADER_LEN;
    while pos < input.len() {
        let rest = &input[pos..];
        // xerial's reader accepts a second stream concatenated to the
        // first; its header cannot be mistaken for a chunk length, which
        // would be over 2 GiB.
        if is_xerial_header(rest) {
            pos += XERIAL_HEADER_LEN;
            continue;
        }
        let Some(len_bytes) = rest.get(..4) else {
            return Err(invalid("xerial chunk length truncated"));
        };
        let len = u32::from_be_bytes([len_bytes[0], len_bytes[1], len_bytes[2], len_bytes[3]]);
        let block = usize::try_from(len)
            .ok()
            .and_then(|len| rest.get(4..4usize.checked_add(len)?))
            .ok_or_else(|| invalid("xerial chunk longer than the data"))?;
        raw_block(block, &mut out)?;
        pos += 4 + block.len();
    }
    Ok(out.into_vec())
}

/// Decodes one raw snappy block, checking its declared length against the
/// bound before allocating for it.
fn raw_block(block: &[u8], out: &mut BoundedOutput) -> Result<(), RecordError> {
    let len = snap::raw::decompress_len(block).map_err(snap_failure)?;
    let start = out.len();
    let (_, spare) = out.spare(len)?;
    let written = snap::raw::Decoder::new()
        .decompress(block, spare)
        .map_err(snap_failure)?;
    out.truncate(start + written);
    Ok(())
}

fn invalid(reason: &str) -> RecordError {
    RecordError::Decompression {
        codec: Compression::Snappy,
        reason: reason.to_owned(),
    }
}

fn snap_failure(e: snap::Error) -> RecordError {
    RecordError::Decompression {
        codec: Compression::Snappy,
        reason: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xerial_header_layout() {
        let z = compress_xerial(b"hello hello hello").unwrap();
        assert_eq!(
            &z[..16],
            &[
                0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1
            ]
        );
        let len = u32::from_be_bytes(z[16..20].try_into().unwrap()) as usize;
        assert_eq!(z.len(), 20 + len);
        assert_eq!(decompress(&z, 100).unwrap(), b"hello hello hello");
    }

    #[test]
    fn raw_snappy_is_accepted() {
        let data = b"raw snappy as librdkafka may send it".repeat(100);
        let raw = snap::raw::Encoder::new().compress_vec(&data).unwrap();
        assert_eq!(decompress(&raw, data.len()).unwrap(), data);
        assert!(matches!(
            decompress(&raw, data.len() - 1),
            Err(RecordError::DecompressedTooLarge { .. })
        ));
    }

    #[test]
    fn multi_block_and_concatenated_streams() {
        let a: Vec<u8> = (0..100_000u32).map(|i| (i % 7) as u8).collect();
        let b = b"second stream".to_vec();
        let mut z = compress_xerial(&a).unwrap();
        z.extend(compress_xerial(&b).unwrap());
        let mut want = a.clone();
        want.extend(&b);
        assert_eq!(decompress(&z, want.len()).unwrap(), want);
    }

    #[test]
    fn truncated_chunks_are_errors() {
        let z = compress_xerial(&[7u8; 1000]).unwrap();
        for cut in XERIAL_HEADER_LEN + 1..z.len() {
            assert!(decompress(&z[..cut], 1 << 20).is_err(), "cut at {cut}");
        }
    }
}
