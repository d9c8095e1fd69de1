//! The `tmk` binary: parse, run, and turn every failure into one line on
//! stderr with exit code 1 (2 for bad usage, from clap; 130 on Ctrl-C).

fn main() {
    // A bug must still end in one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("tmk: internal error{at}: {msg}: please report it");
        std::process::exit(1);
    }));
    tidemark_tools::interrupt::install();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cli = tidemark_tools::cli::parse_args(args).unwrap_or_else(|e| e.exit());
    if let Err(e) = tidemark_tools::commands::run(cli) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    // A command stopped early by Ctrl-C (after printing what it had) ends
    // as an interrupted process does.
    if tidemark_tools::interrupt::interrupted() {
        std::process::exit(130);
    }
}
