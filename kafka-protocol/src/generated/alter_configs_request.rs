//! `AlterConfigsRequest`, generated from Kafka's `AlterConfigsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterConfigsRequest (valid versions 0-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterConfigsRequest {
    /// The updates for each resource.
    ///
    /// Versions: 0+.
    pub resources: Vec<AlterConfigsResource>,
    /// True if we should validate the request, but not change the configurations.
    ///
    /// Versions: 0+.
    pub validate_only: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterConfigsRequest {
    fn default() -> Self {
        AlterConfigsRequest {
            resources: Vec::<AlterConfigsResource>::new(),
            validate_only: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterConfigsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.array(&self.resources, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.bool(self.validate_only);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 2;
        let mut this = Self::default();
        this.resources = d.array(flexible, "Resources", |d| {
            AlterConfigsResource::read(d, version)
        })?;
        this.validate_only = d.bool()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterConfigsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterConfigsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.resources = (0..rng.len())
            .map(|_| AlterConfigsResource::random_value(rng, version))
            .collect();
        this.validate_only = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AlterConfigsResource` of [`AlterConfigsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AlterConfigsResource {
    /// The resource type.
    ///
    /// Versions: 0+.
    pub resource_type: i8,
    /// The resource name.
    ///
    /// Versions: 0+.
    pub resource_name: String,
    /// The configurations.
    ///
    /// Versions: 0+.
    pub configs: Vec<AlterableConfig>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterConfigsResource {
    fn default() -> Self {
        AlterConfigsResource {
            resource_type: 0,
            resource_name: String::from(""),
            configs: Vec::<AlterableConfig>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterConfigsResource {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.resource_type = d.i8()?;
        this.resource_name = d.string(flexible, "ResourceName")?;
        this.configs = d.array(flexible, "Configs", |d| AlterableConfig::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterConfigsResource", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterConfigsResource {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.resource_type = rng.i8();
        this.resource_name = rng.string();
        this.configs = (0..rng.len())
            .map(|_| AlterableConfig::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AlterableConfig` of [`AlterConfigsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AlterableConfig {
    /// The configuration key name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The value to set for the configuration key.
    ///
    /// Versions: 0+.
    pub value: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterableConfig {
    fn default() -> Self {
        AlterableConfig {
            name: String::from(""),
            value: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterableConfig {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.string(&self.name, flexible)?;
        e.nullable_string(self.value.as_deref(), flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 2;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.value = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("AlterableConfig", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterableConfig {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.name = rng.string();
        this.value = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterConfigsRequest {
    const NAME: &'static str = "AlterConfigsRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
    const FLEXIBLE_MIN: Option<i16> = Some(2);
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
impl crate::testing::Random for AlterConfigsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
