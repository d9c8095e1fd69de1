//! `DescribeAclsResponse`, generated from Kafka's `DescribeAclsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeAclsResponse (valid versions 1-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeAclsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// Each Resource that is referenced in an ACL.
    ///
    /// Versions: 0+.
    pub resources: Vec<DescribeAclsResource>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeAclsResponse {
    fn default() -> Self {
        DescribeAclsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            resources: Vec::<DescribeAclsResource>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeAclsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.array(&self.resources, flexible, |e, item| {
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.resources = d.array(flexible, "Resources", |d| {
            DescribeAclsResource::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeAclsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeAclsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.resources = (0..rng.len())
            .map(|_| DescribeAclsResource::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeAclsResource` of [`DescribeAclsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeAclsResource {
    /// The resource type.
    ///
    /// Versions: 0+.
    pub resource_type: i8,
    /// The resource name.
    ///
    /// Versions: 0+.
    pub resource_name: String,
    /// The resource pattern type.
    ///
    /// Versions: 1+.
    pub pattern_type: i8,
    /// The ACLs.
    ///
    /// Versions: 0+.
    pub acls: Vec<AclDescription>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeAclsResource {
    fn default() -> Self {
        DescribeAclsResource {
            resource_type: 0,
            resource_name: String::from(""),
            pattern_type: 3,
            acls: Vec::<AclDescription>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeAclsResource {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i8(self.resource_type);
        e.string(&self.resource_name, flexible)?;
        e.i8(self.pattern_type);
        e.array(&self.acls, flexible, |e, item| {
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.resource_type = d.i8()?;
        this.resource_name = d.string(flexible, "ResourceName")?;
        this.pattern_type = d.i8()?;
        this.acls = d.array(flexible, "Acls", |d| AclDescription::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeAclsResource", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeAclsResource {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.resource_type = rng.i8();
        this.resource_name = rng.string();
        this.pattern_type = rng.i8();
        this.acls = (0..rng.len())
            .map(|_| AclDescription::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AclDescription` of [`DescribeAclsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct AclDescription {
    /// The ACL principal.
    ///
    /// Versions: 0+.
    pub principal: String,
    /// The ACL host.
    ///
    /// Versions: 0+.
    pub host: String,
    /// The ACL operation.
    ///
    /// Versions: 0+.
    pub operation: i8,
    /// The ACL permission type.
    ///
    /// Versions: 0+.
    pub permission_type: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AclDescription {
    fn default() -> Self {
        AclDescription {
            principal: String::from(""),
            host: String::from(""),
            operation: 0,
            permission_type: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AclDescription {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.string(&self.principal, flexible)?;
        e.string(&self.host, flexible)?;
        e.i8(self.operation);
        e.i8(self.permission_type);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.principal = d.string(flexible, "Principal")?;
        this.host = d.string(flexible, "Host")?;
        this.operation = d.i8()?;
        this.permission_type = d.i8()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("AclDescription", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AclDescription {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.principal = rng.string();
        this.host = rng.string();
        this.operation = rng.i8();
        this.permission_type = rng.i8();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeAclsResponse {
    const NAME: &'static str = "DescribeAclsResponse";
    const VALID_VERSIONS: (i16, i16) = (1, 3);
    const FLEXIBLE_MIN: Option<i16> = Some(2);
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
impl crate::testing::Random for DescribeAclsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
