//! `VotersRecord`, generated from Kafka's `VotersRecord.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// VotersRecord (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct VotersRecord {
    /// The version of the voters record.
    ///
    /// Versions: 0+.
    pub version: i16,
    /// The set of voters in the quorum for this epoch.
    ///
    /// Versions: 0+.
    pub voters: Vec<Voter>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for VotersRecord {
    fn default() -> Self {
        VotersRecord {
            version: 0,
            voters: Vec::<Voter>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl VotersRecord {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.version);
        e.array(&self.voters, flexible, |e, item| {
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
        this.version = d.i16()?;
        this.voters = d.array(flexible, "Voters", |d| Voter::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("VotersRecord", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl VotersRecord {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.version = rng.i16();
        this.voters = (0..rng.len())
            .map(|_| Voter::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Voter` of [`VotersRecord`].
#[derive(Debug, Clone, PartialEq)]
pub struct Voter {
    /// The replica id of the voter in the topic partition.
    ///
    /// Versions: 0+.
    pub voter_id: i32,
    /// The directory id of the voter in the topic partition.
    ///
    /// Versions: 0+.
    pub voter_directory_id: Uuid,
    /// The endpoint that can be used to communicate with the voter.
    ///
    /// Versions: 0+.
    pub endpoints: Vec<Endpoint>,
    /// The range of versions of the protocol that the replica supports.
    ///
    /// Versions: 0+.
    pub k_raft_version_feature: KRaftVersionFeature,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Voter {
    fn default() -> Self {
        Voter {
            voter_id: 0,
            voter_directory_id: Uuid::nil(),
            endpoints: Vec::<Endpoint>::new(),
            k_raft_version_feature: KRaftVersionFeature::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Voter {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.voter_id);
        e.uuid(&self.voter_directory_id);
        e.array(&self.endpoints, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        self.k_raft_version_feature.write(e, version)?;
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
        this.voter_id = d.i32()?;
        this.voter_directory_id = d.uuid()?;
        this.endpoints = d.array(flexible, "Endpoints", |d| Endpoint::read(d, version))?;
        this.k_raft_version_feature = KRaftVersionFeature::read(d, version)?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Voter", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Voter {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.voter_id = rng.i32();
        this.voter_directory_id = rng.uuid();
        this.endpoints = (0..rng.len())
            .map(|_| Endpoint::random_value(rng, version))
            .collect();
        this.k_raft_version_feature = KRaftVersionFeature::random_value(rng, version);
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Endpoint` of [`VotersRecord`].
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// The name of the endpoint.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The hostname.
    ///
    /// Versions: 0+.
    pub host: String,
    /// The port.
    ///
    /// Versions: 0+.
    pub port: u16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Endpoint {
    fn default() -> Self {
        Endpoint {
            name: String::from(""),
            host: String::from(""),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Endpoint {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.string(&self.host, flexible)?;
        e.u16(self.port);
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
        this.host = d.string(flexible, "Host")?;
        this.port = d.u16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("Endpoint", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Endpoint {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.host = rng.string();
        this.port = rng.u16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `KRaftVersionFeature` of [`VotersRecord`].
#[derive(Debug, Clone, PartialEq)]
pub struct KRaftVersionFeature {
    /// The minimum supported KRaft protocol version.
    ///
    /// Versions: 0+.
    pub min_supported_version: i16,
    /// The maximum supported KRaft protocol version.
    ///
    /// Versions: 0+.
    pub max_supported_version: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for KRaftVersionFeature {
    fn default() -> Self {
        KRaftVersionFeature {
            min_supported_version: 0,
            max_supported_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl KRaftVersionFeature {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.min_supported_version);
        e.i16(self.max_supported_version);
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
        this.min_supported_version = d.i16()?;
        this.max_supported_version = d.i16()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("KRaftVersionFeature", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl KRaftVersionFeature {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.min_supported_version = rng.i16();
        this.max_supported_version = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for VotersRecord {
    const NAME: &'static str = "VotersRecord";
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
impl crate::testing::Random for VotersRecord {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
