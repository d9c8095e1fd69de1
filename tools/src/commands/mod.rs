//! One module per command family; `run` dispatches the parsed tree.

pub mod profile;

use clap::CommandFactory;

use crate::cli::{BenchCmd, Cli, Command, Shell};
use crate::errors::{Result, TmkError};
use crate::output::write_stdout;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Profile(cmd) => profile::run(&cli.conn, cmd),
        Command::Version => write_stdout(format!("tmk {}\n", env!("CARGO_PKG_VERSION")).as_bytes()),
        Command::Completion { shell } => {
            let mut cmd = Cli::command();
            let mut out = Vec::new();
            match shell {
                Shell::Bash => {
                    clap_complete::generate(clap_complete::Shell::Bash, &mut cmd, "tmk", &mut out)
                }
                Shell::Zsh => {
                    clap_complete::generate(clap_complete::Shell::Zsh, &mut cmd, "tmk", &mut out)
                }
                Shell::Fish => {
                    clap_complete::generate(clap_complete::Shell::Fish, &mut cmd, "tmk", &mut out)
                }
            }
            write_stdout(&out)
        }
        Command::Bench(BenchCmd::Produce | BenchCmd::Consume) => {
            Err(TmkError::msg("tmk bench is not built yet")
                .with_hint("use benches/load/loadbench.py for now"))
        }
        _ => Err(TmkError::msg(
            "this command needs the Kafka client, which is not wired in yet",
        )),
    }
}
