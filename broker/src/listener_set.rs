//! The listeners in force, shared by every shard. `listeners` and
//! `listener.security.protocol.map` are per-broker dynamic configs, as in
//! Kafka (`DynamicListenerConfig`): a change adds listeners, removes them
//! (closing their connections) or moves one to another address, without a
//! restart. Each shard then opens or closes its own acceptors
//! (`acceptors`); this set is what they follow, with each TLS listener's
//! certificates.
//!
//! Kafka 4 refuses, with a KRaft controller, any change that alters what
//! a broker advertises ("Advertised listeners cannot be altered when using
//! a Raft-based metadata quorum"): its registration is made once at start.
//! Tidemark re-registers with the controller instead
//! (`cluster::controller::Controller::register`), so a listener added at
//! run time is advertised to clients at once and a removed one is no
//! longer listed.
//!
//! Invariants:
//! - A listener keeps its security protocol while it exists (Kafka's
//!   "Security protocol cannot be updated for existing listener").
//! - A listener is in force only if its address could be bound (checked
//!   with a plain bind first, as at start-up) and, if TLS, its
//!   certificates loaded; what cannot be is logged and left out, never
//!   half-opened. A change is checked the same way before it is stored
//!   (`check_change`), so this happens only when something changed in
//!   between (a port taken, a file removed).

use std::collections::BTreeMap;
use std::net::TcpListener as StdListener;
use std::sync::{Arc, Mutex, MutexGuard};

use tracing::{error, info};

use crate::listeners::{Endpoint, Listener, ListenerError};
use crate::settings::{DYNAMIC_PER_LISTENER_SETTINGS, PER_LISTENER_SETTINGS, Settings};
use crate::tls::TlsContext;

/// The settings whose change changes the listeners.
const LISTENER_SETTINGS: [&str; 2] = ["listeners", "listener.security.protocol.map"];

pub struct ListenerSet {
    /// The listeners of the start-up configuration (flags, file, `--set`):
    /// what is in force while no dynamic value changes them, and where a
    /// listener not named in `advertised.listeners` keeps the advertised
    /// address it started with (`--advertise-kafka-addr`).
    startup: Vec<Listener>,
    current: Mutex<Current>,
}

struct Current {
    listeners: Arc<Vec<Listener>>,
    tls: BTreeMap<String, Arc<TlsContext>>,
    /// The listener settings `listeners` was last computed from: `follow`
    /// runs on every metadata change and parses (and resolves) only when
    /// they changed.
    followed: Option<SettingsKey>,
}

/// What the wanted listeners depend on in the settings: a change of it
/// is a change of the listeners (`follow` here, `acceptors::follow` on
/// each shard).
#[derive(PartialEq, Eq)]
pub struct SettingsKey {
    values: [String; 2],
    dynamic: [bool; 2],
}

impl SettingsKey {
    pub fn of(settings: &Settings) -> SettingsKey {
        SettingsKey {
            values: LISTENER_SETTINGS.map(|k| settings.get(k)),
            dynamic: LISTENER_SETTINGS.map(|k| settings.dynamics().contains_key(k)),
        }
    }
}

impl ListenerSet {
    /// The start-up listeners, with the TLS contexts already loaded for
    /// the TLS ones (a broken keystore stops the broker before this).
    pub fn new(startup: Vec<Listener>, tls: BTreeMap<String, TlsContext>) -> ListenerSet {
        ListenerSet {
            current: Mutex::new(Current {
                listeners: Arc::new(startup.clone()),
                tls: tls.into_iter().map(|(k, v)| (k, Arc::new(v))).collect(),
                followed: None,
            }),
            startup,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Current> {
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The listeners in force.
    pub fn current(&self) -> Arc<Vec<Listener>> {
        self.lock().listeners.clone()
    }

    /// The TLS context of `listener` (`None`: not a TLS listener, or no
    /// longer one in force).
    pub fn tls_for(&self, listener: &str) -> Option<Arc<TlsContext>> {
        self.lock().tls.get(listener).cloned()
    }

    /// What this broker advertises, per listener.
    pub fn endpoints(&self) -> Vec<Endpoint> {
        self.current()
            .iter()
            .map(|l| Endpoint {
                name: l.name.clone(),
                host: l.advertised_host.clone(),
                port: l.advertised_port,
            })
            .collect()
    }

    /// Brings the set in line with `settings` and returns the listeners
    /// now in force. Idempotent: every shard calls it when the metadata
    /// changes, the first one after a change does the work.
    pub fn follow(&self, settings: &Settings) -> Arc<Vec<Listener>> {
        let key = SettingsKey::of(settings);
        if self.lock().followed.as_ref() == Some(&key) {
            return self.current();
        }
        let wanted = match wanted(&self.startup, settings) {
            Ok(w) => w,
            Err(e) => {
                // Checked before it was stored; only a restart with other
                // static settings gets here.
                error!(error = %e, "the listener settings are not valid; the listeners in force are kept");
                self.lock().followed = Some(key);
                return self.current();
            }
        };
        let mut cur = self.lock();
        cur.followed = Some(key);
        if *cur.listeners == wanted {
            return cur.listeners.clone();
        }
        let mut next = Vec::with_capacity(wanted.len());
        let mut tls = BTreeMap::new();
        for l in wanted {
            let old = cur.listeners.iter().find(|o| o.name == l.name);
            let bound = cur.listeners.iter().any(|o| o.bind == l.bind);
            if !bound && let Err(e) = StdListener::bind(l.bind) {
                error!(listener = %l.name, addr = %l.bind, error = %e, "cannot listen: listener left out");
                continue;
            }
            if l.protocol.tls() {
                let kept = old
                    .filter(|o| o.protocol == l.protocol)
                    .and_then(|_| cur.tls.get(&l.name).cloned());
                let ctx = match kept {
                    Some(ctx) => ctx,
                    None => match TlsContext::for_listener(settings, &l.name) {
                        Ok(ctx) => Arc::new(ctx),
                        Err(e) => {
                            error!(listener = %l.name, error = %e, "cannot load the listener's certificates: listener left out");
                            continue;
                        }
                    },
                };
                tls.insert(l.name.clone(), ctx);
            }
            if old != Some(&l) {
                info!(listener = %l.name, addr = %l.bind, advertised = %format!("{}:{}", l.advertised_host, l.advertised_port), "listener in force");
            }
            next.push(l);
        }
        for gone in cur
            .listeners
            .iter()
            .filter(|o| !next.iter().any(|l| l.name == o.name))
        {
            info!(listener = %gone.name, addr = %gone.bind, "listener removed");
        }
        cur.listeners = Arc::new(next);
        cur.tls = tls;
        cur.listeners.clone()
    }

    /// Checks a change of this broker's settings from `now` to `after`
    /// before it is stored: the new listeners parse, keep their security
    /// protocols, can bind their new addresses and load their
    /// certificates. The error is Kafka's words where it has them.
    pub fn check_change(&self, now: &Settings, after: &Settings) -> Result<(), String> {
        let current = self.current();
        let unchanged = SettingsKey::of(now) == SettingsKey::of(after);
        let wanted = if unchanged {
            current.to_vec()
        } else {
            wanted(&self.startup, after).map_err(|e| e.to_string())?
        };
        // A listener that stays keeps its settings, but for its
        // certificates (Kafka's `DynamicListenerConfig`); a new one takes
        // any.
        let fixed = PER_LISTENER_SETTINGS
            .iter()
            .filter(|k| !DYNAMIC_PER_LISTENER_SETTINGS.contains(k));
        for l in wanted
            .iter()
            .filter(|l| current.iter().any(|o| o.name == l.name))
        {
            if fixed
                .clone()
                .any(|k| now.listener_value(&l.name, k) != after.listener_value(&l.name, k))
            {
                return Err(format!(
                    "Configs cannot be updated dynamically for existing listener {}, restart broker or create a new listener for update",
                    l.name
                ));
            }
        }
        if unchanged {
            return Ok(());
        }
        for l in &wanted {
            let old = current.iter().find(|o| o.name == l.name);
            if let Some(o) = old
                && o.protocol != l.protocol
            {
                return Err(format!(
                    "Security protocol cannot be updated for existing listener {}",
                    l.name
                ));
            }
            if !current.iter().any(|o| o.bind == l.bind) {
                StdListener::bind(l.bind)
                    .map_err(|e| format!("cannot listen on {} ({}): {e}", l.bind, l.name))?;
            }
            if l.protocol.tls() && old.is_none() {
                TlsContext::for_listener(after, &l.name)
                    .map_err(|e| format!("listener {}: {e}", l.name))?;
            }
        }
        Ok(())
    }
}

/// The listeners `settings` ask for: the start-up ones unless this
/// broker's dynamic settings change `listeners` or
/// `listener.security.protocol.map`.
pub fn wanted(startup: &[Listener], settings: &Settings) -> Result<Vec<Listener>, ListenerError> {
    if !LISTENER_SETTINGS
        .iter()
        .any(|k| settings.dynamics().contains_key(*k))
    {
        return Ok(startup.to_vec());
    }
    // The start-up configuration always writes `listeners` (`--kafka-addr`
    // as its one PLAINTEXT listener); a dynamic value replaces it.
    let spec = settings.get("listeners");
    let advertised = settings.get("advertised.listeners");
    let mut out = crate::listeners::parse(
        &spec,
        &advertised,
        &settings.get("listener.security.protocol.map"),
    )?;
    let named = crate::listeners::advertised_names(&advertised);
    for l in &mut out {
        if named.contains(&l.name) {
            continue;
        }
        if let Some(s) = startup
            .iter()
            .find(|s| s.name == l.name && s.bind == l.bind)
        {
            l.advertised_host = s.advertised_host.clone();
            l.advertised_port = s.advertised_port;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn startup() -> Vec<Listener> {
        crate::listeners::parse(
            "PLAINTEXT://127.0.0.1:19092",
            "PLAINTEXT://broker.example:9092",
            "PLAINTEXT:PLAINTEXT,SSL:SSL,INTERNAL:PLAINTEXT",
        )
        .unwrap()
    }

    fn with(dynamics: &[(&str, &str)]) -> Settings {
        let mut s = Settings::default();
        s.set_static("listeners", "PLAINTEXT://127.0.0.1:19092")
            .unwrap();
        s.set_static("advertised.listeners", "PLAINTEXT://broker.example:9092")
            .unwrap();
        s.set_static(
            "listener.security.protocol.map",
            "PLAINTEXT:PLAINTEXT,SSL:SSL,INTERNAL:PLAINTEXT",
        )
        .unwrap();
        for (k, v) in dynamics {
            s.set_dynamic(k, Some(v)).unwrap();
        }
        s
    }

    #[test]
    fn without_a_dynamic_value_the_startup_listeners_are_wanted() {
        assert_eq!(wanted(&startup(), &with(&[])).unwrap(), startup());
    }

    #[test]
    fn a_dynamic_listener_is_added_and_the_old_keeps_its_advertised_address() {
        let w = wanted(
            &startup(),
            &with(&[(
                "listeners",
                "PLAINTEXT://127.0.0.1:19092,INTERNAL://127.0.0.1:19093",
            )]),
        )
        .unwrap();
        assert_eq!(w.len(), 2);
        assert_eq!(w[0].advertised_host, "broker.example");
        assert_eq!(w[1].name, "INTERNAL");
        assert_eq!(
            (w[1].advertised_host.as_str(), w[1].advertised_port),
            ("127.0.0.1", 19093)
        );
    }

    #[test]
    fn an_unmapped_listener_is_an_error() {
        let e = wanted(
            &startup(),
            &with(&[(
                "listeners",
                "PLAINTEXT://127.0.0.1:19092,OTHER://127.0.0.1:19093",
            )]),
        )
        .unwrap_err();
        assert_eq!(e, ListenerError::Unmapped("OTHER".into()));
    }

    #[test]
    fn a_listener_in_force_changes_only_its_reconfigurable_settings() {
        let set = ListenerSet::new(startup(), BTreeMap::new());
        let now = with(&[]);
        let limit = with(&[("listener.name.plaintext.max.connections", "10")]);
        assert_eq!(set.check_change(&now, &limit), Ok(()));
        let auth = with(&[("listener.name.plaintext.sasl.enabled.mechanisms", "PLAIN")]);
        assert!(
            set.check_change(&now, &auth).unwrap_err().starts_with(
                "Configs cannot be updated dynamically for existing listener PLAINTEXT"
            )
        );
        // A listener not in force yet takes it.
        let other = with(&[("listener.name.internal.sasl.enabled.mechanisms", "PLAIN")]);
        assert_eq!(set.check_change(&now, &other), Ok(()));
    }

    #[test]
    fn a_listener_cannot_change_its_security_protocol() {
        let set = ListenerSet::new(startup(), BTreeMap::new());
        let now = with(&[]);
        let after = with(&[("listener.security.protocol.map", "PLAINTEXT:SSL,SSL:SSL")]);
        assert_eq!(
            set.check_change(&now, &after).unwrap_err(),
            "Security protocol cannot be updated for existing listener PLAINTEXT"
        );
    }
}
