//! `AlterPartitionReassignmentsResponse`, generated from Kafka's `AlterPartitionReassignmentsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterPartitionReassignmentsResponse (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterPartitionReassignmentsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The option indicating whether changing the replication factor of any given partition as part of the request was allowed.
    ///
    /// Versions: 1+.
    pub allow_replication_factor_change: bool,
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The responses to topics to reassign.
    ///
    /// Versions: 0+.
    pub responses: Vec<ReassignableTopicResponse>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterPartitionReassignmentsResponse {
    fn default() -> Self {
        AlterPartitionReassignmentsResponse {
            throttle_time_ms: 0,
            allow_replication_factor_change: true,
            error_code: 0,
            error_message: Some(String::from("")),
            responses: Vec::<ReassignableTopicResponse>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterPartitionReassignmentsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        if version == 1 {
            e.bool(self.allow_replication_factor_change);
        }
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.array(&self.responses, flexible, |e, item| {
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
        if version == 1 {
            this.allow_replication_factor_change = d.bool()?;
        }
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.responses = d.array(flexible, "Responses", |d| {
            ReassignableTopicResponse::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterPartitionReassignmentsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterPartitionReassignmentsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        if version == 1 {
            this.allow_replication_factor_change = rng.bool();
        }
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.responses = (0..rng.len())
            .map(|_| ReassignableTopicResponse::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReassignableTopicResponse` of [`AlterPartitionReassignmentsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReassignableTopicResponse {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The responses to partitions to reassign.
    ///
    /// Versions: 0+.
    pub partitions: Vec<ReassignablePartitionResponse>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReassignableTopicResponse {
    fn default() -> Self {
        ReassignableTopicResponse {
            name: String::from(""),
            partitions: Vec::<ReassignablePartitionResponse>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReassignableTopicResponse {
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
            ReassignablePartitionResponse::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ReassignableTopicResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReassignableTopicResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| ReassignablePartitionResponse::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReassignablePartitionResponse` of [`AlterPartitionReassignmentsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReassignablePartitionResponse {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The error code for this partition, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message for this partition, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReassignablePartitionResponse {
    fn default() -> Self {
        ReassignablePartitionResponse {
            partition_index: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReassignablePartitionResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition_index);
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
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ReassignablePartitionResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReassignablePartitionResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterPartitionReassignmentsResponse {
    const NAME: &'static str = "AlterPartitionReassignmentsResponse";
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
impl crate::testing::Random for AlterPartitionReassignmentsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
