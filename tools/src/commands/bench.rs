//! `tmk bench`: load generation. `produce` builds its batches once, before
//! the clock starts (so the timed loop does no per-record work and no
//! allocation beyond the client's request framing), then each connection
//! (a thread with its own `Client`, hence its own sockets) keeps
//! `--inflight` Produce requests pipelined, round-robin over its share of
//! the partitions. Ack latency (send to answer, per batch) goes into an HDR
//! histogram; a progress line goes to stderr every second; the summary is
//! text or JSON. `consume` reads the topic from the start with the client's
//! `Fetcher` and reports the rate.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use hdrhistogram::Histogram;
use serde::Serialize;
use tidemark_client::consumer::{Fetcher, FetcherConfig, StartOffset};
use tidemark_client::kafka_protocol::records::{NewRecord, RecordBatchBuilder};
use tidemark_client::partitioner::partition_for_key;
use tidemark_client::{Client, producer::ProducePending};

use super::produce::compression;
use super::{client_config, connect, kerr};
use crate::cli::{BenchConsume, BenchProduce, ConnFlags, OutFormat};
use crate::errors::{Result, TmkError};
use crate::output::write_stdout;

/// Distinct pre-built batches per partition, so keys vary across sends.
const BATCH_VARIANTS: usize = 4;

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

/// Pre-built batches per partition: (partition, batch bytes).
fn build_batches(b: &BenchProduce, partitions: i32, keys: Keys) -> Result<Vec<(i32, Bytes)>> {
    let codec = compression(&b.compression)?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let value: Vec<u8> = (0..b.record_size)
        .map(|_| b'a' + (rng.next() % 26) as u8)
        .collect();
    let value = Bytes::from(value);
    let now = chrono::Utc::now().timestamp_millis();
    let mut out = Vec::new();
    for variant in 0..BATCH_VARIANTS {
        let mut per_part: Vec<RecordBatchBuilder> = (0..partitions)
            .map(|_| RecordBatchBuilder::new().compression(codec))
            .collect();
        let mut counts = vec![0usize; partitions as usize];
        // Keyed records land where murmur2 puts them; fill every partition's
        // batch to --batch-records.
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
            out.push((p as i32, batch));
        }
    }
    Ok(out)
}

#[derive(Serialize)]
struct Summary {
    records: u64,
    bytes: u64,
    seconds: f64,
    records_per_sec: f64,
    mib_per_sec: f64,
    connections: usize,
    latency_ms: Option<Latency>,
}

#[derive(Serialize)]
struct Latency {
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
                "{} records, {:.1} MiB in {:.2} s: {:.0} records/s, {:.1} MiB/s over {} connection(s)\n",
                s.records,
                s.bytes as f64 / (1 << 20) as f64,
                s.seconds,
                s.records_per_sec,
                s.mib_per_sec,
                s.connections
            );
            if let Some(l) = &s.latency_ms {
                t.push_str(&format!(
                    "ack latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}\n",
                    l.p50, l.p90, l.p99, l.p999, l.max
                ));
            }
            write_stdout(t.as_bytes())
        }
    }
}

pub fn produce(conn: &ConnFlags, b: BenchProduce) -> Result<()> {
    if b.records == 0 && b.duration == 0 {
        return Err(TmkError::msg("give --records or --duration"));
    }
    if b.batch_records == 0 || b.connections == 0 || b.inflight == 0 {
        return Err(TmkError::msg(
            "--batch-records, --connections and --inflight must be positive",
        ));
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
    let batches = Arc::new(build_batches(&b, partitions, keys)?);
    let per_batch = b.batch_records as u64;
    let batch_bytes: Vec<u64> = batches.iter().map(|(_, x)| x.len() as u64).collect();
    let avg_batch_bytes = batch_bytes.iter().sum::<u64>() / batch_bytes.len().max(1) as u64;
    let total_batches = if b.records > 0 {
        b.records.div_ceil(per_batch)
    } else {
        u64::MAX
    };
    let deadline = (b.duration > 0).then(|| Instant::now() + Duration::from_secs(b.duration));
    let sent = Arc::new(AtomicU64::new(0));
    let acked = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let cfg = client_config(conn)?;
    let start = Instant::now();
    let batches_per_sec = if b.rate > 0 {
        (b.rate as f64 / per_batch as f64).max(0.001)
    } else {
        0.0
    };
    let mut handles = Vec::new();
    for c in 0..b.connections {
        let cfg = cfg.clone();
        let batches = batches.clone();
        let (sent, acked, stop) = (sent.clone(), acked.clone(), stop.clone());
        let topic = b.topic.clone();
        let (acks, inflight, conns) = (b.acks, b.inflight, b.connections);
        handles.push(std::thread::spawn(
            move || -> std::result::Result<Histogram<u64>, String> {
                let client = Client::connect(cfg).map_err(|e| e.to_string())?;
                let mut hist = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)
                    .map_err(|e| e.to_string())?;
                let mine: Vec<usize> = (0..batches.len()).filter(|i| i % conns == c).collect();
                let mine = if mine.is_empty() {
                    (0..batches.len()).collect()
                } else {
                    mine
                };
                let mut pending: std::collections::VecDeque<(Instant, ProducePending)> =
                    Default::default();
                let mut i = 0usize;
                loop {
                    let n = sent.fetch_add(1, Ordering::Relaxed);
                    let over_time = deadline.is_some_and(|d| Instant::now() >= d);
                    if n >= total_batches || over_time || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if batches_per_sec > 0.0 {
                        let due = start + Duration::from_secs_f64(n as f64 / batches_per_sec);
                        let now = Instant::now();
                        if due > now {
                            std::thread::sleep(due - now);
                        }
                    }
                    let (part, batch) = &batches[mine[i % mine.len()]];
                    i += 1;
                    let p = client
                        .produce_batch_async(&topic, *part, batch.clone(), acks)
                        .map_err(|e| e.to_string())?;
                    pending.push_back((Instant::now(), p));
                    while pending.len() >= inflight {
                        if let Some((t0, p)) = pending.pop_front() {
                            p.wait().map_err(|e| e.to_string())?;
                            let _ = hist.record(t0.elapsed().as_micros().max(1) as u64);
                            acked.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                for (t0, p) in pending {
                    p.wait().map_err(|e| e.to_string())?;
                    let _ = hist.record(t0.elapsed().as_micros().max(1) as u64);
                    acked.fetch_add(1, Ordering::Relaxed);
                }
                Ok(hist)
            },
        ));
    }
    // Progress once a second until every connection is done.
    let mut last = (Instant::now(), 0u64);
    while handles.iter().any(|h| !h.is_finished()) {
        std::thread::sleep(Duration::from_millis(100));
        if last.0.elapsed() >= Duration::from_secs(1) {
            let a = acked.load(Ordering::Relaxed);
            let dt = last.0.elapsed().as_secs_f64();
            let rate = (a - last.1) as f64 * per_batch as f64 / dt;
            eprintln!(
                "[{:>5.1}s] {:>10} records acked, {:>10.0} records/s, {:>7.1} MiB/s",
                start.elapsed().as_secs_f64(),
                a * per_batch,
                rate,
                (a - last.1) as f64 * avg_batch_bytes as f64 / dt / (1 << 20) as f64
            );
            last = (Instant::now(), a);
        }
    }
    let mut hist = Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)
        .map_err(|e| TmkError::msg(e.to_string()))?;
    let mut first_err = None;
    for h in handles {
        match h.join() {
            Ok(Ok(x)) => {
                let _ = hist.add(&x);
            }
            Ok(Err(e)) => {
                stop.store(true, Ordering::Relaxed);
                first_err.get_or_insert(e);
            }
            Err(_) => {
                first_err.get_or_insert("a connection thread failed".to_string());
            }
        }
    }
    if let Some(e) = first_err {
        return Err(TmkError::msg(format!(
            "benchmarking topic {}: {e}",
            b.topic
        )));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let batches_done = acked.load(Ordering::Relaxed);
    let records = batches_done * per_batch;
    let bytes = batches_done * avg_batch_bytes;
    print_summary(
        b.out.format,
        &Summary {
            records,
            bytes,
            seconds: secs,
            records_per_sec: records as f64 / secs,
            mib_per_sec: bytes as f64 / secs / (1 << 20) as f64,
            connections: b.connections,
            latency_ms: latency(&hist),
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
    let start = Instant::now();
    let deadline = (b.duration > 0).then(|| start + Duration::from_secs(b.duration));
    let (mut records, mut bytes) = (0u64, 0u64);
    let mut idle_polls = 0;
    while records < target && deadline.is_none_or(|d| Instant::now() < d) && idle_polls < 10 {
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
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    print_summary(
        b.out.format,
        &Summary {
            records,
            bytes,
            seconds: secs,
            records_per_sec: records as f64 / secs,
            mib_per_sec: bytes as f64 / secs / (1 << 20) as f64,
            connections: 1,
            latency_ms: None,
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
}
