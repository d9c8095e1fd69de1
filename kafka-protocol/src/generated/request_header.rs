//! `RequestHeader`, generated from Kafka's `RequestHeader.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// RequestHeader (valid versions 0-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct RequestHeader {
    /// The API key of this request.
    ///
    /// Versions: 0+.
    pub request_api_key: i16,
    /// The API version of this request.
    ///
    /// Versions: 0+.
    pub request_api_version: i16,
    /// The correlation ID of this request.
    ///
    /// Versions: 0+.
    pub correlation_id: i32,
    /// The client ID string.
    ///
    /// Versions: 1+.
    pub client_id: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for RequestHeader {
    fn default() -> Self {
        RequestHeader {
            request_api_key: 0,
            request_api_version: 0,
            correlation_id: 0,
            client_id: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl RequestHeader {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i16(self.request_api_key);
        e.i16(self.request_api_version);
        e.i32(self.correlation_id);
        if version >= 1 {
            if self.client_id.is_none() && !(version >= 1) {
                return Err(EncodeError::NullNotAllowed {
                    message: "RequestHeader",
                    field: "ClientId",
                    version,
                });
            }
            e.nullable_string(self.client_id.as_deref(), false)?;
        }
        if version == 0 {
            if self.client_id != Some(String::from("")) && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "RequestHeader",
                    field: "ClientId",
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.request_api_key = d.i16()?;
        this.request_api_version = d.i16()?;
        this.correlation_id = d.i32()?;
        if version >= 1 {
            this.client_id = if version >= 1 {
                d.nullable_string(false)?
            } else {
                Some(d.string(false, "ClientId")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("RequestHeader", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl RequestHeader {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.request_api_key = rng.i16();
        this.request_api_version = rng.i16();
        this.correlation_id = rng.i32();
        if version >= 1 {
            this.client_id = if version >= 1 && rng.null() {
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

impl crate::Message for RequestHeader {
    const NAME: &'static str = "RequestHeader";
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
impl crate::testing::Random for RequestHeader {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
