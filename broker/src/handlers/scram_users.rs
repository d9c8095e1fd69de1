//! DescribeUserScramCredentials and AlterUserScramCredentials (KIP-554):
//! SASL/SCRAM users kept in the cluster metadata.
//!
//! As Kafka's KRaft brokers and controller (`ScramImage.describe`,
//! `ScramControlManager.alterCredentials`): the client salts the password
//! itself and sends salt, SaltedPassword and iterations; the broker keeps
//! only StoredKey and ServerKey derived from them (`sasl::ScramCredential`).
//! Entries are checked here (user name, mechanism, iterations, one entry
//! per user and request); what is left is one `Command::AlterScram`,
//! so one request is one metadata record, and `apply` refuses a deletion
//! of a credential that does not exist. Describe reads this broker's
//! snapshot (as Kafka reads its metadata cache).
//!
//! Authorization as in Kafka: ALTER on the CLUSTER resource to change
//! credentials (each user's result CLUSTER_AUTHORIZATION_FAILED), DESCRIBE
//! on it to list them (the top-level error).

use std::collections::HashMap;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::alter_user_scram_credentials_response::AlterUserScramCredentialsResult;
use kafka_protocol::generated::describe_user_scram_credentials_response::{
    CredentialInfo, DescribeUserScramCredentialsResult,
};
use kafka_protocol::generated::{
    AlterUserScramCredentialsRequest, AlterUserScramCredentialsResponse,
    DescribeUserScramCredentialsRequest, DescribeUserScramCredentialsResponse, RequestHeader,
};

use crate::acl::{Authz, op};
use crate::connection::ConnInfo;
use crate::metadata::{Command, Outcome, ScramDeletion, ScramUpsertion};
use crate::sasl::{ScramCredential, ScramHash, ScramUsers};
use crate::shard::Shard;
use crate::topics::ApiError;

/// Kafka's bounds on a SCRAM credential's iterations (the mechanisms'
/// `minIterations`, and `ScramControlManager.MAX_ITERATIONS`).
pub const MIN_ITERATIONS: i32 = 4096;
pub const MAX_ITERATIONS: i32 = 16384;

const DUPLICATE_ALTER: &str = "A user credential cannot be altered twice in the same request";

pub fn describe(
    shard: &Rc<Shard>,
    _header: &RequestHeader,
    req: DescribeUserScramCredentialsRequest,
    _conn: &ConnInfo,
    authz: &Authz<'_>,
) -> DescribeUserScramCredentialsResponse {
    if !authz.cluster(op::DESCRIBE) {
        return DescribeUserScramCredentialsResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            error_message: Some("Cluster authorization failed.".into()),
            ..Default::default()
        };
    }
    let meta = shard.metadata();
    DescribeUserScramCredentialsResponse {
        results: describe_users(
            &meta.scram,
            req.users.map(|u| u.into_iter().map(|n| n.name)),
        ),
        ..Default::default()
    }
}

/// Kafka's answer: every user when `users` is null or empty; otherwise
/// each named user once, in request order, with RESOURCE_NOT_FOUND if it
/// has no credential and DUPLICATE_RESOURCE if it is named twice.
fn describe_users(
    scram: &ScramUsers,
    users: Option<impl Iterator<Item = String>>,
) -> Vec<DescribeUserScramCredentialsResult> {
    let infos = |creds: &std::collections::BTreeMap<ScramHash, ScramCredential>| {
        creds
            .iter()
            .map(|(h, c)| CredentialInfo {
                mechanism: h.to_type(),
                iterations: c.iterations as i32,
                ..Default::default()
            })
            .collect::<Vec<_>>()
    };
    let named: Vec<String> = users.map(|u| u.collect()).unwrap_or_default();
    if named.is_empty() {
        return scram
            .iter()
            .map(|(user, creds)| DescribeUserScramCredentialsResult {
                user: user.clone(),
                credential_infos: infos(creds),
                ..Default::default()
            })
            .collect();
    }
    let mut times: HashMap<&str, usize> = HashMap::new();
    for n in &named {
        *times.entry(n.as_str()).or_default() += 1;
    }
    let mut seen = std::collections::HashSet::new();
    named
        .iter()
        .filter(|n| seen.insert(n.as_str()))
        .map(|n| {
            let mut r = DescribeUserScramCredentialsResult {
                user: n.clone(),
                ..Default::default()
            };
            if times[n.as_str()] > 1 {
                r.error_code = ErrorCode::DuplicateResource.code();
                r.error_message = Some(format!(
                    "Cannot describe SCRAM credentials for the same user twice in a single request: {n}"
                ));
            } else if let Some(creds) = scram.user(n) {
                r.credential_infos = infos(creds);
            } else {
                r.error_code = ErrorCode::ResourceNotFound.code();
                r.error_message = Some(format!(
                    "Attempt to describe a user credential that does not exist: {n}"
                ));
            }
            r
        })
        .collect()
}

pub async fn alter(
    shard: &Rc<Shard>,
    _header: &RequestHeader,
    req: AlterUserScramCredentialsRequest,
    conn: &ConnInfo,
    authz: &Authz<'_>,
) -> AlterUserScramCredentialsResponse {
    if !authz.cluster(op::ALTER) {
        let mut users: Vec<String> = req.deletions.iter().map(|d| d.name.clone()).collect();
        users.extend(req.upsertions.iter().map(|u| u.name.clone()));
        users.dedup();
        return AlterUserScramCredentialsResponse {
            results: users
                .into_iter()
                .map(|u| {
                    result(
                        u,
                        Some((
                            ErrorCode::ClusterAuthorizationFailed,
                            "Cluster authorization failed.".into(),
                        )),
                    )
                })
                .collect(),
            ..Default::default()
        };
    }
    let checked = check(req);
    let mut results: Vec<AlterUserScramCredentialsResult> = Vec::new();
    let users: Vec<String> = checked
        .deletions
        .iter()
        .map(|d| d.user.clone())
        .chain(checked.upsertions.iter().map(|u| u.user.clone()))
        .collect();
    if !users.is_empty() {
        let cmd = Command::AlterScram {
            deletions: checked.deletions,
            upsertions: checked.upsertions,
        };
        let outcome: Result<Vec<Option<ApiError>>, ApiError> =
            match crate::admin::submit(shard, cmd).await {
                Ok(Outcome::ScramAltered { refused }) if refused.len() == users.len() => {
                    Ok(refused
                        .into_iter()
                        .map(|r| {
                            r.map(|r| {
                                (
                                    ErrorCode::from_code(r.code)
                                        .unwrap_or(ErrorCode::UnknownServerError),
                                    r.message,
                                )
                            })
                        })
                        .collect())
                }
                Ok(other) => Err((
                    ErrorCode::UnknownServerError,
                    format!("unexpected outcome {other:?}"),
                )),
                Err(e) => Err(e),
            };
        let per_user: Vec<Option<ApiError>> = match outcome {
            Ok(v) => v,
            Err(e) => vec![Some(e); users.len()],
        };
        for (user, r) in users.into_iter().zip(per_user) {
            match &r {
                None => {
                    tracing::info!(user = %user, principal = %conn.principal, "SCRAM credentials altered")
                }
                Some((code, msg)) => {
                    tracing::debug!(user = %user, code = code.name(), error = %msg, "SCRAM credential change refused")
                }
            }
            results.push(result(user, r));
        }
    }
    results.extend(checked.errors.into_iter().map(|(u, e)| result(u, Some(e))));
    AlterUserScramCredentialsResponse {
        results,
        ..Default::default()
    }
}

fn result(user: String, err: Option<ApiError>) -> AlterUserScramCredentialsResult {
    let (code, message) = match err {
        None => (ErrorCode::None.code(), None),
        Some((c, m)) => (c.code(), Some(m)),
    };
    AlterUserScramCredentialsResult {
        user,
        error_code: code,
        error_message: message,
        ..Default::default()
    }
}

/// A request's entries once checked: at most one entry per user; the
/// users refused here, with why, in the order they were refused.
#[derive(Debug, Default)]
struct Checked {
    deletions: Vec<ScramDeletion>,
    upsertions: Vec<ScramUpsertion>,
    errors: Vec<(String, ApiError)>,
}

/// Kafka's checks (`ScramControlManager.alterCredentials`): a user named
/// by more than one entry of the request is refused as a whole
/// (DUPLICATE_RESOURCE, none of its entries applied); an empty name or an
/// unknown mechanism refuses the entry; an upsertion also needs 4096 to
/// 16384 iterations and (unlike Kafka, which fails later with an
/// unknown server error on an empty HMAC key) a salt and a salted
/// password. The first error of a user is the one reported.
fn check(req: AlterUserScramCredentialsRequest) -> Checked {
    let mut deletions: Vec<Option<ScramDeletion>> = Vec::new();
    let mut upsertions: Vec<Option<ScramUpsertion>> = Vec::new();
    // user -> index into `deletions` / `upsertions` of its pending entry.
    let mut pending_del: HashMap<String, usize> = HashMap::new();
    let mut pending_up: HashMap<String, usize> = HashMap::new();
    let mut errors: Vec<(String, ApiError)> = Vec::new();
    let errored =
        |errors: &Vec<(String, ApiError)>, user: &str| errors.iter().any(|(u, _)| u == user);
    let dup = || (ErrorCode::DuplicateResource, DUPLICATE_ALTER.to_string());

    for d in req.deletions {
        if errored(&errors, &d.name) {
            continue;
        }
        if let Some(i) = pending_del.remove(&d.name) {
            deletions[i] = None;
            errors.push((d.name, dup()));
            continue;
        }
        match name_and_mechanism(&d.name, d.mechanism) {
            Err(e) => errors.push((d.name, e)),
            Ok(h) => {
                pending_del.insert(d.name.clone(), deletions.len());
                deletions.push(Some(ScramDeletion {
                    user: d.name,
                    mechanism: h,
                }));
            }
        }
    }
    for u in req.upsertions {
        if errored(&errors, &u.name) {
            continue;
        }
        let earlier_del = pending_del.remove(&u.name);
        let earlier_up = pending_up.remove(&u.name);
        if earlier_del.is_some() || earlier_up.is_some() {
            if let Some(i) = earlier_del {
                deletions[i] = None;
            }
            if let Some(i) = earlier_up {
                upsertions[i] = None;
            }
            errors.push((u.name, dup()));
            continue;
        }
        let checked = name_and_mechanism(&u.name, u.mechanism).and_then(|h| {
            let bad = |m: &str| Err((ErrorCode::UnacceptableCredential, m.to_string()));
            if u.iterations < MIN_ITERATIONS {
                return bad("Too few iterations");
            }
            if u.iterations > MAX_ITERATIONS {
                return bad("Too many iterations");
            }
            if u.salt.is_empty() {
                return bad("Salt must not be empty");
            }
            if u.salted_password.is_empty() {
                return bad("Salted password must not be empty");
            }
            Ok(h)
        });
        match checked {
            Err(e) => errors.push((u.name, e)),
            Ok(h) => {
                let credential = ScramCredential::from_salted_password(
                    h,
                    u.salt.to_vec(),
                    &u.salted_password,
                    u.iterations as u32,
                );
                pending_up.insert(u.name.clone(), upsertions.len());
                upsertions.push(Some(ScramUpsertion {
                    user: u.name,
                    mechanism: h,
                    credential,
                }));
            }
        }
    }
    Checked {
        deletions: deletions.into_iter().flatten().collect(),
        upsertions: upsertions.into_iter().flatten().collect(),
        errors,
    }
}

fn name_and_mechanism(name: &str, mechanism: i8) -> Result<ScramHash, ApiError> {
    if name.is_empty() {
        return Err((
            ErrorCode::UnacceptableCredential,
            "Username must not be empty".into(),
        ));
    }
    ScramHash::from_type(mechanism).ok_or((
        ErrorCode::UnsupportedSaslMechanism,
        "Unknown SCRAM mechanism".into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use kafka_protocol::generated::alter_user_scram_credentials_request::{
        ScramCredentialDeletion, ScramCredentialUpsertion,
    };

    fn up(name: &str, mechanism: i8, iterations: i32) -> ScramCredentialUpsertion {
        ScramCredentialUpsertion {
            name: name.into(),
            mechanism,
            iterations,
            salt: Bytes::from_static(b"salt"),
            salted_password: Bytes::from_static(&[7; 32]),
            ..Default::default()
        }
    }

    fn del(name: &str, mechanism: i8) -> ScramCredentialDeletion {
        ScramCredentialDeletion {
            name: name.into(),
            mechanism,
            ..Default::default()
        }
    }

    fn codes(c: &Checked) -> Vec<(String, i16)> {
        c.errors
            .iter()
            .map(|(u, (e, _))| (u.clone(), e.code()))
            .collect()
    }

    #[test]
    fn requests_are_checked_as_kafka_does() {
        let mut empty_salt = up("nosalt", 1, 4096);
        empty_salt.salt = Bytes::new();
        let c = check(AlterUserScramCredentialsRequest {
            deletions: vec![del("dup", 1), del("gone", 2), del("", 1), del("weird", 0)],
            upsertions: vec![
                up("dup", 2, 4096),
                up("alice", 1, 4096),
                up("alice", 2, 8192),
                up("alice", 1, 4096),
                up("few", 1, 100),
                up("many", 2, 16385),
                up("bob", 2, 16384),
                up("mech", 3, 4096),
                empty_salt,
            ],
            ..Default::default()
        });
        let e = |code: ErrorCode| code.code();
        assert_eq!(
            codes(&c),
            vec![
                ("".into(), e(ErrorCode::UnacceptableCredential)),
                ("weird".into(), e(ErrorCode::UnsupportedSaslMechanism)),
                ("dup".into(), e(ErrorCode::DuplicateResource)),
                ("alice".into(), e(ErrorCode::DuplicateResource)),
                ("few".into(), e(ErrorCode::UnacceptableCredential)),
                ("many".into(), e(ErrorCode::UnacceptableCredential)),
                ("mech".into(), e(ErrorCode::UnsupportedSaslMechanism)),
                ("nosalt".into(), e(ErrorCode::UnacceptableCredential)),
            ]
        );
        // Only the users named once with valid entries are left.
        assert_eq!(
            c.deletions
                .iter()
                .map(|d| (d.user.as_str(), d.mechanism))
                .collect::<Vec<_>>(),
            vec![("gone", ScramHash::Sha512)]
        );
        assert_eq!(
            c.upsertions
                .iter()
                .map(|u| (u.user.as_str(), u.mechanism, u.credential.iterations))
                .collect::<Vec<_>>(),
            vec![("bob", ScramHash::Sha512, 16384)]
        );
        let msgs: Vec<&str> = c.errors.iter().map(|(_, (_, m))| m.as_str()).collect();
        assert_eq!(msgs[2], DUPLICATE_ALTER);
        assert_eq!(msgs[4], "Too few iterations");
        assert_eq!(msgs[5], "Too many iterations");
    }

    #[test]
    fn the_stored_key_is_derived_from_the_salted_password() {
        // A credential made from the password equals the one made from
        // the password the client salted (what AlterUserScramCredentials
        // carries).
        use base64::Engine;
        let salt = base64::engine::general_purpose::STANDARD
            .decode("W22ZaJ0SNY7soEsUEjb6gQ==")
            .unwrap();
        let direct = ScramCredential::with_salt(ScramHash::Sha256, "pencil", salt.clone(), 4096);
        let mut salted = [0u8; 32];
        ring::pbkdf2::derive(
            ring::pbkdf2::PBKDF2_HMAC_SHA256,
            std::num::NonZeroU32::new(4096).unwrap(),
            &salt,
            b"pencil",
            &mut salted,
        );
        let c = check(AlterUserScramCredentialsRequest {
            upsertions: vec![ScramCredentialUpsertion {
                name: "user".into(),
                mechanism: 1,
                iterations: 4096,
                salt: Bytes::from(salt),
                salted_password: Bytes::copy_from_slice(&salted),
                ..Default::default()
            }],
            ..Default::default()
        });
        assert!(c.errors.is_empty());
        assert_eq!(c.upsertions[0].credential, direct);
    }

    #[test]
    fn describe_answers_all_named_missing_and_duplicate_users() {
        let mut s = ScramUsers::default();
        let cred = |i| ScramCredential::with_salt(ScramHash::Sha256, "pw", vec![1; 16], i);
        s.upsert("b", ScramHash::Sha512, cred(8192));
        s.upsert("b", ScramHash::Sha256, cred(4096));
        s.upsert("a", ScramHash::Sha256, cred(4096));
        let all = describe_users(&s, None::<std::vec::IntoIter<String>>);
        assert_eq!(
            all.iter()
                .map(|r| (
                    r.user.as_str(),
                    r.credential_infos
                        .iter()
                        .map(|c| (c.mechanism, c.iterations))
                        .collect::<Vec<_>>()
                ))
                .collect::<Vec<_>>(),
            vec![("a", vec![(1, 4096)]), ("b", vec![(1, 4096), (2, 8192)])]
        );
        // An empty list is "all users" too, as in Kafka.
        assert_eq!(
            describe_users(&s, Some(Vec::<String>::new().into_iter())).len(),
            2
        );
        let named = describe_users(
            &s,
            Some(
                ["b", "x", "a", "a"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .into_iter(),
            ),
        );
        let got: Vec<(&str, i16)> = named
            .iter()
            .map(|r| (r.user.as_str(), r.error_code))
            .collect();
        assert_eq!(
            got,
            vec![
                ("b", 0),
                ("x", ErrorCode::ResourceNotFound.code()),
                ("a", ErrorCode::DuplicateResource.code())
            ]
        );
        assert_eq!(named[0].credential_infos.len(), 2);
    }
}
