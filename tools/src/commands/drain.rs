//! `tmk cluster maintenance enable|disable|status` and `tmk cluster
//! brokers decommission|decommission-status|recommission`: the broker's admin HTTP API
//! (`/v1/brokers/{id}/maintenance`, `/v1/brokers/{id}/decommission`),
//! since the Kafka protocol has no API for either. The broker ids for
//! `maintenance status` come from DescribeCluster.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{connect, kerr};
use crate::admin_api::AdminApi;
use crate::cli::{BrokerStatus, BrokersCmd, ConnFlags, MaintenanceCmd};
use crate::errors::{Result, TmkError};
use crate::output::{Table, emit, write_stdout};
use crate::profile::resolve;

fn admin(conn: &ConnFlags) -> Result<AdminApi> {
    let s = resolve(conn)?;
    // HTTPS trusts what the Kafka connections trust (`tls.*`).
    let tls = s
        .admin_tls
        .then(|| super::tls_config(s.tls.clone().unwrap_or_default()));
    Ok(AdminApi::new(
        s.admin_hosts,
        s.admin_token,
        tls,
        conn.request_timeout_ms,
    ))
}

/// The broker's `GET /v1/brokers/{id}/maintenance`.
#[derive(Debug, Serialize, Deserialize)]
struct Maintenance {
    node_id: i32,
    enabled: bool,
    leaderships: usize,
    leaderless: usize,
    finished: bool,
}

/// The broker's `GET /v1/brokers/{id}/decommission`.
#[derive(Debug, Serialize, Deserialize)]
struct Decommission {
    node_id: i32,
    decommissioning: bool,
    removed: bool,
    replicas_left: usize,
    reassignments_in_progress: usize,
    /// Still a controller voter (replaced there before its removal);
    /// absent from brokers older than the field.
    #[serde(default)]
    controller_voter: bool,
}

fn parse<T: for<'de> Deserialize<'de>>(what: &str, body: &str) -> Result<T> {
    serde_json::from_str(body)
        .map_err(|e| TmkError::msg(format!("{what}: unexpected answer from the admin API: {e}")))
}

fn maintenance_of(api: &AdminApi, broker: i32) -> Result<Maintenance> {
    let body = api.call("GET", &format!("/v1/brokers/{broker}/maintenance"))?;
    parse("maintenance status", &body)
}

pub fn maintenance(conn: &ConnFlags, cmd: MaintenanceCmd) -> Result<()> {
    let api = admin(conn)?;
    match cmd {
        MaintenanceCmd::Enable(e) => {
            api.call("PUT", &format!("/v1/brokers/{}/maintenance", e.broker))?;
            let mut out = format!("Broker {} is in maintenance mode.\n", e.broker);
            if e.wait {
                let deadline = Instant::now() + Duration::from_secs(e.timeout_secs);
                loop {
                    let m = maintenance_of(&api, e.broker)?;
                    if m.finished {
                        out.push_str(&format!("Broker {} leads no partition.\n", e.broker));
                        break;
                    }
                    if Instant::now() >= deadline {
                        return Err(TmkError::msg(format!(
                            "broker {} still leads {} partition(s) after {} s",
                            e.broker, m.leaderships, e.timeout_secs
                        ))
                        .with_hint("a partition whose other replicas are out of sync keeps its leader; `tmk cluster health` shows them"));
                    }
                    std::thread::sleep(Duration::from_millis(250));
                }
            }
            write_stdout(out.as_bytes())
        }
        MaintenanceCmd::Disable(b) => {
            api.call("DELETE", &format!("/v1/brokers/{}/maintenance", b.broker))?;
            write_stdout(format!("Broker {} is out of maintenance mode.\n", b.broker).as_bytes())
        }
        MaintenanceCmd::Status(o) => {
            let client = connect(conn)?;
            let desc = client
                .describe_cluster()
                .map_err(|e| kerr("describing the cluster", e))?;
            let mut rows = Vec::new();
            for b in &desc.brokers {
                rows.push(maintenance_of(&api, b.node_id)?);
            }
            rows.sort_by_key(|m| m.node_id);
            emit(o.out.format, &rows, |w| {
                let mut t = Table::new(&[
                    "node-id",
                    "enabled",
                    "finished",
                    "leaderships",
                    "leaderless",
                ]);
                for m in &rows {
                    t.row([
                        m.node_id.to_string(),
                        m.enabled.to_string(),
                        m.finished.to_string(),
                        m.leaderships.to_string(),
                        m.leaderless.to_string(),
                    ]);
                }
                t.render(w)
            })
        }
    }
}

pub fn brokers(conn: &ConnFlags, cmd: BrokersCmd) -> Result<()> {
    let api = admin(conn)?;
    match cmd {
        BrokersCmd::Decommission(b) => {
            api.call("PUT", &format!("/v1/brokers/{}/decommission", b.broker))?;
            write_stdout(
                format!(
                    "Decommissioning broker {}: its replicas are moving; `tmk cluster brokers decommission-status {}` shows the progress.\n",
                    b.broker, b.broker
                )
                .as_bytes(),
            )
        }
        BrokersCmd::Recommission(b) => {
            api.call("DELETE", &format!("/v1/brokers/{}/decommission", b.broker))?;
            write_stdout(
                format!(
                    "Broker {} is no longer being decommissioned: it takes replicas again, and the moves not yet finished are going back.\n",
                    b.broker
                )
                .as_bytes(),
            )
        }
        BrokersCmd::DecommissionStatus(BrokerStatus { broker, out }) => {
            let body = api.call("GET", &format!("/v1/brokers/{broker}/decommission"))?;
            let d: Decommission = parse("decommission status", &body)?;
            emit(out.format, &d, |_| {
                let state = if d.removed {
                    "removed from the cluster"
                } else if d.decommissioning {
                    "decommissioning"
                } else {
                    "not being decommissioned"
                };
                let voter = if d.controller_voter && !d.removed {
                    "; it still votes in the controller group"
                } else {
                    ""
                };
                format!(
                    "broker {}: {state}; {} replica(s) left on it; {} partition move(s) in progress in the cluster{voter}\n",
                    d.node_id, d.replicas_left, d.reassignments_in_progress
                )
            })
        }
    }
}
