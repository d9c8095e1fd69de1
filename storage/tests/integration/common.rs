//! Shared helpers for the storage integration tests.
#![allow(dead_code)]

use std::future::Future;
use std::path::PathBuf;

use bytes::{Bytes, BytesMut};
use kafka_protocol::records::{Compression, NewRecord, RecordBatch, RecordBatchBuilder};
use tidemark_storage::{Log, LogConfig};

pub fn run<F: Future>(f: F) -> F::Output {
    monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
        .enable_timer()
        .build()
        .expect("runtime")
        .block_on(f)
}

/// A fresh directory on the target disk (ext4 here, so O_DIRECT is
/// exercised; tmpfs would take the buffered fallback).
pub fn test_dir(name: &str) -> PathBuf {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("storage-tests");
    std::fs::create_dir_all(&base).unwrap();
    let d = tempfile::Builder::new()
        .prefix(name)
        .tempdir_in(base)
        .unwrap();
    d.keep()
}

pub fn small_config() -> LogConfig {
    LogConfig {
        segment_bytes: 16 * 1024,
        index_interval_bytes: 512,
        tail_cache_bytes: 4096,
        max_batch_bytes: 8 * 1024,
        retention_ms: -1,
        ..LogConfig::default()
    }
}

/// A batch whose content is a pure function of `seed`, so a checker can
/// rebuild the exact bytes the writer appended.
pub fn batch_for(seed: u64, records: usize, value_len: usize) -> Bytes {
    let mut b = RecordBatchBuilder::new();
    for i in 0..records {
        let v: Vec<u8> = (0..value_len)
            .map(|j| (seed as usize * 31 + i * 7 + j) as u8)
            .collect();
        b.push(
            NewRecord::new(v)
                .with_key(format!("k{}", (seed as usize + i) % 13))
                .with_timestamp(1_000 + seed as i64),
        );
    }
    b.build().unwrap()
}

pub fn keyed_batch(records: &[(Option<&str>, Option<&str>)], ts: i64, codec: Compression) -> Bytes {
    let mut b = RecordBatchBuilder::new().compression(codec);
    for (k, v) in records {
        let mut r = NewRecord {
            value: v.map(|v| Bytes::copy_from_slice(v.as_bytes())),
            timestamp: ts,
            ..Default::default()
        };
        if let Some(k) = k {
            r = r.with_key(Bytes::copy_from_slice(k.as_bytes()));
        }
        b.push(r);
    }
    b.build().unwrap()
}

pub fn stamped(batch: &Bytes, base: i64, epoch: i32) -> Bytes {
    let mut m = BytesMut::from(&batch[..]);
    kafka_protocol::records::stamp_batch(
        &mut m,
        &kafka_protocol::records::Stamp {
            base_offset: base,
            partition_leader_epoch: epoch,
            log_append_time: None,
        },
    )
    .unwrap();
    m.freeze()
}

/// Every batch from `from` to the end, concatenated reads.
pub async fn read_all(log: &Log, from: i64) -> Vec<RecordBatch> {
    let mut out = Vec::new();
    let mut at = from;
    for _ in 0..100_000 {
        let r = log.read(at, 64 * 1024, None).await.unwrap();
        if r.batches.is_empty() {
            break;
        }
        at = r.next_offset;
        out.extend(r.batches.into_iter().map(|b| RecordBatch::new(b).unwrap()));
    }
    out
}

/// (offset, key, value) of every visible record.
pub async fn records(log: &Log) -> Vec<(i64, Option<Bytes>, Option<Bytes>)> {
    let mut out = Vec::new();
    let start = log.log_start_offset();
    for b in read_all(log, start).await {
        for r in b.decompressed_records(1 << 24).unwrap() {
            let r = r.unwrap();
            if r.offset() < start {
                continue;
            }
            out.push((r.offset(), r.key().cloned(), r.value().cloned()));
        }
    }
    out
}

/// Like [`read_all`] but stops at the first error, returning it.
pub async fn read_until_err(
    log: &Log,
    from: i64,
) -> (Vec<RecordBatch>, Option<tidemark_storage::StorageError>) {
    let mut out = Vec::new();
    let mut at = from;
    for _ in 0..100_000 {
        match log.read(at, 64 * 1024, None).await {
            Ok(r) if r.batches.is_empty() => break,
            Ok(r) => {
                at = r.next_offset;
                out.extend(r.batches.into_iter().map(|b| RecordBatch::new(b).unwrap()));
            }
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

/// How many spare segment files (`*.log.spare`) `dir` holds.
pub fn spare_files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".log.spare"))
        })
        .count()
}
