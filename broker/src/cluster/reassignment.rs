//! Partition reassignment on the partition's leader: moves the
//! partition's Raft group to the replicas the metadata asks for
//! (AlterPartitionReassignments; `handlers::reassignments` writes the
//! target into the controller log).
//!
//! The metadata says where a partition should be: its reassignment target
//! if one is pending, else its replicas. Every half second the leader of
//! each partition compares that with its group's membership and takes at
//! most one step towards it:
//!
//! 1. a replica that should be there but is not a member is added as a
//!    learner (its broker opened it with no voters, `open_partition`), and
//!    receives the log;
//! 2. once every new replica has caught up (held everything committed,
//!    as for the in-sync replicas), the voters become the target through
//!    joint consensus (`PartitionReplica::change_voters`); a leader that is
//!    not in the target then steps down, and the next leader goes on;
//! 3. with the voters as wanted, learners left over (a cancelled
//!    reassignment's) are removed, and a pending target is finished: the
//!    leader proposes `FinishReassign`, the replicas become the target,
//!    and the brokers that lost their replica remove it (`reconcile`).
//!
//! Every step is decided from the current state, so a step lost to a
//! leader change or a crash is simply taken again by the next leader; a
//! joint configuration left half-done is completed the same way. A
//! cancelled reassignment (target removed) moves the group back to the
//! replicas by the same steps.
//!
//! Limitation: a new replica catches up by log shipping only, so the
//! leader must still hold its Raft log from the start. It does until
//! retention first deletes a segment of the partition, DeleteRecords moves
//! its log start, or compaction runs (`PartitionReplica::release_prefix_to`
//! hands the log prefix over only then); a replica that needs entries
//! below that point needs a log reset (a snapshot transfer), which is not
//! built yet: the step then logs a warning, and the reassignment stays
//! listed until it is cancelled.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashSet};
use std::rc::Rc;
use std::time::Duration;

use tracing::{debug, info};

use crate::metadata::Command;
use crate::partition::Partition;
use crate::shard::{PartitionKey, Shard};

/// A new replica counts as caught up if it held everything committed
/// within this long.
const CAUGHT_UP: Duration = Duration::from_secs(2);

/// Whether the partition's group differs from what the metadata wants
/// (checked on the leader; cheap, runs every pass).
fn needs_step(shard: &Shard, part: &Partition) -> bool {
    let meta = shard.metadata();
    let Some(t) = meta.topic_by_id(&part.topic_id) else {
        return false;
    };
    let me = shard.ctx.config.node_id;
    let desired: BTreeSet<u64> = t
        .desired_replicas_of(part.index, me)
        .into_iter()
        .map(|n| n as u64)
        .collect();
    let m = part.replica().membership();
    m.voters != desired || m.joint || !m.learners.is_empty() || t.target_of(part.index).is_some()
}

/// A shard's reassignment driver state.
#[derive(Default)]
pub struct Driver {
    /// Partitions with a step running.
    running: RefCell<HashSet<PartitionKey>>,
    /// New replicas already reported as needing a log reset.
    warned: RefCell<HashSet<(PartitionKey, u64)>>,
    /// Partitions found as the metadata wants them, with the leader epoch
    /// then, valid for one metadata snapshot (see [`Settled`]).
    settled: RefCell<Settled>,
}

/// Led partitions whose group was found as the metadata wants it: they
/// are not compared again until the metadata changes or their leadership
/// does. Only a leader changes a group's membership, and this one does
/// only through a step, which starts only for a partition not settled;
/// so while both stay the same the comparison cannot change. At 10,000
/// partitions on three brokers the comparisons every half second were
/// a seventh of an idle broker's CPU.
#[derive(Default)]
struct Settled {
    metadata: Option<std::sync::Arc<crate::metadata::ClusterMetadata>>,
    epochs: std::collections::HashMap<PartitionKey, i32>,
}

/// Starts a step for every partition this shard leads whose group is not
/// yet as the metadata wants, unless one is running for it already.
pub fn drive(shard: &Rc<Shard>, driver: &Rc<Driver>) {
    let parts: Vec<_> = shard
        .partitions
        .borrow()
        .iter()
        .filter(|(_, p)| p.is_leader())
        .map(|(k, p)| (*k, p.clone()))
        .collect();
    let meta = shard.metadata();
    {
        let mut settled = driver.settled.borrow_mut();
        if !settled
            .metadata
            .as_ref()
            .is_some_and(|m| std::sync::Arc::ptr_eq(m, &meta))
        {
            settled.epochs.clear();
            settled.metadata = Some(meta);
        }
        // Bounded by the partitions led: forget the ones no longer led.
        if settled.epochs.len() > parts.len() {
            let led: HashSet<PartitionKey> = parts.iter().map(|(k, _)| *k).collect();
            settled.epochs.retain(|k, _| led.contains(k));
        }
    }
    for (key, part) in parts {
        if driver.running.borrow().contains(&key) {
            continue;
        }
        let epoch = part.leader_epoch();
        if driver.settled.borrow().epochs.get(&key) == Some(&epoch) {
            continue;
        }
        if !needs_step(shard, &part) {
            driver.settled.borrow_mut().epochs.insert(key, epoch);
            continue;
        }
        driver.settled.borrow_mut().epochs.remove(&key);
        driver.running.borrow_mut().insert(key);
        let (shard, driver) = (shard.clone(), driver.clone());
        monoio::spawn(async move {
            step(&shard, &part, &driver).await;
            driver.running.borrow_mut().remove(&key);
        });
    }
}

/// Takes one step towards the wanted membership (see the module doc).
async fn step(shard: &Rc<Shard>, part: &Partition, driver: &Driver) {
    let meta = shard.metadata();
    let Some(t) = meta.topic_by_id(&part.topic_id) else {
        return;
    };
    if !part.is_leader() {
        return;
    }
    // A quiet group (idle: no heartbeats) lets its leader lease run out,
    // and openraft refuses a membership change without one
    // (`LeaseExpired`): an idle partition was never moved. Waking it
    // renews the lease; it goes quiet again once settled.
    part.wake_quiet_leader().await;
    let me = shard.ctx.config.node_id;
    let (topic, index) = (t.name.clone(), part.index);
    let desired: BTreeSet<u64> = t
        .desired_replicas_of(index, me)
        .into_iter()
        .map(|n| n as u64)
        .collect();
    let r = part.replica();
    let m = r.membership();
    if !m.committed {
        // A change is being committed; openraft finishes it.
        return;
    }
    if m.voters == desired && !m.joint {
        if !desired.contains(&(me as u64)) {
            // Removed: openraft hands the leadership to a remaining voter
            // within moments, and that leader finishes. Finishing here
            // would make this broker close its replica while it still
            // leads, costing the clients an election timeout.
            return;
        }
        if !m.learners.is_empty() {
            info!(%topic, partition = index, learners = ?m.learners, "removing replicas no longer wanted");
            if let Err(e) = r.remove_learners(m.learners.clone()).await {
                debug!(%topic, partition = index, error = %e, "removing learners failed; retried");
            }
            return;
        }
        if let Some(target) = t.target_of(index) {
            let done: BTreeSet<u64> = target.iter().map(|n| *n as u64).collect();
            if done == desired {
                info!(%topic, partition = index, replicas = ?target, "reassignment done; recording it");
                let cmd = Command::FinishReassign {
                    topic_id: t.id,
                    partition: index,
                    target: target.clone(),
                };
                if let Err((code, msg)) = crate::cluster::controller::submit(shard, cmd).await {
                    debug!(%topic, partition = index, ?code, %msg, "finishing the reassignment failed; retried");
                }
            }
        }
        return;
    }
    let missing: Vec<u64> = desired
        .iter()
        .copied()
        .filter(|n| !m.voters.contains(n) && !m.learners.contains(n))
        .collect();
    if !missing.is_empty() {
        for n in missing {
            info!(%topic, partition = index, replica = n, "adding a replica (as a learner until it has caught up)");
            if let Err(e) = r.add_learner(n).await {
                debug!(%topic, partition = index, replica = n, error = %e, "adding a learner failed; retried");
            }
        }
        return;
    }
    let new: Vec<u64> = desired
        .iter()
        .copied()
        .filter(|n| !m.voters.contains(n))
        .collect();
    // A new replica that needs entries this leader has already purged
    // catches up through a log reset (openraft sends it a snapshot); say
    // so once, since it copies the leader's log and may take a while.
    let reset = r.followers_needing_reset();
    for n in new.iter().filter(|n| reset.contains(n)) {
        if driver
            .warned
            .borrow_mut()
            .insert(((part.topic_id, index), *n))
        {
            info!(%topic, partition = index, replica = n, "the new replica needs entries the leader has already released to retention: it catches up by a log reset");
        }
    }
    if new.iter().all(|n| r.caught_up_within(*n, CAUGHT_UP)) {
        info!(%topic, partition = index, from = ?m.voters, to = ?desired, "changing the replicas' voting membership");
        if let Err(e) = r.change_voters(desired.clone(), false).await {
            debug!(%topic, partition = index, error = %e, "membership change failed; retried");
        }
    }
}
