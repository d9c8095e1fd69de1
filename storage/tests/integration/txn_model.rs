//! Property test: the log's transaction state (open transactions, aborted
//! ranges, last stable offset) against a model that replays the batches
//! the log holds, through appends across segment rolls, truncations (never
//! below what was committed, as Raft guarantees), crashes and reopening.

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

fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 2048,
        max_batch_bytes: 2048,
        index_interval_bytes: 256,
        ..small_config()
    }
}

fn data(pid: i64, n: usize) -> Bytes {
    let mut b = RecordBatchBuilder::new()
        .producer(pid, 0, 0)
        .transactional(true);
    for _ in 0..n {
        b.push(NewRecord::new(vec![b'd'; 100]).with_timestamp(1_000));
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

async fn append(log: &Log, b: Bytes) -> i64 {
    log.append(BytesMut::from(&b[..]), 1, None)
        .await
        .unwrap()
        .base_offset
}

fn check(ops: Vec<Op>) {
    let dir = test_dir("txn-model");
    run(async {
        let mut log = Log::open(&dir, config()).await.unwrap();
        // (base offset, kind) of every batch in the log; the committed end.
        let mut batches: Vec<(i64, Kind)> = Vec::new();
        let mut hw = 0i64;
        for op in ops {
            match op {
                Op::Data(pid, n) => {
                    let o = append(&log, data(pid, n)).await;
                    batches.push((o, (pid, true, None)));
                }
                Op::Marker(pid, commit) => {
                    let o = append(&log, marker(pid, commit)).await;
                    batches.push((o, (pid, true, Some(commit))));
                }
                Op::Plain => {
                    let o = append(&log, batch_for(1, 2, 200)).await;
                    batches.push((o, (-1, false, None)));
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
                    log = Log::open(&dir, config()).await.unwrap();
                }
            }
            let (open, aborted, lso) = replay(&batches, hw);
            assert_eq!(log.ongoing_transactions(), open, "open, after {op:?}");
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
        check(ops);
    }
}
