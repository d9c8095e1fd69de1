//! `HeartbeatRequest`, generated from Kafka's `HeartbeatRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// HeartbeatRequest (valid versions 0-4, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct HeartbeatRequest {
    /// The group id.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The generation of the group.
    ///
    /// Versions: 0+.
    pub generation_id: i32,
    /// The member ID.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions: 3+.
    pub group_instance_id: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for HeartbeatRequest {
    fn default() -> Self {
        HeartbeatRequest {
            group_id: String::from(""),
            generation_id: 0,
            member_id: String::from(""),
            group_instance_id: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl HeartbeatRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.string(&self.group_id, flexible)?;
        e.i32(self.generation_id);
        e.string(&self.member_id, flexible)?;
        if version >= 3 {
            if self.group_instance_id.is_none() && !(version >= 3) {
                return Err(EncodeError::NullNotAllowed {
                    message: "HeartbeatRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        if version <= 2 {
            if self.group_instance_id != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "HeartbeatRequest",
                    field: "GroupInstanceId",
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
        let flexible = version == 4;
        let mut this = Self::default();
        this.group_id = d.string(flexible, "GroupId")?;
        this.generation_id = d.i32()?;
        this.member_id = d.string(flexible, "MemberId")?;
        if version >= 3 {
            this.group_instance_id = if version >= 3 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "GroupInstanceId")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("HeartbeatRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl HeartbeatRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.generation_id = rng.i32();
        this.member_id = rng.string();
        if version >= 3 {
            this.group_instance_id = if version >= 3 && rng.null() {
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

impl crate::Message for HeartbeatRequest {
    const NAME: &'static str = "HeartbeatRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 4);
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
impl crate::testing::Random for HeartbeatRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
