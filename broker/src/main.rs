//! The `tidemark` broker binary.
//!
//! The broker itself is the subject of a later issue. Until it lands this
//! binary refuses to pretend: it says so and exits with a failure status.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!(
        "tidemark: the broker is not built yet (see the broker issue); \
         only the Kafka protocol codec exists so far"
    );
    ExitCode::from(2)
}
