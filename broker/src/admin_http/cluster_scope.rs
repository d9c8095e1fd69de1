//! The cluster-wide `/v1/topics` and `/v1/groups` (cluster mode, unless
//! the request says `?scope=local`).
//!
//! One broker only sees part of the cluster: a topic's produce is
//! counted by its partitions' leaders, a group's committed offsets are
//! held by its coordinator, and a high watermark is known where a replica
//! is. So the broker answering asks every other registered, unfenced
//! broker for its own figures ([`BrokerFigures`], over the node-to-node
//! transport at [`ADMIN_STATUS_GROUP`](crate::cluster::ADMIN_STATUS_GROUP),
//! answered by [`serve`] on the peer's shard 0 from its local samples,
//! so a peer never asks further: no recursion), all at once from this
//! broker's shard 0, each for at most [`PEER_TIMEOUT_MS`], and merges:
//!
//! * topic counters are summed over the brokers. They count what each
//!   broker's Produce and Fetch handlers served: produce only at the
//!   partition's leader (followers copy through Raft, which counts
//!   nothing), so every partition's produce is counted once; fetches
//!   where they were served (a follower serving a KIP-392 read counts
//!   that read, the leader does not);
//! * a topic's size and high watermark sum are its leaders' (one copy);
//! * a group comes from the broker that coordinates it, with its
//!   committed offsets, and each partition's lag is taken against the
//!   high watermark its leader reports, wherever that leader is.
//!
//! Brokers that are fenced, or do not answer in time, are left out and
//! named in `missing_brokers`: the answer comes within about
//! [`PEER_TIMEOUT_MS`] whatever a peer does. What a peer sends is
//! bounded by `limit` for `/v1/topics` (peers are sent the names of the
//! first `limit` topics in the answer's order and send only theirs); for
//! `/v1/groups` it is proportional to the groups, commits and partitions
//! it leads (not cut by `limit`: the merge must see every partition's lag
//! to rank groups); the HTTP answer stays cut by `limit` and
//! `partitions`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tracing::{debug, warn};

use super::status::{self, GroupRow, TopicInfo};
use crate::metadata::ClusterMetadata;
use crate::metrics::aggregate;
use crate::metrics::gather::{self, Detail, ShardSample, ShardTimeout};
use crate::shard::{Job, Shard};

/// How long the answering broker waits for its peers' figures.
pub const PEER_TIMEOUT_MS: u64 = 2_000;
/// How long a peer waits for its own shards' samples (less than
/// [`PEER_TIMEOUT_MS`]: an answer after that is wasted).
const PEER_GATHER_TIMEOUT_MS: u64 = 1_500;

/// Why a peer's question could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("bad status request: {0}")]
    Request(#[source] serde_json::Error),
    #[error("encoding the answer: {0}")]
    Encode(#[source] serde_json::Error),
    #[error(transparent)]
    Gather(#[from] ShardTimeout),
}

/// Which endpoint's figures are asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Want {
    Topics,
    Groups,
}

#[derive(Debug, Serialize, Deserialize)]
struct Ask {
    want: Want,
    /// [`Want::Topics`]: only these topics' figures (the first `limit` in
    /// the answer's order), so a peer's answer is bounded by `limit`, not
    /// by how many topics exist. Absent: every topic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    topics: Option<Vec<String>>,
}

/// One topic's figures on one broker.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicFigures {
    pub topic: String,
    pub records_in: u64,
    pub bytes_in: u64,
    pub records_out: u64,
    pub bytes_out: u64,
    /// The topic's partitions led here, their size and high watermarks.
    pub partitions_led: u64,
    pub size_bytes_led: u64,
    pub high_watermark_sum_led: i64,
}

/// A group coordinated on one broker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupFigures {
    pub group: String,
    pub state: String,
    pub protocol_type: String,
    pub kind: String,
    pub members: usize,
}

/// A committed offset held by a group's coordinator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommitFigures {
    pub group: String,
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
}

/// The high watermark of a partition led on one broker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderHighWatermark {
    pub topic: String,
    pub partition: i32,
    pub high_watermark: i64,
}

/// What one broker contributes to the cluster-wide answer: `topics` for
/// [`Want::Topics`], the rest for [`Want::Groups`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerFigures {
    pub node_id: i32,
    pub topics: Vec<TopicFigures>,
    pub groups: Vec<GroupFigures>,
    pub commits: Vec<CommitFigures>,
    pub high_watermarks: Vec<LeaderHighWatermark>,
}

impl BrokerFigures {
    /// This broker's figures from its shards' samples ([`Detail::Status`]).
    pub fn from_samples(node_id: i32, samples: &[ShardSample], want: Want) -> Self {
        let led = samples
            .iter()
            .flat_map(|s| &s.partitions)
            .filter(|p| p.is_leader);
        let mut f = BrokerFigures {
            node_id,
            ..Default::default()
        };
        match want {
            Want::Topics => {
                let mut by_topic: BTreeMap<&str, TopicFigures> = aggregate::topic_io(samples)
                    .into_iter()
                    .map(|(t, io)| {
                        let f = TopicFigures {
                            topic: t.to_string(),
                            records_in: io.records_in,
                            bytes_in: io.bytes_in,
                            records_out: io.records_out,
                            bytes_out: io.bytes_out,
                            ..Default::default()
                        };
                        (t, f)
                    })
                    .collect();
                for p in led {
                    let e = by_topic
                        .entry(p.topic.as_str())
                        .or_insert_with(|| TopicFigures {
                            topic: p.topic.clone(),
                            ..Default::default()
                        });
                    e.partitions_led += 1;
                    e.size_bytes_led += p.size_bytes;
                    e.high_watermark_sum_led += p.high_watermark;
                }
                f.topics = by_topic.into_values().collect();
            }
            Want::Groups => {
                f.groups = samples
                    .iter()
                    .flat_map(|s| &s.groups)
                    .map(|g| GroupFigures {
                        group: g.group.clone(),
                        state: g.state.to_string(),
                        protocol_type: g.protocol_type.clone(),
                        kind: g.kind.to_string(),
                        members: g.members,
                    })
                    .collect();
                f.commits = samples
                    .iter()
                    .flat_map(|s| &s.commits)
                    .map(|c| CommitFigures {
                        group: c.group.clone(),
                        topic: c.topic.clone(),
                        partition: c.partition,
                        offset: c.offset,
                    })
                    .collect();
                f.high_watermarks = led
                    .map(|p| LeaderHighWatermark {
                        topic: p.topic.clone(),
                        partition: p.index,
                        high_watermark: p.high_watermark,
                    })
                    .collect();
            }
        }
        f
    }
}

/// Answers a peer's question at
/// [`ADMIN_STATUS_GROUP`](crate::cluster::ADMIN_STATUS_GROUP) (on shard
/// 0): this broker's own figures.
pub async fn serve(shard: &Rc<Shard>, body: Bytes) -> Result<Bytes, ServeError> {
    let ask: Ask = serde_json::from_slice(&body).map_err(ServeError::Request)?;
    let samples = gather::all_shards_from(
        shard,
        Detail::Status,
        Duration::from_millis(PEER_GATHER_TIMEOUT_MS),
    )
    .await?;
    let mut f = BrokerFigures::from_samples(shard.ctx.config.node_id, &samples, ask.want);
    if let Some(names) = ask.topics {
        let wanted: BTreeSet<String> = names.into_iter().collect();
        f.topics.retain(|t| wanted.contains(&t.topic));
    }
    serde_json::to_vec(&f)
        .map(Bytes::from)
        .map_err(ServeError::Encode)
}

/// The peers' answers: the figures of those that answered, and the
/// brokers left out (fenced, or no answer in time), by id.
#[derive(Debug, Default)]
pub struct PeerFigures {
    pub figures: Vec<BrokerFigures>,
    pub missing: Vec<i32>,
}

/// Peers asked by shard 0, on their way back to the admin thread.
pub struct Pending {
    rx: mpsc::Receiver<Asked>,
    started: Instant,
}

/// What shard 0 did: the brokers it did not ask (fenced), and each
/// asked broker's raw answer.
struct Asked {
    fenced: Vec<i32>,
    answers: Vec<(i32, Result<Bytes, String>)>,
}

/// Asks every other registered broker for its figures, from shard 0 (the
/// transport lives on the shards), without waiting: the caller gathers
/// its own samples meanwhile, then [`Pending::wait`]s.
/// `topics_limit`: for [`Want::Topics`], the answer's `limit` (peers send
/// the figures of those topics only).
pub fn ask_peers(peers: &[flume::Sender<Job>], want: Want, topics_limit: usize) -> Pending {
    let (tx, rx) = mpsc::sync_channel(1);
    let job: Job = Box::new(move |s: Rc<Shard>| {
        Box::pin(async move {
            let _ = tx.send(ask_from_shard0(&s, want, topics_limit).await);
        })
    });
    // A broker stopping drops the job: `wait` then says every peer is
    // missing (it knows none).
    if let Some(p) = peers.first() {
        let _ = p.send(job);
    }
    Pending {
        rx,
        started: Instant::now(),
    }
}

async fn ask_from_shard0(s0: &Rc<Shard>, want: Want, topics_limit: usize) -> Asked {
    let me = s0.ctx.config.node_id;
    let meta = s0.metadata();
    let (mut fenced, mut live) = (Vec::new(), Vec::new());
    for b in meta.brokers.values().filter(|b| b.id != me) {
        if b.fenced {
            fenced.push(b.id);
        } else {
            live.push(b.id);
        }
    }
    let Some(net) = s0.net() else {
        let answers = live
            .into_iter()
            .map(|n| (n, Err("not in cluster mode".to_string())))
            .collect();
        return Asked { fenced, answers };
    };
    // The topics the answer lists: the first `limit` in its order.
    let topics = (want == Want::Topics).then(|| {
        status::topic_infos(&meta)
            .into_iter()
            .take(topics_limit)
            .map(|t| t.name)
            .collect()
    });
    let body = Bytes::from(serde_json::to_vec(&Ask { want, topics }).unwrap_or_default());
    let timeout = Duration::from_millis(PEER_TIMEOUT_MS);
    let calls = live.into_iter().map(|node| {
        let net = net.clone();
        let body = body.clone();
        async move {
            let call = crate::cluster::call_group(
                &net,
                node,
                crate::cluster::ADMIN_STATUS_GROUP,
                body,
                timeout,
            );
            let got = match monoio::time::timeout(timeout, call).await {
                Ok(r) => r,
                Err(_) => Err(format!("no answer within {PEER_TIMEOUT_MS} ms")),
            };
            (node, got)
        }
    });
    Asked {
        fenced,
        answers: futures_util::future::join_all(calls).await,
    }
}

/// What [`Pending::wait`] allows shard 0 beyond [`PEER_TIMEOUT_MS`] (to
/// pick the job up, and on a busy machine to be scheduled again).
const SHARD_SLACK_MS: u64 = 1_000;

impl Pending {
    /// The answers, at most [`PEER_TIMEOUT_MS`] (and [`SHARD_SLACK_MS`])
    /// after they were asked for; decoded here, off the shard. `meta`:
    /// this broker's metadata, whose other brokers are all missing if
    /// shard 0 itself does not report in time.
    pub fn wait(self, me: i32, meta: Option<&ClusterMetadata>) -> PeerFigures {
        let limit = Duration::from_millis(PEER_TIMEOUT_MS + SHARD_SLACK_MS);
        let left = limit.saturating_sub(self.started.elapsed());
        let asked = match self.rx.recv_timeout(left) {
            Ok(asked) => asked,
            Err(error) => {
                warn!(%error, "shard 0 did not report the peers' status figures in time");
                let missing = meta
                    .map(|m| m.brokers.keys().copied().filter(|&b| b != me).collect())
                    .unwrap_or_default();
                return PeerFigures {
                    figures: Vec::new(),
                    missing,
                };
            }
        };
        let mut out = PeerFigures {
            figures: Vec::new(),
            missing: asked.fenced,
        };
        for (node, got) in asked.answers {
            let decoded = got.and_then(|b| {
                serde_json::from_slice::<BrokerFigures>(&b).map_err(|e| e.to_string())
            });
            match decoded {
                Ok(f) if f.node_id == node => out.figures.push(f),
                Ok(f) => {
                    debug!(
                        node,
                        answered = f.node_id,
                        "a peer answered for another broker"
                    );
                    out.missing.push(node);
                }
                Err(error) => {
                    debug!(node, %error, "a peer's status figures are missing");
                    out.missing.push(node);
                }
            }
        }
        out.missing.sort_unstable();
        out
    }
}

/// The cluster-wide `/v1/topics` body: [`status::topics_json`] of this
/// broker (its `*_here` figures), with each topic's counters summed over
/// `figures` (this broker's included) and its leaders' size and high
/// watermark sum.
pub fn topics_json(
    node_id: i32,
    topics: &[TopicInfo],
    samples: &[ShardSample],
    figures: &[BrokerFigures],
    missing: &[i32],
    limit: usize,
    sampled_at_ms: i64,
) -> Value {
    let mut j = status::topics_json(node_id, topics, samples, limit, sampled_at_ms);
    let mut sums: HashMap<&str, TopicFigures> = HashMap::new();
    for t in figures.iter().flat_map(|f| &f.topics) {
        let e = sums.entry(t.topic.as_str()).or_default();
        e.records_in += t.records_in;
        e.bytes_in += t.bytes_in;
        e.records_out += t.records_out;
        e.bytes_out += t.bytes_out;
        e.partitions_led += t.partitions_led;
        e.size_bytes_led += t.size_bytes_led;
        e.high_watermark_sum_led += t.high_watermark_sum_led;
    }
    if let Some(list) = j["topics"].as_array_mut() {
        for t in list {
            let s = t["topic"]
                .as_str()
                .and_then(|name| sums.get(name))
                .cloned()
                .unwrap_or_default();
            t["records_in_total"] = json!(s.records_in);
            t["bytes_in_total"] = json!(s.bytes_in);
            t["records_out_total"] = json!(s.records_out);
            t["bytes_out_total"] = json!(s.bytes_out);
            t["partitions_led"] = json!(s.partitions_led);
            t["size_bytes"] = json!(s.size_bytes_led);
            t["high_watermark_sum"] = json!(s.high_watermark_sum_led);
        }
    }
    scope_cluster(&mut j, figures, missing);
    j
}

/// The cluster-wide `/v1/groups` body: every broker's groups, each with
/// the broker that coordinates it (`coordinator`) and its lag against
/// the high watermarks the partitions' leaders report.
pub fn groups_json(
    node_id: i32,
    figures: &[BrokerFigures],
    missing: &[i32],
    limit: usize,
    partitions_max: usize,
    sampled_at_ms: i64,
) -> Value {
    // Two leaders of one partition (a hand-over between two samples):
    // the higher high watermark is the newer.
    let mut hw: HashMap<(&str, i32), i64> = HashMap::new();
    for h in figures.iter().flat_map(|f| &f.high_watermarks) {
        let e = hw
            .entry((h.topic.as_str(), h.partition))
            .or_insert(i64::MIN);
        *e = (*e).max(h.high_watermark);
    }
    // A group listed by two brokers (its coordinator moved between two
    // samples): the first broker's (this one's, then by answer).
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut rows: Vec<GroupRow> = Vec::new();
    let mut coordinator: HashMap<&str, i32> = HashMap::new();
    for f in figures {
        for g in &f.groups {
            if seen.insert(g.group.as_str()) {
                coordinator.insert(g.group.as_str(), f.node_id);
                rows.push(GroupRow {
                    group: &g.group,
                    state: &g.state,
                    protocol_type: &g.protocol_type,
                    kind: &g.kind,
                    members: g.members,
                    coordinator: Some(f.node_id),
                });
            }
        }
    }
    // Commits only from the group's coordinator (another broker's copy
    // would be stale).
    let commits = figures.iter().flat_map(|f| {
        let coordinator = &coordinator;
        f.commits
            .iter()
            .filter(move |c| coordinator.get(c.group.as_str()) == Some(&f.node_id))
            .map(|c| (c.group.as_str(), c.topic.as_str(), c.partition, c.offset))
    });
    let lags = aggregate::lags_of(commits, &hw);
    let (total, list) = status::group_list(rows, &lags, limit, partitions_max);
    let mut j = json!({
        "node_id": node_id,
        "sampled_at_ms": sampled_at_ms,
        "groups_total": total,
        "limit": limit,
        "partitions_limit": partitions_max,
        "truncated": total > limit,
        "groups": list,
    });
    scope_cluster(&mut j, figures, missing);
    j
}

fn scope_cluster(j: &mut Value, figures: &[BrokerFigures], missing: &[i32]) {
    let mut answered: Vec<i32> = figures.iter().map(|f| f.node_id).collect();
    answered.sort_unstable();
    j["scope"] = json!("cluster");
    j["brokers"] = json!(answered);
    j["missing_brokers"] = json!(missing);
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn topic(name: &str, records_in: u64, led: u64, hw: i64) -> TopicFigures {
        TopicFigures {
            topic: name.into(),
            records_in,
            bytes_in: records_in * 10,
            partitions_led: led,
            size_bytes_led: led * 100,
            high_watermark_sum_led: hw,
            ..Default::default()
        }
    }

    #[test]
    fn topics_sum_the_brokers() {
        let topics = vec![TopicInfo {
            name: "orders".into(),
            id: Uuid::nil(),
            partitions: 3,
            replication_factor: 3,
            internal: false,
        }];
        let figures = vec![
            BrokerFigures {
                node_id: 1,
                topics: vec![topic("orders", 0, 0, 0)],
                ..Default::default()
            },
            BrokerFigures {
                node_id: 2,
                topics: vec![topic("orders", 60, 2, 60)],
                ..Default::default()
            },
            BrokerFigures {
                node_id: 3,
                topics: vec![topic("orders", 40, 1, 40), topic("gone", 5, 1, 5)],
                ..Default::default()
            },
        ];
        let j = topics_json(1, &topics, &[], &figures, &[4], 10, 9);
        assert_eq!(j["scope"], "cluster");
        assert_eq!(j["brokers"], json!([1, 2, 3]));
        assert_eq!(j["missing_brokers"], json!([4]));
        let t = &j["topics"][0];
        assert_eq!(t["records_in_total"], 100);
        assert_eq!(t["bytes_in_total"], 1_000);
        assert_eq!(t["partitions_led"], 3);
        assert_eq!(t["size_bytes"], 300);
        assert_eq!(t["high_watermark_sum"], 100);
        // This broker's own figures stay.
        assert_eq!(t["partition_replicas_here"], 0);
        assert_eq!(j["topics"].as_array().unwrap().len(), 1);
    }

    fn group(name: &str) -> GroupFigures {
        GroupFigures {
            group: name.into(),
            state: "Empty".into(),
            protocol_type: "consumer".into(),
            kind: "classic".into(),
            members: 0,
        }
    }

    fn commit(group: &str, topic: &str, partition: i32, offset: i64) -> CommitFigures {
        CommitFigures {
            group: group.into(),
            topic: topic.into(),
            partition,
            offset,
        }
    }

    fn hw(topic: &str, partition: i32, high_watermark: i64) -> LeaderHighWatermark {
        LeaderHighWatermark {
            topic: topic.into(),
            partition,
            high_watermark,
        }
    }

    #[test]
    fn groups_take_lag_against_the_leaders() {
        let figures = vec![
            // This broker leads orders/0 and coordinates nothing.
            BrokerFigures {
                node_id: 1,
                high_watermarks: vec![hw("orders", 0, 100)],
                ..Default::default()
            },
            // Broker 2 coordinates billing, leads orders/1.
            BrokerFigures {
                node_id: 2,
                groups: vec![group("billing")],
                commits: vec![
                    commit("billing", "orders", 0, 40),
                    commit("billing", "orders", 1, 10),
                    commit("billing", "orders", 2, 5),
                ],
                high_watermarks: vec![hw("orders", 1, 30)],
                ..Default::default()
            },
            // Broker 3 coordinates small, holds a stale copy of billing.
            BrokerFigures {
                node_id: 3,
                groups: vec![group("small"), group("billing")],
                commits: vec![
                    commit("small", "orders", 1, 29),
                    commit("billing", "orders", 0, 0),
                ],
                ..Default::default()
            },
        ];
        let j = groups_json(1, &figures, &[], 10, 10, 5);
        assert_eq!(j["groups_total"], 2);
        let g = &j["groups"][0];
        assert_eq!(g["group"], "billing");
        assert_eq!(g["coordinator"], 2);
        // 60 + 20; orders/2 has no leader answering.
        assert_eq!(g["lag_sum"], 80);
        assert_eq!(g["lag_max"], 60);
        assert_eq!(g["partitions_committed"], 3);
        assert_eq!(g["partitions_lag_unknown"], 1);
        assert_eq!(j["groups"][1]["group"], "small");
        assert_eq!(j["groups"][1]["coordinator"], 3);
        assert_eq!(j["groups"][1]["lag_sum"], 1);

        let cut = groups_json(1, &figures, &[3], 1, 1, 5);
        assert_eq!(cut["truncated"], true);
        assert_eq!(cut["missing_brokers"], json!([3]));
        assert_eq!(cut["groups"].as_array().unwrap().len(), 1);
        assert_eq!(cut["groups"][0]["partitions"].as_array().unwrap().len(), 1);
        assert_eq!(cut["groups"][0]["lag_sum"], 80);
    }

    #[test]
    fn figures_round_trip() {
        let f = BrokerFigures {
            node_id: 2,
            topics: vec![topic("orders", 1, 1, 1)],
            groups: vec![group("g")],
            commits: vec![commit("g", "orders", 0, 1)],
            high_watermarks: vec![hw("orders", 0, 3)],
        };
        let b = serde_json::to_vec(&f).unwrap();
        assert_eq!(serde_json::from_slice::<BrokerFigures>(&b).unwrap(), f);
        let ask: Ask = serde_json::from_slice(br#"{"want":"groups"}"#).unwrap();
        assert_eq!((ask.want, ask.topics), (Want::Groups, None));
        let ask = Ask {
            want: Want::Topics,
            topics: Some(vec!["orders".into()]),
        };
        let back: Ask = serde_json::from_slice(&serde_json::to_vec(&ask).unwrap()).unwrap();
        assert_eq!(back.topics, Some(vec!["orders".to_string()]));
    }
}
