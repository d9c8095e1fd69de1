//! A partition replica on the shard that owns it: its Raft group member
//! (whose log is the partition log), its high watermark, idempotent
//! producers' state, and the consumers waiting for new data.
//!
//! Every append goes through the partition's Raft group
//! (`tidemark_raft::PartitionReplica`): the Raft commit point is the high
//! watermark and the Raft term the leader epoch (DESIGN.md invariant 2).
//! On a single node the group has one voter, this broker, so a batch is
//! committed once it is durable here; a cluster uses the same path.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use bytes::{Bytes, BytesMut};
use kafka_protocol::ErrorCode;
use kafka_protocol::records::{
    Compression, EndTxnMarker, RecordBatch, RecordBatches, legacy, recompress,
};
use tidemark_raft::{NoPeers, OpenOptions, PartitionReplica, ReplicaConfig};
use tidemark_storage::{
    AbortedTxn, AppendInfo, Log, LogConfig, ProducerTxnState, ReadResult, StorageError,
};
use uuid::Uuid;

use crate::cluster::{ShardNet, partition_group};
use crate::notify::LocalNotify;
use crate::producer_state::{Check, ProducerState};
use crate::record_validation::{RecordError, RecordRules, validate_records};
use crate::turnstile::Turnstile;

/// For this long after a new leadership, a sequence gap is answered as
/// retriable (see `append`).
const GAP_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// How long a produce waits for a just-elected leader to take writes.
const LEADERSHIP_SETTLE: std::time::Duration = std::time::Duration::from_secs(2);
/// How often a produce waiting for its batch to commit checks whether the
/// leader is cut off from its quorum ([`Partition::lost_quorum`]).
const QUORUM_CHECK_INTERVAL: std::time::Duration = std::time::Duration::from_millis(100);

/// How long a transactional batch under a producer's newer epoch waits,
/// outside the admission turn, for the marker that ends the producer's
/// older transaction here (transactions v2: EndTxn answers before its
/// markers are written, and the producer's next transaction starts at
/// once under the bumped epoch). Past it the batch is refused, retriable.
const OLDER_TXN_WAIT: std::time::Duration = std::time::Duration::from_secs(2);
const OLDER_TXN_POLL: std::time::Duration = std::time::Duration::from_millis(2);

/// The folder of one partition's log.
pub fn log_dir(data_dir: &Path, topic: &str, topic_id: Uuid, index: i32) -> PathBuf {
    data_dir
        .join("logs")
        .join(format!("{topic}-{index}-{}", topic_id.simple()))
}

/// A partition replica.
pub struct Partition {
    pub topic: String,
    pub topic_id: Uuid,
    pub index: i32,
    /// The partition log, for reads. Appends go through `replica` only.
    pub log: Rc<Log>,
    replica: Rc<PartitionReplica>,
    /// The offset the next accepted batch will get: the log end plus the
    /// records of batches handed to Raft and not yet in the log. Idempotent
    /// producers' sequences are recorded with it before the first await.
    next_offset: Cell<i64>,
    log_append_time: Cell<bool>,
    /// `message.timestamp.before.max.ms` and `message.timestamp.after.max.ms`
    /// in force (set by `topics::open_partition_with`; unbounded until then).
    timestamp_bounds: Cell<(i64, i64)>,
    /// `compression.type` and its level: `Some` when client batches in
    /// another codec are recompressed (set with the timestamp bounds).
    recompress_to: Cell<Option<(Compression, Option<i32>)>>,
    /// Woken when the high watermark moves (by the leader's appends, and
    /// in a cluster by the Raft group's apply rounds, so long polls on a
    /// follower serving KIP-392 reads wake as well).
    pub new_data: Rc<LocalNotify>,
    /// Idempotent producers' sequence state.
    producers: RefCell<ProducerState>,
    /// Cluster mode: the shard's transport, where the group is registered.
    net: Option<Rc<ShardNet>>,
    /// Cluster mode: how many replicas were in sync at the last check
    /// (`cluster::leadership`), for `min.insync.replicas`.
    in_sync: Cell<usize>,
    /// Cluster mode: the leader epoch for which `producers` was rebuilt
    /// from the log (a new leader must know what the old one accepted).
    producers_epoch: Cell<i32>,
    /// Bumped each time `producers` is rebuilt, so that an append started
    /// under an earlier leadership and ending after the rebuild leaves
    /// the rebuilt state alone (its failure used to undo batches the
    /// rebuild had found committed in the log, and the producer's next
    /// batch was refused as out of order, fatally for librdkafka).
    producers_gen: Cell<u64>,
    /// When `producers` was last rebuilt for a new leadership.
    producers_rebuilt_at: Cell<std::time::Instant>,
    /// Whether that rebuild read the log from offset 0, so that a producer
    /// `producers` does not know has no batch in this partition at all
    /// (nothing was deleted: its earlier batches cannot have been removed
    /// by retention, which is why Kafka accepts any sequence from an
    /// unknown producer).
    producers_complete: Cell<bool>,
    /// Appends check and record producers' sequences (and reach the Raft
    /// group) one at a time, in arrival order, even when a rebuild of the
    /// producers' state makes the first of them wait.
    admission: Turnstile,
    /// The leader epoch in which a wait for this replica to take writes
    /// ran out: later appends in that epoch do not wait again (queued
    /// behind one another in the turnstile, each would wait in turn).
    settle_expired_epoch: Cell<i32>,
    /// `min.insync.replicas` of the topic.
    min_insync: Cell<usize>,
    /// Cluster mode: whether [`Partition::is_quiet`] last saw the group
    /// quiet, and when it first saw it awake after that (or the
    /// partition's creation): a leader that woke less than a lease ago is
    /// not taken for cut off (see [`Partition::lost_quorum`]). Kept as a
    /// transition, not as "last seen quiet", so that the leadership
    /// watcher's check of every quiet partition every 20 ms reads no
    /// clock (at 10,000 partitions that was 500,000 clock reads a second).
    seen_quiet: Cell<bool>,
    woke_at: Cell<std::time::Instant>,
    /// Producers (id -> epoch) whose ongoing transaction the coordinator
    /// confirmed includes this partition; a marker of the producer ends
    /// the confirmation (see [`Partition::append_with_verifier`]).
    txn_verified: RefCell<std::collections::HashMap<i64, i16>>,
    /// Producers with a transaction marker admitted here but not yet
    /// committed (id -> how many): until it is, the log still shows the
    /// transaction it ends as open, and a batch of the producer's next
    /// transaction must neither join it nor skip verification because of
    /// it (see [`Partition::txn_settling`]).
    markers_in_flight: RefCell<std::collections::HashMap<i64, u32>>,
}

/// One admitted marker of a producer, counted in
/// `Partition::markers_in_flight` while it lives.
struct MarkerInFlight<'a> {
    counts: &'a RefCell<std::collections::HashMap<i64, u32>>,
    producer_id: i64,
}

impl<'a> MarkerInFlight<'a> {
    fn new(counts: &'a RefCell<std::collections::HashMap<i64, u32>>, producer_id: i64) -> Self {
        *counts.borrow_mut().entry(producer_id).or_insert(0) += 1;
        MarkerInFlight {
            counts,
            producer_id,
        }
    }
}

impl Drop for MarkerInFlight<'_> {
    fn drop(&mut self) {
        let mut counts = self.counts.borrow_mut();
        if let Some(n) = counts.get_mut(&self.producer_id) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.producer_id);
            }
        }
    }
}

/// Asks the transaction coordinator whether the ongoing transaction of
/// producer (id, epoch) includes this partition; the Produce handler
/// builds it (it knows the transactional id). Errors are the ones the
/// Produce answer carries.
pub type TxnVerifier = Box<
    dyn FnOnce(
        i64,
        i16,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), ErrorCode>>>>,
>;

/// Why a produce to this partition failed, as Kafka reports it.
#[derive(Debug, Clone)]
pub struct ProduceError {
    pub code: ErrorCode,
    pub message: String,
    /// KIP-467: the records that made the batch fail, by index in the
    /// batch (empty when the batch failed as a whole).
    pub record_errors: Vec<RecordError>,
}

fn produce_err(code: ErrorCode, message: impl Into<String>) -> ProduceError {
    ProduceError {
        code,
        message: message.into(),
        record_errors: Vec::new(),
    }
}

/// Maps a replication error to the Kafka error a client should see.
pub fn raft_error_code(e: &tidemark_raft::Error) -> ErrorCode {
    use tidemark_raft::Error as E;
    match e {
        E::NotLeader { .. } | E::LeaderChanged { .. } => ErrorCode::NotLeaderOrFollower,
        E::InvalidBatch(_) | E::Decode(_) => ErrorCode::CorruptMessage,
        E::BatchTooLarge { .. } => ErrorCode::MessageTooLarge,
        E::Storage(s) => storage_error_code(s),
        E::Timeout(_) => ErrorCode::RequestTimedOut,
        _ => ErrorCode::KafkaStorageError,
    }
}

/// A replication error as a storage error (for callers that report those).
pub fn raft_to_storage_error(e: tidemark_raft::Error) -> StorageError {
    match e {
        tidemark_raft::Error::Storage(s) => s,
        other => StorageError::Failed(other.to_string()),
    }
}

/// Maps a storage error to the Kafka error a client should see.
pub fn storage_error_code(e: &StorageError) -> ErrorCode {
    match e {
        StorageError::OffsetOutOfRange { .. } => ErrorCode::OffsetOutOfRange,
        StorageError::InvalidBatch(_) | StorageError::NonContiguous { .. } => {
            ErrorCode::CorruptMessage
        }
        StorageError::BatchTooLarge { .. } => ErrorCode::MessageTooLarge,
        StorageError::BatchLargerThanSegment { .. } => ErrorCode::RecordListTooLarge,
        // Not every replica has the records yet (Kafka's DeleteRecords
        // waits for them and times out).
        StorageError::NotCollectible { .. } => ErrorCode::RequestTimedOut,
        _ => ErrorCode::KafkaStorageError,
    }
}

impl Partition {
    /// Opens (or creates) the replica: its log (recovered) and its Raft
    /// group. On a single node (`net` is `None`) the only voter is
    /// `node_id`; in a cluster the voters are `replicas` and the group
    /// talks through the shard's transport.
    #[allow(clippy::too_many_arguments)]
    pub async fn open(
        data_dir: &Path,
        node_id: i32,
        topic: &str,
        topic_id: Uuid,
        index: i32,
        config: LogConfig,
        log_append_time: bool,
        replicas: &[i32],
        net: Option<Rc<ShardNet>>,
        min_insync: i32,
        opts: OpenOptions,
    ) -> Result<Partition, StorageError> {
        let dir = log_dir(data_dir, topic, topic_id, index);
        let node = node_id as u64;
        let replica = match &net {
            None => PartitionReplica::open_with(
                &dir,
                config,
                node,
                [node].into_iter().collect(),
                NoPeers,
                ReplicaConfig::default(),
                opts,
            )
            .await
            .map_err(raft_to_storage_error)?,
            Some(net) => {
                let group = partition_group(&(topic_id, index));
                let r = PartitionReplica::open_with(
                    &dir,
                    config,
                    node,
                    replicas.iter().map(|&r| r as u64).collect(),
                    net.network(group),
                    crate::cluster::replica_config(),
                    opts,
                )
                .await
                .map_err(raft_to_storage_error)?;
                // A log reset copies the leader's log over the transport.
                let network = net.network(group);
                r.set_log_source(Rc::new(move |leader, from, until| {
                    let network = network.clone();
                    Box::pin(async move {
                        network
                            .read_log(leader, from, until)
                            .await
                            .map_err(|e| e.to_string())
                    })
                }));
                if let Some(raft) = r.raft() {
                    net.register(group, &raft);
                }
                r
            }
        };
        let new_data = Rc::new(LocalNotify::default());
        if net.is_some() {
            let n = new_data.clone();
            replica.on_high_watermark(Rc::new(move || n.notify_all()));
        }
        let log = replica.log().clone();
        let (state, complete) = rebuild_producer_state(&log).await?;
        let producers = RefCell::new(state);
        Ok(Partition {
            topic: topic.to_string(),
            topic_id,
            index,
            next_offset: Cell::new(log.log_end_offset()),
            log,
            replica,
            log_append_time: Cell::new(log_append_time),
            timestamp_bounds: Cell::new((i64::MAX, i64::MAX)),
            recompress_to: Cell::new(None),
            new_data,
            producers,
            in_sync: Cell::new(replicas.len().max(1)),
            producers_epoch: Cell::new(-1),
            producers_gen: Cell::new(0),
            producers_rebuilt_at: Cell::new(std::time::Instant::now()),
            producers_complete: Cell::new(complete),
            admission: Turnstile::default(),
            settle_expired_epoch: Cell::new(-1),
            min_insync: Cell::new(min_insync.max(1) as usize),
            seen_quiet: Cell::new(false),
            woke_at: Cell::new(std::time::Instant::now()),
            txn_verified: RefCell::default(),
            markers_in_flight: RefCell::default(),
            net,
        })
    }

    /// Cluster mode, on the leader: the in-sync replicas (see
    /// `PartitionReplica::in_sync_replicas`); `None` on a follower.
    ///
    /// A quiet group (idle: no heartbeats, see
    /// `tidemark_raft::transport::HeartbeatTicker`) has no fresh
    /// heartbeat answers in openraft: its followers count in sync while
    /// their brokers answer the shard's beats.
    pub fn in_sync_replicas(&self, max_lag: std::time::Duration) -> Option<Vec<i32>> {
        let mut isr = self.replica.in_sync_replicas(max_lag)?;
        if let Some(net) = &self.net
            && let Some(quiet) = net
                .ticker
                .quiet_in_sync(partition_group(&(self.topic_id, self.index)), max_lag)
        {
            for n in quiet {
                if !isr.contains(&n) {
                    isr.push(n);
                }
            }
        }
        self.in_sync.set(isr.len());
        Some(isr.into_iter().map(|n| n as i32).collect())
    }

    /// Whether the group is quiet here (idle: no heartbeats; see
    /// `tidemark_raft::transport::HeartbeatTicker`): its leadership
    /// cannot change without waking it first.
    pub fn is_quiet(&self) -> bool {
        let quiet = self.net.as_ref().is_some_and(|net| {
            net.ticker
                .is_quiet(partition_group(&(self.topic_id, self.index)))
        });
        if self.seen_quiet.replace(quiet) && !quiet {
            self.woke_at.set(std::time::Instant::now());
        }
        quiet
    }

    /// Whether this replica leads in openraft's eyes but has heard from
    /// no quorum of its voters for longer than the lease (the longest
    /// election timeout; `PartitionReplica::lease_lost`): it is cut off,
    /// and the others have most likely elected another leader. Kafka's
    /// leader would have been replaced by the controller; such a leader
    /// here stops claiming the leadership (Metadata, leader reports) and
    /// answers its pending and new writes NOT_LEADER_OR_FOLLOWER, so that
    /// clients look for the new leader instead of waiting for the heal.
    ///
    /// A quiet group's leader hears no acknowledgements while idle (its
    /// followers answer the shard's beats instead) and one that just woke
    /// has not renewed its lease yet: neither counts as cut off until it
    /// has been awake for a whole lease.
    ///
    /// And only when the brokers are cut off too: a quorum of the group's
    /// voters whose brokers answered none of this shard's beats for two
    /// leases. On a loaded machine a whole shard's groups can wake at once
    /// (a peer restarted, a reassignment) and wait longer than a lease for
    /// their acknowledgements while every peer is there; taking those for
    /// cut off unloaded the coordinators and stalled reassignments.
    pub fn lost_quorum(&self) -> bool {
        let Some(net) = &self.net else {
            return false;
        };
        if !self.replica.lease_lost() || self.is_quiet() {
            return false;
        }
        if self.woke_at.get().elapsed() <= self.replica.lease() {
            return false;
        }
        let me = self.replica.node_id();
        let voters = self.replica.membership().voters;
        let reachable = voters
            .iter()
            .filter(|&&v| v == me || net.ticker.peer_heard_within(v, self.replica.lease() * 2))
            .count();
        reachable * 2 <= voters.len()
    }

    /// Wakes the group if it is quiet here as leader and renews its
    /// lease, so that openraft's view of its followers is fresh (before a
    /// leadership hand-off, which reads it).
    pub async fn wake_quiet_leader(&self) {
        if let Some(net) = &self.net {
            let group = partition_group(&(self.topic_id, self.index));
            if net.ticker.is_quiet_leader(group) {
                net.ticker.wake_leader(group);
                self.replica.renew_lease().await;
            }
        }
    }

    /// A new leader rebuilds the idempotent producers' state from its log
    /// (the old leader's accepted batches are all there: a Raft leader's
    /// log holds every committed entry), once per leader epoch. Called
    /// with the admission turn held.
    async fn refresh_producers(&self) -> Result<(), ProduceError> {
        let epoch = self.replica.leader_epoch();
        if self.net.is_none() || self.producers_epoch.get() == epoch {
            return Ok(());
        }
        let (state, complete) = rebuild_producer_state(&self.log)
            .await
            .map_err(|e| produce_err(storage_error_code(&e), e.to_string()))?;
        tracing::debug!(
            topic = %self.topic,
            partition = self.index,
            epoch,
            producers = state.len(),
            log_end = self.log.log_end_offset(),
            "producer state rebuilt for a new leadership"
        );
        *self.producers.borrow_mut() = state;
        self.txn_verified.borrow_mut().clear();
        self.next_offset.set(self.log.log_end_offset());
        self.producers_epoch.set(epoch);
        self.producers_gen.set(self.producers_gen.get() + 1);
        self.producers_rebuilt_at.set(std::time::Instant::now());
        self.producers_complete.set(complete);
        Ok(())
    }

    /// Cluster mode, on the leader: how far each follower's log is known
    /// to reach (see `PartitionReplica::follower_end_offsets`); `None` on
    /// a follower.
    pub fn follower_end_offsets(&self) -> Option<std::collections::BTreeMap<i32, i64>> {
        Some(
            self.replica
                .follower_end_offsets()?
                .into_iter()
                .map(|(n, o)| (n as i32, o))
                .collect(),
        )
    }

    /// The partition's Raft group member (membership changes).
    pub fn replica(&self) -> &Rc<PartitionReplica> {
        &self.replica
    }

    /// The leader of the partition's Raft group, as this replica knows it.
    pub fn leader_id(&self) -> Option<i32> {
        self.replica.leader_id().map(|l| l as i32)
    }

    /// Hands the leadership to `to` (see
    /// `PartitionReplica::transfer_leadership`).
    pub async fn transfer_leadership(&self, to: i32) -> Result<(), tidemark_raft::Error> {
        self.replica.transfer_leadership(to as u64).await
    }

    /// See `PartitionReplica::may_grant_vote` (until it has caught up, a
    /// wiped replica votes only for candidates whose log reaches what was
    /// committed).
    pub fn may_grant_vote(&self, candidate_last: Option<(u64, u64)>) -> bool {
        self.replica.may_grant_vote(candidate_last)
    }

    /// See `PartitionReplica::is_synced`.
    pub fn is_synced(&self) -> bool {
        self.replica.is_synced()
    }

    /// The offset after the last batch admitted for appending here (in
    /// the log, or still on its way to it).
    pub fn admitted_end(&self) -> i64 {
        self.next_offset.get()
    }

    /// Whether this replica leads and accepts writes (not while it is cut
    /// off from its quorum: [`Partition::lost_quorum`]).
    pub fn is_leader(&self) -> bool {
        self.replica.is_leader() && !self.lost_quorum()
    }

    /// The high watermark: the end of what the Raft group committed.
    pub fn high_watermark(&self) -> i64 {
        self.replica.high_watermark()
    }

    /// The Kafka leader epoch: the Raft term of the current leadership.
    pub fn leader_epoch(&self) -> i32 {
        self.replica.leader_epoch()
    }

    /// Retention by time and size (whole segments).
    pub async fn apply_retention(&self, now_ms: i64) -> Result<usize, tidemark_raft::Error> {
        self.replica.apply_retention(now_ms).await
    }

    /// Compaction, for compacted topics.
    pub async fn compact(&self, now_ms: i64) -> Result<(), tidemark_raft::Error> {
        // Forget completed transactions below the high watermark first:
        // compaction stops at the first one it still counts as unstable.
        self.last_stable_offset();
        self.replica.compact(now_ms).await.map(|_| ())
    }

    /// DeleteRecords: moves the log start to `offset` (at most the high
    /// watermark). Returns the new log start.
    pub async fn delete_records(&self, offset: i64) -> Result<i64, tidemark_raft::Error> {
        self.replica.delete_records(offset).await
    }

    /// Stops the Raft group's openraft instance after `idle` without
    /// writes (single voter only); the next write restarts it.
    pub async fn hibernate_if_idle(
        &self,
        idle: std::time::Duration,
    ) -> Result<bool, tidemark_raft::Error> {
        self.replica.hibernate_if_idle(idle).await
    }

    /// Stops the Raft group and closes the log.
    pub async fn close(&self) -> Result<(), tidemark_raft::Error> {
        if let Some(net) = &self.net {
            net.unregister(partition_group(&(self.topic_id, self.index)));
        }
        self.replica.close().await
    }

    pub fn set_log_append_time(&self, on: bool) {
        self.log_append_time.set(on);
    }

    pub fn log_append_time_enabled(&self) -> bool {
        self.log_append_time.get()
    }

    /// Sets the topic's `message.timestamp.before.max.ms` and
    /// `message.timestamp.after.max.ms` (checked on client produce).
    pub fn set_timestamp_bounds(&self, before_max_ms: i64, after_max_ms: i64) {
        self.timestamp_bounds.set((before_max_ms, after_max_ms));
    }

    /// Sets the topic's `compression.type` target (`None`: `producer`, keep
    /// what clients send) and the level for it.
    pub fn set_compression(&self, target: Option<(Compression, Option<i32>)>) {
        self.recompress_to.set(target);
    }

    /// What a client's records must satisfy here (Kafka's LogValidator).
    pub fn record_rules(&self) -> RecordRules {
        let (before, after) = self.timestamp_bounds.get();
        RecordRules {
            compacted: self.log.config().cleanup_policy.compacts(),
            log_append_time: self.log_append_time.get(),
            timestamp_before_max_ms: before,
            timestamp_after_max_ms: after,
        }
    }

    /// Validates and appends the records of one Produce partition entry.
    /// Returns once the batch is durable (sync-before-ack) and the high
    /// watermark has moved past it. Returns the offsets and, for
    /// LogAppendTime topics, the time stamped on the batch.
    pub async fn append(
        self: &Rc<Self>,
        records: Bytes,
        acks: i16,
        timeout: std::time::Duration,
    ) -> Result<(AppendInfo, Option<i64>), ProduceError> {
        self.append_checked(records, acks, timeout, None, false)
            .await
    }

    /// [`Partition::append`] for a client's Produce: a transactional
    /// batch of a producer whose transaction this partition has not
    /// verified yet is first checked with the transaction coordinator
    /// through `verify` (KIP-890's verification, Kafka's
    /// `transaction.partition.verification.enable`): a batch that no
    /// ongoing transaction of the producer covers would open a
    /// transaction no marker ever ends (a late retry of a batch of a
    /// transaction already committed or aborted), and the partition's last
    /// stable offset would never move again. The check runs with the
    /// admission turn held, so the verified batch reaches the log before
    /// any marker that could end its transaction.
    ///
    /// A client's batch is also checked record by record
    /// ([`Partition::record_rules`], `record_validation`): keys on a
    /// compacted topic, timestamps within the topic's bounds; one failing
    /// record refuses the batch with the failing records listed.
    pub async fn append_with_verifier(
        self: &Rc<Self>,
        records: Bytes,
        acks: i16,
        timeout: std::time::Duration,
        verify: Option<TxnVerifier>,
    ) -> Result<(AppendInfo, Option<i64>), ProduceError> {
        self.append_checked(records, acks, timeout, verify, true)
            .await
    }

    /// Whether a transactional batch of producer `pid` at `epoch` must
    /// wait for the producer's previous transaction to end here: a marker
    /// of the producer is admitted but not committed, or the producer has
    /// a transaction open under an older epoch (its marker is on its way).
    /// Otherwise a transaction the log shows open for `pid` is the batch's
    /// own (or the batch is fenced by its epoch).
    fn txn_settling(&self, pid: i64, epoch: i16) -> bool {
        self.markers_in_flight.borrow().contains_key(&pid)
            || (self.log.open_transaction(pid).is_some()
                && self
                    .producers
                    .borrow()
                    .epoch_of(pid)
                    .is_some_and(|e| e < epoch))
    }

    /// Waits (at most [`OLDER_TXN_WAIT`]) while the producer of the
    /// transactional batch `records` has its previous transaction ending
    /// here ([`Partition::txn_settling`]).
    async fn await_older_transaction(&self, records: &Bytes) {
        let Ok(b) = RecordBatch::new(records.clone()) else {
            return;
        };
        let (pid, epoch) = (b.producer_id(), b.producer_epoch());
        if !b.is_transactional() || pid < 0 {
            return;
        }
        let deadline = std::time::Instant::now() + OLDER_TXN_WAIT;
        while self.txn_settling(pid, epoch) && std::time::Instant::now() < deadline {
            monoio::time::sleep(OLDER_TXN_POLL).await;
        }
    }

    /// [`Partition::append_with_verifier`], with the per-record checks
    /// only when `check_records` (the broker's own appends, which build
    /// their records, skip them).
    async fn append_checked(
        self: &Rc<Self>,
        records: Bytes,
        acks: i16,
        timeout: std::time::Duration,
        verify: Option<TxnVerifier>,
        check_records: bool,
    ) -> Result<(AppendInfo, Option<i64>), ProduceError> {
        if verify.is_some() {
            self.await_older_transaction(&records).await;
        }
        // Held until the batch is handed to the Raft group (or refused).
        let turn = self.admission.enter().await;
        // Wake a sleeping group now, with the turn held, so that no later
        // append overtakes this one while it would wake the group
        // (`PartitionReplica::wake`); a failure to wake shows in the
        // append itself. Before anything is recorded for the batch.
        let _ = self.replica.wake().await;
        if self.net.is_some() {
            if !self
                .wait_until_leading(timeout.min(LEADERSHIP_SETTLE))
                .await
            {
                return Err(produce_err(
                    ErrorCode::NotLeaderOrFollower,
                    format!(
                        "broker {} is not the leader (leader: {:?})",
                        self.replica.node_id(),
                        self.leader_id()
                    ),
                ));
            }
            // A quiet group's leader (no heartbeats while idle) has let
            // its lease run out, and openraft takes no write without one:
            // renew it now, with the turn held, so appends stay in order.
            if self.replica.lease_expiring() {
                self.replica.renew_lease().await;
            }
            // Kafka refuses acks=all writes while too few replicas are in
            // sync (the batch would still commit on a Raft majority, but
            // the client asked for min.insync.replicas copies).
            if acks == -1 && self.in_sync.get() < self.min_insync.get() {
                if let Ok(b) = RecordBatch::new(records.clone())
                    && b.producer_id() >= 0
                {
                    self.producers.borrow_mut().note_refused(
                        b.producer_id(),
                        b.producer_epoch(),
                        b.base_sequence(),
                    );
                }
                return Err(produce_err(
                    ErrorCode::NotEnoughReplicas,
                    format!(
                        "{} replicas in sync, min.insync.replicas is {}",
                        self.in_sync.get(),
                        self.min_insync.get()
                    ),
                ));
            }
            self.refresh_producers().await?;
        }
        if let Some(magic) = legacy::peek_magic(&records)
            && let Some(code) = legacy::produce_error_code_for_magic(magic)
        {
            let code = ErrorCode::from_code(code).unwrap_or(ErrorCode::UnsupportedForMessageFormat);
            return Err(produce_err(
                code,
                format!("message format v{magic} is not supported; use v2"),
            ));
        }
        let batch = single_batch(&records)?;
        validate_batch(&batch)?;
        let max = self.log.config().max_batch_bytes;
        if records.len() > max {
            // Kafka's words (UnifiedLog.analyzeAndValidateRecords).
            return Err(produce_err(
                ErrorCode::MessageTooLarge,
                format!(
                    "The record batch size in the append to {}-{} is {} bytes which exceeds the maximum configured value of {max}.",
                    self.topic,
                    self.index,
                    records.len()
                ),
            ));
        }
        if let Err(StorageError::BatchLargerThanSegment { segment_bytes, .. }) =
            self.log.config().check_fits_segment(records.len())
        {
            // Kafka's words (UnifiedLog.append): max.message.bytes may
            // exceed segment.bytes, but a batch must fit in one segment.
            return Err(produce_err(
                ErrorCode::RecordListTooLarge,
                format!(
                    "Message batch size is {} bytes in append to partition {}-{} which exceeds the maximum configured segment size of {segment_bytes}.",
                    records.len(),
                    self.topic,
                    self.index,
                ),
            ));
        }
        let now = now_ms();
        if check_records {
            validate_records(
                &batch,
                &self.record_rules(),
                &format_args!("{}-{}", self.topic, self.index),
                now,
                self.log.config().max_decompressed_bytes,
            )
            .map_err(|r| ProduceError {
                code: r.code,
                message: r.message,
                record_errors: r.record_errors,
            })?;
        }
        // `compression.type`: a client's batch in another codec is
        // stored recompressed (header fields, offsets and sequences keep
        // their values), and must still fit `max.message.bytes`.
        let records = match self.recompress_to.get() {
            Some((codec, level)) if check_records && batch.compression() != codec => {
                let out = recompress(
                    &batch,
                    codec,
                    level,
                    self.log.config().max_decompressed_bytes,
                )
                .map_err(|e| {
                    let code = ErrorCode::from_code(e.kafka_error_code())
                        .unwrap_or(ErrorCode::CorruptMessage);
                    produce_err(code, format!("recompressing to {codec}: {e}"))
                })?;
                if out.len() > max {
                    return Err(produce_err(
                        ErrorCode::MessageTooLarge,
                        format!(
                            "Message batch size is {} bytes in append to partition {}-{} which exceeds the maximum configured size of {max}.",
                            out.len(),
                            self.topic,
                            self.index
                        ),
                    ));
                }
                out
            }
            _ => records,
        };
        let lat = self.log_append_time.get().then_some(now);
        // Idempotence: check and record the sequence before the append's
        // first await, so pipelined batches of one producer are checked
        // against each other in order. Raft takes batches in the order
        // they are handed to it, so the base offset this one will get is
        // `next_offset` (corrected below if it turns out otherwise).
        let pid = batch.producer_id();
        let (epoch, first_seq, count) = (
            batch.producer_epoch(),
            batch.base_sequence(),
            batch.records_count(),
        );
        // Kafka's `appendDataBatch`: a producer with a transaction open
        // here may not write outside it.
        if pid >= 0 && !batch.is_transactional() && self.log.open_transaction(pid).is_some() {
            return Err(produce_err(
                ErrorCode::InvalidTxnState,
                format!(
                    "producer {pid} has a transaction open here; its batch must be transactional"
                ),
            ));
        }
        // A batch of a newer epoch must not join the producer's older
        // transaction still open here: its marker (under the newer epoch
        // for transactions v2, or after a fencing abort) is on its way and
        // would end this batch with it.
        if pid >= 0 && batch.is_transactional() && verify.is_some() && self.txn_settling(pid, epoch)
        {
            return Err(produce_err(
                ErrorCode::NotEnoughReplicas,
                format!(
                    "producer {pid} epoch {epoch}: the marker of its previous transaction has not reached this partition yet; retry"
                ),
            ));
        }
        if pid >= 0
            && batch.is_transactional()
            && let Some(verify) = verify
            && self.txn_verified.borrow().get(&pid) != Some(&epoch)
            && self.log.open_transaction(pid).is_none()
        {
            match verify(pid, epoch).await {
                Ok(()) => {
                    self.txn_verified.borrow_mut().insert(pid, epoch);
                }
                Err(code) => {
                    if code == ErrorCode::NotEnoughReplicas {
                        // Retriable: the producer sends it again.
                        self.producers
                            .borrow_mut()
                            .note_refused(pid, epoch, first_seq);
                    }
                    return Err(produce_err(
                        code,
                        format!(
                            "producer {pid} epoch {epoch}: no ongoing transaction of it includes this partition ({code:?} from its coordinator)"
                        ),
                    ));
                }
            }
        }
        if pid >= 0 {
            // The borrow ends before any await (a duplicate waits below).
            let duplicate = {
                let mut producers = self.producers.borrow_mut();
                match producers.check(pid, epoch, first_seq, count) {
                    Err(ErrorCode::OutOfOrderSequenceNumber)
                        if producers.awaits_retry(pid, epoch, first_seq).is_some()
                            || (self.net.is_some()
                                && self.producers_rebuilt_at.get().elapsed() < GAP_GRACE
                                && producers.is_gap_ahead(pid, epoch, first_seq)) =>
                    {
                        // The batch before this one failed here with a
                        // retriable error (or, just after this replica
                        // became leader, was most likely refused a moment
                        // ago, before it led) and its retry is on the
                        // way: a retriable answer makes the client send
                        // both again in order.
                        // OUT_OF_ORDER_SEQUENCE_NUMBER, as Kafka answers,
                        // makes librdkafka bump its epoch and resend
                        // under new sequences batches whose first send
                        // may have been written (duplicates, found by the
                        // cluster soak after restarting every broker).
                        tracing::info!(
                            topic = %self.topic,
                            partition = self.index,
                            pid,
                            first_seq,
                            known = %producers.describe(pid),
                            "sequence gap behind a batch that failed or was refused; asking for a retry"
                        );
                        return Err(produce_err(
                            ErrorCode::NotLeaderOrFollower,
                            format!(
                                "producer {pid} sequence {first_seq} leaves a gap behind a batch that failed here; retry the earlier batches first"
                            ),
                        ));
                    }
                    Err(code) => {
                        tracing::warn!(
                            topic = %self.topic,
                            partition = self.index,
                            pid,
                            epoch,
                            first_seq,
                            count,
                            known = %producers.describe(pid),
                            leader_epoch = self.replica.leader_epoch(),
                            log_end = self.log.log_end_offset(),
                            ?code,
                            "idempotent batch refused"
                        );
                        return Err(produce_err(
                            code,
                            format!("producer {pid} epoch {epoch} sequence {first_seq} refused"),
                        ));
                    }
                    // A producer with no batch in this partition's log
                    // (which lost nothing to retention) sends a sequence
                    // past 0 just after this replica became leader: its
                    // earlier batches are still on their way, most likely
                    // failing on the old leader. Accepting this one (as
                    // Kafka does for a producer whose state retention
                    // removed) lets librdkafka count those earlier
                    // batches as written ("implicitly acked") when they
                    // were lost with the old leader's term: found by
                    // test_sigstop_leader_past_election_timeout, 150
                    // acknowledged records missing, when a new partition's
                    // leadership moved to its preferred replica under the
                    // first writes. A retriable answer makes the client
                    // send them all again, in order.
                    Ok(Check::Append)
                        if first_seq != 0
                            && self.net.is_some()
                            && self.producers_complete.get()
                            && !producers.knows(pid)
                            && self.producers_rebuilt_at.get().elapsed() < GAP_GRACE =>
                    {
                        tracing::info!(
                            topic = %self.topic,
                            partition = self.index,
                            pid,
                            first_seq,
                            "first batch of a producer unknown to a new leader does not start at sequence 0; asking for a retry"
                        );
                        return Err(produce_err(
                            ErrorCode::NotLeaderOrFollower,
                            format!(
                                "producer {pid} has no batch here, and sequence {first_seq} is not its first; retry the earlier batches first"
                            ),
                        ));
                    }
                    Ok(Check::Duplicate { base_offset }) => Some(base_offset),
                    Ok(Check::Append) => {
                        producers.record(pid, epoch, first_seq, count, self.next_offset.get());
                        None
                    }
                }
            };
            if let Some(base_offset) = duplicate {
                drop(turn);
                let info = AppendInfo {
                    base_offset,
                    last_offset: base_offset + count as i64 - 1,
                    log_start_offset: self.log.log_start_offset(),
                };
                // A duplicate is answered once the original is durable,
                // and only if the batch at its offset is the original (it
                // may have been in flight on a leader that lost its term).
                if self
                    .wait_for_high_watermark(info.last_offset + 1, timeout)
                    .await
                    && self.holds_batch(base_offset, pid, first_seq).await
                {
                    return Ok((info, None));
                }
                if self.lost_quorum() {
                    return Err(produce_err(
                        ErrorCode::NotLeaderOrFollower,
                        format!(
                            "broker {} lost contact with a quorum of the partition's replicas",
                            self.replica.node_id()
                        ),
                    ));
                }
                // The original is still in flight (it commits, or the
                // leadership changes and the next epoch rebuilds the
                // producers' state from the log): the client retries.
                return Err(produce_err(
                    ErrorCode::RequestTimedOut,
                    format!(
                        "the earlier copy of producer {pid}'s batch (sequence {first_seq}) is not committed yet"
                    ),
                ));
            }
        }
        let predicted = self.next_offset.get();
        self.next_offset.set(predicted + i64::from(count));
        // The append runs in its own task, which also does the
        // bookkeeping when it ends, so that answering the client after
        // `timeout` never cancels it half way: a cancelled append may or
        // may not have reached the Raft group, and the sequence recorded
        // above would then describe a batch that never existed (the
        // producer's retry, rebatched, was refused as out of order, which
        // librdkafka treats as fatal; found by the cluster soak).
        let (tx, rx) = futures_channel::oneshot::channel();
        let this = self.clone();
        // Stamping writes in place, so the append needs its own buffer: a
        // recompressed batch already is one (no second copy); a slice of
        // the request frame is copied.
        let batch = records
            .try_into_mut()
            .unwrap_or_else(|shared| BytesMut::from(&shared[..]));
        let generation = self.producers_gen.get();
        monoio::spawn(async move {
            // `validate_batch` checked it.
            let appended = this.replica.append_verified(batch, lat).await;
            let _ = tx.send(this.finish_append(appended, pid, first_seq, predicted, generation));
        });
        // The spawned append reaches the Raft group before any task
        // spawned after it (monoio runs new tasks in spawn order).
        drop(turn);
        let deadline = std::time::Instant::now() + timeout;
        let mut rx = rx;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match monoio::time::timeout(left.min(QUORUM_CHECK_INTERVAL), &mut rx).await {
                Ok(Ok(Ok(info))) => return Ok((info, lat)),
                Ok(Ok(Err(e))) => return Err(e),
                Ok(Err(_)) => {
                    return Err(produce_err(
                        ErrorCode::KafkaStorageError,
                        "the append task stopped",
                    ));
                }
                // Kafka's answer when replication does not finish within
                // the request's timeout. The batch keeps its recorded
                // sequence until its append ends: committed, a retry is a
                // duplicate answered with its offset; failed, the
                // sequence is forgotten.
                Err(_) if left <= QUORUM_CHECK_INTERVAL => {
                    return Err(produce_err(
                        ErrorCode::RequestTimedOut,
                        format!(
                            "the batch was not replicated within {} ms",
                            timeout.as_millis()
                        ),
                    ));
                }
                // A leader cut off from its quorum cannot commit the batch
                // before the split heals, by when another leader has
                // most likely taken over (and the batch is cut from the
                // log). Answered at once, retriably, so that the client
                // refreshes its metadata and sends the batch to the new
                // leader, instead of waiting out its request timeout (30
                // s with librdkafka's defaults) with the partition stuck.
                // The sequence stays recorded until the append ends, as
                // above.
                Err(_) if self.lost_quorum() => {
                    return Err(produce_err(
                        ErrorCode::NotLeaderOrFollower,
                        format!(
                            "broker {} lost contact with a quorum of the partition's replicas",
                            self.replica.node_id()
                        ),
                    ));
                }
                Err(_) => {}
            }
        }
    }

    /// Whether this replica leads, waiting (at most `max`) while it has
    /// won an election but has not yet heard from a majority as leader
    /// (openraft names it leader at once; it takes writes only after).
    ///
    /// Why wait instead of answering NOT_LEADER_OR_FOLLOWER: the new
    /// leader is announced from the moment it is elected, so a producer's
    /// pipelined requests can arrive in that window. Refusing the first
    /// and taking the next (once leadership settled) answers the next
    /// OUT_OF_ORDER_SEQUENCE_NUMBER; librdkafka then bumps its epoch and
    /// sends again, under new sequences, batches whose first send may
    /// have been written after all: duplicates (found by the cluster
    /// soak). Waiting here, with the admission turn held, keeps them in
    /// order.
    ///
    /// The wait runs out once per leader epoch: after that, appends of the
    /// same epoch are refused at once.
    async fn wait_until_leading(&self, max: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + max;
        let me = self.replica.node_id();
        loop {
            if self.lost_quorum() {
                return false;
            }
            if self.replica.is_leader() {
                return true;
            }
            let epoch = self.replica.leader_epoch();
            if self.replica.leader_id() != Some(me) || self.settle_expired_epoch.get() == epoch {
                return false;
            }
            if std::time::Instant::now() >= deadline {
                self.settle_expired_epoch.set(epoch);
                return false;
            }
            monoio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    }

    /// The bookkeeping after a batch's append ended. `generation` is the
    /// producers' state the batch was recorded in: if the state was
    /// rebuilt from the log since (a new leadership of this replica), the
    /// rebuild already holds the truth about this batch (in the log or
    /// not), and neither the state nor `next_offset` is touched.
    fn finish_append(
        &self,
        appended: Result<AppendInfo, tidemark_raft::Error>,
        pid: i64,
        first_seq: i32,
        predicted: i64,
        generation: u64,
    ) -> Result<AppendInfo, ProduceError> {
        if generation != self.producers_gen.get() {
            return match appended {
                Ok(info) => {
                    self.new_data.notify_all();
                    Ok(info)
                }
                Err(e) => Err(produce_err(raft_error_code(&e), e.to_string())),
            };
        }
        let info = match appended {
            Ok(info) => info,
            Err(e) => {
                if pid >= 0 {
                    self.producers.borrow_mut().forget_last(pid, first_seq);
                }
                // What is in flight behind this batch fails the same way
                // (the group stopped or lost leadership); start over from
                // what the log holds.
                self.next_offset.set(self.log.log_end_offset());
                return Err(produce_err(raft_error_code(&e), e.to_string()));
            }
        };
        if info.base_offset != predicted {
            if pid >= 0 {
                self.producers
                    .borrow_mut()
                    .set_base_offset(pid, first_seq, info.base_offset);
            }
            self.next_offset
                .set(self.next_offset.get().max(info.last_offset + 1));
        }
        // Completed transactions below the high watermark are forgotten
        // here too (not only by fetches), so they never pile up.
        self.last_stable_offset();
        self.new_data.notify_all();
        Ok(info)
    }

    /// Waits until the high watermark reaches `offset` (bounded: a failed
    /// log stops waiting after 30 s).
    async fn wait_for_high_watermark(&self, offset: i64, timeout: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        while self.high_watermark() < offset && std::time::Instant::now() < deadline {
            // Cut off from its quorum, the leader commits nothing more.
            if self.lost_quorum() {
                break;
            }
            let n = self.new_data.notified();
            if self.high_watermark() >= offset {
                break;
            }
            let _ = monoio::time::timeout(std::time::Duration::from_millis(100), n).await;
        }
        self.high_watermark() >= offset
    }

    /// Whether the committed batch at `base_offset` is producer `pid`'s
    /// batch starting at sequence `first_seq` (a duplicate is answered
    /// with the original's offset only if the original is really there).
    async fn holds_batch(&self, base_offset: i64, pid: i64, first_seq: i32) -> bool {
        match self
            .log
            .read(base_offset, 1, Some(self.high_watermark()))
            .await
        {
            Ok(r) => r.batches.first().is_some_and(|b| {
                RecordBatch::new(b.clone()).is_ok_and(|b| {
                    b.base_offset() == base_offset
                        && b.producer_id() == pid
                        && b.base_sequence() == first_seq
                })
            }),
            Err(_) => false,
        }
    }

    /// Reads committed batches from `offset`, up to `max_bytes` (at least
    /// one batch when there is one).
    pub async fn read(&self, offset: i64, max_bytes: usize) -> Result<ReadResult, StorageError> {
        self.read_until(offset, max_bytes, self.high_watermark())
            .await
    }

    /// Reads batches from `offset` that end at or before `upper` (the high
    /// watermark, or the last stable offset for read_committed), up to
    /// `max_bytes` (at least one batch when there is one).
    pub async fn read_until(
        &self,
        offset: i64,
        max_bytes: usize,
        upper: i64,
    ) -> Result<ReadResult, StorageError> {
        let upper = upper.min(self.high_watermark());
        if offset >= upper {
            return Ok(ReadResult {
                batches: Vec::new(),
                bytes: 0,
                next_offset: offset,
            });
        }
        self.log.read(offset, max_bytes, Some(upper)).await
    }

    /// The last stable offset: read_committed consumers read below it (see
    /// `Log::last_stable_offset`), at the current high watermark.
    pub fn last_stable_offset(&self) -> i64 {
        self.log.last_stable_offset(self.high_watermark())
    }

    /// The aborted transactions whose data meets `[from, upper)`, by first
    /// offset (what a read_committed Fetch answers with its records).
    pub fn aborted_transactions(&self, from: i64, upper: i64) -> Vec<AbortedTxn> {
        self.log.aborted_transactions(from, upper)
    }

    /// Every producer the log remembers, with its transaction state (for
    /// DescribeProducers).
    pub fn producers_for_describe(&self) -> Vec<ProducerTxnState> {
        self.log.producer_states()
    }

    /// Appends a transaction marker (COMMIT or ABORT) for `producer_id`,
    /// written by the transaction coordinator's WriteTxnMarkers, through
    /// the admission turnstile and the Raft group like [`Partition::append`]
    /// (leader only, in arrival order). Returns once the marker is
    /// committed (the high watermark is past it).
    ///
    /// Kafka's checks (`ProducerAppendInfo.appendEndTxnMarker`): a producer
    /// epoch below the one known for the producer is
    /// INVALID_PRODUCER_EPOCH; a coordinator epoch below that of the
    /// producer's last marker is TRANSACTION_COORDINATOR_FENCED. The
    /// marker's epoch becomes the producer's (an abort that bumped the
    /// epoch to fence a zombie refuses the old epoch from then on, and the
    /// new one starts at sequence 0). The state is recorded when the marker
    /// is admitted, before its append ends, so that batches admitted after
    /// it are checked against it; a marker that then fails to commit is
    /// sent again by the coordinator.
    pub async fn write_txn_marker(
        self: &Rc<Self>,
        producer_id: i64,
        producer_epoch: i16,
        coordinator_epoch: i32,
        commit: bool,
        timeout: std::time::Duration,
    ) -> Result<AppendInfo, ProduceError> {
        let turn = self.admission.enter().await;
        self.admit_as_leader(timeout).await?;
        self.producers
            .borrow()
            .check_marker(producer_id, producer_epoch, coordinator_epoch)
            .map_err(|code| {
                produce_err(
                    code,
                    format!(
                        "marker of producer {producer_id} epoch {producer_epoch} coordinator epoch {coordinator_epoch} refused"
                    ),
                )
            })?;
        let now = now_ms();
        let batch = EndTxnMarker {
            commit,
            coordinator_epoch,
        }
        .batch(producer_id, producer_epoch, now)
        .build()
        .map_err(|e| produce_err(ErrorCode::UnknownServerError, e.to_string()))?;
        self.producers
            .borrow_mut()
            .record_marker(producer_id, producer_epoch, coordinator_epoch);
        // The transaction ends here: the producer's next one is verified
        // again.
        self.txn_verified.borrow_mut().remove(&producer_id);
        // Counted until the append ends, however it ends (a dropped
        // future included).
        let _in_flight = MarkerInFlight::new(&self.markers_in_flight, producer_id);
        // Stamped like any batch of a LogAppendTime topic (Kafka's
        // validator does not exempt control batches).
        let lat = self.log_append_time.get().then_some(now);
        self.append_admitted(turn, BytesMut::from(&batch[..]), 1, lat, timeout)
            .await
    }

    /// Appends a batch written by a coordinator on behalf of a
    /// transactional producer (the group coordinator's TxnOffsetCommit:
    /// Kafka's `AppendOrigin.COORDINATOR`), like [`Partition::append`] with
    /// acks=-1 but without the sequence checks (such a batch carries the
    /// producer's id and epoch, base sequence 0 or -1); a producer epoch
    /// below the known one is still INVALID_PRODUCER_EPOCH.
    pub async fn append_coordinator(
        self: &Rc<Self>,
        records: Bytes,
        timeout: std::time::Duration,
    ) -> Result<AppendInfo, ProduceError> {
        let turn = self.admission.enter().await;
        self.admit_as_leader(timeout).await?;
        let batch = single_batch(&records)?;
        validate_batch(&batch)?;
        let max = self.log.config().max_batch_bytes;
        if records.len() > max {
            return Err(produce_err(
                ErrorCode::MessageTooLarge,
                format!(
                    "record batch of {} bytes exceeds the limit of {max} bytes",
                    records.len()
                ),
            ));
        }
        let pid = batch.producer_id();
        if pid >= 0 {
            let epoch = batch.producer_epoch();
            let mut producers = self.producers.borrow_mut();
            producers.check_epoch(pid, epoch).map_err(|code| {
                produce_err(code, format!("producer {pid} epoch {epoch} refused"))
            })?;
            producers.record_epoch(pid, epoch);
        }
        let lat = self.log_append_time.get().then_some(now_ms());
        self.append_admitted(
            turn,
            BytesMut::from(&records[..]),
            batch.records_count(),
            lat,
            timeout,
        )
        .await
    }

    /// Leader check for a coordinator-origin write (the turn held): wait
    /// for a just-elected leader, renew a quiet lease, rebuild the
    /// producers' state for a new leadership.
    async fn admit_as_leader(&self, timeout: std::time::Duration) -> Result<(), ProduceError> {
        if self.net.is_none() {
            return Ok(());
        }
        if !self
            .wait_until_leading(timeout.min(LEADERSHIP_SETTLE))
            .await
        {
            return Err(produce_err(
                ErrorCode::NotLeaderOrFollower,
                format!(
                    "broker {} is not the leader (leader: {:?})",
                    self.replica.node_id(),
                    self.leader_id()
                ),
            ));
        }
        if self.replica.lease_expiring() {
            self.replica.renew_lease().await;
        }
        self.refresh_producers().await
    }

    /// Hands an admitted batch (no idempotent sequence recorded for it) to
    /// the Raft group in its own task, releases the turn, and waits (at
    /// most `timeout`) for it to commit.
    async fn append_admitted(
        self: &Rc<Self>,
        turn: crate::turnstile::Turn<'_>,
        batch: BytesMut,
        count: i32,
        lat: Option<i64>,
        timeout: std::time::Duration,
    ) -> Result<AppendInfo, ProduceError> {
        // As in `append_with_verifier`: wake the group with the turn held.
        let _ = self.replica.wake().await;
        let predicted = self.next_offset.get();
        self.next_offset.set(predicted + i64::from(count.max(1)));
        let (tx, rx) = futures_channel::oneshot::channel();
        let this = self.clone();
        let generation = self.producers_gen.get();
        monoio::spawn(async move {
            let appended = this.replica.append_verified(batch, lat).await;
            let _ = tx.send(this.finish_append(appended, -1, 0, predicted, generation));
        });
        drop(turn);
        match monoio::time::timeout(timeout, rx).await {
            Ok(Ok(r)) => r,
            Ok(Err(_)) => Err(produce_err(
                ErrorCode::KafkaStorageError,
                "the append task stopped",
            )),
            Err(_) => Err(produce_err(
                ErrorCode::RequestTimedOut,
                format!(
                    "the batch was not replicated within {} ms",
                    timeout.as_millis()
                ),
            )),
        }
    }
}

/// The one record batch of a v2 produce entry (Kafka accepts exactly one
/// per partition).
fn single_batch(records: &Bytes) -> Result<RecordBatch, ProduceError> {
    let mut batches = RecordBatches::new(records.clone());
    match (batches.next(), batches.next()) {
        (Some(Ok(b)), None) => Ok(b),
        (Some(Ok(_)), Some(_)) => Err(produce_err(
            ErrorCode::InvalidRecord,
            "a produce request must carry exactly one record batch per partition",
        )),
        (Some(Err(e)), _) => Err(produce_err(ErrorCode::CorruptMessage, e.to_string())),
        (None, _) => Err(produce_err(ErrorCode::CorruptMessage, "no record batch")),
    }
}

/// Checks a batch the way Kafka's LogValidator does before it is
/// appended: magic 2, a CRC that matches, a sane header, and, for
/// uncompressed batches, records that parse with contiguous offsets.
/// Compressed batches are not opened (records travel as bytes); their CRC
/// protects them.
fn validate_batch(batch: &RecordBatch) -> Result<(), ProduceError> {
    batch
        .verify_crc()
        .map_err(|e| produce_err(ErrorCode::CorruptMessage, e.to_string()))?;
    if batch.is_control() {
        return Err(produce_err(
            ErrorCode::InvalidRecord,
            "clients may not produce control batches",
        ));
    }
    // A transactional batch belongs to a producer's transaction: without
    // a producer id it could never be ended by a marker.
    if batch.is_transactional() && batch.producer_id() < 0 {
        return Err(produce_err(
            ErrorCode::InvalidRecord,
            "a transactional batch must carry a producer id",
        ));
    }
    let count = batch.records_count();
    if count <= 0 || batch.last_offset_delta() != count - 1 {
        return Err(produce_err(
            ErrorCode::InvalidRecord,
            format!(
                "batch declares {count} records and last offset delta {}",
                batch.last_offset_delta()
            ),
        ));
    }
    if batch.compression() == kafka_protocol::records::Compression::None {
        let records = batch
            .records()
            .map_err(|e| produce_err(ErrorCode::CorruptMessage, e.to_string()))?;
        let mut n = 0;
        for (i, r) in records.enumerate() {
            let r = r.map_err(|e| produce_err(ErrorCode::CorruptMessage, e.to_string()))?;
            if r.offset_delta() != i as i32 {
                return Err(produce_err(
                    ErrorCode::InvalidRecord,
                    "record offsets are not contiguous",
                ));
            }
            n += 1;
        }
        if n != count {
            return Err(produce_err(
                ErrorCode::InvalidRecord,
                format!("batch declares {count} records but holds {n}"),
            ));
        }
    }
    Ok(())
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Idempotent producers' state from the log's record of their last
/// batches (see `Log::producer_batches`: it reads nothing in the common
/// case); also says whether that covers the whole log from offset 0.
async fn rebuild_producer_state(log: &Log) -> Result<(ProducerState, bool), StorageError> {
    let (batches, complete) = log.producer_batches().await?;
    let mut state = ProducerState::default();
    for b in batches {
        state.record(
            b.producer_id,
            b.epoch,
            b.base_sequence,
            b.records,
            b.base_offset,
        );
    }
    // Producer epochs only grow, so a marker's epoch above the batches'
    // came after them (it bumped the epoch) whatever the order applied.
    for m in log.producer_markers() {
        state.apply_marker(m.producer_id, m.producer_epoch, m.coordinator_epoch);
    }
    Ok((state, complete))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::records::{NewRecord, RecordBatchBuilder};
    use std::time::Duration;

    fn txn_batch(pid: i64, epoch: i16, seq: i32, transactional: bool) -> Bytes {
        let mut b = RecordBatchBuilder::new()
            .producer(pid, epoch, seq)
            .transactional(transactional);
        b.push(NewRecord::new(b"v".to_vec()).with_timestamp(now_ms()));
        b.build().unwrap()
    }

    const T: Duration = Duration::from_secs(10);

    #[test]
    fn markers_end_transactions_fence_epochs_and_move_the_lso() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
            .enable_timer()
            .build()
            .unwrap();
        rt.block_on(async {
            let p = Rc::new(
                Partition::open(
                    dir.path(),
                    1,
                    "t",
                    Uuid::new_v4(),
                    0,
                    LogConfig::default(),
                    false,
                    &[1],
                    None,
                    1,
                    OpenOptions::default(),
                )
                .await
                .unwrap(),
            );
            let append = |b: Bytes| {
                let p = p.clone();
                async move { p.append(b, -1, T).await.map(|(i, _)| i.base_offset) }
            };
            // A transactional batch needs a producer id.
            let no_pid = txn_batch(-1, -1, -1, true);
            assert_eq!(
                append(no_pid).await.unwrap_err().code,
                ErrorCode::InvalidRecord
            );
            let a = append(txn_batch(7, 0, 0, true)).await.unwrap();
            let b = append(txn_batch(8, 0, 0, true)).await.unwrap();
            assert_eq!(p.last_stable_offset(), a);
            // Outside its open transaction, a producer may not write.
            let err = append(txn_batch(7, 0, 1, false)).await.unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidTxnState);
            let m = p.write_txn_marker(7, 0, 3, false, T).await.unwrap();
            assert_eq!(p.last_stable_offset(), b);
            assert_eq!(
                p.aborted_transactions(0, m.last_offset + 1),
                vec![AbortedTxn {
                    producer_id: 7,
                    first_offset: a
                }]
            );
            p.write_txn_marker(8, 0, 3, true, T).await.unwrap();
            assert_eq!(p.last_stable_offset(), p.high_watermark());
            // A coordinator older than the last marker's is fenced.
            let err = p.write_txn_marker(8, 0, 2, true, T).await.unwrap_err();
            assert_eq!(err.code, ErrorCode::TransactionCoordinatorFenced);
            // An abort with a bumped epoch fences the zombie's batches and
            // the new epoch starts at sequence 0.
            p.write_txn_marker(7, 1, 3, false, T).await.unwrap();
            let err = append(txn_batch(7, 0, 1, true)).await.unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidProducerEpoch);
            let err = p.write_txn_marker(7, 0, 3, false, T).await.unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidProducerEpoch);
            let err = append(txn_batch(7, 1, 5, true)).await.unwrap_err();
            assert_eq!(err.code, ErrorCode::OutOfOrderSequenceNumber);
            let c = append(txn_batch(7, 1, 0, true)).await.unwrap();
            assert_eq!(p.last_stable_offset(), c);
            // A coordinator-origin write skips sequences, not the epoch.
            let err = p
                .append_coordinator(txn_batch(7, 0, -1, true), T)
                .await
                .unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidProducerEpoch);
            p.append_coordinator(txn_batch(7, 1, -1, true), T)
                .await
                .unwrap();
            let states = p.producers_for_describe();
            let s7 = states.iter().find(|s| s.producer_id == 7).unwrap();
            assert_eq!(
                (
                    s7.producer_epoch,
                    s7.coordinator_epoch,
                    s7.current_txn_start_offset
                ),
                (1, 3, c)
            );
            // A new leader's producer state knows the markers' epochs.
            let (state, _) = rebuild_producer_state(&p.log).await.unwrap();
            assert_eq!(
                state.check_epoch(7, 0),
                Err(ErrorCode::InvalidProducerEpoch)
            );
            assert_eq!(
                state.check_marker(8, 0, 2),
                Err(ErrorCode::TransactionCoordinatorFenced)
            );
            p.close().await.unwrap();
        });
    }
}
