//! `tmk bench`: load generation, built so the broker, not `tmk`, is what
//! a run measures.
//!
//! `produce` builds its record batches once, before the clock starts
//! ([`BATCH_VARIANTS`] per partition, so keys vary across sends). In the
//! timed loop a batch is never re-encoded: its bytes are reused and only
//! the fields that must change are stamped in place (base and max
//! timestamp, and producer id, epoch and sequence when idempotent), with
//! the CRC combined from the header's and the records' precomputed CRC, so
//! the per-send work does not grow with the number of records. Each
//! connection (its own socket and thread) keeps `--inflight` Produce
//! requests pipelined, each carrying a batch for several partitions, as
//! librdkafka does; the buffers come back from the connection once the
//! answer arrived and are stamped again, so steady state allocates nothing
//! per record and copies no batch.
//!
//! Ack latency (send to answer) goes into an HDR histogram, weighted by the
//! records of the request; `e2e` adds a consumer fetching the topic while
//! producing, whose latency is consume time minus the record's timestamp
//! (the send time, in ms: the figure carries up to 1 ms of truncation).
//! A progress line goes to stderr every second; the summary is text or
//! JSON. Ctrl-C during the timed part stops sending, waits for the
//! requests in flight, prints the summary of what was measured (marked
//! interrupted) and exits with 130; a second Ctrl-C quits at once
//! (`crate::interrupt`).

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use hdrhistogram::Histogram;
use serde::Serialize;
use tidemark_client::conn::{Conn, PendingResponse};
use tidemark_client::consumer::{Fetcher, FetcherConfig, StartOffset};
use tidemark_client::kafka_protocol::Request;
use tidemark_client::kafka_protocol::generated::produce_request::{
    PartitionProduceData, TopicProduceData,
};
use tidemark_client::kafka_protocol::generated::{
    InitProducerIdRequest, ProduceRequest, ProduceResponse,
};
use tidemark_client::kafka_protocol::records::{Compression, NewRecord, RecordBatchBuilder};
use tidemark_client::partitioner::partition_for_key;
use tidemark_client::{Error, Route};

use super::produce::compression;
use super::{client_config, connect, kerr};
use crate::cli::{BenchConsume, BenchProduce, ConnFlags, OutFormat};
use crate::errors::{Result, TmkError};
use crate::output::write_stdout;

/// Distinct pre-built batches per partition, so keys vary across sends.
const BATCH_VARIANTS: usize = 4;

/// Magic v2 batch header offsets (Kafka's `DefaultRecordBatch`).
const CRC: usize = 17;
const ATTRIBUTES: usize = 21;
const BASE_TIMESTAMP: usize = 27;
const MAX_TIMESTAMP: usize = 35;
const PRODUCER_ID: usize = 43;
const PRODUCER_EPOCH: usize = 51;
const BASE_SEQUENCE: usize = 53;
const RECORDS_COUNT: usize = 57;
const HEADER_END: usize = 61;

/// The batch size `--batch-records 0` aims at.
const AUTO_BATCH_BYTES: usize = 1_000_000;

/// Idempotent producers may have at most this many batches of one
/// partition unanswered (Kafka's max.in.flight for idempotence).
const IDEMPOTENT_MAX_INFLIGHT: usize = 5;

/// Histogram bounds: 1 us to 60 s, 3 significant digits.
fn new_hist() -> std::result::Result<Histogram<u64>, String> {
    Histogram::<u64>::new_with_bounds(1, 60_000_000, 3).map_err(|e| e.to_string())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keys {
    None,
    Uniform(u64),
    Hot,
}

fn parse_keys(s: &str) -> Result<Keys> {
    match s {
        "none" => Ok(Keys::None),
        "hot" => Ok(Keys::Hot),
        _ => s
            .strip_prefix("uniform:")
            .and_then(|n| n.parse::<u64>().ok())
            .filter(|n| *n > 0)
            .map(Keys::Uniform)
            .ok_or_else(|| {
                TmkError::msg(format!("invalid --keys {s:?}"))
                    .with_hint("use none, uniform:N or hot")
            }),
    }
}

/// A small deterministic generator (xorshift) for keys and payload bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn now_us() -> i64 {
    chrono::Utc::now().timestamp_micros()
}

/// A pre-built batch with the CRC of everything after the header, which
/// never changes, so a send re-hashes only the 40 header bytes.
struct Template {
    bytes: Bytes,
    records: u32,
    tail_crc: u32,
}

impl Template {
    fn new(bytes: Bytes) -> Result<Template> {
        if bytes.len() < HEADER_END {
            return Err(TmkError::msg("built a batch shorter than its header"));
        }
        let records = u32::from_be_bytes([
            bytes[RECORDS_COUNT],
            bytes[RECORDS_COUNT + 1],
            bytes[RECORDS_COUNT + 2],
            bytes[RECORDS_COUNT + 3],
        ]);
        let tail_crc = crc32c::crc32c(&bytes[HEADER_END..]);
        Ok(Template {
            bytes,
            records,
            tail_crc,
        })
    }
}

/// The per-send fields of a batch. Every record of a template has the same
/// timestamp (delta 0), so base and max timestamp are both `ts`.
#[derive(Clone, Copy)]
struct Stamp {
    ts: i64,
    producer_id: i64,
    epoch: i16,
    sequence: i32,
}

/// Writes `s` into a copy of a template's bytes and fixes the CRC, by
/// combining the header's fresh CRC with the template's records CRC: O(1)
/// in the batch size.
fn stamp(buf: &mut [u8], s: Stamp, tail_crc: u32) {
    buf[BASE_TIMESTAMP..BASE_TIMESTAMP + 8].copy_from_slice(&s.ts.to_be_bytes());
    buf[MAX_TIMESTAMP..MAX_TIMESTAMP + 8].copy_from_slice(&s.ts.to_be_bytes());
    buf[PRODUCER_ID..PRODUCER_ID + 8].copy_from_slice(&s.producer_id.to_be_bytes());
    buf[PRODUCER_EPOCH..PRODUCER_EPOCH + 2].copy_from_slice(&s.epoch.to_be_bytes());
    buf[BASE_SEQUENCE..BASE_SEQUENCE + 4].copy_from_slice(&s.sequence.to_be_bytes());
    let head = crc32c::crc32c(&buf[ATTRIBUTES..HEADER_END]);
    let crc = crc32c::crc32c_combine(head, tail_crc, buf.len() - HEADER_END);
    buf[CRC..CRC + 4].copy_from_slice(&crc.to_be_bytes());
}

/// What every connection shares.
struct Plan {
    topic: String,
    /// Per partition, its batch variants (empty when no key maps there).
    templates: Vec<Vec<Template>>,
    /// Per partition, the keys of the run's last, short batch.
    tail_keys: TailKeys,
    value: Bytes,
    codec: Compression,
    acks: i16,
    timeout_ms: u64,
    inflight: usize,
    parts_per_request: usize,
    /// Records per second per connection (0: unbounded).
    rate_per_conn: f64,
    deadline: Option<Instant>,
    /// Records still to claim (u64::MAX with --duration).
    remaining: AtomicU64,
    acked_records: AtomicU64,
    acked_bytes: AtomicU64,
    stop: AtomicBool,
    producer: (i64, i16),
}

/// Per partition, the keys of its first batch variant: the run's last,
/// short batch takes its keys from there, so it follows `--keys` too.
type TailKeys = Vec<Vec<Option<Bytes>>>;

/// Pre-built batches: per partition, up to [`BATCH_VARIANTS`]; and the
/// keys the tail batch uses.
fn build_templates(
    b: &BenchProduce,
    partitions: i32,
    keys: Keys,
) -> Result<(Vec<Vec<Template>>, TailKeys)> {
    let codec = compression(&b.compression)?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let value = bench_value(b.record_size);
    let now = now_ms();
    let mut out: Vec<Vec<Template>> = (0..partitions).map(|_| Vec::new()).collect();
    let mut tail_keys: TailKeys = (0..partitions).map(|_| Vec::new()).collect();
    for variant in 0..BATCH_VARIANTS {
        let mut per_part: Vec<RecordBatchBuilder> = (0..partitions)
            .map(|_| RecordBatchBuilder::new().compression(codec))
            .collect();
        let mut counts = vec![0usize; partitions as usize];
        // Keyed records land where murmur2 puts them; fill every reachable
        // partition's batch to --batch-records (a hot key reaches one).
        let mut guard = 0usize;
        while counts.iter().any(|c| *c < b.batch_records)
            && guard < b.batch_records * partitions as usize * 64
        {
            guard += 1;
            let key: Option<Bytes> = match keys {
                Keys::None => None,
                Keys::Hot => Some(Bytes::from_static(b"hot-key")),
                Keys::Uniform(n) => Some(Bytes::from(format!("key-{}", rng.next() % n))),
            };
            let p = match &key {
                Some(k) => partition_for_key(k, partitions) as usize,
                None => (guard + variant) % partitions as usize,
            };
            if counts[p] >= b.batch_records {
                continue;
            }
            counts[p] += 1;
            if variant == 0 {
                tail_keys[p].push(key.clone());
            }
            per_part[p].push(NewRecord {
                key,
                value: Some(value.clone()),
                headers: Vec::new(),
                timestamp: now,
            });
        }
        for (p, builder) in per_part.into_iter().enumerate() {
            if counts[p] == 0 {
                continue;
            }
            let batch = builder
                .build()
                .map_err(|e| TmkError::msg(format!("building a batch: {e}")))?;
            out[p].push(Template::new(batch)?);
        }
    }
    Ok((out, tail_keys))
}

fn bench_value(size: usize) -> Bytes {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    Bytes::from(
        (0..size)
            .map(|_| b'a' + (rng.next() % 26) as u8)
            .collect::<Vec<u8>>(),
    )
}

/// One request on the wire: its buffers come back for reuse.
struct InFlight {
    sent: Instant,
    pending: Option<PendingResponse<ProduceResponse>>,
    /// (partition, variant, stamped bytes); variant `usize::MAX` is a
    /// one-off tail batch, not reused.
    bufs: Vec<(i32, usize, Bytes)>,
    records: u64,
    bytes: u64,
}

/// One connection's partitions on one leader.
struct Lane {
    conn: Arc<Conn>,
    version: i16,
    parts: Vec<i32>,
    next: usize,
}

/// Checks every partition of a Produce answer.
fn check_response(resp: &ProduceResponse, topic: &str) -> std::result::Result<(), String> {
    for t in &resp.responses {
        for p in &t.partition_responses {
            Error::check(
                p.error_code,
                p.error_message.clone(),
                format!("{topic}/{}", p.index),
            )
            .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// One connection's loop: keep `inflight` requests out, reuse buffers.
fn drive(plan: &Plan, mut lanes: Vec<Lane>) -> std::result::Result<Histogram<u64>, String> {
    let mut hist = new_hist()?;
    let nparts = plan.templates.len();
    // free[partition][variant]: stamped-and-returned buffers.
    let mut free: Vec<Vec<Vec<BytesMut>>> = plan
        .templates
        .iter()
        .map(|v| (0..v.len()).map(|_| Vec::new()).collect())
        .collect();
    let mut sequence = vec![0i32; nparts];
    let mut send_count = vec![0usize; nparts];
    let mut pipeline: VecDeque<InFlight> = VecDeque::with_capacity(plan.inflight);
    let start = Instant::now();
    let mut sent_records = 0u64;
    let mut lane_ix = 0usize;
    let mut done = false;
    loop {
        // Send while there is room and (with --rate) the next send is due;
        // otherwise take the oldest answer, waiting at most until the next
        // send is due, so an answer is timed when it arrives, not when the
        // pacing lets the loop look at it.
        let mut wait_at_most: Option<Duration> = None;
        while !done && pipeline.len() < plan.inflight {
            if plan.stop.load(Ordering::Relaxed)
                || crate::interrupt::interrupted()
                || plan.deadline.is_some_and(|d| Instant::now() >= d)
            {
                done = true;
                break;
            }
            if plan.rate_per_conn > 0.0 {
                let due = start + Duration::from_secs_f64(sent_records as f64 / plan.rate_per_conn);
                let now = Instant::now();
                if due > now {
                    if pipeline.is_empty() {
                        std::thread::sleep(due - now);
                    } else {
                        wait_at_most = Some(due - now);
                        break;
                    }
                }
            }
            let li = lane_ix % lanes.len();
            lane_ix += 1;
            let lane = &mut lanes[li];
            let take = plan.parts_per_request.min(lane.parts.len());
            let chosen: Vec<i32> = (0..take)
                .map(|k| lane.parts[(lane.next + k) % lane.parts.len()])
                .collect();
            lane.next = (lane.next + take) % lane.parts.len();
            let want: u64 = chosen
                .iter()
                .map(|p| {
                    let v = &plan.templates[*p as usize];
                    u64::from(v[send_count[*p as usize] % v.len()].records)
                })
                .sum();
            let got = plan
                .remaining
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |r| {
                    (r > 0).then(|| r.saturating_sub(want))
                })
                .map(|before| before.min(want))
                .unwrap_or(0);
            if got == 0 {
                done = true;
                break;
            }
            let ts = now_ms();
            let mut left = got;
            let mut bufs = Vec::with_capacity(chosen.len());
            let mut bytes = 0u64;
            for p in chosen {
                if left == 0 {
                    break;
                }
                let pi = p as usize;
                let variants = &plan.templates[pi];
                let vi = send_count[pi] % variants.len();
                let t = &variants[vi];
                let (buf, vi, n) = if u64::from(t.records) <= left {
                    send_count[pi] += 1;
                    let mut buf = free[pi][vi]
                        .pop()
                        .unwrap_or_else(|| BytesMut::from(&t.bytes[..]));
                    stamp(
                        &mut buf,
                        Stamp {
                            ts,
                            producer_id: plan.producer.0,
                            epoch: plan.producer.1,
                            sequence: sequence[pi],
                        },
                        t.tail_crc,
                    );
                    (buf.freeze(), vi, t.records)
                } else {
                    // The run's last, short batch: built once, here.
                    let n = left as usize;
                    let mut bld = RecordBatchBuilder::new().compression(plan.codec);
                    let keys = &plan.tail_keys[pi];
                    for i in 0..n {
                        bld.push(NewRecord {
                            key: keys.get(i % keys.len().max(1)).cloned().flatten(),
                            value: Some(plan.value.clone()),
                            headers: Vec::new(),
                            timestamp: ts,
                        });
                    }
                    let built = bld.build().map_err(|e| e.to_string())?;
                    let tmpl = Template::new(built).map_err(|e| e.to_string())?;
                    let mut buf = BytesMut::from(&tmpl.bytes[..]);
                    stamp(
                        &mut buf,
                        Stamp {
                            ts,
                            producer_id: plan.producer.0,
                            epoch: plan.producer.1,
                            sequence: sequence[pi],
                        },
                        tmpl.tail_crc,
                    );
                    (buf.freeze(), usize::MAX, n as u32)
                };
                if plan.producer.0 >= 0 {
                    sequence[pi] = sequence[pi].wrapping_add(n as i32) & i32::MAX;
                }
                left -= u64::from(n);
                bytes += buf.len() as u64;
                bufs.push((p, vi, buf));
            }
            let req = ProduceRequest {
                transactional_id: None,
                acks: plan.acks,
                timeout_ms: plan.timeout_ms.min(i32::MAX as u64) as i32,
                topic_data: vec![TopicProduceData {
                    name: plan.topic.clone(),
                    partition_data: bufs
                        .iter()
                        .map(|(p, _, b)| PartitionProduceData {
                            index: *p,
                            records: Some(b.clone()),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                }],
                ..Default::default()
            };
            let sent = Instant::now();
            let pending = if plan.acks == 0 {
                lane.conn
                    .send_no_response(&req, lane.version)
                    .map_err(|e| e.to_string())?;
                None
            } else {
                Some(
                    lane.conn
                        .send(&req, lane.version)
                        .map_err(|e| e.to_string())?,
                )
            };
            drop(req);
            sent_records += got;
            pipeline.push_back(InFlight {
                sent,
                pending,
                bufs,
                records: got,
                bytes,
            });
            if plan.acks == 0 {
                break;
            }
        }
        let Some(mut f) = pipeline.pop_front() else {
            if done {
                break;
            }
            continue;
        };
        if let Some(p) = f.pending.take() {
            let resp = match wait_at_most {
                None => p.wait(plan.timeout_ms).map_err(|e| e.to_string())?,
                Some(d) => {
                    let mut p = p;
                    match p.wait_for(d).map_err(|e| e.to_string())? {
                        Some(r) => r,
                        None => {
                            // Not yet: back to the front, and send.
                            f.pending = Some(p);
                            pipeline.push_front(f);
                            continue;
                        }
                    }
                }
            };
            check_response(&resp, &plan.topic)?;
            let us = f.sent.elapsed().as_micros().max(1) as u64;
            let _ = hist.record_n(us, f.records);
        }
        plan.acked_records.fetch_add(f.records, Ordering::Relaxed);
        plan.acked_bytes.fetch_add(f.bytes, Ordering::Relaxed);
        for (p, vi, b) in f.bufs {
            if vi == usize::MAX {
                continue;
            }
            // Unique again once the connection wrote it: reuse, no copy.
            if let Ok(m) = b.try_into_mut() {
                free[p as usize][vi].push(m);
            }
        }
    }
    Ok(hist)
}

#[derive(Serialize)]
struct Summary {
    mode: &'static str,
    records: u64,
    bytes: u64,
    seconds: f64,
    records_per_sec: f64,
    mib_per_sec: f64,
    connections: usize,
    /// Stopped early by Ctrl-C: the figures cover the run until then.
    interrupted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    consumed: Option<u64>,
    /// Send to acknowledgement, per record.
    #[serde(skip_serializing_if = "Option::is_none")]
    publish_ack_ms: Option<Latency>,
    /// Record timestamp (send time) to the consumer's receipt.
    #[serde(skip_serializing_if = "Option::is_none")]
    publish_to_consume_ms: Option<Latency>,
}

#[derive(Serialize)]
struct Latency {
    count: u64,
    p50: f64,
    p90: f64,
    p99: f64,
    p999: f64,
    max: f64,
}

fn latency(h: &Histogram<u64>) -> Option<Latency> {
    (!h.is_empty()).then(|| {
        let ms = |us: u64| us as f64 / 1000.0;
        Latency {
            count: h.len(),
            p50: ms(h.value_at_quantile(0.5)),
            p90: ms(h.value_at_quantile(0.9)),
            p99: ms(h.value_at_quantile(0.99)),
            p999: ms(h.value_at_quantile(0.999)),
            max: ms(h.max()),
        }
    })
}

fn print_summary(format: OutFormat, s: &Summary) -> Result<()> {
    match format {
        OutFormat::Json | OutFormat::Yaml => crate::output::emit(format, s, |_| String::new()),
        _ => {
            let mut t = format!(
                "{}{}: {} records, {:.1} MiB in {:.2} s: {:.0} records/s, {:.1} MiB/s over {} connection(s)\n",
                s.mode,
                if s.interrupted { " (interrupted)" } else { "" },
                s.records,
                s.bytes as f64 / (1 << 20) as f64,
                s.seconds,
                s.records_per_sec,
                s.mib_per_sec,
                s.connections
            );
            if let Some(c) = s.consumed {
                t.push_str(&format!("consumed {c} records\n"));
            }
            for (what, l) in [
                ("publish-ack", &s.publish_ack_ms),
                ("publish-to-consume", &s.publish_to_consume_ms),
            ] {
                if let Some(l) = l {
                    t.push_str(&format!(
                        "{what} latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}\n",
                        l.p50, l.p90, l.p99, l.p999, l.max
                    ));
                }
            }
            write_stdout(t.as_bytes())
        }
    }
}

/// Where the consumer of `e2e` stands: records seen, its histogram.
struct E2eConsumer {
    seen: Arc<AtomicU64>,
    handle: std::thread::JoinHandle<std::result::Result<Histogram<u64>, String>>,
}

/// Starts a consumer at the current end of every partition, so it sees
/// exactly the records this run produces. Stops when it has `target`
/// records (set once producing is over) or `quit` is raised.
fn start_consumer(
    conn: &ConnFlags,
    topic: &str,
    target: Arc<AtomicU64>,
    quit: Arc<AtomicBool>,
) -> Result<E2eConsumer> {
    let client = connect(conn)?;
    let info = client
        .topic(topic)
        .map_err(|e| kerr(&format!("benchmarking topic {topic}"), e))?;
    let parts: Vec<(String, i32)> = info
        .partitions
        .iter()
        .map(|p| (topic.to_string(), p.partition))
        .collect();
    let ends = client
        .list_offsets(&parts, tidemark_client::admin::OffsetSpec::Latest, false)
        .map_err(|e| kerr("listing offsets", e))?;
    let mut starts = Vec::new();
    for ((t, p), r) in ends {
        let o = r.map_err(|e| kerr("listing offsets", e))?;
        starts.push((t, p, StartOffset::Offset(o.offset)));
    }
    let mut f = Fetcher::new(
        client,
        FetcherConfig {
            max_wait_ms: 10,
            ..FetcherConfig::default()
        },
    );
    f.assign(starts)
        .map_err(|e| kerr("assigning partitions", e))?;
    let seen = Arc::new(AtomicU64::new(0));
    let seen2 = seen.clone();
    let handle = std::thread::spawn(move || -> std::result::Result<Histogram<u64>, String> {
        let mut hist = new_hist()?;
        let mut n = 0u64;
        while !quit.load(Ordering::Relaxed) && n < target.load(Ordering::Relaxed) {
            let got = f.poll(100).map_err(|e| e.to_string())?;
            let now = now_us();
            for r in &got {
                let _ = hist.record((now - r.timestamp * 1000).max(1) as u64);
            }
            n += got.len() as u64;
            seen2.store(n, Ordering::Relaxed);
        }
        Ok(hist)
    });
    Ok(E2eConsumer { seen, handle })
}

pub fn produce(conn: &ConnFlags, b: BenchProduce) -> Result<()> {
    run(conn, b, false)
}

pub fn e2e(conn: &ConnFlags, b: BenchProduce) -> Result<()> {
    run(conn, b, true)
}

fn run(conn: &ConnFlags, b: BenchProduce, e2e: bool) -> Result<()> {
    if b.records == 0 && b.duration == 0 {
        return Err(TmkError::msg("give --records or --duration"));
    }
    if b.connections == 0 || b.inflight == 0 {
        return Err(TmkError::msg(
            "--connections and --inflight must be positive",
        ));
    }
    let mut b = b;
    if b.batch_records == 0 {
        // Big batches: the broker's cost is per request and per batch far
        // more than per byte (see benches/RESULTS.md), so fill ~1 MB, under
        // the default message.max.bytes (1 MiB) with room for overhead.
        b.batch_records = (AUTO_BATCH_BYTES / (b.record_size + 16)).max(1);
    }
    if b.idempotent && b.acks != -1 {
        return Err(TmkError::msg("--idempotent needs --acks -1 (all)"));
    }
    if e2e && b.acks == 0 {
        return Err(TmkError::msg("e2e needs acks (--acks 1 or -1)"));
    }
    let keys = parse_keys(&b.keys)?;
    let client = connect(conn)?;
    let info = client
        .topic(&b.topic)
        .map_err(|e| kerr(&format!("benchmarking topic {}", b.topic), e))?;
    let partitions = info.partitions.len() as i32;
    if partitions == 0 {
        return Err(TmkError::msg(format!(
            "topic {} has no partitions",
            b.topic
        )));
    }
    let (templates, tail_keys) = build_templates(&b, partitions, keys)?;
    // Partitions with batches, by leader; each goes to exactly one
    // connection, so an idempotent partition's sequence has one writer.
    let mut by_leader: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
    for p in 0..partitions {
        if templates[p as usize].is_empty() {
            continue;
        }
        let (leader, _) = client
            .leader_conn(&b.topic, p)
            .map_err(|e| kerr(&format!("finding the leader of {}/{p}", b.topic), e))?;
        by_leader.entry(leader).or_default().push(p);
    }
    let all: Vec<(i32, i32)> = by_leader
        .iter()
        .flat_map(|(l, ps)| ps.iter().map(move |p| (*l, *p)))
        .collect();
    let conns = b.connections.min(all.len()).max(1);
    let mut shares: Vec<BTreeMap<i32, Vec<i32>>> = vec![BTreeMap::new(); conns];
    for (i, (l, p)) in all.iter().enumerate() {
        shares[i % conns].entry(*l).or_default().push(*p);
    }
    let producer = if b.idempotent {
        let r = client
            .send(
                Route::Any,
                InitProducerIdRequest {
                    transactional_id: None,
                    transaction_timeout_ms: i32::MAX,
                    producer_id: -1,
                    producer_epoch: -1,
                    ..Default::default()
                },
            )
            .map_err(|e| kerr("getting a producer id", e))?;
        Error::check(r.error_code, None, "InitProducerId")
            .map_err(|e| kerr("getting a producer id", e))?;
        (r.producer_id, r.producer_epoch)
    } else {
        (-1, -1)
    };
    let inflight = if b.idempotent {
        b.inflight.min(IDEMPOTENT_MAX_INFLIGHT)
    } else {
        b.inflight
    };
    // Connections (and the versions they speak) before the clock starts.
    let mut lanes_per_conn = Vec::new();
    for share in &shares {
        let mut lanes = Vec::new();
        for (leader, parts) in share {
            let c = client
                .connect_node(*leader)
                .map_err(|e| kerr(&format!("connecting to broker {leader}"), e))?;
            let version = c
                .version_for(<ProduceRequest as Request>::API_KEY)
                .map_err(|e| kerr("negotiating Produce", e))?;
            lanes.push(Lane {
                conn: c,
                version,
                parts: parts.clone(),
                next: 0,
            });
        }
        lanes_per_conn.push(lanes);
    }
    let plan = Arc::new(Plan {
        topic: b.topic.clone(),
        templates,
        tail_keys,
        value: bench_value(b.record_size),
        codec: compression(&b.compression)?,
        acks: b.acks,
        timeout_ms: client_config(conn)?.request_timeout_ms,
        inflight,
        parts_per_request: if b.partitions_per_request == 0 {
            usize::MAX
        } else {
            b.partitions_per_request
        },
        rate_per_conn: b.rate as f64 / conns as f64,
        deadline: (b.duration > 0).then(|| Instant::now() + Duration::from_secs(b.duration)),
        remaining: AtomicU64::new(if b.records > 0 { b.records } else { u64::MAX }),
        acked_records: AtomicU64::new(0),
        acked_bytes: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        producer,
    });
    let target = Arc::new(AtomicU64::new(u64::MAX));
    let quit = Arc::new(AtomicBool::new(false));
    let consumer = if e2e {
        Some(start_consumer(
            conn,
            &b.topic,
            target.clone(),
            quit.clone(),
        )?)
    } else {
        None
    };
    // From here Ctrl-C ends the run with its summary (`crate::interrupt`).
    let _graceful = crate::interrupt::Graceful::begin();
    let start = Instant::now();
    let mut handles = Vec::new();
    for lanes in lanes_per_conn {
        let plan = plan.clone();
        handles.push(std::thread::spawn(move || {
            let r = drive(&plan, lanes);
            if r.is_err() {
                plan.stop.store(true, Ordering::Relaxed);
            }
            r
        }));
    }
    // Progress once a second until every connection is done.
    let mut last = (Instant::now(), 0u64, 0u64);
    while handles.iter().any(|h| !h.is_finished()) {
        std::thread::sleep(Duration::from_millis(50));
        if last.0.elapsed() >= Duration::from_secs(1) {
            let (r, by) = (
                plan.acked_records.load(Ordering::Relaxed),
                plan.acked_bytes.load(Ordering::Relaxed),
            );
            let dt = last.0.elapsed().as_secs_f64();
            let seen = consumer
                .as_ref()
                .map(|c| format!(", {} consumed", c.seen.load(Ordering::Relaxed)))
                .unwrap_or_default();
            eprintln!(
                "[{:>5.1}s] {:>10} records acked, {:>10.0} records/s, {:>7.1} MiB/s{seen}",
                start.elapsed().as_secs_f64(),
                r,
                (r - last.1) as f64 / dt,
                (by - last.2) as f64 / dt / (1 << 20) as f64
            );
            last = (Instant::now(), r, by);
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let mut hist = new_hist().map_err(TmkError::msg)?;
    let mut first_err = None;
    for h in handles {
        match h.join() {
            Ok(Ok(x)) => {
                let _ = hist.add(&x);
            }
            Ok(Err(e)) => {
                first_err.get_or_insert(e);
            }
            Err(_) => {
                first_err.get_or_insert("a connection thread failed".to_string());
            }
        }
    }
    let records = plan.acked_records.load(Ordering::Relaxed);
    let bytes = plan.acked_bytes.load(Ordering::Relaxed);
    // The consumer gets what was acknowledged, within 30 s (5 s once
    // interrupted: the user asked to stop, and what it saw is reported).
    let mut e2e_hist = None;
    let mut consumed = None;
    if let Some(c) = consumer {
        target.store(records, Ordering::Relaxed);
        let until = Instant::now() + Duration::from_secs(30);
        let until_interrupted = Instant::now() + Duration::from_secs(5);
        while !c.handle.is_finished()
            && Instant::now() < until
            && !(crate::interrupt::interrupted() && Instant::now() >= until_interrupted)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        quit.store(true, Ordering::Relaxed);
        match c.handle.join() {
            Ok(Ok(h)) => e2e_hist = Some(h),
            Ok(Err(e)) => {
                first_err.get_or_insert(format!("consuming: {e}"));
            }
            Err(_) => {
                first_err.get_or_insert("the consumer thread failed".to_string());
            }
        }
        consumed = Some(c.seen.load(Ordering::Relaxed));
    }
    if let Some(e) = first_err {
        return Err(TmkError::msg(format!(
            "benchmarking topic {}: {e}",
            b.topic
        )));
    }
    print_summary(
        b.out.format,
        &Summary {
            mode: if e2e { "e2e" } else { "produce" },
            records,
            bytes,
            seconds: secs,
            records_per_sec: records as f64 / secs,
            mib_per_sec: bytes as f64 / secs / (1 << 20) as f64,
            connections: conns,
            interrupted: crate::interrupt::interrupted(),
            consumed,
            publish_ack_ms: latency(&hist),
            publish_to_consume_ms: e2e_hist.as_ref().and_then(latency),
        },
    )
}

pub fn consume(conn: &ConnFlags, b: BenchConsume) -> Result<()> {
    let client = connect(conn)?;
    let info = client
        .topic(&b.topic)
        .map_err(|e| kerr(&format!("benchmarking topic {}", b.topic), e))?;
    let parts: Vec<(String, i32)> = info
        .partitions
        .iter()
        .map(|p| (b.topic.clone(), p.partition))
        .collect();
    let ends = client
        .list_offsets(&parts, tidemark_client::admin::OffsetSpec::Latest, false)
        .map_err(|e| kerr("listing offsets", e))?;
    let end_total: i64 = ends
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok().map(|o| o.offset))
        .sum();
    let target = if b.records > 0 {
        b.records
    } else {
        end_total.max(0) as u64
    };
    let mut f = Fetcher::new(client, FetcherConfig::default());
    f.assign(
        parts
            .iter()
            .map(|(t, p)| (t.clone(), *p, StartOffset::Earliest))
            .collect(),
    )
    .map_err(|e| kerr("assigning partitions", e))?;
    let _graceful = crate::interrupt::Graceful::begin();
    let start = Instant::now();
    let deadline = (b.duration > 0).then(|| start + Duration::from_secs(b.duration));
    let (mut records, mut bytes) = (0u64, 0u64);
    let mut idle_polls = 0;
    let mut last = (Instant::now(), 0u64);
    while records < target
        && deadline.is_none_or(|d| Instant::now() < d)
        && idle_polls < 10
        && !crate::interrupt::interrupted()
    {
        let got = f.poll(500).map_err(|e| kerr("fetching", e))?;
        if got.is_empty() {
            idle_polls += 1;
        } else {
            idle_polls = 0;
        }
        for r in &got {
            records += 1;
            bytes += r.value.as_ref().map_or(0, |v| v.len() as u64)
                + r.key.as_ref().map_or(0, |k| k.len() as u64);
        }
        if last.0.elapsed() >= Duration::from_secs(1) {
            eprintln!(
                "[{:>5.1}s] {:>10} records consumed, {:>10.0} records/s",
                start.elapsed().as_secs_f64(),
                records,
                (records - last.1) as f64 / last.0.elapsed().as_secs_f64()
            );
            last = (Instant::now(), records);
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    print_summary(
        b.out.format,
        &Summary {
            mode: "consume",
            records,
            bytes,
            seconds: secs,
            records_per_sec: records as f64 / secs,
            mib_per_sec: bytes as f64 / secs / (1 << 20) as f64,
            connections: 1,
            interrupted: crate::interrupt::interrupted(),
            consumed: Some(records),
            publish_ack_ms: None,
            publish_to_consume_ms: None,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_distributions() {
        assert_eq!(parse_keys("none").unwrap(), Keys::None);
        assert_eq!(parse_keys("hot").unwrap(), Keys::Hot);
        assert_eq!(parse_keys("uniform:10").unwrap(), Keys::Uniform(10));
        assert!(parse_keys("uniform:0").is_err());
        assert!(parse_keys("zipf").is_err());
    }

    /// A stamped batch must be what the builder would have produced with
    /// those fields: a valid CRC and the new timestamp and producer fields.
    #[test]
    fn stamping_keeps_the_batch_valid() {
        let mut bld = RecordBatchBuilder::new();
        for _ in 0..10 {
            bld.push(NewRecord {
                key: Some(Bytes::from_static(b"k")),
                value: Some(Bytes::from_static(b"value")),
                headers: Vec::new(),
                timestamp: 1,
            });
        }
        let t = Template::new(bld.build().unwrap()).unwrap();
        assert_eq!(t.records, 10);
        let mut buf = BytesMut::from(&t.bytes[..]);
        stamp(
            &mut buf,
            Stamp {
                ts: 1_700_000_000_123,
                producer_id: 42,
                epoch: 3,
                sequence: 100,
            },
            t.tail_crc,
        );
        let crc = crc32c::crc32c(&buf[ATTRIBUTES..]);
        assert_eq!(&buf[CRC..CRC + 4], &crc.to_be_bytes());
        assert_eq!(
            &buf[BASE_TIMESTAMP..BASE_TIMESTAMP + 8],
            &1_700_000_000_123i64.to_be_bytes()
        );
        assert_eq!(&buf[PRODUCER_ID..PRODUCER_ID + 8], &42i64.to_be_bytes());
        assert_eq!(
            &buf[BASE_SEQUENCE..BASE_SEQUENCE + 4],
            &100i32.to_be_bytes()
        );
        // The protocol's own stamping verifies the CRC before touching it.
        let stamp_ok = tidemark_client::kafka_protocol::records::stamp_batch(
            &mut buf,
            &tidemark_client::kafka_protocol::records::Stamp {
                base_offset: 0,
                partition_leader_epoch: 0,
                log_append_time: None,
            },
        );
        assert!(stamp_ok.is_ok());
    }
}
