//! Hands freed heap memory back to the operating system every
//! `memory.trim.interval.ms` (glibc's `malloc_trim`).
//!
//! Why: `main` raises glibc's mmap and trim thresholds
//! (`keep_freed_memory`) so that the 1 MiB produce and fetch buffers a
//! busy broker allocates and frees thousands of times a second come from
//! the heap instead of a fresh `mmap` (and its page faults) each time.
//! The price was that freed memory was never returned: glibc gives memory
//! back on its own only from the top of an arena's heap, so the resident
//! size grew with every gigabyte that passed through and stayed at its
//! peak. Measured (`benches/load/memtrim.sh`, stop 37: one broker
//! with 2 shards, `tmk bench produce` of 3 x 1 GB): 277, 302, 346 MiB
//! after each GB, still 346 MiB after 5 s idle, 127 MiB after one
//! `malloc_trim(0)` from a debugger. A burst of any size left the broker
//! at its burst-time size for good, which defeats issue 20's "memory
//! under a stated bound" and issue 14's "memory after a restart is what
//! it was before".
//!
//! How: shard 0 asks a storage helper thread (`fs_pool`, where blocking
//! calls already go) to run `malloc_trim(0)` once per interval, so no
//! shard thread waits for the trim itself. `malloc_trim` locks one arena
//! at a time while it releases that arena's free pages, so a shard that
//! allocates from that arena meanwhile waits for the release; the time
//! each trim took is logged at debug level and kept in
//! [`crate::BrokerContext`] for `/metrics`. 0 turns trimming off.
//! Only on glibc; elsewhere this does nothing.

use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::shard::Shard;

/// The shortest interval taken (a smaller setting is raised to it): a
/// trim walks every arena, and doing it more often than this buys
/// nothing but lock contention.
pub const MIN_INTERVAL_MS: u64 = 1_000;

/// Shard 0: trims every `memory.trim.interval.ms` until the shard stops.
/// The setting is read before each wait, so a change takes effect at the
/// next turn.
pub async fn run(shard: Rc<Shard>) {
    loop {
        let setting = shard.metadata().settings.i64("memory.trim.interval.ms");
        let off = setting <= 0;
        let interval_ms = if off {
            // Look again later: the setting may be turned on.
            60_000
        } else {
            (setting as u64).max(MIN_INTERVAL_MS)
        };
        monoio::select! {
            _ = monoio::time::sleep(Duration::from_millis(interval_ms)) => {},
            _ = shard.stopping() => return,
        }
        if off {
            continue;
        }
        let started = Instant::now();
        match tidemark_storage::fs_pool::run(|| Ok(trim())).await {
            Ok(released) => {
                let took_us = started.elapsed().as_micros() as u64;
                shard
                    .ctx
                    .memory_trims
                    .record(took_us, released.unwrap_or(0));
                tracing::debug!(
                    took_us,
                    released_bytes = released,
                    "freed heap memory handed back to the system"
                );
            }
            Err(e) => tracing::warn!(error = %e, "memory trim not run"),
        }
    }
}

/// Runs `malloc_trim(0)`: returns the resident bytes it released (the
/// resident size before minus after, `None` if that could not be read).
fn trim() -> Option<u64> {
    let before = resident_bytes();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes an integer and only walks glibc's own
    // arenas under their locks; it is safe to call from any thread at
    // any time.
    unsafe {
        libc::malloc_trim(0);
    }
    let after = resident_bytes();
    Some(before?.saturating_sub(after?))
}

/// This process's resident size, from `/proc/self/statm`.
fn resident_bytes() -> Option<u64> {
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let page = if page > 0 { page as u64 } else { 4096 };
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page)
}

/// What the trims did, for `/metrics`: how many ran, the time they took
/// and the bytes they released, summed, and the longest one.
#[derive(Debug, Default)]
pub struct TrimStats {
    count: std::sync::atomic::AtomicU64,
    total_us: std::sync::atomic::AtomicU64,
    max_us: std::sync::atomic::AtomicU64,
    released_bytes: std::sync::atomic::AtomicU64,
}

impl TrimStats {
    fn record(&self, took_us: u64, released_bytes: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.count.fetch_add(1, Relaxed);
        self.total_us.fetch_add(took_us, Relaxed);
        self.max_us.fetch_max(took_us, Relaxed);
        self.released_bytes.fetch_add(released_bytes, Relaxed);
    }

    /// (trims run, seconds they took in all, the longest in seconds,
    /// bytes released in all).
    pub fn snapshot(&self) -> (u64, f64, f64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (
            self.count.load(Relaxed),
            self.total_us.load(Relaxed) as f64 / 1e6,
            self.max_us.load(Relaxed) as f64 / 1e6,
            self.released_bytes.load(Relaxed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trim_after_freeing_memory_does_not_grow_the_process() {
        // Allocate and free 64 MiB in 1 MiB pieces (below the default
        // mmap threshold, so they come from the heap), then trim.
        let pieces: Vec<Vec<u8>> = (0..64).map(|i| vec![i as u8; 1 << 20]).collect();
        drop(pieces);
        let before = resident_bytes().expect("statm");
        let released = trim().expect("statm");
        let after = resident_bytes().expect("statm");
        assert!(after <= before, "{after} > {before}");
        assert!(released <= before);
    }

    #[test]
    fn stats_sum_and_keep_the_longest() {
        let s = TrimStats::default();
        s.record(1_500, 10);
        s.record(500, 5);
        assert_eq!(s.snapshot(), (2, 0.002, 0.0015, 15));
    }
}
