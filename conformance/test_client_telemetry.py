"""Client telemetry (KIP-714): client-metrics subscriptions as config
resources of type CLIENT_METRICS (16) through IncrementalAlterConfigs /
DescribeConfigs (raw requests and kafka-python's admin client;
confluent-kafka 2.16's ResourceType has no CLIENT_METRICS and refuses
16), GetTelemetrySubscriptions (71) and PushTelemetry (72) from a real
librdkafka producer and from raw requests, with Kafka's refusals
(INVALID_CONFIG for bad subscriptions, THROTTLING_QUOTA_EXCEEDED,
UNKNOWN_SUBSCRIPTION_ID, TELEMETRY_TOO_LARGE).

The broker logs each client instance's first accepted push at info
("client telemetry: first push client_instance_id=... client_id=...
metrics=N names=..."), and every later one at debug; the tests read that
log. Every subscription of the shared broker has a `match` on client_id,
so it only reaches the clients of its own test.
"""

import gzip
import re
import time

import pytest

import harness
import rawkafka

API_DESCRIBE_CONFIGS, API_INCREMENTAL_ALTER = 32, 44
API_GET_TELEMETRY, API_PUSH_TELEMETRY = 71, 72
CLIENT_METRICS = 16
SET, DELETE = 0, 1
NONE, INVALID_REQUEST, INVALID_CONFIG = 0, 42, 40
THROTTLING_QUOTA_EXCEEDED, UNKNOWN_SUBSCRIPTION_ID, TELEMETRY_TOO_LARGE = 89, 117, 118
CLIENT_METRICS_CONFIG, DEFAULT_CONFIG = 7, 5
ZERO_UUID = b"\0" * 16
LOG_FILTER = "info,openraft=error,tidemark_raft=warn,tidemark_broker::handlers::telemetry=debug"


@pytest.fixture(scope="module")
def broker():
    b = harness.Broker(name="test_client_telemetry", env={"TIDEMARK_LOG": LOG_FILTER})
    b.start()
    yield b
    b.close()


def incremental(broker, name, ops, validate_only=False):
    """(error code, message) of one IncrementalAlterConfigs on a
    subscription; ops: [(config, operation, value)]."""
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        v = c.pick(API_INCREMENTAL_ALTER, cap=1)
        r = c.request(API_INCREMENTAL_ALTER, v, {
            "Resources": [{"ResourceType": CLIENT_METRICS, "ResourceName": name, "Configs": [
                {"Name": n, "ConfigOperation": op, "Value": val} for n, op, val in ops]}],
            "ValidateOnly": validate_only})
    res = r["Responses"][0]
    return res["ErrorCode"], res["ErrorMessage"]


def describe(broker, name):
    """{config: (value, source)} of a subscription, or (error, message)."""
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        v = c.pick(API_DESCRIBE_CONFIGS, cap=4)
        r = c.request(API_DESCRIBE_CONFIGS, v, {
            "Resources": [{"ResourceType": CLIENT_METRICS, "ResourceName": name,
                           "ConfigurationKeys": None}],
            "IncludeSynonyms": False, "IncludeDocumentation": False})
    res = r["Results"][0]
    if res["ErrorCode"]:
        return res["ErrorCode"], res["ErrorMessage"]
    return {e["Name"]: (e["Value"], e["ConfigSource"]) for e in res["Configs"]}


def subscribe(broker, name, client_id_regex, interval_ms=1000, metrics="*"):
    assert incremental(broker, name, [("metrics", SET, metrics),
                                      ("interval.ms", SET, str(interval_ms)),
                                      ("match", SET, "client_id=" + client_id_regex)]) \
        == (NONE, None)


def get_subscriptions(c, instance=ZERO_UUID):
    return c.request(API_GET_TELEMETRY, 0, {"ClientInstanceId": instance})


def push(c, instance, subscription_id, payload=b"", compression=0, terminating=False):
    r = c.request(API_PUSH_TELEMETRY, 0, {
        "ClientInstanceId": instance, "SubscriptionId": subscription_id,
        "Terminating": terminating, "CompressionType": compression, "Metrics": payload})
    return r["ErrorCode"]


def first_pushes(broker, client_id):
    """The broker's first-push log lines of clients named client_id."""
    return [line for line in broker.all_logs().splitlines()
            if "client telemetry: first push" in line
            and ('client_id="%s"' % client_id) in line]


def otlp_metrics_data(*names):
    """A minimal OTLP MetricsData with these metric names."""
    def ld(field, body):
        n, out = len(body), bytearray([(field << 3) | 2])
        while True:
            b = n & 0x7f
            n >>= 7
            out.append(b | (0x80 if n else 0))
            if not n:
                break
        return bytes(out) + body
    metrics = b"".join(ld(2, ld(1, n.encode())) for n in names)
    return ld(1, ld(2, metrics))


def test_subscription_set_described_deleted(broker):
    assert describe(broker, "sub-none") == {
        "metrics": ("", DEFAULT_CONFIG), "interval.ms": ("300000", DEFAULT_CONFIG),
        "match": ("", DEFAULT_CONFIG)}
    assert incremental(broker, "sub-a", [
        ("metrics", SET, "org.apache.kafka.producer.,org.apache.kafka.consumer."),
        ("interval.ms", SET, "2000"),
        ("match", SET, "client_id=app-.*,client_software_name=librdkafka")]) == (NONE, None)
    assert describe(broker, "sub-a") == {
        "metrics": ("org.apache.kafka.producer.,org.apache.kafka.consumer.", CLIENT_METRICS_CONFIG),
        "interval.ms": ("2000", CLIENT_METRICS_CONFIG),
        "match": ("client_id=app-.*,client_software_name=librdkafka", CLIENT_METRICS_CONFIG)}
    assert incremental(broker, "sub-a", [("interval.ms", DELETE, None)]) == (NONE, None)
    assert describe(broker, "sub-a")["interval.ms"] == ("300000", DEFAULT_CONFIG)
    assert incremental(broker, "sub-a", [("metrics", DELETE, None), ("match", DELETE, None)]) \
        == (NONE, None)
    assert describe(broker, "sub-a")["metrics"] == ("", DEFAULT_CONFIG)
    # validate_only stores nothing.
    assert incremental(broker, "sub-v", [("interval.ms", SET, "500")], validate_only=True) \
        == (NONE, None)
    assert describe(broker, "sub-v")["interval.ms"] == ("300000", DEFAULT_CONFIG)
    # An empty name is refused.
    assert incremental(broker, "", [("interval.ms", SET, "500")])[0] == INVALID_REQUEST


@pytest.mark.parametrize("name,value,words", [
    ("interval.ms", "50", "interval must be between 100 and 3600000"),
    ("interval.ms", "3600001", "interval must be between 100 and 3600000"),
    ("interval.ms", "soon", "Not a number"),
    ("match", "client_id=(", "Illegal client matching pattern"),
    ("match", "client_colour=red", "Illegal client matching pattern"),
    ("match", "client_id", "Illegal client matching pattern"),
    ("no.such.config", "1", "Unknown client metrics configuration"),
])
def test_bad_values_are_invalid_config(broker, name, value, words):
    subscribe(broker, "sub-bad", "bad-.*", interval_ms=5000)
    before = describe(broker, "sub-bad")
    code, msg = incremental(broker, "sub-bad", [(name, SET, value), ("metrics", SET, "x.")])
    assert code == INVALID_CONFIG, (code, msg)
    assert words in msg, msg
    assert describe(broker, "sub-bad") == before


def test_kafka_python_admin_client(broker):
    from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient
    a = KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="tel-admin")
    try:
        a.alter_configs([ConfigResource(ConfigResourceType.CLIENT_METRICS, "sub-kp", configs={
            "metrics": "org.apache.kafka.", "interval.ms": "60000",
            "match": "client_id=kp-.*"})], incremental=True, raise_on_unknown=False)
    finally:
        a.close()
    assert describe(broker, "sub-kp") == {
        "metrics": ("org.apache.kafka.", CLIENT_METRICS_CONFIG),
        "interval.ms": ("60000", CLIENT_METRICS_CONFIG),
        "match": ("client_id=kp-.*", CLIENT_METRICS_CONFIG)}


def test_librdkafka_producer_pushes_telemetry(broker):
    from confluent_kafka import Producer
    # Selected by client id and by the software its ApiVersions named.
    assert incremental(broker, "sub-rdk", [
        ("metrics", SET, "*"), ("interval.ms", SET, "1000"),
        ("match", SET, "client_id=tel-rdk,client_software_name=confluent-kafka-python")]) \
        == (NONE, None)
    p = Producer({"bootstrap.servers": broker.bootstrap, "client.id": "tel-rdk",
                  "enable.metrics.push": True})
    try:
        p.list_topics(timeout=10)
        harness.wait_until(lambda: first_pushes(broker, "tel-rdk"), timeout=20,
                           what="a telemetry push from librdkafka")
        # And it keeps pushing at about the interval (debug lines).
        harness.wait_until(
            lambda: "client telemetry push" in broker.all_logs()
            and any('client_id="tel-rdk"' in l for l in broker.all_logs().splitlines()
                    if "client telemetry push " in l),
            timeout=20, what="a second push")
    finally:
        p.flush(5)
        del p
    line = first_pushes(broker, "tel-rdk")[0]
    assert "software=confluent-kafka-python/" in line and "rdkafka-2." in line, line
    # The OTLP payload was decoded: librdkafka's producer metrics.
    n = int(re.search(r" metrics=(\d+)", line).group(1))
    assert n > 0, line
    assert "org.apache.kafka.producer." in line, line


def test_no_subscription_no_metrics_no_push(broker_factory):
    from confluent_kafka import Producer
    b = broker_factory(env={"TIDEMARK_LOG": LOG_FILTER})
    with rawkafka.KafkaConn(b.bootstrap, client_id="tel-none-raw") as c:
        r = get_subscriptions(c)
    assert r["ErrorCode"] == NONE
    assert r["ClientInstanceId"] != ZERO_UUID
    assert r["RequestedMetrics"] == []
    assert r["PushIntervalMs"] == 300000
    p = Producer({"bootstrap.servers": b.bootstrap, "client.id": "tel-none"})
    try:
        p.list_topics(timeout=10)
        time.sleep(4)
    finally:
        p.flush(5)
    assert "client telemetry" not in b.all_logs()


def test_raw_push_checks(broker):
    subscribe(broker, "sub-raw", "raw-tel", interval_ms=1000)
    with rawkafka.KafkaConn(broker.bootstrap, client_id="raw-tel") as c:
        r = get_subscriptions(c)
        assert r["ErrorCode"] == NONE
        inst, sid = r["ClientInstanceId"], r["SubscriptionId"]
        assert inst != ZERO_UUID
        assert r["RequestedMetrics"] == ["*"]
        assert r["PushIntervalMs"] == 1000
        assert r["TelemetryMaxBytes"] == 1024 * 1024
        assert r["DeltaTemporality"] is True
        assert set(r["AcceptedCompressionTypes"]) == {1, 2, 3, 4}
        # A second GetTelemetrySubscriptions within the interval.
        assert get_subscriptions(c, inst)["ErrorCode"] == THROTTLING_QUOTA_EXCEEDED
        # The first push right after the subscription is accepted, the
        # next one within the interval is not.
        payload = otlp_metrics_data("org.apache.kafka.raw.one", "org.apache.kafka.raw.two")
        assert push(c, inst, sid, payload) == NONE
        assert push(c, inst, sid, payload) == THROTTLING_QUOTA_EXCEEDED
        time.sleep(1.1)
        assert push(c, inst, sid ^ 1, payload) == UNKNOWN_SUBSCRIPTION_ID
        time.sleep(1.1)
        assert push(c, inst, sid, b"\0" * (1024 * 1024 + 1)) == TELEMETRY_TOO_LARGE
        time.sleep(1.1)
        # gzip-compressed payloads are decompressed.
        assert push(c, inst, sid, gzip.compress(payload), compression=1) == NONE
        # A changed subscription: the old id is stale at once, and a new
        # GetTelemetrySubscriptions is answered at once with a new id.
        subscribe(broker, "sub-raw", "raw-tel", interval_ms=1500, metrics="org.apache.kafka.raw.")
        time.sleep(0.1)
        assert push(c, inst, sid, payload) == UNKNOWN_SUBSCRIPTION_ID
        r = get_subscriptions(c, inst)
        assert r["ErrorCode"] == NONE
        assert r["ClientInstanceId"] == ZERO_UUID or r["ClientInstanceId"] == inst
        assert r["SubscriptionId"] != sid
        assert r["RequestedMetrics"] == ["org.apache.kafka.raw."]
        assert r["PushIntervalMs"] == 1500
        assert push(c, inst, r["SubscriptionId"], payload, terminating=True) == NONE
    line = first_pushes(broker, "raw-tel")
    assert len(line) == 1, line
    assert "metrics=2" in line[0] and "org.apache.kafka.raw.one" in line[0], line
    gz = [l for l in broker.all_logs().splitlines()
          if "client telemetry push" in l and 'client_id="raw-tel"' in l and "compression=gzip" in l]
    assert gz and "metrics=2" in gz[0], gz


def test_list_client_metrics_resources(broker):
    """ListConfigResources v0 (Kafka 3.7's ListClientMetricsResources)
    names every subscription; a deleted one is gone."""
    subscribe(broker, "sub-list-1", "list-.*")
    subscribe(broker, "sub-list-2", "list-.*")

    def names():
        with rawkafka.KafkaConn(broker.bootstrap) as c:
            assert c.pick(74) == 0
            r = c.request(74, 0, {})
        assert r["ErrorCode"] == NONE
        return {x["ResourceName"] for x in r["ConfigResources"]}

    assert {"sub-list-1", "sub-list-2"} <= names()
    assert incremental(broker, "sub-list-2", [("metrics", DELETE, None), ("match", DELETE, None),
                                              ("interval.ms", DELETE, None)]) == (NONE, None)
    got = names()
    assert "sub-list-1" in got and "sub-list-2" not in got, got


def test_subscriptions_survive_restart(broker):
    subscribe(broker, "sub-keep", "keep-.*", interval_ms=4000, metrics="org.apache.kafka.x.")
    before = describe(broker, "sub-keep")
    broker.restart()
    assert describe(broker, "sub-keep") == before
    assert before["interval.ms"] == ("4000", CLIENT_METRICS_CONFIG)


@pytest.mark.cluster
def test_cluster_subscription_reaches_every_broker():
    """Set through broker 1, described by every broker (the controller
    log) and served to a client of broker 3; deleted through broker 2,
    gone everywhere."""
    import cluster
    c = cluster.Cluster(3, name="telcluster")
    try:
        c.start()
        c.wait_ready(probe_topic=False)
        subscribe(c.node(1), "sub-cl", "cl-.*", interval_ms=2000, metrics="org.apache.kafka.")

        def everywhere(expected):
            harness.wait_until(
                lambda: all(describe(n, "sub-cl")["interval.ms"] == expected
                            for n in c.nodes.values()),
                timeout=10, what="interval.ms %s on every broker" % (expected,))

        everywhere(("2000", CLIENT_METRICS_CONFIG))
        with rawkafka.KafkaConn(c.node(3).bootstrap, client_id="cl-1") as k:
            r = get_subscriptions(k)
        assert r["ErrorCode"] == NONE
        assert (r["RequestedMetrics"], r["PushIntervalMs"]) == (["org.apache.kafka."], 2000)
        assert incremental(c.node(2), "sub-cl", [("interval.ms", SET, "99")])[0] == INVALID_CONFIG
        assert incremental(c.node(2), "sub-cl", [("metrics", DELETE, None), ("match", DELETE, None),
                                                 ("interval.ms", DELETE, None)]) == (NONE, None)
        everywhere(("300000", DEFAULT_CONFIG))
        with rawkafka.KafkaConn(c.node(1).bootstrap, client_id="cl-2") as k:
            assert get_subscriptions(k)["RequestedMetrics"] == []
    finally:
        c.close()
