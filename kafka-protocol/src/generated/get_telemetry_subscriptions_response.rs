//! `GetTelemetrySubscriptionsResponse`, generated from Kafka's `GetTelemetrySubscriptionsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// GetTelemetrySubscriptionsResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct GetTelemetrySubscriptionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Assigned client instance id if ClientInstanceId was 0 in the request, else 0.
    ///
    /// Versions: 0+.
    pub client_instance_id: Uuid,
    /// Unique identifier for the current subscription set for this client instance.
    ///
    /// Versions: 0+.
    pub subscription_id: i32,
    /// Compression types that broker accepts for the PushTelemetryRequest.
    ///
    /// Versions: 0+.
    pub accepted_compression_types: Vec<i8>,
    /// Configured push interval, which is the lowest configured interval in the current subscription set.
    ///
    /// Versions: 0+.
    pub push_interval_ms: i32,
    /// The maximum bytes of binary data the broker accepts in PushTelemetryRequest.
    ///
    /// Versions: 0+.
    pub telemetry_max_bytes: i32,
    /// Flag to indicate monotonic/counter metrics are to be emitted as deltas or cumulative values.
    ///
    /// Versions: 0+.
    pub delta_temporality: bool,
    /// Requested metrics prefix string match. Empty array: No metrics subscribed, Array[0] empty string: All metrics subscribed.
    ///
    /// Versions: 0+.
    pub requested_metrics: Vec<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for GetTelemetrySubscriptionsResponse {
    fn default() -> Self {
        GetTelemetrySubscriptionsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            client_instance_id: Uuid::nil(),
            subscription_id: 0,
            accepted_compression_types: Vec::<i8>::new(),
            push_interval_ms: 0,
            telemetry_max_bytes: 0,
            delta_temporality: false,
            requested_metrics: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl GetTelemetrySubscriptionsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.uuid(&self.client_instance_id);
        e.i32(self.subscription_id);
        e.array(&self.accepted_compression_types, flexible, |e, item| {
            e.i8(*item);
            Ok(())
        })?;
        e.i32(self.push_interval_ms);
        e.i32(self.telemetry_max_bytes);
        e.bool(self.delta_temporality);
        e.array(&self.requested_metrics, flexible, |e, item| {
            e.string(item, flexible)?;
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
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        this.client_instance_id = d.uuid()?;
        this.subscription_id = d.i32()?;
        this.accepted_compression_types =
            d.array(flexible, "AcceptedCompressionTypes", |d| d.i8())?;
        this.push_interval_ms = d.i32()?;
        this.telemetry_max_bytes = d.i32()?;
        this.delta_temporality = d.bool()?;
        this.requested_metrics = d.array(flexible, "RequestedMetrics", |d| {
            d.string(flexible, "RequestedMetrics")
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("GetTelemetrySubscriptionsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl GetTelemetrySubscriptionsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.client_instance_id = rng.uuid();
        this.subscription_id = rng.i32();
        this.accepted_compression_types = (0..rng.len()).map(|_| rng.i8()).collect();
        this.push_interval_ms = rng.i32();
        this.telemetry_max_bytes = rng.i32();
        this.delta_temporality = rng.bool();
        this.requested_metrics = (0..rng.len()).map(|_| rng.string()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for GetTelemetrySubscriptionsResponse {
    const NAME: &'static str = "GetTelemetrySubscriptionsResponse";
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
impl crate::testing::Random for GetTelemetrySubscriptionsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
