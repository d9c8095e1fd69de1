//! Transaction verification (KIP-890 part 1, Kafka's
//! `transaction.partition.verification.enable`, on by default since 3.6):
//! before a partition takes the first transactional batch of a producer's
//! transaction, its leader asks the coordinator whether that transaction
//! is ongoing and includes the partition. Without it, a late retry of a
//! batch whose transaction already ended opens a transaction there that no
//! marker will ever end (a "hanging transaction": the partition's last
//! stable offset stops, and read_committed consumers with it).
//!
//! Transactions v2 (KIP-890 part 2) use the same path to *add* the
//! partition: a producer that speaks them (Produce v12+, TxnOffsetCommit
//! v5+) sends no AddPartitionsToTxn/AddOffsetsToTxn, and the partition's
//! leader (or the group's coordinator) adds the partition on its behalf
//! before the first batch of the transaction is written there ([`Ask::Add`],
//! Kafka's `addPartition` operation). Unlike verification this cannot be
//! turned off: a partition nobody added would get no marker.
//!
//! The question goes to the coordinator's shard on this broker, or to the
//! coordinator broker over the node-to-node transport
//! ([`TXN_VERIFY_GROUP`](crate::cluster::TXN_VERIFY_GROUP)) as Kafka's own
//! broker-to-coordinator request: AddPartitionsToTxn v4, `verify_only`
//! set for a verification and clear for an add.

use std::collections::BTreeSet;
use std::rc::Rc;
use std::time::Duration;

use kafka_protocol::ErrorCode;
use kafka_protocol::Message;
use kafka_protocol::generated::add_partitions_to_txn_request::{
    AddPartitionsToTxnTopic, AddPartitionsToTxnTransaction,
};
use kafka_protocol::generated::add_partitions_to_txn_response::{
    AddPartitionsToTxnPartitionResult, AddPartitionsToTxnResult, AddPartitionsToTxnTopicResult,
};
use kafka_protocol::generated::{AddPartitionsToTxnRequest, AddPartitionsToTxnResponse};

use super::state::TxnState;
use super::{Route, TXN_TOPIC, coordinator, coordinator_epoch, partition_for};
use crate::shard::{Shard, owner_shard};

/// The AddPartitionsToTxn version spoken between brokers.
const RPC_VERSION: i16 = 4;

/// How long a partition leader waits for the coordinator's answer.
const VERIFY_TIMEOUT: Duration = Duration::from_secs(5);

/// What a partition leader asks the transaction coordinator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// Transactions v1: is the partition in the ongoing transaction?
    Verify,
    /// Transactions v2: add the partition to the transaction (starting
    /// one if none is open).
    Add,
}

/// One partition's question about one producer's transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub transactional_id: String,
    pub producer_id: i64,
    pub epoch: i16,
    pub topic: String,
    pub partition: i32,
}

/// Whether producer (`producer_id`, `epoch`) of `transactional_id` has an
/// ongoing transaction that includes `topic`-`partition` (after adding it,
/// for [`Ask::Add`]), as the Produce answer should say it: `Ok`,
/// INVALID_TXN_STATE (no such transaction), INVALID_PRODUCER_EPOCH
/// (fenced), INVALID_PRODUCER_ID_MAPPING, or NOT_ENOUGH_REPLICAS when the
/// coordinator cannot be asked now (retriable, as Kafka answers).
pub async fn verify(shard: &Rc<Shard>, ask: Ask, q: Question) -> Result<(), ErrorCode> {
    let Some(t) = shard.metadata().topic(TXN_TOPIC).cloned() else {
        return Err(ErrorCode::InvalidTxnState);
    };
    let p = partition_for(&q.transactional_id, t.partitions);
    let leader = shard.leader_of(&(t.id, p));
    let answer = if leader == shard.ctx.config.node_id {
        let route = Route {
            topic_id: t.id,
            partition: p,
            shard: owner_shard(t.id, p, shard.shard_count()),
        };
        shard
            .submit_to(route.shard, move |s| async move {
                answer_here(&s, route, ask, q).await
            })
            .await
            .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
    } else if leader < 0 {
        Err(ErrorCode::CoordinatorNotAvailable)
    } else {
        ask_peer(shard, leader, ask, q).await
    };
    answer.map_err(|code| match code {
        ErrorCode::ProducerFenced | ErrorCode::InvalidProducerEpoch => {
            ErrorCode::InvalidProducerEpoch
        }
        ErrorCode::InvalidTxnState | ErrorCode::InvalidProducerIdMapping => code,
        // The coordinator moved, is loading, or is busy: retriable.
        _ => ErrorCode::NotEnoughReplicas,
    })
}

/// On the coordinator's shard: verifies, or adds the partition.
async fn answer_here(s: &Rc<Shard>, route: Route, ask: Ask, q: Question) -> Result<(), ErrorCode> {
    match ask {
        Ask::Verify => check(s, route, &q),
        Ask::Add => {
            let partitions = BTreeSet::from([(q.topic, q.partition)]);
            super::add_partitions(
                s,
                route,
                q.transactional_id,
                q.producer_id,
                q.epoch,
                partitions,
                2,
            )
            .await
        }
    }
}

/// On the coordinator's shard: the answer from the id's current state.
fn check(s: &Shard, route: Route, q: &Question) -> Result<(), ErrorCode> {
    coordinator_epoch(s, route)?;
    let c = coordinator();
    let c = c.borrow();
    let m = c
        .txns
        .get(&q.transactional_id)
        .ok_or(ErrorCode::InvalidProducerIdMapping)?;
    if m.producer_id != q.producer_id {
        return Err(ErrorCode::InvalidProducerIdMapping);
    }
    if m.producer_epoch != q.epoch {
        return Err(ErrorCode::ProducerFenced);
    }
    if m.state != TxnState::Ongoing || !m.partitions.contains(&(q.topic.clone(), q.partition)) {
        return Err(ErrorCode::InvalidTxnState);
    }
    Ok(())
}

async fn ask_peer(shard: &Rc<Shard>, leader: i32, ask: Ask, q: Question) -> Result<(), ErrorCode> {
    let net = shard.net().ok_or(ErrorCode::CoordinatorNotAvailable)?;
    let req = AddPartitionsToTxnRequest {
        transactions: vec![AddPartitionsToTxnTransaction {
            transactional_id: q.transactional_id,
            producer_id: q.producer_id,
            producer_epoch: q.epoch,
            verify_only: ask == Ask::Verify,
            topics: vec![AddPartitionsToTxnTopic {
                name: q.topic,
                partitions: vec![q.partition],
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let body = req
        .encode_to_bytes(RPC_VERSION)
        .map_err(|_| ErrorCode::UnknownServerError)?;
    let reply = crate::cluster::call_group(
        &net,
        leader,
        crate::cluster::TXN_VERIFY_GROUP,
        body,
        VERIFY_TIMEOUT,
    )
    .await
    .map_err(|e| {
        tracing::debug!(leader, error = %e, "cannot ask the transaction coordinator");
        ErrorCode::CoordinatorNotAvailable
    })?;
    let resp = AddPartitionsToTxnResponse::decode_exact(reply, RPC_VERSION)
        .map_err(|_| ErrorCode::CoordinatorNotAvailable)?;
    if resp.error_code != 0 {
        return Err(ErrorCode::from_code(resp.error_code).unwrap_or(ErrorCode::UnknownServerError));
    }
    let code = resp
        .results_by_transaction
        .first()
        .and_then(|t| t.topic_results.first())
        .and_then(|t| t.results_by_partition.first())
        .map(|p| p.partition_error_code)
        .ok_or(ErrorCode::CoordinatorNotAvailable)?;
    match ErrorCode::from_code(code).unwrap_or(ErrorCode::UnknownServerError) {
        ErrorCode::None => Ok(()),
        other => Err(other),
    }
}

/// A peer partition leader's question, on shard 0 of the coordinator.
pub async fn serve(shard: &Rc<Shard>, body: bytes::Bytes) -> Result<bytes::Bytes, String> {
    let req =
        AddPartitionsToTxnRequest::decode_exact(body, RPC_VERSION).map_err(|e| e.to_string())?;
    let mut results = Vec::with_capacity(req.transactions.len());
    let t = shard.metadata().topic(TXN_TOPIC).cloned();
    for txn in req.transactions {
        let ask = if txn.verify_only {
            Ask::Verify
        } else {
            Ask::Add
        };
        let mut topic_results = Vec::with_capacity(txn.topics.len());
        let wanted: BTreeSet<(String, i32)> = txn
            .topics
            .iter()
            .flat_map(|t| t.partitions.iter().map(move |p| (t.name.clone(), *p)))
            .collect();
        let mut outcomes = Vec::with_capacity(wanted.len());
        for (topic, partition) in wanted {
            let code = match &t {
                None => ErrorCode::NotCoordinator,
                Some(t) => {
                    let p = partition_for(&txn.transactional_id, t.partitions);
                    let route = Route {
                        topic_id: t.id,
                        partition: p,
                        shard: owner_shard(t.id, p, shard.shard_count()),
                    };
                    let q = Question {
                        transactional_id: txn.transactional_id.clone(),
                        producer_id: txn.producer_id,
                        epoch: txn.producer_epoch,
                        topic: topic.clone(),
                        partition,
                    };
                    shard
                        .submit_to(route.shard, move |s| async move {
                            answer_here(&s, route, ask, q).await
                        })
                        .await
                        .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable))
                        .err()
                        .unwrap_or(ErrorCode::None)
                }
            };
            outcomes.push((topic, partition, code));
        }
        for (topic, partition, code) in outcomes {
            let r = AddPartitionsToTxnPartitionResult {
                partition_index: partition,
                partition_error_code: code.code(),
                ..Default::default()
            };
            match topic_results
                .iter_mut()
                .find(|x: &&mut AddPartitionsToTxnTopicResult| x.name == topic)
            {
                Some(x) => x.results_by_partition.push(r),
                None => topic_results.push(AddPartitionsToTxnTopicResult {
                    name: topic,
                    results_by_partition: vec![r],
                    ..Default::default()
                }),
            }
        }
        results.push(AddPartitionsToTxnResult {
            transactional_id: txn.transactional_id,
            topic_results,
            ..Default::default()
        });
    }
    AddPartitionsToTxnResponse {
        results_by_transaction: results,
        ..Default::default()
    }
    .encode_to_bytes(RPC_VERSION)
    .map_err(|e| e.to_string())
}
