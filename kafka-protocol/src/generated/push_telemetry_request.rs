//! `PushTelemetryRequest`, generated from Kafka's `PushTelemetryRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// PushTelemetryRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct PushTelemetryRequest {
    /// Unique id for this client instance.
    ///
    /// Versions: 0+.
    pub client_instance_id: Uuid,
    /// Unique identifier for the current subscription.
    ///
    /// Versions: 0+.
    pub subscription_id: i32,
    /// Client is terminating the connection.
    ///
    /// Versions: 0+.
    pub terminating: bool,
    /// Compression codec used to compress the metrics.
    ///
    /// Versions: 0+.
    pub compression_type: i8,
    /// Metrics encoded in OpenTelemetry MetricsData v1 protobuf format.
    ///
    /// Versions: 0+.
    pub metrics: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PushTelemetryRequest {
    fn default() -> Self {
        PushTelemetryRequest {
            client_instance_id: Uuid::nil(),
            subscription_id: 0,
            terminating: false,
            compression_type: 0,
            metrics: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PushTelemetryRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.uuid(&self.client_instance_id);
        e.i32(self.subscription_id);
        e.bool(self.terminating);
        e.i8(self.compression_type);
        e.bytes(&self.metrics, flexible)?;
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
        this.subscription_id = d.i32()?;
        this.terminating = d.bool()?;
        this.compression_type = d.i8()?;
        this.metrics = d.bytes(flexible, "Metrics")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("PushTelemetryRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl PushTelemetryRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.client_instance_id = rng.uuid();
        this.subscription_id = rng.i32();
        this.terminating = rng.bool();
        this.compression_type = rng.i8();
        this.metrics = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for PushTelemetryRequest {
    const NAME: &'static str = "PushTelemetryRequest";
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
impl crate::testing::Random for PushTelemetryRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
