//! `DescribeUserScramCredentialsResponse`, generated from Kafka's `DescribeUserScramCredentialsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeUserScramCredentialsResponse (valid versions 0-0, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeUserScramCredentialsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The message-level error code, 0 except for user authorization or infrastructure issues.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The message-level error message, if any.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The results for descriptions, one per user.
    ///
    /// Versions: 0+.
    pub results: Vec<DescribeUserScramCredentialsResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeUserScramCredentialsResponse {
    fn default() -> Self {
        DescribeUserScramCredentialsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            results: Vec::<DescribeUserScramCredentialsResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeUserScramCredentialsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.array(&self.results, flexible, |e, item| {
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
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.results = d.array(flexible, "Results", |d| {
            DescribeUserScramCredentialsResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeUserScramCredentialsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeUserScramCredentialsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.results = (0..rng.len())
            .map(|_| DescribeUserScramCredentialsResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeUserScramCredentialsResult` of [`DescribeUserScramCredentialsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeUserScramCredentialsResult {
    /// The user name.
    ///
    /// Versions: 0+.
    pub user: String,
    /// The user-level error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The user-level error message, if any.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// The mechanism and related information associated with the user's SCRAM credentials.
    ///
    /// Versions: 0+.
    pub credential_infos: Vec<CredentialInfo>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeUserScramCredentialsResult {
    fn default() -> Self {
        DescribeUserScramCredentialsResult {
            user: String::from(""),
            error_code: 0,
            error_message: Some(String::from("")),
            credential_infos: Vec::<CredentialInfo>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeUserScramCredentialsResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.user, flexible)?;
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.array(&self.credential_infos, flexible, |e, item| {
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
        this.user = d.string(flexible, "User")?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.credential_infos = d.array(flexible, "CredentialInfos", |d| {
            CredentialInfo::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeUserScramCredentialsResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeUserScramCredentialsResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.user = rng.string();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.credential_infos = (0..rng.len())
            .map(|_| CredentialInfo::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `CredentialInfo` of [`DescribeUserScramCredentialsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct CredentialInfo {
    /// The SCRAM mechanism.
    ///
    /// Versions: 0+.
    pub mechanism: i8,
    /// The number of iterations used in the SCRAM credential.
    ///
    /// Versions: 0+.
    pub iterations: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for CredentialInfo {
    fn default() -> Self {
        CredentialInfo {
            mechanism: 0,
            iterations: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CredentialInfo {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i8(self.mechanism);
        e.i32(self.iterations);
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
        this.mechanism = d.i8()?;
        this.iterations = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("CredentialInfo", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl CredentialInfo {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.mechanism = rng.i8();
        this.iterations = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeUserScramCredentialsResponse {
    const NAME: &'static str = "DescribeUserScramCredentialsResponse";
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
impl crate::testing::Random for DescribeUserScramCredentialsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
