//! The controller: a Raft group over the `--seeds` voters whose log holds
//! the cluster metadata as commands ([`Command`]: brokers, topics and
//! their replica assignments, configs, producer-id blocks), one JSON
//! record per batch.
//!
//! Every broker runs the group's replica on shard 0 and applies the
//! committed commands in log order to its [`MetadataState`] (so all
//! brokers hold the same metadata), then hands the new snapshot to its
//! shards and opens or closes its partition replicas to match
//! ([`reconcile`]). The state is rebuilt from the log at every start; the
//! log is small (metadata only) and never truncated.
//!
//! A change is proposed on the controller leader: the proposer appends it,
//! waits for it to be applied and returns its outcome (a refusal, such as
//! "topic exists", is decided by `apply` on every broker alike). A broker
//! that is not the leader forwards the command over the transport
//! (`RaftRequest::App`) and then waits until its own state has applied the
//! same offset, so a client that created a topic sees it on that broker.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use kafka_protocol::ErrorCode;
use kafka_protocol::records::{NewRecord, RecordBatch, RecordBatchBuilder};
use serde::{Deserialize, Serialize};
use tidemark_raft::{NodeId, PartitionReplica};
use tidemark_storage::LogConfig;
use tracing::{debug, info, warn};

use super::{CONTROLLER_GROUP, ShardNet, replica_config};
use crate::metadata::{
    BrokerMeta, Changes, ClusterMetadata, Command, MetadataState, Outcome, Refused, TopicMeta,
};
use crate::notify::LocalNotify;
use crate::shard::{Shard, owner_shard};
use crate::topics::ApiError;

/// How long a metadata change may take before the client hears
/// REQUEST_TIMED_OUT (no controller leader, no quorum).
const SUBMIT_TIMEOUT: Duration = Duration::from_secs(15);
/// Producer ids reserved per controller write.
const PRODUCER_ID_BLOCK: i64 = 1000;
/// Outcomes of recently applied commands kept for their proposers.
const RESULTS_KEPT: usize = 4096;

/// The controller replica and the applied metadata state (shard 0).
pub struct Controller {
    replica: Rc<PartitionReplica>,
    net: Rc<ShardNet>,
    node: i32,
    /// The controller voters (`--seeds`).
    seeds: Vec<i32>,
    /// Round-robin over the seeds while no leader is known (a joining
    /// broker, before the leader added it).
    attempt: Cell<usize>,
    state: RefCell<MetadataState>,
    /// The next log offset to apply.
    applied: Cell<i64>,
    /// A round has reconciled the replicas since the start (the first
    /// looks at every topic, later ones at what changed).
    reconciled: Cell<bool>,
    results: RefCell<VecDeque<(i64, Result<Outcome, Refused>)>>,
    applied_notify: LocalNotify,
    /// One local proposal at a time (so a proposal's checks hold until it
    /// is applied).
    propose_lock: futures_util::lock::Mutex<()>,
    /// This broker's block of producer ids: `(next, end)`.
    producer_ids: futures_util::lock::Mutex<(i64, i64)>,
}

#[derive(Serialize, Deserialize)]
struct Forward {
    cmd: Command,
}

#[derive(Serialize, Deserialize)]
struct ForwardReply {
    result: Result<(Outcome, i64), Refused>,
    /// When refused as not the leader: the leader the receiver knows.
    #[serde(default)]
    leader: Option<i32>,
}

fn not_controller(msg: impl Into<String>) -> Refused {
    Refused {
        code: ErrorCode::NotController.code(),
        message: msg.into(),
    }
}

fn to_api(r: Refused) -> ApiError {
    (
        ErrorCode::from_code(r.code).unwrap_or(ErrorCode::UnknownServerError),
        r.message,
    )
}

impl Controller {
    /// Opens the controller replica in `DATA/controller` (voters: the
    /// seeds) and starts applying its log.
    pub async fn open(s0: &Rc<Shard>, net: Rc<ShardNet>) -> Result<Rc<Self>, String> {
        let cfg = &s0.ctx.config;
        let cluster = cfg.cluster.as_ref().ok_or("not in cluster mode")?;
        let node = cfg.node_id;
        // A broker that is not a seed joins as a learner: it registers
        // through a seed and the controller leader adds it to the group.
        let voters = if cluster.is_voter(node) {
            cluster.seeds.iter().map(|(id, _)| *id as NodeId).collect()
        } else {
            std::collections::BTreeSet::new()
        };
        let replica = PartitionReplica::open(
            cfg.data_dir.join("controller"),
            LogConfig::default(),
            node as NodeId,
            voters,
            net.network(CONTROLLER_GROUP),
            replica_config(),
        )
        .await
        .map_err(|e| format!("cannot open the controller log: {e}"))?;
        if let Some(raft) = replica.raft() {
            net.register(CONTROLLER_GROUP, &raft);
        }
        let c = Rc::new(Controller {
            replica,
            net,
            node,
            seeds: cluster.seeds.iter().map(|(id, _)| *id).collect(),
            attempt: Cell::new(0),
            state: RefCell::new(MetadataState::new(cfg.settings.clone(), node)),
            applied: Cell::new(0),
            reconciled: Cell::new(false),
            results: RefCell::default(),
            applied_notify: LocalNotify::default(),
            propose_lock: futures_util::lock::Mutex::new(()),
            producer_ids: futures_util::lock::Mutex::new((0, 0)),
        });
        Ok(c)
    }

    /// See `PartitionReplica::may_grant_vote`.
    pub fn may_grant_vote(&self, candidate_last: Option<(u64, u64)>) -> bool {
        self.replica.may_grant_vote(candidate_last)
    }

    /// The controller leader this broker knows of.
    pub fn leader(&self) -> Option<i32> {
        self.replica.leader_id().map(|l| l as i32)
    }

    pub fn snapshot(&self) -> ClusterMetadata {
        self.state.borrow().snapshot()
    }

    /// Controlled shutdown: hands the controller leadership to another
    /// voter that is in sync (at most 3 s; see `leadership::hand_over`).
    pub async fn hand_off(&self) {
        if !self.replica.is_leader() {
            return;
        }
        let Some(isr) = self.replica.in_sync_replicas(Duration::from_secs(2)) else {
            return;
        };
        let others = isr
            .into_iter()
            .filter(|n| *n != self.node as NodeId)
            .collect();
        crate::cluster::leadership::hand_over(
            vec![(self.replica.clone(), others)],
            Duration::from_secs(3),
        )
        .await;
    }

    pub async fn close(&self) {
        self.net.unregister(CONTROLLER_GROUP);
        if let Err(e) = self.replica.close().await {
            warn!(error = %e, "closing the controller log failed");
        }
    }

    /// Applies what the log committed, forever (until the shard stops):
    /// each round publishes the new snapshot and reconciles partitions.
    pub async fn run(self: Rc<Self>, s0: Rc<Shard>) {
        let mut idle_rounds: u64 = 0;
        loop {
            if s0.is_stopping() {
                return;
            }
            let synced = self.replica.is_synced();
            let hw = self.replica.high_watermark();
            // Caught up: the log holds what a leader had committed when
            // this replica (re)started (at once for one that kept its
            // data), and all of it that is known committed is applied and
            // published (the previous round published it).
            if synced && self.applied.get() >= hw {
                s0.ctx
                    .metadata_caught_up
                    .store(true, std::sync::atomic::Ordering::Release);
            }
            if self.applied.get() >= hw {
                idle_rounds += 1;
                // A new leader adds brokers that registered under an old
                // one but were not added before it died.
                if idle_rounds.is_multiple_of(200) {
                    self.add_learners().await;
                }
                monoio::select! {
                    _ = monoio::time::sleep(Duration::from_millis(5)) => {}
                    _ = s0.stopping() => return,
                }
                continue;
            }
            let old = s0.metadata();
            match self.apply_up_to(hw).await {
                Ok(()) => {}
                Err(e) => {
                    warn!(error = %e, "reading the controller log failed");
                    monoio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            }
            let changes = self.state.borrow_mut().take_changes();
            let new = Arc::new(self.snapshot());
            publish(&s0, new.clone()).await;
            self.add_learners().await;
            // The first round after a start looks at every topic (`old`
            // is the empty metadata the shards started with).
            let first = !self.reconciled.replace(true);
            reconcile(&s0, &old, &new, (!first).then_some(&changes)).await;
            self.applied_notify.notify_all();
        }
    }

    async fn apply_up_to(&self, hw: i64) -> Result<(), String> {
        while self.applied.get() < hw {
            let r = self
                .replica
                .log()
                .read(self.applied.get(), 1 << 20, Some(hw))
                .await
                .map_err(|e| e.to_string())?;
            if r.batches.is_empty() {
                return Err(format!("no batch at offset {}", self.applied.get()));
            }
            for b in r.batches {
                let batch = RecordBatch::new(b).map_err(|e| e.to_string())?;
                let base = batch.base_offset();
                for rec in batch.records().map_err(|e| e.to_string())? {
                    let rec = rec.map_err(|e| e.to_string())?;
                    let offset = base + i64::from(rec.offset_delta());
                    let result = match rec.value().map(|v| serde_json::from_slice::<Command>(v)) {
                        Some(Ok(cmd)) => self.state.borrow_mut().apply(&cmd),
                        // A record this build cannot read (a newer
                        // broker's command): skipped on every broker of
                        // this version alike.
                        other => {
                            warn!(offset, ?other, "unreadable controller record skipped");
                            Err(Refused {
                                code: ErrorCode::UnknownServerError.code(),
                                message: "unreadable metadata command".into(),
                            })
                        }
                    };
                    let mut res = self.results.borrow_mut();
                    res.push_back((offset, result));
                    while res.len() > RESULTS_KEPT {
                        res.pop_front();
                    }
                }
                self.applied.set(batch.last_offset() + 1);
            }
        }
        Ok(())
    }

    /// Waits until the state has applied everything below `offset`.
    async fn wait_applied(&self, offset: i64, deadline: Instant) -> Result<(), Refused> {
        while self.applied.get() < offset {
            let n = self.applied_notify.notified();
            if self.applied.get() >= offset {
                break;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Refused {
                    code: ErrorCode::RequestTimedOut.code(),
                    message: "the metadata change was not applied in time".into(),
                });
            }
            let _ = monoio::time::timeout(left.min(Duration::from_millis(100)), n).await;
        }
        Ok(())
    }

    /// Appends `cmd` as the leader and returns its outcome and offset once
    /// applied here.
    async fn propose_local(&self, cmd: &Command) -> Result<(Outcome, i64), Refused> {
        let _guard = self.propose_lock.lock().await;
        if !self.replica.is_leader() {
            return Err(not_controller("not the controller leader"));
        }
        let value = serde_json::to_vec(cmd).map_err(|e| Refused {
            code: ErrorCode::UnknownServerError.code(),
            message: e.to_string(),
        })?;
        let batch = RecordBatchBuilder::new()
            .record(NewRecord::new(Bytes::from(value)).with_timestamp(crate::partition::now_ms()))
            .build()
            .map_err(|e| Refused {
                code: ErrorCode::UnknownServerError.code(),
                message: e.to_string(),
            })?;
        let info = self
            .replica
            .append(BytesMut::from(&batch[..]), None)
            .await
            .map_err(|e| not_controller(e.to_string()))?;
        let offset = info.base_offset;
        self.wait_applied(offset + 1, Instant::now() + SUBMIT_TIMEOUT)
            .await?;
        let result = self
            .results
            .borrow()
            .iter()
            .rev()
            .find(|(o, _)| *o == offset)
            .map(|(_, r)| r.clone());
        match result {
            Some(r) => r.map(|o| (o, offset)),
            None => Err(Refused {
                code: ErrorCode::UnknownServerError.code(),
                message: "the outcome of the change was lost".into(),
            }),
        }
    }

    /// Runs `cmd` through the controller leader (here or forwarded) and
    /// returns once this broker has applied it.
    pub async fn submit(&self, cmd: Command) -> Result<Outcome, ApiError> {
        let deadline = Instant::now() + SUBMIT_TIMEOUT;
        let mut hint: Option<i32> = None;
        loop {
            let target = self.leader().or(hint.take()).or_else(|| {
                // No leader known (a broker joining as a learner): ask
                // the seeds in turn; one that is not the leader names it.
                let others: Vec<i32> = self
                    .seeds
                    .iter()
                    .copied()
                    .filter(|s| *s != self.node)
                    .collect();
                let i = self.attempt.get();
                self.attempt.set(i + 1);
                others.get(i % others.len().max(1)).copied()
            });
            let attempt = match target {
                Some(l) if l == self.node => self.propose_local(&cmd).await,
                Some(l) => match self.forward(l, &cmd, deadline).await {
                    Err((r, leader)) => {
                        hint = leader.filter(|h| *h != l);
                        Err(r)
                    }
                    Ok(x) => Ok(x),
                },
                None => Err(not_controller("no controller leader yet")),
            };
            match attempt {
                Ok((out, offset)) => {
                    self.wait_applied(offset + 1, deadline)
                        .await
                        .map_err(to_api)?;
                    return Ok(out);
                }
                Err(r)
                    if r.code == ErrorCode::NotController.code() && Instant::now() < deadline =>
                {
                    monoio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(r) if r.code == ErrorCode::NotController.code() => {
                    return Err((
                        ErrorCode::RequestTimedOut,
                        format!("no controller quorum to apply the change: {}", r.message),
                    ));
                }
                Err(r) => return Err(to_api(r)),
            }
        }
    }

    /// Sends `cmd` to `leader`; on refusal, also the leader it names.
    async fn forward(
        &self,
        leader: i32,
        cmd: &Command,
        deadline: Instant,
    ) -> Result<(Outcome, i64), (Refused, Option<i32>)> {
        let body = serde_json::to_vec(&Forward { cmd: cmd.clone() })
            .map_err(|e| (not_controller(e.to_string()), None))?;
        let ttl = deadline
            .saturating_duration_since(Instant::now())
            .clamp(Duration::from_millis(100), Duration::from_secs(5));
        let reply = super::call_app(&self.net, leader, Bytes::from(body), ttl)
            .await
            .map_err(|e| (not_controller(format!("controller {leader}: {e}")), None))?;
        let reply = serde_json::from_slice::<ForwardReply>(&reply).map_err(|e| {
            (
                not_controller(format!("controller {leader} answered badly: {e}")),
                None,
            )
        })?;
        reply.result.map_err(|r| (r, reply.leader))
    }

    /// On the controller leader, every second: fences the brokers it has
    /// not heard from within `broker.session.timeout.ms` and unfences the
    /// fenced ones it hears from again (KRaft's broker heartbeats; here
    /// they are the acknowledgements each broker sends for the metadata
    /// log it replicates as a member of the controller group). A new
    /// leader gives every broker a whole session before fencing it.
    pub async fn fence_dead_brokers(self: Rc<Self>, s0: Rc<Shard>) {
        let mut leading_since: Option<Instant> = None;
        loop {
            monoio::select! {
                _ = monoio::time::sleep(Duration::from_secs(1)) => {}
                _ = s0.stopping() => return,
            }
            let Some(heard) = self.replica.last_heard() else {
                leading_since = None;
                continue;
            };
            let since = *leading_since.get_or_insert_with(Instant::now);
            let meta = s0.metadata();
            let session =
                Duration::from_millis(meta.settings.i64("broker.session.timeout.ms").max(1) as u64);
            let changes: Vec<(i32, bool)> = meta
                .brokers
                .values()
                .filter_map(|b| {
                    let alive = b.id == self.node
                        || match heard.get(&(b.id as NodeId)) {
                            Some(Some(ago)) => *ago <= session,
                            _ => since.elapsed() <= session,
                        };
                    (alive == b.fenced).then_some((b.id, !alive))
                })
                .collect();
            for (id, fenced) in changes {
                if fenced {
                    warn!(
                        node = id,
                        ?session,
                        "broker not heard from within its session: fenced"
                    );
                } else {
                    info!(node = id, "broker heard from again: unfenced");
                }
                if let Err(e) = self.submit(Command::FenceBroker { id, fenced }).await {
                    debug!(node = id, error = %e.1, "fencing change not applied; retried");
                }
            }
        }
    }

    /// On the leader: makes every registered broker that is not yet in
    /// the group a learner, so that it receives the metadata log.
    async fn add_learners(&self) {
        if !self.replica.is_leader() {
            return;
        }
        let members = self.replica.members();
        let brokers = self.state.borrow().broker_ids();
        for b in brokers {
            if !members.contains(&(b as NodeId)) {
                match self.replica.add_learner(b as NodeId).await {
                    Ok(()) => info!(
                        node = b,
                        "broker added to the controller group as a learner"
                    ),
                    Err(e) => {
                        warn!(node = b, error = %e, "cannot add a broker as a controller learner")
                    }
                }
            }
        }
    }

    /// A producer id no broker has handed out: from this broker's block,
    /// reserving a new block through the controller when it is used up.
    pub async fn allocate_producer_id(&self) -> Result<i64, ApiError> {
        let mut ids = self.producer_ids.lock().await;
        if ids.0 >= ids.1 {
            match self
                .submit(Command::ReserveProducerIds {
                    count: PRODUCER_ID_BLOCK,
                })
                .await?
            {
                Outcome::ProducerIds { first } => *ids = (first, first + PRODUCER_ID_BLOCK),
                other => {
                    return Err((
                        ErrorCode::UnknownServerError,
                        format!("unexpected outcome {other:?}"),
                    ));
                }
            }
        }
        let id = ids.0;
        ids.0 += 1;
        Ok(id)
    }

    /// Registers this broker (and, first, a cluster id if the cluster has
    /// none), retrying until it is applied or the shard stops.
    pub async fn register(self: Rc<Self>, s0: Rc<Shard>, me: BrokerMeta) {
        let cluster_id = crate::metadata::new_cluster_id();
        // Only the seeds name the cluster; a joining broker learns the id
        // from the log once the leader has added it.
        let mut wrote_id = !self.seeds.contains(&self.node);
        while !s0.is_stopping() {
            if !wrote_id {
                if self.state.borrow().cluster_id().is_empty() {
                    match self
                        .submit(Command::InitCluster {
                            cluster_id: cluster_id.clone(),
                        })
                        .await
                    {
                        Ok(_) => wrote_id = true,
                        Err(e) => {
                            info!(error = %e.1, "waiting for the controller quorum");
                            continue;
                        }
                    }
                } else {
                    wrote_id = true;
                }
            }
            match self
                .submit(Command::RegisterBroker { broker: me.clone() })
                .await
            {
                Ok(_) => {
                    info!(node = me.id, "registered with the controller");
                    return;
                }
                Err(e) => info!(error = %e.1, "registration with the controller failed; retrying"),
            }
        }
    }
}

/// Answers a command forwarded by another broker (on shard 0).
pub async fn serve_forwarded(s0: &Rc<Shard>, body: Bytes) -> Bytes {
    let leader = s0.controller().and_then(|c| c.leader());
    let result = match (s0.controller(), serde_json::from_slice::<Forward>(&body)) {
        (Some(c), Ok(f)) => c.propose_local(&f.cmd).await,
        (None, _) => Err(not_controller("the controller is not running here")),
        (_, Err(e)) => Err(Refused {
            code: ErrorCode::InvalidRequest.code(),
            message: format!("bad forwarded command: {e}"),
        }),
    };
    Bytes::from(serde_json::to_vec(&ForwardReply { result, leader }).unwrap_or_default())
}

/// Runs `cmd` through the controller of this cluster-mode broker (any
/// shard).
pub async fn submit(shard: &Rc<Shard>, cmd: Command) -> Result<Outcome, ApiError> {
    shard
        .submit_to(0, move |s0| async move {
            match s0.controller() {
                Some(c) => c.submit(cmd).await,
                None => Err((
                    ErrorCode::NotController,
                    "the controller is not running".to_string(),
                )),
            }
        })
        .await
        .unwrap_or_else(|_| {
            Err((
                ErrorCode::KafkaStorageError,
                "broker is shutting down".into(),
            ))
        })
}

/// Hands every shard the new snapshot (and the peers' addresses).
async fn publish(s0: &Rc<Shard>, snap: Arc<ClusterMetadata>) {
    for i in 0..s0.shard_count() {
        let snap = snap.clone();
        let _ = s0
            .submit_to(i, move |s| async move {
                if let Some(net) = s.net() {
                    net.update_peers(s.ctx.config.node_id, &snap);
                }
                s.set_metadata(snap);
            })
            .await;
    }
}

/// Closes this broker's replica of partition `p` of topic `id` (on its
/// owner shard) and deletes its folder.
async fn remove_replica(s0: &Rc<Shard>, id: uuid::Uuid, name: &str, p: i32) {
    let owner = owner_shard(id, p, s0.shard_count());
    let name = name.to_string();
    let _ = s0
        .submit_to(owner, move |s| async move {
            crate::topics::remove_partition(&s, &name, id, p).await;
        })
        .await;
}

/// Makes this broker's replicas match the metadata: opens the partitions
/// assigned to it (on their owner shards), closes and removes those of
/// deleted topics, reopens those whose configs changed. `changes` names
/// the topics the applied commands touched (and whether the dynamic
/// settings changed): only those are looked at, so a change costs the
/// same with 50,000 topics as with 50. `None` (the first round after a
/// start) looks at every topic.
pub async fn reconcile(
    s0: &Rc<Shard>,
    old: &ClusterMetadata,
    new: &Arc<ClusterMetadata>,
    changes: Option<&Changes>,
) {
    let node = s0.ctx.config.node_id;
    let ids: BTreeSet<uuid::Uuid> = match changes {
        Some(c) => c.topics.clone(),
        None => old
            .by_id
            .keys()
            .chain(new.by_id.keys())
            .chain(new.deleted_topics.keys())
            .copied()
            .collect(),
    };
    // Deleted topics.
    for id in &ids {
        if let (Some(t), None) = (old.topic_by_id(id), new.topic_by_id(id)) {
            for p in 0..t.partitions {
                if t.hosted_by(p, node) {
                    remove_replica(s0, t.id, &t.name, p).await;
                }
            }
        }
    }
    // Topics deleted while this broker was down: replaying the controller
    // log, it may apply a topic's creation and deletion in one round (so
    // `old` never had it) while its folders are still on disk.
    for id in &ids {
        if old.deleted_topics.contains_key(id) || old.topic_by_id(id).is_some() {
            continue;
        }
        let Some((name, partitions)) = new.deleted_topics.get(id) else {
            continue;
        };
        for p in 0..*partitions {
            let dir = crate::partition::log_dir(&s0.ctx.config.data_dir, name, *id, p);
            if !dir.exists() {
                continue;
            }
            info!(topic = %name, partition = p, "removing the replica of a topic deleted while this broker was down");
            remove_replica(s0, *id, name, p).await;
        }
    }
    // The topics that exist now among those looked at.
    let present: Vec<Arc<TopicMeta>> = ids
        .iter()
        .filter_map(|id| new.by_id.get(id).and_then(|n| new.topics.get(n)).cloned())
        .collect();
    // Replicas moved off this broker by a finished (or cancelled)
    // reassignment: the partition's Raft group no longer counts on them.
    for t in &present {
        let Some(o) = old.topic_by_id(&t.id) else {
            continue;
        };
        for p in 0..o.partitions.min(t.partitions) {
            if o.hosted_by(p, node) && !t.hosted_by(p, node) {
                info!(topic = %t.name, partition = p, "removing the replica of a partition reassigned away from this broker");
                remove_replica(s0, t.id, &t.name, p).await;
            }
        }
    }
    // Changed configs (topic or broker-wide): reopen with the new ones. A
    // settings change concerns every topic.
    let settings_changed = old.settings != new.settings;
    if settings_changed {
        for t in new.topics.values() {
            if old.topic_by_id(&t.id).is_some() {
                crate::topics::reconfigure_topic(s0, t).await;
            }
        }
    } else {
        for t in &present {
            if let Some(o) = old.topic_by_id(&t.id)
                && o.configs != t.configs
            {
                crate::topics::reconfigure_topic(s0, t).await;
            }
        }
    }
    // Open what is missing, shard by shard.
    let present = Arc::new(present);
    for target in 0..s0.shard_count() {
        let topics = present.clone();
        let _ = s0
            .submit_to(target, move |s| async move {
                let node = s.ctx.config.node_id;
                let mut opened: BTreeMap<String, i32> = BTreeMap::new();
                // New replicas are written without an fsync each; one
                // syncfs below makes the batch durable (see
                // `OpenOptions::defer_sync`: votes and appends after the
                // open are durable as usual).
                let opts = tidemark_raft::OpenOptions {
                    defer_sync: true,
                    hibernate: false,
                };
                for t in topics.iter() {
                    for p in 0..t.partitions {
                        if owner_shard(t.id, p, s.shard_count()) != s.id
                            || !t.hosted_by(p, node)
                            || s.partition(&(t.id, p)).is_some()
                        {
                            continue;
                        }
                        match crate::topics::open_partition_with(&s, t, p, opts).await {
                            Ok(()) => *opened.entry(t.name.clone()).or_default() += 1,
                            Err(e) => {
                                tracing::error!(topic = %t.name, partition = p, error = %e, "cannot open a partition replica")
                            }
                        }
                    }
                }
                if !opened.is_empty()
                    && let Err(e) = tidemark_storage::sync_filesystem(&s.ctx.config.data_dir)
                {
                    tracing::error!(error = %e, "cannot make new partition replicas durable");
                }
                for (topic, n) in opened {
                    info!(%topic, partitions = n, shard = s.id, "replicas opened");
                }
            })
            .await;
    }
}
