//! The generator of `kafka-protocol/src/generated/`.
//!
//! It reads Kafka's JSON message schemas and writes one Rust module per
//! schema plus `mod.rs`, which holds the API table ([`ApiKey`] with names,
//! valid and flexible versions) and the request/response dispatch enums.
//! The output is formatted with `rustfmt` so that it is stable and the
//! freshness test (`kafka-protocol/tests/integration/generated_is_fresh.rs`) can compare
//! it byte for byte with what is committed.

pub mod cond;
pub mod emit;
pub mod names;
pub mod schema;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use schema::{Kind, Schema, parse_schema};

/// Reads every `*.json` schema in `dir`, sorted by file name.
pub fn read_schemas(dir: &Path) -> Result<Vec<Schema>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            parse_schema(&name, &text)
        })
        .collect()
}

/// Formats Rust source with the pinned toolchain's `rustfmt`.
pub fn rustfmt(src: &str) -> Result<String, String> {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run rustfmt: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("rustfmt: no stdin")?;
    let input = src.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("rustfmt: {e}"))?;
    writer
        .join()
        .map_err(|_| "rustfmt writer panicked".to_string())?
        .map_err(|e| format!("rustfmt stdin: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "rustfmt failed: {}\n--- input ---\n{}",
            String::from_utf8_lossy(&out.stderr),
            src.lines().take(50).collect::<Vec<_>>().join("\n")
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("rustfmt output: {e}"))
}

struct Api {
    key: i16,
    name: String,
    request: Schema,
    response: Schema,
}

/// Generates every file, keyed by its name inside `src/generated/`.
pub fn generate(schema_dir: &Path) -> Result<BTreeMap<String, String>, String> {
    let schemas = read_schemas(schema_dir)?;
    let mut files = BTreeMap::new();
    let mut modules = Vec::new();
    let mut removed = Vec::new();
    for s in &schemas {
        if s.valid.is_none() {
            if s.kind == Kind::Request {
                removed.push((
                    s.api_key.unwrap_or(-1),
                    s.name.trim_end_matches("Request").to_string(),
                ));
            }
            continue;
        }
        let module = names::module_name(&s.name);
        let src = emit::emit_schema(s)?;
        files.insert(
            format!("{module}.rs"),
            rustfmt(&src).map_err(|e| format!("{}: {e}", s.file))?,
        );
        modules.push((module, s.name.clone()));
    }
    removed.sort();

    let mut apis = Vec::new();
    for req in schemas
        .iter()
        .filter(|s| s.kind == Kind::Request && s.valid.is_some())
    {
        let key = req
            .api_key
            .ok_or_else(|| format!("{}: request without apiKey", req.file))?;
        let resp = schemas
            .iter()
            .find(|s| s.kind == Kind::Response && s.api_key == Some(key))
            .ok_or_else(|| format!("no response for API key {key}"))?;
        if resp.valid != req.valid {
            return Err(format!(
                "API key {key}: request and response valid versions differ"
            ));
        }
        apis.push(Api {
            key,
            name: req.name.trim_end_matches("Request").to_string(),
            request: req.clone(),
            response: resp.clone(),
        });
    }
    apis.sort_by_key(|a| a.key);
    files.insert(
        "mod.rs".into(),
        rustfmt(&emit_mod(&modules, &apis, &removed))?,
    );
    Ok(files)
}

fn emit_mod(modules: &[(String, String)], apis: &[Api], removed: &[(i16, String)]) -> String {
    let mut o = String::new();
    o.push_str(
        "//! Every Kafka message, generated from Kafka's JSON schemas by\n//! kafka-protocol-codegen (`cargo run -p kafka-protocol-codegen`). Do not edit.\n//!\n//! Each schema has its own module holding the message and its nested\n//! structs; the messages themselves are re-exported here, with the API\n//! table ([`ApiKey`]) and the dispatch enums [`RequestBody`] and\n//! [`ResponseBody`].\n\n",
    );
    for (m, _) in modules {
        let _ = writeln!(o, "pub mod {m};");
    }
    o.push('\n');
    for (m, n) in modules {
        let _ = writeln!(o, "pub use {m}::{n};");
    }
    o.push_str("\nuse crate::codec::{Decoder, Encoder};\nuse crate::error::{DecodeError, EncodeError};\nuse crate::Message;\n\n");

    // ApiKey.
    o.push_str("/// Every API a Kafka 4.x broker or controller speaks, by key.\n#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n#[repr(i16)]\npub enum ApiKey {\n");
    for a in apis {
        let _ = writeln!(o, "{} = {},", a.name, a.key);
    }
    o.push_str("}\n\n");
    o.push_str("/// API keys that Kafka once had and removed (`validVersions: none`): a\n/// request with one of these keys is an unknown API to a Kafka 4 broker.\npub const REMOVED_API_KEYS: &[(i16, &str)] = &[\n");
    for (k, n) in removed {
        let _ = writeln!(o, "({k}, {n:?}),");
    }
    o.push_str("];\n\n");

    o.push_str(
        "impl ApiKey {\n/// Every API key, in key order.\npub const ALL: &'static [ApiKey] = &[\n",
    );
    for a in apis {
        let _ = writeln!(o, "ApiKey::{},", a.name);
    }
    o.push_str("];\n\n/// The key for a wire number, if Kafka defines it.\npub fn from_i16(key: i16) -> Option<ApiKey> {\nmatch key {\n");
    for a in apis {
        let _ = writeln!(o, "{} => Some(ApiKey::{}),", a.key, a.name);
    }
    o.push_str("_ => None,\n}\n}\n\n/// The wire number.\npub fn as_i16(self) -> i16 {\nself as i16\n}\n\n");
    o.push_str("/// The API's name as Kafka spells it (e.g. `Produce`).\npub fn name(self) -> &'static str {\nmatch self {\n");
    for a in apis {
        let _ = writeln!(o, "ApiKey::{} => {:?},", a.name, a.name);
    }
    o.push_str("}\n}\n\n/// The versions the schema defines, lowest and highest.\npub fn valid_versions(self) -> (i16, i16) {\nmatch self {\n");
    for a in apis {
        let v = a.request.valid.unwrap_or(schema::Versions { lo: 0, hi: 0 });
        let _ = writeln!(o, "ApiKey::{} => ({}, {}),", a.name, v.lo, v.hi);
    }
    o.push_str("}\n}\n\n/// The first flexible version (compact encodings, tagged fields), if any.\npub fn flexible_min(self) -> Option<i16> {\nmatch self {\n");
    for a in apis {
        match a.request.flexible {
            Some(f) => {
                let _ = writeln!(o, "ApiKey::{} => Some({}),", a.name, f.lo);
            }
            None => {
                let _ = writeln!(o, "ApiKey::{} => None,", a.name);
            }
        }
    }
    o.push_str("}\n}\n\n/// Whether the schema marks its highest version as unstable (not to be\n/// advertised by default).\npub fn latest_version_unstable(self) -> bool {\nmatches!(self, ");
    let unstable: Vec<String> = apis
        .iter()
        .filter(|a| a.request.latest_unstable)
        .map(|a| format!("ApiKey::{}", a.name))
        .collect();
    if unstable.is_empty() {
        o.push_str("ApiKey::ApiVersions if false");
    } else {
        o.push_str(&unstable.join(" | "));
    }
    o.push_str(")\n}\n\n");
    o.push_str(
        "/// Whether `version` is within the schema's valid range.\npub fn is_valid_version(self, version: i16) -> bool {\nlet (lo, hi) = self.valid_versions();\n(lo..=hi).contains(&version)\n}\n\n/// Whether `version` uses the flexible encoding.\npub fn is_flexible(self, version: i16) -> bool {\nself.flexible_min().is_some_and(|f| version >= f)\n}\n\n/// The request header version for a request of this API at `version`.\npub fn request_header_version(self, version: i16) -> i16 {\nif self.is_flexible(version) { 2 } else { 1 }\n}\n\n/// The response header version. ApiVersions responses always use\n/// header v0, so a client that does not know the broker's versions yet\n/// can read them.\npub fn response_header_version(self, version: i16) -> i16 {\nif self.is_flexible(version) && self != ApiKey::ApiVersions { 1 } else { 0 }\n}\n}\n\n",
    );

    // Dispatch enums.
    for (enum_name, side, is_req) in [
        ("RequestBody", "request", true),
        ("ResponseBody", "response", false),
    ] {
        let _ = writeln!(
            o,
            "/// The body of any {side}, tagged by API.\n#[derive(Debug, Clone, PartialEq)]\npub enum {enum_name} {{"
        );
        for a in apis {
            let t = if is_req {
                &a.request.name
            } else {
                &a.response.name
            };
            let _ = writeln!(o, "{}({t}),", a.name);
        }
        let _ = writeln!(
            o,
            "}}\n\nimpl {enum_name} {{\n/// The API this {side} belongs to.\npub fn api_key(&self) -> ApiKey {{\nmatch self {{"
        );
        for a in apis {
            let _ = writeln!(o, "{enum_name}::{}(_) => ApiKey::{},", a.name, a.name);
        }
        let _ = writeln!(
            o,
            "}}\n}}\n\n/// Decodes a {side} body of `key` at `version`; the version is checked.\npub fn decode(key: ApiKey, d: &mut Decoder, version: i16) -> Result<Self, DecodeError> {{\nOk(match key {{"
        );
        for a in apis {
            let t = if is_req {
                &a.request.name
            } else {
                &a.response.name
            };
            let _ = writeln!(
                o,
                "ApiKey::{} => {enum_name}::{}({t}::decode(d, version)?),",
                a.name, a.name
            );
        }
        let _ = writeln!(
            o,
            "}})\n}}\n\n/// Encodes the body at `version`; the version is checked.\npub fn encode(&self, e: &mut Encoder, version: i16) -> Result<(), EncodeError> {{\nmatch self {{"
        );
        for a in apis {
            let _ = writeln!(o, "{enum_name}::{}(m) => m.encode(e, version),", a.name);
        }
        o.push_str("}\n}\n}\n\n");
        for a in apis {
            let t = if is_req {
                &a.request.name
            } else {
                &a.response.name
            };
            let _ = writeln!(
                o,
                "impl From<{t}> for {enum_name} {{\nfn from(m: {t}) -> Self {{\n{enum_name}::{}(m)\n}}\n}}\n",
                a.name
            );
        }
    }

    // Request/Response traits.
    for a in apis {
        let _ = writeln!(
            o,
            "impl crate::Request for {} {{\nconst API_KEY: ApiKey = ApiKey::{};\ntype Response = {};\n}}\n\nimpl crate::Response for {} {{\nconst API_KEY: ApiKey = ApiKey::{};\n}}\n",
            a.request.name, a.name, a.response.name, a.response.name, a.name
        );
    }

    // The round-trip test list.
    o.push_str("/// Runs `f` for every generated message type (used by the round-trip tests).\n#[cfg(test)]\npub(crate) fn for_each_message<V: crate::testing::MessageVisitor>(f: &mut V) {\n");
    for (_, n) in modules {
        let _ = writeln!(o, "f.visit::<{n}>();");
    }
    o.push_str("}\n");
    o
}
