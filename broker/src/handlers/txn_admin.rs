//! Operators' view of transactions (`kafka-transactions.sh`,
//! `Admin.describeTransactions` / `listTransactions` /
//! `describeProducers`): DescribeTransactions, ListTransactions (v0-1;
//! only the transactional ids the principal may DESCRIBE) and
//! DescribeProducers.

use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::describe_producers_response::{
    PartitionResponse, ProducerState as ActiveProducer, TopicResponse,
};
use kafka_protocol::generated::describe_transactions_response::{TopicData, TransactionState};
use kafka_protocol::generated::list_transactions_response::TransactionState as Listed;
use kafka_protocol::generated::{
    DescribeProducersRequest, DescribeProducersResponse, DescribeTransactionsRequest,
    DescribeTransactionsResponse, ListTransactionsRequest, ListTransactionsResponse,
};

use crate::acl::{Authz, op};
use crate::partition::now_ms;
use crate::shard::{Shard, owner_shard};
use crate::txn::state::{TxnMeta, TxnState};

pub async fn describe(
    shard: &Rc<Shard>,
    req: DescribeTransactionsRequest,
    authz: &Authz<'_>,
) -> DescribeTransactionsResponse {
    let mut out = Vec::with_capacity(req.transactional_ids.len());
    for id in req.transactional_ids {
        let mut st = TransactionState {
            transactional_id: id.clone(),
            producer_id: -1,
            producer_epoch: -1,
            transaction_start_time_ms: -1,
            ..Default::default()
        };
        let found = if !authz.transactional_id(op::DESCRIBE, &id) {
            Err(ErrorCode::TransactionalIdAuthorizationFailed)
        } else if id.is_empty() {
            Err(ErrorCode::InvalidRequest)
        } else {
            match crate::txn::route(shard, &id).await {
                Err(c) => Err(c),
                Ok(route) => shard
                    .submit_to(route.shard, move |s| async move {
                        crate::txn::coordinator_epoch(&s, route)?;
                        crate::txn::coordinator()
                            .borrow()
                            .txns
                            .get(&id)
                            .filter(|m| m.state != TxnState::Dead && m.producer_epoch >= 0)
                            .cloned()
                            .ok_or(ErrorCode::TransactionalIdNotFound)
                    })
                    .await
                    .unwrap_or(Err(ErrorCode::CoordinatorNotAvailable)),
            }
        };
        match found {
            Err(c) => st.error_code = c.code(),
            Ok(m) => fill(&mut st, &m),
        }
        out.push(st);
    }
    DescribeTransactionsResponse {
        transaction_states: out,
        ..Default::default()
    }
}

fn fill(st: &mut TransactionState, m: &TxnMeta) {
    st.transaction_state = m.state.name().to_string();
    st.transaction_timeout_ms = m.timeout_ms;
    st.transaction_start_time_ms = m.start_ms;
    st.producer_id = m.producer_id;
    st.producer_epoch = m.producer_epoch;
    for (t, p) in &m.partitions {
        match st.topics.iter_mut().find(|x| &x.topic == t) {
            Some(x) => x.partitions.push(*p),
            None => st.topics.push(TopicData {
                topic: t.clone(),
                partitions: vec![*p],
                ..Default::default()
            }),
        }
    }
}

pub async fn list(
    shard: &Rc<Shard>,
    req: ListTransactionsRequest,
    authz: &Authz<'_>,
) -> ListTransactionsResponse {
    let mut resp = ListTransactionsResponse::default();
    let mut states = Vec::new();
    for name in &req.state_filters {
        match TxnState::from_name(name) {
            Some(s) => states.push(s),
            None => resp.unknown_state_filters.push(name.clone()),
        }
    }
    // Every shard's coordinated ids: (id, producer id, state, start).
    let mut all: Vec<(String, i64, TxnState, i64)> = Vec::new();
    for i in 0..shard.shard_count() {
        if let Ok(v) = shard
            .submit_to(i, |_s| async move {
                crate::txn::coordinator()
                    .borrow()
                    .txns
                    .values()
                    .filter(|m| m.producer_epoch >= 0)
                    .map(|m| (m.id.clone(), m.producer_id, m.state, m.start_ms))
                    .collect::<Vec<_>>()
            })
            .await
        {
            all.extend(v);
        }
    }
    all.sort_by(|a, b| a.0.cmp(&b.0));
    let now = now_ms();
    for (id, pid, state, start) in all {
        if (!states.is_empty() && !states.contains(&state))
            || (!req.producer_id_filters.is_empty() && !req.producer_id_filters.contains(&pid))
            // v1: only transactions running longer than this (Kafka
            // compares with the start time whatever the state).
            || (req.duration_filter >= 0 && now.saturating_sub(start) <= req.duration_filter)
            || !authz.transactional_id(op::DESCRIBE, &id)
        {
            continue;
        }
        resp.transaction_states.push(Listed {
            transactional_id: id,
            producer_id: pid,
            transaction_state: state.name().to_string(),
            ..Default::default()
        });
    }
    resp
}

/// DescribeProducers (`kafka-transactions.sh describe-producers`): each
/// partition leader's active producers, with their open transaction's
/// first offset (what finds a hanging transaction). READ on the topic.
pub async fn describe_producers(
    shard: &Rc<Shard>,
    req: DescribeProducersRequest,
    authz: &Authz<'_>,
) -> DescribeProducersResponse {
    let meta = shard.metadata();
    let mut topics = Vec::with_capacity(req.topics.len());
    for t in req.topics {
        let denied = !authz.topic(op::READ, &t.name);
        let tm = meta.topic(&t.name).cloned();
        let mut partitions = Vec::with_capacity(t.partition_indexes.len());
        for p in t.partition_indexes {
            let mut pr = PartitionResponse {
                partition_index: p,
                ..Default::default()
            };
            let found: Result<Vec<ActiveProducer>, ErrorCode> = match &tm {
                _ if denied => Err(ErrorCode::TopicAuthorizationFailed),
                Some(tm) if p >= 0 && p < tm.partitions => {
                    let key = (tm.id, p);
                    let owner = owner_shard(tm.id, p, shard.shard_count());
                    shard
                        .submit_to(owner, move |s| async move {
                            let part = s
                                .led_partition(&key)
                                .ok_or(ErrorCode::NotLeaderOrFollower)?;
                            Ok(part
                                .producers_for_describe()
                                .into_iter()
                                .map(|x| ActiveProducer {
                                    producer_id: x.producer_id,
                                    producer_epoch: i32::from(x.producer_epoch),
                                    last_sequence: x.last_sequence,
                                    last_timestamp: x.last_timestamp,
                                    coordinator_epoch: x.coordinator_epoch,
                                    current_txn_start_offset: x.current_txn_start_offset,
                                    ..Default::default()
                                })
                                .collect())
                        })
                        .await
                        .unwrap_or(Err(ErrorCode::NotLeaderOrFollower))
                }
                _ => Err(ErrorCode::UnknownTopicOrPartition),
            };
            match found {
                Ok(mut v) => {
                    v.sort_by_key(|x| x.producer_id);
                    pr.active_producers = v;
                }
                Err(code) => pr.error_code = code.code(),
            }
            partitions.push(pr);
        }
        topics.push(TopicResponse {
            name: t.name,
            partitions,
            ..Default::default()
        });
    }
    DescribeProducersResponse {
        topics,
        ..Default::default()
    }
}
