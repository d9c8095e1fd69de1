//! The openraft type configuration of a partition group and the entry
//! payload (a Kafka record batch).

use std::fmt;

use bytes::Bytes;
use openraft::vote::leader_id_std;
use openraft::{EmptyNode, Membership};

/// A broker's id; one per node, the same in every group it takes part in.
pub type NodeId = u64;

/// Raft term. Equal to the Kafka partition leader epoch (invariant 2).
pub type Term = u64;

openraft::declare_raft_types!(
    /// The openraft type configuration of every partition group.
    ///
    /// The leader id is openraft's "standard" one (one leader per term),
    /// so that a log id is just `(term, index)`: the term is the only
    /// thing a Kafka batch records about its leader (its partition leader
    /// epoch), and the log ids of a recovered log must be rebuilt from the
    /// batches alone.
    pub TypeConfig:
        D = KafkaBatch,
        R = Appended,
        NodeId = NodeId,
        Node = EmptyNode,
        Term = Term,
        LeaderId = leader_id_std::LeaderId<Term, NodeId>,
        AsyncRuntime = openraft_rt_monoio::MonoioRuntime,
);

/// `(term, index)` of a Raft entry.
pub type LogId = openraft::LogId<leader_id_std::CommittedLeaderId<Term>>;
/// A Raft entry of a partition group.
pub type Entry = openraft::alias::EntryOf<TypeConfig>;
/// The payload of a Raft entry.
pub type Payload = openraft::EntryPayload<KafkaBatch, NodeId, EmptyNode>;
/// The vote (term, voted-for node, committed flag).
pub type Vote = openraft::alias::VoteOf<TypeConfig>;
/// A membership (voter sets, learners) of a partition group.
pub type GroupMembership = Membership<NodeId, EmptyNode>;
/// A membership with the log id of the entry that introduced it.
pub type StoredMembership = openraft::alias::StoredMembershipOf<TypeConfig>;
/// openraft's snapshot of a partition: metadata, and where a follower
/// finds the data (the partition log below its last log id is the data).
pub(crate) type Snapshot = openraft::alias::SnapshotOf<TypeConfig, ResetSource>;

/// openraft's snapshot data here: what a follower needs to reset its log
/// to its leader's (a follower behind the leader's purge point, which no
/// longer holds the entries the follower needs). The follower empties its
/// log, starts it at `log_start`, copies the leader's batches below
/// `next_offset` from `leader` (the part retention or compaction may have
/// thinned, which Raft no longer describes) and resumes Raft at
/// `next_offset`, the offset of the entry after the snapshot's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResetSource {
    /// The node whose log to copy (the leader that built the snapshot).
    pub leader: NodeId,
    /// The leader's log start offset when the snapshot was taken.
    pub log_start: i64,
    /// The offset of the first entry after the snapshot's last log id.
    pub next_offset: i64,
    /// The first entry of each term up to the snapshot's last log id
    /// (term, index, offset), the last one being the term of that entry.
    pub epochs: Vec<(Term, u64, i64)>,
}
pub type SnapshotMeta = openraft::alias::SnapshotMetaOf<TypeConfig>;

pub(crate) fn log_id(term: Term, index: u64) -> LogId {
    LogId::new(leader_id_std::CommittedLeaderId::new(term), index)
}

/// One Kafka record batch, the payload of a normal Raft entry.
///
/// A batch enters Raft unstamped (as the producer sent it); the leader
/// stamps its base offset and leader epoch when the entry is written to
/// its log, which is the only write of these bytes on the leader. Entries
/// read back from a log (to replicate or apply them) are stamped, and a
/// follower appends them as they are.
#[derive(Clone, PartialEq, Eq)]
pub struct KafkaBatch {
    pub(crate) bytes: Bytes,
    /// `None` for a batch read from a log (already stamped); for a new
    /// batch, `Some(log_append_time)` where the inner value is the time to
    /// stamp for `LogAppendTime` topics.
    pub(crate) unstamped: Option<Option<i64>>,
    /// `Some((base, next))` for an entry handed to the state machine
    /// without its bytes (`bytes` is empty): where its batch lies in the
    /// log, which is all that applying it needs. Never replicated or
    /// appended (only [`crate::store::LogStore`]'s `entries_stream`, which
    /// feeds the state machine alone, makes these).
    pub(crate) offsets: Option<(i64, i64)>,
}

impl KafkaBatch {
    /// A batch as produced, to be stamped by the leader. For topics with
    /// `message.timestamp.type=LogAppendTime`, `log_append_time` is the
    /// time to stamp. The caller must have checked its CRC (the broker's
    /// produce validation does) or built it: the leader's log does not
    /// check it again, and a corrupt batch in the Raft log would stop
    /// every follower, whose appends do check.
    pub fn new(bytes: Bytes, log_append_time: Option<i64>) -> Self {
        KafkaBatch {
            bytes,
            unstamped: Some(log_append_time),
            offsets: None,
        }
    }

    /// A batch as stored in a log (offsets and epoch stamped), e.g. one
    /// received from the leader by a network transport.
    pub fn stored(bytes: Bytes) -> Self {
        KafkaBatch {
            bytes,
            unstamped: None,
            offsets: None,
        }
    }

    /// A stored batch known by its offsets `[base, next)` alone, for the
    /// state machine.
    pub(crate) fn offsets_only(base: i64, next: i64) -> Self {
        KafkaBatch {
            bytes: Bytes::new(),
            unstamped: None,
            offsets: Some((base, next)),
        }
    }

    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    pub fn is_stamped(&self) -> bool {
        self.unstamped.is_none()
    }
}

impl fmt::Debug for KafkaBatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for KafkaBatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((base, next)) = self.offsets {
            write!(f, "batch@{base}..{next}")
        } else if self.is_stamped() && self.bytes.len() >= 8 {
            let base = i64::from_be_bytes(self.bytes[..8].try_into().expect("8 bytes"));
            write!(f, "batch@{base}({}B)", self.bytes.len())
        } else {
            write!(f, "batch({}B)", self.bytes.len())
        }
    }
}

/// Where an applied entry landed in the partition log: the response of
/// the state machine to a client write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    pub base_offset: i64,
    pub last_offset: i64,
}
