//! The codecs a batch's records may be compressed with, as Kafka frames them.
//!
//! Decompression is always bounded: the caller names the most bytes it is
//! willing to hold, and a payload that would inflate past that (a zip bomb,
//! or just a batch too big for the purpose) is an error, found before the
//! memory is spent. The broker decompresses on the produce path only when
//! a record must be checked or the topic's `compression.type` names
//! another codec ([`super::recompress`]); otherwise batches travel as
//! bytes, and compaction, dead-lettering and tools look inside.
//!
//! Integrity is the batch CRC-32C's job (it covers the compressed bytes), so
//! the codecs' own optional checksums are not verified here.

use std::fmt;
use std::io::{self, Read, Write};

use super::error::RecordError;
use super::{lz4, snappy};

/// A batch's compression codec: attribute bits 0-2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Compression {
    #[default]
    None = 0,
    Gzip = 1,
    /// Snappy, in the xerial framing the Java client writes.
    Snappy = 2,
    /// LZ4, in the standard LZ4 frame format (Kafka's
    /// `KafkaLZ4BlockOutputStream`).
    Lz4 = 3,
    Zstd = 4,
}

impl Compression {
    /// Every codec, in id order.
    pub const ALL: [Compression; 5] = [
        Compression::None,
        Compression::Gzip,
        Compression::Snappy,
        Compression::Lz4,
        Compression::Zstd,
    ];

    /// The codec with this attribute id, if any (ids 5-7 are unassigned).
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.get(usize::from(id)).copied()
    }

    /// The id stored in the batch attributes.
    pub fn id(self) -> u8 {
        self as u8
    }

    /// Kafka's name for it, as in `compression.type`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Snappy => "snappy",
            Compression::Lz4 => "lz4",
            Compression::Zstd => "zstd",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// zstd level Kafka uses by default (`compression.zstd.level`).
pub const ZSTD_DEFAULT_LEVEL: i32 = 3;
/// gzip level Kafka uses when `compression.gzip.level` is -1: level 6,
/// java.util.zip's default.
pub const GZIP_DEFAULT_LEVEL: i32 = 6;

/// Compresses `input` the way the Java client would for this codec, at
/// its default level.
pub fn compress(codec: Compression, input: &[u8]) -> Result<Vec<u8>, RecordError> {
    compress_at(codec, input, None)
}

/// Compresses `input` at `level` (Kafka's `compression.<codec>.level`;
/// `None` or gzip's -1: the codec's default). Levels apply to gzip (1-9)
/// and zstd (-131072..=22); snappy has none, and the LZ4 encoder here
/// (lz4_flex) has one speed, so an LZ4 level is not applied.
pub fn compress_at(
    codec: Compression,
    input: &[u8],
    level: Option<i32>,
) -> Result<Vec<u8>, RecordError> {
    let failed = |e: io::Error| RecordError::CompressionFailed {
        codec,
        reason: e.to_string(),
    };
    match codec {
        Compression::None => Ok(input.to_vec()),
        Compression::Gzip => {
            let level = match level {
                Some(l @ 1..=9) => l as u32,
                _ => GZIP_DEFAULT_LEVEL as u32,
            };
            let mut enc =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
            enc.write_all(input).map_err(failed)?;
            enc.finish().map_err(failed)
        }
        Compression::Snappy => snappy::compress_xerial(input).map_err(failed),
        Compression::Lz4 => lz4::compress_frame(input).map_err(failed),
        Compression::Zstd => {
            zstd::stream::encode_all(input, level.unwrap_or(ZSTD_DEFAULT_LEVEL)).map_err(failed)
        }
    }
}

/// Decompresses `input`, refusing to produce more than `max_output` bytes.
///
/// The returned buffer never has a capacity above `max_output`, and the
/// codecs' working memory is bounded too: LZ4 blocks decode straight into
/// that buffer, snappy blocks are checked against it by their declared
/// length first, gzip's window is 32 KiB, and zstd frames may not demand a
/// window above `max(max_output, 8 MiB)` (see [`ZSTD_MIN_WINDOW_LOG`]).
/// For [`Compression::None`] this is a bounded copy.
pub fn decompress(
    codec: Compression,
    input: &[u8],
    max_output: usize,
) -> Result<Vec<u8>, RecordError> {
    match codec {
        Compression::None => {
            if input.len() > max_output {
                return Err(RecordError::DecompressedTooLarge { limit: max_output });
            }
            Ok(input.to_vec())
        }
        // Java's GZIPInputStream reads concatenated members; so do we.
        Compression::Gzip => {
            read_bounded(flate2::read::MultiGzDecoder::new(input), max_output, codec)
        }
        Compression::Snappy => snappy::decompress(input, max_output),
        Compression::Lz4 => lz4::decompress_frames(input, max_output),
        Compression::Zstd => {
            let mut dec = zstd::stream::read::Decoder::with_buffer(input)
                .map_err(|e| io_failure(codec, e))?;
            dec.window_log_max(zstd_window_log_max(max_output))
                .map_err(|e| io_failure(codec, e))?;
            read_bounded(dec, max_output, codec)
        }
    }
}

/// The zstd window (log2 bytes) always allowed, whatever the output bound:
/// 8 MiB covers every level up to 19 (level 3, Kafka's default, uses 2 MiB
/// when the size is not known in advance, as with Java's streaming
/// `ZstdOutputStream`). The decoder allocates the window a frame declares,
/// so without a limit a 20-byte frame could make it reserve zstd's default
/// maximum of 128 MiB.
pub const ZSTD_MIN_WINDOW_LOG: u32 = 23;
/// zstd's own default limit (128 MiB): windows of the "ultra" levels 20-22.
const ZSTD_MAX_WINDOW_LOG: u32 = 27;

/// A window larger than the whole permitted output is never needed to
/// decode it, so the limit is the output bound rounded up to a power of
/// two, but never below [`ZSTD_MIN_WINDOW_LOG`] so that frames from normal
/// levels always decode.
fn zstd_window_log_max(max_output: usize) -> u32 {
    let needed = usize::BITS - max_output.saturating_sub(1).leading_zeros();
    needed.clamp(ZSTD_MIN_WINDOW_LOG, ZSTD_MAX_WINDOW_LOG)
}

pub(crate) fn io_failure(codec: Compression, e: io::Error) -> RecordError {
    RecordError::Decompression {
        codec,
        reason: e.to_string(),
    }
}

/// An output buffer whose capacity never exceeds its limit: it grows by
/// doubling like `Vec`, but each step is capped, so a bound of N bytes is
/// never an allocation of 2N.
pub(crate) struct BoundedOutput {
    buf: Vec<u8>,
    limit: usize,
}

impl BoundedOutput {
    pub(crate) fn new(limit: usize) -> Self {
        BoundedOutput {
            buf: Vec::new(),
            limit,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.buf.len()
    }

    /// Makes room for `n` more bytes, or reports that the limit is hit.
    pub(crate) fn reserve(&mut self, n: usize) -> Result<(), RecordError> {
        let needed = self
            .buf
            .len()
            .checked_add(n)
            .filter(|&needed| needed <= self.limit)
            .ok_or(RecordError::DecompressedTooLarge { limit: self.limit })?;
        if needed > self.buf.capacity() {
            let target = needed
                .max(self.buf.capacity().saturating_mul(2))
                .max(4096)
                .min(self.limit);
            self.buf.reserve_exact(target - self.buf.len());
        }
        Ok(())
    }

    pub(crate) fn extend(&mut self, data: &[u8]) -> Result<(), RecordError> {
        self.reserve(data.len())?;
        self.buf.extend_from_slice(data);
        Ok(())
    }

    /// Grows the buffer by `n` zeroed bytes (after the limit check) and
    /// returns them, for decoders that write into a slice.
    pub(crate) fn spare(&mut self, n: usize) -> Result<(&[u8], &mut [u8]), RecordError> {
        self.reserve(n)?;
        let start = self.buf.len();
        self.buf.resize(start + n, 0);
        let (before, spare) = self.buf.split_at_mut(start);
        Ok((before, spare))
    }

    /// Drops bytes past `len` (undoing the unused part of [`Self::spare`]).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.buf.truncate(len);
    }

    pub(crate) fn into_vec(self) -> Vec<u8> {
        self.buf
    }
}

/// Reads a streaming decoder to its end through a [`BoundedOutput`].
fn read_bounded(
    mut reader: impl Read,
    max_output: usize,
    codec: Compression,
) -> Result<Vec<u8>, RecordError> {
    let mut out = BoundedOutput::new(max_output);
    let mut chunk = [0u8; 8192];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(out.into_vec()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_failure(codec, e)),
        };
        out.extend(&chunk[..n])?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        (0..200_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect()
    }

    #[test]
    fn ids_round_trip() {
        for c in Compression::ALL {
            assert_eq!(Compression::from_id(c.id()), Some(c));
        }
        for id in 5..=7 {
            assert_eq!(Compression::from_id(id), None);
        }
    }

    #[test]
    fn every_codec_round_trips() {
        let data = sample();
        for c in Compression::ALL {
            for input in [&data[..], &[][..], b"x"] {
                let z = compress(c, input).unwrap();
                let back = decompress(c, &z, input.len()).unwrap();
                assert_eq!(back, input, "{c}");
            }
        }
    }

    #[test]
    fn bound_is_enforced_for_every_codec() {
        let data = sample();
        for c in Compression::ALL {
            let z = compress(c, &data).unwrap();
            for limit in [0, 1, 1000, data.len() - 1] {
                assert_eq!(
                    decompress(c, &z, limit),
                    Err(RecordError::DecompressedTooLarge { limit }),
                    "{c} limit {limit}"
                );
            }
        }
    }

    #[test]
    fn zip_bomb_never_allocates_past_bound() {
        // Zeros shrink at least 8-fold with every codec (snappy least).
        let zeros = vec![0u8; 16 << 20];
        for c in [
            Compression::Gzip,
            Compression::Zstd,
            Compression::Lz4,
            Compression::Snappy,
        ] {
            let z = compress(c, &zeros).unwrap();
            assert!(z.len() < 2 << 20, "{c}: {}", z.len());
            assert!(matches!(
                decompress(c, &z, 1 << 20),
                Err(RecordError::DecompressedTooLarge { .. })
            ));
        }
    }

    #[test]
    fn garbage_is_an_error() {
        let junk = b"definitely not compressed data \x00\xff\x13";
        for c in [
            Compression::Gzip,
            Compression::Lz4,
            Compression::Zstd,
            Compression::Snappy,
        ] {
            assert!(decompress(c, junk, 1 << 20).is_err(), "{c}");
        }
    }

    #[test]
    fn bounded_output_capacity_stays_under_limit() {
        let mut out = BoundedOutput::new(10_000);
        for _ in 0..9 {
            out.extend(&[1u8; 1111]).unwrap();
        }
        assert!(out.buf.capacity() <= 10_000);
        assert!(out.extend(&[1u8; 1111]).is_err());
    }

    /// A 9-byte zstd frame (one empty raw block) that declares a 128 MiB
    /// window: refused, since the decoder would reserve the window first.
    #[test]
    fn zstd_frame_demanding_a_huge_window_is_refused() {
        let frame = |window_descriptor: u8| {
            [
                0x28,
                0xB5,
                0x2F,
                0xFD,
                0x00,
                window_descriptor,
                0x01,
                0x00,
                0x00,
            ]
        };
        // Window log = 10 + exponent (the descriptor's top 5 bits).
        let huge = frame(17 << 3);
        let fine = frame(13 << 3);
        assert!(matches!(
            decompress(Compression::Zstd, &huge, 1 << 20),
            Err(RecordError::Decompression { .. })
        ));
        assert_eq!(decompress(Compression::Zstd, &fine, 1 << 20), Ok(vec![]));
        // A bound of 128 MiB permits the 128 MiB window.
        assert_eq!(decompress(Compression::Zstd, &huge, 128 << 20), Ok(vec![]));
    }

    #[test]
    fn zstd_window_limit() {
        assert_eq!(zstd_window_log_max(0), ZSTD_MIN_WINDOW_LOG);
        assert_eq!(zstd_window_log_max(1 << 24), 24);
        assert_eq!(zstd_window_log_max((1 << 24) + 1), 25);
        assert_eq!(zstd_window_log_max(usize::MAX), ZSTD_MAX_WINDOW_LOG);
    }
}
