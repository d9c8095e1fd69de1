//! `tidemark`: the broker binary. `tidemark --help` lists the flags.

use std::process::ExitCode;

use clap::Parser;
use tidemark_broker::config::{BrokerConfig, Cli};

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TIDEMARK_LOG")
                // openraft logs every election and shutdown step of every
                // partition group at info: one line per event is ours to
                // write, so its own lines start at warn.
                .unwrap_or_else(|_| "info,openraft=warn,tidemark_raft=warn".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let config = match BrokerConfig::from_cli(Cli::parse()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tidemark: {e}");
            return ExitCode::from(2);
        }
    };
    match tidemark_broker::run(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "tidemark failed");
            eprintln!("tidemark: {e}");
            ExitCode::FAILURE
        }
    }
}
