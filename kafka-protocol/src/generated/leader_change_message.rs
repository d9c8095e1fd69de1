//! `LeaderChangeMessage`, generated from Kafka's `LeaderChangeMessage.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// LeaderChangeMessage (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderChangeMessage {
    /// The version of the leader change message.
    ///
    /// Versions: 0+.
    pub version: i16,
    /// The ID of the newly elected leader.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The set of voters in the quorum for this epoch.
    ///
    /// Versions: 0+.
    pub voters: Vec<Voter>,
    /// The voters who voted for the leader at the time of election.
    ///
    /// Versions: 0+.
    pub granting_voters: Vec<Voter>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for LeaderChangeMessage {
    fn default() -> Self {
        LeaderChangeMessage {
            version: 0,
            leader_id: 0,
            voters: Vec::<Voter>::new(),
            granting_voters: Vec::<Voter>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderChangeMessage {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.version);
        e.i32(self.leader_id);
        e.array(&self.voters, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.granting_voters, flexible, |e, item| {
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
        this.leader_id = d.i32()?;
        this.voters = d.array(flexible, "Voters", |d| Voter::read(d, version))?;
        this.granting_voters = d.array(flexible, "GrantingVoters", |d| Voter::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("LeaderChangeMessage", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl LeaderChangeMessage {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.version = rng.i16();
        this.leader_id = rng.i32();
        this.voters = (0..rng.len())
            .map(|_| Voter::random_value(rng, version))
            .collect();
        this.granting_voters = (0..rng.len())
            .map(|_| Voter::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `Voter` of [`LeaderChangeMessage`].
#[derive(Debug, Clone, PartialEq)]
pub struct Voter {
    /// The ID of the voter.
    ///
    /// Versions: 0+.
    pub voter_id: i32,
    /// The directory id of the voter.
    ///
    /// Versions: 1+.
    pub voter_directory_id: Uuid,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for Voter {
    fn default() -> Self {
        Voter {
            voter_id: 0,
            voter_directory_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Voter {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.voter_id);
        if version == 1 {
            e.uuid(&self.voter_directory_id);
        }
        if version == 0 {
            if self.voter_directory_id != Uuid::nil() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "Voter",
                    field: "VoterDirectoryId",
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
        this.voter_id = d.i32()?;
        if version == 1 {
            this.voter_directory_id = d.uuid()?;
        }
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
        if version == 1 {
            this.voter_directory_id = rng.uuid();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for LeaderChangeMessage {
    const NAME: &'static str = "LeaderChangeMessage";
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
impl crate::testing::Random for LeaderChangeMessage {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
