//! Control records: the transaction markers (COMMIT / ABORT) a transaction
//! coordinator has partition leaders append when a transaction ends.
//!
//! A control batch has attribute bits 4 (transactional) and 5 (control)
//! set and holds one record whose key is `[version: i16 = 0][type: i16]`
//! and, for COMMIT and ABORT, whose value is
//! `[version: i16 = 0][coordinatorEpoch: i32]` (Kafka's
//! `EndTransactionMarker`). Consumers skip control records; they never
//! reach the application.

use bytes::{BufMut, Bytes, BytesMut};

use super::builder::{NewRecord, RecordBatchBuilder};
use super::error::RecordError;
use super::record::Record;

/// The type in a control record's key. Kafka also defines KRaft-internal
/// types (leader change, snapshots), which a data partition never holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControlRecordType {
    Abort,
    Commit,
    /// Any other type id (Kafka's `UNKNOWN` plus the KRaft types).
    Other(i16),
}

impl ControlRecordType {
    pub fn id(self) -> i16 {
        match self {
            ControlRecordType::Abort => 0,
            ControlRecordType::Commit => 1,
            ControlRecordType::Other(id) => id,
        }
    }

    /// Reads a control record key, as Kafka's `ControlRecordType.parse`:
    /// at least four bytes, a non-negative version, then the type.
    pub fn parse_key(key: &[u8]) -> Result<Self, RecordError> {
        let [v0, v1, t0, t1, ..] = *key else {
            return Err(RecordError::InvalidRecord("control record key too short"));
        };
        if i16::from_be_bytes([v0, v1]) < 0 {
            return Err(RecordError::InvalidRecord(
                "negative control record key version",
            ));
        }
        Ok(match i16::from_be_bytes([t0, t1]) {
            0 => ControlRecordType::Abort,
            1 => ControlRecordType::Commit,
            other => ControlRecordType::Other(other),
        })
    }
}

/// A COMMIT or ABORT marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndTxnMarker {
    pub commit: bool,
    pub coordinator_epoch: i32,
}

impl EndTxnMarker {
    fn control_type(self) -> ControlRecordType {
        if self.commit {
            ControlRecordType::Commit
        } else {
            ControlRecordType::Abort
        }
    }

    /// The marker as a record (key and value, version 0).
    pub fn to_record(self, timestamp: i64) -> NewRecord {
        let mut key = BytesMut::with_capacity(4);
        key.put_i16(0);
        key.put_i16(self.control_type().id());
        let mut value = BytesMut::with_capacity(6);
        value.put_i16(0);
        value.put_i32(self.coordinator_epoch);
        NewRecord {
            key: Some(key.freeze()),
            value: Some(value.freeze()),
            headers: Vec::new(),
            timestamp,
        }
    }

    /// Reads a marker from a control record.
    pub fn from_record(record: &Record) -> Result<Self, RecordError> {
        let key = record
            .key()
            .ok_or(RecordError::InvalidRecord("control record without a key"))?;
        let commit = match ControlRecordType::parse_key(key)? {
            ControlRecordType::Commit => true,
            ControlRecordType::Abort => false,
            ControlRecordType::Other(_) => {
                return Err(RecordError::InvalidRecord("not a transaction marker"));
            }
        };
        let value: &Bytes = record.value().ok_or(RecordError::InvalidRecord(
            "transaction marker without a value",
        ))?;
        let [v0, v1, e0, e1, e2, e3, ..] = **value else {
            return Err(RecordError::InvalidRecord(
                "transaction marker value too short",
            ));
        };
        if i16::from_be_bytes([v0, v1]) < 0 {
            return Err(RecordError::InvalidRecord(
                "negative transaction marker version",
            ));
        }
        Ok(EndTxnMarker {
            commit,
            coordinator_epoch: i32::from_be_bytes([e0, e1, e2, e3]),
        })
    }

    /// A builder for the marker's batch: transactional, control, one
    /// record, with the producer's id and epoch and no sequence.
    pub fn batch(
        self,
        producer_id: i64,
        producer_epoch: i16,
        timestamp: i64,
    ) -> RecordBatchBuilder {
        RecordBatchBuilder::new()
            .producer(producer_id, producer_epoch, -1)
            .transactional(true)
            .control(true)
            .record(self.to_record(timestamp))
    }
}
