//! DescribeQuorum (API 55, KIP-595/KIP-836/KIP-853): the metadata
//! quorum, i.e. the controller Raft group, reported as Kafka's
//! `__cluster_metadata` partition 0 (`cluster::quorum` gathers it; any
//! broker answers, asking the controller leader when it is not the
//! leader itself, as a Kafka broker forwards the request to the active
//! controller).
//!
//! Kafka's rules: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED
//! at the top level; a request naming anything but exactly
//! `__cluster_metadata` partition 0 gets UNKNOWN_TOPIC_OR_PARTITION on each
//! partition it names; without a reachable leader the partition gets
//! NOT_LEADER_OR_FOLLOWER (the Admin client retries it). Voters are the
//! controller group's voters (the `--seeds`, until a decommission
//! replaces one), observers the other brokers
//! (its learners). v1 adds the last fetch and caught-up times, v2 the
//! voters' endpoints (the listener the request came on).

use std::collections::BTreeSet;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::describe_quorum_response::{
    Listener, Node, PartitionData, ReplicaState, TopicData,
};
use kafka_protocol::generated::{DescribeQuorumRequest, DescribeQuorumResponse};

use crate::acl::{Authz, op};
use crate::cluster::quorum::{self, QuorumReport};
use crate::shard::Shard;

/// The name Kafka gives the metadata log.
pub const METADATA_TOPIC: &str = "__cluster_metadata";

/// Whether the request names exactly the metadata partition (Kafka's
/// `hasValidTopicPartition`).
fn names_metadata_partition(req: &DescribeQuorumRequest) -> bool {
    matches!(&req.topics[..], [t] if t.topic_name == METADATA_TOPIC
        && matches!(&t.partitions[..], [p] if p.partition_index == 0))
}

/// Every partition of the request with `error`.
fn partition_errors(req: &DescribeQuorumRequest, error: ErrorCode) -> Vec<TopicData> {
    req.topics
        .iter()
        .map(|t| TopicData {
            topic_name: t.topic_name.clone(),
            partitions: t
                .partitions
                .iter()
                .map(|p| PartitionData {
                    partition_index: p.partition_index,
                    error_code: error.code(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
        .collect()
}

/// The response partition of a report at `version`.
pub fn partition(report: &QuorumReport, version: i16) -> PartitionData {
    let state = |m: &quorum::Member| ReplicaState {
        replica_id: m.id,
        log_end_offset: m.log_end_offset,
        last_fetch_timestamp: if version >= 1 { m.last_fetch_ms } else { -1 },
        last_caught_up_timestamp: if version >= 1 {
            m.last_caught_up_ms
        } else {
            -1
        },
        ..Default::default()
    };
    PartitionData {
        partition_index: 0,
        error_code: 0,
        leader_id: report.leader,
        leader_epoch: report.epoch,
        high_watermark: report.high_watermark,
        current_voters: report
            .members
            .iter()
            .filter(|m| m.voter)
            .map(state)
            .collect(),
        observers: report
            .members
            .iter()
            .filter(|m| !m.voter)
            .map(state)
            .collect(),
        ..Default::default()
    }
}

pub async fn handle(
    shard: &Rc<Shard>,
    req: DescribeQuorumRequest,
    version: i16,
    listener: &str,
    authz: &Authz<'_>,
) -> DescribeQuorumResponse {
    if !authz.cluster(op::DESCRIBE) {
        return DescribeQuorumResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            error_message: (version >= 2)
                .then(|| ErrorCode::ClusterAuthorizationFailed.message().to_string()),
            ..Default::default()
        };
    }
    if !names_metadata_partition(&req) {
        return DescribeQuorumResponse {
            topics: partition_errors(&req, ErrorCode::UnknownTopicOrPartition),
            ..Default::default()
        };
    }
    let report = match quorum::describe(shard).await {
        Ok(r) => r,
        Err((code, message)) => {
            let mut p = PartitionData {
                partition_index: 0,
                error_code: code.code(),
                ..Default::default()
            };
            if version >= 2 {
                p.error_message = Some(message);
            }
            return DescribeQuorumResponse {
                topics: vec![TopicData {
                    topic_name: METADATA_TOPIC.into(),
                    partitions: vec![p],
                    ..Default::default()
                }],
                ..Default::default()
            };
        }
    };
    let mut resp = DescribeQuorumResponse {
        topics: vec![TopicData {
            topic_name: METADATA_TOPIC.into(),
            partitions: vec![partition(&report, version)],
            ..Default::default()
        }],
        ..Default::default()
    };
    if version >= 2 {
        let voters: BTreeSet<i32> = report
            .members
            .iter()
            .filter(|m| m.voter)
            .map(|m| m.id)
            .collect();
        resp.nodes = crate::handlers::metadata::brokers_and_fencing(shard, listener)
            .into_iter()
            .filter(|(b, _)| voters.contains(&b.node_id))
            .map(|(b, _)| Node {
                node_id: b.node_id,
                listeners: vec![Listener {
                    name: listener.to_string(),
                    host: b.host,
                    port: u16::try_from(b.port).unwrap_or(0),
                    ..Default::default()
                }],
                ..Default::default()
            })
            .collect();
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::generated::describe_quorum_request;

    fn request(topics: &[(&str, &[i32])]) -> DescribeQuorumRequest {
        DescribeQuorumRequest {
            topics: topics
                .iter()
                .map(|(name, parts)| describe_quorum_request::TopicData {
                    topic_name: name.to_string(),
                    partitions: parts
                        .iter()
                        .map(|p| describe_quorum_request::PartitionData {
                            partition_index: *p,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn only_the_metadata_partition() {
        assert!(names_metadata_partition(&request(&[(
            METADATA_TOPIC,
            &[0]
        )])));
        assert!(!names_metadata_partition(&request(&[(
            METADATA_TOPIC,
            &[1]
        )])));
        assert!(!names_metadata_partition(&request(&[("t", &[0])])));
        assert!(!names_metadata_partition(&request(&[(
            METADATA_TOPIC,
            &[0, 0]
        )])));
        assert!(!names_metadata_partition(&request(&[])));
        let errs = partition_errors(
            &request(&[("a", &[0, 1]), ("b", &[2])]),
            ErrorCode::UnknownTopicOrPartition,
        );
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0].partitions.len(), 2);
        assert_eq!(
            errs[1].partitions[0].error_code,
            ErrorCode::UnknownTopicOrPartition.code()
        );
    }

    #[test]
    fn voters_and_observers_split() {
        let m = |id, voter| quorum::Member {
            id,
            voter,
            log_end_offset: 10,
            last_fetch_ms: 5,
            last_caught_up_ms: 4,
        };
        let report = QuorumReport {
            leader: 1,
            epoch: 3,
            high_watermark: 10,
            members: vec![m(1, true), m(2, true), m(3, true), m(4, false)],
        };
        let p = partition(&report, 1);
        assert_eq!(p.current_voters.len(), 3);
        assert_eq!(p.observers.len(), 1);
        assert_eq!(p.observers[0].replica_id, 4);
        assert_eq!(p.current_voters[1].last_fetch_timestamp, 5);
        // v0 has no timestamps.
        assert_eq!(
            partition(&report, 0).current_voters[1].last_fetch_timestamp,
            -1
        );
    }
}
