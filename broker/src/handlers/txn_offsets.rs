//! TxnOffsetCommit: a transactional producer commits a consumer group's
//! offsets inside its transaction (`send_offsets_to_transaction`). The
//! group coordinator writes them as the producer's transactional batch and
//! applies them when the commit marker arrives (`groups::txn_offsets`).
//! Authorization as Kafka: WRITE on the transactional id, READ on the
//! group, READ on each topic.
//!
//! v5+ comes from a transactions v2 producer (KIP-890), which sends no
//! AddOffsetsToTxn: the group's `__consumer_offsets` partition is added to
//! the transaction here, before the offsets are written (Kafka's group
//! coordinator does the same through `AddPartitionsToTxnManager`).

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::txn_offset_commit_response::{
    TxnOffsetCommitResponsePartition, TxnOffsetCommitResponseTopic,
};
use kafka_protocol::generated::{TxnOffsetCommitRequest, TxnOffsetCommitResponse};

use crate::acl::{Authz, op};
use crate::groups;
use crate::groups::records::OffsetValue;
use crate::groups::txn_offsets::TxnCommitter;
use crate::partition::now_ms;
use crate::shard::Shard;

pub async fn commit(
    shard: &Rc<Shard>,
    req: TxnOffsetCommitRequest,
    version: i16,
    authz: &Authz<'_>,
) -> TxnOffsetCommitResponse {
    let meta = shard.metadata();
    let request_error = if !authz.transactional_id(op::WRITE, &req.transactional_id) {
        Some(ErrorCode::TransactionalIdAuthorizationFailed)
    } else if !authz.group(op::READ, &req.group_id) {
        Some(ErrorCode::GroupAuthorizationFailed)
    } else if req.group_id.is_empty() {
        Some(ErrorCode::InvalidGroupId)
    } else {
        None
    };
    let max_metadata = groups::max_metadata_bytes(&meta.settings);
    // (topic, partition, error found before the coordinator is asked).
    let mut slots: Vec<(String, i32, Option<ErrorCode>)> = Vec::new();
    let mut items = Vec::new();
    for t in req.topics {
        let denied = !authz.topic(op::READ, &t.name);
        let tm = meta.topic(&t.name);
        for p in t.partitions {
            let code = if let Some(c) = request_error {
                Some(c)
            } else if denied {
                Some(ErrorCode::TopicAuthorizationFailed)
            } else if !tm
                .is_some_and(|tm| p.partition_index >= 0 && p.partition_index < tm.partitions)
            {
                Some(ErrorCode::UnknownTopicOrPartition)
            } else if p
                .committed_metadata
                .as_ref()
                .is_some_and(|m| m.len() > max_metadata)
            {
                Some(ErrorCode::OffsetMetadataTooLarge)
            } else {
                items.push((
                    t.name.clone(),
                    p.partition_index,
                    OffsetValue {
                        offset: p.committed_offset,
                        leader_epoch: p.committed_leader_epoch,
                        metadata: p.committed_metadata.unwrap_or_default(),
                        commit_timestamp: now_ms(),
                    },
                ));
                None
            };
            slots.push((t.name.clone(), p.partition_index, code));
        }
    }
    let outcome: Result<(), ErrorCode> = if items.is_empty() {
        Ok(())
    } else {
        match groups::route(shard, &req.group_id).await {
            Err(code) => Err(code),
            Ok(route) => 'commit: {
                if version >= 5
                    && let Err(code) = crate::txn::verify::verify(
                        shard,
                        crate::txn::verify::Ask::Add,
                        crate::txn::verify::Question {
                            transactional_id: req.transactional_id.clone(),
                            producer_id: req.producer_id,
                            epoch: req.producer_epoch,
                            topic: groups::OFFSETS_TOPIC.to_string(),
                            partition: route.partition,
                        },
                    )
                    .await
                {
                    // As Kafka's group coordinator answers a failed add:
                    // retriable trouble reaching the transaction
                    // coordinator is COORDINATOR_NOT_AVAILABLE (the
                    // client retries), the rest as the coordinator said.
                    break 'commit Err(match code {
                        ErrorCode::NotEnoughReplicas => ErrorCode::CoordinatorNotAvailable,
                        other => other,
                    });
                }
                let group_id = req.group_id.clone();
                let who = TxnCommitter {
                    producer_id: req.producer_id,
                    producer_epoch: req.producer_epoch,
                    member_id: req.member_id.clone(),
                    generation: req.generation_id,
                };
                shard
                    .submit_to(route.shard, move |s| async move {
                        groups::txn_offsets::commit(&s, route, group_id, who, items).await
                    })
                    .await
                    .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
            }
        }
    };
    let accepted = match outcome {
        Ok(()) => ErrorCode::None,
        // Clients before v2 know INVALID_PRODUCER_EPOCH only.
        Err(ErrorCode::ProducerFenced) if version < 2 => ErrorCode::InvalidProducerEpoch,
        Err(c) => c,
    };
    let mut topics: Vec<TxnOffsetCommitResponseTopic> = Vec::new();
    for (t, p, code) in slots {
        let code = code.unwrap_or(accepted);
        let r = TxnOffsetCommitResponsePartition {
            partition_index: p,
            error_code: code.code(),
            ..Default::default()
        };
        match topics.iter_mut().find(|x| x.name == t) {
            Some(x) => x.partitions.push(r),
            None => topics.push(TxnOffsetCommitResponseTopic {
                name: t,
                partitions: vec![r],
                ..Default::default()
            }),
        }
    }
    TxnOffsetCommitResponse {
        topics,
        ..Default::default()
    }
}
