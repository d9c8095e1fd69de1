//! `DescribeClientQuotasResponse`, generated from Kafka's `DescribeClientQuotasResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// DescribeClientQuotasResponse (valid versions 0-1, flexible from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeClientQuotasResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The error code, or `0` if the quota description succeeded.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The error message, or `null` if the quota description succeeded.
    ///
    /// Versions: 0+.
    pub error_message: Option<String>,
    /// A result entry.
    ///
    /// Versions: 0+.
    pub entries: Option<Vec<EntryData>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for DescribeClientQuotasResponse {
    fn default() -> Self {
        DescribeClientQuotasResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: Some(String::from("")),
            entries: Some(Vec::<EntryData>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeClientQuotasResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.nullable_string(self.error_message.as_deref(), flexible)?;
        e.nullable_array(self.entries.as_deref(), flexible, |e, item| {
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
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        this.error_message = d.nullable_string(flexible)?;
        this.entries = d.nullable_array(flexible, |d| EntryData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("DescribeClientQuotasResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl DescribeClientQuotasResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.error_message = if rng.null() { None } else { Some(rng.string()) };
        this.entries = if rng.null() {
            None
        } else {
            Some(
                (0..rng.len())
                    .map(|_| EntryData::random_value(rng, version))
                    .collect(),
            )
        };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `EntryData` of [`DescribeClientQuotasResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct EntryData {
    /// The quota entity description.
    ///
    /// Versions: 0+.
    pub entity: Vec<EntityData>,
    /// The quota values for the entity.
    ///
    /// Versions: 0+.
    pub values: Vec<ValueData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for EntryData {
    fn default() -> Self {
        EntryData {
            entity: Vec::<EntityData>::new(),
            values: Vec::<ValueData>::new(),
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
        e.array(&self.values, flexible, |e, item| {
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
        this.values = d.array(flexible, "Values", |d| ValueData::read(d, version))?;
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
        this.values = (0..rng.len())
            .map(|_| ValueData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `EntityData` of [`DescribeClientQuotasResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct EntityData {
    /// The entity type.
    ///
    /// Versions: 0+.
    pub entity_type: String,
    /// The entity name, or null if the default.
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

/// A `ValueData` of [`DescribeClientQuotasResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ValueData {
    /// The quota configuration key.
    ///
    /// Versions: 0+.
    pub key: String,
    /// The quota configuration value.
    ///
    /// Versions: 0+.
    pub value: f64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ValueData {
    fn default() -> Self {
        ValueData {
            key: String::from(""),
            value: 0.0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ValueData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version == 1;
        e.string(&self.key, flexible)?;
        e.f64(self.value);
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
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ValueData", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ValueData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version == 1;
        let mut this = Self::default();
        this.key = rng.string();
        this.value = rng.f64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for DescribeClientQuotasResponse {
    const NAME: &'static str = "DescribeClientQuotasResponse";
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
impl crate::testing::Random for DescribeClientQuotasResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
