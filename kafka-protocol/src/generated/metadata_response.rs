//! `MetadataResponse`, generated from Kafka's `MetadataResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// MetadataResponse (valid versions 0-13, flexible from 9).
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 3+.
    pub throttle_time_ms: i32,
    /// A list of brokers present in the cluster.
    ///
    /// Versions: 0+.
    pub brokers: Vec<MetadataResponseBroker>,
    /// The cluster ID that responding broker belongs to.
    ///
    /// Versions: 2+.
    pub cluster_id: Option<String>,
    /// The ID of the controller broker.
    ///
    /// Versions: 1+.
    pub controller_id: i32,
    /// Each topic in the response.
    ///
    /// Versions: 0+.
    pub topics: Vec<MetadataResponseTopic>,
    /// 32-bit bitfield to represent authorized operations for this cluster.
    ///
    /// Versions: 8-10.
    pub cluster_authorized_operations: i32,
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions: 13+.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for MetadataResponse {
    fn default() -> Self {
        MetadataResponse {
            throttle_time_ms: 0,
            brokers: Vec::<MetadataResponseBroker>::new(),
            cluster_id: None,
            controller_id: -1,
            topics: Vec::<MetadataResponseTopic>::new(),
            cluster_authorized_operations: -2147483648,
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        if version >= 3 {
            e.i32(self.throttle_time_ms);
        }
        e.array(&self.brokers, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 2 {
            if self.cluster_id.is_none() && !(version >= 2) {
                return Err(EncodeError::NullNotAllowed {
                    message: "MetadataResponse",
                    field: "ClusterId",
                    version,
                });
            }
            e.nullable_string(self.cluster_id.as_deref(), flexible)?;
        }
        if version >= 1 {
            e.i32(self.controller_id);
        }
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if (8..=10).contains(&version) {
            e.i32(self.cluster_authorized_operations);
        }
        if matches!(version, 0..=7 | 11..=13) {
            if self.cluster_authorized_operations != -2147483648 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MetadataResponse",
                    field: "ClusterAuthorizedOperations",
                    version,
                });
            }
        }
        if version == 13 {
            e.i16(self.error_code);
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 3 {
            this.throttle_time_ms = d.i32()?;
        }
        this.brokers = d.array(flexible, "Brokers", |d| {
            MetadataResponseBroker::read(d, version)
        })?;
        if version >= 2 {
            this.cluster_id = if version >= 2 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ClusterId")?)
            };
        }
        if version >= 1 {
            this.controller_id = d.i32()?;
        }
        this.topics = d.array(flexible, "Topics", |d| {
            MetadataResponseTopic::read(d, version)
        })?;
        if (8..=10).contains(&version) {
            this.cluster_authorized_operations = d.i32()?;
        }
        if version == 13 {
            this.error_code = d.i16()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("MetadataResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl MetadataResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 3 {
            this.throttle_time_ms = rng.i32();
        }
        this.brokers = (0..rng.len())
            .map(|_| MetadataResponseBroker::random_value(rng, version))
            .collect();
        if version >= 2 {
            this.cluster_id = if version >= 2 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version >= 1 {
            this.controller_id = rng.i32();
        }
        this.topics = (0..rng.len())
            .map(|_| MetadataResponseTopic::random_value(rng, version))
            .collect();
        if (8..=10).contains(&version) {
            this.cluster_authorized_operations = rng.i32();
        }
        if version == 13 {
            this.error_code = rng.i16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `MetadataResponseBroker` of [`MetadataResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataResponseBroker {
    /// The broker ID.
    ///
    /// Versions: 0+.
    pub node_id: i32,
    /// The broker hostname.
    ///
    /// Versions: 0+.
    pub host: String,
    /// The broker port.
    ///
    /// Versions: 0+.
    pub port: i32,
    /// The rack of the broker, or null if it has not been assigned to a rack.
    ///
    /// Versions: 1+.
    pub rack: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for MetadataResponseBroker {
    fn default() -> Self {
        MetadataResponseBroker {
            node_id: 0,
            host: String::from(""),
            port: 0,
            rack: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataResponseBroker {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        e.i32(self.node_id);
        e.string(&self.host, flexible)?;
        e.i32(self.port);
        if version >= 1 {
            if self.rack.is_none() && !(version >= 1) {
                return Err(EncodeError::NullNotAllowed {
                    message: "MetadataResponseBroker",
                    field: "Rack",
                    version,
                });
            }
            e.nullable_string(self.rack.as_deref(), flexible)?;
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.node_id = d.i32()?;
        this.host = d.string(flexible, "Host")?;
        this.port = d.i32()?;
        if version >= 1 {
            this.rack = if version >= 1 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "Rack")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("MetadataResponseBroker", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl MetadataResponseBroker {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.node_id = rng.i32();
        this.host = rng.string();
        this.port = rng.i32();
        if version >= 1 {
            this.rack = if version >= 1 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `MetadataResponseTopic` of [`MetadataResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataResponseTopic {
    /// The topic error, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The topic name. Null for non-existing topics queried by ID. This is never null when ErrorCode is zero. One of Name and TopicId is always populated.
    ///
    /// Versions: 0+.
    pub name: Option<String>,
    /// The topic id. Zero for non-existing topics queried by name. This is never zero when ErrorCode is zero. One of Name and TopicId is always populated.
    ///
    /// Versions: 10+.
    pub topic_id: Uuid,
    /// True if the topic is internal.
    ///
    /// Versions: 1+.
    pub is_internal: bool,
    /// Each partition in the topic.
    ///
    /// Versions: 0+.
    pub partitions: Vec<MetadataResponsePartition>,
    /// 32-bit bitfield to represent authorized operations for this topic.
    ///
    /// Versions: 8+.
    pub topic_authorized_operations: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for MetadataResponseTopic {
    fn default() -> Self {
        MetadataResponseTopic {
            error_code: 0,
            name: Some(String::from("")),
            topic_id: Uuid::nil(),
            is_internal: false,
            partitions: Vec::<MetadataResponsePartition>::new(),
            topic_authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataResponseTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        e.i16(self.error_code);
        if self.name.is_none() && !(version >= 12) {
            return Err(EncodeError::NullNotAllowed {
                message: "MetadataResponseTopic",
                field: "Name",
                version,
            });
        }
        e.nullable_string(self.name.as_deref(), flexible)?;
        if version >= 10 {
            e.uuid(&self.topic_id);
        }
        if version >= 1 {
            e.bool(self.is_internal);
        }
        e.array(&self.partitions, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 8 {
            e.i32(self.topic_authorized_operations);
        }
        if version <= 7 {
            if self.topic_authorized_operations != -2147483648 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MetadataResponseTopic",
                    field: "TopicAuthorizedOperations",
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
        let flexible = version >= 9;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.name = if version >= 12 {
            d.nullable_string(flexible)?
        } else {
            Some(d.string(flexible, "Name")?)
        };
        if version >= 10 {
            this.topic_id = d.uuid()?;
        }
        if version >= 1 {
            this.is_internal = d.bool()?;
        }
        this.partitions = d.array(flexible, "Partitions", |d| {
            MetadataResponsePartition::read(d, version)
        })?;
        if version >= 8 {
            this.topic_authorized_operations = d.i32()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("MetadataResponseTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl MetadataResponseTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.name = if version >= 12 && rng.null() {
            None
        } else {
            Some(rng.string())
        };
        if version >= 10 {
            this.topic_id = rng.uuid();
        }
        if version >= 1 {
            this.is_internal = rng.bool();
        }
        this.partitions = (0..rng.len())
            .map(|_| MetadataResponsePartition::random_value(rng, version))
            .collect();
        if version >= 8 {
            this.topic_authorized_operations = rng.i32();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `MetadataResponsePartition` of [`MetadataResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataResponsePartition {
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
    /// Versions: 7+.
    pub leader_epoch: i32,
    /// The set of all nodes that host this partition.
    ///
    /// Versions: 0+.
    pub replica_nodes: Vec<i32>,
    /// The set of nodes that are in sync with the leader for this partition.
    ///
    /// Versions: 0+.
    pub isr_nodes: Vec<i32>,
    /// The set of offline replicas of this partition.
    ///
    /// Versions: 5+.
    pub offline_replicas: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for MetadataResponsePartition {
    fn default() -> Self {
        MetadataResponsePartition {
            error_code: 0,
            partition_index: 0,
            leader_id: 0,
            leader_epoch: -1,
            replica_nodes: Vec::<i32>::new(),
            isr_nodes: Vec::<i32>::new(),
            offline_replicas: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataResponsePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        e.i16(self.error_code);
        e.i32(self.partition_index);
        e.i32(self.leader_id);
        if version >= 7 {
            e.i32(self.leader_epoch);
        }
        e.array(&self.replica_nodes, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        e.array(&self.isr_nodes, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        if version >= 5 {
            e.array(&self.offline_replicas, flexible, |e, item| {
                e.i32(*item);
                Ok(())
            })?;
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.partition_index = d.i32()?;
        this.leader_id = d.i32()?;
        if version >= 7 {
            this.leader_epoch = d.i32()?;
        }
        this.replica_nodes = d.array(flexible, "ReplicaNodes", |d| d.i32())?;
        this.isr_nodes = d.array(flexible, "IsrNodes", |d| d.i32())?;
        if version >= 5 {
            this.offline_replicas = d.array(flexible, "OfflineReplicas", |d| d.i32())?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("MetadataResponsePartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl MetadataResponsePartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.partition_index = rng.i32();
        this.leader_id = rng.i32();
        if version >= 7 {
            this.leader_epoch = rng.i32();
        }
        this.replica_nodes = (0..rng.len()).map(|_| rng.i32()).collect();
        this.isr_nodes = (0..rng.len()).map(|_| rng.i32()).collect();
        if version >= 5 {
            this.offline_replicas = (0..rng.len()).map(|_| rng.i32()).collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for MetadataResponse {
    const NAME: &'static str = "MetadataResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 13);
    const FLEXIBLE_MIN: Option<i16> = Some(9);
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
impl crate::testing::Random for MetadataResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
