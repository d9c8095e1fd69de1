//! `TxnOffsetCommitResponse`, generated from Kafka's `TxnOffsetCommitResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// TxnOffsetCommitResponse (valid versions 0-5, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The responses for each topic.
    ///
    /// Versions: 0+.
    pub topics: Vec<TxnOffsetCommitResponseTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TxnOffsetCommitResponse {
    fn default() -> Self {
        TxnOffsetCommitResponse {
            throttle_time_ms: 0,
            topics: Vec::<TxnOffsetCommitResponseTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
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
        let flexible = version >= 3;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.topics = d.array(flexible, "Topics", |d| {
            TxnOffsetCommitResponseTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("TxnOffsetCommitResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TxnOffsetCommitResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.topics = (0..rng.len())
            .map(|_| TxnOffsetCommitResponseTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TxnOffsetCommitResponseTopic` of [`TxnOffsetCommitResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitResponseTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The responses for each partition in the topic.
    ///
    /// Versions: 0+.
    pub partitions: Vec<TxnOffsetCommitResponsePartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TxnOffsetCommitResponseTopic {
    fn default() -> Self {
        TxnOffsetCommitResponseTopic {
            name: String::from(""),
            partitions: Vec::<TxnOffsetCommitResponsePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitResponseTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.string(&self.name, flexible)?;
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
        let flexible = version >= 3;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            TxnOffsetCommitResponsePartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("TxnOffsetCommitResponseTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TxnOffsetCommitResponseTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| TxnOffsetCommitResponsePartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TxnOffsetCommitResponsePartition` of [`TxnOffsetCommitResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitResponsePartition {
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

impl Default for TxnOffsetCommitResponsePartition {
    fn default() -> Self {
        TxnOffsetCommitResponsePartition {
            partition_index: 0,
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitResponsePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
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
        let flexible = version >= 3;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.error_code = d.i16()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("TxnOffsetCommitResponsePartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TxnOffsetCommitResponsePartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for TxnOffsetCommitResponse {
    const NAME: &'static str = "TxnOffsetCommitResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 5);
    const FLEXIBLE_MIN: Option<i16> = Some(3);
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
impl crate::testing::Random for TxnOffsetCommitResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
