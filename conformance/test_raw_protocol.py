"""Protocol behaviour checked over raw sockets, where clients would hide it:
pipelining and response order, acks=0, Metadata's auto-creation flag, the
advertised address, long polling (woken by data, min_bytes, max_wait),
OFFSET_OUT_OF_RANGE, ListOffsets specs, LogAppendTime and incremental fetch
sessions (KIP-227)."""

import struct
import threading
import time

import pytest

import harness
import rawkafka
from rawkafka import KafkaConn

BROKER_SETTINGS = {"num.partitions": "2", "auto.create.topics.enable": "true"}


def new_topic(broker, prefix, partitions=1, configs=None):
    topic = harness.unique_topic(prefix)
    rawkafka.ensure_topic(broker.bootstrap, topic, partitions, configs=configs)
    return topic


# ---------------------------------------------------------------- connection behaviour

def test_pipelined_requests_are_answered_in_order(broker):
    topic = new_topic(broker, "pipe", 2)
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        sent = []
        for i in range(60):
            kind = i % 4
            if kind == 0:
                api, v, body = rawkafka.API_API_VERSIONS, 3, {
                    "ClientSoftwareName": "pipe", "ClientSoftwareVersion": "1"}
            elif kind == 1:
                api, v = rawkafka.API_METADATA, c.pick(rawkafka.API_METADATA, cap=12)
                body = {"Topics": [{"Name": topic}], "AllowAutoTopicCreation": False}
            elif kind == 2:
                api, v = rawkafka.API_PRODUCE, c.pick(rawkafka.API_PRODUCE, cap=12)
                body = {"TransactionalId": None, "Acks": -1, "TimeoutMs": 10000, "TopicData": [
                    {"Name": topic, "PartitionData": [
                        {"Index": i % 2, "Records": rawkafka.build_batch([(b"k", b"%d" % i)])}]}]}
            else:
                api, v = rawkafka.API_LIST_OFFSETS, c.pick(rawkafka.API_LIST_OFFSETS)
                body = {"ReplicaId": -1, "IsolationLevel": 0, "Topics": [
                    {"Name": topic, "Partitions": [{"PartitionIndex": i % 2, "CurrentLeaderEpoch": -1,
                                                    "Timestamp": rawkafka.LATEST}]}]}
            sent.append((api, v, c.send(api, v, body)))
        offsets = {0: [], 1: []}
        for api, v, cid in sent:
            resp = c.recv(api, v, cid)  # asserts the correlation id: order kept
            if api == rawkafka.API_PRODUCE:
                pr = resp["Responses"][0]["PartitionResponses"][0]
                assert pr["ErrorCode"] == 0
                offsets[pr["Index"]].append(pr["BaseOffset"])
        # produces on one connection are applied in order
        assert offsets[0] == list(range(len(offsets[0])))
        assert offsets[1] == list(range(len(offsets[1])))


def test_one_connections_produce_backlog_is_bounded_and_nothing_is_lost():
    """queued.max.request.bytes.per.connection: a connection past its bound
    is not read until its earlier produces are answered (issue 20). With a
    64 KiB bound, 24 pipelined requests of 30 KiB (11 times the bound) and
    one of 200 KiB (over the bound: it goes alone) are all answered, in
    order, at consecutive offsets, and read back whole; a second
    connection is served meanwhile."""
    b = harness.Broker(settings={"queued.max.request.bytes.per.connection": 65536},
                       name="conn-bound").start()
    try:
        topic = harness.unique_topic("bound")
        rawkafka.ensure_topic(b.bootstrap, topic, 1)
        values = [bytes([65 + i % 26]) * (30 << 10) for i in range(24)] + [b"z" * (200 << 10)]
        with KafkaConn(b.bootstrap) as c, KafkaConn(b.bootstrap) as other:
            c.api_versions()
            v = c.pick(rawkafka.API_PRODUCE, cap=12)
            sent = []
            for i, value in enumerate(values):
                body = {"TransactionalId": None, "Acks": -1, "TimeoutMs": 10000, "TopicData": [
                    {"Name": topic, "PartitionData": [
                        {"Index": 0, "Records": rawkafka.build_batch([(b"%d" % i, value)])}]}]}
                sent.append(c.send(rawkafka.API_PRODUCE, v, body))
            other.api_versions()
            assert other.metadata([topic])["Topics"][0]["ErrorCode"] == 0
            offsets = []
            for cid in sent:
                pr = c.recv(rawkafka.API_PRODUCE, v, cid)["Responses"][0]["PartitionResponses"][0]
                assert pr["ErrorCode"] == 0, pr
                offsets.append(pr["BaseOffset"])
        assert offsets == list(range(len(values)))
        got = [r["value"] for batch in rawkafka.fetch_all(b.bootstrap, topic, 0, len(values))
               for r in batch.records()]
        assert got == values
    finally:
        b.close()


def test_acks_0_gets_no_response(broker):
    topic = new_topic(broker, "acks0")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        for i in range(10):
            c.produce(topic, 0, rawkafka.build_batch([(b"k", b"v%d" % i)]), acks=0)
        # the next response on the connection is the next request's
        md = c.metadata([topic])
        assert md["Topics"][0]["Name"] == topic
        r = harness.wait_until(lambda: c.list_offset(topic, 0, rawkafka.LATEST)["Offset"] == 10,
                               timeout=5, what="10 acks=0 records")
        assert r
    recs = [r for b in rawkafka.fetch_all(broker.bootstrap, topic, 0, 10) for r in b.records()]
    assert [r["value"] for r in recs] == [b"v%d" % i for i in range(10)]


def test_metadata_auto_create_flag(broker):
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        no = harness.unique_topic("md-noauto")
        t = c.metadata([no], allow_auto_create=False)["Topics"][0]
        assert t["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
        assert c.metadata([no], allow_auto_create=False)["Topics"][0]["ErrorCode"] == \
            rawkafka.UNKNOWN_TOPIC_OR_PARTITION, "a request that did not allow it created the topic"
        yes = harness.unique_topic("md-auto")
        t = c.metadata([yes], allow_auto_create=True)["Topics"][0]
        # Kafka answers LEADER_NOT_AVAILABLE (5) or 0 on the creating request
        assert t["ErrorCode"] in (0, 5), t
        t = harness.wait_until(
            lambda: (lambda x: x if x["ErrorCode"] == 0 and x["Partitions"] else None)(
                c.metadata([yes])["Topics"][0]), timeout=10, what="auto-created topic")
        assert len(t["Partitions"]) == int(BROKER_SETTINGS["num.partitions"])
        assert t["TopicId"] != b"\x00" * 16, "an auto-created topic needs a topic id"
        # Metadata for all topics lists it
        names = [x["Name"] for x in c.metadata(None)["Topics"]]
        assert yes in names and no not in names


def test_advertised_address_defaults_to_listen_address(broker_factory):
    b = broker_factory({"num.partitions": "1"}, advertise=False)
    with KafkaConn(b.bootstrap) as c:
        md = c.metadata(None)
        assert [(x["NodeId"], x["Host"], x["Port"]) for x in md["Brokers"]] == \
            [(b.node_id, "127.0.0.1", b.port)]
        assert md["ControllerId"] == b.node_id
        assert md["ClusterId"]


def test_node_id_flag(broker_factory):
    b = broker_factory({"num.partitions": "1"}, node_id=7)
    with KafkaConn(b.bootstrap) as c:
        md = c.metadata(None)
        assert [x["NodeId"] for x in md["Brokers"]] == [7]
        topic = harness.unique_topic("node7")
        t = c.metadata([topic], allow_auto_create=True)["Topics"][0]
    t = rawkafka.ensure_topic(b.bootstrap, topic, 1)
    assert t["Partitions"][0]["LeaderId"] == 7


# ---------------------------------------------------------------- fetch waiting

def test_long_poll_is_woken_by_a_produce(broker):
    topic = new_topic(broker, "lp-raw")
    with KafkaConn(broker.bootstrap) as fc, KafkaConn(broker.bootstrap) as pc:
        fc.api_versions()
        pc.api_versions()
        for i in range(3):
            hw = fc.list_offset(topic, 0, rawkafka.LATEST)["Offset"]
            v = fc.pick(rawkafka.API_FETCH, cap=12)
            body = {"ReplicaId": -1, "MaxWaitMs": 10000, "MinBytes": 1, "MaxBytes": 1 << 20,
                    "IsolationLevel": 0, "SessionId": 0, "SessionEpoch": -1,
                    "Topics": [{"Topic": topic, "Partitions": [
                        {"Partition": 0, "CurrentLeaderEpoch": -1, "FetchOffset": hw,
                         "LastFetchedEpoch": -1, "LogStartOffset": -1, "PartitionMaxBytes": 1 << 20}]}],
                    "ForgottenTopicsData": [], "RackId": ""}
            t_sent = time.monotonic()
            cid = fc.send(rawkafka.API_FETCH, v, body)
            time.sleep(0.3)
            t0 = time.monotonic()
            part, _ = pc.produce(topic, 0, rawkafka.build_batch([(b"lp", b"%d" % i)]), acks=1)
            assert part["ErrorCode"] == 0
            fc.sock.settimeout(15)
            resp = fc.recv(rawkafka.API_FETCH, v, cid)
            t1 = time.monotonic()
            p = resp["Responses"][0]["Partitions"][0]
            recs = [r for b in rawkafka.parse_batches(p["Records"]) for r in b.records()]
            assert [r["value"] for r in recs] == [b"%d" % i]
            assert t0 - t_sent >= 0.25
            wake = t1 - t0
            print("raw long poll woken %.1f ms after the produce was sent" % (wake * 1000))
            assert wake < 0.5, "the parked fetch returned %.2fs after the produce" % wake


def test_fetch_waits_max_wait_when_there_is_no_data(broker):
    topic = new_topic(broker, "maxwait")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        t0 = time.monotonic()
        part, _ = c.fetch(topic, 0, 0, max_wait_ms=600, min_bytes=1)
        took = time.monotonic() - t0
        assert part["ErrorCode"] == 0 and not part["Records"]
        assert 0.5 <= took < 3.0, "an empty fetch with max_wait 600 ms returned after %.2fs" % took
        t0 = time.monotonic()
        part, _ = c.fetch(topic, 0, 0, max_wait_ms=0, min_bytes=1)
        assert time.monotonic() - t0 < 0.5, "max_wait 0 must not wait"


def test_fetch_min_bytes(broker):
    topic = new_topic(broker, "minbytes")
    with KafkaConn(broker.bootstrap) as fc, KafkaConn(broker.bootstrap) as pc:
        fc.api_versions()
        pc.api_versions()
        v = fc.pick(rawkafka.API_FETCH, cap=12)
        body = {"ReplicaId": -1, "MaxWaitMs": 5000, "MinBytes": 2000, "MaxBytes": 1 << 20,
                "IsolationLevel": 0, "SessionId": 0, "SessionEpoch": -1,
                "Topics": [{"Topic": topic, "Partitions": [
                    {"Partition": 0, "CurrentLeaderEpoch": -1, "FetchOffset": 0,
                     "LastFetchedEpoch": -1, "LogStartOffset": -1, "PartitionMaxBytes": 1 << 20}]}],
                "ForgottenTopicsData": [], "RackId": ""}
        t_sent = time.monotonic()
        cid = fc.send(rawkafka.API_FETCH, v, body)
        time.sleep(0.3)
        pc.produce(topic, 0, rawkafka.build_batch([(b"s", b"small")]), acks=1)  # ~80 bytes
        time.sleep(0.5)
        t_big = time.monotonic()
        pc.produce(topic, 0, rawkafka.build_batch([(b"b", b"x" * 3000)]), acks=1)
        fc.sock.settimeout(15)
        resp = fc.recv(rawkafka.API_FETCH, v, cid)
        t1 = time.monotonic()
        p = resp["Responses"][0]["Partitions"][0]
        recs = [r for b in rawkafka.parse_batches(p["Records"]) for r in b.records()]
        assert [r["key"] for r in recs] == [b"s", b"b"]
        assert t_big - t_sent >= 0.75
        assert t1 - t_big < 0.5, "min_bytes reached, but the fetch waited %.2fs more" % (t1 - t_big)


def test_fetch_offset_out_of_range(broker):
    topic = new_topic(broker, "oor")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        c.produce(topic, 0, rawkafka.build_batch([(b"k", b"v")] * 3), acks=-1)
        part, _ = c.fetch(topic, 0, 13)
        assert part["ErrorCode"] == rawkafka.OFFSET_OUT_OF_RANGE
        assert part["HighWatermark"] in (3, -1)
        part, _ = c.fetch(topic, 0, -5)
        assert part["ErrorCode"] == rawkafka.OFFSET_OUT_OF_RANGE
        part, _ = c.fetch(topic, 0, 3, max_wait_ms=0)  # at the end: fine, empty
        assert part["ErrorCode"] == 0 and part["HighWatermark"] == 3 and not part["Records"]
        part, _ = c.fetch(topic, 0, 1)  # inside a batch: the batch is returned whole
        assert part["ErrorCode"] == 0
        batches = rawkafka.parse_batches(part["Records"])
        assert batches and batches[0].base_offset == 0 and batches[0].count == 3
        assert part["LogStartOffset"] == 0


def test_fetch_limits(broker):
    topic = new_topic(broker, "limits")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        for i in range(10):
            c.produce(topic, 0, rawkafka.build_batch([(b"k", bytes([65 + i]) * 1000)]), acks=-1)
        # partition max bytes smaller than one batch: still the first batch (KIP-74)
        part, _ = c.fetch(topic, 0, 0, partition_max_bytes=100)
        batches = rawkafka.parse_batches(part["Records"])
        assert len(batches) == 1 and batches[0].base_offset == 0
        # about three batches' worth
        part, _ = c.fetch(topic, 0, 0, partition_max_bytes=3300)
        n = len(rawkafka.parse_batches(part["Records"]))
        assert 2 <= n <= 4, n
        assert len(part["Records"]) <= 3300 + 1100
        part, _ = c.fetch(topic, 0, 0, max_bytes=2200, partition_max_bytes=1 << 20)
        n = len(rawkafka.parse_batches(part["Records"]))
        assert 1 <= n <= 3, n


# ---------------------------------------------------------------- offsets and timestamps

def test_list_offsets_specs(broker):
    topic = new_topic(broker, "lo")
    base = int(time.time() * 1000) - 100_000
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        for i, ts in enumerate([base, base + 10, base + 50_000, base + 20]):
            c.produce(topic, 0, rawkafka.build_batch([(b"k", b"%d" % i)], base_timestamp=ts), acks=-1)
        assert c.list_offset(topic, 0, rawkafka.EARLIEST)["Offset"] == 0
        assert c.list_offset(topic, 0, rawkafka.LATEST)["Offset"] == 4
        r = c.list_offset(topic, 0, base + 5)
        assert (r["Offset"], r["Timestamp"]) == (1, base + 10)
        r = c.list_offset(topic, 0, base + 11)
        assert (r["Offset"], r["Timestamp"]) == (2, base + 50_000)
        r = c.list_offset(topic, 0, base + 50_001)
        assert (r["Offset"], r["Timestamp"]) == (-1, -1)
        if c.pick(rawkafka.API_LIST_OFFSETS) >= 7:
            r = c.list_offset(topic, 0, rawkafka.MAX_TIMESTAMP)
            assert (r["Offset"], r["Timestamp"]) == (2, base + 50_000)
        r = c.list_offset(topic, 5, rawkafka.LATEST)
        assert r["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION


def test_log_append_time(broker):
    topic = new_topic(broker, "lat", configs={"message.timestamp.type": "LogAppendTime"})
    old = int(time.time() * 1000) - 86_400_000
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        t0 = int(time.time() * 1000)
        part, _ = c.produce(topic, 0, rawkafka.build_batch([(b"k", b"v")] * 2, base_timestamp=old), acks=-1)
        t1 = int(time.time() * 1000)
        assert part["ErrorCode"] == 0
        assert t0 - 1000 <= part["LogAppendTimeMs"] <= t1 + 1000, part
        fpart, _ = c.fetch(topic, 0, 0)
        (b,) = rawkafka.parse_batches(fpart["Records"])
        assert b.timestamp_type == 1, "batch not marked LogAppendTime"
        assert b.max_timestamp == part["LogAppendTimeMs"]
        assert b.crc_ok, "the stamped batch's CRC was not updated"
    # a CreateTime topic keeps the producer's timestamp and answers -1
    topic2 = new_topic(broker, "ct")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        part, _ = c.produce(topic2, 0, rawkafka.build_batch([(b"k", b"v")], base_timestamp=old), acks=-1)
        assert part["LogAppendTimeMs"] == -1
        fpart, _ = c.fetch(topic2, 0, 0)
        (b,) = rawkafka.parse_batches(fpart["Records"])
        assert b.timestamp_type == 0 and b.max_timestamp == old and b.crc_ok


# ---------------------------------------------------------------- fetch sessions (KIP-227)

def _session_fetch(c, v, session_id, epoch, topics, forgotten=()):
    body = {"ReplicaId": -1, "MaxWaitMs": 100, "MinBytes": 1, "MaxBytes": 1 << 20,
            "IsolationLevel": 0, "SessionId": session_id, "SessionEpoch": epoch,
            "Topics": topics, "ForgottenTopicsData": list(forgotten), "RackId": ""}
    return c.request(rawkafka.API_FETCH, v, body)


def test_incremental_fetch_sessions(broker):
    topic = new_topic(broker, "session", 2)
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        v = c.pick(rawkafka.API_FETCH, cap=12)
        for p in (0, 1):
            c.produce(topic, p, rawkafka.build_batch([(b"k", b"p%d-0" % p)]), acks=-1)
        parts = [{"Partition": p, "CurrentLeaderEpoch": -1, "FetchOffset": 0, "LastFetchedEpoch": -1,
                  "LogStartOffset": -1, "PartitionMaxBytes": 1 << 20} for p in (0, 1)]
        # epoch 0: a full fetch that creates a session
        resp = _session_fetch(c, v, 0, 0, [{"Topic": topic, "Partitions": parts}])
        assert resp["ErrorCode"] == 0
        sid = resp["SessionId"]
        assert sid != 0, "the broker did not create a fetch session"
        got = {p["PartitionIndex"] for t in resp["Responses"] for p in t["Partitions"]}
        assert got == {0, 1}
        # epoch 1: nothing new, but the offsets move on: fetch from 1 on both
        upd = [dict(x, FetchOffset=1) for x in parts]
        resp = _session_fetch(c, v, sid, 1, [{"Topic": topic, "Partitions": upd}])
        assert resp["ErrorCode"] == 0 and resp["SessionId"] == sid
        # epoch 2: only partition 1 gets data; an incremental fetch lists nothing
        c.produce(topic, 1, rawkafka.build_batch([(b"k", b"p1-1")]), acks=-1)
        resp = _session_fetch(c, v, sid, 2, [])
        assert resp["ErrorCode"] == 0
        changed = [(t["Topic"], p["PartitionIndex"]) for t in resp["Responses"] for p in t["Partitions"]]
        assert changed == [(topic, 1)], "incremental fetch should carry only the partition with news: %s" % changed
        p1 = resp["Responses"][0]["Partitions"][0]
        assert [r["value"] for b in rawkafka.parse_batches(p1["Records"]) for r in b.records()] == [b"p1-1"]
        # a wrong epoch and an unknown session id
        resp = _session_fetch(c, v, sid, 7, [])
        assert resp["ErrorCode"] == 71, "INVALID_FETCH_SESSION_EPOCH expected, got %d" % resp["ErrorCode"]
        resp = _session_fetch(c, v, 0x7FFFFF00 ^ sid, 1, [])
        assert resp["ErrorCode"] == 70, "FETCH_SESSION_ID_NOT_FOUND expected, got %d" % resp["ErrorCode"]
        # epoch -1 closes the session; a sessionless full fetch still works
        resp = _session_fetch(c, v, sid, -1, [{"Topic": topic, "Partitions": parts}])
        assert resp["ErrorCode"] == 0
        resp = _session_fetch(c, v, sid, 3, [])
        assert resp["ErrorCode"] == 70


def test_read_committed_sees_up_to_the_last_stable_offset(broker):
    topic = new_topic(broker, "isolation")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        c.produce(topic, 0, rawkafka.build_batch([(b"k", b"%d" % i) for i in range(4)]), acks=-1)
        for level in (0, 1):
            part, _ = c.fetch(topic, 0, 0, isolation_level=level)
            assert part["ErrorCode"] == 0
            assert part["HighWatermark"] == 4 and part["LastStableOffset"] == 4
            recs = [r for b in rawkafka.parse_batches(part["Records"]) for r in b.records()]
            assert [r["value"] for r in recs] == [b"0", b"1", b"2", b"3"]
            assert part["AbortedTransactions"] in (None, [])
        lo = c.list_offset(topic, 0, rawkafka.LATEST)
        assert lo["Offset"] == 4


API_ELECT_LEADERS = 43


@pytest.mark.parametrize("version", [0, 1, 2])
def test_elect_leaders_on_a_single_node(broker, version):
    """Every partition of a single node is led by its only (preferred)
    replica: ELECTION_NOT_NEEDED; an unknown partition is
    UNKNOWN_TOPIC_OR_PARTITION; the all-partitions form (null list) lists
    nothing; an unknown election type is INVALID_REQUEST (v1+)."""
    topic = harness.unique_topic("elect")
    rawkafka.ensure_topic(broker.bootstrap, topic, 2)
    with KafkaConn(broker.bootstrap) as c:
        body = {"ElectionType": 0, "TimeoutMs": 5000,
                "TopicPartitions": [{"Topic": topic, "Partitions": [0, 1, 7]}]}
        r = c.request(API_ELECT_LEADERS, version, body)
        if version >= 1:
            assert r["ErrorCode"] == 0
        got = {(t["Topic"], p["PartitionId"]): p["ErrorCode"]
               for t in r["ReplicaElectionResults"] for p in t["PartitionResult"]}
        assert got == {(topic, 0): rawkafka.ELECTION_NOT_NEEDED,
                       (topic, 1): rawkafka.ELECTION_NOT_NEEDED,
                       (topic, 7): rawkafka.UNKNOWN_TOPIC_OR_PARTITION}, got
        r = c.request(API_ELECT_LEADERS, version, dict(body, TopicPartitions=None))
        assert r["ReplicaElectionResults"] == [], r
        if version >= 1:
            r = c.request(API_ELECT_LEADERS, version, dict(body, ElectionType=5))
            assert r["ErrorCode"] == rawkafka.INVALID_REQUEST, r
            assert r["ReplicaElectionResults"] == []


API_ALTER_PARTITION_REASSIGNMENTS = 45
API_LIST_PARTITION_REASSIGNMENTS = 46


@pytest.mark.parametrize("version", [0, 1])
def test_partition_reassignments_on_a_single_node(broker, version):
    """A single node has one possible assignment, itself: reassigning a
    partition there is accepted and leaves nothing in progress; any other
    broker is INVALID_REPLICA_ASSIGNMENT, as are an empty list and a
    duplicate; cancelling is NO_REASSIGNMENT_IN_PROGRESS; an unknown
    partition UNKNOWN_TOPIC_OR_PARTITION; with v1's
    AllowReplicationFactorChange false, a longer list is
    INVALID_REPLICATION_FACTOR (and the flag is echoed)."""
    topic = harness.unique_topic("reassign")
    rawkafka.ensure_topic(broker.bootstrap, topic, 2)
    with KafkaConn(broker.bootstrap) as c:
        md = c.request(rawkafka.API_METADATA, 1, {"Topics": [{"Name": topic}]})
        me = md["Brokers"][0]["NodeId"]
        parts = [
            {"PartitionIndex": 0, "Replicas": [me]},
            {"PartitionIndex": 1, "Replicas": [me + 1]},
            {"PartitionIndex": 1, "Replicas": []},
            {"PartitionIndex": 1, "Replicas": [me, me]},
            {"PartitionIndex": 1, "Replicas": None},
            {"PartitionIndex": 9, "Replicas": [me]},
        ]
        body = {"TimeoutMs": 5000, "Topics": [{"Name": topic, "Partitions": parts}]}
        r = c.request(API_ALTER_PARTITION_REASSIGNMENTS, version, body)
        assert r["ErrorCode"] == 0, r
        got = [(p["PartitionIndex"], p["ErrorCode"])
               for t in r["Responses"] for p in t["Partitions"]]
        assert got == [(0, 0),
                       (1, rawkafka.INVALID_REPLICA_ASSIGNMENT),
                       (1, rawkafka.INVALID_REPLICA_ASSIGNMENT),
                       (1, rawkafka.INVALID_REPLICA_ASSIGNMENT),
                       (1, rawkafka.NO_REASSIGNMENT_IN_PROGRESS),
                       (9, rawkafka.UNKNOWN_TOPIC_OR_PARTITION)], r
        for t in r["Responses"]:
            for p in t["Partitions"]:
                # Every refusal says why.
                assert (p["ErrorCode"] == 0) == (p["ErrorMessage"] is None), p
        if version >= 1:
            r = c.request(API_ALTER_PARTITION_REASSIGNMENTS, 1, {
                "TimeoutMs": 5000, "AllowReplicationFactorChange": False,
                "Topics": [{"Name": topic, "Partitions": [
                    {"PartitionIndex": 0, "Replicas": [me, me + 1]}]}]})
            assert r["AllowReplicationFactorChange"] is False, r
            codes = [p["ErrorCode"] for t in r["Responses"] for p in t["Partitions"]]
            assert codes == [rawkafka.INVALID_REPLICATION_FACTOR], r
        for topics in (None, [{"Name": topic, "PartitionIndexes": [0, 1, 9]}],
                       [{"Name": topic + "-missing", "PartitionIndexes": [0]}]):
            r = c.request(API_LIST_PARTITION_REASSIGNMENTS, 0,
                          {"TimeoutMs": 5000, "Topics": topics})
            assert r["ErrorCode"] == 0 and r["Topics"] == [], r
