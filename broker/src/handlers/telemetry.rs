//! GetTelemetrySubscriptions (71) and PushTelemetry (72), KIP-714, as
//! Kafka's `ClientMetricsManager` (the logic is in `client_metrics.rs`).
//! No authorization: Kafka checks none for either API.

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use kafka_protocol::generated::{
    GetTelemetrySubscriptionsRequest, GetTelemetrySubscriptionsResponse, PushTelemetryRequest,
    PushTelemetryResponse, RequestHeader,
};
use kafka_protocol::records::compression::{Compression, decompress};

use crate::client_metrics::{
    ACCEPTED_COMPRESSION, ClientInfo, DECOMPRESSED_MAX_BYTES, Received, TELEMETRY_MAX_BYTES,
    kafka_uuid, otlp_metric_names,
};
use crate::connection::ConnInfo;
use crate::shard::Shard;

fn client(header: &RequestHeader, conn: &ConnInfo) -> ClientInfo {
    ClientInfo::from_conn(header.client_id.as_deref(), &conn.software, conn.peer)
}

pub fn get_subscriptions(
    shard: &Shard,
    header: &RequestHeader,
    req: GetTelemetrySubscriptionsRequest,
    conn: &ConnInfo,
) -> GetTelemetrySubscriptionsResponse {
    let meta = shard.metadata();
    let now_ms = crate::partition::now_ms();
    let answer = shard
        .ctx
        .telemetry
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(
            req.client_instance_id,
            &client(header, conn),
            &meta.client_metrics,
            now_ms,
        );
    if answer.error != ErrorCode::None {
        return GetTelemetrySubscriptionsResponse {
            error_code: answer.error.code(),
            ..Default::default()
        };
    }
    GetTelemetrySubscriptionsResponse {
        client_instance_id: answer.instance,
        subscription_id: answer.subscription.id,
        accepted_compression_types: ACCEPTED_COMPRESSION.to_vec(),
        push_interval_ms: answer.subscription.interval_ms,
        telemetry_max_bytes: TELEMETRY_MAX_BYTES,
        delta_temporality: true,
        requested_metrics: answer.subscription.metrics,
        ..Default::default()
    }
}

pub fn push(
    shard: &Shard,
    header: &RequestHeader,
    req: PushTelemetryRequest,
    conn: &ConnInfo,
) -> PushTelemetryResponse {
    let meta = shard.metadata();
    let now_ms = crate::partition::now_ms();
    let info = client(header, conn);
    let id = req.client_instance_id;
    let refused = |code: ErrorCode, message: String| {
        tracing::debug!(client_instance_id = %kafka_uuid(id), error = code.name(), %message, "client telemetry push refused");
        PushTelemetryResponse {
            error_code: code.code(),
            ..Default::default()
        }
    };
    let checked = shard
        .ctx
        .telemetry
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .check_push(
            id,
            &info,
            &meta.client_metrics,
            req.subscription_id,
            req.terminating,
            req.compression_type,
            req.metrics.len(),
            now_ms,
        );
    if let Err((code, message)) = checked {
        return refused(code, message);
    }
    if req.metrics.is_empty() {
        return PushTelemetryResponse::default();
    }
    // check_push allowed only ids 0-4.
    let codec = Compression::from_id(req.compression_type as u8).unwrap_or_default();
    let payload = match decompress(codec, &req.metrics, DECOMPRESSED_MAX_BYTES) {
        Ok(p) => Bytes::from(p),
        // Kafka answers INVALID_RECORD when the payload cannot be exported.
        Err(e) => return refused(ErrorCode::InvalidRecord, e.to_string()),
    };
    let metric_names = otlp_metric_names(&payload).unwrap_or_default();
    let bytes = payload.len();
    let received = Received {
        client_instance_id: id,
        client: info,
        received_at_ms: now_ms,
        compression_type: req.compression_type,
        payload,
        metric_names,
    };
    let summary = format!(
        "client_instance_id={} client_id={:?} software={}/{} address={} compression={} bytes={} metrics={} names={} terminating={}",
        kafka_uuid(id),
        received.client.client_id,
        received.client.software_name,
        received.client.software_version,
        conn.peer,
        codec.name(),
        bytes,
        received.metric_names.len(),
        received
            .metric_names
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join(","),
        req.terminating,
    );
    let first = shard
        .ctx
        .telemetry
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .keep(received);
    if first {
        tracing::info!("client telemetry: first push {summary}");
    } else {
        tracing::debug!("client telemetry push {summary}");
    }
    PushTelemetryResponse::default()
}

/// ListConfigResources v0 (Kafka 3.7's ListClientMetricsResources): the
/// names of the client-metrics subscriptions; DESCRIBE_CONFIGS on the
/// cluster, as Kafka. v1 (every config resource type, Kafka 4.1) is not
/// built.
pub fn list_config_resources(
    shard: &Shard,
    authz: &crate::acl::Authz<'_>,
) -> kafka_protocol::generated::ListConfigResourcesResponse {
    use kafka_protocol::generated::ListConfigResourcesResponse;
    use kafka_protocol::generated::list_config_resources_response::ConfigResource;
    if !authz.cluster(crate::acl::op::DESCRIBE_CONFIGS) {
        return ListConfigResourcesResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            ..Default::default()
        };
    }
    ListConfigResourcesResponse {
        config_resources: shard
            .metadata()
            .client_metrics
            .keys()
            .map(|name| ConfigResource {
                resource_name: name.clone(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}
