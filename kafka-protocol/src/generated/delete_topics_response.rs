//! `DeleteTopicsResponse`, generated from Kafka's `DeleteTopicsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DeleteTopicsResponse (valid versions 1-6, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteTopicsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// The results for each topic we tried to delete.
    ///
    /// Versions: 0+.
    pub responses: Vec<DeletableTopicResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteTopicsResponse {
    fn default() -> Self {
        DeleteTopicsResponse {
            throttle_time_ms: 0,
            responses: Vec::<DeletableTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteTopicsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
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
        let flexible = version >= 4;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.responses = d.array(flexible, "Responses", |d| {
            DeletableTopicResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteTopicsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteTopicsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.responses = (0..rng.len())
            .map(|_| DeletableTopicResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DeletableTopicResult` of [`DeleteTopicsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeletableTopicResult {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: Option<String>,
    /// The unique topic ID.
    ///
    /// Versions: 6+.
    pub topic_id: Uuid,
    /// The deletion error, or 0 if the deletion succeeded.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 5+.
    pub error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeletableTopicResult {
    fn default() -> Self {
        DeletableTopicResult {
            name: Some(String::from("")),
            topic_id: Uuid::nil(),
            error_code: 0,
            error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeletableTopicResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        if self.name.is_none() && !(version == 6) {
            return Err(EncodeError::NullNotAllowed {
                message: "DeletableTopicResult",
                field: "Name",
                version,
            });
        }
        e.nullable_string(self.name.as_deref(), flexible)?;
        if version == 6 {
            e.uuid(&self.topic_id);
        }
        e.i16(self.error_code);
        if version >= 5 {
            if self.error_message.is_none() && !(version >= 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "DeletableTopicResult",
                    field: "ErrorMessage",
                    version,
                });
            }
            e.nullable_string(self.error_message.as_deref(), flexible)?;
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
        this.name = if version == 6 {
            d.nullable_string(flexible)?
        } else {
            Some(d.string(flexible, "Name")?)
        };
        if version == 6 {
            this.topic_id = d.uuid()?;
        }
        this.error_code = d.i16()?;
        if version >= 5 {
            this.error_message = if version >= 5 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ErrorMessage")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeletableTopicResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeletableTopicResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        this.name = if version == 6 && rng.null() {
            None
        } else {
            Some(rng.string())
        };
        if version == 6 {
            this.topic_id = rng.uuid();
        }
        this.error_code = rng.i16();
        if version >= 5 {
            this.error_message = if version >= 5 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DeleteTopicsResponse {
    const NAME: &'static str = "DeleteTopicsResponse";
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
impl crate::testing::Random for DeleteTopicsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
