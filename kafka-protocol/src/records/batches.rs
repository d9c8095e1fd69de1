//! [`RecordBatches`]: splits a buffer of concatenated batches into views.

use bytes::Bytes;

use super::batch::RecordBatch;
use super::error::RecordError;
use super::header::{self as h, LOG_OVERHEAD, MAGIC_V2};

/// The smallest entry of any magic (a v0 message with empty key and
/// value: Kafka's `LegacyRecord.RECORD_OVERHEAD_V0`). A length below this
/// is corruption whatever follows, so it is reported even in a short tail.
const MIN_ENTRY_LENGTH: i32 = 14;

/// Iterates the batches in a records buffer (a Produce partition's
/// `records`, a Fetch partition's `records`, a log segment read).
///
/// Yields each complete batch as a zero-copy [`RecordBatch`]. An
/// incomplete batch at the end yields
/// [`RecordError::PartialBatch`] (see [`RecordError::is_partial_batch`]):
/// a Fetch response may end that way and the reader just stops there,
/// whereas for a Produce request it is corruption. Any other error means
/// the bytes are corrupt. The iterator ends after the first error.
///
/// Like Kafka's `ByteBufferLogInputStream`, it checks the length and magic
/// before the batch is complete, so a corrupt length is not mistaken for a
/// partial batch.
#[derive(Debug, Clone)]
pub struct RecordBatches {
    buf: Bytes,
    pos: usize,
    done: bool,
}

impl RecordBatches {
    pub fn new(buf: Bytes) -> Self {
        RecordBatches {
            buf,
            pos: 0,
            done: false,
        }
    }

    /// Bytes consumed by the batches yielded so far: where the next one
    /// starts (or where a partial tail begins).
    pub fn position(&self) -> usize {
        self.pos
    }

    fn fail(&mut self, e: RecordError) -> Option<Result<RecordBatch, RecordError>> {
        self.done = true;
        Some(Err(e))
    }

    /// The size of the batch at the start of `rest` (which is not empty),
    /// or why there is no complete, plausible one.
    fn next_size(&self, rest: &[u8]) -> Result<usize, RecordError> {
        if rest.len() < LOG_OVERHEAD {
            return Err(RecordError::PartialBatch {
                needed: LOG_OVERHEAD,
                available: rest.len(),
            });
        }
        let length = h::get_i32(rest, h::BATCH_LENGTH);
        if length < MIN_ENTRY_LENGTH {
            return Err(RecordError::InvalidBatchLength(length));
        }
        let size = LOG_OVERHEAD + length as usize;
        if let Some(&magic) = rest.get(h::MAGIC) {
            let magic = magic as i8;
            match magic {
                MAGIC_V2 if length < h::MIN_BATCH_LENGTH => {
                    return Err(RecordError::InvalidBatchLength(length));
                }
                MAGIC_V2 => {}
                0 | 1 => return Err(RecordError::LegacyMagic(magic)),
                _ => return Err(RecordError::UnknownMagic(magic)),
            }
        }
        if rest.len() < size {
            return Err(RecordError::PartialBatch {
                needed: size,
                available: rest.len(),
            });
        }
        Ok(size)
    }
}

impl Iterator for RecordBatches {
    type Item = Result<RecordBatch, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.pos >= self.buf.len() {
            self.done = true;
            return None;
        }
        let size = match self.next_size(&self.buf[self.pos..]) {
            Ok(size) => size,
            Err(e) => return self.fail(e),
        };
        let batch = self.buf.slice(self.pos..self.pos + size);
        match RecordBatch::new(batch) {
            Ok(b) => {
                self.pos += size;
                Some(Ok(b))
            }
            Err(e) => self.fail(e),
        }
    }
}

impl std::iter::FusedIterator for RecordBatches {}
