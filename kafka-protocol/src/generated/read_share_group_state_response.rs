//! `ReadShareGroupStateResponse`, generated from Kafka's `ReadShareGroupStateResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ReadShareGroupStateResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadShareGroupStateResponse {
    /// The read results.
    ///
    /// Versions: 0+.
    pub results: Vec<ReadStateResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReadShareGroupStateResponse {
    fn default() -> Self {
        ReadShareGroupStateResponse {
            results: Vec::<ReadStateResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReadShareGroupStateResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.array(&self.results, flexible, |e, item| {
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
        this.results = d.array(flexible, "Results", |d| ReadStateResult::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ReadShareGroupStateResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReadShareGroupStateResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.results = (0..rng.len())
            .map(|_| ReadStateResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReadStateResult` of [`ReadShareGroupStateResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReadStateResult {
    /// The topic identifier.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The results for the partitions.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReadStateResult {
    fn default() -> Self {
        ReadStateResult {
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReadStateResult {
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
            PartitionResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ReadStateResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReadStateResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_id = rng.uuid();
        this.partitions = (0..rng.len())
            .map(|_| PartitionResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionResult` of [`ReadShareGroupStateResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionResult {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The state epoch of the share-partition.
    ///
    /// Versions: 0+.
    pub state_epoch: i32,
    /// The share-partition start offset, which can be -1 if it is not yet initialized.
    ///
    /// Versions: 0+.
    pub start_offset: i64,
    /// The state batches for this share-partition.
    ///
    /// Versions: 0+.
    pub state_batches: Vec<StateBatch>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionResult {
    fn default() -> Self {
        PartitionResult {
            partition: 0,
            error_code: 0,
            error_message: None,
            state_epoch: 0,
            start_offset: 0,
            state_batches: Vec::<StateBatch>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.i32(self.state_epoch);
        e.i64(self.start_offset);
        e.array(&self.state_batches, flexible, |e, item| {
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
        this.partition = d.i32()?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.state_epoch = d.i32()?;
        this.start_offset = d.i64()?;
        this.state_batches = d.array(flexible, "StateBatches", |d| StateBatch::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("PartitionResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl PartitionResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.state_epoch = rng.i32();
        this.start_offset = rng.i64();
        this.state_batches = (0..rng.len())
            .map(|_| StateBatch::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `StateBatch` of [`ReadShareGroupStateResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct StateBatch {
    /// The first offset of this state batch.
    ///
    /// Versions: 0+.
    pub first_offset: i64,
    /// The last offset of this state batch.
    ///
    /// Versions: 0+.
    pub last_offset: i64,
    /// The delivery state - 0:Available,2:Acked,4:Archived.
    ///
    /// Versions: 0+.
    pub delivery_state: i8,
    /// The delivery count.
    ///
    /// Versions: 0+.
    pub delivery_count: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for StateBatch {
    fn default() -> Self {
        StateBatch {
            first_offset: 0,
            last_offset: 0,
            delivery_state: 0,
            delivery_count: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StateBatch {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i64(self.first_offset);
        e.i64(self.last_offset);
        e.i8(self.delivery_state);
        e.i16(self.delivery_count);
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
        this.delivery_state = d.i8()?;
        this.delivery_count = d.i16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("StateBatch", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl StateBatch {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.first_offset = rng.i64();
        this.last_offset = rng.i64();
        this.delivery_state = rng.i8();
        this.delivery_count = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ReadShareGroupStateResponse {
    const NAME: &'static str = "ReadShareGroupStateResponse";
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
impl crate::testing::Random for ReadShareGroupStateResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
