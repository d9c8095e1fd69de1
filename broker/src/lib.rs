//! The Tidemark broker: thread-per-core shards serving the Kafka protocol.
//!
//! | module | what |
//! |---|---|
//! | [`cluster`] | cluster mode: transport per shard, controller, leadership |
//! | [`config`], [`settings`] | start-up configuration; Kafka-named settings and topic configs |
//! | [`server`] | starts the shards, binds the listeners, shuts down |
//! | [`shard`] | one thread per core; cross-shard calls |
//! | [`listeners`] | Kafka listeners: names, ports, security protocols, advertised addresses |
//! | [`tls`] | TLS on rustls for SSL listeners: certificates (reloaded), handshake, principal |
//! | [`sasl`] | SASL PLAIN and SCRAM-SHA-256/512 for SASL_* listeners; SCRAM credentials (stored in the metadata) |
//! | [`acl`] | ACLs and the StandardAuthorizer decision; every handler asks [`acl::Authz`] |
//! | [`admin`] | runs one metadata command on either store |
//! | [`admin_http`] | the admin HTTP server: `/metrics`, status and health endpoints |
//! | [`metrics`] | per-shard counters and histograms, gathered and rendered for Prometheus |
//! | [`connection`] | one client connection: frames in, responses out in order |
//! | [`handlers`] | one module per API |
//! | [`groups`] | the group coordinator and committed offsets (`__consumer_offsets`) |
//! | [`metadata`] | topics, ids, dynamic settings, SCRAM credentials (single node: a file) |
//! | [`disk_space`] | the full-disk guard: free space of the data folder, produce refused below the minimum |
//! | [`partition`] | a partition replica: log, high watermark, waiting readers |
//! | [`record_validation`] | Kafka's per-record produce checks (KIP-467): keys on compacted topics, timestamp bounds |
//! | [`apis`] | which API versions this broker implements |

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize};

pub mod acceptors;
pub mod acl;
pub mod admin;
pub mod admin_http;
pub mod apis;
pub mod client_metrics;
pub mod cluster;
pub mod config;
pub mod connection;
pub mod connection_limits;
pub mod disk_space;
pub mod fetch_session;
pub mod group_config;
pub mod groups;
pub mod handlers;
pub mod listener_set;
pub mod listeners;
pub mod maintenance;
pub mod memory_trim;
pub mod metadata;
pub mod metrics;
pub mod notify;
pub mod partition;
pub mod producer_state;
pub mod quotas;
pub mod record_validation;
pub mod sasl;
pub mod server;
pub mod settings;
pub mod shard;
pub mod share;
pub mod tls;
pub mod topics;
pub mod turnstile;
pub mod txn;

/// What every shard shares, read-only apart from a few counters that are
/// touched per connection or per produce request, not per record.
pub struct BrokerContext {
    pub config: config::BrokerConfig,
    pub supported: kafka_protocol::SupportedApis,
    /// Set when shutdown starts: stop accepting, finish what is in flight.
    pub shutting_down: AtomicBool,
    /// Open client connections, in all, per listener and per address
    /// (bounded by `max.connections`, its per-listener form and
    /// `max.connections.per.ip`; see `connection_limits`).
    pub connections: std::sync::Arc<connection_limits::ConnectionCounts>,
    /// `fetch.max.bytes` (read-only): read once at start, since every
    /// fetch request bounds its response by it.
    pub fetch_max_bytes: usize,
    /// Bytes of produce requests currently held (bounded by
    /// `queued.max.request.bytes`; past it, connections stop reading).
    pub inflight_produce_bytes: AtomicI64,
    /// Requests being handled on any shard; shutdown waits for zero.
    pub inflight_requests: AtomicUsize,
    /// Cluster mode: this broker has applied the controller log up to
    /// what a controller leader had committed when it (re)joined (see
    /// `Controller::run`); Metadata waits for it.
    pub metadata_caught_up: AtomicBool,
    /// Cluster mode: this process's registration with the controller has
    /// been applied here (`Controller::register`). Once it has, a broker
    /// missing from the metadata is not a registration still on its way
    /// but one a finished decommission removed, and Metadata stops
    /// waiting for it (it would wait out its 10 s on every request of
    /// the removed broker, which is still running and still in clients'
    /// bootstrap lists).
    pub registered: AtomicBool,
    /// Drawn at start, carried by this run's registrations
    /// (`BrokerMeta::incarnation`): the metadata has this run's
    /// registration once its entry carries this number.
    pub incarnation: u64,
    /// The admin server's certificates (the broker's `ssl.*` settings;
    /// loaded at start when `admin.ssl.enabled`).
    pub tls: Option<tls::TlsContext>,
    /// The listeners in force (`listeners` changes at run time) and
    /// every TLS listener's certificates and client-auth settings: its
    /// `listener.name.<l>.ssl.*` settings, else the broker's.
    pub listeners: listener_set::ListenerSet,
    /// `TIDEMARK_BOOTSTRAP_USER`, salted: given to the metadata at start
    /// if that user has no credential yet (single node: before the
    /// listeners open; cluster: once this broker has caught up with the
    /// controller log, see `cluster::controller::Controller::bootstrap_user`).
    /// The users themselves are in the metadata (`ClusterMetadata::scram`).
    pub bootstrap_user: Option<sasl::BootstrapUser>,
    /// `authorizer.class.name` and its settings (`None`: no authorizer,
    /// every request is allowed).
    pub authorizer: Option<acl::authorizer::Authorizer>,
    /// TLS between brokers (`security.inter.broker.protocol=SSL`).
    pub peer_tls: Option<tls::peer::PeerTlsConfig>,
    /// Client telemetry (KIP-714): client instances and the latest
    /// payload each pushed, shared by the shards (a client's requests may
    /// arrive on several connections). Held only for map operations.
    pub telemetry: std::sync::Mutex<client_metrics::Telemetry>,
    /// Client quotas' rates, broker-wide (`quotas::manager`); the quotas
    /// themselves are in the metadata (`ClusterMetadata::client_quotas`).
    pub quotas: quotas::manager::QuotaManager,
    /// The data folder's free space and the full-disk guard
    /// (`log.dir.min.free.*`): checked by shard 0 every second, read by
    /// the produce path, DescribeLogDirs, and metrics/health.
    pub disk_space: disk_space::DiskSpace,
    /// What the periodic `malloc_trim` did (`memory_trim`), for metrics.
    pub memory_trims: memory_trim::TrimStats,
}

pub use server::run;
