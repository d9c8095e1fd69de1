//! The log start moving under a Raft replica: retention, DeleteRecords
//! and compaction act below the purge point only, and the replica reopens
//! and goes on appending at the right offsets afterwards.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::time::Duration;

use crate::common::*;
use openraft::async_runtime::watch::WatchReceiver;
use tidemark_raft::{Error, LocalRouter, LogSource, NoPeers, PartitionReplica, ReplicaConfig};
use tidemark_storage::{CleanupPolicy, Log, LogConfig, StorageError};

/// Small segments so that a few hundred batches make many of them.
fn small() -> LogConfig {
    LogConfig {
        segment_bytes: 8 * 1024,
        max_batch_bytes: 4 * 1024,
        retention_ms: -1,
        preallocate: false,
        ..LogConfig::default()
    }
}

/// Appends `n` batches (seeds from `seed`) and checks they land densely
/// from `from`; returns the next offset.
async fn append_dense(r: &PartitionReplica, seed: u64, n: u64, from: i64) -> i64 {
    let mut next = from;
    for s in seed..seed + n {
        let info = r.append(batch_for(s, 4, 60), None).await.unwrap();
        assert_eq!(info.base_offset, next, "batch {s}");
        next = info.last_offset + 1;
    }
    assert_eq!(r.high_watermark(), next);
    next
}

/// Reads every batch from the log start and checks offsets increase and
/// end at `end`.
async fn check_readable(r: &PartitionReplica, end: i64) -> usize {
    let start = r.log().log_start_offset();
    let batches = read_all(r.log(), start, end).await;
    let mut last = -1;
    for b in &batches {
        assert!(b.base_offset() > last, "offsets increase");
        b.verify_crc().unwrap();
        last = b.last_offset();
    }
    assert_eq!(last, end - 1, "the log reads up to the high watermark");
    batches.len()
}

#[test]
fn retention_then_reopen_and_append() {
    let dir = test_dir("ls-retention");
    run(async {
        let cfg = LogConfig {
            retention_bytes: 24 * 1024,
            ..small()
        };
        let r = open_single(&dir, cfg.clone()).await;
        let mut end = append_dense(&r, 100_000, 40, 0).await;
        // Nothing to delete: the Raft log is not handed over at all.
        assert_eq!(r.apply_retention(i64::MAX / 2).await.unwrap(), 0);
        assert_eq!(r.log().max_collectible_offset(), 0);
        end = append_dense(&r, 0, 260, end).await;
        let segs = r.log().segment_count();
        assert!(segs > 6, "{segs} segments");
        let deleted = r.apply_retention(i64::MAX / 2).await.unwrap();
        assert!(deleted >= 3, "retention deleted {deleted} of {segs}");
        let start = r.log().log_start_offset();
        assert!(start > 0);
        // Only what retention deleted left the Raft log.
        assert_eq!(r.log().max_collectible_offset(), start);
        assert!(r.log().size_bytes() <= 24 * 1024 + 8 * 1024);
        // The Raft group still works: appends go on, densely.
        end = append_dense(&r, 300, 20, end).await;
        check_readable(&r, end).await;
        r.close().await.unwrap();
        drop(r);

        // Reopen (it used to refuse: the log start had moved).
        let r = open_single(&dir, cfg.clone()).await;
        assert_eq!(r.log().log_start_offset(), start);
        assert_eq!(r.high_watermark(), end);
        end = append_dense(&r, 320, 200, end).await;
        // Retention again, and again a reopen.
        assert!(r.apply_retention(i64::MAX / 2).await.unwrap() > 0);
        let start2 = r.log().log_start_offset();
        assert!(start2 > start);
        r.close().await.unwrap();
        drop(r);
        let r = open_single(&dir, cfg).await;
        assert_eq!(r.log().log_start_offset(), start2);
        end = append_dense(&r, 520, 5, end).await;
        check_readable(&r, end).await;
        r.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn compaction_then_reopen_and_append() {
    let dir = test_dir("ls-compact");
    run(async {
        let cfg = LogConfig {
            cleanup_policy: CleanupPolicy::Compact,
            min_cleanable_dirty_ratio: 0.0,
            ..small()
        };
        let r = open_single(&dir, cfg.clone()).await;
        // 13 keys over and over: most batches lose records, many all.
        let mut end = append_dense(&r, 0, 400, 0).await;
        let before = read_all(r.log(), 0, end).await.len();
        let stats = r.compact(i64::MAX / 2).await.unwrap();
        assert!(stats.ran && stats.records_removed > 0, "{stats:?}");
        let after = read_all(r.log(), 0, end).await.len();
        assert!(after < before, "whole batches removed: {after} < {before}");
        // Counting of entries would be off now if Raft still counted
        // these batches; appends and a restart show it does not.
        end = append_dense(&r, 400, 50, end).await;
        r.close().await.unwrap();
        drop(r);
        let r = open_single(&dir, cfg.clone()).await;
        assert_eq!(r.high_watermark(), end);
        end = append_dense(&r, 450, 200, end).await;
        let stats = r.compact(i64::MAX / 2).await.unwrap();
        assert!(stats.ran);
        r.close().await.unwrap();
        drop(r);
        let r = open_single(&dir, cfg).await;
        end = append_dense(&r, 650, 3, end).await;
        // Every key's latest record is still there, at its offset.
        let last = read_all(r.log(), 0, end).await;
        assert_eq!(last.last().unwrap().last_offset(), end - 1);
        r.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn delete_records_then_reopen_and_append() {
    let dir = test_dir("ls-delete");
    run(async {
        let r = open_single(&dir, small()).await;
        let mut end = append_dense(&r, 0, 200, 0).await;
        // Past the high watermark: Kafka's OFFSET_OUT_OF_RANGE.
        assert!(matches!(
            r.delete_records(end + 1).await,
            Err(Error::Storage(StorageError::OffsetOutOfRange { .. }))
        ));
        // Mid-batch, mid-segment.
        let at = end / 2 + 1;
        assert_eq!(r.delete_records(at).await.unwrap(), at);
        assert_eq!(r.log().log_start_offset(), at);
        end = append_dense(&r, 200, 10, end).await;
        r.close().await.unwrap();
        drop(r);
        let r = open_single(&dir, small()).await;
        assert_eq!(r.log().log_start_offset(), at);
        assert_eq!(r.high_watermark(), end);
        end = append_dense(&r, 210, 10, end).await;
        // Up to the high watermark exactly: everything goes.
        assert_eq!(r.delete_records(end).await.unwrap(), end);
        r.close().await.unwrap();
        drop(r);
        let r = open_single(&dir, small()).await;
        assert_eq!(r.log().log_start_offset(), end);
        append_dense(&r, 220, 10, end).await;
        r.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
}

/// The storage log refuses to collect past the purge point while the
/// replica has it open; if something cut the log behind the replica's
/// back anyway, the replica refuses to open rather than guess.
#[test]
fn log_cut_outside_the_replica_is_refused() {
    let dir = test_dir("ls-outside");
    run(async {
        let r = open_single(&dir, small()).await;
        let end = append_dense(&r, 0, 200, 0).await;
        // Nothing released yet: the log itself refuses.
        assert!(matches!(
            r.log().delete_records(10).await,
            Err(StorageError::NotCollectible { .. })
        ));
        r.close().await.unwrap();
        drop(r);
        let log = Log::open(&dir, small()).await.unwrap();
        log.delete_records(end / 2).await.unwrap();
        log.close().await.unwrap();
        drop(log);
        match PartitionReplica::open(
            &dir,
            small(),
            1,
            BTreeSet::from([1]),
            NoPeers,
            ReplicaConfig::default(),
        )
        .await
        {
            Err(Error::CorruptState(m)) => assert!(m.contains("purge point"), "{m}"),
            Err(e) => panic!("unexpected error {e}"),
            Ok(_) => panic!("opened a log cut behind its back"),
        }
    });
    std::fs::remove_dir_all(&dir).ok();
}

/// The replicas of one test group by node, for their log sources.
type Peers = Rc<RefCell<BTreeMap<u64, Rc<PartitionReplica>>>>;

/// A log source reading another replica's log directly (the broker's goes
/// over the node-to-node transport).
fn local_source(peers: &Peers) -> LogSource {
    let peers = peers.clone();
    Rc::new(move |node, from, until| {
        let peer = peers.borrow().get(&node).cloned();
        Box::pin(async move {
            let peer = peer.ok_or_else(|| format!("no node {node}"))?;
            peer.read_for_reset(from, until, 16 * 1024)
                .await
                .map_err(|e| e.to_string())
        })
    })
}

/// A follower of `leader` among `nodes` (the one the test cut off).
fn f2_id_of(nodes: &[Rc<PartitionReplica>], leader: &Rc<PartitionReplica>) -> u64 {
    nodes
        .iter()
        .map(|n| n.node_id())
        .find(|&id| id != leader.node_id())
        .unwrap()
}

async fn open_three(
    dirs: &[std::path::PathBuf],
    router: &LocalRouter,
    cfg: &LogConfig,
) -> Vec<Rc<PartitionReplica>> {
    let voters = BTreeSet::from([1, 2, 3]);
    let peers: Peers = Rc::default();
    let mut nodes = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        let id = i as u64 + 1;
        let r = PartitionReplica::open(
            dir,
            cfg.clone(),
            id,
            voters.clone(),
            router.network(id),
            fast(),
        )
        .await
        .unwrap();
        r.set_log_source(local_source(&peers));
        peers.borrow_mut().insert(id, r.clone());
        router.register(id, r.raft().unwrap());
        nodes.push(r);
    }
    until("a leader", Duration::from_secs(10), || {
        nodes.iter().filter(|n| n.is_leader()).count() == 1
    })
    .await;
    nodes
}

/// Three voters: a leader does not purge past a follower that is cut
/// off; retention resumes once it caught up; a follower that is behind
/// the purge point of a newly elected leader resets its log to the
/// leader's (from the leader's log start) and follows on; one whose reset
/// was interrupted comes back empty and resets again.
#[test]
fn three_voters_retention_and_a_follower_behind_the_purge_point() {
    let dirs: Vec<_> = (1..=3)
        .map(|i| test_dir(&format!("ls-three-{i}")))
        .collect();
    run(async {
        let cfg = LogConfig {
            retention_bytes: 16 * 1024,
            ..small()
        };
        let router = LocalRouter::new();
        let nodes = open_three(&dirs, &router, &cfg).await;
        let leader = nodes.iter().find(|n| n.is_leader()).unwrap().clone();
        let followers: Vec<_> = nodes
            .iter()
            .filter(|n| n.node_id() != leader.node_id())
            .cloned()
            .collect();
        let (f1, f2) = (followers[0].clone(), followers[1].clone());
        let mut end = append_dense(&leader, 0, 100, 0).await;
        for f in &followers {
            until("followers to catch up", Duration::from_secs(5), || {
                f.high_watermark() >= end
            })
            .await;
        }

        // f2 is cut off; the leader goes on with f1.
        router.remove(f2.node_id());
        let f2_end = f2.log().log_end_offset();
        end = append_dense(&leader, 100, 200, end).await;
        leader.apply_retention(i64::MAX / 2).await.unwrap();
        assert!(
            leader.log().log_start_offset() <= f2_end,
            "leader kept what f2 needs: log start {} > f2's end {f2_end}",
            leader.log().log_start_offset()
        );
        assert!(leader.log().max_collectible_offset() <= f2_end);
        assert!(leader.followers_needing_reset().is_empty());

        // f2 comes back and catches up; now retention runs.
        router.register(f2.node_id(), f2.raft().unwrap());
        until("f2 to catch up", Duration::from_secs(10), || {
            f2.high_watermark() >= end
        })
        .await;
        until(
            "the leader to see f2 caught up",
            Duration::from_secs(5),
            || {
                let m = leader.raft().unwrap().metrics();
                let m = m.borrow_watched();
                let applied = m.last_applied.map(|l| l.index);
                m.replication
                    .as_ref()
                    .and_then(|r| r.get(&f2.node_id()).cloned().flatten())
                    .is_some_and(|l| Some(l.index) >= applied)
            },
        )
        .await;
        assert!(leader.apply_retention(i64::MAX / 2).await.unwrap() > 0);
        assert!(leader.log().log_start_offset() > f2_end);
        end = append_dense(&leader, 300, 10, end).await;

        // Now f2 is cut off again, f1 (a follower: it purges up to its
        // own apply point) runs retention, and the leader dies.
        router.remove(f2.node_id());
        end = append_dense(&leader, 310, 200, end).await;
        until("f1 to catch up", Duration::from_secs(5), || {
            f1.high_watermark() >= end
        })
        .await;
        let f2_end = f2.log().log_end_offset();
        assert!(f1.apply_retention(i64::MAX / 2).await.unwrap() > 0);
        assert!(f1.log().log_start_offset() > f2_end);
        router.remove(leader.node_id());
        leader.raft().unwrap().shutdown().await.unwrap();
        router.register(f2.node_id(), f2.raft().unwrap());
        // f1 has the longer log: it wins, and f2 is behind its purge point.
        until("f1 to lead", Duration::from_secs(10), || f1.is_leader()).await;
        // f2 is behind f1's purge point: f1 sends it a snapshot, and f2
        // resets its log to f1's, from f1's log start.
        until(
            "f2 to catch up by a log reset",
            Duration::from_secs(10),
            || f2.high_watermark() >= end,
        )
        .await;
        until("f1 to see f2 caught up", Duration::from_secs(5), || {
            f1.followers_needing_reset().is_empty()
        })
        .await;
        assert_eq!(f2.log().log_start_offset(), f1.log().log_start_offset());
        assert!(f2.log().log_start_offset() > f2_end);
        end = append_dense(&f1, 510, 20, end).await;
        until("f2 to follow", Duration::from_secs(5), || {
            f2.high_watermark() >= end
        })
        .await;
        let n = check_readable(&f2, end).await;
        assert_eq!(n, check_readable(&f1, end).await, "same batches");
        let start = f2.log().log_start_offset();
        assert_eq!(
            read_all(f2.log(), start, end).await,
            read_all(f1.log(), start, end).await,
            "f2 holds f1's batches"
        );
        for n in [&f1, &f2] {
            n.close().await.unwrap();
        }
        leader.log().close().await.unwrap();
        drop((f1, f2, leader, followers, nodes));

        // All three reopen (retention moved their log starts, a reset
        // moved f2's); appends go on at the right offset.
        let router = LocalRouter::new();
        let nodes = open_three(&dirs, &router, &cfg).await;
        let leader = nodes.iter().find(|n| n.is_leader()).unwrap().clone();
        end = append_dense(&leader, 530, 3, end).await;
        for n in &nodes {
            until("all to follow", Duration::from_secs(5), || {
                n.high_watermark() >= end
            })
            .await;
        }
        let f2_id = f2_id_of(&nodes, &leader);
        for n in &nodes {
            n.close().await.unwrap();
        }
        drop((leader, nodes));

        // A reset interrupted by a crash leaves its marker: that replica
        // opens empty (as a wiped one), and resets again from the leader.
        std::fs::write(dirs[f2_id as usize - 1].join("raft-reset-in-progress"), b"").unwrap();
        let router = LocalRouter::new();
        let nodes = open_three(&dirs, &router, &cfg).await;
        let wiped = nodes[f2_id as usize - 1].clone();
        let leader = nodes.iter().find(|n| n.is_leader()).unwrap().clone();
        assert_ne!(leader.node_id(), f2_id, "a wiped replica does not lead");
        end = append_dense(&leader, 540, 3, end).await;
        until(
            "the wiped replica to reset again",
            Duration::from_secs(10),
            || wiped.high_watermark() >= end,
        )
        .await;
        assert!(
            !dirs[f2_id as usize - 1]
                .join("raft-reset-in-progress")
                .exists()
        );
        assert_eq!(
            check_readable(&wiped, end).await,
            check_readable(&leader, end).await
        );
        for n in &nodes {
            n.close().await.unwrap();
        }
    });
    for d in dirs {
        std::fs::remove_dir_all(d).ok();
    }
}
