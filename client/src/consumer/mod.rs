//! Consuming: [`Fetcher`] reads assigned partitions; [`GroupConsumer`]
//! joins a classic consumer group and reads what it is assigned;
//! [`ReadReplicas`] routes a racked consumer's reads to the replica a
//! leader prefers (KIP-392).

mod fetcher;
mod group;
mod read_replica;

pub use fetcher::{
    ConsumedRecord, Fetcher, FetcherConfig, IsolationLevel, OffsetReset, StartOffset,
};
pub use group::{GroupConfig, GroupConsumer, range_assign};
pub use read_replica::{ReadReplicas, ReplicaAnswer};
