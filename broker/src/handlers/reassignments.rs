//! AlterPartitionReassignments and ListPartitionReassignments.
//!
//! As Kafka's controller: a reassignment is recorded as the partition's
//! target replicas (`Command::Reassign`, validated in the metadata's
//! `apply` so every broker decides alike) and answered at once; the
//! partition's leader then moves its Raft group there
//! (`cluster::reassignment`), and ListPartitionReassignments shows it
//! until the move is finished. Null replicas cancel a pending
//! reassignment (the group moves back to the replicas it had). On a
//! single node the only possible assignment is the node itself.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::alter_partition_reassignments_response::{
    ReassignablePartitionResponse, ReassignableTopicResponse,
};
use kafka_protocol::generated::list_partition_reassignments_response::{
    OngoingPartitionReassignment, OngoingTopicReassignment,
};
use kafka_protocol::generated::{
    AlterPartitionReassignmentsRequest, AlterPartitionReassignmentsResponse,
    ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse,
};

use crate::metadata::{Command, TopicMeta};
use crate::shard::Shard;
use crate::topics::ApiError;

pub async fn alter(
    shard: &Rc<Shard>,
    req: AlterPartitionReassignmentsRequest,
    version: i16,
    authz: &crate::acl::Authz<'_>,
) -> AlterPartitionReassignmentsResponse {
    if !authz.cluster(crate::acl::op::ALTER) {
        return AlterPartitionReassignmentsResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            error_message: Some("Cluster authorization failed.".into()),
            ..Default::default()
        };
    }
    // v0 has no choice: the replication factor may change.
    let allow_rf_change = version < 1 || req.allow_replication_factor_change;
    let mut responses = Vec::new();
    for t in req.topics {
        let mut partitions = Vec::new();
        for p in t.partitions {
            let result = reassign_one(
                shard,
                &t.name,
                p.partition_index,
                p.replicas,
                allow_rf_change,
            )
            .await;
            let (code, message) = match result {
                Ok(()) => (0, None),
                Err((code, msg)) => (code.code(), Some(msg)),
            };
            partitions.push(ReassignablePartitionResponse {
                partition_index: p.partition_index,
                error_code: code,
                error_message: message,
                ..Default::default()
            });
        }
        responses.push(ReassignableTopicResponse {
            name: t.name,
            partitions,
            ..Default::default()
        });
    }
    AlterPartitionReassignmentsResponse {
        allow_replication_factor_change: allow_rf_change,
        responses,
        ..Default::default()
    }
}

async fn reassign_one(
    shard: &Rc<Shard>,
    topic: &str,
    partition: i32,
    target: Option<Vec<i32>>,
    allow_rf_change: bool,
) -> Result<(), ApiError> {
    let meta = shard.metadata();
    let node = shard.ctx.config.node_id;
    let Some(t) = meta
        .topic(topic)
        .filter(|t| partition >= 0 && partition < t.partitions)
    else {
        return Err((
            ErrorCode::UnknownTopicOrPartition,
            format!("topic '{topic}' has no partition {partition}"),
        ));
    };
    if let Some(target) = &target
        && !allow_rf_change
        && target.len() != t.replicas_of(partition, node).len()
    {
        return Err((
            ErrorCode::InvalidReplicationFactor,
            format!(
                "the replication factor would change from {} to {}, and the request does not allow it",
                t.replicas_of(partition, node).len(),
                target.len()
            ),
        ));
    }
    if !shard.is_cluster() {
        return single_node(t, partition, target, node);
    }
    crate::cluster::controller::submit(
        shard,
        Command::Reassign {
            topic_id: t.id,
            partition,
            target,
        },
    )
    .await
    .map(|_| ())
}

/// A single node has one possible assignment: itself.
fn single_node(
    t: &TopicMeta,
    partition: i32,
    target: Option<Vec<i32>>,
    node: i32,
) -> Result<(), ApiError> {
    match target {
        None => Err((
            ErrorCode::NoReassignmentInProgress,
            format!(
                "no reassignment of partition {partition} of '{}' is in progress",
                t.name
            ),
        )),
        Some(r) if r == [node] => Ok(()),
        Some(r) if r.is_empty() => Err((
            ErrorCode::InvalidReplicaAssignment,
            "the replica list is empty".into(),
        )),
        Some(r) => {
            let other = r.iter().find(|b| **b != node).copied().unwrap_or(node);
            Err((
                ErrorCode::InvalidReplicaAssignment,
                if other == node {
                    format!("the replica list names broker {node} twice")
                } else {
                    format!(
                        "the replica list includes broker {other}, but no such broker is registered"
                    )
                },
            ))
        }
    }
}

pub fn list(
    shard: &Rc<Shard>,
    req: ListPartitionReassignmentsRequest,
    authz: &crate::acl::Authz<'_>,
) -> ListPartitionReassignmentsResponse {
    if !authz.cluster(crate::acl::op::DESCRIBE) {
        return ListPartitionReassignmentsResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            error_message: Some("Cluster authorization failed.".into()),
            ..Default::default()
        };
    }
    let meta = shard.metadata();
    let node = shard.ctx.config.node_id;
    let ongoing = |t: &TopicMeta, p: i32| -> Option<OngoingPartitionReassignment> {
        let target = t.target_of(p)?;
        let current = t.replicas_of(p, node);
        Some(OngoingPartitionReassignment {
            partition_index: p,
            replicas: t.all_replicas_of(p, node),
            adding_replicas: target
                .iter()
                .copied()
                .filter(|r| !current.contains(r))
                .collect(),
            removing_replicas: current
                .iter()
                .copied()
                .filter(|r| !target.contains(r))
                .collect(),
            ..Default::default()
        })
    };
    let mut topics = Vec::new();
    let mut push = |t: &TopicMeta, partitions: Vec<OngoingPartitionReassignment>| {
        if !partitions.is_empty() {
            topics.push(OngoingTopicReassignment {
                name: t.name.clone(),
                partitions,
                ..Default::default()
            });
        }
    };
    match req.topics {
        // Everything being reassigned.
        None => {
            for t in meta.topics.values() {
                let ps = t
                    .reassignments
                    .keys()
                    .filter_map(|p| ongoing(t, *p))
                    .collect();
                push(t, ps);
            }
        }
        // The named partitions that are being reassigned; as Kafka's
        // controller, unknown topics and partitions are left out.
        Some(wanted) => {
            for w in wanted {
                if let Some(t) = meta.topic(&w.name) {
                    let ps = w
                        .partition_indexes
                        .iter()
                        .filter_map(|p| ongoing(t, *p))
                        .collect();
                    push(t, ps);
                }
            }
        }
    }
    ListPartitionReassignmentsResponse {
        topics,
        ..Default::default()
    }
}
