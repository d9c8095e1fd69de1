//! Re-encoding a batch with another codec: a topic's `compression.type`
//! (Kafka's `LogValidator` recompresses a batch whose codec is not the
//! topic's).
//!
//! The records section (varint-framed records holding deltas from the
//! batch's base offset and timestamp) does not depend on the codec, so
//! only that section is decompressed and compressed again; every header
//! field keeps its value (offsets, timestamps, producer id, epoch and
//! sequence, the transactional bit) except the compression bits, the
//! batch length and the CRC. The old CRC is verified first, so a batch
//! damaged in flight is refused rather than given a valid new CRC.

use bytes::Bytes;

use super::batch::RecordBatch;
use super::compression::{self, Compression};
use super::error::RecordError;
use super::header::{self as h, Attributes};

/// `batch` with its records compressed by `target` at `level` (see
/// [`compression::compress_at`]), decompressing at most `max_decompressed`
/// bytes. A batch already in `target` is returned as it is (zero-copy),
/// as Kafka keeps it whatever level it was written at; so is a control
/// batch (its records are never compressed).
pub fn recompress(
    batch: &RecordBatch,
    target: Compression,
    level: Option<i32>,
    max_decompressed: usize,
) -> Result<Bytes, RecordError> {
    let source = batch.compression();
    if source == target || batch.is_control() {
        return Ok(batch.as_bytes().clone());
    }
    batch.verify_crc()?;
    let payload = batch.records_payload();
    let plain = match source {
        Compression::None => payload,
        c => Bytes::from(compression::decompress(c, &payload, max_decompressed)?),
    };
    // Every record is read once, as Kafka's validator does when it
    // re-encodes, so garbage inside a compressed payload is refused here
    // rather than sealed under a fresh CRC.
    let unpacked = RecordBatch::new(assemble(batch, Compression::None, &plain)?)?;
    for record in unpacked.records()? {
        record?;
    }
    if target == Compression::None {
        return Ok(unpacked.into_bytes());
    }
    assemble(
        batch,
        target,
        &compression::compress_at(target, &plain, level)?,
    )
}

/// `batch`'s header with `body` as its records section in `codec`.
fn assemble(batch: &RecordBatch, codec: Compression, body: &[u8]) -> Result<Bytes, RecordError> {
    let size = h::RECORD_BATCH_OVERHEAD
        .checked_add(body.len())
        .ok_or(RecordError::BatchTooLarge)?;
    let batch_length =
        i32::try_from(size - h::LOG_OVERHEAD).map_err(|_| RecordError::BatchTooLarge)?;
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&batch.as_bytes()[..h::RECORD_BATCH_OVERHEAD]);
    out[h::BATCH_LENGTH..h::BATCH_LENGTH + 4].copy_from_slice(&batch_length.to_be_bytes());
    let attributes: Attributes = batch.attributes().with_compression(codec);
    out[h::ATTRIBUTES..h::ATTRIBUTES + 2].copy_from_slice(&attributes.0.to_be_bytes());
    out.extend_from_slice(body);
    let crc = h::compute_crc(&out);
    out[h::CRC..h::CRC + 4].copy_from_slice(&crc.to_be_bytes());
    Ok(Bytes::from(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{NewRecord, RecordBatchBuilder};

    fn batch(codec: Compression) -> RecordBatch {
        let bytes = RecordBatchBuilder::new()
            .base_offset(7)
            .producer(42, 3, 100)
            .transactional(true)
            .compression(codec)
            .records((0..50).map(|i| {
                NewRecord::new(format!("value-{i}-").repeat(20))
                    .with_key(format!("k{i}"))
                    .with_timestamp(1_700_000_000_000 + i)
                    .with_header("h", Some(Bytes::from_static(b"v")))
            }))
            .build()
            .unwrap();
        RecordBatch::new(bytes).unwrap()
    }

    fn records(b: &RecordBatch) -> Vec<(i64, i64, Option<Bytes>, Option<Bytes>)> {
        b.decompressed_records(1 << 20)
            .unwrap()
            .map(|r| {
                let r = r.unwrap();
                (
                    r.offset(),
                    r.timestamp(),
                    r.key().cloned(),
                    r.value().cloned(),
                )
            })
            .collect()
    }

    #[test]
    fn every_codec_to_every_codec_keeps_records_and_header() {
        for from in Compression::ALL {
            let src = batch(from);
            let want = records(&src);
            for to in Compression::ALL {
                for level in [None, Some(1), Some(9)] {
                    let out =
                        RecordBatch::new(recompress(&src, to, level, 1 << 20).unwrap()).unwrap();
                    out.verify_crc().unwrap();
                    assert_eq!(out.compression(), to);
                    assert_eq!(records(&out), want, "{from} -> {to}");
                    assert_eq!(out.base_offset(), 7);
                    assert_eq!(out.producer_id(), 42);
                    assert_eq!(out.producer_epoch(), 3);
                    assert_eq!(out.base_sequence(), 100);
                    assert!(out.is_transactional());
                    assert_eq!(out.max_timestamp(), src.max_timestamp());
                    assert_eq!(out.records_count(), 50);
                }
            }
        }
    }

    #[test]
    fn same_codec_is_zero_copy() {
        let src = batch(Compression::Zstd);
        let out = recompress(&src, Compression::Zstd, Some(19), 1 << 20).unwrap();
        assert_eq!(out.as_ptr(), src.as_bytes().as_ptr());
    }

    #[test]
    fn a_corrupt_batch_is_refused_not_re_signed() {
        let src = batch(Compression::None);
        let mut bytes = src.as_bytes().to_vec();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        let bad = RecordBatch::new(Bytes::from(bytes)).unwrap();
        assert!(matches!(
            recompress(&bad, Compression::Gzip, None, 1 << 20),
            Err(RecordError::CrcMismatch { .. })
        ));
    }

    #[test]
    fn garbage_inside_a_compressed_payload_is_refused() {
        let src = batch(Compression::None);
        let mut plain = src.as_bytes().to_vec();
        plain.truncate(plain.len() - 10);
        let body =
            compression::compress(Compression::Gzip, &plain[h::RECORD_BATCH_OVERHEAD..]).unwrap();
        let bad = RecordBatch::new(assemble(&src, Compression::Gzip, &body).unwrap()).unwrap();
        bad.verify_crc().unwrap();
        assert!(recompress(&bad, Compression::Zstd, None, 1 << 20).is_err());
    }

    #[test]
    fn decompression_is_bounded() {
        let src = batch(Compression::Gzip);
        assert!(matches!(
            recompress(&src, Compression::None, None, 100),
            Err(RecordError::DecompressedTooLarge { .. })
        ));
    }

    #[test]
    fn levels_change_the_bytes() {
        let src = batch(Compression::None);
        let fast = recompress(&src, Compression::Zstd, Some(1), 1 << 20).unwrap();
        let slow = recompress(&src, Compression::Zstd, Some(19), 1 << 20).unwrap();
        assert_ne!(fast, slow);
    }
}
