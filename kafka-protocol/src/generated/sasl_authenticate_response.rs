//! `SaslAuthenticateResponse`, generated from Kafka's `SaslAuthenticateResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// SaslAuthenticateResponse (valid versions 0-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct SaslAuthenticateResponse {
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The SASL authentication bytes from the server, as defined by the SASL mechanism.
    ///
    /// Versions: 0+.
    pub auth_bytes: Bytes,
    /// Number of milliseconds after which only re-authentication over the existing connection to create a new session can occur.
    ///
    /// Versions: 1+.
    pub session_lifetime_ms: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SaslAuthenticateResponse {
    fn default() -> Self {
        SaslAuthenticateResponse {
            error_code: 0,
            error_message: Some(String::from("")),
            auth_bytes: Bytes::new(),
            session_lifetime_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SaslAuthenticateResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.bytes(&self.auth_bytes, flexible)?;
        if version >= 1 {
            e.i64(self.session_lifetime_ms);
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
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.auth_bytes = d.bytes(flexible, "AuthBytes")?;
        if version >= 1 {
            this.session_lifetime_ms = d.i64()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("SaslAuthenticateResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl SaslAuthenticateResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.auth_bytes = rng.bytes();
        if version >= 1 {
            this.session_lifetime_ms = rng.i64();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for SaslAuthenticateResponse {
    const NAME: &'static str = "SaslAuthenticateResponse";
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
impl crate::testing::Random for SaslAuthenticateResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
