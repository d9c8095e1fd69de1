//! `AlterReplicaLogDirsRequest`, generated from Kafka's `AlterReplicaLogDirsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterReplicaLogDirsRequest (valid versions 1-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterReplicaLogDirsRequest {
    /// The alterations to make for each directory.
    ///
    /// Versions: 0+.
    pub dirs: Vec<AlterReplicaLogDir>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterReplicaLogDirsRequest {
    fn default() -> Self {
        AlterReplicaLogDirsRequest {
            dirs: Vec::<AlterReplicaLogDir>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterReplicaLogDirsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.array(&self.dirs, flexible, |e, item| {
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
        this.dirs = d.array(flexible, "Dirs", |d| AlterReplicaLogDir::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterReplicaLogDirsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterReplicaLogDirsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.dirs = (0..rng.len())
            .map(|_| AlterReplicaLogDir::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AlterReplicaLogDir` of [`AlterReplicaLogDirsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AlterReplicaLogDir {
    /// The absolute directory path.
    ///
    /// Versions: 0+.
    pub path: String,
    /// The topics to add to the directory.
    ///
    /// Versions: 0+.
    pub topics: Vec<AlterReplicaLogDirTopic>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterReplicaLogDir {
    fn default() -> Self {
        AlterReplicaLogDir {
            path: String::from(""),
            topics: Vec::<AlterReplicaLogDirTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterReplicaLogDir {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.string(&self.path, flexible)?;
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.path = d.string(flexible, "Path")?;
        this.topics = d.array(flexible, "Topics", |d| {
            AlterReplicaLogDirTopic::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("AlterReplicaLogDir", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterReplicaLogDir {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.path = rng.string();
        this.topics = (0..rng.len())
            .map(|_| AlterReplicaLogDirTopic::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AlterReplicaLogDirTopic` of [`AlterReplicaLogDirsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct AlterReplicaLogDirTopic {
    /// The topic name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The partition indexes.
    ///
    /// Versions: 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterReplicaLogDirTopic {
    fn default() -> Self {
        AlterReplicaLogDirTopic {
            name: String::from(""),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterReplicaLogDirTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.string(&self.name, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterReplicaLogDirTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterReplicaLogDirTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterReplicaLogDirsRequest {
    const NAME: &'static str = "AlterReplicaLogDirsRequest";
    const VALID_VERSIONS: (i16, i16) = (1, 2);
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
impl crate::testing::Random for AlterReplicaLogDirsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
