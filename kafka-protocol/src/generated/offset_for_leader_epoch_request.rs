//! `OffsetForLeaderEpochRequest`, generated from Kafka's `OffsetForLeaderEpochRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// OffsetForLeaderEpochRequest (valid versions 2-4, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetForLeaderEpochRequest {
    /// The broker ID of the follower, of -1 if this request is from a consumer.
    ///
    /// Versions: 3+.
    pub replica_id: i32,
    /// Each topic to get offsets for.
    ///
    /// Versions: 0+.
    pub topics: Vec<OffsetForLeaderTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetForLeaderEpochRequest {
    fn default() -> Self {
        OffsetForLeaderEpochRequest {
            replica_id: -2,
            topics: Vec::<OffsetForLeaderTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetForLeaderEpochRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        if version >= 3 {
            e.i32(self.replica_id);
        }
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
        let flexible = version == 4;
        let mut this = Self::default();
        if version >= 3 {
            this.replica_id = d.i32()?;
        }
        this.topics = d.array(flexible, "Topics", |d| {
            OffsetForLeaderTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetForLeaderEpochRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetForLeaderEpochRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        if version >= 3 {
            this.replica_id = rng.i32();
        }
        this.topics = (0..rng.len())
            .map(|_| OffsetForLeaderTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetForLeaderTopic` of [`OffsetForLeaderEpochRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetForLeaderTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic: String,
    /// Each partition to get offsets for.
    ///
    /// Versions: 0+.
    pub partitions: Vec<OffsetForLeaderPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetForLeaderTopic {
    fn default() -> Self {
        OffsetForLeaderTopic {
            topic: String::from(""),
            partitions: Vec::<OffsetForLeaderPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetForLeaderTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.string(&self.topic, flexible)?;
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
        let flexible = version == 4;
        let mut this = Self::default();
        this.topic = d.string(flexible, "Topic")?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            OffsetForLeaderPartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetForLeaderTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetForLeaderTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.topic = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| OffsetForLeaderPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetForLeaderPartition` of [`OffsetForLeaderEpochRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetForLeaderPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition: i32,
    /// An epoch used to fence consumers/replicas with old metadata. If the epoch provided by the client is larger than the current epoch known to the broker, then the UNKNOWN_LEADER_EPOCH error code will be returned. If the provided epoch is smaller, then the FENCED_LEADER_EPOCH error code will be returned.
    ///
    /// Versions: 2+.
    pub current_leader_epoch: i32,
    /// The epoch to look up an offset for.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetForLeaderPartition {
    fn default() -> Self {
        OffsetForLeaderPartition {
            partition: 0,
            current_leader_epoch: -1,
            leader_epoch: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetForLeaderPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.i32(self.partition);
        e.i32(self.current_leader_epoch);
        e.i32(self.leader_epoch);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 4;
        let mut this = Self::default();
        this.partition = d.i32()?;
        this.current_leader_epoch = d.i32()?;
        this.leader_epoch = d.i32()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetForLeaderPartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetForLeaderPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.partition = rng.i32();
        this.current_leader_epoch = rng.i32();
        this.leader_epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for OffsetForLeaderEpochRequest {
    const NAME: &'static str = "OffsetForLeaderEpochRequest";
    const VALID_VERSIONS: (i16, i16) = (2, 4);
    const FLEXIBLE_MIN: Option<i16> = Some(4);
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
impl crate::testing::Random for OffsetForLeaderEpochRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
