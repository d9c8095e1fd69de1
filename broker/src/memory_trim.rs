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
//! calls already go) to run `malloc_trim(0)`, so no shard thread waits
//! for the trim itself, at most once per interval and only while the
//! broker is quiet: its CPU time over the last second under
//! [`QUIET_CPU_PERCENT`] of one core. `malloc_trim` locks one arena at a
//! time while it releases that arena's free pages, and a busy broker
//! faults the released pages straight back in. Measured (stop 37, a
//! `tmk bench e2e` pair at 1,000 msg/s beside a 530 MiB/s producer, two
//! rounds each): trimming every 10 s regardless of load gave the pair a
//! max publish-ack of 79-81 ms against 51-53 ms untrimmed, but a repeat
//! of the untrimmed case reached 76 ms, so that is within this
//! machine's noise; the gate removes the question (with it, no trim ran
//! during 20 s of that load, and the first came a second after it).
//! Under load the memory is in use anyway; what must not happen is
//! keeping a burst's peak once it is over. The
//! time each trim took is logged at debug level and kept in
//! [`crate::BrokerContext`] for `/metrics`. 0 turns trimming off. Only
//! on glibc; elsewhere this does nothing.

use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::shard::Shard;

/// The shortest interval taken (a smaller setting is raised to it): a
/// trim walks every arena, and doing it more often than this buys
/// nothing but lock contention.
pub const MIN_INTERVAL_MS: u64 = 1_000;

/// The process counts as quiet, and may be trimmed, while its CPU time
/// over the last second is under this share of one core.
pub const QUIET_CPU_PERCENT: u64 = 20;

/// How often the quiet gate looks at the CPU time.
const LOOK_EVERY_MS: u64 = 1_000;

/// Shard 0: trims at most every `memory.trim.interval.ms`, when quiet,
/// until the shard stops. The setting is read at every look, so a change
/// takes effect within a second.
pub async fn run(shard: Rc<Shard>) {
    let mut last_trim = Instant::now();
    let mut last_cpu = cpu_ticks();
    let mut last_look = Instant::now();
    loop {
        monoio::select! {
            _ = monoio::time::sleep(Duration::from_millis(LOOK_EVERY_MS)) => {},
            _ = shard.stopping() => return,
        }
        let cpu = cpu_ticks();
        let looked_ms = last_look.elapsed().as_millis() as u64;
        last_look = Instant::now();
        let busy_percent = match (last_cpu, cpu) {
            (Some(a), Some(b)) => {
                b.saturating_sub(a) * 1000 / ticks_per_second() * 100 / looked_ms.max(1)
            }
            _ => 0,
        };
        last_cpu = cpu;
        let setting = shard.metadata().settings.i64("memory.trim.interval.ms");
        if setting <= 0
            || last_trim.elapsed() < Duration::from_millis((setting as u64).max(MIN_INTERVAL_MS))
            || busy_percent >= QUIET_CPU_PERCENT
        {
            continue;
        }
        last_trim = Instant::now();
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
    let before = crate::metrics::exposition::resident_bytes();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes an integer and only walks glibc's own
    // arenas under their locks; it is safe to call from any thread at
    // any time.
    unsafe {
        libc::malloc_trim(0);
    }
    let after = crate::metrics::exposition::resident_bytes();
    Some(before?.saturating_sub(after?))
}

/// Where `utime` sits among the fields of `/proc/self/stat` that follow
/// the command name: proc(5) numbers `utime` 14 and `stime` 15, and the
/// fields after the `)` closing the command name start at 3 (`state`).
const UTIME_AFTER_COMMAND: usize = 14 - 3;

/// This process's CPU time (user and system) in clock ticks, from
/// `/proc/self/stat`. The command name is cut at the last `)`, since it
/// may itself hold spaces and parentheses.
fn cpu_ticks() -> Option<u64> {
    parse_cpu_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

/// `utime + stime` of one `/proc/<pid>/stat` line.
fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let user: u64 = fields.nth(UTIME_AFTER_COMMAND)?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

fn ticks_per_second() -> u64 {
    // SAFETY: sysconf only reads a system constant.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as u64 } else { 100 }
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

    // The trim's effect is shown end to end (a broker with its raised
    // glibc thresholds, `conformance/test_metrics.py`); in a test process
    // 1 MiB allocations are mmapped and other tests move the RSS.

    #[test]
    fn cpu_time_is_read_and_grows_with_work() {
        let a = cpu_ticks().expect("/proc/self/stat");
        let t = Instant::now();
        let mut x = 0u64;
        while t.elapsed() < Duration::from_millis(100) {
            x = x.wrapping_mul(31).wrapping_add(7);
        }
        std::hint::black_box(x);
        let b = cpu_ticks().expect("/proc/self/stat");
        assert!(b > a, "{a} -> {b}");
    }

    #[test]
    fn cpu_ticks_are_utime_plus_stime_whatever_the_command_name() {
        // Fields as proc(5) numbers them: pid (1), comm (2), state (3),
        // ... utime (14) = 700, stime (15) = 42.
        let line = "4242 (my (odd) cmd) S 1 4242 4242 0 -1 4194560 100 0 0 0 700 42 0 0 20 0 3 0";
        assert_eq!(parse_cpu_ticks(line), Some(742));
        assert_eq!(parse_cpu_ticks("no parenthesis"), None);
        assert_eq!(parse_cpu_ticks("1 (short) S 1"), None);
    }

    #[test]
    fn stats_sum_and_keep_the_longest() {
        let s = TrimStats::default();
        s.record(1_500, 10);
        s.record(500, 5);
        assert_eq!(s.snapshot(), (2, 0.002, 0.0015, 15));
    }
}
