//! The admin server's endpoints: each reads the shards' samples
//! ([`crate::metrics::gather`]) and answers JSON, or Prometheus text for
//! `/metrics`; `/` and its two files are the status page (`page.rs`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;

use super::cluster_scope::{self, BrokerFigures, Want};
use super::status::{self, query_count};
use super::{Admin, GATHER_TIMEOUT_MS, page};
use crate::metrics::gather::{self, Detail, PartitionSample, ShardSample};
use crate::metrics::view::ClusterView;

pub(super) type Reply = (u16, &'static str, Vec<u8>);

const JSON: &str = "application/json";

pub(super) fn json_reply(status: u16, v: serde_json::Value) -> Reply {
    let mut body = serde_json::to_vec_pretty(&v).unwrap_or_default();
    body.push(b'\n');
    (status, JSON, body)
}

fn not_found(what: &str) -> Reply {
    json_reply(404, json!({ "error": format!("{what} not found") }))
}

fn unavailable(e: impl std::fmt::Display) -> Reply {
    json_reply(503, json!({ "error": e.to_string() }))
}

/// Answers `method path`: GET (and HEAD) everywhere, PUT and DELETE on
/// the maintenance and decommission resources (`drain.rs`).
pub fn route(admin: &Admin, method: &str, path: &str) -> Reply {
    use super::drain::{Resource, route as drain_route};
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match parts.as_slice() {
        ["v1", "brokers", id, "maintenance"] => {
            return drain_route(admin, method, id, Resource::Maintenance);
        }
        ["v1", "brokers", id, "decommission"] => {
            return drain_route(admin, method, id, Resource::Decommission);
        }
        _ if method != "GET" && method != "HEAD" => {
            return (405, "text/plain", b"only GET and HEAD here\n".to_vec());
        }
        _ => {}
    }
    match parts.as_slice() {
        [""] | ["index.html"] => page::asset(page::Asset::Html),
        ["status.css"] => page::asset(page::Asset::Css),
        ["status.js"] => page::asset(page::Asset::Js),
        ["metrics"] => metrics(admin),
        ["v1", "topics"] => topics(admin, query),
        ["v1", "groups"] => groups(admin, query),
        ["v1", "status", "live"] => json_reply(200, json!({ "live": true })),
        ["v1", "status", "ready"] => ready(admin),
        ["v1", "cluster", "health"] => match samples(admin, Detail::Partitions) {
            Ok(s) => json_reply(200, ClusterView::build(&admin.ctx, &s).health_json()),
            Err(e) => unavailable(e),
        },
        ["v1", "brokers"] => match samples(admin, Detail::Partitions) {
            Ok(s) => {
                let v = ClusterView::build(&admin.ctx, &s);
                let list: Vec<_> = v.brokers.iter().map(|b| broker_json(&v, b, &s)).collect();
                json_reply(200, json!(list))
            }
            Err(e) => unavailable(e),
        },
        ["v1", "brokers", id] => {
            let Ok(id) = id.parse::<i32>() else {
                return not_found("broker");
            };
            match samples(admin, Detail::Partitions) {
                Ok(s) => {
                    let v = ClusterView::build(&admin.ctx, &s);
                    match v.brokers.iter().find(|b| b.node_id == id) {
                        Some(b) => json_reply(200, broker_json(&v, b, &s)),
                        None => not_found("broker"),
                    }
                }
                Err(e) => unavailable(e),
            }
        }
        ["v1", "partitions", topic, p] => {
            let Ok(p) = p.parse::<i32>() else {
                return not_found("partition");
            };
            partition(admin, topic, p)
        }
        _ => (404, "text/plain", b"not found\n".to_vec()),
    }
}

fn samples(admin: &Admin, detail: Detail) -> Result<Vec<ShardSample>, gather::ShardTimeout> {
    gather::all_shards(
        &admin.peers,
        detail,
        Duration::from_millis(GATHER_TIMEOUT_MS),
    )
}

fn bad_request(message: String) -> Reply {
    json_reply(400, json!({ "error": message }))
}

/// Whether `/v1/topics` and `/v1/groups` answer for the whole cluster
/// (cluster mode, unless `?scope=local`; `cluster_scope.rs`) or as this
/// broker sees it (a single node, and what peers are asked for).
fn cluster_scope(admin: &Admin, query: &str) -> Result<bool, String> {
    let clustered = admin.ctx.config.cluster.is_some();
    match status::query_value(query, "scope") {
        None | Some("cluster") => Ok(clustered),
        Some("local") => Ok(false),
        Some(v) => Err(format!("scope must be cluster or local, not {v:?}")),
    }
}

/// `/v1/topics[?limit=N&scope=cluster|local]`.
fn topics(admin: &Admin, query: &str) -> Reply {
    let limit = match query_count(query, "limit", status::TOPICS_LIMIT_DEFAULT) {
        Ok(n) => n,
        Err(e) => return bad_request(e),
    };
    let cluster = match cluster_scope(admin, query) {
        Ok(c) => c,
        Err(e) => return bad_request(e),
    };
    // The peers work while this broker gathers its own samples.
    let pending = cluster.then(|| cluster_scope::ask_peers(&admin.peers, Want::Topics, limit));
    let s = match samples(admin, Detail::Status) {
        Ok(s) => s,
        Err(e) => return unavailable(e),
    };
    let topics = s
        .iter()
        .find_map(|x| x.metadata.as_deref())
        .map(status::topic_infos)
        .unwrap_or_default();
    let node = admin.ctx.config.node_id;
    let now = crate::partition::now_ms();
    let Some(pending) = pending else {
        return json_reply(200, status::topics_json(node, &topics, &s, limit, now));
    };
    let meta = s.iter().find_map(|x| x.metadata.as_deref());
    let peers = pending.wait(node, meta);
    let mut figures = vec![BrokerFigures::from_samples(node, &s, Want::Topics)];
    figures.extend(peers.figures);
    json_reply(
        200,
        cluster_scope::topics_json(
            node,
            &topics,
            &s,
            &figures,
            &peers.missing,
            limit,
            crate::partition::now_ms(),
        ),
    )
}

/// `/v1/groups[?limit=N&partitions=M&scope=cluster|local]`.
fn groups(admin: &Admin, query: &str) -> Reply {
    let counts = query_count(query, "limit", status::GROUPS_LIMIT_DEFAULT).and_then(|l| {
        query_count(query, "partitions", status::GROUP_PARTITIONS_LIMIT_DEFAULT).map(|p| (l, p))
    });
    let (limit, partitions) = match counts {
        Ok(x) => x,
        Err(e) => return bad_request(e),
    };
    let cluster = match cluster_scope(admin, query) {
        Ok(c) => c,
        Err(e) => return bad_request(e),
    };
    let pending = cluster.then(|| cluster_scope::ask_peers(&admin.peers, Want::Groups, limit));
    let s = match samples(admin, Detail::Status) {
        Ok(s) => s,
        Err(e) => return unavailable(e),
    };
    let node = admin.ctx.config.node_id;
    let Some(pending) = pending else {
        return json_reply(
            200,
            status::groups_json(node, &s, limit, partitions, crate::partition::now_ms()),
        );
    };
    let meta = s.iter().find_map(|x| x.metadata.as_deref());
    let peers = pending.wait(node, meta);
    let mut figures = vec![BrokerFigures::from_samples(node, &s, Want::Groups)];
    figures.extend(peers.figures);
    json_reply(
        200,
        cluster_scope::groups_json(
            node,
            &figures,
            &peers.missing,
            limit,
            partitions,
            crate::partition::now_ms(),
        ),
    )
}

fn metrics(admin: &Admin) -> Reply {
    let s = match samples(admin, Detail::Full) {
        Ok(s) => s,
        Err(e) => return (503, "text/plain", format!("{e}\n").into_bytes()),
    };
    let view = ClusterView::build(&admin.ctx, &s);
    let host = crate::metrics::exposition::Host::read(&admin.ctx.config.data_dir);
    let max = admin
        .ctx
        .config
        .settings
        .i32("metrics.partition.series.max")
        .max(0) as usize;
    let text = crate::metrics::exposition::render(&admin.ctx, &s, &view, &host, max);
    (
        200,
        "text/plain; version=0.0.4; charset=utf-8",
        text.into_bytes(),
    )
}

/// Ready: caught up with the metadata (cluster mode) and every partition
/// replica the metadata places on this broker is open here.
fn ready(admin: &Admin) -> Reply {
    let s = match samples(admin, Detail::Partitions) {
        Ok(s) => s,
        Err(e) => return unavailable(e),
    };
    let ctx = &admin.ctx;
    let node = ctx.config.node_id;
    let caught_up = ctx.config.cluster.is_none() || ctx.metadata_caught_up.load(Ordering::Acquire);
    let expected: usize = s
        .iter()
        .find_map(|x| x.metadata.clone())
        .map(|m| {
            m.topics
                .values()
                .map(|t| {
                    (0..t.partitions)
                        .filter(|&p| t.all_replicas_of(p, node).contains(&node))
                        .count()
                })
                .sum()
        })
        .unwrap_or(0);
    let open: usize = s.iter().map(|x| x.partitions.len()).sum();
    let shutting_down = ctx.shutting_down.load(Ordering::Relaxed);
    let is_ready = caught_up && open >= expected && !shutting_down;
    json_reply(
        if is_ready { 200 } else { 503 },
        json!({
            "ready": is_ready,
            "metadata_caught_up": caught_up,
            "partitions_assigned": expected,
            "partitions_open": open,
            "shutting_down": shutting_down,
        }),
    )
}

fn broker_json(
    v: &ClusterView,
    b: &crate::metrics::view::BrokerView,
    s: &[ShardSample],
) -> serde_json::Value {
    // Leaders and replicas as this broker knows them (a replica here
    // knows its leader).
    let parts: Vec<&PartitionSample> = s.iter().flat_map(|x| &x.partitions).collect();
    let mut j = json!({
        "node_id": b.node_id,
        "host": b.host,
        "port": b.port,
        "rack": b.rack,
        "alive": b.alive,
        "is_controller_leader": v.controller_leader == Some(b.node_id),
    });
    if b.node_id == v.node_id {
        j["partition_replicas"] = json!(parts.len());
        j["partitions_led"] = json!(parts.iter().filter(|p| p.is_leader).count());
    }
    j
}

fn partition(admin: &Admin, topic: &str, index: i32) -> Reply {
    let got = gather::one_partition(
        &admin.peers,
        topic.to_string(),
        index,
        Duration::from_millis(GATHER_TIMEOUT_MS),
    );
    let gather::OnePartition {
        sample,
        metadata: meta,
        leader,
        epoch,
    } = match got {
        Ok(x) => x,
        Err(e) => return unavailable(e),
    };
    let node = admin.ctx.config.node_id;
    let Some(t) = meta.topic(topic) else {
        return not_found("topic");
    };
    if index < 0 || index >= t.partitions {
        return not_found("partition");
    }
    let replicas = t.all_replicas_of(index, node);
    let offline: Vec<i32> = replicas
        .iter()
        .copied()
        .filter(|r| meta.brokers.get(r).is_some_and(|b| b.fenced))
        .collect();
    let mut j = json!({
        "topic": topic,
        "partition": index,
        "topic_id": t.id.to_string(),
        "replicas": replicas,
        "offline_replicas": offline,
        "leader": leader,
        "leader_epoch": epoch,
        "replica_here": sample.is_some(),
    });
    if let Some(p) = sample {
        // In-sync replicas are known where the partition is led.
        j["in_sync_replicas"] = match p.isr {
            Some(isr) => json!(isr),
            None => serde_json::Value::Null,
        };
        j["high_watermark"] = json!(p.high_watermark);
        j["log_start_offset"] = json!(p.log_start);
        j["log_end_offset"] = json!(p.log_end);
        j["size_bytes"] = json!(p.size_bytes);
        j["is_leader_here"] = json!(p.is_leader);
    }
    json_reply(200, j)
}
