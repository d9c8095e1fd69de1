//! TLS between brokers: `security.inter.broker.protocol=SSL` secures the
//! Raft and controller traffic on `--rpc-addr` with the listeners' PEM
//! files. It is mutual: each broker presents its keystore certificate as
//! a client too, and a broker accepts a peer only if that certificate
//! chains to `ssl.truststore.location` and, with an authorizer, if the
//! peer's principal (the subject through `ssl.principal.mapping.rules`)
//! is a super user or may do CLUSTER_ACTION on the cluster, as Kafka asks
//! of inter-broker principals. Without it anyone who reached the rpc port
//! could speak Raft to the broker.
//!
//! A broker dials a peer at its rpc address's IP, so the peer's
//! certificate must name that IP (an IP subjectAltName).
//!
//! Certificates are reloaded as the listeners' are: each new connection
//! (either side) stats both files and rebuilds the configs when one
//! changed; a file that fails to load keeps the old configs until it
//! changes again.

use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use bytes::{Bytes, BytesMut};
use monoio::net::TcpStream;
use rustls_pki_types::ServerName;
use tidemark_raft::transport::{LocalFuture, PeerRead, PeerSecurity, PeerWrite, SecuredHalves};

use super::{
    ClientAuth, Source, Stamp, TlsError, TlsReadHalf, TlsWriteHalf, principal::MappingRules,
};
use crate::settings::Settings;

/// Decides whether a peer's principal may join (the authorizer's view).
pub type PeerCheck = Rc<dyn Fn(&str, std::net::IpAddr) -> bool>;

/// The inter-broker TLS settings and current configs, shared by the
/// shards.
pub struct PeerTlsConfig(Arc<Inner>);

struct Inner {
    source: Source,
    rules: MappingRules,
    loaded: Mutex<Loaded>,
}

struct Loaded {
    server: Arc<rustls::ServerConfig>,
    client: Arc<rustls::ClientConfig>,
    stamps: (Stamp, Stamp),
    failed: Option<(Stamp, Stamp)>,
}

impl Inner {
    /// The configs for a new connection, rebuilt first if the files
    /// changed since they were built.
    fn current(&self) -> (Arc<rustls::ServerConfig>, Arc<rustls::ClientConfig>) {
        let now = self.source.stamps();
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if now != loaded.stamps && loaded.failed != Some(now) {
            match self
                .source
                .build()
                .and_then(|s| Ok((s, self.source.build_client()?)))
            {
                Ok((server, client)) => {
                    tracing::info!(keystore = %self.source.keystore.display(), "inter-broker TLS certificates reloaded");
                    loaded.server = Arc::new(server);
                    loaded.client = Arc::new(client);
                    loaded.stamps = now;
                    loaded.failed = None;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot reload the inter-broker TLS certificates; keeping the loaded ones");
                    loaded.failed = Some(now);
                }
            }
        }
        (loaded.server.clone(), loaded.client.clone())
    }
}

impl std::fmt::Debug for PeerTlsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PeerTlsConfig")
    }
}

impl PeerTlsConfig {
    /// `None` unless `security.inter.broker.protocol` is SSL; then both
    /// stores are required.
    pub fn from_settings(settings: &Settings) -> Result<Option<Self>, TlsError> {
        if settings.get("security.inter.broker.protocol").trim() != "SSL" {
            return Ok(None);
        }
        let keystore = settings.get("ssl.keystore.location");
        if keystore.trim().is_empty() {
            return Err(TlsError::NoKeystore);
        }
        let truststore = settings.get("ssl.truststore.location");
        if truststore.trim().is_empty() {
            return Err(TlsError::NoTruststore(
                "(security.inter.broker.protocol=SSL)".into(),
            ));
        }
        let mut versions = Vec::new();
        for p in settings
            .get("ssl.enabled.protocols")
            .split(',')
            .map(str::trim)
        {
            match p {
                "TLSv1.2" => versions.push(&rustls::version::TLS12),
                "TLSv1.3" => versions.push(&rustls::version::TLS13),
                _ => {}
            }
        }
        let key_password = settings.get("ssl.key.password");
        let source = Source {
            keystore: keystore.trim().into(),
            key_password: (!key_password.is_empty()).then_some(key_password),
            truststore: Some(truststore.trim().into()),
            client_auth: ClientAuth::Required,
            versions,
            provider: super::cipher_suites::provider(&settings.get("ssl.cipher.suites"))
                .map_err(TlsError::CipherSuites)?,
        };
        let stamps = source.stamps();
        let loaded = Loaded {
            server: Arc::new(source.build()?),
            client: Arc::new(source.build_client()?),
            stamps,
            failed: None,
        };
        Ok(Some(PeerTlsConfig(Arc::new(Inner {
            rules: MappingRules::parse(&settings.get("ssl.principal.mapping.rules"))?,
            source,
            loaded: Mutex::new(loaded),
        }))))
    }

    /// One shard's hook for its transport, refusing peers `check` refuses.
    pub fn security(&self, check: PeerCheck) -> Rc<dyn PeerSecurity> {
        Rc::new(PeerTls {
            inner: self.0.clone(),
            check,
        })
    }
}

struct PeerTls {
    inner: Arc<Inner>,
    check: PeerCheck,
}

fn refused(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::PermissionDenied, e.to_string())
}

impl PeerSecurity for PeerTls {
    fn connect(
        &self,
        addr: SocketAddr,
        stream: TcpStream,
    ) -> LocalFuture<'static, std::io::Result<SecuredHalves>> {
        let (_, config) = self.inner.current();
        Box::pin(async move {
            let name = ServerName::IpAddress(addr.ip().into());
            let (r, w, _) = super::connect(config, name, stream).await?;
            Ok((
                Box::new(r) as Box<dyn PeerRead>,
                Box::new(w) as Box<dyn PeerWrite>,
            ))
        })
    }

    fn accept(
        &self,
        peer: SocketAddr,
        stream: TcpStream,
    ) -> LocalFuture<'static, std::io::Result<SecuredHalves>> {
        let (config, _) = self.inner.current();
        let inner = self.inner.clone();
        let check = self.check.clone();
        Box::pin(async move {
            let (r, w, session) = super::accept(config, stream).await?;
            let principal = {
                let s = session.borrow();
                let cert = s
                    .peer_certificates()
                    .and_then(|c| c.first())
                    .ok_or_else(|| refused("no client certificate"))?;
                let dn = super::principal::subject_rfc2253(cert).map_err(refused)?;
                format!("User:{}", inner.rules.apply(&dn).map_err(refused)?)
            };
            if !check(&principal, peer.ip()) {
                return Err(refused(format!(
                    "{principal} at {peer} is not allowed CLUSTER_ACTION on the cluster"
                )));
            }
            Ok((
                Box::new(r) as Box<dyn PeerRead>,
                Box::new(w) as Box<dyn PeerWrite>,
            ))
        })
    }
}

impl PeerRead for TlsReadHalf {
    fn read<'a>(&'a mut self, buf: &'a mut BytesMut) -> LocalFuture<'a, std::io::Result<usize>> {
        Box::pin(TlsReadHalf::read(self, buf))
    }
}

impl PeerWrite for TlsWriteHalf {
    fn write_all(&mut self, data: Bytes) -> LocalFuture<'_, std::io::Result<()>> {
        Box::pin(TlsWriteHalf::write_all(self, data))
    }
}
