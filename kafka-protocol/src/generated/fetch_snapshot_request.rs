//! `FetchSnapshotRequest`, generated from Kafka's `FetchSnapshotRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// FetchSnapshotRequest (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct FetchSnapshotRequest {
    /// The clusterId if known, this is used to validate metadata fetches prior to broker registration.
    ///
    /// Versions: 0+.
    pub cluster_id: Option<String>,
    /// The broker ID of the follower.
    ///
    /// Versions: 0+.
    pub replica_id: i32,
    /// The maximum bytes to fetch from all of the snapshots.
    ///
    /// Versions: 0+.
    pub max_bytes: i32,
    /// The topics to fetch.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicSnapshot>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchSnapshotRequest {
    fn default() -> Self {
        FetchSnapshotRequest {
            cluster_id: None,
            replica_id: -1,
            max_bytes: 2147483647,
            topics: Vec::<TopicSnapshot>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchSnapshotRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.replica_id);
        e.i32(self.max_bytes);
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if self.cluster_id != None {
                let mut t = e.child();
                {
                    let e = &mut t;
                    e.nullable_string(self.cluster_id.as_deref(), flexible)?;
                }
                tagged.push((0, t));
            }
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.replica_id = d.i32()?;
        this.max_bytes = d.i32()?;
        this.topics = d.array(flexible, "Topics", |d| TopicSnapshot::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FetchSnapshotRequest", |tag, d| {
                match tag {
                    0 => {
                        this.cluster_id = d.nullable_string(flexible)?;
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
impl FetchSnapshotRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.cluster_id = if rng.null() { None } else { Some(rng.string()) };
        this.replica_id = rng.i32();
        this.max_bytes = rng.i32();
        this.topics = (0..rng.len())
            .map(|_| TopicSnapshot::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicSnapshot` of [`FetchSnapshotRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicSnapshot {
    /// The name of the topic to fetch.
    ///
    /// Versions: 0+.
    pub name: String,
    /// The partitions to fetch.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionSnapshot>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicSnapshot {
    fn default() -> Self {
        TopicSnapshot {
            name: String::from(""),
            partitions: Vec::<PartitionSnapshot>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicSnapshot {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.string(&self.name, flexible)?;
        e.array(&self.partitions, flexible, |e, item| {
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
        this.name = d.string(flexible, "Name")?;
        this.partitions = d.array(flexible, "Partitions", |d| {
            PartitionSnapshot::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("TopicSnapshot", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicSnapshot {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.name = rng.string();
        this.partitions = (0..rng.len())
            .map(|_| PartitionSnapshot::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionSnapshot` of [`FetchSnapshotRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionSnapshot {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition: i32,
    /// The current leader epoch of the partition, -1 for unknown leader epoch.
    ///
    /// Versions: 0+.
    pub current_leader_epoch: i32,
    /// The snapshot endOffset and epoch to fetch.
    ///
    /// Versions: 0+.
    pub snapshot_id: SnapshotId,
    /// The byte position within the snapshot to start fetching from.
    ///
    /// Versions: 0+.
    pub position: i64,
    /// The directory id of the follower fetching.
    ///
    /// Versions: 1+.
    pub replica_directory_id: Uuid,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionSnapshot {
    fn default() -> Self {
        PartitionSnapshot {
            partition: 0,
            current_leader_epoch: 0,
            snapshot_id: SnapshotId::default(),
            position: 0,
            replica_directory_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionSnapshot {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.partition);
        e.i32(self.current_leader_epoch);
        self.snapshot_id.write(e, version)?;
        e.i64(self.position);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version == 1 {
                if self.replica_directory_id != Uuid::nil() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.uuid(&self.replica_directory_id);
                    }
                    tagged.push((0, t));
                }
            }
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = true;
        let mut this = Self::default();
        this.partition = d.i32()?;
        this.current_leader_epoch = d.i32()?;
        this.snapshot_id = SnapshotId::read(d, version)?;
        this.position = d.i64()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("PartitionSnapshot", |tag, d| {
                match tag {
                    0 if version == 1 => {
                        this.replica_directory_id = d.uuid()?;
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
impl PartitionSnapshot {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.partition = rng.i32();
        this.current_leader_epoch = rng.i32();
        this.snapshot_id = SnapshotId::random_value(rng, version);
        this.position = rng.i64();
        if version == 1 {
            this.replica_directory_id = rng.uuid();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `SnapshotId` of [`FetchSnapshotRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotId {
    /// The end offset of the snapshot.
    ///
    /// Versions: 0+.
    pub end_offset: i64,
    /// The epoch of the snapshot.
    ///
    /// Versions: 0+.
    pub epoch: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SnapshotId {
    fn default() -> Self {
        SnapshotId {
            end_offset: 0,
            epoch: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SnapshotId {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i64(self.end_offset);
        e.i32(self.epoch);
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
        this.end_offset = d.i64()?;
        this.epoch = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("SnapshotId", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl SnapshotId {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.end_offset = rng.i64();
        this.epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for FetchSnapshotRequest {
    const NAME: &'static str = "FetchSnapshotRequest";
    const VALID_VERSIONS: (i16, i16) = (0, 1);
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
impl crate::testing::Random for FetchSnapshotRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
