//! Shards: one thread per core, each with its own monoio runtime and its
//! own partitions. Nothing a shard owns is touched by another thread; other
//! shards ask it to do things by sending closures to its inbox
//! ([`Shard::submit_to`]), the way Seastar's `submit_to` works.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;

use futures_channel::oneshot;
use uuid::Uuid;

use crate::BrokerContext;
use crate::metadata::{ClusterMetadata, MetadataStore};
use crate::notify::LocalNotify;
use crate::partition::Partition;

/// Partitions a stopping shard closes at once (see `begin_stop`).
const CLOSE_AT_ONCE: usize = 1024;

/// A unit of work sent to another shard.
pub type Job = Box<dyn FnOnce(Rc<Shard>) -> Pin<Box<dyn Future<Output = ()>>> + Send>;

/// What identifies a partition replica on its shard.
pub type PartitionKey = (Uuid, i32);

/// The shard that owns partition `index` of topic `topic_id`, when there
/// are `shards` shards. Stable for a given topic id, so a restart puts each
/// partition back on the same shard.
pub fn owner_shard(topic_id: Uuid, index: i32, shards: usize) -> usize {
    // The topic id and the index, mixed by splitmix64's finaliser so that
    // every bit of the result depends on both: consecutive partitions of a
    // topic spread over the shards whatever their number. (A plain FNV-1a
    // keeps the low bit's parity, which put every partition of a topic on
    // one shard of two.)
    let (hi, lo) = topic_id.as_u64_pair();
    let mut x = hi ^ lo.rotate_left(32) ^ (index as u32 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    (x % shards as u64) as usize
}

/// One core's share of the broker.
pub struct Shard {
    pub id: usize,
    /// Everyone's inboxes, indexed by shard id.
    peers: Arc<Vec<flume::Sender<Job>>>,
    /// What every shard shares, read-only.
    pub ctx: Arc<BrokerContext>,
    /// This shard's copy of the cluster metadata, replaced on change.
    metadata: RefCell<Arc<ClusterMetadata>>,
    /// Notified when `metadata` is replaced.
    metadata_notify: LocalNotify,
    /// This shard's acceptors, one per listener in force.
    pub acceptors: crate::acceptors::Acceptors,
    /// The partition replicas this shard owns.
    pub partitions: RefCell<HashMap<PartitionKey, Rc<Partition>>>,
    /// Every partition's current leader epoch (the Raft term), as its
    /// owner shard last announced it: Metadata and DescribeTopicPartitions
    /// answer from here on any shard without asking the owner.
    leader_epochs: RefCell<HashMap<PartitionKey, i32>>,
    /// Every partition's leader as its owner last saw it (cluster mode;
    /// -1 while unknown). Announced with the epoch.
    leaders: RefCell<HashMap<PartitionKey, i32>>,
    /// In-sync replicas of the partitions this broker leads, as their
    /// owner shard last computed them (cluster mode).
    isrs: RefCell<HashMap<PartitionKey, Vec<i32>>>,
    /// Cluster mode: this shard's transport, group table and ticker.
    net: Option<Rc<crate::cluster::ShardNet>>,
    /// Cluster mode, shard 0: the controller.
    controller: RefCell<Option<Rc<crate::cluster::controller::Controller>>>,
    /// Incremental fetch sessions (KIP-227) of this shard's connections.
    pub fetch_sessions: RefCell<crate::fetch_session::FetchSessions>,
    /// The authoritative metadata; only shard 0 has it.
    store: RefCell<Option<MetadataStore>>,
    /// Serialises metadata changes on shard 0.
    pub admin_lock: futures_util::lock::Mutex<()>,
    stopping: Cell<bool>,
    stop_notify: LocalNotify,
    stopped: Cell<bool>,
    stopped_notify: LocalNotify,
}

impl Shard {
    pub fn new(
        id: usize,
        peers: Arc<Vec<flume::Sender<Job>>>,
        ctx: Arc<BrokerContext>,
        metadata: Arc<ClusterMetadata>,
        net: Option<Rc<crate::cluster::ShardNet>>,
    ) -> Self {
        Shard {
            id,
            peers,
            ctx,
            metadata: RefCell::new(metadata),
            metadata_notify: LocalNotify::default(),
            acceptors: Default::default(),
            partitions: RefCell::new(HashMap::new()),
            leader_epochs: RefCell::new(HashMap::new()),
            leaders: RefCell::new(HashMap::new()),
            isrs: RefCell::new(HashMap::new()),
            net,
            controller: RefCell::new(None),
            fetch_sessions: RefCell::new(Default::default()),
            store: RefCell::new(None),
            admin_lock: futures_util::lock::Mutex::new(()),
            stopping: Cell::new(false),
            stop_notify: LocalNotify::default(),
            stopped: Cell::new(false),
            stopped_notify: LocalNotify::default(),
        }
    }

    /// Cluster mode: this shard's side of the node-to-node transport.
    pub fn net(&self) -> Option<Rc<crate::cluster::ShardNet>> {
        self.net.clone()
    }

    /// Whether the broker runs in a cluster (`--seeds`).
    pub fn is_cluster(&self) -> bool {
        self.net.is_some()
    }

    /// Cluster mode, shard 0: the controller.
    pub fn controller(&self) -> Option<Rc<crate::cluster::controller::Controller>> {
        self.controller.borrow().clone()
    }

    pub fn install_controller(&self, c: Rc<crate::cluster::controller::Controller>) {
        *self.controller.borrow_mut() = Some(c);
    }

    pub fn install_store(&self, store: MetadataStore) {
        *self.store.borrow_mut() = Some(store);
    }

    /// Runs `f` on the metadata store (shard 0 only).
    pub fn with_store<T>(&self, f: impl FnOnce(&mut MetadataStore) -> T) -> Option<T> {
        self.store.borrow_mut().as_mut().map(f)
    }

    pub fn is_stopping(&self) -> bool {
        self.stopping.get()
    }

    /// Completes when shutdown begins.
    pub async fn stopping(&self) {
        while !self.stopping.get() {
            self.stop_notify.notified().await;
        }
    }

    /// Completes when this shard has finished stopping.
    pub async fn stopped(&self) {
        while !self.stopped.get() {
            self.stopped_notify.notified().await;
        }
    }

    /// Starts shutdown: connections stop reading; once no request is in
    /// flight anywhere (or after 10 s), logs are flushed and closed.
    pub fn begin_stop(self: &Rc<Self>) {
        if self.stopping.replace(true) {
            return;
        }
        self.stop_notify.notify_all();
        let shard = self.clone();
        monoio::spawn(async move {
            let began = std::time::Instant::now();
            if shard.is_cluster() {
                crate::cluster::leadership::hand_off(&shard).await;
                if let Some(c) = shard.controller() {
                    c.hand_off().await;
                }
            }
            let handed_off_ms = began.elapsed().as_millis() as u64;
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while shard
                .ctx
                .inflight_requests
                .load(std::sync::atomic::Ordering::SeqCst)
                > 0
                && std::time::Instant::now() < deadline
            {
                monoio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
            // Many at a time: a close waits for its Raft group to stop
            // (up to an RPC timeout when the peers are stopping too) and
            // ends with a durable state-file write (group-committed). One
            // at a time, a three-node stop at 3,000 partitions took 55 s;
            // 32 at a time, a whole-cluster stop at 10,000 took 266 s;
            // 512 at a time 24-26 s, 1,024 at a time 14-15 s.
            let drained_ms = began.elapsed().as_millis() as u64;
            let parts: Vec<Rc<Partition>> = shard.partitions.borrow().values().cloned().collect();
            for chunk in parts.chunks(CLOSE_AT_ONCE) {
                let closes = chunk.iter().map(|p| async move {
                    if let Err(e) = p.close().await {
                        tracing::error!(topic = %p.topic, partition = p.index, error = %e, "closing the log failed");
                    }
                });
                futures_util::future::join_all(closes).await;
            }
            let controller = shard.controller.borrow_mut().take();
            if let Some(c) = controller {
                c.close().await;
            }
            if let Some(net) = &shard.net {
                net.shutdown();
            }
            // Where a slow stop spent its time, for the operator.
            tracing::info!(
                shard = shard.id,
                replicas = parts.len(),
                handed_off_ms,
                requests_drained_ms = drained_ms,
                closed_ms = began.elapsed().as_millis() as u64,
                "shard stopped"
            );
            shard.stopped.set(true);
            shard.stopped_notify.notify_all();
        });
    }

    pub fn shard_count(&self) -> usize {
        self.peers.len()
    }

    /// The current metadata snapshot.
    pub fn metadata(&self) -> Arc<ClusterMetadata> {
        self.metadata.borrow().clone()
    }

    pub fn set_metadata(&self, m: Arc<ClusterMetadata>) {
        *self.metadata.borrow_mut() = m;
        self.metadata_notify.notify_all();
    }

    /// Completes at the next `set_metadata`.
    pub async fn metadata_changed(&self) {
        self.metadata_notify.notified().await
    }

    /// The leader epoch of partition `key` (-1, Kafka's "unknown", before
    /// its owner announced one).
    pub fn leader_epoch(&self, key: &PartitionKey) -> i32 {
        self.leader_epochs.borrow().get(key).copied().unwrap_or(-1)
    }

    /// The leader of partition `key` as its owner shard last announced it
    /// (on a single node: this broker; -1 while there is none).
    pub fn leader_of(&self, key: &PartitionKey) -> i32 {
        if !self.is_cluster() {
            return self.ctx.config.node_id;
        }
        self.leaders.borrow().get(key).copied().unwrap_or(-1)
    }

    /// Tells every shard the leader and epoch of `key` (cluster mode).
    pub fn announce_leader(self: &Rc<Self>, key: PartitionKey, leader: Option<(i32, i32)>) {
        if let Some((l, epoch)) = leader {
            // Counted once, by the owner (the caller), for /metrics.
            let before_epoch = self.leader_epochs.borrow().get(&key).copied();
            let before_leader = self.leaders.borrow().get(&key).copied();
            crate::metrics::record::leadership(
                before_epoch.is_some_and(|e| epoch > e),
                l >= 0 && before_leader.is_some_and(|b| b != l),
            );
        }
        for target in 0..self.shard_count() {
            if target == self.id {
                self.set_leader(key, leader);
            } else {
                let _ = self.send_to(target, move |s: Rc<Shard>| async move {
                    s.set_leader(key, leader);
                });
            }
        }
    }

    /// The in-sync replicas of `key` if this broker leads it (cluster
    /// mode); `None` otherwise (a follower does not know them).
    pub fn isr_of(&self, key: &PartitionKey) -> Option<Vec<i32>> {
        self.isrs.borrow().get(key).cloned()
    }

    /// Tells every shard the in-sync replicas of `key` (`None`: this
    /// broker no longer leads it).
    pub fn announce_isr(self: &Rc<Self>, key: PartitionKey, isr: Option<Vec<i32>>) {
        for target in 0..self.shard_count() {
            let isr = isr.clone();
            if target == self.id {
                self.set_isr(key, isr);
            } else {
                let _ = self.send_to(target, move |s: Rc<Shard>| async move {
                    s.set_isr(key, isr);
                });
            }
        }
    }

    fn set_isr(&self, key: PartitionKey, isr: Option<Vec<i32>>) {
        match isr {
            Some(v) => self.isrs.borrow_mut().insert(key, v),
            None => self.isrs.borrow_mut().remove(&key),
        };
    }

    fn set_leader(&self, key: PartitionKey, leader: Option<(i32, i32)>) {
        match leader {
            Some((l, epoch)) => {
                self.leaders.borrow_mut().insert(key, l);
                self.leader_epochs.borrow_mut().insert(key, epoch);
            }
            None => {
                self.leaders.borrow_mut().remove(&key);
                self.leader_epochs.borrow_mut().remove(&key);
                self.isrs.borrow_mut().remove(&key);
            }
        }
    }

    /// Tells every shard (this one included) the leader epoch of `key`,
    /// or that the partition is gone (`None`). Called by the owner shard
    /// when it opens, closes or sees a new leadership of a partition.
    pub fn announce_leader_epoch(self: &Rc<Self>, key: PartitionKey, epoch: Option<i32>) {
        for target in 0..self.shard_count() {
            if target == self.id {
                self.set_leader_epoch(key, epoch);
            } else {
                let _ = self.send_to(target, move |s: Rc<Shard>| async move {
                    s.set_leader_epoch(key, epoch);
                });
            }
        }
    }

    fn set_leader_epoch(&self, key: PartitionKey, epoch: Option<i32>) {
        let mut m = self.leader_epochs.borrow_mut();
        match epoch {
            Some(e) => {
                m.insert(key, e);
            }
            None => {
                m.remove(&key);
            }
        }
    }

    /// The partition replica `key`, if this shard owns it.
    pub fn partition(&self, key: &PartitionKey) -> Option<Rc<Partition>> {
        self.partitions.borrow().get(key).cloned()
    }

    /// The partition replica `key` if this shard owns it and it leads
    /// (clients read from the leader only: NOT_LEADER_OR_FOLLOWER
    /// otherwise). On a single node, every replica leads.
    pub fn led_partition(&self, key: &PartitionKey) -> Option<Rc<Partition>> {
        self.partition(key)
            .filter(|p| !self.is_cluster() || p.is_leader())
    }

    /// Runs `f` on shard `target` and returns its result. On this shard it
    /// runs in place; elsewhere it travels through the target's inbox.
    pub async fn submit_to<T, F, Fut>(self: &Rc<Self>, target: usize, f: F) -> Result<T, ShardGone>
    where
        T: Send + 'static,
        F: FnOnce(Rc<Shard>) -> Fut + Send + 'static,
        Fut: Future<Output = T> + 'static,
    {
        if target == self.id {
            return Ok(f(self.clone()).await);
        }
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |shard| {
            Box::pin(async move {
                let _ = tx.send(f(shard).await);
            })
        });
        self.peers[target].send(job).map_err(|_| ShardGone)?;
        rx.await.map_err(|_| ShardGone)
    }

    /// Sends `f` to `target` without waiting for it.
    pub fn send_to<F, Fut>(&self, target: usize, f: F) -> Result<(), ShardGone>
    where
        F: FnOnce(Rc<Shard>) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + 'static,
    {
        let job: Job = Box::new(move |shard| Box::pin(f(shard)));
        self.peers[target].send(job).map_err(|_| ShardGone)
    }
}

/// The target shard has stopped (the broker is shutting down).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("shard stopped")]
pub struct ShardGone;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_are_stable_and_spread() {
        // Every topic's partitions spread over the shards, for even and odd
        // shard counts (the bug this guards against: all on one of two).
        for shards in [2usize, 3, 4, 8] {
            for t in 0..200u128 {
                let id = Uuid::from_u128(t.wrapping_mul(0x1234_5678_9abc_def0_1357_9bdf_2468_ace1));
                let mut counts = vec![0usize; shards];
                for p in 0..(shards as i32 * 16) {
                    let s = owner_shard(id, p, shards);
                    assert_eq!(s, owner_shard(id, p, shards));
                    counts[s] += 1;
                }
                assert!(
                    counts.iter().all(|&c| c >= 4),
                    "{shards} shards, topic {t}: {counts:?}"
                );
            }
        }
    }
}
