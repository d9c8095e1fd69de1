//! Errors of the storage crate.

use std::io;
use std::path::PathBuf;

use kafka_protocol::records::RecordError;

/// A refused configuration: which key, and why.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ConfigError {
    #[error("{key}={value} is invalid: {reason}")]
    Invalid {
        key: &'static str,
        value: String,
        reason: &'static str,
    },
    #[error("unknown log config key {0:?}")]
    UnknownKey(String),
    #[error("{key}: cannot parse {value:?} as a number")]
    NotANumber { key: String, value: String },
}

/// Why a log operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("{op} {}: {source}", path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("invalid record batch: {0}")]
    InvalidBatch(#[from] RecordError),
    #[error("record batch of {size} bytes exceeds the limit of {max} bytes")]
    BatchTooLarge { size: usize, max: usize },
    /// A new batch larger than a whole segment (Kafka's
    /// `RecordBatchTooLargeException`); `max.message.bytes` may exceed
    /// `segment.bytes`, as in Kafka, so this is checked on its own.
    #[error(
        "record batch of {size} bytes exceeds the segment size of {segment_bytes} bytes (segment.bytes)"
    )]
    BatchLargerThanSegment { size: usize, segment_bytes: u64 },
    #[error("offset {offset} is outside the log [{log_start}, {log_end})")]
    OffsetOutOfRange {
        offset: i64,
        log_start: i64,
        log_end: i64,
    },
    /// DeleteRecords past the max collectible offset (the Raft purge
    /// point): the records there are still part of the replicated log.
    #[error("offset {offset} is past the max collectible offset {limit}")]
    NotCollectible { offset: i64, limit: i64 },
    #[error("replicated batch starts at offset {got}, the log ends at {expected}")]
    NonContiguous { expected: i64, got: i64 },
    #[error("corrupt log data in {} at byte {position} (offset {offset}): {reason}", path.display())]
    Corrupt {
        path: PathBuf,
        position: u64,
        offset: i64,
        reason: String,
    },
    /// A small checksummed file (`slot_file.rs`) with no whole copy.
    #[error("no valid copy of {}: {reason}", path.display())]
    CorruptFile { path: PathBuf, reason: String },
    /// An earlier write or fsync failed. After a failed fsync the kernel may
    /// have dropped dirty pages, so retrying could report success for data
    /// that is gone: the log refuses all further writes until reopened.
    #[error("log is failed after an earlier I/O error ({0}); reopen it to recover")]
    Failed(String),
    #[error("log is busy: {0}")]
    Busy(&'static str),
    #[error(transparent)]
    Config(#[from] ConfigError),
}

impl StorageError {
    /// Whether the file system was full (ENOSPC, or EDQUOT for a quota).
    /// Such a write put nothing durable in place of what was there, so a
    /// log failed by it may be reopened once space is back (unlike a
    /// failed fsync, after which the page cache may hold data the disk
    /// lost).
    pub fn is_no_space(&self) -> bool {
        matches!(self, StorageError::Io { source, .. }
            if matches!(source.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT)))
    }

    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        StorageError::Io {
            op,
            path: path.into(),
            source,
        }
    }
}

pub type Result<T, E = StorageError> = std::result::Result<T, E>;
