//! `DescribeAclsRequest`, generated from Kafka's `DescribeAclsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeAclsRequest (valid versions 1-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeAclsRequest {
    /// The resource type.
    ///
    /// Versions: 0+.
    pub resource_type_filter: i8,
    /// The resource name, or null to match any resource name.
    ///
    /// Versions: 0+.
    pub resource_name_filter: Option<String>,
    /// The resource pattern to match.
    ///
    /// Versions: 1+.
    pub pattern_type_filter: i8,
    /// The principal to match, or null to match any principal.
    ///
    /// Versions: 0+.
    pub principal_filter: Option<String>,
    /// The host to match, or null to match any host.
    ///
    /// Versions: 0+.
    pub host_filter: Option<String>,
    /// The operation to match.
    ///
    /// Versions: 0+.
    pub operation: i8,
    /// The permission type to match.
    ///
    /// Versions: 0+.
    pub permission_type: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeAclsRequest {
    fn default() -> Self {
        DescribeAclsRequest {
            resource_type_filter: 0,
            resource_name_filter: Some(String::from("")),
            pattern_type_filter: 3,
            principal_filter: Some(String::from("")),
            host_filter: Some(String::from("")),
            operation: 0,
            permission_type: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeAclsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i8(self.resource_type_filter);
        e.nullable_string(self.resource_name_filter.as_deref(), flexible)?;
        e.i8(self.pattern_type_filter);
        e.nullable_string(self.principal_filter.as_deref(), flexible)?;
        e.nullable_string(self.host_filter.as_deref(), flexible)?;
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
        this.resource_type_filter = d.i8()?;
        this.resource_name_filter = d.nullable_string(flexible)?;
        this.pattern_type_filter = d.i8()?;
        this.principal_filter = d.nullable_string(flexible)?;
        this.host_filter = d.nullable_string(flexible)?;
        this.operation = d.i8()?;
        this.permission_type = d.i8()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeAclsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeAclsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.resource_type_filter = rng.i8();
        this.resource_name_filter = if rng.null() { None } else { Some(rng.string()) };
        this.pattern_type_filter = rng.i8();
        this.principal_filter = if rng.null() { None } else { Some(rng.string()) };
        this.host_filter = if rng.null() { None } else { Some(rng.string()) };
        this.operation = rng.i8();
        this.permission_type = rng.i8();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeAclsRequest {
    const NAME: &'static str = "DescribeAclsRequest";
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
impl crate::testing::Random for DescribeAclsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
