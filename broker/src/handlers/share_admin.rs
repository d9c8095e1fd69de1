//! DescribeShareGroupOffsets, AlterShareGroupOffsets and
//! DeleteShareGroupOffsets (KIP-932): a share group's start offsets, read
//! from and written to the share coordinator ([`crate::share::coordinator`]).
//! Asked of the group's coordinator, as Kafka does; altering and deleting
//! need the group to have no members (NON_EMPTY_GROUP otherwise). An
//! altered share-partition starts a new state epoch: a leader still
//! holding the old state is refused its next write and reloads, and every
//! member's new share session reads the state again.
//!
//! Which share-partitions a group has: those of the topics its members
//! subscribe to, and those with state in the `__share_group_state`
//! partitions this broker leads (a group with neither is not found).

use std::collections::BTreeSet;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::alter_share_group_offsets_response::{
    AlterShareGroupOffsetsResponsePartition, AlterShareGroupOffsetsResponseTopic,
};
use kafka_protocol::generated::delete_share_group_offsets_response::DeleteShareGroupOffsetsResponseTopic;
use kafka_protocol::generated::describe_share_group_offsets_response::{
    DescribeShareGroupOffsetsResponseGroup, DescribeShareGroupOffsetsResponsePartition,
    DescribeShareGroupOffsetsResponseTopic,
};
use kafka_protocol::generated::{
    AlterShareGroupOffsetsRequest, AlterShareGroupOffsetsResponse, DeleteShareGroupOffsetsRequest,
    DeleteShareGroupOffsetsResponse, DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsResponse,
};
use uuid::Uuid;

use crate::acl::{Authz, op};
use crate::shard::Shard;
use crate::share::admin::{forget_everywhere, view};
use crate::share::coordinator::{self as state, StoredState};
use crate::share::records::ShareKey;

pub async fn describe(
    shard: &Rc<Shard>,
    req: DescribeShareGroupOffsetsRequest,
    version: i16,
    authz: &Authz<'_>,
) -> DescribeShareGroupOffsetsResponse {
    let mut out = Vec::with_capacity(req.groups.len());
    for g in req.groups {
        let mut r = DescribeShareGroupOffsetsResponseGroup {
            group_id: g.group_id.clone(),
            ..Default::default()
        };
        if !authz.group(op::DESCRIBE, &g.group_id) {
            r.error_code = ErrorCode::GroupAuthorizationFailed.code();
            r.error_message = Some("Group authorization failed.".into());
            out.push(r);
            continue;
        }
        let v = match view(shard, &g.group_id).await {
            Ok(v) => v,
            Err(code) => {
                r.error_code = code.code();
                r.error_message = Some(code.message().into());
                out.push(r);
                continue;
            }
        };
        let meta = shard.metadata();
        // The partitions asked for, or every one the group has.
        let asked: Vec<(String, Vec<i32>, bool)> = match &g.topics {
            Some(ts) => ts
                .iter()
                .map(|t| (t.topic_name.clone(), t.partitions.clone(), true))
                .collect(),
            None => {
                let mut known: BTreeSet<(Uuid, i32)> = v.partitions.iter().copied().collect();
                known.extend(
                    state::group_keys(shard, &g.group_id)
                        .await
                        .into_iter()
                        .map(|k| (k.topic_id, k.partition)),
                );
                if !v.exists && known.is_empty() {
                    r.error_code = ErrorCode::GroupIdNotFound.code();
                    r.error_message = Some(format!("Group {} not found.", g.group_id));
                    out.push(r);
                    continue;
                }
                let mut by_topic: Vec<(String, Vec<i32>, bool)> = Vec::new();
                for (t, p) in known {
                    let Some(name) = meta.topic_by_id(&t).map(|m| m.name.clone()) else {
                        continue;
                    };
                    if !authz.topic(op::DESCRIBE, &name) {
                        continue;
                    }
                    match by_topic.last_mut() {
                        Some((n, ps, _)) if *n == name => ps.push(p),
                        _ => by_topic.push((name, vec![p], false)),
                    }
                }
                by_topic
            }
        };
        for (name, parts, explicit) in asked {
            let topic = meta.topic(&name).cloned();
            let mut tr = DescribeShareGroupOffsetsResponseTopic {
                topic_name: name.clone(),
                topic_id: topic.as_ref().map_or(Uuid::nil(), |t| t.id),
                ..Default::default()
            };
            let denied = explicit && !authz.topic(op::DESCRIBE, &name);
            for p in parts {
                let mut pr = DescribeShareGroupOffsetsResponsePartition {
                    partition_index: p,
                    start_offset: -1,
                    leader_epoch: -1,
                    lag: -1,
                    ..Default::default()
                };
                match &topic {
                    _ if denied => {
                        pr.error_code = ErrorCode::TopicAuthorizationFailed.code();
                        pr.error_message = Some("Topic authorization failed.".into());
                    }
                    Some(t) if p >= 0 && p < t.partitions => {
                        let key = ShareKey {
                            group_id: g.group_id.clone(),
                            topic_id: t.id,
                            partition: p,
                        };
                        match state::read(shard, key).await {
                            Ok(Some(st)) => {
                                pr.start_offset = st.start_offset;
                                pr.leader_epoch = st.leader_epoch;
                                if version >= 1 {
                                    pr.lag = lag(shard, (t.id, p), &st).await;
                                }
                            }
                            Ok(None) => {}
                            Err(code) => {
                                pr.error_code = code.code();
                                pr.error_message = Some(code.message().into());
                            }
                        }
                    }
                    _ => {
                        pr.error_code = ErrorCode::UnknownTopicOrPartition.code();
                        pr.error_message =
                            Some(ErrorCode::UnknownTopicOrPartition.message().into());
                    }
                }
                tr.partitions.push(pr);
            }
            r.topics.push(tr);
        }
        out.push(r);
    }
    DescribeShareGroupOffsetsResponse {
        groups: out,
        ..Default::default()
    }
}

/// KIP-1226's lag: records from the start offset to the partition
/// leader's high watermark whose delivery is not complete (-1 when the
/// leader cannot be asked).
async fn lag(shard: &Rc<Shard>, tp: (Uuid, i32), st: &StoredState) -> i64 {
    let hw = match crate::share::remote_read::high_watermark(shard, tp).await {
        Ok(hw) => hw,
        Err((code, message)) => {
            tracing::debug!(partition = tp.1, ?code, %message, "no high watermark for a share group's lag");
            return -1;
        }
    };
    let done: i64 = st
        .batches
        .iter()
        .filter(|b| b.delivery_state != 0)
        .map(|b| b.last_offset.min(hw - 1) - b.first_offset.max(st.start_offset) + 1)
        .filter(|n| *n > 0)
        .sum();
    (hw - st.start_offset - done).max(0)
}

pub async fn alter(
    shard: &Rc<Shard>,
    req: AlterShareGroupOffsetsRequest,
    authz: &Authz<'_>,
) -> AlterShareGroupOffsetsResponse {
    let top = |code: ErrorCode, message: String| AlterShareGroupOffsetsResponse {
        error_code: code.code(),
        error_message: Some(message),
        ..Default::default()
    };
    if !authz.group(op::READ, &req.group_id) {
        return top(
            ErrorCode::GroupAuthorizationFailed,
            "Group authorization failed.".into(),
        );
    }
    if req.group_id.is_empty() {
        return top(ErrorCode::InvalidRequest, "GroupId can't be empty.".into());
    }
    let v = match view(shard, &req.group_id).await {
        Ok(v) => v,
        Err(code) => return top(code, code.message().into()),
    };
    if v.members > 0 {
        return top(
            ErrorCode::NonEmptyGroup,
            format!(
                "The share group {} has members; alter its offsets when it is empty.",
                req.group_id
            ),
        );
    }
    let meta = shard.metadata();
    let mut resp = AlterShareGroupOffsetsResponse::default();
    for t in req.topics {
        let topic = meta.topic(&t.topic_name).cloned();
        let mut tr = AlterShareGroupOffsetsResponseTopic {
            topic_name: t.topic_name.clone(),
            topic_id: topic.as_ref().map_or(Uuid::nil(), |x| x.id),
            ..Default::default()
        };
        let allowed = authz.topic(op::READ, &t.topic_name);
        for p in t.partitions {
            let mut pr = AlterShareGroupOffsetsResponsePartition {
                partition_index: p.partition_index,
                ..Default::default()
            };
            let code = match &topic {
                _ if !allowed => ErrorCode::TopicAuthorizationFailed,
                Some(x) if p.partition_index >= 0 && p.partition_index < x.partitions => {
                    if p.start_offset < 0 {
                        ErrorCode::InvalidRequest
                    } else {
                        set_start(
                            shard,
                            &req.group_id,
                            x.id,
                            p.partition_index,
                            p.start_offset,
                        )
                        .await
                    }
                }
                _ => ErrorCode::UnknownTopicOrPartition,
            };
            if code != ErrorCode::None {
                pr.error_code = code.code();
                pr.error_message = Some(code.message().into());
            }
            tr.partitions.push(pr);
        }
        resp.responses.push(tr);
    }
    forget_everywhere(shard, &req.group_id).await;
    resp
}

/// Writes a share-partition's new start (nothing in flight) under the
/// next state epoch.
async fn set_start(
    shard: &Rc<Shard>,
    group: &str,
    topic_id: Uuid,
    partition: i32,
    start: i64,
) -> ErrorCode {
    let key = ShareKey {
        group_id: group.to_string(),
        topic_id,
        partition,
    };
    let old = match state::read(shard, key.clone()).await {
        Ok(o) => o,
        Err(code) => return code,
    };
    let st = StoredState {
        state_epoch: old.as_ref().map_or(0, |o| o.state_epoch + 1),
        leader_epoch: old.as_ref().map_or(-1, |o| o.leader_epoch),
        start_offset: start,
        batches: Vec::new(),
        // Dead letters written before the change are still found by a
        // new leader (their records may be in the new range again).
        dlq_fence: old.as_ref().and_then(|o| o.dlq_fence),
    };
    match state::write(shard, key, st).await {
        Ok(()) => ErrorCode::None,
        Err(code) => code,
    }
}

pub async fn delete(
    shard: &Rc<Shard>,
    req: DeleteShareGroupOffsetsRequest,
    authz: &Authz<'_>,
) -> DeleteShareGroupOffsetsResponse {
    let top = |code: ErrorCode, message: String| DeleteShareGroupOffsetsResponse {
        error_code: code.code(),
        error_message: Some(message),
        ..Default::default()
    };
    if !authz.group(op::DELETE, &req.group_id) {
        return top(
            ErrorCode::GroupAuthorizationFailed,
            "Group authorization failed.".into(),
        );
    }
    if req.group_id.is_empty() {
        return top(ErrorCode::InvalidRequest, "GroupId can't be empty.".into());
    }
    let v = match view(shard, &req.group_id).await {
        Ok(v) => v,
        Err(code) => return top(code, code.message().into()),
    };
    if v.members > 0 {
        return top(
            ErrorCode::NonEmptyGroup,
            format!(
                "The share group {} has members; delete its offsets when it is empty.",
                req.group_id
            ),
        );
    }
    let meta = shard.metadata();
    let mut resp = DeleteShareGroupOffsetsResponse::default();
    for t in req.topics {
        let topic = meta.topic(&t.topic_name).cloned();
        let mut tr = DeleteShareGroupOffsetsResponseTopic {
            topic_name: t.topic_name.clone(),
            topic_id: topic.as_ref().map_or(Uuid::nil(), |x| x.id),
            ..Default::default()
        };
        let code = match &topic {
            _ if !authz.topic(op::READ, &t.topic_name) => ErrorCode::TopicAuthorizationFailed,
            None => ErrorCode::UnknownTopicOrPartition,
            Some(x) => {
                let mut code = ErrorCode::None;
                for p in 0..x.partitions {
                    let key = ShareKey {
                        group_id: req.group_id.clone(),
                        topic_id: x.id,
                        partition: p,
                    };
                    if let Err(c) = state::delete(shard, key).await {
                        code = c;
                    }
                }
                code
            }
        };
        if code != ErrorCode::None {
            tr.error_code = code.code();
            tr.error_message = Some(code.message().into());
        }
        resp.responses.push(tr);
    }
    forget_everywhere(shard, &req.group_id).await;
    resp
}
