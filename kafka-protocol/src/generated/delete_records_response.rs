//! `DeleteRecordsResponse`, generated from Kafka's `DeleteRecordsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DeleteRecordsResponse (valid versions 0-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteRecordsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// Each topic that we wanted to delete records from.
    ///
    /// Versions: 0+.
    pub topics: Vec<DeleteRecordsTopicResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteRecordsResponse {
    fn default() -> Self {
        DeleteRecordsResponse {
            throttle_time_ms: 0,
            topics: Vec::<DeleteRecordsTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteRecordsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.topics = d.array(flexible, "Topics", |d| {
            DeleteRecordsTopicResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteRecordsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteRecordsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.topics = (0..rng.len())
            .map(|_| DeleteRecordsTopicResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DeleteRecordsTopicResult` of [`DeleteRecordsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteRecordsTopicResult {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// Each partition that we wanted to delete records from.
    ///
    /// Versions: 0+.
    pub partitions: Vec<DeleteRecordsPartitionResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteRecordsTopicResult {
    fn default() -> Self {
        DeleteRecordsTopicResult {
            name: String::from(""),
            partitions: Vec::<DeleteRecordsPartitionResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteRecordsTopicResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            DeleteRecordsPartitionResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteRecordsTopicResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteRecordsTopicResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| DeleteRecordsPartitionResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DeleteRecordsPartitionResult` of [`DeleteRecordsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteRecordsPartitionResult {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The partition low water mark.
    ///
    /// Versions: 0+.
    pub low_watermark: i64,
    /// The deletion error code, or 0 if the deletion succeeded.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteRecordsPartitionResult {
    fn default() -> Self {
        DeleteRecordsPartitionResult {
            partition_index: 0,
            low_watermark: 0,
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteRecordsPartitionResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i32(self.partition_index);
        e.i64(self.low_watermark);
        e.i16(self.error_code);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 2;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.low_watermark = d.i64()?;
        this.error_code = d.i16()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteRecordsPartitionResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteRecordsPartitionResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.low_watermark = rng.i64();
        this.error_code = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DeleteRecordsResponse {
    const NAME: &'static str = "DeleteRecordsResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
    const FLEXIBLE_MIN: Option<i16> = Some(2);
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
impl crate::testing::Random for DeleteRecordsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
