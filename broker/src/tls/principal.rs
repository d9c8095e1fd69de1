//! The principal of a mutual-TLS connection, as Kafka derives it: the
//! client certificate's subject in RFC 2253 form (what Java's
//! `X500Principal.getName()` prints, e.g. `CN=alice,OU=Payments,O=Acme`),
//! rewritten by `ssl.principal.mapping.rules` (Kafka's
//! `SslPrincipalMapper`: `DEFAULT` and `RULE:pattern/replacement/[LU]`,
//! the first rule whose pattern matches the whole name wins).
//!
//! The rule list is parsed with `nom` following Kafka's splitter and
//! parser regexes, so the same strings are accepted and refused.

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{anychar, char, none_of, one_of};
use nom::combinator::{opt, recognize};
use nom::multi::many0;
use nom::sequence::{preceded, tuple};
use regex::{Captures, Regex};

/// Kafka's name for a connection that presented no identity (plaintext,
/// or TLS without a client certificate).
pub const ANONYMOUS: &str = "User:ANONYMOUS";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RuleError {
    #[error("invalid rule: `{0}`")]
    Invalid(String),
    #[error("invalid rule: `{rule}`, unmatched substring: `{rest}`")]
    Trailing { rule: String, rest: String },
    #[error("rule `{rule}`: pattern does not compile: {message}")]
    Pattern { rule: String, message: String },
    #[error("no rules apply to {0}")]
    NoMatch(String),
}

/// One piece of a rule's replacement: text, or a capture group.
#[derive(Debug, Clone)]
enum Piece {
    Text(String),
    Group(usize),
}

#[derive(Debug, Clone)]
enum Rule {
    Default,
    Rule {
        /// The pattern as written (matched anywhere, for the replacement).
        pattern: Regex,
        /// The same pattern anchored at both ends (Java's `matches()`).
        whole: Regex,
        replacement: Vec<Piece>,
        lower: bool,
        upper: bool,
    },
}

/// A parsed `ssl.principal.mapping.rules` value.
#[derive(Debug, Clone)]
pub struct MappingRules {
    rules: Vec<Rule>,
}

/// `RULE:` pattern `/` replacement `/` flag; pattern and replacement may
/// hold `\x` escapes (a `/` inside them is written `\/`), as in Kafka's
/// `((\\.|[^\\/])*)`.
fn escaped_part(input: &str) -> IResult<&str, &str> {
    recognize(many0(alt((
        recognize(preceded(char('\\'), anychar)),
        recognize(none_of("\\/")),
    ))))
    .parse(input)
}

type RuleParts<'a> = (&'a str, &'a str, Option<char>);

fn rule_body(input: &str) -> IResult<&str, RuleParts<'_>> {
    let (rest, (_, pattern, _, replacement, _, flag)) = tuple((
        tag("RULE:"),
        escaped_part,
        char('/'),
        escaped_part,
        char('/'),
        opt(one_of("LU")),
    ))
    .parse(input)?;
    Ok((rest, (pattern, replacement, flag)))
}

/// Where the current rule ends: the first comma (Kafka's lazy `.*?`
/// followed by `\s*(,\s*|$)`), with the whitespace before it trimmed.
fn up_to_comma(input: &str) -> (&str, &str) {
    match input.find(',') {
        Some(i) => (input[..i].trim_end(), &input[i + 1..]),
        None => (input.trim_end(), ""),
    }
}

impl MappingRules {
    /// Parses a rule list, e.g.
    /// `RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,DEFAULT`.
    pub fn parse(text: &str) -> Result<Self, RuleError> {
        let mut rules = Vec::new();
        let mut rest = text.trim();
        // Each pass consumes at least the rest up to a comma, so the
        // loop ends after at most len + 1 passes.
        for _ in 0..=text.len() {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            if let Ok((after, (pattern, replacement, flag))) = rule_body(rest) {
                let (junk, next) = up_to_comma(after);
                let rule = &rest[..rest.len() - after.len()];
                if !junk.is_empty() {
                    return Err(RuleError::Trailing {
                        rule: format!("{rule}{junk}"),
                        rest: junk.to_string(),
                    });
                }
                rules.push(compile(rule, pattern, replacement, flag)?);
                rest = next;
                continue;
            }
            let (item, next) = up_to_comma(rest);
            if item == "DEFAULT" {
                rules.push(Rule::Default);
            } else if let Some(junk) = item.strip_prefix("DEFAULT") {
                return Err(RuleError::Trailing {
                    rule: item.to_string(),
                    rest: junk.to_string(),
                });
            } else if !item.is_empty() {
                return Err(RuleError::Invalid(item.to_string()));
            }
            // An empty item (two commas in a row) is ignored, as in Kafka.
            rest = next;
        }
        Ok(MappingRules { rules })
    }

    /// The short name for a distinguished name: the first rule that
    /// applies, or [`RuleError::NoMatch`] (Kafka refuses the connection).
    pub fn apply(&self, dn: &str) -> Result<String, RuleError> {
        for rule in &self.rules {
            match rule {
                Rule::Default => return Ok(dn.to_string()),
                Rule::Rule {
                    pattern,
                    whole,
                    replacement,
                    lower,
                    upper,
                } => {
                    if !whole.is_match(dn) {
                        continue;
                    }
                    let out = pattern.replace_all(dn, |caps: &Captures<'_>| {
                        let mut s = String::new();
                        for p in replacement {
                            match p {
                                Piece::Text(t) => s.push_str(t),
                                Piece::Group(g) => {
                                    s.push_str(caps.get(*g).map_or("", |m| m.as_str()))
                                }
                            }
                        }
                        s
                    });
                    let out = out.into_owned();
                    return Ok(if *lower {
                        out.to_lowercase()
                    } else if *upper {
                        out.to_uppercase()
                    } else {
                        out
                    });
                }
            }
        }
        Err(RuleError::NoMatch(dn.to_string()))
    }
}

fn compile(
    rule: &str,
    pattern: &str,
    replacement: &str,
    flag: Option<char>,
) -> Result<Rule, RuleError> {
    let err = |e: regex::Error| RuleError::Pattern {
        rule: rule.to_string(),
        message: e.to_string(),
    };
    let re = Regex::new(pattern).map_err(err)?;
    let whole = Regex::new(&format!("^(?:{pattern})$")).map_err(err)?;
    let groups = re.captures_len() - 1;
    Ok(Rule::Rule {
        pattern: re,
        whole,
        replacement: parse_replacement(replacement, groups),
        lower: flag == Some('L'),
        upper: flag == Some('U'),
    })
}

/// Java's replacement syntax as Kafka uses it: `\x` is a literal `x`;
/// `$n` is group n, taking as many digits as still name an existing group;
/// a `$n` naming no group is literal text (Kafka escapes it first).
fn parse_replacement(text: &str, groups: usize) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            lit.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if c == '$' && i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
            let first = chars[i + 1].to_digit(10).unwrap_or(0) as usize;
            if first <= groups {
                let mut n = first;
                let mut j = i + 2;
                while j < chars.len()
                    && let Some(d) = chars[j].to_digit(10)
                    && n * 10 + (d as usize) <= groups
                {
                    n = n * 10 + d as usize;
                    j += 1;
                }
                if !lit.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut lit)));
                }
                out.push(Piece::Group(n));
                i = j;
                continue;
            }
        }
        lit.push(c);
        i += 1;
    }
    if !lit.is_empty() {
        out.push(Piece::Text(lit));
    }
    out
}

/// The short names RFC 2253 (and Java's `X500Principal`) print; any other
/// attribute is printed as its dotted OID with `#` and its DER in hex.
fn short_name(oid: &str) -> Option<&'static str> {
    Some(match oid {
        "2.5.4.3" => "CN",
        "2.5.4.6" => "C",
        "2.5.4.7" => "L",
        "2.5.4.8" => "ST",
        "2.5.4.9" => "STREET",
        "2.5.4.10" => "O",
        "2.5.4.11" => "OU",
        "0.9.2342.19200300.100.1.25" => "DC",
        "0.9.2342.19200300.100.1.1" => "UID",
        _ => return None,
    })
}

/// RFC 2253 escaping of an attribute value.
fn escape_value(v: &str, out: &mut String) {
    let n = v.chars().count();
    for (i, c) in v.chars().enumerate() {
        let special = matches!(c, ',' | '+' | '"' | '\\' | '<' | '>' | ';')
            || (i == 0 && (c == '#' || c == ' '))
            || (i + 1 == n && c == ' ');
        if special {
            out.push('\\');
        }
        out.push(c);
    }
}

/// DER length bytes.
fn der_len(n: usize, out: &mut Vec<u8>) {
    if n < 0x80 {
        out.push(n as u8);
    } else {
        let bytes = n.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
}

/// The subject of a DER certificate in RFC 2253 form: RDNs from last to
/// first, comma-separated, multi-valued RDNs joined by `+`.
pub fn subject_rfc2253(cert_der: &[u8]) -> Result<String, String> {
    let (_, cert) = x509_parser::parse_x509_certificate(cert_der)
        .map_err(|e| format!("bad certificate: {e}"))?;
    let mut rdns = Vec::new();
    for rdn in cert.subject().iter() {
        let mut avas = Vec::new();
        for ava in rdn.iter() {
            let oid = ava.attr_type().to_id_string();
            let mut s = String::new();
            match (short_name(&oid), ava.as_str()) {
                (Some(short), Ok(text)) => {
                    s.push_str(short);
                    s.push('=');
                    escape_value(text, &mut s);
                }
                _ => {
                    let any = ava.attr_value();
                    let mut der = vec![
                        any.header.tag().0 as u8
                            | if any.header.is_constructed() { 0x20 } else { 0 },
                    ];
                    der_len(any.data.len(), &mut der);
                    der.extend_from_slice(any.data);
                    s.push_str(&oid);
                    s.push_str("=#");
                    for b in der {
                        s.push_str(&format!("{b:02x}"));
                    }
                }
            }
            avas.push(s);
        }
        rdns.push(avas.join("+"));
    }
    rdns.reverse();
    Ok(rdns.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kafka's SslPrincipalMapperTest, valid rules.
    #[test]
    fn valid_rules() {
        for r in [
            "DEFAULT",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT",
            "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/",
            "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L",
            "RULE:^cn=(.?),ou=(.?),dc=(.?),dc=(.?)$/$1@$2/U",
            "RULE:^CN=([^,ADEFLTU,]+)(,.*|$)/$1/",
            "RULE:^CN=([^,DEFAULT,]+)(,.*|$)/$1/",
        ] {
            MappingRules::parse(r).unwrap_or_else(|e| panic!("{r}: {e}"));
        }
    }

    /// Kafka's SslPrincipalMapperTest, invalid rules.
    #[test]
    fn invalid_rules() {
        for r in [
            "default",
            "DEFAUL",
            "DEFAULT/L",
            "DEFAULT/U",
            "RULE:CN=(.*?),OU=ServiceUsers.*/$1",
            "rule:^CN=(.*?),OU=ServiceUsers.*$/$1/",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/L",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/U",
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/LU",
        ] {
            assert!(MappingRules::parse(r).is_err(), "{r} should be refused");
        }
    }

    /// The example of Kafka's documentation (security.html, "Customizing
    /// SSL User Name") and SslPrincipalMapperTest's rule chains.
    #[test]
    fn documented_examples() {
        let rules = MappingRules::parse(
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,\
             RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,\
             RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,\
             DEFAULT",
        )
        .unwrap();
        let cases = [
            (
                "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
                "serviceuser",
            ),
            (
                "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
                "adminuser@admin",
            ),
            ("CN=xyz-user,OU=Unknown", "xyz"),
            ("OU=xyz,CN=Test.Client", "test.client"),
            ("CN=TestClient,OU=Unknown", "testclient"),
            ("cn=abc", "abc"),
            ("OU=NoCommonName", "OU=NoCommonName"),
        ];
        for (dn, want) in cases {
            assert_eq!(rules.apply(dn).unwrap(), want, "{dn}");
        }
        let upper =
            MappingRules::parse("RULE:^cn=(.*?),ou=(.*?),dc=(.*?),dc=(.*?)$/$1@$2/U").unwrap();
        assert_eq!(
            upper.apply("cn=duke,ou=JavaSoft,dc=sun,dc=com").unwrap(),
            "DUKE@JAVASOFT"
        );
        assert!(matches!(upper.apply("CN=duke"), Err(RuleError::NoMatch(_))));
        let commas = MappingRules::parse("RULE:^CN=([^,ADEFLTU,]+)(,.*|$)/$1/").unwrap();
        assert_eq!(commas.apply("CN=kafka,OU=x").unwrap(), "kafka");
        // The whole name must match; a partial match is no match.
        let partial = MappingRules::parse("RULE:CN=(.*?)/$1/").unwrap();
        assert!(partial.apply("OU=a,CN=b").is_err());
        // A group that does not exist is literal text (Kafka's escaping).
        let literal = MappingRules::parse("RULE:^CN=(.*)$/$1 and $2/").unwrap();
        assert_eq!(literal.apply("CN=x").unwrap(), "x and $2");
        // An escaped slash belongs to the pattern.
        let slash = MappingRules::parse("RULE:^CN=(.*)\\/(.*)$/$2/").unwrap();
        assert_eq!(slash.apply("CN=a/b").unwrap(), "b");
        // Empty items are ignored; no rules means nothing matches.
        assert_eq!(
            MappingRules::parse(" , DEFAULT ,")
                .unwrap()
                .apply("CN=a")
                .unwrap(),
            "CN=a"
        );
        assert!(MappingRules::parse("").unwrap().apply("CN=a").is_err());
    }

    #[test]
    fn escaping() {
        let mut s = String::new();
        escape_value(" a,b+c\"d\\e<f>g;h ", &mut s);
        assert_eq!(s, "\\ a\\,b\\+c\\\"d\\\\e\\<f\\>g\\;h\\ ");
        let mut s = String::new();
        escape_value("#x", &mut s);
        assert_eq!(s, "\\#x");
    }
}
