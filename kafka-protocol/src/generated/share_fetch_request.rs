//! `ShareFetchRequest`, generated from Kafka's `ShareFetchRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ShareFetchRequest (valid versions 1-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareFetchRequest {
    /// The group identifier.
    ///
    /// Versions: 0+.
    pub group_id: Option<String>,
    /// The member ID.
    ///
    /// Versions: 0+.
    pub member_id: Option<String>,
    /// The current share session epoch: 0 to open a share session; -1 to close it; otherwise increments for consecutive requests.
    ///
    /// Versions: 0+.
    pub share_session_epoch: i32,
    /// The maximum time in milliseconds to wait for the response.
    ///
    /// Versions: 0+.
    pub max_wait_ms: i32,
    /// The minimum bytes to accumulate in the response.
    ///
    /// Versions: 0+.
    pub min_bytes: i32,
    /// The maximum bytes to fetch. See KIP-74 for cases where this limit may not be honored.
    ///
    /// Versions: 0+.
    pub max_bytes: i32,
    /// The maximum number of records to fetch. This limit can be exceeded for alignment of batch boundaries.
    ///
    /// Versions: 1+.
    pub max_records: i32,
    /// The optimal number of records for batches of acquired records and acknowledgements.
    ///
    /// Versions: 1+.
    pub batch_size: i32,
    /// The acquire mode to control the fetch behavior - 0:batch-optimized,1:record-limit.
    ///
    /// Versions: 2+.
    pub share_acquire_mode: i8,
    /// Whether Renew type acknowledgements present in AcknowledgementBatches.
    ///
    /// Versions: 2+.
    pub is_renew_ack: bool,
    /// The topics to fetch.
    ///
    /// Versions: 0+.
    pub topics: Vec<FetchTopic>,
    /// The partitions to remove from this share session.
    ///
    /// Versions: 0+.
    pub forgotten_topics_data: Vec<ForgottenTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ShareFetchRequest {
    fn default() -> Self {
        ShareFetchRequest {
            group_id: None,
            member_id: Some(String::from("")),
            share_session_epoch: 0,
            max_wait_ms: 0,
            min_bytes: 0,
            max_bytes: 2147483647,
            max_records: 0,
            batch_size: 0,
            share_acquire_mode: 0,
            is_renew_ack: false,
            topics: Vec::<FetchTopic>::new(),
            forgotten_topics_data: Vec::<ForgottenTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareFetchRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.nullable_string(self.group_id.as_deref(), flexible)?;
        e.nullable_string(self.member_id.as_deref(), flexible)?;
        e.i32(self.share_session_epoch);
        e.i32(self.max_wait_ms);
        e.i32(self.min_bytes);
        e.i32(self.max_bytes);
        e.i32(self.max_records);
        e.i32(self.batch_size);
        if version == 2 {
            e.i8(self.share_acquire_mode);
        }
        if version == 2 {
            e.bool(self.is_renew_ack);
        }
        if version == 1 {
            if self.is_renew_ack != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ShareFetchRequest",
                    field: "IsRenewAck",
                    version,
                });
            }
        }
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.forgotten_topics_data, flexible, |e, item| {
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
        this.group_id = d.nullable_string(flexible)?;
        this.member_id = d.nullable_string(flexible)?;
        this.share_session_epoch = d.i32()?;
        this.max_wait_ms = d.i32()?;
        this.min_bytes = d.i32()?;
        this.max_bytes = d.i32()?;
        this.max_records = d.i32()?;
        this.batch_size = d.i32()?;
        if version == 2 {
            this.share_acquire_mode = d.i8()?;
        }
        if version == 2 {
            this.is_renew_ack = d.bool()?;
        }
        this.topics = d.array(flexible, "Topics", |d| FetchTopic::read(d, version))?;
        this.forgotten_topics_data = d.array(flexible, "ForgottenTopicsData", |d| {
            ForgottenTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ShareFetchRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ShareFetchRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.group_id = if rng.null() { None } else { Some(rng.string()) };
        this.member_id = if rng.null() { None } else { Some(rng.string()) };
        this.share_session_epoch = rng.i32();
        this.max_wait_ms = rng.i32();
        this.min_bytes = rng.i32();
        this.max_bytes = rng.i32();
        this.max_records = rng.i32();
        this.batch_size = rng.i32();
        if version == 2 {
            this.share_acquire_mode = rng.i8();
        }
        if version == 2 {
            this.is_renew_ack = rng.bool();
        }
        this.topics = (0..rng.len())
            .map(|_| FetchTopic::random_value(rng, version))
            .collect();
        this.forgotten_topics_data = (0..rng.len())
            .map(|_| ForgottenTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `FetchTopic` of [`ShareFetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct FetchTopic {
    /// The unique topic ID.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The partitions to fetch.
    ///
    /// Versions: 0+.
    pub partitions: Vec<FetchPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchTopic {
    fn default() -> Self {
        FetchTopic {
            topic_id: Uuid::nil(),
            partitions: Vec::<FetchPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.uuid(&self.topic_id);
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
        this.topic_id = d.uuid()?;
        this.partitions = d.array(flexible, "Partitions", |d| FetchPartition::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FetchTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl FetchTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_id = rng.uuid();
        this.partitions = (0..rng.len())
            .map(|_| FetchPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `FetchPartition` of [`ShareFetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct FetchPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The maximum bytes to fetch from this partition. 0 when only acknowledgement with no fetching is required. See KIP-74 for cases where this limit may not be honored.
    ///
    /// Versions: 0-0.
    pub partition_max_bytes: i32,
    /// Record batches to acknowledge.
    ///
    /// Versions: 0+.
    pub acknowledgement_batches: Vec<AcknowledgementBatch>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchPartition {
    fn default() -> Self {
        FetchPartition {
            partition_index: 0,
            partition_max_bytes: 0,
            acknowledgement_batches: Vec::<AcknowledgementBatch>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        if self.partition_max_bytes != 0 && !e.drops_unsupported_fields() {
            return Err(EncodeError::UnsupportedField {
                message: "FetchPartition",
                field: "PartitionMaxBytes",
                version,
            });
        }
        e.array(&self.acknowledgement_batches, flexible, |e, item| {
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
        this.acknowledgement_batches = d.array(flexible, "AcknowledgementBatches", |d| {
            AcknowledgementBatch::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FetchPartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl FetchPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.acknowledgement_batches = (0..rng.len())
            .map(|_| AcknowledgementBatch::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AcknowledgementBatch` of [`ShareFetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AcknowledgementBatch {
    /// First offset of batch of records to acknowledge.
    ///
    /// Versions: 0+.
    pub first_offset: i64,
    /// Last offset (inclusive) of batch of records to acknowledge.
    ///
    /// Versions: 0+.
    pub last_offset: i64,
    /// Array of acknowledge types - 0:Gap,1:Accept,2:Release,3:Reject,4:Renew.
    ///
    /// Versions: 0+.
    pub acknowledge_types: Vec<i8>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AcknowledgementBatch {
    fn default() -> Self {
        AcknowledgementBatch {
            first_offset: 0,
            last_offset: 0,
            acknowledge_types: Vec::<i8>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AcknowledgementBatch {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i64(self.first_offset);
        e.i64(self.last_offset);
        e.array(&self.acknowledge_types, flexible, |e, item| {
            e.i8(*item);
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
        this.first_offset = d.i64()?;
        this.last_offset = d.i64()?;
        this.acknowledge_types = d.array(flexible, "AcknowledgeTypes", |d| d.i8())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AcknowledgementBatch", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AcknowledgementBatch {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.first_offset = rng.i64();
        this.last_offset = rng.i64();
        this.acknowledge_types = (0..rng.len()).map(|_| rng.i8()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ForgottenTopic` of [`ShareFetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ForgottenTopic {
    /// The unique topic ID.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The partitions indexes to forget.
    ///
    /// Versions: 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ForgottenTopic {
    fn default() -> Self {
        ForgottenTopic {
            topic_id: Uuid::nil(),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ForgottenTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.uuid(&self.topic_id);
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
        this.topic_id = d.uuid()?;
        this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ForgottenTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ForgottenTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_id = rng.uuid();
        this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ShareFetchRequest {
    const NAME: &'static str = "ShareFetchRequest";
    const VALID_VERSIONS: (i16, i16) = (1, 2);
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
impl crate::testing::Random for ShareFetchRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
