//! Three replicas of one partition in one thread over a [`LocalRouter`]:
//! election, replication, failover to a higher term.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::common::*;
use tidemark_raft::{LocalRouter, PartitionReplica};

#[test]
fn replicates_and_fails_over_to_a_higher_epoch() {
    let dirs: Vec<_> = (1..=3).map(|i| test_dir(&format!("three-{i}"))).collect();
    run(async {
        let router = LocalRouter::new();
        let voters = BTreeSet::from([1, 2, 3]);
        let nodes = open_voters(&router, &dirs, [1, 2, 3]).await;
        let leader = one_leader(&nodes).await;
        let epoch1 = leader.leader_epoch();
        for n in &nodes {
            until(
                "everyone to know the leader",
                Duration::from_secs(5),
                || n.leader_id() == Some(leader.node_id()),
            )
            .await;
        }

        let mut acked: Vec<tidemark_storage::AppendInfo> = Vec::new();
        for seed in 0..50 {
            let info = match leader.append(batch_for(seed, 8, 64), None).await {
                Ok(i) => i,
                Err(e) => {
                    for n in &nodes {
                        eprintln!(
                            "node {} leader={:?} epoch={} is_leader={} hw={}",
                            n.node_id(),
                            n.leader_id(),
                            n.leader_epoch(),
                            n.is_leader(),
                            n.high_watermark()
                        );
                    }
                    panic!("append {seed}: {e}");
                }
            };
            // Committed = on a majority: the leader and at least one
            // follower hold it.
            let holders = nodes
                .iter()
                .filter(|n| n.log().log_end_offset() > info.last_offset)
                .count();
            assert!(
                holders >= 2,
                "batch {seed} on {holders} replicas when acknowledged"
            );
            // Dense from offset 0: openraft's entries take no offsets.
            let expect = acked.last().map_or(0, |a| a.last_offset + 1);
            assert_eq!(info.base_offset, expect);
            acked.push(info);
        }
        let end = acked.last().unwrap().last_offset + 1;
        for n in &nodes {
            until("followers to catch up", Duration::from_secs(5), || {
                n.high_watermark() >= end
            })
            .await;
        }
        // DescribeQuorum's view: on the leader, every voter's log end at
        // the end once it acknowledged it; a follower has no view.
        let deadline = Instant::now() + Duration::from_secs(5);
        let view = loop {
            let v = leader.quorum_view().await.expect("the leader has a view");
            if v.members.iter().all(|m| m.log_end_offset == Some(end)) {
                break v;
            }
            assert!(
                Instant::now() < deadline,
                "members not at the log end: {v:?}"
            );
            monoio::time::sleep(Duration::from_millis(10)).await;
        };
        assert_eq!(view.leader, leader.node_id());
        assert_eq!(view.term as i32, epoch1);
        assert_eq!(view.high_watermark, end);
        assert_eq!(view.members[0].node, leader.node_id());
        assert_eq!(
            view.members.iter().map(|m| m.node).collect::<BTreeSet<_>>(),
            voters
        );
        for m in &view.members {
            assert!(m.voter, "{m:?}");
            let ack = m.last_ack_ago.expect("acknowledged");
            assert!(ack < Duration::from_secs(2), "{m:?}");
            // Caught up no later than its last acknowledgement.
            assert!(m.caught_up_ago.expect("caught up") >= ack, "{m:?}");
        }
        for n in nodes.iter().filter(|n| !n.is_leader()) {
            assert!(n.quorum_view().await.is_none());
        }
        // Byte-identical logs: followers stored the leader's stamped bytes.
        let reference = read_all(leader.log(), 0, end).await;
        for n in &nodes {
            let theirs = read_all(n.log(), 0, end).await;
            assert_eq!(theirs.len(), reference.len());
            for (a, b) in theirs.iter().zip(&reference) {
                assert_eq!(a.base_offset(), b.base_offset());
                assert_eq!(a.partition_leader_epoch(), b.partition_leader_epoch());
                if !a.is_control() {
                    assert_eq!(a.as_bytes(), b.as_bytes());
                }
            }
        }
        // A follower refuses writes and names the leader.
        let follower = nodes.iter().find(|n| !n.is_leader()).unwrap();
        match follower.append(batch_for(999, 1, 1), None).await {
            Err(tidemark_raft::Error::NotLeader { leader: l }) => {
                assert_eq!(l, Some(leader.node_id()))
            }
            other => panic!("follower accepted a write: {other:?}"),
        }

        // Groups with other voters never hibernate (they must heartbeat).
        for n in &nodes {
            assert!(!n.hibernate_if_idle(Duration::ZERO).await.unwrap());
            assert!(!n.is_hibernating());
        }

        // Kill the leader: cut it off and stop its Raft task.
        let dead = leader.node_id();
        router.remove(dead);
        leader.raft().unwrap().shutdown().await.unwrap();
        let survivors: Vec<_> = nodes
            .iter()
            .filter(|n| n.node_id() != dead)
            .cloned()
            .collect();
        until("a new leader", Duration::from_secs(10), || {
            survivors.iter().any(|n| n.is_leader())
        })
        .await;
        let new_leader = survivors.iter().find(|n| n.is_leader()).unwrap().clone();
        let epoch2 = new_leader.leader_epoch();
        assert!(epoch2 > epoch1, "new leader epoch {epoch2} > {epoch1}");
        let info = new_leader.append(batch_for(50, 8, 64), None).await.unwrap();
        assert_eq!(info.base_offset, end, "dense across a leader change");
        let last = read_all(new_leader.log(), info.base_offset, info.last_offset + 1).await;
        assert_eq!(last[0].partition_leader_epoch(), epoch2);
        // Every batch acknowledged under the old leader is still there.
        let now = read_all(new_leader.log(), 0, end).await;
        for a in &acked {
            assert!(
                now.iter()
                    .any(|b| b.base_offset() == a.base_offset && b.last_offset() == a.last_offset)
            );
        }
        // OffsetForLeaderEpoch: the old epoch ends where the new one's
        // first batch begins, right after everything acknowledged before.
        assert_eq!(new_leader.log().epochs(), vec![(epoch1, 0), (epoch2, end)]);
        assert_eq!(new_leader.log().end_offset_for_epoch(epoch1), (epoch1, end));
        // The other survivor has the same log, dense too.
        let other = survivors
            .iter()
            .find(|n| n.node_id() != new_leader.node_id())
            .unwrap();
        until(
            "the other survivor to catch up",
            Duration::from_secs(5),
            || other.high_watermark() > info.last_offset,
        )
        .await;
        let theirs = read_all(other.log(), 0, info.last_offset + 1).await;
        let mut o = 0;
        for b in &theirs {
            assert_eq!(b.base_offset(), o);
            o = b.next_offset();
        }
        assert_eq!(o, info.last_offset + 1);
        for n in &survivors {
            n.close().await.unwrap();
        }
        leader.log().close().await.unwrap();
        let ids: Vec<u64> = survivors.iter().map(|n| n.node_id()).collect();
        drop(survivors);
        drop(nodes);
        drop(new_leader);
        drop(leader);

        // Reopen the two survivors (the third stays dead): they elect a
        // leader in a new term and offsets go on where they stopped.
        let router = LocalRouter::new();
        let nodes = open_voters(&router, &dirs, ids).await;
        let l = one_leader(&nodes).await;
        assert!(l.leader_epoch() > epoch2);
        let i = l.append(batch_for(51, 2, 8), None).await.unwrap();
        assert_eq!(i.base_offset, info.last_offset + 1, "dense across reopen");
        for n in &nodes {
            n.close().await.unwrap();
        }
    });
    for d in dirs {
        std::fs::remove_dir_all(d).ok();
    }
}

/// A cut-off leader keeps appending what can never commit; the others
/// elect a new leader and go on. When it is back, its divergent tail is
/// truncated and replaced: it ends with the new leader's log, offsets
/// dense, and its stuck write fails as retriable.
#[test]
fn divergent_tail_is_truncated_and_offsets_stay_dense() {
    let dirs: Vec<_> = (1..=3).map(|i| test_dir(&format!("diverge-{i}"))).collect();
    run(async {
        let router = LocalRouter::new();
        let voters = BTreeSet::from([1, 2, 3]);
        let nodes = open_voters(&router, &dirs, [1, 2, 3]).await;
        let old = one_leader(&nodes).await;
        let mut end = 0;
        for seed in 0..10 {
            end = old
                .append(batch_for(seed, 4, 32), None)
                .await
                .unwrap()
                .last_offset
                + 1;
        }
        let others: Vec<_> = nodes
            .iter()
            .filter(|n| n.node_id() != old.node_id())
            .cloned()
            .collect();
        for n in &others {
            until("catch up", Duration::from_secs(5), || {
                n.high_watermark() >= end
            })
            .await;
        }

        // Cut the leader off; it takes three more writes it cannot commit.
        router.remove(old.node_id());
        let mut stuck = Vec::new();
        for seed in 100..103 {
            let old = old.clone();
            stuck.push(monoio::spawn(async move {
                old.append(batch_for(seed, 4, 32), None).await
            }));
        }
        until(
            "the cut-off leader to write its tail",
            Duration::from_secs(5),
            || old.log().log_end_offset() >= end + 12,
        )
        .await;
        until("a new leader", Duration::from_secs(10), || {
            others.iter().any(|n| n.is_leader())
        })
        .await;
        let new = others.iter().find(|n| n.is_leader()).unwrap().clone();
        let mut next = end;
        for seed in 200..205 {
            let i = new.append(batch_for(seed, 2, 16), None).await.unwrap();
            assert_eq!(i.base_offset, next, "dense on the new leader");
            next = i.last_offset + 1;
        }

        // Back: the old leader's tail (12 offsets) is replaced by the new
        // leader's (10 offsets).
        router.register(old.node_id(), old.raft().unwrap());
        until(
            "the old leader to converge",
            Duration::from_secs(10),
            || old.high_watermark() >= next && old.log().log_end_offset() == next,
        )
        .await;
        for h in stuck {
            let e = h.await.unwrap_err();
            assert!(e.is_retriable(), "stuck write ends retriable: {e}");
        }
        let reference = read_all(new.log(), 0, next).await;
        let theirs = read_all(old.log(), 0, next).await;
        assert_eq!(theirs.len(), reference.len());
        for (a, b) in theirs.iter().zip(&reference) {
            assert_eq!(a.as_bytes(), b.as_bytes());
        }
        // And it reopens cleanly after the truncation.
        let old_id = old.node_id();
        for n in &nodes {
            n.close().await.unwrap();
        }
        drop((nodes, others, new, old));
        let r = PartitionReplica::open(
            &dirs[old_id as usize - 1],
            config(),
            old_id,
            voters.clone(),
            LocalRouter::new().network(old_id),
            fast(),
        )
        .await
        .unwrap();
        assert_eq!(r.log().log_end_offset(), next);
        assert!(r.high_watermark() >= end);
        r.close().await.unwrap();
    });
    for d in dirs {
        std::fs::remove_dir_all(d).ok();
    }
}

/// A network split: a follower cut off from the others that keeps
/// starting elections (its term climbs: pre-vote is turned off on it, as
/// on a replica whose network granted pre-votes unasked, openraft's
/// default) still reports the epoch of the last leadership it saw
/// commit; a leader cut off from both
/// followers stays openraft's leader in its old term but reports that it
/// lost its lease (`lease_lost`) once no quorum acknowledged it for the
/// lease, so that the broker stops naming it leader.
#[test]
fn a_split_leaves_the_cut_off_replicas_epochs_alone_and_the_leader_without_lease() {
    let dirs: Vec<_> = (1..=3).map(|i| test_dir(&format!("split-{i}"))).collect();
    run(async {
        let router = LocalRouter::new();
        let nodes = open_voters(&router, &dirs, [1, 2, 3]).await;
        let leader = one_leader(&nodes).await;
        let epoch = leader.leader_epoch();
        leader.append(batch_for(1, 1, 8), None).await.unwrap();
        for n in &nodes {
            until(
                "the commit point everywhere",
                Duration::from_secs(5),
                || n.committed_epoch() == epoch,
            )
            .await;
        }
        assert!(!leader.lease_lost());
        assert_eq!(leader.lease(), fast().election_timeout_max);

        // A follower cut off: its term climbs, its reported epoch stays.
        // With pre-vote its term would stay too (`pre_vote.rs`); without,
        // every election timeout is a new term.
        let cut = nodes.iter().find(|n| !n.is_leader()).unwrap().clone();
        cut.raft().unwrap().runtime_config().pre_vote(false);
        router.remove(cut.node_id());
        until(
            "elections on the cut-off follower",
            Duration::from_secs(10),
            || cut.leader_epoch() > epoch + 2,
        )
        .await;
        assert_eq!(cut.leader_id(), None);
        assert_eq!(cut.committed_epoch(), epoch);
        // The leader still hears from a quorum (itself and the other).
        assert!(!leader.lease_lost());
        assert!(leader.is_leader());

        // The leader cut off as well: no quorum acknowledges it any more.
        router.remove(leader.node_id());
        until(
            "the cut-off leader to lose its lease",
            Duration::from_secs(5),
            || leader.lease_lost(),
        )
        .await;
        // openraft still names it leader, in its old term.
        assert_eq!(leader.leader_id(), Some(leader.node_id()));
        assert_eq!(leader.leader_epoch(), epoch);
        assert_eq!(leader.committed_epoch(), epoch);
        for n in &nodes {
            n.close().await.unwrap();
        }
    });
    for d in dirs {
        std::fs::remove_dir_all(d).ok();
    }
}

#[test]
fn leadership_is_never_handed_to_a_learner() {
    let dirs: Vec<_> = (1..=4).map(|i| test_dir(&format!("learner-{i}"))).collect();
    run(async {
        let router = LocalRouter::new();
        let mut nodes = open_voters(&router, &dirs, [1, 2, 3]).await;
        let leader = one_leader(&nodes).await;
        leader.append(batch_for(1, 1, 4), None).await.unwrap();
        // Node 4 joins as a learner (as a reassignment's new replica: its
        // broker opens it with no voters) and catches up.
        let learner = PartitionReplica::open(
            &dirs[3],
            config(),
            4,
            BTreeSet::new(),
            router.network(4),
            fast(),
        )
        .await
        .unwrap();
        router.register(4, learner.raft().unwrap());
        leader.add_learner(4).await.unwrap();
        until("the learner to catch up", Duration::from_secs(5), || {
            leader.caught_up_within(4, Duration::from_secs(1))
        })
        .await;
        assert!(leader.membership().learners.contains(&4));

        // A hand-off to the learner is refused, and the leader still writes.
        let err = leader.transfer_leadership(4).await.unwrap_err();
        assert!(matches!(err, tidemark_raft::Error::Membership(_)), "{err}");
        assert!(leader.is_leader());
        leader.append(batch_for(1, 5, 4), None).await.unwrap();

        // A hand-off to a voter goes through: the leadership moves to a
        // voter (the one asked, or another that won the election it
        // started), never to the learner. Asked again while the old leader
        // still leads: the target must hold the whole log first.
        let old = leader.node_id();
        let to = nodes.iter().find(|n| n.node_id() != old).unwrap().node_id();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !nodes.iter().any(|n| n.node_id() != old && n.is_leader()) {
            assert!(
                Instant::now() < deadline,
                "no voter took the leadership: {:?}",
                nodes
                    .iter()
                    .map(|n| (n.node_id(), n.leader_id(), n.is_leader()))
                    .collect::<Vec<_>>()
            );
            if leader.is_leader() {
                leader.transfer_leadership(to).await.unwrap();
            }
            monoio::time::sleep(Duration::from_millis(200)).await;
        }
        assert!(!learner.is_leader());
        nodes.push(learner);
        for n in &nodes {
            n.close().await.unwrap();
        }
    });
    for d in dirs {
        let _ = std::fs::remove_dir_all(d);
    }
}
