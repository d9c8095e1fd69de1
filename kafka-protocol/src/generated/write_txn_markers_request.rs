//! `WriteTxnMarkersRequest`, generated from Kafka's `WriteTxnMarkersRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// WriteTxnMarkersRequest (valid versions 1-2, flexible from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct WriteTxnMarkersRequest {
    /// The transaction markers to be written.
    ///
    /// Versions: 0+.
    pub markers: Vec<WritableTxnMarker>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WriteTxnMarkersRequest {
    fn default() -> Self {
        WriteTxnMarkersRequest {
            markers: Vec::<WritableTxnMarker>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WriteTxnMarkersRequest {
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
        this.markers = d.array(flexible, "Markers", |d| WritableTxnMarker::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("WriteTxnMarkersRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WriteTxnMarkersRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.markers = (0..rng.len())
            .map(|_| WritableTxnMarker::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `WritableTxnMarker` of [`WriteTxnMarkersRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct WritableTxnMarker {
    /// The current producer ID.
    ///
    /// Versions: 0+.
    pub producer_id: i64,
    /// The current epoch associated with the producer ID.
    ///
    /// Versions: 0+.
    pub producer_epoch: i16,
    /// The result of the transaction to write to the partitions (false = ABORT, true = COMMIT).
    ///
    /// Versions: 0+.
    pub transaction_result: bool,
    /// Each topic that we want to write transaction marker(s) for.
    ///
    /// Versions: 0+.
    pub topics: Vec<WritableTxnMarkerTopic>,
    /// Epoch associated with the transaction state partition hosted by this transaction coordinator.
    ///
    /// Versions: 0+.
    pub coordinator_epoch: i32,
    /// Transaction version of the marker. Ex: 0/1 = legacy (TV0/TV1), 2 = TV2 etc.
    ///
    /// Versions: 2+.
    pub transaction_version: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WritableTxnMarker {
    fn default() -> Self {
        WritableTxnMarker {
            producer_id: 0,
            producer_epoch: 0,
            transaction_result: false,
            topics: Vec::<WritableTxnMarkerTopic>::new(),
            coordinator_epoch: 0,
            transaction_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WritableTxnMarker {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i64(self.producer_id);
        e.i16(self.producer_epoch);
        e.bool(self.transaction_result);
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.coordinator_epoch);
        if version == 2 {
            e.i8(self.transaction_version);
        }
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
        this.producer_epoch = d.i16()?;
        this.transaction_result = d.bool()?;
        this.topics = d.array(flexible, "Topics", |d| {
            WritableTxnMarkerTopic::read(d, version)
        })?;
        this.coordinator_epoch = d.i32()?;
        if version == 2 {
            this.transaction_version = d.i8()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("WritableTxnMarker", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WritableTxnMarker {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.producer_id = rng.i64();
        this.producer_epoch = rng.i16();
        this.transaction_result = rng.bool();
        this.topics = (0..rng.len())
            .map(|_| WritableTxnMarkerTopic::random_value(rng, version))
            .collect();
        this.coordinator_epoch = rng.i32();
        if version == 2 {
            this.transaction_version = rng.i8();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `WritableTxnMarkerTopic` of [`WriteTxnMarkersRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct WritableTxnMarkerTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The indexes of the partitions to write transaction markers for.
    ///
    /// Versions: 0+.
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WritableTxnMarkerTopic {
    fn default() -> Self {
        WritableTxnMarkerTopic {
            name: String::from(""),
            partition_indexes: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WritableTxnMarkerTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.array(&self.partition_indexes, flexible, |e, item| {
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
        this.name = d.string(flexible, "Name")?;
        this.partition_indexes = d.array(flexible, "PartitionIndexes", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("WritableTxnMarkerTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WritableTxnMarkerTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partition_indexes = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for WriteTxnMarkersRequest {
    const NAME: &'static str = "WriteTxnMarkersRequest";
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
impl crate::testing::Random for WriteTxnMarkersRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
