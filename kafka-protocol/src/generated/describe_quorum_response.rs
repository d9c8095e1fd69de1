//! `DescribeQuorumResponse`, generated from Kafka's `DescribeQuorumResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeQuorumResponse (valid versions 0-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeQuorumResponse {
    /// The top level error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 2+.
    pub error_message: Option<String>,
    /// The response from the describe quorum API.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicData>,
    /// The nodes in the quorum.
    ///
    /// Versions: 2+.
    pub nodes: Vec<Node>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeQuorumResponse {
    fn default() -> Self {
        DescribeQuorumResponse {
            error_code: 0,
            error_message: Some(String::from("")),
            topics: Vec::<TopicData>::new(),
            nodes: Vec::<Node>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeQuorumResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.error_code);
        if version == 2 {
            if self.error_message.is_none() && !(version == 2) {
                return Err(EncodeError::NullNotAllowed {
                    message: "DescribeQuorumResponse",
                    field: "ErrorMessage",
                    version,
                });
            }
            e.nullable_string(self.error_message.as_deref(), flexible)?;
        }
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version == 2 {
            e.array(&self.nodes, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 1 {
            if self.nodes != Vec::<Node>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribeQuorumResponse",
                    field: "Nodes",
                    version,
                });
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
        this.error_code = d.i16()?;
        if version == 2 {
            this.error_message = if version == 2 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ErrorMessage")?)
            };
        }
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
        if version == 2 {
            this.nodes = d.array(flexible, "Nodes", |d| Node::read(d, version))?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeQuorumResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeQuorumResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.error_code = rng.i16();
        if version == 2 {
            this.error_message = if version == 2 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.topics = (0..rng.len())
            .map(|_| TopicData::random_value(rng, version))
            .collect();
        if version == 2 {
            this.nodes = (0..rng.len())
                .map(|_| Node::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicData` of [`DescribeQuorumResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicData {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// The partition data.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicData {
    fn default() -> Self {
        TopicData {
            topic_name: String::from(""),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.topic_name, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
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
        this.topic_name = d.string(flexible, "TopicName")?;
        this.partitions = d.array(flexible, "Partitions", |d| PartitionData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TopicData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| PartitionData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionData` of [`DescribeQuorumResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The partition error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 2+.
    pub error_message: Option<String>,
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// The high water mark.
    ///
    /// Versions: 0+.
    pub high_watermark: i64,
    /// The current voters of the partition.
    ///
    /// Versions: 0+.
    pub current_voters: Vec<ReplicaState>,
    /// The observers of the partition.
    ///
    /// Versions: 0+.
    pub observers: Vec<ReplicaState>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            leader_id: 0,
            leader_epoch: 0,
            high_watermark: 0,
            current_voters: Vec::<ReplicaState>::new(),
            observers: Vec::<ReplicaState>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.i16(self.error_code);
        if version == 2 {
            if self.error_message.is_none() && !(version == 2) {
                return Err(EncodeError::NullNotAllowed {
                    message: "PartitionData",
                    field: "ErrorMessage",
                    version,
                });
            }
            e.nullable_string(self.error_message.as_deref(), flexible)?;
        }
        e.i32(self.leader_id);
        e.i32(self.leader_epoch);
        e.i64(self.high_watermark);
        e.array(&self.current_voters, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.observers, flexible, |e, item| {
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
        this.partition_index = d.i32()?;
        this.error_code = d.i16()?;
        if version == 2 {
            this.error_message = if version == 2 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ErrorMessage")?)
            };
        }
        this.leader_id = d.i32()?;
        this.leader_epoch = d.i32()?;
        this.high_watermark = d.i64()?;
        this.current_voters = d.array(flexible, "CurrentVoters", |d| {
            ReplicaState::read(d, version)
        })?;
        this.observers = d.array(flexible, "Observers", |d| ReplicaState::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("PartitionData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl PartitionData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        if version == 2 {
            this.error_message = if version == 2 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        this.high_watermark = rng.i64();
        this.current_voters = (0..rng.len())
            .map(|_| ReplicaState::random_value(rng, version))
            .collect();
        this.observers = (0..rng.len())
            .map(|_| ReplicaState::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Node` of [`DescribeQuorumResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The ID of the associated node.
    ///
    /// Versions: 2+.
    pub node_id: i32,
    /// The listeners of this controller.
    ///
    /// Versions: 2+.
    pub listeners: Vec<Listener>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Node {
    fn default() -> Self {
        Node {
            node_id: 0,
            listeners: Vec::<Listener>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Node {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        if version == 2 {
            e.i32(self.node_id);
        }
        if version <= 1 {
            if self.node_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Node",
                    field: "NodeId",
                    version,
                });
            }
        }
        if version == 2 {
            e.array(&self.listeners, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 1 {
            if self.listeners != Vec::<Listener>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Node",
                    field: "Listeners",
                    version,
                });
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
        if version == 2 {
            this.node_id = d.i32()?;
        }
        if version == 2 {
            this.listeners = d.array(flexible, "Listeners", |d| Listener::read(d, version))?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Node", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Node {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        if version == 2 {
            this.node_id = rng.i32();
        }
        if version == 2 {
            this.listeners = (0..rng.len())
                .map(|_| Listener::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Listener` of [`DescribeQuorumResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Listener {
    /// The name of the endpoint.
    ///
    /// Versions: 2+.
    pub name: String,
    /// The hostname.
    ///
    /// Versions: 2+.
    pub host: String,
    /// The port.
    ///
    /// Versions: 2+.
    pub port: u16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Listener {
    fn default() -> Self {
        Listener {
            name: String::from(""),
            host: String::from(""),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Listener {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        if version == 2 {
            e.string(&self.name, flexible)?;
        }
        if version <= 1 {
            if self.name != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Listener",
                    field: "Name",
                    version,
                });
            }
        }
        if version == 2 {
            e.string(&self.host, flexible)?;
        }
        if version <= 1 {
            if self.host != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Listener",
                    field: "Host",
                    version,
                });
            }
        }
        if version == 2 {
            e.u16(self.port);
        }
        if version <= 1 {
            if self.port != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Listener",
                    field: "Port",
                    version,
                });
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
        if version == 2 {
            this.name = d.string(flexible, "Name")?;
        }
        if version == 2 {
            this.host = d.string(flexible, "Host")?;
        }
        if version == 2 {
            this.port = d.u16()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Listener", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Listener {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        if version == 2 {
            this.name = rng.string();
        }
        if version == 2 {
            this.host = rng.string();
        }
        if version == 2 {
            this.port = rng.u16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReplicaState` of [`DescribeQuorumResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaState {
    /// The ID of the replica.
    ///
    /// Versions: 0+.
    pub replica_id: i32,
    /// The replica directory ID of the replica.
    ///
    /// Versions: 2+.
    pub replica_directory_id: Uuid,
    /// The last known log end offset of the follower or -1 if it is unknown.
    ///
    /// Versions: 0+.
    pub log_end_offset: i64,
    /// The last known leader wall clock time time when a follower fetched from the leader. This is reported as -1 both for the current leader or if it is unknown for a voter.
    ///
    /// Versions: 1+.
    pub last_fetch_timestamp: i64,
    /// The leader wall clock append time of the offset for which the follower made the most recent fetch request. This is reported as the current time for the leader and -1 if unknown for a voter.
    ///
    /// Versions: 1+.
    pub last_caught_up_timestamp: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReplicaState {
    fn default() -> Self {
        ReplicaState {
            replica_id: 0,
            replica_directory_id: Uuid::nil(),
            log_end_offset: 0,
            last_fetch_timestamp: -1,
            last_caught_up_timestamp: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReplicaState {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.replica_id);
        if version == 2 {
            e.uuid(&self.replica_directory_id);
        }
        if version <= 1 {
            if self.replica_directory_id != Uuid::nil() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ReplicaState",
                    field: "ReplicaDirectoryId",
                    version,
                });
            }
        }
        e.i64(self.log_end_offset);
        if version >= 1 {
            e.i64(self.last_fetch_timestamp);
        }
        if version >= 1 {
            e.i64(self.last_caught_up_timestamp);
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
        this.replica_id = d.i32()?;
        if version == 2 {
            this.replica_directory_id = d.uuid()?;
        }
        this.log_end_offset = d.i64()?;
        if version >= 1 {
            this.last_fetch_timestamp = d.i64()?;
        }
        if version >= 1 {
            this.last_caught_up_timestamp = d.i64()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ReplicaState", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReplicaState {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.replica_id = rng.i32();
        if version == 2 {
            this.replica_directory_id = rng.uuid();
        }
        this.log_end_offset = rng.i64();
        if version >= 1 {
            this.last_fetch_timestamp = rng.i64();
        }
        if version >= 1 {
            this.last_caught_up_timestamp = rng.i64();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeQuorumResponse {
    const NAME: &'static str = "DescribeQuorumResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
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
impl crate::testing::Random for DescribeQuorumResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
