//! A write that hits ENOSPC (the broker's free-space guard,
//! `log.dir.min.free.bytes`, was not enough): the append fails with an
//! error, never a panic; the log refuses further writes rather than
//! retrying an fsync that may have lost data; every append that was
//! acknowledged is still there, byte for byte, after a reopen; and once
//! space is freed the reopened log takes appends again. `Log::failure`
//! tells a full disk apart, so the broker reopens such a log by itself
//! once space is back (`broker/src/disk_space.rs`).
//!
//! Needs a small file system: a 4 MiB tmpfs mounted by the test, so it
//! runs as root (as CI does) and says it skipped otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use bytes::BytesMut;
use tidemark_storage::{Log, LogConfig, StorageError};

const FS_BYTES: u64 = 4 << 20;

/// A tmpfs mounted for one test, unmounted when dropped.
struct SmallFs {
    path: PathBuf,
}

impl SmallFs {
    fn mount(name: &str) -> Option<SmallFs> {
        // SAFETY: geteuid has no preconditions and touches no memory.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: mounting a small tmpfs needs root");
            return None;
        }
        let path = test_dir(name);
        let out = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={FS_BYTES}"),
                "tidemark-enospc",
            ])
            .arg(&path)
            .output()
            .ok()?;
        if !out.status.success() {
            eprintln!(
                "skipped: cannot mount a tmpfs: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return None;
        }
        Some(SmallFs { path })
    }
}

impl Drop for SmallFs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.path).output();
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 256 * 1024,
        max_batch_bytes: 64 * 1024,
        retention_ms: -1,
        ..LogConfig::default()
    }
}

fn is_enospc(e: &StorageError) -> bool {
    let mut src: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = src {
        if let Some(io) = s.downcast_ref::<std::io::Error>()
            && io.raw_os_error() == Some(libc::ENOSPC)
        {
            return true;
        }
        src = s.source();
    }
    e.to_string().contains("No space left")
}

/// Appends until one fails; returns the acknowledged batches (stamped, as
/// stored) and the error.
async fn fill(dir: &Path) -> (Vec<bytes::Bytes>, StorageError) {
    let log = Log::open(dir, config()).await.unwrap();
    let mut acked = Vec::new();
    // Bounded: 4 MiB hold fewer than 1000 of these 8 KiB batches.
    for seed in 0..10_000u64 {
        let b = batch_for(seed, 8, 1000);
        match log.append(BytesMut::from(&b[..]), 3, None).await {
            Ok(info) => {
                assert_eq!(info.base_offset, seed as i64 * 8);
                acked.push(stamped(&b, info.base_offset, 3));
            }
            Err(e) => {
                // The log refuses further writes (no retried fsync).
                let again = log
                    .append(BytesMut::from(&batch_for(0, 1, 10)[..]), 3, None)
                    .await;
                assert!(again.is_err(), "a failed log took another append");
                // It says why, and that it was the space: reopenable.
                let (why, no_space) = log.failure().expect("the log is failed");
                assert!(no_space, "not seen as a full disk: {why}");
                // Reads of what was acknowledged are still served.
                let got = read_all(&log, 0).await;
                assert!(got.len() >= acked.len());
                for (g, a) in got.iter().zip(&acked) {
                    assert_eq!(g.as_bytes(), a);
                }
                return (acked, e);
            }
        }
    }
    panic!("a 4 MiB file system never filled");
}

#[test]
fn enospc_fails_the_append_and_a_reopen_keeps_every_acknowledged_batch() {
    let Some(fs) = SmallFs::mount("enospc") else {
        return;
    };
    let dir = fs.path.join("p0");
    // Ballast the operator deletes later to make room.
    let ballast = fs.path.join("ballast");
    std::fs::write(&ballast, vec![7u8; 1 << 20]).unwrap();

    let (acked, err) = run(fill(&dir));
    assert!(is_enospc(&err), "expected ENOSPC, got {err}");
    assert!(acked.len() > 100, "only {} batches fit", acked.len());

    // Reopened while still full: recovery cuts the unacknowledged tail and
    // keeps every acknowledged batch.
    run(async {
        let log = Log::open(&dir, config()).await.unwrap();
        let got = read_all(&log, 0).await;
        assert!(got.len() >= acked.len(), "{} < {}", got.len(), acked.len());
        for (g, a) in got.iter().zip(&acked) {
            assert_eq!(g.as_bytes(), a);
        }
        log.close().await.ok();
    });

    // Space freed: the log takes appends again, after what it holds.
    std::fs::remove_file(&ballast).unwrap();
    run(async {
        let log = Log::open(&dir, config()).await.unwrap();
        let end = log.log_end_offset();
        assert!(end >= acked.len() as i64 * 8);
        let b = batch_for(99_999, 8, 1000);
        let info = log.append(BytesMut::from(&b[..]), 4, None).await.unwrap();
        assert_eq!(info.base_offset, end);
        let got = read_all(&log, 0).await;
        for (g, a) in got.iter().zip(&acked) {
            assert_eq!(g.as_bytes(), a);
        }
        assert_eq!(
            got.last().unwrap().as_bytes(),
            &stamped(&b, info.base_offset, 4)
        );
        log.close().await.unwrap();
    });
}
