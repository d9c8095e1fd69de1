//! How long each segment fdatasync took, counted per thread in fixed
//! buckets. A log is used by one thread (its shard), so a thread-local
//! needs no atomics on the write path; the broker's metrics read each
//! shard's counts on that shard ([`sync_latency`]) and add them up.

use std::cell::RefCell;
use std::time::Duration;

/// The buckets' upper bounds in microseconds (Prometheus `le`), from a
/// page-cache flush on a fast NVMe disk to a stalled spinning disk.
pub const SYNC_BUCKETS_US: [u64; 14] = [
    50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000,
    1_000_000,
];

/// One thread's fdatasync latencies so far.
#[derive(Debug, Clone, Default)]
pub struct SyncLatency {
    /// Syncs at most `SYNC_BUCKETS_US[i]` long (not cumulative); the
    /// last element counts the slower ones.
    pub buckets: [u64; SYNC_BUCKETS_US.len() + 1],
    pub count: u64,
    pub sum_us: u64,
}

impl SyncLatency {
    fn record(&mut self, took: Duration) {
        let us = took.as_micros().min(u64::MAX as u128) as u64;
        let i = SYNC_BUCKETS_US
            .iter()
            .position(|&le| us <= le)
            .unwrap_or(SYNC_BUCKETS_US.len());
        self.buckets[i] += 1;
        self.count += 1;
        self.sum_us = self.sum_us.saturating_add(us);
    }

    /// Adds another thread's counts to these.
    pub fn merge(&mut self, other: &SyncLatency) {
        for (a, b) in self.buckets.iter_mut().zip(other.buckets.iter()) {
            *a += b;
        }
        self.count += other.count;
        self.sum_us = self.sum_us.saturating_add(other.sum_us);
    }
}

thread_local! {
    static SYNCS: RefCell<SyncLatency> = RefCell::new(SyncLatency::default());
}

pub(crate) fn record_sync(took: Duration) {
    SYNCS.with(|s| s.borrow_mut().record(took));
}

/// The fdatasync latencies of the logs this thread has written.
pub fn sync_latency() -> SyncLatency {
    SYNCS.with(|s| s.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_hold_each_sync_once() {
        let mut l = SyncLatency::default();
        l.record(Duration::from_micros(40));
        l.record(Duration::from_micros(1_000));
        l.record(Duration::from_secs(3));
        assert_eq!(l.buckets[0], 1);
        assert_eq!(l.buckets[4], 1);
        assert_eq!(l.buckets[SYNC_BUCKETS_US.len()], 1);
        assert_eq!(l.count, 3);
        assert_eq!(l.sum_us, 3_001_040);
    }
}
