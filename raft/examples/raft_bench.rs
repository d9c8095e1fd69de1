//! Measures the Raft path against appending to the storage log directly,
//! in the same run, and the memory and idle CPU of many idle groups.
//!
//! `cargo run --release -p tidemark-raft --features bench --example raft_bench [DIR [append|groups|logs]]`
//! (DIR defaults to a folder under the target directory: put it on the
//! disk you want to measure; tmpfs would skip O_DIRECT and fdatasync).
//!
//! `groups` takes `RAFT_BENCH_GROUPS` (default 1000) and, with
//! `RAFT_BENCH_HIBERNATE=1`, puts each group to sleep after its append
//! (`PartitionReplica::hibernate_if_idle`), as an idle broker would;
//! `RAFT_BENCH_TRIM=1` calls glibc's `malloc_trim` before measuring.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use kafka_protocol::records::{NewRecord, RecordBatchBuilder};
use tidemark_raft::{NoPeers, PartitionReplica, ReplicaConfig};
use tidemark_storage::{FlushPolicy, Log, LogConfig};

const RECORDS: usize = 16;
const VALUE: usize = 1000;

fn batch() -> BytesMut {
    let mut b = RecordBatchBuilder::new();
    for i in 0..RECORDS {
        b.push(NewRecord::new(vec![i as u8; VALUE]).with_timestamp(1_700_000_000_000));
    }
    BytesMut::from(&b.build().unwrap()[..])
}

fn config(sync: bool) -> LogConfig {
    LogConfig {
        flush: if sync {
            FlushPolicy::SyncBeforeAck
        } else {
            // Written out and synced every 4 MiB (so memory stays bounded
            // and both paths pay the same amortized I/O).
            FlushPolicy::Interval {
                interval: Duration::from_secs(3600),
                bytes: 4 << 20,
            }
        },
        retention_ms: -1,
        ..LogConfig::default()
    }
}

enum Target {
    Direct(Rc<Log>),
    Raft(Rc<PartitionReplica>),
}

impl Target {
    async fn append(&self, b: BytesMut) -> i64 {
        match self {
            Target::Direct(l) => l.append(b, 1, None).await.unwrap().last_offset,
            Target::Raft(r) => r.append(b, None).await.unwrap().last_offset,
        }
    }
    async fn close(&self) {
        match self {
            Target::Direct(l) => l.close().await.unwrap(),
            Target::Raft(r) => r.close().await.unwrap(),
        }
    }
}

async fn open(kind: &str, dir: &Path, sync: bool) -> Target {
    let _ = std::fs::remove_dir_all(dir);
    match kind {
        "direct" => Target::Direct(Log::open(dir, config(sync)).await.unwrap()),
        _ => Target::Raft(
            PartitionReplica::open(
                dir,
                config(sync),
                1,
                BTreeSet::from([1]),
                NoPeers,
                ReplicaConfig::default(),
            )
            .await
            .unwrap(),
        ),
    }
}

/// `n` appends with `inflight` concurrent producers; returns ns/append.
async fn run(kind: &str, dir: &Path, sync: bool, n: usize, inflight: usize) -> f64 {
    let t = Rc::new(open(kind, dir, sync).await);
    let b = batch();
    // Warm up (first writes to a fresh segment).
    for _ in 0..50 {
        t.append(b.clone()).await;
    }
    let start = Instant::now();
    let per = n / inflight;
    let mut hs = Vec::new();
    for _ in 0..inflight {
        let t = t.clone();
        let b = b.clone();
        hs.push(monoio::spawn(async move {
            for _ in 0..per {
                t.append(b.clone()).await;
            }
        }));
    }
    for h in hs {
        h.await;
    }
    let ns = start.elapsed().as_nanos() as f64 / (per * inflight) as f64;
    t.close().await;
    let _ = std::fs::remove_dir_all(dir);
    ns
}

fn rss_kb() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Resident KB of the brk heap and of anonymous mappings, from smaps.
fn rss_split_kb() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
    let (mut heap, mut anon, mut cur) = (0, 0, "");
    for l in s.lines() {
        let first = l.split_whitespace().next().unwrap_or("");
        if first.contains('-') && first.chars().next().is_some_and(|c| c.is_ascii_hexdigit()) {
            cur = if l.ends_with("[heap]") {
                "heap"
            } else if l.split_whitespace().count() == 5 {
                "anon"
            } else {
                "other"
            };
        } else if let Some(v) = l.strip_prefix("Rss:") {
            let kb: u64 = v.trim().trim_end_matches(" kB").trim().parse().unwrap_or(0);
            match cur {
                "heap" => heap += kb,
                "anon" => anon += kb,
                _ => {}
            }
        }
    }
    (heap, anon)
}

/// Bytes malloc has handed out and not got back (allocated, touched or not).
fn heap_in_use() -> u64 {
    // SAFETY: mallinfo2 takes no arguments and returns a plain struct.
    let mi = unsafe { libc::mallinfo2() };
    (mi.uordblks + mi.hblkhd) as u64
}

fn cpu_secs() -> f64 {
    // SAFETY: getrusage only writes into the zeroed struct we own.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        ru
    };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

fn main() {
    let base = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/raft-bench"));
    std::fs::create_dir_all(&base).unwrap();
    let mut rt = monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
        .enable_timer()
        .build()
        .unwrap();
    let mode = std::env::args().nth(2).unwrap_or_else(|| "append".into());
    rt.block_on(async {
        if mode == "groups" {
            groups(&base).await;
            return;
        }
        if mode == "logs" {
            // The storage logs alone, for comparison with `groups`.
            let gdir = base.join("logs");
            let _ = std::fs::remove_dir_all(&gdir);
            let before = rss_kb();
            let (heap0, anon0) = rss_split_kb();
            let inuse0 = heap_in_use();
            let mut ls = Vec::new();
            for i in 0..1000 {
                let l = Log::open(
                    gdir.join(format!("p{i}")),
                    LogConfig {
                        preallocate: false,
                        ..config(true)
                    },
                )
                .await
                .unwrap();
                l.append(batch(), 1, None).await.unwrap();
                ls.push(l);
            }
            let after = rss_kb();
            let (heap1, anon1) = rss_split_kb();
            println!(
                "per log: heap RSS {:.1} KB, anonymous-mapping RSS {:.1} KB, malloc'd {:.1} KB",
                (heap1 as f64 - heap0 as f64) / 1000.0,
                (anon1 as f64 - anon0 as f64) / 1000.0,
                (heap_in_use() as f64 - inuse0 as f64) / 1024.0 / 1000.0
            );
            println!(
                "1000 bare logs: RSS {:.1} MB -> {:.1} MB ({:.1} KB/log)",
                before as f64 / 1024.0,
                after as f64 / 1024.0,
                (after - before) as f64 / 1000.0
            );
            for l in &ls {
                l.close().await.unwrap();
            }
            let _ = std::fs::remove_dir_all(&gdir);
            return;
        }
        println!("batch: {RECORDS} records x {VALUE} B = {} B", batch().len());
        for (sync, label) in [(false, "no fsync (CPU overhead)"), (true, "fdatasync before ack")] {
            for inflight in [1usize, 64] {
                let n = if sync && inflight == 1 { 2_000 } else { 40_000 };
                let d = run("direct", &base.join("direct"), sync, n, inflight).await;
                let r = run("raft", &base.join("raft"), sync, n, inflight).await;
                println!(
                    "{label:24} inflight={inflight:3}: direct {d:9.0} ns/append ({:8.0}/s, {:6.0} MB/s) | raft {r:9.0} ns/append ({:8.0}/s, {:6.0} MB/s) | raft overhead {:+7.0} ns/append",
                    1e9 / d,
                    1e9 / d * (RECORDS * VALUE) as f64 / 1e6,
                    1e9 / r,
                    1e9 / r * (RECORDS * VALUE) as f64 / 1e6,
                    r - d
                );
            }
        }
    });
}

/// Memory, idle CPU and open time of many idle single-voter groups (run
/// in a process of its own so the append benchmark's heap does not count).
async fn groups(base: &Path) {
    {
        let groups: usize = std::env::var("RAFT_BENCH_GROUPS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000);
        let gdir = base.join("groups");
        let _ = std::fs::remove_dir_all(&gdir);
        let before = rss_kb();
        let (heap0, anon0) = rss_split_kb();
        let inuse0 = heap_in_use();
        let mut rs = Vec::with_capacity(groups);
        let hibernate = std::env::var_os("RAFT_BENCH_HIBERNATE").is_some();
        let t0 = Instant::now();
        for i in 0..groups {
            let r = PartitionReplica::open(
                gdir.join(format!("p{i}")),
                LogConfig {
                    preallocate: false,
                    ..config(true)
                },
                1,
                BTreeSet::from([1]),
                NoPeers,
                ReplicaConfig::default(),
            )
            .await
            .unwrap();
            if hibernate {
                // As an idle broker would: each group sleeps once written,
                // so the next one reuses the memory it gave back.
                r.append(batch(), None).await.unwrap();
                assert!(r.hibernate_if_idle(Duration::ZERO).await.unwrap());
            }
            rs.push(r);
        }
        let opened = t0.elapsed();
        // One small append each, so every group has a committed entry.
        if !hibernate {
            for r in &rs {
                r.append(batch(), None).await.unwrap();
            }
        }
        monoio::time::sleep(Duration::from_millis(500)).await;
        if std::env::var_os("RAFT_BENCH_TRIM").is_some() {
            // Hands the allocator's free pages back (glibc): what is left
            // is what the groups hold, not what earlier ones left behind.
            // SAFETY: malloc_trim has no preconditions.
            unsafe { libc::malloc_trim(0) };
        }
        let after = rss_kb();
        let cpu0 = cpu_secs();
        let idle = Duration::from_secs(5);
        monoio::time::sleep(idle).await;
        let cpu1 = cpu_secs();
        let (heap1, anon1) = rss_split_kb();
        let inuse1 = heap_in_use();
        println!(
            "per group: heap RSS {:.1} KB, anonymous-mapping RSS {:.1} KB, malloc'd (touched or not) {:.1} KB",
            (heap1 as f64 - heap0 as f64) / groups as f64,
            (anon1 as f64 - anon0 as f64) / groups as f64,
            (inuse1 as f64 - inuse0 as f64) / 1024.0 / groups as f64
        );
        if std::env::var_os("RAFT_BENCH_EXIT_IDLE").is_some() {
            // Under heaptrack: what is still allocated now is what idle
            // groups hold (reported as "leaked").
            std::process::exit(0);
        }
        let raft_heap: usize = rs.iter().map(|r| r.memory_bytes()).sum();
        let log_heap: usize = rs.iter().map(|r| r.log().memory_bytes()).sum();
        println!(
            "{groups} idle single-voter groups: opened in {:.2?}; RSS {:.1} MB before, {:.1} MB after (+{:.1} MB, {:.1} KB/group); raft index maps {:.1} KB total, log caches+indexes {:.1} MB total; idle CPU {:.1}% of a core over {idle:?}",
            opened,
            before as f64 / 1024.0,
            after as f64 / 1024.0,
            (after - before) as f64 / 1024.0,
            (after - before) as f64 / groups as f64,
            raft_heap as f64 / 1024.0,
            log_heap as f64 / 1048576.0,
            (cpu1 - cpu0) / idle.as_secs_f64() * 100.0
        );
        if hibernate {
            // The first write to a sleeping group wakes it.
            let t0 = Instant::now();
            for r in &rs {
                r.append(batch(), None).await.unwrap();
            }
            println!(
                "first append to each of {groups} sleeping groups (wake + fdatasync'd append): {:.2?} each",
                t0.elapsed() / groups as u32
            );
            let t0 = Instant::now();
            for r in &rs {
                r.append(batch(), None).await.unwrap();
            }
            println!(
                "second append (awake): {:.2?} each",
                t0.elapsed() / groups as u32
            );
        }
        let t0 = Instant::now();
        for r in &rs {
            r.close().await.unwrap();
        }
        let closed = t0.elapsed();
        drop(rs);
        // Reopen the existing groups (a broker restart).
        let t0 = Instant::now();
        let mut rs = Vec::with_capacity(groups);
        for i in 0..groups {
            rs.push(
                PartitionReplica::open(
                    gdir.join(format!("p{i}")),
                    LogConfig {
                        preallocate: false,
                        ..config(true)
                    },
                    1,
                    BTreeSet::from([1]),
                    NoPeers,
                    ReplicaConfig::default(),
                )
                .await
                .unwrap(),
            );
        }
        println!(
            "closed in {closed:.2?}; reopened {groups} groups in {:.2?}; RSS now {:.1} MB",
            t0.elapsed(),
            rss_kb() as f64 / 1024.0
        );
        for r in &rs {
            r.close().await.unwrap();
        }
        let _ = std::fs::remove_dir_all(&gdir);
    }
}
