"""Produce validation with Kafka's per-record errors (KIP-467), as Kafka's
LogValidator does it: records without a key on a compacted topic
(INVALID_RECORD), timestamps outside message.timestamp.before.max.ms /
message.timestamp.after.max.ms on CreateTime topics (INVALID_TIMESTAMP,
KIP-937), each failing record listed by its index in the batch; the whole
batch is refused while the other partitions of the request succeed; Produce
below v8 gets only the error code. The bounds are topic configs (and
broker-wide log.* defaults) described and altered like any other."""

import re
import time

import pytest

import clients
import harness
import rawkafka
from rawkafka import KafkaConn

BROKER_SETTINGS = {"num.partitions": "1", "auto.create.topics.enable": "false"}

INVALID_TIMESTAMP = 32
INVALID_RECORD = rawkafka.INVALID_RECORD
HOUR = 3_600_000


def now_ms():
    return int(time.time() * 1000)


def new_topic(broker, prefix, partitions=1, configs=None):
    topic = harness.unique_topic(prefix)
    rawkafka.ensure_topic(broker.bootstrap, topic, partitions, configs=configs)
    return topic


def produce_many(c, version, entries, acks=-1):
    """entries: [(topic, partition, records_blob)] in one Produce request.
    Returns {(topic, partition): partition response}."""
    by_topic = {}
    for topic, partition, blob in entries:
        by_topic.setdefault(topic, []).append({"Index": partition, "Records": blob})
    body = {"TransactionalId": None, "Acks": acks, "TimeoutMs": 10000,
            "TopicData": [{"Name": t, "PartitionData": parts} for t, parts in by_topic.items()]}
    resp = c.request(rawkafka.API_PRODUCE, version, body)
    return {(t["Name"], p["Index"]): p
            for t in resp["Responses"] for p in t["PartitionResponses"]}


def produce_retrying(c, version, entries, timeout=15):
    """produce_many, again while a partition answers a retriable error (a
    config change reopens the topic's partitions)."""
    deadline = time.monotonic() + timeout
    while True:
        out = produce_many(c, version, entries)
        if (all(p["ErrorCode"] != rawkafka.NOT_LEADER_OR_FOLLOWER for p in out.values())
                or time.monotonic() > deadline):
            return out
        time.sleep(0.1)


def end_offset(c, topic, partition=0):
    return c.list_offset(topic, partition, rawkafka.LATEST)["Offset"]


def record_errors(part):
    return [(e["BatchIndex"], e["BatchIndexErrorMessage"]) for e in (part.get("RecordErrors") or [])]


def pick_v8(c):
    """The highest Produce version that carries record errors and names
    topics by name (v13 uses topic ids)."""
    return c.pick(rawkafka.API_PRODUCE, cap=12, floor=8)


# ---------------------------------------------------------------- compacted topics

@pytest.mark.parametrize("codec", ["none", "gzip"])
def test_keyless_records_on_a_compacted_topic(broker, codec):
    compacted = new_topic(broker, "kv", configs={"cleanup.policy": "compact"})
    plain = new_topic(broker, "plain")
    now = now_ms()
    mixed = rawkafka.build_batch([(b"k0", b"a"), (None, b"b"), (b"k2", b"c"), (None, b"d"),
                                  (None, b"e"), (b"k5", b"f")], codec=codec, base_timestamp=now)
    keyless = rawkafka.build_batch([(None, b"x"), (None, b"y")], codec=codec, base_timestamp=now)
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        v = pick_v8(c)
        out = produce_many(c, v, [(compacted, 0, mixed), (plain, 0, keyless)])
        bad, good = out[(compacted, 0)], out[(plain, 0)]
        assert bad["ErrorCode"] == INVALID_RECORD, bad
        assert bad["BaseOffset"] == -1
        want = "Compacted topic cannot accept message without key in topic partition %s-0." % compacted
        assert record_errors(bad) == [(1, want), (3, want), (4, want)], bad
        assert bad["ErrorMessage"] == (
            "One or more records have been rejected due to 3 record errors in total, and only "
            "showing the first three errors at most: [%s]"
            % ", ".join("RecordError(batchIndex=%d, message='%s')" % (i, want) for i in (1, 3, 4)))
        # the other topic of the same request is written
        assert (good["ErrorCode"], good["BaseOffset"]) == (0, 0), good
        assert record_errors(good) == []
        # nothing of the refused batch was appended
        assert end_offset(c, compacted) == 0
        assert end_offset(c, plain) == 2
        # keyed records are taken, at offset 0
        keyed = rawkafka.build_batch([(b"k%d" % i, b"v") for i in range(3)], codec=codec)
        part, _ = c.produce(compacted, 0, keyed, version=v)
        assert (part["ErrorCode"], part["BaseOffset"]) == (0, 0), part
        assert end_offset(c, compacted) == 3
    recs = [r for b in rawkafka.fetch_all(broker.bootstrap, compacted, 0, 3) for r in b.records()]
    assert [r["key"] for r in recs] == [b"k0", b"k1", b"k2"]


def test_record_errors_only_from_produce_v8(broker):
    compacted = new_topic(broker, "kvold", configs={"cleanup.policy": "compact,delete"})
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        lo = c.pick(rawkafka.API_PRODUCE, cap=7)
        assert lo < 8
        part, _ = c.produce(compacted, 0, rawkafka.build_batch([(None, b"v"), (b"k", b"v")]),
                            version=lo)
        assert part["ErrorCode"] == INVALID_RECORD, part
        assert "RecordErrors" not in part and "ErrorMessage" not in part, \
            "Produce v%d has no record errors: %r" % (lo, part)
        part, _ = c.produce(compacted, 0, rawkafka.build_batch([(None, b"v"), (b"k", b"v")]),
                            version=8)
        assert part["ErrorCode"] == INVALID_RECORD
        assert [i for i, _ in record_errors(part)] == [0]
        assert end_offset(c, compacted) == 0


# ---------------------------------------------------------------- timestamps

def _ts_batch(now, offsets_ms):
    return rawkafka.build_batch([(b"k%d" % i, b"v", (), now + d) for i, d in enumerate(offsets_ms)],
                                base_timestamp=now)


def test_timestamps_out_of_bounds_then_accepted_after_raising_the_configs(broker):
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType
    topic = new_topic(broker, "ts", configs={"message.timestamp.before.max.ms": str(HOUR)})
    other = new_topic(broker, "tsok")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        v = pick_v8(c)
        now = now_ms()
        # too old (2 h before; bound 1 h), too new (2 h ahead; Kafka 4's default 1 h)
        batch = _ts_batch(now, [0, -2 * HOUR, 2 * HOUR, -60_000, 30 * 60_000])
        out = produce_many(c, v, [(topic, 0, batch), (other, 0, _ts_batch(now, [-2 * HOUR, 0]))])
        bad = out[(topic, 0)]
        assert bad["ErrorCode"] == INVALID_TIMESTAMP, bad
        assert bad["ErrorMessage"] == "One or more records have been rejected due to invalid timestamp"
        errs = record_errors(bad)
        assert [i for i, _ in errs] == [1, 2], bad
        pat = (r"Timestamp (-?\d+) of message with offset (\d+) is out of range\. "
               r"The timestamp should be within \[(-?\d+), (-?\d+)\]$")
        m1, m2 = re.match(pat, errs[0][1]), re.match(pat, errs[1][1])
        assert m1 and m2, errs
        assert (int(m1.group(1)), int(m1.group(2))) == (now - 2 * HOUR, 1)
        assert (int(m2.group(1)), int(m2.group(2))) == (now + 2 * HOUR, 2)
        lo, hi = int(m1.group(3)), int(m1.group(4))
        assert hi - lo == 2 * HOUR and abs(lo - (now - HOUR)) < 60_000, errs
        # the other topic (no before bound, the record 2 h old) is written
        assert out[(other, 0)]["ErrorCode"] == 0
        assert end_offset(c, topic) == 0

        # raise both bounds on the topic: the same batch is taken
        a = clients.confluent_admin(broker.bootstrap)
        res = ConfigResource(ResourceType.TOPIC, topic, incremental_configs=[
            ConfigEntry("message.timestamp.before.max.ms", str(3 * HOUR),
                        incremental_operation=AlterConfigOpType.SET),
            ConfigEntry("message.timestamp.after.max.ms", str(3 * HOUR),
                        incremental_operation=AlterConfigOpType.SET)])
        a.incremental_alter_configs([res])[res].result(timeout=30)
        now = now_ms()
        batch = _ts_batch(now, [0, -2 * HOUR, 2 * HOUR, -60_000, 30 * 60_000])
        part = produce_retrying(c, v, [(topic, 0, batch)])[(topic, 0)]
        assert (part["ErrorCode"], part["BaseOffset"]) == (0, 0), part
        assert end_offset(c, topic) == 5
        # ...and 4 h is still too far
        part = produce_many(c, v, [(topic, 0, _ts_batch(now_ms(), [0, 4 * HOUR]))])[(topic, 0)]
        assert part["ErrorCode"] == INVALID_TIMESTAMP
        assert [i for i, _ in record_errors(part)] == [1]


API_INCREMENTAL_ALTER_CONFIGS = 44
TOPIC, BROKER = 2, 4


def describe_config(c, rtype, name, key):
    """(value, source, synonyms [(name, value, source)], type, documentation)
    of one config, over raw DescribeConfigs with synonyms and documentation."""
    v = c.pick(rawkafka.API_DESCRIBE_CONFIGS)
    resp = c.request(rawkafka.API_DESCRIBE_CONFIGS, v, {
        "Resources": [{"ResourceType": rtype, "ResourceName": name, "ConfigurationKeys": [key]}],
        "IncludeSynonyms": True, "IncludeDocumentation": True})
    (res,) = resp["Results"]
    assert res["ErrorCode"] == 0, res
    (e,) = [e for e in res["Configs"] if e["Name"] == key]
    return (e["Value"], e.get("ConfigSource"),
            [(s["Name"], s["Value"], s["Source"]) for s in e.get("Synonyms") or []],
            e.get("ConfigType"), e.get("Documentation"))


def incremental_alter(c, rtype, name, key, value, op=0):
    v = c.pick(API_INCREMENTAL_ALTER_CONFIGS)
    resp = c.request(API_INCREMENTAL_ALTER_CONFIGS, v, {
        "Resources": [{"ResourceType": rtype, "ResourceName": name,
                       "Configs": [{"Name": key, "ConfigOperation": op, "Value": value}]}],
        "ValidateOnly": False})
    (r,) = resp["Responses"]
    return r["ErrorCode"], r.get("ErrorMessage")


def test_timestamp_configs_are_validated_described_and_follow_the_broker_default(broker_factory):
    from confluent_kafka.admin import ConfigResource, ResourceType
    b = broker_factory({"num.partitions": "1", "log.message.timestamp.before.max.ms": "86400000"})
    a = clients.confluent_admin(b.bootstrap)
    topic = harness.unique_topic("tscfg")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    key_after, key_before = "message.timestamp.after.max.ms", "message.timestamp.before.max.ms"
    with KafkaConn(b.bootstrap) as c:
        c.api_versions()
        v = pick_v8(c)
        # described: Kafka 4's defaults, type LONG (5), source and synonyms
        value, source, synonyms, ctype, doc = describe_config(c, TOPIC, topic, key_after)
        assert (value, source, ctype) == ("3600000", 5, 5)
        assert synonyms == [("log.message.timestamp.after.max.ms", "3600000", 5)]
        assert doc
        value, source, synonyms, _, _ = describe_config(c, TOPIC, topic, key_before)
        assert (value, source) == ("86400000", 4)  # STATIC_BROKER_CONFIG
        assert synonyms == [("log.message.timestamp.before.max.ms", "86400000", 4)]
        value, source, _, ctype, _ = describe_config(c, BROKER, str(b.node_id),
                                                     "log.message.timestamp.after.max.ms")
        assert (value, source, ctype) == ("3600000", 5, 5)

        # validated: a long, at least 0
        for bad in ("-1", "1.5", "soon", "9223372036854775808"):
            code, msg = incremental_alter(c, TOPIC, topic, key_after, bad)
            assert code == rawkafka.INVALID_CONFIG, (bad, code, msg)
            code, msg = incremental_alter(c, BROKER, "", "log.message.timestamp.after.max.ms", bad)
            assert code == rawkafka.INVALID_CONFIG, (bad, code, msg)

        # the cluster-wide dynamic default reaches a topic without an override
        part = produce_many(c, v, [(topic, 0, _ts_batch(now_ms(), [0, 10 * 60_000]))])[(topic, 0)]
        assert part["ErrorCode"] == 0, part
        assert incremental_alter(c, BROKER, "", "log.message.timestamp.after.max.ms", "60000")[0] == 0
        value, source, _, _, _ = describe_config(c, TOPIC, topic, key_after)
        assert (value, source) == ("60000", 3)  # DYNAMIC_DEFAULT_BROKER_CONFIG
        part = produce_retrying(c, v, [(topic, 0, _ts_batch(now_ms(), [0, 10 * 60_000]))])[(topic, 0)]
        assert part["ErrorCode"] == INVALID_TIMESTAMP, part
        assert [i for i, _ in record_errors(part)] == [1]

        # a topic override wins (AlterConfigs, the full-replacement API)
        full = ConfigResource(ResourceType.TOPIC, topic, set_config={key_after: str(HOUR)})
        a.alter_configs([full])[full].result(timeout=30)
        value, source, synonyms, _, _ = describe_config(c, TOPIC, topic, key_after)
        assert (value, source) == (str(HOUR), 1)  # DYNAMIC_TOPIC_CONFIG
        assert synonyms[0] == (key_after, str(HOUR), 1)
        part = produce_retrying(c, v, [(topic, 0, _ts_batch(now_ms(), [0, 10 * 60_000]))])[(topic, 0)]
        assert part["ErrorCode"] == 0, part

        # per broker, as a dynamic broker config
        assert incremental_alter(c, BROKER, str(b.node_id), "log.message.timestamp.before.max.ms",
                                 "1000")[0] == 0
        value, source, _, _, _ = describe_config(c, TOPIC, topic, key_before)
        assert (value, source) == ("1000", 2)  # DYNAMIC_BROKER_CONFIG
        part = produce_retrying(c, v, [(topic, 0, _ts_batch(now_ms(), [-60_000, 0]))])[(topic, 0)]
        assert part["ErrorCode"] == INVALID_TIMESTAMP, part
        assert [i for i, _ in record_errors(part)] == [0]


def test_log_append_time_topics_are_not_checked(broker):
    topic = new_topic(broker, "lat", configs={"message.timestamp.type": "LogAppendTime",
                                              "message.timestamp.before.max.ms": "0",
                                              "message.timestamp.after.max.ms": "0"})
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        v = pick_v8(c)
        now = now_ms()
        part = produce_many(c, v, [(topic, 0, _ts_batch(now, [-48 * HOUR, 48 * HOUR]))])[(topic, 0)]
        assert (part["ErrorCode"], part["BaseOffset"]) == (0, 0), part
        assert part["LogAppendTimeMs"] >= now - 1000
        # a producer may not claim LogAppendTime itself (Kafka's rule)
        lat = rawkafka.build_batch([(b"k", b"v"), (b"k", b"v")], timestamp_type=1)
        part = produce_many(c, v, [(topic, 0, lat)])[(topic, 0)]
        assert part["ErrorCode"] == INVALID_TIMESTAMP, part
        assert [i for i, _ in record_errors(part)] == [0, 1]
        assert end_offset(c, topic) == 2


# ---------------------------------------------------------------- size and corruption (kept)

def test_too_large_and_corrupt_batches(broker):
    topic = new_topic(broker, "big", configs={"max.message.bytes": "2000"})
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        v = pick_v8(c)
        part = produce_many(c, v, [(topic, 0, rawkafka.build_batch([(b"k", b"x" * 3000)]))])[(topic, 0)]
        assert part["ErrorCode"] == rawkafka.MESSAGE_TOO_LARGE, part
        assert record_errors(part) == []
        good = bytearray(rawkafka.build_batch([(b"k", b"v")]))
        good[-1] ^= 0xFF  # the CRC no longer matches
        part = produce_many(c, v, [(topic, 0, bytes(good))])[(topic, 0)]
        assert part["ErrorCode"] == rawkafka.CORRUPT_MESSAGE, part
        assert end_offset(c, topic) == 0


# ---------------------------------------------------------------- a real client

def test_confluent_producer_reports_the_keyless_record(broker):
    from confluent_kafka import KafkaError
    topic = new_topic(broker, "ckkv", partitions=2, configs={"cleanup.policy": "compact"})
    p = clients.confluent_producer(broker.bootstrap, **{"message.send.max.retries": 0})
    reports = {}

    def on_delivery(err, msg):
        reports[msg.value()] = err

    p.produce(topic, value=b"no-key", partition=0, on_delivery=on_delivery)
    p.produce(topic, key=b"k", value=b"keyed", partition=1, on_delivery=on_delivery)
    assert p.flush(30) == 0
    err = reports[b"no-key"]
    assert err is not None and err.code() == KafkaError.INVALID_RECORD, err
    assert reports[b"keyed"] is None, reports[b"keyed"]
    print("librdkafka reports: %s" % err.str())
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        assert end_offset(c, topic, 0) == 0
        assert end_offset(c, topic, 1) == 1
