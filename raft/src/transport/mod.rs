//! The node-to-node transport of Raft messages: one TCP connection per
//! (shard, peer node) multiplexing every group, heartbeats coalesced per
//! peer, bounded buffers.
//!
//! * [`codec`]: the frames (hand-written, big-endian, length-prefixed).
//! * Client side: a shard's [`Transport`] opens one connection per peer
//!   node lazily, queues every group's requests on it, matches answers by
//!   correlation id (in any order), reconnects with backoff, and bounds
//!   each connection's queue in bytes (past it, senders wait: a slow
//!   follower slows its leader's replication to it, and openraft's RPC
//!   timeout turns a stuck peer into "unreachable" and a backoff).
//!   [`Transport::network`] is the openraft network factory of one group.
//! * Server side: [`serve`] accepts peers' connections on a listener and
//!   hands requests to a [`Router`] (the broker's, or [`Groups`]), several
//!   at a time per connection, writing answers as they complete.
//! * Coalescing: a connection's writer sends everything queued in one
//!   write, and [`HeartbeatTicker`] makes a shard's leader groups send
//!   their heartbeats in the same instant, so that N groups' heartbeats
//!   to one peer are one write rather than N.
//! * Quiet groups: a quiescent [`HeartbeatTicker`] stops the heartbeats
//!   and ticks of idle groups altogether and sends each peer one
//!   [`Beat`] per interval instead (see the `heartbeat` module).

mod client;
pub mod codec;
mod heartbeat;
mod io;
mod membership;
mod server;
pub mod stream;
mod sync;

use std::time::Duration;

pub use client::{CallError, GroupClient, GroupNetwork, Peers, Transport};
pub use codec::{Beat, FailureCode, GroupId, QuietGroup, RaftRequest, RaftResponse, RemoteFailure};
pub use heartbeat::{BEAT_GROUP, HeartbeatTicker, QUIESCE_AFTER_BEATS, WokenSince, first_to_stand};
pub use io::{StatsSnapshot, TransportStats};
pub use server::{Groups, Router, serve, serve_with};
pub use stream::{LocalFuture, PeerRead, PeerSecurity, PeerWrite, SecuredHalves};
pub use sync::Signal;

/// Limits and timings of the transport.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportConfig {
    /// Largest frame sent or accepted; a peer that announces a larger one
    /// is disconnected. An AppendEntries carries up to
    /// `ReplicaConfig::max_payload_entries` batches, so this must exceed
    /// that many of the largest batches (or requests fail to encode).
    pub max_frame_bytes: usize,
    /// Bytes queued (not yet written) per connection before senders wait.
    pub max_queued_bytes: usize,
    /// Requests a server connection runs at once before it stops reading.
    pub max_in_flight: usize,
    pub connect_timeout: Duration,
    /// Backoff after a failed connection: doubles per failure, from min
    /// to max.
    pub backoff_min: Duration,
    pub backoff_max: Duration,
}

impl Default for TransportConfig {
    fn default() -> Self {
        TransportConfig {
            max_frame_bytes: 64 << 20,
            max_queued_bytes: 8 << 20,
            max_in_flight: 1024,
            connect_timeout: Duration::from_secs(1),
            backoff_min: Duration::from_millis(50),
            backoff_max: Duration::from_secs(1),
        }
    }
}
