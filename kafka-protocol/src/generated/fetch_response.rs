//! `FetchResponse`, generated from Kafka's `FetchResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// FetchResponse (valid versions 4-18, flexible from 12).
#[derive(Debug, Clone, PartialEq)]
pub struct FetchResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// The top level response error code.
    ///
    /// Versions: 7+.
    pub error_code: i16,
    /// The fetch session ID, or 0 if this is not part of a fetch session.
    ///
    /// Versions: 7+.
    pub session_id: i32,
    /// The response topics.
    ///
    /// Versions: 0+.
    pub responses: Vec<FetchableTopicResponse>,
    /// Endpoints for all current-leaders enumerated in PartitionData, with errors NOT_LEADER_OR_FOLLOWER & FENCED_LEADER_EPOCH.
    ///
    /// Versions: 16+.
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchResponse {
    fn default() -> Self {
        FetchResponse {
            throttle_time_ms: 0,
            error_code: 0,
            session_id: 0,
            responses: Vec::<FetchableTopicResponse>::new(),
            node_endpoints: Vec::<NodeEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        e.i32(self.throttle_time_ms);
        if version >= 7 {
            e.i16(self.error_code);
        }
        if version >= 7 {
            e.i32(self.session_id);
        }
        if version <= 6 {
            if self.session_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FetchResponse",
                    field: "SessionId",
                    version,
                });
            }
        }
        e.array(&self.responses, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version <= 15 {
            if self.node_endpoints != Vec::<NodeEndpoint>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FetchResponse",
                    field: "NodeEndpoints",
                    version,
                });
            }
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 16 {
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
        let flexible = version >= 12;
        let mut this = Self::default();
        this.throttle_time_ms = d.i32()?;
        if version >= 7 {
            this.error_code = d.i16()?;
        }
        if version >= 7 {
            this.session_id = d.i32()?;
        }
        this.responses = d.array(flexible, "Responses", |d| {
            FetchableTopicResponse::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FetchResponse", |tag, d| {
                match tag {
                    0 if version >= 16 => {
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
impl FetchResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        this.throttle_time_ms = rng.i32();
        if version >= 7 {
            this.error_code = rng.i16();
        }
        if version >= 7 {
            this.session_id = rng.i32();
        }
        this.responses = (0..rng.len())
            .map(|_| FetchableTopicResponse::random_value(rng, version))
            .collect();
        if version >= 16 {
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

/// A `FetchableTopicResponse` of [`FetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct FetchableTopicResponse {
    /// The topic name.
    ///
    /// Versions: 0-12.
    pub topic: String,
    /// The unique topic ID.
    ///
    /// Versions: 13+.
    pub topic_id: Uuid,
    /// The topic partitions.
    ///
    /// Versions: 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchableTopicResponse {
    fn default() -> Self {
        FetchableTopicResponse {
            topic: String::from(""),
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchableTopicResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        if version <= 12 {
            e.string(&self.topic, flexible)?;
        }
        if version >= 13 {
            e.uuid(&self.topic_id);
        }
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
        let flexible = version >= 12;
        let mut this = Self::default();
        if version <= 12 {
            this.topic = d.string(flexible, "Topic")?;
        }
        if version >= 13 {
            this.topic_id = d.uuid()?;
        }
        this.partitions = d.array(flexible, "Partitions", |d| PartitionData::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("FetchableTopicResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl FetchableTopicResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        if version <= 12 {
            this.topic = rng.string();
        }
        if version >= 13 {
            this.topic_id = rng.uuid();
        }
        this.partitions = (0..rng.len())
            .map(|_| PartitionData::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionData` of [`FetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition_index: i32,
    /// The error code, or 0 if there was no fetch error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The current high water mark.
    ///
    /// Versions: 0+.
    pub high_watermark: i64,
    /// The last stable offset (or LSO) of the partition. This is the last offset such that the state of all transactional records prior to this offset have been decided (ABORTED or COMMITTED).
    ///
    /// Versions: 4+.
    pub last_stable_offset: i64,
    /// The current log start offset.
    ///
    /// Versions: 5+.
    pub log_start_offset: i64,
    /// In case divergence is detected based on the `LastFetchedEpoch` and `FetchOffset` in the request, this field indicates the largest epoch and its end offset such that subsequent records are known to diverge.
    ///
    /// Versions: 12+.
    pub diverging_epoch: EpochEndOffset,
    /// The current leader of the partition.
    ///
    /// Versions: 12+.
    pub current_leader: LeaderIdAndEpoch,
    /// In the case of fetching an offset less than the LogStartOffset, this is the end offset and epoch that should be used in the FetchSnapshot request.
    ///
    /// Versions: 12+.
    pub snapshot_id: SnapshotId,
    /// The aborted transactions.
    ///
    /// Versions: 4+.
    pub aborted_transactions: Option<Vec<AbortedTransaction>>,
    /// The preferred read replica for the consumer to use on its next fetch request.
    ///
    /// Versions: 11+.
    pub preferred_read_replica: i32,
    /// The record data.
    ///
    /// Versions: 0+.
    pub records: Option<Bytes>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            error_code: 0,
            high_watermark: 0,
            last_stable_offset: -1,
            log_start_offset: -1,
            diverging_epoch: EpochEndOffset::default(),
            current_leader: LeaderIdAndEpoch::default(),
            snapshot_id: SnapshotId::default(),
            aborted_transactions: Some(Vec::<AbortedTransaction>::new()),
            preferred_read_replica: -1,
            records: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        e.i32(self.partition_index);
        e.i16(self.error_code);
        e.i64(self.high_watermark);
        e.i64(self.last_stable_offset);
        if version >= 5 {
            e.i64(self.log_start_offset);
        }
        if version <= 11 {
            if self.diverging_epoch != EpochEndOffset::default() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "PartitionData",
                    field: "DivergingEpoch",
                    version,
                });
            }
        }
        if version <= 11 {
            if self.current_leader != LeaderIdAndEpoch::default() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "PartitionData",
                    field: "CurrentLeader",
                    version,
                });
            }
        }
        if version <= 11 {
            if self.snapshot_id != SnapshotId::default() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "PartitionData",
                    field: "SnapshotId",
                    version,
                });
            }
        }
        e.nullable_array(self.aborted_transactions.as_deref(), flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 11 {
            e.i32(self.preferred_read_replica);
        }
        if version <= 10 {
            if self.preferred_read_replica != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "PartitionData",
                    field: "PreferredReadReplica",
                    version,
                });
            }
        }
        e.nullable_bytes(self.records.as_ref(), flexible)?;
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 12 {
                if self.diverging_epoch != EpochEndOffset::default() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        self.diverging_epoch.write(e, version)?;
                    }
                    tagged.push((0, t));
                }
            }
            if version >= 12 {
                if self.current_leader != LeaderIdAndEpoch::default() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        self.current_leader.write(e, version)?;
                    }
                    tagged.push((1, t));
                }
            }
            if version >= 12 {
                if self.snapshot_id != SnapshotId::default() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        self.snapshot_id.write(e, version)?;
                    }
                    tagged.push((2, t));
                }
            }
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 12;
        let mut this = Self::default();
        this.partition_index = d.i32()?;
        this.error_code = d.i16()?;
        this.high_watermark = d.i64()?;
        this.last_stable_offset = d.i64()?;
        if version >= 5 {
            this.log_start_offset = d.i64()?;
        }
        this.aborted_transactions =
            d.nullable_array(flexible, |d| AbortedTransaction::read(d, version))?;
        if version >= 11 {
            this.preferred_read_replica = d.i32()?;
        }
        this.records = d.nullable_bytes(flexible)?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("PartitionData", |tag, d| {
                match tag {
                    0 if version >= 12 => {
                        this.diverging_epoch = EpochEndOffset::read(d, version)?;
                    }
                    1 if version >= 12 => {
                        this.current_leader = LeaderIdAndEpoch::read(d, version)?;
                    }
                    2 if version >= 12 => {
                        this.snapshot_id = SnapshotId::read(d, version)?;
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
impl PartitionData {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        this.partition_index = rng.i32();
        this.error_code = rng.i16();
        this.high_watermark = rng.i64();
        this.last_stable_offset = rng.i64();
        if version >= 5 {
            this.log_start_offset = rng.i64();
        }
        if version >= 12 {
            this.diverging_epoch = EpochEndOffset::random_value(rng, version);
        }
        if version >= 12 {
            this.current_leader = LeaderIdAndEpoch::random_value(rng, version);
        }
        if version >= 12 {
            this.snapshot_id = SnapshotId::random_value(rng, version);
        }
        this.aborted_transactions = if rng.null() {
            None
        } else {
            Some(
                (0..rng.len())
                    .map(|_| AbortedTransaction::random_value(rng, version))
                    .collect(),
            )
        };
        if version >= 11 {
            this.preferred_read_replica = rng.i32();
        }
        this.records = if rng.null() { None } else { Some(rng.bytes()) };
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `EpochEndOffset` of [`FetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct EpochEndOffset {
    /// The largest epoch.
    ///
    /// Versions: 12+.
    pub epoch: i32,
    /// The end offset of the epoch.
    ///
    /// Versions: 12+.
    pub end_offset: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for EpochEndOffset {
    fn default() -> Self {
        EpochEndOffset {
            epoch: -1,
            end_offset: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EpochEndOffset {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        if version >= 12 {
            e.i32(self.epoch);
        }
        if version <= 11 {
            if self.epoch != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "EpochEndOffset",
                    field: "Epoch",
                    version,
                });
            }
        }
        if version >= 12 {
            e.i64(self.end_offset);
        }
        if version <= 11 {
            if self.end_offset != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "EpochEndOffset",
                    field: "EndOffset",
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
        let flexible = version >= 12;
        let mut this = Self::default();
        if version >= 12 {
            this.epoch = d.i32()?;
        }
        if version >= 12 {
            this.end_offset = d.i64()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("EpochEndOffset", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl EpochEndOffset {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        if version >= 12 {
            this.epoch = rng.i32();
        }
        if version >= 12 {
            this.end_offset = rng.i64();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `LeaderIdAndEpoch` of [`FetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions: 12+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions: 12+.
    pub leader_epoch: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for LeaderIdAndEpoch {
    fn default() -> Self {
        LeaderIdAndEpoch {
            leader_id: -1,
            leader_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderIdAndEpoch {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        if version >= 12 {
            e.i32(self.leader_id);
        }
        if version <= 11 {
            if self.leader_id != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "LeaderIdAndEpoch",
                    field: "LeaderId",
                    version,
                });
            }
        }
        if version >= 12 {
            e.i32(self.leader_epoch);
        }
        if version <= 11 {
            if self.leader_epoch != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "LeaderIdAndEpoch",
                    field: "LeaderEpoch",
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
        let flexible = version >= 12;
        let mut this = Self::default();
        if version >= 12 {
            this.leader_id = d.i32()?;
        }
        if version >= 12 {
            this.leader_epoch = d.i32()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("LeaderIdAndEpoch", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl LeaderIdAndEpoch {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        if version >= 12 {
            this.leader_id = rng.i32();
        }
        if version >= 12 {
            this.leader_epoch = rng.i32();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `SnapshotId` of [`FetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotId {
    /// The end offset of the epoch.
    ///
    /// Versions: 0+.
    pub end_offset: i64,
    /// The largest epoch.
    ///
    /// Versions: 0+.
    pub epoch: i32,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for SnapshotId {
    fn default() -> Self {
        SnapshotId {
            end_offset: -1,
            epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SnapshotId {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
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
        let flexible = version >= 12;
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
        let flexible = version >= 12;
        let mut this = Self::default();
        this.end_offset = rng.i64();
        this.epoch = rng.i32();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `AbortedTransaction` of [`FetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct AbortedTransaction {
    /// The producer id associated with the aborted transaction.
    ///
    /// Versions: 4+.
    pub producer_id: i64,
    /// The first offset in the aborted transaction.
    ///
    /// Versions: 4+.
    pub first_offset: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for AbortedTransaction {
    fn default() -> Self {
        AbortedTransaction {
            producer_id: 0,
            first_offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AbortedTransaction {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        e.i64(self.producer_id);
        e.i64(self.first_offset);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            e.tagged_fields(tagged, &self.unknown_tagged_fields);
        }
        Ok(())
    }

    /// Reads this struct at `version` of the enclosing message (the caller checks the version).
    pub fn read(d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {
        let flexible = version >= 12;
        let mut this = Self::default();
        this.producer_id = d.i64()?;
        this.first_offset = d.i64()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("AbortedTransaction", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl AbortedTransaction {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        this.producer_id = rng.i64();
        this.first_offset = rng.i64();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `NodeEndpoint` of [`FetchResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    ///
    /// Versions: 16+.
    pub node_id: i32,
    /// The node's hostname.
    ///
    /// Versions: 16+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions: 16+.
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    ///
    /// Versions: 16+.
    pub rack: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for NodeEndpoint {
    fn default() -> Self {
        NodeEndpoint {
            node_id: 0,
            host: String::from(""),
            port: 0,
            rack: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl NodeEndpoint {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        if version >= 16 {
            e.i32(self.node_id);
        }
        if version <= 15 {
            if self.node_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "NodeId",
                    version,
                });
            }
        }
        if version >= 16 {
            e.string(&self.host, flexible)?;
        }
        if version <= 15 {
            if self.host != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "Host",
                    version,
                });
            }
        }
        if version >= 16 {
            e.i32(self.port);
        }
        if version <= 15 {
            if self.port != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "Port",
                    version,
                });
            }
        }
        if version >= 16 {
            if self.rack.is_none() && !(version >= 16) {
                return Err(EncodeError::NullNotAllowed {
                    message: "NodeEndpoint",
                    field: "Rack",
                    version,
                });
            }
            e.nullable_string(self.rack.as_deref(), flexible)?;
        }
        if version <= 15 {
            if self.rack != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "Rack",
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
        let flexible = version >= 12;
        let mut this = Self::default();
        if version >= 16 {
            this.node_id = d.i32()?;
        }
        if version >= 16 {
            this.host = d.string(flexible, "Host")?;
        }
        if version >= 16 {
            this.port = d.i32()?;
        }
        if version >= 16 {
            this.rack = if version >= 16 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "Rack")?)
            };
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
        let flexible = version >= 12;
        let mut this = Self::default();
        if version >= 16 {
            this.node_id = rng.i32();
        }
        if version >= 16 {
            this.host = rng.string();
        }
        if version >= 16 {
            this.port = rng.i32();
        }
        if version >= 16 {
            this.rack = if version >= 16 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for FetchResponse {
    const NAME: &'static str = "FetchResponse";
    const VALID_VERSIONS: (i16, i16) = (4, 18);
    const FLEXIBLE_MIN: Option<i16> = Some(12);
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
impl crate::testing::Random for FetchResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
