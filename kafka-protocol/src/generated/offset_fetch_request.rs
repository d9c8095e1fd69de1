//! `OffsetFetchRequest`, generated from Kafka's `OffsetFetchRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// OffsetFetchRequest (valid versions 1-10, flexible from 6).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchRequest {
    /// The group to fetch offsets for.
    ///
    /// Versions: 0-7.
    pub group_id: String,
    /// Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
    ///
    /// Versions: 0-7.
    pub topics: Option<Vec<OffsetFetchRequestTopic>>,
    /// Each group we would like to fetch offsets for.
    ///
    /// Versions: 8+.
    pub groups: Vec<OffsetFetchRequestGroup>,
    /// Whether broker should hold on returning unstable offsets but set a retriable error code for the partitions.
    ///
    /// Versions: 7+.
    pub require_stable: bool,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchRequest {
    fn default() -> Self {
        OffsetFetchRequest {
            group_id: String::from(""),
            topics: Some(Vec::<OffsetFetchRequestTopic>::new()),
            groups: Vec::<OffsetFetchRequestGroup>::new(),
            require_stable: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version <= 7 {
            e.string(&self.group_id, flexible)?;
        }
        if version >= 8 {
            if self.group_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequest",
                    field: "GroupId",
                    version,
                });
            }
        }
        if version <= 7 {
            if self.topics.is_none() && !((2..=7).contains(&version)) {
                return Err(EncodeError::NullNotAllowed {
                    message: "OffsetFetchRequest",
                    field: "Topics",
                    version,
                });
            }
            e.nullable_array(self.topics.as_deref(), flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version >= 8 {
            if self.topics != Some(Vec::<OffsetFetchRequestTopic>::new())
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequest",
                    field: "Topics",
                    version,
                });
            }
        }
        if version >= 8 {
            e.array(&self.groups, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 7 {
            if self.groups != Vec::<OffsetFetchRequestGroup>::new() && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequest",
                    field: "Groups",
                    version,
                });
            }
        }
        if version >= 7 {
            e.bool(self.require_stable);
        }
        if version <= 6 {
            if self.require_stable != false && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequest",
                    field: "RequireStable",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version <= 7 {
            this.group_id = d.string(flexible, "GroupId")?;
        }
        if version <= 7 {
            this.topics = if (2..=7).contains(&version) {
                d.nullable_array(flexible, |d| OffsetFetchRequestTopic::read(d, version))?
            } else {
                Some(d.array(flexible, "Topics", |d| {
                    OffsetFetchRequestTopic::read(d, version)
                })?)
            };
        }
        if version >= 8 {
            this.groups = d.array(flexible, "Groups", |d| {
                OffsetFetchRequestGroup::read(d, version)
            })?;
        }
        if version >= 7 {
            this.require_stable = d.bool()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("OffsetFetchRequest", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version <= 7 {
            this.group_id = rng.string();
        }
        if version <= 7 {
            this.topics = if (2..=7).contains(&version) && rng.null() {
                None
            } else {
                Some(
                    (0..rng.len())
                        .map(|_| OffsetFetchRequestTopic::random_value(rng, version))
                        .collect(),
                )
            };
        }
        if version >= 8 {
            this.groups = (0..rng.len())
                .map(|_| OffsetFetchRequestGroup::random_value(rng, version))
                .collect();
        }
        if version >= 7 {
            this.require_stable = rng.bool();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetFetchRequestTopic` of [`OffsetFetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchRequestTopic {
    /// The topic name.
    ///
    /// Versions: 0-7.
    pub name: String,
    /// The partition indexes we would like to fetch offsets for.
    ///
    /// Versions: 0-7.
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchRequestTopic {
    fn default() -> Self {
        OffsetFetchRequestTopic {
            name: String::from(""),
            partition_indexes: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchRequestTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version <= 7 {
            e.string(&self.name, flexible)?;
        }
        if version >= 8 {
            if self.name != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequestTopic",
                    field: "Name",
                    version,
                });
            }
        }
        if version <= 7 {
            e.array(&self.partition_indexes, flexible, |e, item| {
                e.i32(*item);
                Ok(())
            })?;
        }
        if version >= 8 {
            if self.partition_indexes != Vec::<i32>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequestTopic",
                    field: "PartitionIndexes",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version <= 7 {
            this.name = d.string(flexible, "Name")?;
        }
        if version <= 7 {
            this.partition_indexes = d.array(flexible, "PartitionIndexes", |d| d.i32())?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchRequestTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchRequestTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version <= 7 {
            this.name = rng.string();
        }
        if version <= 7 {
            this.partition_indexes = (0..rng.len()).map(|_| rng.i32()).collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetFetchRequestGroup` of [`OffsetFetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchRequestGroup {
    /// The group ID.
    ///
    /// Versions: 8+.
    pub group_id: String,
    /// The member id.
    ///
    /// Versions: 9+.
    pub member_id: Option<String>,
    /// The member epoch if using the new consumer protocol (KIP-848).
    ///
    /// Versions: 9+.
    pub member_epoch: i32,
    /// Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
    ///
    /// Versions: 8+.
    pub topics: Option<Vec<OffsetFetchRequestTopics>>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchRequestGroup {
    fn default() -> Self {
        OffsetFetchRequestGroup {
            group_id: String::from(""),
            member_id: None,
            member_epoch: -1,
            topics: Some(Vec::<OffsetFetchRequestTopics>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchRequestGroup {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if version >= 8 {
            e.string(&self.group_id, flexible)?;
        }
        if version <= 7 {
            if self.group_id != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequestGroup",
                    field: "GroupId",
                    version,
                });
            }
        }
        if version >= 9 {
            if self.member_id.is_none() && !(version >= 9) {
                return Err(EncodeError::NullNotAllowed {
                    message: "OffsetFetchRequestGroup",
                    field: "MemberId",
                    version,
                });
            }
            e.nullable_string(self.member_id.as_deref(), flexible)?;
        }
        if version >= 9 {
            e.i32(self.member_epoch);
        }
        if version >= 8 {
            if self.topics.is_none() && !(version >= 8) {
                return Err(EncodeError::NullNotAllowed {
                    message: "OffsetFetchRequestGroup",
                    field: "Topics",
                    version,
                });
            }
            e.nullable_array(self.topics.as_deref(), flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 7 {
            if self.topics != Some(Vec::<OffsetFetchRequestTopics>::new())
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequestGroup",
                    field: "Topics",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 8 {
            this.group_id = d.string(flexible, "GroupId")?;
        }
        if version >= 9 {
            this.member_id = if version >= 9 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "MemberId")?)
            };
        }
        if version >= 9 {
            this.member_epoch = d.i32()?;
        }
        if version >= 8 {
            this.topics = if version >= 8 {
                d.nullable_array(flexible, |d| OffsetFetchRequestTopics::read(d, version))?
            } else {
                Some(d.array(flexible, "Topics", |d| {
                    OffsetFetchRequestTopics::read(d, version)
                })?)
            };
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchRequestGroup", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchRequestGroup {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if version >= 8 {
            this.group_id = rng.string();
        }
        if version >= 9 {
            this.member_id = if version >= 9 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version >= 9 {
            this.member_epoch = rng.i32();
        }
        if version >= 8 {
            this.topics = if version >= 8 && rng.null() {
                None
            } else {
                Some(
                    (0..rng.len())
                        .map(|_| OffsetFetchRequestTopics::random_value(rng, version))
                        .collect(),
                )
            };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `OffsetFetchRequestTopics` of [`OffsetFetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchRequestTopics {
    /// The topic name.
    ///
    /// Versions: 8-9.
    pub name: String,
    /// The topic ID.
    ///
    /// Versions: 10+.
    pub topic_id: Uuid,
    /// The partition indexes we would like to fetch offsets for.
    ///
    /// Versions: 8+.
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for OffsetFetchRequestTopics {
    fn default() -> Self {
        OffsetFetchRequestTopics {
            name: String::from(""),
            topic_id: Uuid::nil(),
            partition_indexes: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchRequestTopics {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 6;
        if (8..=9).contains(&version) {
            e.string(&self.name, flexible)?;
        }
        if version == 10 {
            e.uuid(&self.topic_id);
        }
        if version >= 8 {
            e.array(&self.partition_indexes, flexible, |e, item| {
                e.i32(*item);
                Ok(())
            })?;
        }
        if version <= 7 {
            if self.partition_indexes != Vec::<i32>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "OffsetFetchRequestTopics",
                    field: "PartitionIndexes",
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
        let flexible = version >= 6;
        let mut this = Self::default();
        if (8..=9).contains(&version) {
            this.name = d.string(flexible, "Name")?;
        }
        if version == 10 {
            this.topic_id = d.uuid()?;
        }
        if version >= 8 {
            this.partition_indexes = d.array(flexible, "PartitionIndexes", |d| d.i32())?;
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("OffsetFetchRequestTopics", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl OffsetFetchRequestTopics {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 6;
        let mut this = Self::default();
        if (8..=9).contains(&version) {
            this.name = rng.string();
        }
        if version == 10 {
            this.topic_id = rng.uuid();
        }
        if version >= 8 {
            this.partition_indexes = (0..rng.len()).map(|_| rng.i32()).collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for OffsetFetchRequest {
    const NAME: &'static str = "OffsetFetchRequest";
    const VALID_VERSIONS: (i16, i16) = (1, 10);
    const FLEXIBLE_MIN: Option<i16> = Some(6);
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
impl crate::testing::Random for OffsetFetchRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
