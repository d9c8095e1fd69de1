//! `DescribeDelegationTokenRequest`, generated from Kafka's `DescribeDelegationTokenRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeDelegationTokenRequest (valid versions 1-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeDelegationTokenRequest {
    /// Each owner that we want to describe delegation tokens for, or null to describe all tokens.
    ///
    /// Versions: 0+.
    pub owners: Option<Vec<DescribeDelegationTokenOwner>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeDelegationTokenRequest {
    fn default() -> Self {
        DescribeDelegationTokenRequest {
            owners: Some(Vec::<DescribeDelegationTokenOwner>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeDelegationTokenRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.nullable_array(self.owners.as_deref(), flexible, |e, item| {
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
        let flexible = version >= 2;
        let mut this = Self::default();
        this.owners =
            d.nullable_array(flexible, |d| DescribeDelegationTokenOwner::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeDelegationTokenRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeDelegationTokenRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.owners = if rng.null() {
            None
        } else {
            Some(
                (0..rng.len())
                    .map(|_| DescribeDelegationTokenOwner::random_value(rng, version))
                    .collect(),
            )
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeDelegationTokenOwner` of [`DescribeDelegationTokenRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeDelegationTokenOwner {
    /// The owner principal type.
    ///
    /// Versions: 0+.
    pub principal_type: String,
    /// The owner principal name.
    ///
    /// Versions: 0+.
    pub principal_name: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeDelegationTokenOwner {
    fn default() -> Self {
        DescribeDelegationTokenOwner {
            principal_type: String::from(""),
            principal_name: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeDelegationTokenOwner {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.string(&self.principal_type, flexible)?;
        e.string(&self.principal_name, flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.principal_type = d.string(flexible, "PrincipalType")?;
        this.principal_name = d.string(flexible, "PrincipalName")?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeDelegationTokenOwner", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeDelegationTokenOwner {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.principal_type = rng.string();
        this.principal_name = rng.string();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeDelegationTokenRequest {
    const NAME: &'static str = "DescribeDelegationTokenRequest";
    const VALID_VERSIONS: (i16, i16) = (1, 3);
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
impl crate::testing::Random for DescribeDelegationTokenRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
