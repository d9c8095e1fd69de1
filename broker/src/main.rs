//! `tidemark`: the broker binary. `tidemark --help` lists the flags.

use std::process::ExitCode;

use clap::Parser;
use tidemark_broker::config::{BrokerConfig, Cli};

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TIDEMARK_LOG")
                // openraft logs every election and shutdown step of every
                // partition group at info, and at warn every heartbeat
                // each group fails to send to a dead peer (thousands of
                // lines a second in a cluster with one broker down): the
                // transport logs the lost connection once instead.
                .unwrap_or_else(|_| "info,openraft=error,tidemark_raft=warn".into()),
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
