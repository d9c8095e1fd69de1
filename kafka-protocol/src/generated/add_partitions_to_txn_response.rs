//! `AddPartitionsToTxnResponse`, generated from Kafka's `AddPartitionsToTxnResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AddPartitionsToTxnResponse (valid versions 0-5, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The response top level error code.
    ///
    /// Versions: 4+.
    pub error_code: i16,
    /// Results categorized by transactional ID.
    ///
    /// Versions: 4+.
    pub results_by_transaction: Vec<AddPartitionsToTxnResult>,
    /// The results for each topic.
    ///
    /// Versions: 0-3.
    pub results_by_topic_v3_and_below: Vec<AddPartitionsToTxnTopicResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddPartitionsToTxnResponse {
    fn default() -> Self {
        AddPartitionsToTxnResponse {
            throttle_time_ms: 0,
            error_code: 0,
            results_by_transaction: Vec::<AddPartitionsToTxnResult>::new(),
            results_by_topic_v3_and_below: Vec::<AddPartitionsToTxnTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.i32(self.throttle_time_ms);
        if version >= 4 {
            e.i16(self.error_code);
        }
        if version >= 4 {
            e.array(&self.results_by_transaction, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 3 {
            if self.results_by_transaction != Vec::<AddPartitionsToTxnResult>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnResponse",
                    field: "ResultsByTransaction",
                    version,
                });
            }
        }
        if version <= 3 {
            e.array(&self.results_by_topic_v3_and_below, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version >= 4 {
            if self.results_by_topic_v3_and_below != Vec::<AddPartitionsToTxnTopicResult>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnResponse",
                    field: "ResultsByTopicV3AndBelow",
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
        this.throttle_time_ms = d.i32()?;
        if version >= 4 {
            this.error_code = d.i16()?;
        }
        if version >= 4 {
            this.results_by_transaction = d.array(flexible, "ResultsByTransaction", |d| {
                AddPartitionsToTxnResult::read(d, version)
            })?;
        }
        if version <= 3 {
            this.results_by_topic_v3_and_below =
                d.array(flexible, "ResultsByTopicV3AndBelow", |d| {
                    AddPartitionsToTxnTopicResult::read(d, version)
                })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddPartitionsToTxnResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddPartitionsToTxnResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        if version >= 4 {
            this.error_code = rng.i16();
        }
        if version >= 4 {
            this.results_by_transaction = (0..rng.len())
                .map(|_| AddPartitionsToTxnResult::random_value(rng, version))
                .collect();
        }
        if version <= 3 {
            this.results_by_topic_v3_and_below = (0..rng.len())
                .map(|_| AddPartitionsToTxnTopicResult::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AddPartitionsToTxnResult` of [`AddPartitionsToTxnResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnResult {
    /// The transactional id corresponding to the transaction.
    ///
    /// Versions: 4+.
    pub transactional_id: String,
    /// The results for each topic.
    ///
    /// Versions: 4+.
    pub topic_results: Vec<AddPartitionsToTxnTopicResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddPartitionsToTxnResult {
    fn default() -> Self {
        AddPartitionsToTxnResult {
            transactional_id: String::from(""),
            topic_results: Vec::<AddPartitionsToTxnTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 4 {
            e.string(&self.transactional_id, flexible)?;
        }
        if version <= 3 {
            if self.transactional_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnResult",
                    field: "TransactionalId",
                    version,
                });
            }
        }
        if version >= 4 {
            e.array(&self.topic_results, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 3 {
            if self.topic_results != Vec::<AddPartitionsToTxnTopicResult>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "AddPartitionsToTxnResult",
                    field: "TopicResults",
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
            this.topic_results = d.array(flexible, "TopicResults", |d| {
                AddPartitionsToTxnTopicResult::read(d, version)
            })?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddPartitionsToTxnResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddPartitionsToTxnResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 4 {
            this.transactional_id = rng.string();
        }
        if version >= 4 {
            this.topic_results = (0..rng.len())
                .map(|_| AddPartitionsToTxnTopicResult::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AddPartitionsToTxnTopicResult` of [`AddPartitionsToTxnResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnTopicResult {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The results for each partition.
    ///
    /// Versions: 0+.
    pub results_by_partition: Vec<AddPartitionsToTxnPartitionResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddPartitionsToTxnTopicResult {
    fn default() -> Self {
        AddPartitionsToTxnTopicResult {
            name: String::from(""),
            results_by_partition: Vec::<AddPartitionsToTxnPartitionResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnTopicResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.string(&self.name, flexible)?;
        e.array(&self.results_by_partition, flexible, |e, item| {
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
        let flexible = version >= 3;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.results_by_partition = d.array(flexible, "ResultsByPartition", |d| {
            AddPartitionsToTxnPartitionResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddPartitionsToTxnTopicResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddPartitionsToTxnTopicResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.name = rng.string();
        this.results_by_partition = (0..rng.len())
            .map(|_| AddPartitionsToTxnPartitionResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AddPartitionsToTxnPartitionResult` of [`AddPartitionsToTxnResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnPartitionResult {
    /// The partition indexes.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The response error code.
    ///
    /// Versions: 0+.
    pub partition_error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddPartitionsToTxnPartitionResult {
    fn default() -> Self {
        AddPartitionsToTxnPartitionResult {
            partition_index: 0,
            partition_error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnPartitionResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.i32(self.partition_index);
        e.i16(self.partition_error_code);
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
        this.partition_index = d.i32()?;
        this.partition_error_code = d.i16()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddPartitionsToTxnPartitionResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddPartitionsToTxnPartitionResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.partition_error_code = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AddPartitionsToTxnResponse {
    const NAME: &'static str = "AddPartitionsToTxnResponse";
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
impl crate::testing::Random for AddPartitionsToTxnResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
