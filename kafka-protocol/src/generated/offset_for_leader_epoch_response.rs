//! `OffsetForLeaderEpochResponse`, generated from Kafka's `OffsetForLeaderEpochResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// OffsetForLeaderEpochResponse (valid versions 2-4, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetForLeaderEpochResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 2+.
    pub throttle_time_ms: i32,
    /// Each topic we fetched offsets for.
    ///
    /// Versions: 0+.
    pub topics: Vec<OffsetForLeaderTopicResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetForLeaderEpochResponse {
    fn default() -> Self {
        OffsetForLeaderEpochResponse {
            throttle_time_ms: 0,
            topics: Vec::<OffsetForLeaderTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetForLeaderEpochResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.i32(self.throttle_time_ms);
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
        let flexible = version == 4;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.topics = d.array(flexible, "Topics", |d| {
            OffsetForLeaderTopicResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetForLeaderEpochResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetForLeaderEpochResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.topics = (0..rng.len())
            .map(|_| OffsetForLeaderTopicResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetForLeaderTopicResult` of [`OffsetForLeaderEpochResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetForLeaderTopicResult {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic: String,
    /// Each partition in the topic we fetched offsets for.
    ///
    /// Versions: 0+.
    pub partitions: Vec<EpochEndOffset>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetForLeaderTopicResult {
    fn default() -> Self {
        OffsetForLeaderTopicResult {
            topic: String::from(""),
            partitions: Vec::<EpochEndOffset>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetForLeaderTopicResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.string(&self.topic, flexible)?;
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
        let flexible = version == 4;
        let mut this = Self::default();
        this.topic = d.string(flexible, "Topic")?;
        this.partitions = d.array(flexible, "Partitions", |d| EpochEndOffset::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetForLeaderTopicResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetForLeaderTopicResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.topic = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| EpochEndOffset::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `EpochEndOffset` of [`OffsetForLeaderEpochResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct EpochEndOffset {
    /// The error code 0, or if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition: i32,
    /// The leader epoch of the partition.
    ///
    /// Versions: 1+.
    pub leader_epoch: i32,
    /// The end offset of the epoch.
    ///
    /// Versions: 0+.
    pub end_offset: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for EpochEndOffset {
    fn default() -> Self {
        EpochEndOffset {
            error_code: 0,
            partition: 0,
            leader_epoch: -1,
            end_offset: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EpochEndOffset {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.i16(self.error_code);
        e.i32(self.partition);
        e.i32(self.leader_epoch);
        e.i64(self.end_offset);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 4;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.partition = d.i32()?;
        this.leader_epoch = d.i32()?;
        this.end_offset = d.i64()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("EpochEndOffset", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl EpochEndOffset {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.partition = rng.i32();
        this.leader_epoch = rng.i32();
        this.end_offset = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for OffsetForLeaderEpochResponse {
    const NAME: &'static str = "OffsetForLeaderEpochResponse";
    const VALID_VERSIONS: (i16, i16) = (2, 4);
    const FLEXIBLE_MIN: Option<i16> = Some(4);
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
impl crate::testing::Random for OffsetForLeaderEpochResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
