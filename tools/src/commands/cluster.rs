//! `tmk cluster`: info, health, broker configs (get/set/export/import on the
//! cluster-wide dynamic default, broker resource "", as rpk), log dirs and
//! partition moves (AlterPartitionReassignments).

use std::collections::BTreeMap;

use serde::Serialize;
use tidemark_client::Client;
use tidemark_client::admin::{AlterConfigOp, ConfigResource, ElectionType};

use super::{connect, first_error, kerr};
use crate::cli::{
    ClusterCmd, ClusterConfigCmd, ConnFlags, LogdirsCmd, OutFormat, PartitionsCmd,
    PartitionsTransferLeadership,
};
use crate::errors::{Result, TmkError};
use crate::output::{Table, emit, write_stdout};
use crate::spec::{parse_move, parse_topic_partition};

pub fn run(conn: &ConnFlags, cmd: ClusterCmd) -> Result<()> {
    match cmd {
        // These two speak the admin HTTP API, not Kafka.
        ClusterCmd::Maintenance(m) => super::drain::maintenance(conn, m),
        ClusterCmd::Brokers(b) => super::drain::brokers(conn, b),
        ClusterCmd::Info(i) => info(&connect(conn)?, i),
        ClusterCmd::Health(o) => health(&connect(conn)?, o.out.format),
        ClusterCmd::Config(c) => config(&connect(conn)?, c),
        ClusterCmd::Logdirs(LogdirsCmd::Describe(d)) => logdirs(&connect(conn)?, d),
        ClusterCmd::Partitions(p) => partitions(&connect(conn)?, p),
        ClusterCmd::Quotas(q) => super::quotas::run(&connect(conn)?, q),
    }
}

#[derive(Serialize)]
struct Broker {
    node_id: i32,
    host: String,
    port: i32,
    rack: Option<String>,
    controller: bool,
}

fn section(out: &mut String, name: &str) {
    out.push_str(&format!(
        "{}\n{}\n",
        name.to_uppercase(),
        "=".repeat(name.len())
    ));
}

fn info(client: &Client, i: crate::cli::ClusterInfo) -> Result<()> {
    let desc = client
        .describe_cluster()
        .map_err(|e| kerr("describing the cluster", e))?;
    let brokers: Vec<Broker> = desc
        .brokers
        .iter()
        .map(|b| Broker {
            node_id: b.node_id,
            host: b.host.clone(),
            port: b.port,
            rack: b.rack.clone(),
            controller: b.node_id == desc.controller_id,
        })
        .collect();
    let topics = if i.print_topics {
        client
            .list_topics()
            .map_err(|e| kerr("listing topics", e))?
    } else {
        Vec::new()
    };
    #[derive(Serialize)]
    struct Info<'a> {
        cluster_id: &'a str,
        controller: i32,
        brokers: &'a [Broker],
        #[serde(skip_serializing_if = "Vec::is_empty")]
        topics: Vec<(String, usize)>,
    }
    let data = Info {
        cluster_id: &desc.cluster_id,
        controller: desc.controller_id,
        brokers: &brokers,
        topics: topics
            .iter()
            .map(|t| (t.name.clone(), t.partitions.len()))
            .collect(),
    };
    let (mut c, mut b, t) = (i.print_cluster, i.print_brokers, i.print_topics);
    if !(c || b || t) {
        (c, b) = (true, true);
    }
    emit(i.out.format, &data, |w| {
        let mut out = String::new();
        if c {
            section(&mut out, "cluster");
            out.push_str(&format!("{}\n\n", desc.cluster_id));
        }
        if b {
            section(&mut out, "brokers");
            let mut tb = Table::new(&["id", "host", "port", "rack"]);
            for br in &brokers {
                let id = if br.controller {
                    format!("{}*", br.node_id)
                } else {
                    br.node_id.to_string()
                };
                tb.row([
                    id,
                    br.host.clone(),
                    br.port.to_string(),
                    br.rack.clone().unwrap_or_default(),
                ]);
            }
            out.push_str(&tb.render(w));
            out.push('\n');
        }
        if t {
            section(&mut out, "topics");
            let mut tb = Table::new(&["name", "partitions"]);
            for (n, p) in &data.topics {
                tb.row([n.clone(), p.to_string()]);
            }
            out.push_str(&tb.render(w));
        }
        out
    })
}

fn health(client: &Client, format: OutFormat) -> Result<()> {
    let desc = client
        .describe_cluster()
        .map_err(|e| kerr("describing the cluster", e))?;
    let topics = client
        .list_topics()
        .map_err(|e| kerr("listing topics", e))?;
    let mut leaderless = Vec::new();
    let mut under = Vec::new();
    for t in &topics {
        for p in &t.partitions {
            if p.leader < 0 {
                leaderless.push(format!("{}/{}", t.name, p.partition));
            } else if p.isr.len() < p.replicas.len() {
                under.push(format!("{}/{}", t.name, p.partition));
            }
        }
    }
    leaderless.sort();
    under.sort();
    let all: Vec<i32> = desc.brokers.iter().map(|b| b.node_id).collect();
    let down: Vec<i32> = desc
        .brokers
        .iter()
        .filter(|b| b.fenced)
        .map(|b| b.node_id)
        .collect();
    let mut reasons = Vec::new();
    if !down.is_empty() {
        reasons.push("nodes_down");
    }
    if !leaderless.is_empty() {
        reasons.push("leaderless_partitions");
    }
    if !under.is_empty() {
        reasons.push("under_replicated_partitions");
    }
    if desc.controller_id < 0 {
        reasons.push("no_controller");
    }
    #[derive(Serialize)]
    struct Health {
        is_healthy: bool,
        unhealthy_reasons: Vec<&'static str>,
        controller_id: i32,
        all_nodes: Vec<i32>,
        nodes_down: Vec<i32>,
        leaderless_partitions: Vec<String>,
        under_replicated_partitions: Vec<String>,
    }
    let h = Health {
        is_healthy: reasons.is_empty(),
        unhealthy_reasons: reasons,
        controller_id: desc.controller_id,
        all_nodes: all,
        nodes_down: down,
        leaderless_partitions: leaderless,
        under_replicated_partitions: under,
    };
    let list = |v: &[String]| format!("[{}]", v.join(" "));
    let ids = |v: &[i32]| {
        format!(
            "[{}]",
            v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ")
        )
    };
    emit(format, &h, |_| {
        let mut out = String::new();
        section(&mut out, "cluster health overview");
        let rows = [
            ("Healthy:".to_string(), h.is_healthy.to_string()),
            (
                "Unhealthy reasons:".to_string(),
                format!("[{}]", h.unhealthy_reasons.join(" ")),
            ),
            ("Controller ID:".to_string(), h.controller_id.to_string()),
            ("All nodes:".to_string(), ids(&h.all_nodes)),
            ("Nodes down:".to_string(), ids(&h.nodes_down)),
            (
                format!("Leaderless partitions ({}):", h.leaderless_partitions.len()),
                list(&h.leaderless_partitions),
            ),
            (
                format!(
                    "Under-replicated partitions ({}):",
                    h.under_replicated_partitions.len()
                ),
                list(&h.under_replicated_partitions),
            ),
        ];
        let w = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 2;
        for (k, v) in rows {
            out.push_str(&format!("{k:<w$}{v}\n"));
        }
        out
    })
}

/// The broker resource a config command addresses: "" (the cluster-wide
/// dynamic default) unless --node names one broker.
fn broker_resource(node: Option<i32>) -> ConfigResource {
    ConfigResource::broker(node.map(|n| n.to_string()).unwrap_or_default())
}

/// Every config of a broker (any broker for the cluster-wide view: the
/// dynamic default shows there with source DYNAMIC_DEFAULT_BROKER_CONFIG).
fn broker_configs(
    client: &Client,
    node: Option<i32>,
) -> Result<Vec<tidemark_client::admin::ConfigEntry>> {
    let id = match node {
        Some(n) => n,
        None => client
            .controller_id()
            .or_else(|| client.brokers().first().map(|b| b.node_id))
            .ok_or_else(|| TmkError::msg("no broker known"))?,
    };
    let res = client
        .describe_configs(&[ConfigResource::broker(id.to_string())], None, false)
        .map_err(|e| kerr(&format!("describing the configs of broker {id}"), e))?;
    let mut out = Vec::new();
    for (_, r) in res {
        out.extend(r.map_err(|e| kerr(&format!("describing the configs of broker {id}"), e))?);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Dynamic (cluster-wide default, or per broker with a node) settings.
fn dynamic_configs(client: &Client, node: Option<i32>) -> Result<BTreeMap<String, String>> {
    let want = if node.is_some() { 2 } else { 3 };
    Ok(broker_configs(client, node)?
        .into_iter()
        .filter(|e| e.source == want)
        .map(|e| (e.name, e.value.unwrap_or_default()))
        .collect())
}

fn alter(client: &Client, node: Option<i32>, ops: Vec<AlterConfigOp>) -> Result<()> {
    let res = client
        .incremental_alter_configs(&[(broker_resource(node), ops)], false)
        .map_err(|e| kerr("altering broker configs", e))?;
    let mut errors = Vec::new();
    for (_, r) in res {
        if let Err(e) = r {
            errors.push(kerr("altering broker configs", e));
        }
    }
    first_error(errors)
}

fn config(client: &Client, c: ClusterConfigCmd) -> Result<()> {
    match c {
        ClusterConfigCmd::Get(g) => {
            let all = broker_configs(client, g.node)?;
            let Some(e) = all.into_iter().find(|e| e.name == g.key) else {
                return Err(TmkError::msg(format!("unknown config {:?}", g.key))
                    .with_hint("`tmk cluster config export --all` lists them"));
            };
            #[derive(Serialize)]
            struct Row {
                key: String,
                value: Option<String>,
                source: &'static str,
            }
            let row = Row {
                key: e.name,
                value: e.value,
                source: tidemark_client::admin::config_source_name(e.source),
            };
            emit(g.out.format, &row, |_| {
                format!("{}\n", row.value.clone().unwrap_or_default())
            })
        }
        ClusterConfigCmd::Set(s) => {
            let op = if s.value.is_empty() {
                AlterConfigOp::Delete(s.key.clone())
            } else {
                AlterConfigOp::Set(s.key.clone(), s.value.clone())
            };
            alter(client, s.node, vec![op])?;
            let scope = s
                .node
                .map_or_else(|| "cluster-wide".to_string(), |n| format!("on broker {n}"));
            write_stdout(
                format!("Successfully updated configuration {} ({scope}).\n", s.key).as_bytes(),
            )
        }
        ClusterConfigCmd::Export(e) => {
            let map: BTreeMap<String, String> = if e.all {
                broker_configs(client, None)?
                    .into_iter()
                    .map(|c| (c.name, c.value.unwrap_or_default()))
                    .collect()
            } else {
                dynamic_configs(client, None)?
            };
            let json = e
                .filename
                .as_ref()
                .is_some_and(|f| f.extension().is_some_and(|x| x == "json"));
            let text = if json {
                serde_json::to_string_pretty(&map).map(|mut s| {
                    s.push('\n');
                    s
                })
            } else {
                serde_yaml::to_string(&map)
                    .map_err(|e| serde_json::Error::io(std::io::Error::other(e.to_string())))
            }
            .map_err(|e| TmkError::msg(format!("encoding configs: {e}")))?;
            match e.filename {
                Some(f) => {
                    std::fs::write(&f, text)
                        .map_err(|e| TmkError::msg(format!("writing {}: {e}", f.display())))?;
                    write_stdout(
                        format!("Wrote cluster configuration to file {}.\n", f.display())
                            .as_bytes(),
                    )
                }
                None => write_stdout(text.as_bytes()),
            }
        }
        ClusterConfigCmd::Import(i) => {
            let text = std::fs::read_to_string(&i.filename)
                .map_err(|e| TmkError::msg(format!("reading {}: {e}", i.filename.display())))?;
            let parsed: BTreeMap<String, serde_yaml::Value> = if i
                .filename
                .extension()
                .is_some_and(|x| x == "json")
            {
                let v: BTreeMap<String, serde_json::Value> = serde_json::from_str(&text)
                    .map_err(|e| TmkError::msg(format!("parsing {}: {e}", i.filename.display())))?;
                v.into_iter()
                    .map(|(k, v)| {
                        (
                            k,
                            serde_yaml::to_value(v).unwrap_or(serde_yaml::Value::Null),
                        )
                    })
                    .collect()
            } else {
                serde_yaml::from_str(&text)
                    .map_err(|e| TmkError::msg(format!("parsing {}: {e}", i.filename.display())))?
            };
            let wanted: BTreeMap<String, String> = parsed
                .into_iter()
                .map(|(k, v)| {
                    let s = match v {
                        serde_yaml::Value::String(s) => s,
                        serde_yaml::Value::Null => String::new(),
                        other => serde_yaml::to_string(&other)
                            .unwrap_or_default()
                            .trim()
                            .to_string(),
                    };
                    (k, s)
                })
                .collect();
            let current = dynamic_configs(client, None)?;
            let mut ops = Vec::new();
            for (k, v) in &wanted {
                if current.get(k) != Some(v) {
                    ops.push(if v.is_empty() {
                        AlterConfigOp::Delete(k.clone())
                    } else {
                        AlterConfigOp::Set(k.clone(), v.clone())
                    });
                }
            }
            for k in current.keys().filter(|k| !wanted.contains_key(*k)) {
                ops.push(AlterConfigOp::Delete(k.clone()));
            }
            let n = ops.len();
            if n > 0 {
                alter(client, None, ops)?;
            }
            write_stdout(
                format!("Applied {n} change(s) from {}.\n", i.filename.display()).as_bytes(),
            )
        }
    }
}

fn human(n: i64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

fn logdirs(client: &Client, d: crate::cli::LogdirsDescribe) -> Result<()> {
    #[derive(Serialize)]
    struct Row {
        broker: i32,
        dir: String,
        topic: String,
        partition: i32,
        size: i64,
        error: String,
    }
    let mut nodes: Vec<i32> = client.brokers().iter().map(|b| b.node_id).collect();
    if !d.broker.is_empty() {
        nodes.retain(|n| d.broker.contains(n));
    }
    let filter: Option<Vec<(String, Vec<i32>)>> = if d.topics.is_empty() {
        None
    } else {
        let mut v = Vec::new();
        for t in &d.topics {
            let info = client
                .topic(t)
                .map_err(|e| kerr(&format!("describing topic {t}"), e))?;
            v.push((
                t.clone(),
                info.partitions.iter().map(|p| p.partition).collect(),
            ));
        }
        Some(v)
    };
    let mut rows = Vec::new();
    for n in nodes {
        let resp = client
            .describe_log_dirs(n, filter.as_deref())
            .map_err(|e| kerr(&format!("describing the log dirs of broker {n}"), e))?;
        for r in resp.results {
            let err = tidemark_client::ErrorCode::from_code(r.error_code)
                .filter(|_| r.error_code != 0)
                .map(|c| c.name().to_string())
                .unwrap_or_default();
            for t in r.topics {
                for p in t.partitions {
                    rows.push(Row {
                        broker: n,
                        dir: r.log_dir.clone(),
                        topic: t.name.clone(),
                        partition: p.partition_index,
                        size: p.partition_size,
                        error: err.clone(),
                    });
                }
            }
        }
    }
    rows.sort_by(|a, b| {
        (a.broker, &a.dir, &a.topic, a.partition).cmp(&(b.broker, &b.dir, &b.topic, b.partition))
    });
    if let Some(agg) = d.aggregate_into.as_deref() {
        let mut m: BTreeMap<String, i64> = BTreeMap::new();
        for r in &rows {
            let k = match agg {
                "broker" => r.broker.to_string(),
                "dir" => format!("{} {}", r.broker, r.dir),
                "topic" => r.topic.clone(),
                other => {
                    return Err(TmkError::msg(format!("invalid --aggregate-into {other:?}"))
                        .with_hint("use broker, dir or topic"));
                }
            };
            *m.entry(k).or_default() += r.size;
        }
        return emit(d.out.format, &m, |w| {
            let mut t = Table::new(&[agg, "size"]);
            for (k, v) in &m {
                t.row([k.clone(), if d.human { human(*v) } else { v.to_string() }]);
            }
            t.render(w)
        });
    }
    emit(d.out.format, &rows, |w| {
        let mut t = Table::new(&["broker", "dir", "topic", "partition", "size", "error"]);
        for r in &rows {
            t.row([
                r.broker.to_string(),
                r.dir.clone(),
                r.topic.clone(),
                r.partition.to_string(),
                if d.human {
                    human(r.size)
                } else {
                    r.size.to_string()
                },
                r.error.clone(),
            ]);
        }
        t.render(w)
    })
}

/// Polls the ongoing moves of `moved` until none is left, a progress line
/// on stderr each second, for at most `secs` seconds.
fn wait_for_moves(client: &Client, moved: &[(String, i32)], secs: u64) -> Result<()> {
    let start = std::time::Instant::now();
    loop {
        let ongoing = client
            .list_partition_reassignments(None)
            .map_err(|e| kerr("listing partition moves", e))?;
        let left = ongoing
            .iter()
            .filter(|r| {
                moved
                    .iter()
                    .any(|(t, p)| *t == r.topic && *p == r.partition)
            })
            .count();
        eprintln!(
            "[{:>4}s] {} of {} move(s) done",
            start.elapsed().as_secs(),
            moved.len() - left,
            moved.len()
        );
        if left == 0 {
            return Ok(());
        }
        if start.elapsed().as_secs() >= secs {
            return Err(
                TmkError::msg(format!("{left} move(s) still running after {secs} s")).with_hint(
                    "`tmk cluster partitions move-status` follows them; move-cancel stops them",
                ),
            );
        }
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

fn partitions(client: &Client, p: PartitionsCmd) -> Result<()> {
    #[derive(Serialize)]
    struct Row {
        topic: String,
        partition: i32,
        status: String,
    }
    let status_rows = |format: OutFormat, rows: &[Row]| {
        emit(format, &rows, |w| {
            let mut t = Table::new(&["topic", "partition", "status"]);
            for r in rows {
                t.row([r.topic.clone(), r.partition.to_string(), r.status.clone()]);
            }
            t.render(w)
        })
    };
    let run = |items: Vec<(String, i32, Option<Vec<i32>>)>,
               format: OutFormat,
               what: &str|
     -> Result<()> {
        let res = client
            .alter_partition_reassignments(&items)
            .map_err(|e| kerr(what, e))?;
        let mut errors = Vec::new();
        let rows: Vec<Row> = res
            .into_iter()
            .map(|((topic, partition), r)| {
                let status = match r {
                    Ok(()) => "OK".into(),
                    Err(e) => {
                        let s = e
                            .kafka_code()
                            .map_or_else(|| e.to_string(), |c| c.name().to_string());
                        errors.push(kerr(&format!("{what} {topic}/{partition}"), e));
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
        status_rows(format, &rows)?;
        first_error(errors)
    };
    match p {
        PartitionsCmd::Move(m) => {
            let specs: Vec<&String> = m.moves.iter().chain(m.partition.iter()).collect();
            if specs.is_empty() {
                return Err(TmkError::msg("no moves given")
                    .with_hint("write TOPIC/PARTITION:NODE,NODE,... e.g. foo/0:1,2,3"));
            }
            let mut items = Vec::new();
            for s in specs {
                let mv = parse_move(s)?;
                items.push((mv.topic, mv.partition, Some(mv.replicas)));
            }
            let moved: Vec<(String, i32)> = items.iter().map(|(t, p, _)| (t.clone(), *p)).collect();
            run(items, m.out.format, "moving")?;
            match m.wait {
                Some(secs) => wait_for_moves(client, &moved, secs),
                None => Ok(()),
            }
        }
        PartitionsCmd::MoveCancel(c) => {
            let items: Vec<(String, i32, Option<Vec<i32>>)> = if c.partition.is_empty() {
                client
                    .list_partition_reassignments(None)
                    .map_err(|e| kerr("listing partition moves", e))?
                    .into_iter()
                    .map(|r| (r.topic, r.partition, None))
                    .collect()
            } else {
                c.partition
                    .iter()
                    .map(|s| parse_topic_partition(s).map(|(t, p)| (t, p, None)))
                    .collect::<Result<_>>()?
            };
            if items.is_empty() {
                return write_stdout(b"There are no ongoing partition moves.\n");
            }
            run(items, c.out.format, "cancelling the move of")
        }
        PartitionsCmd::TransferLeadership(t) => transfer_leadership(client, t),
        PartitionsCmd::MoveStatus(s) => {
            let filter: Vec<(String, i32)> = s
                .partition
                .iter()
                .map(|x| parse_topic_partition(x))
                .collect::<Result<_>>()?;
            let mut list = client
                .list_partition_reassignments(None)
                .map_err(|e| kerr("listing partition moves", e))?;
            if !filter.is_empty() {
                list.retain(|r| {
                    filter
                        .iter()
                        .any(|(t, p)| *t == r.topic && *p == r.partition)
                });
            }
            #[derive(Serialize)]
            struct Mv {
                topic: String,
                partition: i32,
                replicas: Vec<i32>,
                adding: Vec<i32>,
                removing: Vec<i32>,
            }
            let rows: Vec<Mv> = list
                .into_iter()
                .map(|r| Mv {
                    topic: r.topic,
                    partition: r.partition,
                    replicas: r.replicas,
                    adding: r.adding,
                    removing: r.removing,
                })
                .collect();
            let ids = |v: &[i32]| {
                format!(
                    "[{}]",
                    v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ")
                )
            };
            emit(s.out.format, &rows, |w| {
                if rows.is_empty() {
                    return "There are no ongoing partition moves.\n".into();
                }
                let mut t = Table::new(&["topic", "partition", "replicas", "adding", "removing"]);
                for r in &rows {
                    t.row([
                        r.topic.clone(),
                        r.partition.to_string(),
                        ids(&r.replicas),
                        ids(&r.adding),
                        ids(&r.removing),
                    ]);
                }
                t.render(w)
            })
        }
    }
}

/// `TOPIC/PARTITION:NODE`.
fn parse_transfer(s: &str) -> Result<(String, i32, i32)> {
    let bad = || {
        TmkError::msg(format!("invalid leadership transfer {s:?}"))
            .with_hint("write TOPIC/PARTITION:NODE, e.g. foo/0:2")
    };
    let mv = parse_move(s).map_err(|_| bad())?;
    match mv.replicas.as_slice() {
        [node] => Ok((mv.topic, mv.partition, *node)),
        _ => Err(bad()),
    }
}

/// The partition's leader, replicas and in-sync replicas, fresh from the
/// cluster (not the client's cache).
fn partition_state(
    client: &Client,
    topic: &str,
    partition: i32,
) -> Result<(i32, Vec<i32>, Vec<i32>)> {
    client
        .refresh_topics(&[topic.to_string()])
        .map_err(|e| kerr(&format!("describing {topic}"), e))?;
    let t = client
        .topic(topic)
        .map_err(|e| kerr(&format!("describing {topic}"), e))?;
    let p = t
        .partitions
        .iter()
        .find(|p| p.partition == partition)
        .ok_or_else(|| {
            TmkError::msg(format!("topic {topic} has no partition {partition}"))
                .with_hint("`tmk topic describe -p` lists its partitions")
        })?;
    Ok((p.leader, p.replicas.clone(), p.isr.clone()))
}

/// Moves each partition's leadership to the named in-sync replica: the
/// replicas are reordered so that it is the preferred one (a reassignment
/// that moves no data, finished once the controller applied it), then a
/// preferred election hands the leadership over; each step is waited for,
/// bounded by `timeout_secs`.
fn transfer_leadership(client: &Client, t: PartitionsTransferLeadership) -> Result<()> {
    #[derive(Serialize)]
    struct Row {
        topic: String,
        partition: i32,
        leader: i32,
        status: String,
    }
    let specs: Vec<&String> = t.transfers.iter().chain(t.partition.iter()).collect();
    if specs.is_empty() {
        return Err(TmkError::msg("no leadership transfer given")
            .with_hint("write TOPIC/PARTITION:NODE, e.g. foo/0:2"));
    }
    let wait_ms = t.timeout_secs.saturating_mul(1000);
    let mut rows = Vec::new();
    for s in specs {
        let (topic, partition, target) = parse_transfer(s)?;
        let tp = format!("{topic}/{partition}");
        let (leader, mut replicas, isr) = partition_state(client, &topic, partition)?;
        if !replicas.contains(&target) {
            return Err(TmkError::msg(format!(
                "node {target} holds no replica of {tp} (replicas {replicas:?})"
            ))
            .with_hint("move a replica there first with `tmk cluster partitions move`"));
        }
        if !isr.contains(&target) {
            return Err(TmkError::msg(format!(
                "node {target} is not in sync for {tp} (in sync: {isr:?})"
            ))
            .with_hint("wait until it has caught up (`tmk topic describe -p`)"));
        }
        if leader == target {
            rows.push(Row {
                topic,
                partition,
                leader,
                status: "already the leader".into(),
            });
            continue;
        }
        if replicas.first() != Some(&target) {
            replicas.retain(|&n| n != target);
            replicas.insert(0, target);
            let res = client
                .alter_partition_reassignments(&[(topic.clone(), partition, Some(replicas))])
                .map_err(|e| kerr(&format!("reordering the replicas of {tp}"), e))?;
            for (_, r) in res {
                r.map_err(|e| kerr(&format!("reordering the replicas of {tp}"), e))?;
            }
            wait_for_moves(client, &[(topic.clone(), partition)], t.timeout_secs)?;
        }
        let started = std::time::Instant::now();
        loop {
            let res = client
                .elect_leaders(
                    ElectionType::Preferred,
                    Some(&[(topic.clone(), vec![partition])]),
                )
                .map_err(|e| kerr(&format!("electing the leader of {tp}"), e))?;
            for (_, r) in res {
                match r {
                    Ok(()) => {}
                    // Already there, or the election raced a change: the
                    // leader check below decides.
                    Err(e)
                        if e.kafka_code().is_some_and(|c| {
                            matches!(
                                c.name(),
                                "ELECTION_NOT_NEEDED" | "PREFERRED_LEADER_NOT_AVAILABLE"
                            )
                        }) => {}
                    Err(e) => return Err(kerr(&format!("electing the leader of {tp}"), e)),
                }
            }
            let (now, _, _) = partition_state(client, &topic, partition)?;
            if now == target {
                rows.push(Row {
                    topic,
                    partition,
                    leader: now,
                    status: "OK".into(),
                });
                break;
            }
            if started.elapsed().as_millis() as u64 >= wait_ms {
                return Err(TmkError::msg(format!(
                    "{tp} is still led by node {now} after {} s",
                    t.timeout_secs
                ))
                .with_hint(format!(
                    "node {target} may be falling behind; try again, or raise --timeout"
                )));
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
        }
    }
    emit(t.out.format, &rows, |w| {
        let mut tb = Table::new(&["topic", "partition", "leader", "status"]);
        for r in &rows {
            tb.row([
                r.topic.clone(),
                r.partition.to_string(),
                r.leader.to_string(),
                r.status.clone(),
            ]);
        }
        tb.render(w)
    })
}
