//! `AlterUserScramCredentialsRequest`, generated from Kafka's `AlterUserScramCredentialsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterUserScramCredentialsRequest (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterUserScramCredentialsRequest {
    /// The SCRAM credentials to remove.
    ///
    /// Versions: 0+.
    pub deletions: Vec<ScramCredentialDeletion>,
    /// The SCRAM credentials to update/insert.
    ///
    /// Versions: 0+.
    pub upsertions: Vec<ScramCredentialUpsertion>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterUserScramCredentialsRequest {
    fn default() -> Self {
        AlterUserScramCredentialsRequest {
            deletions: Vec::<ScramCredentialDeletion>::new(),
            upsertions: Vec::<ScramCredentialUpsertion>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterUserScramCredentialsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.array(&self.deletions, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.upsertions, flexible, |e, item| {
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
        this.deletions = d.array(flexible, "Deletions", |d| {
            ScramCredentialDeletion::read(d, version)
        })?;
        this.upsertions = d.array(flexible, "Upsertions", |d| {
            ScramCredentialUpsertion::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterUserScramCredentialsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterUserScramCredentialsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.deletions = (0..rng.len())
            .map(|_| ScramCredentialDeletion::random_value(rng, version))
            .collect();
        this.upsertions = (0..rng.len())
            .map(|_| ScramCredentialUpsertion::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ScramCredentialDeletion` of [`AlterUserScramCredentialsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ScramCredentialDeletion {
    /// The user name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The SCRAM mechanism.
    ///
    /// Versions: 0+.
    pub mechanism: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ScramCredentialDeletion {
    fn default() -> Self {
        ScramCredentialDeletion {
            name: String::from(""),
            mechanism: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ScramCredentialDeletion {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.i8(self.mechanism);
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
        this.mechanism = d.i8()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ScramCredentialDeletion", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ScramCredentialDeletion {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.mechanism = rng.i8();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ScramCredentialUpsertion` of [`AlterUserScramCredentialsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ScramCredentialUpsertion {
    /// The user name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The SCRAM mechanism.
    ///
    /// Versions: 0+.
    pub mechanism: i8,
    /// The number of iterations.
    ///
    /// Versions: 0+.
    pub iterations: i32,
    /// A random salt generated by the client.
    ///
    /// Versions: 0+.
    pub salt: Bytes,
    /// The salted password.
    ///
    /// Versions: 0+.
    pub salted_password: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ScramCredentialUpsertion {
    fn default() -> Self {
        ScramCredentialUpsertion {
            name: String::from(""),
            mechanism: 0,
            iterations: 0,
            salt: Bytes::new(),
            salted_password: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ScramCredentialUpsertion {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.i8(self.mechanism);
        e.i32(self.iterations);
        e.bytes(&self.salt, flexible)?;
        e.bytes(&self.salted_password, flexible)?;
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
        this.mechanism = d.i8()?;
        this.iterations = d.i32()?;
        this.salt = d.bytes(flexible, "Salt")?;
        this.salted_password = d.bytes(flexible, "SaltedPassword")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("ScramCredentialUpsertion", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ScramCredentialUpsertion {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.mechanism = rng.i8();
        this.iterations = rng.i32();
        this.salt = rng.bytes();
        this.salted_password = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterUserScramCredentialsRequest {
    const NAME: &'static str = "AlterUserScramCredentialsRequest";
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
impl crate::testing::Random for AlterUserScramCredentialsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
