//! ConsumerGroupHeartbeat and ConsumerGroupDescribe: the KIP-848 consumer
//! protocol. Requests are checked here, then run on the shard that
//! coordinates the group; the state and assignors are in
//! [`crate::groups::consumer_protocol`]. This file only translates between
//! the wire and that state; a heartbeat is answered once what it changed
//! is durable ([`groups::persist_consumer_group`]).

use std::rc::Rc;
use std::time::Instant;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::consumer_group_describe_response::{
    Assignment as DescribedAssignment, DescribedGroup, Member as DescribedMember,
    TopicPartitions as DescribedTopicPartitions,
};
use kafka_protocol::generated::consumer_group_heartbeat_response::{
    Assignment as WireAssignment, TopicPartitions as WireTopicPartitions,
};
use kafka_protocol::generated::{
    ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, ConsumerGroupHeartbeatRequest,
    ConsumerGroupHeartbeatResponse, JoinGroupRequest, JoinGroupResponse,
};
use uuid::Uuid;

use crate::acl::{Authz, op};
use crate::groups::consumer_protocol::{
    Assignment, ConsumerGroup, HeartbeatParams, Refusal, TopicFilter, topics_of,
};
use crate::groups::{self, coordinator};
use crate::metadata::ClusterMetadata;
use crate::shard::Shard;

fn heartbeat_error(r: Refusal) -> ConsumerGroupHeartbeatResponse {
    ConsumerGroupHeartbeatResponse {
        error_code: r.code.code(),
        error_message: Some(r.message),
        ..Default::default()
    }
}

fn refusal(code: ErrorCode, message: &str) -> Refusal {
    Refusal {
        code,
        message: message.to_string(),
    }
}

pub async fn heartbeat(
    shard: &Rc<Shard>,
    req: ConsumerGroupHeartbeatRequest,
    version: i16,
    client_id: String,
    client_host: String,
    authz: &Authz<'_>,
) -> ConsumerGroupHeartbeatResponse {
    if !authz.group(op::READ, &req.group_id) {
        return heartbeat_error(refusal(
            ErrorCode::GroupAuthorizationFailed,
            "Group authorization failed.",
        ));
    }
    // Kafka: a member may subscribe only to topics it may describe.
    if let Some(names) = &req.subscribed_topic_names
        && names.iter().any(|t| !authz.topic(op::DESCRIBE, t))
    {
        return heartbeat_error(refusal(
            ErrorCode::TopicAuthorizationFailed,
            "Topic authorization failed.",
        ));
    }
    if req.group_id.is_empty() {
        return heartbeat_error(refusal(
            ErrorCode::InvalidRequest,
            "GroupId can't be empty.",
        ));
    }
    // From v1 the client makes its member id; v0 lets the coordinator.
    if req.member_id.is_empty() && (version >= 1 || req.member_epoch != 0) {
        return heartbeat_error(refusal(
            ErrorCode::InvalidRequest,
            "MemberId can't be empty.",
        ));
    }
    let route = match groups::route(shard, &req.group_id).await {
        Ok(r) => r,
        Err(code) => return heartbeat_error(refusal(code, "coordinator not available")),
    };
    // The principal and address the member's regex is resolved for (with
    // an authorizer only).
    let requester = authz
        .enabled()
        .then(|| (authz.principal().to_string(), authz.host().to_string()));
    shard
        .submit_to(route.shard, move |s| async move {
            let group_id = req.group_id.clone();
            let filter = requester.map(|(principal, host)| regex_filter(&s, principal, host));
            let resp = heartbeat_on_owner(&s, req, client_id, client_host, filter);
            // Answer only once the change (if any) is durable, so that a
            // member never holds an epoch or partitions a restart loses.
            match groups::persist_consumer_group(&s, &group_id).await {
                Ok(()) => resp,
                Err(code) => {
                    heartbeat_error(refusal(code, "the group's state could not be written"))
                }
            }
        })
        .await
        .unwrap_or_else(|_| {
            heartbeat_error(refusal(
                ErrorCode::CoordinatorNotAvailable,
                "coordinator not available",
            ))
        })
}

fn to_assignment(tps: Vec<(Uuid, Vec<i32>)>) -> Assignment {
    let mut a = Assignment::new();
    for (t, ps) in tps {
        a.entry(t).or_default().extend(ps);
    }
    a
}

/// The topics a member's regex may match: those its principal may
/// describe, judged against the ACLs in force when the group's target
/// assignment is computed.
fn regex_filter(s: &Rc<Shard>, principal: String, host: String) -> TopicFilter {
    let weak = Rc::downgrade(s);
    TopicFilter(Rc::new(move |topic: &str| {
        weak.upgrade().is_some_and(|s| {
            crate::acl::request::authorize_now(
                &s,
                &principal,
                &host,
                op::DESCRIBE,
                crate::acl::resource::TOPIC,
                topic,
            )
        })
    }))
}

fn heartbeat_on_owner(
    s: &Rc<Shard>,
    req: ConsumerGroupHeartbeatRequest,
    client_id: String,
    client_host: String,
    regex_filter: Option<TopicFilter>,
) -> ConsumerGroupHeartbeatResponse {
    let meta = s.metadata();
    let interval = meta
        .settings
        .i32("group.consumer.heartbeat.interval.ms")
        .max(1);
    let topics = topics_of(&meta);
    let c = coordinator();
    let mut c = c.borrow_mut();
    // A group id belongs to one protocol at a time (KIP-848).
    if c.groups
        .get(&req.group_id)
        .is_some_and(|g| !g.members.is_empty())
    {
        return heartbeat_error(refusal(
            ErrorCode::GroupIdNotFound,
            &format!("Group {} is not a consumer group.", req.group_id),
        ));
    }
    let member_id = if req.member_id.is_empty() {
        Uuid::new_v4().to_string()
    } else {
        req.member_id
    };
    let params = HeartbeatParams {
        member_id,
        epoch: req.member_epoch,
        instance_id: req.instance_id,
        rack_id: req.rack_id,
        rebalance_timeout_ms: req.rebalance_timeout_ms,
        topic_names: req.subscribed_topic_names,
        regex: req.subscribed_topic_regex,
        server_assignor: req.server_assignor,
        regex_filter,
        owned: req.topic_partitions.map(|tps| {
            to_assignment(
                tps.into_iter()
                    .map(|t| (t.topic_id, t.partitions))
                    .collect(),
            )
        }),
        client_id,
        client_host,
    };
    let group_id = req.group_id;
    // `group.consumer.max.size` (read-only, as in Kafka 4): a member that
    // would grow a full group is refused; a static member taking its
    // instance's place does not grow it.
    let max_size =
        usize::try_from(meta.settings.i64("group.consumer.max.size")).unwrap_or(usize::MAX);
    if let Some(g) = c.consumer_groups.get(&group_id)
        && g.members.len() >= max_size
        && !g.members.contains_key(&params.member_id)
        && !params.instance_id.as_ref().is_some_and(|id| {
            g.members
                .values()
                .any(|m| m.instance_id.as_ref() == Some(id))
        })
    {
        return heartbeat_error(refusal(
            ErrorCode::GroupMaxSizeReached,
            &format!("The consumer group has reached its maximum capacity of {max_size} members."),
        ));
    }
    let g = c
        .consumer_groups
        .entry(group_id.clone())
        .or_insert_with(|| ConsumerGroup::new(group_id.clone()));
    let result = g.heartbeat(params, &topics, &*meta, Instant::now());
    // A refused first heartbeat leaves no group behind.
    if g.members.is_empty() && g.group_epoch == 0 {
        c.consumer_groups.remove(&group_id);
    }
    match result {
        Ok(out) => {
            tracing::debug!(group = %group_id, member = %out.member_id, epoch = out.epoch, "consumer group heartbeat");
            ConsumerGroupHeartbeatResponse {
                member_id: Some(out.member_id),
                member_epoch: out.epoch,
                heartbeat_interval_ms: interval,
                assignment: out.assignment.map(|a| WireAssignment {
                    topic_partitions: a
                        .into_iter()
                        .map(|(topic_id, ps)| WireTopicPartitions {
                            topic_id,
                            partitions: ps.into_iter().collect(),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }),
                ..Default::default()
            }
        }
        Err(r) => {
            tracing::debug!(group = %group_id, code = ?r.code, message = %r.message, "consumer group heartbeat refused");
            heartbeat_error(r)
        }
    }
}

fn described(meta: &ClusterMetadata, a: &Assignment) -> DescribedAssignment {
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
    req: ConsumerGroupDescribeRequest,
    version: i16,
    authz: &Authz<'_>,
) -> ConsumerGroupDescribeResponse {
    let mut out = Vec::with_capacity(req.group_ids.len());
    for group_id in req.group_ids {
        let mut d = DescribedGroup {
            group_id: group_id.clone(),
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
            .submit_to(route.shard, move |s| async move {
                describe_on_owner(&s, d2, version)
            })
            .await;
        match r {
            Ok(d) => out.push(d),
            Err(_) => {
                d.error_code = ErrorCode::CoordinatorNotAvailable.code();
                out.push(d);
            }
        }
    }
    ConsumerGroupDescribeResponse {
        groups: out,
        ..Default::default()
    }
}

fn describe_on_owner(s: &Rc<Shard>, mut d: DescribedGroup, version: i16) -> DescribedGroup {
    let meta = s.metadata();
    let c = coordinator();
    let c = c.borrow();
    let Some(g) = c.consumer_groups.get(&d.group_id) else {
        d.error_code = ErrorCode::GroupIdNotFound.code();
        d.error_message = Some(format!("Group {} not found.", d.group_id));
        return d;
    };
    if c.groups
        .get(&d.group_id)
        .is_some_and(|g| !g.members.is_empty())
    {
        d.error_code = ErrorCode::GroupIdNotFound.code();
        d.error_message = Some(format!("Group {} is not a consumer group.", d.group_id));
        return d;
    }
    d.group_state = g.state_name().to_string();
    d.group_epoch = g.group_epoch;
    d.assignment_epoch = g.assignment_epoch;
    d.assignor_name = g.assignor.to_string();
    d.members = g
        .members
        .values()
        .map(|m| DescribedMember {
            member_id: m.id.clone(),
            instance_id: m.instance_id.clone(),
            rack_id: m.rack_id.clone(),
            member_epoch: m.epoch,
            client_id: m.client_id.clone(),
            client_host: m.client_host.clone(),
            subscribed_topic_names: m.topic_names.clone(),
            subscribed_topic_regex: m.regex.as_ref().map(|(r, _)| r.clone()),
            assignment: described(&meta, &m.assigned),
            target_assignment: described(&meta, &g.target.get(&m.id).cloned().unwrap_or_default()),
            // v1+: 1 = a consumer-protocol member.
            member_type: if version >= 1 { 1 } else { -1 },
            ..Default::default()
        })
        .collect();
    d
}

/// A classic JoinGroup for a group that has KIP-848 members is refused
/// with INCONSISTENT_GROUP_PROTOCOL, as Kafka does; `None` lets it through
/// (deleting the consumer group first if it is empty, as Kafka does).
pub async fn refuse_classic_join(
    shard: &Rc<Shard>,
    req: &JoinGroupRequest,
    version: i16,
) -> Option<JoinGroupResponse> {
    if req.group_id.is_empty() {
        return None;
    }
    let route = groups::route(shard, &req.group_id).await.ok()?;
    let group_id = req.group_id.clone();
    let busy = shard
        .submit_to(route.shard, move |s| async move {
            let c = coordinator();
            let tombstones = {
                let mut c = c.borrow_mut();
                match c.consumer_groups.get(&group_id) {
                    None => return false,
                    Some(g) if !g.members.is_empty() => return true,
                    // An empty consumer group gives way to the classic
                    // group (Kafka's maybeDeleteEmptyConsumerGroup): it
                    // is deleted, its offsets stay with the id.
                    Some(_) => c
                        .consumer_groups
                        .remove(&group_id)
                        .map(|g| g.tombstones())
                        .unwrap_or_default(),
                }
            };
            if !tombstones.is_empty() {
                let recs = tombstones
                    .iter()
                    .map(|k| (groups::records::consumer_key(&group_id, k), None))
                    .collect();
                if let Err(code) = groups::append(&s, route, recs).await {
                    tracing::warn!(group = %group_id, ?code, "cannot write an empty consumer group's tombstones");
                }
            }
            false
        })
        .await
        .unwrap_or(false);
    busy.then(|| JoinGroupResponse {
        error_code: ErrorCode::InconsistentGroupProtocol.code(),
        generation_id: -1,
        member_id: req.member_id.clone(),
        // Not nullable before v7.
        protocol_name: if version < 7 {
            Some(String::new())
        } else {
            None
        },
        ..Default::default()
    })
}
