//! `ConsumerProtocolAssignment`, generated from Kafka's `ConsumerProtocolAssignment.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ConsumerProtocolAssignment (valid versions 0-3).
#[derive(Debug, Clone, PartialEq)]
pub struct ConsumerProtocolAssignment {
    /// The list of topics and partitions assigned to this consumer.
    ///
    /// Versions: 0+.
    pub assigned_partitions: Vec<TopicPartition>,
    /// User data.
    ///
    /// Versions: 0+.
    pub user_data: Option<Bytes>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ConsumerProtocolAssignment {
    fn default() -> Self {
        ConsumerProtocolAssignment {
            assigned_partitions: Vec::<TopicPartition>::new(),
            user_data: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ConsumerProtocolAssignment {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.array(&self.assigned_partitions, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.nullable_bytes(self.user_data.as_ref(), flexible)?;
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.assigned_partitions = d.array(flexible, "AssignedPartitions", |d| {
            TopicPartition::read(d, version)
        })?;
        this.user_data = d.nullable_bytes(flexible)?;
        Ok(this)
    }
}

#[cfg(test)]
impl ConsumerProtocolAssignment {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.assigned_partitions = (0..rng.len())
            .map(|_| TopicPartition::random_value(rng, version))
            .collect();
        this.user_data = if rng.null() { None } else { Some(rng.bytes()) };
        this
    }
}

/// A `TopicPartition` of [`ConsumerProtocolAssignment`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicPartition {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic: String,
    /// The list of partitions assigned to this consumer.
    ///
    /// Versions: 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicPartition {
    fn default() -> Self {
        TopicPartition {
            topic: String::from(""),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.string(&self.topic, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.topic = d.string(flexible, "Topic")?;
        this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        Ok(this)
    }
}

#[cfg(test)]
impl TopicPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.topic = rng.string();
        this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        this
    }
}

impl crate::Message for ConsumerProtocolAssignment {
    const NAME: &'static str = "ConsumerProtocolAssignment";
    const VALID_VERSIONS: (i16, i16) = (0, 3);
    const FLEXIBLE_MIN: Option<i16> = None;
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
impl crate::testing::Random for ConsumerProtocolAssignment {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
