//! Output formats for `topic consume -f` (and produce's `-o`): rpk's JSON
//! object per record, or a format string as franz-go's `RecordFormatter`
//! reads it. Each layout compiles once into a list of steps, so printing a
//! record is a walk over the steps appending to one buffer.

use base64::Engine;
use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{LayoutError, Token, open_close, tokenize};

/// The long help of `topic consume`, rpk's text adapted.
pub const HELP: &str = "Consume records from topics and print them.

The default --format json prints one JSON object per record:
{\"topic\",\"key\",\"value\",\"headers\":[{\"key\",\"value\"}],\"timestamp\",\"partition\",\"offset\"}
(key omitted when null or empty, value when null, headers when none).
Any other --format is a format string:

    \\t \\n \\r \\\\ \\xNN      tab, newline, carriage return, slash, hex byte

    %t topic       %T topic length     %k key     %K key length
    %v value       %V value length     %h{...} headers (see below)
    %H number of headers   %p partition   %o offset   %e leader epoch
    %d timestamp (ms; or %d{strftime[%F %T]} / %d{go[2006-01-02]})
    %a{compression|timestamp-type|transactional-bit|control-bit[;NUMFMT]}
    %x producer id   %y producer epoch   %i records formatted so far
    %[ log start offset   %| last stable offset   %] high watermark
    %% %{ %}      percent sign, left brace, right brace

Numbers take {ascii hex64 hex32 hex16 hex8 hex4 hex big64 big32 big16 big8
little64 little32 little16 little8 byte bool}. Text takes {hex base64
base64raw unpack[...]} (unpack: x < > b B h H i I q Q c . s $ as Python's
struct). Headers: %h{ %k=%v } formats each header with the inner layout.

OFFSETS (-o):
    start | end           from the first / next offset
    +N | -N               N after the start / N before the end
    N | N:                from offset N
    :N | :end             from the start until offset N / the current end
    N1:N2                 from N1 until N2
    @T | @T: | @:T | @T1:T2   by timestamp: 13 digits ms, 10 digits s,
                          YYYY-MM-DD, RFC3339, a duration like -1h, or end";

/// A record as the formatter sees it (borrowed from what the fetcher gave).
#[derive(Debug, Clone, Default)]
pub struct Rec<'a> {
    pub topic: &'a str,
    pub partition: i32,
    pub offset: i64,
    pub timestamp: i64,
    /// 0 create time, 1 log append time, -1 none (pre-0.10).
    pub timestamp_type: i8,
    pub leader_epoch: i32,
    pub key: Option<&'a [u8]>,
    pub value: Option<&'a [u8]>,
    pub headers: &'a [(String, Option<Vec<u8>>)],
    pub producer_id: i64,
    pub producer_epoch: i16,
    /// Batch compression codec: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd.
    pub compression: u8,
    pub transactional: bool,
    pub control: bool,
}

/// The partition-level numbers `%[ %| %]` print.
#[derive(Debug, Clone, Copy, Default)]
pub struct PartInfo {
    pub log_start_offset: i64,
    pub last_stable_offset: i64,
    pub high_watermark: i64,
}

type NumFn = fn(&mut Vec<u8>, i64);

#[derive(Debug, Clone, Copy)]
enum Text {
    Plain,
    Hex,
    Base64,
    Base64Raw,
}

#[derive(Debug, Clone)]
enum Step {
    Lit(Vec<u8>),
    Num(NumField, NumFn),
    Text(TextField, Text),
    Unpack(TextField, Vec<UnpackOp>),
    Compression,
    Headers(Box<Formatter>),
    Strftime(String),
}

#[derive(Debug, Clone, Copy)]
enum NumField {
    TopicLen,
    KeyLen,
    ValueLen,
    HeaderCount,
    Partition,
    Offset,
    Epoch,
    Count,
    ProducerId,
    ProducerEpoch,
    Timestamp,
    TimestampType,
    CompressionCode,
    TxnBit,
    ControlBit,
    LogStart,
    Lso,
    Hwm,
}

#[derive(Debug, Clone, Copy)]
enum TextField {
    Topic,
    Key,
    Value,
}

#[derive(Debug, Clone, Copy)]
enum UnpackOp {
    Little,
    Big,
    Int { size: usize, signed: bool },
    Char,
    Rest,
    End,
}

/// A compiled format string.
#[derive(Debug, Clone)]
pub struct Formatter {
    steps: Vec<Step>,
    calls: u64,
}

fn num_layout(m: &str) -> Result<NumFn, LayoutError> {
    Ok(match m {
        "ascii" | "number" => |b, n| b.extend_from_slice(n.to_string().as_bytes()),
        "hex64" => |b, n| b.extend_from_slice(format!("{:016x}", n as u64).as_bytes()),
        "hex32" => |b, n| b.extend_from_slice(format!("{:08x}", n as u64 & 0xffff_ffff).as_bytes()),
        "hex16" => |b, n| b.extend_from_slice(format!("{:04x}", n as u64 & 0xffff).as_bytes()),
        "hex8" => |b, n| b.extend_from_slice(format!("{:02x}", n as u64 & 0xff).as_bytes()),
        "hex4" => |b, n| b.extend_from_slice(format!("{:x}", n as u64 & 0xf).as_bytes()),
        "hex" => |b, n| b.extend_from_slice(format!("{:x}", n as u64).as_bytes()),
        "big64" => |b, n| b.extend_from_slice(&(n as u64).to_be_bytes()),
        "big32" => |b, n| b.extend_from_slice(&(n as u32).to_be_bytes()),
        "big16" => |b, n| b.extend_from_slice(&(n as u16).to_be_bytes()),
        "byte" | "big8" | "little8" => |b, n| b.push(n as u8),
        "little64" => |b, n| b.extend_from_slice(&(n as u64).to_le_bytes()),
        "little32" => |b, n| b.extend_from_slice(&(n as u32).to_le_bytes()),
        "little16" => |b, n| b.extend_from_slice(&(n as u16).to_le_bytes()),
        "bool" => |b, n| b.extend_from_slice(if n == 0 { b"false" } else { b"true" }),
        other => {
            return Err(LayoutError(format!(
                "invalid output number layout {other:?}"
            )));
        }
    })
}

fn ascii(b: &mut Vec<u8>, n: i64) {
    b.extend_from_slice(n.to_string().as_bytes());
}

fn parse_unpack(spec: &str) -> Result<Vec<UnpackOp>, LayoutError> {
    let mut ops = Vec::new();
    let mut saw_end = false;
    for c in spec.chars() {
        // rpk documents `unpack[is$]`, so `$` may follow `s`.
        if saw_end && c != '$' {
            return Err(LayoutError(
                "already saw end-of-input parsing character".into(),
            ));
        }
        ops.push(match c {
            'x' => continue,
            '<' => UnpackOp::Little,
            '>' => UnpackOp::Big,
            'b' => UnpackOp::Int {
                size: 1,
                signed: true,
            },
            'B' => UnpackOp::Int {
                size: 1,
                signed: false,
            },
            'h' => UnpackOp::Int {
                size: 2,
                signed: true,
            },
            'H' => UnpackOp::Int {
                size: 2,
                signed: false,
            },
            'i' => UnpackOp::Int {
                size: 4,
                signed: true,
            },
            'I' => UnpackOp::Int {
                size: 4,
                signed: false,
            },
            'q' => UnpackOp::Int {
                size: 8,
                signed: true,
            },
            'Q' => UnpackOp::Int {
                size: 8,
                signed: false,
            },
            'c' | '.' => UnpackOp::Char,
            's' => {
                saw_end = true;
                UnpackOp::Rest
            }
            '$' => {
                saw_end = true;
                UnpackOp::End
            }
            other => {
                return Err(LayoutError(format!(
                    "invalid unpack parsing character {other}"
                )));
            }
        });
    }
    Ok(ops)
}

fn run_unpack(dst: &mut Vec<u8>, ops: &[UnpackOp], mut src: &[u8]) {
    let mut little = true;
    for op in ops {
        match *op {
            UnpackOp::Little => little = true,
            UnpackOp::Big => little = false,
            UnpackOp::Char => match src.split_first() {
                Some((c, rest)) => {
                    dst.push(*c);
                    src = rest;
                }
                None => dst.extend_from_slice(b"%!c(no bytes available)"),
            },
            UnpackOp::Rest => {
                dst.extend_from_slice(src);
                src = &[];
            }
            UnpackOp::End => {
                if !src.is_empty() {
                    dst.extend_from_slice(b"%!$(not end-of-input)");
                }
                src = &[];
            }
            UnpackOp::Int { size, signed } => {
                if src.len() < size {
                    dst.extend_from_slice(
                        format!("%!(have {} bytes, need {size})", src.len()).as_bytes(),
                    );
                    src = &[];
                    continue;
                }
                let mut raw = [0u8; 8];
                let (bytes, rest) = src.split_at(size);
                if little {
                    raw[..size].copy_from_slice(bytes);
                } else {
                    for (i, b) in bytes.iter().rev().enumerate() {
                        raw[i] = *b;
                    }
                }
                let u = u64::from_le_bytes(raw);
                let s = match size {
                    1 => u as u8 as i8 as i64,
                    2 => u as u16 as i16 as i64,
                    4 => u as u32 as i32 as i64,
                    _ => u as i64,
                };
                let text = if signed { s.to_string() } else { u.to_string() };
                dst.extend_from_slice(text.as_bytes());
                src = rest;
            }
        }
    }
}

/// Translates a Go reference-time layout into a chrono strftime layout,
/// longest tokens first (times are printed in UTC, as franz-go does).
fn go_to_strftime(go: &str) -> String {
    const TABLE: &[(&str, &str)] = &[
        ("January", "%B"),
        ("Monday", "%A"),
        ("Z07:00", "Z"),
        ("-07:00", "+00:00"),
        ("Z0700", "Z"),
        ("-0700", "+0000"),
        (".000000000", "%.9f"),
        (".000000", "%.6f"),
        (".000", "%.3f"),
        (".999999999", "%.f"),
        ("2006", "%Y"),
        ("Jan", "%b"),
        ("Mon", "%a"),
        ("MST", "UTC"),
        ("_2", "%e"),
        ("15", "%H"),
        ("01", "%m"),
        ("02", "%d"),
        ("03", "%I"),
        ("04", "%M"),
        ("05", "%S"),
        ("06", "%y"),
        ("PM", "%p"),
        ("pm", "%P"),
        ("1", "%-m"),
        ("2", "%-d"),
        ("3", "%-I"),
        ("4", "%-M"),
        ("5", "%-S"),
    ];
    let mut out = String::new();
    let mut rest = go;
    'outer: while !rest.is_empty() {
        for (from, to) in TABLE {
            if let Some(r) = rest.strip_prefix(from) {
                out.push_str(to);
                rest = r;
                continue 'outer;
            }
        }
        let Some(c) = rest.chars().next() else { break };
        if c == '%' {
            out.push_str("%%");
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Checks a strftime layout up front so a bad one is a usage error, not a
/// panic inside chrono's Display at print time.
fn check_strftime(f: &str) -> Result<(), LayoutError> {
    use chrono::format::{Item, StrftimeItems};
    if StrftimeItems::new(f).any(|i| matches!(i, Item::Error)) {
        return Err(LayoutError(format!("invalid time format {f:?}")));
    }
    Ok(())
}

impl Formatter {
    /// Compiles a layout; errors name the offending part.
    pub fn new(layout: &str) -> Result<Formatter, LayoutError> {
        let mut steps = Vec::new();
        for tok in tokenize(layout)? {
            let (c, m) = match tok {
                Token::Lit(l) => {
                    steps.push(Step::Lit(l));
                    continue;
                }
                Token::Verb(c, m) => (c, m),
            };
            let numfn = |m: &Option<String>| -> Result<NumFn, LayoutError> {
                match m {
                    Some(m) => num_layout(m),
                    None => Ok(ascii),
                }
            };
            let step = match c {
                'T' | 'K' | 'V' | 'H' | 'p' | 'o' | 'e' | 'i' | 'x' | 'y' | '[' | '|' | ']' => {
                    let field = match c {
                        'T' => NumField::TopicLen,
                        'K' => NumField::KeyLen,
                        'V' => NumField::ValueLen,
                        'H' => NumField::HeaderCount,
                        'p' => NumField::Partition,
                        'o' => NumField::Offset,
                        'e' => NumField::Epoch,
                        'i' => NumField::Count,
                        'x' => NumField::ProducerId,
                        'y' => NumField::ProducerEpoch,
                        '[' => NumField::LogStart,
                        '|' => NumField::Lso,
                        _ => NumField::Hwm,
                    };
                    Step::Num(field, numfn(&m)?)
                }
                't' | 'k' | 'v' => {
                    let field = match c {
                        't' => TextField::Topic,
                        'k' => TextField::Key,
                        _ => TextField::Value,
                    };
                    match m.as_deref() {
                        None | Some("") => Step::Text(field, Text::Plain),
                        Some("hex") => Step::Text(field, Text::Hex),
                        Some("base64") => Step::Text(field, Text::Base64),
                        Some("base64raw") => Step::Text(field, Text::Base64Raw),
                        Some(u) if u.starts_with("unpack") => {
                            let (inner, rest) = open_close(&u["unpack".len()..])?;
                            if !rest.is_empty() {
                                return Err(LayoutError(format!("unpack: trailing {rest:?}")));
                            }
                            Step::Unpack(field, parse_unpack(inner)?)
                        }
                        Some(other) => {
                            return Err(LayoutError(format!("unknown %{c}{{{other}}} escape")));
                        }
                    }
                }
                'a' => {
                    let Some(m) = m else {
                        return Err(LayoutError(
                            "missing open brace sequence on %a signifying how attributes should be written".into(),
                        ));
                    };
                    let (what, fmt) = match m.split_once(';') {
                        Some((w, f)) => (w, Some(f)),
                        None => (m.as_str(), None),
                    };
                    let field = match what {
                        "compression" if fmt.is_none() => {
                            steps.push(Step::Compression);
                            continue;
                        }
                        "compression" => NumField::CompressionCode,
                        "timestamp-type" => NumField::TimestampType,
                        "transactional-bit" => NumField::TxnBit,
                        "control-bit" => NumField::ControlBit,
                        _ => return Err(LayoutError("unknown %a formatting".into())),
                    };
                    Step::Num(field, numfn(&fmt.map(str::to_string))?)
                }
                'h' => {
                    let Some(m) = m else {
                        return Err(LayoutError(
                            "missing open brace sequence on %h signifying how headers are written"
                                .into(),
                        ));
                    };
                    Step::Headers(Box::new(Formatter::new(&m).map_err(|e| {
                        LayoutError(format!("invalid header specification {m:?}: {e}"))
                    })?))
                }
                'd' => match m.as_deref() {
                    None => Step::Num(NumField::Timestamp, ascii),
                    Some(s) if s.starts_with("strftime") => {
                        let (inner, rest) = open_close(&s["strftime".len()..])?;
                        if !rest.is_empty() {
                            return Err(LayoutError(format!(
                                "%d{{strftime missing closing }} in {s:?}"
                            )));
                        }
                        check_strftime(inner)?;
                        Step::Strftime(inner.to_string())
                    }
                    Some(s) if s.starts_with("go") => {
                        let (inner, rest) = open_close(&s["go".len()..])?;
                        if !rest.is_empty() {
                            return Err(LayoutError(format!("%d{{go missing closing }} in {s:?}")));
                        }
                        let f = go_to_strftime(inner);
                        check_strftime(&f)?;
                        Step::Strftime(f)
                    }
                    Some(s) => Step::Num(
                        NumField::Timestamp,
                        num_layout(s).map_err(|_| {
                            LayoutError(format!("unknown %d{{ time specification in {s:?}"))
                        })?,
                    ),
                },
                other => return Err(LayoutError(format!("unknown escape sequence %{other}"))),
            };
            steps.push(step);
        }
        Ok(Formatter { steps, calls: 0 })
    }

    /// Appends one record, formatted, to `b`.
    pub fn append(&mut self, b: &mut Vec<u8>, r: &Rec<'_>, p: Option<&PartInfo>) {
        for step in &mut self.steps {
            match step {
                Step::Lit(l) => b.extend_from_slice(l),
                Step::Num(NumField::Count, f) => {
                    self.calls += 1;
                    f(b, self.calls as i64)
                }
                Step::Num(field, f) => {
                    let n = match field {
                        NumField::TopicLen => r.topic.len() as i64,
                        NumField::KeyLen => r.key.map_or(0, |k| k.len() as i64),
                        NumField::ValueLen => r.value.map_or(0, |v| v.len() as i64),
                        NumField::HeaderCount => r.headers.len() as i64,
                        NumField::Partition => r.partition as i64,
                        NumField::Offset => r.offset,
                        NumField::Epoch => r.leader_epoch as i64,
                        NumField::Count => 0,
                        NumField::ProducerId => r.producer_id,
                        NumField::ProducerEpoch => r.producer_epoch as i64,
                        NumField::Timestamp => r.timestamp,
                        NumField::TimestampType => r.timestamp_type as i64,
                        NumField::CompressionCode => r.compression as i64,
                        NumField::TxnBit => r.transactional as i64,
                        NumField::ControlBit => r.control as i64,
                        NumField::LogStart | NumField::Lso | NumField::Hwm => {
                            let Some(p) = p else {
                                b.extend_from_slice(b"<nil>");
                                continue;
                            };
                            match field {
                                NumField::LogStart => p.log_start_offset,
                                NumField::Lso => p.last_stable_offset,
                                _ => p.high_watermark,
                            }
                        }
                    };
                    f(b, n)
                }
                Step::Text(field, t) => {
                    let src = text_of(r, *field);
                    match t {
                        Text::Plain => b.extend_from_slice(src),
                        Text::Hex => {
                            for x in src {
                                b.extend_from_slice(format!("{x:02x}").as_bytes());
                            }
                        }
                        Text::Base64 => b.extend_from_slice(
                            base64::engine::general_purpose::STANDARD
                                .encode(src)
                                .as_bytes(),
                        ),
                        Text::Base64Raw => b.extend_from_slice(
                            base64::engine::general_purpose::STANDARD_NO_PAD
                                .encode(src)
                                .as_bytes(),
                        ),
                    }
                }
                Step::Unpack(field, ops) => run_unpack(b, ops, text_of(r, *field)),
                Step::Compression => b.extend_from_slice(match r.compression {
                    0 => b"none".as_slice(),
                    1 => b"gzip",
                    2 => b"snappy",
                    3 => b"lz4",
                    4 => b"zstd",
                    _ => b"unknown",
                }),
                Step::Headers(inner) => {
                    for (k, v) in r.headers {
                        let h = Rec {
                            key: Some(k.as_bytes()),
                            value: v.as_deref(),
                            ..Rec::default()
                        };
                        inner.append(b, &h, None);
                    }
                }
                Step::Strftime(f) => {
                    let t = DateTime::<Utc>::from_timestamp_millis(r.timestamp).unwrap_or_default();
                    b.extend_from_slice(t.format(f).to_string().as_bytes());
                }
            }
        }
    }
}

fn text_of<'a>(r: &Rec<'a>, f: TextField) -> &'a [u8] {
    match f {
        TextField::Topic => r.topic.as_bytes(),
        TextField::Key => r.key.unwrap_or_default(),
        TextField::Value => r.value.unwrap_or_default(),
    }
}

#[derive(Serialize)]
struct JsonHeader {
    key: String,
    value: String,
}

/// rpk's JSON record, field for field and in rpk's order.
#[derive(Serialize)]
struct JsonRecord<'a> {
    topic: &'a str,
    #[serde(skip_serializing_if = "String::is_empty")]
    key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value_size: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    headers: Vec<JsonHeader>,
    timestamp: i64,
    partition: i32,
    offset: i64,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Appends rpk's JSON object for a record plus a newline. `meta_only`
/// replaces the value by its size, as rpk's `--meta-only`.
pub fn append_json(b: &mut Vec<u8>, r: &Rec<'_>, pretty: bool, meta_only: bool) {
    let j = JsonRecord {
        topic: r.topic,
        key: r.key.map(lossy).unwrap_or_default(),
        value: if meta_only { None } else { r.value.map(lossy) },
        value_size: meta_only.then(|| r.value.map_or(0, <[u8]>::len)),
        headers: r
            .headers
            .iter()
            .map(|(k, v)| JsonHeader {
                key: k.clone(),
                value: v.as_deref().map(lossy).unwrap_or_default(),
            })
            .collect(),
        timestamp: r.timestamp,
        partition: r.partition,
        offset: r.offset,
    };
    // Serializing a struct of strings and integers cannot fail.
    let s = if pretty {
        serde_json::to_string_pretty(&j)
    } else {
        serde_json::to_string(&j)
    };
    b.extend_from_slice(s.unwrap_or_default().as_bytes());
    b.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec<'a>(headers: &'a [(String, Option<Vec<u8>>)]) -> Rec<'a> {
        Rec {
            topic: "foo",
            partition: 2,
            offset: 47,
            timestamp: 1_700_000_000_123,
            key: Some(b"k1"),
            value: Some(b"hello"),
            headers,
            ..Rec::default()
        }
    }

    fn fmt(layout: &str, r: &Rec<'_>) -> String {
        let mut f = Formatter::new(layout).unwrap();
        let mut b = Vec::new();
        f.append(
            &mut b,
            r,
            Some(&PartInfo {
                log_start_offset: 1,
                last_stable_offset: 50,
                high_watermark: 51,
            }),
        );
        String::from_utf8_lossy(&b).into_owned()
    }

    #[test]
    fn basic_verbs() {
        let h = [
            ("a".to_string(), Some(b"1".to_vec())),
            ("b".to_string(), None),
        ];
        let r = rec(&h);
        assert_eq!(
            fmt("%t %k %v %p %o %d\\n", &r),
            "foo k1 hello 2 47 1700000000123\n"
        );
        assert_eq!(fmt("%T %K %V %H", &r), "3 2 5 2");
        assert_eq!(fmt("%h{%k=%v;}", &r), "a=1;b=;");
        assert_eq!(fmt("%[ %| %]", &r), "1 50 51");
        assert_eq!(fmt("%%%{%}", &r), "%{}");
        assert_eq!(fmt("%e %x %y", &r), "0 0 0");
    }

    #[test]
    fn modifiers() {
        let r = rec(&[]);
        assert_eq!(fmt("%v{hex}", &r), "68656c6c6f");
        assert_eq!(fmt("%v{base64}", &r), "aGVsbG8=");
        assert_eq!(fmt("%v{base64raw}", &r), "aGVsbG8");
        assert_eq!(fmt("%o{hex8}", &r), "2f");
        assert_eq!(fmt("%o{hex64}", &r), "000000000000002f");
        assert_eq!(fmt("%p{bool}", &r), "true");
        let mut f = Formatter::new("%V{big32}").unwrap();
        let mut b = Vec::new();
        f.append(&mut b, &r, None);
        assert_eq!(b, [0, 0, 0, 5]);
    }

    #[test]
    fn timestamps() {
        let r = rec(&[]);
        assert_eq!(fmt("%d{strftime[%F %T]}", &r), "2023-11-14 22:13:20");
        assert_eq!(fmt("%d{strftime### [%F] ###}", &r), " [2023-11-14] ");
        assert_eq!(
            fmt("%d{go[2006-01-02T15:04:05.000Z07:00]}", &r),
            "2023-11-14T22:13:20.123Z"
        );
        assert_eq!(fmt("%d{hex}", &r), format!("{:x}", 1_700_000_000_123i64));
    }

    #[test]
    fn attributes_and_count() {
        let r = rec(&[]);
        assert_eq!(
            fmt(
                "%a{compression} %a{compression;number} %a{timestamp-type} %a{control-bit;bool}",
                &r
            ),
            "none 0 0 false"
        );
        let mut f = Formatter::new("%i,").unwrap();
        let mut b = Vec::new();
        f.append(&mut b, &r, None);
        f.append(&mut b, &r, None);
        assert_eq!(b, b"1,2,");
    }

    #[test]
    fn unpack() {
        let v = [1u8, 0, 0, 0, b'h', b'i'];
        let r = Rec {
            value: Some(&v),
            ..Rec::default()
        };
        assert_eq!(fmt("%v{unpack[is$]}", &r), "1hi");
        assert_eq!(fmt("%v{unpack[>I]}", &r), "16777216");
        assert_eq!(fmt("%v{unpack[iI]}", &r), "1%!(have 2 bytes, need 4)");
    }

    #[test]
    fn bad_layouts() {
        for l in [
            "%q",
            "%a",
            "%a{nope}",
            "%h",
            "%v{nope}",
            "%o{nope}",
            "%d{strftime[%Q]}",
            "%v{unpack[z]}",
        ] {
            assert!(Formatter::new(l).is_err(), "{l} should fail");
        }
    }

    #[test]
    fn json_like_rpk() {
        let h = [("h".to_string(), Some(b"v".to_vec()))];
        let r = rec(&h);
        let mut b = Vec::new();
        append_json(&mut b, &r, false, false);
        assert_eq!(
            String::from_utf8(b).unwrap(),
            "{\"topic\":\"foo\",\"key\":\"k1\",\"value\":\"hello\",\"headers\":[{\"key\":\"h\",\"value\":\"v\"}],\"timestamp\":1700000000123,\"partition\":2,\"offset\":47}\n"
        );
        let r = Rec {
            key: None,
            value: None,
            ..rec(&[])
        };
        let mut b = Vec::new();
        append_json(&mut b, &r, false, false);
        assert_eq!(
            String::from_utf8(b).unwrap(),
            "{\"topic\":\"foo\",\"timestamp\":1700000000123,\"partition\":2,\"offset\":47}\n"
        );
        let mut b = Vec::new();
        append_json(&mut b, &rec(&[]), false, true);
        assert!(String::from_utf8(b).unwrap().contains("\"value_size\":5"));
    }
}
