//! `DeleteTopicsRequest`, generated from Kafka's `DeleteTopicsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DeleteTopicsRequest (valid versions 1-6, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteTopicsRequest {
    /// The name or topic ID of the topic.
    ///
    /// Versions: 6+.
    pub topics: Vec<DeleteTopicState>,
    /// The names of the topics to delete.
    ///
    /// Versions: 0-5.
    pub topic_names: Vec<String>,
    /// The length of time in milliseconds to wait for the deletions to complete.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteTopicsRequest {
    fn default() -> Self {
        DeleteTopicsRequest {
            topics: Vec::<DeleteTopicState>::new(),
            topic_names: Vec::<String>::new(),
            timeout_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteTopicsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        if version == 6 {
            e.array(&self.topics, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 5 {
            if self.topics != Vec::<DeleteTopicState>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DeleteTopicsRequest",
                    field: "Topics",
                    version,
                });
            }
        }
        if version <= 5 {
            e.array(&self.topic_names, flexible, |e, item| {
                e.string(item, flexible)?;
                Ok(())
            })?;
        }
        e.i32(self.timeout_ms);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 4;
        let mut this = Self::default();
        if version == 6 {
            this.topics = d.array(flexible, "Topics", |d| DeleteTopicState::read(d, version))?;
        }
        if version <= 5 {
            this.topic_names =
                d.array(flexible, "TopicNames", |d| d.string(flexible, "TopicNames"))?;
        }
        this.timeout_ms = d.i32()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteTopicsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteTopicsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        if version == 6 {
            this.topics = (0..rng.len())
                .map(|_| DeleteTopicState::random_value(rng, version))
                .collect();
        }
        if version <= 5 {
            this.topic_names = (0..rng.len()).map(|_| rng.string()).collect();
        }
        this.timeout_ms = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DeleteTopicState` of [`DeleteTopicsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteTopicState {
    /// The topic name.
    ///
    /// Versions: 6+.
    pub name: Option<String>,
    /// The unique topic ID.
    ///
    /// Versions: 6+.
    pub topic_id: Uuid,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteTopicState {
    fn default() -> Self {
        DeleteTopicState {
            name: None,
            topic_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteTopicState {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        if version == 6 {
            if self.name.is_none() && !(version == 6) {
                return Err(EncodeError::NullNotAllowed {
                    message: "DeleteTopicState",
                    field: "Name",
                    version,
                });
            }
            e.nullable_string(self.name.as_deref(), flexible)?;
        }
        if version <= 5 {
            if self.name != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DeleteTopicState",
                    field: "Name",
                    version,
                });
            }
        }
        if version == 6 {
            e.uuid(&self.topic_id);
        }
        if version <= 5 {
            if self.topic_id != Uuid::nil() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DeleteTopicState",
                    field: "TopicId",
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
        let flexible = version >= 4;
        let mut this = Self::default();
        if version == 6 {
            this.name = if version == 6 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "Name")?)
            };
        }
        if version == 6 {
            this.topic_id = d.uuid()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("DeleteTopicState", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteTopicState {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        if version == 6 {
            this.name = if version == 6 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version == 6 {
            this.topic_id = rng.uuid();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DeleteTopicsRequest {
    const NAME: &'static str = "DeleteTopicsRequest";
    const VALID_VERSIONS: (i16, i16) = (1, 6);
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
impl crate::testing::Random for DeleteTopicsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
