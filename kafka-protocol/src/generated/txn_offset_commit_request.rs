//! `TxnOffsetCommitRequest`, generated from Kafka's `TxnOffsetCommitRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// TxnOffsetCommitRequest (valid versions 0-5, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitRequest {
    /// The ID of the transaction.
    ///
    /// Versions: 0+.
    pub transactional_id: String,
    /// The ID of the group.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The current producer ID in use by the transactional ID.
    ///
    /// Versions: 0+.
    pub producer_id: i64,
    /// The current epoch associated with the producer ID.
    ///
    /// Versions: 0+.
    pub producer_epoch: i16,
    /// The generation of the consumer.
    ///
    /// Versions: 3+.
    pub generation_id: i32,
    /// The member ID assigned by the group coordinator.
    ///
    /// Versions: 3+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions: 3+.
    pub group_instance_id: Option<String>,
    /// Each topic that we want to commit offsets for.
    ///
    /// Versions: 0+.
    pub topics: Vec<TxnOffsetCommitRequestTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TxnOffsetCommitRequest {
    fn default() -> Self {
        TxnOffsetCommitRequest {
            transactional_id: String::from(""),
            group_id: String::from(""),
            producer_id: 0,
            producer_epoch: 0,
            generation_id: -1,
            member_id: String::from(""),
            group_instance_id: None,
            topics: Vec::<TxnOffsetCommitRequestTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.string(&self.transactional_id, flexible)?;
        e.string(&self.group_id, flexible)?;
        e.i64(self.producer_id);
        e.i16(self.producer_epoch);
        if version >= 3 {
            e.i32(self.generation_id);
        }
        if version <= 2 {
            if self.generation_id != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "TxnOffsetCommitRequest",
                    field: "GenerationId",
                    version,
                });
            }
        }
        if version >= 3 {
            e.string(&self.member_id, flexible)?;
        }
        if version <= 2 {
            if self.member_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "TxnOffsetCommitRequest",
                    field: "MemberId",
                    version,
                });
            }
        }
        if version >= 3 {
            if self.group_instance_id.is_none() && !(version >= 3) {
                return Err(EncodeError::NullNotAllowed {
                    message: "TxnOffsetCommitRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        if version <= 2 {
            if self.group_instance_id != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "TxnOffsetCommitRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
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
        let flexible = version >= 3;
        let mut this = Self::default();
        this.transactional_id = d.string(flexible, "TransactionalId")?;
        this.group_id = d.string(flexible, "GroupId")?;
        this.producer_id = d.i64()?;
        this.producer_epoch = d.i16()?;
        if version >= 3 {
            this.generation_id = d.i32()?;
        }
        if version >= 3 {
            this.member_id = d.string(flexible, "MemberId")?;
        }
        if version >= 3 {
            this.group_instance_id = if version >= 3 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "GroupInstanceId")?)
            };
        }
        this.topics = d.array(flexible, "Topics", |d| {
            TxnOffsetCommitRequestTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("TxnOffsetCommitRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TxnOffsetCommitRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.transactional_id = rng.string();
        this.group_id = rng.string();
        this.producer_id = rng.i64();
        this.producer_epoch = rng.i16();
        if version >= 3 {
            this.generation_id = rng.i32();
        }
        if version >= 3 {
            this.member_id = rng.string();
        }
        if version >= 3 {
            this.group_instance_id = if version >= 3 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.topics = (0..rng.len())
            .map(|_| TxnOffsetCommitRequestTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TxnOffsetCommitRequestTopic` of [`TxnOffsetCommitRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitRequestTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The partitions inside the topic that we want to commit offsets for.
    ///
    /// Versions: 0+.
    pub partitions: Vec<TxnOffsetCommitRequestPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TxnOffsetCommitRequestTopic {
    fn default() -> Self {
        TxnOffsetCommitRequestTopic {
            name: String::from(""),
            partitions: Vec::<TxnOffsetCommitRequestPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitRequestTopic {
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
            TxnOffsetCommitRequestPartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("TxnOffsetCommitRequestTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TxnOffsetCommitRequestTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| TxnOffsetCommitRequestPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TxnOffsetCommitRequestPartition` of [`TxnOffsetCommitRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitRequestPartition {
    /// The index of the partition within the topic.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The message offset to be committed.
    ///
    /// Versions: 0+.
    pub committed_offset: i64,
    /// The leader epoch of the last consumed record.
    ///
    /// Versions: 2+.
    pub committed_leader_epoch: i32,
    /// Any associated metadata the client wants to keep.
    ///
    /// Versions: 0+.
    pub committed_metadata: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TxnOffsetCommitRequestPartition {
    fn default() -> Self {
        TxnOffsetCommitRequestPartition {
            partition_index: 0,
            committed_offset: 0,
            committed_leader_epoch: -1,
            committed_metadata: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitRequestPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.i32(self.partition_index);
        e.i64(self.committed_offset);
        if version >= 2 {
            e.i32(self.committed_leader_epoch);
        }
        e.nullable_string(self.committed_metadata.as_deref(), flexible)?;
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
        this.committed_offset = d.i64()?;
        if version >= 2 {
            this.committed_leader_epoch = d.i32()?;
        }
        this.committed_metadata = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("TxnOffsetCommitRequestPartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TxnOffsetCommitRequestPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.committed_offset = rng.i64();
        if version >= 2 {
            this.committed_leader_epoch = rng.i32();
        }
        this.committed_metadata = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for TxnOffsetCommitRequest {
    const NAME: &'static str = "TxnOffsetCommitRequest";
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
impl crate::testing::Random for TxnOffsetCommitRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
