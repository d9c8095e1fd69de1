//! Metadata: brokers, topics (with ids), partitions and their leaders;
//! auto-creates requested topics when allowed.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kafka_protocol::generated::{MetadataRequest, MetadataResponse};
use uuid::Uuid;

use crate::acl::{Authz, op};
use crate::metadata::TopicMeta;
use crate::shard::Shard;

/// Kafka's "authorized operations not requested" value.
const OPS_NOT_REQUESTED: i32 = i32::MIN;

/// What this broker knows of a partition's replication.
pub struct PartitionState {
    /// -1 while there is none (LEADER_NOT_AVAILABLE).
    pub leader: i32,
    pub epoch: i32,
    pub replicas: Vec<i32>,
    pub isr: Vec<i32>,
    /// Replicas on fenced brokers (Kafka's offline replicas).
    pub offline: Vec<i32>,
}

impl PartitionState {
    /// LEADER_NOT_AVAILABLE while there is no leader, else none.
    pub fn error_code(&self) -> i16 {
        if self.leader < 0 {
            ErrorCode::LeaderNotAvailable.code()
        } else {
            0
        }
    }
}

/// The leader, epoch, replicas and in-sync replicas of partition `p`.
/// In a cluster the in-sync replicas are known exactly where this broker
/// leads the partition; elsewhere it reports every replica (a follower
/// does not track the others).
pub fn partition_state(shard: &Shard, t: &TopicMeta, p: i32) -> PartitionState {
    let node = shard.ctx.config.node_id;
    let key = (t.id, p);
    let replicas = t.all_replicas_of(p, node);
    let isr = shard.isr_of(&key).unwrap_or_else(|| replicas.clone());
    let meta = shard.metadata();
    let offline = replicas
        .iter()
        .copied()
        .filter(|r| meta.brokers.get(r).is_some_and(|b| b.fenced))
        .collect();
    PartitionState {
        offline,
        leader: shard.leader_of(&key),
        epoch: shard.leader_epoch(&key),
        replicas,
        isr,
    }
}

/// The live brokers of the cluster (on a single node: this one), at
/// their addresses on `listener` (the client's). Fenced brokers (not
/// heard from within `broker.session.timeout.ms`) are left out, as Kafka
/// does, this broker included (see `brokers_and_fencing` for when it
/// does not list itself).
pub fn brokers(shard: &Shard, listener: &str) -> Vec<MetadataResponseBroker> {
    brokers_and_fencing(shard, listener)
        .into_iter()
        .filter(|(_, fenced)| !fenced)
        .map(|(b, _)| b)
        .collect()
}

/// Every registered broker that has `listener`, at its address there,
/// and whether it is fenced. A broker registered before listeners
/// existed (no endpoints) is listed at its one Kafka address; one that
/// has other listeners but not this one is left out, as Kafka does.
///
/// In a cluster this broker is listed only while the metadata has it
/// registered, as Kafka lists the brokers of its metadata image and
/// nothing else. A broker a finished decommission removed keeps running
/// and stays in clients' bootstrap lists; listing itself, it became a
/// broker librdkafka kept (bootstrap brokers are dropped once the
/// brokers a Metadata answer names are known), so a client whose first
/// connection went to it asked it, and only it, for the group
/// coordinator until its timeout: the removed broker answered
/// COORDINATOR_NOT_AVAILABLE, its replicas of `__consumer_offsets` gone
/// and no leader reports reaching an unregistered broker (for the same
/// reason it names no leader for the partitions it held, so a client
/// reading them stalled alike). Not listed, it is dropped with the
/// bootstrap entries and the client asks a broker of the cluster.
///
/// Its own fencing is the metadata's too, as in Kafka (a broker's image
/// is all it lists), and it counts itself unfenced only in its own run's
/// registration (`BrokerMeta::incarnation`). A restarted broker replays
/// the controller log through its previous run's registration, unfenced,
/// before it reaches the fencing that followed its stop; it used to list
/// itself meanwhile, so a client (or a test waiting for "every broker
/// lists every broker") took it as rejoined while placement still had it
/// fenced and refused CreateTopics at full replication factor
/// (INVALID_REPLICATION_FACTOR, "1 fenced"), for up to seconds after a
/// restart.
pub fn brokers_and_fencing(shard: &Shard, listener: &str) -> Vec<(MetadataResponseBroker, bool)> {
    let cfg = &shard.ctx.config;
    let mine = shard
        .ctx
        .listeners
        .current()
        .iter()
        .find(|l| l.name == listener)
        .map(|l| (l.advertised_host.clone(), l.advertised_port))
        .unwrap_or_else(|| (cfg.advertised_host.clone(), cfg.advertised_port));
    let me = MetadataResponseBroker {
        node_id: cfg.node_id,
        host: mine.0,
        port: i32::from(mine.1),
        rack: cfg.cluster.as_ref().and_then(|c| c.rack.clone()),
        ..Default::default()
    };
    let meta = shard.metadata();
    let mut out: Vec<(MetadataResponseBroker, bool)> = meta
        .brokers
        .values()
        .filter(|b| b.id != cfg.node_id)
        .filter_map(|b| {
            let (host, port) = if b.listeners.is_empty() {
                (b.host.clone(), b.port)
            } else {
                let e = b.listeners.iter().find(|e| e.name == listener)?;
                (e.host.clone(), e.port)
            };
            let broker = MetadataResponseBroker {
                node_id: b.id,
                host,
                port: i32::from(port),
                rack: b.rack.clone(),
                ..Default::default()
            };
            Some((broker, b.fenced))
        })
        .collect();
    if !shard.is_cluster() {
        out.push((me, false));
    } else if let Some(b) = meta.brokers.get(&cfg.node_id) {
        // Before this run's registration is applied, the entry is the
        // previous run's, which the controller may have fenced since
        // (a record still ahead in this broker's replay): fenced.
        out.push((me, b.fenced || b.incarnation != shard.ctx.incarnation));
    }
    out.sort_by_key(|b| b.0.node_id);
    out
}

/// The brokers among `ids` (for KIP-951 leader hints).
pub fn endpoints(
    shard: &Shard,
    ids: &std::collections::BTreeSet<i32>,
    listener: &str,
) -> Vec<MetadataResponseBroker> {
    if ids.is_empty() {
        return Vec::new();
    }
    brokers(shard, listener)
        .into_iter()
        .filter(|b| ids.contains(&b.node_id))
        .collect()
}

/// The broker that Metadata and DescribeCluster name as the controller:
/// this one. As in KRaft (KIP-590), clients send "controller" requests
/// (CreateTopics, DeleteTopics, ...) to a live broker, which forwards them
/// to the controller group's leader; Kafka names a random live broker.
/// Naming the controller leader instead sent clients to a broker that had
/// just died: librdkafka's AdminClient then waited for it to come back
/// (a DeleteTopics right after a kill -9 of the leader did not complete
/// in 30 s).
pub fn controller_id(shard: &Shard) -> i32 {
    shard.ctx.config.node_id
}

pub fn topic_response(shard: &Shard, t: &TopicMeta) -> MetadataResponseTopic {
    MetadataResponseTopic {
        name: Some(t.name.clone()),
        topic_id: t.id,
        is_internal: t.is_internal(),
        partitions: (0..t.partitions)
            .map(|p| {
                let st = partition_state(shard, t, p);
                MetadataResponsePartition {
                    error_code: st.error_code(),
                    partition_index: p,
                    leader_id: st.leader,
                    leader_epoch: st.epoch,
                    replica_nodes: st.replicas,
                    isr_nodes: st.isr,
                    offline_replicas: st.offline,
                    ..Default::default()
                }
            })
            .collect(),
        topic_authorized_operations: OPS_NOT_REQUESTED,
        ..Default::default()
    }
}

fn topic_error(name: Option<String>, id: Uuid, code: ErrorCode) -> MetadataResponseTopic {
    MetadataResponseTopic {
        error_code: code.code(),
        name,
        topic_id: id,
        topic_authorized_operations: OPS_NOT_REQUESTED,
        ..Default::default()
    }
}

/// Cluster mode: waits (at most 10 s) until this broker has caught up with
/// the controller log: it knows itself registered and has applied what a
/// controller leader had committed when it started (a wiped broker
/// replaying the log knows itself from its first registration long
/// before it knows the topics). Before that its metadata is empty or
/// stale, and a client that believed it stalled on every partition
/// (a broker list with only this one) or failed its messages with
/// UNKNOWN_PARTITION or, after 30 s, UNKNOWN_TOPIC (librdkafka; found by
/// the cluster soak wiping a follower). A Kafka broker likewise serves
/// no client before it has caught up with the metadata log.
///
/// Once this process's own registration has been applied
/// (`BrokerContext::registered`), its absence from the metadata means a
/// finished decommission removed it, which no wait mends: it answers at
/// once (without itself in the broker list), instead of holding every
/// Metadata request (and the requests pipelined behind it) for 10 s.
async fn wait_until_caught_up(shard: &Shard) {
    let me = shard.ctx.config.node_id;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let registered = || {
        shard
            .metadata()
            .brokers
            .get(&me)
            .is_some_and(|b| b.incarnation == shard.ctx.incarnation)
            || shard
                .ctx
                .registered
                .load(std::sync::atomic::Ordering::Acquire)
    };
    while shard.is_cluster()
        && (!registered()
            || !shard
                .ctx
                .metadata_caught_up
                .load(std::sync::atomic::Ordering::Acquire))
        && std::time::Instant::now() < deadline
        && !shard.is_stopping()
    {
        monoio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

pub async fn handle(
    shard: &Rc<Shard>,
    req: MetadataRequest,
    version: i16,
    listener: &str,
    authz: &Authz<'_>,
) -> MetadataResponse {
    wait_until_caught_up(shard).await;
    let mut resp = MetadataResponse {
        brokers: brokers(shard, listener),
        cluster_id: Some(shard.metadata().cluster_id.clone()),
        controller_id: controller_id(shard),
        cluster_authorized_operations: OPS_NOT_REQUESTED,
        ..Default::default()
    };
    if req.include_cluster_authorized_operations && (8..=10).contains(&version) {
        resp.cluster_authorized_operations = authz.operations(
            crate::acl::resource::CLUSTER,
            crate::acl::resource::CLUSTER_NAME,
        );
    }
    let with_ops = req.include_topic_authorized_operations && version >= 8;
    let respond = |t: &TopicMeta| {
        let mut r = topic_response(shard, t);
        if with_ops {
            r.topic_authorized_operations = authz.operations(crate::acl::resource::TOPIC, &t.name);
        }
        r
    };
    // v0: an empty list means every topic; v1+: null means every topic.
    let all = match &req.topics {
        None => true,
        Some(t) => t.is_empty() && version == 0,
    };
    if all {
        // Topics the client may not describe are simply absent.
        let meta = shard.metadata();
        resp.topics = meta
            .topics
            .values()
            .filter(|t| authz.topic(op::DESCRIBE, &t.name))
            .map(|t| respond(t))
            .collect();
        return resp;
    }
    let auto_create = req.allow_auto_topic_creation
        && shard.metadata().settings.bool("auto.create.topics.enable");
    for wanted in req.topics.unwrap_or_default() {
        let meta = shard.metadata();
        let topic = match &wanted.name {
            // Whether the topic exists is not told to one who may not
            // describe it.
            Some(name) if !authz.topic(op::DESCRIBE, name) => topic_error(
                Some(name.clone()),
                Uuid::nil(),
                ErrorCode::TopicAuthorizationFailed,
            ),
            Some(name) => {
                if let Some(t) = meta.topic(name) {
                    respond(t)
                } else if let Err((code, _)) = crate::topics::validate_topic_name(name) {
                    topic_error(Some(name.clone()), Uuid::nil(), code)
                } else if auto_create
                    && !authz.cluster(op::CREATE)
                    && !authz.topic(op::CREATE, name)
                {
                    topic_error(
                        Some(name.clone()),
                        Uuid::nil(),
                        ErrorCode::TopicAuthorizationFailed,
                    )
                } else if auto_create {
                    match crate::topics::auto_create(shard, name).await {
                        Ok(t) => respond(&t),
                        Err((code, _)) => topic_error(Some(name.clone()), Uuid::nil(), code),
                    }
                } else {
                    topic_error(
                        Some(name.clone()),
                        Uuid::nil(),
                        ErrorCode::UnknownTopicOrPartition,
                    )
                }
            }
            None => match meta.topic_by_id(&wanted.topic_id) {
                // Kafka: ids are not secret, the name is.
                Some(t) if !authz.topic(op::DESCRIBE, &t.name) => {
                    topic_error(None, wanted.topic_id, ErrorCode::TopicAuthorizationFailed)
                }
                Some(t) => respond(t),
                None => topic_error(None, wanted.topic_id, ErrorCode::UnknownTopicId),
            },
        };
        resp.topics.push(topic);
    }
    resp
}
