//! Helpers shared by the raft crate's integration tests.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use kafka_protocol::records::{NewRecord, RecordBatch, RecordBatchBuilder};
use tidemark_raft::{LocalRouter, NoPeers, PartitionReplica, ReplicaConfig};
use tidemark_storage::{LogConfig, ReadResult};

pub fn run<F: Future>(f: F) -> F::Output {
    // RUST_LOG=... shows the groups' logs when a test needs explaining.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    monoio::RuntimeBuilder::<monoio::FusionDriver>::new()
        .enable_timer()
        .build()
        .expect("runtime")
        .block_on(f)
}

/// A fresh directory on the target disk (ext4: O_DIRECT is exercised).
pub fn test_dir(name: &str) -> PathBuf {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("raft-tests");
    std::fs::create_dir_all(&base).unwrap();
    tempfile::Builder::new()
        .prefix(name)
        .tempdir_in(base)
        .unwrap()
        .keep()
}

pub fn config() -> LogConfig {
    LogConfig {
        segment_bytes: 4 << 20,
        retention_ms: -1,
        preallocate: false,
        ..LogConfig::default()
    }
}

/// A batch whose content is a pure function of `seed`.
pub fn batch_for(seed: u64, records: usize, value_len: usize) -> BytesMut {
    let mut b = RecordBatchBuilder::new();
    for i in 0..records {
        let v: Vec<u8> = (0..value_len)
            .map(|j| (seed as usize * 31 + i * 7 + j) as u8)
            .collect();
        b.push(
            NewRecord::new(v)
                .with_key(format!("k{}", (seed as usize + i) % 13))
                .with_timestamp(1_000 + seed as i64),
        );
    }
    BytesMut::from(&b.build().unwrap()[..])
}

/// The first record value of a batch (to recognize a batch by seed).
pub fn first_value(b: &RecordBatch) -> Bytes {
    b.records()
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .value()
        .cloned()
        .unwrap()
}

/// Every batch of a log from `from` up to `to` (exclusive).
pub async fn read_all(log: &tidemark_storage::Log, from: i64, to: i64) -> Vec<RecordBatch> {
    let mut out = Vec::new();
    let mut off = from;
    while off < to {
        let ReadResult {
            batches,
            next_offset,
            ..
        } = log.read(off, 1 << 20, Some(to)).await.unwrap();
        if batches.is_empty() {
            break;
        }
        out.extend(batches.into_iter().map(|b| RecordBatch::new(b).unwrap()));
        off = next_offset;
    }
    out
}

/// Opens the single-voter replica in `dir` (node 1, no peers, default
/// Raft settings) and waits until it leads.
pub async fn open_single(dir: &Path, cfg: LogConfig) -> Rc<PartitionReplica> {
    let r = PartitionReplica::open(
        dir,
        cfg,
        1,
        BTreeSet::from([1]),
        NoPeers,
        ReplicaConfig::default(),
    )
    .await
    .unwrap();
    r.wait_for_leader(Duration::from_secs(5)).await.unwrap();
    r
}

/// Raft timings for groups on a `LocalRouter` in one thread: elections
/// within a few hundred milliseconds.
pub fn fast() -> ReplicaConfig {
    ReplicaConfig {
        heartbeat_interval: Duration::from_millis(30),
        election_timeout_min: Duration::from_millis(150),
        election_timeout_max: Duration::from_millis(300),
        max_payload_entries: 64,
        core_heartbeat_interval: None,
    }
}

/// Waits (polling every 2 ms, at most `timeout`) until `f` holds; panics
/// naming `what` otherwise.
pub async fn until(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        monoio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// Opens voters `ids` of the group {1, 2, 3} (node `id` in `dirs[id - 1]`)
/// on `router`, each registered with it.
pub async fn open_voters(
    router: &LocalRouter,
    dirs: &[std::path::PathBuf],
    ids: impl IntoIterator<Item = u64>,
) -> Vec<Rc<PartitionReplica>> {
    let voters = BTreeSet::from([1, 2, 3]);
    let mut nodes = Vec::new();
    for id in ids {
        let r = PartitionReplica::open(
            &dirs[id as usize - 1],
            config(),
            id,
            voters.clone(),
            router.network(id),
            fast(),
        )
        .await
        .unwrap();
        router.register(id, r.raft().unwrap());
        nodes.push(r);
    }
    nodes
}

/// Waits (at most 10 s) until exactly one of `nodes` leads; returns it.
pub async fn one_leader(nodes: &[Rc<PartitionReplica>]) -> Rc<PartitionReplica> {
    until("a leader", Duration::from_secs(10), || {
        nodes.iter().filter(|n| n.is_leader()).count() == 1
    })
    .await;
    nodes.iter().find(|n| n.is_leader()).unwrap().clone()
}
