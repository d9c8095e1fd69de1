//! `DescribeConfigsRequest`, generated from Kafka's `DescribeConfigsRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeConfigsRequest (valid versions 1-4, flexible from 4).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsRequest {
    /// The resources whose configurations we want to describe.
    ///
    /// Versions: 0+.
    pub resources: Vec<DescribeConfigsResource>,
    /// True if we should include all synonyms.
    ///
    /// Versions: 1+.
    pub include_synonyms: bool,
    /// True if we should include configuration documentation.
    ///
    /// Versions: 3+.
    pub include_documentation: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeConfigsRequest {
    fn default() -> Self {
        DescribeConfigsRequest {
            resources: Vec::<DescribeConfigsResource>::new(),
            include_synonyms: false,
            include_documentation: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.array(&self.resources, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.bool(self.include_synonyms);
        if version >= 3 {
            e.bool(self.include_documentation);
        }
        if version <= 2 {
            if self.include_documentation != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "DescribeConfigsRequest",
                    field: "IncludeDocumentation",
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
        let flexible = version == 4;
        let mut this = Self::default();
        this.resources = d.array(flexible, "Resources", |d| {
            DescribeConfigsResource::read(d, version)
        })?;
        this.include_synonyms = d.bool()?;
        if version >= 3 {
            this.include_documentation = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeConfigsRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeConfigsRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.resources = (0..rng.len())
            .map(|_| DescribeConfigsResource::random_value(rng, version))
            .collect();
        this.include_synonyms = rng.bool();
        if version >= 3 {
            this.include_documentation = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `DescribeConfigsResource` of [`DescribeConfigsRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsResource {
    /// The resource type.
    ///
    /// Versions: 0+.
    pub resource_type: i8,
    /// The resource name.
    ///
    /// Versions: 0+.
    pub resource_name: String,
    /// The configuration keys to list, or null to list all configuration keys.
    ///
    /// Versions: 0+.
    pub configuration_keys: Option<Vec<String>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeConfigsResource {
    fn default() -> Self {
        DescribeConfigsResource {
            resource_type: 0,
            resource_name: String::from(""),
            configuration_keys: Some(Vec::<String>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsResource {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 4;
        e.i8(self.resource_type);
        e.string(&self.resource_name, flexible)?;
        e.nullable_array(self.configuration_keys.as_deref(), flexible, |e, item| {
            e.string(item, flexible)?;
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
        let flexible = version == 4;
        let mut this = Self::default();
        this.resource_type = d.i8()?;
        this.resource_name = d.string(flexible, "ResourceName")?;
        this.configuration_keys =
            d.nullable_array(flexible, |d| d.string(flexible, "ConfigurationKeys"))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeConfigsResource", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeConfigsResource {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 4;
        let mut this = Self::default();
        this.resource_type = rng.i8();
        this.resource_name = rng.string();
        this.configuration_keys = if rng.null() {
            None
        } else {
            Some((0..rng.len()).map(|_| rng.string()).collect())
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeConfigsRequest {
    const NAME: &'static str = "DescribeConfigsRequest";
    const VALID_VERSIONS: (i16, i16) = (1, 4);
    const FLEXIBLE_MIN: Option<i16> = Some(4);
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
impl crate::testing::Random for DescribeConfigsRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
