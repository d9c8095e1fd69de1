"""ApiVersions tells the truth (no pretend features).

- Every API the single-node broker must have is advertised with exactly the
  version range of Kafka's schemas (Produce from v0, as Kafka 4 does since
  KAFKA-18659), and nothing is advertised outside the schemas.
- Every advertised version of these APIs works: a valid request at each
  version gets a response that decodes at that version with no error.
"""

import time
import uuid

import pytest

import harness
import rawkafka
from rawkafka import KafkaConn

BROKER_SETTINGS = {"num.partitions": "1", "auto.create.topics.enable": "false"}

# The API set for the single-node broker.
REQUIRED = {
    0: "Produce", 1: "Fetch", 2: "ListOffsets", 3: "Metadata", 18: "ApiVersions",
    19: "CreateTopics", 20: "DeleteTopics", 37: "CreatePartitions", 32: "DescribeConfigs",
    33: "AlterConfigs", 44: "IncrementalAlterConfigs", 21: "DeleteRecords",
    60: "DescribeCluster", 35: "DescribeLogDirs", 23: "OffsetForLeaderEpoch",
    75: "DescribeTopicPartitions",
}


@pytest.fixture(scope="module")
def advertised(broker):
    with KafkaConn(broker.bootstrap) as c:
        return c.api_versions()


def test_every_api_versions_version_answers(broker):
    with KafkaConn(broker.bootstrap) as c:
        hi = c.api_versions(version=0)[rawkafka.API_API_VERSIONS][1]
        assert hi >= 3
        for v in range(0, hi + 1):
            body = {"ClientSoftwareName": "conformance", "ClientSoftwareVersion": "1.0"} if v >= 3 else {}
            resp = c.request(rawkafka.API_API_VERSIONS, v, body)
            assert resp["ErrorCode"] == 0
            assert {k["ApiKey"] for k in resp["ApiKeys"]} >= set(REQUIRED)


def test_required_apis_advertised_with_schema_ranges(advertised):
    reg = rawkafka.registry()
    wrong = []
    for key, name in sorted(REQUIRED.items()):
        schema = reg.requests[key].valid
        want = (0 if key == rawkafka.API_PRODUCE else schema.lo, schema.hi)
        got = advertised.get(key)
        if got != want:
            wrong.append("%s (%d): advertised %s, schema %s" % (name, key, got, want))
    assert not wrong, "\n".join(wrong)


def test_nothing_advertised_outside_the_schemas(advertised):
    reg = rawkafka.registry()
    bad = []
    for key, (lo, hi) in advertised.items():
        if key not in reg.requests:
            bad.append("unknown API key %d" % key)
            continue
        schema = reg.requests[key].valid
        lo_ok = lo >= schema.lo or (key == rawkafka.API_PRODUCE and lo == 0)
        if not (lo_ok and hi <= schema.hi and lo <= hi):
            bad.append("%s: %d-%d outside %d-%d" % (reg.api_name(key), lo, hi, schema.lo, schema.hi))
    assert not bad, bad


def _errors(value, path=""):
    """Every non-zero ErrorCode in a decoded response, with where it is."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "ErrorCode" and v != 0:
                out.append((path, v, value.get("ErrorMessage")))
            else:
                out.extend(_errors(v, path + "." + k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_errors(v, "%s[%d]" % (path, i)))
    return out


@pytest.fixture(scope="module")
def sweep_topic(broker):
    topic = harness.unique_topic("sweep")
    md = rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    with KafkaConn(broker.bootstrap) as c:
        for i in range(20):
            c.produce(topic, 0, rawkafka.build_batch([(b"k", b"v%d" % i)]), acks=-1)
    return topic, md["TopicId"]


def _fetch_body(v, topic, topic_id, offset=0):
    t = {"Partitions": [{"Partition": 0, "CurrentLeaderEpoch": -1, "FetchOffset": offset,
                         "LastFetchedEpoch": -1, "LogStartOffset": -1, "PartitionMaxBytes": 1 << 20}]}
    if v >= 13:
        t["TopicId"] = topic_id
    else:
        t["Topic"] = topic
    return {"ReplicaId": -1, "MaxWaitMs": 0, "MinBytes": 1, "MaxBytes": 1 << 20, "IsolationLevel": 0,
            "SessionId": 0, "SessionEpoch": -1, "Topics": [t], "ForgottenTopicsData": [], "RackId": ""}


def _versions(advertised, key):
    reg = rawkafka.registry()
    lo, hi = advertised[key]
    schema = reg.requests[key].valid
    return list(range(max(lo, schema.lo), min(hi, schema.hi) + 1))


@pytest.mark.parametrize("key", sorted(REQUIRED), ids=[REQUIRED[k] for k in sorted(REQUIRED)])
def test_every_advertised_version_works(broker, advertised, sweep_topic, key):
    if key not in advertised:
        pytest.fail("%s is not advertised" % REQUIRED[key])
    topic, topic_id = sweep_topic
    versions = _versions(advertised, key)
    failures = []
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        for i, v in enumerate(versions):
            body, check = _case(broker, c, key, v, i, topic, topic_id)
            try:
                resp = c.request(key, v, body)
            except rawkafka.ConnectionClosed as e:
                failures.append("v%d: connection closed (%s)" % (v, e))
                c = KafkaConn(broker.bootstrap)
                c.api_versions()
                continue
            errs = _errors(resp)
            if errs:
                failures.append("v%d: errors %s" % (v, errs))
                continue
            if check:
                problem = check(resp)
                if problem:
                    failures.append("v%d: %s" % (v, problem))
        c.close()
    assert not failures, "%s: %s" % (REQUIRED[key], "; ".join(failures))


def _case(broker, c, key, v, i, topic, topic_id):
    """(request body, check(response) -> problem or None) for API key at v."""
    node = broker.node_id
    if key == 0:  # Produce
        t = {"PartitionData": [{"Index": 0, "Records": rawkafka.build_batch([(b"sweep", b"produce-v%d" % v)])}]}
        if v >= 13:
            t["TopicId"] = topic_id
        else:
            t["Name"] = topic
        return ({"TransactionalId": None, "Acks": -1, "TimeoutMs": 10000, "TopicData": [t]},
                lambda r: None if r["Responses"][0]["PartitionResponses"][0]["BaseOffset"] >= 20
                else "bad base offset")
    if key == 1:  # Fetch
        def check(r):
            p = r["Responses"][0]["Partitions"][0]
            recs = [x for b in rawkafka.parse_batches(p["Records"]) for x in b.records()]
            if not recs or recs[0]["value"] != b"v0":
                return "records not returned"
            if v >= 13 and r["Responses"][0]["TopicId"] != topic_id:
                return "wrong topic id"
            return None
        return _fetch_body(v, topic, topic_id), check
    if key == 2:  # ListOffsets
        return ({"ReplicaId": -1, "IsolationLevel": 0, "TimeoutMs": 10000, "Topics": [
            {"Name": topic, "Partitions": [{"PartitionIndex": 0, "CurrentLeaderEpoch": -1,
                                            "Timestamp": rawkafka.EARLIEST}]}]},
                lambda r: None if r["Topics"][0]["Partitions"][0].get("Offset", 0) == 0
                or v == 0 else "earliest offset not 0")
    if key == 3:  # Metadata
        return ({"Topics": [{"Name": topic}], "AllowAutoTopicCreation": False},
                lambda r: None if [t["Name"] for t in r["Topics"]] == [topic]
                and r["Brokers"][0]["NodeId"] == node else "wrong metadata")
    if key == 18:
        return ({"ClientSoftwareName": "sweep", "ClientSoftwareVersion": "1"}, None)
    if key == 19:  # CreateTopics
        name = harness.unique_topic("sweep-create-v%d" % v)
        return ({"Topics": [{"Name": name, "NumPartitions": 1, "ReplicationFactor": 1,
                             "Assignments": [], "Configs": [{"Name": "retention.ms", "Value": "60000000"}]}],
                 "timeoutMs": 30000, "validateOnly": False},
                lambda r: None if r["Topics"][0]["Name"] == name else "wrong name")
    if key == 20:  # DeleteTopics
        name = harness.unique_topic("sweep-delete-v%d" % v)
        rawkafka.ensure_topic(broker.bootstrap, name, 1)
        if v >= 6:
            body = {"Topics": [{"Name": name, "TopicId": b"\x00" * 16}], "TimeoutMs": 30000}
        else:
            body = {"TopicNames": [name], "TimeoutMs": 30000}
        return body, None
    if key == 37:  # CreatePartitions
        name = harness.unique_topic("sweep-parts-v%d" % v)
        rawkafka.ensure_topic(broker.bootstrap, name, 1)
        return ({"Topics": [{"Name": name, "Count": 2, "Assignments": None}], "TimeoutMs": 30000,
                 "ValidateOnly": False}, None)
    if key == 32:  # DescribeConfigs
        return ({"Resources": [{"ResourceType": 2, "ResourceName": topic, "ConfigurationKeys": None}],
                 "IncludeSynonyms": v >= 1, "IncludeDocumentation": False},
                lambda r: None if any(x["Name"] == "retention.ms" for x in r["Results"][0]["Configs"])
                else "no retention.ms")
    if key == 33:  # AlterConfigs
        return ({"Resources": [{"ResourceType": 2, "ResourceName": topic, "Configs": [
            {"Name": "retention.ms", "Value": str(70_000_000 + v)}]}], "ValidateOnly": False}, None)
    if key == 44:  # IncrementalAlterConfigs
        return ({"Resources": [{"ResourceType": 2, "ResourceName": topic, "Configs": [
            {"Name": "retention.ms", "ConfigOperation": 0, "Value": str(80_000_000 + v)}]}],
                 "ValidateOnly": False}, None)
    if key == 21:  # DeleteRecords
        name = harness.unique_topic("sweep-delrec-v%d" % v)
        rawkafka.ensure_topic(broker.bootstrap, name, 1)
        c.produce(name, 0, rawkafka.build_batch([(b"k", b"v")] * 5), acks=-1)
        return ({"Topics": [{"Name": name, "Partitions": [{"PartitionIndex": 0, "Offset": 3}]}],
                 "TimeoutMs": 30000},
                lambda r: None if r["Topics"][0]["Partitions"][0]["LowWatermark"] == 3 else "low watermark")
    if key == 60:  # DescribeCluster
        return ({"IncludeClusterAuthorizedOperations": False, "EndpointType": 1,
                 "IncludeFencedBrokers": False},
                lambda r: None if [b["BrokerId"] for b in r["Brokers"]] == [node] else "brokers")
    if key == 35:  # DescribeLogDirs
        return ({"Topics": None}, lambda r: None if r["Results"] else "no log dirs")
    if key == 23:  # OffsetForLeaderEpoch
        md = c.metadata([topic])
        epoch = md["Topics"][0]["Partitions"][0].get("LeaderEpoch", 0)
        hw = c.list_offset(topic, 0, rawkafka.LATEST)["Offset"]
        return ({"ReplicaId": -1, "Topics": [{"Topic": topic, "Partitions": [
            {"Partition": 0, "CurrentLeaderEpoch": -1, "LeaderEpoch": max(epoch, 0)}]}]},
                lambda r: None if r["Topics"][0]["Partitions"][0]["EndOffset"] == hw
                else "end offset %s, high watermark %d" % (r["Topics"][0]["Partitions"][0]["EndOffset"], hw))
    if key == 75:  # DescribeTopicPartitions
        return ({"Topics": [{"Name": topic}], "ResponsePartitionLimit": 2000, "Cursor": None},
                lambda r: None if r["Topics"][0]["TopicId"] == topic_id else "topic id differs from Metadata")
    raise ValueError(key)
