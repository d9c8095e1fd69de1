//! Connect, metadata and topic administration against a real broker.

use crate::common;
use tidemark_client::admin::{AlterConfigOp, ConfigResource, NewTopic, OffsetSpec};
use tidemark_client::{Error, ErrorCode, Route};

#[test]
fn connect_metadata_and_topics() {
    let Some(b) = common::start(common::Opts::default()) else {
        return;
    };
    let c = b.client();
    let brokers = c.brokers();
    assert_eq!(brokers.len(), 1, "{brokers:?}");
    assert_eq!(brokers[0].port as u16, b.port);
    assert!(c.controller_id().is_some());
    let versions = c.api_versions(brokers[0].node_id).unwrap();
    assert!(
        versions
            .iter()
            .any(|(k, _, hi)| *k == tidemark_client::kafka_protocol::ApiKey::Produce && *hi >= 9)
    );

    // Create, and create again: TOPIC_ALREADY_EXISTS for that topic only.
    let r = c
        .create_topics(
            &[NewTopic::new("t1", 3, 1).config("retention.ms", "3600000")],
            false,
        )
        .unwrap();
    assert_eq!(r.len(), 1);
    let created = r[0].1.as_ref().unwrap();
    assert_eq!(created.partitions, 3);
    let r = c
        .create_topics(
            &[NewTopic::new("t1", 3, 1), NewTopic::new("t2", 2, 1)],
            false,
        )
        .unwrap();
    let t1 = r.iter().find(|(n, _)| n == "t1").unwrap();
    let err = t1.1.as_ref().unwrap_err();
    assert_eq!(
        err.kafka_code(),
        Some(ErrorCode::TopicAlreadyExists),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("TOPIC_ALREADY_EXISTS: "),
        "{err}"
    );
    assert!(r.iter().find(|(n, _)| n == "t2").unwrap().1.is_ok());

    let topics = c.list_topics().unwrap();
    let names: Vec<&str> = topics.iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"t1") && names.contains(&"t2"), "{names:?}");
    assert_eq!(
        topics
            .iter()
            .find(|t| t.name == "t1")
            .unwrap()
            .partitions
            .len(),
        3
    );

    // Configs: describe, alter, describe.
    let d = c
        .describe_configs(&[ConfigResource::topic("t1")], None, false)
        .unwrap();
    let entries = d[0].1.as_ref().unwrap();
    let ret = entries.iter().find(|e| e.name == "retention.ms").unwrap();
    assert_eq!(ret.value.as_deref(), Some("3600000"));
    let a = c
        .incremental_alter_configs(
            &[(
                ConfigResource::topic("t1"),
                vec![AlterConfigOp::Set("retention.ms".into(), "7200000".into())],
            )],
            false,
        )
        .unwrap();
    assert!(a[0].1.is_ok(), "{:?}", a[0].1);
    let d = c
        .describe_configs(
            &[ConfigResource::topic("t1")],
            Some(&["retention.ms".to_string()]),
            false,
        )
        .unwrap();
    assert_eq!(
        d[0].1.as_ref().unwrap()[0].value.as_deref(),
        Some("7200000")
    );
    let d = c
        .describe_configs(&[ConfigResource::topic("nope")], None, false)
        .unwrap();
    assert_eq!(
        d[0].1.as_ref().unwrap_err().kafka_code(),
        Some(ErrorCode::UnknownTopicOrPartition)
    );

    // Partitions.
    let r = c.create_partitions(&[("t2".into(), 4)], false).unwrap();
    assert!(r[0].1.is_ok(), "{:?}", r[0].1);
    assert_eq!(c.topic("t2").unwrap().partitions.len(), 4);

    // Offsets of an empty topic.
    let lo = c
        .list_offsets(
            &[("t1".into(), 0), ("t1".into(), 2)],
            OffsetSpec::Latest,
            false,
        )
        .unwrap();
    assert_eq!(lo.len(), 2);
    for (_, r) in &lo {
        assert_eq!(r.as_ref().unwrap().offset, 0);
    }

    // Cluster.
    let cl = c.describe_cluster().unwrap();
    assert_eq!(cl.brokers.len(), 1);
    assert_eq!(Some(cl.controller_id), c.controller_id());

    // Delete, and delete again: UNKNOWN_TOPIC_OR_PARTITION.
    let r = c.delete_topics(&["t1".into()]).unwrap();
    assert!(r[0].1.is_ok(), "{:?}", r[0].1);
    let r = c.delete_topics(&["t1".into()]).unwrap();
    assert_eq!(
        r[0].1.as_ref().unwrap_err().kafka_code(),
        Some(ErrorCode::UnknownTopicOrPartition)
    );
    let err = c.leader_for("t1", 0).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Kafka {
                code: ErrorCode::UnknownTopicOrPartition,
                ..
            }
        ),
        "{err}"
    );

    // Generic send, routed.
    let md = c
        .send(
            Route::Any,
            tidemark_client::kafka_protocol::generated::MetadataRequest {
                topics: Some(vec![]),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(md.brokers.len(), 1);
}

#[test]
fn connection_refused_is_an_io_error_naming_the_broker() {
    let port = common::free_port();
    let mut cfg = tidemark_client::Config::new([format!("127.0.0.1:{port}")]);
    cfg.retries = 0;
    cfg.request_timeout_ms = 1000;
    let err = tidemark_client::Client::connect(cfg).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err}");
    assert!(
        err.to_string().contains(&format!("127.0.0.1:{port}")),
        "{err}"
    );
}

#[test]
fn acls_records_log_dirs_offsets() {
    use tidemark_client::admin::{AclBinding, AclFilter, acl};
    let mut opts = common::Opts::default();
    opts.settings.push((
        "authorizer.class.name".into(),
        "org.apache.kafka.metadata.authorizer.StandardAuthorizer".into(),
    ));
    opts.settings
        .push(("super.users".into(), "User:ANONYMOUS".into()));
    let Some(b) = common::start(opts) else { return };
    let c = b.client();
    c.create_topics(&[NewTopic::new("r", 1, 1)], false).unwrap()[0]
        .1
        .as_ref()
        .unwrap();

    // ACLs: create, describe, delete.
    let binding = AclBinding {
        resource_type: acl::resource_type_code("topic").unwrap(),
        resource_name: "r".into(),
        pattern_type: acl::pattern_type_code("literal").unwrap(),
        principal: "User:alice".into(),
        host: "*".into(),
        operation: acl::operation_code("read").unwrap(),
        permission_type: acl::permission_code("allow").unwrap(),
    };
    let r = c.create_acls(std::slice::from_ref(&binding)).unwrap();
    assert!(r[0].is_ok(), "{:?}", r[0]);
    let all = c.describe_acls(&AclFilter::default()).unwrap();
    assert_eq!(all, vec![binding.clone()]);
    let deleted = c
        .delete_acls(&[AclFilter {
            principal: Some("User:alice".into()),
            ..Default::default()
        }])
        .unwrap();
    assert_eq!(deleted[0].as_ref().unwrap(), &vec![binding]);
    assert!(c.describe_acls(&AclFilter::default()).unwrap().is_empty());

    // DeleteRecords moves the low watermark; ListOffsets sees it.
    let batch = tidemark_client::kafka_protocol::records::RecordBatchBuilder::new()
        .records(
            (0..10)
                .map(|i| tidemark_client::kafka_protocol::records::NewRecord::new(format!("{i}"))),
        )
        .build()
        .unwrap();
    c.produce_batch("r", 0, batch, -1).unwrap();
    let d = c.delete_records(&[("r".into(), 0, 4)]).unwrap();
    assert_eq!(*d[0].1.as_ref().unwrap(), 4);
    let lo = c
        .list_offsets(&[("r".into(), 0)], OffsetSpec::Earliest, false)
        .unwrap();
    assert_eq!(lo[0].1.as_ref().unwrap().offset, 4);
    let d = c.delete_records(&[("r".into(), 3, 4)]).unwrap();
    assert_eq!(
        d[0].1.as_ref().unwrap_err().kafka_code(),
        Some(ErrorCode::UnknownTopicOrPartition)
    );

    // Simple offset commits (as a reset tool does), fetch, delete.
    let r = c.offset_commit("g-admin", &[("r".into(), 0, 7)]).unwrap();
    assert!(r[0].1.is_ok(), "{:?}", r[0].1);
    let f = c
        .offset_fetch("g-admin", Some(&[("r".into(), vec![0])]))
        .unwrap();
    assert_eq!(f[0].1.as_ref().unwrap().offset, 7);
    let r = c.offset_delete("g-admin", &[("r".into(), 0)]).unwrap();
    assert!(r[0].1.is_ok(), "{:?}", r[0].1);
    let f = c
        .offset_fetch("g-admin", Some(&[("r".into(), vec![0])]))
        .unwrap();
    assert_eq!(f[0].1.as_ref().unwrap().offset, -1);

    // Log dirs list the partition.
    let node = c.brokers()[0].node_id;
    let dirs = c.describe_log_dirs(node, None).unwrap();
    assert!(
        dirs.results
            .iter()
            .flat_map(|d| d.topics.iter())
            .any(|t| t.name == "r"),
        "{dirs:?}"
    );
    assert!(c.list_partition_reassignments(None).unwrap().is_empty());
}

#[test]
fn a_silent_broker_times_out() {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let t = std::thread::spawn(move || {
        // Accept one connection and say nothing until the client gives up.
        let s = l.accept().map(|(s, _)| s);
        std::thread::sleep(std::time::Duration::from_millis(1500));
        drop(s);
    });
    let mut cfg = tidemark_client::Config::new([addr.to_string()]);
    cfg.retries = 0;
    cfg.request_timeout_ms = 300;
    let started = std::time::Instant::now();
    let err = tidemark_client::Client::connect(cfg).unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_millis(1400));
    t.join().unwrap();
}
