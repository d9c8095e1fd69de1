//! `InitProducerIdResponse`, generated from Kafka's `InitProducerIdResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// InitProducerIdResponse (valid versions 0-6, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct InitProducerIdResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The current producer id.
    ///
    /// Versions: 0+.
    pub producer_id: i64,
    /// The current epoch associated with the producer id.
    ///
    /// Versions: 0+.
    pub producer_epoch: i16,
    /// The producer id for ongoing transaction when KeepPreparedTxn is used, -1 if there is no transaction ongoing.
    ///
    /// Versions: 6+.
    pub ongoing_txn_producer_id: i64,
    /// The epoch associated with the  producer id for ongoing transaction when KeepPreparedTxn is used, -1 if there is no transaction ongoing.
    ///
    /// Versions: 6+.
    pub ongoing_txn_producer_epoch: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for InitProducerIdResponse {
    fn default() -> Self {
        InitProducerIdResponse {
            throttle_time_ms: 0,
            error_code: 0,
            producer_id: -1,
            producer_epoch: 0,
            ongoing_txn_producer_id: -1,
            ongoing_txn_producer_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl InitProducerIdResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.i64(self.producer_id);
        e.i16(self.producer_epoch);
        if version == 6 {
            e.i64(self.ongoing_txn_producer_id);
        }
        if version <= 5 {
            if self.ongoing_txn_producer_id != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "InitProducerIdResponse",
                    field: "OngoingTxnProducerId",
                    version,
                });
            }
        }
        if version == 6 {
            e.i16(self.ongoing_txn_producer_epoch);
        }
        if version <= 5 {
            if self.ongoing_txn_producer_epoch != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "InitProducerIdResponse",
                    field: "OngoingTxnProducerEpoch",
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
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        this.producer_id = d.i64()?;
        this.producer_epoch = d.i16()?;
        if version == 6 {
            this.ongoing_txn_producer_id = d.i64()?;
        }
        if version == 6 {
            this.ongoing_txn_producer_epoch = d.i16()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("InitProducerIdResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl InitProducerIdResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.producer_id = rng.i64();
        this.producer_epoch = rng.i16();
        if version == 6 {
            this.ongoing_txn_producer_id = rng.i64();
        }
        if version == 6 {
            this.ongoing_txn_producer_epoch = rng.i16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for InitProducerIdResponse {
    const NAME: &'static str = "InitProducerIdResponse";
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
impl crate::testing::Random for InitProducerIdResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
