//! Small files written in place, durably, many at a time: a group commit
//! for the Raft state files' slots (`slot_file.rs`).
//!
//! Why: every vote and every blank entry of a Raft election rewrites its
//! group's state file, which must be on disk before the vote is sent.
//! When a broker of a three-node cluster with 10,000 partitions died, the
//! two survivors ran ~3,400 elections at once, ~20,000 state-file writes;
//! each waiting for its own commit, they queued behind the disk for
//! seconds (failover p50 6.6 s, 21 % of a survivor's CPU samples in the
//! helper threads' fsyncs).
//!
//! How: a write asked for while another batch is being committed waits
//! for the next batch, and a batch costs one `syncfs` per file system
//! whatever its size: every file's new bytes are written at offset 0
//! (files created as needed), then one `syncfs` makes the contents and
//! any new directory entries durable, and only then is any caller
//! answered. A batch of one takes the plain path (fdatasync, and an fsync
//! of the folder for a new file).
//!
//! A write in place can be torn by a crash: the caller keeps what it
//! cannot lose elsewhere (`slot_file.rs` writes the slot that does not
//! hold the newest durable copy, and checksums each copy).
//!
//! One committer at a time (on a `fs_pool` helper thread), so batches form
//! by themselves under load and a lone write waits for nothing. Two
//! writes of the same file never share a batch: the later one waits for
//! the next, so the file ends with the later contents.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, OnceLock};

use crate::error::{Result, StorageError};
use crate::{file, fs_pool, slot_file};

/// The most files one batch commits (a bound on the work between two
/// answers; the rest wait for the next batch).
const MAX_BATCH_FILES: usize = 4096;

struct Pending {
    path: PathBuf,
    data: Vec<u8>,
    done: futures_channel::oneshot::Sender<Result<()>>,
}

#[derive(Default)]
struct Queue {
    pending: VecDeque<Pending>,
    /// Whether a committer is queued or running (it empties `pending`).
    committing: bool,
}

fn queue() -> MutexGuard<'static, Queue> {
    static QUEUE: OnceLock<Mutex<Queue>> = OnceLock::new();
    QUEUE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Writes `data` at offset 0 of the file at `path` (made if missing),
/// durably (see the module doc); returns once it is on disk.
pub async fn write_durably(path: PathBuf, data: Vec<u8>) -> Result<()> {
    let (done, answer) = futures_channel::oneshot::channel();
    let start = {
        let mut q = queue();
        q.pending.push_back(Pending { path, data, done });
        !std::mem::replace(&mut q.committing, true)
    };
    if start && let Err(e) = fs_pool::spawn(commit_all) {
        // No helper thread: answer everything queued (ours included).
        let mut q = queue();
        q.committing = false;
        for p in q.pending.drain(..) {
            let _ = p.done.send(Err(StorageError::Failed(e.to_string())));
        }
    }
    answer
        .await
        .map_err(|_| StorageError::Failed("the state-file committer stopped".into()))?
}

/// Commits batches until nothing is pending.
fn commit_all() {
    let _reset = ResetOnPanic;
    loop {
        let batch = {
            let mut q = queue();
            if q.pending.is_empty() {
                q.committing = false;
                return;
            }
            take_batch(&mut q.pending)
        };
        commit(batch);
    }
}

/// Should a batch panic (a bug), frees the queue for the next committer
/// and fails what waits: `committing` left set would make every later
/// write, so every later vote of the process, wait for ever.
struct ResetOnPanic;

impl Drop for ResetOnPanic {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        let mut q = queue();
        q.committing = false;
        for p in q.pending.drain(..) {
            let _ = p.done.send(Err(StorageError::Failed(
                "the state-file committer failed".into(),
            )));
        }
    }
}

/// Up to [`MAX_BATCH_FILES`] pending writes, each file at most once
/// (a later write of a file in the batch stays queued, in order).
fn take_batch(pending: &mut VecDeque<Pending>) -> Vec<Pending> {
    let mut batch = Vec::new();
    let mut paths = HashSet::new();
    let mut later = VecDeque::new();
    while let Some(p) = pending.pop_front() {
        if batch.len() >= MAX_BATCH_FILES {
            later.push_back(p);
            break;
        }
        if paths.insert(p.path.clone()) {
            batch.push(p);
        } else {
            later.push_back(p);
        }
    }
    later.append(pending);
    *pending = later;
    batch
}

fn commit(batch: Vec<Pending>) {
    if batch.len() == 1 {
        for p in batch {
            let res = slot_file::write_in_place(&p.path, &p.data, true);
            let _ = p.done.send(res);
        }
        return;
    }
    // 1. Every file written, not synced; one open file kept per file
    //    system for its syncfs.
    let mut written = Vec::with_capacity(batch.len());
    let mut fs_files: HashMap<u64, (std::fs::File, PathBuf)> = HashMap::new();
    for p in batch {
        match write_one(&p) {
            Ok((f, dev)) => {
                fs_files.entry(dev).or_insert_with(|| (f, p.path.clone()));
                written.push((p, dev));
            }
            Err(e) => {
                let _ = p.done.send(Err(e));
            }
        }
    }
    // 2. All of it durable (contents and new directory entries); then the
    //    answers.
    let failed = sync_each(&fs_files);
    for (p, dev) in written {
        let res = match failed.get(&dev) {
            Some(e) => Err(StorageError::Failed(e.clone())),
            None => Ok(()),
        };
        let _ = p.done.send(res);
    }
}

/// Writes `p`'s bytes in place; returns the open file and its file
/// system's device id.
fn write_one(p: &Pending) -> Result<(std::fs::File, u64)> {
    use std::os::unix::fs::{FileExt, MetadataExt};
    let (f, _) = slot_file::open_slot(&p.path)?;
    f.write_all_at(&p.data, 0)
        .map_err(|e| StorageError::io("write", &p.path, e))?;
    let dev = f
        .metadata()
        .map_err(|e| StorageError::io("stat", &p.path, e))?
        .dev();
    Ok((f, dev))
}

/// One syncfs per file system; the failed ones, with their error.
fn sync_each(fs_files: &HashMap<u64, (std::fs::File, PathBuf)>) -> HashMap<u64, String> {
    let mut failed = HashMap::new();
    for (dev, (f, path)) in fs_files {
        if let Err(e) = file::sync_filesystem_of(f, path) {
            failed.insert(*dev, e.to_string());
        }
    }
    failed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
            .enable_timer()
            .build()
            .expect("runtime")
            .block_on(f)
    }

    #[test]
    fn many_files_at_once_all_land() {
        let tmp = tempfile::tempdir().expect("dir");
        let dir = tmp.path();
        block_on(async {
            let calls: Vec<_> = (0..300)
                .map(|i| {
                    let path = dir.join(format!("f{i}"));
                    // Half of them exist (written over), half are made.
                    if i % 2 == 0 {
                        std::fs::write(&path, b"old").expect("old");
                    }
                    write_durably(path, format!("new {i}").into_bytes())
                })
                .collect();
            for c in join_all(calls).await {
                c.expect("written");
            }
        });
        for i in 0..300 {
            let got = std::fs::read_to_string(dir.join(format!("f{i}"))).expect("read");
            assert_eq!(got, format!("new {i}"));
        }
        assert_eq!(std::fs::read_dir(dir).expect("list").count(), 300);
    }

    #[test]
    fn the_later_of_two_writes_of_one_file_wins() {
        let tmp = tempfile::tempdir().expect("dir");
        let dir = tmp.path();
        let path = dir.join("state");
        block_on(async {
            // Other files too, so that the two land in a real batch.
            let mut calls: Vec<_> = (0..20)
                .map(|i| write_durably(dir.join(format!("o{i}")), vec![b'x']))
                .collect();
            calls.push(write_durably(path.clone(), b"first".to_vec()));
            calls.push(write_durably(path.clone(), b"second".to_vec()));
            for c in join_all(calls).await {
                c.expect("written");
            }
        });
        assert_eq!(std::fs::read(&path).expect("read"), b"second");
    }

    #[test]
    fn a_failed_file_fails_alone() {
        let tmp = tempfile::tempdir().expect("dir");
        let dir = tmp.path();
        block_on(async {
            let mut calls: Vec<_> = (0..10)
                .map(|i| write_durably(dir.join(format!("ok{i}")), vec![b'y']))
                .collect();
            calls.push(write_durably(
                dir.join("missing-dir").join("state"),
                vec![b'z'],
            ));
            let res = join_all(calls).await;
            let (bad, good): (Vec<_>, Vec<_>) = res.into_iter().partition(|r| r.is_err());
            assert_eq!(bad.len(), 1, "only the file in a missing folder fails");
            assert_eq!(good.len(), 10);
        });
        for i in 0..10 {
            assert_eq!(
                std::fs::read(dir.join(format!("ok{i}"))).expect("read"),
                b"y"
            );
        }
    }

    /// Polls every future to completion (they run on the helper threads;
    /// started together so that they queue together).
    async fn join_all<F>(calls: Vec<F>) -> Vec<F::Output>
    where
        F: std::future::Future + 'static,
        F::Output: 'static,
    {
        let mut handles = Vec::with_capacity(calls.len());
        for c in calls {
            handles.push(monoio::spawn(c));
        }
        let mut out = Vec::with_capacity(handles.len());
        for h in handles {
            out.push(h.await);
        }
        out
    }

    #[test]
    fn a_batch_takes_each_file_once_and_keeps_the_rest_in_order() {
        let mk = |p: &str| {
            let (done, _) = futures_channel::oneshot::channel();
            Pending {
                path: PathBuf::from(p),
                data: p.as_bytes().to_vec(),
                done,
            }
        };
        let mut q: VecDeque<_> = ["a", "b", "a", "c", "b"].iter().map(|p| mk(p)).collect();
        let batch = take_batch(&mut q);
        let names = |v: &mut dyn Iterator<Item = &Pending>| {
            v.map(|p| p.path.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&mut batch.iter()), ["a", "b", "c"]);
        assert_eq!(names(&mut q.iter()), ["a", "b"]);
    }
}
