//! `tmk security`: ACLs with rpk's flags (each resource x operation x
//! principal x host becomes one binding or filter) and SCRAM users
//! (salted client-side by the client library).

use std::collections::BTreeSet;

use serde::Serialize;
use tidemark_client::admin::{AclBinding, AclFilter, ScramUpsert, acl};
use tidemark_client::{Client, SaslMechanism};

use super::{connect, first_error, kerr};
use crate::cli::{AclCmd, AclCommon, ConnFlags, OutFormat, SecurityCmd, UserCmd};
use crate::errors::{Result, TmkError};
use crate::output::{Table, emit, write_stdout};
use crate::spec::{acl_operation, acl_pattern};

/// SCRAM iterations for new credentials (Kafka's minimum is 4096).
const SCRAM_ITERATIONS: u32 = 8192;

const ALLOW: i8 = 3;
const DENY: i8 = 2;

pub fn run(conn: &ConnFlags, cmd: SecurityCmd) -> Result<()> {
    match cmd {
        SecurityCmd::Acl(a) => {
            let client = connect(conn)?;
            acls(&client, a)
        }
        SecurityCmd::User(u) => {
            let client = connect(conn)?;
            users(&client, u)
        }
    }
}

/// rpk prefixes a bare principal with `User:`.
fn principal(p: &str) -> String {
    if p.contains(':') {
        p.to_string()
    } else {
        format!("User:{p}")
    }
}

/// (resource type, name) pairs the flags name.
fn resources(c: &AclCommon) -> Vec<(i8, String)> {
    let mut v = Vec::new();
    v.extend(c.topic.iter().map(|t| (2, t.clone())));
    v.extend(c.group.iter().map(|g| (3, g.clone())));
    if c.cluster {
        v.push((4, "kafka-cluster".to_string()));
    }
    v.extend(c.transactional_id.iter().map(|t| (5, t.clone())));
    v
}

/// (principal, host, permission) triples; hosts default to `*` for
/// bindings and to "any" (None) for filters.
fn principals(c: &AclCommon, filter: bool) -> Vec<(Option<String>, Option<String>, i8)> {
    let mut v = Vec::new();
    for (ps, hosts, perm) in [
        (&c.allow_principal, &c.allow_host, ALLOW),
        (&c.deny_principal, &c.deny_host, DENY),
    ] {
        let hosts: Vec<Option<String>> = if hosts.is_empty() {
            vec![if filter { None } else { Some("*".to_string()) }]
        } else {
            hosts.iter().cloned().map(Some).collect()
        };
        for p in ps {
            for h in &hosts {
                v.push((Some(principal(p)), h.clone(), perm));
            }
        }
    }
    v
}

fn operations(c: &AclCommon, filter: bool) -> Result<Vec<i8>> {
    if c.operation.is_empty() {
        return if filter {
            Ok(vec![acl::ANY])
        } else {
            Err(TmkError::msg("no --operation given").with_hint("e.g. --operation read,describe"))
        };
    }
    c.operation.iter().map(|o| acl_operation(o)).collect()
}

#[derive(Serialize)]
struct AclRow {
    principal: String,
    host: String,
    resource_type: &'static str,
    resource_name: String,
    resource_pattern_type: &'static str,
    operation: &'static str,
    permission: &'static str,
    error: String,
}

fn row(b: &AclBinding, error: String) -> AclRow {
    AclRow {
        principal: b.principal.clone(),
        host: b.host.clone(),
        resource_type: acl::resource_type_name(b.resource_type),
        resource_name: b.resource_name.clone(),
        resource_pattern_type: acl::pattern_type_name(b.pattern_type),
        operation: acl::operation_name(b.operation),
        permission: acl::permission_name(b.permission_type),
        error,
    }
}

fn print_rows(format: OutFormat, rows: &[AclRow], with_error: bool) -> Result<()> {
    emit(format, &rows, |w| {
        let mut cols = vec![
            "principal",
            "host",
            "resource-type",
            "resource-name",
            "resource-pattern-type",
            "operation",
            "permission",
        ];
        if with_error {
            cols.push("error");
        }
        let mut t = Table::new(&cols);
        for r in rows {
            let mut cells = vec![
                r.principal.clone(),
                r.host.clone(),
                r.resource_type.to_string(),
                r.resource_name.clone(),
                r.resource_pattern_type.to_string(),
                r.operation.to_string(),
                r.permission.to_string(),
            ];
            if with_error {
                cells.push(r.error.clone());
            }
            t.row(cells);
        }
        t.render(w)
    })
}

fn filters(c: &AclCommon, pattern: &str) -> Result<Vec<AclFilter>> {
    let pattern = acl_pattern(pattern)?;
    let res: Vec<(i8, Option<String>)> = {
        let r = resources(c);
        if r.is_empty() {
            vec![(acl::ANY, None)]
        } else {
            r.into_iter().map(|(t, n)| (t, Some(n))).collect()
        }
    };
    let ps = {
        let p = principals(c, true);
        if p.is_empty() {
            vec![(None, None, acl::ANY)]
        } else {
            p
        }
    };
    let mut out = Vec::new();
    for (rt, rn) in &res {
        for op in operations(c, true)? {
            for (p, h, perm) in &ps {
                out.push(AclFilter {
                    resource_type: *rt,
                    resource_name: rn.clone(),
                    pattern_type: pattern,
                    principal: p.clone(),
                    host: h.clone(),
                    operation: op,
                    permission_type: *perm,
                });
            }
        }
    }
    Ok(out)
}

fn acls(client: &Client, cmd: AclCmd) -> Result<()> {
    match cmd {
        AclCmd::Create(a) => {
            let pattern = acl_pattern(&a.pattern)?;
            if pattern != 3 && pattern != 4 {
                return Err(
                    TmkError::msg("ACLs are created with a literal or prefixed pattern")
                        .with_hint("--resource-pattern-type literal|prefixed"),
                );
            }
            let res = resources(&a.common);
            if res.is_empty() {
                return Err(TmkError::msg("no resource given")
                    .with_hint("name one with --topic, --group, --cluster or --transactional-id"));
            }
            let ps = principals(&a.common, false);
            if ps.is_empty() {
                return Err(TmkError::msg("no principal given")
                    .with_hint("name one with --allow-principal or --deny-principal"));
            }
            let mut bindings = Vec::new();
            for (rt, rn) in &res {
                for op in operations(&a.common, false)? {
                    for (p, h, perm) in &ps {
                        bindings.push(AclBinding {
                            resource_type: *rt,
                            resource_name: rn.clone(),
                            pattern_type: pattern,
                            principal: p.clone().unwrap_or_default(),
                            host: h.clone().unwrap_or_else(|| "*".into()),
                            operation: op,
                            permission_type: *perm,
                        });
                    }
                }
            }
            let results = client
                .create_acls(&bindings)
                .map_err(|e| kerr("creating ACLs", e))?;
            let mut errors = Vec::new();
            let rows: Vec<AclRow> = bindings
                .iter()
                .zip(results)
                .map(|(b, r)| {
                    let err = match r {
                        Ok(()) => String::new(),
                        Err(e) => {
                            let s = e
                                .kafka_code()
                                .map_or_else(|| e.to_string(), |c| c.name().to_string());
                            errors.push(kerr(
                                &format!(
                                    "creating an ACL for {} on {}",
                                    b.principal, b.resource_name
                                ),
                                e,
                            ));
                            s
                        }
                    };
                    row(b, err)
                })
                .collect();
            print_rows(a.out.format, &rows, true)?;
            first_error(errors)
        }
        AclCmd::List(l) => {
            let mut seen = BTreeSet::new();
            let mut rows = Vec::new();
            for f in filters(&l.common, &l.pattern)? {
                for b in client
                    .describe_acls(&f)
                    .map_err(|e| kerr("listing ACLs", e))?
                {
                    let key = format!("{b:?}");
                    if seen.insert(key) {
                        rows.push(row(&b, String::new()));
                    }
                }
            }
            print_rows(l.out.format, &rows, false)
        }
        AclCmd::Delete(d) => {
            if resources(&d.common).is_empty()
                && principals(&d.common, true).is_empty()
                && d.common.operation.is_empty()
            {
                return Err(TmkError::msg("refusing to delete every ACL")
                    .with_hint("narrow with --topic/--group/--cluster/--transactional-id, principals or --operation"));
            }
            let fs = filters(&d.common, &d.pattern)?;
            let mut rows = Vec::new();
            let mut errors = Vec::new();
            if d.dry {
                for f in &fs {
                    for b in client
                        .describe_acls(f)
                        .map_err(|e| kerr("listing ACLs", e))?
                    {
                        rows.push(row(&b, String::new()));
                    }
                }
                return print_rows(d.out.format, &rows, false);
            }
            let res = client
                .delete_acls(&fs)
                .map_err(|e| kerr("deleting ACLs", e))?;
            for r in res {
                match r {
                    Ok(matched) => rows.extend(matched.iter().map(|b| row(b, String::new()))),
                    Err(e) => errors.push(kerr("deleting ACLs", e)),
                }
            }
            print_rows(d.out.format, &rows, false)?;
            first_error(errors)
        }
    }
}

fn mechanism(s: &str) -> Result<SaslMechanism> {
    match s.parse::<SaslMechanism>() {
        Ok(m @ (SaslMechanism::ScramSha256 | SaslMechanism::ScramSha512)) => Ok(m),
        _ => Err(TmkError::msg(format!("unsupported mechanism {s:?}"))
            .with_hint("use scram-sha-256 or scram-sha-512")),
    }
}

fn mech_name(m: SaslMechanism) -> &'static str {
    match m {
        SaslMechanism::ScramSha256 => "SCRAM-SHA-256",
        SaslMechanism::ScramSha512 => "SCRAM-SHA-512",
        SaslMechanism::Plain => "PLAIN",
    }
}

fn one_result(
    what: &str,
    res: Vec<(String, std::result::Result<(), tidemark_client::Error>)>,
) -> Result<()> {
    for (_, r) in res {
        r.map_err(|e| kerr(what, e))?;
    }
    Ok(())
}

fn users(client: &Client, cmd: UserCmd) -> Result<()> {
    match cmd {
        UserCmd::Create(c) => {
            let m = mechanism(&c.mechanism)?;
            let up = ScramUpsert {
                user: c.user.clone(),
                mechanism: m,
                password: c.password,
                iterations: SCRAM_ITERATIONS,
            };
            let res = client
                .alter_user_scram_credentials(&[up], &[])
                .map_err(|e| kerr(&format!("creating user {}", c.user), e))?;
            one_result(&format!("creating user {}", c.user), res)?;
            write_stdout(format!("Created user {:?}.\n", c.user).as_bytes())
        }
        UserCmd::Update(u) => {
            let m = mechanism(&u.mechanism)?;
            let up = ScramUpsert {
                user: u.user.clone(),
                mechanism: m,
                password: u.new_password,
                iterations: SCRAM_ITERATIONS,
            };
            let res = client
                .alter_user_scram_credentials(&[up], &[])
                .map_err(|e| kerr(&format!("updating user {}", u.user), e))?;
            one_result(&format!("updating user {}", u.user), res)?;
            write_stdout(format!("Updated user {:?}.\n", u.user).as_bytes())
        }
        UserCmd::Delete(d) => {
            let mechs: Vec<SaslMechanism> = match &d.mechanism {
                Some(m) => vec![mechanism(m)?],
                None => {
                    let res = client
                        .describe_user_scram_credentials(Some(std::slice::from_ref(&d.user)))
                        .map_err(|e| kerr(&format!("deleting user {}", d.user), e))?;
                    let mut v = Vec::new();
                    for (_, r) in res {
                        v.extend(
                            r.map_err(|e| kerr(&format!("deleting user {}", d.user), e))?
                                .into_iter()
                                .map(|(m, _)| m),
                        );
                    }
                    v
                }
            };
            let dels: Vec<(String, SaslMechanism)> =
                mechs.into_iter().map(|m| (d.user.clone(), m)).collect();
            let res = client
                .alter_user_scram_credentials(&[], &dels)
                .map_err(|e| kerr(&format!("deleting user {}", d.user), e))?;
            one_result(&format!("deleting user {}", d.user), res)?;
            write_stdout(format!("Deleted user {:?}.\n", d.user).as_bytes())
        }
        UserCmd::List(o) => {
            #[derive(Serialize)]
            struct Row {
                username: String,
                mechanisms: Vec<&'static str>,
            }
            let res = client
                .describe_user_scram_credentials(None)
                .map_err(|e| kerr("listing users", e))?;
            let mut rows = Vec::new();
            for (user, r) in res {
                let ms = r.map_err(|e| kerr(&format!("describing user {user}"), e))?;
                rows.push(Row {
                    username: user,
                    mechanisms: ms.into_iter().map(|(m, _)| mech_name(m)).collect(),
                });
            }
            rows.sort_by(|a, b| a.username.cmp(&b.username));
            emit(o.out.format, &rows, |w| {
                let mut t = Table::new(&["username", "mechanisms"]);
                for r in &rows {
                    t.row([r.username.clone(), r.mechanisms.join(",")]);
                }
                t.render(w)
            })
        }
    }
}
