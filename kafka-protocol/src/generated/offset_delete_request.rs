//! `OffsetDeleteRequest`, generated from Kafka's `OffsetDeleteRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// OffsetDeleteRequest (valid versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetDeleteRequest {
    /// The unique group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The topics to delete offsets for.
    ///
    /// Versions: 0+.
    pub topics: Vec<OffsetDeleteRequestTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetDeleteRequest {
    fn default() -> Self {
        OffsetDeleteRequest {
            group_id: String::from(""),
            topics: Vec::<OffsetDeleteRequestTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetDeleteRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.string(&self.group_id, flexible)?;
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
        this.group_id = d.string(flexible, "GroupId")?;
        this.topics = d.array(flexible, "Topics", |d| {
            OffsetDeleteRequestTopic::read(d, version)
        })?;
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetDeleteRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.topics = (0..rng.len())
            .map(|_| OffsetDeleteRequestTopic::random_value(rng, version))
            .collect();
        this
    }
}

/// A `OffsetDeleteRequestTopic` of [`OffsetDeleteRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetDeleteRequestTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// Each partition to delete offsets for.
    ///
    /// Versions: 0+.
    pub partitions: Vec<OffsetDeleteRequestPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetDeleteRequestTopic {
    fn default() -> Self {
        OffsetDeleteRequestTopic {
            name: String::from(""),
            partitions: Vec::<OffsetDeleteRequestPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetDeleteRequestTopic {
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
            OffsetDeleteRequestPartition::read(d, version)
        })?;
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetDeleteRequestTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| OffsetDeleteRequestPartition::random_value(rng, version))
            .collect();
        this
    }
}

/// A `OffsetDeleteRequestPartition` of [`OffsetDeleteRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetDeleteRequestPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetDeleteRequestPartition {
    fn default() -> Self {
        OffsetDeleteRequestPartition {
            partition_index: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetDeleteRequestPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.i32(self.partition_index);
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetDeleteRequestPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this
    }
}

impl crate::Message for OffsetDeleteRequest {
    const NAME: &'static str = "OffsetDeleteRequest";
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
impl crate::testing::Random for OffsetDeleteRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
