//! Why record-batch bytes were refused, and which Kafka error code says so.

use super::compression::Compression;

/// Kafka's `UNKNOWN_SERVER_ERROR`: used for misuse of this API and for
/// failures of our own encoders, never for something a client sent.
const UNKNOWN_SERVER_ERROR: i16 = -1;
/// Kafka's `CORRUPT_MESSAGE`: Kafka's `CorruptRecordException`, thrown for
/// CRC mismatches and for batch sizes that cannot be right.
const CORRUPT_MESSAGE: i16 = 2;
/// Kafka's `MESSAGE_TOO_LARGE`: what Kafka answers when records exceed
/// what the broker accepts (`RecordTooLargeException`).
const MESSAGE_TOO_LARGE: i16 = 10;
/// Kafka's `INVALID_RECORD`: Kafka's `InvalidRecordException`, thrown for a
/// batch whose CRC is fine but whose contents are malformed, and for a
/// Produce v3+ carrying a magic 0/1 message set.
const INVALID_RECORD: i16 = 87;

/// Why a record batch (or a buffer of them) could not be read, built or
/// decompressed.
///
/// Every parsing path in [`crate::records`] returns one of these instead of
/// panicking, whatever the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// The bytes handed to [`RecordBatch::new`](super::RecordBatch::new)
    /// stop before the batch does.
    #[error("record batch truncated: {needed} bytes needed, {available} available")]
    Truncated { needed: usize, available: usize },
    /// A buffer of concatenated batches ends in an incomplete batch.
    ///
    /// Kept apart from [`RecordError::Truncated`] because a Fetch response
    /// may legitimately end this way (the broker cut at `max_bytes`): a
    /// consumer drops the tail, while a Produce request with one is corrupt.
    #[error(
        "partial record batch at the end of the buffer: {needed} bytes needed, {available} available"
    )]
    PartialBatch { needed: usize, available: usize },
    /// More bytes were handed to [`RecordBatch::new`](super::RecordBatch::new)
    /// than the batch's length field covers.
    #[error("record batch declares {declared} bytes but {actual} were given")]
    LengthMismatch { declared: usize, actual: usize },
    /// The `batchLength` field is below the smallest possible batch.
    #[error("record batch length {0} is below the minimum")]
    InvalidBatchLength(i32),
    /// A magic 0 or 1 message set (Kafka before 0.11). Kafka 4 refuses
    /// these on produce; so do we.
    #[error("message format v{0} (magic {0}) is not supported; only record batch v2 is")]
    LegacyMagic(i8),
    /// A magic byte that no Kafka version has used.
    #[error("unknown record batch magic {0}")]
    UnknownMagic(i8),
    /// The stored CRC-32C does not match the bytes it covers.
    #[error("record batch CRC mismatch: stored {stored:#010x}, computed {computed:#010x}")]
    CrcMismatch { stored: u32, computed: u32 },
    /// Compression bits 5, 6 or 7: no codec has these ids.
    #[error("unknown compression codec id {0}")]
    UnknownCompression(u8),
    /// The `recordsCount` field is negative.
    #[error("invalid record count {0}")]
    InvalidRecordCount(i32),
    /// A record inside the batch is malformed.
    #[error("invalid record: {0}")]
    InvalidRecord(&'static str),
    /// Bytes remain after the batch's declared number of records.
    #[error("{0} bytes remain after the last declared record")]
    TrailingRecordBytes(usize),
    /// A varint ran past its maximum length (5 bytes for 32 bits, 10 for 64).
    #[error("invalid varint in a record")]
    InvalidVarint,
    /// [`RecordBatch::records`](super::RecordBatch::records) was called on a
    /// compressed batch; use
    /// [`RecordBatch::decompressed_records`](super::RecordBatch::decompressed_records).
    #[error("the batch is compressed with {0}; decompress it first")]
    Compressed(Compression),
    /// Decompressing would produce more than the caller's bound.
    #[error("decompressed data exceeds the limit of {limit} bytes")]
    DecompressedTooLarge { limit: usize },
    /// The compressed payload is not valid for its codec.
    #[error("{codec} decompression failed: {reason}")]
    Decompression { codec: Compression, reason: String },
    /// Our own compressor failed (only the builder compresses).
    #[error("{codec} compression failed: {reason}")]
    CompressionFailed { codec: Compression, reason: String },
    /// The builder was given more than a batch can describe (its length,
    /// record count and offsets are 32-bit).
    #[error("record batch too large to encode")]
    BatchTooLarge,
}

impl RecordError {
    /// True for the one error a Fetch reader should treat as "end of
    /// data" rather than corruption: an incomplete batch at the end.
    pub fn is_partial_batch(&self) -> bool {
        matches!(self, RecordError::PartialBatch { .. })
    }

    /// The Kafka error code (the `i16` number) a broker answers a Produce
    /// partition with when its records fail this way.
    ///
    /// Follows Kafka 4: size and CRC problems are `CORRUPT_MESSAGE` (2),
    /// as Kafka's `CorruptRecordException`; malformed contents and magic 0/1
    /// message sets are `INVALID_RECORD` (87), as Kafka's
    /// `InvalidRecordException` (see [`super::legacy`]). For an unknown
    /// codec id or an undecompressable payload Kafka fails with an
    /// unexpected exception (`UNKNOWN_SERVER_ERROR`); we say
    /// `CORRUPT_MESSAGE` instead, because the fault is in the client's
    /// bytes, not in the server. Errors that only this API's misuse or our
    /// own encoder can cause are `UNKNOWN_SERVER_ERROR` (-1). Decompressed
    /// data past the caller's bound is `MESSAGE_TOO_LARGE` (10).
    pub fn kafka_error_code(&self) -> i16 {
        use RecordError::*;
        match self {
            Truncated { .. }
            | PartialBatch { .. }
            | LengthMismatch { .. }
            | InvalidBatchLength(_)
            | UnknownMagic(_)
            | CrcMismatch { .. }
            | UnknownCompression(_)
            | Decompression { .. } => CORRUPT_MESSAGE,
            DecompressedTooLarge { .. } => MESSAGE_TOO_LARGE,
            LegacyMagic(_)
            | InvalidRecordCount(_)
            | InvalidRecord(_)
            | TrailingRecordBytes(_)
            | InvalidVarint => INVALID_RECORD,
            Compressed(_) | CompressionFailed { .. } | BatchTooLarge => UNKNOWN_SERVER_ERROR,
        }
    }
}
