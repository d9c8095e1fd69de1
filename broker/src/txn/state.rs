//! One transactional id's state and its transitions, as Kafka's
//! `TransactionMetadata` and `TransactionCoordinator` decide them. Pure:
//! every decision returns the next state (to be written to
//! `__transaction_state` before it takes effect) or the Kafka error the
//! client gets, and changes nothing itself.

use std::collections::BTreeSet;

use kafka_protocol::ErrorCode;

/// Kafka's transaction states, with their ids in `__transaction_state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TxnState {
    Empty = 0,
    Ongoing = 1,
    PrepareCommit = 2,
    PrepareAbort = 3,
    CompleteCommit = 4,
    CompleteAbort = 5,
    Dead = 6,
    PrepareEpochFence = 7,
}

impl TxnState {
    pub fn from_id(id: i8) -> Option<Self> {
        use TxnState::*;
        Some(match id {
            0 => Empty,
            1 => Ongoing,
            2 => PrepareCommit,
            3 => PrepareAbort,
            4 => CompleteCommit,
            5 => CompleteAbort,
            6 => Dead,
            7 => PrepareEpochFence,
            _ => return None,
        })
    }

    /// Kafka's state names (DescribeTransactions, ListTransactions).
    pub fn name(self) -> &'static str {
        use TxnState::*;
        match self {
            Empty => "Empty",
            Ongoing => "Ongoing",
            PrepareCommit => "PrepareCommit",
            PrepareAbort => "PrepareAbort",
            CompleteCommit => "CompleteCommit",
            CompleteAbort => "CompleteAbort",
            Dead => "Dead",
            PrepareEpochFence => "PrepareEpochFence",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        (0..=7)
            .filter_map(TxnState::from_id)
            .find(|s| s.name() == name)
    }

    /// Markers are being written: requests wait (CONCURRENT_TRANSACTIONS).
    pub fn is_prepared(self) -> bool {
        matches!(self, TxnState::PrepareCommit | TxnState::PrepareAbort)
    }
}

/// Kafka: an epoch at `Short.MaxValue - 1` is exhausted (one is kept for
/// fencing), and the next initialization takes a new producer id.
pub fn epoch_exhausted(epoch: i16) -> bool {
    epoch >= i16::MAX - 1
}

/// One transactional id's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxnMeta {
    pub id: String,
    pub producer_id: i64,
    /// The producer id before the last rotation (epoch exhaustion), so a
    /// retry of the InitProducerId that rotated it is recognised.
    pub previous_producer_id: i64,
    pub producer_epoch: i16,
    /// The epoch before the last bump, so a retried InitProducerId gets
    /// the same answer instead of a second bump.
    pub last_producer_epoch: i16,
    pub timeout_ms: i32,
    pub state: TxnState,
    pub partitions: BTreeSet<(String, i32)>,
    pub start_ms: i64,
    pub last_update_ms: i64,
    /// A transition is being written: requests meanwhile get
    /// CONCURRENT_TRANSACTIONS.
    pub pending: bool,
    /// Transactions v2 (KIP-890): the producer id the Complete state takes
    /// when the EndTxn that prepared it exhausted the epoch (-1: none).
    pub next_producer_id: i64,
    /// The transaction version of the client that last changed the state
    /// (0: v1; 2: v2, whose EndTxn bumps the epoch). It decides how a
    /// retried EndTxn is recognised, so it is stored with the state.
    pub client_version: i16,
}

/// What EndTxn does next.
#[derive(Debug, PartialEq, Eq)]
pub enum EndStep {
    /// Nothing to write (a retry of a transaction already ended this
    /// way): answer with this producer id and epoch.
    Answered(i64, i16),
    /// Write this Prepare state, then answer with
    /// [`TxnMeta::next_identity`] of it.
    Write(TxnMeta),
    /// Transactions v2 with the epoch exhausted: the Complete state takes
    /// a new producer id; the caller allocates it and calls
    /// [`TxnMeta::prepared_v2`].
    Rotate,
}

/// What InitProducerId does next.
#[derive(Debug, PartialEq, Eq)]
pub enum InitStep {
    /// Write this state, then answer with its producer id and epoch.
    Write(TxnMeta),
    /// An open transaction is in the way: abort it under this (bumped)
    /// epoch, and answer CONCURRENT_TRANSACTIONS (the client retries).
    FenceAndAbort(TxnMeta),
    /// The epoch is exhausted: write this state under a new producer id
    /// (the caller allocates it and calls [`TxnMeta::rotated`]).
    Rotate,
}

impl TxnMeta {
    /// A new transactional id, before its first epoch.
    pub fn new(id: String, producer_id: i64, timeout_ms: i32, now_ms: i64) -> Self {
        TxnMeta {
            id,
            producer_id,
            previous_producer_id: -1,
            producer_epoch: -1,
            last_producer_epoch: -1,
            timeout_ms,
            state: TxnState::Empty,
            partitions: BTreeSet::new(),
            start_ms: -1,
            last_update_ms: now_ms,
            pending: false,
            next_producer_id: -1,
            client_version: 0,
        }
    }

    /// InitProducerId (Kafka's `prepareInitProducerIdTransit`).
    /// `expected`: the producer id and epoch a client recovering from an
    /// error (KIP-360, v3+) says it had.
    pub fn init(
        &self,
        timeout_ms: i32,
        expected: Option<(i64, i16)>,
        now_ms: i64,
    ) -> Result<InitStep, ErrorCode> {
        if self.pending {
            return Err(ErrorCode::ConcurrentTransactions);
        }
        if let Some((pid, epoch)) = expected {
            let valid = self.producer_epoch == -1
                || pid == self.producer_id
                || (pid == self.previous_producer_id && epoch_exhausted(epoch));
            if !valid {
                return Err(ErrorCode::ProducerFenced);
            }
        }
        match self.state {
            TxnState::PrepareCommit | TxnState::PrepareAbort => {
                Err(ErrorCode::ConcurrentTransactions)
            }
            TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort => {
                if epoch_exhausted(self.producer_epoch)
                    && expected.is_none_or(|(_, e)| e == self.producer_epoch)
                {
                    return Ok(InitStep::Rotate);
                }
                // Kafka's prepareIncrementProducerEpoch.
                let (epoch, last) = match expected {
                    None => (self.producer_epoch + 1, self.producer_epoch),
                    Some((_, e)) if self.producer_epoch == -1 || e == self.producer_epoch => {
                        (self.producer_epoch + 1, self.producer_epoch)
                    }
                    // A retry of the InitProducerId that made this epoch.
                    Some((_, e)) if e == self.last_producer_epoch => {
                        (self.producer_epoch, self.last_producer_epoch)
                    }
                    Some(_) => return Err(ErrorCode::ProducerFenced),
                };
                let mut next = self.cleared(TxnState::Empty, now_ms);
                next.producer_epoch = epoch;
                next.last_producer_epoch = last;
                next.timeout_ms = timeout_ms;
                Ok(InitStep::Write(next))
            }
            TxnState::Ongoing => {
                // Bump the epoch (fencing the current producer) and abort;
                // the bumped epoch is never handed out: the client's retry
                // bumps it again.
                let mut next = self.clone();
                if !epoch_exhausted(self.producer_epoch) {
                    next.producer_epoch += 1;
                }
                next.last_producer_epoch = -1;
                Ok(InitStep::FenceAndAbort(next))
            }
            TxnState::Dead | TxnState::PrepareEpochFence => Err(ErrorCode::ConcurrentTransactions),
        }
    }

    /// The state after an epoch-exhausted InitProducerId under `new_id`.
    pub fn rotated(&self, new_id: i64, timeout_ms: i32, now_ms: i64) -> TxnMeta {
        let mut next = self.cleared(TxnState::Empty, now_ms);
        next.previous_producer_id = self.producer_id;
        next.producer_id = new_id;
        next.producer_epoch = 0;
        next.last_producer_epoch = -1;
        next.timeout_ms = timeout_ms;
        next
    }

    fn cleared(&self, state: TxnState, now_ms: i64) -> TxnMeta {
        TxnMeta {
            state,
            partitions: BTreeSet::new(),
            start_ms: -1,
            last_update_ms: now_ms,
            pending: false,
            ..self.clone()
        }
    }

    /// Checks a client request's producer id and epoch.
    fn check_producer(&self, producer_id: i64, epoch: i16) -> Result<(), ErrorCode> {
        if self.producer_id != producer_id {
            return Err(ErrorCode::InvalidProducerIdMapping);
        }
        if self.producer_epoch != epoch {
            return Err(ErrorCode::ProducerFenced);
        }
        if self.pending || self.state.is_prepared() {
            return Err(ErrorCode::ConcurrentTransactions);
        }
        Ok(())
    }

    /// AddPartitionsToTxn / AddOffsetsToTxn, or a partition added
    /// implicitly by a transactions v2 Produce or TxnOffsetCommit
    /// (`client_version` 2). `Ok(None)`: already in the transaction,
    /// nothing to write.
    pub fn add_partitions(
        &self,
        producer_id: i64,
        epoch: i16,
        partitions: &BTreeSet<(String, i32)>,
        client_version: i16,
        now_ms: i64,
    ) -> Result<Option<TxnMeta>, ErrorCode> {
        self.check_producer(producer_id, epoch)?;
        if self.state == TxnState::Ongoing && partitions.is_subset(&self.partitions) {
            return Ok(None);
        }
        let mut next = self.clone();
        if self.state != TxnState::Ongoing {
            next.partitions.clear();
            next.start_ms = now_ms;
        }
        next.state = TxnState::Ongoing;
        next.partitions.extend(partitions.iter().cloned());
        next.last_update_ms = now_ms;
        next.client_version = client_version;
        Ok(Some(next))
    }

    /// EndTxn from a client (Kafka's `TransactionCoordinator.endTransaction`).
    /// `v2`: the request is EndTxn v5+ (transactions v2): ending bumps the
    /// epoch, and the answer hands the client the epoch (or, once the
    /// epoch is exhausted, the producer id) of its next transaction.
    pub fn end(
        &self,
        producer_id: i64,
        epoch: i16,
        commit: bool,
        v2: bool,
        now_ms: i64,
    ) -> Result<EndStep, ErrorCode> {
        let stored_v2 = self.client_version >= 2;
        // A v2 retry carries the epoch from before its own bump ...
        let retry_of_bump = stored_v2 && i32::from(self.producer_epoch) == i32::from(epoch) + 1;
        // ... or, where that bump exhausted the epoch, the old producer id.
        let retry_of_rotation = stored_v2
            && self.previous_producer_id == producer_id
            && epoch == i16::MAX - 1
            && self.producer_epoch == 0;
        if self.producer_id != producer_id && !retry_of_rotation {
            return Err(ErrorCode::InvalidProducerIdMapping);
        }
        if self.pending {
            return Err(ErrorCode::ConcurrentTransactions);
        }
        // Tidemark, not Kafka: a v2 producer adds partitions implicitly,
        // so it cannot know whether a produce that failed opened the
        // transaction; an abort under its current epoch with none open is
        // an empty transaction aborted (the bump fences the lost produce),
        // where Kafka answers INVALID_TXN_STATE or PRODUCER_FENCED and the
        // client must start over.
        if v2
            && !commit
            && epoch == self.producer_epoch
            && matches!(
                self.state,
                TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort
            )
        {
            if epoch_exhausted(self.producer_epoch) {
                return Ok(EndStep::Rotate);
            }
            return Ok(EndStep::Write(self.prepared_v2(false, -1, now_ms)));
        }
        if v2 && stored_v2 && self.state.is_prepared() && epoch == self.producer_epoch {
            // The next transaction's end, sent while this one's markers
            // are written (Kafka: PRODUCER_FENCED, a fatal error for a
            // transaction that may be fine): retriable.
            return Err(ErrorCode::ConcurrentTransactions);
        }
        let valid_epoch = if stored_v2 {
            match self.state {
                TxnState::PrepareCommit | TxnState::PrepareAbort => retry_of_bump,
                TxnState::CompleteCommit | TxnState::CompleteAbort => {
                    retry_of_bump || retry_of_rotation
                }
                _ => epoch == self.producer_epoch,
            }
        } else {
            epoch == self.producer_epoch
        };
        if !valid_epoch {
            return Err(ErrorCode::ProducerFenced);
        }
        match (self.state, commit) {
            (TxnState::Ongoing, _) if v2 && epoch_exhausted(self.producer_epoch) => {
                Ok(EndStep::Rotate)
            }
            (TxnState::Ongoing, _) if v2 => {
                Ok(EndStep::Write(self.prepared_v2(commit, -1, now_ms)))
            }
            (TxnState::Ongoing, _) => Ok(EndStep::Write(self.prepared(commit, now_ms))),
            (TxnState::CompleteCommit, true) | (TxnState::CompleteAbort, false) => {
                Ok(EndStep::Answered(self.producer_id, self.producer_epoch))
            }
            (TxnState::PrepareCommit, true) | (TxnState::PrepareAbort, false) => {
                Err(ErrorCode::ConcurrentTransactions)
            }
            _ => Err(ErrorCode::InvalidTxnState),
        }
    }

    /// The Prepare state of ending the open transaction under its epoch
    /// (transactions v1, and the coordinator's own aborts: a timed-out
    /// or fenced transaction, whose producer is fenced, as in Kafka).
    pub fn prepared(&self, commit: bool, now_ms: i64) -> TxnMeta {
        let mut next = self.clone();
        next.state = if commit {
            TxnState::PrepareCommit
        } else {
            TxnState::PrepareAbort
        };
        next.last_update_ms = now_ms;
        next.pending = false;
        next.next_producer_id = -1;
        next.client_version = 0;
        next
    }

    /// The Prepare state of a transactions v2 EndTxn: the epoch is bumped
    /// (the markers carry it, fencing every write of the old epoch), and
    /// `next_producer_id` (-1: none) replaces an exhausted producer id
    /// once the markers are written.
    pub fn prepared_v2(&self, commit: bool, next_producer_id: i64, now_ms: i64) -> TxnMeta {
        let mut next = self.prepared(commit, now_ms);
        next.last_producer_epoch = self.producer_epoch;
        next.producer_epoch = self.producer_epoch.saturating_add(1);
        next.next_producer_id = next_producer_id;
        next.client_version = 2;
        if self.state != TxnState::Ongoing {
            // An empty abort (see `end`).
            next.partitions.clear();
            next.start_ms = now_ms;
        }
        next
    }

    /// The producer id and epoch a client holds once this state's
    /// transaction completes (what EndTxn v5 answers).
    pub fn next_identity(&self) -> (i64, i16) {
        if self.client_version >= 2 && self.next_producer_id >= 0 {
            (self.next_producer_id, 0)
        } else {
            (self.producer_id, self.producer_epoch)
        }
    }

    /// The Complete state once every marker is written.
    pub fn completed(&self, now_ms: i64) -> TxnMeta {
        let state = if self.state == TxnState::PrepareCommit {
            TxnState::CompleteCommit
        } else {
            TxnState::CompleteAbort
        };
        let mut next = self.cleared(state, now_ms);
        next.start_ms = self.start_ms;
        if self.client_version >= 2 {
            // As Kafka's `prepareComplete`: the epoch before the bump is
            // no longer "the last one", so an InitProducerId naming it
            // (KIP-360) is fenced instead of taken for a retry.
            next.last_producer_epoch = self.producer_epoch;
        }
        if self.client_version >= 2 && self.next_producer_id >= 0 {
            // The bump exhausted the epoch: the markers are written under
            // it, and the next transaction takes the new producer id.
            next.previous_producer_id = self.producer_id;
            next.producer_id = self.next_producer_id;
            next.producer_epoch = 0;
            next.last_producer_epoch = self.producer_epoch;
        }
        next.next_producer_id = -1;
        next
    }

    /// Whether an open transaction ran past its timeout.
    pub fn timed_out(&self, now_ms: i64) -> bool {
        self.state == TxnState::Ongoing
            && !self.pending
            && self.start_ms >= 0
            && now_ms.saturating_sub(self.start_ms) > i64::from(self.timeout_ms)
    }

    /// Whether the id may be forgotten (`transactional.id.expiration.ms`
    /// without a transaction).
    pub fn expired(&self, now_ms: i64, expiration_ms: i64) -> bool {
        matches!(
            self.state,
            TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort
        ) && !self.pending
            && now_ms.saturating_sub(self.last_update_ms) > expiration_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ps: &[(&str, i32)]) -> BTreeSet<(String, i32)> {
        ps.iter().map(|(t, p)| (t.to_string(), *p)).collect()
    }

    #[test]
    fn a_transaction_runs_through_its_states() {
        let m = TxnMeta::new("t".into(), 5, 1000, 0);
        let InitStep::Write(m) = m.init(1000, None, 1).unwrap() else {
            panic!()
        };
        assert_eq!((m.producer_epoch, m.state), (0, TxnState::Empty));
        // EndTxn with nothing begun is an invalid state.
        assert_eq!(m.end(5, 0, true, false, 2), Err(ErrorCode::InvalidTxnState));
        let m = m
            .add_partitions(5, 0, &set(&[("a", 0)]), 0, 2)
            .unwrap()
            .unwrap();
        assert_eq!((m.state, m.start_ms), (TxnState::Ongoing, 2));
        assert_eq!(m.add_partitions(5, 0, &set(&[("a", 0)]), 0, 3), Ok(None));
        assert_eq!(
            m.add_partitions(5, 1, &set(&[("a", 1)]), 0, 3),
            Err(ErrorCode::ProducerFenced)
        );
        assert_eq!(
            m.add_partitions(6, 0, &set(&[("a", 1)]), 0, 3),
            Err(ErrorCode::InvalidProducerIdMapping)
        );
        let EndStep::Write(p) = m.end(5, 0, true, false, 4).unwrap() else {
            panic!()
        };
        assert_eq!(p.state, TxnState::PrepareCommit);
        assert_eq!(
            p.end(5, 0, true, false, 4),
            Err(ErrorCode::ConcurrentTransactions)
        );
        assert_eq!(
            p.end(5, 0, false, false, 4),
            Err(ErrorCode::InvalidTxnState)
        );
        assert_eq!(
            p.add_partitions(5, 0, &set(&[("a", 1)]), 0, 4),
            Err(ErrorCode::ConcurrentTransactions)
        );
        let c = p.completed(5);
        assert_eq!(c.state, TxnState::CompleteCommit);
        assert!(c.partitions.is_empty());
        // A retried commit is answered without a write.
        assert_eq!(c.end(5, 0, true, false, 6), Ok(EndStep::Answered(5, 0)));
    }

    #[test]
    fn init_fences_an_open_transaction_and_recognises_retries() {
        let m = TxnMeta::new("t".into(), 5, 1000, 0);
        let InitStep::Write(m) = m.init(1000, None, 1).unwrap() else {
            panic!()
        };
        let m = m
            .add_partitions(5, 0, &set(&[("a", 0)]), 0, 2)
            .unwrap()
            .unwrap();
        let InitStep::FenceAndAbort(f) = m.init(1000, None, 3).unwrap() else {
            panic!()
        };
        assert_eq!(f.producer_epoch, 1);
        let done = f.prepared(false, 4).completed(5);
        let InitStep::Write(n) = done.init(1000, None, 6).unwrap() else {
            panic!()
        };
        assert_eq!(n.producer_epoch, 2);
        // KIP-360: the fenced producer (epoch 0) may not recover.
        assert_eq!(
            n.init(1000, Some((5, 0)), 7),
            Err(ErrorCode::ProducerFenced)
        );
        // A retry of the InitProducerId that made epoch 2 gets it again.
        let InitStep::Write(r) = n.init(1000, Some((5, 1)), 7).unwrap() else {
            panic!()
        };
        assert_eq!(r.producer_epoch, 2);
        // Exhaustion asks for a new producer id.
        let mut x = n.clone();
        x.producer_epoch = i16::MAX - 1;
        assert_eq!(x.init(1000, None, 8), Ok(InitStep::Rotate));
        let y = x.rotated(9, 1000, 8);
        assert_eq!(
            (y.producer_id, y.producer_epoch, y.previous_producer_id),
            (9, 0, 5)
        );
    }

    #[test]
    fn timeouts_and_expiry() {
        let m = TxnMeta::new("t".into(), 5, 1000, 0);
        let InitStep::Write(m) = m.init(1000, None, 0).unwrap() else {
            panic!()
        };
        assert!(!m.timed_out(10_000));
        assert!(m.expired(10_000, 5_000));
        let m = m
            .add_partitions(5, 0, &set(&[("a", 0)]), 0, 100)
            .unwrap()
            .unwrap();
        assert!(!m.timed_out(1_100));
        assert!(m.timed_out(1_101));
        assert!(!m.expired(100_000, 5_000));
    }

    #[test]
    fn transactions_v2_bump_the_epoch_at_every_end_and_recognise_retries() {
        let m = TxnMeta::new("t".into(), 5, 1000, 0);
        let InitStep::Write(m) = m.init(1000, None, 1).unwrap() else {
            panic!()
        };
        // Implicitly added by a Produce v12.
        let m = m
            .add_partitions(5, 0, &set(&[("a", 0)]), 2, 2)
            .unwrap()
            .unwrap();
        let EndStep::Write(p) = m.end(5, 0, true, true, 3).unwrap() else {
            panic!()
        };
        assert_eq!((p.state, p.producer_epoch), (TxnState::PrepareCommit, 1));
        assert_eq!(p.next_identity(), (5, 1));
        // A retry (old epoch) while the markers are written: busy.
        assert_eq!(
            p.end(5, 0, true, true, 4),
            Err(ErrorCode::ConcurrentTransactions)
        );
        // The new epoch before completion: the next transaction's end,
        // which waits for this one.
        assert_eq!(
            p.end(5, 1, true, true, 4),
            Err(ErrorCode::ConcurrentTransactions)
        );
        assert_eq!(p.end(5, 2, true, true, 4), Err(ErrorCode::ProducerFenced));
        let c = p.completed(5);
        assert_eq!((c.state, c.producer_epoch), (TxnState::CompleteCommit, 1));
        // A retry after completion gets the new epoch again.
        assert_eq!(c.end(5, 0, true, true, 6), Ok(EndStep::Answered(5, 1)));
        // A producer still at the old epoch cannot recover it (KIP-360):
        // it is fenced, not taken for a retried InitProducerId.
        assert_eq!(
            c.init(1000, Some((5, 0)), 6),
            Err(ErrorCode::ProducerFenced)
        );
        assert_eq!(c.end(5, 0, false, true, 6), Err(ErrorCode::InvalidTxnState));
        // An older epoch is fenced.
        let older = TxnMeta {
            producer_epoch: 3,
            ..c.clone()
        };
        assert_eq!(
            older.end(5, 1, true, true, 6),
            Err(ErrorCode::ProducerFenced)
        );
        // The next transaction runs under epoch 1; an abort with nothing
        // open is an empty transaction aborted, bumping again.
        let EndStep::Write(a) = c.end(5, 1, false, true, 7).unwrap() else {
            panic!()
        };
        assert_eq!((a.state, a.producer_epoch), (TxnState::PrepareAbort, 2));
        assert!(a.partitions.is_empty());
        assert_eq!(a.completed(8).state, TxnState::CompleteAbort);
        // A commit with nothing open is an invalid state.
        assert_eq!(c.end(5, 1, true, true, 7), Err(ErrorCode::ProducerFenced));
        let e = TxnMeta {
            state: TxnState::Empty,
            ..c.clone()
        };
        assert_eq!(e.end(5, 1, true, true, 7), Err(ErrorCode::InvalidTxnState));
        // A v1 client's EndTxn keeps the epoch.
        let EndStep::Write(v1) = m.end(5, 0, false, false, 3).unwrap() else {
            panic!()
        };
        assert_eq!((v1.producer_epoch, v1.next_identity()), (0, (5, 0)));
        assert_eq!(
            v1.completed(4).end(5, 0, false, false, 5),
            Ok(EndStep::Answered(5, 0))
        );
    }

    #[test]
    fn transactions_v2_rotate_an_exhausted_producer_id() {
        let mut m = TxnMeta::new("t".into(), 5, 1000, 0);
        m.producer_epoch = i16::MAX - 1;
        let m = m
            .add_partitions(5, i16::MAX - 1, &set(&[("a", 0)]), 2, 1)
            .unwrap()
            .unwrap();
        assert_eq!(m.end(5, i16::MAX - 1, true, true, 2), Ok(EndStep::Rotate));
        let p = m.prepared_v2(true, 9, 2);
        // The markers carry the last epoch; the client gets the new id.
        assert_eq!((p.producer_id, p.producer_epoch), (5, i16::MAX));
        assert_eq!(p.next_identity(), (9, 0));
        let c = p.completed(3);
        assert_eq!(
            (c.producer_id, c.producer_epoch, c.previous_producer_id),
            (9, 0, 5)
        );
        // The EndTxn's retry, under the old id, gets the new one.
        assert_eq!(
            c.end(5, i16::MAX - 1, true, true, 4),
            Ok(EndStep::Answered(9, 0))
        );
        assert_eq!(
            c.end(5, 3, true, true, 4),
            Err(ErrorCode::InvalidProducerIdMapping)
        );
    }
}
