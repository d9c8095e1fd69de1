//! `DeleteShareGroupOffsetsRequest`, generated from Kafka's `DeleteShareGroupOffsetsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DeleteShareGroupOffsetsRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteShareGroupOffsetsRequest {
    /// The group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The topics to delete offsets for.
    ///
    /// Versions: 0+.
    pub topics: Vec<DeleteShareGroupOffsetsRequestTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteShareGroupOffsetsRequest {
    fn default() -> Self {
        DeleteShareGroupOffsetsRequest {
            group_id: String::from(""),
            topics: Vec::<DeleteShareGroupOffsetsRequestTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteShareGroupOffsetsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.group_id, flexible)?;
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
        this.group_id = d.string(flexible, "GroupId")?;
        this.topics = d.array(flexible, "Topics", |d| {
            DeleteShareGroupOffsetsRequestTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteShareGroupOffsetsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteShareGroupOffsetsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.topics = (0..rng.len())
            .map(|_| DeleteShareGroupOffsetsRequestTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DeleteShareGroupOffsetsRequestTopic` of [`DeleteShareGroupOffsetsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteShareGroupOffsetsRequestTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic_name: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteShareGroupOffsetsRequestTopic {
    fn default() -> Self {
        DeleteShareGroupOffsetsRequestTopic {
            topic_name: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteShareGroupOffsetsRequestTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.topic_name, flexible)?;
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
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteShareGroupOffsetsRequestTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteShareGroupOffsetsRequestTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_name = rng.string();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DeleteShareGroupOffsetsRequest {
    const NAME: &'static str = "DeleteShareGroupOffsetsRequest";
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
impl crate::testing::Random for DeleteShareGroupOffsetsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
