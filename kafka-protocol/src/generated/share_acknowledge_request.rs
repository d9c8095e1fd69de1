//! `ShareAcknowledgeRequest`, generated from Kafka's `ShareAcknowledgeRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ShareAcknowledgeRequest (valid versions 1-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareAcknowledgeRequest {
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
    /// Whether Renew type acknowledgements present in AcknowledgementBatches.
    ///
    /// Versions: 2+.
    pub is_renew_ack: bool,
    /// The topics containing records to acknowledge.
    ///
    /// Versions: 0+.
    pub topics: Vec<AcknowledgeTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ShareAcknowledgeRequest {
    fn default() -> Self {
        ShareAcknowledgeRequest {
            group_id: None,
            member_id: Some(String::from("")),
            share_session_epoch: 0,
            is_renew_ack: false,
            topics: Vec::<AcknowledgeTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareAcknowledgeRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.nullable_string(self.group_id.as_deref(), flexible)?;
        e.nullable_string(self.member_id.as_deref(), flexible)?;
        e.i32(self.share_session_epoch);
        if version == 2 {
            e.bool(self.is_renew_ack);
        }
        if version == 1 {
            if self.is_renew_ack != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ShareAcknowledgeRequest",
                    field: "IsRenewAck",
                    version,
                });
            }
        }
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
        this.group_id = d.nullable_string(flexible)?;
        this.member_id = d.nullable_string(flexible)?;
        this.share_session_epoch = d.i32()?;
        if version == 2 {
            this.is_renew_ack = d.bool()?;
        }
        this.topics = d.array(flexible, "Topics", |d| AcknowledgeTopic::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ShareAcknowledgeRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ShareAcknowledgeRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.group_id = if rng.null() { None } else { Some(rng.string()) };
        this.member_id = if rng.null() { None } else { Some(rng.string()) };
        this.share_session_epoch = rng.i32();
        if version == 2 {
            this.is_renew_ack = rng.bool();
        }
        this.topics = (0..rng.len())
            .map(|_| AcknowledgeTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AcknowledgeTopic` of [`ShareAcknowledgeRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AcknowledgeTopic {
    /// The unique topic ID.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The partitions containing records to acknowledge.
    ///
    /// Versions: 0+.
    pub partitions: Vec<AcknowledgePartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AcknowledgeTopic {
    fn default() -> Self {
        AcknowledgeTopic {
            topic_id: Uuid::nil(),
            partitions: Vec::<AcknowledgePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AcknowledgeTopic {
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
        this.partitions = d.array(flexible, "Partitions", |d| {
            AcknowledgePartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("AcknowledgeTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AcknowledgeTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_id = rng.uuid();
        this.partitions = (0..rng.len())
            .map(|_| AcknowledgePartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AcknowledgePartition` of [`ShareAcknowledgeRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AcknowledgePartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// Record batches to acknowledge.
    ///
    /// Versions: 0+.
    pub acknowledgement_batches: Vec<AcknowledgementBatch>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AcknowledgePartition {
    fn default() -> Self {
        AcknowledgePartition {
            partition_index: 0,
            acknowledgement_batches: Vec::<AcknowledgementBatch>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AcknowledgePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
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
            this.unknown_tagged_fields =
                d.tagged_fields("AcknowledgePartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AcknowledgePartition {
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

/// A `AcknowledgementBatch` of [`ShareAcknowledgeRequest`].
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

impl crate::Message for ShareAcknowledgeRequest {
    const NAME: &'static str = "ShareAcknowledgeRequest";
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
impl crate::testing::Random for ShareAcknowledgeRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
