//! What a running Raft group costs in heap, measured: live bytes per
//! single-voter group after it opened, elected itself and appended.
//!
//! Why a test: openraft 0.10.0-alpha.37 preallocates three queues per
//! group (~1.4 MB of address space, resident as their ring heads walk)
//! and `vendor/openraft` patches that away (see its README.tidemark.md).
//! Moving to a newer openraft without carrying the patch, or any other
//! per-group preallocation of that size, fails here instead of showing up
//! as broker memory at thousands of partitions.

use std::alloc::{GlobalAlloc, Layout, System};
use std::rc::Rc;
use std::sync::atomic::{AtomicIsize, Ordering};

#[path = "integration/common/mod.rs"]
mod common;

use common::{batch_for, config, open_single, run, test_dir};
use tidemark_raft::PartitionReplica;

struct Counting;

/// Bytes allocated and not yet freed, every thread together (this test
/// binary holds one test, so nothing else runs beside it).
static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(l.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.alloc(l) }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(l.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.alloc_zeroed(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE_BYTES.fetch_sub(l.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// Groups opened: enough that the per-group figure is not the runtime's
/// or the first group's one-off allocations.
const GROUPS: usize = 32;

/// The bound per running group. Measured (2026-12-07): 108 KB each with
/// the patch (openraft's tasks and channels, the log, the state file),
/// 1,563 KB with the published openraft.
const MAX_BYTES_PER_GROUP: isize = 384 << 10;

#[test]
fn a_running_group_holds_a_bounded_heap() {
    run(async {
        let base = test_dir("group-memory");
        // The first group pays the runtime's and the libraries' one-off
        // allocations (timers, lazily built tables): open it before the
        // count starts.
        let first = open(&base, 0).await;
        let before = LIVE_BYTES.load(Ordering::Relaxed);
        let mut groups = Vec::with_capacity(GROUPS);
        for i in 1..=GROUPS {
            groups.push(open(&base, i).await);
        }
        let after = LIVE_BYTES.load(Ordering::Relaxed);
        let per_group = (after - before) / GROUPS as isize;
        eprintln!(
            "{GROUPS} running single-voter groups: {} KB live each",
            per_group >> 10
        );
        assert!(
            per_group <= MAX_BYTES_PER_GROUP,
            "a running group holds {per_group} bytes of heap (bound {MAX_BYTES_PER_GROUP})"
        );
        for r in groups.into_iter().chain([first]) {
            r.close().await.unwrap();
        }
        std::fs::remove_dir_all(&base).unwrap();
    });
}

/// Opens group `i` under `base`, waits for it to lead and appends one
/// batch, so that its queues have carried a write.
async fn open(base: &std::path::Path, i: usize) -> Rc<PartitionReplica> {
    let r = open_single(&base.join(format!("g{i}")), config()).await;
    r.append(batch_for(i as u64, 4, 100), None).await.unwrap();
    r
}
