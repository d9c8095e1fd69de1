//! The API versions this broker implements: the single list from which
//! ApiVersions is answered. An API is listed only when every version in
//! its range works (DESIGN.md invariant 7).

use kafka_protocol::{ApiKey, SupportedApi, SupportedApis};

/// Produce is advertised from v0, as Kafka 4 does, because some librdkafka
/// versions refuse a broker whose Produce range does not start at 0
/// (KAFKA-18659) and librdkafka 2.0 then stops compressing; versions below
/// 3 (message format v0/v1) are refused when actually sent.
pub const PRODUCE_ADVERTISED_MIN: i16 = 0;

const LIST: &[(ApiKey, i16, i16)] = &[
    (ApiKey::Produce, 3, 13),
    (ApiKey::Fetch, 4, 18),
    (ApiKey::ListOffsets, 1, 11),
    (ApiKey::Metadata, 0, 13),
    (ApiKey::OffsetCommit, 2, 10),
    (ApiKey::OffsetFetch, 1, 10),
    (ApiKey::FindCoordinator, 0, 6),
    (ApiKey::JoinGroup, 0, 9),
    (ApiKey::Heartbeat, 0, 4),
    (ApiKey::LeaveGroup, 0, 5),
    (ApiKey::SyncGroup, 0, 5),
    (ApiKey::DescribeGroups, 0, 6),
    (ApiKey::ListGroups, 0, 5),
    (ApiKey::ApiVersions, 0, 4),
    // v1 only: v0 sends raw SASL tokens outside Kafka frames.
    (ApiKey::SaslHandshake, 1, 1),
    (ApiKey::SaslAuthenticate, 0, 2),
    (ApiKey::CreateTopics, 2, 7),
    (ApiKey::DeleteTopics, 1, 6),
    (ApiKey::DeleteRecords, 0, 2),
    // v6 (two-phase commit, KIP-939) is marked unstable in the schema.
    (ApiKey::InitProducerId, 0, 5),
    (ApiKey::OffsetForLeaderEpoch, 2, 4),
    (ApiKey::DescribeConfigs, 1, 4),
    (ApiKey::AlterConfigs, 0, 2),
    (ApiKey::DescribeLogDirs, 1, 5),
    (ApiKey::ElectLeaders, 0, 2),
    (ApiKey::AlterPartitionReassignments, 0, 1),
    (ApiKey::ListPartitionReassignments, 0, 0),
    (ApiKey::CreatePartitions, 0, 3),
    (ApiKey::DeleteGroups, 0, 2),
    (ApiKey::IncrementalAlterConfigs, 0, 1),
    (ApiKey::OffsetDelete, 0, 0),
    (ApiKey::DescribeCluster, 0, 2),
    (ApiKey::DescribeUserScramCredentials, 0, 0),
    (ApiKey::AlterUserScramCredentials, 0, 0),
    // Client quotas (quotas/, handlers/client_quotas.rs).
    (ApiKey::DescribeClientQuotas, 0, 1),
    (ApiKey::AlterClientQuotas, 0, 1),
    (ApiKey::DescribeTopicPartitions, 0, 0),
    (ApiKey::ConsumerGroupHeartbeat, 0, 1),
    (ApiKey::ConsumerGroupDescribe, 0, 1),
    // Feature flags are fixed (handlers/features.rs): UpdateFeatures
    // confirms the finalized levels and refuses any change.
    (ApiKey::UpdateFeatures, 0, 2),
    // The controller group as Kafka's metadata quorum (v2: KIP-853's
    // nodes; every broker answers, asking the controller leader).
    (ApiKey::DescribeQuorum, 0, 2),
    // v0 (before pattern types) is gone from Kafka 4 too.
    (ApiKey::DescribeAcls, 1, 3),
    (ApiKey::CreateAcls, 1, 3),
    (ApiKey::DeleteAcls, 1, 3),
    // Transactions v1 (KIP-98) and v2 (KIP-890: EndTxn v5 bumps the
    // epoch, TxnOffsetCommit v5 and Produce v12+ add their partitions
    // implicitly; `transaction.version` 2 in handlers/features.rs).
    // AddPartitionsToTxn v4+ is the brokers' batched form, which Tidemark's
    // brokers send each other over the node-to-node transport
    // (`txn::verify`), not over a client listener: not advertised.
    (ApiKey::AddPartitionsToTxn, 0, 3),
    (ApiKey::AddOffsetsToTxn, 0, 4),
    (ApiKey::EndTxn, 0, 5),
    (ApiKey::TxnOffsetCommit, 0, 5),
    (ApiKey::WriteTxnMarkers, 1, 1),
    (ApiKey::DescribeTransactions, 0, 0),
    (ApiKey::ListTransactions, 0, 1),
    (ApiKey::DescribeProducers, 0, 0),
    // Share groups (KIP-932, Kafka 4.2's versions).
    (ApiKey::ShareGroupHeartbeat, 1, 1),
    (ApiKey::ShareGroupDescribe, 1, 1),
    (ApiKey::ShareFetch, 1, 2),
    (ApiKey::ShareAcknowledge, 1, 2),
    (ApiKey::DescribeShareGroupOffsets, 0, 1),
    (ApiKey::AlterShareGroupOffsets, 0, 0),
    (ApiKey::DeleteShareGroupOffsets, 0, 0),
    // Client telemetry (KIP-714; handlers/telemetry.rs).
    (ApiKey::GetTelemetrySubscriptions, 0, 0),
    (ApiKey::PushTelemetry, 0, 0),
    // v0 only: ListClientMetricsResources (v1 lists every resource type).
    (ApiKey::ListConfigResources, 0, 0),
];

/// The implemented APIs, checked against the schemas.
pub fn supported() -> SupportedApis {
    let list: Vec<SupportedApi> = LIST
        .iter()
        .map(|&(key, min, max)| SupportedApi { key, min, max })
        .collect();
    SupportedApis::new(&list).expect("the implemented API list is within the schemas")
}

/// The range to advertise for `key` (Produce starts at 0, see above).
pub fn advertised(
    supported: &SupportedApis,
) -> Vec<kafka_protocol::generated::api_versions_response::ApiVersion> {
    let mut keys = supported.to_response_keys();
    for k in &mut keys {
        if k.api_key == ApiKey::Produce.as_i16() {
            k.min_version = PRODUCE_ADVERTISED_MIN;
        }
    }
    keys
}
