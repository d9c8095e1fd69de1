//! `ProduceRequest`, generated from Kafka's `ProduceRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ProduceRequest (valid versions 3-13, flexible from 9).
#[derive(Debug, Clone, PartialEq)]
pub struct ProduceRequest {
    /// The transactional ID, or null if the producer is not transactional.
    ///
    /// Versions: 3+.
    pub transactional_id: Option<String>,
    /// The number of acknowledgments the producer requires the leader to have received before considering a request complete. Allowed values: 0 for no acknowledgments, 1 for only the leader and -1 for the full ISR.
    ///
    /// Versions: 0+.
    pub acks: i16,
    /// The timeout to await a response in milliseconds.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// Each topic to produce to.
    ///
    /// Versions: 0+.
    pub topic_data: Vec<TopicProduceData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ProduceRequest {
    fn default() -> Self {
        ProduceRequest {
            transactional_id: None,
            acks: 0,
            timeout_ms: 0,
            topic_data: Vec::<TopicProduceData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ProduceRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        e.nullable_string(self.transactional_id.as_deref(), flexible)?;
        e.i16(self.acks);
        e.i32(self.timeout_ms);
        e.array(&self.topic_data, flexible, |e, item| {
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
        let flexible = version >= 9;
        let mut this = Self::default();
        this.transactional_id = d.nullable_string(flexible)?;
        this.acks = d.i16()?;
        this.timeout_ms = d.i32()?;
        this.topic_data = d.array(flexible, "TopicData", |d| {
            TopicProduceData::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ProduceRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ProduceRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.transactional_id = if rng.null() { None } else { Some(rng.string()) };
        this.acks = rng.i16();
        this.timeout_ms = rng.i32();
        this.topic_data = (0..rng.len())
            .map(|_| TopicProduceData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicProduceData` of [`ProduceRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicProduceData {
    /// The topic name.
    ///
    /// Versions: 0-12.
    pub name: String,
    /// The unique topic ID
    ///
    /// Versions: 13+.
    pub topic_id: Uuid,
    /// Each partition to produce to.
    ///
    /// Versions: 0+.
    pub partition_data: Vec<PartitionProduceData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicProduceData {
    fn default() -> Self {
        TopicProduceData {
            name: String::from(""),
            topic_id: Uuid::nil(),
            partition_data: Vec::<PartitionProduceData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicProduceData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        if version <= 12 {
            e.string(&self.name, flexible)?;
        }
        if version == 13 {
            e.uuid(&self.topic_id);
        }
        e.array(&self.partition_data, flexible, |e, item| {
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
        let flexible = version >= 9;
        let mut this = Self::default();
        if version <= 12 {
            this.name = d.string(flexible, "Name")?;
        }
        if version == 13 {
            this.topic_id = d.uuid()?;
        }
        this.partition_data = d.array(flexible, "PartitionData", |d| {
            PartitionProduceData::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TopicProduceData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicProduceData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        if version <= 12 {
            this.name = rng.string();
        }
        if version == 13 {
            this.topic_id = rng.uuid();
        }
        this.partition_data = (0..rng.len())
            .map(|_| PartitionProduceData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionProduceData` of [`ProduceRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionProduceData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub index: i32,
    /// The record data to be produced.
    ///
    /// Versions: 0+.
    pub records: Option<Bytes>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionProduceData {
    fn default() -> Self {
        PartitionProduceData {
            index: 0,
            records: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionProduceData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        e.i32(self.index);
        e.nullable_bytes(self.records.as_ref(), flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.index = d.i32()?;
        this.records = d.nullable_bytes(flexible)?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("PartitionProduceData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl PartitionProduceData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.index = rng.i32();
        this.records = if rng.null() { None } else { Some(rng.bytes()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ProduceRequest {
    const NAME: &'static str = "ProduceRequest";
    const VALID_VERSIONS: (i16, i16) = (3, 13);
    const FLEXIBLE_MIN: Option<i16> = Some(9);
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
impl crate::testing::Random for ProduceRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
