//! `UpdateRaftVoterResponse`, generated from Kafka's `UpdateRaftVoterResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// UpdateRaftVoterResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateRaftVoterResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Details of the current Raft cluster leader.
    ///
    /// Versions: 0+.
    pub current_leader: CurrentLeader,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for UpdateRaftVoterResponse {
    fn default() -> Self {
        UpdateRaftVoterResponse {
            throttle_time_ms: 0,
            error_code: 0,
            current_leader: CurrentLeader::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl UpdateRaftVoterResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if self.current_leader != CurrentLeader::default() {
                let mut t = e.child();
                {
                    let e = &mut t;
                    self.current_leader.write(e, version)?;
                }
                tagged.push((0, t));
            }
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("UpdateRaftVoterResponse", |tag, d| {
                match tag {
                    0 => {
                        this.current_leader = CurrentLeader::read(d, version)?;
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl UpdateRaftVoterResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.current_leader = CurrentLeader::random_value(rng, version);
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CurrentLeader` of [`UpdateRaftVoterResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct CurrentLeader {
    /// The replica id of the current leader or -1 if the leader is unknown.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// The node's hostname.
    ///
    /// Versions: 0+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions: 0+.
    pub port: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CurrentLeader {
    fn default() -> Self {
        CurrentLeader {
            leader_id: -1,
            leader_epoch: -1,
            host: String::from(""),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CurrentLeader {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.leader_id);
        e.i32(self.leader_epoch);
        e.string(&self.host, flexible)?;
        e.i32(self.port);
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
        this.leader_id = d.i32()?;
        this.leader_epoch = d.i32()?;
        this.host = d.string(flexible, "Host")?;
        this.port = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("CurrentLeader", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CurrentLeader {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        this.host = rng.string();
        this.port = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for UpdateRaftVoterResponse {
    const NAME: &'static str = "UpdateRaftVoterResponse";
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
impl crate::testing::Random for UpdateRaftVoterResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
