//! `StreamsGroupDescribeResponse`, generated from Kafka's `StreamsGroupDescribeResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// StreamsGroupDescribeResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupDescribeResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// Each described group.
    ///
    /// Versions: 0+.
    pub groups: Vec<DescribedGroup>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for StreamsGroupDescribeResponse {
    fn default() -> Self {
        StreamsGroupDescribeResponse {
            throttle_time_ms: 0,
            groups: Vec::<DescribedGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupDescribeResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.array(&self.groups, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.groups = d.array(flexible, "Groups", |d| DescribedGroup::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("StreamsGroupDescribeResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl StreamsGroupDescribeResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.groups = (0..rng.len())
            .map(|_| DescribedGroup::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribedGroup` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedGroup {
    /// The describe error, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The group ID string.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The group state string, or the empty string.
    ///
    /// Versions: 0+.
    pub group_state: String,
    /// The group epoch.
    ///
    /// Versions: 0+.
    pub group_epoch: i32,
    /// The assignment epoch.
    ///
    /// Versions: 0+.
    pub assignment_epoch: i32,
    /// The topology metadata currently initialized for the streams application. Can be null in case of a describe error.
    ///
    /// Versions: 0+.
    pub topology: Option<Topology>,
    /// The members.
    ///
    /// Versions: 0+.
    pub members: Vec<Member>,
    /// 32-bit bitfield to represent authorized operations for this group.
    ///
    /// Versions: 0+.
    pub authorized_operations: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribedGroup {
    fn default() -> Self {
        DescribedGroup {
            error_code: 0,
            error_message: None,
            group_id: String::from(""),
            group_state: String::from(""),
            group_epoch: 0,
            assignment_epoch: 0,
            topology: None,
            members: Vec::<Member>::new(),
            authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedGroup {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.string(&self.group_id, flexible)?;
        e.string(&self.group_state, flexible)?;
        e.i32(self.group_epoch);
        e.i32(self.assignment_epoch);
        match &self.topology {
            None => e.i8(-1),
            Some(s) => {
                e.i8(1);
                s.write(e, version)?;
            }
        }
        e.array(&self.members, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.authorized_operations);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.group_id = d.string(flexible, "GroupId")?;
        this.group_state = d.string(flexible, "GroupState")?;
        this.group_epoch = d.i32()?;
        this.assignment_epoch = d.i32()?;
        this.topology = {
            if d.i8()? < 0 {
                None
            } else {
                Some(Topology::read(d, version)?)
            }
        };
        this.members = d.array(flexible, "Members", |d| Member::read(d, version))?;
        this.authorized_operations = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("DescribedGroup", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribedGroup {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.group_id = rng.string();
        this.group_state = rng.string();
        this.group_epoch = rng.i32();
        this.assignment_epoch = rng.i32();
        this.topology = if rng.null() {
            None
        } else {
            Some(Topology::random_value(rng, version))
        };
        this.members = (0..rng.len())
            .map(|_| Member::random_value(rng, version))
            .collect();
        this.authorized_operations = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Topology` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    /// The epoch of the currently initialized topology for this group.
    ///
    /// Versions: 0+.
    pub epoch: i32,
    /// The subtopologies of the streams application. This contains the configured subtopologies, where the number of partitions are set and any regular expressions are resolved to actual topics. Null if the group is uninitialized, source topics are missing or incorrectly partitioned.
    ///
    /// Versions: 0+.
    pub subtopologies: Option<Vec<Subtopology>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Topology {
    fn default() -> Self {
        Topology {
            epoch: 0,
            subtopologies: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Topology {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.epoch);
        e.nullable_array(self.subtopologies.as_deref(), flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.epoch = d.i32()?;
        this.subtopologies = d.nullable_array(flexible, |d| Subtopology::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Topology", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Topology {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.epoch = rng.i32();
        this.subtopologies = if rng.null() {
            None
        } else {
            Some(
                (0..rng.len())
                    .map(|_| Subtopology::random_value(rng, version))
                    .collect(),
            )
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Subtopology` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Subtopology {
    /// String to uniquely identify the subtopology.
    ///
    /// Versions: 0+.
    pub subtopology_id: String,
    /// The topics the subtopology reads from.
    ///
    /// Versions: 0+.
    pub source_topics: Vec<String>,
    /// The repartition topics the subtopology writes to.
    ///
    /// Versions: 0+.
    pub repartition_sink_topics: Vec<String>,
    /// The set of state changelog topics associated with this subtopology. Created automatically.
    ///
    /// Versions: 0+.
    pub state_changelog_topics: Vec<TopicInfo>,
    /// The set of source topics that are internally created repartition topics. Created automatically.
    ///
    /// Versions: 0+.
    pub repartition_source_topics: Vec<TopicInfo>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Subtopology {
    fn default() -> Self {
        Subtopology {
            subtopology_id: String::from(""),
            source_topics: Vec::<String>::new(),
            repartition_sink_topics: Vec::<String>::new(),
            state_changelog_topics: Vec::<TopicInfo>::new(),
            repartition_source_topics: Vec::<TopicInfo>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Subtopology {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.subtopology_id, flexible)?;
        e.array(&self.source_topics, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        e.array(&self.repartition_sink_topics, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        e.array(&self.state_changelog_topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.repartition_source_topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.subtopology_id = d.string(flexible, "SubtopologyId")?;
        this.source_topics = d.array(flexible, "SourceTopics", |d| {
            d.string(flexible, "SourceTopics")
        })?;
        this.repartition_sink_topics = d.array(flexible, "RepartitionSinkTopics", |d| {
            d.string(flexible, "RepartitionSinkTopics")
        })?;
        this.state_changelog_topics = d.array(flexible, "StateChangelogTopics", |d| {
            TopicInfo::read(d, version)
        })?;
        this.repartition_source_topics = d.array(flexible, "RepartitionSourceTopics", |d| {
            TopicInfo::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Subtopology", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Subtopology {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.subtopology_id = rng.string();
        this.source_topics = (0..rng.len()).map(|_| rng.string()).collect();
        this.repartition_sink_topics = (0..rng.len()).map(|_| rng.string()).collect();
        this.state_changelog_topics = (0..rng.len())
            .map(|_| TopicInfo::random_value(rng, version))
            .collect();
        this.repartition_source_topics = (0..rng.len())
            .map(|_| TopicInfo::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Member` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The member ID.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The member epoch.
    ///
    /// Versions: 0+.
    pub member_epoch: i32,
    /// The member instance ID for static membership.
    ///
    /// Versions: 0+.
    pub instance_id: Option<String>,
    /// The rack ID.
    ///
    /// Versions: 0+.
    pub rack_id: Option<String>,
    /// The client ID.
    ///
    /// Versions: 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions: 0+.
    pub client_host: String,
    /// The epoch of the topology on the client.
    ///
    /// Versions: 0+.
    pub topology_epoch: i32,
    /// Identity of the streams instance that may have multiple clients.
    ///
    /// Versions: 0+.
    pub process_id: String,
    /// User-defined endpoint for Interactive Queries. Null if not defined for this client.
    ///
    /// Versions: 0+.
    pub user_endpoint: Option<Endpoint>,
    /// Used for rack-aware assignment algorithm.
    ///
    /// Versions: 0+.
    pub client_tags: Vec<KeyValue>,
    /// Cumulative changelog offsets for tasks.
    ///
    /// Versions: 0+.
    pub task_offsets: Vec<TaskOffset>,
    /// Cumulative changelog end offsets for tasks.
    ///
    /// Versions: 0+.
    pub task_end_offsets: Vec<TaskOffset>,
    /// The current assignment.
    ///
    /// Versions: 0+.
    pub assignment: Assignment,
    /// The target assignment.
    ///
    /// Versions: 0+.
    pub target_assignment: Assignment,
    /// True for classic members that have not been upgraded yet.
    ///
    /// Versions: 0+.
    pub is_classic: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Member {
    fn default() -> Self {
        Member {
            member_id: String::from(""),
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            client_id: String::from(""),
            client_host: String::from(""),
            topology_epoch: 0,
            process_id: String::from(""),
            user_endpoint: None,
            client_tags: Vec::<KeyValue>::new(),
            task_offsets: Vec::<TaskOffset>::new(),
            task_end_offsets: Vec::<TaskOffset>::new(),
            assignment: Assignment::default(),
            target_assignment: Assignment::default(),
            is_classic: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Member {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.member_id, flexible)?;
        e.i32(self.member_epoch);
        e.nullable_string(self.instance_id.as_deref(), flexible)?;
        e.nullable_string(self.rack_id.as_deref(), flexible)?;
        e.string(&self.client_id, flexible)?;
        e.string(&self.client_host, flexible)?;
        e.i32(self.topology_epoch);
        e.string(&self.process_id, flexible)?;
        match &self.user_endpoint {
            None => e.i8(-1),
            Some(s) => {
                e.i8(1);
                s.write(e, version)?;
            }
        }
        e.array(&self.client_tags, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.task_offsets, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.task_end_offsets, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        self.assignment.write(e, version)?;
        self.target_assignment.write(e, version)?;
        e.bool(self.is_classic);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.member_id = d.string(flexible, "MemberId")?;
        this.member_epoch = d.i32()?;
        this.instance_id = d.nullable_string(flexible)?;
        this.rack_id = d.nullable_string(flexible)?;
        this.client_id = d.string(flexible, "ClientId")?;
        this.client_host = d.string(flexible, "ClientHost")?;
        this.topology_epoch = d.i32()?;
        this.process_id = d.string(flexible, "ProcessId")?;
        this.user_endpoint = {
            if d.i8()? < 0 {
                None
            } else {
                Some(Endpoint::read(d, version)?)
            }
        };
        this.client_tags = d.array(flexible, "ClientTags", |d| KeyValue::read(d, version))?;
        this.task_offsets = d.array(flexible, "TaskOffsets", |d| TaskOffset::read(d, version))?;
        this.task_end_offsets =
            d.array(flexible, "TaskEndOffsets", |d| TaskOffset::read(d, version))?;
        this.assignment = Assignment::read(d, version)?;
        this.target_assignment = Assignment::read(d, version)?;
        this.is_classic = d.bool()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Member", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Member {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.member_id = rng.string();
        this.member_epoch = rng.i32();
        this.instance_id = if rng.null() { None } else { Some(rng.string()) };
        this.rack_id = if rng.null() { None } else { Some(rng.string()) };
        this.client_id = rng.string();
        this.client_host = rng.string();
        this.topology_epoch = rng.i32();
        this.process_id = rng.string();
        this.user_endpoint = if rng.null() {
            None
        } else {
            Some(Endpoint::random_value(rng, version))
        };
        this.client_tags = (0..rng.len())
            .map(|_| KeyValue::random_value(rng, version))
            .collect();
        this.task_offsets = (0..rng.len())
            .map(|_| TaskOffset::random_value(rng, version))
            .collect();
        this.task_end_offsets = (0..rng.len())
            .map(|_| TaskOffset::random_value(rng, version))
            .collect();
        this.assignment = Assignment::random_value(rng, version);
        this.target_assignment = Assignment::random_value(rng, version);
        this.is_classic = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Endpoint` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// host of the endpoint
    ///
    /// Versions: 0+.
    pub host: String,
    /// port of the endpoint
    ///
    /// Versions: 0+.
    pub port: u16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Endpoint {
    fn default() -> Self {
        Endpoint {
            host: String::from(""),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Endpoint {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.host, flexible)?;
        e.u16(self.port);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.host = d.string(flexible, "Host")?;
        this.port = d.u16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Endpoint", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Endpoint {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.host = rng.string();
        this.port = rng.u16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TaskOffset` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TaskOffset {
    /// The subtopology identifier.
    ///
    /// Versions: 0+.
    pub subtopology_id: String,
    /// The partition.
    ///
    /// Versions: 0+.
    pub partition: i32,
    /// The offset.
    ///
    /// Versions: 0+.
    pub offset: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TaskOffset {
    fn default() -> Self {
        TaskOffset {
            subtopology_id: String::from(""),
            partition: 0,
            offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TaskOffset {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.subtopology_id, flexible)?;
        e.i32(self.partition);
        e.i64(self.offset);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.subtopology_id = d.string(flexible, "SubtopologyId")?;
        this.partition = d.i32()?;
        this.offset = d.i64()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TaskOffset", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TaskOffset {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.subtopology_id = rng.string();
        this.partition = rng.i32();
        this.offset = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Assignment` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// Active tasks for this client.
    ///
    /// Versions: 0+.
    pub active_tasks: Vec<TaskIds>,
    /// Standby tasks for this client.
    ///
    /// Versions: 0+.
    pub standby_tasks: Vec<TaskIds>,
    /// Warm-up tasks for this client.
    ///
    /// Versions: 0+.
    pub warmup_tasks: Vec<TaskIds>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Assignment {
    fn default() -> Self {
        Assignment {
            active_tasks: Vec::<TaskIds>::new(),
            standby_tasks: Vec::<TaskIds>::new(),
            warmup_tasks: Vec::<TaskIds>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Assignment {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.array(&self.active_tasks, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.standby_tasks, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.warmup_tasks, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.active_tasks = d.array(flexible, "ActiveTasks", |d| TaskIds::read(d, version))?;
        this.standby_tasks = d.array(flexible, "StandbyTasks", |d| TaskIds::read(d, version))?;
        this.warmup_tasks = d.array(flexible, "WarmupTasks", |d| TaskIds::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Assignment", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Assignment {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.active_tasks = (0..rng.len())
            .map(|_| TaskIds::random_value(rng, version))
            .collect();
        this.standby_tasks = (0..rng.len())
            .map(|_| TaskIds::random_value(rng, version))
            .collect();
        this.warmup_tasks = (0..rng.len())
            .map(|_| TaskIds::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TaskIds` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TaskIds {
    /// The subtopology identifier.
    ///
    /// Versions: 0+.
    pub subtopology_id: String,
    /// The partitions of the input topics processed by this member.
    ///
    /// Versions: 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TaskIds {
    fn default() -> Self {
        TaskIds {
            subtopology_id: String::from(""),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TaskIds {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.subtopology_id, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.subtopology_id = d.string(flexible, "SubtopologyId")?;
        this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TaskIds", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TaskIds {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.subtopology_id = rng.string();
        this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `KeyValue` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValue {
    /// key of the config
    ///
    /// Versions: 0+.
    pub key: String,
    /// value of the config
    ///
    /// Versions: 0+.
    pub value: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for KeyValue {
    fn default() -> Self {
        KeyValue {
            key: String::from(""),
            value: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl KeyValue {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.key, flexible)?;
        e.string(&self.value, flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.key = d.string(flexible, "Key")?;
        this.value = d.string(flexible, "Value")?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("KeyValue", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl KeyValue {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.key = rng.string();
        this.value = rng.string();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicInfo` of [`StreamsGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicInfo {
    /// The name of the topic.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The number of partitions in the topic. Can be 0 if no specific number of partitions is enforced. Always 0 for changelog topics.
    ///
    /// Versions: 0+.
    pub partitions: i32,
    /// The replication factor of the topic. Can be 0 if the default replication factor should be used.
    ///
    /// Versions: 0+.
    pub replication_factor: i16,
    /// Topic-level configurations as key-value pairs.
    ///
    /// Versions: 0+.
    pub topic_configs: Vec<KeyValue>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicInfo {
    fn default() -> Self {
        TopicInfo {
            name: String::from(""),
            partitions: 0,
            replication_factor: 0,
            topic_configs: Vec::<KeyValue>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicInfo {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.i32(self.partitions);
        e.i16(self.replication_factor);
        e.array(&self.topic_configs, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.i32()?;
        this.replication_factor = d.i16()?;
        this.topic_configs = d.array(flexible, "TopicConfigs", |d| KeyValue::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TopicInfo", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicInfo {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = rng.i32();
        this.replication_factor = rng.i16();
        this.topic_configs = (0..rng.len())
            .map(|_| KeyValue::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for StreamsGroupDescribeResponse {
    const NAME: &'static str = "StreamsGroupDescribeResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 0);
    const FLEXIBLE_MIN: Option<i16> = Some(0);
    fn encode(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        if !(Self::VALID_VERSIONS.0..=Self::VALID_VERSIONS.1).contains(&version) {
            return Err(EncodeError::UnsupportedVersion {
                message: Self::NAME,
                version,
            });
        }
        self.write(e, version)
    }
    fn decode(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        if !(Self::VALID_VERSIONS.0..=Self::VALID_VERSIONS.1).contains(&version) {
            return Err(DecodeError::UnsupportedVersion {
                message: Self::NAME,
                version,
            });
        }
        Self::read(d, version)
    }
}

#[cfg(test)]
impl crate::testing::Random for StreamsGroupDescribeResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
