//! `ApiVersionsResponse`, generated from Kafka's `ApiVersionsResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ApiVersionsResponse (valid versions 0-4, flexible from 3).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiVersionsResponse {
    /// The top-level error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The APIs supported by the broker.
    ///
    /// Versions: 0+.
    pub api_keys: Vec<ApiVersion>,
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// Features supported by the broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted.
    ///
    /// Versions: 3+.
    pub supported_features: Vec<SupportedFeatureKey>,
    /// The monotonically increasing epoch for the finalized features information. Valid values are >= 0. A value of -1 is special and represents unknown epoch.
    ///
    /// Versions: 3+.
    pub finalized_features_epoch: i64,
    /// List of cluster-wide finalized features. The information is valid only if FinalizedFeaturesEpoch >= 0.
    ///
    /// Versions: 3+.
    pub finalized_features: Vec<FinalizedFeatureKey>,
    /// Set by a KRaft controller if the required configurations for ZK migration are present.
    ///
    /// Versions: 3+.
    pub zk_migration_ready: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ApiVersionsResponse {
    fn default() -> Self {
        ApiVersionsResponse {
            error_code: 0,
            api_keys: Vec::<ApiVersion>::new(),
            throttle_time_ms: 0,
            supported_features: Vec::<SupportedFeatureKey>::new(),
            finalized_features_epoch: -1,
            finalized_features: Vec::<FinalizedFeatureKey>::new(),
            zk_migration_ready: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ApiVersionsResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.i16(self.error_code);
        e.array(&self.api_keys, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 1 {
            e.i32(self.throttle_time_ms);
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 3 {
                if self.supported_features != Vec::<SupportedFeatureKey>::new() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.array(&self.supported_features, flexible, |e, item| {
                            item.write(e, version)?;
                            Ok(())
                        })?;
                    }
                    tagged.push((0, t));
                }
            }
            if version >= 3 {
                if self.finalized_features_epoch != -1 {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.i64(self.finalized_features_epoch);
                    }
                    tagged.push((1, t));
                }
            }
            if version >= 3 {
                if self.finalized_features != Vec::<FinalizedFeatureKey>::new() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.array(&self.finalized_features, flexible, |e, item| {
                            item.write(e, version)?;
                            Ok(())
                        })?;
                    }
                    tagged.push((2, t));
                }
            }
            if version >= 3 {
                if self.zk_migration_ready != false {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.bool(self.zk_migration_ready);
                    }
                    tagged.push((3, t));
                }
            }
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.error_code = d.i16()?;
        this.api_keys = d.array(flexible, "ApiKeys", |d| ApiVersion::read(d, version))?;
        if version >= 1 {
            this.throttle_time_ms = d.i32()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ApiVersionsResponse", |tag, d| {
                match tag {
                    0 if version >= 3 => {
                        this.supported_features = d.array(flexible, "SupportedFeatures", |d| {
                            SupportedFeatureKey::read(d, version)
                        })?;
                    }
                    1 if version >= 3 => {
                        this.finalized_features_epoch = d.i64()?;
                    }
                    2 if version >= 3 => {
                        this.finalized_features = d.array(flexible, "FinalizedFeatures", |d| {
                            FinalizedFeatureKey::read(d, version)
                        })?;
                    }
                    3 if version >= 3 => {
                        this.zk_migration_ready = d.bool()?;
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            })?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ApiVersionsResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.error_code = rng.i16();
        this.api_keys = (0..rng.len())
            .map(|_| ApiVersion::random_value(rng, version))
            .collect();
        if version >= 1 {
            this.throttle_time_ms = rng.i32();
        }
        if version >= 3 {
            this.supported_features = (0..rng.len())
                .map(|_| SupportedFeatureKey::random_value(rng, version))
                .collect();
        }
        if version >= 3 {
            this.finalized_features_epoch = rng.i64();
        }
        if version >= 3 {
            this.finalized_features = (0..rng.len())
                .map(|_| FinalizedFeatureKey::random_value(rng, version))
                .collect();
        }
        if version >= 3 {
            this.zk_migration_ready = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ApiVersion` of [`ApiVersionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ApiVersion {
    /// The API index.
    ///
    /// Versions: 0+.
    pub api_key: i16,
    /// The minimum supported version, inclusive.
    ///
    /// Versions: 0+.
    pub min_version: i16,
    /// The maximum supported version, inclusive.
    ///
    /// Versions: 0+.
    pub max_version: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ApiVersion {
    fn default() -> Self {
        ApiVersion {
            api_key: 0,
            min_version: 0,
            max_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ApiVersion {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        e.i16(self.api_key);
        e.i16(self.min_version);
        e.i16(self.max_version);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.api_key = d.i16()?;
        this.min_version = d.i16()?;
        this.max_version = d.i16()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ApiVersion", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ApiVersion {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        this.api_key = rng.i16();
        this.min_version = rng.i16();
        this.max_version = rng.i16();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `SupportedFeatureKey` of [`ApiVersionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct SupportedFeatureKey {
    /// The name of the feature.
    ///
    /// Versions: 3+.
    pub name: String,
    /// The minimum supported version for the feature.
    ///
    /// Versions: 3+.
    pub min_version: i16,
    /// The maximum supported version for the feature.
    ///
    /// Versions: 3+.
    pub max_version: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SupportedFeatureKey {
    fn default() -> Self {
        SupportedFeatureKey {
            name: String::from(""),
            min_version: 0,
            max_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SupportedFeatureKey {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 3 {
            e.string(&self.name, flexible)?;
        }
        if version <= 2 {
            if self.name != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "SupportedFeatureKey",
                    field: "Name",
                    version,
                });
            }
        }
        if version >= 3 {
            e.i16(self.min_version);
        }
        if version <= 2 {
            if self.min_version != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "SupportedFeatureKey",
                    field: "MinVersion",
                    version,
                });
            }
        }
        if version >= 3 {
            e.i16(self.max_version);
        }
        if version <= 2 {
            if self.max_version != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "SupportedFeatureKey",
                    field: "MaxVersion",
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
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 3 {
            this.name = d.string(flexible, "Name")?;
        }
        if version >= 3 {
            this.min_version = d.i16()?;
        }
        if version >= 3 {
            this.max_version = d.i16()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("SupportedFeatureKey", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl SupportedFeatureKey {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 3 {
            this.name = rng.string();
        }
        if version >= 3 {
            this.min_version = rng.i16();
        }
        if version >= 3 {
            this.max_version = rng.i16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `FinalizedFeatureKey` of [`ApiVersionsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct FinalizedFeatureKey {
    /// The name of the feature.
    ///
    /// Versions: 3+.
    pub name: String,
    /// The cluster-wide finalized max version level for the feature.
    ///
    /// Versions: 3+.
    pub max_version_level: i16,
    /// The cluster-wide finalized min version level for the feature.
    ///
    /// Versions: 3+.
    pub min_version_level: i16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FinalizedFeatureKey {
    fn default() -> Self {
        FinalizedFeatureKey {
            name: String::from(""),
            max_version_level: 0,
            min_version_level: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FinalizedFeatureKey {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 3;
        if version >= 3 {
            e.string(&self.name, flexible)?;
        }
        if version <= 2 {
            if self.name != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FinalizedFeatureKey",
                    field: "Name",
                    version,
                });
            }
        }
        if version >= 3 {
            e.i16(self.max_version_level);
        }
        if version <= 2 {
            if self.max_version_level != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FinalizedFeatureKey",
                    field: "MaxVersionLevel",
                    version,
                });
            }
        }
        if version >= 3 {
            e.i16(self.min_version_level);
        }
        if version <= 2 {
            if self.min_version_level != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FinalizedFeatureKey",
                    field: "MinVersionLevel",
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
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 3 {
            this.name = d.string(flexible, "Name")?;
        }
        if version >= 3 {
            this.max_version_level = d.i16()?;
        }
        if version >= 3 {
            this.min_version_level = d.i16()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("FinalizedFeatureKey", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl FinalizedFeatureKey {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 3;
        let mut this = Self::default();
        if version >= 3 {
            this.name = rng.string();
        }
        if version >= 3 {
            this.max_version_level = rng.i16();
        }
        if version >= 3 {
            this.min_version_level = rng.i16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for ApiVersionsResponse {
    const NAME: &'static str = "ApiVersionsResponse";
    const VALID_VERSIONS: (i16, i16) = (0, 4);
    const FLEXIBLE_MIN: Option<i16> = Some(3);
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
impl crate::testing::Random for ApiVersionsResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
