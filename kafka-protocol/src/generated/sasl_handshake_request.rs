//! `SaslHandshakeRequest`, generated from Kafka's `SaslHandshakeRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// SaslHandshakeRequest (valid versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct SaslHandshakeRequest {
    /// The SASL mechanism chosen by the client.
    ///
    /// Versions: 0+.
    pub mechanism: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SaslHandshakeRequest {
    fn default() -> Self {
        SaslHandshakeRequest {
            mechanism: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SaslHandshakeRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.string(&self.mechanism, flexible)?;
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.mechanism = d.string(flexible, "Mechanism")?;
        Ok(this)
    }
}

#[cfg(test)]
impl SaslHandshakeRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.mechanism = rng.string();
        this
    }
}

impl crate::Message for SaslHandshakeRequest {
    const NAME: &'static str = "SaslHandshakeRequest";
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
impl crate::testing::Random for SaslHandshakeRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
