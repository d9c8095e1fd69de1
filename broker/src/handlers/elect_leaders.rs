//! ElectLeaders: preferred-leader election on request (see
//! `cluster::elections` for how, and why unclean elections are refused).
//!
//! As Kafka's controller: a null partition list means every partition,
//! and then partitions already led by their preferred replica are left
//! out of the answer; a named partition that needs nothing gets
//! ELECTION_NOT_NEEDED.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::time::Duration;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::elect_leaders_response::{PartitionResult, ReplicaElectionResult};
use kafka_protocol::generated::{ElectLeadersRequest, ElectLeadersResponse};
use uuid::Uuid;

use crate::cluster::elections::{ElectOutcome, elect_preferred_at};
use crate::shard::{PartitionKey, Shard};

/// Kafka's `ElectionType`.
const PREFERRED: i8 = 0;
const UNCLEAN: i8 = 1;

pub async fn handle(
    shard: &Rc<Shard>,
    req: ElectLeadersRequest,
    version: i16,
    authz: &crate::acl::Authz<'_>,
) -> ElectLeadersResponse {
    if !authz.cluster(crate::acl::op::ALTER) {
        return ElectLeadersResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            ..Default::default()
        };
    }
    // v0 has no election type: preferred.
    let election = if version >= 1 {
        req.election_type
    } else {
        PREFERRED
    };
    if election != PREFERRED && election != UNCLEAN {
        return ElectLeadersResponse {
            error_code: ErrorCode::InvalidRequest.code(),
            ..Default::default()
        };
    }
    let timeout = Duration::from_millis(req.timeout_ms.clamp(500, 600_000) as u64);
    let meta = shard.metadata();
    let me = shard.ctx.config.node_id;
    let all = req.topic_partitions.is_none();
    // The partitions asked for, by name; unknown ones answered at once.
    let mut wanted: BTreeSet<(String, i32)> = BTreeSet::new();
    match req.topic_partitions {
        Some(topics) => {
            for t in topics {
                for p in t.partitions {
                    wanted.insert((t.topic.clone(), p));
                }
            }
        }
        None => {
            for t in meta.topics.values() {
                for p in 0..t.partitions {
                    wanted.insert((t.name.clone(), p));
                }
            }
        }
    }
    let mut results: BTreeMap<(String, i32), (ErrorCode, Option<String>)> = BTreeMap::new();
    let mut names: BTreeMap<Uuid, String> = BTreeMap::new();
    // Partitions to move, by their current leader.
    let mut by_leader: BTreeMap<i32, Vec<PartitionKey>> = BTreeMap::new();
    for (name, p) in wanted {
        let Some(t) = meta.topic(&name).filter(|t| p >= 0 && p < t.partitions) else {
            results.insert((name, p), (ErrorCode::UnknownTopicOrPartition, None));
            continue;
        };
        names.insert(t.id, name.clone());
        let key = (t.id, p);
        let leader = shard.leader_of(&key);
        let preferred = t.preferred_leader(p, me);
        let outcome = if election == UNCLEAN {
            if leader >= 0 {
                Some((ErrorCode::ElectionNotNeeded, None))
            } else {
                Some((
                    ErrorCode::EligibleLeadersNotAvailable,
                    Some(
                        "the partition has no leader: fewer than a majority of its replicas \
                         are up, and a Raft group cannot elect a replica outside its majority \
                         without risking committed records"
                            .to_string(),
                    ),
                ))
            }
        } else if leader == preferred {
            Some((ErrorCode::ElectionNotNeeded, None))
        } else if leader < 0 {
            Some((
                ErrorCode::PreferredLeaderNotAvailable,
                Some("the partition has no leader at the moment".to_string()),
            ))
        } else {
            by_leader.entry(leader).or_default().push(key);
            None
        };
        if let Some(o) = outcome {
            results.insert((name, p), o);
        }
    }
    let calls = by_leader
        .into_iter()
        .map(|(leader, keys)| elect_preferred_at(shard, leader, keys, timeout));
    for outcome in futures_util::future::join_all(calls)
        .await
        .into_iter()
        .flatten()
    {
        let ElectOutcome {
            topic,
            partition,
            code,
            message,
        } = outcome;
        if let Some(name) = names.get(&Uuid::from_u128(topic)) {
            let code = ErrorCode::from_code(code).unwrap_or(ErrorCode::UnknownServerError);
            results.insert((name.clone(), partition), (code, message));
        }
    }
    // Grouped by topic, in name order.
    let mut topics: Vec<ReplicaElectionResult> = Vec::new();
    for ((name, p), (code, message)) in results {
        if all && code == ErrorCode::ElectionNotNeeded {
            continue;
        }
        if topics.last().is_none_or(|t| t.topic != name) {
            topics.push(ReplicaElectionResult {
                topic: name,
                ..Default::default()
            });
        }
        if let Some(t) = topics.last_mut() {
            t.partition_result.push(PartitionResult {
                partition_id: p,
                error_code: code.code(),
                error_message: message,
                ..Default::default()
            });
        }
    }
    ElectLeadersResponse {
        replica_election_results: topics,
        ..Default::default()
    }
}
