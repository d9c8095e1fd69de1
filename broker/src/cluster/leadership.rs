//! Watches the leadership of a shard's partition replicas (cluster mode)
//! and tells every shard, so that Metadata, FindCoordinator and the
//! request handlers on any shard know each partition's leader and epoch.
//!
//! The group coordinator follows leadership here: when this broker
//! becomes the leader of a `__consumer_offsets` partition it first waits
//! for the high watermark to reach the log end (everything the old leader
//! wrote is committed once the new leader's term commits) and loads that
//! partition's groups, and only then announces itself, so a group request
//! never reaches a coordinator that has not loaded its state. When it
//! loses the leadership it drops those groups.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use std::rc::Rc;
use std::time::{Duration, Instant};

use tidemark_raft::transport::WokenSince;
use uuid::Uuid;

use crate::groups::OFFSETS_TOPIC;
use crate::shard::{PartitionKey, Shard};

/// How often leadership is checked while passes are cheap. A new leader
/// is announced within this of openraft electing it.
const INTERVAL: Duration = Duration::from_millis(20);
/// A pass that took `t` is followed by a pause of at least `t` times
/// this, so that the watcher takes at most a ninth of its shard while a
/// pass costs under 25 ms ([`INTERVAL_MAX`] bounds the pause, and so how
/// late a new leader is announced). During a failover at 10,000 partitions
/// (three brokers sharing 2 cores) the awake groups made each pass cost
/// ~3.5 ms, and with 20 ms pauses the watcher had a fifth of a survivor's
/// CPU, which the elections were waiting for.
const PACE: u32 = 8;
/// The longest pause pacing gives: a new leader is announced within this
/// (and a pass) of openraft electing it, however busy the shard.
const INTERVAL_MAX: Duration = Duration::from_millis(200);
/// In-sync replicas are recomputed this often.
const ISR_INTERVAL: Duration = Duration::from_millis(500);
/// ... and this often for the quiet partitions this broker leads. Their
/// in-sync set changes only when a follower's broker stops answering
/// beats for [`REPLICA_LAG_MAX`] (a follower that answers again wakes the
/// group, and an awake group is looked at every pass), and their cache
/// floor not at all, yet at 10,000 partitions on three brokers they were
/// half of every full pass during a failover, when the survivors' CPU
/// goes to elections. A dead follower leaves their in-sync set 10-15 s
/// after its last answer (Kafka: `replica.lag.time.max.ms`, 30 s, checked
/// every 15 s).
const QUIET_ISR_INTERVAL: Duration = Duration::from_secs(5);
/// A follower that acknowledged nothing for this long is out of sync
/// (Kafka's `replica.lag.time.max.ms` is 30 s; a Raft follower that is
/// alive acknowledges a heartbeat every 200 ms, so 10 s is generous).
pub const REPLICA_LAG_MAX: Duration = Duration::from_secs(10);

/// A full leader report goes to every peer this often, besides one on
/// every change, so a broker that restarted or missed one learns every
/// leader within this.
const REPORT_INTERVAL: Duration = Duration::from_secs(5);

/// What a leader tells the other brokers about a partition it leads, so
/// that brokers without a replica (and followers, for the in-sync set)
/// can answer Metadata and point clients at the leader.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportEntry {
    pub topic: u128,
    pub partition: i32,
    pub leader: i32,
    pub epoch: i32,
    pub isr: Vec<i32>,
}

/// Runs until the shard stops.
pub async fn run(shard: Rc<Shard>) {
    let mut loaded: HashSet<PartitionKey> = HashSet::new();
    // New partitions already handed to their preferred replica.
    let mut placed: HashSet<PartitionKey> = HashSet::new();
    // What this shard last reported for the partitions it leads.
    let mut reported: HashMap<PartitionKey, ReportEntry> = HashMap::new();
    let mut pause = INTERVAL;
    let (mut last_isr, mut last_full) = (Instant::now(), Instant::now());
    let mut last_quiet_isr = Instant::now();
    // Partitions whose group was awake at the last look (see below).
    let mut awake: HashSet<PartitionKey> = HashSet::new();
    // Quiet partitions that an ISR pass has looked at since they went
    // quiet (see below).
    let mut seen_quiet: HashSet<PartitionKey> = HashSet::new();
    let mut last_rebalance = Instant::now();
    let reassigning = Rc::new(super::reassignment::Driver::default());
    let drainer = super::drain::Drainer::default();
    loop {
        monoio::select! {
            _ = monoio::time::sleep(pause) => {}
            _ = shard.stopping() => return,
        }
        let started = Instant::now();
        let isr_pass = started.duration_since(last_isr) >= ISR_INTERVAL;
        if isr_pass {
            last_isr = started;
        }
        let quiet_isr_pass =
            isr_pass && started.duration_since(last_quiet_isr) >= QUIET_ISR_INTERVAL;
        if quiet_isr_pass {
            last_quiet_isr = started;
        }
        let me = shard.ctx.config.node_id;
        let mut changed = Vec::new();
        let mut led_now = HashSet::new();
        // A quiet group's leadership has not changed since it went quiet
        // (a change wakes it first), so between ISR passes only the awake
        // partitions are looked at: those seen awake before, plus those
        // the heartbeat ticker says woke since the last pass. At 10,000
        // partitions on three brokers, asking each partition whether it
        // was quiet every 20 ms had a tenth to a fifth of a broker's CPU
        // samples during a failover and the writes after it. ISR passes
        // (and a pass after more wakes than the ticker lists) look at
        // every partition and rebuild the awake set, except the quiet
        // partitions led elsewhere that an ISR pass already looked at
        // since they went quiet: nothing about them (leader, epoch, cache
        // floor) changes until they wake, and at 10,000 partitions on
        // three brokers they were two thirds of every full pass, which
        // had most of the watcher's CPU during a failover. Quiet
        // partitions led here (and handed to their preferred replica)
        // are looked at every `QUIET_ISR_INTERVAL` instead.
        let woken = shard.net().map(|n| n.ticker.take_woken());
        let scan_all = isr_pass || !matches!(woken, Some(WokenSince::Groups(_)));
        if let Some(WokenSince::Groups(groups)) = woken {
            for g in groups {
                let key = (Uuid::from_u128(g.key), g.index);
                seen_quiet.remove(&key);
                awake.insert(key);
            }
        } else {
            seen_quiet.clear();
        }
        let parts: Vec<_> = {
            let map = shard.partitions.borrow();
            if scan_all {
                awake.clear();
                map.iter()
                    .filter_map(|(k, p)| {
                        if !p.is_quiet() {
                            awake.insert(*k);
                            seen_quiet.remove(k);
                            return Some((*k, p.clone()));
                        }
                        let led_here = reported.contains_key(k);
                        let skip = !isr_pass
                            || (seen_quiet.contains(k)
                                && (!led_here || (!quiet_isr_pass && placed.contains(k))));
                        if !skip {
                            return Some((*k, p.clone()));
                        }
                        if led_here {
                            led_now.insert(*k);
                        }
                        None
                    })
                    .collect()
            } else {
                // A woken group not in the map yet (a partition registers
                // its group while it opens, before it is added) is kept
                // until it is, or until the next full scan.
                awake.retain(|k| map.get(k).is_none_or(|p| !p.is_quiet()));
                awake
                    .iter()
                    .filter_map(|k| map.get(k).map(|p| (*k, p.clone())))
                    .collect()
            }
        };
        let examined: HashSet<PartitionKey> = if scan_all {
            HashSet::new()
        } else {
            parts.iter().map(|(k, _)| *k).collect()
        };
        for (key, part) in parts {
            // A leader cut off from its quorum for longer than an
            // election timeout is no longer shown as one: the others have
            // most likely elected another (Kafka's controller would have
            // moved the leadership), and clients told it still leads kept
            // sending it writes it cannot commit until the split healed.
            let known = part.leader_id();
            let leader = match known {
                Some(l) if l == me && part.lost_quorum() => {
                    if shard.leader_of(&key) == me {
                        tracing::warn!(
                            topic = %part.topic,
                            partition = part.index,
                            epoch = part.leader_epoch(),
                            "leader heard from no quorum within the lease; no longer shown as leader"
                        );
                    }
                    -1
                }
                l => l.unwrap_or(-1),
            };
            // Kafka's leader epoch is that of a leader, never the term of
            // an election nobody won: without a known leader, the epoch of
            // the last leadership this replica saw commit. A cut-off
            // follower's own term climbs with every election it starts,
            // and clients trust the highest epoch they were told, so they
            // dropped the real (lower-epoch) leader of partitions the
            // split never touched.
            let epoch = if known.is_some() {
                part.leader_epoch()
            } else {
                part.replica().committed_epoch()
            };
            // Settles whether a replica that started empty has caught up
            // (it may vote freely from then on), while a leader is alive.
            part.is_synced();
            if isr_pass {
                part.replica().refresh_cache_floor();
                if part.is_quiet() {
                    seen_quiet.insert(key);
                }
            }
            let was_leading = reported.contains_key(&key);
            if leader == me {
                led_now.insert(key);
                if isr_pass || !was_leading {
                    let isr = part.in_sync_replicas(REPLICA_LAG_MAX);
                    if isr.is_some() && isr != shard.isr_of(&key) {
                        shard.announce_isr(key, isr);
                    }
                }
                if isr_pass && !placed.contains(&key) && to_preferred_if_new(&shard, &part).await {
                    placed.insert(key);
                }
            } else if was_leading {
                // Forget our own view; the new leader's reports fill in.
                shard.announce_isr(key, None);
                // Tell the other brokers too (at the epoch reported so far,
                // which the new leader's higher one overrides), so that a
                // broker cut off with this one stops naming it.
                if let Some(last) = reported.get(&key) {
                    changed.push(ReportEntry {
                        leader: -1,
                        isr: Vec::new(),
                        ..last.clone()
                    });
                }
            }
            let mut shown = leader;
            if part.topic == OFFSETS_TOPIC {
                let leads = leader == me && part.is_leader();
                if leads && !loaded.contains(&key) {
                    wait_for_committed_tail(&part).await;
                    crate::groups::load_partition(&shard, &part).await;
                    loaded.insert(key);
                } else if !leads && loaded.remove(&key) {
                    crate::groups::unload_partition(&shard, key.1);
                }
                // Announce this broker as coordinator only once loaded.
                if leader == me && !loaded.contains(&key) {
                    shown = -1;
                }
            }
            if part.topic == crate::txn::TXN_TOPIC {
                let leads = leader == me && part.is_leader();
                if leads && !loaded.contains(&key) {
                    wait_for_committed_tail(&part).await;
                    crate::txn::load_partition(&shard, &part).await;
                    loaded.insert(key);
                } else if !leads && loaded.remove(&key) {
                    crate::txn::unload_partition(&shard, key.1);
                }
                if leader == me && !loaded.contains(&key) {
                    shown = -1;
                }
            }
            if (shard.leader_of(&key), shard.leader_epoch(&key)) != (shown, epoch) {
                shard.announce_leader(key, Some((shown, epoch)));
            }
            if shown == me {
                let entry = ReportEntry {
                    topic: key.0.as_u128(),
                    partition: key.1,
                    leader: me,
                    epoch,
                    isr: shard.isr_of(&key).unwrap_or_else(|| vec![me]),
                };
                if reported.get(&key) != Some(&entry) {
                    changed.push(entry.clone());
                    reported.insert(key, entry);
                }
            }
        }
        if isr_pass {
            super::reassignment::drive(&shard, &reassigning);
            super::drain::drain_leaderships(&shard, &drainer);
        }
        // What a pass did not look at (quiet, between full scans) keeps
        // its report; a full scan drops the reports of partitions gone.
        if scan_all {
            reported.retain(|k, _| led_now.contains(k));
        } else {
            reported.retain(|k, _| led_now.contains(k) || !examined.contains(k));
        }
        // Forgetting removed partitions waits for a full scan: `placed`
        // holds nearly every partition, and looking each up every 20 ms
        // was a tenth of an idle broker's CPU at 10,000 partitions.
        if scan_all {
            let map = shard.partitions.borrow();
            loaded.retain(|k| map.contains_key(k));
            placed.retain(|k| map.contains_key(k));
            seen_quiet.retain(|k| map.contains_key(k));
        }
        if started.duration_since(last_full) >= REPORT_INTERVAL {
            last_full = started;
            changed = reported.values().cloned().collect();
        }
        if !changed.is_empty() {
            send_report(&shard, changed);
        }
        let settings = &shard.metadata().settings;
        let every = Duration::from_secs(
            settings
                .i64("leader.imbalance.check.interval.seconds")
                .max(1) as u64,
        );
        if last_rebalance.elapsed() >= every {
            last_rebalance = Instant::now();
            if settings.bool("auto.leader.rebalance.enable") {
                rebalance(&shard).await;
            }
        }
        pause = pause_after(started.elapsed());
    }
}

/// The pause after a pass that took `spent` (see [`PACE`]).
fn pause_after(spent: Duration) -> Duration {
    (spent * PACE).clamp(INTERVAL, INTERVAL_MAX)
}

/// Sends `entries` to every other registered broker (in the background:
/// an unreachable peer must not hold up this shard's watcher).
fn send_report(shard: &Rc<Shard>, entries: Vec<ReportEntry>) {
    let Some(net) = shard.net() else { return };
    let me = shard.ctx.config.node_id;
    let Ok(body) = serde_json::to_vec(&entries) else {
        return;
    };
    let body = bytes::Bytes::from(body);
    for peer in shard
        .metadata()
        .brokers
        .keys()
        .copied()
        .filter(|b| *b != me)
    {
        let net = net.clone();
        let body = body.clone();
        monoio::spawn(async move {
            let _ = net
                .transport
                .call(
                    peer as tidemark_raft::NodeId,
                    super::LEADERS_GROUP,
                    tidemark_raft::transport::RaftRequest::App(body),
                    Duration::from_secs(2),
                )
                .await;
        });
    }
}

/// Applies a peer's leader report (on shard 0): for partitions this broker
/// has no replica of, the leader, epoch and in-sync replicas; for those it
/// follows, the in-sync replicas (its own replica knows the leader).
pub fn apply_report(s0: &Rc<Shard>, body: &[u8]) -> Result<(), String> {
    let entries: Vec<ReportEntry> = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let me = s0.ctx.config.node_id;
    let meta = s0.metadata();
    for e in entries {
        let key = (uuid::Uuid::from_u128(e.topic), e.partition);
        let Some(t) = meta.topic_by_id(&key.0) else {
            continue;
        };
        if e.epoch < s0.leader_epoch(&key) {
            continue;
        }
        if t.hosted_by(e.partition, me) {
            if s0.leader_of(&key) == e.leader && e.leader != me && e.leader >= 0 {
                s0.announce_isr(key, Some(e.isr));
            }
        } else {
            s0.announce_leader(key, Some((e.leader, e.epoch)));
            // Leader -1: the reporter stopped leading (see `run`).
            s0.announce_isr(key, (e.leader >= 0).then_some(e.isr));
        }
    }
    Ok(())
}

/// Hands leadership of this shard's leader replicas to their preferred
/// replica where that one is alive and in sync. Runs every
/// `leader.imbalance.check.interval.seconds` while
/// `auto.leader.rebalance.enable` (Kafka checks every 300 s; the default
/// here is 30 s, so that a rolling restart leaves leaders spread within a
/// minute). Kafka only moves leaders once a broker's share of
/// non-preferred leaders passes `leader.imbalance.per.broker.percentage`;
/// here every partition goes back at once.
async fn rebalance(shard: &Rc<Shard>) {
    let me = shard.ctx.config.node_id;
    let meta = shard.metadata();
    let parts: Vec<_> = shard.partitions.borrow().values().cloned().collect();
    for part in parts {
        let Some(t) = meta.topic_by_id(&part.topic_id) else {
            continue;
        };
        let preferred = t.preferred_leader(part.index, me);
        if preferred == me || !part.is_leader() || !super::drain::may_lead(&meta, preferred) {
            continue;
        }
        let alive = part
            .in_sync_replicas(Duration::from_secs(1))
            .is_some_and(|isr| isr.contains(&preferred));
        if alive {
            tracing::info!(topic = %part.topic, partition = part.index, to = preferred, "moving leadership to the preferred replica");
            let _ = part.transfer_leadership(preferred).await;
        }
    }
}

/// Kafka makes a new partition's preferred replica (its first) its
/// leader; a new Raft group elects whichever replica times out first. So
/// a leader of a partition that has no data yet hands the leadership to
/// the preferred replica as soon as that one is in sync
/// (from the next leadership check, within about half a second of
/// the creation). Leaders are then spread as placed from the start,
/// instead of being moved by the periodic rebalance later, while clients
/// write. Returns whether it handed the leadership over.
async fn to_preferred_if_new(shard: &Rc<Shard>, part: &crate::partition::Partition) -> bool {
    let me = shard.ctx.config.node_id;
    // Nothing written and nothing on its way: a batch admitted but not yet
    // in the log would be cut off by the move (its producer then told to
    // retry, but the move is what Kafka's creation-time leader avoids).
    if part.log.log_end_offset() != 0 || part.admitted_end() != 0 || !part.is_leader() {
        return false;
    }
    let Some(t) = shard.metadata().topic_by_id(&part.topic_id).cloned() else {
        return false;
    };
    let preferred = t.preferred_leader(part.index, me);
    if preferred == me
        || !super::drain::may_lead(&shard.metadata(), preferred)
        || !part
            .in_sync_replicas(Duration::from_secs(1))
            .is_some_and(|isr| isr.contains(&preferred))
    {
        return false;
    }
    tracing::info!(topic = %part.topic, partition = part.index, to = preferred, "new partition: leadership to its preferred replica");
    part.transfer_leadership(preferred).await.is_ok()
}

/// A follower that answered within this (five heartbeats) can take over
/// a leadership handed off at shutdown.
const HANDOFF_LAG: Duration = Duration::from_secs(1);
/// How long a handed-off leadership is given to move to one target before
/// the next in-sync replica is tried (an election takes a round trip or
/// two; a target that is itself stopping never takes it).
const TAKEOVER_WAIT: Duration = Duration::from_millis(1500);

/// Controlled shutdown: hands the leadership of every partition this
/// shard leads to an in-sync replica (the preferred one first), then
/// waits (at most 5 s) until none is led here, so clients move to the new
/// leaders on a retriable NOT_LEADER_OR_FOLLOWER instead of waiting for an
/// election timeout.
pub async fn hand_off(shard: &Rc<Shard>) {
    let me = shard.ctx.config.node_id;
    let meta = shard.metadata();
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
    // Quiet groups first get fresh follower progress (hand_over reads it).
    futures_util::future::join_all(parts.iter().map(|p| p.wake_quiet_leader())).await;
    let moves = parts
        .iter()
        .map(|part| {
            let order = handoff_targets(&meta, part, me, Duration::from_secs(2), |_| true);
            (part.replica().clone(), order)
        })
        .collect();
    hand_over(moves, Duration::from_secs(5)).await;
    let kept = parts.iter().filter(|p| p.is_leader()).count();
    tracing::info!(
        shard = shard.id,
        moved = parts.len() - kept,
        kept,
        "controlled shutdown: leadership handed off"
    );
}

/// Where `part`'s leadership may go, in order of preference: its
/// preferred replica, then its replicas in sync within `lag`, leaving out
/// this broker (`me`) and any broker `eligible` refuses (maintenance
/// draining leaves out brokers in maintenance; a shutdown takes anyone).
pub(crate) fn handoff_targets(
    meta: &crate::metadata::ClusterMetadata,
    part: &crate::partition::Partition,
    me: i32,
    lag: Duration,
    eligible: impl Fn(i32) -> bool,
) -> Vec<u64> {
    let preferred = meta
        .topic_by_id(&part.topic_id)
        .map(|t| t.preferred_leader(part.index, me));
    let isr = part.in_sync_replicas(lag).unwrap_or_default();
    let mut order: Vec<u64> = Vec::new();
    for n in preferred.into_iter().chain(isr) {
        if n != me && eligible(n) && !order.contains(&(n as u64)) {
            order.push(n as u64);
        }
    }
    order
}

/// Moves each replica's leadership to the first of its candidates (in
/// order) that is in sync and takes it within [`TAKEOVER_WAIT`]; returns
/// when every move is done or given up, or after `limit`. A target that
/// stops answering (it is shutting down too) is given up at once: without
/// that, the last brokers of a cluster stopped together each waited the
/// whole limit.
pub(crate) async fn hand_over(
    moves: Vec<(Rc<tidemark_raft::PartitionReplica>, Vec<u64>)>,
    limit: Duration,
) {
    struct Move {
        replica: Rc<tidemark_raft::PartitionReplica>,
        candidates: std::vec::IntoIter<u64>,
        target: Option<(u64, Instant)>,
    }
    let mut moves: Vec<Move> = moves
        .into_iter()
        .map(|(replica, c)| Move {
            replica,
            candidates: c.into_iter(),
            target: None,
        })
        .collect();
    let deadline = Instant::now() + limit;
    while !moves.is_empty() && Instant::now() < deadline {
        let mut still = Vec::with_capacity(moves.len());
        for mut m in moves {
            if !m.replica.is_leader() {
                continue;
            }
            let isr = m.replica.in_sync_replicas(HANDOFF_LAG).unwrap_or_default();
            let trying = m
                .target
                .is_some_and(|(to, since)| isr.contains(&to) && since.elapsed() < TAKEOVER_WAIT);
            if !trying {
                m.target = None;
                for to in m.candidates.by_ref() {
                    if isr.contains(&to) && m.replica.transfer_leadership(to).await.is_ok() {
                        m.target = Some((to, Instant::now()));
                        break;
                    }
                }
                if m.target.is_none() {
                    continue;
                }
            }
            still.push(m);
        }
        moves = still;
        if !moves.is_empty() {
            monoio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Waits (at most 5 s) until the high watermark reaches the log end.
async fn wait_for_committed_tail(part: &crate::partition::Partition) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while part.high_watermark() < part.log.log_end_offset() && Instant::now() < deadline {
        monoio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[cfg(test)]
mod pacing_tests {
    use super::*;

    #[test]
    fn a_costly_pass_is_followed_by_a_longer_pause_up_to_the_cap() {
        assert_eq!(pause_after(Duration::from_micros(300)), INTERVAL);
        assert_eq!(
            pause_after(Duration::from_millis(5)),
            Duration::from_millis(40)
        );
        assert_eq!(pause_after(Duration::from_secs(5)), INTERVAL_MAX);
        // The watcher's share of the shard: a pass, then its pause.
        let spent = Duration::from_millis(10);
        let share = spent.as_secs_f64() / (spent + pause_after(spent)).as_secs_f64();
        assert!(share <= 1.0 / f64::from(PACE + 1) + 1e-9, "{share}");
    }
}
