"""kafkajs 2.2 (node): the admin API (create, describe, alter, partitions,
delete), offsets by timestamp, message sizes and, where the broker offers
consumer groups, the group consumer. Produce/consume with every codec is in
test_produce_consume.py."""

import os
import time

import pytest

import clients
import harness
import rawkafka

BROKER_SETTINGS = {"num.partitions": "1", "auto.create.topics.enable": "true"}

MiB = 1024 * 1024


def test_admin_create_describe_alter_delete(broker):
    topic = harness.unique_topic("js-admin")
    r = clients.kafkajs("admin", {
        "brokers": [broker.bootstrap], "topic": topic, "partitions": 2,
        "configs": {"retention.ms": "3600000", "cleanup.policy": "delete"},
        "alter": {"retention.ms": "7200000", "cleanup.policy": "delete"},
        "newPartitions": 3})
    failed = {k: v for k, v in r.items() if not v["ok"]}
    assert not failed, "kafkajs admin steps failed: %s" % failed
    assert r["create"]["value"] is True
    assert r["createAgain"]["value"] is False, "creating an existing topic must report TOPIC_ALREADY_EXISTS"
    assert topic in r["listTopics"]["value"]
    (t,) = r["metadata"]["value"]["topics"]
    assert t["name"] == topic and len(t["partitions"]) == 2
    assert all(p["leader"] == broker.node_id for p in t["partitions"])
    d = r["describe"]["value"]
    assert d["retention.ms"]["value"] == "3600000" and d["retention.ms"]["isDefault"] is False
    assert d["cleanup.policy"]["value"] == "delete"
    assert r["describeAfterAlter"]["value"]["retention.ms"]["value"] == "7200000"
    (t,) = r["metadataAfterPartitions"]["value"]["topics"]
    assert len(t["partitions"]) == 3
    assert topic not in r["listTopicsAfterDelete"]["value"]


def test_offsets_by_timestamp(broker):
    topic = harness.unique_topic("js-bytime")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    base = int(time.time() * 1000) - 900_000
    msgs = [{"key": b"k%d" % i, "value": b"v%d" % i, "timestamp": base + i * 1000} for i in range(5)]
    res = clients.kafkajs_produce(broker.bootstrap, topic, msgs, partition=0)
    assert [int(x["baseOffset"]) for x in res] == [0]
    r = clients.kafkajs("offsets", {"brokers": [broker.bootstrap], "topic": topic,
                                    "timestamps": [base - 1, base + 1500, base + 4000, base + 9999]})
    by = {int(k): v for k, v in r["byTimestamp"].items()}
    assert by[base - 1] == [{"partition": 0, "offset": "0"}]
    assert by[base + 1500] == [{"partition": 0, "offset": "2"}]
    assert by[base + 4000] == [{"partition": 0, "offset": "4"}]
    # past the last timestamp kafkajs falls back to the high watermark
    assert by[base + 9999] == [{"partition": 0, "offset": "5"}]
    (latest,) = r["latest"]
    assert (latest["offset"], latest["high"], latest["low"]) == ("5", "5", "0")
    got = clients.kafkajs_fetch(broker.bootstrap, topic, 0, 5)
    assert [m["timestamp"] for m in got] == [m["timestamp"] for m in msgs]


def test_messages_of_1_byte_1_kib_and_1_mib(broker):
    topic = harness.unique_topic("js-sizes")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1, configs={"max.message.bytes": str(2 * MiB)})
    values = [os.urandom(1), os.urandom(1024), os.urandom(MiB)]
    msgs = [{"key": b"k%d" % len(v), "value": v, "headers": [("n", b"%d" % len(v))]} for v in values]
    res = clients.kafkajs_produce(broker.bootstrap, topic, msgs, partition=0, batches=3)
    assert [int(x["baseOffset"]) for x in res] == [0, 1, 2]
    got = clients.kafkajs_fetch(broker.bootstrap, topic, 0, 3, max_bytes=4 * MiB)
    assert clients.essence(got) == clients.essence(msgs)
    got_ck = clients.confluent_consume(broker.bootstrap, topic, [0], 3, conf={
        "fetch.max.bytes": 8 * MiB, "max.partition.fetch.bytes": 4 * MiB,
        "receive.message.max.bytes": 16 * MiB})
    assert [m["value"] for m in got_ck] == values


def test_auto_create_on_produce(broker):
    topic = harness.unique_topic("js-auto")
    res = clients.kafkajs_produce(broker.bootstrap, topic, [{"key": b"a", "value": b"b"}], partition=0)
    assert res[0]["errorCode"] == 0 and int(res[0]["baseOffset"]) == 0
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        t = c.metadata([topic])["Topics"][0]
        assert t["ErrorCode"] == 0 and len(t["Partitions"]) == 1


def test_group_consumer(broker):
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        assert c.supports(rawkafka.API_FIND_COORDINATOR) and c.supports(rawkafka.API_JOIN_GROUP), (
            "the broker does not advertise consumer groups (FindCoordinator/JoinGroup)"
        )
    topic = harness.unique_topic("js-group")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    msgs = clients.make_messages("js-group", 20)
    clients.confluent_produce(broker.bootstrap, topic, msgs, partition=0)
    r = clients.kafkajs("group", {"brokers": [broker.bootstrap], "topic": topic,
                                  "groupId": harness.unique_topic("g"), "count": 20,
                                  "timeoutMs": 30000}, timeout=60)
    assert clients.essence([{"key": clients._unb64(m["key"]), "value": clients._unb64(m["value"]),
                             "headers": [(k, clients._unb64(v)) for k, v in m["headers"]]}
                            for m in r["messages"]]) == clients.essence(msgs)
