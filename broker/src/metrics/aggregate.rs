//! Per-topic and per-group figures summed from the shards' samples,
//! shared by `/metrics` ([`super::exposition`]) and the status API's
//! `/v1/topics` and `/v1/groups`, so that the status page and Prometheus
//! never disagree on a counter or a lag.

use std::collections::{BTreeMap, HashMap};

use super::gather::ShardSample;
use super::record::TopicIo;

/// Each topic's byte and record counters, summed over the shards.
pub fn topic_io(samples: &[ShardSample]) -> BTreeMap<&str, TopicIo> {
    let mut by_topic: BTreeMap<&str, TopicIo> = BTreeMap::new();
    for s in samples {
        for (t, io) in &s.stats.topics {
            let e = by_topic.entry(t.as_str()).or_default();
            e.bytes_in += io.bytes_in;
            e.records_in += io.records_in;
            e.bytes_out += io.bytes_out;
            e.records_out += io.records_out;
        }
    }
    by_topic
}

/// A topic's partition replicas on this broker.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TopicReplicas {
    pub partitions: u64,
    pub size_bytes: u64,
    /// Its rate is the topic's committed records per second.
    pub high_watermark_sum: i64,
}

/// Each topic's partition replicas on this broker, summed.
pub fn topic_replicas(samples: &[ShardSample]) -> BTreeMap<&str, TopicReplicas> {
    let mut by_topic: BTreeMap<&str, TopicReplicas> = BTreeMap::new();
    for p in samples.iter().flat_map(|s| &s.partitions) {
        let e = by_topic.entry(p.topic.as_str()).or_default();
        e.partitions += 1;
        e.size_bytes += p.size_bytes;
        e.high_watermark_sum += p.high_watermark;
    }
    by_topic
}

/// A group's committed offset of one partition, with the partition's
/// high watermark where this broker holds a replica of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PartitionLag<'a> {
    pub group: &'a str,
    pub topic: &'a str,
    pub partition: i32,
    pub committed_offset: i64,
    /// `None`: no replica of the partition here, so no lag known.
    pub high_watermark: Option<i64>,
}

impl PartitionLag<'_> {
    /// High watermark minus the committed offset (never below 0: a
    /// commit past the end, e.g. after a truncation, is no lag).
    pub fn lag(&self) -> Option<i64> {
        self.high_watermark
            .map(|h| (h - self.committed_offset).max(0))
    }
}

/// Every committed offset of the groups coordinated here, sorted by
/// group, topic and partition.
pub fn partition_lags(samples: &[ShardSample]) -> Vec<PartitionLag<'_>> {
    let hw: HashMap<(&str, i32), i64> = samples
        .iter()
        .flat_map(|s| &s.partitions)
        .map(|p| ((p.topic.as_str(), p.index), p.high_watermark))
        .collect();
    lags_of(
        samples
            .iter()
            .flat_map(|s| &s.commits)
            .map(|c| (c.group.as_str(), c.topic.as_str(), c.partition, c.offset)),
        &hw,
    )
}

/// Committed offsets `(group, topic, partition, offset)` against the
/// high watermarks in `hw`, sorted by group, topic and partition (the
/// cluster-wide `/v1/groups` joins every broker's commits with the
/// partition leaders' high watermarks through it).
pub fn lags_of<'a>(
    commits: impl Iterator<Item = (&'a str, &'a str, i32, i64)>,
    hw: &HashMap<(&str, i32), i64>,
) -> Vec<PartitionLag<'a>> {
    let mut lags: Vec<PartitionLag> = commits
        .map(|(group, topic, partition, offset)| PartitionLag {
            group,
            topic,
            partition,
            committed_offset: offset,
            high_watermark: hw.get(&(topic, partition)).copied(),
        })
        .collect();
    lags.sort();
    lags
}

/// One group's lag over its partitions whose lag is known here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LagTotals {
    pub lag_max: i64,
    pub lag_sum: i64,
    /// Committed partitions with a replica here (lag known) and without.
    pub partitions_known: usize,
    pub partitions_unknown: usize,
}

/// [`LagTotals`] by group.
pub fn lag_totals<'a>(lags: &[PartitionLag<'a>]) -> BTreeMap<&'a str, LagTotals> {
    let mut per_group: BTreeMap<&str, LagTotals> = BTreeMap::new();
    for l in lags {
        let e = per_group.entry(l.group).or_default();
        match l.lag() {
            Some(lag) => {
                e.lag_max = e.lag_max.max(lag);
                e.lag_sum += lag;
                e.partitions_known += 1;
            }
            None => e.partitions_unknown += 1,
        }
    }
    per_group
}
