//! What `connection.rs` calls around each request when quotas are set:
//! [`before`] (a fetch's size limited to what the client's quota allows
//! in a window; controller mutations checked strictly) and [`after`]
//! (produce and fetch bytes and request time recorded, the response's
//! `throttle_time_ms` set, a throttled fetch answered without data, and
//! the throttle time for which the connection is then muted).

use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use kafka_protocol::{ApiKey, RequestBody, ResponseBody};

use super::manager::{self, QuotaType};
use crate::metadata::ClusterMetadata;
use crate::shard::Shard;

/// One request's view of the quotas (only made when some quota is set).
pub struct RequestQuota {
    meta: Arc<ClusterMetadata>,
    user: String,
    client_id: String,
    api: ApiKey,
    request_bytes: usize,
    /// Controller mutations refused by the strict quota, answered by
    /// [`super::mutation::merge`] after the handler.
    mutation: Option<super::mutation::Refused>,
}

/// Called before the handler with the connection's principal
/// (`User:name`); `None` when no quota is set (nothing more to do for
/// this request).
pub fn before(
    shard: &Rc<Shard>,
    principal: &str,
    client_id: Option<&str>,
    body: &mut RequestBody,
    version: i16,
    request_bytes: usize,
) -> Option<RequestQuota> {
    let meta = shard.metadata();
    if meta.client_quotas.is_empty() {
        return None;
    }
    let user = manager::user_of(principal).to_string();
    let client_id = client_id.unwrap_or("").to_string();
    let q = &shard.ctx.quotas;
    let cfg = manager::window_config(&meta.settings);
    if let RequestBody::Fetch(r) = body
        && r.replica_id < 0
        && let Some(max) = q.max_value_in_window(
            &meta.client_quotas,
            cfg,
            QuotaType::Fetch,
            &user,
            &client_id,
        )
    {
        r.max_bytes = r.max_bytes.min(max.clamp(1.0, i32::MAX as f64) as i32);
    }
    let mutation = super::mutation::check(shard, &meta, &user, &client_id, body, version);
    Some(RequestQuota {
        api: body.api_key(),
        meta,
        user,
        client_id,
        request_bytes,
        mutation,
    })
}

/// Called with the handler's response and the time spent running the
/// handler (its polls: what a Kafka request thread would have spent);
/// answers how long to mute the connection.
pub fn after(
    shard: &Rc<Shard>,
    rq: RequestQuota,
    response: &mut Option<ResponseBody>,
    handler_time: Duration,
    version: i16,
) -> Duration {
    let q = &shard.ctx.quotas;
    let quotas = &rq.meta.client_quotas;
    let cfg = manager::window_config(&rq.meta.settings);
    let (user, client) = (rq.user.as_str(), rq.client_id.as_str());
    let mut throttle_ms = 0i64;
    let mut throttled_by = None;
    let mut note = |qt: QuotaType, ms: i64, best: &mut i64| {
        if ms > *best {
            *best = ms;
            throttled_by = Some(qt);
        }
    };
    let request_ms = if manager::request_quota_exempt(rq.api) {
        0
    } else {
        // Kafka records request time as a percentage of one thread:
        // nanoseconds * 100 / 1e9 per second of wall time.
        let pct = handler_time.as_nanos() as f64 * 100.0 / 1e9;
        q.record(quotas, cfg, QuotaType::Request, user, client, pct)
    };
    match (rq.api, response.as_mut()) {
        (ApiKey::Produce, _) => {
            let ms = q.record(
                quotas,
                cfg,
                QuotaType::Produce,
                user,
                client,
                rq.request_bytes as f64,
            );
            note(QuotaType::Produce, ms, &mut throttle_ms);
        }
        (ApiKey::Fetch, Some(ResponseBody::Fetch(r))) => {
            let bytes = manager::fetch_response_bytes(r) as f64;
            let ms = q.record(quotas, cfg, QuotaType::Fetch, user, client, bytes);
            note(QuotaType::Fetch, ms, &mut throttle_ms);
            if ms.max(request_ms) > 0 {
                // The data is not sent, so it does not count.
                q.unrecord(quotas, cfg, QuotaType::Fetch, user, client, bytes);
                manager::throttled_fetch(r, ms.max(request_ms).min(i32::MAX as i64) as i32);
            }
        }
        _ => {}
    }
    note(QuotaType::Request, request_ms, &mut throttle_ms);
    if let Some(refused) = rq.mutation {
        let ms = super::mutation::merge(refused, response.as_mut(), version);
        note(QuotaType::ControllerMutation, ms, &mut throttle_ms);
    }
    if throttle_ms <= 0 {
        return Duration::ZERO;
    }
    if let Some(r) = response.as_mut() {
        manager::set_throttle_time(r, throttle_ms.min(i32::MAX as i64) as i32);
    }
    if let Some(qt) = throttled_by {
        q.note_throttle(client, qt, throttle_ms);
    }
    tracing::debug!(client_id = %client, user = %user, throttle_ms, "client throttled");
    Duration::from_millis(throttle_ms as u64)
}

/// A new connection from `ip`: how long to hold it before closing it when
/// it is over its `connection_creation_rate` (0: serve it). Bounded by
/// one sample window, as Kafka's `ConnectionQuotas`.
pub fn connection_throttle_ms(shard: &Shard, ip: std::net::IpAddr) -> i64 {
    let meta = shard.metadata();
    if meta.client_quotas.is_empty() {
        return 0;
    }
    let cfg = manager::window_config(&meta.settings);
    shard
        .ctx
        .quotas
        .connection_throttle_ms(&meta.client_quotas, cfg, ip)
        .min(cfg.window_ms)
}

/// A new connection on `listener`: how long its shard's acceptor waits
/// before serving it under `max.connection.creation.rate` (the broker's)
/// and `listener.name.<l>.max.connection.creation.rate` (0: at once).
/// Bounded by one sample window, as Kafka's `ConnectionQuotas`.
pub fn accept_throttle_ms(shard: &Shard, listener: &str) -> i64 {
    let meta = shard.metadata();
    // Kafka's default, Int.MaxValue, is no limit.
    let bound = |v: String| {
        let n = v.trim().parse::<i64>().unwrap_or(i64::from(i32::MAX));
        (n < i64::from(i32::MAX)).then_some(n as f64)
    };
    let broker = bound(meta.settings.get("max.connection.creation.rate"));
    let on_listener = meta
        .settings
        .listener_value(listener, "max.connection.creation.rate")
        .and_then(bound);
    if broker.is_none() && on_listener.is_none() {
        return 0;
    }
    let cfg = manager::window_config(&meta.settings);
    shard
        .ctx
        .quotas
        .accept_throttle_ms(cfg, listener, broker, on_listener)
        .min(cfg.window_ms)
}

/// Runs `f` and measures the time spent inside its polls (not the time
/// it waited on disk or peers): the request time `request_percentage`
/// counts, as a Kafka request handler thread's busy time.
pub async fn timed<F: std::future::Future>(f: F) -> (F::Output, Duration) {
    let mut f = std::pin::pin!(f);
    let spent = std::cell::Cell::new(Duration::ZERO);
    let out = std::future::poll_fn(|cx| {
        let started = std::time::Instant::now();
        let r = f.as_mut().poll(cx);
        spent.set(spent.get() + started.elapsed());
        r
    })
    .await;
    (out, spent.get())
}
