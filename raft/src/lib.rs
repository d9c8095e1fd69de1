//! Replication: one Raft group per partition (openraft on monoio) whose
//! log *is* the partition log.
//!
//! # How Kafka maps onto Raft
//!
//! * **One entry, one batch.** Each Raft entry is one record batch of the
//!   partition log ([`tidemark_storage::Log`]). The leader stamps a
//!   produced batch's base offset (the log end offset) and partition leader
//!   epoch (the Raft term) when openraft hands the entry to the log store,
//!   which is the one and only write of those bytes on the leader; a
//!   follower writes the stamped bytes it receives, once. Nothing of an
//!   entry is stored anywhere else (invariant 2).
//! * **Raft's own entries take no offset.** openraft writes a blank
//!   entry when a leader is elected and membership entries when the
//!   voters change (the first at index 0, on initialization). They are
//!   kept in the `raft-state` file, each with the log end offset at which
//!   it was appended, not in the partition log: so Kafka offsets are
//!   dense and a new partition's first record is at offset 0, as every
//!   client and tool expects. Why not Redpanda's offset translator (the
//!   entries stay in the log, and every offset crossing the Kafka API is
//!   translated)? Here the storage `Log` serves Fetch, ListOffsets,
//!   DeleteRecords, time and epoch lookups in its own offsets; a
//!   translator would have to sit in front of all of them and rewrite
//!   base offsets of fetched batches. These entries are rare (one per
//!   election or voter change), tiny, and purged with the log prefix, so
//!   a side table costs a few lines of a small file written anyway at
//!   those moments. A Kafka leader epoch therefore starts at its first
//!   data batch (Kafka assigns it at the log end on election: the same
//!   offset).
//! * **Index vs offset.** openraft numbers entries one by one; Kafka
//!   numbers records. The data entries are the log's batches in order,
//!   with the side table's entries between them. The map between the two
//!   (`index.rs`) is exact for recent entries and uses sparse anchors for
//!   older ones; each term's first entry is an anchor too, which gives
//!   openraft its log ids without reading the log.
//! * **The log start moves below the purge point only.** Retention,
//!   DeleteRecords and compaction delete or rewrite batches, which would
//!   remove Raft entries and break the counting. So the replica first
//!   moves openraft's purge point up (a snapshot that is only a record of
//!   the apply point, since the log *is* the data, then a purge), and the
//!   log's max collectible offset follows the purge point: those
//!   operations act below it only. A leader purges no further than every
//!   follower has replicated; a follower that is behind a leader's purge
//!   point anyway (its data was wiped, it was partitioned away while
//!   another replica purged, or a reassignment added it) gets a log reset:
//!   openraft's snapshot carries a [`ResetSource`], and installing it
//!   empties the follower's log, copies the leader's batches from its log
//!   start up to the entry after the snapshot (through the
//!   [`LogSource`] the broker installs) and resumes Raft there. A crash
//!   during a reset leaves a marker, and the replica then reopens empty,
//!   as a wiped one.
//! * **Term = leader epoch, commit = high watermark.** openraft uses its
//!   standard leader id (one leader per term), so a log id is
//!   `(term, index)` and the term is the batch's partition leader epoch.
//!   The state machine is the high watermark: applying entry `i` moves it
//!   to the offset after that batch.
//! * **The rest of Raft's state** (vote, commit point, applied point with
//!   its offset, applied membership, anchors) is in `raft-state`, a small
//!   file replaced atomically.
//! * **Durability.** One fdatasync per openraft append call (which covers
//!   every client write that arrived meanwhile: group commit); openraft
//!   counts this node's copy only after it.
//!
//! # Between nodes
//!
//! [`transport`] carries every group's Raft messages between brokers: one
//! TCP connection per (shard, peer node), frames coalesced into few
//! writes, heartbeats of all leader groups sent together, bounded queues.

mod error;
mod index;
mod meta;
mod network;
mod replica;
mod store;
pub mod transport;
mod types;

pub use error::Error;
pub use meta::{read_state_text, write_state_text};
pub use network::{LocalClientFrom, LocalNetwork, LocalRouter, NoPeer, NoPeers};
pub use replica::{
    MemberProgress, Membership, OpenOptions, PartitionReplica, QuorumView, RaftHandle,
    ReplicaConfig,
};
pub use store::{LogSource, LogStore, SnapshotBuilder, StateMachine};
pub use types::{
    Appended, Entry, GroupMembership, KafkaBatch, LogId, NodeId, Payload, ResetSource, Term,
    TypeConfig, Vote,
};
