//! Turning Kafka's PascalCase names into Rust identifiers.

/// `ThrottleTimeMs` -> `throttle_time_ms`, `ProducerIDs` -> `producer_ids`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = if i > 0 { Some(chars[i - 1]) } else { None };
            let next = chars.get(i + 1).copied();
            let boundary = match prev {
                None => false,
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                // "IDs" stays one word; "TCPPort" splits before "Port".
                Some(p) if p.is_ascii_uppercase() => {
                    matches!(next, Some(n) if n.is_ascii_lowercase())
                        && !(next == Some('s')
                            && chars.get(i + 2).is_none_or(|c| !c.is_ascii_lowercase()))
                }
                _ => false,
            };
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A field name safe to use as a Rust identifier.
pub fn field_ident(name: &str) -> String {
    let s = snake_case(name);
    match s.as_str() {
        "type" | "match" | "ref" | "mod" | "fn" | "impl" | "struct" | "enum" | "trait" | "use"
        | "where" | "loop" | "move" | "self" | "super" | "crate" | "async" | "await" | "dyn"
        | "abstract" | "final" | "override" | "yield" | "box" | "macro" | "gen" | "try"
        | "unsafe" | "static" | "const" | "let" | "in" | "for" | "if" | "else" | "while"
        | "return" | "break" | "continue" | "as" | "pub" | "true" | "false" | "extern" | "priv"
        | "typeof" | "unsized" | "virtual" | "do" | "become" => format!("{s}_"),
        _ => s,
    }
}

/// `ProduceRequest` -> `produce_request` (module and file names).
pub fn module_name(name: &str) -> String {
    snake_case(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_cases() {
        assert_eq!(snake_case("ThrottleTimeMs"), "throttle_time_ms");
        assert_eq!(snake_case("ProducerIDs"), "producer_ids");
        assert_eq!(snake_case("TopicId"), "topic_id");
        assert_eq!(snake_case("ZkMigrationReady"), "zk_migration_ready");
        assert_eq!(snake_case("SaslHandshakeRequest"), "sasl_handshake_request");
        assert_eq!(snake_case("KRaftVersionRecord"), "k_raft_version_record");
        assert_eq!(field_ident("Type"), "type_");
    }
}
