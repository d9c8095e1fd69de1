//! Transaction state of a log (`Log::last_stable_offset`,
//! `Log::aborted_transactions`, `Log::ongoing_transactions`): kept through
//! appends, segment rolls, truncations, retention and reopening.

use crate::common::*;
use bytes::{Bytes, BytesMut};
use kafka_protocol::records::{EndTxnMarker, NewRecord, RecordBatchBuilder};
use tidemark_storage::{AbortedTxn, Log, LogConfig};

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A transactional batch of `records` records of 256 bytes.
fn txn_batch(pid: i64, seq: i32, records: usize) -> Bytes {
    let mut b = RecordBatchBuilder::new()
        .producer(pid, 0, seq)
        .transactional(true);
    for _ in 0..records {
        b.push(NewRecord::new(vec![b't'; 256]).with_timestamp(now()));
    }
    b.build().unwrap()
}

fn marker(pid: i64, commit: bool) -> Bytes {
    EndTxnMarker {
        commit,
        coordinator_epoch: 1,
    }
    .batch(pid, 0, now())
    .build()
    .unwrap()
}

async fn append(log: &Log, b: Bytes) -> i64 {
    log.append(BytesMut::from(&b[..]), 1, None)
        .await
        .unwrap()
        .base_offset
}

fn aborted(pid: i64, first: i64) -> AbortedTxn {
    AbortedTxn {
        producer_id: pid,
        first_offset: first,
    }
}

/// What a reopened log must agree on.
fn state(log: &Log) -> (i64, Vec<AbortedTxn>, Vec<(i64, i64)>) {
    let end = log.log_end_offset();
    (
        log.last_stable_offset(end),
        log.aborted_transactions(0, end),
        log.ongoing_transactions(),
    )
}

#[test]
fn commit_and_abort_markers_give_the_lso_and_aborted_ranges() {
    let dir = test_dir("txn-basic");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        append(&log, batch_for(1, 1, 10)).await; // 0: plain
        let a = append(&log, txn_batch(1, 0, 2)).await; // 1-2: pid 1
        let b = append(&log, txn_batch(2, 0, 1)).await; // 3: pid 2
        append(&log, txn_batch(1, 2, 1)).await; // 4: pid 1 again
        assert_eq!(log.ongoing_transactions(), vec![(1, a), (2, b)]);
        assert_eq!(log.last_stable_offset(5), a);
        assert_eq!(
            log.last_stable_offset(1),
            1,
            "never past the high watermark"
        );
        let m1 = append(&log, marker(1, false)).await; // 5: abort pid 1
        // Until the marker is below the high watermark, pid 1 still counts.
        assert_eq!(log.last_stable_offset(m1), a);
        assert_eq!(log.last_stable_offset(m1 + 1), b);
        let m2 = append(&log, marker(2, true)).await; // 6: commit pid 2
        assert_eq!(log.last_stable_offset(m2 + 1), m2 + 1);
        assert!(log.ongoing_transactions().is_empty());
        assert_eq!(log.aborted_transactions(0, 100), vec![aborted(1, a)]);
        assert_eq!(log.aborted_transactions(m1, 100), vec![aborted(1, a)]);
        assert!(log.aborted_transactions(m1 + 1, 100).is_empty());
        assert!(log.aborted_transactions(0, a).is_empty());
        assert_eq!(log.aborted_transactions(0, a + 1), vec![aborted(1, a)]);
        let states = log.producer_states();
        let p1 = states.iter().find(|p| p.producer_id == 1).unwrap();
        assert_eq!((p1.coordinator_epoch, p1.current_txn_start_offset), (1, -1));
        let p2 = states.iter().find(|p| p.producer_id == 2).unwrap();
        assert_eq!(p2.last_sequence, 0);
    });
}

#[test]
fn a_transaction_spans_segment_rolls_and_survives_reopening() {
    for crash in [false, true] {
        let dir = test_dir("txn-reopen");
        run(async {
            let log = Log::open(&dir, small_config()).await.unwrap();
            let first = append(&log, txn_batch(7, 0, 4)).await;
            let abort_first = append(&log, txn_batch(8, 0, 4)).await;
            // Enough to roll several 16 KiB segments.
            for i in 0..30 {
                append(&log, txn_batch(7, 4 + i * 4, 4)).await;
            }
            append(&log, marker(8, false)).await;
            for _ in 0..30 {
                append(&log, batch_for(2, 4, 256)).await;
            }
            assert!(log.segment_count() > 3);
            let before = state(&log);
            assert_eq!(before.0, first);
            assert_eq!(before.1, vec![aborted(8, abort_first)]);
            assert_eq!(before.2, vec![(7, first)]);
            if !crash {
                log.close().await.unwrap();
            }
            drop(log);
            let log = Log::open(&dir, small_config()).await.unwrap();
            assert_eq!(state(&log), before, "crash: {crash}");
            // The open transaction ends after the reopen.
            let m = append(&log, marker(7, true)).await;
            assert_eq!(log.last_stable_offset(m + 1), m + 1);
            drop(log);
            let log = Log::open(&dir, small_config()).await.unwrap();
            let end = log.log_end_offset();
            assert_eq!(log.last_stable_offset(end), end);
            assert_eq!(
                log.aborted_transactions(0, end),
                vec![aborted(8, abort_first)]
            );
        });
    }
}

/// The files of `dir` with extension `ext`, by offset.
fn files(dir: &std::path::Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some(ext))
        .collect();
    v.sort();
    v
}

#[test]
fn a_missing_or_damaged_snapshot_or_transaction_index_is_rebuilt_from_the_segments() {
    for damage in [
        "no-snapshots",
        "flipped-snapshot",
        "flipped-txnindex",
        "middle-txnindex",
    ] {
        let dir = test_dir("txn-rebuild");
        run(async {
            let log = Log::open(&dir, small_config()).await.unwrap();
            let first = append(&log, txn_batch(7, 0, 4)).await;
            let aborted_first = append(&log, txn_batch(8, 0, 4)).await;
            for i in 0..20 {
                append(&log, txn_batch(8, 4 + i * 4, 4)).await;
            }
            append(&log, marker(8, false)).await;
            for _ in 0..30 {
                append(&log, batch_for(2, 4, 256)).await;
            }
            let before = state(&log);
            assert_eq!(before.0, first);
            assert_eq!(before.1, vec![aborted(8, aborted_first)]);
            let producers = log.producer_states();
            log.close().await.unwrap();
            drop(log);
            let flip = |p: &std::path::Path| {
                let mut d = std::fs::read(p).unwrap();
                let n = d.len() / 2;
                d[n] ^= 0x40;
                std::fs::write(p, d).unwrap();
            };
            let (snaps, idxs) = (files(&dir, "snapshot"), files(&dir, "txnindex"));
            assert!(!snaps.is_empty() && idxs.len() > 2);
            match damage {
                "no-snapshots" => snaps.iter().for_each(|p| std::fs::remove_file(p).unwrap()),
                "flipped-snapshot" => flip(snaps.last().unwrap()),
                "flipped-txnindex" => flip(&idxs[0]),
                _ => std::fs::remove_file(&idxs[1]).unwrap(),
            }
            let log = Log::open(&dir, small_config()).await.unwrap();
            assert_eq!(state(&log), before, "{damage}");
            assert_eq!(log.producer_states(), producers, "{damage}");
            // The rebuild wrote what was missing: a second open agrees.
            drop(log);
            let log = Log::open(&dir, small_config()).await.unwrap();
            assert_eq!(state(&log), before, "{damage}, again");
        });
    }
}

#[test]
fn a_log_written_before_transactions_starts_its_state_at_the_active_segment() {
    let dir = test_dir("txn-legacy");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        for _ in 0..40 {
            append(&log, batch_for(2, 4, 256)).await;
        }
        assert!(log.segment_count() > 2);
        log.close().await.unwrap();
        drop(log);
        // What an older version left: no snapshot, no transaction index.
        for ext in ["snapshot", "txnindex"] {
            files(&dir, ext)
                .iter()
                .for_each(|p| std::fs::remove_file(p).unwrap());
        }
        let log = Log::open(&dir, small_config()).await.unwrap();
        let end = log.log_end_offset();
        assert_eq!(log.last_stable_offset(end), end);
        // Its producer state does not claim to cover offset 0.
        assert!(!log.producer_batches().await.unwrap().1);
        // New segments get their files; the old ones count as empty.
        let a = append(&log, txn_batch(5, 0, 4)).await;
        for i in 0..30 {
            append(&log, txn_batch(5, 4 + i * 4, 4)).await;
        }
        let m = append(&log, marker(5, false)).await;
        for _ in 0..30 {
            append(&log, batch_for(3, 4, 256)).await;
        }
        assert!(log.active_segment_base() > m);
        let before = state(&log);
        assert_eq!(before.1, vec![aborted(5, a)]);
        drop(log);
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert_eq!(state(&log), before);
    });
}

#[test]
fn truncation_inside_a_transaction_and_at_its_marker() {
    let dir = test_dir("txn-truncate");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let a = append(&log, txn_batch(1, 0, 1)).await;
        let a2 = append(&log, txn_batch(1, 1, 1)).await;
        let m = append(&log, marker(1, false)).await;
        let b = append(&log, txn_batch(2, 0, 1)).await;
        assert_eq!(log.last_stable_offset(b + 1), b);
        // Cut the marker: pid 1's transaction is open again, pid 2's gone.
        log.truncate(m).await.unwrap();
        assert_eq!(log.ongoing_transactions(), vec![(1, a)]);
        assert!(log.aborted_transactions(0, 100).is_empty());
        assert_eq!(log.last_stable_offset(m), a);
        // Cut inside it: still open from its first batch.
        log.truncate(a2).await.unwrap();
        assert_eq!(log.ongoing_transactions(), vec![(1, a)]);
        // Cut before it: nothing left.
        log.truncate(a).await.unwrap();
        assert!(log.ongoing_transactions().is_empty());
        assert_eq!(log.last_stable_offset(a), a);
        // And the state after truncation survives reopening.
        append(&log, txn_batch(3, 0, 1)).await;
        let before = state(&log);
        drop(log);
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert_eq!(state(&log), before);
    });
}

#[test]
fn truncation_into_an_earlier_segment_reopens_the_transaction() {
    let dir = test_dir("txn-truncate-seg");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let a = append(&log, txn_batch(1, 0, 1)).await;
        for i in 0..20 {
            append(&log, txn_batch(1, 1 + i * 4, 4)).await;
        }
        let m = append(&log, marker(1, false)).await;
        for _ in 0..20 {
            append(&log, batch_for(3, 4, 256)).await;
        }
        assert!(log.active_segment_base() > m);
        log.truncate(m).await.unwrap();
        assert_eq!(log.ongoing_transactions(), vec![(1, a)]);
        assert!(log.aborted_transactions(0, i64::MAX).is_empty());
        let before = state(&log);
        drop(log);
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert_eq!(state(&log), before);
    });
}

#[test]
fn retention_and_delete_records_drop_aborted_transactions_below_the_start() {
    let dir = test_dir("txn-retention");
    run(async {
        let config = LogConfig {
            retention_bytes: 20 * 1024,
            ..small_config()
        };
        let log = Log::open(&dir, config.clone()).await.unwrap();
        let a = append(&log, txn_batch(1, 0, 1)).await;
        append(&log, marker(1, false)).await;
        let b = append(&log, txn_batch(2, 0, 1)).await;
        let m = append(&log, marker(2, false)).await;
        assert_eq!(
            log.aborted_transactions(0, 100),
            vec![aborted(1, a), aborted(2, b)]
        );
        log.delete_records(m).await.unwrap();
        assert_eq!(log.aborted_transactions(0, 100), vec![aborted(2, b)]);
        for _ in 0..60 {
            append(&log, batch_for(4, 4, 256)).await;
        }
        log.apply_retention(now()).await.unwrap();
        assert!(log.log_start_offset() > m);
        assert!(log.aborted_transactions(0, i64::MAX).is_empty());
        drop(log);
        let log = Log::open(&dir, config).await.unwrap();
        assert!(log.aborted_transactions(0, i64::MAX).is_empty());
    });
}

fn keyed_txn(pid: i64, seq: i32, key: &str, value: &str) -> Bytes {
    let mut b = RecordBatchBuilder::new()
        .producer(pid, 0, seq)
        .transactional(true);
    b.push(
        NewRecord::new(value.as_bytes().to_vec())
            .with_key(key.to_string())
            .with_timestamp(now()),
    );
    b.build().unwrap()
}

fn plain(key: &str, value: &str) -> Bytes {
    let mut b = RecordBatchBuilder::new();
    b.push(
        NewRecord::new(value.as_bytes().to_vec())
            .with_key(key.to_string())
            .with_timestamp(now()),
    );
    b.build().unwrap()
}

/// Every (key, value) a read of the whole log returns, skipping control
/// batches, with each batch's producer id and offset.
async fn records(log: &Log) -> Vec<(i64, i64, String)> {
    let mut out = Vec::new();
    let mut offset = log.log_start_offset();
    while offset < log.log_end_offset() {
        let r = log.read(offset, 1 << 20, None).await.unwrap();
        for b in r.batches {
            let b = kafka_protocol::records::RecordBatch::new(b).unwrap();
            if b.is_control() {
                out.push((b.producer_id(), b.base_offset(), "marker".into()));
                continue;
            }
            for rec in b.records().unwrap() {
                let rec = rec.unwrap();
                let v = String::from_utf8_lossy(rec.value().unwrap()).into_owned();
                out.push((b.producer_id(), rec.offset(), v));
            }
        }
        offset = r.next_offset;
    }
    out
}

#[test]
fn compaction_removes_aborted_records_keeps_markers_and_stops_at_open_transactions() {
    let dir = test_dir("txn-compact");
    run(async {
        let config = LogConfig {
            cleanup_policy: tidemark_storage::CleanupPolicy::Compact,
            min_cleanable_dirty_ratio: 0.0,
            segment_bytes: 2048,
            max_batch_bytes: 2048,
            ..small_config()
        };
        let log = Log::open(&dir, config).await.unwrap();
        let committed = append(&log, keyed_txn(1, 0, "k", "committed")).await;
        append(&log, marker(1, true)).await;
        let aborted_at = append(&log, keyed_txn(2, 0, "k", "aborted")).await;
        let abort_marker = append(&log, marker(2, false)).await;
        for _ in 0..40 {
            append(&log, plain("i", "filler")).await;
        }
        // An open transaction later on: nothing from it on is compacted
        // (a later value of its key would otherwise remove it).
        let open = append(&log, keyed_txn(3, 0, "j", "open")).await;
        for _ in 0..60 {
            append(&log, plain("j", "filler")).await;
        }
        assert!(log.active_segment_base() > open + 1);
        let end = log.log_end_offset();
        assert_eq!(log.last_stable_offset(end), open);
        log.compact(now()).await.unwrap();
        let got = records(&log).await;
        assert!(got.contains(&(1, committed, "committed".into())), "{got:?}");
        assert!(!got.iter().any(|r| r.1 == aborted_at), "{got:?}");
        assert!(got.contains(&(2, abort_marker, "marker".into())), "{got:?}");
        assert!(got.contains(&(3, open, "open".into())), "{got:?}");
        // The aborted range is still known, so nothing of it shows.
        assert_eq!(
            log.aborted_transactions(0, end),
            vec![aborted(2, aborted_at)]
        );
    });
}

const HOUR_MS: i64 = 3_600_000;

/// A compacted log with 1 KiB segments and a one-hour delete horizon.
fn marker_config() -> LogConfig {
    LogConfig {
        cleanup_policy: tidemark_storage::CleanupPolicy::Compact,
        min_cleanable_dirty_ratio: 0.0,
        segment_bytes: 1024,
        max_batch_bytes: 1024,
        delete_retention_ms: HOUR_MS,
        ..small_config()
    }
}

/// Appends filler records (all of one key) until the active segment rolls.
async fn roll(log: &Log) {
    let base = log.active_segment_base();
    while log.active_segment_base() == base {
        append(log, plain("f", "filler")).await;
    }
}

/// The offsets of the control batches a read of the whole log returns.
async fn marker_offsets(log: &Log) -> Vec<i64> {
    records(log)
        .await
        .into_iter()
        .filter(|r| r.2 == "marker")
        .map(|r| r.1)
        .collect()
}

/// The control batches a read of the whole log returns.
async fn control_batches(log: &Log) -> Vec<kafka_protocol::records::RecordBatch> {
    let mut out = Vec::new();
    let mut offset = log.log_start_offset();
    while offset < log.log_end_offset() {
        let r = log.read(offset, 1 << 20, None).await.unwrap();
        for b in r.batches {
            let b = kafka_protocol::records::RecordBatch::new(b).unwrap();
            if b.is_control() {
                out.push(b);
            }
        }
        offset = r.next_offset;
    }
    out
}

/// A control batch as a reader sees it: (offset, max timestamp, its
/// record's timestamp, commit, coordinator epoch).
fn marker_view(b: &kafka_protocol::records::RecordBatch) -> (i64, i64, i64, bool, i32) {
    let r = b.records().unwrap().next().unwrap().unwrap();
    let m = EndTxnMarker::from_record(&r).unwrap();
    (
        b.base_offset(),
        b.max_timestamp(),
        r.timestamp(),
        m.commit,
        m.coordinator_epoch,
    )
}

/// One compaction pass that must run (new data was sealed since the last).
async fn pass(log: &Log, now_ms: i64) -> tidemark_storage::CompactionStats {
    let end = log.log_end_offset();
    // The broker asks for the LSO before compacting, which forgets the
    // completed transactions below the high watermark.
    log.last_stable_offset(end);
    let stats = log.compact(now_ms).await.unwrap();
    assert!(stats.ran, "{stats:?}");
    stats
}

#[test]
fn compaction_removes_markers_of_transactions_without_data_after_the_delete_horizon() {
    let dir = test_dir("txn-markers");
    run(async {
        let log = Log::open(&dir, marker_config()).await.unwrap();
        // Producer 1 commits a record that a later plain one supersedes,
        // producer 2 one that survives, producer 3 aborts; each then
        // commits a last transaction. Producer 6's only transaction is
        // superseded too, but its marker is its last (its epoch fences).
        let superseded = append(&log, keyed_txn(1, 0, "a", "t1")).await;
        let m1 = append(&log, marker(1, true)).await;
        let kept = append(&log, keyed_txn(2, 0, "b", "t2")).await;
        let m2 = append(&log, marker(2, true)).await;
        let aborted_at = append(&log, keyed_txn(3, 0, "c", "t3")).await;
        let m3 = append(&log, marker(3, false)).await;
        let mut last = Vec::new();
        for (pid, key) in [(1, "x"), (2, "y"), (3, "z")] {
            append(&log, keyed_txn(pid, 1, key, "last")).await;
            last.push(append(&log, marker(pid, true)).await);
        }
        append(&log, keyed_txn(6, 0, "a", "t6")).await;
        let m6 = append(&log, marker(6, true)).await;
        append(&log, plain("a", "later")).await;
        for _ in 0..4 {
            roll(&log).await;
        }
        // An undecided transaction, sealed: nothing from it on is touched.
        let open = append(&log, keyed_txn(4, 0, "o", "open")).await;
        for _ in 0..4 {
            roll(&log).await;
        }
        let end = log.log_end_offset();
        assert_eq!(log.last_stable_offset(end), open);
        let all_markers = [vec![m1, m2, m3, m6], last.clone()].concat();

        // This pass reads (and removes) the data of the transactions of m1
        // and m3: every marker stays as it is.
        let s = pass(&log, now() + 2 * HOUR_MS).await;
        assert_eq!((s.markers_stamped, s.markers_removed), (0, 0), "{s:?}");
        let got = records(&log).await;
        assert!(!got.iter().any(|r| r.1 == superseded || r.1 == aborted_at));
        assert!(got.contains(&(2, kept, "t2".into())), "{got:?}");
        assert!(got.contains(&(4, open, "open".into())), "{got:?}");
        let markers = marker_offsets(&log).await;
        assert!(
            all_markers.iter().all(|m| markers.contains(m)),
            "{markers:?}"
        );
        assert_eq!(
            log.aborted_transactions(0, end),
            vec![aborted(3, aborted_at)]
        );
        assert_eq!(log.ongoing_transactions(), vec![(4, open)]);
        assert_eq!(log.last_stable_offset(end), open);

        // The transaction ends. The next pass reads no data of m1's and
        // m3's transactions: it stamps their delete horizon into them
        // (KIP-534), which changes nothing a reader sees but the batch's
        // base timestamp and attributes.
        let m4 = append(&log, marker(4, true)).await;
        for _ in 0..4 {
            roll(&log).await;
        }
        let views: Vec<_> = control_batches(&log)
            .await
            .iter()
            .map(marker_view)
            .collect();
        let stamped_at = now();
        let s = pass(&log, stamped_at).await;
        assert_eq!((s.markers_stamped, s.markers_removed), (2, 0), "{s:?}");
        let controls = control_batches(&log).await;
        assert_eq!(controls.iter().map(marker_view).collect::<Vec<_>>(), views);
        for b in &controls {
            b.verify_crc().unwrap();
            let stamped = [m1, m3].contains(&b.base_offset());
            let want = stamped.then_some(stamped_at + HOUR_MS);
            assert_eq!(b.delete_horizon_ms(), want, "{}", b.base_offset());
        }

        // Before the horizon, a pass keeps them, and so does a restart
        // (the horizon is in the batch).
        roll(&log).await;
        let s = pass(&log, stamped_at + HOUR_MS - 1).await;
        assert_eq!((s.markers_stamped, s.markers_removed), (0, 0), "{s:?}");
        drop(log);
        let log = Log::open(&dir, marker_config()).await.unwrap();
        assert_eq!(marker_offsets(&log).await.len(), 8);

        // At the horizon: the markers of the transactions with no data
        // left go (m1: superseded, m3: aborted), with m3's aborted entry;
        // m2 (a record survives), the producers' last markers (m6 among
        // them) and m4 stay.
        roll(&log).await;
        let s = pass(&log, stamped_at + HOUR_MS).await;
        assert_eq!((s.markers_stamped, s.markers_removed), (0, 2), "{s:?}");
        let markers = marker_offsets(&log).await;
        let mut expected = [vec![m2, m4, m6], last.clone()].concat();
        expected.sort_unstable();
        assert_eq!(markers, expected);
        let end = log.log_end_offset();
        assert!(log.aborted_transactions(0, end).is_empty());
        assert!(log.ongoing_transactions().is_empty());
        assert_eq!(log.last_stable_offset(end), end);
        let before = (state(&log), records(&log).await);

        // A reopen (from the snapshot and the `.txnindex` files) and one
        // that reads every segment (no snapshot) agree.
        drop(log);
        let log = Log::open(&dir, marker_config()).await.unwrap();
        assert_eq!((state(&log), records(&log).await), before);
        drop(log);
        for f in files(&dir, "snapshot") {
            std::fs::remove_file(f).unwrap();
        }
        let log = Log::open(&dir, marker_config()).await.unwrap();
        assert_eq!((state(&log), records(&log).await), before);
        let mut fenced: Vec<_> = log
            .producer_markers()
            .iter()
            .map(|m| (m.producer_id, m.offset))
            .collect();
        fenced.sort_unstable();
        assert_eq!(
            fenced,
            vec![(1, last[0]), (2, last[1]), (3, last[2]), (4, m4), (6, m6)]
        );
    });
}

#[test]
fn a_marker_stays_while_a_snapshot_holds_its_transaction_open() {
    let dir = test_dir("txn-marker-snap");
    run(async {
        let log = Log::open(&dir, marker_config()).await.unwrap();
        // Producer 5's transaction spans a roll: the snapshot at the new
        // segment's base holds it open.
        let first = append(&log, keyed_txn(5, 0, "k", "v")).await;
        roll(&log).await;
        let inside = log.active_segment_base();
        let m5 = append(&log, marker(5, true)).await;
        append(&log, plain("k", "later")).await;
        append(&log, keyed_txn(5, 1, "last", "v")).await;
        append(&log, marker(5, true)).await;
        roll(&log).await;
        assert!(
            files(&dir, "snapshot")
                .iter()
                .any(|f| f.ends_with(format!("{inside:020}.snapshot")))
        );
        // Reads (and removes) the transaction's record.
        pass(&log, now() + 2 * HOUR_MS).await;
        assert!(!records(&log).await.iter().any(|r| r.1 == first));
        assert!(marker_offsets(&log).await.contains(&m5));
        roll(&log).await;
        // No data left, but the snapshot at `inside` is still kept: the
        // marker stays as it is.
        let s = pass(&log, now() + 2 * HOUR_MS).await;
        assert_eq!((s.markers_stamped, s.markers_removed), (0, 0), "{s:?}");
        assert!(marker_offsets(&log).await.contains(&m5));
        // A restart that has to fall back to that snapshot (the later ones
        // damaged) sees the transaction end.
        let copy = test_dir("txn-marker-snap-copy");
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, copy.join(f.file_name().unwrap())).unwrap();
        }
        for f in files(&copy, "snapshot") {
            if !f.ends_with(format!("{inside:020}.snapshot")) {
                std::fs::write(&f, b"damaged").unwrap();
            }
        }
        let reopened = Log::open(&copy, marker_config()).await.unwrap();
        let end = reopened.log_end_offset();
        assert!(reopened.ongoing_transactions().is_empty());
        assert_eq!(reopened.last_stable_offset(end), end);
        drop(reopened);

        // Once that snapshot is dropped (three later ones), it gets its
        // horizon, and a pass past that removes it.
        roll(&log).await;
        assert!(
            !files(&dir, "snapshot")
                .iter()
                .any(|f| f.ends_with(format!("{inside:020}.snapshot")))
        );
        let s = pass(&log, now() + 2 * HOUR_MS).await;
        assert_eq!((s.markers_stamped, s.markers_removed), (1, 0), "{s:?}");
        roll(&log).await;
        let s = pass(&log, now() + 4 * HOUR_MS).await;
        assert_eq!((s.markers_stamped, s.markers_removed), (0, 1), "{s:?}");
        assert!(!marker_offsets(&log).await.contains(&m5));
        let end = log.log_end_offset();
        assert_eq!(log.last_stable_offset(end), end);
        let before = state(&log);
        assert!(before.2.is_empty());
        // Every remaining snapshot is past the marker: whichever a restart
        // loads, nothing is open.
        drop(log);
        let snaps = files(&dir, "snapshot");
        for keep in &snaps {
            let copy = test_dir("txn-marker-snap-each");
            for f in std::fs::read_dir(&dir).unwrap() {
                let f = f.unwrap().path();
                std::fs::copy(&f, copy.join(f.file_name().unwrap())).unwrap();
            }
            for f in files(&copy, "snapshot") {
                if f.file_name() != keep.file_name() {
                    std::fs::write(&f, b"damaged").unwrap();
                }
            }
            let log = Log::open(&copy, marker_config()).await.unwrap();
            assert_eq!(state(&log), before, "{keep:?}");
        }
        // A snapshot left below the kept ones (by a crash inside a roll)
        // is removed at open: it would hold every later marker back.
        let stray = dir.join(format!("{:020}.snapshot", 0));
        std::fs::copy(&snaps[0], &stray).unwrap();
        let log = Log::open(&dir, marker_config()).await.unwrap();
        assert!(!stray.exists());
        assert_eq!(files(&dir, "snapshot"), snaps);
        assert_eq!(state(&log), before);
    });
}
