"""Bad input over raw sockets, answered as Kafka answers it.

- A frame larger than socket.request.max.bytes, garbage bytes, an unknown
  API key (or a version of an API that is not offered) close that connection,
  with no reply, while a connection opened before keeps being served and new
  ones are accepted.
- ApiVersions at an unsupported version gets UNSUPPORTED_VERSION (35) in a v0
  response with ApiVersions' own supported range, and the connection stays.
- With auto-creation off, an unknown topic gets UNKNOWN_TOPIC_OR_PARTITION (3)
  on Produce, Fetch, ListOffsets and Metadata.
- Invalid record batches get CORRUPT_MESSAGE (2) or INVALID_RECORD (87), are
  not appended, and what was acknowledged before is intact.
- Invalid topic names / configs / partition counts on CreateTopics get the
  matching error code with an error message.
"""

import struct
import time

import pytest

import harness
import rawkafka
from rawkafka import KafkaConn

LIMIT = 1024 * 1024
BROKER_SETTINGS = {
    "num.partitions": "1",
    "auto.create.topics.enable": "false",
    "socket.request.max.bytes": str(LIMIT),
}


def assert_served(conn, topic=None):
    """The connection still answers requests correctly."""
    versions = conn.api_versions()
    assert rawkafka.API_METADATA in versions
    md = conn.metadata([topic] if topic else None)
    assert md["Brokers"], "Metadata lists no broker"
    return md


@pytest.fixture
def witness(broker):
    """A connection opened (and used) before the bad input."""
    c = KafkaConn(broker.bootstrap)
    assert_served(c)
    yield c
    c.close()


def closes_without_reply(broker, payload, timeout=5.0):
    with KafkaConn(broker.bootstrap) as c:
        try:
            c.send_raw(payload)
        except (BrokenPipeError, ConnectionResetError):
            return b""  # closed while we were still sending: fine
        return c.wait_closed(timeout)


def after_bad_input(broker, witness):
    # the other connection is still served, and new ones are accepted
    assert_served(witness)
    with KafkaConn(broker.bootstrap) as c:
        assert_served(c)
    broker.check_alive()


# ---------------------------------------------------------------- frames

@pytest.mark.parametrize("size", [LIMIT + 1, 64 * 1024 * 1024, 0x7FFFFFFF, -1, -2147483648],
                         ids=["limit+1", "64MiB", "2GiB", "minus1", "int-min"])
def test_frame_larger_than_limit_closes_connection(broker, witness, size):
    rss_before = broker.rss_kb()
    got = closes_without_reply(broker, struct.pack(">i", size) + b"\x00\x12\x00\x00" + b"\x00" * 60)
    assert got == b"", "the broker answered an oversized frame instead of closing: %r" % got[:64]
    after_bad_input(broker, witness)
    rss_after = broker.rss_kb()
    if rss_before and rss_after:
        assert rss_after - rss_before < 64 * 1024, \
            "resident memory grew by %d KiB after a %d-byte frame header" % (rss_after - rss_before, size)


def test_frame_at_the_limit_is_read(broker, witness):
    """A frame just under the limit is read whole (and, being a Metadata
    request with trailing padding, answered or refused, but not dropped as
    oversized before it is read)."""
    with KafkaConn(broker.bootstrap) as c:
        cid, head = c.header(rawkafka.API_API_VERSIONS, 0)
        frame = head + b"\x00" * (LIMIT - 4 - len(head) - 16)
        c.send_raw(struct.pack(">i", len(frame)) + frame)
        # Kafka tolerates trailing bytes after a request body and answers
        body = c.recv(rawkafka.API_API_VERSIONS, 0, cid)
        assert body["ErrorCode"] == 0
    after_bad_input(broker, witness)


GARBAGE = {
    "http": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "tls-client-hello": bytes.fromhex("16030100c8010000c40303") + b"\x00" * 64,
    "frame-shorter-than-header": struct.pack(">i", 2) + b"\x00\x12",
    "header-cut-in-correlation-id": struct.pack(">i", 6) + struct.pack(">hh", 18, 3) + b"\x00\x01",
    "client-id-longer-than-frame": struct.pack(">i", 12) + struct.pack(">hhih", 3, 9, 7, 0x7FFF) + b"ab",
    "metadata-array-claims-2G-topics": struct.pack(">i", 16) + struct.pack(">hhih", 3, 4, 7, 1) + b"x"
    + struct.pack(">i", 0x7FFFFFF0) + b"\x01\x00",
    "zero-length-frame": struct.pack(">i", 0),
    "random": struct.pack(">i", 40) + bytes((i * 131 + 7) % 256 for i in range(40)),
}


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_garbage_bytes_close_connection(broker, witness, name):
    got = closes_without_reply(broker, GARBAGE[name])
    assert got == b"", "the broker answered garbage (%s) instead of closing: %r" % (name, got[:64])
    after_bad_input(broker, witness)


def test_unknown_api_key_closes_connection(broker, witness):
    with KafkaConn(broker.bootstrap) as c:
        payload = struct.pack(">hhih", 9999, 0, 42, 4) + b"test"
        c.send_raw(struct.pack(">i", len(payload)) + payload)
        assert c.wait_closed(5) == b"", "the broker answered an unknown API key"
    after_bad_input(broker, witness)


def test_unadvertised_version_of_a_known_api_closes_connection(broker, witness):
    with KafkaConn(broker.bootstrap) as c:
        payload = struct.pack(">hhih", rawkafka.API_METADATA, 999, 43, 4) + b"test" + b"\x00" * 8
        c.send_raw(struct.pack(">i", len(payload)) + payload)
        assert c.wait_closed(5) == b"", "the broker answered Metadata v999"
    after_bad_input(broker, witness)


def test_request_after_closed_connection_does_not_leak(broker, witness):
    """Many connections opened and dropped mid-frame: the broker keeps
    serving and its memory stays put."""
    rss_before = broker.rss_kb()
    for i in range(100):
        with KafkaConn(broker.bootstrap) as c:
            c.send_raw(struct.pack(">i", 1000) + b"\x00\x03" + b"\x00" * (i % 50))
    time.sleep(0.2)
    after_bad_input(broker, witness)
    rss_after = broker.rss_kb()
    if rss_before and rss_after:
        assert rss_after - rss_before < 64 * 1024


# ---------------------------------------------------------------- ApiVersions

@pytest.mark.parametrize("version", [5, 99, 32767])
def test_api_versions_unsupported_version(broker, witness, version):
    with KafkaConn(broker.bootstrap) as c:
        # a future version: header v2 (flexible), body of v3+ (names + tags)
        cid, head = c.header(rawkafka.API_API_VERSIONS, version, header_version=2)
        body = c.reg.requests[rawkafka.API_API_VERSIONS].encode(
            {"ClientSoftwareName": "future-client", "ClientSoftwareVersion": "9.9"}, 3)
        c.send_raw(struct.pack(">i", len(head) + len(body)) + head + body)
        frame = c.recv_frame()
        (corr,) = struct.unpack_from(">i", frame)
        assert corr == cid
        # response header v0, body ApiVersionsResponse v0
        resp, _ = c.reg.responses[rawkafka.API_API_VERSIONS].decode(frame, 0, 4)
        assert resp["ErrorCode"] == rawkafka.UNSUPPORTED_VERSION
        ranges = {k["ApiKey"]: (k["MinVersion"], k["MaxVersion"]) for k in resp["ApiKeys"]}
        assert rawkafka.API_API_VERSIONS in ranges, "the error response must carry ApiVersions' range"
        lo, hi = ranges[rawkafka.API_API_VERSIONS]
        assert lo == 0 and 3 <= hi < version
        # the client retries at a supported version on the same connection
        versions = c.api_versions(version=hi)
        assert versions[rawkafka.API_API_VERSIONS] == (lo, hi)
    after_bad_input(broker, witness)


# ---------------------------------------------------------------- unknown topics

def test_unknown_topic_with_auto_create_off(broker, witness):
    topic = harness.unique_topic("nosuch")
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        part, _ = c.produce(topic, 0, rawkafka.build_batch([(b"k", b"v")]), acks=-1)
        assert part["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
        part, _ = c.produce(topic, 0, rawkafka.build_batch([(b"k", b"v")]), acks=1)
        assert part["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
        # even when the request allows it, the broker's setting wins
        t = c.metadata([topic], allow_auto_create=True)["Topics"][0]
        assert t["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
        fpart, _ = c.fetch(topic, 0, 0)
        assert fpart["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
        lo = c.list_offset(topic, 0, rawkafka.LATEST)
        assert lo["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
        # a partition that does not exist in a topic that does
        existing = harness.unique_topic("exists")
        rawkafka.ensure_topic(broker.bootstrap, existing, 1)
        part, _ = c.produce(existing, 7, rawkafka.build_batch([(b"k", b"v")]), acks=-1)
        assert part["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
        # still nothing created
        t = c.metadata([topic])["Topics"][0]
        assert t["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
    after_bad_input(broker, witness)


def test_produce_below_v3_is_refused(broker, witness):
    """Produce is advertised from v0 (KAFKA-18659) but v0-v2 (message format
    v0/v1) are refused: an UNSUPPORTED_VERSION answer or a closed connection,
    and nothing appended."""
    topic = harness.unique_topic("oldproduce")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        assert c._versions[rawkafka.API_PRODUCE][0] == 0
        # a v2 body is a v3 body without the leading (null) transactional id
        v3 = c.reg.requests[rawkafka.API_PRODUCE].encode({
            "TransactionalId": None, "Acks": -1, "TimeoutMs": 10000, "TopicData": [
                {"Name": topic, "PartitionData": [
                    {"Index": 0, "Records": rawkafka.build_batch([(b"k", b"v")])}]}]}, 3)
        cid, head = c.header(rawkafka.API_PRODUCE, 2, header_version=1)
        payload = head + v3[2:]
        c.send_raw(struct.pack(">i", len(payload)) + payload)
        try:
            frame = c.recv_frame()
        except rawkafka.ConnectionClosed:
            frame = None
        if frame is not None:
            (corr,) = struct.unpack_from(">i", frame)
            assert corr == cid
            # v2 response: [topic name, [partition, error_code, base_offset, log_append_time]]
            r = kafka_reader(frame[4:])
            assert r.unpack(">i") == 1
            r.take(r.unpack(">h"))
            assert r.unpack(">i") == 1
            assert r.unpack(">i") == 0
            assert r.unpack(">h") == rawkafka.UNSUPPORTED_VERSION
    with KafkaConn(broker.bootstrap) as c:
        assert c.list_offset(topic, 0, rawkafka.LATEST)["Offset"] == 0, "a v2 produce was appended"
    after_bad_input(broker, witness)


def kafka_reader(data):
    return rawkafka.kafka_schema.Reader(data)


def test_unknown_topic_id(broker, witness):
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        # The issue requires Produce v13 (topics by id).
        assert c.pick(rawkafka.API_PRODUCE) >= 13, "Produce v13 (topic ids) is not advertised"
        part, _ = c.produce(None, 0, rawkafka.build_batch([(b"k", b"v")]), acks=-1,
                            topic_id=rawkafka.new_uuid_bytes())
        assert part["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_ID
        v = c.pick(rawkafka.API_FETCH)
        assert v >= 13
        body = {"ReplicaId": -1, "MaxWaitMs": 0, "MinBytes": 1, "MaxBytes": 1 << 20,
                "IsolationLevel": 0, "SessionId": 0, "SessionEpoch": -1,
                "Topics": [{"TopicId": rawkafka.new_uuid_bytes(), "Partitions": [
                    {"Partition": 0, "CurrentLeaderEpoch": -1, "FetchOffset": 0,
                     "LastFetchedEpoch": -1, "LogStartOffset": -1, "PartitionMaxBytes": 1 << 20}]}],
                "ForgottenTopicsData": [], "RackId": ""}
        resp = c.request(rawkafka.API_FETCH, v, body)
        assert resp["Responses"][0]["Partitions"][0]["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_ID
    after_bad_input(broker, witness)


# ---------------------------------------------------------------- invalid records

def _corrupt(batch, offset, xor=0xFF):
    b = bytearray(batch)
    b[offset] ^= xor
    return bytes(b)


def _bad_batches():
    good = rawkafka.build_batch([(b"key", b"value-%d" % i) for i in range(5)])
    out = {}
    out["bad-crc-in-records"] = _corrupt(good, len(good) - 3)
    out["bad-crc-field"] = _corrupt(good, 17)
    out["bad-crc-in-attributes"] = _corrupt(good, 22, 0x40)
    magic1 = bytearray(good)
    magic1[16] = 1
    out["magic-1"] = bytes(magic1)
    magic0 = bytearray(good)
    magic0[16] = 0
    out["magic-0"] = bytes(magic0)
    out["truncated"] = good[:-7]
    longer = bytearray(good)
    struct.pack_into(">i", longer, 8, struct.unpack_from(">i", good, 8)[0] + 100)
    out["length-beyond-data"] = bytes(longer)
    # record count says 9, the batch holds 5 (CRC recomputed: structurally wrong)
    wrong_count = bytearray(good)
    struct.pack_into(">i", wrong_count, 57, 9)
    struct.pack_into(">I", wrong_count, 17, rawkafka.crc32c(bytes(wrong_count[21:])))
    out["record-count-mismatch"] = bytes(wrong_count)
    # a record whose length varint runs past the batch (CRC recomputed)
    bad_rec = bytearray(good)
    bad_rec[61] = 0x7E  # first record's length: 63, far longer than it is
    struct.pack_into(">I", bad_rec, 17, rawkafka.crc32c(bytes(bad_rec[21:])))
    out["record-length-overflow"] = bytes(bad_rec)
    out["not-a-batch"] = b"\x00" * 40
    return out


BAD = _bad_batches()


@pytest.fixture(scope="module")
def records_topic(broker):
    topic = harness.unique_topic("badrec")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    with KafkaConn(broker.bootstrap) as c:
        part, _ = c.produce(topic, 0, rawkafka.build_batch([(b"first", b"acknowledged")]), acks=-1)
        assert part["ErrorCode"] == 0 and part["BaseOffset"] == 0
    return topic


@pytest.mark.parametrize("name", sorted(BAD))
def test_invalid_records_are_refused(broker, witness, records_topic, name):
    with KafkaConn(broker.bootstrap) as c:
        c.api_versions()
        hw_before = c.list_offset(records_topic, 0, rawkafka.LATEST)["Offset"]
        part, _ = c.produce(records_topic, 0, BAD[name], acks=-1)
        assert part["ErrorCode"] in (rawkafka.CORRUPT_MESSAGE, rawkafka.INVALID_RECORD), \
            "%s: error %d, want CORRUPT_MESSAGE (2) or INVALID_RECORD (87)" % (name, part["ErrorCode"])
        assert c.list_offset(records_topic, 0, rawkafka.LATEST)["Offset"] == hw_before, \
            "a refused batch moved the high watermark"
        # the same connection keeps working
        part, _ = c.produce(records_topic, 0, rawkafka.build_batch([(b"good", name.encode())]), acks=-1)
        assert part["ErrorCode"] == 0 and part["BaseOffset"] == hw_before
    batches = rawkafka.fetch_all(broker.bootstrap, records_topic, 0, hw_before + 1)
    recs = [r for b in batches for r in b.records()]
    assert all(b.crc_ok for b in batches)
    assert (recs[0]["key"], recs[0]["value"]) == (b"first", b"acknowledged"), \
        "an acknowledged record changed"
    assert [r["offset"] for r in recs] == list(range(hw_before + 1))
    assert recs[-1]["value"] == name.encode()
    after_bad_input(broker, witness)


# ---------------------------------------------------------------- CreateTopics errors

@pytest.mark.parametrize("name", ["bad/name", "with space", "", ".", "..", "a" * 250,
                                  "tab\tname", "ünïcode"])
def test_invalid_topic_name(broker, witness, name):
    with KafkaConn(broker.bootstrap) as c:
        for validate_only in (True, False):
            res, v = c.create_topics([{"Name": name, "NumPartitions": 1}], validate_only=validate_only)
            r = res[name]
            assert r["ErrorCode"] == rawkafka.INVALID_TOPIC_EXCEPTION, (name, r)
            assert r["ErrorMessage"], "INVALID_TOPIC_EXCEPTION without an error message"
        if name:
            t = c.metadata([name])["Topics"][0]
            assert t["ErrorCode"] != 0
    after_bad_input(broker, witness)


CONFIG_CASES = {
    "retention.ms=soon": ({"retention.ms": "soon"}, rawkafka.INVALID_CONFIG),
    "cleanup.policy=sometimes": ({"cleanup.policy": "sometimes"}, rawkafka.INVALID_CONFIG),
    "unknown config": ({"no.such.config": "1"}, rawkafka.INVALID_CONFIG),
    "segment.bytes=1": ({"segment.bytes": "1"}, rawkafka.INVALID_CONFIG),
    "message.timestamp.type=Sometime": ({"message.timestamp.type": "Sometime"}, rawkafka.INVALID_CONFIG),
}


@pytest.mark.parametrize("case", sorted(CONFIG_CASES))
def test_invalid_topic_config(broker, witness, case):
    configs, code = CONFIG_CASES[case]
    name = harness.unique_topic("badcfg")
    with KafkaConn(broker.bootstrap) as c:
        res, _ = c.create_topics([{"Name": name, "NumPartitions": 1,
                                   "Configs": [{"Name": k, "Value": v} for k, v in configs.items()]}])
        r = res[name]
        assert r["ErrorCode"] == code, (case, r)
        assert r["ErrorMessage"], "error without a message"
        assert c.metadata([name])["Topics"][0]["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
    after_bad_input(broker, witness)


def test_invalid_partitions_and_replication_factor(broker, witness):
    with KafkaConn(broker.bootstrap) as c:
        a, b, d = (harness.unique_topic(x) for x in ("zero", "rf3", "dup"))
        res, _ = c.create_topics([{"Name": a, "NumPartitions": 0}])
        assert res[a]["ErrorCode"] == rawkafka.INVALID_PARTITIONS and res[a]["ErrorMessage"]
        res, _ = c.create_topics([{"Name": b, "NumPartitions": 1, "ReplicationFactor": 3}])
        assert res[b]["ErrorCode"] == rawkafka.INVALID_REPLICATION_FACTOR and res[b]["ErrorMessage"]
        # a name twice in one request: INVALID_REQUEST (42) for it
        cid = c.send(rawkafka.API_CREATE_TOPICS, c.pick(rawkafka.API_CREATE_TOPICS), {
            "Topics": [{"Name": d, "NumPartitions": 1, "ReplicationFactor": 1, "Assignments": [],
                        "Configs": []}] * 2, "timeoutMs": 30000, "validateOnly": False})
        resp = c.recv(rawkafka.API_CREATE_TOPICS, c.pick(rawkafka.API_CREATE_TOPICS), cid)
        assert {t["ErrorCode"] for t in resp["Topics"] if t["Name"] == d} == {42}
        for t in (a, b, d):
            assert c.metadata([t])["Topics"][0]["ErrorCode"] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION
        # -1 / -1 means the broker defaults (KIP-464)
        e = harness.unique_topic("defaults")
        res, v = c.create_topics([{"Name": e, "NumPartitions": -1, "ReplicationFactor": -1}])
        assert res[e]["ErrorCode"] == 0, res[e]
        if v >= 5:
            assert res[e]["NumPartitions"] == int(BROKER_SETTINGS["num.partitions"])
            assert res[e]["ReplicationFactor"] == 1
    after_bad_input(broker, witness)
