//! `AlterClientQuotasRequest`, generated from Kafka's `AlterClientQuotasRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// AlterClientQuotasRequest (valid versions 0-1, flexible from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct AlterClientQuotasRequest {
    /// The quota configuration entries to alter.
    ///
    /// Versions: 0+.
    pub entries: Vec<EntryData>,
    /// Whether the alteration should be validated, but not performed.
    ///
    /// Versions: 0+.
    pub validate_only: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AlterClientQuotasRequest {
    fn default() -> Self {
        AlterClientQuotasRequest {
            entries: Vec::<EntryData>::new(),
            validate_only: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterClientQuotasRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.array(&self.entries, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.bool(self.validate_only);
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
        this.entries = d.array(flexible, "Entries", |d| EntryData::read(d, version))?;
        this.validate_only = d.bool()?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("AlterClientQuotasRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AlterClientQuotasRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.entries = (0..rng.len())
            .map(|_| EntryData::random_value(rng, version))
            .collect();
        this.validate_only = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `EntryData` of [`AlterClientQuotasRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct EntryData {
    /// The quota entity to alter.
    ///
    /// Versions: 0+.
    pub entity: Vec<EntityData>,
    /// An individual quota configuration entry to alter.
    ///
    /// Versions: 0+.
    pub ops: Vec<OpData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for EntryData {
    fn default() -> Self {
        EntryData {
            entity: Vec::<EntityData>::new(),
            ops: Vec::<OpData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EntryData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.array(&self.entity, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.array(&self.ops, flexible, |e, item| {
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
        let flexible = version == 1;
        let mut this = Self::default();
        this.entity = d.array(flexible, "Entity", |d| EntityData::read(d, version))?;
        this.ops = d.array(flexible, "Ops", |d| OpData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("EntryData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl EntryData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.entity = (0..rng.len())
            .map(|_| EntityData::random_value(rng, version))
            .collect();
        this.ops = (0..rng.len())
            .map(|_| OpData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `EntityData` of [`AlterClientQuotasRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct EntityData {
    /// The entity type.
    ///
    /// Versions: 0+.
    pub entity_type: String,
    /// The name of the entity, or null if the default.
    ///
    /// Versions: 0+.
    pub entity_name: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for EntityData {
    fn default() -> Self {
        EntityData {
            entity_type: String::from(""),
            entity_name: Some(String::from("")),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EntityData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.string(&self.entity_type, flexible)?;
        e.nullable_string(self.entity_name.as_deref(), flexible)?;
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
        this.entity_name = d.nullable_string(flexible)?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("EntityData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl EntityData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.entity_type = rng.string();
        this.entity_name = if rng.null() { None } else { Some(rng.string()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OpData` of [`AlterClientQuotasRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OpData {
    /// The quota configuration key.
    ///
    /// Versions: 0+.
    pub key: String,
    /// The value to set, otherwise ignored if the value is to be removed.
    ///
    /// Versions: 0+.
    pub value: f64,
    /// Whether the quota configuration value should be removed, otherwise set.
    ///
    /// Versions: 0+.
    pub remove: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OpData {
    fn default() -> Self {
        OpData {
            key: String::from(""),
            value: 0.0,
            remove: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OpData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.string(&self.key, flexible)?;
        e.f64(self.value);
        e.bool(self.remove);
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
        this.key = d.string(flexible, "Key")?;
        this.value = d.f64()?;
        this.remove = d.bool()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("OpData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OpData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.key = rng.string();
        this.value = rng.f64();
        this.remove = rng.bool();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for AlterClientQuotasRequest {
    const NAME: &'static str = "AlterClientQuotasRequest";
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
impl crate::testing::Random for AlterClientQuotasRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
