//! `WriteTxnMarkersResponse`, generated from Kafka's `WriteTxnMarkersResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// WriteTxnMarkersResponse (valid versions 1-2, flexible from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct WriteTxnMarkersResponse {
    /// The results for writing makers.
    ///
    /// Versions: 0+.
    pub markers: Vec<WritableTxnMarkerResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WriteTxnMarkersResponse {
    fn default() -> Self {
        WriteTxnMarkersResponse {
            markers: Vec::<WritableTxnMarkerResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WriteTxnMarkersResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.array(&self.markers, flexible, |e, item| {
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
        this.markers = d.array(flexible, "Markers", |d| {
            WritableTxnMarkerResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("WriteTxnMarkersResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WriteTxnMarkersResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.markers = (0..rng.len())
            .map(|_| WritableTxnMarkerResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `WritableTxnMarkerResult` of [`WriteTxnMarkersResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct WritableTxnMarkerResult {
    /// The current producer ID in use by the transactional ID.
    ///
    /// Versions: 0+.
    pub producer_id: i64,
    /// The results by topic.
    ///
    /// Versions: 0+.
    pub topics: Vec<WritableTxnMarkerTopicResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WritableTxnMarkerResult {
    fn default() -> Self {
        WritableTxnMarkerResult {
            producer_id: 0,
            topics: Vec::<WritableTxnMarkerTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WritableTxnMarkerResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i64(self.producer_id);
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
        this.producer_id = d.i64()?;
        this.topics = d.array(flexible, "Topics", |d| {
            WritableTxnMarkerTopicResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("WritableTxnMarkerResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WritableTxnMarkerResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.producer_id = rng.i64();
        this.topics = (0..rng.len())
            .map(|_| WritableTxnMarkerTopicResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `WritableTxnMarkerTopicResult` of [`WriteTxnMarkersResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct WritableTxnMarkerTopicResult {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The results by partition.
    ///
    /// Versions: 0+.
    pub partitions: Vec<WritableTxnMarkerPartitionResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WritableTxnMarkerTopicResult {
    fn default() -> Self {
        WritableTxnMarkerTopicResult {
            name: String::from(""),
            partitions: Vec::<WritableTxnMarkerPartitionResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WritableTxnMarkerTopicResult {
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
            WritableTxnMarkerPartitionResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("WritableTxnMarkerTopicResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WritableTxnMarkerTopicResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| WritableTxnMarkerPartitionResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `WritableTxnMarkerPartitionResult` of [`WriteTxnMarkersResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct WritableTxnMarkerPartitionResult {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WritableTxnMarkerPartitionResult {
    fn default() -> Self {
        WritableTxnMarkerPartitionResult {
            partition_index: 0,
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WritableTxnMarkerPartitionResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.i16(self.error_code);
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
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("WritableTxnMarkerPartitionResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WritableTxnMarkerPartitionResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for WriteTxnMarkersResponse {
    const NAME: &'static str = "WriteTxnMarkersResponse";
    const VALID_VERSIONS: (i16, i16) = (1, 2);
    const FLEXIBLE_MIN: Option<i16> = Some(1);
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
impl crate::testing::Random for WriteTxnMarkersResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
