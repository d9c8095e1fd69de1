//! Input formats for `topic produce -f`: franz-go's `RecordReader`, which
//! rpk uses. A layout compiles to read steps; a text verb with no size reads
//! up to the literal that follows it (its delimiter), or to the end of the
//! input when nothing follows; sizes (`%K`, `%V{big32}`, `%V{5}`) must come
//! before what they size. Reading streams from any `Read`, so an interactive
//! terminal produces a record per line as it is typed.

use std::io::Read;

use base64::Engine;

use super::{LayoutError, Token, open_close, tokenize};

/// The long help of `topic produce`, rpk's text adapted.
pub const HELP: &str = "Produce records read from standard input.

Input is parsed with --format (default '%v\\n': one value per line). Text
verbs read up to the literal text that follows them, or to the end of the
input; sizes must come before what they size.

    \\t \\n \\r \\\\ \\xNN      tab, newline, carriage return, slash, hex byte

    %t topic      %T topic length     %k key     %K key length
    %v value      %V value length     %H number of headers
    %h{...} headers, each read with the inner layout (needs %H first)
    %p partition (needs a non-negative --partition)
    %d timestamp in milliseconds
    %o offset  %e leader epoch  %x producer id  %y producer epoch (read, ignored)
    %% %{ %}     percent sign, left brace, right brace

Sizes and numbers take {ascii big64 big32 big16 big8 little64 little32
little16 little8 byte hex64 hex32 hex16 hex8 hex4 bool} or {N} for exactly N
characters. Text takes {hex} or {base64} (decode after reading), {json}
(read one JSON value, compacted) or {re[REGEX]} (read what matches).

Examples:
    -f '%k %v\\n'                  key and value separated by a space
    -f '%T{4}%K{4}%V{4}%t%k%v'     three four-digit sizes, then the texts
    -f '%p %v\\n'                  partition then value (with -p 0)
    -f '%K{big16} foo %k'          binary key size, literal text, key
    -f '%v{re#...?#}\\n'           a value of two or three characters
    -f '%H{2}%h{%k=%v,}%v\\n'      two headers then the value

Headers given with -H and a key given with -k apply to every record; parsed
keys and headers take precedence. Empty values are empty strings unless -Z
makes them tombstones (null).";

/// One record read from the input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    pub topic: Option<String>,
    pub key: Option<Vec<u8>>,
    pub value: Option<Vec<u8>>,
    pub headers: Vec<(String, Option<Vec<u8>>)>,
    pub partition: Option<i32>,
    pub timestamp: Option<i64>,
}

/// Why reading a record failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("unexpected end of input in the middle of a record")]
    UnexpectedEof,
    #[error("{0}")]
    Mismatch(String),
    #[error("reading input: {0}")]
    Io(#[from] std::io::Error),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Var {
    TopicLen,
    KeyLen,
    ValueLen,
    HeaderCount,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NumTarget {
    Var(Var),
    Partition,
    Timestamp,
    Ignored,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextTarget {
    Topic,
    Key,
    Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decode {
    None,
    Hex,
    Base64,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NumKind {
    Ascii,
    Bool,
    Binary {
        size: usize,
        little: bool,
    },
    Hex(usize),
    /// `{N}`: a fixed number that reads nothing.
    Fixed(u64),
}

#[derive(Debug, Clone)]
enum How {
    /// Read until this delimiter (consumed); empty: read to end of input.
    Delim(Vec<u8>),
    /// Read exactly the size held in a variable.
    Sized(Var),
    Regex(regex::bytes::Regex),
    Json,
}

#[derive(Debug, Clone)]
enum Step {
    Exact(Vec<u8>),
    Num(NumKind, NumTarget),
    Text(TextTarget, How, Decode),
    Headers(Box<Reader>),
}

impl Step {
    fn reads_nothing(&self) -> bool {
        matches!(self, Step::Num(NumKind::Fixed(_), _))
    }
}

/// A compiled input layout.
#[derive(Debug, Clone)]
pub struct Reader {
    steps: Vec<Step>,
}

fn num_kind(m: Option<&str>) -> Result<NumKind, LayoutError> {
    let Some(m) = m else {
        return Ok(NumKind::Ascii);
    };
    Ok(match m {
        "ascii" | "number" => NumKind::Ascii,
        "bool" => NumKind::Bool,
        "big64" => NumKind::Binary {
            size: 8,
            little: false,
        },
        "big32" => NumKind::Binary {
            size: 4,
            little: false,
        },
        "big16" => NumKind::Binary {
            size: 2,
            little: false,
        },
        "little64" => NumKind::Binary {
            size: 8,
            little: true,
        },
        "little32" => NumKind::Binary {
            size: 4,
            little: true,
        },
        "little16" => NumKind::Binary {
            size: 2,
            little: true,
        },
        "byte" | "big8" | "little8" => NumKind::Binary {
            size: 1,
            little: true,
        },
        "hex64" => NumKind::Hex(16),
        "hex32" => NumKind::Hex(8),
        "hex16" => NumKind::Hex(4),
        "hex8" => NumKind::Hex(2),
        "hex4" => NumKind::Hex(1),
        other => match other.parse::<u64>() {
            Ok(n) if n > 0 => NumKind::Fixed(n),
            _ => {
                return Err(LayoutError(format!(
                    "unrecognized number reading layout {other:?}"
                )));
            }
        },
    })
}

impl Reader {
    /// Compiles a layout (rpk's rules: sizes before what they size, each
    /// size at most once, `%h` only after `%H`).
    pub fn new(layout: &str) -> Result<Reader, LayoutError> {
        if layout.is_empty() {
            return Err(LayoutError("invalid empty format".into()));
        }
        let mut steps: Vec<Step> = Vec::new();
        let mut sized: Vec<Var> = Vec::new();
        let mut texts: Vec<TextTarget> = Vec::new();
        for tok in tokenize(layout)? {
            let (c, m) = match tok {
                Token::Lit(l) => {
                    // A literal right after an unsized text verb is its delimiter.
                    if let Some(Step::Text(_, How::Delim(d), _)) = steps.last_mut()
                        && d.is_empty()
                    {
                        *d = l;
                        continue;
                    }
                    steps.push(Step::Exact(l));
                    continue;
                }
                Token::Verb(c, m) => (c, m),
            };
            match c {
                'T' | 'K' | 'V' | 'H' => {
                    let (var, text) = match c {
                        'T' => (Var::TopicLen, Some(TextTarget::Topic)),
                        'K' => (Var::KeyLen, Some(TextTarget::Key)),
                        'V' => (Var::ValueLen, Some(TextTarget::Value)),
                        _ => (Var::HeaderCount, None),
                    };
                    if sized.contains(&var) {
                        return Err(LayoutError(format!("%{c} is doubly specified")));
                    }
                    if text.is_some_and(|t| texts.contains(&t)) {
                        return Err(LayoutError(format!(
                            "size specification %{c} cannot come after value specification %{}",
                            c.to_ascii_lowercase()
                        )));
                    }
                    sized.push(var);
                    steps.push(Step::Num(num_kind(m.as_deref())?, NumTarget::Var(var)));
                }
                'p' | 'o' | 'e' | 'd' | 'x' | 'y' => {
                    let target = match c {
                        'p' => NumTarget::Partition,
                        'd' => NumTarget::Timestamp,
                        _ => NumTarget::Ignored,
                    };
                    steps.push(Step::Num(num_kind(m.as_deref())?, target));
                }
                't' | 'k' | 'v' => {
                    let (target, var) = match c {
                        't' => (TextTarget::Topic, Var::TopicLen),
                        'k' => (TextTarget::Key, Var::KeyLen),
                        _ => (TextTarget::Value, Var::ValueLen),
                    };
                    let (mut how, decode) = match m.as_deref() {
                        None | Some("") => (How::Delim(Vec::new()), Decode::None),
                        Some("hex") => (How::Delim(Vec::new()), Decode::Hex),
                        Some("base64") => (How::Delim(Vec::new()), Decode::Base64),
                        Some("json") => (How::Json, Decode::Json),
                        Some(r) if r.starts_with("re") => {
                            let (inner, rest) = open_close(&r[2..])?;
                            if !rest.is_empty() {
                                return Err(LayoutError(format!("re missing closing }} in {r:?}")));
                            }
                            let anchored = if inner.starts_with('^') {
                                inner.to_string()
                            } else {
                                format!("^{inner}")
                            };
                            let re = regex::bytes::Regex::new(&anchored)
                                .map_err(|e| LayoutError(format!("re parse err: {e}")))?;
                            (How::Regex(re), Decode::None)
                        }
                        Some(other) => {
                            return Err(LayoutError(format!("unknown %{c}{{{other}}} escape")));
                        }
                    };
                    if sized.contains(&var) {
                        match how {
                            How::Regex(_) => {
                                return Err(LayoutError(
                                    "cannot specify exact size and regular expression".into(),
                                ));
                            }
                            How::Json => {
                                return Err(LayoutError(
                                    "cannot specify exact size and json".into(),
                                ));
                            }
                            _ => how = How::Sized(var),
                        }
                    }
                    texts.push(target);
                    steps.push(Step::Text(target, how, decode));
                }
                'h' => {
                    if !sized.contains(&Var::HeaderCount) {
                        return Err(LayoutError(
                            "missing header count specification %H before header specification %h"
                                .into(),
                        ));
                    }
                    let Some(m) = m else {
                        return Err(LayoutError(
                            "missing open brace sequence on %h signifying how headers are encoded"
                                .into(),
                        ));
                    };
                    let inner = Reader::new(&m)
                        .map_err(|e| LayoutError(format!("invalid header specification: {e}")))?;
                    steps.push(Step::Headers(Box::new(inner)));
                }
                other => {
                    return Err(LayoutError(format!(
                        "unknown percent escape sequence %{other}"
                    )));
                }
            }
        }
        // Fixed numbers read nothing; putting them first keeps "end of input
        // at the first read" the clean end of the stream.
        let (mut fixed, reads): (Vec<Step>, Vec<Step>) =
            steps.into_iter().partition(Step::reads_nothing);
        if reads.is_empty() {
            return Err(LayoutError("layout reads nothing from the input".into()));
        }
        fixed.extend(reads);
        Ok(Reader { steps: fixed })
    }

    /// Reads the next record; `Ok(None)` at a clean end of input.
    pub fn next<R: Read>(&self, input: &mut Input<R>) -> Result<Option<Parsed>, ReadError> {
        let mut rec = Parsed::default();
        let mut vars = [0u64; 4];
        let first_read = self
            .steps
            .iter()
            .position(|s| !s.reads_nothing())
            .unwrap_or(0);
        for (i, step) in self.steps.iter().enumerate() {
            if i == first_read && input.at_eof()? {
                return Ok(None);
            }
            self.run(step, input, &mut rec, &mut vars, i + 1 == self.steps.len())?;
        }
        Ok(Some(rec))
    }

    fn run<R: Read>(
        &self,
        step: &Step,
        input: &mut Input<R>,
        rec: &mut Parsed,
        vars: &mut [u64; 4],
        last: bool,
    ) -> Result<(), ReadError> {
        match step {
            Step::Exact(lit) => {
                let got = input.take(lit.len())?;
                if got.len() < lit.len() {
                    return Err(ReadError::UnexpectedEof);
                }
                if got != *lit {
                    return Err(ReadError::Mismatch(format!(
                        "exact text mismatch, read {:?} when expecting {:?}",
                        String::from_utf8_lossy(&got),
                        String::from_utf8_lossy(lit)
                    )));
                }
            }
            Step::Num(kind, target) => {
                let n = read_num(*kind, input)?;
                match target {
                    NumTarget::Var(v) => vars[*v as usize] = n,
                    NumTarget::Partition => {
                        rec.partition = Some(i32::try_from(n).map_err(|_| {
                            ReadError::Mismatch(format!("partition {n} out of range"))
                        })?)
                    }
                    NumTarget::Timestamp => rec.timestamp = Some(n as i64),
                    NumTarget::Ignored => {}
                }
            }
            Step::Text(target, how, decode) => {
                let raw = match how {
                    How::Delim(d) if d.is_empty() => input.take_rest()?,
                    How::Delim(d) => match input.take_until(d)? {
                        Some(b) => b,
                        // The last delimiter may be missing at the very end
                        // of the input (a file without a final newline).
                        None if last => input.take_rest()?,
                        None => return Err(ReadError::UnexpectedEof),
                    },
                    How::Sized(v) => {
                        let n = vars[*v as usize];
                        let got = input.take(usize::try_from(n).unwrap_or(usize::MAX))?;
                        if (got.len() as u64) < n {
                            return Err(ReadError::UnexpectedEof);
                        }
                        got
                    }
                    How::Regex(re) => input.take_regex(re)?,
                    How::Json => input.take_json()?,
                };
                let bytes = decode_text(raw, *decode)?;
                match target {
                    TextTarget::Topic => {
                        rec.topic = Some(
                            String::from_utf8(bytes)
                                .map_err(|_| ReadError::Mismatch("topic is not UTF-8".into()))?,
                        )
                    }
                    // franz-go keeps an empty key or value as null.
                    TextTarget::Key => rec.key = (!bytes.is_empty()).then_some(bytes),
                    TextTarget::Value => rec.value = (!bytes.is_empty()).then_some(bytes),
                }
            }
            Step::Headers(inner) => {
                for _ in 0..vars[Var::HeaderCount as usize] {
                    let mut h = Parsed::default();
                    let mut hv = [0u64; 4];
                    for (i, s) in inner.steps.iter().enumerate() {
                        inner.run(
                            s,
                            input,
                            &mut h,
                            &mut hv,
                            last && i + 1 == inner.steps.len(),
                        )?;
                    }
                    let key = String::from_utf8(h.key.unwrap_or_default())
                        .map_err(|_| ReadError::Mismatch("header key is not UTF-8".into()))?;
                    rec.headers.push((key, h.value));
                }
            }
        }
        Ok(())
    }
}

fn decode_text(raw: Vec<u8>, d: Decode) -> Result<Vec<u8>, ReadError> {
    match d {
        Decode::None => Ok(raw),
        Decode::Hex => {
            if !raw.len().is_multiple_of(2) {
                return Err(ReadError::Mismatch("odd length hex".into()));
            }
            raw.chunks(2)
                .map(|c| {
                    std::str::from_utf8(c)
                        .ok()
                        .and_then(|s| u8::from_str_radix(s, 16).ok())
                        .ok_or_else(|| {
                            ReadError::Mismatch(format!(
                                "invalid hex {:?}",
                                String::from_utf8_lossy(c)
                            ))
                        })
                })
                .collect()
        }
        Decode::Base64 => base64::engine::general_purpose::STANDARD
            .decode(&raw)
            .map_err(|e| ReadError::Mismatch(format!("invalid base64: {e}"))),
        Decode::Json => {
            let v: serde_json::Value = serde_json::from_slice(&raw)
                .map_err(|e| ReadError::Mismatch(format!("invalid json: {e}")))?;
            serde_json::to_vec(&v).map_err(|e| ReadError::Mismatch(e.to_string()))
        }
    }
}

fn read_num<R: Read>(kind: NumKind, input: &mut Input<R>) -> Result<u64, ReadError> {
    let bad = |what: &[u8]| {
        ReadError::Mismatch(format!(
            "invalid number {:?}",
            String::from_utf8_lossy(what)
        ))
    };
    match kind {
        NumKind::Fixed(n) => Ok(n),
        NumKind::Ascii => {
            let digits = input.take_while(|b| b.is_ascii_digit())?;
            if digits.is_empty() {
                return Err(if input.at_eof()? {
                    ReadError::UnexpectedEof
                } else {
                    bad(&digits)
                });
            }
            std::str::from_utf8(&digits)
                .ok()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| bad(&digits))
        }
        NumKind::Bool => {
            let w = input.take_while(|b| b.is_ascii_alphabetic())?;
            match w.as_slice() {
                b"true" => Ok(1),
                b"false" => Ok(0),
                _ => Err(bad(&w)),
            }
        }
        NumKind::Binary { size, little } => {
            let b = input.take(size)?;
            if b.len() < size {
                return Err(ReadError::UnexpectedEof);
            }
            let mut raw = [0u8; 8];
            if little {
                raw[..size].copy_from_slice(&b);
            } else {
                for (i, x) in b.iter().rev().enumerate() {
                    raw[i] = *x;
                }
            }
            Ok(u64::from_le_bytes(raw))
        }
        NumKind::Hex(n) => {
            let b = input.take(n)?;
            if b.len() < n {
                return Err(ReadError::UnexpectedEof);
            }
            std::str::from_utf8(&b)
                .ok()
                .and_then(|s| u64::from_str_radix(s, 16).ok())
                .ok_or_else(|| bad(&b))
        }
    }
}

/// A small look-ahead buffer over a reader: reads block only until the bytes
/// a step needs are there, so interactive input is handled line by line.
pub struct Input<R> {
    r: R,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
}

const CHUNK: usize = 64 * 1024;

impl<R: Read> Input<R> {
    pub fn new(r: R) -> Input<R> {
        Input {
            r,
            buf: Vec::new(),
            pos: 0,
            eof: false,
        }
    }

    /// Reads more input; false at end of input.
    fn fill(&mut self) -> Result<bool, std::io::Error> {
        if self.eof {
            return Ok(false);
        }
        if self.pos > 0 && self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
        }
        let old = self.buf.len();
        self.buf.resize(old + CHUNK, 0);
        let n = loop {
            match self.r.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(old + n);
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// Whether input is already read and waiting (so parsing the next
    /// record would not block).
    pub fn has_buffered(&self) -> bool {
        self.pos < self.buf.len()
    }

    fn avail(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    fn at_eof(&mut self) -> Result<bool, std::io::Error> {
        while self.avail().is_empty() {
            if !self.fill()? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn consume(&mut self, n: usize) -> Vec<u8> {
        let out = self.buf[self.pos..self.pos + n].to_vec();
        self.pos += n;
        out
    }

    /// Up to `n` bytes (fewer only at end of input).
    fn take(&mut self, n: usize) -> Result<Vec<u8>, std::io::Error> {
        let mut out = Vec::new();
        while out.len() < n {
            if self.avail().is_empty() && !self.fill()? {
                break;
            }
            let k = (n - out.len()).min(self.avail().len());
            out.extend(self.consume(k));
        }
        Ok(out)
    }

    fn take_while(&mut self, f: impl Fn(u8) -> bool) -> Result<Vec<u8>, std::io::Error> {
        let mut out = Vec::new();
        loop {
            if self.avail().is_empty() && !self.fill()? {
                return Ok(out);
            }
            let k = self.avail().iter().take_while(|b| f(**b)).count();
            let all = k == self.avail().len();
            out.extend(self.consume(k));
            if !all {
                return Ok(out);
            }
        }
    }

    /// The bytes before `d`, with `d` consumed; None if the input ends first
    /// (what was read stays available).
    fn take_until(&mut self, d: &[u8]) -> Result<Option<Vec<u8>>, std::io::Error> {
        let mut from = 0;
        loop {
            let a = self.avail();
            if let Some(i) = a[from..].windows(d.len()).position(|w| w == d) {
                let out = self.consume(from + i);
                self.pos += d.len();
                return Ok(Some(out));
            }
            from = a.len().saturating_sub(d.len() - 1);
            if !self.fill()? {
                return Ok(None);
            }
        }
    }

    fn take_rest(&mut self) -> Result<Vec<u8>, std::io::Error> {
        while self.fill()? {}
        let n = self.avail().len();
        Ok(self.consume(n))
    }

    /// The longest match of an anchored regex; reads ahead a line at a time
    /// (or to end of input) so the match cannot stop at a buffer edge mid-line.
    fn take_regex(&mut self, re: &regex::bytes::Regex) -> Result<Vec<u8>, ReadError> {
        while !self.avail().contains(&b'\n') && self.fill()? {}
        match re.find(self.avail()) {
            Some(m) => Ok(self.consume(m.end())),
            None => Err(ReadError::Mismatch(format!(
                "regexp text mismatch, saw {:?}",
                String::from_utf8_lossy(&self.avail()[..self.avail().len().min(40)])
            ))),
        }
    }

    /// One JSON value (object, array, string, number, literal).
    fn take_json(&mut self) -> Result<Vec<u8>, ReadError> {
        loop {
            let mut it = serde_json::Deserializer::from_slice(self.avail())
                .into_iter::<serde::de::IgnoredAny>();
            match it.next() {
                Some(Ok(_)) => {
                    let n = it.byte_offset();
                    let raw = self.consume(n);
                    // Leading whitespace is not part of the value.
                    let start = raw
                        .iter()
                        .position(|b| !b.is_ascii_whitespace())
                        .unwrap_or(raw.len());
                    return Ok(raw[start..].to_vec());
                }
                Some(Err(e)) if e.is_eof() => {
                    if !self.fill()? {
                        return Err(ReadError::UnexpectedEof);
                    }
                }
                Some(Err(e)) => return Err(ReadError::Mismatch(format!("invalid json: {e}"))),
                None => {
                    if !self.fill()? {
                        return Err(ReadError::UnexpectedEof);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(layout: &str, input: &[u8]) -> Result<Vec<Parsed>, ReadError> {
        let r = Reader::new(layout).unwrap();
        let mut inp = Input::new(input);
        let mut out = Vec::new();
        while let Some(p) = r.next(&mut inp)? {
            out.push(p);
        }
        Ok(out)
    }

    fn v(s: &str) -> Option<Vec<u8>> {
        Some(s.as_bytes().to_vec())
    }

    #[test]
    fn default_lines() {
        let got = all("%v\\n", b"a\nbb\n\nc").unwrap();
        let vals: Vec<_> = got.iter().map(|p| p.value.clone()).collect();
        assert_eq!(vals, [v("a"), v("bb"), None, v("c")]);
    }

    #[test]
    fn key_value_and_topic() {
        let got = all("%t %k %v\\n", b"foo k1 v 1\nbar k2 v2\n").unwrap();
        assert_eq!(got[0].topic.as_deref(), Some("foo"));
        assert_eq!(got[0].key, v("k1"));
        assert_eq!(got[0].value, v("v 1"));
        assert_eq!(got[1].topic.as_deref(), Some("bar"));
    }

    #[test]
    fn sizes() {
        let got = all("%T{4}%K{4}%V{4}%t%k%v", b"foo12345").unwrap_err();
        assert!(matches!(got, ReadError::UnexpectedEof), "{got:?}");
        let got = all("%K%k%V%v", b"3abc2de").unwrap();
        assert_eq!(
            (got[0].key.clone(), got[0].value.clone()),
            (v("abc"), v("de"))
        );
        let got = all("%K{big16} foo %k", b"\x00\x02 foo hi").unwrap();
        assert_eq!(got[0].key, v("hi"));
        let got = all("%V{3}%v", b"abcdef").unwrap();
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn headers_partition_timestamp() {
        let got = all(
            "%p %d %H{2}%h{%k=%v,}%v\\n",
            b"3 1700000000000 a=1,b=2,val\n",
        )
        .unwrap();
        assert_eq!(got[0].partition, Some(3));
        assert_eq!(got[0].timestamp, Some(1_700_000_000_000));
        assert_eq!(
            got[0].headers,
            vec![("a".into(), v("1")), ("b".into(), v("2"))]
        );
        assert_eq!(got[0].value, v("val"));
    }

    #[test]
    fn decoders() {
        let got = all("%k{hex} %v{base64}\\n", b"6869 aGVsbG8=\n").unwrap();
        assert_eq!(
            (got[0].key.clone(), got[0].value.clone()),
            (v("hi"), v("hello"))
        );
        let got = all("%k %v{json}", b"a {\"x\" : [1, 2]}").unwrap();
        assert_eq!(got[0].value, v("{\"x\":[1,2]}"));
        let got = all("%v{re#...?#}\\n", b"ab\nabc\n").unwrap();
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn escapes_and_literals() {
        let got = all("%k\\t%v\\x00", b"k\tv\x00").unwrap();
        assert_eq!((got[0].key.clone(), got[0].value.clone()), (v("k"), v("v")));
        let err = all("<%v>\\n", b"[x]\n").unwrap_err();
        assert!(matches!(err, ReadError::Mismatch(_)));
    }

    #[test]
    fn layout_errors() {
        for l in [
            "",
            "%q",
            "%k%K",
            "%K%K%k",
            "%h{%k}",
            "%H%h",
            "%p{3}",
            "%K{3}%k{re[a]}",
            "%v{nope}",
        ] {
            assert!(Reader::new(l).is_err(), "{l:?} should fail");
        }
    }
}
