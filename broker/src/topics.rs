//! Topic and partition lifecycle: creating and deleting topics, opening,
//! reconfiguring and removing this broker's partition replicas, and the
//! checks every path shares (topic names, configs, replica placement).
//!
//! The request handlers (CreateTopics, DeleteTopics, CreatePartitions,
//! configs, Metadata's auto-creation), the controller's reconcile and the
//! group coordinator (which creates `__consumer_offsets`) all call this
//! module; it calls none of them.
//!
//! Single node: every change runs on shard 0 under its admin lock. A
//! creation opens the partitions first and writes the metadata last (see
//! [`create_topics`]); a deletion writes the metadata first (so no new
//! request reaches the topic), then removes the partitions. Each hands
//! every shard the new snapshot before it answers.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use kafka_protocol::ErrorCode;
use tidemark_raft::OpenOptions;
use tidemark_storage::{LogConfig, StorageError};
use uuid::Uuid;

use crate::metadata::TopicMeta;
use crate::partition::{Partition, log_dir};
use crate::settings::{Settings, validate_topic_config};
use crate::shard::{Shard, owner_shard};
use kafka_protocol::records::Compression;

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

/// A topic name with '.' folded to '_': Kafka refuses a topic whose
/// folded name equals another's (they collide in metric names).
pub fn fold_name(name: &str) -> String {
    name.replace('.', "_")
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
    "min.compaction.lag.ms",
    "max.compaction.lag.ms",
    "segment.jitter.ms",
    "index.interval.bytes",
    "preallocate",
];

/// A topic config's value as the storage layer takes it: Kafka's values
/// that mean the same as one the storage layer names otherwise.
fn storage_value<'a>(name: &str, value: &'a str) -> &'a str {
    match name {
        // Any negative retention.bytes is unlimited (Kafka bounds it not).
        "retention.bytes" if value.trim().starts_with('-') => "-1",
        // 0: an index entry for every batch.
        "index.interval.bytes" if value.trim() == "0" => "1",
        _ => value,
    }
}

/// The storage configuration of a topic's logs.
pub fn log_config(
    settings: &Settings,
    overrides: &BTreeMap<String, String>,
) -> Result<LogConfig, ApiError> {
    let effective = settings.effective_topic_configs(overrides);
    // `internal.segment.bytes`, when a topic sets it, replaces
    // segment.bytes (Kafka's `LogConfig.segmentSize`): it comes last.
    let internal_segment_bytes = overrides
        .get("internal.segment.bytes")
        .map(|v| ("segment.bytes", v.as_str()));
    let props = effective
        .iter()
        .filter(|(k, _)| STORAGE_CONFIGS.contains(&k.as_str()))
        .map(|(k, v)| (k.as_str(), storage_value(k, v)))
        .chain(internal_segment_bytes);
    LogConfig::default()
        .with_props(props)
        .map_err(|e| (ErrorCode::InvalidConfig, e.to_string()))
}

fn uses_log_append_time(settings: &Settings, overrides: &BTreeMap<String, String>) -> bool {
    settings
        .topic_value("message.timestamp.type", overrides)
        .is_some_and(|(v, _)| v == "LogAppendTime")
}

/// `message.timestamp.before.max.ms` and `message.timestamp.after.max.ms`
/// in force for a topic (validated as longs >= 0 when set).
fn timestamp_bounds(settings: &Settings, overrides: &BTreeMap<String, String>) -> (i64, i64) {
    let get = |name: &str| {
        settings
            .topic_value(name, overrides)
            .and_then(|(v, _)| v.trim().parse::<i64>().ok())
            .unwrap_or(i64::MAX)
    };
    (
        get("message.timestamp.before.max.ms"),
        get("message.timestamp.after.max.ms"),
    )
}

/// The codec `compression.type` asks client batches to be stored in, with
/// its level (`None`: `producer`, batches are kept as sent).
fn compression_target(
    settings: &Settings,
    overrides: &BTreeMap<String, String>,
) -> Option<(Compression, Option<i32>)> {
    let value = |name: &str| settings.topic_value(name, overrides).map(|(v, _)| v);
    let level = |name: &str| value(name).and_then(|v| v.trim().parse::<i32>().ok());
    // Validated against Kafka's exact (case-sensitive) names.
    let codec = match value("compression.type")?.trim() {
        "uncompressed" => Compression::None,
        "gzip" => Compression::Gzip,
        "snappy" => Compression::Snappy,
        "lz4" => Compression::Lz4,
        "zstd" => Compression::Zstd,
        _ => return None,
    };
    let level = match codec {
        Compression::Gzip => level("compression.gzip.level").filter(|&l| l != -1),
        Compression::Zstd => level("compression.zstd.level"),
        _ => None,
    };
    Some((codec, level))
}

/// Opens partition `p` of `t` on this shard (its owner).
pub async fn open_partition(shard: &Rc<Shard>, t: &TopicMeta, p: i32) -> Result<(), StorageError> {
    open_partition_with(shard, t, p, OpenOptions::default()).await
}

/// [`open_partition`] with [`OpenOptions`] (a batch of new partitions).
pub async fn open_partition_with(
    shard: &Rc<Shard>,
    t: &TopicMeta,
    p: i32,
    opts: OpenOptions,
) -> Result<(), StorageError> {
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
        opts,
    )
    .await?;
    let (before, after) = timestamp_bounds(&meta.settings, &t.configs);
    part.set_timestamp_bounds(before, after);
    part.set_compression(compression_target(&meta.settings, &t.configs));
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
    crate::settings::validate_topic_combination(settings, configs)
        .map_err(|e| (ErrorCode::InvalidConfig, e.to_string()))?;
    log_config(settings, configs).map(|_| ())
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
    // partition would have no leader at all if every replica were); nor
    // does a broker being decommissioned.
    let meta = shard.metadata();
    let brokers: Vec<(i32, Option<String>)> = meta
        .brokers
        .values()
        .filter(|b| !b.fenced && !b.decommissioning)
        .map(|b| (b.id, b.rack.clone()))
        .collect();
    // Kafka's placer accepts a replication factor above the number of
    // racks silently (some racks then hold two replicas); a zone loss can
    // then take a majority, so say so.
    let racks: std::collections::BTreeSet<&String> =
        brokers.iter().filter_map(|(_, r)| r.as_ref()).collect();
    if !racks.is_empty() && rf as usize > racks.len() {
        tracing::warn!(
            replication_factor = rf,
            racks = racks.len(),
            "replication factor above the number of racks: some partitions get two replicas in one rack, and losing that rack can cost them their majority"
        );
    }
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

/// A topic to create, after defaults are applied.
#[derive(Debug, Clone)]
pub struct TopicSpec {
    pub name: String,
    pub partitions: i32,
    pub configs: BTreeMap<String, String>,
    /// Cluster mode: each partition's replicas (empty on a single node).
    pub replicas: Vec<Vec<i32>>,
}

/// Creates a topic (any shard). See [`create_topics`].
pub async fn create_topic(
    shard: &Rc<Shard>,
    name: String,
    partitions: i32,
    configs: BTreeMap<String, String>,
    replicas: Vec<Vec<i32>>,
) -> Result<TopicMeta, ApiError> {
    let spec = TopicSpec {
        name,
        partitions,
        configs,
        replicas,
    };
    create_topics(shard, vec![spec])
        .await
        .pop()
        .unwrap_or_else(|| Err((ErrorCode::UnknownServerError, "no result".into())))
}

/// Creates topics (any shard): one result per spec, in order. A cluster
/// records them all in one controller command ([`create_in_cluster`]:
/// every broker then opens its replicas); a single node creates them all
/// at once on shard 0 ([`create_on_single_node`]).
pub async fn create_topics(
    shard: &Rc<Shard>,
    specs: Vec<TopicSpec>,
) -> Vec<Result<TopicMeta, ApiError>> {
    if shard.is_cluster() {
        return create_in_cluster(shard, specs).await;
    }
    let n = specs.len();
    shard
        .submit_to(0, move |s0| async move {
            create_on_single_node(&s0, specs).await
        })
        .await
        .unwrap_or_else(|_| {
            (0..n)
                .map(|_| {
                    Err((
                        ErrorCode::KafkaStorageError,
                        "broker is shutting down".into(),
                    ))
                })
                .collect()
        })
}

/// Creates topics in a cluster: the whole request is one controller
/// command (`Command::CreateTopics`, one commit), whose outcome says which
/// topics were refused; every broker then opens its replicas.
async fn create_in_cluster(
    shard: &Rc<Shard>,
    specs: Vec<TopicSpec>,
) -> Vec<Result<TopicMeta, ApiError>> {
    if specs.is_empty() {
        return Vec::new();
    }
    let topics: Vec<TopicMeta> = specs
        .into_iter()
        .map(|spec| TopicMeta {
            name: spec.name,
            id: Uuid::new_v4(),
            partitions: spec.partitions,
            configs: spec.configs,
            replicas: spec.replicas,
            reassignments: BTreeMap::new(),
        })
        .collect();
    let cmd = crate::metadata::Command::CreateTopics {
        topics: topics.clone(),
    };
    let refused = match crate::cluster::controller::submit(shard, cmd).await {
        Ok(crate::metadata::Outcome::Created { refused }) if refused.len() == topics.len() => {
            refused
        }
        Ok(other) => {
            let e = (
                ErrorCode::UnknownServerError,
                format!("unexpected outcome of a topic creation: {other:?}"),
            );
            return topics.iter().map(|_| Err(e.clone())).collect();
        }
        Err(e) => return topics.iter().map(|_| Err(e.clone())).collect(),
    };
    topics
        .into_iter()
        .zip(refused)
        .map(|(topic, refused)| match refused {
            None => {
                tracing::info!(topic = %topic.name, id = %topic.id, partitions = topic.partitions, "topic created");
                Ok(topic)
            }
            Some(r) => Err((
                ErrorCode::from_code(r.code).unwrap_or(ErrorCode::UnknownServerError),
                r.message,
            )),
        })
        .collect()
}

/// Creates topics on a single node (on shard 0, under the admin lock):
/// every new partition is opened on its owner shard, all shards at once,
/// without an fsync per file and asleep (`OpenOptions`); one syncfs then
/// makes all of them durable; only then is the metadata written, once for
/// the whole batch, and published. A crash before the metadata write
/// leaves folders no topic names, which the next start removes
/// ([`remove_orphans`]). Creating 10,000 partitions this way costs a few
/// fsyncs per request instead of ~20 per partition (187 s before).
async fn create_on_single_node(
    s0: &Rc<Shard>,
    specs: Vec<TopicSpec>,
) -> Vec<Result<TopicMeta, ApiError>> {
    let _guard = s0.admin_lock.lock().await;
    let meta = s0.metadata();
    let mut results: Vec<Result<TopicMeta, ApiError>> = specs
        .into_iter()
        .map(|spec| match meta.topic(&spec.name) {
            Some(t) => Err((
                ErrorCode::TopicAlreadyExists,
                format!("topic '{}' already exists", t.name),
            )),
            None => Ok(TopicMeta {
                name: spec.name,
                id: Uuid::new_v4(),
                partitions: spec.partitions,
                configs: spec.configs,
                replicas: Vec::new(),
                reassignments: BTreeMap::new(),
            }),
        })
        .collect();
    let new: Vec<Arc<TopicMeta>> = results
        .iter()
        .filter_map(|r| r.as_ref().ok().cloned().map(Arc::new))
        .collect();
    let opts = OpenOptions {
        defer_sync: true,
        hibernate: true,
        campaign: false,
    };
    let failed = open_partitions(s0, &new, 0, opts).await;
    let synced = tidemark_storage::sync_filesystem(&s0.ctx.config.data_dir)
        .map_err(|e| (ErrorCode::KafkaStorageError, e.to_string()));
    let mut keep = Vec::with_capacity(new.len());
    let mut undo = Vec::new();
    for r in results.iter_mut() {
        let Ok(t) = r else { continue };
        let outcome = match (&synced, failed.get(&t.id)) {
            (Err(e), _) => Err(e.clone()),
            (Ok(()), Some(why)) => Err((ErrorCode::KafkaStorageError, why.clone())),
            (Ok(()), None) => Ok(()),
        };
        match outcome {
            Ok(()) => keep.push(t.clone()),
            Err(e) => {
                undo.push(t.clone());
                *r = Err(e);
            }
        }
    }
    if !keep.is_empty() {
        let written = s0
            .with_store(|st| st.add_topics(keep.clone()))
            .ok_or((
                ErrorCode::NotController,
                "metadata store is not on this shard".to_string(),
            ))
            .and_then(|r| r.map_err(|e| (ErrorCode::KafkaStorageError, e.to_string())));
        if let Err(e) = written {
            for r in results.iter_mut() {
                if let Ok(t) = r {
                    undo.push(t.clone());
                    *r = Err(e.clone());
                }
            }
        }
    }
    for t in &undo {
        remove_partitions(s0, t, 0).await;
    }
    publish(s0).await;
    for t in results.iter().flatten() {
        tracing::info!(topic = %t.name, id = %t.id, partitions = t.partitions, "topic created");
    }
    results
}

/// Adds partitions to a topic on a single node (on shard 0, under the
/// admin lock), as [`create_on_single_node`] creates them: the new
/// partitions `from..updated.partitions` opened on all shards at once,
/// asleep and without an fsync each, one syncfs, then the metadata write
/// and the publish. On a failure the opened ones are removed again.
pub async fn add_partitions_on_single_node(
    s0: &Rc<Shard>,
    updated: TopicMeta,
    from: i32,
) -> Result<(), ApiError> {
    let t = Arc::new(updated);
    let opts = OpenOptions {
        defer_sync: true,
        hibernate: true,
        campaign: false,
    };
    let failed = open_partitions(s0, std::slice::from_ref(&t), from, opts).await;
    let outcome = match failed.into_values().next() {
        Some(why) => Err((ErrorCode::KafkaStorageError, why)),
        None => tidemark_storage::sync_filesystem(&s0.ctx.config.data_dir)
            .map_err(|e| (ErrorCode::KafkaStorageError, e.to_string()))
            .and_then(|()| {
                s0.with_store(|st| st.update_topic((*t).clone()))
                    .ok_or((ErrorCode::NotController, "no metadata store".to_string()))?
                    .map_err(|e| (ErrorCode::KafkaStorageError, e.to_string()))
            }),
    };
    if outcome.is_err() {
        remove_partitions(s0, &t, from).await;
    }
    publish(s0).await;
    outcome
}

/// Removes partitions `from..` of `t` on their owner shards (undoing a
/// creation that failed part way).
async fn remove_partitions(s0: &Rc<Shard>, t: &TopicMeta, from: i32) {
    for p in from..t.partitions {
        let (id, name) = (t.id, t.name.clone());
        let _ = s0
            .submit_to(owner_shard(id, p, s0.shard_count()), move |s| async move {
                remove_partition(&s, &name, id, p).await;
            })
            .await;
    }
}

/// Opens partitions `from..` of every one of `topics` on their owner
/// shards, the shards in parallel; returns the topics that could not be
/// opened whole, with why.
async fn open_partitions(
    s0: &Rc<Shard>,
    topics: &[Arc<TopicMeta>],
    from: i32,
    opts: OpenOptions,
) -> HashMap<Uuid, String> {
    let shards = s0.shard_count();
    let mut per_shard: Vec<Vec<(Arc<TopicMeta>, i32)>> = vec![Vec::new(); shards];
    for t in topics {
        for p in from..t.partitions {
            per_shard[owner_shard(t.id, p, shards)].push((t.clone(), p));
        }
    }
    let jobs = per_shard.into_iter().enumerate().map(|(i, parts)| {
        s0.submit_to(i, move |s| async move {
            let mut failed: HashMap<Uuid, String> = HashMap::new();
            for (t, p) in parts {
                if failed.contains_key(&t.id) {
                    continue;
                }
                if let Err(e) = open_partition_with(&s, &t, p, opts).await {
                    tracing::error!(topic = %t.name, partition = p, error = %e, "cannot open a new partition");
                    failed.insert(t.id, format!("cannot open partition {p}: {e}"));
                }
            }
            failed
        })
    });
    let mut failed = HashMap::new();
    for r in futures_util::future::join_all(jobs).await {
        match r {
            Ok(f) => failed.extend(f),
            Err(_) => {
                for t in topics {
                    failed.insert(t.id, "broker is shutting down".to_string());
                }
            }
        }
    }
    failed
}

/// Single node, at start-up: removes partition folders that no topic of
/// the metadata names (by topic id): what a crash between opening a new
/// topic's partitions and writing the metadata leaves behind. Folder
/// names are `<topic>-<partition>-<topic id>`; anything else is left
/// alone.
pub fn remove_orphans(data_dir: &std::path::Path, meta: &crate::metadata::ClusterMetadata) {
    let logs = data_dir.join("logs");
    let Ok(entries) = std::fs::read_dir(&logs) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(id) = name
            .rsplit_once('-')
            .and_then(|(_, id)| Uuid::try_parse(id).ok())
        else {
            continue;
        };
        if meta.by_id.contains_key(&id) {
            continue;
        }
        tracing::warn!(folder = %name, "removing the folder of a partition no topic names (a creation cut short)");
        if let Err(err) = std::fs::remove_dir_all(e.path()) {
            tracing::error!(folder = %name, error = %err, "cannot remove an orphaned partition folder");
        }
    }
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

/// Whether a topic's configs in force differ between two metadata
/// versions: its own overrides, or a broker default it follows. A broker
/// config change that no topic config follows (`max.connections`, say)
/// reopens nothing; before, any settings change reopened every partition
/// of the broker, each briefly answering NOT_LEADER_OR_FOLLOWER.
pub fn configs_in_force_changed(
    old_settings: &Settings,
    old: &TopicMeta,
    new_settings: &Settings,
    new: &TopicMeta,
) -> bool {
    old.configs != new.configs
        || old_settings.effective_topic_configs(&old.configs)
            != new_settings.effective_topic_configs(&new.configs)
}

/// Applies changed topic configs to a topic's partitions (run on shard 0
/// after the metadata changed).
pub async fn reconfigure_topic(s0: &Rc<Shard>, t: &TopicMeta) {
    tracing::info!(topic = %t.name, partitions = t.partitions, "reopening the topic's partitions with new configs");
    for p in 0..t.partitions {
        let owner = owner_shard(t.id, p, s0.shard_count());
        let tt = t.clone();
        let _ = s0
            .submit_to(owner, move |s| async move {
                // The log is reopened with its new configuration.
                reopen_partition(&s, &tt, p, "new configs").await;
            })
            .await;
    }
}

/// Closes a partition replica this shard holds and opens it again (a
/// recovery pass over the log's tail; requests in between get a retriable
/// NOT_LEADER_OR_FOLLOWER). For new configs, and for a log failed by a
/// full disk once space is back (`disk_space::reopen_failed`). `why`
/// names the reason in the logs.
pub async fn reopen_partition(s: &Rc<Shard>, t: &TopicMeta, p: i32, why: &str) {
    let old = s.partitions.borrow_mut().remove(&(t.id, p));
    if let Some(old) = old {
        if let Err(e) = old.close().await {
            tracing::error!(topic = %t.name, partition = p, error = %e, why, "closing a partition to reopen it failed");
        }
        if let Err(e) = open_partition(s, t, p).await {
            tracing::error!(topic = %t.name, partition = p, error = %e, why, "reopening a partition failed");
        }
        old.new_data.notify_all();
    }
}

/// A coordinator's compacted internal topic (`__transaction_state`,
/// `__share_group_state`), created on first use so that brokers that never
/// see a transaction or a share group do not carry its partitions:
/// `partitions` partitions, `replication_factor` replicas (at most the
/// brokers there are), `min_isr` (at most the replication factor).
/// COORDINATOR_NOT_AVAILABLE when it cannot be created.
pub async fn internal_topic(
    shard: &Rc<Shard>,
    name: &str,
    partitions: i32,
    replication_factor: i32,
    min_isr: i32,
) -> Result<TopicMeta, ErrorCode> {
    if let Some(t) = shard.metadata().topic(name) {
        return Ok(t.clone());
    }
    let n = partitions.max(1);
    let brokers = shard.metadata().brokers.len().max(1) as i32;
    let rf = replication_factor.clamp(1, brokers) as i16;
    let configs = BTreeMap::from([
        ("cleanup.policy".to_string(), "compact".to_string()),
        (
            "min.insync.replicas".to_string(),
            min_isr.clamp(1, i32::from(rf)).to_string(),
        ),
    ]);
    let replicas = place_replicas(shard, 0, n, rf).map_err(|(code, m)| {
        tracing::error!(?code, %m, "cannot place {name}");
        ErrorCode::CoordinatorNotAvailable
    })?;
    match create_topic(shard, name.to_string(), n, configs, replicas).await {
        Ok(t) => Ok(t),
        Err((ErrorCode::TopicAlreadyExists, _)) => shard
            .metadata()
            .topic(name)
            .cloned()
            .ok_or(ErrorCode::CoordinatorNotAvailable),
        Err((code, message)) => {
            tracing::error!(?code, %message, "cannot create {name}");
            Err(ErrorCode::CoordinatorNotAvailable)
        }
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
