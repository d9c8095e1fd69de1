//! `AlterPartitionReassignmentsRequest`, generated from Kafka's `AlterPartitionReassignmentsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterPartitionReassignmentsRequest (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterPartitionReassignmentsRequest {
    /// The time in ms to wait for the request to complete.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// The option indicating whether changing the replication factor of any given partition as part of this request is a valid move.
    ///
    /// Versions: 1+.
    pub allow_replication_factor_change: bool,
    /// The topics to reassign.
    ///
    /// Versions: 0+.
    pub topics: Vec<ReassignableTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterPartitionReassignmentsRequest {
    fn default() -> Self {
        AlterPartitionReassignmentsRequest {
            timeout_ms: 60000,
            allow_replication_factor_change: true,
            topics: Vec::<ReassignableTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterPartitionReassignmentsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.timeout_ms);
        if version == 1 {
            e.bool(self.allow_replication_factor_change);
        }
        if version == 0 {
            if self.allow_replication_factor_change != true && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AlterPartitionReassignmentsRequest",
                    field: "AllowReplicationFactorChange",
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
        this.timeout_ms = d.i32()?;
        if version == 1 {
            this.allow_replication_factor_change = d.bool()?;
        }
        this.topics = d.array(flexible, "Topics", |d| ReassignableTopic::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterPartitionReassignmentsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterPartitionReassignmentsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.timeout_ms = rng.i32();
        if version == 1 {
            this.allow_replication_factor_change = rng.bool();
        }
        this.topics = (0..rng.len())
            .map(|_| ReassignableTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReassignableTopic` of [`AlterPartitionReassignmentsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReassignableTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The partitions to reassign.
    ///
    /// Versions: 0+.
    pub partitions: Vec<ReassignablePartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReassignableTopic {
    fn default() -> Self {
        ReassignableTopic {
            name: String::from(""),
            partitions: Vec::<ReassignablePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReassignableTopic {
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
            ReassignablePartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ReassignableTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReassignableTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| ReassignablePartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReassignablePartition` of [`AlterPartitionReassignmentsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReassignablePartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The replicas to place the partitions on, or null to cancel a pending reassignment for this partition.
    ///
    /// Versions: 0+.
    pub replicas: Option<Vec<i32>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReassignablePartition {
    fn default() -> Self {
        ReassignablePartition {
            partition_index: 0,
            replicas: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReassignablePartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
        e.nullable_array(self.replicas.as_deref(), flexible, |e, item| {
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
        this.replicas = d.nullable_array(flexible, |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ReassignablePartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReassignablePartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.replicas = if rng.null() {
            None
        } else {
            Some((0..rng.len()).map(|_| rng.i32()).collect())
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterPartitionReassignmentsRequest {
    const NAME: &'static str = "AlterPartitionReassignmentsRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 1);
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
impl crate::testing::Random for AlterPartitionReassignmentsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
