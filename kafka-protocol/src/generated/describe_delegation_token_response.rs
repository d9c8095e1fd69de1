//! `DescribeDelegationTokenResponse`, generated from Kafka's `DescribeDelegationTokenResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeDelegationTokenResponse (valid versions 1-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeDelegationTokenResponse {
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The tokens.
    ///
    /// Versions: 0+.
    pub tokens: Vec<DescribedDelegationToken>,
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeDelegationTokenResponse {
    fn default() -> Self {
        DescribeDelegationTokenResponse {
            error_code: 0,
            tokens: Vec::<DescribedDelegationToken>::new(),
            throttle_time_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeDelegationTokenResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i16(self.error_code);
        e.array(&self.tokens, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.throttle_time_ms);
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
        this.error_code = d.i16()?;
        this.tokens = d.array(flexible, "Tokens", |d| {
            DescribedDelegationToken::read(d, version)
        })?;
        this.throttle_time_ms = d.i32()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeDelegationTokenResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeDelegationTokenResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.tokens = (0..rng.len())
            .map(|_| DescribedDelegationToken::random_value(rng, version))
            .collect();
        this.throttle_time_ms = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribedDelegationToken` of [`DescribeDelegationTokenResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedDelegationToken {
    /// The token principal type.
    ///
    /// Versions: 0+.
    pub principal_type: String,
    /// The token principal name.
    ///
    /// Versions: 0+.
    pub principal_name: String,
    /// The principal type of the requester of the token.
    ///
    /// Versions: 3+.
    pub token_requester_principal_type: String,
    /// The principal type of the requester of the token.
    ///
    /// Versions: 3+.
    pub token_requester_principal_name: String,
    /// The token issue timestamp in milliseconds.
    ///
    /// Versions: 0+.
    pub issue_timestamp: i64,
    /// The token expiry timestamp in milliseconds.
    ///
    /// Versions: 0+.
    pub expiry_timestamp: i64,
    /// The token maximum timestamp length in milliseconds.
    ///
    /// Versions: 0+.
    pub max_timestamp: i64,
    /// The token ID.
    ///
    /// Versions: 0+.
    pub token_id: String,
    /// The token HMAC.
    ///
    /// Versions: 0+.
    pub hmac: Bytes,
    /// Those who are able to renew this token before it expires.
    ///
    /// Versions: 0+.
    pub renewers: Vec<DescribedDelegationTokenRenewer>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribedDelegationToken {
    fn default() -> Self {
        DescribedDelegationToken {
            principal_type: String::from(""),
            principal_name: String::from(""),
            token_requester_principal_type: String::from(""),
            token_requester_principal_name: String::from(""),
            issue_timestamp: 0,
            expiry_timestamp: 0,
            max_timestamp: 0,
            token_id: String::from(""),
            hmac: Bytes::new(),
            renewers: Vec::<DescribedDelegationTokenRenewer>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedDelegationToken {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.string(&self.principal_type, flexible)?;
        e.string(&self.principal_name, flexible)?;
        if version == 3 {
            e.string(&self.token_requester_principal_type, flexible)?;
        }
        if version <= 2 {
            if self.token_requester_principal_type != String::from("")
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribedDelegationToken",
                    field: "TokenRequesterPrincipalType",
                    version,
                });
            }
        }
        if version == 3 {
            e.string(&self.token_requester_principal_name, flexible)?;
        }
        if version <= 2 {
            if self.token_requester_principal_name != String::from("")
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribedDelegationToken",
                    field: "TokenRequesterPrincipalName",
                    version,
                });
            }
        }
        e.i64(self.issue_timestamp);
        e.i64(self.expiry_timestamp);
        e.i64(self.max_timestamp);
        e.string(&self.token_id, flexible)?;
        e.bytes(&self.hmac, flexible)?;
        e.array(&self.renewers, flexible, |e, item| {
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
        this.principal_type = d.string(flexible, "PrincipalType")?;
        this.principal_name = d.string(flexible, "PrincipalName")?;
        if version == 3 {
            this.token_requester_principal_type =
                d.string(flexible, "TokenRequesterPrincipalType")?;
        }
        if version == 3 {
            this.token_requester_principal_name =
                d.string(flexible, "TokenRequesterPrincipalName")?;
        }
        this.issue_timestamp = d.i64()?;
        this.expiry_timestamp = d.i64()?;
        this.max_timestamp = d.i64()?;
        this.token_id = d.string(flexible, "TokenId")?;
        this.hmac = d.bytes(flexible, "Hmac")?;
        this.renewers = d.array(flexible, "Renewers", |d| {
            DescribedDelegationTokenRenewer::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribedDelegationToken", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribedDelegationToken {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.principal_type = rng.string();
        this.principal_name = rng.string();
        if version == 3 {
            this.token_requester_principal_type = rng.string();
        }
        if version == 3 {
            this.token_requester_principal_name = rng.string();
        }
        this.issue_timestamp = rng.i64();
        this.expiry_timestamp = rng.i64();
        this.max_timestamp = rng.i64();
        this.token_id = rng.string();
        this.hmac = rng.bytes();
        this.renewers = (0..rng.len())
            .map(|_| DescribedDelegationTokenRenewer::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribedDelegationTokenRenewer` of [`DescribeDelegationTokenResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedDelegationTokenRenewer {
    /// The renewer principal type.
    ///
    /// Versions: 0+.
    pub principal_type: String,
    /// The renewer principal name.
    ///
    /// Versions: 0+.
    pub principal_name: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribedDelegationTokenRenewer {
    fn default() -> Self {
        DescribedDelegationTokenRenewer {
            principal_type: String::from(""),
            principal_name: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedDelegationTokenRenewer {
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
                d.tagged_fields("DescribedDelegationTokenRenewer", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribedDelegationTokenRenewer {
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

impl crate::Message for DescribeDelegationTokenResponse {
    const NAME: &'static str = "DescribeDelegationTokenResponse";
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
impl crate::testing::Random for DescribeDelegationTokenResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
