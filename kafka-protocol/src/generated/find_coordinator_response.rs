//! `FindCoordinatorResponse`, generated from Kafka's `FindCoordinatorResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// FindCoordinatorResponse (valid versions 0-6, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct FindCoordinatorResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0-3.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 1-3.
    pub error_message: Option<String>,
    /// The node id.
    ///
    /// Versions: 0-3.
    pub node_id: i32,
    /// The host name.
    ///
    /// Versions: 0-3.
    pub host: String,
    /// The port.
    ///
    /// Versions: 0-3.
    pub port: i32,
    /// Each coordinator result in the response.
    ///
    /// Versions: 4+.
    pub coordinators: Vec<Coordinator>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FindCoordinatorResponse {
    fn default() -> Self {
        FindCoordinatorResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            node_id: 0,
            host: String::from(""),
            port: 0,
            coordinators: Vec::<Coordinator>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FindCoordinatorResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 1 {
            e.i32(self.throttle_time_ms);
        }
        if version <= 3 {
            e.i16(self.error_code);
        }
        if version >= 4 {
            if self.error_code != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FindCoordinatorResponse",
                    field: "ErrorCode",
                    version,
                });
            }
        }
        if (1..=3).contains(&version) {
            if self.error_message.is_none() && !((1..=3).contains(&version)) {
                return Err(EncodeError::NullNotAllowed {
                    message: "FindCoordinatorResponse",
                    field: "ErrorMessage",
                    version,
                });
            }
            e.nullable_string(self.error_message.as_deref(), flexible)?;
        }
        if version <= 3 {
            e.i32(self.node_id);
        }
        if version >= 4 {
            if self.node_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FindCoordinatorResponse",
                    field: "NodeId",
                    version,
                });
            }
        }
        if version <= 3 {
            e.string(&self.host, flexible)?;
        }
        if version >= 4 {
            if self.host != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FindCoordinatorResponse",
                    field: "Host",
                    version,
                });
            }
        }
        if version <= 3 {
            e.i32(self.port);
        }
        if version >= 4 {
            if self.port != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FindCoordinatorResponse",
                    field: "Port",
                    version,
                });
            }
        }
        if version >= 4 {
            e.array(&self.coordinators, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 3 {
            if self.coordinators != Vec::<Coordinator>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FindCoordinatorResponse",
                    field: "Coordinators",
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
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = d.i32()?;
        }
        if version <= 3 {
            this.error_code = d.i16()?;
        }
        if (1..=3).contains(&version) {
            this.error_message = if (1..=3).contains(&version) {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ErrorMessage")?)
            };
        }
        if version <= 3 {
            this.node_id = d.i32()?;
        }
        if version <= 3 {
            this.host = d.string(flexible, "Host")?;
        }
        if version <= 3 {
            this.port = d.i32()?;
        }
        if version >= 4 {
            this.coordinators =
                d.array(flexible, "Coordinators", |d| Coordinator::read(d, version))?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("FindCoordinatorResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl FindCoordinatorResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = rng.i32();
        }
        if version <= 3 {
            this.error_code = rng.i16();
        }
        if (1..=3).contains(&version) {
            this.error_message = if (1..=3).contains(&version) && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version <= 3 {
            this.node_id = rng.i32();
        }
        if version <= 3 {
            this.host = rng.string();
        }
        if version <= 3 {
            this.port = rng.i32();
        }
        if version >= 4 {
            this.coordinators = (0..rng.len())
                .map(|_| Coordinator::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Coordinator` of [`FindCoordinatorResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Coordinator {
    /// The coordinator key.
    ///
    /// Versions: 4+.
    pub key: String,
    /// The node id.
    ///
    /// Versions: 4+.
    pub node_id: i32,
    /// The host name.
    ///
    /// Versions: 4+.
    pub host: String,
    /// The port.
    ///
    /// Versions: 4+.
    pub port: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 4+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 4+.
    pub error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Coordinator {
    fn default() -> Self {
        Coordinator {
            key: String::from(""),
            node_id: 0,
            host: String::from(""),
            port: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Coordinator {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 4 {
            e.string(&self.key, flexible)?;
        }
        if version <= 3 {
            if self.key != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Coordinator",
                    field: "Key",
                    version,
                });
            }
        }
        if version >= 4 {
            e.i32(self.node_id);
        }
        if version <= 3 {
            if self.node_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Coordinator",
                    field: "NodeId",
                    version,
                });
            }
        }
        if version >= 4 {
            e.string(&self.host, flexible)?;
        }
        if version <= 3 {
            if self.host != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Coordinator",
                    field: "Host",
                    version,
                });
            }
        }
        if version >= 4 {
            e.i32(self.port);
        }
        if version <= 3 {
            if self.port != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Coordinator",
                    field: "Port",
                    version,
                });
            }
        }
        if version >= 4 {
            e.i16(self.error_code);
        }
        if version <= 3 {
            if self.error_code != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Coordinator",
                    field: "ErrorCode",
                    version,
                });
            }
        }
        if version >= 4 {
            if self.error_message.is_none() && !(version >= 4) {
                return Err(EncodeError::NullNotAllowed {
                    message: "Coordinator",
                    field: "ErrorMessage",
                    version,
                });
            }
            e.nullable_string(self.error_message.as_deref(), flexible)?;
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 4 {
            this.key = d.string(flexible, "Key")?;
        }
        if version >= 4 {
            this.node_id = d.i32()?;
        }
        if version >= 4 {
            this.host = d.string(flexible, "Host")?;
        }
        if version >= 4 {
            this.port = d.i32()?;
        }
        if version >= 4 {
            this.error_code = d.i16()?;
        }
        if version >= 4 {
            this.error_message = if version >= 4 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ErrorMessage")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Coordinator", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Coordinator {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 4 {
            this.key = rng.string();
        }
        if version >= 4 {
            this.node_id = rng.i32();
        }
        if version >= 4 {
            this.host = rng.string();
        }
        if version >= 4 {
            this.port = rng.i32();
        }
        if version >= 4 {
            this.error_code = rng.i16();
        }
        if version >= 4 {
            this.error_message = if version >= 4 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for FindCoordinatorResponse {
    const NAME: &'static str = "FindCoordinatorResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 6);
    const FLEXIBLE_MIN: Option<i16> = Some(3);
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
impl crate::testing::Random for FindCoordinatorResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
