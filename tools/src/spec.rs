//! Parsers of the small argument languages rpk's flags use: consume's `-o`
//! ranges, `topic/partition:replicas` moves, `--to` for seeks,
//! `topic:p1,p2` lists, `key=value` pairs and ACL names. Pure functions, so
//! the rules are unit-tested without a broker.

use std::collections::BTreeMap;

use crate::errors::{Result, TmkError};

/// Where a consume starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// The log start offset plus n.
    Beginning(i64),
    /// The high watermark minus n.
    End(i64),
    Exact(i64),
    /// The first offset at or after this millisecond timestamp.
    Time(i64),
}

/// Where a consume stops (exclusive), if anywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Never,
    /// The high watermark when the consume starts.
    CurrentEnd,
    Exact(i64),
    Time(i64),
}

fn bad_offset(o: &str, why: &str) -> TmkError {
    TmkError::msg(format!("invalid --offset {o:?}: {why}"))
        .with_hint("use start, end, N, +N, -N, :end, N1:N2, @TIMESTAMP or @T1:T2 (see `tmk topic consume --help`)")
}

/// Parses consume's `-o`, rpk's grammar; `now_ms` anchors durations.
pub fn parse_offset(o: &str, now_ms: i64) -> Result<(Start, Stop)> {
    if let Some(t) = o.strip_prefix('@') {
        return parse_time_range(o, t, now_ms);
    }
    let num = |s: &str| {
        s.parse::<i64>()
            .map_err(|_| bad_offset(o, &format!("{s:?} is not a number")))
    };
    Ok(match o {
        "start" | "oldest" => (Start::Beginning(0), Stop::Never),
        "end" | "newest" => (Start::End(0), Stop::Never),
        ":end" => (Start::Beginning(0), Stop::CurrentEnd),
        _ if o.starts_with('+') => (Start::Beginning(num(&o[1..])?), Stop::Never),
        _ if o.starts_with('-') => (Start::End(num(&o[1..])?), Stop::Never),
        _ => {
            if let Ok(n) = o.parse::<i64>() {
                (Start::Exact(n), Stop::Never)
            } else if let Some(s) = o.strip_suffix(':') {
                (Start::Exact(num(s)?), Stop::Never)
            } else if let Some(e) = o.strip_prefix(':') {
                (Start::Beginning(0), Stop::Exact(num(e)?))
            } else {
                let (a, b) = o
                    .split_once(':')
                    .or_else(|| o.split_once('-'))
                    .ok_or_else(|| bad_offset(o, "cannot parse"))?;
                let start = num(a)?;
                if b == "end" {
                    (Start::Exact(start), Stop::CurrentEnd)
                } else {
                    let end = num(b)?;
                    if end <= start {
                        return Err(bad_offset(o, &format!("end {end} <= start {start}")));
                    }
                    (Start::Exact(start), Stop::Exact(end))
                }
            }
        }
    })
}

/// One timestamp of `@t1:t2`: 13 digits ms, 10 digits s, YYYY-MM-DD,
/// RFC3339 (ends in Z), `end` (second half only), or a duration (`-1h`,
/// `30m`) relative to `base`. Returns the time and the length consumed.
fn parse_time(half: &str, base: i64) -> std::result::Result<(Option<i64>, usize), String> {
    let digits = half.bytes().take_while(u8::is_ascii_digit).count();
    let ends_at = |n: usize| half.len() == n || half.as_bytes().get(n) == Some(&b':');
    if digits == 13 && ends_at(13) {
        return Ok((half[..13].parse().ok(), 13));
    }
    if digits == 10 && ends_at(10) {
        return Ok((half[..10].parse::<i64>().ok().map(|s| s * 1000), 10));
    }
    if half.len() >= 10
        && ends_at(10)
        && let Ok(d) = chrono::NaiveDate::parse_from_str(&half[..10], "%Y-%m-%d")
    {
        {
            return Ok((
                d.and_hms_opt(0, 0, 0)
                    .map(|t| t.and_utc().timestamp_millis()),
                10,
            ));
        }
    }
    if let Some(z) = half.find('Z') {
        let t = chrono::DateTime::parse_from_rfc3339(&half[..=z])
            .map_err(|e| format!("unable to parse RFC3339 timestamp in {half:?}: {e}"))?;
        return Ok((Some(t.timestamp_millis()), z + 1));
    }
    if half.starts_with("end") && ends_at(3) {
        return Ok((None, 3));
    }
    let d = half.split(':').next().unwrap_or("");
    let (neg, body) = match d.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, d),
    };
    let ms = parse_duration_ms(body).ok_or_else(|| format!("unable to parse duration in {d:?}"))?;
    Ok((Some(base + if neg { -ms } else { ms }), d.len()))
}

/// Go-style durations: a sequence of number+unit (ms, s, m, h), e.g. 1h30m.
fn parse_duration_ms(s: &str) -> Option<i64> {
    if s.is_empty() {
        return None;
    }
    let mut total = 0i64;
    let mut rest = s;
    while !rest.is_empty() {
        let n = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
        let v: i64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let (mult, len) = if rest.starts_with("ms") {
            (1, 2)
        } else if rest.starts_with('s') {
            (1000, 1)
        } else if rest.starts_with('m') {
            (60_000, 1)
        } else if rest.starts_with('h') {
            (3_600_000, 1)
        } else {
            return None;
        };
        total += v * mult;
        rest = &rest[len..];
    }
    Some(total)
}

fn parse_time_range(o: &str, t: &str, now: i64) -> Result<(Start, Stop)> {
    let bad = |e: String| bad_offset(o, &e);
    let (start, rest, base) = if let Some(r) = t.strip_prefix(':') {
        (Start::Beginning(0), r, now)
    } else {
        let (at, n) = parse_time(t, now).map_err(bad)?;
        let at = at.ok_or_else(|| bad_offset(o, "invalid offset @end"))?;
        let rest = &t[n..];
        if rest.is_empty() || rest == ":" {
            return Ok((Start::Time(at), Stop::Never));
        }
        let Some(r) = rest.strip_prefix(':') else {
            return Err(bad_offset(o, &format!("invalid trailing content {rest:?}")));
        };
        // A duration after an absolute start is relative to that start.
        let absolute = !t.starts_with('-') && t.as_bytes().first().is_some_and(u8::is_ascii_digit);
        (Start::Time(at), r, if absolute { at } else { now })
    };
    let (end, n) = parse_time(rest, base).map_err(bad)?;
    if n != rest.len() {
        return Err(bad_offset(
            o,
            &format!("invalid trailing content {:?} after offset", &rest[n..]),
        ));
    }
    Ok((start, end.map_or(Stop::CurrentEnd, Stop::Time)))
}

/// `key=value` (values may contain `=`).
pub fn kv(s: &str) -> Result<(String, String)> {
    s.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| {
            TmkError::msg(format!("{s:?} is not key=value")).with_hint("write it as key=value")
        })
}

/// One `TOPIC/PARTITION:NODE,NODE,...` move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub topic: String,
    pub partition: i32,
    pub replicas: Vec<i32>,
}

/// Parses a move; the topic may contain `/` (the last one splits).
pub fn parse_move(s: &str) -> Result<Move> {
    let bad = || {
        TmkError::msg(format!("invalid partition move {s:?}"))
            .with_hint("write TOPIC/PARTITION:NODE,NODE,... e.g. foo/0:1,2,3")
    };
    let (tp, nodes) = s.rsplit_once(':').ok_or_else(bad)?;
    let (topic, partition) = parse_topic_partition(tp).map_err(|_| bad())?;
    let replicas = nodes
        .split(',')
        .map(|n| n.trim().parse::<i32>())
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|_| bad())?;
    if replicas.is_empty() {
        return Err(bad());
    }
    Ok(Move {
        topic,
        partition,
        replicas,
    })
}

/// `TOPIC/PARTITION`.
pub fn parse_topic_partition(s: &str) -> Result<(String, i32)> {
    let bad = || {
        TmkError::msg(format!("invalid partition {s:?}"))
            .with_hint("write TOPIC/PARTITION, e.g. foo/0")
    };
    let (t, p) = s.rsplit_once('/').ok_or_else(bad)?;
    let p = p.parse::<i32>().map_err(|_| bad())?;
    if t.is_empty() {
        return Err(bad());
    }
    Ok((t.to_string(), p))
}

/// `-t topic` or `-t topic:0,1,2`; an empty list means every partition.
pub fn parse_topic_partitions(specs: &[String]) -> Result<BTreeMap<String, Vec<i32>>> {
    let mut out: BTreeMap<String, Vec<i32>> = BTreeMap::new();
    for s in specs {
        let (t, ps) = match s.split_once(':') {
            Some((t, ps)) => {
                let ps = ps
                    .split(',')
                    .map(|p| p.trim().parse::<i32>())
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .map_err(|_| {
                        TmkError::msg(format!("invalid -t {s:?}"))
                            .with_hint("write topic or topic:0,1,2")
                    })?;
                (t, ps)
            }
            None => (s.as_str(), Vec::new()),
        };
        out.entry(t.to_string()).or_default().extend(ps);
    }
    Ok(out)
}

/// Group seek's `--to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeekTo {
    Start,
    End,
    /// Milliseconds.
    Time(i64),
}

/// `start`, `end`, or a unix timestamp in seconds (10 digits),
/// milliseconds (13) or nanoseconds (19), as rpk.
pub fn parse_seek_to(s: &str) -> Result<SeekTo> {
    match s {
        "start" => return Ok(SeekTo::Start),
        "end" => return Ok(SeekTo::End),
        _ => {}
    }
    let n: i64 = s.parse().map_err(|_| {
        TmkError::msg(format!("invalid --to {s:?}"))
            .with_hint("use start, end, or a unix timestamp in s, ms or ns")
    })?;
    Ok(SeekTo::Time(match s.len() {
        ..=10 => n * 1000,
        11..=13 => n,
        _ => n / 1_000_000,
    }))
}

/// Kafka's ACL operation codes by rpk's names (case and `_`/`-` ignored).
pub fn acl_operation(s: &str) -> Result<i8> {
    let k: String = s
        .to_ascii_lowercase()
        .chars()
        .filter(|c| *c != '_' && *c != '-')
        .collect();
    Ok(match k.as_str() {
        "any" => 1,
        "all" => 2,
        "read" => 3,
        "write" => 4,
        "create" => 5,
        "delete" => 6,
        "alter" => 7,
        "describe" => 8,
        "clusteraction" => 9,
        "describeconfigs" => 10,
        "alterconfigs" => 11,
        "idempotentwrite" => 12,
        _ => {
            return Err(TmkError::msg(format!("unknown ACL operation {s:?}")).with_hint(
                "use all, read, write, create, delete, alter, describe, clusteraction, describeconfigs, alterconfigs, idempotentwrite",
            ));
        }
    })
}

/// The name `acl list` prints for an operation code.
pub fn acl_operation_name(c: i8) -> &'static str {
    match c {
        1 => "ANY",
        2 => "ALL",
        3 => "READ",
        4 => "WRITE",
        5 => "CREATE",
        6 => "DELETE",
        7 => "ALTER",
        8 => "DESCRIBE",
        9 => "CLUSTER_ACTION",
        10 => "DESCRIBE_CONFIGS",
        11 => "ALTER_CONFIGS",
        12 => "IDEMPOTENT_WRITE",
        _ => "UNKNOWN",
    }
}

/// Pattern type codes: any 1, match 2, literal 3, prefixed 4.
pub fn acl_pattern(s: &str) -> Result<i8> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "any" => 1,
        "match" => 2,
        "literal" => 3,
        "prefixed" => 4,
        _ => {
            return Err(
                TmkError::msg(format!("unknown --resource-pattern-type {s:?}"))
                    .with_hint("use any, match, literal or prefixed"),
            );
        }
    })
}

pub fn acl_pattern_name(c: i8) -> &'static str {
    match c {
        1 => "ANY",
        2 => "MATCH",
        3 => "LITERAL",
        4 => "PREFIXED",
        _ => "UNKNOWN",
    }
}

/// Resource type names by code (topic 2, group 3, cluster 4, transactional id 5).
pub fn acl_resource_name(c: i8) -> &'static str {
    match c {
        1 => "ANY",
        2 => "TOPIC",
        3 => "GROUP",
        4 => "CLUSTER",
        5 => "TRANSACTIONAL_ID",
        6 => "DELEGATION_TOKEN",
        7 => "USER",
        _ => "UNKNOWN",
    }
}

/// One partition's new start offset from `trim-prefix --from-file`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrimTarget {
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
}

/// rpk's `trim-prefix --from-file`: by the file's extension, `.txt` or
/// none: lines of `TOPIC PARTITION OFFSET` (or `PARTITION OFFSET` for all
/// lines, the topic then coming from `topic`), separated by spaces or
/// tabs, empty lines and lines starting with `// ` skipped; `.json`,
/// `.yaml`, `.yml`: an array of objects with keys `topic` (optional when
/// `topic` is given), `partition`, `offset`. A topic in the file that is
/// not `topic` (when given) is an error, as in rpk.
pub fn parse_trim_file(name: &str, text: &str, topic: Option<&str>) -> Result<Vec<TrimTarget>> {
    #[derive(serde::Deserialize)]
    struct Keyed {
        topic: Option<String>,
        partition: i32,
        offset: i64,
    }
    let ext = std::path::Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    let keyed: Vec<Keyed> = match ext {
        "" | "txt" => return trim_lines(text, topic),
        "json" => serde_json::from_str(text)
            .map_err(|e| TmkError::msg(format!("unable to parse {name:?} as JSON: {e}")))?,
        "yaml" | "yml" => serde_yaml::from_str(text)
            .map_err(|e| TmkError::msg(format!("unable to parse {name:?} as YAML: {e}")))?,
        other => {
            return Err(TmkError::msg(format!(
                "unable to handle file {name:?} extension .{other}"
            ))
            .with_hint("use a .txt, .json, .yaml or .yml file, or no extension"));
        }
    };
    keyed
        .into_iter()
        .map(|k| {
            Ok(TrimTarget {
                topic: trim_topic(k.topic.as_deref(), topic)?,
                partition: k.partition,
                offset: k.offset,
            })
        })
        .collect()
}

/// The topic of one `--from-file` entry: its own, which must match the
/// argument if both are given, or the argument.
fn trim_topic(own: Option<&str>, arg: Option<&str>) -> Result<String> {
    match (own, arg) {
        (Some(o), Some(a)) if o != a => Err(TmkError::msg(format!(
            "the file names topic {o:?}, not the argument's {a:?}"
        ))),
        (Some(o), _) => Ok(o.to_string()),
        (None, Some(a)) => Ok(a.to_string()),
        (None, None) => Err(TmkError::msg("the file does not name the topic")
            .with_hint("give the topic as an argument or in the file")),
    }
}

fn trim_lines(text: &str, topic: Option<&str>) -> Result<Vec<TrimTarget>> {
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("// "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let number = |s: &str, what: &str, line: usize| -> Result<i64> {
        s.parse::<i64>()
            .map_err(|_| TmkError::msg(format!("line {line}: invalid {what} {s:?}")))
    };
    let three = rows.iter().all(|r| r.len() == 3);
    let two = rows.iter().all(|r| r.len() == 2);
    if !three && !two {
        return Err(TmkError::msg(
            "every line must be TOPIC PARTITION OFFSET, or every line PARTITION OFFSET",
        ));
    }
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            let (own, p, o) = if three {
                (Some(r[0]), r[1], r[2])
            } else {
                (None, r[0], r[1])
            };
            let partition = number(p, "partition", i + 1)?;
            Ok(TrimTarget {
                topic: trim_topic(own, topic)?,
                partition: i32::try_from(partition).map_err(|_| {
                    TmkError::msg(format!("line {}: invalid partition {p:?}", i + 1))
                })?,
                offset: number(o, "offset", i + 1)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_700_000_000_000;

    #[test]
    fn offsets_like_rpk() {
        assert_eq!(
            parse_offset("start", NOW).unwrap(),
            (Start::Beginning(0), Stop::Never)
        );
        assert_eq!(
            parse_offset("end", NOW).unwrap(),
            (Start::End(0), Stop::Never)
        );
        assert_eq!(
            parse_offset(":end", NOW).unwrap(),
            (Start::Beginning(0), Stop::CurrentEnd)
        );
        assert_eq!(
            parse_offset("+3", NOW).unwrap(),
            (Start::Beginning(3), Stop::Never)
        );
        assert_eq!(
            parse_offset("-3", NOW).unwrap(),
            (Start::End(3), Stop::Never)
        );
        assert_eq!(
            parse_offset("47", NOW).unwrap(),
            (Start::Exact(47), Stop::Never)
        );
        assert_eq!(
            parse_offset("47:", NOW).unwrap(),
            (Start::Exact(47), Stop::Never)
        );
        assert_eq!(
            parse_offset(":9", NOW).unwrap(),
            (Start::Beginning(0), Stop::Exact(9))
        );
        assert_eq!(
            parse_offset("2:9", NOW).unwrap(),
            (Start::Exact(2), Stop::Exact(9))
        );
        assert_eq!(
            parse_offset("2-9", NOW).unwrap(),
            (Start::Exact(2), Stop::Exact(9))
        );
        assert_eq!(
            parse_offset("2:end", NOW).unwrap(),
            (Start::Exact(2), Stop::CurrentEnd)
        );
        assert!(parse_offset("9:2", NOW).is_err());
        assert!(parse_offset("x", NOW).is_err());
    }

    #[test]
    fn time_offsets() {
        assert_eq!(
            parse_offset("@1700000000123", NOW).unwrap(),
            (Start::Time(1_700_000_000_123), Stop::Never)
        );
        assert_eq!(
            parse_offset("@1700000000", NOW).unwrap(),
            (Start::Time(NOW), Stop::Never)
        );
        assert_eq!(
            parse_offset("@1700000000000:1700000001000", NOW).unwrap(),
            (Start::Time(NOW), Stop::Time(NOW + 1000))
        );
        assert_eq!(
            parse_offset("@1700000000000:end", NOW).unwrap(),
            (Start::Time(NOW), Stop::CurrentEnd)
        );
        assert_eq!(
            parse_offset("@:1700000000000", NOW).unwrap(),
            (Start::Beginning(0), Stop::Time(NOW))
        );
        assert_eq!(
            parse_offset("@-1h", NOW).unwrap(),
            (Start::Time(NOW - 3_600_000), Stop::Never)
        );
        assert_eq!(
            parse_offset("@1700000000000:1m", NOW).unwrap(),
            (Start::Time(NOW), Stop::Time(NOW + 60_000))
        );
        assert_eq!(
            parse_offset("@2023-11-14", NOW).unwrap().0,
            Start::Time(1_699_920_000_000)
        );
        assert_eq!(
            parse_offset("@2023-11-14T22:13:20Z", NOW).unwrap().0,
            Start::Time(NOW)
        );
        assert!(parse_offset("@end", NOW).is_err());
        assert!(parse_offset("@soon", NOW).is_err());
    }

    #[test]
    fn moves_and_lists() {
        assert_eq!(
            parse_move("foo/0:1,2,3").unwrap(),
            Move {
                topic: "foo".into(),
                partition: 0,
                replicas: vec![1, 2, 3]
            }
        );
        assert_eq!(parse_move("a/b/2:4").unwrap().topic, "a/b");
        assert!(parse_move("foo:1").is_err());
        assert!(parse_move("foo/x:1").is_err());
        let m = parse_topic_partitions(&["a:0,1".into(), "b".into(), "a:2".into()]).unwrap();
        assert_eq!(m["a"], [0, 1, 2]);
        assert!(m["b"].is_empty());
        assert!(parse_topic_partitions(&["a:x".into()]).is_err());
    }

    #[test]
    fn seek_targets_and_acl_names() {
        assert_eq!(parse_seek_to("start").unwrap(), SeekTo::Start);
        assert_eq!(parse_seek_to("1700000000").unwrap(), SeekTo::Time(NOW));
        assert_eq!(parse_seek_to("1700000000000").unwrap(), SeekTo::Time(NOW));
        assert_eq!(
            parse_seek_to("1700000000000000000").unwrap(),
            SeekTo::Time(NOW)
        );
        assert!(parse_seek_to("later").is_err());
        assert_eq!(acl_operation("DESCRIBE_CONFIGS").unwrap(), 10);
        assert_eq!(acl_operation("read").unwrap(), 3);
        assert!(acl_operation("fly").is_err());
        assert_eq!(acl_pattern("Prefixed").unwrap(), 4);
        assert_eq!(kv("a=b=c").unwrap(), ("a".into(), "b=c".into()));
        assert!(kv("=x").is_err());
    }
    #[test]
    fn trim_files_in_rpks_three_shapes() {
        let want = |t: &str, p, o| TrimTarget {
            topic: t.into(),
            partition: p,
            offset: o,
        };
        let txt = "// trims\nfoo 0 10\n\nbar\t1\t20\n";
        assert_eq!(
            parse_trim_file("x.txt", txt, None).unwrap(),
            vec![want("foo", 0, 10), want("bar", 1, 20)]
        );
        // Two columns: the topic comes from the argument, and is needed.
        assert_eq!(
            parse_trim_file("plain", "0 5\n1 6", Some("foo")).unwrap(),
            vec![want("foo", 0, 5), want("foo", 1, 6)]
        );
        assert!(parse_trim_file("plain", "0 5", None).is_err());
        // A topic in the file must be the argument's.
        assert!(parse_trim_file("x.txt", "foo 0 1", Some("bar")).is_err());
        assert!(
            parse_trim_file("x.txt", "foo 0 1\n0 1", None).is_err(),
            "mixed shapes"
        );
        assert!(parse_trim_file("x.txt", "foo x 1", None).is_err());
        assert!(parse_trim_file("x.txt", "foo 0 1.5", None).is_err());
        let json = r#"[{"topic":"foo","partition":2,"offset":7},{"partition":3,"offset":8}]"#;
        assert_eq!(
            parse_trim_file("t.json", json, Some("foo")).unwrap(),
            vec![want("foo", 2, 7), want("foo", 3, 8)]
        );
        assert!(
            parse_trim_file("t.json", json, None).is_err(),
            "second entry has no topic"
        );
        let yaml = "- topic: foo\n  partition: 0\n  offset: 3\n";
        assert_eq!(
            parse_trim_file("t.yml", yaml, None).unwrap(),
            vec![want("foo", 0, 3)]
        );
        assert!(parse_trim_file("t.csv", "foo,0,1", None).is_err());
        assert!(parse_trim_file("t.json", "{", None).is_err());
        assert_eq!(
            parse_trim_file("x.txt", "\n// nothing\n", None).unwrap(),
            vec![]
        );
    }
}
