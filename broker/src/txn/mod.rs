//! The transaction coordinator (Kafka's `TransactionCoordinator` and
//! `TransactionStateManager`).
//!
//! Where things live: a transactional id belongs to partition
//! `abs(javaHashCode(id)) % transaction.state.log.num.partitions` of the
//! compacted internal topic `__transaction_state`, created on first use,
//! and its state lives on the shard that owns that partition, on the
//! broker that leads it: exactly as groups live with `__consumer_offsets`
//! (`crate::groups`). Handlers reach it with `Shard::submit_to`.
//!
//! Durability: every transition ([`state`]) is a record of that partition
//! ([`records`], Kafka's layout), appended through the partition's Raft
//! group and applied in memory only once durable; while it is being
//! written the id is `pending` and other requests for it get
//! CONCURRENT_TRANSACTIONS. A coordinator that starts, or becomes leader of
//! a partition, replays it from the log start ([`load_partition`]) before
//! it answers for its ids, and finishes the transactions it finds
//! prepared (markers are idempotent to write twice: the second ends no
//! open transaction).
//!
//! Ending a transaction: EndTxn writes PrepareCommit/PrepareAbort, answers
//! the client, then a task writes the markers to every partition of the
//! transaction ([`markers`]), retrying until each one is durable, and
//! writes CompleteCommit/CompleteAbort. A transaction is never half
//! visible: read_committed readers stop at each partition's last stable
//! offset until its marker is there.
//!
//! The tick (`transaction.abort.timed.out.transaction.cleanup.interval.ms`)
//! aborts transactions open past their timeout, fencing the producer's
//! epoch as Kafka does, and forgets ids idle past
//! `transactional.id.expiration.ms` (a tombstone).

pub mod markers;
pub mod records;
pub mod state;
pub mod verify;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::records::{NewRecord, RecordBatch, RecordBatchBuilder};
use uuid::Uuid;

use crate::metadata::TopicMeta;
use crate::notify::LocalNotify;
use crate::partition::{Partition, now_ms};
use crate::shard::{Shard, owner_shard};
use state::{EndStep, InitStep, TxnMeta, TxnState};

/// The internal topic of transaction state.
pub const TXN_TOPIC: &str = "__transaction_state";

/// How long a state record's append may take before the request is
/// answered COORDINATOR_NOT_AVAILABLE (retriable).
const APPEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Marker retries back off from this up to [`MARKER_BACKOFF_MAX`].
const MARKER_BACKOFF_MIN: Duration = Duration::from_millis(20);
const MARKER_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// One shard's transactional ids.
#[derive(Default)]
pub struct Coordinator {
    pub txns: HashMap<String, TxnMeta>,
    /// The `__transaction_state` partitions this shard coordinates, with
    /// their coordinator epoch (the partition's leader epoch when loaded).
    pub loaded: HashMap<i32, i32>,
}

thread_local! {
    static COORDINATOR: Rc<RefCell<Coordinator>> = Rc::new(RefCell::new(Coordinator::default()));
    /// Woken whenever a transition of this shard's ids ends.
    static SETTLED: Rc<LocalNotify> = Rc::new(LocalNotify::default());
}

/// How long a request waits for the id's previous transaction to finish
/// (markers and Complete state) before answering CONCURRENT_TRANSACTIONS.
const SETTLE_WAIT: Duration = Duration::from_secs(2);

/// Waits (at most [`SETTLE_WAIT`]) until `id` has no transition being
/// written and no prepared transaction whose markers are being written.
///
/// Kafka answers CONCURRENT_TRANSACTIONS at once, and clients back off
/// (librdkafka and the Java client 20 ms) before trying again: a producer
/// running back-to-back transactions lost that backoff on every one,
/// since its next AddPartitionsToTxn arrives while the last commit's
/// markers are still being written (measured: 20 ms of the 27 ms a
/// 1,000-record transaction took). Waiting here answers as soon as the
/// markers are durable.
async fn settle(id: &str) {
    let settled = SETTLED.with(|n| n.clone());
    let deadline = std::time::Instant::now() + SETTLE_WAIT;
    loop {
        let busy = coordinator()
            .borrow()
            .txns
            .get(id)
            .is_some_and(|m| m.pending || m.state.is_prepared());
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if !busy || left.is_zero() {
            return;
        }
        let _ = monoio::time::timeout(left, settled.notified()).await;
    }
}

/// This shard's transaction coordinator state.
pub fn coordinator() -> Rc<RefCell<Coordinator>> {
    COORDINATOR.with(|c| c.clone())
}

/// Where a transactional id's coordinator runs.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    pub topic_id: Uuid,
    pub partition: i32,
    pub shard: usize,
}

/// `__transaction_state`, created (compacted,
/// `transaction.state.log.num.partitions` partitions,
/// `transaction.state.log.replication.factor` replicas, at most the
/// brokers there are) on first use.
pub async fn txn_topic(shard: &Rc<Shard>) -> Result<TopicMeta, ErrorCode> {
    let settings = shard.metadata().settings.clone();
    crate::topics::internal_topic(
        shard,
        TXN_TOPIC,
        settings.i32("transaction.state.log.num.partitions"),
        settings.i32("transaction.state.log.replication.factor"),
        settings.i32("transaction.state.log.min.isr"),
    )
    .await
}

/// The `__transaction_state` partition of `id` (Kafka's mapping).
pub fn partition_for(id: &str, partitions: i32) -> i32 {
    crate::groups::partition_for(id, partitions)
}

/// The coordinator of `id` (creating `__transaction_state` if needed):
/// NOT_COORDINATOR unless this broker leads the id's partition.
pub async fn route(shard: &Rc<Shard>, id: &str) -> Result<Route, ErrorCode> {
    let t = txn_topic(shard).await?;
    let partition = partition_for(id, t.partitions);
    if shard.is_cluster() && shard.leader_of(&(t.id, partition)) != shard.ctx.config.node_id {
        return Err(ErrorCode::NotCoordinator);
    }
    Ok(Route {
        topic_id: t.id,
        partition,
        shard: owner_shard(t.id, partition, shard.shard_count()),
    })
}

/// On the owner shard: the coordinator epoch of the route's partition,
/// or the error a request gets while it is not loaded here.
pub fn coordinator_epoch(shard: &Shard, route: Route) -> Result<i32, ErrorCode> {
    if let Some(e) = coordinator().borrow().loaded.get(&route.partition) {
        return Ok(*e);
    }
    match shard.partition(&(route.topic_id, route.partition)) {
        // A single node loads its partitions before it listens: one that
        // is not loaded was created since, and has nothing to load.
        Some(p) if !shard.is_cluster() => Ok(adopt_new_partition(&p)),
        // A cluster loads a partition once it leads it.
        Some(p) if p.is_leader() => Err(ErrorCode::CoordinatorLoadInProgress),
        _ => Err(ErrorCode::NotCoordinator),
    }
}

/// Appends one state record (`None`: a tombstone) to the id's partition
/// and returns once it is durable.
async fn append_state(
    shard: &Rc<Shard>,
    route: Route,
    id: &str,
    value: Option<Bytes>,
) -> Result<(), ErrorCode> {
    let part = shard
        .partition(&(route.topic_id, route.partition))
        .ok_or(ErrorCode::NotCoordinator)?;
    let batch = RecordBatchBuilder::new()
        .record(NewRecord {
            key: Some(records::key(id)),
            value,
            headers: Vec::new(),
            timestamp: now_ms(),
        })
        .build()
        .map_err(|e| {
            tracing::error!(error = %e, "cannot build a {TXN_TOPIC} batch");
            ErrorCode::UnknownServerError
        })?;
    match part.append(batch, -1, APPEND_TIMEOUT).await {
        Ok(_) => Ok(()),
        Err(e) => {
            tracing::warn!(id, code = ?e.code, message = %e.message, "{TXN_TOPIC} append failed");
            // Kafka's TransactionStateManager.appendTransactionToLog.
            Err(match e.code {
                ErrorCode::NotLeaderOrFollower | ErrorCode::KafkaStorageError => {
                    ErrorCode::NotCoordinator
                }
                ErrorCode::MessageTooLarge | ErrorCode::RecordListTooLarge => {
                    ErrorCode::UnknownServerError
                }
                _ => ErrorCode::CoordinatorNotAvailable,
            })
        }
    }
}

/// Writes `next` as the id's state and applies it once durable. The id is
/// pending meanwhile. Fails with NOT_COORDINATOR if the partition was
/// unloaded or reloaded (another coordinator epoch) during the write.
async fn transition(
    shard: &Rc<Shard>,
    route: Route,
    epoch: i32,
    next: TxnMeta,
) -> Result<TxnMeta, ErrorCode> {
    let c = coordinator();
    {
        let mut c = c.borrow_mut();
        match c.txns.get_mut(&next.id) {
            Some(m) if m.pending => return Err(ErrorCode::ConcurrentTransactions),
            Some(m) => m.pending = true,
            None => {
                let mut placeholder = next.clone();
                placeholder.pending = true;
                placeholder.state = TxnState::Empty;
                placeholder.producer_epoch = -1;
                placeholder.partitions.clear();
                c.txns.insert(next.id.clone(), placeholder);
            }
        }
    }
    let value = records::value(&records::TxnValue::of(&next));
    let r = append_state(shard, route, &next.id, Some(value)).await;
    // Whatever the outcome, the id is no longer pending once this returns.
    let _wake = WakeSettled;
    let mut c = c.borrow_mut();
    if c.loaded.get(&route.partition) != Some(&epoch) {
        return Err(ErrorCode::NotCoordinator);
    }
    match r {
        Ok(()) => {
            let mut next = next;
            next.pending = false;
            c.txns.insert(next.id.clone(), next.clone());
            Ok(next)
        }
        Err(code) => {
            if let Some(m) = c.txns.get_mut(&next.id) {
                m.pending = false;
            }
            Err(code)
        }
    }
}

/// Wakes [`settle`]'s waiters when dropped (after the coordinator's
/// borrow in the same scope ends, being declared before it).
struct WakeSettled;

impl Drop for WakeSettled {
    fn drop(&mut self) {
        SETTLED.with(|n| n.notify_all());
    }
}

/// What InitProducerId answers: (producer id, epoch) or an error.
pub async fn init_producer_id(
    shard: &Rc<Shard>,
    route: Route,
    id: String,
    timeout_ms: i32,
    expected: Option<(i64, i16)>,
) -> Result<(i64, i16), ErrorCode> {
    let epoch = coordinator_epoch(shard, route)?;
    settle(&id).await;
    let known = coordinator().borrow().txns.get(&id).cloned();
    let current = match known {
        Some(m) => m,
        None => {
            let pid = allocate_producer_id(shard).await?;
            // Another request may have created it meanwhile.
            let c = coordinator();
            let mut c = c.borrow_mut();
            c.txns
                .entry(id.clone())
                .or_insert_with(|| TxnMeta::new(id.clone(), pid, timeout_ms, now_ms()))
                .clone()
        }
    };
    let next = match current.init(timeout_ms, expected, now_ms())? {
        InitStep::Write(next) => next,
        InitStep::Rotate => {
            let pid = allocate_producer_id(shard).await?;
            current.rotated(pid, timeout_ms, now_ms())
        }
        InitStep::FenceAndAbort(fenced) => {
            let prepared = fenced.prepared(false, now_ms());
            transition(shard, route, epoch, prepared).await?;
            spawn_completion(shard, route, epoch, id);
            return Err(ErrorCode::ConcurrentTransactions);
        }
    };
    let done = transition(shard, route, epoch, next).await?;
    tracing::info!(
        transactional_id = %done.id,
        producer_id = done.producer_id,
        epoch = done.producer_epoch,
        "initialized transactional producer"
    );
    Ok((done.producer_id, done.producer_epoch))
}

/// A producer id for a transactional id (a failed store is retriable for
/// the client, as Kafka's coordinator answers it).
async fn allocate_producer_id(shard: &Rc<Shard>) -> Result<i64, ErrorCode> {
    crate::admin::allocate_producer_id(shard)
        .await
        .map_err(|_| ErrorCode::CoordinatorNotAvailable)
}

/// AddPartitionsToTxn / AddOffsetsToTxn (`client_version` 0), or the
/// implicit add of transactions v2 (2: a partition leader's Produce v12+
/// or a group coordinator's TxnOffsetCommit v5+, Kafka's
/// `AddPartitionsToTxnManager` with `addPartition`).
pub async fn add_partitions(
    shard: &Rc<Shard>,
    route: Route,
    id: String,
    producer_id: i64,
    producer_epoch: i16,
    partitions: std::collections::BTreeSet<(String, i32)>,
    client_version: i16,
) -> Result<(), ErrorCode> {
    let epoch = coordinator_epoch(shard, route)?;
    settle(&id).await;
    let current = coordinator()
        .borrow()
        .txns
        .get(&id)
        .cloned()
        .ok_or(ErrorCode::InvalidProducerIdMapping)?;
    match current.add_partitions(
        producer_id,
        producer_epoch,
        &partitions,
        client_version,
        now_ms(),
    )? {
        None => Ok(()),
        Some(next) => transition(shard, route, epoch, next).await.map(|_| ()),
    }
}

/// EndTxn: answers once the Prepare state is durable; the markers and the
/// Complete state follow in the background. `v2`: EndTxn v5+
/// (transactions v2), which bumps the epoch. The answer is the producer
/// id and epoch the client goes on with (what EndTxn v5 returns).
pub async fn end_txn(
    shard: &Rc<Shard>,
    route: Route,
    id: String,
    producer_id: i64,
    producer_epoch: i16,
    commit: bool,
    v2: bool,
) -> Result<(i64, i16), ErrorCode> {
    let epoch = coordinator_epoch(shard, route)?;
    // A v2 producer may end its next transaction while the markers of
    // the last one are still being written.
    settle(&id).await;
    let current = coordinator()
        .borrow()
        .txns
        .get(&id)
        .cloned()
        .ok_or(ErrorCode::InvalidProducerIdMapping)?;
    let next = match current.end(producer_id, producer_epoch, commit, v2, now_ms())? {
        EndStep::Answered(pid, e) => return Ok((pid, e)),
        EndStep::Write(next) => next,
        EndStep::Rotate => {
            let pid = allocate_producer_id(shard).await?;
            // The state may have moved during the allocation: decide again.
            let now = coordinator()
                .borrow()
                .txns
                .get(&id)
                .cloned()
                .ok_or(ErrorCode::InvalidProducerIdMapping)?;
            match now.end(producer_id, producer_epoch, commit, v2, now_ms())? {
                EndStep::Rotate => now.prepared_v2(commit, pid, now_ms()),
                EndStep::Answered(pid, e) => return Ok((pid, e)),
                EndStep::Write(next) => next,
            }
        }
    };
    let written = transition(shard, route, epoch, next).await?;
    spawn_completion(shard, route, epoch, id);
    Ok(written.next_identity())
}

/// Writes the markers of the id's prepared transaction and then its
/// Complete state, retrying until done or until this shard no longer
/// coordinates the id under `epoch` (the next coordinator finishes it).
fn spawn_completion(shard: &Rc<Shard>, route: Route, epoch: i32, id: String) {
    let shard = shard.clone();
    monoio::spawn(async move {
        let still_here = || coordinator().borrow().loaded.get(&route.partition) == Some(&epoch);
        let mut backoff = MARKER_BACKOFF_MIN;
        let mut done: std::collections::BTreeSet<(String, i32)> = Default::default();
        loop {
            if shard.is_stopping() || !still_here() {
                return;
            }
            let Some(m) = coordinator().borrow().txns.get(&id).cloned() else {
                return;
            };
            if !m.state.is_prepared() {
                return;
            }
            let commit = m.state == TxnState::PrepareCommit;
            let todo: Vec<(String, i32)> = m.partitions.difference(&done).cloned().collect();
            if !todo.is_empty() {
                let results =
                    markers::write(&shard, m.producer_id, m.producer_epoch, epoch, commit, todo)
                        .await;
                for (tp, code) in results {
                    // Whether the partition exists in this coordinator's
                    // metadata: a peer still catching up after a restart
                    // may not know a topic yet and answer
                    // UNKNOWN_TOPIC_OR_PARTITION for it.
                    let exists = shard
                        .metadata()
                        .topic(&tp.0)
                        .is_some_and(|t| tp.1 >= 0 && tp.1 < t.partitions);
                    match code {
                        ErrorCode::None => {
                            done.insert(tp);
                        }
                        // The partition is gone (Kafka drops markers of
                        // deleted partitions too; it retries this error for
                        // a partition its metadata still has, as here).
                        ErrorCode::UnknownTopicOrPartition if !exists => {
                            done.insert(tp);
                        }
                        ErrorCode::TransactionCoordinatorFenced => {
                            tracing::warn!(transactional_id = %id, "fenced by a newer coordinator");
                            return;
                        }
                        ErrorCode::InvalidProducerEpoch => {
                            // The partition saw a newer epoch of this
                            // producer: this transaction's marker can only
                            // have been written already.
                            tracing::warn!(transactional_id = %id, topic = %tp.0, partition = tp.1, "marker refused: newer producer epoch");
                            done.insert(tp);
                        }
                        code => {
                            tracing::debug!(transactional_id = %id, topic = %tp.0, partition = tp.1, ?code, "marker not written yet; retrying");
                        }
                    }
                }
            }
            if m.partitions.is_subset(&done) {
                match transition(&shard, route, epoch, m.completed(now_ms())).await {
                    Ok(done) => {
                        tracing::debug!(transactional_id = %id, state = done.state.name(), "transaction completed");
                        return;
                    }
                    Err(ErrorCode::NotCoordinator) => return,
                    Err(code) => {
                        tracing::warn!(transactional_id = %id, ?code, "cannot write the completed state; retrying");
                    }
                }
            }
            monoio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MARKER_BACKOFF_MAX);
        }
    });
}

/// Start-up on each shard: a single node loads its `__transaction_state`
/// partitions here (a cluster loads them as it takes their leadership,
/// `cluster::leadership`), then the tick runs.
pub async fn start(shard: &Rc<Shard>) {
    if !shard.is_cluster() {
        let parts: Vec<Rc<Partition>> = shard
            .partitions
            .borrow()
            .values()
            .filter(|p| p.topic == TXN_TOPIC)
            .cloned()
            .collect();
        for p in parts {
            load_partition(shard, &p).await;
        }
    }
    monoio::spawn(ticker(shard.clone()));
}

/// A single node's `__transaction_state` partition opened after start-up
/// (the topic was just created): nothing to read, it is coordinated now.
fn adopt_new_partition(part: &Partition) -> i32 {
    *coordinator()
        .borrow_mut()
        .loaded
        .entry(part.index)
        .or_insert_with(|| part.leader_epoch())
}

async fn ticker(shard: Rc<Shard>) {
    let mut last_expiry = std::time::Instant::now();
    loop {
        let settings = shard.metadata().settings.clone();
        let abort_every = settings
            .i64("transaction.abort.timed.out.transaction.cleanup.interval.ms")
            .max(1) as u64;
        monoio::select! {
            _ = monoio::time::sleep(Duration::from_millis(abort_every)) => {}
            _ = shard.stopping() => return,
        }
        abort_timed_out(&shard).await;
        let expire_every = settings
            .i64("transaction.remove.expired.transaction.cleanup.interval.ms")
            .max(1) as u64;
        if last_expiry.elapsed() >= Duration::from_millis(expire_every) {
            last_expiry = std::time::Instant::now();
            expire_ids(
                &shard,
                settings.i64("transactional.id.expiration.ms").max(1),
            )
            .await;
        }
    }
}

/// The route of an id whose partition this shard coordinates.
fn local_route(shard: &Shard, id: &str) -> Option<(Route, i32)> {
    let t = shard.metadata().topic(TXN_TOPIC).cloned()?;
    let partition = partition_for(id, t.partitions);
    let epoch = *coordinator().borrow().loaded.get(&partition)?;
    Some((
        Route {
            topic_id: t.id,
            partition,
            shard: shard.id,
        },
        epoch,
    ))
}

/// Aborts transactions open past their timeout, bumping the producer's
/// epoch (Kafka's `abortTimedOutTransactions`): the producer is fenced
/// and must initialize again.
async fn abort_timed_out(shard: &Rc<Shard>) {
    let now = now_ms();
    let late: Vec<TxnMeta> = coordinator()
        .borrow()
        .txns
        .values()
        .filter(|m| m.timed_out(now))
        .cloned()
        .collect();
    for m in late {
        let Some((route, epoch)) = local_route(shard, &m.id) else {
            continue;
        };
        let Ok(InitStep::FenceAndAbort(fenced)) = m.init(m.timeout_ms, None, now) else {
            continue;
        };
        tracing::info!(transactional_id = %m.id, producer_id = m.producer_id, timeout_ms = m.timeout_ms, "aborting a transaction past its timeout");
        if transition(shard, route, epoch, fenced.prepared(false, now))
            .await
            .is_ok()
        {
            spawn_completion(shard, route, epoch, m.id.clone());
        }
    }
}

/// Forgets ids without a transaction for `expiration_ms` (a tombstone
/// each).
async fn expire_ids(shard: &Rc<Shard>, expiration_ms: i64) {
    let now = now_ms();
    let old: Vec<String> = coordinator()
        .borrow()
        .txns
        .values()
        .filter(|m| m.expired(now, expiration_ms))
        .map(|m| m.id.clone())
        .collect();
    for id in old {
        let Some((route, epoch)) = local_route(shard, &id) else {
            continue;
        };
        {
            let c = coordinator();
            let mut c = c.borrow_mut();
            match c.txns.get_mut(&id) {
                Some(m) if m.expired(now, expiration_ms) => m.pending = true,
                _ => continue,
            }
        }
        let r = append_state(shard, route, &id, None).await;
        let _wake = WakeSettled;
        let c = coordinator();
        let mut c = c.borrow_mut();
        if r.is_ok() && c.loaded.get(&route.partition) == Some(&epoch) {
            c.txns.remove(&id);
            tracing::info!(transactional_id = %id, "expired transactional id");
        } else if let Some(m) = c.txns.get_mut(&id) {
            m.pending = false;
        }
    }
}

/// Forgets the ids of `__transaction_state` partition `partition` (this
/// broker no longer leads it).
pub fn unload_partition(shard: &Shard, partition: i32) {
    let Some(t) = shard.metadata().topic(TXN_TOPIC).cloned() else {
        return;
    };
    let c = coordinator();
    let mut c = c.borrow_mut();
    c.loaded.remove(&partition);
    let before = c.txns.len();
    c.txns
        .retain(|id, _| partition_for(id, t.partitions) != partition);
    tracing::info!(
        partition,
        ids = before - c.txns.len(),
        "unloaded {TXN_TOPIC} partition"
    );
}

/// Reads a `__transaction_state` partition from its start into this
/// shard's coordinator, then finishes the transactions it left prepared.
pub async fn load_partition(shard: &Rc<Shard>, part: &Partition) {
    let c = coordinator();
    let mut found: HashMap<String, TxnMeta> = HashMap::new();
    let mut offset = part.log.log_start_offset();
    while offset < part.high_watermark() {
        let r = match part.read(offset, 1 << 20).await {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(partition = part.index, error = %e, "cannot read {TXN_TOPIC}");
                return;
            }
        };
        if r.batches.is_empty() || r.next_offset <= offset {
            break;
        }
        for b in r.batches {
            let Ok(batch) = RecordBatch::new(b) else {
                continue;
            };
            if batch.is_control() {
                continue;
            }
            let Ok(recs) = batch.decompressed_records(64 << 20) else {
                tracing::warn!(
                    partition = part.index,
                    offset = batch.base_offset(),
                    "unreadable batch skipped"
                );
                continue;
            };
            for rec in recs {
                let Ok(rec) = rec else { break };
                let Some(key) = rec.key() else { continue };
                let id = match records::decode_key(key) {
                    Ok(id) => id,
                    Err(e) => {
                        tracing::warn!(partition = part.index, error = %e, "undecodable key skipped");
                        continue;
                    }
                };
                match rec.value() {
                    None => {
                        found.remove(&id);
                    }
                    Some(v) => match records::decode_value(v) {
                        Ok(v) => {
                            let m = TxnMeta {
                                id: id.clone(),
                                producer_id: v.producer_id,
                                previous_producer_id: v.previous_producer_id,
                                producer_epoch: v.producer_epoch,
                                last_producer_epoch: -1,
                                timeout_ms: v.timeout_ms,
                                state: v.state,
                                partitions: v.partitions,
                                start_ms: v.start_ms,
                                last_update_ms: v.last_update_ms,
                                pending: false,
                                next_producer_id: v.next_producer_id,
                                client_version: v.client_version,
                            };
                            found.insert(id, m);
                        }
                        Err(e) => {
                            tracing::warn!(partition = part.index, error = %e, "undecodable value skipped");
                        }
                    },
                }
            }
        }
        offset = r.next_offset;
    }
    let epoch = part.leader_epoch();
    let prepared: Vec<String> = found
        .values()
        .filter(|m| m.state.is_prepared())
        .map(|m| m.id.clone())
        .collect();
    let n = found.len();
    {
        let mut c = c.borrow_mut();
        c.txns.extend(found);
        c.loaded.insert(part.index, epoch);
    }
    if n > 0 {
        tracing::info!(
            partition = part.index,
            ids = n,
            epoch,
            "loaded {TXN_TOPIC} partition"
        );
    }
    if let Some(t) = shard.metadata().topic(TXN_TOPIC).cloned() {
        let route = Route {
            topic_id: t.id,
            partition: part.index,
            shard: shard.id,
        };
        for id in prepared {
            spawn_completion(shard, route, epoch, id);
        }
    }
}
