//! [`PartitionReplica`]: one partition's replica, a Raft group member
//! whose log is the partition log. What the broker calls.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use kafka_protocol::records::{Stamp, stamp_batch};
use openraft::async_runtime::watch::WatchReceiver;
use openraft::error::{ClientWriteError, RaftError};
use openraft::network::RaftNetworkFactory;
use openraft::{Config, SnapshotPolicy};
use tidemark_storage::{AppendInfo, CompactionStats, Log, LogConfig, ReadClass, StorageError};

use crate::error::Error;
use crate::store::{LogStore, Shared, StateMachine};
use crate::types::{KafkaBatch, NodeId, ResetSource, TypeConfig};

/// A partition group's membership, as a replica sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Membership {
    /// The voters of the configuration the group is in (in a joint
    /// configuration, the one it is moving to).
    pub voters: BTreeSet<NodeId>,
    /// Members that vote in no configuration: they receive the log only.
    pub learners: BTreeSet<NodeId>,
    /// A voter change is under way (or a lost leader left one half-done).
    pub joint: bool,
    /// The membership in force is committed.
    pub committed: bool,
}

/// One member's progress as the group's leader sees it (Kafka's
/// DescribeQuorum `ReplicaState`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberProgress {
    pub node: NodeId,
    /// A voter (else a learner: Kafka's observer).
    pub voter: bool,
    /// The Kafka offset after the last entry the member is known to hold
    /// (`None`: nothing acknowledged yet in this term).
    pub log_end_offset: Option<i64>,
    /// How long ago the member last acknowledged the leader (`None`: not
    /// yet in this term; zero for the leader itself).
    pub last_ack_ago: Option<Duration>,
    /// How long ago the member last held everything committed (`None`:
    /// not yet in this term; zero for the leader itself).
    pub caught_up_ago: Option<Duration>,
}

/// The leader's view of its group: what Kafka's DescribeQuorum reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuorumView {
    pub leader: NodeId,
    /// The Raft term (the Kafka leader epoch).
    pub term: u64,
    pub high_watermark: i64,
    /// Every member, the leader first, then by node id.
    pub members: Vec<MemberProgress>,
}

/// The openraft handle of a partition group.
pub type RaftHandle = openraft::Raft<TypeConfig, StateMachine>;

/// A receiver of a group's openraft metrics. `RaftHandle::metrics` clones
/// one on every call (an `Arc` and the channel's receiver count, and the
/// same undone on drop); the broker's leadership pass and the heartbeat
/// ticker read the metrics of every awake group many times a second, and
/// those clones were 3-4 % of a survivor's CPU during a failover at
/// 10,000 partitions. So one is kept next to each running instance.
pub type MetricsReceiver =
    openraft::alias::WatchReceiverOf<TypeConfig, openraft::RaftMetrics<TypeConfig>>;

/// Timing of a partition group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaConfig {
    /// How often a leader sends heartbeats to followers.
    pub heartbeat_interval: Duration,
    /// A follower that hears nothing from a leader for a random time in
    /// `[election_timeout_min, election_timeout_max)` starts an election.
    pub election_timeout_min: Duration,
    pub election_timeout_max: Duration,
    /// Largest number of entries (batches) per AppendEntries.
    pub max_payload_entries: u64,
    /// openraft's own heartbeat interval when a `HeartbeatTicker` sends
    /// the heartbeats instead (`None`: `heartbeat_interval`, for a group
    /// that heartbeats by itself). With its heartbeat timer off, openraft
    /// still uses this for three things: how long a heartbeat waits for
    /// its answer (a later answer is dropped and renews no lease), its
    /// tick period (13/64 of it: every awake replica's task wakes that
    /// often to check its election timer) and its leadership-transfer
    /// wait. At 200 ms, 10,000 awake replicas on a broker woke 250,000
    /// times a second between them, and a heartbeat answered after
    /// 200 ms on a loaded machine counted as lost, so leases lapsed
    /// while every broker was there. Must stay under
    /// `election_timeout_min`.
    pub core_heartbeat_interval: Option<Duration>,
}

impl Default for ReplicaConfig {
    /// Failover well within the 10 s a Kafka client tolerates at default
    /// settings; idle groups tick every ~40 ms (openraft ticks at 13/64 of
    /// the heartbeat interval).
    fn default() -> Self {
        ReplicaConfig {
            heartbeat_interval: Duration::from_millis(200),
            election_timeout_min: Duration::from_millis(1000),
            election_timeout_max: Duration::from_millis(2000),
            max_payload_entries: 256,
            core_heartbeat_interval: None,
        }
    }
}

impl ReplicaConfig {
    /// `restore`: whether a leader that starts again resumes its term
    /// (only when waking from hibernation, which persists everything
    /// first; see `hibernate_if_idle`).
    fn openraft(&self, restore: bool) -> Result<Config, Error> {
        let ms = |d: Duration| d.as_millis() as u64;
        let c = Config {
            cluster_name: "tidemark-partition".into(),
            heartbeat_interval: ms(self
                .core_heartbeat_interval
                .unwrap_or(self.heartbeat_interval)),
            election_timeout_min: ms(self.election_timeout_min),
            election_timeout_max: ms(self.election_timeout_max),
            max_payload_entries: self.max_payload_entries,
            // The partition log is the state: a snapshot is only a record
            // of the apply point, taken when the replica hands the log
            // prefix to retention or compaction (`release_prefix_to`), and
            // purging goes exactly as far as the replica asks
            // (`max_in_snapshot_log_to_keep` = all: no purge of openraft's
            // own accord after a snapshot).
            snapshot_policy: SnapshotPolicy::Never,
            max_in_snapshot_log_to_keep: u64::MAX,
            // Bounded queues: they hold requests, not bytes, so keep them
            // modest (invariant 6 bounds the bytes in the broker).
            api_channel_size: Some(4096),
            notification_channel_size: Some(4096),
            state_machine_channel_size: Some(256),
            // Memory per idle group (see raft/ARCHITECTURE.md, "Memory"):
            // openraft keeps six ring buffers of per-entry latency stamps
            // (only filled with its `runtime-stats` feature, which is off)
            // allocated at this capacity for every group: 1024 x 6 x 24 B.
            log_stage_capacity: Some(1),
            // The write batch of one RaftCore round; a Vec of this capacity
            // per group. 256 batches per round is far more than one
            // partition sees between two rounds of its core task.
            api_batch_capacity: 256,
            // A restarted leader wins a new election (a new term, so a new
            // Kafka leader epoch) rather than resuming: the commit point is
            // not fsynced on every change, and Kafka bumps the epoch on
            // every leadership change.
            enable_leader_restore: Some(restore),
            // A follower whose log went back to empty (its broker's data
            // was wiped) is sent the log again from the start instead of
            // being treated as a bug and left behind; until it has caught
            // up it votes only for candidates whose log reaches what was
            // committed (`may_grant_vote`).
            allow_log_reversion: Some(true),
            // A follower asks the others whether they would vote for it
            // before it bumps its term: one cut off from its leader (a
            // network split) otherwise raised its term about once an
            // election timeout, and on healing that term deposed the
            // leader the others had kept or elected (a new election and a
            // write pause of 2-3 s on partitions the split never
            // touched). Voters that hear from a leader refuse the
            // pre-vote (leader lease), so such a follower keeps its term.
            enable_pre_vote: Some(true),
            ..Config::default()
        };
        c.validate().map_err(|e| Error::Config(e.to_string()))
    }
}

type Restart = Box<dyn Fn() -> Pin<Box<dyn Future<Output = Result<RaftHandle, Error>>>>>;

/// One partition replica: a member of the partition's Raft group.
///
/// Owned by one shard (`!Send`): its tasks run on that shard's monoio
/// runtime.
pub struct PartitionReplica {
    /// `None` while hibernating (see [`PartitionReplica::hibernate_if_idle`]).
    raft: RefCell<Option<RaftHandle>>,
    /// The metrics receiver of `raft`, set and cleared with it
    /// ([`PartitionReplica::set_raft`]).
    metrics: RefCell<Option<MetricsReceiver>>,
    shared: Rc<Shared>,
    node_id: NodeId,
    single_voter: bool,
    /// Starts openraft again after hibernation (single voter only).
    restart: Option<Restart>,
    /// Held while openraft is stopped or started for hibernation.
    wake_lock: futures_util::lock::Mutex<()>,
    writes_in_flight: Cell<usize>,
    last_write: Cell<Instant>,
    /// Opened on an empty folder in a multi-voter group and not yet caught
    /// up with a leader: see [`PartitionReplica::may_grant_vote`].
    unsynced: Cell<bool>,
    /// The commit point (term, index) an empty-started replica must reach
    /// to be synced.
    sync_target: Cell<Option<(u64, u64)>>,
    /// On the leader: when each follower last held everything committed.
    caught_up: RefCell<std::collections::HashMap<NodeId, Instant>>,
    /// openraft's leader lease (its longest election timeout): a leader
    /// that heard no quorum for this long takes no writes.
    lease: Duration,
}

/// How [`PartitionReplica::open_with`] opens a replica.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// Write the new replica's files without an fsync each: the caller
    /// creates many partitions at once and makes the file system durable
    /// with one `tidemark_storage::sync_filesystem` before it relies on
    /// them (creating 10,000 partitions with ~20 fsyncs each took 187 s).
    /// For a group this node is alone in, the Raft state file is then
    /// written once, at the end of the open. A multi-voter group's votes
    /// and membership stay durable before use (a vote is durable before
    /// it is cast); only its fresh, empty state is not written at all (see
    /// `Shared::open`). Only for creation; the log never needs it (a new
    /// log is made durable by its first flush). Anything written after
    /// `open_with` returns is durable as usual.
    pub defer_sync: bool,
    /// A single-voter group goes to sleep as soon as it is open (see
    /// [`PartitionReplica::hibernate_if_idle`]): a partition just created
    /// costs no openraft instance until its first write.
    pub hibernate: bool,
    /// This node is the new group's preferred leader: a group this open
    /// initializes (a new partition) starts its first election at once
    /// rather than after an election timeout (0.7-1.4 s in a cluster).
    /// Creating 10,000 partitions at RF 3 waited that out for every
    /// chunk of new groups: every leader after 157 s. Only one replica
    /// of a group should be given it (the first of its replica list), so
    /// that the others grant it their votes instead of competing.
    pub campaign: bool,
}

/// Starts an openraft instance over the replica's log and state.
async fn start_openraft<N>(
    node_id: NodeId,
    cfg: Arc<Config>,
    network: N,
    shared: Rc<Shared>,
) -> Result<RaftHandle, Error>
where
    N: RaftNetworkFactory<TypeConfig> + Clone + 'static,
    N::Network: openraft::network::NetSnapshot<TypeConfig, SnapshotData = ResetSource>,
{
    RaftHandle::new(
        node_id,
        cfg,
        network,
        LogStore {
            shared: shared.clone(),
        },
        StateMachine { shared },
    )
    .await
    .map_err(|e| Error::Fatal(e.to_string()))
}

/// The openraft instance of a single-voter group that wakes from
/// hibernation: it resumes its term (everything was written first).
fn single_voter_restart<N>(
    node_id: NodeId,
    network: N,
    shared: Rc<Shared>,
    config: &ReplicaConfig,
) -> Result<Restart, Error>
where
    N: RaftNetworkFactory<TypeConfig> + Clone + 'static,
    N::Network: openraft::network::NetSnapshot<TypeConfig, SnapshotData = ResetSource>,
{
    let restore_cfg = Arc::new(config.openraft(true)?);
    Ok(Box::new(move || {
        let (cfg, network, shared) = (restore_cfg.clone(), network.clone(), shared.clone());
        Box::pin(async move {
            let raft = start_openraft(node_id, cfg, network, shared).await?;
            settle_single_voter(&raft, false).await?;
            Ok(raft)
        })
    }))
}

impl PartitionReplica {
    /// Opens (or creates) the replica in `dir`: the partition log, and the
    /// Raft state beside it. A new group is initialized with `voters`
    /// (every replica may do this with the same set); an existing one
    /// keeps its membership and `voters` is ignored.
    ///
    /// A group whose only voter is this node elects itself at once, unless
    /// its state is the one hibernation or a clean stop leaves (everything
    /// applied under its own leadership): then it starts hibernating, with
    /// no openraft instance, and resumes its term on the first write. A
    /// restart of 50,000 idle partitions starts no Raft group at all.
    pub async fn open<N>(
        dir: impl AsRef<Path>,
        log_config: LogConfig,
        node_id: NodeId,
        voters: BTreeSet<NodeId>,
        network: N,
        config: ReplicaConfig,
    ) -> Result<Rc<Self>, Error>
    where
        N: RaftNetworkFactory<TypeConfig> + Clone + 'static,
        N::Network: openraft::network::NetSnapshot<TypeConfig, SnapshotData = ResetSource>,
    {
        Self::open_with(
            dir,
            log_config,
            node_id,
            voters,
            network,
            config,
            OpenOptions::default(),
        )
        .await
    }

    /// [`PartitionReplica::open`] with [`OpenOptions`].
    pub async fn open_with<N>(
        dir: impl AsRef<Path>,
        log_config: LogConfig,
        node_id: NodeId,
        voters: BTreeSet<NodeId>,
        network: N,
        config: ReplicaConfig,
        opts: OpenOptions,
    ) -> Result<Rc<Self>, Error>
    where
        N: RaftNetworkFactory<TypeConfig> + Clone + 'static,
        N::Network: openraft::network::NetSnapshot<TypeConfig, SnapshotData = ResetSource>,
    {
        let dir = dir.as_ref();
        // A single-voter group adopts a log written before Raft (see
        // `Shared::open`); with other voters that would be a guess.
        let alone = voters.len() == 1 && voters.contains(&node_id);
        let shared = Shared::open(dir, log_config, alone, node_id, opts.defer_sync).await?;
        if alone {
            shared.catch_up_single_voter();
        }
        if alone && shared.is_clean_single_voter() {
            shared.end_deferred_sync()?;
            shared.log.park();
            let restart = single_voter_restart(node_id, network, shared.clone(), &config)?;
            tracing::debug!(dir = %dir.display(), node_id, "partition replica opened hibernating");
            return Ok(Rc::new(PartitionReplica {
                raft: RefCell::new(None),
                metrics: RefCell::new(None),
                shared,
                node_id,
                single_voter: true,
                restart: Some(restart),
                wake_lock: futures_util::lock::Mutex::new(()),
                writes_in_flight: Cell::new(0),
                last_write: Cell::new(Instant::now()),
                unsynced: Cell::new(false),
                sync_target: Cell::new(None),
                caught_up: RefCell::default(),
                lease: config.election_timeout_max,
            }));
        }
        let replica =
            Self::open_running(dir, shared, node_id, voters, network, config, opts.campaign)
                .await?;
        if opts.hibernate {
            replica.hibernate_if_idle(Duration::ZERO).await?;
        }
        replica.shared.end_deferred_sync()?;
        Ok(replica)
    }

    async fn open_running<N>(
        dir: &Path,
        shared: Rc<Shared>,
        node_id: NodeId,
        voters: BTreeSet<NodeId>,
        network: N,
        config: ReplicaConfig,
        campaign: bool,
    ) -> Result<Rc<Self>, Error>
    where
        N: RaftNetworkFactory<TypeConfig> + Clone + 'static,
        N::Network: openraft::network::NetSnapshot<TypeConfig, SnapshotData = ResetSource>,
    {
        let cfg = Arc::new(config.openraft(false)?);
        let raft = start_openraft(node_id, cfg, network.clone(), shared.clone()).await?;
        let initialized = raft
            .is_initialized()
            .await
            .map_err(|e| Error::Fatal(e.to_string()))?;
        // A new replica with no voters given joins an existing group as a
        // learner: it waits for the leader to add it and send the log.
        if !initialized && !voters.is_empty() {
            raft.initialize(voters.clone())
                .await
                .map_err(|e| Error::Fatal(e.to_string()))?;
            // The membership reaches the metrics once its entry is stored,
            // which (a state-file write on a helper thread) can be after
            // `initialize` returns; `single_voter` below is read there.
            raft.wait(Some(Duration::from_secs(10)))
                .metrics(
                    |m| {
                        m.membership_config
                            .membership()
                            .voter_ids()
                            .next()
                            .is_some()
                    },
                    "the initial membership",
                )
                .await
                .map_err(|_| Error::Timeout("the initial membership"))?;
        }
        let single_voter = {
            let m = raft.metrics().borrow_watched().membership_config.clone();
            let v: BTreeSet<NodeId> = m.membership().voter_ids().collect();
            v.len() == 1 && v.contains(&node_id)
        };
        if campaign && !initialized && !voters.is_empty() && !single_voter {
            // A new group: every log holds only the initial membership, so
            // this candidate's is as long as any and the others grant it.
            raft.trigger()
                .elect(false)
                .await
                .map_err(|e| Error::Fatal(e.to_string()))?;
        }
        let mut restart: Option<Restart> = None;
        if single_voter {
            if initialized {
                // Elect now rather than after an election timeout.
                raft.trigger()
                    .elect(false)
                    .await
                    .map_err(|e| Error::Fatal(e.to_string()))?;
            }
            settle_single_voter(&raft, true).await?;
            restart = Some(single_voter_restart(
                node_id,
                network,
                shared.clone(),
                &config,
            )?);
        }
        tracing::info!(dir = %dir.display(), node_id, single_voter, initialized, "partition replica opened");
        Ok(Rc::new(PartitionReplica {
            metrics: RefCell::new(Some(raft.metrics())),
            raft: RefCell::new(Some(raft)),
            shared,
            node_id,
            single_voter,
            restart,
            wake_lock: futures_util::lock::Mutex::new(()),
            writes_in_flight: Cell::new(0),
            last_write: Cell::new(Instant::now()),
            unsynced: Cell::new(!initialized && !single_voter),
            sync_target: Cell::new(None),
            caught_up: RefCell::default(),
            lease: config.election_timeout_max,
        }))
    }

    /// The running openraft instance, started again if hibernating.
    /// Starts a sleeping group's openraft instance now (nothing if it is
    /// running). A writer calls it while it holds its admission turn: an
    /// append that had to wake the group itself waited on the wake while
    /// appends spawned after it found the group awake and reached openraft
    /// first, so pipelined batches of one connection were written out of
    /// order (found by the client library's pipelining test).
    pub async fn wake(&self) -> Result<(), Error> {
        self.running().await.map(|_| ())
    }

    async fn running(&self) -> Result<RaftHandle, Error> {
        if let Some(r) = self.raft.borrow().as_ref() {
            return Ok(r.clone());
        }
        let _guard = self.wake_lock.lock().await;
        if let Some(r) = self.raft.borrow().as_ref() {
            return Ok(r.clone());
        }
        let restart = self
            .restart
            .as_ref()
            .ok_or_else(|| Error::Fatal("raft group stopped".into()))?;
        let raft = restart().await?;
        tracing::debug!(dir = %self.shared.dir.display(), "partition replica woke up");
        self.set_raft(Some(raft.clone()));
        Ok(raft)
    }

    /// Sets (or clears) the running openraft instance and its metrics
    /// receiver together.
    fn set_raft(&self, raft: Option<RaftHandle>) -> Option<RaftHandle> {
        *self.metrics.borrow_mut() = raft.as_ref().map(|r| r.metrics());
        std::mem::replace(&mut *self.raft.borrow_mut(), raft)
    }

    /// Reads the running instance's metrics (`None` while hibernating or
    /// closed) without cloning a receiver.
    fn with_metrics<R>(
        &self,
        f: impl FnOnce(&openraft::RaftMetrics<TypeConfig>) -> R,
    ) -> Option<R> {
        let rx = self.metrics.borrow();
        let rx = rx.as_ref()?;
        let m = rx.borrow_watched();
        Some(f(&m))
    }

    /// Stops this group's openraft instance if it is a single-voter group
    /// and no write came for `idle`; the next write (or anything needing
    /// openraft) starts it again, in the same term: the state is written
    /// first, so resuming as leader is safe (openraft's leader restore),
    /// and the Kafka leader epoch does not change. Returns whether it
    /// went to sleep.
    ///
    /// Why: an idle openraft instance costs ~110 KB resident (its tasks,
    /// channels and statistics; see raft/ARCHITECTURE.md), while the
    /// budget is 100 MB for 1,000 partitions with everything. A sleeping
    /// group costs only its log and maps; waking takes well under a
    /// millisecond and no disk write. A group with other voters must keep
    /// heartbeating and never sleeps. The broker calls this from a
    /// periodic housekeeping pass on the owning shard.
    pub async fn hibernate_if_idle(&self, idle: Duration) -> Result<bool, Error> {
        if self.restart.is_none()
            || self.writes_in_flight.get() > 0
            || self.last_write.get().elapsed() < idle
        {
            return Ok(false);
        }
        let Some(_guard) = self.wake_lock.try_lock() else {
            return Ok(false);
        };
        // Only while this node is still the group's only voter (a voter
        // may have been added since it opened).
        let alone = self.raft.borrow().as_ref().is_some_and(|r| {
            let m = r.metrics().borrow_watched().membership_config.clone();
            m.membership().voter_ids().eq([self.node_id])
                && m.membership().learner_ids().next().is_none()
        });
        if !alone {
            return Ok(false);
        }
        let Some(raft) = self.set_raft(None) else {
            return Ok(false);
        };
        raft.shutdown()
            .await
            .map_err(|e| Error::Fatal(format!("{e:?}")))?;
        drop(raft);
        self.shared.persist().await?;
        self.shared.log.park();
        tracing::debug!(dir = %self.shared.dir.display(), "partition replica hibernating");
        Ok(true)
    }

    /// Releases the log's descriptors, write buffer and caches when no
    /// batch was appended to it for `idle` (`Log::park_if_idle`): for
    /// replicas that do not hibernate (those of multi-voter groups).
    pub fn park_log_if_idle(&self, idle: Duration) -> bool {
        self.writes_in_flight.get() == 0 && self.shared.log.park_if_idle(idle)
    }

    /// Whether openraft is stopped for now ([`PartitionReplica::hibernate_if_idle`]).
    pub fn is_hibernating(&self) -> bool {
        self.raft.borrow().is_none()
    }

    /// Appends one produced record batch through Raft and returns once it
    /// is committed (durable on a majority of voters; with one voter,
    /// fdatasynced locally), i.e. once the high watermark is past it.
    ///
    /// The batch is checked (header, CRC, size) before it enters the Raft
    /// log, so a bad batch never becomes an entry; the leader stamps its
    /// base offset and leader epoch (the Raft term) when writing it.
    pub async fn append(
        &self,
        batch: BytesMut,
        log_append_time: Option<i64>,
    ) -> Result<AppendInfo, Error> {
        self.write(batch, log_append_time, true).await
    }

    /// [`PartitionReplica::append`] of a batch whose header and CRC the
    /// caller has just checked (the broker's produce validation): they are
    /// not checked again, except where LogAppendTime rewrites the CRC (the
    /// one pass that does so checks it too). Every byte of a produced batch
    /// was run through CRC-32C three times on the leader before.
    pub async fn append_verified(
        &self,
        batch: BytesMut,
        log_append_time: Option<i64>,
    ) -> Result<AppendInfo, Error> {
        self.write(batch, log_append_time, false).await
    }

    async fn write(
        &self,
        mut batch: BytesMut,
        log_append_time: Option<i64>,
        check: bool,
    ) -> Result<AppendInfo, Error> {
        let max = self.shared.log.config().max_batch_bytes;
        if batch.len() > max {
            return Err(Error::BatchTooLarge {
                size: batch.len(),
                max,
            });
        }
        self.shared
            .log
            .config()
            .check_fits_segment(batch.len())
            .map_err(Error::Storage)?;
        // Verifies header and CRC (unless the caller did) and applies
        // LogAppendTime now, before the batch becomes an entry; offset and
        // epoch are placeholders the leader overwrites.
        if check || log_append_time.is_some() {
            stamp_batch(
                &mut batch,
                &Stamp {
                    base_offset: 0,
                    partition_leader_epoch: -1,
                    log_append_time,
                },
            )?;
        }
        let raft = self.running().await?;
        self.keep_cache_for_followers();
        self.writes_in_flight.set(self.writes_in_flight.get() + 1);
        // No retry here even when openraft refuses for an expired lease:
        // appends must reach openraft in the order they were called (the
        // broker predicts offsets), so the caller renews the lease first
        // (`lease_expiring`, `renew_lease`) while holding its turn.
        let res = raft
            .client_write(KafkaBatch::new(batch.freeze(), log_append_time))
            .await;
        self.writes_in_flight.set(self.writes_in_flight.get() - 1);
        self.last_write.set(Instant::now());
        match res {
            Ok(r) => Ok(AppendInfo {
                base_offset: r.data.base_offset,
                last_offset: r.data.last_offset,
                log_start_offset: self.shared.log.log_start_offset(),
            }),
            Err(RaftError::APIError(ClientWriteError::ForwardToLeader(f))) => {
                Err(Error::NotLeader {
                    leader: f.leader_id,
                })
            }
            Err(RaftError::APIError(ClientWriteError::LogEntryDiscarded(f))) => {
                Err(Error::LeaderChanged {
                    leader: f.leader_id,
                })
            }
            Err(RaftError::APIError(e)) => Err(Error::Fatal(e.to_string())),
            Err(RaftError::Fatal(e)) => Err(Error::Fatal(e.to_string())),
        }
    }

    /// On the leader, tells the log which batches its followers still need
    /// (`Log::set_cache_floor`), from openraft's replication progress:
    /// the lowest next offset among followers whose position is in the
    /// index map's exact tail and that answered within a second (one
    /// further behind is catching up from the files anyway, one silent may
    /// be gone: neither holds the cache). Called on each write, which is
    /// when the cache grows.
    fn keep_cache_for_followers(&self) {
        let floor = self.with_metrics(|m| self.followers_floor(m));
        self.shared.log.set_cache_floor(floor.unwrap_or(i64::MAX));
    }

    /// The cache floor [`PartitionReplica::keep_cache_for_followers`]
    /// sets (`i64::MAX`: none needed).
    fn followers_floor(&self, m: &openraft::RaftMetrics<TypeConfig>) -> i64 {
        use openraft::Instant as _;
        let mut floor = i64::MAX;
        if m.current_leader == Some(self.node_id)
            && let Some(rep) = &m.replication
        {
            let map = self.shared.map.borrow();
            let beats = m.heartbeat.as_ref();
            for (node, matched) in rep {
                // A follower silent for a second (down, or paused) does
                // not hold the cache.
                let alive = beats
                    .and_then(|b| b.get(node))
                    .and_then(|t| t.as_ref())
                    .is_some_and(|t| t.elapsed() <= Duration::from_secs(1));
                if *node == self.node_id || !alive {
                    continue;
                }
                let next = matched.map_or(0, |l| l.index + 1);
                if let crate::index::Locate::Exact(offset) = map.locate(next) {
                    floor = floor.min(offset);
                }
            }
        }
        floor
    }

    /// [`PartitionReplica::keep_cache_for_followers`] outside of writes,
    /// then lets the log's tail cache shrink to it: called periodically,
    /// so that a partition that went idle (or stopped leading) while a
    /// follower trailed does not keep the extra cache.
    pub fn refresh_cache_floor(&self) {
        self.keep_cache_for_followers();
        self.shared.log.trim_cache();
    }

    /// Whether this leader's quorum-ack lease has run out or soon will:
    /// openraft refuses writes without it (`ForwardReason::LeaseExpired`),
    /// and a quiet group (no heartbeats) lets it run out. False for a
    /// single voter (its own quorum) and off the leader.
    pub fn lease_expiring(&self) -> bool {
        self.quorum_ack_age()
            .is_some_and(|age| age.is_none_or(|a| a > self.lease / 2))
    }

    /// On the leader of a group of several voters: how long ago a quorum
    /// last acknowledged it (`Some(None)`: not yet in this term). `None`
    /// for a single voter (its own quorum) and off the leader.
    fn quorum_ack_age(&self) -> Option<Option<Duration>> {
        use openraft::Instant as _;
        if self.single_voter {
            return None;
        }
        self.with_metrics(|m| {
            self.leads_by_vote(m)
                .then(|| m.last_quorum_acked.map(|t| t.into_inner().elapsed()))
        })
        .flatten()
    }

    /// Whether `m` shows this replica as the leader of a committed vote
    /// (a quorum granted it): what `Raft::as_leader` checks, read without
    /// cloning the handle.
    fn leads_by_vote(&self, m: &openraft::RaftMetrics<TypeConfig>) -> bool {
        m.vote.is_committed() && m.vote.leader_id().voted_for == self.node_id
    }

    /// Whether this replica leads a group of several voters but no quorum
    /// has acknowledged it for longer than the lease (the longest election
    /// timeout): Raft's CheckQuorum. By then the voters it cannot reach
    /// have most likely elected another leader. openraft keeps such a
    /// leader a leader (it steps down only when it sees a higher term,
    /// which a cut-off leader never sees) and leaves its uncommitted
    /// writes pending until the partition heals, so the broker checks
    /// this to stop claiming the leadership and to answer those writes.
    /// False for a leader no quorum acknowledged yet (just elected: a
    /// quorum has just voted for it), and for a quiet group's leader,
    /// whose lease runs out by design: the caller tells those apart
    /// (`transport::HeartbeatTicker`).
    pub fn lease_lost(&self) -> bool {
        self.quorum_ack_age()
            .is_some_and(|age| age.is_some_and(|a| a > self.lease))
    }

    /// The lease: how long a leader may go without hearing from a quorum
    /// (openraft's longest election timeout).
    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// On the leader: sends one heartbeat round and waits until a quorum
    /// has answered it (at most a few seconds), so that the lease and
    /// every follower's last-heard time are fresh, as after a quiet spell
    /// (see `transport::HeartbeatTicker`). Returns whether it was renewed.
    pub async fn renew_lease(&self) -> bool {
        let raft = self.raft.borrow().clone();
        match raft {
            Some(r) => renew_lease(&r, self.lease).await,
            None => self.single_voter,
        }
    }

    /// The high watermark: the offset after the last committed (and
    /// applied) entry. Consumers read below it.
    pub fn high_watermark(&self) -> i64 {
        self.shared.hw.get()
    }

    /// The current Raft term, which is the Kafka leader epoch.
    pub fn leader_epoch(&self) -> i32 {
        let term = match self.with_metrics(|m| m.current_term) {
            Some(t) => t,
            None => self
                .shared
                .meta
                .borrow()
                .vote
                .map_or(0, |v| v.leader_id.term),
        };
        i32::try_from(term).unwrap_or(i32::MAX)
    }

    /// The leader epoch of the last leadership whose commit point reached
    /// this replica (the term of the last entry it knows committed): what
    /// it reports while it knows no leader. Its current term is no leader
    /// epoch then: a follower cut off from its leader raises it at every
    /// election it starts and cannot win.
    pub fn committed_epoch(&self) -> i32 {
        let term = match self.with_metrics(|m| m.local_committed.map_or(0, |c| c.leader_id.term)) {
            Some(t) => t,
            None => return self.leader_epoch(),
        };
        i32::try_from(term).unwrap_or(i32::MAX)
    }

    /// Whether this replica is the leader and accepts writes: its vote
    /// is granted by a quorum and a quorum has acknowledged it since
    /// (openraft refuses writes until then: the leader lease).
    pub fn is_leader(&self) -> bool {
        self.with_metrics(|m| {
            self.leads_by_vote(m) && (self.single_voter || m.last_quorum_acked.is_some())
        })
        // Only a single-voter leader hibernates.
        .unwrap_or(self.single_voter)
    }

    /// The leader this replica knows of.
    pub fn leader_id(&self) -> Option<NodeId> {
        self.with_metrics(|m| m.current_leader)
            .unwrap_or(Some(self.node_id))
    }

    pub fn node_id(&self) -> NodeId {
        self.node_id
    }

    /// Whether this replica may grant a (pre-)vote to a candidate whose
    /// last log entry is `candidate_last`.
    ///
    /// A replica that starts from an empty folder in an existing group (a
    /// broker whose data was wiped) has lost both its log and its vote. If
    /// it voted like any other replica before catching up, it could help
    /// elect a candidate that misses entries committed with its own help
    /// before the wipe, and the group would lose acknowledged writes.
    ///
    /// So until it has caught up, it stands in for its lost log with the
    /// commit point it first heard from a leader after starting (its
    /// *sync target*: everything committed before the wipe is at or below
    /// it) and votes only for candidates whose log reaches it. Holding the
    /// vote back from every candidate until caught up (the first version)
    /// left a group without a leader whenever its leader died before the
    /// wiped replica had refilled: the other survivor, which had every
    /// committed entry, could not win without that vote. A replica that
    /// heard no leader yet votes only for candidates whose log is no
    /// longer than its own: at a group's first election every log is
    /// empty, so a new group still elects.
    pub fn may_grant_vote(&self, candidate_last: Option<(u64, u64)>) -> bool {
        if self.is_synced() {
            return true;
        }
        self.with_metrics(|m| {
        let grant = unsynced_vote(self.sync_target.get(), candidate_last, m.last_log_index);
        if !grant {
            tracing::info!(
                dir = %self.shared.log.dir().display(),
                node = self.node_id,
                ?candidate_last,
                own_last = ?m.last_log_index,
                sync_target = ?self.sync_target.get(),
                cluster_committed = ?m.cluster_committed.map(|c| (c.leader_id.term, c.index)),
                term = %m.current_term,
                leader = ?m.current_leader,
                "vote held back: this replica started empty and the candidate's log does not reach what was committed"
            );
        }
        grant
        })
        .unwrap_or(true)
    }

    /// Whether this replica holds every entry a leader has told it is
    /// committed (always, for a replica that did not start empty). Once
    /// true it stays true; the broker calls it regularly so that the
    /// answer is settled while a leader is alive, not first asked when
    /// the leader has just died.
    pub fn is_synced(&self) -> bool {
        if !self.unsynced.get() {
            return true;
        }
        self.with_metrics(|m| {
            // The target is the first commit point a leader reported after
            // this replica started empty: what was committed before the wipe
            // is at or below it. (Chasing the leader's latest commit point
            // instead never ended for a follower that stays a little behind
            // under load, and two survivors then refused each other.)
            if self.sync_target.get().is_none() {
                self.sync_target
                    .set(m.cluster_committed.map(|c| (c.leader_id.term, c.index)));
            }
            if let Some((_, target)) = self.sync_target.get()
                && m.last_log_index >= Some(target)
            {
                self.unsynced.set(false);
                return true;
            }
            false
        })
        .unwrap_or(true)
    }

    /// Every node of the group: voters and learners.
    pub fn members(&self) -> BTreeSet<NodeId> {
        self.with_metrics(|m| {
            m.membership_config
                .membership()
                .nodes()
                .map(|(id, _)| *id)
                .collect()
        })
        .unwrap_or_else(|| BTreeSet::from([self.node_id]))
    }

    /// On the leader: adds `node` as a learner (it receives the log but
    /// does not vote). Returns without waiting for it to catch up.
    pub async fn add_learner(&self, node: NodeId) -> Result<(), Error> {
        let raft = self.raft.borrow().clone();
        let Some(r) = raft else {
            return Err(Error::NotLeader { leader: None });
        };
        match r.add_learner(node, openraft::EmptyNode {}, false).await {
            Ok(_) => Ok(()),
            Err(RaftError::APIError(ClientWriteError::ForwardToLeader(f))) => {
                Err(Error::NotLeader {
                    leader: f.leader_id,
                })
            }
            Err(e) => Err(Error::Fatal(e.to_string())),
        }
    }

    /// The group's membership as this replica last saw it.
    pub fn membership(&self) -> Membership {
        self.with_metrics(|m| {
            let eff = m.membership_config.membership();
            let configs = eff.get_joint_config();
            let voters: BTreeSet<NodeId> = configs.last().cloned().unwrap_or_default();
            let any_voter: BTreeSet<NodeId> = configs.iter().flatten().copied().collect();
            Membership {
                voters,
                learners: eff
                    .nodes()
                    .map(|(id, _)| *id)
                    .filter(|id| !any_voter.contains(id))
                    .collect(),
                joint: configs.len() > 1,
                committed: m.membership_config.log_id() == m.committed_membership_config.log_id(),
            }
        })
        .unwrap_or_else(|| Membership {
            voters: BTreeSet::from([self.node_id]),
            learners: BTreeSet::new(),
            joint: false,
            committed: true,
        })
    }

    /// On the leader: makes `voters` the group's voters, through joint
    /// consensus (two membership entries). Removed voters leave the group,
    /// or stay in it as learners with `keep_removed_as_learners`; learners
    /// stay learners. Every new voter must be a learner already. Also
    /// finishes a joint configuration a lost leader left half-done.
    /// Returns once the change is committed. A leader that is no longer a
    /// member steps down once the change is committed (openraft's
    /// `removed_leader_step_down`); a leader kept as a learner does not,
    /// so a leader should hand its leadership on before it keeps itself.
    pub async fn change_voters(
        &self,
        voters: BTreeSet<NodeId>,
        keep_removed_as_learners: bool,
    ) -> Result<(), Error> {
        let raft = self.raft.borrow().clone();
        let Some(r) = raft else {
            return Err(Error::NotLeader { leader: None });
        };
        match r.change_membership(voters, keep_removed_as_learners).await {
            Ok(_) => Ok(()),
            Err(RaftError::APIError(ClientWriteError::ForwardToLeader(f))) => {
                Err(Error::NotLeader {
                    leader: f.leader_id,
                })
            }
            Err(e) => Err(Error::Membership(e.to_string())),
        }
    }

    /// On the leader: removes learners (members that do not vote) from the
    /// group; they stop receiving the log.
    pub async fn remove_learners(&self, nodes: BTreeSet<NodeId>) -> Result<(), Error> {
        let raft = self.raft.borrow().clone();
        let Some(r) = raft else {
            return Err(Error::NotLeader { leader: None });
        };
        match r
            .change_membership(openraft::ChangeMembers::RemoveNodes(nodes), false)
            .await
        {
            Ok(_) => Ok(()),
            Err(RaftError::APIError(ClientWriteError::ForwardToLeader(f))) => {
                Err(Error::NotLeader {
                    leader: f.leader_id,
                })
            }
            Err(e) => Err(Error::Membership(e.to_string())),
        }
    }

    /// On the leader: whether `node` (a voter or a learner) has held
    /// everything committed at some moment within `max_lag`, as for the
    /// in-sync replicas. A learner that does is ready to vote.
    pub fn caught_up_within(&self, node: NodeId, max_lag: Duration) -> bool {
        if node == self.node_id {
            return true;
        }
        // Refreshes the record of when each member last caught up.
        if self.in_sync_replicas(max_lag).is_none() {
            return false;
        }
        self.caught_up
            .borrow()
            .get(&node)
            .is_some_and(|t| t.elapsed() <= max_lag)
    }

    /// Asks openraft to hand the leadership to `to` (a voter that is in
    /// sync): the leader stops taking writes and `to` starts an election
    /// it wins at once. Ignored if this replica does not lead. Used by a
    /// controlled shutdown and by preferred-leader rebalancing.
    ///
    /// Refused (`Error::Membership`) unless `to` votes in every
    /// configuration of the group's membership: openraft hands the
    /// leadership to a learner too, which cannot be elected, and the
    /// group then takes no writes until the hand-off times out (a
    /// reassignment's new replica is a learner until it has caught up).
    pub async fn transfer_leadership(&self, to: NodeId) -> Result<(), Error> {
        let raft = self.raft.borrow().clone();
        if let Some(r) = &raft {
            let votes_everywhere = {
                let m = r.metrics();
                let m = m.borrow_watched();
                let configs = m.membership_config.membership().get_joint_config();
                !configs.is_empty() && configs.iter().all(|c| c.contains(&to))
            };
            if !votes_everywhere {
                return Err(Error::Membership(format!(
                    "node {to} is not a voter of the group: it cannot take the leadership"
                )));
            }
        }
        match raft {
            Some(r) => r
                .trigger()
                .transfer_leader(to)
                .await
                .map_err(|e| Error::Fatal(e.to_string())),
            None => Ok(()),
        }
    }

    /// On the leader: the voters in sync, i.e. this node and every
    /// follower that, within `max_lag` (Kafka's
    /// `replica.lag.time.max.ms`), both acknowledged something and held
    /// everything the leader had committed (as Kafka's ISR: caught up,
    /// not merely alive; a follower refilling a wiped log is alive but
    /// out of sync until it has caught up). `None` on a follower, which
    /// does not know.
    pub fn in_sync_replicas(&self, max_lag: Duration) -> Option<Vec<NodeId>> {
        use openraft::Instant as _;
        self.with_metrics(|m| {
            if m.current_leader != Some(self.node_id) {
                return None;
            }
            let committed = m.local_committed.map(|c| c.index);
            let now = Instant::now();
            let mut caught_up = self.caught_up.borrow_mut();
            if let Some(rep) = &m.replication {
                for (node, matched) in rep {
                    if matched.map(|l| l.index) >= committed {
                        caught_up.insert(*node, now);
                    }
                }
            }
            let beats = m.heartbeat.as_ref();
            Some(
                m.membership_config
                    .membership()
                    .voter_ids()
                    .filter(|v| {
                        *v == self.node_id
                            || (beats
                                .and_then(|b| b.get(v))
                                .and_then(|t| t.as_ref())
                                .is_some_and(|t| t.elapsed() <= max_lag)
                                && caught_up
                                    .get(v)
                                    .is_some_and(|t| now.duration_since(*t) <= max_lag))
                    })
                    .collect(),
            )
        })
        .unwrap_or_else(|| Some(vec![self.node_id]))
    }

    /// On the leader: the Kafka offset each other member's log is known
    /// to reach (the end of the last entry it acknowledged in this term),
    /// for the members whose position the index knows exactly (the recent
    /// tail: a member further behind is left out, as one that cannot
    /// serve a reader at the tail anyway). `None` on a follower.
    pub fn follower_end_offsets(&self) -> Option<BTreeMap<NodeId, i64>> {
        self.with_metrics(|m| {
            if m.current_leader != Some(self.node_id) {
                return None;
            }
            let map = self.shared.map.borrow();
            let mut out = BTreeMap::new();
            for (node, matched) in m.replication.iter().flatten() {
                if *node == self.node_id {
                    continue;
                }
                let Some(matched) = matched else { continue };
                if let crate::index::Locate::Exact(end) = map.locate(matched.index + 1) {
                    out.insert(*node, end);
                }
            }
            Some(out)
        })
        .flatten()
    }

    /// Calls `f` after each apply round that moved the high watermark
    /// (on a follower as on the leader). One listener; a new one replaces
    /// the last.
    pub fn on_high_watermark(&self, f: Rc<dyn Fn()>) {
        *self.shared.hw_listener.borrow_mut() = Some(f);
    }

    /// On the leader: for every other member (voters and learners), how
    /// long ago it last acknowledged this leader (`None`: not yet in this
    /// term). `None` on a follower, which does not know.
    pub fn last_heard(&self) -> Option<BTreeMap<NodeId, Option<Duration>>> {
        use openraft::Instant as _;
        self.with_metrics(|m| {
            if m.current_leader != Some(self.node_id) {
                return None;
            }
            let beats = m.heartbeat.as_ref();
            Some(
                m.membership_config
                    .membership()
                    .nodes()
                    .map(|(id, _)| *id)
                    .filter(|id| *id != self.node_id)
                    .map(|id| {
                        let ago = beats
                            .and_then(|b| b.get(&id))
                            .and_then(|t| t.as_ref())
                            .map(|t| t.elapsed());
                        (id, ago)
                    })
                    .collect(),
            )
        })
        .flatten()
    }

    /// On the leader: each member's log end offset and when it last
    /// acknowledged and last caught up (refreshing the caught-up record
    /// as [`PartitionReplica::in_sync_replicas`] does). `None` on a
    /// follower, which does not know.
    pub async fn quorum_view(&self) -> Option<QuorumView> {
        use openraft::Instant as _;
        let now = Instant::now();
        // (term, matched index and time since the last acknowledgement
        // per follower, voters, all members), read under the borrow.
        type Read = (
            u64,
            BTreeMap<NodeId, Option<u64>>,
            BTreeMap<NodeId, Option<Duration>>,
            BTreeSet<NodeId>,
            BTreeSet<NodeId>,
        );
        let (term, matched, beats, voters, all): Read = {
            let raft = self.raft.borrow();
            match raft.as_ref() {
                None => (
                    self.shared
                        .meta
                        .borrow()
                        .vote
                        .map_or(0, |v| v.leader_id.term),
                    BTreeMap::new(),
                    BTreeMap::new(),
                    BTreeSet::from([self.node_id]),
                    BTreeSet::from([self.node_id]),
                ),
                Some(r) => {
                    let m = r.metrics();
                    let m = m.borrow_watched();
                    if m.current_leader != Some(self.node_id) {
                        return None;
                    }
                    let committed = m.local_committed.map(|c| c.index);
                    let mut matched = BTreeMap::new();
                    if let Some(rep) = &m.replication {
                        let mut caught_up = self.caught_up.borrow_mut();
                        for (node, l) in rep {
                            if l.map(|l| l.index) >= committed {
                                caught_up.insert(*node, now);
                            }
                            matched.insert(*node, l.map(|l| l.index));
                        }
                    }
                    let beats = m
                        .heartbeat
                        .clone()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(n, t)| (n, t.map(|t| t.elapsed())))
                        .collect();
                    let eff = m.membership_config.membership();
                    (
                        m.current_term,
                        matched,
                        beats,
                        eff.voter_ids().collect(),
                        eff.nodes().map(|(id, _)| *id).collect(),
                    )
                }
            }
        };
        let end = self.shared.map.borrow().end_offset();
        let mut members = vec![MemberProgress {
            node: self.node_id,
            voter: voters.contains(&self.node_id),
            log_end_offset: Some(end),
            last_ack_ago: Some(Duration::ZERO),
            caught_up_ago: Some(Duration::ZERO),
        }];
        for node in all.into_iter().filter(|n| *n != self.node_id) {
            // The entry after the last one it holds starts at its log end.
            let log_end_offset = match matched.get(&node).copied().flatten() {
                Some(i) => self.shared.offset_of(i + 1).await.ok(),
                None => None,
            };
            let last_ack_ago = beats.get(&node).copied().flatten();
            // Seen caught up when an acknowledgement showed it, so no
            // later than that acknowledgement (as Kafka's times of a fetch).
            let caught_up_ago = self
                .caught_up
                .borrow()
                .get(&node)
                .map(|t| now.saturating_duration_since(*t))
                .map(|c| last_ack_ago.map_or(c, |a| c.max(a)));
            members.push(MemberProgress {
                node,
                voter: voters.contains(&node),
                log_end_offset,
                last_ack_ago,
                caught_up_ago,
            });
        }
        Some(QuorumView {
            leader: self.node_id,
            term,
            high_watermark: self.high_watermark(),
            members,
        })
    }

    /// The partition log, to read (Fetch, ListOffsets, ...). Appends go
    /// through [`PartitionReplica::append`] only.
    pub fn log(&self) -> &Rc<Log> {
        &self.shared.log
    }

    /// The openraft handle, for a network transport to deliver messages;
    /// `None` while hibernating (only single-voter groups do, and nobody
    /// sends them messages).
    pub fn raft(&self) -> Option<RaftHandle> {
        self.raft.borrow().clone()
    }

    /// Heap bytes of the Raft-side maps (the log reports its own).
    pub fn memory_bytes(&self) -> usize {
        self.shared.map.borrow().heap_bytes()
    }

    /// Waits until some node is leader (this one or another), polling
    /// openraft's metrics.
    pub async fn wait_for_leader(&self, timeout: Duration) -> Result<NodeId, Error> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(l) = self.leader_id() {
                return Ok(l);
            }
            if Instant::now() >= deadline {
                return Err(Error::Timeout("a leader"));
            }
            monoio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// Whether this group's only voter is this node.
    pub fn is_single_voter(&self) -> bool {
        self.single_voter
    }

    /// Retention (`retention.ms`, `retention.bytes`): deletes old whole
    /// segments, after handing the committed prefix over (see
    /// [`PartitionReplica::release_prefix_to`]). Returns how many segments
    /// went.
    ///
    /// Only the part retention deletes is handed over: the rest of the
    /// Raft log stays, so that a replica that needs it (a new replica of a
    /// reassignment, a wiped one) catches up by log shipping. Handing the
    /// whole committed prefix over at every pass left nothing to ship
    /// after a partition's first retention pass.
    pub async fn apply_retention(&self, now_ms: i64) -> Result<usize, Error> {
        if let Some(cut) = self.shared.log.retention_cut(now_ms)
            && cut > self.shared.log.max_collectible_offset()
        {
            self.release_prefix_to(cut).await?;
        }
        Ok(self.shared.log.apply_retention(now_ms).await?)
    }

    /// DeleteRecords: moves the log start to `offset`, which must not be
    /// past the high watermark (Kafka's OFFSET_OUT_OF_RANGE), nor past
    /// what every replica has (a leader does not cut a follower off:
    /// `StorageError::NotCollectible`, retriable later). Returns the new
    /// log start.
    pub async fn delete_records(&self, offset: i64) -> Result<i64, Error> {
        let hw = self.high_watermark();
        if offset > hw || offset < 0 {
            return Err(StorageError::OffsetOutOfRange {
                offset,
                log_start: self.shared.log.log_start_offset(),
                log_end: hw,
            }
            .into());
        }
        self.release_prefix_to(offset).await?;
        Ok(self.shared.log.delete_records(offset).await?)
    }

    /// Compaction (`cleanup.policy=compact`) of the sealed segments below
    /// the purge point, after handing the committed prefix over.
    pub async fn compact(&self, now_ms: i64) -> Result<CompactionStats, Error> {
        if !self.shared.log.config().cleanup_policy.compacts() {
            return Ok(CompactionStats::default());
        }
        self.release_prefix_to(i64::MAX).await?;
        Ok(self.shared.log.compact(now_ms).await?)
    }

    /// Moves openraft's purge point up to the apply point (a leader: no
    /// further than every other replica has replicated, so that nobody
    /// needs a log reset because of it), and no further than the entry
    /// that starts at or past Kafka offset `limit`; with it the log's max
    /// collectible offset: retention, DeleteRecords and compaction may
    /// then act on everything below. Returns that offset.
    ///
    /// openraft purges only what a snapshot covers, so a snapshot (a
    /// record of the apply point) is taken first. It may delay the purge
    /// while a replication stream still reads those entries; after a
    /// short wait this returns what is purged by then.
    pub async fn release_prefix_to(&self, limit: i64) -> Result<i64, Error> {
        let Some((applied, _)) = self.shared.meta.borrow().applied else {
            return Ok(self.shared.log.max_collectible_offset());
        };
        // The last entry below `limit`.
        let below_limit = if limit == i64::MAX {
            applied.index
        } else {
            let first = self
                .shared
                .first_index_at(limit)
                .await
                .map_err(|e| Error::Fatal(e.to_string()))?;
            match first.checked_sub(1) {
                Some(last) if first > self.shared.map.borrow().first.0 => last,
                _ => return Ok(self.shared.log.max_collectible_offset()),
            }
        };
        let Some(raft) = self.raft() else {
            // Hibernating: openraft is not running, and would do exactly
            // this (its state is read back from ours when it starts).
            let upto = applied.index.min(below_limit);
            if self.shared.meta.borrow().purged.map(|p| p.index) < Some(upto) {
                let term =
                    self.shared.map.borrow().term_at(upto).ok_or_else(|| {
                        Error::Fatal(format!("no term known for raft index {upto}"))
                    })?;
                self.shared.snapshot_applied();
                self.shared
                    .purge(crate::types::log_id(term, upto))
                    .await
                    .map_err(|e| Error::Fatal(e.to_string()))?;
            }
            return Ok(self.shared.log.max_collectible_offset());
        };
        let mut target = applied.index.min(below_limit);
        {
            let m = raft.metrics();
            let m = m.borrow_watched();
            if let Some(repl) = &m.replication {
                for (id, matched) in repl.iter() {
                    if *id == self.node_id {
                        continue;
                    }
                    match matched {
                        Some(l) => target = target.min(l.index),
                        None => return Ok(self.shared.log.max_collectible_offset()),
                    }
                }
            }
        }
        let purged = |sh: &Shared| sh.purged_durable.get();
        if purged(&self.shared) >= Some(target) {
            return Ok(self.shared.log.max_collectible_offset());
        }
        let fatal = |e: openraft::error::Fatal<TypeConfig>| Error::Fatal(e.to_string());
        let snap = |sh: &Shared| sh.meta.borrow().snapshot.as_ref().map(|s| s.0.index);
        if snap(&self.shared) < Some(target) {
            raft.trigger().snapshot().await.map_err(fatal)?;
            let deadline = Instant::now() + Duration::from_secs(5);
            while snap(&self.shared) < Some(target) {
                if Instant::now() >= deadline {
                    return Err(Error::Timeout("a snapshot of the apply point"));
                }
                monoio::time::sleep(Duration::from_millis(1)).await;
            }
        }
        raft.trigger().purge_log(target).await.map_err(fatal)?;
        let deadline = Instant::now() + Duration::from_secs(1);
        while purged(&self.shared) < Some(target) && Instant::now() < deadline {
            monoio::time::sleep(Duration::from_millis(1)).await;
        }
        Ok(self.shared.log.max_collectible_offset())
    }

    /// Where a log reset copies a leader's log from (see
    /// [`crate::LogSource`]); without one a reset fails.
    pub fn set_log_source(&self, source: crate::LogSource) {
        *self.shared.log_source.borrow_mut() = Some(source);
    }

    /// Serves a follower's log reset: the committed batches from the one
    /// holding `from` (or from the log start, if `from` is below it) on,
    /// below `until`, about `max_bytes` at most (at least one batch).
    pub async fn read_for_reset(
        &self,
        from: i64,
        until: i64,
        max_bytes: usize,
    ) -> Result<bytes::Bytes, Error> {
        let log = &self.shared.log;
        let until = until.min(self.high_watermark());
        let from = from.max(log.log_start_offset());
        if from >= until {
            return Ok(bytes::Bytes::new());
        }
        let r = log
            .read_as(from, max_bytes, Some(until), ReadClass::Replication)
            .await?;
        let mut out = bytes::BytesMut::with_capacity(r.bytes);
        for b in r.batches {
            out.extend_from_slice(&b);
        }
        Ok(out.freeze())
    }

    /// On a leader: the replicas that answer it but are behind its purge
    /// point, so they can only catch up through a log reset (the leader's
    /// log from its log start, sent as openraft's snapshot). It happens to
    /// a wiped replica, a replica a reassignment adds, and one that was
    /// cut off while another purged and then became leader. Empty on a
    /// follower.
    pub fn followers_needing_reset(&self) -> Vec<NodeId> {
        let Some(raft) = self.raft() else {
            return Vec::new();
        };
        let m = raft.metrics();
        let m = m.borrow_watched();
        let (Some(purged), Some(repl)) = (m.purged, &m.replication) else {
            return Vec::new();
        };
        // A replica that never acknowledged a heartbeat of this term is
        // unreachable (or not heard from yet), not known to be behind.
        let answers = |id: &NodeId| {
            m.heartbeat
                .as_ref()
                .is_none_or(|h| h.get(id).is_some_and(|t| t.is_some()))
        };
        repl.iter()
            .filter(|(id, matched)| {
                **id != self.node_id && answers(id) && matched.map(|l| l.index) < Some(purged.index)
            })
            .map(|(id, _)| *id)
            .collect()
    }

    /// Stops the Raft group, writes the Raft state and closes the log.
    /// The replica can be reopened from the same folder afterwards.
    ///
    /// A hibernating replica's state file is already current (hibernation
    /// wrote it, and every change since went through a write of its own),
    /// so closing it writes nothing: a SIGTERM of a broker with 10,000
    /// idle partitions took 9 s, two fsyncs per partition.
    pub async fn close(&self) -> Result<(), Error> {
        let _guard = self.wake_lock.lock().await;
        let raft = self.set_raft(None);
        let was_running = raft.is_some();
        if let Some(raft) = raft {
            raft.shutdown()
                .await
                .map_err(|e| Error::Fatal(format!("{e:?}")))?;
        }
        self.shared.log.close().await?;
        if was_running || self.shared.hw.get() != self.shared.meta_hw.get() {
            self.shared.persist().await?;
        }
        Ok(())
    }
}

/// openraft refuses writes once a leader has not heard a quorum for its
/// lease (the longest election timeout). That is the normal state of a
/// quiet group, which sends no heartbeats (see
/// `transport::HeartbeatTicker`): one heartbeat round renews the lease.
/// Returns whether it was renewed (still the leader, a quorum answered).
/// Callers that write must keep their writes in order around it (see
/// `PartitionReplica::write`).
/// Waits at most `timeout` (the lease: a quorum that cannot answer within
/// it would not have kept the lease either).
async fn renew_lease(raft: &RaftHandle, timeout: Duration) -> bool {
    let before = raft.metrics().borrow_watched().last_quorum_acked;
    if raft.trigger().heartbeat().await.is_err() {
        return false;
    }
    raft.wait(Some(timeout))
        .metrics(
            |m| {
                m.state == openraft::ServerState::Leader
                    && m.last_quorum_acked.is_some()
                    && m.last_quorum_acked != before
            },
            "leader lease renewed",
        )
        .await
        .is_ok()
}

/// Waits for a single-voter group to lead (at once: it elected itself or
/// resumed), then stops its timer: a group that is its own quorum needs
/// none (nobody to heartbeat, nobody to elect), and ticking costs a wakeup
/// every few tens of milliseconds per partition, which adds up to real
/// idle CPU with thousands of partitions.
///
/// At open (`elected`) it waits until the group has also applied an entry
/// of its new term (the blank entry a new leader appends), so everything
/// the log held before the restart is committed, applied and below the
/// high watermark. Being Leader is not enough: the blank entry may still
/// be on its way to disk, and a reader that starts then (the group
/// coordinator replaying `__consumer_offsets` at start-up) would stop at
/// the high watermark of before the restart and miss the newest records.
/// A wake from hibernation resumes its term with everything applied and
/// the high watermark kept, so there is nothing more to wait for.
async fn settle_single_voter(raft: &RaftHandle, elected: bool) -> Result<(), Error> {
    raft.wait(Some(Duration::from_secs(10)))
        .metrics(
            |m| {
                m.state == openraft::ServerState::Leader
                    && (!elected
                        || m.last_applied
                            .is_some_and(|a| a.leader_id.term == m.current_term))
            },
            "a single-voter group to lead and apply its own entry",
        )
        .await
        .map_err(|_| Error::Timeout("a single-voter group to lead"))?;
    raft.runtime_config().tick(false);
    Ok(())
}

/// The vote of a replica that started empty and has not caught up:
/// granted to a candidate whose last log id (term, index) reaches the sync
/// target (compared as Raft compares logs: term first, then index); with
/// no target yet (no leader heard since the start), only to a candidate
/// whose log is no longer than this replica's own (a new group's first
/// election).
fn unsynced_vote(
    target: Option<(u64, u64)>,
    candidate_last: Option<(u64, u64)>,
    own_last_index: Option<u64>,
) -> bool {
    match target {
        Some(target) => candidate_last.is_some_and(|c| c >= target),
        None => candidate_last.map_or(0, |c| c.1) <= own_last_index.unwrap_or(0),
    }
}

#[cfg(test)]
mod vote_tests {
    use super::unsynced_vote;

    #[test]
    fn a_wiped_replica_votes_only_for_logs_that_reach_its_target() {
        let target = Some((5, 100));
        // The survivor that holds everything committed gets the vote, even
        // though the wiped replica itself holds only 10 entries.
        assert!(unsynced_vote(target, Some((5, 100)), Some(10)));
        assert!(unsynced_vote(target, Some((5, 250)), Some(10)));
        assert!(
            unsynced_vote(target, Some((6, 90)), Some(10)),
            "a later term wins"
        );
        // A candidate missing committed entries does not.
        assert!(!unsynced_vote(target, Some((5, 99)), Some(10)));
        assert!(
            !unsynced_vote(target, Some((4, 500)), Some(10)),
            "an older term loses"
        );
        assert!(!unsynced_vote(target, None, Some(10)));
        // No leader heard yet: only a new group's first election.
        assert!(unsynced_vote(None, Some((0, 0)), Some(0)));
        assert!(unsynced_vote(None, None, None));
        assert!(!unsynced_vote(None, Some((1, 1)), Some(0)));
    }
}

#[cfg(test)]
mod config_tests {
    use super::ReplicaConfig;
    use std::time::Duration;

    #[test]
    fn openraft_times_heartbeat_answers_and_ticks_by_the_core_interval_when_set() {
        let ticker_driven = ReplicaConfig {
            heartbeat_interval: Duration::from_millis(200),
            election_timeout_min: Duration::from_millis(700),
            election_timeout_max: Duration::from_millis(1400),
            core_heartbeat_interval: Some(Duration::from_millis(600)),
            ..ReplicaConfig::default()
        };
        assert_eq!(
            ticker_driven.openraft(false).unwrap().heartbeat_interval,
            600
        );
        let own_timer = ReplicaConfig {
            core_heartbeat_interval: None,
            ..ticker_driven.clone()
        };
        assert_eq!(own_timer.openraft(false).unwrap().heartbeat_interval, 200);
        // openraft refuses a heartbeat interval that is not under the
        // shortest election timeout, and so does the replica.
        let too_long = ReplicaConfig {
            core_heartbeat_interval: Some(Duration::from_millis(700)),
            ..ticker_driven
        };
        assert!(too_long.openraft(false).is_err());
    }
}
