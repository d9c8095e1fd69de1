//! `AlterPartitionResponse`, generated from Kafka's `AlterPartitionResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterPartitionResponse (valid versions 2-3, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterPartitionResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The top level response error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The responses for each topic.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterPartitionResponse {
    fn default() -> Self {
        AlterPartitionResponse {
            throttle_time_ms: 0,
            error_code: 0,
            topics: Vec::<TopicData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterPartitionResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
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
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterPartitionResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterPartitionResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.topics = (0..rng.len())
            .map(|_| TopicData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicData` of [`AlterPartitionResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicData {
    /// The ID of the topic.
    ///
    /// Versions: 2+.
    pub topic_id: Uuid,
    /// The responses for each partition.
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

/// A `PartitionData` of [`AlterPartitionResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The partition level error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The broker ID of the leader.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The leader epoch.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// The in-sync replica IDs.
    ///
    /// Versions: 0+.
    pub isr: Vec<i32>,
    /// 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    ///
    /// Versions: 1+.
    pub leader_recovery_state: i8,
    /// The current epoch for the partition for KRaft controllers.
    ///
    /// Versions: 0+.
    pub partition_epoch: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            error_code: 0,
            leader_id: 0,
            leader_epoch: 0,
            isr: Vec::<i32>::new(),
            leader_recovery_state: 0,
            partition_epoch: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.i16(self.error_code);
        e.i32(self.leader_id);
        e.i32(self.leader_epoch);
        e.array(&self.isr, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        e.i8(self.leader_recovery_state);
        e.i32(self.partition_epoch);
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
        this.error_code = d.i16()?;
        this.leader_id = d.i32()?;
        this.leader_epoch = d.i32()?;
        this.isr = d.array(flexible, "Isr", |d| d.i32())?;
        this.leader_recovery_state = d.i8()?;
        this.partition_epoch = d.i32()?;
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
        this.error_code = rng.i16();
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        this.isr = (0..rng.len()).map(|_| rng.i32()).collect();
        this.leader_recovery_state = rng.i8();
        this.partition_epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterPartitionResponse {
    const NAME: &'static str = "AlterPartitionResponse";
    const VALID_VERSIONS: (i16, i16) = (2, 3);
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
impl crate::testing::Random for AlterPartitionResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
