//! TLS on rustls 0.23 with the ring provider (the broker's stack: no
//! aws-lc-rs C build). A connection's session is shared between its
//! reader thread and its writers behind a mutex: the reader feeds
//! ciphertext in and takes plaintext out, a writer encrypts into a buffer
//! under the lock and writes that buffer to the socket after releasing it,
//! so a slow socket write never blocks the reader (which would stop the
//! broker from writing responses and could deadlock both sides).

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    ClientConfig, ClientConnection, DigitallySignedStruct, RootCertStore, SignatureScheme,
};

use crate::error::Error;

/// TLS settings: a CA bundle to trust (else nothing is trusted: there is no
/// system store here), an optional client certificate for mutual TLS, or
/// no verification at all (tests, self-signed clusters).
#[derive(Debug, Clone, Default)]
pub struct TlsConfig {
    pub ca_file: Option<PathBuf>,
    pub cert_file: Option<PathBuf>,
    pub key_file: Option<PathBuf>,
    pub insecure_skip_verify: bool,
}

/// ring's suites with AES-128-GCM offered first, as browsers and the
/// broker do (rustls's own order puts AES-256 first, which costs 14 AES
/// rounds to 128's 10 on every byte; see the broker's
/// `tls/cipher_suites.rs`). A server that keeps its own order still
/// decides.
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    let mut provider = rustls::crypto::ring::default_provider();
    provider.cipher_suites.sort_by_key(|s| {
        !s.suite()
            .as_str()
            .is_some_and(|n| n.contains("AES_128_GCM"))
    });
    Arc::new(provider)
}

/// Builds the rustls client config once per `Client` (files are read here,
/// so a bad path fails `Client::connect`, not the first request).
pub(crate) fn client_config(cfg: &TlsConfig) -> Result<Arc<ClientConfig>, Error> {
    let provider = provider();
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::Tls(e.to_string()))?;
    let builder = if cfg.insecure_skip_verify {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(NoVerify(provider)))
    } else {
        let mut roots = RootCertStore::empty();
        let Some(ca) = &cfg.ca_file else {
            return Err(Error::Config(
                "TLS needs a CA file (ca_file) or insecure_skip_verify".into(),
            ));
        };
        let certs = CertificateDer::pem_file_iter(ca)
            .map_err(|e| Error::Tls(format!("reading CA file {}: {e}", ca.display())))?;
        for cert in certs {
            let cert = cert.map_err(|e| Error::Tls(format!("CA file {}: {e}", ca.display())))?;
            roots
                .add(cert)
                .map_err(|e| Error::Tls(format!("CA file {}: {e}", ca.display())))?;
        }
        if roots.is_empty() {
            return Err(Error::Tls(format!(
                "CA file {} holds no certificate",
                ca.display()
            )));
        }
        builder.with_root_certificates(roots)
    };
    let config = match (&cfg.cert_file, &cfg.key_file) {
        (Some(cert), Some(key)) => {
            let chain = CertificateDer::pem_file_iter(cert)
                .map_err(|e| Error::Tls(format!("reading {}: {e}", cert.display())))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| Error::Tls(format!("{}: {e}", cert.display())))?;
            let key = PrivateKeyDer::from_pem_file(key)
                .map_err(|e| Error::Tls(format!("reading key {}: {e}", key.display())))?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| Error::Tls(format!("client certificate: {e}")))?
        }
        (None, None) => builder.with_no_client_auth(),
        _ => {
            return Err(Error::Config(
                "TLS client authentication needs both cert_file and key_file".into(),
            ));
        }
    };
    Ok(Arc::new(config))
}

/// Accepts any server certificate (but still checks the handshake
/// signatures, so the session keys are the server's).
#[derive(Debug)]
struct NoVerify(Arc<rustls::crypto::CryptoProvider>);

impl ServerCertVerifier for NoVerify {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// Runs the handshake on `sock` (whose read/write timeouts bound it) and
/// returns the session, ready to be shared by [`TlsReader`]/[`TlsWriter`].
pub(crate) fn handshake(
    config: &Arc<ClientConfig>,
    host: &str,
    sock: &mut TcpStream,
) -> Result<Arc<Mutex<ClientConnection>>, Error> {
    let name = ServerName::try_from(host.to_string())
        .map_err(|e| Error::Tls(format!("server name {host}: {e}")))?;
    let mut conn =
        ClientConnection::new(config.clone(), name).map_err(|e| Error::Tls(e.to_string()))?;
    conn.set_buffer_limit(None);
    while conn.is_handshaking() {
        conn.complete_io(sock)
            .map_err(|e| Error::Tls(format!("handshake with {host}: {e}")))?;
    }
    Ok(Arc::new(Mutex::new(conn)))
}

/// A blocking TLS stream over `tcp` to `host` (a name or an IP address,
/// as the certificate names it), the handshake done (bounded by `tcp`'s
/// timeouts): for one request and its response on one connection, such as
/// tmk's admin API calls, where sharing the session between a reader and
/// writers (as a Kafka connection does) buys nothing.
pub fn blocking_stream(
    cfg: &TlsConfig,
    host: &str,
    mut tcp: TcpStream,
) -> Result<rustls::StreamOwned<ClientConnection, TcpStream>, Error> {
    let config = client_config(cfg)?;
    let name = ServerName::try_from(host.to_string())
        .map_err(|e| Error::Tls(format!("server name {host}: {e}")))?;
    let mut conn = ClientConnection::new(config, name).map_err(|e| Error::Tls(e.to_string()))?;
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp)
            .map_err(|e| Error::Tls(format!("handshake with {host}: {e}")))?;
    }
    Ok(rustls::StreamOwned::new(conn, tcp))
}

/// Ciphertext read from the socket at a time.
const READ_BYTES: usize = 64 * 1024;

/// The read half: plaintext out of the shared session.
///
/// Ciphertext is fed to rustls only while it holds no plaintext: rustls
/// refuses more (`read_tls`: "received plaintext buffer full") once 16 KiB
/// of decrypted bytes wait to be read, so feeding a whole 64 KiB socket
/// read at once failed every response larger than that (a Fetch of a
/// few hundred records), killing the connection's reader. What rustls has
/// not taken yet waits in `buf[pos..len]`.
pub(crate) struct TlsReader {
    pub(crate) sock: TcpStream,
    pub(crate) session: Arc<Mutex<ClientConnection>>,
    pub(crate) buf: Vec<u8>,
    pub(crate) pos: usize,
    pub(crate) len: usize,
}

impl TlsReader {
    pub(crate) fn new(sock: TcpStream, session: Arc<Mutex<ClientConnection>>) -> TlsReader {
        TlsReader {
            sock,
            session,
            buf: vec![0; READ_BYTES],
            pos: 0,
            len: 0,
        }
    }
}

impl Read for TlsReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            {
                let mut s = self
                    .session
                    .lock()
                    .map_err(|_| io::Error::other("TLS session poisoned"))?;
                match s.reader().read(out) {
                    Ok(n) => return Ok(n),
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(e) => return Err(e),
                }
                // No plaintext waiting: rustls takes more ciphertext.
                if self.pos < self.len {
                    let mut data = &self.buf[self.pos..self.len];
                    let before = data.len();
                    s.read_tls(&mut data)?;
                    self.pos += before - data.len();
                    s.process_new_packets()
                        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
                    continue;
                }
            }
            let n = self.sock.read(&mut self.buf)?;
            if n == 0 {
                return Ok(0);
            }
            self.pos = 0;
            self.len = n;
        }
    }
}

/// Ciphertext buffers up to this size are kept for the next frame.
const KEEP_OUT_BYTES: usize = 8 << 20;

/// The write half: encrypts under the session lock, writes after it.
pub(crate) struct TlsWriter {
    pub(crate) sock: TcpStream,
    pub(crate) session: Arc<Mutex<ClientConnection>>,
    /// The ciphertext of the frame being written, kept between frames:
    /// a fresh vector per frame grew by doubling (copying) and, for the
    /// megabyte frames of a producer, was mapped, faulted in and unmapped
    /// every time (a third of `tmk bench produce`'s CPU over TLS).
    pub(crate) out: Vec<u8>,
}

impl TlsWriter {
    pub(crate) fn new(sock: TcpStream, session: Arc<Mutex<ClientConnection>>) -> TlsWriter {
        TlsWriter {
            sock,
            session,
            out: Vec::new(),
        }
    }

    pub(crate) fn write_frame(&mut self, chunks: &[bytes::Bytes]) -> io::Result<()> {
        let total: usize = chunks.iter().map(|c| c.len()).sum();
        self.out.clear();
        // A TLS record adds at most 22 bytes (TLS 1.3) or 29 (TLS 1.2 GCM)
        // to each 16 KiB of plaintext.
        self.out.reserve(total + total / 512 + 64);
        {
            let mut s = self
                .session
                .lock()
                .map_err(|_| io::Error::other("TLS session poisoned"))?;
            for c in chunks {
                s.writer().write_all(c)?;
            }
            while s.wants_write() {
                s.write_tls(&mut self.out)?;
            }
        }
        let r = self.sock.write_all(&self.out);
        if self.out.capacity() > KEEP_OUT_BYTES {
            self.out = Vec::new();
        }
        r
    }
}
