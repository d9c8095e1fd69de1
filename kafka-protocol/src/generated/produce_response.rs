//! `ProduceResponse`, generated from Kafka's `ProduceResponse.json` by kafka-protocol-codegen. Do not edit.

use bytes::Bytes;
use uuid::Uuid;

use crate::codec::{Decoder, Encoder, UnknownTaggedFields};
use crate::error::{DecodeError, EncodeError};

/// ProduceResponse (valid versions 3-13, flexible from 9).
#[derive(Debug, Clone, PartialEq)]
pub struct ProduceResponse {
    /// Each produce response.
    ///
    /// Versions: 0+.
    pub responses: Vec<TopicProduceResponse>,
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions: 1+.
    pub throttle_time_ms: i32,
    /// Endpoints for all current-leaders enumerated in PartitionProduceResponses, with errors NOT_LEADER_OR_FOLLOWER.
    ///
    /// Versions: 10+.
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for ProduceResponse {
    fn default() -> Self {
        ProduceResponse {
            responses: Vec::<TopicProduceResponse>::new(),
            throttle_time_ms: 0,
            node_endpoints: Vec::<NodeEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ProduceResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        e.array(&self.responses, flexible, |e, item| {
            item.write(e, version)?;
            Ok(())
        })?;
        e.i32(self.throttle_time_ms);
        if version <= 9 {
            if self.node_endpoints != Vec::<NodeEndpoint>::new() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "ProduceResponse",
                    field: "NodeEndpoints",
                    version,
                });
            }
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 10 {
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
        let flexible = version >= 9;
        let mut this = Self::default();
        this.responses = d.array(flexible, "Responses", |d| {
            TopicProduceResponse::read(d, version)
        })?;
        this.throttle_time_ms = d.i32()?;
        if flexible {
            this.unknown_tagged_fields = d.tagged_fields("ProduceResponse", |tag, d| {
                match tag {
                    0 if version >= 10 => {
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
impl ProduceResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.responses = (0..rng.len())
            .map(|_| TopicProduceResponse::random_value(rng, version))
            .collect();
        this.throttle_time_ms = rng.i32();
        if version >= 10 {
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

/// A `TopicProduceResponse` of [`ProduceResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicProduceResponse {
    /// The topic name.
    ///
    /// Versions: 0-12.
    pub name: String,
    /// The unique topic ID
    ///
    /// Versions: 13+.
    pub topic_id: Uuid,
    /// Each partition that we produced to within the topic.
    ///
    /// Versions: 0+.
    pub partition_responses: Vec<PartitionProduceResponse>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for TopicProduceResponse {
    fn default() -> Self {
        TopicProduceResponse {
            name: String::from(""),
            topic_id: Uuid::nil(),
            partition_responses: Vec::<PartitionProduceResponse>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicProduceResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        if version <= 12 {
            e.string(&self.name, flexible)?;
        }
        if version == 13 {
            e.uuid(&self.topic_id);
        }
        e.array(&self.partition_responses, flexible, |e, item| {
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
        let flexible = version >= 9;
        let mut this = Self::default();
        if version <= 12 {
            this.name = d.string(flexible, "Name")?;
        }
        if version == 13 {
            this.topic_id = d.uuid()?;
        }
        this.partition_responses = d.array(flexible, "PartitionResponses", |d| {
            PartitionProduceResponse::read(d, version)
        })?;
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("TopicProduceResponse", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl TopicProduceResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        if version <= 12 {
            this.name = rng.string();
        }
        if version == 13 {
            this.topic_id = rng.uuid();
        }
        this.partition_responses = (0..rng.len())
            .map(|_| PartitionProduceResponse::random_value(rng, version))
            .collect();
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `PartitionProduceResponse` of [`ProduceResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionProduceResponse {
    /// The partition index.
    ///
    /// Versions: 0+.
    pub index: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions: 0+.
    pub error_code: i16,
    /// The base offset.
    ///
    /// Versions: 0+.
    pub base_offset: i64,
    /// The timestamp returned by broker after appending the messages. If CreateTime is used for the topic, the timestamp will be -1.  If LogAppendTime is used for the topic, the timestamp will be the broker local time when the messages are appended.
    ///
    /// Versions: 2+.
    pub log_append_time_ms: i64,
    /// The log start offset.
    ///
    /// Versions: 5+.
    pub log_start_offset: i64,
    /// The batch indices of records that caused the batch to be dropped.
    ///
    /// Versions: 8+.
    pub record_errors: Vec<BatchIndexAndErrorMessage>,
    /// The global error message summarizing the common root cause of the records that caused the batch to be dropped.
    ///
    /// Versions: 8+.
    pub error_message: Option<String>,
    /// The leader broker that the producer should use for future requests.
    ///
    /// Versions: 10+.
    pub current_leader: LeaderIdAndEpoch,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for PartitionProduceResponse {
    fn default() -> Self {
        PartitionProduceResponse {
            index: 0,
            error_code: 0,
            base_offset: 0,
            log_append_time_ms: -1,
            log_start_offset: -1,
            record_errors: Vec::<BatchIndexAndErrorMessage>::new(),
            error_message: None,
            current_leader: LeaderIdAndEpoch::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionProduceResponse {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        e.i32(self.index);
        e.i16(self.error_code);
        e.i64(self.base_offset);
        e.i64(self.log_append_time_ms);
        if version >= 5 {
            e.i64(self.log_start_offset);
        }
        if version >= 8 {
            e.array(&self.record_errors, flexible, |e, item| {
                item.write(e, version)?;
                Ok(())
            })?;
        }
        if version >= 8 {
            if self.error_message.is_none() && !(version >= 8) {
                return Err(EncodeError::NullNotAllowed {
                    message: "PartitionProduceResponse",
                    field: "ErrorMessage",
                    version,
                });
            }
            e.nullable_string(self.error_message.as_deref(), flexible)?;
        }
        if version <= 9 {
            if self.current_leader != LeaderIdAndEpoch::default() && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "PartitionProduceResponse",
                    field: "CurrentLeader",
                    version,
                });
            }
        }
        if flexible {
            let mut tagged: Vec<(u32, Encoder)> = Vec::new();
            if version >= 10 {
                if self.current_leader != LeaderIdAndEpoch::default() {
                    let mut t = e.child();
                    {
                        let e = &mut t;
                        self.current_leader.write(e, version)?;
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
        let flexible = version >= 9;
        let mut this = Self::default();
        this.index = d.i32()?;
        this.error_code = d.i16()?;
        this.base_offset = d.i64()?;
        this.log_append_time_ms = d.i64()?;
        if version >= 5 {
            this.log_start_offset = d.i64()?;
        }
        if version >= 8 {
            this.record_errors = d.array(flexible, "RecordErrors", |d| {
                BatchIndexAndErrorMessage::read(d, version)
            })?;
        }
        if version >= 8 {
            this.error_message = if version >= 8 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "ErrorMessage")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("PartitionProduceResponse", |tag, d| {
                    match tag {
                        0 if version >= 10 => {
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
impl PartitionProduceResponse {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        this.index = rng.i32();
        this.error_code = rng.i16();
        this.base_offset = rng.i64();
        this.log_append_time_ms = rng.i64();
        if version >= 5 {
            this.log_start_offset = rng.i64();
        }
        if version >= 8 {
            this.record_errors = (0..rng.len())
                .map(|_| BatchIndexAndErrorMessage::random_value(rng, version))
                .collect();
        }
        if version >= 8 {
            this.error_message = if version >= 8 && rng.null() {
                None
            } else {
                Some(rng.string())
            };
        }
        if version >= 10 {
            this.current_leader = LeaderIdAndEpoch::random_value(rng, version);
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `BatchIndexAndErrorMessage` of [`ProduceResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct BatchIndexAndErrorMessage {
    /// The batch index of the record that caused the batch to be dropped.
    ///
    /// Versions: 8+.
    pub batch_index: i32,
    /// The error message of the record that caused the batch to be dropped.
    ///
    /// Versions: 8+.
    pub batch_index_error_message: Option<String>,
    /// Tagged fields this codec does not know, kept to be re-encoded.
    pub unknown_tagged_fields: UnknownTaggedFields,
}

impl Default for BatchIndexAndErrorMessage {
    fn default() -> Self {
        BatchIndexAndErrorMessage {
            batch_index: 0,
            batch_index_error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BatchIndexAndErrorMessage {
    /// Writes this struct at `version` of the enclosing message (the caller checks the version).
    pub fn write(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {
        let flexible = version >= 9;
        if version >= 8 {
            e.i32(self.batch_index);
        }
        if version <= 7 {
            if self.batch_index != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "BatchIndexAndErrorMessage",
                    field: "BatchIndex",
                    version,
                });
            }
        }
        if version >= 8 {
            if self.batch_index_error_message.is_none() && !(version >= 8) {
                return Err(EncodeError::NullNotAllowed {
                    message: "BatchIndexAndErrorMessage",
                    field: "BatchIndexErrorMessage",
                    version,
                });
            }
            e.nullable_string(self.batch_index_error_message.as_deref(), flexible)?;
        }
        if version <= 7 {
            if self.batch_index_error_message != None && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "BatchIndexAndErrorMessage",
                    field: "BatchIndexErrorMessage",
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
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 8 {
            this.batch_index = d.i32()?;
        }
        if version >= 8 {
            this.batch_index_error_message = if version >= 8 {
                d.nullable_string(flexible)?
            } else {
                Some(d.string(flexible, "BatchIndexErrorMessage")?)
            };
        }
        if flexible {
            this.unknown_tagged_fields =
                d.tagged_fields("BatchIndexAndErrorMessage", |_, _| Ok(false))?;
        }
        Ok(this)
    }
}

#[cfg(test)]
impl BatchIndexAndErrorMessage {
    pub(crate) fn random_value(rng: &mut crate::testing::Rng, version: i16) -> Self {
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 8 {
            this.batch_index = rng.i32();
        }
        if version >= 8 {
            this.batch_index_error_message = if version >= 8 && rng.null() {
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

/// A `LeaderIdAndEpoch` of [`ProduceResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions: 10+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions: 10+.
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
        let flexible = version >= 9;
        if version >= 10 {
            e.i32(self.leader_id);
        }
        if version <= 9 {
            if self.leader_id != -1 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "LeaderIdAndEpoch",
                    field: "LeaderId",
                    version,
                });
            }
        }
        if version >= 10 {
            e.i32(self.leader_epoch);
        }
        if version <= 9 {
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
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 10 {
            this.leader_id = d.i32()?;
        }
        if version >= 10 {
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
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 10 {
            this.leader_id = rng.i32();
        }
        if version >= 10 {
            this.leader_epoch = rng.i32();
        }
        if flexible {
            this.unknown_tagged_fields = rng.unknown_tagged_fields();
        }
        this
    }
}

/// A `NodeEndpoint` of [`ProduceResponse`].
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    ///
    /// Versions: 10+.
    pub node_id: i32,
    /// The node's hostname.
    ///
    /// Versions: 10+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions: 10+.
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    ///
    /// Versions: 10+.
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
        let flexible = version >= 9;
        if version >= 10 {
            e.i32(self.node_id);
        }
        if version <= 9 {
            if self.node_id != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "NodeId",
                    version,
                });
            }
        }
        if version >= 10 {
            e.string(&self.host, flexible)?;
        }
        if version <= 9 {
            if self.host != String::from("") && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "Host",
                    version,
                });
            }
        }
        if version >= 10 {
            e.i32(self.port);
        }
        if version <= 9 {
            if self.port != 0 && !e.drops_unsupported_fields() {
                return Err(EncodeError::UnsupportedField {
                    message: "NodeEndpoint",
                    field: "Port",
                    version,
                });
            }
        }
        if version >= 10 {
            if self.rack.is_none() && !(version >= 10) {
                return Err(EncodeError::NullNotAllowed {
                    message: "NodeEndpoint",
                    field: "Rack",
                    version,
                });
            }
            e.nullable_string(self.rack.as_deref(), flexible)?;
        }
        if version <= 9 {
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
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 10 {
            this.node_id = d.i32()?;
        }
        if version >= 10 {
            this.host = d.string(flexible, "Host")?;
        }
        if version >= 10 {
            this.port = d.i32()?;
        }
        if version >= 10 {
            this.rack = if version >= 10 {
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
        let flexible = version >= 9;
        let mut this = Self::default();
        if version >= 10 {
            this.node_id = rng.i32();
        }
        if version >= 10 {
            this.host = rng.string();
        }
        if version >= 10 {
            this.port = rng.i32();
        }
        if version >= 10 {
            this.rack = if version >= 10 && rng.null() {
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

impl crate::Message for ProduceResponse {
    const NAME: &'static str = "ProduceResponse";
    const VALID_VERSIONS: (i16, i16) = (3, 13);
    const FLEXIBLE_MIN: Option<i16> = Some(9);
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
impl crate::testing::Random for ProduceResponse {
    fn random(rng: &mut crate::testing::Rng, version: i16) -> Self {
        Self::random_value(rng, version)
    }
}
