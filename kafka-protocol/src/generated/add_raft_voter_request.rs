//! `AddRaftVoterRequest`, generated from Kafka's `AddRaftVoterRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AddRaftVoterRequest (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct AddRaftVoterRequest {
    /// The cluster id.
    ///
    /// Versions: 0+.
    pub cluster_id: Option<String>,
    /// The maximum time to wait for the request to complete before returning.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// The replica id of the voter getting added to the topic partition.
    ///
    /// Versions: 0+.
    pub voter_id: i32,
    /// The directory id of the voter getting added to the topic partition.
    ///
    /// Versions: 0+.
    pub voter_directory_id: Uuid,
    /// The endpoints that can be used to communicate with the voter.
    ///
    /// Versions: 0+.
    pub listeners: Vec<Listener>,
    /// When true, return a response after the new voter set is committed. Otherwise, return after the leader writes the changes locally.
    ///
    /// Versions: 1+.
    pub ack_when_committed: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AddRaftVoterRequest {
    fn default() -> Self {
        AddRaftVoterRequest {
            cluster_id: Some(String::from("")),
            timeout_ms: 0,
            voter_id: 0,
            voter_directory_id: Uuid::nil(),
            listeners: Vec::<Listener>::new(),
            ack_when_committed: true,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddRaftVoterRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.nullable_string(self.cluster_id.as_deref(), flexible)?;
        e.i32(self.timeout_ms);
        e.i32(self.voter_id);
        e.uuid(&self.voter_directory_id);
        e.array(&self.listeners, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version == 1 {
            e.bool(self.ack_when_committed);
        }
        if version == 0 {
            if self.ack_when_committed != true && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "AddRaftVoterRequest",
                    field: "AckWhenCommitted",
                    version,
                });
            }
        }
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
        this.timeout_ms = d.i32()?;
        this.voter_id = d.i32()?;
        this.voter_directory_id = d.uuid()?;
        this.listeners = d.array(flexible, "Listeners", |d| Listener::read(d, version))?;
        if version == 1 {
            this.ack_when_committed = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AddRaftVoterRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AddRaftVoterRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.cluster_id = if rng.null() { None } else { Some(rng.string()) };
        this.timeout_ms = rng.i32();
        this.voter_id = rng.i32();
        this.voter_directory_id = rng.uuid();
        this.listeners = (0..rng.len())
            .map(|_| Listener::random_value(rng, version))
            .collect();
        if version == 1 {
            this.ack_when_committed = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Listener` of [`AddRaftVoterRequest`].
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

impl crate::Message for AddRaftVoterRequest {
    const NAME: &'static str = "AddRaftVoterRequest";
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
impl crate::testing::Random for AddRaftVoterRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
