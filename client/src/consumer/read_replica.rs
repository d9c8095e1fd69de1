//! [`ReadReplicas`]: follower fetching on the consumer's side (KIP-392).
//!
//! A consumer that names its rack (`client.rack`, rpk's `--rack`) sends it
//! in every Fetch (v11+). A leader running a replica selector may answer
//! with a `preferred_read_replica` instead of records; the consumer then
//! reads that partition from the named replica until the preference
//! expires (`metadata.max.age.ms`, as the Java consumer) or the replica
//! answers anything but success. Any error from a replica that is not
//! the leader sends the partition back to the leader without touching the
//! position: a follower behind the leader answers OFFSET_OUT_OF_RANGE for
//! an offset the leader has, and resetting the position there (as for the
//! leader's OFFSET_OUT_OF_RANGE) would skip or repeat records. That is
//! Kafka's `FetchCollector` rule too.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use kafka_protocol::ErrorCode;

/// Per partition, the replica to read from instead of the leader, and
/// until when.
#[derive(Debug, Clone)]
pub struct ReadReplicas {
    rack: String,
    ttl: Duration,
    preferred: HashMap<(String, i32), (i32, Instant)>,
}

/// What a partition's Fetch answer means for where it is read next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplicaAnswer {
    /// The answer is the partition's own business (success, or an error
    /// from the leader to handle as usual).
    Handle,
    /// A replica that is not the leader failed: the partition goes back to
    /// the leader and the error is not the caller's (no offset reset).
    BackToLeader,
}

impl ReadReplicas {
    /// `rack`: the consumer's rack (`client.rack`; empty: none, and no
    /// leader will redirect). `ttl_ms`: how long a preference holds
    /// (Kafka's consumer: `metadata.max.age.ms`, default 300,000).
    pub fn new(rack: Option<String>, ttl_ms: u64) -> ReadReplicas {
        ReadReplicas {
            rack: rack.unwrap_or_default(),
            ttl: Duration::from_millis(ttl_ms),
            preferred: HashMap::new(),
        }
    }

    /// The `rack_id` for Fetch requests.
    pub fn rack_id(&self) -> &str {
        &self.rack
    }

    /// The broker to fetch `topic`/`partition` from: its preferred read
    /// replica while that holds, else `leader`.
    pub fn route(&mut self, topic: &str, partition: i32, leader: i32) -> i32 {
        // The common case (no rack, or no preference yet) allocates
        // nothing: this runs per partition per Fetch.
        if self.preferred.is_empty() {
            return leader;
        }
        let key = (topic.to_string(), partition);
        match self.preferred.get(&key) {
            Some(&(node, until)) if Instant::now() < until => node,
            Some(_) => {
                self.preferred.remove(&key);
                leader
            }
            None => leader,
        }
    }

    /// Takes one partition's answer from broker `served_by`, whose leader
    /// is `leader`: `preferred_read_replica` (-1: none) and error code.
    pub fn on_answer(
        &mut self,
        topic: &str,
        partition: i32,
        served_by: i32,
        leader: i32,
        preferred_read_replica: i32,
        error: ErrorCode,
    ) -> ReplicaAnswer {
        if self.preferred.is_empty() {
            if error == ErrorCode::None && preferred_read_replica < 0 {
                return ReplicaAnswer::Handle;
            }
            if error != ErrorCode::None {
                return if served_by != leader {
                    ReplicaAnswer::BackToLeader
                } else {
                    ReplicaAnswer::Handle
                };
            }
        }
        let key = (topic.to_string(), partition);
        if error != ErrorCode::None {
            let was_follower =
                served_by != leader || self.preferred.get(&key).is_some_and(|p| p.0 == served_by);
            self.preferred.remove(&key);
            return if was_follower {
                ReplicaAnswer::BackToLeader
            } else {
                ReplicaAnswer::Handle
            };
        }
        if preferred_read_replica >= 0 && preferred_read_replica != served_by {
            self.preferred
                .insert(key, (preferred_read_replica, Instant::now() + self.ttl));
        }
        ReplicaAnswer::Handle
    }

    /// Broker `node` could not be reached: every partition read from it
    /// goes back to its leader.
    pub fn forget_node(&mut self, node: i32) {
        self.preferred.retain(|_, p| p.0 != node);
    }

    /// Stops remembering a partition (unassigned, or its position moved).
    pub fn forget(&mut self, topic: &str, partition: i32) {
        self.preferred.remove(&(topic.to_string(), partition));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leaders_preference_routes_until_the_replica_fails() {
        let mut r = ReadReplicas::new(Some("zone-b".into()), 60_000);
        assert_eq!(r.rack_id(), "zone-b");
        assert_eq!(r.route("t", 0, 1), 1);
        // The leader (1) points at replica 2.
        assert_eq!(
            r.on_answer("t", 0, 1, 1, 2, ErrorCode::None),
            ReplicaAnswer::Handle
        );
        assert_eq!(r.route("t", 0, 1), 2);
        assert_eq!(r.route("t", 1, 1), 1, "other partitions stay on the leader");
        // The follower's own answers say -1: the preference stays.
        assert_eq!(
            r.on_answer("t", 0, 2, 1, -1, ErrorCode::None),
            ReplicaAnswer::Handle
        );
        assert_eq!(r.route("t", 0, 1), 2);
        // A follower behind the leader: back to the leader, no reset.
        assert_eq!(
            r.on_answer("t", 0, 2, 1, -1, ErrorCode::OffsetOutOfRange),
            ReplicaAnswer::BackToLeader
        );
        assert_eq!(r.route("t", 0, 1), 1);
        // The leader's own error is the caller's to handle.
        assert_eq!(
            r.on_answer("t", 0, 1, 1, -1, ErrorCode::OffsetOutOfRange),
            ReplicaAnswer::Handle
        );
    }

    #[test]
    fn a_preference_expires_and_a_dead_node_is_forgotten() {
        let mut r = ReadReplicas::new(None, 0);
        assert_eq!(r.rack_id(), "");
        r.on_answer("t", 0, 1, 1, 2, ErrorCode::None);
        assert_eq!(r.route("t", 0, 1), 1, "a zero ttl expires at once");

        let mut r = ReadReplicas::new(Some("a".into()), 60_000);
        r.on_answer("t", 0, 1, 1, 2, ErrorCode::None);
        r.on_answer("t", 1, 1, 1, 3, ErrorCode::None);
        r.forget_node(2);
        assert_eq!(r.route("t", 0, 1), 1);
        assert_eq!(r.route("t", 1, 1), 3);
        // The metadata's leader moved to the preferred replica itself:
        // an error from it is the leader's.
        assert_eq!(
            r.on_answer("t", 1, 3, 3, -1, ErrorCode::NotLeaderOrFollower),
            ReplicaAnswer::BackToLeader,
            "it was read as a preferred replica"
        );
        r.forget("t", 1);
        assert_eq!(r.route("t", 1, 1), 1);
    }
}
