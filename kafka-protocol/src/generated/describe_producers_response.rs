//! `DescribeProducersResponse`, generated from Kafka's `DescribeProducersResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeProducersResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeProducersResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// Each topic in the response.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicResponse>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeProducersResponse {
    fn default() -> Self {
        DescribeProducersResponse {
            throttle_time_ms: 0,
            topics: Vec::<TopicResponse>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeProducersResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
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
        this.throttle_time_ms = d.i32()?;
        this.topics = d.array(flexible, "Topics", |d| TopicResponse::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeProducersResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeProducersResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.topics = (0..rng.len())
            .map(|_| TopicResponse::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicResponse` of [`DescribeProducersResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicResponse {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// Each partition in the response.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionResponse>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicResponse {
    fn default() -> Self {
        TopicResponse {
            name: String::from(""),
            partitions: Vec::<PartitionResponse>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
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
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            PartitionResponse::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TopicResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| PartitionResponse::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionResponse` of [`DescribeProducersResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionResponse {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The partition error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The partition error message, which may be null if no additional details are available.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The active producers for the partition.
    ///
    /// Versions: 0+.
    pub active_producers: Vec<ProducerState>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionResponse {
    fn default() -> Self {
        PartitionResponse {
            partition_index: 0,
            error_code: 0,
            error_message: None,
            active_producers: Vec::<ProducerState>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.array(&self.active_producers, flexible, |e, item| {
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
        this.partition_index = d.i32()?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.active_producers = d.array(flexible, "ActiveProducers", |d| {
            ProducerState::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("PartitionResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl PartitionResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.active_producers = (0..rng.len())
            .map(|_| ProducerState::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ProducerState` of [`DescribeProducersResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ProducerState {
    /// The producer id.
    ///
    /// Versions: 0+.
    pub producer_id: i64,
    /// The producer epoch.
    ///
    /// Versions: 0+.
    pub producer_epoch: i32,
    /// The last sequence number sent by the producer.
    ///
    /// Versions: 0+.
    pub last_sequence: i32,
    /// The last timestamp sent by the producer.
    ///
    /// Versions: 0+.
    pub last_timestamp: i64,
    /// The current epoch of the producer group.
    ///
    /// Versions: 0+.
    pub coordinator_epoch: i32,
    /// The current transaction start offset of the producer.
    ///
    /// Versions: 0+.
    pub current_txn_start_offset: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ProducerState {
    fn default() -> Self {
        ProducerState {
            producer_id: 0,
            producer_epoch: 0,
            last_sequence: -1,
            last_timestamp: -1,
            coordinator_epoch: 0,
            current_txn_start_offset: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ProducerState {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i64(self.producer_id);
        e.i32(self.producer_epoch);
        e.i32(self.last_sequence);
        e.i64(self.last_timestamp);
        e.i32(self.coordinator_epoch);
        e.i64(self.current_txn_start_offset);
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
        this.producer_id = d.i64()?;
        this.producer_epoch = d.i32()?;
        this.last_sequence = d.i32()?;
        this.last_timestamp = d.i64()?;
        this.coordinator_epoch = d.i32()?;
        this.current_txn_start_offset = d.i64()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ProducerState", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ProducerState {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.producer_id = rng.i64();
        this.producer_epoch = rng.i32();
        this.last_sequence = rng.i32();
        this.last_timestamp = rng.i64();
        this.coordinator_epoch = rng.i32();
        this.current_txn_start_offset = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeProducersResponse {
    const NAME: &'static str = "DescribeProducersResponse";
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
impl crate::testing::Random for DescribeProducersResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
