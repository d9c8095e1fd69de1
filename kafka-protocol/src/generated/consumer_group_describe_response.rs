//! `ConsumerGroupDescribeResponse`, generated from Kafka's `ConsumerGroupDescribeResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ConsumerGroupDescribeResponse (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ConsumerGroupDescribeResponse {
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

impl Default for ConsumerGroupDescribeResponse {
    fn default() -> Self {
        ConsumerGroupDescribeResponse {
            throttle_time_ms: 0,
            groups: Vec::<DescribedGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ConsumerGroupDescribeResponse {
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
                d.tagged_fields("ConsumerGroupDescribeResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ConsumerGroupDescribeResponse {
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

/// A `DescribedGroup` of [`ConsumerGroupDescribeResponse`].
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
    /// The selected assignor.
    ///
    /// Versions: 0+.
    pub assignor_name: String,
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
            assignor_name: String::from(""),
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
        e.string(&self.assignor_name, flexible)?;
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
        this.assignor_name = d.string(flexible, "AssignorName")?;
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
        this.assignor_name = rng.string();
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

/// A `Member` of [`ConsumerGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The member ID.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The member instance ID.
    ///
    /// Versions: 0+.
    pub instance_id: Option<String>,
    /// The member rack ID.
    ///
    /// Versions: 0+.
    pub rack_id: Option<String>,
    /// The current member epoch.
    ///
    /// Versions: 0+.
    pub member_epoch: i32,
    /// The client ID.
    ///
    /// Versions: 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions: 0+.
    pub client_host: String,
    /// The subscribed topic names.
    ///
    /// Versions: 0+.
    pub subscribed_topic_names: Vec<String>,
    /// the subscribed topic regex otherwise or null of not provided.
    ///
    /// Versions: 0+.
    pub subscribed_topic_regex: Option<String>,
    /// The current assignment.
    ///
    /// Versions: 0+.
    pub assignment: Assignment,
    /// The target assignment.
    ///
    /// Versions: 0+.
    pub target_assignment: Assignment,
    /// -1 for unknown. 0 for classic member. +1 for consumer member.
    ///
    /// Versions: 1+.
    pub member_type: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Member {
    fn default() -> Self {
        Member {
            member_id: String::from(""),
            instance_id: None,
            rack_id: None,
            member_epoch: 0,
            client_id: String::from(""),
            client_host: String::from(""),
            subscribed_topic_names: Vec::<String>::new(),
            subscribed_topic_regex: None,
            assignment: Assignment::default(),
            target_assignment: Assignment::default(),
            member_type: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Member {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.member_id, flexible)?;
        e.nullable_string(self.instance_id.as_deref(), flexible)?;
        e.nullable_string(self.rack_id.as_deref(), flexible)?;
        e.i32(self.member_epoch);
        e.string(&self.client_id, flexible)?;
        e.string(&self.client_host, flexible)?;
        e.array(&self.subscribed_topic_names, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        e.nullable_string(self.subscribed_topic_regex.as_deref(), flexible)?;
        self.assignment.write(e, version)?;
        self.target_assignment.write(e, version)?;
        if version == 1 {
            e.i8(self.member_type);
        }
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
        this.instance_id = d.nullable_string(flexible)?;
        this.rack_id = d.nullable_string(flexible)?;
        this.member_epoch = d.i32()?;
        this.client_id = d.string(flexible, "ClientId")?;
        this.client_host = d.string(flexible, "ClientHost")?;
        this.subscribed_topic_names = d.array(flexible, "SubscribedTopicNames", |d| {
            d.string(flexible, "SubscribedTopicNames")
        })?;
        this.subscribed_topic_regex = d.nullable_string(flexible)?;
        this.assignment = Assignment::read(d, version)?;
        this.target_assignment = Assignment::read(d, version)?;
        if version == 1 {
            this.member_type = d.i8()?;
        }
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
        this.instance_id = if rng.null() { None } else { Some(rng.string()) };
        this.rack_id = if rng.null() { None } else { Some(rng.string()) };
        this.member_epoch = rng.i32();
        this.client_id = rng.string();
        this.client_host = rng.string();
        this.subscribed_topic_names = (0..rng.len()).map(|_| rng.string()).collect();
        this.subscribed_topic_regex = if rng.null() { None } else { Some(rng.string()) };
        this.assignment = Assignment::random_value(rng, version);
        this.target_assignment = Assignment::random_value(rng, version);
        if version == 1 {
            this.member_type = rng.i8();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicPartitions` of [`ConsumerGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicPartitions {
    /// The topic ID.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// The partitions.
    ///
    /// Versions: 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicPartitions {
    fn default() -> Self {
        TopicPartitions {
            topic_id: Uuid::nil(),
            topic_name: String::from(""),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicPartitions {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.uuid(&self.topic_id);
        e.string(&self.topic_name, flexible)?;
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
        this.topic_id = d.uuid()?;
        this.topic_name = d.string(flexible, "TopicName")?;
        this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TopicPartitions", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicPartitions {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_id = rng.uuid();
        this.topic_name = rng.string();
        this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Assignment` of [`ConsumerGroupDescribeResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// The assigned topic-partitions to the member.
    ///
    /// Versions: 0+.
    pub topic_partitions: Vec<TopicPartitions>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Assignment {
    fn default() -> Self {
        Assignment {
            topic_partitions: Vec::<TopicPartitions>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Assignment {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.array(&self.topic_partitions, flexible, |e, item| {
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
        this.topic_partitions = d.array(flexible, "TopicPartitions", |d| {
            TopicPartitions::read(d, version)
        })?;
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
        this.topic_partitions = (0..rng.len())
            .map(|_| TopicPartitions::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ConsumerGroupDescribeResponse {
    const NAME: &'static str = "ConsumerGroupDescribeResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 1);
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
impl crate::testing::Random for ConsumerGroupDescribeResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
