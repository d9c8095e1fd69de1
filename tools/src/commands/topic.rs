//! `tmk topic`: create, list, describe, delete, alter-config,
//! add-partitions, trim-prefix; produce and consume are in their own
//! modules. Output layouts follow rpk's (`TOPIC STATUS` for changes,
//! `NAME PARTITIONS REPLICAS` for lists, summary/configs/partitions
//! sections for describe).

use std::collections::BTreeMap;

use regex::Regex;
use serde::Serialize;
use tidemark_client::admin::{
    AlterConfigOp, ConfigResource, NewTopic, OffsetSpec, config_source_name,
};
use tidemark_client::{Client, TopicInfo};

use super::{connect, first_error, kerr};
use crate::cli::{ConnFlags, OutFormat, TopicCmd};
use crate::errors::{Result, TmkError};
use crate::output::{Table, emit, terminal_width, write_stdout};
use crate::spec::{kv, parse_trim_file};

pub fn run(conn: &ConnFlags, cmd: TopicCmd) -> Result<()> {
    match cmd {
        TopicCmd::Produce(p) => super::produce::run(conn, p),
        TopicCmd::Consume(c) => super::consume::run(conn, c),
        cmd => {
            let client = connect(conn)?;
            run_admin(&client, cmd)
        }
    }
}

#[derive(Serialize)]
struct Status {
    topic: String,
    status: String,
}

fn status_table(format: OutFormat, rows: &[Status]) -> Result<()> {
    emit(format, &rows, |w| {
        let mut t = Table::new(&["topic", "status"]);
        for r in rows {
            t.row([&r.topic, &r.status]);
        }
        t.render(w)
    })
}

/// The status cell and the error for one item's result.
fn status_of<T>(
    what: String,
    r: std::result::Result<T, tidemark_client::Error>,
    errors: &mut Vec<TmkError>,
) -> String {
    match r {
        Ok(_) => "OK".to_string(),
        Err(e) => {
            let cell = match e.kafka_code() {
                Some(c) => c.name().to_string(),
                None => e.to_string(),
            };
            errors.push(kerr(&what, e));
            cell
        }
    }
}

/// Topics named by the arguments, or matching them as regexes.
fn select_topics(
    client: &Client,
    args: &[String],
    regex: bool,
    internal: bool,
) -> Result<Vec<TopicInfo>> {
    let all = client
        .list_topics()
        .map_err(|e| kerr("listing topics", e))?;
    let mut out: Vec<TopicInfo> = if regex {
        let res = args
            .iter()
            .map(|a| Regex::new(a).map_err(|e| TmkError::msg(format!("invalid regex {a:?}: {e}"))))
            .collect::<Result<Vec<_>>>()?;
        all.into_iter()
            .filter(|t| res.iter().any(|r| r.is_match(&t.name)))
            .collect()
    } else if args.is_empty() {
        all
    } else {
        all.into_iter().filter(|t| args.contains(&t.name)).collect()
    };
    if !internal && (regex || args.is_empty()) {
        out.retain(|t| !t.internal && !t.name.starts_with("__"));
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

fn unknown_topic(name: &str) -> TmkError {
    TmkError::kafka(format!("topic {name:?}"), 3, None)
        .unwrap_or_else(|| TmkError::msg(format!("unknown topic {name}")))
}

fn run_admin(client: &Client, cmd: TopicCmd) -> Result<()> {
    match cmd {
        TopicCmd::Create(c) => {
            let mut configs = Vec::new();
            for s in &c.topic_config {
                configs.push(kv(s)?);
            }
            let topics: Vec<NewTopic> = c
                .topics
                .iter()
                .map(|t| {
                    let mut nt = NewTopic::new(t.clone(), c.partitions, c.replicas);
                    nt.configs = configs.clone();
                    nt
                })
                .collect();
            let res = client
                .create_topics(&topics, c.dry)
                .map_err(|e| kerr("creating topics", e))?;
            let mut errors = Vec::new();
            let rows: Vec<Status> = res
                .into_iter()
                .map(|(t, r)| Status {
                    status: status_of(format!("creating topic {t}"), r, &mut errors),
                    topic: t,
                })
                .collect();
            status_table(c.out.format, &rows)?;
            first_error(errors)
        }
        TopicCmd::Delete(d) => {
            let names: Vec<String> = if d.regex {
                select_topics(client, &d.topics, true, false)?
                    .into_iter()
                    .map(|t| t.name)
                    .collect()
            } else {
                d.topics.clone()
            };
            if names.is_empty() {
                return status_table(d.out.format, &[]);
            }
            let res = client
                .delete_topics(&names)
                .map_err(|e| kerr("deleting topics", e))?;
            let mut errors = Vec::new();
            let rows: Vec<Status> = res
                .into_iter()
                .map(|(t, r)| Status {
                    status: status_of(format!("deleting topic {t}"), r, &mut errors),
                    topic: t,
                })
                .collect();
            status_table(d.out.format, &rows)?;
            first_error(errors)
        }
        TopicCmd::List(l) => list(client, l),
        TopicCmd::Describe(d) => describe(client, d),
        TopicCmd::AlterConfig(a) => {
            let mut ops = Vec::new();
            for s in &a.set {
                let (k, v) = kv(s)?;
                ops.push(AlterConfigOp::Set(k, v));
            }
            for s in &a.append {
                let (k, v) = kv(s)?;
                ops.push(AlterConfigOp::Append(k, v));
            }
            for s in &a.subtract {
                let (k, v) = kv(s)?;
                ops.push(AlterConfigOp::Subtract(k, v));
            }
            for k in &a.delete {
                for k in k.split(',').filter(|k| !k.is_empty()) {
                    ops.push(AlterConfigOp::Delete(k.to_string()));
                }
            }
            if ops.is_empty() {
                return Err(TmkError::msg("nothing to alter")
                    .with_hint("give --set key=value or --delete key"));
            }
            let alters: Vec<_> = a
                .topics
                .iter()
                .map(|t| (ConfigResource::topic(t.clone()), ops.clone()))
                .collect();
            let res = client
                .incremental_alter_configs(&alters, a.dry)
                .map_err(|e| kerr("altering topic configs", e))?;
            let mut errors = Vec::new();
            let rows: Vec<Status> = res
                .into_iter()
                .map(|(r, x)| Status {
                    status: status_of(
                        format!("altering configs of topic {}", r.name),
                        x,
                        &mut errors,
                    ),
                    topic: r.name,
                })
                .collect();
            status_table(OutFormat::Text, &rows)?;
            first_error(errors)
        }
        TopicCmd::AddPartitions(a) => {
            if a.num <= 0 {
                return Err(TmkError::msg(format!("--num {} must be positive", a.num)));
            }
            let all = client
                .list_topics()
                .map_err(|e| kerr("listing topics", e))?;
            let mut totals = Vec::new();
            let mut errors = Vec::new();
            let mut rows = Vec::new();
            for t in &a.topics {
                match all.iter().find(|x| &x.name == t) {
                    Some(info) if info.internal && !a.force => {
                        rows.push(Status {
                            topic: t.clone(),
                            status: "internal topic (use -f)".into(),
                        });
                        errors.push(
                            TmkError::msg(format!("adding partitions to internal topic {t}"))
                                .with_hint("add -f to force"),
                        );
                    }
                    Some(info) => totals.push((t.clone(), info.partitions.len() as i32 + a.num)),
                    None => {
                        rows.push(Status {
                            topic: t.clone(),
                            status: "UNKNOWN_TOPIC_OR_PARTITION".into(),
                        });
                        errors.push(unknown_topic(t));
                    }
                }
            }
            if !totals.is_empty() {
                let res = client
                    .create_partitions(&totals, false)
                    .map_err(|e| kerr("adding partitions", e))?;
                for (t, r) in res {
                    rows.push(Status {
                        status: status_of(format!("adding partitions to {t}"), r, &mut errors),
                        topic: t,
                    });
                }
            }
            status_table(OutFormat::Text, &rows)?;
            first_error(errors)
        }
        TopicCmd::TrimPrefix(t) => trim_prefix(client, t),
        TopicCmd::Produce(_) | TopicCmd::Consume(_) => Ok(()),
    }
}

#[derive(Serialize)]
struct ListedTopic {
    name: String,
    partitions: usize,
    replicas: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    partition_details: Option<Vec<PartRow>>,
}

#[derive(Serialize, Clone)]
struct PartRow {
    partition: i32,
    leader: i32,
    epoch: i32,
    replicas: Vec<i32>,
    isr: Vec<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    log_start_offset: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_stable_offset: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    high_watermark: Option<i64>,
}

fn ids(v: &[i32]) -> String {
    format!(
        "[{}]",
        v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ")
    )
}

fn part_rows(t: &TopicInfo) -> Vec<PartRow> {
    let mut v: Vec<PartRow> = t
        .partitions
        .iter()
        .map(|p| PartRow {
            partition: p.partition,
            leader: p.leader,
            epoch: p.leader_epoch,
            replicas: p.replicas.clone(),
            isr: p.isr.clone(),
            log_start_offset: None,
            last_stable_offset: None,
            high_watermark: None,
        })
        .collect();
    v.sort_by_key(|p| p.partition);
    v
}

fn list(client: &Client, l: crate::cli::TopicList) -> Result<()> {
    let topics = select_topics(client, &l.topics, l.regex, l.internal)?;
    let data: Vec<ListedTopic> = topics
        .iter()
        .map(|t| ListedTopic {
            name: t.name.clone(),
            partitions: t.partitions.len(),
            replicas: t.partitions.first().map_or(0, |p| p.replicas.len()),
            partition_details: l.detailed.then(|| part_rows(t)),
        })
        .collect();
    emit(l.out.format, &data, |w| {
        if !l.detailed {
            let mut t = Table::new(&["name", "partitions", "replicas"]);
            for d in &data {
                t.row([
                    d.name.clone(),
                    d.partitions.to_string(),
                    d.replicas.to_string(),
                ]);
            }
            return t.render(w);
        }
        let mut out = String::new();
        for d in &data {
            out.push_str(&format!(
                "{}, {} partitions, {} replicas\n",
                d.name, d.partitions, d.replicas
            ));
            let mut t = Table::new(&[
                "",
                "partition",
                "leader",
                "epoch",
                "replicas",
                "in-sync-replicas",
            ]);
            for p in d.partition_details.iter().flatten() {
                t.row([
                    String::new(),
                    p.partition.to_string(),
                    p.leader.to_string(),
                    p.epoch.to_string(),
                    ids(&p.replicas),
                    ids(&p.isr),
                ]);
            }
            out.push_str(&t.render(w));
        }
        out
    })
}

#[derive(Serialize)]
struct Summary {
    name: String,
    internal: bool,
    partitions: usize,
    replicas: usize,
    error: String,
}

#[derive(Serialize)]
struct ConfigRow {
    key: String,
    value: String,
    source: String,
}

#[derive(Serialize)]
struct Described {
    summary: Summary,
    configs: Vec<ConfigRow>,
    partitions: Vec<PartRow>,
}

/// Log start and high watermark (and LSO if asked) per partition.
fn fill_offsets(client: &Client, topic: &str, rows: &mut [PartRow], stable: bool) -> Result<()> {
    let tps: Vec<(String, i32)> = rows
        .iter()
        .map(|r| (topic.to_string(), r.partition))
        .collect();
    let mut lookups = vec![
        (OffsetSpec::Earliest, false, 0usize),
        (OffsetSpec::Latest, false, 2usize),
    ];
    if stable {
        lookups.push((OffsetSpec::Latest, true, 1));
    }
    for (spec, committed, slot) in lookups {
        let res = client
            .list_offsets(&tps, spec, committed)
            .map_err(|e| kerr(&format!("listing offsets of {topic}"), e))?;
        for ((_, p), r) in res {
            if let (Ok(o), Some(row)) = (r, rows.iter_mut().find(|x| x.partition == p)) {
                match slot {
                    0 => row.log_start_offset = Some(o.offset),
                    1 => row.last_stable_offset = Some(o.offset),
                    _ => row.high_watermark = Some(o.offset),
                }
            }
        }
    }
    Ok(())
}

fn describe(client: &Client, d: crate::cli::TopicDescribe) -> Result<()> {
    let topics = if d.regex {
        select_topics(client, &d.topics, true, true)?
    } else {
        let all = client
            .list_topics()
            .map_err(|e| kerr("listing topics", e))?;
        let mut v = Vec::new();
        for name in &d.topics {
            match all.iter().find(|t| &t.name == name) {
                Some(t) => v.push(t.clone()),
                None => return Err(unknown_topic(name)),
            }
        }
        v
    };
    let (mut s, mut c, mut p) = (
        d.summary || d.all,
        d.configs || d.all,
        d.partitions || d.all,
    );
    if !(s || c || p) {
        (s, c) = (true, true);
    }
    // Machine formats carry every section.
    if matches!(d.out.format, OutFormat::Json | OutFormat::Yaml) {
        (s, c, p) = (true, true, true);
    }
    let mut described = Vec::new();
    for t in &topics {
        let configs = if c {
            let res = client
                .describe_configs(&[ConfigResource::topic(t.name.clone())], None, false)
                .map_err(|e| kerr(&format!("describing configs of {}", t.name), e))?;
            let mut rows = Vec::new();
            for (_, r) in res {
                let entries =
                    r.map_err(|e| kerr(&format!("describing configs of {}", t.name), e))?;
                for e in entries {
                    rows.push(ConfigRow {
                        key: e.name,
                        value: if e.sensitive {
                            "(sensitive)".into()
                        } else {
                            e.value.unwrap_or_default()
                        },
                        source: config_source_name(e.source).to_string(),
                    });
                }
            }
            rows.sort_by(|a, b| a.key.cmp(&b.key));
            rows
        } else {
            Vec::new()
        };
        let mut parts = if p { part_rows(t) } else { Vec::new() };
        if p {
            fill_offsets(client, &t.name, &mut parts, d.stable)?;
        }
        described.push(Described {
            summary: Summary {
                name: t.name.clone(),
                internal: t.internal,
                partitions: t.partitions.len(),
                replicas: t.partitions.first().map_or(0, |p| p.replicas.len()),
                error: String::new(),
            },
            configs,
            partitions: parts,
        });
    }
    if matches!(d.out.format, OutFormat::Json | OutFormat::Yaml) {
        return emit(d.out.format, &described, |_| String::new());
    }
    let width = if d.out.format == OutFormat::Wide {
        None
    } else {
        terminal_width()
    };
    let sections = [s, c, p].iter().filter(|x| **x).count();
    let mut out = String::new();
    for t in &described {
        let header = |out: &mut String, name: &str| {
            if sections > 1 {
                out.push_str(&format!(
                    "{}\n{}\n",
                    name.to_uppercase(),
                    "=".repeat(name.len())
                ));
            }
        };
        if s {
            header(&mut out, "summary");
            let mut rows = vec![("NAME", t.summary.name.clone())];
            if t.summary.internal {
                rows.push(("INTERNAL", "true".into()));
            }
            rows.push(("PARTITIONS", t.summary.partitions.to_string()));
            if t.summary.partitions > 0 {
                rows.push(("REPLICAS", t.summary.replicas.to_string()));
            }
            for (k, v) in rows {
                out.push_str(&format!("{k:<12}{v}\n"));
            }
            if sections > 1 {
                out.push('\n');
            }
        }
        if c {
            header(&mut out, "configs");
            let mut tb = Table::new(&["key", "value", "source"]);
            for r in &t.configs {
                tb.row([&r.key, &r.value, &r.source]);
            }
            out.push_str(&tb.render(width));
            if sections > 1 {
                out.push('\n');
            }
        }
        if p {
            header(&mut out, "partitions");
            let mut cols = vec![
                "partition",
                "leader",
                "epoch",
                "replicas",
                "log-start-offset",
            ];
            if d.stable {
                cols.push("last-stable-offset");
            }
            cols.push("high-watermark");
            let mut tb = Table::new(&cols);
            let num = |o: Option<i64>| o.map_or_else(|| "-".to_string(), |v| v.to_string());
            for r in &t.partitions {
                let mut row = vec![
                    r.partition.to_string(),
                    r.leader.to_string(),
                    r.epoch.to_string(),
                    ids(&r.replicas),
                    num(r.log_start_offset),
                ];
                if d.stable {
                    row.push(num(r.last_stable_offset));
                }
                row.push(num(r.high_watermark));
                tb.row(row);
            }
            out.push_str(&tb.render(width));
        }
    }
    write_stdout(out.as_bytes())
}

/// `trim-prefix TOPIC -o OFFSET [-p ...]`: the new start offset of each
/// partition (`end` and `@timestamp` resolved with ListOffsets).
fn trim_targets(
    client: &Client,
    t: &crate::cli::TopicTrimPrefix,
) -> Result<Vec<(String, i32, i64)>> {
    let Some(name) = t.topic.as_deref() else {
        return Err(TmkError::msg("required argument TOPIC not given")
            .with_hint("tmk topic trim-prefix TOPIC -o OFFSET, or --from-file FILE"));
    };
    let offset = t.offset.as_deref().unwrap_or_default();
    let info = client
        .list_topics()
        .map_err(|e| kerr("listing topics", e))?;
    let Some(topic) = info.iter().find(|x| x.name == name) else {
        return Err(unknown_topic(name));
    };
    let parts: Vec<i32> = if t.partitions.is_empty() {
        let mut v: Vec<i32> = topic.partitions.iter().map(|p| p.partition).collect();
        v.sort();
        v
    } else {
        t.partitions.clone()
    };
    let tps: Vec<(String, i32)> = parts.iter().map(|p| (name.to_string(), *p)).collect();
    let invalid = || {
        TmkError::msg(format!("invalid --offset {offset:?}"))
            .with_hint("use a number, end, or @TIMESTAMP_MS")
    };
    // Resolve `end` and `@timestamp` to offsets per partition first.
    let targets: BTreeMap<i32, i64> = if offset == "end" || offset.starts_with('@') {
        let spec = if offset == "end" {
            OffsetSpec::Latest
        } else {
            OffsetSpec::Timestamp(offset[1..].parse().map_err(|_| invalid())?)
        };
        let res = client
            .list_offsets(&tps, spec, false)
            .map_err(|e| kerr("listing offsets", e))?;
        let mut m = BTreeMap::new();
        for ((_, p), r) in res {
            let o = r.map_err(|e| kerr(&format!("listing offsets of {name}/{p}"), e))?;
            m.insert(p, o.offset);
        }
        m
    } else {
        let o: i64 = offset.parse().map_err(|_| invalid())?;
        parts.iter().map(|p| (*p, o)).collect()
    };
    Ok(targets
        .iter()
        .filter(|(_, o)| **o >= 0)
        .map(|(p, o)| (name.to_string(), *p, *o))
        .collect())
}

fn trim_prefix(client: &Client, t: crate::cli::TopicTrimPrefix) -> Result<()> {
    let items = match &t.from_file {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| TmkError::msg(format!("reading {}: {e}", f.display())))?;
            // A partition named twice: the later line wins (rpk keeps a
            // map too).
            let items: Vec<(String, i32, i64)> =
                parse_trim_file(&f.to_string_lossy(), &text, t.topic.as_deref())?
                    .into_iter()
                    .map(|x| ((x.topic, x.partition), x.offset))
                    .collect::<BTreeMap<_, _>>()
                    .into_iter()
                    .map(|((t, p), o)| (t, p, o))
                    .collect();
            if items.is_empty() {
                return Err(TmkError::msg(format!(
                    "offset file {} is empty",
                    f.display()
                )));
            }
            items
        }
        None => trim_targets(client, &t)?,
    };
    let res = client
        .delete_records(&items)
        .map_err(|e| kerr("trimming", e))?;
    #[derive(Serialize)]
    struct Row {
        topic: String,
        partition: i32,
        new_start_offset: i64,
        error: String,
    }
    let mut errors = Vec::new();
    let rows: Vec<Row> = res
        .into_iter()
        .map(|((topic, partition), r)| match r {
            Ok(o) => Row {
                topic,
                partition,
                new_start_offset: o,
                error: String::new(),
            },
            Err(e) => {
                let cell = e
                    .kafka_code()
                    .map_or_else(|| e.to_string(), |c| c.name().to_string());
                errors.push(kerr(&format!("trimming {topic}/{partition}"), e));
                Row {
                    topic,
                    partition,
                    new_start_offset: -1,
                    error: cell,
                }
            }
        })
        .collect();
    emit(t.out.format, &rows, |w| {
        let mut tb = Table::new(&["topic", "partition", "new-start-offset", "error"]);
        for r in &rows {
            tb.row([
                r.topic.clone(),
                r.partition.to_string(),
                r.new_start_offset.to_string(),
                r.error.clone(),
            ]);
        }
        tb.render(w)
    })?;
    first_error(errors)
}
