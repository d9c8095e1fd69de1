//! Crash points for the crash tests: when `TIDEMARK_STORAGE_FAILPOINT`
//! names a point, the process aborts there (like a kill -9: no
//! destructors, nothing flushed). Reading the variable once makes an unset
//! failpoint cost one load.

use std::sync::OnceLock;

static POINT: OnceLock<Option<String>> = OnceLock::new();

pub fn hit(name: &str) {
    let p = POINT.get_or_init(|| std::env::var("TIDEMARK_STORAGE_FAILPOINT").ok());
    if p.as_deref() == Some(name) {
        eprintln!("failpoint {name}: aborting");
        std::process::abort();
    }
}
