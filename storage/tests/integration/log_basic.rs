use std::rc::Rc;

use crate::common::*;
use bytes::BytesMut;
use kafka_protocol::records::Compression;
use tidemark_storage::{CleanupPolicy, ConfigError, FlushPolicy, Log, LogConfig, StorageError};

#[test]
fn append_read_roll_reopen_byte_identical() {
    let dir = test_dir("basic");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert!(log.is_direct_io(), "ext4 test dir should take O_DIRECT");
        let mut expected = Vec::new();
        for i in 0..200u64 {
            let b = batch_for(i, 3, 100);
            let info = log.append(BytesMut::from(&b[..]), 5, None).await.unwrap();
            assert_eq!(info.base_offset, i as i64 * 3);
            assert_eq!(info.last_offset, i as i64 * 3 + 2);
            expected.push(stamped(&b, info.base_offset, 5));
        }
        assert!(log.segment_count() > 3, "rolled by segment.bytes");
        assert_eq!(log.log_end_offset(), 600);
        let got = read_all(&log, 0).await;
        assert_eq!(got.len(), 200);
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g.as_bytes(), e);
        }
        // A read from the middle of a batch returns that batch.
        let r = log.read(301, 1, None).await.unwrap();
        assert_eq!(r.batches[0], expected[100]);
        assert_eq!(r.next_offset, 303);
        // max_offset (the high watermark) bounds reads.
        let r = log.read(0, 1 << 20, Some(9)).await.unwrap();
        assert_eq!(r.batches.len(), 3);
        log.close().await.unwrap();
        drop(log);

        let log = Log::open(&dir, small_config()).await.unwrap();
        assert_eq!(log.log_end_offset(), 600);
        let got = read_all(&log, 0).await;
        assert_eq!(got.len(), 200);
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g.as_bytes(), e);
        }
        let info = log
            .append(BytesMut::from(&batch_for(7, 1, 10)[..]), 6, None)
            .await
            .unwrap();
        assert_eq!(info.base_offset, 600);
        assert_eq!(log.epochs(), vec![(5, 0), (6, 600)]);
    });
}

#[test]
fn group_commit_shares_fdatasync() {
    let dir = test_dir("group");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let before = log.flush_count();
        let mut tasks = Vec::new();
        for i in 0..32u64 {
            let log = Rc::clone(&log);
            tasks.push(monoio::spawn(async move {
                log.append(BytesMut::from(&batch_for(i, 1, 50)[..]), 0, None)
                    .await
                    .unwrap()
            }));
        }
        let mut offsets = Vec::new();
        for t in tasks {
            offsets.push(t.await.base_offset);
        }
        offsets.sort();
        assert_eq!(offsets, (0..32).collect::<Vec<_>>());
        let flushes = log.flush_count() - before;
        assert!(
            (1..32).contains(&flushes),
            "32 concurrent appends took {flushes} flushes"
        );
        assert_eq!(log.durable_offset(), 32);
    });
}

#[test]
fn interval_flush_policy_syncs_in_background() {
    let dir = test_dir("interval");
    run(async {
        let cfg = LogConfig {
            flush: FlushPolicy::Interval {
                interval: std::time::Duration::from_millis(20),
                bytes: 1 << 20,
            },
            ..small_config()
        };
        let log = Log::open(&dir, cfg).await.unwrap();
        log.append(BytesMut::from(&batch_for(1, 1, 10)[..]), 0, None)
            .await
            .unwrap();
        assert_eq!(
            log.durable_offset(),
            0,
            "interval policy returns before syncing"
        );
        for _ in 0..100 {
            if log.durable_offset() == 1 {
                break;
            }
            monoio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(log.durable_offset(), 1);
    });
}

#[test]
fn truncate_epochs_and_timestamps() {
    let dir = test_dir("trunc");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        for i in 0..100u64 {
            let epoch = (i / 30) as i32; // epochs 0,1,2,3 start at 0,60,120,180
            log.append(BytesMut::from(&batch_for(i, 2, 80)[..]), epoch, None)
                .await
                .unwrap();
        }
        assert_eq!(log.epochs(), vec![(0, 0), (1, 60), (2, 120), (3, 180)]);
        assert_eq!(log.end_offset_for_epoch(3), (3, 200));
        assert_eq!(log.end_offset_for_epoch(1), (1, 120));
        assert_eq!(log.end_offset_for_epoch(9), (-1, -1));
        // batch i has timestamp 1000 + i
        assert_eq!(
            log.offset_for_timestamp(1050).await.unwrap(),
            Some((100, 1050))
        );
        assert_eq!(log.offset_for_timestamp(0).await.unwrap(), Some((0, 1000)));
        assert_eq!(log.offset_for_timestamp(5000).await.unwrap(), None);

        // Truncate inside a sealed segment, mid-batch: the batch goes.
        let leo = log.truncate(71).await.unwrap();
        assert_eq!(leo, 70);
        assert_eq!(log.log_end_offset(), 70);
        assert_eq!(log.epochs(), vec![(0, 0), (1, 60)]);
        assert_eq!(read_all(&log, 0).await.len(), 35);
        let info = log
            .append(BytesMut::from(&batch_for(999, 1, 10)[..]), 4, None)
            .await
            .unwrap();
        assert_eq!(info.base_offset, 70);
        assert_eq!(log.end_offset_for_epoch(2), (1, 70));
        drop(log);
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert_eq!(log.log_end_offset(), 71);
        assert_eq!(log.epochs(), vec![(0, 0), (1, 60), (4, 70)]);
        let all = read_all(&log, 0).await;
        assert_eq!(all.len(), 36);
        assert_eq!(all[35].as_bytes(), &stamped(&batch_for(999, 1, 10), 70, 4));
    });
}

#[test]
fn replicated_appends_must_be_contiguous() {
    let dir = test_dir("repl");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let a = stamped(&batch_for(1, 2, 10), 0, 3);
        let b = stamped(&batch_for(2, 2, 10), 2, 3);
        let mut both = BytesMut::from(&a[..]);
        both.extend_from_slice(&b);
        let info = log.append_replicated(both.freeze()).await.unwrap();
        assert_eq!((info.base_offset, info.last_offset), (0, 3));
        let gap = stamped(&batch_for(3, 1, 10), 10, 3);
        assert!(matches!(
            log.append_replicated(gap).await,
            Err(StorageError::NonContiguous {
                expected: 4,
                got: 10
            })
        ));
        let mut bad = BytesMut::from(&stamped(&batch_for(3, 1, 10), 4, 3)[..]);
        let n = bad.len();
        bad[n - 1] ^= 0xff;
        assert!(matches!(
            log.append_replicated(bad.freeze()).await,
            Err(StorageError::InvalidBatch(_))
        ));
        assert!(matches!(
            log.append(BytesMut::from(&b"junk"[..]), 0, None).await,
            Err(StorageError::InvalidBatch(_))
        ));
    });
}

/// A log reset (a Raft follower taking its leader's log): everything goes,
/// the log starts again at the given offset, copied batches may skip
/// offsets (a compacted part), and a skip to the first offset Raft
/// resumes at survives a reopen.
#[test]
fn reset_copy_with_gaps_and_skip() {
    let dir = test_dir("reset");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        for i in 0..100u64 {
            log.append(BytesMut::from(&batch_for(i, 2, 100)[..]), 1, None)
                .await
                .unwrap();
        }
        assert!(log.segment_count() > 1);
        log.reset_to(500).await.unwrap();
        assert_eq!((log.log_start_offset(), log.log_end_offset()), (500, 500));
        assert_eq!(log.segment_count(), 1);
        assert!(log.epochs().is_empty());
        assert!(read_all(&log, 500).await.is_empty());
        // Copied batches: 500-501, then (after a gap) 510-511 and 520-521.
        let mut copy = BytesMut::new();
        for (seed, base) in [(1, 500), (2, 510), (3, 520)] {
            copy.extend_from_slice(&stamped(&batch_for(seed, 2, 10), base, 4));
        }
        let info = log.append_copied(copy.freeze()).await.unwrap();
        assert_eq!((info.base_offset, info.last_offset), (500, 521));
        // Going backwards is refused, gaps or not.
        assert!(matches!(
            log.append_copied(stamped(&batch_for(4, 1, 10), 515, 4))
                .await,
            Err(StorageError::NonContiguous { .. })
        ));
        // Raft resumes at 530: the offsets in between hold nothing.
        log.skip_to(530).await.unwrap();
        assert_eq!(log.log_end_offset(), 530);
        log.append_replicated(stamped(&batch_for(5, 1, 10), 530, 5))
            .await
            .unwrap();
        let want: Vec<i64> = vec![500, 510, 520, 530];
        let got: Vec<i64> = read_all(&log, 500)
            .await
            .iter()
            .map(|b| b.base_offset())
            .collect();
        assert_eq!(got, want);
        drop(log);
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert_eq!((log.log_start_offset(), log.log_end_offset()), (500, 531));
        assert_eq!(log.epochs(), vec![(4, 500), (5, 530)]);
        let got: Vec<i64> = read_all(&log, 500)
            .await
            .iter()
            .map(|b| b.base_offset())
            .collect();
        assert_eq!(got, want);
        // A reset of a log that holds nothing but a start: skipping just
        // moves the start.
        log.reset_to(600).await.unwrap();
        log.skip_to(650).await.unwrap();
        assert_eq!((log.log_start_offset(), log.log_end_offset()), (650, 650));
        drop(log);
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert_eq!((log.log_start_offset(), log.log_end_offset()), (650, 650));
    });
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn retention_and_delete_records() {
    let dir = test_dir("retention");
    run(async {
        let cfg = LogConfig {
            retention_bytes: 40 * 1024,
            ..small_config()
        };
        let log = Log::open(&dir, cfg).await.unwrap();
        for i in 0..300u64 {
            log.append(BytesMut::from(&batch_for(i, 2, 100)[..]), 0, None)
                .await
                .unwrap();
        }
        let segs = log.segment_count();
        // Where retention would cut, whatever holds it back.
        let cut = log
            .retention_cut(i64::MAX / 2)
            .expect("something to delete");
        assert!(cut > 0);
        log.set_max_collectible_offset(0);
        assert_eq!(log.apply_retention(i64::MAX / 2).await.unwrap(), 0);
        assert_eq!(log.retention_cut(i64::MAX / 2), Some(cut));
        log.set_max_collectible_offset(cut);
        let deleted = log.apply_retention(i64::MAX / 2).await.unwrap();
        assert!(deleted > 0);
        assert_eq!(log.segment_count(), segs - deleted);
        assert!(log.size_bytes() <= 40 * 1024 + 16 * 1024);
        let start = log.log_start_offset();
        assert_eq!(start, cut, "retention cut exactly where it said");
        assert_eq!(log.retention_cut(i64::MAX / 2), None);
        log.set_max_collectible_offset(i64::MAX);
        assert!(matches!(
            log.read(start - 1, 100, None).await,
            Err(StorageError::OffsetOutOfRange { .. })
        ));
        assert_eq!(read_all(&log, start).await[0].base_offset(), start);

        let new_start = log.delete_records(start + 31).await.unwrap();
        assert_eq!(new_start, start + 31);
        let first = &read_all(&log, new_start).await[0];
        assert!(first.base_offset() <= new_start && first.last_offset() >= new_start);
        drop(log);
        let log = Log::open(
            &dir,
            LogConfig {
                retention_bytes: 40 * 1024,
                ..small_config()
            },
        )
        .await
        .unwrap();
        assert_eq!(log.log_start_offset(), new_start);

        // retention.ms: everything sealed is older than now - 1ms at a far-future now.
        let cfg = LogConfig {
            retention_ms: 1,
            ..small_config()
        };
        drop(log);
        let log = Log::open(&dir, cfg).await.unwrap();
        log.apply_retention(i64::MAX / 2).await.unwrap();
        assert_eq!(log.segment_count(), 1, "only the active segment remains");
        assert_eq!(log.log_start_offset(), log.active_segment_base());
    });
}

#[test]
fn compaction_keeps_latest_per_key_with_gaps() {
    let dir = test_dir("compact");
    run(async {
        let cfg = LogConfig {
            cleanup_policy: CleanupPolicy::Compact,
            min_cleanable_dirty_ratio: 0.0,
            delete_retention_ms: 1000,
            segment_bytes: 2048,
            max_batch_bytes: 2048,
            ..small_config()
        };
        let log = Log::open(&dir, cfg).await.unwrap();
        let codecs = [
            Compression::None,
            Compression::Gzip,
            Compression::Lz4,
            Compression::Zstd,
            Compression::Snappy,
        ];
        let mut i = 0;
        for round in 0..12 {
            for (c, codec) in codecs.iter().enumerate() {
                let v = format!("v{round}-{c}");
                let recs = [
                    (Some("a"), Some(v.as_str())),
                    (Some("b"), Some(v.as_str())),
                    (None, Some("nokey")),
                ];
                log.append(
                    BytesMut::from(&keyed_batch(&recs, 10_000, *codec)[..]),
                    0,
                    None,
                )
                .await
                .unwrap();
                i += 1;
            }
        }
        // A tombstone for b: old enough to be removed at now=100_000.
        log.append(
            BytesMut::from(&keyed_batch(&[(Some("b"), None)], 10_000, Compression::None)[..]),
            0,
            None,
        )
        .await
        .unwrap();
        // Fill so the tombstone is sealed.
        for _ in 0..60 {
            log.append(
                BytesMut::from(
                    &keyed_batch(&[(Some("c"), Some("x"))], 10_000, Compression::None)[..],
                ),
                0,
                None,
            )
            .await
            .unwrap();
        }
        let _ = i;
        let before = records(&log).await;
        let active = log.active_segment_base();
        let stats = log.compact(100_000).await.unwrap();
        assert!(
            stats.ran && stats.segments_rewritten > 0 && stats.records_removed > 0,
            "{stats:?}"
        );
        let after = records(&log).await;
        // Model: in sealed segments keep only the latest per key; tombstones
        // that are latest and old are removed; keyless kept; active untouched.
        let mut latest = std::collections::HashMap::new();
        for (o, k, _) in before.iter().filter(|r| r.0 < active) {
            if let Some(k) = k {
                latest.insert(k.clone(), *o);
            }
        }
        let expected: Vec<_> = before
            .iter()
            .filter(|(o, k, v)| {
                *o >= active
                    || match k {
                        None => true,
                        Some(k) => latest[k] == *o && v.is_some(),
                    }
            })
            .cloned()
            .collect();
        assert_eq!(after, expected);
        assert!(active > 180, "the tombstone is sealed");
        assert!(
            !after.iter().any(|r| r.1.as_deref() == Some(&b"b"[..])),
            "old tombstone removed with what it deleted"
        );
        // Survives reopen, offsets kept.
        drop(log);
        let log = Log::open(
            &dir,
            LogConfig {
                cleanup_policy: CleanupPolicy::Compact,
                segment_bytes: 2048,
                max_batch_bytes: 2048,
                ..small_config()
            },
        )
        .await
        .unwrap();
        assert_eq!(records(&log).await, expected);
        // Dirty ratio: nothing new is dirty, so a pass at ratio 0.5 skips.
        let s = log.compact(100_000).await.unwrap();
        assert!(!s.ran);
    });
}

#[test]
fn config_validation() {
    let bad = |c: LogConfig| c.validate().unwrap_err();
    assert!(matches!(
        bad(LogConfig {
            segment_bytes: 0,
            ..LogConfig::default()
        }),
        ConfigError::Invalid {
            key: "segment.bytes",
            ..
        }
    ));
    assert!(matches!(
        bad(LogConfig {
            retention_ms: -2,
            ..LogConfig::default()
        }),
        ConfigError::Invalid {
            key: "retention.ms",
            ..
        }
    ));
    assert!(matches!(
        bad(LogConfig {
            retention_bytes: -5,
            ..LogConfig::default()
        }),
        ConfigError::Invalid {
            key: "retention.bytes",
            ..
        }
    ));
    assert!(matches!(
        bad(LogConfig {
            min_cleanable_dirty_ratio: 1.5,
            ..LogConfig::default()
        }),
        ConfigError::Invalid { .. }
    ));
    let e = LogConfig::default()
        .with_props([("cleanup.policy", "compact,shred")])
        .unwrap_err();
    assert!(e.to_string().contains("cleanup.policy"), "{e}");
    assert!(matches!(
        LogConfig::default().with_props([("segment.bytes", "0")]),
        Err(ConfigError::Invalid { .. })
    ));
    assert!(matches!(
        LogConfig::default().with_props([("retention.ms", "-7")]),
        Err(ConfigError::Invalid { .. })
    ));
    assert!(matches!(
        LogConfig::default().with_props([("no.such", "1")]),
        Err(ConfigError::UnknownKey(_))
    ));
    let ok = LogConfig::default()
        .with_props([
            ("cleanup.policy", "delete, compact"),
            ("retention.ms", "-1"),
        ])
        .unwrap();
    assert_eq!(ok.cleanup_policy, CleanupPolicy::CompactDelete);
    let dir = test_dir("badcfg");
    run(async {
        let r = Log::open(
            &dir,
            LogConfig {
                segment_bytes: 0,
                ..LogConfig::default()
            },
        )
        .await;
        assert!(matches!(r, Err(StorageError::Config(_))));
    });
}

#[test]
fn leader_append_refuses_a_corrupt_batch_and_stamps_append_time() {
    let dir = test_dir("stamp");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let b = batch_for(0, 3, 100);
        // A flipped byte in the records (CRC-covered) is refused, and
        // nothing is appended.
        let mut bad = BytesMut::from(&b[..]);
        let last = bad.len() - 1;
        bad[last] ^= 0x40;
        match log.append(bad, 1, None).await {
            Err(StorageError::InvalidBatch(
                kafka_protocol::records::RecordError::CrcMismatch { .. },
            )) => {}
            other => panic!("expected a CRC mismatch, got {other:?}"),
        }
        assert_eq!(log.log_end_offset(), 0);
        // So is a flipped byte in the attributes (the first covered byte).
        let mut bad = BytesMut::from(&b[..]);
        bad[22] ^= 0x01;
        assert!(log.append(bad, 1, None).await.is_err());
        // Plain appends keep the producer's CRC, which still verifies.
        let info = log.append(BytesMut::from(&b[..]), 1, None).await.unwrap();
        assert_eq!(info.base_offset, 0);
        // LogAppendTime rewrites maxTimestamp and the CRC.
        let info = log
            .append(BytesMut::from(&b[..]), 2, Some(1_234_567))
            .await
            .unwrap();
        assert_eq!(info.base_offset, 3);
        let got = read_all(&log, 0).await;
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].as_bytes(), &stamped(&b, 0, 1)[..]);
        for (g, (base, epoch)) in got.iter().zip([(0, 1), (3, 2)]) {
            g.verify_crc().unwrap();
            assert_eq!(g.base_offset(), base);
            assert_eq!(g.partition_leader_epoch(), epoch);
        }
        assert_eq!(got[1].max_timestamp(), 1_234_567);
        assert_eq!(
            got[1].timestamp_type(),
            kafka_protocol::records::TimestampType::LogAppendTime
        );
    });
}

/// `set_max_collectible_offset` bounds retention, DeleteRecords and
/// compaction (the Raft replica's purge point); moving it up releases
/// what is below.
#[test]
fn max_collectible_offset_bounds_retention_delete_records_and_compaction() {
    let dir = test_dir("collectible");
    run(async {
        let cfg = LogConfig {
            retention_bytes: 0,
            cleanup_policy: CleanupPolicy::CompactDelete,
            min_cleanable_dirty_ratio: 0.0,
            ..small_config()
        };
        let log = Log::open(&dir, cfg).await.unwrap();
        // The same 13 keys over and over: compaction has plenty to drop.
        for i in 0..600u64 {
            log.append(BytesMut::from(&batch_for(i, 2, 100)[..]), 0, None)
                .await
                .unwrap();
        }
        let segs = log.segment_count();
        assert!(segs > 8, "{segs} segments");
        let limit = 500;
        log.set_max_collectible_offset(limit);
        assert_eq!(log.max_collectible_offset(), limit);

        let before = read_all(&log, 0).await;
        let stats = log.compact(i64::MAX / 2).await.unwrap();
        assert!(stats.ran && stats.records_removed > 0, "{stats:?}");
        let after = read_all(&log, 0).await;
        // Nothing at or past the limit changed, batch for batch.
        let tail = |v: &[kafka_protocol::records::RecordBatch]| {
            v.iter()
                .filter(|b| b.last_offset() >= limit)
                .map(|b| b.as_bytes().clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(tail(&before), tail(&after));
        assert!(after.len() < before.len());

        // retention.bytes=0 wants everything sealed gone; only segments
        // ending at or below the limit go.
        let deleted = log.apply_retention(i64::MAX / 2).await.unwrap();
        assert!(deleted > 0 && deleted < segs - 1, "{deleted} of {segs}");
        let start = log.log_start_offset();
        assert!(start <= limit && start > 0, "log start {start}");
        assert_eq!(tail(&read_all(&log, start).await), tail(&before));

        assert!(matches!(
            log.delete_records(limit + 1).await,
            Err(StorageError::NotCollectible {
                offset: 501,
                limit: 500
            })
        ));
        assert_eq!(log.delete_records(limit).await.unwrap(), limit);

        // Released: retention now deletes every sealed segment.
        log.set_max_collectible_offset(i64::MAX);
        log.apply_retention(i64::MAX / 2).await.unwrap();
        assert_eq!(log.segment_count(), 1);
    });
}

#[test]
fn the_tail_cache_keeps_what_followers_still_need_up_to_its_cap() {
    // small_config: a 4 KiB tail cache, so the cap is 8 x 4 KiB.
    let dir = test_dir("cache-floor");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let cap = 4096 * tidemark_storage::CACHE_FLOOR_FACTOR;
        let append = |i: u64| {
            let log = log.clone();
            async move {
                log.append(BytesMut::from(&batch_for(i, 3, 100)[..]), 1, None)
                    .await
                    .unwrap()
            }
        };
        for i in 0..20 {
            append(i).await;
        }
        let plain = log.memory_bytes();
        // Followers still need everything from offset 0: the cache grows
        // past 4 KiB, but not past its cap.
        log.set_cache_floor(0);
        for i in 20..200 {
            append(i).await;
        }
        let held = log.memory_bytes();
        assert!(held > plain + 3 * 4096, "held {held}, plain {plain}");
        assert!(held < plain + cap + 4096, "held {held}, cap {cap}");
        // They caught up: the cache shrinks back when trimmed (the
        // periodic check) or at the next append.
        log.set_cache_floor(log.log_end_offset());
        log.trim_cache();
        assert!(log.memory_bytes() < plain + 8192, "{}", log.memory_bytes());
        log.set_cache_floor(0);
        append(200).await;
        log.set_cache_floor(i64::MAX);
        append(201).await;
        assert!(log.memory_bytes() < plain + 8192, "{}", log.memory_bytes());
        // Reads are served the same either way.
        let got = read_all(&log, 0).await;
        assert_eq!(got.len(), 202);
    });
}

/// An idle log lets go of its writer, cache and readers (`park`); reads
/// and appends go on as before (the writer opens again at the next
/// flush), across segment rolls, and everything survives a reopen. A new
/// log costs no preallocation: an empty one holds no data blocks.
#[test]
fn a_parked_log_reads_appends_and_reopens() {
    let dir = test_dir("parked");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let seg0 = dir.join(format!("{:020}.log", 0));
        let blocks = |p: &std::path::Path| {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata(p).unwrap().blocks()
        };
        assert_eq!(blocks(&seg0), 0, "a new segment is not preallocated");
        let mut expected = Vec::new();
        for i in 0..10u64 {
            let b = batch_for(i, 2, 50);
            let info = log.append(BytesMut::from(&b[..]), 3, None).await.unwrap();
            expected.push(stamped(&b, info.base_offset, 3));
        }
        assert!(!log.is_parked());
        assert!(log.park(), "an idle log parks");
        assert!(log.is_parked());
        // Reads need no writer.
        let got = read_all(&log, 0).await;
        assert_eq!(got.len(), 10);
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g.as_bytes(), e);
        }
        // Appends open it again, and keep going through rolls.
        for i in 10..200u64 {
            let b = batch_for(i, 2, 50);
            let info = log.append(BytesMut::from(&b[..]), 3, None).await.unwrap();
            assert_eq!(info.base_offset, i as i64 * 2);
            expected.push(stamped(&b, info.base_offset, 3));
            if i % 37 == 0 {
                assert!(log.park());
            }
        }
        assert!(!log.is_parked());
        assert!(log.segment_count() > 2, "rolled by segment.bytes");
        assert!(log.park());
        log.close().await.unwrap();
        drop(log);

        let log = Log::open(&dir, small_config()).await.unwrap();
        assert!(log.is_parked(), "a log opens parked");
        let got = read_all(&log, 0).await;
        assert_eq!(got.len(), 200);
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g.as_bytes(), e);
        }
        let info = log
            .append(BytesMut::from(&batch_for(7, 1, 10)[..]), 4, None)
            .await
            .unwrap();
        assert_eq!(info.base_offset, 400);
    });
}

/// `min.compaction.lag.ms` leaves the segments holding recent records
/// alone (a prefix of the log is cleaned); `max.compaction.lag.ms` cleans
/// overdue dirty segments whatever the dirty ratio.
#[test]
fn compaction_lags() {
    let dir = test_dir("compaction-lags");
    run(async {
        let cfg = LogConfig {
            cleanup_policy: CleanupPolicy::Compact,
            min_cleanable_dirty_ratio: 0.0,
            segment_bytes: 2048,
            max_batch_bytes: 2048,
            min_compaction_lag_ms: 20_000,
            ..small_config()
        };
        let log = Log::open(&dir, cfg.clone()).await.unwrap();
        let append = |ts: i64| {
            let log = &log;
            async move {
                for key in ["a", "b", "a", "b"] {
                    let b = keyed_batch(&[(Some(key), Some("v"))], ts, Compression::None);
                    log.append(BytesMut::from(&b[..]), 0, None).await.unwrap();
                }
            }
        };
        for _ in 0..20 {
            append(10_000).await; // old
        }
        let old_end = log.log_end_offset();
        for _ in 0..20 {
            append(90_000).await; // newer than now - 20 s at now = 100 s
        }
        let active = log.active_segment_base();
        assert!(
            active > old_end + 20,
            "recent records reach sealed segments"
        );
        let before = records(&log).await;
        let stats = log.compact(100_000).await.unwrap();
        assert!(stats.ran && stats.records_removed > 0, "{stats:?}");
        let after = records(&log).await;
        // Every record at or past the first segment holding a recent one is
        // kept; before it, at most one record per key and segment pair
        // remains.
        let first_recent = before.iter().find(|r| r.0 >= old_end).unwrap().0;
        let kept_recent: Vec<_> = after.iter().filter(|r| r.0 >= first_recent).collect();
        let had_recent: Vec<_> = before.iter().filter(|r| r.0 >= first_recent).collect();
        let recent_segment_base = {
            // The segment holding `old_end` may hold old records too: it
            // is not cleanable, so everything from its base is kept.
            let mut base = 0;
            for r in &before {
                if r.0 <= old_end {
                    base = r.0;
                }
            }
            base
        };
        assert_eq!(kept_recent, had_recent);
        assert!(
            after.iter().filter(|r| r.0 < recent_segment_base).count()
                < before.iter().filter(|r| r.0 < recent_segment_base).count()
        );
        drop(log);

        // max.compaction.lag.ms: at ratio 1 a pass runs only when every
        // sealed byte is dirty; overdue dirty segments run it anyway.
        let dir2 = test_dir("compaction-max-lag");
        let cfg = LogConfig {
            min_cleanable_dirty_ratio: 1.0,
            min_compaction_lag_ms: 0,
            ..cfg
        };
        let log = Log::open(&dir2, cfg.clone()).await.unwrap();
        for _ in 0..20 {
            for key in ["a", "b"] {
                let b = keyed_batch(&[(Some(key), Some("v"))], 10_000, Compression::None);
                log.append(BytesMut::from(&b[..]), 0, None).await.unwrap();
            }
        }
        assert!(log.compact(100_000).await.unwrap().ran, "all dirty: runs");
        for _ in 0..20 {
            for key in ["a", "b"] {
                let b = keyed_batch(&[(Some(key), Some("w"))], 10_000, Compression::None);
                log.append(BytesMut::from(&b[..]), 0, None).await.unwrap();
            }
        }
        assert!(
            !log.compact(100_000).await.unwrap().ran,
            "ratio not reached"
        );
        drop(log);
        let log = Log::open(
            &dir2,
            LogConfig {
                max_compaction_lag_ms: 50_000,
                ..cfg
            },
        )
        .await
        .unwrap();
        let stats = log.compact(100_000).await.unwrap();
        assert!(stats.ran && stats.records_removed > 0, "overdue: {stats:?}");
        let _ = std::fs::remove_dir_all(&dir2);
    });
}

/// `max.message.bytes` may exceed `segment.bytes` (Kafka's configs allow
/// it); a new batch larger than a segment is refused on its own, and a
/// follower still copies one its leader took.
#[test]
fn a_batch_larger_than_a_segment_is_refused_on_append_only() {
    let dir = test_dir("segfit");
    run(async {
        let config = LogConfig::default()
            .with_props([("segment.bytes", "4096"), ("max.message.bytes", "1048588")])
            .unwrap();
        let log = Log::open(&dir, config).await.unwrap();
        let big = batch_for(0, 10, 1000);
        assert!(big.len() > 4096);
        match log.append(BytesMut::from(&big[..]), 1, None).await {
            Err(StorageError::BatchLargerThanSegment {
                size,
                segment_bytes: 4096,
            }) => assert_eq!(size, big.len()),
            other => panic!("expected BatchLargerThanSegment, got {other:?}"),
        }
        assert_eq!(log.log_end_offset(), 0);
        let small = batch_for(1, 2, 100);
        log.append(BytesMut::from(&small[..]), 1, None)
            .await
            .unwrap();
        // A follower's copy of a leader's batch (stamped at offset 2).
        let copied = stamped(&big, 2, 1);
        log.append_replicated(copied).await.unwrap();
        assert_eq!(log.log_end_offset(), 12);
        let got = read_all(&log, 0).await;
        assert_eq!(got.len(), 2);
    });
}

#[test]
fn a_segment_file_cut_under_a_read_serves_its_whole_batches_and_stops() {
    // What a read that still holds a segment removed by retention sees
    // while `file::Removal` frees it from the end: the file ends before
    // the segment's known end. The read must neither wait for the rest
    // (it never comes) nor report corruption.
    let dir = test_dir("cut-short");
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let mut expected = Vec::new();
        for i in 0..200u64 {
            let b = batch_for(i, 3, 100);
            let info = log.append(BytesMut::from(&b[..]), 5, None).await.unwrap();
            expected.push(stamped(&b, info.base_offset, 5));
        }
        assert!(log.segment_count() > 2);
        log.flush().await.unwrap();
        // Cut the first segment in the middle of a batch, under the open
        // log (which still counts its whole length).
        let first = dir.join("00000000000000000000.log");
        let len = std::fs::metadata(&first).unwrap().len();
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&first)
            .unwrap();
        f.set_len(len / 2 + 7).unwrap();
        drop(f);
        let r = monoio::time::timeout(
            std::time::Duration::from_secs(10),
            log.read(0, 1 << 20, None),
        )
        .await
        .expect("a read of a cut file must not wait for the rest")
        .expect("a cut file is not an error");
        assert!(!r.batches.is_empty(), "the whole batches before the cut");
        let whole = r.batches.len();
        for (g, e) in r.batches.iter().zip(&expected) {
            assert_eq!(&g[..], &e[..]);
        }
        let served: u64 = r.batches.iter().map(|b| b.len() as u64).sum();
        assert!(
            served <= len / 2 + 7,
            "nothing past the cut ({whole} batches)"
        );
        // A read starting at the batch the cut went through ends at once;
        // whatever it serves (the log goes on to the next segment) is
        // whole batches as appended.
        let r = monoio::time::timeout(
            std::time::Duration::from_secs(10),
            log.read(r.next_offset, 1 << 20, None),
        )
        .await
        .expect("a read starting in the cut batch must not wait for the rest")
        .expect("a cut file is not an error");
        for b in &r.batches {
            // Batch i holds offsets 3i..3i+2 (`batch_for(i, 3, ..)`).
            let base = i64::from_be_bytes(b[..8].try_into().unwrap());
            assert_eq!(&b[..], &expected[base as usize / 3][..]);
        }
        assert!(log.corruption().is_none(), "a cut is not corruption");
    });
}

/// Appends `batch_for(seed, 4, 1000)` (about 4 KiB) until the log rolls
/// to a new active segment, then `extra` more; returns the next seed.
async fn append_past_a_roll(log: &Log, mut seed: u64, extra: u64) -> u64 {
    let active = log.active_segment_base();
    for _ in 0..1000 {
        if log.active_segment_base() != active {
            break;
        }
        log.append(BytesMut::from(&batch_for(seed, 4, 1000)[..]), 0, None)
            .await
            .unwrap();
        seed += 1;
    }
    assert_ne!(log.active_segment_base(), active, "the log rolled");
    for _ in 0..extra {
        log.append(BytesMut::from(&batch_for(seed, 4, 1000)[..]), 0, None)
            .await
            .unwrap();
        seed += 1;
    }
    log.flush().await.unwrap();
    seed
}

/// Every batch from the log start on: offsets follow each other without
/// a gap or a step back, up to the log end.
async fn assert_contiguous(log: &Log) {
    let mut at = log.log_start_offset();
    let batches = read_all(log, at).await;
    assert!(!batches.is_empty());
    assert!(batches[0].base_offset() <= at);
    for b in &batches {
        b.verify_crc().unwrap();
        assert!(
            b.base_offset() <= at && b.last_offset() >= at,
            "batch {}..={} served where offset {at} belongs",
            b.base_offset(),
            b.last_offset()
        );
        at = b.next_offset();
    }
    assert_eq!(at, log.log_end_offset());
}

/// Removed segments' files are kept as spares and written over as the
/// next segments (`spare.rs`); their old batches are never served, before
/// or after a reopen without a clean close; and a spare that could hold
/// offsets a reset brings back is freed, not used.
#[test]
fn removed_segments_are_recycled_and_their_old_bytes_never_served() {
    let dir = test_dir("recycle");
    let cfg = || LogConfig {
        segment_bytes: 128 * 1024,
        max_batch_bytes: 16 * 1024,
        ..small_config()
    };
    run(async {
        let log = Log::open(&dir, cfg()).await.unwrap();
        let mut seed = 0;
        for _ in 0..6 {
            seed = append_past_a_roll(&log, seed, 0).await;
        }
        let segments = log.segment_count();
        log.delete_records(log.active_segment_base()).await.unwrap();
        assert_eq!(log.segment_count(), 1);
        let kept = log.spare_count();
        assert_eq!(kept, (segments - 1).min(4), "removed files kept, at most 4");
        assert_eq!(spare_files(&dir), kept);

        // The next segment is a spare written over: its file is as long
        // as the old segment, far past its own few KiB.
        seed = append_past_a_roll(&log, seed, 1).await;
        assert_eq!(log.spare_count(), kept - 1);
        let active = log.active_segment_base();
        let path = dir.join(format!("{active:020}.log"));
        let file_len = std::fs::metadata(&path).unwrap().len();
        assert!(file_len >= 100 * 1024, "recycled file of {file_len} bytes");
        assert_contiguous(&log).await;

        // A reopen without a clean close scans the active segment and
        // stops where its data ends, before the old batches.
        let leo = log.log_end_offset();
        drop(log);
        let log = Log::open(&dir, cfg()).await.unwrap();
        assert_eq!(log.log_end_offset(), leo);
        assert_eq!(spare_files(&dir), 0, "the last run's spares are removed");
        assert_contiguous(&log).await;
        // A log that has not rolled lately (none since it opened) keeps
        // no spare: it may not roll again for a long time.
        let segments = log.segment_count();
        log.delete_records(log.active_segment_base()).await.unwrap();
        assert!(log.segment_count() < segments, "a segment was removed");
        assert_eq!(log.spare_count(), 0, "no spare without a recent roll");
        assert_eq!(spare_files(&dir), 0);
        seed = append_past_a_roll(&log, seed, 2).await;
        assert_contiguous(&log).await;

        // Spares again, then a reset below their offsets: a segment
        // starting there must not be made from them.
        for _ in 0..4 {
            seed = append_past_a_roll(&log, seed, 0).await;
        }
        log.delete_records(log.active_segment_base()).await.unwrap();
        assert!(log.spare_count() > 0);
        log.reset_to(1).await.unwrap();
        append_past_a_roll(&log, seed, 1).await;
        assert_eq!(log.spare_count(), 0, "spares past the new offsets freed");
        let active = log.active_segment_base();
        let file_len = std::fs::metadata(dir.join(format!("{active:020}.log")))
            .unwrap()
            .len();
        assert!(
            file_len < 64 * 1024,
            "a new file, not a spare: {file_len} bytes"
        );
        let leo = log.log_end_offset();
        drop(log);
        let log = Log::open(&dir, cfg()).await.unwrap();
        assert_eq!(log.log_end_offset(), leo);
        assert_contiguous(&log).await;
    });
    std::fs::remove_dir_all(&dir).ok();
}
