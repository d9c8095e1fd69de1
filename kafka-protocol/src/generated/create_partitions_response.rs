//! `CreatePartitionsResponse`, generated from Kafka's `CreatePartitionsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// CreatePartitionsResponse (valid versions 0-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct CreatePartitionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The partition creation results for each topic.
    ///
    /// Versions: 0+.
    pub results: Vec<CreatePartitionsTopicResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatePartitionsResponse {
    fn default() -> Self {
        CreatePartitionsResponse {
            throttle_time_ms: 0,
            results: Vec::<CreatePartitionsTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatePartitionsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.results = d.array(flexible, "Results", |d| {
            CreatePartitionsTopicResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreatePartitionsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatePartitionsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.results = (0..rng.len())
            .map(|_| CreatePartitionsTopicResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatePartitionsTopicResult` of [`CreatePartitionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatePartitionsTopicResult {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The result error, or zero if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The result message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatePartitionsTopicResult {
    fn default() -> Self {
        CreatePartitionsTopicResult {
            name: String::from(""),
            error_code: 0,
            error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatePartitionsTopicResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.string(&self.name, flexible)?;
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreatePartitionsTopicResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatePartitionsTopicResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.name = rng.string();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for CreatePartitionsResponse {
    const NAME: &'static str = "CreatePartitionsResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 3);
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
impl crate::testing::Random for CreatePartitionsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
