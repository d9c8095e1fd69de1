//! `DescribeShareGroupOffsetsRequest`, generated from Kafka's `DescribeShareGroupOffsetsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeShareGroupOffsetsRequest (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsRequest {
    /// The groups to describe offsets for.
    ///
    /// Versions: 0+.
    pub groups: Vec<DescribeShareGroupOffsetsRequestGroup>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeShareGroupOffsetsRequest {
    fn default() -> Self {
        DescribeShareGroupOffsetsRequest {
            groups: Vec::<DescribeShareGroupOffsetsRequestGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
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
        this.groups = d.array(flexible, "Groups", |d| {
            DescribeShareGroupOffsetsRequestGroup::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeShareGroupOffsetsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeShareGroupOffsetsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.groups = (0..rng.len())
            .map(|_| DescribeShareGroupOffsetsRequestGroup::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeShareGroupOffsetsRequestGroup` of [`DescribeShareGroupOffsetsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsRequestGroup {
    /// The group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The topics to describe offsets for, or null for all topic-partitions.
    ///
    /// Versions: 0+.
    pub topics: Option<Vec<DescribeShareGroupOffsetsRequestTopic>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeShareGroupOffsetsRequestGroup {
    fn default() -> Self {
        DescribeShareGroupOffsetsRequestGroup {
            group_id: String::from(""),
            topics: Some(Vec::<DescribeShareGroupOffsetsRequestTopic>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsRequestGroup {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.group_id, flexible)?;
        e.nullable_array(self.topics.as_deref(), flexible, |e, item| {
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
        this.topics = d.nullable_array(flexible, |d| {
            DescribeShareGroupOffsetsRequestTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeShareGroupOffsetsRequestGroup", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeShareGroupOffsetsRequestGroup {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.topics = if rng.null() {
            None
        } else {
            Some(
                (0..rng.len())
                    .map(|_| DescribeShareGroupOffsetsRequestTopic::random_value(rng, version))
                    .collect(),
            )
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeShareGroupOffsetsRequestTopic` of [`DescribeShareGroupOffsetsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsRequestTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// The partitions.
    ///
    /// Versions: 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeShareGroupOffsetsRequestTopic {
    fn default() -> Self {
        DescribeShareGroupOffsetsRequestTopic {
            topic_name: String::from(""),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsRequestTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.topic_name, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
            e.i32(*item);
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
        this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeShareGroupOffsetsRequestTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeShareGroupOffsetsRequestTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_name = rng.string();
        this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeShareGroupOffsetsRequest {
    const NAME: &'static str = "DescribeShareGroupOffsetsRequest";
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
impl crate::testing::Random for DescribeShareGroupOffsetsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
