//! `ListOffsetsRequest`, generated from Kafka's `ListOffsetsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ListOffsetsRequest (valid versions 1-11, flexible from 6).
#[derive(Debug, Clone, PartialEq)]
pub struct ListOffsetsRequest {
    /// The broker ID of the requester, or -1 if this request is being made by a normal consumer.
    ///
    /// Versions: 0+.
    pub replica_id: i32,
    /// This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted transactions in the result, which allows consumers to discard ABORTED transactional records.
    ///
    /// Versions: 2+.
    pub isolation_level: i8,
    /// Each topic in the request.
    ///
    /// Versions: 0+.
    pub topics: Vec<ListOffsetsTopic>,
    /// The timeout to await a response in milliseconds for requests that require reading from remote storage for topics enabled with tiered storage.
    ///
    /// Versions: 10+.
    pub timeout_ms: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListOffsetsRequest {
    fn default() -> Self {
        ListOffsetsRequest {
            replica_id: 0,
            isolation_level: 0,
            topics: Vec::<ListOffsetsTopic>::new(),
            timeout_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListOffsetsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        e.i32(self.replica_id);
        if version >= 2 {
            e.i8(self.isolation_level);
        }
        if version == 1 {
            if self.isolation_level != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ListOffsetsRequest",
                    field: "IsolationLevel",
                    version,
                });
            }
        }
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 10 {
            e.i32(self.timeout_ms);
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.replica_id = d.i32()?;
        if version >= 2 {
            this.isolation_level = d.i8()?;
        }
        this.topics = d.array(flexible, "Topics", |d| ListOffsetsTopic::read(d, version))?;
        if version >= 10 {
            this.timeout_ms = d.i32()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ListOffsetsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListOffsetsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.replica_id = rng.i32();
        if version >= 2 {
            this.isolation_level = rng.i8();
        }
        this.topics = (0..rng.len())
            .map(|_| ListOffsetsTopic::random_value(rng, version))
            .collect();
        if version >= 10 {
            this.timeout_ms = rng.i32();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ListOffsetsTopic` of [`ListOffsetsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ListOffsetsTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// Each partition in the request.
    ///
    /// Versions: 0+.
    pub partitions: Vec<ListOffsetsPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListOffsetsTopic {
    fn default() -> Self {
        ListOffsetsTopic {
            name: String::from(""),
            partitions: Vec::<ListOffsetsPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListOffsetsTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
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
        let flexible = version >= 6;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            ListOffsetsPartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ListOffsetsTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListOffsetsTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| ListOffsetsPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ListOffsetsPartition` of [`ListOffsetsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ListOffsetsPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The current leader epoch.
    ///
    /// Versions: 4+.
    pub current_leader_epoch: i32,
    /// The current timestamp.
    ///
    /// Versions: 0+.
    pub timestamp: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ListOffsetsPartition {
    fn default() -> Self {
        ListOffsetsPartition {
            partition_index: 0,
            current_leader_epoch: -1,
            timestamp: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListOffsetsPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        e.i32(self.partition_index);
        if version >= 4 {
            e.i32(self.current_leader_epoch);
        }
        e.i64(self.timestamp);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        if version >= 4 {
            this.current_leader_epoch = d.i32()?;
        }
        this.timestamp = d.i64()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ListOffsetsPartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ListOffsetsPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        if version >= 4 {
            this.current_leader_epoch = rng.i32();
        }
        this.timestamp = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ListOffsetsRequest {
    const NAME: &'static str = "ListOffsetsRequest";
    const VALID_VERSIONS: (i16, i16) = (1, 11);
    const FLEXIBLE_MIN: Option<i16> = Some(6);
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
impl crate::testing::Random for ListOffsetsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
