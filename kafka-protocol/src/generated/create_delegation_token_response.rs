//! `CreateDelegationTokenResponse`, generated from Kafka's `CreateDelegationTokenResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// CreateDelegationTokenResponse (valid versions 1-3, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateDelegationTokenResponse {
    /// The top-level error, or zero if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The principal type of the token owner.
    ///
    /// Versions: 0+.
    pub principal_type: String,
    /// The name of the token owner.
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
    /// When this token was generated.
    ///
    /// Versions: 0+.
    pub issue_timestamp_ms: i64,
    /// When this token expires.
    ///
    /// Versions: 0+.
    pub expiry_timestamp_ms: i64,
    /// The maximum lifetime of this token.
    ///
    /// Versions: 0+.
    pub max_timestamp_ms: i64,
    /// The token UUID.
    ///
    /// Versions: 0+.
    pub token_id: String,
    /// HMAC of the delegation token.
    ///
    /// Versions: 0+.
    pub hmac: Bytes,
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CreateDelegationTokenResponse {
    fn default() -> Self {
        CreateDelegationTokenResponse {
            error_code: 0,
            principal_type: String::from(""),
            principal_name: String::from(""),
            token_requester_principal_type: String::from(""),
            token_requester_principal_name: String::from(""),
            issue_timestamp_ms: 0,
            expiry_timestamp_ms: 0,
            max_timestamp_ms: 0,
            token_id: String::from(""),
            hmac: Bytes::new(),
            throttle_time_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreateDelegationTokenResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 2;
        e.i16(self.error_code);
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
                    message: "CreateDelegationTokenResponse",
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
                    message: "CreateDelegationTokenResponse",
                    field: "TokenRequesterPrincipalName",
                    version,
                });
            }
        }
        e.i64(self.issue_timestamp_ms);
        e.i64(self.expiry_timestamp_ms);
        e.i64(self.max_timestamp_ms);
        e.string(&self.token_id, flexible)?;
        e.bytes(&self.hmac, flexible)?;
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
        this.issue_timestamp_ms = d.i64()?;
        this.expiry_timestamp_ms = d.i64()?;
        this.max_timestamp_ms = d.i64()?;
        this.token_id = d.string(flexible, "TokenId")?;
        this.hmac = d.bytes(flexible, "Hmac")?;
        this.throttle_time_ms = d.i32()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("CreateDelegationTokenResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CreateDelegationTokenResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 2;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.principal_type = rng.string();
        this.principal_name = rng.string();
        if version == 3 {
            this.token_requester_principal_type = rng.string();
        }
        if version == 3 {
            this.token_requester_principal_name = rng.string();
        }
        this.issue_timestamp_ms = rng.i64();
        this.expiry_timestamp_ms = rng.i64();
        this.max_timestamp_ms = rng.i64();
        this.token_id = rng.string();
        this.hmac = rng.bytes();
        this.throttle_time_ms = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for CreateDelegationTokenResponse {
    const NAME: &'static str = "CreateDelegationTokenResponse";
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
impl crate::testing::Random for CreateDelegationTokenResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
