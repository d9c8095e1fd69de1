//! Errors of the raft crate.

use std::io;
use std::path::PathBuf;

use kafka_protocol::records::RecordError;
use tidemark_storage::StorageError;

use crate::types::NodeId;

/// Why a replica operation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// This replica is not the leader; `leader` is the one it knows of
    /// (Kafka's NOT_LEADER_OR_FOLLOWER with a leader hint).
    #[error("not the leader (leader: {leader:?})")]
    NotLeader { leader: Option<NodeId> },
    /// The entry was appended by this node as leader but then replaced by
    /// a new leader's log: it may or may not be committed (Kafka's
    /// retriable NOT_LEADER_OR_FOLLOWER; idempotent producers deduplicate).
    #[error("leadership changed while the write was in flight (leader: {leader:?})")]
    LeaderChanged { leader: Option<NodeId> },
    /// The batch is invalid (CRC, header, size): refused before it
    /// entered the Raft log.
    #[error("invalid record batch: {0}")]
    InvalidBatch(#[from] RecordError),
    #[error("record batch of {size} bytes exceeds the limit of {max} bytes")]
    BatchTooLarge { size: usize, max: usize },
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("{op} {}: {source}", path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The Raft state file is unreadable, or it and the log disagree.
    #[error("corrupt raft state: {0}")]
    CorruptState(String),
    /// The partition log holds batches but there is no Raft state next to
    /// it: it was not written through Raft, and guessing its Raft indexes
    /// could lose acknowledged data.
    #[error("the log in {0} has data but no raft state; refusing to guess")]
    ForeignLog(PathBuf),
    #[error("decoding a batch: {0}")]
    Decode(RecordError),
    /// The Raft group stopped (shut down, or a storage failure).
    #[error("raft group stopped: {0}")]
    Fatal(String),
    #[error("invalid raft configuration: {0}")]
    Config(String),
    /// A membership change was refused (another one is under way, a new
    /// voter is not a learner yet, ...).
    #[error("membership change refused: {0}")]
    Membership(String),
    #[error("timed out waiting for {0}")]
    Timeout(&'static str),
}

impl Error {
    /// Whether a client may retry (after refreshing metadata).
    pub fn is_retriable(&self) -> bool {
        matches!(
            self,
            Error::NotLeader { .. } | Error::LeaderChanged { .. } | Error::Timeout(_)
        )
    }
}

pub(crate) fn to_io(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}
