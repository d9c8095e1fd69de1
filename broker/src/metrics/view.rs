//! The cluster as this broker sees it, from the shards' samples: brokers
//! up and down, leaderless and under-replicated partitions, the
//! controller's leader. Shared by `/metrics` and the admin API's health.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::gather::{PartitionSample, ShardSample};
use crate::BrokerContext;

/// The most partitions `/v1/cluster/health` lists per list (leaderless,
/// under-replicated); the counts beside them are exact.
pub const HEALTH_PARTITIONS_MAX: usize = 1_000;

#[derive(Debug, Clone, Serialize)]
pub struct BrokerView {
    pub node_id: i32,
    pub host: String,
    pub port: u16,
    pub rack: Option<String>,
    /// Not fenced: the controller leader heard from it within
    /// `broker.session.timeout.ms` (a single node: itself, always).
    pub alive: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct PartitionId {
    pub topic: String,
    pub partition: i32,
}

/// The cluster's state as this broker knows it.
#[derive(Debug, Clone, Serialize)]
pub struct ClusterView {
    pub node_id: i32,
    pub brokers: Vec<BrokerView>,
    /// Partitions without a leader: a replica here that knows of none,
    /// or (held elsewhere) every replica on a fenced broker.
    pub leaderless: Vec<PartitionId>,
    /// Partitions short of replicas: led here with an in-sync set smaller
    /// than the replica set, or with a replica on a fenced broker.
    pub under_replicated: Vec<PartitionId>,
    pub controller_leader: Option<i32>,
}

impl ClusterView {
    pub fn build(ctx: &BrokerContext, samples: &[ShardSample]) -> ClusterView {
        let node = ctx.config.node_id;
        let meta = samples.iter().find_map(|s| s.metadata.clone());
        let local: HashMap<(&str, i32), &PartitionSample> = samples
            .iter()
            .flat_map(|s| &s.partitions)
            .map(|p| ((p.topic.as_str(), p.index), p))
            .collect();
        let mut brokers: Vec<BrokerView> = meta
            .iter()
            .flat_map(|m| m.brokers.values())
            .map(|b| BrokerView {
                node_id: b.id,
                host: b.host.clone(),
                port: b.port,
                rack: b.rack.clone(),
                alive: !b.fenced,
            })
            .collect();
        if !brokers.iter().any(|b| b.node_id == node) {
            brokers.push(BrokerView {
                node_id: node,
                host: ctx.config.advertised_host.clone(),
                port: ctx.config.advertised_port,
                rack: ctx.config.cluster.as_ref().and_then(|c| c.rack.clone()),
                alive: true,
            });
            brokers.sort_by_key(|b| b.node_id);
        }
        let fenced: Vec<i32> = brokers
            .iter()
            .filter(|b| !b.alive)
            .map(|b| b.node_id)
            .collect();
        let mut leaderless = Vec::new();
        let mut under_replicated = Vec::new();
        for t in meta.iter().flat_map(|m| m.topics.values()) {
            for p in 0..t.partitions {
                let replicas = t.all_replicas_of(p, node);
                let some_fenced = replicas.iter().any(|r| fenced.contains(r));
                let all_fenced =
                    !replicas.is_empty() && replicas.iter().all(|r| fenced.contains(r));
                let id = || PartitionId {
                    topic: t.name.clone(),
                    partition: p,
                };
                match local.get(&(t.name.as_str(), p)) {
                    Some(s) => {
                        if s.leader < 0 {
                            leaderless.push(id());
                        }
                        let short = s.is_leader
                            && s.isr.as_ref().is_some_and(|isr| isr.len() < replicas.len());
                        if short || some_fenced {
                            under_replicated.push(id());
                        }
                    }
                    None => {
                        if all_fenced {
                            leaderless.push(id());
                        }
                        if some_fenced {
                            under_replicated.push(id());
                        }
                    }
                }
            }
        }
        ClusterView {
            node_id: node,
            brokers,
            leaderless,
            under_replicated,
            controller_leader: samples
                .iter()
                .find(|s| s.shard == 0)
                .and_then(|s| s.controller_leader),
        }
    }

    /// Every broker up, every partition led and fully replicated, a
    /// controller leader known.
    pub fn healthy(&self) -> bool {
        self.brokers.iter().all(|b| b.alive)
            && self.leaderless.is_empty()
            && self.under_replicated.is_empty()
            && self.controller_leader.is_some()
    }

    /// The `/v1/cluster/health` body.
    pub fn health_json(&self) -> serde_json::Value {
        let up: Vec<i32> = self
            .brokers
            .iter()
            .filter(|b| b.alive)
            .map(|b| b.node_id)
            .collect();
        let down: Vec<i32> = self
            .brokers
            .iter()
            .filter(|b| !b.alive)
            .map(|b| b.node_id)
            .collect();
        // The lists are cut at HEALTH_PARTITIONS_MAX each (the counts stay
        // exact): a broker of 50,000 partitions that loses a peer would
        // otherwise answer every health probe with a body of megabytes.
        let by_topic = |v: &[PartitionId]| {
            let mut m: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
            for p in v.iter().take(HEALTH_PARTITIONS_MAX) {
                m.entry(p.topic.as_str()).or_default().push(p.partition);
            }
            serde_json::to_value(m).unwrap_or_default()
        };
        serde_json::json!({
            "is_healthy": self.healthy(),
            "node_id": self.node_id,
            "controller_leader": self.controller_leader,
            "controller_has_leader": self.controller_leader.is_some(),
            "brokers": self.brokers.iter().map(|b| b.node_id).collect::<Vec<_>>(),
            "brokers_up": up,
            "brokers_down": down,
            "leaderless_count": self.leaderless.len(),
            "leaderless_partitions": by_topic(&self.leaderless),
            "leaderless_truncated": self.leaderless.len() > HEALTH_PARTITIONS_MAX,
            "under_replicated_count": self.under_replicated.len(),
            "under_replicated_partitions": by_topic(&self.under_replicated),
            "under_replicated_truncated": self.under_replicated.len() > HEALTH_PARTITIONS_MAX,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(n: usize) -> Vec<PartitionId> {
        (0..n)
            .map(|i| PartitionId {
                topic: format!("t{}", i % 7),
                partition: i as i32,
            })
            .collect()
    }

    #[test]
    fn health_lists_are_bounded_and_the_counts_exact() {
        let v = ClusterView {
            node_id: 1,
            brokers: Vec::new(),
            leaderless: parts(HEALTH_PARTITIONS_MAX + 5),
            under_replicated: parts(3),
            controller_leader: Some(1),
        };
        let h = v.health_json();
        let listed = |k: &str| -> usize {
            h[k].as_object()
                .unwrap()
                .values()
                .map(|p| p.as_array().unwrap().len())
                .sum()
        };
        assert_eq!(h["leaderless_count"], HEALTH_PARTITIONS_MAX + 5);
        assert_eq!(listed("leaderless_partitions"), HEALTH_PARTITIONS_MAX);
        assert_eq!(h["leaderless_truncated"], true);
        assert_eq!(h["under_replicated_count"], 3);
        assert_eq!(listed("under_replicated_partitions"), 3);
        assert_eq!(h["under_replicated_truncated"], false);
    }
}
