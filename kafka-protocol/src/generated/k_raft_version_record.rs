//! `KRaftVersionRecord`, generated from Kafka's `KRaftVersionRecord.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// KRaftVersionRecord (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct KRaftVersionRecord {
    /// The version of the kraft version record.
    ///
    /// Versions: 0+.
    pub version: i16,
    /// The kraft protocol version.
    ///
    /// Versions: 0+.
    pub k_raft_version: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for KRaftVersionRecord {
    fn default() -> Self {
        KRaftVersionRecord {
            version: 0,
            k_raft_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl KRaftVersionRecord {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i16(self.version);
        e.i16(self.k_raft_version);
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
        this.k_raft_version = d.i16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("KRaftVersionRecord", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl KRaftVersionRecord {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.version = rng.i16();
        this.k_raft_version = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for KRaftVersionRecord {
    const NAME: &'static str = "KRaftVersionRecord";
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
impl crate::testing::Random for KRaftVersionRecord {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
