//! Consuming: [`Fetcher`] reads assigned partitions; [`GroupConsumer`]
//! joins a classic consumer group and reads what it is assigned.
