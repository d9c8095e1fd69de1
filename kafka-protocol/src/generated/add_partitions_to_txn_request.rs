//! `AddPartitionsToTxnRequest`, generated from Kafka's `AddPartitionsToTxnRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AddPartitionsToTxnRequest (valid versions 0-5, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnRequest {
    /// List of transactions to add partitions to.
    ///
    /// Versions: 4+.
    pub transactions: Vec<AddPartitionsToTxnTransaction>,
    /// The transactional id corresponding to the transaction.
    ///
    /// Versions: 0-3.
    pub v3_and_below_transactional_id: String,
    /// Current producer id in use by the transactional id.
    ///
    /// Versions: 0-3.
    pub v3_and_below_producer_id: i64,
    /// Current epoch associated with the producer id.
    ///
    /// Versions: 0-3.
    pub v3_and_below_producer_epoch: i16,
    /// The partitions to add to the transaction.
    ///
    /// Versions: 0-3.
    pub v3_and_below_topics: Vec<AddPartitionsToTxnTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddPartitionsToTxnRequest {
    fn default() -> Self {
        AddPartitionsToTxnRequest {
            transactions: Vec::<AddPartitionsToTxnTransaction>::new(),
            v3_and_below_transactional_id: String::from(""),
            v3_and_below_producer_id: 0,
            v3_and_below_producer_epoch: 0,
            v3_and_below_topics: Vec::<AddPartitionsToTxnTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 4 {
            e.array(&self.transactions, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 3 {
            if self.transactions != Vec::<AddPartitionsToTxnTransaction>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnRequest",
                    field: "Transactions",
                    version,
                });
            }
        }
        if version <= 3 {
            e.string(&self.v3_and_below_transactional_id, flexible)?;
        }
        if version >= 4 {
            if self.v3_and_below_transactional_id != String::from("")
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnRequest",
                    field: "V3AndBelowTransactionalId",
                    version,
                });
            }
        }
        if version <= 3 {
            e.i64(self.v3_and_below_producer_id);
        }
        if version >= 4 {
            if self.v3_and_below_producer_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnRequest",
                    field: "V3AndBelowProducerId",
                    version,
                });
            }
        }
        if version <= 3 {
            e.i16(self.v3_and_below_producer_epoch);
        }
        if version >= 4 {
            if self.v3_and_below_producer_epoch != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnRequest",
                    field: "V3AndBelowProducerEpoch",
                    version,
                });
            }
        }
        if version <= 3 {
            e.array(&self.v3_and_below_topics, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version >= 4 {
            if self.v3_and_below_topics != Vec::<AddPartitionsToTxnTopic>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnRequest",
                    field: "V3AndBelowTopics",
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
            this.transactions = d.array(flexible, "Transactions", |d| {
                AddPartitionsToTxnTransaction::read(d, version)
            })?;
        }
        if version <= 3 {
            this.v3_and_below_transactional_id = d.string(flexible, "V3AndBelowTransactionalId")?;
        }
        if version <= 3 {
            this.v3_and_below_producer_id = d.i64()?;
        }
        if version <= 3 {
            this.v3_and_below_producer_epoch = d.i16()?;
        }
        if version <= 3 {
            this.v3_and_below_topics = d.array(flexible, "V3AndBelowTopics", |d| {
                AddPartitionsToTxnTopic::read(d, version)
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddPartitionsToTxnRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddPartitionsToTxnRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 4 {
            this.transactions = (0..rng.len())
                .map(|_| AddPartitionsToTxnTransaction::random_value(rng, version))
                .collect();
        }
        if version <= 3 {
            this.v3_and_below_transactional_id = rng.string();
        }
        if version <= 3 {
            this.v3_and_below_producer_id = rng.i64();
        }
        if version <= 3 {
            this.v3_and_below_producer_epoch = rng.i16();
        }
        if version <= 3 {
            this.v3_and_below_topics = (0..rng.len())
                .map(|_| AddPartitionsToTxnTopic::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AddPartitionsToTxnTransaction` of [`AddPartitionsToTxnRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnTransaction {
    /// The transactional id corresponding to the transaction.
    ///
    /// Versions: 4+.
    pub transactional_id: String,
    /// Current producer id in use by the transactional id.
    ///
    /// Versions: 4+.
    pub producer_id: i64,
    /// Current epoch associated with the producer id.
    ///
    /// Versions: 4+.
    pub producer_epoch: i16,
    /// Boolean to signify if we want to check if the partition is in the transaction rather than add it.
    ///
    /// Versions: 4+.
    pub verify_only: bool,
    /// The partitions to add to the transaction.
    ///
    /// Versions: 4+.
    pub topics: Vec<AddPartitionsToTxnTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddPartitionsToTxnTransaction {
    fn default() -> Self {
        AddPartitionsToTxnTransaction {
            transactional_id: String::from(""),
            producer_id: 0,
            producer_epoch: 0,
            verify_only: false,
            topics: Vec::<AddPartitionsToTxnTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnTransaction {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 4 {
            e.string(&self.transactional_id, flexible)?;
        }
        if version <= 3 {
            if self.transactional_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnTransaction",
                    field: "TransactionalId",
                    version,
                });
            }
        }
        if version >= 4 {
            e.i64(self.producer_id);
        }
        if version <= 3 {
            if self.producer_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnTransaction",
                    field: "ProducerId",
                    version,
                });
            }
        }
        if version >= 4 {
            e.i16(self.producer_epoch);
        }
        if version <= 3 {
            if self.producer_epoch != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnTransaction",
                    field: "ProducerEpoch",
                    version,
                });
            }
        }
        if version >= 4 {
            e.bool(self.verify_only);
        }
        if version <= 3 {
            if self.verify_only != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnTransaction",
                    field: "VerifyOnly",
                    version,
                });
            }
        }
        if version >= 4 {
            e.array(&self.topics, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 3 {
            if self.topics != Vec::<AddPartitionsToTxnTopic>::new() && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnTransaction",
                    field: "Topics",
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
            this.transactional_id = d.string(flexible, "TransactionalId")?;
        }
        if version >= 4 {
            this.producer_id = d.i64()?;
        }
        if version >= 4 {
            this.producer_epoch = d.i16()?;
        }
        if version >= 4 {
            this.verify_only = d.bool()?;
        }
        if version >= 4 {
            this.topics = d.array(flexible, "Topics", |d| {
                AddPartitionsToTxnTopic::read(d, version)
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddPartitionsToTxnTransaction", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddPartitionsToTxnTransaction {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 4 {
            this.transactional_id = rng.string();
        }
        if version >= 4 {
            this.producer_id = rng.i64();
        }
        if version >= 4 {
            this.producer_epoch = rng.i16();
        }
        if version >= 4 {
            this.verify_only = rng.bool();
        }
        if version >= 4 {
            this.topics = (0..rng.len())
                .map(|_| AddPartitionsToTxnTopic::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AddPartitionsToTxnTopic` of [`AddPartitionsToTxnRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnTopic {
    /// The name of the topic.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The partition indexes to add to the transaction.
    ///
    /// Versions: 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddPartitionsToTxnTopic {
    fn default() -> Self {
        AddPartitionsToTxnTopic {
            name: String::from(""),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.string(&self.name, flexible)?;
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
        let flexible = version >= 3;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddPartitionsToTxnTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddPartitionsToTxnTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AddPartitionsToTxnRequest {
    const NAME: &'static str = "AddPartitionsToTxnRequest";
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
impl crate::testing::Random for AddPartitionsToTxnRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
