//! `AlterPartitionRequest`, generated from Kafka's `AlterPartitionRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterPartitionRequest (valid versions 2-3, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterPartitionRequest {
    /// The ID of the requesting broker.
    ///
    /// Versions: 0+.
    pub broker_id: i32,
    /// The epoch of the requesting broker.
    ///
    /// Versions: 0+.
    pub broker_epoch: i64,
    /// The topics to alter ISRs for.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterPartitionRequest {
    fn default() -> Self {
        AlterPartitionRequest {
            broker_id: 0,
            broker_epoch: -1,
            topics: Vec::<TopicData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterPartitionRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.broker_id);
        e.i64(self.broker_epoch);
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
        this.broker_id = d.i32()?;
        this.broker_epoch = d.i64()?;
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterPartitionRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterPartitionRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.broker_id = rng.i32();
        this.broker_epoch = rng.i64();
        this.topics = (0..rng.len())
            .map(|_| TopicData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicData` of [`AlterPartitionRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicData {
    /// The ID of the topic to alter ISRs for.
    ///
    /// Versions: 2+.
    pub topic_id: Uuid,
    /// The partitions to alter ISRs for.
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

/// A `PartitionData` of [`AlterPartitionRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The leader epoch of this partition.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// The ISR for this partition. Deprecated since version 3.
    ///
    /// Versions: 0-2.
    pub new_isr: Vec<i32>,
    /// The ISR for this partition.
    ///
    /// Versions: 3+.
    pub new_isr_with_epochs: Vec<BrokerState>,
    /// 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    ///
    /// Versions: 1+.
    pub leader_recovery_state: i8,
    /// The expected epoch of the partition which is being updated.
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
            leader_epoch: 0,
            new_isr: Vec::<i32>::new(),
            new_isr_with_epochs: Vec::<BrokerState>::new(),
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
        e.i32(self.leader_epoch);
        if version == 2 {
            e.array(&self.new_isr, flexible, |e, item| {
                e.i32(*item);
                Ok(())
            })?;
        }
        if version == 3 {
            if self.new_isr != Vec::<i32>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "PartitionData",
                    field: "NewIsr",
                    version,
                });
            }
        }
        if version == 3 {
            e.array(&self.new_isr_with_epochs, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version == 2 {
            if self.new_isr_with_epochs != Vec::<BrokerState>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "PartitionData",
                    field: "NewIsrWithEpochs",
                    version,
                });
            }
        }
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
        this.leader_epoch = d.i32()?;
        if version == 2 {
            this.new_isr = d.array(flexible, "NewIsr", |d| d.i32())?;
        }
        if version == 3 {
            this.new_isr_with_epochs = d.array(flexible, "NewIsrWithEpochs", |d| {
                BrokerState::read(d, version)
            })?;
        }
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
        this.leader_epoch = rng.i32();
        if version == 2 {
            this.new_isr = (0..rng.len()).map(|_| rng.i32()).collect();
        }
        if version == 3 {
            this.new_isr_with_epochs = (0..rng.len())
                .map(|_| BrokerState::random_value(rng, version))
                .collect();
        }
        this.leader_recovery_state = rng.i8();
        this.partition_epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `BrokerState` of [`AlterPartitionRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct BrokerState {
    /// The ID of the broker.
    ///
    /// Versions: 3+.
    pub broker_id: i32,
    /// The epoch of the broker. It will be -1 if the epoch check is not supported.
    ///
    /// Versions: 3+.
    pub broker_epoch: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for BrokerState {
    fn default() -> Self {
        BrokerState {
            broker_id: 0,
            broker_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BrokerState {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        if version == 3 {
            e.i32(self.broker_id);
        }
        if version == 2 {
            if self.broker_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "BrokerState",
                    field: "BrokerId",
                    version,
                });
            }
        }
        if version == 3 {
            e.i64(self.broker_epoch);
        }
        if version == 2 {
            if self.broker_epoch != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "BrokerState",
                    field: "BrokerEpoch",
                    version,
                });
            }
        }
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
        if version == 3 {
            this.broker_id = d.i32()?;
        }
        if version == 3 {
            this.broker_epoch = d.i64()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("BrokerState", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl BrokerState {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        if version == 3 {
            this.broker_id = rng.i32();
        }
        if version == 3 {
            this.broker_epoch = rng.i64();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterPartitionRequest {
    const NAME: &'static str = "AlterPartitionRequest";
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
impl crate::testing::Random for AlterPartitionRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
