//! `ListGroupsRequest`, generated from Kafka's `ListGroupsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListGroupsRequest (valid versions 0-5, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct ListGroupsRequest {
    /// The states of the groups we want to list. If empty, all groups are returned with their state.
    ///
    /// Versions: 4+.
    pub states_filter: Vec<String>,
    /// The types of the groups we want to list. If empty, all groups are returned with their type.
    ///
    /// Versions: 5+.
    pub types_filter: Vec<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListGroupsRequest {
    fn default() -> Self {
        ListGroupsRequest {
            states_filter: Vec::<String>::new(),
            types_filter: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListGroupsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 4 {
            e.array(&self.states_filter, flexible, |e, item| {
                e.string(item, flexible)?;
                Ok(())
            })?;
        }
        if version <= 3 {
            if self.states_filter != Vec::<String>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ListGroupsRequest",
                    field: "StatesFilter",
                    version,
                });
            }
        }
        if version == 5 {
            e.array(&self.types_filter, flexible, |e, item| {
                e.string(item, flexible)?;
                Ok(())
            })?;
        }
        if version <= 4 {
            if self.types_filter != Vec::<String>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ListGroupsRequest",
                    field: "TypesFilter",
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
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 4 {
            this.states_filter = d.array(flexible, "StatesFilter", |d| {
                d.string(flexible, "StatesFilter")
            })?;
        }
        if version == 5 {
            this.types_filter = d.array(flexible, "TypesFilter", |d| {
                d.string(flexible, "TypesFilter")
            })?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ListGroupsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListGroupsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 4 {
            this.states_filter = (0..rng.len()).map(|_| rng.string()).collect();
        }
        if version == 5 {
            this.types_filter = (0..rng.len()).map(|_| rng.string()).collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ListGroupsRequest {
    const NAME: &'static str = "ListGroupsRequest";
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
impl crate::testing::Random for ListGroupsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
