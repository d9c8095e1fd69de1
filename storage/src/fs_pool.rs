//! File-system calls that block, run on a few helper threads instead of
//! the shard's own thread: the metadata work of a segment roll (the sealed
//! segment's preallocated tail cut; index, transaction-index and snapshot
//! files written and fsynced; the new segment created and preallocated;
//! the directory fsynced), each later preallocation step, segment
//! deletions, checkpoints, and (from the raft crate) each Raft state-file
//! write, a vote among them.
//!
//! Why: those are plain syscalls, and under a heavy writer each directory
//! fsync or file create waits for an ext4 journal commit. Run on the
//! shard, a roll stopped every partition of the shard with it: a tenant
//! writing 600 MB/s into 64 MiB segments (a roll per partition about
//! every 0.6 s) took a quiet tenant's publish-ack p99 from 2.5 ms to
//! 28-120 ms on the same broker, 6-10 ms with this pool (benches/RESULTS.md,
//! "Isolation scenario (a)"). Appends, reads and fdatasyncs of the data files stay
//! on io_uring; only these calls move.
//!
//! A fixed pool of [`THREADS`] threads for the whole process, fed by one
//! queue: the calls are short and rare next to the data path, and a small
//! pool bounds how many journal waits run at once. More than one, because
//! an election storm is thousands of small state-file writes, each two
//! fsyncs that wait on the device rather than the CPU, and concurrent
//! fsyncs share the file system's journal commits. The `blocking` crate
//! grows its pool to hundreds of threads, and monoio's `spawn_blocking`
//! needs every runtime (the broker's shards and every test's) built with
//! a thread pool attached; this is forty lines.
//!
//! The caller awaits the result; its log holds the I/O role meanwhile, so
//! the calls of one log stay in order. A call whose caller is cancelled
//! still runs to its end on the helper thread.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{Result, StorageError};

/// Helper threads in the process.
const THREADS: usize = 4;

type Job = Box<dyn FnOnce() + Send>;

fn queue() -> &'static Mutex<mpsc::Sender<Job>> {
    static QUEUE: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..THREADS {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("tidemark-fs-{i}"))
                .spawn(move || {
                    loop {
                        // The lock is held only to take one job.
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a file-system helper thread");
            }
        }
        Mutex::new(tx)
    })
}

/// Queues `job` for a helper thread without waiting for it (the job
/// reports its own outcome). Fails when no helper thread is running.
pub(crate) fn spawn(job: impl FnOnce() + Send + 'static) -> Result<()> {
    let sent = queue()
        .lock()
        .map_err(|_| StorageError::Failed("file-system helper queue poisoned".into()))?
        .send(Box::new(job));
    sent.map_err(|_| StorageError::Failed("no file-system helper thread is running".into()))
}

/// Runs `f` on a helper thread and returns its result.
pub async fn run<T, F>(f: F) -> Result<T>
where
    F: FnOnce() -> Result<T> + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = futures_channel::oneshot::channel();
    spawn(move || {
        let _ = tx.send(f());
    })?;
    rx.await.map_err(|_| {
        StorageError::Failed("a file-system helper thread failed during a call".into())
    })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_off_the_calling_thread_and_returns_results_and_errors() {
        let mut rt = monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
            .enable_timer()
            .build()
            .expect("runtime");
        rt.block_on(async {
            let me = std::thread::current().id();
            let other = run(move || Ok(std::thread::current().id() != me))
                .await
                .expect("ran");
            assert!(other, "the call ran on the shard's thread");
            let e = run(|| -> Result<()> { Err(StorageError::Failed("boom".into())) }).await;
            assert!(matches!(e, Err(StorageError::Failed(m)) if m == "boom"));
            // Many at once, more than there are threads: all answered.
            let calls: Vec<_> = (0..16u64).map(|i| run(move || Ok(i * 2))).collect();
            let mut sum = 0;
            for c in calls {
                sum += c.await.expect("ran");
            }
            assert_eq!(sum, (0..16u64).map(|i| i * 2).sum::<u64>());
        });
    }
}
