//! `DeleteGroupsResponse`, generated from Kafka's `DeleteGroupsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DeleteGroupsResponse (valid versions 0-2, flexible from 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteGroupsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The deletion results.
    ///
    /// Versions: 0+.
    pub results: Vec<DeletableGroupResult>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeleteGroupsResponse {
    fn default() -> Self {
        DeleteGroupsResponse {
            throttle_time_ms: 0,
            results: Vec::<DeletableGroupResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteGroupsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.i32(self.throttle_time_ms);
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
        let flexible = version == 2;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        this.results = d.array(flexible, "Results", |d| {
            DeletableGroupResult::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeleteGroupsResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeleteGroupsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.results = (0..rng.len())
            .map(|_| DeletableGroupResult::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DeletableGroupResult` of [`DeleteGroupsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeletableGroupResult {
    /// The group id.
    ///
    /// Versions: 0+.
    pub group_id: String,
    /// The deletion error, or 0 if the deletion succeeded.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DeletableGroupResult {
    fn default() -> Self {
        DeletableGroupResult {
            group_id: String::from(""),
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeletableGroupResult {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 2;
        e.string(&self.group_id, flexible)?;
        e.i16(self.error_code);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 2;
        let mut this = Self::default();
        this.group_id = d.string(flexible, "GroupId")?;
        this.error_code = d.i16()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DeletableGroupResult", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DeletableGroupResult {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 2;
        let mut this = Self::default();
        this.group_id = rng.string();
        this.error_code = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DeleteGroupsResponse {
    const NAME: &'static str = "DeleteGroupsResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
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
impl crate::testing::Random for DeleteGroupsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
