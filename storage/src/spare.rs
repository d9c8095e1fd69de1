//! Spare segment files: a segment's data file that retention (or
//! DeleteRecords) removed from a log, kept aside under another name and
//! reused as the log's next segment instead of creating a new file.
//!
//! Why: an unlink of a segment frees its blocks (block bitmaps, group
//! descriptors, the inode, with online discard a large discard), and the
//! fdatasyncs of every other partition on the file system queue behind
//! that. Measured here (benches/RESULTS.md, "recycling removed segments"):
//! one writer at 400 MB/s into 64 MiB files, deleting the oldest past
//! 16, took a second writer's 16 KiB fdatasync'd appends from p99 1.5 ms
//! (no deletions) to 15-17 ms; renaming the oldest file and overwriting it
//! as the next segment kept them at 1.3-1.8 ms. Overwriting blocks that
//! are already written needs no allocation and no extent conversion, so
//! an fdatasync of a recycled segment writes only data. PostgreSQL
//! recycles its WAL files for the same reasons.
//!
//! # Invariants
//!
//! - **Stale bytes are never data.** A recycled file still holds the old
//!   segment's batches past what the new one has written. A reader never
//!   reads past a segment's known size, and recovery accepts a batch only
//!   if its base offset is at or past the expected next offset, which
//!   starts at the segment's base. A spare is reused only for a segment
//!   whose base is at or past the spare's end offset (`Spare::next`), so
//!   none of its old batches can pass that check. Only prefix removals
//!   (retention, DeleteRecords) make spares; a truncation's removed
//!   segments hold offsets that will be written again and are never kept.
//! - **Sealed segments hold no stale bytes.** Sealing cuts the file to its
//!   data and syncs before the next segment's file exists, so a segment
//!   that is not the last one ends exactly at its data.
//! - **A spare is never written over under a read.** A read that started
//!   before the segment's removal may still read its file; the spare
//!   waits until all such reads have ended ([`ReadsInFlight`]).
//! - **Bounded.** At most [`MAX_SPARES_PER_LOG`] per log, only in a log
//!   that rolled within [`RECENT_ROLL_MS`], each freed if unused after
//!   [`MAX_SPARE_AGE_MS`], none while the
//!   broker's disk guard says space is short ([`set_allowed`]), and a
//!   log's spares are freed when it parks (idle) and when it is opened
//!   (leftovers of the previous run are removed, not adopted). A spare
//!   only ever holds space the log held just before the removal.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Result, StorageError};

/// The suffix of a data file set aside as a spare; `Log::open` removes
/// any it finds.
pub const SPARE_SUFFIX: &str = ".spare";

/// The most spares one log keeps. Four covers a partition rolling a few
/// segments between two retention passes (burstbench.py's partitions roll
/// about one 64 MiB segment a second, with a pass every second); what a
/// pass removes beyond this is freed as before (`file::Removal`).
pub const MAX_SPARES_PER_LOG: usize = 4;

/// A log keeps spares only if it rolled within this long: such a log
/// writes over them within about that long. One that rolls less often
/// would hold a segment's space far longer, for removals that are rare
/// and so cost its neighbours little (deleteprobe.py's harm came from a
/// removal per file written at 400 MB/s).
pub const RECENT_ROLL_MS: i64 = 60_000;

/// A spare not written over within this long is freed, at the log's next
/// removal or retention pass (`Log::release_unneeded_spares`) or when it
/// parks.
pub const MAX_SPARE_AGE_MS: i64 = 60_000;

/// A removed data file smaller than one block holds nothing to write
/// over: it is removed. Anything larger is kept, small ones too: a rename
/// costs what the unlink would, and this way every log that removes
/// segments, in every test (the storage model's small segments, the
/// conformance suite's), recycles them.
pub const MIN_SPARE_BYTES: u64 = 4096;

/// Whether logs may keep spares (process-wide; see [`set_allowed`]).
static ALLOWED: AtomicBool = AtomicBool::new(true);

/// Lets logs keep spares, or stops them from keeping new ones. The
/// broker's disk guard turns this off while free space is below its alert
/// threshold, so that retention and DeleteRecords give space back at
/// once, and frees the spares already kept (`Log::release_unneeded_spares`).
pub fn set_allowed(allowed: bool) {
    ALLOWED.store(allowed, Ordering::Relaxed);
}

/// Whether logs may keep spares now.
pub fn allowed() -> bool {
    ALLOWED.load(Ordering::Relaxed)
}

/// A removed segment's data file, renamed to `<name>.log.spare`.
#[derive(Debug)]
pub struct Spare {
    pub path: PathBuf,
    /// The offset after the last one the file's batches can hold: the
    /// removed segment's end. It may become a segment at or past this.
    pub next: i64,
    /// Reads of an epoch before this (`ReadsInFlight`) started before the
    /// segment left the log and may still read its file: it is not
    /// written over while one of them is in flight.
    pub reads_before: u64,
    /// When it was set aside (wall-clock ms; see [`MAX_SPARE_AGE_MS`]).
    pub kept_at_ms: i64,
}

/// A log's reads in flight, counted as they start. A read finds its
/// segment's file when it starts; a segment removed while it runs may
/// become a spare and be written over by the next roll (`take_spare`),
/// and the read would then get the new segment's bytes where it expects
/// the old ones (a false corruption, or records from past the segment).
/// So a spare waits until every read that started before its removal
/// has ended (**a spare is never written over under a read**).
///
/// Reads are counted by epoch, and only a removal starts a new one: a
/// read costs an increment and a decrement (every fetch goes through
/// here), not an entry of its own.
#[derive(Debug, Default)]
pub struct ReadsInFlight {
    epoch: u64,
    /// Reads in flight per epoch, oldest first; no zero counts.
    open: std::collections::VecDeque<(u64, u32)>,
}

impl ReadsInFlight {
    /// Counts a read starting now; `end` it with the epoch returned.
    pub fn start(&mut self) -> u64 {
        match self.open.back_mut() {
            Some((e, n)) if *e == self.epoch => *n += 1,
            _ => self.open.push_back((self.epoch, 1)),
        }
        self.epoch
    }

    pub fn end(&mut self, epoch: u64) {
        let i = self
            .open
            .iter()
            .position(|&(e, _)| e == epoch)
            .expect("a read ends in the epoch it started in");
        self.open[i].1 -= 1;
        if self.open[i].1 == 0 {
            self.open.remove(i);
        }
    }

    /// Marks a removal: reads that may have seen the removed segments are
    /// of an epoch before the one returned, later ones of it or after.
    pub fn mark_removal(&mut self) -> u64 {
        self.epoch += 1;
        self.epoch
    }

    /// Whether every read of an epoch before `mark` has ended.
    pub fn all_ended_before(&self, mark: u64) -> bool {
        self.open.front().is_none_or(|&(first, _)| first >= mark)
    }
}

impl Spare {
    /// Sets the data file at `path` aside as a spare, if it is large
    /// enough to be worth it (blocking: call it on a helper thread).
    /// `None`: the file is missing or small, and left where it is.
    pub fn set_aside(
        path: &Path,
        next: i64,
        reads_before: u64,
        now_ms: i64,
    ) -> Result<Option<Spare>> {
        let len = match std::fs::metadata(path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StorageError::io("stat", path, e)),
        };
        if len < MIN_SPARE_BYTES {
            return Ok(None);
        }
        let spare = PathBuf::from(format!("{}{SPARE_SUFFIX}", path.display()));
        std::fs::rename(path, &spare).map_err(|e| StorageError::io("rename", path, e))?;
        Ok(Some(Spare {
            path: spare,
            next,
            reads_before,
            kept_at_ms: now_ms,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spare_waits_for_the_reads_that_started_before_its_removal() {
        let mut r = ReadsInFlight::default();
        let early = r.start();
        let early2 = r.start();
        let removed_at = r.mark_removal();
        let late = r.start();
        assert!(
            !r.all_ended_before(removed_at),
            "the early reads may read it"
        );
        r.end(early);
        assert!(!r.all_ended_before(removed_at), "one early read is left");
        r.end(early2);
        assert!(r.all_ended_before(removed_at), "the late read cannot");
        let next_removal = r.mark_removal();
        assert!(!r.all_ended_before(next_removal));
        r.end(late);
        assert!(r.all_ended_before(next_removal));
    }

    #[test]
    fn only_files_worth_keeping_are_set_aside() {
        let dir = std::env::temp_dir().join(format!("tm-spare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let small = dir.join("00000000000000000000.log");
        std::fs::write(&small, vec![1u8; 100]).unwrap();
        assert!(Spare::set_aside(&small, 10, 0, 0).unwrap().is_none());
        assert!(
            small.exists(),
            "a small file is left for the caller to remove"
        );

        let big = dir.join("00000000000000000010.log");
        std::fs::write(&big, vec![1u8; MIN_SPARE_BYTES as usize]).unwrap();
        let s = Spare::set_aside(&big, 20, 0, 0).unwrap().expect("kept");
        assert_eq!(s.next, 20);
        assert!(!big.exists());
        assert!(s.path.to_string_lossy().ends_with(".log.spare"));
        assert_eq!(std::fs::metadata(&s.path).unwrap().len(), MIN_SPARE_BYTES);

        let gone = dir.join("00000000000000000030.log");
        assert!(Spare::set_aside(&gone, 40, 0, 0).unwrap().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
