//! `DescribeProducersRequest`, generated from Kafka's `DescribeProducersRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeProducersRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeProducersRequest {
    /// The topics to list producers for.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicRequest>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeProducersRequest {
    fn default() -> Self {
        DescribeProducersRequest {
            topics: Vec::<TopicRequest>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeProducersRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
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
        this.topics = d.array(flexible, "Topics", |d| TopicRequest::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeProducersRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeProducersRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topics = (0..rng.len())
            .map(|_| TopicRequest::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicRequest` of [`DescribeProducersRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicRequest {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The indexes of the partitions to list producers for.
    ///
    /// Versions: 0+.
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicRequest {
    fn default() -> Self {
        TopicRequest {
            name: String::from(""),
            partition_indexes: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.array(&self.partition_indexes, flexible, |e, item| {
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
        this.name = d.string(flexible, "Name")?;
        this.partition_indexes = d.array(flexible, "PartitionIndexes", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TopicRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partition_indexes = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeProducersRequest {
    const NAME: &'static str = "DescribeProducersRequest";
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
impl crate::testing::Random for DescribeProducersRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
