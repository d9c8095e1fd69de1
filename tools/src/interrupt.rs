//! Ctrl-C (SIGINT) and SIGTERM.
//!
//! By default a signal ends the process at once with 130 (the shell's
//! code for death by SIGINT) after flushing stdout: a consume loop or a
//! blocked request has nothing to clean up that the broker does not
//! handle (a group member's session simply expires).
//!
//! A command that has something worth printing when stopped early (a
//! benchmark's summary of what it measured so far, as rpk's and Kafka's
//! perf tools print) holds a [`Graceful`] guard while it runs: the first
//! signal then only raises [`interrupted`], which its loops check; the
//! command finishes its in-flight work, prints, and `main` exits with 130.
//! A second signal ends the process at once, so a wait that does not end
//! (a broker that stopped answering) never traps the user.

use std::sync::atomic::{AtomicBool, Ordering};

/// A [`Graceful`] guard is alive.
static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// A signal arrived while a [`Graceful`] guard was alive.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Starts the thread that waits for SIGINT and SIGTERM (once, from `main`).
pub fn install() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        for _ in signals.forever() {
            if GRACEFUL.load(Ordering::SeqCst) && !INTERRUPTED.swap(true, Ordering::SeqCst) {
                eprintln!("interrupted: finishing what is in flight (Ctrl-C again to quit now)");
                continue;
            }
            exit_now();
        }
    });
}

fn exit_now() -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    std::process::exit(130);
}

/// Whether a signal asked the running [`Graceful`] command to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// While alive, the first signal raises [`interrupted`] instead of ending
/// the process.
pub struct Graceful(());

impl Graceful {
    pub fn begin() -> Self {
        GRACEFUL.store(true, Ordering::SeqCst);
        Graceful(())
    }
}

impl Drop for Graceful {
    fn drop(&mut self) {
        GRACEFUL.store(false, Ordering::SeqCst);
    }
}
