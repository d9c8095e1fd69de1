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
//! * **Raft's own entries are control batches.** openraft writes a blank
//!   entry when a leader is elected and membership entries when the
//!   voters change (the first at index 0, on initialization). They become
//!   Kafka control batches (one control record with type
//!   [`CONTROL_TYPE_BLANK`] or [`CONTROL_TYPE_MEMBERSHIP`]), so they take
//!   one offset each: consumers skip control batches (as they skip
//!   transaction markers), and the log alone describes the whole Raft log.
//!   A fresh single-voter partition therefore has its membership at offset
//!   0 and the leader's blank at offset 1; the first produced batch gets
//!   base offset 2, and each new term (each leader election, e.g. after a
//!   restart) adds one control offset.
//! * **Index vs offset.** openraft numbers entries one by one; Kafka
//!   numbers records. Raft index `i` is the `(i - first)`-th batch of the
//!   log. The map between the two (`index.rs`) is exact for recent entries
//!   and uses sparse anchors for older ones; each term's first entry is an
//!   anchor too, which gives openraft its log ids without reading the log.
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
pub use network::{LocalClientFrom, LocalNetwork, LocalRouter, NoPeer, NoPeers};
pub use replica::{PartitionReplica, RaftHandle, ReplicaConfig};
pub use store::{LogStore, NoSnapshots, StateMachine};
pub use types::{
    Appended, CONTROL_TYPE_BLANK, CONTROL_TYPE_MEMBERSHIP, Entry, GroupMembership, KafkaBatch,
    LogId, NodeId, Payload, Term, TypeConfig, Vote,
};
