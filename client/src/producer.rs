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

/// Takes the new leaders a Produce response names for partitions it
/// refused (NOT_LEADER_OR_FOLLOWER with `current_leader`, and the leaders'
/// addresses in `node_endpoints`), sparing a metadata round trip.
/// Answers the partitions updated.
fn apply_leader_hints(client: &Client, resp: &ProduceResponse) -> Vec<(String, i32)> {
    for n in &resp.node_endpoints {
        client.add_broker(crate::client::BrokerInfo {
            node_id: n.node_id,
            host: n.host.clone(),
            port: n.port,
            rack: n.rack.clone(),
        });
    }
    let mut out = Vec::new();
    for t in &resp.responses {
        for p in &t.partition_responses {
            if p.error_code == ErrorCode::NotLeaderOrFollower.code()
                && p.current_leader.leader_id >= 0
                && client.apply_leader_hint(
                    &t.name,
                    p.index,
                    p.current_leader.leader_id,
                    p.current_leader.leader_epoch,
                )
            {
                out.push((t.name.clone(), p.index));
            }
        }
    }
    out
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
            let r = match self.leader_conn(topic, partition) {
                // Looked up twice already: the partition does not exist.
                Err(e) if e.kafka_code() == Some(ErrorCode::UnknownTopicOrPartition) => {
                    return Err(e);
                }
                Err(e) => Err(e),
                Ok((_, conn)) => produce_on(
                    &conn,
                    topic,
                    partition,
                    batch.clone(),
                    acks,
                    self.config().request_timeout_ms,
                )
                .and_then(ProducePending::wait),
            };
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

// ---------------------------------------------------------------------
// Producer: records in, batches out.
// ---------------------------------------------------------------------

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::InitProducerIdRequest;
use kafka_protocol::records::{Compression, Header, NewRecord, RecordBatchBuilder};

use crate::client::Route;
use crate::partitioner;

/// Producer settings (Kafka's names in the docs of each).
#[derive(Debug, Clone)]
pub struct ProducerConfig {
    /// `acks`: -1 (all in-sync replicas), 1 (leader), 0 (no answer).
    pub acks: i16,
    /// `compression.type`.
    pub compression: Compression,
    /// `linger.ms`: how long a batch waits for more records.
    pub linger_ms: u64,
    /// `batch.size`: a batch is sent once it holds this many bytes.
    pub batch_max_bytes: usize,
    /// `enable.idempotence`: producer id and sequences, so retries never
    /// duplicate or reorder. Needs acks = -1.
    pub idempotent: bool,
    /// `delivery.timeout.ms`: a record fails if not acknowledged by then.
    pub delivery_timeout_ms: u64,
    /// `buffer.memory`: `send` blocks while this many bytes wait.
    pub buffer_max_bytes: usize,
    /// Where records without an explicit partition go.
    pub partitioner: Partitioner,
}

/// Partitioners (librdkafka's names). Keyed records always go to
/// `toPositive(murmur2(key)) % partitions`, as Java's default does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Partitioner {
    /// `murmur2_random` (Java's default): unkeyed records stick to one
    /// partition per batch, then move on.
    #[default]
    Murmur2Random,
    /// `murmur2`: unkeyed records hash like an empty key (all to one
    /// partition).
    Murmur2,
    /// Unkeyed records round-robin record by record.
    RoundRobin,
}

impl std::str::FromStr for Partitioner {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        match s.to_ascii_lowercase().as_str() {
            "murmur2_random" | "default" | "sticky" => Ok(Partitioner::Murmur2Random),
            "murmur2" => Ok(Partitioner::Murmur2),
            "round_robin" | "roundrobin" => Ok(Partitioner::RoundRobin),
            _ => Err(Error::Config(format!(
                "unknown partitioner {s:?} (murmur2_random, murmur2, round_robin)"
            ))),
        }
    }
}

impl Default for ProducerConfig {
    fn default() -> Self {
        ProducerConfig {
            acks: -1,
            compression: Compression::None,
            linger_ms: 5,
            batch_max_bytes: 64 * 1024,
            idempotent: true,
            delivery_timeout_ms: 120_000,
            buffer_max_bytes: 32 * 1024 * 1024,
            partitioner: Partitioner::default(),
        }
    }
}

/// A record to send. `partition` None: murmur2 of the key, or a sticky
/// partition for unkeyed records. `timestamp` None: now.
#[derive(Debug, Clone, Default)]
pub struct ProducerRecord {
    pub topic: String,
    pub partition: Option<i32>,
    pub key: Option<Bytes>,
    pub value: Option<Bytes>,
    pub headers: Vec<(String, Option<Bytes>)>,
    pub timestamp: Option<i64>,
}

impl ProducerRecord {
    pub fn new(topic: impl Into<String>, value: impl Into<Bytes>) -> Self {
        ProducerRecord {
            topic: topic.into(),
            value: Some(value.into()),
            ..Default::default()
        }
    }

    pub fn key(mut self, key: impl Into<Bytes>) -> Self {
        self.key = Some(key.into());
        self
    }

    pub fn partition(mut self, p: i32) -> Self {
        self.partition = Some(p);
        self
    }

    pub fn header(mut self, k: impl Into<String>, v: Option<Bytes>) -> Self {
        self.headers.push((k.into(), v));
        self
    }

    pub fn timestamp(mut self, ts: i64) -> Self {
        self.timestamp = Some(ts);
        self
    }
}

/// Where a batch's outcome lands; every record of the batch shares one.
#[derive(Default)]
struct BatchSlot {
    result: Mutex<Option<Result<i64, Error>>>,
    cv: Condvar,
}

impl BatchSlot {
    fn complete(&self, r: Result<i64, Error>) {
        if let Ok(mut g) = self.result.lock() {
            *g = Some(r);
        }
        self.cv.notify_all();
    }
}

/// The outcome of one sent record.
pub struct DeliveryHandle {
    slot: Arc<BatchSlot>,
    partition: i32,
    index: i32,
    timeout_ms: u64,
}

impl DeliveryHandle {
    /// The record's partition (known at send time).
    pub fn partition(&self) -> i32 {
        self.partition
    }

    /// Waits (at most the delivery timeout, plus a margin) for the
    /// record's (partition, offset); the offset is -1 with acks=0.
    pub fn wait(&self) -> Result<(i32, i64), Error> {
        let deadline = Instant::now() + Duration::from_millis(self.timeout_ms + 5_000);
        let mut g = self
            .slot
            .result
            .lock()
            .map_err(|_| Error::Protocol("producer state poisoned".into()))?;
        loop {
            if let Some(r) = &*g {
                return match r {
                    Ok(base) if *base < 0 => Ok((self.partition, -1)),
                    Ok(base) => Ok((self.partition, base + i64::from(self.index))),
                    Err(e) => Err(e.duplicate()),
                };
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Error::Timeout {
                    what: "record delivery".into(),
                    after_ms: self.timeout_ms,
                });
            }
            g = self
                .slot
                .cv
                .wait_timeout(g, left)
                .map_err(|_| Error::Protocol("producer state poisoned".into()))?
                .0;
        }
    }

    /// Whether the outcome is known.
    pub fn is_done(&self) -> bool {
        self.slot.result.lock().map(|g| g.is_some()).unwrap_or(true)
    }
}

struct OpenBatch {
    records: Vec<NewRecord>,
    bytes: usize,
    created: Instant,
    slot: Arc<BatchSlot>,
}

impl OpenBatch {
    fn seal(self) -> SealedBatch {
        SealedBatch {
            records: self.records,
            bytes: self.bytes,
            encoded: None,
            slot: self.slot,
            created: self.created,
            attempts: 0,
        }
    }
}

/// A closed batch: encoded once (so a retry resends the same bytes and
/// sequence), or not yet encoded.
struct SealedBatch {
    records: Vec<NewRecord>,
    bytes: usize,
    encoded: Option<Bytes>,
    slot: Arc<BatchSlot>,
    created: Instant,
    attempts: u32,
}

#[derive(Default)]
struct PartitionQueue {
    open: Option<OpenBatch>,
    sealed: VecDeque<SealedBatch>,
}

#[derive(Default)]
struct State {
    queues: BTreeMap<(String, i32), PartitionQueue>,
    /// Unkeyed records' current partition per topic.
    sticky: HashMap<String, i32>,
    next_sticky: u32,
    buffered_bytes: usize,
    /// Batches handed to the sender and not completed.
    in_flight: usize,
    flushing: usize,
    closed: bool,
    /// Idempotence: producer id, epoch, next sequence per partition.
    producer_id: i64,
    producer_epoch: i16,
    sequences: HashMap<(String, i32), i32>,
}

struct Shared {
    client: Client,
    cfg: ProducerConfig,
    state: Mutex<State>,
    /// Wakes the sender (new data, flush, close).
    wake: Condvar,
    /// Wakes `flush` and blocked `send`s (progress made).
    progress: Condvar,
}

/// A batching producer; `send` queues, a background thread sends.
pub struct Producer {
    shared: Arc<Shared>,
    sender: Option<JoinHandle<()>>,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Rough encoded size of a record (varint overheads counted generously).
fn record_size(r: &NewRecord) -> usize {
    21 + r.key.as_ref().map_or(0, |k| k.len())
        + r.value.as_ref().map_or(0, |v| v.len())
        + r.headers
            .iter()
            .map(|h| 10 + h.key.len() + h.value.as_ref().map_or(0, |v| v.len()))
            .sum::<usize>()
}

impl Producer {
    /// Starts a producer (and, if idempotent, gets a producer id).
    pub fn new(client: Client, cfg: ProducerConfig) -> Result<Producer, Error> {
        if ![-1, 0, 1].contains(&cfg.acks) {
            return Err(Error::Config(format!(
                "acks must be -1, 0 or 1, not {}",
                cfg.acks
            )));
        }
        if cfg.idempotent && cfg.acks != -1 {
            return Err(Error::Config(
                "an idempotent producer needs acks=-1 (all)".into(),
            ));
        }
        let shared = Arc::new(Shared {
            client,
            cfg,
            state: Mutex::new(State {
                producer_id: -1,
                producer_epoch: -1,
                ..Default::default()
            }),
            wake: Condvar::new(),
            progress: Condvar::new(),
        });
        if shared.cfg.idempotent {
            init_producer_id(&shared)?;
        }
        let s = shared.clone();
        let sender = std::thread::Builder::new()
            .name("tmk-producer".into())
            .spawn(move || sender_loop(&s))
            .map_err(|e| Error::Io {
                broker: "producer thread".into(),
                source: e,
            })?;
        Ok(Producer {
            shared,
            sender: Some(sender),
        })
    }

    /// The producer id and epoch (-1 when not idempotent).
    pub fn producer_id(&self) -> (i64, i16) {
        self.shared
            .state
            .lock()
            .map(|s| (s.producer_id, s.producer_epoch))
            .unwrap_or((-1, -1))
    }

    /// Queues a record; the handle reports its partition and offset. Blocks
    /// while the buffer is full (at most the delivery timeout).
    pub fn send(&self, rec: ProducerRecord) -> Result<DeliveryHandle, Error> {
        let topic = self.shared.client.topic(&rec.topic)?;
        let n = topic.partitions.len() as i32;
        if n == 0 {
            return Err(Error::Kafka {
                code: ErrorCode::UnknownTopicOrPartition,
                message: None,
                context: format!("topic {} has no partitions", rec.topic),
            });
        }
        let record = NewRecord {
            key: rec.key,
            value: rec.value,
            headers: rec
                .headers
                .into_iter()
                .map(|(k, v)| Header {
                    key: Bytes::from(k.into_bytes()),
                    value: v,
                })
                .collect(),
            timestamp: rec.timestamp.unwrap_or_else(now_ms),
        };
        let size = record_size(&record);
        let cfg = &self.shared.cfg;
        let deadline = Instant::now() + Duration::from_millis(cfg.delivery_timeout_ms);
        let mut st = self
            .shared
            .state
            .lock()
            .map_err(|_| Error::Protocol("producer state poisoned".into()))?;
        while st.buffered_bytes > 0 && st.buffered_bytes + size > cfg.buffer_max_bytes {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Error::Timeout {
                    what: "room in the producer buffer".into(),
                    after_ms: cfg.delivery_timeout_ms,
                });
            }
            st = self
                .shared
                .progress
                .wait_timeout(st, left)
                .map_err(|_| Error::Protocol("producer state poisoned".into()))?
                .0;
        }
        if st.closed {
            return Err(Error::Config("producer closed".into()));
        }
        let partition = match (rec.partition, &record.key) {
            (Some(p), _) => {
                if p < 0 || p >= n {
                    return Err(Error::Kafka {
                        code: ErrorCode::UnknownTopicOrPartition,
                        message: None,
                        context: format!("{}/{p}: the topic has {n} partitions", rec.topic),
                    });
                }
                p
            }
            (None, Some(k)) => partitioner::partition_for_key(k, n),
            (None, None) if cfg.partitioner == Partitioner::Murmur2 => {
                partitioner::partition_for_key(&[], n)
            }
            (None, None) if cfg.partitioner == Partitioner::RoundRobin => {
                st.next_sticky = st.next_sticky.wrapping_add(1);
                (st.next_sticky % n as u32) as i32
            }
            (None, None) => match st.sticky.get(&rec.topic) {
                Some(p) if *p < n => *p,
                _ => {
                    st.next_sticky = st.next_sticky.wrapping_add(1);
                    let p = (st.next_sticky % n as u32) as i32;
                    st.sticky.insert(rec.topic.clone(), p);
                    p
                }
            },
        };
        let key = (rec.topic, partition);
        let st_ref = &mut *st;
        // Look up before inserting: `entry` would need the key (a String)
        // cloned for every record.
        if !st_ref.queues.contains_key(&key) {
            st_ref.queues.insert(key.clone(), PartitionQueue::default());
        }
        let Some(q) = st_ref.queues.get_mut(&key) else {
            return Err(Error::Protocol("producer queue vanished".into()));
        };
        let full = q
            .open
            .as_ref()
            .is_some_and(|o| o.bytes + size > cfg.batch_max_bytes && !o.records.is_empty());
        if full && let Some(open) = q.open.take() {
            q.sealed.push_back(open.seal());
            // A full batch moves unkeyed records on (sticky partitioner).
            if st_ref.sticky.get(&key.0) == Some(&partition) {
                st_ref.sticky.remove(&key.0);
            }
        }
        let Some(q) = st_ref.queues.get_mut(&key) else {
            return Err(Error::Protocol("producer queue vanished".into()));
        };
        let open = q.open.get_or_insert_with(|| OpenBatch {
            records: Vec::new(),
            bytes: 0,
            created: Instant::now(),
            slot: Arc::new(BatchSlot::default()),
        });
        let index = open.records.len() as i32;
        open.records.push(record);
        open.bytes += size;
        let handle = DeliveryHandle {
            slot: open.slot.clone(),
            partition,
            index,
            timeout_ms: cfg.delivery_timeout_ms,
        };
        let full = open.bytes >= cfg.batch_max_bytes;
        st_ref.buffered_bytes += size;
        drop(st);
        if full || cfg.linger_ms == 0 {
            self.shared.wake.notify_all();
        }
        Ok(handle)
    }

    /// Sends everything queued and waits until each record has its
    /// outcome (at most the delivery timeout).
    pub fn flush(&self) -> Result<(), Error> {
        let cfg = &self.shared.cfg;
        let deadline = Instant::now() + Duration::from_millis(cfg.delivery_timeout_ms + 5_000);
        let mut st = self
            .shared
            .state
            .lock()
            .map_err(|_| Error::Protocol("producer state poisoned".into()))?;
        st.flushing += 1;
        self.shared.wake.notify_all();
        let result = loop {
            let empty = st.in_flight == 0
                && st
                    .queues
                    .values()
                    .all(|q| q.open.is_none() && q.sealed.is_empty());
            if empty {
                break Ok(());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break Err(Error::Timeout {
                    what: "producer flush".into(),
                    after_ms: cfg.delivery_timeout_ms,
                });
            }
            st = match self
                .shared
                .progress
                .wait_timeout(st, left.min(Duration::from_millis(100)))
            {
                Ok(g) => g.0,
                Err(_) => return Err(Error::Protocol("producer state poisoned".into())),
            };
        };
        st.flushing -= 1;
        result
    }

    /// Flushes, then stops the sender thread.
    pub fn close(mut self) -> Result<(), Error> {
        let r = self.flush();
        self.stop();
        r
    }

    fn stop(&mut self) {
        if let Ok(mut st) = self.shared.state.lock() {
            st.closed = true;
        }
        self.shared.wake.notify_all();
        if let Some(h) = self.sender.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Producer {
    fn drop(&mut self) {
        if self.sender.is_some() {
            let _ = self.flush();
            self.stop();
        }
    }
}

fn init_producer_id(shared: &Shared) -> Result<(), Error> {
    let resp = shared.client.send(
        Route::Any,
        InitProducerIdRequest {
            transactional_id: None,
            transaction_timeout_ms: i32::MAX,
            producer_id: -1,
            producer_epoch: -1,
            ..Default::default()
        },
    )?;
    Error::check(resp.error_code, None, "InitProducerId")?;
    let mut st = shared
        .state
        .lock()
        .map_err(|_| Error::Protocol("producer state poisoned".into()))?;
    st.producer_id = resp.producer_id;
    st.producer_epoch = resp.producer_epoch;
    st.sequences.clear();
    Ok(())
}

/// One round's batch for one partition.
struct Outgoing {
    topic: String,
    partition: i32,
    batch: SealedBatch,
}

fn sender_loop(shared: &Shared) {
    let cfg = &shared.cfg;
    let linger = Duration::from_millis(cfg.linger_ms);
    loop {
        let mut round = Vec::new();
        {
            let Ok(mut st) = shared.state.lock() else {
                return;
            };
            loop {
                let now = Instant::now();
                let force = st.flushing > 0 || st.closed;
                let mut soonest: Option<Duration> = None;
                let st_ref = &mut *st;
                for ((topic, partition), q) in st_ref.queues.iter_mut() {
                    if q.sealed.is_empty()
                        && let Some(open) = &q.open
                    {
                        let age = now.duration_since(open.created);
                        if force || age >= linger || open.bytes >= cfg.batch_max_bytes {
                            if let Some(open) = q.open.take() {
                                q.sealed.push_back(open.seal());
                            }
                            if st_ref.sticky.get(topic) == Some(partition) {
                                st_ref.sticky.remove(topic);
                            }
                        } else {
                            let left = linger - age;
                            soonest = Some(soonest.map_or(left, |s: Duration| s.min(left)));
                        }
                    }
                    if let Some(b) = q.sealed.pop_front() {
                        round.push(Outgoing {
                            topic: topic.clone(),
                            partition: *partition,
                            batch: b,
                        });
                    }
                }
                st_ref
                    .queues
                    .retain(|_, q| q.open.is_some() || !q.sealed.is_empty());
                if !round.is_empty() {
                    st.in_flight += round.len();
                    break;
                }
                if st.closed {
                    return;
                }
                let wait = soonest
                    .unwrap_or(Duration::from_millis(100))
                    .max(Duration::from_millis(1));
                st = match shared.wake.wait_timeout(st, wait) {
                    Ok(g) => g.0,
                    Err(_) => return,
                };
            }
        }
        send_round(shared, round);
        shared.progress.notify_all();
    }
}

/// Encodes (first time only), sends one Produce per leader, waits for all,
/// and completes, requeues or fails each batch.
fn send_round(shared: &Shared, round: Vec<Outgoing>) {
    let cfg = &shared.cfg;
    let client = &shared.client;
    let round_len = round.len();
    // Partitions whose new leader the broker named (KIP-951).
    let mut hinted: Vec<(String, i32)> = Vec::new();
    let mut done: Vec<(Outgoing, Result<i64, Error>)> = Vec::new();
    let mut by_node: BTreeMap<i32, Vec<Outgoing>> = BTreeMap::new();
    for mut o in round {
        if o.batch.encoded.is_none() {
            match encode(shared, &o.topic, o.partition, &o.batch.records) {
                Ok(b) => o.batch.encoded = Some(b),
                Err(e) => {
                    done.push((o, Err(e)));
                    continue;
                }
            }
        }
        match client.leader_for(&o.topic, o.partition) {
            Ok(n) => by_node.entry(n).or_default().push(o),
            Err(e) => done.push((o, Err(e))),
        }
    }
    let mut waiting = Vec::new();
    for (node, batch) in by_node {
        let sent = client.node_conn(node).and_then(|conn| {
            let v = conn.version_for(ApiKey::Produce)?;
            let mut topics: BTreeMap<&str, Vec<PartitionProduceData>> = BTreeMap::new();
            for o in &batch {
                topics
                    .entry(&o.topic)
                    .or_default()
                    .push(PartitionProduceData {
                        index: o.partition,
                        records: o.batch.encoded.clone(),
                        ..Default::default()
                    });
            }
            let req = ProduceRequest {
                transactional_id: None,
                acks: cfg.acks,
                timeout_ms: client.config().request_timeout_ms.min(i32::MAX as u64) as i32,
                topic_data: topics
                    .into_iter()
                    .map(|(t, parts)| TopicProduceData {
                        name: t.to_string(),
                        partition_data: parts,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            };
            if cfg.acks == 0 {
                conn.send_no_response(&req, v)?;
                Ok(None)
            } else {
                Ok(Some(conn.send(&req, v)?))
            }
        });
        waiting.push((batch, sent));
    }
    for (batch, sent) in waiting {
        match sent.and_then(|p| {
            p.map(|p| p.wait(client.config().request_timeout_ms))
                .transpose()
        }) {
            Ok(None) => done.extend(batch.into_iter().map(|o| (o, Ok(-1)))),
            Ok(Some(resp)) => {
                hinted.extend(apply_leader_hints(client, &resp));
                for o in batch {
                    let r = partition_result(&resp, &o.topic, o.partition);
                    done.push((o, r));
                }
            }
            Err(e) => {
                for o in batch {
                    done.push((o, Err(e.duplicate())));
                }
            }
        }
    }
    let mut requeue = Vec::new();
    let mut fatal_idempotent = false;
    for (mut o, r) in done {
        let r = match r {
            Err(e) if e.kafka_code() == Some(ErrorCode::DuplicateSequenceNumber) => Ok(-1),
            r => r,
        };
        match r {
            Ok(base) => o.batch.slot.complete(Ok(base)),
            Err(e)
                if e.is_retriable()
                    && o.batch.attempts < client.config().retries
                    && o.batch.created.elapsed()
                        < Duration::from_millis(cfg.delivery_timeout_ms) =>
            {
                tracing::debug!(topic = o.topic, partition = o.partition, error = %e, "produce retry");
                o.batch.attempts += 1;
                if !hinted.contains(&(o.topic.clone(), o.partition)) {
                    client.invalidate_topic(&o.topic);
                }
                requeue.push(o);
            }
            Err(e) => {
                if cfg.idempotent {
                    fatal_idempotent = true;
                }
                o.batch.slot.complete(Err(e));
            }
        }
    }
    if fatal_idempotent {
        // Sequences are broken for good after a failed batch: start over
        // with a new producer id, as Kafka's producer resets its state.
        if let Err(e) = init_producer_id(shared) {
            tracing::warn!(error = %e, "could not get a new producer id");
        }
        for o in &mut requeue {
            o.batch.encoded = None;
        }
    }
    let retried = !requeue.is_empty();
    if let Ok(mut st) = shared.state.lock() {
        st.in_flight = st.in_flight.saturating_sub(round_len);
        for o in requeue {
            st.queues
                .entry((o.topic, o.partition))
                .or_default()
                .sealed
                .push_front(o.batch);
        }
        st.buffered_bytes = st
            .queues
            .values()
            .map(|q| {
                q.open.as_ref().map_or(0, |b| b.bytes)
                    + q.sealed.iter().map(|b| b.bytes).sum::<usize>()
            })
            .sum();
    }
    if retried {
        std::thread::sleep(Duration::from_millis(client.config().retry_backoff_ms));
    }
}

/// Builds a batch; idempotent ones take the partition's next sequence.
fn encode(
    shared: &Shared,
    topic: &str,
    partition: i32,
    records: &[NewRecord],
) -> Result<Bytes, Error> {
    let mut b = RecordBatchBuilder::new().compression(shared.cfg.compression);
    if shared.cfg.idempotent {
        let mut st = shared
            .state
            .lock()
            .map_err(|_| Error::Protocol("producer state poisoned".into()))?;
        let (pid, epoch) = (st.producer_id, st.producer_epoch);
        let seq = st
            .sequences
            .entry((topic.to_string(), partition))
            .or_insert(0);
        let base = *seq;
        *seq = seq.wrapping_add(records.len() as i32) & i32::MAX;
        b = b.producer(pid, epoch, base);
    }
    Ok(b.records(records.iter().cloned()).build()?)
}
