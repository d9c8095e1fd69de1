//! Broker metrics for Prometheus (`/metrics` on the admin server).
//!
//! | module | what |
//! |---|---|
//! | [`record`] | the hot path: per-shard thread-local counters and latency histograms; [`record::throttled`] is the hook for quotas |
//! | [`errors`] | the error codes a response carries (Kafka's `errorCounts`) |
//! | [`gather`] | the admin thread asks every shard for a copy of its counts and partitions |
//! | [`aggregate`] | per-topic counters and replicas, per-group lag: shared by `/metrics` and the status API |
//! | [`view`] | the cluster as this broker sees it: brokers, leaderless and under-replicated partitions |
//! | [`exposition`] | the Prometheus text format |

pub mod aggregate;
pub mod errors;
pub mod exposition;
pub mod gather;
pub mod record;
pub mod view;

pub use record::throttled;
