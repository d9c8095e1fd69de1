//! `ListConfigResourcesRequest`, generated from Kafka's `ListConfigResourcesRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListConfigResourcesRequest (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ListConfigResourcesRequest {
    /// The list of resource type. If the list is empty, it uses default supported config resource types.
    ///
    /// Versions: 1+.
    pub resource_types: Vec<i8>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListConfigResourcesRequest {
    fn default() -> Self {
        ListConfigResourcesRequest {
            resource_types: Vec::<i8>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListConfigResourcesRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        if version == 1 {
            e.array(&self.resource_types, flexible, |e, item| {
                e.i8(*item);
                Ok(())
            })?;
        }
        if version == 0 {
            if self.resource_types != Vec::<i8>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ListConfigResourcesRequest",
                    field: "ResourceTypes",
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
        if version == 1 {
            this.resource_types = d.array(flexible, "ResourceTypes", |d| d.i8())?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ListConfigResourcesRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListConfigResourcesRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        if version == 1 {
            this.resource_types = (0..rng.len()).map(|_| rng.i8()).collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ListConfigResourcesRequest {
    const NAME: &'static str = "ListConfigResourcesRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 1);
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
impl crate::testing::Random for ListConfigResourcesRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
