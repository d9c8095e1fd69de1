//! [`Client`]: bootstrap, the metadata cache, routing of requests by
//! [`Route`], one reused connection per broker, and retries.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use kafka_protocol::generated::find_coordinator_request::FindCoordinatorRequest;
use kafka_protocol::generated::metadata_request::MetadataRequestTopic;
use kafka_protocol::generated::{MetadataRequest, MetadataResponse};
use kafka_protocol::{ApiKey, ErrorCode, Request};
use uuid::Uuid;

use crate::config::Config;
use crate::conn::Conn;
use crate::error::Error;
use crate::retry::{self, Stale};
use crate::tls;

/// Where a request must go.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Route {
    /// Any broker (metadata, cluster-wide reads).
    Any,
    /// A given broker id.
    Node(i32),
    /// The controller, as Metadata names it.
    Controller,
    /// The leader of a partition.
    Leader { topic: String, partition: i32 },
    /// The coordinator of a consumer group.
    GroupCoordinator(String),
    /// The coordinator of a transactional id.
    TxnCoordinator(String),
}

/// A broker as Metadata describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokerInfo {
    pub node_id: i32,
    pub host: String,
    pub port: i32,
    pub rack: Option<String>,
}

impl BrokerInfo {
    pub fn addr(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// A partition as the cache knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionInfo {
    pub partition: i32,
    /// -1 when there is no leader.
    pub leader: i32,
    pub leader_epoch: i32,
    pub replicas: Vec<i32>,
    pub isr: Vec<i32>,
}

/// A topic as the cache knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicInfo {
    pub name: String,
    pub id: Uuid,
    pub internal: bool,
    /// Sorted by partition index.
    pub partitions: Vec<PartitionInfo>,
}

#[derive(Default)]
struct Meta {
    brokers: BTreeMap<i32, BrokerInfo>,
    controller_id: Option<i32>,
    cluster_id: Option<String>,
    /// Topics with the time they were fetched.
    topics: HashMap<String, (Arc<TopicInfo>, Instant)>,
}

struct Inner {
    cfg: Config,
    tls: Option<Arc<rustls::ClientConfig>>,
    /// Live connections by address; a broker id maps to its address.
    conns: Mutex<HashMap<String, Arc<Conn>>>,
    meta: RwLock<Meta>,
    /// (key type: 0 group, 1 transaction, key) -> node id.
    coordinators: Mutex<HashMap<(i8, String), i32>>,
}

/// A handle on a cluster. Cheap to clone (an `Arc` inside); `Send + Sync`,
/// so threads share one and with it the connections.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("brokers", &self.inner.cfg.brokers)
            .finish_non_exhaustive()
    }
}

/// How long a cached topic is trusted without an error (Kafka's
/// `metadata.max.age.ms` default).
const METADATA_MAX_AGE_MS: u64 = 300_000;

const GROUP_KEY: i8 = 0;
const TXN_KEY: i8 = 1;

impl Client {
    /// Connects to the first reachable bootstrap broker (negotiating
    /// versions and authenticating) and loads the broker list.
    pub fn connect(cfg: Config) -> Result<Client, Error> {
        if cfg.brokers.is_empty() {
            return Err(Error::Config("no bootstrap brokers".into()));
        }
        let tls = cfg.tls.as_ref().map(tls::client_config).transpose()?;
        let client = Client {
            inner: Arc::new(Inner {
                cfg,
                tls,
                conns: Mutex::new(HashMap::new()),
                meta: RwLock::new(Meta::default()),
                coordinators: Mutex::new(HashMap::new()),
            }),
        };
        client.metadata(Some(&[]))?;
        Ok(client)
    }

    pub fn config(&self) -> &Config {
        &self.inner.cfg
    }

    fn timeout_ms(&self) -> u64 {
        self.inner.cfg.request_timeout_ms
    }

    /// A live connection to `addr`, opened if needed.
    pub(crate) fn conn_to_addr(&self, addr: &str) -> Result<Arc<Conn>, Error> {
        if let Ok(conns) = self.inner.conns.lock()
            && let Some(c) = conns.get(addr)
            && !c.is_dead()
        {
            return Ok(c.clone());
        }
        let c = Conn::connect(addr, &self.inner.cfg, self.inner.tls.as_ref())?;
        if let Ok(mut conns) = self.inner.conns.lock() {
            conns.insert(addr.to_string(), c.clone());
        }
        Ok(c)
    }

    /// A connection to any broker: a live one if there is one, else the
    /// known brokers, then the bootstrap list, in turn.
    fn conn_any(&self) -> Result<Arc<Conn>, Error> {
        if let Ok(conns) = self.inner.conns.lock()
            && let Some(c) = conns.values().find(|c| !c.is_dead())
        {
            return Ok(c.clone());
        }
        let mut addrs: Vec<String> = self.brokers().iter().map(BrokerInfo::addr).collect();
        addrs.extend(self.inner.cfg.brokers.iter().cloned());
        let mut last = None;
        for a in addrs {
            match self.conn_to_addr(&a) {
                Ok(c) => return Ok(c),
                // SASL and TLS failures are the same on every broker.
                Err(e @ (Error::Sasl(_) | Error::Tls(_) | Error::Config(_))) => return Err(e),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| Error::Config("no broker address".into())))
    }

    /// A connection to broker `id` (metadata refreshed once if unknown).
    pub(crate) fn conn_to_node(&self, id: i32) -> Result<Arc<Conn>, Error> {
        let addr = self.broker_addr(id);
        let addr = match addr {
            Some(a) => a,
            None => {
                self.metadata(Some(&[]))?;
                self.broker_addr(id).ok_or_else(|| Error::Kafka {
                    code: ErrorCode::BrokerNotAvailable,
                    message: None,
                    context: format!("broker {id} is not in the metadata"),
                })?
            }
        };
        self.conn_to_addr(&addr)
    }

    fn broker_addr(&self, id: i32) -> Option<String> {
        self.inner
            .meta
            .read()
            .ok()?
            .brokers
            .get(&id)
            .map(BrokerInfo::addr)
    }

    /// Sends `req` where `route` says, at the highest version both sides
    /// speak, and returns the decoded response. Retries (up to
    /// `Config::retries`, backing off) lost connections, timeouts and
    /// answers saying the route was stale (NOT_LEADER_OR_FOLLOWER,
    /// NOT_COORDINATOR, NOT_CONTROLLER...), refreshing metadata or the
    /// coordinator first. Other errors inside the response are the
    /// caller's to read.
    pub fn send<R: Request + 'static>(&self, route: Route, req: R) -> Result<R::Response, Error>
    where
        R::Response: 'static,
    {
        self.send_inner(&route, &req, None)
    }

    /// [`Client::send`] at a given version (which the broker must support).
    pub fn send_to_version<R: Request + 'static>(
        &self,
        route: Route,
        req: R,
        version: i16,
    ) -> Result<R::Response, Error>
    where
        R::Response: 'static,
    {
        self.send_inner(&route, &req, Some(version))
    }

    #[allow(dead_code)]
    pub(crate) fn send_ref<R: Request + 'static>(
        &self,
        route: &Route,
        req: &R,
    ) -> Result<R::Response, Error>
    where
        R::Response: 'static,
    {
        self.send_inner(route, req, None)
    }

    fn send_inner<R: Request + 'static>(
        &self,
        route: &Route,
        req: &R,
        version: Option<i16>,
    ) -> Result<R::Response, Error>
    where
        R::Response: 'static,
    {
        let retries = self.inner.cfg.retries;
        let mut attempt = 0u32;
        loop {
            let conn = match self.resolve(route) {
                // `topic()` already looked again: the topic or partition
                // does not exist, and retrying would only delay saying so.
                Err(e) if e.kafka_code() == Some(ErrorCode::UnknownTopicOrPartition) => {
                    return Err(e);
                }
                r => r,
            };
            let result = conn.and_then(|conn| {
                let v = match version {
                    Some(v) => v,
                    None => conn.version_for(R::API_KEY)?,
                };
                conn.request(req, v, self.timeout_ms())
            });
            let stale = match &result {
                Ok(resp) => retry::stale_route(resp),
                Err(e) if e.is_retriable() => Some(match e {
                    Error::Kafka {
                        code: ErrorCode::CoordinatorLoadInProgress,
                        ..
                    } => Stale::Later,
                    Error::Kafka {
                        code: ErrorCode::CoordinatorNotAvailable | ErrorCode::NotCoordinator,
                        ..
                    } => Stale::Coordinator,
                    _ => Stale::Metadata,
                }),
                Err(_) => None,
            };
            let Some(stale) = stale else {
                return result;
            };
            if attempt >= retries || matches!(route, Route::Any | Route::Node(_)) && result.is_ok()
            {
                return result;
            }
            attempt += 1;
            if let Err(e) = &result {
                tracing::debug!(?route, attempt, error = %e, "retrying");
            }
            match (stale, route) {
                (Stale::Coordinator, Route::GroupCoordinator(g)) => {
                    self.forget_coordinator(GROUP_KEY, g)
                }
                (Stale::Coordinator, Route::TxnCoordinator(t)) => {
                    self.forget_coordinator(TXN_KEY, t)
                }
                (Stale::Metadata, Route::GroupCoordinator(g)) if result.is_err() => {
                    self.forget_coordinator(GROUP_KEY, g)
                }
                (Stale::Metadata, Route::TxnCoordinator(t)) if result.is_err() => {
                    self.forget_coordinator(TXN_KEY, t)
                }
                (Stale::Metadata, Route::Leader { topic, .. }) => {
                    std::thread::sleep(Duration::from_millis(retry::backoff_ms(
                        self.inner.cfg.retry_backoff_ms,
                        attempt,
                    )));
                    let _ = self.refresh_topics(std::slice::from_ref(topic));
                    continue;
                }
                (Stale::Metadata, Route::Controller) => {
                    let _ = self.metadata(Some(&[]));
                }
                _ => {}
            }
            std::thread::sleep(Duration::from_millis(retry::backoff_ms(
                self.inner.cfg.retry_backoff_ms,
                attempt,
            )));
        }
    }

    /// The connection a route points at now.
    pub(crate) fn resolve(&self, route: &Route) -> Result<Arc<Conn>, Error> {
        match route {
            Route::Any => self.conn_any(),
            Route::Node(id) => self.conn_to_node(*id),
            Route::Controller => {
                let id = match self.controller_id() {
                    Some(id) => id,
                    None => {
                        self.metadata(Some(&[]))?;
                        self.controller_id().ok_or_else(|| Error::Kafka {
                            code: ErrorCode::NotController,
                            message: Some("no controller in the metadata".into()),
                            context: String::new(),
                        })?
                    }
                };
                self.conn_to_node(id)
            }
            Route::Leader { topic, partition } => {
                let leader = self.leader_for(topic, *partition)?;
                self.conn_to_node(leader)
            }
            Route::GroupCoordinator(g) => self.conn_to_node(self.coordinator(GROUP_KEY, g)?),
            Route::TxnCoordinator(t) => self.conn_to_node(self.coordinator(TXN_KEY, t)?),
        }
    }

    fn forget_coordinator(&self, key_type: i8, key: &str) {
        if let Ok(mut c) = self.inner.coordinators.lock() {
            c.remove(&(key_type, key.to_string()));
        }
    }

    /// The coordinator's node id for a group (0) or transactional id (1),
    /// cached; FindCoordinator v4+ (batched) or older.
    pub(crate) fn coordinator(&self, key_type: i8, key: &str) -> Result<i32, Error> {
        if let Ok(c) = self.inner.coordinators.lock()
            && let Some(id) = c.get(&(key_type, key.to_string()))
        {
            return Ok(*id);
        }
        let conn = self.conn_any()?;
        let v = conn.version_for(ApiKey::FindCoordinator)?;
        let mut req = FindCoordinatorRequest {
            key_type,
            ..Default::default()
        };
        if v >= 4 {
            req.coordinator_keys = vec![key.to_string()];
        } else {
            req.key = key.to_string();
        }
        let resp = conn.request(&req, v, self.timeout_ms())?;
        let what = if key_type == GROUP_KEY {
            "group"
        } else {
            "transactional id"
        };
        let (node, host, port) = if v >= 4 {
            let c = resp
                .coordinators
                .into_iter()
                .find(|c| c.key == key)
                .ok_or_else(|| {
                    Error::Protocol(format!("FindCoordinator answered no coordinator for {key}"))
                })?;
            Error::check(
                c.error_code,
                c.error_message,
                format!("coordinator of {what} {key}"),
            )?;
            (c.node_id, c.host, c.port)
        } else {
            Error::check(
                resp.error_code,
                resp.error_message,
                format!("coordinator of {what} {key}"),
            )?;
            (resp.node_id, resp.host, resp.port)
        };
        if let Ok(mut m) = self.inner.meta.write() {
            m.brokers.entry(node).or_insert(BrokerInfo {
                node_id: node,
                host,
                port,
                rack: None,
            });
        }
        if let Ok(mut c) = self.inner.coordinators.lock() {
            c.insert((key_type, key.to_string()), node);
        }
        Ok(node)
    }

    /// The group coordinator's node id (looked up if not cached).
    pub fn group_coordinator(&self, group: &str) -> Result<i32, Error> {
        self.coordinator(GROUP_KEY, group)
    }

    /// Fresh metadata: `None` for every topic, `Some(&[])` for brokers
    /// only. Updates the cache.
    pub fn metadata(&self, topics: Option<&[String]>) -> Result<MetadataResponse, Error> {
        let req = MetadataRequest {
            topics: topics.map(|ts| {
                ts.iter()
                    .map(|t| MetadataRequestTopic {
                        name: Some(t.clone()),
                        ..Default::default()
                    })
                    .collect()
            }),
            allow_auto_topic_creation: false,
            ..Default::default()
        };
        let mut attempt = 0;
        let resp = loop {
            let r = self.conn_any().and_then(|c| {
                let v = c.version_for(ApiKey::Metadata)?;
                c.request(&req, v, self.timeout_ms())
            });
            match r {
                Ok(r) => break r,
                Err(e) if e.is_retriable() && attempt < self.inner.cfg.retries => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(retry::backoff_ms(
                        self.inner.cfg.retry_backoff_ms,
                        attempt,
                    )));
                }
                Err(e) => return Err(e),
            }
        };
        self.update_cache(&resp, topics.is_none());
        Ok(resp)
    }

    fn update_cache(&self, resp: &MetadataResponse, all_topics: bool) {
        let Ok(mut m) = self.inner.meta.write() else {
            return;
        };
        if !resp.brokers.is_empty() {
            m.brokers = resp
                .brokers
                .iter()
                .map(|b| {
                    (
                        b.node_id,
                        BrokerInfo {
                            node_id: b.node_id,
                            host: b.host.clone(),
                            port: b.port,
                            rack: b.rack.clone(),
                        },
                    )
                })
                .collect();
        }
        m.controller_id = (resp.controller_id >= 0).then_some(resp.controller_id);
        if resp.cluster_id.is_some() {
            m.cluster_id = resp.cluster_id.clone();
        }
        if all_topics {
            m.topics.clear();
        }
        for t in &resp.topics {
            let Some(name) = &t.name else { continue };
            if t.error_code != 0 {
                m.topics.remove(name);
                continue;
            }
            let mut partitions: Vec<PartitionInfo> = t
                .partitions
                .iter()
                .map(|p| PartitionInfo {
                    partition: p.partition_index,
                    leader: if p.error_code == ErrorCode::LeaderNotAvailable.code() {
                        -1
                    } else {
                        p.leader_id
                    },
                    leader_epoch: p.leader_epoch,
                    replicas: p.replica_nodes.clone(),
                    isr: p.isr_nodes.clone(),
                })
                .collect();
            partitions.sort_by_key(|p| p.partition);
            m.topics.insert(
                name.clone(),
                (
                    Arc::new(TopicInfo {
                        name: name.clone(),
                        id: t.topic_id,
                        internal: t.is_internal,
                        partitions,
                    }),
                    Instant::now(),
                ),
            );
        }
    }

    /// Refreshes the cache for these topics; per-topic errors are in the
    /// cache's absence of the topic (see [`Client::topic`]).
    pub fn refresh_topics(&self, topics: &[String]) -> Result<MetadataResponse, Error> {
        self.metadata(Some(topics))
    }

    /// A topic from the cache, fetched (with retries while it has no
    /// leaders yet, e.g. just created) when missing.
    pub fn topic(&self, name: &str) -> Result<Arc<TopicInfo>, Error> {
        if let Some(t) = self.cached_topic(name) {
            return Ok(t);
        }
        let mut attempt = 0;
        loop {
            let resp = self.refresh_topics(&[name.to_string()])?;
            let err = resp
                .topics
                .iter()
                .find(|t| t.name.as_deref() == Some(name))
                .map(|t| t.error_code)
                .unwrap_or(ErrorCode::UnknownTopicOrPartition.code());
            if err == 0
                && let Some(t) = self.cached_topic(name)
            {
                return Ok(t);
            }
            let e = Error::from_code(err, None, format!("topic {name}"))
                .unwrap_or_else(|| Error::Protocol("metadata".into()));
            // Unknown right after creation is normal for a moment; for a
            // topic that does not exist, do not spin through every retry.
            let max = if err == ErrorCode::UnknownTopicOrPartition.code() {
                2
            } else {
                self.inner.cfg.retries
            };
            if !e.is_retriable() || attempt >= max {
                return Err(e);
            }
            attempt += 1;
            std::thread::sleep(Duration::from_millis(retry::backoff_ms(
                self.inner.cfg.retry_backoff_ms,
                attempt,
            )));
        }
    }

    pub(crate) fn cached_topic(&self, name: &str) -> Option<Arc<TopicInfo>> {
        let m = self.inner.meta.read().ok()?;
        let (t, at) = m.topics.get(name)?;
        // Like Kafka's metadata.max.age.ms: partitions added elsewhere and
        // leader moves nobody reported are picked up eventually.
        (at.elapsed() < Duration::from_millis(METADATA_MAX_AGE_MS)).then(|| t.clone())
    }

    /// Forgets a topic so its next use fetches fresh metadata.
    pub(crate) fn invalidate_topic(&self, name: &str) {
        if let Ok(mut m) = self.inner.meta.write() {
            m.topics.remove(name);
        }
    }

    /// The leader of a partition (metadata fetched when unknown or
    /// leaderless, within the retry budget).
    pub fn leader_for(&self, topic: &str, partition: i32) -> Result<i32, Error> {
        let mut attempt = 0;
        loop {
            let t = self.topic(topic)?;
            let Some(p) = t.partitions.iter().find(|p| p.partition == partition) else {
                if attempt == 0 {
                    // Partitions may have been added since the cache was filled.
                    attempt += 1;
                    self.invalidate_topic(topic);
                    continue;
                }
                return Err(Error::Kafka {
                    code: ErrorCode::UnknownTopicOrPartition,
                    message: None,
                    context: format!(
                        "{topic}/{partition}: the topic has {} partitions",
                        t.partitions.len()
                    ),
                });
            };
            if p.leader >= 0 {
                return Ok(p.leader);
            }
            if attempt >= self.inner.cfg.retries {
                return Err(Error::Kafka {
                    code: ErrorCode::LeaderNotAvailable,
                    message: None,
                    context: format!("{topic}/{partition}"),
                });
            }
            attempt += 1;
            self.invalidate_topic(topic);
            std::thread::sleep(Duration::from_millis(retry::backoff_ms(
                self.inner.cfg.retry_backoff_ms,
                attempt,
            )));
        }
    }

    /// The brokers of the last metadata, by node id.
    pub fn brokers(&self) -> Vec<BrokerInfo> {
        self.inner
            .meta
            .read()
            .map(|m| m.brokers.values().cloned().collect())
            .unwrap_or_default()
    }

    pub fn controller_id(&self) -> Option<i32> {
        self.inner.meta.read().ok()?.controller_id
    }

    pub fn cluster_id(&self) -> Option<String> {
        self.inner.meta.read().ok()?.cluster_id.clone()
    }

    /// The API versions broker `node` announced.
    pub fn api_versions(&self, node: i32) -> Result<Vec<(ApiKey, i16, i16)>, Error> {
        Ok(self.conn_to_node(node)?.api_versions())
    }

    /// A connection to the leader of a partition, for callers that
    /// pipeline requests themselves (producer, fetcher, load generators).
    pub fn leader_conn(&self, topic: &str, partition: i32) -> Result<(i32, Arc<Conn>), Error> {
        let id = self.leader_for(topic, partition)?;
        Ok((id, self.conn_to_node(id)?))
    }

    /// A connection to broker `id`, for pipelining callers.
    pub fn node_conn(&self, id: i32) -> Result<Arc<Conn>, Error> {
        self.conn_to_node(id)
    }

    /// A new connection to broker `id` that is not shared with anything
    /// else: for requests a broker may hold (JoinGroup waits for the whole
    /// group), which would delay every later request on a shared
    /// connection, and for load generators wanting several connections.
    pub fn connect_node(&self, id: i32) -> Result<Arc<Conn>, Error> {
        let addr = match self.broker_addr(id) {
            Some(a) => a,
            None => {
                self.metadata(Some(&[]))?;
                self.broker_addr(id).ok_or_else(|| Error::Kafka {
                    code: ErrorCode::BrokerNotAvailable,
                    message: None,
                    context: format!("broker {id} is not in the metadata"),
                })?
            }
        };
        Conn::connect(&addr, &self.inner.cfg, self.inner.tls.as_ref())
    }

    /// Sleeps the backoff for a retry (attempt counts from 1).
    pub(crate) fn backoff(&self, attempt: u32) {
        std::thread::sleep(Duration::from_millis(retry::backoff_ms(
            self.inner.cfg.retry_backoff_ms,
            attempt,
        )));
    }

    /// Closes every connection (they reopen on next use).
    pub fn close(&self) {
        if let Ok(mut c) = self.inner.conns.lock() {
            for (_, conn) in c.drain() {
                conn.close();
            }
        }
    }
}

/// A deadline helper: milliseconds left, at least 1.
#[allow(dead_code)]
pub(crate) fn left_ms(deadline: Instant) -> u64 {
    deadline
        .saturating_duration_since(Instant::now())
        .as_millis()
        .max(1) as u64
}

impl Client {
    /// Adds (or replaces) a broker learned outside Metadata (a response's
    /// `node_endpoints`).
    pub(crate) fn add_broker(&self, b: BrokerInfo) {
        if let Ok(mut m) = self.inner.meta.write() {
            m.brokers.insert(b.node_id, b);
        }
    }

    /// Moves a cached partition to the leader a response named, if that
    /// leader is known and its epoch not older than the cached one.
    /// Answers whether the cache changed.
    pub(crate) fn apply_leader_hint(
        &self,
        topic: &str,
        partition: i32,
        leader: i32,
        epoch: i32,
    ) -> bool {
        let Ok(mut m) = self.inner.meta.write() else {
            return false;
        };
        if !m.brokers.contains_key(&leader) {
            return false;
        }
        let Some((info, at)) = m.topics.get(topic) else {
            return false;
        };
        let Some(i) = info
            .partitions
            .iter()
            .position(|p| p.partition == partition)
        else {
            return false;
        };
        if epoch < info.partitions[i].leader_epoch {
            return false;
        }
        let mut updated = TopicInfo::clone(info);
        updated.partitions[i].leader = leader;
        updated.partitions[i].leader_epoch = epoch;
        let at = *at;
        m.topics.insert(topic.to_string(), (Arc::new(updated), at));
        true
    }

    /// Forgets a group's coordinator (the next request looks it up).
    pub(crate) fn forget_group_coordinator(&self, group: &str) {
        self.forget_coordinator(GROUP_KEY, group);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offline_client() -> Client {
        let mut meta = Meta::default();
        for id in [1, 2] {
            meta.brokers.insert(
                id,
                BrokerInfo {
                    node_id: id,
                    host: "127.0.0.1".into(),
                    port: 9000 + id,
                    rack: None,
                },
            );
        }
        let t = TopicInfo {
            name: "t".into(),
            id: Uuid::nil(),
            internal: false,
            partitions: vec![PartitionInfo {
                partition: 0,
                leader: 1,
                leader_epoch: 5,
                replicas: vec![1, 2],
                isr: vec![1, 2],
            }],
        };
        meta.topics
            .insert("t".into(), (Arc::new(t), Instant::now()));
        Client {
            inner: Arc::new(Inner {
                cfg: Config::default(),
                tls: None,
                conns: Mutex::new(HashMap::new()),
                meta: RwLock::new(meta),
                coordinators: Mutex::new(HashMap::new()),
            }),
        }
    }

    #[test]
    fn leader_hints_move_the_cached_leader_forward_only() {
        let c = offline_client();
        assert!(!c.apply_leader_hint("t", 0, 2, 4), "older epoch");
        assert!(!c.apply_leader_hint("t", 0, 3, 6), "unknown broker");
        assert!(!c.apply_leader_hint("t", 1, 2, 6), "unknown partition");
        assert!(!c.apply_leader_hint("u", 0, 2, 6), "unknown topic");
        assert_eq!(c.leader_for("t", 0).unwrap(), 1);
        assert!(c.apply_leader_hint("t", 0, 2, 6));
        assert_eq!(c.leader_for("t", 0).unwrap(), 2);
        c.add_broker(BrokerInfo {
            node_id: 3,
            host: "127.0.0.1".into(),
            port: 9003,
            rack: None,
        });
        assert!(c.apply_leader_hint("t", 0, 3, 7));
        assert_eq!(c.leader_for("t", 0).unwrap(), 3);
        assert_eq!(c.brokers().len(), 3);
    }
}
