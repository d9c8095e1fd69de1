//! `GetTelemetrySubscriptionsRequest`, generated from Kafka's `GetTelemetrySubscriptionsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// GetTelemetrySubscriptionsRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct GetTelemetrySubscriptionsRequest {
    /// Unique id for this client instance, must be set to 0 on the first request.
    ///
    /// Versions: 0+.
    pub client_instance_id: Uuid,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for GetTelemetrySubscriptionsRequest {
    fn default() -> Self {
        GetTelemetrySubscriptionsRequest {
            client_instance_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl GetTelemetrySubscriptionsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.uuid(&self.client_instance_id);
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
        this.client_instance_id = d.uuid()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("GetTelemetrySubscriptionsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl GetTelemetrySubscriptionsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.client_instance_id = rng.uuid();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for GetTelemetrySubscriptionsRequest {
    const NAME: &'static str = "GetTelemetrySubscriptionsRequest";
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
impl crate::testing::Random for GetTelemetrySubscriptionsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
