//! `JoinGroupResponse`, generated from Kafka's `JoinGroupResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// JoinGroupResponse (valid versions 0-9, flexible from 6).
#[derive(Debug, Clone, PartialEq)]
pub struct JoinGroupResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 2+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The generation ID of the group.
    ///
    /// Versions: 0+.
    pub generation_id: i32,
    /// The group protocol name.
    ///
    /// Versions: 7+.
    pub protocol_type: Option<String>,
    /// The group protocol selected by the coordinator.
    ///
    /// Versions: 0+.
    pub protocol_name: Option<String>,
    /// The leader of the group.
    ///
    /// Versions: 0+.
    pub leader: String,
    /// True if the leader must skip running the assignment.
    ///
    /// Versions: 9+.
    pub skip_assignment: bool,
    /// The member ID assigned by the group coordinator.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The group members.
    ///
    /// Versions: 0+.
    pub members: Vec<JoinGroupResponseMember>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for JoinGroupResponse {
    fn default() -> Self {
        JoinGroupResponse {
            throttle_time_ms: 0,
            error_code: 0,
            generation_id: -1,
            protocol_type: None,
            protocol_name: Some(String::from("")),
            leader: String::from(""),
            skip_assignment: false,
            member_id: String::from(""),
            members: Vec::<JoinGroupResponseMember>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl JoinGroupResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version >= 2 {
            e.i32(self.throttle_time_ms);
        }
        e.i16(self.error_code);
        e.i32(self.generation_id);
        if version >= 7 {
            if self.protocol_type.is_none() && !(version >= 7) {
                return Err(EncodeError::NullNotAllowed {
                    message: "JoinGroupResponse",
                    field: "ProtocolType",
                    version,
                });
            }
            e.nullable_string(self.protocol_type.as_deref(), flexible)?;
        }
        if self.protocol_name.is_none() && !(version >= 7) {
            return Err(EncodeError::NullNotAllowed {
                message: "JoinGroupResponse",
                field: "ProtocolName",
                version,
            });
        }
        e.nullable_string(self.protocol_name.as_deref(), flexible)?;
        e.string(&self.leader, flexible)?;
        if version == 9 {
            e.bool(self.skip_assignment);
        }
        if version <= 8 {
            if self.skip_assignment != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "JoinGroupResponse",
                    field: "SkipAssignment",
                    version,
                });
            }
        }
        e.string(&self.member_id, flexible)?;
        e.array(&self.members, flexible, |e, item| {
            item.write(e, version)?;
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 2 {
            this.throttle_time_ms = d.i32()?;
        }
        this.error_code = d.i16()?;
        this.generation_id = d.i32()?;
        if version >= 7 {
            this.protocol_type = if version >= 7 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ProtocolType")?)
            };
        }
        this.protocol_name = if version >= 7 {
            d.nullable_string(flexible)?
        } else {
            Some(d.string(flexible, "ProtocolName")?)
        };
        this.leader = d.string(flexible, "Leader")?;
        if version == 9 {
            this.skip_assignment = d.bool()?;
        }
        this.member_id = d.string(flexible, "MemberId")?;
        this.members = d.array(flexible, "Members", |d| {
            JoinGroupResponseMember::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("JoinGroupResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl JoinGroupResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 2 {
            this.throttle_time_ms = rng.i32();
        }
        this.error_code = rng.i16();
        this.generation_id = rng.i32();
        if version >= 7 {
            this.protocol_type = if version >= 7 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.protocol_name = if version >= 7 && rng.null() {
            None
        } else {
            Some(rng.string())
        };
        this.leader = rng.string();
        if version == 9 {
            this.skip_assignment = rng.bool();
        }
        this.member_id = rng.string();
        this.members = (0..rng.len())
            .map(|_| JoinGroupResponseMember::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `JoinGroupResponseMember` of [`JoinGroupResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct JoinGroupResponseMember {
    /// The group member ID.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions: 5+.
    pub group_instance_id: Option<String>,
    /// The group member metadata.
    ///
    /// Versions: 0+.
    pub metadata: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for JoinGroupResponseMember {
    fn default() -> Self {
        JoinGroupResponseMember {
            member_id: String::from(""),
            group_instance_id: None,
            metadata: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl JoinGroupResponseMember {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        e.string(&self.member_id, flexible)?;
        if version >= 5 {
            if self.group_instance_id.is_none() && !(version >= 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "JoinGroupResponseMember",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        e.bytes(&self.metadata, flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.member_id = d.string(flexible, "MemberId")?;
        if version >= 5 {
            this.group_instance_id = if version >= 5 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "GroupInstanceId")?)
            };
        }
        this.metadata = d.bytes(flexible, "Metadata")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("JoinGroupResponseMember", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl JoinGroupResponseMember {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.member_id = rng.string();
        if version >= 5 {
            this.group_instance_id = if version >= 5 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.metadata = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for JoinGroupResponse {
    const NAME: &'static str = "JoinGroupResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 9);
    const FLEXIBLE_MIN: Option<i16> = Some(6);
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
impl crate::testing::Random for JoinGroupResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
