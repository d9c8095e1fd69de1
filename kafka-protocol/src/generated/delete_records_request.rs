//! `DeleteRecordsRequest`, generated from Kafka's `DeleteRecordsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DeleteRecordsRequest (valid versions 0-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteRecordsRequest {
    /// Each topic that we want to delete records from.
    ///
    /// Versions: 0+.
    pub topics: Vec<DeleteRecordsTopic>,
    /// How long to wait for the deletion to complete, in milliseconds.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteRecordsRequest {
    fn default() -> Self {
        DeleteRecordsRequest {
            topics: Vec::<DeleteRecordsTopic>::new(),
            timeout_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteRecordsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.timeout_ms);
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
        this.topics = d.array(flexible, "Topics", |d| DeleteRecordsTopic::read(d, version))?;
        this.timeout_ms = d.i32()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteRecordsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteRecordsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.topics = (0..rng.len())
            .map(|_| DeleteRecordsTopic::random_value(rng, version))
            .collect();
        this.timeout_ms = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DeleteRecordsTopic` of [`DeleteRecordsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteRecordsTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// Each partition that we want to delete records from.
    ///
    /// Versions: 0+.
    pub partitions: Vec<DeleteRecordsPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteRecordsTopic {
    fn default() -> Self {
        DeleteRecordsTopic {
            name: String::from(""),
            partitions: Vec::<DeleteRecordsPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteRecordsTopic {
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
            DeleteRecordsPartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("DeleteRecordsTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteRecordsTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| DeleteRecordsPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DeleteRecordsPartition` of [`DeleteRecordsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteRecordsPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The deletion offset. -1 means that records should be truncated to the high watermark.
    ///
    /// Versions: 0+.
    pub offset: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteRecordsPartition {
    fn default() -> Self {
        DeleteRecordsPartition {
            partition_index: 0,
            offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteRecordsPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i32(self.partition_index);
        e.i64(self.offset);
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
        this.offset = d.i64()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteRecordsPartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteRecordsPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.offset = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DeleteRecordsRequest {
    const NAME: &'static str = "DeleteRecordsRequest";
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
impl crate::testing::Random for DeleteRecordsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
