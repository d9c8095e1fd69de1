//! One heartbeat pass per shard for all its leader groups, and quiet
//! groups that send no heartbeats at all.
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
//! writer sends them in one write.
//!
//! # Quiet groups
//!
//! Coalescing the writes still leaves one heartbeat per group per
//! interval, and every replica's openraft ticks (a wakeup every ~40 ms):
//! at 10,000 partitions of three replicas on one 2-core broker that was a
//! whole core while nothing was written. A ticker made with
//! [`HeartbeatTicker::quiescent`] lets idle groups go quiet, as
//! CockroachDB's ranges do:
//!
//! * Leader side: a group whose every member has acknowledged everything
//!   in its log, all of it committed and applied, for
//!   [`QUIESCE_AFTER_BEATS`] beats in a row (so that followers have heard
//!   the commit point in a heartbeat), stops ticking and heartbeating. The
//!   shard instead sends each peer node one [`Beat`] per interval, listing
//!   the quiet groups that peer follows: one message per shard and peer,
//!   whatever the number of groups. A write (anything that changes the
//!   log or the term) wakes the group at the next pass; openraft sends
//!   the write itself at once, quiet or not.
//! * Follower side: a follower replica that matches a listed group (same
//!   leader, term and last index, all applied) stops ticking, so it does
//!   not stand for election while its leader's shard keeps beating and
//!   keeps listing it. Any Raft request for the group (the leader's next
//!   AppendEntries, another replica's vote) wakes it after delivery. A
//!   group no longer listed is woken after a grace period (its leader's
//!   AppendEntries normally comes first). A leader shard silent for
//!   `dead_after` (about the longest election timeout) is taken for
//!   dead: one of the other members, picked by the group id so that the
//!   survivors share the elections, wakes at once and, its election
//!   timer long expired, stands for election at its first tick; the
//!   others wake later (three `dead_after` while its node beats, else
//!   one) unless the election reached them first. A pre-vote does not
//!   wake a quiet follower (it restarts no election timer); the vote
//!   that follows it does.
//!
//! Awake groups whose leader's node stops beating stand the same way
//! (see [`HeartbeatTicker::awake_stands`]): the member picked stands once
//! the leader lease has run out, the others hold their timers back.
//!
//! Quiet groups change only liveness, never safety: every decision is
//! still openraft's, and a wrong guess (a beat lost, a follower behind)
//! costs an election or a few heartbeats.
//!
//! Without quiescence ([`HeartbeatTicker::new`]), followers keep their
//! own election timers, so a ticker that stops (shard stalled) looks like
//! a dead leader, as it should.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;
use std::time::{Duration, Instant};

use openraft::ServerState;
use openraft::async_runtime::watch::WatchReceiver;

use super::client::Transport;
use super::codec::{Beat, GroupId, QuietGroup, RaftRequest, RaftResponse};
use super::sync::Signal;
use crate::replica::{MetricsReceiver, RaftHandle};
use crate::types::NodeId;

/// Beats in a row a leader group must be settled (everything acknowledged
/// by every member, committed and applied) before it goes quiet: followers
/// learn the commit point from the heartbeats of those beats.
pub const QUIESCE_AFTER_BEATS: u32 = 3;

/// How often a quiescent ticker logs how many of its groups are quiet
/// (only when the counts changed).
const QUIET_REPORT_INTERVAL: Duration = Duration::from_secs(30);

/// The group id a [`Beat`] is addressed to (it concerns many groups; the
/// nil topic id is no partition's).
pub const BEAT_GROUP: GroupId = GroupId { key: 0, index: -1 };

/// Quiescence settings of a [`HeartbeatTicker`].
#[derive(Debug, Clone, Copy)]
struct Quiescence {
    /// This shard's number on its node, sent in its beats.
    shard: u32,
    /// How long a follower waits without a beat from a quiet group's
    /// leader shard before it wakes the group.
    dead_after: Duration,
    /// openraft's leader lease (the groups' longest election timeout): a
    /// follower grants no vote, and stands for none, until this has run
    /// out since it last heard its leader.
    lease: Duration,
}

/// A registered group's replica on this shard.
struct Member {
    raft: RaftHandle,
    /// `raft`'s metrics, kept rather than cloned on every read (see
    /// `MetricsReceiver`).
    metrics: MetricsReceiver,
    /// Whether the group may go quiet (the controller group, whose
    /// heartbeats tell it which brokers are alive, does not).
    may_quiesce: bool,
    lead: Lead,
    /// Set while this replica follows a quiet group.
    follow: Option<Follow>,
}

/// The leader side of a group on this shard.
#[derive(Debug, Clone, PartialEq)]
enum Lead {
    /// Heartbeating; `stable` beats in a row settled at `seen` (term,
    /// last log index).
    Active {
        stable: u32,
        seen: Option<(u64, Option<u64>)>,
    },
    /// Quiet since `since`, settled at `term` and `last_index`, with
    /// these followers (voters and learners: all get beats), of which
    /// `voters` vote and `down` were left out (their brokers answered no
    /// beats; they had not everything).
    Quiet {
        term: u64,
        last_index: Option<u64>,
        followers: Vec<NodeId>,
        voters: Vec<NodeId>,
        down: Vec<NodeId>,
        since: Instant,
    },
}

impl Lead {
    fn active() -> Self {
        Lead::Active {
            stable: 0,
            seen: None,
        }
    }
}

/// A follower replica of a quiet group: its leader's node and shard, the
/// term, and when it wakes if no longer listed or the leader went silent.
#[derive(Debug, Clone, Copy)]
struct Follow {
    leader: NodeId,
    shard: u32,
    term: u64,
    wake_at: Option<Instant>,
    /// Whether `wake_at` was set because the leader's shard went silent
    /// (the replica then wakes to stand for election, within the shard's
    /// campaign budget), not because it stopped listing the group.
    leader_silent: bool,
}

/// An awake follower replica of a group whose leader's node went silent
/// (see [`HeartbeatTicker::awake_stands`]).
#[derive(Debug, Clone, Copy)]
struct Stand {
    /// The silent leader.
    leader: NodeId,
    /// Whether this replica stands for election (the member
    /// [`first_to_stand`] picks) or holds its own election timer back
    /// until `until`, while the one picked stands.
    stands: bool,
    /// When the standing replica next asks for a pre-vote.
    next_at: Instant,
    /// After this, openraft's own timers alone: a held timer is let go.
    until: Instant,
    /// Whether its elections are held back now.
    held: bool,
}

/// The most replicas a shard wakes to stand for election after their
/// leader's shard went silent that have not yet learnt of a new leader.
/// Why: a broker of a three-node cluster with 10,000 partitions killed,
/// each survivor's shards woke ~1,700 groups each at once; thousands of
/// simultaneous elections (votes, state-file writes, then thousands of
/// awake groups heartbeating) kept both survivors' shards at 100 % CPU,
/// where messages took longer than an election timeout, and in one run of
/// four neither the partitions nor the controller group elected a leader
/// for minutes. Woken in waves, each wave's elections finish at once; the
/// other members' replicas (woken one `dead_after` later) stand for the
/// groups this shard has not reached, within their own budget. The same
/// pacing made creation converge (the controller opens new replicas 128
/// at a time per broker).
pub const MAX_CAMPAIGNS: usize = 256;

/// How many `dead_after` the other members of a group wait for the one
/// standing first ([`first_to_stand`]) while its node is alive. One was
/// too few once the survivors of a dead broker shared the elections: at
/// 10,000 partitions each survivor's own share took 3-4 s to reach, and
/// the other, waking after 1 s for the groups not yet led, campaigned for
/// them at the same time (a split vote costs an election timeout).
const SECOND_STANDS_AFTER: u32 = 3;

/// Which of a group's other voters stands first for election when its
/// leader went silent: one picked by the group id, the same on every
/// node. Why not simply the lowest id: with a broker of a three-node
/// cluster killed, the survivor with the lower id then stood for every
/// one of the dead broker's groups while the other only voted (and led
/// none of them afterwards), and the other's own campaigns, one
/// `dead_after` later, collided with the first's on the groups it had not
/// reached yet (both candidates in the same term, neither elected, both
/// waiting out an election timeout). Spread by group, both survivors
/// stand at once, each for about half.
pub fn first_to_stand(group: &GroupId, others: impl Iterator<Item = NodeId>) -> Option<NodeId> {
    let mut others: Vec<NodeId> = others.collect();
    if others.is_empty() {
        return None;
    }
    others.sort_unstable();
    others.dedup();
    // splitmix64's finaliser over the group id: topic ids are random, but
    // a topic's partitions differ only in `index`.
    let mut x = (group.key as u64) ^ ((group.key >> 64) as u64) ^ (group.index as u32 as u64);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    Some(others[(x % others.len() as u64) as usize])
}

/// A shard's heartbeat timer for the groups registered with it.
pub struct HeartbeatTicker {
    interval: Duration,
    quiescence: Option<Quiescence>,
    groups: RefCell<BTreeMap<GroupId, Member>>,
    /// Leader side: when each peer last answered a beat (the time it was
    /// sent).
    acked: RefCell<HashMap<NodeId, Instant>>,
    /// When the ticker was made (a peer not heard since is not yet down).
    started: Instant,
    /// Leader side: peers with a beat in flight (one at a time each).
    in_flight: RefCell<HashSet<NodeId>>,
    /// Follower side: when a beat last came from each (node, shard).
    heard: RefCell<HashMap<(NodeId, u32), Instant>>,
    /// Groups that stopped being quiet here (or were registered or
    /// unregistered) since the last [`HeartbeatTicker::take_woken`], so
    /// that a watcher of leadership can look at the awake groups only
    /// instead of asking every group whether it is quiet every pass.
    /// Bounded by [`MAX_WOKEN`]: past it, the watcher is told to look at
    /// everything.
    woken: RefCell<Woken>,
    /// Follower side: groups woken here to stand for election because
    /// their leader's shard went silent, with that leader and when, until
    /// they learn of a new leader (see [`MAX_CAMPAIGNS`]).
    campaigns: RefCell<HashMap<GroupId, (NodeId, Instant)>>,
    /// At most this many of them ([`MAX_CAMPAIGNS`] unless set).
    campaign_budget: Cell<usize>,
    /// Follower side: awake replicas whose leader's node went silent.
    stands: RefCell<HashMap<GroupId, Stand>>,
}

/// More wakes than this between two [`HeartbeatTicker::take_woken`] calls
/// are reported as "everything may have woken" rather than listed.
const MAX_WOKEN: usize = 65_536;

#[derive(Default)]
struct Woken {
    groups: Vec<GroupId>,
    overflowed: bool,
}

/// What woke since the last [`HeartbeatTicker::take_woken`].
#[derive(Debug, PartialEq)]
pub enum WokenSince {
    /// These groups (possibly some more than once).
    Groups(Vec<GroupId>),
    /// Too many to list: any group may have woken.
    Any,
}

impl HeartbeatTicker {
    /// A ticker whose groups never go quiet. `interval` should be the
    /// groups' `ReplicaConfig::heartbeat_interval` (well under their
    /// election timeout).
    pub fn new(interval: Duration) -> Rc<Self> {
        Self::build(interval, None)
    }

    /// A ticker whose idle groups go quiet (see the module doc): `shard`
    /// is this shard's number on its node, `dead_after` how long a peer
    /// shard's beats may stop before its quiet groups elect another
    /// leader, `lease` the groups' leader lease (openraft: their longest
    /// election timeout).
    pub fn quiescent(
        interval: Duration,
        shard: u32,
        dead_after: Duration,
        lease: Duration,
    ) -> Rc<Self> {
        assert!(
            dead_after > interval,
            "a beat must come well before a follower gives up"
        );
        Self::build(
            interval,
            Some(Quiescence {
                shard,
                dead_after,
                lease,
            }),
        )
    }

    fn build(interval: Duration, quiescence: Option<Quiescence>) -> Rc<Self> {
        Rc::new(HeartbeatTicker {
            interval,
            quiescence,
            groups: RefCell::default(),
            acked: RefCell::default(),
            started: Instant::now(),
            in_flight: RefCell::default(),
            heard: RefCell::default(),
            woken: RefCell::default(),
            campaigns: RefCell::default(),
            campaign_budget: Cell::new(MAX_CAMPAIGNS),
            stands: RefCell::default(),
        })
    }

    /// Notes that `group` is awake here now (see `woken`).
    fn note_woken(&self, group: GroupId) {
        let mut w = self.woken.borrow_mut();
        if w.overflowed {
            return;
        }
        if w.groups.len() >= MAX_WOKEN {
            w.overflowed = true;
            w.groups = Vec::new();
        } else {
            w.groups.push(group);
        }
    }

    /// The groups that woke (stopped being quiet, or were registered or
    /// unregistered) here since the last call. A group not listed and
    /// quiet at the last call is still quiet.
    pub fn take_woken(&self) -> WokenSince {
        let w = std::mem::take(&mut *self.woken.borrow_mut());
        if w.overflowed {
            WokenSince::Any
        } else {
            WokenSince::Groups(w.groups)
        }
    }

    /// Takes over `raft`'s heartbeats: its own heartbeat timer is turned
    /// off and the ticker sends them instead. `may_quiesce`: whether the
    /// group may go quiet when idle (on a quiescent ticker).
    pub fn register(&self, group: GroupId, raft: &RaftHandle, may_quiesce: bool) {
        raft.runtime_config().heartbeat(false);
        let old = self.groups.borrow_mut().insert(
            group,
            Member {
                raft: raft.clone(),
                metrics: raft.metrics(),
                may_quiesce: may_quiesce && self.quiescence.is_some(),
                lead: Lead::active(),
                follow: None,
            },
        );
        // A group registered again (a new openraft instance) ticks.
        if let Some(old) = old {
            old.raft.runtime_config().tick(true);
            old.raft.runtime_config().elect(true);
        }
        self.stands.borrow_mut().remove(&group);
        self.note_woken(group);
    }

    /// Gives a group its own heartbeat timer (and ticks) back.
    pub fn unregister(&self, group: GroupId) -> Option<RaftHandle> {
        let m = self.groups.borrow_mut().remove(&group)?;
        m.raft.runtime_config().heartbeat(true);
        m.raft.runtime_config().tick(true);
        m.raft.runtime_config().elect(true);
        self.stands.borrow_mut().remove(&group);
        self.note_woken(group);
        Some(m.raft)
    }

    pub fn len(&self) -> usize {
        self.groups.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.groups.borrow().is_empty()
    }

    /// How many registered groups are quiet here: as leader, as follower.
    pub fn quiet_counts(&self) -> (usize, usize) {
        let groups = self.groups.borrow();
        let leading = groups
            .values()
            .filter(|m| matches!(m.lead, Lead::Quiet { .. }))
            .count();
        let following = groups.values().filter(|m| m.follow.is_some()).count();
        (leading, following)
    }

    /// Whether `group`'s replica here is quiet (as leader or follower):
    /// nothing about its leadership changes until it wakes.
    pub fn is_quiet(&self, group: GroupId) -> bool {
        self.groups
            .borrow()
            .get(&group)
            .is_some_and(|m| matches!(m.lead, Lead::Quiet { .. }) || m.follow.is_some())
    }

    /// Whether `group`'s leader replica here is quiet.
    pub fn is_quiet_leader(&self, group: GroupId) -> bool {
        self.groups
            .borrow()
            .get(&group)
            .is_some_and(|m| matches!(m.lead, Lead::Quiet { .. }))
    }

    /// On the leader of a quiet group: the voting followers known in sync
    /// with it within `max_lag` (openraft's own heartbeat times stop while
    /// the group is quiet). A quiet group's followers had everything when
    /// it went quiet and nothing was written since, so a follower is in
    /// sync while its node answers this shard's beats. A learner (a
    /// replica being added) is never listed: the in-sync set is where a
    /// leadership may go, and a learner cannot take one (a leadership
    /// handed to a learner left the group leaderless until the hand-off
    /// timed out, and a new partition's hand-off then repeated it).
    /// `None` when the group is not quiet here (ask openraft).
    pub fn quiet_in_sync(&self, group: GroupId, max_lag: Duration) -> Option<Vec<NodeId>> {
        let groups = self.groups.borrow();
        let Lead::Quiet {
            voters: followers,
            down,
            since,
            ..
        } = &groups.get(&group)?.lead
        else {
            return None;
        };
        let acked = self.acked.borrow();
        let now = Instant::now();
        Some(
            followers
                .iter()
                .copied()
                .filter(|f| {
                    // One left out as down had not everything: in sync
                    // only by what it answers from now on (if it answers,
                    // the group wakes and openraft's view takes over).
                    let heard = if down.contains(f) {
                        acked.get(f).copied()
                    } else {
                        Some(acked.get(f).map_or(*since, |t| (*t).max(*since)))
                    };
                    heard.is_some_and(|h| now.saturating_duration_since(h) <= max_lag)
                })
                .collect(),
        )
    }

    /// Wakes `group`'s leader replica here if it is quiet (before a
    /// leadership transfer, which needs fresh replication progress).
    pub fn wake_leader(&self, group: GroupId) {
        if let Some(m) = self.groups.borrow_mut().get_mut(&group)
            && matches!(m.lead, Lead::Quiet { .. })
        {
            m.raft.runtime_config().tick(true);
            m.lead = Lead::active();
            self.note_woken(group);
        }
    }

    /// A Raft request for `group` was delivered here: a quiet follower
    /// replica ticks again (called after delivery, so that the leader's
    /// AppendEntries has restarted its election timer first).
    pub fn delivered(&self, group: GroupId) {
        if let Some(m) = self.groups.borrow_mut().get_mut(&group)
            && m.follow.take().is_some()
        {
            m.raft.runtime_config().tick(true);
            self.note_woken(group);
        }
    }

    /// Triggers a heartbeat in every registered group that leads and is
    /// not quiet, lets settled groups go quiet and wakes quiet ones that
    /// changed, then (quiescent tickers) sends every peer this shard's
    /// beat. Returns how many heartbeats were triggered.
    pub async fn beat(self: &Rc<Self>, transport: Option<&Transport>) -> usize {
        let now = Instant::now();
        let mut heartbeat: Vec<RaftHandle> = Vec::new();
        let mut lists: BTreeMap<NodeId, Vec<QuietGroup>> = BTreeMap::new();
        for (group, m) in self.groups.borrow_mut().iter_mut() {
            self.lead_pass(*group, m, now, &mut heartbeat, &mut lists);
        }
        let mut n = 0;
        for raft in heartbeat {
            // Fails only when the group has stopped; it is then
            // unregistered by its owner.
            if raft.trigger().heartbeat().await.is_ok() {
                n += 1;
            }
        }
        if let (Some(q), Some(transport)) = (self.quiescence, transport) {
            for peer in transport.peers().ids() {
                let groups = lists.remove(&peer).unwrap_or_default();
                self.send_beat(
                    transport,
                    peer,
                    Beat {
                        shard: q.shard,
                        groups,
                    },
                );
            }
        }
        n
    }

    /// The leader side of one group in a beat pass.
    fn lead_pass(
        &self,
        group: GroupId,
        m: &mut Member,
        now: Instant,
        heartbeat: &mut Vec<RaftHandle>,
        lists: &mut BTreeMap<NodeId, Vec<QuietGroup>>,
    ) {
        let mm = m.metrics.borrow_watched();
        if mm.state != ServerState::Leader {
            if matches!(m.lead, Lead::Quiet { .. }) {
                m.raft.runtime_config().tick(true);
                self.note_woken(group);
            }
            m.lead = Lead::active();
            return;
        }
        if !m.may_quiesce {
            heartbeat.push(m.raft.clone());
            return;
        }
        let term = mm.current_term;
        let last = mm.last_log_index;
        // A quiet group that went quiet with every follower holding
        // everything, at the term and last entry it still has, is still
        // settled: its replication progress only moves with Raft traffic,
        // and any write or election changes the term or the last entry.
        // Skipping the check below for it (the progress of every member
        // and the voters of its membership) matters because this pass
        // looks at every group, quiet or not, every interval.
        if let Lead::Quiet {
            term: t,
            last_index,
            followers,
            down,
            ..
        } = &m.lead
            && down.is_empty()
            && *t == term
            && *last_index == last
            && mm.last_applied.map(|l| l.index) == last
        {
            for f in followers {
                lists.entry(*f).or_default().push(QuietGroup {
                    group,
                    term,
                    last_index: last,
                });
            }
            return;
        }
        // Settled: everything in the log applied (so committed) and
        // acknowledged by every member, except members whose broker is
        // down (it answers no beats) as long as a majority of the voters
        // has everything. Without that exception, the loss of one broker
        // woke every group it had a replica of, for as long as it stayed
        // down: the survivors heartbeated them all again (3,000
        // partitions on three brokers: writes after a kill -9 took a
        // minute on the overloaded survivors). A member that comes back
        // answers beats again, which unsettles the group and wakes it.
        let settled = mm.last_applied.map(|l| l.index) == last
            && mm.replication.as_ref().is_some_and(|rep| {
                let behind_all_down = rep.iter().all(|(node, matched)| {
                    matched.map(|l| l.index) == last || self.peer_down(*node, now)
                });
                let (mut voters, mut with_all) = (0usize, 0usize);
                for v in mm.membership_config.membership().voter_ids() {
                    voters += 1;
                    if v == mm.id || rep.get(&v).is_some_and(|m| m.map(|l| l.index) == last) {
                        with_all += 1;
                    }
                }
                behind_all_down && with_all * 2 > voters
            });
        match &mut m.lead {
            Lead::Quiet {
                term: t,
                last_index,
                followers,
                ..
            } if settled && *t == term && *last_index == last => {
                for f in followers.iter() {
                    lists.entry(*f).or_default().push(QuietGroup {
                        group,
                        term,
                        last_index: last,
                    });
                }
            }
            Lead::Quiet { .. } => {
                // Written to (or the term moved): heartbeat again.
                m.raft.runtime_config().tick(true);
                self.note_woken(group);
                m.lead = Lead::Active {
                    stable: 0,
                    seen: Some((term, last)),
                };
                heartbeat.push(m.raft.clone());
            }
            Lead::Active { stable, seen } => {
                if settled && *seen == Some((term, last)) {
                    *stable += 1;
                } else {
                    *stable = 0;
                    *seen = Some((term, last));
                }
                if *stable < QUIESCE_AFTER_BEATS {
                    heartbeat.push(m.raft.clone());
                    return;
                }
                let me = mm.id;
                let membership = mm.membership_config.membership();
                let followers: Vec<NodeId> = membership
                    .nodes()
                    .map(|(id, _)| *id)
                    .filter(|id| *id != me)
                    .collect();
                let voters: Vec<NodeId> = membership.voter_ids().filter(|id| *id != me).collect();
                for f in &followers {
                    lists.entry(*f).or_default().push(QuietGroup {
                        group,
                        term,
                        last_index: last,
                    });
                }
                let down: Vec<NodeId> = followers
                    .iter()
                    .copied()
                    .filter(|f| {
                        mm.replication.as_ref().is_none_or(|rep| {
                            rep.get(f)
                                .is_none_or(|matched| matched.map(|l| l.index) != last)
                        })
                    })
                    .collect();
                m.raft.runtime_config().tick(false);
                m.lead = Lead::Quiet {
                    term,
                    last_index: last,
                    followers,
                    voters,
                    down,
                    since: now,
                };
            }
        }
    }

    /// Whether `node` answered one of this shard's beats sent within
    /// `within` (beats go to every peer each interval, whatever the
    /// groups do): the broker-level view of who is reachable, which a
    /// leader's lease check uses to tell being cut off from being slow.
    pub fn peer_heard_within(&self, node: NodeId, within: Duration) -> bool {
        self.acked
            .borrow()
            .get(&node)
            .is_some_and(|t| t.elapsed() <= within)
    }

    /// Whether `node` has answered none of this shard's beats for twice
    /// `dead_after` (counting from the ticker's start): taken for down.
    fn peer_down(&self, node: NodeId, now: Instant) -> bool {
        let Some(q) = self.quiescence else {
            return false;
        };
        let last = self
            .acked
            .borrow()
            .get(&node)
            .copied()
            .unwrap_or(self.started);
        now.saturating_duration_since(last) > q.dead_after * 2
    }

    /// Sends `beat` to `peer` unless a beat to it is still in flight;
    /// an answer records the peer as alive and wakes the groups it could
    /// not quiet.
    fn send_beat(self: &Rc<Self>, transport: &Transport, peer: NodeId, beat: Beat) {
        if !self.in_flight.borrow_mut().insert(peer) {
            return;
        }
        let this = self.clone();
        let transport = transport.clone();
        let ttl = self
            .quiescence
            .map_or(self.interval, |q| q.dead_after)
            .max(self.interval);
        monoio::spawn(async move {
            let sent = Instant::now();
            let answer = transport
                .call(peer, BEAT_GROUP, RaftRequest::Beat(beat), ttl)
                .await;
            this.in_flight.borrow_mut().remove(&peer);
            match answer {
                Ok(RaftResponse::Beat(refused)) => {
                    this.acked.borrow_mut().insert(peer, sent);
                    let mut groups = this.groups.borrow_mut();
                    for g in refused {
                        if let Some(m) = groups.get_mut(&g)
                            && matches!(m.lead, Lead::Quiet { .. })
                        {
                            m.raft.runtime_config().tick(true);
                            m.lead = Lead::active();
                            this.note_woken(g);
                        }
                    }
                }
                Ok(other) => {
                    tracing::debug!(peer, ?other, "unexpected answer to a beat");
                }
                Err(e) => tracing::debug!(peer, error = %e, "beat not answered"),
            }
        });
    }

    /// Follower side: `beat` came from node `from`. Quiets the listed
    /// groups whose replica here matches, marks the quiet ones no longer
    /// listed to wake, and returns the listed groups it could not quiet.
    pub fn on_beat(&self, from: NodeId, beat: &Beat) -> Vec<GroupId> {
        let now = Instant::now();
        let Some(q) = self.quiescence else {
            return beat.groups.iter().map(|g| g.group).collect();
        };
        self.heard.borrow_mut().insert((from, beat.shard), now);
        let mut refused = Vec::new();
        let mut listed: HashSet<GroupId> = HashSet::with_capacity(beat.groups.len());
        let mut groups = self.groups.borrow_mut();
        for g in &beat.groups {
            let Some(m) = groups.get_mut(&g.group) else {
                refused.push(g.group);
                continue;
            };
            if let Some(f) = &mut m.follow
                && f.leader == from
                && f.shard == beat.shard
                && f.term == g.term
            {
                // Listed again (a wake was pending: the leader's shard is
                // beating again).
                f.wake_at = None;
                f.leader_silent = false;
                listed.insert(g.group);
                continue;
            }
            let matches = m.may_quiesce && {
                let mm = m.metrics.borrow_watched();
                matches!(mm.state, ServerState::Follower | ServerState::Learner)
                    && mm.current_leader == Some(from)
                    && mm.current_term == g.term
                    && mm.last_log_index == g.last_index
                    && mm.last_applied.map(|l| l.index) == g.last_index
            };
            if matches {
                m.raft.runtime_config().tick(false);
                m.follow = Some(Follow {
                    leader: from,
                    shard: beat.shard,
                    term: g.term,
                    wake_at: None,
                    leader_silent: false,
                });
                listed.insert(g.group);
            } else {
                refused.push(g.group);
            }
        }
        // No longer listed: the leader woke it (its AppendEntries is on
        // the way and wakes the replica first) or stopped leading.
        for (group, m) in groups.iter_mut() {
            if let Some(f) = &mut m.follow
                && f.leader == from
                && f.shard == beat.shard
                && f.wake_at.is_none()
                && !listed.contains(group)
            {
                f.wake_at = Some(now + q.dead_after / 2);
            }
        }
        refused
    }

    /// Follower side, every interval: wakes quiet replicas whose leader
    /// shard went silent or stopped listing them, those of a silent leader
    /// at most [`MAX_CAMPAIGNS`] in flight at a time. Returns how many
    /// woke.
    pub fn check_followers(&self) -> usize {
        let Some(q) = self.quiescence else {
            return 0;
        };
        let now = Instant::now();
        let heard = self.heard.borrow();
        // Each peer node's latest beat, worked out once a pass if needed.
        let mut node_beats: Option<HashMap<NodeId, Instant>> = None;
        let mut groups = self.groups.borrow_mut();
        let mut campaigns = self.campaigns.borrow_mut();
        // A campaign ends when its replica knows a leader other than the
        // silent one (itself included), went quiet again or left, or
        // after twice `dead_after` (openraft's own timers go on with it;
        // one group that cannot elect must not hold the budget).
        campaigns.retain(|group, (silent, since)| {
            let Some(m) = groups.get(group) else {
                return false;
            };
            if m.follow.is_some() || now.saturating_duration_since(*since) > q.dead_after * 2 {
                return false;
            }
            let leader = m.metrics.borrow_watched().current_leader;
            leader.is_none_or(|l| l == *silent)
        });
        let mut woke = 0;
        for (group, m) in groups.iter_mut() {
            let Some(f) = &mut m.follow else {
                continue;
            };
            let silent = heard
                .get(&(f.leader, f.shard))
                .is_none_or(|t| now.saturating_duration_since(*t) > q.dead_after);
            if silent && f.wake_at.is_none() {
                let mm = m.metrics.borrow_watched();
                let first = first_to_stand(
                    group,
                    mm.membership_config
                        .membership()
                        .voter_ids()
                        .filter(|id| *id != f.leader),
                );
                // The others wait for the first: one `dead_after`, or
                // `SECOND_STANDS_AFTER` of them while its node beats (it
                // is standing, for this group and its share of the
                // others; a vote request wakes this replica even when it
                // refuses it, and a quiet group's members hold the same
                // log, so its pre-vote is not refused for the log).
                let first_beats = first.is_some_and(|n| {
                    node_beats
                        .get_or_insert_with(|| self.latest_beat_by_node())
                        .get(&n)
                        .is_some_and(|t| now.saturating_duration_since(*t) <= q.dead_after)
                });
                f.wake_at = Some(if first == Some(mm.id) {
                    now
                } else if first_beats {
                    now + q.dead_after * SECOND_STANDS_AFTER
                } else {
                    now + q.dead_after
                });
                f.leader_silent = true;
            }
            if f.wake_at.is_none_or(|t| t > now) {
                continue;
            }
            if f.leader_silent {
                if campaigns.len() >= self.campaign_budget.get() {
                    // The next pass, once earlier campaigns have ended.
                    continue;
                }
                campaigns.insert(*group, (f.leader, now));
            }
            m.follow = None;
            m.raft.runtime_config().tick(true);
            self.note_woken(*group);
            woke += 1;
        }
        woke
    }

    /// Follower side, every interval: awake follower replicas whose
    /// leader's node has sent no beat for `dead_after` stand for election
    /// the way quiet ones do. Returns the replicas to ask for a pre-vote
    /// now (the caller triggers them).
    ///
    /// Why: an awake group (one written to in the last second, so the
    /// groups that matter most) elected by openraft's own timers alone.
    /// A follower's timer runs out an election timeout after its lease
    /// (0.7-1.4 s after 1.4 s: 2.1-2.8 s after the leader's last
    /// heartbeat), and both survivors' timers run, so their campaigns
    /// could meet in the same term and split the vote, each split costing
    /// another timeout. Here the member [`first_to_stand`] picks asks for
    /// a pre-vote as soon as the lease has run out (it cannot pass
    /// earlier: a voter whose lease runs refuses it), again every half
    /// `dead_after` while refused, and the other voters hold their own
    /// election timers back for one `dead_after` after that while the one
    /// picked beats (its node is alive and standing). Only liveness
    /// changes: every vote is still openraft's, a pre-vote changes no
    /// term, and a held timer is always let go.
    pub fn awake_stands(&self) -> Vec<RaftHandle> {
        let Some(q) = self.quiescence else {
            return Vec::new();
        };
        let now = Instant::now();
        let last_beat = self.latest_beat_by_node();
        let silent = |n: NodeId| {
            last_beat
                .get(&n)
                .is_some_and(|t| now.saturating_duration_since(*t) > q.dead_after)
        };
        let beats = |n: NodeId| {
            last_beat
                .get(&n)
                .is_some_and(|t| now.saturating_duration_since(*t) <= q.dead_after)
        };
        // A silence is new for `lease` after it is noticed: only then are
        // replicas looked at (a node down for hours costs no scan of every
        // group each interval).
        let new_silence = |t: &Instant| {
            let quiet_for = now.saturating_duration_since(*t);
            quiet_for > q.dead_after && quiet_for <= q.dead_after + q.lease
        };
        let mut stands = self.stands.borrow_mut();
        let any_new_silence = last_beat.values().any(new_silence);
        if !any_new_silence && stands.is_empty() {
            return Vec::new();
        }
        let groups = self.groups.borrow();
        // Over once the replica knows another leader (or none: it granted
        // a vote or stands itself), went quiet or left, or the leader's
        // node beats again. A held timer is let go.
        stands.retain(|group, s| {
            let keep = groups.get(group).is_some_and(|m| {
                m.follow.is_none()
                    && m.metrics.borrow_watched().current_leader == Some(s.leader)
                    && silent(s.leader)
            });
            if !keep
                && s.held
                && let Some(m) = groups.get(group)
            {
                m.raft.runtime_config().elect(true);
            }
            keep
        });
        let mut out = Vec::new();
        if any_new_silence {
            // Quiet replicas woken for a silent leader have their own
            // path (`check_followers`): the one picked stands at once, the
            // others wake later.
            let campaigns = self.campaigns.borrow();
            for (group, m) in groups.iter() {
                if m.follow.is_some() || stands.contains_key(group) || campaigns.contains_key(group)
                {
                    continue;
                }
                let mm = m.metrics.borrow_watched();
                if mm.state != ServerState::Follower {
                    continue;
                }
                let Some(leader) = mm.current_leader else {
                    continue;
                };
                // Only while the silence is new: a group woken later by the
                // quiet path (its other members wake three `dead_after`
                // on) is not held back again.
                let Some(last) = last_beat.get(&leader).copied().filter(new_silence) else {
                    continue;
                };
                let membership = mm.membership_config.membership();
                if leader == mm.id || !membership.voter_ids().any(|v| v == mm.id) {
                    continue;
                }
                let first = first_to_stand(group, membership.voter_ids().filter(|v| *v != leader));
                // A pre-vote passes once every voter's lease ran out: they
                // last heard the leader about when this node last did.
                let stand_at = last + q.lease + self.interval / 2;
                let stand = if first == Some(mm.id) {
                    Stand {
                        leader,
                        stands: true,
                        next_at: stand_at,
                        until: stand_at + q.dead_after * SECOND_STANDS_AFTER,
                        held: false,
                    }
                } else {
                    let held = first.is_some_and(beats);
                    if held {
                        m.raft.runtime_config().elect(false);
                    }
                    Stand {
                        leader,
                        stands: false,
                        next_at: stand_at,
                        until: stand_at + q.dead_after,
                        held,
                    }
                };
                stands.insert(*group, stand);
            }
        }
        for (group, s) in stands.iter_mut() {
            let Some(m) = groups.get(group) else {
                continue;
            };
            if now >= s.until {
                if s.held {
                    m.raft.runtime_config().elect(true);
                    s.held = false;
                }
                continue;
            }
            if s.stands && now >= s.next_at {
                s.next_at = now + q.dead_after / 2;
                out.push(m.raft.clone());
            }
        }
        out
    }

    /// Each peer node's latest beat heard here, over its shards: a node
    /// none of whose shards beat for `dead_after` is taken for silent.
    fn latest_beat_by_node(&self) -> HashMap<NodeId, Instant> {
        let mut latest: HashMap<NodeId, Instant> = HashMap::new();
        for ((node, _), t) in self.heard.borrow().iter() {
            let at = latest.entry(*node).or_insert(*t);
            *at = (*at).max(*t);
        }
        latest
    }

    /// How many awake replicas here stand for, or hold back from, an
    /// election because their leader's node went silent (tests).
    pub fn awake_stand_counts(&self) -> (usize, usize) {
        let stands = self.stands.borrow();
        let standing = stands.values().filter(|s| s.stands).count();
        (standing, stands.len() - standing)
    }

    /// How many replicas woken for a silent leader are campaigning here
    /// (see [`MAX_CAMPAIGNS`]).
    pub fn campaigns(&self) -> usize {
        self.campaigns.borrow().len()
    }

    /// Sets how many may campaign at once (at least 1; tests use a small
    /// budget to see the waves).
    pub fn set_campaign_budget(&self, budget: usize) {
        self.campaign_budget.set(budget.max(1));
    }

    /// Beats every interval until `stop` is set. The schedule is fixed
    /// (a slow pass does not push the next one back), but a stalled shard
    /// does not fire a burst of missed beats when it resumes. `transport`
    /// carries a quiescent ticker's beats.
    pub async fn run(self: Rc<Self>, transport: Option<Transport>, stop: Signal) {
        let mut next = Instant::now() + self.interval;
        let mut reported = (usize::MAX, usize::MAX, usize::MAX);
        let mut report_at = Instant::now() + QUIET_REPORT_INTERVAL;
        loop {
            if self.quiescence.is_some() && Instant::now() >= report_at {
                report_at = Instant::now() + QUIET_REPORT_INTERVAL;
                let (leading, following) = self.quiet_counts();
                let now = (self.len(), leading, following);
                if now != reported {
                    reported = now;
                    tracing::debug!(
                        groups = now.0,
                        quiet_leading = leading,
                        quiet_following = following,
                        "raft groups on this shard (quiet ones send no heartbeats)"
                    );
                }
            }
            let wait = next.saturating_duration_since(Instant::now());
            monoio::select! {
                _ = monoio::time::sleep(wait) => {}
                _ = stop.wait() => return,
            }
            self.beat(transport.as_ref()).await;
            self.check_followers();
            for raft in self.awake_stands() {
                // Fails only when the group has stopped.
                let _ = raft.trigger().elect(true).await;
            }
            next += self.interval;
            let now = Instant::now();
            if next < now {
                next = now + self.interval;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(i: u32) -> GroupId {
        // Topic ids are random UUIDs; any spread of bits will do here.
        let key = (u128::from(i / 5) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
        GroupId {
            key,
            index: (i % 5) as i32,
        }
    }

    #[test]
    fn the_survivors_of_a_dead_leader_share_who_stands_first() {
        let mut stands = BTreeMap::new();
        for i in 0..3_000 {
            let g = group(i);
            let first = first_to_stand(&g, [2, 1].into_iter()).unwrap();
            // Every node computes the same answer, whatever order it
            // lists the voters in.
            assert_eq!(first_to_stand(&g, [1, 2, 1].into_iter()), Some(first));
            *stands.entry(first).or_insert(0) += 1;
        }
        assert_eq!(stands.len(), 2, "{stands:?}");
        assert!(
            stands.values().all(|n| (1_200..=1_800).contains(n)),
            "{stands:?}"
        );
        assert_eq!(first_to_stand(&group(0), [7].into_iter()), Some(7));
        assert_eq!(first_to_stand(&group(0), std::iter::empty()), None);
    }
}
