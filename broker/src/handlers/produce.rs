//! Produce: validate, route each partition's batch to the shard that owns
//! it, append (durable before the answer), and report per partition.
//!
//! All partitions' appends are started before any is awaited, in request
//! order, so that pipelined requests on one connection append in order.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::produce_response::{
    BatchIndexAndErrorMessage, LeaderIdAndEpoch, NodeEndpoint, PartitionProduceResponse,
    TopicProduceResponse,
};
use kafka_protocol::generated::{ProduceRequest, ProduceResponse};

use crate::partition::ProduceError;
use crate::shard::{Shard, owner_shard};

fn error_response(
    index: i32,
    code: ErrorCode,
    message: Option<String>,
) -> PartitionProduceResponse {
    PartitionProduceResponse {
        index,
        error_code: code.code(),
        base_offset: -1,
        log_append_time_ms: -1,
        log_start_offset: -1,
        error_message: message,
        ..Default::default()
    }
}

/// Kafka's `AdminUtils.ADMIN_CLIENT_ID`: the one client id whose produce
/// requests may append to internal topics (ReplicaManager's
/// `internalTopicsAllowed`).
pub const ADMIN_CLIENT_ID: &str = "__admin_client";

/// Returns `None` for acks=0 (Kafka sends no response).
pub async fn handle(
    shard: &Rc<Shard>,
    req: ProduceRequest,
    version: i16,
    client_id: Option<&str>,
    listener: &str,
    authz: &crate::acl::Authz<'_>,
) -> Option<ProduceResponse> {
    let internal_allowed = client_id == Some(ADMIN_CLIENT_ID);
    let verify_txns = shard
        .metadata()
        .settings
        .bool("transaction.partition.verification.enable");
    let acks = req.acks;
    // How long a write may wait for replication before the client hears
    // REQUEST_TIMED_OUT (the request's timeout for acks=all, as Kafka; at
    // least 0.5 s, so that a tiny value never cancels an append before it
    // reached the Raft group).
    let timeout = std::time::Duration::from_millis(if acks == -1 {
        req.timeout_ms.max(500) as u64
    } else {
        30_000
    });
    let meta = shard.metadata();
    let mut topics: Vec<TopicProduceResponse> = Vec::with_capacity(req.topic_data.len());
    // (topic slot, partition slot, future) for appends in flight.
    let mut pending = Vec::new();
    for t in req.topic_data {
        let topic = if version >= 13 {
            meta.topic_by_id(&t.topic_id)
        } else {
            meta.topic(&t.name)
        };
        // WRITE on the topic is checked before its existence, so a
        // principal without it learns nothing of the topic.
        let denied = match (version >= 13, topic) {
            (true, Some(tm)) => !authz.topic(crate::acl::op::WRITE, &tm.name),
            (true, None) => false,
            (false, _) => !authz.topic(crate::acl::op::WRITE, &t.name),
        };
        let mut tr = TopicProduceResponse {
            name: t.name.clone(),
            topic_id: t.topic_id,
            partition_responses: Vec::with_capacity(t.partition_data.len()),
            ..Default::default()
        };
        for p in t.partition_data {
            let slot = tr.partition_responses.len();
            let unknown = if version >= 13 {
                ErrorCode::UnknownTopicId
            } else {
                ErrorCode::UnknownTopicOrPartition
            };
            let early =
                if !matches!(acks, -1..=1) {
                    Some(error_response(
                        p.index,
                        ErrorCode::InvalidRequiredAcks,
                        Some(format!("acks must be -1, 0 or 1, not {acks}")),
                    ))
                } else if denied {
                    Some(error_response(
                        p.index,
                        ErrorCode::TopicAuthorizationFailed,
                        None,
                    ))
                } else if req
                    .transactional_id
                    .as_deref()
                    .is_some_and(|id| !authz.transactional_id(crate::acl::op::WRITE, id))
                {
                    // Kafka: WRITE on the transactional id, for every partition.
                    Some(error_response(
                        p.index,
                        ErrorCode::TransactionalIdAuthorizationFailed,
                        None,
                    ))
                } else {
                    match topic {
                        None => Some(error_response(p.index, unknown, None)),
                        Some(tm) if p.index < 0 || p.index >= tm.partitions => Some(
                            error_response(p.index, ErrorCode::UnknownTopicOrPartition, None),
                        ),
                        // Kafka's ReplicaManager: internal topics take no
                        // client produce (the coordinator appends directly),
                        // except from `__admin_client`. Such records reach the
                        // coordinator's state at its next start-up replay, as
                        // with Kafka.
                        Some(tm)
                            if (tm.name == crate::groups::OFFSETS_TOPIC
                                || tm.name == crate::txn::TXN_TOPIC)
                                && !internal_allowed =>
                        {
                            Some(error_response(
                                p.index,
                                ErrorCode::InvalidTopicException,
                                Some(format!("Cannot append to internal topic {}", tm.name)),
                            ))
                        }
                        Some(_) if p.records.is_none() => Some(error_response(
                            p.index,
                            ErrorCode::CorruptMessage,
                            Some("no records".into()),
                        )),
                        Some(_) => None,
                    }
                };
            if let Some(e) = early {
                tr.partition_responses.push(e);
                continue;
            }
            let tm = topic.expect("checked above");
            let key = (tm.id, p.index);
            let records = p.records.unwrap_or_default();
            // The full-disk guard (`disk_space.rs`): user topics only. A
            // client's produce to an internal topic (`__admin_client`) is
            // as rare as the coordinators' own writes, which go on.
            if !tm.is_internal()
                && let Err(e) = shard.ctx.disk_space.admit_produce(records.len() as u64)
            {
                tr.partition_responses.push(error_response(
                    p.index,
                    ErrorCode::KafkaStorageError,
                    Some(e.to_string()),
                ));
                continue;
            }
            let owner = owner_shard(tm.id, p.index, shard.shard_count());
            tr.partition_responses
                .push(error_response(p.index, ErrorCode::None, None));
            // KIP-890: Produce v12+ comes from a transactions v2 producer,
            // whose partitions the leader adds to the transaction (always);
            // older versions are verified when the setting asks for it.
            let ask = if version >= 12 {
                Some(crate::txn::verify::Ask::Add)
            } else {
                verify_txns.then_some(crate::txn::verify::Ask::Verify)
            };
            let verify_as = ask.zip(req.transactional_id.clone());
            let (topic_name, index) = (tm.name.clone(), p.index);
            let fut = shard.submit_to(owner, move |s| async move {
                // The coordinator is asked before the first transactional
                // batch of the producer's transaction lands here (see
                // `Partition::append_with_verifier`).
                let verifier = verify_as.map(|(ask, id)| {
                    let s = s.clone();
                    Box::new(move |pid: i64, epoch: i16| {
                        Box::pin(async move {
                            let q = crate::txn::verify::Question {
                                transactional_id: id,
                                producer_id: pid,
                                epoch,
                                topic: topic_name,
                                partition: index,
                            };
                            crate::txn::verify::verify(&s, ask, q).await
                        })
                            as std::pin::Pin<Box<dyn std::future::Future<Output = _>>>
                    }) as crate::partition::TxnVerifier
                });
                match s.partition(&key) {
                    Some(part) => {
                        let (n, bytes) = if s.ctx.config.metrics_enabled {
                            crate::metrics::record::batch_counts(&records)
                        } else {
                            (0, 0)
                        };
                        let out = part
                            .append_with_verifier(records, acks, timeout, verifier)
                            .await;
                        if out.is_ok() {
                            crate::metrics::record::produced(&part.topic, n, bytes);
                        }
                        out
                    }
                    None => Err(ProduceError {
                        code: ErrorCode::NotLeaderOrFollower,
                        message: "this broker does not host the partition (yet)".into(),
                        record_errors: Vec::new(),
                    }),
                }
            });
            pending.push((topics.len(), slot, key, Box::pin(fut)));
        }
        topics.push(tr);
    }
    // Start every append in order, then wait for all of them.
    let outcomes = futures_util::future::join_all(pending.iter_mut().map(|(_, _, _, f)| f)).await;
    let mut leaders = std::collections::BTreeSet::new();
    for ((ti, pi, key, _), outcome) in pending.iter().zip(outcomes) {
        let r = &mut topics[*ti].partition_responses[*pi];
        if matches!(&outcome, Ok(Err(e)) if e.code == ErrorCode::NotLeaderOrFollower)
            || outcome.is_err()
        {
            // KIP-951: tell the client where the leader is now.
            let leader = shard.leader_of(key);
            r.current_leader = LeaderIdAndEpoch {
                leader_id: leader,
                leader_epoch: shard.leader_epoch(key),
                ..Default::default()
            };
            if leader >= 0 {
                leaders.insert(leader);
            }
        }
        match outcome {
            Ok(Ok((info, log_append_time))) => {
                r.base_offset = info.base_offset;
                r.log_start_offset = info.log_start_offset;
                r.log_append_time_ms = log_append_time.unwrap_or(-1);
            }
            Ok(Err(e)) => {
                r.error_code = e.code.code();
                // KIP-467: the failing records by index (v8+ carry them;
                // older versions encode only the error code).
                if !e.record_errors.is_empty() {
                    r.record_errors = e
                        .record_errors
                        .into_iter()
                        .map(|re| BatchIndexAndErrorMessage {
                            batch_index: re.batch_index,
                            batch_index_error_message: Some(re.message),
                            ..Default::default()
                        })
                        .collect();
                } else if matches!(e.code, ErrorCode::InvalidRecord | ErrorCode::CorruptMessage) {
                    r.record_errors = vec![BatchIndexAndErrorMessage {
                        batch_index: 0,
                        batch_index_error_message: Some(e.message.clone()),
                        ..Default::default()
                    }];
                }
                r.error_message = Some(e.message);
            }
            Err(_) => r.error_code = ErrorCode::NotLeaderOrFollower.code(),
        }
    }
    if acks == 0 {
        return None;
    }
    let node_endpoints = super::metadata::endpoints(shard, &leaders, listener)
        .into_iter()
        .map(|b| NodeEndpoint {
            node_id: b.node_id,
            host: b.host,
            port: b.port,
            rack: b.rack,
            ..Default::default()
        })
        .collect();
    Some(ProduceResponse {
        responses: topics,
        node_endpoints,
        ..Default::default()
    })
}
