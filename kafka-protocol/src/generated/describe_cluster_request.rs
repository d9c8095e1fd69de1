//! `DescribeClusterRequest`, generated from Kafka's `DescribeClusterRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeClusterRequest (valid versions 0-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeClusterRequest {
    /// Whether to include cluster authorized operations.
    ///
    /// Versions: 0+.
    pub include_cluster_authorized_operations: bool,
    /// The endpoint type to describe. 1=brokers, 2=controllers.
    ///
    /// Versions: 1+.
    pub endpoint_type: i8,
    /// Whether to include fenced brokers when listing brokers.
    ///
    /// Versions: 2+.
    pub include_fenced_brokers: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeClusterRequest {
    fn default() -> Self {
        DescribeClusterRequest {
            include_cluster_authorized_operations: false,
            endpoint_type: 1,
            include_fenced_brokers: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeClusterRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.bool(self.include_cluster_authorized_operations);
        if version >= 1 {
            e.i8(self.endpoint_type);
        }
        if version == 0 {
            if self.endpoint_type != 1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribeClusterRequest",
                    field: "EndpointType",
                    version,
                });
            }
        }
        if version == 2 {
            e.bool(self.include_fenced_brokers);
        }
        if version <= 1 {
            if self.include_fenced_brokers != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribeClusterRequest",
                    field: "IncludeFencedBrokers",
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
        let flexible = true;
        let mut this = Self::default();
        this.include_cluster_authorized_operations = d.bool()?;
        if version >= 1 {
            this.endpoint_type = d.i8()?;
        }
        if version == 2 {
            this.include_fenced_brokers = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeClusterRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeClusterRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.include_cluster_authorized_operations = rng.bool();
        if version >= 1 {
            this.endpoint_type = rng.i8();
        }
        if version == 2 {
            this.include_fenced_brokers = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeClusterRequest {
    const NAME: &'static str = "DescribeClusterRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
    const FLEXIBLE_MIN: Option<i16> = Some(0);
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
impl crate::testing::Random for DescribeClusterRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
