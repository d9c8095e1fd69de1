//! `tmk topic consume`: fetches assigned partitions from their leaders and
//! prints each record as rpk's JSON or a `-f` format string. Start and stop
//! offsets come from rpk's `-o` grammar, resolved with ListOffsets before
//! the first fetch, so `-o :end` stops at the end as it was at the start.
//!
//! With `-g GROUP`, tmk joins the group as a classic member (the client's
//! `GroupConsumer`, range assignor), starts from the group's commits (else
//! from `-o start|end`), and commits what it printed after each poll and
//! before leaving, as rpk does.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{SystemTime, UNIX_EPOCH};

use tidemark_client::admin::OffsetSpec;
use tidemark_client::consumer::{
    FetcherConfig, GroupConfig, GroupConsumer, IsolationLevel, OffsetReset, ReadReplicas,
    ReplicaAnswer,
};
use tidemark_client::kafka_protocol::generated::FetchRequest;
use tidemark_client::kafka_protocol::generated::fetch_request::{FetchPartition, FetchTopic};
use tidemark_client::kafka_protocol::records::{RecordBatches, TimestampType};
use tidemark_client::kafka_protocol::{ApiKey, ErrorCode};
use tidemark_client::{Client, Route};

use super::{connect, kerr};
use crate::cli::{ConnFlags, TopicConsume};
use crate::errors::{Result, TmkError};
use crate::format::print::{Formatter, PartInfo, Rec, append_json};
use crate::output::write_stdout;
use crate::spec::{Start, Stop, parse_offset};

/// The Fetch version used: 12 names topics (13+ use topic ids) and has
/// everything printed here.
const FETCH_VERSION: i16 = 12;

struct Part {
    topic: String,
    partition: i32,
    next: i64,
    stop: Option<i64>,
    info: PartInfo,
}

enum Out {
    Json { pretty: bool, meta_only: bool },
    Fmt(Formatter),
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn offsets(
    client: &Client,
    tps: &[(String, i32)],
    spec: OffsetSpec,
    committed: bool,
) -> Result<BTreeMap<(String, i32), i64>> {
    let res = client
        .list_offsets(tps, spec, committed)
        .map_err(|e| kerr("listing offsets", e))?;
    let mut m = BTreeMap::new();
    for (tp, r) in res {
        let o = r.map_err(|e| kerr(&format!("listing offsets of {}/{}", tp.0, tp.1), e))?;
        m.insert(tp, o.offset);
    }
    Ok(m)
}

pub fn run(conn: &ConnFlags, c: TopicConsume) -> Result<()> {
    let mut out = if c.format == "json" {
        Out::Json {
            pretty: c.pretty_print,
            meta_only: c.meta_only,
        }
    } else {
        Out::Fmt(
            Formatter::new(&c.format)
                .map_err(|e| TmkError::msg(format!("invalid --format: {e}")))?,
        )
    };
    if c.group.is_some() && !c.partitions.is_empty() {
        return Err(TmkError::msg(
            "invalid flags: only one of --partitions and --group can be specified",
        ));
    }
    let (start, stop) = parse_offset(&c.offset, now_ms())?;
    let client = connect(conn)?;
    if let Some(g) = c.group.clone() {
        return group_consume(client, &c, &g, start, stop, out);
    }
    let all = client
        .list_topics()
        .map_err(|e| kerr("listing topics", e))?;
    let topics: Vec<String> = if c.regex {
        let res = c
            .topics
            .iter()
            .map(|t| {
                regex::Regex::new(t).map_err(|e| TmkError::msg(format!("invalid regex {t:?}: {e}")))
            })
            .collect::<Result<Vec<_>>>()?;
        all.iter()
            .filter(|t| !t.internal && res.iter().any(|r| r.is_match(&t.name)))
            .map(|t| t.name.clone())
            .collect()
    } else {
        for t in &c.topics {
            if !all.iter().any(|x| &x.name == t) {
                return Err(
                    TmkError::kafka(format!("unable to consume topic {t:?}"), 3, None)
                        .unwrap_or_else(|| TmkError::msg(format!("unknown topic {t}"))),
                );
            }
        }
        c.topics.clone()
    };
    let mut tps: Vec<(String, i32)> = Vec::new();
    for t in &topics {
        let Some(info) = all.iter().find(|x| &x.name == t) else {
            continue;
        };
        let mut ps: Vec<i32> = info.partitions.iter().map(|p| p.partition).collect();
        ps.sort();
        if !c.partitions.is_empty() {
            for p in &c.partitions {
                if !ps.contains(p) {
                    return Err(TmkError::kafka(format!("consuming {t}/{p}"), 3, None)
                        .unwrap_or_else(|| TmkError::msg("unknown partition")));
                }
            }
            ps = c.partitions.clone();
        }
        tps.extend(ps.into_iter().map(|p| (t.clone(), p)));
    }
    if tps.is_empty() {
        return Ok(());
    }
    let earliest = offsets(&client, &tps, OffsetSpec::Earliest, false)?;
    let latest = offsets(&client, &tps, OffsetSpec::Latest, c.read_committed)?;
    let at_time = |t: i64| -> Result<BTreeMap<(String, i32), i64>> {
        let mut m = offsets(&client, &tps, OffsetSpec::Timestamp(t), false)?;
        for (tp, o) in m.iter_mut() {
            if *o < 0 {
                *o = latest.get(tp).copied().unwrap_or(0);
            }
        }
        Ok(m)
    };
    let starts: BTreeMap<(String, i32), i64> = match start {
        Start::Beginning(n) => earliest.iter().map(|(tp, o)| (tp.clone(), o + n)).collect(),
        Start::End(n) => latest
            .iter()
            .map(|(tp, o)| {
                (
                    tp.clone(),
                    (o - n).max(earliest.get(tp).copied().unwrap_or(0)),
                )
            })
            .collect(),
        Start::Exact(n) => tps.iter().map(|tp| (tp.clone(), n)).collect(),
        Start::Time(t) => at_time(t)?,
    };
    let stops: Option<BTreeMap<(String, i32), i64>> = match stop {
        Stop::Never => None,
        Stop::CurrentEnd => Some(latest.clone()),
        Stop::Exact(n) => Some(tps.iter().map(|tp| (tp.clone(), n)).collect()),
        Stop::Time(t) => Some(at_time(t)?),
    };
    let mut committed: BTreeMap<(String, i32), i64> = BTreeMap::new();
    if let Some(g) = &c.group {
        let req: Vec<(String, Vec<i32>)> = {
            let mut m: BTreeMap<String, Vec<i32>> = BTreeMap::new();
            for (t, p) in &tps {
                m.entry(t.clone()).or_default().push(*p);
            }
            m.into_iter().collect()
        };
        let res = client
            .offset_fetch(g, Some(&req))
            .map_err(|e| kerr(&format!("fetching the offsets of group {g}"), e))?;
        for (tp, r) in res {
            if let Ok(o) = r
                && o.offset >= 0
            {
                committed.insert(tp, o.offset);
            }
        }
    }
    let mut parts: Vec<Part> = tps
        .iter()
        .map(|tp| Part {
            topic: tp.0.clone(),
            partition: tp.1,
            next: committed
                .get(tp)
                .or_else(|| starts.get(tp))
                .copied()
                .unwrap_or(0),
            stop: stops.as_ref().and_then(|s| s.get(tp).copied()),
            info: PartInfo::default(),
        })
        .filter(|p| p.stop.is_none_or(|s| p.next < s))
        .collect();
    let mut count = 0u64;
    let mut buf = Vec::new();
    // --rack: a leader may point a partition at a replica in our rack.
    let mut replicas = ReadReplicas::new(
        c.rack.clone(),
        FetcherConfig::default().preferred_replica_ttl_ms,
    );
    while !parts.is_empty() {
        // By the broker asked: each partition's leader or preferred replica.
        let mut by_node: BTreeMap<i32, Vec<usize>> = BTreeMap::new();
        let mut leaders: Vec<i32> = Vec::with_capacity(parts.len());
        for (i, p) in parts.iter().enumerate() {
            let leader = client.leader_for(&p.topic, p.partition).map_err(|e| {
                kerr(
                    &format!("finding the leader of {}/{}", p.topic, p.partition),
                    e,
                )
            })?;
            leaders.push(leader);
            let node = replicas.route(&p.topic, p.partition, leader);
            by_node.entry(node).or_default().push(i);
        }
        let wait = if by_node.len() > 1 {
            500
        } else {
            c.fetch_max_wait.min(i32::MAX as u64) as i32
        };
        let mut finished: BTreeSet<usize> = BTreeSet::new();
        for (node, idxs) in by_node {
            let mut topics: BTreeMap<String, Vec<FetchPartition>> = BTreeMap::new();
            for &i in &idxs {
                let p = &parts[i];
                topics
                    .entry(p.topic.clone())
                    .or_default()
                    .push(FetchPartition {
                        partition: p.partition,
                        current_leader_epoch: -1,
                        fetch_offset: p.next,
                        last_fetched_epoch: -1,
                        log_start_offset: -1,
                        partition_max_bytes: c.fetch_max_bytes,
                        ..Default::default()
                    });
            }
            let req = FetchRequest {
                replica_id: -1,
                max_wait_ms: wait,
                min_bytes: 1,
                max_bytes: c.fetch_max_bytes,
                isolation_level: i8::from(c.read_committed),
                session_id: 0,
                session_epoch: -1,
                topics: topics
                    .into_iter()
                    .map(|(topic, partitions)| FetchTopic {
                        topic,
                        partitions,
                        ..Default::default()
                    })
                    .collect(),
                rack_id: replicas.rack_id().to_string(),
                ..Default::default()
            };
            let version = match fetch_version(&client, node) {
                Ok(v) => v,
                // A preferred replica that cannot be reached: its
                // partitions go back to their leaders.
                Err(_) if idxs.iter().any(|&i| leaders[i] != node) => {
                    replicas.forget_node(node);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let resp = match client.send_to_version(Route::Node(node), req, version) {
                Ok(r) => r,
                Err(e) if e.is_retriable() => {
                    replicas.forget_node(node);
                    let _ = client.refresh_topics(&topics_of(&parts));
                    continue;
                }
                Err(e) => return Err(kerr("fetching", e)),
            };
            for t in resp.responses {
                for pd in t.partitions {
                    let Some(i) = idxs.iter().copied().find(|&i| {
                        parts[i].topic == t.topic && parts[i].partition == pd.partition_index
                    }) else {
                        continue;
                    };
                    let part = &mut parts[i];
                    let code = ErrorCode::from_code(pd.error_code)
                        .unwrap_or(ErrorCode::UnknownServerError);
                    if replicas.on_answer(
                        &part.topic,
                        part.partition,
                        node,
                        leaders[i],
                        pd.preferred_read_replica,
                        code,
                    ) == ReplicaAnswer::BackToLeader
                    {
                        // A replica that is not the leader failed (behind,
                        // gone, moved): read from the leader again, from
                        // the same position.
                        if code.is_retriable() {
                            let _ = client.refresh_topics(std::slice::from_ref(&part.topic));
                        }
                        continue;
                    }
                    match pd.error_code {
                        0 => {}
                        1 => {
                            // OFFSET_OUT_OF_RANGE: restart from the log start.
                            part.next = pd.log_start_offset.max(0);
                            continue;
                        }
                        code => {
                            if let Some(e) = TmkError::kafka(
                                format!("topic {} partition {}", part.topic, part.partition),
                                code,
                                None,
                            ) {
                                if matches!(code, 6 | 74 | 75 | 3 | 5) {
                                    let _ =
                                        client.refresh_topics(std::slice::from_ref(&part.topic));
                                } else {
                                    eprintln!("ERR: {e}");
                                }
                            }
                            continue;
                        }
                    }
                    part.info = PartInfo {
                        log_start_offset: pd.log_start_offset,
                        last_stable_offset: pd.last_stable_offset,
                        high_watermark: pd.high_watermark,
                    };
                    // Kafka's rule: an aborted transaction opens at its first
                    // offset (each once, in offset order) and closes at its
                    // producer's next control batch.
                    let mut aborted: Vec<(i64, i64)> = pd
                        .aborted_transactions
                        .iter()
                        .flatten()
                        .map(|a| (a.first_offset, a.producer_id))
                        .collect();
                    aborted.sort();
                    let mut aborted = std::collections::VecDeque::from(aborted);
                    let Some(bytes) = pd.records else { continue };
                    let mut open_aborts: BTreeSet<i64> = BTreeSet::new();
                    for batch in RecordBatches::new(bytes) {
                        let Ok(batch) = batch else { break };
                        let next_after = batch.next_offset();
                        if c.read_committed {
                            while aborted
                                .front()
                                .is_some_and(|(first, _)| *first <= batch.last_offset())
                            {
                                if let Some((_, pid)) = aborted.pop_front() {
                                    open_aborts.insert(pid);
                                }
                            }
                        }
                        let aborted_batch =
                            batch.is_transactional() && open_aborts.contains(&batch.producer_id());
                        if batch.is_control() {
                            open_aborts.remove(&batch.producer_id());
                        }
                        let skip =
                            aborted_batch || (batch.is_control() && !c.print_control_records);
                        if !skip {
                            let recs = batch.decompressed_records(256 << 20).map_err(|e| {
                                TmkError::msg(format!(
                                    "decoding a batch of {}/{} at {}: {e}",
                                    part.topic,
                                    part.partition,
                                    batch.base_offset()
                                ))
                            })?;
                            for r in recs {
                                let Ok(r) = r else { break };
                                if r.offset() < part.next {
                                    continue;
                                }
                                if part.stop.is_some_and(|s| r.offset() >= s) {
                                    break;
                                }
                                let headers: Vec<(String, Option<Vec<u8>>)> = r
                                    .headers()
                                    .iter()
                                    .map(|h| {
                                        (
                                            String::from_utf8_lossy(&h.key).into_owned(),
                                            h.value.as_ref().map(|v| v.to_vec()),
                                        )
                                    })
                                    .collect();
                                let rec = Rec {
                                    topic: &part.topic,
                                    partition: part.partition,
                                    offset: r.offset(),
                                    timestamp: r.timestamp(),
                                    timestamp_type: match batch.timestamp_type() {
                                        TimestampType::LogAppendTime => 1,
                                        _ => 0,
                                    },
                                    leader_epoch: batch.partition_leader_epoch(),
                                    key: r.key().map(|k| &k[..]),
                                    value: r.value().map(|v| &v[..]),
                                    headers: &headers,
                                    producer_id: batch.producer_id(),
                                    producer_epoch: batch.producer_epoch(),
                                    compression: batch.compression().id(),
                                    transactional: batch.is_transactional(),
                                    control: batch.is_control(),
                                };
                                match &mut out {
                                    Out::Json { pretty, meta_only } => {
                                        append_json(&mut buf, &rec, *pretty, *meta_only)
                                    }
                                    Out::Fmt(f) => f.append(&mut buf, &rec, Some(&part.info)),
                                }
                                part.next = r.offset() + 1;
                                count += 1;
                                if c.num > 0 && count >= c.num {
                                    return write_stdout(&buf);
                                }
                            }
                        }
                        part.next = part.next.max(next_after);
                        if part.stop.is_some_and(|s| part.next >= s) {
                            break;
                        }
                    }
                    if part.stop.is_some_and(|s| part.next >= s) {
                        finished.insert(i);
                    }
                }
            }
            write_stdout(&buf)?;
            buf.clear();
        }
        let mut i = 0;
        parts.retain(|_| {
            let keep = !finished.contains(&i);
            i += 1;
            keep
        });
    }
    Ok(())
}

/// `-g`: a member of the group until `-n` records are printed (or Ctrl-C).
fn group_consume(
    client: Client,
    c: &TopicConsume,
    group: &str,
    start: Start,
    stop: Stop,
    mut out: Out,
) -> Result<()> {
    if stop != Stop::Never {
        return Err(TmkError::msg(
            "invalid flags: group consuming is not supported with consume-until offsets",
        )
        .with_hint("use -o start or -o end with -g"));
    }
    let reset = match start {
        Start::Beginning(0) => OffsetReset::Earliest,
        Start::End(0) => OffsetReset::Latest,
        _ => {
            return Err(TmkError::msg(
                "invalid flags: with -g, -o is start or end (where the group has no commits)",
            )
            .with_hint("use `tmk group seek` to move a group's offsets"));
        }
    };
    let all = client
        .list_topics()
        .map_err(|e| kerr("listing topics", e))?;
    let topics: Vec<String> = if c.regex {
        let res = c
            .topics
            .iter()
            .map(|t| {
                regex::Regex::new(t).map_err(|e| TmkError::msg(format!("invalid regex {t:?}: {e}")))
            })
            .collect::<Result<Vec<_>>>()?;
        all.iter()
            .filter(|t| !t.internal && res.iter().any(|r| r.is_match(&t.name)))
            .map(|t| t.name.clone())
            .collect()
    } else {
        for t in &c.topics {
            if !all.iter().any(|x| &x.name == t) {
                return Err(
                    TmkError::kafka(format!("unable to consume topic {t:?}"), 3, None)
                        .unwrap_or_else(|| TmkError::msg(format!("unknown topic {t}"))),
                );
            }
        }
        c.topics.clone()
    };
    let mut cfg = GroupConfig::new(group);
    cfg.fetch = FetcherConfig {
        isolation: if c.read_committed {
            IsolationLevel::ReadCommitted
        } else {
            IsolationLevel::ReadUncommitted
        },
        max_bytes: c.fetch_max_bytes,
        max_wait_ms: c.fetch_max_wait.min(1000) as i32,
        auto_offset_reset: reset,
        rack: c.rack.clone(),
        ..FetcherConfig::default()
    };
    let what = format!("consuming as group {group}");
    let mut gc = GroupConsumer::new(client, cfg).map_err(|e| kerr(&what, e))?;
    gc.subscribe(topics).map_err(|e| kerr(&what, e))?;
    let mut count = 0u64;
    let mut buf = Vec::new();
    loop {
        let recs = gc.poll(1000).map_err(|e| kerr(&what, e))?;
        let mut next: BTreeMap<(String, i32), i64> = BTreeMap::new();
        let mut done = false;
        for r in &recs {
            let headers: Vec<(String, Option<Vec<u8>>)> = r
                .headers
                .iter()
                .map(|(k, v)| (k.clone(), v.as_ref().map(|v| v.to_vec())))
                .collect();
            let rec = Rec {
                topic: &r.topic,
                partition: r.partition,
                offset: r.offset,
                timestamp: r.timestamp,
                timestamp_type: match r.timestamp_type {
                    TimestampType::LogAppendTime => 1,
                    _ => 0,
                },
                leader_epoch: r.leader_epoch,
                key: r.key.as_deref(),
                value: r.value.as_deref(),
                headers: &headers,
                ..Rec::default()
            };
            match &mut out {
                Out::Json { pretty, meta_only } => append_json(&mut buf, &rec, *pretty, *meta_only),
                Out::Fmt(f) => f.append(&mut buf, &rec, None),
            }
            next.insert((r.topic.clone(), r.partition), r.offset + 1);
            count += 1;
            if c.num > 0 && count >= c.num {
                done = true;
                break;
            }
        }
        write_stdout(&buf)?;
        buf.clear();
        let offsets: Vec<(String, i32, i64)> =
            next.into_iter().map(|((t, p), o)| (t, p, o)).collect();
        gc.commit_offsets(&offsets)
            .map_err(|e| kerr(&format!("committing offsets of group {group}"), e))?;
        if done {
            return gc
                .close()
                .map_err(|e| kerr(&format!("leaving group {group}"), e));
        }
    }
}

fn topics_of(parts: &[Part]) -> Vec<String> {
    let s: BTreeSet<String> = parts.iter().map(|p| p.topic.clone()).collect();
    s.into_iter().collect()
}

fn fetch_version(client: &Client, node: i32) -> Result<i16> {
    let apis = client
        .api_versions(node)
        .map_err(|e| kerr("asking the broker's versions", e))?;
    let max = apis
        .iter()
        .find(|(k, _, _)| *k == ApiKey::Fetch)
        .map(|(_, _, hi)| *hi)
        .unwrap_or(FETCH_VERSION);
    Ok(max.min(FETCH_VERSION))
}
