//! Topic lifecycle: CreateTopics, DeleteTopics, CreatePartitions, the
//! auto-creation used by Metadata, and live topic config changes.
//!
//! Every change runs on shard 0 under its admin lock: persist the new
//! metadata, open or remove the partitions on their owner shards, then hand
//! every shard the new snapshot, and only then answer.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

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
use tidemark_storage::{LogConfig, StorageError};
use uuid::Uuid;

use crate::metadata::TopicMeta;
use crate::partition::{Partition, log_dir};
use crate::settings::{Settings, validate_topic_config};
use crate::shard::{Shard, owner_shard};

/// A Kafka error with a message for the client.
pub type ApiError = (ErrorCode, String);

/// The error code and message of an outcome, as responses carry them.
pub fn code_and_message(outcome: Result<(), ApiError>) -> (i16, Option<String>) {
    match outcome {
        Ok(()) => (0, None),
        Err((c, m)) => (c.code(), Some(m)),
    }
}

/// The most partitions one topic may have (bounds a hostile request).
pub const MAX_PARTITIONS: i32 = 10_000;

/// Kafka's topic name rules.
pub fn validate_topic_name(name: &str) -> Result<(), ApiError> {
    let bad = |why: String| Err((ErrorCode::InvalidTopicException, why));
    if name.is_empty() {
        return bad("topic name is empty".into());
    }
    if name == "." || name == ".." {
        return bad(format!("topic name cannot be '{name}'"));
    }
    if name.len() > 249 {
        return bad(format!(
            "topic name is {} characters long; the limit is 249",
            name.len()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return bad(format!(
            "topic name '{name}' contains '{c}'; only ASCII letters, digits, '.', '_' and '-' are allowed"
        ));
    }
    Ok(())
}

/// Topic configs the storage layer applies (the rest are the broker's).
const STORAGE_CONFIGS: &[&str] = &[
    "cleanup.policy",
    "retention.ms",
    "retention.bytes",
    "segment.bytes",
    "segment.ms",
    "max.message.bytes",
    "delete.retention.ms",
    "min.cleanable.dirty.ratio",
];

/// The storage configuration of a topic's logs.
pub fn log_config(
    settings: &Settings,
    overrides: &BTreeMap<String, String>,
) -> Result<LogConfig, ApiError> {
    let effective = settings.effective_topic_configs(overrides);
    let props = effective
        .iter()
        .filter(|(k, _)| STORAGE_CONFIGS.contains(&k.as_str()))
        .map(|(k, v)| (k.as_str(), v.as_str()));
    LogConfig::default()
        .with_props(props)
        .map_err(|e| (ErrorCode::InvalidConfig, e.to_string()))
}

fn uses_log_append_time(settings: &Settings, overrides: &BTreeMap<String, String>) -> bool {
    settings
        .topic_value("message.timestamp.type", overrides)
        .is_some_and(|(v, _)| v == "LogAppendTime")
}

/// Opens partition `p` of `t` on this shard (its owner).
pub async fn open_partition(shard: &Rc<Shard>, t: &TopicMeta, p: i32) -> Result<(), StorageError> {
    let meta = shard.metadata();
    let config =
        log_config(&meta.settings, &t.configs).map_err(|(_, m)| StorageError::Failed(m))?;
    let lat = uses_log_append_time(&meta.settings, &t.configs);
    let node = shard.ctx.config.node_id;
    // A replica that a reassignment adds joins the partition's Raft group
    // as a learner (no voters of its own: initializing a group itself would
    // write a membership entry that collides with the existing group's);
    // the leader adds it and sends it the log.
    let current = t.replicas_of(p, node);
    let voters = if current.contains(&node) {
        current
    } else {
        Vec::new()
    };
    let part = Partition::open(
        &shard.ctx.config.data_dir,
        node,
        &t.name,
        t.id,
        p,
        config,
        lat,
        &voters,
        shard.net(),
        meta.settings
            .topic_value("min.insync.replicas", &t.configs)
            .and_then(|(v, _)| v.parse().ok())
            .unwrap_or(1),
    )
    .await?;
    let epoch = part.leader_epoch();
    let leader = part.leader_id();
    shard
        .partitions
        .borrow_mut()
        .insert((t.id, p), Rc::new(part));
    if shard.is_cluster() {
        shard.announce_leader((t.id, p), leader.map(|l| (l, epoch)));
    } else {
        shard.announce_leader_epoch((t.id, p), Some(epoch));
    }
    Ok(())
}

/// Closes this shard's replica of a deleted topic's partition and removes
/// its folder.
pub async fn remove_partition(s: &Rc<Shard>, topic: &str, id: Uuid, p: i32) {
    let part = s.partitions.borrow_mut().remove(&(id, p));
    if let Some(part) = part {
        let _ = part.close().await;
        s.announce_leader_epoch((id, p), None);
        if s.is_cluster() {
            s.announce_leader((id, p), None);
        }
        part.new_data.notify_all();
    }
    let dir = log_dir(&s.ctx.config.data_dir, topic, id, p);
    if let Err(e) = std::fs::remove_dir_all(&dir)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        tracing::error!(dir = %dir.display(), error = %e, "cannot remove a deleted partition's log");
    }
}

/// Hands every shard the current snapshot (run on shard 0).
pub async fn publish(s0: &Rc<Shard>) {
    let Some(snapshot) = s0.with_store(|st| Arc::new(st.snapshot())) else {
        return;
    };
    for i in 0..s0.shard_count() {
        let snap = snapshot.clone();
        let _ = s0
            .submit_to(i, move |s| async move { s.set_metadata(snap) })
            .await;
    }
}

/// Validates a topic's config overrides.
pub fn validate_configs(
    settings: &Settings,
    configs: &BTreeMap<String, String>,
) -> Result<(), ApiError> {
    for (k, v) in configs {
        validate_topic_config(k, v).map_err(|e| (ErrorCode::InvalidConfig, e.to_string()))?;
    }
    log_config(settings, configs).map(|_| ())
}

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
    let folded = t.name.replace('.', "_");
    if let Some(other) = meta.topics.keys().find(|n| n.replace('.', "_") == folded) {
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

/// The replication factor asked for, or the default: the setting
/// `default.replication.factor` if set above 1, else (in a cluster)
/// min(3, brokers), so that a three-broker cluster replicates by default.
fn replication_factor(shard: &Shard, asked: i16) -> i16 {
    if asked != -1 {
        return asked;
    }
    let meta = shard.metadata();
    let setting = meta.settings.i32("default.replication.factor") as i16;
    if shard.is_cluster() && setting <= 1 {
        meta.brokers.len().clamp(1, 3) as i16
    } else {
        setting
    }
}

/// Replicas for `count` new partitions from `first` (rack-aware, leaders
/// spread, on unfenced brokers only; empty on a single node).
pub fn place_replicas(
    shard: &Shard,
    first: i32,
    count: i32,
    asked_rf: i16,
) -> Result<Vec<Vec<i32>>, ApiError> {
    let rf = replication_factor(shard, asked_rf);
    if rf <= 0 {
        return Err((
            ErrorCode::InvalidReplicationFactor,
            format!("replication factor must be positive, got {rf}"),
        ));
    }
    if !shard.is_cluster() {
        if rf > 1 {
            return Err((
                ErrorCode::InvalidReplicationFactor,
                format!("replication factor {rf} is larger than the 1 available broker"),
            ));
        }
        return Ok(Vec::new());
    }
    // As Kafka: only unfenced brokers take new replicas (a replica placed
    // on a broker that is down would start under-replicated, and its
    // partition would have no leader at all if every replica were).
    let meta = shard.metadata();
    let brokers: Vec<(i32, Option<String>)> = meta
        .brokers
        .values()
        .filter(|b| !b.fenced)
        .map(|b| (b.id, b.rack.clone()))
        .collect();
    let start = (Uuid::new_v4().as_u128() >> 64) as usize;
    crate::cluster::placement::assign(&brokers, first, count, rf as usize, start).ok_or_else(|| {
        let fenced = meta.brokers.len() - brokers.len();
        (
            ErrorCode::InvalidReplicationFactor,
            format!(
                "replication factor {rf} cannot be reached: only {} broker(s) are registered and unfenced ({fenced} fenced)",
                brokers.len()
            ),
        )
    })
}

/// Creates a topic (any shard; runs on shard 0). `replicas`: each
/// partition's replicas in a cluster (empty on a single node).
pub async fn create_topic(
    shard: &Rc<Shard>,
    name: String,
    partitions: i32,
    configs: BTreeMap<String, String>,
    replicas: Vec<Vec<i32>>,
) -> Result<TopicMeta, ApiError> {
    if shard.is_cluster() {
        let topic = TopicMeta {
            name: name.clone(),
            id: Uuid::new_v4(),
            partitions,
            configs,
            replicas,
            reassignments: BTreeMap::new(),
        };
        crate::cluster::controller::submit(
            shard,
            crate::metadata::Command::CreateTopic {
                topic: topic.clone(),
            },
        )
        .await?;
        tracing::info!(topic = %topic.name, id = %topic.id, partitions, "topic created");
        return Ok(topic);
    }
    let r = shard
        .submit_to(0, move |s0| async move {
            let _guard = s0.admin_lock.lock().await;
            if let Some(t) = s0.metadata().topic(&name) {
                return Err((ErrorCode::TopicAlreadyExists, format!("topic '{}' already exists", t.name)));
            }
            let t = s0
                .with_store(|st| st.add_topic(&name, partitions, configs))
                .ok_or((ErrorCode::NotController, "metadata store is not on this shard".to_string()))?
                .map_err(|e| (ErrorCode::KafkaStorageError, e.to_string()))?;
            // The new snapshot first (so owner shards see the topic's
            // configs), then the partitions, then answer.
            publish(&s0).await;
            for p in 0..t.partitions {
                let owner = owner_shard(t.id, p, s0.shard_count());
                let tt = t.clone();
                let opened = s0
                    .submit_to(owner, move |s| async move { open_partition(&s, &tt, p).await.map_err(|e| e.to_string()) })
                    .await;
                if let Err(e) | Ok(Err(e)) = opened.map_err(|e| e.to_string()) {
                    tracing::error!(topic = %t.name, partition = p, error = %e, "cannot open a new partition");
                    return Err((ErrorCode::KafkaStorageError, format!("cannot open partition {p}: {e}")));
                }
            }
            tracing::info!(topic = %t.name, id = %t.id, partitions = t.partitions, "topic created");
            Ok(t)
        })
        .await;
    r.unwrap_or_else(|_| {
        Err((
            ErrorCode::KafkaStorageError,
            "broker is shutting down".into(),
        ))
    })
}

/// Auto-creates `name` with the broker defaults if allowed and needed.
pub async fn auto_create(shard: &Rc<Shard>, name: &str) -> Result<TopicMeta, ApiError> {
    validate_topic_name(name)?;
    let n = shard.metadata().settings.i32("num.partitions");
    let replicas = place_replicas(shard, 0, n, -1)?;
    match create_topic(shard, name.to_string(), n, BTreeMap::new(), replicas).await {
        Err((ErrorCode::TopicAlreadyExists, _)) => shard.metadata().topic(name).cloned().ok_or((
            ErrorCode::UnknownTopicOrPartition,
            format!("topic '{name}' vanished"),
        )),
        other => other,
    }
}

pub async fn create_topics(
    shard: &Rc<Shard>,
    req: CreateTopicsRequest,
    version: i16,
) -> CreateTopicsResponse {
    let mut results = Vec::with_capacity(req.topics.len());
    // Kafka refuses every entry of a name given more than once (and
    // creates none of them).
    let mut counts = std::collections::HashMap::new();
    for t in &req.topics {
        *counts.entry(t.name.as_str()).or_insert(0) += 1;
    }
    for t in &req.topics {
        let mut r = CreatableTopicResult {
            name: t.name.clone(),
            ..Default::default()
        };
        if counts[t.name.as_str()] > 1 {
            r.num_partitions = -1;
            r.replication_factor = -1;
            r.error_code = ErrorCode::InvalidRequest.code();
            r.error_message = Some(format!(
                "topic '{}' appears more than once in the request",
                t.name
            ));
            results.push(r);
            continue;
        }
        let outcome = match check_new_topic(shard, t) {
            Err(e) => Err(e),
            Ok(nt) if req.validate_only => {
                let rf = nt.replicas.first().map_or(1, |r| r.len() as i16);
                Ok((Uuid::nil(), nt.partitions, nt.configs, rf))
            }
            Ok(nt) => create_topic(shard, nt.name, nt.partitions, nt.configs, nt.replicas)
                .await
                .map(|m| {
                    let rf = m.replication_factor();
                    (m.id, m.partitions, m.configs, rf)
                }),
        };
        match outcome {
            Ok((id, partitions, configs, rf)) => {
                r.topic_id = id;
                r.num_partitions = partitions;
                r.replication_factor = rf;
                if version >= 5 {
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

/// Deletes a topic: metadata first (so no new request reaches it), then
/// its logs on their owner shards.
pub async fn delete_topic(shard: &Rc<Shard>, name: String) -> Result<TopicMeta, ApiError> {
    if shard.is_cluster() {
        let t = shard.metadata().topic(&name).cloned().ok_or_else(|| {
            (
                ErrorCode::UnknownTopicOrPartition,
                format!("topic '{name}' does not exist"),
            )
        })?;
        crate::cluster::controller::submit(shard, crate::metadata::Command::DeleteTopic { name })
            .await?;
        tracing::info!(topic = %t.name, id = %t.id, "topic deleted");
        return Ok(t);
    }
    let r = shard
        .submit_to(0, move |s0| async move {
            let _guard = s0.admin_lock.lock().await;
            let removed = s0
                .with_store(|st| st.remove_topic(&name))
                .ok_or((
                    ErrorCode::NotController,
                    "metadata store is not on this shard".to_string(),
                ))?
                .map_err(|e| (ErrorCode::KafkaStorageError, e.to_string()))?;
            let Some(t) = removed else {
                return Err((
                    ErrorCode::UnknownTopicOrPartition,
                    format!("topic '{name}' does not exist"),
                ));
            };
            publish(&s0).await;
            for p in 0..t.partitions {
                let owner = owner_shard(t.id, p, s0.shard_count());
                let (id, tname) = (t.id, t.name.clone());
                let _ = s0
                    .submit_to(owner, move |s| async move {
                        remove_partition(&s, &tname, id, p).await;
                    })
                    .await;
            }
            tracing::info!(topic = %t.name, id = %t.id, "topic deleted");
            Ok(t)
        })
        .await;
    r.unwrap_or_else(|_| {
        Err((
            ErrorCode::KafkaStorageError,
            "broker is shutting down".into(),
        ))
    })
}

pub async fn delete_topics(
    shard: &Rc<Shard>,
    req: DeleteTopicsRequest,
    version: i16,
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
    for (name, id) in wanted {
        let meta = shard.metadata();
        let mut r = DeletableTopicResult {
            name: name.clone(),
            topic_id: id,
            ..Default::default()
        };
        let target = match (&name, id.is_nil()) {
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
) -> CreatePartitionsResponse {
    let mut results = Vec::with_capacity(req.topics.len());
    for t in req.topics {
        let name = t.name.clone();
        let node = shard.ctx.config.node_id;
        let validate_only = req.validate_only;
        let outcome = shard
            .submit_to(0, move |s0| async move {
                let _guard = s0.admin_lock.lock().await;
                let meta = s0.metadata();
                let Some(cur) = meta.topic(&t.name).cloned() else {
                    return Err((ErrorCode::UnknownTopicOrPartition, format!("topic '{}' does not exist", t.name)));
                };
                if t.count <= cur.partitions {
                    return Err((
                        ErrorCode::InvalidPartitions,
                        format!("topic '{}' has {} partitions; the new count {} must be larger", t.name, cur.partitions, t.count),
                    ));
                }
                if t.count > MAX_PARTITIONS {
                    return Err((ErrorCode::InvalidPartitions, format!("at most {MAX_PARTITIONS} partitions")));
                }
                if let Some(a) = &t.assignments {
                    if a.len() as i32 != t.count - cur.partitions {
                        return Err((ErrorCode::InvalidReplicaAssignment, "one assignment per new partition is needed".into()));
                    }
                    for x in a {
                        check_assignment(&s0, &x.broker_ids)?;
                        if s0.is_cluster() && x.broker_ids.len() as i16 != cur.replication_factor() {
                            return Err((ErrorCode::InvalidReplicaAssignment, format!("the topic has replication factor {}", cur.replication_factor())));
                        }
                    }
                }
                let new_replicas = match &t.assignments {
                    Some(a) if s0.is_cluster() => a.iter().map(|x| x.broker_ids.clone()).collect(),
                    _ => place_replicas(&s0, cur.partitions, t.count - cur.partitions, cur.replication_factor())?,
                };
                let _ = node;
                if validate_only {
                    return Ok(());
                }
                let mut updated = cur.clone();
                updated.partitions = t.count;
                if s0.is_cluster() {
                    updated.replicas.extend(new_replicas);
                    let c = s0.controller().ok_or((ErrorCode::NotController, "the controller is not running".to_string()))?;
                    c.submit(crate::metadata::Command::UpdateTopic { topic: updated }).await?;
                    return Ok(());
                }
                s0.with_store(|st| st.update_topic(updated.clone()))
                    .ok_or((ErrorCode::NotController, "no metadata store".to_string()))?
                    .map_err(|e| (ErrorCode::KafkaStorageError, e.to_string()))?;
                publish(&s0).await;
                for p in cur.partitions..t.count {
                    let owner = owner_shard(updated.id, p, s0.shard_count());
                    let tt = updated.clone();
                    let _ = s0
                        .submit_to(owner, move |s| async move {
                            if let Err(e) = open_partition(&s, &tt, p).await {
                                tracing::error!(topic = %tt.name, partition = p, error = %e, "cannot open a new partition");
                            }
                        })
                        .await;
                }
                Ok(())
            })
            .await
            .unwrap_or_else(|_| Err((ErrorCode::KafkaStorageError, "broker is shutting down".into())));
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

/// Applies changed topic configs to a topic's partitions (run on shard 0
/// after the metadata changed).
pub async fn reconfigure_topic(s0: &Rc<Shard>, t: &TopicMeta) {
    for p in 0..t.partitions {
        let owner = owner_shard(t.id, p, s0.shard_count());
        let tt = t.clone();
        let _ = s0
            .submit_to(owner, move |s| async move {
                // The log is reopened with its new configuration (a
                // recovery pass over the tail; requests in between get a
                // retriable NOT_LEADER_OR_FOLLOWER).
                let old = s.partitions.borrow_mut().remove(&(tt.id, p));
                if let Some(old) = old {
                    if let Err(e) = old.close().await {
                        tracing::error!(topic = %tt.name, partition = p, error = %e, "closing for reconfiguration failed");
                    }
                    if let Err(e) = open_partition(&s, &tt, p).await {
                        tracing::error!(topic = %tt.name, partition = p, error = %e, "reopening with new configs failed");
                    }
                    old.new_data.notify_all();
                }
            })
            .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_names() {
        assert!(validate_topic_name("orders.v1_x-2").is_ok());
        assert!(validate_topic_name("").is_err());
        assert!(validate_topic_name("..").is_err());
        assert!(validate_topic_name("a b").is_err());
        assert!(validate_topic_name(&"a".repeat(250)).is_err());
        assert!(validate_topic_name(&"a".repeat(249)).is_ok());
    }
}
