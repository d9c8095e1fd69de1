//! A single-voter partition group: the broker's single-node write path.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::*;
use tidemark_raft::{NoPeers, PartitionReplica, ReplicaConfig};

/// Appends one batch per seed (`records` records of `size` bytes each);
/// returns the offset after the last.
async fn append_seeds(
    r: &PartitionReplica,
    seeds: std::ops::Range<u64>,
    records: usize,
    size: usize,
) -> i64 {
    let mut next = 0;
    for seed in seeds {
        next = r
            .append(batch_for(seed, records, size), None)
            .await
            .unwrap()
            .last_offset
            + 1;
    }
    next
}

#[test]
fn appends_commit_contiguously_and_survive_reopen() {
    let dir = test_dir("single");
    run(async {
        let r = open_single(&dir, config()).await;
        assert!(r.is_leader());
        assert_eq!(r.leader_id(), Some(1));
        let epoch1 = r.leader_epoch();
        assert!(epoch1 >= 1, "elected in a term >= 1, got {epoch1}");
        // openraft's membership and blank entries take no offset: the
        // first data batch of a new partition is at offset 0.
        assert_eq!(r.high_watermark(), 0);
        assert_eq!(r.log().log_end_offset(), 0);

        let n = 200u64;
        let mut next = 0;
        for seed in 0..n {
            let info = r.append(batch_for(seed, 10, 100), None).await.unwrap();
            assert_eq!(info.base_offset, next, "offsets are contiguous");
            assert_eq!(info.last_offset, next + 9);
            next = info.last_offset + 1;
            // Returned only once committed: the high watermark is past it
            // and it is on disk.
            assert!(r.high_watermark() > info.last_offset);
            assert!(r.log().durable_offset() > info.last_offset);
        }
        assert_eq!(r.high_watermark(), next);
        assert_eq!(r.log().log_end_offset(), next);

        let batches = read_all(r.log(), 0, next).await;
        assert_eq!(batches.len() as u64, n, "only data batches in the log");
        for (seed, b) in batches.iter().enumerate() {
            assert!(!b.is_control());
            assert_eq!(b.partition_leader_epoch(), epoch1, "epoch = term");
            b.verify_crc().unwrap();
            assert_eq!(first_value(b), first_value_of_seed(seed as u64));
        }
        r.close().await.unwrap();
        drop(r);

        // Reopen: the committed batches are there, the high watermark is
        // recovered before any election, and the new term is higher.
        let r = PartitionReplica::open(
            &dir,
            config(),
            1,
            BTreeSet::from([1]),
            NoPeers,
            ReplicaConfig::default(),
        )
        .await
        .unwrap();
        assert!(
            r.high_watermark() >= next,
            "hw recovered: {}",
            r.high_watermark()
        );
        // A clean stop left everything applied under its own leadership:
        // the replica starts asleep (no openraft instance) in its term.
        assert!(r.is_hibernating(), "a clean reopen starts hibernating");
        assert!(r.is_leader());
        assert_eq!(r.leader_epoch(), epoch1, "a clean reopen keeps its term");
        r.wait_for_leader(Duration::from_secs(5)).await.unwrap();
        assert_eq!(r.high_watermark(), next);
        let info = r.append(batch_for(n, 5, 100), None).await.unwrap();
        assert_eq!(info.base_offset, next);
        assert!(!r.is_hibernating(), "a write wakes it");
        let batches = read_all(r.log(), 0, info.last_offset + 1).await;
        assert_eq!(batches.len() as u64, n + 1);
        assert_eq!(batches.last().unwrap().partition_leader_epoch(), epoch1);
        assert_eq!(r.log().epochs(), vec![(epoch1, 0)]);
        r.close().await.unwrap();
        drop(r);

        // A state that does not say everything is applied (as after a
        // crash between writes and the state's next save): the replica
        // elects itself in a new term, and the new leader's blank entry
        // takes no offset (dense across restarts).
        let next = info.last_offset + 1;
        let text = tidemark_raft::read_state_text(&dir).unwrap().unwrap();
        let unclean: String = text
            .lines()
            .map(|l| {
                if l.starts_with("applied ") {
                    "applied -"
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n";
        tidemark_raft::write_state_text(&dir, &unclean).unwrap();
        let r = open_single(&dir, config()).await;
        assert!(!r.is_hibernating());
        let epoch2 = r.leader_epoch();
        assert!(epoch2 > epoch1, "new term {epoch2} > {epoch1}");
        assert_eq!(r.high_watermark(), next);
        let info = r.append(batch_for(n, 5, 100), None).await.unwrap();
        assert_eq!(info.base_offset, next);
        assert_eq!(r.log().epochs(), vec![(epoch1, 0), (epoch2, next)]);
        r.close().await.unwrap();
        drop(r);

        // Several restarts in a row (each a new term and a blank entry,
        // none of them with data) still leave no hole.
        let mut end = info.last_offset + 1;
        let n = n + 1;
        for round in 0..3 {
            let r = open_single(&dir, config()).await;
            assert_eq!(r.high_watermark(), end);
            if round == 2 {
                let i = r.append(batch_for(n + 1, 3, 10), None).await.unwrap();
                assert_eq!(i.base_offset, end);
                end = i.last_offset + 1;
            }
            r.close().await.unwrap();
        }
        let r = open_single(&dir, config()).await;
        assert_eq!(r.high_watermark(), end);
        let batches = read_all(r.log(), 0, end).await;
        assert_eq!(batches.len() as u64, n + 2);
        let mut o = 0;
        for b in &batches {
            assert_eq!(b.base_offset(), o, "dense");
            o = b.next_offset();
        }
        r.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
}

fn first_value_of_seed(seed: u64) -> bytes::Bytes {
    let b = batch_for(seed, 1, 100).freeze();
    first_value(&kafka_protocol::records::RecordBatch::new(b).unwrap())
}

#[test]
fn invalid_batches_never_enter_the_log() {
    let dir = test_dir("invalid");
    run(async {
        let r = open_single(&dir, config()).await;
        let mut bad = batch_for(1, 3, 10);
        let last = bad.len() - 1;
        bad[last] ^= 0xff;
        assert!(matches!(
            r.append(bad, None).await,
            Err(tidemark_raft::Error::InvalidBatch(_))
        ));
        let huge = batch_for(2, 2, 2 << 20);
        assert!(matches!(
            r.append(huge, None).await,
            Err(tidemark_raft::Error::BatchTooLarge { .. })
        ));
        let before = r.log().log_end_offset();
        let ok = r.append(batch_for(3, 3, 10), None).await.unwrap();
        assert_eq!(ok.base_offset, before);
        r.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
}

const CHILD_ENV: &str = "TIDEMARK_RAFT_CRASH_CHILD_DIR";

/// The child of `acknowledged_batches_survive_kill_9`: appends until
/// killed (bounded: 20,000 batches or 60 s), printing each acknowledged
/// batch. In a normal test run (no child variable) it returns at once.
#[test]
fn crash_child() {
    let Ok(dir) = std::env::var(CHILD_ENV) else {
        return;
    };
    run(async {
        let r = open_single(Path::new(&dir), config()).await;
        println!("epoch {}", r.leader_epoch());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        for seed in 0..20_000 {
            if std::time::Instant::now() > deadline {
                break;
            }
            let info = r.append(batch_for(seed, 4, 200), None).await.unwrap();
            println!("acked {seed} {} {}", info.base_offset, info.last_offset);
        }
    });
}

#[test]
fn acknowledged_batches_survive_kill_9() {
    let dir = test_dir("crash");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "single_voter::crash_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, &dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut epoch = 0;
    let mut acked = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["epoch", e] => epoch = e.parse().unwrap(),
            ["acked", s, b, l] => {
                acked.push((
                    s.parse::<u64>().unwrap(),
                    b.parse::<i64>().unwrap(),
                    l.parse::<i64>().unwrap(),
                ));
                if acked.len() == 300 {
                    break;
                }
            }
            _ => {}
        }
    }
    // SIGKILL mid-stream: appends are in flight.
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(acked.len(), 300, "child acknowledged 300 batches");
    let last_acked = acked.last().unwrap().2;
    run(async {
        let r = PartitionReplica::open(
            &dir,
            config(),
            1,
            BTreeSet::from([1]),
            NoPeers,
            ReplicaConfig::default(),
        )
        .await
        .unwrap();
        // Open returns only once the whole log is committed and applied:
        // readers that start right away (the group coordinator's replay of
        // __consumer_offsets) see every acknowledged batch, with no wait.
        assert!(
            r.high_watermark() > last_acked,
            "every acknowledged batch is below the high watermark at open ({} <= {last_acked})",
            r.high_watermark()
        );
        r.wait_for_leader(Duration::from_secs(5)).await.unwrap();
        assert!(r.leader_epoch() > epoch);
        let batches = read_all(r.log(), 0, last_acked + 1).await;
        let data: Vec<_> = batches.iter().filter(|b| !b.is_control()).collect();
        for (seed, base, last) in &acked {
            let b = data
                .iter()
                .find(|b| b.base_offset() == *base)
                .unwrap_or_else(|| panic!("acked batch {seed} at {base} is missing"));
            assert_eq!(b.last_offset(), *last);
            b.verify_crc().unwrap();
            let want = batch_for(*seed, 4, 200).freeze();
            let want = kafka_protocol::records::RecordBatch::new(want).unwrap();
            assert_eq!(first_value(b), first_value(&want));
        }
        // And the group still works.
        let info = r.append(batch_for(9999, 1, 10), None).await.unwrap();
        assert!(info.base_offset > last_acked);
        r.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
}

/// An idle single-voter group stops its openraft instance and starts it
/// again on the next write, in the same term (same Kafka leader epoch),
/// with offsets going on densely; concurrent writes share one wake-up.
#[test]
fn idle_group_hibernates_and_wakes_in_the_same_epoch() {
    let dir = test_dir("hibernate");
    run(async {
        let r = open_single(&dir, config()).await;
        let epoch = r.leader_epoch();
        let mut next = append_seeds(&r, 0..10, 3, 50).await;
        // Not idle long enough.
        assert!(!r.hibernate_if_idle(Duration::from_secs(60)).await.unwrap());
        assert!(!r.is_hibernating());
        assert!(r.hibernate_if_idle(Duration::ZERO).await.unwrap());
        assert!(r.is_hibernating() && r.raft().is_none());
        // Asleep it still answers as the leader, in its epoch.
        assert!(r.is_leader());
        assert_eq!(r.leader_id(), Some(1));
        assert_eq!(r.leader_epoch(), epoch);
        assert_eq!(r.high_watermark(), next);

        // Concurrent writes wake it once and land densely, same epoch.
        let mut hs = Vec::new();
        for seed in 10..20 {
            let r = r.clone();
            hs.push(monoio::spawn(async move {
                r.append(batch_for(seed, 3, 50), None).await.unwrap()
            }));
        }
        let mut infos = Vec::new();
        for h in hs {
            infos.push(h.await);
        }
        infos.sort_by_key(|i| i.base_offset);
        for i in &infos {
            assert_eq!(i.base_offset, next);
            next = i.last_offset + 1;
        }
        assert!(!r.is_hibernating());
        assert_eq!(r.leader_epoch(), epoch, "woke in the same term");
        let batches = read_all(r.log(), 0, next).await;
        assert!(batches.iter().all(|b| b.partition_leader_epoch() == epoch));

        // Retention while asleep purges without waking openraft.
        assert!(r.hibernate_if_idle(Duration::ZERO).await.unwrap());
        r.release_prefix_to(i64::MAX).await.unwrap();
        assert!(r.is_hibernating());
        assert_eq!(r.log().max_collectible_offset(), next);
        assert_eq!(r.delete_records(next - 3).await.unwrap(), next - 3);
        let i = r.append(batch_for(20, 1, 5), None).await.unwrap();
        assert_eq!(i.base_offset, next);
        next += 1;
        assert_eq!(r.leader_epoch(), epoch);

        // Closed while asleep, reopened: asleep again in the same term,
        // nothing lost.
        assert!(r.hibernate_if_idle(Duration::ZERO).await.unwrap());
        r.close().await.unwrap();
        drop(r);
        let r = open_single(&dir, config()).await;
        assert!(r.is_hibernating());
        assert_eq!(r.leader_epoch(), epoch);
        assert_eq!(r.high_watermark(), next);
        assert_eq!(r.log().log_start_offset(), next - 4);
        let i = r.append(batch_for(21, 1, 5), None).await.unwrap();
        assert_eq!(i.base_offset, next);
        r.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
}

/// A partition from before the two-slot state file (one `raft-state`
/// replaced by rename) opens with its state, takes writes, and leaves
/// only the slots behind.
#[test]
fn a_state_file_in_the_first_format_is_read_and_replaced_by_slots() {
    let dir = test_dir("first-format");
    run(async {
        let r = open_single(&dir, config()).await;
        let next = append_seeds(&r, 0..3, 2, 10).await;
        let epoch = r.leader_epoch();
        r.close().await.unwrap();
        drop(r);
        let text = tidemark_raft::read_state_text(&dir).unwrap().unwrap();
        for slot in ["raft-state.0", "raft-state.1"] {
            std::fs::remove_file(dir.join(slot)).ok();
        }
        std::fs::write(dir.join("raft-state"), &text).unwrap();

        let r = open_single(&dir, config()).await;
        assert_eq!(r.high_watermark(), next, "the old file's state is read");
        assert_eq!(r.leader_epoch(), epoch);
        let i = r.append(batch_for(9, 1, 10), None).await.unwrap();
        assert_eq!(i.base_offset, next);
        r.close().await.unwrap();
        drop(r);
        assert!(!dir.join("raft-state").exists(), "the old file is removed");
        assert!(dir.join("raft-state.0").exists() || dir.join("raft-state.1").exists());
        let r = open_single(&dir, config()).await;
        assert_eq!(r.high_watermark(), next + 1);
        r.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
}

/// openraft's non-data entries live in `raft-state`. One recorded past
/// the recovered log end (its preceding data was never synced before a
/// crash) is dropped at open, for good; one that contradicts the log is
/// refused rather than guessed around.
#[test]
fn state_file_entries_past_the_log_end_are_dropped_and_contradictions_refused() {
    let dir = test_dir("side");
    run(async {
        let r = open_single(&dir, config()).await;
        let mut next = append_seeds(&r, 0..5, 2, 10).await;
        r.close().await.unwrap();
        drop(r);
        let read = || tidemark_raft::read_state_text(&dir).unwrap().unwrap();
        let write = |text: &str| tidemark_raft::write_state_text(&dir, text).unwrap();
        let good = read();
        // "applied <term> <index> <next offset>"
        let applied: Vec<u64> = good
            .lines()
            .find_map(|l| l.strip_prefix("applied "))
            .unwrap()
            .split(' ')
            .map(|w| w.parse().unwrap())
            .collect();
        let (term, index) = (applied[0], applied[1]);
        let with = |line: String| good.replace("end\n", &format!("{line}\nend\n"));

        write(&with(format!(
            "entry {term} {} {} blank",
            index + 1,
            next + 7
        )));
        let r = open_single(&dir, config()).await;
        assert!(!read().contains(&format!(" {} blank", next + 7)));
        let i = r.append(batch_for(9, 1, 10), None).await.unwrap();
        assert_eq!(i.base_offset, next);
        next += 1;
        r.close().await.unwrap();
        drop(r);

        let good = read();
        let bad = good.replace(
            "end\n",
            &format!("entry {term} {} {next} blank\nend\n", index + 1000),
        );
        write(&bad);
        match PartitionReplica::open(
            &dir,
            config(),
            1,
            BTreeSet::from([1]),
            NoPeers,
            ReplicaConfig::default(),
        )
        .await
        {
            Err(tidemark_raft::Error::CorruptState(m)) => {
                assert!(m.contains("does not follow"), "{m}")
            }
            Err(e) => panic!("unexpected error: {e}"),
            Ok(_) => panic!("a contradicting state file was accepted"),
        }
        write("tidemark-raft-state 2\nvote 1 1 x\nend\n");
        assert!(matches!(
            PartitionReplica::open(
                &dir,
                config(),
                1,
                BTreeSet::from([1]),
                NoPeers,
                ReplicaConfig::default()
            )
            .await,
            Err(tidemark_raft::Error::CorruptState(_))
        ));
    });
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_log_written_before_raft_is_adopted_by_a_single_voter_and_refused_with_others() {
    let dir = test_dir("adopt");
    run(async {
        // A partition folder from before Raft was on the write path: data,
        // no raft-state.
        let log = tidemark_storage::Log::open(&dir, config()).await.unwrap();
        for seed in 0..5u64 {
            log.append(batch_for(seed, 10, 100), 0, None).await.unwrap();
        }
        log.flush().await.unwrap();
        log.close().await.unwrap();
        drop(log);

        // With other voters, nobody can tell whether this copy is current.
        let refused = PartitionReplica::open(
            &dir,
            config(),
            1,
            BTreeSet::from([1, 2, 3]),
            NoPeers,
            ReplicaConfig::default(),
        )
        .await;
        assert!(
            matches!(refused, Err(tidemark_raft::Error::ForeignLog(_))),
            "{:?}",
            refused.err()
        );

        // Alone, the replica adopts it: every old record stays visible and
        // new ones follow it.
        let r = open_single(&dir, config()).await;
        assert_eq!(r.log().log_end_offset(), 50);
        assert_eq!(r.high_watermark(), 50);
        assert_eq!(
            read_all(r.log(), 0, 50).await.len(),
            5,
            "the old batches are readable"
        );
        let info = r.append(batch_for(99, 10, 100), None).await.unwrap();
        assert_eq!(info.base_offset, 50);
        assert!(r.high_watermark() > info.last_offset);
        r.close().await.unwrap();
        drop(r);

        // And it reopens like any replica.
        let r = open_single(&dir, config()).await;
        assert_eq!(r.high_watermark(), 60);
        assert_eq!(read_all(r.log(), 0, 60).await.len(), 6);
        r.close().await.unwrap();
    });
}

/// A copy of a replica's folder taken while it runs (what a kill -9
/// leaves: every acknowledged batch durable, the state file saved before
/// the last writes) opens asleep in the same term, with everything the
/// log holds committed; the next write goes on densely in that term.
#[test]
fn a_killed_single_voter_catches_up_from_its_log_without_an_election() {
    let dir = test_dir("killed");
    let copy = test_dir("killed-copy");
    run(async {
        let r = open_single(&dir, config()).await;
        let epoch = r.leader_epoch();
        for seed in 0..5 {
            r.append(batch_for(seed, 2, 20), None).await.unwrap();
        }
        // The state file now says everything up to here is applied.
        assert!(r.hibernate_if_idle(Duration::ZERO).await.unwrap());
        let next = append_seeds(&r, 5..12, 2, 20).await;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
        }
        let stale = tidemark_raft::read_state_text(&copy).unwrap().unwrap();
        let applied_next: i64 = stale
            .lines()
            .find_map(|l| l.strip_prefix("applied "))
            .and_then(|l| l.rsplit(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(applied_next < next, "the copied state lags the log");
        r.close().await.unwrap();

        let k = open_single(&copy, config()).await;
        assert!(k.is_hibernating(), "no election: it opens asleep");
        assert_eq!(k.leader_epoch(), epoch);
        assert_eq!(
            k.high_watermark(),
            next,
            "everything in the log is committed"
        );
        let i = k.append(batch_for(99, 1, 20), None).await.unwrap();
        assert_eq!(i.base_offset, next);
        let batches = read_all(k.log(), 0, next + 1).await;
        assert_eq!(batches.len(), 13);
        assert!(batches.iter().all(|b| b.partition_leader_epoch() == epoch));
        k.close().await.unwrap();
    });
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&copy).ok();
}
