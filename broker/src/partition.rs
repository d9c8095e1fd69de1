//! A partition replica on the shard that owns it: its log, its high
//! watermark, and the consumers waiting for new data.
//!
//! Single node: the replica is its partition's only voter, so a batch is
//! committed as soon as it is durable, and the high watermark is the log's
//! durable offset (DESIGN.md invariant 2: consumers never see past it).

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use bytes::{Bytes, BytesMut};
use kafka_protocol::ErrorCode;
use kafka_protocol::records::{RecordBatch, RecordBatches, legacy};
use tidemark_storage::{AppendInfo, Log, LogConfig, ReadResult, StorageError};
use uuid::Uuid;

use crate::notify::LocalNotify;
use crate::producer_state::{Check, ProducerState};

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
    /// Idempotent producers' sequence state.
    producers: RefCell<ProducerState>,
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
        let producers = RefCell::new(rebuild_producer_state(&log).await?);
        Ok(Partition {
            topic: topic.to_string(),
            topic_id,
            index,
            log,
            leader_epoch: 0,
            log_append_time: Cell::new(log_append_time),
            new_data: LocalNotify::default(),
            producers,
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
        // Idempotence: check and record the sequence before the append's
        // first await, so pipelined batches of one producer are checked
        // against each other in order. The base offset the log will
        // stamp is its end offset at this moment (nothing runs between).
        let pid = batch.producer_id();
        let (epoch, first_seq, count) = (
            batch.producer_epoch(),
            batch.base_sequence(),
            batch.records_count(),
        );
        if pid >= 0 {
            // The borrow ends before any await (a duplicate waits below).
            let duplicate = {
                let mut producers = self.producers.borrow_mut();
                match producers.check(pid, epoch, first_seq, count) {
                    Err(code) => {
                        return Err(produce_err(
                            code,
                            format!("producer {pid} epoch {epoch} sequence {first_seq} refused"),
                        ));
                    }
                    Ok(Check::Duplicate { base_offset }) => Some(base_offset),
                    Ok(Check::Append) => {
                        producers.record(pid, epoch, first_seq, count, self.log.log_end_offset());
                        None
                    }
                }
            };
            if let Some(base_offset) = duplicate {
                let info = AppendInfo {
                    base_offset,
                    last_offset: base_offset + count as i64 - 1,
                    log_start_offset: self.log.log_start_offset(),
                };
                // A duplicate is answered once the original is durable.
                self.wait_for_high_watermark(info.last_offset + 1).await;
                return Ok((info, None));
            }
        }
        let appended = self
            .log
            .append(BytesMut::from(&records[..]), self.leader_epoch, lat)
            .await;
        let info = match appended {
            Ok(info) => info,
            Err(e) => {
                if pid >= 0 {
                    self.producers.borrow_mut().forget_last(pid, first_seq);
                }
                return Err(produce_err(storage_error_code(&e), e.to_string()));
            }
        };
        self.new_data.notify_all();
        Ok((info, lat))
    }

    /// Waits until the high watermark reaches `offset` (bounded: a failed
    /// log stops waiting after 30 s).
    async fn wait_for_high_watermark(&self, offset: i64) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while self.high_watermark() < offset && std::time::Instant::now() < deadline {
            let n = self.new_data.notified();
            if self.high_watermark() >= offset {
                break;
            }
            let _ = monoio::time::timeout(std::time::Duration::from_millis(100), n).await;
        }
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

/// Rebuilds idempotent producers' state from the active segment (the
/// batches most likely to be retried after a restart).
async fn rebuild_producer_state(log: &Log) -> Result<ProducerState, StorageError> {
    let mut state = ProducerState::default();
    let mut offset = log.active_segment_base().max(log.log_start_offset());
    let end = log.log_end_offset();
    while offset < end {
        let r = log.read(offset, 1 << 20, None).await?;
        if r.batches.is_empty() {
            break;
        }
        for b in r.batches {
            let b = RecordBatch::new(b)?;
            if b.producer_id() >= 0 && !b.is_control() {
                state.record(
                    b.producer_id(),
                    b.producer_epoch(),
                    b.base_sequence(),
                    b.records_count(),
                    b.base_offset(),
                );
            }
        }
        offset = r.next_offset;
    }
    Ok(state)
}
