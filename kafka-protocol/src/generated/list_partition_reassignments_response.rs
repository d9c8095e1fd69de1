//! `ListPartitionReassignmentsResponse`, generated from Kafka's `ListPartitionReassignmentsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListPartitionReassignmentsResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ListPartitionReassignmentsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The ongoing reassignments for each topic.
    ///
    /// Versions: 0+.
    pub topics: Vec<OngoingTopicReassignment>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListPartitionReassignmentsResponse {
    fn default() -> Self {
        ListPartitionReassignmentsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            topics: Vec::<OngoingTopicReassignment>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListPartitionReassignmentsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
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
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.topics = d.array(flexible, "Topics", |d| {
            OngoingTopicReassignment::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ListPartitionReassignmentsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListPartitionReassignmentsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.topics = (0..rng.len())
            .map(|_| OngoingTopicReassignment::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OngoingTopicReassignment` of [`ListPartitionReassignmentsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OngoingTopicReassignment {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The ongoing reassignments for each partition.
    ///
    /// Versions: 0+.
    pub partitions: Vec<OngoingPartitionReassignment>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OngoingTopicReassignment {
    fn default() -> Self {
        OngoingTopicReassignment {
            name: String::from(""),
            partitions: Vec::<OngoingPartitionReassignment>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OngoingTopicReassignment {
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
            OngoingPartitionReassignment::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OngoingTopicReassignment", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OngoingTopicReassignment {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| OngoingPartitionReassignment::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OngoingPartitionReassignment` of [`ListPartitionReassignmentsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct OngoingPartitionReassignment {
    /// The index of the partition.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The current replica set.
    ///
    /// Versions: 0+.
    pub replicas: Vec<i32>,
    /// The set of replicas we are currently adding.
    ///
    /// Versions: 0+.
    pub adding_replicas: Vec<i32>,
    /// The set of replicas we are currently removing.
    ///
    /// Versions: 0+.
    pub removing_replicas: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OngoingPartitionReassignment {
    fn default() -> Self {
        OngoingPartitionReassignment {
            partition_index: 0,
            replicas: Vec::<i32>::new(),
            adding_replicas: Vec::<i32>::new(),
            removing_replicas: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OngoingPartitionReassignment {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.array(&self.replicas, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        e.array(&self.adding_replicas, flexible, |e, item| {
            e.i32(*item);
            Ok(())
        })?;
        e.array(&self.removing_replicas, flexible, |e, item| {
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
        this.partition_index = d.i32()?;
        this.replicas = d.array(flexible, "Replicas", |d| d.i32())?;
        this.adding_replicas = d.array(flexible, "AddingReplicas", |d| d.i32())?;
        this.removing_replicas = d.array(flexible, "RemovingReplicas", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OngoingPartitionReassignment", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OngoingPartitionReassignment {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.replicas = (0..rng.len()).map(|_| rng.i32()).collect();
        this.adding_replicas = (0..rng.len()).map(|_| rng.i32()).collect();
        this.removing_replicas = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ListPartitionReassignmentsResponse {
    const NAME: &'static str = "ListPartitionReassignmentsResponse";
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
impl crate::testing::Random for ListPartitionReassignmentsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
