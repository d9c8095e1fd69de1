//! Flipped bytes and truncated files, in the tail and in sealed segments.

use std::path::Path;

use crate::common::*;
use bytes::BytesMut;
use tidemark_storage::{Log, StorageError};

fn seg_files(dir: &Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

fn fill(dir: &Path, n: u64) -> Vec<bytes::Bytes> {
    run(async {
        let log = Log::open(dir, small_config()).await.unwrap();
        let mut out = Vec::new();
        for i in 0..n {
            let b = batch_for(i, 2, 200);
            let info = log.append(BytesMut::from(&b[..]), 0, None).await.unwrap();
            out.push(stamped(&b, info.base_offset, 0));
        }
        out
    })
}

fn flip(path: &Path, at: u64) {
    let mut d = std::fs::read(path).unwrap();
    d[at as usize] ^= 0x5a;
    std::fs::write(path, d).unwrap();
}

#[test]
fn torn_or_flipped_tail_is_cut() {
    for case in 0..3 {
        let dir = test_dir("tail");
        let written = fill(&dir, 60);
        let active = seg_files(&dir, "log").pop().unwrap();
        let len = std::fs::metadata(&active).unwrap().len();
        // The active file is preallocated: find the data end from the batches.
        let in_active = run(async {
            let log = Log::open(&dir, small_config()).await.unwrap();
            let base = log.active_segment_base();
            written
                .iter()
                .filter(|b| i64::from_be_bytes(b[..8].try_into().unwrap()) >= base)
                .map(|b| b.len())
                .sum::<usize>() as u64
        });
        assert!(in_active > 600 && len >= in_active);
        let last_len = written.last().unwrap().len() as u64;
        match case {
            0 => flip(&active, in_active - 5), // CRC-covered byte of the last batch
            1 => {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&active)
                    .unwrap();
                f.set_len(in_active - 7).unwrap();
            } // torn write
            _ => flip(&active, in_active - last_len + 9), // its length field
        }
        run(async {
            let log = Log::open(&dir, small_config()).await.unwrap();
            assert!(log.corruption().is_none());
            let got = read_all(&log, 0).await;
            assert_eq!(got.len(), 59, "case {case}: the last batch is cut");
            for (g, e) in got.iter().zip(&written) {
                assert_eq!(g.as_bytes(), e);
            }
            assert_eq!(log.log_end_offset(), 118);
            let info = log
                .append(BytesMut::from(&batch_for(500, 1, 10)[..]), 0, None)
                .await
                .unwrap();
            assert_eq!(info.base_offset, 118);
        });
        // And the cut is stable across another reopen.
        run(async {
            let log = Log::open(&dir, small_config()).await.unwrap();
            assert_eq!(log.log_end_offset(), 119);
        });
    }
}

#[test]
fn corrupt_sealed_segment_is_reported_and_not_served() {
    let dir = test_dir("sealed");
    let written = fill(&dir, 120);
    let logs = seg_files(&dir, "log");
    assert!(logs.len() >= 4);
    // Corrupt the second segment in the middle; force it to be rescanned
    // by removing its index and the recovery checkpoint.
    let victim = &logs[1];
    let vlen = std::fs::metadata(victim).unwrap().len();
    flip(victim, vlen / 2);
    std::fs::remove_file(dir.join("recovery-point-offset-checkpoint")).unwrap();
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let c = log.corruption().expect("corruption reported");
        assert_eq!(&c.path, victim);
        assert!(c.position <= vlen / 2 && c.position > 0);
        // Everything before it is served; at or past it, an error.
        let (before, err) = read_until_err(&log, 0).await;
        assert!(matches!(err, Some(StorageError::Corrupt { .. })));
        assert!(!before.is_empty());
        for (g, e) in before.iter().zip(&written) {
            assert_eq!(g.as_bytes(), e);
        }
        assert_eq!(before.last().unwrap().next_offset(), c.offset);
        assert!(matches!(
            log.read(c.offset, 1000, None).await,
            Err(StorageError::Corrupt { .. })
        ));
        assert!(matches!(
            log.read(log.log_end_offset() - 1, 1000, None).await,
            Err(StorageError::Corrupt { .. })
        ));
        // A follower would truncate below the damage and re-fetch.
        log.truncate(c.offset).await.unwrap();
        assert!(log.corruption().is_none());
        assert_eq!(read_all(&log, 0).await.len(), before.len());
    });
}

#[test]
fn corruption_found_on_read_of_trusted_segment() {
    let dir = test_dir("readcorrupt");
    let _ = fill(&dir, 120);
    let logs = seg_files(&dir, "log");
    flip(&logs[0], 300); // trusted at open (below the recovery point, index intact)
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        assert!(log.corruption().is_none(), "not scanned at open");
        let r = log.read(0, 1 << 20, None).await;
        assert!(matches!(r, Err(StorageError::Corrupt { .. })), "{r:?}");
        assert!(log.corruption().is_some());
    });
}

#[test]
fn damaged_or_missing_indexes_are_rebuilt() {
    let dir = test_dir("index");
    let written = fill(&dir, 120);
    let idx = seg_files(&dir, "index");
    std::fs::remove_file(&idx[0]).unwrap();
    flip(&idx[1], 10);
    let t = seg_files(&dir, "timeindex");
    let f = std::fs::OpenOptions::new().write(true).open(&t[2]).unwrap();
    f.set_len(7).unwrap();
    run(async {
        let log = Log::open(&dir, small_config()).await.unwrap();
        let got = read_all(&log, 0).await;
        assert_eq!(got.len(), 120);
        for (g, e) in got.iter().zip(&written) {
            assert_eq!(g.as_bytes(), e);
        }
        for i in [5i64, 77, 150, 201] {
            let r = log.read(i, 1, None).await.unwrap();
            let b = kafka_protocol::records::RecordBatch::new(r.batches[0].clone()).unwrap();
            assert!(b.base_offset() <= i && i <= b.last_offset());
        }
        assert_eq!(
            log.offset_for_timestamp(1000 + 50).await.unwrap(),
            Some((100, 1050))
        );
    });
    assert!(
        seg_files(&dir, "index").len() >= 3,
        "rebuilt index files written"
    );
}
