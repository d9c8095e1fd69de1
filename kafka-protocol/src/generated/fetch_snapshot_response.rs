//! `FetchSnapshotResponse`, generated from Kafka's `FetchSnapshotResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// FetchSnapshotResponse (valid versions 0-1, flexible from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct FetchSnapshotResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 0+.
    pub throttle_time_ms: i32,
    /// The top level response error code.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The topics to fetch.
    ///
    /// Versions: 0+.
    pub topics: Vec<TopicSnapshot>,
    /// Endpoints for all current-leaders enumerated in PartitionSnapshot.
    ///
    /// Versions: 1+.
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchSnapshotResponse {
    fn default() -> Self {
        FetchSnapshotResponse {
            throttle_time_ms: 0,
            error_code: 0,
            topics: Vec::<TopicSnapshot>::new(),
            node_endpoints: Vec::<NodeEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchSnapshotResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.throttle_time_ms);
        e.i16(self.error_code);
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version == 0 {
            if self.node_endpoints != Vec::<NodeEndpoint>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FetchSnapshotResponse",
                    field: "NodeEndpoints",
                    version,
                });
            }
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version == 1 {
                if self.node_endpoints != Vec::<NodeEndpoint>::new() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.array(&self.node_endpoints, flexible, |e, item| {
                            item.write(e, version)?;
                            Ok(())
                        })?;
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
        this.throttle_time_ms = d.i32()?;
        this.error_code = d.i16()?;
        this.topics = d.array(flexible, "Topics", |d| TopicSnapshot::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FetchSnapshotResponse", |tag, d| {
                match tag {
                    0 if version == 1 => {
                        this.node_endpoints = d.array(flexible, "NodeEndpoints", |d| {
                            NodeEndpoint::read(d, version)
                        })?;
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
impl FetchSnapshotResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        this.error_code = rng.i16();
        this.topics = (0..rng.len())
            .map(|_| TopicSnapshot::random_value(rng, version))
            .collect();
        if version == 1 {
            this.node_endpoints = (0..rng.len())
                .map(|_| NodeEndpoint::random_value(rng, version))
                .collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `TopicSnapshot` of [`FetchSnapshotResponse`].
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

/// A `PartitionSnapshot` of [`FetchSnapshotResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionSnapshot {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub index: i32,
    /// The error code, or 0 if there was no fetch error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The snapshot endOffset and epoch fetched.
    ///
    /// Versions: 0+.
    pub snapshot_id: SnapshotId,
    /// The leader of the partition at the time of the snapshot.
    ///
    /// Versions: 0+.
    pub current_leader: LeaderIdAndEpoch,
    /// The total size of the snapshot.
    ///
    /// Versions: 0+.
    pub size: i64,
    /// The starting byte position within the snapshot included in the Bytes field.
    ///
    /// Versions: 0+.
    pub position: i64,
    /// Snapshot data in records format which may not be aligned on an offset boundary.
    ///
    /// Versions: 0+.
    pub unaligned_records: Bytes,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionSnapshot {
    fn default() -> Self {
        PartitionSnapshot {
            index: 0,
            error_code: 0,
            snapshot_id: SnapshotId::default(),
            current_leader: LeaderIdAndEpoch::default(),
            size: 0,
            position: 0,
            unaligned_records: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionSnapshot {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.index);
        e.i16(self.error_code);
        self.snapshot_id.write(e, version)?;
        e.i64(self.size);
        e.i64(self.position);
        e.bytes(&self.unaligned_records, flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if self.current_leader != LeaderIdAndEpoch::default() {
                let mut t = e.child();
                {
                    let e = &mut t;
                    self.current_leader.write(e, version)?;
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
        this.index = d.i32()?;
        this.error_code = d.i16()?;
        this.snapshot_id = SnapshotId::read(d, version)?;
        this.size = d.i64()?;
        this.position = d.i64()?;
        this.unaligned_records = d.bytes(flexible, "UnalignedRecords")?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("PartitionSnapshot", |tag, d| {
                match tag {
                    0 => {
                        this.current_leader = LeaderIdAndEpoch::read(d, version)?;
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
        this.index = rng.i32();
        this.error_code = rng.i16();
        this.snapshot_id = SnapshotId::random_value(rng, version);
        this.current_leader = LeaderIdAndEpoch::random_value(rng, version);
        this.size = rng.i64();
        this.position = rng.i64();
        this.unaligned_records = rng.bytes();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `SnapshotId` of [`FetchSnapshotResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotId {
    /// The snapshot end offset.
    ///
    /// Versions: 0+.
    pub end_offset: i64,
    /// The snapshot epoch.
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

/// A `LeaderIdAndEpoch` of [`FetchSnapshotResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions: 0+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions: 0+.
    pub leader_epoch: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for LeaderIdAndEpoch {
    fn default() -> Self {
        LeaderIdAndEpoch {
            leader_id: 0,
            leader_epoch: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderIdAndEpoch {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        e.i32(self.leader_id);
        e.i32(self.leader_epoch);
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
        this.leader_id = d.i32()?;
        this.leader_epoch = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("LeaderIdAndEpoch", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl LeaderIdAndEpoch {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        this.leader_id = rng.i32();
        this.leader_epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `NodeEndpoint` of [`FetchSnapshotResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    ///
    /// Versions: 1+.
    pub node_id: i32,
    /// The node's hostname.
    ///
    /// Versions: 1+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions: 1+.
    pub port: u16,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for NodeEndpoint {
    fn default() -> Self {
        NodeEndpoint {
            node_id: 0,
            host: String::from(""),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl NodeEndpoint {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = true;
        if version == 1 {
            e.i32(self.node_id);
        }
        if version == 0 {
            if self.node_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "NodeId",
                    version,
                });
            }
        }
        if version == 1 {
            e.string(&self.host, flexible)?;
        }
        if version == 0 {
            if self.host != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "Host",
                    version,
                });
            }
        }
        if version == 1 {
            e.u16(self.port);
        }
        if version == 0 {
            if self.port != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "Port",
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
        if version == 1 {
            this.node_id = d.i32()?;
        }
        if version == 1 {
            this.host = d.string(flexible, "Host")?;
        }
        if version == 1 {
            this.port = d.u16()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("NodeEndpoint", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl NodeEndpoint {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = true;
        let mut this = Self::default();
        if version == 1 {
            this.node_id = rng.i32();
        }
        if version == 1 {
            this.host = rng.string();
        }
        if version == 1 {
            this.port = rng.u16();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for FetchSnapshotResponse {
    const NAME: &'static str = "FetchSnapshotResponse";
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
impl crate::testing::Random for FetchSnapshotResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
