//! The transport alone, over real TCP on 127.0.0.1, client and server on
//! one runtime: multiplexing, out-of-order answers, coalesced writes,
//! timeouts, unreachable peers and backoff, bounded queues, frame limits.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::common::run;
use bytes::Bytes;
use monoio::io::{AsyncReadRent, AsyncWriteRentExt};
use monoio::net::{TcpListener, TcpStream};
use openraft::raft::{AppendEntriesRequest, AppendEntriesResponse, VoteRequest, VoteResponse};
use tidemark_raft::transport::{
    CallError, FailureCode, GroupId, Groups, Peers, RaftRequest, RaftResponse, Router, Signal,
    Transport, TransportConfig, TransportStats, serve,
};
use tidemark_raft::{Entry, KafkaBatch, NodeId, Payload, Vote};

fn listener() -> (TcpListener, std::net::SocketAddr) {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    (TcpListener::from_std(l).unwrap(), addr)
}

fn vote_req(term: u64) -> RaftRequest {
    RaftRequest::Vote(VoteRequest::new(Vote::new(term, 1), None))
}

/// Answers a vote with the request's term, after a delay that depends on
/// the group (so answers come back out of order); never answers group
/// index -1.
struct Echo {
    delivered: Cell<u64>,
    last_from: Cell<NodeId>,
}

impl Router for Echo {
    async fn deliver(&self, from: NodeId, group: GroupId, req: RaftRequest) -> RaftResponse {
        self.delivered.set(self.delivered.get() + 1);
        self.last_from.set(from);
        if group.index < 0 {
            std::future::pending::<()>().await;
        }
        monoio::time::sleep(Duration::from_millis(((7 * group.index) % 50) as u64)).await;
        match req {
            RaftRequest::Vote(v) | RaftRequest::PreVote(v) => {
                RaftResponse::Vote(VoteResponse::new(v.vote, None, group.index % 2 == 0))
            }
            RaftRequest::Append(_) => RaftResponse::Append(AppendEntriesResponse::Success),
            RaftRequest::TransferLeader(_) => RaftResponse::TransferLeader(Ok(())),
            RaftRequest::InstallSnapshot { vote, .. } => {
                RaftResponse::InstallSnapshot(openraft::raft::SnapshotResponse { vote })
            }
            // A log read: the range asked for, as text.
            RaftRequest::ReadLog { from, until, .. } => {
                RaftResponse::Log(Bytes::from(format!("{from}..{until}")))
            }
            // Beats: every listed group refused.
            RaftRequest::Beat(b) => RaftResponse::Beat(b.groups.iter().map(|g| g.group).collect()),
            // The broker's own calls: answered with the bytes reversed.
            RaftRequest::App(b) => {
                let mut v = b.to_vec();
                v.reverse();
                RaftResponse::App(Bytes::from(v))
            }
        }
    }
}

fn echo() -> Rc<Echo> {
    Rc::new(Echo {
        delivered: Cell::new(0),
        last_from: Cell::new(0),
    })
}

fn group(i: i32) -> GroupId {
    GroupId { key: 77, index: i }
}

#[test]
fn many_groups_share_one_connection_and_answers_match_out_of_order() {
    run(async {
        let (l, addr) = listener();
        let stop = Signal::new();
        let router = echo();
        let server_stats = Rc::new(TransportStats::default());
        monoio::spawn(serve(
            l,
            router.clone(),
            TransportConfig::default(),
            stop.clone(),
            server_stats.clone(),
        ));
        let peers = Peers::new();
        peers.set(2, addr);
        let t = Transport::new(1, peers, TransportConfig::default());
        let calls = (0..500).map(|i| {
            let t = t.clone();
            async move {
                let r = t
                    .call(
                        2,
                        group(i),
                        vote_req(1000 + i as u64),
                        Duration::from_secs(5),
                    )
                    .await;
                match r {
                    Ok(RaftResponse::Vote(v)) => {
                        assert_eq!(v.vote.leader_id.term, 1000 + i as u64, "answer of {i}");
                        assert_eq!(v.vote_granted, i % 2 == 0);
                    }
                    other => panic!("call {i}: {other:?}"),
                }
            }
        });
        futures_util::future::join_all(calls).await;
        let s = t.stats().snapshot();
        assert_eq!(s.connects, 1, "one connection for every group");
        assert_eq!(s.frames_sent, 500);
        assert_eq!(s.frames_received, 500);
        // The 500 requests were queued before the writer ran: a handful
        // of writes, not 500.
        assert!(s.writes <= 5, "{s:?}");
        assert_eq!(router.delivered.get(), 500);
        assert_eq!(router.last_from.get(), 1, "the hello names the caller");
        let ss = server_stats.snapshot();
        assert_eq!(ss.frames_sent, 500);
        assert!(
            ss.writes < 500,
            "answers that complete together share writes: {ss:?}"
        );
        stop.set();
        t.shutdown();
    });
}

#[test]
fn application_calls_travel_both_ways_beside_raft_messages() {
    run(async {
        let (l, addr) = listener();
        let stop = Signal::new();
        monoio::spawn(serve(
            l,
            echo(),
            TransportConfig::default(),
            stop.clone(),
            Rc::default(),
        ));
        let peers = Peers::new();
        peers.set(2, addr);
        let t = Transport::new(1, peers, TransportConfig::default());
        for body in [Bytes::new(), Bytes::from_static(b"forwarded command")] {
            let r = t
                .call(
                    2,
                    group(0),
                    RaftRequest::App(body.clone()),
                    Duration::from_secs(5),
                )
                .await;
            let mut want = body.to_vec();
            want.reverse();
            match r {
                Ok(RaftResponse::App(b)) => assert_eq!(b.to_vec(), want),
                other => panic!("{other:?}"),
            }
        }
        // And a Raft message on the same connection still works.
        let r = t
            .call(2, group(2), vote_req(5), Duration::from_secs(5))
            .await;
        assert!(matches!(r, Ok(RaftResponse::Vote(v)) if v.vote_granted));
        stop.set();
        t.shutdown();
    });
}

#[test]
fn a_silent_peer_times_out_within_the_deadline() {
    run(async {
        let (l, addr) = listener();
        let stop = Signal::new();
        monoio::spawn(serve(
            l,
            echo(),
            TransportConfig::default(),
            stop.clone(),
            Rc::default(),
        ));
        let peers = Peers::new();
        peers.set(2, addr);
        let t = Transport::new(1, peers, TransportConfig::default());
        let start = Instant::now();
        let r = t
            .call(2, group(-1), vote_req(1), Duration::from_millis(200))
            .await;
        let took = start.elapsed();
        assert!(
            matches!(r, Err(CallError::Timeout { node: 2, .. })),
            "{r:?}"
        );
        assert!(
            took >= Duration::from_millis(200) && took < Duration::from_millis(700),
            "{took:?}"
        );
        assert!(matches!(
            r.unwrap_err().to_rpc(),
            openraft::error::RPCError::Unreachable(_)
        ));
        // The connection is still good for others.
        let r = t
            .call(2, group(2), vote_req(5), Duration::from_secs(2))
            .await;
        assert!(matches!(r, Ok(RaftResponse::Vote(_))), "{r:?}");
        stop.set();
        t.shutdown();
    });
}

#[test]
fn an_absent_peer_is_unreachable_with_backoff_then_reconnects() {
    // A port nobody listens on (bound, then released).
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    run(async {
        let peers = Peers::new();
        peers.set(2, addr);
        let cfg = TransportConfig {
            backoff_min: Duration::from_millis(200),
            ..TransportConfig::default()
        };
        let t = Transport::new(1, peers.clone(), cfg.clone());
        let r = t
            .call(2, group(0), vote_req(1), Duration::from_secs(2))
            .await;
        assert!(
            matches!(r, Err(CallError::Unreachable { node: 2, .. })),
            "{r:?}"
        );
        // Backing off: fails at once, without another attempt.
        let start = Instant::now();
        let r = t
            .call(2, group(0), vote_req(1), Duration::from_secs(2))
            .await;
        assert!(matches!(r, Err(CallError::Unreachable { .. })), "{r:?}");
        assert!(start.elapsed() < Duration::from_millis(50));
        assert_eq!(t.stats().snapshot().connection_failures, 1);
        // An unknown node is unreachable too.
        let r = t
            .call(9, group(0), vote_req(1), Duration::from_secs(2))
            .await;
        assert!(
            matches!(r, Err(CallError::Unreachable { node: 9, .. })),
            "{r:?}"
        );

        // The peer comes up (on another port; the table is updated):
        // after the backoff the link reconnects.
        let (l, new_addr) = listener();
        let stop = Signal::new();
        monoio::spawn(serve(l, echo(), cfg, stop.clone(), Rc::default()));
        peers.set(2, new_addr);
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            match t
                .call(2, group(4), vote_req(3), Duration::from_secs(1))
                .await
            {
                Ok(RaftResponse::Vote(v)) => {
                    assert_eq!(v.vote.leader_id.term, 3);
                    break;
                }
                Err(CallError::Unreachable { .. }) if Instant::now() < deadline => {
                    monoio::time::sleep(Duration::from_millis(20)).await
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(t.stats().snapshot().connects, 1);
        stop.set();
        t.shutdown();
    });
}

#[test]
fn a_group_that_is_not_here_is_a_remote_failure() {
    run(async {
        let (l, addr) = listener();
        let stop = Signal::new();
        monoio::spawn(serve(
            l,
            Rc::new(Groups::new()),
            TransportConfig::default(),
            stop.clone(),
            Rc::default(),
        ));
        let peers = Peers::new();
        peers.set(2, addr);
        let t = Transport::new(1, peers, TransportConfig::default());
        let r = t
            .call(2, group(3), vote_req(1), Duration::from_secs(2))
            .await;
        match r {
            Err(CallError::Remote { node: 2, failure }) => {
                assert_eq!(failure.code, FailureCode::GroupNotHere)
            }
            other => panic!("{other:?}"),
        }
        stop.set();
        t.shutdown();
    });
}

fn append_of(batch: Bytes) -> RaftRequest {
    RaftRequest::Append(AppendEntriesRequest {
        vote: Vote::new_committed(1, 1),
        prev_log_id: None,
        leader_commit: None,
        entries: vec![Entry {
            log_id: openraft::LogId::new_term_index(1, 1),
            payload: Payload::Normal(KafkaBatch::stored(batch)),
        }],
    })
}

#[test]
fn a_peer_that_does_not_read_gets_a_bounded_queue_and_senders_wait() {
    run(async {
        // A peer that accepts and never reads.
        let (l, addr) = listener();
        let held = Rc::new(std::cell::RefCell::new(Vec::new()));
        {
            let held = held.clone();
            monoio::spawn(async move {
                while let Ok((s, _)) = l.accept().await {
                    held.borrow_mut().push(s);
                }
            });
        }
        let peers = Peers::new();
        peers.set(2, addr);
        let limit = 256 << 10;
        let t = Transport::new(
            1,
            peers,
            TransportConfig {
                max_queued_bytes: limit,
                ..TransportConfig::default()
            },
        );
        let batch = Bytes::from(vec![7u8; 64 << 10]);
        let sent = Rc::new(Cell::new(0usize));
        let n: usize = 2000; // 128 MiB offered: far more than socket buffers hold
        let calls: Vec<_> = (0..n)
            .map(|i| {
                let t = t.clone();
                let b = batch.clone();
                let sent = sent.clone();
                monoio::spawn(async move {
                    let r = t
                        .call(
                            2,
                            group(i as i32),
                            append_of(b),
                            Duration::from_millis(1500),
                        )
                        .await;
                    sent.set(sent.get() + 1);
                    r
                })
            })
            .collect();
        let mut max_queued = 0;
        let deadline = Instant::now() + Duration::from_millis(1000);
        while Instant::now() < deadline {
            max_queued = max_queued.max(t.queued_bytes(2));
            monoio::time::sleep(Duration::from_millis(5)).await;
        }
        let frame = 64 << 10 | 1024;
        assert!(max_queued <= limit + frame, "queued {max_queued} > {limit}");
        assert!(max_queued > 0);
        let s = t.stats().snapshot();
        assert!(
            (s.frames_sent as usize) < n / 2,
            "most senders wait for space: {s:?}"
        );
        for c in calls {
            let r = c.await;
            assert!(matches!(r, Err(CallError::Timeout { .. })), "{r:?}");
        }
        assert_eq!(sent.get(), n);
        t.shutdown();
    });
}

#[test]
fn an_oversized_frame_closes_the_connection() {
    run(async {
        let (l, addr) = listener();
        let stop = Signal::new();
        let router = echo();
        monoio::spawn(serve(
            l,
            router.clone(),
            TransportConfig {
                max_frame_bytes: 1 << 20,
                ..TransportConfig::default()
            },
            stop.clone(),
            Rc::default(),
        ));
        let mut s = TcpStream::connect_addr(addr).await.unwrap();
        let mut hello = bytes::BytesMut::new();
        hello.extend_from_slice(&(29u32 + 14).to_be_bytes());
        hello.extend_from_slice(&[0u8; 29]);
        hello.extend_from_slice(&0x544d_5254u32.to_be_bytes());
        hello.extend_from_slice(&0u16.to_be_bytes());
        hello.extend_from_slice(&5u64.to_be_bytes());
        // Announce a 2 MiB frame, send a little of it.
        hello.extend_from_slice(&(2u32 << 20).to_be_bytes());
        hello.extend_from_slice(&[1u8; 100]);
        let (r, _) = s.write_all(hello.to_vec()).await;
        r.unwrap();
        let buf = vec![0u8; 16];
        let (r, _) = monoio::time::timeout(Duration::from_secs(2), s.read(buf))
            .await
            .expect("the server closes at once");
        assert_eq!(r.unwrap_or(0), 0, "closed, nothing answered");
        assert_eq!(router.delivered.get(), 0);
        stop.set();
    });
}

/// A follower that answers AppendEntries after a delay, recording the
/// order requests arrive in and how many were in flight at once; it
/// answers Conflict to the request whose previous entry is `conflict_at`.
struct SlowFollower {
    arrived: std::cell::RefCell<Vec<u64>>,
    in_flight: Cell<usize>,
    max_in_flight: Cell<usize>,
    conflict_at: u64,
}

impl Router for SlowFollower {
    async fn deliver(&self, _from: NodeId, _group: GroupId, req: RaftRequest) -> RaftResponse {
        let RaftRequest::Append(a) = req else {
            panic!("only appends are sent");
        };
        let prev = a.prev_log_id.expect("prev").index;
        self.arrived.borrow_mut().push(prev);
        self.in_flight.set(self.in_flight.get() + 1);
        self.max_in_flight
            .set(self.max_in_flight.get().max(self.in_flight.get()));
        monoio::time::sleep(Duration::from_millis(30)).await;
        self.in_flight.set(self.in_flight.get() - 1);
        if prev == self.conflict_at {
            RaftResponse::Append(AppendEntriesResponse::Conflict)
        } else {
            RaftResponse::Append(AppendEntriesResponse::Success)
        }
    }
}

#[test]
fn an_append_stream_keeps_requests_in_flight_in_order_and_ends_at_a_conflict() {
    use futures_util::StreamExt;
    use openraft::network::{RPCOption, RaftNetworkFactory};
    use openraft::{EmptyNode, RaftNetworkV2};
    run(async {
        let (l, addr) = listener();
        let stop = Signal::new();
        let follower = Rc::new(SlowFollower {
            arrived: Default::default(),
            in_flight: Cell::new(0),
            max_in_flight: Cell::new(0),
            conflict_at: 40,
        });
        monoio::spawn(serve(
            l,
            follower.clone(),
            TransportConfig::default(),
            stop.clone(),
            Rc::new(TransportStats::default()),
        ));
        let peers = Peers::new();
        peers.set(2, addr);
        let t = Transport::new(1, peers, TransportConfig::default());
        let mut client = t.network(group(3)).new_client(2, &EmptyNode {}).await;
        let log_id = |index: u64| {
            tidemark_raft::LogId::new(
                openraft::vote::leader_id_std::CommittedLeaderId::new(1),
                index,
            )
        };
        // Entry-less requests: each covers (prev, prev].
        let reqs: Vec<_> = (1..=8u64)
            .map(|i| AppendEntriesRequest {
                vote: Vote::new_committed(1, 1),
                prev_log_id: Some(log_id(i * 10)),
                leader_commit: None,
                entries: Vec::new(),
            })
            .collect();
        let results: Vec<_> = client
            .stream_append(
                futures_util::stream::iter(reqs),
                RPCOption::new(Duration::from_secs(5)),
            )
            .await
            .expect("stream")
            .collect()
            .await;
        let summary: Vec<String> = results
            .iter()
            .map(|r| match r {
                Ok(Ok(m)) => format!("ok {}", m.expect("matching").index),
                Ok(Err(e)) => format!("append error {e}"),
                Err(e) => format!("rpc error {e}"),
            })
            .collect();
        // Answers in request order; the stream ends with the conflict.
        assert_eq!(summary[..3], ["ok 10", "ok 20", "ok 30"], "{summary:?}");
        assert_eq!(summary.len(), 4, "nothing after the conflict: {summary:?}");
        assert!(summary[3].starts_with("append error"), "{summary:?}");
        // Requests arrived in order, two at a time.
        let arrived = follower.arrived.borrow().clone();
        assert!(arrived.windows(2).all(|w| w[0] < w[1]), "{arrived:?}");
        assert_eq!(arrived[..4], [10, 20, 30, 40]);
        assert_eq!(follower.max_in_flight.get(), 2);
        stop.set();
        t.shutdown();
    });
}
