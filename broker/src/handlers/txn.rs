//! The transaction coordinator's APIs: InitProducerId with a
//! transactional id, AddPartitionsToTxn (v0-3, what clients send),
//! AddOffsetsToTxn, EndTxn, and WriteTxnMarkers (between brokers, or a
//! client with CLUSTER_ACTION). Authorization as Kafka's `KafkaApis`
//! checks it, before anything is looked up; the state machine is
//! `txn::state`, run on the owner shard of the id's
//! `__transaction_state` partition.

use std::collections::BTreeSet;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::add_partitions_to_txn_response::{
    AddPartitionsToTxnPartitionResult, AddPartitionsToTxnTopicResult,
};
use kafka_protocol::generated::{
    AddOffsetsToTxnRequest, AddOffsetsToTxnResponse, AddPartitionsToTxnRequest,
    AddPartitionsToTxnResponse, EndTxnRequest, EndTxnResponse, InitProducerIdRequest,
    InitProducerIdResponse, WriteTxnMarkersRequest, WriteTxnMarkersResponse,
};

use crate::acl::{Authz, op};
use crate::shard::Shard;

/// Clients before these versions know INVALID_PRODUCER_EPOCH, not
/// PRODUCER_FENCED (Kafka's KafkaApis maps it the same way).
fn fenced_for(code: ErrorCode, version: i16, first_with_fenced: i16) -> ErrorCode {
    if code == ErrorCode::ProducerFenced && version < first_with_fenced {
        ErrorCode::InvalidProducerEpoch
    } else {
        code
    }
}

/// InitProducerId with a transactional id.
pub async fn init_producer_id(
    shard: &Rc<Shard>,
    req: InitProducerIdRequest,
    version: i16,
    id: String,
    authz: &Authz<'_>,
) -> InitProducerIdResponse {
    let outcome = init_outcome(shard, &req, id, authz).await;
    let mut resp = InitProducerIdResponse {
        producer_id: -1,
        producer_epoch: -1,
        ..Default::default()
    };
    match outcome {
        Ok((pid, epoch)) => {
            resp.producer_id = pid;
            resp.producer_epoch = epoch;
        }
        Err(code) => resp.error_code = fenced_for(code, version, 4).code(),
    }
    resp
}

async fn init_outcome(
    shard: &Rc<Shard>,
    req: &InitProducerIdRequest,
    id: String,
    authz: &Authz<'_>,
) -> Result<(i64, i16), ErrorCode> {
    if !authz.transactional_id(op::WRITE, &id) {
        return Err(ErrorCode::TransactionalIdAuthorizationFailed);
    }
    if id.is_empty() {
        return Err(ErrorCode::InvalidRequest);
    }
    if (req.producer_id == -1) != (req.producer_epoch == -1) {
        return Err(ErrorCode::InvalidRequest);
    }
    let max = shard.metadata().settings.i32("transaction.max.timeout.ms");
    if req.transaction_timeout_ms <= 0 || req.transaction_timeout_ms > max {
        return Err(ErrorCode::InvalidTransactionTimeout);
    }
    let expected = (req.producer_id != -1).then_some((req.producer_id, req.producer_epoch));
    let route = crate::txn::route(shard, &id).await?;
    let timeout_ms = req.transaction_timeout_ms;
    shard
        .submit_to(route.shard, move |s| async move {
            crate::txn::init_producer_id(&s, route, id, timeout_ms, expected).await
        })
        .await
        .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
}

/// AddPartitionsToTxn v0-3 (one transaction per request; v4+ is the
/// brokers' batched verification of transactions v2, not advertised).
pub async fn add_partitions(
    shard: &Rc<Shard>,
    req: AddPartitionsToTxnRequest,
    version: i16,
    authz: &Authz<'_>,
) -> AddPartitionsToTxnResponse {
    let id = req.v3_and_below_transactional_id;
    let meta = shard.metadata();
    // Per partition: the error found before the coordinator is asked.
    let mut early: Vec<(String, i32, Option<ErrorCode>)> = Vec::new();
    let id_denied = !authz.transactional_id(op::WRITE, &id);
    for t in &req.v3_and_below_topics {
        let denied = !authz.topic(op::WRITE, &t.name);
        let topic = meta.topic(&t.name);
        for &p in &t.partitions {
            let code = if id_denied {
                Some(ErrorCode::TransactionalIdAuthorizationFailed)
            } else if denied {
                Some(ErrorCode::TopicAuthorizationFailed)
            } else if !topic.is_some_and(|tm| p >= 0 && p < tm.partitions) {
                Some(ErrorCode::UnknownTopicOrPartition)
            } else if t.name == crate::txn::TXN_TOPIC {
                // Kafka: no transaction may write the coordinators' topics
                // directly (offsets go through AddOffsetsToTxn).
                Some(ErrorCode::InvalidTopicException)
            } else {
                None
            };
            early.push((t.name.clone(), p, code));
        }
    }
    let outcome: Result<(), ErrorCode> = if early.iter().any(|e| e.2.is_some()) {
        // Kafka answers OPERATION_NOT_ATTEMPTED for the rest.
        Err(ErrorCode::OperationNotAttempted)
    } else if id.is_empty() {
        Err(ErrorCode::InvalidRequest)
    } else {
        let partitions: BTreeSet<(String, i32)> =
            early.iter().map(|(t, p, _)| (t.clone(), *p)).collect();
        let (pid, epoch) = (
            req.v3_and_below_producer_id,
            req.v3_and_below_producer_epoch,
        );
        match crate::txn::route(shard, &id).await {
            Err(code) => Err(code),
            Ok(route) => shard
                .submit_to(route.shard, move |s| async move {
                    crate::txn::add_partitions(&s, route, id, pid, epoch, partitions, 0).await
                })
                .await
                .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable)),
        }
    };
    let mut topics: Vec<AddPartitionsToTxnTopicResult> = Vec::new();
    for (t, p, code) in early {
        let code = code.unwrap_or_else(|| match outcome {
            Ok(()) => ErrorCode::None,
            Err(c) => fenced_for(c, version, 2),
        });
        let r = AddPartitionsToTxnPartitionResult {
            partition_index: p,
            partition_error_code: code.code(),
            ..Default::default()
        };
        match topics.iter_mut().find(|x| x.name == t) {
            Some(x) => x.results_by_partition.push(r),
            None => topics.push(AddPartitionsToTxnTopicResult {
                name: t,
                results_by_partition: vec![r],
                ..Default::default()
            }),
        }
    }
    AddPartitionsToTxnResponse {
        results_by_topic_v3_and_below: topics,
        ..Default::default()
    }
}

/// AddOffsetsToTxn: the group's `__consumer_offsets` partition joins the
/// transaction (the offsets themselves come with TxnOffsetCommit).
pub async fn add_offsets(
    shard: &Rc<Shard>,
    req: AddOffsetsToTxnRequest,
    version: i16,
    authz: &Authz<'_>,
) -> AddOffsetsToTxnResponse {
    let outcome = async {
        if !authz.transactional_id(op::WRITE, &req.transactional_id) {
            return Err(ErrorCode::TransactionalIdAuthorizationFailed);
        }
        if !authz.group(op::READ, &req.group_id) {
            return Err(ErrorCode::GroupAuthorizationFailed);
        }
        if req.transactional_id.is_empty() {
            return Err(ErrorCode::InvalidRequest);
        }
        let offsets = crate::groups::offsets_topic(shard).await?;
        let p = crate::groups::partition_for(&req.group_id, offsets.partitions);
        let partitions = BTreeSet::from([(offsets.name.clone(), p)]);
        let route = crate::txn::route(shard, &req.transactional_id).await?;
        let (id, pid, epoch) = (
            req.transactional_id.clone(),
            req.producer_id,
            req.producer_epoch,
        );
        shard
            .submit_to(route.shard, move |s| async move {
                crate::txn::add_partitions(&s, route, id, pid, epoch, partitions, 0).await
            })
            .await
            .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
    }
    .await;
    AddOffsetsToTxnResponse {
        error_code: outcome
            .err()
            .map(|c| fenced_for(c, version, 2).code())
            .unwrap_or(0),
        ..Default::default()
    }
}

/// EndTxn: v0-4 are transactions v1 (the client keeps its epoch); v5+
/// transactions v2 (KIP-890: the end bumps the epoch, and the answer
/// carries the producer id and epoch of the client's next transaction).
pub async fn end_txn(
    shard: &Rc<Shard>,
    req: EndTxnRequest,
    version: i16,
    authz: &Authz<'_>,
) -> EndTxnResponse {
    let outcome = async {
        if !authz.transactional_id(op::WRITE, &req.transactional_id) {
            return Err(ErrorCode::TransactionalIdAuthorizationFailed);
        }
        if req.transactional_id.is_empty() {
            return Err(ErrorCode::InvalidRequest);
        }
        let route = crate::txn::route(shard, &req.transactional_id).await?;
        let (id, pid, epoch, commit) = (
            req.transactional_id.clone(),
            req.producer_id,
            req.producer_epoch,
            req.committed,
        );
        shard
            .submit_to(route.shard, move |s| async move {
                crate::txn::end_txn(&s, route, id, pid, epoch, commit, version >= 5).await
            })
            .await
            .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
    }
    .await;
    match outcome {
        Ok((producer_id, producer_epoch)) => EndTxnResponse {
            producer_id,
            producer_epoch,
            ..Default::default()
        },
        Err(c) => EndTxnResponse {
            error_code: fenced_for(c, version, 2).code(),
            producer_id: -1,
            producer_epoch: -1,
            ..Default::default()
        },
    }
}

/// WriteTxnMarkers from a client: Kafka requires CLUSTER_ACTION (brokers
/// send it to each other; here they use the node-to-node transport).
pub async fn write_markers(
    shard: &Rc<Shard>,
    req: WriteTxnMarkersRequest,
    authz: &Authz<'_>,
) -> WriteTxnMarkersResponse {
    if !authz.cluster(op::CLUSTER_ACTION) {
        use kafka_protocol::generated::write_txn_markers_response::{
            WritableTxnMarkerPartitionResult, WritableTxnMarkerResult, WritableTxnMarkerTopicResult,
        };
        let denied = ErrorCode::ClusterAuthorizationFailed.code();
        return WriteTxnMarkersResponse {
            markers: req
                .markers
                .into_iter()
                .map(|m| WritableTxnMarkerResult {
                    producer_id: m.producer_id,
                    topics: m
                        .topics
                        .into_iter()
                        .map(|t| WritableTxnMarkerTopicResult {
                            name: t.name,
                            partitions: t
                                .partition_indexes
                                .into_iter()
                                .map(|p| WritableTxnMarkerPartitionResult {
                                    partition_index: p,
                                    error_code: denied,
                                    ..Default::default()
                                })
                                .collect(),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
    }
    crate::txn::markers::handle(shard, req).await
}
