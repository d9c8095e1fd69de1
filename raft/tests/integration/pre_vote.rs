//! Pre-vote (openraft's `enable_pre_vote`, on in every replica): a
//! follower cut off from its group must not come back with a higher term
//! and depose a leader that kept a quorum all along. Without pre-vote the
//! cut-off follower starts an election, a new term, every election
//! timeout; once the split heals, that term reaches the leader (in the
//! follower's answer to its next append, or in a vote request), the
//! leader steps down and the partition has an election and a write pause
//! it did not need (in the broker: a new leader epoch on a partition the
//! split never took a majority from).

use std::time::{Duration, Instant};

use crate::common::*;
use tidemark_raft::LocalRouter;

/// A 3-voter group; one follower is isolated (every message to or from
/// it dropped) for ten election timeouts while the leader keeps writing
/// with the other follower, then healed. The leader must keep its
/// leadership and its term throughout, the healed follower must come
/// back in the same term (its pre-votes were refused or unreachable, so
/// it never bumped its term), and writes must go on and reach it.
#[test]
fn an_isolated_follower_returns_without_deposing_the_leader() {
    let dirs: Vec<_> = (1..=3).map(|i| test_dir(&format!("prevote-{i}"))).collect();
    run(async {
        let router = LocalRouter::new();
        let nodes = open_voters(&router, &dirs, [1, 2, 3]).await;
        let leader = one_leader(&nodes).await;
        let epoch = leader.leader_epoch();
        let mut end = 0;
        for seed in 0..5 {
            end = leader
                .append(batch_for(seed, 2, 16), None)
                .await
                .unwrap()
                .last_offset
                + 1;
        }
        for n in &nodes {
            until(
                "everyone to follow the leader",
                Duration::from_secs(5),
                || n.leader_id() == Some(leader.node_id()) && n.high_watermark() >= end,
            )
            .await;
        }

        // Isolate one follower for ten election timeouts; the leader and
        // the other follower are a quorum and go on writing.
        let cut = nodes.iter().find(|n| !n.is_leader()).unwrap().clone();
        let cut_raft = cut.raft().unwrap();
        router.remove(cut.node_id());
        let isolated_for = fast().election_timeout_max * 10;
        let healed_at = Instant::now() + isolated_for;
        let mut seed = 100;
        let mut cut_max_epoch = cut.leader_epoch();
        while Instant::now() < healed_at {
            end = leader
                .append(batch_for(seed, 2, 16), None)
                .await
                .unwrap_or_else(|e| panic!("write {seed} while a follower is cut off: {e}"))
                .last_offset
                + 1;
            seed += 1;
            cut_max_epoch = cut_max_epoch.max(cut.leader_epoch());
            monoio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(
            leader.is_leader(),
            "the leader lost its leadership while it had a quorum"
        );
        assert_eq!(leader.leader_epoch(), epoch);

        // Heal. For five more election timeouts the leader must stay the
        // leader in the same term, every replica must name it, and writes
        // must go on and reach the healed follower.
        router.register(cut.node_id(), cut_raft);
        let watch_until = Instant::now() + fast().election_timeout_max * 5;
        let mut writes_after_heal = 0;
        while Instant::now() < watch_until {
            assert!(
                leader.is_leader() && leader.leader_epoch() == epoch,
                "the leader was deposed after the split healed: leader {} is_leader={} \
                 epoch {} -> {}; the isolated follower reached epoch {}",
                leader.node_id(),
                leader.is_leader(),
                epoch,
                leader.leader_epoch(),
                cut_max_epoch.max(cut.leader_epoch()),
            );
            end = leader
                .append(batch_for(seed, 2, 16), None)
                .await
                .unwrap_or_else(|e| panic!("write {seed} after the split healed: {e}"))
                .last_offset
                + 1;
            seed += 1;
            writes_after_heal += 1;
            cut_max_epoch = cut_max_epoch.max(cut.leader_epoch());
            monoio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(writes_after_heal > 0);
        assert_eq!(
            cut_max_epoch, epoch,
            "the isolated follower bumped its term (its pre-votes must have been refused)"
        );
        until(
            "the healed follower to catch up",
            Duration::from_secs(10),
            || cut.high_watermark() >= end && cut.log().log_end_offset() >= end,
        )
        .await;
        for n in &nodes {
            assert_eq!(
                n.leader_id(),
                Some(leader.node_id()),
                "node {}",
                n.node_id()
            );
            assert_eq!(n.leader_epoch(), epoch, "node {}", n.node_id());
            assert_eq!(n.committed_epoch(), epoch, "node {}", n.node_id());
        }
        // Byte-identical logs: nothing the healed follower holds differs.
        let reference = read_all(leader.log(), 0, end).await;
        let theirs = read_all(cut.log(), 0, end).await;
        assert_eq!(theirs.len(), reference.len());
        for (a, b) in theirs.iter().zip(&reference) {
            assert_eq!(a.as_bytes(), b.as_bytes());
        }
        for n in &nodes {
            n.close().await.unwrap();
        }
    });
    for d in dirs {
        std::fs::remove_dir_all(d).ok();
    }
}
