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
    install_interrupt_handler();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cli = tidemark_tools::cli::parse_args(args).unwrap_or_else(|e| e.exit());
    if let Err(e) = tidemark_tools::commands::run(cli) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// Ctrl-C (and SIGTERM) end the process at once with 130, the shell's code
/// for death by SIGINT, after flushing what was printed: a consume loop or a
/// blocked request has nothing to clean up that the broker does not handle
/// (a group member's session simply expires).
fn install_interrupt_handler() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            use std::io::Write;
            let _ = std::io::stdout().flush();
            std::process::exit(130);
        }
    });
}
