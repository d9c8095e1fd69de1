//! One broker connection: TCP (TCP_NODELAY), optional TLS, ApiVersions
//! negotiation and SASL, then requests pipelined by correlation id.
//!
//! Writers take a lock only to put a whole frame on the socket; one reader
//! thread per connection reads response frames and hands each to the
//! caller waiting on its correlation id, so several requests (the
//! producer's, the bench's) can be in flight at once. Bodies are decoded
//! by the waiting caller, who knows the API and version it sent.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::marker::PhantomData;
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::generated::{
    ApiVersionsRequest, ApiVersionsResponse, RequestHeader, ResponseHeader,
};
use kafka_protocol::{ApiKey, Decoder, Encoder, ErrorCode, Message, Request};

use crate::config::Config;
use crate::error::Error;
use crate::{sasl, tls};

/// Largest response frame accepted (a Fetch is bounded by its max_bytes,
/// far below this); a bigger size prefix means a confused peer.
const MAX_RESPONSE_BYTES: usize = 512 * 1024 * 1024;

/// Versions this client caps below the codec's: from these on the API
/// names topics by id only, and this client routes and reports by name.
fn client_max_version(api: ApiKey) -> Option<i16> {
    match api {
        ApiKey::Produce | ApiKey::Fetch => Some(12),
        ApiKey::OffsetCommit | ApiKey::OffsetFetch => Some(9),
        _ => None,
    }
}

type Reply = Result<Bytes, String>;

struct Shared {
    pending: Mutex<HashMap<i32, SyncSender<Reply>>>,
    dead: AtomicBool,
    /// Why the connection died, for the error of requests sent after.
    dead_reason: Mutex<Option<String>>,
}

impl Shared {
    fn kill(&self, why: String) {
        self.dead.store(true, Ordering::SeqCst);
        if let Ok(mut r) = self.dead_reason.lock()
            && r.is_none()
        {
            *r = Some(why.clone());
        }
        if let Ok(mut p) = self.pending.lock() {
            for (_, tx) in p.drain() {
                let _ = tx.try_send(Err(why.clone()));
            }
        }
    }
}

enum Writer {
    Plain(TcpStream),
    Tls(tls::TlsWriter),
}

/// A connection to one broker address, shared by every thread that sends
/// to that broker.
pub struct Conn {
    addr: String,
    client_id: String,
    writer: Mutex<Writer>,
    /// A handle on the socket to shut it down (stops the reader thread).
    sock: TcpStream,
    shared: Arc<Shared>,
    next_correlation: AtomicI32,
    /// (min, max) per API key, as the broker announced them.
    versions: HashMap<i16, (i16, i16)>,
}

/// A response not read yet: wait for it with [`PendingResponse::wait`].
pub struct PendingResponse<T> {
    rx: Receiver<Reply>,
    api: ApiKey,
    version: i16,
    correlation: i32,
    addr: String,
    shared: Arc<Shared>,
    sock: Option<TcpStream>,
    _t: PhantomData<fn() -> T>,
}

impl<T: Message> PendingResponse<T> {
    /// Waits up to `timeout_ms` for the response and decodes it. A timeout
    /// closes the connection, as Kafka's clients do: a late answer would
    /// otherwise be mistaken for the next one's.
    pub fn wait(self, timeout_ms: u64) -> Result<T, Error> {
        let frame = match self.rx.recv_timeout(Duration::from_millis(timeout_ms)) {
            Ok(Ok(f)) => f,
            Ok(Err(why)) => {
                return Err(Error::io(
                    &self.addr,
                    io::Error::new(io::ErrorKind::ConnectionAborted, why),
                ));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Ok(mut p) = self.shared.pending.lock() {
                    p.remove(&self.correlation);
                }
                self.shared
                    .kill(format!("{} request timed out", self.api.name()));
                if let Some(s) = &self.sock {
                    let _ = s.shutdown(Shutdown::Both);
                }
                return Err(Error::Timeout {
                    what: format!("{} response from {}", self.api.name(), self.addr),
                    after_ms: timeout_ms,
                });
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::io(
                    &self.addr,
                    io::Error::new(io::ErrorKind::ConnectionAborted, "connection closed"),
                ));
            }
        };
        decode_body(self.api, self.version, frame)
    }
}

impl<T: Message> PendingResponse<T> {
    /// Waits up to `d` without giving up on the request: `Ok(None)` when
    /// the answer has not come yet (the request stays pending, unlike
    /// [`PendingResponse::wait`]'s timeout), so a caller can pace other
    /// work, e.g. a rate-limited load generator taking answers as they
    /// arrive between its sends.
    pub fn wait_for(&mut self, d: Duration) -> Result<Option<T>, Error> {
        match self.rx.recv_timeout(d) {
            Ok(Ok(f)) => decode_body(self.api, self.version, f).map(Some),
            Ok(Err(why)) => Err(Error::io(
                &self.addr,
                io::Error::new(io::ErrorKind::ConnectionAborted, why),
            )),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(Error::io(
                &self.addr,
                io::Error::new(io::ErrorKind::ConnectionAborted, "connection closed"),
            )),
        }
    }
}

fn decode_body<T: Message>(api: ApiKey, version: i16, frame: Bytes) -> Result<T, Error> {
    let mut d = Decoder::new(frame);
    ResponseHeader::read(&mut d, api.response_header_version(version))?;
    T::decode(&mut d, version)
        .map_err(|e| Error::Protocol(format!("decoding {} v{version}: {e}", api.name())))
}

impl Conn {
    /// Connects, runs the TLS handshake, negotiates versions and
    /// authenticates, all within `request_timeout_ms` per step.
    pub fn connect(
        addr: &str,
        cfg: &Config,
        tls_config: Option<&Arc<rustls::ClientConfig>>,
    ) -> Result<Arc<Conn>, Error> {
        let timeout = Duration::from_millis(cfg.request_timeout_ms.max(1));
        let addrs: Vec<_> = addr
            .to_socket_addrs()
            .map_err(|e| Error::io(addr, e))?
            .collect();
        let mut last = io::Error::new(io::ErrorKind::NotFound, "no address resolved");
        let mut sock = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, timeout) {
                Ok(s) => {
                    sock = Some(s);
                    break;
                }
                Err(e) => last = e,
            }
        }
        let Some(mut sock) = sock else {
            return Err(Error::Io {
                broker: format!("connecting to {addr}"),
                source: last,
            });
        };
        sock.set_nodelay(true).map_err(|e| Error::io(addr, e))?;
        let (reader, writer): (Box<dyn Read + Send>, Writer) = match tls_config {
            None => {
                // Bounded writes: a broker that stops reading must not
                // hang a sender forever.
                sock.set_write_timeout(Some(timeout))
                    .map_err(|e| Error::io(addr, e))?;
                let r = sock.try_clone().map_err(|e| Error::io(addr, e))?;
                let w = sock.try_clone().map_err(|e| Error::io(addr, e))?;
                (Box::new(r), Writer::Plain(w))
            }
            Some(tc) => {
                sock.set_read_timeout(Some(timeout))
                    .map_err(|e| Error::io(addr, e))?;
                sock.set_write_timeout(Some(timeout))
                    .map_err(|e| Error::io(addr, e))?;
                let host = addr.rsplit_once(':').map(|(h, _)| h).unwrap_or(addr);
                let host = host.trim_start_matches('[').trim_end_matches(']');
                let session = tls::handshake(tc, host, &mut sock)?;
                sock.set_read_timeout(None)
                    .map_err(|e| Error::io(addr, e))?;
                let r = tls::TlsReader::new(
                    sock.try_clone().map_err(|e| Error::io(addr, e))?,
                    session.clone(),
                );
                let w =
                    tls::TlsWriter::new(sock.try_clone().map_err(|e| Error::io(addr, e))?, session);
                (Box::new(r), Writer::Tls(w))
            }
        };
        let shared = Arc::new(Shared {
            pending: Mutex::new(HashMap::new()),
            dead: AtomicBool::new(false),
            dead_reason: Mutex::new(None),
        });
        {
            let shared = shared.clone();
            let name = addr.to_string();
            std::thread::Builder::new()
                .name(format!("tmk-conn-{addr}"))
                .spawn(move || read_loop(reader, &shared, &name))
                .map_err(|e| Error::io(addr, e))?;
        }
        let mut conn = Conn {
            addr: addr.to_string(),
            client_id: cfg.client_id.clone(),
            writer: Mutex::new(writer),
            sock,
            shared,
            next_correlation: AtomicI32::new(1),
            versions: HashMap::new(),
        };
        conn.versions = conn.negotiate(cfg.request_timeout_ms)?;
        if let Some(s) = &cfg.sasl {
            sasl::authenticate(&conn, s, cfg.request_timeout_ms)?;
        }
        Ok(Arc::new(conn))
    }

    /// ApiVersions v3 (the first flexible one, which carries our software
    /// name), falling back to v0 when the broker answers
    /// UNSUPPORTED_VERSION, as Kafka's clients do.
    fn negotiate(&self, timeout_ms: u64) -> Result<HashMap<i16, (i16, i16)>, Error> {
        let mut version = 3;
        for _ in 0..2 {
            let req = ApiVersionsRequest {
                client_software_name: "tidemark-client".into(),
                client_software_version: env!("CARGO_PKG_VERSION").into(),
                ..Default::default()
            };
            let frame = self.send_raw(&req, ApiKey::ApiVersions, version, true)?;
            let frame = match frame.rx.recv_timeout(Duration::from_millis(timeout_ms)) {
                Ok(Ok(f)) => f,
                Ok(Err(why)) => {
                    return Err(Error::io(
                        &self.addr,
                        io::Error::new(io::ErrorKind::ConnectionAborted, why),
                    ));
                }
                Err(_) => {
                    self.close();
                    return Err(Error::Timeout {
                        what: format!("ApiVersions from {}", self.addr),
                        after_ms: timeout_ms,
                    });
                }
            };
            let parsed =
                decode_body::<ApiVersionsResponse>(ApiKey::ApiVersions, version, frame.clone())
                    .or_else(|_| {
                        decode_body::<ApiVersionsResponse>(ApiKey::ApiVersions, 0, frame)
                    })?;
            if parsed.error_code == ErrorCode::UnsupportedVersion.code() && version != 0 {
                version = 0;
                continue;
            }
            Error::check(
                parsed.error_code,
                None,
                format!("ApiVersions from {}", self.addr),
            )?;
            return Ok(parsed
                .api_keys
                .iter()
                .map(|k| (k.api_key, (k.min_version, k.max_version)))
                .collect());
        }
        Err(Error::UnsupportedVersion { api: "ApiVersions" })
    }

    pub fn addr(&self) -> &str {
        &self.addr
    }

    pub fn is_dead(&self) -> bool {
        self.shared.dead.load(Ordering::SeqCst)
    }

    /// Closes the socket; requests in flight fail.
    pub fn close(&self) {
        self.shared.kill("connection closed".into());
        let _ = self.sock.shutdown(Shutdown::Both);
    }

    /// The broker's (min, max) versions of every API it announced.
    pub fn api_versions(&self) -> Vec<(ApiKey, i16, i16)> {
        let mut v: Vec<_> = self
            .versions
            .iter()
            .filter_map(|(k, (lo, hi))| ApiKey::from_i16(*k).map(|a| (a, *lo, *hi)))
            .collect();
        v.sort_by_key(|(a, _, _)| a.as_i16());
        v
    }

    /// The highest version of `api` both this client and the broker speak.
    pub fn version_for(&self, api: ApiKey) -> Result<i16, Error> {
        let (lo, mut hi) = api.valid_versions();
        if let Some(cap) = client_max_version(api) {
            hi = hi.min(cap);
        }
        let Some(&(blo, bhi)) = self.versions.get(&api.as_i16()) else {
            return Err(Error::UnsupportedVersion { api: api.name() });
        };
        let v = hi.min(bhi);
        if v < lo.max(blo) {
            return Err(Error::UnsupportedVersion { api: api.name() });
        }
        Ok(v)
    }

    /// Sends `req` at `version`; the answer is read with the returned
    /// handle, so several requests can be in flight.
    pub fn send<R: Request>(
        &self,
        req: &R,
        version: i16,
    ) -> Result<PendingResponse<R::Response>, Error> {
        let p = self.send_raw(req, R::API_KEY, version, true)?;
        Ok(PendingResponse {
            rx: p.rx,
            api: R::API_KEY,
            version,
            correlation: p.correlation,
            addr: self.addr.clone(),
            shared: self.shared.clone(),
            sock: self.sock.try_clone().ok(),
            _t: PhantomData,
        })
    }

    /// Sends and waits: [`Conn::send`] then [`PendingResponse::wait`].
    pub fn request<R: Request>(
        &self,
        req: &R,
        version: i16,
        timeout_ms: u64,
    ) -> Result<R::Response, Error> {
        self.send(req, version)?.wait(timeout_ms)
    }

    /// Sends a request the broker will not answer (Produce with acks=0).
    pub fn send_no_response<R: Request>(&self, req: &R, version: i16) -> Result<(), Error> {
        self.send_raw(req, R::API_KEY, version, false).map(|_| ())
    }

    fn send_raw<M: Message>(
        &self,
        req: &M,
        api: ApiKey,
        version: i16,
        expect_response: bool,
    ) -> Result<RawPending, Error> {
        if self.is_dead() {
            let why = self
                .shared
                .dead_reason
                .lock()
                .ok()
                .and_then(|r| r.clone())
                .unwrap_or_else(|| "connection closed".into());
            return Err(Error::io(
                &self.addr,
                io::Error::new(io::ErrorKind::NotConnected, why),
            ));
        }
        if !api.is_valid_version(version) {
            return Err(Error::UnsupportedVersion { api: api.name() });
        }
        let correlation = self.next_correlation.fetch_add(1, Ordering::Relaxed) & i32::MAX;
        let header = RequestHeader {
            request_api_key: api.as_i16(),
            request_api_version: version,
            correlation_id: correlation,
            client_id: Some(self.client_id.clone()),
            ..Default::default()
        };
        let mut e = Encoder::new();
        header.write(&mut e, api.request_header_version(version))?;
        req.encode(&mut e, version)
            .map_err(|err| Error::Protocol(format!("encoding {} v{version}: {err}", api.name())))?;
        let len = i32::try_from(e.len())
            .map_err(|_| Error::Protocol("request larger than 2 GiB".into()))?;
        let chunks = e.finish();
        let (tx, rx) = mpsc::sync_channel(1);
        if expect_response {
            self.shared
                .pending
                .lock()
                .map_err(|_| Error::Protocol("connection state poisoned".into()))?
                .insert(correlation, tx);
        }
        let result = {
            let mut w = self
                .writer
                .lock()
                .map_err(|_| Error::Protocol("connection writer poisoned".into()))?;
            write_frame(&mut w, len, &chunks)
        };
        if let Err(err) = result {
            self.shared.kill(format!("write failed: {err}"));
            let _ = self.sock.shutdown(Shutdown::Both);
            return Err(Error::io(&self.addr, err));
        }
        Ok(RawPending { rx, correlation })
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.close();
    }
}

struct RawPending {
    rx: Receiver<Reply>,
    correlation: i32,
}

fn write_frame(w: &mut Writer, len: i32, chunks: &[Bytes]) -> io::Result<()> {
    let total = 4 + len as usize;
    // Small frames go out in one write (one packet with TCP_NODELAY);
    // large ones keep their record chunks uncopied.
    let mut parts: Vec<Bytes> = Vec::with_capacity(chunks.len() + 1);
    if total <= 64 * 1024 {
        let mut v = Vec::with_capacity(total);
        v.extend_from_slice(&len.to_be_bytes());
        for c in chunks {
            v.extend_from_slice(c);
        }
        parts.push(Bytes::from(v));
    } else {
        parts.push(Bytes::copy_from_slice(&len.to_be_bytes()));
        parts.extend(chunks.iter().cloned());
    }
    match w {
        Writer::Plain(s) => write_all_vectored(s, &parts),
        Writer::Tls(t) => t.write_frame(&parts),
    }
}

/// Writes every part with as few `writev` calls as the socket allows: a
/// large Produce (size prefix, header, one chunk per batch) goes out in
/// one system call instead of one per chunk, and the 4-byte size prefix
/// never travels alone in a packet of its own.
fn write_all_vectored(s: &mut TcpStream, parts: &[Bytes]) -> io::Result<()> {
    let (mut i, mut off) = (0usize, 0usize);
    while i < parts.len() {
        let mut slices: Vec<io::IoSlice<'_>> = Vec::with_capacity(parts.len() - i);
        slices.push(io::IoSlice::new(&parts[i][off..]));
        slices.extend(parts[i + 1..].iter().map(|p| io::IoSlice::new(p)));
        let mut n = match s.write_vectored(&slices) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        while i < parts.len() && n > 0 {
            let left = parts[i].len() - off;
            if n >= left {
                n -= left;
                i += 1;
                off = 0;
            } else {
                off += n;
                n = 0;
            }
        }
        while i < parts.len() && parts[i].len() == off {
            i += 1;
            off = 0;
        }
    }
    Ok(())
}

fn read_loop(mut r: Box<dyn Read + Send>, shared: &Shared, addr: &str) {
    let why = loop {
        let mut size = [0u8; 4];
        if let Err(e) = r.read_exact(&mut size) {
            break format!("reading from {addr}: {e}");
        }
        let size = i32::from_be_bytes(size);
        let Ok(size) = usize::try_from(size) else {
            break format!("{addr} sent a negative frame size {size}");
        };
        if !(4..=MAX_RESPONSE_BYTES).contains(&size) {
            break format!("{addr} sent a frame of {size} bytes");
        }
        let mut buf = vec![0u8; size];
        if let Err(e) = r.read_exact(&mut buf) {
            break format!("reading from {addr}: {e}");
        }
        let correlation = i32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]);
        let tx = match shared.pending.lock() {
            Ok(mut p) => p.remove(&correlation),
            Err(_) => break "connection state poisoned".into(),
        };
        match tx {
            Some(tx) => {
                let _ = tx.try_send(Ok(Bytes::from(buf)));
            }
            None => {
                tracing::debug!(
                    addr,
                    correlation,
                    "response to no pending request (timed out?)"
                );
            }
        }
    };
    tracing::debug!(addr, why, "connection reader stops");
    shared.kill(why);
}
