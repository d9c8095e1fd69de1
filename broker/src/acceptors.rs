//! Each shard's acceptors: one per listener in force (`listener_set`),
//! all shards binding the same port (SO_REUSEPORT), and the start of
//! every connection (limits, rates, TLS handshake) before
//! `connection::serve` takes it.
//!
//! When the listeners change at run time each shard reconciles its own
//! acceptors (`follow`): a removed listener's acceptor stops and its
//! connections close (as Kafka's `SocketServer.removeListeners`); a
//! listener moved to another address gets a new acceptor and keeps its
//! connections; a new one starts accepting.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

use monoio::net::{ListenerOpts, TcpListener};
use tracing::{debug, error, info, warn};

use crate::listeners::{Listener, SecurityProtocol};
use crate::notify::LocalFlag;
use crate::shard::Shard;

/// This shard's open acceptors, by listener name.
#[derive(Default)]
pub struct Acceptors {
    open: RefCell<BTreeMap<String, Open>>,
}

struct Open {
    listener: Listener,
    /// An acceptor runs (false after a failed bind: the next change
    /// tries again).
    accepting: bool,
    /// Stops this acceptor (the listener is removed or moved).
    stop: Rc<LocalFlag>,
    /// Closes the listener's connections (it is removed).
    removed: Rc<LocalFlag>,
}

impl Acceptors {
    /// Opens and closes this shard's acceptors to match the listeners in
    /// force after `shard`'s current settings. Returns what could not be
    /// bound (at start-up that stops the broker; later it is logged).
    pub fn reconcile(shard: &Rc<Shard>) -> Vec<String> {
        let wanted = shard.ctx.listeners.follow(&shard.metadata().settings);
        let mut open = shard.acceptors.open.borrow_mut();
        open.retain(|name, o| {
            let kept = wanted.iter().any(|l| l.name == *name);
            if !kept {
                o.stop.set();
                o.removed.set();
            }
            kept
        });
        let opts = ListenerOpts::new()
            .reuse_port(true)
            .reuse_addr(true)
            .backlog(1024);
        let mut failed = Vec::new();
        for l in wanted.iter() {
            let o = open.entry(l.name.clone()).or_insert_with(|| Open {
                listener: l.clone(),
                accepting: false,
                stop: Rc::new(LocalFlag::default()),
                removed: Rc::new(LocalFlag::default()),
            });
            if o.listener.bind != l.bind {
                // Moved: a new acceptor; its connections stay.
                o.stop.set();
                o.stop = Rc::new(LocalFlag::default());
                o.accepting = false;
            }
            o.listener = l.clone();
            if o.accepting {
                continue;
            }
            match TcpListener::bind_with_config(l.bind, &opts) {
                Ok(sock) => {
                    o.accepting = true;
                    monoio::spawn(accept_loop(
                        shard.clone(),
                        Rc::new(l.clone()),
                        sock,
                        o.stop.clone(),
                        o.removed.clone(),
                    ));
                }
                Err(e) => {
                    error!(listener = %l.name, addr = %l.bind, error = %e, shard = shard.id, "cannot listen");
                    failed.push(format!("cannot listen on {} ({}): {e}", l.bind, l.name));
                }
            }
        }
        failed
    }
}

/// Follows the listener settings: after every metadata change that
/// changes them, this shard reconciles its acceptors.
pub async fn follow(shard: Rc<Shard>) {
    use crate::listener_set::SettingsKey;
    let mut seen = SettingsKey::of(&shard.metadata().settings);
    loop {
        monoio::select! {
            _ = shard.metadata_changed() => {},
            _ = shard.stopping() => return,
        }
        let now = SettingsKey::of(&shard.metadata().settings);
        if now != seen {
            seen = now;
            Acceptors::reconcile(&shard);
        }
    }
}

async fn accept_loop(
    shard: Rc<Shard>,
    listener: Rc<Listener>,
    sock: TcpListener,
    stop: Rc<LocalFlag>,
    removed: Rc<LocalFlag>,
) {
    let name: Rc<str> = Rc::from(listener.name.as_str());
    loop {
        let accepted = monoio::select! {
            r = sock.accept() => r,
            _ = shard.stopping() => break,
            _ = stop.wait() => break,
        };
        match accepted {
            Ok((stream, peer)) => {
                // Read at each accept: the limits are dynamic.
                let limits = crate::connection_limits::Limits::of(
                    &shard.metadata().settings,
                    &listener.name,
                    peer.ip(),
                );
                let slot = match shard
                    .ctx
                    .connections
                    .admit(limits, &listener.name, peer.ip())
                {
                    Ok(slot) => slot,
                    Err(refusal) => {
                        info!(%peer, listener = %name, "connection refused: {refusal}");
                        drop(stream);
                        continue;
                    }
                };
                // KIP-612: over the broker's or the listener's connection
                // rate, this shard's acceptor waits before serving it.
                let wait_ms = crate::quotas::hooks::accept_throttle_ms(&shard, &listener.name);
                if wait_ms > 0 {
                    debug!(%peer, wait_ms, "max.connection.creation.rate reached: accepting waits");
                    monoio::select! {
                        _ = monoio::time::sleep(Duration::from_millis(wait_ms as u64)) => {},
                        _ = shard.stopping() => break,
                    }
                }
                let throttle_ms = crate::quotas::hooks::connection_throttle_ms(&shard, peer.ip());
                if throttle_ms > 0 {
                    // Kafka's ConnectionQuotas: a connection over its
                    // ip's connection_creation_rate is held unread for the
                    // throttle time, then closed.
                    let s = shard.clone();
                    monoio::spawn(async move {
                        monoio::select! {
                            _ = monoio::time::sleep(Duration::from_millis(throttle_ms as u64)) => {},
                            _ = s.stopping() => {},
                        }
                        drop(stream);
                        drop(slot);
                    });
                    debug!(%peer, throttle_ms, "connection over connection_creation_rate: closed after the throttle time");
                    continue;
                }
                let _ = stream.set_nodelay(true);
                crate::metrics::record::connection_opened(&name);
                let s = shard.clone();
                let protocol = listener.protocol;
                let name = name.clone();
                let listener_name = name.clone();
                let removed = removed.clone();
                monoio::spawn(async move {
                    match protocol {
                        SecurityProtocol::Plaintext | SecurityProtocol::SaslPlaintext => {
                            let (rd, wr) = monoio::io::Splitable::into_split(stream);
                            let conn = crate::connection::ConnInfo {
                                peer,
                                listener: name,
                                principal: crate::tls::principal::ANONYMOUS.to_string(),
                                sasl: protocol.sasl(),
                                software: Default::default(),
                            };
                            crate::connection::serve(
                                s.clone(),
                                crate::connection::Reader::Plain(rd),
                                crate::connection::Writer::Plain(wr),
                                conn,
                                removed,
                            )
                            .await;
                        }
                        SecurityProtocol::Ssl | SecurityProtocol::SaslSsl => {
                            serve_tls(&s, stream, peer, name, protocol.sasl(), removed).await
                        }
                    }
                    drop(slot);
                    crate::metrics::record::connection_closed(&listener_name);
                });
            }
            Err(e) => {
                warn!(error = %e, "accept failed");
                monoio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

/// A connection on an SSL or SASL_SSL listener: the handshake (bounded
/// in time; a failure closes the connection and logs one line), the
/// principal from the client certificate (SASL replaces it), then the
/// same request loop as plaintext.
async fn serve_tls(
    s: &Rc<Shard>,
    stream: monoio::net::TcpStream,
    peer: std::net::SocketAddr,
    listener: Rc<str>,
    sasl: bool,
    removed: Rc<LocalFlag>,
) {
    let Some(tls) = s.ctx.listeners.tls_for(&listener) else {
        return;
    };
    let config = tls.current(&s.metadata().settings);
    let (rd, wr, session) = match crate::tls::accept_with_timeout(config, stream).await {
        Ok(parts) => parts,
        Err(e) => {
            info!(%peer, listener = %listener, error = %e, "TLS handshake failed; connection closed");
            return;
        }
    };
    let principal = tls.principal(&session.borrow());
    let principal = match principal {
        Ok(p) => p,
        Err(e) => {
            info!(%peer, listener = %listener, error = %e, "client certificate refused; connection closed");
            crate::connection::failed_authentication_delay(s).await;
            return;
        }
    };
    tracing::debug!(%peer, listener = %listener, principal = %principal, "TLS connection authenticated");
    drop(session);
    let conn = crate::connection::ConnInfo {
        peer,
        listener,
        principal,
        sasl,
        software: Default::default(),
    };
    crate::connection::serve(
        s.clone(),
        crate::connection::Reader::Tls(rd),
        crate::connection::Writer::Tls(wr),
        conn,
        removed,
    )
    .await;
}
