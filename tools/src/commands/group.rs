//! `tmk group`: list, describe with lag per partition, seek, delete and
//! offset-delete, with rpk's layouts.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tidemark_client::Client;
use tidemark_client::admin::OffsetSpec;

use super::{connect, first_error, kerr};
use crate::cli::{ConnFlags, GroupCmd, OutFormat};
use crate::errors::{Result, TmkError};
use crate::output::{Table, emit, terminal_width, write_stdout};
use crate::spec::{SeekTo, parse_seek_to, parse_topic_partitions};

type Tp = (String, i32);

pub fn run(conn: &ConnFlags, cmd: GroupCmd) -> Result<()> {
    let client = connect(conn)?;
    match cmd {
        GroupCmd::List(l) => list(&client, l),
        GroupCmd::Describe(d) => describe(&client, d),
        GroupCmd::Seek(s) => seek(&client, s),
        GroupCmd::Delete(d) => {
            let res = client
                .delete_groups(&d.groups)
                .map_err(|e| kerr("deleting groups", e))?;
            #[derive(Serialize)]
            struct Row {
                group: String,
                status: String,
            }
            let mut errors = Vec::new();
            let rows: Vec<Row> = res
                .into_iter()
                .map(|(g, r)| {
                    let status = match r {
                        Ok(()) => "OK".to_string(),
                        Err(e) => {
                            let s = e
                                .kafka_code()
                                .map_or_else(|| e.to_string(), |c| c.name().to_string());
                            errors.push(kerr(&format!("deleting group {g}"), e));
                            s
                        }
                    };
                    Row { group: g, status }
                })
                .collect();
            emit(d.out.format, &rows, |w| {
                let mut t = Table::new(&["group", "status"]);
                for r in &rows {
                    t.row([&r.group, &r.status]);
                }
                t.render(w)
            })?;
            first_error(errors)
        }
        GroupCmd::OffsetDelete(o) => {
            let mut specs = o.topic.clone();
            if let Some(f) = &o.from_file {
                let text = std::fs::read_to_string(f)
                    .map_err(|e| TmkError::msg(format!("reading {}: {e}", f.display())))?;
                for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    let mut it = line.split_whitespace();
                    match (it.next(), it.next()) {
                        (Some(t), Some(p)) => specs.push(format!("{t}:{p}")),
                        (Some(t), None) => specs.push(t.to_string()),
                        _ => {}
                    }
                }
            }
            if specs.is_empty() {
                return Err(TmkError::msg("no partitions given")
                    .with_hint("use -t topic:0,1 or --from-file"));
            }
            let wanted = parse_topic_partitions(&specs)?;
            let mut tps: Vec<Tp> = Vec::new();
            for (t, ps) in wanted {
                if ps.is_empty() {
                    let info = client
                        .topic(&t)
                        .map_err(|e| kerr(&format!("describing topic {t}"), e))?;
                    tps.extend(info.partitions.iter().map(|p| (t.clone(), p.partition)));
                } else {
                    tps.extend(ps.into_iter().map(|p| (t.clone(), p)));
                }
            }
            let res = client
                .offset_delete(&o.group, &tps)
                .map_err(|e| kerr(&format!("deleting offsets of group {}", o.group), e))?;
            #[derive(Serialize)]
            struct Row {
                topic: String,
                partition: i32,
                status: String,
            }
            let mut errors = Vec::new();
            let rows: Vec<Row> = res
                .into_iter()
                .map(|((topic, partition), r)| {
                    let status = match r {
                        Ok(()) => "OK".to_string(),
                        Err(e) => {
                            let s = e
                                .kafka_code()
                                .map_or_else(|| e.to_string(), |c| c.name().to_string());
                            errors.push(kerr(
                                &format!(
                                    "deleting the offset of {topic}/{partition} in group {}",
                                    o.group
                                ),
                                e,
                            ));
                            s
                        }
                    };
                    Row {
                        topic,
                        partition,
                        status,
                    }
                })
                .collect();
            emit(o.out.format, &rows, |w| {
                let mut t = Table::new(&["topic", "partition", "status"]);
                for r in &rows {
                    t.row([r.topic.clone(), r.partition.to_string(), r.status.clone()]);
                }
                t.render(w)
            })?;
            first_error(errors)
        }
    }
}

fn list(client: &Client, l: crate::cli::GroupList) -> Result<()> {
    #[derive(Serialize)]
    struct Row {
        broker: i32,
        group: String,
        state: String,
        protocol_type: String,
    }
    let mut groups = client
        .list_groups()
        .map_err(|e| kerr("listing groups", e))?;
    groups.sort_by(|a, b| a.group_id.cmp(&b.group_id));
    let states: Vec<String> = l.states.iter().map(|s| s.to_ascii_lowercase()).collect();
    let rows: Vec<Row> = groups
        .into_iter()
        .filter(|g| states.is_empty() || states.contains(&g.state.to_ascii_lowercase()))
        .map(|g| Row {
            broker: g.coordinator,
            group: g.group_id,
            state: g.state,
            protocol_type: g.protocol_type,
        })
        .collect();
    emit(l.out.format, &rows, |w| {
        let mut t = Table::new(&["broker", "group", "state"]);
        for r in &rows {
            t.row([r.broker.to_string(), r.group.clone(), r.state.clone()]);
        }
        t.render(w)
    })
}

#[derive(Serialize)]
struct LagRow {
    topic: String,
    partition: i32,
    current_offset: Option<i64>,
    log_start_offset: i64,
    log_end_offset: i64,
    lag: i64,
    member_id: String,
    client_id: String,
    host: String,
}

#[derive(Serialize)]
struct DescribedGroup {
    group: String,
    coordinator: i32,
    state: String,
    balancer: String,
    members: usize,
    total_lag: i64,
    partitions: Vec<LagRow>,
}

fn end_offsets(client: &Client, tps: &[Tp], spec: OffsetSpec) -> BTreeMap<Tp, i64> {
    let mut m = BTreeMap::new();
    if tps.is_empty() {
        return m;
    }
    if let Ok(res) = client.list_offsets(tps, spec, false) {
        for (tp, r) in res {
            if let Ok(o) = r {
                m.insert(tp, o.offset);
            }
        }
    }
    m
}

fn describe_one(client: &Client, group: &str) -> Result<DescribedGroup> {
    let res = client
        .describe_groups(&[group.to_string()])
        .map_err(|e| kerr(&format!("describing group {group}"), e))?;
    let (_, r) = res
        .into_iter()
        .next()
        .ok_or_else(|| TmkError::msg(format!("describing group {group}: no answer")))?;
    let desc = r.map_err(|e| kerr(&format!("describing group {group}"), e))?;
    let commits = client
        .offset_fetch(group, None)
        .map_err(|e| kerr(&format!("fetching the offsets of group {group}"), e))?;
    let mut committed: BTreeMap<Tp, i64> = BTreeMap::new();
    for (tp, r) in commits {
        if let Ok(o) = r
            && o.offset >= 0
        {
            committed.insert(tp, o.offset);
        }
    }
    let mut owner: BTreeMap<Tp, usize> = BTreeMap::new();
    for (i, m) in desc.members.iter().enumerate() {
        for tp in &m.assignment {
            owner.insert(tp.clone(), i);
        }
    }
    let tps: Vec<Tp> = committed
        .keys()
        .chain(owner.keys())
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let ends = end_offsets(client, &tps, OffsetSpec::Latest);
    let starts = end_offsets(client, &tps, OffsetSpec::Earliest);
    let mut total = 0;
    let rows: Vec<LagRow> = tps
        .iter()
        .map(|tp| {
            let end = ends.get(tp).copied().unwrap_or(-1);
            let start = starts.get(tp).copied().unwrap_or(-1);
            let cur = committed.get(tp).copied();
            let lag = match cur {
                Some(c) if end >= 0 => (end - c).max(0),
                _ if end >= 0 => (end - start.max(0)).max(0),
                _ => 0,
            };
            total += lag;
            let m = owner.get(tp).map(|i| &desc.members[*i]);
            LagRow {
                topic: tp.0.clone(),
                partition: tp.1,
                current_offset: cur,
                log_start_offset: start,
                log_end_offset: end,
                lag,
                member_id: m.map(|m| m.member_id.clone()).unwrap_or_default(),
                client_id: m.map(|m| m.client_id.clone()).unwrap_or_default(),
                host: m.map(|m| m.client_host.clone()).unwrap_or_default(),
            }
        })
        .collect();
    Ok(DescribedGroup {
        group: desc.group_id,
        coordinator: desc.coordinator,
        state: desc.state,
        balancer: desc.protocol,
        members: desc.members.len(),
        total_lag: total,
        partitions: rows,
    })
}

fn describe(client: &Client, d: crate::cli::GroupDescribe) -> Result<()> {
    let names: Vec<String> = if d.regex {
        let res = d
            .groups
            .iter()
            .map(|g| {
                regex::Regex::new(g).map_err(|e| TmkError::msg(format!("invalid regex {g:?}: {e}")))
            })
            .collect::<Result<Vec<_>>>()?;
        let all = client
            .list_groups()
            .map_err(|e| kerr("listing groups", e))?;
        all.into_iter()
            .map(|g| g.group_id)
            .filter(|g| res.iter().any(|r| r.is_match(g)))
            .collect()
    } else {
        d.groups.clone()
    };
    let mut out = Vec::new();
    for g in &names {
        out.push(describe_one(client, g)?);
    }
    if matches!(d.out.format, OutFormat::Json | OutFormat::Yaml) {
        return emit(d.out.format, &out, |_| String::new());
    }
    let wide = d.out.format == OutFormat::Wide;
    let width = if wide { None } else { terminal_width() };
    let mut s = String::new();
    for (i, g) in out.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        if !d.commits {
            for (k, v) in [
                ("GROUP", g.group.clone()),
                ("COORDINATOR", g.coordinator.to_string()),
                ("STATE", g.state.clone()),
                ("BALANCER", g.balancer.clone()),
                ("MEMBERS", g.members.to_string()),
                ("TOTAL-LAG", g.total_lag.to_string()),
            ] {
                s.push_str(&format!("{k:<13}{v}\n"));
            }
        }
        if d.summary {
            continue;
        }
        if d.lag_per_topic {
            let mut per: BTreeMap<&str, i64> = BTreeMap::new();
            for r in &g.partitions {
                *per.entry(&r.topic).or_default() += r.lag;
            }
            s.push('\n');
            let mut t = Table::new(&["topic", "lag"]);
            for (topic, lag) in per {
                t.row([topic.to_string(), lag.to_string()]);
            }
            s.push_str(&t.render(width));
        }
        if !g.partitions.is_empty() {
            if !d.commits {
                s.push('\n');
            }
            let mut cols = vec!["topic", "partition", "current-offset"];
            if wide {
                cols.push("log-start-offset");
            }
            cols.extend(["log-end-offset", "lag", "member-id", "client-id", "host"]);
            let mut t = Table::new(&cols);
            for r in &g.partitions {
                let mut row = vec![
                    r.topic.clone(),
                    r.partition.to_string(),
                    r.current_offset
                        .map_or_else(|| "-".into(), |o| o.to_string()),
                ];
                if wide {
                    row.push(r.log_start_offset.to_string());
                }
                row.extend([
                    r.log_end_offset.to_string(),
                    r.lag.to_string(),
                    r.member_id.clone(),
                    r.client_id.clone(),
                    r.host.clone(),
                ]);
                t.row(row);
            }
            s.push_str(&t.render(width));
        }
    }
    write_stdout(s.as_bytes())
}

fn seek(client: &Client, s: crate::cli::GroupSeek) -> Result<()> {
    let prior_res = client
        .offset_fetch(&s.group, None)
        .map_err(|e| kerr(&format!("fetching the offsets of group {}", s.group), e))?;
    let mut prior: BTreeMap<Tp, i64> = BTreeMap::new();
    for (tp, r) in prior_res {
        if let Ok(o) = r
            && o.offset >= 0
        {
            prior.insert(tp, o.offset);
        }
    }
    let topic_filter: BTreeSet<&String> = s.topics.iter().collect();
    let keep = |t: &str| topic_filter.is_empty() || topic_filter.iter().any(|f| f.as_str() == t);
    let targets: BTreeMap<Tp, i64> = if let Some(other) = &s.to_group {
        let res = client
            .offset_fetch(other, None)
            .map_err(|e| kerr(&format!("fetching the offsets of group {other}"), e))?;
        res.into_iter()
            .filter_map(|(tp, r)| r.ok().filter(|o| o.offset >= 0).map(|o| (tp, o.offset)))
            .filter(|(tp, _)| keep(&tp.0))
            .collect()
    } else if let Some(f) = &s.to_file {
        let text = std::fs::read_to_string(f)
            .map_err(|e| TmkError::msg(format!("reading {}: {e}", f.display())))?;
        let mut m = BTreeMap::new();
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let parts: Vec<&str> = line.split_whitespace().collect();
            let parsed = match parts.as_slice() {
                [t, p, o] => p
                    .parse::<i32>()
                    .ok()
                    .zip(o.parse::<i64>().ok())
                    .map(|(p, o)| ((t.to_string(), p), o)),
                _ => None,
            };
            let (tp, o) = parsed.ok_or_else(|| {
                TmkError::msg(format!(
                    "{}:{}: expected `topic partition offset`",
                    f.display(),
                    n + 1
                ))
            })?;
            if keep(&tp.0) {
                m.insert(tp, o);
            }
        }
        m
    } else {
        let to = parse_seek_to(s.to.as_deref().unwrap_or("start"))?;
        let mut tps: BTreeSet<Tp> = prior.keys().filter(|tp| keep(&tp.0)).cloned().collect();
        if s.allow_new_topics || tps.is_empty() {
            for t in &s.topics {
                let info = client
                    .topic(t)
                    .map_err(|e| kerr(&format!("describing topic {t}"), e))?;
                tps.extend(info.partitions.iter().map(|p| (t.clone(), p.partition)));
            }
        }
        let tps: Vec<Tp> = tps.into_iter().collect();
        if tps.is_empty() {
            return Err(TmkError::msg(format!(
                "group {} has no committed offsets to seek",
                s.group
            ))
            .with_hint("name the topics with --topics"));
        }
        let spec = match to {
            SeekTo::Start => OffsetSpec::Earliest,
            SeekTo::End => OffsetSpec::Latest,
            SeekTo::Time(t) => OffsetSpec::Timestamp(t),
        };
        let res = client
            .list_offsets(&tps, spec, false)
            .map_err(|e| kerr("listing offsets", e))?;
        let latest = end_offsets(client, &tps, OffsetSpec::Latest);
        let mut m = BTreeMap::new();
        for (tp, r) in res {
            let o = r.map_err(|e| kerr(&format!("listing offsets of {}/{}", tp.0, tp.1), e))?;
            // No record at or after the timestamp: the end.
            let off = if o.offset < 0 {
                latest.get(&tp).copied().unwrap_or(0)
            } else {
                o.offset
            };
            m.insert(tp, off);
        }
        m
    };
    let items: Vec<(String, i32, i64)> = targets
        .iter()
        .map(|((t, p), o)| (t.clone(), *p, *o))
        .collect();
    let res = client
        .offset_commit(&s.group, &items)
        .map_err(|e| kerr(&format!("seeking group {}", s.group), e))?;
    #[derive(Serialize)]
    struct Row {
        topic: String,
        partition: i32,
        prior_offset: i64,
        current_offset: i64,
        error: String,
    }
    let mut errors = Vec::new();
    let rows: Vec<Row> = res
        .into_iter()
        .map(|(tp, r)| {
            let error = match r {
                Ok(()) => String::new(),
                Err(e) => {
                    let cell = e
                        .kafka_code()
                        .map_or_else(|| e.to_string(), |c| c.name().to_string());
                    errors.push(kerr(
                        &format!("seeking group {} on {}/{}", s.group, tp.0, tp.1),
                        e,
                    ));
                    cell
                }
            };
            Row {
                prior_offset: prior.get(&tp).copied().unwrap_or(-1),
                current_offset: targets.get(&tp).copied().unwrap_or(-1),
                topic: tp.0,
                partition: tp.1,
                error,
            }
        })
        .collect();
    emit(s.out.format, &rows, |w| {
        let show_err = rows.iter().any(|r| !r.error.is_empty());
        let mut cols = vec!["topic", "partition", "prior-offset", "current-offset"];
        if show_err {
            cols.push("error");
        }
        let mut t = Table::new(&cols);
        for r in &rows {
            let mut row = vec![
                r.topic.clone(),
                r.partition.to_string(),
                r.prior_offset.to_string(),
                r.current_offset.to_string(),
            ];
            if show_err {
                row.push(r.error.clone());
            }
            t.row(row);
        }
        t.render(w)
    })?;
    first_error(errors)
}
