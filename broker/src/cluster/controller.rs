//! The controller: a Raft group over the `--seeds` voters whose log holds
//! the cluster metadata as commands ([`Command`]: brokers, topics and
//! their replica assignments, configs, producer-id blocks), one JSON
//! record per batch.
//!
//! Every broker runs the group's replica on shard 0 and applies the
//! committed commands in log order to its [`MetadataState`] (so all
//! brokers hold the same metadata), then hands the new snapshot to its
//! shards and opens or closes its partition replicas to match
//! ([`reconcile`]). A snapshot of the applied state (`metadata.snapshot`
//! next to the log, written every so many applied log bytes and at a
//! clean stop) is loaded at start, and only the log after it is applied;
//! the log itself is never truncated (a new broker replays it whole).
//!
//! A change is proposed on the controller leader: the proposer appends it,
//! waits for it to be applied and returns its outcome (a refusal, such as
//! "topic exists", is decided by `apply` on every broker alike). A broker
//! that is not the leader forwards the command over the transport
//! (`RaftRequest::App`) and then waits until its own state has applied the
//! same offset, so a client that created a topic sees it on that broker.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
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
use crate::settings::Settings;
use crate::shard::{Shard, owner_shard};
use crate::topics::ApiError;

/// How long a metadata change may take before the client hears
/// REQUEST_TIMED_OUT (no controller leader, no quorum).
const SUBMIT_TIMEOUT: Duration = Duration::from_secs(15);
/// Producer ids reserved per controller write.
const PRODUCER_ID_BLOCK: i64 = 1000;
/// Outcomes of recently applied commands kept for their proposers.
const RESULTS_KEPT: usize = 4096;
/// The controller snapshot, in `DATA/controller` next to the log.
const SNAPSHOT_FILE: &str = "metadata.snapshot";
/// A new snapshot is written once the controller log applied since the
/// last one is larger than this and than the last snapshot: a start-up
/// then replays at most about a snapshot's worth of log, and writing
/// snapshots costs O(1) per logged byte (not O(state) per change).
const SNAPSHOT_MIN_LOG_BYTES: u64 = 256 << 10;
/// A learner that held the whole controller log within this long may
/// replace a voter that leaves (as for a partition's new replica).
const VOTER_CAUGHT_UP: Duration = Duration::from_secs(2);
/// How long the controller leader's fencing loop waits for a voter
/// change to commit before going on (it asks again a second later).
const VOTER_CHANGE_TIMEOUT: Duration = Duration::from_secs(5);

/// A reconcile round: the metadata before, after, and what changed
/// (`None`: look at every topic).
type ReconcileRound = (Arc<ClusterMetadata>, Arc<ClusterMetadata>, Option<Changes>);

/// A snapshot being written: its size once written, or why not.
type SnapshotJob = std::thread::JoinHandle<Result<u64, String>>;

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
    /// Reconcile rounds not started yet, merged (see
    /// [`Controller::queue_reconcile`]).
    pending_reconcile: RefCell<Option<ReconcileRound>>,
    reconcile_notify: LocalNotify,
    /// `DATA/controller/metadata.snapshot`.
    snapshot_path: PathBuf,
    /// The offset the last snapshot (written or loaded) was taken at.
    snapshot_offset: Cell<i64>,
    /// The size of the last snapshot.
    snapshot_bytes: Cell<u64>,
    /// Controller log bytes applied since the last snapshot was taken.
    applied_bytes_since_snapshot: Cell<u64>,
    /// The snapshot being written (off the shard's thread), with its
    /// offset.
    snapshot_job: RefCell<Option<(i64, SnapshotJob)>>,
    results: RefCell<VecDeque<(i64, Result<Outcome, Refused>)>>,
    applied_notify: LocalNotify,
    /// One local proposal at a time (so a proposal's checks hold until it
    /// is applied).
    propose_lock: futures_util::lock::Mutex<()>,
    /// This broker's block of producer ids: `(next, end)`.
    producer_ids: futures_util::lock::Mutex<(i64, i64)>,
    /// The decommissioned broker last warned about as the only voter
    /// (the warning is said once, not at every pass).
    last_voter_warned: Cell<Option<i32>>,
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
        // The latest snapshot, if there is a valid one: only the log after
        // it is applied.
        let snapshot_path = cfg.data_dir.join("controller").join(SNAPSHOT_FILE);
        let loaded = load_snapshot(&snapshot_path, cfg.settings.clone(), node);
        let (snapshot_bytes, loaded) = match loaded {
            Some((state, applied, bytes)) => {
                info!(
                    offset = applied,
                    topics = state.topic_count(),
                    bytes,
                    "controller state loaded from its snapshot; applying the log after it"
                );
                (bytes, Some((state, applied)))
            }
            None => (0, None),
        };
        let (state, applied) =
            loaded.unwrap_or_else(|| (MetadataState::new(cfg.settings.clone(), node), 0));
        let c = Rc::new(Controller {
            replica,
            net,
            node,
            seeds: cluster.seeds.iter().map(|(id, _)| *id).collect(),
            attempt: Cell::new(0),
            state: RefCell::new(state),
            applied: Cell::new(applied),
            reconciled: Cell::new(false),
            pending_reconcile: RefCell::new(None),
            reconcile_notify: LocalNotify::default(),
            snapshot_path,
            snapshot_offset: Cell::new(applied),
            snapshot_bytes: Cell::new(snapshot_bytes),
            applied_bytes_since_snapshot: Cell::new(0),
            snapshot_job: RefCell::new(None),
            results: RefCell::default(),
            applied_notify: LocalNotify::default(),
            propose_lock: futures_util::lock::Mutex::new(()),
            producer_ids: futures_util::lock::Mutex::new((0, 0)),
            last_voter_warned: Cell::new(None),
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

    /// On the controller leader: the group's progress (DescribeQuorum);
    /// `None` elsewhere.
    pub async fn quorum_view(&self) -> Option<tidemark_raft::QuorumView> {
        self.replica.quorum_view().await
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

    /// Stops the controller; a clean stop writes a snapshot of what was
    /// applied, so the next start replays nothing.
    pub async fn close(&self) {
        self.finish_snapshot_job(Duration::from_secs(10)).await;
        let applied = self.applied.get();
        if applied > self.snapshot_offset.get() {
            let state = self.state.borrow().clone();
            match write_snapshot(&self.snapshot_path, &state, applied) {
                Ok(bytes) => {
                    info!(
                        offset = applied,
                        bytes, "controller snapshot written at stop"
                    );
                    self.snapshot_offset.set(applied);
                }
                Err(e) => warn!(error = %e, "cannot write the controller snapshot at stop"),
            }
        }
        self.net.unregister(CONTROLLER_GROUP);
        if let Err(e) = self.replica.close().await {
            warn!(error = %e, "closing the controller log failed");
        }
    }

    /// Applies what the log committed, forever (until the shard stops):
    /// each round publishes the new snapshot and hands the replicas'
    /// reconcile to [`Controller::reconcile_rounds`].
    pub async fn run(self: Rc<Self>, s0: Rc<Shard>) {
        monoio::spawn(self.clone().reconcile_rounds(s0.clone()));
        let mut idle_rounds: u64 = 0;
        loop {
            if s0.is_stopping() {
                return;
            }
            let synced = self.replica.is_synced();
            let hw = self.replica.high_watermark();
            // A state loaded from a snapshot is published (and its
            // replicas opened) by a first round even if the log holds
            // nothing after it.
            let unpublished = !self.reconciled.get() && self.applied.get() > 0;
            let published_all = self.applied.get() >= hw && !unpublished;
            // Caught up: the log holds what a leader had committed when
            // this replica (re)started (at once for one that kept its
            // data), and all of it that is known committed is applied and
            // published (the previous round published it).
            if synced && published_all {
                s0.ctx
                    .metadata_caught_up
                    .store(true, std::sync::atomic::Ordering::Release);
            }
            if published_all {
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
            // Applied and published: the proposers answer now, not after
            // this broker opened the new replicas (a request of 500
            // partitions kept its forwarder waiting past its 5 s, and the
            // replicas take their leaders later anyway, as in Kafka).
            self.applied_notify.notify_all();
            self.add_learners().await;
            // The first round after a start looks at every topic (`old`
            // is the empty metadata the shards started with).
            let first = !self.reconciled.replace(true);
            self.queue_reconcile(old, new, (!first).then_some(changes));
            self.maybe_snapshot();
        }
    }

    /// Hands a round to [`Controller::reconcile_rounds`], merged with
    /// the rounds it has not started yet (the oldest `old`, the newest
    /// `new`, the union of what changed).
    fn queue_reconcile(
        &self,
        old: Arc<ClusterMetadata>,
        new: Arc<ClusterMetadata>,
        changes: Option<Changes>,
    ) {
        let mut pending = self.pending_reconcile.borrow_mut();
        *pending = Some(match pending.take() {
            None => (old, new, changes),
            Some((first_old, _, queued)) => {
                let merged = match (queued, changes) {
                    (Some(mut a), Some(b)) => {
                        a.topics.extend(b.topics);
                        a.settings |= b.settings;
                        Some(a)
                    }
                    _ => None,
                };
                (first_old, new, merged)
            }
        });
        drop(pending);
        self.reconcile_notify.notify_all();
    }

    /// Makes the replicas follow the applied metadata, round after round,
    /// apart from the applying loop: opening thousands of replicas takes
    /// seconds, and the next commands (the next CreateTopics of a client,
    /// a forwarded proposal waiting for its outcome) are applied and
    /// answered meanwhile instead of after it.
    pub async fn reconcile_rounds(self: Rc<Self>, s0: Rc<Shard>) {
        while !s0.is_stopping() {
            let round = self.pending_reconcile.borrow_mut().take();
            match round {
                Some((old, new, changes)) => reconcile(&s0, &old, &new, changes.as_ref()).await,
                None => {
                    let n = self.reconcile_notify.notified();
                    if self.pending_reconcile.borrow().is_some() {
                        continue;
                    }
                    monoio::select! {
                        _ = n => {}
                        _ = s0.stopping() => return,
                    }
                }
            }
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
                let batch_bytes = b.len() as u64;
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
                self.applied_bytes_since_snapshot
                    .set(self.applied_bytes_since_snapshot.get() + batch_bytes);
            }
        }
        Ok(())
    }

    /// Starts writing a snapshot of the applied state (on a thread of its
    /// own: encoding 50,000 topics takes a while) once enough log was
    /// applied since the last one (see [`SNAPSHOT_MIN_LOG_BYTES`]). Only
    /// applied, hence committed, state is written: the Raft log always
    /// holds what follows a snapshot.
    fn maybe_snapshot(&self) {
        match self.snapshot_job_finished() {
            Some(false) => return,
            Some(true) => {
                let job = self.snapshot_job.borrow_mut().take();
                if let Some((offset, job)) = job {
                    self.reap_snapshot_job(offset, job);
                }
            }
            None => {}
        }
        let due = SNAPSHOT_MIN_LOG_BYTES.max(self.snapshot_bytes.get());
        if self.applied_bytes_since_snapshot.get() < due {
            return;
        }
        // Cheap: the state's maps are shared, not copied.
        let state = self.state.borrow().clone();
        let applied = self.applied.get();
        let path = self.snapshot_path.clone();
        self.applied_bytes_since_snapshot.set(0);
        match std::thread::Builder::new()
            .name("controller-snapshot".into())
            .spawn(move || write_snapshot(&path, &state, applied))
        {
            Ok(job) => *self.snapshot_job.borrow_mut() = Some((applied, job)),
            Err(e) => warn!(error = %e, "cannot start writing a controller snapshot"),
        }
    }

    /// Whether the snapshot being written is done (`None`: none is).
    fn snapshot_job_finished(&self) -> Option<bool> {
        self.snapshot_job
            .borrow()
            .as_ref()
            .map(|(_, job)| job.is_finished())
    }

    fn reap_snapshot_job(&self, offset: i64, job: SnapshotJob) {
        match job.join() {
            Ok(Ok(bytes)) => {
                info!(offset, bytes, "controller snapshot written");
                self.snapshot_offset.set(offset);
                self.snapshot_bytes.set(bytes);
            }
            Ok(Err(e)) => warn!(offset, error = %e, "cannot write a controller snapshot"),
            Err(_) => warn!(offset, "the controller snapshot writer panicked"),
        }
    }

    /// Waits (at most `limit`) for the snapshot being written, if any.
    async fn finish_snapshot_job(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            match self.snapshot_job_finished() {
                None => return,
                Some(false) if Instant::now() < deadline => {
                    monoio::time::sleep(Duration::from_millis(5)).await;
                }
                Some(false) => {
                    warn!("the controller snapshot writer is still busy; not waiting for it");
                    return;
                }
                Some(true) => {
                    let job = self.snapshot_job.borrow_mut().take();
                    if let Some((offset, job)) = job {
                        self.reap_snapshot_job(offset, job);
                    }
                    return;
                }
            }
        }
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
    /// fenced ones it hears from again. KRaft's broker heartbeats are two
    /// things here: the acknowledgements each broker sends for the
    /// metadata log it replicates as a member of the controller group,
    /// and its answers to this shard's transport beats (sent to every
    /// peer each heartbeat interval, whatever the groups do). Either
    /// keeps a broker unfenced: on a loaded machine (every one of 10,000
    /// partitions awake on three brokers sharing 2 cores) the controller
    /// group's acknowledgements came later than a session from brokers
    /// that answered beats all along, and fencing them moved their
    /// leaderships, which added elections to the load that had delayed
    /// them. A new leader gives every broker a whole session before
    /// fencing it.
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
                        || broker_alive(
                            heard.get(&(b.id as NodeId)).copied().flatten(),
                            self.net.ticker.peer_heard_within(b.id as NodeId, session),
                            since.elapsed(),
                            session,
                        );
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
            super::drain::finish_decommissions(&self, &meta).await;
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
        // Never itself: a leader that is not a member has just been
        // taken out of the voters (`retire_voter`), and openraft steps
        // it down only while it is in no role at all (a learner-leader
        // would lead on for ever).
        for b in brokers.into_iter().filter(|b| *b != self.node) {
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

    /// Whether `node` votes in the controller group, as this broker last
    /// saw its membership (in a change under way: in the new voters).
    pub fn is_voter(&self, node: i32) -> bool {
        self.replica.membership().voters.contains(&(node as NodeId))
    }

    /// On the leader: takes `node`, a broker being decommissioned, out of
    /// the controller voters, replacing it with a learner when one can
    /// take its place (`voters::without`). Returns whether `node` no
    /// longer votes and still receives the log as a learner, so that it
    /// may be removed from the cluster and will apply its own removal
    /// (it then stops listing itself). While that does not hold yet, the
    /// caller asks again at its next pass, one step per pass:
    ///
    /// 1. a change under way (joint consensus, or not committed yet) is
    ///    finished first;
    /// 2. a leader that is leaving hands its leadership to another voter
    ///    in sync, which then makes the change: kept as a learner, a
    ///    leader would lead on (openraft steps down only a leader that is
    ///    no member at all);
    /// 3. the voters change, the leaving one kept as a learner; a leader
    ///    that is the only voter cannot hand over, so it leaves the group
    ///    (and steps down) and its successor adds it back as a learner.
    pub async fn retire_voter(&self, node: i32, brokers: &BTreeMap<i32, BrokerMeta>) -> bool {
        let m = self.replica.membership();
        let id = node as NodeId;
        if !self.replica.is_leader() || !m.committed {
            return false;
        }
        if !m.joint && !m.voters.contains(&id) {
            if m.learners.contains(&id) {
                return true;
            }
            if let Err(e) = self.replica.add_learner(id).await {
                debug!(node, error = %e, "adding the decommissioned broker back as a learner failed; retried");
            }
            return false;
        }
        if node == self.node {
            let others: Vec<NodeId> = self
                .replica
                .in_sync_replicas(VOTER_CAUGHT_UP)
                .unwrap_or_default()
                .into_iter()
                .filter(|n| *n != id && m.voters.contains(n))
                .collect();
            if !others.is_empty() {
                info!(node, to = ?others, "decommission: handing the controller leadership on before leaving the voters");
                crate::cluster::leadership::hand_over(
                    vec![(self.replica.clone(), others)],
                    Duration::from_secs(3),
                )
                .await;
                return false;
            }
        }
        let target = if m.joint {
            m.voters.clone()
        } else {
            let voters = m.voters.iter().map(|n| *n as i32).collect();
            let learners = m.learners.iter().map(|n| *n as i32).collect();
            let caught_up = |n: i32| self.replica.caught_up_within(n as NodeId, VOTER_CAUGHT_UP);
            let new = match super::voters::without(brokers, &voters, &learners, node, caught_up) {
                super::voters::Next::Voters(new) => new,
                super::voters::Next::WaitForCatchUp => {
                    debug!(
                        node,
                        "decommission: waiting for a learner to catch up before it replaces the voter"
                    );
                    return false;
                }
                super::voters::Next::OnlyVoter => {
                    if self.last_voter_warned.replace(Some(node)) != Some(node) {
                        warn!(
                            node,
                            "decommission waits: the broker is the only controller voter and no \
                             other broker can take its place yet"
                        );
                    }
                    return false;
                }
            };
            info!(node, from = ?voters, to = ?new, "decommission: changing the controller voters");
            new.into_iter().map(|n| n as NodeId).collect()
        };
        let keep = node != self.node;
        match monoio::time::timeout(
            VOTER_CHANGE_TIMEOUT,
            self.replica.change_voters(target, keep),
        )
        .await
        {
            Ok(Ok(())) => info!(node, "controller voters changed"),
            Ok(Err(e)) => debug!(node, error = %e, "controller voter change failed; retried"),
            Err(_) => debug!(
                node,
                "controller voter change not committed in time; retried"
            ),
        }
        false
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
    /// none), retrying until it is applied; then, while the broker runs,
    /// registers again whenever the listeners it advertises change
    /// (`listener_set`: Kafka 4 refuses such a change under KRaft), so
    /// clients are told of a listener added at run time and no longer of
    /// a removed one. `me.listeners` is filled in here, from the listeners
    /// in force.
    pub async fn register(self: Rc<Self>, s0: Rc<Shard>, me: BrokerMeta) {
        let cluster_id = crate::metadata::new_cluster_id();
        // Only the seeds name the cluster; a joining broker learns the id
        // from the log once the leader has added it.
        let mut wrote_id = !self.seeds.contains(&self.node);
        let mut registered: Option<Vec<crate::listeners::Endpoint>> = None;
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
            s0.ctx.listeners.follow(&s0.metadata().settings);
            let endpoints = s0.ctx.listeners.endpoints();
            // Registered and current; or removed by a finished
            // decommission, which a listener change must not undo.
            let settled = registered.as_ref() == Some(&endpoints)
                || (registered.is_some() && !s0.metadata().brokers.contains_key(&me.id));
            if settled {
                monoio::select! {
                    _ = s0.metadata_changed() => {},
                    _ = s0.stopping() => return,
                }
                continue;
            }
            let broker = BrokerMeta {
                listeners: endpoints.clone(),
                ..me.clone()
            };
            match self.submit(Command::RegisterBroker { broker }).await {
                Ok(_) => {
                    if registered.is_none() {
                        s0.ctx
                            .registered
                            .store(true, std::sync::atomic::Ordering::Release);
                        info!(node = me.id, "registered with the controller");
                    } else {
                        info!(node = me.id, "registered again: the listeners changed");
                    }
                    registered = Some(endpoints);
                }
                Err(e) => info!(error = %e.1, "registration with the controller failed; retrying"),
            }
        }
    }
}

impl Controller {
    /// Cluster mode: once this broker has caught up with the controller
    /// log (before that its metadata may lack a user created long ago),
    /// gives the bootstrap user (`TIDEMARK_BOOTSTRAP_USER`) its SCRAM
    /// credentials unless it has some. Every broker may do this at once:
    /// `Command::BootstrapScram` applies only to a user without any
    /// credential, so the first one applied wins and the others change
    /// nothing. Then warns if a SASL listener has no user at all.
    pub async fn bootstrap_user(self: Rc<Self>, s0: Rc<Shard>) {
        while !s0
            .ctx
            .metadata_caught_up
            .load(std::sync::atomic::Ordering::Acquire)
        {
            monoio::select! {
                _ = monoio::time::sleep(Duration::from_millis(50)) => {}
                _ = s0.stopping() => return,
            }
        }
        if let Some(b) = &s0.ctx.bootstrap_user {
            while !s0.is_stopping() {
                if s0.metadata().scram.user(&b.name).is_some() {
                    info!(user = %b.name, "bootstrap user has credentials already; kept");
                    break;
                }
                let cmd = Command::BootstrapScram {
                    user: b.name.clone(),
                    credentials: b.credentials.clone(),
                };
                match self.submit(cmd).await {
                    Ok(_) => {
                        info!(user = %b.name, "bootstrap user ensured (SCRAM-SHA-256, SCRAM-SHA-512)");
                        break;
                    }
                    Err(e) => {
                        info!(error = %e.1, "cannot store the bootstrap user yet; retrying");
                        monoio::select! {
                            _ = monoio::time::sleep(Duration::from_millis(500)) => {}
                            _ = s0.stopping() => return,
                        }
                    }
                }
            }
        }
        let sasl_listener = s0.ctx.listeners.current().iter().any(|l| l.protocol.sasl());
        if sasl_listener && s0.metadata().scram.is_empty() {
            warn!(
                "a SASL listener has no users: every authentication will fail (set TIDEMARK_BOOTSTRAP_USER=name:password)"
            );
        }
    }
}

/// Writes `state`, applied up to `applied` (the next offset to apply), as
/// the controller snapshot at `path`, atomically (temporary file, fsync,
/// rename, folder fsync); returns its size.
fn write_snapshot(path: &Path, state: &MetadataState, applied: i64) -> Result<u64, String> {
    let bytes = state
        .encode_snapshot(applied)
        .map_err(|e| format!("cannot encode the controller state: {e}"))?;
    crate::metadata::write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    Ok(bytes.len() as u64)
}

/// The controller snapshot at `path`: its state, the offset it was taken
/// at and its size. A missing snapshot is `None`; so is one that cannot
/// be read or is damaged (with a warning): the whole log is then applied
/// from the start, which gives the same state, only slower.
fn load_snapshot(path: &Path, statics: Settings, node: i32) -> Option<(MetadataState, i64, u64)> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            warn!(path = %path.display(), error = %e, "cannot read the controller snapshot; applying the whole controller log instead");
            return None;
        }
    };
    match MetadataState::decode_snapshot(&bytes, statics, node) {
        Ok((state, applied)) => Some((state, applied, bytes.len() as u64)),
        Err(e) => {
            warn!(path = %path.display(), error = %e, "the controller snapshot is damaged and ignored; applying the whole controller log instead");
            None
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

/// Replicas a reconcile opens before it waits for their groups' first
/// leaders (see [`await_leaders`]).
const OPEN_CHUNK_PARTITIONS: usize = 128;
/// The longest a reconcile waits for a chunk's first leaders.
const CHUNK_ELECTION_WAIT_MS: u64 = 2000;

/// Waits (at most [`CHUNK_ELECTION_WAIT_MS`]) until the groups of the
/// replicas just opened know a leader. A creation of thousands of
/// partitions in one command otherwise starts thousands of elections at
/// once; on a loaded machine their votes and the heartbeats they crowd
/// out missed the election timeouts round after round (1,000 partitions
/// of 100-topic requests on three brokers: no leader after 70 s, brokers
/// fenced), where one command per topic had paced them. A new group's
/// preferred replica campaigns as soon as it is open
/// (`OpenOptions::campaign`), so a chunk waits a round trip or two, not
/// an election timeout (before that, 10,000 partitions at RF 3 took
/// 157 s to lead, now ~32 s; 64 or 512 per chunk did no better).
async fn await_leaders(s: &Rc<Shard>, parts: Vec<(uuid::Uuid, i32)>) {
    let deadline = Instant::now() + Duration::from_millis(CHUNK_ELECTION_WAIT_MS);
    while Instant::now() < deadline && !s.is_stopping() {
        let pending = parts
            .iter()
            .filter(|k| s.partition(k).is_some_and(|p| p.leader_id().is_none()))
            .count();
        if pending == 0 {
            return;
        }
        monoio::time::sleep(Duration::from_millis(10)).await;
    }
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
    // In the order the log touched them (see `metadata::TouchedTopics`:
    // replicas open in that order, so every broker opens the same groups
    // together however its rounds were split).
    let ids: Vec<uuid::Uuid> = match changes {
        Some(c) => c.topics.iter().copied().collect(),
        None => old
            .by_id
            .keys()
            .chain(new.by_id.keys())
            .chain(new.deleted_topics.keys())
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
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
    // Changed configs (topic or broker-wide): reopen with the new ones,
    // only the topics whose configs in force changed. A settings change
    // may concern every topic.
    let settings_changed = old.settings != new.settings;
    let candidates: Vec<&TopicMeta> = if settings_changed {
        new.topics.values().map(|t| &**t).collect()
    } else {
        present.iter().map(|t| &**t).collect()
    };
    for t in candidates {
        if let Some(o) = old.topic_by_id(&t.id)
            && crate::topics::configs_in_force_changed(&old.settings, o, &new.settings, t)
        {
            crate::topics::reconfigure_topic(s0, t).await;
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
                    campaign: false,
                };
                let wanted: Vec<(&TopicMeta, i32)> = topics
                    .iter()
                    .flat_map(|t| (0..t.partitions).map(move |p| (&**t, p)))
                    .filter(|&(t, p)| {
                        owner_shard(t.id, p, s.shard_count()) == s.id
                            && t.hosted_by(p, node)
                            && s.partition(&(t.id, p)).is_none()
                    })
                    .collect();
                // A chunk's replicas open together, so that their first
                // durable state-file writes share group commits
                // (`tidemark_storage::write_batch`): opened one after
                // the other, each waited out its own fsyncs.
                let chunks = wanted.chunks(OPEN_CHUNK_PARTITIONS).count();
                for (i, chunk) in wanted.chunks(OPEN_CHUNK_PARTITIONS).enumerate() {
                    // A stopping broker closes its replicas: none is
                    // opened after that.
                    if s.is_stopping() {
                        break;
                    }
                    let opens = chunk.iter().map(|&(t, p)| {
                        // The preferred replica (the first) of a new
                        // group asks for votes at once; the others wait
                        // for it (see `OpenOptions::campaign`).
                        let opts = tidemark_raft::OpenOptions {
                            campaign: t.preferred_leader(p, node) == node,
                            ..opts
                        };
                        let s = &s;
                        async move { (t, p, crate::topics::open_partition_with(s, t, p, opts).await) }
                    });
                    let mut electing = Vec::with_capacity(chunk.len());
                    for (t, p, r) in futures_util::future::join_all(opens).await {
                        match r {
                            Ok(()) => {
                                *opened.entry(t.name.clone()).or_default() += 1;
                                electing.push((t.id, p));
                            }
                            Err(e) => {
                                tracing::error!(topic = %t.name, partition = p, error = %e, "cannot open a partition replica")
                            }
                        }
                    }
                    // The last chunk's elections need not finish before
                    // the reconcile does.
                    if i + 1 < chunks {
                        await_leaders(&s, electing).await;
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

/// Whether the controller leader counts a broker as alive (unfenced):
/// it acknowledged the controller group within `session`
/// (`acked_ago`, `None`: not in this leader's term), or answered one of
/// the shard's beats within it (`beat_heard`), or this leader has led for
/// less than a session (it gives every broker one before fencing it).
fn broker_alive(
    acked_ago: Option<Duration>,
    beat_heard: bool,
    leading_for: Duration,
    session: Duration,
) -> bool {
    match acked_ago {
        Some(ago) if ago <= session => true,
        Some(_) => beat_heard,
        None => beat_heard || leading_for <= session,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::TopicMeta;

    #[test]
    fn a_broker_answering_beats_stays_unfenced_while_its_controller_acks_are_late() {
        let session = Duration::from_secs(9);
        let long_ago = Some(Duration::from_secs(20));
        let lately = Some(Duration::from_secs(1));
        // Acknowledged the metadata log lately: alive, beats or not.
        assert!(broker_alive(
            lately,
            false,
            Duration::from_secs(60),
            session
        ));
        // Controller acks late (a loaded machine) but beats answered.
        assert!(broker_alive(
            long_ago,
            true,
            Duration::from_secs(60),
            session
        ));
        // Neither: fenced.
        assert!(!broker_alive(
            long_ago,
            false,
            Duration::from_secs(60),
            session
        ));
        // Not heard in this term: alive through the new leader's first
        // session, then only by its beats.
        assert!(broker_alive(None, false, Duration::from_secs(3), session));
        assert!(!broker_alive(None, false, Duration::from_secs(10), session));
        assert!(broker_alive(None, true, Duration::from_secs(10), session));
    }

    fn broker(id: i32) -> BrokerMeta {
        BrokerMeta {
            id,
            host: "127.0.0.1".into(),
            port: 9092,
            rack: Some(format!("r{id}")),
            rpc_addr: format!("127.0.0.1:1909{id}"),
            fenced: false,
            maintenance: false,
            decommissioning: false,
            listeners: Vec::new(),
            incarnation: 0,
        }
    }

    fn topic(name: &str, partitions: i32) -> TopicMeta {
        TopicMeta {
            name: name.into(),
            id: uuid::Uuid::new_v4(),
            partitions,
            configs: BTreeMap::new(),
            replicas: vec![vec![1, 2, 3]; partitions as usize],
            reassignments: BTreeMap::new(),
        }
    }

    /// A controller log's worth of commands of every kind (refused ones
    /// included: they are in the log too).
    fn history() -> Vec<Command> {
        let a = topic("a.b", 3);
        let c = topic("c", 2);
        let mut cmds = vec![Command::InitCluster {
            cluster_id: "cluster".into(),
        }];
        cmds.extend((1..=4).map(|b| Command::RegisterBroker { broker: broker(b) }));
        cmds.push(Command::CreateTopic { topic: a.clone() });
        cmds.push(Command::CreateTopic { topic: c.clone() });
        cmds.push(Command::CreateTopic {
            topic: topic("c", 9),
        });
        cmds.push(Command::ReserveProducerIds { count: 1000 });
        cmds.push(Command::FenceBroker {
            id: 3,
            fenced: true,
        });
        cmds.push(Command::Reassign {
            topic_id: a.id,
            partition: 1,
            target: Some(vec![4, 2, 3]),
        });
        let mut more = c.clone();
        more.partitions = 4;
        more.replicas = vec![vec![2, 3, 4]; 4];
        more.configs.insert("retention.ms".into(), "1000".into());
        cmds.push(Command::UpdateTopic { topic: more });
        cmds.push(Command::SetDynamicSettings {
            settings: BTreeMap::from([("num.partitions".into(), "5".into())]),
            cluster_default: true,
            node: None,
        });
        cmds.push(Command::SetDynamicSettings {
            settings: BTreeMap::from([("num.partitions".into(), "7".into())]),
            cluster_default: false,
            node: Some(2),
        });
        cmds.push(Command::DeleteTopic { name: "c".into() });
        cmds.push(Command::FinishReassign {
            topic_id: a.id,
            partition: 1,
            target: vec![4, 2, 3],
        });
        cmds.push(Command::CreateTopic {
            topic: topic("c", 1),
        });
        cmds.push(Command::ReserveProducerIds { count: 1000 });
        cmds.push(Command::DeleteTopic {
            name: "nope".into(),
        });
        cmds
    }

    /// Everything a broker's shards and reconcile see of a state, and what
    /// the next commands would make of it.
    fn observe(mut s: MetadataState) -> String {
        let snap = s.snapshot();
        let next = s.apply(&Command::ReserveProducerIds { count: 1 });
        format!(
            "{} {:?} {:?} {:?} {:?} {:?} {:?} {next:?}",
            snap.cluster_id,
            snap.topics,
            snap.by_id.iter().collect::<BTreeMap<_, _>>(),
            snap.folded_names.iter().collect::<BTreeMap<_, _>>(),
            snap.settings,
            snap.brokers,
            snap.deleted_topics,
        )
    }

    /// A start from the snapshot taken after any prefix of the log, then
    /// the rest of the log, gives the state a replay of the whole log
    /// gives, on this broker and on another.
    #[test]
    fn snapshot_and_tail_replay_equal_a_full_replay() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SNAPSHOT_FILE);
        let cmds = history();
        for node in [1, 2] {
            let mut full = MetadataState::new(Settings::default(), node);
            let full_results: Vec<_> = cmds.iter().map(|c| full.apply(c)).collect();
            assert!(full_results.iter().any(|r| r.is_err()));
            let want = observe(full);
            for cut in 0..=cmds.len() {
                let mut before = MetadataState::new(Settings::default(), node);
                for c in &cmds[..cut] {
                    let _ = before.apply(c);
                }
                let bytes = write_snapshot(&path, &before, cut as i64).unwrap();
                let (mut loaded, offset, size) =
                    load_snapshot(&path, Settings::default(), node).expect("a valid snapshot");
                assert_eq!((offset, size), (cut as i64, bytes));
                let tail: Vec<_> = cmds[cut..].iter().map(|c| loaded.apply(c)).collect();
                assert_eq!(tail, full_results[cut..], "cut at {cut}");
                assert_eq!(observe(loaded), want, "cut at {cut}");
            }
        }
    }

    /// A damaged, torn, empty or foreign snapshot is ignored (the caller
    /// then applies the whole log): never a crash.
    #[test]
    fn a_damaged_snapshot_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SNAPSHOT_FILE);
        assert!(load_snapshot(&path, Settings::default(), 1).is_none());
        let mut s = MetadataState::new(Settings::default(), 1);
        for c in history() {
            let _ = s.apply(&c);
        }
        write_snapshot(&path, &s, 42).unwrap();
        let good = std::fs::read(&path).unwrap();
        assert!(load_snapshot(&path, Settings::default(), 1).is_some());
        let mut flipped = good.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x20;
        let mut bad_len = good.clone();
        bad_len[0] ^= 1;
        let mut valid_json_bad_shape = Vec::new();
        let body = br#"{"applied":-1,"state":{},"deleted":[]}"#;
        valid_json_bad_shape.extend_from_slice(&(body.len() as u32).to_le_bytes());
        valid_json_bad_shape.extend_from_slice(&crc32c::crc32c(body).to_le_bytes());
        valid_json_bad_shape.extend_from_slice(body);
        for bad in [
            Vec::new(),
            good[..5].to_vec(),
            good[..good.len() - 1].to_vec(),
            flipped,
            bad_len,
            b"{not a snapshot}".to_vec(),
            valid_json_bad_shape,
        ] {
            std::fs::write(&path, &bad).unwrap();
            assert!(load_snapshot(&path, Settings::default(), 1).is_none());
        }
        // A folder where the file should be: unreadable, ignored.
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(load_snapshot(&path, Settings::default(), 1).is_none());
    }
}
