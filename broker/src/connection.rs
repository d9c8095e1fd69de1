//! One client connection: read frames, start each request in arrival
//! order, and write the responses back in that same order, with up to
//! [`MAX_IN_FLIGHT`] requests in flight (clients pipeline).
//!
//! Requests are *started* in order (a handler reaches its partitions'
//! append queues before the next request is looked at), so records of two
//! produce requests on one connection land in the order they were sent.

use std::cell::Cell;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use futures_channel::{mpsc, oneshot};
use futures_util::StreamExt;
use kafka_protocol::frame::{decode_request_header, encode_response};
use kafka_protocol::generated::ApiVersionsResponse;
use kafka_protocol::{ApiKey, DecodeError, Decoder, ErrorCode, RequestBody, ResponseBody};
use monoio::buf::IoBufMut;
use monoio::io::{AsyncReadRent, AsyncWriteRent, AsyncWriteRentExt, OwnedReadHalf, OwnedWriteHalf};
use monoio::net::TcpStream;
use tracing::{debug, info, warn};

use crate::shard::Shard;

/// Requests in flight on one connection before reading pauses.
pub const MAX_IN_FLIGHT: usize = 64;

/// What the reader hands the writer for each request: its response, or
/// nothing (acks=0 produce), in request order.
type Pending = oneshot::Receiver<Option<Vec<Bytes>>>;

/// Who is on the other end of a connection, and through which listener:
/// handlers answer with that listener's addresses; the principal is what
/// an authorizer will check.
#[derive(Debug, Clone)]
pub struct ConnInfo {
    pub peer: SocketAddr,
    /// The listener name (`PLAINTEXT`, `SSL`, ...).
    pub listener: Rc<str>,
    /// `User:ANONYMOUS`, `User:` and the mapped certificate subject, or
    /// (after SASL) `User:` and the SASL user name.
    pub principal: String,
    /// The listener requires SASL authentication before anything but
    /// ApiVersions, SaslHandshake and SaslAuthenticate.
    pub sasl: bool,
    /// The client software name and version its ApiVersions v3+ named
    /// (KIP-511; empty before), for client telemetry's selectors.
    pub software: Rc<(String, String)>,
}

/// The reading side of a connection: the socket, or TLS over it.
pub enum Reader {
    Plain(OwnedReadHalf<TcpStream>),
    Tls(crate::tls::TlsReadHalf),
}

impl Reader {
    /// Reads into `buf`'s spare capacity; 0 at the end of the stream.
    async fn read(&mut self, buf: BytesMut) -> (std::io::Result<usize>, BytesMut) {
        match self {
            Reader::Plain(rd) => {
                let len = buf.len();
                let cap = buf.capacity();
                let (res, slice) = rd.read(buf.slice_mut(len..cap)).await;
                (res, slice.into_inner())
            }
            Reader::Tls(rd) => {
                let mut buf = buf;
                let res = rd.read(&mut buf).await;
                (res, buf)
            }
        }
    }
}

/// The writing side of a connection.
pub enum Writer {
    Plain(OwnedWriteHalf<TcpStream>),
    Tls(crate::tls::TlsWriteHalf),
}

impl Writer {
    async fn write_all(&mut self, chunk: Bytes) -> std::io::Result<()> {
        match self {
            Writer::Plain(wr) => wr.write_all(chunk).await.0.map(|_| ()),
            Writer::Tls(wr) => wr.write_all(chunk).await,
        }
    }

    async fn shutdown(&mut self) -> std::io::Result<()> {
        match self {
            Writer::Plain(wr) => wr.shutdown().await,
            Writer::Tls(wr) => wr.shutdown().await,
        }
    }
}

/// Why a connection is closed.
enum Close {
    Eof,
    Io(std::io::Error),
    FrameTooLarge(i64),
    Decode(DecodeError),
    Unsupported {
        api: ApiKey,
        version: i16,
    },
    Sasl(String),
    /// `connections.max.idle.ms` passed with nothing read, written or in
    /// flight.
    Idle(Duration),
    Stopping,
    /// Its listener was removed at run time.
    ListenerRemoved,
}

impl std::fmt::Display for Close {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Close::Eof => write!(f, "closed by the client"),
            Close::Io(e) => write!(f, "I/O error: {e}"),
            Close::FrameTooLarge(n) => write!(
                f,
                "frame of {n} bytes is larger than socket.request.max.bytes"
            ),
            Close::Decode(e) => write!(f, "malformed request: {e}"),
            Close::Unsupported { api, version } => {
                write!(f, "{} v{version} is not supported", api.name())
            }
            Close::Sasl(why) => write!(f, "SASL: {why}"),
            Close::Idle(d) => write!(f, "idle for {} ms (connections.max.idle.ms)", d.as_millis()),
            Close::Stopping => write!(f, "broker is shutting down"),
            Close::ListenerRemoved => write!(f, "its listener was removed"),
        }
    }
}

/// The SASL state of a connection on a SASL listener.
pub struct SaslConn {
    session: crate::sasl::Session,
    /// The mechanism of the exchange under way (or the last one).
    mechanism: Option<crate::sasl::Mechanism>,
    /// Set once authenticated: who, and when the session expires
    /// (`connections.max.reauth.ms`, KIP-368).
    authenticated: Option<Authenticated>,
}

struct Authenticated {
    principal: String,
    expires_at: Option<Instant>,
}

impl SaslConn {
    fn new() -> Self {
        SaslConn {
            session: crate::sasl::Session::Start,
            mechanism: None,
            authenticated: None,
        }
    }

    fn in_exchange(&self) -> bool {
        !matches!(self.session, crate::sasl::Session::Done)
    }
}

/// Serves one connection until the client closes it, an error or limit
/// closes it, the broker stops, or its listener is removed (`removed`).
pub async fn serve(
    shard: Rc<Shard>,
    mut rd: Reader,
    mut wr: Writer,
    conn: ConnInfo,
    removed: Rc<crate::notify::LocalFlag>,
) {
    let mut conn = Rc::new(conn);
    let mut sasl = conn.sasl.then(SaslConn::new);
    // Set when a response carried a quota throttle time (KIP-219): no
    // request is read from the client until then.
    let muted: Muted = Rc::new(Cell::new(None));
    let produce_held = Rc::new(ConnProduceBytes::default());
    let peer = conn.peer;
    let activity = Rc::new(Activity::new());
    let (mut tx, mut rx) = mpsc::channel::<Pending>(MAX_IN_FLIGHT);
    let writer_activity = activity.clone();
    let writer = monoio::spawn(async move {
        while let Some(pending) = rx.next().await {
            let answered = pending.await;
            writer_activity.answered();
            match answered {
                Ok(Some(chunks)) => {
                    for c in chunks {
                        if wr.write_all(c).await.is_err() {
                            return;
                        }
                    }
                    writer_activity.touch();
                }
                Ok(None) => {}
                Err(_) => return,
            }
        }
        let _ = wr.shutdown().await;
    });
    // Kafka's `connections.max.idle.ms` (negative: never; read at start).
    // One watcher per connection, so the read loop arms no timer per read.
    if let Ok(max_idle) = u64::try_from(shard.ctx.config.settings.i64("connections.max.idle.ms")) {
        monoio::spawn(activity.clone().watch(Duration::from_millis(max_idle)));
    }

    let max_frame = shard.ctx.config.settings.i64("socket.request.max.bytes");
    // Before SASL authentication frames are much smaller (Kafka's
    // sasl.server.max.receive.size): an unauthenticated client cannot
    // make the broker hold a 100 MB request.
    let max_unauthenticated = shard
        .ctx
        .config
        .settings
        .i64("sasl.server.max.receive.size")
        .min(max_frame);
    let mut buf = BytesMut::with_capacity(64 * 1024);
    let close = 'conn: loop {
        // Every complete frame in the buffer, in order.
        while buf.len() >= 4 {
            let size = i32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]) as i64;
            let limit = match &sasl {
                Some(s) if s.in_exchange() => max_unauthenticated,
                _ => max_frame,
            };
            if size < 0 || size > limit {
                break 'conn Close::FrameTooLarge(size);
            }
            let need = 4 + size as usize;
            if buf.len() < need {
                // Grow towards the frame, at most 1 MiB at a time, so a
                // size prefix alone cannot make us reserve the whole limit.
                let missing = need - buf.len();
                buf.reserve(missing.min(1 << 20));
                break;
            }
            if !wait_unmuted(&shard, &muted).await {
                break 'conn Close::Stopping;
            }
            let frame = buf.split_to(need).freeze().slice(4..);
            match start_request(&shard, frame, &mut conn, &mut sasl, &muted, &produce_held).await {
                Ok((pending, close_after)) => {
                    activity.started();
                    if tx.feed_pending(pending).await.is_err() {
                        break 'conn Close::Eof;
                    }
                    if let Some(c) = close_after {
                        break 'conn c;
                    }
                }
                Err(c) => break 'conn c,
            }
        }
        if shard.is_stopping() {
            break Close::Stopping;
        }
        if removed.is_set() {
            break Close::ListenerRemoved;
        }
        if !wait_unmuted(&shard, &muted).await {
            break Close::Stopping;
        }
        if buf.capacity() - buf.len() < 4096 {
            buf.reserve(64 * 1024);
        }
        let read = monoio::select! {
            r = rd.read(buf) => r,
            _ = shard.stopping() => break Close::Stopping,
            _ = removed.wait() => break Close::ListenerRemoved,
            idle = activity.expired() => break Close::Idle(idle),
        };
        let (res, b) = read;
        buf = b;
        match res {
            Ok(0) => break Close::Eof,
            Ok(_) => activity.touch(),
            Err(e) => break Close::Io(e),
        }
    };
    match &close {
        Close::Eof | Close::Stopping | Close::Io(_) | Close::Idle(_) | Close::ListenerRemoved => {
            debug!(%peer, reason = %close, "connection closed")
        }
        other => info!(%peer, reason = %other, "closing connection"),
    }
    activity.closed.set();
    if matches!(close, Close::Sasl(_)) {
        // Kafka's `connection.failed.authentication.delay.ms`: the
        // failure is answered at once, the close comes later, which slows
        // a client trying passwords.
        failed_authentication_delay(&shard).await;
    }
    // Let the writer send what is already answered, then close.
    drop(tx);
    let _ = writer.await;
}

/// When a connection last read or wrote, and how many of its requests
/// are unanswered: it is idle only with none in flight, so a long poll
/// or a JoinGroup waiting out a rebalance never counts as idle.
struct Activity {
    last: Cell<Instant>,
    in_flight: Cell<u32>,
    /// Set by the watcher when `connections.max.idle.ms` passed.
    idle_for: Cell<Option<Duration>>,
    expire: crate::notify::LocalNotify,
    /// Set when the connection ends, so its watcher stops (a flag, not
    /// a notification: it holds even if the watcher has not waited yet).
    closed: crate::notify::LocalFlag,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            last: Cell::new(Instant::now()),
            in_flight: Cell::new(0),
            idle_for: Cell::new(None),
            expire: Default::default(),
            closed: Default::default(),
        }
    }

    fn touch(&self) {
        self.last.set(Instant::now());
    }

    fn started(&self) {
        self.in_flight.set(self.in_flight.get() + 1);
    }

    fn answered(&self) {
        self.in_flight.set(self.in_flight.get().saturating_sub(1));
        self.touch();
    }

    /// The connection's watcher: wakes when `max` would have passed since
    /// the last activity and, if it did with nothing in flight, tells the
    /// read loop; ends with the connection.
    async fn watch(self: Rc<Self>, max: Duration) {
        loop {
            let idle = self.last.get().elapsed();
            if idle >= max && self.in_flight.get() == 0 {
                self.idle_for.set(Some(idle));
                self.expire.notify_all();
                return;
            }
            let wait = if idle >= max { max } else { max - idle };
            monoio::select! {
                _ = monoio::time::sleep(wait) => {},
                _ = self.closed.wait() => return,
            }
        }
    }

    /// Completes once the watcher found the connection idle.
    async fn expired(&self) -> Duration {
        let expire = self.expire.notified();
        if let Some(idle) = self.idle_for.get() {
            return idle;
        }
        expire.await;
        self.idle_for.get().unwrap_or_default()
    }
}

/// Waits out `connection.failed.authentication.delay.ms` (read at start)
/// before a connection that failed to authenticate is closed, unless the
/// broker stops meanwhile.
pub async fn failed_authentication_delay(shard: &Shard) {
    let delay_ms = shard
        .ctx
        .config
        .settings
        .i64("connection.failed.authentication.delay.ms");
    if delay_ms > 0 {
        monoio::select! {
            _ = monoio::time::sleep(Duration::from_millis(delay_ms as u64)) => {},
            _ = shard.stopping() => {},
        }
    }
}

/// Until when a throttled connection reads nothing (`quotas/`).
type Muted = Rc<Cell<Option<Instant>>>;

/// The produce bytes one connection has in the broker
/// (`queued.max.request.bytes.per.connection`): past the bound, reading
/// from the connection waits for its earlier requests to be answered.
///
/// Why: requests start in arrival order on the shard's task queue, which
/// is first come, first served. A producer with 64 requests of 1 MiB in
/// flight put tens of milliseconds of work ahead of every other
/// connection's next request; bounded per connection, the work queued
/// ahead of a quiet producer is a few requests per busy connection
/// (benches/RESULTS.md, "Isolation (a)").
#[derive(Default)]
struct ConnProduceBytes {
    held: Cell<i64>,
    freed: crate::notify::LocalNotify,
}

impl ConnProduceBytes {
    /// Waits until `bytes` more fit under `limit`; a request alone is
    /// always let through (one larger than the bound waits for the
    /// connection's others to finish, then goes by itself).
    async fn reserve(&self, bytes: i64, limit: i64) {
        while self.held.get() > 0 && self.held.get() + bytes > limit {
            let freed = self.freed.notified();
            if !(self.held.get() > 0 && self.held.get() + bytes > limit) {
                break;
            }
            freed.await;
        }
        self.held.set(self.held.get() + bytes);
    }

    fn release(&self, bytes: i64) {
        self.held.set(self.held.get() - bytes);
        self.freed.notify_all();
    }
}

/// Waits out a quota mute; false if the broker is stopping meanwhile.
async fn wait_unmuted(shard: &Rc<Shard>, muted: &Muted) -> bool {
    // A response finishing meanwhile may push the end further.
    while let Some(until) = muted.get() {
        let now = Instant::now();
        if until <= now {
            muted.set(None);
            break;
        }
        monoio::select! {
            _ = monoio::time::sleep(until - now) => {},
            _ = shard.stopping() => return false,
        }
    }
    true
}

trait FeedPending {
    async fn feed_pending(&mut self, p: Pending) -> Result<(), ()>;
}

impl FeedPending for mpsc::Sender<Pending> {
    async fn feed_pending(&mut self, p: Pending) -> Result<(), ()> {
        futures_util::SinkExt::send(self, p).await.map_err(|_| ())
    }
}

/// Decodes one frame and starts its handler; the returned receiver yields
/// the encoded response.
async fn start_request(
    shard: &Rc<Shard>,
    frame: Bytes,
    conn: &mut Rc<ConnInfo>,
    sasl: &mut Option<SaslConn>,
    muted: &Muted,
    produce_held: &Rc<ConnProduceBytes>,
) -> Result<(Pending, Option<Close>), Close> {
    let frame_len = frame.len();
    let mut d = Decoder::new(frame);
    let (api, header) = decode_request_header(&mut d).map_err(Close::Decode)?;
    let version = header.request_api_version;
    let correlation_id = header.correlation_id;
    let (tx, rx) = oneshot::channel();
    if !shard.ctx.supported.supports(api, version) {
        if api == ApiKey::ApiVersions {
            // Kafka answers an ApiVersions it cannot parse with v0 and
            // UNSUPPORTED_VERSION, listing what it supports.
            let body = ResponseBody::ApiVersions(ApiVersionsResponse {
                error_code: ErrorCode::UnsupportedVersion.code(),
                api_keys: crate::apis::advertised(&shard.ctx.supported),
                ..Default::default()
            });
            let _ = tx.send(encode_response(correlation_id, 0, &body).ok());
            return Ok((rx, None));
        }
        return Err(Close::Unsupported { api, version });
    }
    let body = RequestBody::decode(api, &mut d, version).map_err(Close::Decode)?;
    if let RequestBody::ApiVersions(r) = &body
        && version >= 3
    {
        *conn = Rc::new(ConnInfo {
            software: Rc::new((
                r.client_software_name.clone(),
                r.client_software_version.clone(),
            )),
            ..(**conn).clone()
        });
    }
    if let Some(st) = sasl.as_mut()
        && !st.in_exchange()
    {
        // The setting is read only for a SaslHandshake: this runs for
        // every request of a SASL connection.
        if matches!(body, RequestBody::SaslHandshake(_)) && reauth_ms(shard, &conn.listener) > 0 {
            // KIP-368: the client re-authenticates on this connection.
            st.session = crate::sasl::Session::Start;
        } else if st
            .authenticated
            .as_ref()
            .and_then(|a| a.expires_at)
            .is_some_and(|t| Instant::now() >= t)
        {
            return Err(Close::Sasl(format!(
                "session expired ({} before re-authentication)",
                api.name()
            )));
        }
    }
    let body = match sasl {
        Some(st) if st.in_exchange() => match sasl_step(shard, conn, st, body, version)? {
            SaslOutcome::Handle(body) => body,
            SaslOutcome::Answer(resp, close_after) => {
                let _ = tx.send(encode_response(correlation_id, version, &resp).ok());
                return Ok((rx, close_after));
            }
        },
        _ => body,
    };
    if d.remaining() > 0 {
        debug!(
            api = api.name(),
            version,
            trailing = d.remaining(),
            "ignoring bytes after a request body"
        );
    }

    // Bound memory held by produce requests: past the limit, stop reading
    // from this client until others complete.
    let produce_bytes = if api == ApiKey::Produce {
        frame_len as i64
    } else {
        0
    };
    if produce_bytes > 0 {
        let settings = &shard.ctx.config.settings;
        produce_held
            .reserve(
                produce_bytes,
                settings.i64("queued.max.request.bytes.per.connection"),
            )
            .await;
        let limit = settings.i64("queued.max.request.bytes");
        while shard.ctx.inflight_produce_bytes.load(Ordering::Relaxed) > 0
            && shard.ctx.inflight_produce_bytes.load(Ordering::Relaxed) + produce_bytes > limit
        {
            monoio::time::sleep(Duration::from_millis(1)).await;
        }
        shard
            .ctx
            .inflight_produce_bytes
            .fetch_add(produce_bytes, Ordering::Relaxed);
    }
    let mut body = body;
    let quota = crate::quotas::hooks::before(
        shard,
        &conn.principal,
        header.client_id.as_deref(),
        &mut body,
        version,
        frame_len,
    );
    shard.ctx.inflight_requests.fetch_add(1, Ordering::SeqCst);
    let s = shard.clone();
    let conn = conn.clone();
    let muted = muted.clone();
    let produce_held = produce_held.clone();
    monoio::spawn(async move {
        let response = match quota {
            None => crate::handlers::handle(&s, &header, body, &conn).await,
            Some(q) => {
                let (mut response, spent) =
                    crate::quotas::hooks::timed(crate::handlers::handle(&s, &header, body, &conn))
                        .await;
                let throttle = crate::quotas::hooks::after(&s, q, &mut response, spent, version);
                if !throttle.is_zero() {
                    let until = Instant::now() + throttle;
                    muted.set(Some(muted.get().map_or(until, |m| m.max(until))));
                }
                response
            }
        };
        match response.map(|body| encode_response(correlation_id, version, &body)) {
            None => {
                let _ = tx.send(None);
            }
            Some(Ok(chunks)) => {
                let _ = tx.send(Some(chunks));
            }
            Some(Err(e)) => {
                // Dropping `tx` closes the connection: the client must not
                // wait for an answer that will never come.
                warn!(api = api.name(), version, error = %e, "cannot encode a response; closing the connection");
                drop(tx);
            }
        }
        if produce_bytes > 0 {
            s.ctx
                .inflight_produce_bytes
                .fetch_sub(produce_bytes, Ordering::Relaxed);
            produce_held.release(produce_bytes);
        }
        s.ctx.inflight_requests.fetch_sub(1, Ordering::SeqCst);
    });
    Ok((rx, None))
}

enum SaslOutcome {
    /// Not part of the exchange (ApiVersions): handle as usual.
    Handle(RequestBody),
    /// The answer, and whether to close the connection after it.
    Answer(ResponseBody, Option<Close>),
}

/// `connections.max.reauth.ms` for `listener` (its
/// `listener.name.<l>.` value, else the broker's; 0: sessions never end).
fn reauth_ms(shard: &Shard, listener: &str) -> i64 {
    shard
        .ctx
        .config
        .settings
        .get_for_listener(listener, "connections.max.reauth.ms")
        .trim()
        .parse()
        .unwrap_or(0)
}

/// Runs a request of a connection that has not authenticated yet: only
/// ApiVersions, SaslHandshake and SaslAuthenticate are allowed; anything
/// else closes the connection, as Kafka does. A failed authentication
/// logs one line (address, listener, user name, never the password) and
/// closes after its answer.
fn sasl_step(
    shard: &Rc<Shard>,
    conn: &mut Rc<ConnInfo>,
    st: &mut SaslConn,
    body: RequestBody,
    version: i16,
) -> Result<SaslOutcome, Close> {
    use crate::sasl::{Mechanism, Session, Step};
    use kafka_protocol::generated::{SaslAuthenticateResponse, SaslHandshakeResponse};
    let reauth = st.authenticated.is_some();
    let session = &mut st.session;
    match body {
        RequestBody::ApiVersions(_) => Ok(SaslOutcome::Handle(body)),
        RequestBody::SaslHandshake(r) if matches!(session, Session::Start) => {
            let enabled: Vec<Mechanism> = shard
                .ctx
                .config
                .settings
                .get_for_listener(&conn.listener, "sasl.enabled.mechanisms")
                .split(',')
                .filter_map(|m| Mechanism::parse(m.trim()))
                .collect();
            let mechanisms = enabled.iter().map(|m| m.name().to_string()).collect();
            // Re-authentication keeps the mechanism (KIP-368).
            let allowed =
                |m: &Mechanism| enabled.contains(m) && (!reauth || st.mechanism == Some(*m));
            match Mechanism::parse(&r.mechanism).filter(allowed) {
                Some(m) => {
                    *session = Session::Chosen(m);
                    st.mechanism = Some(m);
                    Ok(SaslOutcome::Answer(
                        ResponseBody::SaslHandshake(SaslHandshakeResponse {
                            error_code: ErrorCode::None.code(),
                            mechanisms,
                            ..Default::default()
                        }),
                        None,
                    ))
                }
                None => {
                    *session = Session::Failed;
                    info!(peer = %conn.peer, listener = %conn.listener, mechanism = %r.mechanism, "SASL mechanism not enabled; closing the connection");
                    Ok(SaslOutcome::Answer(
                        ResponseBody::SaslHandshake(SaslHandshakeResponse {
                            error_code: ErrorCode::UnsupportedSaslMechanism.code(),
                            mechanisms,
                            ..Default::default()
                        }),
                        Some(Close::Sasl(format!(
                            "unsupported mechanism {}",
                            r.mechanism
                        ))),
                    ))
                }
            }
        }
        RequestBody::SaslAuthenticate(r)
            if matches!(session, Session::Chosen(_) | Session::ScramFinal { .. }) =>
        {
            // The credentials of this moment: a user created, changed or
            // deleted through the metadata counts from the next exchange.
            let meta = shard.metadata();
            match session.step(&meta.scram, &r.auth_bytes) {
                Ok(Step::Continue(reply)) => Ok(SaslOutcome::Answer(
                    ResponseBody::SaslAuthenticate(SaslAuthenticateResponse {
                        auth_bytes: Bytes::from(reply),
                        ..Default::default()
                    }),
                    None,
                )),
                Ok(Step::Done { user, reply }) => {
                    let principal = format!("User:{user}");
                    if let Some(prev) = &st.authenticated
                        && prev.principal != principal
                    {
                        let message =
                            "Cannot change principals during re-authentication".to_string();
                        info!(peer = %conn.peer, listener = %conn.listener, from = %prev.principal, to = %principal, "SASL re-authentication as another principal refused; closing the connection");
                        st.session = Session::Failed;
                        return Ok(SaslOutcome::Answer(
                            ResponseBody::SaslAuthenticate(SaslAuthenticateResponse {
                                error_code: ErrorCode::SaslAuthenticationFailed.code(),
                                error_message: Some(message.clone()),
                                ..Default::default()
                            }),
                            Some(Close::Sasl(message)),
                        ));
                    }
                    // KIP-368: the session lasts connections.max.reauth.ms
                    // (0: for ever); v1+ clients are told, and must
                    // re-authenticate before it ends.
                    let lifetime_ms = reauth_ms(shard, &conn.listener).max(0);
                    debug!(peer = %conn.peer, listener = %conn.listener, principal = %principal, reauthenticated = reauth, session_lifetime_ms = lifetime_ms, "SASL authenticated");
                    st.authenticated = Some(Authenticated {
                        principal: principal.clone(),
                        expires_at: (lifetime_ms > 0)
                            .then(|| Instant::now() + Duration::from_millis(lifetime_ms as u64)),
                    });
                    *conn = Rc::new(ConnInfo {
                        principal,
                        ..(**conn).clone()
                    });
                    Ok(SaslOutcome::Answer(
                        ResponseBody::SaslAuthenticate(SaslAuthenticateResponse {
                            auth_bytes: Bytes::from(reply),
                            session_lifetime_ms: if version >= 1 { lifetime_ms } else { 0 },
                            ..Default::default()
                        }),
                        None,
                    ))
                }
                Err(f) => {
                    info!(peer = %conn.peer, listener = %conn.listener, user = f.user.as_deref().unwrap_or("-"), error = %f.message, "SASL authentication failed; closing the connection");
                    Ok(SaslOutcome::Answer(
                        ResponseBody::SaslAuthenticate(SaslAuthenticateResponse {
                            error_code: f.code.code(),
                            error_message: Some(f.message.clone()),
                            ..Default::default()
                        }),
                        Some(Close::Sasl(f.message)),
                    ))
                }
            }
        }
        other => Err(Close::Sasl(format!(
            "{} before SASL authentication",
            other.api_key().name()
        ))),
    }
}
