//! CreateTopics, DeleteTopics and CreatePartitions: the requests' checks
//! and answers. The changes themselves are `crate::topics`'.

use std::collections::BTreeMap;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::create_partitions_response::CreatePartitionsTopicResult;
use kafka_protocol::generated::create_topics_response::{
    CreatableTopicConfigs, CreatableTopicResult,
};
use kafka_protocol::generated::delete_topics_response::DeletableTopicResult;
use kafka_protocol::generated::{
    CreatePartitionsRequest, CreatePartitionsResponse, CreateTopicsRequest, CreateTopicsResponse,
    DeleteTopicsRequest, DeleteTopicsResponse,
};
use uuid::Uuid;

use crate::acl::{Authz, op};
use crate::shard::Shard;
use crate::topics::{
    ApiError, MAX_PARTITIONS, TopicSpec, add_partitions_on_single_node,
    create_topics as create_topics_now, delete_topic, fold_name, place_replicas, validate_configs,
    validate_topic_name,
};

/// What a CreateTopics entry asks for, after defaults are applied.
struct NewTopic {
    name: String,
    partitions: i32,
    configs: BTreeMap<String, String>,
    /// Cluster mode: each partition's replicas.
    replicas: Vec<Vec<i32>>,
}

fn check_new_topic(
    shard: &Shard,
    t: &kafka_protocol::generated::create_topics_request::CreatableTopic,
) -> Result<NewTopic, ApiError> {
    validate_topic_name(&t.name)?;
    let meta = shard.metadata();
    let (partitions, replicas) = if !t.assignments.is_empty() {
        if t.num_partitions != -1 || t.replication_factor != -1 {
            return Err((
                ErrorCode::InvalidRequest,
                "give either replica assignments or a partition count and replication factor, not both".into(),
            ));
        }
        let mut replicas = Vec::with_capacity(t.assignments.len());
        for (i, a) in t.assignments.iter().enumerate() {
            if a.partition_index != i as i32 {
                return Err((
                    ErrorCode::InvalidReplicaAssignment,
                    format!(
                        "assignments must cover partitions 0..{} in order",
                        t.assignments.len()
                    ),
                ));
            }
            check_assignment(shard, &a.broker_ids)?;
            replicas.push(a.broker_ids.clone());
        }
        if replicas.iter().any(|r| r.len() != replicas[0].len()) {
            return Err((
                ErrorCode::InvalidReplicaAssignment,
                "every partition must have the same number of replicas".into(),
            ));
        }
        (t.assignments.len() as i32, replicas)
    } else {
        let n = if t.num_partitions == -1 {
            meta.settings.i32("num.partitions")
        } else {
            t.num_partitions
        };
        if n <= 0 || n > MAX_PARTITIONS {
            return Err((
                ErrorCode::InvalidPartitions,
                format!("number of partitions must be between 1 and {MAX_PARTITIONS}, got {n}"),
            ));
        }
        (n, place_replicas(shard, 0, n, t.replication_factor)?)
    };
    let mut configs = BTreeMap::new();
    for c in &t.configs {
        let Some(v) = &c.value else {
            return Err((
                ErrorCode::InvalidConfig,
                format!("config '{}' has a null value", c.name),
            ));
        };
        configs.insert(c.name.clone(), v.clone());
    }
    validate_configs(&meta.settings, &configs)?;
    if let Some(existing) = meta.topic(&t.name) {
        return Err((
            ErrorCode::TopicAlreadyExists,
            format!("topic '{}' already exists", existing.name),
        ));
    }
    // Kafka refuses names that differ only by '.' versus '_' (they collide
    // in metric names).
    if let Some(other) = meta.folded_names.get(&fold_name(&t.name)) {
        return Err((
            ErrorCode::InvalidTopicException,
            format!("topic '{}' collides with existing topic '{other}'", t.name),
        ));
    }
    Ok(NewTopic {
        name: t.name.clone(),
        partitions,
        configs,
        replicas,
    })
}

/// Checks a manual replica assignment: known brokers, no repeats (on a
/// single node: only this broker).
fn check_assignment(shard: &Shard, ids: &[i32]) -> Result<(), ApiError> {
    let node = shard.ctx.config.node_id;
    if !shard.is_cluster() {
        if ids != [node] {
            return Err((
                ErrorCode::InvalidReplicaAssignment,
                format!("replicas {ids:?}: this cluster has only broker {node}"),
            ));
        }
        return Ok(());
    }
    let meta = shard.metadata();
    let mut seen = std::collections::BTreeSet::new();
    for id in ids {
        if !meta.brokers.contains_key(id) {
            return Err((
                ErrorCode::InvalidReplicaAssignment,
                format!("replicas {ids:?}: broker {id} is not registered"),
            ));
        }
        if !seen.insert(*id) {
            return Err((
                ErrorCode::InvalidReplicaAssignment,
                format!("replicas {ids:?}: broker {id} appears twice"),
            ));
        }
    }
    if ids.is_empty() {
        return Err((
            ErrorCode::InvalidReplicaAssignment,
            "a partition needs at least one replica".into(),
        ));
    }
    Ok(())
}

pub async fn create_topics(
    shard: &Rc<Shard>,
    req: CreateTopicsRequest,
    version: i16,
    authz: &Authz<'_>,
) -> CreateTopicsResponse {
    let cluster_create = authz.cluster(op::CREATE);
    // Kafka refuses every entry of a name given more than once (and
    // creates none of them).
    let mut counts = std::collections::HashMap::new();
    for t in &req.topics {
        *counts.entry(t.name.as_str()).or_insert(0) += 1;
    }
    type Created = (Uuid, i32, BTreeMap<String, String>, i16);
    let mut outcomes: Vec<Option<Result<Created, ApiError>>> = Vec::with_capacity(req.topics.len());
    // The entries to create, all at once (one metadata write and one
    // sync for the whole request), and where their results go.
    let mut specs = Vec::new();
    let mut slots = Vec::new();
    let mut folded_in_request = std::collections::HashMap::new();
    for (i, t) in req.topics.iter().enumerate() {
        if counts[t.name.as_str()] > 1 {
            outcomes.push(Some(Err((
                ErrorCode::InvalidRequest,
                format!("topic '{}' appears more than once in the request", t.name),
            ))));
            continue;
        }
        // CREATE on the cluster, or on the topic (a team may create only
        // its own prefix), before anything else is looked at.
        if !cluster_create && !authz.topic(op::CREATE, &t.name) {
            outcomes.push(Some(Err((
                ErrorCode::TopicAuthorizationFailed,
                "Authorization failed.".to_string(),
            ))));
            continue;
        }
        let outcome = match check_new_topic(shard, t) {
            Err(e) => Err(e),
            Ok(nt) => match folded_in_request.insert(fold_name(&nt.name), nt.name.clone()) {
                Some(other) => Err((
                    ErrorCode::InvalidTopicException,
                    format!(
                        "topic '{}' collides with topic '{other}' of the same request",
                        nt.name
                    ),
                )),
                None if req.validate_only => {
                    let rf = nt.replicas.first().map_or(1, |r| r.len() as i16);
                    Ok((Uuid::nil(), nt.partitions, nt.configs, rf))
                }
                None => {
                    specs.push(TopicSpec {
                        name: nt.name,
                        partitions: nt.partitions,
                        configs: nt.configs,
                        replicas: nt.replicas,
                    });
                    slots.push(i);
                    outcomes.push(None);
                    continue;
                }
            },
        };
        outcomes.push(Some(outcome));
    }
    for (slot, created) in slots.into_iter().zip(create_topics_now(shard, specs).await) {
        outcomes[slot] = Some(created.map(|m| {
            let rf = m.replication_factor();
            (m.id, m.partitions, m.configs, rf)
        }));
    }
    let mut results = Vec::with_capacity(req.topics.len());
    for (t, outcome) in req.topics.iter().zip(outcomes) {
        let mut r = CreatableTopicResult {
            name: t.name.clone(),
            ..Default::default()
        };
        let outcome = outcome.unwrap_or_else(|| {
            Err((
                ErrorCode::UnknownServerError,
                "topic was not created".into(),
            ))
        });
        match outcome {
            Ok((id, partitions, configs, rf)) => {
                r.topic_id = id;
                r.num_partitions = partitions;
                r.replication_factor = rf;
                if version >= 5 && !authz.topic(op::DESCRIBE_CONFIGS, &t.name) {
                    r.topic_config_error_code = ErrorCode::TopicAuthorizationFailed.code();
                } else if version >= 5 {
                    let settings = shard.metadata().settings.clone();
                    r.configs = Some(
                        crate::settings::TOPIC_CONFIGS
                            .iter()
                            .filter_map(|d| {
                                settings.topic_value(d.name, &configs).map(|(v, set)| {
                                    CreatableTopicConfigs {
                                        name: d.name.to_string(),
                                        value: Some(v),
                                        read_only: false,
                                        config_source: if set { 1 } else { 5 },
                                        is_sensitive: false,
                                        ..Default::default()
                                    }
                                })
                            })
                            .collect(),
                    );
                }
            }
            Err((code, msg)) => {
                r.error_code = code.code();
                r.error_message = Some(msg);
                r.num_partitions = -1;
                r.replication_factor = -1;
            }
        }
        results.push(r);
    }
    CreateTopicsResponse {
        topics: results,
        ..Default::default()
    }
}

pub async fn delete_topics(
    shard: &Rc<Shard>,
    req: DeleteTopicsRequest,
    version: i16,
    authz: &Authz<'_>,
) -> DeleteTopicsResponse {
    // v0-5 name topics in TopicNames; v6+ in Topics, by name or by id.
    let mut wanted: Vec<(Option<String>, Uuid)> = req
        .topic_names
        .iter()
        .map(|n| (Some(n.clone()), Uuid::nil()))
        .collect();
    if version >= 6 {
        wanted = req
            .topics
            .iter()
            .map(|t| (t.name.clone(), t.topic_id))
            .collect();
    }
    let mut responses = Vec::with_capacity(wanted.len());
    // `delete.topic.enable=false` (read-only, as in Kafka): nothing is
    // deleted; TOPIC_DELETION_DISABLED, or INVALID_REQUEST before v3.
    let disabled = !shard.metadata().settings.bool("delete.topic.enable");
    for (name, id) in wanted {
        let meta = shard.metadata();
        if disabled {
            let code = if version >= 3 {
                ErrorCode::TopicDeletionDisabled
            } else {
                ErrorCode::InvalidRequest
            };
            responses.push(DeletableTopicResult {
                name,
                topic_id: id,
                error_code: code.code(),
                error_message: Some("Topic deletion is disabled.".to_string()),
                ..Default::default()
            });
            continue;
        }
        let mut r = DeletableTopicResult {
            name: name.clone(),
            topic_id: id,
            ..Default::default()
        };
        let denied = || {
            (
                ErrorCode::TopicAuthorizationFailed,
                "Authorization failed.".to_string(),
            )
        };
        let target = match (&name, id.is_nil()) {
            (Some(n), _) if !authz.topic(op::DELETE, n) => Err(denied()),
            (None, false)
                if meta
                    .topic_by_id(&id)
                    .is_some_and(|t| !authz.topic(op::DELETE, &t.name)) =>
            {
                Err(denied())
            }
            (Some(n), _) => meta.topic(n).map(|t| t.name.clone()).ok_or_else(|| {
                (
                    ErrorCode::UnknownTopicOrPartition,
                    format!("topic '{n}' does not exist"),
                )
            }),
            (None, false) => meta
                .topic_by_id(&id)
                .map(|t| t.name.clone())
                .ok_or_else(|| (ErrorCode::UnknownTopicId, format!("no topic has id {id}"))),
            (None, true) => Err((
                ErrorCode::InvalidRequest,
                "neither a topic name nor an id".to_string(),
            )),
        };
        let target = target.and_then(|n| {
            if n == crate::groups::OFFSETS_TOPIC {
                Err((
                    ErrorCode::InvalidTopicException,
                    format!("internal topic {n} cannot be deleted"),
                ))
            } else {
                Ok(n)
            }
        });
        match target {
            Ok(n) => match delete_topic(shard, n).await {
                Ok(t) => {
                    r.name = Some(t.name);
                    r.topic_id = t.id;
                }
                Err((c, m)) => {
                    r.error_code = c.code();
                    r.error_message = Some(m);
                }
            },
            Err((c, m)) => {
                r.error_code = c.code();
                r.error_message = Some(m);
            }
        }
        responses.push(r);
    }
    DeleteTopicsResponse {
        responses,
        ..Default::default()
    }
}

pub async fn create_partitions(
    shard: &Rc<Shard>,
    req: CreatePartitionsRequest,
    authz: &Authz<'_>,
) -> CreatePartitionsResponse {
    let mut results = Vec::with_capacity(req.topics.len());
    for t in req.topics {
        let name = t.name.clone();
        if !authz.topic(op::ALTER, &name) {
            results.push(CreatePartitionsTopicResult {
                name,
                error_code: ErrorCode::TopicAuthorizationFailed.code(),
                error_message: Some("Authorization failed.".into()),
                ..Default::default()
            });
            continue;
        }
        let validate_only = req.validate_only;
        let outcome = shard
            .submit_to(0, move |s0| async move {
                let _guard = s0.admin_lock.lock().await;
                let meta = s0.metadata();
                let Some(cur) = meta.topic(&t.name).cloned() else {
                    return Err((
                        ErrorCode::UnknownTopicOrPartition,
                        format!("topic '{}' does not exist", t.name),
                    ));
                };
                if t.count <= cur.partitions {
                    return Err((
                        ErrorCode::InvalidPartitions,
                        format!(
                            "topic '{}' has {} partitions; the new count {} must be larger",
                            t.name, cur.partitions, t.count
                        ),
                    ));
                }
                if t.count > MAX_PARTITIONS {
                    return Err((
                        ErrorCode::InvalidPartitions,
                        format!("at most {MAX_PARTITIONS} partitions"),
                    ));
                }
                if let Some(a) = &t.assignments {
                    if a.len() as i32 != t.count - cur.partitions {
                        return Err((
                            ErrorCode::InvalidReplicaAssignment,
                            "one assignment per new partition is needed".into(),
                        ));
                    }
                    for x in a {
                        check_assignment(&s0, &x.broker_ids)?;
                        if s0.is_cluster() && x.broker_ids.len() as i16 != cur.replication_factor()
                        {
                            return Err((
                                ErrorCode::InvalidReplicaAssignment,
                                format!(
                                    "the topic has replication factor {}",
                                    cur.replication_factor()
                                ),
                            ));
                        }
                    }
                }
                let new_replicas = match &t.assignments {
                    Some(a) if s0.is_cluster() => a.iter().map(|x| x.broker_ids.clone()).collect(),
                    _ => place_replicas(
                        &s0,
                        cur.partitions,
                        t.count - cur.partitions,
                        cur.replication_factor(),
                    )?,
                };
                if validate_only {
                    return Ok(());
                }
                let mut updated = cur.clone();
                updated.partitions = t.count;
                if s0.is_cluster() {
                    updated.replicas.extend(new_replicas);
                    let c = s0.controller().ok_or((
                        ErrorCode::NotController,
                        "the controller is not running".to_string(),
                    ))?;
                    c.submit(crate::metadata::Command::UpdateTopic { topic: updated })
                        .await?;
                    return Ok(());
                }
                add_partitions_on_single_node(&s0, updated, cur.partitions).await
            })
            .await
            .unwrap_or_else(|_| {
                Err((
                    ErrorCode::KafkaStorageError,
                    "broker is shutting down".into(),
                ))
            });
        let mut r = CreatePartitionsTopicResult {
            name,
            ..Default::default()
        };
        if let Err((c, m)) = outcome {
            r.error_code = c.code();
            r.error_message = Some(m);
        }
        results.push(r);
    }
    CreatePartitionsResponse {
        results,
        ..Default::default()
    }
}
