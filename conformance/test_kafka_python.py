"""kafka-python (3.x, pure Python): message sizes, the admin API (create,
describe, legacy and incremental alter, partitions, DeleteRecords,
DescribeLogDirs, DescribeTopicPartitions, delete), offsets by time and
auto-creation through Metadata."""

import os
import time

import pytest

import clients
import harness
import rawkafka

BROKER_SETTINGS = {"num.partitions": "3", "auto.create.topics.enable": "true"}

MiB = 1024 * 1024


def test_messages_of_1_byte_1_kib_and_1_mib(broker):
    topic = harness.unique_topic("kp-sizes")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1, configs={"max.message.bytes": str(2 * MiB)})
    values = [os.urandom(1), os.urandom(1024), os.urandom(MiB)]
    msgs = [{"key": b"k%d" % len(v), "value": v, "headers": [("len", b"%d" % len(v))]}
            for v in values]
    offsets = clients.kp_produce(broker.bootstrap, topic, msgs, partition=0,
                                 conf={"max_request_size": 4 * MiB, "linger_ms": 0})
    assert offsets == [(0, 0), (0, 1), (0, 2)]
    got = clients.kp_consume(broker.bootstrap, topic, [0], 3,
                             conf={"max_partition_fetch_bytes": 4 * MiB,
                                   "fetch_max_bytes": 8 * MiB})
    assert clients.essence(got) == clients.essence(msgs)
    # and librdkafka reads the same bytes
    got_ck = clients.confluent_consume(broker.bootstrap, topic, [0], 3, conf={
        "fetch.max.bytes": 8 * MiB, "max.partition.fetch.bytes": 4 * MiB,
        "receive.message.max.bytes": 16 * MiB})
    assert [m["value"] for m in got_ck] == values


def _topic_configs(a, topic):
    from kafka.admin import ConfigResource, ConfigResourceType
    res = a.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)], config_filter="all")
    return res["topic"][topic]


def test_admin_create_describe_alter_delete(broker):
    from kafka.admin import ConfigResource, ConfigResourceType
    import kafka.errors as Errors
    a = clients.kp_admin(broker.bootstrap)
    topic = harness.unique_topic("kp-admin")
    try:
        res = a.create_topics({topic: {"num_partitions": 2, "replication_factor": 1,
                                       "configs": {"retention.ms": "3600000",
                                                   "segment.bytes": "16777216"}}},
                              wait_for_metadata=True)
        (t,) = res["topics"]
        assert t["name"] == topic and t["error_code"] == 0
        assert topic in a.list_topics()

        with pytest.raises(Errors.TopicAlreadyExistsError):
            a.create_topics({topic: {"num_partitions": 1, "replication_factor": 1}})

        (desc,) = a.describe_topics([topic])
        assert desc["error_code"] == 0 and len(desc["partitions"]) == 2
        assert all(p["leader_id"] == broker.node_id for p in desc["partitions"])

        cfg = _topic_configs(a, topic)
        assert cfg["retention.ms"]["value"] == "3600000"
        assert cfg["retention.ms"]["config_source"] == "DYNAMIC_TOPIC_CONFIG"
        assert cfg["segment.bytes"]["value"] == "16777216"
        assert cfg["cleanup.policy"]["value"] == "delete"

        # legacy AlterConfigs (the whole set of dynamic topic configs)
        r = a.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic,
                                            configs={"retention.ms": "7200000",
                                                     "segment.bytes": "16777216"})],
                            incremental=False)
        assert r["topic"][topic] == "OK", r
        assert _topic_configs(a, topic)["retention.ms"]["value"] == "7200000"

        # incremental
        r = a.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic,
                                            configs={"cleanup.policy": "compact"})],
                            incremental=True)
        assert r["topic"][topic] == "OK", r
        cfg = _topic_configs(a, topic)
        assert cfg["cleanup.policy"]["value"] == "compact"
        assert cfg["retention.ms"]["value"] == "7200000"

        # validate_only changes nothing
        r = a.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic,
                                            configs={"retention.ms": "1000"})],
                            validate_only=True, incremental=True)
        assert r["topic"][topic] == "OK", r
        assert _topic_configs(a, topic)["retention.ms"]["value"] == "7200000"

        # an invalid value is refused with INVALID_CONFIG and a message
        r = a.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic,
                                            configs={"retention.ms": "not-a-number"})],
                            incremental=True)
        assert r["topic"][topic].startswith("[Error 40] InvalidConfigurationError"), r
        assert _topic_configs(a, topic)["retention.ms"]["value"] == "7200000"

        a.create_partitions({topic: 4})
        harness.wait_until(lambda: len(a.describe_topics([topic])[0]["partitions"]) == 4,
                           timeout=15, what="4 partitions")
        with pytest.raises(Errors.InvalidPartitionsError):
            a.create_partitions({topic: 2})  # cannot shrink

        # DescribeTopicPartitions (KIP-966)
        dtp = a.describe_topic_partitions([topic])
        (t,) = dtp["topics"]
        assert t["error_code"] == 0 and t["name"] == topic
        assert sorted(p["partition_index"] for p in t["partitions"]) == [0, 1, 2, 3]
        assert t["topic_id"] and str(t["topic_id"]) != "00000000-0000-0000-0000-000000000000"
    finally:
        res = a.delete_topics([topic], raise_errors=False)
    assert [r["error_code"] for r in res["topics"]] == [0], res
    harness.wait_until(lambda: topic not in a.list_topics(), timeout=15, what="deleted")
    with pytest.raises(Errors.UnknownTopicOrPartitionError):
        a.delete_topics([topic])
    a.close()


def test_admin_invalid_topic_names_and_configs(broker):
    import kafka.errors as Errors
    a = clients.kp_admin(broker.bootstrap)
    for name in ["has space", "slash/name", "..", "a" * 250]:
        res = a.create_topics({name: {"num_partitions": 1, "replication_factor": 1}},
                              raise_errors=False)
        (t,) = res["topics"]
        assert t["error_code"] == Errors.InvalidTopicError.errno, (name, t)
        assert t["error_message"], "INVALID_TOPIC_EXCEPTION without a message"
    bad = harness.unique_topic("kp-badcfg")
    res = a.create_topics({bad: {"num_partitions": 1, "replication_factor": 1,
                                 "configs": {"cleanup.policy": "sometimes"}}}, raise_errors=False)
    (t,) = res["topics"]
    assert t["error_code"] == Errors.InvalidConfigurationError.errno, t
    assert t["error_message"]
    assert bad not in a.list_topics()
    a.close()


def test_delete_records_and_log_dirs(broker):
    from kafka import TopicPartition
    topic = harness.unique_topic("kp-delrec")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    msgs = [{"key": b"k", "value": b"v%d" % i} for i in range(10)]
    clients.kp_produce(broker.bootstrap, topic, msgs, partition=0)
    a = clients.kp_admin(broker.bootstrap)
    tp = TopicPartition(topic, 0)
    res = a.delete_records({tp: 4})
    assert res[tp]["error_code"] == 0 and res[tp]["low_watermark"] == 4, res

    got = clients.kp_consume(broker.bootstrap, topic, [0], 6)
    assert [m["offset"] for m in got] == list(range(4, 10))
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        assert c.list_offset(topic, 0, rawkafka.EARLIEST)["Offset"] == 4
        part, _ = c.fetch(topic, 0, 1)
        assert part["ErrorCode"] == rawkafka.OFFSET_OUT_OF_RANGE
        assert part["LogStartOffset"] == 4

    dirs = a.describe_log_dirs([topic])
    assert [d["broker"] for d in dirs] == [broker.node_id]
    parts = [p for ld in dirs[0]["log_dirs"] if ld["error_code"] == 0
             for t in ld["topics"] if t["name"] == topic for p in t["partitions"]]
    assert [p["partition_index"] for p in parts] == [0]
    assert parts[0]["partition_size"] > 0
    a.close()


def test_offsets_for_times(broker):
    from kafka import KafkaConsumer, TopicPartition
    topic = harness.unique_topic("kp-bytime")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    base = int(time.time() * 1000) - 7_200_000
    msgs = [{"key": b"k%d" % i, "value": b"v%d" % i, "timestamp": base + i * 10_000}
            for i in range(8)]
    clients.kp_produce(broker.bootstrap, topic, msgs, partition=0)
    c = KafkaConsumer(bootstrap_servers=broker.bootstrap, group_id=None)
    try:
        tp = TopicPartition(topic, 0)
        r = c.offsets_for_times({tp: base + 25_000})[tp]
        assert (r.offset, r.timestamp) == (3, base + 30_000)
        r = c.offsets_for_times({tp: base})[tp]
        assert (r.offset, r.timestamp) == (0, base)
        assert c.offsets_for_times({tp: base + 70_001})[tp] is None
        assert c.beginning_offsets([tp]) == {tp: 0}
        assert c.end_offsets([tp]) == {tp: 8}
    finally:
        c.close()
    # the consumer reads them with their CreateTime
    got = clients.kp_consume(broker.bootstrap, topic, [0], 8)
    assert [m["timestamp"] for m in got] == [m["timestamp"] for m in msgs]


def test_auto_create_through_metadata(broker):
    from kafka import KafkaConsumer, KafkaProducer
    topic = harness.unique_topic("kp-auto")
    p = KafkaProducer(bootstrap_servers=broker.bootstrap)
    try:
        # the producer's Metadata request allows auto-creation
        parts = harness.wait_until(lambda: p.partitions_for(topic), timeout=15,
                                   what="auto-created partitions")
        assert parts == set(range(int(BROKER_SETTINGS["num.partitions"])))
    finally:
        p.close()

    other = harness.unique_topic("kp-noauto")
    c = KafkaConsumer(bootstrap_servers=broker.bootstrap, group_id=None,
                      allow_auto_create_topics=False)
    try:
        assert not c.partitions_for_topic(other)
    finally:
        c.close()
    with rawkafka.KafkaConn(broker.bootstrap) as raw:
        t = raw.metadata([other], allow_auto_create=False)["Topics"][0]
        assert t["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION, \
            "a Metadata request with allow_auto_topic_creation=false created the topic"
