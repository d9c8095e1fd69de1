//! `LeaveGroupRequest`, generated from Kafka's `LeaveGroupRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// LeaveGroupRequest (valid versions 0-5, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct LeaveGroupRequest {
    /// The ID of the group to leave.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The member ID to remove from the group.
    ///
    /// Versions: 0-2.
    pub member_id: String,
    /// List of leaving member identities.
    ///
    /// Versions: 3+.
    pub members: Vec<MemberIdentity>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for LeaveGroupRequest {
    fn default() -> Self {
        LeaveGroupRequest {
            group_id: String::from(""),
            member_id: String::from(""),
            members: Vec::<MemberIdentity>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaveGroupRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        e.string(&self.group_id, flexible)?;
        if version <= 2 {
            e.string(&self.member_id, flexible)?;
        }
        if version >= 3 {
            if self.member_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "LeaveGroupRequest",
                    field: "MemberId",
                    version,
                });
            }
        }
        if version >= 3 {
            e.array(&self.members, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 2 {
            if self.members != Vec::<MemberIdentity>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "LeaveGroupRequest",
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
        this.group_id = d.string(flexible, "GroupId")?;
        if version <= 2 {
            this.member_id = d.string(flexible, "MemberId")?;
        }
        if version >= 3 {
            this.members = d.array(flexible, "Members", |d| MemberIdentity::read(d, version))?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("LeaveGroupRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl LeaveGroupRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        this.group_id = rng.string();
        if version <= 2 {
            this.member_id = rng.string();
        }
        if version >= 3 {
            this.members = (0..rng.len())
                .map(|_| MemberIdentity::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `MemberIdentity` of [`LeaveGroupRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct MemberIdentity {
    /// The member ID to remove from the group.
    ///
    /// Versions: 3+.
    pub member_id: String,
    /// The group instance ID to remove from the group.
    ///
    /// Versions: 3+.
    pub group_instance_id: Option<String>,
    /// The reason why the member left the group.
    ///
    /// Versions: 5+.
    pub reason: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for MemberIdentity {
    fn default() -> Self {
        MemberIdentity {
            member_id: String::from(""),
            group_instance_id: None,
            reason: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MemberIdentity {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        if version >= 3 {
            e.string(&self.member_id, flexible)?;
        }
        if version <= 2 {
            if self.member_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MemberIdentity",
                    field: "MemberId",
                    version,
                });
            }
        }
        if version >= 3 {
            if self.group_instance_id.is_none() && !(version >= 3) {
                return Err(EncodeError::NullNotAllowed {
                    message: "MemberIdentity",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        if version <= 2 {
            if self.group_instance_id != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "MemberIdentity",
                    field: "GroupInstanceId",
                    version,
                });
            }
        }
        if version == 5 {
            if self.reason.is_none() && !(version == 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "MemberIdentity",
                    field: "Reason",
                    version,
                });
            }
            e.nullable_string(self.reason.as_deref(), flexible)?;
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
        if version == 5 {
            this.reason = if version == 5 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "Reason")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("MemberIdentity", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl MemberIdentity {
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
        if version == 5 {
            this.reason = if version == 5 && rng.null() {
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

impl crate::Message for LeaveGroupRequest {
    const NAME: &'static str = "LeaveGroupRequest";
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
impl crate::testing::Random for LeaveGroupRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
