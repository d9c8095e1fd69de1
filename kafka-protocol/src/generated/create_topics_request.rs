//! `CreateTopicsRequest`, generated from Kafka's `CreateTopicsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// CreateTopicsRequest (valid versions 2-7, flexible from 5).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTopicsRequest {
    /// The topics to create.
    ///
    /// Versions: 0+.
    pub topics: Vec<CreatableTopic>,
    /// How long to wait in milliseconds before timing out the request.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// If true, check that the topics can be created as specified, but don't create anything.
    ///
    /// Versions: 1+.
    pub validate_only: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreateTopicsRequest {
    fn default() -> Self {
        CreateTopicsRequest {
            topics: Vec::<CreatableTopic>::new(),
            timeout_ms: 60000,
            validate_only: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreateTopicsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.timeout_ms);
        e.bool(self.validate_only);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.topics = d.array(flexible, "Topics", |d| CreatableTopic::read(d, version))?;
        this.timeout_ms = d.i32()?;
        this.validate_only = d.bool()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreateTopicsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreateTopicsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.topics = (0..rng.len())
            .map(|_| CreatableTopic::random_value(rng, version))
            .collect();
        this.timeout_ms = rng.i32();
        this.validate_only = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatableTopic` of [`CreateTopicsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The number of partitions to create in the topic, or -1 if we are either specifying a manual partition assignment or using the default partitions.
    ///
    /// Versions: 0+.
    pub num_partitions: i32,
    /// The number of replicas to create for each partition in the topic, or -1 if we are either specifying a manual partition assignment or using the default replication factor.
    ///
    /// Versions: 0+.
    pub replication_factor: i16,
    /// The manual partition assignment, or the empty array if we are using automatic assignment.
    ///
    /// Versions: 0+.
    pub assignments: Vec<CreatableReplicaAssignment>,
    /// The custom topic configurations to set.
    ///
    /// Versions: 0+.
    pub configs: Vec<CreatableTopicConfig>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatableTopic {
    fn default() -> Self {
        CreatableTopic {
            name: String::from(""),
            num_partitions: 0,
            replication_factor: 0,
            assignments: Vec::<CreatableReplicaAssignment>::new(),
            configs: Vec::<CreatableTopicConfig>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.string(&self.name, flexible)?;
        e.i32(self.num_partitions);
        e.i16(self.replication_factor);
        e.array(&self.assignments, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.configs, flexible, |e, item| {
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
        let flexible = version >= 5;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.num_partitions = d.i32()?;
        this.replication_factor = d.i16()?;
        this.assignments = d.array(flexible, "Assignments", |d| {
            CreatableReplicaAssignment::read(d, version)
        })?;
        this.configs = d.array(flexible, "Configs", |d| {
            CreatableTopicConfig::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("CreatableTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatableTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.name = rng.string();
        this.num_partitions = rng.i32();
        this.replication_factor = rng.i16();
        this.assignments = (0..rng.len())
            .map(|_| CreatableReplicaAssignment::random_value(rng, version))
            .collect();
        this.configs = (0..rng.len())
            .map(|_| CreatableTopicConfig::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatableReplicaAssignment` of [`CreateTopicsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableReplicaAssignment {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The brokers to place the partition on.
    ///
    /// Versions: 0+.
    pub broker_ids: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatableReplicaAssignment {
    fn default() -> Self {
        CreatableReplicaAssignment {
            partition_index: 0,
            broker_ids: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableReplicaAssignment {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.i32(self.partition_index);
        e.array(&self.broker_ids, flexible, |e, item| {
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
        let flexible = version >= 5;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.broker_ids = d.array(flexible, "BrokerIds", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreatableReplicaAssignment", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatableReplicaAssignment {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.broker_ids = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatableTopicConfig` of [`CreateTopicsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableTopicConfig {
    /// The configuration name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The configuration value.
    ///
    /// Versions: 0+.
    pub value: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatableTopicConfig {
    fn default() -> Self {
        CreatableTopicConfig {
            name: String::from(""),
            value: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableTopicConfig {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 5;
        e.string(&self.name, flexible)?;
        e.nullable_string(self.value.as_deref(), flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.value = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreatableTopicConfig", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatableTopicConfig {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 5;
        let mut this = Self::default();
        this.name = rng.string();
        this.value = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for CreateTopicsRequest {
    const NAME: &'static str = "CreateTopicsRequest";
    const VALID_VERSIONS: (i16, i16) = (2, 7);
    const FLEXIBLE_MIN: Option<i16> = Some(5);
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
impl crate::testing::Random for CreateTopicsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
