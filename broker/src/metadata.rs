//! Cluster metadata on a single node: topics (with their KIP-516 ids,
//! partition counts and config overrides), dynamic broker settings and the
//! cluster id, kept in `metadata.json` in the data folder.
//!
//! Changes are made by shard 0 only ([`MetadataStore`]), written to disk
//! atomically (temporary file, fsync, rename, fsync of the folder) before
//! they are acknowledged, and then handed to every shard as an immutable
//! snapshot ([`ClusterMetadata`]). In a cluster this role moves to the
//! controller Raft group; the snapshot type stays.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::settings::Settings;

/// One topic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicMeta {
    pub name: String,
    pub id: Uuid,
    pub partitions: i32,
    /// Topic config overrides by Kafka name.
    #[serde(default)]
    pub configs: BTreeMap<String, String>,
    /// The replicas (broker ids) of each partition, the first being the
    /// preferred leader. Empty on a single node: every partition's only
    /// replica is the broker itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replicas: Vec<Vec<i32>>,
    /// Cluster mode: the partitions being reassigned, with the replicas
    /// they move to (AlterPartitionReassignments). `replicas` keeps the
    /// old set until the partition's leader has moved its Raft group to
    /// the target and the controller has applied `FinishReassign`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reassignments: BTreeMap<i32, Vec<i32>>,
}

impl TopicMeta {
    pub fn is_internal(&self) -> bool {
        self.name.starts_with("__")
    }

    /// The replicas of partition `p` (`[node]` on a single node).
    pub fn replicas_of(&self, p: i32, node: i32) -> Vec<i32> {
        match self.replicas.get(p as usize) {
            Some(r) if !r.is_empty() => r.clone(),
            _ => vec![node],
        }
    }

    /// The replicas partition `p` is moving to, if it is being reassigned.
    pub fn target_of(&self, p: i32) -> Option<&Vec<i32>> {
        self.reassignments.get(&p)
    }

    /// The replicas partition `p` should end up on: the reassignment
    /// target if one is pending, else its replicas.
    pub fn desired_replicas_of(&self, p: i32, node: i32) -> Vec<i32> {
        match self.target_of(p) {
            Some(t) => t.clone(),
            None => self.replicas_of(p, node),
        }
    }

    /// Every broker holding (or getting) a replica of partition `p`, as
    /// Kafka reports them during a reassignment: the target first (so the
    /// preferred leader is the target's first), then the replicas being
    /// removed.
    pub fn all_replicas_of(&self, p: i32, node: i32) -> Vec<i32> {
        let current = self.replicas_of(p, node);
        match self.target_of(p) {
            None => current,
            Some(t) => {
                let mut all = t.clone();
                all.extend(current.into_iter().filter(|r| !t.contains(r)));
                all
            }
        }
    }

    /// Whether broker `node` holds a replica of partition `p` (a current
    /// one, or one being added by a reassignment).
    pub fn hosted_by(&self, p: i32, node: i32) -> bool {
        self.replicas_of(p, node).contains(&node)
            || self.target_of(p).is_some_and(|t| t.contains(&node))
    }

    /// The preferred leader of partition `p`.
    pub fn preferred_leader(&self, p: i32, node: i32) -> i32 {
        self.all_replicas_of(p, node)[0]
    }

    /// The replication factor (1 on a single node).
    pub fn replication_factor(&self) -> i16 {
        self.replicas.first().map_or(1, |r| r.len() as i16)
    }
}

/// A broker of the cluster, as it registered with the controller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerMeta {
    pub id: i32,
    /// The advertised Kafka address.
    pub host: String,
    pub port: u16,
    pub rack: Option<String>,
    /// Where other brokers reach it (Raft traffic).
    pub rpc_addr: String,
    /// Not heard from by the controller leader within
    /// `broker.session.timeout.ms` (KRaft's fenced broker): Metadata and
    /// DescribeCluster leave it out until it is heard from again.
    #[serde(default)]
    pub fenced: bool,
    /// Its advertised address on each listener (empty in registrations
    /// written before listeners existed: `host`/`port` are the one
    /// PLAINTEXT address then).
    #[serde(default)]
    pub listeners: Vec<crate::listeners::Endpoint>,
    /// In maintenance mode (`Command::SetMaintenance`): it hands every
    /// leadership it holds to another in-sync replica and is not made a
    /// leader by the leader balancing, so it can be restarted or
    /// upgraded without an election. Kept across re-registrations.
    #[serde(default)]
    pub maintenance: bool,
    /// Being decommissioned (`Command::Decommission`): its replicas are
    /// moving elsewhere and it takes no new ones; once it holds none, the
    /// controller leader removes it (`Command::RemoveBroker`). Kept across
    /// re-registrations.
    #[serde(default)]
    pub decommissioning: bool,
    /// Which run of the broker made this registration: a number drawn at
    /// each start (`BrokerContext::incarnation`; 0 in registrations made
    /// before it existed). A restarted broker replays the controller log
    /// through its previous run's registration, unfenced, before it
    /// reaches the fencing that followed its stop; it counts itself
    /// registered, and lists itself, only once it sees its own run's
    /// (Kafka's broker epoch serves the same purpose).
    #[serde(default)]
    pub incarnation: u64,
}

/// A metadata change. On a single node it is applied to `metadata.json`;
/// in a cluster it is a record of the controller's Raft log, applied in
/// log order by every broker (so `apply` must be deterministic: it looks
/// only at the state and the command).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Sets the cluster id if none is set yet (the first controller
    /// leader's first write).
    InitCluster {
        cluster_id: String,
    },
    /// A broker (re)registers when it starts: it is live then.
    RegisterBroker {
        broker: BrokerMeta,
    },
    /// The controller leader fences a broker it has not heard from within
    /// the session timeout, and unfences it once it hears from it again.
    FenceBroker {
        id: i32,
        fenced: bool,
    },
    CreateTopic {
        topic: TopicMeta,
    },
    DeleteTopic {
        name: String,
    },
    /// Replaces a topic's partition count, replicas or configs.
    UpdateTopic {
        topic: TopicMeta,
    },
    /// Replaces the dynamic settings of broker `node` (`None`: this
    /// single node) or the cluster-wide dynamic defaults.
    SetDynamicSettings {
        settings: BTreeMap<String, String>,
        cluster_default: bool,
        node: Option<i32>,
    },
    /// Turns maintenance mode of broker `node` on or off (see
    /// `BrokerMeta::maintenance`).
    SetMaintenance {
        node: i32,
        enabled: bool,
    },
    /// Starts decommissioning broker `node`: every partition with a
    /// replica on it gets a reassignment target with that replica
    /// replaced (chosen in `apply`, deterministically, by
    /// `cluster::placement::replacement`), and the broker takes no new
    /// replicas. Refused if the other brokers are too few for some
    /// partition's replication factor.
    Decommission {
        node: i32,
    },
    /// Stops decommissioning broker `node` (Redpanda's recommission): it
    /// takes replicas again, and the moves its decommission started that
    /// have not finished are cancelled (their partitions go back to the
    /// replicas they had; the finished ones stay moved). Nothing to do for
    /// a broker not being decommissioned; refused once it was removed.
    Recommission {
        node: i32,
    },
    /// Removes a decommissioned broker from the cluster once no partition
    /// names it (proposed by the controller leader; refused before).
    RemoveBroker {
        id: i32,
    },
    /// Reserves the next block of producer ids.
    ReserveProducerIds {
        count: i64,
    },
    /// Starts moving a partition to `target` replicas, replacing any
    /// pending target; `None` cancels a pending reassignment (the
    /// partition's leader then moves its Raft group back to `replicas`).
    Reassign {
        topic_id: Uuid,
        partition: i32,
        target: Option<Vec<i32>>,
    },
    /// Proposed by the partition's leader once its Raft group's voters are
    /// exactly `target`: the replicas become `target`. Refused if `target`
    /// is no longer the pending target (cancelled or replaced meanwhile).
    FinishReassign {
        topic_id: Uuid,
        partition: i32,
        target: Vec<i32>,
    },
    /// The topics of one CreateTopics request, as one record (one
    /// controller commit per request, not per topic: 10,000 partitions
    /// in 1,000-topic requests were 1,000 commits). Never refused as a
    /// whole: each topic is created unless its name, or its name with '.'
    /// folded to '_', is taken, and `Outcome::Created` says which were
    /// refused and why, in order, as Kafka answers per topic.
    /// (`CreateTopic`, one topic, is still applied from older logs.)
    CreateTopics {
        topics: Vec<TopicMeta>,
    },
    /// Adds ACLs (CreateAcls; the handler has validated each). Adding one
    /// that exists changes nothing.
    CreateAcls {
        acls: Vec<crate::acl::AclBinding>,
    },
    /// Removes every ACL each filter selects (DeleteAcls), filters in
    /// order; `Outcome::AclsDeleted` says which each one removed.
    DeleteAcls {
        filters: Vec<crate::acl::AclFilter>,
    },
    /// One AlterUserScramCredentials request, as one record: the entries
    /// the handler accepted (at most one per user, names not empty,
    /// iterations in range), applied in order. A deletion of a credential
    /// that does not exist is refused on its own (`Outcome::ScramAltered`
    /// says which, deletions first, then upsertions); the rest applies.
    /// The existence check is here, not in the handler, because only the
    /// applied log order says what exists.
    AlterScram {
        #[serde(default)]
        deletions: Vec<ScramDeletion>,
        #[serde(default)]
        upsertions: Vec<ScramUpsertion>,
    },
    /// `TIDEMARK_BOOTSTRAP_USER`: gives `user` these credentials only if
    /// it has none at all, so a restart (or every broker of a cluster
    /// proposing it) never resets a password changed since, and the first
    /// proposal applied wins.
    BootstrapScram {
        user: String,
        credentials: Vec<(crate::sasl::ScramHash, crate::sasl::ScramCredential)>,
    },
    /// Replaces one group's config overrides (`group_config.rs`; the
    /// handler validated them against the settings in force); an empty
    /// map removes the group's entry. Whether the group exists does not
    /// matter: Kafka keeps group configs apart from groups.
    SetGroupConfigs {
        group: String,
        configs: BTreeMap<String, String>,
    },
    /// Replaces one client-metrics subscription's configs (KIP-714,
    /// `client_metrics.rs`; validated by the handler); an empty map
    /// removes the subscription.
    SetClientMetrics {
        name: String,
        configs: BTreeMap<String, String>,
    },
    /// One AlterClientQuotas request's accepted entities (`quotas/`;
    /// validated by the handler as Kafka's `ClientQuotaControlManager`),
    /// applied in order: keys set, keys removed, an entity left without
    /// keys dropped. Never refused.
    AlterClientQuotas {
        alterations: Vec<crate::quotas::QuotaAlteration>,
    },
}

/// A SCRAM credential to delete (`Command::AlterScram`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScramDeletion {
    pub user: String,
    pub mechanism: crate::sasl::ScramHash,
}

/// A SCRAM credential to create or replace (`Command::AlterScram`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScramUpsertion {
    pub user: String,
    pub mechanism: crate::sasl::ScramHash,
    pub credential: crate::sasl::ScramCredential,
}

/// What applying a command produced, beyond the new state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    Done,
    /// The first id of a reserved producer-id block.
    ProducerIds {
        first: i64,
    },
    /// `Command::CreateTopics`: per topic, in order, why it was not
    /// created (`None`: created).
    Created {
        refused: Vec<Option<Refused>>,
    },
    /// `Command::DeleteAcls`: per filter, the ACLs it removed.
    AclsDeleted {
        deleted: Vec<Vec<crate::acl::AclBinding>>,
    },
    /// `Command::AlterScram`: per entry, deletions then upsertions, why
    /// it was not applied (`None`: applied).
    ScramAltered {
        refused: Vec<Option<Refused>>,
    },
}

/// Why a command was refused: a Kafka error code and a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Refused {
    pub code: i16,
    pub message: String,
}

impl Refused {
    fn new(code: kafka_protocol::ErrorCode, message: impl Into<String>) -> Self {
        Refused {
            code: code.code(),
            message: message.into(),
        }
    }
}

/// The topics, indexed by name, id and folded name. The maps are `imbl`
/// maps (shared structure): copying them (a snapshot for the shards, a
/// trial apply) costs O(1) and a change copies only the tree nodes it
/// touches, so a metadata change costs the same with 50,000 topics as
/// with 50. Encoded as a plain list of topics (the layout `metadata.json`
/// always had).
#[derive(Debug, Clone, Default)]
struct Topics {
    by_name: imbl::OrdMap<String, Arc<TopicMeta>>,
    by_id: imbl::HashMap<Uuid, String>,
    /// Name with '.' folded to '_' -> name.
    folded: imbl::HashMap<String, String>,
}

impl Topics {
    fn get(&self, name: &str) -> Option<&Arc<TopicMeta>> {
        self.by_name.get(name)
    }

    fn name_of(&self, id: &Uuid) -> Option<String> {
        self.by_id.get(id).cloned()
    }

    fn insert(&mut self, t: TopicMeta) {
        if let Some(old) = self.by_name.get(&t.name)
            && old.id != t.id
        {
            self.by_id.remove(&old.id);
        }
        self.by_id.insert(t.id, t.name.clone());
        self.folded
            .insert(crate::topics::fold_name(&t.name), t.name.clone());
        self.by_name.insert(t.name.clone(), Arc::new(t));
    }

    fn remove(&mut self, name: &str) -> Option<Arc<TopicMeta>> {
        let t = self.by_name.remove(name)?;
        self.by_id.remove(&t.id);
        let folded = crate::topics::fold_name(name);
        if self.folded.get(&folded).is_some_and(|n| n == name) {
            self.folded.remove(&folded);
        }
        Some(t)
    }

    /// The topic named `name`, for a change (copied if a snapshot shares
    /// it: one topic, not the map).
    fn get_mut(&mut self, name: &str) -> Option<&mut TopicMeta> {
        self.by_name.get_mut(name).map(Arc::make_mut)
    }

    fn len(&self) -> usize {
        self.by_name.len()
    }
}

impl Serialize for Topics {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.by_name.values().map(|t| &**t))
    }
}

impl<'de> Deserialize<'de> for Topics {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<TopicMeta>::deserialize(d)?;
        let mut topics = Topics::default();
        for t in list {
            topics.insert(t);
        }
        Ok(topics)
    }
}

/// What is persisted.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Persisted {
    cluster_id: String,
    topics: Topics,
    /// Set live for this broker.
    #[serde(default)]
    dynamic_settings: BTreeMap<String, String>,
    /// Set live as cluster-wide defaults.
    #[serde(default)]
    dynamic_default_settings: BTreeMap<String, String>,
    /// Producer ids below this may have been handed out; a restart starts
    /// allocating here.
    #[serde(default)]
    producer_id_block_end: i64,
    /// Cluster mode: the registered brokers.
    #[serde(default)]
    brokers: BTreeMap<i32, BrokerMeta>,
    /// Cluster mode: dynamic settings per broker.
    #[serde(default)]
    node_dynamic_settings: BTreeMap<i32, BTreeMap<String, String>>,
    /// SASL/SCRAM credentials by user and mechanism (absent from metadata
    /// written before they were stored here: no users).
    #[serde(default, skip_serializing_if = "crate::sasl::ScramUsers::is_empty")]
    scram: crate::sasl::ScramUsers,
    /// Single node: how many logged changes this state holds (see
    /// `MetadataStore`).
    #[serde(default)]
    seq: u64,
    /// Every ACL (written as a list of bindings).
    #[serde(default)]
    acls: crate::acl::Acls,
    /// Group config overrides by group (absent from metadata written
    /// before they were stored here: none).
    #[serde(
        default,
        skip_serializing_if = "imbl::OrdMap::is_empty",
        with = "group_configs_serde"
    )]
    group_configs: GroupConfigs,
    /// Client-metrics subscriptions by name (KIP-714; absent from
    /// metadata written before they were stored here: none).
    #[serde(
        default,
        skip_serializing_if = "imbl::OrdMap::is_empty",
        with = "group_configs_serde"
    )]
    client_metrics: GroupConfigs,
    /// Client quotas by entity (`quotas/`; absent from metadata written
    /// before they were stored here: none).
    #[serde(
        default,
        skip_serializing_if = "imbl::OrdMap::is_empty",
        with = "crate::quotas::serde_list"
    )]
    client_quotas: crate::quotas::ClientQuotas,
}

/// Group config overrides by group, shared with the shards' snapshots.
pub type GroupConfigs = imbl::OrdMap<String, BTreeMap<String, String>>;

/// `GroupConfigs` as a JSON object of objects (imbl's serde support is
/// not enabled).
mod group_configs_serde {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};

    use super::GroupConfigs;

    pub fn serialize<S: Serializer>(m: &GroupConfigs, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(m.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GroupConfigs, D::Error> {
        let m = BTreeMap::<String, BTreeMap<String, String>>::deserialize(d)?;
        Ok(m.into_iter().collect())
    }
}

impl Persisted {
    /// Applies `cmd`; on refusal the state is unchanged.
    fn apply(&mut self, cmd: &Command, statics: &Settings) -> Result<Outcome, Refused> {
        use kafka_protocol::ErrorCode as E;
        match cmd {
            Command::InitCluster { cluster_id } => {
                if self.cluster_id.is_empty() {
                    self.cluster_id = cluster_id.clone();
                }
            }
            Command::RegisterBroker { broker } => {
                // Maintenance and decommissioning are the operator's, not
                // the broker's: a restart keeps them.
                let (maintenance, decommissioning) = self
                    .brokers
                    .get(&broker.id)
                    .map_or((false, false), |b| (b.maintenance, b.decommissioning));
                self.brokers.insert(
                    broker.id,
                    BrokerMeta {
                        fenced: false,
                        maintenance,
                        decommissioning,
                        ..broker.clone()
                    },
                );
            }
            Command::SetMaintenance { node, enabled } => {
                let Some(b) = self.brokers.get_mut(node) else {
                    return Err(Refused::new(
                        E::BrokerIdNotRegistered,
                        format!("broker {node} is not registered"),
                    ));
                };
                b.maintenance = *enabled;
            }
            Command::Decommission { node } => {
                return self.decommission(*node);
            }
            Command::Recommission { node } => {
                return self.recommission(*node);
            }
            Command::RemoveBroker { id } => {
                let Some(b) = self.brokers.get(id) else {
                    return Err(Refused::new(
                        E::BrokerIdNotRegistered,
                        format!("broker {id} is not registered"),
                    ));
                };
                if !b.decommissioning {
                    return Err(Refused::new(
                        E::InvalidRequest,
                        format!("broker {id} is not being decommissioned"),
                    ));
                }
                let held = self.partitions_hosted_by(*id);
                if held > 0 {
                    return Err(Refused::new(
                        E::InvalidRequest,
                        format!("broker {id} still holds {held} partition replica(s)"),
                    ));
                }
                self.brokers.remove(id);
                self.node_dynamic_settings.remove(id);
            }
            Command::FenceBroker { id, fenced } => {
                if let Some(b) = self.brokers.get_mut(id) {
                    b.fenced = *fenced;
                }
            }
            Command::CreateTopic { topic } => {
                if self.topics.get(&topic.name).is_some() {
                    return Err(Refused::new(
                        E::TopicAlreadyExists,
                        format!("topic '{}' already exists", topic.name),
                    ));
                }
                self.topics.insert(topic.clone());
            }
            Command::CreateTopics { topics } => {
                let refused = topics
                    .iter()
                    .map(|topic| {
                        if let Some(t) = self.topics.get(&topic.name) {
                            if t.id == topic.id {
                                // This very creation, proposed again after
                                // a forwarding timed out: created.
                                return None;
                            }
                            return Some(Refused::new(
                                E::TopicAlreadyExists,
                                format!("topic '{}' already exists", topic.name),
                            ));
                        }
                        let folded = crate::topics::fold_name(&topic.name);
                        if let Some(other) = self.topics.folded.get(&folded) {
                            return Some(Refused::new(
                                E::InvalidTopicException,
                                format!(
                                    "topic '{}' collides with existing topic '{other}'",
                                    topic.name
                                ),
                            ));
                        }
                        self.topics.insert(topic.clone());
                        None
                    })
                    .collect();
                return Ok(Outcome::Created { refused });
            }
            Command::DeleteTopic { name } => {
                if self.topics.remove(name).is_none() {
                    return Err(Refused::new(
                        E::UnknownTopicOrPartition,
                        format!("topic '{name}' does not exist"),
                    ));
                }
            }
            Command::UpdateTopic { topic } => {
                let Some(t) = self
                    .topics
                    .get_mut(&topic.name)
                    .filter(|t| t.id == topic.id)
                else {
                    return Err(Refused::new(
                        E::UnknownTopicOrPartition,
                        format!("topic '{}' does not exist", topic.name),
                    ));
                };
                // Replicas and reassignments change only through their own
                // commands: an update built from an older snapshot (a
                // config change, more partitions) must not undo them.
                let mut next = topic.clone();
                for (i, r) in t.replicas.iter().enumerate() {
                    if let Some(slot) = next.replicas.get_mut(i) {
                        *slot = r.clone();
                    }
                }
                next.reassignments = t.reassignments.clone();
                *t = next;
            }
            Command::Reassign {
                topic_id,
                partition,
                target,
            } => {
                let brokers = &self.brokers;
                let name = self.topics.name_of(topic_id).unwrap_or_default();
                let Some(t) = self
                    .topics
                    .get_mut(&name)
                    .filter(|t| *partition >= 0 && *partition < t.partitions)
                else {
                    return Err(Refused::new(
                        E::UnknownTopicOrPartition,
                        "no such topic or partition",
                    ));
                };
                match target {
                    None => {
                        if t.reassignments.remove(partition).is_none() {
                            return Err(Refused::new(
                                E::NoReassignmentInProgress,
                                format!(
                                    "no reassignment of partition {} of '{}' is in progress",
                                    partition, t.name
                                ),
                            ));
                        }
                    }
                    Some(target) => {
                        check_assignment(target, brokers)?;
                        let current = t.replicas.get(*partition as usize);
                        if current == Some(target) {
                            // Back to where it is: nothing left to move.
                            t.reassignments.remove(partition);
                        } else {
                            t.reassignments.insert(*partition, target.clone());
                        }
                    }
                }
            }
            Command::FinishReassign {
                topic_id,
                partition,
                target,
            } => {
                let name = self.topics.name_of(topic_id).unwrap_or_default();
                let Some(t) = self.topics.get_mut(&name) else {
                    return Err(Refused::new(
                        E::UnknownTopicOrPartition,
                        "the topic was deleted",
                    ));
                };
                if t.reassignments.get(partition) != Some(target) {
                    return Err(Refused::new(
                        E::NoReassignmentInProgress,
                        "the reassignment was cancelled or replaced",
                    ));
                }
                t.reassignments.remove(partition);
                if let Some(slot) = t.replicas.get_mut(*partition as usize) {
                    *slot = target.clone();
                }
            }
            Command::CreateAcls { acls } => {
                for b in acls {
                    self.acls.insert(b);
                }
            }
            Command::DeleteAcls { filters } => {
                let deleted = filters
                    .iter()
                    .map(|f| self.acls.remove_matching(f))
                    .collect();
                return Ok(Outcome::AclsDeleted { deleted });
            }
            Command::SetDynamicSettings {
                settings,
                cluster_default,
                node,
            } => {
                let mut next = self.clone();
                match (cluster_default, node) {
                    (true, _) => next.dynamic_default_settings = settings.clone(),
                    (false, None) => next.dynamic_settings = settings.clone(),
                    (false, Some(n)) => {
                        next.node_dynamic_settings.insert(*n, settings.clone());
                    }
                }
                next.settings(statics, *node)
                    .map_err(|e| Refused::new(E::InvalidConfig, e.to_string()))?;
                *self = next;
            }
            Command::ReserveProducerIds { count } => {
                let first = self.producer_id_block_end;
                self.producer_id_block_end = first.saturating_add((*count).max(1));
                return Ok(Outcome::ProducerIds { first });
            }
            Command::AlterScram {
                deletions,
                upsertions,
            } => {
                let mut refused = Vec::with_capacity(deletions.len() + upsertions.len());
                for d in deletions {
                    refused.push((!self.scram.remove(&d.user, d.mechanism)).then(|| {
                        Refused::new(
                            E::ResourceNotFound,
                            "Attempt to delete a user credential that does not exist",
                        )
                    }));
                }
                for u in upsertions {
                    self.scram
                        .upsert(&u.user, u.mechanism, u.credential.clone());
                    refused.push(None);
                }
                return Ok(Outcome::ScramAltered { refused });
            }
            Command::BootstrapScram { user, credentials } => {
                if self.scram.user(user).is_none() {
                    for (h, c) in credentials {
                        self.scram.upsert(user, *h, c.clone());
                    }
                }
            }
            Command::SetGroupConfigs { group, configs } => {
                if configs.is_empty() {
                    self.group_configs.remove(group);
                } else {
                    self.group_configs.insert(group.clone(), configs.clone());
                }
            }
            Command::SetClientMetrics { name, configs } => {
                if configs.is_empty() {
                    self.client_metrics.remove(name);
                } else {
                    self.client_metrics.insert(name.clone(), configs.clone());
                }
            }
            Command::AlterClientQuotas { alterations } => {
                crate::quotas::apply(&mut self.client_quotas, alterations);
            }
        }
        Ok(Outcome::Done)
    }
}

impl Persisted {
    /// How many partitions name broker `node` among their replicas or
    /// their reassignment target.
    fn partitions_hosted_by(&self, node: i32) -> usize {
        self.topics
            .by_name
            .values()
            .map(|t| (0..t.partitions).filter(|p| t.hosted_by(*p, node)).count())
            .sum()
    }

    /// The ids of the topics with a partition on broker `node`.
    fn topics_hosted_by(&self, node: i32) -> Vec<Uuid> {
        self.topics
            .by_name
            .values()
            .filter(|t| (0..t.partitions).any(|p| t.hosted_by(p, node)))
            .map(|t| t.id)
            .collect()
    }

    /// `Command::Decommission`: every partition that has (or is moving
    /// to) a replica on `node` gets a target with that replica replaced
    /// by another live broker (`placement::replacement`: a rack the
    /// partition does not use yet, then the fewest replicas). All or
    /// nothing: refused, with the first partition that cannot be moved,
    /// if the other brokers are too few.
    fn decommission(&mut self, node: i32) -> Result<Outcome, Refused> {
        use kafka_protocol::ErrorCode as E;
        let Some(b) = self.brokers.get(&node) else {
            return Err(Refused::new(
                E::BrokerIdNotRegistered,
                format!("broker {node} is not registered"),
            ));
        };
        if b.decommissioning {
            return Ok(Outcome::Done);
        }
        let candidates: Vec<(i32, Option<String>)> = self
            .brokers
            .values()
            .filter(|b| b.id != node && !b.decommissioning && !b.fenced)
            .map(|b| (b.id, b.rack.clone()))
            .collect();
        let racks: BTreeMap<i32, Option<String>> = self
            .brokers
            .values()
            .map(|b| (b.id, b.rack.clone()))
            .collect();
        let mut load: BTreeMap<i32, usize> = candidates.iter().map(|(id, _)| (*id, 0)).collect();
        for t in self.topics.by_name.values() {
            for p in 0..t.partitions {
                for r in t.desired_replicas_of(p, node) {
                    if let Some(n) = load.get_mut(&r) {
                        *n += 1;
                    }
                }
            }
        }
        let mut moves: Vec<(String, i32, Vec<i32>)> = Vec::new();
        for t in self.topics.by_name.values() {
            for p in 0..t.partitions {
                let desired = t.desired_replicas_of(p, node);
                let Some(at) = desired.iter().position(|r| *r == node) else {
                    continue;
                };
                let Some(to) = crate::cluster::placement::replacement(
                    &desired,
                    at,
                    &candidates,
                    &racks,
                    &load,
                ) else {
                    return Err(Refused::new(
                        E::InvalidReplicationFactor,
                        format!(
                            "cannot decommission broker {node}: partition {p} of '{}' has {} replicas and no other live broker can take the one on broker {node} ({} live broker(s) besides it)",
                            t.name,
                            desired.len(),
                            candidates.len()
                        ),
                    ));
                };
                *load.entry(to).or_default() += 1;
                let mut target = desired.clone();
                target[at] = to;
                moves.push((t.name.clone(), p, target));
            }
        }
        for (name, p, target) in moves {
            if let Some(t) = self.topics.get_mut(&name) {
                if t.replicas.get(p as usize) == Some(&target) {
                    t.reassignments.remove(&p);
                } else {
                    t.reassignments.insert(p, target);
                }
            }
        }
        if let Some(b) = self.brokers.get_mut(&node) {
            b.decommissioning = true;
        }
        Ok(Outcome::Done)
    }

    /// See [`Command::Recommission`]. A move is one the decommission
    /// made when its target is the replicas with `node`'s place given to
    /// another broker; a reassignment an operator asked for is left alone.
    fn recommission(&mut self, node: i32) -> Result<Outcome, Refused> {
        use kafka_protocol::ErrorCode as E;
        let Some(b) = self.brokers.get_mut(&node) else {
            return Err(Refused::new(
                E::BrokerIdNotRegistered,
                format!(
                    "broker {node} is not registered (a finished decommission removed it; started again, it registers as a new broker)"
                ),
            ));
        };
        if !b.decommissioning {
            return Ok(Outcome::Done);
        }
        b.decommissioning = false;
        let names: Vec<String> = self.topics.by_name.keys().cloned().collect();
        for name in names {
            let Some(t) = self.topics.get_mut(&name) else {
                continue;
            };
            let cancelled: Vec<i32> = t
                .reassignments
                .iter()
                .filter(|(p, target)| {
                    t.replicas
                        .get(**p as usize)
                        .is_some_and(|now| moves_off(now, target, node))
                })
                .map(|(p, _)| *p)
                .collect();
            for p in cancelled {
                t.reassignments.remove(&p);
            }
        }
        Ok(Outcome::Done)
    }
}

/// Whether `target` is `replicas` with `node`'s place alone given to a
/// broker not among them (the move a decommission of `node` makes).
fn moves_off(replicas: &[i32], target: &[i32], node: i32) -> bool {
    replicas.len() == target.len()
        && replicas.contains(&node)
        && !target.contains(&node)
        && replicas
            .iter()
            .zip(target)
            .filter(|(r, t)| r != t)
            .all(|(r, t)| *r == node && !replicas.contains(t))
}

/// Checks a partition's new replica list as Kafka's controller does: not
/// empty, no broker twice, every broker registered.
fn check_assignment(target: &[i32], brokers: &BTreeMap<i32, BrokerMeta>) -> Result<(), Refused> {
    use kafka_protocol::ErrorCode as E;
    if target.is_empty() {
        return Err(Refused::new(
            E::InvalidReplicaAssignment,
            "the replica list is empty",
        ));
    }
    for (i, b) in target.iter().enumerate() {
        if target[..i].contains(b) {
            return Err(Refused::new(
                E::InvalidReplicaAssignment,
                format!("the replica list names broker {b} twice"),
            ));
        }
        if !brokers.contains_key(b) {
            return Err(Refused::new(
                E::InvalidReplicaAssignment,
                format!("the replica list includes broker {b}, but no such broker is registered"),
            ));
        }
    }
    Ok(())
}

impl Persisted {
    /// The settings in force on broker `node` (`None`: a single node).
    fn settings(&self, statics: &Settings, node: Option<i32>) -> Result<Settings, MetadataError> {
        let mut s = statics.clone();
        let own = match node {
            None => Some(&self.dynamic_settings),
            Some(n) => self.node_dynamic_settings.get(&n),
        };
        for (k, v) in own.into_iter().flatten() {
            s.set_dynamic(k, Some(v))?;
        }
        for (k, v) in &self.dynamic_default_settings {
            s.set_dynamic_default(k, Some(v))?;
        }
        Ok(s)
    }

    /// The shards' snapshot of this state with `settings` in force: the
    /// topic maps are shared, not copied (O(1) in the number of topics).
    fn snapshot_with(&self, settings: Settings) -> ClusterMetadata {
        ClusterMetadata {
            cluster_id: self.cluster_id.clone(),
            topics: self.topics.by_name.clone(),
            by_id: self.topics.by_id.clone(),
            folded_names: self.topics.folded.clone(),
            settings,
            brokers: self.brokers.clone(),
            deleted_topics: imbl::OrdMap::new(),
            acls: self.acls.clone(),
            scram: self.scram.clone(),
            group_configs: self.group_configs.clone(),
            client_metrics: self.client_metrics.clone(),
            client_quotas: self.client_quotas.clone(),
        }
    }

    fn snapshot(&self, statics: &Settings, node: Option<i32>) -> ClusterMetadata {
        self.snapshot_with(
            self.settings(statics, node)
                .unwrap_or_else(|_| statics.clone()),
        )
    }
}

/// The cluster metadata as a replicated state machine: every broker of a
/// cluster holds one, fed with the controller log's commands in order.
///
/// Applying a command and taking a snapshot cost the same whatever the
/// number of topics: the topic maps are `imbl` maps the snapshot shares
/// (a change copies the tree nodes it touches), the settings in force
/// are recomputed only when dynamic settings change, and what changed is
/// recorded ([`Changes`]) so that the controller's reconcile looks only
/// at those topics. (Rebuilding the whole snapshot after every applied
/// batch cost O(topics) per metadata change on every broker.)
#[derive(Debug, Clone)]
pub struct MetadataState {
    state: Persisted,
    statics: Settings,
    node: i32,
    /// The settings in force on this broker (statics plus the dynamic
    /// ones of the state).
    settings: Settings,
    /// Topics deleted so far (see `ClusterMetadata::deleted_topics`).
    deleted: imbl::OrdMap<Uuid, (String, i32)>,
    /// What the commands applied since the last `take_changes` changed.
    changes: Changes,
}

/// A controller snapshot's contents (see `MetadataState::encode_snapshot`).
#[derive(Serialize, Deserialize)]
struct SnapshotImage {
    applied: i64,
    state: Persisted,
    deleted: Vec<(Uuid, (String, i32))>,
}

/// What applied commands changed: what the controller's reconcile must
/// look at (topics not named here are as they were).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Changes {
    /// Topics created, deleted, updated or reassigned, by id, in the
    /// order the controller log touched them.
    pub topics: TouchedTopics,
    /// The dynamic settings changed (every topic's effective configs may
    /// have).
    pub settings: bool,
}

/// Topic ids, each once, in the order first added.
///
/// Why the order: a reconcile opens new replicas in chunks and waits for
/// each chunk's first leaders (`cluster::controller::await_leaders`),
/// which needs the other brokers to open the same groups at about the
/// same time. Every broker applies the same log, but how many commands
/// one reconcile round takes up depends on each broker's timing. In id
/// order (random UUIDs), a round that took one more CreateTopics than a
/// peer's interleaved that command's topics with all the others, so
/// every chunk held groups the peers had not opened: each waited out its
/// 2 s and creating 10,000 partitions on three brokers took 80-123 s
/// instead of ~25 s (2 runs in 5; every slow run had brokers whose rounds
/// were split differently). In log order, rounds split differently still
/// open the groups in the same sequence.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct TouchedTopics {
    order: Vec<Uuid>,
    seen: std::collections::HashSet<Uuid>,
}

impl TouchedTopics {
    /// Adds `id` unless already there.
    pub fn insert(&mut self, id: Uuid) {
        if self.seen.insert(id) {
            self.order.push(id);
        }
    }

    pub fn contains(&self, id: &Uuid) -> bool {
        self.seen.contains(id)
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The ids in the order first added.
    pub fn iter(&self) -> impl Iterator<Item = &Uuid> {
        self.order.iter()
    }
}

impl Extend<Uuid> for TouchedTopics {
    fn extend<I: IntoIterator<Item = Uuid>>(&mut self, ids: I) {
        for id in ids {
            self.insert(id);
        }
    }
}

impl IntoIterator for TouchedTopics {
    type Item = Uuid;
    type IntoIter = std::vec::IntoIter<Uuid>;
    fn into_iter(self) -> Self::IntoIter {
        self.order.into_iter()
    }
}

impl MetadataState {
    pub fn new(statics: Settings, node: i32) -> Self {
        MetadataState {
            state: Persisted::default(),
            settings: statics.clone(),
            statics,
            node,
            deleted: imbl::OrdMap::new(),
            changes: Changes::default(),
        }
    }

    pub fn apply(&mut self, cmd: &Command) -> Result<Outcome, Refused> {
        // A decommission sets targets on every topic hosting the broker.
        let decommissioned_topics = match cmd {
            Command::Decommission { node } | Command::Recommission { node } => {
                self.state.topics_hosted_by(*node)
            }
            _ => Vec::new(),
        };
        let deleting = match cmd {
            Command::DeleteTopic { name } => self
                .state
                .topics
                .get(name)
                .map(|t| (t.id, (t.name.clone(), t.partitions))),
            _ => None,
        };
        let outcome = self.state.apply(cmd, &self.statics)?;
        let deleted_id = deleting.as_ref().map(|(id, _)| *id);
        if let Some((id, what)) = deleting {
            self.deleted.insert(id, what);
        }
        match cmd {
            Command::CreateTopic { topic } | Command::UpdateTopic { topic } => {
                self.changes.topics.insert(topic.id);
            }
            // Refused topics' ids name nothing: reconcile skips them.
            Command::CreateTopics { topics } => {
                self.changes.topics.extend(topics.iter().map(|t| t.id));
            }
            Command::Reassign { topic_id, .. } | Command::FinishReassign { topic_id, .. } => {
                self.changes.topics.insert(*topic_id);
            }
            Command::DeleteTopic { .. } => {
                self.changes.topics.extend(deleted_id);
            }
            Command::Decommission { .. } | Command::Recommission { .. } => {
                self.changes.topics.extend(decommissioned_topics);
            }
            Command::SetDynamicSettings { .. } => {
                self.settings = self
                    .state
                    .settings(&self.statics, Some(self.node))
                    .unwrap_or_else(|_| self.statics.clone());
                self.changes.settings = true;
            }
            Command::InitCluster { .. }
            | Command::RegisterBroker { .. }
            | Command::FenceBroker { .. }
            | Command::SetMaintenance { .. }
            | Command::RemoveBroker { .. }
            | Command::ReserveProducerIds { .. }
            | Command::CreateAcls { .. }
            | Command::DeleteAcls { .. }
            | Command::AlterScram { .. }
            | Command::BootstrapScram { .. }
            | Command::SetGroupConfigs { .. }
            | Command::SetClientMetrics { .. }
            | Command::AlterClientQuotas { .. } => {}
        }
        Ok(outcome)
    }

    /// The state as a controller snapshot's bytes: length, CRC-32C and
    /// the JSON of the state and `applied` (the next controller log
    /// offset to apply: the snapshot holds everything below it).
    pub fn encode_snapshot(&self, applied: i64) -> Result<Vec<u8>, serde_json::Error> {
        let image = SnapshotImage {
            applied,
            state: self.state.clone(),
            deleted: self.deleted.iter().map(|(k, v)| (*k, v.clone())).collect(),
        };
        let body = serde_json::to_vec(&image)?;
        let mut out = Vec::with_capacity(body.len() + 8);
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32c::crc32c(&body).to_le_bytes());
        out.extend_from_slice(&body);
        Ok(out)
    }

    /// A state from [`MetadataState::encode_snapshot`]'s bytes, with the
    /// offset it was taken at; `Err` says why they are not a whole, valid
    /// snapshot (torn, damaged, not one).
    pub fn decode_snapshot(
        bytes: &[u8],
        statics: Settings,
        node: i32,
    ) -> Result<(Self, i64), String> {
        if bytes.len() < 8 {
            return Err(format!("{} bytes: too short", bytes.len()));
        }
        let len = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes"));
        let body = &bytes[8..];
        if body.len() != len {
            return Err(format!(
                "{} bytes of state, the header says {len}",
                body.len()
            ));
        }
        if crc32c::crc32c(body) != crc {
            return Err("checksum mismatch".into());
        }
        let image: SnapshotImage = serde_json::from_slice(body).map_err(|e| e.to_string())?;
        if image.applied < 0 {
            return Err(format!("negative offset {}", image.applied));
        }
        let settings = image
            .state
            .settings(&statics, Some(node))
            .unwrap_or_else(|_| statics.clone());
        let state = MetadataState {
            state: image.state,
            statics,
            node,
            settings,
            deleted: image.deleted.into_iter().collect(),
            changes: Changes::default(),
        };
        Ok((state, image.applied))
    }

    /// What the commands applied since the last call changed.
    pub fn take_changes(&mut self) -> Changes {
        std::mem::take(&mut self.changes)
    }

    /// The shards' snapshot: O(1) in the number of topics (shared maps).
    pub fn snapshot(&self) -> ClusterMetadata {
        let mut snap = self.state.snapshot_with(self.settings.clone());
        snap.deleted_topics = self.deleted.clone();
        snap
    }

    /// The registered brokers' ids.
    pub fn broker_ids(&self) -> Vec<i32> {
        self.state.brokers.keys().copied().collect()
    }

    pub fn cluster_id(&self) -> &str {
        &self.state.cluster_id
    }

    pub fn topic_count(&self) -> usize {
        self.state.topics.len()
    }
}

/// An immutable snapshot of the cluster metadata, shared by the shards.
#[derive(Debug, Clone)]
pub struct ClusterMetadata {
    pub cluster_id: String,
    /// Shared structure (`imbl`): a change copies the few tree nodes it
    /// touches, not the whole map, so publishing a new snapshot costs the
    /// same with 50,000 topics as with 50.
    pub topics: imbl::OrdMap<String, Arc<TopicMeta>>,
    pub by_id: imbl::HashMap<Uuid, String>,
    /// Topic names by their name with '.' folded to '_' (Kafka refuses a
    /// new topic that collides with an existing one there).
    pub folded_names: imbl::HashMap<String, String>,
    pub settings: Settings,
    /// Cluster mode: the registered brokers (empty on a single node).
    pub brokers: BTreeMap<i32, BrokerMeta>,
    /// Cluster mode: every topic deleted so far, by id (ids are never
    /// reused), with its name and partition count, so that a broker that
    /// was down during a deletion removes the topic's folders when it
    /// replays it (empty on a single node, which deletes at once).
    pub deleted_topics: imbl::OrdMap<Uuid, (String, i32)>,
    /// Every ACL (shared structure, like the topic maps).
    pub acls: crate::acl::Acls,
    /// SASL/SCRAM credentials, read by every SASL exchange of the shard
    /// (shared structure, like the topic maps).
    pub scram: crate::sasl::ScramUsers,
    /// Group config overrides by group (`group_config.rs` reads them with
    /// the defaults filled in; shared structure, like the topic maps).
    pub group_configs: imbl::OrdMap<String, BTreeMap<String, String>>,
    /// Client-metrics subscriptions by name (`client_metrics.rs`; shared
    /// structure, like the topic maps).
    pub client_metrics: imbl::OrdMap<String, BTreeMap<String, String>>,
    /// Client quotas by entity (`quotas/`; shared structure, like the
    /// topic maps).
    pub client_quotas: crate::quotas::ClientQuotas,
}

impl ClusterMetadata {
    pub fn topic(&self, name: &str) -> Option<&TopicMeta> {
        self.topics.get(name).map(|t| &**t)
    }

    pub fn topic_by_id(&self, id: &Uuid) -> Option<&TopicMeta> {
        self.by_id
            .get(id)
            .and_then(|n| self.topics.get(n))
            .map(|t| &**t)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MetadataError {
    #[error("metadata file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("metadata file {path} is damaged: {message}")]
    Damaged { path: PathBuf, message: String },
    #[error("{0}")]
    Setting(#[from] crate::settings::SettingError),
}

/// Why a metadata change did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    #[error("{}", .0.message)]
    Refused(Refused),
    #[error("{0}")]
    Metadata(#[from] MetadataError),
}

/// The authoritative metadata of a single node, owned by shard 0.
///
/// On disk: a snapshot (`metadata.json`, the whole state and the sequence
/// number of the last change it holds) and a change log
/// (`metadata.log`: each change a record of length, CRC-32C and JSON,
/// fdatasynced before the change is acknowledged). A change costs one
/// append whatever the number of topics; once the log outgrows the
/// snapshot (and 1 MiB), a new snapshot is written and the log starts
/// again, so writing snapshots costs O(1) per logged byte. Rewriting the
/// whole `metadata.json` on every change (as before) made each change
/// O(topics): with 50,000 topics, megabytes per CreateTopics.
pub struct MetadataStore {
    dir: PathBuf,
    state: Persisted,
    statics: Settings,
    /// The next producer id to hand out (within the persisted block).
    next_producer_id: i64,
    /// The change log, open for appending, and its size in bytes.
    log: std::fs::File,
    log_bytes: u64,
    /// The size of the last snapshot written or read.
    snapshot_bytes: u64,
    /// What the shards read, kept up to date change by change (its maps
    /// share structure with the previous one: no copy of every topic).
    snap: ClusterMetadata,
}

/// Producer ids are reserved on disk this many at a time.
const PRODUCER_ID_BLOCK: i64 = 1000;

/// The snapshot file and the change log, in the data folder.
const SNAPSHOT_FILE: &str = "metadata.json";
const LOG_FILE: &str = "metadata.log";
/// The log is folded into a new snapshot once it is larger than the
/// snapshot and than this.
const MIN_LOG_BYTES_BEFORE_SNAPSHOT: u64 = 1 << 20;
/// The largest record the log accepts (a CreateTopics of 10,000 topics
/// is a few MB).
const MAX_RECORD_BYTES: usize = 256 << 20;

/// One change of a single node's metadata, as the change log records it.
#[derive(Debug, Clone, Serialize, Deserialize)]
enum Change {
    AddTopics(Vec<TopicMeta>),
    RemoveTopic(String),
    UpdateTopic(TopicMeta),
    ProducerIdBlockEnd(i64),
    DynamicSettings {
        settings: BTreeMap<String, String>,
        cluster_default: bool,
    },
    Command(Command),
}

/// A change log record.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    seq: u64,
    change: Change,
}

impl Persisted {
    /// Applies a logged change (deterministic: replay gives the state the
    /// change was acknowledged with).
    fn apply_change(&mut self, c: &Change, statics: &Settings) {
        match c {
            Change::AddTopics(ts) => {
                for t in ts {
                    self.topics.insert(t.clone());
                }
            }
            Change::RemoveTopic(name) => {
                self.topics.remove(name);
            }
            Change::UpdateTopic(u) => {
                if self.topics.get(&u.name).is_some() {
                    self.topics.insert(u.clone());
                }
            }
            Change::ProducerIdBlockEnd(end) => self.producer_id_block_end = *end,
            Change::DynamicSettings {
                settings,
                cluster_default,
            } => {
                if *cluster_default {
                    self.dynamic_default_settings = settings.clone();
                } else {
                    self.dynamic_settings = settings.clone();
                }
            }
            Change::Command(cmd) => {
                // Refused commands are never logged.
                let _ = self.apply(cmd, statics);
            }
        }
        self.seq += 1;
    }
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> MetadataError + '_ {
    move |source| MetadataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `bytes` to `path` atomically and durably (temporary file,
/// fsync, rename, folder fsync).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), MetadataError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::fs::File::create(&tmp).map_err(io_err(&tmp))?;
        f.write_all(bytes).map_err(io_err(&tmp))?;
        f.sync_all().map_err(io_err(&tmp))?;
    }
    std::fs::rename(&tmp, path).map_err(io_err(path))?;
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_err(dir))
}

/// The valid records at the start of a change log, and where they end
/// (a torn or damaged tail, from a crash during an append, is cut there).
fn read_records(bytes: &[u8]) -> (Vec<Record>, usize) {
    let mut out = Vec::new();
    let mut at = 0;
    while bytes.len() - at >= 8 {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().expect("4 bytes"));
        let Some(body) = bytes.get(at + 8..at + 8 + len) else {
            break;
        };
        if len > MAX_RECORD_BYTES || crc32c::crc32c(body) != crc {
            break;
        }
        let Ok(r) = serde_json::from_slice::<Record>(body) else {
            break;
        };
        out.push(r);
        at += 8 + len;
    }
    (out, at)
}

/// A random cluster id in Kafka's form (22 characters of URL-safe base64
/// of a UUID).
pub fn new_cluster_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let v = Uuid::new_v4().as_u128();
    (0..22)
        .map(|i| ALPHABET[((v >> (i * 6)) & 63) as usize] as char)
        .collect()
}

impl MetadataStore {
    /// How many changes the metadata log has recorded since the broker's
    /// data folder was created (the single node's metadata offset).
    pub fn changes(&self) -> u64 {
        self.state.seq
    }

    /// Loads the snapshot and replays the change log from `data_dir`, or
    /// starts empty.
    pub fn open(data_dir: &Path, statics: Settings) -> Result<Self, MetadataError> {
        std::fs::create_dir_all(data_dir).map_err(io_err(data_dir))?;
        let path = data_dir.join(SNAPSHOT_FILE);
        let (mut state, snapshot_bytes, fresh) = match std::fs::read(&path) {
            Ok(bytes) => (
                serde_json::from_slice::<Persisted>(&bytes).map_err(|e| {
                    MetadataError::Damaged {
                        path: path.clone(),
                        message: e.to_string(),
                    }
                })?,
                bytes.len() as u64,
                false,
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (
                Persisted {
                    cluster_id: new_cluster_id(),
                    ..Default::default()
                },
                0,
                true,
            ),
            Err(e) => return Err(io_err(&path)(e)),
        };
        let log_path = data_dir.join(LOG_FILE);
        let bytes = match std::fs::read(&log_path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_err(&log_path)(e)),
        };
        let (records, valid) = read_records(&bytes);
        for r in &records {
            // Records the snapshot already holds (a crash between writing
            // a snapshot and starting the log again) are skipped.
            if r.seq == state.seq + 1 {
                state.apply_change(&r.change, &statics);
            }
        }
        if valid < bytes.len() {
            tracing::warn!(path = %log_path.display(), valid, len = bytes.len(), "cutting the torn tail of the metadata change log");
        }
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .map_err(io_err(&log_path))?;
        log.set_len(valid as u64).map_err(io_err(&log_path))?;
        let next_producer_id = state.producer_id_block_end;
        let snap = state.snapshot(&statics, None);
        let mut store = MetadataStore {
            dir: data_dir.to_path_buf(),
            state,
            statics,
            next_producer_id,
            log,
            log_bytes: valid as u64,
            snapshot_bytes,
            snap,
        };
        // Dynamic settings saved by an earlier run must still be valid.
        store.settings()?;
        if fresh {
            store.write_snapshot()?;
        }
        Ok(store)
    }

    fn settings(&self) -> Result<Settings, MetadataError> {
        self.state.settings(&self.statics, None)
    }

    /// The snapshot the shards read (cheap: its maps are shared).
    pub fn snapshot(&self) -> ClusterMetadata {
        self.snap.clone()
    }

    /// Brings the shards' snapshot up to date with a change just applied
    /// to the state, touching only what the change touched.
    fn update_snapshot(&mut self, change: &Change) {
        let settings = match change {
            Change::DynamicSettings { .. } | Change::Command(_) => {
                self.settings().unwrap_or_else(|_| self.statics.clone())
            }
            _ => std::mem::take(&mut self.snap.settings),
        };
        // The state's topic maps are shared, not copied.
        self.snap = self.state.snapshot_with(settings);
    }

    /// Logs `change` durably, then applies it. On a failed write the state
    /// is unchanged (and the log cut back to its last whole record).
    fn commit(&mut self, change: Change) -> Result<(), MetadataError> {
        let record = Record {
            seq: self.state.seq + 1,
            change,
        };
        let path = self.dir.join(LOG_FILE);
        let body = serde_json::to_vec(&record).map_err(|e| MetadataError::Damaged {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let mut buf = Vec::with_capacity(body.len() + 8);
        buf.extend_from_slice(&(body.len() as u32).to_le_bytes());
        buf.extend_from_slice(&crc32c::crc32c(&body).to_le_bytes());
        buf.extend_from_slice(&body);
        let written = self.log.write_all(&buf).and_then(|()| self.log.sync_data());
        if let Err(e) = written {
            let _ = self.log.set_len(self.log_bytes);
            return Err(io_err(&path)(e));
        }
        self.log_bytes += buf.len() as u64;
        self.state.apply_change(&record.change, &self.statics);
        self.update_snapshot(&record.change);
        if self.log_bytes > self.snapshot_bytes.max(MIN_LOG_BYTES_BEFORE_SNAPSHOT) {
            // The change is durable in the log already: a failed snapshot
            // only leaves the log longer.
            if let Err(e) = self.write_snapshot() {
                tracing::error!(error = %e, "cannot write a metadata snapshot; the change log keeps growing");
            }
        }
        Ok(())
    }

    /// Writes the whole state as the new snapshot, then starts the log
    /// again (the snapshot's sequence number says which records it holds,
    /// so a crash in between replays nothing twice).
    fn write_snapshot(&mut self) -> Result<(), MetadataError> {
        let path = self.dir.join(SNAPSHOT_FILE);
        let bytes = serde_json::to_vec(&self.state).map_err(|e| MetadataError::Damaged {
            path: path.clone(),
            message: e.to_string(),
        })?;
        write_atomic(&path, &bytes)?;
        self.snapshot_bytes = bytes.len() as u64;
        let log_path = self.dir.join(LOG_FILE);
        self.log.set_len(0).map_err(io_err(&log_path))?;
        self.log.sync_all().map_err(io_err(&log_path))?;
        self.log_bytes = 0;
        Ok(())
    }

    /// Applies `cmd` and persists the result; on refusal or a failed
    /// write the state is unchanged. (Producer ids are reserved through
    /// [`MetadataStore::allocate_producer_id`] instead.)
    pub fn apply(&mut self, cmd: &Command) -> Result<Outcome, ApplyError> {
        // Checked on a copy: a refused command is not logged.
        let out = self
            .state
            .clone()
            .apply(cmd, &self.statics)
            .map_err(ApplyError::Refused)?;
        self.commit(Change::Command(cmd.clone()))?;
        Ok(out)
    }

    /// Adds a topic with a fresh id and persists it.
    pub fn add_topic(
        &mut self,
        name: &str,
        partitions: i32,
        configs: BTreeMap<String, String>,
    ) -> Result<TopicMeta, MetadataError> {
        let t = TopicMeta {
            name: name.to_string(),
            id: Uuid::new_v4(),
            partitions,
            configs,
            replicas: Vec::new(),
            reassignments: BTreeMap::new(),
        };
        self.commit(Change::AddTopics(vec![t.clone()]))?;
        Ok(t)
    }

    /// Adds topics (made by the caller, ids included) with one write.
    pub fn add_topics(&mut self, topics: Vec<TopicMeta>) -> Result<(), MetadataError> {
        self.commit(Change::AddTopics(topics))
    }

    /// Removes a topic and persists the change.
    pub fn remove_topic(&mut self, name: &str) -> Result<Option<TopicMeta>, MetadataError> {
        let Some(t) = self.state.topics.get(name).map(|t| (**t).clone()) else {
            return Ok(None);
        };
        self.commit(Change::RemoveTopic(name.to_string()))?;
        Ok(Some(t))
    }

    /// Changes a topic's partition count or configs and persists it.
    pub fn update_topic(&mut self, updated: TopicMeta) -> Result<(), MetadataError> {
        if self.state.topics.get(&updated.name).is_none() {
            return Ok(());
        }
        self.commit(Change::UpdateTopic(updated))
    }

    /// A new producer id for an idempotent producer. Ids are reserved on
    /// disk a block at a time, so none is ever handed out twice, even
    /// across a crash.
    pub fn allocate_producer_id(&mut self) -> Result<i64, MetadataError> {
        if self.next_producer_id >= self.state.producer_id_block_end {
            self.commit(Change::ProducerIdBlockEnd(
                self.next_producer_id + PRODUCER_ID_BLOCK,
            ))?;
        }
        let id = self.next_producer_id;
        self.next_producer_id += 1;
        Ok(id)
    }

    /// Replaces the dynamic settings of this broker (`cluster_default`
    /// false) or the cluster-wide dynamic defaults, and persists them.
    pub fn set_dynamic_settings(
        &mut self,
        dynamics: BTreeMap<String, String>,
        cluster_default: bool,
    ) -> Result<(), MetadataError> {
        // Validated on the state with the new settings in place.
        let slot = if cluster_default {
            &mut self.state.dynamic_default_settings
        } else {
            &mut self.state.dynamic_settings
        };
        let old = std::mem::replace(slot, dynamics.clone());
        let valid = self.settings();
        let slot = if cluster_default {
            &mut self.state.dynamic_default_settings
        } else {
            &mut self.state.dynamic_settings
        };
        *slot = old;
        valid?;
        self.commit(Change::DynamicSettings {
            settings: dynamics,
            cluster_default,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_survive_a_reopen_with_their_ids() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        let cluster = s.snapshot().cluster_id;
        assert_eq!(cluster.len(), 22);
        let t = s.add_topic("orders", 6, BTreeMap::new()).unwrap();
        let mut dyns = BTreeMap::new();
        dyns.insert("num.partitions".to_string(), "4".to_string());
        s.set_dynamic_settings(dyns, false).unwrap();
        drop(s);
        let s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        let snap = s.snapshot();
        assert_eq!(snap.cluster_id, cluster);
        assert_eq!(snap.topic("orders"), Some(&t));
        assert_eq!(snap.topic_by_id(&t.id).map(|t| t.partitions), Some(6));
        assert_eq!(snap.settings.i32("num.partitions"), 4);
    }

    /// Changes go to the change log (one record each, no rewrite of the
    /// snapshot), the log is folded into a new snapshot once it outgrows
    /// it, and a reopen gives the same state, also after a torn append
    /// and after a crash between a new snapshot and the log's restart.
    #[test]
    fn changes_are_logged_folded_into_snapshots_and_replayed() {
        let dir = tempfile::tempdir().unwrap();
        let snap = dir.path().join(SNAPSHOT_FILE);
        let log = dir.path().join(LOG_FILE);
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        let snap_len = std::fs::metadata(&snap).unwrap().len();
        for i in 0..20 {
            s.add_topic(&format!("t{i}"), 3, BTreeMap::new()).unwrap();
        }
        assert_eq!(
            std::fs::metadata(&snap).unwrap().len(),
            snap_len,
            "a change does not rewrite the snapshot"
        );
        assert!(std::fs::metadata(&log).unwrap().len() > 0);
        s.remove_topic("t3").unwrap();
        let mut u = s.snapshot().topic("t4").unwrap().clone();
        u.partitions = 9;
        s.update_topic(u).unwrap();
        let want = s.snapshot();
        drop(s);
        let s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        let got = s.snapshot();
        // The snapshot kept change by change equals one built whole.
        assert_eq!(got.topics, want.topics);
        assert_eq!(got.by_id, want.by_id);
        assert_eq!(got.folded_names, want.folded_names);
        assert_eq!(got.cluster_id, want.cluster_id);
        assert!(got.topic("t3").is_none());
        assert_eq!(got.topic("t4").unwrap().partitions, 9);
        drop(s);

        // A torn append: the partial record is cut, the rest is kept.
        let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        f.write_all(&[200, 0, 0, 0, 1, 2, 3]).unwrap();
        drop(f);
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        assert_eq!(s.snapshot().topics, want.topics);
        s.add_topic("after-tear", 1, BTreeMap::new()).unwrap();

        // Enough changes to fold the log into a new snapshot (big topics:
        // the log must pass 1 MiB).
        let mut configs = BTreeMap::new();
        configs.insert("retention.ms".to_string(), "1".repeat(4000));
        for i in 0..400 {
            s.add_topic(&format!("big{i}"), 1, configs.clone()).unwrap();
        }
        assert!(
            std::fs::metadata(&snap).unwrap().len() > snap_len,
            "the log was folded into a snapshot"
        );
        let want = s.snapshot();
        // A crash after the snapshot but before the log restarted: the
        // old records are still there and must not be applied twice.
        let old_log = std::fs::read(&log).unwrap();
        drop(s);
        let s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        assert_eq!(s.snapshot().topics, want.topics);
        drop(s);
        let records = read_records(&old_log).0;
        assert!(records.iter().all(|r| r.seq > 0));
        let mut replayed = Vec::new();
        for r in records {
            let body = serde_json::to_vec(&r).unwrap();
            replayed.extend_from_slice(&(body.len() as u32).to_le_bytes());
            replayed.extend_from_slice(&crc32c::crc32c(&body).to_le_bytes());
            replayed.extend_from_slice(&body);
        }
        let s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        assert_eq!(s.snapshot().topics.len(), want.topics.len());
    }

    #[test]
    fn producer_ids_are_never_reused_across_restarts() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        let a = s.allocate_producer_id().unwrap();
        let b = s.allocate_producer_id().unwrap();
        assert_eq!(b, a + 1);
        drop(s);
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        assert!(s.allocate_producer_id().unwrap() > b);
    }

    fn topic(name: &str, partitions: i32) -> TopicMeta {
        TopicMeta {
            name: name.into(),
            id: Uuid::new_v4(),
            partitions,
            configs: BTreeMap::new(),
            replicas: vec![vec![1, 2, 3]; partitions as usize],
            reassignments: BTreeMap::new(),
        }
    }

    fn broker(id: i32) -> BrokerMeta {
        BrokerMeta {
            id,
            host: "127.0.0.1".into(),
            port: 9092,
            rack: None,
            rpc_addr: "127.0.0.1:19092".into(),
            fenced: false,
            maintenance: false,
            decommissioning: false,
            incarnation: 0,
            listeners: Vec::new(),
        }
    }

    #[test]
    fn brokers_are_fenced_and_unfenced_and_registering_unfences() {
        let mut a = MetadataState::new(Settings::default(), 1);
        for b in 1..=2 {
            a.apply(&Command::RegisterBroker { broker: broker(b) })
                .unwrap();
        }
        let fenced = |a: &MetadataState| -> Vec<i32> {
            let s = a.snapshot();
            s.brokers
                .values()
                .filter(|b| b.fenced)
                .map(|b| b.id)
                .collect()
        };
        a.apply(&Command::FenceBroker {
            id: 2,
            fenced: true,
        })
        .unwrap();
        assert_eq!(fenced(&a), vec![2]);
        // An unknown broker changes nothing.
        a.apply(&Command::FenceBroker {
            id: 9,
            fenced: true,
        })
        .unwrap();
        assert_eq!(fenced(&a), vec![2]);
        // A broker that starts again registers, live.
        a.apply(&Command::RegisterBroker { broker: broker(2) })
            .unwrap();
        assert!(fenced(&a).is_empty());
        a.apply(&Command::FenceBroker {
            id: 1,
            fenced: true,
        })
        .unwrap();
        a.apply(&Command::FenceBroker {
            id: 1,
            fenced: false,
        })
        .unwrap();
        assert!(fenced(&a).is_empty());
        // The flag survives the metadata's own encoding (snapshots).
        let mut b = broker(3);
        b.fenced = true;
        let json = serde_json::to_string(&b).unwrap();
        assert_eq!(serde_json::from_str::<BrokerMeta>(&json).unwrap(), b);
        let old = json.replace(",\"fenced\":true", "");
        assert!(!serde_json::from_str::<BrokerMeta>(&old).unwrap().fenced);
    }

    #[test]
    fn maintenance_and_decommission_are_kept_and_a_decommission_moves_every_replica() {
        let mut a = MetadataState::new(Settings::default(), 1);
        for b in 1..=4 {
            a.apply(&Command::RegisterBroker { broker: broker(b) })
                .unwrap();
        }
        let t = topic("t", 6);
        let id = t.id;
        a.apply(&Command::CreateTopic { topic: t }).unwrap();
        a.apply(&Command::SetMaintenance {
            node: 2,
            enabled: true,
        })
        .unwrap();
        assert!(
            a.apply(&Command::SetMaintenance {
                node: 9,
                enabled: true
            })
            .is_err()
        );
        // A restart (re-registration) keeps the operator's flags.
        a.apply(&Command::RegisterBroker { broker: broker(2) })
            .unwrap();
        assert!(a.snapshot().brokers[&2].maintenance);
        // Not decommissioning: cannot be removed.
        assert!(a.apply(&Command::RemoveBroker { id: 3 }).is_err());
        a.take_changes();
        a.apply(&Command::Decommission { node: 3 }).unwrap();
        assert!(a.take_changes().topics.contains(&id));
        let snap = a.snapshot();
        assert!(snap.brokers[&3].decommissioning);
        let t = snap.topic("t").unwrap();
        for p in 0..6 {
            let target = t.target_of(p).expect("every partition moves");
            assert_eq!(target.len(), 3);
            assert!(!target.contains(&3), "{target:?}");
            assert!(
                target.contains(&4),
                "the only free broker takes it: {target:?}"
            );
            // The replaced replica keeps its position (3 was third).
            assert_eq!(target[..2], [1, 2]);
        }
        // Still named by every partition: not removable yet.
        assert!(a.apply(&Command::RemoveBroker { id: 3 }).is_err());
        for p in 0..6 {
            a.apply(&Command::FinishReassign {
                topic_id: id,
                partition: p,
                target: vec![1, 2, 4],
            })
            .unwrap();
        }
        a.apply(&Command::RemoveBroker { id: 3 }).unwrap();
        assert!(!a.snapshot().brokers.contains_key(&3));
        // Three brokers left for replication factor 3: nobody can take
        // broker 4's replicas, and the refusal changes nothing.
        let err = a.apply(&Command::Decommission { node: 4 }).unwrap_err();
        assert!(
            err.message.contains("cannot decommission broker 4"),
            "{}",
            err.message
        );
        let snap = a.snapshot();
        assert!(!snap.brokers[&4].decommissioning);
        assert!(snap.topic("t").unwrap().reassignments.is_empty());
    }

    #[test]
    fn a_recommission_cancels_the_unfinished_moves_and_keeps_the_finished_ones() {
        let mut a = MetadataState::new(Settings::default(), 1);
        for b in 1..=4 {
            a.apply(&Command::RegisterBroker { broker: broker(b) })
                .unwrap();
        }
        let t = topic("t", 4);
        let id = t.id;
        a.apply(&Command::CreateTopic { topic: t }).unwrap();
        // An operator's own move of partition 3 (off broker 3 too, but
        // not the decommission's) is left alone.
        a.apply(&Command::Decommission { node: 3 }).unwrap();
        a.apply(&Command::Reassign {
            topic_id: id,
            partition: 3,
            target: Some(vec![4, 2, 1]),
        })
        .unwrap();
        // Partition 0's move finished; 1 and 2 are still under way.
        a.apply(&Command::FinishReassign {
            topic_id: id,
            partition: 0,
            target: vec![1, 2, 4],
        })
        .unwrap();
        a.take_changes();
        a.apply(&Command::Recommission { node: 3 }).unwrap();
        assert!(a.take_changes().topics.contains(&id));
        let snap = a.snapshot();
        assert!(!snap.brokers[&3].decommissioning);
        let t = snap.topic("t").unwrap();
        assert_eq!(t.replicas[0], vec![1, 2, 4]);
        assert_eq!(t.target_of(0), None);
        assert_eq!(t.target_of(1), None);
        assert_eq!(t.target_of(2), None);
        assert_eq!(t.replicas[1], vec![1, 2, 3]);
        assert_eq!(t.target_of(3), Some(&vec![4, 2, 1]));
        // Again: nothing to do. Once removed: refused, with the reason.
        a.apply(&Command::Recommission { node: 3 }).unwrap();
        let err = a.apply(&Command::Recommission { node: 9 }).unwrap_err();
        assert!(err.message.contains("not registered"), "{}", err.message);
    }

    #[test]
    fn reassignments_start_finish_and_cancel() {
        use kafka_protocol::ErrorCode as E;
        let mut a = MetadataState::new(Settings::default(), 1);
        for b in 1..=4 {
            a.apply(&Command::RegisterBroker { broker: broker(b) })
                .unwrap();
        }
        let t = topic("moves", 2);
        a.apply(&Command::CreateTopic { topic: t.clone() }).unwrap();
        let reassign = |target: Option<Vec<i32>>, partition| Command::Reassign {
            topic_id: t.id,
            partition,
            target,
        };
        let code = |r: Result<Outcome, Refused>| r.err().map(|e| e.code);
        // Refused: unknown partition, empty, duplicate, unregistered broker,
        // cancelling nothing.
        assert_eq!(
            code(a.apply(&reassign(Some(vec![1]), 2))),
            Some(E::UnknownTopicOrPartition.code())
        );
        for bad in [vec![], vec![2, 2, 3], vec![2, 3, 9]] {
            assert_eq!(
                code(a.apply(&reassign(Some(bad), 0))),
                Some(E::InvalidReplicaAssignment.code())
            );
        }
        assert_eq!(
            code(a.apply(&reassign(None, 0))),
            Some(E::NoReassignmentInProgress.code())
        );
        // Started: reported as target first, then the replicas removed.
        a.apply(&reassign(Some(vec![4, 2, 3]), 0)).unwrap();
        let snap = a.snapshot();
        let m = snap.topic("moves").unwrap();
        assert_eq!(m.replicas_of(0, 1), vec![1, 2, 3]);
        assert_eq!(m.all_replicas_of(0, 1), vec![4, 2, 3, 1]);
        assert_eq!(m.preferred_leader(0, 1), 4);
        assert!(m.hosted_by(0, 4) && m.hosted_by(0, 1));
        assert!(!m.hosted_by(1, 4));
        // A config update built from an older snapshot keeps it.
        let mut stale = t.clone();
        stale.configs.insert("retention.ms".into(), "1000".into());
        a.apply(&Command::UpdateTopic { topic: stale }).unwrap();
        assert_eq!(
            a.snapshot().topic("moves").unwrap().target_of(0),
            Some(&vec![4, 2, 3])
        );
        // A finish for another target is refused; the right one applies.
        assert!(
            a.apply(&Command::FinishReassign {
                topic_id: t.id,
                partition: 0,
                target: vec![2, 3, 4],
            })
            .is_err()
        );
        a.apply(&Command::FinishReassign {
            topic_id: t.id,
            partition: 0,
            target: vec![4, 2, 3],
        })
        .unwrap();
        let snap = a.snapshot();
        let m = snap.topic("moves").unwrap();
        assert_eq!(m.replicas_of(0, 1), vec![4, 2, 3]);
        assert!(m.target_of(0).is_none() && !m.hosted_by(0, 1));
        // Cancelled: back to the replicas; a target equal to the replicas
        // is no reassignment at all.
        a.apply(&reassign(Some(vec![1, 2, 3]), 1)).unwrap();
        assert!(a.snapshot().topic("moves").unwrap().target_of(1).is_none());
        a.apply(&reassign(Some(vec![1, 2, 4]), 1)).unwrap();
        a.apply(&reassign(None, 1)).unwrap();
        let snap = a.snapshot();
        let m = snap.topic("moves").unwrap();
        assert!(m.target_of(1).is_none());
        assert_eq!(m.all_replicas_of(1, 1), vec![1, 2, 3]);
    }

    /// One cluster metadata change (apply, the changes reconcile looks
    /// at, the shards' snapshot) costs the same with 10,000 topics as with
    /// 10; rebuilding the snapshot whole (as the controller did after
    /// every applied batch) is printed for comparison. Run with
    /// `--release --nocapture` for the figures.
    #[test]
    fn a_cluster_change_costs_the_same_with_many_topics() {
        use std::time::{Duration, Instant};
        const ROUNDS: u32 = 300;
        fn state_with(n: usize) -> MetadataState {
            let mut a = MetadataState::new(Settings::default(), 1);
            for i in 0..n {
                a.apply(&Command::CreateTopic {
                    topic: topic(&format!("topic-{i}"), 3),
                })
                .unwrap();
            }
            a.take_changes();
            a
        }
        // Incremental: what `Controller::run` does per applied batch.
        fn change_cost(n: usize) -> Duration {
            let mut a = state_with(n);
            // The shards hold the previous snapshot while the next is made.
            let mut held = a.snapshot();
            let t0 = Instant::now();
            for i in 0..ROUNDS {
                let t = topic(&format!("new-{i}"), 3);
                a.apply(&Command::CreateTopic { topic: t.clone() }).unwrap();
                let changes = a.take_changes();
                assert_eq!(changes.topics.len(), 1);
                held = a.snapshot();
                assert!(held.topic_by_id(&t.id).is_some());
            }
            assert_eq!(held.topics.len(), n + ROUNDS as usize);
            t0.elapsed() / ROUNDS
        }
        // The old way: the whole snapshot rebuilt from the state.
        fn rebuild_cost(n: usize) -> Duration {
            let a = state_with(n);
            let t0 = Instant::now();
            for _ in 0..ROUNDS / 10 {
                let topics: imbl::OrdMap<String, Arc<TopicMeta>> = a
                    .state
                    .topics
                    .by_name
                    .values()
                    .map(|t| (t.name.clone(), Arc::new((**t).clone())))
                    .collect();
                let by_id: imbl::HashMap<Uuid, String> =
                    topics.values().map(|t| (t.id, t.name.clone())).collect();
                let folded: imbl::HashMap<String, String> = topics
                    .values()
                    .map(|t| (crate::topics::fold_name(&t.name), t.name.clone()))
                    .collect();
                assert_eq!(by_id.len() + folded.len(), 2 * n);
            }
            t0.elapsed() / (ROUNDS / 10)
        }
        let (small, big) = (change_cost(10), change_cost(10_000));
        eprintln!(
            "one cluster metadata change: {small:?} with 10 topics, {big:?} with 10,000 \
             (whole rebuild: {:?} with 10, {:?} with 10,000)",
            rebuild_cost(10),
            rebuild_cost(10_000)
        );
        // Generous: a shared 2-core machine; O(topics) would be 1000x.
        assert!(
            big < small * 20 + Duration::from_micros(300),
            "{big:?} with 10,000 topics vs {small:?} with 10"
        );
    }

    /// One command for a whole CreateTopics request: each topic gets its
    /// own outcome (created, exists, collides once folded), the same on
    /// every broker; a single-topic record of an older log still applies.
    #[test]
    fn a_batch_of_topics_is_one_command_with_an_outcome_per_topic() {
        use kafka_protocol::ErrorCode as E;
        let mut a = MetadataState::new(Settings::default(), 1);
        let mut b = MetadataState::new(Settings::default(), 2);
        // A record as an older build wrote it.
        let old = r#"{"CreateTopic":{"topic":{"name":"old.one","id":"0b6f4f0e-8d7c-4c43-9a43-0a6c3c1f7d11","partitions":2,"configs":{},"replicas":[[1,2,3],[2,3,1]]}}}"#;
        let old: Command = serde_json::from_str(old).unwrap();
        let batch = Command::CreateTopics {
            topics: vec![
                topic("fresh", 3),
                topic("old.one", 1),
                topic("old_one", 1),
                topic("other", 2),
            ],
        };
        for s in [&mut a, &mut b] {
            s.apply(&old).unwrap();
            s.take_changes();
        }
        let ra = a.apply(&batch).unwrap();
        assert_eq!(ra, b.apply(&batch).unwrap());
        let Outcome::Created { refused } = ra else {
            panic!("{ra:?}")
        };
        let codes: Vec<Option<i16>> = refused.iter().map(|r| r.as_ref().map(|r| r.code)).collect();
        assert_eq!(
            codes,
            vec![
                None,
                Some(E::TopicAlreadyExists.code()),
                Some(E::InvalidTopicException.code()),
                None
            ]
        );
        let snap = a.snapshot();
        assert_eq!(snap.topics.len(), 3);
        assert_eq!(snap.topic("fresh").unwrap().partitions, 3);
        assert_eq!(snap.topic("old.one").unwrap().partitions, 2);
        let Command::CreateTopics { topics } = &batch else {
            unreachable!()
        };
        let changes = a.take_changes();
        assert!(changes.topics.contains(&topics[0].id) && changes.topics.contains(&topics[3].id));
        // Proposed again (a forwarding that timed out): the same topics
        // (same ids) count as created, not twice.
        let Outcome::Created { refused: again } = a.apply(&batch).unwrap() else {
            panic!("not a Created outcome")
        };
        let again: Vec<Option<i16>> = again.iter().map(|r| r.as_ref().map(|r| r.code)).collect();
        assert_eq!(again, codes);
        assert_eq!(a.snapshot().topics.len(), 3);
        // The batch survives the log's encoding.
        let json = serde_json::to_vec(&batch).unwrap();
        assert_eq!(serde_json::from_slice::<Command>(&json).unwrap(), batch);
    }

    #[test]
    fn deleted_topics_are_remembered_by_id() {
        let mut a = MetadataState::new(Settings::default(), 1);
        let t = topic("gone", 4);
        a.apply(&Command::CreateTopic { topic: t.clone() }).unwrap();
        assert!(a.snapshot().deleted_topics.is_empty());
        a.apply(&Command::DeleteTopic {
            name: "gone".into(),
        })
        .unwrap();
        // A refused deletion records nothing.
        assert!(
            a.apply(&Command::DeleteTopic {
                name: "gone".into()
            })
            .is_err()
        );
        let snap = a.snapshot();
        assert!(snap.topic("gone").is_none());
        assert_eq!(
            snap.deleted_topics.get(&t.id),
            Some(&("gone".to_string(), 4))
        );
        assert_eq!(snap.deleted_topics.len(), 1);
    }

    #[test]
    fn replicated_commands_apply_deterministically_and_refusals_change_nothing() {
        use kafka_protocol::ErrorCode as E;
        let mut a = MetadataState::new(Settings::default(), 1);
        let mut b = MetadataState::new(Settings::default(), 2);
        let t = topic("orders", 3);
        let cmds = [
            Command::InitCluster {
                cluster_id: "first".into(),
            },
            Command::InitCluster {
                cluster_id: "second".into(),
            },
            Command::CreateTopic { topic: t.clone() },
            Command::CreateTopic {
                topic: topic("orders", 5),
            },
            Command::DeleteTopic {
                name: "nope".into(),
            },
            Command::ReserveProducerIds { count: 1000 },
            Command::ReserveProducerIds { count: 1000 },
            Command::SetDynamicSettings {
                settings: BTreeMap::from([("num.partitions".into(), "-4".into())]),
                cluster_default: true,
                node: None,
            },
        ];
        let ra: Vec<_> = cmds.iter().map(|c| a.apply(c)).collect();
        let rb: Vec<_> = cmds.iter().map(|c| b.apply(c)).collect();
        assert_eq!(ra, rb, "every broker gets the same outcomes");
        assert_eq!(a.cluster_id(), "first");
        assert_eq!(
            ra[3].as_ref().unwrap_err().code,
            E::TopicAlreadyExists.code()
        );
        assert_eq!(
            ra[4].as_ref().unwrap_err().code,
            E::UnknownTopicOrPartition.code()
        );
        assert_eq!(ra[5], Ok(Outcome::ProducerIds { first: 0 }));
        assert_eq!(ra[6], Ok(Outcome::ProducerIds { first: 1000 }));
        assert_eq!(ra[7].as_ref().unwrap_err().code, E::InvalidConfig.code());
        let snap = a.snapshot();
        assert_eq!(snap.topic("orders"), Some(&t));
        assert_eq!(
            snap.topic("orders").unwrap().replicas_of(2, 9),
            vec![1, 2, 3]
        );
        assert_eq!(snap.topic("orders").unwrap().replication_factor(), 3);
        assert_eq!(snap.settings, b.snapshot().settings);
        // Per-broker dynamic settings apply to that broker only.
        let set = Command::SetDynamicSettings {
            settings: BTreeMap::from([("num.partitions".into(), "7".into())]),
            cluster_default: false,
            node: Some(2),
        };
        a.apply(&set).unwrap();
        b.apply(&set).unwrap();
        assert_eq!(a.snapshot().settings.i32("num.partitions"), 1);
        assert_eq!(b.snapshot().settings.i32("num.partitions"), 7);
    }

    fn scram_cred(password: &str) -> crate::sasl::ScramCredential {
        crate::sasl::ScramCredential::with_salt(
            crate::sasl::ScramHash::Sha256,
            password,
            vec![3; 16],
            4096,
        )
    }

    /// AlterScram upserts and deletes per entry (a deletion of a missing
    /// credential is refused alone, the rest applies), the same on every
    /// broker; BootstrapScram fills only a user without credentials.
    #[test]
    fn scram_credentials_are_upserted_deleted_and_bootstrapped() {
        use crate::sasl::ScramHash::{Sha256, Sha512};
        use kafka_protocol::ErrorCode as E;
        let mut a = MetadataState::new(Settings::default(), 1);
        let mut b = MetadataState::new(Settings::default(), 2);
        let upsert = |user: &str, mechanism, pw: &str| ScramUpsertion {
            user: user.into(),
            mechanism,
            credential: scram_cred(pw),
        };
        let delete = |user: &str, mechanism| ScramDeletion {
            user: user.into(),
            mechanism,
        };
        let cmds = [
            Command::AlterScram {
                deletions: vec![],
                upsertions: vec![upsert("alice", Sha256, "one"), upsert("bob", Sha512, "b")],
            },
            Command::AlterScram {
                deletions: vec![delete("bob", Sha256), delete("nobody", Sha512)],
                upsertions: vec![upsert("alice", Sha512, "two")],
            },
            Command::AlterScram {
                deletions: vec![delete("bob", Sha512)],
                upsertions: vec![],
            },
            // alice has credentials: the bootstrap changes nothing.
            Command::BootstrapScram {
                user: "alice".into(),
                credentials: vec![(Sha256, scram_cred("reset"))],
            },
            Command::BootstrapScram {
                user: "root".into(),
                credentials: vec![(Sha256, scram_cred("r")), (Sha512, scram_cred("r"))],
            },
        ];
        let ra: Vec<_> = cmds.iter().map(|c| a.apply(c)).collect();
        let rb: Vec<_> = cmds.iter().map(|c| b.apply(c)).collect();
        assert_eq!(ra, rb, "every broker gets the same outcomes");
        let codes = |r: &Result<Outcome, Refused>| match r {
            Ok(Outcome::ScramAltered { refused }) => refused
                .iter()
                .map(|r| r.as_ref().map(|r| r.code))
                .collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(codes(&ra[0]), vec![None, None]);
        let missing = Some(E::ResourceNotFound.code());
        assert_eq!(codes(&ra[1]), vec![missing, missing, None]);
        assert_eq!(codes(&ra[2]), vec![None]);
        let snap = a.snapshot();
        assert_eq!(snap.scram.get("alice", Sha256), Some(&scram_cred("one")));
        assert_eq!(snap.scram.get("alice", Sha512), Some(&scram_cred("two")));
        assert!(
            snap.scram.user("bob").is_none(),
            "no credential left: no user"
        );
        assert_eq!(snap.scram.user("root").map(|m| m.len()), Some(2));
        assert_eq!(snap.scram, b.snapshot().scram);
        // Commands and the state survive their JSON (log records,
        // snapshots); a snapshot without `scram` (older) loads empty.
        for c in &cmds {
            let json = serde_json::to_vec(c).unwrap();
            assert_eq!(&serde_json::from_slice::<Command>(&json).unwrap(), c);
        }
        let bytes = a.encode_snapshot(5).unwrap();
        let (back, _) = MetadataState::decode_snapshot(&bytes, Settings::default(), 1).unwrap();
        assert_eq!(back.snapshot().scram, snap.scram);
        let json = serde_json::to_string(&a.state).unwrap();
        assert!(!json.contains("\"one\""), "no password in the metadata");
        let old: Persisted = serde_json::from_str(r#"{"cluster_id":"x","topics":[]}"#).unwrap();
        assert!(old.scram.is_empty());
    }

    /// A single node keeps users across a reopen (change log and snapshot).
    #[test]
    fn scram_users_survive_a_reopen() {
        use crate::sasl::ScramHash::Sha512;
        let dir = tempfile::tempdir().unwrap();
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        s.apply(&Command::AlterScram {
            deletions: vec![],
            upsertions: vec![ScramUpsertion {
                user: "carol".into(),
                mechanism: Sha512,
                credential: scram_cred("pw"),
            }],
        })
        .unwrap();
        assert!(s.snapshot().scram.get("carol", Sha512).is_some());
        drop(s);
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        assert_eq!(
            s.snapshot().scram.get("carol", Sha512),
            Some(&scram_cred("pw"))
        );
        s.write_snapshot().unwrap();
        drop(s);
        let s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        assert_eq!(
            s.snapshot().scram.get("carol", Sha512),
            Some(&scram_cred("pw"))
        );
    }

    /// SetGroupConfigs replaces a group's overrides and an empty map
    /// removes them, the same on every broker; they survive the JSON of
    /// log records and snapshots, a single node's reopen, and older
    /// metadata without them loads with none.
    #[test]
    fn group_configs_are_replaced_removed_and_kept() {
        let set = |group: &str, pairs: &[(&str, &str)]| Command::SetGroupConfigs {
            group: group.into(),
            configs: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let cmds = [
            set("g1", &[("share.record.lock.duration.ms", "20000")]),
            set("g2", &[("share.auto.offset.reset", "earliest")]),
            set("g1", &[("share.isolation.level", "read_committed")]),
            set("g2", &[]),
            set("never-set", &[]),
        ];
        let mut a = MetadataState::new(Settings::default(), 1);
        let mut b = MetadataState::new(Settings::default(), 2);
        for c in &cmds {
            assert_eq!(a.apply(c), Ok(Outcome::Done));
            b.apply(c).unwrap();
            let json = serde_json::to_vec(c).unwrap();
            assert_eq!(&serde_json::from_slice::<Command>(&json).unwrap(), c);
        }
        let snap = a.snapshot();
        assert_eq!(snap.group_configs, b.snapshot().group_configs);
        assert_eq!(snap.group_configs.len(), 1);
        assert_eq!(
            snap.group_configs.get("g1"),
            Some(&BTreeMap::from([(
                "share.isolation.level".to_string(),
                "read_committed".to_string()
            )])),
            "replaced, not merged"
        );
        let bytes = a.encode_snapshot(9).unwrap();
        let (back, _) = MetadataState::decode_snapshot(&bytes, Settings::default(), 1).unwrap();
        assert_eq!(back.snapshot().group_configs, snap.group_configs);
        let old: Persisted = serde_json::from_str(r#"{"cluster_id":"x","topics":[]}"#).unwrap();
        assert!(old.group_configs.is_empty());

        let dir = tempfile::tempdir().unwrap();
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        s.apply(&cmds[0]).unwrap();
        drop(s);
        let mut s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        assert!(s.snapshot().group_configs.contains_key("g1"));
        s.write_snapshot().unwrap();
        drop(s);
        let s = MetadataStore::open(dir.path(), Settings::default()).unwrap();
        assert_eq!(
            s.snapshot().group_configs.get("g1").map(|m| m.len()),
            Some(1)
        );
    }

    #[test]
    fn a_damaged_file_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("metadata.json"), b"{not json").unwrap();
        let err = MetadataStore::open(dir.path(), Settings::default())
            .err()
            .unwrap();
        assert!(err.to_string().contains("damaged"), "{err}");
    }
}

#[cfg(test)]
mod touched_topics_tests {
    use super::TouchedTopics;
    use uuid::Uuid;

    #[test]
    fn topics_keep_the_order_the_log_first_touched_them() {
        // Ids out of their sorted order, as random UUIDs are.
        let (a, b, c) = (Uuid::from_u128(3), Uuid::from_u128(1), Uuid::from_u128(2));
        let mut round = TouchedTopics::default();
        round.insert(a);
        round.extend([b, a]);
        // A later command merged into the same round (the controller's
        // pending reconcile) comes after, and a repeat keeps its place.
        let mut later = TouchedTopics::default();
        later.extend([c, b]);
        round.extend(later);
        assert_eq!(round.iter().copied().collect::<Vec<_>>(), vec![a, b, c]);
        assert_eq!(round.len(), 3);
        assert!(round.contains(&c) && !round.is_empty());
    }
}
