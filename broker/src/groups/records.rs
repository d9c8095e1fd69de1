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

use bytes::{BufMut, Bytes, BytesMut};

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
