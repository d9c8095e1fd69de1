//! `SyncGroupResponse`, generated from Kafka's `SyncGroupResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// SyncGroupResponse (valid versions 0-5, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct SyncGroupResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The group protocol type.
    ///
    /// Versions: 5+.
    pub protocol_type: Option<String>,
    /// The group protocol name.
    ///
    /// Versions: 5+.
    pub protocol_name: Option<String>,
    /// The member assignment.
    ///
    /// Versions: 0+.
    pub assignment: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SyncGroupResponse {
    fn default() -> Self {
        SyncGroupResponse {
            throttle_time_ms: 0,
            error_code: 0,
            protocol_type: None,
            protocol_name: None,
            assignment: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SyncGroupResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        if version >= 1 {
            e.i32(self.throttle_time_ms);
        }
        e.i16(self.error_code);
        if version == 5 {
            if self.protocol_type.is_none() && !(version == 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "SyncGroupResponse",
                    field: "ProtocolType",
                    version,
                });
            }
            e.nullable_string(self.protocol_type.as_deref(), flexible)?;
        }
        if version == 5 {
            if self.protocol_name.is_none() && !(version == 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "SyncGroupResponse",
                    field: "ProtocolName",
                    version,
                });
            }
            e.nullable_string(self.protocol_name.as_deref(), flexible)?;
        }
        e.bytes(&self.assignment, flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 4;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = d.i32()?;
        }
        this.error_code = d.i16()?;
        if version == 5 {
            this.protocol_type = if version == 5 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ProtocolType")?)
            };
        }
        if version == 5 {
            this.protocol_name = if version == 5 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ProtocolName")?)
            };
        }
        this.assignment = d.bytes(flexible, "Assignment")?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("SyncGroupResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl SyncGroupResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = rng.i32();
        }
        this.error_code = rng.i16();
        if version == 5 {
            this.protocol_type = if version == 5 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version == 5 {
            this.protocol_name = if version == 5 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.assignment = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for SyncGroupResponse {
    const NAME: &'static str = "SyncGroupResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 5);
    const FLEXIBLE_MIN: Option<i16> = Some(4);
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
impl crate::testing::Random for SyncGroupResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
