//! One share-partition's delivery state (KIP-932), pure: which records of
//! a topic partition a share group has delivered, to whom, how often, and
//! which are done. The share-partition leader ([`super::leader`]) keeps one
//! per (group, partition) it serves, feeds it the batches it reads from the
//! log, and persists [`SharePartitionState::persisted`] through the share
//! coordinator.
//!
//! Offsets below `start_offset` (Kafka's SPSO) are done (acknowledged or
//! archived). Offsets in `[start_offset, next_offset)` have been handed out
//! at least once, or passed over as gaps; each has an entry in `records`.
//! Offsets at or past `next_offset` have never been fetched.
//!
//! Invariants (checked by [`SharePartitionState::check`] in tests):
//! - every key of `records` is in `[start_offset, next_offset)`, and every
//!   offset of that range has an entry (the map is dense);
//! - the first entry, if any, is neither acknowledged nor archived (the
//!   start offset moves past done records at once);
//! - an acquired record has a holder and a lock expiry; no other has;
//! - `next_offset - start_offset` never exceeds the record-lock limit
//!   at the moment records are acquired (it may exceed it after a limit
//!   was lowered; nothing new is acquired then).

use std::collections::BTreeMap;
use std::rc::Rc;

/// Kafka's `RecordState` numbers, as persisted in `__share_group_state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordState {
    Available,
    Acquired,
    Acknowledged,
    Archived,
}

impl RecordState {
    /// The persisted delivery state: an acquired record is stored as
    /// available (its lock dies with the leader), as Kafka does.
    pub fn persisted_code(self) -> i8 {
        match self {
            RecordState::Available | RecordState::Acquired => 0,
            RecordState::Acknowledged => 2,
            RecordState::Archived => 4,
        }
    }

    pub fn from_persisted(code: i8) -> Option<RecordState> {
        match code {
            0 => Some(RecordState::Available),
            2 => Some(RecordState::Acknowledged),
            4 => Some(RecordState::Archived),
            _ => None,
        }
    }

    fn is_done(self) -> bool {
        matches!(self, RecordState::Acknowledged | RecordState::Archived)
    }
}

/// Acknowledgement types on the wire (ShareFetch/ShareAcknowledge).
pub mod ack {
    pub const GAP: i8 = 0;
    pub const ACCEPT: i8 = 1;
    pub const RELEASE: i8 = 2;
    pub const REJECT: i8 = 3;
    pub const RENEW: i8 = 4;
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct InFlight {
    state: RecordState,
    delivery_count: u16,
    /// The member holding the record while it is acquired.
    holder: Option<Rc<str>>,
    /// Acquired: when the lock expires. Available: not delivered before
    /// this time (delayed delivery, release back-off). Epoch ms.
    until_ms: i64,
}

/// Why a record was archived without being accepted (what the dead-letter
/// record says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveReason {
    Rejected,
    DeliveryCountExceeded,
}

impl ArchiveReason {
    pub fn message(self) -> &'static str {
        match self {
            ArchiveReason::Rejected => "rejected",
            ArchiveReason::DeliveryCountExceeded => "delivery count exceeded",
        }
    }
}

/// A record archived by a transition, for the dead-letter topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Archived {
    pub offset: i64,
    pub delivery_count: u16,
    pub reason: ArchiveReason,
}

/// A run of records handed to a member by one fetch (the wire's
/// AcquiredRecords).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Acquired {
    pub first_offset: i64,
    pub last_offset: i64,
    pub delivery_count: u16,
}

/// A batch of the log as the acquisition sees it: its offset range, and
/// whether it is a control batch (never delivered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogBatch {
    pub base_offset: i64,
    pub last_offset: i64,
    pub is_control: bool,
    /// Earliest time (epoch ms) any record of the batch may be delivered
    /// (delayed delivery); 0 for at once.
    pub deliver_at_ms: i64,
}

/// The limits and clocks an operation runs under.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub now_ms: i64,
    pub lock_duration_ms: i64,
    /// A record delivered this many times and then released or timed out
    /// is archived.
    pub delivery_count_limit: u16,
    /// At most this many offsets in flight (`next - start`).
    pub max_record_locks: i64,
    /// A released record waits this long times its delivery count before
    /// it is delivered again (0: at once).
    pub release_backoff_ms: i64,
}

/// A persisted run of records: Kafka's `StateBatch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PersistedBatch {
    pub first_offset: i64,
    pub last_offset: i64,
    pub delivery_state: i8,
    pub delivery_count: i16,
}

/// Why an acknowledgement was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AckError {
    /// Kafka's INVALID_RECORD_STATE: a record in the range is not acquired
    /// by this member (or not in flight at all).
    #[error("record {offset} is not acquired by this member")]
    NotAcquired { offset: i64 },
    /// Kafka's INVALID_REQUEST: malformed batch.
    #[error("{0}")]
    Invalid(&'static str),
}

/// What acknowledgements changed, record by record (state before and
/// after), so that a write that fails can put it back: Kafka rolls an
/// acknowledgement back when its state write fails
/// (`SharePartition.rollbackOrProcessStateUpdates`), so a member told
/// "failed" gets the records again after their lock, instead of finding
/// them accepted once a later write succeeds.
#[derive(Debug, Clone, Default)]
pub struct Undo(Vec<(i64, InFlight, InFlight)>);

impl Undo {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[derive(Debug, Clone, Default)]
pub struct SharePartitionState {
    start_offset: i64,
    next_offset: i64,
    records: BTreeMap<i64, InFlight>,
}

impl SharePartitionState {
    /// A share-partition starting at `start_offset` with nothing in flight.
    pub fn new(start_offset: i64) -> Self {
        SharePartitionState {
            start_offset,
            next_offset: start_offset,
            records: BTreeMap::new(),
        }
    }

    /// Rebuilds the state from what was persisted: `start_offset` and the
    /// runs of non-default records (acquired ones come back available).
    pub fn restore(start_offset: i64, batches: &[PersistedBatch]) -> Self {
        let mut s = SharePartitionState::new(start_offset);
        let mut sorted: Vec<PersistedBatch> = batches.to_vec();
        sorted.sort_by_key(|b| b.first_offset);
        for b in sorted {
            let state =
                RecordState::from_persisted(b.delivery_state).unwrap_or(RecordState::Available);
            let first = b.first_offset.max(start_offset);
            if b.last_offset < first {
                continue;
            }
            // Offsets between runs were handed out and are available.
            for o in s.next_offset..first {
                s.records.insert(o, InFlight::available(0));
            }
            for o in first.max(s.next_offset)..=b.last_offset {
                s.records.insert(
                    o,
                    InFlight {
                        state,
                        delivery_count: b.delivery_count.max(0) as u16,
                        holder: None,
                        until_ms: 0,
                    },
                );
            }
            s.next_offset = s.next_offset.max(b.last_offset + 1);
        }
        s.advance();
        s
    }

    pub fn start_offset(&self) -> i64 {
        self.start_offset
    }

    pub fn next_offset(&self) -> i64 {
        self.next_offset
    }

    /// Records in flight that are not done.
    pub fn in_flight(&self) -> usize {
        self.records.values().filter(|r| !r.state.is_done()).count()
    }

    /// Whether any record is acquired now.
    pub fn has_acquired(&self) -> bool {
        self.records
            .values()
            .any(|r| r.state == RecordState::Acquired)
    }

    /// The log moved its start past records not yet done (retention,
    /// DeleteRecords): they are gone, as Kafka treats them.
    pub fn move_start_to(&mut self, log_start: i64) {
        if log_start <= self.start_offset {
            return;
        }
        self.records = self.records.split_off(&log_start);
        self.start_offset = log_start;
        self.next_offset = self.next_offset.max(log_start);
        self.advance();
    }

    /// Where the next fetch should read the log from: the first record
    /// that may be delivered now, or the first never fetched. `None` when
    /// nothing may be acquired (the record-lock limit is reached and
    /// nothing in flight is available).
    pub fn fetch_from(&self, lim: &Limits) -> Option<i64> {
        let redeliver = self
            .records
            .iter()
            .find(|(_, r)| r.state == RecordState::Available && r.until_ms <= lim.now_ms)
            .map(|(o, _)| *o);
        if redeliver.is_some() {
            return redeliver;
        }
        (self.next_offset - self.start_offset < lim.max_record_locks).then_some(self.next_offset)
    }

    /// The earliest time a record held back (delay, back-off) or locked
    /// becomes deliverable, for a waiting fetch.
    pub fn next_wakeup_ms(&self) -> Option<i64> {
        self.records
            .values()
            .filter(|r| matches!(r.state, RecordState::Available | RecordState::Acquired))
            .map(|r| r.until_ms)
            .min()
    }

    /// Acquires for `member` what may be delivered among `batches` (read
    /// from the log at [`Self::fetch_from`], in order), up to
    /// `max_records` (with `whole_batches`, Kafka's batch-optimized
    /// acquire mode, whole batches of new records are taken, so the limit
    /// may be passed by part of one batch; without, never). Control
    /// batches and offsets missing from the log are archived as they are
    /// passed. Returns the runs acquired.
    pub fn acquire(
        &mut self,
        member: &Rc<str>,
        batches: &[LogBatch],
        max_records: usize,
        whole_batches: bool,
        lim: &Limits,
    ) -> Vec<Acquired> {
        let mut out: Vec<Acquired> = Vec::new();
        let mut taken = 0usize;
        let push = |out: &mut Vec<Acquired>, offset: i64, count: u16| match out.last_mut() {
            Some(a) if a.last_offset + 1 == offset && a.delivery_count == count => {
                a.last_offset = offset
            }
            _ => out.push(Acquired {
                first_offset: offset,
                last_offset: offset,
                delivery_count: count,
            }),
        };
        for b in batches {
            if taken >= max_records {
                break;
            }
            if b.last_offset < self.start_offset {
                continue;
            }
            // New territory: offsets between the last fetched and this
            // batch are not in the log (compacted away): archive them.
            if b.base_offset > self.next_offset {
                for o in self.next_offset..b.base_offset {
                    self.records.insert(o, InFlight::archived(0));
                }
                self.next_offset = b.base_offset;
            }
            // Redeliveries inside this batch.
            let in_flight_end = self.next_offset.min(b.last_offset + 1);
            for o in b.base_offset.max(self.start_offset)..in_flight_end {
                if taken >= max_records {
                    break;
                }
                let Some(r) = self.records.get_mut(&o) else {
                    continue;
                };
                if r.state == RecordState::Available && r.until_ms <= lim.now_ms {
                    r.state = RecordState::Acquired;
                    r.delivery_count = r.delivery_count.saturating_add(1);
                    r.holder = Some(member.clone());
                    r.until_ms = lim.now_ms + lim.lock_duration_ms;
                    push(&mut out, o, r.delivery_count);
                    taken += 1;
                }
            }
            // Records never fetched: the whole rest of the batch, if the
            // lock limit allows starting it.
            if b.last_offset >= self.next_offset {
                if taken >= max_records
                    || self.next_offset - self.start_offset >= lim.max_record_locks
                {
                    break;
                }
                let from = self.next_offset;
                let mut end = b.last_offset;
                for o in from..=b.last_offset {
                    if !whole_batches && taken >= max_records {
                        end = o - 1;
                        break;
                    }
                    if b.is_control {
                        self.records.insert(o, InFlight::archived(0));
                    } else if b.deliver_at_ms > lim.now_ms {
                        let mut r = InFlight::available(0);
                        r.until_ms = b.deliver_at_ms;
                        self.records.insert(o, r);
                    } else {
                        self.records.insert(
                            o,
                            InFlight {
                                state: RecordState::Acquired,
                                delivery_count: 1,
                                holder: Some(member.clone()),
                                until_ms: lim.now_ms + lim.lock_duration_ms,
                            },
                        );
                        push(&mut out, o, 1);
                        taken += 1;
                    }
                }
                self.next_offset = end + 1;
            }
        }
        self.advance();
        out
    }

    /// [`Self::acknowledge_undoable`] with nothing to put back (tests).
    #[cfg(test)]
    pub fn acknowledge(
        &mut self,
        member: &str,
        first: i64,
        last: i64,
        types: &[i8],
        lim: &Limits,
    ) -> Result<Vec<Archived>, AckError> {
        self.acknowledge_undoable(member, first, last, types, lim, &mut Undo::default())
    }

    /// Applies one acknowledgement batch of `member`: `types` has one
    /// type for the whole range or one per offset. All or nothing: a
    /// record in the range not acquired by the member refuses the batch.
    /// Returns the records it archived (for the dead-letter topic), and
    /// records in `undo` what it changed (see [`Self::rollback`]).
    pub fn acknowledge_undoable(
        &mut self,
        member: &str,
        first: i64,
        last: i64,
        types: &[i8],
        lim: &Limits,
        undo: &mut Undo,
    ) -> Result<Vec<Archived>, AckError> {
        if last < first {
            return Err(AckError::Invalid("last offset is before first offset"));
        }
        let len = last - first + 1;
        if types.is_empty() || (types.len() != 1 && types.len() as i64 != len) {
            return Err(AckError::Invalid(
                "acknowledge types must be one type or one per offset",
            ));
        }
        if types.iter().any(|t| !(ack::GAP..=ack::RENEW).contains(t)) {
            return Err(AckError::Invalid("unknown acknowledge type"));
        }
        let type_of = |o: i64| -> i8 {
            if types.len() == 1 {
                types[0]
            } else {
                types[(o - first) as usize]
            }
        };
        // Check the whole batch first.
        for o in first..=last {
            let t = type_of(o);
            let ok = match self.records.get(&o) {
                Some(r) => {
                    (r.state == RecordState::Acquired && r.holder.as_deref() == Some(member))
                        || (t == ack::GAP && r.state == RecordState::Archived)
                }
                // A gap the leader already passed (below the start).
                None => t == ack::GAP && o < self.start_offset,
            };
            if !ok {
                return Err(AckError::NotAcquired { offset: o });
            }
        }
        let mut archived = Vec::new();
        for o in first..=last {
            let t = type_of(o);
            let Some(r) = self.records.get_mut(&o) else {
                continue;
            };
            if r.state != RecordState::Acquired {
                continue;
            }
            let before = r.clone();
            match t {
                ack::ACCEPT => r.set(RecordState::Acknowledged),
                ack::GAP => r.set(RecordState::Archived),
                ack::REJECT => {
                    r.set(RecordState::Archived);
                    archived.push(Archived {
                        offset: o,
                        delivery_count: r.delivery_count,
                        reason: ArchiveReason::Rejected,
                    });
                }
                ack::RELEASE => {
                    if let Some(a) = r.release(o, lim) {
                        archived.push(a);
                    }
                }
                _ => r.until_ms = lim.now_ms + lim.lock_duration_ms, // RENEW
            }
            // A renewed lock is not put back: it only extends the lock.
            if r.state != RecordState::Acquired {
                undo.0.push((o, before, r.clone()));
            }
        }
        self.advance();
        Ok(archived)
    }

    /// Puts back what `undo` recorded, latest change first, for each
    /// record still as the change left it: one changed since (a released
    /// record acquired again by someone else) keeps its new state. A
    /// record the start offset moved past comes back, and with it the
    /// done records between it and the start (they were dropped as done,
    /// and stay done). Returns how many records were put back.
    pub fn rollback(&mut self, undo: &Undo) -> usize {
        let mut restored = 0;
        for (o, before, after) in undo.0.iter().rev() {
            let untouched = match self.records.get(o) {
                Some(r) => r == after,
                None => *o < self.start_offset,
            };
            if !untouched {
                continue;
            }
            if *o < self.start_offset {
                for d in (*o + 1)..self.start_offset {
                    self.records.entry(d).or_insert(InFlight {
                        state: RecordState::Acknowledged,
                        delivery_count: 0,
                        holder: None,
                        until_ms: 0,
                    });
                }
                self.start_offset = *o;
            }
            self.records.insert(*o, before.clone());
            restored += 1;
        }
        self.advance();
        restored
    }

    /// Releases every record `member` holds (its share session closed):
    /// they were fetched but never handed to the application (a share
    /// consumer acknowledges what it processed before it closes), so, as
    /// in Kafka (`DeliveryCountOps.DECREASE`), that delivery is not
    /// counted and nothing is archived for it.
    pub fn release_member(&mut self, member: &str, _lim: &Limits) -> Vec<Archived> {
        for r in self.records.values_mut() {
            if r.state == RecordState::Acquired && r.holder.as_deref() == Some(member) {
                r.delivery_count = r.delivery_count.saturating_sub(1);
                r.set(RecordState::Available);
            }
        }
        self.advance();
        Vec::new()
    }

    /// Releases records whose acquisition lock expired.
    pub fn expire_locks(&mut self, lim: &Limits) -> Vec<Archived> {
        let mut archived = Vec::new();
        let mut any = false;
        for (o, r) in self.records.iter_mut() {
            if r.state == RecordState::Acquired && r.until_ms <= lim.now_ms {
                any = true;
                // A timed-out record goes back without back-off, as a
                // release by the leader.
                let l = Limits {
                    release_backoff_ms: 0,
                    ..*lim
                };
                if let Some(a) = r.release(*o, &l) {
                    archived.push(a);
                }
            }
        }
        if any {
            self.advance();
        }
        archived
    }

    /// Whether any acquired record's lock has expired by `now_ms`.
    pub fn has_expired_locks(&self, now_ms: i64) -> bool {
        self.records
            .values()
            .any(|r| r.state == RecordState::Acquired && r.until_ms <= now_ms)
    }

    /// Whether the record at `offset` needs nothing more: below the start,
    /// or acknowledged or archived. An offset never handed out is not.
    pub fn is_done_at(&self, offset: i64) -> bool {
        offset < self.start_offset || self.records.get(&offset).is_some_and(|r| r.state.is_done())
    }

    /// Whether the record at `offset` is available (handed out before,
    /// not acquired now, not done).
    pub fn is_available_at(&self, offset: i64) -> bool {
        self.records
            .get(&offset)
            .is_some_and(|r| r.state == RecordState::Available)
    }

    /// Archives the records at `offsets` that are not done yet (a new
    /// leader found their dead letters already written): offsets past
    /// what was handed out are handed out first (records between stay
    /// available). Returns how many changed.
    pub fn archive_offsets(&mut self, offsets: &[i64]) -> usize {
        let mut changed = 0;
        for &o in offsets {
            if o < self.start_offset {
                continue;
            }
            for gap in self.next_offset..o {
                self.records.insert(gap, InFlight::available(0));
            }
            self.next_offset = self.next_offset.max(o + 1);
            let r = self
                .records
                .entry(o)
                .or_insert_with(|| InFlight::available(0));
            if !r.state.is_done() {
                r.set(RecordState::Archived);
                changed += 1;
            }
        }
        if changed > 0 {
            self.advance();
        }
        changed
    }

    /// What is persisted: the start offset and runs of equal (state,
    /// count) over the records in flight.
    pub fn persisted(&self) -> (i64, Vec<PersistedBatch>) {
        let mut out: Vec<PersistedBatch> = Vec::new();
        for (o, r) in &self.records {
            let code = r.state.persisted_code();
            let count = r.delivery_count as i16;
            match out.last_mut() {
                Some(b)
                    if b.last_offset + 1 == *o
                        && b.delivery_state == code
                        && b.delivery_count == count =>
                {
                    b.last_offset = *o
                }
                _ => out.push(PersistedBatch {
                    first_offset: *o,
                    last_offset: *o,
                    delivery_state: code,
                    delivery_count: count,
                }),
            }
        }
        (self.start_offset, out)
    }

    /// Moves the start offset past done records and drops them.
    fn advance(&mut self) {
        while let Some(e) = self.records.first_entry() {
            if !e.get().state.is_done() {
                break;
            }
            let o = *e.key();
            e.remove();
            self.start_offset = o + 1;
        }
        if self.records.is_empty() {
            self.start_offset = self.start_offset.max(self.next_offset);
        }
        self.next_offset = self.next_offset.max(self.start_offset);
    }

    /// The invariants of the module docs (tests).
    #[cfg(test)]
    fn check(&self) {
        assert!(self.start_offset <= self.next_offset);
        assert_eq!(
            self.records.len() as i64,
            self.next_offset - self.start_offset,
            "dense"
        );
        if let Some((o, r)) = self.records.iter().next() {
            assert_eq!(*o, self.start_offset);
            assert!(!r.state.is_done());
        }
        for r in self.records.values() {
            assert_eq!(r.state == RecordState::Acquired, r.holder.is_some());
        }
    }

    #[cfg(test)]
    fn state_of(&self, o: i64) -> Option<(RecordState, u16)> {
        self.records.get(&o).map(|r| (r.state, r.delivery_count))
    }
}

impl InFlight {
    fn available(count: u16) -> Self {
        InFlight {
            state: RecordState::Available,
            delivery_count: count,
            holder: None,
            until_ms: 0,
        }
    }

    fn archived(count: u16) -> Self {
        InFlight {
            state: RecordState::Archived,
            delivery_count: count,
            holder: None,
            until_ms: 0,
        }
    }

    fn set(&mut self, state: RecordState) {
        self.state = state;
        self.holder = None;
        self.until_ms = 0;
    }

    /// Back to available, or archived once delivered as often as allowed.
    fn release(&mut self, offset: i64, lim: &Limits) -> Option<Archived> {
        if self.delivery_count >= lim.delivery_count_limit {
            self.set(RecordState::Archived);
            return Some(Archived {
                offset,
                delivery_count: self.delivery_count,
                reason: ArchiveReason::DeliveryCountExceeded,
            });
        }
        self.set(RecordState::Available);
        self.until_ms = lim.now_ms + lim.release_backoff_ms * self.delivery_count as i64;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lim(now_ms: i64) -> Limits {
        Limits {
            now_ms,
            lock_duration_ms: 1000,
            delivery_count_limit: 3,
            max_record_locks: 100,
            release_backoff_ms: 0,
        }
    }

    fn batch(base: i64, last: i64) -> LogBatch {
        LogBatch {
            base_offset: base,
            last_offset: last,
            is_control: false,
            deliver_at_ms: 0,
        }
    }

    fn m(s: &str) -> Rc<str> {
        Rc::from(s)
    }

    #[test]
    fn two_members_get_disjoint_records_and_acks_move_the_start() {
        let mut s = SharePartitionState::new(0);
        let (a, b) = (m("a"), m("b"));
        let l = lim(0);
        assert_eq!(s.fetch_from(&l), Some(0));
        let got_a = s.acquire(&a, &[batch(0, 4)], 500, true, &l);
        assert_eq!(
            got_a,
            vec![Acquired {
                first_offset: 0,
                last_offset: 4,
                delivery_count: 1
            }]
        );
        assert_eq!(s.fetch_from(&l), Some(5));
        let got_b = s.acquire(&b, &[batch(5, 9)], 500, true, &l);
        assert_eq!(got_b[0].first_offset, 5);
        s.check();
        // b cannot acknowledge a's records.
        assert_eq!(
            s.acknowledge("b", 0, 0, &[ack::ACCEPT], &l),
            Err(AckError::NotAcquired { offset: 0 })
        );
        s.acknowledge("b", 5, 9, &[ack::ACCEPT], &l).unwrap();
        assert_eq!(s.start_offset(), 0);
        s.acknowledge("a", 0, 4, &[ack::ACCEPT], &l).unwrap();
        assert_eq!(s.start_offset(), 10);
        s.check();
        // Accepted records are never acknowledged again.
        assert!(s.acknowledge("a", 0, 0, &[ack::ACCEPT], &l).is_err());
    }

    #[test]
    fn archive_offsets_archives_what_a_new_leader_found_dead_lettered() {
        let mut s = SharePartitionState::new(10);
        let a = m("a");
        let l = lim(0);
        s.acquire(&a, &[batch(10, 14)], 500, true, &l);
        s.acknowledge("a", 11, 11, &[ack::ACCEPT], &l).unwrap();
        // 11 is done already, 9 is below the start, 10 and 12 are in
        // flight, 17 was never handed out here (acquired by a leader that
        // died before writing anything).
        assert_eq!(s.archive_offsets(&[9, 10, 11, 12, 17]), 3);
        s.check();
        assert_eq!(s.start_offset(), 13, "10..=12 done");
        assert!(s.is_done_at(12) && s.is_done_at(17) && s.is_done_at(5));
        assert!(!s.is_done_at(13) && !s.is_done_at(16) && !s.is_done_at(18));
        assert_eq!(s.next_offset(), 18);
        // 13 and 14 stay acquired by a; the gap 15..=16 is deliverable.
        assert_eq!(s.fetch_from(&l), Some(15));
        assert_eq!(s.archive_offsets(&[17]), 0, "nothing changes twice");
    }

    #[test]
    fn release_redelivers_with_a_higher_count_and_the_limit_archives() {
        let mut s = SharePartitionState::new(0);
        let a = m("a");
        let l = lim(0);
        s.acquire(&a, &[batch(0, 1)], 500, true, &l);
        let mut archived = Vec::new();
        for round in 1..=3u16 {
            assert_eq!(s.state_of(0), Some((RecordState::Acquired, round)));
            archived = s.acknowledge("a", 0, 0, &[ack::RELEASE], &l).unwrap();
            if round < 3 {
                assert!(archived.is_empty());
                assert_eq!(s.fetch_from(&l), Some(0));
                let got = s.acquire(&a, &[batch(0, 1)], 500, true, &l);
                assert_eq!(
                    got,
                    vec![Acquired {
                        first_offset: 0,
                        last_offset: 0,
                        delivery_count: round + 1
                    }]
                );
            }
        }
        assert_eq!(
            archived,
            vec![Archived {
                offset: 0,
                delivery_count: 3,
                reason: ArchiveReason::DeliveryCountExceeded
            }]
        );
        // Offset 1 (still acquired) keeps the start.
        assert_eq!(s.start_offset(), 1);
        s.check();
    }

    #[test]
    fn reject_archives_at_once_and_never_redelivers() {
        let mut s = SharePartitionState::new(0);
        let a = m("a");
        let l = lim(0);
        s.acquire(&a, &[batch(0, 2)], 500, true, &l);
        let arch = s
            .acknowledge("a", 0, 2, &[ack::ACCEPT, ack::REJECT, ack::ACCEPT], &l)
            .unwrap();
        assert_eq!(
            arch,
            vec![Archived {
                offset: 1,
                delivery_count: 1,
                reason: ArchiveReason::Rejected
            }]
        );
        assert_eq!(s.start_offset(), 3);
        assert_eq!(s.in_flight(), 0);
    }

    #[test]
    fn an_expired_lock_makes_records_available_to_others() {
        let mut s = SharePartitionState::new(0);
        let (a, b) = (m("a"), m("b"));
        s.acquire(&a, &[batch(0, 1)], 500, true, &lim(0));
        assert!(!s.has_expired_locks(999));
        assert!(s.has_expired_locks(1000));
        assert!(s.expire_locks(&lim(1000)).is_empty());
        let got = s.acquire(&b, &[batch(0, 1)], 500, true, &lim(1000));
        assert_eq!(
            got,
            vec![Acquired {
                first_offset: 0,
                last_offset: 1,
                delivery_count: 2
            }]
        );
        // a's late acknowledgement is refused.
        assert!(
            s.acknowledge("a", 0, 1, &[ack::ACCEPT], &lim(1001))
                .is_err()
        );
        s.check();
    }

    #[test]
    fn a_closed_session_returns_its_records_without_counting_the_delivery() {
        let mut s = SharePartitionState::new(0);
        let (a, b) = (m("a"), m("b"));
        s.acquire(&a, &[batch(0, 1)], 500, true, &lim(0));
        s.acquire(&b, &[batch(2, 2)], 500, true, &lim(0));
        assert!(s.release_member("a", &lim(0)).is_empty());
        assert_eq!(s.state_of(0), Some((RecordState::Available, 0)));
        assert_eq!(s.state_of(2), Some((RecordState::Acquired, 1)));
        let got = s.acquire(&b, &[batch(0, 1)], 500, true, &lim(0));
        assert_eq!(
            got,
            vec![Acquired {
                first_offset: 0,
                last_offset: 1,
                delivery_count: 1
            }]
        );
        s.check();
    }

    #[test]
    fn control_batches_and_gaps_are_archived_as_passed() {
        let mut s = SharePartitionState::new(0);
        let a = m("a");
        let l = lim(0);
        let ctl = LogBatch {
            is_control: true,
            ..batch(2, 2)
        };
        let got = s.acquire(&a, &[batch(0, 1), ctl, batch(5, 6)], 500, true, &l);
        assert_eq!(
            got,
            vec![
                Acquired {
                    first_offset: 0,
                    last_offset: 1,
                    delivery_count: 1
                },
                Acquired {
                    first_offset: 5,
                    last_offset: 6,
                    delivery_count: 1
                },
            ]
        );
        assert_eq!(s.state_of(3), Some((RecordState::Archived, 0)));
        s.acknowledge("a", 0, 1, &[ack::ACCEPT], &l).unwrap();
        assert_eq!(s.start_offset(), 5);
        s.check();
    }

    #[test]
    fn max_records_and_the_lock_limit_bound_acquisition() {
        let mut s = SharePartitionState::new(0);
        let a = m("a");
        let mut l = lim(0);
        l.max_record_locks = 10;
        // Whole batches of new records: 8 taken though 5 were asked.
        let got = s.acquire(&a, &[batch(0, 7), batch(8, 15)], 5, true, &l);
        assert_eq!(
            got,
            vec![Acquired {
                first_offset: 0,
                last_offset: 7,
                delivery_count: 1
            }]
        );
        // 8 of 10 locks used: the next batch starts but no other.
        let got = s.acquire(&a, &[batch(8, 15), batch(16, 20)], 500, true, &l);
        assert_eq!(got[0].last_offset, 15);
        assert_eq!(s.fetch_from(&l), None);
        s.acknowledge("a", 0, 15, &[ack::ACCEPT], &l).unwrap();
        assert_eq!(s.fetch_from(&l), Some(16));
    }

    #[test]
    fn record_limit_mode_never_passes_max_records() {
        let mut s = SharePartitionState::new(0);
        let a = m("a");
        let got = s.acquire(&a, &[batch(0, 7)], 3, false, &lim(0));
        assert_eq!(
            got,
            vec![Acquired {
                first_offset: 0,
                last_offset: 2,
                delivery_count: 1
            }]
        );
        assert_eq!(s.next_offset(), 3);
        s.check();
        let got = s.acquire(&a, &[batch(0, 7)], 3, false, &lim(0));
        assert_eq!(
            got,
            vec![Acquired {
                first_offset: 3,
                last_offset: 5,
                delivery_count: 1
            }]
        );
        s.check();
    }

    #[test]
    fn persisted_state_restores_without_locks() {
        let mut s = SharePartitionState::new(10);
        let a = m("a");
        let l = lim(0);
        s.acquire(&a, &[batch(10, 19)], 500, true, &l);
        s.acknowledge("a", 12, 13, &[ack::ACCEPT], &l).unwrap();
        s.acknowledge("a", 14, 14, &[ack::REJECT], &l).unwrap();
        let (start, batches) = s.persisted();
        let r = SharePartitionState::restore(start, &batches);
        r.check();
        assert_eq!(r.start_offset(), 10);
        assert_eq!(r.next_offset(), 20);
        assert_eq!(r.state_of(10), Some((RecordState::Available, 1)));
        assert_eq!(r.state_of(12), Some((RecordState::Acknowledged, 1)));
        assert_eq!(r.state_of(14), Some((RecordState::Archived, 1)));
    }

    #[test]
    fn release_backoff_and_delayed_batches_hold_records_back() {
        let mut s = SharePartitionState::new(0);
        let a = m("a");
        let mut l = lim(0);
        l.release_backoff_ms = 100;
        let delayed = LogBatch {
            deliver_at_ms: 500,
            ..batch(1, 1)
        };
        let got = s.acquire(&a, &[batch(0, 0), delayed], 500, true, &l);
        assert_eq!(got.len(), 1);
        s.acknowledge("a", 0, 0, &[ack::RELEASE], &l).unwrap();
        // 0 is backing off until 100, 1 held until 500: read new records.
        assert_eq!(s.fetch_from(&l), Some(2));
        assert_eq!(s.next_wakeup_ms(), Some(100));
        assert_eq!(s.fetch_from(&lim(100)), Some(0));
        assert_eq!(s.fetch_from(&lim(499)), Some(0));
        let got = s.acquire(&a, &[batch(0, 0), delayed], 500, true, &lim(500));
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn log_start_moving_past_records_drops_them() {
        let mut s = SharePartitionState::new(0);
        s.acquire(&m("a"), &[batch(0, 9)], 500, true, &lim(0));
        s.move_start_to(5);
        assert_eq!(s.start_offset(), 5);
        s.check();
        s.move_start_to(20);
        assert_eq!((s.start_offset(), s.next_offset()), (20, 20));
        s.check();
    }

    #[test]
    fn bad_batches_are_refused_whole() {
        let mut s = SharePartitionState::new(0);
        s.acquire(&m("a"), &[batch(0, 3)], 500, true, &lim(0));
        let l = lim(0);
        assert!(matches!(
            s.acknowledge("a", 3, 2, &[1], &l),
            Err(AckError::Invalid(_))
        ));
        assert!(matches!(
            s.acknowledge("a", 0, 3, &[1, 1], &l),
            Err(AckError::Invalid(_))
        ));
        assert!(matches!(
            s.acknowledge("a", 0, 0, &[9], &l),
            Err(AckError::Invalid(_))
        ));
        // One record beyond what was acquired refuses the whole batch.
        assert_eq!(
            s.acknowledge("a", 2, 4, &[1], &l),
            Err(AckError::NotAcquired { offset: 4 })
        );
        assert_eq!(s.state_of(2), Some((RecordState::Acquired, 1)));
    }

    #[test]
    fn a_failed_acknowledgement_is_put_back_and_later_changes_stay() {
        let mut s = SharePartitionState::new(0);
        let (a, b) = (m("a"), m("b"));
        let l = lim(0);
        s.acquire(&a, &[batch(0, 4)], 500, true, &l);
        s.acquire(&b, &[batch(5, 9)], 500, true, &l);
        // a accepts 0-4 (the start moves past them), then b accepts 5-9
        // while a's write is in flight; a's write fails.
        let mut undo_a = Undo::default();
        s.acknowledge_undoable("a", 0, 4, &[ack::ACCEPT], &l, &mut undo_a)
            .unwrap();
        s.acknowledge("b", 5, 9, &[ack::ACCEPT], &l).unwrap();
        assert_eq!(s.start_offset(), 10);
        assert_eq!(s.rollback(&undo_a), 5);
        s.check();
        // a's records are a's again, under their old lock; b's stay done.
        assert_eq!(s.start_offset(), 0);
        assert_eq!(s.state_of(0), Some((RecordState::Acquired, 1)));
        assert_eq!(s.state_of(4), Some((RecordState::Acquired, 1)));
        assert_eq!(s.state_of(7).map(|x| x.0), Some(RecordState::Acknowledged));
        // a may acknowledge them again; once its lock expires they go to
        // someone else.
        let mut again = s.clone();
        again.acknowledge("a", 0, 4, &[ack::ACCEPT], &l).unwrap();
        assert_eq!(again.start_offset(), 10);
        s.expire_locks(&lim(5_000));
        assert_eq!(s.fetch_from(&lim(5_000)), Some(0));
        let got = s.acquire(&b, &[batch(0, 4)], 500, true, &lim(5_000));
        assert_eq!(got[0].delivery_count, 2);
        s.check();
    }

    #[test]
    fn a_rollback_leaves_records_changed_since() {
        let mut s = SharePartitionState::new(0);
        let (a, b) = (m("a"), m("b"));
        let l = lim(0);
        s.acquire(&a, &[batch(0, 1)], 500, true, &l);
        // a releases 0-1 and b acquires them before a's write fails.
        let mut undo = Undo::default();
        s.acknowledge_undoable("a", 0, 1, &[ack::RELEASE], &l, &mut undo)
            .unwrap();
        s.acquire(&b, &[batch(0, 1)], 500, true, &l);
        assert_eq!(s.rollback(&undo), 0);
        assert_eq!(s.state_of(0), Some((RecordState::Acquired, 2)));
        // b holds them: b's acknowledgement works.
        s.acknowledge("b", 0, 1, &[ack::ACCEPT], &l).unwrap();
        s.check();
        // A renewal records nothing to put back.
        s.acquire(&a, &[batch(2, 2)], 500, true, &l);
        let mut renew = Undo::default();
        s.acknowledge_undoable("a", 2, 2, &[ack::RENEW], &l, &mut renew)
            .unwrap();
        assert!(renew.is_empty());
    }
}
