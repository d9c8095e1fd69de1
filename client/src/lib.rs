//! `tidemark-client`: a blocking Kafka client (std::net + threads, no
//! async runtime) on the `kafka-protocol` codec. It is the base of `tmk`,
//! the operations CLI, and of the load generator, so it favours simple,
//! predictable behaviour: every wait is bounded, every error is one line.
//!
//! - [`Client`]: bootstrap, metadata cache, routing by [`Route`], one
//!   connection per broker (pipelined), retries.
//! - [`admin`]: topic, config, group, ACL, SCRAM, cluster calls.
//! - [`producer`]: batching, compression, idempotence, murmur2 partitioning.
//! - [`consumer`]: [`consumer::Fetcher`] for assigned partitions and
//!   [`consumer::GroupConsumer`] for classic consumer groups.
//!
//! Connections: a [`Client`] keeps one connection per broker, shared by
//! every thread using it; each has a reader thread, so requests pipeline
//! (see [`conn::Conn::send`]). Brokers answer a connection's requests in
//! order, so whatever may be held by the broker (a Fetch long poll, a
//! JoinGroup waiting for the group) goes on connections of its own
//! ([`Client::connect_node`]): a fetcher's and a group member's requests
//! never queue behind another user's. A load generator wanting more
//! connections opens them the same way, or uses several `Client`s.
//!
//! Errors: [`Error`] is one line naming the Kafka error and the item
//! (`UNKNOWN_TOPIC_OR_PARTITION: ... (topic foo)`); admin calls answer a
//! `Result` per item inside the call's own `Result`.

pub mod admin;
mod client;
pub mod config;
pub mod conn;
pub mod consumer;
mod error;
pub mod partitioner;
pub mod producer;
mod retry;
pub mod sasl;
mod tls;

pub use client::{BrokerInfo, Client, PartitionInfo, Route, TopicInfo};
pub use config::{Config, SaslConfig, SaslMechanism, TlsConfig};
pub use error::Error;
pub use kafka_protocol;
pub use kafka_protocol::ErrorCode;
pub use kafka_protocol::records::Compression;
pub use tls::blocking_stream as tls_stream;

#[cfg(test)]
mod tests {
    /// The types shared between threads must stay shareable.
    #[test]
    fn handles_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<crate::Client>();
        check::<crate::producer::Producer>();
        check::<crate::producer::DeliveryHandle>();
        check::<crate::Error>();
        fn send<T: Send>() {}
        send::<crate::consumer::Fetcher>();
        send::<crate::consumer::GroupConsumer>();
    }
}
