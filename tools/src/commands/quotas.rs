//! `tmk cluster quotas describe|alter`: Kafka's client quotas with rpk's
//! flags (`--name type=name`, `--default type`, `--any type`, `--strict`;
//! `--add key=value`, `--delete key`, `--dry`) and rpk's output: each
//! entity as `type=name, ...` (`<default>` for a default entity) with its
//! values indented below it; alter prints the entity and OK.

use serde::Serialize;
use tidemark_client::Client;
use tidemark_client::admin::{QuotaEntity, QuotaMatch};

use super::kerr;
use crate::cli::{QuotasAlter, QuotasCmd, QuotasDescribe};
use crate::errors::{Result, TmkError};
use crate::output::{Table, emit};

pub fn run(client: &Client, cmd: QuotasCmd) -> Result<()> {
    match cmd {
        QuotasCmd::Describe(d) => describe(client, d),
        QuotasCmd::Alter(a) => alter(client, a),
    }
}

/// `type=name` of `--name`.
fn split_name(s: &str) -> Result<(String, String)> {
    match s.split_once('=') {
        Some((t, n)) if !t.is_empty() => Ok((t.to_string(), n.to_string())),
        _ => Err(TmkError::msg(format!(
            "--name {s:?}: expected type=name (user, client-id or ip)"
        ))),
    }
}

fn entity_text(e: &QuotaEntity) -> String {
    e.iter()
        .map(|(t, n)| format!("{t}={}", n.as_deref().unwrap_or("<default>")))
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Serialize)]
struct EntityPart {
    name: String,
    #[serde(rename = "type")]
    type_: String,
}

#[derive(Serialize)]
struct Value {
    key: String,
    value: String,
}

#[derive(Serialize)]
struct Quota {
    entity: Vec<EntityPart>,
    values: Vec<Value>,
}

#[derive(Serialize)]
struct Described {
    quotas: Vec<Quota>,
}

/// A value as rpk prints it: integral values without a fraction.
fn value_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn describe(client: &Client, d: QuotasDescribe) -> Result<()> {
    let mut components = Vec::new();
    for n in &d.names {
        let (t, name) = split_name(n)?;
        components.push((t, QuotaMatch::Exact(name)));
    }
    components.extend(d.defaults.iter().map(|t| (t.clone(), QuotaMatch::Default)));
    components.extend(d.any.iter().map(|t| (t.clone(), QuotaMatch::Any)));
    let found = client
        .describe_client_quotas(&components, d.strict)
        .map_err(|e| kerr("describing client quotas", e))?;
    let data = Described {
        quotas: found
            .iter()
            .map(|(e, values)| Quota {
                entity: e
                    .iter()
                    .map(|(t, n)| EntityPart {
                        name: n.clone().unwrap_or_else(|| "<default>".into()),
                        type_: t.clone(),
                    })
                    .collect(),
                values: values
                    .iter()
                    .map(|(k, v)| Value {
                        key: k.clone(),
                        value: value_text(*v),
                    })
                    .collect(),
            })
            .collect(),
    };
    emit(d.out.format, &data, |_| {
        if found.is_empty() {
            return "No quotas match the filters.\n".to_string();
        }
        let mut out = String::new();
        for (e, values) in &found {
            out.push_str(&entity_text(e));
            out.push('\n');
            for (k, v) in values {
                out.push_str(&format!("\t{k}={}\n", value_text(*v)));
            }
        }
        out
    })
}

#[derive(Serialize)]
struct Altered {
    entity: Vec<EntityPart>,
    status: String,
}

fn alter(client: &Client, a: QuotasAlter) -> Result<()> {
    let mut entity: QuotaEntity = Vec::new();
    for n in &a.names {
        let (t, name) = split_name(n)?;
        entity.push((t, Some(name)));
    }
    entity.extend(a.defaults.iter().map(|t| (t.clone(), None)));
    if entity.is_empty() {
        return Err(TmkError::msg(
            "name an entity with --name type=name or --default type",
        ));
    }
    if a.add.is_empty() && a.delete.is_empty() {
        return Err(TmkError::msg(
            "nothing to do: give --add key=value or --delete key",
        ));
    }
    let mut set = Vec::new();
    for kv in &a.add {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| TmkError::msg(format!("--add {kv:?}: expected key=value")))?;
        let v: f64 = v
            .trim()
            .parse()
            .map_err(|_| TmkError::msg(format!("--add {kv:?}: the value is not a number")))?;
        set.push((k.to_string(), v));
    }
    client
        .alter_client_quotas(&entity, &set, &a.delete, a.dry)
        .map_err(|e| kerr("altering client quotas", e))?;
    let data = Altered {
        entity: entity
            .iter()
            .map(|(t, n)| EntityPart {
                name: n.clone().unwrap_or_else(|| "<default>".into()),
                type_: t.clone(),
            })
            .collect(),
        status: "OK".into(),
    };
    emit(a.out.format, &data, |w| {
        let mut t = Table::new(&["ENTITY", "STATUS"]);
        t.row([entity_text(&entity), "OK".to_string()]);
        t.render(w)
    })
}
