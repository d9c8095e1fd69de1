//! Smaller APIs: DescribeCluster, DescribeLogDirs, OffsetForLeaderEpoch,
//! DeleteRecords, DescribeTopicPartitions.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::delete_records_response::{
    DeleteRecordsPartitionResult, DeleteRecordsTopicResult,
};
use kafka_protocol::generated::describe_cluster_response::DescribeClusterBroker;
use kafka_protocol::generated::describe_log_dirs_response::{
    DescribeLogDirsPartition, DescribeLogDirsResult, DescribeLogDirsTopic,
};
use kafka_protocol::generated::describe_topic_partitions_response::{
    Cursor, DescribeTopicPartitionsResponsePartition, DescribeTopicPartitionsResponseTopic,
};
use kafka_protocol::generated::offset_for_leader_epoch_response::{
    EpochEndOffset, OffsetForLeaderTopicResult,
};
use kafka_protocol::generated::{
    DeleteRecordsRequest, DeleteRecordsResponse, DescribeClusterRequest, DescribeClusterResponse,
    DescribeLogDirsRequest, DescribeLogDirsResponse, DescribeTopicPartitionsRequest,
    DescribeTopicPartitionsResponse, OffsetForLeaderEpochRequest, OffsetForLeaderEpochResponse,
};
use uuid::Uuid;

use crate::acl::{Authz, op};
use crate::shard::{Shard, owner_shard};

pub fn describe_cluster(
    shard: &Shard,
    req: &DescribeClusterRequest,
    version: i16,
    listener: &str,
    authz: &Authz<'_>,
) -> DescribeClusterResponse {
    let mut resp = DescribeClusterResponse {
        endpoint_type: 1,
        cluster_id: shard.metadata().cluster_id.clone(),
        controller_id: super::metadata::controller_id(shard),
        // v2 (KIP-1073): fenced brokers only when asked for, marked so.
        brokers: super::metadata::brokers_and_fencing(shard, listener)
            .into_iter()
            .filter(|(_, fenced)| !fenced || (version >= 2 && req.include_fenced_brokers))
            .map(|(b, fenced)| DescribeClusterBroker {
                broker_id: b.node_id,
                host: b.host,
                port: b.port,
                rack: b.rack,
                is_fenced: fenced,
                ..Default::default()
            })
            .collect(),
        cluster_authorized_operations: if req.include_cluster_authorized_operations {
            authz.operations(
                crate::acl::resource::CLUSTER,
                crate::acl::resource::CLUSTER_NAME,
            )
        } else {
            i32::MIN
        },
        ..Default::default()
    };
    // v1+: endpoint type 1 is brokers; 2 (controllers) is for controller
    // listeners, which a broker listener does not serve.
    if version >= 1 && req.endpoint_type != 1 {
        resp.error_code = ErrorCode::UnsupportedEndpointType.code();
        resp.error_message = Some("this listener describes brokers only (endpoint type 1)".into());
        resp.brokers.clear();
    }
    resp
}

pub async fn describe_log_dirs(
    shard: &Rc<Shard>,
    req: DescribeLogDirsRequest,
    version: i16,
    authz: &Authz<'_>,
) -> DescribeLogDirsResponse {
    if !authz.cluster(op::DESCRIBE) {
        // v3+ has a top-level error; before it, an empty answer.
        return DescribeLogDirsResponse {
            error_code: if version >= 3 {
                ErrorCode::ClusterAuthorizationFailed.code()
            } else {
                0
            },
            ..Default::default()
        };
    }
    let meta = shard.metadata();
    let wanted: Vec<(String, Uuid, Vec<i32>)> = match req.topics {
        None => meta
            .topics
            .values()
            .map(|t| (t.name.clone(), t.id, (0..t.partitions).collect()))
            .collect(),
        Some(ts) => ts
            .into_iter()
            .filter_map(|t| {
                meta.topic(&t.topic)
                    .map(|m| (m.name.clone(), m.id, t.partitions.clone()))
            })
            .collect(),
    };
    let mut topics = Vec::new();
    for (name, id, parts) in wanted {
        let mut out = Vec::new();
        for p in parts {
            let owner = owner_shard(id, p, shard.shard_count());
            let size = shard
                .submit_to(owner, move |s| async move {
                    s.partition(&(id, p)).map(|x| x.log.size_bytes() as i64)
                })
                .await
                .ok()
                .flatten();
            if let Some(size) = size {
                out.push(DescribeLogDirsPartition {
                    partition_index: p,
                    partition_size: size,
                    offset_lag: 0,
                    is_future_key: false,
                    ..Default::default()
                });
            }
        }
        topics.push(DescribeLogDirsTopic {
            name,
            partitions: out,
            ..Default::default()
        });
    }
    let dir = shard.ctx.config.data_dir.clone();
    // KIP-827 (v4+): read now rather than the guard's last figures, so an
    // operator who just freed space sees it at once.
    let (total, usable) = crate::disk_space::statvfs(&dir)
        .map(|(free, total)| (total as i64, free as i64))
        .unwrap_or((-1, -1));
    DescribeLogDirsResponse {
        results: vec![DescribeLogDirsResult {
            log_dir: std::fs::canonicalize(&dir)
                .unwrap_or(dir)
                .display()
                .to_string(),
            topics,
            total_bytes: total,
            usable_bytes: usable,
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// Total and available bytes of the file system holding `dir`.
/// Kafka's `LeaderEpochFileCache.endOffsetFor`, over the epochs the log
/// records plus the current one. A new leader's epoch only reaches the
/// log with its first batch (Raft's own entries are not Kafka batches),
/// where Kafka records it at election; a consumer that validates its
/// position after a leader change asks for the epoch it knew, which may
/// be one without data.
fn end_offset_for_epoch(part: &crate::partition::Partition, wanted: i32) -> (i32, i64) {
    let current = part.leader_epoch();
    let leo = part.log.log_end_offset();
    if wanted < 0 {
        return (-1, -1);
    }
    if wanted == current {
        return (current, leo);
    }
    let from_log = part.log.end_offset_for_epoch(wanted);
    if from_log != (-1, -1) || wanted > current {
        return from_log;
    }
    // `wanted` is older than the current epoch and no later epoch has
    // data: the current epoch (the next higher entry) starts at the end.
    let floor = part
        .log
        .epochs()
        .iter()
        .rev()
        .find(|e| e.0 <= wanted)
        .map_or(wanted, |e| e.0);
    (floor, leo)
}

pub async fn offset_for_leader_epoch(
    shard: &Rc<Shard>,
    req: OffsetForLeaderEpochRequest,
    authz: &Authz<'_>,
) -> OffsetForLeaderEpochResponse {
    let meta = shard.metadata();
    let mut topics = Vec::with_capacity(req.topics.len());
    for t in req.topics {
        let allowed = authz.topic(op::DESCRIBE, &t.topic);
        let topic = meta.topic(&t.topic).cloned().filter(|_| allowed);
        let mut partitions = Vec::with_capacity(t.partitions.len());
        for p in t.partitions {
            let mut r = EpochEndOffset {
                partition: p.partition,
                leader_epoch: -1,
                end_offset: -1,
                ..Default::default()
            };
            match &topic {
                Some(tm) if p.partition >= 0 && p.partition < tm.partitions => {
                    let key = (tm.id, p.partition);
                    let owner = owner_shard(tm.id, p.partition, shard.shard_count());
                    let (current, wanted) = (p.current_leader_epoch, p.leader_epoch);
                    let res = shard
                        .submit_to(owner, move |s| async move {
                            let part = s
                                .led_partition(&key)
                                .ok_or(ErrorCode::NotLeaderOrFollower)?;
                            if current >= 0 && current != part.leader_epoch() {
                                return Err(if current > part.leader_epoch() {
                                    ErrorCode::UnknownLeaderEpoch
                                } else {
                                    ErrorCode::FencedLeaderEpoch
                                });
                            }
                            let (epoch, end) = end_offset_for_epoch(&part, wanted);
                            // Never past what is committed.
                            Ok((
                                epoch,
                                end.min(part.high_watermark().max(part.log.log_end_offset())),
                            ))
                        })
                        .await
                        .unwrap_or(Err(ErrorCode::NotLeaderOrFollower));
                    match res {
                        Ok((epoch, end)) => {
                            r.leader_epoch = epoch;
                            r.end_offset = end;
                        }
                        Err(c) => r.error_code = c.code(),
                    }
                }
                _ if !allowed => r.error_code = ErrorCode::TopicAuthorizationFailed.code(),
                _ => r.error_code = ErrorCode::UnknownTopicOrPartition.code(),
            }
            partitions.push(r);
        }
        topics.push(OffsetForLeaderTopicResult {
            topic: t.topic,
            partitions,
            ..Default::default()
        });
    }
    OffsetForLeaderEpochResponse {
        topics,
        ..Default::default()
    }
}

pub async fn delete_records(
    shard: &Rc<Shard>,
    req: DeleteRecordsRequest,
    authz: &Authz<'_>,
) -> DeleteRecordsResponse {
    let meta = shard.metadata();
    let mut topics = Vec::with_capacity(req.topics.len());
    for t in req.topics {
        let allowed = authz.topic(op::DELETE, &t.name);
        let topic = meta.topic(&t.name).cloned().filter(|_| allowed);
        let mut partitions = Vec::with_capacity(t.partitions.len());
        for p in t.partitions {
            let mut r = DeleteRecordsPartitionResult {
                partition_index: p.partition_index,
                low_watermark: -1,
                ..Default::default()
            };
            match &topic {
                Some(tm) if p.partition_index >= 0 && p.partition_index < tm.partitions => {
                    let key = (tm.id, p.partition_index);
                    let owner = owner_shard(tm.id, p.partition_index, shard.shard_count());
                    let offset = p.offset;
                    let res = shard
                        .submit_to(owner, move |s| async move {
                            let part = s
                                .led_partition(&key)
                                .ok_or(ErrorCode::NotLeaderOrFollower)?;
                            let hw = part.high_watermark();
                            // -1 means "up to the high watermark".
                            let target = if offset == -1 { hw } else { offset };
                            if target < 0 || target > hw {
                                return Err(ErrorCode::OffsetOutOfRange);
                            }
                            part.delete_records(target)
                                .await
                                .map_err(|e| crate::partition::raft_error_code(&e))
                        })
                        .await
                        .unwrap_or(Err(ErrorCode::NotLeaderOrFollower));
                    match res {
                        Ok(low) => r.low_watermark = low,
                        Err(c) => r.error_code = c.code(),
                    }
                }
                _ if !allowed => r.error_code = ErrorCode::TopicAuthorizationFailed.code(),
                _ => r.error_code = ErrorCode::UnknownTopicOrPartition.code(),
            }
            partitions.push(r);
        }
        topics.push(DeleteRecordsTopicResult {
            name: t.name,
            partitions,
            ..Default::default()
        });
    }
    DeleteRecordsResponse {
        topics,
        ..Default::default()
    }
}

pub fn describe_topic_partitions(
    shard: &Shard,
    req: DescribeTopicPartitionsRequest,
    authz: &Authz<'_>,
) -> DescribeTopicPartitionsResponse {
    let meta = shard.metadata();
    let listing = req.topics.is_empty();
    let mut names: Vec<String> = if listing {
        // Topics the requester may not describe are simply absent.
        meta.topics
            .keys()
            .filter(|n| authz.topic(op::DESCRIBE, n))
            .cloned()
            .collect()
    } else {
        req.topics.iter().map(|t| t.name.clone()).collect()
    };
    names.sort();
    names.dedup();
    let (start_topic, start_partition) = match &req.cursor {
        Some(c) => (Some(c.topic_name.clone()), c.partition_index.max(0)),
        None => (None, 0),
    };
    let mut budget = if req.response_partition_limit > 0 {
        req.response_partition_limit
    } else {
        2000
    };
    let mut resp = DescribeTopicPartitionsResponse::default();
    for name in names {
        if let Some(st) = &start_topic
            && &name < st
        {
            continue;
        }
        if !listing && !authz.topic(op::DESCRIBE, &name) {
            resp.topics.push(DescribeTopicPartitionsResponseTopic {
                error_code: ErrorCode::TopicAuthorizationFailed.code(),
                name: Some(name),
                topic_id: Uuid::nil(),
                topic_authorized_operations: i32::MIN,
                ..Default::default()
            });
            continue;
        }
        let Some(t) = meta.topic(&name) else {
            resp.topics.push(DescribeTopicPartitionsResponseTopic {
                error_code: ErrorCode::UnknownTopicOrPartition.code(),
                name: Some(name),
                topic_id: Uuid::nil(),
                topic_authorized_operations: i32::MIN,
                ..Default::default()
            });
            continue;
        };
        let first = if start_topic.as_deref() == Some(name.as_str()) {
            start_partition
        } else {
            0
        };
        let mut out = DescribeTopicPartitionsResponseTopic {
            name: Some(t.name.clone()),
            topic_id: t.id,
            is_internal: t.is_internal(),
            topic_authorized_operations: authz.operations(crate::acl::resource::TOPIC, &t.name),
            ..Default::default()
        };
        for p in first..t.partitions {
            if budget == 0 {
                resp.next_cursor = Some(Cursor {
                    topic_name: t.name.clone(),
                    partition_index: p,
                    ..Default::default()
                });
                break;
            }
            budget -= 1;
            let st = super::metadata::partition_state(shard, t, p);
            out.partitions
                .push(DescribeTopicPartitionsResponsePartition {
                    error_code: st.error_code(),
                    partition_index: p,
                    leader_id: st.leader,
                    leader_epoch: st.epoch,
                    replica_nodes: st.replicas,
                    isr_nodes: st.isr,
                    offline_replicas: st.offline,
                    eligible_leader_replicas: Some(Vec::new()),
                    last_known_elr: Some(Vec::new()),
                    ..Default::default()
                });
        }
        resp.topics.push(out);
        if resp.next_cursor.is_some() {
            break;
        }
    }
    resp
}
