//! Property test: the log's transaction state (open transactions, aborted
//! ranges, last stable offset) against a model that replays the batches
//! the log holds, through appends across segment rolls, truncations (never
//! below what was committed, as Raft guarantees), crashes and reopening.
//! A second property adds compaction passes at a moving clock (aborted
//! data removed, transaction markers stamped with their KIP-534 delete
//! horizon and removed after it): there the exact aborted list may shrink,
//! so what is checked is what a read_committed consumer sees.

use std::collections::BTreeMap;

use crate::common::*;
use bytes::{Bytes, BytesMut};
use kafka_protocol::records::{EndTxnMarker, NewRecord, RecordBatchBuilder};
use proptest::prelude::*;
use tidemark_storage::{AbortedTxn, Log, LogConfig};

#[derive(Debug, Clone)]
enum Op {
    /// A transactional batch of producer 1..=3 with 1..=3 records.
    Data(i64, usize),
    /// A COMMIT (true) or ABORT marker for producer 1..=3.
    Marker(i64, bool),
    /// A plain batch (fills segments).
    Plain,
    /// Everything appended so far is committed (the high watermark).
    Commit,
    /// Truncate somewhere between the committed point and the end.
    Truncate(u16),
    /// Reopen, after a clean close or not.
    Reopen(bool),
    /// A compaction pass after the clock moved this many hours (0..=2;
    /// the delete horizon is one hour).
    Compact(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (1i64..4, 1usize..4).prop_map(|(p, n)| Op::Data(p, n)),
        3 => (1i64..4, any::<bool>()).prop_map(|(p, c)| Op::Marker(p, c)),
        3 => Just(Op::Plain),
        2 => Just(Op::Commit),
        1 => any::<u16>().prop_map(Op::Truncate),
        1 => any::<bool>().prop_map(Op::Reopen),
    ]
}

fn op_with_compaction() -> impl Strategy<Value = Op> {
    prop_oneof![
        12 => op(),
        2 => (0u8..3).prop_map(Op::Compact),
    ]
}

const HOUR_MS: i64 = 3_600_000;

/// A compacted log: every pass may run, one-hour delete horizon.
fn compacted_config() -> LogConfig {
    LogConfig {
        cleanup_policy: tidemark_storage::CleanupPolicy::Compact,
        min_cleanable_dirty_ratio: 0.0,
        delete_retention_ms: HOUR_MS,
        ..config()
    }
}

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 2048,
        max_batch_bytes: 2048,
        index_interval_bytes: 256,
        ..small_config()
    }
}

/// A transactional batch; with `keys`, each record gets a key never used
/// before (from `next_key`), so compaction supersedes nothing.
fn data(pid: i64, n: usize, keys: Option<&mut u64>) -> Bytes {
    let mut b = RecordBatchBuilder::new()
        .producer(pid, 0, 0)
        .transactional(true);
    let mut keys = keys;
    for _ in 0..n {
        let r = NewRecord::new(vec![b'd'; 100]).with_timestamp(1_000);
        b.push(match keys.as_deref_mut() {
            Some(k) => {
                *k += 1;
                r.with_key(format!("k{k}"))
            }
            None => r,
        });
    }
    b.build().unwrap()
}

/// A plain batch of 2 records with keys never used before.
fn keyed_plain(next_key: &mut u64) -> Bytes {
    let mut b = RecordBatchBuilder::new();
    for _ in 0..2 {
        *next_key += 1;
        b.push(
            NewRecord::new(vec![b'p'; 200])
                .with_key(format!("k{next_key}"))
                .with_timestamp(1_000),
        );
    }
    b.build().unwrap()
}

fn marker(pid: i64, commit: bool) -> Bytes {
    EndTxnMarker {
        commit,
        coordinator_epoch: 0,
    }
    .batch(pid, 0, 1_000)
    .build()
    .unwrap()
}

/// (producer id, transactional, marker: Some(commit)) of a batch.
type Kind = (i64, bool, Option<bool>);

/// An aborted transaction with its marker's offset.
type Aborted = (AbortedTxn, i64);

/// The expected state from the batches in the log, in order: (open
/// transactions, aborted transactions, last stable offset at `hw`).
fn replay(batches: &[(i64, Kind)], hw: i64) -> (Vec<(i64, i64)>, Vec<Aborted>, i64) {
    let mut open: BTreeMap<i64, i64> = BTreeMap::new();
    let mut aborted = Vec::new();
    let mut unstable = hw;
    for &(offset, (pid, txn, marker)) in batches {
        match marker {
            Some(commit) => {
                if let Some(first) = open.remove(&pid) {
                    if !commit {
                        let a = AbortedTxn {
                            producer_id: pid,
                            first_offset: first,
                        };
                        aborted.push((a, offset));
                    }
                    if offset >= hw {
                        unstable = unstable.min(first);
                    }
                }
            }
            None if txn => {
                open.entry(pid).or_insert(offset);
            }
            None => {}
        }
    }
    for &first in open.values() {
        unstable = unstable.min(first);
    }
    let mut open: Vec<(i64, i64)> = open.into_iter().collect();
    open.sort_by_key(|&(p, o)| (o, p));
    (open, aborted, unstable)
}

/// The offsets of the data records a read_committed consumer reads below
/// `lso`, by the model: plain records, and those of transactions whose
/// producer's next marker commits (`sizes`: records per batch).
fn model_visible(batches: &[(i64, Kind)], sizes: &BTreeMap<i64, i64>, lso: i64) -> Vec<i64> {
    let mut pending: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    let mut visible = Vec::new();
    for &(offset, (pid, txn, marker)) in batches {
        match marker {
            Some(commit) => {
                let data = pending.remove(&pid).unwrap_or_default();
                if commit {
                    visible.extend(data);
                }
            }
            None if txn => pending.entry(pid).or_default().push(offset),
            None => visible.push(offset),
        }
    }
    let mut out: Vec<i64> = visible
        .into_iter()
        .flat_map(|base| base..base + sizes[&base])
        .filter(|&o| o < lso)
        .collect();
    out.sort_unstable();
    out
}

/// What a read_committed consumer reads below `lso`: the log's batches
/// from its start, the aborted list the log answers for that range, and
/// Kafka's consumer rule (an aborted transaction opens at its first
/// offset and closes at its producer's next control batch).
async fn consumer_visible(log: &Log, lso: i64) -> Vec<i64> {
    let start = log.log_start_offset();
    let mut aborted = log.aborted_transactions(start, lso);
    aborted.sort_by_key(|a| a.first_offset);
    let mut aborted = aborted.into_iter().peekable();
    let mut open_aborts = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    let mut offset = start;
    while offset < lso {
        let r = log.read(offset, 1 << 20, None).await.unwrap();
        if r.batches.is_empty() {
            break;
        }
        for b in r.batches {
            let b = kafka_protocol::records::RecordBatch::new(b).unwrap();
            if b.base_offset() >= lso {
                break;
            }
            while let Some(a) = aborted.next_if(|a| a.first_offset <= b.last_offset()) {
                open_aborts.insert(a.producer_id);
            }
            if b.is_control() {
                open_aborts.remove(&b.producer_id());
                continue;
            }
            if b.is_transactional() && open_aborts.contains(&b.producer_id()) {
                continue;
            }
            for rec in b.records().unwrap() {
                let o = rec.unwrap().offset();
                if o < lso {
                    out.push(o);
                }
            }
        }
        offset = r.next_offset;
    }
    out
}

async fn append(log: &Log, b: Bytes) -> i64 {
    log.append(BytesMut::from(&b[..]), 1, None)
        .await
        .unwrap()
        .base_offset
}

/// Runs `ops`; `compacting`: on a compacted log with unique keys, where
/// `Op::Compact` runs passes (without it, `Op::Compact` is not drawn).
fn check(ops: Vec<Op>, compacting: bool) {
    let dir = test_dir("txn-model");
    let cfg = if compacting {
        compacted_config()
    } else {
        config()
    };
    run(async {
        let mut log = Log::open(&dir, cfg.clone()).await.unwrap();
        // (base offset, kind) of every batch in the log; the committed end.
        let mut batches: Vec<(i64, Kind)> = Vec::new();
        // Records per data batch, by base offset.
        let mut sizes: BTreeMap<i64, i64> = BTreeMap::new();
        let mut hw = 0i64;
        let mut next_key = 0u64;
        let mut clock_ms = 1_000i64;
        for op in ops {
            match op {
                Op::Data(pid, n) => {
                    let keys = compacting.then_some(&mut next_key);
                    let o = append(&log, data(pid, n, keys)).await;
                    batches.push((o, (pid, true, None)));
                    sizes.insert(o, n as i64);
                }
                Op::Marker(pid, commit) => {
                    let o = append(&log, marker(pid, commit)).await;
                    batches.push((o, (pid, true, Some(commit))));
                }
                Op::Plain => {
                    let b = if compacting {
                        keyed_plain(&mut next_key)
                    } else {
                        batch_for(1, 2, 200)
                    };
                    let o = append(&log, b).await;
                    batches.push((o, (-1, false, None)));
                    sizes.insert(o, 2);
                }
                Op::Compact(hours) => {
                    clock_ms += i64::from(hours) * HOUR_MS;
                    // As the broker: the LSO first (it forgets completed
                    // transactions below the high watermark).
                    log.last_stable_offset(hw);
                    log.compact(clock_ms).await.unwrap();
                }
                Op::Commit => hw = log.log_end_offset(),
                Op::Truncate(x) => {
                    let leo = log.log_end_offset();
                    if leo > hw {
                        let cut = hw + i64::from(x) % (leo - hw + 1);
                        let cut = batches
                            .iter()
                            .map(|b| b.0)
                            .find(|&o| o >= cut)
                            .unwrap_or(leo);
                        log.truncate(cut).await.unwrap();
                        batches.retain(|b| b.0 < cut);
                    }
                }
                Op::Reopen(clean) => {
                    if clean {
                        log.close().await.unwrap();
                    }
                    drop(log);
                    log = Log::open(&dir, cfg.clone()).await.unwrap();
                }
            }
            let (open, aborted, lso) = replay(&batches, hw);
            assert_eq!(log.ongoing_transactions(), open, "open, after {op:?}");
            if compacting {
                assert_eq!(log.last_stable_offset(hw), lso, "lso, after {op:?}");
                assert_eq!(
                    consumer_visible(&log, lso).await,
                    model_visible(&batches, &sizes, lso),
                    "read_committed view below {lso}, after {op:?}"
                );
                continue;
            }
            // Every range a fetch may ask about: from each batch, up to a
            // few batches further or to the end.
            let leo = log.log_end_offset();
            let mut starts: Vec<i64> = batches.iter().map(|b| b.0).collect();
            starts.push(0);
            for &from in &starts {
                for upper in [from + 1, from + 4, from + 12, leo, i64::MAX] {
                    let mut want: Vec<AbortedTxn> = aborted
                        .iter()
                        .filter(|(a, marker)| *marker >= from && a.first_offset < upper)
                        .map(|(a, _)| *a)
                        .collect();
                    want.sort_by_key(|a| a.first_offset);
                    assert_eq!(
                        log.aborted_transactions(from, upper),
                        want,
                        "aborted in [{from}, {upper}), after {op:?}"
                    );
                }
            }
            assert_eq!(log.last_stable_offset(hw), lso, "lso, after {op:?}");
        }
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, max_shrink_iters: 200, ..ProptestConfig::default() })]

    #[test]
    fn transaction_state_matches_a_replay_of_the_log(ops in prop::collection::vec(op(), 1..120)) {
        check(ops, false);
    }

    #[test]
    fn compaction_keeps_what_read_committed_consumers_see(
        ops in prop::collection::vec(op_with_compaction(), 1..160)
    ) {
        check(ops, true);
    }
}
