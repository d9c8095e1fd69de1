//! `DescribeTopicPartitionsRequest`, generated from Kafka's `DescribeTopicPartitionsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeTopicPartitionsRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeTopicPartitionsRequest {
    /// The topics to fetch details for.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicRequest>,
    /// The maximum number of partitions included in the response.
    ///
    /// Versions: 0+.
    pub response_partition_limit: i32,
    /// The first topic and partition index to fetch details for.
    ///
    /// Versions: 0+.
    pub cursor: Option<Cursor>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeTopicPartitionsRequest {
    fn default() -> Self {
        DescribeTopicPartitionsRequest {
            topics: Vec::<TopicRequest>::new(),
            response_partition_limit: 2000,
            cursor: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeTopicPartitionsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.response_partition_limit);
        match &self.cursor {
            None => e.i8(-1),
            Some(s) => {
                e.i8(1);
                s.write(e, version)?;
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
        this.topics = d.array(flexible, "Topics", |d| TopicRequest::read(d, version))?;
        this.response_partition_limit = d.i32()?;
        this.cursor = {
            if d.i8()? < 0 {
                None
            } else {
                Some(Cursor::read(d, version)?)
            }
        };
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeTopicPartitionsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeTopicPartitionsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topics = (0..rng.len())
            .map(|_| TopicRequest::random_value(rng, version))
            .collect();
        this.response_partition_limit = rng.i32();
        this.cursor = if rng.null() {
            None
        } else {
            Some(Cursor::random_value(rng, version))
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicRequest` of [`DescribeTopicPartitionsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicRequest {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicRequest {
    fn default() -> Self {
        TopicRequest {
            name: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
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
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Cursor` of [`DescribeTopicPartitionsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    /// The name for the first topic to process.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// The partition index to start with.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Cursor {
    fn default() -> Self {
        Cursor {
            topic_name: String::from(""),
            partition_index: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Cursor {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.topic_name, flexible)?;
        e.i32(self.partition_index);
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
        this.partition_index = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Cursor", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Cursor {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_name = rng.string();
        this.partition_index = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeTopicPartitionsRequest {
    const NAME: &'static str = "DescribeTopicPartitionsRequest";
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
impl crate::testing::Random for DescribeTopicPartitionsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
