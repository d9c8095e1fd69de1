//! `DescribeTransactionsResponse`, generated from Kafka's `DescribeTransactionsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeTransactionsResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeTransactionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The current state of the transaction.
    ///
    /// Versions: 0+.
    pub transaction_states: Vec<TransactionState>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeTransactionsResponse {
    fn default() -> Self {
        DescribeTransactionsResponse {
            throttle_time_ms: 0,
            transaction_states: Vec::<TransactionState>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeTransactionsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
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
        this.transaction_states = d.array(flexible, "TransactionStates", |d| {
            TransactionState::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeTransactionsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeTransactionsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.transaction_states = (0..rng.len())
            .map(|_| TransactionState::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TransactionState` of [`DescribeTransactionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionState {
    /// The error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The transactional id.
    ///
    /// Versions: 0+.
    pub transactional_id: String,
    /// The current transaction state of the producer.
    ///
    /// Versions: 0+.
    pub transaction_state: String,
    /// The timeout in milliseconds for the transaction.
    ///
    /// Versions: 0+.
    pub transaction_timeout_ms: i32,
    /// The start time of the transaction in milliseconds.
    ///
    /// Versions: 0+.
    pub transaction_start_time_ms: i64,
    /// The current producer id associated with the transaction.
    ///
    /// Versions: 0+.
    pub producer_id: i64,
    /// The current epoch associated with the producer id.
    ///
    /// Versions: 0+.
    pub producer_epoch: i16,
    /// The set of partitions included in the current transaction (if active). When a transaction is preparing to commit or abort, this will include only partitions which do not have markers.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TransactionState {
    fn default() -> Self {
        TransactionState {
            error_code: 0,
            transactional_id: String::from(""),
            transaction_state: String::from(""),
            transaction_timeout_ms: 0,
            transaction_start_time_ms: 0,
            producer_id: 0,
            producer_epoch: 0,
            topics: Vec::<TopicData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TransactionState {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.error_code);
        e.string(&self.transactional_id, flexible)?;
        e.string(&self.transaction_state, flexible)?;
        e.i32(self.transaction_timeout_ms);
        e.i64(self.transaction_start_time_ms);
        e.i64(self.producer_id);
        e.i16(self.producer_epoch);
        e.array(&self.topics, flexible, |e, item| {
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
        this.error_code = d.i16()?;
        this.transactional_id = d.string(flexible, "TransactionalId")?;
        this.transaction_state = d.string(flexible, "TransactionState")?;
        this.transaction_timeout_ms = d.i32()?;
        this.transaction_start_time_ms = d.i64()?;
        this.producer_id = d.i64()?;
        this.producer_epoch = d.i16()?;
        this.topics = d.array(flexible, "Topics", |d| TopicData::read(d, version))?;
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
        this.error_code = rng.i16();
        this.transactional_id = rng.string();
        this.transaction_state = rng.string();
        this.transaction_timeout_ms = rng.i32();
        this.transaction_start_time_ms = rng.i64();
        this.producer_id = rng.i64();
        this.producer_epoch = rng.i16();
        this.topics = (0..rng.len())
            .map(|_| TopicData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicData` of [`DescribeTransactionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicData {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic: String,
    /// The partition ids included in the current transaction.
    ///
    /// Versions: 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicData {
    fn default() -> Self {
        TopicData {
            topic: String::from(""),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.topic, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
            e.i32(*item);
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
        this.topic = d.string(flexible, "Topic")?;
        this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TopicData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic = rng.string();
        this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeTransactionsResponse {
    const NAME: &'static str = "DescribeTransactionsResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 0);
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
impl crate::testing::Random for DescribeTransactionsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
