//! `DescribeClusterResponse`, generated from Kafka's `DescribeClusterResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeClusterResponse (valid versions 0-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeClusterResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The endpoint type that was described. 1=brokers, 2=controllers.
    ///
    /// Versions: 1+.
    pub endpoint_type: i8,
    /// The cluster ID that responding broker belongs to.
    ///
    /// Versions: 0+.
    pub cluster_id: String,
    /// The ID of the controller. When handled by a controller, returns the current voter leader ID. When handled by a broker, returns a random alive broker ID as a fallback.
    ///
    /// Versions: 0+.
    pub controller_id: i32,
    /// Each broker in the response.
    ///
    /// Versions: 0+.
    pub brokers: Vec<DescribeClusterBroker>,
    /// 32-bit bitfield to represent authorized operations for this cluster.
    ///
    /// Versions: 0+.
    pub cluster_authorized_operations: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeClusterResponse {
    fn default() -> Self {
        DescribeClusterResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: None,
            endpoint_type: 1,
            cluster_id: String::from(""),
            controller_id: -1,
            brokers: Vec::<DescribeClusterBroker>::new(),
            cluster_authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeClusterResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        if version >= 1 {
            e.i8(self.endpoint_type);
        }
        if version == 0 {
            if self.endpoint_type != 1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribeClusterResponse",
                    field: "EndpointType",
                    version,
                });
            }
        }
        e.string(&self.cluster_id, flexible)?;
        e.i32(self.controller_id);
        e.array(&self.brokers, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.cluster_authorized_operations);
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
        this.error_message = d.nullable_string(flexible)?;
        if version >= 1 {
            this.endpoint_type = d.i8()?;
        }
        this.cluster_id = d.string(flexible, "ClusterId")?;
        this.controller_id = d.i32()?;
        this.brokers = d.array(flexible, "Brokers", |d| {
            DescribeClusterBroker::read(d, version)
        })?;
        this.cluster_authorized_operations = d.i32()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeClusterResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeClusterResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        if version >= 1 {
            this.endpoint_type = rng.i8();
        }
        this.cluster_id = rng.string();
        this.controller_id = rng.i32();
        this.brokers = (0..rng.len())
            .map(|_| DescribeClusterBroker::random_value(rng, version))
            .collect();
        this.cluster_authorized_operations = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeClusterBroker` of [`DescribeClusterResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeClusterBroker {
    /// The broker ID.
    ///
    /// Versions: 0+.
    pub broker_id: i32,
    /// The broker hostname.
    ///
    /// Versions: 0+.
    pub host: String,
    /// The broker port.
    ///
    /// Versions: 0+.
    pub port: i32,
    /// The rack of the broker, or null if it has not been assigned to a rack.
    ///
    /// Versions: 0+.
    pub rack: Option<String>,
    /// Whether the broker is fenced
    ///
    /// Versions: 2+.
    pub is_fenced: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeClusterBroker {
    fn default() -> Self {
        DescribeClusterBroker {
            broker_id: 0,
            host: String::from(""),
            port: 0,
            rack: None,
            is_fenced: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeClusterBroker {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.broker_id);
        e.string(&self.host, flexible)?;
        e.i32(self.port);
        e.nullable_string(self.rack.as_deref(), flexible)?;
        if version == 2 {
            e.bool(self.is_fenced);
        }
        if version <= 1 {
            if self.is_fenced != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribeClusterBroker",
                    field: "IsFenced",
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
        let flexible = true;
        let mut this = Self::default();
        this.broker_id = d.i32()?;
        this.host = d.string(flexible, "Host")?;
        this.port = d.i32()?;
        this.rack = d.nullable_string(flexible)?;
        if version == 2 {
            this.is_fenced = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeClusterBroker", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeClusterBroker {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.broker_id = rng.i32();
        this.host = rng.string();
        this.port = rng.i32();
        this.rack = if rng.null() { None } else { Some(rng.string()) };
        if version == 2 {
            this.is_fenced = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeClusterResponse {
    const NAME: &'static str = "DescribeClusterResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
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
impl crate::testing::Random for DescribeClusterResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
