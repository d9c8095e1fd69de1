//! FindCoordinator. There is no group, share-group or transaction
//! coordinator yet (consumer groups and transactions are later work), so
//! every key is answered with COORDINATOR_NOT_AVAILABLE and a message, as
//! Kafka answers while a coordinator cannot be found.
//!
//! Why advertise it at all: librdkafka decides whether the broker supports
//! LZ4 by whether FindCoordinator is listed in ApiVersions, and otherwise
//! silently sends LZ4 batches uncompressed.

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::find_coordinator_response::Coordinator;
use kafka_protocol::generated::{FindCoordinatorRequest, FindCoordinatorResponse};

fn why(key_type: i8) -> String {
    match key_type {
        0 => "consumer groups are not available on this broker yet".into(),
        1 => "transactions are not available on this broker yet".into(),
        2 => "share groups are not available on this broker yet".into(),
        other => format!("unknown coordinator key type {other}"),
    }
}

pub fn handle(req: FindCoordinatorRequest, version: i16) -> FindCoordinatorResponse {
    let code = if (0..=2).contains(&req.key_type) {
        ErrorCode::CoordinatorNotAvailable
    } else {
        ErrorCode::InvalidRequest
    };
    let mut resp = FindCoordinatorResponse {
        node_id: -1,
        port: -1,
        ..Default::default()
    };
    if version >= 4 {
        // v4+: one answer per key.
        resp.coordinators = req
            .coordinator_keys
            .into_iter()
            .map(|key| Coordinator {
                key,
                node_id: -1,
                port: -1,
                error_code: code.code(),
                error_message: Some(why(req.key_type)),
                ..Default::default()
            })
            .collect();
    } else {
        resp.error_code = code.code();
        resp.error_message = Some(why(req.key_type));
    }
    resp
}
