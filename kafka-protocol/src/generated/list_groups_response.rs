//! `ListGroupsResponse`, generated from Kafka's `ListGroupsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListGroupsResponse (valid versions 0-5, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct ListGroupsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Each group in the response.
    ///
    /// Versions: 0+.
    pub groups: Vec<ListedGroup>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListGroupsResponse {
    fn default() -> Self {
        ListGroupsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            groups: Vec::<ListedGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListGroupsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 1 {
            e.i32(self.throttle_time_ms);
        }
        e.i16(self.error_code);
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
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = d.i32()?;
        }
        this.error_code = d.i16()?;
        this.groups = d.array(flexible, "Groups", |d| ListedGroup::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ListGroupsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListGroupsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 1 {
            this.throttle_time_ms = rng.i32();
        }
        this.error_code = rng.i16();
        this.groups = (0..rng.len())
            .map(|_| ListedGroup::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ListedGroup` of [`ListGroupsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ListedGroup {
    /// The group ID.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The group protocol type.
    ///
    /// Versions: 0+.
    pub protocol_type: String,
    /// The group state name.
    ///
    /// Versions: 4+.
    pub group_state: String,
    /// The group type name.
    ///
    /// Versions: 5+.
    pub group_type: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListedGroup {
    fn default() -> Self {
        ListedGroup {
            group_id: String::from(""),
            protocol_type: String::from(""),
            group_state: String::from(""),
            group_type: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListedGroup {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.string(&self.group_id, flexible)?;
        e.string(&self.protocol_type, flexible)?;
        if version >= 4 {
            e.string(&self.group_state, flexible)?;
        }
        if version == 5 {
            e.string(&self.group_type, flexible)?;
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
        this.group_id = d.string(flexible, "GroupId")?;
        this.protocol_type = d.string(flexible, "ProtocolType")?;
        if version >= 4 {
            this.group_state = d.string(flexible, "GroupState")?;
        }
        if version == 5 {
            this.group_type = d.string(flexible, "GroupType")?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ListedGroup", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListedGroup {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.protocol_type = rng.string();
        if version >= 4 {
            this.group_state = rng.string();
        }
        if version == 5 {
            this.group_type = rng.string();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ListGroupsResponse {
    const NAME: &'static str = "ListGroupsResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 5);
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
impl crate::testing::Random for ListGroupsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
