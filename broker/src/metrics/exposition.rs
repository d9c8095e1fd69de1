//! `/metrics`: the shards' samples in Prometheus' text exposition format
//! (version 0.0.4), every name prefixed `tidemark_`.
//!
//! Written here rather than through `prometheus-client`: every value is
//! read at scrape time from the shards' own state (thread-local counters,
//! partitions, committed offsets), where that crate wants metric objects
//! registered once and updated live (shared atomics on the hot path) or a
//! custom collector per family; the format itself is a few lines (HELP,
//! TYPE, `name{label="value"} number`, label values escaped).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use hdrhistogram::Histogram;
use kafka_protocol::{ApiKey, ErrorCode};

use super::gather::ShardSample;
use super::record::ApiStats;
use super::view::ClusterView;
use crate::BrokerContext;

/// Request latency buckets (seconds).
const LATENCY_BUCKETS_S: [f64; 16] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

/// The text being written.
struct Out {
    text: String,
}

impl Out {
    fn family(&mut self, name: &str, kind: &str, help: &str) {
        let _ = writeln!(self.text, "# HELP tidemark_{name} {help}");
        let _ = writeln!(self.text, "# TYPE tidemark_{name} {kind}");
    }

    fn sample(&mut self, name: &str, labels: &[(&str, &str)], value: impl std::fmt::Display) {
        self.text.push_str("tidemark_");
        self.text.push_str(name);
        if !labels.is_empty() {
            self.text.push('{');
            for (i, (k, v)) in labels.iter().enumerate() {
                if i > 0 {
                    self.text.push(',');
                }
                self.text.push_str(k);
                self.text.push_str("=\"");
                escape_into(&mut self.text, v);
                self.text.push('"');
            }
            self.text.push('}');
        }
        let _ = writeln!(self.text, " {value}");
    }

    /// One histogram series: cumulative `_bucket`s, `_sum`, `_count`.
    fn histogram(
        &mut self,
        name: &str,
        labels: &[(&str, &str)],
        buckets: &[(String, u64)],
        sum: f64,
        count: u64,
    ) {
        let bucket = format!("{name}_bucket");
        for (le, n) in buckets {
            let mut l = labels.to_vec();
            l.push(("le", le));
            self.sample(&bucket, &l, n);
        }
        let mut l = labels.to_vec();
        l.push(("le", "+Inf"));
        self.sample(&bucket, &l, count);
        self.sample(&format!("{name}_sum"), labels, sum);
        self.sample(&format!("{name}_count"), labels, count);
    }
}

/// Label values escape backslash, double quote and newline.
fn escape_into(out: &mut String, v: &str) {
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
}

/// Process figures read from /proc and statvfs.
pub struct Host {
    pub rss_bytes: Option<u64>,
    pub disk_free_bytes: Option<u64>,
    pub disk_total_bytes: Option<u64>,
}

impl Host {
    pub fn read(data_dir: &std::path::Path) -> Host {
        let rss_bytes = resident_bytes();
        let (disk_free_bytes, disk_total_bytes) = statvfs(data_dir).unzip();
        Host {
            rss_bytes,
            disk_free_bytes,
            disk_total_bytes,
        }
    }
}

/// This process's resident size, from `/proc/self/statm` (its second
/// field, in pages).
pub fn resident_bytes() -> Option<u64> {
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let page = if page > 0 { page as u64 } else { 4096 };
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page)
}

fn statvfs(path: &std::path::Path) -> Option<(u64, u64)> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs writes into the zeroed struct we own; `c` is a valid
    // NUL-terminated path for the duration of the call.
    unsafe {
        let mut st: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(c.as_ptr(), &mut st) != 0 {
            return None;
        }
        let frsize = st.f_frsize as u64;
        Some((st.f_bavail as u64 * frsize, st.f_blocks as u64 * frsize))
    }
}

/// The whole exposition. `partition_series_max`: above this many
/// partition replicas (or committed group partitions), the per-partition
/// series are left out and only the per-topic (per-group) ones remain.
pub fn render(
    ctx: &BrokerContext,
    samples: &[ShardSample],
    view: &ClusterView,
    host: &Host,
    partition_series_max: usize,
) -> String {
    let mut o = Out {
        text: String::with_capacity(64 * 1024),
    };
    requests(&mut o, samples);
    topics_io(&mut o, samples);
    partitions(&mut o, samples, view, partition_series_max);
    groups(&mut o, samples, partition_series_max);
    raft(&mut o, samples);
    resources(&mut o, ctx, samples, host);
    throttle(&mut o, samples);
    o.text
}

fn api_name(key: i16) -> String {
    ApiKey::from_i16(key)
        .map(|k| k.name().to_string())
        .unwrap_or_else(|| key.to_string())
}

fn requests(o: &mut Out, samples: &[ShardSample]) {
    let mut merged: BTreeMap<String, ApiStats> = BTreeMap::new();
    for s in samples {
        for (key, a) in &s.stats.apis {
            let e = merged.entry(api_name(*key)).or_insert_with(|| ApiStats {
                latency_us: Histogram::new_from(&a.latency_us),
                latency_sum_us: 0,
                errors: HashMap::new(),
            });
            let _ = e.latency_us.add(&a.latency_us);
            e.latency_sum_us = e.latency_sum_us.saturating_add(a.latency_sum_us);
            for (code, n) in &a.errors {
                *e.errors.entry(*code).or_default() += n;
            }
        }
    }
    o.family(
        "request_latency_seconds",
        "histogram",
        "Time from a request's arrival to its response, by API.",
    );
    for (api, a) in &merged {
        let (h, sum_us) = (&a.latency_us, a.latency_sum_us);
        let buckets: Vec<(String, u64)> = LATENCY_BUCKETS_S
            .iter()
            .map(|le| {
                let us = (le * 1e6) as u64;
                (le.to_string(), h.count_between(0, us))
            })
            .collect();
        o.histogram(
            "request_latency_seconds",
            &[("api", api)],
            &buckets,
            sum_us as f64 / 1e6,
            h.len(),
        );
    }
    o.family("requests_total", "counter", "Requests answered, by API.");
    for (api, a) in &merged {
        o.sample("requests_total", &[("api", api)], a.latency_us.len());
    }
    o.family(
        "request_errors_total",
        "counter",
        "Error codes in responses, by API and Kafka error name (one per failed partition, topic or group, as Kafka's errorCounts).",
    );
    for (api, a) in &merged {
        let mut codes: Vec<_> = a.errors.iter().collect();
        codes.sort();
        for (code, n) in codes {
            let name = ErrorCode::from_code(*code)
                .map(|e| e.name().to_string())
                .unwrap_or_else(|| code.to_string());
            let code_text = code.to_string();
            o.sample(
                "request_errors_total",
                &[("api", api), ("error", &name), ("code", &code_text)],
                n,
            );
        }
    }
}

fn topics_io(o: &mut Out, samples: &[ShardSample]) {
    let by_topic = super::aggregate::topic_io(samples);
    type Field = fn(&super::record::TopicIo) -> u64;
    let families: [(&str, &str, Field); 4] = [
        (
            "topic_records_in_total",
            "Records appended by producers, by topic.",
            |t| t.records_in,
        ),
        (
            "topic_bytes_in_total",
            "Record batch bytes appended by producers, by topic.",
            |t| t.bytes_in,
        ),
        (
            "topic_records_out_total",
            "Records handed to consumers by Fetch, by topic.",
            |t| t.records_out,
        ),
        (
            "topic_bytes_out_total",
            "Record batch bytes handed to consumers by Fetch, by topic.",
            |t| t.bytes_out,
        ),
    ];
    for (name, help, f) in families {
        o.family(name, "counter", help);
        for (t, io) in &by_topic {
            o.sample(name, &[("topic", t)], f(io));
        }
    }
}

fn partitions(o: &mut Out, samples: &[ShardSample], view: &ClusterView, max: usize) {
    let all: Vec<_> = samples.iter().flat_map(|s| &s.partitions).collect();
    if all.len() <= max {
        type Field = fn(&super::gather::PartitionSample) -> i64;
        let families: [(&str, &str, Field); 3] = [
            (
                "partition_high_watermark",
                "High watermark of each partition replica on this broker.",
                |p| p.high_watermark,
            ),
            (
                "partition_log_start_offset",
                "Log start offset of each partition replica on this broker.",
                |p| p.log_start,
            ),
            (
                "partition_size_bytes",
                "Bytes of each partition replica's log on this broker.",
                |p| p.size_bytes as i64,
            ),
        ];
        let mut sorted = all.clone();
        sorted.sort_by(|a, b| (&a.topic, a.index).cmp(&(&b.topic, b.index)));
        for (name, help, f) in families {
            o.family(name, "gauge", help);
            for p in &sorted {
                let idx = p.index.to_string();
                o.sample(name, &[("topic", &p.topic), ("partition", &idx)], f(p));
            }
        }
    }
    let by_topic = super::aggregate::topic_replicas(samples);
    o.family(
        "topic_partitions",
        "gauge",
        "Partition replicas of each topic on this broker.",
    );
    for (t, r) in &by_topic {
        o.sample("topic_partitions", &[("topic", t)], r.partitions);
    }
    o.family(
        "topic_size_bytes",
        "gauge",
        "Bytes of each topic's partition replicas on this broker.",
    );
    for (t, r) in &by_topic {
        o.sample("topic_size_bytes", &[("topic", t)], r.size_bytes);
    }
    o.family(
        "topic_high_watermark_sum",
        "gauge",
        "Sum of the high watermarks of each topic's partition replicas on this broker (its rate is the topic's committed records per second).",
    );
    for (t, r) in &by_topic {
        o.sample(
            "topic_high_watermark_sum",
            &[("topic", t)],
            r.high_watermark_sum,
        );
    }
    let led_short = all
        .iter()
        .filter(|p| p.is_leader && p.isr.as_ref().is_some_and(|i| i.len() < p.replicas.len()))
        .count();
    o.family(
        "under_replicated_partitions",
        "gauge",
        "Partitions this broker leads whose in-sync replicas are fewer than their replicas (Kafka's UnderReplicatedPartitions; sum over brokers).",
    );
    o.sample("under_replicated_partitions", &[], led_short);
    o.family(
        "leaderless_partitions",
        "gauge",
        "Partitions of the cluster without a leader as this broker sees them (a replica here that knows none, or every replica on a fenced broker); take the max over brokers.",
    );
    o.sample("leaderless_partitions", &[], view.leaderless.len());
    o.family(
        "cluster_under_replicated_partitions",
        "gauge",
        "Partitions of the cluster short of replicas as this broker sees them (led here with a short in-sync set, or a replica on a fenced broker).",
    );
    o.sample(
        "cluster_under_replicated_partitions",
        &[],
        view.under_replicated.len(),
    );
    o.family(
        "brokers",
        "gauge",
        "Registered brokers by state (up: not fenced).",
    );
    let up = view.brokers.iter().filter(|b| b.alive).count();
    o.sample("brokers", &[("state", "up")], up);
    o.sample("brokers", &[("state", "down")], view.brokers.len() - up);
    o.family(
        "controller_has_leader",
        "gauge",
        "1 when the controller group has a leader.",
    );
    o.sample(
        "controller_has_leader",
        &[],
        u8::from(view.controller_leader.is_some()),
    );
}

fn groups(o: &mut Out, samples: &[ShardSample], max: usize) {
    let all = super::aggregate::partition_lags(samples);
    // Only partitions with a replica here have a lag to export.
    let known: Vec<_> = all.iter().filter(|l| l.lag().is_some()).copied().collect();
    if known.len() <= max {
        o.family(
            "group_lag",
            "gauge",
            "High watermark minus the group's committed offset, by group, topic and partition (groups coordinated here, partitions with a replica here).",
        );
        for l in &known {
            let idx = l.partition.to_string();
            o.sample(
                "group_lag",
                &[("group", l.group), ("topic", l.topic), ("partition", &idx)],
                l.lag().unwrap_or(0),
            );
        }
    }
    let per_group = super::aggregate::lag_totals(&known);
    o.family(
        "group_lag_max",
        "gauge",
        "The largest partition lag of each group coordinated here.",
    );
    for (g, t) in &per_group {
        o.sample("group_lag_max", &[("group", g)], t.lag_max);
    }
    o.family(
        "group_lag_sum",
        "gauge",
        "The total lag of each group coordinated here.",
    );
    for (g, t) in &per_group {
        o.sample("group_lag_sum", &[("group", g)], t.lag_sum);
    }
}

fn raft(o: &mut Out, samples: &[ShardSample]) {
    let elections: u64 = samples.iter().map(|s| s.stats.elections).sum();
    let changes: u64 = samples.iter().map(|s| s.stats.leader_changes).sum();
    o.family(
        "raft_elections_total",
        "counter",
        "New leader epochs (Raft terms) seen by the partition replicas on this broker.",
    );
    o.sample("raft_elections_total", &[], elections);
    o.family(
        "raft_leader_changes_total",
        "counter",
        "Leader changes seen by the partition replicas on this broker.",
    );
    o.sample("raft_leader_changes_total", &[], changes);
    o.family(
        "fetch_follower_reads_total",
        "counter",
        "Partition reads this broker served to consumers as a follower (KIP-392 follower fetching).",
    );
    o.sample(
        "fetch_follower_reads_total",
        &[],
        samples.iter().map(|s| s.stats.follower_reads).sum::<u64>(),
    );
    o.family(
        "fetch_preferred_replica_redirects_total",
        "counter",
        "Consumer fetches this broker, as leader, answered with a preferred read replica in the consumer's rack (replica.selector.class).",
    );
    o.sample(
        "fetch_preferred_replica_redirects_total",
        &[],
        samples
            .iter()
            .map(|s| s.stats.read_replica_redirects)
            .sum::<u64>(),
    );
    let mut sync = tidemark_storage::sync_stats::SyncLatency::default();
    for s in samples {
        sync.merge(&s.sync);
    }
    let mut cumulative = 0;
    let buckets: Vec<(String, u64)> = tidemark_storage::sync_stats::SYNC_BUCKETS_US
        .iter()
        .zip(sync.buckets.iter())
        .map(|(le, n)| {
            cumulative += n;
            ((*le as f64 / 1e6).to_string(), cumulative)
        })
        .collect();
    o.family(
        "fdatasync_seconds",
        "histogram",
        "Time each segment fdatasync took.",
    );
    o.histogram(
        "fdatasync_seconds",
        &[],
        &buckets,
        sync.sum_us as f64 / 1e6,
        sync.count,
    );
}

fn resources(o: &mut Out, ctx: &BrokerContext, samples: &[ShardSample], host: &Host) {
    use std::sync::atomic::Ordering;
    o.family(
        "produce_memory_bytes",
        "gauge",
        "Bytes of produce requests held (bounded by queued.max.request.bytes).",
    );
    o.sample(
        "produce_memory_bytes",
        &[],
        ctx.inflight_produce_bytes.load(Ordering::Relaxed).max(0),
    );
    let cache: usize = samples
        .iter()
        .flat_map(|s| &s.partitions)
        .map(|p| p.memory_bytes)
        .sum();
    o.family(
        "cache_bytes",
        "gauge",
        "Heap bytes of the logs' tail caches and in-memory indexes.",
    );
    o.sample("cache_bytes", &[], cache);
    if let Some(rss) = host.rss_bytes {
        o.family(
            "resident_memory_bytes",
            "gauge",
            "Resident set size of the broker process.",
        );
        o.sample("resident_memory_bytes", &[], rss);
    }
    let (trims, trim_s, trim_max_s, trimmed) = ctx.memory_trims.snapshot();
    o.family(
        "memory_trims_total",
        "counter",
        "Times freed heap memory was handed back to the system (memory.trim.interval.ms).",
    );
    o.sample("memory_trims_total", &[], trims);
    o.family(
        "memory_trim_seconds_total",
        "counter",
        "Time those trims took, summed (a shard allocating from the arena being trimmed waits meanwhile).",
    );
    o.sample("memory_trim_seconds_total", &[], trim_s);
    o.family(
        "memory_trim_max_seconds",
        "gauge",
        "The longest single trim since start.",
    );
    o.sample("memory_trim_max_seconds", &[], trim_max_s);
    o.family(
        "memory_trimmed_bytes_total",
        "counter",
        "Resident bytes the trims released, summed.",
    );
    o.sample("memory_trimmed_bytes_total", &[], trimmed);
    if let (Some(free), Some(total)) = (host.disk_free_bytes, host.disk_total_bytes) {
        o.family(
            "disk_free_bytes",
            "gauge",
            "Bytes free to the broker on the data folder's file system.",
        );
        o.sample("disk_free_bytes", &[], free);
        o.family(
            "disk_total_bytes",
            "gauge",
            "Size of the data folder's file system.",
        );
        o.sample("disk_total_bytes", &[], total);
    }
    // The full-disk guard (`disk_space.rs`): 1 for the current state.
    let disk = ctx.disk_space.usage();
    o.family(
        "disk_space_state",
        "gauge",
        "The full-disk guard's state: ok, alert (below log.dir.free.alert.percent) or low (below the minimum: produce to user topics refused).",
    );
    for (name, state) in [
        ("ok", crate::disk_space::DiskState::Ok),
        ("alert", crate::disk_space::DiskState::Alert),
        ("low", crate::disk_space::DiskState::Low),
    ] {
        o.sample(
            "disk_space_state",
            &[("state", name)],
            u64::from(disk.state == state),
        );
    }
    o.family(
        "disk_min_free_bytes",
        "gauge",
        "Free bytes below which produce to user topics is refused.",
    );
    o.sample("disk_min_free_bytes", &[], disk.min_free_bytes);
    let mut conns: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for s in samples {
        for (l, (opened, closed)) in &s.stats.connections {
            let e = conns.entry(l.as_str()).or_default();
            e.0 += opened;
            e.1 += closed;
        }
    }
    o.family(
        "connections",
        "gauge",
        "Open client connections, by listener.",
    );
    for (l, (opened, closed)) in &conns {
        o.sample(
            "connections",
            &[("listener", l)],
            opened.saturating_sub(*closed),
        );
    }
    o.family(
        "connections_accepted_total",
        "counter",
        "Client connections accepted, by listener.",
    );
    for (l, (opened, _)) in &conns {
        o.sample("connections_accepted_total", &[("listener", l)], opened);
    }
}

fn throttle(o: &mut Out, samples: &[ShardSample]) {
    let mut by_client: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for s in samples {
        for (c, t) in &s.stats.throttle {
            let e = by_client.entry(c.as_str()).or_default();
            e.0 += t.count;
            e.1 += t.sum_ms;
        }
    }
    o.family(
        "throttled_responses_total",
        "counter",
        "Responses that carried a throttle time, by client id.",
    );
    for (c, (n, _)) in &by_client {
        o.sample("throttled_responses_total", &[("client_id", c)], n);
    }
    o.family(
        "throttle_time_ms_total",
        "counter",
        "Throttle time given to each client id, in milliseconds.",
    );
    for (c, (_, ms)) in &by_client {
        o.sample("throttle_time_ms_total", &[("client_id", c)], ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_values_are_escaped() {
        let mut o = Out {
            text: String::new(),
        };
        o.sample("x", &[("a", "q\"b\\\nc")], 1);
        assert_eq!(o.text, "tidemark_x{a=\"q\\\"b\\\\\\nc\"} 1\n");
    }
}
