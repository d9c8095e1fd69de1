"""A small raw Kafka wire client for the conformance suite.

Frames requests and decodes responses with the schema-driven codec of
kafka-protocol's golden-capture tooling (kafka_schema.py, standard library
only), which reads Apache Kafka's own message JSON schemas. Also builds and
parses record batches (magic v2, CRC-32C) so that tests can send exactly the
bytes they mean, valid or not.

Nothing here knows about the broker's insides: only the wire.
"""

import os
import socket
import struct
import sys
import time
import uuid
import zlib
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
_CODEC_DIR = REPO_ROOT / "kafka-protocol" / "tests" / "fixtures" / "golden" / "capture"
if str(_CODEC_DIR) not in sys.path:
    sys.path.insert(0, str(_CODEC_DIR))
import kafka_schema  # noqa: E402

# ---------------------------------------------------------------- constants

API_PRODUCE = 0
API_FETCH = 1
API_LIST_OFFSETS = 2
API_METADATA = 3
API_FIND_COORDINATOR = 10
API_JOIN_GROUP = 11
API_API_VERSIONS = 18
API_CREATE_TOPICS = 19
API_DELETE_TOPICS = 20
API_DESCRIBE_CONFIGS = 32

# error codes (Kafka's Errors.java)
NONE = 0
OFFSET_OUT_OF_RANGE = 1
CORRUPT_MESSAGE = 2
UNKNOWN_TOPIC_OR_PARTITION = 3
NOT_LEADER_OR_FOLLOWER = 6
MESSAGE_TOO_LARGE = 10
INVALID_TOPIC_EXCEPTION = 17
UNSUPPORTED_VERSION = 35
TOPIC_ALREADY_EXISTS = 36
INVALID_PARTITIONS = 37
INVALID_REPLICATION_FACTOR = 38
INVALID_CONFIG = 40
INVALID_REQUEST = 42
UNSUPPORTED_FOR_MESSAGE_FORMAT = 43
INVALID_REPLICA_ASSIGNMENT = 39
ELECTION_NOT_NEEDED = 84
NO_REASSIGNMENT_IN_PROGRESS = 85
INVALID_RECORD = 87
UNKNOWN_TOPIC_ID = 100

# ListOffsets special timestamps
LATEST = -1
EARLIEST = -2
MAX_TIMESTAMP = -3

CODEC_IDS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


# ---------------------------------------------------------------- schemas

def schema_dir():
    """Kafka's message JSON schemas: $KAFKA_MESSAGES_DIR, ../shared (as in CI)
    or /work/shared."""
    candidates = []
    if os.environ.get("KAFKA_MESSAGES_DIR"):
        candidates.append(Path(os.environ["KAFKA_MESSAGES_DIR"]))
    candidates.append(REPO_ROOT.parent / "shared" / "kafka-messages")
    candidates.append(Path("/work/shared/kafka-messages"))
    for c in candidates:
        if (c / "ApiVersionsRequest.json").is_file():
            return c
    raise RuntimeError("Kafka message schemas not found; looked in: %s (set KAFKA_MESSAGES_DIR)"
                       % ", ".join(str(c) for c in candidates))


_REGISTRY = None


def registry():
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = kafka_schema.Registry(str(schema_dir()))
    return _REGISTRY


# ---------------------------------------------------------------- CRC-32C

def _crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    table = _CRC_TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283


# ---------------------------------------------------------------- record batches

def _varint(n):
    return kafka_schema.varint(n)


def encode_record(offset_delta, timestamp_delta, key, value, headers=()):
    body = bytearray()
    body += b"\x00"  # attributes
    body += _varint(timestamp_delta)
    body += _varint(offset_delta)
    if key is None:
        body += _varint(-1)
    else:
        body += _varint(len(key)) + key
    if value is None:
        body += _varint(-1)
    else:
        body += _varint(len(value)) + value
    body += _varint(len(headers))
    for hk, hv in headers:
        hk = hk.encode() if isinstance(hk, str) else hk
        body += _varint(len(hk)) + hk
        if hv is None:
            body += _varint(-1)
        else:
            body += _varint(len(hv)) + hv
    return _varint(len(body)) + bytes(body)


def build_batch(records, base_offset=0, codec="none", base_timestamp=None,
                magic=2, producer_id=-1, producer_epoch=-1, base_sequence=-1,
                timestamp_type=0, transactional=False):
    """records: list of (key, value) or (key, value, headers) or
    (key, value, headers, timestamp_ms) tuples; bytes or None."""
    now = int(time.time() * 1000)
    if base_timestamp is None:
        base_timestamp = now
    recs = bytearray()
    max_ts = base_timestamp
    for i, r in enumerate(records):
        key, value = r[0], r[1]
        headers = r[2] if len(r) > 2 else ()
        ts = r[3] if len(r) > 3 else base_timestamp
        max_ts = max(max_ts, ts)
        recs += encode_record(i, ts - base_timestamp, key, value, headers)
    payload = bytes(recs)
    codec_id = CODEC_IDS[codec]
    if codec == "gzip":
        payload = zlib.compress(payload, 6, 31)  # 31: gzip container
    elif codec != "none":
        raise ValueError("raw batches support none and gzip only")
    attributes = codec_id | (timestamp_type << 3) | (0x10 if transactional else 0)
    after_crc = struct.pack(">hiqqqhii", attributes, len(records) - 1, base_timestamp,
                            max_ts, producer_id, producer_epoch, base_sequence,
                            len(records)) + payload
    crc = crc32c(after_crc)
    after_len = struct.pack(">ibI", 0, magic, crc) + after_crc  # leader epoch, magic, crc
    return struct.pack(">qi", base_offset, len(after_len)) + after_len


class Batch:
    def __init__(self, base_offset, leader_epoch, magic, crc, attributes, last_offset_delta,
                 base_timestamp, max_timestamp, producer_id, producer_epoch, base_sequence,
                 count, payload, raw):
        self.base_offset = base_offset
        self.leader_epoch = leader_epoch
        self.magic = magic
        self.crc = crc
        self.attributes = attributes
        self.last_offset_delta = last_offset_delta
        self.base_timestamp = base_timestamp
        self.max_timestamp = max_timestamp
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.base_sequence = base_sequence
        self.count = count
        self.payload = payload
        self.raw = raw

    @property
    def codec(self):
        return self.attributes & 7

    @property
    def timestamp_type(self):
        return (self.attributes >> 3) & 1

    @property
    def crc_ok(self):
        return crc32c(self.raw[21:]) == self.crc

    def records(self):
        """Decoded records (uncompressed or gzip batches): list of dicts."""
        data = self.payload
        if self.codec == 1:
            data = zlib.decompress(data, 47)
        elif self.codec != 0:
            raise ValueError("codec %d: decode with a client" % self.codec)
        r = kafka_schema.Reader(data)
        out = []
        for _ in range(self.count):
            length = r.varint()
            end = r.pos + length
            r.take(1)  # attributes
            ts_delta = r.varint()
            off_delta = r.varint()
            klen = r.varint()
            key = None if klen < 0 else r.take(klen)
            vlen = r.varint()
            value = None if vlen < 0 else r.take(vlen)
            headers = []
            for _ in range(r.varint()):
                hk = r.take(r.varint()).decode()
                hvl = r.varint()
                headers.append((hk, None if hvl < 0 else r.take(hvl)))
            if r.pos != end:
                raise ValueError("record length mismatch")
            out.append({"offset": self.base_offset + off_delta,
                        "timestamp": self.base_timestamp + ts_delta,
                        "key": key, "value": value, "headers": headers})
        return out


def parse_batches(data):
    """Split a records blob (as in a Fetch response) into batches. A partial
    batch at the end (allowed in Fetch responses) is ignored."""
    out = []
    pos = 0
    data = bytes(data or b"")
    while pos + 12 <= len(data):
        base_offset, length = struct.unpack_from(">qi", data, pos)
        end = pos + 12 + length
        if end > len(data):
            break
        leader_epoch, magic = struct.unpack_from(">ib", data, pos + 12)
        if magic != 2:
            raise ValueError("magic %d at %d" % (magic, pos))
        (crc,) = struct.unpack_from(">I", data, pos + 17)
        (attributes, last_delta, base_ts, max_ts, pid, pepoch, bseq,
         count) = struct.unpack_from(">hiqqqhii", data, pos + 21)
        out.append(Batch(base_offset, leader_epoch, magic, crc, attributes, last_delta,
                         base_ts, max_ts, pid, pepoch, bseq, count,
                         data[pos + 61:end], data[pos:end]))
        pos = end
    return out


# ---------------------------------------------------------------- connection

class ConnectionClosed(Exception):
    pass


class KafkaConn:
    """One TCP connection speaking Kafka frames (blocking, with timeouts)."""

    def __init__(self, addr, timeout=10.0, client_id="tidemark-conformance", source=None):
        """`source`: the local address to connect from (any loopback
        address, 127.0.0.2..., stands for another client host)."""
        host, port = addr.rsplit(":", 1)
        self.addr = addr
        self.sock = socket.create_connection((host, int(port)), timeout=timeout,
                                             source_address=(source, 0) if source else None)
        self.sock.settimeout(timeout)
        self.client_id = client_id
        self.correlation = 0
        self.reg = registry()
        self._versions = None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    # -- bytes
    def send_raw(self, data):
        self.sock.sendall(data)

    def recv_exact(self, n):
        buf = bytearray()
        while len(buf) < n:
            try:
                chunk = self.sock.recv(n - len(buf))
            except ConnectionResetError as e:
                raise ConnectionClosed("connection reset") from e
            if not chunk:
                raise ConnectionClosed("connection closed after %d of %d bytes" % (len(buf), n))
            buf += chunk
        return bytes(buf)

    def recv_frame(self):
        (size,) = struct.unpack(">i", self.recv_exact(4))
        if size < 4 or size > 1 << 30:
            raise ValueError("bad response frame size %d" % size)
        return self.recv_exact(size)

    def wait_closed(self, timeout=5.0):
        """Read until the peer closes. Returns the bytes received before the
        close; raises TimeoutError if the connection is still open at the
        deadline."""
        deadline = time.monotonic() + timeout
        got = bytearray()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("connection still open after %.1fs (received %d bytes)"
                                   % (timeout, len(got)))
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except (ConnectionResetError, BrokenPipeError):
                return bytes(got)
            except socket.timeout:
                continue
            if not chunk:
                return bytes(got)
            got += chunk
            if len(got) > 1 << 20:
                raise AssertionError("peer sent over 1 MiB instead of closing")

    # -- requests
    def header(self, api_key, version, correlation_id=None, header_version=None):
        if correlation_id is None:
            self.correlation += 1
            correlation_id = self.correlation
        if header_version is None:
            if api_key in self.reg.requests:
                header_version = self.reg.request_header_version(api_key, version)
            else:
                header_version = 1
        return correlation_id, self.reg.request_header.encode(
            {"RequestApiKey": api_key, "RequestApiVersion": version,
             "CorrelationId": correlation_id, "ClientId": self.client_id}, header_version)

    def encode_request(self, api_key, version, body):
        cid, head = self.header(api_key, version)
        payload = head + self.reg.requests[api_key].encode(body, version)
        return cid, struct.pack(">i", len(payload)) + payload

    def send(self, api_key, version, body):
        cid, frame = self.encode_request(api_key, version, body)
        self.send_raw(frame)
        return cid

    def recv(self, api_key, version, correlation_id):
        frame = self.recv_frame()
        _, header, body = self.reg.decode_response(api_key, version, frame)
        if header["CorrelationId"] != correlation_id:
            raise AssertionError("correlation id %d, expected %d"
                                 % (header["CorrelationId"], correlation_id))
        return body

    def request(self, api_key, version, body):
        cid = self.send(api_key, version, body)
        return self.recv(api_key, version, cid)

    # -- version negotiation
    def api_versions(self, version=3):
        body = {}
        if version >= 3:
            body = {"ClientSoftwareName": "tidemark-conformance", "ClientSoftwareVersion": "1.0"}
        resp = self.request(API_API_VERSIONS, version, body)
        if resp["ErrorCode"] != 0:
            raise AssertionError("ApiVersions v%d error %d" % (version, resp["ErrorCode"]))
        self._versions = {k["ApiKey"]: (k["MinVersion"], k["MaxVersion"]) for k in resp["ApiKeys"]}
        return self._versions

    def supports(self, api_key):
        if self._versions is None:
            self.api_versions()
        return api_key in self._versions

    def pick(self, api_key, cap=None, floor=None):
        """Highest version both the broker (as advertised) and the schema know,
        at most cap."""
        if self._versions is None:
            self.api_versions()
        if api_key not in self._versions:
            raise AssertionError("broker does not advertise API key %d" % api_key)
        lo, hi = self._versions[api_key]
        schema = self.reg.requests[api_key].valid
        v = min(hi, schema.hi)
        if cap is not None:
            v = min(v, cap)
        lowest = max(lo, schema.lo, floor or 0)
        if v < lowest:
            raise AssertionError("no usable version of API %d (broker %d-%d, schema %d-%d, cap %s)"
                                 % (api_key, lo, hi, schema.lo, schema.hi, cap))
        return v

    # -- convenience wrappers (names, not ids, unless asked)
    def metadata(self, topics, allow_auto_create=False, version=None):
        v = version if version is not None else self.pick(API_METADATA, cap=12, floor=4)
        body = {"Topics": None if topics is None else [{"Name": t} for t in topics],
                "AllowAutoTopicCreation": allow_auto_create}
        return self.request(API_METADATA, v, body)

    def produce(self, topic, partition, records_blob, acks=-1, timeout_ms=10000, version=None,
                topic_id=None, transactional_id=None):
        v = version if version is not None else self.pick(API_PRODUCE, cap=12 if topic_id is None else None)
        tdata = {"PartitionData": [{"Index": partition, "Records": records_blob}]}
        if v >= 13:
            tdata["TopicId"] = topic_id
        else:
            tdata["Name"] = topic
        body = {"TransactionalId": transactional_id, "Acks": acks, "TimeoutMs": timeout_ms,
                "TopicData": [tdata]}
        if acks == 0:
            return self.send(API_PRODUCE, v, body)
        resp = self.request(API_PRODUCE, v, body)
        return resp["Responses"][0]["PartitionResponses"][0], resp

    def fetch(self, topic, partition, offset, max_wait_ms=0, min_bytes=1,
              max_bytes=50 << 20, partition_max_bytes=10 << 20, version=None,
              isolation_level=0, rack_id="", current_leader_epoch=-1):
        v = version if version is not None else self.pick(API_FETCH, cap=12)
        body = {"ReplicaId": -1, "MaxWaitMs": max_wait_ms, "MinBytes": min_bytes,
                "MaxBytes": max_bytes, "IsolationLevel": isolation_level,
                "SessionId": 0, "SessionEpoch": -1,
                "Topics": [{"Topic": topic, "Partitions": [
                    {"Partition": partition, "CurrentLeaderEpoch": current_leader_epoch,
                     "FetchOffset": offset, "LastFetchedEpoch": -1, "LogStartOffset": -1,
                     "PartitionMaxBytes": partition_max_bytes}]}],
                "ForgottenTopicsData": [], "RackId": rack_id}
        resp = self.request(API_FETCH, v, body)
        return resp["Responses"][0]["Partitions"][0], resp

    def list_offset(self, topic, partition, timestamp, version=None):
        v = version if version is not None else self.pick(API_LIST_OFFSETS)
        body = {"ReplicaId": -1, "IsolationLevel": 0, "TimeoutMs": 10000,
                "Topics": [{"Name": topic, "Partitions": [
                    {"PartitionIndex": partition, "CurrentLeaderEpoch": -1,
                     "Timestamp": timestamp}]}]}
        resp = self.request(API_LIST_OFFSETS, v, body)
        return resp["Topics"][0]["Partitions"][0]

    def create_topics(self, topics, validate_only=False, timeout_ms=30000, version=None):
        """topics: list of dicts with Name, NumPartitions, ReplicationFactor,
        Configs ([{Name, Value}])."""
        v = version if version is not None else self.pick(API_CREATE_TOPICS)
        full = []
        for t in topics:
            full.append({"Name": t["Name"], "NumPartitions": t.get("NumPartitions", 1),
                         "ReplicationFactor": t.get("ReplicationFactor", 1),
                         "Assignments": [], "Configs": t.get("Configs", [])})
        resp = self.request(API_CREATE_TOPICS, v,
                            {"Topics": full, "timeoutMs": timeout_ms, "validateOnly": validate_only})
        return {t["Name"]: t for t in resp["Topics"]}, v


def fetch_all(addr, topic, partition, expect_count, timeout=20.0, start_offset=0):
    """Fetch raw batches of one partition from start_offset until expect_count
    records were seen (or the deadline). Returns the list of Batch."""
    batches = []
    seen = 0
    offset = start_offset
    deadline = time.monotonic() + timeout
    with KafkaConn(addr) as c:
        c.api_versions()
        for _ in range(10000):
            if seen >= expect_count or time.monotonic() > deadline:
                break
            part, _ = c.fetch(topic, partition, offset, max_wait_ms=200)
            if part["ErrorCode"] != 0:
                raise AssertionError("fetch %s/%d@%d: error %d" % (topic, partition, offset,
                                                                    part["ErrorCode"]))
            for b in parse_batches(part["Records"]):
                if b.base_offset + b.last_offset_delta < offset:
                    continue
                batches.append(b)
                seen += b.count
                offset = b.base_offset + b.last_offset_delta + 1
    return batches


def new_uuid_bytes():
    return uuid.uuid4().bytes


def ensure_topic(addr, topic, partitions=1, configs=None, timeout=20.0):
    """Create a topic (CreateTopics when the broker advertises it, else by
    Metadata auto-creation) and wait until every partition has a leader."""
    with KafkaConn(addr) as c:
        c.api_versions()
        if c.supports(API_CREATE_TOPICS):
            res, _ = c.create_topics([{"Name": topic, "NumPartitions": partitions,
                                       "Configs": [{"Name": k, "Value": v}
                                                   for k, v in (configs or {}).items()]}])
            err = res[topic]["ErrorCode"]
            if err not in (NONE, TOPIC_ALREADY_EXISTS):
                raise AssertionError("CreateTopics %s: error %d %s"
                                     % (topic, err, res[topic].get("ErrorMessage")))
        deadline = time.monotonic() + timeout
        last = None
        for _ in range(int(timeout / 0.05) + 2):
            md = c.metadata([topic], allow_auto_create=not c.supports(API_CREATE_TOPICS))
            t = md["Topics"][0]
            last = t
            if (t["ErrorCode"] == 0 and len(t["Partitions"]) == partitions
                    and all(p["LeaderId"] >= 0 and p["ErrorCode"] == 0 for p in t["Partitions"])):
                return t
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        raise AssertionError("topic %s not ready within %.0fs: %r" % (topic, timeout, last))
