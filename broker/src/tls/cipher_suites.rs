//! `ssl.cipher.suites`: which cipher suites the SSL listeners (and TLS
//! between brokers) offer, in which order of preference.
//!
//! Names are Kafka's (the JSSE / IANA names, such as
//! `TLS_AES_128_GCM_SHA256` or `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256`);
//! rustls's own spelling of the TLS 1.3 ones (`TLS13_AES_128_GCM_SHA256`)
//! is accepted too. Only suites rustls's ring provider implements exist
//! here (AEAD suites with ECDHE): a name it lacks is refused at start-up
//! with the list of those it has, rather than silently dropped.
//!
//! The server's order decides (`ignore_client_order`), as a JDK 13+
//! Kafka broker does by default: the listed order, or without a list
//! every suite with AES-128-GCM first. Why AES-128-GCM first: it is the
//! suite TLS 1.3 requires every implementation to have (RFC 8446, 9.1),
//! it is what browsers and Go's TLS servers on AES hardware prefer, and
//! AES-256 runs 14 rounds to its 10 on every byte (rustls's default
//! order, and so its clients', puts AES-256 first). Measured on the
//! benchmark machine (benches/RESULTS.md, 2026-12-06, stop 48): the
//! broker's CPU per GB over TLS went down 4 % consumed and 9 % produced.

use std::sync::Arc;

use rustls::CipherSuite;
use rustls::crypto::CryptoProvider;

/// A suite's Kafka (IANA) name: rustls spells the TLS 1.3 ones `TLS13_*`.
fn kafka_name(suite: CipherSuite) -> Option<String> {
    let name = suite.as_str()?;
    Some(match name.strip_prefix("TLS13_") {
        Some(rest) => format!("TLS_{rest}"),
        None => name.to_string(),
    })
}

/// Whether `suite` is an AES-128-GCM suite (preferred by default).
fn is_aes128_gcm(suite: CipherSuite) -> bool {
    suite.as_str().is_some_and(|n| n.contains("AES_128_GCM"))
}

/// The provider's suites, every name, for error messages.
fn available(provider: &CryptoProvider) -> String {
    provider
        .cipher_suites
        .iter()
        .filter_map(|s| kafka_name(s.suite()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The ring provider with every suite, AES-128-GCM first (the default).
pub fn default_provider() -> Arc<CryptoProvider> {
    let mut provider = rustls::crypto::ring::default_provider();
    // A stable sort: within each half, ring's own order.
    provider
        .cipher_suites
        .sort_by_key(|s| !is_aes128_gcm(s.suite()));
    Arc::new(provider)
}

/// The ring provider with the suites `setting` lists (comma-separated
/// Kafka names, in order of preference), or [`default_provider`] when it
/// is empty. Errors name the unknown suite and the ones there are.
pub fn provider(setting: &str) -> Result<Arc<CryptoProvider>, String> {
    let names: Vec<&str> = setting
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return Ok(default_provider());
    }
    let mut provider = rustls::crypto::ring::default_provider();
    let mut chosen = Vec::with_capacity(names.len());
    for name in names {
        let found = provider.cipher_suites.iter().find(|s| {
            let suite = s.suite();
            kafka_name(suite).is_some_and(|k| k.eq_ignore_ascii_case(name))
                || suite.as_str().is_some_and(|r| r.eq_ignore_ascii_case(name))
        });
        match found {
            Some(s) if !chosen.contains(s) => chosen.push(*s),
            Some(_) => {}
            None => {
                return Err(format!(
                    "{name} is not a cipher suite Tidemark has (rustls with ring): {}",
                    available(&provider)
                ));
            }
        }
    }
    provider.cipher_suites = chosen;
    Ok(Arc::new(provider))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &CryptoProvider) -> Vec<String> {
        p.cipher_suites
            .iter()
            .filter_map(|s| kafka_name(s.suite()))
            .collect()
    }

    #[test]
    fn the_default_is_every_suite_with_aes_128_gcm_first() {
        let p = provider("").unwrap();
        let all = names(&rustls::crypto::ring::default_provider());
        let got = names(&p);
        assert_eq!(got.len(), all.len());
        assert_eq!(got[0], "TLS_AES_128_GCM_SHA256");
        let first_other = got.iter().position(|n| !n.contains("AES_128_GCM")).unwrap();
        assert!(
            got[first_other..]
                .iter()
                .all(|n| !n.contains("AES_128_GCM"))
        );
        for n in &all {
            assert!(got.contains(n), "{n} missing");
        }
    }

    #[test]
    fn a_list_keeps_its_order_and_takes_both_spellings() {
        let p = provider(
            " TLS_CHACHA20_POLY1305_SHA256, tls13_aes_256_gcm_sha384,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_CHACHA20_POLY1305_SHA256",
        )
        .unwrap();
        assert_eq!(
            names(&p),
            [
                "TLS_CHACHA20_POLY1305_SHA256",
                "TLS_AES_256_GCM_SHA384",
                "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
            ]
        );
    }

    #[test]
    fn an_unknown_suite_is_refused_with_the_known_ones() {
        let e = provider("TLS_AES_128_GCM_SHA256,TLS_RSA_WITH_AES_128_CBC_SHA").unwrap_err();
        assert!(e.starts_with("TLS_RSA_WITH_AES_128_CBC_SHA is not"), "{e}");
        assert!(e.contains("TLS_AES_256_GCM_SHA384"), "{e}");
    }
}
