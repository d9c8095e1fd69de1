//! ListGroups, DescribeGroups, DeleteGroups, OffsetDelete: the admin view
//! of the groups ([`crate::groups`]), classic and KIP-848 ("consumer")
//! alike, as Kafka 4 answers: ListGroups lists both with their type,
//! DescribeGroups (a classic-group API) answers GROUP_ID_NOT_FOUND for a
//! consumer group ("is not a classic group", v6+; just "Dead" before), and
//! DeleteGroups refuses a consumer group with members (NON_EMPTY_GROUP).
//! ListGroups asks every shard (a group lives on the shard of its
//! `__consumer_offsets` partition); the others go to the group's
//! coordinator shard. Deletions remove the group
//! or offsets from memory first, then append tombstones, so a join racing
//! a delete finds a fresh group rather than a half-deleted one.

use std::rc::Rc;

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::generated::delete_groups_response::DeletableGroupResult;
use kafka_protocol::generated::describe_groups_response::{DescribedGroup, DescribedGroupMember};
use kafka_protocol::generated::list_groups_response::ListedGroup;
use kafka_protocol::generated::offset_delete_response::{
    OffsetDeleteResponsePartition, OffsetDeleteResponseTopic,
};
use kafka_protocol::generated::{
    DeleteGroupsRequest, DeleteGroupsResponse, DescribeGroupsRequest, DescribeGroupsResponse,
    ListGroupsRequest, ListGroupsResponse, OffsetDeleteRequest, OffsetDeleteResponse,
};

use crate::acl::{Authz, op};
use crate::groups::group::GroupState;
use crate::groups::{self, consumer_protocol, coordinator, records};
use crate::shard::Shard;

pub async fn list(
    shard: &Rc<Shard>,
    req: ListGroupsRequest,
    version: i16,
    authz: &Authz<'_>,
) -> ListGroupsResponse {
    // DESCRIBE on the cluster lists every group; otherwise only the
    // groups the requester may describe are listed (nothing is told of
    // the others).
    let all = authz.cluster(op::DESCRIBE);
    let mut groups = Vec::new();
    let mut error = ErrorCode::None;
    for target in 0..shard.shard_count() {
        let listed = shard
            .submit_to(
                target,
                |_s| async move { coordinator().borrow().listings() },
            )
            .await;
        match listed {
            Ok(l) => groups.extend(l),
            Err(_) => error = ErrorCode::CoordinatorNotAvailable,
        }
    }
    groups.sort();
    let states: Vec<String> = req.states_filter.iter().map(|s| s.to_lowercase()).collect();
    let types: Vec<String> = req.types_filter.iter().map(|s| s.to_lowercase()).collect();
    ListGroupsResponse {
        error_code: error.code(),
        groups: groups
            .into_iter()
            .filter(|g| states.is_empty() || states.contains(&g.state.to_lowercase()))
            .filter(|g| types.is_empty() || types.iter().any(|t| t == g.kind))
            .filter(|g| all || authz.group(op::DESCRIBE, &g.group))
            .map(|g| ListedGroup {
                group_id: g.group,
                protocol_type: g.protocol_type,
                group_state: if version >= 4 {
                    g.state.to_string()
                } else {
                    String::new()
                },
                group_type: if version >= 5 {
                    g.kind.to_string()
                } else {
                    String::new()
                },
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

fn described_error(group_id: String, code: ErrorCode, version: i16) -> DescribedGroup {
    DescribedGroup {
        error_code: code.code(),
        group_id,
        group_state: if code == ErrorCode::None {
            GroupState::Dead.name().into()
        } else {
            String::new()
        },
        error_message: (version >= 6 && code != ErrorCode::None)
            .then(|| code.message().to_string()),
        ..Default::default()
    }
}

pub async fn describe(
    shard: &Rc<Shard>,
    req: DescribeGroupsRequest,
    version: i16,
    authz: &Authz<'_>,
) -> DescribeGroupsResponse {
    let mut out = Vec::with_capacity(req.groups.len());
    for group_id in req.groups {
        if !authz.group(op::DESCRIBE, &group_id) {
            out.push(described_error(
                group_id,
                ErrorCode::GroupAuthorizationFailed,
                version,
            ));
            continue;
        }
        let ops = if req.include_authorized_operations && version >= 3 {
            authz.operations(crate::acl::resource::GROUP, &group_id)
        } else {
            crate::acl::request::OPERATIONS_NOT_REQUESTED
        };
        if group_id.is_empty() {
            out.push(described_error(
                group_id,
                ErrorCode::InvalidGroupId,
                version,
            ));
            continue;
        }
        let route = match groups::route(shard, &group_id).await {
            Ok(r) => r,
            Err(code) => {
                out.push(described_error(group_id, code, version));
                continue;
            }
        };
        let id = group_id.clone();
        let described = shard
            .submit_to(route.shard, move |_s| async move {
                let c = coordinator();
                let c = c.borrow();
                if c.is_consumer_group(&id) {
                    return Err(id);
                }
                let Some(g) = c.groups.get(&id) else {
                    return Ok(None);
                };
                let proto = g.protocol.clone().unwrap_or_default();
                // Member metadata and assignments only once a protocol is
                // chosen, as Kafka does.
                let with_data = matches!(
                    g.state,
                    GroupState::Stable | GroupState::CompletingRebalance
                );
                Ok(Some(DescribedGroup {
                    group_id: id,
                    group_state: g.state.name().to_string(),
                    protocol_type: g.protocol_type.clone().unwrap_or_default(),
                    protocol_data: if with_data {
                        proto.clone()
                    } else {
                        String::new()
                    },
                    members: g
                        .members
                        .iter()
                        .map(|m| DescribedGroupMember {
                            member_id: m.id.clone(),
                            group_instance_id: if version >= 4 {
                                m.instance_id.clone()
                            } else {
                                None
                            },
                            client_id: m.client_id.clone(),
                            client_host: m.client_host.clone(),
                            member_metadata: if with_data {
                                m.metadata_for(&proto)
                            } else {
                                Bytes::new()
                            },
                            member_assignment: if g.state == GroupState::Stable {
                                m.assignment.clone()
                            } else {
                                Bytes::new()
                            },
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }))
            })
            .await;
        out.push(match described {
            Ok(Ok(Some(d))) => DescribedGroup {
                authorized_operations: ops,
                ..d
            },
            // Kafka 4: a consumer group is not a classic group.
            Ok(Err(id)) => {
                let mut d = described_error(group_id, ErrorCode::GroupIdNotFound, version);
                d.group_state = GroupState::Dead.name().into();
                if version >= 6 {
                    d.error_message = Some(format!("Group {id} is not a classic group."));
                } else {
                    d.error_code = ErrorCode::None.code();
                }
                d
            }
            // Kafka: an unknown group is "Dead", and from v6 GROUP_ID_NOT_FOUND.
            Ok(Ok(None)) if version >= 6 => {
                described_error(group_id, ErrorCode::GroupIdNotFound, version)
            }
            Ok(Ok(None)) => described_error(group_id, ErrorCode::None, version),
            Err(_) => described_error(group_id, ErrorCode::CoordinatorNotAvailable, version),
        });
    }
    DescribeGroupsResponse {
        groups: out,
        ..Default::default()
    }
}

pub async fn delete(
    shard: &Rc<Shard>,
    req: DeleteGroupsRequest,
    authz: &Authz<'_>,
) -> DeleteGroupsResponse {
    let mut results = Vec::with_capacity(req.groups_names.len());
    for group_id in req.groups_names {
        let code = if !authz.group(op::DELETE, &group_id) {
            ErrorCode::GroupAuthorizationFailed
        } else if group_id.is_empty() {
            ErrorCode::InvalidGroupId
        } else {
            let share = crate::share::admin::delete_group(shard, &group_id).await;
            match groups::route(shard, &group_id).await {
                _ if share.is_some() => share.unwrap_or(ErrorCode::None),
                Err(code) => code,
                Ok(route) => {
                    let id = group_id.clone();
                    shard
                        .submit_to(route.shard, move |s| async move {
                            let tombstones = {
                                let c = coordinator();
                                let mut c = c.borrow_mut();
                                if c.is_consumer_group(&id) {
                                    // Kafka's ConsumerGroup.validateDeleteGroup.
                                    if c.consumer_groups
                                        .get(&id)
                                        .is_some_and(|g| !g.members.is_empty())
                                    {
                                        return ErrorCode::NonEmptyGroup;
                                    }
                                    let mut t: Vec<(Bytes, Option<Bytes>)> = Vec::new();
                                    if let Some(g) = c.groups.remove(&id) {
                                        t.extend(g.offset_keys().iter().map(|(topic, p)| {
                                            (records::offset_key(&id, topic, *p), None)
                                        }));
                                    }
                                    if let Some(g) = c.consumer_groups.remove(&id) {
                                        t.extend(
                                            g.tombstones()
                                                .iter()
                                                .map(|k| (records::consumer_key(&id, k), None)),
                                        );
                                    }
                                    t
                                } else {
                                    let Some(g) = c.groups.get(&id) else {
                                        return ErrorCode::GroupIdNotFound;
                                    };
                                    if g.state != GroupState::Empty {
                                        return ErrorCode::NonEmptyGroup;
                                    }
                                    let Some(g) = c.groups.remove(&id) else {
                                        return ErrorCode::GroupIdNotFound;
                                    };
                                    // Offsets in flight too: their records
                                    // precede these tombstones in the log.
                                    let mut t: Vec<(Bytes, Option<Bytes>)> = g
                                        .offset_keys()
                                        .iter()
                                        .map(|(topic, p)| {
                                            (records::offset_key(&id, topic, *p), None)
                                        })
                                        .collect();
                                    t.push((records::group_key(&id), None));
                                    t
                                }
                            };
                            if tombstones.is_empty() {
                                return ErrorCode::None;
                            }
                            match groups::append(&s, route, tombstones).await {
                                Ok(_) => ErrorCode::None,
                                Err(code) => code,
                            }
                        })
                        .await
                        .unwrap_or(ErrorCode::CoordinatorNotAvailable)
                }
            }
        };
        results.push(DeletableGroupResult {
            group_id,
            error_code: code.code(),
            ..Default::default()
        });
    }
    DeleteGroupsResponse {
        results,
        ..Default::default()
    }
}

pub async fn offset_delete(
    shard: &Rc<Shard>,
    req: OffsetDeleteRequest,
    authz: &Authz<'_>,
) -> OffsetDeleteResponse {
    if !authz.group(op::DELETE, &req.group_id) {
        return OffsetDeleteResponse {
            error_code: ErrorCode::GroupAuthorizationFailed.code(),
            ..Default::default()
        };
    }
    let meta = shard.metadata();
    // (topic, partition, error decided here or None).
    let mut asked: Vec<(String, i32, Option<ErrorCode>)> = Vec::new();
    for t in &req.topics {
        let tm = meta.topic(&t.name);
        let readable = authz.topic(op::READ, &t.name);
        for p in &t.partitions {
            let early = match tm {
                _ if !readable => Some(ErrorCode::TopicAuthorizationFailed),
                Some(tm) if p.partition_index >= 0 && p.partition_index < tm.partitions => None,
                _ => Some(ErrorCode::UnknownTopicOrPartition),
            };
            asked.push((t.name.clone(), p.partition_index, early));
        }
    }
    let outcome: Result<Vec<ErrorCode>, ErrorCode> = if req.group_id.is_empty() {
        Err(ErrorCode::InvalidGroupId)
    } else {
        match groups::route(shard, &req.group_id).await {
            Err(code) => Err(code),
            Ok(route) => {
                let id = req.group_id.clone();
                let asked = asked.clone();
                shard
                    .submit_to(route.shard, move |s| async move {
                        let (codes, tombstones) = {
                            let c = coordinator();
                            let mut c = c.borrow_mut();
                            // A KIP-848 group: any offset but those of
                            // subscribed topics (Kafka's
                            // ConsumerGroup.validateOffsetDelete accepts).
                            let consumer_subscribed = c.is_consumer_group(&id).then(|| {
                                let topics = consumer_protocol::topics_of(&s.metadata());
                                c.consumer_groups
                                    .get(&id)
                                    .map(|g| g.subscribed_topic_names(&topics))
                                    .unwrap_or_default()
                            });
                            if let Some(subscribed) = &consumer_subscribed
                                && !c.groups.contains_key(&id)
                            {
                                // No offsets at all: nothing to delete.
                                let codes = asked
                                    .iter()
                                    .map(|(topic, _, early)| match early {
                                        Some(code) => *code,
                                        None if subscribed.contains(topic) => {
                                            ErrorCode::GroupSubscribedToTopic
                                        }
                                        None => ErrorCode::None,
                                    })
                                    .collect();
                                return Ok(codes);
                            }
                            let Some(g) = c.groups.get_mut(&id) else {
                                return Err(ErrorCode::GroupIdNotFound);
                            };
                            let subscribed = if let Some(s) = consumer_subscribed {
                                Some(s.into_iter().collect())
                            } else if g.state == GroupState::Empty {
                                Some(Default::default())
                            } else if g.protocol_type.as_deref() == Some("consumer") {
                                g.subscribed_topics()
                            } else {
                                return Err(ErrorCode::NonEmptyGroup);
                            };
                            let mut codes = Vec::with_capacity(asked.len());
                            let mut tombstones = Vec::new();
                            for (topic, p, early) in asked {
                                if let Some(code) = early {
                                    codes.push(code);
                                } else if subscribed.as_ref().is_none_or(|s| s.contains(&topic)) {
                                    codes.push(ErrorCode::GroupSubscribedToTopic);
                                } else {
                                    if g.offsets.remove(&(topic.clone(), p)).is_some() {
                                        tombstones
                                            .push((records::offset_key(&id, &topic, p), None));
                                    }
                                    codes.push(ErrorCode::None);
                                }
                            }
                            (codes, tombstones)
                        };
                        if !tombstones.is_empty() {
                            groups::append(&s, route, tombstones).await?;
                        }
                        Ok(codes)
                    })
                    .await
                    .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
            }
        }
    };
    let mut resp = OffsetDeleteResponse::default();
    let codes = match outcome {
        Err(code) => {
            resp.error_code = code.code();
            return resp;
        }
        Ok(codes) => codes,
    };
    let mut i = 0;
    for t in req.topics {
        let mut tr = OffsetDeleteResponseTopic {
            name: t.name,
            ..Default::default()
        };
        for p in t.partitions {
            tr.partitions.push(OffsetDeleteResponsePartition {
                partition_index: p.partition_index,
                error_code: codes
                    .get(i)
                    .copied()
                    .unwrap_or(ErrorCode::UnknownServerError)
                    .code(),
                ..Default::default()
            });
            i += 1;
        }
        resp.topics.push(tr);
    }
    resp
}
