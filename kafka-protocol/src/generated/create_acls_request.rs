//! `CreateAclsRequest`, generated from Kafka's `CreateAclsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// CreateAclsRequest (valid versions 1-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateAclsRequest {
    /// The ACLs that we want to create.
    ///
    /// Versions: 0+.
    pub creations: Vec<AclCreation>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreateAclsRequest {
    fn default() -> Self {
        CreateAclsRequest {
            creations: Vec::<AclCreation>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreateAclsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.array(&self.creations, flexible, |e, item| {
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
        this.creations = d.array(flexible, "Creations", |d| AclCreation::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("CreateAclsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreateAclsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.creations = (0..rng.len())
            .map(|_| AclCreation::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AclCreation` of [`CreateAclsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AclCreation {
    /// The type of the resource.
    ///
    /// Versions: 0+.
    pub resource_type: i8,
    /// The resource name for the ACL.
    ///
    /// Versions: 0+.
    pub resource_name: String,
    /// The pattern type for the ACL.
    ///
    /// Versions: 1+.
    pub resource_pattern_type: i8,
    /// The principal for the ACL.
    ///
    /// Versions: 0+.
    pub principal: String,
    /// The host for the ACL.
    ///
    /// Versions: 0+.
    pub host: String,
    /// The operation type for the ACL (read, write, etc.).
    ///
    /// Versions: 0+.
    pub operation: i8,
    /// The permission type for the ACL (allow, deny, etc.).
    ///
    /// Versions: 0+.
    pub permission_type: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AclCreation {
    fn default() -> Self {
        AclCreation {
            resource_type: 0,
            resource_name: String::from(""),
            resource_pattern_type: 3,
            principal: String::from(""),
            host: String::from(""),
            operation: 0,
            permission_type: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AclCreation {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i8(self.resource_type);
        e.string(&self.resource_name, flexible)?;
        e.i8(self.resource_pattern_type);
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
        this.resource_type = d.i8()?;
        this.resource_name = d.string(flexible, "ResourceName")?;
        this.resource_pattern_type = d.i8()?;
        this.principal = d.string(flexible, "Principal")?;
        this.host = d.string(flexible, "Host")?;
        this.operation = d.i8()?;
        this.permission_type = d.i8()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("AclCreation", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AclCreation {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.resource_type = rng.i8();
        this.resource_name = rng.string();
        this.resource_pattern_type = rng.i8();
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

impl crate::Message for CreateAclsRequest {
    const NAME: &'static str = "CreateAclsRequest";
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
impl crate::testing::Random for CreateAclsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
