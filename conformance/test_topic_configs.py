"""Kafka's complete topic config list (Kafka 4.x, from its documentation
and LogConfig: name, type, default, and values it refuses) walked through
CreateTopics, DescribeConfigs, IncrementalAlterConfigs and AlterConfigs
with confluent-kafka's and kafka-python's admin clients, and the effect of
compression.type on what is stored.

Tidemark departs from Kafka's defaults in one place, said in the docs:
preallocate (log.preallocate) is true, measured faster on this disk."""

import time

import pytest

import clients
import harness
import rawkafka
from rawkafka import KafkaConn

BROKER_SETTINGS = {"num.partitions": "1", "auto.create.topics.enable": "false"}

LONG_MAX = "9223372036854775807"
BOOLEAN, STRING, INT, LONG, DOUBLE, LIST = 1, 2, 3, 5, 6, 7
DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG = 1, 5
INVALID_CONFIG = 40
INVALID_REQUEST = 42

# name: (type, Kafka's default, a valid other value, [values Kafka refuses])
KAFKA_TOPIC_CONFIGS = {
    "cleanup.policy": (LIST, "delete", "compact,delete", ["sometimes", "compact,never"]),
    "compression.gzip.level": (INT, "-1", "5", ["0", "10", "x"]),
    "compression.lz4.level": (INT, "9", "12", ["0", "18"]),
    "compression.type": (STRING, "producer", "zstd", ["brotli", "none", "GZIP"]),
    "compression.zstd.level": (INT, "3", "10", ["23", "-131073"]),
    "delete.retention.ms": (LONG, "86400000", "1000", ["-1", "1.5"]),
    "file.delete.delay.ms": (LONG, "60000", "1000", ["-1"]),
    "flush.messages": (LONG, LONG_MAX, "100", ["0"]),
    "flush.ms": (LONG, LONG_MAX, "1000", ["-1"]),
    "follower.replication.throttled.replicas": (LIST, "", "0:1,1:2", ["x:y", "0-1"]),
    "index.interval.bytes": (INT, "4096", "1024", ["-1"]),
    "leader.replication.throttled.replicas": (LIST, "", "*", ["all"]),
    "local.retention.bytes": (LONG, "-2", "1000", ["-3"]),
    "local.retention.ms": (LONG, "-2", "1000", ["-3"]),
    "max.compaction.lag.ms": (LONG, LONG_MAX, "86400000", ["0"]),
    "max.message.bytes": (INT, "1048588", "2000000", ["-1", "2147483648"]),
    "message.timestamp.after.max.ms": (LONG, "3600000", "1000", ["-1"]),
    "message.timestamp.before.max.ms": (LONG, LONG_MAX, "1000", ["-1"]),
    "message.timestamp.type": (STRING, "CreateTime", "LogAppendTime", ["Now"]),
    "min.cleanable.dirty.ratio": (DOUBLE, "0.5", "0.25", ["1.5", "-0.1"]),
    "min.compaction.lag.ms": (LONG, "0", "1000", ["-1"]),
    "min.insync.replicas": (INT, "1", "2", ["0"]),
    "preallocate": (BOOLEAN, "false", "false", ["yes"]),
    "remote.log.copy.disable": (BOOLEAN, "false", "true", ["maybe"]),
    "remote.log.delete.on.disable": (BOOLEAN, "false", "true", ["maybe"]),
    "remote.storage.enable": (BOOLEAN, "false", "false", ["maybe", "true"]),
    "retention.bytes": (LONG, "-1", "100000000", ["x"]),
    "retention.ms": (LONG, "604800000", "86400000", ["-2"]),
    "segment.bytes": (INT, "1073741824", "10485760", ["13", "1048575"]),
    "segment.index.bytes": (INT, "10485760", "1048576", ["3"]),
    "segment.jitter.ms": (LONG, "0", "1000", ["-1"]),
    "segment.ms": (LONG, "604800000", "3600000", ["0"]),
    "unclean.leader.election.enable": (BOOLEAN, "false", "true", ["sometimes"]),
}

# Where Tidemark's default differs from Kafka's, and why (docs/configs).
TIDEMARK_DEFAULTS = {"preallocate": "true"}


def default(name):
    return TIDEMARK_DEFAULTS.get(name, KAFKA_TOPIC_CONFIGS[name][1])


def describe_all(c, rtype, name):
    """{config name: entry} over raw DescribeConfigs v4 with synonyms and
    documentation (the types and docs confluent-kafka does not expose)."""
    v = c.pick(rawkafka.API_DESCRIBE_CONFIGS)
    assert v >= 3, v
    resp = c.request(rawkafka.API_DESCRIBE_CONFIGS, v, {
        "Resources": [{"ResourceType": rtype, "ResourceName": name, "ConfigurationKeys": None}],
        "IncludeSynonyms": True, "IncludeDocumentation": True})
    (res,) = resp["Results"]
    assert res["ErrorCode"] == 0, res
    return {e["Name"]: e for e in res["Configs"]}


def confluent_describe(admin, topic):
    from confluent_kafka.admin import ConfigResource
    res = ConfigResource("topic", topic)
    return admin.describe_configs([res])[res].result(timeout=30)


def create(admin, topic, config):
    from confluent_kafka.admin import NewTopic
    fs = admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1,
                                       config=config)], operation_timeout=30)
    return fs[topic]


def test_every_kafka_topic_config_is_described_with_its_default_type_and_docs(broker):
    topic = clients.confluent_create_topic(broker.bootstrap, harness.unique_topic("cfgdef"))
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        entries = describe_all(c, 2, topic)
    missing = sorted(set(KAFKA_TOPIC_CONFIGS) - set(entries))
    assert not missing, missing
    for name, (ctype, _, _, _) in KAFKA_TOPIC_CONFIGS.items():
        e = entries[name]
        assert e["Value"] == default(name), (name, e["Value"])
        assert e["ConfigSource"] == DEFAULT_CONFIG, (name, e)
        assert e["ConfigType"] == ctype, (name, e["ConfigType"])
        assert not e["ReadOnly"] and not e["IsSensitive"], (name, e)
        assert e["Documentation"], name
        # The broker setting a default comes from is its synonym (Kafka's
        # ServerTopicConfigSynonyms), except for the few with none.
        syn = [(s["Name"], s["Value"], s["Source"]) for s in e["Synonyms"]]
        assert syn and syn[-1][1] == default(name) and syn[-1][2] == DEFAULT_CONFIG, (name, syn)
    assert entries["retention.ms"]["Synonyms"][-1]["Name"] == "log.retention.ms"
    assert entries["segment.index.bytes"]["Synonyms"][-1]["Name"] == "log.index.size.max.bytes"
    assert entries["file.delete.delay.ms"]["Synonyms"][-1]["Name"] == "log.segment.delete.delay.ms"
    assert entries["compression.type"]["Synonyms"][-1]["Name"] == "compression.type"
    # The same defaults through confluent-kafka's admin client.
    got = confluent_describe(clients.confluent_admin(broker.bootstrap), topic)
    for name in KAFKA_TOPIC_CONFIGS:
        assert got[name].value == default(name), (name, got[name].value)
        assert got[name].is_default, name


def test_every_config_set_at_creation_is_stored_and_described(broker):
    admin = clients.confluent_admin(broker.bootstrap)
    topic = harness.unique_topic("cfgall")
    values = {n: v[2] for n, v in KAFKA_TOPIC_CONFIGS.items()}
    create(admin, topic, values).result(timeout=30)
    got = confluent_describe(admin, topic)
    for name, value in values.items():
        assert got[name].value == value, (name, got[name].value)
        assert got[name].source == DYNAMIC_TOPIC_CONFIG, (name, got[name].source)
    # kafka-python's admin sees the same.
    from kafka.admin import ConfigResource, ConfigResourceType
    kp = clients.kp_admin(broker.bootstrap)
    try:
        out = kp.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)],
                                  config_filter="all")
        (by_name,) = [v for v in out.values()]
        entries = by_name[topic]
        for name, value in values.items():
            assert entries[name]["value"] == value, (name, entries[name])
    finally:
        kp.close()


@pytest.mark.parametrize("name", sorted(KAFKA_TOPIC_CONFIGS))
def test_values_kafka_refuses_are_refused_with_invalid_config(broker, name):
    from confluent_kafka import KafkaException
    admin = clients.confluent_admin(broker.bootstrap)
    for bad in KAFKA_TOPIC_CONFIGS[name][3]:
        topic = harness.unique_topic("cfgbad")
        with pytest.raises(KafkaException) as e:
            create(admin, topic, {name: bad}).result(timeout=30)
        err = e.value.args[0]
        assert err.code() == INVALID_CONFIG, (name, bad, err)
        assert name in err.str(), (name, bad, err.str())
    # Nothing was created by the refused requests.
    md = admin.list_topics(timeout=10)
    assert not [t for t in md.topics if t.startswith("cfgbad") and name in t]


def test_unknown_and_removed_configs_are_refused(broker):
    from confluent_kafka import KafkaException
    admin = clients.confluent_admin(broker.bootstrap)
    # message.format.version and message.downconversion.enable left Kafka 4.
    for name in ["no.such.config", "message.format.version", "message.downconversion.enable"]:
        with pytest.raises(KafkaException) as e:
            create(admin, harness.unique_topic("cfgunk"), {name: "1"}).result(timeout=30)
        assert e.value.args[0].code() == INVALID_CONFIG, name


def test_internal_segment_bytes_rolls_small_segments_and_shows_only_where_set(broker):
    """Kafka 4 refuses a segment.bytes under 1 MiB; its internal
    `internal.segment.bytes` (what Kafka's own tests use) sets a smaller
    segment size. It is described only on a topic that sets it."""
    from confluent_kafka import KafkaError, KafkaException
    admin = clients.confluent_admin(broker.bootstrap)
    small = harness.unique_topic("cfgintseg")
    create(admin, small, {"internal.segment.bytes": "16384"}).result(timeout=30)
    plain = clients.confluent_create_topic(broker.bootstrap, harness.unique_topic("cfgplain"))
    got = confluent_describe(admin, small)
    assert got["internal.segment.bytes"].value == "16384"
    assert got["internal.segment.bytes"].source == DYNAMIC_TOPIC_CONFIG
    assert got["segment.bytes"].value == "1073741824" and got["segment.bytes"].is_default
    assert "internal.segment.bytes" not in confluent_describe(admin, plain)
    # 200 records of 1 KiB, in batches under 8 KiB (a batch must fit in
    # a segment), roll a 16 KiB segment many times; all are read.
    msgs = [{"key": b"k%d" % i, "value": b"%04d" % i + b"x" * 1020} for i in range(200)]
    clients.confluent_produce(broker.bootstrap, small, msgs, conf={"batch.size": 8192})
    (part,) = list((broker.data_dir / "logs").glob(small + "-0-*"))
    segments = sorted(part.glob("*.log"))
    assert len(segments) >= 8, segments
    got_msgs = clients.confluent_consume(broker.bootstrap, small, [0], 200)
    assert [m["value"][:4] for m in got_msgs] == [b"%04d" % i for i in range(200)]
    # A batch larger than a segment is refused as Kafka refuses it, though
    # under max.message.bytes (which may exceed the segment size).
    with pytest.raises(KafkaException) as e:
        clients.confluent_produce(broker.bootstrap, small, [{"key": b"big", "value": b"y" * 20000}],
                                  conf={"linger.ms": 0, "retries": 0})
    assert e.value.args[0].code() == KafkaError.RECORD_LIST_TOO_LARGE, e.value.args[0]
    # Deleted, it is no longer described (segment.bytes is in force again).
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource
    res = ConfigResource("topic", small, incremental_configs=[ConfigEntry(
        "internal.segment.bytes", None, incremental_operation=AlterConfigOpType.DELETE)])
    admin.incremental_alter_configs([res])[res].result(timeout=30)
    assert "internal.segment.bytes" not in confluent_describe(admin, small)
    # Under the 1 KiB a segment needs here is refused.
    for bad in ["1023", "-1", "x"]:
        with pytest.raises(KafkaException) as e:
            create(admin, harness.unique_topic("cfgintbad"),
                   {"internal.segment.bytes": bad}).result(timeout=30)
        assert e.value.args[0].code() == INVALID_CONFIG, bad
        assert "internal.segment.bytes" in e.value.args[0].str(), bad


def test_compaction_lags_must_not_conflict(broker):
    from confluent_kafka import KafkaException
    admin = clients.confluent_admin(broker.bootstrap)
    with pytest.raises(KafkaException) as e:
        create(admin, harness.unique_topic("cfglag"),
               {"min.compaction.lag.ms": "5000", "max.compaction.lag.ms": "1000"}).result(timeout=30)
    assert e.value.args[0].code() == INVALID_CONFIG
    assert "min.compaction.lag.ms (5000) > max.compaction.lag.ms (1000)" in e.value.args[0].str()


def test_incremental_set_delete_append_subtract_and_validate_only(broker):
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource
    admin = clients.confluent_admin(broker.bootstrap)
    topic = clients.confluent_create_topic(broker.bootstrap, harness.unique_topic("cfginc"))
    res = ConfigResource("topic", topic)

    def alter(*ops, validate_only=False):
        r = ConfigResource("topic", topic, incremental_configs=[
            ConfigEntry(n, v, incremental_operation=op) for n, v, op in ops])
        return admin.incremental_alter_configs([r], validate_only=validate_only)[r].result(
            timeout=30)

    def value(name):
        return admin.describe_configs([res])[res].result(timeout=30)[name]

    SET, DELETE = AlterConfigOpType.SET, AlterConfigOpType.DELETE
    APPEND, SUBTRACT = AlterConfigOpType.APPEND, AlterConfigOpType.SUBTRACT
    # Every config, SET to its other value and DELETEd back to the default.
    for name, (_, _, other, bad) in KAFKA_TOPIC_CONFIGS.items():
        if other == default(name):
            continue
        alter((name, other, SET), validate_only=True)
        assert value(name).value == default(name), name
        alter((name, other, SET))
        assert (value(name).value, value(name).source) == (other, DYNAMIC_TOPIC_CONFIG), name
        with pytest.raises(KafkaException) as e:
            alter((name, bad[0], SET))
        assert e.value.args[0].code() == INVALID_CONFIG, name
        assert value(name).value == other, name
        alter((name, None, DELETE))
        assert (value(name).value, value(name).source) == (default(name), DEFAULT_CONFIG), name
    # APPEND and SUBTRACT on list configs (Kafka's LIST type).
    alter(("cleanup.policy", "compact", APPEND))
    assert value("cleanup.policy").value == "delete,compact"
    alter(("cleanup.policy", "delete", SUBTRACT))
    assert value("cleanup.policy").value == "compact"
    alter(("leader.replication.throttled.replicas", "0:1", APPEND))
    alter(("leader.replication.throttled.replicas", "0:2", APPEND))
    assert value("leader.replication.throttled.replicas").value == "0:1,0:2"
    alter(("leader.replication.throttled.replicas", "0:1", SUBTRACT))
    assert value("leader.replication.throttled.replicas").value == "0:2"
    # ... and not on anything else.
    with pytest.raises(KafkaException) as e:
        alter(("retention.ms", "1000", APPEND))
    assert e.value.args[0].code() == INVALID_CONFIG


def test_alter_configs_replaces_the_whole_set(broker):
    """AlterConfigs (the legacy API, confluent-kafka's alter_configs)
    replaces every override: what the request leaves out goes back to its
    default; validate_only changes nothing."""
    import warnings
    from confluent_kafka.admin import ConfigResource
    topic = harness.unique_topic("cfgfull")
    admin = clients.confluent_admin(broker.bootstrap)
    create(admin, topic, {"retention.ms": "86400000", "compression.type": "gzip"}).result(
        timeout=30)
    full = ConfigResource("topic", topic, set_config={"segment.jitter.ms": "500"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        admin.alter_configs([full], validate_only=True)[full].result(timeout=30)
        got = confluent_describe(admin, topic)
        assert got["retention.ms"].value == "86400000"
        assert got["segment.jitter.ms"].value == "0"
        admin.alter_configs([full])[full].result(timeout=30)
    got = confluent_describe(admin, topic)
    assert (got["segment.jitter.ms"].value, got["segment.jitter.ms"].source) == (
        "500", DYNAMIC_TOPIC_CONFIG)
    assert got["retention.ms"].value == default("retention.ms")
    assert got["compression.type"].value == "producer"


# ---------------------------------------------------------------- compression.type

def stored_codecs(broker, topic, count):
    return {b.codec for b in rawkafka.fetch_all(broker.bootstrap, topic, 0, count)}


CODEC_IDS = {"uncompressed": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


@pytest.mark.parametrize("target,sent", [("zstd", "none"), ("zstd", "gzip"),
                                         ("uncompressed", "lz4"), ("gzip", "snappy"),
                                         ("lz4", "zstd"), ("snappy", "none")])
def test_compression_type_recompresses_what_producers_send(broker, target, sent):
    topic = harness.unique_topic("codec")
    clients.confluent_create_topic(broker.bootstrap, topic,
                                   config={"compression.type": target})
    msgs = clients.make_messages("rc", 300)
    clients.confluent_produce(broker.bootstrap, topic, msgs, codec=sent,
                              partition=0, conf={"enable.idempotence": True})
    assert stored_codecs(broker, topic, len(msgs)) == {CODEC_IDS[target]}
    got = clients.confluent_consume(broker.bootstrap, topic, [0], len(msgs))
    assert clients.essence(got) == clients.essence(msgs)
    assert [m["offset"] for m in got] == list(range(len(msgs)))
    # kafka-python reads the same records.
    got = clients.kp_consume(broker.bootstrap, topic, [0], len(msgs))
    assert clients.essence(got) == clients.essence(msgs)


def test_compression_type_producer_keeps_each_batch_as_sent(broker):
    topic = clients.confluent_create_topic(broker.bootstrap, harness.unique_topic("codecp"))
    msgs = clients.make_messages("keep", 50)
    clients.confluent_produce(broker.bootstrap, topic, msgs, codec="lz4", partition=0)
    clients.kp_produce(broker.bootstrap, topic, msgs, codec="gzip", partition=0)
    assert stored_codecs(broker, topic, 2 * len(msgs)) == {1, 3}


def test_changing_compression_type_applies_to_new_batches(broker):
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource
    admin = clients.confluent_admin(broker.bootstrap)
    topic = clients.confluent_create_topic(broker.bootstrap, harness.unique_topic("codecchg"))
    first = clients.make_messages("a", 40)
    clients.confluent_produce(broker.bootstrap, topic, first, codec="none", partition=0)
    r = ConfigResource("topic", topic, incremental_configs=[
        ConfigEntry("compression.type", "zstd", incremental_operation=AlterConfigOpType.SET),
        ConfigEntry("compression.zstd.level", "19", incremental_operation=AlterConfigOpType.SET)])
    admin.incremental_alter_configs([r])[r].result(timeout=30)
    second = clients.make_messages("b", 40)
    deadline = time.monotonic() + 20
    while True:  # the reconfigured partition reopens: retriable errors meanwhile
        try:
            clients.confluent_produce(broker.bootstrap, topic, second, codec="none",
                                      partition=0, timeout=20)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    batches = rawkafka.fetch_all(broker.bootstrap, topic, 0, 80)
    assert {b.codec for b in batches if b.base_offset < 40} == {0}
    assert {b.codec for b in batches if b.base_offset >= 40} == {4}
    got = clients.confluent_consume(broker.bootstrap, topic, [0], 80)
    assert clients.essence(got) == clients.essence(first + second)


def test_recompressed_batch_past_max_message_bytes_is_refused(broker):
    """Recompressing can grow a batch (incompressible data, gzip framing):
    the stored batch must still fit max.message.bytes (Kafka checks it
    after conversion)."""
    import os
    topic = harness.unique_topic("codecbig")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        blob = rawkafka.build_batch([(None, os.urandom(1900))], codec="none")
        # The batch as sent fits exactly; gzip's framing makes it larger.
        rawkafka.ensure_topic(broker.bootstrap, topic, 1, configs={
            "compression.type": "gzip", "max.message.bytes": str(len(blob))})
        part, _ = c.produce(topic, 0, blob)
        assert part["ErrorCode"] == 10, part  # MESSAGE_TOO_LARGE
        assert c.list_offset(topic, 0, rawkafka.LATEST)["Offset"] == 0
        # The same batch is stored when the topic keeps what producers send.
        other = harness.unique_topic("codecbig")
        rawkafka.ensure_topic(broker.bootstrap, other, 1,
                              configs={"max.message.bytes": str(len(blob))})
        part, _ = c.produce(other, 0, blob)
        assert part["ErrorCode"] == 0, part


def test_broker_defaults_reach_topics_and_static_settings_are_refused(broker_factory):
    """A cluster-wide dynamic compression.type reaches topics without an
    override (described as DYNAMIC_DEFAULT_BROKER_CONFIG, and applied); a
    static broker setting cannot be changed, with Kafka's message."""
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource
    b = broker_factory(dict(BROKER_SETTINGS))
    admin = clients.confluent_admin(b.bootstrap)
    topic = clients.confluent_create_topic(b.bootstrap, harness.unique_topic("codecdef"))
    # The cluster-wide default is the BROKER resource named "" (which
    # confluent-kafka's ConfigResource refuses): a raw request.
    with KafkaConn(b.bootstrap) as c:
        c.api_versions()
        resp = c.request(44, c.pick(44), {  # IncrementalAlterConfigs
            "Resources": [{"ResourceType": 4, "ResourceName": "", "Configs": [
                {"Name": "compression.type", "ConfigOperation": 0, "Value": "zstd"}]}],
            "ValidateOnly": False})
        assert resp["Responses"][0]["ErrorCode"] == 0, resp
    got = confluent_describe(admin, topic)["compression.type"]
    assert (got.value, got.source) == ("zstd", 3), got  # DYNAMIC_DEFAULT_BROKER_CONFIG
    msgs = clients.make_messages("def", 30)
    deadline = time.monotonic() + 20
    while True:  # partitions reopen with the new default: retriable errors meanwhile
        try:
            clients.confluent_produce(b.bootstrap, topic, msgs, codec="none", partition=0,
                                      timeout=20)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    assert stored_codecs(b, topic, len(msgs)) == {4}
    static = ConfigResource("broker", str(b.node_id), incremental_configs=[
        ConfigEntry("socket.request.max.bytes", "1000",
                    incremental_operation=AlterConfigOpType.SET)])
    with pytest.raises(KafkaException) as e:
        admin.incremental_alter_configs([static])[static].result(timeout=30)
    err = e.value.args[0]
    assert err.code() == INVALID_REQUEST, err  # Kafka's code for a read-only config
    assert "Cannot update these configs dynamically: Set(socket.request.max.bytes)" in err.str()
