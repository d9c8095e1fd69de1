//! `DescribeShareGroupOffsetsResponse`, generated from Kafka's `DescribeShareGroupOffsetsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeShareGroupOffsetsResponse (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The results for each group.
    ///
    /// Versions: 0+.
    pub groups: Vec<DescribeShareGroupOffsetsResponseGroup>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeShareGroupOffsetsResponse {
    fn default() -> Self {
        DescribeShareGroupOffsetsResponse {
            throttle_time_ms: 0,
            groups: Vec::<DescribeShareGroupOffsetsResponseGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.array(&self.groups, flexible, |e, item| {
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
        this.groups = d.array(flexible, "Groups", |d| {
            DescribeShareGroupOffsetsResponseGroup::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeShareGroupOffsetsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeShareGroupOffsetsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.groups = (0..rng.len())
            .map(|_| DescribeShareGroupOffsetsResponseGroup::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeShareGroupOffsetsResponseGroup` of [`DescribeShareGroupOffsetsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsResponseGroup {
    /// The group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The results for each topic.
    ///
    /// Versions: 0+.
    pub topics: Vec<DescribeShareGroupOffsetsResponseTopic>,
    /// The group-level error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The group-level error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeShareGroupOffsetsResponseGroup {
    fn default() -> Self {
        DescribeShareGroupOffsetsResponseGroup {
            group_id: String::from(""),
            topics: Vec::<DescribeShareGroupOffsetsResponseTopic>::new(),
            error_code: 0,
            error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsResponseGroup {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.group_id, flexible)?;
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
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
            DescribeShareGroupOffsetsResponseTopic::read(d, version)
        })?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeShareGroupOffsetsResponseGroup", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeShareGroupOffsetsResponseGroup {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.topics = (0..rng.len())
            .map(|_| DescribeShareGroupOffsetsResponseTopic::random_value(rng, version))
            .collect();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeShareGroupOffsetsResponseTopic` of [`DescribeShareGroupOffsetsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsResponseTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// The unique topic ID.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    ///
    /// Versions: 0+.
    pub partitions: Vec<DescribeShareGroupOffsetsResponsePartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeShareGroupOffsetsResponseTopic {
    fn default() -> Self {
        DescribeShareGroupOffsetsResponseTopic {
            topic_name: String::from(""),
            topic_id: Uuid::nil(),
            partitions: Vec::<DescribeShareGroupOffsetsResponsePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsResponseTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.topic_name, flexible)?;
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
        this.topic_name = d.string(flexible, "TopicName")?;
        this.topic_id = d.uuid()?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            DescribeShareGroupOffsetsResponsePartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeShareGroupOffsetsResponseTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeShareGroupOffsetsResponseTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_name = rng.string();
        this.topic_id = rng.uuid();
        this.partitions = (0..rng.len())
            .map(|_| DescribeShareGroupOffsetsResponsePartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeShareGroupOffsetsResponsePartition` of [`DescribeShareGroupOffsetsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsResponsePartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The share-partition start offset.
    ///
    /// Versions: 0+.
    pub start_offset: i64,
    /// The leader epoch of the partition.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// The share-partition lag.
    ///
    /// Versions: 1+.
    pub lag: i64,
    /// The partition-level error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The partition-level error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeShareGroupOffsetsResponsePartition {
    fn default() -> Self {
        DescribeShareGroupOffsetsResponsePartition {
            partition_index: 0,
            start_offset: 0,
            leader_epoch: 0,
            lag: -1,
            error_code: 0,
            error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsResponsePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.i64(self.start_offset);
        e.i32(self.leader_epoch);
        if version == 1 {
            e.i64(self.lag);
        }
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
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
        this.leader_epoch = d.i32()?;
        if version == 1 {
            this.lag = d.i64()?;
        }
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields = d
                .tagged_fields("DescribeShareGroupOffsetsResponsePartition", |_, _| {
                    Ok(false)
                })?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeShareGroupOffsetsResponsePartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.start_offset = rng.i64();
        this.leader_epoch = rng.i32();
        if version == 1 {
            this.lag = rng.i64();
        }
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeShareGroupOffsetsResponse {
    const NAME: &'static str = "DescribeShareGroupOffsetsResponse";
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
impl crate::testing::Random for DescribeShareGroupOffsetsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
