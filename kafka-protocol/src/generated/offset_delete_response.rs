//! `OffsetDeleteResponse`, generated from Kafka's `OffsetDeleteResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// OffsetDeleteResponse (valid versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetDeleteResponse {
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The responses for each topic.
    ///
    /// Versions: 0+.
    pub topics: Vec<OffsetDeleteResponseTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetDeleteResponse {
    fn default() -> Self {
        OffsetDeleteResponse {
            error_code: 0,
            throttle_time_ms: 0,
            topics: Vec::<OffsetDeleteResponseTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetDeleteResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.i16(self.error_code);
        e.i32(self.throttle_time_ms);
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.throttle_time_ms = d.i32()?;
        this.topics = d.array(flexible, "Topics", |d| {
            OffsetDeleteResponseTopic::read(d, version)
        })?;
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetDeleteResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.throttle_time_ms = rng.i32();
        this.topics = (0..rng.len())
            .map(|_| OffsetDeleteResponseTopic::random_value(rng, version))
            .collect();
        this
    }
}

/// A `OffsetDeleteResponseTopic` of [`OffsetDeleteResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetDeleteResponseTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The responses for each partition in the topic.
    ///
    /// Versions: 0+.
    pub partitions: Vec<OffsetDeleteResponsePartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetDeleteResponseTopic {
    fn default() -> Self {
        OffsetDeleteResponseTopic {
            name: String::from(""),
            partitions: Vec::<OffsetDeleteResponsePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetDeleteResponseTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.string(&self.name, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            OffsetDeleteResponsePartition::read(d, version)
        })?;
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetDeleteResponseTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| OffsetDeleteResponsePartition::random_value(rng, version))
            .collect();
        this
    }
}

/// A `OffsetDeleteResponsePartition` of [`OffsetDeleteResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetDeleteResponsePartition {
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

impl Default for OffsetDeleteResponsePartition {
    fn default() -> Self {
        OffsetDeleteResponsePartition {
            partition_index: 0,
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetDeleteResponsePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.i32(self.partition_index);
        e.i16(self.error_code);
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.error_code = d.i16()?;
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetDeleteResponsePartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        this
    }
}

impl crate::Message for OffsetDeleteResponse {
    const NAME: &'static str = "OffsetDeleteResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 0);
    const FLEXIBLE_MIN: Option<i16> = None;
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
impl crate::testing::Random for OffsetDeleteResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
