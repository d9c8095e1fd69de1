//! Cluster mode: what a shard needs to take part in Raft groups that span
//! brokers.
//!
//! * [`ShardNet`]: the shard's side of the node-to-node transport (one
//!   connection per peer broker from this shard, multiplexing every group
//!   the shard hosts), its table of groups for incoming requests, and its
//!   heartbeat ticker (all its leader groups beat in the same instant, so
//!   N groups' heartbeats to one peer are one write, and idle groups go
//!   quiet: no heartbeats, no ticks, one beat per shard and peer instead;
//!   see `tidemark_raft::transport::HeartbeatTicker`).
//! * [`BrokerRouter`]: incoming Raft requests land on whichever shard
//!   accepted the connection (SO_REUSEPORT); the router hands each to the
//!   shard that owns the group (`owner_shard`, the controller on shard 0).
//! * [`controller`]: the controller Raft group and the metadata state
//!   machine every broker applies.

pub mod controller;
pub mod drain;
pub mod elections;
pub mod leadership;
pub mod placement;
pub mod quorum;
pub mod read_replica;
pub mod reassignment;
pub mod voters;

use std::rc::Rc;
use std::time::Duration;

use bytes::Bytes;
use monoio::net::{ListenerOpts, TcpListener};
use tidemark_raft::transport::{
    BEAT_GROUP, Beat, FailureCode, GroupId, GroupNetwork, Groups, HeartbeatTicker, Peers,
    RaftRequest, RaftResponse, RemoteFailure, Router, Signal, Transport, TransportConfig,
    TransportStats, serve_with,
};
use tidemark_raft::{NodeId, RaftHandle, ReplicaConfig};
use uuid::Uuid;

use crate::config::ClusterConfig;
use crate::metadata::ClusterMetadata;
use crate::shard::{PartitionKey, Shard, owner_shard};

/// The Raft group id of the controller (no topic has the nil id).
pub const CONTROLLER_GROUP: GroupId = GroupId { key: 0, index: 0 };
/// Not a Raft group: the address of leader reports between brokers
/// (`leadership::ReportEntry`), handled on shard 0.
pub const LEADERS_GROUP: GroupId = GroupId { key: 0, index: 1 };
/// Not a Raft group: the address of preferred-leader election requests
/// to a partition leader (`elections::ElectRequest`), handled on shard 0.
pub const ELECTIONS_GROUP: GroupId = GroupId { key: 0, index: 2 };
/// Not a Raft group: the address of transaction markers from a peer's
/// transaction coordinator to the partitions' leader (a WriteTxnMarkers
/// request, `txn::markers`), handled on shard 0.
pub const TXN_MARKERS_GROUP: GroupId = GroupId { key: 0, index: 3 };
/// Not a Raft group: the address of a partition leader's question to a
/// peer's transaction coordinator, whether a producer's ongoing
/// transaction includes a partition (an AddPartitionsToTxn v4 request
/// with `verify_only`, `txn::verify`), handled on shard 0.
pub const TXN_VERIFY_GROUP: GroupId = GroupId { key: 0, index: 4 };

/// Not a Raft group: the address of a share-partition leader's reads and
/// writes of its state at a peer's share coordinator (Kafka's
/// ReadShareGroupState / WriteShareGroupState, `share::coordinator`),
/// handled on shard 0.
pub const SHARE_STATE_GROUP: GroupId = GroupId { key: 0, index: 5 };
/// Not a Raft group: the address of a share-partition leader's
/// dead-letter batches for a dead-letter partition a peer leads (a
/// Produce request, `share::dlq`), handled on shard 0.
pub const SHARE_DLQ_GROUP: GroupId = GroupId { key: 0, index: 6 };

/// Not a Raft group: the address of a broker's DescribeQuorum question
/// to the controller leader (`quorum::serve`), handled on shard 0.
pub const QUORUM_GROUP: GroupId = GroupId { key: 0, index: 7 };

/// Not a Raft group: the address of a broker's reads of a partition a
/// peer leads, for share groups (a Fetch request by topic id,
/// `share::remote_read::serve`): the dead-letter fence's read-back of
/// dead letters a crashed leader wrote but never recorded, and the high
/// watermark behind a share-partition's lag; handled on shard 0.
pub const SHARE_READ_GROUP: GroupId = GroupId { key: 0, index: 8 };

/// Not a Raft group: the address of a broker's question for a peer's own
/// status figures (its topics' counters, its groups and their committed
/// offsets, the high watermarks it leads), so that the admin server's
/// `/v1/topics` and `/v1/groups` answer for the whole cluster
/// (`admin_http::cluster_scope::serve`), handled on shard 0.
pub const ADMIN_STATUS_GROUP: GroupId = GroupId { key: 0, index: 9 };

/// The Raft group id of a partition.
pub fn partition_group(key: &PartitionKey) -> GroupId {
    GroupId {
        key: key.0.as_u128(),
        index: key.1,
    }
}

/// Timing of the partition and controller groups in a cluster.
///
/// A follower starts an election 0.7-1.4 s after its leader lease
/// (openraft: the longest election timeout) has run out since it last
/// heard its leader, and the others refuse to vote until theirs has, so
/// openraft alone replaces a dead leader 2.1-2.8 s after its last
/// heartbeat (the shard's ticker stands sooner: see
/// `HeartbeatTicker::awake_stands`, about 1.5 s). With the
/// 1-2 s of `ReplicaConfig::default` the new leader came 3.3-3.7 s after a
/// kill -9 (conformance cluster tests), too close to the 5 s target once
/// clients find it. Heartbeats every 200 ms leave 3.5 of them per shortest
/// timeout, enough on a busy 2-core machine.
///
/// The shard's `HeartbeatTicker` sends those heartbeats, so openraft's own
/// heartbeat interval (`core_heartbeat_interval`) only sets how long a
/// heartbeat waits for its answer and how often each awake replica ticks:
/// 600 ms, just under the shortest election timeout, lets an answer that
/// a loaded peer sends late still renew the lease, and ticks every
/// ~120 ms instead of ~40 ms (a follower's election starts up to one
/// tick after its timeout). With every one of 10,000 partitions awake on
/// three brokers sharing 2 cores (one write to each), the 40 ms ticks and
/// the heartbeats dropped after 200 ms kept leases lapsing on brokers
/// that were all alive, and the re-elections kept every group awake.
pub fn replica_config() -> ReplicaConfig {
    ReplicaConfig {
        election_timeout_min: Duration::from_millis(700),
        election_timeout_max: Duration::from_millis(1400),
        core_heartbeat_interval: Some(Duration::from_millis(600)),
        ..ReplicaConfig::default()
    }
}

/// How long a peer shard's beats may stop before the quiet groups it
/// leads stand for election here (`HeartbeatTicker::quiescent`): five
/// missed 200 ms beats. It was the longest election timeout (1.4 s),
/// which a quiet group has no reason to wait out: its followers' own
/// openraft leases ran out long ago, so nothing else delays the vote.
/// At 10,000 partitions on three brokers the detection was a fixed
/// 1.2-1.6 s of a kill's 5 s budget, before the ~3,400 elections. Still
/// longer than an awake group's shortest election timeout (0.7 s), so a
/// quiet group is no quicker to depose a slow leader than an awake one.
pub const QUIET_DEAD_AFTER: Duration = Duration::from_millis(1000);

/// One shard's transport, group table and heartbeat ticker.
pub struct ShardNet {
    pub transport: Transport,
    pub groups: Groups,
    pub ticker: Rc<HeartbeatTicker>,
    pub stop: Signal,
    pub stats: Rc<TransportStats>,
}

impl ShardNet {
    /// `shard`: this shard's number (sent in its beats).
    pub fn new(node_id: i32, shard: usize, cluster: &ClusterConfig) -> Self {
        let peers = Peers::new();
        for (id, addr) in &cluster.seeds {
            if *id != node_id {
                peers.set(*id as NodeId, *addr);
            }
        }
        let stats = Rc::new(TransportStats::default());
        let rc = replica_config();
        let ticker = HeartbeatTicker::quiescent(
            rc.heartbeat_interval,
            shard as u32,
            QUIET_DEAD_AFTER,
            rc.election_timeout_max,
        );
        ShardNet {
            transport: Transport::with_stats(
                node_id as NodeId,
                peers,
                TransportConfig::default(),
                stats.clone(),
            ),
            groups: Groups::with_ticker(ticker.clone()),
            ticker,
            stop: Signal::new(),
            stats,
        }
    }

    /// The openraft network of `group` on this shard.
    pub fn network(&self, group: GroupId) -> GroupNetwork {
        self.transport.network(group)
    }

    /// Makes `raft` reachable by peers and lets the ticker beat for it.
    /// Partition groups may go quiet when idle; the controller group may
    /// not (its leader's last-heard times tell which brokers are alive).
    pub fn register(&self, group: GroupId, raft: &RaftHandle) {
        self.groups.insert(group, raft.clone());
        self.ticker.register(group, raft, group != CONTROLLER_GROUP);
    }

    pub fn unregister(&self, group: GroupId) {
        self.groups.remove(group);
        self.ticker.unregister(group);
    }

    /// Learns peers' rpc addresses from the registered brokers.
    pub fn update_peers(&self, me: i32, meta: &ClusterMetadata) {
        for b in meta.brokers.values() {
            if b.id == me {
                continue;
            }
            if let Ok(addr) = b.rpc_addr.parse()
                && self.transport.peers().get(b.id as NodeId) != Some(addr)
            {
                self.transport.peers().set(b.id as NodeId, addr);
            }
        }
    }

    pub fn shutdown(&self) {
        self.stop.set();
        self.transport.shutdown();
    }
}

/// Who may connect to the rpc port over TLS: with an authorizer, a super
/// user or a principal allowed CLUSTER_ACTION on the cluster (Kafka's
/// rule for inter-broker principals); without one, any certificate the
/// truststore vouches for.
fn peer_check(shard: &Rc<Shard>) -> crate::tls::peer::PeerCheck {
    let weak = Rc::downgrade(shard);
    Rc::new(move |principal: &str, ip: std::net::IpAddr| {
        weak.upgrade().is_some_and(|s| {
            crate::acl::request::authorize_now(
                &s,
                principal,
                &ip.to_string(),
                crate::acl::op::CLUSTER_ACTION,
                crate::acl::resource::CLUSTER,
                crate::acl::resource::CLUSTER_NAME,
            )
        })
    })
}

/// Starts the shard's rpc listener, transport server and ticker.
pub fn start(shard: &Rc<Shard>, net: &ShardNet, addr: std::net::SocketAddr) -> Result<(), String> {
    let opts = ListenerOpts::new()
        .reuse_port(true)
        .reuse_addr(true)
        .backlog(1024);
    let listener = TcpListener::bind_with_config(addr, &opts)
        .map_err(|e| format!("cannot listen on --rpc-addr {addr}: {e}"))?;
    let router = Rc::new(BrokerRouter {
        shard: shard.clone(),
    });
    let security = shard
        .ctx
        .peer_tls
        .as_ref()
        .map(|t| t.security(peer_check(shard)));
    net.transport.set_security(security.clone());
    monoio::spawn(serve_with(
        listener,
        router,
        TransportConfig::default(),
        net.stop.clone(),
        net.stats.clone(),
        security,
    ));
    monoio::spawn(
        net.ticker
            .clone()
            .run(Some(net.transport.clone()), net.stop.clone()),
    );
    Ok(())
}

fn failure(code: FailureCode, message: String) -> RaftResponse {
    RaftResponse::Error(RemoteFailure { code, message })
}

/// Delivers incoming requests to the owner shard of their group.
pub struct BrokerRouter {
    shard: Rc<Shard>,
}

/// Delivers `req` on the shard that owns `group` (this one).
async fn deliver_here(
    shard: Rc<Shard>,
    from: NodeId,
    group: GroupId,
    req: RaftRequest,
) -> RaftResponse {
    // A stopping broker keeps answering until its replicas are closed: it
    // must hear the new leaders it handed its leaderships to (controlled
    // shutdown); a closed replica answers GroupNotHere.
    let Some(net) = shard.net() else {
        return failure(FailureCode::Refused, "not in cluster mode".into());
    };
    match req {
        RaftRequest::App(body) if group == CONTROLLER_GROUP => {
            RaftResponse::App(controller::serve_forwarded(&shard, body).await)
        }
        RaftRequest::App(body) if group == LEADERS_GROUP => {
            match leadership::apply_report(&shard, &body) {
                Ok(()) => RaftResponse::App(Bytes::new()),
                Err(e) => failure(FailureCode::Refused, format!("bad leader report: {e}")),
            }
        }
        RaftRequest::App(body) if group == ELECTIONS_GROUP => {
            match elections::serve(&shard, &body).await {
                Ok(b) => RaftResponse::App(b),
                Err(e) => failure(FailureCode::Refused, format!("bad election request: {e}")),
            }
        }
        RaftRequest::App(body) if group == TXN_MARKERS_GROUP => {
            match crate::txn::markers::serve(&shard, body).await {
                Ok(b) => RaftResponse::App(b),
                Err(e) => failure(FailureCode::Refused, format!("bad marker request: {e}")),
            }
        }
        RaftRequest::App(body) if group == TXN_VERIFY_GROUP => {
            match crate::txn::verify::serve(&shard, body).await {
                Ok(b) => RaftResponse::App(b),
                Err(e) => failure(FailureCode::Refused, format!("bad verify request: {e}")),
            }
        }
        RaftRequest::App(body) if group == SHARE_STATE_GROUP => {
            match crate::share::coordinator::serve(&shard, body).await {
                Ok(b) => RaftResponse::App(b),
                Err(e) => failure(
                    FailureCode::Refused,
                    format!("bad share state request: {e}"),
                ),
            }
        }
        RaftRequest::App(body) if group == SHARE_DLQ_GROUP => {
            match crate::share::dlq::serve(&shard, body).await {
                Ok(b) => RaftResponse::App(b),
                Err(e) => failure(
                    FailureCode::Refused,
                    format!("bad dead-letter request: {e}"),
                ),
            }
        }
        RaftRequest::App(body) if group == SHARE_READ_GROUP => {
            match crate::share::remote_read::serve(&shard, body).await {
                Ok(b) => RaftResponse::App(b),
                Err(e) => failure(
                    FailureCode::Refused,
                    format!("bad partition read request: {e}"),
                ),
            }
        }
        RaftRequest::App(_) if group == QUORUM_GROUP => match quorum::serve(&shard).await {
            Ok(b) => RaftResponse::App(b),
            Err(e) => failure(FailureCode::Refused, e),
        },
        RaftRequest::App(body) if group == ADMIN_STATUS_GROUP => {
            match crate::admin_http::cluster_scope::serve(&shard, body).await {
                Ok(b) => RaftResponse::App(b),
                Err(e) => failure(FailureCode::Refused, e.to_string()),
            }
        }
        RaftRequest::App(_) => failure(
            FailureCode::Refused,
            format!("no application calls for group {group}"),
        ),
        // A follower resetting its log copies this replica's.
        RaftRequest::ReadLog {
            from,
            until,
            max_bytes,
        } => {
            let key = (Uuid::from_u128(group.key), group.index);
            let Some(part) = shard.partition(&key) else {
                return failure(
                    FailureCode::GroupNotHere,
                    format!("group {group} is not on this node"),
                );
            };
            match part
                .replica()
                .read_for_reset(from, until, (max_bytes as usize).min(8 << 20))
                .await
            {
                Ok(b) => RaftResponse::Log(b),
                Err(e) => failure(FailureCode::Refused, format!("reading {group}: {e}")),
            }
        }
        // A replica that started empty votes only for candidates whose log
        // reaches what was committed (see `PartitionReplica::may_grant_vote`).
        RaftRequest::Vote(v) | RaftRequest::PreVote(v)
            if !may_grant_vote(
                &shard,
                group,
                v.last_log_id.map(|l| (l.leader_id.term, l.index)),
            ) =>
        {
            failure(
                FailureCode::Refused,
                format!(
                    "the replica of {group} here lost its log, and the candidate's log does not reach what was committed"
                ),
            )
        }
        req => net.groups.deliver(from, group, req).await,
    }
}

/// Whether this broker's replica of `group` may vote for a candidate
/// whose log ends at `candidate_last` (a wiped replica may not until it
/// has caught up).
fn may_grant_vote(shard: &Shard, group: GroupId, candidate_last: Option<(u64, u64)>) -> bool {
    if group == CONTROLLER_GROUP {
        return shard
            .controller()
            .is_none_or(|c| c.may_grant_vote(candidate_last));
    }
    let key = (Uuid::from_u128(group.key), group.index);
    shard
        .partition(&key)
        .is_none_or(|p| p.may_grant_vote(candidate_last))
}

/// A peer shard's beat, handed to every shard here with the groups it
/// owns (each shard also learns that the sender is alive, and wakes its
/// quiet followers of the sender that are no longer listed). Answers the
/// groups no shard could quiet.
async fn fan_out_beat(shard: &Rc<Shard>, from: NodeId, beat: Beat) -> RaftResponse {
    let count = shard.shard_count();
    let mut parts: Vec<Beat> = (0..count)
        .map(|_| Beat {
            shard: beat.shard,
            groups: Vec::new(),
        })
        .collect();
    for q in beat.groups {
        let target = owner_shard(Uuid::from_u128(q.group.key), q.group.index, count);
        parts[target].groups.push(q);
    }
    let mut refused = Vec::new();
    for (target, part) in parts.into_iter().enumerate() {
        let answer = if target == shard.id {
            beat_here(shard.clone(), from, part).await
        } else {
            match shard
                .submit_to(target, move |s| beat_here(s, from, part))
                .await
            {
                Ok(r) => r,
                Err(_) => return failure(FailureCode::Refused, "broker is shutting down".into()),
            }
        };
        match answer {
            RaftResponse::Beat(r) => refused.extend(r),
            other => return other,
        }
    }
    RaftResponse::Beat(refused)
}

async fn beat_here(shard: Rc<Shard>, from: NodeId, beat: Beat) -> RaftResponse {
    match shard.net() {
        Some(net) => {
            net.groups
                .deliver(from, BEAT_GROUP, RaftRequest::Beat(beat))
                .await
        }
        None => failure(FailureCode::Refused, "not in cluster mode".into()),
    }
}

impl Router for BrokerRouter {
    async fn deliver(&self, from: NodeId, group: GroupId, req: RaftRequest) -> RaftResponse {
        if let RaftRequest::Beat(beat) = req {
            return fan_out_beat(&self.shard, from, beat).await;
        }
        // Group key 0 (no topic has the nil id): the controller's groups.
        let target = if group.key == 0 {
            0
        } else {
            owner_shard(
                Uuid::from_u128(group.key),
                group.index,
                self.shard.shard_count(),
            )
        };
        if target == self.shard.id {
            return deliver_here(self.shard.clone(), from, group, req).await;
        }
        match self
            .shard
            .submit_to(target, move |s| deliver_here(s, from, group, req))
            .await
        {
            Ok(r) => r,
            Err(_) => failure(FailureCode::Refused, "broker is shutting down".into()),
        }
    }
}

/// Calls the broker's own RPC `body` on node `target`'s controller group.
pub async fn call_app(
    net: &ShardNet,
    target: i32,
    body: Bytes,
    ttl: Duration,
) -> Result<Bytes, String> {
    call_group(net, target, CONTROLLER_GROUP, body, ttl).await
}

/// Calls the broker's own RPC `body` at address `group` of node `target`.
pub async fn call_group(
    net: &ShardNet,
    target: i32,
    group: GroupId,
    body: Bytes,
    ttl: Duration,
) -> Result<Bytes, String> {
    match net
        .transport
        .call(target as NodeId, group, RaftRequest::App(body), ttl)
        .await
    {
        Ok(RaftResponse::App(b)) => Ok(b),
        Ok(other) => Err(format!("unexpected answer {other:?}")),
        Err(e) => Err(e.to_string()),
    }
}
