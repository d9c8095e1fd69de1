//! Quota enforcement on one broker, as Kafka's `ClientQuotaManager`
//! (produce and fetch bytes, request time), `ControllerMutationQuotaManager`
//! and `ConnectionQuotas` (connections per ip).
//!
//! Kafka enforces quotas per broker; so does this: the rates live in one
//! [`QuotaManager`] in the `BrokerContext`, shared by every shard behind a
//! mutex, so a client whose connections land on several shards (the
//! listeners are SO_REUSEPORT per shard) is measured once, broker-wide.
//! The mutex is taken only for a request that a quota applies to (the
//! shard's metadata snapshot says whether any quota is set at all), and
//! held for a few map operations; without quotas nothing here runs.
//!
//! KIP-219: a throttled client gets its answer at once, with
//! `throttle_time_ms` set, and the connection then reads nothing more
//! from it for that long (`connection.rs` mutes it); clients back off by
//! themselves too.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

use kafka_protocol::generated::FetchResponse;
use kafka_protocol::{ApiKey, ResponseBody};

use super::rate::{Rate, WindowConfig};
use super::{ClientQuotas, SensorKey};

/// Rates not touched for this long are dropped (Kafka expires a quota
/// sensor after an hour of inactivity).
const SENSOR_IDLE_EXPIRY_MS: i64 = 3_600_000;
/// The sweep of idle rates runs when a map grows past this many.
const SWEEP_AT_LEN: usize = 10_000;

/// What a quota counts, each with its own rates (Kafka's quota types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuotaType {
    Produce,
    Fetch,
    Request,
    ControllerMutation,
}

impl QuotaType {
    pub fn key(self) -> &'static str {
        match self {
            QuotaType::Produce => super::PRODUCER_BYTE_RATE,
            QuotaType::Fetch => super::CONSUMER_BYTE_RATE,
            QuotaType::Request => super::REQUEST_PERCENTAGE,
            QuotaType::ControllerMutation => super::CONTROLLER_MUTATION_RATE,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            QuotaType::Produce => "produce",
            QuotaType::Fetch => "fetch",
            QuotaType::Request => "request",
            QuotaType::ControllerMutation => "controller_mutation",
        }
    }
}

/// Throttling a client id has seen on this broker (per quota type): for
/// metrics (`QuotaManager::throttle_times`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThrottleTotals {
    /// Responses that carried a throttle time.
    pub throttled_responses: u64,
    /// The sum of those throttle times, ms.
    pub throttle_time_ms_total: u64,
    /// The last throttle time given, ms.
    pub last_throttle_time_ms: i64,
}

struct Sensor {
    rate: Rate,
    last_used_ms: i64,
}

/// The sensor of `key`, created if new, marked used at `now` (idle ones
/// are swept).
fn touch<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Sensor>, key: K, now: i64) -> &mut Sensor {
    let s = map.entry(key).or_insert_with(|| Sensor {
        rate: Rate::new(),
        last_used_ms: now,
    });
    s.last_used_ms = now;
    s
}

#[derive(Default)]
struct State {
    rates: HashMap<(QuotaType, SensorKey), Sensor>,
    connections: HashMap<IpAddr, Sensor>,
    /// New connections, broker-wide (`None`) and per listener name
    /// (`max.connection.creation.rate`; listeners are few, so unswept).
    accepts: HashMap<Option<String>, Sensor>,
    throttles: HashMap<(String, QuotaType), ThrottleTotals>,
}

/// The broker's quota rates (see the module doc).
pub struct QuotaManager {
    started: Instant,
    state: Mutex<State>,
}

impl Default for QuotaManager {
    fn default() -> Self {
        QuotaManager {
            started: Instant::now(),
            state: Mutex::new(State::default()),
        }
    }
}

/// `quota.window.num` and `quota.window.size.seconds`.
pub fn window_config(settings: &crate::settings::Settings) -> WindowConfig {
    WindowConfig {
        samples: settings.i64("quota.window.num").max(1) as usize,
        window_ms: settings.i64("quota.window.size.seconds").max(1) * 1000,
    }
}

/// `controller.quota.window.num` and `controller.quota.window.size.seconds`.
pub fn controller_window_config(settings: &crate::settings::Settings) -> WindowConfig {
    WindowConfig {
        samples: settings.i64("controller.quota.window.num").max(1) as usize,
        window_ms: settings.i64("controller.quota.window.size.seconds").max(1) * 1000,
    }
}

/// The user a quota knows a principal by: the name after `User:`
/// (`ANONYMOUS` without SASL or a client certificate).
pub fn user_of(principal: &str) -> &str {
    principal.strip_prefix("User:").unwrap_or(principal)
}

fn sweep<K: std::hash::Hash + Eq>(m: &mut HashMap<K, Sensor>, now_ms: i64) {
    if m.len() > SWEEP_AT_LEN {
        m.retain(|_, s| now_ms - s.last_used_ms < SENSOR_IDLE_EXPIRY_MS);
    }
}

impl QuotaManager {
    fn now_ms(&self) -> i64 {
        self.started.elapsed().as_millis() as i64
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records `value` against the client's quota of type `qt` (if one
    /// applies) and answers the throttle time in ms (0: within quota).
    pub fn record(
        &self,
        quotas: &ClientQuotas,
        cfg: WindowConfig,
        qt: QuotaType,
        user: &str,
        client_id: &str,
        value: f64,
    ) -> i64 {
        let Some((bound, key)) = super::resolve(quotas, qt.key(), user, client_id) else {
            return 0;
        };
        let now = self.now_ms();
        let mut st = self.lock();
        sweep(&mut st.rates, now);
        let s = touch(&mut st.rates, (qt, key), now);
        s.rate.record_and_throttle_ms(cfg, value, bound, now)
    }

    /// Takes back a recorded value (a throttled fetch answers no data,
    /// so its bytes do not count: Kafka's `unrecordQuotaSensor`).
    pub fn unrecord(
        &self,
        quotas: &ClientQuotas,
        cfg: WindowConfig,
        qt: QuotaType,
        user: &str,
        client_id: &str,
        value: f64,
    ) {
        if let Some((_, key)) = super::resolve(quotas, qt.key(), user, client_id) {
            let now = self.now_ms();
            if let Some(s) = self.lock().rates.get_mut(&(qt, key)) {
                s.rate.record(cfg, -value, now);
            }
        }
    }

    /// Strict quota (KIP-599, `StrictControllerMutationQuota`): the
    /// throttle time if the rate is already above the bound (then
    /// nothing is recorded and the mutation is refused), else records
    /// `value` (which may take the rate above the bound) and answers 0.
    pub fn check_and_record_strict(
        &self,
        quotas: &ClientQuotas,
        cfg: WindowConfig,
        qt: QuotaType,
        user: &str,
        client_id: &str,
        value: f64,
    ) -> i64 {
        let Some((bound, key)) = super::resolve(quotas, qt.key(), user, client_id) else {
            return 0;
        };
        let now = self.now_ms();
        let mut st = self.lock();
        let s = touch(&mut st.rates, (qt, key), now);
        let throttle = s.rate.throttle_ms(cfg, bound, now);
        if throttle > 0 {
            return throttle;
        }
        s.rate.record(cfg, value, now);
        0
    }

    /// The current throttle time of a client's quota without recording.
    pub fn throttle_now(
        &self,
        quotas: &ClientQuotas,
        cfg: WindowConfig,
        qt: QuotaType,
        user: &str,
        client_id: &str,
    ) -> i64 {
        let Some((bound, key)) = super::resolve(quotas, qt.key(), user, client_id) else {
            return 0;
        };
        let now = self.now_ms();
        match self.lock().rates.get_mut(&(qt, key)) {
            Some(s) => s.rate.throttle_ms(cfg, bound, now),
            None => 0,
        }
    }

    /// Kafka's `getMaxValueInQuotaWindow`: the most a client may fetch in
    /// one response, bound * (samples - 1) * window (`None`: no quota).
    pub fn max_value_in_window(
        &self,
        quotas: &ClientQuotas,
        cfg: WindowConfig,
        qt: QuotaType,
        user: &str,
        client_id: &str,
    ) -> Option<f64> {
        super::resolve(quotas, qt.key(), user, client_id).map(|(bound, _)| {
            bound * (cfg.samples.saturating_sub(1)) as f64 * (cfg.window_ms as f64 / 1000.0)
        })
    }

    /// A new connection from `ip` (`ConnectionQuotas`): with a
    /// `connection_creation_rate` for it, records it and answers how long
    /// to hold it before closing it when over the rate (the connection
    /// then does not count).
    pub fn connection_throttle_ms(
        &self,
        quotas: &ClientQuotas,
        cfg: WindowConfig,
        ip: IpAddr,
    ) -> i64 {
        let Some(bound) = super::ip_connection_rate(quotas, &ip.to_string()) else {
            return 0;
        };
        let now = self.now_ms();
        let mut st = self.lock();
        sweep(&mut st.connections, now);
        let s = touch(&mut st.connections, ip, now);
        let t = s.rate.record_and_throttle_ms(cfg, 1.0, bound, now);
        if t > 0 {
            s.rate.record(cfg, -1.0, now);
        }
        t
    }

    /// A new connection on `listener` (KIP-612's connection rate limits):
    /// recorded against the broker's and the listener's
    /// `max.connection.creation.rate` (`None`: no limit, not recorded);
    /// answers how long the acceptor waits before serving it (0: at once;
    /// the connection counts either way, as in Kafka).
    pub fn accept_throttle_ms(
        &self,
        cfg: WindowConfig,
        listener: &str,
        broker_bound: Option<f64>,
        listener_bound: Option<f64>,
    ) -> i64 {
        if broker_bound.is_none() && listener_bound.is_none() {
            return 0;
        }
        let now = self.now_ms();
        let mut st = self.lock();
        let mut wait = 0;
        for (key, bound) in [
            (None, broker_bound),
            (Some(listener.to_string()), listener_bound),
        ] {
            if let Some(bound) = bound {
                let s = touch(&mut st.accepts, key, now);
                wait = wait.max(s.rate.record_and_throttle_ms(cfg, 1.0, bound, now));
            }
        }
        wait
    }

    /// Notes a throttle time given to `client_id` (for metrics).
    pub fn note_throttle(&self, client_id: &str, qt: QuotaType, throttle_ms: i64) {
        if throttle_ms <= 0 {
            return;
        }
        // The Prometheus series (per shard, gathered at scrape time).
        crate::metrics::throttled(client_id, throttle_ms as u64);
        let mut st = self.lock();
        if st.throttles.len() > SWEEP_AT_LEN
            && !st.throttles.contains_key(&(client_id.to_string(), qt))
        {
            // Bounded: past this many client ids, new ones are not kept.
            return;
        }
        let t = st.throttles.entry((client_id.to_string(), qt)).or_default();
        t.throttled_responses += 1;
        t.throttle_time_ms_total += throttle_ms as u64;
        t.last_throttle_time_ms = throttle_ms;
    }

    /// The throttling every client id has seen on this broker, per quota
    /// type (the public accessor for metrics: client id, quota type name
    /// `produce`/`fetch`/`request`/`controller_mutation`, totals).
    pub fn throttle_times(&self) -> Vec<(String, &'static str, ThrottleTotals)> {
        let st = self.lock();
        let mut v: Vec<_> = st
            .throttles
            .iter()
            .map(|((c, qt), t)| (c.clone(), qt.name(), t.clone()))
            .collect();
        v.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        v
    }
}

/// The requests the request quota does not count (Kafka exempts the
/// connection set-up and the brokers' own requests).
pub fn request_quota_exempt(api: ApiKey) -> bool {
    matches!(
        api,
        ApiKey::ApiVersions
            | ApiKey::SaslHandshake
            | ApiKey::SaslAuthenticate
            | ApiKey::WriteTxnMarkers
    )
}

/// The bytes of a Fetch response that count against a consumer quota:
/// its records (Kafka counts the whole response; the rest is a few dozen
/// bytes per partition).
pub fn fetch_response_bytes(r: &FetchResponse) -> usize {
    r.responses
        .iter()
        .flat_map(|t| t.partitions.iter())
        .map(|p| p.records.as_ref().map_or(0, |b| b.len()) + 32)
        .sum()
}

/// Kafka's throttled Fetch answer (`FetchContext.getThrottledResponse`):
/// no partitions, the throttle time, the session kept.
pub fn throttled_fetch(r: &mut FetchResponse, throttle_ms: i32) {
    r.responses.clear();
    r.throttle_time_ms = throttle_ms;
}

macro_rules! set_throttle {
    ($body:expr, $ms:expr, $($v:ident),*) => {
        match $body {
            $(ResponseBody::$v(r) => r.throttle_time_ms = r.throttle_time_ms.max($ms),)*
            _ => {}
        }
    };
}

/// Sets `throttle_time_ms` of any response that has one (the larger of
/// what is there and `ms`; versions without the field leave it out).
pub fn set_throttle_time(body: &mut ResponseBody, ms: i32) {
    set_throttle!(
        body,
        ms,
        Produce,
        Fetch,
        ListOffsets,
        Metadata,
        OffsetCommit,
        OffsetFetch,
        FindCoordinator,
        JoinGroup,
        Heartbeat,
        LeaveGroup,
        SyncGroup,
        DescribeGroups,
        ListGroups,
        CreateTopics,
        DeleteTopics,
        DeleteRecords,
        InitProducerId,
        OffsetForLeaderEpoch,
        AddPartitionsToTxn,
        AddOffsetsToTxn,
        EndTxn,
        TxnOffsetCommit,
        DescribeAcls,
        CreateAcls,
        DeleteAcls,
        DescribeConfigs,
        AlterConfigs,
        DescribeLogDirs,
        CreatePartitions,
        DeleteGroups,
        ElectLeaders,
        IncrementalAlterConfigs,
        AlterPartitionReassignments,
        ListPartitionReassignments,
        OffsetDelete,
        DescribeClientQuotas,
        AlterClientQuotas,
        DescribeUserScramCredentials,
        AlterUserScramCredentials,
        DescribeCluster,
        DescribeProducers,
        UpdateFeatures,
        DescribeTransactions,
        ListTransactions,
        DescribeTopicPartitions,
        ConsumerGroupHeartbeat,
        ConsumerGroupDescribe,
        GetTelemetrySubscriptions,
        PushTelemetry,
        ListConfigResources,
        ShareGroupHeartbeat,
        ShareGroupDescribe,
        ShareFetch,
        ShareAcknowledge,
        DescribeShareGroupOffsets,
        AlterShareGroupOffsets,
        DeleteShareGroupOffsets
    );
}
