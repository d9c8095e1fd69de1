//! `DefaultPrincipalData`, generated from Kafka's `DefaultPrincipalData.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DefaultPrincipalData (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultPrincipalData {
    /// The principal type.
    ///
    /// Versions: 0+.
    pub type_: String,
    /// The principal name.
    ///
    /// Versions: 0+.
    pub name: String,
    /// Whether the principal was authenticated by a delegation token on the forwarding broker.
    ///
    /// Versions: 0+.
    pub token_authenticated: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DefaultPrincipalData {
    fn default() -> Self {
        DefaultPrincipalData {
            type_: String::from(""),
            name: String::from(""),
            token_authenticated: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DefaultPrincipalData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.type_, flexible)?;
        e.string(&self.name, flexible)?;
        e.bool(self.token_authenticated);
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
        this.type_ = d.string(flexible, "Type")?;
        this.name = d.string(flexible, "Name")?;
        this.token_authenticated = d.bool()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DefaultPrincipalData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DefaultPrincipalData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.type_ = rng.string();
        this.name = rng.string();
        this.token_authenticated = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DefaultPrincipalData {
    const NAME: &'static str = "DefaultPrincipalData";
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
impl crate::testing::Random for DefaultPrincipalData {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
