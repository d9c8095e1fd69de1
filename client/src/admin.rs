//! Admin calls as `Client` methods. Each answers per item (topic,
//! partition, group, resource, user...) with its own `Result`, so one bad
//! item does not hide the others; the outer `Result` is for failures of
//! the whole call (no broker reachable, unsupported API).

use std::collections::{BTreeMap, HashMap};

use bytes::Bytes;
use kafka_protocol::generated::{
    AlterClientQuotasRequest, DescribeClientQuotasRequest, alter_client_quotas_request as acq,
    describe_client_quotas_request as dcq,
};
use kafka_protocol::generated::{
    AlterPartitionReassignmentsRequest, AlterUserScramCredentialsRequest,
    ConsumerGroupDescribeRequest, ConsumerProtocolAssignment, ConsumerProtocolSubscription,
    CreateAclsRequest, CreatePartitionsRequest, CreateTopicsRequest, DeleteAclsRequest,
    DeleteGroupsRequest, DeleteRecordsRequest, DeleteTopicsRequest, DescribeAclsRequest,
    DescribeClusterRequest, DescribeConfigsRequest, DescribeGroupsRequest, DescribeLogDirsRequest,
    DescribeLogDirsResponse, DescribeUserScramCredentialsRequest, ElectLeadersRequest,
    IncrementalAlterConfigsRequest, ListGroupsRequest, ListOffsetsRequest,
    ListPartitionReassignmentsRequest, OffsetCommitRequest, OffsetDeleteRequest,
    OffsetFetchRequest,
};
use kafka_protocol::generated::{
    alter_partition_reassignments_request as apr, alter_user_scram_credentials_request as ausc,
    create_acls_request as cacl, create_partitions_request as cp, create_topics_request as ct,
    delete_acls_request as dacl, delete_records_request as dr, delete_topics_request as dt,
    describe_configs_request as dc, describe_log_dirs_request as dld,
    describe_user_scram_credentials_request as dusc, elect_leaders_request as el,
    incremental_alter_configs_request as iac, list_offsets_request as lo,
    list_partition_reassignments_request as lpr, offset_commit_request as oc,
    offset_delete_request as od, offset_fetch_request as of,
};
use kafka_protocol::{ApiKey, Decoder, ErrorCode, Message};
use uuid::Uuid;

use crate::client::{Client, Route, TopicInfo};
use crate::config::SaslMechanism;
use crate::error::Error;
use crate::sasl;

/// A client-quota entity: (type, name), `None` naming the type's default.
pub type QuotaEntity = Vec<(String, Option<String>)>;

/// A described entity and its quota values (key, value).
pub type DescribedQuota = (QuotaEntity, Vec<(String, f64)>);

/// How a DescribeClientQuotas filter component matches its entity type.
#[derive(Debug, Clone, PartialEq)]
pub enum QuotaMatch {
    /// This name.
    Exact(String),
    /// The type's default entity.
    Default,
    /// Any entity of the type (default or named).
    Any,
}

/// A topic and partition.
pub type TopicPartition = (String, i32);

/// Per-item results.
pub type Results<K, T> = Vec<(K, Result<T, Error>)>;

fn tp_ctx(t: &str, p: i32) -> String {
    format!("{t}/{p}")
}

/// A topic to create. `-1` partitions / replication factor take the
/// broker's defaults.
#[derive(Debug, Clone)]
pub struct NewTopic {
    pub name: String,
    pub partitions: i32,
    pub replication_factor: i16,
    pub configs: Vec<(String, String)>,
    /// Explicit replica placement (partition -> brokers); partitions and
    /// replication factor must then be -1.
    pub assignments: Vec<(i32, Vec<i32>)>,
}

impl NewTopic {
    pub fn new(name: impl Into<String>, partitions: i32, replication_factor: i16) -> Self {
        NewTopic {
            name: name.into(),
            partitions,
            replication_factor,
            configs: Vec::new(),
            assignments: Vec::new(),
        }
    }

    pub fn config(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
        self.configs.push((k.into(), v.into()));
        self
    }
}

/// What CreateTopics reports for a created (or validated) topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedTopic {
    pub topic_id: Uuid,
    pub partitions: i32,
    pub replication_factor: i16,
}

/// Config resource types (Kafka's `ConfigResource.Type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResourceType {
    Topic,
    Broker,
    BrokerLogger,
    Group,
}

impl ResourceType {
    pub fn code(self) -> i8 {
        match self {
            ResourceType::Topic => 2,
            ResourceType::Broker => 4,
            ResourceType::BrokerLogger => 8,
            ResourceType::Group => 32,
        }
    }
}

/// A config resource: a topic, a broker (name = its id, "" for the
/// cluster-wide default), a group.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConfigResource {
    pub kind: ResourceType,
    pub name: String,
}

impl ConfigResource {
    pub fn topic(name: impl Into<String>) -> Self {
        ConfigResource {
            kind: ResourceType::Topic,
            name: name.into(),
        }
    }
    pub fn broker(id: impl Into<String>) -> Self {
        ConfigResource {
            kind: ResourceType::Broker,
            name: id.into(),
        }
    }
    pub fn group(name: impl Into<String>) -> Self {
        ConfigResource {
            kind: ResourceType::Group,
            name: name.into(),
        }
    }
}

/// One config as DescribeConfigs reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigEntry {
    pub name: String,
    pub value: Option<String>,
    pub read_only: bool,
    /// Kafka's `ConfigSource` id (1 dynamic topic, 5 default...).
    pub source: i8,
    pub sensitive: bool,
    pub documentation: Option<String>,
}

/// Kafka's names for config sources.
pub fn config_source_name(source: i8) -> &'static str {
    match source {
        1 => "DYNAMIC_TOPIC_CONFIG",
        2 => "DYNAMIC_BROKER_CONFIG",
        3 => "DYNAMIC_DEFAULT_BROKER_CONFIG",
        4 => "STATIC_BROKER_CONFIG",
        5 => "DEFAULT_CONFIG",
        6 => "DYNAMIC_BROKER_LOGGER_CONFIG",
        7 => "CLIENT_METRICS_CONFIG",
        8 => "DYNAMIC_GROUP_CONFIG",
        _ => "UNKNOWN",
    }
}

/// An IncrementalAlterConfigs operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AlterConfigOp {
    Set(String, String),
    Delete(String),
    Append(String, String),
    Subtract(String, String),
}

/// Which offset ListOffsets should find.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OffsetSpec {
    Earliest,
    Latest,
    /// The offset with the largest timestamp (KIP-734).
    MaxTimestamp,
    /// The first offset whose timestamp is at or after this (ms).
    Timestamp(i64),
}

impl OffsetSpec {
    fn wire(self) -> i64 {
        match self {
            OffsetSpec::Earliest => -2,
            OffsetSpec::Latest => -1,
            OffsetSpec::MaxTimestamp => -3,
            OffsetSpec::Timestamp(t) => t,
        }
    }
}

/// ListOffsets' answer for a partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListedOffset {
    /// -1 when no record matches a timestamp.
    pub offset: i64,
    pub timestamp: i64,
    pub leader_epoch: i32,
}

/// A group from ListGroups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedGroup {
    pub group_id: String,
    pub protocol_type: String,
    pub state: String,
    /// "classic", "consumer", "share"... (empty before ListGroups v5).
    pub group_type: String,
    pub coordinator: i32,
}

/// A classic group member, with its decoded assignment when the group
/// uses the "consumer" protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupMember {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub subscribed_topics: Vec<String>,
    pub assignment: Vec<TopicPartition>,
}

/// DescribeGroups' (or ConsumerGroupDescribe's) answer for a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupDescription {
    pub group_id: String,
    pub state: String,
    pub protocol_type: String,
    /// The assignor of a classic group ("range"...), or of a consumer group.
    pub protocol: String,
    pub members: Vec<GroupMember>,
    pub coordinator: i32,
}

/// A committed offset from OffsetFetch (offset -1: none committed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommittedOffset {
    pub offset: i64,
    pub leader_epoch: i32,
    pub metadata: Option<String>,
}

/// An ACL binding, with Kafka's wire codes (see [`acl`] for names).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AclBinding {
    pub resource_type: i8,
    pub resource_name: String,
    pub pattern_type: i8,
    pub principal: String,
    pub host: String,
    pub operation: i8,
    pub permission_type: i8,
}

/// An ACL filter: `None` strings match anything; codes 1 are ANY
/// (pattern type 2 is MATCH).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AclFilter {
    pub resource_type: i8,
    pub resource_name: Option<String>,
    pub pattern_type: i8,
    pub principal: Option<String>,
    pub host: Option<String>,
    pub operation: i8,
    pub permission_type: i8,
}

impl Default for AclFilter {
    /// Matches every ACL.
    fn default() -> Self {
        AclFilter {
            resource_type: acl::ANY,
            resource_name: None,
            pattern_type: acl::ANY,
            principal: None,
            host: None,
            operation: acl::ANY,
            permission_type: acl::ANY,
        }
    }
}

/// Kafka's ACL codes and their names.
pub mod acl {
    pub const ANY: i8 = 1;

    const RESOURCE_TYPES: &[(i8, &str)] = &[
        (1, "ANY"),
        (2, "TOPIC"),
        (3, "GROUP"),
        (4, "CLUSTER"),
        (5, "TRANSACTIONAL_ID"),
        (6, "DELEGATION_TOKEN"),
        (7, "USER"),
    ];
    const PATTERN_TYPES: &[(i8, &str)] =
        &[(1, "ANY"), (2, "MATCH"), (3, "LITERAL"), (4, "PREFIXED")];
    const OPERATIONS: &[(i8, &str)] = &[
        (1, "ANY"),
        (2, "ALL"),
        (3, "READ"),
        (4, "WRITE"),
        (5, "CREATE"),
        (6, "DELETE"),
        (7, "ALTER"),
        (8, "DESCRIBE"),
        (9, "CLUSTER_ACTION"),
        (10, "DESCRIBE_CONFIGS"),
        (11, "ALTER_CONFIGS"),
        (12, "IDEMPOTENT_WRITE"),
        (13, "CREATE_TOKENS"),
        (14, "DESCRIBE_TOKENS"),
    ];
    const PERMISSIONS: &[(i8, &str)] = &[(1, "ANY"), (2, "DENY"), (3, "ALLOW")];

    fn name(table: &[(i8, &'static str)], code: i8) -> &'static str {
        table
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(_, n)| *n)
            .unwrap_or("UNKNOWN")
    }
    fn code(table: &[(i8, &str)], name: &str) -> Option<i8> {
        let n = name.to_ascii_uppercase().replace(['-', ' '], "_");
        table.iter().find(|(_, t)| *t == n).map(|(c, _)| *c)
    }
    pub fn resource_type_name(c: i8) -> &'static str {
        name(RESOURCE_TYPES, c)
    }
    pub fn resource_type_code(n: &str) -> Option<i8> {
        code(RESOURCE_TYPES, n)
    }
    pub fn pattern_type_name(c: i8) -> &'static str {
        name(PATTERN_TYPES, c)
    }
    pub fn pattern_type_code(n: &str) -> Option<i8> {
        code(PATTERN_TYPES, n)
    }
    pub fn operation_name(c: i8) -> &'static str {
        name(OPERATIONS, c)
    }
    pub fn operation_code(n: &str) -> Option<i8> {
        code(OPERATIONS, n)
    }
    pub fn permission_name(c: i8) -> &'static str {
        name(PERMISSIONS, c)
    }
    pub fn permission_code(n: &str) -> Option<i8> {
        code(PERMISSIONS, n)
    }
}

/// A SCRAM credential to create or replace; the password is salted and
/// hashed here, the broker only sees the salted password.
#[derive(Debug, Clone)]
pub struct ScramUpsert {
    pub user: String,
    pub mechanism: SaslMechanism,
    pub password: String,
    /// 0 takes Kafka's default, 4096.
    pub iterations: u32,
}

fn scram_code(m: SaslMechanism) -> i8 {
    match m {
        SaslMechanism::ScramSha256 => 1,
        SaslMechanism::ScramSha512 => 2,
        SaslMechanism::Plain => 0,
    }
}

fn scram_mechanism(code: i8) -> Option<SaslMechanism> {
    match code {
        1 => Some(SaslMechanism::ScramSha256),
        2 => Some(SaslMechanism::ScramSha512),
        _ => None,
    }
}

/// Kinds of leader election.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElectionType {
    Preferred,
    Unclean,
}

/// An ongoing reassignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OngoingReassignment {
    pub topic: String,
    pub partition: i32,
    pub replicas: Vec<i32>,
    pub adding: Vec<i32>,
    pub removing: Vec<i32>,
}

/// DescribeCluster's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterDescription {
    pub cluster_id: String,
    pub controller_id: i32,
    pub brokers: Vec<ClusterBroker>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterBroker {
    pub node_id: i32,
    pub host: String,
    pub port: i32,
    pub rack: Option<String>,
    pub fenced: bool,
}

fn group_by_topic<T: Clone>(items: &[(String, i32, T)]) -> BTreeMap<String, Vec<(i32, T)>> {
    let mut m: BTreeMap<String, Vec<(i32, T)>> = BTreeMap::new();
    for (t, p, v) in items {
        m.entry(t.clone()).or_default().push((*p, v.clone()));
    }
    m
}

/// Decodes a "consumer" protocol subscription (any version it names).
pub(crate) fn decode_subscription(b: &Bytes) -> Option<ConsumerProtocolSubscription> {
    decode_versioned(b)
}

/// Decodes a "consumer" protocol assignment.
pub(crate) fn decode_assignment(b: &Bytes) -> Option<ConsumerProtocolAssignment> {
    decode_versioned(b)
}

/// The consumer protocol's embedded schemas start with their version;
/// newer versions than ours are read as our newest (Kafka's rule: fields
/// are only ever appended).
fn decode_versioned<M: Message>(b: &Bytes) -> Option<M> {
    if b.len() < 2 {
        return None;
    }
    let v = i16::from_be_bytes([b[0], b[1]]);
    let (lo, hi) = M::VALID_VERSIONS;
    let v = v.clamp(lo, hi);
    let mut d = Decoder::new(b.slice(2..));
    M::decode(&mut d, v).ok()
}

impl Client {
    /// Creates topics (CreateTopics, sent to the controller).
    pub fn create_topics(
        &self,
        topics: &[NewTopic],
        validate_only: bool,
    ) -> Result<Results<String, CreatedTopic>, Error> {
        let req = CreateTopicsRequest {
            topics: topics
                .iter()
                .map(|t| ct::CreatableTopic {
                    name: t.name.clone(),
                    num_partitions: t.partitions,
                    replication_factor: t.replication_factor,
                    assignments: t
                        .assignments
                        .iter()
                        .map(|(p, b)| ct::CreatableReplicaAssignment {
                            partition_index: *p,
                            broker_ids: b.clone(),
                            ..Default::default()
                        })
                        .collect(),
                    configs: t
                        .configs
                        .iter()
                        .map(|(k, v)| ct::CreatableTopicConfig {
                            name: k.clone(),
                            value: Some(v.clone()),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            timeout_ms: self.config().request_timeout_ms.min(i32::MAX as u64) as i32,
            validate_only,
            ..Default::default()
        };
        let resp = self.send(Route::Controller, req)?;
        Ok(resp
            .topics
            .into_iter()
            .map(|t| {
                let ctx = format!("topic {}", t.name);
                let r = Error::check(t.error_code, t.error_message, ctx).map(|_| CreatedTopic {
                    topic_id: t.topic_id,
                    partitions: t.num_partitions,
                    replication_factor: t.replication_factor,
                });
                (t.name, r)
            })
            .collect())
    }

    /// Deletes topics by name (DeleteTopics, sent to the controller).
    pub fn delete_topics(&self, names: &[String]) -> Result<Results<String, ()>, Error> {
        let conn = self.resolve(&Route::Controller)?;
        let v = conn.version_for(ApiKey::DeleteTopics)?;
        let mut req = DeleteTopicsRequest {
            timeout_ms: self.config().request_timeout_ms.min(i32::MAX as u64) as i32,
            ..Default::default()
        };
        if v >= 6 {
            req.topics = names
                .iter()
                .map(|n| dt::DeleteTopicState {
                    name: Some(n.clone()),
                    ..Default::default()
                })
                .collect();
        } else {
            req.topic_names = names.to_vec();
        }
        let resp = self.send(Route::Controller, req)?;
        for n in names {
            self.invalidate_topic(n);
        }
        Ok(resp
            .responses
            .into_iter()
            .map(|t| {
                let name = t.name.clone().unwrap_or_else(|| t.topic_id.to_string());
                let r = Error::check(t.error_code, t.error_message, format!("topic {name}"));
                (name, r)
            })
            .collect())
    }

    /// Every topic (fresh Metadata), sorted by name.
    pub fn list_topics(&self) -> Result<Vec<TopicInfo>, Error> {
        let resp = self.metadata(None)?;
        let mut out: Vec<TopicInfo> = resp
            .topics
            .iter()
            .filter_map(|t| {
                let name = t.name.clone()?;
                let mut partitions: Vec<_> = t
                    .partitions
                    .iter()
                    .map(|p| crate::client::PartitionInfo {
                        partition: p.partition_index,
                        leader: p.leader_id,
                        leader_epoch: p.leader_epoch,
                        replicas: p.replica_nodes.clone(),
                        isr: p.isr_nodes.clone(),
                    })
                    .collect();
                partitions.sort_by_key(|p| p.partition);
                Some(TopicInfo {
                    name,
                    id: t.topic_id,
                    internal: t.is_internal,
                    partitions,
                })
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Raises topics' partition counts to the given totals.
    pub fn create_partitions(
        &self,
        totals: &[(String, i32)],
        validate_only: bool,
    ) -> Result<Results<String, ()>, Error> {
        let req = CreatePartitionsRequest {
            topics: totals
                .iter()
                .map(|(t, n)| cp::CreatePartitionsTopic {
                    name: t.clone(),
                    count: *n,
                    assignments: None,
                    ..Default::default()
                })
                .collect(),
            timeout_ms: self.config().request_timeout_ms.min(i32::MAX as u64) as i32,
            validate_only,
            ..Default::default()
        };
        let resp = self.send(Route::Controller, req)?;
        for (t, _) in totals {
            self.invalidate_topic(t);
        }
        Ok(resp
            .results
            .into_iter()
            .map(|r| {
                let res = Error::check(r.error_code, r.error_message, format!("topic {}", r.name));
                (r.name, res)
            })
            .collect())
    }

    /// Describes configs; `keys` limits the names (None: all). Broker
    /// resources go to that broker, the rest to any.
    pub fn describe_configs(
        &self,
        resources: &[ConfigResource],
        keys: Option<&[String]>,
        include_documentation: bool,
    ) -> Result<Results<ConfigResource, Vec<ConfigEntry>>, Error> {
        let mut out = Vec::new();
        for (route, group) in split_by_broker(resources) {
            let req = DescribeConfigsRequest {
                resources: group
                    .iter()
                    .map(|r| dc::DescribeConfigsResource {
                        resource_type: r.kind.code(),
                        resource_name: r.name.clone(),
                        configuration_keys: keys.map(|k| k.to_vec()),
                        ..Default::default()
                    })
                    .collect(),
                include_synonyms: false,
                include_documentation,
                ..Default::default()
            };
            let resp = self.send(route, req)?;
            for (res, r) in group.iter().zip(resp.results) {
                let ctx = format!("{:?} {}", res.kind, res.name).to_lowercase();
                let entries = Error::check(r.error_code, r.error_message, ctx).map(|_| {
                    r.configs
                        .into_iter()
                        .map(|c| ConfigEntry {
                            name: c.name,
                            value: c.value,
                            read_only: c.read_only,
                            source: c.config_source,
                            sensitive: c.is_sensitive,
                            documentation: c.documentation,
                        })
                        .collect()
                });
                out.push((res.clone(), entries));
            }
        }
        Ok(out)
    }

    /// Applies config operations per resource.
    pub fn incremental_alter_configs(
        &self,
        alters: &[(ConfigResource, Vec<AlterConfigOp>)],
        validate_only: bool,
    ) -> Result<Results<ConfigResource, ()>, Error> {
        let resources: Vec<ConfigResource> = alters.iter().map(|(r, _)| r.clone()).collect();
        let ops: HashMap<&ConfigResource, &Vec<AlterConfigOp>> =
            alters.iter().map(|(r, o)| (r, o)).collect();
        let mut out = Vec::new();
        for (route, group) in split_by_broker(&resources) {
            let req = IncrementalAlterConfigsRequest {
                resources: group
                    .iter()
                    .map(|r| iac::AlterConfigsResource {
                        resource_type: r.kind.code(),
                        resource_name: r.name.clone(),
                        configs: ops
                            .get(r)
                            .map(|o| o.iter())
                            .into_iter()
                            .flatten()
                            .map(|op| {
                                let (name, code, value) = match op {
                                    AlterConfigOp::Set(k, v) => (k, 0, Some(v.clone())),
                                    AlterConfigOp::Delete(k) => (k, 1, None),
                                    AlterConfigOp::Append(k, v) => (k, 2, Some(v.clone())),
                                    AlterConfigOp::Subtract(k, v) => (k, 3, Some(v.clone())),
                                };
                                iac::AlterableConfig {
                                    name: name.clone(),
                                    config_operation: code,
                                    value,
                                    ..Default::default()
                                }
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                validate_only,
                ..Default::default()
            };
            let resp = self.send(route, req)?;
            for r in resp.responses {
                let res = group
                    .iter()
                    .find(|g| g.name == r.resource_name && g.kind.code() == r.resource_type)
                    .cloned()
                    .unwrap_or(ConfigResource {
                        kind: ResourceType::Topic,
                        name: r.resource_name.clone(),
                    });
                let ctx = format!("{:?} {}", res.kind, res.name).to_lowercase();
                out.push((res, Error::check(r.error_code, r.error_message, ctx)));
            }
        }
        Ok(out)
    }

    /// Deletes records below the given offsets (-1: the high watermark);
    /// answers each partition's new low watermark.
    pub fn delete_records(
        &self,
        items: &[(String, i32, i64)],
    ) -> Result<Results<TopicPartition, i64>, Error> {
        self.per_leader(items, |client, node, batch| {
            let req = DeleteRecordsRequest {
                topics: group_by_topic(batch)
                    .into_iter()
                    .map(|(t, ps)| dr::DeleteRecordsTopic {
                        name: t,
                        partitions: ps
                            .into_iter()
                            .map(|(p, o)| dr::DeleteRecordsPartition {
                                partition_index: p,
                                offset: o,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                timeout_ms: client.config().request_timeout_ms.min(i32::MAX as u64) as i32,
                ..Default::default()
            };
            let resp = client.send(Route::Node(node), req)?;
            Ok(resp
                .topics
                .into_iter()
                .flat_map(|t| {
                    let name = t.name;
                    t.partitions.into_iter().map(move |p| {
                        let r = Error::check(p.error_code, None, tp_ctx(&name, p.partition_index))
                            .map(|_| p.low_watermark);
                        ((name.clone(), p.partition_index), r)
                    })
                })
                .collect())
        })
    }

    /// Finds offsets by spec (ListOffsets at each leader).
    pub fn list_offsets(
        &self,
        partitions: &[TopicPartition],
        spec: OffsetSpec,
        read_committed: bool,
    ) -> Result<Results<TopicPartition, ListedOffset>, Error> {
        let items: Vec<(String, i32, i64)> = partitions
            .iter()
            .map(|(t, p)| (t.clone(), *p, spec.wire()))
            .collect();
        self.per_leader(&items, |client, node, batch| {
            let req = ListOffsetsRequest {
                replica_id: -1,
                isolation_level: i8::from(read_committed),
                topics: group_by_topic(batch)
                    .into_iter()
                    .map(|(t, ps)| lo::ListOffsetsTopic {
                        name: t,
                        partitions: ps
                            .into_iter()
                            .map(|(p, ts)| lo::ListOffsetsPartition {
                                partition_index: p,
                                timestamp: ts,
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    })
                    .collect(),
                timeout_ms: client.config().request_timeout_ms.min(i32::MAX as u64) as i32,
                ..Default::default()
            };
            let resp = client.send(Route::Node(node), req)?;
            Ok(resp
                .topics
                .into_iter()
                .flat_map(|t| {
                    let name = t.name;
                    t.partitions.into_iter().map(move |p| {
                        let r = Error::check(p.error_code, None, tp_ctx(&name, p.partition_index))
                            .map(|_| ListedOffset {
                                offset: p.offset,
                                timestamp: p.timestamp,
                                leader_epoch: p.leader_epoch,
                            });
                        ((name.clone(), p.partition_index), r)
                    })
                })
                .collect())
        })
    }

    /// Runs `f` once per leader with that leader's items, and again (up to
    /// `retries`) for items whose answer says the leader moved.
    fn per_leader<T: Clone, R>(
        &self,
        items: &[(String, i32, T)],
        f: impl Fn(&Client, i32, &[(String, i32, T)]) -> Result<Results<TopicPartition, R>, Error>,
    ) -> Result<Results<TopicPartition, R>, Error> {
        let mut out: Vec<(TopicPartition, Result<R, Error>)> = Vec::new();
        let mut todo: Vec<(String, i32, T)> = items.to_vec();
        let mut attempt = 0;
        while !todo.is_empty() {
            let mut by_node: BTreeMap<i32, Vec<(String, i32, T)>> = BTreeMap::new();
            let mut retry = Vec::new();
            for it in todo.drain(..) {
                match self.leader_for(&it.0, it.1) {
                    Ok(n) => by_node.entry(n).or_default().push(it),
                    Err(e) => out.push(((it.0.clone(), it.1), Err(e))),
                }
            }
            for (node, batch) in by_node {
                let results = match f(self, node, &batch) {
                    Ok(r) => r,
                    Err(e) if e.is_retriable() && attempt < self.config().retries => {
                        retry.extend(batch);
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                for (tp, r) in results {
                    let stale = matches!(&r, Err(e) if matches!(e.kafka_code(), Some(ErrorCode::NotLeaderOrFollower | ErrorCode::LeaderNotAvailable | ErrorCode::FencedLeaderEpoch | ErrorCode::UnknownLeaderEpoch)));
                    if stale
                        && attempt < self.config().retries
                        && let Some(it) = batch.iter().find(|b| b.0 == tp.0 && b.1 == tp.1)
                    {
                        self.invalidate_topic(&tp.0);
                        retry.push(it.clone());
                        continue;
                    }
                    out.push((tp, r));
                }
            }
            if !retry.is_empty() {
                attempt += 1;
                self.backoff(attempt);
            }
            todo = retry;
        }
        Ok(out)
    }

    /// Every group on every broker (ListGroups to each).
    pub fn list_groups(&self) -> Result<Vec<ListedGroup>, Error> {
        if self.brokers().is_empty() {
            self.metadata(Some(&[]))?;
        }
        let mut out = Vec::new();
        for b in self.brokers() {
            let resp = self.send(Route::Node(b.node_id), ListGroupsRequest::default())?;
            Error::check(
                resp.error_code,
                None,
                format!("ListGroups on broker {}", b.node_id),
            )?;
            out.extend(resp.groups.into_iter().map(|g| ListedGroup {
                group_id: g.group_id,
                protocol_type: g.protocol_type,
                state: g.group_state,
                group_type: g.group_type,
                coordinator: b.node_id,
            }));
        }
        out.sort_by(|a, b| a.group_id.cmp(&b.group_id));
        out.dedup_by(|a, b| a.group_id == b.group_id);
        Ok(out)
    }

    /// Describes classic groups (DescribeGroups at each coordinator),
    /// decoding "consumer" protocol subscriptions and assignments. A group
    /// the broker says is a consumer group (KIP-848) is described with
    /// ConsumerGroupDescribe instead.
    pub fn describe_groups(
        &self,
        groups: &[String],
    ) -> Result<Results<String, GroupDescription>, Error> {
        let mut out = Vec::new();
        for g in groups {
            let r = self.describe_group(g);
            out.push((g.clone(), r));
        }
        Ok(out)
    }

    fn describe_group(&self, group: &str) -> Result<GroupDescription, Error> {
        let coordinator = self.group_coordinator(group)?;
        let resp = self.send(
            Route::GroupCoordinator(group.to_string()),
            DescribeGroupsRequest {
                groups: vec![group.to_string()],
                ..Default::default()
            },
        )?;
        let d = resp.groups.into_iter().next().ok_or_else(|| {
            Error::Protocol(format!("DescribeGroups answered nothing for {group}"))
        })?;
        if d.error_code == ErrorCode::GroupIdNotFound.code()
            || d.protocol_type == "consumer" && d.group_state.is_empty()
        {
            // Possibly a KIP-848 consumer group.
            if let Ok(cg) = self.describe_consumer_group(group, coordinator) {
                return Ok(cg);
            }
        }
        Error::check(d.error_code, d.error_message, format!("group {group}"))?;
        let members = d
            .members
            .into_iter()
            .map(|m| {
                let (subscribed_topics, assignment) = if d.protocol_type == "consumer" {
                    let s = decode_subscription(&m.member_metadata)
                        .map(|s| s.topics)
                        .unwrap_or_default();
                    let a = decode_assignment(&m.member_assignment)
                        .map(|a| {
                            a.assigned_partitions
                                .into_iter()
                                .flat_map(|t| {
                                    let topic = t.topic;
                                    t.partitions.into_iter().map(move |p| (topic.clone(), p))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    (s, a)
                } else {
                    (Vec::new(), Vec::new())
                };
                GroupMember {
                    member_id: m.member_id,
                    group_instance_id: m.group_instance_id,
                    client_id: m.client_id,
                    client_host: m.client_host,
                    subscribed_topics,
                    assignment,
                }
            })
            .collect();
        Ok(GroupDescription {
            group_id: d.group_id,
            state: d.group_state,
            protocol_type: d.protocol_type,
            protocol: d.protocol_data,
            members,
            coordinator,
        })
    }

    fn describe_consumer_group(
        &self,
        group: &str,
        coordinator: i32,
    ) -> Result<GroupDescription, Error> {
        let resp = self.send(
            Route::GroupCoordinator(group.to_string()),
            ConsumerGroupDescribeRequest {
                group_ids: vec![group.to_string()],
                ..Default::default()
            },
        )?;
        let d = resp.groups.into_iter().next().ok_or_else(|| {
            Error::Protocol(format!(
                "ConsumerGroupDescribe answered nothing for {group}"
            ))
        })?;
        Error::check(d.error_code, d.error_message, format!("group {group}"))?;
        Ok(GroupDescription {
            group_id: d.group_id,
            state: d.group_state,
            protocol_type: "consumer".into(),
            protocol: d.assignor_name,
            members: d
                .members
                .into_iter()
                .map(|m| GroupMember {
                    member_id: m.member_id,
                    group_instance_id: m.instance_id,
                    client_id: m.client_id,
                    client_host: m.client_host,
                    subscribed_topics: m.subscribed_topic_names,
                    assignment: m
                        .assignment
                        .topic_partitions
                        .into_iter()
                        .flat_map(|t| {
                            let topic = t.topic_name;
                            t.partitions.into_iter().map(move |p| (topic.clone(), p))
                        })
                        .collect(),
                })
                .collect(),
            coordinator,
        })
    }

    /// A group's committed offsets; `topics` None for all of them.
    pub fn offset_fetch(
        &self,
        group: &str,
        topics: Option<&[(String, Vec<i32>)]>,
    ) -> Result<Results<TopicPartition, CommittedOffset>, Error> {
        let conn = self.resolve(&Route::GroupCoordinator(group.to_string()))?;
        let v = conn.version_for(ApiKey::OffsetFetch)?;
        let mut req = OffsetFetchRequest::default();
        if v >= 8 {
            req.groups = vec![of::OffsetFetchRequestGroup {
                group_id: group.to_string(),
                topics: topics.map(|ts| {
                    ts.iter()
                        .map(|(t, ps)| of::OffsetFetchRequestTopics {
                            name: t.clone(),
                            partition_indexes: ps.clone(),
                            ..Default::default()
                        })
                        .collect()
                }),
                ..Default::default()
            }];
        } else {
            req.group_id = group.to_string();
            req.topics = topics.map(|ts| {
                ts.iter()
                    .map(|(t, ps)| of::OffsetFetchRequestTopic {
                        name: t.clone(),
                        partition_indexes: ps.clone(),
                        ..Default::default()
                    })
                    .collect()
            });
        }
        let resp = self.send(Route::GroupCoordinator(group.to_string()), req)?;
        let mut out = Vec::new();
        if v >= 8 {
            let g = resp.groups.into_iter().next().ok_or_else(|| {
                Error::Protocol(format!("OffsetFetch answered nothing for {group}"))
            })?;
            Error::check(g.error_code, None, format!("group {group}"))?;
            for t in g.topics {
                for p in t.partitions {
                    let r = Error::check(p.error_code, None, tp_ctx(&t.name, p.partition_index))
                        .map(|_| CommittedOffset {
                            offset: p.committed_offset,
                            leader_epoch: p.committed_leader_epoch,
                            metadata: p.metadata,
                        });
                    out.push(((t.name.clone(), p.partition_index), r));
                }
            }
        } else {
            Error::check(resp.error_code, None, format!("group {group}"))?;
            for t in resp.topics {
                for p in t.partitions {
                    let r = Error::check(p.error_code, None, tp_ctx(&t.name, p.partition_index))
                        .map(|_| CommittedOffset {
                            offset: p.committed_offset,
                            leader_epoch: p.committed_leader_epoch,
                            metadata: p.metadata,
                        });
                    out.push(((t.name.clone(), p.partition_index), r));
                }
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// Commits offsets for a group with no live generation (a "simple"
    /// commit, as `kafka-consumer-groups --reset-offsets` does; the group
    /// must be empty).
    pub fn offset_commit(
        &self,
        group: &str,
        offsets: &[(String, i32, i64)],
    ) -> Result<Results<TopicPartition, ()>, Error> {
        self.offset_commit_as(group, -1, "", offsets)
    }

    /// Commits offsets as a member of a generation.
    pub(crate) fn offset_commit_as(
        &self,
        group: &str,
        generation: i32,
        member_id: &str,
        offsets: &[(String, i32, i64)],
    ) -> Result<Results<TopicPartition, ()>, Error> {
        let req = OffsetCommitRequest {
            group_id: group.to_string(),
            generation_id_or_member_epoch: generation,
            member_id: member_id.to_string(),
            topics: group_by_topic(offsets)
                .into_iter()
                .map(|(t, ps)| oc::OffsetCommitRequestTopic {
                    name: t,
                    partitions: ps
                        .into_iter()
                        .map(|(p, o)| oc::OffsetCommitRequestPartition {
                            partition_index: p,
                            committed_offset: o,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let resp = self.send(Route::GroupCoordinator(group.to_string()), req)?;
        Ok(resp
            .topics
            .into_iter()
            .flat_map(|t| {
                let name = t.name;
                t.partitions.into_iter().map(move |p| {
                    (
                        (name.clone(), p.partition_index),
                        Error::check(
                            p.error_code,
                            None,
                            format!("group {group}, {}", tp_ctx(&name, p.partition_index)),
                        ),
                    )
                })
            })
            .collect())
    }

    /// Deletes groups (each at its coordinator).
    pub fn delete_groups(&self, groups: &[String]) -> Result<Results<String, ()>, Error> {
        let mut out = Vec::new();
        for g in groups {
            let r = self
                .send(
                    Route::GroupCoordinator(g.clone()),
                    DeleteGroupsRequest {
                        groups_names: vec![g.clone()],
                        ..Default::default()
                    },
                )
                .and_then(|resp| {
                    let r = resp.results.into_iter().find(|r| &r.group_id == g);
                    match r {
                        Some(r) => Error::check(r.error_code, None, format!("group {g}")),
                        None => Err(Error::Protocol(format!(
                            "DeleteGroups answered nothing for {g}"
                        ))),
                    }
                });
            out.push((g.clone(), r));
        }
        Ok(out)
    }

    /// Deletes a group's committed offsets for some partitions.
    pub fn offset_delete(
        &self,
        group: &str,
        partitions: &[TopicPartition],
    ) -> Result<Results<TopicPartition, ()>, Error> {
        let items: Vec<(String, i32, ())> = partitions
            .iter()
            .map(|(t, p)| (t.clone(), *p, ()))
            .collect();
        let req = OffsetDeleteRequest {
            group_id: group.to_string(),
            topics: group_by_topic(&items)
                .into_iter()
                .map(|(t, ps)| od::OffsetDeleteRequestTopic {
                    name: t,
                    partitions: ps
                        .into_iter()
                        .map(|(p, _)| od::OffsetDeleteRequestPartition {
                            partition_index: p,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let resp = self.send(Route::GroupCoordinator(group.to_string()), req)?;
        Error::check(resp.error_code, None, format!("group {group}"))?;
        Ok(resp
            .topics
            .into_iter()
            .flat_map(|t| {
                let name = t.name;
                t.partitions.into_iter().map(move |p| {
                    (
                        (name.clone(), p.partition_index),
                        Error::check(p.error_code, None, tp_ctx(&name, p.partition_index)),
                    )
                })
            })
            .collect())
    }

    /// Creates ACLs; one result per binding, in order.
    pub fn create_acls(&self, acls: &[AclBinding]) -> Result<Vec<Result<(), Error>>, Error> {
        let req = CreateAclsRequest {
            creations: acls
                .iter()
                .map(|a| cacl::AclCreation {
                    resource_type: a.resource_type,
                    resource_name: a.resource_name.clone(),
                    resource_pattern_type: a.pattern_type,
                    principal: a.principal.clone(),
                    host: a.host.clone(),
                    operation: a.operation,
                    permission_type: a.permission_type,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let resp = self.send(Route::Any, req)?;
        Ok(resp
            .results
            .into_iter()
            .zip(acls)
            .map(|(r, a)| {
                Error::check(
                    r.error_code,
                    r.error_message,
                    format!(
                        "ACL on {} {}",
                        acl::resource_type_name(a.resource_type),
                        a.resource_name
                    ),
                )
            })
            .collect())
    }

    /// The ACLs matching a filter.
    pub fn describe_acls(&self, filter: &AclFilter) -> Result<Vec<AclBinding>, Error> {
        let req = DescribeAclsRequest {
            resource_type_filter: filter.resource_type,
            resource_name_filter: filter.resource_name.clone(),
            pattern_type_filter: filter.pattern_type,
            principal_filter: filter.principal.clone(),
            host_filter: filter.host.clone(),
            operation: filter.operation,
            permission_type: filter.permission_type,
            ..Default::default()
        };
        let resp = self.send(Route::Any, req)?;
        Error::check(resp.error_code, resp.error_message, "DescribeAcls")?;
        Ok(resp
            .resources
            .into_iter()
            .flat_map(|r| {
                let (rt, rn, pt) = (r.resource_type, r.resource_name, r.pattern_type);
                r.acls.into_iter().map(move |a| AclBinding {
                    resource_type: rt,
                    resource_name: rn.clone(),
                    pattern_type: pt,
                    principal: a.principal,
                    host: a.host,
                    operation: a.operation,
                    permission_type: a.permission_type,
                })
            })
            .collect())
    }

    /// Deletes the ACLs matching each filter; answers the deleted ones.
    pub fn delete_acls(
        &self,
        filters: &[AclFilter],
    ) -> Result<Vec<Result<Vec<AclBinding>, Error>>, Error> {
        let req = DeleteAclsRequest {
            filters: filters
                .iter()
                .map(|f| dacl::DeleteAclsFilter {
                    resource_type_filter: f.resource_type,
                    resource_name_filter: f.resource_name.clone(),
                    pattern_type_filter: f.pattern_type,
                    principal_filter: f.principal.clone(),
                    host_filter: f.host.clone(),
                    operation: f.operation,
                    permission_type: f.permission_type,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let resp = self.send(Route::Any, req)?;
        Ok(resp
            .filter_results
            .into_iter()
            .map(|r| {
                Error::check(r.error_code, r.error_message, "DeleteAcls filter")?;
                Ok(r.matching_acls
                    .into_iter()
                    .map(|m| AclBinding {
                        resource_type: m.resource_type,
                        resource_name: m.resource_name,
                        pattern_type: m.pattern_type,
                        principal: m.principal,
                        host: m.host,
                        operation: m.operation,
                        permission_type: m.permission_type,
                    })
                    .collect())
            })
            .collect())
    }

    /// SCRAM credentials per user (None: every user): mechanism and
    /// iterations.
    pub fn describe_user_scram_credentials(
        &self,
        users: Option<&[String]>,
    ) -> Result<Results<String, Vec<(SaslMechanism, i32)>>, Error> {
        let req = DescribeUserScramCredentialsRequest {
            users: users.map(|u| {
                u.iter()
                    .map(|n| dusc::UserName {
                        name: n.clone(),
                        ..Default::default()
                    })
                    .collect()
            }),
            ..Default::default()
        };
        let resp = self.send(Route::Any, req)?;
        Error::check(
            resp.error_code,
            resp.error_message,
            "DescribeUserScramCredentials",
        )?;
        Ok(resp
            .results
            .into_iter()
            .map(|r| {
                let res = Error::check(r.error_code, r.error_message, format!("user {}", r.user))
                    .map(|_| {
                        r.credential_infos
                            .iter()
                            .filter_map(|c| Some((scram_mechanism(c.mechanism)?, c.iterations)))
                            .collect()
                    });
                (r.user, res)
            })
            .collect())
    }

    /// Creates/updates and deletes SCRAM credentials; passwords are salted
    /// (32 random bytes) and hashed with PBKDF2 here.
    pub fn alter_user_scram_credentials(
        &self,
        upserts: &[ScramUpsert],
        deletions: &[(String, SaslMechanism)],
    ) -> Result<Results<String, ()>, Error> {
        let mut ups = Vec::new();
        for u in upserts {
            if u.mechanism == SaslMechanism::Plain {
                return Err(Error::Config(
                    "SCRAM credentials need SCRAM-SHA-256 or SCRAM-SHA-512".into(),
                ));
            }
            let iterations = if u.iterations == 0 {
                sasl::SCRAM_MIN_ITERATIONS
            } else {
                u.iterations
            };
            let salt = sasl::random_salt()?;
            let salted = sasl::salted_password(u.mechanism, &u.password, &salt, iterations)?;
            ups.push(ausc::ScramCredentialUpsertion {
                name: u.user.clone(),
                mechanism: scram_code(u.mechanism),
                iterations: iterations as i32,
                salt: Bytes::from(salt),
                salted_password: Bytes::from(salted),
                ..Default::default()
            });
        }
        let req = AlterUserScramCredentialsRequest {
            deletions: deletions
                .iter()
                .map(|(n, m)| ausc::ScramCredentialDeletion {
                    name: n.clone(),
                    mechanism: scram_code(*m),
                    ..Default::default()
                })
                .collect(),
            upsertions: ups,
            ..Default::default()
        };
        let resp = self.send(Route::Controller, req)?;
        Ok(resp
            .results
            .into_iter()
            .map(|r| {
                let res = Error::check(r.error_code, r.error_message, format!("user {}", r.user));
                (r.user, res)
            })
            .collect())
    }

    /// Client quotas matching a filter (DescribeClientQuotas): each
    /// component is an entity type and how it matches; `strict` leaves
    /// out entities with other types. Answers each entity with its values.
    pub fn describe_client_quotas(
        &self,
        components: &[(String, QuotaMatch)],
        strict: bool,
    ) -> Result<Vec<DescribedQuota>, Error> {
        let req = DescribeClientQuotasRequest {
            components: components
                .iter()
                .map(|(t, m)| {
                    let (match_type, match_) = match m {
                        QuotaMatch::Exact(n) => (0, Some(n.clone())),
                        QuotaMatch::Default => (1, None),
                        QuotaMatch::Any => (2, None),
                    };
                    dcq::ComponentData {
                        entity_type: t.clone(),
                        match_type,
                        match_,
                        ..Default::default()
                    }
                })
                .collect(),
            strict,
            ..Default::default()
        };
        let resp = self.send(Route::Any, req)?;
        Error::check(resp.error_code, resp.error_message, "DescribeClientQuotas")?;
        Ok(resp
            .entries
            .unwrap_or_default()
            .into_iter()
            .map(|e| {
                (
                    e.entity
                        .into_iter()
                        .map(|d| (d.entity_type, d.entity_name))
                        .collect(),
                    e.values.into_iter().map(|v| (v.key, v.value)).collect(),
                )
            })
            .collect())
    }

    /// Sets and removes one entity's quota keys (AlterClientQuotas);
    /// `validate_only` checks without changing anything.
    pub fn alter_client_quotas(
        &self,
        entity: &QuotaEntity,
        set: &[(String, f64)],
        remove: &[String],
        validate_only: bool,
    ) -> Result<(), Error> {
        let mut ops: Vec<acq::OpData> = set
            .iter()
            .map(|(k, v)| acq::OpData {
                key: k.clone(),
                value: *v,
                remove: false,
                ..Default::default()
            })
            .collect();
        ops.extend(remove.iter().map(|k| acq::OpData {
            key: k.clone(),
            remove: true,
            ..Default::default()
        }));
        let req = AlterClientQuotasRequest {
            entries: vec![acq::EntryData {
                entity: entity
                    .iter()
                    .map(|(t, n)| acq::EntityData {
                        entity_type: t.clone(),
                        entity_name: n.clone(),
                        ..Default::default()
                    })
                    .collect(),
                ops,
                ..Default::default()
            }],
            validate_only,
            ..Default::default()
        };
        let resp = self.send(Route::Any, req)?;
        for e in resp.entries {
            Error::check(e.error_code, e.error_message, "AlterClientQuotas")?;
        }
        Ok(())
    }

    /// A broker's log directories (None: every partition).
    pub fn describe_log_dirs(
        &self,
        node: i32,
        topics: Option<&[(String, Vec<i32>)]>,
    ) -> Result<DescribeLogDirsResponse, Error> {
        let req = DescribeLogDirsRequest {
            topics: topics.map(|ts| {
                ts.iter()
                    .map(|(t, ps)| dld::DescribableLogDirTopic {
                        topic: t.clone(),
                        partitions: ps.clone(),
                        ..Default::default()
                    })
                    .collect()
            }),
            ..Default::default()
        };
        let resp = self.send(Route::Node(node), req)?;
        Error::check(resp.error_code, None, format!("log dirs of broker {node}"))?;
        Ok(resp)
    }

    /// Starts (Some replicas) or cancels (None) reassignments.
    pub fn alter_partition_reassignments(
        &self,
        items: &[(String, i32, Option<Vec<i32>>)],
    ) -> Result<Results<TopicPartition, ()>, Error> {
        let req = AlterPartitionReassignmentsRequest {
            timeout_ms: self.config().request_timeout_ms.min(i32::MAX as u64) as i32,
            topics: group_by_topic(items)
                .into_iter()
                .map(|(t, ps)| apr::ReassignableTopic {
                    name: t,
                    partitions: ps
                        .into_iter()
                        .map(|(p, r)| apr::ReassignablePartition {
                            partition_index: p,
                            replicas: r,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let resp = self.send(Route::Controller, req)?;
        Error::check(
            resp.error_code,
            resp.error_message,
            "AlterPartitionReassignments",
        )?;
        Ok(resp
            .responses
            .into_iter()
            .flat_map(|t| {
                let name = t.name;
                t.partitions.into_iter().map(move |p| {
                    (
                        (name.clone(), p.partition_index),
                        Error::check(
                            p.error_code,
                            p.error_message,
                            tp_ctx(&name, p.partition_index),
                        ),
                    )
                })
            })
            .collect())
    }

    /// Ongoing reassignments (None: all).
    pub fn list_partition_reassignments(
        &self,
        topics: Option<&[(String, Vec<i32>)]>,
    ) -> Result<Vec<OngoingReassignment>, Error> {
        let req = ListPartitionReassignmentsRequest {
            timeout_ms: self.config().request_timeout_ms.min(i32::MAX as u64) as i32,
            topics: topics.map(|ts| {
                ts.iter()
                    .map(|(t, ps)| lpr::ListPartitionReassignmentsTopics {
                        name: t.clone(),
                        partition_indexes: ps.clone(),
                        ..Default::default()
                    })
                    .collect()
            }),
            ..Default::default()
        };
        let resp = self.send(Route::Controller, req)?;
        Error::check(
            resp.error_code,
            resp.error_message,
            "ListPartitionReassignments",
        )?;
        Ok(resp
            .topics
            .into_iter()
            .flat_map(|t| {
                let name = t.name;
                t.partitions.into_iter().map(move |p| OngoingReassignment {
                    topic: name.clone(),
                    partition: p.partition_index,
                    replicas: p.replicas,
                    adding: p.adding_replicas,
                    removing: p.removing_replicas,
                })
            })
            .collect())
    }

    /// Elects leaders (None: every partition).
    pub fn elect_leaders(
        &self,
        kind: ElectionType,
        partitions: Option<&[(String, Vec<i32>)]>,
    ) -> Result<Results<TopicPartition, ()>, Error> {
        let req = ElectLeadersRequest {
            election_type: match kind {
                ElectionType::Preferred => 0,
                ElectionType::Unclean => 1,
            },
            topic_partitions: partitions.map(|ts| {
                ts.iter()
                    .map(|(t, ps)| el::TopicPartitions {
                        topic: t.clone(),
                        partitions: ps.clone(),
                        ..Default::default()
                    })
                    .collect()
            }),
            timeout_ms: self.config().request_timeout_ms.min(i32::MAX as u64) as i32,
            ..Default::default()
        };
        let resp = self.send(Route::Controller, req)?;
        Error::check(resp.error_code, None, "ElectLeaders")?;
        Ok(resp
            .replica_election_results
            .into_iter()
            .flat_map(|t| {
                let name = t.topic;
                t.partition_result.into_iter().map(move |p| {
                    (
                        (name.clone(), p.partition_id),
                        Error::check(p.error_code, p.error_message, tp_ctx(&name, p.partition_id)),
                    )
                })
            })
            .collect())
    }

    /// The cluster: id, controller, brokers (fenced ones too).
    pub fn describe_cluster(&self) -> Result<ClusterDescription, Error> {
        let conn = self.resolve(&Route::Any)?;
        let v = conn.version_for(ApiKey::DescribeCluster)?;
        let req = DescribeClusterRequest {
            include_fenced_brokers: v >= 2,
            ..Default::default()
        };
        let resp = self.send(Route::Any, req)?;
        Error::check(resp.error_code, resp.error_message, "DescribeCluster")?;
        Ok(ClusterDescription {
            cluster_id: resp.cluster_id,
            controller_id: resp.controller_id,
            brokers: resp
                .brokers
                .into_iter()
                .map(|b| ClusterBroker {
                    node_id: b.broker_id,
                    host: b.host,
                    port: b.port,
                    rack: b.rack,
                    fenced: b.is_fenced,
                })
                .collect(),
        })
    }
}

/// Broker config resources must go to that broker (a numeric name); the
/// rest can go anywhere.
fn split_by_broker(resources: &[ConfigResource]) -> Vec<(Route, Vec<ConfigResource>)> {
    let mut any = Vec::new();
    let mut nodes: BTreeMap<i32, Vec<ConfigResource>> = BTreeMap::new();
    for r in resources {
        match (r.kind, r.name.parse::<i32>()) {
            (ResourceType::Broker | ResourceType::BrokerLogger, Ok(id)) => {
                nodes.entry(id).or_default().push(r.clone())
            }
            _ => any.push(r.clone()),
        }
    }
    let mut out: Vec<(Route, Vec<ConfigResource>)> = nodes
        .into_iter()
        .map(|(n, v)| (Route::Node(n), v))
        .collect();
    if !any.is_empty() {
        out.push((Route::Any, any));
    }
    out
}
