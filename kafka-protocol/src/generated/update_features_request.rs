//! `UpdateFeaturesRequest`, generated from Kafka's `UpdateFeaturesRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// UpdateFeaturesRequest (valid versions 0-2, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateFeaturesRequest {
    /// How long to wait in milliseconds before timing out the request.
    ///
    /// Versions: 0+.
    pub timeout_ms: i32,
    /// The list of updates to finalized features.
    ///
    /// Versions: 0+.
    pub feature_updates: Vec<FeatureUpdateKey>,
    /// True if we should validate the request, but not perform the upgrade or downgrade.
    ///
    /// Versions: 1+.
    pub validate_only: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for UpdateFeaturesRequest {
    fn default() -> Self {
        UpdateFeaturesRequest {
            timeout_ms: 60000,
            feature_updates: Vec::<FeatureUpdateKey>::new(),
            validate_only: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl UpdateFeaturesRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.timeout_ms);
        e.array(&self.feature_updates, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 1 {
            e.bool(self.validate_only);
        }
        if version == 0 {
            if self.validate_only != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "UpdateFeaturesRequest",
                    field: "ValidateOnly",
                    version,
                });
            }
        }
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
        this.timeout_ms = d.i32()?;
        this.feature_updates = d.array(flexible, "FeatureUpdates", |d| {
            FeatureUpdateKey::read(d, version)
        })?;
        if version >= 1 {
            this.validate_only = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("UpdateFeaturesRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl UpdateFeaturesRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.timeout_ms = rng.i32();
        this.feature_updates = (0..rng.len())
            .map(|_| FeatureUpdateKey::random_value(rng, version))
            .collect();
        if version >= 1 {
            this.validate_only = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `FeatureUpdateKey` of [`UpdateFeaturesRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureUpdateKey {
    /// The name of the finalized feature to be updated.
    ///
    /// Versions: 0+.
    pub feature: String,
    /// The new maximum version level for the finalized feature. A value >= 1 is valid. A value < 1, is special, and can be used to request the deletion of the finalized feature.
    ///
    /// Versions: 0+.
    pub max_version_level: i16,
    /// DEPRECATED in version 1 (see DowngradeType). When set to true, the finalized feature version level is allowed to be downgraded/deleted. The downgrade request will fail if the new maximum version level is a value that's not lower than the existing maximum finalized version level.
    ///
    /// Versions: 0-0.
    pub allow_downgrade: bool,
    /// Determine which type of upgrade will be performed: 1 will perform an upgrade only (default), 2 is safe downgrades only (lossless), 3 is unsafe downgrades (lossy).
    ///
    /// Versions: 1+.
    pub upgrade_type: i8,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FeatureUpdateKey {
    fn default() -> Self {
        FeatureUpdateKey {
            feature: String::from(""),
            max_version_level: 0,
            allow_downgrade: false,
            upgrade_type: 1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FeatureUpdateKey {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.feature, flexible)?;
        e.i16(self.max_version_level);
        if version == 0 {
            e.bool(self.allow_downgrade);
        }
        if version >= 1 {
            if self.allow_downgrade != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FeatureUpdateKey",
                    field: "AllowDowngrade",
                    version,
                });
            }
        }
        if version >= 1 {
            e.i8(self.upgrade_type);
        }
        if version == 0 {
            if self.upgrade_type != 1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FeatureUpdateKey",
                    field: "UpgradeType",
                    version,
                });
            }
        }
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
        this.feature = d.string(flexible, "Feature")?;
        this.max_version_level = d.i16()?;
        if version == 0 {
            this.allow_downgrade = d.bool()?;
        }
        if version >= 1 {
            this.upgrade_type = d.i8()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FeatureUpdateKey", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl FeatureUpdateKey {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.feature = rng.string();
        this.max_version_level = rng.i16();
        if version == 0 {
            this.allow_downgrade = rng.bool();
        }
        if version >= 1 {
            this.upgrade_type = rng.i8();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for UpdateFeaturesRequest {
    const NAME: &'static str = "UpdateFeaturesRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 2);
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
impl crate::testing::Random for UpdateFeaturesRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
