//! `CreateDelegationTokenRequest`, generated from Kafka's `CreateDelegationTokenRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// CreateDelegationTokenRequest (valid versions 1-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateDelegationTokenRequest {
    /// The principal type of the owner of the token. If it's null it defaults to the token request principal.
    ///
    /// Versions: 3+.
    pub owner_principal_type: Option<String>,
    /// The principal name of the owner of the token. If it's null it defaults to the token request principal.
    ///
    /// Versions: 3+.
    pub owner_principal_name: Option<String>,
    /// A list of those who are allowed to renew this token before it expires.
    ///
    /// Versions: 0+.
    pub renewers: Vec<CreatableRenewers>,
    /// The maximum lifetime of the token in milliseconds, or -1 to use the server side default.
    ///
    /// Versions: 0+.
    pub max_lifetime_ms: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreateDelegationTokenRequest {
    fn default() -> Self {
        CreateDelegationTokenRequest {
            owner_principal_type: Some(String::from("")),
            owner_principal_name: Some(String::from("")),
            renewers: Vec::<CreatableRenewers>::new(),
            max_lifetime_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreateDelegationTokenRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        if version == 3 {
            if self.owner_principal_type.is_none() && !(version == 3) {
                return Err(EncodeError::NullNotAllowed {
                    message: "CreateDelegationTokenRequest",
                    field: "OwnerPrincipalType",
                    version,
                });
            }
            e.nullable_string(self.owner_principal_type.as_deref(), flexible)?;
        }
        if version <= 2 {
            if self.owner_principal_type != Some(String::from("")) && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "CreateDelegationTokenRequest",
                    field: "OwnerPrincipalType",
                    version,
                });
            }
        }
        if version == 3 {
            if self.owner_principal_name.is_none() && !(version == 3) {
                return Err(EncodeError::NullNotAllowed {
                    message: "CreateDelegationTokenRequest",
                    field: "OwnerPrincipalName",
                    version,
                });
            }
            e.nullable_string(self.owner_principal_name.as_deref(), flexible)?;
        }
        if version <= 2 {
            if self.owner_principal_name != Some(String::from("")) && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "CreateDelegationTokenRequest",
                    field: "OwnerPrincipalName",
                    version,
                });
            }
        }
        e.array(&self.renewers, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i64(self.max_lifetime_ms);
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
        if version == 3 {
            this.owner_principal_type = if version == 3 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "OwnerPrincipalType")?)
            };
        }
        if version == 3 {
            this.owner_principal_name = if version == 3 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "OwnerPrincipalName")?)
            };
        }
        this.renewers = d.array(flexible, "Renewers", |d| {
            CreatableRenewers::read(d, version)
        })?;
        this.max_lifetime_ms = d.i64()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreateDelegationTokenRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreateDelegationTokenRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        if version == 3 {
            this.owner_principal_type = if version == 3 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version == 3 {
            this.owner_principal_name = if version == 3 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        this.renewers = (0..rng.len())
            .map(|_| CreatableRenewers::random_value(rng, version))
            .collect();
        this.max_lifetime_ms = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CreatableRenewers` of [`CreateDelegationTokenRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableRenewers {
    /// The type of the Kafka principal.
    ///
    /// Versions: 0+.
    pub principal_type: String,
    /// The name of the Kafka principal.
    ///
    /// Versions: 0+.
    pub principal_name: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreatableRenewers {
    fn default() -> Self {
        CreatableRenewers {
            principal_type: String::from(""),
            principal_name: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableRenewers {
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
            this.unknown_tagged_fields = d.tagged_fields("CreatableRenewers", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreatableRenewers {
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

impl crate::Message for CreateDelegationTokenRequest {
    const NAME: &'static str = "CreateDelegationTokenRequest";
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
impl crate::testing::Random for CreateDelegationTokenRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
