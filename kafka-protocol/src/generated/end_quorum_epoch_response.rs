//! `EndQuorumEpochResponse`, generated from Kafka's `EndQuorumEpochResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// EndQuorumEpochResponse (valid versions 0-1, flexible from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct EndQuorumEpochResponse {
    /// The top level error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The topic data.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicData>,
    /// Endpoints for all leaders enumerated in PartitionData.
    ///
    /// Versions: 1+.
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for EndQuorumEpochResponse {
    fn default() -> Self {
        EndQuorumEpochResponse {
            error_code: 0,
            topics: Vec::<TopicData>::new(),
            node_endpoints: Vec::<NodeEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EndQuorumEpochResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.i16(self.error_code);
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version == 0 {
            if self.node_endpoints != Vec::<NodeEndpoint>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "EndQuorumEpochResponse",
                    field: "NodeEndpoints",
                    version,
                });
            }
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version == 1 {
                if self.node_endpoints != Vec::<NodeEndpoint>::new() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.array(&self.node_endpoints, flexible, |e, item| {
                            item.write(e, version)?;
                            Ok(())
                        })?;
                    }
                    tagged.push((0, t));
                }
            }
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 1;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("EndQuorumEpochResponse", |tag, d| {
                match tag {
                    0 if version == 1 => {
                        this.node_endpoints = d.array(flexible, "NodeEndpoints", |d| {
                            NodeEndpoint::read(d, version)
                        })?;
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl EndQuorumEpochResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.topics = (0..rng.len())
            .map(|_| TopicData::random_value(rng, version))
            .collect();
        if version == 1 {
            this.node_endpoints = (0..rng.len())
                .map(|_| NodeEndpoint::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicData` of [`EndQuorumEpochResponse`].
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
        let flexible = version == 1;
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
        let flexible = version == 1;
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
        let flexible = version == 1;
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

/// A `PartitionData` of [`EndQuorumEpochResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The partition level error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            error_code: 0,
            leader_id: 0,
            leader_epoch: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.i32(self.partition_index);
        e.i16(self.error_code);
        e.i32(self.leader_id);
        e.i32(self.leader_epoch);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 1;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.error_code = d.i16()?;
        this.leader_id = d.i32()?;
        this.leader_epoch = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("PartitionData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl PartitionData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `NodeEndpoint` of [`EndQuorumEpochResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    ///
    /// Versions: 1+.
    pub node_id: i32,
    /// The node's hostname.
    ///
    /// Versions: 1+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions: 1+.
    pub port: u16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for NodeEndpoint {
    fn default() -> Self {
        NodeEndpoint {
            node_id: 0,
            host: String::from(""),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl NodeEndpoint {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        if version == 1 {
            e.i32(self.node_id);
        }
        if version == 0 {
            if self.node_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "NodeId",
                    version,
                });
            }
        }
        if version == 1 {
            e.string(&self.host, flexible)?;
        }
        if version == 0 {
            if self.host != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "Host",
                    version,
                });
            }
        }
        if version == 1 {
            e.u16(self.port);
        }
        if version == 0 {
            if self.port != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
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
        let flexible = version == 1;
        let mut this = Self::default();
        if version == 1 {
            this.node_id = d.i32()?;
        }
        if version == 1 {
            this.host = d.string(flexible, "Host")?;
        }
        if version == 1 {
            this.port = d.u16()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("NodeEndpoint", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl NodeEndpoint {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        if version == 1 {
            this.node_id = rng.i32();
        }
        if version == 1 {
            this.host = rng.string();
        }
        if version == 1 {
            this.port = rng.u16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for EndQuorumEpochResponse {
    const NAME: &'static str = "EndQuorumEpochResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 1);
    const FLEXIBLE_MIN: Option<i16> = Some(1);
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
impl crate::testing::Random for EndQuorumEpochResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
