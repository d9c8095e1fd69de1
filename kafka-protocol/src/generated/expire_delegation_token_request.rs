//! `ExpireDelegationTokenRequest`, generated from Kafka's `ExpireDelegationTokenRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ExpireDelegationTokenRequest (valid versions 1-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct ExpireDelegationTokenRequest {
    /// The HMAC of the delegation token to be expired.
    ///
    /// Versions: 0+.
    pub hmac: Bytes,
    /// The expiry time period in milliseconds.
    ///
    /// Versions: 0+.
    pub expiry_time_period_ms: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ExpireDelegationTokenRequest {
    fn default() -> Self {
        ExpireDelegationTokenRequest {
            hmac: Bytes::new(),
            expiry_time_period_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ExpireDelegationTokenRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.bytes(&self.hmac, flexible)?;
        e.i64(self.expiry_time_period_ms);
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
        this.hmac = d.bytes(flexible, "Hmac")?;
        this.expiry_time_period_ms = d.i64()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ExpireDelegationTokenRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ExpireDelegationTokenRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.hmac = rng.bytes();
        this.expiry_time_period_ms = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ExpireDelegationTokenRequest {
    const NAME: &'static str = "ExpireDelegationTokenRequest";
    const VALID_VERSIONS: (i16, i16) = (1, 2);
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
impl crate::testing::Random for ExpireDelegationTokenRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
