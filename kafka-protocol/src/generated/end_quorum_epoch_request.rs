//! `EndQuorumEpochRequest`, generated from Kafka's `EndQuorumEpochRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// EndQuorumEpochRequest (valid versions 0-1, flexible from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct EndQuorumEpochRequest {
    /// The cluster id.
    ///
    /// Versions: 0+.
    pub cluster_id: Option<String>,
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

impl Default for EndQuorumEpochRequest {
    fn default() -> Self {
        EndQuorumEpochRequest {
            cluster_id: None,
            topics: Vec::<TopicData>::new(),
            leader_endpoints: Vec::<LeaderEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EndQuorumEpochRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.nullable_string(self.cluster_id.as_deref(), flexible)?;
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
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
        if version == 1 {
            this.leader_endpoints = d.array(flexible, "LeaderEndpoints", |d| {
                LeaderEndpoint::read(d, version)
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("EndQuorumEpochRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl EndQuorumEpochRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.cluster_id = if rng.null() { None } else { Some(rng.string()) };
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

/// A `TopicData` of [`EndQuorumEpochRequest`].
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

/// A `PartitionData` of [`EndQuorumEpochRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The current leader ID that is resigning.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The current epoch.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// A sorted list of preferred successors to start the election.
    ///
    /// Versions: 0-0.
    pub preferred_successors: Vec<i32>,
    /// A sorted list of preferred candidates to start the election.
    ///
    /// Versions: 1+.
    pub preferred_candidates: Vec<ReplicaInfo>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            leader_id: 0,
            leader_epoch: 0,
            preferred_successors: Vec::<i32>::new(),
            preferred_candidates: Vec::<ReplicaInfo>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.i32(self.partition_index);
        e.i32(self.leader_id);
        e.i32(self.leader_epoch);
        if version == 0 {
            e.array(&self.preferred_successors, flexible, |e, item| {
                e.i32(*item);
                Ok(())
            })?;
        }
        if version == 1 {
            e.array(&self.preferred_candidates, flexible, |e, item| {
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
        this.partition_index = d.i32()?;
        this.leader_id = d.i32()?;
        this.leader_epoch = d.i32()?;
        if version == 0 {
            this.preferred_successors = d.array(flexible, "PreferredSuccessors", |d| d.i32())?;
        }
        if version == 1 {
            this.preferred_candidates = d.array(flexible, "PreferredCandidates", |d| {
                ReplicaInfo::read(d, version)
            })?;
        }
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
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        if version == 0 {
            this.preferred_successors = (0..rng.len()).map(|_| rng.i32()).collect();
        }
        if version == 1 {
            this.preferred_candidates = (0..rng.len())
                .map(|_| ReplicaInfo::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReplicaInfo` of [`EndQuorumEpochRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaInfo {
    /// The ID of the candidate replica.
    ///
    /// Versions: 1+.
    pub candidate_id: i32,
    /// The directory ID of the candidate replica.
    ///
    /// Versions: 1+.
    pub candidate_directory_id: Uuid,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReplicaInfo {
    fn default() -> Self {
        ReplicaInfo {
            candidate_id: 0,
            candidate_directory_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReplicaInfo {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        if version == 1 {
            e.i32(self.candidate_id);
        }
        if version == 0 {
            if self.candidate_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ReplicaInfo",
                    field: "CandidateId",
                    version,
                });
            }
        }
        if version == 1 {
            e.uuid(&self.candidate_directory_id);
        }
        if version == 0 {
            if self.candidate_directory_id != Uuid::nil() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ReplicaInfo",
                    field: "CandidateDirectoryId",
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
            this.candidate_id = d.i32()?;
        }
        if version == 1 {
            this.candidate_directory_id = d.uuid()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ReplicaInfo", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReplicaInfo {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        if version == 1 {
            this.candidate_id = rng.i32();
        }
        if version == 1 {
            this.candidate_directory_id = rng.uuid();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `LeaderEndpoint` of [`EndQuorumEpochRequest`].
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

impl crate::Message for EndQuorumEpochRequest {
    const NAME: &'static str = "EndQuorumEpochRequest";
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
impl crate::testing::Random for EndQuorumEpochRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
