//! `RemoveRaftVoterRequest`, generated from Kafka's `RemoveRaftVoterRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// RemoveRaftVoterRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct RemoveRaftVoterRequest {
    /// The cluster id of the request.
    ///
    /// Versions: 0+.
    pub cluster_id: Option<String>,
    /// The replica id of the voter getting removed from the topic partition.
    ///
    /// Versions: 0+.
    pub voter_id: i32,
    /// The directory id of the voter getting removed from the topic partition.
    ///
    /// Versions: 0+.
    pub voter_directory_id: Uuid,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for RemoveRaftVoterRequest {
    fn default() -> Self {
        RemoveRaftVoterRequest {
            cluster_id: Some(String::from("")),
            voter_id: 0,
            voter_directory_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl RemoveRaftVoterRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.nullable_string(self.cluster_id.as_deref(), flexible)?;
        e.i32(self.voter_id);
        e.uuid(&self.voter_directory_id);
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
        this.voter_id = d.i32()?;
        this.voter_directory_id = d.uuid()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("RemoveRaftVoterRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl RemoveRaftVoterRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.cluster_id = if rng.null() { None } else { Some(rng.string()) };
        this.voter_id = rng.i32();
        this.voter_directory_id = rng.uuid();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for RemoveRaftVoterRequest {
    const NAME: &'static str = "RemoveRaftVoterRequest";
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
impl crate::testing::Random for RemoveRaftVoterRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
