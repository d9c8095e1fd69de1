//! Idempotent producers: per partition, each producer id's epoch and its
//! last five batches' sequence ranges, so a retried batch is recognised
//! (and answered with its original offset instead of being written twice)
//! and a gap or reordering is refused, as Kafka's ProducerStateManager
//! does.
//!
//! Rules (Kafka 2.5+ semantics):
//! - an unknown producer id starts a new entry at whatever sequence it
//!   sends (its state may have expired);
//! - a lower epoch than known is fenced: INVALID_PRODUCER_EPOCH;
//! - a higher epoch must start at sequence 0: else OUT_OF_ORDER_SEQUENCE;
//! - same epoch: a batch equal to one of the last five is a duplicate;
//!   otherwise its first sequence must follow the last one (wrapping at
//!   `i32::MAX`): else OUT_OF_ORDER_SEQUENCE_NUMBER.
//!
//! Transactions (Kafka's `ProducerAppendInfo.appendEndTxnMarker`): a
//! marker below the producer's epoch is INVALID_PRODUCER_EPOCH, one whose
//! coordinator epoch is below the last marker's is
//! TRANSACTION_COORDINATOR_FENCED; a marker's epoch becomes the
//! producer's, and a marker that bumped it (an abort fencing a zombie)
//! forgets the old epoch's batches: the new epoch starts at sequence 0.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use kafka_protocol::ErrorCode;

/// Batches remembered per producer for duplicate detection (Kafka: 5,
/// which is also the most in-flight requests an idempotent client allows).
pub const REMEMBERED_BATCHES: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BatchSeq {
    first_seq: i32,
    last_seq: i32,
    base_offset: i64,
}

#[derive(Debug, Clone)]
struct Entry {
    epoch: i16,
    batches: VecDeque<BatchSeq>,
    /// The first sequence of a batch that was refused or failed with a
    /// retriable error here, and when: the producer will send it again,
    /// so a later batch that arrives first waits for it (see
    /// [`ProducerState::awaits_retry`]).
    retry_from: Option<(i32, Instant)>,
    /// The coordinator epoch of the producer's last transaction marker
    /// (-1: none seen).
    coordinator_epoch: i32,
    /// A marker moved the producer to `epoch`, which has no batch yet: its
    /// first batch must start at sequence 0 (Kafka: the last sequence is
    /// NO_SEQUENCE once a bump cleared the batches).
    epoch_from_marker: bool,
}

impl Entry {
    fn new(epoch: i16) -> Self {
        Entry {
            epoch,
            batches: VecDeque::new(),
            retry_from: None,
            coordinator_epoch: -1,
            epoch_from_marker: false,
        }
    }
}

/// How long a batch refused with a retriable error is waited for.
pub const RETRY_WAIT: Duration = Duration::from_secs(30);

/// What to do with an incoming batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Append it.
    Append,
    /// Already written at this base offset: answer with it, write nothing.
    Duplicate { base_offset: i64 },
}

/// The producer state of one partition.
#[derive(Debug, Default)]
pub struct ProducerState {
    producers: HashMap<i64, Entry>,
}

fn last_seq(first: i32, count: i32) -> i32 {
    // Sequences wrap from i32::MAX to 0.
    ((first as i64 + count as i64 - 1) % (i32::MAX as i64 + 1)) as i32
}

fn next_seq(last: i32) -> i32 {
    if last == i32::MAX { 0 } else { last + 1 }
}

impl ProducerState {
    /// Checks a batch of `count` records from `producer_id` at `epoch`
    /// starting at `first_seq`, without changing anything.
    pub fn check(
        &self,
        producer_id: i64,
        epoch: i16,
        first_seq: i32,
        count: i32,
    ) -> Result<Check, ErrorCode> {
        let Some(e) = self.producers.get(&producer_id) else {
            return Ok(Check::Append);
        };
        if epoch < e.epoch {
            return Err(ErrorCode::InvalidProducerEpoch);
        }
        if epoch > e.epoch || (e.epoch_from_marker && e.batches.is_empty()) {
            return if first_seq == 0 {
                Ok(Check::Append)
            } else {
                Err(ErrorCode::OutOfOrderSequenceNumber)
            };
        }
        let last = last_seq(first_seq, count);
        if let Some(b) = e
            .batches
            .iter()
            .find(|b| b.first_seq == first_seq && b.last_seq == last)
        {
            return Ok(Check::Duplicate {
                base_offset: b.base_offset,
            });
        }
        match e.batches.back() {
            Some(b) if first_seq != next_seq(b.last_seq) => {
                Err(ErrorCode::OutOfOrderSequenceNumber)
            }
            _ => Ok(Check::Append),
        }
    }

    /// Checks a transaction marker of `producer_id` at `epoch` written by
    /// a coordinator at `coordinator_epoch` (Kafka's `checkProducerEpoch`
    /// and `checkCoordinatorEpoch` for a non-replication origin).
    pub fn check_marker(
        &self,
        producer_id: i64,
        epoch: i16,
        coordinator_epoch: i32,
    ) -> Result<(), ErrorCode> {
        self.check_epoch(producer_id, epoch)?;
        match self.producers.get(&producer_id) {
            Some(e) if coordinator_epoch < e.coordinator_epoch => {
                Err(ErrorCode::TransactionCoordinatorFenced)
            }
            _ => Ok(()),
        }
    }

    /// Refuses an epoch below the producer's known one (a coordinator's
    /// write on a producer's behalf skips the sequence checks, not this).
    pub fn check_epoch(&self, producer_id: i64, epoch: i16) -> Result<(), ErrorCode> {
        match self.producers.get(&producer_id) {
            Some(e) if epoch < e.epoch => Err(ErrorCode::InvalidProducerEpoch),
            _ => Ok(()),
        }
    }

    /// Records an admitted marker (see [`ProducerState::apply_marker`]).
    pub fn record_marker(&mut self, producer_id: i64, epoch: i16, coordinator_epoch: i32) {
        self.apply_marker(producer_id, epoch, coordinator_epoch);
        if let Some(e) = self.producers.get_mut(&producer_id) {
            e.retry_from = None;
        }
    }

    /// A marker's effect: its epoch becomes the producer's (a higher one
    /// forgets the older epoch's batches, and the next batch must start at
    /// sequence 0); its coordinator epoch is remembered. A lower epoch
    /// (only in a replay, where order is not kept) changes only the
    /// coordinator epoch.
    pub fn apply_marker(&mut self, producer_id: i64, epoch: i16, coordinator_epoch: i32) {
        let e = self.producers.entry(producer_id).or_insert_with(|| {
            let mut e = Entry::new(epoch);
            e.epoch_from_marker = true;
            e
        });
        if epoch > e.epoch {
            e.epoch = epoch;
            e.batches.clear();
            e.epoch_from_marker = true;
        }
        e.coordinator_epoch = e.coordinator_epoch.max(coordinator_epoch);
    }

    /// Records a coordinator's write on the producer's behalf: a higher
    /// epoch becomes the producer's (its batches are forgotten, as for any
    /// epoch bump).
    pub fn record_epoch(&mut self, producer_id: i64, epoch: i16) {
        let e = self
            .producers
            .entry(producer_id)
            .or_insert_with(|| Entry::new(epoch));
        if epoch > e.epoch {
            e.epoch = epoch;
            e.batches.clear();
            e.epoch_from_marker = false;
        }
    }

    /// Whether a batch of the producer's current epoch starting at
    /// `first_seq` lies ahead of the next expected sequence (a gap), as
    /// opposed to behind it (a batch older than the five remembered).
    /// Whether any batch of `producer_id` was recorded here (even one
    /// forgotten since, after its append failed).
    pub fn knows(&self, producer_id: i64) -> bool {
        self.producers.contains_key(&producer_id)
    }

    pub fn is_gap_ahead(&self, producer_id: i64, epoch: i16, first_seq: i32) -> bool {
        let Some(e) = self.producers.get(&producer_id) else {
            return false;
        };
        let Some(last) = e.batches.back() else {
            return false;
        };
        if epoch != e.epoch {
            return false;
        }
        // Distance forward from the expected sequence, on the wrapping
        // 31-bit sequence circle: ahead means less than half way round.
        let expected = i64::from(next_seq(last.last_seq));
        let distance = (i64::from(first_seq) - expected).rem_euclid(i64::from(i32::MAX) + 1);
        distance > 0 && distance < (1 << 30)
    }

    /// Records an appended batch.
    pub fn record(
        &mut self,
        producer_id: i64,
        epoch: i16,
        first_seq: i32,
        count: i32,
        base_offset: i64,
    ) {
        let e = self
            .producers
            .entry(producer_id)
            .or_insert_with(|| Entry::new(epoch));
        if epoch != e.epoch {
            e.epoch = epoch;
            e.batches.clear();
        }
        e.retry_from = None;
        e.epoch_from_marker = false;
        e.batches.push_back(BatchSeq {
            first_seq,
            last_seq: last_seq(first_seq, count),
            base_offset,
        });
        while e.batches.len() > REMEMBERED_BATCHES {
            e.batches.pop_front();
        }
    }

    /// Undoes `record` of the batch starting at `first_seq` (its append
    /// failed), and of every batch of the producer recorded after it: they
    /// entered the Raft log after it, so they fail with it (appends end
    /// in any order, and undoing only a last one left the earlier failed
    /// batches recorded; the producer's retry of them, rebatched, was then
    /// refused as out of order).
    pub fn forget_last(&mut self, producer_id: i64, first_seq: i32) {
        if let Some(e) = self.producers.get_mut(&producer_id)
            && let Some(i) = e.batches.iter().position(|b| b.first_seq == first_seq)
        {
            e.batches.truncate(i);
            e.retry_from = Some((first_seq, Instant::now()));
        }
    }

    /// Notes that the batch starting at `first_seq`, the next one the
    /// producer owes, was refused with a retriable error before it was
    /// recorded.
    pub fn note_refused(&mut self, producer_id: i64, epoch: i16, first_seq: i32) {
        if let Some(e) = self.producers.get_mut(&producer_id)
            && e.epoch == epoch
            && e.batches
                .back()
                .is_some_and(|b| next_seq(b.last_seq) == first_seq)
        {
            e.retry_from = Some((first_seq, Instant::now()));
        }
    }

    /// If a batch at `first_seq` leaves a gap only because an earlier batch
    /// of the producer failed here with a retriable error (within
    /// [`RETRY_WAIT`]), the first sequence of that batch: the caller
    /// answers retriably, so that the producer sends both again in order.
    /// (Kafka answers OUT_OF_ORDER_SEQUENCE_NUMBER, on which librdkafka
    /// bumps its epoch and resends, under new sequences, batches that may
    /// have been written: duplicates.)
    pub fn awaits_retry(&self, producer_id: i64, epoch: i16, first_seq: i32) -> Option<i32> {
        let e = self.producers.get(&producer_id)?;
        let (seq, at) = e.retry_from?;
        (e.epoch == epoch
            && at.elapsed() < RETRY_WAIT
            && first_seq != seq
            && self.is_gap_ahead(producer_id, epoch, first_seq))
        .then_some(seq)
    }

    /// Corrects the base offset recorded for the batch starting at
    /// `first_seq` (recorded before the append knew its offset).
    pub fn set_base_offset(&mut self, producer_id: i64, first_seq: i32, base_offset: i64) {
        if let Some(e) = self.producers.get_mut(&producer_id)
            && let Some(b) = e
                .batches
                .iter_mut()
                .rev()
                .find(|b| b.first_seq == first_seq)
        {
            b.base_offset = base_offset;
        }
    }

    /// The producer's current epoch here, if it is known.
    pub fn epoch_of(&self, producer_id: i64) -> Option<i16> {
        self.producers.get(&producer_id).map(|e| e.epoch)
    }

    /// The epoch and remembered sequence ranges of one producer, for logs.
    pub fn describe(&self, producer_id: i64) -> String {
        match self.producers.get(&producer_id) {
            None => "unknown".into(),
            Some(e) => {
                let ranges: Vec<String> = e
                    .batches
                    .iter()
                    .map(|b| format!("{}..{}@{}", b.first_seq, b.last_seq, b.base_offset))
                    .collect();
                format!(
                    "epoch {} coordinator epoch {} batches [{}]",
                    e.epoch,
                    e.coordinator_epoch,
                    ranges.join(", ")
                )
            }
        }
    }

    pub fn len(&self) -> usize {
        self.producers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.producers.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_fence_old_epochs_and_stale_coordinators() {
        let mut s = ProducerState::default();
        s.record(7, 0, 0, 3, 0);
        assert_eq!(s.check_marker(7, 0, 5), Ok(()));
        s.record_marker(7, 0, 5);
        // Same epoch: the sequence goes on.
        assert_eq!(s.check(7, 0, 3, 1), Ok(Check::Append));
        assert_eq!(
            s.check_marker(7, 0, 4),
            Err(ErrorCode::TransactionCoordinatorFenced)
        );
        // An abort that bumps the epoch fences the zombie...
        s.record_marker(7, 1, 5);
        assert_eq!(s.check(7, 0, 3, 1), Err(ErrorCode::InvalidProducerEpoch));
        assert_eq!(
            s.check_marker(7, 0, 6),
            Err(ErrorCode::InvalidProducerEpoch)
        );
        assert_eq!(s.check_epoch(7, 0), Err(ErrorCode::InvalidProducerEpoch));
        // ... and the new epoch starts at 0.
        assert_eq!(
            s.check(7, 1, 3, 1),
            Err(ErrorCode::OutOfOrderSequenceNumber)
        );
        assert_eq!(s.check(7, 1, 0, 1), Ok(Check::Append));
        s.record(7, 1, 0, 1, 10);
        assert_eq!(s.check(7, 1, 1, 1), Ok(Check::Append));
        // A producer known only by its marker (rebuilt state).
        let mut r = ProducerState::default();
        r.apply_marker(9, 2, 1);
        assert_eq!(r.check(9, 1, 0, 1), Err(ErrorCode::InvalidProducerEpoch));
        assert_eq!(r.check(9, 2, 0, 1), Ok(Check::Append));
    }

    #[test]
    fn a_failed_append_forgets_the_batches_recorded_after_it() {
        let mut s = ProducerState::default();
        s.record(7, 0, 0, 10, 0);
        // Three pipelined batches recorded, then all fail, the first
        // failure reported first.
        s.record(7, 0, 10, 5, 10);
        s.record(7, 0, 15, 5, 15);
        s.record(7, 0, 20, 5, 20);
        s.forget_last(7, 10);
        s.forget_last(7, 15);
        s.forget_last(7, 20);
        // The producer's retry, rebatched, follows the last committed one.
        assert_eq!(s.check(7, 0, 10, 12), Ok(Check::Append));
        assert_eq!(
            s.check(7, 0, 0, 10),
            Ok(Check::Duplicate { base_offset: 0 })
        );
    }

    #[test]
    fn a_gap_behind_a_failed_batch_awaits_its_retry() {
        let mut s = ProducerState::default();
        s.record(7, 0, 0, 10, 0);
        s.record(7, 0, 10, 5, 10);
        s.record(7, 0, 15, 5, 15);
        // 10..14 failed (and 15..19 with it): 20 arrives before the retry.
        s.forget_last(7, 10);
        assert_eq!(
            s.check(7, 0, 20, 5),
            Err(ErrorCode::OutOfOrderSequenceNumber)
        );
        assert_eq!(s.awaits_retry(7, 0, 20), Some(10));
        assert_eq!(s.awaits_retry(7, 0, 10), None, "the retry itself is no gap");
        assert_eq!(s.awaits_retry(7, 1, 20), None, "another epoch");
        // The retry comes and is recorded: gaps are refused again.
        assert_eq!(s.check(7, 0, 10, 10), Ok(Check::Append));
        s.record(7, 0, 10, 10, 10);
        assert_eq!(s.awaits_retry(7, 0, 30), None);
        // A batch refused before it was recorded counts too.
        s.note_refused(7, 0, 20);
        assert_eq!(s.awaits_retry(7, 0, 25), Some(20));
        // ... but only the one the producer owes next.
        let mut t = ProducerState::default();
        t.record(8, 0, 0, 10, 0);
        t.note_refused(8, 0, 12);
        assert_eq!(t.awaits_retry(8, 0, 14), None);
    }

    #[test]
    fn a_gap_is_ahead_and_an_old_batch_is_not() {
        let mut s = ProducerState::default();
        s.record(7, 0, 0, 10, 0);
        assert!(s.is_gap_ahead(7, 0, 12));
        assert!(!s.is_gap_ahead(7, 0, 10), "the expected sequence is no gap");
        assert!(!s.is_gap_ahead(7, 0, 3), "behind");
        assert!(!s.is_gap_ahead(7, 1, 12), "another epoch");
        assert!(!s.is_gap_ahead(8, 0, 12), "unknown producer");
        let mut w = ProducerState::default();
        w.record(1, 0, i32::MAX - 1, 2, 0);
        assert!(w.is_gap_ahead(1, 0, 5), "ahead across the wrap");
    }

    #[test]
    fn duplicates_gaps_and_fencing() {
        let mut s = ProducerState::default();
        assert_eq!(s.check(7, 0, 0, 3), Ok(Check::Append));
        s.record(7, 0, 0, 3, 100);
        assert_eq!(s.check(7, 0, 3, 2), Ok(Check::Append));
        s.record(7, 0, 3, 2, 103);
        // A retry of either remembered batch is a duplicate.
        assert_eq!(
            s.check(7, 0, 0, 3),
            Ok(Check::Duplicate { base_offset: 100 })
        );
        assert_eq!(
            s.check(7, 0, 3, 2),
            Ok(Check::Duplicate { base_offset: 103 })
        );
        // A gap is refused.
        assert_eq!(
            s.check(7, 0, 9, 1),
            Err(ErrorCode::OutOfOrderSequenceNumber)
        );
        // A lower epoch is fenced; a higher one must restart at 0.
        assert_eq!(
            s.check(7, -1, 5, 1).unwrap_err(),
            ErrorCode::InvalidProducerEpoch
        );
        assert_eq!(
            s.check(7, 1, 5, 1),
            Err(ErrorCode::OutOfOrderSequenceNumber)
        );
        assert_eq!(s.check(7, 1, 0, 1), Ok(Check::Append));
        // An unknown producer may start anywhere.
        assert_eq!(s.check(8, 0, 42, 1), Ok(Check::Append));
        // Only five batches are remembered.
        for (seq, i) in (5..).zip(0..6) {
            s.record(7, 0, seq, 1, 200 + i);
        }
        assert_eq!(
            s.check(7, 0, 0, 3),
            Err(ErrorCode::OutOfOrderSequenceNumber)
        );
        // Sequences wrap.
        let mut w = ProducerState::default();
        w.record(1, 0, i32::MAX - 1, 2, 0);
        assert_eq!(w.check(1, 0, 0, 1), Ok(Check::Append));
    }
}
