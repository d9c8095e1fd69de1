//! `CreatePartitionsRequest`, generated from Kafka's `CreatePartitionsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// CreatePartitionsRequest (valid versions 0-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct CreatePartitionsRequest {
    /// Each topic that we want to create new partitions inside.
    ///
    /// Versions: 0+.
    pub topics: Vec<CreatePartitionsTopic>,
    /// The time in ms to wait for the partitions to be created.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// If true, then validate the request, but don't actually increase the number of partitions.
    ///
    /// Versions: 0+.
    pub validate_only: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatePartitionsRequest {
    fn default() -> Self {
        CreatePartitionsRequest {
            topics: Vec::<CreatePartitionsTopic>::new(),
            timeout_ms: 0,
            validate_only: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatePartitionsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.topics = d.array(flexible, "Topics", |d| {
            CreatePartitionsTopic::read(d, version)
        })?;
        this.timeout_ms = d.i32()?;
        this.validate_only = d.bool()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreatePartitionsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatePartitionsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.topics = (0..rng.len())
            .map(|_| CreatePartitionsTopic::random_value(rng, version))
            .collect();
        this.timeout_ms = rng.i32();
        this.validate_only = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatePartitionsTopic` of [`CreatePartitionsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatePartitionsTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The new partition count.
    ///
    /// Versions: 0+.
    pub count: i32,
    /// The new partition assignments.
    ///
    /// Versions: 0+.
    pub assignments: Option<Vec<CreatePartitionsAssignment>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatePartitionsTopic {
    fn default() -> Self {
        CreatePartitionsTopic {
            name: String::from(""),
            count: 0,
            assignments: Some(Vec::<CreatePartitionsAssignment>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatePartitionsTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.string(&self.name, flexible)?;
        e.i32(self.count);
        e.nullable_array(self.assignments.as_deref(), flexible, |e, item| {
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
        this.count = d.i32()?;
        this.assignments =
            d.nullable_array(flexible, |d| CreatePartitionsAssignment::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreatePartitionsTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatePartitionsTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.name = rng.string();
        this.count = rng.i32();
        this.assignments = if rng.null() {
            None
        } else {
            Some(
                (0..rng.len())
                    .map(|_| CreatePartitionsAssignment::random_value(rng, version))
                    .collect(),
            )
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatePartitionsAssignment` of [`CreatePartitionsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatePartitionsAssignment {
    /// The assigned broker IDs.
    ///
    /// Versions: 0+.
    pub broker_ids: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatePartitionsAssignment {
    fn default() -> Self {
        CreatePartitionsAssignment {
            broker_ids: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatePartitionsAssignment {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.broker_ids = d.array(flexible, "BrokerIds", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreatePartitionsAssignment", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatePartitionsAssignment {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.broker_ids = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for CreatePartitionsRequest {
    const NAME: &'static str = "CreatePartitionsRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 3);
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
impl crate::testing::Random for CreatePartitionsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
