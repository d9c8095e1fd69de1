//! Crash tests with a real kill -9: the test binary re-runs itself as a
//! child (`child_writer`, gated by an environment variable) that appends
//! with sync-before-ack and prints each acknowledged offset; the parent
//! SIGKILLs it at a random moment, reopens the log and checks that every
//! acknowledged batch is there byte-identical and nothing torn is served.
//!
//! Modes: `append` (appends and rolls), `compact` (and compaction now and
//! then), `recycle` (larger batches and DeleteRecords now and then, so
//! removed segments' files are kept as spares and written over as new
//! segments: a crash leaves a segment whose file holds old batches past
//! its data, which must never be served).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use bytes::BytesMut;
use rand::Rng;
use tidemark_storage::{CleanupPolicy, Log, LogConfig};

const DIR_VAR: &str = "TIDEMARK_CRASH_DIR";
const MODE_VAR: &str = "TIDEMARK_CRASH_MODE";

fn crash_config(mode: &str) -> LogConfig {
    if mode == "recycle" {
        // Segments of many 4 KiB batches: spares are written over far past
        // a block, and a crash leaves whole old batches after the new data.
        return LogConfig {
            segment_bytes: 128 * 1024,
            max_batch_bytes: 16 * 1024,
            cleanup_policy: CleanupPolicy::Delete,
            ..small_config()
        };
    }
    LogConfig {
        segment_bytes: 32 * 1024,
        max_batch_bytes: 8 * 1024,
        cleanup_policy: CleanupPolicy::Compact,
        min_cleanable_dirty_ratio: 0.0,
        ..small_config()
    }
}

/// The batch appended at `base`: a pure function of the offset (and the
/// mode), so the parent can rebuild it. One record with key `k{base % 7}`.
fn batch_at(base: i64, mode: &str) -> bytes::Bytes {
    let pad = if mode == "recycle" { 4000 } else { 0 };
    keyed_batch(
        &[(
            Some(&format!("k{}", base % 7)),
            Some(&format!(
                "value-{base}-{}",
                "x".repeat(pad + (base % 300) as usize)
            )),
        )],
        1000 + base,
        kafka_protocol::records::Compression::None,
    )
}

/// Child mode: append forever (compacting now and then in mode
/// `compact`, moving the log start forward in mode `recycle`), printing
/// `ack <base>` after each acknowledged append.
#[test]
fn child_writer() {
    let Ok(dir) = std::env::var(DIR_VAR) else {
        return;
    };
    let mode = std::env::var(MODE_VAR).unwrap_or_default();
    run(async {
        let log = Log::open(&dir, crash_config(&mode)).await.unwrap();
        let mut n = 0u64;
        loop {
            let base = log.log_end_offset();
            let info = log
                .append(BytesMut::from(&batch_at(base, &mode)[..]), 1, None)
                .await
                .unwrap();
            assert_eq!(info.base_offset, base);
            println!("ack {base}");
            n += 1;
            if mode == "compact" && n.is_multiple_of(50) {
                log.compact(0).await.unwrap();
            }
            if mode == "recycle" && n.is_multiple_of(20) && base > 60 {
                // Keeps about 60 batches (~240 KiB, two segments).
                log.delete_records(base - 60).await.unwrap();
            }
        }
    });
}

fn spawn_child(dir: &std::path::Path, mode: &str, failpoint: Option<&str>) -> std::process::Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "crash::child_writer",
        "--exact",
        "--nocapture",
        "--test-threads=1",
    ])
    .env(DIR_VAR, dir)
    .env(MODE_VAR, mode)
    .stdout(Stdio::piped())
    .stderr(Stdio::null());
    if let Some(f) = failpoint {
        cmd.env("TIDEMARK_STORAGE_FAILPOINT", f);
    }
    cmd.spawn().unwrap()
}

/// Reads acks until `deadline` or the child exits, then kills it.
fn run_and_kill(mut child: std::process::Child, kill_after: Duration) -> Vec<i64> {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(o) = line.strip_prefix("ack ") {
                let _ = tx.send(o.parse::<i64>().unwrap());
            }
        }
    });
    std::thread::sleep(kill_after);
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
    reader.join().unwrap();
    rx.try_iter().collect()
}

/// Checks the reopened log: offsets strictly increase, every batch is the
/// one the writer would have appended there, every acknowledged batch is
/// present (or, with compaction, superseded by a later record of its key;
/// in mode `recycle`, below the log start).
fn verify(dir: &std::path::Path, acked: &[i64], mode: &str) -> i64 {
    let compacted = mode == "compact";
    run(async {
        let log = Log::open(dir, crash_config(mode)).await.unwrap();
        assert!(log.corruption().is_none(), "{:?}", log.corruption());
        let batches = read_all(&log, log.log_start_offset()).await;
        let mut prev = -1;
        let mut present = std::collections::BTreeMap::new();
        for b in &batches {
            assert!(b.base_offset() > prev, "offsets increase");
            prev = b.last_offset();
            b.verify_crc().unwrap();
            assert_eq!(
                b.as_bytes(),
                &stamped(&batch_at(b.base_offset(), mode), b.base_offset(), 1),
                "batch at {} is what was appended",
                b.base_offset()
            );
            present.insert(b.base_offset(), b.base_offset() % 7);
        }
        for &a in acked {
            if present.contains_key(&a) || (mode == "recycle" && a < log.log_start_offset()) {
                continue;
            }
            assert!(compacted, "acknowledged batch {a} lost");
            let superseded = present.range(a + 1..).any(|(_, &k)| k == a % 7);
            assert!(superseded, "acknowledged batch {a} lost (not superseded)");
        }
        assert_eq!(log.log_end_offset(), prev + 1);
        log.log_end_offset()
    })
}

fn crash_rounds(name: &str, mode: &str, rounds: usize) {
    let dir = test_dir(name);
    let mut rng = rand::rng();
    let mut acked = Vec::new();
    let start = Instant::now();
    let mut total_acks = 0;
    let mut spares_seen = 0;
    for _ in 0..rounds {
        if start.elapsed() > Duration::from_secs(40) {
            break;
        }
        let child = spawn_child(&dir, mode, None);
        let acks = run_and_kill(child, Duration::from_millis(rng.random_range(30..250)));
        total_acks += acks.len();
        acked.extend(acks);
        spares_seen += spare_files(&dir);
        verify(&dir, &acked, mode);
    }
    assert!(
        total_acks > 100,
        "children acknowledged only {total_acks} appends"
    );
    if mode == "recycle" {
        assert!(spares_seen > 0, "no child kept a spare segment file");
    }
}

#[test]
fn kill_9_during_appends_and_rolls() {
    crash_rounds("crash-append", "append", 12);
}

#[test]
fn kill_9_while_segments_are_recycled() {
    crash_rounds("crash-recycle", "recycle", 12);
}

#[test]
fn kill_9_during_compaction() {
    crash_rounds("crash-compact", "compact", 10);
}

/// Deterministic crashes at each step of a roll and of a compaction swap.
#[test]
fn abort_at_every_failpoint() {
    for (point, mode) in [
        ("roll.after_seal", "append"),
        ("roll.after_create", "append"),
        ("compact.before_swap", "compact"),
        ("compact.before_rename", "compact"),
        ("compact.after_rename", "compact"),
    ] {
        let dir = test_dir(point);
        // A first run to have sealed segments to compact.
        let acked = run_and_kill(
            spawn_child(&dir, "append", None),
            Duration::from_millis(300),
        );
        let child = spawn_child(&dir, mode, Some(point));
        let mut child = child;
        let t = Instant::now();
        while child.try_wait().unwrap().is_none() && t.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(10));
        }
        let status = child.try_wait().unwrap();
        let more = run_and_kill(child, Duration::ZERO);
        assert!(
            status.is_some_and(|s| !s.success()),
            "{point}: child did not abort at the failpoint"
        );
        let mut all = acked.clone();
        all.extend(more);
        verify(&dir, &all, mode);
    }
}
