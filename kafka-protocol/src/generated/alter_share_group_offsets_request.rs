//! `AlterShareGroupOffsetsRequest`, generated from Kafka's `AlterShareGroupOffsetsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterShareGroupOffsetsRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterShareGroupOffsetsRequest {
    /// The group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The topics to alter offsets for.
    ///
    /// Versions: 0+.
    pub topics: Vec<AlterShareGroupOffsetsRequestTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterShareGroupOffsetsRequest {
    fn default() -> Self {
        AlterShareGroupOffsetsRequest {
            group_id: String::from(""),
            topics: Vec::<AlterShareGroupOffsetsRequestTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterShareGroupOffsetsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.group_id, flexible)?;
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
        this.group_id = d.string(flexible, "GroupId")?;
        this.topics = d.array(flexible, "Topics", |d| {
            AlterShareGroupOffsetsRequestTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterShareGroupOffsetsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterShareGroupOffsetsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.topics = (0..rng.len())
            .map(|_| AlterShareGroupOffsetsRequestTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AlterShareGroupOffsetsRequestTopic` of [`AlterShareGroupOffsetsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AlterShareGroupOffsetsRequestTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// Each partition to alter offsets for.
    ///
    /// Versions: 0+.
    pub partitions: Vec<AlterShareGroupOffsetsRequestPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterShareGroupOffsetsRequestTopic {
    fn default() -> Self {
        AlterShareGroupOffsetsRequestTopic {
            topic_name: String::from(""),
            partitions: Vec::<AlterShareGroupOffsetsRequestPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterShareGroupOffsetsRequestTopic {
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
        this.partitions = d.array(flexible, "Partitions", |d| {
            AlterShareGroupOffsetsRequestPartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterShareGroupOffsetsRequestTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterShareGroupOffsetsRequestTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| AlterShareGroupOffsetsRequestPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AlterShareGroupOffsetsRequestPartition` of [`AlterShareGroupOffsetsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AlterShareGroupOffsetsRequestPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The share-partition start offset.
    ///
    /// Versions: 0+.
    pub start_offset: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterShareGroupOffsetsRequestPartition {
    fn default() -> Self {
        AlterShareGroupOffsetsRequestPartition {
            partition_index: 0,
            start_offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterShareGroupOffsetsRequestPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.i64(self.start_offset);
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
        this.start_offset = d.i64()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterShareGroupOffsetsRequestPartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterShareGroupOffsetsRequestPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.start_offset = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterShareGroupOffsetsRequest {
    const NAME: &'static str = "AlterShareGroupOffsetsRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 0);
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
impl crate::testing::Random for AlterShareGroupOffsetsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
