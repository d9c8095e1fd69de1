//! Metadata: brokers, topics (with ids), partitions and their leaders;
//! auto-creates requested topics when allowed.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kafka_protocol::generated::{MetadataRequest, MetadataResponse};
use uuid::Uuid;

use crate::metadata::TopicMeta;
use crate::shard::Shard;

/// Kafka's "authorized operations not requested" value.
const OPS_NOT_REQUESTED: i32 = i32::MIN;

pub fn topic_response(shard: &Shard, t: &TopicMeta) -> MetadataResponseTopic {
    let node = shard.ctx.config.node_id;
    MetadataResponseTopic {
        name: Some(t.name.clone()),
        topic_id: t.id,
        is_internal: t.is_internal(),
        partitions: (0..t.partitions)
            .map(|p| MetadataResponsePartition {
                partition_index: p,
                leader_id: node,
                leader_epoch: shard.leader_epoch(&(t.id, p)),
                replica_nodes: super::replicas(shard),
                isr_nodes: super::replicas(shard),
                ..Default::default()
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

pub async fn handle(shard: &Rc<Shard>, req: MetadataRequest, version: i16) -> MetadataResponse {
    let cfg = &shard.ctx.config;
    let mut resp = MetadataResponse {
        brokers: vec![MetadataResponseBroker {
            node_id: cfg.node_id,
            host: cfg.advertised_host.clone(),
            port: cfg.advertised_port as i32,
            rack: None,
            ..Default::default()
        }],
        cluster_id: Some(shard.metadata().cluster_id.clone()),
        controller_id: cfg.node_id,
        cluster_authorized_operations: OPS_NOT_REQUESTED,
        ..Default::default()
    };
    // v0: an empty list means every topic; v1+: null means every topic.
    let all = match &req.topics {
        None => true,
        Some(t) => t.is_empty() && version == 0,
    };
    if all {
        let meta = shard.metadata();
        resp.topics = meta
            .topics
            .values()
            .map(|t| topic_response(shard, t))
            .collect();
        return resp;
    }
    let auto_create = req.allow_auto_topic_creation
        && shard.metadata().settings.bool("auto.create.topics.enable");
    for wanted in req.topics.unwrap_or_default() {
        let meta = shard.metadata();
        let topic = match &wanted.name {
            Some(name) => {
                if let Some(t) = meta.topic(name) {
                    topic_response(shard, t)
                } else if let Err((code, _)) = super::topics::validate_topic_name(name) {
                    topic_error(Some(name.clone()), Uuid::nil(), code)
                } else if auto_create {
                    match super::topics::auto_create(shard, name).await {
                        Ok(t) => topic_response(shard, &t),
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
                Some(t) => topic_response(shard, t),
                None => topic_error(None, wanted.topic_id, ErrorCode::UnknownTopicId),
            },
        };
        resp.topics.push(topic);
    }
    resp
}
