//! Consuming: [`Fetcher`] reads assigned partitions; [`GroupConsumer`]
//! joins a classic consumer group and reads what it is assigned.

mod fetcher;
mod group;

pub use fetcher::{
    ConsumedRecord, Fetcher, FetcherConfig, IsolationLevel, OffsetReset, StartOffset,
};
pub use group::{GroupConfig, GroupConsumer, range_assign};
