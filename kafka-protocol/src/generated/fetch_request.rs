//! `FetchRequest`, generated from Kafka's `FetchRequest.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// FetchRequest (valid versions 4-18, flexible from 12).
#[derive(Debug, Clone, PartialEq)]
pub struct FetchRequest {
    /// The clusterId if known. This is used to validate metadata fetches prior to broker registration.
    ///
    /// Versions: 12+.
    pub cluster_id: Option<String>,
    /// The broker ID of the follower, of -1 if this request is from a consumer.
    ///
    /// Versions: 0-14.
    pub replica_id: i32,
    /// The state of the replica in the follower.
    ///
    /// Versions: 15+.
    pub replica_state: ReplicaState,
    /// The maximum time in milliseconds to wait for the response.
    ///
    /// Versions: 0+.
    pub max_wait_ms: i32,
    /// The minimum bytes to accumulate in the response.
    ///
    /// Versions: 0+.
    pub min_bytes: i32,
    /// The maximum bytes to fetch.  See KIP-74 for cases where this limit may not be honored.
    ///
    /// Versions: 3+.
    pub max_bytes: i32,
    /// This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted transactions in the result, which allows consumers to discard ABORTED transactional records.
    ///
    /// Versions: 4+.
    pub isolation_level: i8,
    /// The fetch session ID.
    ///
    /// Versions: 7+.
    pub session_id: i32,
    /// The fetch session epoch, which is used for ordering requests in a session.
    ///
    /// Versions: 7+.
    pub session_epoch: i32,
    /// The topics to fetch.
    ///
    /// Versions: 0+.
    pub topics: Vec<FetchTopic>,
    /// In an incremental fetch request, the partitions to remove.
    ///
    /// Versions: 7+.
    pub forgotten_topics_data: Vec<ForgottenTopic>,
    /// Rack ID of the consumer making this request.
    ///
    /// Versions: 11+.
    pub rack_id: String,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchRequest {
    fn default() -> Self {
        FetchRequest {
            cluster_id: None,
            replica_id: -1,
            replica_state: ReplicaState::default(),
            max_wait_ms: 0,
            min_bytes: 0,
            max_bytes: 2147483647,
            isolation_level: 0,
            session_id: 0,
            session_epoch: -1,
            topics: Vec::<FetchTopic>::new(),
            forgotten_topics_data: Vec::<ForgottenTopic>::new(),
            rack_id: String::from(""),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchRequest {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        if version <= 14 {
            e.i32(self.replica_id);
        }
        if version >= 15 {
            if self.replica_id != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FetchRequest",
                    field: "ReplicaId",
                    version,
                });
            }
        }
        if version <= 14 {
            if self.replica_state != ReplicaState::default() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FetchRequest",
                    field: "ReplicaState",
                    version,
                });
            }
        }
        e.i32(self.max_wait_ms);
        e.i32(self.min_bytes);
        e.i32(self.max_bytes);
        e.i8(self.isolation_level);
        if version >= 7 {
            e.i32(self.session_id);
        }
        if version >= 7 {
            e.i32(self.session_epoch);
        }
        e.array(&self.topics, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        if version >= 7 {
            e.array(&self.forgotten_topics_data, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version <= 6 {
            if self.forgotten_topics_data != Vec::<ForgottenTopic>::new()
                && !e.drops_unsupported_fields()
            {
                return Err(EncodeError::UnsupportedField {
                    message: "FetchRequest",
                    field: "ForgottenTopicsData",
                    version,
                });
            }
        }
        if version >= 11 {
            e.string(&self.rack_id, flexible)?;
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 12 {
                if self.cluster_id != None {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        if self.cluster_id.is_none() && !(version >= 12) {
                            return Err(EncodeError::NullNotAllowed {
                                message: "FetchRequest",
                                field: "ClusterId",
                                version,
                            });
                        }
                        e.nullable_string(self.cluster_id.as_deref(), flexible)?;
                    }
                    tagged.push((0, t));
                }
            }
            if version >= 15 {
                if self.replica_state != ReplicaState::default() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        self.replica_state.write(e, version)?;
                    }
                    tagged.push((1, t));
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
        if version <= 14 {
            this.replica_id = d.i32()?;
        }
        this.max_wait_ms = d.i32()?;
        this.min_bytes = d.i32()?;
        this.max_bytes = d.i32()?;
        this.isolation_level = d.i8()?;
        if version >= 7 {
            this.session_id = d.i32()?;
        }
        if version >= 7 {
            this.session_epoch = d.i32()?;
        }
        this.topics = d.array(flexible, "Topics", |d| FetchTopic::read(d, version))?;
        if version >= 7 {
            this.forgotten_topics_data = d.array(flexible, "ForgottenTopicsData", |d| {
                ForgottenTopic::read(d, version)
            })?;
        }
        if version >= 11 {
            this.rack_id = d.string(flexible, "RackId")?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FetchRequest", |tag, d| {
                match tag {
                    0 if version >= 12 => {
                        this.cluster_id = if version >= 12 {
                            d.nullable_string(flexible)?
                        } else {
                            Some(d.string(flexible, "ClusterId")?)
                        };
                    }
                    1 if version >= 15 => {
                        this.replica_state = ReplicaState::read(d, version)?;
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
impl FetchRequest {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        if version >= 12 {
            this.cluster_id = if version >= 12 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version <= 14 {
            this.replica_id = rng.i32();
        }
        if version >= 15 {
            this.replica_state = ReplicaState::random_value(rng, version);
        }
        this.max_wait_ms = rng.i32();
        this.min_bytes = rng.i32();
        this.max_bytes = rng.i32();
        this.isolation_level = rng.i8();
        if version >= 7 {
            this.session_id = rng.i32();
        }
        if version >= 7 {
            this.session_epoch = rng.i32();
        }
        this.topics = (0..rng.len())
            .map(|_| FetchTopic::random_value(rng, version))
            .collect();
        if version >= 7 {
            this.forgotten_topics_data = (0..rng.len())
                .map(|_| ForgottenTopic::random_value(rng, version))
                .collect();
        }
        if version >= 11 {
            this.rack_id = rng.string();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ReplicaState` of [`FetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaState {
    /// The replica ID of the follower, or -1 if this request is from a consumer.
    ///
    /// Versions: 15+.
    pub replica_id: i32,
    /// The epoch of this follower, or -1 if not available.
    ///
    /// Versions: 15+.
    pub replica_epoch: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ReplicaState {
    fn default() -> Self {
        ReplicaState {
            replica_id: -1,
            replica_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReplicaState {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        if version >= 15 {
            e.i32(self.replica_id);
        }
        if version <= 14 {
            if self.replica_id != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ReplicaState",
                    field: "ReplicaId",
                    version,
                });
            }
        }
        if version >= 15 {
            e.i64(self.replica_epoch);
        }
        if version <= 14 {
            if self.replica_epoch != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ReplicaState",
                    field: "ReplicaEpoch",
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
        if version >= 15 {
            this.replica_id = d.i32()?;
        }
        if version >= 15 {
            this.replica_epoch = d.i64()?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ReplicaState", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ReplicaState {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        if version >= 15 {
            this.replica_id = rng.i32();
        }
        if version >= 15 {
            this.replica_epoch = rng.i64();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `FetchTopic` of [`FetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct FetchTopic {
    /// The name of the topic to fetch.
    ///
    /// Versions: 0-12.
    pub topic: String,
    /// The unique topic ID.
    ///
    /// Versions: 13+.
    pub topic_id: Uuid,
    /// The partitions to fetch.
    ///
    /// Versions: 0+.
    pub partitions: Vec<FetchPartition>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchTopic {
    fn default() -> Self {
        FetchTopic {
            topic: String::from(""),
            topic_id: Uuid::nil(),
            partitions: Vec::<FetchPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchTopic {
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
        this.partitions = d.array(flexible, "Partitions", |d| FetchPartition::read(d, version))?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FetchTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl FetchTopic {
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
            .map(|_| FetchPartition::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `FetchPartition` of [`FetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct FetchPartition {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub partition: i32,
    /// The current leader epoch of the partition.
    ///
    /// Versions: 9+.
    pub current_leader_epoch: i32,
    /// The message offset.
    ///
    /// Versions: 0+.
    pub fetch_offset: i64,
    /// The epoch of the last fetched record or -1 if there is none.
    ///
    /// Versions: 12+.
    pub last_fetched_epoch: i32,
    /// The earliest available offset of the follower replica.  The field is only used when the request is sent by the follower.
    ///
    /// Versions: 5+.
    pub log_start_offset: i64,
    /// The maximum bytes to fetch from this partition.  See KIP-74 for cases where this limit may not be honored.
    ///
    /// Versions: 0+.
    pub partition_max_bytes: i32,
    /// The directory id of the follower fetching.
    ///
    /// Versions: 17+.
    pub replica_directory_id: Uuid,
    /// The high-watermark known by the replica. -1 if the high-watermark is not known and 9223372036854775807 if the feature is not supported.
    ///
    /// Versions: 18+.
    pub high_watermark: i64,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for FetchPartition {
    fn default() -> Self {
        FetchPartition {
            partition: 0,
            current_leader_epoch: -1,
            fetch_offset: 0,
            last_fetched_epoch: -1,
            log_start_offset: -1,
            partition_max_bytes: 0,
            replica_directory_id: Uuid::nil(),
            high_watermark: 9223372036854775807,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchPartition {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        e.i32(self.partition);
        if version >= 9 {
            e.i32(self.current_leader_epoch);
        }
        e.i64(self.fetch_offset);
        if version >= 12 {
            e.i32(self.last_fetched_epoch);
        }
        if version <= 11 {
            if self.last_fetched_epoch != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "FetchPartition",
                    field: "LastFetchedEpoch",
                    version,
                });
            }
        }
        if version >= 5 {
            e.i64(self.log_start_offset);
        }
        e.i32(self.partition_max_bytes);
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 17 {
                if self.replica_directory_id != Uuid::nil() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.uuid(&self.replica_directory_id);
                    }
                    tagged.push((0, t));
                }
            }
            if version == 18 {
                if self.high_watermark != 9223372036854775807 {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        e.i64(self.high_watermark);
                    }
                    tagged.push((1, t));
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
        this.partition = d.i32()?;
        if version >= 9 {
            this.current_leader_epoch = d.i32()?;
        }
        this.fetch_offset = d.i64()?;
        if version >= 12 {
            this.last_fetched_epoch = d.i32()?;
        }
        if version >= 5 {
            this.log_start_offset = d.i64()?;
        }
        this.partition_max_bytes = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("FetchPartition", |tag, d| {
                match tag {
                    0 if version >= 17 => {
                        this.replica_directory_id = d.uuid()?;
                    }
                    1 if version == 18 => {
                        this.high_watermark = d.i64()?;
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
impl FetchPartition {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        this.partition = rng.i32();
        if version >= 9 {
            this.current_leader_epoch = rng.i32();
        }
        this.fetch_offset = rng.i64();
        if version >= 12 {
            this.last_fetched_epoch = rng.i32();
        }
        if version >= 5 {
            this.log_start_offset = rng.i64();
        }
        this.partition_max_bytes = rng.i32();
        if version >= 17 {
            this.replica_directory_id = rng.uuid();
        }
        if version == 18 {
            this.high_watermark = rng.i64();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `ForgottenTopic` of [`FetchRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ForgottenTopic {
    /// The topic name.
    ///
    /// Versions: 7-12.
    pub topic: String,
    /// The unique topic ID.
    ///
    /// Versions: 13+.
    pub topic_id: Uuid,
    /// The partitions indexes to forget.
    ///
    /// Versions: 7+.
    pub partitions: Vec<i32>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ForgottenTopic {
    fn default() -> Self {
        ForgottenTopic {
            topic: String::from(""),
            topic_id: Uuid::nil(),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ForgottenTopic {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 12;
        if (7..=12).contains(&version) {
            e.string(&self.topic, flexible)?;
        }
        if version >= 13 {
            e.uuid(&self.topic_id);
        }
        if version >= 7 {
            e.array(&self.partitions, flexible, |e, item| {
                e.i32(*item);
                Ok(())
            })?;
        }
        if version <= 6 {
            if self.partitions != Vec::<i32>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ForgottenTopic",
                    field: "Partitions",
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
        if (7..=12).contains(&version) {
            this.topic = d.string(flexible, "Topic")?;
        }
        if version >= 13 {
            this.topic_id = d.uuid()?;
        }
        if version >= 7 {
            this.partitions = d.array(flexible, "Partitions", |d| d.i32())?;
        }
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ForgottenTopic", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl ForgottenTopic {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 12;
        let mut this = Self::default();
        if (7..=12).contains(&version) {
            this.topic = rng.string();
        }
        if version >= 13 {
            this.topic_id = rng.uuid();
        }
        if version >= 7 {
            this.partitions = (0..rng.len()).map(|_| rng.i32()).collect();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

impl crate::Message for FetchRequest {
    const NAME: &'static str = "FetchRequest";
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
impl crate::testing::Random for FetchRequest {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
