//! Producing with every codec and reading back, the idempotent producer,
//! pre-built batches, and a consumer group resuming from its commits.

use crate::common;
use std::time::Duration;

use bytes::Bytes;
use tidemark_client::admin::NewTopic;
use tidemark_client::consumer::{
    ConsumedRecord, Fetcher, FetcherConfig, GroupConfig, GroupConsumer, StartOffset,
};
use tidemark_client::kafka_protocol::records::{NewRecord, RecordBatchBuilder};
use tidemark_client::partitioner::partition_for_key;
use tidemark_client::producer::{Producer, ProducerConfig, ProducerRecord};
use tidemark_client::{Client, Compression};

fn create(c: &Client, name: &str, partitions: i32) {
    let r = c
        .create_topics(&[NewTopic::new(name, partitions, 1)], false)
        .unwrap();
    r[0].1.as_ref().unwrap();
}

/// Reads from the start of every partition until `n` records came (20 s at most).
fn read_all(c: &Client, topic: &str, partitions: i32, n: usize) -> Vec<ConsumedRecord> {
    let mut f = Fetcher::new(c.clone(), FetcherConfig::default());
    f.assign(
        (0..partitions)
            .map(|p| (topic.to_string(), p, StartOffset::Earliest))
            .collect(),
    )
    .unwrap();
    let mut out = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while out.len() < n && std::time::Instant::now() < deadline {
        out.extend(f.poll(500).unwrap());
    }
    out
}

#[test]
fn every_codec_round_trips_keys_headers_timestamps() {
    let Some(b) = common::start(common::Opts::default()) else {
        return;
    };
    let c = b.client();
    for codec in Compression::ALL {
        let topic = format!("codec-{codec}");
        create(&c, &topic, 3);
        let p = Producer::new(
            c.clone(),
            ProducerConfig {
                compression: codec,
                linger_ms: 20,
                ..Default::default()
            },
        )
        .unwrap();
        let mut handles = Vec::new();
        for i in 0..50i64 {
            let rec = ProducerRecord::new(&topic, format!("value-{i}"))
                .key(format!("key-{i}"))
                .header("h", Some(Bytes::from(format!("hv{i}"))))
                .header("null", None)
                .timestamp(1_700_000_000_000 + i);
            handles.push((i, p.send(rec).unwrap()));
        }
        p.flush().unwrap();
        for (i, h) in &handles {
            let (part, off) = h.wait().unwrap();
            assert_eq!(
                part,
                partition_for_key(format!("key-{i}").as_bytes(), 3),
                "murmur2 placement"
            );
            assert!(off >= 0);
        }
        drop(p);
        let mut got = read_all(&c, &topic, 3, 50);
        assert_eq!(got.len(), 50, "{codec}");
        got.sort_by_key(|r| r.timestamp);
        for (i, r) in got.iter().enumerate() {
            assert_eq!(
                r.value.as_deref(),
                Some(format!("value-{i}").as_bytes()),
                "{codec}"
            );
            assert_eq!(r.key.as_deref(), Some(format!("key-{i}").as_bytes()));
            assert_eq!(r.timestamp, 1_700_000_000_000 + i as i64);
            assert_eq!(
                r.headers,
                vec![
                    ("h".to_string(), Some(Bytes::from(format!("hv{i}")))),
                    ("null".to_string(), None)
                ]
            );
            let (part, off) = handles[i].1.wait().unwrap();
            assert_eq!(
                (r.partition, r.offset),
                (part, off),
                "reported offset is where it landed"
            );
        }
    }
}

#[test]
fn idempotent_and_acks_variants_and_prebuilt_batches() {
    let Some(b) = common::start(common::Opts::default()) else {
        return;
    };
    let c = b.client();
    create(&c, "idem", 1);
    let p = Producer::new(c.clone(), ProducerConfig::default()).unwrap();
    let (pid, _epoch) = p.producer_id();
    assert!(pid >= 0, "idempotent producer got an id");
    let hs: Vec<_> = (0..200)
        .map(|i| {
            p.send(ProducerRecord::new("idem", format!("{i}")).partition(0))
                .unwrap()
        })
        .collect();
    p.flush().unwrap();
    let offsets: Vec<i64> = hs.iter().map(|h| h.wait().unwrap().1).collect();
    assert_eq!(
        offsets,
        (0..200).collect::<Vec<_>>(),
        "in order, no gaps, no duplicates"
    );
    drop(p);
    let got = read_all(&c, "idem", 1, 200);
    assert_eq!(got.len(), 200);
    assert!(
        got.iter()
            .enumerate()
            .all(|(i, r)| r.value.as_deref() == Some(i.to_string().as_bytes()))
    );

    // acks=1 and acks=0 without idempotence.
    for acks in [1i16, 0] {
        let p = Producer::new(
            c.clone(),
            ProducerConfig {
                acks,
                idempotent: false,
                ..Default::default()
            },
        )
        .unwrap();
        let h = p
            .send(ProducerRecord::new("idem", "x").partition(0))
            .unwrap();
        p.flush().unwrap();
        let (_, off) = h.wait().unwrap();
        if acks == 0 {
            assert_eq!(off, -1);
        } else {
            assert_eq!(off, 200);
        }
    }
    assert!(
        Producer::new(
            c.clone(),
            ProducerConfig {
                acks: 1,
                idempotent: true,
                ..Default::default()
            }
        )
        .is_err()
    );

    // Pre-built batches, pipelined on one connection.
    create(&c, "raw", 1);
    let batch = RecordBatchBuilder::new()
        .records((0..10).map(|i| NewRecord::new(format!("r{i}")).with_timestamp(1)))
        .compression(Compression::Lz4)
        .build()
        .unwrap();
    let pending: Vec<_> = (0..8)
        .map(|_| c.produce_batch_async("raw", 0, batch.clone(), -1).unwrap())
        .collect();
    let bases: Vec<i64> = pending.into_iter().map(|p| p.wait().unwrap()).collect();
    assert_eq!(bases, (0..8).map(|i| i * 10).collect::<Vec<_>>());
    assert_eq!(c.produce_batch("raw", 0, batch, -1).unwrap(), 80);
    let err = c
        .produce_batch("raw", 5, Bytes::from_static(b"x"), -1)
        .unwrap_err();
    assert_eq!(
        err.kafka_code(),
        Some(tidemark_client::ErrorCode::UnknownTopicOrPartition),
        "{err}"
    );
    let got = read_all(&c, "raw", 1, 90);
    assert_eq!(got.len(), 90);
    assert_eq!(got[89].offset, 89);

    // Start offsets.
    let mut f = Fetcher::new(c.clone(), FetcherConfig::default());
    f.assign(vec![("raw".into(), 0, StartOffset::Offset(85))])
        .unwrap();
    let r = f.poll(5000).unwrap();
    assert_eq!(r.first().map(|r| r.offset), Some(85));
    f.seek("raw", 0, StartOffset::Latest).unwrap();
    assert_eq!(f.position("raw", 0), Some(90));
    assert!(f.poll(200).unwrap().is_empty());
    // By timestamp: every raw record has timestamp 1.
    f.seek("raw", 0, StartOffset::Timestamp(1)).unwrap();
    assert_eq!(f.position("raw", 0), Some(0));
    f.seek("raw", 0, StartOffset::Timestamp(2)).unwrap();
    assert_eq!(
        f.position("raw", 0),
        Some(90),
        "no record that late: the end"
    );
    f.seek("raw", 0, StartOffset::Offset(1_000_000)).unwrap();
    let _ = f.poll(1000).unwrap();
    assert!(
        f.position("raw", 0).is_some_and(|p| p <= 90),
        "out of range resets to earliest"
    );
}

#[test]
fn group_consumer_resumes_from_commits() {
    let Some(b) = common::start(common::Opts::default()) else {
        return;
    };
    let c = b.client();
    create(&c, "grp", 2);
    let p = Producer::new(c.clone(), ProducerConfig::default()).unwrap();
    for i in 0..20 {
        p.send(ProducerRecord::new("grp", format!("a{i}")).key(format!("k{i}")))
            .unwrap();
    }
    p.flush().unwrap();

    let cfg = || {
        let mut g = GroupConfig::new("g1");
        g.session_timeout_ms = 10_000;
        g.heartbeat_interval_ms = 500;
        g
    };
    let mut g = GroupConsumer::new(c.clone(), cfg()).unwrap();
    g.subscribe(vec!["grp".into()]).unwrap();
    let mut got = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while got.len() < 20 && std::time::Instant::now() < deadline {
        got.extend(g.poll(500).unwrap());
    }
    assert_eq!(got.len(), 20);
    assert_eq!(g.assignment().len(), 2);
    g.commit().unwrap();
    g.close().unwrap();

    let committed = c.offset_fetch("g1", None).unwrap();
    let total: i64 = committed
        .iter()
        .map(|(_, r)| r.as_ref().unwrap().offset)
        .sum();
    assert_eq!(total, 20);
    let groups = c.list_groups().unwrap();
    assert!(groups.iter().any(|g| g.group_id == "g1"), "{groups:?}");

    for i in 0..5 {
        p.send(ProducerRecord::new("grp", format!("b{i}")).key(format!("k{i}")))
            .unwrap();
    }
    p.flush().unwrap();
    let mut g = GroupConsumer::new(c.clone(), cfg()).unwrap();
    g.subscribe(vec!["grp".into()]).unwrap();
    let mut got = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while got.len() < 5 && std::time::Instant::now() < deadline {
        got.extend(g.poll(500).unwrap());
    }
    let mut values: Vec<String> = got
        .iter()
        .map(|r| String::from_utf8(r.value.clone().unwrap().to_vec()).unwrap())
        .collect();
    values.sort();
    assert_eq!(
        values,
        (0..5).map(|i| format!("b{i}")).collect::<Vec<_>>(),
        "resumed after the commits, nothing re-read"
    );
    let d = c.describe_groups(&["g1".into()]).unwrap();
    let desc = d[0].1.as_ref().unwrap();
    assert_eq!(desc.members.len(), 1);
    assert_eq!(desc.protocol, "range");
    assert_eq!(desc.members[0].assignment.len(), 2);
    g.close().unwrap();
    let r = c.delete_groups(&["g1".into()]).unwrap();
    assert!(r[0].1.is_ok(), "{:?}", r[0].1);
}

/// A transaction aborted through the raw API (InitProducerId,
/// AddPartitionsToTxn, a transactional Produce, EndTxn) is invisible under
/// read_committed, visible under read_uncommitted; markers never show.
#[test]
fn read_committed_skips_aborted_transactions() {
    use tidemark_client::Route;
    use tidemark_client::consumer::IsolationLevel;
    use tidemark_client::kafka_protocol::generated::add_partitions_to_txn_request::AddPartitionsToTxnTopic;
    use tidemark_client::kafka_protocol::generated::produce_request::{
        PartitionProduceData, TopicProduceData,
    };
    use tidemark_client::kafka_protocol::generated::{
        AddPartitionsToTxnRequest, EndTxnRequest, InitProducerIdRequest, ProduceRequest,
    };

    let Some(b) = common::start(common::Opts::default()) else {
        return;
    };
    let c = b.client();
    create(&c, "txn", 1);
    let txn = "tx-1".to_string();
    let init = c
        .send(
            Route::TxnCoordinator(txn.clone()),
            InitProducerIdRequest {
                transactional_id: Some(txn.clone()),
                transaction_timeout_ms: 60_000,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(init.error_code, 0);
    let (pid, epoch) = (init.producer_id, init.producer_epoch);
    let mut committed_batches = 0;
    for (round, commit) in [(0, false), (1, true)] {
        let add = c
            .send_to_version(
                Route::TxnCoordinator(txn.clone()),
                AddPartitionsToTxnRequest {
                    v3_and_below_transactional_id: txn.clone(),
                    v3_and_below_producer_id: pid,
                    v3_and_below_producer_epoch: epoch,
                    v3_and_below_topics: vec![AddPartitionsToTxnTopic {
                        name: "txn".into(),
                        partitions: vec![0],
                        ..Default::default()
                    }],
                    ..Default::default()
                },
                3,
            )
            .unwrap();
        assert!(
            add.results_by_topic_v3_and_below.iter().all(|t| t
                .results_by_partition
                .iter()
                .all(|p| p.partition_error_code == 0)),
            "{add:?}"
        );
        let batch = RecordBatchBuilder::new()
            .producer(pid, epoch, round * 3)
            .transactional(true)
            .records((0..3).map(|i| NewRecord::new(format!("txn{round}-{i}"))))
            .build()
            .unwrap();
        let resp = c
            .send(
                Route::Leader {
                    topic: "txn".into(),
                    partition: 0,
                },
                ProduceRequest {
                    transactional_id: Some(txn.clone()),
                    acks: -1,
                    timeout_ms: 10_000,
                    topic_data: vec![TopicProduceData {
                        name: "txn".into(),
                        partition_data: vec![PartitionProduceData {
                            index: 0,
                            records: Some(batch),
                            ..Default::default()
                        }],
                        ..Default::default()
                    }],
                    ..Default::default()
                },
            )
            .unwrap();
        assert_eq!(resp.responses[0].partition_responses[0].error_code, 0);
        // EndTxn v4: this is a transactions v1 flow (the producer keeps its
        // epoch); v5 would bump it (KIP-890) and the next round's
        // AddPartitionsToTxn under the old epoch would be fenced.
        let end = c
            .send_to_version(
                Route::TxnCoordinator(txn.clone()),
                EndTxnRequest {
                    transactional_id: txn.clone(),
                    producer_id: pid,
                    producer_epoch: epoch,
                    committed: commit,
                    ..Default::default()
                },
                4,
            )
            .unwrap();
        assert_eq!(end.error_code, 0);
        if commit {
            committed_batches += 1;
        }
    }
    assert_eq!(committed_batches, 1);
    c.produce_batch(
        "txn",
        0,
        RecordBatchBuilder::new()
            .record(NewRecord::new("plain"))
            .build()
            .unwrap(),
        -1,
    )
    .unwrap();

    let read = |isolation| {
        let mut f = Fetcher::new(
            c.clone(),
            FetcherConfig {
                isolation,
                ..Default::default()
            },
        );
        f.assign(vec![("txn".into(), 0, StartOffset::Earliest)])
            .unwrap();
        let mut got: Vec<String> = Vec::new();
        let deadline = std::time::Instant::now() + Duration::from_secs(15);
        while std::time::Instant::now() < deadline {
            got.extend(
                f.poll(300)
                    .unwrap()
                    .into_iter()
                    .map(|r| String::from_utf8(r.value.unwrap().to_vec()).unwrap()),
            );
            if got.last().map(String::as_str) == Some("plain") {
                break;
            }
        }
        got
    };
    assert_eq!(
        read(IsolationLevel::ReadCommitted),
        vec!["txn1-0", "txn1-1", "txn1-2", "plain"]
    );
    assert_eq!(
        read(IsolationLevel::ReadUncommitted),
        vec![
            "txn0-0", "txn0-1", "txn0-2", "txn1-0", "txn1-1", "txn1-2", "plain"
        ]
    );
}

#[test]
fn unkeyed_records_follow_the_partitioner() {
    use std::collections::BTreeMap;
    use tidemark_client::producer::Partitioner;
    let Some(b) = common::start(common::Opts::default()) else {
        return;
    };
    let c = b.client();
    create(&c, "unkeyed", 3);
    let spread = |partitioner, batch_max_bytes| {
        let p = Producer::new(
            c.clone(),
            ProducerConfig {
                partitioner,
                batch_max_bytes,
                ..Default::default()
            },
        )
        .unwrap();
        let hs: Vec<_> = (0..90)
            .map(|i| {
                p.send(ProducerRecord::new("unkeyed", format!("v{i}")))
                    .unwrap()
            })
            .collect();
        p.flush().unwrap();
        let mut counts = BTreeMap::new();
        for h in hs {
            *counts.entry(h.wait().unwrap().0).or_insert(0) += 1;
        }
        counts
    };
    let rr = spread(Partitioner::RoundRobin, 64 * 1024);
    assert_eq!(
        rr.values().copied().collect::<Vec<_>>(),
        vec![30, 30, 30],
        "{rr:?}"
    );
    let m = spread(Partitioner::Murmur2, 64 * 1024);
    assert_eq!(
        m.keys().copied().collect::<Vec<_>>(),
        vec![partition_for_key(&[], 3)],
        "{m:?}"
    );
    // Sticky: small batches move on from partition to partition.
    let sticky = spread(Partitioner::Murmur2Random, 200);
    assert!(sticky.len() >= 2, "{sticky:?}");
}

/// Two members of one group split four partitions two and two (range
/// assignor), the first one rejoining when its heartbeat hears of the
/// rebalance.
#[test]
fn two_members_split_the_partitions() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut opts = common::Opts::default();
    opts.settings
        .push(("group.initial.rebalance.delay.ms".into(), "0".into()));
    let Some(b) = common::start(opts) else { return };
    let c = b.client();
    create(&c, "split", 4);
    let done = Arc::new(AtomicBool::new(false));
    let member = |c: Client, done: Arc<AtomicBool>| {
        std::thread::spawn(move || {
            let mut g = GroupConfig::new("g2");
            g.session_timeout_ms = 10_000;
            g.heartbeat_interval_ms = 100;
            let mut g = GroupConsumer::new(c, g).unwrap();
            g.subscribe(vec!["split".into()]).unwrap();
            let deadline = std::time::Instant::now() + Duration::from_secs(25);
            let mut last = Vec::new();
            while !done.load(Ordering::SeqCst) && std::time::Instant::now() < deadline {
                g.poll(100).unwrap();
                last = g.assignment();
            }
            g.close().unwrap();
            last
        })
    };
    let a = member(c.clone(), done.clone());
    // Let the first member own everything before the second one comes.
    let described = common::wait_for(Duration::from_secs(10), || {
        let d = c.describe_groups(&["g2".into()]).ok()?;
        let g = d[0].1.as_ref().ok()?;
        (g.state == "Stable" && g.members.len() == 1 && g.members[0].assignment.len() == 4)
            .then_some(())
    });
    assert!(described.is_some(), "first member owns all four partitions");
    let bm = member(c.clone(), done.clone());
    let split = common::wait_for(Duration::from_secs(15), || {
        let d = c.describe_groups(&["g2".into()]).ok()?;
        let g = d[0].1.as_ref().ok()?;
        (g.state == "Stable"
            && g.members.len() == 2
            && g.members.iter().all(|m| m.assignment.len() == 2))
        .then_some(())
    });
    let snapshot = c.describe_groups(&["g2".into()]);
    std::thread::sleep(Duration::from_millis(300));
    done.store(true, Ordering::SeqCst);
    let (mut pa, mut pb) = (a.join().unwrap(), bm.join().unwrap());
    assert!(
        split.is_some(),
        "members split the partitions: {pa:?} {pb:?} {snapshot:?}"
    );
    assert_eq!((pa.len(), pb.len()), (2, 2));
    pa.append(&mut pb);
    pa.sort();
    assert_eq!(
        pa,
        (0..4).map(|p| ("split".to_string(), p)).collect::<Vec<_>>()
    );
}
