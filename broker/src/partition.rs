//! A partition replica on the shard that owns it: its log, its high
//! watermark, and the consumers waiting for new data.
//!
//! Single node: the replica is its partition's only voter, so a batch is
//! committed as soon as it is durable, and the high watermark is the log's
//! durable offset (DESIGN.md invariant 2: consumers never see past it).

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use bytes::{Bytes, BytesMut};
use kafka_protocol::ErrorCode;
use kafka_protocol::records::{RecordBatch, RecordBatches, legacy};
use tidemark_storage::{AppendInfo, Log, LogConfig, ReadResult, StorageError};
use uuid::Uuid;

use crate::notify::LocalNotify;

/// The folder of one partition's log.
pub fn log_dir(data_dir: &Path, topic: &str, topic_id: Uuid, index: i32) -> PathBuf {
    data_dir
        .join("logs")
        .join(format!("{topic}-{index}-{}", topic_id.simple()))
}

/// A partition replica.
pub struct Partition {
    pub topic: String,
    pub topic_id: Uuid,
    pub index: i32,
    pub log: Rc<Log>,
    /// The Raft term of this replica's leadership; the Kafka leader epoch.
    pub leader_epoch: i32,
    log_append_time: Cell<bool>,
    /// Woken when the high watermark moves.
    pub new_data: LocalNotify,
}

/// Why a produce to this partition failed, as Kafka reports it.
#[derive(Debug, Clone)]
pub struct ProduceError {
    pub code: ErrorCode,
    pub message: String,
}

fn produce_err(code: ErrorCode, message: impl Into<String>) -> ProduceError {
    ProduceError {
        code,
        message: message.into(),
    }
}

/// Maps a storage error to the Kafka error a client should see.
pub fn storage_error_code(e: &StorageError) -> ErrorCode {
    match e {
        StorageError::OffsetOutOfRange { .. } => ErrorCode::OffsetOutOfRange,
        StorageError::InvalidBatch(_) | StorageError::NonContiguous { .. } => {
            ErrorCode::CorruptMessage
        }
        StorageError::BatchTooLarge { .. } => ErrorCode::MessageTooLarge,
        _ => ErrorCode::KafkaStorageError,
    }
}

impl Partition {
    /// Opens (or creates) the replica's log, recovering it.
    pub async fn open(
        data_dir: &Path,
        topic: &str,
        topic_id: Uuid,
        index: i32,
        config: LogConfig,
        log_append_time: bool,
    ) -> Result<Partition, StorageError> {
        let dir = log_dir(data_dir, topic, topic_id, index);
        let log = Log::open(&dir, config).await?;
        Ok(Partition {
            topic: topic.to_string(),
            topic_id,
            index,
            log,
            leader_epoch: 0,
            log_append_time: Cell::new(log_append_time),
            new_data: LocalNotify::default(),
        })
    }

    /// The high watermark: the end of what is committed (durable).
    pub fn high_watermark(&self) -> i64 {
        self.log.durable_offset()
    }

    pub fn set_log_append_time(&self, on: bool) {
        self.log_append_time.set(on);
    }

    pub fn log_append_time_enabled(&self) -> bool {
        self.log_append_time.get()
    }

    /// Validates and appends the records of one Produce partition entry.
    /// Returns once the batch is durable (sync-before-ack) and the high
    /// watermark has moved past it. Returns the offsets and, for
    /// LogAppendTime topics, the time stamped on the batch.
    pub async fn append(&self, records: Bytes) -> Result<(AppendInfo, Option<i64>), ProduceError> {
        if let Some(magic) = legacy::peek_magic(&records)
            && let Some(code) = legacy::produce_error_code_for_magic(magic)
        {
            let code = ErrorCode::from_code(code).unwrap_or(ErrorCode::UnsupportedForMessageFormat);
            return Err(produce_err(
                code,
                format!("message format v{magic} is not supported; use v2"),
            ));
        }
        // Kafka accepts exactly one record batch per partition in a v2
        // produce request.
        let mut batches = RecordBatches::new(records.clone());
        let batch = match (batches.next(), batches.next()) {
            (Some(Ok(b)), None) => b,
            (Some(Ok(_)), Some(_)) => {
                return Err(produce_err(
                    ErrorCode::InvalidRecord,
                    "a produce request must carry exactly one record batch per partition",
                ));
            }
            (Some(Err(e)), _) => return Err(produce_err(ErrorCode::CorruptMessage, e.to_string())),
            (None, _) => return Err(produce_err(ErrorCode::CorruptMessage, "no record batch")),
        };
        validate_batch(&batch)?;
        let now = now_ms();
        let lat = self.log_append_time.get().then_some(now);
        let info = self
            .log
            .append(BytesMut::from(&records[..]), self.leader_epoch, lat)
            .await
            .map_err(|e| produce_err(storage_error_code(&e), e.to_string()))?;
        self.new_data.notify_all();
        Ok((info, lat))
    }

    /// Reads committed batches from `offset`, up to `max_bytes` (at least
    /// one batch when there is one).
    pub async fn read(&self, offset: i64, max_bytes: usize) -> Result<ReadResult, StorageError> {
        let hw = self.high_watermark();
        if offset == hw {
            return Ok(ReadResult {
                batches: Vec::new(),
                bytes: 0,
                next_offset: offset,
            });
        }
        self.log.read(offset, max_bytes, Some(hw)).await
    }
}

/// Checks a batch the way Kafka's LogValidator does before it is
/// appended: magic 2, a CRC that matches, a sane header, and, for
/// uncompressed batches, records that parse with contiguous offsets.
/// Compressed batches are not opened (records travel as bytes); their CRC
/// protects them.
fn validate_batch(batch: &RecordBatch) -> Result<(), ProduceError> {
    batch
        .verify_crc()
        .map_err(|e| produce_err(ErrorCode::CorruptMessage, e.to_string()))?;
    if batch.is_control() {
        return Err(produce_err(
            ErrorCode::InvalidRecord,
            "clients may not produce control batches",
        ));
    }
    let count = batch.records_count();
    if count <= 0 || batch.last_offset_delta() != count - 1 {
        return Err(produce_err(
            ErrorCode::InvalidRecord,
            format!(
                "batch declares {count} records and last offset delta {}",
                batch.last_offset_delta()
            ),
        ));
    }
    if batch.compression() == kafka_protocol::records::Compression::None {
        let records = batch
            .records()
            .map_err(|e| produce_err(ErrorCode::CorruptMessage, e.to_string()))?;
        let mut n = 0;
        for (i, r) in records.enumerate() {
            let r = r.map_err(|e| produce_err(ErrorCode::CorruptMessage, e.to_string()))?;
            if r.offset_delta() != i as i32 {
                return Err(produce_err(
                    ErrorCode::InvalidRecord,
                    "record offsets are not contiguous",
                ));
            }
            n += 1;
        }
        if n != count {
            return Err(produce_err(
                ErrorCode::InvalidRecord,
                format!("batch declares {count} records but holds {n}"),
            ));
        }
    }
    Ok(())
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
