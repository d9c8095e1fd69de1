//! `cargo run -p kafka-protocol-codegen [SCHEMA_DIR [OUT_DIR]]`
//!
//! Regenerates `kafka-protocol/src/generated/` from Kafka's JSON message
//! schemas (by default `../shared/kafka-messages` beside the checkout).
//! Stale generated files are removed so the folder matches the schemas.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut args = std::env::args_os().skip(1);
    let schemas = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/kafka-messages"));
    let out = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("kafka-protocol/src/generated"));
    match run(&schemas, &out) {
        Ok(n) => {
            println!("wrote {n} files to {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kafka-protocol-codegen: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(schemas: &std::path::Path, out: &std::path::Path) -> Result<usize, String> {
    let files = kafka_protocol_codegen::generate(schemas)?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for entry in std::fs::read_dir(out).map_err(|e| format!("{}: {e}", out.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.ends_with(".rs") && !files.contains_key(&name) {
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    for (name, text) in &files {
        std::fs::write(out.join(name), text).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(files.len())
}
