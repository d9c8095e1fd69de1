//! The records of `__share_group_state`, in the byte layout of Kafka's
//! share coordinator (`ShareSnapshotKey/Value.json`,
//! `ShareUpdateKey/Value.json` of Apache Kafka 4.1/4.2, serialized by
//! `CoordinatorRecordSerde`), so the topic reads the same as Kafka's:
//!
//! | part | layout |
//! |---|---|
//! | key | `int16 record type (0 snapshot, 1 update), string group_id, uuid topic_id (16 bytes), int32 partition`: not flexible (int16-length string, no tagged fields) |
//! | snapshot value | `int16 version=0, int32 snapshot_epoch, int32 state_epoch, int32 leader_epoch, int64 start_offset, int64 create_timestamp_ms, int64 write_timestamp_ms, [batch] state_batches, tagged fields (0: int32 delivery_complete_count, default -1; 10000: Tidemark's dead-letter fence, absent by default)` |
//! | update value | `int16 version=0, int32 snapshot_epoch, int32 leader_epoch, int64 start_offset (-1: unchanged), [batch] state_batches, tagged fields (0: int32 delivery_complete_count, default -1)` |
//! | batch | `int64 first_offset, int64 last_offset, int8 delivery_state, int16 delivery_count, tagged fields` |
//!
//! Both values are flexible from version 0 (the only version): the batch
//! array is a compact array (unsigned varint count + 1), and every struct
//! ends with its tagged fields (unsigned varint count, then tag, size,
//! bytes each). Delivery-complete count (KIP-1226, Kafka 4.2) is tagged,
//! written only when it is not -1, so a 4.1 reader skips it.
//!
//! Tidemark adds one tagged field of its own to the snapshot, tag
//! [`DLQ_FENCE_TAG`] (far above Kafka's, so a future Kafka tag cannot
//! collide): the [`DlqFence`] of the share partition's dead letters,
//! `uuid topic_id, int32 partition, int64 offset` (28 bytes), written only
//! when there is one. A Kafka broker reading the topic skips it, as it
//! skips every unknown tag.
//!
//! A null value is a tombstone: the share partition's state was deleted.
//! A key of another record type is [`ShareRecordError::UnknownType`], which
//! a replay skips, as Kafka's loader does.
//!
//! A share partition's state lives in partition [`partition_for`] of the
//! topic: `Utils.abs("groupId:topicId:partition".hashCode()) % partitions`
//! (`SharePartitionKey.asCoordinatorKey`), the topic id in Kafka's string
//! form (URL-safe base64 of its 16 bytes, no padding).

// Used by the share-partition leader and coordinator (next commits).
#![allow(dead_code)]

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::{Buf, BufMut, Bytes, BytesMut};
use uuid::Uuid;

use crate::groups::java_hash;

pub const STATE_TOPIC: &str = "__share_group_state";

/// Record type (the key's int16 prefix) of a [`ShareSnapshot`].
pub const SNAPSHOT_TYPE: i16 = 0;
/// Record type (the key's int16 prefix) of a [`ShareUpdate`].
pub const UPDATE_TYPE: i16 = 1;
/// The value version written (the only one Kafka has).
pub const VALUE_VERSION: i16 = 0;

/// `delivery_state` values a state batch may hold (Kafka's `RecordState`;
/// 1 Acquired and 3 Archiving are in-memory states, never persisted).
pub const AVAILABLE: i8 = 0;
pub const ACKNOWLEDGED: i8 = 2;
pub const ARCHIVED: i8 = 4;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ShareRecordError {
    /// A record type this broker does not know: skip the record.
    #[error("unknown __share_group_state record type {0}")]
    UnknownType(i16),
    #[error("bad __share_group_state record: {0}")]
    Bad(&'static str),
}

/// Which share partition a record is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShareKey {
    pub group_id: String,
    pub topic_id: Uuid,
    pub partition: i32,
}

/// The delivery state of the offsets `first_offset..=last_offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateBatch {
    pub first_offset: i64,
    pub last_offset: i64,
    pub delivery_state: i8,
    pub delivery_count: i16,
}

/// The tag of [`DlqFence`] in a snapshot value (Tidemark's own).
pub const DLQ_FENCE_TAG: u32 = 10_000;
/// Its encoded size: uuid, int32, int64.
const DLQ_FENCE_LEN: usize = 16 + 4 + 8;

/// Where a share partition's dead letters not yet reflected in its state
/// may be: every dead letter written for it whose archive the stored state
/// does not hold lies in partition `partition` of topic `topic_id` at or
/// after `offset` (see [`super::leader`], "Dead-letter topic").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DlqFence {
    pub topic_id: Uuid,
    pub partition: i32,
    pub offset: i64,
}

impl DlqFence {
    /// The 28 bytes of the tagged field.
    pub fn encode(&self) -> Bytes {
        let mut b = BytesMut::with_capacity(DLQ_FENCE_LEN);
        b.put_slice(self.topic_id.as_bytes());
        b.put_i32(self.partition);
        b.put_i64(self.offset);
        b.freeze()
    }

    pub fn decode(mut buf: &[u8]) -> Result<DlqFence, ShareRecordError> {
        if buf.len() != DLQ_FENCE_LEN {
            return Err(ShareRecordError::Bad("bad dead-letter fence size"));
        }
        let mut id = [0u8; 16];
        buf.copy_to_slice(&mut id);
        Ok(DlqFence {
            topic_id: Uuid::from_bytes(id),
            partition: buf.get_i32(),
            offset: buf.get_i64(),
        })
    }
}

/// The whole state of a share partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareSnapshot {
    pub snapshot_epoch: i32,
    pub state_epoch: i32,
    pub leader_epoch: i32,
    pub start_offset: i64,
    /// Offsets at or after `start_offset` whose delivery is complete; -1
    /// when unknown (Kafka 4.2, tagged).
    pub delivery_complete_count: i32,
    pub create_timestamp_ms: i64,
    pub write_timestamp_ms: i64,
    pub state_batches: Vec<StateBatch>,
    /// Tidemark's dead-letter fence (tag [`DLQ_FENCE_TAG`]).
    pub dlq_fence: Option<DlqFence>,
}

/// A change to the last snapshot (same `snapshot_epoch`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareUpdate {
    pub snapshot_epoch: i32,
    pub leader_epoch: i32,
    /// -1: the start offset is not being updated.
    pub start_offset: i64,
    /// -1 when unknown (Kafka 4.2, tagged).
    pub delivery_complete_count: i32,
    pub state_batches: Vec<StateBatch>,
}

/// One decoded record; a `None` value is a tombstone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareStateRecord {
    Snapshot(ShareKey, Option<ShareSnapshot>),
    Update(ShareKey, Option<ShareUpdate>),
}

/// Kafka's `SharePartitionKey.asCoordinatorKey()`:
/// `"groupId:topicId:partition"`, the topic id as `Uuid.toString()`.
pub fn coordinator_key(key: &ShareKey) -> String {
    format!(
        "{}:{}:{}",
        key.group_id,
        URL_SAFE_NO_PAD.encode(key.topic_id.as_bytes()),
        key.partition
    )
}

/// The `__share_group_state` partition of `key`
/// (`ShareCoordinatorService.partitionFor`; `Utils.abs` maps `i32::MIN`
/// to 0).
pub fn partition_for(key: &ShareKey, partitions: i32) -> i32 {
    let h = java_hash(&coordinator_key(key));
    let abs = if h == i32::MIN { 0 } else { h.abs() };
    abs % partitions.max(1)
}

fn put_key(record_type: i16, key: &ShareKey) -> Bytes {
    let g = key.group_id.as_bytes();
    debug_assert!(g.len() <= i16::MAX as usize, "group id too long");
    let mut b = BytesMut::with_capacity(2 + 2 + g.len() + 16 + 4);
    b.put_i16(record_type);
    b.put_i16(g.len() as i16);
    b.put_slice(g);
    b.put_slice(key.topic_id.as_bytes());
    b.put_i32(key.partition);
    b.freeze()
}

pub fn snapshot_key(key: &ShareKey) -> Bytes {
    put_key(SNAPSHOT_TYPE, key)
}

pub fn update_key(key: &ShareKey) -> Bytes {
    put_key(UPDATE_TYPE, key)
}

fn put_uvarint(b: &mut BytesMut, mut v: u32) {
    while v >= 0x80 {
        b.put_u8((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    b.put_u8(v as u8);
}

fn put_batches(b: &mut BytesMut, batches: &[StateBatch]) {
    put_uvarint(b, batches.len() as u32 + 1);
    for s in batches {
        b.put_i64(s.first_offset);
        b.put_i64(s.last_offset);
        b.put_i8(s.delivery_state);
        b.put_i16(s.delivery_count);
        b.put_u8(0); // no tagged fields
    }
}

/// The top-level tagged fields, in tag order: tag 0 only when not the
/// default -1, the dead-letter fence only when there is one.
fn put_top_tags(b: &mut BytesMut, count: i32, fence: Option<&DlqFence>) {
    let n = u32::from(count != -1) + u32::from(fence.is_some());
    put_uvarint(b, n);
    if count != -1 {
        b.put_u8(0); // tag 0
        b.put_u8(4); // size
        b.put_i32(count);
    }
    if let Some(f) = fence {
        put_uvarint(b, DLQ_FENCE_TAG);
        put_uvarint(b, DLQ_FENCE_LEN as u32);
        b.put_slice(&f.encode());
    }
}

pub fn snapshot_value(v: &ShareSnapshot) -> Bytes {
    let mut b = BytesMut::with_capacity(48 + 8 + v.state_batches.len() * 20);
    b.put_i16(VALUE_VERSION);
    b.put_i32(v.snapshot_epoch);
    b.put_i32(v.state_epoch);
    b.put_i32(v.leader_epoch);
    b.put_i64(v.start_offset);
    b.put_i64(v.create_timestamp_ms);
    b.put_i64(v.write_timestamp_ms);
    put_batches(&mut b, &v.state_batches);
    put_top_tags(&mut b, v.delivery_complete_count, v.dlq_fence.as_ref());
    b.freeze()
}

pub fn update_value(v: &ShareUpdate) -> Bytes {
    let mut b = BytesMut::with_capacity(24 + 8 + v.state_batches.len() * 20);
    b.put_i16(VALUE_VERSION);
    b.put_i32(v.snapshot_epoch);
    b.put_i32(v.leader_epoch);
    b.put_i64(v.start_offset);
    put_batches(&mut b, &v.state_batches);
    put_top_tags(&mut b, v.delivery_complete_count, None);
    b.freeze()
}

/// Reads what a field needs, or fails (never panics on short input).
struct Reader<'a> {
    buf: &'a [u8],
}

impl Reader<'_> {
    fn need(&self, n: usize) -> Result<(), ShareRecordError> {
        if self.buf.remaining() < n {
            Err(ShareRecordError::Bad("truncated"))
        } else {
            Ok(())
        }
    }
    fn i8(&mut self) -> Result<i8, ShareRecordError> {
        self.need(1)?;
        Ok(self.buf.get_i8())
    }
    fn i16(&mut self) -> Result<i16, ShareRecordError> {
        self.need(2)?;
        Ok(self.buf.get_i16())
    }
    fn i32(&mut self) -> Result<i32, ShareRecordError> {
        self.need(4)?;
        Ok(self.buf.get_i32())
    }
    fn i64(&mut self) -> Result<i64, ShareRecordError> {
        self.need(8)?;
        Ok(self.buf.get_i64())
    }
    /// Kafka's unsigned varint: at most 5 bytes, 32 bits.
    fn uvarint(&mut self) -> Result<u32, ShareRecordError> {
        let mut v = 0u64;
        for shift in (0..35).step_by(7) {
            let b = self.i8()? as u8;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return u32::try_from(v).map_err(|_| ShareRecordError::Bad("varint too large"));
            }
        }
        Err(ShareRecordError::Bad("varint too long"))
    }
    /// A non-nullable, non-flexible string (int16 length).
    fn string(&mut self) -> Result<String, ShareRecordError> {
        let n = self.i16()?;
        if n < 0 {
            return Err(ShareRecordError::Bad("null string"));
        }
        let n = n as usize;
        self.need(n)?;
        let s = std::str::from_utf8(&self.buf[..n])
            .map_err(|_| ShareRecordError::Bad("string is not UTF-8"))?
            .to_string();
        self.buf.advance(n);
        Ok(s)
    }
    fn uuid(&mut self) -> Result<Uuid, ShareRecordError> {
        self.need(16)?;
        let mut id = [0u8; 16];
        self.buf.copy_to_slice(&mut id);
        Ok(Uuid::from_bytes(id))
    }
    /// Skips a struct's tagged fields.
    fn skip_tags(&mut self) -> Result<(), ShareRecordError> {
        let n = self.uvarint()?;
        for _ in 0..n {
            let _tag = self.uvarint()?;
            let size = self.uvarint()? as usize;
            self.need(size)?;
            self.buf.advance(size);
        }
        Ok(())
    }
    /// The top-level tagged fields of either value: delivery-complete
    /// count (tag 0), -1 when absent, and the dead-letter fence; other
    /// tags are skipped.
    fn top_tags(&mut self) -> Result<(i32, Option<DlqFence>), ShareRecordError> {
        let mut count = -1;
        let mut fence = None;
        let n = self.uvarint()?;
        for _ in 0..n {
            let tag = self.uvarint()?;
            let size = self.uvarint()? as usize;
            self.need(size)?;
            if tag == 0 {
                if size != 4 {
                    return Err(ShareRecordError::Bad("bad delivery complete count size"));
                }
                count = self.buf.get_i32();
            } else if tag == DLQ_FENCE_TAG {
                fence = Some(DlqFence::decode(&self.buf[..size])?);
                self.buf.advance(size);
            } else {
                self.buf.advance(size);
            }
        }
        Ok((count, fence))
    }
    /// A compact, non-nullable array of state batches.
    fn batches(&mut self) -> Result<Vec<StateBatch>, ShareRecordError> {
        let n = self.uvarint()?;
        if n == 0 {
            return Err(ShareRecordError::Bad("null state batches"));
        }
        let n = (n - 1) as usize;
        // A batch takes 20 bytes at least: the count is never larger than
        // what is left can hold.
        if n > self.buf.remaining() / 20 {
            return Err(ShareRecordError::Bad("truncated"));
        }
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let first_offset = self.i64()?;
            let last_offset = self.i64()?;
            let delivery_state = self.i8()?;
            let delivery_count = self.i16()?;
            self.skip_tags()?;
            out.push(StateBatch {
                first_offset,
                last_offset,
                delivery_state,
                delivery_count,
            });
        }
        Ok(out)
    }
    fn value_version(&mut self) -> Result<(), ShareRecordError> {
        if self.i16()? != VALUE_VERSION {
            return Err(ShareRecordError::Bad("unknown value version"));
        }
        Ok(())
    }
}

fn decode_snapshot(buf: &[u8]) -> Result<ShareSnapshot, ShareRecordError> {
    let mut r = Reader { buf };
    r.value_version()?;
    let snapshot_epoch = r.i32()?;
    let state_epoch = r.i32()?;
    let leader_epoch = r.i32()?;
    let start_offset = r.i64()?;
    let create_timestamp_ms = r.i64()?;
    let write_timestamp_ms = r.i64()?;
    let state_batches = r.batches()?;
    let (delivery_complete_count, dlq_fence) = r.top_tags()?;
    Ok(ShareSnapshot {
        snapshot_epoch,
        state_epoch,
        leader_epoch,
        start_offset,
        delivery_complete_count,
        create_timestamp_ms,
        write_timestamp_ms,
        state_batches,
        dlq_fence,
    })
}

fn decode_update(buf: &[u8]) -> Result<ShareUpdate, ShareRecordError> {
    let mut r = Reader { buf };
    r.value_version()?;
    let snapshot_epoch = r.i32()?;
    let leader_epoch = r.i32()?;
    let start_offset = r.i64()?;
    let state_batches = r.batches()?;
    let (delivery_complete_count, _) = r.top_tags()?;
    Ok(ShareUpdate {
        snapshot_epoch,
        leader_epoch,
        start_offset,
        delivery_complete_count,
        state_batches,
    })
}

/// Decodes one record of the topic. A record type other than snapshot
/// and update is [`ShareRecordError::UnknownType`] (its value unread).
pub fn decode(key: Bytes, value: Option<Bytes>) -> Result<ShareStateRecord, ShareRecordError> {
    let mut r = Reader { buf: &key };
    let record_type = r.i16()?;
    if record_type != SNAPSHOT_TYPE && record_type != UPDATE_TYPE {
        return Err(ShareRecordError::UnknownType(record_type));
    }
    let group_id = r.string()?;
    let topic_id = r.uuid()?;
    let partition = r.i32()?;
    let k = ShareKey {
        group_id,
        topic_id,
        partition,
    };
    Ok(if record_type == SNAPSHOT_TYPE {
        ShareStateRecord::Snapshot(k, value.as_deref().map(decode_snapshot).transpose()?)
    } else {
        ShareStateRecord::Update(k, value.as_deref().map(decode_update).transpose()?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> ShareKey {
        ShareKey {
            group_id: "g".into(),
            topic_id: Uuid::from_bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]),
            partition: 3,
        }
    }

    fn snapshot() -> ShareSnapshot {
        ShareSnapshot {
            snapshot_epoch: 1,
            state_epoch: 2,
            leader_epoch: 3,
            start_offset: 10,
            delivery_complete_count: -1,
            create_timestamp_ms: 1000,
            write_timestamp_ms: 2000,
            state_batches: vec![StateBatch {
                first_offset: 10,
                last_offset: 14,
                delivery_state: ACKNOWLEDGED,
                delivery_count: 1,
            }],
            dlq_fence: None,
        }
    }

    fn update() -> ShareUpdate {
        ShareUpdate {
            snapshot_epoch: 1,
            leader_epoch: 3,
            start_offset: -1,
            delivery_complete_count: 5,
            state_batches: vec![],
        }
    }

    #[test]
    fn round_trips() {
        let k = key();
        let mut s = snapshot();
        assert_eq!(
            decode(snapshot_key(&k), Some(snapshot_value(&s))).unwrap(),
            ShareStateRecord::Snapshot(k.clone(), Some(s.clone()))
        );
        s.delivery_complete_count = 7;
        s.state_batches.push(StateBatch {
            first_offset: 15,
            last_offset: 20,
            delivery_state: ARCHIVED,
            delivery_count: 5,
        });
        assert_eq!(
            decode(snapshot_key(&k), Some(snapshot_value(&s))).unwrap(),
            ShareStateRecord::Snapshot(k.clone(), Some(s.clone()))
        );
        // The dead-letter fence, alone and after tag 0.
        s.dlq_fence = Some(DlqFence {
            topic_id: Uuid::from_bytes([9; 16]),
            partition: 2,
            offset: 1 << 40,
        });
        assert_eq!(
            decode(snapshot_key(&k), Some(snapshot_value(&s))).unwrap(),
            ShareStateRecord::Snapshot(k.clone(), Some(s.clone()))
        );
        s.delivery_complete_count = -1;
        assert_eq!(
            decode(snapshot_key(&k), Some(snapshot_value(&s))).unwrap(),
            ShareStateRecord::Snapshot(k.clone(), Some(s))
        );
        let mut u = update();
        assert_eq!(
            decode(update_key(&k), Some(update_value(&u))).unwrap(),
            ShareStateRecord::Update(k.clone(), Some(u.clone()))
        );
        u.delivery_complete_count = -1;
        u.state_batches.push(StateBatch {
            first_offset: 0,
            last_offset: 0,
            delivery_state: AVAILABLE,
            delivery_count: 2,
        });
        assert_eq!(
            decode(update_key(&k), Some(update_value(&u))).unwrap(),
            ShareStateRecord::Update(k.clone(), Some(u))
        );
        // Tombstones.
        assert_eq!(
            decode(snapshot_key(&k), None).unwrap(),
            ShareStateRecord::Snapshot(k.clone(), None)
        );
        assert_eq!(
            decode(update_key(&k), None).unwrap(),
            ShareStateRecord::Update(k, None)
        );
    }

    /// Written out from the JSON schemas, not from the encoder.
    #[test]
    fn kafka_layout() {
        #[rustfmt::skip]
        let key_bytes: &[u8] = &[
            0, 0,                   // record type 0: ShareSnapshot
            0, 1, b'g',             // GroupId: int16 length, bytes
            0, 1, 2, 3, 4, 5, 6, 7, // TopicId: 16 bytes
            8, 9, 10, 11, 12, 13, 14, 15,
            0, 0, 0, 3,             // Partition
        ];
        assert_eq!(&snapshot_key(&key())[..], key_bytes);
        let mut update_key_bytes = key_bytes.to_vec();
        update_key_bytes[1] = 1; // record type 1: ShareUpdate
        assert_eq!(&update_key(&key())[..], &update_key_bytes[..]);

        #[rustfmt::skip]
        let value_bytes: &[u8] = &[
            0, 0,                     // value version 0
            0, 0, 0, 1,               // SnapshotEpoch
            0, 0, 0, 2,               // StateEpoch
            0, 0, 0, 3,               // LeaderEpoch
            0, 0, 0, 0, 0, 0, 0, 10,  // StartOffset
            0, 0, 0, 0, 0, 0, 3, 232, // CreateTimestamp 1000
            0, 0, 0, 0, 0, 0, 7, 208, // WriteTimestamp 2000
            2,                        // StateBatches: compact array, 1 + 1
            0, 0, 0, 0, 0, 0, 0, 10,  //   FirstOffset
            0, 0, 0, 0, 0, 0, 0, 14,  //   LastOffset
            2,                        //   DeliveryState: acknowledged
            0, 1,                     //   DeliveryCount
            0,                        //   batch: no tagged fields
            0,                        // no tagged fields (count -1 omitted)
        ];
        assert_eq!(&snapshot_value(&snapshot())[..], value_bytes);
        assert_eq!(
            decode(
                Bytes::from_static(key_bytes),
                Some(Bytes::from_static(value_bytes))
            )
            .unwrap(),
            ShareStateRecord::Snapshot(key(), Some(snapshot()))
        );

        #[rustfmt::skip]
        let update_bytes: &[u8] = &[
            0, 0,                                           // value version 0
            0, 0, 0, 1,                                     // SnapshotEpoch
            0, 0, 0, 3,                                     // LeaderEpoch
            255, 255, 255, 255, 255, 255, 255, 255,         // StartOffset -1
            1,                                              // StateBatches: empty
            1, 0, 4, 0, 0, 0, 5,                            // 1 tag: 0, size 4, DeliveryCompleteCount 5
        ];
        assert_eq!(&update_value(&update())[..], update_bytes);
    }

    #[test]
    fn bad_input_is_an_error_never_a_panic() {
        let k = snapshot_key(&key());
        let mut s = snapshot();
        s.delivery_complete_count = 9;
        let v = snapshot_value(&s);
        for n in 0..k.len() {
            assert!(
                decode(k.slice(..n), Some(v.clone())).is_err(),
                "key cut at {n}"
            );
        }
        for n in 0..v.len() {
            assert!(
                decode(k.clone(), Some(v.slice(..n))).is_err(),
                "value cut at {n}"
            );
        }
        let uk = update_key(&key());
        let uv = update_value(&update());
        for n in 0..uv.len() {
            assert!(
                decode(uk.clone(), Some(uv.slice(..n))).is_err(),
                "update cut at {n}"
            );
        }
        // Unknown record type: its own error, so a replay can skip it.
        let mut other = k.to_vec();
        other[1] = 7;
        assert_eq!(
            decode(Bytes::from(other), Some(Bytes::from_static(b"junk"))),
            Err(ShareRecordError::UnknownType(7))
        );
        // Unknown value version, null string, huge array count, garbage.
        let mut v1 = v.to_vec();
        v1[1] = 1;
        assert!(decode(k.clone(), Some(Bytes::from(v1))).is_err());
        assert!(decode(Bytes::from_static(&[0, 0, 0xff, 0xff]), None).is_err());
        let mut huge = v[..38].to_vec();
        huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert!(decode(k.clone(), Some(Bytes::from(huge))).is_err());
        for seed in 0u32..2000 {
            let junk: Vec<u8> = (0..(seed % 64))
                .map(|i| (seed.wrapping_mul(2_654_435_761).wrapping_add(i * 40_503) >> 7) as u8)
                .collect();
            let _ = decode(k.clone(), Some(Bytes::from(junk.clone())));
            let _ = decode(uk.clone(), Some(Bytes::from(junk.clone())));
            let _ = decode(Bytes::from(junk), None);
        }
    }

    #[test]
    fn partition_for_matches_kafka() {
        let mut k = ShareKey {
            group_id: "my-share-group".into(),
            topic_id: key().topic_id,
            partition: 3,
        };
        // Uuid.toString(): URL-safe base64 of the 16 bytes, no padding.
        assert_eq!(
            coordinator_key(&k),
            "my-share-group:AAECAwQFBgcICQoLDA0ODw:3"
        );
        // Java's hashCode of s1 + s2 is
        // hash(s1) * 31^len(s2) + hash(s2) (mod 2^32):
        //   hash("my-share-group")             =  64_861_296
        //   hash(":AAECAwQFBgcICQoLDA0ODw:3")  = 379_089_409 (25 chars)
        //   31^25 mod 2^32                     =  31_019_807
        //   64_861_296 * 31_019_807 + 379_089_409 mod 2^32 = 3_538_000_785
        //   as int32: 3_538_000_785 - 2^32     = -756_966_511
        //   Utils.abs -> 756_966_511; % 50 = 11
        assert_eq!(java_hash("my-share-group"), 64_861_296);
        assert_eq!(java_hash(":AAECAwQFBgcICQoLDA0ODw:3"), 379_089_409);
        assert_eq!(java_hash(&coordinator_key(&k)), -756_966_511);
        assert_eq!(partition_for(&k, 50), 11);
        // A key whose hash is i32::MIN: Utils.abs makes it 0 (not a
        // panic, not a negative partition).
        k.group_id = "grp-!%#%46.".into();
        k.partition = 0;
        assert_eq!(java_hash(&coordinator_key(&k)), i32::MIN);
        assert_eq!(partition_for(&k, 50), 0);
        assert_eq!(partition_for(&k, 7), 0);
    }
}
