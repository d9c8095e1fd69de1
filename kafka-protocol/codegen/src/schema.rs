//! Kafka's JSON message schemas, parsed into a typed model.
//!
//! The files are JSON with `//` line comments (Kafka's own generator
//! accepts them), so comments are stripped before parsing.

use std::collections::BTreeMap;

use serde_json::Value;

/// An inclusive range of versions; `hi == i16::MAX` stands for "and later".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Versions {
    pub lo: i16,
    pub hi: i16,
}

impl Versions {
    /// Parses "3", "3+", "3-13"; "none" gives `None`.
    pub fn parse(s: &str) -> Result<Option<Versions>, String> {
        let s = s.trim();
        if s == "none" {
            return Ok(None);
        }
        let num = |t: &str| {
            t.trim()
                .parse::<i16>()
                .map_err(|e| format!("bad version {s:?}: {e}"))
        };
        if let Some(lo) = s.strip_suffix('+') {
            return Ok(Some(Versions {
                lo: num(lo)?,
                hi: i16::MAX,
            }));
        }
        if let Some((lo, hi)) = s.split_once('-') {
            return Ok(Some(Versions {
                lo: num(lo)?,
                hi: num(hi)?,
            }));
        }
        let v = num(s)?;
        Ok(Some(Versions { lo: v, hi: v }))
    }

    pub fn intersect(self, other: Versions) -> Option<Versions> {
        let lo = self.lo.max(other.lo);
        let hi = self.hi.min(other.hi);
        (lo <= hi).then_some(Versions { lo, hi })
    }

    pub fn contains_all(self, other: Versions) -> bool {
        self.lo <= other.lo && self.hi >= other.hi
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldType {
    Bool,
    Int8,
    Int16,
    Uint16,
    Int32,
    Int64,
    Float64,
    String,
    Bytes,
    Records,
    Uuid,
    Struct(String),
    Array(Box<FieldType>),
}

impl FieldType {
    fn parse(s: &str) -> FieldType {
        if let Some(inner) = s.strip_prefix("[]") {
            return FieldType::Array(Box::new(FieldType::parse(inner)));
        }
        match s {
            "bool" => FieldType::Bool,
            "int8" => FieldType::Int8,
            "int16" => FieldType::Int16,
            "uint16" => FieldType::Uint16,
            "int32" => FieldType::Int32,
            "int64" => FieldType::Int64,
            "float64" => FieldType::Float64,
            "string" => FieldType::String,
            "bytes" => FieldType::Bytes,
            "records" => FieldType::Records,
            "uuid" => FieldType::Uuid,
            other => FieldType::Struct(other.to_string()),
        }
    }

    /// The struct name this type refers to (directly or as array items).
    pub fn struct_name(&self) -> Option<&str> {
        match self {
            FieldType::Struct(n) => Some(n),
            FieldType::Array(inner) => inner.struct_name(),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub ty: FieldType,
    pub versions: Option<Versions>,
    pub nullable: Option<Versions>,
    pub tagged: Option<Versions>,
    pub tag: Option<u32>,
    pub ignorable: bool,
    pub default: Option<String>,
    /// `Some(None)` when the field says `"flexibleVersions": "none"`.
    pub flexible_override: Option<Option<Versions>>,
    pub about: String,
    /// Inline struct fields, when this field defines its struct type.
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Request,
    Response,
    Header,
    Data,
}

#[derive(Debug, Clone)]
pub struct Schema {
    pub file: String,
    pub api_key: Option<i16>,
    pub kind: Kind,
    pub name: String,
    pub valid: Option<Versions>,
    pub flexible: Option<Versions>,
    pub latest_unstable: bool,
    pub fields: Vec<Field>,
    pub common_structs: Vec<(String, Vec<Field>)>,
}

/// Removes `//` comments that are not inside string literals.
pub fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.lines() {
        let mut in_str = false;
        let mut escaped = false;
        let bytes = line.as_bytes();
        let mut cut = line.len();
        for i in 0..bytes.len() {
            let c = bytes[i];
            if in_str {
                if escaped {
                    escaped = false;
                } else if c == b'\\' {
                    escaped = true;
                } else if c == b'"' {
                    in_str = false;
                }
            } else if c == b'"' {
                in_str = true;
            } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
                cut = i;
                break;
            }
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn parse_fields(v: Option<&Value>, ctx: &str) -> Result<Vec<Field>, String> {
    let Some(arr) = v.and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    arr.iter().map(|f| parse_field(f, ctx)).collect()
}

fn parse_field(f: &Value, ctx: &str) -> Result<Field, String> {
    let name = str_field(f, "name").ok_or_else(|| format!("{ctx}: field without name"))?;
    let ctx = format!("{ctx}.{name}");
    let ty = str_field(f, "type").ok_or_else(|| format!("{ctx}: no type"))?;
    let vers = |key: &str| -> Result<Option<Versions>, String> {
        match str_field(f, key) {
            Some(s) => Versions::parse(s).map_err(|e| format!("{ctx}: {e}")),
            None => Ok(None),
        }
    };
    let default = match f.get("default") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => Some(other.to_string()),
    };
    let flexible_override = match str_field(f, "flexibleVersions") {
        None => None,
        Some(s) => Some(Versions::parse(s).map_err(|e| format!("{ctx}: {e}"))?),
    };
    Ok(Field {
        name: name.to_string(),
        ty: FieldType::parse(ty),
        versions: vers("versions")?,
        nullable: vers("nullableVersions")?,
        tagged: vers("taggedVersions")?,
        tag: f.get("tag").and_then(Value::as_u64).map(|t| t as u32),
        ignorable: f.get("ignorable").and_then(Value::as_bool).unwrap_or(false),
        default,
        flexible_override,
        about: str_field(f, "about").unwrap_or("").to_string(),
        fields: parse_fields(f.get("fields"), &ctx)?,
    })
}

/// Parses one schema file's text.
pub fn parse_schema(file: &str, src: &str) -> Result<Schema, String> {
    let v: Value =
        serde_json::from_str(&strip_comments(src)).map_err(|e| format!("{file}: {e}"))?;
    let name = str_field(&v, "name").ok_or_else(|| format!("{file}: no name"))?;
    let kind = match str_field(&v, "type") {
        Some("request") => Kind::Request,
        Some("response") => Kind::Response,
        Some("header") => Kind::Header,
        Some("data") => Kind::Data,
        other => return Err(format!("{file}: unknown type {other:?}")),
    };
    let valid = Versions::parse(str_field(&v, "validVersions").unwrap_or("none"))?;
    let flexible = Versions::parse(str_field(&v, "flexibleVersions").unwrap_or("none"))?;
    let mut common_structs = Vec::new();
    if let Some(cs) = v.get("commonStructs").and_then(Value::as_array) {
        for s in cs {
            let sname = str_field(s, "name")
                .ok_or_else(|| format!("{file}: common struct without name"))?;
            common_structs.push((sname.to_string(), parse_fields(s.get("fields"), sname)?));
        }
    }
    Ok(Schema {
        file: file.to_string(),
        api_key: v.get("apiKey").and_then(Value::as_i64).map(|k| k as i16),
        kind,
        name: name.to_string(),
        valid,
        flexible,
        latest_unstable: v
            .get("latestVersionUnstable")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        fields: parse_fields(v.get("fields"), name)?,
        common_structs,
    })
}

/// A struct to generate: its name and fields, gathered from inline
/// definitions and common structs of one schema.
#[derive(Debug, Clone)]
pub struct StructDef {
    pub name: String,
    pub fields: Vec<Field>,
}

/// Every nested struct one schema defines, in first-seen order.
pub fn nested_structs(schema: &Schema) -> Result<Vec<StructDef>, String> {
    let mut out: Vec<StructDef> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    fn walk(
        fields: &[Field],
        out: &mut Vec<StructDef>,
        seen: &mut BTreeMap<String, usize>,
        file: &str,
    ) -> Result<(), String> {
        for f in fields {
            if let Some(sname) = f.ty.struct_name()
                && !f.fields.is_empty()
            {
                if seen.contains_key(sname) {
                    return Err(format!("{file}: struct {sname} defined twice"));
                }
                seen.insert(sname.to_string(), out.len());
                out.push(StructDef {
                    name: sname.to_string(),
                    fields: f.fields.clone(),
                });
                walk(&f.fields, out, seen, file)?;
            }
        }
        Ok(())
    }
    walk(&schema.fields, &mut out, &mut seen, &schema.file)?;
    for (name, fields) in &schema.common_structs {
        if seen.contains_key(name) {
            return Err(format!(
                "{}: common struct {name} also defined inline",
                schema.file
            ));
        }
        seen.insert(name.clone(), out.len());
        out.push(StructDef {
            name: name.clone(),
            fields: fields.clone(),
        });
        walk(fields, &mut out, &mut seen, &schema.file)?;
    }
    // Every referenced struct must be defined.
    fn check(fields: &[Field], seen: &BTreeMap<String, usize>, file: &str) -> Result<(), String> {
        for f in fields {
            if let Some(sname) = f.ty.struct_name()
                && !seen.contains_key(sname)
            {
                return Err(format!("{file}: struct {sname} is not defined"));
            }
            check(&f.fields, seen, file)?;
        }
        Ok(())
    }
    check(&schema.fields, &seen, &schema.file)?;
    for (_, fields) in &schema.common_structs {
        check(fields, &seen, &schema.file)?;
    }
    Ok(out)
}
