//! `VoteRequest`, generated from Kafka's `VoteRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// VoteRequest (valid versions 0-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct VoteRequest {
    /// The cluster id.
    ///
    /// Versions: 0+.
    pub cluster_id: Option<String>,
    /// The replica id of the voter receiving the request.
    ///
    /// Versions: 1+.
    pub voter_id: i32,
    /// The topic data.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for VoteRequest {
    fn default() -> Self {
        VoteRequest {
            cluster_id: None,
            voter_id: -1,
            topics: Vec::<TopicData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl VoteRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.nullable_string(self.cluster_id.as_deref(), flexible)?;
        if version >= 1 {
            e.i32(self.voter_id);
        }
        e.array(&self.topics, flexible, |e, item| {
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
        this.cluster_id = d.nullable_string(flexible)?;
        if version >= 1 {
            this.voter_id = d.i32()?;
        }
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("VoteRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl VoteRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.cluster_id = if rng.null() { None } else { Some(rng.string()) };
        if version >= 1 {
            this.voter_id = rng.i32();
        }
        this.topics = (0..rng.len())
            .map(|_| TopicData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicData` of [`VoteRequest`].
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

/// A `PartitionData` of [`VoteRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The epoch of the voter sending the request
    ///
    /// Versions: 0+.
    pub replica_epoch: i32,
    /// The replica id of the voter sending the request
    ///
    /// Versions: 0+.
    pub replica_id: i32,
    /// The directory id of the voter sending the request
    ///
    /// Versions: 1+.
    pub replica_directory_id: Uuid,
    /// The directory id of the voter receiving the request
    ///
    /// Versions: 1+.
    pub voter_directory_id: Uuid,
    /// The epoch of the last record written to the metadata log.
    ///
    /// Versions: 0+.
    pub last_offset_epoch: i32,
    /// The log end offset of the metadata log of the voter sending the request.
    ///
    /// Versions: 0+.
    pub last_offset: i64,
    /// Whether the request is a PreVote request (not persisted) or not.
    ///
    /// Versions: 2+.
    pub pre_vote: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            replica_epoch: 0,
            replica_id: 0,
            replica_directory_id: Uuid::nil(),
            voter_directory_id: Uuid::nil(),
            last_offset_epoch: 0,
            last_offset: 0,
            pre_vote: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.i32(self.replica_epoch);
        e.i32(self.replica_id);
        if version >= 1 {
            e.uuid(&self.replica_directory_id);
        }
        if version >= 1 {
            e.uuid(&self.voter_directory_id);
        }
        e.i32(self.last_offset_epoch);
        e.i64(self.last_offset);
        if version == 2 {
            e.bool(self.pre_vote);
        }
        if version <= 1 {
            if self.pre_vote != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "PartitionData",
                    field: "PreVote",
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
        this.partition_index = d.i32()?;
        this.replica_epoch = d.i32()?;
        this.replica_id = d.i32()?;
        if version >= 1 {
            this.replica_directory_id = d.uuid()?;
        }
        if version >= 1 {
            this.voter_directory_id = d.uuid()?;
        }
        this.last_offset_epoch = d.i32()?;
        this.last_offset = d.i64()?;
        if version == 2 {
            this.pre_vote = d.bool()?;
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
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.replica_epoch = rng.i32();
        this.replica_id = rng.i32();
        if version >= 1 {
            this.replica_directory_id = rng.uuid();
        }
        if version >= 1 {
            this.voter_directory_id = rng.uuid();
        }
        this.last_offset_epoch = rng.i32();
        this.last_offset = rng.i64();
        if version == 2 {
            this.pre_vote = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for VoteRequest {
    const NAME: &'static str = "VoteRequest";
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
impl crate::testing::Random for VoteRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
