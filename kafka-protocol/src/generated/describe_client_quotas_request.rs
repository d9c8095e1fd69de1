//! `DescribeClientQuotasRequest`, generated from Kafka's `DescribeClientQuotasRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeClientQuotasRequest (valid versions 0-1, flexible from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeClientQuotasRequest {
    /// Filter components to apply to quota entities.
    ///
    /// Versions: 0+.
    pub components: Vec<ComponentData>,
    /// Whether the match is strict, i.e. should exclude entities with unspecified entity types.
    ///
    /// Versions: 0+.
    pub strict: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeClientQuotasRequest {
    fn default() -> Self {
        DescribeClientQuotasRequest {
            components: Vec::<ComponentData>::new(),
            strict: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeClientQuotasRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.array(&self.components, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.bool(self.strict);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 1;
        let mut this = Self::default();
        this.components = d.array(flexible, "Components", |d| ComponentData::read(d, version))?;
        this.strict = d.bool()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeClientQuotasRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeClientQuotasRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.components = (0..rng.len())
            .map(|_| ComponentData::random_value(rng, version))
            .collect();
        this.strict = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ComponentData` of [`DescribeClientQuotasRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentData {
    /// The entity type that the filter component applies to.
    ///
    /// Versions: 0+.
    pub entity_type: String,
    /// How to match the entity {0 = exact name, 1 = default name, 2 = any specified name}.
    ///
    /// Versions: 0+.
    pub match_type: i8,
    /// The string to match against, or null if unused for the match type.
    ///
    /// Versions: 0+.
    pub match_: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ComponentData {
    fn default() -> Self {
        ComponentData {
            entity_type: String::from(""),
            match_type: 0,
            match_: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ComponentData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.string(&self.entity_type, flexible)?;
        e.i8(self.match_type);
        e.nullable_string(self.match_.as_deref(), flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version == 1;
        let mut this = Self::default();
        this.entity_type = d.string(flexible, "EntityType")?;
        this.match_type = d.i8()?;
        this.match_ = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ComponentData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ComponentData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.entity_type = rng.string();
        this.match_type = rng.i8();
        this.match_ = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeClientQuotasRequest {
    const NAME: &'static str = "DescribeClientQuotasRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 1);
    const FLEXIBLE_MIN: Option<i16> = Some(1);
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
impl crate::testing::Random for DescribeClientQuotasRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
