//! `SyncGroupRequest`, generated from Kafka's `SyncGroupRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// SyncGroupRequest (valid versions 0-5, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct SyncGroupRequest {
    /// The unique group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The generation of the group.
    ///
    /// Versions: 0+.
    pub generation_id: i32,
    /// The member ID assigned by the group.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions: 3+.
    pub group_instance_id: Option<String>,
    /// The group protocol type.
    ///
    /// Versions: 5+.
    pub protocol_type: Option<String>,
    /// The group protocol name.
    ///
    /// Versions: 5+.
    pub protocol_name: Option<String>,
    /// Each assignment.
    ///
    /// Versions: 0+.
    pub assignments: Vec<SyncGroupRequestAssignment>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SyncGroupRequest {
    fn default() -> Self {
        SyncGroupRequest {
            group_id: String::from(""),
            generation_id: 0,
            member_id: String::from(""),
            group_instance_id: None,
            protocol_type: None,
            protocol_name: None,
            assignments: Vec::<SyncGroupRequestAssignment>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SyncGroupRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        e.string(&self.group_id, flexible)?;
        e.i32(self.generation_id);
        e.string(&self.member_id, flexible)?;
        if version >= 3 {
            if self.group_instance_id.is_none() && !(version >= 3) {
                return Err(EncodeError::NullNotAllowed {
                    message: "SyncGroupRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        if version <= 2 {
            if self.group_instance_id != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "SyncGroupRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
        }
        if version == 5 {
            if self.protocol_type.is_none() && !(version == 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "SyncGroupRequest",
                    field: "ProtocolType",
                    version,
                });
            }
            e.nullable_string(self.protocol_type.as_deref(), flexible)?;
        }
        if version == 5 {
            if self.protocol_name.is_none() && !(version == 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "SyncGroupRequest",
                    field: "ProtocolName",
                    version,
                });
            }
            e.nullable_string(self.protocol_name.as_deref(), flexible)?;
        }
        e.array(&self.assignments, flexible, |e, item| {
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
        let flexible = version >= 4;
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
        this.assignments = d.array(flexible, "Assignments", |d| {
            SyncGroupRequestAssignment::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("SyncGroupRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl SyncGroupRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
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
        this.assignments = (0..rng.len())
            .map(|_| SyncGroupRequestAssignment::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `SyncGroupRequestAssignment` of [`SyncGroupRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct SyncGroupRequestAssignment {
    /// The ID of the member to assign.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The member assignment.
    ///
    /// Versions: 0+.
    pub assignment: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SyncGroupRequestAssignment {
    fn default() -> Self {
        SyncGroupRequestAssignment {
            member_id: String::from(""),
            assignment: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SyncGroupRequestAssignment {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 4;
        e.string(&self.member_id, flexible)?;
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
        this.member_id = d.string(flexible, "MemberId")?;
        this.assignment = d.bytes(flexible, "Assignment")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("SyncGroupRequestAssignment", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl SyncGroupRequestAssignment {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 4;
        let mut this = Self::default();
        this.member_id = rng.string();
        this.assignment = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for SyncGroupRequest {
    const NAME: &'static str = "SyncGroupRequest";
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
impl crate::testing::Random for SyncGroupRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
