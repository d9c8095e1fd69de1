//! `InitProducerIdRequest`, generated from Kafka's `InitProducerIdRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// InitProducerIdRequest (valid versions 0-6, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct InitProducerIdRequest {
    /// The transactional id, or null if the producer is not transactional.
    ///
    /// Versions: 0+.
    pub transactional_id: Option<String>,
    /// The time in ms to wait before aborting idle transactions sent by this producer. This is only relevant if a TransactionalId has been defined.
    ///
    /// Versions: 0+.
    pub transaction_timeout_ms: i32,
    /// The producer id. This is used to disambiguate requests if a transactional id is reused following its expiration.
    ///
    /// Versions: 3+.
    pub producer_id: i64,
    /// The producer's current epoch. This will be checked against the producer epoch on the broker, and the request will return an error if they do not match.
    ///
    /// Versions: 3+.
    pub producer_epoch: i16,
    /// True if the client wants to enable two-phase commit (2PC) protocol for transactions.
    ///
    /// Versions: 6+.
    pub enable2_pc: bool,
    /// True if the client wants to keep the currently ongoing transaction instead of aborting it.
    ///
    /// Versions: 6+.
    pub keep_prepared_txn: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for InitProducerIdRequest {
    fn default() -> Self {
        InitProducerIdRequest {
            transactional_id: Some(String::from("")),
            transaction_timeout_ms: 0,
            producer_id: -1,
            producer_epoch: -1,
            enable2_pc: false,
            keep_prepared_txn: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl InitProducerIdRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.nullable_string(self.transactional_id.as_deref(), flexible)?;
        e.i32(self.transaction_timeout_ms);
        if version >= 3 {
            e.i64(self.producer_id);
        }
        if version <= 2 {
            if self.producer_id != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "InitProducerIdRequest",
                    field: "ProducerId",
                    version,
                });
            }
        }
        if version >= 3 {
            e.i16(self.producer_epoch);
        }
        if version <= 2 {
            if self.producer_epoch != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "InitProducerIdRequest",
                    field: "ProducerEpoch",
                    version,
                });
            }
        }
        if version == 6 {
            e.bool(self.enable2_pc);
        }
        if version <= 5 {
            if self.enable2_pc != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "InitProducerIdRequest",
                    field: "Enable2Pc",
                    version,
                });
            }
        }
        if version == 6 {
            e.bool(self.keep_prepared_txn);
        }
        if version <= 5 {
            if self.keep_prepared_txn != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "InitProducerIdRequest",
                    field: "KeepPreparedTxn",
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.transactional_id = d.nullable_string(flexible)?;
        this.transaction_timeout_ms = d.i32()?;
        if version >= 3 {
            this.producer_id = d.i64()?;
        }
        if version >= 3 {
            this.producer_epoch = d.i16()?;
        }
        if version == 6 {
            this.enable2_pc = d.bool()?;
        }
        if version == 6 {
            this.keep_prepared_txn = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("InitProducerIdRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl InitProducerIdRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.transactional_id = if rng.null() { None } else { Some(rng.string()) };
        this.transaction_timeout_ms = rng.i32();
        if version >= 3 {
            this.producer_id = rng.i64();
        }
        if version >= 3 {
            this.producer_epoch = rng.i16();
        }
        if version == 6 {
            this.enable2_pc = rng.bool();
        }
        if version == 6 {
            this.keep_prepared_txn = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for InitProducerIdRequest {
    const NAME: &'static str = "InitProducerIdRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 6);
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
impl crate::testing::Random for InitProducerIdRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
