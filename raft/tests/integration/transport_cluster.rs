//! Three nodes over real TCP on 127.0.0.1, each on its own thread with its
//! own monoio runtime (as shards are), each hosting a replica of every
//! group through the transport: election, replication, a node cut off and
//! brought back; and (ignored by default) the idle heartbeat traffic of
//! 1,000 groups with and without the heartbeat ticker.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::common::{batch_for, config, first_value, read_all, run, test_dir};
use bytes::Bytes;
use kafka_protocol::records::RecordBatch;
use tidemark_raft::transport::{
    FailureCode, GroupId, Groups, HeartbeatTicker, Peers, RaftRequest, RaftResponse, RemoteFailure,
    Router, Signal, StatsSnapshot, Transport, TransportConfig, TransportStats, WokenSince,
    first_to_stand, serve,
};
use tidemark_raft::{NodeId, OpenOptions, PartitionReplica, ReplicaConfig};

/// In [`CutRouter::cut`]: every link is cut (while the nodes stop, so
/// that a stopped replica's peers do not log its absence).
const EVERYONE: NodeId = NodeId::MAX;

/// Drops traffic from and to the node whose id is in `cut` (0: none),
/// as a network partition would: the sender hears "refused" and openraft
/// treats the peer as unreachable.
struct CutRouter {
    me: NodeId,
    cut: Arc<AtomicU64>,
    groups: Groups,
}

impl Router for CutRouter {
    async fn deliver(&self, from: NodeId, group: GroupId, req: RaftRequest) -> RaftResponse {
        let cut = self.cut.load(Ordering::SeqCst);
        if cut == self.me || cut == from || cut == EVERYONE {
            return RaftResponse::Error(RemoteFailure {
                code: FailureCode::Refused,
                message: "link cut".into(),
            });
        }
        self.groups.deliver(from, group, req).await
    }
}

/// How a node's groups heartbeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ticking {
    /// Each group's own openraft timer.
    Own,
    /// A per-node [`HeartbeatTicker`] beats for all.
    Ticker,
    /// A quiescent ticker: idle groups go quiet.
    Quiet,
}

/// One node's state, on its thread.
struct Ctx {
    id: NodeId,
    dir: PathBuf,
    transport: Transport,
    groups: Groups,
    ticker: Option<Rc<HeartbeatTicker>>,
    replicas: RefCell<BTreeMap<GroupId, Rc<PartitionReplica>>>,
    server_stop: RefCell<Signal>,
    stop: Signal,
    stats: Rc<TransportStats>,
    cut: Arc<AtomicU64>,
    replica_config: ReplicaConfig,
}

impl Ctx {
    fn start_server(self: &Rc<Self>, listener: std::net::TcpListener) {
        let stop = Signal::new();
        *self.server_stop.borrow_mut() = stop.clone();
        let router = Rc::new(CutRouter {
            me: self.id,
            cut: self.cut.clone(),
            groups: self.groups.clone(),
        });
        let l = monoio::net::TcpListener::from_std(listener).unwrap();
        monoio::spawn(serve(
            l,
            router,
            TransportConfig::default(),
            stop,
            self.stats.clone(),
        ));
    }
}

type Job = Box<dyn FnOnce(Rc<Ctx>) -> Pin<Box<dyn Future<Output = ()>>> + Send>;

struct Node {
    id: NodeId,
    jobs: Option<mpsc::Sender<Job>>,
    done: mpsc::Receiver<()>,
    thread: Option<JoinHandle<()>>,
}

impl Node {
    /// Runs `f` on the node's runtime and waits (at most 120 s) for its
    /// result.
    fn exec<T, F, Fut>(&self, f: F) -> T
    where
        T: Send + 'static,
        F: FnOnce(Rc<Ctx>) -> Fut + Send + 'static,
        Fut: Future<Output = T> + 'static,
    {
        let (tx, rx) = mpsc::channel();
        let job: Job = Box::new(move |ctx| {
            Box::pin(async move {
                let _ = tx.send(f(ctx).await);
            })
        });
        self.jobs.as_ref().unwrap().send(job).unwrap();
        rx.recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|e| panic!("node {}: job did not finish: {e}", self.id))
    }

    /// Closes every replica, stops the node's tasks and joins its thread.
    fn stop(&mut self) {
        drop(self.jobs.take());
        self.done
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("node {} did not stop: {e}", self.id));
        self.thread.take().unwrap().join().unwrap();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if self.thread.is_some() && !std::thread::panicking() {
            self.stop();
        }
    }
}

struct Cluster {
    nodes: Vec<Node>,
    cut: Arc<AtomicU64>,
    dirs: Vec<PathBuf>,
}

impl Cluster {
    /// Three nodes (ids 1, 2, 3) that know each other's addresses.
    /// `ticking`: how the groups heartbeat (see [`Ticking`]).
    fn start(name: &str, replica_config: ReplicaConfig, ticking: Ticking) -> Cluster {
        let cut = Arc::new(AtomicU64::new(0));
        let listeners: Vec<std::net::TcpListener> = (0..3)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
            .collect();
        let addrs: Vec<SocketAddr> = listeners.iter().map(|l| l.local_addr().unwrap()).collect();
        let mut nodes = Vec::new();
        let mut dirs = Vec::new();
        for (i, listener) in listeners.into_iter().enumerate() {
            let id = i as NodeId + 1;
            let dir = test_dir(&format!("{name}-{id}"));
            dirs.push(dir.clone());
            let (jobs_tx, jobs_rx) = mpsc::channel::<Job>();
            let (done_tx, done_rx) = mpsc::channel();
            let addrs = addrs.clone();
            let cut = cut.clone();
            let rc = replica_config.clone();
            let thread = std::thread::Builder::new()
                .name(format!("node-{id}"))
                .spawn(move || {
                    run(async move {
                        let peers = Peers::new();
                        for (j, a) in addrs.iter().enumerate() {
                            if j != i {
                                peers.set(j as NodeId + 1, *a);
                            }
                        }
                        let stats = Rc::new(TransportStats::default());
                        let ticker = match ticking {
                            Ticking::Own => None,
                            Ticking::Ticker => Some(HeartbeatTicker::new(rc.heartbeat_interval)),
                            Ticking::Quiet => Some(HeartbeatTicker::quiescent(
                                rc.heartbeat_interval,
                                0,
                                rc.election_timeout_max,
                                rc.election_timeout_max,
                            )),
                        };
                        let groups = match (&ticker, ticking) {
                            (Some(t), Ticking::Quiet) => Groups::with_ticker(t.clone()),
                            _ => Groups::new(),
                        };
                        let ctx = Rc::new(Ctx {
                            id,
                            dir,
                            transport: Transport::with_stats(
                                id,
                                peers,
                                TransportConfig::default(),
                                stats.clone(),
                            ),
                            groups,
                            ticker,
                            replicas: RefCell::default(),
                            server_stop: RefCell::default(),
                            stop: Signal::new(),
                            stats,
                            cut,
                            replica_config: rc,
                        });
                        ctx.start_server(listener);
                        if let Some(t) = &ctx.ticker {
                            monoio::spawn(
                                t.clone().run(Some(ctx.transport.clone()), ctx.stop.clone()),
                            );
                        }
                        // Jobs from the test thread; polled, as a std
                        // channel cannot wake a monoio runtime.
                        loop {
                            match jobs_rx.try_recv() {
                                Ok(job) => {
                                    monoio::spawn(job(ctx.clone()));
                                }
                                Err(mpsc::TryRecvError::Empty) => {
                                    monoio::time::sleep(Duration::from_millis(2)).await
                                }
                                Err(mpsc::TryRecvError::Disconnected) => break,
                            }
                        }
                        let replicas: Vec<_> =
                            ctx.replicas.borrow_mut().values().cloned().collect();
                        for r in replicas {
                            let _ = r.close().await;
                        }
                        ctx.stop.set();
                        ctx.server_stop.borrow().set();
                        ctx.transport.shutdown();
                        // Let the stopped tasks see their signals.
                        monoio::time::sleep(Duration::from_millis(20)).await;
                    });
                    let _ = done_tx.send(());
                })
                .unwrap();
            nodes.push(Node {
                id,
                jobs: Some(jobs_tx),
                done: done_rx,
                thread: Some(thread),
            });
        }
        Cluster { nodes, cut, dirs }
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize - 1]
    }

    /// Opens a replica of each of `groups` on every node (in parallel).
    fn open_groups(&self, groups: &[GroupId]) {
        self.open_groups_with(groups, |_, _| false, Duration::ZERO, true);
    }

    /// [`Cluster::open_groups`], the nodes in order with `stagger` between
    /// them, each group campaigning at once on the node `campaign` names
    /// (see `OpenOptions::campaign`); `may_quiesce`: whether the groups
    /// may go quiet on a quiescent ticker.
    fn open_groups_with(
        &self,
        groups: &[GroupId],
        campaign: fn(NodeId, GroupId) -> bool,
        stagger: Duration,
        may_quiesce: bool,
    ) {
        let (tx, rx) = mpsc::channel();
        for n in &self.nodes {
            std::thread::sleep(stagger);
            let groups = groups.to_vec();
            let tx = tx.clone();
            let job: Job = Box::new(move |ctx: Rc<Ctx>| {
                Box::pin(async move {
                    for g in groups {
                        let dir = ctx.dir.join(format!("{}", g.index));
                        let r = PartitionReplica::open_with(
                            &dir,
                            config(),
                            ctx.id,
                            BTreeSet::from([1, 2, 3]),
                            ctx.transport.network(g),
                            ctx.replica_config.clone(),
                            OpenOptions {
                                campaign: campaign(ctx.id, g),
                                ..OpenOptions::default()
                            },
                        )
                        .await
                        .unwrap();
                        // Groups with three voters never hibernate, so the
                        // openraft handle is always there.
                        let raft = r.raft().expect("a multi-voter group is awake");
                        ctx.groups.insert(g, raft.clone());
                        if let Some(t) = &ctx.ticker {
                            t.register(g, &raft, may_quiesce);
                        }
                        ctx.replicas.borrow_mut().insert(g, r);
                    }
                    tx.send(()).unwrap();
                })
            });
            n.jobs.as_ref().unwrap().send(job).unwrap();
        }
        for _ in &self.nodes {
            rx.recv_timeout(Duration::from_secs(600))
                .expect("groups opened");
        }
    }

    fn states(&self) -> Vec<(NodeId, BTreeMap<GroupId, GroupState>)> {
        self.nodes
            .iter()
            .map(|n| (n.id, n.exec(|ctx| async move { states(&ctx) })))
            .collect()
    }

    /// Each group's leader among `alive`, once every one of `alive` agrees
    /// on it and it accepts writes; `None` while some group has none.
    fn leaders(&self, alive: &[NodeId]) -> Option<BTreeMap<GroupId, NodeId>> {
        let states = self.states();
        let mut out = BTreeMap::new();
        let groups: Vec<GroupId> = states[0].1.keys().copied().collect();
        for g in groups {
            let mut leader = None;
            for (id, s) in &states {
                if !alive.contains(id) {
                    continue;
                }
                let st = s[&g];
                if st.is_leader {
                    leader = Some(*id);
                }
            }
            let l = leader?;
            for (id, s) in &states {
                if alive.contains(id) && s[&g].leader != Some(l) {
                    return None;
                }
            }
            out.insert(g, l);
        }
        Some(out)
    }

    fn wait_leaders(&self, alive: &[NodeId], timeout: Duration) -> BTreeMap<GroupId, NodeId> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(l) = self.leaders(alive) {
                return l;
            }
            assert!(
                Instant::now() < deadline,
                "no stable leaders on {alive:?} within {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Appends `seeds` to every group through its leader (retrying after
    /// a leadership change, bounded), and checks that each acknowledged
    /// batch is durable on a majority when acknowledged.
    fn append_everywhere(&self, alive: &[NodeId], seeds: std::ops::Range<u64>) -> Vec<Acked> {
        let mut todo: BTreeMap<GroupId, Vec<u64>> = BTreeMap::new();
        let groups: Vec<GroupId> = self.states()[0].1.keys().copied().collect();
        for g in groups {
            todo.insert(g, seeds.clone().collect());
        }
        let mut acked = Vec::new();
        for _round in 0..10 {
            if todo.values().all(|s| s.is_empty()) {
                break;
            }
            let leaders = self.wait_leaders(alive, Duration::from_secs(20));
            for &id in alive {
                let mine: Vec<(GroupId, Vec<u64>)> = todo
                    .iter()
                    .filter(|(g, s)| leaders[g] == id && !s.is_empty())
                    .map(|(g, s)| (*g, s.clone()))
                    .collect();
                let results = self.node(id).exec(move |ctx| async move {
                    let work = mine.into_iter().map(|(g, seeds)| {
                        let r = ctx.replicas.borrow()[&g].clone();
                        async move {
                            let mut out = Vec::new();
                            for seed in seeds {
                                // A quiet group's leader renews its lease
                                // first (as the broker does).
                                if r.lease_expiring() {
                                    r.renew_lease().await;
                                }
                                match r.append(batch_for(seed, 4, 100), None).await {
                                    Ok(info) => {
                                        out.push(Ok((seed, info.base_offset, info.last_offset)))
                                    }
                                    Err(e) => {
                                        out.push(Err(format!("{e}")));
                                        break;
                                    }
                                }
                            }
                            (g, out)
                        }
                    });
                    futures_util::future::join_all(work).await
                });
                for (g, out) in results {
                    for r in out {
                        match r {
                            Ok((seed, base, last)) => {
                                todo.get_mut(&g).unwrap().retain(|s| *s != seed);
                                acked.push(Acked {
                                    group: g,
                                    seed,
                                    base,
                                    last,
                                });
                            }
                            Err(e) => eprintln!("append to {g} on node {id}: {e} (retrying)"),
                        }
                    }
                }
            }
            // Acknowledged = fsynced on a majority (2 of 3) already.
            let states = self.states();
            for a in acked.iter().filter(|a| seeds.contains(&a.seed)) {
                let holders = states
                    .iter()
                    .filter(|(_, s)| s[&a.group].durable > a.last)
                    .count();
                assert!(holders >= 2, "{a:?} durable on {holders} nodes when acked");
            }
        }
        assert!(
            todo.values().all(|s| s.is_empty()),
            "appends not acknowledged after 10 rounds: {todo:?}"
        );
        acked
    }

    /// Waits until every node in `nodes` has every group's log up to the
    /// leader's high watermark, then checks the logs are identical: same
    /// batches at the same offsets and epochs, byte for byte (control
    /// batches are written by each replica itself, so only their place
    /// and epoch are compared).
    fn check_identical(&self, nodes: &[NodeId], timeout: Duration) {
        let deadline = Instant::now() + timeout;
        let states = loop {
            let states = self.states();
            let caught_up = states[0].1.keys().all(|g| {
                let hws: BTreeSet<i64> = states
                    .iter()
                    .filter(|(id, _)| nodes.contains(id))
                    .map(|(_, s)| s[g].hw)
                    .collect();
                hws.len() == 1
            });
            if caught_up {
                break states;
            }
            assert!(
                Instant::now() < deadline,
                "nodes {nodes:?} not caught up within {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let groups: Vec<GroupId> = states[0].1.keys().copied().collect();
        for g in groups {
            let end = states[0].1[&g].hw;
            let logs: Vec<Vec<(i64, i32, bool, Bytes)>> = nodes
                .iter()
                .map(|&id| {
                    self.node(id).exec(move |ctx| async move {
                        let r = ctx.replicas.borrow()[&g].clone();
                        read_all(r.log(), 0, end)
                            .await
                            .into_iter()
                            .map(|b| {
                                let bytes = if b.is_control() {
                                    Bytes::new()
                                } else {
                                    b.as_bytes().clone()
                                };
                                (
                                    b.base_offset(),
                                    b.partition_leader_epoch(),
                                    b.is_control(),
                                    bytes,
                                )
                            })
                            .collect()
                    })
                })
                .collect();
            assert!(logs[0].last().is_some_and(|b| b.0 < end));
            for (i, l) in logs.iter().enumerate().skip(1) {
                assert_eq!(
                    l, &logs[0],
                    "group {g}: node {} differs from node {}",
                    nodes[i], nodes[0]
                );
            }
        }
    }

    /// Every acknowledged batch is in `node`'s log where it was
    /// acknowledged, with its content.
    fn check_acked(&self, node: NodeId, acked: &[Acked]) {
        let acked = acked.to_vec();
        let missing: Vec<String> = self.node(node).exec(move |ctx| async move {
            let mut missing = Vec::new();
            for a in acked {
                let r = ctx.replicas.borrow()[&a.group].clone();
                let got = read_all(r.log(), a.base, a.last + 1).await;
                let want =
                    first_value(&RecordBatch::new(batch_for(a.seed, 4, 100).freeze()).unwrap());
                if got.first().is_none_or(|b| {
                    b.base_offset() != a.base || b.last_offset() != a.last || first_value(b) != want
                }) {
                    missing.push(format!("{a:?}"));
                }
            }
            missing
        });
        assert!(
            missing.is_empty(),
            "node {node} lacks acknowledged {missing:?}"
        );
    }

    fn stats(&self) -> Vec<StatsSnapshot> {
        self.nodes
            .iter()
            .map(|n| n.exec(|ctx| async move { ctx.stats.snapshot() }))
            .collect()
    }

    fn stop(mut self) {
        self.cut.store(EVERYONE, Ordering::SeqCst);
        for n in &mut self.nodes {
            n.stop();
        }
        for d in &self.dirs {
            std::fs::remove_dir_all(d).ok();
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct GroupState {
    is_leader: bool,
    leader: Option<NodeId>,
    epoch: i32,
    hw: i64,
    durable: i64,
}

#[derive(Debug, Clone, Copy)]
struct Acked {
    group: GroupId,
    seed: u64,
    base: i64,
    last: i64,
}

fn states(ctx: &Ctx) -> BTreeMap<GroupId, GroupState> {
    ctx.replicas
        .borrow()
        .iter()
        .map(|(g, r)| {
            (
                *g,
                GroupState {
                    is_leader: r.is_leader(),
                    leader: r.leader_id(),
                    epoch: r.leader_epoch(),
                    hw: r.high_watermark(),
                    durable: r.log().durable_offset(),
                },
            )
        })
        .collect()
}

/// User + system CPU time of this process so far (Linux).
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // Fields after the command name (which is in parentheses).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

fn group_ids(n: i32) -> Vec<GroupId> {
    (0..n)
        .map(|i| GroupId {
            key: 0x7e57_0000_0000_0000_0000_0000_0000_0001,
            index: i,
        })
        .collect()
}

fn fast() -> ReplicaConfig {
    ReplicaConfig {
        heartbeat_interval: Duration::from_millis(50),
        election_timeout_min: Duration::from_millis(500),
        election_timeout_max: Duration::from_millis(1000),
        max_payload_entries: 64,
        core_heartbeat_interval: None,
    }
}

/// New groups whose preferred replica campaigns at once elect it, well
/// before any election timeout runs out, even when the other replicas
/// open theirs later (its votes ask again while the group is not there).
#[test]
fn new_groups_elect_the_replica_that_campaigns_without_waiting_out_a_timeout() {
    // Election timeouts far longer than the wait below: a leader within it
    // can only come from the campaign.
    let slow = ReplicaConfig {
        election_timeout_min: Duration::from_secs(30),
        election_timeout_max: Duration::from_secs(40),
        ..fast()
    };
    let cluster = Cluster::start("campaign3", slow, Ticking::Ticker);
    let groups = group_ids(12);
    let preferred = |g: GroupId| g.index as NodeId % 3 + 1;
    // Node 1 opens first and nodes 2 and 3 150 and 300 ms later, so node
    // 1's first votes find no replica there.
    cluster.open_groups_with(
        &groups,
        |id, g| id == g.index as NodeId % 3 + 1,
        Duration::from_millis(150),
        true,
    );
    let leaders = cluster.wait_leaders(&[1, 2, 3], Duration::from_secs(10));
    for g in &groups {
        assert_eq!(leaders[g], preferred(*g), "group {g}");
    }
    cluster.stop();
}

#[test]
fn three_nodes_replicate_twenty_groups_fail_over_and_catch_up() {
    let t0 = Instant::now();
    let phase = |what: &str| eprintln!("{:>8.2?} {what}", t0.elapsed());
    let cluster = Cluster::start("transport3", fast(), Ticking::Ticker);
    let groups = group_ids(20);
    cluster.open_groups(&groups);
    let all = [1, 2, 3];
    let start = Instant::now();
    let leaders = cluster.wait_leaders(&all, Duration::from_secs(20));
    eprintln!(
        "20 groups elected leaders in {:?}; per node: {:?}",
        start.elapsed(),
        (1..=3)
            .map(|id| leaders.values().filter(|l| **l == id).count())
            .collect::<Vec<_>>()
    );

    // Quiet for twice the longest election timeout: the ticker's
    // heartbeats (the groups' own are off) keep every leader in place,
    // and it triggers exactly the groups each node leads.
    let epochs: Vec<i32> = cluster.states()[0].1.values().map(|s| s.epoch).collect();
    std::thread::sleep(fast().election_timeout_max * 2);
    assert_eq!(cluster.wait_leaders(&all, Duration::from_secs(1)), leaders);
    let epochs_after: Vec<i32> = cluster.states()[0].1.values().map(|s| s.epoch).collect();
    assert_eq!(epochs, epochs_after, "no election while idle");
    for id in all {
        let beats = cluster.node(id).exec(|ctx| async move {
            let t = ctx.ticker.clone().unwrap();
            assert_eq!(t.len(), 20);
            t.beat(None).await
        });
        assert_eq!(beats, leaders.values().filter(|l| **l == id).count());
    }

    // Votes and pre-votes reach real groups through the transport: a
    // stale candidate (term 1, no log) is refused either way.
    let g0 = groups[0];
    let answers = cluster.node(1).exec(move |ctx| async move {
        let mut out = Vec::new();
        for pre in [false, true] {
            let v = openraft::raft::VoteRequest::new(tidemark_raft::Vote::new(1, 1), None);
            let req = if pre {
                RaftRequest::PreVote(v)
            } else {
                RaftRequest::Vote(v)
            };
            out.push(ctx.transport.call(2, g0, req, Duration::from_secs(5)).await);
        }
        out
    });
    for a in answers {
        match a {
            Ok(RaftResponse::Vote(v)) => {
                assert!(!v.vote_granted, "{v:?}");
                assert!(v.vote.leader_id.term > 1);
            }
            other => panic!("{other:?}"),
        }
    }

    let mut acked = cluster.append_everywhere(&all, 0..5);
    phase("let mut acked = append_everywhere(&all, 0..5)");
    cluster.check_identical(&all, Duration::from_secs(10));
    phase("check_identical(&all, Duration::from_secs(10))");

    // Cut node 3 off (both directions), as the leader of some groups if
    // it leads any; its listener closes too.
    let leaders = cluster.wait_leaders(&all, Duration::from_secs(20));
    let led_by_3 = leaders.values().filter(|l| **l == 3).count();
    let epochs_before: BTreeMap<GroupId, i32> = cluster.states()[0]
        .1
        .iter()
        .map(|(g, s)| (*g, s.epoch))
        .collect();
    cluster.cut.store(3, Ordering::SeqCst);
    cluster.node(3).exec(|ctx| async move {
        ctx.server_stop.borrow().set();
        ctx.transport.reset(1);
        ctx.transport.reset(2);
    });
    let cut_at = Instant::now();
    let survivors = [1, 2];
    let new_leaders = cluster.wait_leaders(&survivors, Duration::from_secs(15));
    let failover = cut_at.elapsed();
    eprintln!(
        "node 3 (leader of {led_by_3} groups) cut; every group led by 1 or 2 after {failover:?}"
    );
    assert!(new_leaders.values().all(|l| *l != 3));
    // A group that node 3 led has a new leader, so a new epoch.
    let states = cluster.states();
    for (g, l) in &leaders {
        if *l == 3 {
            let now = states[new_leaders[g] as usize - 1].1[g].epoch;
            assert!(now > epochs_before[g], "group {g}: epoch {now}");
        }
    }
    // Appends continue on every group.
    acked.extend(cluster.append_everywhere(&survivors, 5..10));
    phase("acked.extend(append_everywhere(&survivors, 5..10))");
    cluster.check_identical(&survivors, Duration::from_secs(10));
    phase("check_identical(&survivors, Duration::from_secs(10))");

    // Bring node 3 back on a new port: the others learn the address.
    let addr = cluster.node(3).exec(|ctx| async move {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let a = l.local_addr().unwrap();
        ctx.start_server(l);
        a
    });
    cluster.cut.store(0, Ordering::SeqCst);
    for id in survivors {
        cluster.node(id).exec(move |ctx| async move {
            ctx.transport.peers().set(3, addr);
            ctx.transport.reset(3);
        });
    }
    let back_at = Instant::now();
    cluster.check_identical(&all, Duration::from_secs(20));
    phase("check_identical(&all, Duration::from_secs(20))");
    eprintln!(
        "node 3 caught up {:?} after it came back",
        back_at.elapsed()
    );
    acked.extend(cluster.append_everywhere(&all, 10..12));
    phase("acked.extend(append_everywhere(&all, 10..12))");
    cluster.check_identical(&all, Duration::from_secs(10));
    for id in all {
        cluster.check_acked(id, &acked);
    }
    assert_eq!(acked.len(), 20 * 12);

    let stats = cluster.stats();
    eprintln!("transport stats per node: {stats:#?}");
    // Node 1 reached node 3 over a second connection after the cut, and
    // failed to reach it meanwhile.
    assert!(stats[0].connects >= 3, "{:?}", stats[0]);
    assert!(stats[0].connection_failures >= 1, "{:?}", stats[0]);
    for s in &stats {
        assert!(s.frames_sent > s.writes, "frames share writes: {s:?}");
    }
    cluster.stop();
}

/// Every node's quiet counts: (groups it leads quietly, groups it
/// follows quietly).
/// The groups node `id`'s ticker reported woken since the last call.
fn woken_groups(cluster: &Cluster, id: NodeId) -> BTreeSet<GroupId> {
    let woken = cluster
        .node(id)
        .exec(|ctx| async move { ctx.ticker.as_ref().unwrap().take_woken() });
    match woken {
        WokenSince::Groups(g) => g.into_iter().collect(),
        WokenSince::Any => panic!("node {id}: more wakes than listed"),
    }
}

fn quiet_counts(cluster: &Cluster) -> Vec<(usize, usize)> {
    cluster
        .nodes
        .iter()
        .map(|n| n.exec(|ctx| async move { ctx.ticker.as_ref().unwrap().quiet_counts() }))
        .collect()
}

/// Waits until every group is quiet on every node in `nodes`: each
/// quiet on its leader and on its other replicas among `nodes`.
fn wait_all_quiet(cluster: &Cluster, nodes: &[NodeId], groups: usize, timeout: Duration) {
    let deadline = Instant::now() + timeout;
    loop {
        let counts = quiet_counts(cluster);
        let leading: usize = nodes.iter().map(|id| counts[*id as usize - 1].0).sum();
        let following: usize = nodes.iter().map(|id| counts[*id as usize - 1].1).sum();
        if leading == groups && following == groups * (nodes.len() - 1) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "not all quiet within {timeout:?}: {counts:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Awake groups (never quiet here) whose leader's node falls silent elect
/// the surviving member `first_to_stand` picks, every one of them: it asks
/// for a pre-vote once the lease has run out while the other holds its
/// own election timer back, instead of both survivors' timers racing
/// (each wins about half the groups then, and may split the vote).
#[test]
fn awake_groups_whose_leader_falls_silent_elect_the_member_picked_to_stand() {
    let cluster = Cluster::start("awake3", fast(), Ticking::Quiet);
    let groups = group_ids(24);
    cluster.open_groups_with(&groups, |_, _| false, Duration::ZERO, false);
    let all = [1, 2, 3];
    let leaders = cluster.wait_leaders(&all, Duration::from_secs(20));
    let acked = cluster.append_everywhere(&all, 0..2);
    let victim = (1..=3)
        .max_by_key(|id| leaders.values().filter(|l| *l == id).count())
        .unwrap();
    let survivors: Vec<NodeId> = all.iter().copied().filter(|id| *id != victim).collect();
    let led: Vec<GroupId> = groups
        .iter()
        .copied()
        .filter(|g| leaders[g] == victim)
        .collect();
    assert!(led.len() >= 8, "node {victim} leads {} of 24", led.len());
    cluster.cut.store(victim, Ordering::SeqCst);
    let cut_at = Instant::now();
    // Both survivors report standing or holding back for the victim's
    // groups while they elect.
    let mut seen = [(0usize, 0usize); 2];
    // Which survivor first led each of the victim's groups, and when.
    let mut elected_after: BTreeMap<GroupId, (NodeId, Duration)> = BTreeMap::new();
    let new_leaders = loop {
        for (i, id) in survivors.iter().enumerate() {
            let c = cluster
                .node(*id)
                .exec(|ctx| async move { ctx.ticker.as_ref().unwrap().awake_stand_counts() });
            seen[i] = (seen[i].0.max(c.0), seen[i].1.max(c.1));
        }
        for (id, states) in cluster.states() {
            for g in &led {
                if survivors.contains(&id) && states[g].is_leader {
                    elected_after.entry(*g).or_insert((id, cut_at.elapsed()));
                }
            }
        }
        if let Some(l) = cluster.leaders(&survivors)
            && led.iter().all(|g| l[g] != victim)
        {
            break l;
        }
        assert!(
            cut_at.elapsed() < Duration::from_secs(20),
            "no leaders on {survivors:?} within 20 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let all_led_after = cut_at.elapsed();
    eprintln!(
        "node {victim} (leader of {} awake groups) cut: all led again after {all_led_after:?}; \
         stands {seen:?}",
        led.len(),
    );
    let picked: Vec<(GroupId, NodeId, NodeId, Duration)> = led
        .iter()
        .map(|g| {
            let first = first_to_stand(g, survivors.iter().copied()).unwrap();
            // A group seen led only by the last look was led by then.
            let (first_leader, at) = elected_after
                .get(g)
                .copied()
                .unwrap_or((new_leaders[g], all_led_after));
            assert_eq!(first_leader, new_leaders[g], "{g:?} changed leaders");
            (*g, first, new_leaders[g], at)
        })
        .collect();
    // The other survivor holds its timer back until one `dead_after`
    // after the lease ran out (`stand_at + dead_after`, counted from the
    // last beat heard, at most a few beats before the cut), then lets it
    // go so a group still has a leader if the one picked cannot win. So a
    // group goes to the survivor not picked only after that hold: on a
    // loaded machine the one picked may need all its pre-votes. Without
    // the hold the other's timer (1.5-2.0 s after the last heartbeat
    // here) would win groups earlier.
    // The cluster's ticker: `dead_after` and `lease` are both the
    // longest election timeout (`Cluster::start`, `Ticking::Quiet`).
    let rc = fast();
    let (dead_after, lease) = (rc.election_timeout_max, rc.election_timeout_max);
    let hold_ends_after = lease + dead_after - rc.heartbeat_interval * 2;
    let early: Vec<_> = picked
        .iter()
        .filter(|(_, first, new, at)| first != new && *at < hold_ends_after)
        .collect();
    assert!(
        early.is_empty(),
        "groups won by the member not picked while it held back (hold ends after \
         {hold_ends_after:?}): {early:?}"
    );
    let by_picked = picked
        .iter()
        .filter(|(_, first, new, _)| first == new)
        .count();
    assert!(
        by_picked * 2 > picked.len(),
        "only {by_picked} of {} groups elected the member picked: {picked:?}",
        picked.len()
    );
    assert!(
        seen.iter().all(|(standing, held)| standing + held > 0),
        "{seen:?}"
    );
    // Once the survivors know the new leaders, nothing is left standing
    // or held back (a held election timer is let go).
    for id in &survivors {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let c = cluster
                .node(*id)
                .exec(|ctx| async move { ctx.ticker.as_ref().unwrap().awake_stand_counts() });
            if c == (0, 0) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "node {id}: stands left after the failover: {c:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    cluster.check_identical(&survivors, Duration::from_secs(10));
    for id in &survivors {
        cluster.check_acked(*id, &acked);
    }
    cluster.cut.store(0, Ordering::SeqCst);
    cluster.stop();
}

#[test]
fn idle_groups_go_quiet_wake_on_writes_and_fail_over_when_their_leader_dies() {
    let cluster = Cluster::start("quiet3", fast(), Ticking::Quiet);
    let groups = group_ids(20);
    cluster.open_groups(&groups);
    let all = [1, 2, 3];
    let leaders = cluster.wait_leaders(&all, Duration::from_secs(20));
    let mut acked = cluster.append_everywhere(&all, 0..3);

    // Idle: every group goes quiet on its leader and both followers, and
    // stays led by the same leader in the same term (no election while
    // nobody heartbeats).
    wait_all_quiet(&cluster, &all, 20, Duration::from_secs(10));
    let epochs: Vec<i32> = cluster.states()[0].1.values().map(|s| s.epoch).collect();
    std::thread::sleep(fast().election_timeout_max * 3);
    wait_all_quiet(&cluster, &all, 20, Duration::from_secs(1));
    assert_eq!(cluster.wait_leaders(&all, Duration::from_secs(1)), leaders);
    let epochs_after: Vec<i32> = cluster.states()[0].1.values().map(|s| s.epoch).collect();
    assert_eq!(epochs, epochs_after, "no election while quiet");
    // Quiet traffic is one beat per node pair and interval, whatever the
    // number of groups: 2 peers x 20 beats/s, each answered, per node.
    let before = cluster.stats();
    std::thread::sleep(Duration::from_secs(1));
    let after = cluster.stats();
    for (a, b) in after.iter().zip(&before) {
        let sent = (*a - *b).frames_sent;
        eprintln!("quiet: {sent} frames sent in 1 s");
        assert!(sent < 2 * 2 * 20 * 2, "{sent} frames/s while quiet");
    }
    // A quiet group's leader still counts its followers in sync.
    for id in all {
        let isr = cluster.node(id).exec(|ctx| async move {
            let t = ctx.ticker.clone().unwrap();
            ctx.replicas
                .borrow()
                .keys()
                .filter_map(|g| t.quiet_in_sync(*g, Duration::from_secs(1)))
                .map(|f| f.len())
                .collect::<Vec<_>>()
        });
        assert!(isr.iter().all(|n| *n == 2), "node {id}: {isr:?}");
    }

    // Writes wake the groups (on every replica), and they go quiet again.
    // Every wake is reported by `take_woken` (the broker's leadership
    // watcher looks only at the groups it lists between full scans).
    for id in all {
        cluster.node(id).exec(|ctx| async move {
            ctx.ticker.as_ref().unwrap().take_woken();
        });
    }
    acked.extend(cluster.append_everywhere(&all, 3..6));
    cluster.check_identical(&all, Duration::from_secs(10));
    for id in all {
        let woken = woken_groups(&cluster, id);
        assert_eq!(
            woken,
            groups.iter().copied().collect(),
            "node {id}: woken groups"
        );
    }
    wait_all_quiet(&cluster, &all, 20, Duration::from_secs(10));

    // The node that leads the most groups dies (cut off both ways): the
    // followers of its quiet groups hear no beat and elect new leaders.
    let leaders = cluster.wait_leaders(&all, Duration::from_secs(5));
    let victim = (1..=3u64)
        .max_by_key(|id| leaders.values().filter(|l| *l == id).count())
        .unwrap();
    let survivors: Vec<NodeId> = all.iter().copied().filter(|id| *id != victim).collect();
    for id in all {
        woken_groups(&cluster, id);
    }
    // The survivors stand for the victim's groups in waves of at most two
    // at a time (`MAX_CAMPAIGNS` in a broker).
    for id in &survivors {
        cluster.node(*id).exec(|ctx| async move {
            ctx.ticker.as_ref().unwrap().set_campaign_budget(2);
        });
    }
    let campaigns = |cluster: &Cluster| -> Vec<usize> {
        survivors
            .iter()
            .map(|id| {
                cluster
                    .node(*id)
                    .exec(|ctx| async move { ctx.ticker.as_ref().unwrap().campaigns() })
            })
            .collect()
    };
    cluster.cut.store(victim, Ordering::SeqCst);
    cluster.node(victim).exec(move |ctx| async move {
        ctx.server_stop.borrow().set();
        for p in [1, 2, 3] {
            if p != victim {
                ctx.transport.reset(p);
            }
        }
    });
    let cut_at = Instant::now();
    let mut most = vec![0; survivors.len()];
    let new_leaders = loop {
        for (m, c) in most.iter_mut().zip(campaigns(&cluster)) {
            *m = (*m).max(c);
        }
        if let Some(l) = cluster.leaders(&survivors) {
            break l;
        }
        assert!(
            cut_at.elapsed() < Duration::from_secs(15),
            "no stable leaders on {survivors:?} within 15 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(most.iter().all(|m| *m <= 2), "campaigns at once: {most:?}");
    assert!(
        most.iter().any(|m| *m > 0),
        "the survivors campaigned: {most:?}"
    );
    eprintln!(
        "node {victim} (leader of {} quiet groups) cut: all led again after {:?}",
        leaders.values().filter(|l| **l == victim).count(),
        cut_at.elapsed()
    );
    assert!(new_leaders.values().all(|l| *l != victim));
    // Each survivor reported waking every group the victim led.
    let victims_groups: BTreeSet<GroupId> = leaders
        .iter()
        .filter(|(_, l)| **l == victim)
        .map(|(g, _)| *g)
        .collect();
    for id in &survivors {
        let woken = woken_groups(&cluster, *id);
        assert!(
            woken.is_superset(&victims_groups),
            "node {id}: woke {woken:?}, the victim led {victims_groups:?}"
        );
    }
    acked.extend(cluster.append_everywhere(&survivors, 6..8));
    cluster.check_identical(&survivors, Duration::from_secs(10));
    for id in &survivors {
        cluster.check_acked(*id, &acked);
    }
    // The survivors' groups go quiet again without the dead node (it
    // answers no beats: taken for down after twice `dead_after`), each
    // quiet on its leader and on its one surviving follower.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let counts = quiet_counts(&cluster);
        let leading: usize = survivors.iter().map(|id| counts[*id as usize - 1].0).sum();
        let following: usize = survivors.iter().map(|id| counts[*id as usize - 1].1).sum();
        if leading == 20 && following == 20 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "survivors not quiet without node {victim}: {counts:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The dead node is not in sync: a quiet group's in-sync followers
    // are the one survivor.
    for id in &survivors {
        let isr = cluster.node(*id).exec(|ctx| async move {
            let t = ctx.ticker.clone().unwrap();
            ctx.replicas
                .borrow()
                .keys()
                .filter_map(|g| t.quiet_in_sync(*g, Duration::from_secs(1)))
                .collect::<Vec<_>>()
        });
        assert!(
            isr.iter().all(|f| f.len() == 1 && f[0] != victim),
            "node {id}: {isr:?}"
        );
    }
    // And still take writes (the lease renewed with the one follower).
    acked.extend(cluster.append_everywhere(&survivors, 8..9));
    for id in &survivors {
        cluster.check_acked(*id, &acked);
    }

    // The node comes back (on a new port): it answers beats again, its
    // groups wake on the leaders, catch it up, and go quiet again with it.
    let addr = cluster.node(victim).exec(|ctx| async move {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let a = l.local_addr().unwrap();
        ctx.start_server(l);
        a
    });
    cluster.cut.store(0, Ordering::SeqCst);
    for id in &survivors {
        cluster.node(*id).exec(move |ctx| async move {
            ctx.transport.peers().set(victim, addr);
            ctx.transport.reset(victim);
        });
    }
    cluster.check_identical(&all, Duration::from_secs(20));
    wait_all_quiet(&cluster, &all, 20, Duration::from_secs(15));
    for id in all {
        cluster.check_acked(id, &acked);
    }
    cluster.stop();
}

/// Idle traffic of `TRANSPORT_IDLE_GROUPS` (default 1,000) groups x 3
/// nodes at the default heartbeat interval (200 ms): frames and write
/// calls per second, with each group's own heartbeat timer and with the
/// per-node heartbeat ticker. Run with
/// `cargo test --release -p tidemark-raft --test transport_cluster -- --ignored --nocapture`.
#[test]
#[ignore]
fn idle_heartbeat_traffic_with_and_without_the_ticker() {
    let n: i32 = std::env::var("TRANSPORT_IDLE_GROUPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    for ticking in [Ticking::Own, Ticking::Ticker, Ticking::Quiet] {
        let cluster = Cluster::start(
            &format!("idle-{ticking:?}"),
            ReplicaConfig::default(),
            ticking,
        );
        let t0 = Instant::now();
        cluster.open_groups(&group_ids(n));
        let opened = t0.elapsed();
        let leaders = cluster.wait_leaders(&[1, 2, 3], Duration::from_secs(120));
        let per_node: Vec<usize> = (1..=3)
            .map(|id| leaders.values().filter(|l| **l == id).count())
            .collect();
        std::thread::sleep(Duration::from_secs(3));
        let before = cluster.stats();
        let cpu0 = process_cpu();
        let secs = 10;
        std::thread::sleep(Duration::from_secs(secs));
        let after = cluster.stats();
        let cpu = process_cpu() - cpu0;
        println!(
            "{n} groups x 3 nodes, heartbeats by {} (opened in {opened:?}, leaders per node {per_node:?}):",
            match ticking {
                Ticking::Own => "each group's timer",
                Ticking::Ticker => "the per-node ticker",
                Ticking::Quiet => "the quiescent ticker (idle groups quiet)",
            }
        );
        println!(
            "  process CPU (3 nodes, both sides): {:.0}% of one core",
            cpu.as_secs_f64() * 100.0 / secs as f64
        );
        for (i, (a, b)) in after.iter().zip(&before).enumerate() {
            let d = *a - *b;
            println!(
                "  node {}: {:.0} frames/s sent, {:.0} writes/s, {:.1} frames/write, {:.0} KB/s, {:.0} frames/s received",
                i + 1,
                d.frames_sent as f64 / secs as f64,
                d.writes as f64 / secs as f64,
                d.frames_sent as f64 / d.writes.max(1) as f64,
                d.bytes_written as f64 / secs as f64 / 1000.0,
                d.frames_received as f64 / secs as f64,
            );
        }
        cluster.stop();
    }
}
