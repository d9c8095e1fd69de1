//! `EndTxnMarker`, generated from Kafka's `EndTxnMarker.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// EndTxnMarker (valid versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct EndTxnMarker {
    /// The coordinator epoch when appending the record
    ///
    /// Versions: 0+.
    pub coordinator_epoch: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for EndTxnMarker {
    fn default() -> Self {
        EndTxnMarker {
            coordinator_epoch: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EndTxnMarker {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.i32(self.coordinator_epoch);
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.coordinator_epoch = d.i32()?;
        Ok(this)
    }
}

#[cfg(test)]
impl EndTxnMarker {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.coordinator_epoch = rng.i32();
        this
    }
}

impl crate::Message for EndTxnMarker {
    const NAME: &'static str = "EndTxnMarker";
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
impl crate::testing::Random for EndTxnMarker {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
