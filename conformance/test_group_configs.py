"""Group configs (Kafka 4's GroupConfig, KIP-848/KIP-932; config resource
type GROUP = 32): IncrementalAlterConfigs SET/DELETE and AlterConfigs on a
group, DescribeConfigs with each config's source (DYNAMIC_GROUP_CONFIG for
an override, DEFAULT_CONFIG otherwise), Kafka's refusals (unknown name,
out-of-range lock duration, unknown reset strategy, a dead-letter topic
without the broker's prefix, APPEND on a non-list config, an empty group
name) leaving the overrides as they were, and overrides surviving a
restart. Raw requests, plus confluent-kafka's admin client when it sends
resource type 32 for GROUP configs.

One broker for the module (the restart test restarts it last); a
three-node cluster shows an override set through one broker on every
broker, across restarts, and its deletion through another.
"""

import pytest

import rawkafka

BROKER_SETTINGS = {"num.partitions": 1,
                   "group.share.max.record.lock.duration.ms": 50000}

API_DESCRIBE_CONFIGS, API_ALTER_CONFIGS, API_INCREMENTAL_ALTER = 32, 33, 44
GROUP = 32
SET, DELETE, APPEND = 0, 1, 2
NONE, INVALID_REQUEST, INVALID_CONFIG = 0, 42, 40
DYNAMIC_GROUP_CONFIG, DEFAULT_CONFIG = 8, 5

GROUP_CONFIG_NAMES = {
    "consumer.session.timeout.ms", "consumer.heartbeat.interval.ms",
    "share.session.timeout.ms", "share.heartbeat.interval.ms",
    "share.record.lock.duration.ms", "share.auto.offset.reset", "share.isolation.level",
    "share.delivery.count.limit", "share.partition.max.record.locks",
    "errors.deadletterqueue.topic.name", "errors.deadletterqueue.copy.record.enable",
    "share.release.backoff.ms",
}


def conn(broker):
    return rawkafka.KafkaConn(broker.bootstrap)


def describe(broker, group, keys=None, synonyms=False):
    """{name: (value, source, read_only, synonyms)} of a group, or the
    (error code, message) pair of a refused describe."""
    with conn(broker) as c:
        v = c.pick(API_DESCRIBE_CONFIGS, cap=4)
        r = c.request(API_DESCRIBE_CONFIGS, v, {
            "Resources": [{"ResourceType": GROUP, "ResourceName": group,
                           "ConfigurationKeys": keys}],
            "IncludeSynonyms": synonyms, "IncludeDocumentation": False})
    res = r["Results"][0]
    if res["ErrorCode"]:
        return res["ErrorCode"], res["ErrorMessage"]
    return {e["Name"]: (e["Value"], e["ConfigSource"], e["ReadOnly"],
                        [(s["Name"], s["Value"], s["Source"]) for s in e.get("Synonyms") or []])
            for e in res["Configs"]}


def incremental(broker, group, ops, validate_only=False):
    """(error code, message) of one IncrementalAlterConfigs on a group;
    ops: [(name, operation, value)]."""
    with conn(broker) as c:
        v = c.pick(API_INCREMENTAL_ALTER, cap=1)
        r = c.request(API_INCREMENTAL_ALTER, v, {
            "Resources": [{"ResourceType": GROUP, "ResourceName": group, "Configs": [
                {"Name": n, "ConfigOperation": op, "Value": val} for n, op, val in ops]}],
            "ValidateOnly": validate_only})
    res = r["Responses"][0]
    return res["ErrorCode"], res["ErrorMessage"]


def value(broker, group, name):
    got = describe(broker, group, keys=[name])
    return got[name][0], got[name][1]


def test_defaults_of_a_group_that_does_not_exist(broker):
    got = describe(broker, "no-such-group", synonyms=True)
    assert set(got) == GROUP_CONFIG_NAMES
    assert got["share.record.lock.duration.ms"][:3] == ("30000", DEFAULT_CONFIG, False)
    assert got["share.auto.offset.reset"][0] == "latest"
    assert got["share.isolation.level"][0] == "read_uncommitted"
    assert got["errors.deadletterqueue.topic.name"][0] == ""
    assert got["share.delivery.count.limit"][0] == "5"
    assert got["share.partition.max.record.locks"][0] == "2000"
    assert got["share.record.lock.duration.ms"][3] == [
        ("share.record.lock.duration.ms", "30000", DEFAULT_CONFIG)]
    # The requested-keys filter.
    assert set(describe(broker, "no-such-group", keys=["share.isolation.level"])) == {
        "share.isolation.level"}


def test_set_describe_delete(broker):
    g = "gc-set"
    assert incremental(broker, g, [("share.record.lock.duration.ms", SET, "45000"),
                                   ("share.auto.offset.reset", SET, "by_duration:PT1H"),
                                   ("errors.deadletterqueue.topic.name", SET, "dlq.gc-set")]) \
        == (NONE, None)
    got = describe(broker, g, synonyms=True)
    assert got["share.record.lock.duration.ms"][:3] == ("45000", DYNAMIC_GROUP_CONFIG, False)
    assert got["share.record.lock.duration.ms"][3] == [
        ("share.record.lock.duration.ms", "45000", DYNAMIC_GROUP_CONFIG)]
    assert got["share.auto.offset.reset"][:2] == ("by_duration:PT1H", DYNAMIC_GROUP_CONFIG)
    assert got["errors.deadletterqueue.topic.name"][:2] == ("dlq.gc-set", DYNAMIC_GROUP_CONFIG)
    assert got["share.isolation.level"][:2] == ("read_uncommitted", DEFAULT_CONFIG)
    # Other groups keep the defaults.
    assert value(broker, "gc-other", "share.record.lock.duration.ms") == ("30000", DEFAULT_CONFIG)
    # DELETE returns to the default; the other overrides stay.
    assert incremental(broker, g, [("share.record.lock.duration.ms", DELETE, None)]) == (NONE, None)
    assert value(broker, g, "share.record.lock.duration.ms") == ("30000", DEFAULT_CONFIG)
    assert value(broker, g, "share.auto.offset.reset") == ("by_duration:PT1H", DYNAMIC_GROUP_CONFIG)
    # validate_only changes nothing.
    assert incremental(broker, g, [("share.isolation.level", SET, "read_committed")],
                       validate_only=True) == (NONE, None)
    assert value(broker, g, "share.isolation.level") == ("read_uncommitted", DEFAULT_CONFIG)


@pytest.mark.parametrize("name,bad,words", [
    # Beyond this broker's group.share.max.record.lock.duration.ms (50000).
    ("share.record.lock.duration.ms", "55000", "group.share.max.record.lock.duration.ms"),
    ("share.record.lock.duration.ms", "999", "at least 1000"),
    ("share.auto.offset.reset", "sometimes", "Unknown auto offset reset strategy"),
    ("share.auto.offset.reset", "by_duration:-PT1H", "Unable to parse duration"),
    ("share.isolation.level", "read_commit", "read_committed"),
    ("errors.deadletterqueue.topic.name", "orders-dlq", "dlq."),
    ("share.delivery.count.limit", "11", "group.share.max.delivery.count.limit"),
    ("share.release.backoff.ms", "3600001", "3600000"),
    ("no.such.config", "1", "Unknown group config name: no.such.config"),
])
def test_bad_values_are_refused_and_change_nothing(broker, name, bad, words):
    g = "gc-bad"
    assert incremental(broker, g, [("share.delivery.count.limit", SET, "7")]) == (NONE, None)
    before = describe(broker, g)
    # A valid change next to the bad one is not applied either.
    code, msg = incremental(broker, g, [(name, SET, bad),
                                        ("share.partition.max.record.locks", SET, "500")])
    assert code == INVALID_CONFIG, (code, msg)
    assert words in msg, msg
    assert describe(broker, g) == before


def test_kafka_refusals(broker):
    # APPEND applies to list configs only.
    code, _ = incremental(broker, "gc-x", [("share.isolation.level", APPEND, "read_committed")])
    assert code == INVALID_CONFIG
    # The empty group name is Kafka's default resource, which groups lack.
    assert incremental(broker, "", [("share.isolation.level", SET, "read_committed")])[0] \
        == INVALID_REQUEST
    assert describe(broker, "")[0] == INVALID_REQUEST
    # Session above heartbeat (Kafka's rule, defaults filled in).
    code, msg = incremental(broker, "gc-x", [("share.session.timeout.ms", SET, "45000"),
                                             ("share.heartbeat.interval.ms", SET, "15000")])
    assert code == NONE, msg


def test_alter_configs_replaces_the_set(broker):
    g = "gc-legacy"
    assert incremental(broker, g, [("share.delivery.count.limit", SET, "4")]) == (NONE, None)
    with conn(broker) as c:
        v = c.pick(API_ALTER_CONFIGS, cap=2)
        r = c.request(API_ALTER_CONFIGS, v, {
            "Resources": [{"ResourceType": GROUP, "ResourceName": g, "Configs": [
                {"Name": "share.isolation.level", "Value": "read_committed"}]}],
            "ValidateOnly": False})
    assert r["Responses"][0]["ErrorCode"] == NONE, r
    assert value(broker, g, "share.isolation.level") == ("read_committed", DYNAMIC_GROUP_CONFIG)
    assert value(broker, g, "share.delivery.count.limit") == ("5", DEFAULT_CONFIG)


def test_confluent_admin_client(broker):
    """confluent-kafka's ResourceType.GROUP is the ACL code (3), but its
    config requests send Kafka's config resource type 32 (2.16, the version
    conformance/requirements.txt pins, does)."""
    from confluent_kafka.admin import (AdminClient, AlterConfigOpType, ConfigEntry,
                                       ConfigResource, ResourceType)
    a = AdminClient({"bootstrap.servers": broker.bootstrap})
    res = ConfigResource(ResourceType.GROUP, "gc-confluent", incremental_configs=[
        ConfigEntry("share.isolation.level", "read_committed",
                    incremental_operation=AlterConfigOpType.SET)])
    a.incremental_alter_configs([res])[res].result(timeout=20)
    got = a.describe_configs([ConfigResource(ResourceType.GROUP, "gc-confluent")])
    cfg = list(got.values())[0].result(timeout=20)
    assert cfg["share.isolation.level"].value == "read_committed"
    assert value(broker, "gc-confluent", "share.isolation.level") == (
        "read_committed", DYNAMIC_GROUP_CONFIG)


def test_overrides_survive_a_restart(broker):
    g = "gc-restart"
    assert incremental(broker, g, [("share.record.lock.duration.ms", SET, "20000"),
                                   ("errors.deadletterqueue.copy.record.enable", SET, "true")]) \
        == (NONE, None)
    broker.restart()
    assert value(broker, g, "share.record.lock.duration.ms") == ("20000", DYNAMIC_GROUP_CONFIG)
    assert value(broker, g, "errors.deadletterqueue.copy.record.enable") == (
        "true", DYNAMIC_GROUP_CONFIG)
    assert value(broker, "gc-set", "share.auto.offset.reset") == (
        "by_duration:PT1H", DYNAMIC_GROUP_CONFIG)


@pytest.mark.cluster
def test_cluster_overrides_reach_every_broker():
    """Set through broker 1, seen by every broker (the controller log);
    deleted through broker 3, gone everywhere; kept across a restart of
    the whole cluster."""
    import time

    import cluster
    c = cluster.Cluster(3, name="gcfgcluster")
    try:
        c.start()
        c.wait_ready(probe_topic=False)
        g = "gc-cluster"

        def everywhere(expected, timeout=10):
            deadline = time.monotonic() + timeout
            while True:
                got = {n.node_id: value(n, g, "share.isolation.level") for n in c.nodes.values()}
                if all(v == expected for v in got.values()):
                    return
                if time.monotonic() > deadline:
                    raise AssertionError("expected %s everywhere, got %s" % (expected, got))
                time.sleep(0.1)

        assert incremental(c.node(1), g, [("share.isolation.level", SET, "read_committed")]) \
            == (NONE, None)
        # Acknowledged once the taking broker applied it.
        assert value(c.node(1), g, "share.isolation.level") == (
            "read_committed", DYNAMIC_GROUP_CONFIG)
        everywhere(("read_committed", DYNAMIC_GROUP_CONFIG))
        # A bad value is refused on any broker.
        assert incremental(c.node(2), g, [("share.record.lock.duration.ms", SET, "61000")])[0] \
            == INVALID_CONFIG
        for n in c.nodes.values():
            n.restart()
        c.wait_ready(probe_topic=False)
        everywhere(("read_committed", DYNAMIC_GROUP_CONFIG), timeout=20)
        assert incremental(c.node(3), g, [("share.isolation.level", DELETE, None)]) == (NONE, None)
        everywhere(("read_uncommitted", DEFAULT_CONFIG))
    finally:
        c.close()
