//! `ListConfigResourcesResponse`, generated from Kafka's `ListConfigResourcesResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListConfigResourcesResponse (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ListConfigResourcesResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Each config resource in the response.
    ///
    /// Versions: 0+.
    pub config_resources: Vec<ConfigResource>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListConfigResourcesResponse {
    fn default() -> Self {
        ListConfigResourcesResponse {
            throttle_time_ms: 0,
            error_code: 0,
            config_resources: Vec::<ConfigResource>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListConfigResourcesResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.array(&self.config_resources, flexible, |e, item| {
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
        this.error_code = d.i16()?;
        this.config_resources = d.array(flexible, "ConfigResources", |d| {
            ConfigResource::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ListConfigResourcesResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListConfigResourcesResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.config_resources = (0..rng.len())
            .map(|_| ConfigResource::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ConfigResource` of [`ListConfigResourcesResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigResource {
    /// The resource name.
    ///
    /// Versions: 0+.
    pub resource_name: String,
    /// The resource type.
    ///
    /// Versions: 1+.
    pub resource_type: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ConfigResource {
    fn default() -> Self {
        ConfigResource {
            resource_name: String::from(""),
            resource_type: 16,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ConfigResource {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.resource_name, flexible)?;
        if version == 1 {
            e.i8(self.resource_type);
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
        this.resource_name = d.string(flexible, "ResourceName")?;
        if version == 1 {
            this.resource_type = d.i8()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ConfigResource", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ConfigResource {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.resource_name = rng.string();
        if version == 1 {
            this.resource_type = rng.i8();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ListConfigResourcesResponse {
    const NAME: &'static str = "ListConfigResourcesResponse";
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
impl crate::testing::Random for ListConfigResourcesResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
