//! `ShareFetchResponse`, generated from Kafka's `ShareFetchResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ShareFetchResponse (valid versions 1-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareFetchResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The top-level response error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The time in milliseconds for which the acquired records are locked.
    ///
    /// Versions: 1+.
    pub acquisition_lock_timeout_ms: i32,
    /// The response topics.
    ///
    /// Versions: 0+.
    pub responses: Vec<ShareFetchableTopicResponse>,
    /// Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER.
    ///
    /// Versions: 0+.
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ShareFetchResponse {
    fn default() -> Self {
        ShareFetchResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: None,
            acquisition_lock_timeout_ms: 0,
            responses: Vec::<ShareFetchableTopicResponse>::new(),
            node_endpoints: Vec::<NodeEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareFetchResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.i32(self.acquisition_lock_timeout_ms);
        e.array(&self.responses, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.node_endpoints, flexible, |e, item| {
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
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.acquisition_lock_timeout_ms = d.i32()?;
        this.responses = d.array(flexible, "Responses", |d| {
            ShareFetchableTopicResponse::read(d, version)
        })?;
        this.node_endpoints = d.array(flexible, "NodeEndpoints", |d| {
            NodeEndpoint::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ShareFetchResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ShareFetchResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.acquisition_lock_timeout_ms = rng.i32();
        this.responses = (0..rng.len())
            .map(|_| ShareFetchableTopicResponse::random_value(rng, version))
            .collect();
        this.node_endpoints = (0..rng.len())
            .map(|_| NodeEndpoint::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ShareFetchableTopicResponse` of [`ShareFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ShareFetchableTopicResponse {
    /// The unique topic ID.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The topic partitions.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ShareFetchableTopicResponse {
    fn default() -> Self {
        ShareFetchableTopicResponse {
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareFetchableTopicResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.uuid(&self.topic_id);
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
        this.topic_id = d.uuid()?;
        this.partitions = d.array(flexible, "Partitions", |d| PartitionData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ShareFetchableTopicResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ShareFetchableTopicResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_id = rng.uuid();
        this.partitions = (0..rng.len())
            .map(|_| PartitionData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionData` of [`ShareFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The fetch error code, or 0 if there was no fetch error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The fetch error message, or null if there was no fetch error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The acknowledge error code, or 0 if there was no acknowledge error.
    ///
    /// Versions: 0+.
    pub acknowledge_error_code: i16,
    /// The acknowledge error message, or null if there was no acknowledge error.
    ///
    /// Versions: 0+.
    pub acknowledge_error_message: Option<String>,
    /// The current leader of the partition.
    ///
    /// Versions: 0+.
    pub current_leader: LeaderIdAndEpoch,
    /// The record data.
    ///
    /// Versions: 0+.
    pub records: Option<Bytes>,
    /// The acquired records.
    ///
    /// Versions: 0+.
    pub acquired_records: Vec<AcquiredRecords>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            error_code: 0,
            error_message: None,
            acknowledge_error_code: 0,
            acknowledge_error_message: None,
            current_leader: LeaderIdAndEpoch::default(),
            records: None,
            acquired_records: Vec::<AcquiredRecords>::new(),
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
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.i16(self.acknowledge_error_code);
        e.nullable_string(self.acknowledge_error_message.as_deref(), flexible)?;
        self.current_leader.write(e, version)?;
        if self.records.is_none() {
            return Err(EncodeError::NullNotAllowed {
                message: "PartitionData",
                field: "Records",
                version,
            });
        }
        e.nullable_bytes(self.records.as_ref(), flexible)?;
        e.array(&self.acquired_records, flexible, |e, item| {
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
        this.error_message = d.nullable_string(flexible)?;
        this.acknowledge_error_code = d.i16()?;
        this.acknowledge_error_message = d.nullable_string(flexible)?;
        this.current_leader = LeaderIdAndEpoch::read(d, version)?;
        this.records = Some(d.bytes(flexible, "Records")?);
        this.acquired_records = d.array(flexible, "AcquiredRecords", |d| {
            AcquiredRecords::read(d, version)
        })?;
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
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.acknowledge_error_code = rng.i16();
        this.acknowledge_error_message = if rng.null() { None } else { Some(rng.string()) };
        this.current_leader = LeaderIdAndEpoch::random_value(rng, version);
        this.records = Some(rng.bytes());
        this.acquired_records = (0..rng.len())
            .map(|_| AcquiredRecords::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `LeaderIdAndEpoch` of [`ShareFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderIdAndEpoch {
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

impl Default for LeaderIdAndEpoch {
    fn default() -> Self {
        LeaderIdAndEpoch {
            leader_id: 0,
            leader_epoch: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderIdAndEpoch {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
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
        let flexible = true;
        let mut this = Self::default();
        this.leader_id = d.i32()?;
        this.leader_epoch = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("LeaderIdAndEpoch", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl LeaderIdAndEpoch {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AcquiredRecords` of [`ShareFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct AcquiredRecords {
    /// The earliest offset in this batch of acquired records.
    ///
    /// Versions: 0+.
    pub first_offset: i64,
    /// The last offset of this batch of acquired records.
    ///
    /// Versions: 0+.
    pub last_offset: i64,
    /// The delivery count of this batch of acquired records.
    ///
    /// Versions: 0+.
    pub delivery_count: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AcquiredRecords {
    fn default() -> Self {
        AcquiredRecords {
            first_offset: 0,
            last_offset: 0,
            delivery_count: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AcquiredRecords {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i64(self.first_offset);
        e.i64(self.last_offset);
        e.i16(self.delivery_count);
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
        this.first_offset = d.i64()?;
        this.last_offset = d.i64()?;
        this.delivery_count = d.i16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("AcquiredRecords", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AcquiredRecords {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.first_offset = rng.i64();
        this.last_offset = rng.i64();
        this.delivery_count = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `NodeEndpoint` of [`ShareFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    ///
    /// Versions: 0+.
    pub node_id: i32,
    /// The node's hostname.
    ///
    /// Versions: 0+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions: 0+.
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    ///
    /// Versions: 0+.
    pub rack: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for NodeEndpoint {
    fn default() -> Self {
        NodeEndpoint {
            node_id: 0,
            host: String::from(""),
            port: 0,
            rack: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl NodeEndpoint {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.node_id);
        e.string(&self.host, flexible)?;
        e.i32(self.port);
        e.nullable_string(self.rack.as_deref(), flexible)?;
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
        this.node_id = d.i32()?;
        this.host = d.string(flexible, "Host")?;
        this.port = d.i32()?;
        this.rack = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("NodeEndpoint", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl NodeEndpoint {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.node_id = rng.i32();
        this.host = rng.string();
        this.port = rng.i32();
        this.rack = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ShareFetchResponse {
    const NAME: &'static str = "ShareFetchResponse";
    const VALID_VERSIONS: (i16, i16) = (1, 2);
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
impl crate::testing::Random for ShareFetchResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
