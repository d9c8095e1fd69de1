//! `DescribeTopicPartitionsResponse`, generated from Kafka's `DescribeTopicPartitionsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeTopicPartitionsResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeTopicPartitionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// Each topic in the response.
    ///
    /// Versions: 0+.
    pub topics: Vec<DescribeTopicPartitionsResponseTopic>,
    /// The next topic and partition index to fetch details for.
    ///
    /// Versions: 0+.
    pub next_cursor: Option<Cursor>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeTopicPartitionsResponse {
    fn default() -> Self {
        DescribeTopicPartitionsResponse {
            throttle_time_ms: 0,
            topics: Vec::<DescribeTopicPartitionsResponseTopic>::new(),
            next_cursor: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeTopicPartitionsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        match &self.next_cursor {
            None => e.i8(-1),
            Some(s) => {
                e.i8(1);
                s.write(e, version)?;
            }
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
        this.throttle_time_ms = d.i32()?;
        this.topics = d.array(flexible, "Topics", |d| {
            DescribeTopicPartitionsResponseTopic::read(d, version)
        })?;
        this.next_cursor = {
            if d.i8()? < 0 {
                None
            } else {
                Some(Cursor::read(d, version)?)
            }
        };
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeTopicPartitionsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeTopicPartitionsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.topics = (0..rng.len())
            .map(|_| DescribeTopicPartitionsResponseTopic::random_value(rng, version))
            .collect();
        this.next_cursor = if rng.null() {
            None
        } else {
            Some(Cursor::random_value(rng, version))
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeTopicPartitionsResponseTopic` of [`DescribeTopicPartitionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeTopicPartitionsResponseTopic {
    /// The topic error, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: Option<String>,
    /// The topic id.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// True if the topic is internal.
    ///
    /// Versions: 0+.
    pub is_internal: bool,
    /// Each partition in the topic.
    ///
    /// Versions: 0+.
    pub partitions: Vec<DescribeTopicPartitionsResponsePartition>,
    /// 32-bit bitfield to represent authorized operations for this topic.
    ///
    /// Versions: 0+.
    pub topic_authorized_operations: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeTopicPartitionsResponseTopic {
    fn default() -> Self {
        DescribeTopicPartitionsResponseTopic {
            error_code: 0,
            name: Some(String::from("")),
            topic_id: Uuid::nil(),
            is_internal: false,
            partitions: Vec::<DescribeTopicPartitionsResponsePartition>::new(),
            topic_authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeTopicPartitionsResponseTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.error_code);
        e.nullable_string(self.name.as_deref(), flexible)?;
        e.uuid(&self.topic_id);
        e.bool(self.is_internal);
        e.array(&self.partitions, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.topic_authorized_operations);
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
        this.name = d.nullable_string(flexible)?;
        this.topic_id = d.uuid()?;
        this.is_internal = d.bool()?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            DescribeTopicPartitionsResponsePartition::read(d, version)
        })?;
        this.topic_authorized_operations = d.i32()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeTopicPartitionsResponseTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeTopicPartitionsResponseTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.name = if rng.null() { None } else { Some(rng.string()) };
        this.topic_id = rng.uuid();
        this.is_internal = rng.bool();
        this.partitions = (0..rng.len())
            .map(|_| DescribeTopicPartitionsResponsePartition::random_value(rng, version))
            .collect();
        this.topic_authorized_operations = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeTopicPartitionsResponsePartition` of [`DescribeTopicPartitionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeTopicPartitionsResponsePartition {
    /// The partition error, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The ID of the leader broker.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The leader epoch of this partition.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// The set of all nodes that host this partition.
    ///
    /// Versions: 0+.
    pub replica_nodes: Vec<i32>,
    /// The set of nodes that are in sync with the leader for this partition.
    ///
    /// Versions: 0+.
    pub isr_nodes: Vec<i32>,
    /// The new eligible leader replicas otherwise.
    ///
    /// Versions: 0+.
    pub eligible_leader_replicas: Option<Vec<i32>>,
    /// The last known ELR.
    ///
    /// Versions: 0+.
    pub last_known_elr: Option<Vec<i32>>,
    /// The set of offline replicas of this partition.
    ///
    /// Versions: 0+.
    pub offline_replicas: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeTopicPartitionsResponsePartition {
    fn default() -> Self {
        DescribeTopicPartitionsResponsePartition {
            error_code: 0,
            partition_index: 0,
            leader_id: 0,
            leader_epoch: -1,
            replica_nodes: Vec::<i32>::new(),
            isr_nodes: Vec::<i32>::new(),
            eligible_leader_replicas: None,
            last_known_elr: None,
            offline_replicas: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeTopicPartitionsResponsePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.error_code);
        e.i32(self.partition_index);
        e.i32(self.leader_id);
        e.i32(self.leader_epoch);
        e.array(&self.replica_nodes, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        e.array(&self.isr_nodes, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        e.nullable_array(
            self.eligible_leader_replicas.as_deref(),
            flexible,
            |e, item| {
                e.i32(*item);
                Ok(())
            },
        )?;
        e.nullable_array(self.last_known_elr.as_deref(), flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        e.array(&self.offline_replicas, flexible, |e, item| {
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
        this.error_code = d.i16()?;
        this.partition_index = d.i32()?;
        this.leader_id = d.i32()?;
        this.leader_epoch = d.i32()?;
        this.replica_nodes = d.array(flexible, "ReplicaNodes", |d| d.i32())?;
        this.isr_nodes = d.array(flexible, "IsrNodes", |d| d.i32())?;
        this.eligible_leader_replicas = d.nullable_array(flexible, |d| d.i32())?;
        this.last_known_elr = d.nullable_array(flexible, |d| d.i32())?;
        this.offline_replicas = d.array(flexible, "OfflineReplicas", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeTopicPartitionsResponsePartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeTopicPartitionsResponsePartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.partition_index = rng.i32();
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        this.replica_nodes = (0..rng.len()).map(|_| rng.i32()).collect();
        this.isr_nodes = (0..rng.len()).map(|_| rng.i32()).collect();
        this.eligible_leader_replicas = if rng.null() {
            None
        } else {
            Some((0..rng.len()).map(|_| rng.i32()).collect())
        };
        this.last_known_elr = if rng.null() {
            None
        } else {
            Some((0..rng.len()).map(|_| rng.i32()).collect())
        };
        this.offline_replicas = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Cursor` of [`DescribeTopicPartitionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    /// The name for the first topic to process.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// The partition index to start with.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Cursor {
    fn default() -> Self {
        Cursor {
            topic_name: String::from(""),
            partition_index: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Cursor {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.topic_name, flexible)?;
        e.i32(self.partition_index);
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
        this.topic_name = d.string(flexible, "TopicName")?;
        this.partition_index = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Cursor", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Cursor {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_name = rng.string();
        this.partition_index = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeTopicPartitionsResponse {
    const NAME: &'static str = "DescribeTopicPartitionsResponse";
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
impl crate::testing::Random for DescribeTopicPartitionsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
