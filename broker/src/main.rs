//! `tidemark`: the broker binary. `tidemark --help` lists the flags.

use std::process::ExitCode;

use clap::Parser;
use tidemark_broker::config::{BrokerConfig, Cli, LogFormat};

fn main() -> ExitCode {
    keep_freed_memory();
    let cli = Cli::parse();
    // openraft logs every election and shutdown step of every partition
    // group at info, and at warn every heartbeat each group fails to send
    // to a dead peer (thousands of lines a second in a cluster with one
    // broker down): the transport logs the lost connection once instead.
    let filter = || {
        tracing_subscriber::EnvFilter::try_from_env("TIDEMARK_LOG")
            .unwrap_or_else(|_| "info,openraft=error,tidemark_raft=warn".into())
    };
    match cli.log_format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_env_filter(filter())
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        // One JSON object per event and line, fields flattened next to
        // the message, for log shippers.
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .with_env_filter(filter())
            .with_writer(std::io::stderr)
            .init(),
    }
    raise_fd_limit();
    let config = match BrokerConfig::from_cli(cli) {
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
/// Descriptors a broker may open: as many as the system allows. A
/// partition being written holds its active segment open (and a reader
/// while it is fetched), so tens of thousands of active partitions need
/// more than the usual soft limit (1,024 or 20,000); idle ones park their
/// logs and hold none. As Kafka's and Redpanda's guides ask of operators,
/// but done here: the soft limit goes to the hard one, and the hard one
/// to the kernel's `nr_open` where the process may (CAP_SYS_RESOURCE).
fn raise_fd_limit() {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit write to or read from the struct we pass,
    // which lives on this stack frame for the calls.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return;
        }
        let nr_open = std::fs::read_to_string("/proc/sys/fs/nr_open")
            .ok()
            .and_then(|s| s.trim().parse::<libc::rlim_t>().ok())
            .unwrap_or(lim.rlim_max);
        let want = libc::rlimit {
            rlim_cur: nr_open.max(lim.rlim_max),
            rlim_max: nr_open.max(lim.rlim_max),
        };
        if libc::setrlimit(libc::RLIMIT_NOFILE, &want) != 0 {
            let soft = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            libc::setrlimit(libc::RLIMIT_NOFILE, &soft);
        }
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
            tracing::debug!(limit = lim.rlim_cur, "open file limit");
        }
    }
}

/// Raises glibc's mmap and trim thresholds so that request buffers are
/// reused from the heap rather than mapped and faulted in each time.
/// What this keeps is handed back every `memory.trim.interval.ms`
/// (`memory_trim.rs`); without that, the resident size stayed at the
/// peak of the largest load the broker ever took.
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
