//! `DescribeGroupsRequest`, generated from Kafka's `DescribeGroupsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeGroupsRequest (valid versions 0-6, flexible from 5).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeGroupsRequest {
    /// The names of the groups to describe.
    ///
    /// Versions: 0+.
    pub groups: Vec<String>,
    /// Whether to include authorized operations.
    ///
    /// Versions: 3+.
    pub include_authorized_operations: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeGroupsRequest {
    fn default() -> Self {
        DescribeGroupsRequest {
            groups: Vec::<String>::new(),
            include_authorized_operations: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeGroupsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.array(&self.groups, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        if version >= 3 {
            e.bool(self.include_authorized_operations);
        }
        if version <= 2 {
            if self.include_authorized_operations != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribeGroupsRequest",
                    field: "IncludeAuthorizedOperations",
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
        this.groups = d.array(flexible, "Groups", |d| d.string(flexible, "Groups"))?;
        if version >= 3 {
            this.include_authorized_operations = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeGroupsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeGroupsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.groups = (0..rng.len()).map(|_| rng.string()).collect();
        if version >= 3 {
            this.include_authorized_operations = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeGroupsRequest {
    const NAME: &'static str = "DescribeGroupsRequest";
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
impl crate::testing::Random for DescribeGroupsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
