//! `OffsetCommitRequest`, generated from Kafka's `OffsetCommitRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// OffsetCommitRequest (valid versions 2-10, flexible from 8).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetCommitRequest {
    /// The unique group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The generation of the group if using the classic group protocol or the member epoch if using the consumer protocol.
    ///
    /// Versions: 1+.
    pub generation_id_or_member_epoch: i32,
    /// The member ID assigned by the group coordinator.
    ///
    /// Versions: 1+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions: 7+.
    pub group_instance_id: Option<String>,
    /// The time period in ms to retain the offset.
    ///
    /// Versions: 2-4.
    pub retention_time_ms: i64,
    /// The topics to commit offsets for.
    ///
    /// Versions: 0+.
    pub topics: Vec<OffsetCommitRequestTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetCommitRequest {
    fn default() -> Self {
        OffsetCommitRequest {
            group_id: String::from(""),
            generation_id_or_member_epoch: -1,
            member_id: String::from(""),
            group_instance_id: None,
            retention_time_ms: -1,
            topics: Vec::<OffsetCommitRequestTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetCommitRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 8;
        e.string(&self.group_id, flexible)?;
        e.i32(self.generation_id_or_member_epoch);
        e.string(&self.member_id, flexible)?;
        if version >= 7 {
            if self.group_instance_id.is_none() && !(version >= 7) {
                return Err(EncodeError::NullNotAllowed {
                    message: "OffsetCommitRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        if version <= 6 {
            if self.group_instance_id != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetCommitRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
        }
        if version <= 4 {
            e.i64(self.retention_time_ms);
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
        let flexible = version >= 8;
        let mut this = Self::default();
        this.group_id = d.string(flexible, "GroupId")?;
        this.generation_id_or_member_epoch = d.i32()?;
        this.member_id = d.string(flexible, "MemberId")?;
        if version >= 7 {
            this.group_instance_id = if version >= 7 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "GroupInstanceId")?)
            };
        }
        if version <= 4 {
            this.retention_time_ms = d.i64()?;
        }
        this.topics = d.array(flexible, "Topics", |d| {
            OffsetCommitRequestTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetCommitRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetCommitRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 8;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.generation_id_or_member_epoch = rng.i32();
        this.member_id = rng.string();
        if version >= 7 {
            this.group_instance_id = if version >= 7 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version <= 4 {
            this.retention_time_ms = rng.i64();
        }
        this.topics = (0..rng.len())
            .map(|_| OffsetCommitRequestTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetCommitRequestTopic` of [`OffsetCommitRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetCommitRequestTopic {
    /// The topic name.
    ///
    /// Versions: 0-9.
    pub name: String,
    /// The topic ID.
    ///
    /// Versions: 10+.
    pub topic_id: Uuid,
    /// Each partition to commit offsets for.
    ///
    /// Versions: 0+.
    pub partitions: Vec<OffsetCommitRequestPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetCommitRequestTopic {
    fn default() -> Self {
        OffsetCommitRequestTopic {
            name: String::from(""),
            topic_id: Uuid::nil(),
            partitions: Vec::<OffsetCommitRequestPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetCommitRequestTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 8;
        if version <= 9 {
            e.string(&self.name, flexible)?;
        }
        if version == 10 {
            e.uuid(&self.topic_id);
        }
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
        let flexible = version >= 8;
        let mut this = Self::default();
        if version <= 9 {
            this.name = d.string(flexible, "Name")?;
        }
        if version == 10 {
            this.topic_id = d.uuid()?;
        }
        this.partitions = d.array(flexible, "Partitions", |d| {
            OffsetCommitRequestPartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetCommitRequestTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetCommitRequestTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 8;
        let mut this = Self::default();
        if version <= 9 {
            this.name = rng.string();
        }
        if version == 10 {
            this.topic_id = rng.uuid();
        }
        this.partitions = (0..rng.len())
            .map(|_| OffsetCommitRequestPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetCommitRequestPartition` of [`OffsetCommitRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetCommitRequestPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The message offset to be committed.
    ///
    /// Versions: 0+.
    pub committed_offset: i64,
    /// The leader epoch of this partition.
    ///
    /// Versions: 6+.
    pub committed_leader_epoch: i32,
    /// Any associated metadata the client wants to keep.
    ///
    /// Versions: 0+.
    pub committed_metadata: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetCommitRequestPartition {
    fn default() -> Self {
        OffsetCommitRequestPartition {
            partition_index: 0,
            committed_offset: 0,
            committed_leader_epoch: -1,
            committed_metadata: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetCommitRequestPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 8;
        e.i32(self.partition_index);
        e.i64(self.committed_offset);
        if version >= 6 {
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
        let flexible = version >= 8;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.committed_offset = d.i64()?;
        if version >= 6 {
            this.committed_leader_epoch = d.i32()?;
        }
        this.committed_metadata = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetCommitRequestPartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetCommitRequestPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 8;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.committed_offset = rng.i64();
        if version >= 6 {
            this.committed_leader_epoch = rng.i32();
        }
        this.committed_metadata = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for OffsetCommitRequest {
    const NAME: &'static str = "OffsetCommitRequest";
    const VALID_VERSIONS: (i16, i16) = (2, 10);
    const FLEXIBLE_MIN: Option<i16> = Some(8);
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
impl crate::testing::Random for OffsetCommitRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
