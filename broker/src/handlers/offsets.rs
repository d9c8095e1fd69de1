//! OffsetCommit and OffsetFetch: committed offsets of groups, durable as
//! records of `__consumer_offsets` ([`crate::groups`]). Topics are checked
//! here against the metadata; the group checks and the append run on the
//! group's coordinator shard.

use std::collections::HashMap;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::offset_commit_response::{
    OffsetCommitResponsePartition, OffsetCommitResponseTopic,
};
use kafka_protocol::generated::offset_fetch_response::{
    OffsetFetchResponseGroup, OffsetFetchResponsePartition, OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic, OffsetFetchResponseTopics,
};
use kafka_protocol::generated::{
    OffsetCommitRequest, OffsetCommitResponse, OffsetFetchRequest, OffsetFetchResponse,
};
use uuid::Uuid;

use crate::acl::{Authz, op};
use crate::groups::group::Group;
use crate::groups::records::{self, OffsetValue};
use crate::groups::{self, coordinator};
use crate::partition::now_ms;
use crate::shard::Shard;

/// One partition's commit, checked against the metadata.
struct ToCommit {
    slot: (usize, usize),
    topic: String,
    partition: i32,
    value: OffsetValue,
}

pub async fn commit(
    shard: &Rc<Shard>,
    req: OffsetCommitRequest,
    version: i16,
    authz: &Authz<'_>,
) -> OffsetCommitResponse {
    let meta = shard.metadata();
    let max_metadata = groups::max_metadata_bytes(&meta.settings);
    let mut topics = Vec::with_capacity(req.topics.len());
    let mut todo = Vec::new();
    let group_error = if !authz.group(op::READ, &req.group_id) {
        Some(ErrorCode::GroupAuthorizationFailed)
    } else {
        req.group_id.is_empty().then_some(ErrorCode::InvalidGroupId)
    };
    for (ti, t) in req.topics.into_iter().enumerate() {
        let tm = if version >= 10 {
            meta.topic_by_id(&t.topic_id)
        } else {
            meta.topic(&t.name)
        };
        let unknown = if version >= 10 {
            ErrorCode::UnknownTopicId
        } else {
            ErrorCode::UnknownTopicOrPartition
        };
        // READ on the topic, checked before its existence when named.
        let topic_denied = match (version >= 10, tm) {
            (true, Some(tm)) => !authz.topic(op::READ, &tm.name),
            (true, None) => false,
            (false, _) => !authz.topic(op::READ, &t.name),
        };
        let mut tr = OffsetCommitResponseTopic {
            name: t.name.clone(),
            topic_id: t.topic_id,
            partitions: Vec::with_capacity(t.partitions.len()),
            ..Default::default()
        };
        for (pi, p) in t.partitions.into_iter().enumerate() {
            let code = match (group_error, tm) {
                (Some(c), _) => c,
                (None, _) if topic_denied => ErrorCode::TopicAuthorizationFailed,
                (None, None) => unknown,
                (None, Some(tm)) if p.partition_index < 0 || p.partition_index >= tm.partitions => {
                    ErrorCode::UnknownTopicOrPartition
                }
                (None, Some(_))
                    if p.committed_metadata
                        .as_ref()
                        .is_some_and(|m| m.len() > max_metadata) =>
                {
                    ErrorCode::OffsetMetadataTooLarge
                }
                (None, Some(tm)) => {
                    todo.push(ToCommit {
                        slot: (ti, pi),
                        topic: tm.name.clone(),
                        partition: p.partition_index,
                        value: OffsetValue {
                            offset: p.committed_offset,
                            leader_epoch: p.committed_leader_epoch,
                            metadata: p.committed_metadata.unwrap_or_default(),
                            commit_timestamp: now_ms(),
                        },
                    });
                    ErrorCode::None
                }
            };
            tr.partitions.push(OffsetCommitResponsePartition {
                partition_index: p.partition_index,
                error_code: code.code(),
                ..Default::default()
            });
        }
        topics.push(tr);
    }
    if !todo.is_empty() {
        let outcome = match groups::route(shard, &req.group_id).await {
            Err(code) => Err(code),
            Ok(route) => {
                let group_id = req.group_id.clone();
                let who = Committer {
                    member_id: req.member_id.clone(),
                    instance_id: req.group_instance_id.clone(),
                    generation: req.generation_id_or_member_epoch,
                    version,
                };
                let items: Vec<(String, i32, OffsetValue)> = todo
                    .iter()
                    .map(|c| (c.topic.clone(), c.partition, c.value.clone()))
                    .collect();
                shard
                    .submit_to(route.shard, move |s| async move {
                        commit_on_owner(&s, route, group_id, who, items).await
                    })
                    .await
                    .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
            }
        };
        if let Err(code) = outcome {
            for c in &todo {
                topics[c.slot.0].partitions[c.slot.1].error_code = code.code();
            }
        }
    }
    if version < 10 {
        for t in &mut topics {
            t.topic_id = Uuid::nil();
        }
    } else {
        for t in &mut topics {
            t.name.clear();
        }
    }
    OffsetCommitResponse {
        topics,
        ..Default::default()
    }
}

/// Who commits: the group checks depend on all of it (the version too,
/// since KIP-848 members must use OffsetCommit v9+).
struct Committer {
    member_id: String,
    instance_id: Option<String>,
    /// The generation (classic) or member epoch (consumer protocol).
    generation: i32,
    version: i16,
}

async fn commit_on_owner(
    s: &Rc<Shard>,
    route: groups::Route,
    group_id: String,
    who: Committer,
    items: Vec<(String, i32, OffsetValue)>,
) -> Result<(), ErrorCode> {
    let Committer {
        member_id,
        instance_id,
        generation,
        version,
    } = who;
    {
        let c = coordinator();
        let c = c.borrow();
        let classic_active = c
            .groups
            .get(&group_id)
            .is_some_and(|g| !g.members.is_empty());
        match (c.groups.get(&group_id), c.consumer_groups.get(&group_id)) {
            // A KIP-848 group: v9+ carries the member epoch.
            (_, Some(cg)) if !classic_active => {
                cg.validate_commit(&member_id, generation, version)?
            }
            (Some(g), _) => g.validate_commit(&member_id, instance_id.as_deref(), generation)?,
            // No group: only a consumer without membership may commit.
            (None, _) if generation < 0 => {}
            (None, _) => return Err(ErrorCode::IllegalGeneration),
        }
    }
    let recs = items
        .iter()
        .map(|(t, p, v)| {
            (
                records::offset_key(&group_id, t, *p),
                Some(records::offset_value(v)),
            )
        })
        .collect();
    // In flight from here (the record takes its log place at the append's
    // first poll, below) until applied: the expiry tick waits for it.
    let delay = groups::initial_delay(s);
    let keys: Vec<(String, i32)> = items.iter().map(|(t, p, _)| (t.clone(), *p)).collect();
    let c = coordinator();
    let incarnation = {
        let mut c = c.borrow_mut();
        let g = c
            .groups
            .entry(group_id.clone())
            .or_insert_with(|| Group::new(group_id.clone(), delay));
        g.begin_commit(&keys);
        g.incarnation
    };
    let appended = groups::append(s, route, recs).await;
    let mut c = c.borrow_mut();
    // The group was deleted meanwhile: its tombstones, after this record
    // in the log, cover these partitions too (see Group::offset_keys), so
    // the commit must not reach the group now carrying the id either.
    let Some(g) = c
        .groups
        .get_mut(&group_id)
        .filter(|g| g.incarnation == incarnation)
    else {
        return appended.map(|_| ());
    };
    g.end_commit(&keys);
    let base = appended?;
    for (i, (t, p, v)) in items.into_iter().enumerate() {
        g.apply_offset(t, p, Some(v), base + i as i64);
    }
    Ok(())
}

/// What one group's fetch asks for: `None` is every committed offset.
type Wanted = Option<Vec<(String, Vec<i32>)>>;

/// One partition's answer: committed offset or none.
type Found = Vec<(String, i32, Option<OffsetValue>)>;

/// Who fetches (v9+): a KIP-848 member names itself and its epoch.
type Fetcher = Option<(Option<String>, i32)>;

/// Partitions whose offset a transaction has committed but not yet ended
/// (answered UNSTABLE_OFFSET_COMMIT when the client asks `require_stable`).
type Unstable = std::collections::HashSet<(String, i32)>;

async fn fetch_group(
    shard: &Rc<Shard>,
    group_id: String,
    wanted: Wanted,
    who: Fetcher,
    require_stable: bool,
) -> Result<(Found, Unstable), ErrorCode> {
    if group_id.is_empty() {
        return Err(ErrorCode::InvalidGroupId);
    }
    let route = groups::route(shard, &group_id).await?;
    shard
        .submit_to(route.shard, move |_s| async move {
            let c = coordinator();
            let c = c.borrow();
            // A KIP-848 group checks the member and its epoch (Kafka's
            // ConsumerGroup.validateOffsetFetch); classic groups and
            // unknown groups accept any fetch.
            let classic_active = c
                .groups
                .get(&group_id)
                .is_some_and(|g| !g.members.is_empty());
            if let (Some(cg), Some((member_id, epoch)), false) =
                (c.consumer_groups.get(&group_id), &who, classic_active)
            {
                cg.validate_fetch(member_id.as_deref(), *epoch)?;
            }
            let g = c.groups.get(&group_id);
            let mut found = Vec::new();
            match wanted {
                None => {
                    if let Some(g) = g {
                        let mut all: Vec<_> = g.offsets.iter().collect();
                        all.sort_by(|a, b| a.0.cmp(b.0));
                        for ((t, p), v) in all {
                            found.push((t.clone(), *p, Some(v.value.clone())));
                        }
                    }
                }
                Some(topics) => {
                    for (t, parts) in topics {
                        for p in parts {
                            let v = g
                                .and_then(|g| g.offsets.get(&(t.clone(), p)))
                                .map(|c| c.value.clone());
                            found.push((t.clone(), p, v));
                        }
                    }
                }
            }
            let unstable = if require_stable {
                found
                    .iter()
                    .filter(|(t, p, _)| groups::txn_offsets::is_pending(&group_id, t, *p))
                    .map(|(t, p, _)| (t.clone(), *p))
                    .collect()
            } else {
                Unstable::new()
            };
            Ok((found, unstable))
        })
        .await
        .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
}

/// A topic's partitions and their committed offsets.
type TopicOffsets = (String, Vec<(i32, Option<OffsetValue>)>);

/// Groups `found` by topic, keeping first-seen order.
fn by_topic(found: Found) -> Vec<TopicOffsets> {
    let mut out: Vec<TopicOffsets> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (t, p, v) in found {
        let i = *index.entry(t.clone()).or_insert_with(|| {
            out.push((t, Vec::new()));
            out.len() - 1
        });
        out[i].1.push((p, v));
    }
    out
}

pub async fn fetch(
    shard: &Rc<Shard>,
    req: OffsetFetchRequest,
    version: i16,
    authz: &Authz<'_>,
) -> OffsetFetchResponse {
    // Topics the requester may not describe: named ones answer
    // TOPIC_AUTHORIZATION_FAILED, and "all topics" leaves them out.
    let topic_ok = |name: &str| authz.topic(op::DESCRIBE, name);
    // `require_stable` (v7+): a partition whose offset a transaction
    // committed but has not ended yet answers UNSTABLE_OFFSET_COMMIT
    // (retriable), as Kafka does.
    if version < 8 {
        let wanted = req.topics.map(|ts| {
            ts.into_iter()
                .map(|t| (t.name, t.partition_indexes))
                .collect::<Vec<_>>()
        });
        let mut resp = OffsetFetchResponse::default();
        let all = wanted.is_none();
        let outcome = if authz.group(op::DESCRIBE, &req.group_id) {
            fetch_group(
                shard,
                req.group_id,
                wanted.clone(),
                None,
                req.require_stable,
            )
            .await
        } else {
            Err(ErrorCode::GroupAuthorizationFailed)
        };
        match outcome {
            Ok((found, unstable)) => {
                resp.topics = by_topic(found)
                    .into_iter()
                    .filter(|(name, _)| !all || topic_ok(name))
                    .map(|(name, parts)| {
                        let denied = !topic_ok(&name);
                        let topic = name.clone();
                        OffsetFetchResponseTopic {
                            name,
                            partitions: parts
                                .into_iter()
                                .map(|(p, v)| {
                                    let unstable = unstable.contains(&(topic.clone(), p));
                                    let (offset, epoch, metadata) = match v {
                                        Some(v) if !denied && !unstable => {
                                            (v.offset, v.leader_epoch, v.metadata)
                                        }
                                        _ => (-1, -1, String::new()),
                                    };
                                    OffsetFetchResponsePartition {
                                        partition_index: p,
                                        committed_offset: offset,
                                        committed_leader_epoch: if version >= 5 {
                                            epoch
                                        } else {
                                            -1
                                        },
                                        metadata: Some(metadata),
                                        error_code: if denied {
                                            ErrorCode::TopicAuthorizationFailed.code()
                                        } else if unstable {
                                            ErrorCode::UnstableOffsetCommit.code()
                                        } else {
                                            0
                                        },
                                        ..Default::default()
                                    }
                                })
                                .collect(),
                            ..Default::default()
                        }
                    })
                    .collect();
            }
            Err(code) if version >= 2 => resp.error_code = code.code(),
            Err(code) => {
                // v1 has no top-level error: every partition carries it.
                resp.topics = wanted
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(name, parts)| OffsetFetchResponseTopic {
                        name,
                        partitions: parts
                            .into_iter()
                            .map(|p| OffsetFetchResponsePartition {
                                partition_index: p,
                                committed_offset: -1,
                                error_code: code.code(),
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect();
            }
        }
        return resp;
    }
    let meta = shard.metadata();
    let mut groups_out = Vec::with_capacity(req.groups.len());
    for g in req.groups {
        // v10 names topics by id: resolve, and answer unknown ids directly.
        let mut unknown_ids: Vec<(Uuid, Vec<i32>)> = Vec::new();
        let wanted = g.topics.map(|ts| {
            let mut w = Vec::new();
            for t in ts {
                if version >= 10 {
                    match meta.topic_by_id(&t.topic_id) {
                        Some(tm) => w.push((tm.name.clone(), t.partition_indexes)),
                        None => unknown_ids.push((t.topic_id, t.partition_indexes)),
                    }
                } else {
                    w.push((t.name, t.partition_indexes));
                }
            }
            w
        });
        let mut out = OffsetFetchResponseGroup {
            group_id: g.group_id.clone(),
            ..Default::default()
        };
        let who = (version >= 9).then(|| (g.member_id.clone(), g.member_epoch));
        let all = wanted.is_none();
        let outcome = if authz.group(op::DESCRIBE, &g.group_id) {
            fetch_group(shard, g.group_id, wanted, who, req.require_stable).await
        } else {
            Err(ErrorCode::GroupAuthorizationFailed)
        };
        match outcome {
            Err(code) => out.error_code = code.code(),
            Ok((found, unstable)) => {
                for (name, parts) in by_topic(found) {
                    let denied = !topic_ok(&name);
                    let topic = name.clone();
                    if denied && all {
                        continue;
                    }
                    let topic_id = meta.topic(&name).map(|t| t.id).unwrap_or_default();
                    if version >= 10 && topic_id.is_nil() {
                        // A deleted topic's offsets cannot be named by id.
                        continue;
                    }
                    out.topics.push(OffsetFetchResponseTopics {
                        name: if version >= 10 { String::new() } else { name },
                        topic_id: if version >= 10 { topic_id } else { Uuid::nil() },
                        partitions: parts
                            .into_iter()
                            .map(|(p, v)| {
                                let unstable = unstable.contains(&(topic.clone(), p));
                                let (offset, epoch, metadata) = match v {
                                    Some(v) if !denied && !unstable => {
                                        (v.offset, v.leader_epoch, v.metadata)
                                    }
                                    _ => (-1, -1, String::new()),
                                };
                                OffsetFetchResponsePartitions {
                                    partition_index: p,
                                    committed_offset: offset,
                                    committed_leader_epoch: epoch,
                                    metadata: Some(metadata),
                                    error_code: if denied {
                                        ErrorCode::TopicAuthorizationFailed.code()
                                    } else if unstable {
                                        ErrorCode::UnstableOffsetCommit.code()
                                    } else {
                                        0
                                    },
                                    ..Default::default()
                                }
                            })
                            .collect(),
                        ..Default::default()
                    });
                }
                for (id, parts) in unknown_ids {
                    out.topics.push(OffsetFetchResponseTopics {
                        topic_id: id,
                        partitions: parts
                            .into_iter()
                            .map(|p| OffsetFetchResponsePartitions {
                                partition_index: p,
                                committed_offset: -1,
                                error_code: ErrorCode::UnknownTopicId.code(),
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    });
                }
            }
        }
        groups_out.push(out);
    }
    OffsetFetchResponse {
        groups: groups_out,
        ..Default::default()
    }
}
