//! ShareGroupHeartbeat and ShareGroupDescribe (KIP-932): share groups'
//! membership, run on the shard coordinating the group; the state and
//! assignor are in [`crate::groups::share_protocol`].

use std::rc::Rc;
use std::time::Instant;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::share_group_describe_response::{
    Assignment as DescribedAssignment, DescribedGroup, Member as DescribedMember,
    TopicPartitions as DescribedTopicPartitions,
};
use kafka_protocol::generated::share_group_heartbeat_response::{
    Assignment as WireAssignment, TopicPartitions as WireTopicPartitions,
};
use kafka_protocol::generated::{
    ShareGroupDescribeRequest, ShareGroupDescribeResponse, ShareGroupHeartbeatRequest,
    ShareGroupHeartbeatResponse,
};
use uuid::Uuid;

use crate::acl::{Authz, op};
use crate::groups::consumer_protocol::{Refusal, topics_of};
use crate::groups::share_protocol::{ShareAssignment, ShareGroup, ShareHeartbeat};
use crate::groups::{self, coordinator};
use crate::metadata::ClusterMetadata;
use crate::shard::Shard;

/// Longest a heartbeat waits for the share-partitions it newly assigned
/// to start.
const INITIALIZE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

fn heartbeat_error(code: ErrorCode, message: &str) -> ShareGroupHeartbeatResponse {
    ShareGroupHeartbeatResponse {
        error_code: code.code(),
        error_message: Some(message.to_string()),
        ..Default::default()
    }
}

pub async fn heartbeat(
    shard: &Rc<Shard>,
    req: ShareGroupHeartbeatRequest,
    client_id: String,
    client_host: String,
    authz: &Authz<'_>,
) -> ShareGroupHeartbeatResponse {
    if !authz.group(op::READ, &req.group_id) {
        return heartbeat_error(
            ErrorCode::GroupAuthorizationFailed,
            "Group authorization failed.",
        );
    }
    if let Some(names) = &req.subscribed_topic_names
        && names.iter().any(|t| !authz.topic(op::DESCRIBE, t))
    {
        return heartbeat_error(
            ErrorCode::TopicAuthorizationFailed,
            "Topic authorization failed.",
        );
    }
    if req.group_id.is_empty() {
        return heartbeat_error(ErrorCode::InvalidRequest, "GroupId can't be empty.");
    }
    if req.member_id.is_empty() {
        return heartbeat_error(ErrorCode::InvalidRequest, "MemberId can't be empty.");
    }
    if req.member_epoch < -1 {
        return heartbeat_error(ErrorCode::InvalidRequest, "MemberEpoch is invalid.");
    }
    if req.member_epoch == 0
        && req
            .subscribed_topic_names
            .as_ref()
            .is_none_or(|n| n.is_empty())
    {
        return heartbeat_error(
            ErrorCode::InvalidRequest,
            "SubscribedTopicNames must be set in first request.",
        );
    }
    let route = match groups::route(shard, &req.group_id).await {
        Ok(r) => r,
        Err(code) => return heartbeat_error(code, code.message()),
    };
    let resp = shard
        .submit_to(route.shard, move |s| async move {
            heartbeat_on_owner(&s, req, client_id, client_host)
        })
        .await;
    let (resp, new_partitions) = match resp {
        Ok(r) => r,
        Err(_) => {
            return heartbeat_error(
                ErrorCode::CoordinatorNotAvailable,
                "coordinator not available",
            );
        }
    };
    // Share-partitions the group reads for the first time start now
    // (`share.auto.offset.reset` counts from here, as in Kafka, where the
    // group coordinator initializes them when it first assigns them).
    // Bounded: a heartbeat is not held up past a fraction of the session
    // (a share-partition not started here starts at its first fetch).
    if monoio::time::timeout(
        INITIALIZE_WAIT,
        crate::share::leader::initialize_all(shard, new_partitions),
    )
    .await
    .is_err()
    {
        tracing::debug!("share-partitions still starting; the heartbeat is answered");
    }
    resp
}

/// The heartbeat on the coordinator's shard; also returns the group's
/// partitions not initialized yet.
fn heartbeat_on_owner(
    s: &Rc<Shard>,
    req: ShareGroupHeartbeatRequest,
    client_id: String,
    client_host: String,
) -> (ShareGroupHeartbeatResponse, Vec<(String, Uuid, i32)>) {
    let meta = s.metadata();
    let interval =
        crate::group_config::get_i64(&meta, &req.group_id, "share.heartbeat.interval.ms");
    let max_size = meta.settings.i32("group.share.max.size").max(1) as usize;
    let topics = topics_of(&meta);
    let c = coordinator();
    let mut c = c.borrow_mut();
    let taken = c
        .groups
        .get(&req.group_id)
        .is_some_and(|g| !g.members.is_empty())
        || c.consumer_groups.contains_key(&req.group_id);
    if taken {
        return (
            heartbeat_error(
                ErrorCode::GroupIdNotFound,
                &format!("Group {} is not a share group.", req.group_id),
            ),
            Vec::new(),
        );
    }
    let group_id = req.group_id.clone();
    let g = c
        .share_groups
        .entry(group_id.clone())
        .or_insert_with(|| ShareGroup::new(group_id.clone()));
    let hb = ShareHeartbeat {
        member_id: req.member_id,
        epoch: req.member_epoch,
        rack_id: req.rack_id,
        topic_names: req.subscribed_topic_names,
        client_id,
        client_host,
    };
    let result = g.heartbeat(hb, &topics, max_size, Instant::now());
    let fresh = g.take_uninitialized();
    if g.members.is_empty() && g.group_epoch == 0 {
        c.share_groups.remove(&group_id);
    }
    let resp = match result {
        Ok(out) => ShareGroupHeartbeatResponse {
            member_id: Some(out.member_id),
            member_epoch: out.epoch,
            heartbeat_interval_ms: interval.clamp(1, i64::from(i32::MAX)) as i32,
            assignment: out.assignment.map(|a| WireAssignment {
                topic_partitions: to_wire(a),
                ..Default::default()
            }),
            ..Default::default()
        },
        Err(Refusal { code, message }) => heartbeat_error(code, &message),
    };
    (
        resp,
        fresh
            .into_iter()
            .map(|(t, p)| (group_id.clone(), t, p))
            .collect(),
    )
}

fn to_wire(a: ShareAssignment) -> Vec<WireTopicPartitions> {
    a.into_iter()
        .map(|(topic_id, ps)| WireTopicPartitions {
            topic_id,
            partitions: ps.into_iter().collect(),
            ..Default::default()
        })
        .collect()
}

fn described(meta: &ClusterMetadata, a: &ShareAssignment) -> DescribedAssignment {
    DescribedAssignment {
        topic_partitions: a
            .iter()
            .map(|(t, ps)| DescribedTopicPartitions {
                topic_id: *t,
                topic_name: meta
                    .topic_by_id(t)
                    .map(|m| m.name.clone())
                    .unwrap_or_default(),
                partitions: ps.iter().copied().collect(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

pub async fn describe(
    shard: &Rc<Shard>,
    req: ShareGroupDescribeRequest,
    authz: &Authz<'_>,
) -> ShareGroupDescribeResponse {
    let mut out = Vec::with_capacity(req.group_ids.len());
    for group_id in req.group_ids {
        let mut d = DescribedGroup {
            group_id: group_id.clone(),
            authorized_operations: i32::MIN,
            ..Default::default()
        };
        if !authz.group(op::DESCRIBE, &group_id) {
            d.error_code = ErrorCode::GroupAuthorizationFailed.code();
            d.error_message = Some("Group authorization failed.".into());
            out.push(d);
            continue;
        }
        if req.include_authorized_operations {
            d.authorized_operations = authz.operations(crate::acl::resource::GROUP, &group_id);
        }
        if group_id.is_empty() {
            d.error_code = ErrorCode::InvalidGroupId.code();
            out.push(d);
            continue;
        }
        let route = match groups::route(shard, &group_id).await {
            Ok(r) => r,
            Err(code) => {
                d.error_code = code.code();
                out.push(d);
                continue;
            }
        };
        let d2 = d.clone();
        let r = shard
            .submit_to(
                route.shard,
                move |s| async move { describe_on_owner(&s, d2) },
            )
            .await;
        match r {
            Ok(d) => out.push(d),
            Err(_) => {
                d.error_code = ErrorCode::CoordinatorNotAvailable.code();
                out.push(d);
            }
        }
    }
    ShareGroupDescribeResponse {
        groups: out,
        ..Default::default()
    }
}

fn describe_on_owner(s: &Rc<Shard>, mut d: DescribedGroup) -> DescribedGroup {
    let meta = s.metadata();
    let c = coordinator();
    let c = c.borrow();
    let Some(g) = c.share_groups.get(&d.group_id) else {
        d.error_code = ErrorCode::GroupIdNotFound.code();
        d.error_message = Some(format!("Group {} not found.", d.group_id));
        return d;
    };
    d.group_state = g.state_name().to_string();
    d.group_epoch = g.group_epoch;
    d.assignment_epoch = g.assignment_epoch;
    d.assignor_name = "simple".to_string();
    d.members = g
        .members
        .values()
        .map(|m| DescribedMember {
            member_id: m.id.clone(),
            rack_id: m.rack_id.clone(),
            member_epoch: m.epoch,
            client_id: m.client_id.clone(),
            client_host: m.client_host.clone(),
            subscribed_topic_names: m.subscribed.iter().cloned().collect(),
            assignment: described(&meta, &m.assignment),
            ..Default::default()
        })
        .collect();
    d
}
