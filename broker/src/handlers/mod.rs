//! One module per Kafka API. [`handle`] dispatches a decoded request to
//! its handler and returns the response body (or nothing, for acks=0).

use std::rc::Rc;

use kafka_protocol::generated::RequestHeader;
use kafka_protocol::{RequestBody, ResponseBody};

use crate::shard::Shard;

pub mod acls;
pub mod api_versions;
pub mod client_quotas;
pub mod configs;
pub mod consumer_group;
pub mod describe_quorum;
pub mod elect_leaders;
pub mod features;
pub mod fetch;
pub mod find_coordinator;
pub mod group_admin;
pub mod groups;
pub mod init_producer_id;
pub mod list_offsets;
pub mod metadata;
pub mod misc;
pub mod offsets;
pub mod produce;
pub mod reassignments;
pub mod scram_users;
pub mod share_admin;
pub mod share_fetch;
pub mod share_group;
pub mod telemetry;
pub mod topics;
pub mod txn;
pub mod txn_admin;
pub mod txn_offsets;

/// Runs the handler of an implemented API (the connection has checked the
/// version against [`crate::apis`]), and counts the request, its latency
/// and its response's error codes on this shard ([`crate::metrics`]).
pub async fn handle(
    shard: &Rc<Shard>,
    header: &RequestHeader,
    body: RequestBody,
    conn: &crate::connection::ConnInfo,
) -> Option<ResponseBody> {
    if !shard.ctx.config.metrics_enabled {
        return dispatch(shard, header, body, conn).await;
    }
    let started = std::time::Instant::now();
    let resp = dispatch(shard, header, body, conn).await;
    let mut errors = Vec::new();
    if let Some(r) = &resp {
        crate::metrics::errors::error_codes(r, &mut errors);
    }
    crate::metrics::record::request(header.request_api_key, started.elapsed(), &errors);
    resp
}

async fn dispatch(
    shard: &Rc<Shard>,
    header: &RequestHeader,
    body: RequestBody,
    conn: &crate::connection::ConnInfo,
) -> Option<ResponseBody> {
    let v = header.request_api_version;
    let peer = conn.peer;
    let listener = &*conn.listener;
    // Every handler asks this for each resource it touches (Kafka's
    // per-API ACL checks); without an authorizer it allows everything.
    let authz = crate::acl::Authz::new(
        shard.ctx.authorizer.as_ref(),
        shard.metadata(),
        &conn.principal,
        peer.ip(),
    );
    let authz = &authz;
    Some(match body {
        RequestBody::ApiVersions(r) => {
            ResponseBody::ApiVersions(api_versions::handle(shard, &r, v))
        }
        // A SASL exchange is run by the connection before authentication;
        // here (a listener without SASL, or after authentication) both
        // get ILLEGAL_SASL_STATE, as from Kafka.
        RequestBody::SaslHandshake(_) => {
            ResponseBody::SaslHandshake(kafka_protocol::generated::SaslHandshakeResponse {
                error_code: kafka_protocol::ErrorCode::IllegalSaslState.code(),
                ..Default::default()
            })
        }
        RequestBody::SaslAuthenticate(_) => {
            ResponseBody::SaslAuthenticate(kafka_protocol::generated::SaslAuthenticateResponse {
                error_code: kafka_protocol::ErrorCode::IllegalSaslState.code(),
                error_message: Some(
                    "SASL authentication is not expected on this connection now".into(),
                ),
                ..Default::default()
            })
        }
        RequestBody::Metadata(r) => {
            ResponseBody::Metadata(metadata::handle(shard, r, v, listener, authz).await)
        }
        RequestBody::Produce(r) => {
            return produce::handle(shard, r, v, header.client_id.as_deref(), listener, authz)
                .await
                .map(ResponseBody::Produce);
        }
        RequestBody::Fetch(r) => {
            ResponseBody::Fetch(fetch::handle(shard, r, v, listener, authz).await)
        }
        RequestBody::ListOffsets(r) => {
            ResponseBody::ListOffsets(list_offsets::handle(shard, r, v, authz).await)
        }
        RequestBody::CreateTopics(r) => {
            ResponseBody::CreateTopics(topics::create_topics(shard, r, v, authz).await)
        }
        RequestBody::DeleteTopics(r) => {
            ResponseBody::DeleteTopics(topics::delete_topics(shard, r, v, authz).await)
        }
        RequestBody::CreatePartitions(r) => {
            ResponseBody::CreatePartitions(topics::create_partitions(shard, r, authz).await)
        }
        RequestBody::DescribeConfigs(r) => {
            ResponseBody::DescribeConfigs(configs::describe(shard, r, v, authz))
        }
        RequestBody::AlterConfigs(r) => {
            ResponseBody::AlterConfigs(configs::alter(shard, r, authz).await)
        }
        RequestBody::IncrementalAlterConfigs(r) => {
            ResponseBody::IncrementalAlterConfigs(configs::incremental_alter(shard, r, authz).await)
        }
        RequestBody::InitProducerId(r) => {
            ResponseBody::InitProducerId(init_producer_id::handle(shard, r, v, authz).await)
        }
        RequestBody::AddPartitionsToTxn(r) => {
            ResponseBody::AddPartitionsToTxn(txn::add_partitions(shard, r, v, authz).await)
        }
        RequestBody::AddOffsetsToTxn(r) => {
            ResponseBody::AddOffsetsToTxn(txn::add_offsets(shard, r, v, authz).await)
        }
        RequestBody::EndTxn(r) => ResponseBody::EndTxn(txn::end_txn(shard, r, v, authz).await),
        RequestBody::WriteTxnMarkers(r) => {
            ResponseBody::WriteTxnMarkers(txn::write_markers(shard, r, authz).await)
        }
        RequestBody::TxnOffsetCommit(r) => {
            ResponseBody::TxnOffsetCommit(txn_offsets::commit(shard, r, v, authz).await)
        }
        RequestBody::DescribeTransactions(r) => {
            ResponseBody::DescribeTransactions(txn_admin::describe(shard, r, authz).await)
        }
        RequestBody::ListTransactions(r) => {
            ResponseBody::ListTransactions(txn_admin::list(shard, r, authz).await)
        }
        RequestBody::DescribeProducers(r) => {
            ResponseBody::DescribeProducers(txn_admin::describe_producers(shard, r, authz).await)
        }
        RequestBody::FindCoordinator(r) => ResponseBody::FindCoordinator(
            find_coordinator::handle(shard, r, v, listener, authz).await,
        ),
        RequestBody::JoinGroup(r) => {
            if authz.group(crate::acl::op::READ, &r.group_id)
                && let Some(refused) = consumer_group::refuse_classic_join(shard, &r, v).await
            {
                return Some(ResponseBody::JoinGroup(refused));
            }
            let client_id = header.client_id.clone().unwrap_or_default();
            // Kafka's client host: "/" and the peer's address.
            let client_host = format!("/{}", peer.ip());
            ResponseBody::JoinGroup(groups::join(shard, r, v, client_id, client_host, authz).await)
        }
        RequestBody::SyncGroup(r) => {
            ResponseBody::SyncGroup(groups::sync(shard, r, v, authz).await)
        }
        RequestBody::Heartbeat(r) => {
            ResponseBody::Heartbeat(groups::heartbeat(shard, r, authz).await)
        }
        RequestBody::LeaveGroup(r) => {
            ResponseBody::LeaveGroup(groups::leave(shard, r, v, authz).await)
        }
        RequestBody::ConsumerGroupHeartbeat(r) => {
            let client_id = header.client_id.clone().unwrap_or_default();
            let client_host = format!("/{}", peer.ip());
            ResponseBody::ConsumerGroupHeartbeat(
                consumer_group::heartbeat(shard, r, v, client_id, client_host, authz).await,
            )
        }
        RequestBody::ConsumerGroupDescribe(r) => {
            ResponseBody::ConsumerGroupDescribe(consumer_group::describe(shard, r, v, authz).await)
        }
        RequestBody::ShareGroupHeartbeat(r) => {
            let client_id = header.client_id.clone().unwrap_or_default();
            let client_host = format!("/{}", peer.ip());
            ResponseBody::ShareGroupHeartbeat(
                share_group::heartbeat(shard, r, client_id, client_host, authz).await,
            )
        }
        RequestBody::ShareGroupDescribe(r) => {
            ResponseBody::ShareGroupDescribe(share_group::describe(shard, r, authz).await)
        }
        RequestBody::ShareFetch(r) => {
            ResponseBody::ShareFetch(share_fetch::share_fetch(shard, r, v, authz).await)
        }
        RequestBody::ShareAcknowledge(r) => {
            ResponseBody::ShareAcknowledge(share_fetch::share_acknowledge(shard, r, v, authz).await)
        }
        RequestBody::DescribeShareGroupOffsets(r) => {
            ResponseBody::DescribeShareGroupOffsets(share_admin::describe(shard, r, v, authz).await)
        }
        RequestBody::AlterShareGroupOffsets(r) => {
            ResponseBody::AlterShareGroupOffsets(share_admin::alter(shard, r, authz).await)
        }
        RequestBody::DeleteShareGroupOffsets(r) => {
            ResponseBody::DeleteShareGroupOffsets(share_admin::delete(shard, r, authz).await)
        }
        RequestBody::OffsetCommit(r) => {
            ResponseBody::OffsetCommit(offsets::commit(shard, r, v, authz).await)
        }
        RequestBody::OffsetFetch(r) => {
            ResponseBody::OffsetFetch(offsets::fetch(shard, r, v, authz).await)
        }
        RequestBody::ListGroups(r) => {
            ResponseBody::ListGroups(group_admin::list(shard, r, v, authz).await)
        }
        RequestBody::DescribeGroups(r) => {
            ResponseBody::DescribeGroups(group_admin::describe(shard, r, v, authz).await)
        }
        RequestBody::DeleteGroups(r) => {
            ResponseBody::DeleteGroups(group_admin::delete(shard, r, authz).await)
        }
        RequestBody::OffsetDelete(r) => {
            ResponseBody::OffsetDelete(group_admin::offset_delete(shard, r, authz).await)
        }
        RequestBody::DeleteRecords(r) => {
            ResponseBody::DeleteRecords(misc::delete_records(shard, r, authz).await)
        }
        RequestBody::DescribeCluster(r) => {
            ResponseBody::DescribeCluster(misc::describe_cluster(shard, &r, v, listener, authz))
        }
        RequestBody::DescribeLogDirs(r) => {
            ResponseBody::DescribeLogDirs(misc::describe_log_dirs(shard, r, v, authz).await)
        }
        RequestBody::OffsetForLeaderEpoch(r) => {
            ResponseBody::OffsetForLeaderEpoch(misc::offset_for_leader_epoch(shard, r, authz).await)
        }
        RequestBody::AlterPartitionReassignments(r) => ResponseBody::AlterPartitionReassignments(
            reassignments::alter(shard, r, v, authz).await,
        ),
        RequestBody::ListPartitionReassignments(r) => {
            ResponseBody::ListPartitionReassignments(reassignments::list(shard, r, authz))
        }
        RequestBody::ElectLeaders(r) => {
            ResponseBody::ElectLeaders(elect_leaders::handle(shard, r, v, authz).await)
        }
        RequestBody::DescribeUserScramCredentials(r) => ResponseBody::DescribeUserScramCredentials(
            scram_users::describe(shard, header, r, conn, authz),
        ),
        RequestBody::AlterUserScramCredentials(r) => ResponseBody::AlterUserScramCredentials(
            scram_users::alter(shard, header, r, conn, authz).await,
        ),
        RequestBody::DescribeTopicPartitions(r) => {
            ResponseBody::DescribeTopicPartitions(misc::describe_topic_partitions(shard, r, authz))
        }
        RequestBody::UpdateFeatures(r) => {
            ResponseBody::UpdateFeatures(features::update(shard, &r, v, authz))
        }
        RequestBody::DescribeQuorum(r) => ResponseBody::DescribeQuorum(
            describe_quorum::handle(shard, r, v, listener, authz).await,
        ),
        RequestBody::GetTelemetrySubscriptions(r) => ResponseBody::GetTelemetrySubscriptions(
            telemetry::get_subscriptions(shard, header, r, conn),
        ),
        RequestBody::PushTelemetry(r) => {
            ResponseBody::PushTelemetry(telemetry::push(shard, header, r, conn))
        }
        RequestBody::ListConfigResources(_) => {
            ResponseBody::ListConfigResources(telemetry::list_config_resources(shard, authz))
        }
        RequestBody::DescribeClientQuotas(r) => {
            ResponseBody::DescribeClientQuotas(client_quotas::describe(shard, r, authz))
        }
        RequestBody::AlterClientQuotas(r) => {
            ResponseBody::AlterClientQuotas(client_quotas::alter(shard, r, authz).await)
        }
        RequestBody::CreateAcls(r) => ResponseBody::CreateAcls(acls::create(shard, r, authz).await),
        RequestBody::DescribeAcls(r) => ResponseBody::DescribeAcls(acls::describe(shard, r, authz)),
        RequestBody::DeleteAcls(r) => ResponseBody::DeleteAcls(acls::delete(shard, r, authz).await),
        other => {
            tracing::error!(
                api = other.api_key().name(),
                "no handler for an advertised API"
            );
            return None;
        }
    })
}
