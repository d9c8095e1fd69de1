//! The committed `src/generated/` must be exactly what the generator makes
//! from Kafka's schemas today, so nobody edits generated code by hand and
//! nobody forgets to regenerate after changing the generator.
//!
//! The schemas are not part of the repository (they are `../shared/` beside
//! the checkout, or `KAFKA_MESSAGES_DIR`). Where they are absent the test
//! says it was skipped, unless `TIDEMARK_REQUIRE_SCHEMAS=1` (set by
//! `.ci/run`) makes their absence a failure.

use std::path::{Path, PathBuf};

#[test]
fn committed_generated_code_matches_a_fresh_generation() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schemas = std::env::var_os("KAFKA_MESSAGES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir.join("../../shared/kafka-messages"));
    if !schemas.is_dir() {
        if std::env::var("TIDEMARK_REQUIRE_SCHEMAS").as_deref() == Ok("1") {
            panic!("schemas not found at {}", schemas.display());
        }
        eprintln!(
            "skipped: Kafka's message schemas are not at {} (set KAFKA_MESSAGES_DIR)",
            schemas.display()
        );
        return;
    }
    let fresh = kafka_protocol_codegen::generate(&schemas).expect("generation failed");
    let dir = crate_dir.join("src/generated");
    let mut committed = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("src/generated") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            committed.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let mut problems = Vec::new();
    for (name, text) in &fresh {
        match committed.get(name) {
            None => problems.push(format!("{name} is missing")),
            Some(c) if c != text => problems.push(format!("{name} differs")),
            Some(_) => {}
        }
    }
    for name in committed.keys() {
        if !fresh.contains_key(name) {
            problems.push(format!("{name} is stale (no schema makes it)"));
        }
    }
    assert!(
        problems.is_empty(),
        "src/generated is out of date; run `cargo run -p kafka-protocol-codegen`:\n{}",
        problems.join("\n")
    );
    assert!(fresh.len() > 150, "only {} files generated", fresh.len());
}
