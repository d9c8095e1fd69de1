//! Reading the shards from outside them: the admin server's thread sends
//! each shard a job (through the same inboxes the shards use for each
//! other) that copies what the shard knows into a [`ShardSample`] on the
//! shard's own thread, and waits a bounded time for every answer. A shard
//! spends the copying on its loop (a few microseconds per partition); the
//! formatting and everything else happen on the admin thread.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use uuid::Uuid;

use super::record::ShardStats;
use crate::metadata::ClusterMetadata;
use crate::shard::{Job, Shard, owner_shard};

/// What one shard knows of one partition replica it owns.
#[derive(Debug, Clone)]
pub struct PartitionSample {
    pub topic: String,
    pub topic_id: Uuid,
    pub index: i32,
    pub high_watermark: i64,
    pub log_start: i64,
    pub log_end: i64,
    pub size_bytes: u64,
    /// Heap bytes of the log's indexes and tail cache.
    pub memory_bytes: usize,
    pub is_leader: bool,
    /// -1 while there is none.
    pub leader: i32,
    pub epoch: i32,
    pub replicas: Vec<i32>,
    /// In-sync replicas, where this broker leads (cluster mode); on a
    /// single node the broker itself.
    pub isr: Option<Vec<i32>>,
}

/// A group's committed offset of one partition.
#[derive(Debug, Clone)]
pub struct Commit {
    pub group: String,
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
}

/// Everything a scrape reads from one shard.
pub struct ShardSample {
    pub shard: usize,
    pub stats: ShardStats,
    pub partitions: Vec<PartitionSample>,
    pub commits: Vec<Commit>,
    /// The groups this shard coordinates (only with [`Detail::Status`]).
    pub groups: Vec<crate::groups::GroupListing>,
    pub sync: tidemark_storage::sync_stats::SyncLatency,
    /// Shard 0 only: the metadata snapshot and the controller's leader
    /// (cluster mode; `None` while there is none or on a single node).
    pub metadata: Option<Arc<ClusterMetadata>>,
    pub controller_leader: Option<i32>,
}

/// A shard did not answer in time (stopping, or stuck).
#[derive(Debug, thiserror::Error)]
#[error("shard {0} did not answer within the scrape timeout")]
pub struct ShardTimeout(pub usize);

/// How much of a shard to copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Counters, partitions, committed offsets: for `/metrics` and health.
    Full,
    /// Partitions and metadata only (the status endpoints).
    Partitions,
    /// What the status page's `/v1/topics` and `/v1/groups` read: the
    /// per-topic byte and record counters (not the latency histograms,
    /// which the page polling every few seconds would copy for nothing),
    /// partitions, committed offsets and the groups.
    Status,
}

fn sample(shard: &Rc<Shard>, detail: Detail) -> ShardSample {
    let node = shard.ctx.config.node_id;
    let meta = shard.metadata();
    let partitions = shard
        .partitions
        .borrow()
        .iter()
        .map(|(key, p)| partition_sample(shard, &meta, node, key, p))
        .collect();
    let coordinator = crate::groups::coordinator();
    let coordinator = coordinator.borrow();
    let commits = if detail == Detail::Partitions {
        Vec::new()
    } else {
        coordinator
            .groups
            .iter()
            .flat_map(|(gid, g)| {
                g.offsets.iter().map(move |((t, p), v)| Commit {
                    group: gid.clone(),
                    topic: t.clone(),
                    partition: *p,
                    offset: v.value.offset,
                })
            })
            .collect()
    };
    let groups = if detail == Detail::Status {
        coordinator.listings()
    } else {
        Vec::new()
    };
    drop(coordinator);
    let (stats, sync) = match detail {
        Detail::Full => (
            super::record::snapshot(),
            tidemark_storage::sync_stats::sync_latency(),
        ),
        Detail::Status => (super::record::topics_snapshot(), Default::default()),
        Detail::Partitions => Default::default(),
    };
    ShardSample {
        shard: shard.id,
        stats,
        partitions,
        commits,
        groups,
        sync,
        metadata: (shard.id == 0).then_some(meta),
        controller_leader: if shard.id == 0 {
            match shard.controller() {
                Some(c) => c.leader(),
                None if !shard.is_cluster() => Some(node),
                None => None,
            }
        } else {
            None
        },
    }
}

fn partition_sample(
    shard: &Rc<Shard>,
    meta: &ClusterMetadata,
    node: i32,
    key: &crate::shard::PartitionKey,
    p: &crate::partition::Partition,
) -> PartitionSample {
    let replicas = meta
        .topic(&p.topic)
        .map(|t| t.all_replicas_of(p.index, node))
        .unwrap_or_else(|| vec![node]);
    let isr = if shard.is_cluster() {
        shard.isr_of(key)
    } else {
        Some(vec![node])
    };
    PartitionSample {
        topic: p.topic.clone(),
        topic_id: p.topic_id,
        index: p.index,
        high_watermark: p.high_watermark(),
        log_start: p.log.log_start_offset(),
        log_end: p.log.log_end_offset(),
        size_bytes: p.log.size_bytes(),
        memory_bytes: p.log.memory_bytes(),
        is_leader: p.is_leader(),
        leader: shard.leader_of(key),
        epoch: shard.leader_epoch(key),
        replicas,
        isr,
    }
}

/// Sends `make(shard)` to the shards in `targets` and waits until
/// `timeout` for all answers.
fn ask<T: Send + 'static>(
    peers: &[flume::Sender<Job>],
    targets: &[usize],
    timeout: Duration,
    make: impl Fn(&Rc<Shard>) -> T + Send + Sync + Clone + 'static,
) -> Result<Vec<T>, ShardTimeout> {
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    for &i in targets {
        let tx = tx.clone();
        let make = make.clone();
        let job: Job = Box::new(move |s: Rc<Shard>| {
            Box::pin(async move {
                let _ = tx.send((i, make(&s)));
            })
        });
        if peers.get(i).is_none_or(|p| p.send(job).is_err()) {
            return Err(ShardTimeout(i));
        }
    }
    drop(tx);
    let deadline = Instant::now() + timeout;
    let mut got: Vec<Option<T>> = (0..peers.len()).map(|_| None).collect();
    for _ in targets {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok((i, v)) => got[i] = Some(v),
            Err(_) => {
                let missing = targets.iter().copied().find(|&i| got[i].is_none());
                return Err(ShardTimeout(missing.unwrap_or(0)));
            }
        }
    }
    Ok(got.into_iter().flatten().collect())
}

/// One sample from every shard, shard 0 first.
pub fn all_shards(
    peers: &[flume::Sender<Job>],
    detail: Detail,
    timeout: Duration,
) -> Result<Vec<ShardSample>, ShardTimeout> {
    let targets: Vec<usize> = (0..peers.len()).collect();
    ask(peers, &targets, timeout, move |s| sample(s, detail))
}

/// [`all_shards`] from a shard's own event loop (a peer's question for
/// the cluster-wide status lands on shard 0), where waiting on a
/// blocking channel would stall the loop that must answer one of the
/// jobs: each shard is asked through its inbox and awaited.
pub async fn all_shards_from(
    shard: &Rc<Shard>,
    detail: Detail,
    timeout: Duration,
) -> Result<Vec<ShardSample>, ShardTimeout> {
    let calls = (0..shard.shard_count()).map(|i| {
        let shard = shard.clone();
        async move {
            shard
                .submit_to(i, move |s| async move { sample(&s, detail) })
                .await
                .map_err(|_| ShardTimeout(i))
        }
    });
    match monoio::time::timeout(timeout, futures_util::future::join_all(calls)).await {
        Ok(answers) => answers.into_iter().collect(),
        // Which one was late is not known here.
        Err(_) => Err(ShardTimeout(0)),
    }
}

/// One partition as this broker knows it.
pub struct OnePartition {
    /// The replica here (`None`: the topic is unknown or this broker
    /// holds no replica of it).
    pub sample: Option<PartitionSample>,
    /// The metadata snapshot the answer came from.
    pub metadata: Arc<ClusterMetadata>,
    /// Leader and epoch as announced to this broker's shards (-1: none
    /// known).
    pub leader: i32,
    pub epoch: i32,
}

/// What the owner shard knows of partition `index` of `topic`.
pub fn one_partition(
    peers: &[flume::Sender<Job>],
    topic: String,
    index: i32,
    timeout: Duration,
) -> Result<OnePartition, ShardTimeout> {
    // Shard 0 knows the topic id (every shard has the same snapshot).
    let meta = ask(peers, &[0], timeout, |s| s.metadata())?
        .pop()
        .ok_or(ShardTimeout(0))?;
    let Some(t) = meta.topic(&topic).cloned() else {
        return Ok(OnePartition {
            sample: None,
            metadata: meta,
            leader: -1,
            epoch: -1,
        });
    };
    let owner = owner_shard(t.id, index, peers.len());
    let key = (t.id, index);
    let (p, leader, epoch) = ask(peers, &[owner], timeout, move |s| {
        let meta = s.metadata();
        let node = s.ctx.config.node_id;
        let p = s
            .partition(&key)
            .map(|p| partition_sample(s, &meta, node, &key, &p));
        (p, s.leader_of(&key), s.leader_epoch(&key))
    })?
    .pop()
    .ok_or(ShardTimeout(owner))?;
    Ok(OnePartition {
        sample: p,
        metadata: meta,
        leader,
        epoch,
    })
}
