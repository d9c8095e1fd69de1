//! `ControlRecordTypeSchema`, generated from Kafka's `ControlRecordTypeSchema.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ControlRecordTypeSchema (valid versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct ControlRecordTypeSchema {
    /// The type of the control record, such as commit or abort
    ///
    /// Versions: 0+.
    pub type_: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ControlRecordTypeSchema {
    fn default() -> Self {
        ControlRecordTypeSchema {
            type_: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ControlRecordTypeSchema {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.i16(self.type_);
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.type_ = d.i16()?;
        Ok(this)
    }
}

#[cfg(test)]
impl ControlRecordTypeSchema {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.type_ = rng.i16();
        this
    }
}

impl crate::Message for ControlRecordTypeSchema {
    const NAME: &'static str = "ControlRecordTypeSchema";
    const VALID_VERSIONS: (i16, i16) = (0, 0);
    const FLEXIBLE_MIN: Option<i16> = None;
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
impl crate::testing::Random for ControlRecordTypeSchema {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
