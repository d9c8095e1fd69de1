//! `FindCoordinatorRequest`, generated from Kafka's `FindCoordinatorRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// FindCoordinatorRequest (valid versions 0-6, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct FindCoordinatorRequest {
    /// The coordinator key.
    ///
    /// Versions: 0-3.
    pub key: String,
    /// The coordinator key type. (group, transaction, share).
    ///
    /// Versions: 1+.
    pub key_type: i8,
    /// The coordinator keys.
    ///
    /// Versions: 4+.
    pub coordinator_keys: Vec<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FindCoordinatorRequest {
    fn default() -> Self {
        FindCoordinatorRequest {
            key: String::from(""),
            key_type: 0,
            coordinator_keys: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FindCoordinatorRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version <= 3 {
            e.string(&self.key, flexible)?;
        }
        if version >= 4 {
            if self.key != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FindCoordinatorRequest",
                    field: "Key",
                    version,
                });
            }
        }
        if version >= 1 {
            e.i8(self.key_type);
        }
        if version == 0 {
            if self.key_type != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FindCoordinatorRequest",
                    field: "KeyType",
                    version,
                });
            }
        }
        if version >= 4 {
            e.array(&self.coordinator_keys, flexible, |e, item| {
                e.string(item, flexible)?;
                Ok(())
            })?;
        }
        if version <= 3 {
            if self.coordinator_keys != Vec::<String>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FindCoordinatorRequest",
                    field: "CoordinatorKeys",
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
        if version <= 3 {
            this.key = d.string(flexible, "Key")?;
        }
        if version >= 1 {
            this.key_type = d.i8()?;
        }
        if version >= 4 {
            this.coordinator_keys = d.array(flexible, "CoordinatorKeys", |d| {
                d.string(flexible, "CoordinatorKeys")
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("FindCoordinatorRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl FindCoordinatorRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version <= 3 {
            this.key = rng.string();
        }
        if version >= 1 {
            this.key_type = rng.i8();
        }
        if version >= 4 {
            this.coordinator_keys = (0..rng.len()).map(|_| rng.string()).collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for FindCoordinatorRequest {
    const NAME: &'static str = "FindCoordinatorRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 6);
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
impl crate::testing::Random for FindCoordinatorRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
