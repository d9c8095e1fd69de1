//! The admin HTTP server: `/metrics` for Prometheus, the status API
//! (`/v1/status/live`, `/v1/status/ready`, `/v1/cluster/health`,
//! `/v1/brokers`, `/v1/brokers/{id}`, `/v1/partitions/{topic}/{partition}`,
//! `/v1/topics`, `/v1/groups`) and the status page at `/` (`page.rs`,
//! `status_page/`) that polls it.
//!
//! It runs on its own threads, off the shards' event loops, so a slow
//! scrape or a slow client never delays Kafka traffic: the shards only
//! copy their state into a sample when asked ([`crate::metrics::gather`]).
//! Plain HTTP/1.1 over std sockets, parsed with `httparse`: GET and HEAD,
//! and PUT/DELETE on the maintenance and decommission resources
//! (`drain.rs`), one request per connection (`Connection: close`), a head of at
//! most [`HEAD_MAX_BYTES`], no body, [`REQUEST_TIMEOUT_MS`] for the whole
//! exchange, at most [`CONNECTIONS_MAX`] connections at once (more are
//! answered 503 and closed). With `TIDEMARK_ADMIN_TOKEN` set, every
//! request but the liveness and readiness probes and the status page's
//! own files must carry
//! `Authorization: Bearer TOKEN` (else 401). With `admin.ssl.enabled` it
//! speaks HTTPS only, with the certificates and client-certificate rule of
//! the Kafka SSL listeners (`ssl.*`, reloaded when the files change); the
//! handshake counts against [`REQUEST_TIMEOUT_MS`] like the rest of the
//! exchange. Without it the address is loopback by default and must be
//! kept private.

pub mod cluster_scope;
mod drain;
mod page;
mod routes;
mod status;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tracing::{debug, info, warn};

use crate::BrokerContext;
use crate::shard::Job;

/// One admin connection's bytes: plain TCP, or TLS over it.
enum Stream {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ServerConnection, TcpStream>>),
}

impl Stream {
    /// The socket under it (for its timeouts).
    fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(s) => s,
            Stream::Tls(s) => &s.sock,
        }
    }

    /// Ends the exchange: a TLS peer is told the stream ends
    /// (close_notify), so a client never mistakes it for a truncation.
    fn finish(&mut self) {
        if let Stream::Tls(s) = self {
            s.conn.send_close_notify();
            let _ = s.flush();
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

/// The largest request head (request line and headers) read.
pub const HEAD_MAX_BYTES: usize = 8 * 1024;
/// Connections served at once; each has its own thread.
pub const CONNECTIONS_MAX: usize = 16;
/// The whole exchange: reading the request, gathering, writing.
pub const REQUEST_TIMEOUT_MS: u64 = 10_000;
/// How long a request waits for the shards' samples.
pub const GATHER_TIMEOUT_MS: u64 = 5_000;

/// What every request handler reads.
pub struct Admin {
    pub ctx: Arc<BrokerContext>,
    pub peers: Arc<Vec<flume::Sender<Job>>>,
    active: AtomicUsize,
    /// `admin.ssl.enabled`: every connection is TLS.
    tls: bool,
}

/// Binds the admin address (before the shards start, so a taken port
/// stops the broker with a clear message).
pub fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr)
}

/// Starts the accept thread on `listener`; it ends with the process.
/// Logs the bound address (the port chosen when the setting asked for 0).
pub fn start(
    listener: TcpListener,
    ctx: Arc<BrokerContext>,
    peers: Arc<Vec<flume::Sender<Job>>>,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let tls = ctx.config.settings.bool("admin.ssl.enabled");
    if tls && ctx.tls.is_none() {
        // server.rs loads the certificates whenever the setting is on.
        return Err(std::io::Error::other(
            "admin.ssl.enabled needs the ssl.* certificates loaded",
        ));
    }
    let admin = Arc::new(Admin {
        ctx,
        peers,
        active: AtomicUsize::new(0),
        tls,
    });
    std::thread::Builder::new()
        .name("admin-http".into())
        .spawn(move || accept_loop(listener, admin))?;
    info!(admin_addr = %addr, tls, "admin server listening");
    Ok(())
}

fn accept_loop(listener: TcpListener, admin: Arc<Admin>) {
    for stream in listener.incoming() {
        if admin.ctx.shutting_down.load(Ordering::Relaxed) {
            return;
        }
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                warn!(error = %e, "admin server: accept failed");
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if admin.active.fetch_add(1, Ordering::AcqRel) >= CONNECTIONS_MAX {
            admin.active.fetch_sub(1, Ordering::AcqRel);
            if admin.tls {
                // A plain-text 503 means nothing to a TLS client: close.
                continue;
            }
            let mut s = stream;
            let _ = s.set_write_timeout(Some(Duration::from_millis(500)));
            let _ = s.write_all(&response(
                503,
                "text/plain",
                b"too many admin connections\n",
            ));
            continue;
        }
        let a = admin.clone();
        let spawned = std::thread::Builder::new()
            .name("admin-conn".into())
            .spawn(move || {
                serve(&a, stream);
                a.active.fetch_sub(1, Ordering::AcqRel);
            });
        if spawned.is_err() {
            admin.active.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// A request's method, path and `Authorization` header.
struct Head {
    method: String,
    path: String,
    authorization: Option<Vec<u8>>,
}

/// Reads one request head; `Err` carries the response to a bad one.
fn read_head(stream: &mut Stream, deadline: Instant) -> Result<Option<Head>, Vec<u8>> {
    let mut buf = vec![0u8; HEAD_MAX_BYTES];
    let mut len = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.tcp().set_read_timeout(Some(left)).is_err() {
            return Ok(None);
        }
        if len == buf.len() {
            return Err(response(431, "text/plain", b"request head too large\n"));
        }
        match stream.read(&mut buf[len..]) {
            Ok(0) | Err(_) => return Ok(None),
            Ok(n) => len += n,
        }
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf[..len]) {
            Ok(httparse::Status::Complete(_)) => {
                let has_body = req.headers.iter().any(|h| {
                    (h.name.eq_ignore_ascii_case("content-length")
                        && std::str::from_utf8(h.value).is_ok_and(|v| v.trim() != "0"))
                        || h.name.eq_ignore_ascii_case("transfer-encoding")
                });
                if has_body {
                    return Err(response(
                        413,
                        "text/plain",
                        b"no request body is accepted\n",
                    ));
                }
                return Ok(Some(Head {
                    method: req.method.unwrap_or("").to_string(),
                    path: req.path.unwrap_or("").to_string(),
                    authorization: req
                        .headers
                        .iter()
                        .find(|h| h.name.eq_ignore_ascii_case("authorization"))
                        .map(|h| h.value.to_vec()),
                }));
            }
            Ok(httparse::Status::Partial) => continue,
            Err(_) => return Err(response(400, "text/plain", b"bad request\n")),
        }
    }
}

/// One connection: one request, one response (over TLS with
/// `admin.ssl.enabled`: the handshake happens within the first read and
/// write, under the same deadline).
fn serve(admin: &Admin, tcp: TcpStream) {
    let deadline = Instant::now() + Duration::from_millis(REQUEST_TIMEOUT_MS);
    let mut stream = match admin.ctx.tls.as_ref().filter(|_| admin.tls) {
        None => Stream::Plain(tcp),
        Some(tls) => match rustls::ServerConnection::new(tls.current(&admin.ctx.config.settings)) {
            Ok(conn) => Stream::Tls(Box::new(rustls::StreamOwned::new(conn, tcp))),
            Err(e) => {
                warn!(error = %e, "admin server: cannot start a TLS session");
                return;
            }
        },
    };
    let head = read_head(&mut stream, deadline);
    let out = match head {
        Ok(None) => return,
        Err(refusal) => refusal,
        Ok(Some(Head {
            method,
            path,
            authorization,
        })) => {
            let head_only = method == "HEAD";
            // Every method (PUT/DELETE change the cluster) needs the token.
            let (status, content_type, body) =
                if !authorized(admin, &path, authorization.as_deref()) {
                    (
                        401,
                        "text/plain",
                        b"a bearer token is needed
"
                        .to_vec(),
                    )
                } else {
                    routes::route(admin, &method, &path)
                };
            debug!(%method, %path, status, "admin request");
            let mut out = response(status, content_type, &body);
            if head_only {
                out.truncate(out.len() - body.len());
            }
            out
        }
    };
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() || stream.tcp().set_write_timeout(Some(left)).is_err() {
        return;
    }
    let _ = stream.write_all(&out);
    let _ = stream.flush();
    stream.finish();
}

/// Whether the request may see `path`: the probes always, the rest with
/// the bearer token when one is set (compared in constant time).
fn authorized(admin: &Admin, path: &str, authorization: Option<&[u8]>) -> bool {
    let Some(token) = &admin.ctx.config.admin_token else {
        return true;
    };
    let path = path.split('?').next().unwrap_or("");
    // The probes, and the status page's own files: they hold no data
    // (the page asks for the token and sends it on its API calls).
    if matches!(
        path.trim_end_matches('/'),
        "/v1/status/live" | "/v1/status/ready" | "" | "/index.html" | "/status.css" | "/status.js"
    ) {
        return true;
    }
    let Some(given) = authorization.and_then(|a| a.strip_prefix(b"Bearer ")) else {
        return false;
    };
    let want = token.0.as_bytes();
    given.len() == want.len()
        && given
            .iter()
            .zip(want)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}

/// A whole response; the length names the body even when HEAD cuts it.
fn response(status: u16, content_type: &str, body: &[u8]) -> Vec<u8> {
    let challenge = if status == 401 {
        "WWW-Authenticate: Bearer\r\n"
    } else {
        ""
    };
    // The status page may load nothing but its own files and call nothing
    // but this server: the browser enforces the "nothing from the
    // internet" promise even if a later edit slips in a remote URL.
    let policy = if content_type.starts_with("text/html") {
        page::CONTENT_SECURITY_POLICY
    } else {
        ""
    };
    let mut out = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n{policy}{challenge}\r\n",
        reason(status),
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}
