//! `AlterConfigsResponse`, generated from Kafka's `AlterConfigsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterConfigsResponse (valid versions 0-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterConfigsResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The responses for each resource.
    ///
    /// Versions: 0+.
    pub responses: Vec<AlterConfigsResourceResponse>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterConfigsResponse {
    fn default() -> Self {
        AlterConfigsResponse {
            throttle_time_ms: 0,
            responses: Vec::<AlterConfigsResourceResponse>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterConfigsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i32(self.throttle_time_ms);
        e.array(&self.responses, flexible, |e, item| {
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
        this.throttle_time_ms = d.i32()?;
        this.responses = d.array(flexible, "Responses", |d| {
            AlterConfigsResourceResponse::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterConfigsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterConfigsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.responses = (0..rng.len())
            .map(|_| AlterConfigsResourceResponse::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AlterConfigsResourceResponse` of [`AlterConfigsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct AlterConfigsResourceResponse {
    /// The resource error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The resource error message, or null if there was no error.
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
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterConfigsResourceResponse {
    fn default() -> Self {
        AlterConfigsResourceResponse {
            error_code: 0,
            error_message: Some(String::from("")),
            resource_type: 0,
            resource_name: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterConfigsResourceResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.i8(self.resource_type);
        e.string(&self.resource_name, flexible)?;
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
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.resource_type = d.i8()?;
        this.resource_name = d.string(flexible, "ResourceName")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterConfigsResourceResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterConfigsResourceResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.resource_type = rng.i8();
        this.resource_name = rng.string();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterConfigsResponse {
    const NAME: &'static str = "AlterConfigsResponse";
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
impl crate::testing::Random for AlterConfigsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
