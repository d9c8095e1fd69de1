//! `WriteShareGroupStateRequest`, generated from Kafka's `WriteShareGroupStateRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// WriteShareGroupStateRequest (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct WriteShareGroupStateRequest {
    /// The group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The data for the topics.
    ///
    /// Versions: 0+.
    pub topics: Vec<WriteStateData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WriteShareGroupStateRequest {
    fn default() -> Self {
        WriteShareGroupStateRequest {
            group_id: String::from(""),
            topics: Vec::<WriteStateData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WriteShareGroupStateRequest {
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
        this.topics = d.array(flexible, "Topics", |d| WriteStateData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("WriteShareGroupStateRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WriteShareGroupStateRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.topics = (0..rng.len())
            .map(|_| WriteStateData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `WriteStateData` of [`WriteShareGroupStateRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct WriteStateData {
    /// The topic identifier.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The data for the partitions.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WriteStateData {
    fn default() -> Self {
        WriteStateData {
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WriteStateData {
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
            this.unknown_tagged_fields = d.tagged_fields("WriteStateData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WriteStateData {
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

/// A `PartitionData` of [`WriteShareGroupStateRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition: i32,
    /// The state epoch of the share-partition.
    ///
    /// Versions: 0+.
    pub state_epoch: i32,
    /// The leader epoch of the share-partition.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// The share-partition start offset, or -1 if the start offset is not being written.
    ///
    /// Versions: 0+.
    pub start_offset: i64,
    /// The number of offsets greater than or equal to share-partition start offset for which delivery has been completed.
    ///
    /// Versions: 1+.
    pub delivery_complete_count: i32,
    /// The state batches for the share-partition.
    ///
    /// Versions: 0+.
    pub state_batches: Vec<StateBatch>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition: 0,
            state_epoch: 0,
            leader_epoch: 0,
            start_offset: 0,
            delivery_complete_count: -1,
            state_batches: Vec::<StateBatch>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition);
        e.i32(self.state_epoch);
        e.i32(self.leader_epoch);
        e.i64(self.start_offset);
        if version == 1 {
            e.i32(self.delivery_complete_count);
        }
        e.array(&self.state_batches, flexible, |e, item| {
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
        this.partition = d.i32()?;
        this.state_epoch = d.i32()?;
        this.leader_epoch = d.i32()?;
        this.start_offset = d.i64()?;
        if version == 1 {
            this.delivery_complete_count = d.i32()?;
        }
        this.state_batches = d.array(flexible, "StateBatches", |d| StateBatch::read(d, version))?;
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
        this.partition = rng.i32();
        this.state_epoch = rng.i32();
        this.leader_epoch = rng.i32();
        this.start_offset = rng.i64();
        if version == 1 {
            this.delivery_complete_count = rng.i32();
        }
        this.state_batches = (0..rng.len())
            .map(|_| StateBatch::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `StateBatch` of [`WriteShareGroupStateRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct StateBatch {
    /// The first offset of this state batch.
    ///
    /// Versions: 0+.
    pub first_offset: i64,
    /// The last offset of this state batch.
    ///
    /// Versions: 0+.
    pub last_offset: i64,
    /// The delivery state - 0:Available,2:Acked,4:Archived.
    ///
    /// Versions: 0+.
    pub delivery_state: i8,
    /// The delivery count.
    ///
    /// Versions: 0+.
    pub delivery_count: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for StateBatch {
    fn default() -> Self {
        StateBatch {
            first_offset: 0,
            last_offset: 0,
            delivery_state: 0,
            delivery_count: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StateBatch {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i64(self.first_offset);
        e.i64(self.last_offset);
        e.i8(self.delivery_state);
        e.i16(self.delivery_count);
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
        this.first_offset = d.i64()?;
        this.last_offset = d.i64()?;
        this.delivery_state = d.i8()?;
        this.delivery_count = d.i16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("StateBatch", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl StateBatch {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.first_offset = rng.i64();
        this.last_offset = rng.i64();
        this.delivery_state = rng.i8();
        this.delivery_count = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for WriteShareGroupStateRequest {
    const NAME: &'static str = "WriteShareGroupStateRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 1);
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
impl crate::testing::Random for WriteShareGroupStateRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
