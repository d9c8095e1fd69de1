//! Broker settings and topic configs, by their Kafka names.
//!
//! One table says which names exist, their types, defaults, and which
//! broker setting supplies a topic config's default. A name that is not in
//! the table is refused with a clear error rather than silently ignored
//! (DESIGN.md invariant 7: a config that is accepted is honoured).

use std::collections::BTreeMap;

mod kafka_broker;

pub use kafka_broker::{
    KAFKA_BROKER_CONFIGS, KafkaBrokerConfig, KafkaType, LISTENER_ONLY_SECURITY_CONFIGS, UpdateMode,
    kafka_broker_config, parse_ip_overrides,
};

/// The type of a setting's value, as DescribeConfigs reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    Boolean,
    Int,
    Long,
    Double,
    String,
    /// A comma-separated list (Kafka's LIST type: APPEND and SUBTRACT
    /// apply).
    List,
}

impl ValueType {
    /// Kafka's ConfigType number used in DescribeConfigs v3+.
    pub fn kafka_code(self) -> i8 {
        match self {
            ValueType::Boolean => 1,
            ValueType::String => 2,
            ValueType::Int => 3,
            ValueType::Long => 5,
            ValueType::Double => 6,
            ValueType::List => 7,
        }
    }
}

/// A broker setting the broker honours.
#[derive(Debug)]
pub struct BrokerSetting {
    pub name: &'static str,
    pub ty: ValueType,
    pub default: &'static str,
    /// Whether IncrementalAlterConfigs may change it while running.
    pub dynamic: bool,
    pub doc: &'static str,
}

/// A topic config, with the broker setting that supplies its default
/// (Kafka's `ServerTopicConfigSynonyms`), or its own default for the few
/// that have no broker synonym.
#[derive(Debug)]
pub struct TopicConfigDef {
    pub name: &'static str,
    pub ty: ValueType,
    /// The broker setting whose value is the default; empty when there is
    /// none (then `default` is).
    pub broker_default: &'static str,
    /// The default when `broker_default` is empty.
    pub default: &'static str,
    pub doc: &'static str,
}

impl TopicConfigDef {
    /// The broker setting that supplies the default, if any.
    pub fn synonym(&self) -> Option<&'static str> {
        (!self.broker_default.is_empty()).then_some(self.broker_default)
    }
}

macro_rules! b {
    ($name:expr, $ty:ident, $default:expr, $dynamic:expr, $doc:expr) => {
        BrokerSetting {
            name: $name,
            ty: ValueType::$ty,
            default: $default,
            dynamic: $dynamic,
            doc: $doc,
        }
    };
}

/// `replica.selector.class`: Kafka's rack-aware selector, the one that
/// turns follower fetching on (`cluster::read_replica`).
pub const RACK_AWARE_SELECTOR: &str = "org.apache.kafka.common.replica.RackAwareReplicaSelector";
/// `replica.selector.class`: Kafka's leader-only selector (the default).
pub const LEADER_SELECTOR: &str = "org.apache.kafka.common.replica.LeaderSelector";

/// Every broker setting, by Kafka name.
pub const BROKER_SETTINGS: &[BrokerSetting] = &[
    b!(
        "num.partitions",
        Int,
        "1",
        true,
        "Partitions of an auto-created topic or a CreateTopics without a count."
    ),
    b!(
        "default.replication.factor",
        Int,
        "1",
        true,
        "Replication factor of auto-created topics."
    ),
    b!(
        "auto.create.topics.enable",
        Boolean,
        "true",
        true,
        "Create a topic on Metadata or Produce when it does not exist."
    ),
    b!(
        "auto.leader.rebalance.enable",
        Boolean,
        "true",
        true,
        "Cluster mode: each leader hands partitions back to their preferred replica (the first) when it is in sync."
    ),
    b!(
        "broker.session.timeout.ms",
        Long,
        "9000",
        false,
        "Cluster mode: a broker the controller leader has not heard from for this long is fenced: Metadata and DescribeCluster no longer list it until it is heard from again."
    ),
    b!(
        "leader.imbalance.check.interval.seconds",
        Long,
        "30",
        true,
        "Cluster mode: how often leaders check for partitions to hand back (Kafka: 300)."
    ),
    b!(
        "log.retention.ms",
        Long,
        "604800000",
        true,
        "Default retention.ms (7 days)."
    ),
    b!(
        "log.retention.bytes",
        Long,
        "-1",
        true,
        "Default retention.bytes."
    ),
    b!(
        "log.segment.bytes",
        Int,
        "1073741824",
        true,
        "Default segment.bytes."
    ),
    b!(
        "log.roll.ms",
        Long,
        "604800000",
        true,
        "Default segment.ms."
    ),
    b!(
        "log.cleanup.policy",
        List,
        "delete",
        true,
        "Default cleanup.policy."
    ),
    b!(
        "log.cleaner.delete.retention.ms",
        Long,
        "86400000",
        true,
        "Default delete.retention.ms."
    ),
    b!(
        "log.cleaner.min.cleanable.ratio",
        Double,
        "0.5",
        true,
        "Default min.cleanable.dirty.ratio."
    ),
    b!(
        "log.message.timestamp.type",
        String,
        "CreateTime",
        true,
        "Default message.timestamp.type."
    ),
    b!(
        "log.message.timestamp.before.max.ms",
        Long,
        "9223372036854775807",
        true,
        "Default message.timestamp.before.max.ms: how far before the broker's clock a CreateTime record's timestamp may be (Kafka's default, Long.MAX_VALUE: any past time)."
    ),
    b!(
        "log.message.timestamp.after.max.ms",
        Long,
        "3600000",
        true,
        "Default message.timestamp.after.max.ms: how far after the broker's clock a CreateTime record's timestamp may be (Kafka 4's default: one hour)."
    ),
    b!(
        "message.max.bytes",
        Int,
        "1048588",
        true,
        "Default max.message.bytes: the largest record batch accepted."
    ),
    b!(
        "min.insync.replicas",
        Int,
        "1",
        true,
        "Default min.insync.replicas."
    ),
    b!(
        "socket.request.max.bytes",
        Int,
        "104857600",
        false,
        "The largest request frame; a larger one closes the connection."
    ),
    b!(
        "listeners",
        String,
        "",
        true,
        "The Kafka listeners, NAME://HOST:PORT,... (e.g. PLAINTEXT://127.0.0.1:9092,SSL://127.0.0.1:9093), each on its own port; empty: one PLAINTEXT listener on --kafka-addr (described as that listener). Per broker at run time (not cluster-wide), as in Kafka: a new listener starts accepting and is advertised, a removed one stops and its connections close, one given another address moves there; a listener keeps its security protocol. Unlike Kafka 4 under KRaft, a change that alters what the broker advertises is allowed: the broker registers again with the controller."
    ),
    b!(
        "replica.selector.class",
        String,
        "",
        false,
        "Follower fetching (KIP-392). org.apache.kafka.common.replica.RackAwareReplicaSelector: a partition's leader answers a consumer that sends its client.rack (Fetch v11+) with the in-sync replica in that rack to read from, and the consumer fetches from it; empty or org.apache.kafka.common.replica.LeaderSelector: consumers read from leaders. Followers serve Fetch v11+ up to their own high watermark either way, as Kafka's do. Kafka's two built-in classes are the only values (no Java classes are loaded)."
    ),
    b!(
        "admin.listeners",
        String,
        "127.0.0.1:9644",
        false,
        "The admin HTTP server's address, HOST:PORT (/metrics, /v1/status, /v1/cluster/health, /v1/brokers, /v1/partitions); port 0 picks a free port (logged at start); empty: no admin server. --admin-addr overrides it. With admin.ssl.enabled it is HTTPS; with TIDEMARK_ADMIN_TOKEN set its requests need that bearer token; otherwise keep it on a private address."
    ),
    b!(
        "admin.ssl.enabled",
        Boolean,
        "false",
        false,
        "Serve the admin HTTP server over TLS (HTTPS only), with the certificates of the Kafka SSL listeners: ssl.keystore.location (PEM), and with ssl.truststore.location and ssl.client.auth for client certificates; reloaded when the files change. Needs ssl.keystore.location even without an SSL listener."
    ),
    b!(
        "metrics.enabled",
        Boolean,
        "true",
        false,
        "false: the shards count nothing on the request path (requests, latency, errors, bytes and records by topic, connections, elections); /metrics keeps the values read when scraped (offsets, sizes, lag, health, memory, disk). For measuring what the counting costs."
    ),
    b!(
        "metrics.partition.series.max",
        Int,
        "1000",
        false,
        "/metrics: per-partition series (high watermark, log start, size, group lag by partition) while this broker holds at most this many partition replicas (or group partition commits); beyond, only the per-topic and per-group series."
    ),
    b!(
        "advertised.listeners",
        String,
        "",
        false,
        "Where clients are told to connect, per listener name (NAME://HOST:PORT,...); a listener not named here advertises its own address."
    ),
    b!(
        "listener.security.protocol.map",
        String,
        "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL",
        true,
        "The security protocol of each listener name, NAME:PROTOCOL,... (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL). Per broker at run time, with listeners (a listener in force keeps its protocol)."
    ),
    b!(
        "sasl.server.max.receive.size",
        Int,
        "524288",
        false,
        "The largest frame a SASL listener reads before the client has authenticated; a larger one closes the connection."
    ),
    b!(
        "sasl.enabled.mechanisms",
        List,
        "SCRAM-SHA-256,SCRAM-SHA-512",
        false,
        "SASL mechanisms the SASL_* listeners offer: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 (Kafka's default, GSSAPI, is not supported)."
    ),
    b!(
        "connections.max.reauth.ms",
        Long,
        "0",
        false,
        "KIP-368: how long a SASL session lasts before the client must re-authenticate on the same connection (0: for ever). A request other than the re-authentication after it ends closes the connection."
    ),
    b!(
        "security.inter.broker.protocol",
        String,
        "PLAINTEXT",
        false,
        "How brokers talk to each other on --rpc-addr (Raft and controller traffic): PLAINTEXT, or SSL (mutual TLS with ssl.keystore.location and ssl.truststore.location; each broker's certificate must name its rpc IP address and allow client and server authentication)."
    ),
    b!(
        "authorizer.class.name",
        String,
        "",
        false,
        "Empty (no authorization: every request is allowed) or org.apache.kafka.metadata.authorizer.StandardAuthorizer (Kafka ACLs on every API)."
    ),
    b!(
        "super.users",
        String,
        "",
        false,
        "Principals the authorizer allows everything, separated by ';' (User:admin;User:ops)."
    ),
    b!(
        "allow.everyone.if.no.acl.found",
        Boolean,
        "false",
        false,
        "Whether a resource that no ACL covers is open to everyone (Kafka's default: no)."
    ),
    b!(
        "ssl.keystore.type",
        String,
        "PEM",
        false,
        "Only PEM: ssl.keystore.location is one PEM file with the private key and the certificate chain."
    ),
    b!(
        "ssl.keystore.location",
        String,
        "",
        false,
        "PEM file with the SSL listeners' private key and certificate chain (reloaded when it changes)."
    ),
    b!(
        "ssl.key.password",
        String,
        "",
        false,
        "The password of an encrypted PEM private key in ssl.keystore.location (PKCS#8, -----BEGIN ENCRYPTED PRIVATE KEY-----, as Kafka reads PEM keystores, KIP-651); used by every SSL listener, the inter-broker TLS and the admin server's. A listener's own, listener.name.<l>.ssl.key.password, is set at start or changed at run time per broker (with a new keystore, in the same request), as in Kafka. Never shown: DescribeConfigs returns it as sensitive with no value."
    ),
    b!(
        "ssl.truststore.type",
        String,
        "PEM",
        false,
        "Only PEM: ssl.truststore.location is a PEM bundle of CA certificates."
    ),
    b!(
        "ssl.truststore.location",
        String,
        "",
        false,
        "PEM bundle of the CAs client certificates are checked against (needed when ssl.client.auth is requested or required; reloaded when it changes)."
    ),
    b!(
        "ssl.client.auth",
        String,
        "none",
        false,
        "none, requested or required: whether SSL clients are asked for a certificate (mutual TLS)."
    ),
    b!(
        "ssl.enabled.protocols",
        List,
        "TLSv1.2,TLSv1.3",
        false,
        "TLS versions the SSL listeners accept: TLSv1.2, TLSv1.3."
    ),
    b!(
        "ssl.cipher.suites",
        List,
        "",
        false,
        "Cipher suites the SSL listeners (and TLS between brokers) offer, by Kafka's names (TLS_AES_128_GCM_SHA256, TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, ...), in order of preference: the broker's order decides. Empty: every suite rustls has, AES-128-GCM first."
    ),
    b!(
        "ssl.principal.mapping.rules",
        String,
        "DEFAULT",
        false,
        "Rewrites a client certificate's subject (RFC 2253) into the principal's name: RULE:pattern/replacement/[LU],...,DEFAULT."
    ),
    b!(
        "max.connections",
        Int,
        "2147483647",
        true,
        "Connections accepted at once (all listeners of this broker); more are closed at accept. Dynamic, as in Kafka: a change applies to the next connection accepted, and connections already open stay. Per listener: listener.name.<l>.max.connections."
    ),
    b!(
        "max.connection.creation.rate",
        Int,
        "2147483647",
        true,
        "New connections per second the broker accepts (KIP-612), measured over quota.window.num windows of quota.window.size.seconds; past it the listener's acceptor on each shard waits (at most one window) before serving the next connection, so clients see a slow connect, not a refusal. Per listener: listener.name.<l>.max.connection.creation.rate; the broker's and the listener's limits both apply."
    ),
    b!(
        "queued.max.request.bytes",
        Long,
        "268435456",
        false,
        "Bytes of produce requests held in memory at once; past it, reading from clients waits."
    ),
    b!(
        "memory.trim.interval.ms",
        Long,
        "10000",
        false,
        "Tidemark: every this many milliseconds (at least 1000), heap memory the broker has freed is handed back to the operating system (glibc malloc_trim, on a helper thread). The broker keeps freed memory for reuse so that busy connections do not fault in fresh pages for every request buffer; without trimming, its resident size stayed at the peak of the largest burst it ever took. 0 turns trimming off."
    ),
    b!(
        "queued.max.request.bytes.per.connection",
        Long,
        "16777216",
        false,
        "Bytes of produce requests one connection may have in the broker at once (Tidemark; Kafka handles one request per connection at a time); past it, reading from that connection waits until its earlier requests are answered. Keeps one producer's backlog from filling queued.max.request.bytes and from queueing ahead of every other connection's work on the shard. A single request larger than this is still taken, alone."
    ),
    b!(
        "quota.window.num",
        Int,
        "11",
        false,
        "Client quotas (quotas/): the number of sample windows a client's byte and request rates are measured over."
    ),
    b!(
        "quota.window.size.seconds",
        Int,
        "1",
        false,
        "Client quotas: the length of one sample window, seconds."
    ),
    b!(
        "controller.quota.window.num",
        Int,
        "11",
        false,
        "Client quotas: the number of sample windows of controller_mutation_rate (partitions created or deleted per second)."
    ),
    b!(
        "controller.quota.window.size.seconds",
        Int,
        "1",
        false,
        "Client quotas: the length of one controller_mutation_rate sample window, seconds."
    ),
    b!(
        "offsets.topic.num.partitions",
        Int,
        "50",
        false,
        "Partitions of __consumer_offsets."
    ),
    b!(
        "transaction.state.log.num.partitions",
        Int,
        "50",
        false,
        "Partitions of __transaction_state."
    ),
    b!(
        "transaction.state.log.replication.factor",
        Int,
        "3",
        false,
        "Replicas of each __transaction_state partition (at most the brokers there are when it is created)."
    ),
    b!(
        "transaction.state.log.min.isr",
        Int,
        "2",
        false,
        "min.insync.replicas of __transaction_state (at most its replication factor)."
    ),
    b!(
        "transaction.max.timeout.ms",
        Int,
        "900000",
        true,
        "The largest transaction timeout a producer may ask for (INVALID_TRANSACTION_TIMEOUT beyond it)."
    ),
    b!(
        "transactional.id.expiration.ms",
        Int,
        "604800000",
        true,
        "How long the coordinator keeps a transactional id without a transaction."
    ),
    b!(
        "transaction.partition.verification.enable",
        Boolean,
        "true",
        true,
        "Whether a partition asks the transaction coordinator before taking the first batch of a producer's transaction (KIP-890), so a late batch of an ended transaction cannot leave a transaction open for ever."
    ),
    b!(
        "transaction.abort.timed.out.transaction.cleanup.interval.ms",
        Int,
        "10000",
        false,
        "How often transactions open past their timeout are aborted."
    ),
    b!(
        "transaction.remove.expired.transaction.cleanup.interval.ms",
        Int,
        "3600000",
        false,
        "How often expired transactional ids are removed."
    ),
    b!(
        "group.consumer.session.timeout.ms",
        Int,
        "45000",
        true,
        "KIP-848 consumer groups: a member silent this long is removed."
    ),
    b!(
        "group.consumer.heartbeat.interval.ms",
        Int,
        "5000",
        true,
        "KIP-848 consumer groups: the heartbeat interval told to members."
    ),
    b!(
        "group.max.size",
        Int,
        "2147483647",
        false,
        "Members a classic group may have; a new member beyond it gets GROUP_MAX_SIZE_REACHED."
    ),
    b!(
        "offsets.retention.minutes",
        Int,
        "10080",
        false,
        "Committed offsets of a group expire once it has been Empty this long."
    ),
    b!(
        "offsets.retention.check.interval.ms",
        Long,
        "600000",
        false,
        "How often expired committed offsets are removed."
    ),
    b!(
        "group.initial.rebalance.delay.ms",
        Int,
        "3000",
        true,
        "Delay of a new group's first rebalance."
    ),
    b!(
        "group.share.session.timeout.ms",
        Int,
        "45000",
        false,
        "Share groups (KIP-932): a member silent this long is removed; default of share.session.timeout.ms."
    ),
    b!(
        "group.share.heartbeat.interval.ms",
        Int,
        "5000",
        false,
        "Share groups: the heartbeat interval told to members; default of share.heartbeat.interval.ms."
    ),
    b!(
        "group.share.record.lock.duration.ms",
        Int,
        "30000",
        false,
        "Share groups: how long a delivered record stays acquired before it is released; default of share.record.lock.duration.ms."
    ),
    b!(
        "group.share.min.record.lock.duration.ms",
        Int,
        "15000",
        false,
        "Share groups: the lowest share.record.lock.duration.ms a group may set."
    ),
    b!(
        "group.share.max.record.lock.duration.ms",
        Int,
        "60000",
        false,
        "Share groups: the highest share.record.lock.duration.ms a group may set."
    ),
    b!(
        "group.share.delivery.count.limit",
        Int,
        "5",
        false,
        "Share groups: delivery attempts after which a record is archived; default of share.delivery.count.limit."
    ),
    b!(
        "group.share.min.delivery.count.limit",
        Int,
        "2",
        false,
        "Share groups: the lowest share.delivery.count.limit a group may set."
    ),
    b!(
        "group.share.max.delivery.count.limit",
        Int,
        "10",
        false,
        "Share groups: the highest share.delivery.count.limit a group may set."
    ),
    b!(
        "group.share.partition.max.record.locks",
        Int,
        "2000",
        false,
        "Share groups: records a share partition holds acquired at once; default of share.partition.max.record.locks."
    ),
    b!(
        "group.share.min.partition.max.record.locks",
        Int,
        "100",
        false,
        "Share groups: the lowest share.partition.max.record.locks a group may set."
    ),
    b!(
        "group.share.max.partition.max.record.locks",
        Int,
        "10000",
        false,
        "Share groups: the highest share.partition.max.record.locks a group may set."
    ),
    b!(
        "share.delivery.delay.ms",
        Long,
        "0",
        true,
        "Beyond Kafka: default of the topic config share.delivery.delay.ms (records are not delivered to share groups until this long after their timestamp)."
    ),
    b!(
        "group.share.max.size",
        Int,
        "200",
        false,
        "Members a share group may have."
    ),
    b!(
        "share.coordinator.state.topic.num.partitions",
        Int,
        "50",
        false,
        "Partitions of __share_group_state."
    ),
    b!(
        "share.coordinator.state.topic.replication.factor",
        Int,
        "3",
        false,
        "Replication factor of __share_group_state (capped at the number of brokers)."
    ),
    b!(
        "share.coordinator.state.topic.min.isr",
        Int,
        "2",
        false,
        "min.insync.replicas of __share_group_state."
    ),
    b!(
        "errors.deadletterqueue.topic.name.prefix",
        String,
        "dlq.",
        false,
        "KIP-1191: a group's errors.deadletterqueue.topic.name must start with this, so dead-letter topics are recognisable and can be granted ACLs by prefix."
    ),
    b!(
        "errors.deadletterqueue.auto.create.topics.enable",
        Boolean,
        "true",
        false,
        "KIP-1191: create a group's dead-letter topic on its first dead letter when it does not exist."
    ),
    b!(
        "compression.type",
        String,
        "producer",
        true,
        "Default compression.type."
    ),
    b!(
        "compression.gzip.level",
        Int,
        "-1",
        true,
        "Default compression.gzip.level."
    ),
    b!(
        "compression.lz4.level",
        Int,
        "9",
        true,
        "Default compression.lz4.level."
    ),
    b!(
        "compression.zstd.level",
        Int,
        "3",
        true,
        "Default compression.zstd.level."
    ),
    b!(
        "log.roll.jitter.ms",
        Long,
        "0",
        true,
        "Default segment.jitter.ms."
    ),
    b!(
        "log.index.size.max.bytes",
        Int,
        "10485760",
        true,
        "Default segment.index.bytes."
    ),
    b!(
        "log.index.interval.bytes",
        Int,
        "4096",
        true,
        "Default index.interval.bytes."
    ),
    b!(
        "log.flush.interval.messages",
        Long,
        "9223372036854775807",
        true,
        "Default flush.messages (Tidemark syncs every batch before acknowledging it)."
    ),
    b!(
        "log.flush.interval.ms",
        Long,
        "9223372036854775807",
        true,
        "Default flush.ms (Tidemark syncs every batch before acknowledging it)."
    ),
    b!(
        "log.segment.delete.delay.ms",
        Long,
        "60000",
        true,
        "Default file.delete.delay.ms."
    ),
    b!(
        "log.cleaner.min.compaction.lag.ms",
        Long,
        "0",
        true,
        "Default min.compaction.lag.ms."
    ),
    b!(
        "log.cleaner.max.compaction.lag.ms",
        Long,
        "9223372036854775807",
        true,
        "Default max.compaction.lag.ms."
    ),
    b!(
        "unclean.leader.election.enable",
        Boolean,
        "false",
        true,
        "Default unclean.leader.election.enable (Raft never elects an unclean leader)."
    ),
    b!(
        "log.preallocate",
        Boolean,
        "true",
        true,
        "Default preallocate. Kafka's default is false; Tidemark's is true because O_DIRECT appends into reserved space measured ~40 us faster each on this project's disk (storage/src/file.rs), and space is reserved only past a segment's first MiB."
    ),
    b!(
        "log.local.retention.ms",
        Long,
        "-2",
        true,
        "Default local.retention.ms."
    ),
    b!(
        "log.local.retention.bytes",
        Long,
        "-2",
        true,
        "Default local.retention.bytes."
    ),
    b!(
        "log.retention.check.interval.ms",
        Long,
        "300000",
        true,
        "How often retention and compaction run."
    ),
    b!(
        "log.dir.min.free.bytes",
        Long,
        "1073741824",
        true,
        "Full-disk guard (as Redpanda's storage_min_free_bytes): while the data folder's file system has fewer free bytes than the smaller of this and log.dir.min.free.percent of its size, Produce to user topics is refused with KAFKA_STORAGE_ERROR (retriable: producers keep their records and deliver them once space is back); fetches, group offset commits, transaction and share-group state, DeleteRecords, DeleteTopics and retention go on. Checked every second and as appends approach it. 0 disables the guard."
    ),
    b!(
        "log.dir.min.free.percent",
        Int,
        "5",
        true,
        "The full-disk guard's minimum as a share of the file system (0-100); the smaller of this and log.dir.min.free.bytes applies, so a small disk is not refused outright. 0 disables the guard."
    ),
    b!(
        "log.dir.free.alert.percent",
        Int,
        "10",
        true,
        "Below this share of the file system free (0-100; never below the guard's minimum), the data folder is in the alert state: a warning is logged and operators see it (DescribeLogDirs' UsableBytes, the disk-space state); produce still works."
    ),
];

macro_rules! t {
    ($name:expr, $ty:ident, $broker:expr, $doc:expr) => {
        TopicConfigDef {
            name: $name,
            ty: ValueType::$ty,
            broker_default: $broker,
            default: "",
            doc: $doc,
        }
    };
}

/// A topic config without a broker synonym.
macro_rules! tn {
    ($name:expr, $ty:ident, $default:expr, $doc:expr) => {
        TopicConfigDef {
            name: $name,
            ty: ValueType::$ty,
            broker_default: "",
            default: $default,
            doc: $doc,
        }
    };
}

/// Every topic config, by Kafka name.
pub const TOPIC_CONFIGS: &[TopicConfigDef] = &[
    t!(
        "share.delivery.delay.ms",
        Long,
        "share.delivery.delay.ms",
        "Beyond Kafka: share groups get a record no earlier than this long after its timestamp (classic and consumer groups read the log as always)."
    ),
    t!(
        "cleanup.policy",
        List,
        "log.cleanup.policy",
        "delete, compact, or compact,delete."
    ),
    t!(
        "retention.ms",
        Long,
        "log.retention.ms",
        "Delete segments older than this; -1 keeps them."
    ),
    t!(
        "retention.bytes",
        Long,
        "log.retention.bytes",
        "Delete old segments past this size; -1 keeps them."
    ),
    t!(
        "segment.bytes",
        Int,
        "log.segment.bytes",
        "Segment file size (at least 1 MiB, as in Kafka 4)."
    ),
    tn!(
        "internal.segment.bytes",
        Int,
        "",
        "Kafka's internal override of segment.bytes (LogConfig.INTERNAL_SEGMENT_BYTES_CONFIG), for tests that need small segments: any size from 1024 bytes, without segment.bytes' 1 MiB floor. Described only on a topic that sets it."
    ),
    t!(
        "segment.ms",
        Long,
        "log.roll.ms",
        "Roll a segment after this long."
    ),
    t!(
        "max.message.bytes",
        Int,
        "message.max.bytes",
        "The largest record batch accepted."
    ),
    t!(
        "message.timestamp.type",
        String,
        "log.message.timestamp.type",
        "CreateTime or LogAppendTime."
    ),
    t!(
        "message.timestamp.before.max.ms",
        Long,
        "log.message.timestamp.before.max.ms",
        "CreateTime topics: a batch with a record whose timestamp is more than this many ms before the broker's clock is refused (INVALID_TIMESTAMP, the records listed). Ignored with LogAppendTime."
    ),
    t!(
        "message.timestamp.after.max.ms",
        Long,
        "log.message.timestamp.after.max.ms",
        "CreateTime topics: a batch with a record whose timestamp is more than this many ms after the broker's clock is refused (INVALID_TIMESTAMP, the records listed). Ignored with LogAppendTime."
    ),
    t!(
        "min.insync.replicas",
        Int,
        "min.insync.replicas",
        "Replicas that must have a batch for acks=all."
    ),
    t!(
        "delete.retention.ms",
        Long,
        "log.cleaner.delete.retention.ms",
        "How long tombstones survive compaction."
    ),
    t!(
        "min.cleanable.dirty.ratio",
        Double,
        "log.cleaner.min.cleanable.ratio",
        "Dirty ratio that triggers compaction."
    ),
    t!(
        "compression.type",
        String,
        "compression.type",
        "The codec batches are stored with: producer (keep the producer's), uncompressed, gzip, snappy, lz4 or zstd. A batch in another codec is recompressed on produce, as Kafka does; one already in it is stored as sent."
    ),
    t!(
        "compression.gzip.level",
        Int,
        "compression.gzip.level",
        "gzip level (1-9, or -1 for the default, 6) used when the broker recompresses to gzip."
    ),
    t!(
        "compression.lz4.level",
        Int,
        "compression.lz4.level",
        "Accepted and validated (1-17) as Kafka does; Tidemark's LZ4 encoder has a single speed, so the level does not change what is stored."
    ),
    t!(
        "compression.zstd.level",
        Int,
        "compression.zstd.level",
        "zstd level (-131072 to 22) used when the broker recompresses to zstd."
    ),
    t!(
        "segment.jitter.ms",
        Long,
        "log.roll.jitter.ms",
        "Each segment rolls up to this much earlier than segment.ms (a random amount per segment), so partitions created together do not roll together."
    ),
    t!(
        "segment.index.bytes",
        Int,
        "log.index.size.max.bytes",
        "Accepted and validated as Kafka does. Tidemark's offset index is sparse and sized by the segment, never preallocated, so it never fills and never forces a roll."
    ),
    t!(
        "index.interval.bytes",
        Int,
        "log.index.interval.bytes",
        "Bytes of batches between offset index entries (0: an entry for every batch)."
    ),
    t!(
        "flush.messages",
        Long,
        "log.flush.interval.messages",
        "Kafka: fsync after this many messages. Tidemark syncs every batch to disk on a majority of replicas before acknowledging it (Raft), which is at least as often as any value asks."
    ),
    t!(
        "flush.ms",
        Long,
        "log.flush.interval.ms",
        "Kafka: fsync at least this often. Tidemark syncs every batch before acknowledging it, which is at least as often as any value asks."
    ),
    t!(
        "file.delete.delay.ms",
        Long,
        "log.segment.delete.delay.ms",
        "Accepted and validated as Kafka does. Kafka delays deleting a segment file so readers can finish; Tidemark's readers hold the open file, which stays readable after it is removed, so files are removed at once."
    ),
    t!(
        "min.compaction.lag.ms",
        Long,
        "log.cleaner.min.compaction.lag.ms",
        "Compaction leaves segments holding records newer than this alone."
    ),
    t!(
        "max.compaction.lag.ms",
        Long,
        "log.cleaner.max.compaction.lag.ms",
        "A compacted topic's segment rolls and is compacted, whatever the dirty ratio, once its records are older than this (checked every log.retention.check.interval.ms)."
    ),
    t!(
        "unclean.leader.election.enable",
        Boolean,
        "unclean.leader.election.enable",
        "Accepted as Kafka does. Tidemark's partitions are Raft groups: a leader is always elected from replicas holding every committed record, so an unclean election never happens whatever the value."
    ),
    t!(
        "preallocate",
        Boolean,
        "log.preallocate",
        "Reserve disk space ahead of a segment's writes once it holds 1 MiB (never for idle partitions)."
    ),
    t!(
        "local.retention.ms",
        Long,
        "log.local.retention.ms",
        "Tiered storage: local retention (-2: retention.ms). Accepted and validated; tiered storage is not available, so retention.ms applies."
    ),
    t!(
        "local.retention.bytes",
        Long,
        "log.local.retention.bytes",
        "Tiered storage: local retention (-2: retention.bytes). Accepted and validated; tiered storage is not available, so retention.bytes applies."
    ),
    tn!(
        "remote.storage.enable",
        Boolean,
        "false",
        "Tiered storage: not available in Tidemark, so only false is accepted (as Kafka refuses it when the broker's remote storage is off)."
    ),
    tn!(
        "remote.log.copy.disable",
        Boolean,
        "false",
        "Tiered storage: accepted and validated; has no effect without remote storage."
    ),
    tn!(
        "remote.log.delete.on.disable",
        Boolean,
        "false",
        "Tiered storage: accepted and validated; has no effect without remote storage."
    ),
    tn!(
        "leader.replication.throttled.replicas",
        List,
        "",
        "Replicas whose replication the leader throttles: '*' or partition:broker,... Accepted and validated; Tidemark does not throttle replication yet (issue 20), so it has no effect."
    ),
    tn!(
        "follower.replication.throttled.replicas",
        List,
        "",
        "Replicas whose replication the follower throttles: '*' or partition:broker,... Accepted and validated; Tidemark does not throttle replication yet (issue 20), so it has no effect."
    ),
];

/// A setting or config that is unknown or has a bad value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("unknown setting '{0}'")]
    Unknown(String),
    #[error("invalid value '{value}' for '{name}': {why}")]
    Invalid {
        name: String,
        value: String,
        why: String,
    },
    /// Kafka's words (`DynamicBrokerConfig.validateConfigs`), for a static
    /// broker setting in IncrementalAlterConfigs / AlterConfigs.
    #[error("Cannot update these configs dynamically: Set({0})")]
    ReadOnly(String),
    /// Kafka's words for a per-broker config set at the cluster-wide
    /// default (resource name ""); Kafka answers INVALID_REQUEST.
    #[error(
        "Cannot update these configs at default cluster level, broker id must be specified: Set({0})"
    )]
    PerBrokerOnly(String),
    /// Kafka's words for a keystore/truststore config without a listener
    /// prefix (`SslConfigs.RECONFIGURABLE_CONFIGS`); INVALID_REQUEST too.
    #[error(
        "These security configs can be dynamically updated only per-listener using the listener prefix: Set({0})"
    )]
    ListenerPrefixOnly(String),
    /// A `listener.name.<l>.` prefix on a setting Tidemark does not take
    /// per listener.
    #[error(
        "'{0}': Tidemark takes only these settings per listener (listener.name.<listener>.<setting>): {list} (JAAS configs have no meaning here: SASL users are SCRAM credentials in the cluster metadata)",
        list = PER_LISTENER_SETTINGS.join(", ")
    )]
    NotPerListener(String),
}

pub(crate) fn invalid(name: &str, value: &str, why: impl Into<String>) -> SettingError {
    SettingError::Invalid {
        name: name.to_string(),
        value: value.to_string(),
        why: why.into(),
    }
}

/// Checks a value against its type and the rules Kafka enforces for it.
pub fn validate(name: &str, ty: ValueType, value: &str) -> Result<(), SettingError> {
    let v = value.trim();
    match ty {
        ValueType::Boolean => {
            if !v.eq_ignore_ascii_case("true") && !v.eq_ignore_ascii_case("false") {
                return Err(invalid(name, value, "expected true or false"));
            }
            // Kafka's words when the broker's remote log storage is off.
            if name == "remote.storage.enable" && v.eq_ignore_ascii_case("true") {
                return Err(invalid(
                    name,
                    value,
                    "Tiered Storage functionality is disabled in the broker. Topic cannot be configured with remote log storage.",
                ));
            }
        }
        ValueType::Int => {
            let n: i32 = v
                .parse()
                .map_err(|_| invalid(name, value, "expected a 32-bit integer"))?;
            check_range(name, value, n as i64)?;
        }
        ValueType::Long => {
            let n: i64 = v
                .parse()
                .map_err(|_| invalid(name, value, "expected a 64-bit integer"))?;
            check_range(name, value, n)?;
        }
        ValueType::Double => {
            let n: f64 = v
                .parse()
                .map_err(|_| invalid(name, value, "expected a number"))?;
            if name.ends_with("ratio") && !(0.0..=1.0).contains(&n) {
                return Err(invalid(name, value, "must be between 0 and 1"));
            }
        }
        ValueType::String | ValueType::List => match name {
            "compression.type"
                if !matches!(
                    v,
                    "uncompressed" | "zstd" | "lz4" | "snappy" | "gzip" | "producer"
                ) =>
            {
                return Err(invalid(
                    name,
                    value,
                    "String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer",
                ));
            }
            "leader.replication.throttled.replicas" | "follower.replication.throttled.replicas"
                if !throttled_replicas_ok(v) =>
            {
                return Err(invalid(
                    name,
                    value,
                    "must be the literal '*' or a list of replicas in the following format: [partitionId]:[brokerId],[partitionId]:[brokerId],...",
                ));
            }
            "cleanup.policy" | "log.cleanup.policy" => {
                tidemark_storage::CleanupPolicy::parse(v)
                    .map_err(|e| invalid(name, value, e.to_string()))?;
            }
            "message.timestamp.type" | "log.message.timestamp.type"
                if v != "CreateTime" && v != "LogAppendTime" =>
            {
                return Err(invalid(name, value, "expected CreateTime or LogAppendTime"));
            }
            "ssl.keystore.type" | "ssl.truststore.type" if !v.eq_ignore_ascii_case("PEM") => {
                return Err(invalid(name, value, "only PEM is supported"));
            }
            "replica.selector.class"
                if !matches!(v, "" | RACK_AWARE_SELECTOR | LEADER_SELECTOR) =>
            {
                return Err(invalid(
                    name,
                    value,
                    "expected org.apache.kafka.common.replica.RackAwareReplicaSelector, org.apache.kafka.common.replica.LeaderSelector or empty (Tidemark has Kafka's two selectors built in and loads no classes)",
                ));
            }
            "ssl.client.auth" if !matches!(v, "none" | "requested" | "required") => {
                return Err(invalid(name, value, "expected none, requested or required"));
            }
            "ssl.cipher.suites" => {
                if let Err(e) = crate::tls::cipher_suites::provider(v) {
                    return Err(invalid(name, value, e));
                }
            }
            "ssl.enabled.protocols" => {
                for p in v.split(',').map(str::trim) {
                    if p != "TLSv1.2" && p != "TLSv1.3" {
                        return Err(invalid(name, value, "expected TLSv1.2 and/or TLSv1.3"));
                    }
                }
            }
            "sasl.enabled.mechanisms" => {
                for m in v.split(',').map(str::trim).filter(|m| !m.is_empty()) {
                    if crate::sasl::Mechanism::parse(m).is_none() {
                        return Err(invalid(
                            name,
                            value,
                            format!("{m} is not supported (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)"),
                        ));
                    }
                }
            }
            "security.inter.broker.protocol" if v != "PLAINTEXT" && v != "SSL" => {
                return Err(invalid(
                    name,
                    value,
                    "expected PLAINTEXT or SSL (SASL between brokers is not supported)",
                ));
            }
            "authorizer.class.name" | "super.users" => {
                let (class, users) = if name == "super.users" {
                    (crate::acl::authorizer::STANDARD_AUTHORIZER, v)
                } else {
                    (v, "")
                };
                crate::acl::authorizer::Authorizer::from_settings(class, users, false)
                    .map_err(|e| invalid(name, value, e.to_string()))?;
            }
            "ssl.principal.mapping.rules" => {
                crate::tls::principal::MappingRules::parse(v)
                    .map_err(|e| invalid(name, value, e.to_string()))?;
            }
            _ => {}
        },
    }
    Ok(())
}

/// Kafka's `ThrottledReplicaListValidator`: `*`, or `partition:broker`
/// pairs separated by commas (empty: none).
fn throttled_replicas_ok(v: &str) -> bool {
    let v = v.trim();
    if v == "*" || v.is_empty() {
        return true;
    }
    v.split(',').all(|pair| {
        pair.trim().split_once(':').is_some_and(|(p, b)| {
            p.trim().parse::<u32>().is_ok() && b.trim().parse::<u32>().is_ok()
        })
    })
}

fn check_range(name: &str, value: &str, n: i64) -> Result<(), SettingError> {
    // gzip: 1-9, or -1 for java.util.zip's default (Kafka's GzipCompression).
    if name == "compression.gzip.level" {
        return if n == -1 || (1..=9).contains(&n) {
            Ok(())
        } else {
            Err(invalid(name, value, "must be -1 or between 1 and 9"))
        };
    }
    let min = match name {
        // Kafka puts no bound on retention.bytes: any negative is unlimited.
        "retention.bytes" | "log.retention.bytes" => i64::MIN,
        "compression.zstd.level" => -131_072,
        "local.retention.ms"
        | "local.retention.bytes"
        | "log.local.retention.ms"
        | "log.local.retention.bytes" => -2,
        "segment.index.bytes" | "log.index.size.max.bytes" => 4,
        "flush.messages"
        | "log.flush.interval.messages"
        | "max.compaction.lag.ms"
        | "log.cleaner.max.compaction.lag.ms"
        | "compression.lz4.level" => 1,
        "retention.ms" | "log.retention.ms" => -1,
        // Kafka 4's floor (KIP-1030); `internal.segment.bytes` goes lower.
        "segment.bytes" | "log.segment.bytes" => 1_048_576,
        // Kafka puts no bound on it; a segment here holds at least 1 KiB.
        "internal.segment.bytes" => 1024,
        "num.partitions"
        | "default.replication.factor"
        | "min.insync.replicas"
        | "segment.ms"
        | "log.roll.ms"
        | "socket.request.max.bytes"
        | "max.connections"
        | "sasl.server.max.receive.size"
        | "offsets.topic.num.partitions"
        | "transaction.state.log.num.partitions"
        | "transaction.state.log.replication.factor"
        | "transaction.state.log.min.isr"
        | "transaction.max.timeout.ms"
        | "transactional.id.expiration.ms"
        | "transaction.abort.timed.out.transaction.cleanup.interval.ms"
        | "transaction.remove.expired.transaction.cleanup.interval.ms"
        | "offsets.retention.minutes"
        | "group.max.size"
        | "offsets.retention.check.interval.ms"
        | "queued.max.request.bytes"
        | "queued.max.request.bytes.per.connection"
        | "quota.window.num"
        | "quota.window.size.seconds"
        | "controller.quota.window.num"
        | "controller.quota.window.size.seconds"
        | "log.retention.check.interval.ms"
        | "group.consumer.session.timeout.ms"
        | "group.consumer.heartbeat.interval.ms"
        | "leader.imbalance.check.interval.seconds"
        | "broker.session.timeout.ms"
        | "group.share.session.timeout.ms"
        | "group.share.heartbeat.interval.ms"
        | "group.share.max.size"
        | "share.coordinator.state.topic.num.partitions"
        | "share.coordinator.state.topic.replication.factor"
        | "share.coordinator.state.topic.min.isr" => 1,
        "group.share.record.lock.duration.ms" | "group.share.min.record.lock.duration.ms" => 1000,
        "group.share.max.record.lock.duration.ms" => 30000,
        "group.share.delivery.count.limit" | "group.share.min.delivery.count.limit" => 2,
        "group.share.max.delivery.count.limit" => 5,
        "group.share.partition.max.record.locks"
        | "group.share.min.partition.max.record.locks"
        | "group.share.max.partition.max.record.locks" => 100,
        _ => 0,
    };
    // Kafka's upper bounds (ShareGroupConfig, GroupCoordinatorConfig,
    // ShareCoordinatorConfig): a value past them fails at start-up there.
    let max = match name {
        "compression.lz4.level" => 17,
        "compression.zstd.level" => 22,
        "group.share.record.lock.duration.ms" | "group.share.max.record.lock.duration.ms" => {
            3_600_000
        }
        "group.share.min.record.lock.duration.ms" => 30_000,
        "group.share.delivery.count.limit" => 10,
        "group.share.min.delivery.count.limit" => 5,
        "group.share.max.delivery.count.limit" => 25,
        "group.share.partition.max.record.locks" | "group.share.min.partition.max.record.locks" => {
            10_000
        }
        "group.share.max.partition.max.record.locks" => 100_000,
        "group.share.max.size" => 1000,
        "share.coordinator.state.topic.replication.factor" => i16::MAX as i64,
        "log.dir.min.free.percent" | "log.dir.free.alert.percent" => 100,
        _ => i64::MAX,
    };
    if n < min {
        return Err(invalid(name, value, format!("must be at least {min}")));
    }
    if n > max {
        return Err(invalid(name, value, format!("must be at most {max}")));
    }
    Ok(())
}

/// Where a setting's value came from (DescribeConfigs' ConfigSource).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Default,
    Static,
    /// Set live for the whole cluster (resource name "").
    DynamicDefault,
    /// Set live for this broker (resource name = its node id).
    Dynamic,
}

impl Source {
    /// Kafka's ConfigSource number for a broker setting.
    pub fn kafka_code(self) -> i8 {
        match self {
            Source::Dynamic => 2,        // DYNAMIC_BROKER_CONFIG
            Source::DynamicDefault => 3, // DYNAMIC_DEFAULT_BROKER_CONFIG
            Source::Static => 4,         // STATIC_BROKER_CONFIG
            Source::Default => 5,        // DEFAULT_CONFIG
        }
    }
}

/// The broker's settings: static ones from the command line, environment
/// and config file, and dynamic ones altered while running.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    statics: BTreeMap<String, String>,
    dynamics: BTreeMap<String, String>,
    dynamic_defaults: BTreeMap<String, String>,
}

/// The settings Tidemark honours per listener, with Kafka's prefix
/// `listener.name.<listener>.<setting>` (the listener name in lower case,
/// as Kafka's `ListenerName.configPrefix`): the TLS certificates and
/// client authentication, the SASL mechanisms, and re-authentication.
/// A prefixed value wins over the unprefixed one for that listener.
pub const PER_LISTENER_SETTINGS: &[&str] = &[
    "ssl.keystore.type",
    "ssl.keystore.location",
    "ssl.truststore.type",
    "ssl.truststore.location",
    "ssl.client.auth",
    "ssl.enabled.protocols",
    "ssl.cipher.suites",
    "ssl.principal.mapping.rules",
    "ssl.key.password",
    "sasl.enabled.mechanisms",
    "connections.max.reauth.ms",
    "max.connections",
    "max.connection.creation.rate",
];

/// The per-listener settings that can change at run time on a listener
/// in force, per broker (Kafka's reconfigurable SSL configs that apply to
/// PEM files): a listener's certificate files and its key's password.
/// The rest of [`PER_LISTENER_SETTINGS`] is fixed for a listener once it
/// runs, as in Kafka (`SslConfigs.NON_RECONFIGURABLE_CONFIGS`,
/// `DynamicListenerConfig`): set at run time only for a listener not in
/// force yet, one added in the same change or later
/// (`listener_set::ListenerSet::check_change`).
pub const DYNAMIC_PER_LISTENER_SETTINGS: &[&str] = &[
    "ssl.keystore.type",
    "ssl.keystore.location",
    "ssl.truststore.type",
    "ssl.truststore.location",
    "ssl.key.password",
    "max.connections",
    "max.connection.creation.rate",
];

/// The per-listener settings that also have a cluster-wide default
/// (Kafka's `DynamicBrokerConfig.ClusterLevelListenerConfigs`); the
/// others are per broker.
pub const CLUSTER_LEVEL_LISTENER_SETTINGS: &[&str] =
    &["max.connections", "max.connection.creation.rate"];

/// `listener.name.<listener>.<setting>` split into (listener, setting),
/// the listener as written.
pub fn listener_prefixed(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("listener.name.")?;
    let (listener, setting) = rest.split_once('.')?;
    (!listener.is_empty() && !setting.is_empty()).then_some((listener, setting))
}

/// Checks `value` for the per-listener key `name` (`setting` with its
/// listener prefix) as the unprefixed setting is checked; an error names
/// the prefixed key.
fn validate_per_listener(name: &str, setting: &str, value: &str) -> Result<(), SettingError> {
    let def = PER_LISTENER_SETTINGS
        .contains(&setting)
        .then(|| broker_setting(setting))
        .flatten()
        .ok_or_else(|| SettingError::NotPerListener(name.to_string()))?;
    validate(setting, def.ty, value).map_err(|e| match e {
        SettingError::Invalid { value, why, .. } => SettingError::Invalid {
            name: name.to_string(),
            value,
            why,
        },
        e => e,
    })
}

/// Stores `value` (trimmed) under `key`, or with `None` removes it.
fn put(layer: &mut BTreeMap<String, String>, key: String, value: Option<&str>) {
    match value {
        Some(v) => {
            layer.insert(key, v.trim().to_string());
        }
        None => {
            layer.remove(&key);
        }
    }
}

/// The key a per-listener value is stored under.
pub fn listener_key(listener: &str, setting: &str) -> String {
    format!("listener.name.{}.{setting}", listener.to_ascii_lowercase())
}

/// Tidemark's own dynamic settings that, as in Kafka, change per broker
/// only (a cluster-wide listener list would bind every broker to the
/// same addresses).
const PER_BROKER_SETTINGS: &[&str] = &["listeners", "listener.security.protocol.map"];

pub fn broker_setting(name: &str) -> Option<&'static BrokerSetting> {
    BROKER_SETTINGS.iter().find(|s| s.name == name)
}

/// Topic configs Kafka defines as internal (`ConfigDef.defineInternal`):
/// accepted like the others, but in force and described only where a
/// topic sets them (`KafkaConfigSchema.resolveEffectiveTopicConfigs`).
pub const INTERNAL_TOPIC_CONFIGS: &[&str] = &["internal.segment.bytes"];

pub fn topic_config(name: &str) -> Option<&'static TopicConfigDef> {
    TOPIC_CONFIGS.iter().find(|s| s.name == name)
}

impl Settings {
    /// Sets a static setting (start-up), validating it.
    /// A Kafka broker config Tidemark has no setting for is accepted too
    /// (a server.properties carries them), checked as Kafka checks it; its
    /// doc in `kafka_broker.tsv` says what it does here.
    pub fn set_static(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        if let Some((listener, setting)) = listener_prefixed(name) {
            validate_per_listener(name, setting, value)?;
            self.statics
                .insert(listener_key(listener, setting), value.trim().to_string());
            return Ok(());
        }
        match broker_setting(name) {
            Some(def) => validate(name, def.ty, value)?,
            None => kafka_broker_config(name)
                .ok_or_else(|| SettingError::Unknown(name.to_string()))?
                .validate(value)?,
        }
        self.statics
            .insert(name.to_string(), value.trim().to_string());
        Ok(())
    }

    /// Sets (or with `None` removes) a cluster-wide dynamic default.
    pub fn set_dynamic_default(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), SettingError> {
        let mut probe = Settings::default();
        probe.set_dynamic(name, value)?;
        let key = match listener_prefixed(name) {
            // A listener's certificate files are per broker, as in Kafka;
            // its connection limits have a cluster-wide default.
            Some((listener, setting)) if CLUSTER_LEVEL_LISTENER_SETTINGS.contains(&setting) => {
                listener_key(listener, setting)
            }
            Some(_) => return Err(SettingError::PerBrokerOnly(name.to_string())),
            // Kafka's per-broker configs (its update mode "per-broker")
            // have no cluster-wide default. Tidemark's own settings keep
            // their own rule (the dynamic flag) whatever Kafka's mode.
            None if PER_BROKER_SETTINGS.contains(&name)
                || (broker_setting(name).is_none()
                    && kafka_broker_config(name)
                        .is_some_and(|c| c.mode == UpdateMode::PerBroker)) =>
            {
                return Err(SettingError::PerBrokerOnly(name.to_string()));
            }
            None => name.to_string(),
        };
        put(&mut self.dynamic_defaults, key, value);
        Ok(())
    }

    pub fn dynamic_defaults(&self) -> &BTreeMap<String, String> {
        &self.dynamic_defaults
    }

    /// Sets (or with `None` removes) a dynamic setting of this broker.
    /// A Kafka config Tidemark has no setting for follows Kafka's update
    /// mode: read-only ones are refused, the others stored (and described)
    /// whether or not they have an effect here.
    pub fn set_dynamic(&mut self, name: &str, value: Option<&str>) -> Result<(), SettingError> {
        if let Some((listener, setting)) = listener_prefixed(name) {
            if !PER_LISTENER_SETTINGS.contains(&setting) {
                return Err(SettingError::NotPerListener(name.to_string()));
            }
            // The others than DYNAMIC_PER_LISTENER_SETTINGS are for a
            // listener not in force yet; `ListenerSet::check_change`
            // refuses them for one that is.
            if let Some(v) = value {
                validate_per_listener(name, setting, v)?;
            }
            put(&mut self.dynamics, listener_key(listener, setting), value);
            return Ok(());
        }
        // Kafka's keystore and truststore settings change only with a
        // listener prefix, Tidemark's own (`ssl.keystore.location`, ...)
        // included (`DynamicBrokerConfig.validateConfigs`).
        if LISTENER_ONLY_SECURITY_CONFIGS.contains(&name) {
            return Err(SettingError::ListenerPrefixOnly(name.to_string()));
        }
        let own = broker_setting(name);
        let kafka = kafka_broker_config(name);
        match (own, kafka) {
            (Some(def), _) if !def.dynamic => {
                return Err(SettingError::ReadOnly(name.to_string()));
            }
            (Some(_), _) => {}
            (None, Some(c)) if c.mode == UpdateMode::ReadOnly => {
                return Err(SettingError::ReadOnly(name.to_string()));
            }
            (None, Some(_)) => {}
            (None, None) => return Err(SettingError::Unknown(name.to_string())),
        }
        let check = |v: &str| match (own, kafka) {
            (Some(def), _) => validate(name, def.ty, v),
            (None, Some(c)) => c.validate(v),
            (None, None) => Err(SettingError::Unknown(name.to_string())),
        };
        if let Some(v) = value {
            check(v)?;
        }
        put(&mut self.dynamics, name.to_string(), value);
        Ok(())
    }

    /// Checks a dynamic change without making it.
    pub fn check_dynamic(&self, name: &str, value: Option<&str>) -> Result<(), SettingError> {
        self.clone().set_dynamic(name, value)
    }

    pub fn dynamics(&self) -> &BTreeMap<String, String> {
        &self.dynamics
    }

    /// These settings with this broker's dynamic ones (or, with
    /// `cluster_default`, the cluster-wide defaults) replaced: a change as
    /// it would be, checked before it is made.
    pub fn with_dynamics(
        &self,
        dynamics: BTreeMap<String, String>,
        cluster_default: bool,
    ) -> Settings {
        if cluster_default {
            Settings {
                dynamic_defaults: dynamics,
                ..self.clone()
            }
        } else {
            Settings {
                dynamics,
                ..self.clone()
            }
        }
    }

    /// Checks that hold between broker settings (Kafka's
    /// `KafkaConfig.validateValues`), on the values in force.
    pub fn check_combinations(&self) -> Result<(), SettingError> {
        if self.get("max.connections.per.ip").trim() == "0"
            && self
                .get("max.connections.per.ip.overrides")
                .trim()
                .is_empty()
        {
            return Err(invalid(
                "max.connections.per.ip",
                "0",
                "max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides property is set.",
            ));
        }
        Ok(())
    }

    /// The value in force and where it came from (a Kafka config Tidemark
    /// has no setting for: Kafka's default, empty where that is null).
    pub fn get_with_source(&self, name: &str) -> Option<(String, Source)> {
        self.layers(name).into_iter().next().or_else(|| {
            broker_setting(name)
                .map(|d| d.default)
                .or_else(|| kafka_broker_config(name).map(|c| c.default.unwrap_or("")))
                .map(|d| (d.to_string(), Source::Default))
        })
    }

    /// Every value set for `name`, the one in force first (Kafka's
    /// synonyms order): this broker's dynamic value, the cluster-wide
    /// dynamic default, the static value. Defaults are not included.
    pub fn layers(&self, name: &str) -> Vec<(String, Source)> {
        [
            (self.dynamics.get(name), Source::Dynamic),
            (self.dynamic_defaults.get(name), Source::DynamicDefault),
            (self.statics.get(name), Source::Static),
        ]
        .into_iter()
        .filter_map(|(v, s)| v.map(|v| (v.clone(), s)))
        .collect()
    }

    pub fn get(&self, name: &str) -> String {
        self.get_with_source(name)
            .map(|(v, _)| v)
            .unwrap_or_default()
    }

    pub fn i64(&self, name: &str) -> i64 {
        self.get(name).trim().parse().unwrap_or_default()
    }

    /// The value of `name` for `listener`: its `listener.name.<l>.` value
    /// if one is set (only [`PER_LISTENER_SETTINGS`] can be; this broker's
    /// dynamic value, the cluster-wide default, the static one), else the
    /// broker's.
    pub fn get_for_listener(&self, listener: &str, name: &str) -> String {
        self.listener_value(listener, name)
            .unwrap_or_else(|| self.get(name))
    }

    /// `listener`'s own `listener.name.<l>.` value of `name`, if one is
    /// set (this broker's dynamic value, the cluster-wide default, the
    /// static one): a limit of the listener alone, where the broker's
    /// value is not the listener's.
    pub fn listener_value(&self, listener: &str, name: &str) -> Option<String> {
        let key = listener_key(listener, name);
        self.dynamics
            .get(&key)
            .or_else(|| self.dynamic_defaults.get(&key))
            .or_else(|| self.statics.get(&key))
            .cloned()
    }

    /// Every per-listener setting set at start, as (key, value).
    pub fn listener_statics(&self) -> impl Iterator<Item = (&String, &String)> {
        self.statics
            .iter()
            .filter(|(k, _)| listener_prefixed(k).is_some())
    }

    /// Every per-listener setting in force, as (key, value, where it
    /// came from): this broker's dynamic value, else the cluster-wide
    /// default, else the static one.
    pub fn listener_settings(&self) -> Vec<(String, String, Source)> {
        let mut out: BTreeMap<&String, (&String, Source)> = self
            .listener_statics()
            .map(|(k, v)| (k, (v, Source::Static)))
            .collect();
        for (layer, src) in [
            (&self.dynamic_defaults, Source::DynamicDefault),
            (&self.dynamics, Source::Dynamic),
        ] {
            for (k, v) in layer.iter().filter(|(k, _)| listener_prefixed(k).is_some()) {
                out.insert(k, (v, src));
            }
        }
        out.into_iter()
            .map(|(k, (v, src))| (k.clone(), v.clone(), src))
            .collect()
    }

    pub fn i32(&self, name: &str) -> i32 {
        self.get(name).trim().parse().unwrap_or_default()
    }

    pub fn bool(&self, name: &str) -> bool {
        self.get(name).trim().eq_ignore_ascii_case("true")
    }

    /// The value of topic config `name` for a topic with `overrides`, and
    /// whether it was set on the topic.
    pub fn topic_value(
        &self,
        name: &str,
        overrides: &BTreeMap<String, String>,
    ) -> Option<(String, bool)> {
        if let Some(v) = overrides.get(name) {
            return Some((v.clone(), true));
        }
        if INTERNAL_TOPIC_CONFIGS.contains(&name) {
            return None;
        }
        topic_config(name).map(|d| match d.synonym() {
            Some(b) => (self.get(b), false),
            None => (d.default.to_string(), false),
        })
    }

    /// Every topic config in force for a topic, as `(name, value)` pairs
    /// the storage layer understands.
    pub fn effective_topic_configs(
        &self,
        overrides: &BTreeMap<String, String>,
    ) -> Vec<(String, String)> {
        TOPIC_CONFIGS
            .iter()
            .filter_map(|d| {
                self.topic_value(d.name, overrides)
                    .map(|(v, _)| (d.name.to_string(), v))
            })
            .collect()
    }
}

/// Validates a topic config override.
pub fn validate_topic_config(name: &str, value: &str) -> Result<(), SettingError> {
    let def = topic_config(name).ok_or_else(|| SettingError::Unknown(name.to_string()))?;
    validate(name, def.ty, value)
}

/// Checks that hold between a topic's configs in force (Kafka's
/// `LogConfig.validateValues`), once each is valid on its own.
pub fn validate_topic_combination(
    settings: &Settings,
    overrides: &BTreeMap<String, String>,
) -> Result<(), SettingError> {
    let long = |name: &str| {
        settings
            .topic_value(name, overrides)
            .and_then(|(v, _)| v.trim().parse::<i64>().ok())
    };
    if let (Some(min), Some(max)) = (long("min.compaction.lag.ms"), long("max.compaction.lag.ms"))
        && min > max
    {
        return Err(invalid(
            "min.compaction.lag.ms",
            &min.to_string(),
            format!(
                "conflict topic config setting min.compaction.lag.ms ({min}) > max.compaction.lag.ms ({max})"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_validated_and_layered() {
        let mut s = Settings::default();
        assert_eq!(s.i32("num.partitions"), 1);
        s.set_static("num.partitions", "6").unwrap();
        assert_eq!(
            s.get_with_source("num.partitions"),
            Some(("6".into(), Source::Static))
        );
        s.set_dynamic("num.partitions", Some("3")).unwrap();
        assert_eq!(s.i32("num.partitions"), 3);
        assert!(matches!(
            s.set_static("no.such", "1"),
            Err(SettingError::Unknown(_))
        ));
        assert!(matches!(
            s.set_static("num.partitions", "x"),
            Err(SettingError::Invalid { .. })
        ));
        assert!(matches!(
            s.set_static("num.partitions", "0"),
            Err(SettingError::Invalid { .. })
        ));
        assert!(matches!(
            s.set_dynamic("socket.request.max.bytes", Some("5")),
            Err(SettingError::ReadOnly(_))
        ));
        assert!(validate_topic_config("cleanup.policy", "compact,delete").is_ok());
        assert!(validate_topic_config("cleanup.policy", "sometimes").is_err());
        assert!(validate_topic_config("retention.ms", "-2").is_err());
        assert!(validate_topic_config("retention.ms", "-1").is_ok());
        // KIP-937's bounds: longs >= 0, defaults from the log.* settings.
        for name in [
            "message.timestamp.before.max.ms",
            "message.timestamp.after.max.ms",
        ] {
            assert!(validate_topic_config(name, "0").is_ok());
            assert!(validate_topic_config(name, "9223372036854775807").is_ok());
            assert!(validate_topic_config(name, "-1").is_err());
            assert!(validate_topic_config(name, "1.5").is_err());
            assert!(validate_topic_config(name, "9223372036854775808").is_err());
        }
        assert_eq!(
            Settings::default().topic_value("message.timestamp.after.max.ms", &BTreeMap::new()),
            Some(("3600000".into(), false))
        );
        assert_eq!(
            Settings::default().topic_value("message.timestamp.before.max.ms", &BTreeMap::new()),
            Some((i64::MAX.to_string(), false))
        );
        assert!(
            s.check_dynamic("log.message.timestamp.after.max.ms", Some("60000"))
                .is_ok()
        );
        assert!(
            s.check_dynamic("log.message.timestamp.before.max.ms", Some("-5"))
                .is_err()
        );
        let mut o = BTreeMap::new();
        o.insert("retention.ms".to_string(), "1000".to_string());
        assert_eq!(
            s.topic_value("retention.ms", &o),
            Some(("1000".into(), true))
        );
        assert_eq!(
            s.topic_value("segment.bytes", &o),
            Some(("1073741824".into(), false))
        );
    }

    #[test]
    fn kafka_broker_configs_follow_kafkas_update_modes() {
        let mut s = Settings::default();
        // No setting of Tidemark's: Kafka's default, then the layers.
        assert_eq!(
            s.get_with_source("num.io.threads"),
            Some(("8".into(), Source::Default))
        );
        s.set_static("num.io.threads", "4").unwrap();
        s.set_dynamic_default("num.io.threads", Some("16")).unwrap();
        assert_eq!(
            s.get_with_source("num.io.threads"),
            Some(("16".into(), Source::DynamicDefault))
        );
        s.set_dynamic("num.io.threads", Some("2")).unwrap();
        assert_eq!(
            s.layers("num.io.threads"),
            vec![
                ("2".into(), Source::Dynamic),
                ("16".into(), Source::DynamicDefault),
                ("4".into(), Source::Static)
            ]
        );
        assert!(matches!(
            s.set_dynamic("num.io.threads", Some("0")),
            Err(SettingError::Invalid { .. })
        ));
        // read-only in Kafka
        assert_eq!(
            s.set_dynamic("delete.topic.enable", Some("false")),
            Err(SettingError::ReadOnly("delete.topic.enable".into()))
        );
        // per-broker: this broker only, never the cluster-wide default
        s.set_dynamic("sasl.kerberos.service.name", Some("kafka"))
            .unwrap();
        assert_eq!(
            s.set_dynamic_default("sasl.kerberos.service.name", Some("kafka")),
            Err(SettingError::PerBrokerOnly(
                "sasl.kerberos.service.name".into()
            ))
        );
        // keystore configs: only with a listener prefix in Kafka
        assert_eq!(
            s.set_dynamic("ssl.keystore.password", Some("x")),
            Err(SettingError::ListenerPrefixOnly(
                "ssl.keystore.password".into()
            ))
        );
        // ... Tidemark's own keystore settings and the key password too,
        // which a listener prefix changes at run time.
        for name in ["ssl.keystore.location", "ssl.key.password"] {
            assert_eq!(
                s.set_dynamic(name, Some("x")),
                Err(SettingError::ListenerPrefixOnly(name.into()))
            );
        }
        s.set_dynamic("listener.name.ssl.ssl.key.password", Some("pw"))
            .unwrap();
        assert_eq!(s.get_for_listener("SSL", "ssl.key.password"), "pw");
        // Stored for a listener not in force yet (the broker refuses it
        // for one that is: `ListenerSet::check_change`), still validated.
        s.set_dynamic("listener.name.ssl.ssl.client.auth", Some("required"))
            .unwrap();
        assert!(
            s.set_dynamic("listener.name.ssl.ssl.client.auth", Some("always"))
                .is_err()
        );
        // Tidemark's own settings keep their own rules.
        assert!(s.set_dynamic_default("num.partitions", Some("3")).is_ok());
        assert!(matches!(
            s.set_static("no.such.config", "1"),
            Err(SettingError::Unknown(_))
        ));
    }

    #[test]
    fn segment_bytes_has_kafkas_floor_and_the_internal_override_goes_lower() {
        assert!(validate_topic_config("segment.bytes", "1048575").is_err());
        assert!(validate_topic_config("segment.bytes", "1048576").is_ok());
        assert!(
            Settings::default()
                .set_static("log.segment.bytes", "1048575")
                .is_err()
        );
        assert!(validate_topic_config("internal.segment.bytes", "1024").is_ok());
        assert!(validate_topic_config("internal.segment.bytes", "1023").is_err());
        // Internal: in force and described only where a topic sets it.
        let s = Settings::default();
        let mut o = BTreeMap::new();
        assert_eq!(s.topic_value("internal.segment.bytes", &o), None);
        assert!(
            s.effective_topic_configs(&o)
                .iter()
                .all(|(k, _)| k != "internal.segment.bytes")
        );
        o.insert("internal.segment.bytes".to_string(), "4096".to_string());
        assert_eq!(
            s.topic_value("internal.segment.bytes", &o),
            Some(("4096".into(), true))
        );
    }
}
