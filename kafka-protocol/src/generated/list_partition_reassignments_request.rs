//! `ListPartitionReassignmentsRequest`, generated from Kafka's `ListPartitionReassignmentsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListPartitionReassignmentsRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ListPartitionReassignmentsRequest {
    /// The time in ms to wait for the request to complete.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// The topics to list partition reassignments for, or null to list everything.
    ///
    /// Versions: 0+.
    pub topics: Option<Vec<ListPartitionReassignmentsTopics>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListPartitionReassignmentsRequest {
    fn default() -> Self {
        ListPartitionReassignmentsRequest {
            timeout_ms: 60000,
            topics: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListPartitionReassignmentsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.timeout_ms);
        e.nullable_array(self.topics.as_deref(), flexible, |e, item| {
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
        this.topics = d.nullable_array(flexible, |d| {
            ListPartitionReassignmentsTopics::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ListPartitionReassignmentsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListPartitionReassignmentsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.timeout_ms = rng.i32();
        this.topics = if rng.null() {
            None
        } else {
            Some(
                (0..rng.len())
                    .map(|_| ListPartitionReassignmentsTopics::random_value(rng, version))
                    .collect(),
            )
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ListPartitionReassignmentsTopics` of [`ListPartitionReassignmentsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ListPartitionReassignmentsTopics {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The partitions to list partition reassignments for.
    ///
    /// Versions: 0+.
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListPartitionReassignmentsTopics {
    fn default() -> Self {
        ListPartitionReassignmentsTopics {
            name: String::from(""),
            partition_indexes: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListPartitionReassignmentsTopics {
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
                d.tagged_fields("ListPartitionReassignmentsTopics", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListPartitionReassignmentsTopics {
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

impl crate::Message for ListPartitionReassignmentsRequest {
    const NAME: &'static str = "ListPartitionReassignmentsRequest";
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
impl crate::testing::Random for ListPartitionReassignmentsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
