//! `/v1/topics` and `/v1/groups`: the JSON the status page polls, built
//! from the same shard samples and sums as `/metrics`
//! ([`crate::metrics::aggregate`]), so the page and Prometheus agree.
//!
//! The bodies here answer as this broker sees the cluster: the byte and
//! record counters are what this broker's shards served (the leaders'
//! brokers count a topic's produce), the lag is known for groups
//! coordinated here on partitions with a replica here. That is the answer
//! of a single node, of `?scope=local`, and what a peer contributes; in
//! cluster mode the endpoints merge every broker's figures
//! (`cluster_scope.rs`), since one broker alone misses the throughput of
//! the partitions others lead and the lag of the groups others
//! coordinate. Both are bounded (`?limit=`), so a broker with 10,000
//! partitions answers a page poll with a bounded body, and say when they
//! cut the list (`truncated`).

use serde_json::{Value, json};
use uuid::Uuid;

use crate::metadata::ClusterMetadata;
use crate::metrics::aggregate::{self, PartitionLag};
use crate::metrics::gather::ShardSample;

/// Topics returned when the request names no `limit`.
pub const TOPICS_LIMIT_DEFAULT: usize = 1_000;
/// Groups returned when the request names no `limit`.
pub const GROUPS_LIMIT_DEFAULT: usize = 200;
/// Partitions listed per group when the request names no `partitions`.
pub const GROUP_PARTITIONS_LIMIT_DEFAULT: usize = 100;
/// The most any `limit` or `partitions` parameter may ask for.
pub const LIMIT_MAX: usize = 10_000;

/// A topic as the metadata describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicInfo {
    pub name: String,
    pub id: Uuid,
    pub partitions: i32,
    pub replication_factor: i16,
    pub internal: bool,
}

/// Every topic of `meta`, the user topics first, each part by name (so
/// a `limit` cuts internal topics before user ones).
pub fn topic_infos(meta: &ClusterMetadata) -> Vec<TopicInfo> {
    let mut v: Vec<TopicInfo> = meta
        .topics
        .values()
        .map(|t| TopicInfo {
            name: t.name.clone(),
            id: t.id,
            partitions: t.partitions,
            replication_factor: t.replication_factor(),
            internal: t.is_internal(),
        })
        .collect();
    v.sort_by(|a, b| (a.internal, &a.name).cmp(&(b.internal, &b.name)));
    v
}

/// The `/v1/topics` body: each topic with this broker's counters
/// (`*_total`, monotonic: the page takes rates between two polls, using
/// `sampled_at_ms`) and its replicas here.
pub fn topics_json(
    node_id: i32,
    topics: &[TopicInfo],
    samples: &[ShardSample],
    limit: usize,
    sampled_at_ms: i64,
) -> Value {
    let io = aggregate::topic_io(samples);
    let replicas = aggregate::topic_replicas(samples);
    let list: Vec<Value> = topics
        .iter()
        .take(limit)
        .map(|t| {
            let c = io.get(t.name.as_str()).cloned().unwrap_or_default();
            let r = replicas.get(t.name.as_str()).copied().unwrap_or_default();
            json!({
                "topic": t.name,
                "topic_id": t.id.to_string(),
                "internal": t.internal,
                "partitions": t.partitions,
                "replication_factor": t.replication_factor,
                "records_in_total": c.records_in,
                "bytes_in_total": c.bytes_in,
                "records_out_total": c.records_out,
                "bytes_out_total": c.bytes_out,
                "partition_replicas_here": r.partitions,
                "size_bytes_here": r.size_bytes,
                "high_watermark_sum_here": r.high_watermark_sum,
            })
        })
        .collect();
    json!({
        "node_id": node_id,
        "scope": "local",
        "sampled_at_ms": sampled_at_ms,
        "topics_total": topics.len(),
        "limit": limit,
        "truncated": topics.len() > limit,
        "topics": list,
    })
}

/// The `/v1/groups` body: the groups coordinated here, most lagging
/// first (so a `limit` keeps the ones an operator looks for), each with
/// its total and largest lag and at most `partitions_max` partitions,
/// most lagging first.
pub fn groups_json(
    node_id: i32,
    samples: &[ShardSample],
    limit: usize,
    partitions_max: usize,
    sampled_at_ms: i64,
) -> Value {
    let lags = aggregate::partition_lags(samples);
    let rows: Vec<GroupRow> = samples
        .iter()
        .flat_map(|s| &s.groups)
        .map(|g| GroupRow {
            group: &g.group,
            state: g.state,
            protocol_type: &g.protocol_type,
            kind: g.kind,
            members: g.members,
            coordinator: None,
        })
        .collect();
    let (total, list) = group_list(rows, &lags, limit, partitions_max);
    json!({
        "node_id": node_id,
        "scope": "local",
        "sampled_at_ms": sampled_at_ms,
        "groups_total": total,
        "limit": limit,
        "partitions_limit": partitions_max,
        "truncated": total > limit,
        "groups": list,
    })
}

/// A group as `/v1/groups` lists it.
#[derive(Debug, Clone, Copy)]
pub struct GroupRow<'a> {
    pub group: &'a str,
    pub state: &'a str,
    pub protocol_type: &'a str,
    pub kind: &'a str,
    pub members: usize,
    /// The broker that coordinates it (the cluster-wide answer says).
    pub coordinator: Option<i32>,
}

/// `groups` most lagging first, cut at `limit`, each with at most
/// `partitions_max` of its partitions from `lags` (sorted by group), and
/// how many groups there were.
pub fn group_list(
    mut groups: Vec<GroupRow>,
    lags: &[PartitionLag],
    limit: usize,
    partitions_max: usize,
) -> (usize, Vec<Value>) {
    let totals = aggregate::lag_totals(lags);
    groups.sort_by(|a, b| {
        let lag = |g: &str| totals.get(g).map_or(0, |t| t.lag_sum);
        lag(b.group)
            .cmp(&lag(a.group))
            .then_with(|| a.group.cmp(b.group))
    });
    let total = groups.len();
    let list: Vec<Value> = groups
        .into_iter()
        .take(limit)
        .map(|g| {
            let t = totals.get(g.group).copied().unwrap_or_default();
            // `lags` is sorted by group: this group's run.
            let start = lags.partition_point(|l| l.group < g.group);
            let end = lags.partition_point(|l| l.group <= g.group);
            let mut mine: Vec<&PartitionLag> = lags[start..end].iter().collect();
            // Unknown lag (no high watermark known) after every known one.
            mine.sort_by(|a, b| {
                b.lag()
                    .unwrap_or(-1)
                    .cmp(&a.lag().unwrap_or(-1))
                    .then_with(|| (a.topic, a.partition).cmp(&(b.topic, b.partition)))
            });
            let committed = mine.len();
            let partitions: Vec<Value> = mine
                .into_iter()
                .take(partitions_max)
                .map(|l| {
                    json!({
                        "topic": l.topic,
                        "partition": l.partition,
                        "committed_offset": l.committed_offset,
                        "high_watermark": l.high_watermark,
                        "lag": l.lag(),
                    })
                })
                .collect();
            let mut j = json!({
                "group": g.group,
                "state": g.state,
                "protocol_type": g.protocol_type,
                "type": g.kind,
                "members": g.members,
                "lag_sum": t.lag_sum,
                "lag_max": t.lag_max,
                "partitions_committed": committed,
                "partitions_lag_unknown": t.partitions_unknown,
                "partitions_truncated": committed > partitions_max,
                "partitions": partitions,
            });
            if let Some(c) = g.coordinator {
                j["coordinator"] = json!(c);
            }
            j
        })
        .collect();
    (total, list)
}

/// The value of `name` in a query string (`a=1&b=2`), if present.
pub fn query_value<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The value of `name` in a query string (`a=1&b=2`) as a count: the
/// default when absent, `Err` with a message when not a number, clamped
/// to [`LIMIT_MAX`].
pub fn query_count(query: &str, name: &str, default: usize) -> Result<usize, String> {
    let Some(v) = query_value(query, name) else {
        return Ok(default);
    };
    v.parse::<usize>()
        .map(|n| n.min(LIMIT_MAX))
        .map_err(|_| format!("{name} must be a count, not {v:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::GroupListing;
    use crate::metrics::gather::{Commit, PartitionSample};
    use crate::metrics::record::{ShardStats, TopicIo};

    fn part(topic: &str, index: i32, high_watermark: i64) -> PartitionSample {
        PartitionSample {
            topic: topic.into(),
            topic_id: Uuid::nil(),
            index,
            high_watermark,
            log_start: 0,
            log_end: high_watermark,
            size_bytes: 1_000,
            memory_bytes: 0,
            is_leader: true,
            leader: 1,
            epoch: 0,
            replicas: vec![1],
            isr: Some(vec![1]),
        }
    }

    fn shard(
        id: usize,
        topics: &[(&str, u64, u64)],
        partitions: Vec<PartitionSample>,
        commits: &[(&str, &str, i32, i64)],
        groups: &[(&str, usize)],
    ) -> ShardSample {
        let mut stats = ShardStats::default();
        for (t, records, bytes) in topics {
            stats.topics.insert(
                t.to_string(),
                TopicIo {
                    records_in: *records,
                    bytes_in: *bytes,
                    records_out: records / 2,
                    bytes_out: bytes / 2,
                },
            );
        }
        ShardSample {
            shard: id,
            stats,
            partitions,
            commits: commits
                .iter()
                .map(|(g, t, p, o)| Commit {
                    group: g.to_string(),
                    topic: t.to_string(),
                    partition: *p,
                    offset: *o,
                })
                .collect(),
            groups: groups
                .iter()
                .map(|(g, members)| GroupListing {
                    group: g.to_string(),
                    state: if *members == 0 { "Empty" } else { "Stable" },
                    protocol_type: "consumer".into(),
                    kind: "classic",
                    members: *members,
                })
                .collect(),
            sync: Default::default(),
            metadata: None,
            controller_leader: Some(1),
        }
    }

    fn info(name: &str, partitions: i32) -> TopicInfo {
        TopicInfo {
            name: name.into(),
            id: Uuid::nil(),
            partitions,
            replication_factor: 1,
            internal: name.starts_with("__"),
        }
    }

    #[test]
    fn topics_sum_the_shards_and_say_when_cut() {
        let samples = vec![
            shard(
                0,
                &[("orders", 60, 6_000)],
                vec![part("orders", 0, 60)],
                &[],
                &[],
            ),
            shard(
                1,
                &[("orders", 40, 4_000), ("audit", 5, 500)],
                vec![part("orders", 1, 40), part("audit", 0, 5)],
                &[],
                &[],
            ),
        ];
        let topics = vec![info("audit", 1), info("orders", 2), info("quiet", 3)];
        let j = topics_json(1, &topics, &samples, 10, 42);
        assert_eq!(j["sampled_at_ms"], 42);
        assert_eq!(j["topics_total"], 3);
        assert_eq!(j["truncated"], false);
        let orders = &j["topics"][1];
        assert_eq!(orders["topic"], "orders");
        assert_eq!(orders["records_in_total"], 100);
        assert_eq!(orders["bytes_in_total"], 10_000);
        assert_eq!(orders["records_out_total"], 50);
        assert_eq!(orders["partition_replicas_here"], 2);
        assert_eq!(orders["size_bytes_here"], 2_000);
        assert_eq!(orders["high_watermark_sum_here"], 100);
        // A topic nobody wrote to is listed with zeros.
        let quiet = &j["topics"][2];
        assert_eq!(quiet["records_in_total"], 0);
        assert_eq!(quiet["partition_replicas_here"], 0);

        let cut = topics_json(1, &topics, &samples, 2, 42);
        assert_eq!(cut["truncated"], true);
        assert_eq!(cut["topics_total"], 3);
        assert_eq!(cut["topics"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn groups_carry_lag_most_lagging_first() {
        let samples = vec![
            shard(
                0,
                &[],
                vec![part("orders", 0, 100), part("orders", 1, 30)],
                &[
                    ("billing", "orders", 0, 40),
                    ("billing", "orders", 1, 30),
                    // No replica of `remote` here: committed, lag unknown.
                    ("billing", "remote", 0, 7),
                    ("caught-up", "orders", 0, 100),
                ],
                &[("billing", 0), ("caught-up", 2)],
            ),
            shard(
                1,
                &[],
                vec![part("orders", 2, 10)],
                // A commit past the end (a truncated log) is no lag.
                &[("caught-up", "orders", 2, 12)],
                &[("idle", 0)],
            ),
        ];
        let j = groups_json(1, &samples, 10, 10, 7);
        assert_eq!(j["groups_total"], 3);
        let g = &j["groups"];
        assert_eq!(g[0]["group"], "billing");
        assert_eq!(g[0]["lag_sum"], 60);
        assert_eq!(g[0]["lag_max"], 60);
        assert_eq!(g[0]["partitions_committed"], 3);
        assert_eq!(g[0]["partitions_lag_unknown"], 1);
        assert_eq!(g[0]["state"], "Empty");
        let p = &g[0]["partitions"];
        assert_eq!(
            (&p[0]["partition"], &p[0]["lag"], &p[0]["high_watermark"]),
            (&json!(0), &json!(60), &json!(100))
        );
        assert_eq!(p[0]["committed_offset"], 40);
        assert_eq!(p[1]["lag"], 0);
        assert_eq!(p[2]["topic"], "remote");
        assert_eq!(p[2]["lag"], Value::Null);
        // Equal lags: by group id.
        assert_eq!(g[1]["group"], "caught-up");
        assert_eq!(g[1]["lag_sum"], 0);
        assert_eq!(g[1]["members"], 2);
        assert_eq!(g[2]["group"], "idle");
        assert_eq!(g[2]["partitions"], json!([]));

        let cut = groups_json(1, &samples, 1, 1, 7);
        assert_eq!(cut["truncated"], true);
        assert_eq!(cut["groups"].as_array().unwrap().len(), 1);
        let billing = &cut["groups"][0];
        assert_eq!(billing["partitions_truncated"], true);
        assert_eq!(billing["partitions"].as_array().unwrap().len(), 1);
        // The totals cover every partition, not the listed ones.
        assert_eq!(billing["lag_sum"], 60);
        assert_eq!(billing["partitions_committed"], 3);
    }

    #[test]
    fn query_counts() {
        assert_eq!(query_count("", "limit", 5), Ok(5));
        assert_eq!(query_count("a=1&limit=20", "limit", 5), Ok(20));
        assert_eq!(query_count("limit=99999999", "limit", 5), Ok(LIMIT_MAX));
        assert!(query_count("limit=x", "limit", 5).is_err());
    }
}
