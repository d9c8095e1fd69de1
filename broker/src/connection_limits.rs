//! Connection limits checked at accept, as Kafka's `ConnectionQuotas`:
//! `max.connections` for the whole broker, `listener.name.<l>.max.connections`
//! for one listener, and `max.connections.per.ip` with
//! `max.connections.per.ip.overrides` for one client address. All are
//! dynamic: each accept reads the settings in force.
//!
//! Kafka's acceptor waits for a slot under the broker and listener
//! limits (the client sees a slow connect) and closes a connection over
//! its address's limit at once. Here every refusal closes the connection
//! at accept, so a client over any limit retries with its own backoff
//! instead of filling the listen backlog.
//!
//! Invariant: a [`Slot`] is held for every open client connection, and
//! its drop gives the counts back, so they cannot drift whatever way the
//! connection ends.

use std::cell::RefCell;
use std::collections::HashMap;
use std::net::{IpAddr, ToSocketAddrs};
use std::sync::{Arc, Mutex};

use crate::settings::{Settings, parse_ip_overrides};

/// Open client connections: in all, per listener and per client address.
/// Shared by the shards; locked once per accept and once per close.
#[derive(Debug, Default)]
pub struct ConnectionCounts {
    inner: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    per_listener: HashMap<String, usize>,
    per_ip: HashMap<IpAddr, usize>,
}

/// Which limit refused a connection, and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `max.connections`.
    Broker(usize),
    /// `listener.name.<l>.max.connections`.
    Listener(usize),
    /// `max.connections.per.ip` or its override for the address.
    Address(usize),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Broker(n) => write!(f, "max.connections ({n}) reached"),
            Refusal::Listener(n) => write!(f, "the listener's max.connections ({n}) reached"),
            Refusal::Address(n) => write!(
                f,
                "address already has the configured maximum of {n} connections (max.connections.per.ip)"
            ),
        }
    }
}

/// The limits in force for one new connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub broker: usize,
    pub listener: usize,
    pub address: usize,
}

impl Limits {
    /// The limits `settings` set for a connection to `listener` from `ip`.
    pub fn of(settings: &Settings, listener: &str, ip: IpAddr) -> Limits {
        let count = |v: String| usize::try_from(v.trim().parse::<i64>().unwrap_or(0)).unwrap_or(0);
        let overrides = settings.get("max.connections.per.ip.overrides");
        let address = OVERRIDES
            .with(|cache| cache.borrow_mut().limit_for(&overrides, ip))
            .unwrap_or_else(|| count(settings.get("max.connections.per.ip")));
        Limits {
            broker: count(settings.get("max.connections")),
            listener: settings
                .listener_value(listener, "max.connections")
                .map_or(usize::MAX, count),
            address,
        }
    }
}

impl ConnectionCounts {
    /// Takes a slot for a new connection to `listener` from `ip`, or says
    /// which limit refuses it (nothing is counted then).
    pub fn admit(
        self: &Arc<Self>,
        limits: Limits,
        listener: &str,
        ip: IpAddr,
    ) -> Result<Slot, Refusal> {
        let mut c = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if c.total >= limits.broker {
            return Err(Refusal::Broker(limits.broker));
        }
        let on_listener = c.per_listener.get(listener).copied().unwrap_or(0);
        if on_listener >= limits.listener {
            return Err(Refusal::Listener(limits.listener));
        }
        let from_ip = c.per_ip.get(&ip).copied().unwrap_or(0);
        if from_ip >= limits.address {
            return Err(Refusal::Address(limits.address));
        }
        c.total += 1;
        *c.per_listener.entry(listener.to_string()).or_default() += 1;
        *c.per_ip.entry(ip).or_default() += 1;
        Ok(Slot {
            counts: self.clone(),
            listener: listener.to_string(),
            ip,
        })
    }

    /// Open client connections on the whole broker.
    #[cfg(test)]
    fn total(&self) -> usize {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).total
    }
}

/// One open connection's place in the counts, given back on drop.
#[derive(Debug)]
pub struct Slot {
    counts: Arc<ConnectionCounts>,
    listener: String,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.counts.inner.lock().unwrap_or_else(|e| e.into_inner());
        c.total = c.total.saturating_sub(1);
        fn give_back<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: &K) {
            if let Some(n) = map.get_mut(key) {
                *n -= 1;
                if *n == 0 {
                    map.remove(key);
                }
            }
        }
        give_back(&mut c.per_listener, &self.listener);
        give_back(&mut c.per_ip, &self.ip);
    }
}

thread_local! {
    /// This shard's overrides, resolved once per value of the setting.
    static OVERRIDES: RefCell<Overrides> = RefCell::new(Overrides::default());
}

/// Resolved `max.connections.per.ip.overrides`, kept with the text they
/// came from: a host name is resolved once per change of the setting
/// (as Kafka resolves it when the config is set), not per connection.
#[derive(Debug, Default)]
struct Overrides {
    text: String,
    limits: HashMap<IpAddr, usize>,
}

impl Overrides {
    fn limit_for(&mut self, text: &str, ip: IpAddr) -> Option<usize> {
        if text.trim().is_empty() {
            return None;
        }
        if self.text != text {
            self.limits = resolve(text);
            self.text = text.to_string();
        }
        self.limits.get(&ip).copied()
    }
}

/// Every address of every host of a valid overrides text with its count;
/// a name that does not resolve gives none (logged).
fn resolve(text: &str) -> HashMap<IpAddr, usize> {
    let mut out = HashMap::new();
    let Ok(items) = parse_ip_overrides(text) else {
        return out;
    };
    for (host, count) in items {
        if let Ok(ip) = host.parse::<IpAddr>() {
            out.insert(ip, count);
            continue;
        }
        match (host, 0u16).to_socket_addrs() {
            Ok(addrs) => {
                for a in addrs {
                    out.insert(a.ip(), count);
                }
            }
            Err(e) => {
                tracing::warn!(host, error = %e, "max.connections.per.ip.overrides: cannot resolve the host; its override is not applied");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(broker: usize, listener: usize, address: usize) -> Limits {
        Limits {
            broker,
            listener,
            address,
        }
    }

    #[test]
    fn each_limit_refuses_and_slots_give_back() {
        let counts = Arc::new(ConnectionCounts::default());
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let l = limits(3, 10, 2);
        let s1 = counts.admit(l, "PLAINTEXT", a).unwrap();
        let _s2 = counts.admit(l, "PLAINTEXT", a).unwrap();
        assert_eq!(
            counts.admit(l, "PLAINTEXT", a).unwrap_err(),
            Refusal::Address(2)
        );
        let s3 = counts.admit(l, "SSL", b).unwrap();
        assert_eq!(counts.admit(l, "SSL", b).unwrap_err(), Refusal::Broker(3));
        assert_eq!(counts.total(), 3);
        drop(s1);
        drop(s3);
        assert_eq!(counts.total(), 1);
        let one_per_listener = limits(10, 1, 10);
        assert_eq!(
            counts.admit(one_per_listener, "PLAINTEXT", b).unwrap_err(),
            Refusal::Listener(1)
        );
        let _s4 = counts.admit(one_per_listener, "SSL", b).unwrap();
        // A limit of 0 refuses every connection it covers.
        assert_eq!(
            counts.admit(limits(10, 10, 0), "SSL", a).unwrap_err(),
            Refusal::Address(0)
        );
    }

    #[test]
    fn overrides_resolve_once_per_text() {
        let mut o = Overrides::default();
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        assert_eq!(o.limit_for("127.0.0.1:5", a), Some(5));
        assert_eq!(o.limit_for("127.0.0.1:5", b), None);
        assert_eq!(o.limit_for("127.0.0.2:7", b), Some(7));
        assert_eq!(o.limit_for("", b), None);
    }
}
