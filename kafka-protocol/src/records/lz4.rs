//! LZ4 as Kafka frames it: the standard LZ4 frame format.
//!
//! Since message format v1 (KIP-57) Kafka's `KafkaLZ4BlockOutputStream`
//! writes spec-conforming frames: independent 64 KiB blocks, no content
//! size, no checksums. We write exactly that, with lz4_flex's frame
//! encoder.
//!
//! Decoding is our own small frame walker over lz4_flex's block decoder,
//! because a frame's descriptor may declare 4 MiB blocks (franz-go and
//! sarama use them) and a general frame reader sets aside buffers of that
//! size before reading a byte of data. Here each block decodes straight
//! into the bounded output, with room for no more than the block's
//! compressed length can yield.
//! The frame's own xxHash checksums are skipped: the batch CRC-32C already
//! covers every compressed byte.

use std::io::{self, Write};

use lz4_flex::block::DecompressError;
use lz4_flex::frame::{BlockMode, BlockSize, FrameEncoder, FrameInfo};

use super::compression::{BoundedOutput, Compression};
use super::error::RecordError;

const FRAME_MAGIC: u32 = 0x184D_2204;
/// Skippable frames use magics 0x184D2A50..=0x184D2A5F.
const SKIPPABLE_MAGIC_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;
/// How far back a linked block may reach into earlier output.
const WINDOW: usize = 64 * 1024;

/// Compresses into one LZ4 frame as Kafka's Java client writes it.
pub(crate) fn compress_frame(input: &[u8]) -> io::Result<Vec<u8>> {
    let info = FrameInfo::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Independent);
    let mut enc = FrameEncoder::with_frame_info(info, Vec::new());
    enc.write_all(input)?;
    enc.finish().map_err(io::Error::other)
}

fn invalid(reason: &str) -> RecordError {
    RecordError::Decompression {
        codec: Compression::Lz4,
        reason: reason.to_owned(),
    }
}

/// A little-endian cursor over the compressed input.
struct Input<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], RecordError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.data.len())
            .ok_or_else(|| invalid(what))?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u8(&mut self, what: &str) -> Result<u8, RecordError> {
        Ok(self.take(1, what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32, RecordError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn at_end(&self) -> bool {
        self.pos >= self.data.len()
    }
}

/// The parts of a frame descriptor that decoding needs.
struct Descriptor {
    independent: bool,
    block_checksum: bool,
    content_checksum: bool,
    block_max: usize,
}

fn read_descriptor(input: &mut Input<'_>) -> Result<Descriptor, RecordError> {
    let flg = input.u8("frame descriptor truncated")?;
    let bd = input.u8("frame descriptor truncated")?;
    if flg >> 6 != 0b01 {
        return Err(invalid("unsupported LZ4 frame version"));
    }
    if flg & 0b10 != 0 || bd & 0x8F != 0 {
        return Err(invalid("reserved bits set in the LZ4 frame descriptor"));
    }
    if flg & 0b1 != 0 {
        return Err(invalid("LZ4 dictionaries are not supported"));
    }
    let block_max = match (bd >> 4) & 0b111 {
        4 => 64 << 10,
        5 => 256 << 10,
        6 => 1 << 20,
        7 => 4 << 20,
        _ => return Err(invalid("invalid LZ4 block maximum size")),
    };
    if flg & 0b1000 != 0 {
        // Content size: informational only; the bound is what limits us.
        input.take(8, "frame descriptor truncated")?;
    }
    // Header checksum: not verified (the batch CRC covers it).
    input.u8("frame descriptor truncated")?;
    Ok(Descriptor {
        independent: flg & 0b10_0000 != 0,
        block_checksum: flg & 0b1_0000 != 0,
        content_checksum: flg & 0b100 != 0,
        block_max,
    })
}

/// Decodes one or more concatenated LZ4 frames (skippable frames are
/// skipped), producing at most `max_output` bytes.
pub(crate) fn decompress_frames(data: &[u8], max_output: usize) -> Result<Vec<u8>, RecordError> {
    let mut input = Input { data, pos: 0 };
    let mut out = BoundedOutput::new(max_output);
    if input.at_end() {
        return Err(invalid("empty LZ4 input"));
    }
    while !input.at_end() {
        let magic = input.u32("LZ4 frame magic truncated")?;
        if magic & SKIPPABLE_MAGIC_MASK == SKIPPABLE_MAGIC {
            let len = input.u32("skippable frame truncated")?;
            let len = usize::try_from(len).map_err(|_| invalid("skippable frame too long"))?;
            input.take(len, "skippable frame truncated")?;
            continue;
        }
        if magic != FRAME_MAGIC {
            return Err(invalid("not an LZ4 frame"));
        }
        let desc = read_descriptor(&mut input)?;
        decode_blocks(&mut input, &desc, &mut out, max_output)?;
    }
    Ok(out.into_vec())
}

fn decode_blocks(
    input: &mut Input<'_>,
    desc: &Descriptor,
    out: &mut BoundedOutput,
    max_output: usize,
) -> Result<(), RecordError> {
    let frame_start = out.len();
    loop {
        let header = input.u32("LZ4 block header truncated")?;
        if header == 0 {
            break; // end mark
        }
        let uncompressed = header & 0x8000_0000 != 0;
        let len = (header & 0x7FFF_FFFF) as usize;
        if len > desc.block_max {
            return Err(invalid("LZ4 block larger than the frame's maximum"));
        }
        let block = input.take(len, "LZ4 block truncated")?;
        if desc.block_checksum {
            input.take(4, "LZ4 block checksum truncated")?;
        }
        if uncompressed {
            out.extend(block)?;
            continue;
        }
        let start = out.len();
        // Every input byte of an LZ4 block yields at most 255 output bytes
        // (a run-length extension byte), so room is sized by the block's
        // own length, the frame's maximum and the caller's bound.
        let possible = desc
            .block_max
            .min(len.saturating_mul(256).saturating_add(64));
        let allowed = max_output - start;
        let space = possible.min(allowed);
        let (before, spare) = out.spare(space)?;
        let result = if desc.independent {
            lz4_flex::block::decompress_into(block, spare)
        } else {
            let dict_start = frame_start.max(start.saturating_sub(WINDOW));
            lz4_flex::block::decompress_into_with_dict(block, spare, &before[dict_start..])
        };
        match result {
            Ok(written) => out.truncate(start + written),
            // Room was cut short by the caller's bound, not by what the
            // block could legitimately hold: the data is too big, not bad.
            Err(DecompressError::OutputTooSmall { .. }) if allowed < possible => {
                return Err(RecordError::DecompressedTooLarge { limit: max_output });
            }
            Err(e) => {
                return Err(RecordError::Decompression {
                    codec: Compression::Lz4,
                    reason: e.to_string(),
                });
            }
        }
    }
    if desc.content_checksum {
        input.take(4, "LZ4 content checksum truncated")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_layout_matches_kafka() {
        let z = compress_frame(b"kafka lz4").unwrap();
        assert_eq!(&z[..4], &FRAME_MAGIC.to_le_bytes());
        // FLG: version 01, independent blocks, no checksums, no size.
        assert_eq!(z[4], 0b0110_0000);
        // BD: 64 KiB blocks.
        assert_eq!(z[5], 0x40);
        // Ends with the end mark.
        assert_eq!(&z[z.len() - 4..], &[0, 0, 0, 0]);
    }

    #[test]
    fn linked_blocks_and_checksums_decode() {
        let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 13) as u8).collect();
        let info = FrameInfo::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked)
            .block_checksums(true)
            .content_checksum(true)
            .content_size(Some(data.len() as u64));
        let mut enc = FrameEncoder::with_frame_info(info, Vec::new());
        enc.write_all(&data).unwrap();
        let z = enc.finish().unwrap();
        assert_eq!(decompress_frames(&z, data.len()).unwrap(), data);
    }

    #[test]
    fn big_blocks_and_skippable_frames() {
        let data = vec![42u8; 5 << 20];
        let info = FrameInfo::new().block_size(BlockSize::Max4MB);
        let mut enc = FrameEncoder::with_frame_info(info, Vec::new());
        enc.write_all(&data).unwrap();
        let mut z = vec![0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3];
        z.extend(enc.finish().unwrap());
        assert_eq!(decompress_frames(&z, data.len()).unwrap(), data);
        assert!(matches!(
            decompress_frames(&z, 1000),
            Err(RecordError::DecompressedTooLarge { limit: 1000 })
        ));
    }

    #[test]
    fn every_truncation_fails() {
        let z = compress_frame(&[9u8; 5000]).unwrap();
        for cut in 0..z.len() {
            assert!(decompress_frames(&z[..cut], 1 << 20).is_err(), "cut {cut}");
        }
    }
}
