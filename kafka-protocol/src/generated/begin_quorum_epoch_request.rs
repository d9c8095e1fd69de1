//! `BeginQuorumEpochRequest`, generated from Kafka's `BeginQuorumEpochRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// BeginQuorumEpochRequest (valid versions 0-1, flexible from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct BeginQuorumEpochRequest {
    /// The cluster id.
    ///
    /// Versions: 0+.
    pub cluster_id: Option<String>,
    /// The replica id of the voter receiving the request.
    ///
    /// Versions: 1+.
    pub voter_id: i32,
    /// The topics.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicData>,
    /// Endpoints for the leader.
    ///
    /// Versions: 1+.
    pub leader_endpoints: Vec<LeaderEndpoint>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for BeginQuorumEpochRequest {
    fn default() -> Self {
        BeginQuorumEpochRequest {
            cluster_id: None,
            voter_id: -1,
            topics: Vec::<TopicData>::new(),
            leader_endpoints: Vec::<LeaderEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BeginQuorumEpochRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.nullable_string(self.cluster_id.as_deref(), flexible)?;
        if version == 1 {
            e.i32(self.voter_id);
        }
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version == 1 {
            e.array(&self.leader_endpoints, flexible, |e, item| {
                item.write(e, version)?;
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
        let flexible = version == 1;
        let mut this = Self::default();
        this.cluster_id = d.nullable_string(flexible)?;
        if version == 1 {
            this.voter_id = d.i32()?;
        }
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
        if version == 1 {
            this.leader_endpoints = d.array(flexible, "LeaderEndpoints", |d| {
                LeaderEndpoint::read(d, version)
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("BeginQuorumEpochRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl BeginQuorumEpochRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.cluster_id = if rng.null() { None } else { Some(rng.string()) };
        if version == 1 {
            this.voter_id = rng.i32();
        }
        this.topics = (0..rng.len())
            .map(|_| TopicData::random_value(rng, version))
            .collect();
        if version == 1 {
            this.leader_endpoints = (0..rng.len())
                .map(|_| LeaderEndpoint::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicData` of [`BeginQuorumEpochRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicData {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// The partitions.
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

/// A `PartitionData` of [`BeginQuorumEpochRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The directory id of the receiving replica.
    ///
    /// Versions: 1+.
    pub voter_directory_id: Uuid,
    /// The ID of the newly elected leader.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The epoch of the newly elected leader.
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
            voter_directory_id: Uuid::nil(),
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
        if version == 1 {
            e.uuid(&self.voter_directory_id);
        }
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
        if version == 1 {
            this.voter_directory_id = d.uuid()?;
        }
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
        if version == 1 {
            this.voter_directory_id = rng.uuid();
        }
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `LeaderEndpoint` of [`BeginQuorumEpochRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderEndpoint {
    /// The name of the endpoint.
    ///
    /// Versions: 1+.
    pub name: String,
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

impl Default for LeaderEndpoint {
    fn default() -> Self {
        LeaderEndpoint {
            name: String::from(""),
            host: String::from(""),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderEndpoint {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        if version == 1 {
            e.string(&self.name, flexible)?;
        }
        if version == 0 {
            if self.name != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "LeaderEndpoint",
                    field: "Name",
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
                    message: "LeaderEndpoint",
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
                    message: "LeaderEndpoint",
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
            this.name = d.string(flexible, "Name")?;
        }
        if version == 1 {
            this.host = d.string(flexible, "Host")?;
        }
        if version == 1 {
            this.port = d.u16()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("LeaderEndpoint", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl LeaderEndpoint {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        if version == 1 {
            this.name = rng.string();
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

impl crate::Message for BeginQuorumEpochRequest {
    const NAME: &'static str = "BeginQuorumEpochRequest";
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
impl crate::testing::Random for BeginQuorumEpochRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
