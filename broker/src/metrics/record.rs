//! The hot-path side of the metrics: what a shard counts as it serves.
//!
//! Each shard thread counts into its own thread-local [`ShardStats`]: no
//! atomics, no lock, no cache line shared with another core. The counts
//! are touched once per request, per produced or fetched partition batch
//! and per connection, never per record. The admin server reads them by
//! sending each shard a job that clones them on the shard itself
//! ([`super::gather`]).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Duration;

use hdrhistogram::Histogram;

/// Latencies are kept in microseconds from 1 µs to 10 minutes with two
/// significant digits (a few KiB per API and shard).
const LATENCY_MAX_US: u64 = 600_000_000;

/// One API's requests on one shard.
#[derive(Clone)]
pub struct ApiStats {
    pub latency_us: Histogram<u64>,
    /// The exact sum of the latencies (the histogram's is approximate).
    pub latency_sum_us: u64,
    /// Error codes in the responses (Kafka's `errorCounts`: one per
    /// partition, topic or group that failed), by code.
    pub errors: HashMap<i16, u64>,
}

/// Bytes and records a shard took in and handed out for one topic.
#[derive(Clone, Default, Debug)]
pub struct TopicIo {
    pub bytes_in: u64,
    pub records_in: u64,
    pub bytes_out: u64,
    pub records_out: u64,
}

/// Throttle time given to one client id (the hook for quotas).
#[derive(Clone, Default, Debug)]
pub struct Throttle {
    pub count: u64,
    pub sum_ms: u64,
}

/// Everything one shard counts.
#[derive(Clone, Default)]
pub struct ShardStats {
    pub apis: HashMap<i16, ApiStats>,
    pub topics: HashMap<String, TopicIo>,
    /// Connections opened and closed, by listener name.
    pub connections: HashMap<String, (u64, u64)>,
    /// Raft elections (a new leader epoch) and leader changes seen by the
    /// partition replicas this shard owns.
    pub elections: u64,
    pub leader_changes: u64,
    /// KIP-392: partition reads this broker served as a follower, and
    /// consumer fetches it (as leader) pointed at another replica.
    pub follower_reads: u64,
    pub read_replica_redirects: u64,
    pub throttle: HashMap<String, Throttle>,
}

thread_local! {
    static STATS: RefCell<ShardStats> = RefCell::new(ShardStats::default());
    /// `metrics.enabled`, set on each shard thread at its start.
    static ENABLED: Cell<bool> = const { Cell::new(true) };
}

/// Turns this thread's counting on or off (`metrics.enabled`; off, the
/// functions below return at once: what the cost benchmark compares).
pub fn set_enabled(on: bool) {
    ENABLED.with(|e| e.set(on));
}

fn enabled() -> bool {
    ENABLED.with(|e| e.get())
}

/// A copy of this thread's counts.
pub fn snapshot() -> ShardStats {
    STATS.with(|s| s.borrow().clone())
}

/// A copy of this thread's per-topic counters only (the status page's
/// throughput), without the latency histograms.
pub fn topics_snapshot() -> ShardStats {
    STATS.with(|s| ShardStats {
        topics: s.borrow().topics.clone(),
        ..Default::default()
    })
}

/// One request of API `api_key` answered after `took`, with the error
/// codes its response carries (`errors`, codes other than NONE).
pub fn request(api_key: i16, took: Duration, errors: &[i16]) {
    if !enabled() {
        return;
    }
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        let a = s.apis.entry(api_key).or_insert_with(|| ApiStats {
            latency_us: Histogram::new_with_bounds(1, LATENCY_MAX_US, 2)
                .expect("constant histogram bounds are valid"),
            latency_sum_us: 0,
            errors: HashMap::new(),
        });
        let us = (took.as_micros() as u64).clamp(1, LATENCY_MAX_US);
        a.latency_us.saturating_record(us);
        a.latency_sum_us = a.latency_sum_us.saturating_add(us);
        for &code in errors {
            *a.errors.entry(code).or_default() += 1;
        }
    });
}

/// Record batches appended to `topic` (`records` records, `bytes` bytes).
pub fn produced(topic: &str, records: u64, bytes: u64) {
    topic_io(topic, |t| {
        t.records_in += records;
        t.bytes_in += bytes;
    });
}

/// Record batches handed to a consumer from `topic`.
pub fn fetched(topic: &str, records: u64, bytes: u64) {
    topic_io(topic, |t| {
        t.records_out += records;
        t.bytes_out += bytes;
    });
}

fn topic_io(topic: &str, f: impl FnOnce(&mut TopicIo)) {
    if !enabled() {
        return;
    }
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        match s.topics.get_mut(topic) {
            Some(t) => f(t),
            None => f(s.topics.entry(topic.to_string()).or_default()),
        }
    });
}

/// A connection accepted on `listener`.
pub fn connection_opened(listener: &str) {
    connection(listener, |c| c.0 += 1);
}

/// A connection on `listener` closed.
pub fn connection_closed(listener: &str) {
    connection(listener, |c| c.1 += 1);
}

fn connection(listener: &str, f: impl FnOnce(&mut (u64, u64))) {
    if !enabled() {
        return;
    }
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        match s.connections.get_mut(listener) {
            Some(c) => f(c),
            None => f(s.connections.entry(listener.to_string()).or_default()),
        }
    });
}

/// A partition replica owned by this shard saw a new leadership: a new
/// leader epoch is an election, a different leader a leader change.
pub fn leadership(election: bool, leader_changed: bool) {
    if !enabled() {
        return;
    }
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        s.elections += u64::from(election);
        s.leader_changes += u64::from(leader_changed);
    });
}

/// A fetched partition was read here while this broker follows it
/// (KIP-392 follower fetching).
pub fn follower_read() {
    if !enabled() {
        return;
    }
    STATS.with(|s| s.borrow_mut().follower_reads += 1);
}

/// A fetched partition was answered with a preferred read replica
/// instead of records (this broker leads it).
pub fn read_replica_redirect() {
    if !enabled() {
        return;
    }
    STATS.with(|s| s.borrow_mut().read_replica_redirects += 1);
}

/// The hook for quotas: a response to `client_id` was throttled for
/// `throttle_time_ms`. Exported as `tidemark_throttle_time_ms_total` and
/// `tidemark_throttled_responses_total` by client id. Call it on the
/// shard that answers the request.
pub fn throttled(client_id: &str, throttle_time_ms: u64) {
    if !enabled() {
        return;
    }
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        let t = s.throttle.entry(client_id.to_string()).or_default();
        t.count += 1;
        t.sum_ms = t.sum_ms.saturating_add(throttle_time_ms);
    });
}

/// Records and bytes in a run of record batches (the produce request's
/// or fetch response's `records` field), from each batch header through
/// the codec's zero-copy `RecordBatches` (the `Bytes` clone is a
/// reference count); a partial or older-format tail counts as bytes only.
pub fn batch_counts(records: &bytes::Bytes) -> (u64, u64) {
    let n = kafka_protocol::records::RecordBatches::new(records.clone())
        .map_while(Result::ok)
        .map(|b| b.records_count().max(0) as u64)
        .sum();
    (n, records.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::records::{NewRecord, RecordBatchBuilder};

    #[test]
    fn batch_counts_reads_every_header() {
        let mut all = Vec::new();
        for n in [3, 5] {
            let b = RecordBatchBuilder::new()
                .records((0..n).map(|_| NewRecord::new(&b"v"[..])))
                .build()
                .unwrap();
            all.extend_from_slice(&b);
        }
        let all = bytes::Bytes::from(all);
        assert_eq!(batch_counts(&all), (8, all.len() as u64));
        // A cut batch at the end counts as bytes only.
        let cut = all.slice(..all.len() - 3);
        assert_eq!(batch_counts(&cut).0, 3);
        assert_eq!(batch_counts(&bytes::Bytes::new()), (0, 0));
    }
}
