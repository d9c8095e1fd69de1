//! One heartbeat pass per shard for all its leader groups.
//!
//! openraft sends a heartbeat (an AppendEntries with no entries) from
//! each leader group to each follower when that group's own timer fires,
//! so a thousand groups send at a thousand different moments and each
//! heartbeat tends to leave in its own write. openraft 0.10 can turn that
//! timer off (`RuntimeConfigHandle::heartbeat(false)`: the tick still runs
//! elections) and send a heartbeat on demand (`Trigger::heartbeat`, which
//! the switch does not affect). [`HeartbeatTicker`] does that: every
//! interval it triggers every registered leader group at once, so the
//! heartbeats for one peer are queued together and the connection's
//! writer sends them in one write. Followers keep their own election
//! timers, so a ticker that stops (shard stalled) looks like a dead
//! leader, as it should.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use super::codec::GroupId;
use super::sync::Signal;
use crate::replica::RaftHandle;

/// A shard's heartbeat timer for the groups registered with it.
pub struct HeartbeatTicker {
    interval: Duration,
    groups: RefCell<BTreeMap<GroupId, RaftHandle>>,
}

impl HeartbeatTicker {
    /// `interval` should be the groups' `ReplicaConfig::heartbeat_interval`
    /// (well under their election timeout).
    pub fn new(interval: Duration) -> Rc<Self> {
        Rc::new(HeartbeatTicker {
            interval,
            groups: RefCell::default(),
        })
    }

    /// Takes over `raft`'s heartbeats: its own heartbeat timer is turned
    /// off and the ticker sends them instead.
    pub fn register(&self, group: GroupId, raft: &RaftHandle) {
        raft.runtime_config().heartbeat(false);
        self.groups.borrow_mut().insert(group, raft.clone());
    }

    /// Gives a group its own heartbeat timer back.
    pub fn unregister(&self, group: GroupId) -> Option<RaftHandle> {
        let raft = self.groups.borrow_mut().remove(&group)?;
        raft.runtime_config().heartbeat(true);
        Some(raft)
    }

    pub fn len(&self) -> usize {
        self.groups.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.groups.borrow().is_empty()
    }

    /// Triggers a heartbeat in every registered group that leads.
    /// Returns how many were triggered.
    pub async fn beat(&self) -> usize {
        let leaders: Vec<RaftHandle> = self
            .groups
            .borrow()
            .values()
            .filter(|r| r.as_leader().is_ok())
            .cloned()
            .collect();
        let mut n = 0;
        for raft in leaders {
            // Fails only when the group has stopped; it is then
            // unregistered by its owner.
            if raft.trigger().heartbeat().await.is_ok() {
                n += 1;
            }
        }
        n
    }

    /// Beats every interval until `stop` is set. The schedule is fixed
    /// (a slow pass does not push the next one back), but a stalled shard
    /// does not fire a burst of missed beats when it resumes.
    pub async fn run(self: Rc<Self>, stop: Signal) {
        let mut next = Instant::now() + self.interval;
        loop {
            let wait = next.saturating_duration_since(Instant::now());
            monoio::select! {
                _ = monoio::time::sleep(wait) => {}
                _ = stop.wait() => return,
            }
            self.beat().await;
            next += self.interval;
            let now = Instant::now();
            if next < now {
                next = now + self.interval;
            }
        }
    }
}
