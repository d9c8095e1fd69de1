//! The openraft type configuration of a partition group, the entry payload
//! (a Kafka record batch) and how Raft's own entries (blank, membership)
//! are written into the partition log as Kafka control batches.

use std::collections::BTreeSet;
use std::fmt;

use bytes::{BufMut, Bytes, BytesMut};
use kafka_protocol::records::{NewRecord, RecordBatch, RecordBatchBuilder};
use openraft::vote::leader_id_std;
use openraft::{EmptyNode, Membership};

use crate::error::Error;

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
}

impl KafkaBatch {
    /// A batch as produced, to be stamped by the leader. For topics with
    /// `message.timestamp.type=LogAppendTime`, `log_append_time` is the
    /// time to stamp.
    pub fn new(bytes: Bytes, log_append_time: Option<i64>) -> Self {
        KafkaBatch {
            bytes,
            unstamped: Some(log_append_time),
        }
    }

    /// A batch as stored in a log (offsets and epoch stamped), e.g. one
    /// received from the leader by a network transport.
    pub fn stored(bytes: Bytes) -> Self {
        KafkaBatch {
            bytes,
            unstamped: None,
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
        if self.is_stamped() && self.bytes.len() >= 8 {
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

/// Control record type of the batch that stands for an openraft blank
/// entry (written by each new leader). Kafka's own types are small
/// numbers (0 abort, 1 commit, 2..6 KRaft); this one ("TD" + 0) cannot
/// collide with them. Consumers skip every control batch, and librdkafka
/// and the Java client ignore control types they do not know.
pub const CONTROL_TYPE_BLANK: i16 = 0x5440;
/// Control record type of the batch that holds an openraft membership.
pub const CONTROL_TYPE_MEMBERSHIP: i16 = 0x5441;

const MEMBERSHIP_VERSION: i16 = 0;

/// Encodes a blank or membership payload as a Kafka control batch (one
/// control record; base offset and epoch are stamped when appended).
pub(crate) fn control_batch(payload: &Payload, timestamp: i64) -> Result<BytesMut, Error> {
    let (kind, value) = match payload {
        Payload::Blank => (CONTROL_TYPE_BLANK, Bytes::new()),
        Payload::Membership(m) => (CONTROL_TYPE_MEMBERSHIP, encode_membership(m)),
        Payload::Normal(_) => unreachable!("normal entries are Kafka batches already"),
    };
    let mut key = BytesMut::with_capacity(4);
    key.put_i16(0);
    key.put_i16(kind);
    let bytes = RecordBatchBuilder::new()
        .control(true)
        .record(
            NewRecord::new(value)
                .with_key(key.freeze())
                .with_timestamp(timestamp),
        )
        .build()
        .map_err(Error::Encode)?;
    Ok(BytesMut::from(&bytes[..]))
}

/// Turns a batch read from the log back into an entry payload.
pub(crate) fn decode_payload(batch: &RecordBatch) -> Result<Payload, Error> {
    if !batch.is_control() {
        return Ok(Payload::Normal(KafkaBatch::stored(
            batch.as_bytes().clone(),
        )));
    }
    let mut records = batch.records().map_err(Error::Decode)?;
    let Some(first) = records.next() else {
        return Ok(Payload::Normal(KafkaBatch::stored(
            batch.as_bytes().clone(),
        )));
    };
    let record = first.map_err(Error::Decode)?;
    let kind = match record.key() {
        Some(k) if k.len() == 4 => i16::from_be_bytes([k[2], k[3]]),
        _ => {
            return Ok(Payload::Normal(KafkaBatch::stored(
                batch.as_bytes().clone(),
            )));
        }
    };
    match kind {
        CONTROL_TYPE_BLANK => Ok(Payload::Blank),
        CONTROL_TYPE_MEMBERSHIP => {
            let value = record.value().cloned().unwrap_or_default();
            Ok(Payload::Membership(decode_membership(&value)?))
        }
        // Transaction markers and anything else the broker writes are
        // ordinary entries.
        _ => Ok(Payload::Normal(KafkaBatch::stored(
            batch.as_bytes().clone(),
        ))),
    }
}

/// `[version i16][config count u32]{[voter count u32][voter u64]*}*
/// [learner count u32][learner u64]*`
pub(crate) fn encode_membership(m: &GroupMembership) -> Bytes {
    let mut b = BytesMut::new();
    b.put_i16(MEMBERSHIP_VERSION);
    let configs = m.get_joint_config();
    b.put_u32(configs.len() as u32);
    for c in configs {
        b.put_u32(c.len() as u32);
        for id in c {
            b.put_u64(*id);
        }
    }
    let learners: Vec<NodeId> = m.learner_ids().collect();
    b.put_u32(learners.len() as u32);
    for id in learners {
        b.put_u64(id);
    }
    b.freeze()
}

pub(crate) fn decode_membership(mut v: &[u8]) -> Result<GroupMembership, Error> {
    fn take<const N: usize>(v: &mut &[u8]) -> Result<[u8; N], Error> {
        if v.len() < N {
            return Err(Error::CorruptState("membership record truncated".into()));
        }
        let (a, rest) = v.split_at(N);
        *v = rest;
        Ok(a.try_into().expect("N bytes"))
    }
    let version = i16::from_be_bytes(take::<2>(&mut v)?);
    if version != MEMBERSHIP_VERSION {
        return Err(Error::CorruptState(format!(
            "membership record version {version}"
        )));
    }
    let n = u32::from_be_bytes(take::<4>(&mut v)?) as usize;
    // Every count is checked against the bytes left before anything is
    // reserved (invariant 5).
    if n > v.len() / 4 {
        return Err(Error::CorruptState("membership config count".into()));
    }
    let mut configs = Vec::with_capacity(n);
    for _ in 0..n {
        let k = u32::from_be_bytes(take::<4>(&mut v)?) as usize;
        if k > v.len() / 8 {
            return Err(Error::CorruptState("membership voter count".into()));
        }
        let mut set = BTreeSet::new();
        for _ in 0..k {
            set.insert(u64::from_be_bytes(take::<8>(&mut v)?));
        }
        configs.push(set);
    }
    let k = u32::from_be_bytes(take::<4>(&mut v)?) as usize;
    if k > v.len() / 8 {
        return Err(Error::CorruptState("membership learner count".into()));
    }
    let mut nodes: BTreeSet<NodeId> = configs.iter().flatten().copied().collect();
    for _ in 0..k {
        nodes.insert(u64::from_be_bytes(take::<8>(&mut v)?));
    }
    GroupMembership::new(configs, nodes)
        .map_err(|e| Error::CorruptState(format!("membership: {e}")))
}
