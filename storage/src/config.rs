//! Per-log configuration, with Kafka's topic-config names and validation.

use std::time::Duration;

use crate::error::ConfigError;

/// `cleanup.policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CleanupPolicy {
    #[default]
    Delete,
    Compact,
    CompactDelete,
}

impl CleanupPolicy {
    pub fn compacts(self) -> bool {
        matches!(self, CleanupPolicy::Compact | CleanupPolicy::CompactDelete)
    }
    pub fn deletes(self) -> bool {
        matches!(self, CleanupPolicy::Delete | CleanupPolicy::CompactDelete)
    }

    /// Parses Kafka's list syntax: `delete`, `compact`, `compact,delete`
    /// (either order, spaces allowed).
    pub fn parse(s: &str) -> Result<Self, ConfigError> {
        let (mut compact, mut delete) = (false, false);
        for part in s.split(',').map(str::trim) {
            match part {
                "compact" => compact = true,
                "delete" => delete = true,
                _ => {
                    return Err(ConfigError::Invalid {
                        key: "cleanup.policy",
                        value: s.to_string(),
                        reason: "must be a list of `delete` and `compact`",
                    });
                }
            }
        }
        Ok(match (compact, delete) {
            (true, true) => CleanupPolicy::CompactDelete,
            (true, false) => CleanupPolicy::Compact,
            _ => CleanupPolicy::Delete,
        })
    }
}

/// When appended data is made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushPolicy {
    /// `append` returns only after its batch is fdatasynced (appends that
    /// arrive together share one fdatasync: group commit). The default,
    /// and what invariant 1 (an acknowledged write is safe) needs.
    SyncBeforeAck,
    /// `append` returns once the batch is buffered; data is synced every
    /// `interval`, or as soon as `bytes` unsynced bytes accumulate.
    Interval { interval: Duration, bytes: usize },
}

/// How data files are opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IoMode {
    /// O_DIRECT where the file system supports it, else buffered (with one
    /// warning). Every durability guarantee is the same either way.
    #[default]
    Auto,
    /// Always buffered I/O (page cache), e.g. on tmpfs.
    Buffered,
}

/// The configuration of one partition log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogConfig {
    /// `segment.bytes`: roll to a new segment when the next batch would
    /// make the active one larger than this.
    pub segment_bytes: u64,
    /// `segment.ms`: roll when the active segment's first append is older.
    pub segment_ms: i64,
    /// `index.interval.bytes`: bytes between sparse index entries.
    pub index_interval_bytes: u32,
    /// `retention.ms`, -1 for no limit.
    pub retention_ms: i64,
    /// `retention.bytes`, -1 for no limit.
    pub retention_bytes: i64,
    /// `cleanup.policy`.
    pub cleanup_policy: CleanupPolicy,
    /// `delete.retention.ms`: how long a tombstone outlives compaction.
    pub delete_retention_ms: i64,
    /// `min.cleanable.dirty.ratio`.
    pub min_cleanable_dirty_ratio: f64,
    /// `min.compaction.lag.ms`: compaction stops at the first segment
    /// holding a record newer than this.
    pub min_compaction_lag_ms: i64,
    /// `max.compaction.lag.ms`: a compacted log rolls its active segment
    /// this long after its first append at the latest, and a dirty
    /// segment whose first batch is older than this is compacted whatever
    /// the dirty ratio.
    pub max_compaction_lag_ms: i64,
    /// `segment.jitter.ms`: each segment rolls up to this much before
    /// `segment.ms` (an amount fixed per segment).
    pub segment_jitter_ms: i64,
    /// When to fdatasync.
    pub flush: FlushPolicy,
    /// O_DIRECT or buffered.
    pub io_mode: IoMode,
    /// Bytes of recent batches kept in memory for caught-up readers
    /// (unsynced batches are always kept, whatever this says).
    pub tail_cache_bytes: usize,
    /// `max.message.bytes`: the largest batch accepted.
    pub max_batch_bytes: usize,
    /// Decompression bound for compaction (a batch larger than this once
    /// decompressed is kept whole rather than cleaned).
    pub max_decompressed_bytes: usize,
    /// Preallocate each new segment to `segment.bytes` with fallocate.
    pub preallocate: bool,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            segment_bytes: 1 << 30,
            segment_ms: 7 * 24 * 3600 * 1000,
            index_interval_bytes: 4096,
            retention_ms: 7 * 24 * 3600 * 1000,
            retention_bytes: -1,
            cleanup_policy: CleanupPolicy::Delete,
            delete_retention_ms: 24 * 3600 * 1000,
            min_cleanable_dirty_ratio: 0.5,
            min_compaction_lag_ms: 0,
            max_compaction_lag_ms: i64::MAX,
            segment_jitter_ms: 0,
            flush: FlushPolicy::SyncBeforeAck,
            io_mode: IoMode::Auto,
            tail_cache_bytes: 8 << 20,
            max_batch_bytes: 1_048_588,
            max_decompressed_bytes: 64 << 20,
            preallocate: true,
        }
    }
}

fn invalid(key: &'static str, value: impl ToString, reason: &'static str) -> ConfigError {
    ConfigError::Invalid {
        key,
        value: value.to_string(),
        reason,
    }
}

impl LogConfig {
    /// A new batch must fit in one segment (Kafka checks this on the
    /// leader's append only: a follower copies what its leader took).
    pub fn check_fits_segment(&self, size: usize) -> Result<(), crate::StorageError> {
        if size as u64 > self.segment_bytes {
            return Err(crate::StorageError::BatchLargerThanSegment {
                size,
                segment_bytes: self.segment_bytes,
            });
        }
        Ok(())
    }

    /// Refuses settings that cannot be honoured (invariant 7).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.segment_bytes < 1024 {
            return Err(invalid(
                "segment.bytes",
                self.segment_bytes,
                "must be at least 1024",
            ));
        }
        if self.segment_ms <= 0 {
            return Err(invalid("segment.ms", self.segment_ms, "must be positive"));
        }
        if self.index_interval_bytes == 0 {
            return Err(invalid("index.interval.bytes", 0, "must be positive"));
        }
        if self.retention_ms < -1 {
            return Err(invalid(
                "retention.ms",
                self.retention_ms,
                "must be -1 (unlimited) or non-negative",
            ));
        }
        if self.retention_bytes < -1 {
            return Err(invalid(
                "retention.bytes",
                self.retention_bytes,
                "must be -1 (unlimited) or non-negative",
            ));
        }
        if self.delete_retention_ms < 0 {
            return Err(invalid(
                "delete.retention.ms",
                self.delete_retention_ms,
                "must be non-negative",
            ));
        }
        if !(0.0..=1.0).contains(&self.min_cleanable_dirty_ratio) {
            return Err(invalid(
                "min.cleanable.dirty.ratio",
                self.min_cleanable_dirty_ratio,
                "must be between 0 and 1",
            ));
        }
        if self.min_compaction_lag_ms < 0 {
            return Err(invalid(
                "min.compaction.lag.ms",
                self.min_compaction_lag_ms,
                "must be non-negative",
            ));
        }
        if self.max_compaction_lag_ms < 1 {
            return Err(invalid(
                "max.compaction.lag.ms",
                self.max_compaction_lag_ms,
                "must be positive",
            ));
        }
        if self.segment_jitter_ms < 0 {
            return Err(invalid(
                "segment.jitter.ms",
                self.segment_jitter_ms,
                "must be non-negative",
            ));
        }
        if let FlushPolicy::Interval { interval, bytes } = self.flush {
            if interval.is_zero() {
                return Err(invalid("flush.ms", 0, "must be positive"));
            }
            if bytes == 0 {
                return Err(invalid("flush.bytes", 0, "must be positive"));
            }
        }
        if self.max_batch_bytes < 61 {
            return Err(invalid(
                "max.message.bytes",
                self.max_batch_bytes,
                "must hold at least a batch header (61 bytes)",
            ));
        }
        Ok(())
    }

    /// Applies Kafka topic configs (`segment.bytes`, `retention.ms`, ...)
    /// on top of `self`, then validates. Unknown keys are refused rather
    /// than ignored, so that an accepted config is always honoured.
    pub fn with_props<'a>(
        mut self,
        props: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, ConfigError> {
        fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, ConfigError> {
            v.trim().parse().map_err(|_| ConfigError::NotANumber {
                key: key.to_string(),
                value: v.to_string(),
            })
        }
        for (k, v) in props {
            match k {
                "segment.bytes" => {
                    let n: i64 = num(k, v)?;
                    self.segment_bytes = u64::try_from(n)
                        .map_err(|_| invalid("segment.bytes", n, "must be positive"))?;
                }
                "segment.ms" => self.segment_ms = num(k, v)?,
                "index.interval.bytes" => self.index_interval_bytes = num(k, v)?,
                "retention.ms" => self.retention_ms = num(k, v)?,
                "retention.bytes" => self.retention_bytes = num(k, v)?,
                "cleanup.policy" => self.cleanup_policy = CleanupPolicy::parse(v)?,
                "delete.retention.ms" => self.delete_retention_ms = num(k, v)?,
                "min.cleanable.dirty.ratio" => self.min_cleanable_dirty_ratio = num(k, v)?,
                "max.message.bytes" => self.max_batch_bytes = num(k, v)?,
                "min.compaction.lag.ms" => self.min_compaction_lag_ms = num(k, v)?,
                "max.compaction.lag.ms" => self.max_compaction_lag_ms = num(k, v)?,
                "segment.jitter.ms" => self.segment_jitter_ms = num(k, v)?,
                "preallocate" => {
                    self.preallocate = match v.trim().to_ascii_lowercase().as_str() {
                        "true" => true,
                        "false" => false,
                        _ => {
                            return Err(ConfigError::NotANumber {
                                key: k.to_string(),
                                value: v.to_string(),
                            });
                        }
                    }
                }
                "flush.ms" => {
                    let ms: i64 = num(k, v)?;
                    if ms <= 0 {
                        return Err(invalid("flush.ms", ms, "must be positive"));
                    }
                    self.flush = FlushPolicy::Interval {
                        interval: Duration::from_millis(ms as u64),
                        bytes: match self.flush {
                            FlushPolicy::Interval { bytes, .. } => bytes,
                            FlushPolicy::SyncBeforeAck => 16 << 20,
                        },
                    };
                }
                _ => return Err(ConfigError::UnknownKey(k.to_string())),
            }
        }
        self.validate()?;
        Ok(self)
    }
}
