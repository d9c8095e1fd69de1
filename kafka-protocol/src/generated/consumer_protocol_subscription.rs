//! `ConsumerProtocolSubscription`, generated from Kafka's `ConsumerProtocolSubscription.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ConsumerProtocolSubscription (valid versions 0-3).
#[derive(Debug, Clone, PartialEq)]
pub struct ConsumerProtocolSubscription {
    /// The topics that the member wants to consume.
    ///
    /// Versions: 0+.
    pub topics: Vec<String>,
    /// User data that will be passed back to the consumer.
    ///
    /// Versions: 0+.
    pub user_data: Option<Bytes>,
    /// The partitions that the member owns.
    ///
    /// Versions: 1+.
    pub owned_partitions: Vec<TopicPartition>,
    /// The generation id of the member.
    ///
    /// Versions: 2+.
    pub generation_id: i32,
    /// The rack id of the member.
    ///
    /// Versions: 3+.
    pub rack_id: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ConsumerProtocolSubscription {
    fn default() -> Self {
        ConsumerProtocolSubscription {
            topics: Vec::<String>::new(),
            user_data: None,
            owned_partitions: Vec::<TopicPartition>::new(),
            generation_id: -1,
            rack_id: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ConsumerProtocolSubscription {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = false;
        e.array(&self.topics, flexible, |e, item| {
            e.string(item, flexible)?;
            Ok(())
        })?;
        e.nullable_bytes(self.user_data.as_ref(), flexible)?;
        if version >= 1 {
            e.array(&self.owned_partitions, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version >= 2 {
            e.i32(self.generation_id);
        }
        if version == 3 {
            if self.rack_id.is_none() && !(version == 3) {
                return Err(EncodeError::NullNotAllowed {
                    message: "ConsumerProtocolSubscription",
                    field: "RackId",
                    version,
                });
            }
            e.nullable_string(self.rack_id.as_deref(), flexible)?;
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        this.topics = d.array(flexible, "Topics", |d| d.string(flexible, "Topics"))?;
        this.user_data = d.nullable_bytes(flexible)?;
        if version >= 1 {
            this.owned_partitions = d.array(flexible, "OwnedPartitions", |d| {
                TopicPartition::read(d, version)
            })?;
        }
        if version >= 2 {
            this.generation_id = d.i32()?;
        }
        if version == 3 {
            this.rack_id = if version == 3 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "RackId")?)
            };
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ConsumerProtocolSubscription {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        this.topics = (0..rng.len()).map(|_| rng.string()).collect();
        this.user_data = if rng.null() { None } else { Some(rng.bytes()) };
        if version >= 1 {
            this.owned_partitions = (0..rng.len())
                .map(|_| TopicPartition::random_value(rng, version))
                .collect();
        }
        if version >= 2 {
            this.generation_id = rng.i32();
        }
        if version == 3 {
            this.rack_id = if version == 3 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this
    }
}

/// A `TopicPartition` of [`ConsumerProtocolSubscription`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicPartition {
    /// The topic name.
    ///
    /// Versions: 1+.
    pub topic: String,
    /// The partition ids.
    ///
    /// Versions: 1+.
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
        if version >= 1 {
            e.string(&self.topic, flexible)?;
        }
        if version == 0 {
            if self.topic != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "TopicPartition",
                    field: "Topic",
                    version,
                });
            }
        }
        if version >= 1 {
            e.array(&self.partitions, flexible, |e, item| {
                e.i32(*item);
                Ok(())
            })?;
        }
        if version == 0 {
            if self.partitions != Vec::<i32>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "TopicPartition",
                    field: "Partitions",
                    version,
                });
            }
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = false;
        let mut this = Self::default();
        if version >= 1 {
            this.topic = d.string(flexible, "Topic")?;
        }
        if version >= 1 {
            this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = false;
        let mut this = Self::default();
        if version >= 1 {
            this.topic = rng.string();
        }
        if version >= 1 {
            this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        }
        this
    }
}

impl crate::Message for ConsumerProtocolSubscription {
    const NAME: &'static str = "ConsumerProtocolSubscription";
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
impl crate::testing::Random for ConsumerProtocolSubscription {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
