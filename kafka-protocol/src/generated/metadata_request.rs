//! `MetadataRequest`, generated from Kafka's `MetadataRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// MetadataRequest (valid versions 0-13, flexible from 9).
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataRequest {
    /// The topics to fetch metadata for.
    ///
    /// Versions: 0+.
    pub topics: Option<Vec<MetadataRequestTopic>>,
    /// If this is true, the broker may auto-create topics that we requested which do not already exist, if it is configured to do so.
    ///
    /// Versions: 4+.
    pub allow_auto_topic_creation: bool,
    /// Whether to include cluster authorized operations.
    ///
    /// Versions: 8-10.
    pub include_cluster_authorized_operations: bool,
    /// Whether to include topic authorized operations.
    ///
    /// Versions: 8+.
    pub include_topic_authorized_operations: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for MetadataRequest {
    fn default() -> Self {
        MetadataRequest {
            topics: Some(Vec::<MetadataRequestTopic>::new()),
            allow_auto_topic_creation: true,
            include_cluster_authorized_operations: false,
            include_topic_authorized_operations: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        if self.topics.is_none() && !(version >= 1) {
            return Err(EncodeError::NullNotAllowed {
                message: "MetadataRequest",
                field: "Topics",
                version,
            });
        }
        e.nullable_array(self.topics.as_deref(), flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 4 {
            e.bool(self.allow_auto_topic_creation);
        }
        if version <= 3 {
            if self.allow_auto_topic_creation != true && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MetadataRequest",
                    field: "AllowAutoTopicCreation",
                    version,
                });
            }
        }
        if (8..=10).contains(&version) {
            e.bool(self.include_cluster_authorized_operations);
        }
        if matches!(version, 0..=7 | 11..=13) {
            if self.include_cluster_authorized_operations != false && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "MetadataRequest",
                    field: "IncludeClusterAuthorizedOperations",
                    version,
                });
            }
        }
        if version >= 8 {
            e.bool(self.include_topic_authorized_operations);
        }
        if version <= 7 {
            if self.include_topic_authorized_operations != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MetadataRequest",
                    field: "IncludeTopicAuthorizedOperations",
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
        let flexible = version >= 9;
        let mut this = Self::default();
        this.topics = if version >= 1 {
            d.nullable_array(flexible, |d| MetadataRequestTopic::read(d, version))?
        } else {
            Some(d.array(flexible, "Topics", |d| {
                MetadataRequestTopic::read(d, version)
            })?)
        };
        if version >= 4 {
            this.allow_auto_topic_creation = d.bool()?;
        }
        if (8..=10).contains(&version) {
            this.include_cluster_authorized_operations = d.bool()?;
        }
        if version >= 8 {
            this.include_topic_authorized_operations = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("MetadataRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl MetadataRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.topics = if version >= 1 && rng.null() {
            None
        } else {
            Some(
                (0..rng.len())
                    .map(|_| MetadataRequestTopic::random_value(rng, version))
                    .collect(),
            )
        };
        if version >= 4 {
            this.allow_auto_topic_creation = rng.bool();
        }
        if (8..=10).contains(&version) {
            this.include_cluster_authorized_operations = rng.bool();
        }
        if version >= 8 {
            this.include_topic_authorized_operations = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `MetadataRequestTopic` of [`MetadataRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataRequestTopic {
    /// The topic id.
    ///
    /// Versions: 10+.
    pub topic_id: Uuid,
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for MetadataRequestTopic {
    fn default() -> Self {
        MetadataRequestTopic {
            topic_id: Uuid::nil(),
            name: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataRequestTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        if version >= 10 {
            e.uuid(&self.topic_id);
        }
        if self.name.is_none() && !(version >= 10) {
            return Err(EncodeError::NullNotAllowed {
                message: "MetadataRequestTopic",
                field: "Name",
                version,
            });
        }
        e.nullable_string(self.name.as_deref(), flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 10 {
            this.topic_id = d.uuid()?;
        }
        this.name = if version >= 10 {
            d.nullable_string(flexible)?
        } else {
            Some(d.string(flexible, "Name")?)
        };
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("MetadataRequestTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl MetadataRequestTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 10 {
            this.topic_id = rng.uuid();
        }
        this.name = if version >= 10 && rng.null() {
            None
        } else {
            Some(rng.string())
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for MetadataRequest {
    const NAME: &'static str = "MetadataRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 13);
    const FLEXIBLE_MIN: Option<i16> = Some(9);
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
impl crate::testing::Random for MetadataRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
