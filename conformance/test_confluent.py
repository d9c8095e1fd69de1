"""confluent-kafka (librdkafka 2.16): ordering at volume, message sizes,
edge-case records, the admin API, ListOffsets by time, auto-creation and
long polling."""

import os
import statistics
import threading
import time

import pytest

import clients
import harness
import rawkafka

BROKER_SETTINGS = {
    "num.partitions": "3",
    "auto.create.topics.enable": "true",
    "log.retention.ms": "86400000",
}

MiB = 1024 * 1024


def admin(broker):
    return clients.confluent_admin(broker.bootstrap)


# ---------------------------------------------------------------- order at volume

def test_per_key_order_100k_messages_on_6_partitions(broker):
    from confluent_kafka import OFFSET_BEGINNING, TopicPartition
    n, keys, parts = 100_000, 1000, 6
    topic = harness.unique_topic("order")
    rawkafka.ensure_topic(broker.bootstrap, topic, parts)

    p = clients.confluent_producer(broker.bootstrap, **{
        "linger.ms": 10, "batch.num.messages": 10000, "queue.buffering.max.messages": 200000,
        # one request in flight: librdkafka then keeps order per partition even
        # across retries, so any reordering seen below is the broker's
        "max.in.flight.requests.per.connection": 1,
        "compression.type": "lz4"})
    delivered = {}
    errors = []

    def cb(err, msg):
        if err is not None:
            errors.append(err)
        else:
            delivered[msg.value()] = (msg.partition(), msg.offset())

    t0 = time.monotonic()
    seq = [0] * keys
    for i in range(n):
        k = i % keys
        value = b"%d:%d" % (k, seq[k])
        seq[k] += 1
        for _ in range(10000):
            try:
                p.produce(topic, key=b"key-%d" % k, value=value, on_delivery=cb)
                break
            except BufferError:
                p.poll(0.01)
        if i % 1000 == 0:
            p.poll(0)
    assert p.flush(60) == 0, "not every message was delivered within 60 s"
    t_produce = time.monotonic() - t0
    assert not errors, "delivery errors: %s" % errors[:5]
    assert len(delivered) == n

    c = clients.confluent_consumer(broker.bootstrap, **{"fetch.wait.max.ms": 100})
    got = []
    try:
        c.assign([TopicPartition(topic, q, OFFSET_BEGINNING) for q in range(parts)])
        deadline = time.monotonic() + 60
        while len(got) < n and time.monotonic() < deadline:
            for m in c.consume(num_messages=10000, timeout=0.5):
                if m.error():
                    assert m.topic() is None, "consume error: %s" % m.error()
                    continue
                got.append((m.partition(), m.offset(), m.key(), m.value()))
    finally:
        c.close()
    t_total = time.monotonic() - t0
    print("100k: produced in %.1fs, produced+consumed in %.1fs" % (t_produce, t_total))
    assert len(got) == n, "consumed %d of %d" % (len(got), n)

    key_partition = {}
    next_seq = {}
    next_offset = {q: 0 for q in range(parts)}
    for part, offset, key, value in got:
        assert offset == next_offset[part], "partition %d: offset %d, expected %d" % (
            part, offset, next_offset[part])
        next_offset[part] += 1
        k, s = value.split(b":")
        assert key == b"key-" + k
        assert key_partition.setdefault(key, part) == part, "key %s in two partitions" % key
        assert int(s) == next_seq.get(key, 0), "key %s: seq %s after %d" % (
            key, s, next_seq.get(key, 0) - 1)
        next_seq[key] = int(s) + 1
        assert delivered[value] == (part, offset), "read at a different place than acknowledged"
    assert sum(next_offset.values()) == n
    assert all(v > 0 for v in next_offset.values()), "some partition got nothing: %s" % next_offset
    assert len(next_seq) == keys and all(next_seq[b"key-%d" % k] == seq[k] for k in range(keys))


# ---------------------------------------------------------------- sizes

def test_messages_of_1_byte_1_kib_and_1_mib(broker):
    topic = harness.unique_topic("sizes")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1, configs={"max.message.bytes": str(2 * MiB)})
    values = [os.urandom(1), os.urandom(1024), os.urandom(MiB)]
    msgs = [{"key": b"size-%d" % len(v), "value": v} for v in values]
    offsets = clients.confluent_produce(broker.bootstrap, topic, msgs, partition=0,
                                        conf={"message.max.bytes": 4 * MiB, "linger.ms": 0})
    assert offsets == [(0, 0), (0, 1), (0, 2)]
    got = clients.confluent_consume(broker.bootstrap, topic, [0], 3, conf={
        "fetch.max.bytes": 8 * MiB, "max.partition.fetch.bytes": 4 * MiB,
        "receive.message.max.bytes": 16 * MiB})
    assert [len(m["value"]) for m in got] == [1, 1024, MiB]
    assert [m["value"] for m in got] == values
    assert [m["key"] for m in got] == [m["key"] for m in msgs]


def test_message_larger_than_max_message_bytes_is_refused(broker):
    from confluent_kafka import KafkaError, KafkaException
    topic = harness.unique_topic("toolarge")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1, configs={"max.message.bytes": "100000"})
    with pytest.raises(KafkaException) as e:
        clients.confluent_produce(broker.bootstrap, topic,
                                  [{"key": b"big", "value": os.urandom(200_000)}],
                                  partition=0, conf={"message.max.bytes": 4 * MiB,
                                                     "message.send.max.retries": 0})
    assert e.value.args[0].code() == KafkaError.MSG_SIZE_TOO_LARGE, e.value
    # the partition is still usable and holds nothing of the refused batch
    assert clients.confluent_produce(broker.bootstrap, topic, [{"key": b"s", "value": b"small"}],
                                     partition=0) == [(0, 0)]
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        latest = c.list_offset(topic, 0, rawkafka.LATEST)
        assert latest["ErrorCode"] == 0 and latest["Offset"] == 1


# ---------------------------------------------------------------- edge records

def test_null_empty_binary_and_duplicate_header_records(broker):
    topic = harness.unique_topic("edge")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    msgs = [
        {"key": None, "value": b"null key"},
        {"key": b"", "value": b"empty key"},
        {"key": b"tombstone", "value": None},
        {"key": b"empty", "value": b""},
        {"key": b"bin", "value": bytes(range(256)), "headers": [("bin", bytes(range(256)))]},
        {"key": "ключ-🔑".encode(), "value": "значение".encode()},
        {"key": b"hnull", "value": b"v", "headers": [("null-header", None)]},
        {"key": b"hdup", "value": b"v", "headers": [("dup", b"1"), ("dup", b"2"), ("x", b"")]},
    ]
    assert clients.confluent_produce(broker.bootstrap, topic, msgs, partition=0) == \
        [(0, i) for i in range(len(msgs))]
    want = clients.essence(msgs)
    got = clients.confluent_consume(broker.bootstrap, topic, [0], len(msgs))
    assert clients.essence(got) == want
    got_kp = clients.kp_consume(broker.bootstrap, topic, [0], len(msgs))
    assert clients.essence(got_kp) == want
    batches = rawkafka.fetch_all(broker.bootstrap, topic, 0, len(msgs))
    raw = [r for b in batches for r in b.records()]
    assert [(r["key"], r["value"], tuple(r["headers"])) for r in raw] == want


# ---------------------------------------------------------------- admin

def _describe_topic_configs(a, topic):
    from confluent_kafka.admin import ConfigResource, ResourceType
    res = ConfigResource(ResourceType.TOPIC, topic)
    return a.describe_configs([res])[res].result(timeout=30)


def _src(entry):
    """ConfigEntry.source as an int (librdkafka hands back an int or the enum)."""
    return getattr(entry.source, "value", entry.source)


def _topic_id(a, topic):
    from confluent_kafka import TopicCollection
    desc = a.describe_topics(TopicCollection([topic]))[topic].result(timeout=30)
    return str(desc.topic_id), len(desc.partitions)


def test_admin_create_describe_alter_delete(broker):
    from confluent_kafka import KafkaError, KafkaException
    from confluent_kafka.admin import (AlterConfigOpType, ConfigEntry, ConfigResource,
                                       ConfigSource, NewPartitions, NewTopic, ResourceType)
    a = admin(broker)
    topic = harness.unique_topic("admin-ck")

    # validate_only creates nothing
    a.create_topics([NewTopic(topic, 3, 1)], validate_only=True)[topic].result(timeout=30)
    assert topic not in a.list_topics(timeout=10).topics

    # create with configs
    a.create_topics([NewTopic(topic, 3, 1, config={"retention.ms": "3600000",
                                                  "cleanup.policy": "delete"})],
                    operation_timeout=30)[topic].result(timeout=30)
    harness.wait_until(lambda: clients._topic_ready(a, topic, 3), timeout=15,
                       what="3 partitions with leaders")
    md = a.list_topics(topic, timeout=10).topics[topic]
    assert sorted(md.partitions) == [0, 1, 2]
    node = broker.node_id
    assert all(p.leader == node and list(p.replicas) == [node] and list(p.isrs) == [node]
               for p in md.partitions.values())

    # again: TOPIC_ALREADY_EXISTS
    with pytest.raises(KafkaException) as e:
        a.create_topics([NewTopic(topic, 1, 1)])[topic].result(timeout=30)
    assert e.value.args[0].code() == KafkaError.TOPIC_ALREADY_EXISTS

    # describe
    cfg = _describe_topic_configs(a, topic)
    assert cfg["retention.ms"].value == "3600000"
    assert _src(cfg["retention.ms"]) == ConfigSource.DYNAMIC_TOPIC_CONFIG.value
    assert cfg["cleanup.policy"].value == "delete"
    for name in ("segment.bytes", "max.message.bytes", "min.insync.replicas",
                 "message.timestamp.type", "retention.bytes", "segment.ms"):
        assert name in cfg, "DescribeConfigs lacks %s" % name

    # incremental alter: SET two, then DELETE one (back to the broker default)
    res = ConfigResource(ResourceType.TOPIC, topic, incremental_configs=[
        ConfigEntry("retention.ms", "7200000", incremental_operation=AlterConfigOpType.SET),
        ConfigEntry("max.message.bytes", "500000", incremental_operation=AlterConfigOpType.SET)])
    a.incremental_alter_configs([res])[res].result(timeout=30)
    cfg = _describe_topic_configs(a, topic)
    assert cfg["retention.ms"].value == "7200000"
    assert cfg["max.message.bytes"].value == "500000"
    assert cfg["cleanup.policy"].value == "delete", "an incremental alter must keep other configs"

    res = ConfigResource(ResourceType.TOPIC, topic, incremental_configs=[
        ConfigEntry("retention.ms", None, incremental_operation=AlterConfigOpType.DELETE)])
    a.incremental_alter_configs([res])[res].result(timeout=30)
    cfg = _describe_topic_configs(a, topic)
    assert cfg["retention.ms"].value == BROKER_SETTINGS["log.retention.ms"], \
        "after DELETE retention.ms should fall back to the broker's log.retention.ms"
    assert _src(cfg["retention.ms"]) == ConfigSource.STATIC_BROKER_CONFIG.value, \
        "a topic's retention.ms inherited from --set log.retention.ms has source STATIC_BROKER_CONFIG"

    # the altered max.message.bytes is honoured live
    from confluent_kafka import KafkaException as KE
    with pytest.raises(KE) as e:
        clients.confluent_produce(broker.bootstrap, topic, [{"key": b"k", "value": os.urandom(600_000)}],
                                  partition=0, conf={"message.max.bytes": 4 * MiB,
                                                     "message.send.max.retries": 0})
    assert e.value.args[0].code() == KafkaError.MSG_SIZE_TOO_LARGE

    # create partitions 3 -> 5
    a.create_partitions([NewPartitions(topic, 5)])[topic].result(timeout=30)
    harness.wait_until(lambda: clients._topic_ready(a, topic, 5), timeout=15,
                       what="5 partitions after CreatePartitions")
    assert clients.confluent_produce(broker.bootstrap, topic, [{"key": b"p4", "value": b"x"}],
                                     partition=4) == [(4, 0)]

    first_id, nparts = _topic_id(a, topic)
    assert nparts == 5
    assert first_id and first_id != "AAAAAAAAAAAAAAAAAAAAAA", "topic has no topic id"

    # delete
    a.delete_topics([topic], operation_timeout=30)[topic].result(timeout=30)
    harness.wait_until(lambda: topic not in a.list_topics(timeout=10).topics, timeout=15,
                       what="topic gone from metadata")
    with pytest.raises(KafkaException) as e:
        a.delete_topics([topic])[topic].result(timeout=30)
    assert e.value.args[0].code() == KafkaError.UNKNOWN_TOPIC_OR_PART

    # re-created: a new topic id, and empty
    a.create_topics([NewTopic(topic, 1, 1)])[topic].result(timeout=30)
    harness.wait_until(lambda: clients._topic_ready(a, topic, 1), timeout=15, what="re-created")
    second_id, _ = _topic_id(a, topic)
    assert second_id != first_id, "a re-created topic must get a new topic id"
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        assert c.list_offset(topic, 0, rawkafka.LATEST)["Offset"] == 0


def test_admin_invalid_requests_get_kafka_errors(broker):
    from confluent_kafka import KafkaError, KafkaException
    from confluent_kafka.admin import (AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic,
                                       ResourceType)
    a = admin(broker)
    cases = [
        (NewTopic("bad/name", 1, 1), KafkaError.TOPIC_EXCEPTION),
        (NewTopic("x" * 250, 1, 1), KafkaError.TOPIC_EXCEPTION),
        (NewTopic(harness.unique_topic("badcfg"), 1, 1, config={"retention.ms": "soon"}),
         KafkaError.INVALID_CONFIG),
        (NewTopic(harness.unique_topic("unknowncfg"), 1, 1, config={"no.such.config": "1"}),
         KafkaError.INVALID_CONFIG),
        (NewTopic(harness.unique_topic("zeroparts"), 0, 1), KafkaError.INVALID_PARTITIONS),
        (NewTopic(harness.unique_topic("rf3"), 1, 3), KafkaError.INVALID_REPLICATION_FACTOR),
    ]
    for new_topic, code in cases:
        with pytest.raises(KafkaException) as e:
            a.create_topics([new_topic])[new_topic.topic].result(timeout=30)
        err = e.value.args[0]
        assert err.code() == code, "%s: got %s, want %s" % (new_topic.topic[:40], err, code)
        assert err.str(), "error without a message"
        assert new_topic.topic not in a.list_topics(timeout=10).topics

    topic = clients.confluent_create_topic(broker.bootstrap, harness.unique_topic("altbad"), 1)
    res = ConfigResource(ResourceType.TOPIC, topic, incremental_configs=[
        ConfigEntry("retention.ms", "-5x", incremental_operation=AlterConfigOpType.SET)])
    with pytest.raises(KafkaException) as e:
        a.incremental_alter_configs([res])[res].result(timeout=30)
    assert e.value.args[0].code() == KafkaError.INVALID_CONFIG


def test_describe_broker_configs(broker):
    from confluent_kafka.admin import ConfigResource, ResourceType
    a = admin(broker)
    res = ConfigResource(ResourceType.BROKER, str(broker.node_id))
    cfg = a.describe_configs([res])[res].result(timeout=30)
    assert cfg["num.partitions"].value == BROKER_SETTINGS["num.partitions"]
    assert cfg["log.retention.ms"].value == BROKER_SETTINGS["log.retention.ms"]
    assert cfg["auto.create.topics.enable"].value == "true"
    for name in ("message.max.bytes", "default.replication.factor", "log.segment.bytes"):
        assert name in cfg, "broker DescribeConfigs lacks %s" % name
    cluster = a.describe_cluster().result(timeout=30)
    assert [n.id for n in cluster.nodes] == [broker.node_id]
    assert cluster.nodes[0].host == "127.0.0.1" and cluster.nodes[0].port == broker.port
    assert cluster.cluster_id


# ---------------------------------------------------------------- offsets by time

def test_list_offsets_by_time(broker):
    from confluent_kafka import TopicPartition
    from confluent_kafka.admin import OffsetSpec
    topic = harness.unique_topic("bytime")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    base = int(time.time() * 1000) - 3_600_000
    stamps = [base + i * 1000 for i in range(10)]
    stamps[5] = base + 100_000  # out of order: the partition's max timestamp
    msgs = [{"key": b"k%d" % i, "value": b"v%d" % i, "timestamp": ts} for i, ts in enumerate(stamps)]
    # one message per request so the timestamps also span batches
    for m in msgs:
        clients.confluent_produce(broker.bootstrap, topic, [m], partition=0, conf={"linger.ms": 0})

    c = clients.confluent_consumer(broker.bootstrap)
    try:
        def lookup(ts):
            r = c.offsets_for_times([TopicPartition(topic, 0, ts)], timeout=10)[0]
            assert r.error is None, r.error
            return r.offset
        assert lookup(base - 1) == 0
        assert lookup(base) == 0
        assert lookup(base + 3500) == 4
        assert lookup(base + 4000) == 4
        assert lookup(base + 6500) == 5, "first offset whose timestamp is >= the target"
        assert lookup(base + 100_000) == 5
        assert lookup(base + 100_001) == -1, "no such record: OFFSET_END (-1)"
        assert c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10) == (0, 10)
    finally:
        c.close()

    a = admin(broker)
    tp = TopicPartition(topic, 0)

    def admin_offset(spec):
        return a.list_offsets({tp: spec})[tp].result(timeout=30)
    assert admin_offset(OffsetSpec.earliest()).offset == 0
    assert admin_offset(OffsetSpec.latest()).offset == 10
    mx = admin_offset(OffsetSpec.max_timestamp())
    assert (mx.offset, mx.timestamp) == (5, base + 100_000)
    ft = admin_offset(OffsetSpec.for_timestamp(base + 7000))
    assert ft.offset == 5


# ---------------------------------------------------------------- auto-create

def test_auto_create_on_produce(broker):
    topic = harness.unique_topic("auto-ck")
    assert clients.confluent_produce(broker.bootstrap, topic, [{"key": b"a", "value": b"1"}])[0][1] == 0
    a = admin(broker)
    md = a.list_topics(topic, timeout=10).topics[topic]
    assert md.error is None
    assert len(md.partitions) == int(BROKER_SETTINGS["num.partitions"])


def test_consumer_metadata_does_not_auto_create(broker):
    """librdkafka consumers ask with allow_auto_topic_creation=false."""
    topic = harness.unique_topic("noauto-ck")
    c = clients.confluent_consumer(broker.bootstrap)
    try:
        md = c.list_topics(topic, timeout=10)
        t = md.topics.get(topic)
        assert t is not None and t.error is not None
    finally:
        c.close()
    with rawkafka.KafkaConn(broker.bootstrap) as raw:
        t = raw.metadata([topic], allow_auto_create=False)["Topics"][0]
        assert t["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION


# ---------------------------------------------------------------- long poll

def test_long_poll_returns_within_milliseconds_of_a_produce(broker):
    from confluent_kafka import OFFSET_END, TopicPartition
    topic = harness.unique_topic("longpoll")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    c = clients.confluent_consumer(broker.bootstrap, **{
        "fetch.wait.max.ms": 10000, "fetch.min.bytes": 1, "socket.timeout.ms": 30000})
    p = clients.confluent_producer(broker.bootstrap, **{"linger.ms": 0, "acks": "1"})
    latencies = []
    try:
        c.assign([TopicPartition(topic, 0, OFFSET_END)])
        # let the consumer reach the end and park a long-poll fetch
        for _ in range(4):
            assert c.poll(0.5) is None
        for i in range(5):
            time.sleep(0.3)  # the next fetch is parked at the broker
            t0 = time.monotonic()
            p.produce(topic, key=b"lp", value=b"%d" % i, partition=0)
            p.poll(0)
            m = None
            deadline = t0 + 12
            while m is None and time.monotonic() < deadline:
                m = c.poll(0.01)
                if m is not None and m.error():
                    assert m.topic() is None, m.error()
                    m = None
            assert m is not None, "no message within 12 s of the produce"
            latencies.append(time.monotonic() - t0)
            assert m.value() == b"%d" % i
            p.flush(10)
    finally:
        c.close()
    print("produce -> consume latency with a parked fetch: %s ms"
          % [round(x * 1000, 1) for x in latencies])
    assert max(latencies) < 0.5, "a parked fetch was not woken by the produce: %s" % latencies
    assert statistics.median(latencies) < 0.2, latencies


def test_alter_broker_config_applies_live(broker_factory):
    """IncrementalAlterConfigs on the broker resource: the new default shows
    in DescribeConfigs (DYNAMIC_BROKER_CONFIG) and in topics without an
    override, without a restart."""
    from confluent_kafka.admin import (AlterConfigOpType, ConfigEntry, ConfigResource,
                                       ConfigSource, ResourceType)
    b = broker_factory({"num.partitions": "1", "log.retention.ms": "86400000"})
    a = admin(b)
    topic = harness.unique_topic("brokercfg")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    assert _describe_topic_configs(a, topic)["retention.ms"].value == "86400000"

    res = ConfigResource(ResourceType.BROKER, str(b.node_id), incremental_configs=[
        ConfigEntry("log.retention.ms", "3333333", incremental_operation=AlterConfigOpType.SET)])
    a.incremental_alter_configs([res])[res].result(timeout=30)
    bres = ConfigResource(ResourceType.BROKER, str(b.node_id))
    cfg = a.describe_configs([bres])[bres].result(timeout=30)
    assert cfg["log.retention.ms"].value == "3333333"
    assert _src(cfg["log.retention.ms"]) == ConfigSource.DYNAMIC_BROKER_CONFIG.value
    tcfg = _describe_topic_configs(a, topic)
    assert tcfg["retention.ms"].value == "3333333", "the topic did not pick up the new broker default"
    topic_source = _src(tcfg["retention.ms"])

    # DELETE goes back to the static value
    res = ConfigResource(ResourceType.BROKER, str(b.node_id), incremental_configs=[
        ConfigEntry("log.retention.ms", None, incremental_operation=AlterConfigOpType.DELETE)])
    a.incremental_alter_configs([res])[res].result(timeout=30)
    assert _describe_topic_configs(a, topic)["retention.ms"].value == "86400000"
    cfg = a.describe_configs([bres])[bres].result(timeout=30)
    assert cfg["log.retention.ms"].value == "86400000"
    assert _src(cfg["log.retention.ms"]) == ConfigSource.STATIC_BROKER_CONFIG.value

    # the topic's value came from broker 1's dynamic config, and says so
    assert topic_source == ConfigSource.DYNAMIC_BROKER_CONFIG.value, \
        "topic retention.ms inherited from a per-broker dynamic log.retention.ms: source %s" % topic_source
