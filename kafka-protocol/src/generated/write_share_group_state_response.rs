//! `WriteShareGroupStateResponse`, generated from Kafka's `WriteShareGroupStateResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// WriteShareGroupStateResponse (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct WriteShareGroupStateResponse {
    /// The write results.
    ///
    /// Versions: 0+.
    pub results: Vec<WriteStateResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WriteShareGroupStateResponse {
    fn default() -> Self {
        WriteShareGroupStateResponse {
            results: Vec::<WriteStateResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WriteShareGroupStateResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
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
        let flexible = true;
        let mut this = Self::default();
        this.results = d.array(flexible, "Results", |d| WriteStateResult::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("WriteShareGroupStateResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WriteShareGroupStateResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.results = (0..rng.len())
            .map(|_| WriteStateResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `WriteStateResult` of [`WriteShareGroupStateResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct WriteStateResult {
    /// The topic identifier.
    ///
    /// Versions: 0+.
    pub topic_id: Uuid,
    /// The results for the partitions.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for WriteStateResult {
    fn default() -> Self {
        WriteStateResult {
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl WriteStateResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.uuid(&self.topic_id);
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
        this.topic_id = d.uuid()?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            PartitionResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("WriteStateResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl WriteStateResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.topic_id = rng.uuid();
        this.partitions = (0..rng.len())
            .map(|_| PartitionResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionResult` of [`WriteShareGroupStateResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionResult {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionResult {
    fn default() -> Self {
        PartitionResult {
            partition: 0,
            error_code: 0,
            error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition);
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
        this.partition = d.i32()?;
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
        let flexible = true;
        let mut this = Self::default();
        this.partition = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for WriteShareGroupStateResponse {
    const NAME: &'static str = "WriteShareGroupStateResponse";
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
impl crate::testing::Random for WriteShareGroupStateResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
