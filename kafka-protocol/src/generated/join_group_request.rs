//! `JoinGroupRequest`, generated from Kafka's `JoinGroupRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// JoinGroupRequest (valid versions 0-9, flexible from 6).
#[derive(Debug, Clone, PartialEq)]
pub struct JoinGroupRequest {
    /// The group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The coordinator considers the consumer dead if it receives no heartbeat after this timeout in milliseconds.
    ///
    /// Versions: 0+.
    pub session_timeout_ms: i32,
    /// The maximum time in milliseconds that the coordinator will wait for each member to rejoin when rebalancing the group.
    ///
    /// Versions: 1+.
    pub rebalance_timeout_ms: i32,
    /// The member id assigned by the group coordinator.
    ///
    /// Versions: 0+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions: 5+.
    pub group_instance_id: Option<String>,
    /// The unique name the for class of protocols implemented by the group we want to join.
    ///
    /// Versions: 0+.
    pub protocol_type: String,
    /// The list of protocols that the member supports.
    ///
    /// Versions: 0+.
    pub protocols: Vec<JoinGroupRequestProtocol>,
    /// The reason why the member (re-)joins the group.
    ///
    /// Versions: 8+.
    pub reason: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for JoinGroupRequest {
    fn default() -> Self {
        JoinGroupRequest {
            group_id: String::from(""),
            session_timeout_ms: 0,
            rebalance_timeout_ms: -1,
            member_id: String::from(""),
            group_instance_id: None,
            protocol_type: String::from(""),
            protocols: Vec::<JoinGroupRequestProtocol>::new(),
            reason: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl JoinGroupRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        e.string(&self.group_id, flexible)?;
        e.i32(self.session_timeout_ms);
        if version >= 1 {
            e.i32(self.rebalance_timeout_ms);
        }
        e.string(&self.member_id, flexible)?;
        if version >= 5 {
            if self.group_instance_id.is_none() && !(version >= 5) {
                return Err(EncodeError::NullNotAllowed {
                    message: "JoinGroupRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
            e.nullable_string(self.group_instance_id.as_deref(), flexible)?;
        }
        if version <= 4 {
            if self.group_instance_id != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "JoinGroupRequest",
                    field: "GroupInstanceId",
                    version,
                });
            }
        }
        e.string(&self.protocol_type, flexible)?;
        e.array(&self.protocols, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 8 {
            if self.reason.is_none() && !(version >= 8) {
                return Err(EncodeError::NullNotAllowed {
                    message: "JoinGroupRequest",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        this.group_id = d.string(flexible, "GroupId")?;
        this.session_timeout_ms = d.i32()?;
        if version >= 1 {
            this.rebalance_timeout_ms = d.i32()?;
        }
        this.member_id = d.string(flexible, "MemberId")?;
        if version >= 5 {
            this.group_instance_id = if version >= 5 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "GroupInstanceId")?)
            };
        }
        this.protocol_type = d.string(flexible, "ProtocolType")?;
        this.protocols = d.array(flexible, "Protocols", |d| {
            JoinGroupRequestProtocol::read(d, version)
        })?;
        if version >= 8 {
            this.reason = if version >= 8 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "Reason")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("JoinGroupRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl JoinGroupRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.session_timeout_ms = rng.i32();
        if version >= 1 {
            this.rebalance_timeout_ms = rng.i32();
        }
        this.member_id = rng.string();
        if version >= 5 {
            this.group_instance_id = if version >= 5 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.protocol_type = rng.string();
        this.protocols = (0..rng.len())
            .map(|_| JoinGroupRequestProtocol::random_value(rng, version))
            .collect();
        if version >= 8 {
            this.reason = if version >= 8 && rng.null() {
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

/// A `JoinGroupRequestProtocol` of [`JoinGroupRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct JoinGroupRequestProtocol {
    /// The protocol name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The protocol metadata.
    ///
    /// Versions: 0+.
    pub metadata: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for JoinGroupRequestProtocol {
    fn default() -> Self {
        JoinGroupRequestProtocol {
            name: String::from(""),
            metadata: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl JoinGroupRequestProtocol {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        e.string(&self.name, flexible)?;
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
        this.name = d.string(flexible, "Name")?;
        this.metadata = d.bytes(flexible, "Metadata")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("JoinGroupRequestProtocol", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl JoinGroupRequestProtocol {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.name = rng.string();
        this.metadata = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for JoinGroupRequest {
    const NAME: &'static str = "JoinGroupRequest";
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
impl crate::testing::Random for JoinGroupRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
