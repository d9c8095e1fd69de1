//! `ElectLeadersResponse`, generated from Kafka's `ElectLeadersResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ElectLeadersResponse (valid versions 0-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct ElectLeadersResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The top level response error code.
    ///
    /// Versions: 1+.
    pub error_code: i16,
    /// The election results, or an empty array if the requester did not have permission and the request asks for all partitions.
    ///
    /// Versions: 0+.
    pub replica_election_results: Vec<ReplicaElectionResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ElectLeadersResponse {
    fn default() -> Self {
        ElectLeadersResponse {
            throttle_time_ms: 0,
            error_code: 0,
            replica_election_results: Vec::<ReplicaElectionResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ElectLeadersResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i32(self.throttle_time_ms);
        if version >= 1 {
            e.i16(self.error_code);
        }
        if version == 0 {
            if self.error_code != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ElectLeadersResponse",
                    field: "ErrorCode",
                    version,
                });
            }
        }
        e.array(&self.replica_election_results, flexible, |e, item| {
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        if version >= 1 {
            this.error_code = d.i16()?;
        }
        this.replica_election_results = d.array(flexible, "ReplicaElectionResults", |d| {
            ReplicaElectionResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ElectLeadersResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ElectLeadersResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        if version >= 1 {
            this.error_code = rng.i16();
        }
        this.replica_election_results = (0..rng.len())
            .map(|_| ReplicaElectionResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReplicaElectionResult` of [`ElectLeadersResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaElectionResult {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub topic: String,
    /// The results for each partition.
    ///
    /// Versions: 0+.
    pub partition_result: Vec<PartitionResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReplicaElectionResult {
    fn default() -> Self {
        ReplicaElectionResult {
            topic: String::from(""),
            partition_result: Vec::<PartitionResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReplicaElectionResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.string(&self.topic, flexible)?;
        e.array(&self.partition_result, flexible, |e, item| {
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.topic = d.string(flexible, "Topic")?;
        this.partition_result = d.array(flexible, "PartitionResult", |d| {
            PartitionResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ReplicaElectionResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReplicaElectionResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.topic = rng.string();
        this.partition_result = (0..rng.len())
            .map(|_| PartitionResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionResult` of [`ElectLeadersResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionResult {
    /// The partition id.
    ///
    /// Versions: 0+.
    pub partition_id: i32,
    /// The result error, or zero if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The result message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionResult {
    fn default() -> Self {
        PartitionResult {
            partition_id: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i32(self.partition_id);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 2;
        let mut this = Self::default();
        this.partition_id = d.i32()?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("PartitionResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl PartitionResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.partition_id = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ElectLeadersResponse {
    const NAME: &'static str = "ElectLeadersResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
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
impl crate::testing::Random for ElectLeadersResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
