//! Taking a broker out of service without errors beyond retriable ones:
//! maintenance mode (its leaderships move to other in-sync replicas and
//! none come back while it lasts, for a restart or an upgrade) and
//! decommissioning (its replicas move to other brokers through the
//! reassignment machinery, then it is removed from the cluster).
//!
//! Both are states in the cluster metadata (`BrokerMeta::maintenance`,
//! `BrokerMeta::decommissioning`), set by a controller command, so they
//! survive restarts and every broker sees them. The work is done where
//! the state is read:
//!
//! * maintenance: each shard's leadership loop ([`drain_leaderships`],
//!   every half second) hands the leadership of every partition it leads
//!   to an in-sync replica not in maintenance, and the leader balancing
//!   never moves a leadership to a broker in maintenance
//!   ([`may_lead`]). A broker in maintenance can still win an election
//!   (for instance when the leader dies and it is the only in-sync
//!   replica left): it then hands the leadership on at the next pass, if
//!   it can;
//! * decommissioning: `Command::Decommission` gives every partition on
//!   the broker a reassignment target (see `Persisted::decommission`),
//!   which the partitions' leaders carry out (`reassignment.rs`); the
//!   controller leader removes the broker once no partition names it
//!   ([`finish_decommissions`], every second). `Command::Recommission`
//!   stops a decommission before that: the moves not yet finished are
//!   cancelled (their partitions go back), the finished ones stay. A
//!   decommissioned broker
//!   that is still running keeps its controller-log learner and may
//!   register again (as a new, empty broker), as in Kafka.
//!
//! A decommissioned broker that votes in the controller group (a seed,
//! or a broker that replaced one) stops voting before it is removed: a
//! caught-up learner takes its place, or the group shrinks by one voter
//! when none can (`voters.rs`); the last voter stays until another
//! broker can replace it.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use serde::Serialize;
use tracing::{debug, info};

use crate::metadata::{ClusterMetadata, Command};
use crate::shard::Shard;
use crate::topics::ApiError;

/// Whether broker `node` may be handed a leadership by the leader
/// balancing or a new partition's placement (not in maintenance).
pub fn may_lead(meta: &ClusterMetadata, node: i32) -> bool {
    meta.brokers.get(&node).is_none_or(|b| !b.maintenance)
}

/// How many partitions name broker `node` among their replicas or
/// reassignment targets.
pub fn replicas_on(meta: &ClusterMetadata, node: i32) -> usize {
    meta.topics
        .values()
        .map(|t| (0..t.partitions).filter(|p| t.hosted_by(*p, node)).count())
        .sum()
}

/// The partitions broker `node` leads, and those with a replica on it
/// that have no known leader (a leadership on its way), as this shard
/// knows them (every shard learns every leader).
pub fn leaderships_of(shard: &Shard, node: i32) -> (usize, usize) {
    let meta = shard.metadata();
    let (mut led, mut leaderless) = (0, 0);
    for t in meta.topics.values() {
        for p in 0..t.partitions {
            match shard.leader_of(&(t.id, p)) {
                l if l == node => led += 1,
                -1 if t.hosted_by(p, node) => leaderless += 1,
                _ => {}
            }
        }
    }
    (led, leaderless)
}

/// A shard's maintenance drain: at most one hand-over runs at a time.
#[derive(Default)]
pub struct Drainer {
    running: Rc<Cell<bool>>,
}

/// While this broker is in maintenance, hands the leadership of every
/// partition this shard leads to an in-sync replica that is not in
/// maintenance (the preferred one first). Called by the leadership loop
/// on every in-sync pass; the hand-over runs in the background.
pub fn drain_leaderships(shard: &Rc<Shard>, drainer: &Drainer) {
    let me = shard.ctx.config.node_id;
    let meta = shard.metadata();
    if may_lead(&meta, me) || drainer.running.get() {
        return;
    }
    let parts: Vec<_> = shard
        .partitions
        .borrow()
        .values()
        .filter(|p| p.is_leader())
        .cloned()
        .collect();
    if parts.is_empty() {
        return;
    }
    drainer.running.set(true);
    let running = drainer.running.clone();
    monoio::spawn(async move {
        futures_util::future::join_all(parts.iter().map(|p| p.wake_quiet_leader())).await;
        let moves: Vec<_> = parts
            .iter()
            .filter_map(|part| {
                let order = super::leadership::handoff_targets(
                    &meta,
                    part,
                    me,
                    Duration::from_secs(1),
                    |n| may_lead(&meta, n),
                );
                (!order.is_empty()).then(|| (part.replica().clone(), order))
            })
            .collect();
        if !moves.is_empty() {
            super::leadership::hand_over(moves, Duration::from_secs(5)).await;
            let kept = parts.iter().filter(|p| p.is_leader()).count();
            info!(
                moved = parts.len() - kept,
                kept, "maintenance: leaderships handed to other replicas"
            );
        }
        running.set(false);
    });
}

/// On the controller leader (every second): removes each broker being
/// decommissioned that no partition names any more and that no longer
/// votes in the controller group (a voter is first replaced, see
/// `voters.rs`).
pub async fn finish_decommissions(ctl: &super::controller::Controller, meta: &ClusterMetadata) {
    for b in meta.brokers.values().filter(|b| b.decommissioning) {
        if replicas_on(meta, b.id) == 0 && ctl.retire_voter(b.id, &meta.brokers).await {
            info!(node = b.id, "decommission done: removing the broker");
            if let Err(e) = ctl.submit(Command::RemoveBroker { id: b.id }).await {
                debug!(node = b.id, error = %e.1, "removing the broker failed; retried");
            }
        }
    }
}

/// What `/v1/brokers/{id}/maintenance` reports.
#[derive(Debug, Serialize)]
pub struct MaintenanceStatus {
    pub node_id: i32,
    pub enabled: bool,
    /// Partitions the broker still leads (0 once drained).
    pub leaderships: usize,
    /// Partitions with a replica on the broker and no leader known yet
    /// (a leadership being handed over, or lost).
    pub leaderless: usize,
    /// Enabled, no leadership left and none on its way.
    pub finished: bool,
}

/// What `/v1/brokers/{id}/decommission` reports.
#[derive(Debug, Serialize)]
pub struct DecommissionStatus {
    pub node_id: i32,
    /// Registered and being decommissioned.
    pub decommissioning: bool,
    /// No longer registered (decommissioned, or never was).
    pub removed: bool,
    /// Partition replicas still on the broker (replicas and targets).
    pub replicas_left: usize,
    /// Partitions still being reassigned anywhere in the cluster.
    pub reassignments_in_progress: usize,
    /// It still votes in the controller group (it is replaced there once
    /// its replicas are gone, before it is removed).
    pub controller_voter: bool,
}

fn cluster_only(shard: &Shard) -> Result<(), ApiError> {
    if shard.is_cluster() {
        Ok(())
    } else {
        Err((
            kafka_protocol::ErrorCode::InvalidRequest,
            "a single-node broker has no other broker to hand its partitions to".into(),
        ))
    }
}

fn known(meta: &ClusterMetadata, node: i32) -> Result<(), ApiError> {
    if meta.brokers.contains_key(&node) {
        Ok(())
    } else {
        Err((
            kafka_protocol::ErrorCode::BrokerIdNotRegistered,
            format!("broker {node} is not registered"),
        ))
    }
}

/// Turns maintenance mode of `node` on or off (through the controller).
pub async fn set_maintenance(shard: &Rc<Shard>, node: i32, enabled: bool) -> Result<(), ApiError> {
    cluster_only(shard)?;
    known(&shard.metadata(), node)?;
    super::controller::submit(shard, Command::SetMaintenance { node, enabled })
        .await
        .map(|_| ())
}

/// The maintenance state of `node` as this shard sees it.
pub fn maintenance_status(shard: &Shard, node: i32) -> Result<MaintenanceStatus, ApiError> {
    cluster_only(shard)?;
    let meta = shard.metadata();
    known(&meta, node)?;
    let enabled = !may_lead(&meta, node);
    let (leaderships, leaderless) = leaderships_of(shard, node);
    Ok(MaintenanceStatus {
        node_id: node,
        enabled,
        leaderships,
        leaderless,
        finished: enabled && leaderships == 0 && leaderless == 0,
    })
}

/// Starts decommissioning `node` (through the controller).
pub async fn decommission(shard: &Rc<Shard>, node: i32) -> Result<(), ApiError> {
    cluster_only(shard)?;
    known(&shard.metadata(), node)?;
    super::controller::submit(shard, Command::Decommission { node })
        .await
        .map(|_| ())
}

/// Stops decommissioning `node` (through the controller), as Redpanda's
/// recommission does.
pub async fn recommission(shard: &Rc<Shard>, node: i32) -> Result<(), ApiError> {
    cluster_only(shard)?;
    super::controller::submit(shard, Command::Recommission { node })
        .await
        .map(|_| ())
}

/// The decommission state of `node` as this shard sees it.
pub fn decommission_status(shard: &Shard, node: i32) -> Result<DecommissionStatus, ApiError> {
    cluster_only(shard)?;
    let meta = shard.metadata();
    let b = meta.brokers.get(&node);
    Ok(DecommissionStatus {
        node_id: node,
        decommissioning: b.is_some_and(|b| b.decommissioning),
        removed: b.is_none(),
        replicas_left: replicas_on(&meta, node),
        reassignments_in_progress: meta.topics.values().map(|t| t.reassignments.len()).sum(),
        controller_voter: shard.controller().is_some_and(|c| c.is_voter(node)),
    })
}
