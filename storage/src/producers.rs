//! [`ProducerBatches`]: the last batches of each idempotent producer in a
//! log, kept up to date as batches are appended, so that a replica that
//! becomes leader knows its producers without reading its log again.
//!
//! Why it lives in the log: every batch a replica holds, whether it wrote
//! it as leader or copied it as follower, passes through the log's append,
//! and the log is the one place that also sees truncations. Kafka keeps
//! the same state per partition (`ProducerStateManager`), on followers
//! too. Before this, a new leader read its whole active segment (up to
//! `segment.bytes`, 1 GiB by default) before its first append.
//!
//! What is kept per producer id: its last [`REMEMBERED`] batches' epoch,
//! first sequence, record count and base offset, in log order. That is
//! what the broker's duplicate and sequence checks need; replaying them
//! gives the same state as replaying the whole log.
//!
//! A truncation removes the batches it cuts. It loses information only
//! when it cuts every remembered batch of a producer that had older ones:
//! those older ones are no longer known. Then the state is marked stale
//! and [`crate::Log::producer_batches`] rebuilds it from the active
//! segment before answering.

use std::collections::{HashMap, VecDeque};

use kafka_protocol::records::RecordBatch;

/// Batches remembered per producer (Kafka: 5, the most in-flight requests
/// an idempotent client allows).
pub const REMEMBERED: usize = 5;

/// How long a producer id with no new batch is remembered, by its last
/// batch's timestamp (Kafka's `producer.id.expiration.ms` default, one
/// day): idempotent clients take a new id each time they start, so the
/// ids of producers that are gone must be forgotten at some point.
pub const PRODUCER_ID_EXPIRATION_MS: i64 = 24 * 60 * 60 * 1000;

/// One batch of an idempotent producer, as written in the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProducerBatch {
    pub producer_id: i64,
    pub epoch: i16,
    pub base_sequence: i32,
    pub records: i32,
    pub base_offset: i64,
}

impl ProducerBatch {
    /// `b` as a producer's batch; `None` for control batches and batches
    /// without a producer id, which are nobody's.
    pub fn of(b: &RecordBatch) -> Option<Self> {
        (b.producer_id() >= 0 && !b.is_control()).then(|| ProducerBatch {
            producer_id: b.producer_id(),
            epoch: b.producer_epoch(),
            base_sequence: b.base_sequence(),
            records: b.records_count(),
            base_offset: b.base_offset(),
        })
    }
}

#[derive(Debug, Default)]
struct Producer {
    batches: VecDeque<ProducerBatch>,
    /// Largest batch timestamp seen (expiry).
    last_timestamp: i64,
    /// Older batches of this producer were dropped from `batches`.
    dropped_older: bool,
}

/// The producers' last batches of one log (see the module docs).
#[derive(Debug)]
pub(crate) struct ProducerBatches {
    producers: HashMap<i64, Producer>,
    /// Every producer batch at or past this offset was seen.
    covers_from: i64,
    /// Some producer was forgotten by expiry.
    expired_any: bool,
    /// A truncation lost information; rebuild before answering. Holds the
    /// offset the rebuild must read up to (batches past it are recorded).
    stale_until: Option<i64>,
    /// Bumped by every truncation or reset, so that a rebuild that raced
    /// one is discarded.
    pub generation: u64,
}

impl ProducerBatches {
    /// An empty state that has seen everything from `from` on.
    pub fn starting_at(from: i64) -> Self {
        ProducerBatches {
            producers: HashMap::new(),
            covers_from: from,
            expired_any: false,
            stale_until: None,
            generation: 0,
        }
    }

    /// Records an appended batch.
    pub fn record(&mut self, b: &RecordBatch) {
        if let Some(p) = ProducerBatch::of(b) {
            self.push(p, b.max_timestamp());
        }
    }

    fn push(&mut self, batch: ProducerBatch, timestamp: i64) {
        // A producer first seen here may have batches below what was read.
        let maybe_older = self.covers_from > 0;
        let p = self
            .producers
            .entry(batch.producer_id)
            .or_insert_with(|| Producer {
                dropped_older: maybe_older,
                ..Producer::default()
            });
        p.batches.push_back(batch);
        p.last_timestamp = p.last_timestamp.max(timestamp);
        if p.batches.len() > REMEMBERED {
            p.batches.pop_front();
            p.dropped_older = true;
        }
    }

    /// Forgets every batch at or past `offset` (a truncation).
    pub fn truncate(&mut self, offset: i64) {
        self.generation += 1;
        let mut lost = false;
        self.producers.retain(|_, p| {
            while p.batches.back().is_some_and(|b| b.base_offset >= offset) {
                p.batches.pop_back();
            }
            if p.batches.is_empty() {
                lost |= p.dropped_older;
                return false;
            }
            true
        });
        if let Some(until) = self.stale_until {
            self.stale_until = Some(until.min(offset));
        } else if lost {
            // The rebuild reads every producer's batches below `offset`
            // again, so what is kept now would be counted twice.
            self.producers.clear();
            self.stale_until = Some(offset);
        }
    }

    /// Forgets everything: the log starts again at `offset`.
    pub fn reset(&mut self, offset: i64) {
        let generation = self.generation + 1;
        *self = ProducerBatches::starting_at(offset);
        self.generation = generation;
    }

    /// Forgets producers whose last batch is older than the expiration.
    pub fn expire(&mut self, now_ms: i64) {
        let before = self.producers.len();
        self.producers
            .retain(|_, p| now_ms.saturating_sub(p.last_timestamp) < PRODUCER_ID_EXPIRATION_MS);
        self.expired_any |= self.producers.len() != before;
    }

    /// `Some(until)` when a rebuild must read `[from, until)` first.
    pub fn stale_until(&self) -> Option<i64> {
        self.stale_until
    }

    /// Puts the batches a rebuild read from `from` (up to `stale_until`)
    /// in front of those recorded since, as if they had been recorded in
    /// order.
    pub fn rebuilt(&mut self, from: i64, older: Vec<(ProducerBatch, i64)>) {
        let newer = std::mem::take(&mut self.producers);
        self.covers_from = from;
        for (b, ts) in older {
            self.push(b, ts);
        }
        for (id, p) in newer {
            for b in p.batches {
                self.push(b, p.last_timestamp);
            }
            if p.dropped_older
                && let Some(q) = self.producers.get_mut(&id)
            {
                q.dropped_older = true;
            }
        }
        self.stale_until = None;
    }

    /// The state as bytes for a producer-state snapshot taken at `offset`
    /// (see `txn.rs`). A stale state (a truncation lost batches and the
    /// rebuild has not run) is written as empty and seeing everything from
    /// `offset` on only: nothing wrong is remembered, and the state says it
    /// does not cover the whole log.
    pub fn encode(&self, offset: i64) -> Vec<u8> {
        let mut out = Vec::new();
        if self.stale_until.is_some() {
            out.extend_from_slice(&offset.to_be_bytes());
            out.push(1);
            out.extend_from_slice(&0u32.to_be_bytes());
            return out;
        }
        out.extend_from_slice(&self.covers_from.to_be_bytes());
        out.push(u8::from(self.expired_any));
        out.extend_from_slice(&(self.producers.len() as u32).to_be_bytes());
        let mut ids: Vec<_> = self.producers.keys().copied().collect();
        ids.sort_unstable();
        for id in ids {
            let p = &self.producers[&id];
            out.extend_from_slice(&id.to_be_bytes());
            out.extend_from_slice(&p.last_timestamp.to_be_bytes());
            out.push(u8::from(p.dropped_older));
            out.push(p.batches.len() as u8);
            for b in &p.batches {
                out.extend_from_slice(&b.epoch.to_be_bytes());
                out.extend_from_slice(&b.base_sequence.to_be_bytes());
                out.extend_from_slice(&b.records.to_be_bytes());
                out.extend_from_slice(&b.base_offset.to_be_bytes());
            }
        }
        out
    }

    /// Reads [`ProducerBatches::encode`]'s bytes; `None` if malformed.
    pub fn decode(data: &[u8]) -> Option<Self> {
        let mut r = crate::txn::Reader::new(data);
        let mut s = ProducerBatches::starting_at(r.i64()?);
        s.expired_any = r.u8()? != 0;
        let n = r.count(18)?;
        for _ in 0..n {
            let id = r.i64()?;
            let mut p = Producer {
                last_timestamp: r.i64()?,
                dropped_older: r.u8()? != 0,
                ..Producer::default()
            };
            let k = r.u8()? as usize;
            if k > REMEMBERED {
                return None;
            }
            for _ in 0..k {
                p.batches.push_back(ProducerBatch {
                    producer_id: id,
                    epoch: r.i16()?,
                    base_sequence: r.i32()?,
                    records: r.i32()?,
                    base_offset: r.i64()?,
                });
            }
            s.producers.insert(id, p);
        }
        (r.left() == 0).then_some(s)
    }

    /// Each producer's last remembered batch and its largest timestamp.
    pub fn last_batches(&self) -> impl Iterator<Item = (ProducerBatch, i64)> + '_ {
        self.producers
            .values()
            .filter_map(|p| p.batches.back().map(|b| (*b, p.last_timestamp)))
    }

    /// Every producer's remembered batches, each producer's in log order,
    /// and whether they account for the whole log from offset 0 (nothing
    /// was read from a later start, forgotten by expiry or lost).
    pub fn snapshot(&self) -> (Vec<ProducerBatch>, bool) {
        let batches = self
            .producers
            .values()
            .flat_map(|p| p.batches.iter().copied())
            .collect();
        (
            batches,
            self.covers_from == 0 && !self.expired_any && self.stale_until.is_none(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(pid: i64, seq: i32, offset: i64) -> ProducerBatch {
        ProducerBatch {
            producer_id: pid,
            epoch: 0,
            base_sequence: seq,
            records: 1,
            base_offset: offset,
        }
    }

    #[test]
    fn expiry_forgets_idle_producers_and_the_state_is_no_longer_complete() {
        let mut s = ProducerBatches::starting_at(0);
        s.push(batch(1, 0, 0), 1_000);
        s.push(batch(2, 0, 1), 1_000 + PRODUCER_ID_EXPIRATION_MS);
        s.expire(1_000 + PRODUCER_ID_EXPIRATION_MS + 1);
        let (batches, complete) = s.snapshot();
        assert_eq!(batches, vec![batch(2, 0, 1)]);
        assert!(!complete);
    }

    #[test]
    fn a_producer_first_seen_past_offset_0_may_have_older_batches() {
        // Read from offset 10 on: cutting its only batch loses what came
        // before, so the state goes stale.
        let mut s = ProducerBatches::starting_at(10);
        s.push(batch(1, 4, 12), 0);
        s.truncate(12);
        assert_eq!(s.stale_until(), Some(12));
        // From offset 0, a producer whose every batch is cut never was.
        let mut s = ProducerBatches::starting_at(0);
        s.push(batch(1, 0, 12), 0);
        s.truncate(12);
        assert_eq!(s.stale_until(), None);
        assert_eq!(s.snapshot(), (vec![], true));
    }
}
