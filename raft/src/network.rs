//! Transports for a partition group's Raft messages.
//!
//! A group takes any openraft [`RaftNetworkFactory`] whose clients carry
//! `SnapshotData = ResetSource` (a snapshot names the log a follower copies
//! in a log reset); the broker's node-to-node transport (one connection per
//! broker pair, multiplexing all groups) is one. Two more are here:
//!
//! * [`NoPeers`]: for a group whose only voter is this node. openraft
//!   opens no replication stream then; if it ever asked, the answer would
//!   be "unreachable", which is the truth.
//! * [`LocalRouter`]: delivers messages to other replicas of the same group
//!   that live in this thread (tests, and co-located replicas), by calling
//!   their Raft handles directly. Entries travel as `Bytes` (no copy).
//!   Pre-votes are delivered too, as the node-to-node transport does:
//!   openraft's default `pre_vote` grants without asking, which would let
//!   a cut-off replica raise its term and would hide from tests what
//!   `enable_pre_vote` is for.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::future::Future;
use std::rc::Rc;

use openraft::error::{NetworkError, RPCError, ReplicationClosed, StreamingError, Unreachable};
use openraft::network::{RPCOption, RaftNetworkFactory};
use openraft::raft::{
    AppendEntriesRequest, AppendEntriesResponse, SnapshotResponse, VoteRequest, VoteResponse,
};
use openraft::{EmptyNode, OptionalSend, RaftNetworkV2};

use crate::replica::RaftHandle;
use crate::types::{NodeId, ResetSource, Snapshot, TypeConfig, Vote};

/// The network of a single-voter group: there is nobody to talk to.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoPeers;

/// A client of [`NoPeers`]; every call fails as unreachable.
#[derive(Debug, Clone, Copy)]
pub struct NoPeer(NodeId);

impl RaftNetworkFactory<TypeConfig> for NoPeers {
    type Network = NoPeer;

    async fn new_client(&mut self, target: NodeId, _node: &EmptyNode) -> NoPeer {
        NoPeer(target)
    }
}

impl NoPeer {
    fn err(&self) -> Unreachable<TypeConfig> {
        Unreachable::from_string(format!(
            "node {} is not reachable: single-voter group",
            self.0
        ))
    }
}

impl RaftNetworkV2<TypeConfig> for NoPeer {
    type SnapshotData = ResetSource;

    async fn append_entries(
        &mut self,
        _rpc: AppendEntriesRequest<TypeConfig>,
        _option: RPCOption,
    ) -> Result<AppendEntriesResponse<TypeConfig>, RPCError<TypeConfig>> {
        Err(RPCError::Unreachable(self.err()))
    }

    async fn vote(
        &mut self,
        _rpc: VoteRequest<TypeConfig>,
        _option: RPCOption,
    ) -> Result<VoteResponse<TypeConfig>, RPCError<TypeConfig>> {
        Err(RPCError::Unreachable(self.err()))
    }

    async fn full_snapshot(
        &mut self,
        _vote: Vote,
        _snapshot: Snapshot,
        _cancel: impl Future<Output = ReplicationClosed> + OptionalSend + 'static,
        _option: RPCOption,
    ) -> Result<SnapshotResponse<TypeConfig>, StreamingError<TypeConfig>> {
        Err(StreamingError::Unreachable(self.err()))
    }
}

/// Routes messages between replicas of one group living on this thread.
#[derive(Clone, Default)]
pub struct LocalRouter {
    nodes: Rc<RefCell<BTreeMap<NodeId, RaftHandle>>>,
}

impl LocalRouter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes `raft` reachable as `id`.
    pub fn register(&self, id: NodeId, raft: RaftHandle) {
        self.nodes.borrow_mut().insert(id, raft);
    }

    /// Cuts `id` off: messages to it fail as unreachable (and it cannot
    /// reach the others, whose handles it no longer gets through here).
    pub fn remove(&self, id: NodeId) -> Option<RaftHandle> {
        self.nodes.borrow_mut().remove(&id)
    }

    fn get(&self, id: NodeId) -> Result<RaftHandle, Unreachable<TypeConfig>> {
        self.nodes
            .borrow()
            .get(&id)
            .cloned()
            .ok_or_else(|| Unreachable::from_string(format!("node {id} is not registered")))
    }
}

/// A [`LocalRouter`] client bound to one sender and one target.
#[derive(Clone)]
pub struct LocalClient {
    router: LocalRouter,
    target: NodeId,
}

/// The factory openraft gets for a replica on a [`LocalRouter`]: messages
/// from a node that has been removed from the router are dropped too, so
/// that removing a node isolates it both ways.
#[derive(Clone)]
pub struct LocalNetwork {
    router: LocalRouter,
    from: NodeId,
}

impl LocalRouter {
    /// The network factory for the replica `from`.
    pub fn network(&self, from: NodeId) -> LocalNetwork {
        LocalNetwork {
            router: self.clone(),
            from,
        }
    }
}

impl RaftNetworkFactory<TypeConfig> for LocalNetwork {
    type Network = LocalClientFrom;

    async fn new_client(&mut self, target: NodeId, _node: &EmptyNode) -> LocalClientFrom {
        LocalClientFrom {
            client: LocalClient {
                router: self.router.clone(),
                target,
            },
            from: self.from,
        }
    }
}

/// A [`LocalClient`] that checks its sender is still on the router.
#[derive(Clone)]
pub struct LocalClientFrom {
    client: LocalClient,
    from: NodeId,
}

impl LocalClientFrom {
    fn target(&self) -> Result<RaftHandle, Unreachable<TypeConfig>> {
        self.client.router.get(self.from)?;
        self.client.router.get(self.client.target)
    }
}

fn net_err(e: impl std::fmt::Display) -> RPCError<TypeConfig> {
    RPCError::Network(NetworkError::from_string(e.to_string()))
}

impl RaftNetworkV2<TypeConfig> for LocalClientFrom {
    type SnapshotData = ResetSource;

    async fn append_entries(
        &mut self,
        rpc: AppendEntriesRequest<TypeConfig>,
        _option: RPCOption,
    ) -> Result<AppendEntriesResponse<TypeConfig>, RPCError<TypeConfig>> {
        let raft = self.target()?;
        raft.append_entries(rpc).await.map_err(net_err)
    }

    async fn vote(
        &mut self,
        rpc: VoteRequest<TypeConfig>,
        _option: RPCOption,
    ) -> Result<VoteResponse<TypeConfig>, RPCError<TypeConfig>> {
        let raft = self.target()?;
        raft.vote(rpc).await.map_err(net_err)
    }

    /// Asked of the target (its leader lease and log decide), as
    /// `transport::server` does with `RaftRequest::PreVote`; an isolated
    /// sender or target is unreachable, which openraft counts as no grant.
    async fn pre_vote(
        &mut self,
        rpc: VoteRequest<TypeConfig>,
        _option: RPCOption,
    ) -> Result<VoteResponse<TypeConfig>, RPCError<TypeConfig>> {
        let raft = self.target()?;
        raft.pre_vote(rpc).await.map_err(net_err)
    }

    /// A log reset: the target installs the snapshot, copying this
    /// leader's log through its own [`crate::LogSource`].
    async fn full_snapshot(
        &mut self,
        vote: Vote,
        snapshot: Snapshot,
        cancel: impl Future<Output = ReplicationClosed> + OptionalSend + 'static,
        _option: RPCOption,
    ) -> Result<SnapshotResponse<TypeConfig>, StreamingError<TypeConfig>> {
        let raft = self.target().map_err(StreamingError::Unreachable)?;
        monoio::select! {
            r = raft.install_full_snapshot(vote, snapshot) => r.map_err(|e| {
                StreamingError::Unreachable(Unreachable::from_string(e.to_string()))
            }),
            closed = cancel => Err(StreamingError::Closed(closed)),
        }
    }
}
