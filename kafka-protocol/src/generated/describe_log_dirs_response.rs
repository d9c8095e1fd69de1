//! `DescribeLogDirsResponse`, generated from Kafka's `DescribeLogDirsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeLogDirsResponse (valid versions 1-5, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeLogDirsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 3+.
    pub error_code: i16,
    /// The log directories.
    ///
    /// Versions: 0+.
    pub results: Vec<DescribeLogDirsResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeLogDirsResponse {
    fn default() -> Self {
        DescribeLogDirsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            results: Vec::<DescribeLogDirsResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeLogDirsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i32(self.throttle_time_ms);
        if version >= 3 {
            e.i16(self.error_code);
        }
        e.array(&self.results, flexible, |e, item| {
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        if version >= 3 {
            this.error_code = d.i16()?;
        }
        this.results = d.array(flexible, "Results", |d| {
            DescribeLogDirsResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeLogDirsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeLogDirsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        if version >= 3 {
            this.error_code = rng.i16();
        }
        this.results = (0..rng.len())
            .map(|_| DescribeLogDirsResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeLogDirsResult` of [`DescribeLogDirsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeLogDirsResult {
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The absolute log directory path.
    ///
    /// Versions: 0+.
    pub log_dir: String,
    /// The topics.
    ///
    /// Versions: 0+.
    pub topics: Vec<DescribeLogDirsTopic>,
    /// The total size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage.
    ///
    /// Versions: 4+.
    pub total_bytes: i64,
    /// The usable size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage.
    ///
    /// Versions: 4+.
    pub usable_bytes: i64,
    /// True if this log directory is cordoned.
    ///
    /// Versions: 5+.
    pub is_cordoned: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeLogDirsResult {
    fn default() -> Self {
        DescribeLogDirsResult {
            error_code: 0,
            log_dir: String::from(""),
            topics: Vec::<DescribeLogDirsTopic>::new(),
            total_bytes: -1,
            usable_bytes: -1,
            is_cordoned: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeLogDirsResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i16(self.error_code);
        e.string(&self.log_dir, flexible)?;
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 4 {
            e.i64(self.total_bytes);
        }
        if version >= 4 {
            e.i64(self.usable_bytes);
        }
        if version == 5 {
            e.bool(self.is_cordoned);
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.log_dir = d.string(flexible, "LogDir")?;
        this.topics = d.array(flexible, "Topics", |d| {
            DescribeLogDirsTopic::read(d, version)
        })?;
        if version >= 4 {
            this.total_bytes = d.i64()?;
        }
        if version >= 4 {
            this.usable_bytes = d.i64()?;
        }
        if version == 5 {
            this.is_cordoned = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeLogDirsResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeLogDirsResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.log_dir = rng.string();
        this.topics = (0..rng.len())
            .map(|_| DescribeLogDirsTopic::random_value(rng, version))
            .collect();
        if version >= 4 {
            this.total_bytes = rng.i64();
        }
        if version >= 4 {
            this.usable_bytes = rng.i64();
        }
        if version == 5 {
            this.is_cordoned = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeLogDirsTopic` of [`DescribeLogDirsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeLogDirsTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The partitions.
    ///
    /// Versions: 0+.
    pub partitions: Vec<DescribeLogDirsPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeLogDirsTopic {
    fn default() -> Self {
        DescribeLogDirsTopic {
            name: String::from(""),
            partitions: Vec::<DescribeLogDirsPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeLogDirsTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            DescribeLogDirsPartition::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeLogDirsTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeLogDirsTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| DescribeLogDirsPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeLogDirsPartition` of [`DescribeLogDirsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeLogDirsPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The size of the log segments in this partition in bytes.
    ///
    /// Versions: 0+.
    pub partition_size: i64,
    /// The lag of the log's LEO w.r.t. partition's HW (if it is the current log for the partition) or current replica's LEO (if it is the future log for the partition).
    ///
    /// Versions: 0+.
    pub offset_lag: i64,
    /// True if this log is created by AlterReplicaLogDirsRequest and will replace the current log of the replica in the future.
    ///
    /// Versions: 0+.
    pub is_future_key: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeLogDirsPartition {
    fn default() -> Self {
        DescribeLogDirsPartition {
            partition_index: 0,
            partition_size: 0,
            offset_lag: 0,
            is_future_key: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeLogDirsPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i32(self.partition_index);
        e.i64(self.partition_size);
        e.i64(self.offset_lag);
        e.bool(self.is_future_key);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.partition_size = d.i64()?;
        this.offset_lag = d.i64()?;
        this.is_future_key = d.bool()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeLogDirsPartition", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeLogDirsPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.partition_size = rng.i64();
        this.offset_lag = rng.i64();
        this.is_future_key = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeLogDirsResponse {
    const NAME: &'static str = "DescribeLogDirsResponse";
    const VALID_VERSIONS: (i16, i16) = (1, 5);
    const FLEXIBLE_MIN: Option<i16> = Some(2);
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
impl crate::testing::Random for DescribeLogDirsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
