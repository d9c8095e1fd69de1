//! `AddOffsetsToTxnRequest`, generated from Kafka's `AddOffsetsToTxnRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AddOffsetsToTxnRequest (valid versions 0-4, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct AddOffsetsToTxnRequest {
    /// The transactional id corresponding to the transaction.
    ///
    /// Versions: 0+.
    pub transactional_id: String,
    /// Current producer id in use by the transactional id.
    ///
    /// Versions: 0+.
    pub producer_id: i64,
    /// Current epoch associated with the producer id.
    ///
    /// Versions: 0+.
    pub producer_epoch: i16,
    /// The unique group identifier.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddOffsetsToTxnRequest {
    fn default() -> Self {
        AddOffsetsToTxnRequest {
            transactional_id: String::from(""),
            producer_id: 0,
            producer_epoch: 0,
            group_id: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddOffsetsToTxnRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.string(&self.transactional_id, flexible)?;
        e.i64(self.producer_id);
        e.i16(self.producer_epoch);
        e.string(&self.group_id, flexible)?;
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
        this.transactional_id = d.string(flexible, "TransactionalId")?;
        this.producer_id = d.i64()?;
        this.producer_epoch = d.i16()?;
        this.group_id = d.string(flexible, "GroupId")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddOffsetsToTxnRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddOffsetsToTxnRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.transactional_id = rng.string();
        this.producer_id = rng.i64();
        this.producer_epoch = rng.i16();
        this.group_id = rng.string();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AddOffsetsToTxnRequest {
    const NAME: &'static str = "AddOffsetsToTxnRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 4);
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
impl crate::testing::Random for AddOffsetsToTxnRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
