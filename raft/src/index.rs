//! The map from Raft indexes to Kafka offsets.
//!
//! Each Raft data entry is one batch of the partition log, in order; the
//! few other entries (blank, membership) are kept in the state file with
//! the log end offset at the time they were appended. So the entries from
//! index `i` on are found by a walk: start at the offset where entry `i`
//! begins ("the walk state before `i`": the base offset of its batch, or
//! for a non-data entry the offset it was appended at), take the non-data
//! entry numbered `i` if there is one, else the batch at that offset.
//! openraft numbers entries one by one while Kafka numbers records, so an
//! index is not an offset; this map gives the walk state of an index:
//!
//! * exactly, for the most recent [`TAIL`] entries (what replication to
//!   caught-up followers and the state machine read);
//! * through sparse anchors (every [`STRIDE`]-th index, each term's first
//!   entry, the first entry of the log), for older entries: the reader
//!   starts at the nearest anchor below and counts batches forward.
//!
//! Each term's first entry is also what openraft's key log ids are made
//! of, so `(term, index)` of any entry is known without reading the log.

use std::collections::VecDeque;

use crate::types::{LogId, Term, log_id};

/// How many recent entries have their offsets kept exactly.
pub(crate) const TAIL: usize = 1024;
/// Every `STRIDE`-th index older than the tail keeps an anchor.
pub(crate) const STRIDE: u64 = 256;

/// Where an entry starts in the Kafka offset space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Locate {
    /// The entry's base offset (for `next_index`: the log end offset).
    Exact(i64),
    /// Unknown; count batches forward from this entry (index, base offset).
    Scan { index: u64, offset: i64 },
    /// Below the first entry or past the end of the log.
    OutOfRange,
}

#[derive(Debug, Clone)]
pub(crate) struct IndexMap {
    /// Index and base offset of the first batch of the log.
    pub first: (u64, i64),
    tail_start: u64,
    tail: VecDeque<i64>,
    anchors: Vec<(u64, i64)>,
    next_index: u64,
    end_offset: i64,
    last_term: Option<Term>,
    /// The first entry of each term: (term, index, base offset).
    pub epochs: Vec<(Term, u64, i64)>,
}

impl IndexMap {
    /// A map that knows the entries before `(index, offset)` only through
    /// `first` and `epochs` (all starting below `index`; the last one is
    /// the term of entry `index - 1`, also when that entry is purged), and
    /// will be fed the entries from `index` on.
    pub fn resume(first: (u64, i64), epochs: Vec<(Term, u64, i64)>, at: (u64, i64)) -> Self {
        debug_assert!(epochs.iter().all(|e| e.1 < at.0));
        let last_term = epochs.last().map(|e| e.0);
        IndexMap {
            first,
            tail_start: at.0,
            tail: VecDeque::new(),
            anchors: Vec::new(),
            next_index: at.0,
            end_offset: at.1,
            last_term,
            epochs,
        }
    }

    pub fn next_index(&self) -> u64 {
        self.next_index
    }

    /// The Kafka offset after the last entry (the log end offset).
    pub fn end_offset(&self) -> i64 {
        self.end_offset
    }

    pub fn last_log_id(&self) -> Option<LogId> {
        if self.next_index > self.first.0 {
            Some(log_id(self.last_term?, self.next_index - 1))
        } else {
            None
        }
    }

    /// Records the next entry: its term and offsets `[base, next)`.
    pub fn push(&mut self, term: Term, base: i64, next: i64) {
        let index = self.next_index;
        if self.last_term != Some(term) {
            self.epochs.push((term, index, base));
            self.last_term = Some(term);
        }
        self.tail.push_back(base);
        self.next_index += 1;
        self.end_offset = next;
        while self.tail.len() > TAIL {
            let off = self.tail.pop_front().expect("non-empty");
            if self.tail_start.is_multiple_of(STRIDE) {
                self.anchors.push((self.tail_start, off));
            }
            self.tail_start += 1;
        }
    }

    /// The first index whose offsets the map knows exactly (every entry
    /// from there to `next_index` is [`Locate::Exact`]).
    pub fn exact_from(&self) -> u64 {
        self.tail_start.max(self.first.0)
    }

    pub fn locate(&self, index: u64) -> Locate {
        if index < self.first.0 || index > self.next_index {
            return Locate::OutOfRange;
        }
        if index == self.next_index {
            return Locate::Exact(self.end_offset);
        }
        if index >= self.tail_start {
            return Locate::Exact(self.tail[(index - self.tail_start) as usize]);
        }
        let mut best = self.first;
        let i = self.anchors.partition_point(|a| a.0 <= index);
        if i > 0 {
            best = best.max(self.anchors[i - 1]);
        }
        let i = self.epochs.partition_point(|e| e.1 <= index);
        if i > 0 {
            let e = self.epochs[i - 1];
            best = best.max((e.1, e.2));
        }
        if best.0 == index {
            Locate::Exact(best.1)
        } else {
            Locate::Scan {
                index: best.0,
                offset: best.1,
            }
        }
    }

    /// The last known walk state (index, offset) that starts below
    /// `offset` (`None`: the first entry starts at or past it). Walking on
    /// from it finds the first entry at `offset` or past it.
    pub fn floor_below(&self, offset: i64) -> Option<(u64, i64)> {
        if self.first.1 >= offset {
            return None;
        }
        let mut best = self.first;
        let i = self.anchors.partition_point(|a| a.1 < offset);
        if i > 0 {
            best = best.max(self.anchors[i - 1]);
        }
        let i = self.epochs.partition_point(|e| e.2 < offset);
        if i > 0 {
            let e = self.epochs[i - 1];
            if e.1 >= self.first.0 {
                best = best.max((e.1, e.2));
            }
        }
        let j = self.tail.partition_point(|o| *o < offset);
        if j > 0 {
            best = best.max((self.tail_start + j as u64 - 1, self.tail[j - 1]));
        }
        Some(best)
    }

    /// Records that entry `index` starts at `offset`, learnt by a walk, as
    /// an anchor if it is an anchor's place and not known already.
    pub fn note_anchor(&mut self, index: u64, offset: i64) {
        if !index.is_multiple_of(STRIDE) || index < self.first.0 || index >= self.tail_start {
            return;
        }
        if let Err(at) = self.anchors.binary_search_by_key(&index, |a| a.0) {
            self.anchors.insert(at, (index, offset));
        }
    }

    /// The term of the entry at `index` (which must be in the log).
    pub fn term_at(&self, index: u64) -> Option<Term> {
        let i = self.epochs.partition_point(|e| e.1 <= index);
        (i > 0).then(|| self.epochs[i - 1].0)
    }

    /// Forgets the entries from `index` on; `offset` is where `index`
    /// started (the new log end offset).
    pub fn truncate(&mut self, index: u64, offset: i64) {
        if index >= self.next_index {
            return;
        }
        if index >= self.tail_start {
            self.tail.truncate((index - self.tail_start) as usize);
        } else {
            self.tail.clear();
            self.tail_start = index;
        }
        self.anchors.retain(|a| a.0 < index);
        self.epochs.retain(|e| e.1 < index);
        self.next_index = index;
        self.end_offset = offset;
        self.last_term = if index > self.first.0 {
            self.epochs.last().map(|e| e.0)
        } else {
            None
        };
    }

    /// Forgets the entries below `first.0` (purged: openraft never asks for
    /// them again); `first.1` is where entry `first.0` starts. The term of
    /// the last purged entry stays known.
    pub fn purge(&mut self, first: (u64, i64)) {
        if first.0 <= self.first.0 || first.0 > self.next_index {
            return;
        }
        self.first = first;
        while self.tail_start < first.0 && !self.tail.is_empty() {
            self.tail.pop_front();
            self.tail_start += 1;
        }
        self.tail_start = self.tail_start.max(first.0);
        self.anchors.retain(|a| a.0 >= first.0);
        let keep_from = self
            .epochs
            .partition_point(|e| e.1 < first.0)
            .saturating_sub(1);
        self.epochs.drain(..keep_from);
    }

    /// openraft's key log ids within `[first, last]`: the last log id of
    /// each term.
    pub fn key_log_ids(&self, first: u64, last: &LogId) -> Vec<LogId> {
        let mut out = Vec::new();
        for (k, &(term, start, _)) in self.epochs.iter().enumerate() {
            let end = match self.epochs.get(k + 1) {
                Some(n) => n.1 - 1,
                None => last.index,
            };
            if end < first {
                continue;
            }
            if start > last.index {
                break;
            }
            out.push(log_id(term, end.min(last.index)));
        }
        out
    }

    /// Heap bytes held (for the memory checks).
    pub fn heap_bytes(&self) -> usize {
        self.tail.capacity() * 8 + self.anchors.capacity() * 16 + self.epochs.capacity() * 24
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_tail_anchor_and_epochs() {
        let mut m = IndexMap::resume((0, 0), Vec::new(), (0, 0));
        // Entry i has 3 records, except term changes at 1 and 2000.
        let mut off = 0;
        for i in 0..5000u64 {
            let term = if i == 0 {
                0
            } else if i < 2000 {
                1
            } else {
                2
            };
            m.push(term, off, off + 3);
            off += 3;
        }
        assert_eq!(m.next_index(), 5000);
        assert_eq!(m.end_offset(), 15000);
        assert_eq!(m.last_log_id(), Some(log_id(2, 4999)));
        assert_eq!(m.locate(4999), Locate::Exact(4999 * 3));
        assert_eq!(m.locate(5000), Locate::Exact(15000));
        assert_eq!(m.locate(5001), Locate::OutOfRange);
        assert_eq!(m.locate(512), Locate::Exact(512 * 3));
        assert_eq!(
            m.locate(600),
            Locate::Scan {
                index: 512,
                offset: 1536
            }
        );
        assert_eq!(m.locate(2000), Locate::Exact(6000));
        assert_eq!(m.term_at(0), Some(0));
        assert_eq!(m.term_at(1999), Some(1));
        assert_eq!(m.term_at(2000), Some(2));
        assert_eq!(
            m.key_log_ids(0, &log_id(2, 4999)),
            vec![log_id(0, 0), log_id(1, 1999), log_id(2, 4999)]
        );
        assert_eq!(m.key_log_ids(100, &log_id(1, 1500)), vec![log_id(1, 1500)]);
        m.truncate(1000, 3000);
        assert_eq!(m.last_log_id(), Some(log_id(1, 999)));
        assert_eq!(m.epochs.len(), 2);
        m.push(3, 3000, 3010);
        assert_eq!(m.last_log_id(), Some(log_id(3, 1000)));
        assert_eq!(m.locate(1001), Locate::Exact(3010));
        m.truncate(0, 0);
        assert_eq!(m.last_log_id(), None);
    }

    #[test]
    fn floor_below_and_walked_anchors() {
        // Entries of 4 records each from offset 100; a blank of term 2 at
        // index 3000 (at the offset where entry 3001 starts).
        let mut m = IndexMap::resume((0, 100), Vec::new(), (0, 100));
        let mut off = 100;
        for i in 0..5000u64 {
            if i == 3000 {
                m.push(2, off, off);
                continue;
            }
            m.push(if i < 3000 { 1 } else { 2 }, off, off + 4);
            off += 4;
        }
        assert_eq!(m.floor_below(100), None);
        assert_eq!(m.floor_below(50), None);
        assert_eq!(m.floor_below(101), Some((0, 100)));
        // Below the tail: the nearest anchor below (every 256th index).
        assert_eq!(m.floor_below(100 + 4 * 600), Some((512, 100 + 4 * 512)));
        assert_eq!(m.floor_below(100 + 4 * 512), Some((256, 100 + 4 * 256)));
        // The epoch start of term 2 (the blank) is known exactly.
        assert_eq!(
            m.floor_below(100 + 4 * 3000 + 1),
            Some((3000, 100 + 4 * 3000))
        );
        // In the tail: exact.
        assert_eq!(m.floor_below(100 + 4 * 4990), Some((4990, 100 + 4 * 4989)));
        // A restarted map knows only `first` and the epochs; walks add anchors.
        let mut r = IndexMap::resume((0, 100), vec![(1, 0, 100)], (5000, 100 + 4 * 4999));
        assert_eq!(r.floor_below(100 + 4 * 600), Some((0, 100)));
        r.note_anchor(512, 100 + 4 * 512);
        r.note_anchor(513, 100 + 4 * 513); // not an anchor's place
        r.note_anchor(256, 100 + 4 * 256);
        assert_eq!(r.floor_below(100 + 4 * 600), Some((512, 100 + 4 * 512)));
        assert_eq!(r.floor_below(100 + 4 * 400), Some((256, 100 + 4 * 256)));
        assert_eq!(
            r.locate(700),
            Locate::Scan {
                index: 512,
                offset: 100 + 4 * 512
            }
        );
    }

    #[test]
    fn non_data_entries_and_purge() {
        // 0: membership (term 0) at 0; 1: blank (term 1) at 0; data of
        // 2 records each from index 2; a blank of term 2 at index 3000.
        let mut m = IndexMap::resume((0, 0), Vec::new(), (0, 0));
        m.push(0, 0, 0);
        m.push(1, 0, 0);
        let mut off = 0;
        for i in 2..5000u64 {
            if i == 3000 {
                m.push(2, off, off);
                continue;
            }
            m.push(if i < 3000 { 1 } else { 2 }, off, off + 2);
            off += 2;
        }
        // Walk states: the blank of term 1 and the first batch both start
        // at 0; the blank at 3000 sits where batch 3001 starts.
        assert_eq!(
            m.locate(2),
            Locate::Scan {
                index: 1,
                offset: 0
            }
        );
        assert_eq!(m.locate(3000), Locate::Exact(2 * 2998));
        assert_eq!(
            m.locate(3001),
            Locate::Scan {
                index: 3000,
                offset: 2 * 2998
            }
        );
        assert_eq!(m.locate(4999), Locate::Exact(2 * 4996));
        assert_eq!(m.end_offset(), 2 * 4997);
        // Purge through index 3500: entries from 3501 on remain.
        m.purge((3501, 2 * 3498));
        assert_eq!(m.first, (3501, 6996));
        assert_eq!(m.locate(3500), Locate::OutOfRange);
        assert_eq!(m.locate(3501), Locate::Exact(6996));
        assert_eq!(m.term_at(3501), Some(2));
        assert_eq!(m.epochs, vec![(2, 3000, 5996)]);
        assert_eq!(m.last_log_id(), Some(log_id(2, 4999)));
        // Purging everything leaves the last term known; a resumed map
        // with no entries after the purge point knows it too.
        m.purge((5000, m.end_offset()));
        assert_eq!(m.last_log_id(), None);
        m.push(2, 9994, 9996);
        assert_eq!(m.last_log_id(), Some(log_id(2, 5000)));
        assert_eq!(m.epochs.len(), 1, "same term: no new epoch");
        let r = IndexMap::resume((5000, 9994), vec![(2, 3000, 5996)], (5000, 9994));
        assert_eq!(r.last_log_id(), None);
        assert_eq!(r.term_at(4999), Some(2));
        assert_eq!(r.key_log_ids(5000, &log_id(2, 5000)), vec![log_id(2, 5000)]);
    }
}
