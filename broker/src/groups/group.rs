//! The classic group state machine (JoinGroup, SyncGroup, Heartbeat,
//! LeaveGroup), free of I/O so that it can be tested on its own: callers
//! pass the time, and waiting members are answered through oneshot
//! channels when the rebalance they wait for completes.
//!
//! States and transitions are Kafka's (`ClassicGroup`):
//!
//! ```text
//! Empty --join--> PreparingRebalance --all joined / rebalance timeout--> CompletingRebalance
//! CompletingRebalance --leader's SyncGroup persisted--> Stable
//! Stable / CompletingRebalance --join of a new or changed member, leave, session expiry--> PreparingRebalance
//! PreparingRebalance --nobody rejoined--> Empty
//! ```
//!
//! `Dead` is never stored: a group that has neither members nor offsets
//! is dropped from the map, which is what a dead group amounts to here.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_channel::oneshot;
use kafka_protocol::ErrorCode;
use kafka_protocol::generated::join_group_response::JoinGroupResponseMember;
use kafka_protocol::generated::{JoinGroupResponse, SyncGroupResponse};

use super::records::{GroupValue, MemberValue, OffsetValue};

/// Kafka's `group.min.session.timeout.ms` and `group.max.session.timeout.ms`.
pub const MIN_SESSION_TIMEOUT_MS: i32 = 6_000;
pub const MAX_SESSION_TIMEOUT_MS: i32 = 1_800_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupState {
    Empty,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
    Dead,
}

impl GroupState {
    /// The name Kafka uses in DescribeGroups and ListGroups.
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
            GroupState::Dead => "Dead",
        }
    }
}

pub struct Member {
    pub id: String,
    pub instance_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub session_timeout_ms: i32,
    pub rebalance_timeout_ms: i32,
    pub protocol_type: String,
    /// (name, metadata) in the member's order of preference.
    pub protocols: Vec<(String, Bytes)>,
    pub assignment: Bytes,
    pub last_heartbeat: Instant,
    join_waiter: Option<oneshot::Sender<JoinGroupResponse>>,
    sync_waiter: Option<oneshot::Sender<SyncGroupResponse>>,
}

impl Member {
    pub fn metadata_for(&self, protocol: &str) -> Bytes {
        self.protocols
            .iter()
            .find(|(n, _)| n == protocol)
            .map(|(_, m)| m.clone())
            .unwrap_or_default()
    }

    fn same_protocols(&self, protocols: &[(String, Bytes)]) -> bool {
        self.protocols == protocols
    }

    /// The member's session has run out (a member waiting in a join is
    /// not timed: the join itself is bounded by the rebalance timeout).
    fn expired(&self, now: Instant) -> bool {
        self.join_waiter.is_none()
            && now.saturating_duration_since(self.last_heartbeat)
                > Duration::from_millis(self.session_timeout_ms.max(0) as u64)
    }
}

/// A committed offset, with where its record is in the log (a later
/// record always wins, whatever order concurrent appends finish in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    pub value: OffsetValue,
    pub log_offset: i64,
}

pub struct Group {
    pub id: String,
    pub state: GroupState,
    pub generation: i32,
    pub protocol_type: Option<String>,
    pub protocol: Option<String>,
    pub leader: Option<String>,
    /// In join order (the first member becomes leader).
    pub members: Vec<Member>,
    /// KIP-394: member ids handed out with MEMBER_ID_REQUIRED, with when
    /// they lapse if the member does not come back with them.
    pub pending: HashMap<String, Instant>,
    /// group.instance.id -> member id (KIP-345).
    pub static_members: HashMap<String, String>,
    pub offsets: HashMap<(String, i32), Committed>,
    /// PreparingRebalance: when the join phase ends at the latest.
    join_deadline: Option<Instant>,
    /// PreparingRebalance out of Empty: the join phase lasts at least this
    /// long (`group.initial.rebalance.delay.ms`), so that consumers that
    /// start together rebalance once.
    initial_delay_until: Option<Instant>,
    initial_delay: Duration,
    /// Wall-clock ms when the group last became Empty (Kafka's
    /// `currentStateTimestamp`); `None` for a group that never had members
    /// (its offsets expire by their commit timestamps).
    pub empty_since_ms: Option<i64>,
    /// The group became Empty and its (member-less) metadata record is not
    /// written yet; the coordinator tick writes it, so that a restart does
    /// not reload members that have left.
    pub store_empty: bool,
    /// `group.max.size`: a new member beyond it gets GROUP_MAX_SIZE_REACHED.
    pub max_size: usize,
    /// OffsetCommits whose records are appended but not yet durable (and
    /// so not yet in `offsets`), by partition: the expiry tick leaves the
    /// group alone meanwhile, and a deletion tombstones these too.
    pub inflight_commits: HashMap<(String, i32), usize>,
    /// Tells this group from a later one of the same id (after a
    /// deletion): a commit finishing after its group was deleted does not
    /// land in the new one.
    pub incarnation: u64,
}

thread_local! {
    static NEXT_INCARNATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Group {
    /// Notes a commit of these partitions as in flight.
    pub fn begin_commit(&mut self, keys: &[(String, i32)]) {
        for k in keys {
            *self.inflight_commits.entry(k.clone()).or_default() += 1;
        }
    }

    /// The commit is durable (or failed).
    pub fn end_commit(&mut self, keys: &[(String, i32)]) {
        for k in keys {
            if let Some(n) = self.inflight_commits.get_mut(k) {
                *n -= 1;
                if *n == 0 {
                    self.inflight_commits.remove(k);
                }
            }
        }
    }

    /// Every partition with an offset, committed or in flight: what a
    /// deletion must tombstone.
    pub fn offset_keys(&self) -> Vec<(String, i32)> {
        let mut keys: Vec<(String, i32)> = self
            .offsets
            .keys()
            .chain(self.inflight_commits.keys())
            .cloned()
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }
}

/// What a JoinGroup or SyncGroup gets: an answer now, or later.
pub enum Outcome<T> {
    Now(T),
    Wait(oneshot::Receiver<T>),
}

/// A leader's assignment that must be persisted before the group becomes
/// Stable.
pub struct PendingStore {
    pub generation: i32,
    pub value: GroupValue,
}

fn join_error(code: ErrorCode, member_id: &str) -> JoinGroupResponse {
    JoinGroupResponse {
        error_code: code.code(),
        generation_id: -1,
        member_id: member_id.to_string(),
        protocol_name: None,
        ..Default::default()
    }
}

pub fn sync_error(code: ErrorCode) -> SyncGroupResponse {
    SyncGroupResponse {
        error_code: code.code(),
        ..Default::default()
    }
}

/// A JoinGroup as the state machine sees it.
pub struct JoinParams {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub session_timeout_ms: i32,
    pub rebalance_timeout_ms: i32,
    pub protocol_type: String,
    pub protocols: Vec<(String, Bytes)>,
    /// v4+: a new dynamic member first gets MEMBER_ID_REQUIRED.
    pub require_known_member_id: bool,
}

/// A member id as Kafka makes them: client id, a dash, a UUID.
pub fn new_member_id(client_id: &str) -> String {
    format!("{client_id}-{}", uuid::Uuid::new_v4())
}

impl Group {
    pub fn new(id: String, initial_delay: Duration) -> Group {
        Group {
            id,
            state: GroupState::Empty,
            generation: 0,
            protocol_type: None,
            protocol: None,
            leader: None,
            members: Vec::new(),
            pending: HashMap::new(),
            static_members: HashMap::new(),
            offsets: HashMap::new(),
            join_deadline: None,
            initial_delay_until: None,
            initial_delay,
            empty_since_ms: None,
            store_empty: false,
            max_size: usize::MAX,
            inflight_commits: HashMap::new(),
            incarnation: NEXT_INCARNATION.with(|n| {
                n.set(n.get() + 1);
                n.get()
            }),
        }
    }

    pub fn set_initial_delay(&mut self, d: Duration) {
        self.initial_delay = d;
    }

    fn member_index(&self, id: &str) -> Option<usize> {
        self.members.iter().position(|m| m.id == id)
    }

    pub fn member(&self, id: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.id == id)
    }

    /// A group with nothing left to remember.
    pub fn is_disposable(&self) -> bool {
        self.state == GroupState::Empty
            && self.offsets.is_empty()
            && self.pending.is_empty()
            && !self.store_empty
            && self.inflight_commits.is_empty()
    }

    /// The protocols every member (and `extra`, a joining member) supports,
    /// in the first member's order.
    fn candidates<'a>(
        &'a self,
        extra: Option<&'a [(String, Bytes)]>,
        skip: Option<&str>,
    ) -> Vec<&'a str> {
        let mut lists: Vec<&[(String, Bytes)]> = self
            .members
            .iter()
            .filter(|m| Some(m.id.as_str()) != skip)
            .map(|m| m.protocols.as_slice())
            .collect();
        if let Some(e) = extra {
            lists.push(e);
        }
        let Some(first) = lists.first() else {
            return Vec::new();
        };
        first
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| lists.iter().all(|l| l.iter().any(|(m, _)| m == n)))
            .collect()
    }

    /// Kafka's selection: each member votes for its most preferred
    /// protocol among those all support; the most votes wins.
    fn select_protocol(&self) -> Option<String> {
        let cands = self.candidates(None, None);
        let mut votes: Vec<(&str, usize)> = cands.iter().map(|c| (*c, 0)).collect();
        for m in &self.members {
            if let Some((name, _)) = m
                .protocols
                .iter()
                .find(|(n, _)| cands.contains(&n.as_str()))
                && let Some(v) = votes.iter_mut().find(|(c, _)| c == name)
            {
                v.1 += 1;
            }
        }
        let mut best: Option<(&str, usize)> = None;
        for (c, n) in votes {
            if best.is_none_or(|(_, b)| n > b) {
                best = Some((c, n));
            }
        }
        best.map(|(c, _)| c.to_string())
    }

    fn rebalance_timeout(&self) -> Duration {
        let ms = self
            .members
            .iter()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(0)
            .max(0);
        Duration::from_millis(ms as u64)
    }

    /// The answer to a member that joins the current generation without
    /// causing a rebalance.
    fn current_join_response(&self, member_id: &str, skip_assignment: bool) -> JoinGroupResponse {
        let is_leader = self.leader.as_deref() == Some(member_id);
        let members = if is_leader {
            self.member_list()
        } else {
            Vec::new()
        };
        JoinGroupResponse {
            error_code: ErrorCode::None.code(),
            generation_id: self.generation,
            protocol_type: self.protocol_type.clone(),
            protocol_name: self.protocol.clone(),
            leader: self.leader.clone().unwrap_or_default(),
            skip_assignment: is_leader && skip_assignment,
            member_id: member_id.to_string(),
            members,
            ..Default::default()
        }
    }

    fn member_list(&self) -> Vec<JoinGroupResponseMember> {
        let proto = self.protocol.clone().unwrap_or_default();
        self.members
            .iter()
            .map(|m| JoinGroupResponseMember {
                member_id: m.id.clone(),
                group_instance_id: m.instance_id.clone(),
                metadata: m.metadata_for(&proto),
                ..Default::default()
            })
            .collect()
    }

    /// Moves to PreparingRebalance: members waiting for their assignment
    /// are told to rejoin.
    fn prepare_rebalance(&mut self, now: Instant) {
        if self.state == GroupState::PreparingRebalance {
            return;
        }
        if self.state == GroupState::CompletingRebalance {
            for m in &mut self.members {
                m.assignment = Bytes::new();
                if let Some(w) = m.sync_waiter.take() {
                    let _ = w.send(sync_error(ErrorCode::RebalanceInProgress));
                }
            }
        }
        self.initial_delay_until =
            if self.state == GroupState::Empty && !self.initial_delay.is_zero() {
                Some(now + self.initial_delay)
            } else {
                None
            };
        self.state = GroupState::PreparingRebalance;
        self.empty_since_ms = None;
        self.join_deadline = Some(now + self.rebalance_timeout());
        tracing::debug!(group = %self.id, generation = self.generation, "preparing rebalance");
    }

    /// Ends the join phase if every member (and every KIP-394 pending
    /// member) has joined, or the rebalance timeout has passed.
    pub fn try_complete_join(&mut self, now: Instant) -> bool {
        if self.state != GroupState::PreparingRebalance {
            return false;
        }
        let deadline_passed = self.join_deadline.is_none_or(|d| now >= d);
        if let Some(d) = self.initial_delay_until
            && now < d
            && !deadline_passed
        {
            return false;
        }
        let all_joined =
            self.members.iter().all(|m| m.join_waiter.is_some()) && self.pending.is_empty();
        if !all_joined && !deadline_passed {
            return false;
        }
        // Members that did not rejoin in time are out.
        let (stay, gone): (Vec<Member>, Vec<Member>) = self
            .members
            .drain(..)
            .partition(|m| m.join_waiter.is_some());
        self.members = stay;
        for m in gone {
            tracing::info!(group = %self.id, member = %m.id, "member did not rejoin in time");
            if let Some(i) = &m.instance_id {
                self.static_members.remove(i);
            }
        }
        self.generation = self.generation.wrapping_add(1);
        self.join_deadline = None;
        self.initial_delay_until = None;
        if self.members.is_empty() {
            self.state = GroupState::Empty;
            self.empty_since_ms = Some(crate::partition::now_ms());
            self.store_empty = true;
            self.protocol = None;
            self.leader = None;
            tracing::info!(group = %self.id, generation = self.generation, "group is empty");
            return true;
        }
        self.protocol = self.select_protocol();
        if self
            .leader
            .as_deref()
            .is_none_or(|l| self.member_index(l).is_none())
        {
            self.leader = self.members.first().map(|m| m.id.clone());
        }
        self.state = GroupState::CompletingRebalance;
        tracing::info!(group = %self.id, generation = self.generation, members = self.members.len(),
            protocol = ?self.protocol, "join phase complete");
        let list = self.member_list();
        for m in &mut self.members {
            m.last_heartbeat = now;
            let is_leader = self.leader.as_deref() == Some(m.id.as_str());
            let resp = JoinGroupResponse {
                error_code: ErrorCode::None.code(),
                generation_id: self.generation,
                protocol_type: self.protocol_type.clone(),
                protocol_name: self.protocol.clone(),
                leader: self.leader.clone().unwrap_or_default(),
                member_id: m.id.clone(),
                members: if is_leader { list.clone() } else { Vec::new() },
                ..Default::default()
            };
            if let Some(w) = m.join_waiter.take() {
                let _ = w.send(resp);
            }
        }
        true
    }

    fn add_member(
        &mut self,
        p: JoinParams,
        id: String,
        now: Instant,
    ) -> oneshot::Receiver<JoinGroupResponse> {
        let (tx, rx) = oneshot::channel();
        if let Some(i) = &p.instance_id {
            self.static_members.insert(i.clone(), id.clone());
        }
        if self.protocol_type.is_none() || self.members.is_empty() {
            self.protocol_type = Some(p.protocol_type.clone());
        }
        self.members.push(Member {
            id,
            instance_id: p.instance_id,
            client_id: p.client_id,
            client_host: p.client_host,
            session_timeout_ms: p.session_timeout_ms,
            rebalance_timeout_ms: p.rebalance_timeout_ms,
            protocol_type: p.protocol_type,
            protocols: p.protocols,
            assignment: Bytes::new(),
            last_heartbeat: now,
            join_waiter: Some(tx),
            sync_waiter: None,
        });
        if self.state == GroupState::PreparingRebalance {
            // A new member arriving during the initial delay extends it,
            // up to the rebalance timeout (Kafka's InitialDelayedJoin).
            if let (Some(_), Some(deadline)) = (self.initial_delay_until, self.join_deadline) {
                self.initial_delay_until = Some((now + self.initial_delay).min(deadline));
            }
        } else {
            self.prepare_rebalance(now);
        }
        // The join deadline follows the largest rebalance timeout.
        if let Some(d) = self.join_deadline {
            self.join_deadline = Some(
                d.max(
                    now + Duration::from_millis(
                        self.members
                            .last()
                            .map(|m| m.rebalance_timeout_ms.max(0))
                            .unwrap_or(0) as u64,
                    ),
                ),
            );
        }
        self.try_complete_join(now);
        rx
    }

    fn update_member(
        &mut self,
        idx: usize,
        p: &JoinParams,
        now: Instant,
    ) -> oneshot::Receiver<JoinGroupResponse> {
        let (tx, rx) = oneshot::channel();
        let m = &mut self.members[idx];
        m.protocols = p.protocols.clone();
        m.session_timeout_ms = p.session_timeout_ms;
        m.rebalance_timeout_ms = p.rebalance_timeout_ms;
        m.last_heartbeat = now;
        // A second join from the same member replaces the first (whose
        // connection has most likely given up).
        if let Some(old) = m.join_waiter.replace(tx) {
            let _ = old.send(join_error(ErrorCode::RebalanceInProgress, &m.id.clone()));
        }
        self.prepare_rebalance(now);
        self.try_complete_join(now);
        rx
    }

    /// JoinGroup. `p` has been validated by the caller (group id, session
    /// timeout, protocols present).
    pub fn join(&mut self, p: JoinParams, now: Instant) -> Outcome<JoinGroupResponse> {
        if !self.members.is_empty() {
            let skip = (!p.member_id.is_empty()).then_some(p.member_id.as_str());
            let skip = skip.or_else(|| {
                p.instance_id
                    .as_ref()
                    .and_then(|i| self.static_members.get(i))
                    .map(String::as_str)
            });
            let others = self.members.iter().any(|m| Some(m.id.as_str()) != skip);
            if others
                && (self.protocol_type.as_deref() != Some(p.protocol_type.as_str())
                    || self.candidates(Some(&p.protocols), skip).is_empty())
            {
                return Outcome::Now(join_error(
                    ErrorCode::InconsistentGroupProtocol,
                    &p.member_id,
                ));
            }
        }
        // Kafka's `isFull` check: only a member that is not in the group
        // yet (a new dynamic member, or a static one not yet known) is
        // refused.
        let known_static = p
            .instance_id
            .as_ref()
            .is_some_and(|i| self.static_members.contains_key(i));
        let new_member = if p.member_id.is_empty() {
            !known_static
        } else {
            self.member_index(&p.member_id).is_none()
        };
        if new_member && self.members.len() >= self.max_size {
            return Outcome::Now(join_error(ErrorCode::GroupMaxSizeReached, &p.member_id));
        }
        if p.member_id.is_empty() {
            if let Some(inst) = p.instance_id.clone() {
                if let Some(old_id) = self.static_members.get(&inst).cloned()
                    && let Some(idx) = self.member_index(&old_id)
                {
                    return self.static_rejoin(idx, p, now);
                }
                let id = new_member_id(&p.client_id);
                return Outcome::Wait(self.add_member(p, id, now));
            }
            let id = new_member_id(&p.client_id);
            if p.require_known_member_id {
                let lapse = now + Duration::from_millis(p.session_timeout_ms.max(0) as u64);
                self.pending.insert(id.clone(), lapse);
                return Outcome::Now(join_error(ErrorCode::MemberIdRequired, &id));
            }
            return Outcome::Wait(self.add_member(p, id, now));
        }
        if self.pending.remove(&p.member_id).is_some() {
            let id = p.member_id.clone();
            return Outcome::Wait(self.add_member(p, id, now));
        }
        let Some(idx) = self.member_index(&p.member_id) else {
            return Outcome::Now(join_error(ErrorCode::UnknownMemberId, &p.member_id));
        };
        if let Some(inst) = &p.instance_id
            && self.static_members.get(inst) != Some(&p.member_id)
        {
            return Outcome::Now(join_error(ErrorCode::FencedInstanceId, &p.member_id));
        }
        let unchanged = self.members[idx].same_protocols(&p.protocols);
        let is_leader = self.leader.as_deref() == Some(p.member_id.as_str());
        match self.state {
            GroupState::CompletingRebalance if unchanged => {
                self.members[idx].last_heartbeat = now;
                Outcome::Now(self.current_join_response(&p.member_id, false))
            }
            GroupState::Stable if unchanged && !is_leader => {
                self.members[idx].last_heartbeat = now;
                Outcome::Now(self.current_join_response(&p.member_id, false))
            }
            _ => Outcome::Wait(self.update_member(idx, &p, now)),
        }
    }

    /// KIP-345: a static member rejoining with an empty member id takes a
    /// new id; its old id is fenced. In a Stable group with unchanged
    /// protocols this causes no rebalance.
    fn static_rejoin(
        &mut self,
        idx: usize,
        p: JoinParams,
        now: Instant,
    ) -> Outcome<JoinGroupResponse> {
        let new_id = new_member_id(&p.client_id);
        let inst = p.instance_id.clone().unwrap_or_default();
        let unchanged = self.members[idx].same_protocols(&p.protocols);
        let old_id = std::mem::replace(&mut self.members[idx].id, new_id.clone());
        tracing::info!(group = %self.id, instance = %inst, old = %old_id, new = %new_id, "static member rejoined");
        self.static_members.insert(inst, new_id.clone());
        let was_leader = self.leader.as_deref() == Some(old_id.as_str());
        if was_leader {
            self.leader = Some(new_id.clone());
        }
        {
            let m = &mut self.members[idx];
            m.client_id = p.client_id.clone();
            m.client_host = p.client_host.clone();
            m.session_timeout_ms = p.session_timeout_ms;
            m.rebalance_timeout_ms = p.rebalance_timeout_ms;
            m.last_heartbeat = now;
            if let Some(w) = m.join_waiter.take() {
                let _ = w.send(join_error(ErrorCode::FencedInstanceId, &old_id));
            }
            if let Some(w) = m.sync_waiter.take() {
                let _ = w.send(sync_error(ErrorCode::FencedInstanceId));
            }
        }
        if self.state == GroupState::Stable && unchanged {
            // A rejoining leader gets the member list (v9+: told to skip
            // the assignment); its SyncGroup in Stable just returns its
            // current assignment, so no rebalance happens either way.
            return Outcome::Now(self.current_join_response(&new_id, true));
        }
        Outcome::Wait(self.update_member(idx, &p, now))
    }

    /// Checks a member's identity for Sync, Heartbeat and OffsetCommit.
    fn check_member(&self, member_id: &str, instance_id: Option<&str>) -> Result<usize, ErrorCode> {
        if let Some(inst) = instance_id
            && let Some(owner) = self.static_members.get(inst)
            && owner != member_id
        {
            return Err(ErrorCode::FencedInstanceId);
        }
        self.member_index(member_id)
            .ok_or(ErrorCode::UnknownMemberId)
    }

    /// SyncGroup. When the leader's assignment arrives, the caller must
    /// persist the returned [`PendingStore`] and then call
    /// [`Group::complete_sync`].
    #[allow(clippy::too_many_arguments)]
    pub fn sync(
        &mut self,
        member_id: &str,
        instance_id: Option<&str>,
        generation: i32,
        protocol_type: Option<&str>,
        protocol_name: Option<&str>,
        assignments: Vec<(String, Bytes)>,
        now: Instant,
    ) -> (Outcome<SyncGroupResponse>, Option<PendingStore>) {
        let now_err = |c| (Outcome::Now(sync_error(c)), None);
        let idx = match self.check_member(member_id, instance_id) {
            Ok(i) => i,
            Err(c) => return now_err(c),
        };
        if generation != self.generation {
            return now_err(ErrorCode::IllegalGeneration);
        }
        if protocol_type.is_some_and(|t| Some(t) != self.protocol_type.as_deref())
            || protocol_name.is_some_and(|n| Some(n) != self.protocol.as_deref())
        {
            return now_err(ErrorCode::InconsistentGroupProtocol);
        }
        match self.state {
            GroupState::Empty | GroupState::Dead => now_err(ErrorCode::UnknownMemberId),
            GroupState::PreparingRebalance => now_err(ErrorCode::RebalanceInProgress),
            GroupState::Stable => {
                self.members[idx].last_heartbeat = now;
                let a = self.members[idx].assignment.clone();
                (Outcome::Now(self.ok_sync(a)), None)
            }
            GroupState::CompletingRebalance => {
                let (tx, rx) = oneshot::channel();
                self.members[idx].sync_waiter = Some(tx);
                self.members[idx].last_heartbeat = now;
                if self.leader.as_deref() != Some(member_id) {
                    return (Outcome::Wait(rx), None);
                }
                for m in &mut self.members {
                    m.assignment = assignments
                        .iter()
                        .find(|(id, _)| *id == m.id)
                        .map(|(_, a)| a.clone())
                        .unwrap_or_default();
                }
                let store = PendingStore {
                    generation: self.generation,
                    value: self.to_value(),
                };
                (Outcome::Wait(rx), Some(store))
            }
        }
    }

    fn ok_sync(&self, assignment: Bytes) -> SyncGroupResponse {
        SyncGroupResponse {
            error_code: ErrorCode::None.code(),
            protocol_type: self.protocol_type.clone(),
            protocol_name: self.protocol.clone(),
            assignment,
            ..Default::default()
        }
    }

    /// After the leader's assignment was persisted (or not): Stable and
    /// everyone gets their assignment, or a new rebalance.
    pub fn complete_sync(&mut self, generation: i32, stored: Result<(), ErrorCode>, now: Instant) {
        if self.state != GroupState::CompletingRebalance || self.generation != generation {
            return;
        }
        match stored {
            Ok(()) => {
                self.state = GroupState::Stable;
                tracing::info!(group = %self.id, generation, "group is stable");
                let (pt, pn) = (self.protocol_type.clone(), self.protocol.clone());
                for m in &mut self.members {
                    if let Some(w) = m.sync_waiter.take() {
                        m.last_heartbeat = now;
                        let _ = w.send(SyncGroupResponse {
                            error_code: ErrorCode::None.code(),
                            protocol_type: pt.clone(),
                            protocol_name: pn.clone(),
                            assignment: m.assignment.clone(),
                            ..Default::default()
                        });
                    }
                }
            }
            Err(code) => {
                for m in &mut self.members {
                    m.assignment = Bytes::new();
                    if let Some(w) = m.sync_waiter.take() {
                        let _ = w.send(sync_error(code));
                    }
                }
                self.prepare_rebalance(now);
            }
        }
    }

    /// Heartbeat.
    pub fn heartbeat(
        &mut self,
        member_id: &str,
        instance_id: Option<&str>,
        generation: i32,
        now: Instant,
    ) -> ErrorCode {
        if matches!(self.state, GroupState::Empty | GroupState::Dead) {
            return ErrorCode::UnknownMemberId;
        }
        let idx = match self.check_member(member_id, instance_id) {
            Ok(i) => i,
            Err(c) => return c,
        };
        if generation != self.generation {
            return ErrorCode::IllegalGeneration;
        }
        self.members[idx].last_heartbeat = now;
        match self.state {
            GroupState::PreparingRebalance => ErrorCode::RebalanceInProgress,
            _ => ErrorCode::None,
        }
    }

    /// One member of a LeaveGroup (an empty member id with an instance id
    /// names the static member).
    pub fn leave(&mut self, member_id: &str, instance_id: Option<&str>, now: Instant) -> ErrorCode {
        let id = match (member_id.is_empty(), instance_id) {
            (true, Some(inst)) => match self.static_members.get(inst) {
                Some(id) => id.clone(),
                None => return ErrorCode::UnknownMemberId,
            },
            _ => member_id.to_string(),
        };
        if self.pending.remove(&id).is_some() {
            self.try_complete_join(now);
            return ErrorCode::None;
        }
        if let Some(inst) = instance_id
            && self
                .static_members
                .get(inst)
                .is_some_and(|owner| *owner != id)
        {
            return ErrorCode::FencedInstanceId;
        }
        let Some(idx) = self.member_index(&id) else {
            return ErrorCode::UnknownMemberId;
        };
        tracing::info!(group = %self.id, member = %id, "member left");
        self.remove_member(idx, now);
        ErrorCode::None
    }

    fn remove_member(&mut self, idx: usize, now: Instant) {
        let m = self.members.remove(idx);
        if let Some(i) = &m.instance_id {
            self.static_members.remove(i);
        }
        if let Some(w) = m.join_waiter {
            let _ = w.send(join_error(ErrorCode::UnknownMemberId, &m.id));
        }
        if let Some(w) = m.sync_waiter {
            let _ = w.send(sync_error(ErrorCode::UnknownMemberId));
        }
        if self.leader.as_deref() == Some(m.id.as_str()) {
            self.leader = None;
        }
        match self.state {
            GroupState::Stable | GroupState::CompletingRebalance => self.prepare_rebalance(now),
            _ => {}
        }
        self.try_complete_join(now);
    }

    /// Periodic work: expired sessions and KIP-394 ids, finished join
    /// phases.
    pub fn tick(&mut self, now: Instant) {
        self.pending.retain(|_, lapse| *lapse > now);
        while let Some(idx) = self.members.iter().position(|m| m.expired(now)) {
            tracing::info!(group = %self.id, member = %self.members[idx].id, "member session expired");
            self.remove_member(idx, now);
        }
        self.try_complete_join(now);
    }

    /// Validates an OffsetCommit (Kafka's `ClassicGroup.validateOffsetCommit`).
    pub fn validate_commit(
        &self,
        member_id: &str,
        instance_id: Option<&str>,
        generation: i32,
    ) -> Result<(), ErrorCode> {
        if generation < 0 && member_id.is_empty() && self.state == GroupState::Empty {
            // A consumer without group membership (or an admin client).
            return Ok(());
        }
        if self.state == GroupState::CompletingRebalance {
            return Err(ErrorCode::RebalanceInProgress);
        }
        self.check_member(member_id, instance_id)?;
        if generation != self.generation {
            return Err(ErrorCode::IllegalGeneration);
        }
        Ok(())
    }

    /// Applies a committed offset whose record is at `log_offset`.
    pub fn apply_offset(
        &mut self,
        topic: String,
        partition: i32,
        value: Option<OffsetValue>,
        log_offset: i64,
    ) {
        let key = (topic, partition);
        if let Some(c) = self.offsets.get(&key)
            && c.log_offset > log_offset
        {
            return;
        }
        match value {
            Some(value) => {
                self.offsets.insert(key, Committed { value, log_offset });
            }
            None => {
                self.offsets.remove(&key);
            }
        }
    }

    /// The topics the members subscribe to, from the consumer protocol's
    /// subscription metadata; `None` when they cannot be known (another
    /// protocol type, or metadata that does not parse), which callers must
    /// treat as "every topic".
    pub fn subscribed_topics(&self) -> Option<std::collections::HashSet<String>> {
        if self.protocol_type.as_deref() != Some("consumer") {
            return None;
        }
        let proto = self.protocol.clone()?;
        let mut all = std::collections::HashSet::new();
        for m in &self.members {
            all.extend(subscription_topics(&m.metadata_for(&proto))?);
        }
        Some(all)
    }

    /// The group's metadata record value.
    pub fn to_value(&self) -> GroupValue {
        let proto = self.protocol.clone().unwrap_or_default();
        GroupValue {
            protocol_type: self.protocol_type.clone().unwrap_or_default(),
            generation: self.generation,
            protocol: self.protocol.clone(),
            leader: self.leader.clone(),
            state_timestamp: crate::partition::now_ms(),
            members: self
                .members
                .iter()
                .map(|m| MemberValue {
                    member_id: m.id.clone(),
                    instance_id: m.instance_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    rebalance_timeout: m.rebalance_timeout_ms,
                    session_timeout: m.session_timeout_ms,
                    subscription: m.metadata_for(&proto),
                    assignment: m.assignment.clone(),
                })
                .collect(),
        }
    }

    /// Restores a group from its metadata record (Kafka's
    /// `GroupMetadataManager.loadGroup`): generation, protocol, leader and
    /// the members of the last completed rebalance, Stable, each with a
    /// fresh session; they go on heartbeating without rejoining, and those
    /// that are gone expire after their session timeout. A record without
    /// members leaves the group Empty since the record's time.
    pub fn load_value(&mut self, v: &GroupValue, now: Instant) {
        self.generation = v.generation;
        self.protocol_type = (!v.protocol_type.is_empty()).then(|| v.protocol_type.clone());
        self.members.clear();
        self.static_members.clear();
        self.join_deadline = None;
        self.initial_delay_until = None;
        self.store_empty = false;
        match &v.protocol {
            Some(proto) if !v.members.is_empty() => {
                for m in &v.members {
                    if let Some(i) = &m.instance_id {
                        self.static_members.insert(i.clone(), m.member_id.clone());
                    }
                    self.members.push(Member {
                        id: m.member_id.clone(),
                        instance_id: m.instance_id.clone(),
                        client_id: m.client_id.clone(),
                        client_host: m.client_host.clone(),
                        session_timeout_ms: m.session_timeout,
                        rebalance_timeout_ms: m.rebalance_timeout,
                        protocol_type: v.protocol_type.clone(),
                        protocols: vec![(proto.clone(), m.subscription.clone())],
                        assignment: m.assignment.clone(),
                        last_heartbeat: now,
                        join_waiter: None,
                        sync_waiter: None,
                    });
                }
                self.protocol = Some(proto.clone());
                self.leader = v
                    .leader
                    .clone()
                    .filter(|l| self.members.iter().any(|m| &m.id == l))
                    .or_else(|| self.members.first().map(|m| m.id.clone()));
                self.state = GroupState::Stable;
                self.empty_since_ms = None;
            }
            _ => {
                self.protocol = None;
                self.leader = None;
                self.state = GroupState::Empty;
                self.empty_since_ms = Some(v.state_timestamp);
            }
        }
    }

    /// The committed offsets that have expired at wall-clock `now_ms` under
    /// `offsets.retention.minutes` (Kafka's rule for a classic group: only
    /// once the group is Empty, counted from when it became Empty, or from
    /// the commit for a group that never had members). Unlike Kafka, a
    /// commit made after the group became Empty (an admin reset) counts from
    /// its own timestamp, so a reset of a long-empty group is not dropped at
    /// the next check.
    pub fn expired_offsets(&self, now_ms: i64, retention_ms: i64) -> Vec<(String, i32)> {
        // A commit in flight is already in the log but not yet here: a
        // tombstone computed now could land after it and delete it.
        if self.state != GroupState::Empty
            || !self.members.is_empty()
            || !self.inflight_commits.is_empty()
        {
            return Vec::new();
        }
        self.offsets
            .iter()
            .filter(|(_, c)| {
                let base = match self.empty_since_ms {
                    Some(t) => t.max(c.value.commit_timestamp),
                    None => c.value.commit_timestamp,
                };
                now_ms.saturating_sub(base) >= retention_ms
            })
            .map(|(k, _)| k.clone())
            .collect()
    }
}

/// The topics of a `ConsumerProtocolSubscription` (every version starts
/// with `int16 version, [string] topics`, non-flexible).
pub fn subscription_topics(meta: &[u8]) -> Option<Vec<String>> {
    let n = i32::from_be_bytes(meta.get(2..6)?.try_into().ok()?);
    let mut at = 6usize;
    let mut out = Vec::new();
    for _ in 0..n.max(0) {
        let len = i16::from_be_bytes(meta.get(at..at + 2)?.try_into().ok()?);
        at += 2;
        let len = usize::try_from(len).ok()?;
        out.push(
            std::str::from_utf8(meta.get(at..at + len)?)
                .ok()?
                .to_string(),
        );
        at += len;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(member_id: &str, protos: &[&str]) -> JoinParams {
        JoinParams {
            member_id: member_id.into(),
            instance_id: None,
            client_id: "c".into(),
            client_host: "/h".into(),
            session_timeout_ms: 10_000,
            rebalance_timeout_ms: 30_000,
            protocol_type: "consumer".into(),
            protocols: protos
                .iter()
                .map(|p| (p.to_string(), Bytes::from_static(b"meta")))
                .collect(),
            require_known_member_id: true,
        }
    }

    fn now_resp(o: Outcome<JoinGroupResponse>) -> JoinGroupResponse {
        match o {
            Outcome::Now(r) => r,
            Outcome::Wait(_) => panic!("expected an immediate answer"),
        }
    }

    fn waiting(o: Outcome<JoinGroupResponse>) -> oneshot::Receiver<JoinGroupResponse> {
        match o {
            Outcome::Wait(r) => r,
            Outcome::Now(r) => panic!("expected to wait, got {r:?}"),
        }
    }

    /// Joins a new dynamic member through MEMBER_ID_REQUIRED.
    fn join_new(
        g: &mut Group,
        protos: &[&str],
        now: Instant,
    ) -> (String, oneshot::Receiver<JoinGroupResponse>) {
        let r = now_resp(g.join(params("", protos), now));
        assert_eq!(r.error_code, ErrorCode::MemberIdRequired.code());
        let id = r.member_id.clone();
        (id.clone(), waiting(g.join(params(&id, protos), now)))
    }

    #[test]
    fn two_members_rebalance_after_initial_delay() {
        let t0 = Instant::now();
        let mut g = Group::new("g".into(), Duration::from_millis(100));
        let (a, mut ra) = join_new(&mut g, &["range", "roundrobin"], t0);
        assert_eq!(g.state, GroupState::PreparingRebalance);
        let (b, mut rb) = join_new(&mut g, &["roundrobin", "range"], t0);
        // Both joined but the initial delay holds the join phase open.
        g.tick(t0 + Duration::from_millis(50));
        assert_eq!(g.state, GroupState::PreparingRebalance);
        g.tick(t0 + Duration::from_millis(150));
        assert_eq!(g.state, GroupState::CompletingRebalance);
        let ja = ra.try_recv().unwrap().unwrap();
        let jb = rb.try_recv().unwrap().unwrap();
        assert_eq!(ja.generation_id, 1);
        assert_eq!(ja.leader, a);
        assert_eq!(ja.members.len(), 2);
        assert!(jb.members.is_empty());
        // One vote each; the first candidate in the first member's order wins.
        assert_eq!(ja.protocol_name.as_deref(), Some("range"));
        // Follower syncs first and waits; the leader's sync completes both.
        let now = t0 + Duration::from_millis(200);
        let (fo, store) = g.sync(&b, None, 1, None, None, vec![], now);
        assert!(store.is_none());
        let Outcome::Wait(mut fb) = fo else { panic!() };
        let asg = vec![
            (a.clone(), Bytes::from_static(b"A")),
            (b.clone(), Bytes::from_static(b"B")),
        ];
        assert!(
            matches!(g.sync(&a, None, 0, None, None, asg.clone(), now).0, Outcome::Now(r) if r.error_code == ErrorCode::IllegalGeneration.code())
        );
        let (lo, store) = g.sync(&a, None, 1, None, None, asg, now);
        let store = store.expect("leader's assignment is persisted");
        assert_eq!(store.value.members.len(), 2);
        g.complete_sync(store.generation, Ok(()), now);
        assert_eq!(g.state, GroupState::Stable);
        let Outcome::Wait(mut fa) = lo else { panic!() };
        assert_eq!(&fa.try_recv().unwrap().unwrap().assignment[..], b"A");
        assert_eq!(&fb.try_recv().unwrap().unwrap().assignment[..], b"B");
        assert_eq!(g.heartbeat(&a, None, 1, now), ErrorCode::None);
        assert_eq!(g.heartbeat(&a, None, 2, now), ErrorCode::IllegalGeneration);
        assert_eq!(g.heartbeat("x", None, 1, now), ErrorCode::UnknownMemberId);
        assert_eq!(g.validate_commit(&a, None, 1), Ok(()));
        assert_eq!(
            g.validate_commit("", None, -1),
            Err(ErrorCode::UnknownMemberId)
        );
    }

    #[test]
    fn session_expiry_rebalances_without_the_dead_member() {
        let t0 = Instant::now();
        let mut g = Group::new("g".into(), Duration::ZERO);
        let (a, mut ra) = join_new(&mut g, &["range"], t0);
        // With no delay the first member completes the join on its own.
        assert_eq!(ra.try_recv().unwrap().unwrap().generation_id, 1);
        let (b, _rb) = join_new(&mut g, &["range"], t0);
        assert_eq!(g.state, GroupState::PreparingRebalance);
        assert_eq!(g.heartbeat(&a, None, 1, t0), ErrorCode::RebalanceInProgress);
        let mut ra = waiting(g.join(params(&a, &["range"]), t0));
        assert_eq!(g.state, GroupState::CompletingRebalance);
        assert_eq!(ra.try_recv().unwrap().unwrap().generation_id, 2);
        let asg = vec![(a.clone(), Bytes::from_static(b"A"))];
        let (_o, s) = g.sync(&a, None, 2, None, None, asg, t0);
        g.complete_sync(s.unwrap().generation, Ok(()), t0);
        // b never heartbeats; a does.
        let t1 = t0 + Duration::from_millis(8_000);
        assert_eq!(g.heartbeat(&a, None, 2, t1), ErrorCode::None);
        g.tick(t0 + Duration::from_millis(10_001));
        assert!(g.member(&b).is_none());
        assert_eq!(g.state, GroupState::PreparingRebalance);
        let mut ra = waiting(g.join(params(&a, &["range"]), t1));
        assert_eq!(ra.try_recv().unwrap().unwrap().generation_id, 3);
    }

    #[test]
    fn leave_inconsistent_protocol_and_unknown_member() {
        let t0 = Instant::now();
        let mut g = Group::new("g".into(), Duration::ZERO);
        let (a, _ra) = join_new(&mut g, &["range"], t0);
        let r = now_resp(g.join(params("", &["other"]), t0));
        assert_eq!(r.error_code, ErrorCode::InconsistentGroupProtocol.code());
        let r = now_resp(g.join(params("nobody", &["range"]), t0));
        assert_eq!(r.error_code, ErrorCode::UnknownMemberId.code());
        assert_eq!(g.leave("nobody", None, t0), ErrorCode::UnknownMemberId);
        assert_eq!(g.leave(&a, None, t0), ErrorCode::None);
        assert_eq!(g.state, GroupState::Empty);
        assert_eq!(g.generation, 2);
        assert_eq!(g.validate_commit("", None, -1), Ok(()));
    }

    #[test]
    fn static_member_rejoins_without_rebalance_and_fences_old_id() {
        let t0 = Instant::now();
        let mut g = Group::new("g".into(), Duration::ZERO);
        let mut p = params("", &["range"]);
        p.instance_id = Some("i1".into());
        let mut ra = waiting(g.join(p, t0));
        let first = ra.try_recv().unwrap().unwrap();
        let a = first.member_id.clone();
        let (_o, s) = g.sync(
            &a,
            Some("i1"),
            1,
            None,
            None,
            vec![(a.clone(), Bytes::from_static(b"A"))],
            t0,
        );
        g.complete_sync(s.unwrap().generation, Ok(()), t0);
        let mut p = params("", &["range"]);
        p.instance_id = Some("i1".into());
        let r = now_resp(g.join(p, t0));
        assert_eq!(r.error_code, 0);
        assert_eq!(r.generation_id, 1);
        assert!(r.skip_assignment);
        assert_ne!(r.member_id, a);
        assert_eq!(g.state, GroupState::Stable);
        assert_eq!(
            g.heartbeat(&a, Some("i1"), 1, t0),
            ErrorCode::FencedInstanceId
        );
        assert_eq!(
            g.heartbeat(&r.member_id, Some("i1"), 1, t0),
            ErrorCode::None
        );
    }

    #[test]
    fn reloaded_members_heartbeat_and_offsets_expire_once_empty() {
        let t0 = Instant::now();
        let mut g = Group::new("g".into(), Duration::ZERO);
        let (a, _ra) = join_new(&mut g, &["range"], t0);
        let (_, store) = g.sync(
            &a,
            None,
            1,
            None,
            None,
            vec![(a.clone(), Bytes::from_static(b"A"))],
            t0,
        );
        let value = store.unwrap().value;
        g.complete_sync(1, Ok(()), t0);
        // A restart: the record brings the member back, Stable.
        let mut r = Group::new("g".into(), Duration::ZERO);
        r.load_value(&value, t0);
        assert_eq!(r.state, GroupState::Stable);
        assert_eq!(r.heartbeat(&a, None, 1, t0), ErrorCode::None);
        assert_eq!(r.member(&a).unwrap().assignment, Bytes::from_static(b"A"));
        let v = OffsetValue {
            offset: 5,
            leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp: 1_000,
        };
        r.apply_offset("t".into(), 0, Some(v), 10);
        // Stable: nothing expires.
        assert!(r.expired_offsets(i64::MAX, 60_000).is_empty());
        assert_eq!(r.leave(&a, None, t0), ErrorCode::None);
        assert_eq!(r.state, GroupState::Empty);
        assert!(r.store_empty);
        let since = r.empty_since_ms.unwrap();
        assert!(r.expired_offsets(since + 59_999, 60_000).is_empty());
        assert_eq!(
            r.expired_offsets(since + 60_000, 60_000),
            vec![("t".to_string(), 0)]
        );
        // A member-less record reloads as Empty since its timestamp.
        let mut e = Group::new("g".into(), Duration::ZERO);
        e.load_value(&r.to_value(), t0);
        assert_eq!(e.state, GroupState::Empty);
        assert!(e.members.is_empty());
    }

    #[test]
    fn subscription_topics_parse_and_refuse_garbage() {
        let mut m = vec![0, 1, 0, 0, 0, 2, 0, 1, b'a', 0, 2, b'b', b'c'];
        assert_eq!(
            subscription_topics(&m),
            Some(vec!["a".to_string(), "bc".to_string()])
        );
        m.truncate(10);
        assert_eq!(subscription_topics(&m), None);
        assert_eq!(subscription_topics(&[0, 0, 0x7f, 0xff, 0xff, 0xff]), None);
    }

    #[test]
    fn member_that_does_not_rejoin_is_dropped_at_the_rebalance_timeout() {
        let t0 = Instant::now();
        let mut g = Group::new("g".into(), Duration::ZERO);
        let (a, mut ra) = join_new(&mut g, &["range"], t0);
        assert_eq!(ra.try_recv().unwrap().unwrap().generation_id, 1);
        let (_o, s) = g.sync(&a, None, 1, Some("consumer"), Some("range"), vec![], t0);
        g.complete_sync(s.unwrap().generation, Ok(()), t0);
        // b joins; a keeps heartbeating but never rejoins.
        let (b, mut rb) = join_new(&mut g, &["range"], t0);
        for ms in (1_000..30_000).step_by(1_000) {
            let t = t0 + Duration::from_millis(ms);
            assert_eq!(g.heartbeat(&a, None, 1, t), ErrorCode::RebalanceInProgress);
            g.tick(t);
            assert!(
                rb.try_recv().unwrap().is_none(),
                "completed early at {ms} ms"
            );
        }
        g.tick(t0 + Duration::from_millis(30_001));
        let r = rb.try_recv().unwrap().unwrap();
        assert_eq!(
            (r.generation_id, r.leader.as_str(), r.members.len()),
            (2, b.as_str(), 1)
        );
        assert!(g.member(&a).is_none());
        // A KIP-394 id that is never used lapses after the session timeout.
        let id = now_resp(g.join(params("", &["range"]), t0)).member_id;
        assert!(g.pending.contains_key(&id));
        g.tick(t0 + Duration::from_millis(40_001));
        assert!(g.pending.is_empty());
    }

    #[test]
    fn offsets_keep_the_latest_record() {
        let mut g = Group::new("g".into(), Duration::ZERO);
        let v = |o| OffsetValue {
            offset: o,
            leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp: 0,
        };
        g.apply_offset("t".into(), 0, Some(v(5)), 10);
        g.apply_offset("t".into(), 0, Some(v(3)), 9);
        assert_eq!(g.offsets[&("t".to_string(), 0)].value.offset, 5);
        g.apply_offset("t".into(), 0, None, 11);
        assert!(g.offsets.is_empty());
    }
}
