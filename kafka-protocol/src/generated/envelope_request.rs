//! `EnvelopeRequest`, generated from Kafka's `EnvelopeRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// EnvelopeRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct EnvelopeRequest {
    /// The embedded request header and data.
    ///
    /// Versions: 0+.
    pub request_data: Bytes,
    /// Value of the initial client principal when the request is redirected by a broker.
    ///
    /// Versions: 0+.
    pub request_principal: Option<Bytes>,
    /// The original client's address in bytes.
    ///
    /// Versions: 0+.
    pub client_host_address: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for EnvelopeRequest {
    fn default() -> Self {
        EnvelopeRequest {
            request_data: Bytes::new(),
            request_principal: Some(Bytes::new()),
            client_host_address: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EnvelopeRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.bytes(&self.request_data, flexible)?;
        e.nullable_bytes(self.request_principal.as_ref(), flexible)?;
        e.bytes(&self.client_host_address, flexible)?;
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
        this.request_data = d.bytes(flexible, "RequestData")?;
        this.request_principal = d.nullable_bytes(flexible)?;
        this.client_host_address = d.bytes(flexible, "ClientHostAddress")?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("EnvelopeRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl EnvelopeRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.request_data = rng.bytes();
        this.request_principal = if rng.null() { None } else { Some(rng.bytes()) };
        this.client_host_address = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for EnvelopeRequest {
    const NAME: &'static str = "EnvelopeRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 0);
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
impl crate::testing::Random for EnvelopeRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
