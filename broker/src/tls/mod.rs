//! TLS for the SSL listeners, on rustls (ring provider), driven over
//! monoio's `TcpStream` here rather than through `monoio-rustls`: that
//! crate's split halves share one rustls session through two `&mut`
//! aliases, and its read half writes TLS alerts through the write
//! buffer on a decoding error, which panics ("buffer mut expected") while
//! the write half is in the middle of a write; a peer sending garbage
//! would take the shard down. Here the session sits in a `RefCell` that
//! is never borrowed across an `.await`: each half borrows it to move
//! bytes between rustls and its own buffers, then does its socket I/O
//! with owned buffers.
//!
//! Certificates are PEM files with Kafka's names (`ssl.keystore.location`:
//! key and chain in one file; `ssl.truststore.location`: CA bundle) and
//! are reloaded when they change: every new connection stats both files
//! (two `stat` calls, no reading) and, when a modification time or size
//! differs from the loaded ones, builds a new `ServerConfig` for it and
//! every later connection. A file caught half-written fails to load; the
//! old certificate stays in use and the load is tried again once the file
//! changes again.

pub mod cipher_suites;
pub mod peer;
pub mod principal;

use std::cell::RefCell;
use std::io::IoSlice;
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use bytes::{Bytes, BytesMut};
use monoio::io::{
    AsyncReadRent, AsyncWriteRent, AsyncWriteRentExt, OwnedReadHalf, OwnedWriteHalf, Splitable,
};
use monoio::net::TcpStream;
use rustls::crypto::CryptoProvider;
use rustls::server::WebPkiClientVerifier;
use rustls::{ClientConnection, Connection, ServerConnection};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tracing::{info, warn};

use crate::settings::Settings;
use principal::MappingRules;

/// How long a client has to finish the TLS handshake before the
/// connection is closed (a silent or slow client holds only its socket).
pub const HANDSHAKE_TIMEOUT_MS: u64 = 10_000;

/// Plaintext handed to rustls per encryption step: bounds the ciphertext
/// buffered per write (a Fetch response of many MiB goes out in pieces).
const WRITE_PIECE_BYTES: usize = 256 * 1024;

/// The most ciphertext buffer capacity a write half keeps between
/// writes (within one write, every piece reuses the same buffer).
const KEEP_OUT_BYTES: usize = 64 * 1024;

/// Raw bytes read from the socket per read, at first and after a quiet
/// spell: what an idle connection holds.
const READ_BYTES: usize = 64 * 1024;

/// The most raw bytes read from the socket per read: a connection whose
/// reads fill the buffer doubles it up to this, so that a client sending
/// fast costs fewer reads (and wake-ups) per byte.
const READ_BYTES_MAX: usize = 512 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("ssl.keystore.location is required for an SSL listener (and for admin.ssl.enabled)")]
    NoKeystore,
    #[error(
        "ssl.client.auth={0} needs ssl.truststore.location (the CAs client certificates are checked against)"
    )]
    NoTruststore(String),
    #[error("cannot read {path}: {message}")]
    Pem { path: PathBuf, message: String },
    #[error("{path} holds no {what}")]
    Missing { path: PathBuf, what: &'static str },
    #[error("TLS configuration: {0}")]
    Rustls(String),
    #[error("ssl.cipher.suites: {0}")]
    CipherSuites(String),
    #[error("ssl.principal.mapping.rules: {0}")]
    Rules(#[from] principal::RuleError),
}

/// `ssl.client.auth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuth {
    None,
    Requested,
    Required,
}

/// A file's identity for reload: modification time and size.
pub(crate) type Stamp = Option<(SystemTime, u64)>;

fn stamp(path: &Path) -> Stamp {
    let m = std::fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

struct Loaded {
    /// The files and settings the config was built from.
    source: Source,
    config: Arc<rustls::ServerConfig>,
    /// Stamps of (keystore, truststore) the config was built from.
    stamps: (Stamp, Stamp),
    /// The files and stamps of the last failed load, so a broken file
    /// (or a dynamic setting naming one) is reported once.
    failed: Option<(Wanted, (Stamp, Stamp))>,
}

/// What the settings in force name for one listener (or the broker):
/// the keystore, its key's password and the truststore. A change of any
/// of them rebuilds the config; a run-time change is checked on them
/// first (`handlers/configs.rs`).
#[derive(Clone, PartialEq, Eq)]
pub struct Wanted {
    pub keystore: PathBuf,
    pub key_password: Option<String>,
    pub truststore: Option<PathBuf>,
}

/// The stamps of a keystore and an optional truststore.
fn stamps_of(keystore: &Path, truststore: Option<&Path>) -> (Stamp, Stamp) {
    (stamp(keystore), truststore.and_then(stamp))
}

/// Where the certificates come from and how a config is built.
#[derive(Clone)]
struct Source {
    keystore: PathBuf,
    /// `ssl.key.password`: decrypts an encrypted PEM private key.
    key_password: Option<String>,
    truststore: Option<PathBuf>,
    client_auth: ClientAuth,
    versions: Vec<&'static rustls::SupportedProtocolVersion>,
    provider: Arc<CryptoProvider>,
}

impl Source {
    /// A source for reading these files only (checks of files a dynamic
    /// setting is about to name), with no client auth or versions.
    fn files(keystore: PathBuf, truststore: Option<PathBuf>) -> Source {
        Source {
            keystore,
            key_password: None,
            truststore,
            client_auth: ClientAuth::None,
            versions: Vec::new(),
            provider: cipher_suites::default_provider(),
        }
    }

    fn stamps(&self) -> (Stamp, Stamp) {
        stamps_of(&self.keystore, self.truststore.as_deref())
    }

    /// The keystore's certificate chain and private key.
    fn identity(&self) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), TlsError> {
        let ks = &self.keystore;
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(ks)
            .map_err(|e| pem_err(ks, e))?
            .collect::<Result<_, _>>()
            .map_err(|e| pem_err(ks, e))?;
        if chain.is_empty() {
            return Err(TlsError::Missing {
                path: ks.clone(),
                what: "certificate",
            });
        }
        let key = private_key(ks, self.key_password.as_deref())?;
        Ok((chain, key))
    }

    /// Builds a server config from the files as they are now.
    fn build(&self) -> Result<rustls::ServerConfig, TlsError> {
        let (chain, key) = self.identity()?;
        let builder = rustls::ServerConfig::builder_with_provider(self.provider.clone())
            .with_protocol_versions(&self.versions)
            .map_err(|e| TlsError::Rustls(e.to_string()))?;
        let builder = match self.client_auth {
            ClientAuth::None => builder.with_no_client_auth(),
            auth => {
                let v = WebPkiClientVerifier::builder_with_provider(
                    Arc::new(self.roots()?),
                    self.provider.clone(),
                );
                let v = if auth == ClientAuth::Requested {
                    v.allow_unauthenticated()
                } else {
                    v
                };
                builder.with_client_cert_verifier(
                    v.build().map_err(|e| TlsError::Rustls(e.to_string()))?,
                )
            }
        };
        let mut config = builder
            .with_single_cert(chain, key)
            .map_err(|e| TlsError::Rustls(e.to_string()))?;
        // The provider's order (`ssl.cipher.suites`) decides, not the
        // client's (see `cipher_suites`).
        config.ignore_client_order = true;
        Ok(config)
    }
}

impl Source {
    /// The roots of the truststore (CA bundle).
    fn roots(&self) -> Result<rustls::RootCertStore, TlsError> {
        let Some(ts) = &self.truststore else {
            return Err(TlsError::NoTruststore("required".into()));
        };
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_file_iter(ts).map_err(|e| pem_err(ts, e))? {
            roots
                .add(cert.map_err(|e| pem_err(ts, e))?)
                .map_err(|e| pem_err(ts, e))?;
        }
        if roots.is_empty() {
            return Err(TlsError::Missing {
                path: ts.clone(),
                what: "CA certificate",
            });
        }
        Ok(roots)
    }

    /// A client config that trusts the truststore's CAs and presents the
    /// keystore's certificate (TLS between brokers is mutual).
    fn build_client(&self) -> Result<rustls::ClientConfig, TlsError> {
        let (chain, key) = self.identity()?;
        rustls::ClientConfig::builder_with_provider(self.provider.clone())
            .with_protocol_versions(&self.versions)
            .map_err(|e| TlsError::Rustls(e.to_string()))?
            .with_root_certificates(self.roots()?)
            .with_client_auth_cert(chain, key)
            .map_err(|e| TlsError::Rustls(e.to_string()))
    }
}

/// One SSL listener's (or the admin server's) TLS settings and current
/// certificates, shared by every shard.
pub struct TlsContext {
    /// The listener whose `listener.name.<l>.ssl.*` settings it follows
    /// (`None`: the broker's own, for the admin server).
    listener: Option<String>,
    rules: MappingRules,
    loaded: Mutex<Loaded>,
}

impl std::fmt::Debug for TlsContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        f.debug_struct("TlsContext")
            .field("listener", &self.listener)
            .field("keystore", &loaded.source.keystore)
            .field("truststore", &loaded.source.truststore)
            .field("client_auth", &loaded.source.client_auth)
            .finish()
    }
}

/// `name` for `listener` (its prefixed value, else the broker's), or the
/// broker's own without a listener (the admin server).
fn setting_for(settings: &Settings, listener: Option<&str>, name: &str) -> String {
    match listener {
        Some(l) => settings.get_for_listener(l, name),
        None => settings.get(name),
    }
}

/// The files (and key password) `settings` name for `listener`.
pub fn wanted_in(settings: &Settings, listener: Option<&str>) -> Wanted {
    let get = |name: &str| setting_for(settings, listener, name);
    let truststore = get("ssl.truststore.location");
    let key_password = get("ssl.key.password");
    Wanted {
        keystore: PathBuf::from(get("ssl.keystore.location").trim()),
        key_password: (!key_password.is_empty()).then_some(key_password),
        truststore: (!truststore.trim().is_empty()).then(|| PathBuf::from(truststore.trim())),
    }
}

/// The subject (RFC 2253) and subject alternative names of the first
/// certificate of the keystore at `path`: what Kafka compares when a
/// listener's keystore is changed at run time (`ssl.allow.dn.changes`,
/// `ssl.allow.san.changes`). Its private key must load too (with
/// `key_password` when it is encrypted).
pub fn keystore_identity(
    path: &Path,
    key_password: Option<&str>,
) -> Result<(String, std::collections::BTreeSet<String>), TlsError> {
    let source = Source {
        key_password: key_password.map(str::to_string),
        ..Source::files(path.to_path_buf(), None)
    };
    let (chain, _) = source.identity()?;
    let leaf = chain[0].as_ref();
    let subject = principal::subject_rfc2253(leaf).map_err(|m| pem_err(path, m))?;
    let (_, cert) = x509_parser::parse_x509_certificate(leaf).map_err(|e| pem_err(path, e))?;
    let sans = match cert.subject_alternative_name() {
        Ok(Some(ext)) => ext
            .value
            .general_names
            .iter()
            .map(|n| n.to_string())
            .collect(),
        Ok(None) => Default::default(),
        Err(e) => return Err(pem_err(path, e)),
    };
    Ok((subject, sans))
}

/// Checks that `path` holds at least one CA certificate.
pub fn check_truststore(path: &Path) -> Result<(), TlsError> {
    Source::files(PathBuf::new(), Some(path.to_path_buf()))
        .roots()
        .map(|_| ())
}

fn pem_err(path: &Path, e: impl std::fmt::Display) -> TlsError {
    TlsError::Pem {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The keystore's private key, as Kafka reads a PEM keystore (KIP-651):
/// unencrypted (PKCS#8, PKCS#1 or SEC1), or an `ENCRYPTED PRIVATE KEY`
/// (PKCS#8 with PBES2, as `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes
/// it) decrypted with `ssl.key.password`. The password never appears in
/// an error.
fn private_key(path: &Path, password: Option<&str>) -> Result<PrivateKeyDer<'static>, TlsError> {
    const BEGIN: &str = "-----BEGIN ENCRYPTED PRIVATE KEY-----";
    const END: &str = "-----END ENCRYPTED PRIVATE KEY-----";
    let text = std::fs::read_to_string(path).map_err(|e| pem_err(path, e))?;
    let Some(start) = text.find(BEGIN) else {
        return PrivateKeyDer::from_pem_slice(text.as_bytes()).map_err(|e| pem_err(path, e));
    };
    let stop = text[start..]
        .find(END)
        .map(|i| start + i + END.len())
        .ok_or_else(|| pem_err(path, "an ENCRYPTED PRIVATE KEY without its END line"))?;
    let Some(password) = password.filter(|p| !p.is_empty()) else {
        return Err(pem_err(
            path,
            "the private key is encrypted and ssl.key.password is not set",
        ));
    };
    let (_, doc) =
        pkcs8::der::SecretDocument::from_pem(&text[start..stop]).map_err(|e| pem_err(path, e))?;
    let info =
        pkcs8::EncryptedPrivateKeyInfo::try_from(doc.as_bytes()).map_err(|e| pem_err(path, e))?;
    let key = info.decrypt(password).map_err(|_| {
        pem_err(
            path,
            "the private key cannot be decrypted with ssl.key.password (wrong password, or an unsupported cipher)",
        )
    })?;
    Ok(PrivateKeyDer::Pkcs8(key.as_bytes().to_vec().into()))
}

impl TlsContext {
    /// Reads the `ssl.*` settings and loads the certificates once (a
    /// broker with a broken keystore does not start).
    pub fn from_settings(settings: &Settings) -> Result<Self, TlsError> {
        Self::build_from(settings, None)
    }

    /// As [`TlsContext::from_settings`], for one listener: its
    /// `listener.name.<listener>.ssl.*` settings win over the broker's.
    pub fn for_listener(settings: &Settings, listener: &str) -> Result<Self, TlsError> {
        Self::build_from(settings, Some(listener))
    }

    fn build_from(settings: &Settings, listener: Option<&str>) -> Result<Self, TlsError> {
        let get = |name: &str| setting_for(settings, listener, name);
        let Wanted {
            keystore,
            key_password,
            truststore,
        } = wanted_in(settings, listener);
        if keystore.as_os_str().is_empty() {
            return Err(TlsError::NoKeystore);
        }
        let auth = get("ssl.client.auth");
        let client_auth = match auth.trim() {
            "required" => ClientAuth::Required,
            "requested" => ClientAuth::Requested,
            _ => ClientAuth::None,
        };
        if client_auth != ClientAuth::None && truststore.is_none() {
            return Err(TlsError::NoTruststore(auth.trim().to_string()));
        }
        let mut versions = Vec::new();
        for p in get("ssl.enabled.protocols").split(',').map(str::trim) {
            match p {
                "TLSv1.2" => versions.push(&rustls::version::TLS12),
                "TLSv1.3" => versions.push(&rustls::version::TLS13),
                _ => {}
            }
        }
        let rules = MappingRules::parse(&get("ssl.principal.mapping.rules"))?;
        let source = Source {
            keystore,
            key_password,
            truststore,
            client_auth,
            versions,
            provider: cipher_suites::provider(&get("ssl.cipher.suites"))
                .map_err(TlsError::CipherSuites)?,
        };
        let stamps = source.stamps();
        let config = Arc::new(source.build()?);
        Ok(TlsContext {
            listener: listener.map(str::to_string),
            rules,
            loaded: Mutex::new(Loaded {
                source,
                config,
                stamps,
                failed: None,
            }),
        })
    }

    /// The config for a new connection, rebuilt first if the files
    /// changed since it was built, or if `settings` (the broker's
    /// settings in force, dynamic ones included) now name other files
    /// (`listener.name.<l>.ssl.keystore.location` changed at run time,
    /// Kafka's way to rotate a listener's certificate) or another key
    /// password (`listener.name.<l>.ssl.key.password`). A file that
    /// cannot be loaded leaves the current certificate in use.
    pub fn current(&self, settings: &Settings) -> Arc<rustls::ServerConfig> {
        let wanted = wanted_in(settings, self.listener.as_deref());
        // Two `stat` calls per new connection; a build only on a change.
        let now = stamps_of(&wanted.keystore, wanted.truststore.as_deref());
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        let moved = wanted.keystore != loaded.source.keystore
            || wanted.truststore != loaded.source.truststore
            || wanted.key_password != loaded.source.key_password;
        let attempt = (wanted, now);
        if (moved || now != loaded.stamps) && loaded.failed.as_ref() != Some(&attempt) {
            let candidate = Source {
                keystore: attempt.0.keystore.clone(),
                key_password: attempt.0.key_password.clone(),
                truststore: attempt.0.truststore.clone(),
                ..loaded.source.clone()
            };
            match candidate.build() {
                Ok(config) => {
                    info!(listener = ?self.listener, keystore = %candidate.keystore.display(), "TLS certificates reloaded");
                    loaded.config = Arc::new(config);
                    loaded.source = candidate;
                    loaded.stamps = now;
                    loaded.failed = None;
                }
                Err(e) => {
                    warn!(listener = ?self.listener, error = %e, "cannot reload the TLS certificates; keeping the loaded ones");
                    loaded.failed = Some(attempt);
                }
            }
        }
        loaded.config.clone()
    }

    /// The principal of a finished handshake: `User:` and the client
    /// certificate's subject rewritten by the mapping rules, or
    /// `User:ANONYMOUS` without a certificate.
    pub fn principal(&self, conn: &Connection) -> Result<String, String> {
        let Some(cert) = conn.peer_certificates().and_then(|c| c.first()) else {
            return Ok(principal::ANONYMOUS.to_string());
        };
        let dn = principal::subject_rfc2253(cert)?;
        let name = self.rules.apply(&dn).map_err(|e| e.to_string())?;
        Ok(format!("User:{name}"))
    }
}

fn invalid(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string())
}

/// Moves what rustls wants to send into an owned buffer (no socket I/O).
fn take_tls_output(s: &mut Connection, expect_bytes: usize) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(expect_bytes);
    drain_tls_output(s, &mut out)?;
    Ok(out)
}

/// Appends what rustls wants to send to `out` (no socket I/O).
fn drain_tls_output(s: &mut Connection, out: &mut Vec<u8>) -> std::io::Result<()> {
    // Each write_tls call drains at least one record; the count bound is
    // only a guard.
    for _ in 0..1_000_000 {
        if !s.wants_write() {
            break;
        }
        s.write_tls(out)?;
    }
    Ok(())
}

/// Sends ciphertext from rustls's queue straight to the socket without
/// waiting (`sendmsg` with `MSG_DONTWAIT`): each `write_vectored` is one
/// system call over rustls's queued records, and a full socket buffer is
/// `WouldBlock`, not a wait.
///
/// Why: going through io_uring needs an owned buffer, so every byte of a
/// Fetch response over TLS was copied once more, from rustls's queue into
/// that buffer. Loopback and LAN sockets usually have room, so most
/// writes now skip the copy; what does not fit goes the old way.
struct SendNow<'a>(socket2::SockRef<'a>);

/// No SIGPIPE on a closed peer (the error is returned instead), and
/// never block the shard.
const SEND_NOW_FLAGS: libc::c_int = libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL;

impl std::io::Write for SendNow<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.send_with_flags(buf, SEND_NOW_FLAGS)
    }

    fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
        self.0.send_vectored_with_flags(bufs, SEND_NOW_FLAGS)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Sends what rustls has queued through `now` until the queue is empty or
/// the socket is full. Returns whether everything went.
fn send_queued_now(s: &mut Connection, now: &mut SendNow<'_>) -> std::io::Result<bool> {
    // Each call sends at least one byte or stops the loop; the count
    // bound is only a guard.
    for _ in 0..1_000_000 {
        if !s.wants_write() {
            return Ok(true);
        }
        match s.write_tls(now) {
            Ok(0) => return Ok(false),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(false),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(!s.wants_write())
}

/// A TLS connection's halves and its shared session.
pub type TlsHalves = (TlsReadHalf, TlsWriteHalf, Rc<RefCell<Connection>>);

/// Runs the server side of a handshake (the caller bounds it in time)
/// and returns the connection's halves and the session.
pub async fn accept(
    config: Arc<rustls::ServerConfig>,
    io: TcpStream,
) -> std::io::Result<TlsHalves> {
    let s = ServerConnection::new(config).map_err(invalid)?;
    handshake(Connection::Server(s), io).await
}

/// Runs the client side of a handshake with the server named `name`
/// (its certificate must be valid for it), as `accept` does the server's.
pub async fn connect(
    config: Arc<rustls::ClientConfig>,
    name: rustls_pki_types::ServerName<'static>,
    io: TcpStream,
) -> std::io::Result<TlsHalves> {
    let c = ClientConnection::new(config, name).map_err(invalid)?;
    handshake(Connection::Client(c), io).await
}

async fn handshake(mut s: Connection, mut io: TcpStream) -> std::io::Result<TlsHalves> {
    // Responses are encrypted a piece at a time and sent at once, so
    // rustls need not cap what it buffers.
    s.set_buffer_limit(None);
    let mut raw = Vec::with_capacity(READ_BYTES);
    // A handshake is a few round trips; the bound only guards the loop.
    for _ in 0..1_000 {
        let out = take_tls_output(&mut s, 0)?;
        if !out.is_empty() {
            let (r, _) = io.write_all(out).await;
            r?;
        }
        if !s.is_handshaking() {
            let session = Rc::new(RefCell::new(s));
            let fd = io.as_raw_fd();
            let (rd, wr) = io.into_split();
            return Ok((
                TlsReadHalf {
                    io: rd,
                    session: session.clone(),
                    raw,
                    fed: 0,
                    eof: false,
                    read_size: READ_BYTES,
                },
                TlsWriteHalf {
                    io: wr,
                    fd,
                    session: session.clone(),
                    out: Vec::new(),
                },
                session,
            ));
        }
        raw.clear();
        let (r, buf) = io.read(raw).await;
        raw = buf;
        if r? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let mut rest = &raw[..];
        // Only until the handshake ends: what the peer sent after its
        // Finished (a TLS 1.3 client may send a large request at once)
        // is the read half's, and rustls refuses more than 16 KiB of
        // unread plaintext ("received plaintext buffer full").
        while !rest.is_empty() && s.is_handshaking() {
            if s.read_tls(&mut rest)? == 0 {
                break;
            }
            if let Err(e) = s.process_new_packets() {
                // Tell the client why (an alert), best effort.
                if let Ok(out) = take_tls_output(&mut s, 0)
                    && !out.is_empty()
                {
                    let _ = io.write_all(out).await;
                }
                return Err(invalid(e));
            }
        }
        // Bytes the client sent after its Finished (its first request)
        // stay in `raw` for the read half.
        let used = raw.len() - rest.len();
        raw.drain(..used);
        if !s.is_handshaking() {
            continue;
        }
        if !raw.is_empty() {
            return Err(invalid("TLS handshake: rustls took no more bytes"));
        }
    }
    Err(invalid("TLS handshake did not finish"))
}

/// The reading side of a TLS connection.
pub struct TlsReadHalf {
    io: OwnedReadHalf<TcpStream>,
    session: Rc<RefCell<Connection>>,
    /// Raw bytes read from the socket; `raw[fed..]` not yet given to rustls.
    raw: Vec<u8>,
    fed: usize,
    eof: bool,
    /// How many bytes the next socket read asks for (adaptive, between
    /// [`READ_BYTES`] and [`READ_BYTES_MAX`]).
    read_size: usize,
}

/// The size of the next socket read after one of `size` bytes gave `got`:
/// doubled after a full read, back to [`READ_BYTES`] at once after one
/// that filled less than a quarter (a connection going quiet does not
/// keep a large buffer through its next, possibly long, read).
fn next_read_size(size: usize, got: usize) -> usize {
    if got >= size {
        (size * 2).min(READ_BYTES_MAX)
    } else if got < size / 4 {
        READ_BYTES
    } else {
        size
    }
}

/// What one pass over the buffered bytes gave.
enum Drained {
    /// This many plaintext bytes were appended (more than 0).
    Data(usize),
    /// The peer closed the TLS session (close_notify, or EOF without it
    /// reported as `UnexpectedEof` by rustls and taken as a close here).
    Closed,
    /// Nothing yet: every buffered raw byte was given to rustls.
    Empty,
}

impl TlsReadHalf {
    /// Appends decrypted bytes to `buf`; 0 at the end of the stream.
    ///
    /// Decrypted bytes go straight from rustls's plaintext buffer into
    /// `buf` (no scratch buffer in between). One call turns everything
    /// read from the socket so far into plaintext, up to `buf`'s spare
    /// capacity (at least one record when it has none), so a request
    /// that arrives in many records costs one pass, not one per record.
    pub async fn read(&mut self, buf: &mut BytesMut) -> std::io::Result<usize> {
        // Each pass either returns or reads the socket once; the bound
        // guards against a session that neither yields data nor asks
        // for more.
        for _ in 0..1_000_000 {
            match self.drain(buf)? {
                Drained::Data(n) => return Ok(n),
                Drained::Closed => return Ok(0),
                Drained::Empty => {}
            }
            if self.eof {
                return Ok(0);
            }
            self.raw.clear();
            self.fed = 0;
            if self.raw.capacity() > self.read_size {
                self.raw.shrink_to(self.read_size);
            }
            self.raw.reserve(self.read_size);
            let (r, raw) = self.io.read(std::mem::take(&mut self.raw)).await;
            self.raw = raw;
            let n = r?;
            self.read_size = next_read_size(self.read_size, n);
            if n == 0 {
                self.eof = true;
                // Tell rustls: it then reports a close without
                // close_notify as UnexpectedEof.
                let _ = self.session.borrow_mut().read_tls(&mut &[][..]);
            }
        }
        Err(invalid("TLS read made no progress"))
    }

    /// Gives rustls the buffered raw bytes and moves the plaintext it
    /// yields into `buf` (no socket I/O, no `.await`).
    fn drain(&mut self, buf: &mut BytesMut) -> std::io::Result<Drained> {
        let mut s = self.session.borrow_mut();
        let mut appended = 0;
        // Every pass either feeds rustls or moves plaintext (or stops);
        // rustls holds at most 16 KiB of unread plaintext, so a 256 KiB
        // read takes a few dozen passes. The bound only guards the loop.
        for _ in 0..1_000_000 {
            // Plaintext first: rustls refuses input while its plaintext
            // buffer is full.
            let mut reader = s.reader();
            loop {
                let spare = buf.capacity() - buf.len();
                if appended > 0 && spare == 0 {
                    return Ok(Drained::Data(appended));
                }
                match std::io::BufRead::fill_buf(&mut reader) {
                    Ok([]) => {
                        if appended > 0 {
                            return Ok(Drained::Data(appended));
                        }
                        // close_notify received and every byte read.
                        return Ok(Drained::Closed);
                    }
                    Ok(chunk) => {
                        // Fill the spare capacity, but take at least a
                        // whole chunk when there is none (`buf` grows).
                        let n = if spare == 0 {
                            chunk.len()
                        } else {
                            chunk.len().min(spare)
                        };
                        buf.extend_from_slice(&chunk[..n]);
                        std::io::BufRead::consume(&mut reader, n);
                        appended += n;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                        if appended > 0 {
                            return Ok(Drained::Data(appended));
                        }
                        return Ok(Drained::Closed);
                    }
                    Err(e) => return Err(e),
                }
            }
            if self.fed == self.raw.len() {
                return Ok(if appended > 0 {
                    Drained::Data(appended)
                } else {
                    Drained::Empty
                });
            }
            let mut rest = &self.raw[self.fed..];
            match s.read_tls(&mut rest) {
                Ok(0) | Err(_) => {
                    // rustls refused bytes yet has no plaintext to give:
                    // stuck (a full plaintext buffer was drained above).
                    return Err(invalid("TLS session refuses input"));
                }
                Ok(n) => self.fed += n,
            }
            s.process_new_packets().map_err(invalid)?;
        }
        Err(invalid("TLS read made no progress"))
    }
}

/// The writing side of a TLS connection.
pub struct TlsWriteHalf {
    io: OwnedWriteHalf<TcpStream>,
    /// `io`'s socket, for [`SendNow`].
    fd: RawFd,
    session: Rc<RefCell<Connection>>,
    /// Ciphertext on its way to the socket, kept between pieces (and
    /// between writes while small) so that its memory is reused rather
    /// than allocated (and faulted in) again for every piece.
    out: Vec<u8>,
}

impl TlsWriteHalf {
    /// The socket, borrowed for as long as `self`.
    fn socket(&self) -> BorrowedFd<'_> {
        // SAFETY: `fd` is the descriptor of the stream that `self.io`
        // holds (an `Rc` shared with the read half). The stream, and so
        // the descriptor, is closed only when both halves are dropped, so
        // it is open for as long as `self` is borrowed.
        unsafe { BorrowedFd::borrow_raw(self.fd) }
    }

    /// Encrypts and sends `data` (and anything rustls queued meanwhile,
    /// such as a key update).
    ///
    /// Each piece is sent straight from rustls's queue while the socket
    /// takes it ([`SendNow`]); the rest of a piece is copied out and
    /// written through io_uring, which waits for room. One piece is sent
    /// whole before the next is encrypted, so the two ways never reorder
    /// bytes.
    pub async fn write_all(&mut self, data: Bytes) -> std::io::Result<()> {
        for piece in data.chunks(WRITE_PIECE_BYTES) {
            let mut out = std::mem::take(&mut self.out);
            out.clear();
            {
                let fd = self.socket();
                let mut now = SendNow(socket2::SockRef::from(&fd));
                let mut s = self.session.borrow_mut();
                std::io::Write::write_all(&mut s.writer(), piece)?;
                if !send_queued_now(&mut s, &mut now)? {
                    out.reserve(piece.len() + piece.len() / 512 + 64);
                    drain_tls_output(&mut s, &mut out)?;
                }
            }
            if out.is_empty() {
                self.out = out;
                continue;
            }
            let (r, out) = self.io.write_all(out).await;
            self.out = out;
            r?;
        }
        // Kept for the next response only if small: a connection that
        // was sent one large response does not hold its piece buffer.
        if self.out.capacity() > KEEP_OUT_BYTES {
            self.out = Vec::new();
        }
        Ok(())
    }

    /// Sends close_notify and shuts the socket's write side.
    pub async fn shutdown(&mut self) -> std::io::Result<()> {
        let out = {
            let mut s = self.session.borrow_mut();
            s.send_close_notify();
            take_tls_output(&mut s, 0)?
        };
        if !out.is_empty() {
            let (r, _) = self.io.write_all(out).await;
            r?;
        }
        self.io.shutdown().await
    }
}

/// Waits at most [`HANDSHAKE_TIMEOUT_MS`] for a handshake.
pub async fn accept_with_timeout(
    config: Arc<rustls::ServerConfig>,
    io: TcpStream,
) -> std::io::Result<TlsHalves> {
    match monoio::time::timeout(
        Duration::from_millis(HANDSHAKE_TIMEOUT_MS),
        accept(config, io),
    )
    .await
    {
        Ok(r) => r,
        Err(_) => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "TLS handshake timed out",
        )),
    }
}

#[cfg(test)]
mod tests {
    //! The read half's buffer handling over a real loopback connection:
    //! records split across socket reads, many small records in one read,
    //! a caller's buffer with little spare capacity, close_notify, and
    //! both TLS versions. Certificates: a test CA and a `localhost`
    //! certificate it signed (valid until 2126), in `testdata/`.

    use super::*;
    use monoio::net::TcpListener;

    const CA: &str = include_str!("testdata/ca.pem");
    const KEYSTORE: &str = include_str!("testdata/keystore.pem");

    fn configs(
        version: &'static rustls::SupportedProtocolVersion,
    ) -> (Arc<rustls::ServerConfig>, Arc<rustls::ClientConfig>) {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let chain: Vec<CertificateDer<'static>> =
            CertificateDer::pem_slice_iter(KEYSTORE.as_bytes())
                .collect::<Result<_, _>>()
                .unwrap();
        let key = PrivateKeyDer::from_pem_slice(KEYSTORE.as_bytes()).unwrap();
        let server = rustls::ServerConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(&[version])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap();
        let mut roots = rustls::RootCertStore::empty();
        for c in CertificateDer::pem_slice_iter(CA.as_bytes()) {
            roots.add(c.unwrap()).unwrap();
        }
        let client = rustls::ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(&[version])
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        (Arc::new(server), Arc::new(client))
    }

    /// Sends `pieces` from the client (each piece its own write, so its
    /// own records), closes with close_notify, and returns what the
    /// server read with a buffer of `capacity` spare bytes per read.
    fn transfer(
        version: &'static rustls::SupportedProtocolVersion,
        pieces: Vec<Bytes>,
        capacity: usize,
    ) -> Vec<u8> {
        let mut rt = monoio::RuntimeBuilder::<monoio::LegacyDriver>::new()
            .enable_timer()
            .build()
            .unwrap();
        rt.block_on(async move {
            let (server_config, client_config) = configs(version);
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let addr = listener.local_addr().unwrap();
            let client = monoio::spawn(async move {
                let io = TcpStream::connect(addr).await.unwrap();
                let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();
                let (mut rd, mut wr, _s) = connect(client_config, name, io).await.unwrap();
                for p in pieces {
                    wr.write_all(p).await.unwrap();
                }
                wr.shutdown().await.unwrap();
                // Until the server's close_notify: closing with unread
                // bytes (TLS 1.3 session tickets) would reset the
                // connection before the server read everything.
                let mut sink = BytesMut::with_capacity(4096);
                for _ in 0..1_000 {
                    sink.clear();
                    if rd.read(&mut sink).await.unwrap() == 0 {
                        break;
                    }
                }
            });
            let (io, _) = listener.accept().await.unwrap();
            let (mut rd, mut wr, session) = accept(server_config, io).await.unwrap();
            assert_eq!(
                session.borrow().protocol_version(),
                Some(version.version),
                "negotiated version"
            );
            let mut got = Vec::new();
            // Bounded: every read appends at least one byte or ends.
            for _ in 0..10_000_000 {
                let mut buf = BytesMut::with_capacity(capacity);
                let n = rd.read(&mut buf).await.unwrap();
                assert_eq!(n, buf.len());
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf);
            }
            wr.shutdown().await.unwrap();
            client.await;
            got
        })
    }

    fn pattern(len: usize, seed: u8) -> Vec<u8> {
        (0..len)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
            .collect()
    }

    #[test]
    fn large_writes_arrive_whole_with_records_split_across_reads() {
        for version in [&rustls::version::TLS13, &rustls::version::TLS12] {
            // 3 MiB in 16 KiB records over reads of 64-512 KiB: records
            // straddle read boundaries. The client's task runs before the
            // server reads, so its sends fill the socket: the write half
            // goes from sending straight from rustls's queue to the
            // io_uring (here epoll) write and back, in order.
            let data = pattern(3 * 1024 * 1024 + 17, 1);
            for capacity in [1 << 20, 1000, 0] {
                let got = transfer(version, vec![Bytes::from(data.clone())], capacity);
                assert!(got == data, "{version:?} capacity {capacity}");
            }
        }
    }

    #[test]
    fn many_small_records_in_one_read_arrive_in_order() {
        for version in [&rustls::version::TLS13, &rustls::version::TLS12] {
            // 5,000 writes of 1-97 bytes: each its own record, many per
            // socket read; more than rustls's 16 KiB of plaintext
            // buffer per read.
            let pieces: Vec<Bytes> = (0..5_000)
                .map(|i| Bytes::from(pattern(1 + i % 97, i as u8)))
                .collect();
            let want: Vec<u8> = pieces.iter().flat_map(|p| p.iter().copied()).collect();
            for capacity in [64 * 1024, 10, 0] {
                let got = transfer(version, pieces.clone(), capacity);
                assert!(got == want, "{version:?} capacity {capacity}");
            }
        }
    }

    #[test]
    fn read_sizes_grow_after_full_reads_and_shrink_after_small_ones() {
        assert_eq!(next_read_size(READ_BYTES, READ_BYTES), 2 * READ_BYTES);
        assert_eq!(
            next_read_size(READ_BYTES_MAX, READ_BYTES_MAX),
            READ_BYTES_MAX
        );
        assert_eq!(next_read_size(READ_BYTES_MAX, 100), READ_BYTES);
        assert_eq!(next_read_size(READ_BYTES, 100), READ_BYTES);
        assert_eq!(next_read_size(4 * READ_BYTES, READ_BYTES), 4 * READ_BYTES);
        assert_eq!(next_read_size(4 * READ_BYTES, READ_BYTES - 1), READ_BYTES);
    }

    #[test]
    fn an_encrypted_key_is_read_with_its_password_only() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tls/testdata");
        let plain = private_key(&dir.join("keystore.pem"), None).unwrap();
        let encrypted = dir.join("keystore-encrypted.pem");
        let key = private_key(&encrypted, Some("test-password")).unwrap();
        assert_eq!(key.secret_der(), plain.secret_der());
        // An unencrypted key ignores a password.
        let again = private_key(&dir.join("keystore.pem"), Some("unused")).unwrap();
        assert_eq!(again.secret_der(), plain.secret_der());
        let missing = private_key(&encrypted, None).unwrap_err().to_string();
        assert!(missing.contains("ssl.key.password is not set"), "{missing}");
        let wrong = private_key(&encrypted, Some("not-it"))
            .unwrap_err()
            .to_string();
        assert!(wrong.contains("cannot be decrypted"), "{wrong}");
        assert!(!wrong.contains("not-it"), "{wrong}");
        // The whole keystore builds a server config with the password.
        let source = Source {
            key_password: Some("test-password".into()),
            versions: vec![&rustls::version::TLS13],
            ..Source::files(encrypted, None)
        };
        assert!(source.build().is_ok());
    }
}
