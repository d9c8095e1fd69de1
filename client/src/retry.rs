//! Which answers mean "ask someone else": a response whose error says the
//! request went to the wrong broker (not the leader, not the coordinator,
//! not the controller) is retried by [`Client::send`](crate::Client::send)
//! after refreshing where that route points.
//!
//! `send` is generic over every request, so the response is inspected
//! through `Any` for the response types whose routing can go stale.

use std::any::Any;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::*;

/// What a stale route looks like in a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stale {
    /// Refresh metadata (leader moved, controller moved).
    Metadata,
    /// Forget the coordinator and look it up again.
    Coordinator,
    /// Same broker, later (coordinator loading).
    Later,
}

fn classify(code: i16) -> Option<Stale> {
    use ErrorCode as E;
    match ErrorCode::from_code(code)? {
        E::NotLeaderOrFollower
        | E::LeaderNotAvailable
        | E::NotController
        | E::FencedLeaderEpoch => Some(Stale::Metadata),
        E::NotCoordinator | E::CoordinatorNotAvailable => Some(Stale::Coordinator),
        E::CoordinatorLoadInProgress => Some(Stale::Later),
        _ => None,
    }
}

/// The first stale-route error in a response, if any.
pub(crate) fn stale_route(resp: &dyn Any) -> Option<Stale> {
    let codes: Vec<i16> = if let Some(r) = resp.downcast_ref::<JoinGroupResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<SyncGroupResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<HeartbeatResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<LeaveGroupResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<OffsetCommitResponse>() {
        r.topics
            .iter()
            .flat_map(|t| t.partitions.iter().map(|p| p.error_code))
            .collect()
    } else if let Some(r) = resp.downcast_ref::<OffsetFetchResponse>() {
        std::iter::once(r.error_code)
            .chain(r.groups.iter().map(|g| g.error_code))
            .collect()
    } else if let Some(r) = resp.downcast_ref::<DescribeGroupsResponse>() {
        r.groups.iter().map(|g| g.error_code).collect()
    } else if let Some(r) = resp.downcast_ref::<ConsumerGroupDescribeResponse>() {
        r.groups.iter().map(|g| g.error_code).collect()
    } else if let Some(r) = resp.downcast_ref::<DeleteGroupsResponse>() {
        r.results.iter().map(|g| g.error_code).collect()
    } else if let Some(r) = resp.downcast_ref::<OffsetDeleteResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<TxnOffsetCommitResponse>() {
        r.topics
            .iter()
            .flat_map(|t| t.partitions.iter().map(|p| p.error_code))
            .collect()
    } else if let Some(r) = resp.downcast_ref::<AddOffsetsToTxnResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<EndTxnResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<InitProducerIdResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<ConsumerGroupHeartbeatResponse>() {
        vec![r.error_code]
    } else if let Some(r) = resp.downcast_ref::<ProduceResponse>() {
        r.responses
            .iter()
            .flat_map(|t| t.partition_responses.iter().map(|p| p.error_code))
            .collect()
    } else if let Some(r) = resp.downcast_ref::<ListOffsetsResponse>() {
        r.topics
            .iter()
            .flat_map(|t| t.partitions.iter().map(|p| p.error_code))
            .collect()
    } else if let Some(r) = resp.downcast_ref::<DeleteRecordsResponse>() {
        r.topics
            .iter()
            .flat_map(|t| t.partitions.iter().map(|p| p.error_code))
            .collect()
    } else if let Some(r) = resp.downcast_ref::<CreateTopicsResponse>() {
        r.topics.iter().map(|t| t.error_code).collect()
    } else if let Some(r) = resp.downcast_ref::<DeleteTopicsResponse>() {
        r.responses.iter().map(|t| t.error_code).collect()
    } else if let Some(r) = resp.downcast_ref::<CreatePartitionsResponse>() {
        r.results.iter().map(|t| t.error_code).collect()
    } else {
        return None;
    };
    codes.into_iter().find_map(classify)
}

/// Backoff before attempt `attempt` (1-based): the configured pause,
/// doubled each time up to 8x, as Kafka's exponential retry backoff.
pub(crate) fn backoff_ms(base_ms: u64, attempt: u32) -> u64 {
    base_ms.saturating_mul(1u64 << attempt.saturating_sub(1).min(3))
}
