//! `AssignReplicasToDirsRequest`, generated from Kafka's `AssignReplicasToDirsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AssignReplicasToDirsRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct AssignReplicasToDirsRequest {
    /// The ID of the requesting broker.
    ///
    /// Versions: 0+.
    pub broker_id: i32,
    /// The epoch of the requesting broker.
    ///
    /// Versions: 0+.
    pub broker_epoch: i64,
    /// The directories to which replicas should be assigned.
    ///
    /// Versions: 0+.
    pub directories: Vec<DirectoryData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AssignReplicasToDirsRequest {
    fn default() -> Self {
        AssignReplicasToDirsRequest {
            broker_id: 0,
            broker_epoch: -1,
            directories: Vec::<DirectoryData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AssignReplicasToDirsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.broker_id);
        e.i64(self.broker_epoch);
        e.array(&self.directories, flexible, |e, item| {
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
        this.broker_id = d.i32()?;
        this.broker_epoch = d.i64()?;
        this.directories = d.array(flexible, "Directories", |d| DirectoryData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AssignReplicasToDirsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AssignReplicasToDirsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.broker_id = rng.i32();
        this.broker_epoch = rng.i64();
        this.directories = (0..rng.len())
            .map(|_| DirectoryData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DirectoryData` of [`AssignReplicasToDirsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DirectoryData {
    /// The ID of the directory.
    ///
    /// Versions: 0+.
    pub id: Uuid,
    /// The topics assigned to the directory.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DirectoryData {
    fn default() -> Self {
        DirectoryData {
            id: Uuid::nil(),
            topics: Vec::<TopicData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DirectoryData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.uuid(&self.id);
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
        this.id = d.uuid()?;
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("DirectoryData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DirectoryData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.id = rng.uuid();
        this.topics = (0..rng.len())
            .map(|_| TopicData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicData` of [`AssignReplicasToDirsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicData {
    /// The ID of the assigned topic.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The partitions assigned to the directory.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicData {
    fn default() -> Self {
        TopicData {
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicData {
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

/// A `PartitionData` of [`AssignReplicasToDirsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
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
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AssignReplicasToDirsRequest {
    const NAME: &'static str = "AssignReplicasToDirsRequest";
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
impl crate::testing::Random for AssignReplicasToDirsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
