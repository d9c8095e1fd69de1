//! `DescribeGroupsResponse`, generated from Kafka's `DescribeGroupsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeGroupsResponse (valid versions 0-6, flexible from 5).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeGroupsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// Each described group.
    ///
    /// Versions: 0+.
    pub groups: Vec<DescribedGroup>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeGroupsResponse {
    fn default() -> Self {
        DescribeGroupsResponse {
            throttle_time_ms: 0,
            groups: Vec::<DescribedGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeGroupsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        if version >= 1 {
            e.i32(self.throttle_time_ms);
        }
        e.array(&self.groups, flexible, |e, item| {
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
        let flexible = version >= 5;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = d.i32()?;
        }
        this.groups = d.array(flexible, "Groups", |d| DescribedGroup::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeGroupsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeGroupsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = rng.i32();
        }
        this.groups = (0..rng.len())
            .map(|_| DescribedGroup::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribedGroup` of [`DescribeGroupsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedGroup {
    /// The describe error, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The describe error message, or null if there was no error.
    ///
    /// Versions: 6+.
    pub error_message: Option<String>,
    /// The group ID string.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The group state string, or the empty string.
    ///
    /// Versions: 0+.
    pub group_state: String,
    /// The group protocol type, or the empty string.
    ///
    /// Versions: 0+.
    pub protocol_type: String,
    /// The group protocol data, or the empty string.
    ///
    /// Versions: 0+.
    pub protocol_data: String,
    /// The group members.
    ///
    /// Versions: 0+.
    pub members: Vec<DescribedGroupMember>,
    /// 32-bit bitfield to represent authorized operations for this group.
    ///
    /// Versions: 3+.
    pub authorized_operations: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribedGroup {
    fn default() -> Self {
        DescribedGroup {
            error_code: 0,
            error_message: None,
            group_id: String::from(""),
            group_state: String::from(""),
            protocol_type: String::from(""),
            protocol_data: String::from(""),
            members: Vec::<DescribedGroupMember>::new(),
            authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedGroup {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.i16(self.error_code);
        if version == 6 {
            if self.error_message.is_none() && !(version == 6) {
                return Err(EncodeError::NullNotAllowed {
                    message: "DescribedGroup",
                    field: "ErrorMessage",
                    version,
                });
            }
            e.nullable_string(self.error_message.as_deref(), flexible)?;
        }
        if version <= 5 {
            if self.error_message != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribedGroup",
                    field: "ErrorMessage",
                    version,
                });
            }
        }
        e.string(&self.group_id, flexible)?;
        e.string(&self.group_state, flexible)?;
        e.string(&self.protocol_type, flexible)?;
        e.string(&self.protocol_data, flexible)?;
        e.array(&self.members, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 3 {
            e.i32(self.authorized_operations);
        }
        if version <= 2 {
            if self.authorized_operations != -2147483648 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribedGroup",
                    field: "AuthorizedOperations",
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
        let flexible = version >= 5;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        if version == 6 {
            this.error_message = if version == 6 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ErrorMessage")?)
            };
        }
        this.group_id = d.string(flexible, "GroupId")?;
        this.group_state = d.string(flexible, "GroupState")?;
        this.protocol_type = d.string(flexible, "ProtocolType")?;
        this.protocol_data = d.string(flexible, "ProtocolData")?;
        this.members = d.array(flexible, "Members", |d| {
            DescribedGroupMember::read(d, version)
        })?;
        if version >= 3 {
            this.authorized_operations = d.i32()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("DescribedGroup", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribedGroup {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.error_code = rng.i16();
        if version == 6 {
            this.error_message = if version == 6 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.group_id = rng.string();
        this.group_state = rng.string();
        this.protocol_type = rng.string();
        this.protocol_data = rng.string();
        this.members = (0..rng.len())
            .map(|_| DescribedGroupMember::random_value(rng, version))
            .collect();
        if version >= 3 {
            this.authorized_operations = rng.i32();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribedGroupMember` of [`DescribeGroupsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedGroupMember {
    /// The member id.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions: 4+.
    pub group_instance_id: Option<String>,
    /// The client ID used in the member's latest join group request.
    ///
    /// Versions: 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions: 0+.
    pub client_host: String,
    /// The metadata corresponding to the current group protocol in use.
    ///
    /// Versions: 0+.
    pub member_metadata: Bytes,
    /// The current assignment provided by the group leader.
    ///
    /// Versions: 0+.
    pub member_assignment: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribedGroupMember {
    fn default() -> Self {
        DescribedGroupMember {
            member_id: String::from(""),
            group_instance_id: None,
            client_id: String::from(""),
            client_host: String::from(""),
            member_metadata: Bytes::new(),
            member_assignment: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedGroupMember {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.string(&self.member_id, flexible)?;
        if version >= 4 {
            if self.group_instance_id.is_none() && !(version >= 4) {
                return Err(EncodeError::NullNotAllowed {
                    message: "DescribedGroupMember",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        e.string(&self.client_id, flexible)?;
        e.string(&self.client_host, flexible)?;
        e.bytes(&self.member_metadata, flexible)?;
        e.bytes(&self.member_assignment, flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.member_id = d.string(flexible, "MemberId")?;
        if version >= 4 {
            this.group_instance_id = if version >= 4 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "GroupInstanceId")?)
            };
        }
        this.client_id = d.string(flexible, "ClientId")?;
        this.client_host = d.string(flexible, "ClientHost")?;
        this.member_metadata = d.bytes(flexible, "MemberMetadata")?;
        this.member_assignment = d.bytes(flexible, "MemberAssignment")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribedGroupMember", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribedGroupMember {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.member_id = rng.string();
        if version >= 4 {
            this.group_instance_id = if version >= 4 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.client_id = rng.string();
        this.client_host = rng.string();
        this.member_metadata = rng.bytes();
        this.member_assignment = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeGroupsResponse {
    const NAME: &'static str = "DescribeGroupsResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 6);
    const FLEXIBLE_MIN: Option<i16> = Some(5);
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
impl crate::testing::Random for DescribeGroupsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
