//! SASL authentication for SASL_PLAINTEXT and SASL_SSL listeners:
//! SaslHandshake v1 + SaslAuthenticate (KIP-152), mechanisms PLAIN,
//! SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802 / 7677, as Kafka's
//! `ScramSaslServer`), on ring's PBKDF2, HMAC and digests.
//!
//! Credentials are kept salted, as SCRAM stores them (salt, iterations,
//! StoredKey, ServerKey), never the password: a leaked metadata file does
//! not give a password away, and the client proves it knows the password
//! without sending it. They live in the cluster metadata ([`ScramUsers`]
//! in `metadata::ClusterMetadata::scram`), changed by
//! AlterUserScramCredentials (`handlers/scram_users.rs`) through the
//! controller log (cluster) or `metadata.json` (single node), so every
//! broker of a cluster authenticates the same users and a change survives
//! restarts. Each exchange reads the snapshot of its connection's shard.
//! PLAIN is checked against the user's SCRAM-SHA-256 credential, else the
//! SCRAM-SHA-512 one (the password is derived with that credential's salt
//! and iterations and compared with its StoredKey).
//!
//! `TIDEMARK_BOOTSTRAP_USER=name:password` creates both SCRAM credentials
//! of that user at start-up if the user has none yet ([`BootstrapUser`]),
//! so that a first administrator can log in and create the others; a
//! password changed later is not reset by a restart.

use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use kafka_protocol::ErrorCode;
use ring::rand::SecureRandom;
use ring::{digest, hmac, pbkdf2};

/// Iterations for the credentials this broker creates (Kafka's minimum).
pub const SCRAM_ITERATIONS: u32 = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mechanism {
    Plain,
    ScramSha256,
    ScramSha512,
}

impl Mechanism {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "PLAIN" => Some(Mechanism::Plain),
            "SCRAM-SHA-256" => Some(Mechanism::ScramSha256),
            "SCRAM-SHA-512" => Some(Mechanism::ScramSha512),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mechanism::Plain => "PLAIN",
            Mechanism::ScramSha256 => "SCRAM-SHA-256",
            Mechanism::ScramSha512 => "SCRAM-SHA-512",
        }
    }
}

/// The SCRAM algorithms (named as the SASL mechanisms in the metadata).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum ScramHash {
    #[serde(rename = "SCRAM-SHA-256")]
    Sha256,
    #[serde(rename = "SCRAM-SHA-512")]
    Sha512,
}

impl ScramHash {
    pub const ALL: [ScramHash; 2] = [ScramHash::Sha256, ScramHash::Sha512];

    /// Kafka's `ScramMechanism` type on the wire (1: SCRAM-SHA-256,
    /// 2: SCRAM-SHA-512; 0 is UNKNOWN).
    pub fn from_type(t: i8) -> Option<Self> {
        match t {
            1 => Some(ScramHash::Sha256),
            2 => Some(ScramHash::Sha512),
            _ => None,
        }
    }

    pub fn to_type(self) -> i8 {
        match self {
            ScramHash::Sha256 => 1,
            ScramHash::Sha512 => 2,
        }
    }

    pub fn mechanism(self) -> Mechanism {
        match self {
            ScramHash::Sha256 => Mechanism::ScramSha256,
            ScramHash::Sha512 => Mechanism::ScramSha512,
        }
    }

    fn pbkdf2(self) -> pbkdf2::Algorithm {
        match self {
            ScramHash::Sha256 => pbkdf2::PBKDF2_HMAC_SHA256,
            ScramHash::Sha512 => pbkdf2::PBKDF2_HMAC_SHA512,
        }
    }
    fn hmac(self) -> hmac::Algorithm {
        match self {
            ScramHash::Sha256 => hmac::HMAC_SHA256,
            ScramHash::Sha512 => hmac::HMAC_SHA512,
        }
    }
    fn digest(self) -> &'static digest::Algorithm {
        match self {
            ScramHash::Sha256 => &digest::SHA256,
            ScramHash::Sha512 => &digest::SHA512,
        }
    }
    fn len(self) -> usize {
        match self {
            ScramHash::Sha256 => 32,
            ScramHash::Sha512 => 64,
        }
    }
}

fn hmac(h: ScramHash, key: &[u8], data: &[u8]) -> Vec<u8> {
    hmac::sign(&hmac::Key::new(h.hmac(), key), data)
        .as_ref()
        .to_vec()
}

/// One user's credential for one SCRAM algorithm. Stored in the metadata
/// (JSON) with the byte fields as base64 strings.
#[derive(Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScramCredential {
    #[serde(with = "b64")]
    pub salt: Vec<u8>,
    pub iterations: u32,
    #[serde(with = "b64")]
    pub stored_key: Vec<u8>,
    #[serde(with = "b64")]
    pub server_key: Vec<u8>,
}

/// Leaves the keys out: a credential may end up in a log line through a
/// `{:?}` of a command, and StoredKey is what an attacker needs for an
/// offline dictionary attack.
impl std::fmt::Debug for ScramCredential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScramCredential")
            .field("iterations", &self.iterations)
            .finish_non_exhaustive()
    }
}

/// Byte fields as base64 strings in the metadata's JSON.
mod b64 {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&STANDARD.encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        STANDARD.decode(text).map_err(serde::de::Error::custom)
    }
}

impl ScramCredential {
    /// Derives the credential of `password` with a fresh random salt.
    pub fn new(h: ScramHash, password: &str, iterations: u32) -> Self {
        let mut salt = vec![0u8; 16];
        let _ = ring::rand::SystemRandom::new().fill(&mut salt);
        Self::with_salt(h, password, salt, iterations)
    }

    pub fn with_salt(h: ScramHash, password: &str, salt: Vec<u8>, iterations: u32) -> Self {
        let salted = salted_password(h, password, &salt, iterations);
        Self::from_salted_password(h, salt, &salted, iterations)
    }

    /// The credential of a password the client already salted
    /// (AlterUserScramCredentials sends SaltedPassword = Hi(password,
    /// salt, iterations), never the password): StoredKey =
    /// H(HMAC(SaltedPassword, "Client Key")), ServerKey =
    /// HMAC(SaltedPassword, "Server Key").
    pub fn from_salted_password(
        h: ScramHash,
        salt: Vec<u8>,
        salted: &[u8],
        iterations: u32,
    ) -> Self {
        let client_key = hmac(h, salted, b"Client Key");
        let stored_key = digest::digest(h.digest(), &client_key).as_ref().to_vec();
        let server_key = hmac(h, salted, b"Server Key");
        ScramCredential {
            salt,
            iterations,
            stored_key,
            server_key,
        }
    }

    /// Whether `password` is the one this credential was made from.
    fn check_password(&self, h: ScramHash, password: &str) -> bool {
        let salted = salted_password(h, password, &self.salt, self.iterations);
        let client_key = hmac(h, &salted, b"Client Key");
        let stored = digest::digest(h.digest(), &client_key);
        ct_eq(stored.as_ref(), &self.stored_key)
    }
}

/// Equality that takes the same time wherever the first difference is.
fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn salted_password(h: ScramHash, password: &str, salt: &[u8], iterations: u32) -> Vec<u8> {
    let mut out = vec![0u8; h.len()];
    let iterations =
        std::num::NonZeroU32::new(iterations.max(1)).unwrap_or(std::num::NonZeroU32::MIN);
    pbkdf2::derive(h.pbkdf2(), iterations, salt, password.as_bytes(), &mut out);
    out
}

/// Every user's SCRAM credentials, by user and algorithm: what the
/// metadata stores and the exchange reads. An `imbl` map, so that the
/// shards' metadata snapshot shares it (a change copies the tree nodes it
/// touches, never every user). Encoded as a JSON object
/// `{user: {mechanism: credential}}`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScramUsers(imbl::OrdMap<String, BTreeMap<ScramHash, ScramCredential>>);

impl ScramUsers {
    pub fn get(&self, user: &str, h: ScramHash) -> Option<&ScramCredential> {
        self.0.get(user).and_then(|m| m.get(&h))
    }

    /// A user's credentials (none: `None`, never an empty map).
    pub fn user(&self, user: &str) -> Option<&BTreeMap<ScramHash, ScramCredential>> {
        self.0.get(user)
    }

    /// Every user with at least one credential, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &BTreeMap<ScramHash, ScramCredential>)> {
        self.0.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn upsert(&mut self, user: &str, h: ScramHash, cred: ScramCredential) {
        self.0.entry(user.to_string()).or_default().insert(h, cred);
    }

    /// Removes one credential; a user left with none is removed. Whether
    /// there was one.
    pub fn remove(&mut self, user: &str, h: ScramHash) -> bool {
        let Some(m) = self.0.get_mut(user) else {
            return false;
        };
        let had = m.remove(&h).is_some();
        if m.is_empty() {
            self.0.remove(user);
        }
        had
    }
}

impl serde::Serialize for ScramUsers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter())
    }
}

impl<'de> serde::Deserialize<'de> for ScramUsers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = BTreeMap::<String, BTreeMap<ScramHash, ScramCredential>>::deserialize(d)?;
        Ok(ScramUsers(
            m.into_iter().filter(|(_, c)| !c.is_empty()).collect(),
        ))
    }
}

/// `TIDEMARK_BOOTSTRAP_USER=name:password`: a user given both SCRAM
/// credentials at start-up unless it has credentials already. Only the
/// salted credentials are kept (fresh random salts), not the password.
#[derive(Debug, Clone)]
pub struct BootstrapUser {
    pub name: String,
    pub credentials: Vec<(ScramHash, ScramCredential)>,
}

impl BootstrapUser {
    /// From `TIDEMARK_BOOTSTRAP_USER`, if set; an error (which never
    /// quotes the value: it holds a password) if it is not `name:password`.
    pub fn from_env() -> Result<Option<Self>, String> {
        let Ok(v) = std::env::var("TIDEMARK_BOOTSTRAP_USER") else {
            return Ok(None);
        };
        let (name, password) = v
            .split_once(':')
            .filter(|(n, p)| !n.is_empty() && !p.is_empty())
            .ok_or("TIDEMARK_BOOTSTRAP_USER must be name:password")?;
        Ok(Some(Self::new(name, password)))
    }

    pub fn new(name: &str, password: &str) -> Self {
        BootstrapUser {
            name: name.to_string(),
            credentials: ScramHash::ALL
                .iter()
                .map(|&h| (h, ScramCredential::new(h, password, SCRAM_ITERATIONS)))
                .collect(),
        }
    }
}

/// Why an authentication failed: what the client is told (Kafka's words;
/// never which part was wrong) and what is logged.
#[derive(Debug)]
pub struct AuthFailure {
    pub code: ErrorCode,
    pub message: String,
    /// The user name the client gave, if any (for the log line).
    pub user: Option<String>,
}

/// What a SaslAuthenticate step produced.
pub enum Step {
    /// Send these bytes and wait for the next SaslAuthenticate.
    Continue(Vec<u8>),
    /// Authenticated as this user; send these bytes (may be empty).
    Done { user: String, reply: Vec<u8> },
}

/// The SASL exchange of one connection.
pub enum Session {
    /// Waiting for SaslHandshake.
    Start,
    /// Mechanism chosen, first SaslAuthenticate expected.
    Chosen(Mechanism),
    /// SCRAM: server-first sent, client-final expected.
    ScramFinal {
        h: ScramHash,
        user: String,
        nonce: String,
        client_first_bare: String,
        server_first: String,
    },
    /// Authenticated.
    Done,
    /// An exchange failed: nothing more is accepted (the connection closes).
    Failed,
}

fn failed(mech: Mechanism, user: Option<String>) -> AuthFailure {
    AuthFailure {
        code: ErrorCode::SaslAuthenticationFailed,
        message: format!(
            "Authentication failed during authentication due to invalid credentials with SASL mechanism {}",
            mech.name()
        ),
        user,
    }
}

fn bad_message(mech: Mechanism, why: &str) -> AuthFailure {
    AuthFailure {
        code: ErrorCode::SaslAuthenticationFailed,
        message: format!(
            "Authentication failed: invalid {} message: {why}",
            mech.name()
        ),
        user: None,
    }
}

/// SCRAM's saslname: `=2C` is `,` and `=3D` is `=`.
fn decode_saslname(s: &str) -> Option<String> {
    let out = s.replace("=2C", ",").replace("=3D", "=");
    (!out.contains('=')).then_some(out)
}

impl Session {
    /// Runs one SaslAuthenticate step. The session is `Done` only after
    /// a successful last step and `Failed` after any error.
    pub fn step(&mut self, users: &ScramUsers, bytes: &[u8]) -> Result<Step, AuthFailure> {
        let r = self.step_inner(users, bytes);
        match &r {
            Ok(Step::Done { .. }) => *self = Session::Done,
            Ok(Step::Continue(_)) => {}
            Err(_) => *self = Session::Failed,
        }
        r
    }

    fn step_inner(&mut self, users: &ScramUsers, bytes: &[u8]) -> Result<Step, AuthFailure> {
        match std::mem::replace(self, Session::Failed) {
            Session::Chosen(Mechanism::Plain) => plain(users, bytes),
            Session::Chosen(m @ (Mechanism::ScramSha256 | Mechanism::ScramSha512)) => {
                let h = if m == Mechanism::ScramSha256 {
                    ScramHash::Sha256
                } else {
                    ScramHash::Sha512
                };
                let text = std::str::from_utf8(bytes).map_err(|_| bad_message(m, "not UTF-8"))?;
                // gs2 header: no channel binding, no authzid other than the user.
                let rest = text
                    .strip_prefix("n,")
                    .or_else(|| text.strip_prefix("y,"))
                    .ok_or_else(|| bad_message(m, "channel binding is not supported"))?;
                let (_authzid, bare) = rest
                    .split_once(',')
                    .ok_or_else(|| bad_message(m, "no gs2 header"))?;
                let mut user = None;
                let mut cnonce = None;
                for attr in bare.split(',') {
                    if let Some(v) = attr.strip_prefix("n=") {
                        user = decode_saslname(v);
                    } else if let Some(v) = attr.strip_prefix("r=") {
                        cnonce = Some(v.to_string());
                    }
                }
                let (Some(user), Some(cnonce)) = (user, cnonce) else {
                    return Err(bad_message(m, "no user name or nonce"));
                };
                // An unknown user gets a made-up salt so that the exchange
                // looks the same; the proof then fails.
                let (salt, iterations) = match users.get(&user, h) {
                    Some(c) => (c.salt.clone(), c.iterations),
                    None => (
                        digest::digest(&digest::SHA256, user.as_bytes()).as_ref()[..16].to_vec(),
                        SCRAM_ITERATIONS,
                    ),
                };
                let mut snonce = [0u8; 18];
                let _ = ring::rand::SystemRandom::new().fill(&mut snonce);
                let nonce = format!("{cnonce}{}", B64.encode(snonce));
                let server_first = format!("r={nonce},s={},i={iterations}", B64.encode(&salt));
                let reply = server_first.clone().into_bytes();
                *self = Session::ScramFinal {
                    h,
                    user,
                    nonce,
                    client_first_bare: bare.to_string(),
                    server_first,
                };
                Ok(Step::Continue(reply))
            }
            Session::ScramFinal {
                h,
                user,
                nonce,
                client_first_bare,
                server_first,
            } => {
                let m = if h == ScramHash::Sha256 {
                    Mechanism::ScramSha256
                } else {
                    Mechanism::ScramSha512
                };
                let text = std::str::from_utf8(bytes).map_err(|_| bad_message(m, "not UTF-8"))?;
                let (without_proof, proof) = text
                    .rsplit_once(",p=")
                    .ok_or_else(|| bad_message(m, "no proof"))?;
                let mut got_nonce = None;
                for attr in without_proof.split(',') {
                    if let Some(v) = attr.strip_prefix("r=") {
                        got_nonce = Some(v);
                    }
                }
                if got_nonce != Some(nonce.as_str()) {
                    return Err(bad_message(m, "nonce mismatch"));
                }
                let proof = B64
                    .decode(proof)
                    .map_err(|_| bad_message(m, "proof is not base64"))?;
                let Some(cred) = users.get(&user, h) else {
                    return Err(failed(m, Some(user)));
                };
                let auth_message = format!("{client_first_bare},{server_first},{without_proof}");
                let client_signature = hmac(h, &cred.stored_key, auth_message.as_bytes());
                if proof.len() != client_signature.len() {
                    return Err(failed(m, Some(user)));
                }
                let client_key: Vec<u8> = proof
                    .iter()
                    .zip(&client_signature)
                    .map(|(a, b)| a ^ b)
                    .collect();
                let stored = digest::digest(h.digest(), &client_key);
                if !ct_eq(stored.as_ref(), &cred.stored_key) {
                    return Err(failed(m, Some(user)));
                }
                let server_signature = hmac(h, &cred.server_key, auth_message.as_bytes());
                let reply = format!("v={}", B64.encode(server_signature)).into_bytes();
                Ok(Step::Done { user, reply })
            }
            Session::Start | Session::Done | Session::Failed => Err(AuthFailure {
                code: ErrorCode::IllegalSaslState,
                message: "SaslAuthenticate is not expected now".to_string(),
                user: None,
            }),
        }
    }
}

/// PLAIN: `authzid NUL authcid NUL password`, checked against the
/// user's SCRAM-SHA-256 credential, else its SCRAM-SHA-512 one (a user
/// whose SHA-256 credential was deleted still logs in with PLAIN).
fn plain(users: &ScramUsers, bytes: &[u8]) -> Result<Step, AuthFailure> {
    let m = Mechanism::Plain;
    let text = std::str::from_utf8(bytes).map_err(|_| bad_message(m, "not UTF-8"))?;
    let mut parts = text.split('\0');
    let (Some(authzid), Some(user), Some(password), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad_message(m, "expected authzid, user and password"));
    };
    if user.is_empty() || password.is_empty() {
        return Err(bad_message(m, "empty user or password"));
    }
    if !authzid.is_empty() && authzid != user {
        return Err(failed(m, Some(user.to_string())));
    }
    let stored = ScramHash::ALL
        .iter()
        .find_map(|&h| users.get(user, h).map(|c| (h, c)));
    match stored {
        Some((h, c)) if c.check_password(h, password) => Ok(Step::Done {
            user: user.to_string(),
            reply: Vec::new(),
        }),
        _ => Err(failed(m, Some(user.to_string()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7677's SCRAM-SHA-256 example: user "user", password "pencil".
    #[test]
    fn rfc7677_example() {
        let salt = B64.decode("W22ZaJ0SNY7soEsUEjb6gQ==").unwrap();
        let cred = ScramCredential::with_salt(ScramHash::Sha256, "pencil", salt, 4096);
        let mut users = ScramUsers::default();
        users.upsert("user", ScramHash::Sha256, cred);
        let client_first_bare = "n=user,r=rOprNGfwEbeRWgbNEkqO";
        let server_first = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
        let mut s = Session::ScramFinal {
            h: ScramHash::Sha256,
            user: "user".into(),
            nonce: "rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0".into(),
            client_first_bare: client_first_bare.into(),
            server_first: server_first.into(),
        };
        let client_final = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
        match s.step(&users, client_final.as_bytes()) {
            Ok(Step::Done { user, reply }) => {
                assert_eq!(user, "user");
                assert_eq!(
                    String::from_utf8(reply).unwrap(),
                    "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="
                );
            }
            _ => panic!("the RFC's proof must be accepted"),
        }
        // A wrong proof is refused with Kafka's error.
        let mut s = Session::ScramFinal {
            h: ScramHash::Sha256,
            user: "user".into(),
            nonce: "abc".into(),
            client_first_bare: "n=user,r=a".into(),
            server_first: "r=abc,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096".into(),
        };
        let bad = format!("c=biws,r=abc,p={}", B64.encode([0u8; 32]));
        match s.step(&users, bad.as_bytes()) {
            Err(e) => assert_eq!(e.code, ErrorCode::SaslAuthenticationFailed),
            Ok(_) => panic!("a wrong proof must be refused"),
        }
    }

    #[test]
    fn plain_checks_the_stored_credential() {
        let mut users = ScramUsers::default();
        for (h, c) in BootstrapUser::new("alice", "s3cret").credentials {
            users.upsert("alice", h, c);
        }
        assert!(matches!(
            plain(&users, b"\0alice\0s3cret"),
            Ok(Step::Done { .. })
        ));
        assert!(matches!(
            plain(&users, b"alice\0alice\0s3cret"),
            Ok(Step::Done { .. })
        ));
        assert!(plain(&users, b"\0alice\0wrong").is_err());
        assert!(plain(&users, b"bob\0alice\0s3cret").is_err());
        assert!(plain(&users, b"\0nobody\0s3cret").is_err());
        assert!(plain(&users, b"garbage").is_err());
        // Only a SCRAM-SHA-512 credential left: PLAIN checks that one.
        assert!(users.remove("alice", ScramHash::Sha256));
        assert!(matches!(
            plain(&users, b"\0alice\0s3cret"),
            Ok(Step::Done { .. })
        ));
        assert!(plain(&users, b"\0alice\0wrong").is_err());
        assert!(users.remove("alice", ScramHash::Sha512));
        assert!(users.is_empty());
        assert!(plain(&users, b"\0alice\0s3cret").is_err());
    }
}
