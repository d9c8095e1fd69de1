//! [`PartitionReplica`]: one partition's replica, a Raft group member
//! whose log is the partition log. What the broker calls.

use std::collections::BTreeSet;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use kafka_protocol::records::{Stamp, stamp_batch};
use openraft::async_runtime::watch::WatchReceiver;
use openraft::error::{ClientWriteError, RaftError};
use openraft::network::RaftNetworkFactory;
use openraft::{Config, SnapshotPolicy};
use tidemark_storage::{AppendInfo, Log, LogConfig};

use crate::error::Error;
use crate::store::{LogStore, Shared, StateMachine};
use crate::types::{KafkaBatch, NodeId, TypeConfig};

/// The openraft handle of a partition group.
pub type RaftHandle = openraft::Raft<TypeConfig, StateMachine>;

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
        }
    }
}

impl ReplicaConfig {
    fn openraft(&self) -> Result<Config, Error> {
        let ms = |d: Duration| d.as_millis() as u64;
        let c = Config {
            cluster_name: "tidemark-partition".into(),
            heartbeat_interval: ms(self.heartbeat_interval),
            election_timeout_min: ms(self.election_timeout_min),
            election_timeout_max: ms(self.election_timeout_max),
            max_payload_entries: self.max_payload_entries,
            // The partition log is the state: nothing to snapshot, and no
            // entry is ever purged on Raft's behalf.
            snapshot_policy: SnapshotPolicy::Never,
            // Bounded queues: they hold requests, not bytes, so keep them
            // modest (invariant 6 bounds the bytes in the broker).
            api_channel_size: Some(4096),
            notification_channel_size: Some(4096),
            state_machine_channel_size: Some(256),
            // A restarted leader wins a new election (a new term, so a new
            // Kafka leader epoch) rather than resuming: the commit point is
            // not fsynced on every change, and Kafka bumps the epoch on
            // every leadership change.
            enable_leader_restore: Some(false),
            ..Config::default()
        };
        c.validate().map_err(|e| Error::Config(e.to_string()))
    }
}

/// One partition replica: a member of the partition's Raft group.
///
/// Owned by one shard (`!Send`): its tasks run on that shard's monoio
/// runtime.
pub struct PartitionReplica {
    raft: RaftHandle,
    shared: Rc<Shared>,
    node_id: NodeId,
    single_voter: bool,
}

impl PartitionReplica {
    /// Opens (or creates) the replica in `dir`: the partition log, and the
    /// Raft state beside it. A new group is initialized with `voters`
    /// (every replica may do this with the same set); an existing one
    /// keeps its membership and `voters` is ignored.
    ///
    /// A group whose only voter is this node elects itself at once.
    pub async fn open<N>(
        dir: impl AsRef<Path>,
        log_config: LogConfig,
        node_id: NodeId,
        voters: BTreeSet<NodeId>,
        network: N,
        config: ReplicaConfig,
    ) -> Result<Rc<Self>, Error>
    where
        N: RaftNetworkFactory<TypeConfig>,
        N::Network: openraft::network::NetSnapshot<TypeConfig, SnapshotData = ()>,
    {
        let dir = dir.as_ref();
        let shared = Shared::open(dir, log_config).await?;
        let cfg = Arc::new(config.openraft()?);
        let raft = RaftHandle::new(
            node_id,
            cfg,
            network,
            LogStore {
                shared: shared.clone(),
            },
            StateMachine {
                shared: shared.clone(),
            },
        )
        .await
        .map_err(|e| Error::Fatal(e.to_string()))?;
        let initialized = raft
            .is_initialized()
            .await
            .map_err(|e| Error::Fatal(e.to_string()))?;
        if !initialized {
            if voters.is_empty() {
                return Err(Error::Config("a new group needs at least one voter".into()));
            }
            raft.initialize(voters.clone())
                .await
                .map_err(|e| Error::Fatal(e.to_string()))?;
        }
        let single_voter = {
            let m = raft.metrics().borrow_watched().membership_config.clone();
            let v: BTreeSet<NodeId> = m.membership().voter_ids().collect();
            v.len() == 1 && v.contains(&node_id)
        };
        if single_voter {
            if initialized {
                // Elect now rather than after an election timeout.
                raft.trigger()
                    .elect(false)
                    .await
                    .map_err(|e| Error::Fatal(e.to_string()))?;
            }
            // A group that is its own quorum needs no timer: nobody to
            // heartbeat, nobody to elect. Ticking costs a wakeup every few
            // tens of milliseconds per partition, which adds up to real
            // idle CPU with thousands of partitions.
            let deadline = Instant::now() + Duration::from_secs(10);
            while raft.as_leader().is_err() {
                if Instant::now() >= deadline {
                    return Err(Error::Timeout("a single-voter group to elect itself"));
                }
                monoio::time::sleep(Duration::from_millis(1)).await;
            }
            raft.runtime_config().tick(false);
        }
        tracing::info!(dir = %dir.display(), node_id, single_voter, initialized, "partition replica opened");
        Ok(Rc::new(PartitionReplica {
            raft,
            shared,
            node_id,
            single_voter,
        }))
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
        mut batch: BytesMut,
        log_append_time: Option<i64>,
    ) -> Result<AppendInfo, Error> {
        let max = self.shared.log.config().max_batch_bytes;
        if batch.len() > max {
            return Err(Error::BatchTooLarge {
                size: batch.len(),
                max,
            });
        }
        // Verifies header and CRC (and applies LogAppendTime) now; offset
        // and epoch are placeholders the leader overwrites.
        stamp_batch(
            &mut batch,
            &Stamp {
                base_offset: 0,
                partition_leader_epoch: -1,
                log_append_time,
            },
        )?;
        let res = self
            .raft
            .client_write(KafkaBatch::new(batch.freeze(), log_append_time))
            .await;
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

    /// The high watermark: the offset after the last committed (and
    /// applied) entry. Consumers read below it.
    pub fn high_watermark(&self) -> i64 {
        self.shared.hw.get()
    }

    /// The current Raft term, which is the Kafka leader epoch.
    pub fn leader_epoch(&self) -> i32 {
        let term = self.raft.metrics().borrow_watched().current_term;
        i32::try_from(term).unwrap_or(i32::MAX)
    }

    /// Whether this replica is the leader and accepts writes: its vote
    /// is granted by a quorum and a quorum has acknowledged it since
    /// (openraft refuses writes until then: the leader lease).
    pub fn is_leader(&self) -> bool {
        self.raft
            .as_leader()
            .is_ok_and(|l| self.single_voter || l.last_quorum_acked().is_some())
    }

    /// The leader this replica knows of.
    pub fn leader_id(&self) -> Option<NodeId> {
        self.raft.metrics().borrow_watched().current_leader
    }

    pub fn node_id(&self) -> NodeId {
        self.node_id
    }

    /// The partition log, to read (Fetch, ListOffsets, ...). Appends go
    /// through [`PartitionReplica::append`] only.
    pub fn log(&self) -> &Rc<Log> {
        &self.shared.log
    }

    /// The openraft handle, for a network transport to deliver messages.
    pub fn raft(&self) -> &RaftHandle {
        &self.raft
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

    /// Stops the Raft group, writes the Raft state and closes the log.
    /// The replica can be reopened from the same folder afterwards.
    pub async fn close(&self) -> Result<(), Error> {
        self.raft
            .shutdown()
            .await
            .map_err(|e| Error::Fatal(format!("{e:?}")))?;
        self.shared.log.close().await?;
        self.shared.persist()?;
        Ok(())
    }
}
