//! Per-record produce validation, as Kafka's `LogValidator` does it
//! (KIP-467's per-record errors):
//!
//! - a record without a key on a compacted topic: INVALID_RECORD,
//!   "Compacted topic cannot accept message without key in topic
//!   partition <tp>.";
//! - on a CreateTime topic, a record whose timestamp is more than
//!   `message.timestamp.before.max.ms` before the broker's clock or more
//!   than `message.timestamp.after.max.ms` after it (KIP-937):
//!   INVALID_TIMESTAMP; a batch that claims LogAppendTime where the record
//!   is not checked as CreateTime: INVALID_TIMESTAMP (producers may not
//!   set it).
//!
//! Every record of the batch is checked and each failing one is listed by
//! its index in the batch; one failure refuses the whole batch (nothing
//! of it is appended). The partition's error is INVALID_TIMESTAMP if any
//! record has a timestamp error, else INVALID_RECORD, with Kafka's
//! `processRecordErrors` messages.
//!
//! Batches travel as bytes: an uncompressed batch is read in place (the
//! structural check reads its records anyway); a compressed one is
//! decompressed only when a record could fail: on a compacted topic, with
//! a finite `message.timestamp.before.max.ms` (record timestamps have no
//! lower bound in the batch header), or when the header's max timestamp
//! is past the `after` bound. So a compressed batch whose header
//! understates its records' timestamps is not caught by the `after`
//! bound alone (Kafka decompresses every compressed batch). A batch that
//! decompresses past `max_decompressed` bytes is not opened (accepted as
//! before, as compaction keeps such batches whole).

use kafka_protocol::ErrorCode;
use kafka_protocol::records::{
    NO_TIMESTAMP, RecordBatch, RecordError as CodecError, TimestampType,
};

/// One failing record of a batch (KIP-467's `BatchIndexAndErrorMessage`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    pub batch_index: i32,
    pub message: String,
}

/// What a topic's configs ask of each record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordRules {
    /// `cleanup.policy` contains `compact`: every record needs a key.
    pub compacted: bool,
    /// `message.timestamp.type=LogAppendTime`: timestamps are the
    /// broker's, not checked.
    pub log_append_time: bool,
    /// `message.timestamp.before.max.ms`.
    pub timestamp_before_max_ms: i64,
    /// `message.timestamp.after.max.ms`.
    pub timestamp_after_max_ms: i64,
}

impl RecordRules {
    /// Nothing to check (no compaction, no timestamp bounds).
    pub const NONE: RecordRules = RecordRules {
        compacted: false,
        log_append_time: false,
        timestamp_before_max_ms: i64::MAX,
        timestamp_after_max_ms: i64::MAX,
    };
}

/// A batch refused as a whole: the partition's error code and message and
/// the failing records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
    pub record_errors: Vec<RecordError>,
}

/// Kafka's `recordHasInvalidTimestamp` (Java's wrapping arithmetic).
fn timestamp_out_of_range(ts: i64, now: i64, before: i64, after: i64) -> bool {
    let diff = now.wrapping_sub(ts);
    diff > before || diff.wrapping_neg() > after
}

/// Whether the records of `batch` must be read to be checked (see the
/// module comment).
fn needs_records(batch: &RecordBatch, rules: &RecordRules, now: i64) -> bool {
    if rules.compacted {
        return true;
    }
    let lat_batch = batch.timestamp_type() == TimestampType::LogAppendTime;
    if rules.log_append_time {
        // Only a producer-set LogAppendTime is refused there.
        return lat_batch;
    }
    if lat_batch {
        // Its records' timestamp is the header's max timestamp.
        return true;
    }
    let (before, after) = (rules.timestamp_before_max_ms, rules.timestamp_after_max_ms);
    if before == i64::MAX && after == i64::MAX {
        return false;
    }
    if batch.compression() == kafka_protocol::records::Compression::None {
        return true;
    }
    before != i64::MAX || timestamp_out_of_range(batch.max_timestamp(), now, i64::MAX, after)
}

/// Checks every record of `batch` (one produce entry of topic partition
/// `tp`, "topic-partition" as Kafka prints it) against `rules` at broker
/// time `now`: refused with the failing records listed, or, when a record
/// cannot be read, CORRUPT_MESSAGE without record errors.
pub fn validate_records(
    batch: &RecordBatch,
    rules: &RecordRules,
    tp: &dyn std::fmt::Display,
    now: i64,
    max_decompressed: usize,
) -> Result<(), Refusal> {
    if !needs_records(batch, rules, now) {
        return Ok(());
    }
    let records = match batch.decompressed_records(max_decompressed) {
        Ok(r) => r,
        Err(CodecError::DecompressedTooLarge { .. }) => return Ok(()),
        Err(e) => {
            return Err(Refusal {
                code: ErrorCode::CorruptMessage,
                message: e.to_string(),
                record_errors: Vec::new(),
            });
        }
    };
    let lat_batch = batch.timestamp_type() == TimestampType::LogAppendTime;
    let (before, after) = (rules.timestamp_before_max_ms, rules.timestamp_after_max_ms);
    let mut errors = Vec::new();
    let mut timestamp_error = false;
    for (i, r) in records.enumerate() {
        let r = r.map_err(|e| Refusal {
            code: ErrorCode::CorruptMessage,
            message: e.to_string(),
            record_errors: Vec::new(),
        })?;
        let batch_index = i as i32;
        if rules.compacted && r.key().is_none() {
            errors.push(RecordError {
                batch_index,
                message: format!(
                    "Compacted topic cannot accept message without key in topic partition {tp}."
                ),
            });
            continue;
        }
        let ts = r.timestamp();
        if !rules.log_append_time && ts != NO_TIMESTAMP {
            if timestamp_out_of_range(ts, now, before, after) {
                timestamp_error = true;
                errors.push(RecordError {
                    batch_index,
                    message: format!(
                        "Timestamp {ts} of message with offset {} is out of range. The timestamp should be within [{}, {}]",
                        r.offset(),
                        now.wrapping_sub(before),
                        now.wrapping_add(after)
                    ),
                });
            }
        } else if lat_batch {
            timestamp_error = true;
            errors.push(RecordError {
                batch_index,
                message: format!(
                    "Invalid timestamp type in message with offset {}. Producer should not set timestamp type to LogAppendTime.",
                    r.offset()
                ),
            });
        }
    }
    if errors.is_empty() {
        return Ok(());
    }
    // Kafka's `processRecordErrors`.
    let (code, message) = if timestamp_error {
        (
            ErrorCode::InvalidTimestamp,
            "One or more records have been rejected due to invalid timestamp".to_string(),
        )
    } else {
        let shown: Vec<String> = errors
            .iter()
            .take(3)
            .map(|e| {
                format!(
                    "RecordError(batchIndex={}, message='{}')",
                    e.batch_index, e.message
                )
            })
            .collect();
        (
            ErrorCode::InvalidRecord,
            format!(
                "One or more records have been rejected due to {} record errors in total, and only showing the first three errors at most: [{}]",
                errors.len(),
                shown.join(", ")
            ),
        )
    };
    Err(Refusal {
        code,
        message,
        record_errors: errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use kafka_protocol::records::{Compression, NewRecord, RecordBatchBuilder};

    const NOW: i64 = 1_700_000_000_000;
    const MAX_DECOMPRESSED: usize = 64 << 20;

    fn batch(records: Vec<NewRecord>, codec: Compression) -> RecordBatch {
        let b: Bytes = RecordBatchBuilder::new()
            .compression(codec)
            .records(records)
            .build()
            .unwrap();
        RecordBatch::new(b).unwrap()
    }

    fn keyed(k: &str, ts: i64) -> NewRecord {
        NewRecord::new(b"v".to_vec())
            .with_key(k.as_bytes().to_vec())
            .with_timestamp(ts)
    }

    fn keyless(ts: i64) -> NewRecord {
        NewRecord::new(b"v".to_vec()).with_timestamp(ts)
    }

    fn compacted() -> RecordRules {
        RecordRules {
            compacted: true,
            ..RecordRules::NONE
        }
    }

    fn bounded(before: i64, after: i64) -> RecordRules {
        RecordRules {
            timestamp_before_max_ms: before,
            timestamp_after_max_ms: after,
            ..RecordRules::NONE
        }
    }

    fn indexes(r: &Refusal) -> Vec<i32> {
        r.record_errors.iter().map(|e| e.batch_index).collect()
    }

    #[test]
    fn keyless_records_on_a_compacted_topic_are_listed() {
        for codec in [Compression::None, Compression::Gzip, Compression::Zstd] {
            let b = batch(
                vec![
                    keyed("a", NOW),
                    keyless(NOW),
                    keyed("b", NOW),
                    keyless(NOW),
                    keyless(NOW),
                ],
                codec,
            );
            let r = validate_records(&b, &compacted(), &"t-0", NOW, MAX_DECOMPRESSED).unwrap_err();
            assert_eq!(r.code, ErrorCode::InvalidRecord, "{codec:?}");
            assert_eq!(indexes(&r), vec![1, 3, 4], "{codec:?}");
            assert_eq!(
                r.record_errors[0].message,
                "Compacted topic cannot accept message without key in topic partition t-0."
            );
            assert_eq!(
                r.message,
                "One or more records have been rejected due to 3 record errors in total, and only \
                 showing the first three errors at most: [RecordError(batchIndex=1, message='Compacted \
                 topic cannot accept message without key in topic partition t-0.'), \
                 RecordError(batchIndex=3, message='Compacted topic cannot accept message without key \
                 in topic partition t-0.'), RecordError(batchIndex=4, message='Compacted topic cannot \
                 accept message without key in topic partition t-0.')]"
            );
            // The same records are fine on a topic that is not compacted.
            assert!(
                validate_records(&b, &RecordRules::NONE, &"t-0", NOW, MAX_DECOMPRESSED).is_ok()
            );
        }
        let all_keyed = batch(vec![keyed("a", NOW), keyed("b", NOW)], Compression::None);
        assert!(validate_records(&all_keyed, &compacted(), &"t-0", NOW, MAX_DECOMPRESSED).is_ok());
    }

    #[test]
    fn timestamps_out_of_bounds_are_listed() {
        let rules = bounded(60_000, 10_000);
        for codec in [Compression::None, Compression::Lz4] {
            let b = batch(
                vec![
                    keyless(NOW - 60_000), // at the lower bound: fine
                    keyless(NOW - 60_001), // too old
                    keyless(NOW + 10_000), // at the upper bound: fine
                    keyless(NOW + 10_001), // too new
                    keyless(NO_TIMESTAMP), // no timestamp: not checked
                ],
                codec,
            );
            let r = validate_records(&b, &rules, &"t-3", NOW, MAX_DECOMPRESSED).unwrap_err();
            assert_eq!(r.code, ErrorCode::InvalidTimestamp, "{codec:?}");
            assert_eq!(indexes(&r), vec![1, 3], "{codec:?}");
            assert_eq!(
                r.message,
                "One or more records have been rejected due to invalid timestamp"
            );
            assert_eq!(
                r.record_errors[0].message,
                format!(
                    "Timestamp {} of message with offset 1 is out of range. The timestamp should be within [{}, {}]",
                    NOW - 60_001,
                    NOW - 60_000,
                    NOW + 10_000
                )
            );
        }
        // Kafka's defaults: any past, at most an hour ahead.
        let defaults = bounded(i64::MAX, 3_600_000);
        let old = batch(
            vec![keyless(0), keyless(NOW - 10 * 365 * 86_400_000)],
            Compression::None,
        );
        assert!(validate_records(&old, &defaults, &"t-0", NOW, MAX_DECOMPRESSED).is_ok());
        let future = batch(
            vec![keyless(NOW), keyless(NOW + 3_600_001)],
            Compression::Snappy,
        );
        let r = validate_records(&future, &defaults, &"t-0", NOW, MAX_DECOMPRESSED).unwrap_err();
        assert_eq!(
            (r.code, indexes(&r)),
            (ErrorCode::InvalidTimestamp, vec![1])
        );
        assert!(r.record_errors[0].message.contains(&format!(
            "should be within [{}, {}]",
            NOW.wrapping_sub(i64::MAX),
            NOW + 3_600_000
        )));
    }

    #[test]
    fn a_key_error_wins_over_a_timestamp_error_and_any_timestamp_error_sets_the_code() {
        let rules = RecordRules {
            compacted: true,
            ..bounded(1_000, 1_000)
        };
        let b = batch(
            vec![
                keyless(NOW - 5_000),
                keyed("k", NOW + 5_000),
                keyed("k", NOW),
            ],
            Compression::None,
        );
        let r = validate_records(&b, &rules, &"t-0", NOW, MAX_DECOMPRESSED).unwrap_err();
        assert_eq!(r.code, ErrorCode::InvalidTimestamp);
        assert_eq!(indexes(&r), vec![0, 1]);
        assert!(r.record_errors[0].message.starts_with("Compacted topic"));
        assert!(r.record_errors[1].message.starts_with("Timestamp "));
    }

    #[test]
    fn log_append_time_topics_do_not_check_timestamps() {
        let rules = RecordRules {
            log_append_time: true,
            ..bounded(0, 0)
        };
        let b = batch(
            vec![keyless(0), keyless(NOW + 86_400_000)],
            Compression::None,
        );
        assert!(validate_records(&b, &rules, &"t-0", NOW, MAX_DECOMPRESSED).is_ok());
        // ...but a producer may not claim LogAppendTime itself.
        let lat: Bytes = RecordBatchBuilder::new()
            .log_append_time(NOW)
            .records(vec![keyless(NOW), keyless(NOW)])
            .build()
            .unwrap();
        let lat = RecordBatch::new(lat).unwrap();
        let r = validate_records(&lat, &rules, &"t-0", NOW, MAX_DECOMPRESSED).unwrap_err();
        assert_eq!(
            (r.code, indexes(&r)),
            (ErrorCode::InvalidTimestamp, vec![0, 1])
        );
    }

    #[test]
    fn nothing_is_read_when_nothing_can_fail() {
        // A compressed batch whose header's max timestamp is within the
        // `after` bound is not opened when `before` is unbounded.
        let b = batch(vec![keyless(NOW), keyless(NOW - 1)], Compression::Gzip);
        assert!(!needs_records(&b, &bounded(i64::MAX, 3_600_000), NOW));
        assert!(needs_records(&b, &bounded(1_000, 3_600_000), NOW));
        assert!(needs_records(&b, &compacted(), NOW));
        assert!(!needs_records(&b, &RecordRules::NONE, NOW));
        let late = batch(vec![keyless(NOW + 3_600_001)], Compression::Gzip);
        assert!(needs_records(&late, &bounded(i64::MAX, 3_600_000), NOW));
    }
}
