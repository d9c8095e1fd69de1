//! The log's record of idempotent producers' last batches
//! (`Log::producer_batches`): kept through appends, truncations, resets
//! and reopening, and read again from the log only when a truncation cut
//! what it knew.

use crate::common::*;
use bytes::{Bytes, BytesMut};
use kafka_protocol::records::{NewRecord, RecordBatchBuilder};
use tidemark_storage::{Log, ProducerBatch};

fn producer_batch(pid: i64, epoch: i16, seq: i32, records: usize) -> Bytes {
    let mut b = RecordBatchBuilder::new().producer(pid, epoch, seq);
    for i in 0..records {
        b.push(NewRecord::new(vec![b'v'; 64]).with_timestamp(crate_now() + i as i64));
    }
    b.build().unwrap()
}

fn crate_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

async fn append(log: &Log, b: Bytes) -> i64 {
    log.append(BytesMut::from(&b[..]), 1, None)
        .await
        .unwrap()
        .base_offset
}

/// (producer, first sequence, base offset) per remembered batch, sorted.
async fn known(log: &Log) -> (Vec<(i64, i32, i64)>, bool) {
    let (batches, complete) = log.producer_batches().await.unwrap();
    let mut v: Vec<_> = batches
        .iter()
        .map(|b: &ProducerBatch| (b.producer_id, b.base_sequence, b.base_offset))
        .collect();
    v.sort();
    (v, complete)
}

#[test]
fn appends_are_remembered_five_per_producer_and_survive_reopening() {
    let dir = test_dir("producers-reopen");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let mut offsets = Vec::new();
        for i in 0..8 {
            offsets.push(append(&log, producer_batch(7, 0, i * 2, 2)).await);
        }
        // A batch without a producer id is nobody's.
        append(&log, batch_for(1, 1, 10)).await;
        let b9 = append(&log, producer_batch(9, 3, 0, 1)).await;
        let (got, complete) = known(&log).await;
        let mut want: Vec<_> = (3..8).map(|i| (7, i * 2, offsets[i as usize])).collect();
        want.push((9, 0, b9));
        assert_eq!(got, want);
        assert!(complete, "every batch since offset 0 was seen");
        log.close().await.unwrap();
        drop(log);

        // Reopened: the snapshot at the active segment's base and a read
        // of the active segment give back the same state.
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert_eq!(known(&log).await, (got, true));
    });
}

#[test]
fn a_truncation_forgets_the_batches_it_cuts() {
    let dir = test_dir("producers-truncate");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let a0 = append(&log, producer_batch(1, 0, 0, 1)).await;
        let a1 = append(&log, producer_batch(1, 0, 1, 1)).await;
        let cut = append(&log, producer_batch(1, 0, 2, 1)).await;
        append(&log, producer_batch(2, 0, 0, 1)).await;
        log.truncate(cut).await.unwrap();
        let (got, complete) = known(&log).await;
        assert_eq!(got, vec![(1, 0, a0), (1, 1, a1)]);
        assert!(complete);
    });
}

#[test]
fn a_truncation_that_cuts_all_remembered_batches_reads_the_log_again() {
    let dir = test_dir("producers-lossy");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let mut offsets = Vec::new();
        for i in 0..12 {
            offsets.push(append(&log, producer_batch(5, 0, i, 1)).await);
        }
        // Only sequences 7..=11 are remembered; cutting at sequence 7
        // leaves nothing remembered although 0..=6 are in the log.
        log.truncate(offsets[7]).await.unwrap();
        // A batch appended after the cut, by another producer, is kept.
        let other = append(&log, producer_batch(6, 0, 0, 1)).await;
        let (got, complete) = known(&log).await;
        let mut want: Vec<_> = (2..7).map(|i| (5, i as i32, offsets[i])).collect();
        want.push((6, 0, other));
        assert_eq!(got, want);
        assert!(complete, "the segment read again starts at offset 0");
        // The next append of producer 5 continues after what was read.
        let next = append(&log, producer_batch(5, 0, 7, 1)).await;
        let (got, _) = known(&log).await;
        assert_eq!(
            got.iter().filter(|b| b.0 == 5).copied().collect::<Vec<_>>(),
            (3..7)
                .map(|i| (5, i as i32, offsets[i]))
                .chain([(5, 7, next)])
                .collect::<Vec<_>>()
        );
    });
}

#[test]
fn a_reset_forgets_everything_and_covers_only_what_follows() {
    let dir = test_dir("producers-reset");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        append(&log, producer_batch(1, 0, 0, 1)).await;
        log.reset_to(100).await.unwrap();
        let (got, complete) = known(&log).await;
        assert!(got.is_empty());
        assert!(!complete, "offsets below 100 were never seen here");
    });
}

#[test]
fn producers_in_sealed_segments_are_known_after_reopening() {
    // Before producer snapshots, open read only the active segment: a
    // producer whose batches were all in sealed segments was unknown, and
    // the state no longer covered offset 0.
    for crash in [false, true] {
        let dir = test_dir("producers-sealed");
        run(async {
            let log = Log::open(&dir, small_config()).await.unwrap();
            for i in 0..4 {
                append(&log, producer_batch(3, 0, i, 1)).await;
            }
            // Enough other data to seal several segments.
            for s in 0..40 {
                append(&log, batch_for(s, 4, 256)).await;
            }
            assert!(log.active_segment_base() > 4);
            let before = known(&log).await;
            assert!(before.1);
            assert_eq!(before.0.len(), 4);
            if !crash {
                log.close().await.unwrap();
            }
            drop(log);
            let log = Log::open(&dir, small_config()).await.unwrap();
            assert_eq!(known(&log).await, before, "crash: {crash}");
        });
    }
}
