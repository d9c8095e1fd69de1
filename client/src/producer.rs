//! Producing: [`Client::produce_batch`] for pre-built batches (the load
//! generator's path: no per-record work, pipelined), and [`Producer`] for
//! records (batching, compression, idempotence, murmur2 partitioning).

use std::sync::Arc;

use bytes::Bytes;
use kafka_protocol::ApiKey;
use kafka_protocol::generated::produce_request::{PartitionProduceData, TopicProduceData};
use kafka_protocol::generated::{ProduceRequest, ProduceResponse};

use crate::client::Client;
use crate::conn::{Conn, PendingResponse};
use crate::error::Error;

/// A Produce in flight from [`Client::produce_batch_async`].
pub struct ProducePending {
    inner: Option<PendingResponse<ProduceResponse>>,
    topic: String,
    partition: i32,
    timeout_ms: u64,
}

impl ProducePending {
    /// Waits for the broker's answer: the batch's base offset (-1 for
    /// acks=0, which has no answer).
    pub fn wait(self) -> Result<i64, Error> {
        let Some(p) = self.inner else {
            return Ok(-1);
        };
        let resp = p.wait(self.timeout_ms)?;
        partition_result(&resp, &self.topic, self.partition)
    }
}

pub(crate) fn partition_result(
    resp: &ProduceResponse,
    topic: &str,
    partition: i32,
) -> Result<i64, Error> {
    let p = resp
        .responses
        .iter()
        .filter(|t| t.name == topic)
        .flat_map(|t| t.partition_responses.iter())
        .find(|p| p.index == partition)
        .ok_or_else(|| {
            Error::Protocol(format!("Produce answered nothing for {topic}/{partition}"))
        })?;
    Error::check(
        p.error_code,
        p.error_message.clone(),
        format!("{topic}/{partition}"),
    )?;
    Ok(p.base_offset)
}

pub(crate) fn produce_request(
    acks: i16,
    timeout_ms: u64,
    transactional_id: Option<String>,
    topic: &str,
    parts: Vec<(i32, Bytes)>,
) -> ProduceRequest {
    ProduceRequest {
        transactional_id,
        acks,
        timeout_ms: timeout_ms.min(i32::MAX as u64) as i32,
        topic_data: vec![TopicProduceData {
            name: topic.to_string(),
            partition_data: parts
                .into_iter()
                .map(|(index, records)| PartitionProduceData {
                    index,
                    records: Some(records),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }],
        ..Default::default()
    }
}

impl Client {
    /// Sends one pre-built record batch (magic 2 bytes, e.g. from
    /// `RecordBatchBuilder`) to a partition's leader without waiting, so
    /// many can be in flight on one connection. `acks` is -1, 0 or 1.
    /// No retries here: the caller owns the batch and decides.
    pub fn produce_batch_async(
        &self,
        topic: &str,
        partition: i32,
        batch: Bytes,
        acks: i16,
    ) -> Result<ProducePending, Error> {
        let (_, conn) = self.leader_conn(topic, partition)?;
        produce_on(
            &conn,
            topic,
            partition,
            batch,
            acks,
            self.config().request_timeout_ms,
        )
    }

    /// Sends one pre-built batch and waits for its base offset, retrying
    /// leader moves and lost connections (safe for idempotent batches;
    /// a plain batch may be written twice if an answer was lost).
    pub fn produce_batch(
        &self,
        topic: &str,
        partition: i32,
        batch: Bytes,
        acks: i16,
    ) -> Result<i64, Error> {
        let mut attempt = 0;
        loop {
            let r = self
                .produce_batch_async(topic, partition, batch.clone(), acks)
                .and_then(ProducePending::wait);
            match r {
                Err(e) if e.is_retriable() && attempt < self.config().retries => {
                    attempt += 1;
                    self.invalidate_topic(topic);
                    self.backoff(attempt);
                }
                r => return r,
            }
        }
    }
}

/// Sends a batch on a given connection (the leader's).
pub fn produce_on(
    conn: &Arc<Conn>,
    topic: &str,
    partition: i32,
    batch: Bytes,
    acks: i16,
    timeout_ms: u64,
) -> Result<ProducePending, Error> {
    let v = conn.version_for(ApiKey::Produce)?;
    let req = produce_request(acks, timeout_ms, None, topic, vec![(partition, batch)]);
    let inner = if acks == 0 {
        conn.send_no_response(&req, v)?;
        None
    } else {
        Some(conn.send(&req, v)?)
    };
    Ok(ProducePending {
        inner,
        topic: topic.to_string(),
        partition,
        timeout_ms,
    })
}
