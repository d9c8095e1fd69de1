//! `SaslHandshakeResponse`, generated from Kafka's `SaslHandshakeResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// SaslHandshakeResponse (valid versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct SaslHandshakeResponse {
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The mechanisms enabled in the server.
    ///
    /// Versions: 0+.
    pub mechanisms: Vec<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SaslHandshakeResponse {
    fn default() -> Self {
        SaslHandshakeResponse {
            error_code: 0,
            mechanisms: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SaslHandshakeResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.i16(self.error_code);
        e.array(&self.mechanisms, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.mechanisms = d.array(flexible, "Mechanisms", |d| d.string(flexible, "Mechanisms"))?;
        Ok(this)
    }
}

#[cfg(test)]
impl SaslHandshakeResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.mechanisms = (0..rng.len()).map(|_| rng.string()).collect();
        this
    }
}

impl crate::Message for SaslHandshakeResponse {
    const NAME: &'static str = "SaslHandshakeResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 1);
    const FLEXIBLE_MIN: Option<i16> = None;
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
impl crate::testing::Random for SaslHandshakeResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
