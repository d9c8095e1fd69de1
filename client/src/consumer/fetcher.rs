//! [`Fetcher`]: Fetch requests to each assigned partition's leader (all
//! leaders at once, pipelined), records decoded from their batches
//! (compressed ones included), control batches skipped and, under
//! read_committed, aborted transactions dropped the way Kafka's consumer
//! drops them (the aborted-transaction list against each batch's producer).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use kafka_protocol::ApiKey;
use kafka_protocol::ErrorCode;
use kafka_protocol::generated::FetchRequest;
use kafka_protocol::generated::fetch_request::{FetchPartition, FetchTopic};
use kafka_protocol::generated::fetch_response::AbortedTransaction;
use kafka_protocol::records::{ControlRecordType, RecordBatch, RecordBatches, TimestampType};

use crate::admin::OffsetSpec;
use crate::client::Client;
use crate::conn::Conn;
use crate::consumer::read_replica::{ReadReplicas, ReplicaAnswer};
use crate::error::Error;

/// Where reading a partition starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartOffset {
    Earliest,
    Latest,
    Offset(i64),
    /// The first record at or after this timestamp (ms); the end if none.
    Timestamp(i64),
}

/// Which records a fetch may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IsolationLevel {
    #[default]
    ReadUncommitted,
    /// Only committed transactions, up to the last stable offset.
    ReadCommitted,
}

/// What to do when a position is out of range (`auto.offset.reset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OffsetReset {
    #[default]
    Earliest,
    Latest,
    /// Fail with OFFSET_OUT_OF_RANGE.
    None,
}

/// Fetch settings (Kafka's consumer names in the docs).
#[derive(Debug, Clone)]
pub struct FetcherConfig {
    pub isolation: IsolationLevel,
    /// `fetch.max.bytes`, per Fetch request.
    pub max_bytes: i32,
    /// `max.partition.fetch.bytes`.
    pub partition_max_bytes: i32,
    /// `fetch.max.wait.ms`: the broker's long-poll bound.
    pub max_wait_ms: i32,
    /// `auto.offset.reset`.
    pub auto_offset_reset: OffsetReset,
    /// Largest decompressed batch accepted (a bigger one is an error,
    /// not an allocation).
    pub max_decompressed_bytes: usize,
    /// `client.rack`: sent in every Fetch, so a leader with a replica
    /// selector can point this consumer at a replica in its rack
    /// (KIP-392). None: read from leaders only.
    pub rack: Option<String>,
    /// `metadata.max.age.ms`: how long a leader's preferred read replica
    /// is used before asking the leader again.
    pub preferred_replica_ttl_ms: u64,
}

impl Default for FetcherConfig {
    fn default() -> Self {
        FetcherConfig {
            isolation: IsolationLevel::ReadUncommitted,
            max_bytes: 50 * 1024 * 1024,
            partition_max_bytes: 1024 * 1024,
            max_wait_ms: 500,
            auto_offset_reset: OffsetReset::Earliest,
            max_decompressed_bytes: 256 * 1024 * 1024,
            rack: None,
            preferred_replica_ttl_ms: 300_000,
        }
    }
}

/// One record as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsumedRecord {
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
    pub timestamp: i64,
    pub timestamp_type: TimestampType,
    pub key: Option<Bytes>,
    pub value: Option<Bytes>,
    /// Header keys as text (lossy for bad UTF-8), values as bytes.
    pub headers: Vec<(String, Option<Bytes>)>,
    pub leader_epoch: i32,
}

#[derive(Debug, Clone)]
struct PartState {
    /// None until the start offset is resolved.
    position: Option<i64>,
    start: StartOffset,
    high_watermark: i64,
}

/// Reads assigned partitions from their leaders.
pub struct Fetcher {
    client: Client,
    cfg: FetcherConfig,
    parts: BTreeMap<(String, i32), PartState>,
    /// Connections of this fetcher's own, per leader: a long-polling Fetch
    /// would otherwise hold back (brokers answer in order) whatever else
    /// the shared client sends to that broker, a producer's Produce say.
    conns: HashMap<i32, Arc<Conn>>,
    /// Where each partition is read when not from its leader.
    replicas: ReadReplicas,
}

impl Fetcher {
    pub fn new(client: Client, cfg: FetcherConfig) -> Fetcher {
        let replicas = ReadReplicas::new(cfg.rack.clone(), cfg.preferred_replica_ttl_ms);
        Fetcher {
            client,
            cfg,
            parts: BTreeMap::new(),
            conns: HashMap::new(),
            replicas,
        }
    }

    /// Adds partitions (or moves existing ones) with their start offsets,
    /// resolved at once (ListOffsets for all but `Offset`).
    pub fn assign(&mut self, parts: Vec<(String, i32, StartOffset)>) -> Result<(), Error> {
        for (t, p, s) in parts {
            if let StartOffset::Offset(o) = s
                && o < 0
            {
                return Err(Error::Config(format!("{t}/{p}: negative start offset {o}")));
            }
            self.replicas.forget(&t, p);
            self.parts.insert(
                (t, p),
                PartState {
                    position: None,
                    start: s,
                    high_watermark: -1,
                },
            );
        }
        self.resolve_positions()
    }

    /// Replaces the whole assignment.
    pub fn assign_only(&mut self, parts: Vec<(String, i32, StartOffset)>) -> Result<(), Error> {
        self.parts.clear();
        self.assign(parts)
    }

    /// Stops reading these partitions.
    pub fn unassign(&mut self, parts: &[(String, i32)]) {
        for tp in parts {
            self.parts.remove(tp);
            self.replicas.forget(&tp.0, tp.1);
        }
    }

    /// The assigned partitions.
    pub fn assignment(&self) -> Vec<(String, i32)> {
        self.parts.keys().cloned().collect()
    }

    /// The next offset to read per partition (None: not resolved yet).
    pub fn positions(&self) -> Vec<((String, i32), Option<i64>)> {
        self.parts
            .iter()
            .map(|(k, v)| (k.clone(), v.position))
            .collect()
    }

    pub fn position(&self, topic: &str, partition: i32) -> Option<i64> {
        self.parts.get(&(topic.to_string(), partition))?.position
    }

    /// The high watermark of the last fetch of a partition (-1: none yet).
    pub fn high_watermark(&self, topic: &str, partition: i32) -> Option<i64> {
        Some(
            self.parts
                .get(&(topic.to_string(), partition))?
                .high_watermark,
        )
    }

    /// Moves a partition's position.
    pub fn seek(&mut self, topic: &str, partition: i32, to: StartOffset) -> Result<(), Error> {
        self.assign(vec![(topic.to_string(), partition, to)])
    }

    fn resolve_positions(&mut self) -> Result<(), Error> {
        let mut by_spec: HashMap<OffsetSpec, Vec<(String, i32)>> = HashMap::new();
        for ((t, p), st) in self.parts.iter_mut() {
            if st.position.is_some() {
                continue;
            }
            let spec = match st.start {
                StartOffset::Offset(o) => {
                    st.position = Some(o);
                    continue;
                }
                StartOffset::Earliest => OffsetSpec::Earliest,
                StartOffset::Latest => OffsetSpec::Latest,
                StartOffset::Timestamp(ts) => OffsetSpec::Timestamp(ts),
            };
            by_spec.entry(spec).or_default().push((t.clone(), *p));
        }
        let read_committed = self.cfg.isolation == IsolationLevel::ReadCommitted;
        for (spec, tps) in by_spec {
            let results = self.client.list_offsets(&tps, spec, read_committed)?;
            let mut need_end = Vec::new();
            for (tp, r) in results {
                let o = r?;
                if o.offset < 0 {
                    need_end.push(tp);
                } else if let Some(st) = self.parts.get_mut(&tp) {
                    st.position = Some(o.offset);
                }
            }
            if !need_end.is_empty() {
                // No record at or after the timestamp: start at the end.
                for (tp, r) in
                    self.client
                        .list_offsets(&need_end, OffsetSpec::Latest, read_committed)?
                {
                    let o = r?;
                    if let Some(st) = self.parts.get_mut(&tp) {
                        st.position = Some(o.offset);
                    }
                }
            }
        }
        Ok(())
    }

    /// Fetches until some records arrive or `timeout_ms` passes (then
    /// answers an empty list). Leader moves refresh metadata and go on;
    /// an out-of-range position is reset per `auto_offset_reset`.
    pub fn poll(&mut self, timeout_ms: u64) -> Result<Vec<ConsumedRecord>, Error> {
        let deadline = Instant::now() + Duration::from_millis(timeout_ms);
        loop {
            if self.parts.is_empty() {
                std::thread::sleep(Duration::from_millis(timeout_ms.min(100)));
                return Ok(Vec::new());
            }
            if let Err(e) = self.resolve_positions() {
                if !e.is_retriable() {
                    return Err(e);
                }
                tracing::debug!(error = %e, "resolving positions");
            }
            let left = deadline
                .saturating_duration_since(Instant::now())
                .as_millis() as i32;
            let out = self.fetch_once(left.min(self.cfg.max_wait_ms).max(0))?;
            if !out.is_empty() || Instant::now() >= deadline {
                return Ok(out);
            }
        }
    }

    fn fetch_once(&mut self, max_wait_ms: i32) -> Result<Vec<ConsumedRecord>, Error> {
        // Grouped by the broker asked: the leader, or the partition's
        // preferred read replica.
        let mut by_leader: BTreeMap<i32, Vec<(String, i32, i64)>> = BTreeMap::new();
        let mut leaders: HashMap<(String, i32), i32> = HashMap::new();
        let mut no_leader = false;
        for ((t, p), st) in &self.parts {
            let Some(pos) = st.position else { continue };
            match self.client.leader_for(t, *p) {
                Ok(l) => {
                    // Only a racked consumer reads from anyone but the
                    // leader; otherwise the broker asked is the leader.
                    if !self.replicas.rack_id().is_empty() {
                        leaders.insert((t.clone(), *p), l);
                    }
                    let node = self.replicas.route(t, *p, l);
                    by_leader
                        .entry(node)
                        .or_default()
                        .push((t.clone(), *p, pos));
                }
                Err(e) if e.is_retriable() => no_leader = true,
                Err(e) => return Err(e),
            }
        }
        if by_leader.is_empty() {
            std::thread::sleep(Duration::from_millis(if no_leader {
                self.client.config().retry_backoff_ms
            } else {
                max_wait_ms.max(1) as u64
            }));
            return Ok(Vec::new());
        }
        let timeout_ms = self.client.config().request_timeout_ms + max_wait_ms as u64;
        let mut pending = Vec::new();
        for (leader, parts) in by_leader {
            let conn = match self.conns.get(&leader) {
                Some(c) if !c.is_dead() => Ok(c.clone()),
                _ => self.client.connect_node(leader).inspect(|c| {
                    self.conns.insert(leader, c.clone());
                }),
            };
            let sent = conn.and_then(|conn| {
                let v = conn.version_for(ApiKey::Fetch)?;
                let mut topics: BTreeMap<&str, Vec<FetchPartition>> = BTreeMap::new();
                for (t, p, pos) in &parts {
                    topics.entry(t).or_default().push(FetchPartition {
                        partition: *p,
                        fetch_offset: *pos,
                        log_start_offset: -1,
                        partition_max_bytes: self.cfg.partition_max_bytes,
                        ..Default::default()
                    });
                }
                let req = FetchRequest {
                    replica_id: -1,
                    max_wait_ms,
                    min_bytes: 1,
                    max_bytes: self.cfg.max_bytes,
                    isolation_level: i8::from(self.cfg.isolation == IsolationLevel::ReadCommitted),
                    session_id: 0,
                    session_epoch: -1,
                    topics: topics
                        .into_iter()
                        .map(|(t, ps)| FetchTopic {
                            topic: t.to_string(),
                            partitions: ps,
                            ..Default::default()
                        })
                        .collect(),
                    rack_id: self.replicas.rack_id().to_string(),
                    ..Default::default()
                };
                conn.send(&req, v)
            });
            pending.push((leader, sent));
        }
        let mut out = Vec::new();
        for (leader, sent) in pending {
            let resp = match sent.and_then(|p| p.wait(timeout_ms)) {
                Ok(r) => r,
                Err(e) if e.is_retriable() => {
                    tracing::debug!(leader, error = %e, "fetch failed; retrying");
                    self.conns.remove(&leader);
                    self.replicas.forget_node(leader);
                    continue;
                }
                Err(e) => return Err(e),
            };
            Error::check(resp.error_code, None, format!("Fetch from broker {leader}"))?;
            for t in resp.responses {
                for p in t.partitions {
                    let key = (t.topic.clone(), p.partition_index);
                    let Some(st) = self.parts.get_mut(&key) else {
                        continue;
                    };
                    let code =
                        ErrorCode::from_code(p.error_code).unwrap_or(ErrorCode::UnknownServerError);
                    let part_leader = leaders.get(&key).copied().unwrap_or(leader);
                    if self.replicas.on_answer(
                        &t.topic,
                        p.partition_index,
                        leader,
                        part_leader,
                        p.preferred_read_replica,
                        code,
                    ) == ReplicaAnswer::BackToLeader
                    {
                        tracing::debug!(
                            replica = leader,
                            topic = %t.topic,
                            partition = p.partition_index,
                            error = %code.name(),
                            "read replica failed; back to the leader"
                        );
                        if code.is_retriable() {
                            self.client.invalidate_topic(&t.topic);
                        }
                        continue;
                    }
                    match code {
                        ErrorCode::None => {}
                        ErrorCode::OffsetOutOfRange => {
                            match self.cfg.auto_offset_reset {
                                OffsetReset::Earliest => st.start = StartOffset::Earliest,
                                OffsetReset::Latest => st.start = StartOffset::Latest,
                                OffsetReset::None => {
                                    return Err(Error::Kafka {
                                        code,
                                        message: None,
                                        context: format!(
                                            "{}/{} at offset {:?}",
                                            t.topic, p.partition_index, st.position
                                        ),
                                    });
                                }
                            }
                            st.position = None;
                            continue;
                        }
                        c if c.is_retriable() => {
                            self.client.invalidate_topic(&t.topic);
                            continue;
                        }
                        c => {
                            return Err(Error::Kafka {
                                code: c,
                                message: None,
                                context: format!("fetching {}/{}", t.topic, p.partition_index),
                            });
                        }
                    }
                    st.high_watermark = p.high_watermark;
                    let Some(records) = p.records else { continue };
                    let Some(pos) = st.position else { continue };
                    let aborted = if self.cfg.isolation == IsolationLevel::ReadCommitted {
                        p.aborted_transactions.unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    let next = decode_into(
                        &t.topic,
                        p.partition_index,
                        records,
                        pos,
                        aborted,
                        self.cfg.max_decompressed_bytes,
                        &mut out,
                    )?;
                    st.position = Some(next);
                }
            }
        }
        Ok(out)
    }
}

/// Decodes a partition's fetched bytes from `position` on; answers the
/// next position.
pub(crate) fn decode_into(
    topic: &str,
    partition: i32,
    records: Bytes,
    mut position: i64,
    mut aborted: Vec<AbortedTransaction>,
    max_decompressed: usize,
    out: &mut Vec<ConsumedRecord>,
) -> Result<i64, Error> {
    aborted.sort_by_key(|a| a.first_offset);
    let mut aborted = aborted.into_iter().peekable();
    let mut aborted_producers: BTreeSet<i64> = BTreeSet::new();
    for batch in RecordBatches::new(records) {
        let batch: RecordBatch = match batch {
            Ok(b) => b,
            // A fetch may end with a partial batch: read it next time.
            Err(e) if e.is_partial_batch() => break,
            Err(e) => {
                return Err(Error::Protocol(format!(
                    "{topic}/{partition} at offset {position}: {e}"
                )));
            }
        };
        if batch.last_offset() < position {
            continue;
        }
        batch.verify_crc().map_err(|e| {
            Error::Protocol(format!(
                "{topic}/{partition} batch at {}: {e}",
                batch.base_offset()
            ))
        })?;
        if batch.has_producer_id() {
            while let Some(a) = aborted.next_if(|a| a.first_offset <= batch.last_offset()) {
                aborted_producers.insert(a.producer_id);
            }
        }
        if batch.is_control() {
            if let Ok(mut it) = batch.records()
                && let Some(Ok(r)) = it.next()
                && let Some(k) = r.key()
                && ControlRecordType::parse_key(k).ok() == Some(ControlRecordType::Abort)
            {
                aborted_producers.remove(&batch.producer_id());
            }
            position = position.max(batch.next_offset());
            continue;
        }
        if batch.is_transactional() && aborted_producers.contains(&batch.producer_id()) {
            position = position.max(batch.next_offset());
            continue;
        }
        let epoch = batch.partition_leader_epoch();
        let ts_type = batch.timestamp_type();
        let iter = batch.decompressed_records(max_decompressed).map_err(|e| {
            Error::Protocol(format!(
                "{topic}/{partition} batch at {}: {e}",
                batch.base_offset()
            ))
        })?;
        for r in iter {
            let r = r.map_err(|e| {
                Error::Protocol(format!(
                    "{topic}/{partition} batch at {}: {e}",
                    batch.base_offset()
                ))
            })?;
            if r.offset() < position {
                continue;
            }
            out.push(ConsumedRecord {
                topic: topic.to_string(),
                partition,
                offset: r.offset(),
                timestamp: r.timestamp(),
                timestamp_type: ts_type,
                key: r.key().cloned(),
                value: r.value().cloned(),
                headers: r
                    .headers()
                    .iter()
                    .map(|h| (String::from_utf8_lossy(&h.key).into_owned(), h.value))
                    .collect(),
                leader_epoch: epoch,
            });
        }
        position = position.max(batch.next_offset());
    }
    Ok(position)
}
