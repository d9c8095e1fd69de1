//! rpk's `-f` format strings (franz-go's record formatter and reader), in
//! two halves: `parse` reads records from standard input for `produce`,
//! `print` writes consumed records. Both share this tokenizer of the layout
//! string: literal bytes (with `\n \t \r \\ \xNN` and `%% %{ %}` escapes) and
//! `%X{modifier}` verbs.

pub mod parse;
pub mod print;

use nom::{
    IResult,
    branch::alt,
    bytes::complete::take,
    character::complete::{anychar, char, none_of, one_of},
    combinator::{map, map_res, value},
    sequence::preceded,
};

/// One piece of a layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// Bytes to write (print) or to match / delimit on (parse).
    Lit(Vec<u8>),
    /// `%c` or `%c{modifier}`; the modifier is the text between the braces.
    Verb(char, Option<String>),
}

/// A layout that cannot be understood; the message says where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LayoutError(pub String);

fn slash(i: &str) -> IResult<&str, u8> {
    preceded(
        char('\\'),
        alt((
            value(b'\t', char('t')),
            value(b'\n', char('n')),
            value(b'\r', char('r')),
            value(b'\\', char('\\')),
            map_res(preceded(char('x'), take(2usize)), |h: &str| {
                u8::from_str_radix(h, 16)
            }),
        )),
    )(i)
}

fn percent_literal(i: &str) -> IResult<&str, u8> {
    // `%%`, `%{`, `%}` are the three raw characters that otherwise start
    // or delimit a verb.
    map(preceded(char('%'), one_of("%{}")), |c| c as u8)(i)
}

/// The text between a `{` and its matching `}`, counting nested braces
/// except those escaped as `%{` / `%}` (franz-go's rule for `%h{...}`).
fn braced(i: &str) -> IResult<&str, &str> {
    let (rest, _) = char('{')(i)?;
    let bytes = rest.as_bytes();
    let mut depth = 1usize;
    for at in 0..bytes.len() {
        let escaped = at > 0 && bytes[at - 1] == b'%';
        match bytes[at] {
            b'{' if !escaped => depth += 1,
            b'}' if !escaped => {
                depth -= 1;
                if depth == 0 {
                    return Ok((&rest[at + 1..], &rest[..at]));
                }
            }
            _ => {}
        }
    }
    Err(nom::Err::Failure(nom::error::Error::new(
        i,
        nom::error::ErrorKind::Char,
    )))
}

fn verb(i: &str) -> IResult<&str, Token> {
    let (i, c) = preceded(char('%'), anychar)(i)?;
    if i.starts_with('{') {
        let (i, m) = braced(i)?;
        Ok((i, Token::Verb(c, Some(m.to_string()))))
    } else {
        Ok((i, Token::Verb(c, None)))
    }
}

fn plain(i: &str) -> IResult<&str, char> {
    none_of("\\%")(i)
}

/// Splits a layout into tokens, merging adjacent literal bytes.
pub fn tokenize(layout: &str) -> Result<Vec<Token>, LayoutError> {
    let mut out: Vec<Token> = Vec::new();
    let mut rest = layout;
    let push_lit = |out: &mut Vec<Token>, b: &[u8]| {
        if let Some(Token::Lit(l)) = out.last_mut() {
            l.extend_from_slice(b);
        } else {
            out.push(Token::Lit(b.to_vec()));
        }
    };
    while !rest.is_empty() {
        if let Ok((r, b)) = slash(rest) {
            push_lit(&mut out, &[b]);
            rest = r;
        } else if rest.starts_with('\\') {
            return Err(LayoutError(format!(
                "invalid slash escape at {rest:?} (use \\t \\n \\r \\\\ or \\xNN)"
            )));
        } else if let Ok((r, b)) = percent_literal(rest) {
            push_lit(&mut out, &[b]);
            rest = r;
        } else if rest.starts_with('%') {
            match verb(rest) {
                Ok((r, t)) => {
                    out.push(t);
                    rest = r;
                }
                Err(_) if rest.len() == 1 => {
                    return Err(LayoutError(
                        "invalid escape sequence at end of layout string".into(),
                    ));
                }
                Err(_) => return Err(LayoutError(format!("missing closing brace in {rest:?}"))),
            }
        } else {
            let (r, c) = plain(rest).map_err(|_| LayoutError(format!("cannot parse {rest:?}")))?;
            let mut buf = [0u8; 4];
            push_lit(&mut out, c.encode_utf8(&mut buf).as_bytes());
            rest = r;
        }
    }
    Ok(out)
}

/// franz-go's `nomOpenClose`: the text wrapped in a run of one opening
/// delimiter (`{`, `[`, `(` or any other character such as `#`) and the
/// same number of the matching closer; returns (inner, after).
pub fn open_close(src: &str) -> Result<(&str, &str), LayoutError> {
    let Some(first) = src.chars().next() else {
        return Err(LayoutError("empty layout".into()));
    };
    let n = src.chars().take_while(|&c| c == first).count();
    let close = match first {
        '{' => '}',
        '[' => ']',
        '(' => ')',
        c => c,
    };
    let body = &src[n * first.len_utf8()..];
    let end: String = std::iter::repeat_n(close, n).collect();
    match body.find(&end) {
        Some(idx) => Ok((&body[..idx], &body[idx + end.len()..])),
        None => Err(LayoutError(format!("missing end delimiter {end:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let t = tokenize("%k %v{hex}\\n%%\\x41").unwrap();
        assert_eq!(
            t,
            vec![
                Token::Verb('k', None),
                Token::Lit(b" ".to_vec()),
                Token::Verb('v', Some("hex".into())),
                Token::Lit(b"\n%A".to_vec()),
            ]
        );
    }

    #[test]
    fn nested_braces() {
        let t = tokenize("%h{%k=%v{hex} }x").unwrap();
        assert_eq!(t[0], Token::Verb('h', Some("%k=%v{hex} ".into())));
        assert_eq!(t[1], Token::Lit(b"x".to_vec()));
    }

    #[test]
    fn errors() {
        assert!(tokenize("%").is_err());
        assert!(tokenize("\\q").is_err());
        assert!(tokenize("%v{hex").is_err());
        assert!(tokenize("\\xZZ").is_err());
    }

    #[test]
    fn open_close_runs() {
        assert_eq!(open_close("### [%F] ###}").unwrap(), (" [%F] ", "}"));
        assert_eq!(open_close("[%F]}").unwrap(), ("%F", "}"));
        assert!(open_close("[abc").is_err());
    }
}
