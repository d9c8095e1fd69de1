//! Every Kafka message, generated from Kafka's JSON schemas by
//! kafka-protocol-codegen (`cargo run -p kafka-protocol-codegen`). Do not edit.
//!
//! Each schema has its own module holding the message and its nested
//! structs; the messages themselves are re-exported here, with the API
//! table ([`ApiKey`]) and the dispatch enums [`RequestBody`] and
//! [`ResponseBody`].

pub mod add_offsets_to_txn_request;
pub mod add_offsets_to_txn_response;
pub mod add_partitions_to_txn_request;
pub mod add_partitions_to_txn_response;
pub mod add_raft_voter_request;
pub mod add_raft_voter_response;
pub mod allocate_producer_ids_request;
pub mod allocate_producer_ids_response;
pub mod alter_client_quotas_request;
pub mod alter_client_quotas_response;
pub mod alter_configs_request;
pub mod alter_configs_response;
pub mod alter_partition_reassignments_request;
pub mod alter_partition_reassignments_response;
pub mod alter_partition_request;
pub mod alter_partition_response;
pub mod alter_replica_log_dirs_request;
pub mod alter_replica_log_dirs_response;
pub mod alter_share_group_offsets_request;
pub mod alter_share_group_offsets_response;
pub mod alter_user_scram_credentials_request;
pub mod alter_user_scram_credentials_response;
pub mod api_versions_request;
pub mod api_versions_response;
pub mod assign_replicas_to_dirs_request;
pub mod assign_replicas_to_dirs_response;
pub mod begin_quorum_epoch_request;
pub mod begin_quorum_epoch_response;
pub mod broker_heartbeat_request;
pub mod broker_heartbeat_response;
pub mod broker_registration_request;
pub mod broker_registration_response;
pub mod consumer_group_describe_request;
pub mod consumer_group_describe_response;
pub mod consumer_group_heartbeat_request;
pub mod consumer_group_heartbeat_response;
pub mod consumer_protocol_assignment;
pub mod consumer_protocol_subscription;
pub mod control_record_type_schema;
pub mod controller_registration_request;
pub mod controller_registration_response;
pub mod create_acls_request;
pub mod create_acls_response;
pub mod create_delegation_token_request;
pub mod create_delegation_token_response;
pub mod create_partitions_request;
pub mod create_partitions_response;
pub mod create_topics_request;
pub mod create_topics_response;
pub mod default_principal_data;
pub mod delete_acls_request;
pub mod delete_acls_response;
pub mod delete_groups_request;
pub mod delete_groups_response;
pub mod delete_records_request;
pub mod delete_records_response;
pub mod delete_share_group_offsets_request;
pub mod delete_share_group_offsets_response;
pub mod delete_share_group_state_request;
pub mod delete_share_group_state_response;
pub mod delete_topics_request;
pub mod delete_topics_response;
pub mod describe_acls_request;
pub mod describe_acls_response;
pub mod describe_client_quotas_request;
pub mod describe_client_quotas_response;
pub mod describe_cluster_request;
pub mod describe_cluster_response;
pub mod describe_configs_request;
pub mod describe_configs_response;
pub mod describe_delegation_token_request;
pub mod describe_delegation_token_response;
pub mod describe_groups_request;
pub mod describe_groups_response;
pub mod describe_log_dirs_request;
pub mod describe_log_dirs_response;
pub mod describe_producers_request;
pub mod describe_producers_response;
pub mod describe_quorum_request;
pub mod describe_quorum_response;
pub mod describe_share_group_offsets_request;
pub mod describe_share_group_offsets_response;
pub mod describe_topic_partitions_request;
pub mod describe_topic_partitions_response;
pub mod describe_transactions_request;
pub mod describe_transactions_response;
pub mod describe_user_scram_credentials_request;
pub mod describe_user_scram_credentials_response;
pub mod elect_leaders_request;
pub mod elect_leaders_response;
pub mod end_quorum_epoch_request;
pub mod end_quorum_epoch_response;
pub mod end_txn_marker;
pub mod end_txn_request;
pub mod end_txn_response;
pub mod envelope_request;
pub mod envelope_response;
pub mod expire_delegation_token_request;
pub mod expire_delegation_token_response;
pub mod fetch_request;
pub mod fetch_response;
pub mod fetch_snapshot_request;
pub mod fetch_snapshot_response;
pub mod find_coordinator_request;
pub mod find_coordinator_response;
pub mod get_telemetry_subscriptions_request;
pub mod get_telemetry_subscriptions_response;
pub mod heartbeat_request;
pub mod heartbeat_response;
pub mod incremental_alter_configs_request;
pub mod incremental_alter_configs_response;
pub mod init_producer_id_request;
pub mod init_producer_id_response;
pub mod initialize_share_group_state_request;
pub mod initialize_share_group_state_response;
pub mod join_group_request;
pub mod join_group_response;
pub mod k_raft_version_record;
pub mod leader_change_message;
pub mod leave_group_request;
pub mod leave_group_response;
pub mod list_config_resources_request;
pub mod list_config_resources_response;
pub mod list_groups_request;
pub mod list_groups_response;
pub mod list_offsets_request;
pub mod list_offsets_response;
pub mod list_partition_reassignments_request;
pub mod list_partition_reassignments_response;
pub mod list_transactions_request;
pub mod list_transactions_response;
pub mod metadata_request;
pub mod metadata_response;
pub mod offset_commit_request;
pub mod offset_commit_response;
pub mod offset_delete_request;
pub mod offset_delete_response;
pub mod offset_fetch_request;
pub mod offset_fetch_response;
pub mod offset_for_leader_epoch_request;
pub mod offset_for_leader_epoch_response;
pub mod produce_request;
pub mod produce_response;
pub mod push_telemetry_request;
pub mod push_telemetry_response;
pub mod read_share_group_state_request;
pub mod read_share_group_state_response;
pub mod read_share_group_state_summary_request;
pub mod read_share_group_state_summary_response;
pub mod remove_raft_voter_request;
pub mod remove_raft_voter_response;
pub mod renew_delegation_token_request;
pub mod renew_delegation_token_response;
pub mod request_header;
pub mod response_header;
pub mod sasl_authenticate_request;
pub mod sasl_authenticate_response;
pub mod sasl_handshake_request;
pub mod sasl_handshake_response;
pub mod share_acknowledge_request;
pub mod share_acknowledge_response;
pub mod share_fetch_request;
pub mod share_fetch_response;
pub mod share_group_describe_request;
pub mod share_group_describe_response;
pub mod share_group_heartbeat_request;
pub mod share_group_heartbeat_response;
pub mod snapshot_footer_record;
pub mod snapshot_header_record;
pub mod streams_group_describe_request;
pub mod streams_group_describe_response;
pub mod streams_group_heartbeat_request;
pub mod streams_group_heartbeat_response;
pub mod sync_group_request;
pub mod sync_group_response;
pub mod txn_offset_commit_request;
pub mod txn_offset_commit_response;
pub mod unregister_broker_request;
pub mod unregister_broker_response;
pub mod update_features_request;
pub mod update_features_response;
pub mod update_raft_voter_request;
pub mod update_raft_voter_response;
pub mod vote_request;
pub mod vote_response;
pub mod voters_record;
pub mod write_share_group_state_request;
pub mod write_share_group_state_response;
pub mod write_txn_markers_request;
pub mod write_txn_markers_response;

pub use add_offsets_to_txn_request::AddOffsetsToTxnRequest;
pub use add_offsets_to_txn_response::AddOffsetsToTxnResponse;
pub use add_partitions_to_txn_request::AddPartitionsToTxnRequest;
pub use add_partitions_to_txn_response::AddPartitionsToTxnResponse;
pub use add_raft_voter_request::AddRaftVoterRequest;
pub use add_raft_voter_response::AddRaftVoterResponse;
pub use allocate_producer_ids_request::AllocateProducerIdsRequest;
pub use allocate_producer_ids_response::AllocateProducerIdsResponse;
pub use alter_client_quotas_request::AlterClientQuotasRequest;
pub use alter_client_quotas_response::AlterClientQuotasResponse;
pub use alter_configs_request::AlterConfigsRequest;
pub use alter_configs_response::AlterConfigsResponse;
pub use alter_partition_reassignments_request::AlterPartitionReassignmentsRequest;
pub use alter_partition_reassignments_response::AlterPartitionReassignmentsResponse;
pub use alter_partition_request::AlterPartitionRequest;
pub use alter_partition_response::AlterPartitionResponse;
pub use alter_replica_log_dirs_request::AlterReplicaLogDirsRequest;
pub use alter_replica_log_dirs_response::AlterReplicaLogDirsResponse;
pub use alter_share_group_offsets_request::AlterShareGroupOffsetsRequest;
pub use alter_share_group_offsets_response::AlterShareGroupOffsetsResponse;
pub use alter_user_scram_credentials_request::AlterUserScramCredentialsRequest;
pub use alter_user_scram_credentials_response::AlterUserScramCredentialsResponse;
pub use api_versions_request::ApiVersionsRequest;
pub use api_versions_response::ApiVersionsResponse;
pub use assign_replicas_to_dirs_request::AssignReplicasToDirsRequest;
pub use assign_replicas_to_dirs_response::AssignReplicasToDirsResponse;
pub use begin_quorum_epoch_request::BeginQuorumEpochRequest;
pub use begin_quorum_epoch_response::BeginQuorumEpochResponse;
pub use broker_heartbeat_request::BrokerHeartbeatRequest;
pub use broker_heartbeat_response::BrokerHeartbeatResponse;
pub use broker_registration_request::BrokerRegistrationRequest;
pub use broker_registration_response::BrokerRegistrationResponse;
pub use consumer_group_describe_request::ConsumerGroupDescribeRequest;
pub use consumer_group_describe_response::ConsumerGroupDescribeResponse;
pub use consumer_group_heartbeat_request::ConsumerGroupHeartbeatRequest;
pub use consumer_group_heartbeat_response::ConsumerGroupHeartbeatResponse;
pub use consumer_protocol_assignment::ConsumerProtocolAssignment;
pub use consumer_protocol_subscription::ConsumerProtocolSubscription;
pub use control_record_type_schema::ControlRecordTypeSchema;
pub use controller_registration_request::ControllerRegistrationRequest;
pub use controller_registration_response::ControllerRegistrationResponse;
pub use create_acls_request::CreateAclsRequest;
pub use create_acls_response::CreateAclsResponse;
pub use create_delegation_token_request::CreateDelegationTokenRequest;
pub use create_delegation_token_response::CreateDelegationTokenResponse;
pub use create_partitions_request::CreatePartitionsRequest;
pub use create_partitions_response::CreatePartitionsResponse;
pub use create_topics_request::CreateTopicsRequest;
pub use create_topics_response::CreateTopicsResponse;
pub use default_principal_data::DefaultPrincipalData;
pub use delete_acls_request::DeleteAclsRequest;
pub use delete_acls_response::DeleteAclsResponse;
pub use delete_groups_request::DeleteGroupsRequest;
pub use delete_groups_response::DeleteGroupsResponse;
pub use delete_records_request::DeleteRecordsRequest;
pub use delete_records_response::DeleteRecordsResponse;
pub use delete_share_group_offsets_request::DeleteShareGroupOffsetsRequest;
pub use delete_share_group_offsets_response::DeleteShareGroupOffsetsResponse;
pub use delete_share_group_state_request::DeleteShareGroupStateRequest;
pub use delete_share_group_state_response::DeleteShareGroupStateResponse;
pub use delete_topics_request::DeleteTopicsRequest;
pub use delete_topics_response::DeleteTopicsResponse;
pub use describe_acls_request::DescribeAclsRequest;
pub use describe_acls_response::DescribeAclsResponse;
pub use describe_client_quotas_request::DescribeClientQuotasRequest;
pub use describe_client_quotas_response::DescribeClientQuotasResponse;
pub use describe_cluster_request::DescribeClusterRequest;
pub use describe_cluster_response::DescribeClusterResponse;
pub use describe_configs_request::DescribeConfigsRequest;
pub use describe_configs_response::DescribeConfigsResponse;
pub use describe_delegation_token_request::DescribeDelegationTokenRequest;
pub use describe_delegation_token_response::DescribeDelegationTokenResponse;
pub use describe_groups_request::DescribeGroupsRequest;
pub use describe_groups_response::DescribeGroupsResponse;
pub use describe_log_dirs_request::DescribeLogDirsRequest;
pub use describe_log_dirs_response::DescribeLogDirsResponse;
pub use describe_producers_request::DescribeProducersRequest;
pub use describe_producers_response::DescribeProducersResponse;
pub use describe_quorum_request::DescribeQuorumRequest;
pub use describe_quorum_response::DescribeQuorumResponse;
pub use describe_share_group_offsets_request::DescribeShareGroupOffsetsRequest;
pub use describe_share_group_offsets_response::DescribeShareGroupOffsetsResponse;
pub use describe_topic_partitions_request::DescribeTopicPartitionsRequest;
pub use describe_topic_partitions_response::DescribeTopicPartitionsResponse;
pub use describe_transactions_request::DescribeTransactionsRequest;
pub use describe_transactions_response::DescribeTransactionsResponse;
pub use describe_user_scram_credentials_request::DescribeUserScramCredentialsRequest;
pub use describe_user_scram_credentials_response::DescribeUserScramCredentialsResponse;
pub use elect_leaders_request::ElectLeadersRequest;
pub use elect_leaders_response::ElectLeadersResponse;
pub use end_quorum_epoch_request::EndQuorumEpochRequest;
pub use end_quorum_epoch_response::EndQuorumEpochResponse;
pub use end_txn_marker::EndTxnMarker;
pub use end_txn_request::EndTxnRequest;
pub use end_txn_response::EndTxnResponse;
pub use envelope_request::EnvelopeRequest;
pub use envelope_response::EnvelopeResponse;
pub use expire_delegation_token_request::ExpireDelegationTokenRequest;
pub use expire_delegation_token_response::ExpireDelegationTokenResponse;
pub use fetch_request::FetchRequest;
pub use fetch_response::FetchResponse;
pub use fetch_snapshot_request::FetchSnapshotRequest;
pub use fetch_snapshot_response::FetchSnapshotResponse;
pub use find_coordinator_request::FindCoordinatorRequest;
pub use find_coordinator_response::FindCoordinatorResponse;
pub use get_telemetry_subscriptions_request::GetTelemetrySubscriptionsRequest;
pub use get_telemetry_subscriptions_response::GetTelemetrySubscriptionsResponse;
pub use heartbeat_request::HeartbeatRequest;
pub use heartbeat_response::HeartbeatResponse;
pub use incremental_alter_configs_request::IncrementalAlterConfigsRequest;
pub use incremental_alter_configs_response::IncrementalAlterConfigsResponse;
pub use init_producer_id_request::InitProducerIdRequest;
pub use init_producer_id_response::InitProducerIdResponse;
pub use initialize_share_group_state_request::InitializeShareGroupStateRequest;
pub use initialize_share_group_state_response::InitializeShareGroupStateResponse;
pub use join_group_request::JoinGroupRequest;
pub use join_group_response::JoinGroupResponse;
pub use k_raft_version_record::KRaftVersionRecord;
pub use leader_change_message::LeaderChangeMessage;
pub use leave_group_request::LeaveGroupRequest;
pub use leave_group_response::LeaveGroupResponse;
pub use list_config_resources_request::ListConfigResourcesRequest;
pub use list_config_resources_response::ListConfigResourcesResponse;
pub use list_groups_request::ListGroupsRequest;
pub use list_groups_response::ListGroupsResponse;
pub use list_offsets_request::ListOffsetsRequest;
pub use list_offsets_response::ListOffsetsResponse;
pub use list_partition_reassignments_request::ListPartitionReassignmentsRequest;
pub use list_partition_reassignments_response::ListPartitionReassignmentsResponse;
pub use list_transactions_request::ListTransactionsRequest;
pub use list_transactions_response::ListTransactionsResponse;
pub use metadata_request::MetadataRequest;
pub use metadata_response::MetadataResponse;
pub use offset_commit_request::OffsetCommitRequest;
pub use offset_commit_response::OffsetCommitResponse;
pub use offset_delete_request::OffsetDeleteRequest;
pub use offset_delete_response::OffsetDeleteResponse;
pub use offset_fetch_request::OffsetFetchRequest;
pub use offset_fetch_response::OffsetFetchResponse;
pub use offset_for_leader_epoch_request::OffsetForLeaderEpochRequest;
pub use offset_for_leader_epoch_response::OffsetForLeaderEpochResponse;
pub use produce_request::ProduceRequest;
pub use produce_response::ProduceResponse;
pub use push_telemetry_request::PushTelemetryRequest;
pub use push_telemetry_response::PushTelemetryResponse;
pub use read_share_group_state_request::ReadShareGroupStateRequest;
pub use read_share_group_state_response::ReadShareGroupStateResponse;
pub use read_share_group_state_summary_request::ReadShareGroupStateSummaryRequest;
pub use read_share_group_state_summary_response::ReadShareGroupStateSummaryResponse;
pub use remove_raft_voter_request::RemoveRaftVoterRequest;
pub use remove_raft_voter_response::RemoveRaftVoterResponse;
pub use renew_delegation_token_request::RenewDelegationTokenRequest;
pub use renew_delegation_token_response::RenewDelegationTokenResponse;
pub use request_header::RequestHeader;
pub use response_header::ResponseHeader;
pub use sasl_authenticate_request::SaslAuthenticateRequest;
pub use sasl_authenticate_response::SaslAuthenticateResponse;
pub use sasl_handshake_request::SaslHandshakeRequest;
pub use sasl_handshake_response::SaslHandshakeResponse;
pub use share_acknowledge_request::ShareAcknowledgeRequest;
pub use share_acknowledge_response::ShareAcknowledgeResponse;
pub use share_fetch_request::ShareFetchRequest;
pub use share_fetch_response::ShareFetchResponse;
pub use share_group_describe_request::ShareGroupDescribeRequest;
pub use share_group_describe_response::ShareGroupDescribeResponse;
pub use share_group_heartbeat_request::ShareGroupHeartbeatRequest;
pub use share_group_heartbeat_response::ShareGroupHeartbeatResponse;
pub use snapshot_footer_record::SnapshotFooterRecord;
pub use snapshot_header_record::SnapshotHeaderRecord;
pub use streams_group_describe_request::StreamsGroupDescribeRequest;
pub use streams_group_describe_response::StreamsGroupDescribeResponse;
pub use streams_group_heartbeat_request::StreamsGroupHeartbeatRequest;
pub use streams_group_heartbeat_response::StreamsGroupHeartbeatResponse;
pub use sync_group_request::SyncGroupRequest;
pub use sync_group_response::SyncGroupResponse;
pub use txn_offset_commit_request::TxnOffsetCommitRequest;
pub use txn_offset_commit_response::TxnOffsetCommitResponse;
pub use unregister_broker_request::UnregisterBrokerRequest;
pub use unregister_broker_response::UnregisterBrokerResponse;
pub use update_features_request::UpdateFeaturesRequest;
pub use update_features_response::UpdateFeaturesResponse;
pub use update_raft_voter_request::UpdateRaftVoterRequest;
pub use update_raft_voter_response::UpdateRaftVoterResponse;
pub use vote_request::VoteRequest;
pub use vote_response::VoteResponse;
pub use voters_record::VotersRecord;
pub use write_share_group_state_request::WriteShareGroupStateRequest;
pub use write_share_group_state_response::WriteShareGroupStateResponse;
pub use write_txn_markers_request::WriteTxnMarkersRequest;
pub use write_txn_markers_response::WriteTxnMarkersResponse;

use crate::Message;
use crate::codec::{Decoder, Encoder};
use crate::error::{DecodeError, EncodeError};

/// Every API a Kafka 4.x broker or controller speaks, by key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(i16)]
pub enum ApiKey {
    Produce = 0,
    Fetch = 1,
    ListOffsets = 2,
    Metadata = 3,
    OffsetCommit = 8,
    OffsetFetch = 9,
    FindCoordinator = 10,
    JoinGroup = 11,
    Heartbeat = 12,
    LeaveGroup = 13,
    SyncGroup = 14,
    DescribeGroups = 15,
    ListGroups = 16,
    SaslHandshake = 17,
    ApiVersions = 18,
    CreateTopics = 19,
    DeleteTopics = 20,
    DeleteRecords = 21,
    InitProducerId = 22,
    OffsetForLeaderEpoch = 23,
    AddPartitionsToTxn = 24,
    AddOffsetsToTxn = 25,
    EndTxn = 26,
    WriteTxnMarkers = 27,
    TxnOffsetCommit = 28,
    DescribeAcls = 29,
    CreateAcls = 30,
    DeleteAcls = 31,
    DescribeConfigs = 32,
    AlterConfigs = 33,
    AlterReplicaLogDirs = 34,
    DescribeLogDirs = 35,
    SaslAuthenticate = 36,
    CreatePartitions = 37,
    CreateDelegationToken = 38,
    RenewDelegationToken = 39,
    ExpireDelegationToken = 40,
    DescribeDelegationToken = 41,
    DeleteGroups = 42,
    ElectLeaders = 43,
    IncrementalAlterConfigs = 44,
    AlterPartitionReassignments = 45,
    ListPartitionReassignments = 46,
    OffsetDelete = 47,
    DescribeClientQuotas = 48,
    AlterClientQuotas = 49,
    DescribeUserScramCredentials = 50,
    AlterUserScramCredentials = 51,
    Vote = 52,
    BeginQuorumEpoch = 53,
    EndQuorumEpoch = 54,
    DescribeQuorum = 55,
    AlterPartition = 56,
    UpdateFeatures = 57,
    Envelope = 58,
    FetchSnapshot = 59,
    DescribeCluster = 60,
    DescribeProducers = 61,
    BrokerRegistration = 62,
    BrokerHeartbeat = 63,
    UnregisterBroker = 64,
    DescribeTransactions = 65,
    ListTransactions = 66,
    AllocateProducerIds = 67,
    ConsumerGroupHeartbeat = 68,
    ConsumerGroupDescribe = 69,
    ControllerRegistration = 70,
    GetTelemetrySubscriptions = 71,
    PushTelemetry = 72,
    AssignReplicasToDirs = 73,
    ListConfigResources = 74,
    DescribeTopicPartitions = 75,
    ShareGroupHeartbeat = 76,
    ShareGroupDescribe = 77,
    ShareFetch = 78,
    ShareAcknowledge = 79,
    AddRaftVoter = 80,
    RemoveRaftVoter = 81,
    UpdateRaftVoter = 82,
    InitializeShareGroupState = 83,
    ReadShareGroupState = 84,
    WriteShareGroupState = 85,
    DeleteShareGroupState = 86,
    ReadShareGroupStateSummary = 87,
    StreamsGroupHeartbeat = 88,
    StreamsGroupDescribe = 89,
    DescribeShareGroupOffsets = 90,
    AlterShareGroupOffsets = 91,
    DeleteShareGroupOffsets = 92,
}

/// API keys that Kafka once had and removed (`validVersions: none`): a
/// request with one of these keys is an unknown API to a Kafka 4 broker.
pub const REMOVED_API_KEYS: &[(i16, &str)] = &[
    (4, "LeaderAndIsr"),
    (5, "StopReplica"),
    (6, "UpdateMetadata"),
    (7, "ControlledShutdown"),
];

impl ApiKey {
    /// Every API key, in key order.
    pub const ALL: &'static [ApiKey] = &[
        ApiKey::Produce,
        ApiKey::Fetch,
        ApiKey::ListOffsets,
        ApiKey::Metadata,
        ApiKey::OffsetCommit,
        ApiKey::OffsetFetch,
        ApiKey::FindCoordinator,
        ApiKey::JoinGroup,
        ApiKey::Heartbeat,
        ApiKey::LeaveGroup,
        ApiKey::SyncGroup,
        ApiKey::DescribeGroups,
        ApiKey::ListGroups,
        ApiKey::SaslHandshake,
        ApiKey::ApiVersions,
        ApiKey::CreateTopics,
        ApiKey::DeleteTopics,
        ApiKey::DeleteRecords,
        ApiKey::InitProducerId,
        ApiKey::OffsetForLeaderEpoch,
        ApiKey::AddPartitionsToTxn,
        ApiKey::AddOffsetsToTxn,
        ApiKey::EndTxn,
        ApiKey::WriteTxnMarkers,
        ApiKey::TxnOffsetCommit,
        ApiKey::DescribeAcls,
        ApiKey::CreateAcls,
        ApiKey::DeleteAcls,
        ApiKey::DescribeConfigs,
        ApiKey::AlterConfigs,
        ApiKey::AlterReplicaLogDirs,
        ApiKey::DescribeLogDirs,
        ApiKey::SaslAuthenticate,
        ApiKey::CreatePartitions,
        ApiKey::CreateDelegationToken,
        ApiKey::RenewDelegationToken,
        ApiKey::ExpireDelegationToken,
        ApiKey::DescribeDelegationToken,
        ApiKey::DeleteGroups,
        ApiKey::ElectLeaders,
        ApiKey::IncrementalAlterConfigs,
        ApiKey::AlterPartitionReassignments,
        ApiKey::ListPartitionReassignments,
        ApiKey::OffsetDelete,
        ApiKey::DescribeClientQuotas,
        ApiKey::AlterClientQuotas,
        ApiKey::DescribeUserScramCredentials,
        ApiKey::AlterUserScramCredentials,
        ApiKey::Vote,
        ApiKey::BeginQuorumEpoch,
        ApiKey::EndQuorumEpoch,
        ApiKey::DescribeQuorum,
        ApiKey::AlterPartition,
        ApiKey::UpdateFeatures,
        ApiKey::Envelope,
        ApiKey::FetchSnapshot,
        ApiKey::DescribeCluster,
        ApiKey::DescribeProducers,
        ApiKey::BrokerRegistration,
        ApiKey::BrokerHeartbeat,
        ApiKey::UnregisterBroker,
        ApiKey::DescribeTransactions,
        ApiKey::ListTransactions,
        ApiKey::AllocateProducerIds,
        ApiKey::ConsumerGroupHeartbeat,
        ApiKey::ConsumerGroupDescribe,
        ApiKey::ControllerRegistration,
        ApiKey::GetTelemetrySubscriptions,
        ApiKey::PushTelemetry,
        ApiKey::AssignReplicasToDirs,
        ApiKey::ListConfigResources,
        ApiKey::DescribeTopicPartitions,
        ApiKey::ShareGroupHeartbeat,
        ApiKey::ShareGroupDescribe,
        ApiKey::ShareFetch,
        ApiKey::ShareAcknowledge,
        ApiKey::AddRaftVoter,
        ApiKey::RemoveRaftVoter,
        ApiKey::UpdateRaftVoter,
        ApiKey::InitializeShareGroupState,
        ApiKey::ReadShareGroupState,
        ApiKey::WriteShareGroupState,
        ApiKey::DeleteShareGroupState,
        ApiKey::ReadShareGroupStateSummary,
        ApiKey::StreamsGroupHeartbeat,
        ApiKey::StreamsGroupDescribe,
        ApiKey::DescribeShareGroupOffsets,
        ApiKey::AlterShareGroupOffsets,
        ApiKey::DeleteShareGroupOffsets,
    ];

    /// The key for a wire number, if Kafka defines it.
    pub fn from_i16(key: i16) -> Option<ApiKey> {
        match key {
            0 => Some(ApiKey::Produce),
            1 => Some(ApiKey::Fetch),
            2 => Some(ApiKey::ListOffsets),
            3 => Some(ApiKey::Metadata),
            8 => Some(ApiKey::OffsetCommit),
            9 => Some(ApiKey::OffsetFetch),
            10 => Some(ApiKey::FindCoordinator),
            11 => Some(ApiKey::JoinGroup),
            12 => Some(ApiKey::Heartbeat),
            13 => Some(ApiKey::LeaveGroup),
            14 => Some(ApiKey::SyncGroup),
            15 => Some(ApiKey::DescribeGroups),
            16 => Some(ApiKey::ListGroups),
            17 => Some(ApiKey::SaslHandshake),
            18 => Some(ApiKey::ApiVersions),
            19 => Some(ApiKey::CreateTopics),
            20 => Some(ApiKey::DeleteTopics),
            21 => Some(ApiKey::DeleteRecords),
            22 => Some(ApiKey::InitProducerId),
            23 => Some(ApiKey::OffsetForLeaderEpoch),
            24 => Some(ApiKey::AddPartitionsToTxn),
            25 => Some(ApiKey::AddOffsetsToTxn),
            26 => Some(ApiKey::EndTxn),
            27 => Some(ApiKey::WriteTxnMarkers),
            28 => Some(ApiKey::TxnOffsetCommit),
            29 => Some(ApiKey::DescribeAcls),
            30 => Some(ApiKey::CreateAcls),
            31 => Some(ApiKey::DeleteAcls),
            32 => Some(ApiKey::DescribeConfigs),
            33 => Some(ApiKey::AlterConfigs),
            34 => Some(ApiKey::AlterReplicaLogDirs),
            35 => Some(ApiKey::DescribeLogDirs),
            36 => Some(ApiKey::SaslAuthenticate),
            37 => Some(ApiKey::CreatePartitions),
            38 => Some(ApiKey::CreateDelegationToken),
            39 => Some(ApiKey::RenewDelegationToken),
            40 => Some(ApiKey::ExpireDelegationToken),
            41 => Some(ApiKey::DescribeDelegationToken),
            42 => Some(ApiKey::DeleteGroups),
            43 => Some(ApiKey::ElectLeaders),
            44 => Some(ApiKey::IncrementalAlterConfigs),
            45 => Some(ApiKey::AlterPartitionReassignments),
            46 => Some(ApiKey::ListPartitionReassignments),
            47 => Some(ApiKey::OffsetDelete),
            48 => Some(ApiKey::DescribeClientQuotas),
            49 => Some(ApiKey::AlterClientQuotas),
            50 => Some(ApiKey::DescribeUserScramCredentials),
            51 => Some(ApiKey::AlterUserScramCredentials),
            52 => Some(ApiKey::Vote),
            53 => Some(ApiKey::BeginQuorumEpoch),
            54 => Some(ApiKey::EndQuorumEpoch),
            55 => Some(ApiKey::DescribeQuorum),
            56 => Some(ApiKey::AlterPartition),
            57 => Some(ApiKey::UpdateFeatures),
            58 => Some(ApiKey::Envelope),
            59 => Some(ApiKey::FetchSnapshot),
            60 => Some(ApiKey::DescribeCluster),
            61 => Some(ApiKey::DescribeProducers),
            62 => Some(ApiKey::BrokerRegistration),
            63 => Some(ApiKey::BrokerHeartbeat),
            64 => Some(ApiKey::UnregisterBroker),
            65 => Some(ApiKey::DescribeTransactions),
            66 => Some(ApiKey::ListTransactions),
            67 => Some(ApiKey::AllocateProducerIds),
            68 => Some(ApiKey::ConsumerGroupHeartbeat),
            69 => Some(ApiKey::ConsumerGroupDescribe),
            70 => Some(ApiKey::ControllerRegistration),
            71 => Some(ApiKey::GetTelemetrySubscriptions),
            72 => Some(ApiKey::PushTelemetry),
            73 => Some(ApiKey::AssignReplicasToDirs),
            74 => Some(ApiKey::ListConfigResources),
            75 => Some(ApiKey::DescribeTopicPartitions),
            76 => Some(ApiKey::ShareGroupHeartbeat),
            77 => Some(ApiKey::ShareGroupDescribe),
            78 => Some(ApiKey::ShareFetch),
            79 => Some(ApiKey::ShareAcknowledge),
            80 => Some(ApiKey::AddRaftVoter),
            81 => Some(ApiKey::RemoveRaftVoter),
            82 => Some(ApiKey::UpdateRaftVoter),
            83 => Some(ApiKey::InitializeShareGroupState),
            84 => Some(ApiKey::ReadShareGroupState),
            85 => Some(ApiKey::WriteShareGroupState),
            86 => Some(ApiKey::DeleteShareGroupState),
            87 => Some(ApiKey::ReadShareGroupStateSummary),
            88 => Some(ApiKey::StreamsGroupHeartbeat),
            89 => Some(ApiKey::StreamsGroupDescribe),
            90 => Some(ApiKey::DescribeShareGroupOffsets),
            91 => Some(ApiKey::AlterShareGroupOffsets),
            92 => Some(ApiKey::DeleteShareGroupOffsets),
            _ => None,
        }
    }

    /// The wire number.
    pub fn as_i16(self) -> i16 {
        self as i16
    }

    /// The API's name as Kafka spells it (e.g. `Produce`).
    pub fn name(self) -> &'static str {
        match self {
            ApiKey::Produce => "Produce",
            ApiKey::Fetch => "Fetch",
            ApiKey::ListOffsets => "ListOffsets",
            ApiKey::Metadata => "Metadata",
            ApiKey::OffsetCommit => "OffsetCommit",
            ApiKey::OffsetFetch => "OffsetFetch",
            ApiKey::FindCoordinator => "FindCoordinator",
            ApiKey::JoinGroup => "JoinGroup",
            ApiKey::Heartbeat => "Heartbeat",
            ApiKey::LeaveGroup => "LeaveGroup",
            ApiKey::SyncGroup => "SyncGroup",
            ApiKey::DescribeGroups => "DescribeGroups",
            ApiKey::ListGroups => "ListGroups",
            ApiKey::SaslHandshake => "SaslHandshake",
            ApiKey::ApiVersions => "ApiVersions",
            ApiKey::CreateTopics => "CreateTopics",
            ApiKey::DeleteTopics => "DeleteTopics",
            ApiKey::DeleteRecords => "DeleteRecords",
            ApiKey::InitProducerId => "InitProducerId",
            ApiKey::OffsetForLeaderEpoch => "OffsetForLeaderEpoch",
            ApiKey::AddPartitionsToTxn => "AddPartitionsToTxn",
            ApiKey::AddOffsetsToTxn => "AddOffsetsToTxn",
            ApiKey::EndTxn => "EndTxn",
            ApiKey::WriteTxnMarkers => "WriteTxnMarkers",
            ApiKey::TxnOffsetCommit => "TxnOffsetCommit",
            ApiKey::DescribeAcls => "DescribeAcls",
            ApiKey::CreateAcls => "CreateAcls",
            ApiKey::DeleteAcls => "DeleteAcls",
            ApiKey::DescribeConfigs => "DescribeConfigs",
            ApiKey::AlterConfigs => "AlterConfigs",
            ApiKey::AlterReplicaLogDirs => "AlterReplicaLogDirs",
            ApiKey::DescribeLogDirs => "DescribeLogDirs",
            ApiKey::SaslAuthenticate => "SaslAuthenticate",
            ApiKey::CreatePartitions => "CreatePartitions",
            ApiKey::CreateDelegationToken => "CreateDelegationToken",
            ApiKey::RenewDelegationToken => "RenewDelegationToken",
            ApiKey::ExpireDelegationToken => "ExpireDelegationToken",
            ApiKey::DescribeDelegationToken => "DescribeDelegationToken",
            ApiKey::DeleteGroups => "DeleteGroups",
            ApiKey::ElectLeaders => "ElectLeaders",
            ApiKey::IncrementalAlterConfigs => "IncrementalAlterConfigs",
            ApiKey::AlterPartitionReassignments => "AlterPartitionReassignments",
            ApiKey::ListPartitionReassignments => "ListPartitionReassignments",
            ApiKey::OffsetDelete => "OffsetDelete",
            ApiKey::DescribeClientQuotas => "DescribeClientQuotas",
            ApiKey::AlterClientQuotas => "AlterClientQuotas",
            ApiKey::DescribeUserScramCredentials => "DescribeUserScramCredentials",
            ApiKey::AlterUserScramCredentials => "AlterUserScramCredentials",
            ApiKey::Vote => "Vote",
            ApiKey::BeginQuorumEpoch => "BeginQuorumEpoch",
            ApiKey::EndQuorumEpoch => "EndQuorumEpoch",
            ApiKey::DescribeQuorum => "DescribeQuorum",
            ApiKey::AlterPartition => "AlterPartition",
            ApiKey::UpdateFeatures => "UpdateFeatures",
            ApiKey::Envelope => "Envelope",
            ApiKey::FetchSnapshot => "FetchSnapshot",
            ApiKey::DescribeCluster => "DescribeCluster",
            ApiKey::DescribeProducers => "DescribeProducers",
            ApiKey::BrokerRegistration => "BrokerRegistration",
            ApiKey::BrokerHeartbeat => "BrokerHeartbeat",
            ApiKey::UnregisterBroker => "UnregisterBroker",
            ApiKey::DescribeTransactions => "DescribeTransactions",
            ApiKey::ListTransactions => "ListTransactions",
            ApiKey::AllocateProducerIds => "AllocateProducerIds",
            ApiKey::ConsumerGroupHeartbeat => "ConsumerGroupHeartbeat",
            ApiKey::ConsumerGroupDescribe => "ConsumerGroupDescribe",
            ApiKey::ControllerRegistration => "ControllerRegistration",
            ApiKey::GetTelemetrySubscriptions => "GetTelemetrySubscriptions",
            ApiKey::PushTelemetry => "PushTelemetry",
            ApiKey::AssignReplicasToDirs => "AssignReplicasToDirs",
            ApiKey::ListConfigResources => "ListConfigResources",
            ApiKey::DescribeTopicPartitions => "DescribeTopicPartitions",
            ApiKey::ShareGroupHeartbeat => "ShareGroupHeartbeat",
            ApiKey::ShareGroupDescribe => "ShareGroupDescribe",
            ApiKey::ShareFetch => "ShareFetch",
            ApiKey::ShareAcknowledge => "ShareAcknowledge",
            ApiKey::AddRaftVoter => "AddRaftVoter",
            ApiKey::RemoveRaftVoter => "RemoveRaftVoter",
            ApiKey::UpdateRaftVoter => "UpdateRaftVoter",
            ApiKey::InitializeShareGroupState => "InitializeShareGroupState",
            ApiKey::ReadShareGroupState => "ReadShareGroupState",
            ApiKey::WriteShareGroupState => "WriteShareGroupState",
            ApiKey::DeleteShareGroupState => "DeleteShareGroupState",
            ApiKey::ReadShareGroupStateSummary => "ReadShareGroupStateSummary",
            ApiKey::StreamsGroupHeartbeat => "StreamsGroupHeartbeat",
            ApiKey::StreamsGroupDescribe => "StreamsGroupDescribe",
            ApiKey::DescribeShareGroupOffsets => "DescribeShareGroupOffsets",
            ApiKey::AlterShareGroupOffsets => "AlterShareGroupOffsets",
            ApiKey::DeleteShareGroupOffsets => "DeleteShareGroupOffsets",
        }
    }

    /// The versions the schema defines, lowest and highest.
    pub fn valid_versions(self) -> (i16, i16) {
        match self {
            ApiKey::Produce => (3, 13),
            ApiKey::Fetch => (4, 18),
            ApiKey::ListOffsets => (1, 11),
            ApiKey::Metadata => (0, 13),
            ApiKey::OffsetCommit => (2, 10),
            ApiKey::OffsetFetch => (1, 10),
            ApiKey::FindCoordinator => (0, 6),
            ApiKey::JoinGroup => (0, 9),
            ApiKey::Heartbeat => (0, 4),
            ApiKey::LeaveGroup => (0, 5),
            ApiKey::SyncGroup => (0, 5),
            ApiKey::DescribeGroups => (0, 6),
            ApiKey::ListGroups => (0, 5),
            ApiKey::SaslHandshake => (0, 1),
            ApiKey::ApiVersions => (0, 4),
            ApiKey::CreateTopics => (2, 7),
            ApiKey::DeleteTopics => (1, 6),
            ApiKey::DeleteRecords => (0, 2),
            ApiKey::InitProducerId => (0, 6),
            ApiKey::OffsetForLeaderEpoch => (2, 4),
            ApiKey::AddPartitionsToTxn => (0, 5),
            ApiKey::AddOffsetsToTxn => (0, 4),
            ApiKey::EndTxn => (0, 5),
            ApiKey::WriteTxnMarkers => (1, 2),
            ApiKey::TxnOffsetCommit => (0, 5),
            ApiKey::DescribeAcls => (1, 3),
            ApiKey::CreateAcls => (1, 3),
            ApiKey::DeleteAcls => (1, 3),
            ApiKey::DescribeConfigs => (1, 4),
            ApiKey::AlterConfigs => (0, 2),
            ApiKey::AlterReplicaLogDirs => (1, 2),
            ApiKey::DescribeLogDirs => (1, 5),
            ApiKey::SaslAuthenticate => (0, 2),
            ApiKey::CreatePartitions => (0, 3),
            ApiKey::CreateDelegationToken => (1, 3),
            ApiKey::RenewDelegationToken => (1, 2),
            ApiKey::ExpireDelegationToken => (1, 2),
            ApiKey::DescribeDelegationToken => (1, 3),
            ApiKey::DeleteGroups => (0, 2),
            ApiKey::ElectLeaders => (0, 2),
            ApiKey::IncrementalAlterConfigs => (0, 1),
            ApiKey::AlterPartitionReassignments => (0, 1),
            ApiKey::ListPartitionReassignments => (0, 0),
            ApiKey::OffsetDelete => (0, 0),
            ApiKey::DescribeClientQuotas => (0, 1),
            ApiKey::AlterClientQuotas => (0, 1),
            ApiKey::DescribeUserScramCredentials => (0, 0),
            ApiKey::AlterUserScramCredentials => (0, 0),
            ApiKey::Vote => (0, 2),
            ApiKey::BeginQuorumEpoch => (0, 1),
            ApiKey::EndQuorumEpoch => (0, 1),
            ApiKey::DescribeQuorum => (0, 2),
            ApiKey::AlterPartition => (2, 3),
            ApiKey::UpdateFeatures => (0, 2),
            ApiKey::Envelope => (0, 0),
            ApiKey::FetchSnapshot => (0, 1),
            ApiKey::DescribeCluster => (0, 2),
            ApiKey::DescribeProducers => (0, 0),
            ApiKey::BrokerRegistration => (0, 4),
            ApiKey::BrokerHeartbeat => (0, 2),
            ApiKey::UnregisterBroker => (0, 0),
            ApiKey::DescribeTransactions => (0, 0),
            ApiKey::ListTransactions => (0, 2),
            ApiKey::AllocateProducerIds => (0, 0),
            ApiKey::ConsumerGroupHeartbeat => (0, 1),
            ApiKey::ConsumerGroupDescribe => (0, 1),
            ApiKey::ControllerRegistration => (0, 0),
            ApiKey::GetTelemetrySubscriptions => (0, 0),
            ApiKey::PushTelemetry => (0, 0),
            ApiKey::AssignReplicasToDirs => (0, 0),
            ApiKey::ListConfigResources => (0, 1),
            ApiKey::DescribeTopicPartitions => (0, 0),
            ApiKey::ShareGroupHeartbeat => (1, 1),
            ApiKey::ShareGroupDescribe => (1, 1),
            ApiKey::ShareFetch => (1, 2),
            ApiKey::ShareAcknowledge => (1, 2),
            ApiKey::AddRaftVoter => (0, 1),
            ApiKey::RemoveRaftVoter => (0, 0),
            ApiKey::UpdateRaftVoter => (0, 0),
            ApiKey::InitializeShareGroupState => (0, 0),
            ApiKey::ReadShareGroupState => (0, 0),
            ApiKey::WriteShareGroupState => (0, 1),
            ApiKey::DeleteShareGroupState => (0, 0),
            ApiKey::ReadShareGroupStateSummary => (0, 1),
            ApiKey::StreamsGroupHeartbeat => (0, 0),
            ApiKey::StreamsGroupDescribe => (0, 0),
            ApiKey::DescribeShareGroupOffsets => (0, 1),
            ApiKey::AlterShareGroupOffsets => (0, 0),
            ApiKey::DeleteShareGroupOffsets => (0, 0),
        }
    }

    /// The first flexible version (compact encodings, tagged fields), if any.
    pub fn flexible_min(self) -> Option<i16> {
        match self {
            ApiKey::Produce => Some(9),
            ApiKey::Fetch => Some(12),
            ApiKey::ListOffsets => Some(6),
            ApiKey::Metadata => Some(9),
            ApiKey::OffsetCommit => Some(8),
            ApiKey::OffsetFetch => Some(6),
            ApiKey::FindCoordinator => Some(3),
            ApiKey::JoinGroup => Some(6),
            ApiKey::Heartbeat => Some(4),
            ApiKey::LeaveGroup => Some(4),
            ApiKey::SyncGroup => Some(4),
            ApiKey::DescribeGroups => Some(5),
            ApiKey::ListGroups => Some(3),
            ApiKey::SaslHandshake => None,
            ApiKey::ApiVersions => Some(3),
            ApiKey::CreateTopics => Some(5),
            ApiKey::DeleteTopics => Some(4),
            ApiKey::DeleteRecords => Some(2),
            ApiKey::InitProducerId => Some(2),
            ApiKey::OffsetForLeaderEpoch => Some(4),
            ApiKey::AddPartitionsToTxn => Some(3),
            ApiKey::AddOffsetsToTxn => Some(3),
            ApiKey::EndTxn => Some(3),
            ApiKey::WriteTxnMarkers => Some(1),
            ApiKey::TxnOffsetCommit => Some(3),
            ApiKey::DescribeAcls => Some(2),
            ApiKey::CreateAcls => Some(2),
            ApiKey::DeleteAcls => Some(2),
            ApiKey::DescribeConfigs => Some(4),
            ApiKey::AlterConfigs => Some(2),
            ApiKey::AlterReplicaLogDirs => Some(2),
            ApiKey::DescribeLogDirs => Some(2),
            ApiKey::SaslAuthenticate => Some(2),
            ApiKey::CreatePartitions => Some(2),
            ApiKey::CreateDelegationToken => Some(2),
            ApiKey::RenewDelegationToken => Some(2),
            ApiKey::ExpireDelegationToken => Some(2),
            ApiKey::DescribeDelegationToken => Some(2),
            ApiKey::DeleteGroups => Some(2),
            ApiKey::ElectLeaders => Some(2),
            ApiKey::IncrementalAlterConfigs => Some(1),
            ApiKey::AlterPartitionReassignments => Some(0),
            ApiKey::ListPartitionReassignments => Some(0),
            ApiKey::OffsetDelete => None,
            ApiKey::DescribeClientQuotas => Some(1),
            ApiKey::AlterClientQuotas => Some(1),
            ApiKey::DescribeUserScramCredentials => Some(0),
            ApiKey::AlterUserScramCredentials => Some(0),
            ApiKey::Vote => Some(0),
            ApiKey::BeginQuorumEpoch => Some(1),
            ApiKey::EndQuorumEpoch => Some(1),
            ApiKey::DescribeQuorum => Some(0),
            ApiKey::AlterPartition => Some(0),
            ApiKey::UpdateFeatures => Some(0),
            ApiKey::Envelope => Some(0),
            ApiKey::FetchSnapshot => Some(0),
            ApiKey::DescribeCluster => Some(0),
            ApiKey::DescribeProducers => Some(0),
            ApiKey::BrokerRegistration => Some(0),
            ApiKey::BrokerHeartbeat => Some(0),
            ApiKey::UnregisterBroker => Some(0),
            ApiKey::DescribeTransactions => Some(0),
            ApiKey::ListTransactions => Some(0),
            ApiKey::AllocateProducerIds => Some(0),
            ApiKey::ConsumerGroupHeartbeat => Some(0),
            ApiKey::ConsumerGroupDescribe => Some(0),
            ApiKey::ControllerRegistration => Some(0),
            ApiKey::GetTelemetrySubscriptions => Some(0),
            ApiKey::PushTelemetry => Some(0),
            ApiKey::AssignReplicasToDirs => Some(0),
            ApiKey::ListConfigResources => Some(0),
            ApiKey::DescribeTopicPartitions => Some(0),
            ApiKey::ShareGroupHeartbeat => Some(0),
            ApiKey::ShareGroupDescribe => Some(0),
            ApiKey::ShareFetch => Some(0),
            ApiKey::ShareAcknowledge => Some(0),
            ApiKey::AddRaftVoter => Some(0),
            ApiKey::RemoveRaftVoter => Some(0),
            ApiKey::UpdateRaftVoter => Some(0),
            ApiKey::InitializeShareGroupState => Some(0),
            ApiKey::ReadShareGroupState => Some(0),
            ApiKey::WriteShareGroupState => Some(0),
            ApiKey::DeleteShareGroupState => Some(0),
            ApiKey::ReadShareGroupStateSummary => Some(0),
            ApiKey::StreamsGroupHeartbeat => Some(0),
            ApiKey::StreamsGroupDescribe => Some(0),
            ApiKey::DescribeShareGroupOffsets => Some(0),
            ApiKey::AlterShareGroupOffsets => Some(0),
            ApiKey::DeleteShareGroupOffsets => Some(0),
        }
    }

    /// Whether the schema marks its highest version as unstable (not to be
    /// advertised by default).
    pub fn latest_version_unstable(self) -> bool {
        matches!(self, ApiKey::InitProducerId)
    }

    /// Whether `version` is within the schema's valid range.
    pub fn is_valid_version(self, version: i16) -> bool {
        let (lo, hi) = self.valid_versions();
        (lo..=hi).contains(&version)
    }

    /// Whether `version` uses the flexible encoding.
    pub fn is_flexible(self, version: i16) -> bool {
        self.flexible_min().is_some_and(|f| version >= f)
    }

    /// The request header version for a request of this API at `version`.
    pub fn request_header_version(self, version: i16) -> i16 {
        if self.is_flexible(version) { 2 } else { 1 }
    }

    /// The response header version. ApiVersions responses always use
    /// header v0, so a client that does not know the broker's versions yet
    /// can read them.
    pub fn response_header_version(self, version: i16) -> i16 {
        if self.is_flexible(version) && self != ApiKey::ApiVersions {
            1
        } else {
            0
        }
    }
}

/// The body of any request, tagged by API.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestBody {
    Produce(ProduceRequest),
    Fetch(FetchRequest),
    ListOffsets(ListOffsetsRequest),
    Metadata(MetadataRequest),
    OffsetCommit(OffsetCommitRequest),
    OffsetFetch(OffsetFetchRequest),
    FindCoordinator(FindCoordinatorRequest),
    JoinGroup(JoinGroupRequest),
    Heartbeat(HeartbeatRequest),
    LeaveGroup(LeaveGroupRequest),
    SyncGroup(SyncGroupRequest),
    DescribeGroups(DescribeGroupsRequest),
    ListGroups(ListGroupsRequest),
    SaslHandshake(SaslHandshakeRequest),
    ApiVersions(ApiVersionsRequest),
    CreateTopics(CreateTopicsRequest),
    DeleteTopics(DeleteTopicsRequest),
    DeleteRecords(DeleteRecordsRequest),
    InitProducerId(InitProducerIdRequest),
    OffsetForLeaderEpoch(OffsetForLeaderEpochRequest),
    AddPartitionsToTxn(AddPartitionsToTxnRequest),
    AddOffsetsToTxn(AddOffsetsToTxnRequest),
    EndTxn(EndTxnRequest),
    WriteTxnMarkers(WriteTxnMarkersRequest),
    TxnOffsetCommit(TxnOffsetCommitRequest),
    DescribeAcls(DescribeAclsRequest),
    CreateAcls(CreateAclsRequest),
    DeleteAcls(DeleteAclsRequest),
    DescribeConfigs(DescribeConfigsRequest),
    AlterConfigs(AlterConfigsRequest),
    AlterReplicaLogDirs(AlterReplicaLogDirsRequest),
    DescribeLogDirs(DescribeLogDirsRequest),
    SaslAuthenticate(SaslAuthenticateRequest),
    CreatePartitions(CreatePartitionsRequest),
    CreateDelegationToken(CreateDelegationTokenRequest),
    RenewDelegationToken(RenewDelegationTokenRequest),
    ExpireDelegationToken(ExpireDelegationTokenRequest),
    DescribeDelegationToken(DescribeDelegationTokenRequest),
    DeleteGroups(DeleteGroupsRequest),
    ElectLeaders(ElectLeadersRequest),
    IncrementalAlterConfigs(IncrementalAlterConfigsRequest),
    AlterPartitionReassignments(AlterPartitionReassignmentsRequest),
    ListPartitionReassignments(ListPartitionReassignmentsRequest),
    OffsetDelete(OffsetDeleteRequest),
    DescribeClientQuotas(DescribeClientQuotasRequest),
    AlterClientQuotas(AlterClientQuotasRequest),
    DescribeUserScramCredentials(DescribeUserScramCredentialsRequest),
    AlterUserScramCredentials(AlterUserScramCredentialsRequest),
    Vote(VoteRequest),
    BeginQuorumEpoch(BeginQuorumEpochRequest),
    EndQuorumEpoch(EndQuorumEpochRequest),
    DescribeQuorum(DescribeQuorumRequest),
    AlterPartition(AlterPartitionRequest),
    UpdateFeatures(UpdateFeaturesRequest),
    Envelope(EnvelopeRequest),
    FetchSnapshot(FetchSnapshotRequest),
    DescribeCluster(DescribeClusterRequest),
    DescribeProducers(DescribeProducersRequest),
    BrokerRegistration(BrokerRegistrationRequest),
    BrokerHeartbeat(BrokerHeartbeatRequest),
    UnregisterBroker(UnregisterBrokerRequest),
    DescribeTransactions(DescribeTransactionsRequest),
    ListTransactions(ListTransactionsRequest),
    AllocateProducerIds(AllocateProducerIdsRequest),
    ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest),
    ConsumerGroupDescribe(ConsumerGroupDescribeRequest),
    ControllerRegistration(ControllerRegistrationRequest),
    GetTelemetrySubscriptions(GetTelemetrySubscriptionsRequest),
    PushTelemetry(PushTelemetryRequest),
    AssignReplicasToDirs(AssignReplicasToDirsRequest),
    ListConfigResources(ListConfigResourcesRequest),
    DescribeTopicPartitions(DescribeTopicPartitionsRequest),
    ShareGroupHeartbeat(ShareGroupHeartbeatRequest),
    ShareGroupDescribe(ShareGroupDescribeRequest),
    ShareFetch(ShareFetchRequest),
    ShareAcknowledge(ShareAcknowledgeRequest),
    AddRaftVoter(AddRaftVoterRequest),
    RemoveRaftVoter(RemoveRaftVoterRequest),
    UpdateRaftVoter(UpdateRaftVoterRequest),
    InitializeShareGroupState(InitializeShareGroupStateRequest),
    ReadShareGroupState(ReadShareGroupStateRequest),
    WriteShareGroupState(WriteShareGroupStateRequest),
    DeleteShareGroupState(DeleteShareGroupStateRequest),
    ReadShareGroupStateSummary(ReadShareGroupStateSummaryRequest),
    StreamsGroupHeartbeat(StreamsGroupHeartbeatRequest),
    StreamsGroupDescribe(StreamsGroupDescribeRequest),
    DescribeShareGroupOffsets(DescribeShareGroupOffsetsRequest),
    AlterShareGroupOffsets(AlterShareGroupOffsetsRequest),
    DeleteShareGroupOffsets(DeleteShareGroupOffsetsRequest),
}

impl RequestBody {
    /// The API this request belongs to.
    pub fn api_key(&self) -> ApiKey {
        match self {
            RequestBody::Produce(_) => ApiKey::Produce,
            RequestBody::Fetch(_) => ApiKey::Fetch,
            RequestBody::ListOffsets(_) => ApiKey::ListOffsets,
            RequestBody::Metadata(_) => ApiKey::Metadata,
            RequestBody::OffsetCommit(_) => ApiKey::OffsetCommit,
            RequestBody::OffsetFetch(_) => ApiKey::OffsetFetch,
            RequestBody::FindCoordinator(_) => ApiKey::FindCoordinator,
            RequestBody::JoinGroup(_) => ApiKey::JoinGroup,
            RequestBody::Heartbeat(_) => ApiKey::Heartbeat,
            RequestBody::LeaveGroup(_) => ApiKey::LeaveGroup,
            RequestBody::SyncGroup(_) => ApiKey::SyncGroup,
            RequestBody::DescribeGroups(_) => ApiKey::DescribeGroups,
            RequestBody::ListGroups(_) => ApiKey::ListGroups,
            RequestBody::SaslHandshake(_) => ApiKey::SaslHandshake,
            RequestBody::ApiVersions(_) => ApiKey::ApiVersions,
            RequestBody::CreateTopics(_) => ApiKey::CreateTopics,
            RequestBody::DeleteTopics(_) => ApiKey::DeleteTopics,
            RequestBody::DeleteRecords(_) => ApiKey::DeleteRecords,
            RequestBody::InitProducerId(_) => ApiKey::InitProducerId,
            RequestBody::OffsetForLeaderEpoch(_) => ApiKey::OffsetForLeaderEpoch,
            RequestBody::AddPartitionsToTxn(_) => ApiKey::AddPartitionsToTxn,
            RequestBody::AddOffsetsToTxn(_) => ApiKey::AddOffsetsToTxn,
            RequestBody::EndTxn(_) => ApiKey::EndTxn,
            RequestBody::WriteTxnMarkers(_) => ApiKey::WriteTxnMarkers,
            RequestBody::TxnOffsetCommit(_) => ApiKey::TxnOffsetCommit,
            RequestBody::DescribeAcls(_) => ApiKey::DescribeAcls,
            RequestBody::CreateAcls(_) => ApiKey::CreateAcls,
            RequestBody::DeleteAcls(_) => ApiKey::DeleteAcls,
            RequestBody::DescribeConfigs(_) => ApiKey::DescribeConfigs,
            RequestBody::AlterConfigs(_) => ApiKey::AlterConfigs,
            RequestBody::AlterReplicaLogDirs(_) => ApiKey::AlterReplicaLogDirs,
            RequestBody::DescribeLogDirs(_) => ApiKey::DescribeLogDirs,
            RequestBody::SaslAuthenticate(_) => ApiKey::SaslAuthenticate,
            RequestBody::CreatePartitions(_) => ApiKey::CreatePartitions,
            RequestBody::CreateDelegationToken(_) => ApiKey::CreateDelegationToken,
            RequestBody::RenewDelegationToken(_) => ApiKey::RenewDelegationToken,
            RequestBody::ExpireDelegationToken(_) => ApiKey::ExpireDelegationToken,
            RequestBody::DescribeDelegationToken(_) => ApiKey::DescribeDelegationToken,
            RequestBody::DeleteGroups(_) => ApiKey::DeleteGroups,
            RequestBody::ElectLeaders(_) => ApiKey::ElectLeaders,
            RequestBody::IncrementalAlterConfigs(_) => ApiKey::IncrementalAlterConfigs,
            RequestBody::AlterPartitionReassignments(_) => ApiKey::AlterPartitionReassignments,
            RequestBody::ListPartitionReassignments(_) => ApiKey::ListPartitionReassignments,
            RequestBody::OffsetDelete(_) => ApiKey::OffsetDelete,
            RequestBody::DescribeClientQuotas(_) => ApiKey::DescribeClientQuotas,
            RequestBody::AlterClientQuotas(_) => ApiKey::AlterClientQuotas,
            RequestBody::DescribeUserScramCredentials(_) => ApiKey::DescribeUserScramCredentials,
            RequestBody::AlterUserScramCredentials(_) => ApiKey::AlterUserScramCredentials,
            RequestBody::Vote(_) => ApiKey::Vote,
            RequestBody::BeginQuorumEpoch(_) => ApiKey::BeginQuorumEpoch,
            RequestBody::EndQuorumEpoch(_) => ApiKey::EndQuorumEpoch,
            RequestBody::DescribeQuorum(_) => ApiKey::DescribeQuorum,
            RequestBody::AlterPartition(_) => ApiKey::AlterPartition,
            RequestBody::UpdateFeatures(_) => ApiKey::UpdateFeatures,
            RequestBody::Envelope(_) => ApiKey::Envelope,
            RequestBody::FetchSnapshot(_) => ApiKey::FetchSnapshot,
            RequestBody::DescribeCluster(_) => ApiKey::DescribeCluster,
            RequestBody::DescribeProducers(_) => ApiKey::DescribeProducers,
            RequestBody::BrokerRegistration(_) => ApiKey::BrokerRegistration,
            RequestBody::BrokerHeartbeat(_) => ApiKey::BrokerHeartbeat,
            RequestBody::UnregisterBroker(_) => ApiKey::UnregisterBroker,
            RequestBody::DescribeTransactions(_) => ApiKey::DescribeTransactions,
            RequestBody::ListTransactions(_) => ApiKey::ListTransactions,
            RequestBody::AllocateProducerIds(_) => ApiKey::AllocateProducerIds,
            RequestBody::ConsumerGroupHeartbeat(_) => ApiKey::ConsumerGroupHeartbeat,
            RequestBody::ConsumerGroupDescribe(_) => ApiKey::ConsumerGroupDescribe,
            RequestBody::ControllerRegistration(_) => ApiKey::ControllerRegistration,
            RequestBody::GetTelemetrySubscriptions(_) => ApiKey::GetTelemetrySubscriptions,
            RequestBody::PushTelemetry(_) => ApiKey::PushTelemetry,
            RequestBody::AssignReplicasToDirs(_) => ApiKey::AssignReplicasToDirs,
            RequestBody::ListConfigResources(_) => ApiKey::ListConfigResources,
            RequestBody::DescribeTopicPartitions(_) => ApiKey::DescribeTopicPartitions,
            RequestBody::ShareGroupHeartbeat(_) => ApiKey::ShareGroupHeartbeat,
            RequestBody::ShareGroupDescribe(_) => ApiKey::ShareGroupDescribe,
            RequestBody::ShareFetch(_) => ApiKey::ShareFetch,
            RequestBody::ShareAcknowledge(_) => ApiKey::ShareAcknowledge,
            RequestBody::AddRaftVoter(_) => ApiKey::AddRaftVoter,
            RequestBody::RemoveRaftVoter(_) => ApiKey::RemoveRaftVoter,
            RequestBody::UpdateRaftVoter(_) => ApiKey::UpdateRaftVoter,
            RequestBody::InitializeShareGroupState(_) => ApiKey::InitializeShareGroupState,
            RequestBody::ReadShareGroupState(_) => ApiKey::ReadShareGroupState,
            RequestBody::WriteShareGroupState(_) => ApiKey::WriteShareGroupState,
            RequestBody::DeleteShareGroupState(_) => ApiKey::DeleteShareGroupState,
            RequestBody::ReadShareGroupStateSummary(_) => ApiKey::ReadShareGroupStateSummary,
            RequestBody::StreamsGroupHeartbeat(_) => ApiKey::StreamsGroupHeartbeat,
            RequestBody::StreamsGroupDescribe(_) => ApiKey::StreamsGroupDescribe,
            RequestBody::DescribeShareGroupOffsets(_) => ApiKey::DescribeShareGroupOffsets,
            RequestBody::AlterShareGroupOffsets(_) => ApiKey::AlterShareGroupOffsets,
            RequestBody::DeleteShareGroupOffsets(_) => ApiKey::DeleteShareGroupOffsets,
        }
    }

    /// Decodes a request body of `key` at `version`; the version is checked.
    pub fn decode(key: ApiKey, d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        Ok(match key {
            ApiKey::Produce => RequestBody::Produce(ProduceRequest::decode(d, version)?),
            ApiKey::Fetch => RequestBody::Fetch(FetchRequest::decode(d, version)?),
            ApiKey::ListOffsets => {
                RequestBody::ListOffsets(ListOffsetsRequest::decode(d, version)?)
            }
            ApiKey::Metadata => RequestBody::Metadata(MetadataRequest::decode(d, version)?),
            ApiKey::OffsetCommit => {
                RequestBody::OffsetCommit(OffsetCommitRequest::decode(d, version)?)
            }
            ApiKey::OffsetFetch => {
                RequestBody::OffsetFetch(OffsetFetchRequest::decode(d, version)?)
            }
            ApiKey::FindCoordinator => {
                RequestBody::FindCoordinator(FindCoordinatorRequest::decode(d, version)?)
            }
            ApiKey::JoinGroup => RequestBody::JoinGroup(JoinGroupRequest::decode(d, version)?),
            ApiKey::Heartbeat => RequestBody::Heartbeat(HeartbeatRequest::decode(d, version)?),
            ApiKey::LeaveGroup => RequestBody::LeaveGroup(LeaveGroupRequest::decode(d, version)?),
            ApiKey::SyncGroup => RequestBody::SyncGroup(SyncGroupRequest::decode(d, version)?),
            ApiKey::DescribeGroups => {
                RequestBody::DescribeGroups(DescribeGroupsRequest::decode(d, version)?)
            }
            ApiKey::ListGroups => RequestBody::ListGroups(ListGroupsRequest::decode(d, version)?),
            ApiKey::SaslHandshake => {
                RequestBody::SaslHandshake(SaslHandshakeRequest::decode(d, version)?)
            }
            ApiKey::ApiVersions => {
                RequestBody::ApiVersions(ApiVersionsRequest::decode(d, version)?)
            }
            ApiKey::CreateTopics => {
                RequestBody::CreateTopics(CreateTopicsRequest::decode(d, version)?)
            }
            ApiKey::DeleteTopics => {
                RequestBody::DeleteTopics(DeleteTopicsRequest::decode(d, version)?)
            }
            ApiKey::DeleteRecords => {
                RequestBody::DeleteRecords(DeleteRecordsRequest::decode(d, version)?)
            }
            ApiKey::InitProducerId => {
                RequestBody::InitProducerId(InitProducerIdRequest::decode(d, version)?)
            }
            ApiKey::OffsetForLeaderEpoch => {
                RequestBody::OffsetForLeaderEpoch(OffsetForLeaderEpochRequest::decode(d, version)?)
            }
            ApiKey::AddPartitionsToTxn => {
                RequestBody::AddPartitionsToTxn(AddPartitionsToTxnRequest::decode(d, version)?)
            }
            ApiKey::AddOffsetsToTxn => {
                RequestBody::AddOffsetsToTxn(AddOffsetsToTxnRequest::decode(d, version)?)
            }
            ApiKey::EndTxn => RequestBody::EndTxn(EndTxnRequest::decode(d, version)?),
            ApiKey::WriteTxnMarkers => {
                RequestBody::WriteTxnMarkers(WriteTxnMarkersRequest::decode(d, version)?)
            }
            ApiKey::TxnOffsetCommit => {
                RequestBody::TxnOffsetCommit(TxnOffsetCommitRequest::decode(d, version)?)
            }
            ApiKey::DescribeAcls => {
                RequestBody::DescribeAcls(DescribeAclsRequest::decode(d, version)?)
            }
            ApiKey::CreateAcls => RequestBody::CreateAcls(CreateAclsRequest::decode(d, version)?),
            ApiKey::DeleteAcls => RequestBody::DeleteAcls(DeleteAclsRequest::decode(d, version)?),
            ApiKey::DescribeConfigs => {
                RequestBody::DescribeConfigs(DescribeConfigsRequest::decode(d, version)?)
            }
            ApiKey::AlterConfigs => {
                RequestBody::AlterConfigs(AlterConfigsRequest::decode(d, version)?)
            }
            ApiKey::AlterReplicaLogDirs => {
                RequestBody::AlterReplicaLogDirs(AlterReplicaLogDirsRequest::decode(d, version)?)
            }
            ApiKey::DescribeLogDirs => {
                RequestBody::DescribeLogDirs(DescribeLogDirsRequest::decode(d, version)?)
            }
            ApiKey::SaslAuthenticate => {
                RequestBody::SaslAuthenticate(SaslAuthenticateRequest::decode(d, version)?)
            }
            ApiKey::CreatePartitions => {
                RequestBody::CreatePartitions(CreatePartitionsRequest::decode(d, version)?)
            }
            ApiKey::CreateDelegationToken => RequestBody::CreateDelegationToken(
                CreateDelegationTokenRequest::decode(d, version)?,
            ),
            ApiKey::RenewDelegationToken => {
                RequestBody::RenewDelegationToken(RenewDelegationTokenRequest::decode(d, version)?)
            }
            ApiKey::ExpireDelegationToken => RequestBody::ExpireDelegationToken(
                ExpireDelegationTokenRequest::decode(d, version)?,
            ),
            ApiKey::DescribeDelegationToken => RequestBody::DescribeDelegationToken(
                DescribeDelegationTokenRequest::decode(d, version)?,
            ),
            ApiKey::DeleteGroups => {
                RequestBody::DeleteGroups(DeleteGroupsRequest::decode(d, version)?)
            }
            ApiKey::ElectLeaders => {
                RequestBody::ElectLeaders(ElectLeadersRequest::decode(d, version)?)
            }
            ApiKey::IncrementalAlterConfigs => RequestBody::IncrementalAlterConfigs(
                IncrementalAlterConfigsRequest::decode(d, version)?,
            ),
            ApiKey::AlterPartitionReassignments => RequestBody::AlterPartitionReassignments(
                AlterPartitionReassignmentsRequest::decode(d, version)?,
            ),
            ApiKey::ListPartitionReassignments => RequestBody::ListPartitionReassignments(
                ListPartitionReassignmentsRequest::decode(d, version)?,
            ),
            ApiKey::OffsetDelete => {
                RequestBody::OffsetDelete(OffsetDeleteRequest::decode(d, version)?)
            }
            ApiKey::DescribeClientQuotas => {
                RequestBody::DescribeClientQuotas(DescribeClientQuotasRequest::decode(d, version)?)
            }
            ApiKey::AlterClientQuotas => {
                RequestBody::AlterClientQuotas(AlterClientQuotasRequest::decode(d, version)?)
            }
            ApiKey::DescribeUserScramCredentials => RequestBody::DescribeUserScramCredentials(
                DescribeUserScramCredentialsRequest::decode(d, version)?,
            ),
            ApiKey::AlterUserScramCredentials => RequestBody::AlterUserScramCredentials(
                AlterUserScramCredentialsRequest::decode(d, version)?,
            ),
            ApiKey::Vote => RequestBody::Vote(VoteRequest::decode(d, version)?),
            ApiKey::BeginQuorumEpoch => {
                RequestBody::BeginQuorumEpoch(BeginQuorumEpochRequest::decode(d, version)?)
            }
            ApiKey::EndQuorumEpoch => {
                RequestBody::EndQuorumEpoch(EndQuorumEpochRequest::decode(d, version)?)
            }
            ApiKey::DescribeQuorum => {
                RequestBody::DescribeQuorum(DescribeQuorumRequest::decode(d, version)?)
            }
            ApiKey::AlterPartition => {
                RequestBody::AlterPartition(AlterPartitionRequest::decode(d, version)?)
            }
            ApiKey::UpdateFeatures => {
                RequestBody::UpdateFeatures(UpdateFeaturesRequest::decode(d, version)?)
            }
            ApiKey::Envelope => RequestBody::Envelope(EnvelopeRequest::decode(d, version)?),
            ApiKey::FetchSnapshot => {
                RequestBody::FetchSnapshot(FetchSnapshotRequest::decode(d, version)?)
            }
            ApiKey::DescribeCluster => {
                RequestBody::DescribeCluster(DescribeClusterRequest::decode(d, version)?)
            }
            ApiKey::DescribeProducers => {
                RequestBody::DescribeProducers(DescribeProducersRequest::decode(d, version)?)
            }
            ApiKey::BrokerRegistration => {
                RequestBody::BrokerRegistration(BrokerRegistrationRequest::decode(d, version)?)
            }
            ApiKey::BrokerHeartbeat => {
                RequestBody::BrokerHeartbeat(BrokerHeartbeatRequest::decode(d, version)?)
            }
            ApiKey::UnregisterBroker => {
                RequestBody::UnregisterBroker(UnregisterBrokerRequest::decode(d, version)?)
            }
            ApiKey::DescribeTransactions => {
                RequestBody::DescribeTransactions(DescribeTransactionsRequest::decode(d, version)?)
            }
            ApiKey::ListTransactions => {
                RequestBody::ListTransactions(ListTransactionsRequest::decode(d, version)?)
            }
            ApiKey::AllocateProducerIds => {
                RequestBody::AllocateProducerIds(AllocateProducerIdsRequest::decode(d, version)?)
            }
            ApiKey::ConsumerGroupHeartbeat => RequestBody::ConsumerGroupHeartbeat(
                ConsumerGroupHeartbeatRequest::decode(d, version)?,
            ),
            ApiKey::ConsumerGroupDescribe => RequestBody::ConsumerGroupDescribe(
                ConsumerGroupDescribeRequest::decode(d, version)?,
            ),
            ApiKey::ControllerRegistration => RequestBody::ControllerRegistration(
                ControllerRegistrationRequest::decode(d, version)?,
            ),
            ApiKey::GetTelemetrySubscriptions => RequestBody::GetTelemetrySubscriptions(
                GetTelemetrySubscriptionsRequest::decode(d, version)?,
            ),
            ApiKey::PushTelemetry => {
                RequestBody::PushTelemetry(PushTelemetryRequest::decode(d, version)?)
            }
            ApiKey::AssignReplicasToDirs => {
                RequestBody::AssignReplicasToDirs(AssignReplicasToDirsRequest::decode(d, version)?)
            }
            ApiKey::ListConfigResources => {
                RequestBody::ListConfigResources(ListConfigResourcesRequest::decode(d, version)?)
            }
            ApiKey::DescribeTopicPartitions => RequestBody::DescribeTopicPartitions(
                DescribeTopicPartitionsRequest::decode(d, version)?,
            ),
            ApiKey::ShareGroupHeartbeat => {
                RequestBody::ShareGroupHeartbeat(ShareGroupHeartbeatRequest::decode(d, version)?)
            }
            ApiKey::ShareGroupDescribe => {
                RequestBody::ShareGroupDescribe(ShareGroupDescribeRequest::decode(d, version)?)
            }
            ApiKey::ShareFetch => RequestBody::ShareFetch(ShareFetchRequest::decode(d, version)?),
            ApiKey::ShareAcknowledge => {
                RequestBody::ShareAcknowledge(ShareAcknowledgeRequest::decode(d, version)?)
            }
            ApiKey::AddRaftVoter => {
                RequestBody::AddRaftVoter(AddRaftVoterRequest::decode(d, version)?)
            }
            ApiKey::RemoveRaftVoter => {
                RequestBody::RemoveRaftVoter(RemoveRaftVoterRequest::decode(d, version)?)
            }
            ApiKey::UpdateRaftVoter => {
                RequestBody::UpdateRaftVoter(UpdateRaftVoterRequest::decode(d, version)?)
            }
            ApiKey::InitializeShareGroupState => RequestBody::InitializeShareGroupState(
                InitializeShareGroupStateRequest::decode(d, version)?,
            ),
            ApiKey::ReadShareGroupState => {
                RequestBody::ReadShareGroupState(ReadShareGroupStateRequest::decode(d, version)?)
            }
            ApiKey::WriteShareGroupState => {
                RequestBody::WriteShareGroupState(WriteShareGroupStateRequest::decode(d, version)?)
            }
            ApiKey::DeleteShareGroupState => RequestBody::DeleteShareGroupState(
                DeleteShareGroupStateRequest::decode(d, version)?,
            ),
            ApiKey::ReadShareGroupStateSummary => RequestBody::ReadShareGroupStateSummary(
                ReadShareGroupStateSummaryRequest::decode(d, version)?,
            ),
            ApiKey::StreamsGroupHeartbeat => RequestBody::StreamsGroupHeartbeat(
                StreamsGroupHeartbeatRequest::decode(d, version)?,
            ),
            ApiKey::StreamsGroupDescribe => {
                RequestBody::StreamsGroupDescribe(StreamsGroupDescribeRequest::decode(d, version)?)
            }
            ApiKey::DescribeShareGroupOffsets => RequestBody::DescribeShareGroupOffsets(
                DescribeShareGroupOffsetsRequest::decode(d, version)?,
            ),
            ApiKey::AlterShareGroupOffsets => RequestBody::AlterShareGroupOffsets(
                AlterShareGroupOffsetsRequest::decode(d, version)?,
            ),
            ApiKey::DeleteShareGroupOffsets => RequestBody::DeleteShareGroupOffsets(
                DeleteShareGroupOffsetsRequest::decode(d, version)?,
            ),
        })
    }

    /// Encodes the body at `version`; the version is checked.
    pub fn encode(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        match self {
            RequestBody::Produce(m) => m.encode(e, version),
            RequestBody::Fetch(m) => m.encode(e, version),
            RequestBody::ListOffsets(m) => m.encode(e, version),
            RequestBody::Metadata(m) => m.encode(e, version),
            RequestBody::OffsetCommit(m) => m.encode(e, version),
            RequestBody::OffsetFetch(m) => m.encode(e, version),
            RequestBody::FindCoordinator(m) => m.encode(e, version),
            RequestBody::JoinGroup(m) => m.encode(e, version),
            RequestBody::Heartbeat(m) => m.encode(e, version),
            RequestBody::LeaveGroup(m) => m.encode(e, version),
            RequestBody::SyncGroup(m) => m.encode(e, version),
            RequestBody::DescribeGroups(m) => m.encode(e, version),
            RequestBody::ListGroups(m) => m.encode(e, version),
            RequestBody::SaslHandshake(m) => m.encode(e, version),
            RequestBody::ApiVersions(m) => m.encode(e, version),
            RequestBody::CreateTopics(m) => m.encode(e, version),
            RequestBody::DeleteTopics(m) => m.encode(e, version),
            RequestBody::DeleteRecords(m) => m.encode(e, version),
            RequestBody::InitProducerId(m) => m.encode(e, version),
            RequestBody::OffsetForLeaderEpoch(m) => m.encode(e, version),
            RequestBody::AddPartitionsToTxn(m) => m.encode(e, version),
            RequestBody::AddOffsetsToTxn(m) => m.encode(e, version),
            RequestBody::EndTxn(m) => m.encode(e, version),
            RequestBody::WriteTxnMarkers(m) => m.encode(e, version),
            RequestBody::TxnOffsetCommit(m) => m.encode(e, version),
            RequestBody::DescribeAcls(m) => m.encode(e, version),
            RequestBody::CreateAcls(m) => m.encode(e, version),
            RequestBody::DeleteAcls(m) => m.encode(e, version),
            RequestBody::DescribeConfigs(m) => m.encode(e, version),
            RequestBody::AlterConfigs(m) => m.encode(e, version),
            RequestBody::AlterReplicaLogDirs(m) => m.encode(e, version),
            RequestBody::DescribeLogDirs(m) => m.encode(e, version),
            RequestBody::SaslAuthenticate(m) => m.encode(e, version),
            RequestBody::CreatePartitions(m) => m.encode(e, version),
            RequestBody::CreateDelegationToken(m) => m.encode(e, version),
            RequestBody::RenewDelegationToken(m) => m.encode(e, version),
            RequestBody::ExpireDelegationToken(m) => m.encode(e, version),
            RequestBody::DescribeDelegationToken(m) => m.encode(e, version),
            RequestBody::DeleteGroups(m) => m.encode(e, version),
            RequestBody::ElectLeaders(m) => m.encode(e, version),
            RequestBody::IncrementalAlterConfigs(m) => m.encode(e, version),
            RequestBody::AlterPartitionReassignments(m) => m.encode(e, version),
            RequestBody::ListPartitionReassignments(m) => m.encode(e, version),
            RequestBody::OffsetDelete(m) => m.encode(e, version),
            RequestBody::DescribeClientQuotas(m) => m.encode(e, version),
            RequestBody::AlterClientQuotas(m) => m.encode(e, version),
            RequestBody::DescribeUserScramCredentials(m) => m.encode(e, version),
            RequestBody::AlterUserScramCredentials(m) => m.encode(e, version),
            RequestBody::Vote(m) => m.encode(e, version),
            RequestBody::BeginQuorumEpoch(m) => m.encode(e, version),
            RequestBody::EndQuorumEpoch(m) => m.encode(e, version),
            RequestBody::DescribeQuorum(m) => m.encode(e, version),
            RequestBody::AlterPartition(m) => m.encode(e, version),
            RequestBody::UpdateFeatures(m) => m.encode(e, version),
            RequestBody::Envelope(m) => m.encode(e, version),
            RequestBody::FetchSnapshot(m) => m.encode(e, version),
            RequestBody::DescribeCluster(m) => m.encode(e, version),
            RequestBody::DescribeProducers(m) => m.encode(e, version),
            RequestBody::BrokerRegistration(m) => m.encode(e, version),
            RequestBody::BrokerHeartbeat(m) => m.encode(e, version),
            RequestBody::UnregisterBroker(m) => m.encode(e, version),
            RequestBody::DescribeTransactions(m) => m.encode(e, version),
            RequestBody::ListTransactions(m) => m.encode(e, version),
            RequestBody::AllocateProducerIds(m) => m.encode(e, version),
            RequestBody::ConsumerGroupHeartbeat(m) => m.encode(e, version),
            RequestBody::ConsumerGroupDescribe(m) => m.encode(e, version),
            RequestBody::ControllerRegistration(m) => m.encode(e, version),
            RequestBody::GetTelemetrySubscriptions(m) => m.encode(e, version),
            RequestBody::PushTelemetry(m) => m.encode(e, version),
            RequestBody::AssignReplicasToDirs(m) => m.encode(e, version),
            RequestBody::ListConfigResources(m) => m.encode(e, version),
            RequestBody::DescribeTopicPartitions(m) => m.encode(e, version),
            RequestBody::ShareGroupHeartbeat(m) => m.encode(e, version),
            RequestBody::ShareGroupDescribe(m) => m.encode(e, version),
            RequestBody::ShareFetch(m) => m.encode(e, version),
            RequestBody::ShareAcknowledge(m) => m.encode(e, version),
            RequestBody::AddRaftVoter(m) => m.encode(e, version),
            RequestBody::RemoveRaftVoter(m) => m.encode(e, version),
            RequestBody::UpdateRaftVoter(m) => m.encode(e, version),
            RequestBody::InitializeShareGroupState(m) => m.encode(e, version),
            RequestBody::ReadShareGroupState(m) => m.encode(e, version),
            RequestBody::WriteShareGroupState(m) => m.encode(e, version),
            RequestBody::DeleteShareGroupState(m) => m.encode(e, version),
            RequestBody::ReadShareGroupStateSummary(m) => m.encode(e, version),
            RequestBody::StreamsGroupHeartbeat(m) => m.encode(e, version),
            RequestBody::StreamsGroupDescribe(m) => m.encode(e, version),
            RequestBody::DescribeShareGroupOffsets(m) => m.encode(e, version),
            RequestBody::AlterShareGroupOffsets(m) => m.encode(e, version),
            RequestBody::DeleteShareGroupOffsets(m) => m.encode(e, version),
        }
    }
}

impl From<ProduceRequest> for RequestBody {
    fn from(m: ProduceRequest) -> Self {
        RequestBody::Produce(m)
    }
}

impl From<FetchRequest> for RequestBody {
    fn from(m: FetchRequest) -> Self {
        RequestBody::Fetch(m)
    }
}

impl From<ListOffsetsRequest> for RequestBody {
    fn from(m: ListOffsetsRequest) -> Self {
        RequestBody::ListOffsets(m)
    }
}

impl From<MetadataRequest> for RequestBody {
    fn from(m: MetadataRequest) -> Self {
        RequestBody::Metadata(m)
    }
}

impl From<OffsetCommitRequest> for RequestBody {
    fn from(m: OffsetCommitRequest) -> Self {
        RequestBody::OffsetCommit(m)
    }
}

impl From<OffsetFetchRequest> for RequestBody {
    fn from(m: OffsetFetchRequest) -> Self {
        RequestBody::OffsetFetch(m)
    }
}

impl From<FindCoordinatorRequest> for RequestBody {
    fn from(m: FindCoordinatorRequest) -> Self {
        RequestBody::FindCoordinator(m)
    }
}

impl From<JoinGroupRequest> for RequestBody {
    fn from(m: JoinGroupRequest) -> Self {
        RequestBody::JoinGroup(m)
    }
}

impl From<HeartbeatRequest> for RequestBody {
    fn from(m: HeartbeatRequest) -> Self {
        RequestBody::Heartbeat(m)
    }
}

impl From<LeaveGroupRequest> for RequestBody {
    fn from(m: LeaveGroupRequest) -> Self {
        RequestBody::LeaveGroup(m)
    }
}

impl From<SyncGroupRequest> for RequestBody {
    fn from(m: SyncGroupRequest) -> Self {
        RequestBody::SyncGroup(m)
    }
}

impl From<DescribeGroupsRequest> for RequestBody {
    fn from(m: DescribeGroupsRequest) -> Self {
        RequestBody::DescribeGroups(m)
    }
}

impl From<ListGroupsRequest> for RequestBody {
    fn from(m: ListGroupsRequest) -> Self {
        RequestBody::ListGroups(m)
    }
}

impl From<SaslHandshakeRequest> for RequestBody {
    fn from(m: SaslHandshakeRequest) -> Self {
        RequestBody::SaslHandshake(m)
    }
}

impl From<ApiVersionsRequest> for RequestBody {
    fn from(m: ApiVersionsRequest) -> Self {
        RequestBody::ApiVersions(m)
    }
}

impl From<CreateTopicsRequest> for RequestBody {
    fn from(m: CreateTopicsRequest) -> Self {
        RequestBody::CreateTopics(m)
    }
}

impl From<DeleteTopicsRequest> for RequestBody {
    fn from(m: DeleteTopicsRequest) -> Self {
        RequestBody::DeleteTopics(m)
    }
}

impl From<DeleteRecordsRequest> for RequestBody {
    fn from(m: DeleteRecordsRequest) -> Self {
        RequestBody::DeleteRecords(m)
    }
}

impl From<InitProducerIdRequest> for RequestBody {
    fn from(m: InitProducerIdRequest) -> Self {
        RequestBody::InitProducerId(m)
    }
}

impl From<OffsetForLeaderEpochRequest> for RequestBody {
    fn from(m: OffsetForLeaderEpochRequest) -> Self {
        RequestBody::OffsetForLeaderEpoch(m)
    }
}

impl From<AddPartitionsToTxnRequest> for RequestBody {
    fn from(m: AddPartitionsToTxnRequest) -> Self {
        RequestBody::AddPartitionsToTxn(m)
    }
}

impl From<AddOffsetsToTxnRequest> for RequestBody {
    fn from(m: AddOffsetsToTxnRequest) -> Self {
        RequestBody::AddOffsetsToTxn(m)
    }
}

impl From<EndTxnRequest> for RequestBody {
    fn from(m: EndTxnRequest) -> Self {
        RequestBody::EndTxn(m)
    }
}

impl From<WriteTxnMarkersRequest> for RequestBody {
    fn from(m: WriteTxnMarkersRequest) -> Self {
        RequestBody::WriteTxnMarkers(m)
    }
}

impl From<TxnOffsetCommitRequest> for RequestBody {
    fn from(m: TxnOffsetCommitRequest) -> Self {
        RequestBody::TxnOffsetCommit(m)
    }
}

impl From<DescribeAclsRequest> for RequestBody {
    fn from(m: DescribeAclsRequest) -> Self {
        RequestBody::DescribeAcls(m)
    }
}

impl From<CreateAclsRequest> for RequestBody {
    fn from(m: CreateAclsRequest) -> Self {
        RequestBody::CreateAcls(m)
    }
}

impl From<DeleteAclsRequest> for RequestBody {
    fn from(m: DeleteAclsRequest) -> Self {
        RequestBody::DeleteAcls(m)
    }
}

impl From<DescribeConfigsRequest> for RequestBody {
    fn from(m: DescribeConfigsRequest) -> Self {
        RequestBody::DescribeConfigs(m)
    }
}

impl From<AlterConfigsRequest> for RequestBody {
    fn from(m: AlterConfigsRequest) -> Self {
        RequestBody::AlterConfigs(m)
    }
}

impl From<AlterReplicaLogDirsRequest> for RequestBody {
    fn from(m: AlterReplicaLogDirsRequest) -> Self {
        RequestBody::AlterReplicaLogDirs(m)
    }
}

impl From<DescribeLogDirsRequest> for RequestBody {
    fn from(m: DescribeLogDirsRequest) -> Self {
        RequestBody::DescribeLogDirs(m)
    }
}

impl From<SaslAuthenticateRequest> for RequestBody {
    fn from(m: SaslAuthenticateRequest) -> Self {
        RequestBody::SaslAuthenticate(m)
    }
}

impl From<CreatePartitionsRequest> for RequestBody {
    fn from(m: CreatePartitionsRequest) -> Self {
        RequestBody::CreatePartitions(m)
    }
}

impl From<CreateDelegationTokenRequest> for RequestBody {
    fn from(m: CreateDelegationTokenRequest) -> Self {
        RequestBody::CreateDelegationToken(m)
    }
}

impl From<RenewDelegationTokenRequest> for RequestBody {
    fn from(m: RenewDelegationTokenRequest) -> Self {
        RequestBody::RenewDelegationToken(m)
    }
}

impl From<ExpireDelegationTokenRequest> for RequestBody {
    fn from(m: ExpireDelegationTokenRequest) -> Self {
        RequestBody::ExpireDelegationToken(m)
    }
}

impl From<DescribeDelegationTokenRequest> for RequestBody {
    fn from(m: DescribeDelegationTokenRequest) -> Self {
        RequestBody::DescribeDelegationToken(m)
    }
}

impl From<DeleteGroupsRequest> for RequestBody {
    fn from(m: DeleteGroupsRequest) -> Self {
        RequestBody::DeleteGroups(m)
    }
}

impl From<ElectLeadersRequest> for RequestBody {
    fn from(m: ElectLeadersRequest) -> Self {
        RequestBody::ElectLeaders(m)
    }
}

impl From<IncrementalAlterConfigsRequest> for RequestBody {
    fn from(m: IncrementalAlterConfigsRequest) -> Self {
        RequestBody::IncrementalAlterConfigs(m)
    }
}

impl From<AlterPartitionReassignmentsRequest> for RequestBody {
    fn from(m: AlterPartitionReassignmentsRequest) -> Self {
        RequestBody::AlterPartitionReassignments(m)
    }
}

impl From<ListPartitionReassignmentsRequest> for RequestBody {
    fn from(m: ListPartitionReassignmentsRequest) -> Self {
        RequestBody::ListPartitionReassignments(m)
    }
}

impl From<OffsetDeleteRequest> for RequestBody {
    fn from(m: OffsetDeleteRequest) -> Self {
        RequestBody::OffsetDelete(m)
    }
}

impl From<DescribeClientQuotasRequest> for RequestBody {
    fn from(m: DescribeClientQuotasRequest) -> Self {
        RequestBody::DescribeClientQuotas(m)
    }
}

impl From<AlterClientQuotasRequest> for RequestBody {
    fn from(m: AlterClientQuotasRequest) -> Self {
        RequestBody::AlterClientQuotas(m)
    }
}

impl From<DescribeUserScramCredentialsRequest> for RequestBody {
    fn from(m: DescribeUserScramCredentialsRequest) -> Self {
        RequestBody::DescribeUserScramCredentials(m)
    }
}

impl From<AlterUserScramCredentialsRequest> for RequestBody {
    fn from(m: AlterUserScramCredentialsRequest) -> Self {
        RequestBody::AlterUserScramCredentials(m)
    }
}

impl From<VoteRequest> for RequestBody {
    fn from(m: VoteRequest) -> Self {
        RequestBody::Vote(m)
    }
}

impl From<BeginQuorumEpochRequest> for RequestBody {
    fn from(m: BeginQuorumEpochRequest) -> Self {
        RequestBody::BeginQuorumEpoch(m)
    }
}

impl From<EndQuorumEpochRequest> for RequestBody {
    fn from(m: EndQuorumEpochRequest) -> Self {
        RequestBody::EndQuorumEpoch(m)
    }
}

impl From<DescribeQuorumRequest> for RequestBody {
    fn from(m: DescribeQuorumRequest) -> Self {
        RequestBody::DescribeQuorum(m)
    }
}

impl From<AlterPartitionRequest> for RequestBody {
    fn from(m: AlterPartitionRequest) -> Self {
        RequestBody::AlterPartition(m)
    }
}

impl From<UpdateFeaturesRequest> for RequestBody {
    fn from(m: UpdateFeaturesRequest) -> Self {
        RequestBody::UpdateFeatures(m)
    }
}

impl From<EnvelopeRequest> for RequestBody {
    fn from(m: EnvelopeRequest) -> Self {
        RequestBody::Envelope(m)
    }
}

impl From<FetchSnapshotRequest> for RequestBody {
    fn from(m: FetchSnapshotRequest) -> Self {
        RequestBody::FetchSnapshot(m)
    }
}

impl From<DescribeClusterRequest> for RequestBody {
    fn from(m: DescribeClusterRequest) -> Self {
        RequestBody::DescribeCluster(m)
    }
}

impl From<DescribeProducersRequest> for RequestBody {
    fn from(m: DescribeProducersRequest) -> Self {
        RequestBody::DescribeProducers(m)
    }
}

impl From<BrokerRegistrationRequest> for RequestBody {
    fn from(m: BrokerRegistrationRequest) -> Self {
        RequestBody::BrokerRegistration(m)
    }
}

impl From<BrokerHeartbeatRequest> for RequestBody {
    fn from(m: BrokerHeartbeatRequest) -> Self {
        RequestBody::BrokerHeartbeat(m)
    }
}

impl From<UnregisterBrokerRequest> for RequestBody {
    fn from(m: UnregisterBrokerRequest) -> Self {
        RequestBody::UnregisterBroker(m)
    }
}

impl From<DescribeTransactionsRequest> for RequestBody {
    fn from(m: DescribeTransactionsRequest) -> Self {
        RequestBody::DescribeTransactions(m)
    }
}

impl From<ListTransactionsRequest> for RequestBody {
    fn from(m: ListTransactionsRequest) -> Self {
        RequestBody::ListTransactions(m)
    }
}

impl From<AllocateProducerIdsRequest> for RequestBody {
    fn from(m: AllocateProducerIdsRequest) -> Self {
        RequestBody::AllocateProducerIds(m)
    }
}

impl From<ConsumerGroupHeartbeatRequest> for RequestBody {
    fn from(m: ConsumerGroupHeartbeatRequest) -> Self {
        RequestBody::ConsumerGroupHeartbeat(m)
    }
}

impl From<ConsumerGroupDescribeRequest> for RequestBody {
    fn from(m: ConsumerGroupDescribeRequest) -> Self {
        RequestBody::ConsumerGroupDescribe(m)
    }
}

impl From<ControllerRegistrationRequest> for RequestBody {
    fn from(m: ControllerRegistrationRequest) -> Self {
        RequestBody::ControllerRegistration(m)
    }
}

impl From<GetTelemetrySubscriptionsRequest> for RequestBody {
    fn from(m: GetTelemetrySubscriptionsRequest) -> Self {
        RequestBody::GetTelemetrySubscriptions(m)
    }
}

impl From<PushTelemetryRequest> for RequestBody {
    fn from(m: PushTelemetryRequest) -> Self {
        RequestBody::PushTelemetry(m)
    }
}

impl From<AssignReplicasToDirsRequest> for RequestBody {
    fn from(m: AssignReplicasToDirsRequest) -> Self {
        RequestBody::AssignReplicasToDirs(m)
    }
}

impl From<ListConfigResourcesRequest> for RequestBody {
    fn from(m: ListConfigResourcesRequest) -> Self {
        RequestBody::ListConfigResources(m)
    }
}

impl From<DescribeTopicPartitionsRequest> for RequestBody {
    fn from(m: DescribeTopicPartitionsRequest) -> Self {
        RequestBody::DescribeTopicPartitions(m)
    }
}

impl From<ShareGroupHeartbeatRequest> for RequestBody {
    fn from(m: ShareGroupHeartbeatRequest) -> Self {
        RequestBody::ShareGroupHeartbeat(m)
    }
}

impl From<ShareGroupDescribeRequest> for RequestBody {
    fn from(m: ShareGroupDescribeRequest) -> Self {
        RequestBody::ShareGroupDescribe(m)
    }
}

impl From<ShareFetchRequest> for RequestBody {
    fn from(m: ShareFetchRequest) -> Self {
        RequestBody::ShareFetch(m)
    }
}

impl From<ShareAcknowledgeRequest> for RequestBody {
    fn from(m: ShareAcknowledgeRequest) -> Self {
        RequestBody::ShareAcknowledge(m)
    }
}

impl From<AddRaftVoterRequest> for RequestBody {
    fn from(m: AddRaftVoterRequest) -> Self {
        RequestBody::AddRaftVoter(m)
    }
}

impl From<RemoveRaftVoterRequest> for RequestBody {
    fn from(m: RemoveRaftVoterRequest) -> Self {
        RequestBody::RemoveRaftVoter(m)
    }
}

impl From<UpdateRaftVoterRequest> for RequestBody {
    fn from(m: UpdateRaftVoterRequest) -> Self {
        RequestBody::UpdateRaftVoter(m)
    }
}

impl From<InitializeShareGroupStateRequest> for RequestBody {
    fn from(m: InitializeShareGroupStateRequest) -> Self {
        RequestBody::InitializeShareGroupState(m)
    }
}

impl From<ReadShareGroupStateRequest> for RequestBody {
    fn from(m: ReadShareGroupStateRequest) -> Self {
        RequestBody::ReadShareGroupState(m)
    }
}

impl From<WriteShareGroupStateRequest> for RequestBody {
    fn from(m: WriteShareGroupStateRequest) -> Self {
        RequestBody::WriteShareGroupState(m)
    }
}

impl From<DeleteShareGroupStateRequest> for RequestBody {
    fn from(m: DeleteShareGroupStateRequest) -> Self {
        RequestBody::DeleteShareGroupState(m)
    }
}

impl From<ReadShareGroupStateSummaryRequest> for RequestBody {
    fn from(m: ReadShareGroupStateSummaryRequest) -> Self {
        RequestBody::ReadShareGroupStateSummary(m)
    }
}

impl From<StreamsGroupHeartbeatRequest> for RequestBody {
    fn from(m: StreamsGroupHeartbeatRequest) -> Self {
        RequestBody::StreamsGroupHeartbeat(m)
    }
}

impl From<StreamsGroupDescribeRequest> for RequestBody {
    fn from(m: StreamsGroupDescribeRequest) -> Self {
        RequestBody::StreamsGroupDescribe(m)
    }
}

impl From<DescribeShareGroupOffsetsRequest> for RequestBody {
    fn from(m: DescribeShareGroupOffsetsRequest) -> Self {
        RequestBody::DescribeShareGroupOffsets(m)
    }
}

impl From<AlterShareGroupOffsetsRequest> for RequestBody {
    fn from(m: AlterShareGroupOffsetsRequest) -> Self {
        RequestBody::AlterShareGroupOffsets(m)
    }
}

impl From<DeleteShareGroupOffsetsRequest> for RequestBody {
    fn from(m: DeleteShareGroupOffsetsRequest) -> Self {
        RequestBody::DeleteShareGroupOffsets(m)
    }
}

/// The body of any response, tagged by API.
#[derive(Debug, Clone, PartialEq)]
pub enum ResponseBody {
    Produce(ProduceResponse),
    Fetch(FetchResponse),
    ListOffsets(ListOffsetsResponse),
    Metadata(MetadataResponse),
    OffsetCommit(OffsetCommitResponse),
    OffsetFetch(OffsetFetchResponse),
    FindCoordinator(FindCoordinatorResponse),
    JoinGroup(JoinGroupResponse),
    Heartbeat(HeartbeatResponse),
    LeaveGroup(LeaveGroupResponse),
    SyncGroup(SyncGroupResponse),
    DescribeGroups(DescribeGroupsResponse),
    ListGroups(ListGroupsResponse),
    SaslHandshake(SaslHandshakeResponse),
    ApiVersions(ApiVersionsResponse),
    CreateTopics(CreateTopicsResponse),
    DeleteTopics(DeleteTopicsResponse),
    DeleteRecords(DeleteRecordsResponse),
    InitProducerId(InitProducerIdResponse),
    OffsetForLeaderEpoch(OffsetForLeaderEpochResponse),
    AddPartitionsToTxn(AddPartitionsToTxnResponse),
    AddOffsetsToTxn(AddOffsetsToTxnResponse),
    EndTxn(EndTxnResponse),
    WriteTxnMarkers(WriteTxnMarkersResponse),
    TxnOffsetCommit(TxnOffsetCommitResponse),
    DescribeAcls(DescribeAclsResponse),
    CreateAcls(CreateAclsResponse),
    DeleteAcls(DeleteAclsResponse),
    DescribeConfigs(DescribeConfigsResponse),
    AlterConfigs(AlterConfigsResponse),
    AlterReplicaLogDirs(AlterReplicaLogDirsResponse),
    DescribeLogDirs(DescribeLogDirsResponse),
    SaslAuthenticate(SaslAuthenticateResponse),
    CreatePartitions(CreatePartitionsResponse),
    CreateDelegationToken(CreateDelegationTokenResponse),
    RenewDelegationToken(RenewDelegationTokenResponse),
    ExpireDelegationToken(ExpireDelegationTokenResponse),
    DescribeDelegationToken(DescribeDelegationTokenResponse),
    DeleteGroups(DeleteGroupsResponse),
    ElectLeaders(ElectLeadersResponse),
    IncrementalAlterConfigs(IncrementalAlterConfigsResponse),
    AlterPartitionReassignments(AlterPartitionReassignmentsResponse),
    ListPartitionReassignments(ListPartitionReassignmentsResponse),
    OffsetDelete(OffsetDeleteResponse),
    DescribeClientQuotas(DescribeClientQuotasResponse),
    AlterClientQuotas(AlterClientQuotasResponse),
    DescribeUserScramCredentials(DescribeUserScramCredentialsResponse),
    AlterUserScramCredentials(AlterUserScramCredentialsResponse),
    Vote(VoteResponse),
    BeginQuorumEpoch(BeginQuorumEpochResponse),
    EndQuorumEpoch(EndQuorumEpochResponse),
    DescribeQuorum(DescribeQuorumResponse),
    AlterPartition(AlterPartitionResponse),
    UpdateFeatures(UpdateFeaturesResponse),
    Envelope(EnvelopeResponse),
    FetchSnapshot(FetchSnapshotResponse),
    DescribeCluster(DescribeClusterResponse),
    DescribeProducers(DescribeProducersResponse),
    BrokerRegistration(BrokerRegistrationResponse),
    BrokerHeartbeat(BrokerHeartbeatResponse),
    UnregisterBroker(UnregisterBrokerResponse),
    DescribeTransactions(DescribeTransactionsResponse),
    ListTransactions(ListTransactionsResponse),
    AllocateProducerIds(AllocateProducerIdsResponse),
    ConsumerGroupHeartbeat(ConsumerGroupHeartbeatResponse),
    ConsumerGroupDescribe(ConsumerGroupDescribeResponse),
    ControllerRegistration(ControllerRegistrationResponse),
    GetTelemetrySubscriptions(GetTelemetrySubscriptionsResponse),
    PushTelemetry(PushTelemetryResponse),
    AssignReplicasToDirs(AssignReplicasToDirsResponse),
    ListConfigResources(ListConfigResourcesResponse),
    DescribeTopicPartitions(DescribeTopicPartitionsResponse),
    ShareGroupHeartbeat(ShareGroupHeartbeatResponse),
    ShareGroupDescribe(ShareGroupDescribeResponse),
    ShareFetch(ShareFetchResponse),
    ShareAcknowledge(ShareAcknowledgeResponse),
    AddRaftVoter(AddRaftVoterResponse),
    RemoveRaftVoter(RemoveRaftVoterResponse),
    UpdateRaftVoter(UpdateRaftVoterResponse),
    InitializeShareGroupState(InitializeShareGroupStateResponse),
    ReadShareGroupState(ReadShareGroupStateResponse),
    WriteShareGroupState(WriteShareGroupStateResponse),
    DeleteShareGroupState(DeleteShareGroupStateResponse),
    ReadShareGroupStateSummary(ReadShareGroupStateSummaryResponse),
    StreamsGroupHeartbeat(StreamsGroupHeartbeatResponse),
    StreamsGroupDescribe(StreamsGroupDescribeResponse),
    DescribeShareGroupOffsets(DescribeShareGroupOffsetsResponse),
    AlterShareGroupOffsets(AlterShareGroupOffsetsResponse),
    DeleteShareGroupOffsets(DeleteShareGroupOffsetsResponse),
}

impl ResponseBody {
    /// The API this response belongs to.
    pub fn api_key(&self) -> ApiKey {
        match self {
            ResponseBody::Produce(_) => ApiKey::Produce,
            ResponseBody::Fetch(_) => ApiKey::Fetch,
            ResponseBody::ListOffsets(_) => ApiKey::ListOffsets,
            ResponseBody::Metadata(_) => ApiKey::Metadata,
            ResponseBody::OffsetCommit(_) => ApiKey::OffsetCommit,
            ResponseBody::OffsetFetch(_) => ApiKey::OffsetFetch,
            ResponseBody::FindCoordinator(_) => ApiKey::FindCoordinator,
            ResponseBody::JoinGroup(_) => ApiKey::JoinGroup,
            ResponseBody::Heartbeat(_) => ApiKey::Heartbeat,
            ResponseBody::LeaveGroup(_) => ApiKey::LeaveGroup,
            ResponseBody::SyncGroup(_) => ApiKey::SyncGroup,
            ResponseBody::DescribeGroups(_) => ApiKey::DescribeGroups,
            ResponseBody::ListGroups(_) => ApiKey::ListGroups,
            ResponseBody::SaslHandshake(_) => ApiKey::SaslHandshake,
            ResponseBody::ApiVersions(_) => ApiKey::ApiVersions,
            ResponseBody::CreateTopics(_) => ApiKey::CreateTopics,
            ResponseBody::DeleteTopics(_) => ApiKey::DeleteTopics,
            ResponseBody::DeleteRecords(_) => ApiKey::DeleteRecords,
            ResponseBody::InitProducerId(_) => ApiKey::InitProducerId,
            ResponseBody::OffsetForLeaderEpoch(_) => ApiKey::OffsetForLeaderEpoch,
            ResponseBody::AddPartitionsToTxn(_) => ApiKey::AddPartitionsToTxn,
            ResponseBody::AddOffsetsToTxn(_) => ApiKey::AddOffsetsToTxn,
            ResponseBody::EndTxn(_) => ApiKey::EndTxn,
            ResponseBody::WriteTxnMarkers(_) => ApiKey::WriteTxnMarkers,
            ResponseBody::TxnOffsetCommit(_) => ApiKey::TxnOffsetCommit,
            ResponseBody::DescribeAcls(_) => ApiKey::DescribeAcls,
            ResponseBody::CreateAcls(_) => ApiKey::CreateAcls,
            ResponseBody::DeleteAcls(_) => ApiKey::DeleteAcls,
            ResponseBody::DescribeConfigs(_) => ApiKey::DescribeConfigs,
            ResponseBody::AlterConfigs(_) => ApiKey::AlterConfigs,
            ResponseBody::AlterReplicaLogDirs(_) => ApiKey::AlterReplicaLogDirs,
            ResponseBody::DescribeLogDirs(_) => ApiKey::DescribeLogDirs,
            ResponseBody::SaslAuthenticate(_) => ApiKey::SaslAuthenticate,
            ResponseBody::CreatePartitions(_) => ApiKey::CreatePartitions,
            ResponseBody::CreateDelegationToken(_) => ApiKey::CreateDelegationToken,
            ResponseBody::RenewDelegationToken(_) => ApiKey::RenewDelegationToken,
            ResponseBody::ExpireDelegationToken(_) => ApiKey::ExpireDelegationToken,
            ResponseBody::DescribeDelegationToken(_) => ApiKey::DescribeDelegationToken,
            ResponseBody::DeleteGroups(_) => ApiKey::DeleteGroups,
            ResponseBody::ElectLeaders(_) => ApiKey::ElectLeaders,
            ResponseBody::IncrementalAlterConfigs(_) => ApiKey::IncrementalAlterConfigs,
            ResponseBody::AlterPartitionReassignments(_) => ApiKey::AlterPartitionReassignments,
            ResponseBody::ListPartitionReassignments(_) => ApiKey::ListPartitionReassignments,
            ResponseBody::OffsetDelete(_) => ApiKey::OffsetDelete,
            ResponseBody::DescribeClientQuotas(_) => ApiKey::DescribeClientQuotas,
            ResponseBody::AlterClientQuotas(_) => ApiKey::AlterClientQuotas,
            ResponseBody::DescribeUserScramCredentials(_) => ApiKey::DescribeUserScramCredentials,
            ResponseBody::AlterUserScramCredentials(_) => ApiKey::AlterUserScramCredentials,
            ResponseBody::Vote(_) => ApiKey::Vote,
            ResponseBody::BeginQuorumEpoch(_) => ApiKey::BeginQuorumEpoch,
            ResponseBody::EndQuorumEpoch(_) => ApiKey::EndQuorumEpoch,
            ResponseBody::DescribeQuorum(_) => ApiKey::DescribeQuorum,
            ResponseBody::AlterPartition(_) => ApiKey::AlterPartition,
            ResponseBody::UpdateFeatures(_) => ApiKey::UpdateFeatures,
            ResponseBody::Envelope(_) => ApiKey::Envelope,
            ResponseBody::FetchSnapshot(_) => ApiKey::FetchSnapshot,
            ResponseBody::DescribeCluster(_) => ApiKey::DescribeCluster,
            ResponseBody::DescribeProducers(_) => ApiKey::DescribeProducers,
            ResponseBody::BrokerRegistration(_) => ApiKey::BrokerRegistration,
            ResponseBody::BrokerHeartbeat(_) => ApiKey::BrokerHeartbeat,
            ResponseBody::UnregisterBroker(_) => ApiKey::UnregisterBroker,
            ResponseBody::DescribeTransactions(_) => ApiKey::DescribeTransactions,
            ResponseBody::ListTransactions(_) => ApiKey::ListTransactions,
            ResponseBody::AllocateProducerIds(_) => ApiKey::AllocateProducerIds,
            ResponseBody::ConsumerGroupHeartbeat(_) => ApiKey::ConsumerGroupHeartbeat,
            ResponseBody::ConsumerGroupDescribe(_) => ApiKey::ConsumerGroupDescribe,
            ResponseBody::ControllerRegistration(_) => ApiKey::ControllerRegistration,
            ResponseBody::GetTelemetrySubscriptions(_) => ApiKey::GetTelemetrySubscriptions,
            ResponseBody::PushTelemetry(_) => ApiKey::PushTelemetry,
            ResponseBody::AssignReplicasToDirs(_) => ApiKey::AssignReplicasToDirs,
            ResponseBody::ListConfigResources(_) => ApiKey::ListConfigResources,
            ResponseBody::DescribeTopicPartitions(_) => ApiKey::DescribeTopicPartitions,
            ResponseBody::ShareGroupHeartbeat(_) => ApiKey::ShareGroupHeartbeat,
            ResponseBody::ShareGroupDescribe(_) => ApiKey::ShareGroupDescribe,
            ResponseBody::ShareFetch(_) => ApiKey::ShareFetch,
            ResponseBody::ShareAcknowledge(_) => ApiKey::ShareAcknowledge,
            ResponseBody::AddRaftVoter(_) => ApiKey::AddRaftVoter,
            ResponseBody::RemoveRaftVoter(_) => ApiKey::RemoveRaftVoter,
            ResponseBody::UpdateRaftVoter(_) => ApiKey::UpdateRaftVoter,
            ResponseBody::InitializeShareGroupState(_) => ApiKey::InitializeShareGroupState,
            ResponseBody::ReadShareGroupState(_) => ApiKey::ReadShareGroupState,
            ResponseBody::WriteShareGroupState(_) => ApiKey::WriteShareGroupState,
            ResponseBody::DeleteShareGroupState(_) => ApiKey::DeleteShareGroupState,
            ResponseBody::ReadShareGroupStateSummary(_) => ApiKey::ReadShareGroupStateSummary,
            ResponseBody::StreamsGroupHeartbeat(_) => ApiKey::StreamsGroupHeartbeat,
            ResponseBody::StreamsGroupDescribe(_) => ApiKey::StreamsGroupDescribe,
            ResponseBody::DescribeShareGroupOffsets(_) => ApiKey::DescribeShareGroupOffsets,
            ResponseBody::AlterShareGroupOffsets(_) => ApiKey::AlterShareGroupOffsets,
            ResponseBody::DeleteShareGroupOffsets(_) => ApiKey::DeleteShareGroupOffsets,
        }
    }

    /// Decodes a response body of `key` at `version`; the version is checked.
    pub fn decode(key: ApiKey, d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        Ok(match key {
            ApiKey::Produce => ResponseBody::Produce(ProduceResponse::decode(d, version)?),
            ApiKey::Fetch => ResponseBody::Fetch(FetchResponse::decode(d, version)?),
            ApiKey::ListOffsets => {
                ResponseBody::ListOffsets(ListOffsetsResponse::decode(d, version)?)
            }
            ApiKey::Metadata => ResponseBody::Metadata(MetadataResponse::decode(d, version)?),
            ApiKey::OffsetCommit => {
                ResponseBody::OffsetCommit(OffsetCommitResponse::decode(d, version)?)
            }
            ApiKey::OffsetFetch => {
                ResponseBody::OffsetFetch(OffsetFetchResponse::decode(d, version)?)
            }
            ApiKey::FindCoordinator => {
                ResponseBody::FindCoordinator(FindCoordinatorResponse::decode(d, version)?)
            }
            ApiKey::JoinGroup => ResponseBody::JoinGroup(JoinGroupResponse::decode(d, version)?),
            ApiKey::Heartbeat => ResponseBody::Heartbeat(HeartbeatResponse::decode(d, version)?),
            ApiKey::LeaveGroup => ResponseBody::LeaveGroup(LeaveGroupResponse::decode(d, version)?),
            ApiKey::SyncGroup => ResponseBody::SyncGroup(SyncGroupResponse::decode(d, version)?),
            ApiKey::DescribeGroups => {
                ResponseBody::DescribeGroups(DescribeGroupsResponse::decode(d, version)?)
            }
            ApiKey::ListGroups => ResponseBody::ListGroups(ListGroupsResponse::decode(d, version)?),
            ApiKey::SaslHandshake => {
                ResponseBody::SaslHandshake(SaslHandshakeResponse::decode(d, version)?)
            }
            ApiKey::ApiVersions => {
                ResponseBody::ApiVersions(ApiVersionsResponse::decode(d, version)?)
            }
            ApiKey::CreateTopics => {
                ResponseBody::CreateTopics(CreateTopicsResponse::decode(d, version)?)
            }
            ApiKey::DeleteTopics => {
                ResponseBody::DeleteTopics(DeleteTopicsResponse::decode(d, version)?)
            }
            ApiKey::DeleteRecords => {
                ResponseBody::DeleteRecords(DeleteRecordsResponse::decode(d, version)?)
            }
            ApiKey::InitProducerId => {
                ResponseBody::InitProducerId(InitProducerIdResponse::decode(d, version)?)
            }
            ApiKey::OffsetForLeaderEpoch => ResponseBody::OffsetForLeaderEpoch(
                OffsetForLeaderEpochResponse::decode(d, version)?,
            ),
            ApiKey::AddPartitionsToTxn => {
                ResponseBody::AddPartitionsToTxn(AddPartitionsToTxnResponse::decode(d, version)?)
            }
            ApiKey::AddOffsetsToTxn => {
                ResponseBody::AddOffsetsToTxn(AddOffsetsToTxnResponse::decode(d, version)?)
            }
            ApiKey::EndTxn => ResponseBody::EndTxn(EndTxnResponse::decode(d, version)?),
            ApiKey::WriteTxnMarkers => {
                ResponseBody::WriteTxnMarkers(WriteTxnMarkersResponse::decode(d, version)?)
            }
            ApiKey::TxnOffsetCommit => {
                ResponseBody::TxnOffsetCommit(TxnOffsetCommitResponse::decode(d, version)?)
            }
            ApiKey::DescribeAcls => {
                ResponseBody::DescribeAcls(DescribeAclsResponse::decode(d, version)?)
            }
            ApiKey::CreateAcls => ResponseBody::CreateAcls(CreateAclsResponse::decode(d, version)?),
            ApiKey::DeleteAcls => ResponseBody::DeleteAcls(DeleteAclsResponse::decode(d, version)?),
            ApiKey::DescribeConfigs => {
                ResponseBody::DescribeConfigs(DescribeConfigsResponse::decode(d, version)?)
            }
            ApiKey::AlterConfigs => {
                ResponseBody::AlterConfigs(AlterConfigsResponse::decode(d, version)?)
            }
            ApiKey::AlterReplicaLogDirs => {
                ResponseBody::AlterReplicaLogDirs(AlterReplicaLogDirsResponse::decode(d, version)?)
            }
            ApiKey::DescribeLogDirs => {
                ResponseBody::DescribeLogDirs(DescribeLogDirsResponse::decode(d, version)?)
            }
            ApiKey::SaslAuthenticate => {
                ResponseBody::SaslAuthenticate(SaslAuthenticateResponse::decode(d, version)?)
            }
            ApiKey::CreatePartitions => {
                ResponseBody::CreatePartitions(CreatePartitionsResponse::decode(d, version)?)
            }
            ApiKey::CreateDelegationToken => ResponseBody::CreateDelegationToken(
                CreateDelegationTokenResponse::decode(d, version)?,
            ),
            ApiKey::RenewDelegationToken => ResponseBody::RenewDelegationToken(
                RenewDelegationTokenResponse::decode(d, version)?,
            ),
            ApiKey::ExpireDelegationToken => ResponseBody::ExpireDelegationToken(
                ExpireDelegationTokenResponse::decode(d, version)?,
            ),
            ApiKey::DescribeDelegationToken => ResponseBody::DescribeDelegationToken(
                DescribeDelegationTokenResponse::decode(d, version)?,
            ),
            ApiKey::DeleteGroups => {
                ResponseBody::DeleteGroups(DeleteGroupsResponse::decode(d, version)?)
            }
            ApiKey::ElectLeaders => {
                ResponseBody::ElectLeaders(ElectLeadersResponse::decode(d, version)?)
            }
            ApiKey::IncrementalAlterConfigs => ResponseBody::IncrementalAlterConfigs(
                IncrementalAlterConfigsResponse::decode(d, version)?,
            ),
            ApiKey::AlterPartitionReassignments => ResponseBody::AlterPartitionReassignments(
                AlterPartitionReassignmentsResponse::decode(d, version)?,
            ),
            ApiKey::ListPartitionReassignments => ResponseBody::ListPartitionReassignments(
                ListPartitionReassignmentsResponse::decode(d, version)?,
            ),
            ApiKey::OffsetDelete => {
                ResponseBody::OffsetDelete(OffsetDeleteResponse::decode(d, version)?)
            }
            ApiKey::DescribeClientQuotas => ResponseBody::DescribeClientQuotas(
                DescribeClientQuotasResponse::decode(d, version)?,
            ),
            ApiKey::AlterClientQuotas => {
                ResponseBody::AlterClientQuotas(AlterClientQuotasResponse::decode(d, version)?)
            }
            ApiKey::DescribeUserScramCredentials => ResponseBody::DescribeUserScramCredentials(
                DescribeUserScramCredentialsResponse::decode(d, version)?,
            ),
            ApiKey::AlterUserScramCredentials => ResponseBody::AlterUserScramCredentials(
                AlterUserScramCredentialsResponse::decode(d, version)?,
            ),
            ApiKey::Vote => ResponseBody::Vote(VoteResponse::decode(d, version)?),
            ApiKey::BeginQuorumEpoch => {
                ResponseBody::BeginQuorumEpoch(BeginQuorumEpochResponse::decode(d, version)?)
            }
            ApiKey::EndQuorumEpoch => {
                ResponseBody::EndQuorumEpoch(EndQuorumEpochResponse::decode(d, version)?)
            }
            ApiKey::DescribeQuorum => {
                ResponseBody::DescribeQuorum(DescribeQuorumResponse::decode(d, version)?)
            }
            ApiKey::AlterPartition => {
                ResponseBody::AlterPartition(AlterPartitionResponse::decode(d, version)?)
            }
            ApiKey::UpdateFeatures => {
                ResponseBody::UpdateFeatures(UpdateFeaturesResponse::decode(d, version)?)
            }
            ApiKey::Envelope => ResponseBody::Envelope(EnvelopeResponse::decode(d, version)?),
            ApiKey::FetchSnapshot => {
                ResponseBody::FetchSnapshot(FetchSnapshotResponse::decode(d, version)?)
            }
            ApiKey::DescribeCluster => {
                ResponseBody::DescribeCluster(DescribeClusterResponse::decode(d, version)?)
            }
            ApiKey::DescribeProducers => {
                ResponseBody::DescribeProducers(DescribeProducersResponse::decode(d, version)?)
            }
            ApiKey::BrokerRegistration => {
                ResponseBody::BrokerRegistration(BrokerRegistrationResponse::decode(d, version)?)
            }
            ApiKey::BrokerHeartbeat => {
                ResponseBody::BrokerHeartbeat(BrokerHeartbeatResponse::decode(d, version)?)
            }
            ApiKey::UnregisterBroker => {
                ResponseBody::UnregisterBroker(UnregisterBrokerResponse::decode(d, version)?)
            }
            ApiKey::DescribeTransactions => ResponseBody::DescribeTransactions(
                DescribeTransactionsResponse::decode(d, version)?,
            ),
            ApiKey::ListTransactions => {
                ResponseBody::ListTransactions(ListTransactionsResponse::decode(d, version)?)
            }
            ApiKey::AllocateProducerIds => {
                ResponseBody::AllocateProducerIds(AllocateProducerIdsResponse::decode(d, version)?)
            }
            ApiKey::ConsumerGroupHeartbeat => ResponseBody::ConsumerGroupHeartbeat(
                ConsumerGroupHeartbeatResponse::decode(d, version)?,
            ),
            ApiKey::ConsumerGroupDescribe => ResponseBody::ConsumerGroupDescribe(
                ConsumerGroupDescribeResponse::decode(d, version)?,
            ),
            ApiKey::ControllerRegistration => ResponseBody::ControllerRegistration(
                ControllerRegistrationResponse::decode(d, version)?,
            ),
            ApiKey::GetTelemetrySubscriptions => ResponseBody::GetTelemetrySubscriptions(
                GetTelemetrySubscriptionsResponse::decode(d, version)?,
            ),
            ApiKey::PushTelemetry => {
                ResponseBody::PushTelemetry(PushTelemetryResponse::decode(d, version)?)
            }
            ApiKey::AssignReplicasToDirs => ResponseBody::AssignReplicasToDirs(
                AssignReplicasToDirsResponse::decode(d, version)?,
            ),
            ApiKey::ListConfigResources => {
                ResponseBody::ListConfigResources(ListConfigResourcesResponse::decode(d, version)?)
            }
            ApiKey::DescribeTopicPartitions => ResponseBody::DescribeTopicPartitions(
                DescribeTopicPartitionsResponse::decode(d, version)?,
            ),
            ApiKey::ShareGroupHeartbeat => {
                ResponseBody::ShareGroupHeartbeat(ShareGroupHeartbeatResponse::decode(d, version)?)
            }
            ApiKey::ShareGroupDescribe => {
                ResponseBody::ShareGroupDescribe(ShareGroupDescribeResponse::decode(d, version)?)
            }
            ApiKey::ShareFetch => ResponseBody::ShareFetch(ShareFetchResponse::decode(d, version)?),
            ApiKey::ShareAcknowledge => {
                ResponseBody::ShareAcknowledge(ShareAcknowledgeResponse::decode(d, version)?)
            }
            ApiKey::AddRaftVoter => {
                ResponseBody::AddRaftVoter(AddRaftVoterResponse::decode(d, version)?)
            }
            ApiKey::RemoveRaftVoter => {
                ResponseBody::RemoveRaftVoter(RemoveRaftVoterResponse::decode(d, version)?)
            }
            ApiKey::UpdateRaftVoter => {
                ResponseBody::UpdateRaftVoter(UpdateRaftVoterResponse::decode(d, version)?)
            }
            ApiKey::InitializeShareGroupState => ResponseBody::InitializeShareGroupState(
                InitializeShareGroupStateResponse::decode(d, version)?,
            ),
            ApiKey::ReadShareGroupState => {
                ResponseBody::ReadShareGroupState(ReadShareGroupStateResponse::decode(d, version)?)
            }
            ApiKey::WriteShareGroupState => ResponseBody::WriteShareGroupState(
                WriteShareGroupStateResponse::decode(d, version)?,
            ),
            ApiKey::DeleteShareGroupState => ResponseBody::DeleteShareGroupState(
                DeleteShareGroupStateResponse::decode(d, version)?,
            ),
            ApiKey::ReadShareGroupStateSummary => ResponseBody::ReadShareGroupStateSummary(
                ReadShareGroupStateSummaryResponse::decode(d, version)?,
            ),
            ApiKey::StreamsGroupHeartbeat => ResponseBody::StreamsGroupHeartbeat(
                StreamsGroupHeartbeatResponse::decode(d, version)?,
            ),
            ApiKey::StreamsGroupDescribe => ResponseBody::StreamsGroupDescribe(
                StreamsGroupDescribeResponse::decode(d, version)?,
            ),
            ApiKey::DescribeShareGroupOffsets => ResponseBody::DescribeShareGroupOffsets(
                DescribeShareGroupOffsetsResponse::decode(d, version)?,
            ),
            ApiKey::AlterShareGroupOffsets => ResponseBody::AlterShareGroupOffsets(
                AlterShareGroupOffsetsResponse::decode(d, version)?,
            ),
            ApiKey::DeleteShareGroupOffsets => ResponseBody::DeleteShareGroupOffsets(
                DeleteShareGroupOffsetsResponse::decode(d, version)?,
            ),
        })
    }

    /// Encodes the body at `version`; the version is checked.
    pub fn encode(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        match self {
            ResponseBody::Produce(m) => m.encode(e, version),
            ResponseBody::Fetch(m) => m.encode(e, version),
            ResponseBody::ListOffsets(m) => m.encode(e, version),
            ResponseBody::Metadata(m) => m.encode(e, version),
            ResponseBody::OffsetCommit(m) => m.encode(e, version),
            ResponseBody::OffsetFetch(m) => m.encode(e, version),
            ResponseBody::FindCoordinator(m) => m.encode(e, version),
            ResponseBody::JoinGroup(m) => m.encode(e, version),
            ResponseBody::Heartbeat(m) => m.encode(e, version),
            ResponseBody::LeaveGroup(m) => m.encode(e, version),
            ResponseBody::SyncGroup(m) => m.encode(e, version),
            ResponseBody::DescribeGroups(m) => m.encode(e, version),
            ResponseBody::ListGroups(m) => m.encode(e, version),
            ResponseBody::SaslHandshake(m) => m.encode(e, version),
            ResponseBody::ApiVersions(m) => m.encode(e, version),
            ResponseBody::CreateTopics(m) => m.encode(e, version),
            ResponseBody::DeleteTopics(m) => m.encode(e, version),
            ResponseBody::DeleteRecords(m) => m.encode(e, version),
            ResponseBody::InitProducerId(m) => m.encode(e, version),
            ResponseBody::OffsetForLeaderEpoch(m) => m.encode(e, version),
            ResponseBody::AddPartitionsToTxn(m) => m.encode(e, version),
            ResponseBody::AddOffsetsToTxn(m) => m.encode(e, version),
            ResponseBody::EndTxn(m) => m.encode(e, version),
            ResponseBody::WriteTxnMarkers(m) => m.encode(e, version),
            ResponseBody::TxnOffsetCommit(m) => m.encode(e, version),
            ResponseBody::DescribeAcls(m) => m.encode(e, version),
            ResponseBody::CreateAcls(m) => m.encode(e, version),
            ResponseBody::DeleteAcls(m) => m.encode(e, version),
            ResponseBody::DescribeConfigs(m) => m.encode(e, version),
            ResponseBody::AlterConfigs(m) => m.encode(e, version),
            ResponseBody::AlterReplicaLogDirs(m) => m.encode(e, version),
            ResponseBody::DescribeLogDirs(m) => m.encode(e, version),
            ResponseBody::SaslAuthenticate(m) => m.encode(e, version),
            ResponseBody::CreatePartitions(m) => m.encode(e, version),
            ResponseBody::CreateDelegationToken(m) => m.encode(e, version),
            ResponseBody::RenewDelegationToken(m) => m.encode(e, version),
            ResponseBody::ExpireDelegationToken(m) => m.encode(e, version),
            ResponseBody::DescribeDelegationToken(m) => m.encode(e, version),
            ResponseBody::DeleteGroups(m) => m.encode(e, version),
            ResponseBody::ElectLeaders(m) => m.encode(e, version),
            ResponseBody::IncrementalAlterConfigs(m) => m.encode(e, version),
            ResponseBody::AlterPartitionReassignments(m) => m.encode(e, version),
            ResponseBody::ListPartitionReassignments(m) => m.encode(e, version),
            ResponseBody::OffsetDelete(m) => m.encode(e, version),
            ResponseBody::DescribeClientQuotas(m) => m.encode(e, version),
            ResponseBody::AlterClientQuotas(m) => m.encode(e, version),
            ResponseBody::DescribeUserScramCredentials(m) => m.encode(e, version),
            ResponseBody::AlterUserScramCredentials(m) => m.encode(e, version),
            ResponseBody::Vote(m) => m.encode(e, version),
            ResponseBody::BeginQuorumEpoch(m) => m.encode(e, version),
            ResponseBody::EndQuorumEpoch(m) => m.encode(e, version),
            ResponseBody::DescribeQuorum(m) => m.encode(e, version),
            ResponseBody::AlterPartition(m) => m.encode(e, version),
            ResponseBody::UpdateFeatures(m) => m.encode(e, version),
            ResponseBody::Envelope(m) => m.encode(e, version),
            ResponseBody::FetchSnapshot(m) => m.encode(e, version),
            ResponseBody::DescribeCluster(m) => m.encode(e, version),
            ResponseBody::DescribeProducers(m) => m.encode(e, version),
            ResponseBody::BrokerRegistration(m) => m.encode(e, version),
            ResponseBody::BrokerHeartbeat(m) => m.encode(e, version),
            ResponseBody::UnregisterBroker(m) => m.encode(e, version),
            ResponseBody::DescribeTransactions(m) => m.encode(e, version),
            ResponseBody::ListTransactions(m) => m.encode(e, version),
            ResponseBody::AllocateProducerIds(m) => m.encode(e, version),
            ResponseBody::ConsumerGroupHeartbeat(m) => m.encode(e, version),
            ResponseBody::ConsumerGroupDescribe(m) => m.encode(e, version),
            ResponseBody::ControllerRegistration(m) => m.encode(e, version),
            ResponseBody::GetTelemetrySubscriptions(m) => m.encode(e, version),
            ResponseBody::PushTelemetry(m) => m.encode(e, version),
            ResponseBody::AssignReplicasToDirs(m) => m.encode(e, version),
            ResponseBody::ListConfigResources(m) => m.encode(e, version),
            ResponseBody::DescribeTopicPartitions(m) => m.encode(e, version),
            ResponseBody::ShareGroupHeartbeat(m) => m.encode(e, version),
            ResponseBody::ShareGroupDescribe(m) => m.encode(e, version),
            ResponseBody::ShareFetch(m) => m.encode(e, version),
            ResponseBody::ShareAcknowledge(m) => m.encode(e, version),
            ResponseBody::AddRaftVoter(m) => m.encode(e, version),
            ResponseBody::RemoveRaftVoter(m) => m.encode(e, version),
            ResponseBody::UpdateRaftVoter(m) => m.encode(e, version),
            ResponseBody::InitializeShareGroupState(m) => m.encode(e, version),
            ResponseBody::ReadShareGroupState(m) => m.encode(e, version),
            ResponseBody::WriteShareGroupState(m) => m.encode(e, version),
            ResponseBody::DeleteShareGroupState(m) => m.encode(e, version),
            ResponseBody::ReadShareGroupStateSummary(m) => m.encode(e, version),
            ResponseBody::StreamsGroupHeartbeat(m) => m.encode(e, version),
            ResponseBody::StreamsGroupDescribe(m) => m.encode(e, version),
            ResponseBody::DescribeShareGroupOffsets(m) => m.encode(e, version),
            ResponseBody::AlterShareGroupOffsets(m) => m.encode(e, version),
            ResponseBody::DeleteShareGroupOffsets(m) => m.encode(e, version),
        }
    }
}

impl From<ProduceResponse> for ResponseBody {
    fn from(m: ProduceResponse) -> Self {
        ResponseBody::Produce(m)
    }
}

impl From<FetchResponse> for ResponseBody {
    fn from(m: FetchResponse) -> Self {
        ResponseBody::Fetch(m)
    }
}

impl From<ListOffsetsResponse> for ResponseBody {
    fn from(m: ListOffsetsResponse) -> Self {
        ResponseBody::ListOffsets(m)
    }
}

impl From<MetadataResponse> for ResponseBody {
    fn from(m: MetadataResponse) -> Self {
        ResponseBody::Metadata(m)
    }
}

impl From<OffsetCommitResponse> for ResponseBody {
    fn from(m: OffsetCommitResponse) -> Self {
        ResponseBody::OffsetCommit(m)
    }
}

impl From<OffsetFetchResponse> for ResponseBody {
    fn from(m: OffsetFetchResponse) -> Self {
        ResponseBody::OffsetFetch(m)
    }
}

impl From<FindCoordinatorResponse> for ResponseBody {
    fn from(m: FindCoordinatorResponse) -> Self {
        ResponseBody::FindCoordinator(m)
    }
}

impl From<JoinGroupResponse> for ResponseBody {
    fn from(m: JoinGroupResponse) -> Self {
        ResponseBody::JoinGroup(m)
    }
}

impl From<HeartbeatResponse> for ResponseBody {
    fn from(m: HeartbeatResponse) -> Self {
        ResponseBody::Heartbeat(m)
    }
}

impl From<LeaveGroupResponse> for ResponseBody {
    fn from(m: LeaveGroupResponse) -> Self {
        ResponseBody::LeaveGroup(m)
    }
}

impl From<SyncGroupResponse> for ResponseBody {
    fn from(m: SyncGroupResponse) -> Self {
        ResponseBody::SyncGroup(m)
    }
}

impl From<DescribeGroupsResponse> for ResponseBody {
    fn from(m: DescribeGroupsResponse) -> Self {
        ResponseBody::DescribeGroups(m)
    }
}

impl From<ListGroupsResponse> for ResponseBody {
    fn from(m: ListGroupsResponse) -> Self {
        ResponseBody::ListGroups(m)
    }
}

impl From<SaslHandshakeResponse> for ResponseBody {
    fn from(m: SaslHandshakeResponse) -> Self {
        ResponseBody::SaslHandshake(m)
    }
}

impl From<ApiVersionsResponse> for ResponseBody {
    fn from(m: ApiVersionsResponse) -> Self {
        ResponseBody::ApiVersions(m)
    }
}

impl From<CreateTopicsResponse> for ResponseBody {
    fn from(m: CreateTopicsResponse) -> Self {
        ResponseBody::CreateTopics(m)
    }
}

impl From<DeleteTopicsResponse> for ResponseBody {
    fn from(m: DeleteTopicsResponse) -> Self {
        ResponseBody::DeleteTopics(m)
    }
}

impl From<DeleteRecordsResponse> for ResponseBody {
    fn from(m: DeleteRecordsResponse) -> Self {
        ResponseBody::DeleteRecords(m)
    }
}

impl From<InitProducerIdResponse> for ResponseBody {
    fn from(m: InitProducerIdResponse) -> Self {
        ResponseBody::InitProducerId(m)
    }
}

impl From<OffsetForLeaderEpochResponse> for ResponseBody {
    fn from(m: OffsetForLeaderEpochResponse) -> Self {
        ResponseBody::OffsetForLeaderEpoch(m)
    }
}

impl From<AddPartitionsToTxnResponse> for ResponseBody {
    fn from(m: AddPartitionsToTxnResponse) -> Self {
        ResponseBody::AddPartitionsToTxn(m)
    }
}

impl From<AddOffsetsToTxnResponse> for ResponseBody {
    fn from(m: AddOffsetsToTxnResponse) -> Self {
        ResponseBody::AddOffsetsToTxn(m)
    }
}

impl From<EndTxnResponse> for ResponseBody {
    fn from(m: EndTxnResponse) -> Self {
        ResponseBody::EndTxn(m)
    }
}

impl From<WriteTxnMarkersResponse> for ResponseBody {
    fn from(m: WriteTxnMarkersResponse) -> Self {
        ResponseBody::WriteTxnMarkers(m)
    }
}

impl From<TxnOffsetCommitResponse> for ResponseBody {
    fn from(m: TxnOffsetCommitResponse) -> Self {
        ResponseBody::TxnOffsetCommit(m)
    }
}

impl From<DescribeAclsResponse> for ResponseBody {
    fn from(m: DescribeAclsResponse) -> Self {
        ResponseBody::DescribeAcls(m)
    }
}

impl From<CreateAclsResponse> for ResponseBody {
    fn from(m: CreateAclsResponse) -> Self {
        ResponseBody::CreateAcls(m)
    }
}

impl From<DeleteAclsResponse> for ResponseBody {
    fn from(m: DeleteAclsResponse) -> Self {
        ResponseBody::DeleteAcls(m)
    }
}

impl From<DescribeConfigsResponse> for ResponseBody {
    fn from(m: DescribeConfigsResponse) -> Self {
        ResponseBody::DescribeConfigs(m)
    }
}

impl From<AlterConfigsResponse> for ResponseBody {
    fn from(m: AlterConfigsResponse) -> Self {
        ResponseBody::AlterConfigs(m)
    }
}

impl From<AlterReplicaLogDirsResponse> for ResponseBody {
    fn from(m: AlterReplicaLogDirsResponse) -> Self {
        ResponseBody::AlterReplicaLogDirs(m)
    }
}

impl From<DescribeLogDirsResponse> for ResponseBody {
    fn from(m: DescribeLogDirsResponse) -> Self {
        ResponseBody::DescribeLogDirs(m)
    }
}

impl From<SaslAuthenticateResponse> for ResponseBody {
    fn from(m: SaslAuthenticateResponse) -> Self {
        ResponseBody::SaslAuthenticate(m)
    }
}

impl From<CreatePartitionsResponse> for ResponseBody {
    fn from(m: CreatePartitionsResponse) -> Self {
        ResponseBody::CreatePartitions(m)
    }
}

impl From<CreateDelegationTokenResponse> for ResponseBody {
    fn from(m: CreateDelegationTokenResponse) -> Self {
        ResponseBody::CreateDelegationToken(m)
    }
}

impl From<RenewDelegationTokenResponse> for ResponseBody {
    fn from(m: RenewDelegationTokenResponse) -> Self {
        ResponseBody::RenewDelegationToken(m)
    }
}

impl From<ExpireDelegationTokenResponse> for ResponseBody {
    fn from(m: ExpireDelegationTokenResponse) -> Self {
        ResponseBody::ExpireDelegationToken(m)
    }
}

impl From<DescribeDelegationTokenResponse> for ResponseBody {
    fn from(m: DescribeDelegationTokenResponse) -> Self {
        ResponseBody::DescribeDelegationToken(m)
    }
}

impl From<DeleteGroupsResponse> for ResponseBody {
    fn from(m: DeleteGroupsResponse) -> Self {
        ResponseBody::DeleteGroups(m)
    }
}

impl From<ElectLeadersResponse> for ResponseBody {
    fn from(m: ElectLeadersResponse) -> Self {
        ResponseBody::ElectLeaders(m)
    }
}

impl From<IncrementalAlterConfigsResponse> for ResponseBody {
    fn from(m: IncrementalAlterConfigsResponse) -> Self {
        ResponseBody::IncrementalAlterConfigs(m)
    }
}

impl From<AlterPartitionReassignmentsResponse> for ResponseBody {
    fn from(m: AlterPartitionReassignmentsResponse) -> Self {
        ResponseBody::AlterPartitionReassignments(m)
    }
}

impl From<ListPartitionReassignmentsResponse> for ResponseBody {
    fn from(m: ListPartitionReassignmentsResponse) -> Self {
        ResponseBody::ListPartitionReassignments(m)
    }
}

impl From<OffsetDeleteResponse> for ResponseBody {
    fn from(m: OffsetDeleteResponse) -> Self {
        ResponseBody::OffsetDelete(m)
    }
}

impl From<DescribeClientQuotasResponse> for ResponseBody {
    fn from(m: DescribeClientQuotasResponse) -> Self {
        ResponseBody::DescribeClientQuotas(m)
    }
}

impl From<AlterClientQuotasResponse> for ResponseBody {
    fn from(m: AlterClientQuotasResponse) -> Self {
        ResponseBody::AlterClientQuotas(m)
    }
}

impl From<DescribeUserScramCredentialsResponse> for ResponseBody {
    fn from(m: DescribeUserScramCredentialsResponse) -> Self {
        ResponseBody::DescribeUserScramCredentials(m)
    }
}

impl From<AlterUserScramCredentialsResponse> for ResponseBody {
    fn from(m: AlterUserScramCredentialsResponse) -> Self {
        ResponseBody::AlterUserScramCredentials(m)
    }
}

impl From<VoteResponse> for ResponseBody {
    fn from(m: VoteResponse) -> Self {
        ResponseBody::Vote(m)
    }
}

impl From<BeginQuorumEpochResponse> for ResponseBody {
    fn from(m: BeginQuorumEpochResponse) -> Self {
        ResponseBody::BeginQuorumEpoch(m)
    }
}

impl From<EndQuorumEpochResponse> for ResponseBody {
    fn from(m: EndQuorumEpochResponse) -> Self {
        ResponseBody::EndQuorumEpoch(m)
    }
}

impl From<DescribeQuorumResponse> for ResponseBody {
    fn from(m: DescribeQuorumResponse) -> Self {
        ResponseBody::DescribeQuorum(m)
    }
}

impl From<AlterPartitionResponse> for ResponseBody {
    fn from(m: AlterPartitionResponse) -> Self {
        ResponseBody::AlterPartition(m)
    }
}

impl From<UpdateFeaturesResponse> for ResponseBody {
    fn from(m: UpdateFeaturesResponse) -> Self {
        ResponseBody::UpdateFeatures(m)
    }
}

impl From<EnvelopeResponse> for ResponseBody {
    fn from(m: EnvelopeResponse) -> Self {
        ResponseBody::Envelope(m)
    }
}

impl From<FetchSnapshotResponse> for ResponseBody {
    fn from(m: FetchSnapshotResponse) -> Self {
        ResponseBody::FetchSnapshot(m)
    }
}

impl From<DescribeClusterResponse> for ResponseBody {
    fn from(m: DescribeClusterResponse) -> Self {
        ResponseBody::DescribeCluster(m)
    }
}

impl From<DescribeProducersResponse> for ResponseBody {
    fn from(m: DescribeProducersResponse) -> Self {
        ResponseBody::DescribeProducers(m)
    }
}

impl From<BrokerRegistrationResponse> for ResponseBody {
    fn from(m: BrokerRegistrationResponse) -> Self {
        ResponseBody::BrokerRegistration(m)
    }
}

impl From<BrokerHeartbeatResponse> for ResponseBody {
    fn from(m: BrokerHeartbeatResponse) -> Self {
        ResponseBody::BrokerHeartbeat(m)
    }
}

impl From<UnregisterBrokerResponse> for ResponseBody {
    fn from(m: UnregisterBrokerResponse) -> Self {
        ResponseBody::UnregisterBroker(m)
    }
}

impl From<DescribeTransactionsResponse> for ResponseBody {
    fn from(m: DescribeTransactionsResponse) -> Self {
        ResponseBody::DescribeTransactions(m)
    }
}

impl From<ListTransactionsResponse> for ResponseBody {
    fn from(m: ListTransactionsResponse) -> Self {
        ResponseBody::ListTransactions(m)
    }
}

impl From<AllocateProducerIdsResponse> for ResponseBody {
    fn from(m: AllocateProducerIdsResponse) -> Self {
        ResponseBody::AllocateProducerIds(m)
    }
}

impl From<ConsumerGroupHeartbeatResponse> for ResponseBody {
    fn from(m: ConsumerGroupHeartbeatResponse) -> Self {
        ResponseBody::ConsumerGroupHeartbeat(m)
    }
}

impl From<ConsumerGroupDescribeResponse> for ResponseBody {
    fn from(m: ConsumerGroupDescribeResponse) -> Self {
        ResponseBody::ConsumerGroupDescribe(m)
    }
}

impl From<ControllerRegistrationResponse> for ResponseBody {
    fn from(m: ControllerRegistrationResponse) -> Self {
        ResponseBody::ControllerRegistration(m)
    }
}

impl From<GetTelemetrySubscriptionsResponse> for ResponseBody {
    fn from(m: GetTelemetrySubscriptionsResponse) -> Self {
        ResponseBody::GetTelemetrySubscriptions(m)
    }
}

impl From<PushTelemetryResponse> for ResponseBody {
    fn from(m: PushTelemetryResponse) -> Self {
        ResponseBody::PushTelemetry(m)
    }
}

impl From<AssignReplicasToDirsResponse> for ResponseBody {
    fn from(m: AssignReplicasToDirsResponse) -> Self {
        ResponseBody::AssignReplicasToDirs(m)
    }
}

impl From<ListConfigResourcesResponse> for ResponseBody {
    fn from(m: ListConfigResourcesResponse) -> Self {
        ResponseBody::ListConfigResources(m)
    }
}

impl From<DescribeTopicPartitionsResponse> for ResponseBody {
    fn from(m: DescribeTopicPartitionsResponse) -> Self {
        ResponseBody::DescribeTopicPartitions(m)
    }
}

impl From<ShareGroupHeartbeatResponse> for ResponseBody {
    fn from(m: ShareGroupHeartbeatResponse) -> Self {
        ResponseBody::ShareGroupHeartbeat(m)
    }
}

impl From<ShareGroupDescribeResponse> for ResponseBody {
    fn from(m: ShareGroupDescribeResponse) -> Self {
        ResponseBody::ShareGroupDescribe(m)
    }
}

impl From<ShareFetchResponse> for ResponseBody {
    fn from(m: ShareFetchResponse) -> Self {
        ResponseBody::ShareFetch(m)
    }
}

impl From<ShareAcknowledgeResponse> for ResponseBody {
    fn from(m: ShareAcknowledgeResponse) -> Self {
        ResponseBody::ShareAcknowledge(m)
    }
}

impl From<AddRaftVoterResponse> for ResponseBody {
    fn from(m: AddRaftVoterResponse) -> Self {
        ResponseBody::AddRaftVoter(m)
    }
}

impl From<RemoveRaftVoterResponse> for ResponseBody {
    fn from(m: RemoveRaftVoterResponse) -> Self {
        ResponseBody::RemoveRaftVoter(m)
    }
}

impl From<UpdateRaftVoterResponse> for ResponseBody {
    fn from(m: UpdateRaftVoterResponse) -> Self {
        ResponseBody::UpdateRaftVoter(m)
    }
}

impl From<InitializeShareGroupStateResponse> for ResponseBody {
    fn from(m: InitializeShareGroupStateResponse) -> Self {
        ResponseBody::InitializeShareGroupState(m)
    }
}

impl From<ReadShareGroupStateResponse> for ResponseBody {
    fn from(m: ReadShareGroupStateResponse) -> Self {
        ResponseBody::ReadShareGroupState(m)
    }
}

impl From<WriteShareGroupStateResponse> for ResponseBody {
    fn from(m: WriteShareGroupStateResponse) -> Self {
        ResponseBody::WriteShareGroupState(m)
    }
}

impl From<DeleteShareGroupStateResponse> for ResponseBody {
    fn from(m: DeleteShareGroupStateResponse) -> Self {
        ResponseBody::DeleteShareGroupState(m)
    }
}

impl From<ReadShareGroupStateSummaryResponse> for ResponseBody {
    fn from(m: ReadShareGroupStateSummaryResponse) -> Self {
        ResponseBody::ReadShareGroupStateSummary(m)
    }
}

impl From<StreamsGroupHeartbeatResponse> for ResponseBody {
    fn from(m: StreamsGroupHeartbeatResponse) -> Self {
        ResponseBody::StreamsGroupHeartbeat(m)
    }
}

impl From<StreamsGroupDescribeResponse> for ResponseBody {
    fn from(m: StreamsGroupDescribeResponse) -> Self {
        ResponseBody::StreamsGroupDescribe(m)
    }
}

impl From<DescribeShareGroupOffsetsResponse> for ResponseBody {
    fn from(m: DescribeShareGroupOffsetsResponse) -> Self {
        ResponseBody::DescribeShareGroupOffsets(m)
    }
}

impl From<AlterShareGroupOffsetsResponse> for ResponseBody {
    fn from(m: AlterShareGroupOffsetsResponse) -> Self {
        ResponseBody::AlterShareGroupOffsets(m)
    }
}

impl From<DeleteShareGroupOffsetsResponse> for ResponseBody {
    fn from(m: DeleteShareGroupOffsetsResponse) -> Self {
        ResponseBody::DeleteShareGroupOffsets(m)
    }
}

impl crate::Request for ProduceRequest {
    const API_KEY: ApiKey = ApiKey::Produce;
    type Response = ProduceResponse;
}

impl crate::Response for ProduceResponse {
    const API_KEY: ApiKey = ApiKey::Produce;
}

impl crate::Request for FetchRequest {
    const API_KEY: ApiKey = ApiKey::Fetch;
    type Response = FetchResponse;
}

impl crate::Response for FetchResponse {
    const API_KEY: ApiKey = ApiKey::Fetch;
}

impl crate::Request for ListOffsetsRequest {
    const API_KEY: ApiKey = ApiKey::ListOffsets;
    type Response = ListOffsetsResponse;
}

impl crate::Response for ListOffsetsResponse {
    const API_KEY: ApiKey = ApiKey::ListOffsets;
}

impl crate::Request for MetadataRequest {
    const API_KEY: ApiKey = ApiKey::Metadata;
    type Response = MetadataResponse;
}

impl crate::Response for MetadataResponse {
    const API_KEY: ApiKey = ApiKey::Metadata;
}

impl crate::Request for OffsetCommitRequest {
    const API_KEY: ApiKey = ApiKey::OffsetCommit;
    type Response = OffsetCommitResponse;
}

impl crate::Response for OffsetCommitResponse {
    const API_KEY: ApiKey = ApiKey::OffsetCommit;
}

impl crate::Request for OffsetFetchRequest {
    const API_KEY: ApiKey = ApiKey::OffsetFetch;
    type Response = OffsetFetchResponse;
}

impl crate::Response for OffsetFetchResponse {
    const API_KEY: ApiKey = ApiKey::OffsetFetch;
}

impl crate::Request for FindCoordinatorRequest {
    const API_KEY: ApiKey = ApiKey::FindCoordinator;
    type Response = FindCoordinatorResponse;
}

impl crate::Response for FindCoordinatorResponse {
    const API_KEY: ApiKey = ApiKey::FindCoordinator;
}

impl crate::Request for JoinGroupRequest {
    const API_KEY: ApiKey = ApiKey::JoinGroup;
    type Response = JoinGroupResponse;
}

impl crate::Response for JoinGroupResponse {
    const API_KEY: ApiKey = ApiKey::JoinGroup;
}

impl crate::Request for HeartbeatRequest {
    const API_KEY: ApiKey = ApiKey::Heartbeat;
    type Response = HeartbeatResponse;
}

impl crate::Response for HeartbeatResponse {
    const API_KEY: ApiKey = ApiKey::Heartbeat;
}

impl crate::Request for LeaveGroupRequest {
    const API_KEY: ApiKey = ApiKey::LeaveGroup;
    type Response = LeaveGroupResponse;
}

impl crate::Response for LeaveGroupResponse {
    const API_KEY: ApiKey = ApiKey::LeaveGroup;
}

impl crate::Request for SyncGroupRequest {
    const API_KEY: ApiKey = ApiKey::SyncGroup;
    type Response = SyncGroupResponse;
}

impl crate::Response for SyncGroupResponse {
    const API_KEY: ApiKey = ApiKey::SyncGroup;
}

impl crate::Request for DescribeGroupsRequest {
    const API_KEY: ApiKey = ApiKey::DescribeGroups;
    type Response = DescribeGroupsResponse;
}

impl crate::Response for DescribeGroupsResponse {
    const API_KEY: ApiKey = ApiKey::DescribeGroups;
}

impl crate::Request for ListGroupsRequest {
    const API_KEY: ApiKey = ApiKey::ListGroups;
    type Response = ListGroupsResponse;
}

impl crate::Response for ListGroupsResponse {
    const API_KEY: ApiKey = ApiKey::ListGroups;
}

impl crate::Request for SaslHandshakeRequest {
    const API_KEY: ApiKey = ApiKey::SaslHandshake;
    type Response = SaslHandshakeResponse;
}

impl crate::Response for SaslHandshakeResponse {
    const API_KEY: ApiKey = ApiKey::SaslHandshake;
}

impl crate::Request for ApiVersionsRequest {
    const API_KEY: ApiKey = ApiKey::ApiVersions;
    type Response = ApiVersionsResponse;
}

impl crate::Response for ApiVersionsResponse {
    const API_KEY: ApiKey = ApiKey::ApiVersions;
}

impl crate::Request for CreateTopicsRequest {
    const API_KEY: ApiKey = ApiKey::CreateTopics;
    type Response = CreateTopicsResponse;
}

impl crate::Response for CreateTopicsResponse {
    const API_KEY: ApiKey = ApiKey::CreateTopics;
}

impl crate::Request for DeleteTopicsRequest {
    const API_KEY: ApiKey = ApiKey::DeleteTopics;
    type Response = DeleteTopicsResponse;
}

impl crate::Response for DeleteTopicsResponse {
    const API_KEY: ApiKey = ApiKey::DeleteTopics;
}

impl crate::Request for DeleteRecordsRequest {
    const API_KEY: ApiKey = ApiKey::DeleteRecords;
    type Response = DeleteRecordsResponse;
}

impl crate::Response for DeleteRecordsResponse {
    const API_KEY: ApiKey = ApiKey::DeleteRecords;
}

impl crate::Request for InitProducerIdRequest {
    const API_KEY: ApiKey = ApiKey::InitProducerId;
    type Response = InitProducerIdResponse;
}

impl crate::Response for InitProducerIdResponse {
    const API_KEY: ApiKey = ApiKey::InitProducerId;
}

impl crate::Request for OffsetForLeaderEpochRequest {
    const API_KEY: ApiKey = ApiKey::OffsetForLeaderEpoch;
    type Response = OffsetForLeaderEpochResponse;
}

impl crate::Response for OffsetForLeaderEpochResponse {
    const API_KEY: ApiKey = ApiKey::OffsetForLeaderEpoch;
}

impl crate::Request for AddPartitionsToTxnRequest {
    const API_KEY: ApiKey = ApiKey::AddPartitionsToTxn;
    type Response = AddPartitionsToTxnResponse;
}

impl crate::Response for AddPartitionsToTxnResponse {
    const API_KEY: ApiKey = ApiKey::AddPartitionsToTxn;
}

impl crate::Request for AddOffsetsToTxnRequest {
    const API_KEY: ApiKey = ApiKey::AddOffsetsToTxn;
    type Response = AddOffsetsToTxnResponse;
}

impl crate::Response for AddOffsetsToTxnResponse {
    const API_KEY: ApiKey = ApiKey::AddOffsetsToTxn;
}

impl crate::Request for EndTxnRequest {
    const API_KEY: ApiKey = ApiKey::EndTxn;
    type Response = EndTxnResponse;
}

impl crate::Response for EndTxnResponse {
    const API_KEY: ApiKey = ApiKey::EndTxn;
}

impl crate::Request for WriteTxnMarkersRequest {
    const API_KEY: ApiKey = ApiKey::WriteTxnMarkers;
    type Response = WriteTxnMarkersResponse;
}

impl crate::Response for WriteTxnMarkersResponse {
    const API_KEY: ApiKey = ApiKey::WriteTxnMarkers;
}

impl crate::Request for TxnOffsetCommitRequest {
    const API_KEY: ApiKey = ApiKey::TxnOffsetCommit;
    type Response = TxnOffsetCommitResponse;
}

impl crate::Response for TxnOffsetCommitResponse {
    const API_KEY: ApiKey = ApiKey::TxnOffsetCommit;
}

impl crate::Request for DescribeAclsRequest {
    const API_KEY: ApiKey = ApiKey::DescribeAcls;
    type Response = DescribeAclsResponse;
}

impl crate::Response for DescribeAclsResponse {
    const API_KEY: ApiKey = ApiKey::DescribeAcls;
}

impl crate::Request for CreateAclsRequest {
    const API_KEY: ApiKey = ApiKey::CreateAcls;
    type Response = CreateAclsResponse;
}

impl crate::Response for CreateAclsResponse {
    const API_KEY: ApiKey = ApiKey::CreateAcls;
}

impl crate::Request for DeleteAclsRequest {
    const API_KEY: ApiKey = ApiKey::DeleteAcls;
    type Response = DeleteAclsResponse;
}

impl crate::Response for DeleteAclsResponse {
    const API_KEY: ApiKey = ApiKey::DeleteAcls;
}

impl crate::Request for DescribeConfigsRequest {
    const API_KEY: ApiKey = ApiKey::DescribeConfigs;
    type Response = DescribeConfigsResponse;
}

impl crate::Response for DescribeConfigsResponse {
    const API_KEY: ApiKey = ApiKey::DescribeConfigs;
}

impl crate::Request for AlterConfigsRequest {
    const API_KEY: ApiKey = ApiKey::AlterConfigs;
    type Response = AlterConfigsResponse;
}

impl crate::Response for AlterConfigsResponse {
    const API_KEY: ApiKey = ApiKey::AlterConfigs;
}

impl crate::Request for AlterReplicaLogDirsRequest {
    const API_KEY: ApiKey = ApiKey::AlterReplicaLogDirs;
    type Response = AlterReplicaLogDirsResponse;
}

impl crate::Response for AlterReplicaLogDirsResponse {
    const API_KEY: ApiKey = ApiKey::AlterReplicaLogDirs;
}

impl crate::Request for DescribeLogDirsRequest {
    const API_KEY: ApiKey = ApiKey::DescribeLogDirs;
    type Response = DescribeLogDirsResponse;
}

impl crate::Response for DescribeLogDirsResponse {
    const API_KEY: ApiKey = ApiKey::DescribeLogDirs;
}

impl crate::Request for SaslAuthenticateRequest {
    const API_KEY: ApiKey = ApiKey::SaslAuthenticate;
    type Response = SaslAuthenticateResponse;
}

impl crate::Response for SaslAuthenticateResponse {
    const API_KEY: ApiKey = ApiKey::SaslAuthenticate;
}

impl crate::Request for CreatePartitionsRequest {
    const API_KEY: ApiKey = ApiKey::CreatePartitions;
    type Response = CreatePartitionsResponse;
}

impl crate::Response for CreatePartitionsResponse {
    const API_KEY: ApiKey = ApiKey::CreatePartitions;
}

impl crate::Request for CreateDelegationTokenRequest {
    const API_KEY: ApiKey = ApiKey::CreateDelegationToken;
    type Response = CreateDelegationTokenResponse;
}

impl crate::Response for CreateDelegationTokenResponse {
    const API_KEY: ApiKey = ApiKey::CreateDelegationToken;
}

impl crate::Request for RenewDelegationTokenRequest {
    const API_KEY: ApiKey = ApiKey::RenewDelegationToken;
    type Response = RenewDelegationTokenResponse;
}

impl crate::Response for RenewDelegationTokenResponse {
    const API_KEY: ApiKey = ApiKey::RenewDelegationToken;
}

impl crate::Request for ExpireDelegationTokenRequest {
    const API_KEY: ApiKey = ApiKey::ExpireDelegationToken;
    type Response = ExpireDelegationTokenResponse;
}

impl crate::Response for ExpireDelegationTokenResponse {
    const API_KEY: ApiKey = ApiKey::ExpireDelegationToken;
}

impl crate::Request for DescribeDelegationTokenRequest {
    const API_KEY: ApiKey = ApiKey::DescribeDelegationToken;
    type Response = DescribeDelegationTokenResponse;
}

impl crate::Response for DescribeDelegationTokenResponse {
    const API_KEY: ApiKey = ApiKey::DescribeDelegationToken;
}

impl crate::Request for DeleteGroupsRequest {
    const API_KEY: ApiKey = ApiKey::DeleteGroups;
    type Response = DeleteGroupsResponse;
}

impl crate::Response for DeleteGroupsResponse {
    const API_KEY: ApiKey = ApiKey::DeleteGroups;
}

impl crate::Request for ElectLeadersRequest {
    const API_KEY: ApiKey = ApiKey::ElectLeaders;
    type Response = ElectLeadersResponse;
}

impl crate::Response for ElectLeadersResponse {
    const API_KEY: ApiKey = ApiKey::ElectLeaders;
}

impl crate::Request for IncrementalAlterConfigsRequest {
    const API_KEY: ApiKey = ApiKey::IncrementalAlterConfigs;
    type Response = IncrementalAlterConfigsResponse;
}

impl crate::Response for IncrementalAlterConfigsResponse {
    const API_KEY: ApiKey = ApiKey::IncrementalAlterConfigs;
}

impl crate::Request for AlterPartitionReassignmentsRequest {
    const API_KEY: ApiKey = ApiKey::AlterPartitionReassignments;
    type Response = AlterPartitionReassignmentsResponse;
}

impl crate::Response for AlterPartitionReassignmentsResponse {
    const API_KEY: ApiKey = ApiKey::AlterPartitionReassignments;
}

impl crate::Request for ListPartitionReassignmentsRequest {
    const API_KEY: ApiKey = ApiKey::ListPartitionReassignments;
    type Response = ListPartitionReassignmentsResponse;
}

impl crate::Response for ListPartitionReassignmentsResponse {
    const API_KEY: ApiKey = ApiKey::ListPartitionReassignments;
}

impl crate::Request for OffsetDeleteRequest {
    const API_KEY: ApiKey = ApiKey::OffsetDelete;
    type Response = OffsetDeleteResponse;
}

impl crate::Response for OffsetDeleteResponse {
    const API_KEY: ApiKey = ApiKey::OffsetDelete;
}

impl crate::Request for DescribeClientQuotasRequest {
    const API_KEY: ApiKey = ApiKey::DescribeClientQuotas;
    type Response = DescribeClientQuotasResponse;
}

impl crate::Response for DescribeClientQuotasResponse {
    const API_KEY: ApiKey = ApiKey::DescribeClientQuotas;
}

impl crate::Request for AlterClientQuotasRequest {
    const API_KEY: ApiKey = ApiKey::AlterClientQuotas;
    type Response = AlterClientQuotasResponse;
}

impl crate::Response for AlterClientQuotasResponse {
    const API_KEY: ApiKey = ApiKey::AlterClientQuotas;
}

impl crate::Request for DescribeUserScramCredentialsRequest {
    const API_KEY: ApiKey = ApiKey::DescribeUserScramCredentials;
    type Response = DescribeUserScramCredentialsResponse;
}

impl crate::Response for DescribeUserScramCredentialsResponse {
    const API_KEY: ApiKey = ApiKey::DescribeUserScramCredentials;
}

impl crate::Request for AlterUserScramCredentialsRequest {
    const API_KEY: ApiKey = ApiKey::AlterUserScramCredentials;
    type Response = AlterUserScramCredentialsResponse;
}

impl crate::Response for AlterUserScramCredentialsResponse {
    const API_KEY: ApiKey = ApiKey::AlterUserScramCredentials;
}

impl crate::Request for VoteRequest {
    const API_KEY: ApiKey = ApiKey::Vote;
    type Response = VoteResponse;
}

impl crate::Response for VoteResponse {
    const API_KEY: ApiKey = ApiKey::Vote;
}

impl crate::Request for BeginQuorumEpochRequest {
    const API_KEY: ApiKey = ApiKey::BeginQuorumEpoch;
    type Response = BeginQuorumEpochResponse;
}

impl crate::Response for BeginQuorumEpochResponse {
    const API_KEY: ApiKey = ApiKey::BeginQuorumEpoch;
}

impl crate::Request for EndQuorumEpochRequest {
    const API_KEY: ApiKey = ApiKey::EndQuorumEpoch;
    type Response = EndQuorumEpochResponse;
}

impl crate::Response for EndQuorumEpochResponse {
    const API_KEY: ApiKey = ApiKey::EndQuorumEpoch;
}

impl crate::Request for DescribeQuorumRequest {
    const API_KEY: ApiKey = ApiKey::DescribeQuorum;
    type Response = DescribeQuorumResponse;
}

impl crate::Response for DescribeQuorumResponse {
    const API_KEY: ApiKey = ApiKey::DescribeQuorum;
}

impl crate::Request for AlterPartitionRequest {
    const API_KEY: ApiKey = ApiKey::AlterPartition;
    type Response = AlterPartitionResponse;
}

impl crate::Response for AlterPartitionResponse {
    const API_KEY: ApiKey = ApiKey::AlterPartition;
}

impl crate::Request for UpdateFeaturesRequest {
    const API_KEY: ApiKey = ApiKey::UpdateFeatures;
    type Response = UpdateFeaturesResponse;
}

impl crate::Response for UpdateFeaturesResponse {
    const API_KEY: ApiKey = ApiKey::UpdateFeatures;
}

impl crate::Request for EnvelopeRequest {
    const API_KEY: ApiKey = ApiKey::Envelope;
    type Response = EnvelopeResponse;
}

impl crate::Response for EnvelopeResponse {
    const API_KEY: ApiKey = ApiKey::Envelope;
}

impl crate::Request for FetchSnapshotRequest {
    const API_KEY: ApiKey = ApiKey::FetchSnapshot;
    type Response = FetchSnapshotResponse;
}

impl crate::Response for FetchSnapshotResponse {
    const API_KEY: ApiKey = ApiKey::FetchSnapshot;
}

impl crate::Request for DescribeClusterRequest {
    const API_KEY: ApiKey = ApiKey::DescribeCluster;
    type Response = DescribeClusterResponse;
}

impl crate::Response for DescribeClusterResponse {
    const API_KEY: ApiKey = ApiKey::DescribeCluster;
}

impl crate::Request for DescribeProducersRequest {
    const API_KEY: ApiKey = ApiKey::DescribeProducers;
    type Response = DescribeProducersResponse;
}

impl crate::Response for DescribeProducersResponse {
    const API_KEY: ApiKey = ApiKey::DescribeProducers;
}

impl crate::Request for BrokerRegistrationRequest {
    const API_KEY: ApiKey = ApiKey::BrokerRegistration;
    type Response = BrokerRegistrationResponse;
}

impl crate::Response for BrokerRegistrationResponse {
    const API_KEY: ApiKey = ApiKey::BrokerRegistration;
}

impl crate::Request for BrokerHeartbeatRequest {
    const API_KEY: ApiKey = ApiKey::BrokerHeartbeat;
    type Response = BrokerHeartbeatResponse;
}

impl crate::Response for BrokerHeartbeatResponse {
    const API_KEY: ApiKey = ApiKey::BrokerHeartbeat;
}

impl crate::Request for UnregisterBrokerRequest {
    const API_KEY: ApiKey = ApiKey::UnregisterBroker;
    type Response = UnregisterBrokerResponse;
}

impl crate::Response for UnregisterBrokerResponse {
    const API_KEY: ApiKey = ApiKey::UnregisterBroker;
}

impl crate::Request for DescribeTransactionsRequest {
    const API_KEY: ApiKey = ApiKey::DescribeTransactions;
    type Response = DescribeTransactionsResponse;
}

impl crate::Response for DescribeTransactionsResponse {
    const API_KEY: ApiKey = ApiKey::DescribeTransactions;
}

impl crate::Request for ListTransactionsRequest {
    const API_KEY: ApiKey = ApiKey::ListTransactions;
    type Response = ListTransactionsResponse;
}

impl crate::Response for ListTransactionsResponse {
    const API_KEY: ApiKey = ApiKey::ListTransactions;
}

impl crate::Request for AllocateProducerIdsRequest {
    const API_KEY: ApiKey = ApiKey::AllocateProducerIds;
    type Response = AllocateProducerIdsResponse;
}

impl crate::Response for AllocateProducerIdsResponse {
    const API_KEY: ApiKey = ApiKey::AllocateProducerIds;
}

impl crate::Request for ConsumerGroupHeartbeatRequest {
    const API_KEY: ApiKey = ApiKey::ConsumerGroupHeartbeat;
    type Response = ConsumerGroupHeartbeatResponse;
}

impl crate::Response for ConsumerGroupHeartbeatResponse {
    const API_KEY: ApiKey = ApiKey::ConsumerGroupHeartbeat;
}

impl crate::Request for ConsumerGroupDescribeRequest {
    const API_KEY: ApiKey = ApiKey::ConsumerGroupDescribe;
    type Response = ConsumerGroupDescribeResponse;
}

impl crate::Response for ConsumerGroupDescribeResponse {
    const API_KEY: ApiKey = ApiKey::ConsumerGroupDescribe;
}

impl crate::Request for ControllerRegistrationRequest {
    const API_KEY: ApiKey = ApiKey::ControllerRegistration;
    type Response = ControllerRegistrationResponse;
}

impl crate::Response for ControllerRegistrationResponse {
    const API_KEY: ApiKey = ApiKey::ControllerRegistration;
}

impl crate::Request for GetTelemetrySubscriptionsRequest {
    const API_KEY: ApiKey = ApiKey::GetTelemetrySubscriptions;
    type Response = GetTelemetrySubscriptionsResponse;
}

impl crate::Response for GetTelemetrySubscriptionsResponse {
    const API_KEY: ApiKey = ApiKey::GetTelemetrySubscriptions;
}

impl crate::Request for PushTelemetryRequest {
    const API_KEY: ApiKey = ApiKey::PushTelemetry;
    type Response = PushTelemetryResponse;
}

impl crate::Response for PushTelemetryResponse {
    const API_KEY: ApiKey = ApiKey::PushTelemetry;
}

impl crate::Request for AssignReplicasToDirsRequest {
    const API_KEY: ApiKey = ApiKey::AssignReplicasToDirs;
    type Response = AssignReplicasToDirsResponse;
}

impl crate::Response for AssignReplicasToDirsResponse {
    const API_KEY: ApiKey = ApiKey::AssignReplicasToDirs;
}

impl crate::Request for ListConfigResourcesRequest {
    const API_KEY: ApiKey = ApiKey::ListConfigResources;
    type Response = ListConfigResourcesResponse;
}

impl crate::Response for ListConfigResourcesResponse {
    const API_KEY: ApiKey = ApiKey::ListConfigResources;
}

impl crate::Request for DescribeTopicPartitionsRequest {
    const API_KEY: ApiKey = ApiKey::DescribeTopicPartitions;
    type Response = DescribeTopicPartitionsResponse;
}

impl crate::Response for DescribeTopicPartitionsResponse {
    const API_KEY: ApiKey = ApiKey::DescribeTopicPartitions;
}

impl crate::Request for ShareGroupHeartbeatRequest {
    const API_KEY: ApiKey = ApiKey::ShareGroupHeartbeat;
    type Response = ShareGroupHeartbeatResponse;
}

impl crate::Response for ShareGroupHeartbeatResponse {
    const API_KEY: ApiKey = ApiKey::ShareGroupHeartbeat;
}

impl crate::Request for ShareGroupDescribeRequest {
    const API_KEY: ApiKey = ApiKey::ShareGroupDescribe;
    type Response = ShareGroupDescribeResponse;
}

impl crate::Response for ShareGroupDescribeResponse {
    const API_KEY: ApiKey = ApiKey::ShareGroupDescribe;
}

impl crate::Request for ShareFetchRequest {
    const API_KEY: ApiKey = ApiKey::ShareFetch;
    type Response = ShareFetchResponse;
}

impl crate::Response for ShareFetchResponse {
    const API_KEY: ApiKey = ApiKey::ShareFetch;
}

impl crate::Request for ShareAcknowledgeRequest {
    const API_KEY: ApiKey = ApiKey::ShareAcknowledge;
    type Response = ShareAcknowledgeResponse;
}

impl crate::Response for ShareAcknowledgeResponse {
    const API_KEY: ApiKey = ApiKey::ShareAcknowledge;
}

impl crate::Request for AddRaftVoterRequest {
    const API_KEY: ApiKey = ApiKey::AddRaftVoter;
    type Response = AddRaftVoterResponse;
}

impl crate::Response for AddRaftVoterResponse {
    const API_KEY: ApiKey = ApiKey::AddRaftVoter;
}

impl crate::Request for RemoveRaftVoterRequest {
    const API_KEY: ApiKey = ApiKey::RemoveRaftVoter;
    type Response = RemoveRaftVoterResponse;
}

impl crate::Response for RemoveRaftVoterResponse {
    const API_KEY: ApiKey = ApiKey::RemoveRaftVoter;
}

impl crate::Request for UpdateRaftVoterRequest {
    const API_KEY: ApiKey = ApiKey::UpdateRaftVoter;
    type Response = UpdateRaftVoterResponse;
}

impl crate::Response for UpdateRaftVoterResponse {
    const API_KEY: ApiKey = ApiKey::UpdateRaftVoter;
}

impl crate::Request for InitializeShareGroupStateRequest {
    const API_KEY: ApiKey = ApiKey::InitializeShareGroupState;
    type Response = InitializeShareGroupStateResponse;
}

impl crate::Response for InitializeShareGroupStateResponse {
    const API_KEY: ApiKey = ApiKey::InitializeShareGroupState;
}

impl crate::Request for ReadShareGroupStateRequest {
    const API_KEY: ApiKey = ApiKey::ReadShareGroupState;
    type Response = ReadShareGroupStateResponse;
}

impl crate::Response for ReadShareGroupStateResponse {
    const API_KEY: ApiKey = ApiKey::ReadShareGroupState;
}

impl crate::Request for WriteShareGroupStateRequest {
    const API_KEY: ApiKey = ApiKey::WriteShareGroupState;
    type Response = WriteShareGroupStateResponse;
}

impl crate::Response for WriteShareGroupStateResponse {
    const API_KEY: ApiKey = ApiKey::WriteShareGroupState;
}

impl crate::Request for DeleteShareGroupStateRequest {
    const API_KEY: ApiKey = ApiKey::DeleteShareGroupState;
    type Response = DeleteShareGroupStateResponse;
}

impl crate::Response for DeleteShareGroupStateResponse {
    const API_KEY: ApiKey = ApiKey::DeleteShareGroupState;
}

impl crate::Request for ReadShareGroupStateSummaryRequest {
    const API_KEY: ApiKey = ApiKey::ReadShareGroupStateSummary;
    type Response = ReadShareGroupStateSummaryResponse;
}

impl crate::Response for ReadShareGroupStateSummaryResponse {
    const API_KEY: ApiKey = ApiKey::ReadShareGroupStateSummary;
}

impl crate::Request for StreamsGroupHeartbeatRequest {
    const API_KEY: ApiKey = ApiKey::StreamsGroupHeartbeat;
    type Response = StreamsGroupHeartbeatResponse;
}

impl crate::Response for StreamsGroupHeartbeatResponse {
    const API_KEY: ApiKey = ApiKey::StreamsGroupHeartbeat;
}

impl crate::Request for StreamsGroupDescribeRequest {
    const API_KEY: ApiKey = ApiKey::StreamsGroupDescribe;
    type Response = StreamsGroupDescribeResponse;
}

impl crate::Response for StreamsGroupDescribeResponse {
    const API_KEY: ApiKey = ApiKey::StreamsGroupDescribe;
}

impl crate::Request for DescribeShareGroupOffsetsRequest {
    const API_KEY: ApiKey = ApiKey::DescribeShareGroupOffsets;
    type Response = DescribeShareGroupOffsetsResponse;
}

impl crate::Response for DescribeShareGroupOffsetsResponse {
    const API_KEY: ApiKey = ApiKey::DescribeShareGroupOffsets;
}

impl crate::Request for AlterShareGroupOffsetsRequest {
    const API_KEY: ApiKey = ApiKey::AlterShareGroupOffsets;
    type Response = AlterShareGroupOffsetsResponse;
}

impl crate::Response for AlterShareGroupOffsetsResponse {
    const API_KEY: ApiKey = ApiKey::AlterShareGroupOffsets;
}

impl crate::Request for DeleteShareGroupOffsetsRequest {
    const API_KEY: ApiKey = ApiKey::DeleteShareGroupOffsets;
    type Response = DeleteShareGroupOffsetsResponse;
}

impl crate::Response for DeleteShareGroupOffsetsResponse {
    const API_KEY: ApiKey = ApiKey::DeleteShareGroupOffsets;
}

/// Runs `f` for every generated message type (used by the round-trip tests).
#[cfg(test)]
pub(crate) fn for_each_message<V: crate::testing::MessageVisitor>(f: &mut V) {
    f.visit::<AddOffsetsToTxnRequest>();
    f.visit::<AddOffsetsToTxnResponse>();
    f.visit::<AddPartitionsToTxnRequest>();
    f.visit::<AddPartitionsToTxnResponse>();
    f.visit::<AddRaftVoterRequest>();
    f.visit::<AddRaftVoterResponse>();
    f.visit::<AllocateProducerIdsRequest>();
    f.visit::<AllocateProducerIdsResponse>();
    f.visit::<AlterClientQuotasRequest>();
    f.visit::<AlterClientQuotasResponse>();
    f.visit::<AlterConfigsRequest>();
    f.visit::<AlterConfigsResponse>();
    f.visit::<AlterPartitionReassignmentsRequest>();
    f.visit::<AlterPartitionReassignmentsResponse>();
    f.visit::<AlterPartitionRequest>();
    f.visit::<AlterPartitionResponse>();
    f.visit::<AlterReplicaLogDirsRequest>();
    f.visit::<AlterReplicaLogDirsResponse>();
    f.visit::<AlterShareGroupOffsetsRequest>();
    f.visit::<AlterShareGroupOffsetsResponse>();
    f.visit::<AlterUserScramCredentialsRequest>();
    f.visit::<AlterUserScramCredentialsResponse>();
    f.visit::<ApiVersionsRequest>();
    f.visit::<ApiVersionsResponse>();
    f.visit::<AssignReplicasToDirsRequest>();
    f.visit::<AssignReplicasToDirsResponse>();
    f.visit::<BeginQuorumEpochRequest>();
    f.visit::<BeginQuorumEpochResponse>();
    f.visit::<BrokerHeartbeatRequest>();
    f.visit::<BrokerHeartbeatResponse>();
    f.visit::<BrokerRegistrationRequest>();
    f.visit::<BrokerRegistrationResponse>();
    f.visit::<ConsumerGroupDescribeRequest>();
    f.visit::<ConsumerGroupDescribeResponse>();
    f.visit::<ConsumerGroupHeartbeatRequest>();
    f.visit::<ConsumerGroupHeartbeatResponse>();
    f.visit::<ConsumerProtocolAssignment>();
    f.visit::<ConsumerProtocolSubscription>();
    f.visit::<ControlRecordTypeSchema>();
    f.visit::<ControllerRegistrationRequest>();
    f.visit::<ControllerRegistrationResponse>();
    f.visit::<CreateAclsRequest>();
    f.visit::<CreateAclsResponse>();
    f.visit::<CreateDelegationTokenRequest>();
    f.visit::<CreateDelegationTokenResponse>();
    f.visit::<CreatePartitionsRequest>();
    f.visit::<CreatePartitionsResponse>();
    f.visit::<CreateTopicsRequest>();
    f.visit::<CreateTopicsResponse>();
    f.visit::<DefaultPrincipalData>();
    f.visit::<DeleteAclsRequest>();
    f.visit::<DeleteAclsResponse>();
    f.visit::<DeleteGroupsRequest>();
    f.visit::<DeleteGroupsResponse>();
    f.visit::<DeleteRecordsRequest>();
    f.visit::<DeleteRecordsResponse>();
    f.visit::<DeleteShareGroupOffsetsRequest>();
    f.visit::<DeleteShareGroupOffsetsResponse>();
    f.visit::<DeleteShareGroupStateRequest>();
    f.visit::<DeleteShareGroupStateResponse>();
    f.visit::<DeleteTopicsRequest>();
    f.visit::<DeleteTopicsResponse>();
    f.visit::<DescribeAclsRequest>();
    f.visit::<DescribeAclsResponse>();
    f.visit::<DescribeClientQuotasRequest>();
    f.visit::<DescribeClientQuotasResponse>();
    f.visit::<DescribeClusterRequest>();
    f.visit::<DescribeClusterResponse>();
    f.visit::<DescribeConfigsRequest>();
    f.visit::<DescribeConfigsResponse>();
    f.visit::<DescribeDelegationTokenRequest>();
    f.visit::<DescribeDelegationTokenResponse>();
    f.visit::<DescribeGroupsRequest>();
    f.visit::<DescribeGroupsResponse>();
    f.visit::<DescribeLogDirsRequest>();
    f.visit::<DescribeLogDirsResponse>();
    f.visit::<DescribeProducersRequest>();
    f.visit::<DescribeProducersResponse>();
    f.visit::<DescribeQuorumRequest>();
    f.visit::<DescribeQuorumResponse>();
    f.visit::<DescribeShareGroupOffsetsRequest>();
    f.visit::<DescribeShareGroupOffsetsResponse>();
    f.visit::<DescribeTopicPartitionsRequest>();
    f.visit::<DescribeTopicPartitionsResponse>();
    f.visit::<DescribeTransactionsRequest>();
    f.visit::<DescribeTransactionsResponse>();
    f.visit::<DescribeUserScramCredentialsRequest>();
    f.visit::<DescribeUserScramCredentialsResponse>();
    f.visit::<ElectLeadersRequest>();
    f.visit::<ElectLeadersResponse>();
    f.visit::<EndQuorumEpochRequest>();
    f.visit::<EndQuorumEpochResponse>();
    f.visit::<EndTxnMarker>();
    f.visit::<EndTxnRequest>();
    f.visit::<EndTxnResponse>();
    f.visit::<EnvelopeRequest>();
    f.visit::<EnvelopeResponse>();
    f.visit::<ExpireDelegationTokenRequest>();
    f.visit::<ExpireDelegationTokenResponse>();
    f.visit::<FetchRequest>();
    f.visit::<FetchResponse>();
    f.visit::<FetchSnapshotRequest>();
    f.visit::<FetchSnapshotResponse>();
    f.visit::<FindCoordinatorRequest>();
    f.visit::<FindCoordinatorResponse>();
    f.visit::<GetTelemetrySubscriptionsRequest>();
    f.visit::<GetTelemetrySubscriptionsResponse>();
    f.visit::<HeartbeatRequest>();
    f.visit::<HeartbeatResponse>();
    f.visit::<IncrementalAlterConfigsRequest>();
    f.visit::<IncrementalAlterConfigsResponse>();
    f.visit::<InitProducerIdRequest>();
    f.visit::<InitProducerIdResponse>();
    f.visit::<InitializeShareGroupStateRequest>();
    f.visit::<InitializeShareGroupStateResponse>();
    f.visit::<JoinGroupRequest>();
    f.visit::<JoinGroupResponse>();
    f.visit::<KRaftVersionRecord>();
    f.visit::<LeaderChangeMessage>();
    f.visit::<LeaveGroupRequest>();
    f.visit::<LeaveGroupResponse>();
    f.visit::<ListConfigResourcesRequest>();
    f.visit::<ListConfigResourcesResponse>();
    f.visit::<ListGroupsRequest>();
    f.visit::<ListGroupsResponse>();
    f.visit::<ListOffsetsRequest>();
    f.visit::<ListOffsetsResponse>();
    f.visit::<ListPartitionReassignmentsRequest>();
    f.visit::<ListPartitionReassignmentsResponse>();
    f.visit::<ListTransactionsRequest>();
    f.visit::<ListTransactionsResponse>();
    f.visit::<MetadataRequest>();
    f.visit::<MetadataResponse>();
    f.visit::<OffsetCommitRequest>();
    f.visit::<OffsetCommitResponse>();
    f.visit::<OffsetDeleteRequest>();
    f.visit::<OffsetDeleteResponse>();
    f.visit::<OffsetFetchRequest>();
    f.visit::<OffsetFetchResponse>();
    f.visit::<OffsetForLeaderEpochRequest>();
    f.visit::<OffsetForLeaderEpochResponse>();
    f.visit::<ProduceRequest>();
    f.visit::<ProduceResponse>();
    f.visit::<PushTelemetryRequest>();
    f.visit::<PushTelemetryResponse>();
    f.visit::<ReadShareGroupStateRequest>();
    f.visit::<ReadShareGroupStateResponse>();
    f.visit::<ReadShareGroupStateSummaryRequest>();
    f.visit::<ReadShareGroupStateSummaryResponse>();
    f.visit::<RemoveRaftVoterRequest>();
    f.visit::<RemoveRaftVoterResponse>();
    f.visit::<RenewDelegationTokenRequest>();
    f.visit::<RenewDelegationTokenResponse>();
    f.visit::<RequestHeader>();
    f.visit::<ResponseHeader>();
    f.visit::<SaslAuthenticateRequest>();
    f.visit::<SaslAuthenticateResponse>();
    f.visit::<SaslHandshakeRequest>();
    f.visit::<SaslHandshakeResponse>();
    f.visit::<ShareAcknowledgeRequest>();
    f.visit::<ShareAcknowledgeResponse>();
    f.visit::<ShareFetchRequest>();
    f.visit::<ShareFetchResponse>();
    f.visit::<ShareGroupDescribeRequest>();
    f.visit::<ShareGroupDescribeResponse>();
    f.visit::<ShareGroupHeartbeatRequest>();
    f.visit::<ShareGroupHeartbeatResponse>();
    f.visit::<SnapshotFooterRecord>();
    f.visit::<SnapshotHeaderRecord>();
    f.visit::<StreamsGroupDescribeRequest>();
    f.visit::<StreamsGroupDescribeResponse>();
    f.visit::<StreamsGroupHeartbeatRequest>();
    f.visit::<StreamsGroupHeartbeatResponse>();
    f.visit::<SyncGroupRequest>();
    f.visit::<SyncGroupResponse>();
    f.visit::<TxnOffsetCommitRequest>();
    f.visit::<TxnOffsetCommitResponse>();
    f.visit::<UnregisterBrokerRequest>();
    f.visit::<UnregisterBrokerResponse>();
    f.visit::<UpdateFeaturesRequest>();
    f.visit::<UpdateFeaturesResponse>();
    f.visit::<UpdateRaftVoterRequest>();
    f.visit::<UpdateRaftVoterResponse>();
    f.visit::<VoteRequest>();
    f.visit::<VoteResponse>();
    f.visit::<VotersRecord>();
    f.visit::<WriteShareGroupStateRequest>();
    f.visit::<WriteShareGroupStateResponse>();
    f.visit::<WriteTxnMarkersRequest>();
    f.visit::<WriteTxnMarkersResponse>();
}
