//! `UpdateRaftVoterRequest`, generated from Kafka's `UpdateRaftVoterRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// UpdateRaftVoterRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateRaftVoterRequest {
    /// The cluster id.
    ///
    /// Versions: 0+.
    pub cluster_id: Option<String>,
    /// The current leader epoch of the partition, -1 for unknown leader epoch.
    ///
    /// Versions: 0+.
    pub current_leader_epoch: i32,
    /// The replica id of the voter getting updated in the topic partition.
    ///
    /// Versions: 0+.
    pub voter_id: i32,
    /// The directory id of the voter getting updated in the topic partition.
    ///
    /// Versions: 0+.
    pub voter_directory_id: Uuid,
    /// The endpoint that can be used to communicate with the leader.
    ///
    /// Versions: 0+.
    pub listeners: Vec<Listener>,
    /// The range of versions of the protocol that the replica supports.
    ///
    /// Versions: 0+.
    pub k_raft_version_feature: KRaftVersionFeature,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for UpdateRaftVoterRequest {
    fn default() -> Self {
        UpdateRaftVoterRequest {
            cluster_id: Some(String::from("")),
            current_leader_epoch: 0,
            voter_id: 0,
            voter_directory_id: Uuid::nil(),
            listeners: Vec::<Listener>::new(),
            k_raft_version_feature: KRaftVersionFeature::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl UpdateRaftVoterRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.nullable_string(self.cluster_id.as_deref(), flexible)?;
        e.i32(self.current_leader_epoch);
        e.i32(self.voter_id);
        e.uuid(&self.voter_directory_id);
        e.array(&self.listeners, flexible, |e, item| {
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
        this.cluster_id = d.nullable_string(flexible)?;
        this.current_leader_epoch = d.i32()?;
        this.voter_id = d.i32()?;
        this.voter_directory_id = d.uuid()?;
        this.listeners = d.array(flexible, "Listeners", |d| Listener::read(d, version))?;
        this.k_raft_version_feature = KRaftVersionFeature::read(d, version)?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("UpdateRaftVoterRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl UpdateRaftVoterRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.cluster_id = if rng.null() { None } else { Some(rng.string()) };
        this.current_leader_epoch = rng.i32();
        this.voter_id = rng.i32();
        this.voter_directory_id = rng.uuid();
        this.listeners = (0..rng.len())
            .map(|_| Listener::random_value(rng, version))
            .collect();
        this.k_raft_version_feature = KRaftVersionFeature::random_value(rng, version);
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Listener` of [`UpdateRaftVoterRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct Listener {
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

impl Default for Listener {
    fn default() -> Self {
        Listener {
            name: String::from(""),
            host: String::from(""),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Listener {
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
            this.unknown_tagged_fields = d.tagged_fields("Listener", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl Listener {
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

/// A `KRaftVersionFeature` of [`UpdateRaftVoterRequest`].
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

impl crate::Message for UpdateRaftVoterRequest {
    const NAME: &'static str = "UpdateRaftVoterRequest";
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
impl crate::testing::Random for UpdateRaftVoterRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
