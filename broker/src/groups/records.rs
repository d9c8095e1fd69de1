//! The records of `__consumer_offsets`, in Kafka's byte layout so that the
//! topic reads the same as Kafka's (and Kafka's tools could decode it).
//! Kafka generates these from `OffsetCommitKey.json` etc., which are not in
//! the schema set this crate is generated from, so the layout is written
//! out here:
//!
//! | record | key | value |
//! |---|---|---|
//! | committed offset | `int16 version=1, string group, string topic, int32 partition` | `int16 version=3, int64 offset, int32 leader_epoch, string metadata, int64 commit_timestamp` (null = deleted) |
//! | group metadata | `int16 version=2, string group` | `int16 version=3, string protocol_type, int32 generation, nullable string protocol, nullable string leader, int64 state_timestamp, [member]` (null = deleted) |
//!
//! A member in the group value is `string member_id, nullable string
//! instance_id, string client_id, string client_host, int32
//! rebalance_timeout, int32 session_timeout, bytes subscription, bytes
//! assignment`. Strings are int16-length-prefixed (-1 = null), bytes
//! int32-length-prefixed, all big-endian, as in Kafka's non-flexible
//! message versions. Reading also accepts offset values v0–v2.
//!
//! KIP-848 consumer groups use Kafka 4's coordinator records: the key's
//! leading int16 is the record type (Kafka's `apiKey`) followed by
//! non-flexible key fields; the value is `int16 version=0` followed by
//! *flexible* fields (compact strings and arrays with unsigned-varint
//! lengths + 1, 0 = null; an empty tagged-field section after each struct;
//! unknown tags are skipped when reading):
//!
//! | type | key fields | value (version 0) |
//! |---|---|---|
//! | 3 ConsumerGroupMetadata | group | `int32 epoch`, tag 0: `int64 metadata_hash` (Kafka 4.1's `MetadataHash`, omitted when 0) |
//! | 4 ConsumerGroupPartitionMetadata | group | `[topic]` (written empty, as Kafka 4.1 does) |
//! | 5 ConsumerGroupMemberMetadata | group, member | `instance_id?, rack_id?, client_id, client_host, [subscribed topic], regex?, int32 rebalance_timeout, server_assignor?` |
//! | 6 ConsumerGroupTargetAssignmentMetadata | group | `int32 assignment_epoch` |
//! | 7 ConsumerGroupTargetAssignmentMember | group, member | `[uuid topic, [int32] partitions]` |
//! | 8 ConsumerGroupCurrentMemberAssignment | group, member | `int32 epoch, int32 previous_epoch, int8 state, [assigned], [pending revocation]` |
//!
//! A null value is a tombstone (member removed, group deleted).

use std::collections::{BTreeMap, BTreeSet};

use bytes::{BufMut, Bytes, BytesMut};
use uuid::Uuid;

/// A decoded record of `__consumer_offsets`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OffsetsRecord {
    /// A committed offset (`None`: the offset was deleted).
    Offset {
        group: String,
        topic: String,
        partition: i32,
        value: Option<OffsetValue>,
    },
    /// A group's metadata (`None`: the group was deleted).
    Group {
        group: String,
        value: Option<GroupValue>,
    },
    /// A KIP-848 consumer group record (`value` `None`: a tombstone).
    Consumer {
        group: String,
        key: ConsumerKey,
        value: Option<ConsumerValue>,
    },
}

/// Partitions by topic id, as the KIP-848 records carry them.
pub type TopicPartitions = BTreeMap<Uuid, BTreeSet<i32>>;

/// Which KIP-848 record, by key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConsumerKey {
    /// 3: the group epoch.
    Metadata,
    /// 4: the subscribed topics' metadata (Kafka 4.1 writes it empty).
    PartitionMetadata,
    /// 5: a member's subscription and client data.
    Member(String),
    /// 6: the target assignment's epoch.
    TargetMetadata,
    /// 7: a member's target assignment.
    TargetMember(String),
    /// 8: a member's current assignment and epochs.
    CurrentAssignment(String),
}

impl ConsumerKey {
    pub fn record_type(&self) -> i16 {
        match self {
            ConsumerKey::Metadata => 3,
            ConsumerKey::PartitionMetadata => 4,
            ConsumerKey::Member(_) => 5,
            ConsumerKey::TargetMetadata => 6,
            ConsumerKey::TargetMember(_) => 7,
            ConsumerKey::CurrentAssignment(_) => 8,
        }
    }
    pub fn member(&self) -> Option<&str> {
        match self {
            ConsumerKey::Member(m)
            | ConsumerKey::TargetMember(m)
            | ConsumerKey::CurrentAssignment(m) => Some(m),
            _ => None,
        }
    }
}

/// The value of a KIP-848 record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConsumerValue {
    Metadata {
        epoch: i32,
        /// Kafka 4.1's `MetadataHash` (tagged field 0): a fingerprint of
        /// the subscribed topics the target assignment was computed
        /// against, so that a coordinator loading the group notices what
        /// changed while no coordinator watched. 0 (Kafka's default, and
        /// what a record written before the field decodes to) = unknown.
        metadata_hash: i64,
    },
    /// Topics are not kept (Kafka 4.1 no longer reads them either).
    PartitionMetadata,
    Member(ConsumerMemberValue),
    TargetMetadata {
        assignment_epoch: i32,
    },
    TargetMember(TopicPartitions),
    CurrentAssignment(CurrentAssignmentValue),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConsumerMemberValue {
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub subscribed_topic_names: Vec<String>,
    pub subscribed_topic_regex: Option<String>,
    pub rebalance_timeout_ms: i32,
    pub server_assignor: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CurrentAssignmentValue {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    /// Kafka's `MemberState`: 0 stable, 1 unrevoked, 2 unreleased.
    pub state: i8,
    pub assigned: TopicPartitions,
    pub pending_revocation: TopicPartitions,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffsetValue {
    pub offset: i64,
    pub leader_epoch: i32,
    pub metadata: String,
    pub commit_timestamp: i64,
}

/// The part of a group's metadata that survives a restart. Members are
/// written (as Kafka does) but not reloaded: after a restart they rejoin.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupValue {
    pub protocol_type: String,
    pub generation: i32,
    pub protocol: Option<String>,
    pub leader: Option<String>,
    pub state_timestamp: i64,
    pub members: Vec<MemberValue>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberValue {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub rebalance_timeout: i32,
    pub session_timeout: i32,
    pub subscription: Bytes,
    pub assignment: Bytes,
}

/// A record that cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordFormatError {
    #[error("record truncated")]
    Truncated,
    #[error("unknown key version {0}")]
    KeyVersion(i16),
    #[error("unknown value version {0}")]
    ValueVersion(i16),
    #[error("string is not UTF-8")]
    Utf8,
    #[error("record without a key")]
    NoKey,
}

fn put_str(b: &mut BytesMut, s: &str) {
    // Group ids, topic names and metadata are bounded well below 32 KiB
    // by the callers (metadata by offset.metadata.max.bytes).
    b.put_i16(s.len().min(i16::MAX as usize) as i16);
    b.put_slice(&s.as_bytes()[..s.len().min(i16::MAX as usize)]);
}

fn put_nullable_str(b: &mut BytesMut, s: Option<&str>) {
    match s {
        Some(s) => put_str(b, s),
        None => b.put_i16(-1),
    }
}

fn put_bytes(b: &mut BytesMut, v: &[u8]) {
    b.put_i32(v.len() as i32);
    b.put_slice(v);
}

pub fn offset_key(group: &str, topic: &str, partition: i32) -> Bytes {
    let mut b = BytesMut::with_capacity(8 + group.len() + topic.len());
    b.put_i16(1);
    put_str(&mut b, group);
    put_str(&mut b, topic);
    b.put_i32(partition);
    b.freeze()
}

pub fn offset_value(v: &OffsetValue) -> Bytes {
    let mut b = BytesMut::with_capacity(24 + v.metadata.len());
    b.put_i16(3);
    b.put_i64(v.offset);
    b.put_i32(v.leader_epoch);
    put_str(&mut b, &v.metadata);
    b.put_i64(v.commit_timestamp);
    b.freeze()
}

pub fn group_key(group: &str) -> Bytes {
    let mut b = BytesMut::with_capacity(4 + group.len());
    b.put_i16(2);
    put_str(&mut b, group);
    b.freeze()
}

pub fn group_value(v: &GroupValue) -> Bytes {
    let mut b = BytesMut::with_capacity(64);
    b.put_i16(3);
    put_str(&mut b, &v.protocol_type);
    b.put_i32(v.generation);
    put_nullable_str(&mut b, v.protocol.as_deref());
    put_nullable_str(&mut b, v.leader.as_deref());
    b.put_i64(v.state_timestamp);
    b.put_i32(v.members.len() as i32);
    for m in &v.members {
        put_str(&mut b, &m.member_id);
        put_nullable_str(&mut b, m.instance_id.as_deref());
        put_str(&mut b, &m.client_id);
        put_str(&mut b, &m.client_host);
        b.put_i32(m.rebalance_timeout);
        b.put_i32(m.session_timeout);
        put_bytes(&mut b, &m.subscription);
        put_bytes(&mut b, &m.assignment);
    }
    b.freeze()
}

fn put_uvarint(b: &mut BytesMut, mut v: u64) {
    while v >= 0x80 {
        b.put_u8((v as u8) | 0x80);
        v >>= 7;
    }
    b.put_u8(v as u8);
}

fn put_compact_str(b: &mut BytesMut, s: Option<&str>) {
    match s {
        None => b.put_u8(0),
        Some(s) => {
            put_uvarint(b, s.len() as u64 + 1);
            b.put_slice(s.as_bytes());
        }
    }
}

fn put_topic_partitions(b: &mut BytesMut, a: &TopicPartitions) {
    put_uvarint(b, a.len() as u64 + 1);
    for (t, ps) in a {
        b.put_slice(t.as_bytes());
        put_uvarint(b, ps.len() as u64 + 1);
        for p in ps {
            b.put_i32(*p);
        }
        b.put_u8(0); // no tagged fields
    }
}

/// The key of a KIP-848 record of `group`.
pub fn consumer_key(group: &str, key: &ConsumerKey) -> Bytes {
    let mut b = BytesMut::with_capacity(8 + group.len());
    b.put_i16(key.record_type());
    put_str(&mut b, group);
    if let Some(m) = key.member() {
        put_str(&mut b, m);
    }
    b.freeze()
}

/// The value of a KIP-848 record (version 0, flexible).
pub fn consumer_value(v: &ConsumerValue) -> Bytes {
    let mut b = BytesMut::with_capacity(32);
    b.put_i16(0);
    match v {
        ConsumerValue::Metadata {
            epoch,
            metadata_hash,
        } => {
            b.put_i32(*epoch);
            // Kafka writes a tagged field only when it differs from its
            // default (0): one field, tag 0, 8 bytes.
            if *metadata_hash != 0 {
                b.put_slice(&[1, 0, 8]);
                b.put_i64(*metadata_hash);
                return b.freeze();
            }
        }
        ConsumerValue::PartitionMetadata => b.put_u8(1), // empty topics array
        ConsumerValue::Member(m) => {
            put_compact_str(&mut b, m.instance_id.as_deref());
            put_compact_str(&mut b, m.rack_id.as_deref());
            put_compact_str(&mut b, Some(&m.client_id));
            put_compact_str(&mut b, Some(&m.client_host));
            put_uvarint(&mut b, m.subscribed_topic_names.len() as u64 + 1);
            for t in &m.subscribed_topic_names {
                put_compact_str(&mut b, Some(t));
            }
            put_compact_str(&mut b, m.subscribed_topic_regex.as_deref());
            b.put_i32(m.rebalance_timeout_ms);
            put_compact_str(&mut b, m.server_assignor.as_deref());
        }
        ConsumerValue::TargetMetadata { assignment_epoch } => b.put_i32(*assignment_epoch),
        ConsumerValue::TargetMember(a) => put_topic_partitions(&mut b, a),
        ConsumerValue::CurrentAssignment(c) => {
            b.put_i32(c.member_epoch);
            b.put_i32(c.previous_member_epoch);
            b.put_i8(c.state);
            put_topic_partitions(&mut b, &c.assigned);
            put_topic_partitions(&mut b, &c.pending_revocation);
        }
    }
    b.put_u8(0); // no tagged fields
    b.freeze()
}

/// A bounds-checked big-endian reader.
struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], RecordFormatError> {
        if self.buf.len() < n {
            return Err(RecordFormatError::Truncated);
        }
        let (a, b) = self.buf.split_at(n);
        self.buf = b;
        Ok(a)
    }
    fn i16(&mut self) -> Result<i16, RecordFormatError> {
        let s = self.take(2)?;
        Ok(i16::from_be_bytes([s[0], s[1]]))
    }
    fn i32(&mut self) -> Result<i32, RecordFormatError> {
        let s = self.take(4)?;
        Ok(i32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn i64(&mut self) -> Result<i64, RecordFormatError> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(i64::from_be_bytes(a))
    }
    fn nullable_str(&mut self) -> Result<Option<String>, RecordFormatError> {
        let n = self.i16()?;
        if n < 0 {
            return Ok(None);
        }
        let s = self.take(n as usize)?;
        std::str::from_utf8(s)
            .map(|s| Some(s.to_string()))
            .map_err(|_| RecordFormatError::Utf8)
    }
    fn str(&mut self) -> Result<String, RecordFormatError> {
        Ok(self.nullable_str()?.unwrap_or_default())
    }
    fn uvarint(&mut self) -> Result<u64, RecordFormatError> {
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.take(1)?[0];
            v |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(RecordFormatError::Truncated)
    }
    /// A compact length: `None` for null; never more than the bytes left
    /// (every element takes at least one byte), so no length can make the
    /// caller reserve memory the record does not hold.
    fn compact_len(&mut self) -> Result<Option<usize>, RecordFormatError> {
        let n = self.uvarint()?;
        if n == 0 {
            return Ok(None);
        }
        let n = usize::try_from(n - 1).map_err(|_| RecordFormatError::Truncated)?;
        if n > self.buf.len() {
            return Err(RecordFormatError::Truncated);
        }
        Ok(Some(n))
    }
    fn compact_nullable_str(&mut self) -> Result<Option<String>, RecordFormatError> {
        let Some(n) = self.compact_len()? else {
            return Ok(None);
        };
        let s = self.take(n)?;
        std::str::from_utf8(s)
            .map(|s| Some(s.to_string()))
            .map_err(|_| RecordFormatError::Utf8)
    }
    fn compact_str(&mut self) -> Result<String, RecordFormatError> {
        Ok(self.compact_nullable_str()?.unwrap_or_default())
    }
    fn uuid(&mut self) -> Result<Uuid, RecordFormatError> {
        let s = self.take(16)?;
        let mut a = [0u8; 16];
        a.copy_from_slice(s);
        Ok(Uuid::from_bytes(a))
    }
    /// Skips a tagged-field section (fields this version does not know).
    fn skip_tags(&mut self) -> Result<(), RecordFormatError> {
        let n = self.uvarint()?;
        for _ in 0..n {
            self.uvarint()?;
            let size =
                usize::try_from(self.uvarint()?).map_err(|_| RecordFormatError::Truncated)?;
            self.take(size)?;
        }
        Ok(())
    }
    fn topic_partitions(&mut self) -> Result<TopicPartitions, RecordFormatError> {
        let mut out = TopicPartitions::new();
        for _ in 0..self.compact_len()?.unwrap_or(0) {
            let t = self.uuid()?;
            let ps = out.entry(t).or_default();
            for _ in 0..self.compact_len()?.unwrap_or(0) {
                ps.insert(self.i32()?);
            }
            self.skip_tags()?;
        }
        Ok(out)
    }
    fn bytes(&mut self) -> Result<Bytes, RecordFormatError> {
        let n = self.i32()?;
        if n < 0 {
            return Ok(Bytes::new());
        }
        Ok(Bytes::copy_from_slice(self.take(n as usize)?))
    }
}

/// Decodes one record of `__consumer_offsets`.
pub fn decode(
    key: Option<&[u8]>,
    value: Option<&[u8]>,
) -> Result<OffsetsRecord, RecordFormatError> {
    let mut k = Reader {
        buf: key.ok_or(RecordFormatError::NoKey)?,
    };
    match k.i16()? {
        0 | 1 => {
            let group = k.str()?;
            let topic = k.str()?;
            let partition = k.i32()?;
            let value = value.map(decode_offset_value).transpose()?;
            Ok(OffsetsRecord::Offset {
                group,
                topic,
                partition,
                value,
            })
        }
        2 => {
            let group = k.str()?;
            let value = value.map(decode_group_value).transpose()?;
            Ok(OffsetsRecord::Group { group, value })
        }
        t @ 3..=8 => {
            let group = k.str()?;
            let key = match t {
                3 => ConsumerKey::Metadata,
                4 => ConsumerKey::PartitionMetadata,
                5 => ConsumerKey::Member(k.str()?),
                6 => ConsumerKey::TargetMetadata,
                7 => ConsumerKey::TargetMember(k.str()?),
                _ => ConsumerKey::CurrentAssignment(k.str()?),
            };
            let value = value.map(|v| decode_consumer_value(&key, v)).transpose()?;
            Ok(OffsetsRecord::Consumer { group, key, value })
        }
        v => Err(RecordFormatError::KeyVersion(v)),
    }
}

fn decode_offset_value(buf: &[u8]) -> Result<OffsetValue, RecordFormatError> {
    let mut r = Reader { buf };
    let version = r.i16()?;
    let offset = r.i64()?;
    let leader_epoch = if version >= 3 { r.i32()? } else { -1 };
    let metadata = match version {
        0..=3 => r.str()?,
        v => return Err(RecordFormatError::ValueVersion(v)),
    };
    let commit_timestamp = r.i64()?;
    Ok(OffsetValue {
        offset,
        leader_epoch,
        metadata,
        commit_timestamp,
    })
}

fn decode_consumer_value(
    key: &ConsumerKey,
    buf: &[u8],
) -> Result<ConsumerValue, RecordFormatError> {
    let mut r = Reader { buf };
    let version = r.i16()?;
    if version != 0 {
        return Err(RecordFormatError::ValueVersion(version));
    }
    let v = match key {
        ConsumerKey::Metadata => {
            let epoch = r.i32()?;
            // The tagged section: MetadataHash is tag 0; other tags (4.1's
            // successors add some) are skipped.
            let mut metadata_hash = 0;
            for _ in 0..r.uvarint()? {
                let tag = r.uvarint()?;
                let size =
                    usize::try_from(r.uvarint()?).map_err(|_| RecordFormatError::Truncated)?;
                if tag == 0 && size == 8 {
                    metadata_hash = r.i64()?;
                } else {
                    r.take(size)?;
                }
            }
            return Ok(ConsumerValue::Metadata {
                epoch,
                metadata_hash,
            });
        }
        ConsumerKey::PartitionMetadata => {
            // Topics (written by older Kafkas) are not kept: only the
            // record's existence matters, so they are not parsed.
            if r.compact_len()? == Some(0) {
                r.skip_tags()?;
            }
            return Ok(ConsumerValue::PartitionMetadata);
        }
        ConsumerKey::Member(_) => {
            let instance_id = r.compact_nullable_str()?;
            let rack_id = r.compact_nullable_str()?;
            let client_id = r.compact_str()?;
            let client_host = r.compact_str()?;
            let mut subscribed_topic_names = Vec::new();
            for _ in 0..r.compact_len()?.unwrap_or(0) {
                subscribed_topic_names.push(r.compact_str()?);
            }
            let subscribed_topic_regex = r.compact_nullable_str()?;
            let rebalance_timeout_ms = r.i32()?;
            let server_assignor = r.compact_nullable_str()?;
            ConsumerValue::Member(ConsumerMemberValue {
                instance_id,
                rack_id,
                client_id,
                client_host,
                subscribed_topic_names,
                subscribed_topic_regex,
                rebalance_timeout_ms,
                server_assignor,
            })
        }
        ConsumerKey::TargetMetadata => ConsumerValue::TargetMetadata {
            assignment_epoch: r.i32()?,
        },
        ConsumerKey::TargetMember(_) => ConsumerValue::TargetMember(r.topic_partitions()?),
        ConsumerKey::CurrentAssignment(_) => {
            let member_epoch = r.i32()?;
            let previous_member_epoch = r.i32()?;
            let state = r.take(1)?[0] as i8;
            let assigned = r.topic_partitions()?;
            let pending_revocation = r.topic_partitions()?;
            ConsumerValue::CurrentAssignment(CurrentAssignmentValue {
                member_epoch,
                previous_member_epoch,
                state,
                assigned,
                pending_revocation,
            })
        }
    };
    r.skip_tags()?;
    Ok(v)
}

fn decode_group_value(buf: &[u8]) -> Result<GroupValue, RecordFormatError> {
    let mut r = Reader { buf };
    let version = r.i16()?;
    if !(0..=3).contains(&version) {
        return Err(RecordFormatError::ValueVersion(version));
    }
    let protocol_type = r.str()?;
    let generation = r.i32()?;
    let protocol = r.nullable_str()?;
    let leader = r.nullable_str()?;
    let state_timestamp = if version >= 2 { r.i64()? } else { -1 };
    let n = r.i32()?;
    let mut members = Vec::new();
    for _ in 0..n.max(0) {
        let member_id = r.str()?;
        let instance_id = if version >= 3 {
            r.nullable_str()?
        } else {
            None
        };
        let client_id = r.str()?;
        let client_host = r.str()?;
        let rebalance_timeout = if version >= 1 { r.i32()? } else { -1 };
        let session_timeout = r.i32()?;
        let subscription = r.bytes()?;
        let assignment = r.bytes()?;
        members.push(MemberValue {
            member_id,
            instance_id,
            client_id,
            client_host,
            rebalance_timeout,
            session_timeout,
            subscription,
            assignment,
        });
    }
    Ok(GroupValue {
        protocol_type,
        generation,
        protocol,
        leader,
        state_timestamp,
        members,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_round_trip() {
        let v = OffsetValue {
            offset: 42,
            leader_epoch: 3,
            metadata: "m".into(),
            commit_timestamp: 1000,
        };
        let k = offset_key("g", "t", 7);
        let r = decode(Some(&k), Some(&offset_value(&v))).unwrap();
        assert_eq!(
            r,
            OffsetsRecord::Offset {
                group: "g".into(),
                topic: "t".into(),
                partition: 7,
                value: Some(v)
            }
        );
        // Kafka's bytes for key ("g", "t", 7).
        assert_eq!(&k[..], &[0, 1, 0, 1, b'g', 0, 1, b't', 0, 0, 0, 7]);
        let tomb = decode(Some(&k), None).unwrap();
        assert!(matches!(tomb, OffsetsRecord::Offset { value: None, .. }));
    }

    #[test]
    fn consumer_records_round_trip_in_kafkas_bytes() {
        let t = Uuid::from_u128(0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10);
        let tp: TopicPartitions = [(t, BTreeSet::from([0, 2]))].into();
        let cases = vec![
            (
                ConsumerKey::Metadata,
                ConsumerValue::Metadata {
                    epoch: 7,
                    metadata_hash: 0,
                },
            ),
            (
                ConsumerKey::Metadata,
                ConsumerValue::Metadata {
                    epoch: 7,
                    metadata_hash: -0x0102_0304_0506_0708,
                },
            ),
            (
                ConsumerKey::PartitionMetadata,
                ConsumerValue::PartitionMetadata,
            ),
            (
                ConsumerKey::Member("m".into()),
                ConsumerValue::Member(ConsumerMemberValue {
                    instance_id: None,
                    rack_id: Some("r".into()),
                    client_id: "c".into(),
                    client_host: "/h".into(),
                    subscribed_topic_names: vec!["a".into(), "b".into()],
                    subscribed_topic_regex: None,
                    rebalance_timeout_ms: 300_000,
                    server_assignor: Some("uniform".into()),
                }),
            ),
            (
                ConsumerKey::TargetMetadata,
                ConsumerValue::TargetMetadata {
                    assignment_epoch: 6,
                },
            ),
            (
                ConsumerKey::TargetMember("m".into()),
                ConsumerValue::TargetMember(tp.clone()),
            ),
            (
                ConsumerKey::CurrentAssignment("m".into()),
                ConsumerValue::CurrentAssignment(CurrentAssignmentValue {
                    member_epoch: 6,
                    previous_member_epoch: 5,
                    state: 1,
                    assigned: tp.clone(),
                    pending_revocation: TopicPartitions::new(),
                }),
            ),
        ];
        for (key, value) in cases {
            let k = consumer_key("g", &key);
            let v = consumer_value(&value);
            assert_eq!(
                decode(Some(&k), Some(&v)).unwrap(),
                OffsetsRecord::Consumer {
                    group: "g".into(),
                    key: key.clone(),
                    value: Some(value)
                }
            );
            assert_eq!(
                decode(Some(&k), None).unwrap(),
                OffsetsRecord::Consumer {
                    group: "g".into(),
                    key,
                    value: None
                }
            );
            for cut in 0..v.len() {
                assert!(decode(Some(&k), Some(&v[..cut])).is_err(), "cut {cut}");
            }
        }
        // Kafka's bytes: key type 8, group "g", member "m".
        let k = consumer_key("g", &ConsumerKey::CurrentAssignment("m".into()));
        assert_eq!(&k[..], &[0, 8, 0, 1, b'g', 0, 1, b'm']);
        // Value: version 0, epoch 7, empty tagged fields (a MetadataHash
        // of 0 is Kafka's default, so not written).
        let v = consumer_value(&ConsumerValue::Metadata {
            epoch: 7,
            metadata_hash: 0,
        });
        assert_eq!(&v[..], &[0, 0, 0, 0, 0, 7, 0]);
        // With a MetadataHash: one tagged field, tag 0, 8 bytes.
        let v = consumer_value(&ConsumerValue::Metadata {
            epoch: 7,
            metadata_hash: 0x0102_0304_0506_0708,
        });
        assert_eq!(&v[..], &[0, 0, 0, 0, 0, 7, 1, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8]);
        // Target member: one topic (compact array len 2), uuid, 2 partitions (len 3).
        let v = consumer_value(&ConsumerValue::TargetMember(tp));
        let mut want = vec![0, 0, 2];
        want.extend_from_slice(t.as_bytes());
        want.extend_from_slice(&[3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0]);
        assert_eq!(&v[..], &want[..]);
        // Kafka 4.1's MetadataHash (tag 0) is read, and a later tagged
        // field (KIP-1282's CreationTimeMs, tag 1) is skipped.
        let tagged = [
            0, 0, 0, 0, 0, 7, 2, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 8, 0, 0, 0, 0, 0, 0, 0, 9,
        ];
        let k = consumer_key("g", &ConsumerKey::Metadata);
        assert!(matches!(
            decode(Some(&k), Some(&tagged)).unwrap(),
            OffsetsRecord::Consumer {
                value: Some(ConsumerValue::Metadata {
                    epoch: 7,
                    metadata_hash: 0x0102_0304_0506_0708
                }),
                ..
            }
        ));
        // A record written before the field (Kafka < 4.1, Tidemark before
        // it) decodes with the hash unknown (0).
        assert!(matches!(
            decode(Some(&k), Some(&[0, 0, 0, 0, 0, 7, 0])).unwrap(),
            OffsetsRecord::Consumer {
                value: Some(ConsumerValue::Metadata {
                    epoch: 7,
                    metadata_hash: 0
                }),
                ..
            }
        ));
        // A huge compact length is refused, not allocated.
        let k = consumer_key("g", &ConsumerKey::TargetMember("m".into()));
        assert!(decode(Some(&k), Some(&[0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f])).is_err());
    }

    #[test]
    fn group_round_trip_and_bad_input() {
        let v = GroupValue {
            protocol_type: "consumer".into(),
            generation: 5,
            protocol: Some("range".into()),
            leader: Some("a".into()),
            state_timestamp: 9,
            members: vec![MemberValue {
                member_id: "a".into(),
                instance_id: Some("i".into()),
                client_id: "c".into(),
                client_host: "/h".into(),
                rebalance_timeout: 1,
                session_timeout: 2,
                subscription: Bytes::from_static(b"s"),
                assignment: Bytes::from_static(b"x"),
            }],
        };
        let k = group_key("grp");
        let bytes = group_value(&v);
        assert_eq!(
            decode(Some(&k), Some(&bytes)).unwrap(),
            OffsetsRecord::Group {
                group: "grp".into(),
                value: Some(v)
            }
        );
        for cut in 0..bytes.len() {
            assert!(decode(Some(&k), Some(&bytes[..cut])).is_err());
        }
        assert!(decode(None, None).is_err());
        assert!(decode(Some(&[0, 9]), None).is_err());
    }
}
