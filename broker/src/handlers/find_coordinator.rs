//! FindCoordinator. Groups (key type 0) are coordinated by this broker,
//! which leads every partition of `__consumer_offsets` on a single node
//! (the topic is created here on first use). There is no transaction or
//! share-group coordinator yet: those keys are answered with
//! COORDINATOR_NOT_AVAILABLE and a message, as Kafka answers while a
//! coordinator cannot be found.
//!
//! Why it was advertised before groups existed: librdkafka decides whether
//! the broker supports LZ4 by whether FindCoordinator is listed in
//! ApiVersions, and otherwise silently sends LZ4 batches uncompressed.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::find_coordinator_response::Coordinator;
use kafka_protocol::generated::{FindCoordinatorRequest, FindCoordinatorResponse};

use crate::shard::Shard;

fn why(key_type: i8) -> String {
    match key_type {
        0 => "the group coordinator is not available".into(),
        1 => "transactions are not available on this broker yet".into(),
        2 => "share groups are not available on this broker yet".into(),
        other => format!("unknown coordinator key type {other}"),
    }
}

/// The answer for one key: this broker, or an error.
async fn answer(shard: &Rc<Shard>, key_type: i8) -> Result<(), ErrorCode> {
    match key_type {
        0 => crate::groups::offsets_topic(shard).await.map(|_| ()),
        1 | 2 => Err(ErrorCode::CoordinatorNotAvailable),
        _ => Err(ErrorCode::InvalidRequest),
    }
}

pub async fn handle(
    shard: &Rc<Shard>,
    req: FindCoordinatorRequest,
    version: i16,
) -> FindCoordinatorResponse {
    let outcome = answer(shard, req.key_type).await;
    let cfg = &shard.ctx.config;
    let (node_id, host, port) = match outcome {
        Ok(()) => (
            cfg.node_id,
            cfg.advertised_host.clone(),
            cfg.advertised_port as i32,
        ),
        Err(_) => (-1, String::new(), -1),
    };
    let (code, message) = match outcome {
        Ok(()) => (ErrorCode::None, None),
        Err(c) => (c, Some(why(req.key_type))),
    };
    let mut resp = FindCoordinatorResponse {
        node_id,
        host: host.clone(),
        port,
        ..Default::default()
    };
    if version >= 4 {
        // v4+: one answer per key (every group is coordinated here).
        // The v0-3 fields must keep their defaults to be encodable.
        resp.node_id = 0;
        resp.host = String::new();
        resp.port = 0;
        resp.coordinators = req
            .coordinator_keys
            .into_iter()
            .map(|key| Coordinator {
                key,
                node_id,
                host: host.clone(),
                port,
                error_code: code.code(),
                error_message: message.clone(),
                ..Default::default()
            })
            .collect();
    } else {
        resp.error_code = code.code();
        resp.error_message = message;
    }
    resp
}
