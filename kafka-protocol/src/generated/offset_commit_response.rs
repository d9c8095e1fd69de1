//! `OffsetCommitResponse`, generated from Kafka's `OffsetCommitResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// OffsetCommitResponse (valid versions 2-10, flexible from 8).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetCommitResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 3+.
    pub throttle_time_ms: i32,
    /// The responses for each topic.
    ///
    /// Versions: 0+.
    pub topics: Vec<OffsetCommitResponseTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetCommitResponse {
    fn default() -> Self {
        OffsetCommitResponse {
            throttle_time_ms: 0,
            topics: Vec::<OffsetCommitResponseTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetCommitResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 8;
        if version >= 3 {
            e.i32(self.throttle_time_ms);
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
        let flexible = version >= 8;
        let mut this = Self::default();
        if version >= 3 {
            this.throttle_time_ms = d.i32()?;
        }
        this.topics = d.array(flexible, "Topics", |d| {
            OffsetCommitResponseTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetCommitResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetCommitResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 8;
        let mut this = Self::default();
        if version >= 3 {
            this.throttle_time_ms = rng.i32();
        }
        this.topics = (0..rng.len())
            .map(|_| OffsetCommitResponseTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetCommitResponseTopic` of [`OffsetCommitResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetCommitResponseTopic {
    /// The topic name.
    ///
    /// Versions: 0-9.
    pub name: String,
    /// The topic ID.
    ///
    /// Versions: 10+.
    pub topic_id: Uuid,
    /// The responses for each partition in the topic.
    ///
    /// Versions: 0+.
    pub partitions: Vec<OffsetCommitResponsePartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetCommitResponseTopic {
    fn default() -> Self {
        OffsetCommitResponseTopic {
            name: String::from(""),
            topic_id: Uuid::nil(),
            partitions: Vec::<OffsetCommitResponsePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetCommitResponseTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 8;
        if version <= 9 {
            e.string(&self.name, flexible)?;
        }
        if version == 10 {
            e.uuid(&self.topic_id);
        }
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
        let flexible = version >= 8;
        let mut this = Self::default();
        if version <= 9 {
            this.name = d.string(flexible, "Name")?;
        }
        if version == 10 {
            this.topic_id = d.uuid()?;
        }
        this.partitions = d.array(flexible, "Partitions", |d| {
            OffsetCommitResponsePartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetCommitResponseTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetCommitResponseTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 8;
        let mut this = Self::default();
        if version <= 9 {
            this.name = rng.string();
        }
        if version == 10 {
            this.topic_id = rng.uuid();
        }
        this.partitions = (0..rng.len())
            .map(|_| OffsetCommitResponsePartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetCommitResponsePartition` of [`OffsetCommitResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetCommitResponsePartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetCommitResponsePartition {
    fn default() -> Self {
        OffsetCommitResponsePartition {
            partition_index: 0,
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetCommitResponsePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 8;
        e.i32(self.partition_index);
        e.i16(self.error_code);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 8;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.error_code = d.i16()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetCommitResponsePartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetCommitResponsePartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 8;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for OffsetCommitResponse {
    const NAME: &'static str = "OffsetCommitResponse";
    const VALID_VERSIONS: (i16, i16) = (2, 10);
    const FLEXIBLE_MIN: Option<i16> = Some(8);
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
impl crate::testing::Random for OffsetCommitResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
