//! Storage append benchmark: fsync'd appends of 1 KiB records in 16 KiB
//! and 1 MiB batches through `tidemark_storage::Log` (sync-before-ack),
//! side by side with the raw device in the same run (O_DIRECT pwrite of
//! the same size followed by fdatasync, on the same file system), plus
//! resident memory while writing a large log.
//!
//! Run: `cargo bench -p tidemark-benches --bench storage_append`
//! Env: `BENCH_DIR` (default: a directory under the target dir; must be on
//! a real disk for O_DIRECT), `BENCH_RSS_GB` (default 10; 0 skips).

use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use kafka_protocol::records::{NewRecord, RecordBatchBuilder};
use tidemark_storage::{Log, LogConfig};

fn batch(total: usize) -> bytes::Bytes {
    let mut b = RecordBatchBuilder::new();
    // 1 KiB records (value ~1000 bytes + overhead), filling `total`.
    for i in 0..(total / 1024).max(1) {
        b.push(NewRecord::new(vec![(i % 251) as u8; 1000]).with_key(format!("key-{i}")));
    }
    b.build().unwrap()
}

struct Stats {
    lat: Vec<Duration>,
    bytes: u64,
    elapsed: Duration,
}

impl Stats {
    fn pct(&self, p: f64) -> f64 {
        let mut v = self.lat.clone();
        v.sort();
        let i = ((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1;
        v[i].as_secs_f64() * 1e3
    }
    fn mbps(&self) -> f64 {
        self.bytes as f64 / self.elapsed.as_secs_f64() / 1e6
    }
    fn line(&self, what: &str) -> String {
        format!(
            "| {what} | {} | {:.0} | {:.3} | {:.3} | {:.3} |",
            self.lat.len(),
            self.mbps(),
            self.pct(0.50),
            self.pct(0.99),
            self.pct(0.999)
        )
    }
}

/// The raw device: O_DIRECT writes of `size` (block-aligned) bytes, each
/// followed by fdatasync, into a preallocated file, like the log does.
fn raw(dir: &Path, size: usize, count: usize) -> Stats {
    let path = dir.join("raw.dat");
    let _ = std::fs::remove_file(&path);
    let f = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .write(true)
        .custom_flags(libc::O_DIRECT)
        .open(&path)
        .unwrap();
    let len = size.div_ceil(4096) * 4096;
    // An aligned buffer: allocate extra and offset into it.
    let mut v = vec![7u8; len + 4096];
    let off = v.as_ptr().align_offset(4096);
    let buf = &mut v[off..off + len];
    let total = (len * count) as u64;
    // SAFETY: fallocate on an fd we own; no memory passed.
    unsafe { libc::fallocate(std::os::fd::AsRawFd::as_raw_fd(&f), 0, 0, total as i64) };
    let mut lat = Vec::with_capacity(count);
    let t0 = Instant::now();
    for i in 0..count {
        let t = Instant::now();
        f.write_all_at(buf, (i * len) as u64).unwrap();
        f.sync_data().unwrap();
        lat.push(t.elapsed());
    }
    let elapsed = t0.elapsed();
    drop(f);
    let _ = std::fs::remove_file(&path);
    Stats {
        lat,
        bytes: total,
        elapsed,
    }
}

/// The raw device through the same I/O path the log uses (monoio on
/// io_uring): O_DIRECT write of the block-rounded size, then fdatasync,
/// one at a time. Compared with [`raw`] (plain syscalls) it shows what the
/// I/O mechanism itself costs, apart from the log's own work.
fn raw_uring(dir: &Path, size: usize, count: usize) -> Stats {
    use monoio::buf::IoBuf;
    let path = dir.join("raw-uring.dat");
    let _ = std::fs::remove_file(&path);
    let std_file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .write(true)
        .custom_flags(libc::O_DIRECT)
        .open(&path)
        .unwrap();
    let len = size.div_ceil(4096) * 4096;
    let total = (len * count) as u64;
    // SAFETY: fallocate on an fd we own; no memory passed.
    unsafe {
        libc::fallocate(
            std::os::fd::AsRawFd::as_raw_fd(&std_file),
            0,
            0,
            total as i64,
        )
    };
    let stats = block_on(async move {
        let f = monoio::fs::File::from_std(std_file).unwrap();
        let v = vec![7u8; len + 4096];
        let off = v.as_ptr().align_offset(4096);
        let mut buf = Some(v.slice(off..off + len));
        let mut lat = Vec::with_capacity(count);
        let t0 = Instant::now();
        for i in 0..count {
            let t = Instant::now();
            let (res, b) = f.write_all_at(buf.take().unwrap(), (i * len) as u64).await;
            res.unwrap();
            buf = Some(b);
            f.sync_data().await.unwrap();
            lat.push(t.elapsed());
        }
        Stats {
            lat,
            bytes: total,
            elapsed: t0.elapsed(),
        }
    });
    let _ = std::fs::remove_file(&path);
    stats
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
        .enable_timer()
        .build()
        .unwrap()
        .block_on(f)
}

/// Appends `count` batches through the log with `concurrency` appenders.
fn log_run(dir: &Path, size: usize, count: usize, concurrency: usize) -> Stats {
    let ldir = dir.join(format!("log-{size}-{concurrency}"));
    let _ = std::fs::remove_dir_all(&ldir);
    let b = batch(size);
    let stats = block_on(async {
        let log = Log::open(
            &ldir,
            LogConfig {
                max_batch_bytes: 2 << 20,
                ..LogConfig::default()
            },
        )
        .await
        .unwrap();
        assert!(log.is_direct_io());
        let t0 = Instant::now();
        let mut tasks = Vec::new();
        for w in 0..concurrency {
            let log = Rc::clone(&log);
            let b = b.clone();
            tasks.push(monoio::spawn(async move {
                let mut lat = Vec::new();
                for _ in (w..count).step_by(concurrency) {
                    // The batch as it arrives in a produce request's
                    // buffer: copying it is the bench's doing, not the
                    // log's, so it stays outside the timed append (it
                    // measured 2-18 us p50 at 16 KiB; it still counts in
                    // MB/s, which is wall time over the whole run).
                    let batch = BytesMut::from(&b[..]);
                    let t = Instant::now();
                    log.append(batch, 1, None).await.unwrap();
                    lat.push(t.elapsed());
                }
                lat
            }));
        }
        let mut lat = Vec::new();
        for t in tasks {
            lat.extend(t.await);
        }
        let elapsed = t0.elapsed();
        Stats {
            lat,
            bytes: (b.len() * count) as u64,
            elapsed,
        }
    });
    let _ = std::fs::remove_dir_all(&ldir);
    stats
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let dir: PathBuf = std::env::var("BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/storage-bench")
        });
    std::fs::create_dir_all(&dir).unwrap();
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "machine: {cpus} cpus, kernel {}",
        std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .unwrap_or_default()
            .trim()
    );
    println!("dir: {}\n", dir.display());
    println!("| run | appends | MB/s | p50 ms | p99 ms | p99.9 ms |");
    println!("|---|---|---|---|---|---|");
    for (size, count) in [(16 * 1024, 4000), (1024 * 1024, 400)] {
        let kib = size / 1024;
        let r = raw(&dir, size, count);
        println!(
            "{}",
            r.line(&format!("raw O_DIRECT write+fdatasync, {kib} KiB"))
        );
        let ru = raw_uring(&dir, size, count);
        println!(
            "{}",
            ru.line(&format!(
                "raw O_DIRECT write+fdatasync through monoio/io_uring, {kib} KiB"
            ))
        );
        let l1 = log_run(&dir, size, count, 1);
        println!(
            "{}",
            l1.line(&format!(
                "log append sync-before-ack, {kib} KiB batches, 1 appender"
            ))
        );
        let l8 = log_run(&dir, size, count, 8);
        println!(
            "{}",
            l8.line(&format!(
                "log append sync-before-ack, {kib} KiB batches, 8 appenders (group commit)"
            ))
        );
        println!(
            "| ratio {kib} KiB, 1 appender: bandwidth {:.0}% of raw, p50 latency {:.2}x raw, p99 {:.2}x raw | | | | | |",
            100.0 * l1.mbps() / r.mbps(),
            l1.pct(0.5) / r.pct(0.5),
            l1.pct(0.99) / r.pct(0.99)
        );
        println!(
            "| ratio {kib} KiB, 1 appender vs raw through io_uring: bandwidth {:.0}%, p50 latency {:.2}x, p99 {:.2}x | | | | | |",
            100.0 * l1.mbps() / ru.mbps(),
            l1.pct(0.5) / ru.pct(0.5),
            l1.pct(0.99) / ru.pct(0.99)
        );
    }

    let gb: u64 = std::env::var("BENCH_RSS_GB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    if gb > 0 {
        let ldir = dir.join("rss");
        let _ = std::fs::remove_dir_all(&ldir);
        let b = batch(1024 * 1024);
        println!("\nresident memory while appending a {gb} GB log (1 MiB batches, 4 appenders):");
        block_on(async {
            let log = Log::open(
                &ldir,
                LogConfig {
                    max_batch_bytes: 2 << 20,
                    ..LogConfig::default()
                },
            )
            .await
            .unwrap();
            let total = gb * 1_000_000_000;
            let mut written = 0u64;
            let mut next_report = 1_000_000_000u64;
            let t0 = Instant::now();
            while written < total {
                let mut tasks = Vec::new();
                for _ in 0..4 {
                    let log = Rc::clone(&log);
                    let b = b.clone();
                    tasks.push(monoio::spawn(async move {
                        log.append(BytesMut::from(&b[..]), 1, None).await.unwrap()
                    }));
                }
                for t in tasks {
                    t.await;
                }
                written += 4 * b.len() as u64;
                if written >= next_report {
                    println!(
                        "  {:>5.1} GB written, {} segments: VmRSS {} MiB, log-held memory {} KiB ({:.0} MB/s)",
                        written as f64 / 1e9,
                        log.segment_count(),
                        rss_kib() / 1024,
                        log.memory_bytes() / 1024,
                        written as f64 / t0.elapsed().as_secs_f64() / 1e6
                    );
                    next_report += 1_000_000_000 * if gb > 3 { 3 } else { 1 };
                }
            }
            // Reading back the start of the log touches sealed indexes.
            let r = log.read(0, 1 << 20, None).await.unwrap();
            assert!(!r.batches.is_empty());
            println!(
                "  after a read from offset 0: VmRSS {} MiB",
                rss_kib() / 1024
            );
        });
        let _ = std::fs::remove_dir_all(&ldir);
    }
}
