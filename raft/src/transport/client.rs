//! The client side: one connection per (shard, peer node), multiplexing
//! every group's requests to that node.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::{Duration, Instant};

use futures_util::{Stream, StreamExt};
use monoio::net::TcpStream;
use openraft::base::{BoxFuture, BoxStream};
use openraft::error::{NetworkError, RPCError, ReplicationClosed, StreamingError, Unreachable};
use openraft::network::{RPCOption, RaftNetworkFactory};
use openraft::raft::{
    AppendEntriesRequest, AppendEntriesResponse, SnapshotResponse, StreamAppendResult,
    TransferLeaderRequest, TransferLeaderResponse, VoteRequest, VoteResponse,
};
use openraft::{EmptyNode, OptionalSend, RaftNetworkV2};

use super::TransportConfig;
use super::codec::{
    CodecError, FailureCode, Frame, GroupId, RaftRequest, RaftResponse, RemoteFailure,
    decode_frame, encode_hello, encode_request, request_len,
};
use super::io::{FrameReader, TransportStats, write_loop};
use super::stream::{PeerSecurity, Reader, open};
use super::sync::{OutQueue, Signal, Slot};
use crate::types::{NodeId, ResetSource, Snapshot, TypeConfig, Vote};

/// Where each peer node listens for Raft traffic; the broker updates it
/// from cluster metadata. Shared by the shard's [`Transport`]; a new
/// address is used from the next connection on (a live connection to the
/// old one stays until it fails).
#[derive(Clone, Default)]
pub struct Peers(Rc<RefCell<HashMap<NodeId, SocketAddr>>>);

impl Peers {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn set(&self, node: NodeId, addr: SocketAddr) {
        self.0.borrow_mut().insert(node, addr);
    }

    /// The nodes with a known address.
    pub fn ids(&self) -> Vec<NodeId> {
        self.0.borrow().keys().copied().collect()
    }

    pub fn remove(&self, node: NodeId) -> Option<SocketAddr> {
        self.0.borrow_mut().remove(&node)
    }

    pub fn get(&self, node: NodeId) -> Option<SocketAddr> {
        self.0.borrow().get(&node).copied()
    }
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// No connection to the peer (unknown address, refused, backing off
    /// after a failure, transport shut down).
    #[error("node {node} unreachable: {why}")]
    Unreachable { node: NodeId, why: String },
    /// No answer within the RPC's deadline.
    #[error("no answer from node {node} within {after:?}")]
    Timeout { node: NodeId, after: Duration },
    /// The connection failed while the request was in flight.
    #[error("connection to node {node} lost: {why}")]
    ConnectionLost { node: NodeId, why: String },
    #[error("node {node} refused: {failure:?}")]
    Remote {
        node: NodeId,
        failure: RemoteFailure,
    },
    #[error("encoding the request: {0}")]
    Encode(#[from] CodecError),
    #[error("node {node} answered with the wrong kind of response")]
    WrongResponse { node: NodeId },
}

impl CallError {
    /// The openraft error: everything but a lost connection is
    /// `Unreachable`, so that openraft backs off instead of retrying at
    /// once (a timed-out peer is slow or gone; a group that is not there
    /// yet will not appear within microseconds). A lost connection is a
    /// `NetworkError` (retry now): the retry finds the link backing off
    /// or reconnected.
    pub fn to_rpc(&self) -> RPCError<TypeConfig> {
        match self {
            CallError::ConnectionLost { .. } => {
                RPCError::Network(NetworkError::from_string(self.to_string()))
            }
            _ => RPCError::Unreachable(Unreachable::from_string(self.to_string())),
        }
    }
}

type Reply = Result<RaftResponse, CallError>;

/// One connection (attempt) to a peer: the frames queued for it and the
/// requests waiting for answers.
struct Conn {
    queue: OutQueue,
    pending: RefCell<HashMap<u64, Rc<Slot<Reply>>>>,
}

#[derive(Default)]
struct Link {
    conn: Option<Rc<Conn>>,
    /// Backing off after a failure: no new connection before this.
    retry_at: Option<Instant>,
    failures: u32,
}

struct Inner {
    me: NodeId,
    peers: Peers,
    config: TransportConfig,
    links: RefCell<HashMap<NodeId, Link>>,
    next_corr: Cell<u64>,
    stop: Signal,
    stats: Rc<TransportStats>,
    /// Secures new connections (TLS between brokers); `None`: plain TCP.
    security: RefCell<Option<Rc<dyn PeerSecurity>>>,
}

/// A shard's client side of the node-to-node transport: one lazily opened
/// connection per peer node, shared by every Raft group of the shard.
///
/// Requests are queued on the peer's connection and answered by
/// correlation id, in any order; the connection's writer sends all queued
/// frames with one write. A link that fails is retried after an
/// exponential backoff, during which calls fail at once as unreachable.
#[derive(Clone)]
pub struct Transport(Rc<Inner>);

impl Transport {
    /// The transport of node `me` (sent to peers in each connection's
    /// hello, for their routers).
    pub fn new(me: NodeId, peers: Peers, config: TransportConfig) -> Self {
        Self::with_stats(me, peers, config, Rc::default())
    }

    /// Like [`Transport::new`], counting into `stats` (e.g. shared with
    /// this shard's [`super::serve`]).
    pub fn with_stats(
        me: NodeId,
        peers: Peers,
        config: TransportConfig,
        stats: Rc<TransportStats>,
    ) -> Self {
        Transport(Rc::new(Inner {
            me,
            peers,
            config,
            links: RefCell::default(),
            next_corr: Cell::new(1),
            stop: Signal::new(),
            stats,
            security: RefCell::new(None),
        }))
    }

    /// Secures every connection opened from now on with `security`
    /// (TLS between brokers).
    pub fn set_security(&self, security: Option<Rc<dyn PeerSecurity>>) {
        *self.0.security.borrow_mut() = security;
    }

    pub fn node_id(&self) -> NodeId {
        self.0.me
    }

    pub fn peers(&self) -> &Peers {
        &self.0.peers
    }

    pub fn stats(&self) -> &Rc<TransportStats> {
        &self.0.stats
    }

    /// The network factory for one group's replica on this shard.
    pub fn network(&self, group: GroupId) -> GroupNetwork {
        GroupNetwork {
            transport: self.clone(),
            group,
        }
    }

    /// Closes every connection and fails every call from now on.
    pub fn shutdown(&self) {
        self.0.stop.set();
        for (_, link) in self.0.links.borrow_mut().drain() {
            if let Some(c) = link.conn {
                c.queue.close();
            }
        }
    }

    /// Drops the connection to `node` (if any) and forgets its backoff:
    /// the next call reconnects, e.g. after its address changed.
    pub fn reset(&self, node: NodeId) {
        if let Some(link) = self.0.links.borrow_mut().remove(&node)
            && let Some(c) = link.conn
        {
            c.queue.close();
        }
    }

    /// Bytes queued for `node` and not yet written (including a write in
    /// flight): bounded by `max_queued_bytes` plus one frame.
    pub fn queued_bytes(&self, node: NodeId) -> usize {
        self.0
            .links
            .borrow()
            .get(&node)
            .and_then(|l| l.conn.as_ref())
            .map_or(0, |c| c.queue.used())
    }

    /// Sends `req` for `group` to node `target` and waits for the answer,
    /// at most `ttl`. Waiting for queue space (backpressure) counts
    /// against the same deadline.
    pub async fn call(
        &self,
        target: NodeId,
        group: GroupId,
        req: RaftRequest,
        ttl: Duration,
    ) -> Result<RaftResponse, CallError> {
        match monoio::time::timeout(ttl, self.call_inner(target, group, req)).await {
            Ok(r) => r,
            Err(_) => Err(CallError::Timeout {
                node: target,
                after: ttl,
            }),
        }
    }

    async fn call_inner(
        &self,
        target: NodeId,
        group: GroupId,
        req: RaftRequest,
    ) -> Result<RaftResponse, CallError> {
        self.send(target, group, req).await?.reply().await
    }

    /// Queues `req` for `group` on the connection to `target` (waiting for
    /// queue space: backpressure) and returns the call, whose answer is
    /// awaited apart. Requests sent one after another leave in that order,
    /// which is what lets a replication stream keep several AppendEntries
    /// in flight (see [`GroupClient`]'s `stream_append`).
    async fn send(
        &self,
        target: NodeId,
        group: GroupId,
        req: RaftRequest,
    ) -> Result<PendingCall, CallError> {
        let size = request_len(&req);
        let max = self.0.config.max_frame_bytes;
        if size > max {
            return Err(CodecError::TooLarge { size, max }.into());
        }
        let conn = self.conn(target)?;
        conn.queue
            .reserve(size)
            .await
            .map_err(|_| CallError::ConnectionLost {
                node: target,
                why: "closed while waiting for queue space".into(),
            })?;
        let corr = self.0.next_corr.get();
        self.0.next_corr.set(corr + 1);
        conn.queue.push(|b| encode_request(b, corr, group, &req))?;
        TransportStats::add(&self.0.stats.frames_sent, 1);
        let slot = Slot::new();
        conn.pending.borrow_mut().insert(corr, slot.clone());
        Ok(PendingCall {
            conn,
            corr,
            slot,
            target,
        })
    }

    /// The live connection to `target`, or a new one (its task started),
    /// unless the link is backing off.
    fn conn(&self, target: NodeId) -> Result<Rc<Conn>, CallError> {
        let unreachable = |why: String| CallError::Unreachable { node: target, why };
        if self.0.stop.is_set() {
            return Err(unreachable("transport shut down".into()));
        }
        let mut links = self.0.links.borrow_mut();
        let link = links.entry(target).or_default();
        if let Some(c) = &link.conn
            && !c.queue.is_closed()
        {
            return Ok(c.clone());
        }
        if let Some(at) = link.retry_at
            && Instant::now() < at
        {
            return Err(unreachable(format!(
                "backing off after {} failures",
                link.failures
            )));
        }
        let Some(addr) = self.0.peers.get(target) else {
            return Err(unreachable("no address known".into()));
        };
        let conn = Rc::new(Conn {
            queue: OutQueue::new(self.0.config.max_queued_bytes),
            pending: RefCell::default(),
        });
        // The hello goes first, before any request queued meanwhile.
        conn.queue.push(|b| encode_hello(b, self.0.me));
        link.conn = Some(conn.clone());
        monoio::spawn(run_conn(self.0.clone(), target, addr, conn.clone()));
        Ok(conn)
    }
}

/// A request on its way: its answer arrives in `slot`. Dropping it (the
/// caller gave up: timeout, dropped future) forgets the request, so that a
/// late answer is ignored.
struct PendingCall {
    conn: Rc<Conn>,
    corr: u64,
    slot: Rc<Slot<Reply>>,
    target: NodeId,
}

impl PendingCall {
    async fn reply(self) -> Result<RaftResponse, CallError> {
        match self.slot.wait().await {
            Ok(RaftResponse::Error(failure)) => Err(CallError::Remote {
                node: self.target,
                failure,
            }),
            other => other,
        }
    }
}

impl Drop for PendingCall {
    fn drop(&mut self) {
        self.conn.pending.borrow_mut().remove(&self.corr);
    }
}

/// Connects, then reads and writes until the connection fails or the
/// transport stops; then fails what is pending and sets the backoff.
async fn run_conn(inner: Rc<Inner>, target: NodeId, addr: SocketAddr, conn: Rc<Conn>) {
    let stats = &inner.stats;
    let mut connected = false;
    let result: Result<(), String> = async {
        let stream = match monoio::time::timeout(
            inner.config.connect_timeout,
            TcpStream::connect_addr(addr),
        )
        .await
        {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return Err(format!("connect to {addr}: {e}")),
            Err(_) => return Err(format!("connect to {addr}: timed out")),
        };
        // Small frames (votes, heartbeats) must not wait for Nagle.
        let _ = stream.set_nodelay(true);
        let security = inner.security.borrow().clone();
        let (mut r, mut w) = match monoio::time::timeout(
            inner.config.connect_timeout * 10,
            open(stream, security.as_deref(), Some(addr), addr),
        )
        .await
        {
            Ok(Ok(halves)) => halves,
            Ok(Err(e)) => return Err(format!("secure connection to {addr}: {e}")),
            Err(_) => return Err(format!("secure connection to {addr}: timed out")),
        };
        connected = true;
        TransportStats::add(&stats.connects, 1);
        let reader = read_responses(&mut r, &conn, &inner, target);
        let writer = write_loop(&mut w, &conn.queue, stats);
        monoio::select! {
            res = reader => res,
            res = writer => res.map_err(|e| format!("write: {e}")),
            _ = inner.stop.wait() => Ok(()),
        }
    }
    .await;
    conn.queue.close();
    let why = match &result {
        Ok(()) => "connection closed".to_string(),
        Err(e) => e.clone(),
    };
    if result.is_err() {
        TransportStats::add(&stats.connection_failures, 1);
        // One line when a working connection breaks; failed reconnects
        // (every backoff step while the peer is down) only at debug.
        if connected {
            tracing::warn!(target_node = target, %why, "connection to a peer broker lost");
        } else {
            tracing::debug!(target_node = target, %why, "raft transport connection failed");
        }
    }
    let pending: Vec<_> = conn.pending.borrow_mut().drain().map(|(_, s)| s).collect();
    for slot in pending {
        slot.fill(Err(if connected {
            CallError::ConnectionLost {
                node: target,
                why: why.clone(),
            }
        } else {
            CallError::Unreachable {
                node: target,
                why: why.clone(),
            }
        }));
    }
    let mut links = inner.links.borrow_mut();
    if let Some(link) = links.get_mut(&target)
        && link.conn.as_ref().is_some_and(|c| Rc::ptr_eq(c, &conn))
    {
        link.conn = None;
        // A connection that worked resets the backoff; a failed
        // attempt doubles it. Either way wait a little before the
        // next attempt, so that a peer that accepts and drops at once
        // is not hammered.
        link.failures = if connected { 0 } else { link.failures + 1 };
        let c = &inner.config;
        let backoff = c
            .backoff_min
            .saturating_mul(1u32 << link.failures.min(16))
            .min(c.backoff_max);
        link.retry_at = Some(Instant::now() + backoff);
    }
}

async fn read_responses(
    r: &mut Reader,
    conn: &Conn,
    inner: &Inner,
    target: NodeId,
) -> Result<(), String> {
    let mut frames = FrameReader::new(inner.config.max_frame_bytes);
    loop {
        let frame = match frames.next(r).await {
            Ok(Some(f)) => f,
            Ok(None) => return Err("closed by peer".into()),
            Err(e) => return Err(format!("read: {e}")),
        };
        TransportStats::add(&inner.stats.frames_received, 1);
        match decode_frame(frame) {
            Ok(Frame::Response { corr, resp, .. }) => {
                let slot = conn.pending.borrow_mut().remove(&corr);
                // No slot: the caller gave up (timed out) meanwhile.
                if let Some(slot) = slot {
                    slot.fill(Ok(resp));
                }
            }
            Ok(other) => {
                return Err(format!(
                    "node {target} sent a {} on a client connection",
                    match other {
                        Frame::Hello { .. } => "hello",
                        _ => "request",
                    }
                ));
            }
            Err(e) => return Err(format!("bad frame from node {target}: {e}")),
        }
    }
}

/// The [`RaftNetworkFactory`] of one group's replica: its clients share
/// the shard's connections.
#[derive(Clone)]
pub struct GroupNetwork {
    transport: Transport,
    group: GroupId,
}

impl RaftNetworkFactory<TypeConfig> for GroupNetwork {
    type Network = GroupClient;

    async fn new_client(&mut self, target: NodeId, _node: &EmptyNode) -> GroupClient {
        GroupClient {
            transport: self.transport.clone(),
            group: self.group,
            target,
        }
    }
}

/// openraft's client for one (group, target node).
#[derive(Clone)]
pub struct GroupClient {
    transport: Transport,
    group: GroupId,
    target: NodeId,
}

impl GroupClient {
    /// A vote or pre-vote round trip: both are answered with a vote.
    async fn call_vote(
        &self,
        req: RaftRequest,
        option: RPCOption,
    ) -> Result<VoteResponse<TypeConfig>, RPCError<TypeConfig>> {
        // A new group's preferred replica asks for votes as soon as it has
        // opened its replica (`OpenOptions::campaign`), and a peer applying
        // the same controller entry may open its replica a little later:
        // ask again while the round's time lasts rather than fail the
        // election and wait out a whole election timeout.
        let deadline = Instant::now() + option.soft_ttl();
        for _ in 0..VOTE_RETRIES_MAX {
            match self
                .transport
                .call(self.target, self.group, req.clone(), option.hard_ttl())
                .await
            {
                Ok(RaftResponse::Vote(v)) => return Ok(v),
                Ok(_) => return Err(CallError::WrongResponse { node: self.target }.to_rpc()),
                Err(CallError::Remote { failure, .. })
                    if failure.code == FailureCode::GroupNotHere
                        && Instant::now() + VOTE_RETRY_DELAY < deadline =>
                {
                    monoio::time::sleep(VOTE_RETRY_DELAY).await;
                }
                Err(e) => return Err(e.to_rpc()),
            }
        }
        Err(CallError::Unreachable {
            node: self.target,
            why: format!(
                "group {} not there after {VOTE_RETRIES_MAX} tries",
                self.group
            ),
        }
        .to_rpc())
    }
}

/// How long a vote waits before asking a peer again whose replica of the
/// group is not open yet.
const VOTE_RETRY_DELAY: Duration = Duration::from_millis(20);
/// A bound on those tries (the round's soft TTL ends them first).
const VOTE_RETRIES_MAX: u32 = 100;

/// How long a log reset may take at the follower (it copies the leader's
/// log below the snapshot, which for a compacted topic is all of it).
const INSTALL_SNAPSHOT_TTL: Duration = Duration::from_secs(600);
/// How long one read of a log reset's copy may take.
const READ_LOG_TTL: Duration = Duration::from_secs(30);
/// Bytes of batches one read of a log reset's copy asks for.
const READ_LOG_BYTES: u32 = 4 << 20;

impl GroupNetwork {
    /// Reads node `target`'s committed batches of this group from offset
    /// `from` (or its log start) on, below `until` (a log reset's copy,
    /// see [`crate::LogSource`]).
    pub async fn read_log(
        &self,
        target: NodeId,
        from: i64,
        until: i64,
    ) -> Result<bytes::Bytes, CallError> {
        let req = RaftRequest::ReadLog {
            from,
            until,
            max_bytes: READ_LOG_BYTES,
        };
        match self
            .transport
            .call(target, self.group, req, READ_LOG_TTL)
            .await?
        {
            RaftResponse::Log(b) => Ok(b),
            _ => Err(CallError::WrongResponse { node: target }),
        }
    }
}

/// How many AppendEntries a replication stream keeps in flight to one
/// follower (see [`GroupClient`]'s `stream_append`).
const APPEND_PIPELINE: usize = 2;

type StreamAppendItem = Result<StreamAppendResult<TypeConfig>, RPCError<TypeConfig>>;

impl RaftNetworkV2<TypeConfig> for GroupClient {
    type SnapshotData = ResetSource;

    async fn append_entries(
        &mut self,
        rpc: AppendEntriesRequest<TypeConfig>,
        option: RPCOption,
    ) -> Result<AppendEntriesResponse<TypeConfig>, RPCError<TypeConfig>> {
        let r = self
            .transport
            .call(
                self.target,
                self.group,
                RaftRequest::Append(rpc),
                option.hard_ttl(),
            )
            .await;
        match r {
            Ok(RaftResponse::Append(a)) => Ok(a),
            Ok(_) => Err(CallError::WrongResponse { node: self.target }.to_rpc()),
            Err(e) => Err(e.to_rpc()),
        }
    }

    /// Keeps up to [`APPEND_PIPELINE`] AppendEntries in flight to the
    /// follower, where openraft's default sends one and waits for its
    /// answer. Each answer waits for the follower's fdatasync, so one at a
    /// time capped a partition's replication at one request per round trip:
    /// in a three-node benchmark on one machine the round trips took ~70 ms
    /// for ~3 MB, the followers fell tens of MB behind, and the leader read
    /// what it sent back from the segment files (past the tail cache).
    /// openraft's replication stream is made for this: it hands out the
    /// next request before the last one is answered. Requests leave in
    /// order (each is queued on the connection before the next is taken)
    /// and the follower's transport hands them to its group in arrival
    /// order; answers are yielded in request order, and the stream ends
    /// after the first error or conflict (requests already sent are
    /// harmless: a follower refuses one whose previous entry it lacks).
    fn stream_append<'s, S>(
        &'s mut self,
        input: S,
        option: RPCOption,
    ) -> BoxFuture<'s, Result<BoxStream<'s, StreamAppendItem>, RPCError<TypeConfig>>>
    where
        S: Stream<Item = AppendEntriesRequest<TypeConfig>> + OptionalSend + Unpin + 'static,
    {
        let transport = self.transport.clone();
        let (target, group, ttl) = (self.target, self.group, option.hard_ttl());
        Box::pin(async move {
            let timed_out = move || CallError::Timeout {
                node: target,
                after: ttl,
            };
            // `then`: one request at a time is queued, in input order.
            let sent = input.then(move |req| {
                let transport = transport.clone();
                async move {
                    let prev = req.prev_log_id;
                    let last = req.entries.last().map(|e| e.log_id).or(prev);
                    let deadline = Instant::now() + ttl;
                    let call = monoio::time::timeout(
                        ttl,
                        transport.send(target, group, RaftRequest::Append(req)),
                    )
                    .await
                    .unwrap_or_else(|_| Err(timed_out()));
                    (prev, last, deadline, call)
                }
            });
            let answered = sent
                .map(move |(prev, last, deadline, call)| async move {
                    let reply = match call {
                        Ok(pending) => monoio::time::timeout_at(deadline.into(), pending.reply())
                            .await
                            .unwrap_or_else(|_| Err(timed_out())),
                        Err(e) => Err(e),
                    };
                    (prev, last, reply)
                })
                .buffered(APPEND_PIPELINE);
            let results = answered.scan(false, move |ended, (prev, last, reply)| {
                if *ended {
                    return std::future::ready(None);
                }
                let item = match reply {
                    Ok(RaftResponse::Append(resp)) => {
                        let partial = matches!(resp, AppendEntriesResponse::PartialSuccess(_));
                        let res = resp.into_stream_result(prev, last);
                        *ended = partial || res.is_err();
                        Ok(res)
                    }
                    Ok(_) => {
                        *ended = true;
                        Err(CallError::WrongResponse { node: target }.to_rpc())
                    }
                    Err(e) => {
                        *ended = true;
                        Err(e.to_rpc())
                    }
                };
                std::future::ready(Some(item))
            });
            let results: BoxStream<'s, StreamAppendItem> = Box::pin(results);
            Ok(results)
        })
    }

    async fn transfer_leader(
        &mut self,
        req: TransferLeaderRequest<TypeConfig>,
        option: RPCOption,
    ) -> Result<TransferLeaderResponse<TypeConfig>, RPCError<TypeConfig>> {
        match self
            .transport
            .call(
                self.target,
                self.group,
                RaftRequest::TransferLeader(req),
                option.hard_ttl(),
            )
            .await
        {
            Ok(RaftResponse::TransferLeader(r)) => Ok(r),
            Ok(_) => Err(CallError::WrongResponse { node: self.target }.to_rpc()),
            Err(e) => Err(e.to_rpc()),
        }
    }

    async fn vote(
        &mut self,
        rpc: VoteRequest<TypeConfig>,
        option: RPCOption,
    ) -> Result<VoteResponse<TypeConfig>, RPCError<TypeConfig>> {
        self.call_vote(RaftRequest::Vote(rpc), option).await
    }

    /// Carried over the wire (not openraft's default, which grants every
    /// pre-vote without asking), so that `Config::enable_pre_vote` works.
    async fn pre_vote(
        &mut self,
        rpc: VoteRequest<TypeConfig>,
        option: RPCOption,
    ) -> Result<VoteResponse<TypeConfig>, RPCError<TypeConfig>> {
        self.call_vote(RaftRequest::PreVote(rpc), option).await
    }

    /// A log reset: the snapshot names this leader's log, and the follower
    /// copies what it needs with [`GroupNetwork::read_log`] while it
    /// installs it, so the request itself is small; the answer comes once
    /// the copy is done.
    async fn full_snapshot(
        &mut self,
        vote: Vote,
        snapshot: Snapshot,
        cancel: impl Future<Output = ReplicationClosed> + OptionalSend + 'static,
        option: RPCOption,
    ) -> Result<SnapshotResponse<TypeConfig>, StreamingError<TypeConfig>> {
        let req = RaftRequest::InstallSnapshot {
            vote,
            meta: snapshot.meta,
            source: snapshot.snapshot,
        };
        let ttl = option.hard_ttl().max(INSTALL_SNAPSHOT_TTL);
        let call = self.transport.call(self.target, self.group, req, ttl);
        let r = monoio::select! {
            r = call => r,
            closed = cancel => return Err(StreamingError::Closed(closed)),
        };
        match r {
            Ok(RaftResponse::InstallSnapshot(r)) => Ok(r),
            Ok(_) => Err(StreamingError::Unreachable(Unreachable::from_string(
                CallError::WrongResponse { node: self.target }.to_string(),
            ))),
            Err(e) => Err(StreamingError::Unreachable(Unreachable::from_string(
                e.to_string(),
            ))),
        }
    }
}
