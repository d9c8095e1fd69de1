//! `OffsetFetchResponse`, generated from Kafka's `OffsetFetchResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// OffsetFetchResponse (valid versions 1-10, flexible from 6).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 3+.
    pub throttle_time_ms: i32,
    /// The responses per topic.
    ///
    /// Versions: 0-7.
    pub topics: Vec<OffsetFetchResponseTopic>,
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions: 2-7.
    pub error_code: i16,
    /// The responses per group id.
    ///
    /// Versions: 8+.
    pub groups: Vec<OffsetFetchResponseGroup>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchResponse {
    fn default() -> Self {
        OffsetFetchResponse {
            throttle_time_ms: 0,
            topics: Vec::<OffsetFetchResponseTopic>::new(),
            error_code: 0,
            groups: Vec::<OffsetFetchResponseGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version >= 3 {
            e.i32(self.throttle_time_ms);
        }
        if version <= 7 {
            e.array(&self.topics, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version >= 8 {
            if self.topics != Vec::<OffsetFetchResponseTopic>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponse",
                    field: "Topics",
                    version,
                });
            }
        }
        if (2..=7).contains(&version) {
            e.i16(self.error_code);
        }
        if version >= 8 {
            e.array(&self.groups, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 7 {
            if self.groups != Vec::<OffsetFetchResponseGroup>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponse",
                    field: "Groups",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 3 {
            this.throttle_time_ms = d.i32()?;
        }
        if version <= 7 {
            this.topics = d.array(flexible, "Topics", |d| {
                OffsetFetchResponseTopic::read(d, version)
            })?;
        }
        if (2..=7).contains(&version) {
            this.error_code = d.i16()?;
        }
        if version >= 8 {
            this.groups = d.array(flexible, "Groups", |d| {
                OffsetFetchResponseGroup::read(d, version)
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 3 {
            this.throttle_time_ms = rng.i32();
        }
        if version <= 7 {
            this.topics = (0..rng.len())
                .map(|_| OffsetFetchResponseTopic::random_value(rng, version))
                .collect();
        }
        if (2..=7).contains(&version) {
            this.error_code = rng.i16();
        }
        if version >= 8 {
            this.groups = (0..rng.len())
                .map(|_| OffsetFetchResponseGroup::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetFetchResponseTopic` of [`OffsetFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponseTopic {
    /// The topic name.
    ///
    /// Versions: 0-7.
    pub name: String,
    /// The responses per partition.
    ///
    /// Versions: 0-7.
    pub partitions: Vec<OffsetFetchResponsePartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchResponseTopic {
    fn default() -> Self {
        OffsetFetchResponseTopic {
            name: String::from(""),
            partitions: Vec::<OffsetFetchResponsePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponseTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version <= 7 {
            e.string(&self.name, flexible)?;
        }
        if version >= 8 {
            if self.name != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponseTopic",
                    field: "Name",
                    version,
                });
            }
        }
        if version <= 7 {
            e.array(&self.partitions, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version >= 8 {
            if self.partitions != Vec::<OffsetFetchResponsePartition>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponseTopic",
                    field: "Partitions",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version <= 7 {
            this.name = d.string(flexible, "Name")?;
        }
        if version <= 7 {
            this.partitions = d.array(flexible, "Partitions", |d| {
                OffsetFetchResponsePartition::read(d, version)
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchResponseTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchResponseTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version <= 7 {
            this.name = rng.string();
        }
        if version <= 7 {
            this.partitions = (0..rng.len())
                .map(|_| OffsetFetchResponsePartition::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetFetchResponsePartition` of [`OffsetFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponsePartition {
    /// The partition index.
    ///
    /// Versions: 0-7.
    pub partition_index: i32,
    /// The committed message offset.
    ///
    /// Versions: 0-7.
    pub committed_offset: i64,
    /// The leader epoch.
    ///
    /// Versions: 5-7.
    pub committed_leader_epoch: i32,
    /// The partition metadata.
    ///
    /// Versions: 0-7.
    pub metadata: Option<String>,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0-7.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchResponsePartition {
    fn default() -> Self {
        OffsetFetchResponsePartition {
            partition_index: 0,
            committed_offset: 0,
            committed_leader_epoch: -1,
            metadata: Some(String::from("")),
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponsePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version <= 7 {
            e.i32(self.partition_index);
        }
        if version >= 8 {
            if self.partition_index != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponsePartition",
                    field: "PartitionIndex",
                    version,
                });
            }
        }
        if version <= 7 {
            e.i64(self.committed_offset);
        }
        if version >= 8 {
            if self.committed_offset != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponsePartition",
                    field: "CommittedOffset",
                    version,
                });
            }
        }
        if (5..=7).contains(&version) {
            e.i32(self.committed_leader_epoch);
        }
        if version <= 7 {
            if self.metadata.is_none() && !(version <= 7) {
                return Err(EncodeError::NullNotAllowed {
                    message: "OffsetFetchResponsePartition",
                    field: "Metadata",
                    version,
                });
            }
            e.nullable_string(self.metadata.as_deref(), flexible)?;
        }
        if version >= 8 {
            if self.metadata != Some(String::from("")) && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponsePartition",
                    field: "Metadata",
                    version,
                });
            }
        }
        if version <= 7 {
            e.i16(self.error_code);
        }
        if version >= 8 {
            if self.error_code != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponsePartition",
                    field: "ErrorCode",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version <= 7 {
            this.partition_index = d.i32()?;
        }
        if version <= 7 {
            this.committed_offset = d.i64()?;
        }
        if (5..=7).contains(&version) {
            this.committed_leader_epoch = d.i32()?;
        }
        if version <= 7 {
            this.metadata = if version <= 7 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "Metadata")?)
            };
        }
        if version <= 7 {
            this.error_code = d.i16()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchResponsePartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchResponsePartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version <= 7 {
            this.partition_index = rng.i32();
        }
        if version <= 7 {
            this.committed_offset = rng.i64();
        }
        if (5..=7).contains(&version) {
            this.committed_leader_epoch = rng.i32();
        }
        if version <= 7 {
            this.metadata = if version <= 7 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version <= 7 {
            this.error_code = rng.i16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetFetchResponseGroup` of [`OffsetFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponseGroup {
    /// The group ID.
    ///
    /// Versions: 8+.
    pub group_id: String,
    /// The responses per topic.
    ///
    /// Versions: 8+.
    pub topics: Vec<OffsetFetchResponseTopics>,
    /// The group-level error code, or 0 if there was no error.
    ///
    /// Versions: 8+.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchResponseGroup {
    fn default() -> Self {
        OffsetFetchResponseGroup {
            group_id: String::from(""),
            topics: Vec::<OffsetFetchResponseTopics>::new(),
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponseGroup {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version >= 8 {
            e.string(&self.group_id, flexible)?;
        }
        if version <= 7 {
            if self.group_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponseGroup",
                    field: "GroupId",
                    version,
                });
            }
        }
        if version >= 8 {
            e.array(&self.topics, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 7 {
            if self.topics != Vec::<OffsetFetchResponseTopics>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponseGroup",
                    field: "Topics",
                    version,
                });
            }
        }
        if version >= 8 {
            e.i16(self.error_code);
        }
        if version <= 7 {
            if self.error_code != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponseGroup",
                    field: "ErrorCode",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 8 {
            this.group_id = d.string(flexible, "GroupId")?;
        }
        if version >= 8 {
            this.topics = d.array(flexible, "Topics", |d| {
                OffsetFetchResponseTopics::read(d, version)
            })?;
        }
        if version >= 8 {
            this.error_code = d.i16()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchResponseGroup", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchResponseGroup {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 8 {
            this.group_id = rng.string();
        }
        if version >= 8 {
            this.topics = (0..rng.len())
                .map(|_| OffsetFetchResponseTopics::random_value(rng, version))
                .collect();
        }
        if version >= 8 {
            this.error_code = rng.i16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetFetchResponseTopics` of [`OffsetFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponseTopics {
    /// The topic name.
    ///
    /// Versions: 8-9.
    pub name: String,
    /// The topic ID.
    ///
    /// Versions: 10+.
    pub topic_id: Uuid,
    /// The responses per partition.
    ///
    /// Versions: 8+.
    pub partitions: Vec<OffsetFetchResponsePartitions>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchResponseTopics {
    fn default() -> Self {
        OffsetFetchResponseTopics {
            name: String::from(""),
            topic_id: Uuid::nil(),
            partitions: Vec::<OffsetFetchResponsePartitions>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponseTopics {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if (8..=9).contains(&version) {
            e.string(&self.name, flexible)?;
        }
        if version == 10 {
            e.uuid(&self.topic_id);
        }
        if version >= 8 {
            e.array(&self.partitions, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 7 {
            if self.partitions != Vec::<OffsetFetchResponsePartitions>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponseTopics",
                    field: "Partitions",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if (8..=9).contains(&version) {
            this.name = d.string(flexible, "Name")?;
        }
        if version == 10 {
            this.topic_id = d.uuid()?;
        }
        if version >= 8 {
            this.partitions = d.array(flexible, "Partitions", |d| {
                OffsetFetchResponsePartitions::read(d, version)
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchResponseTopics", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchResponseTopics {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if (8..=9).contains(&version) {
            this.name = rng.string();
        }
        if version == 10 {
            this.topic_id = rng.uuid();
        }
        if version >= 8 {
            this.partitions = (0..rng.len())
                .map(|_| OffsetFetchResponsePartitions::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetFetchResponsePartitions` of [`OffsetFetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponsePartitions {
    /// The partition index.
    ///
    /// Versions: 8+.
    pub partition_index: i32,
    /// The committed message offset.
    ///
    /// Versions: 8+.
    pub committed_offset: i64,
    /// The leader epoch.
    ///
    /// Versions: 8+.
    pub committed_leader_epoch: i32,
    /// The partition metadata.
    ///
    /// Versions: 8+.
    pub metadata: Option<String>,
    /// The partition-level error code, or 0 if there was no error.
    ///
    /// Versions: 8+.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchResponsePartitions {
    fn default() -> Self {
        OffsetFetchResponsePartitions {
            partition_index: 0,
            committed_offset: 0,
            committed_leader_epoch: -1,
            metadata: Some(String::from("")),
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponsePartitions {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version >= 8 {
            e.i32(self.partition_index);
        }
        if version <= 7 {
            if self.partition_index != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponsePartitions",
                    field: "PartitionIndex",
                    version,
                });
            }
        }
        if version >= 8 {
            e.i64(self.committed_offset);
        }
        if version <= 7 {
            if self.committed_offset != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponsePartitions",
                    field: "CommittedOffset",
                    version,
                });
            }
        }
        if version >= 8 {
            e.i32(self.committed_leader_epoch);
        }
        if version >= 8 {
            if self.metadata.is_none() && !(version >= 8) {
                return Err(EncodeError::NullNotAllowed {
                    message: "OffsetFetchResponsePartitions",
                    field: "Metadata",
                    version,
                });
            }
            e.nullable_string(self.metadata.as_deref(), flexible)?;
        }
        if version <= 7 {
            if self.metadata != Some(String::from("")) && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponsePartitions",
                    field: "Metadata",
                    version,
                });
            }
        }
        if version >= 8 {
            e.i16(self.error_code);
        }
        if version <= 7 {
            if self.error_code != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchResponsePartitions",
                    field: "ErrorCode",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 8 {
            this.partition_index = d.i32()?;
        }
        if version >= 8 {
            this.committed_offset = d.i64()?;
        }
        if version >= 8 {
            this.committed_leader_epoch = d.i32()?;
        }
        if version >= 8 {
            this.metadata = if version >= 8 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "Metadata")?)
            };
        }
        if version >= 8 {
            this.error_code = d.i16()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchResponsePartitions", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchResponsePartitions {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 8 {
            this.partition_index = rng.i32();
        }
        if version >= 8 {
            this.committed_offset = rng.i64();
        }
        if version >= 8 {
            this.committed_leader_epoch = rng.i32();
        }
        if version >= 8 {
            this.metadata = if version >= 8 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version >= 8 {
            this.error_code = rng.i16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for OffsetFetchResponse {
    const NAME: &'static str = "OffsetFetchResponse";
    const VALID_VERSIONS: (i16, i16) = (1, 10);
    const FLEXIBLE_MIN: Option<i16> = Some(6);
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
impl crate::testing::Random for OffsetFetchResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
