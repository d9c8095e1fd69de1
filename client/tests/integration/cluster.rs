//! Routing in a three-broker cluster: leaders spread over the brokers,
//! produce and fetch go to each partition's leader, and a killed leader's
//! partitions are found again at their new leader.

use crate::common;
use std::collections::BTreeSet;
use std::time::Duration;

use tidemark_client::admin::NewTopic;
use tidemark_client::consumer::{Fetcher, FetcherConfig, StartOffset};
use tidemark_client::producer::{Producer, ProducerConfig, ProducerRecord};
use tidemark_client::{Client, Config};

#[test]
fn three_brokers_routing_and_leader_failover() {
    let Some(mut brokers) = common::start_cluster(3, &[]) else {
        panic!("the three brokers did not start");
    };
    let mut cfg = Config::new(brokers.iter().map(common::Broker::addr));
    cfg.request_timeout_ms = 5_000;
    cfg.retries = 30;
    cfg.retry_backoff_ms = 100;
    let c = Client::connect(cfg).unwrap();
    let r = c
        .create_topics(&[NewTopic::new("spread", 6, 3)], false)
        .unwrap();
    r[0].1.as_ref().unwrap();
    let leaders: BTreeSet<i32> = (0..6).map(|p| c.leader_for("spread", p).unwrap()).collect();
    assert!(
        leaders.len() >= 2,
        "leaders spread over brokers: {leaders:?}"
    );

    let p = Producer::new(c.clone(), ProducerConfig::default()).unwrap();
    let hs: Vec<_> = (0..60)
        .map(|i| {
            p.send(ProducerRecord::new("spread", format!("a{i}")).key(format!("k{i}")))
                .unwrap()
        })
        .collect();
    p.flush().unwrap();
    for h in &hs {
        h.wait().unwrap();
    }

    // Kill the leader of partition 0 (not the broker this client
    // bootstrapped from first); the client finds the new leaders.
    let victim = c.leader_for("spread", 0).unwrap();
    brokers[(victim - 1) as usize].kill();
    let hs: Vec<_> = (0..60)
        .map(|i| {
            p.send(ProducerRecord::new("spread", format!("b{i}")).key(format!("k{i}")))
                .unwrap()
        })
        .collect();
    p.flush().unwrap();
    for h in &hs {
        let r = h.wait();
        assert!(r.is_ok(), "after the leader died: {r:?}");
    }
    assert_ne!(c.leader_for("spread", 0).unwrap(), victim);

    let mut f = Fetcher::new(c.clone(), FetcherConfig::default());
    f.assign(
        (0..6)
            .map(|p| ("spread".to_string(), p, StartOffset::Earliest))
            .collect(),
    )
    .unwrap();
    let mut got = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while got.len() < 120 && std::time::Instant::now() < deadline {
        got.extend(f.poll(500).unwrap());
    }
    let values: BTreeSet<String> = got
        .iter()
        .map(|r| String::from_utf8(r.value.clone().unwrap().to_vec()).unwrap())
        .collect();
    assert_eq!(values.len(), 120, "every record once");
    assert_eq!(got.len(), 120, "no duplicates (idempotent retries)");
}
