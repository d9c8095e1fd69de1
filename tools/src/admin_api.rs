//! The brokers' admin HTTP API (`--admin-addr`, rpk's `admin.hosts`), for
//! what the Kafka protocol has no API for: maintenance mode and
//! decommissioning.
//!
//! One request per connection (`Connection: close`), HTTP/1.1 over a std
//! `TcpStream` (HTTPS with `admin.tls.enabled`: rustls through
//! `tidemark_client::tls_stream`), the response head parsed by `httparse` (the crate
//! the broker's server parses requests with). A full HTTP client crate
//! would bring URL and IDNA parsing and a connection pool for a handful of
//! requests to addresses the operator gives.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use tidemark_client::TlsConfig;

use crate::errors::{Result, TmkError};

/// The largest response read (a status document is a few hundred bytes).
const RESPONSE_MAX_BYTES: usize = 4 << 20;

/// The admin API of a cluster, reached through any of `hosts`.
pub struct AdminApi {
    hosts: Vec<String>,
    /// Sent as `Authorization: Bearer` when set.
    token: Option<String>,
    /// HTTPS, trusting what this says, when set.
    tls: Option<TlsConfig>,
    timeout_ms: u64,
}

/// A response: status code and body.
pub struct Response {
    pub status: u16,
    pub body: String,
}

impl AdminApi {
    pub fn new(
        hosts: Vec<String>,
        token: Option<String>,
        tls: Option<TlsConfig>,
        timeout_ms: u64,
    ) -> AdminApi {
        AdminApi {
            hosts,
            token,
            tls,
            timeout_ms,
        }
    }

    /// Sends `method path` to the first host that accepts a connection.
    /// An HTTP error status is returned as a response, not an error: the
    /// caller words it.
    pub fn request(&self, method: &str, path: &str) -> Result<Response> {
        let mut last = String::from("no admin host configured");
        for host in &self.hosts {
            match self.request_to(host, method, path) {
                Ok(r) => return Ok(r),
                Err(e) => last = format!("{host}: {e}"),
            }
        }
        Err(TmkError::msg(format!("admin API {method} {path}: {last}"))
            .with_hint("set the brokers' admin addresses with -X admin.hosts=host:9644"))
    }

    /// `request`, with a non-2xx status turned into an error carrying the
    /// broker's message.
    pub fn call(&self, method: &str, path: &str) -> Result<String> {
        let r = self.request(method, path)?;
        if (200..300).contains(&r.status) {
            return Ok(r.body);
        }
        let message = serde_json::from_str::<serde_json::Value>(&r.body)
            .ok()
            .and_then(|v| v.get("error").and_then(|m| m.as_str()).map(String::from))
            .unwrap_or_else(|| r.body.trim().to_string());
        let e = TmkError::msg(format!(
            "admin API {method} {path}: HTTP {}: {message}",
            r.status
        ));
        Err(if r.status == 401 {
            e.with_hint(if self.token.is_some() {
                "the admin token was refused: check -X admin.token (or TIDEMARK_ADMIN_TOKEN) against the brokers' TIDEMARK_ADMIN_TOKEN"
            } else {
                "the brokers' admin API wants a token: -X admin.token=TOKEN or TIDEMARK_ADMIN_TOKEN"
            })
        } else {
            e
        })
    }

    fn request_to(&self, host: &str, method: &str, path: &str) -> std::io::Result<Response> {
        let timeout = Duration::from_millis(self.timeout_ms.max(1));
        let addr = host
            .to_socket_addrs()?
            .next()
            .ok_or_else(|| std::io::Error::other("the address resolves to nothing"))?;
        let s = TcpStream::connect_timeout(&addr, timeout)?;
        s.set_read_timeout(Some(timeout))?;
        s.set_write_timeout(Some(timeout))?;
        match &self.tls {
            None => self.exchange(s, host, method, path),
            Some(cfg) => {
                let name = host_name(host);
                let tls = tidemark_client::tls_stream(cfg, name, s)
                    .map_err(|e| std::io::Error::other(e.to_string()))?;
                self.exchange(tls, host, method, path)
            }
        }
    }

    /// Writes the request on `s` and reads the whole response.
    fn exchange<S: Read + Write>(
        &self,
        mut s: S,
        host: &str,
        method: &str,
        path: &str,
    ) -> std::io::Result<Response> {
        let auth = match &self.token {
            Some(t) => format!("Authorization: Bearer {t}\r\n"),
            None => String::new(),
        };
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{auth}Content-Length: 0\r\nConnection: close\r\n\r\n"
        )?;
        s.flush()?;
        let mut buf = Vec::new();
        s.take(RESPONSE_MAX_BYTES as u64 + 1)
            .read_to_end(&mut buf)?;
        if buf.len() > RESPONSE_MAX_BYTES {
            return Err(std::io::Error::other("response too large"));
        }
        parse_response(&buf)
    }
}

/// The name a certificate is checked against: `host` without its port
/// (and an IPv6 address without its brackets).
fn host_name(host: &str) -> &str {
    let name = match host.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host,
    };
    name.trim_start_matches('[').trim_end_matches(']')
}

/// Status and body of a whole `Connection: close` response.
fn parse_response(buf: &[u8]) -> std::io::Result<Response> {
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut r = httparse::Response::new(&mut headers);
    let head = match r.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => {
            return Err(std::io::Error::other("the response ended inside its head"));
        }
        Err(e) => return Err(std::io::Error::other(format!("bad response: {e}"))),
    };
    let status = r.code.unwrap_or(0);
    let length = r
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("content-length"))
        .and_then(|h| {
            std::str::from_utf8(h.value)
                .ok()?
                .trim()
                .parse::<usize>()
                .ok()
        });
    let mut body = &buf[head..];
    if let Some(n) = length {
        body = &body[..n.min(body.len())];
    }
    Ok(Response {
        status,
        body: String::from_utf8_lossy(body).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_certificate_name_is_the_host_without_its_port() {
        assert_eq!(host_name("127.0.0.1:9644"), "127.0.0.1");
        assert_eq!(host_name("broker-1.example:9644"), "broker-1.example");
        assert_eq!(host_name("[::1]:9644"), "::1");
        assert_eq!(host_name("localhost"), "localhost");
    }

    #[test]
    fn a_response_is_parsed_to_its_status_and_body() {
        let r = parse_response(
            b"HTTP/1.1 400 Bad Request\r\nContent-Length: 13\r\n\r\n{\"message\":1}extra",
        )
        .unwrap();
        assert_eq!(r.status, 400);
        assert_eq!(r.body, "{\"message\":1}");
        assert!(parse_response(b"HTTP/1.1 200 OK\r\nContent-Le").is_err());
        assert!(parse_response(b"garbage\r\n\r\n").is_err());
    }
}
