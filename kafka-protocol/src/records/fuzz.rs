//! The body of the `record_batch` fuzz target, kept in the library so the
//! saved corpus is replayed by an ordinary test (no fuzzer needed in CI).
//!
//! It panics only when an invariant of this module is broken (that is what
//! the fuzzer looks for); malformed input must merely produce errors.

use bytes::{Bytes, BytesMut};

use super::{
    Compression, RecordBatch, RecordBatchMut, RecordBatches, Stamp, TimestampType, decompress,
    stamp_batch,
};

/// Decompression bound used while fuzzing: small, so bombs are cheap.
const BOUND: usize = 64 * 1024;

/// Parses `data` every way the broker and tools do, checking invariants.
#[doc(hidden)]
pub fn fuzz_check(data: &[u8]) {
    // Every codec straight on the input (first byte picks the codec), so
    // the decoders are fuzzed without needing a valid batch around them.
    if let Some((&selector, rest)) = data.split_first()
        && let Some(codec) = Compression::from_id(selector % 5)
        && let Ok(out) = decompress(codec, rest, BOUND)
    {
        assert!(out.len() <= BOUND && out.capacity() <= BOUND.max(4096));
    }

    let buf = Bytes::copy_from_slice(data);
    let _ = RecordBatch::new(buf.clone()).map(|b| b.verify_crc());

    let mut batches = RecordBatches::new(buf.clone());
    let mut end = 0;
    for item in batches.by_ref() {
        let Ok(batch) = item else { break };
        end += batch.size();
        check_batch(&batch);
    }
    assert_eq!(batches.position(), end);
    assert!(end <= data.len());
}

fn check_batch(batch: &RecordBatch) {
    assert_eq!(batch.size(), batch.batch_length() as usize + 12);
    let _ = (
        batch.base_offset(),
        batch.partition_leader_epoch(),
        batch.last_offset(),
        batch.next_offset(),
        batch.base_timestamp(),
        batch.max_timestamp(),
        batch.producer_id(),
        batch.producer_epoch(),
        batch.base_sequence(),
        batch.is_transactional(),
        batch.is_control(),
        batch.delete_horizon_ms(),
    );
    let crc_ok = batch.verify_crc().is_ok();

    if let Ok(records) = batch.decompressed_records(BOUND) {
        let declared = records.remaining();
        let mut seen = 0u32;
        for record in records {
            let Ok(record) = record else { break };
            seen += 1;
            let headers = record.headers();
            assert_eq!(headers.iter().count(), headers.len());
            for h in headers {
                let _ = (h.key_str(), h.value.as_ref().map(Bytes::len));
            }
            let _ = (
                record.key(),
                record.value(),
                record.offset(),
                record.timestamp(),
            );
        }
        assert!(seen <= declared);
    }

    // Stamping succeeds exactly when the CRC was valid...
    let stamp = Stamp {
        base_offset: 1 << 40,
        partition_leader_epoch: 7,
        log_append_time: Some(1_234_567),
    };
    let mut owned = BytesMut::from(&batch.as_bytes()[..]);
    assert_eq!(stamp_batch(&mut owned, &stamp).is_ok(), crc_ok);
    // ...so give the batch a valid CRC (the fuzzer rarely finds one) and
    // check that stamping then always works and keeps the batch intact.
    let mut owned = BytesMut::from(&batch.as_bytes()[..]);
    owned[17..21].copy_from_slice(&batch.compute_crc().to_be_bytes());
    let Ok(mut fixed) = RecordBatchMut::new(owned) else {
        panic!("a batch that parsed must parse with its CRC replaced");
    };
    assert!(fixed.stamp(&stamp).is_ok());
    let after = fixed.freeze();
    assert!(after.verify_crc().is_ok());
    assert_eq!(after.base_offset(), 1 << 40);
    assert_eq!(after.partition_leader_epoch(), 7);
    assert_eq!(after.max_timestamp(), 1_234_567);
    assert_eq!(after.timestamp_type(), TimestampType::LogAppendTime);
    assert_eq!(after.compression(), batch.compression());
    assert_eq!(after.records_count(), batch.records_count());
    assert_eq!(after.records_payload(), batch.records_payload());
}
