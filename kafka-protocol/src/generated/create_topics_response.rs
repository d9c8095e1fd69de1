//! `CreateTopicsResponse`, generated from Kafka's `CreateTopicsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// CreateTopicsResponse (valid versions 2-7, flexible from 5).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTopicsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 2+.
    pub throttle_time_ms: i32,
    /// Results for each topic we tried to create.
    ///
    /// Versions: 0+.
    pub topics: Vec<CreatableTopicResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreateTopicsResponse {
    fn default() -> Self {
        CreateTopicsResponse {
            throttle_time_ms: 0,
            topics: Vec::<CreatableTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreateTopicsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.i32(self.throttle_time_ms);
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
        let flexible = version >= 5;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.topics = d.array(flexible, "Topics", |d| {
            CreatableTopicResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreateTopicsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreateTopicsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.topics = (0..rng.len())
            .map(|_| CreatableTopicResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatableTopicResult` of [`CreateTopicsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableTopicResult {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The unique topic ID.
    ///
    /// Versions: 7+.
    pub topic_id: Uuid,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 1+.
    pub error_message: Option<String>,
    /// Optional topic config error returned if configs are not returned in the response.
    ///
    /// Versions: 5+.
    pub topic_config_error_code: i16,
    /// Number of partitions of the topic.
    ///
    /// Versions: 5+.
    pub num_partitions: i32,
    /// Replication factor of the topic.
    ///
    /// Versions: 5+.
    pub replication_factor: i16,
    /// Configuration of the topic.
    ///
    /// Versions: 5+.
    pub configs: Option<Vec<CreatableTopicConfigs>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatableTopicResult {
    fn default() -> Self {
        CreatableTopicResult {
            name: String::from(""),
            topic_id: Uuid::nil(),
            error_code: 0,
            error_message: Some(String::from("")),
            topic_config_error_code: 0,
            num_partitions: -1,
            replication_factor: -1,
            configs: Some(Vec::<CreatableTopicConfigs>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableTopicResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.string(&self.name, flexible)?;
        if version == 7 {
            e.uuid(&self.topic_id);
        }
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        if version >= 5 {
            e.i32(self.num_partitions);
        }
        if version >= 5 {
            e.i16(self.replication_factor);
        }
        if version >= 5 {
            if self.configs.is_none() && !(version >= 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "CreatableTopicResult",
                    field: "Configs",
                    version,
                });
            }
            e.nullable_array(self.configs.as_deref(), flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 5 {
                if self.topic_config_error_code != 0 {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.i16(self.topic_config_error_code);
                    }
                    tagged.push((0, t));
                }
            }
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        if version == 7 {
            this.topic_id = d.uuid()?;
        }
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        if version >= 5 {
            this.num_partitions = d.i32()?;
        }
        if version >= 5 {
            this.replication_factor = d.i16()?;
        }
        if version >= 5 {
            this.configs = if version >= 5 {
                d.nullable_array(flexible, |d| CreatableTopicConfigs::read(d, version))?
            } else {
                Some(d.array(flexible, "Configs", |d| {
                    CreatableTopicConfigs::read(d, version)
                })?)
            };
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("CreatableTopicResult", |tag, d| {
                match tag {
                    0 if version >= 5 => {
                        this.topic_config_error_code = d.i16()?;
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatableTopicResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.name = rng.string();
        if version == 7 {
            this.topic_id = rng.uuid();
        }
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        if version >= 5 {
            this.topic_config_error_code = rng.i16();
        }
        if version >= 5 {
            this.num_partitions = rng.i32();
        }
        if version >= 5 {
            this.replication_factor = rng.i16();
        }
        if version >= 5 {
            this.configs = if version >= 5 && rng.null() {
                None
            } else {
                Some(
                    (0..rng.len())
                        .map(|_| CreatableTopicConfigs::random_value(rng, version))
                        .collect(),
                )
            };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatableTopicConfigs` of [`CreateTopicsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableTopicConfigs {
    /// The configuration name.
    ///
    /// Versions: 5+.
    pub name: String,
    /// The configuration value.
    ///
    /// Versions: 5+.
    pub value: Option<String>,
    /// True if the configuration is read-only.
    ///
    /// Versions: 5+.
    pub read_only: bool,
    /// The configuration source.
    ///
    /// Versions: 5+.
    pub config_source: i8,
    /// True if this configuration is sensitive.
    ///
    /// Versions: 5+.
    pub is_sensitive: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatableTopicConfigs {
    fn default() -> Self {
        CreatableTopicConfigs {
            name: String::from(""),
            value: Some(String::from("")),
            read_only: false,
            config_source: -1,
            is_sensitive: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableTopicConfigs {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        if version >= 5 {
            e.string(&self.name, flexible)?;
        }
        if version <= 4 {
            if self.name != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "CreatableTopicConfigs",
                    field: "Name",
                    version,
                });
            }
        }
        if version >= 5 {
            if self.value.is_none() && !(version >= 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "CreatableTopicConfigs",
                    field: "Value",
                    version,
                });
            }
            e.nullable_string(self.value.as_deref(), flexible)?;
        }
        if version <= 4 {
            if self.value != Some(String::from("")) && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "CreatableTopicConfigs",
                    field: "Value",
                    version,
                });
            }
        }
        if version >= 5 {
            e.bool(self.read_only);
        }
        if version <= 4 {
            if self.read_only != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "CreatableTopicConfigs",
                    field: "ReadOnly",
                    version,
                });
            }
        }
        if version >= 5 {
            e.i8(self.config_source);
        }
        if version >= 5 {
            e.bool(self.is_sensitive);
        }
        if version <= 4 {
            if self.is_sensitive != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "CreatableTopicConfigs",
                    field: "IsSensitive",
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
        let flexible = version >= 5;
        let mut this = Self::default();
        if version >= 5 {
            this.name = d.string(flexible, "Name")?;
        }
        if version >= 5 {
            this.value = if version >= 5 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "Value")?)
            };
        }
        if version >= 5 {
            this.read_only = d.bool()?;
        }
        if version >= 5 {
            this.config_source = d.i8()?;
        }
        if version >= 5 {
            this.is_sensitive = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreatableTopicConfigs", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatableTopicConfigs {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        if version >= 5 {
            this.name = rng.string();
        }
        if version >= 5 {
            this.value = if version >= 5 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version >= 5 {
            this.read_only = rng.bool();
        }
        if version >= 5 {
            this.config_source = rng.i8();
        }
        if version >= 5 {
            this.is_sensitive = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for CreateTopicsResponse {
    const NAME: &'static str = "CreateTopicsResponse";
    const VALID_VERSIONS: (i16, i16) = (2, 7);
    const FLEXIBLE_MIN: Option<i16> = Some(5);
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
impl crate::testing::Random for CreateTopicsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
