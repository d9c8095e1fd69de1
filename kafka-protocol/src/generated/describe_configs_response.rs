//! `DescribeConfigsResponse`, generated from Kafka's `DescribeConfigsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeConfigsResponse (valid versions 1-4, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The results for each resource.
    ///
    /// Versions: 0+.
    pub results: Vec<DescribeConfigsResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeConfigsResponse {
    fn default() -> Self {
        DescribeConfigsResponse {
            throttle_time_ms: 0,
            results: Vec::<DescribeConfigsResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.i32(self.throttle_time_ms);
        e.array(&self.results, flexible, |e, item| {
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
        let flexible = version == 4;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.results = d.array(flexible, "Results", |d| {
            DescribeConfigsResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeConfigsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeConfigsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.results = (0..rng.len())
            .map(|_| DescribeConfigsResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeConfigsResult` of [`DescribeConfigsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsResult {
    /// The error code, or 0 if we were able to successfully describe the configurations.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if we were able to successfully describe the configurations.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The resource type.
    ///
    /// Versions: 0+.
    pub resource_type: i8,
    /// The resource name.
    ///
    /// Versions: 0+.
    pub resource_name: String,
    /// Each listed configuration.
    ///
    /// Versions: 0+.
    pub configs: Vec<DescribeConfigsResourceResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeConfigsResult {
    fn default() -> Self {
        DescribeConfigsResult {
            error_code: 0,
            error_message: Some(String::from("")),
            resource_type: 0,
            resource_name: String::from(""),
            configs: Vec::<DescribeConfigsResourceResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.i8(self.resource_type);
        e.string(&self.resource_name, flexible)?;
        e.array(&self.configs, flexible, |e, item| {
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
        let flexible = version == 4;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.resource_type = d.i8()?;
        this.resource_name = d.string(flexible, "ResourceName")?;
        this.configs = d.array(flexible, "Configs", |d| {
            DescribeConfigsResourceResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeConfigsResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeConfigsResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.resource_type = rng.i8();
        this.resource_name = rng.string();
        this.configs = (0..rng.len())
            .map(|_| DescribeConfigsResourceResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeConfigsResourceResult` of [`DescribeConfigsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsResourceResult {
    /// The configuration name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The configuration value.
    ///
    /// Versions: 0+.
    pub value: Option<String>,
    /// True if the configuration is read-only.
    ///
    /// Versions: 0+.
    pub read_only: bool,
    /// The configuration source.
    ///
    /// Versions: 1+.
    pub config_source: i8,
    /// True if this configuration is sensitive.
    ///
    /// Versions: 0+.
    pub is_sensitive: bool,
    /// The synonyms for this configuration key.
    ///
    /// Versions: 1+.
    pub synonyms: Vec<DescribeConfigsSynonym>,
    /// The configuration data type. Type can be one of the following values - BOOLEAN, STRING, INT, SHORT, LONG, DOUBLE, LIST, CLASS, PASSWORD.
    ///
    /// Versions: 3+.
    pub config_type: i8,
    /// The configuration documentation.
    ///
    /// Versions: 3+.
    pub documentation: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeConfigsResourceResult {
    fn default() -> Self {
        DescribeConfigsResourceResult {
            name: String::from(""),
            value: Some(String::from("")),
            read_only: false,
            config_source: -1,
            is_sensitive: false,
            synonyms: Vec::<DescribeConfigsSynonym>::new(),
            config_type: 0,
            documentation: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsResourceResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.string(&self.name, flexible)?;
        e.nullable_string(self.value.as_deref(), flexible)?;
        e.bool(self.read_only);
        e.i8(self.config_source);
        e.bool(self.is_sensitive);
        e.array(&self.synonyms, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 3 {
            e.i8(self.config_type);
        }
        if version >= 3 {
            e.nullable_string(self.documentation.as_deref(), flexible)?;
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 4;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.value = d.nullable_string(flexible)?;
        this.read_only = d.bool()?;
        this.config_source = d.i8()?;
        this.is_sensitive = d.bool()?;
        this.synonyms = d.array(flexible, "Synonyms", |d| {
            DescribeConfigsSynonym::read(d, version)
        })?;
        if version >= 3 {
            this.config_type = d.i8()?;
        }
        if version >= 3 {
            this.documentation = d.nullable_string(flexible)?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeConfigsResourceResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeConfigsResourceResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.name = rng.string();
        this.value = if rng.null() { None } else { Some(rng.string()) };
        this.read_only = rng.bool();
        this.config_source = rng.i8();
        this.is_sensitive = rng.bool();
        this.synonyms = (0..rng.len())
            .map(|_| DescribeConfigsSynonym::random_value(rng, version))
            .collect();
        if version >= 3 {
            this.config_type = rng.i8();
        }
        if version >= 3 {
            this.documentation = if rng.null() { None } else { Some(rng.string()) };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeConfigsSynonym` of [`DescribeConfigsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsSynonym {
    /// The synonym name.
    ///
    /// Versions: 1+.
    pub name: String,
    /// The synonym value.
    ///
    /// Versions: 1+.
    pub value: Option<String>,
    /// The synonym source.
    ///
    /// Versions: 1+.
    pub source: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeConfigsSynonym {
    fn default() -> Self {
        DescribeConfigsSynonym {
            name: String::from(""),
            value: Some(String::from("")),
            source: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsSynonym {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.string(&self.name, flexible)?;
        e.nullable_string(self.value.as_deref(), flexible)?;
        e.i8(self.source);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 4;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.value = d.nullable_string(flexible)?;
        this.source = d.i8()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeConfigsSynonym", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeConfigsSynonym {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.name = rng.string();
        this.value = if rng.null() { None } else { Some(rng.string()) };
        this.source = rng.i8();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeConfigsResponse {
    const NAME: &'static str = "DescribeConfigsResponse";
    const VALID_VERSIONS: (i16, i16) = (1, 4);
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
impl crate::testing::Random for DescribeConfigsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
