//! The server side: accept connections from peer nodes, hand each request
//! to the broker's [`Router`], write the answers as they complete.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::io;
use std::rc::Rc;
use std::task::Poll;

use monoio::net::TcpListener;

use super::TransportConfig;
use super::codec::{
    FailureCode, Frame, GroupId, RaftRequest, RaftResponse, RemoteFailure, decode_frame,
    encode_response, response_len,
};
use super::heartbeat::HeartbeatTicker;
use super::io::{FrameReader, TransportStats, write_loop};
use super::stream::{PeerSecurity, Reader, Writer, open};
use super::sync::{OutQueue, Signal, Wakers};
use crate::replica::RaftHandle;
use crate::types::NodeId;

/// Where the server side delivers requests. The broker implements it per
/// shard: it finds the shard that owns `group` and forwards the request
/// there itself (hence no `Send` bound here). [`Groups`] is the
/// implementation for groups that all live on the calling shard.
pub trait Router {
    /// Delivers `req`, sent by node `from`, to `group`'s replica on this
    /// node and returns its answer (or a [`RaftResponse::Error`]).
    fn deliver(
        &self,
        from: NodeId,
        group: GroupId,
        req: RaftRequest,
    ) -> impl Future<Output = RaftResponse>;
}

/// The Raft groups of one shard, by group id: a [`Router`] that calls
/// their Raft handles directly. With a heartbeat ticker
/// ([`Groups::with_ticker`]) it also answers beats and wakes quiet
/// followers on delivery.
#[derive(Clone, Default)]
pub struct Groups(
    Rc<RefCell<HashMap<GroupId, RaftHandle>>>,
    Option<Rc<HeartbeatTicker>>,
);

impl Groups {
    pub fn new() -> Self {
        Self::default()
    }

    /// A table whose beats and deliveries go through `ticker` (the
    /// shard's: see [`HeartbeatTicker`]'s quiet groups).
    pub fn with_ticker(ticker: Rc<HeartbeatTicker>) -> Self {
        Groups(Rc::default(), Some(ticker))
    }

    pub fn insert(&self, group: GroupId, raft: RaftHandle) {
        self.0.borrow_mut().insert(group, raft);
    }

    pub fn remove(&self, group: GroupId) -> Option<RaftHandle> {
        self.0.borrow_mut().remove(&group)
    }

    pub fn get(&self, group: GroupId) -> Option<RaftHandle> {
        self.0.borrow().get(&group).cloned()
    }

    pub fn len(&self) -> usize {
        self.0.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }
}

fn failure(code: FailureCode, message: String) -> RaftResponse {
    RaftResponse::Error(RemoteFailure { code, message })
}

impl Router for Groups {
    async fn deliver(&self, from: NodeId, group: GroupId, req: RaftRequest) -> RaftResponse {
        if let RaftRequest::Beat(b) = &req {
            return RaftResponse::Beat(match &self.1 {
                Some(t) => t.on_beat(from, b),
                None => b.groups.iter().map(|g| g.group).collect(),
            });
        }
        // A pre-vote leaves a quiet follower quiet: it restarts no
        // election timer (openraft changes nothing for one), so a replica
        // woken by it stood for election itself at its first tick, its
        // timer long expired, and collided with the candidate whose real
        // vote was on the way (a failover with both survivors standing
        // spent seconds in split votes). The candidate's vote, once the
        // pre-vote passes, wakes it with its timer restarted.
        let wakes = !matches!(req, RaftRequest::PreVote(_));
        let resp = self.deliver_to_group(group, req).await;
        if wakes && let Some(t) = &self.1 {
            t.delivered(group);
        }
        resp
    }
}

impl Groups {
    async fn deliver_to_group(&self, group: GroupId, req: RaftRequest) -> RaftResponse {
        let Some(raft) = self.get(group) else {
            return failure(
                FailureCode::GroupNotHere,
                format!("group {group} is not on this node"),
            );
        };
        let stopped = |e: openraft::error::RaftError<_>| {
            failure(FailureCode::GroupStopped, format!("group {group}: {e}"))
        };
        match req {
            RaftRequest::Vote(v) => raft.vote(v).await.map_or_else(stopped, RaftResponse::Vote),
            RaftRequest::PreVote(v) => raft
                .pre_vote(v)
                .await
                .map_or_else(stopped, RaftResponse::Vote),
            RaftRequest::Append(a) => raft
                .append_entries(a)
                .await
                .map_or_else(stopped, RaftResponse::Append),
            RaftRequest::TransferLeader(t) => match raft.handle_transfer_leader(t).await {
                Ok(r) => RaftResponse::TransferLeader(r),
                Err(e) => failure(FailureCode::GroupStopped, format!("group {group}: {e}")),
            },
            RaftRequest::InstallSnapshot { vote, meta, source } => match raft
                .install_full_snapshot(
                    vote,
                    openraft::alias::SnapshotOf::<crate::types::TypeConfig, _> {
                        meta,
                        snapshot: source,
                    },
                )
                .await
            {
                Ok(r) => RaftResponse::InstallSnapshot(r),
                Err(e) => failure(FailureCode::GroupStopped, format!("group {group}: {e}")),
            },
            RaftRequest::ReadLog { .. } => failure(
                FailureCode::Refused,
                "log reads are not served by a plain group table".into(),
            ),
            RaftRequest::App(_) => failure(
                FailureCode::Refused,
                "application calls are not served by a plain group table".into(),
            ),
            RaftRequest::Beat(_) => unreachable!("answered by deliver"),
        }
    }
}

/// Accepts peer connections on `listener` until `stop` is set, serving
/// each on its own task; every connection closes when `stop` is set.
/// `stats` counts frames and writes (pass the shard's transport's to see
/// both directions together).
pub async fn serve<R: Router + 'static>(
    listener: TcpListener,
    router: Rc<R>,
    config: TransportConfig,
    stop: Signal,
    stats: Rc<TransportStats>,
) -> io::Result<()> {
    serve_with(listener, router, config, stop, stats, None).await
}

/// [`serve`], with every accepted connection secured by `security` first
/// (a connection it refuses is closed before anything is read from it).
pub async fn serve_with<R: Router + 'static>(
    listener: TcpListener,
    router: Rc<R>,
    config: TransportConfig,
    stop: Signal,
    stats: Rc<TransportStats>,
    security: Option<Rc<dyn PeerSecurity>>,
) -> io::Result<()> {
    loop {
        let accepted = monoio::select! {
            a = listener.accept() => a,
            _ = stop.wait() => return Ok(()),
        };
        match accepted {
            Ok((stream, peer)) => {
                let _ = stream.set_nodelay(true);
                let router = router.clone();
                let config = config.clone();
                let stop = stop.clone();
                let stats = stats.clone();
                let security = security.clone();
                monoio::spawn(async move {
                    let opened = monoio::time::timeout(
                        config.connect_timeout * 10,
                        open(stream, security.as_deref(), None, peer),
                    )
                    .await
                    .unwrap_or_else(|_| {
                        Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "handshake timed out",
                        ))
                    });
                    let (r, w) = match opened {
                        Ok(halves) => halves,
                        Err(e) => {
                            tracing::warn!(%peer, error = %e, "raft transport connection refused");
                            return;
                        }
                    };
                    if let Err(e) = serve_conn(r, w, router, config, stop, stats).await {
                        tracing::debug!(%peer, error = %e, "raft transport connection closed");
                    }
                });
            }
            // Out of file descriptors and the like: keep serving the
            // connections there are, try again shortly.
            Err(e) => {
                tracing::warn!(error = %e, "raft transport accept failed");
                monoio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        }
    }
}

/// What a connection's request tasks share with its reader and writer.
struct ConnShared {
    queue: OutQueue,
    in_flight: Cell<usize>,
    done: Wakers,
}

async fn serve_conn<R: Router + 'static>(
    mut r: Reader,
    mut w: Writer,
    router: Rc<R>,
    config: TransportConfig,
    stop: Signal,
    stats: Rc<TransportStats>,
) -> io::Result<()> {
    let shared = Rc::new(ConnShared {
        queue: OutQueue::new(config.max_queued_bytes),
        in_flight: Cell::new(0),
        done: Wakers::default(),
    });
    let max_in_flight = config.max_in_flight.max(1);
    let reader = async {
        let mut frames = FrameReader::new(config.max_frame_bytes);
        let bad = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
        // A connection that does not say who it is within the connect
        // timeout (times a margin) is not a peer: drop it rather than
        // hold its task and buffer forever.
        let hello = monoio::time::timeout(config.connect_timeout * 10, frames.next(&mut r))
            .await
            .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no hello"))?;
        let from = match hello? {
            None => return Ok(()),
            Some(f) => match decode_frame(f) {
                Ok(Frame::Hello { node }) => node,
                Ok(_) => return Err(bad("the first frame is not a hello".into())),
                Err(e) => return Err(bad(e.to_string())),
            },
        };
        loop {
            // Bounded concurrency per connection: past the bound, stop
            // reading, and TCP pushes back on the sender.
            poll_fn(|cx| {
                if shared.in_flight.get() < max_in_flight {
                    Poll::Ready(())
                } else {
                    shared.done.register(cx.waker());
                    Poll::Pending
                }
            })
            .await;
            let Some(frame) = frames.next(&mut r).await? else {
                return Ok(());
            };
            TransportStats::add(&stats.frames_received, 1);
            let (corr, group, req) = match decode_frame(frame) {
                Ok(Frame::Request { corr, group, req }) => (corr, group, req),
                Ok(_) => return Err(bad(format!("node {from} sent a non-request"))),
                Err(e) => return Err(bad(format!("node {from}: {e}"))),
            };
            shared.in_flight.set(shared.in_flight.get() + 1);
            let shared = shared.clone();
            let router = router.clone();
            let stats = stats.clone();
            monoio::spawn(async move {
                let resp = router.deliver(from, group, req).await;
                let n = response_len(&resp);
                if shared.queue.reserve(n).await.is_ok() {
                    shared
                        .queue
                        .push(|b| encode_response(b, corr, group, &resp));
                    TransportStats::add(&stats.frames_sent, 1);
                }
                shared.in_flight.set(shared.in_flight.get() - 1);
                shared.done.wake_all();
            });
        }
    };
    let writer = write_loop(&mut w, &shared.queue, &stats);
    let res = monoio::select! {
        res = reader => res,
        res = writer => res,
        _ = stop.wait() => Ok(()),
    };
    shared.queue.close();
    res
}
