//! Kafka-style listeners: `listeners` (`NAME://HOST:PORT,...`),
//! `advertised.listeners` and `listener.security.protocol.map`. Each
//! listener has its own port and security protocol; a client is told the
//! addresses of the listener its connection came in on.

use std::net::{SocketAddr, ToSocketAddrs};

use serde::{Deserialize, Serialize};

/// A listener's security protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecurityProtocol {
    Plaintext,
    Ssl,
    SaslPlaintext,
    SaslSsl,
}

impl SecurityProtocol {
    /// Whether the connection is TLS.
    pub fn tls(self) -> bool {
        matches!(self, SecurityProtocol::Ssl | SecurityProtocol::SaslSsl)
    }

    /// Whether clients must authenticate with SASL first.
    pub fn sasl(self) -> bool {
        matches!(
            self,
            SecurityProtocol::SaslPlaintext | SecurityProtocol::SaslSsl
        )
    }
}

/// One listener: where it binds and what clients are told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listener {
    /// The listener name, upper case (`PLAINTEXT`, `SSL`, `INTERNAL`...).
    pub name: String,
    pub protocol: SecurityProtocol,
    pub bind: SocketAddr,
    pub advertised_host: String,
    pub advertised_port: u16,
}

/// A listener's advertised address as registered with the controller, so
/// other brokers can tell clients of that listener where this one is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    pub name: String,
    pub host: String,
    pub port: u16,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ListenerError {
    #[error("invalid listener '{0}': expected NAME://HOST:PORT")]
    Syntax(String),
    #[error("listener '{0}': port 0 is not supported (every shard binds the same port)")]
    PortZero(String),
    #[error("listener name {0} appears twice")]
    DuplicateName(String),
    #[error("listeners {0} and {1} use the same port")]
    DuplicatePort(String, String),
    #[error("listener {0} has no entry in listener.security.protocol.map")]
    Unmapped(String),
    #[error("invalid listener.security.protocol.map entry '{0}': expected NAME:PROTOCOL")]
    MapSyntax(String),
    #[error("listener {name}: unknown security protocol {protocol}")]
    UnknownProtocol { name: String, protocol: String },
    #[error("advertised.listeners names {0}, which is not in listeners")]
    AdvertisedUnknown(String),
    #[error("advertised.listeners entry '{0}' needs a host")]
    AdvertisedNoHost(String),
    #[error("cannot resolve listener address '{0}'")]
    Resolve(String),
    #[error("no listeners")]
    Empty,
}

/// `NAME://HOST:PORT` split into its parts (host may be empty or
/// bracketed IPv6).
fn split_listener(item: &str) -> Result<(String, String, u16), ListenerError> {
    let bad = || ListenerError::Syntax(item.to_string());
    let (name, addr) = item.split_once("://").ok_or_else(bad)?;
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(bad());
    }
    let (host, port) = addr.rsplit_once(':').ok_or_else(bad)?;
    let port: u16 = port.trim().parse().map_err(|_| bad())?;
    let host = host.trim().trim_start_matches('[').trim_end_matches(']');
    Ok((name.to_ascii_uppercase(), host.to_string(), port))
}

fn items(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// Parses `listener.security.protocol.map`.
fn parse_map(text: &str) -> Result<Vec<(String, String)>, ListenerError> {
    items(text)
        .map(|item| {
            let (n, p) = item
                .split_once(':')
                .ok_or_else(|| ListenerError::MapSyntax(item.to_string()))?;
            Ok((n.trim().to_ascii_uppercase(), p.trim().to_ascii_uppercase()))
        })
        .collect()
}

/// Builds the listeners from the three settings.
pub fn parse(
    listeners: &str,
    advertised: &str,
    protocol_map: &str,
) -> Result<Vec<Listener>, ListenerError> {
    let map = parse_map(protocol_map)?;
    let mut out: Vec<Listener> = Vec::new();
    for item in items(listeners) {
        let (name, host, port) = split_listener(item)?;
        if port == 0 {
            return Err(ListenerError::PortZero(item.to_string()));
        }
        if out.iter().any(|l| l.name == name) {
            return Err(ListenerError::DuplicateName(name));
        }
        let protocol = map
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| p.clone())
            .ok_or_else(|| ListenerError::Unmapped(name.clone()))?;
        let protocol = match protocol.as_str() {
            "PLAINTEXT" => SecurityProtocol::Plaintext,
            "SSL" => SecurityProtocol::Ssl,
            "SASL_PLAINTEXT" => SecurityProtocol::SaslPlaintext,
            "SASL_SSL" => SecurityProtocol::SaslSsl,
            _ => return Err(ListenerError::UnknownProtocol { name, protocol }),
        };
        let bind_host = if host.is_empty() {
            "0.0.0.0"
        } else {
            host.as_str()
        };
        let text = if bind_host.contains(':') {
            format!("[{bind_host}]:{port}")
        } else {
            format!("{bind_host}:{port}")
        };
        let bind = text
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or(ListenerError::Resolve(text))?;
        if let Some(other) = out.iter().find(|l| l.bind.port() == port) {
            return Err(ListenerError::DuplicatePort(other.name.clone(), name));
        }
        // As before listeners existed: a wildcard bind advertises 127.0.0.1
        // unless advertised.listeners says otherwise.
        let advertised_host = if host.is_empty() || bind.ip().is_unspecified() {
            "127.0.0.1".to_string()
        } else {
            host.clone()
        };
        out.push(Listener {
            name,
            protocol,
            bind,
            advertised_host,
            advertised_port: port,
        });
    }
    if out.is_empty() {
        return Err(ListenerError::Empty);
    }
    for item in items(advertised) {
        let (name, host, port) = split_listener(item)?;
        if host.is_empty() {
            return Err(ListenerError::AdvertisedNoHost(item.to_string()));
        }
        let l = out
            .iter_mut()
            .find(|l| l.name == name)
            .ok_or(ListenerError::AdvertisedUnknown(name))?;
        l.advertised_host = host;
        l.advertised_port = port;
    }
    Ok(out)
}

/// The listener names `advertised.listeners` gives an address to.
pub fn advertised_names(advertised: &str) -> Vec<String> {
    items(advertised)
        .filter_map(|item| split_listener(item).ok().map(|(name, _, _)| name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL";

    #[test]
    fn two_listeners_and_advertised() {
        let l = parse(
            "PLAINTEXT://127.0.0.1:9092, SSL://:9093",
            "SSL://broker1.example.com:19093",
            MAP,
        )
        .unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].protocol, SecurityProtocol::Plaintext);
        assert_eq!(
            (l[0].advertised_host.as_str(), l[0].advertised_port),
            ("127.0.0.1", 9092)
        );
        assert_eq!(l[1].protocol, SecurityProtocol::Ssl);
        assert!(l[1].bind.ip().is_unspecified());
        assert_eq!(
            (l[1].advertised_host.as_str(), l[1].advertised_port),
            ("broker1.example.com", 19093)
        );
    }

    #[test]
    fn custom_names_and_errors() {
        let l = parse(
            "INTERNAL://127.0.0.1:1,EXTERNAL://127.0.0.1:2",
            "",
            "INTERNAL:PLAINTEXT,EXTERNAL:SSL",
        )
        .unwrap();
        assert_eq!(l[1].name, "EXTERNAL");
        assert_eq!(l[1].protocol, SecurityProtocol::Ssl);
        let err = |a: &str, b: &str, m: &str| parse(a, b, m).unwrap_err();
        let sasl = parse(
            "SASL_PLAINTEXT://127.0.0.1:1,SASL_SSL://127.0.0.1:2",
            "",
            MAP,
        )
        .unwrap();
        assert_eq!(sasl[0].protocol, SecurityProtocol::SaslPlaintext);
        assert!(sasl[1].protocol.tls() && sasl[1].protocol.sasl());
        assert!(matches!(
            err("X://127.0.0.1:1", "", MAP),
            ListenerError::Unmapped(_)
        ));
        assert!(matches!(
            err("PLAINTEXT://127.0.0.1:1,SSL://127.0.0.1:1", "", MAP),
            ListenerError::DuplicatePort(..)
        ));
        assert!(matches!(
            err("PLAINTEXT://127.0.0.1:1,PLAINTEXT://127.0.0.1:2", "", MAP),
            ListenerError::DuplicateName(_)
        ));
        assert!(matches!(
            err("127.0.0.1:1", "", MAP),
            ListenerError::Syntax(_)
        ));
        assert!(matches!(
            err("PLAINTEXT://127.0.0.1:0", "", MAP),
            ListenerError::PortZero(_)
        ));
        assert!(matches!(
            err("PLAINTEXT://127.0.0.1:1", "SSL://h:2", MAP),
            ListenerError::AdvertisedUnknown(_)
        ));
        assert!(matches!(err("", "", MAP), ListenerError::Empty));
        assert!(matches!(
            err("A://127.0.0.1:1", "", "A:TLS"),
            ListenerError::UnknownProtocol { .. }
        ));
    }
}
