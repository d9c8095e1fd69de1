//! The KIP-848 consumer group protocol: state, server-side assignors and
//! incremental reconciliation.
//!
//! Why it looks like this: in KIP-848 the coordinator, not a client
//! leader, computes the assignment. Three epochs drive it:
//! - the *group epoch* moves whenever the membership, a subscription or
//!   the subscribed topics' partitions change;
//! - the *assignment epoch* is the group epoch the current target
//!   assignment was computed at;
//! - each *member epoch* is the assignment epoch its current assignment
//!   was reconciled to.
//!
//! A member moves to the target in steps ([`ConsumerGroup::reconcile`]):
//! first it revokes what the target takes away (keeping its epoch), and
//! only once it reports them gone does it advance to the new epoch and
//! receive partitions, and only those no other member still owns. That is
//! what makes the protocol incremental: no partition is ever owned by two
//! members at once, and partitions that do not move keep being consumed.
//!
//! Everything here is pure state (no I/O, time passed in) so the assignors
//! and the reconciliation are unit-tested directly. The state lives in the
//! coordinator of the shard owning the group's `__consumer_offsets`
//! partition, like the classic groups.
//!
//! Durability: the state is written as Kafka 4's coordinator records
//! ([`super::records::ConsumerKey`]). [`ConsumerGroup::drain_records`]
//! compares what the state would write now with what was last handed to
//! the log (`persisted`) and returns only the differences (new values and
//! tombstones), so every change, whoever made it (a heartbeat, a session
//! timeout), is written by the next drain; callers answer only once that
//! write is durable. The comparison covers the whole group after a
//! structural change (membership, epochs, target) and only the
//! heartbeating member otherwise: a steady-state heartbeat costs O(1), not
//! O(group) (1,000 members: 2.8 ms per heartbeat before this). A write that fails marks its keys unknown, so the
//! next drain writes them again. At start-up [`ConsumerGroup::replay`]
//! rebuilds the state from those records: members keep their ids, epochs
//! and partitions across a restart.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use bytes::Bytes;
use kafka_protocol::ErrorCode;
use regex::Regex;
use uuid::Uuid;

use super::records::{
    ConsumerKey, ConsumerMemberValue, ConsumerValue, CurrentAssignmentValue, consumer_value,
};

/// Topic id -> partitions.
pub type Assignment = BTreeMap<Uuid, BTreeSet<i32>>;

/// Where each partition's replicas are, by rack: what rack-aware
/// assignment matches members' `rack_id` against.
pub trait ReplicaRacks {
    /// The racks holding a replica of `partition` of topic `id` (empty
    /// when unknown or when brokers have no racks).
    fn racks(&self, id: Uuid, partition: i32) -> Vec<String>;

    /// Feeds the replica racks of partitions `0..partitions` of topic `id`
    /// into `h`, as Kafka's topic hash does (KIP-1101: per partition its
    /// index and its sorted racks), so that a rack-aware group notices a
    /// change of them. Implementations may avoid `racks`' allocations:
    /// this runs on heartbeats.
    fn hash_racks(&self, id: Uuid, partitions: i32, h: &mut dyn Hasher) {
        let mut h = h;
        for p in 0..partitions {
            p.hash(&mut h);
            self.racks(id, p).hash(&mut h);
        }
    }
}

impl ReplicaRacks for crate::metadata::ClusterMetadata {
    fn racks(&self, id: Uuid, partition: i32) -> Vec<String> {
        let Some(t) = self.topic_by_id(&id) else {
            return Vec::new();
        };
        let Some(replicas) = usize::try_from(partition)
            .ok()
            .and_then(|p| t.replicas.get(p))
        else {
            return Vec::new();
        };
        let mut racks: Vec<String> = replicas
            .iter()
            .filter_map(|b| self.brokers.get(b).and_then(|b| b.rack.clone()))
            .collect();
        racks.sort();
        racks.dedup();
        racks
    }

    /// Hashes exactly what [`ReplicaRacks::racks`] returns, without its
    /// strings: one buffer of borrowed rack names for the whole topic.
    fn hash_racks(&self, id: Uuid, partitions: i32, h: &mut dyn Hasher) {
        let mut h = h;
        let replicas = self.topic_by_id(&id).map(|t| &t.replicas);
        let mut racks: Vec<&str> = Vec::new();
        for p in 0..partitions {
            racks.clear();
            if let Some(r) = usize::try_from(p)
                .ok()
                .and_then(|p| replicas.and_then(|rs| rs.get(p)))
            {
                racks.extend(
                    r.iter()
                        .filter_map(|b| self.brokers.get(b).and_then(|b| b.rack.as_deref())),
                );
            }
            racks.sort_unstable();
            racks.dedup();
            p.hash(&mut h);
            racks.len().hash(&mut h);
            for r in &racks {
                r.hash(&mut h);
            }
        }
    }
}

/// 64-bit FNV-1a: the hasher of the fingerprints written to the log
/// (the group's `MetadataHash`), which must come out the same after a
/// restart by another build. `DefaultHasher`'s algorithm is unspecified
/// and may change between Rust releases (each change would rebalance
/// every group once at load); this one is fixed. A change detector, not
/// a defence against crafted collisions: topic names and counts are the
/// operators', not the clients'.
struct StableHasher(u64);

impl StableHasher {
    fn new() -> StableHasher {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for StableHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// No rack information (a single node, or tests): assignment ignores
/// racks.
pub struct NoRacks;

impl ReplicaRacks for NoRacks {
    fn racks(&self, _: Uuid, _: i32) -> Vec<String> {
        Vec::new()
    }
}

/// Rack-aware assignment's view: each member's rack (those that sent
/// one) and each partition's replica racks (looked up once per partition
/// and assignment). Inactive (every question answers "no match") when no
/// member has a rack, so assignment is then exactly the rack-less one.
pub struct RackMatch<'a> {
    members: BTreeMap<String, String>,
    replicas: &'a dyn ReplicaRacks,
    cache: std::cell::RefCell<std::collections::HashMap<(Uuid, i32), Vec<String>>>,
}

impl<'a> RackMatch<'a> {
    /// `members`: (member id, rack) for the members that sent a rack.
    pub fn new(
        members: impl IntoIterator<Item = (String, String)>,
        replicas: &'a dyn ReplicaRacks,
    ) -> RackMatch<'a> {
        RackMatch {
            members: members.into_iter().filter(|(_, r)| !r.is_empty()).collect(),
            replicas,
            cache: Default::default(),
        }
    }

    /// Racks ignored: the rack-less assignment.
    pub fn none() -> RackMatch<'static> {
        RackMatch {
            members: BTreeMap::new(),
            replicas: &NoRacks,
            cache: Default::default(),
        }
    }

    /// Whether `member` is in a rack holding a replica of `(t, p)`.
    pub fn matches(&self, member: &str, t: Uuid, p: i32) -> bool {
        let Some(rack) = self.members.get(member) else {
            return false;
        };
        let mut cache = self.cache.borrow_mut();
        cache
            .entry((t, p))
            .or_insert_with(|| self.replicas.racks(t, p))
            .iter()
            .any(|r| r == rack)
    }

    /// Whether any of `candidates` is in a rack holding a replica of
    /// `(t, p)` (if none is, racks cannot help that partition).
    fn matchable<'m>(
        &self,
        mut candidates: impl Iterator<Item = &'m String>,
        t: Uuid,
        p: i32,
    ) -> bool {
        !self.members.is_empty() && candidates.any(|m| self.matches(m, t, p))
    }
}

/// The server-side assignors, by the names clients send.
pub const ASSIGNORS: &[&str] = &["uniform", "range"];

/// Kafka's default (`group.consumer.assignors` first entry).
pub const DEFAULT_ASSIGNOR: &str = "uniform";

/// Member epoch sent to leave the group.
pub const LEAVE_EPOCH: i32 = -1;
/// Member epoch sent by a static member that will come back.
pub const STATIC_LEAVE_EPOCH: i32 = -2;

/// Used when a joining member does not say (-1).
const DEFAULT_REBALANCE_TIMEOUT_MS: i32 = 300_000;

/// A refusal: Kafka's code and a message for the client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

/// A topic as the assignors see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicInfo {
    pub name: String,
    pub id: Uuid,
    pub partitions: i32,
}

/// Where a member is in reconciling towards its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberState {
    /// Owns its share of the target at the member epoch.
    Stable,
    /// Must give up `revoking` before it can advance.
    UnrevokedPartitions,
    /// At the new epoch, waiting for partitions other members still own.
    UnreleasedPartitions,
}

/// Which topics a member may describe (its principal's ACLs): a regex
/// subscription matches only those, as Kafka 4 resolves regexes with the
/// member's authorization, so a `.*` subscriber is never assigned (and
/// never told of) another tenant's topics.
#[derive(Clone)]
pub struct TopicFilter(pub std::rc::Rc<dyn Fn(&str) -> bool>);

impl std::fmt::Debug for TopicFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TopicFilter")
    }
}

/// One member of a consumer group.
#[derive(Debug, Clone)]
pub struct ConsumerMember {
    pub id: String,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub epoch: i32,
    /// The epoch before the last advance: a heartbeat whose response was
    /// lost may still carry it (Kafka accepts it too).
    pub previous_epoch: i32,
    pub state: MemberState,
    pub rebalance_timeout_ms: i32,
    pub topic_names: Vec<String>,
    pub regex: Option<(String, Regex)>,
    /// Limits what `regex` matches (set by each heartbeat; `None` after a
    /// reload until the member's next heartbeat, or without an
    /// authorizer).
    pub regex_filter: Option<TopicFilter>,
    pub server_assignor: Option<String>,
    pub assigned: Assignment,
    pub revoking: Assignment,
    pub last_heartbeat: Instant,
    pub revoke_started: Option<Instant>,
}

impl ConsumerMember {
    /// A member known only by id (replay fills in the rest).
    fn blank(id: String, now: Instant) -> ConsumerMember {
        ConsumerMember {
            id,
            instance_id: None,
            rack_id: None,
            client_id: String::new(),
            client_host: String::new(),
            epoch: 0,
            previous_epoch: 0,
            state: MemberState::Stable,
            rebalance_timeout_ms: DEFAULT_REBALANCE_TIMEOUT_MS,
            topic_names: Vec::new(),
            regex: None,
            regex_filter: None,
            server_assignor: None,
            assigned: Assignment::new(),
            revoking: Assignment::new(),
            last_heartbeat: now,
            revoke_started: None,
        }
    }

    fn subscribes(&self, t: &TopicInfo) -> bool {
        self.topic_names.iter().any(|n| n == &t.name)
            || (self
                .regex
                .as_ref()
                .is_some_and(|(_, r)| r.is_match(&t.name))
                && self.regex_filter.as_ref().is_none_or(|f| (f.0)(&t.name)))
    }
}

/// What a heartbeat carries (the nullable fields are `None` when the
/// member says "unchanged").
#[derive(Debug, Clone, Default)]
pub struct HeartbeatParams {
    pub member_id: String,
    pub epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub rebalance_timeout_ms: i32,
    pub topic_names: Option<Vec<String>>,
    pub regex: Option<String>,
    pub server_assignor: Option<String>,
    pub owned: Option<Assignment>,
    pub client_id: String,
    pub client_host: String,
    /// The member's authorization for its regex (see `TopicFilter`).
    pub regex_filter: Option<TopicFilter>,
}

/// The answer to a heartbeat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeartbeatOutcome {
    pub member_id: String,
    pub epoch: i32,
    /// Sent when it changed, on join, or when the request was a full one.
    pub assignment: Option<Assignment>,
}

/// The topics members may subscribe to: every topic but the internal ones
/// (Kafka never matches `__consumer_offsets` with a regex either).
pub fn topics_of(meta: &crate::metadata::ClusterMetadata) -> Vec<TopicInfo> {
    meta.topics
        .values()
        .filter(|t| !t.is_internal())
        .map(|t| TopicInfo {
            name: t.name.clone(),
            id: t.id,
            partitions: t.partitions,
        })
        .collect()
}

/// Compiles a subscription regex with Java's `matches()` semantics (the
/// whole name must match).
pub fn compile_regex(re: &str) -> Result<Regex, Refusal> {
    Regex::new(&format!("^(?:{re})$")).map_err(|e| {
        refuse(
            ErrorCode::InvalidRegularExpression,
            format!("invalid SubscribedTopicRegex {re:?}: {e}"),
        )
    })
}

/// A KIP-848 consumer group.
#[derive(Debug, Clone)]
pub struct ConsumerGroup {
    pub id: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    pub assignor: &'static str,
    pub members: BTreeMap<String, ConsumerMember>,
    pub target: BTreeMap<String, Assignment>,
    /// The subscribed topics the target was computed for: a change (a new
    /// topic matching a regex, added partitions) bumps the group epoch.
    topics_seen: Vec<TopicInfo>,
    /// A fingerprint of the replica racks of every partition of
    /// `topics_seen` (see [`ReplicaRacks::hash_racks`]), kept only while
    /// some member has a rack id: a change (a reassignment moved a
    /// replica to another rack, a broker holding replicas left or came
    /// back with a rack) bumps the group epoch, so rack-aware assignment
    /// follows the replicas (Kafka 4.1's topic hash, KIP-1101). A group
    /// without racks ignores replica racks, so it is not rebalanced by
    /// every reassignment (Kafka hashes racks for every group; for a
    /// rack-less group that only bumps the epoch to the same target).
    racks_seen: Option<u64>,
    /// The fingerprint of `topics_seen` and `racks_seen` (see
    /// [`ConsumerGroup::metadata_fingerprint`]), written with the group
    /// epoch as Kafka 4.1's `MetadataHash`: what the target was computed
    /// against survives a restart or a coordinator move, so partitions
    /// added (or replicas moved) while no coordinator watched still bump
    /// the epoch at load. After replay and before `finish_load` it holds
    /// the persisted value (0: unknown, a record from before the field).
    metadata_hash: i64,
    /// The record values last handed to the log, by key (empty bytes: a
    /// write of that key failed, its value on disk is unknown).
    persisted: BTreeMap<ConsumerKey, Bytes>,
    /// Writes started and finished (a finished write also covers every
    /// earlier one: the log is durable in order).
    pub writes_started: u64,
    pub writes_done: u64,
    /// What may differ from `persisted`: everything (a structural change:
    /// members came or went, an epoch or the target moved), or only the
    /// records of these members (a heartbeat that changed one member).
    /// Lets a steady-state heartbeat's drain look at one member instead
    /// of the whole group.
    dirty_all: bool,
    dirty_members: BTreeSet<String>,
}

impl MemberState {
    /// Kafka's `MemberState` byte.
    pub fn to_byte(self) -> i8 {
        match self {
            MemberState::Stable => 0,
            MemberState::UnrevokedPartitions => 1,
            MemberState::UnreleasedPartitions => 2,
        }
    }
    pub fn from_byte(b: i8) -> MemberState {
        match b {
            1 => MemberState::UnrevokedPartitions,
            2 => MemberState::UnreleasedPartitions,
            _ => MemberState::Stable,
        }
    }
}

/// Where a record goes in a batch: Kafka's order (member tombstones
/// first, then member metadata, group epoch, target, current assignment).
fn write_rank(k: &ConsumerKey, tombstone: bool) -> u8 {
    match (tombstone, k) {
        (true, ConsumerKey::CurrentAssignment(_)) => 0,
        (true, ConsumerKey::TargetMember(_)) => 1,
        (true, ConsumerKey::Member(_)) => 2,
        (_, ConsumerKey::Member(_)) => 3,
        (_, ConsumerKey::Metadata) => 4,
        (_, ConsumerKey::PartitionMetadata) => 5,
        (_, ConsumerKey::TargetMember(_)) => 6,
        (_, ConsumerKey::TargetMetadata) => 7,
        (_, ConsumerKey::CurrentAssignment(_)) => 8,
    }
}

impl ConsumerGroup {
    pub fn new(id: String) -> ConsumerGroup {
        ConsumerGroup {
            id,
            group_epoch: 0,
            assignment_epoch: 0,
            assignor: DEFAULT_ASSIGNOR,
            members: BTreeMap::new(),
            target: BTreeMap::new(),
            topics_seen: Vec::new(),
            racks_seen: None,
            metadata_hash: 0,
            persisted: BTreeMap::new(),
            writes_started: 0,
            writes_done: 0,
            dirty_all: true,
            dirty_members: BTreeSet::new(),
        }
    }

    /// What the state writes now, by key: everything, or (`Some`) only the
    /// records of those members.
    fn records_now(&self, only: Option<&BTreeSet<String>>) -> BTreeMap<ConsumerKey, ConsumerValue> {
        let mut out = BTreeMap::new();
        if let Some(ids) = only {
            for id in ids {
                if let Some(m) = self.members.get(id) {
                    Self::member_records(m, &mut out);
                    if let Some(a) = self.target.get(id) {
                        out.insert(
                            ConsumerKey::TargetMember(id.clone()),
                            ConsumerValue::TargetMember(a.clone()),
                        );
                    }
                }
            }
            return out;
        }
        out.insert(
            ConsumerKey::Metadata,
            ConsumerValue::Metadata {
                epoch: self.group_epoch,
                metadata_hash: self.metadata_hash,
            },
        );
        out.insert(
            ConsumerKey::PartitionMetadata,
            ConsumerValue::PartitionMetadata,
        );
        out.insert(
            ConsumerKey::TargetMetadata,
            ConsumerValue::TargetMetadata {
                assignment_epoch: self.assignment_epoch,
            },
        );
        for m in self.members.values() {
            Self::member_records(m, &mut out);
        }
        for (id, a) in &self.target {
            if self.members.contains_key(id) {
                out.insert(
                    ConsumerKey::TargetMember(id.clone()),
                    ConsumerValue::TargetMember(a.clone()),
                );
            }
        }
        out
    }

    fn member_records(m: &ConsumerMember, out: &mut BTreeMap<ConsumerKey, ConsumerValue>) {
        {
            out.insert(
                ConsumerKey::Member(m.id.clone()),
                ConsumerValue::Member(ConsumerMemberValue {
                    instance_id: m.instance_id.clone(),
                    rack_id: m.rack_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    subscribed_topic_names: m.topic_names.clone(),
                    subscribed_topic_regex: m.regex.as_ref().map(|(r, _)| r.clone()),
                    rebalance_timeout_ms: m.rebalance_timeout_ms,
                    server_assignor: m.server_assignor.clone(),
                }),
            );
            out.insert(
                ConsumerKey::CurrentAssignment(m.id.clone()),
                ConsumerValue::CurrentAssignment(CurrentAssignmentValue {
                    member_epoch: m.epoch,
                    previous_member_epoch: m.previous_epoch,
                    state: m.state.to_byte(),
                    assigned: m.assigned.clone(),
                    pending_revocation: m.revoking.clone(),
                }),
            );
        }
    }

    /// The records that bring the log up to the state (new values, and
    /// tombstones for members that are gone), in Kafka's order; they count
    /// as written from now on (see [`ConsumerGroup::mark_unwritten`]).
    pub fn drain_records(&mut self) -> Vec<(ConsumerKey, Option<Bytes>)> {
        if !self.dirty_all && self.dirty_members.is_empty() {
            return Vec::new();
        }
        let only = (!self.dirty_all).then(|| std::mem::take(&mut self.dirty_members));
        self.dirty_all = false;
        self.dirty_members.clear();
        let now: BTreeMap<ConsumerKey, Bytes> = self
            .records_now(only.as_ref())
            .into_iter()
            .map(|(k, v)| (k, consumer_value(&v)))
            .collect();
        let in_scope = |k: &ConsumerKey| match &only {
            None => true,
            Some(ids) => k.member().is_some_and(|m| ids.contains(m)),
        };
        let mut out: Vec<(ConsumerKey, Option<Bytes>)> = Vec::new();
        self.persisted.retain(|k, _| {
            let keep = !in_scope(k) || now.contains_key(k);
            if !keep {
                out.push((k.clone(), None));
            }
            keep
        });
        for (k, v) in now {
            if self.persisted.get(&k) != Some(&v) {
                self.persisted.insert(k.clone(), v.clone());
                out.push((k, Some(v)));
            }
        }
        out.sort_by_key(|(k, v)| write_rank(k, v.is_none()));
        out
    }

    /// The topics the members subscribe to (Kafka's
    /// `isSubscribedToTopic`): named ones, and those of `topics` a
    /// member's regex matches. Their offsets neither expire nor can be
    /// deleted while subscribed.
    pub fn subscribed_topic_names(&self, topics: &[TopicInfo]) -> BTreeSet<String> {
        let mut out: BTreeSet<String> = self
            .members
            .values()
            .flat_map(|m| m.topic_names.iter().cloned())
            .collect();
        out.extend(
            topics
                .iter()
                .filter(|t| self.members.values().any(|m| m.subscribes(t)))
                .map(|t| t.name.clone()),
        );
        out
    }

    /// Whether the group's epoch record is in the log (a group replayed
    /// without one is a deletion's leftover).
    pub fn is_persisted(&self) -> bool {
        self.persisted.contains_key(&ConsumerKey::Metadata)
    }

    /// A write of these keys failed: their values on disk are unknown, so
    /// the next drain writes them again (or their tombstones).
    pub fn mark_unwritten(&mut self, keys: &[ConsumerKey]) {
        for k in keys {
            self.persisted.insert(k.clone(), Bytes::new());
        }
        self.dirty_all = true;
    }

    /// The tombstones that delete the group (Kafka's
    /// `createGroupTombstoneRecords` order: per member current assignment,
    /// target, metadata; then target metadata, partition metadata, epoch).
    pub fn tombstones(&self) -> Vec<ConsumerKey> {
        let mut out: Vec<ConsumerKey> = self
            .persisted
            .keys()
            .filter(|k| k.member().is_some())
            .cloned()
            .collect();
        out.sort_by_key(|k| write_rank(k, true));
        for k in [
            ConsumerKey::TargetMetadata,
            ConsumerKey::PartitionMetadata,
            ConsumerKey::Metadata,
        ] {
            if self.persisted.contains_key(&k) {
                out.push(k);
            }
        }
        out
    }

    /// Applies one record read back from the log (start-up). A tombstone
    /// of the group epoch record deletes the group: the caller drops it.
    pub fn replay(&mut self, key: ConsumerKey, value: Option<ConsumerValue>, now: Instant) {
        match &value {
            Some(v) => {
                self.persisted.insert(key.clone(), consumer_value(v));
            }
            None => {
                self.persisted.remove(&key);
            }
        }
        match (key, value) {
            (
                ConsumerKey::Metadata,
                Some(ConsumerValue::Metadata {
                    epoch,
                    metadata_hash,
                }),
            ) => {
                self.group_epoch = epoch;
                self.metadata_hash = metadata_hash;
            }
            (
                ConsumerKey::TargetMetadata,
                Some(ConsumerValue::TargetMetadata { assignment_epoch }),
            ) => self.assignment_epoch = assignment_epoch,
            (ConsumerKey::Member(id), Some(ConsumerValue::Member(v))) => {
                let m = self
                    .members
                    .entry(id.clone())
                    .or_insert_with(|| ConsumerMember::blank(id, now));
                m.instance_id = v.instance_id;
                m.rack_id = v.rack_id;
                m.client_id = v.client_id;
                m.client_host = v.client_host;
                m.topic_names = v.subscribed_topic_names;
                // A regex that no longer compiles matches nothing (the
                // member's next heartbeat with a new one replaces it).
                m.regex = v
                    .subscribed_topic_regex
                    .and_then(|r| compile_regex(&r).ok().map(|c| (r, c)));
                m.rebalance_timeout_ms = v.rebalance_timeout_ms;
                m.server_assignor = v.server_assignor;
            }
            (ConsumerKey::Member(id), None) => {
                self.members.remove(&id);
            }
            (ConsumerKey::TargetMember(id), Some(ConsumerValue::TargetMember(a))) => {
                self.target.insert(id, a);
            }
            (ConsumerKey::TargetMember(id), None) => {
                self.target.remove(&id);
            }
            (ConsumerKey::CurrentAssignment(id), Some(ConsumerValue::CurrentAssignment(c))) => {
                let m = self
                    .members
                    .entry(id.clone())
                    .or_insert_with(|| ConsumerMember::blank(id, now));
                m.epoch = c.member_epoch;
                m.previous_epoch = c.previous_member_epoch;
                m.state = MemberState::from_byte(c.state);
                m.assigned = c.assigned;
                m.revoking = c.pending_revocation;
                m.revoke_started = (m.state == MemberState::UnrevokedPartitions).then_some(now);
            }
            (ConsumerKey::CurrentAssignment(id), None) => {
                if let Some(m) = self.members.get_mut(&id) {
                    m.assigned.clear();
                    m.revoking.clear();
                }
            }
            _ => {}
        }
    }

    /// After replay: drops members whose metadata record is missing,
    /// starts every session afresh and takes the subscribed topics (and
    /// their replica racks) as they are now. If their fingerprint differs
    /// from the persisted one (partitions were added, a topic matching a
    /// regex was created, replicas moved while the group had no
    /// coordinator), the group epoch is bumped once, so the next heartbeat
    /// computes a new target; an unchanged fingerprint bumps nothing, so
    /// a restart alone causes no rebalance.
    ///
    /// A record without the fingerprint (written before it existed) counts
    /// as a change whenever the group subscribes to something, as in Kafka
    /// 4.1 (its default 0 never equals a computed hash): one rebalance per
    /// group on the first load by this version, which the sticky assignors
    /// turn into the same target at a new epoch, instead of a silently
    /// missed change of the upgrade's own downtime.
    pub fn finish_load(&mut self, topics: &[TopicInfo], racks: &dyn ReplicaRacks, now: Instant) {
        let known: BTreeSet<String> = self
            .persisted
            .keys()
            .filter_map(|k| match k {
                ConsumerKey::Member(id) => Some(id.clone()),
                _ => None,
            })
            .collect();
        let before = self.members.len();
        self.members.retain(|id, _| known.contains(id));
        for m in self.members.values_mut() {
            m.last_heartbeat = now;
        }
        self.topics_seen = self.subscribed(topics);
        self.racks_seen = self.rack_fingerprint(racks);
        self.assignor = self.choose_assignor();
        let persisted = self.metadata_hash;
        self.metadata_hash = self.metadata_fingerprint();
        let changed = persisted != self.metadata_hash;
        if changed {
            tracing::info!(group = %self.id, epoch = self.group_epoch + 1, persisted, now = self.metadata_hash, "subscribed topics changed while the group was not loaded: new target assignment");
            self.group_epoch += 1;
        }
        // The state is what the log says, unless members were dropped or
        // the epoch moved.
        self.dirty_all = changed || self.members.len() != before;
        self.dirty_members.clear();
    }

    /// Kafka's state names for ListGroups / ConsumerGroupDescribe.
    pub fn state_name(&self) -> &'static str {
        if self.members.is_empty() {
            "Empty"
        } else if self.group_epoch > self.assignment_epoch {
            "Assigning"
        } else if self
            .members
            .values()
            .any(|m| m.epoch != self.assignment_epoch || m.state != MemberState::Stable)
        {
            "Reconciling"
        } else {
            "Stable"
        }
    }

    /// One heartbeat. `topics` is every topic clients may subscribe to.
    /// `racks` places each partition's replicas, for rack-aware
    /// assignment of members that send a rack id.
    pub fn heartbeat(
        &mut self,
        p: HeartbeatParams,
        topics: &[TopicInfo],
        racks: &dyn ReplicaRacks,
        now: Instant,
    ) -> Result<HeartbeatOutcome, Refusal> {
        let before = (self.group_epoch, self.assignment_epoch, self.members.len());
        let member = p.member_id.clone();
        let out = self.heartbeat_inner(p, topics, racks, now);
        if before != (self.group_epoch, self.assignment_epoch, self.members.len()) {
            self.dirty_all = true;
        }
        self.dirty_members.insert(member);
        out
    }

    fn heartbeat_inner(
        &mut self,
        p: HeartbeatParams,
        topics: &[TopicInfo],
        racks: &dyn ReplicaRacks,
        now: Instant,
    ) -> Result<HeartbeatOutcome, Refusal> {
        if p.epoch == LEAVE_EPOCH || p.epoch == STATIC_LEAVE_EPOCH {
            return self.leave(
                &p.member_id,
                p.epoch,
                p.instance_id.as_deref(),
                topics,
                racks,
            );
        }
        if p.epoch < 0 {
            return Err(refuse(
                ErrorCode::InvalidRequest,
                format!("invalid member epoch {}", p.epoch),
            ));
        }
        // Validate everything before changing anything.
        if let Some(a) = &p.server_assignor
            && !ASSIGNORS.contains(&a.as_str())
        {
            return Err(refuse(
                ErrorCode::UnsupportedAssignor,
                format!("unknown server assignor {a:?}; supported: uniform, range"),
            ));
        }
        // librdkafka sends "" for "no regex".
        let regex = match p.regex.as_deref() {
            None => None,
            Some("") => Some(None),
            Some(re) => Some(Some((re.to_string(), compile_regex(re)?))),
        };
        let full_request = p.rebalance_timeout_ms != -1
            && (p.topic_names.is_some() || p.regex.is_some())
            && p.owned.is_some();
        let joining = p.epoch == 0;
        if joining {
            if p.topic_names.is_none() && p.regex.is_none() {
                return Err(refuse(
                    ErrorCode::InvalidRequest,
                    "SubscribedTopicNames or SubscribedTopicRegex must be set when joining",
                ));
            }
            self.join(&p, now)?;
        } else {
            let Some(m) = self.members.get(&p.member_id) else {
                return Err(refuse(
                    ErrorCode::UnknownMemberId,
                    format!("member {} is not in group {}", p.member_id, self.id),
                ));
            };
            let owned_ok = |owned: &Option<Assignment>| {
                owned.as_ref().is_none_or(|o| is_subset(o, &m.assigned))
            };
            if p.epoch != m.epoch && !(p.epoch == m.previous_epoch && owned_ok(&p.owned)) {
                return Err(refuse(
                    ErrorCode::FencedMemberEpoch,
                    format!(
                        "member epoch {} does not match the current {}",
                        p.epoch, m.epoch
                    ),
                ));
            }
        }
        // Apply what changed.
        let m = self
            .members
            .get_mut(&p.member_id)
            .ok_or_else(|| refuse(ErrorCode::UnknownMemberId, "member vanished"))?;
        m.last_heartbeat = now;
        if p.regex_filter.is_some() {
            m.regex_filter = p.regex_filter.clone();
        }
        let mut subscription_changed = false;
        if p.rebalance_timeout_ms > 0 {
            m.rebalance_timeout_ms = p.rebalance_timeout_ms;
        }
        if let Some(r) = p.rack_id {
            m.rack_id = Some(r);
        }
        if let Some(names) = p.topic_names {
            let mut names = names;
            names.sort();
            names.dedup();
            if names != m.topic_names {
                m.topic_names = names;
                subscription_changed = true;
            }
        }
        if let Some(r) = regex {
            let old = m.regex.as_ref().map(|(s, _)| s.clone());
            let new = r.as_ref().map(|(s, _)| s.clone());
            if old != new {
                m.regex = r;
                subscription_changed = true;
            }
        }
        if let Some(a) = p.server_assignor
            && m.server_assignor.as_deref() != Some(a.as_str())
        {
            m.server_assignor = Some(a);
            subscription_changed = true;
        }
        if subscription_changed {
            self.group_epoch += 1;
        }
        self.refresh_target(topics, racks);
        let before = self.members.get(&p.member_id).map(|m| m.assigned.clone());
        self.reconcile(&p.member_id, p.owned.as_ref(), now);
        let m = self
            .members
            .get(&p.member_id)
            .ok_or_else(|| refuse(ErrorCode::UnknownMemberId, "member vanished"))?;
        let changed = before.as_ref() != Some(&m.assigned);
        Ok(HeartbeatOutcome {
            member_id: m.id.clone(),
            epoch: m.epoch,
            assignment: (joining || full_request || changed).then(|| m.assigned.clone()),
        })
    }

    fn join(&mut self, p: &HeartbeatParams, now: Instant) -> Result<(), Refusal> {
        // A known member sending epoch 0 starts over (it lost its state):
        // its partitions are freed and it is given them back as a new one.
        let mut inherited: Option<ConsumerMember> = None;
        if self.members.remove(&p.member_id).is_some() {
            self.target.remove(&p.member_id);
            self.group_epoch += 1;
        }
        if let Some(instance) = &p.instance_id {
            let holder = self
                .members
                .values()
                .find(|m| m.instance_id.as_deref() == Some(instance.as_str()))
                .map(|m| (m.id.clone(), m.epoch));
            if let Some((holder, epoch)) = holder {
                if epoch != STATIC_LEAVE_EPOCH {
                    return Err(refuse(
                        ErrorCode::UnreleasedInstanceId,
                        format!("static member {instance} is still held by {holder}"),
                    ));
                }
                // A static member coming back takes its predecessor's
                // place, epoch and assignment: no rebalance.
                inherited = self.members.remove(&holder);
                self.dirty_all = true;
                if let Some(t) = self.target.remove(&holder) {
                    self.target.insert(p.member_id.clone(), t);
                }
            }
        }
        let member = match inherited {
            Some(mut m) => {
                m.id = p.member_id.clone();
                m.epoch = m.previous_epoch.max(0);
                m.client_id = p.client_id.clone();
                m.client_host = p.client_host.clone();
                m.last_heartbeat = now;
                m
            }
            None => {
                self.group_epoch += 1;
                ConsumerMember {
                    id: p.member_id.clone(),
                    instance_id: p.instance_id.clone(),
                    rack_id: p.rack_id.clone(),
                    client_id: p.client_id.clone(),
                    client_host: p.client_host.clone(),
                    epoch: 0,
                    previous_epoch: 0,
                    state: MemberState::Stable,
                    rebalance_timeout_ms: if p.rebalance_timeout_ms > 0 {
                        p.rebalance_timeout_ms
                    } else {
                        DEFAULT_REBALANCE_TIMEOUT_MS
                    },
                    topic_names: Vec::new(),
                    regex: None,
                    regex_filter: None,
                    server_assignor: None,
                    assigned: Assignment::new(),
                    revoking: Assignment::new(),
                    last_heartbeat: now,
                    revoke_started: None,
                }
            }
        };
        self.members.insert(member.id.clone(), member);
        Ok(())
    }

    fn leave(
        &mut self,
        member_id: &str,
        epoch: i32,
        instance_id: Option<&str>,
        topics: &[TopicInfo],
        racks: &dyn ReplicaRacks,
    ) -> Result<HeartbeatOutcome, Refusal> {
        // Kafka also finds a static member by instance id.
        let id = if self.members.contains_key(member_id) {
            member_id.to_string()
        } else if let Some(m) = instance_id.and_then(|i| {
            self.members
                .values()
                .find(|m| m.instance_id.as_deref() == Some(i))
        }) {
            m.id.clone()
        } else {
            return Err(refuse(
                ErrorCode::UnknownMemberId,
                format!("member {member_id} is not in group {}", self.id),
            ));
        };
        let is_static = self
            .members
            .get(&id)
            .is_some_and(|m| m.instance_id.is_some());
        if epoch == STATIC_LEAVE_EPOCH && is_static {
            // Kept (with its assignment) until it comes back or its
            // session times out.
            self.dirty_members.insert(id.clone());
            if let Some(m) = self.members.get_mut(&id) {
                m.previous_epoch = m.epoch;
                m.epoch = STATIC_LEAVE_EPOCH;
            }
        } else {
            self.remove_member(&id, topics, racks);
        }
        Ok(HeartbeatOutcome {
            member_id: member_id.to_string(),
            epoch,
            assignment: None,
        })
    }

    /// Removes a member (left, expired or fenced) and recomputes.
    pub fn remove_member(&mut self, id: &str, topics: &[TopicInfo], racks: &dyn ReplicaRacks) {
        if self.members.remove(id).is_some() {
            self.dirty_all = true;
            self.target.remove(id);
            self.group_epoch += 1;
            self.refresh_target(topics, racks);
        }
    }

    /// Session and revocation timeouts. Returns the members removed.
    pub fn tick(
        &mut self,
        now: Instant,
        session_timeout: Duration,
        topics: &[TopicInfo],
        racks: &dyn ReplicaRacks,
    ) -> Vec<String> {
        let expired: Vec<String> = self
            .members
            .values()
            .filter(|m| {
                now.saturating_duration_since(m.last_heartbeat) > session_timeout
                    || m.revoke_started.is_some_and(|t| {
                        now.saturating_duration_since(t)
                            > Duration::from_millis(m.rebalance_timeout_ms.max(0) as u64)
                    })
            })
            .map(|m| m.id.clone())
            .collect();
        for id in &expired {
            tracing::info!(group = %self.id, member = %id, "consumer group member expired");
            self.remove_member(id, topics, racks);
        }
        expired
    }

    /// The subscribed topics, as the assignors see them.
    fn subscribed(&self, topics: &[TopicInfo]) -> Vec<TopicInfo> {
        topics
            .iter()
            .filter(|t| self.members.values().any(|m| m.subscribes(t)))
            .cloned()
            .collect()
    }

    /// The fingerprint of the subscribed partitions' replica racks, or
    /// `None` when no member has a rack (racks then play no part in the
    /// assignment, see [`RackMatch`]).
    fn rack_fingerprint(&self, racks: &dyn ReplicaRacks) -> Option<u64> {
        if !self
            .members
            .values()
            .any(|m| m.rack_id.as_deref().is_some_and(|r| !r.is_empty()))
        {
            return None;
        }
        let mut h = StableHasher::new();
        for t in &self.topics_seen {
            h.write(t.id.as_bytes());
            racks.hash_racks(t.id, t.partitions, &mut h);
        }
        Some(h.finish())
    }

    /// What the target is computed against, as one number: each of
    /// `topics_seen`'s name, id and partition count, and `racks_seen`
    /// when the group watches racks (Kafka 4.1's `computeMetadataHash`
    /// covers the same, with racks always). 0 when the group subscribes
    /// to nothing, so that an empty group's record without the field
    /// (0) matches; never 0 otherwise.
    fn metadata_fingerprint(&self) -> i64 {
        if self.topics_seen.is_empty() {
            return 0;
        }
        let mut h = StableHasher::new();
        for t in &self.topics_seen {
            h.write(t.name.as_bytes());
            h.write_u8(0xff);
            h.write(t.id.as_bytes());
            h.write(&t.partitions.to_be_bytes());
        }
        if let Some(r) = self.racks_seen {
            h.write(&r.to_be_bytes());
        }
        match h.finish() as i64 {
            0 => 1,
            x => x,
        }
    }

    /// Bumps the group epoch if the subscribed topics or, in a group with
    /// racks, their partitions' replica racks changed, then recomputes
    /// the target if the group epoch moved past it.
    fn refresh_target(&mut self, topics: &[TopicInfo], racks: &dyn ReplicaRacks) {
        let seen = self.subscribed(topics);
        let mut bumped = false;
        if seen != self.topics_seen {
            self.topics_seen = seen;
            self.group_epoch += 1;
            bumped = true;
        }
        // Only a change between two fingerprints bumps: the first member
        // with a rack joined (a bump of its own) or sent its rack late
        // (Kafka does not bump for a member's rack either), or the last
        // one left (a bump of its own).
        let racks_now = self.rack_fingerprint(racks);
        if let (Some(before), Some(now)) = (self.racks_seen, racks_now)
            && before != now
            && !bumped
        {
            tracing::info!(group = %self.id, epoch = self.group_epoch + 1, "replica racks of subscribed partitions changed: new target assignment");
            self.group_epoch += 1;
        }
        self.racks_seen = racks_now;
        // A new fingerprint is written with the group epoch even when
        // the epoch stays (a member's first rack starts watching racks),
        // or the next load would see a difference that is none.
        let fingerprint = self.metadata_fingerprint();
        if fingerprint != self.metadata_hash {
            self.metadata_hash = fingerprint;
            self.dirty_all = true;
        }
        if self.group_epoch <= self.assignment_epoch {
            return;
        }
        self.assignor = self.choose_assignor();
        let subs: Vec<(String, BTreeSet<Uuid>)> = self
            .members
            .values()
            .map(|m| {
                let ts = self
                    .topics_seen
                    .iter()
                    .filter(|t| m.subscribes(t))
                    .map(|t| t.id)
                    .collect();
                (m.id.clone(), ts)
            })
            .collect();
        let rack_match = RackMatch::new(
            self.members
                .values()
                .filter_map(|m| Some((m.id.clone(), m.rack_id.clone()?))),
            racks,
        );
        self.target = match self.assignor {
            "range" => assign_range(&subs, &self.topics_seen, &rack_match),
            _ => assign_uniform(&subs, &self.topics_seen, &self.target, &rack_match),
        };
        self.assignment_epoch = self.group_epoch;
        self.dirty_all = true;
        tracing::debug!(group = %self.id, epoch = self.group_epoch, assignor = self.assignor, "new target assignment");
    }

    /// The assignor most members asked for (Kafka's rule), else uniform.
    fn choose_assignor(&self) -> &'static str {
        let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
        for m in self.members.values() {
            if let Some(a) = m.server_assignor.as_deref()
                && let Some(known) = ASSIGNORS.iter().find(|k| **k == a)
            {
                *counts.entry(known).or_default() += 1;
            }
        }
        counts
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
            .map(|(a, _)| a)
            .unwrap_or(DEFAULT_ASSIGNOR)
    }

    /// Moves one member a step towards its target (Kafka's
    /// CurrentAssignmentBuilder).
    pub fn reconcile(&mut self, member_id: &str, owned: Option<&Assignment>, now: Instant) {
        self.dirty_members.insert(member_id.to_string());
        let Some(m) = self.members.get(member_id) else {
            return;
        };
        match m.state {
            MemberState::UnrevokedPartitions => {
                let acked = owned.is_some_and(|o| !intersects(o, &m.revoking));
                if !acked {
                    return;
                }
            }
            MemberState::Stable if m.epoch == self.assignment_epoch => return,
            _ => {}
        }
        let target = self.target.get(member_id).cloned().unwrap_or_default();
        let mut others = Assignment::new();
        for (id, o) in &self.members {
            if id != member_id {
                union_into(&mut others, &o.assigned);
                union_into(&mut others, &o.revoking);
            }
        }
        let Some(m) = self.members.get_mut(member_id) else {
            return;
        };
        if m.state == MemberState::UnrevokedPartitions {
            m.revoking.clear();
            m.revoke_started = None;
            m.state = MemberState::Stable;
        }
        let revoke = difference(&m.assigned, &target);
        if !revoke.is_empty() {
            m.assigned = intersection(&m.assigned, &target);
            m.revoking = revoke;
            m.state = MemberState::UnrevokedPartitions;
            m.revoke_started = Some(now);
            return;
        }
        let mut next = Assignment::new();
        let mut unreleased = false;
        for (t, ps) in &target {
            for p in ps {
                let mine = m.assigned.get(t).is_some_and(|s| s.contains(p));
                let taken = others.get(t).is_some_and(|s| s.contains(p));
                if mine || !taken {
                    next.entry(*t).or_default().insert(*p);
                } else {
                    unreleased = true;
                }
            }
        }
        m.assigned = next;
        if m.epoch != self.assignment_epoch {
            m.previous_epoch = m.epoch;
            m.epoch = self.assignment_epoch;
        }
        m.state = if unreleased {
            MemberState::UnreleasedPartitions
        } else {
            MemberState::Stable
        };
    }

    /// OffsetCommit checks for a consumer group (Kafka's
    /// `ConsumerGroup.validateOffsetCommit`).
    pub fn validate_commit(
        &self,
        member_id: &str,
        member_epoch: i32,
        version: i16,
    ) -> Result<(), ErrorCode> {
        // Admin tools and consumers without membership: only when empty.
        if member_epoch < 0 && self.members.is_empty() {
            return Ok(());
        }
        let m = self
            .members
            .get(member_id)
            .ok_or(ErrorCode::UnknownMemberId)?;
        if version < 9 {
            return Err(ErrorCode::UnsupportedVersion);
        }
        // Kafka 4: any mismatch is STALE_MEMBER_EPOCH (the client
        // refreshes its epoch by heartbeating and retries).
        if member_epoch != m.epoch {
            Err(ErrorCode::StaleMemberEpoch)
        } else {
            Ok(())
        }
    }

    /// OffsetFetch checks (Kafka's `ConsumerGroup.validateOffsetFetch`):
    /// without a member id and with a negative epoch (admin clients), any
    /// fetch is accepted; otherwise the member must exist and the epoch
    /// match.
    pub fn validate_fetch(
        &self,
        member_id: Option<&str>,
        member_epoch: i32,
    ) -> Result<(), ErrorCode> {
        if member_id.is_none() && member_epoch < 0 {
            return Ok(());
        }
        let m = self
            .members
            .get(member_id.unwrap_or_default())
            .ok_or(ErrorCode::UnknownMemberId)?;
        if member_epoch != m.epoch {
            Err(ErrorCode::StaleMemberEpoch)
        } else {
            Ok(())
        }
    }
}

fn union_into(a: &mut Assignment, b: &Assignment) {
    for (t, ps) in b {
        a.entry(*t).or_default().extend(ps.iter().copied());
    }
}

fn difference(a: &Assignment, b: &Assignment) -> Assignment {
    let mut out = Assignment::new();
    for (t, ps) in a {
        let d: BTreeSet<i32> = match b.get(t) {
            Some(bs) => ps.difference(bs).copied().collect(),
            None => ps.clone(),
        };
        if !d.is_empty() {
            out.insert(*t, d);
        }
    }
    out
}

fn intersection(a: &Assignment, b: &Assignment) -> Assignment {
    let mut out = Assignment::new();
    for (t, ps) in a {
        if let Some(bs) = b.get(t) {
            let i: BTreeSet<i32> = ps.intersection(bs).copied().collect();
            if !i.is_empty() {
                out.insert(*t, i);
            }
        }
    }
    out
}

fn intersects(a: &Assignment, b: &Assignment) -> bool {
    !intersection(a, b).is_empty()
}

fn is_subset(a: &Assignment, b: &Assignment) -> bool {
    difference(a, b).is_empty()
}

/// The uniform assignor: balanced (counts differ by at most one among
/// members with the same subscription) and sticky (a partition stays with
/// its previous target owner unless balance needs it elsewhere), and rack
/// aware where members send racks: a partition goes to a member in a rack
/// holding one of its replicas when one can take it without unbalancing
/// the group (so a consumer reads from a replica in its own zone with
/// follower fetching), and a previous owner outside its replicas' racks
/// gives it up when such a member exists. Balance comes first, then
/// racks, then stickiness, as in Kafka's rack-aware sticky assignors
/// (KIP-881).
pub fn assign_uniform(
    members: &[(String, BTreeSet<Uuid>)],
    topics: &[TopicInfo],
    previous: &BTreeMap<String, Assignment>,
    racks: &RackMatch<'_>,
) -> BTreeMap<String, Assignment> {
    let mut out: BTreeMap<String, Assignment> = members
        .iter()
        .map(|(id, _)| (id.clone(), Assignment::new()))
        .collect();
    let subs: BTreeMap<&str, &BTreeSet<Uuid>> =
        members.iter().map(|(id, s)| (id.as_str(), s)).collect();
    let count = |a: &Assignment| a.values().map(|s| s.len()).sum::<usize>();
    let eligible = |t: Uuid| {
        members
            .iter()
            .filter(move |(_, s)| s.contains(&t))
            .map(|(id, _)| id)
    };
    let mut taken: BTreeSet<(Uuid, i32)> = BTreeSet::new();
    let sizes: BTreeMap<Uuid, i32> = topics.iter().map(|t| (t.id, t.partitions)).collect();
    // Keep previous ownership where still valid (and, with racks, where
    // the owner's rack holds a replica or no eligible member's does).
    for (id, prev) in previous {
        let Some(sub) = subs.get(id.as_str()) else {
            continue;
        };
        for (t, ps) in prev {
            let Some(&n) = sizes.get(t) else { continue };
            if !sub.contains(t) {
                continue;
            }
            for &p in ps {
                let rack_ok = racks.matches(id, *t, p) || !racks.matchable(eligible(*t), *t, p);
                if p < n && rack_ok && taken.insert((*t, p)) {
                    out.entry(id.clone())
                        .or_default()
                        .entry(*t)
                        .or_default()
                        .insert(p);
                }
            }
        }
    }
    // The most any member should hold, for the rack pass below.
    let total_partitions: usize = topics
        .iter()
        .filter(|t| members.iter().any(|(_, s)| s.contains(&t.id)))
        .map(|t| t.partitions.max(0) as usize)
        .sum();
    let ceiling = total_partitions.div_ceil(members.len().max(1));
    // Hand out the rest: first to a member in a replica's rack below the
    // ceiling, else to the least loaded eligible member (among equals, one
    // in a replica's rack).
    for t in topics {
        for p in 0..t.partitions {
            if taken.contains(&(t.id, p)) {
                continue;
            }
            let load = |id: &String| out.get(id).map(count).unwrap_or(0);
            let in_rack = eligible(t.id)
                .filter(|id| racks.matches(id, t.id, p) && load(id) < ceiling)
                .min_by_key(|id| (load(id), (*id).clone()));
            let best = in_rack.or_else(|| {
                eligible(t.id)
                    .min_by_key(|id| (load(id), !racks.matches(id, t.id, p), (*id).clone()))
            });
            if let Some(id) = best.cloned() {
                taken.insert((t.id, p));
                out.entry(id)
                    .or_default()
                    .entry(t.id)
                    .or_default()
                    .insert(p);
            }
        }
    }
    // Even out: move a partition from a member to an eligible one with at
    // least two fewer, until none can move (bounded: each move shrinks the
    // sum of squared counts). Among the possible moves from the fullest
    // member, the one that puts a partition into a replica's rack (best:
    // out of a rack without one) wins; else the first, as without racks.
    let total: usize = taken.len();
    for _ in 0..total.saturating_mul(members.len()).max(1) {
        let mut moved = false;
        let mut order: Vec<(usize, String)> =
            out.iter().map(|(id, a)| (count(a), id.clone())).collect();
        order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (n, from) in &order {
            let parts: Vec<(Uuid, i32)> = out[from]
                .iter()
                .flat_map(|(t, ps)| ps.iter().rev().map(move |p| (*t, *p)))
                .collect();
            // (score, partition, target); the first best is kept.
            let mut best: Option<(u8, (Uuid, i32), String)> = None;
            for (t, p) in parts {
                let to = members
                    .iter()
                    .filter(|(id, s)| id != from && s.contains(&t))
                    .map(|(id, _)| (out.get(id).map(count).unwrap_or(0), id.clone()))
                    .filter(|(c, _)| c + 1 < *n)
                    .min_by_key(|(c, id)| (!racks.matches(id, t, p), *c, id.clone()));
                let Some((_, to)) = to else { continue };
                let score =
                    2 * u8::from(racks.matches(&to, t, p)) + u8::from(!racks.matches(from, t, p));
                if best.as_ref().is_none_or(|b| score > b.0) {
                    best = Some((score, (t, p), to));
                }
                if score == 3 {
                    break;
                }
            }
            if let Some((_, (t, p), to)) = best {
                if let Some(ps) = out.get_mut(from).and_then(|a| a.get_mut(&t)) {
                    ps.remove(&p);
                    if ps.is_empty() {
                        out.get_mut(from).map(|a| a.remove(&t));
                    }
                }
                out.entry(to).or_default().entry(t).or_default().insert(p);
                moved = true;
                break;
            }
        }
        if !moved {
            break;
        }
    }
    out
}

/// The range assignor: per topic, its subscribers (by member id) get
/// contiguous ranges, the first ones one extra. With racks, each
/// subscriber still gets exactly its range's count, but a partition goes
/// first to a subscriber in one of its replicas' racks with room left
/// (Kafka's rack-aware RangeAssignor, KIP-881); without racks the ranges
/// are contiguous.
pub fn assign_range(
    members: &[(String, BTreeSet<Uuid>)],
    topics: &[TopicInfo],
    racks: &RackMatch<'_>,
) -> BTreeMap<String, Assignment> {
    let mut out: BTreeMap<String, Assignment> = members
        .iter()
        .map(|(id, _)| (id.clone(), Assignment::new()))
        .collect();
    for t in topics {
        let mut subs: Vec<&String> = members
            .iter()
            .filter(|(_, s)| s.contains(&t.id))
            .map(|(id, _)| id)
            .collect();
        subs.sort();
        if subs.is_empty() || t.partitions <= 0 {
            continue;
        }
        let n = t.partitions as usize;
        let per = n / subs.len();
        let extra = n % subs.len();
        let mut room: Vec<usize> = (0..subs.len())
            .map(|i| per + usize::from(i < extra))
            .collect();
        let mut owner: Vec<Option<usize>> = vec![None; n];
        // Rack pass: each partition to the first subscriber in one of its
        // replicas' racks that has room.
        for (p, slot) in owner.iter_mut().enumerate() {
            if let Some(i) =
                (0..subs.len()).find(|&i| room[i] > 0 && racks.matches(subs[i], t.id, p as i32))
            {
                room[i] -= 1;
                *slot = Some(i);
            }
        }
        // The rest in order: contiguous when the rack pass placed nothing.
        let mut i = 0;
        for slot in owner.iter_mut().filter(|o| o.is_none()) {
            while i < subs.len() && room[i] == 0 {
                i += 1;
            }
            if i == subs.len() {
                break;
            }
            room[i] -= 1;
            *slot = Some(i);
        }
        for (p, o) in owner.into_iter().enumerate() {
            if let Some(i) = o {
                out.entry(subs[i].clone())
                    .or_default()
                    .entry(t.id)
                    .or_default()
                    .insert(p as i32);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic(name: &str, n: i32) -> TopicInfo {
        TopicInfo {
            name: name.into(),
            id: Uuid::new_v4(),
            partitions: n,
        }
    }

    fn count(a: &Assignment) -> usize {
        a.values().map(|s| s.len()).sum()
    }

    fn join(
        g: &mut ConsumerGroup,
        id: &str,
        topics: &[TopicInfo],
        now: Instant,
    ) -> HeartbeatOutcome {
        g.heartbeat(
            HeartbeatParams {
                member_id: id.into(),
                epoch: 0,
                rebalance_timeout_ms: 1000,
                topic_names: Some(vec!["t".into()]),
                regex: Some(String::new()),
                owned: Some(Assignment::new()),
                ..Default::default()
            },
            topics,
            &NoRacks,
            now,
        )
        .unwrap()
    }

    fn beat(
        g: &mut ConsumerGroup,
        id: &str,
        epoch: i32,
        owned: Option<Assignment>,
        topics: &[TopicInfo],
        now: Instant,
    ) -> Result<HeartbeatOutcome, Refusal> {
        g.heartbeat(
            HeartbeatParams {
                member_id: id.into(),
                epoch,
                rebalance_timeout_ms: -1,
                owned,
                ..Default::default()
            },
            topics,
            &NoRacks,
            now,
        )
    }

    #[test]
    fn uniform_is_balanced_and_sticky() {
        let t = topic("t", 7);
        let all: BTreeSet<Uuid> = [t.id].into();
        let ms: Vec<(String, BTreeSet<Uuid>)> = ["a", "b", "c"]
            .iter()
            .map(|m| (m.to_string(), all.clone()))
            .collect();
        let first = assign_uniform(
            &ms,
            std::slice::from_ref(&t),
            &BTreeMap::new(),
            &RackMatch::none(),
        );
        let counts: Vec<usize> = first.values().map(count).collect();
        assert_eq!(counts.iter().sum::<usize>(), 7);
        assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1);
        // One more member: only partitions needed for balance move.
        let mut ms2 = ms.clone();
        ms2.push(("d".into(), all.clone()));
        let second = assign_uniform(&ms2, std::slice::from_ref(&t), &first, &RackMatch::none());
        let counts: Vec<usize> = second.values().map(count).collect();
        assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1);
        let moved: usize = ["a", "b", "c"]
            .iter()
            .map(|m| count(&difference(&first[*m], &second[*m])))
            .sum();
        assert_eq!(moved, count(&second["d"]));
    }

    #[test]
    fn uniform_respects_subscriptions() {
        let (t1, t2) = (topic("x", 4), topic("y", 2));
        let ms = vec![
            ("a".to_string(), BTreeSet::from([t1.id])),
            ("b".to_string(), BTreeSet::from([t1.id, t2.id])),
        ];
        let out = assign_uniform(
            &ms,
            &[t1.clone(), t2.clone()],
            &BTreeMap::new(),
            &RackMatch::none(),
        );
        assert!(!out["a"].contains_key(&t2.id));
        assert_eq!(count(&out["a"]) + count(&out["b"]), 6);
        assert_eq!(count(&out["a"]), 3);
    }

    /// Replica racks given per partition (tests).
    struct Racks(BTreeMap<(Uuid, i32), Vec<String>>);

    impl ReplicaRacks for Racks {
        fn racks(&self, id: Uuid, p: i32) -> Vec<String> {
            self.0.get(&(id, p)).cloned().unwrap_or_default()
        }
    }

    #[test]
    fn rack_aware_assignors_put_partitions_in_their_members_racks() {
        let t = topic("t", 6);
        let ts = std::slice::from_ref(&t);
        let all: BTreeSet<Uuid> = [t.id].into();
        let ms = vec![("a".to_string(), all.clone()), ("b".to_string(), all)];
        let member_racks = || {
            [
                ("a".to_string(), "r1".to_string()),
                ("b".into(), "r0".into()),
            ]
        };
        // Partition p's only replica is in rack r(p % 2).
        let racks = Racks(
            (0..6)
                .map(|p| ((t.id, p), vec![format!("r{}", p % 2)]))
                .collect(),
        );
        let rm = RackMatch::new(member_racks(), &racks);
        let odd: BTreeSet<i32> = [1, 3, 5].into();
        let even: BTreeSet<i32> = [0, 2, 4].into();
        for out in [
            assign_uniform(&ms, ts, &BTreeMap::new(), &rm),
            assign_range(&ms, ts, &rm),
        ] {
            assert_eq!(out["a"][&t.id], odd);
            assert_eq!(out["b"][&t.id], even);
        }
        // A previous owner outside its partitions' racks gives them up.
        let prev: BTreeMap<String, Assignment> = [
            ("a".to_string(), [(t.id, even.clone())].into()),
            ("b".to_string(), [(t.id, odd.clone())].into()),
        ]
        .into();
        let out = assign_uniform(&ms, ts, &prev, &rm);
        assert_eq!(out["a"][&t.id], odd);
        // Balance beats racks: with every replica in r0, still 3 and 3.
        let racks0 = Racks((0..6).map(|p| ((t.id, p), vec!["r0".into()])).collect());
        let rm0 = RackMatch::new(member_racks(), &racks0);
        for out in [
            assign_uniform(&ms, ts, &BTreeMap::new(), &rm0),
            assign_range(&ms, ts, &rm0),
        ] {
            assert_eq!(count(&out["a"]), 3);
            assert_eq!(count(&out["b"]), 3);
        }
        // Members without racks: exactly the rack-less assignment
        // (contiguous ranges).
        let none = RackMatch::new(Vec::<(String, String)>::new(), &racks);
        let out = assign_range(&ms, ts, &none);
        assert_eq!(out, assign_range(&ms, ts, &RackMatch::none()));
        assert_eq!(out["a"][&t.id], [0, 1, 2].into());
        assert_eq!(
            assign_uniform(&ms, ts, &BTreeMap::new(), &none),
            assign_uniform(&ms, ts, &BTreeMap::new(), &RackMatch::none())
        );
    }

    /// A heartbeat of `id` at its current epoch (0 to join), in `rack`,
    /// reporting what the coordinator last assigned it as owned (a client
    /// that applies every assignment at once).
    fn beat_in_rack(
        g: &mut ConsumerGroup,
        id: &str,
        rack: Option<&str>,
        topics: &[TopicInfo],
        racks: &dyn ReplicaRacks,
        now: Instant,
    ) -> HeartbeatOutcome {
        let (epoch, owned) = match g.members.get(id) {
            Some(m) => (m.epoch, m.assigned.clone()),
            None => (0, Assignment::new()),
        };
        g.heartbeat(
            HeartbeatParams {
                member_id: id.into(),
                epoch,
                rack_id: rack.map(str::to_string),
                rebalance_timeout_ms: 1000,
                topic_names: Some(vec!["t".into()]),
                owned: Some(owned),
                ..Default::default()
            },
            topics,
            racks,
            now,
        )
        .unwrap()
    }

    /// Heartbeats every member (at most 20 rounds) until each is Stable
    /// at the assignment epoch; panics otherwise.
    fn settle(
        g: &mut ConsumerGroup,
        members: &[(&str, Option<&str>)],
        topics: &[TopicInfo],
        racks: &dyn ReplicaRacks,
        now: Instant,
    ) {
        for _ in 0..20 {
            for (id, rack) in members {
                beat_in_rack(g, id, *rack, topics, racks, now);
            }
            if g.state_name() == "Stable" {
                return;
            }
        }
        panic!("group did not settle: {}", g.state_name());
    }

    /// Partition p of `t`'s only replica in rack `r{(p + shift) % 2}`.
    fn alternating(t: &TopicInfo, shift: i32) -> Racks {
        Racks(
            (0..t.partitions)
                .map(|p| ((t.id, p), vec![format!("r{}", (p + shift) % 2)]))
                .collect(),
        )
    }

    /// KIP-1101: the racks of a subscribed partition's replicas change (a
    /// reassignment moved them): the next heartbeat bumps the group
    /// epoch, and the members end with the partitions now in their racks.
    #[test]
    fn a_change_of_replica_racks_reassigns_a_rack_aware_group() {
        let t = topic("t", 6);
        let topics = vec![t.clone()];
        let members = [("a", Some("r0")), ("b", Some("r1"))];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        let before = alternating(&t, 0);
        settle(&mut g, &members, &topics, &before, now);
        let even: BTreeSet<i32> = [0, 2, 4].into();
        let odd: BTreeSet<i32> = [1, 3, 5].into();
        assert_eq!(g.members["a"].assigned[&t.id], even);
        assert_eq!(g.members["b"].assigned[&t.id], odd);
        // Nothing changed: heartbeats keep the epoch.
        let epoch = g.group_epoch;
        settle(&mut g, &members, &topics, &before, now);
        assert_eq!(g.group_epoch, epoch);

        // Every replica moves to the other rack.
        let after = alternating(&t, 1);
        beat_in_rack(&mut g, "a", Some("r0"), &topics, &after, now);
        assert_eq!(g.group_epoch, epoch + 1, "a rack change bumps the epoch");
        assert_eq!(g.assignment_epoch, epoch + 1);
        assert_eq!(g.target["a"][&t.id], odd);
        assert_eq!(g.target["b"][&t.id], even);
        settle(&mut g, &members, &topics, &after, now);
        assert_eq!(g.members["a"].assigned[&t.id], odd);
        assert_eq!(g.members["b"].assigned[&t.id], even);
        assert_eq!(g.group_epoch, epoch + 1, "one bump per change");

        // One partition's replica set gains a rack (a replica added in
        // r0): a change too, though no member need move for it.
        let mut wider = alternating(&t, 1);
        wider.0.insert((t.id, 1), vec!["r0".into(), "r1".into()]);
        beat_in_rack(&mut g, "b", Some("r1"), &topics, &wider, now);
        assert_eq!(g.group_epoch, epoch + 2);
        settle(&mut g, &members, &topics, &wider, now);
    }

    /// A group whose members send no rack is not rebalanced by replica
    /// moves (racks play no part in its assignment); added partitions
    /// still bump it.
    #[test]
    fn replica_rack_changes_leave_a_rack_less_group_alone() {
        let t = topic("t", 6);
        let topics = vec![t.clone()];
        let members = [("a", None), ("b", None)];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        settle(&mut g, &members, &topics, &alternating(&t, 0), now);
        let epoch = g.group_epoch;
        let assigned = g.members["a"].assigned.clone();
        settle(&mut g, &members, &topics, &alternating(&t, 1), now);
        assert_eq!(g.group_epoch, epoch);
        assert_eq!(g.members["a"].assigned, assigned);
        // Partitions added: a bump, racks or not.
        let grown = vec![TopicInfo {
            partitions: 8,
            ..t.clone()
        }];
        beat_in_rack(&mut g, "a", None, &grown, &alternating(&grown[0], 1), now);
        assert_eq!(g.group_epoch, epoch + 1);
    }

    /// The first rack a member sends is no replica change (no bump; Kafka
    /// does not bump for a member's rack either), but from then on the
    /// group watches its replicas' racks; a restart takes them as they
    /// are (no rebalance) and goes on watching.
    #[test]
    fn racks_are_watched_from_the_first_member_rack_and_across_a_restart() {
        let t = topic("t", 4);
        let topics = vec![t.clone()];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        let r0 = alternating(&t, 0);
        settle(&mut g, &[("a", None), ("b", None)], &topics, &r0, now);
        let epoch = g.group_epoch;
        beat_in_rack(&mut g, "a", Some("r0"), &topics, &r0, now);
        beat_in_rack(&mut g, "b", Some("r1"), &topics, &r0, now);
        assert_eq!(g.group_epoch, epoch, "a member's rack alone does not bump");
        let members = [("a", Some("r0")), ("b", Some("r1"))];
        settle(&mut g, &members, &topics, &r0, now);
        assert_eq!(g.group_epoch, epoch);

        // Restart: replayed from the records, racks taken as they are.
        let mut log = Vec::new();
        let mut back = restart_with(&mut g, &mut log, &topics, &r0);
        assert_eq!(back.group_epoch, epoch);
        settle(&mut back, &members, &topics, &r0, now);
        assert_eq!(back.group_epoch, epoch, "a restart alone does not bump");
        let r1 = alternating(&t, 1);
        settle(&mut back, &members, &topics, &r1, now);
        assert_eq!(back.group_epoch, epoch + 1);
        // Each member holds the partitions whose replica is in its rack.
        assert_eq!(back.members["a"].assigned[&t.id], [1, 3].into());
        assert_eq!(back.members["b"].assigned[&t.id], [0, 2].into());
    }

    /// `ClusterMetadata`'s allocation-free `hash_racks` hashes exactly
    /// what its `racks` returns (sorted, deduplicated, unknown brokers
    /// and rack-less brokers left out), as the default method would.
    #[test]
    fn metadata_hash_racks_matches_its_racks() {
        use crate::metadata::{BrokerMeta, ClusterMetadata, MetadataState, TopicMeta};
        let mut meta = MetadataState::new(crate::settings::Settings::default(), 1).snapshot();
        let t = topic("t", 3);
        let tm = TopicMeta {
            name: t.name.clone(),
            id: t.id,
            partitions: 3,
            configs: BTreeMap::new(),
            replicas: vec![vec![1, 2, 3], vec![3, 2, 9], vec![4]],
            reassignments: BTreeMap::new(),
        };
        meta.by_id.insert(t.id, t.name.clone());
        meta.topics.insert(t.name.clone(), std::sync::Arc::new(tm));
        for (id, rack) in [(1, Some("zb")), (2, Some("za")), (3, Some("zb")), (4, None)] {
            meta.brokers.insert(
                id,
                BrokerMeta {
                    id,
                    host: "127.0.0.1".into(),
                    port: 9092,
                    rack: rack.map(str::to_string),
                    rpc_addr: "127.0.0.1:9093".into(),
                    fenced: false,
                    listeners: Vec::new(),
                    maintenance: false,
                    decommissioning: false,
                    incarnation: 0,
                },
            );
        }
        assert_eq!(
            meta.racks(t.id, 0),
            vec!["za".to_string(), "zb".to_string()]
        );
        assert!(meta.racks(t.id, 2).is_empty());
        /// The trait's default `hash_racks`, over the same `racks`.
        struct Default<'a>(&'a ClusterMetadata);
        impl ReplicaRacks for Default<'_> {
            fn racks(&self, id: Uuid, p: i32) -> Vec<String> {
                self.0.racks(id, p)
            }
        }
        let hash = |r: &dyn ReplicaRacks, partitions: i32| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            r.hash_racks(t.id, partitions, &mut h);
            h.finish()
        };
        assert_eq!(hash(&meta, 3), hash(&Default(&meta), 3));
        // Asked past the topic's partitions or for an unknown topic: as
        // `racks`, empty.
        assert_eq!(hash(&meta, 5), hash(&Default(&meta), 5));
        let before = hash(&meta, 3);
        meta.brokers.get_mut(&4).unwrap().rack = Some("zc".into());
        assert_ne!(hash(&meta, 3), before, "a broker's rack is part of it");
    }

    #[test]
    fn range_gives_contiguous_ranges() {
        let t = topic("t", 5);
        let all: BTreeSet<Uuid> = [t.id].into();
        let ms: Vec<(String, BTreeSet<Uuid>)> = ["b", "a"]
            .iter()
            .map(|m| (m.to_string(), all.clone()))
            .collect();
        let out = assign_range(&ms, std::slice::from_ref(&t), &RackMatch::none());
        assert_eq!(out["a"][&t.id], BTreeSet::from([0, 1, 2]));
        assert_eq!(out["b"][&t.id], BTreeSet::from([3, 4]));
    }

    #[test]
    fn reconciliation_waits_for_revocation() {
        let topics = vec![topic("t", 6)];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        let a = join(&mut g, "a", &topics, now);
        assert_eq!(count(a.assignment.as_ref().unwrap()), 6);
        let a_epoch = a.epoch;
        // b joins: the target moves three partitions, still owned by a.
        let b = join(&mut g, "b", &topics, now);
        assert_eq!(count(b.assignment.as_ref().unwrap()), 0);
        assert!(b.epoch > a_epoch);
        // a is asked to revoke; its epoch does not move yet.
        let a2 = beat(&mut g, "a", a_epoch, None, &topics, now).unwrap();
        assert_eq!(a2.epoch, a_epoch);
        let kept = a2.assignment.unwrap();
        assert_eq!(count(&kept), 3);
        // b still gets nothing: a has not confirmed.
        let b2 = beat(&mut g, "b", b.epoch, None, &topics, now).unwrap();
        assert!(b2.assignment.is_none_or(|a| a.is_empty()));
        // a confirms; it advances.
        let a3 = beat(&mut g, "a", a_epoch, Some(kept.clone()), &topics, now).unwrap();
        assert_eq!(a3.epoch, g.assignment_epoch);
        // Now b gets the released partitions, disjoint from a's.
        let b3 = beat(&mut g, "b", b.epoch, None, &topics, now).unwrap();
        let got = b3.assignment.unwrap();
        assert_eq!(count(&got), 3);
        assert!(!intersects(&got, &kept));
        assert_eq!(g.state_name(), "Stable");
    }

    #[test]
    fn fencing_and_unknown_members() {
        let topics = vec![topic("t", 2)];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        let a = join(&mut g, "a", &topics, now);
        let e = beat(&mut g, "a", a.epoch + 5, None, &topics, now).unwrap_err();
        assert_eq!(e.code, ErrorCode::FencedMemberEpoch);
        let e = beat(&mut g, "zz", 3, None, &topics, now).unwrap_err();
        assert_eq!(e.code, ErrorCode::UnknownMemberId);
        assert_eq!(
            g.validate_commit("a", a.epoch - 1, 9),
            Err(ErrorCode::StaleMemberEpoch)
        );
        assert_eq!(
            g.validate_commit("a", a.epoch + 1, 9),
            Err(ErrorCode::StaleMemberEpoch)
        );
        assert_eq!(g.validate_fetch(None, -1), Ok(()));
        assert_eq!(g.validate_fetch(Some("a"), a.epoch), Ok(()));
        assert_eq!(
            g.validate_fetch(Some("a"), a.epoch + 1),
            Err(ErrorCode::StaleMemberEpoch)
        );
        assert_eq!(
            g.validate_fetch(Some("x"), 1),
            Err(ErrorCode::UnknownMemberId)
        );
        assert_eq!(g.validate_commit("a", a.epoch, 9), Ok(()));
        assert_eq!(
            g.validate_commit("a", a.epoch, 8),
            Err(ErrorCode::UnsupportedVersion)
        );
        assert_eq!(
            g.validate_commit("x", 1, 9),
            Err(ErrorCode::UnknownMemberId)
        );
    }

    #[test]
    fn session_timeout_frees_partitions() {
        let topics = vec![topic("t", 4)];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        join(&mut g, "a", &topics, now);
        let b = join(&mut g, "b", &topics, now);
        let later = now + Duration::from_secs(10);
        beat(&mut g, "b", b.epoch, None, &topics, later).unwrap();
        let gone = g.tick(later, Duration::from_secs(5), &topics, &NoRacks);
        assert_eq!(gone, vec!["a".to_string()]);
        let b2 = beat(&mut g, "b", b.epoch, None, &topics, later).unwrap();
        assert_eq!(count(&b2.assignment.unwrap()), 4);
    }

    #[test]
    fn leave_and_static_rejoin() {
        let topics = vec![topic("t", 4)];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        let a = g
            .heartbeat(
                HeartbeatParams {
                    member_id: "a".into(),
                    epoch: 0,
                    instance_id: Some("i1".into()),
                    topic_names: Some(vec!["t".into()]),
                    ..Default::default()
                },
                &topics,
                &NoRacks,
                now,
            )
            .unwrap();
        let epoch = g.group_epoch;
        beat(&mut g, "a", STATIC_LEAVE_EPOCH, None, &topics, now).unwrap();
        assert_eq!(g.group_epoch, epoch, "a static leave does not rebalance");
        let a2 = g
            .heartbeat(
                HeartbeatParams {
                    member_id: "a2".into(),
                    epoch: 0,
                    instance_id: Some("i1".into()),
                    topic_names: Some(vec!["t".into()]),
                    ..Default::default()
                },
                &topics,
                &NoRacks,
                now,
            )
            .unwrap();
        assert_eq!(a2.assignment, a.assignment);
        assert_eq!(g.group_epoch, epoch);
        beat(&mut g, "a2", LEAVE_EPOCH, None, &topics, now).unwrap();
        assert!(g.members.is_empty());
    }

    /// A drain (possibly of only the heartbeating member) must leave
    /// nothing that a full comparison of the whole state would find.
    fn assert_fully_drained(g: &mut ConsumerGroup) {
        g.dirty_all = true;
        let rest = g.drain_records();
        assert!(rest.is_empty(), "a partial drain missed {rest:?}");
    }

    /// Drains the group's records and replays them into a fresh group, as
    /// a restart does (through the bytes, like the log).
    fn restart(
        g: &mut ConsumerGroup,
        log: &mut Vec<(Bytes, Option<Bytes>)>,
        topics: &[TopicInfo],
    ) -> ConsumerGroup {
        restart_with(g, log, topics, &NoRacks)
    }

    /// [`restart`], with the replicas' racks as the metadata has them.
    fn restart_with(
        g: &mut ConsumerGroup,
        log: &mut Vec<(Bytes, Option<Bytes>)>,
        topics: &[TopicInfo],
        racks: &dyn ReplicaRacks,
    ) -> ConsumerGroup {
        for (k, v) in g.drain_records() {
            log.push((super::super::records::consumer_key(&g.id, &k), v));
        }
        assert_fully_drained(g);
        load(&g.id, log, topics, racks)
    }

    /// A group `id` replayed from `log` and loaded against `topics`.
    fn load(
        id: &str,
        log: &[(Bytes, Option<Bytes>)],
        topics: &[TopicInfo],
        racks: &dyn ReplicaRacks,
    ) -> ConsumerGroup {
        let now = Instant::now();
        let mut back = ConsumerGroup::new(id.to_string());
        for (k, v) in log.iter() {
            match super::super::records::decode(Some(k), v.as_deref()).unwrap() {
                super::super::records::OffsetsRecord::Consumer { key, value, .. } => {
                    back.replay(key, value, now)
                }
                r => panic!("unexpected {r:?}"),
            }
        }
        back.finish_load(topics, racks, now);
        back
    }

    /// Random joins, heartbeats (with and without acknowledging
    /// revocations), static and dynamic leaves and session expiries: after
    /// every step, the (possibly partial) drain leaves nothing behind, and
    /// a replay of everything written rebuilds the same state.
    #[test]
    fn partial_drains_miss_nothing() {
        let topics = vec![topic("t", 9)];
        let mut now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        let mut log = Vec::new();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for step in 0..600 {
            let id = format!("m{}", rnd(6));
            let known = g.members.get(&id).map(|m| (m.epoch, m.assigned.clone()));
            match (rnd(10), known) {
                (0, _) => {
                    let _ = g.heartbeat(
                        HeartbeatParams {
                            member_id: id.clone(),
                            epoch: 0,
                            instance_id: (rnd(2) == 0).then(|| format!("i-{id}")),
                            rebalance_timeout_ms: 1000,
                            topic_names: Some(vec!["t".into()]),
                            owned: Some(Assignment::new()),
                            ..Default::default()
                        },
                        &topics,
                        &NoRacks,
                        now,
                    );
                }
                (1, Some(_)) => {
                    let _ = beat(&mut g, &id, LEAVE_EPOCH, None, &topics, now);
                }
                (2, Some(_)) => {
                    let _ = g.heartbeat(
                        HeartbeatParams {
                            member_id: id.clone(),
                            epoch: STATIC_LEAVE_EPOCH,
                            instance_id: Some(format!("i-{id}")),
                            ..Default::default()
                        },
                        &topics,
                        &NoRacks,
                        now,
                    );
                }
                (3, _) => {
                    now += Duration::from_millis(400);
                    g.tick(now, Duration::from_secs(1), &topics, &NoRacks);
                }
                (_, Some((epoch, assigned))) => {
                    let owned = (rnd(2) == 0).then_some(assigned);
                    let _ = beat(&mut g, &id, epoch, owned, &topics, now);
                }
                (_, None) => {}
            }
            for (k, v) in g.drain_records() {
                log.push((super::super::records::consumer_key("g", &k), v));
            }
            g.dirty_all = true;
            let rest = g.drain_records();
            assert!(
                rest.is_empty(),
                "step {step}: a partial drain missed {rest:?}"
            );
        }
        let back = restart(&mut g, &mut log, &topics);
        assert_eq!(
            back.members.keys().collect::<Vec<_>>(),
            g.members.keys().collect::<Vec<_>>()
        );
        for (id, m) in &g.members {
            let r = &back.members[id];
            assert_eq!(
                (m.epoch, m.previous_epoch, m.state, &m.assigned, &m.revoking),
                (r.epoch, r.previous_epoch, r.state, &r.assigned, &r.revoking)
            );
        }
        assert_eq!(back.target, g.target);
        assert_eq!(
            (back.group_epoch, back.assignment_epoch),
            (g.group_epoch, g.assignment_epoch)
        );
    }

    #[test]
    fn state_survives_replay_and_drains_only_changes() {
        let topics = vec![topic("t", 6)];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        let mut log = Vec::new();
        let a = join(&mut g, "a", &topics, now);
        let b = join(&mut g, "b", &topics, now);
        let a2 = beat(&mut g, "a", a.epoch, None, &topics, now).unwrap();
        // a is mid-revocation: that state must survive too.
        let back = restart(&mut g, &mut log, &topics);
        assert!(
            g.drain_records().is_empty(),
            "nothing changed since the drain"
        );
        for id in ["a", "b"] {
            let (m, r) = (&g.members[id], &back.members[id]);
            assert_eq!(
                (
                    m.epoch,
                    m.previous_epoch,
                    m.state,
                    &m.assigned,
                    &m.revoking,
                    &m.topic_names
                ),
                (
                    r.epoch,
                    r.previous_epoch,
                    r.state,
                    &r.assigned,
                    &r.revoking,
                    &r.topic_names
                )
            );
        }
        assert_eq!(
            (back.group_epoch, back.assignment_epoch),
            (g.group_epoch, g.assignment_epoch)
        );
        assert_eq!(back.target, g.target);
        assert_eq!(back.state_name(), g.state_name());
        // The reloaded group goes on: a confirms, b gets the rest, and a
        // heartbeat with the old epochs is accepted after the restart.
        let mut g = back;
        let kept = a2.assignment.unwrap();
        let a3 = beat(&mut g, "a", a.epoch, Some(kept.clone()), &topics, now).unwrap();
        let b3 = beat(&mut g, "b", b.epoch, None, &topics, now).unwrap();
        assert_eq!(count(&b3.assignment.unwrap()), 3);
        assert_eq!(g.state_name(), "Stable");
        // Only the changed records are written: no member metadata, no
        // partition metadata, no group epoch.
        let drained = g.drain_records();
        assert!(!drained.is_empty());
        assert!(
            drained
                .iter()
                .all(|(k, v)| v.is_some() && matches!(k, ConsumerKey::CurrentAssignment(_))),
            "{drained:?}"
        );
        for (k, v) in &drained {
            log.push((super::super::records::consumer_key("g", k), v.clone()));
        }
        assert_fully_drained(&mut g);
        // A restart now changes nothing for a stable member: same epoch,
        // same partitions, and no rebalance.
        let mut back = restart(&mut g, &mut log, &topics);
        let epoch = back.group_epoch;
        let a4 = beat(&mut back, "a", a3.epoch, Some(kept.clone()), &topics, now).unwrap();
        assert_eq!(a4.epoch, a3.epoch);
        assert_eq!(back.members["a"].assigned, kept);
        assert_eq!(back.group_epoch, epoch);
        assert!(back.drain_records().is_empty());
        assert_fully_drained(&mut back);
        // A member leaving writes its tombstones first, then the new epoch.
        beat(&mut back, "b", LEAVE_EPOCH, None, &topics, now).unwrap();
        let drained = back.drain_records();
        let kinds: Vec<(i16, bool)> = drained
            .iter()
            .map(|(k, v)| (k.record_type(), v.is_some()))
            .collect();
        assert_eq!(
            &kinds[..4],
            &[(8, false), (7, false), (5, false), (3, true)],
            "{kinds:?}"
        );
        for (k, v) in &drained {
            log.push((super::super::records::consumer_key("g", k), v.clone()));
        }
        // Deleting the group: tombstones for everything written.
        let tombs = back.tombstones();
        let kinds: Vec<i16> = tombs.iter().map(|k| k.record_type()).collect();
        assert_eq!(kinds, vec![8, 7, 5, 6, 4, 3]);
        // A failed write is written again by the next drain.
        back.mark_unwritten(&[ConsumerKey::Metadata]);
        let again = back.drain_records();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].0, ConsumerKey::Metadata);
    }

    #[test]
    fn bad_regex_and_assignor_are_refused() {
        let topics = vec![topic("t", 1)];
        let mut g = ConsumerGroup::new("g".into());
        let e = g
            .heartbeat(
                HeartbeatParams {
                    member_id: "a".into(),
                    regex: Some("(".into()),
                    ..Default::default()
                },
                &topics,
                &NoRacks,
                Instant::now(),
            )
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRegularExpression);
        let e = g
            .heartbeat(
                HeartbeatParams {
                    member_id: "a".into(),
                    topic_names: Some(vec![]),
                    server_assignor: Some("sticky".into()),
                    ..Default::default()
                },
                &topics,
                &NoRacks,
                Instant::now(),
            )
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::UnsupportedAssignor);
        assert!(g.members.is_empty());
        // A regex subscribes to matching topics, whole-name.
        let out = g
            .heartbeat(
                HeartbeatParams {
                    member_id: "a".into(),
                    regex: Some("t.*".into()),
                    ..Default::default()
                },
                &[topic("tx", 2), topic("xt", 3)],
                &NoRacks,
                Instant::now(),
            )
            .unwrap();
        assert_eq!(count(&out.assignment.unwrap()), 2);
    }

    /// The partitions of `t` that some member holds.
    fn held(g: &ConsumerGroup, t: &TopicInfo) -> BTreeSet<i32> {
        g.members
            .values()
            .flat_map(|m| m.assigned.get(&t.id).into_iter().flatten().copied())
            .collect()
    }

    /// The group epoch record carries what the target was computed
    /// against (Kafka 4.1's MetadataHash): a restart with the metadata
    /// unchanged bumps nothing; partitions added while the group was not
    /// loaded bump the epoch once at load, and the members then get them.
    #[test]
    fn partitions_added_while_unloaded_bump_the_epoch_once_at_load() {
        let t = topic("t", 4);
        let topics = vec![t.clone()];
        let members = [("a", None), ("b", None)];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        settle(&mut g, &members, &topics, &NoRacks, now);
        let epoch = g.group_epoch;
        assert_ne!(g.metadata_hash, 0);

        // Restart, nothing changed: no bump, before or at the heartbeats.
        let mut log = Vec::new();
        let mut back = restart(&mut g, &mut log, &topics);
        assert_eq!(back.group_epoch, epoch, "an unchanged restart bumps");
        assert!(back.drain_records().is_empty(), "nothing to write");
        settle(&mut back, &members, &topics, &NoRacks, now);
        assert_eq!(back.group_epoch, epoch);

        // Two partitions were added while no coordinator had the group.
        let grown = vec![TopicInfo {
            partitions: 6,
            ..t.clone()
        }];
        let mut moved = restart(&mut back, &mut log, &grown);
        assert_eq!(
            moved.group_epoch,
            epoch + 1,
            "added partitions bump at load"
        );
        assert_eq!(moved.state_name(), "Assigning");
        settle(&mut moved, &members, &grown, &NoRacks, now);
        assert_eq!(moved.group_epoch, epoch + 1, "one bump, not two");
        assert_eq!(held(&moved, &t), (0..6).collect());

        // The new fingerprint was written: the next restart is quiet.
        let again = restart(&mut moved, &mut log, &grown);
        assert_eq!(again.group_epoch, epoch + 1);
    }

    /// In a group that watches racks, replicas moved to other racks while
    /// the group was not loaded bump the epoch at load; unchanged racks do
    /// not (the member's first rack, sent without a bump, was written).
    #[test]
    fn replicas_moved_while_unloaded_bump_a_rack_aware_group_at_load() {
        let t = topic("t", 4);
        let topics = vec![t.clone()];
        let members = [("a", Some("r0")), ("b", Some("r1"))];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        let r0 = alternating(&t, 0);
        settle(&mut g, &members, &topics, &r0, now);
        let epoch = g.group_epoch;
        let mut log = Vec::new();
        let mut back = restart_with(&mut g, &mut log, &topics, &r0);
        assert_eq!(back.group_epoch, epoch, "unchanged racks bump");
        let r1 = alternating(&t, 1);
        let mut moved = restart_with(&mut back, &mut log, &topics, &r1);
        assert_eq!(moved.group_epoch, epoch + 1, "moved replicas bump at load");
        settle(&mut moved, &members, &topics, &r1, now);
        assert_eq!(moved.group_epoch, epoch + 1);
        assert_eq!(moved.members["a"].assigned[&t.id], [1, 3].into());
        assert_eq!(moved.members["b"].assigned[&t.id], [0, 2].into());
    }

    /// A group epoch record without the MetadataHash (written before it
    /// existed, or by Kafka < 4.1) loads; the fingerprint is unknown, so
    /// the epoch is bumped once, and the sticky target leaves every
    /// partition where it was. An empty group's (no subscriptions, hash 0)
    /// is no change.
    #[test]
    fn a_record_without_the_metadata_hash_loads_and_bumps_once() {
        use super::super::records::{consumer_key, consumer_value};
        let t = topic("t", 5);
        let topics = vec![t.clone()];
        let members = [("a", None), ("b", None)];
        let now = Instant::now();
        let mut g = ConsumerGroup::new("g".into());
        settle(&mut g, &members, &topics, &NoRacks, now);
        let epoch = g.group_epoch;
        let before: BTreeMap<String, Assignment> = g
            .members
            .values()
            .map(|m| (m.id.clone(), m.assigned.clone()))
            .collect();
        let mut log = Vec::new();
        for (k, v) in g.drain_records() {
            log.push((consumer_key("g", &k), v));
        }
        // The old format: the epoch record without tagged fields.
        let old = consumer_value(&ConsumerValue::Metadata {
            epoch,
            metadata_hash: 0,
        });
        assert_eq!(old.last(), Some(&0), "no tagged field");
        log.push((consumer_key("g", &ConsumerKey::Metadata), Some(old)));
        let mut back = load("g", &log, &topics, &NoRacks);
        assert_eq!(back.group_epoch, epoch + 1);
        assert_eq!(back.members.len(), 2);
        settle(&mut back, &members, &topics, &NoRacks, now);
        assert_eq!(back.group_epoch, epoch + 1);
        for (id, a) in &before {
            assert_eq!(&back.members[id].assigned, a, "{id} kept its partitions");
        }
        let again = restart(&mut back, &mut log, &topics);
        assert_eq!(again.group_epoch, epoch + 1, "bumped once, then written");

        // An empty group's old record: nothing subscribed, no bump.
        let mut empty = ConsumerGroup::new("e".into());
        empty.replay(
            ConsumerKey::Metadata,
            Some(ConsumerValue::Metadata {
                epoch: 3,
                metadata_hash: 0,
            }),
            now,
        );
        empty.finish_load(&topics, &NoRacks, now);
        assert_eq!(empty.group_epoch, 3);
    }
}
