//! `tidemark`: the broker binary. `tidemark --help` lists the flags.

use std::process::ExitCode;

use clap::Parser;
use tidemark_broker::config::{BrokerConfig, Cli};

fn main() -> ExitCode {
    keep_freed_memory();
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

/// Has glibc's malloc keep freed memory for reuse instead of handing it
/// back to the kernel at once. The broker allocates and frees buffers of
/// a few hundred KiB to a few MiB all the time (request frames, segment
/// reads, replication frames); above glibc's mmap threshold each one was
/// a fresh mapping whose every page the kernel faulted in and zeroed, and
/// trimming the heap top did the same to the rest. In a three-node
/// benchmark on one machine that page zeroing was 12% of the brokers'
/// CPU. Memory freed by idle partitions is still handed back by the
/// housekeeping's `malloc_trim`. Must run before any thread starts (the
/// settings are process-wide and not meant to change under allocations).
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes two integers and only sets allocator
    // parameters; called first thing in main, before any other thread.
    unsafe {
        // 32 MiB is the largest threshold glibc accepts on 64-bit.
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}
