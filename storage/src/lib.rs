//! The segmented partition log: append, read, indexes, recovery, retention
//! and compaction over io_uring direct I/O.
//!
//! One [`Log`] per partition replica, owned by one thread (shard) and
//! shared between its tasks as `Rc<Log>`. It knows record batches and
//! files; the raft crate uses it as its log store and the broker serves
//! Produce, Fetch, ListOffsets, OffsetForLeaderEpoch and DeleteRecords from
//! it. See `ARCHITECTURE-storage.md` for the file layout and the crash
//! safety argument.

mod aligned;
mod compact;
mod config;
mod direct_read;
mod error;
mod failpoint;
mod file;
pub mod fs_pool;
mod index;
pub mod local_notify;
mod log;
mod notify;
mod producers;
pub mod slot_file;
pub mod spare;
pub mod sync_stats;
mod txn;
pub mod write_batch;

pub use compact::CompactionStats;
pub use config::{CleanupPolicy, FlushPolicy, IoMode, LogConfig};
pub use direct_read::ReadClass;
pub use error::{ConfigError, Result, StorageError};
pub use file::sync_filesystem;
pub use log::{AppendInfo, CACHE_FLOOR_FACTOR, Corruption, Log, MAX_ABORTED_PER_READ, ReadResult};
pub use producers::{PRODUCER_ID_EXPIRATION_MS, ProducerBatch};
pub use txn::{AbortedTxn, ProducerTxnState, TxnMarkerInfo};
