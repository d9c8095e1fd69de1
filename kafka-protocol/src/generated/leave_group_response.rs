//! `LeaveGroupResponse`, generated from Kafka's `LeaveGroupResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// LeaveGroupResponse (valid versions 0-5, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct LeaveGroupResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// List of leaving member responses.
    ///
    /// Versions: 3+.
    pub members: Vec<MemberResponse>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for LeaveGroupResponse {
    fn default() -> Self {
        LeaveGroupResponse {
            throttle_time_ms: 0,
            error_code: 0,
            members: Vec::<MemberResponse>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaveGroupResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        if version >= 1 {
            e.i32(self.throttle_time_ms);
        }
        e.i16(self.error_code);
        if version >= 3 {
            e.array(&self.members, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 2 {
            if self.members != Vec::<MemberResponse>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "LeaveGroupResponse",
                    field: "Members",
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
        let flexible = version >= 4;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = d.i32()?;
        }
        this.error_code = d.i16()?;
        if version >= 3 {
            this.members = d.array(flexible, "Members", |d| MemberResponse::read(d, version))?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("LeaveGroupResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl LeaveGroupResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = rng.i32();
        }
        this.error_code = rng.i16();
        if version >= 3 {
            this.members = (0..rng.len())
                .map(|_| MemberResponse::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `MemberResponse` of [`LeaveGroupResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct MemberResponse {
    /// The member ID to remove from the group.
    ///
    /// Versions: 3+.
    pub member_id: String,
    /// The group instance ID to remove from the group.
    ///
    /// Versions: 3+.
    pub group_instance_id: Option<String>,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 3+.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for MemberResponse {
    fn default() -> Self {
        MemberResponse {
            member_id: String::from(""),
            group_instance_id: Some(String::from("")),
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MemberResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        if version >= 3 {
            e.string(&self.member_id, flexible)?;
        }
        if version <= 2 {
            if self.member_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MemberResponse",
                    field: "MemberId",
                    version,
                });
            }
        }
        if version >= 3 {
            if self.group_instance_id.is_none() && !(version >= 3) {
                return Err(EncodeError::NullNotAllowed {
                    message: "MemberResponse",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        if version <= 2 {
            if self.group_instance_id != Some(String::from("")) && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MemberResponse",
                    field: "GroupInstanceId",
                    version,
                });
            }
        }
        if version >= 3 {
            e.i16(self.error_code);
        }
        if version <= 2 {
            if self.error_code != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MemberResponse",
                    field: "ErrorCode",
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
        let flexible = version >= 4;
        let mut this = Self::default();
        if version >= 3 {
            this.member_id = d.string(flexible, "MemberId")?;
        }
        if version >= 3 {
            this.group_instance_id = if version >= 3 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "GroupInstanceId")?)
            };
        }
        if version >= 3 {
            this.error_code = d.i16()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("MemberResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl MemberResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        if version >= 3 {
            this.member_id = rng.string();
        }
        if version >= 3 {
            this.group_instance_id = if version >= 3 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version >= 3 {
            this.error_code = rng.i16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for LeaveGroupResponse {
    const NAME: &'static str = "LeaveGroupResponse";
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
impl crate::testing::Random for LeaveGroupResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
