//! The full-disk guard: the free space of the data folder's file system,
//! watched with `statvfs`, and the low-space threshold below which
//! produce to user topics is refused (Redpanda's `storage_min_free_bytes`;
//! Kafka has no such guard and takes the whole log directory offline at
//! the first ENOSPC).
//!
//! Why refuse early rather than at ENOSPC: a write that fails for want of
//! space fails the log it was for (storage treats a failed write or fsync
//! as fatal until the log is reopened, since a retried fsync can report
//! success for lost data), so the partition stops until it is reopened
//! ([`reopen_failed`]) and its Raft group has caught up again. Below
//! the threshold only client produce to user topics is refused, with
//! KAFKA_STORAGE_ERROR: Kafka's answer when a log directory cannot take a
//! write, retriable in the Java client (`KafkaStorageException`) and
//! retried by librdkafka, so a producer keeps its records and delivers
//! them once space is back. Everything the broker writes itself goes on:
//! group offset commits (`__consumer_offsets`), transaction state and
//! markers, share-group state, Raft's own records; and so do the ways to
//! free space: DeleteRecords, DeleteTopics, retention and compaction.
//!
//! Cost: the state is atomics in [`crate::BrokerContext`]. Shard 0 runs
//! one `statvfs` a second ([`run`]); the produce path adds each batch's
//! size to a counter and, only once that estimate comes within
//! [`RECHECK_MARGIN_BYTES`] of the threshold, checks again itself (at
//! most once per [`RECHECK_MIN_INTERVAL_MS`]). No syscall per record or
//! per request in the common case.
//!
//! Replicated writes on a follower are not refused here (they come from
//! the Raft leader, not a client): a follower whose disk fills fails that
//! partition's log at ENOSPC and falls behind, and its leader goes on with
//! the other voters; [`reopen_failed`] brings such a log back once space
//! is (see `ARCHITECTURE.md`).

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Duration;

use crate::settings::Settings;
use crate::shard::Shard;

/// How often shard 0 looks at the free space.
pub const CHECK_INTERVAL_MS: u64 = 1000;

/// Within this many bytes of the threshold (by the estimate: free space at
/// the last check minus bytes produced since), the produce path checks
/// again itself instead of waiting for the next periodic check.
pub const RECHECK_MARGIN_BYTES: u64 = 64 << 20;

/// The produce path's own checks are at most this frequent.
pub const RECHECK_MIN_INTERVAL_MS: u64 = 10;

/// Where the data folder's free space stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskState {
    /// Above the alert threshold.
    Ok,
    /// Below `log.dir.free.alert.percent`: still writable; operators are
    /// warned.
    Alert,
    /// Below the minimum (`log.dir.min.free.bytes` /
    /// `log.dir.min.free.percent`): produce to user topics is refused.
    Low,
}

impl DiskState {
    fn from_u8(v: u8) -> DiskState {
        match v {
            1 => DiskState::Alert,
            2 => DiskState::Low,
            _ => DiskState::Ok,
        }
    }

    fn as_u8(self) -> u8 {
        match self {
            DiskState::Ok => 0,
            DiskState::Alert => 1,
            DiskState::Low => 2,
        }
    }

    /// A lower-case name for logs, metrics and health endpoints.
    pub fn as_str(self) -> &'static str {
        match self {
            DiskState::Ok => "ok",
            DiskState::Alert => "alert",
            DiskState::Low => "low",
        }
    }
}

/// One reading of the guard, for operators (metrics, health, DescribeLogDirs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiskUsage {
    /// Bytes an unprivileged writer may still use (`f_bavail`).
    pub free_bytes: u64,
    /// Size of the file system (`f_blocks`).
    pub total_bytes: u64,
    /// Below this many free bytes produce is refused (0: never).
    pub min_free_bytes: u64,
    /// Below this many free bytes the state is at least `Alert`.
    pub alert_free_bytes: u64,
    pub state: DiskState,
    /// When the figures were read (ms since the epoch; 0: never).
    pub checked_at_ms: u64,
}

/// The guard for one data folder, shared by every shard.
#[derive(Debug)]
pub struct DiskSpace {
    dir: PathBuf,
    free_bytes: AtomicU64,
    total_bytes: AtomicU64,
    min_free_bytes: AtomicU64,
    alert_free_bytes: AtomicU64,
    /// Bytes produced since the last `statvfs` (an estimate of what the
    /// free space lost since).
    produced_since_check: AtomicU64,
    checked_at_ms: AtomicU64,
    state: AtomicU8,
    /// The settings as last applied (bytes, percent, alert percent), so
    /// that the produce path's own checks compute the same thresholds.
    min_free_setting_bytes: AtomicU64,
    min_free_percent: AtomicU64,
    alert_free_percent: AtomicU64,
}

/// Produce refused: the data folder is below its free-space minimum.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "not enough free disk space: {free_bytes} bytes free in {dir}, below the minimum of {min_free_bytes} (log.dir.min.free.bytes / log.dir.min.free.percent); produce resumes once space is freed"
)]
pub struct DiskFull {
    pub dir: String,
    pub free_bytes: u64,
    pub min_free_bytes: u64,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// `statvfs` of `dir`: (free bytes for unprivileged writers, total bytes).
pub fn statvfs(dir: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    // SAFETY: statvfs is a plain C struct of integers, for which all-zero
    // bytes are a valid value.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a valid NUL-terminated path and `s` a valid, writable
    // statvfs the call fills in; nothing else is touched.
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut s) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let frsize = s.f_frsize as u64;
    Ok((s.f_bavail as u64 * frsize, s.f_blocks as u64 * frsize))
}

/// The thresholds in bytes for a file system of `total_bytes`: the
/// minimum is the smaller of the fixed size and the share of the disk
/// (so a small disk is not refused outright by a default sized for a big
/// one), the alert threshold never below the minimum.
pub fn thresholds(
    total_bytes: u64,
    min_free_bytes: u64,
    min_free_percent: u64,
    alert_free_percent: u64,
) -> (u64, u64) {
    let pct = |p: u64| ((total_bytes as u128 * p.min(100) as u128) / 100) as u64;
    let min = min_free_bytes.min(pct(min_free_percent));
    let alert = pct(alert_free_percent).max(min);
    (min, alert)
}

impl DiskSpace {
    /// A guard for `dir` with the given settings, checked once now (a
    /// folder that cannot be read is reported with zero sizes and `Ok`).
    pub fn new(dir: &Path, settings: &Settings) -> DiskSpace {
        let d = DiskSpace {
            dir: dir.to_path_buf(),
            free_bytes: AtomicU64::new(0),
            total_bytes: AtomicU64::new(0),
            min_free_bytes: AtomicU64::new(0),
            alert_free_bytes: AtomicU64::new(0),
            produced_since_check: AtomicU64::new(0),
            checked_at_ms: AtomicU64::new(0),
            state: AtomicU8::new(DiskState::Ok.as_u8()),
            min_free_setting_bytes: AtomicU64::new(0),
            min_free_percent: AtomicU64::new(0),
            alert_free_percent: AtomicU64::new(0),
        };
        d.apply_settings(settings);
        d
    }

    /// The folder watched.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The latest reading (no syscall): what metrics and health report.
    pub fn usage(&self) -> DiskUsage {
        DiskUsage {
            free_bytes: self.free_bytes.load(Ordering::Relaxed),
            total_bytes: self.total_bytes.load(Ordering::Relaxed),
            min_free_bytes: self.min_free_bytes.load(Ordering::Relaxed),
            alert_free_bytes: self.alert_free_bytes.load(Ordering::Relaxed),
            state: self.state(),
            checked_at_ms: self.checked_at_ms.load(Ordering::Relaxed),
        }
    }

    pub fn state(&self) -> DiskState {
        DiskState::from_u8(self.state.load(Ordering::Relaxed))
    }

    /// Takes the current settings (they are dynamic) and checks now.
    pub fn apply_settings(&self, settings: &Settings) {
        let nonneg = |v: i64| v.max(0) as u64;
        self.min_free_setting_bytes.store(
            nonneg(settings.i64("log.dir.min.free.bytes")),
            Ordering::Relaxed,
        );
        self.min_free_percent.store(
            nonneg(settings.i64("log.dir.min.free.percent")),
            Ordering::Relaxed,
        );
        self.alert_free_percent.store(
            nonneg(settings.i64("log.dir.free.alert.percent")),
            Ordering::Relaxed,
        );
        self.check_now();
    }

    /// Reads the free space now and moves the state, logging a transition.
    pub fn check_now(&self) {
        let (free, total) = match statvfs(&self.dir) {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(dir = %self.dir.display(), error = %e, "statvfs of the data folder failed; free-space state unchanged");
                return;
            }
        };
        self.record(free, total);
    }

    /// Applies one reading (`check_now`'s second half; tests feed it).
    fn record(&self, free: u64, total: u64) {
        let (min, alert) = thresholds(
            total,
            self.min_free_setting_bytes.load(Ordering::Relaxed),
            self.min_free_percent.load(Ordering::Relaxed),
            self.alert_free_percent.load(Ordering::Relaxed),
        );
        self.free_bytes.store(free, Ordering::Relaxed);
        self.total_bytes.store(total, Ordering::Relaxed);
        self.min_free_bytes.store(min, Ordering::Relaxed);
        self.alert_free_bytes.store(alert, Ordering::Relaxed);
        self.produced_since_check.store(0, Ordering::Relaxed);
        self.checked_at_ms.store(now_ms(), Ordering::Relaxed);
        let state = if free < min {
            DiskState::Low
        } else if free < alert {
            DiskState::Alert
        } else {
            DiskState::Ok
        };
        // Logs keep removed segment files for reuse only while space is
        // plentiful (`tidemark_storage::spare`); below the alert threshold
        // retention and DeleteRecords give space back at once.
        tidemark_storage::spare::set_allowed(state == DiskState::Ok);
        let before = DiskState::from_u8(self.state.swap(state.as_u8(), Ordering::Relaxed));
        if before != state {
            let dir = self.dir.display();
            match state {
                DiskState::Low => {
                    tracing::warn!(%dir, free_bytes = free, total_bytes = total, min_free_bytes = min, "data folder below its free-space minimum: produce to user topics is refused (KAFKA_STORAGE_ERROR) until space is freed")
                }
                DiskState::Alert => {
                    tracing::warn!(%dir, free_bytes = free, total_bytes = total, alert_free_bytes = alert, min_free_bytes = min, previous = %before.as_str(), "data folder low on free space (alert)")
                }
                DiskState::Ok => {
                    tracing::warn!(%dir, free_bytes = free, total_bytes = total, previous = %before.as_str(), "data folder free space back above the alert threshold")
                }
            }
        }
    }

    /// Whether a client's batch of `bytes` for a user topic may be
    /// appended. Counts the bytes towards the next check; checks again
    /// itself when the estimate nears the threshold or the state is low
    /// (so writing resumes as soon as space is back, without waiting for
    /// the periodic check).
    pub fn admit_produce(&self, bytes: u64) -> Result<(), DiskFull> {
        let min = self.min_free_bytes.load(Ordering::Relaxed);
        if min == 0 {
            return Ok(());
        }
        let produced = self
            .produced_since_check
            .fetch_add(bytes, Ordering::Relaxed)
            .saturating_add(bytes);
        let estimate = self
            .free_bytes
            .load(Ordering::Relaxed)
            .saturating_sub(produced);
        if estimate < min.saturating_add(RECHECK_MARGIN_BYTES) {
            let last = self.checked_at_ms.load(Ordering::Relaxed);
            let now = now_ms();
            // One shard checks; the others use the figures it leaves.
            if now >= last.saturating_add(RECHECK_MIN_INTERVAL_MS)
                && self
                    .checked_at_ms
                    .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            {
                self.check_now();
            }
        }
        if self.state() == DiskState::Low {
            return Err(DiskFull {
                dir: self.dir.display().to_string(),
                free_bytes: self.free_bytes.load(Ordering::Relaxed),
                min_free_bytes: self.min_free_bytes.load(Ordering::Relaxed),
            });
        }
        Ok(())
    }
}

/// Shard 0's periodic check: every [`CHECK_INTERVAL_MS`], the settings as
/// they are now, then `statvfs`.
pub async fn run(shard: Rc<Shard>) {
    loop {
        monoio::select! {
            _ = monoio::time::sleep(Duration::from_millis(CHECK_INTERVAL_MS)) => {},
            _ = shard.stopping() => return,
        }
        shard
            .ctx
            .disk_space
            .apply_settings(&shard.metadata().settings);
    }
}

/// The first wait before reopening the same partition again after a
/// reopen that failed at ENOSPC once more; doubled each time.
pub const REOPEN_BACKOFF_FIRST_MS: u64 = 1000;

/// The longest wait between two reopens of the same partition.
pub const REOPEN_BACKOFF_MAX_MS: u64 = 60_000;

/// Every shard: a partition whose log failed at ENOSPC anyway (the guard's
/// minimum was not enough, or the disk filled from outside) is reopened
/// once the data folder is back above its alert threshold, so writing
/// resumes without a restart. The reopen recovers the log from disk
/// (cutting the unacknowledged tail) and starts its Raft group again,
/// which catches up from the leader like a restarted replica. A partition
/// that fails again (space the statistics do not show, e.g. a quota) is
/// retried with a doubling wait, at most [`REOPEN_BACKOFF_MAX_MS`]. Logs
/// failed by anything else (a failed fsync: the page cache may hold what
/// the disk lost) wait for a restart.
pub async fn reopen_failed(shard: Rc<Shard>) {
    use std::collections::HashMap;
    // Per partition: (wait before the next reopen, earliest next reopen).
    let mut backoff: HashMap<crate::shard::PartitionKey, (u64, u64)> = HashMap::new();
    loop {
        monoio::select! {
            _ = monoio::time::sleep(Duration::from_millis(CHECK_INTERVAL_MS)) => {},
            _ = shard.stopping() => return,
        }
        if shard.ctx.disk_space.state() != DiskState::Ok {
            continue;
        }
        let now = now_ms();
        let failed: Vec<(crate::shard::PartitionKey, String)> = shard
            .partitions
            .borrow()
            .iter()
            .filter_map(|(k, p)| match p.log.failure() {
                Some((why, true)) => Some((*k, why)),
                _ => None,
            })
            .collect();
        // Forget partitions that have stayed healthy (or gone) for a while;
        // one that fails again soon after a reopen keeps its doubled wait.
        backoff.retain(|k, (_, next_ms)| {
            failed.iter().any(|(f, _)| f == k)
                || now < next_ms.saturating_add(REOPEN_BACKOFF_MAX_MS)
        });
        for ((id, index), why) in failed {
            if shard.is_stopping() {
                return;
            }
            let (wait_ms, next_ms) = backoff
                .get(&(id, index))
                .copied()
                .unwrap_or((REOPEN_BACKOFF_FIRST_MS, 0));
            if now < next_ms {
                continue;
            }
            backoff.insert(
                (id, index),
                (
                    (wait_ms * 2).min(REOPEN_BACKOFF_MAX_MS),
                    now.saturating_add(wait_ms),
                ),
            );
            let meta = shard.metadata();
            let Some(t) = meta.topic_by_id(&id) else {
                continue;
            };
            tracing::warn!(topic = %t.name, partition = index, failure = %why, "reopening a partition whose log failed for want of space, now that space is back");
            crate::topics::reopen_partition(&shard, t, index, "space back after ENOSPC").await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(min_bytes: u64, min_pct: u64, alert_pct: u64) -> DiskSpace {
        let d = DiskSpace::new(Path::new("/"), &Settings::default());
        d.min_free_setting_bytes.store(min_bytes, Ordering::Relaxed);
        d.min_free_percent.store(min_pct, Ordering::Relaxed);
        d.alert_free_percent.store(alert_pct, Ordering::Relaxed);
        d
    }

    #[test]
    fn thresholds_take_the_smaller_minimum_and_alert_at_least_it() {
        let gib = 1u64 << 30;
        // Big disk: the fixed size decides.
        assert_eq!(thresholds(1000 * gib, gib, 5, 10), (gib, 100 * gib));
        // Small disk: the share decides.
        assert_eq!(thresholds(10 * gib, gib, 5, 10), (gib / 2, gib));
        // Alert below the minimum is lifted to it.
        assert_eq!(thresholds(100, 50, 100, 10), (50, 50));
        // Either zero disables the minimum.
        assert_eq!(thresholds(100, 0, 5, 0).0, 0);
        assert_eq!(thresholds(100, 50, 0, 0).0, 0);
    }

    #[test]
    fn states_follow_the_readings_both_ways() {
        let d = guard(100, 100, 30);
        d.record(1000, 1000);
        assert_eq!(d.state(), DiskState::Ok);
        d.record(250, 1000);
        assert_eq!(d.state(), DiskState::Alert);
        d.record(99, 1000);
        assert_eq!(d.state(), DiskState::Low);
        assert_eq!(d.usage().min_free_bytes, 100);
        d.record(400, 1000);
        assert_eq!(d.state(), DiskState::Ok);
    }

    #[test]
    fn produce_is_refused_only_when_low() {
        let d = guard(100, 100, 0);
        d.record(99, 1000);
        // Recent reading: no re-check, refused on the figures.
        d.checked_at_ms.store(u64::MAX / 2, Ordering::Relaxed);
        let e = d.admit_produce(10).unwrap_err();
        assert_eq!((e.free_bytes, e.min_free_bytes), (99, 100));
        d.record(5000, 10_000);
        d.checked_at_ms.store(u64::MAX / 2, Ordering::Relaxed);
        assert!(d.admit_produce(10).is_ok());
        // Disabled: always admitted.
        let off = guard(0, 100, 0);
        off.record(0, 1000);
        assert!(off.admit_produce(1 << 40).is_ok());
    }

    #[test]
    fn reads_the_real_file_system() {
        let d = guard(1, 100, 0);
        d.check_now();
        let u = d.usage();
        assert!(u.total_bytes > 0 && u.free_bytes <= u.total_bytes);
        assert!(u.checked_at_ms > 0);
    }
}
