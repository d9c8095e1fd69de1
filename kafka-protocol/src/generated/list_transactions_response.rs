//! `ListTransactionsResponse`, generated from Kafka's `ListTransactionsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListTransactionsResponse (valid versions 0-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ListTransactionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Set of state filters provided in the request which were unknown to the transaction coordinator.
    ///
    /// Versions: 0+.
    pub unknown_state_filters: Vec<String>,
    /// The current state of the transaction for the transactional id.
    ///
    /// Versions: 0+.
    pub transaction_states: Vec<TransactionState>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListTransactionsResponse {
    fn default() -> Self {
        ListTransactionsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            unknown_state_filters: Vec::<String>::new(),
            transaction_states: Vec::<TransactionState>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListTransactionsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.array(&self.unknown_state_filters, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        e.array(&self.transaction_states, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
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
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        this.unknown_state_filters = d.array(flexible, "UnknownStateFilters", |d| {
            d.string(flexible, "UnknownStateFilters")
        })?;
        this.transaction_states = d.array(flexible, "TransactionStates", |d| {
            TransactionState::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ListTransactionsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListTransactionsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.unknown_state_filters = (0..rng.len()).map(|_| rng.string()).collect();
        this.transaction_states = (0..rng.len())
            .map(|_| TransactionState::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TransactionState` of [`ListTransactionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionState {
    /// The transactional id.
    ///
    /// Versions: 0+.
    pub transactional_id: String,
    /// The producer id.
    ///
    /// Versions: 0+.
    pub producer_id: i64,
    /// The current transaction state of the producer.
    ///
    /// Versions: 0+.
    pub transaction_state: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TransactionState {
    fn default() -> Self {
        TransactionState {
            transactional_id: String::from(""),
            producer_id: 0,
            transaction_state: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TransactionState {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.transactional_id, flexible)?;
        e.i64(self.producer_id);
        e.string(&self.transaction_state, flexible)?;
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
        this.transactional_id = d.string(flexible, "TransactionalId")?;
        this.producer_id = d.i64()?;
        this.transaction_state = d.string(flexible, "TransactionState")?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TransactionState", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TransactionState {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.transactional_id = rng.string();
        this.producer_id = rng.i64();
        this.transaction_state = rng.string();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ListTransactionsResponse {
    const NAME: &'static str = "ListTransactionsResponse";
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
impl crate::testing::Random for ListTransactionsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
