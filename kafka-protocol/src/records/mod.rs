//! Record batches (message format v2, "magic 2"): the unit Kafka producers
//! send, brokers store and consumers fetch.
//!
//! The broker's rule is that batches travel as bytes (DESIGN.md,
//! invariant 4): on produce it checks a batch ([`RecordBatches`],
//! [`RecordBatch::verify_crc`]) and stamps its base offset, leader epoch and
//! log-append time in place ([`stamp_batch`]); it never decodes and
//! re-encodes records. Reading records ([`RecordBatch::records`]) is lazy
//! and zero-copy for uncompressed batches; compressed ones are decompressed
//! into a buffer whose size the caller bounds
//! ([`RecordBatch::decompressed_records`]), which only compaction, dead
//! letters and tools need. [`RecordBatchBuilder`] writes batches for tests,
//! tools and the broker's own markers.
//!
//! Magic 0/1 message sets are recognised and refused ([`legacy`]). No input
//! makes anything here panic or allocate more than the input (or a given
//! decompression bound): the `record_batch` fuzz target checks that.

mod batch;
mod batches;
mod builder;
pub mod compression;
mod control;
mod error;
mod fuzz;
mod header;
pub mod legacy;
mod lz4;
mod recompress;
mod record;
mod snappy;
mod stamp;
mod varint;

#[cfg(test)]
mod tests;

pub use batch::RecordBatch;
pub use batches::RecordBatches;
pub use builder::{NewRecord, RecordBatchBuilder};
pub use compression::{Compression, compress, compress_at, decompress};
pub use control::{ControlRecordType, EndTxnMarker};
pub use error::RecordError;
#[doc(hidden)]
pub use fuzz::fuzz_check;
pub use header::{
    Attributes, LOG_OVERHEAD, MAGIC_V2, NO_PARTITION_LEADER_EPOCH, NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID, NO_SEQUENCE, NO_TIMESTAMP, RECORD_BATCH_OVERHEAD, TimestampType,
};
pub use recompress::recompress;
pub use record::{Header, HeaderIter, Headers, Record, RecordIter};
pub use stamp::{RecordBatchMut, Stamp, stamp_batch};
