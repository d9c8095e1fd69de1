"""Produce and consume through each unchanged client, in one shape.

A message is a dict: {"key": bytes|None, "value": bytes|None,
"headers": [(str, bytes|None)], "timestamp": ms (optional)}. Producers
return the (partition, offset) each message was acknowledged at; consumers
return the messages read, with "partition" and "offset" added.

Consumers here read by explicit partition assignment (no consumer group),
since group coordination is not part of the single-node broker's API set.
"""

import base64
import json
import re
import time

import harness

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


# ---------------------------------------------------------------- confluent-kafka

def confluent_producer(bootstrap, **extra):
    from confluent_kafka import Producer
    conf = {
        "bootstrap.servers": bootstrap,
        "client.id": "conformance-confluent",
        "acks": "all",
        "linger.ms": 5,
        "enable.idempotence": False,
        "message.timeout.ms": 30000,
        "socket.timeout.ms": 10000,
        "partitioner": "murmur2_random",
    }
    conf.update(extra)
    return Producer(conf)


def confluent_produce(bootstrap, topic, msgs, codec="none", partition=None, conf=None,
                      timeout=60):
    """Produce and wait for every delivery report. Returns [(partition, offset)]."""
    from confluent_kafka import KafkaException
    p = confluent_producer(bootstrap, **{"compression.type": codec, **(conf or {})})
    results = [None] * len(msgs)
    errors = []

    def on_delivery(i):
        def cb(err, msg):
            if err is not None:
                errors.append((i, err))
            else:
                results[i] = (msg.partition(), msg.offset())
        return cb

    deadline = time.monotonic() + timeout
    for i, m in enumerate(msgs):
        kw = {"key": m.get("key"), "value": m.get("value"), "on_delivery": on_delivery(i)}
        if m.get("headers"):
            kw["headers"] = list(m["headers"])
        if m.get("timestamp") is not None:
            kw["timestamp"] = m["timestamp"]
        if partition is not None:
            kw["partition"] = partition
        for _ in range(100000):
            try:
                p.produce(topic, **kw)
                break
            except BufferError:
                p.poll(0.05)
                if time.monotonic() > deadline:
                    raise AssertionError("producer queue full until the deadline") from None
        p.poll(0)
    left = p.flush(max(1.0, deadline - time.monotonic()))
    if left:
        raise AssertionError("%d messages still undelivered after %ss" % (left, timeout))
    if errors:
        raise KafkaException(errors[0][1]) if len(errors) == 1 else AssertionError(
            "%d delivery errors, first: %s" % (len(errors), errors[0][1]))
    return results


def confluent_consumer(bootstrap, **extra):
    from confluent_kafka import Consumer
    conf = {
        "bootstrap.servers": bootstrap,
        # librdkafka insists on a group id even for assign(); nothing is
        # committed and no group is joined.
        "group.id": "conformance-unused-group",
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,
        "auto.offset.reset": "earliest",
        "fetch.wait.max.ms": 100,
        "socket.timeout.ms": 10000,
    }
    conf.update(extra)
    return Consumer(conf)


def confluent_consume(bootstrap, topic, partitions, count, timeout=30, conf=None,
                      start_offsets=None):
    """Read `count` messages from the given partitions (from the beginning
    unless start_offsets maps partition -> offset)."""
    from confluent_kafka import OFFSET_BEGINNING, TopicPartition
    c = confluent_consumer(bootstrap, **(conf or {}))
    out = []
    group_errors = []
    try:
        c.assign([TopicPartition(topic, p, (start_offsets or {}).get(p, OFFSET_BEGINNING))
                  for p in partitions])
        deadline = time.monotonic() + timeout
        for _ in range(1000000):
            if len(out) >= count or time.monotonic() > deadline:
                break
            batch = c.consume(num_messages=min(10000, count - len(out)), timeout=0.5)
            for m in batch:
                if m.error():
                    if m.topic() is None:
                        # group / coordinator level: no group is used here
                        group_errors.append(str(m.error()))
                        continue
                    raise AssertionError("consume error on %s/%s: %s"
                                         % (m.topic(), m.partition(), m.error()))
                out.append({"partition": m.partition(), "offset": m.offset(), "key": m.key(),
                            "value": m.value(),
                            "headers": [(k, v) for k, v in (m.headers() or [])],
                            "timestamp": m.timestamp()[1]})
    finally:
        c.close()
    if len(out) < count:
        raise AssertionError("confluent-kafka read %d of %d messages from %s within %ss "
                             "(client errors: %s)" % (len(out), count, topic, timeout,
                                                      group_errors[:3]))
    return out


def confluent_admin(bootstrap):
    from confluent_kafka.admin import AdminClient
    return AdminClient({"bootstrap.servers": bootstrap, "socket.timeout.ms": 10000})


def confluent_create_topic(bootstrap, topic, partitions=1, config=None):
    from confluent_kafka.admin import NewTopic
    a = confluent_admin(bootstrap)
    fs = a.create_topics([NewTopic(topic, num_partitions=partitions, replication_factor=1,
                                   config=config or {})], operation_timeout=30)
    fs[topic].result(timeout=30)
    # wait until metadata shows every partition with a leader
    harness.wait_until(lambda: _topic_ready(a, topic, partitions), timeout=15,
                       what="topic %s with %d partitions and leaders" % (topic, partitions))
    return topic


def _topic_ready(admin, topic, partitions):
    md = admin.list_topics(topic, timeout=5)
    t = md.topics.get(topic)
    return (t is not None and t.error is None and len(t.partitions) == partitions
            and all(p.leader >= 0 for p in t.partitions.values()))


# ---------------------------------------------------------------- kafka-python

def kp_produce(bootstrap, topic, msgs, codec="none", partition=None, conf=None, timeout=60):
    from kafka import KafkaProducer
    kw = {"bootstrap_servers": bootstrap, "acks": "all", "linger_ms": 5,
          "compression_type": None if codec == "none" else codec,
          "client_id": "conformance-kafka-python", "request_timeout_ms": 30000,
          "enable_idempotence": False}
    kw.update(conf or {})
    p = KafkaProducer(**kw)
    try:
        futures = []
        for m in msgs:
            futures.append(p.send(topic, key=m.get("key"), value=m.get("value"),
                                  headers=list(m.get("headers") or []),
                                  partition=partition, timestamp_ms=m.get("timestamp")))
        p.flush(timeout=timeout)
        out = []
        for f in futures:
            md = f.get(timeout=timeout)
            out.append((md.partition, md.offset))
        return out
    finally:
        p.close(timeout=10)


def kp_consume(bootstrap, topic, partitions, count, timeout=30, conf=None):
    from kafka import KafkaConsumer, TopicPartition
    kw = {"bootstrap_servers": bootstrap, "group_id": None, "enable_auto_commit": False,
          "auto_offset_reset": "earliest", "client_id": "conformance-kafka-python",
          "fetch_max_wait_ms": 100, "consumer_timeout_ms": 1000}
    kw.update(conf or {})
    c = KafkaConsumer(**kw)
    out = []
    try:
        tps = [TopicPartition(topic, p) for p in partitions]
        c.assign(tps)
        c.seek_to_beginning(*tps)
        deadline = time.monotonic() + timeout
        for _ in range(1000000):
            if len(out) >= count or time.monotonic() > deadline:
                break
            polled = c.poll(timeout_ms=500, max_records=10000)
            for _tp, records in polled.items():
                for r in records:
                    out.append({"partition": r.partition, "offset": r.offset, "key": r.key,
                                "value": r.value, "headers": [(k, v) for k, v in r.headers],
                                "timestamp": r.timestamp})
    finally:
        c.close()
    if len(out) < count:
        raise AssertionError("kafka-python read %d of %d messages from %s within %ss"
                             % (len(out), count, topic, timeout))
    return out


def kp_admin(bootstrap):
    from kafka import KafkaAdminClient
    return KafkaAdminClient(bootstrap_servers=bootstrap, client_id="conformance-kafka-python-admin",
                            request_timeout_ms=30000)


# ---------------------------------------------------------------- kcat

KCAT_FORMAT = "%p\\t%o\\t%T\\t%K\\t%k\\t%S\\t%s\\t%h\\n"


def kcat_produce(bootstrap, topic, msgs, codec="none", partition=0, headers=(), extra=(),
                 timeout=60):
    """kcat -P: one message per line, key and value separated by a tab.
    kcat applies the same headers (-H) to every message it produces."""
    lines = []
    for m in msgs:
        k, v = m["key"], m["value"]
        if b"\n" in k or b"\t" in k or b"\n" in v:
            raise ValueError("kcat line format cannot carry tab/newline here")
        lines.append(k + b"\t" + v)
    argv = [harness.kcat_binary(), "-b", bootstrap, "-P", "-t", topic, "-K", "\t",
            "-z", codec, "-X", "acks=all", "-X", "linger.ms=5", "-X", "message.max.bytes=4194304"]
    if partition is not None:
        argv += ["-p", str(partition)]
    for hk, hv in headers:
        argv += ["-H", "%s=%s" % (hk, hv.decode())]
    argv += list(extra)
    harness.run(argv, input=b"\n".join(lines) + b"\n", timeout=timeout)


def kcat_consume(bootstrap, topic, partition, count, extra=(), timeout=60):
    """kcat -C from the beginning of one partition to its end (-e)."""
    argv = [harness.kcat_binary(), "-b", bootstrap, "-C", "-t", topic, "-p", str(partition),
            "-o", "beginning", "-c", str(count), "-e", "-q", "-f", KCAT_FORMAT,
            "-X", "fetch.wait.max.ms=100"] + list(extra)
    p = harness.run(argv, timeout=timeout)
    out = []
    # fields: partition, offset, timestamp, keylen, key, valuelen, value, headers
    data = p.stdout
    pos = 0
    for _ in range(count + 1):
        if pos >= len(data):
            break
        fields = []
        for _ in range(3):
            end = data.index(b"\t", pos)
            fields.append(data[pos:end])
            pos = end + 1
        klen = int(data[pos:data.index(b"\t", pos)])
        pos = data.index(b"\t", pos) + 1
        key = None if klen < 0 else data[pos:pos + klen]
        pos += max(klen, 0) + 1
        vlen = int(data[pos:data.index(b"\t", pos)])
        pos = data.index(b"\t", pos) + 1
        value = None if vlen < 0 else data[pos:pos + vlen]
        pos += max(vlen, 0) + 1
        end = data.index(b"\n", pos)
        hdr = data[pos:end].decode()
        pos = end + 1
        headers = []
        if hdr:
            for item in hdr.split(","):
                hk, _, hv = item.partition("=")
                headers.append((hk, hv.encode()))
        out.append({"partition": int(fields[0]), "offset": int(fields[1]),
                    "timestamp": int(fields[2]), "key": key, "value": value, "headers": headers})
    if len(out) < count:
        raise AssertionError("kcat read %d of %d messages from %s/%d\nstderr: %s"
                             % (len(out), count, topic, partition,
                                p.stderr[-2000:].decode("utf-8", "replace")))
    return out


# ---------------------------------------------------------------- kafkajs

def _b64(b):
    return None if b is None else base64.b64encode(b).decode()


def _unb64(s):
    return None if s is None else base64.b64decode(s)


def kafkajs(command, spec, timeout=90):
    node = harness.node_binary()
    p = harness.run([node, str(harness.JS_DIR / "client.js"), command],
                    input=json.dumps(spec).encode(), timeout=timeout, cwd=str(harness.JS_DIR))
    lines = [line for line in p.stdout.decode().splitlines() if line.startswith("{")]
    if not lines:
        raise AssertionError("kafkajs %s printed no result\nstderr: %s"
                             % (command, p.stderr[-3000:].decode("utf-8", "replace")))
    return json.loads(lines[-1])


def kafkajs_produce(bootstrap, topic, msgs, codec="none", partition=0, batches=1, timeout=90):
    spec = {"brokers": [bootstrap], "topic": topic, "codec": codec, "partition": partition,
            "batches": batches,
            "messages": [{"key": _b64(m.get("key")), "value": _b64(m.get("value")),
                          "headers": [[k, _b64(v)] for k, v in (m.get("headers") or [])],
                          **({"timestamp": m["timestamp"]} if m.get("timestamp") else {})}
                         for m in msgs]}
    res = kafkajs("produce", spec, timeout=timeout)
    return res["results"]


def kafkajs_fetch(bootstrap, topic, partition, count, timeout=60, max_bytes=None):
    spec = {"brokers": [bootstrap], "topic": topic, "partition": partition, "count": count,
            "timeoutMs": int(timeout * 1000 * 0.8)}
    if max_bytes:
        spec["maxBytes"] = max_bytes
    res = kafkajs("fetch", spec, timeout=timeout)
    out = [{"partition": partition, "offset": m["offset"], "timestamp": m["timestamp"],
            "key": _unb64(m["key"]), "value": _unb64(m["value"]),
            "headers": [(k, _unb64(v)) for k, v in m["headers"]],
            "codec": m.get("compression")} for m in res["messages"]]
    if len(out) < count:
        raise AssertionError("kafkajs read %d of %d messages from %s/%d"
                             % (len(out), count, topic, partition))
    return out


# ---------------------------------------------------------------- comparisons

def essence(msgs, with_headers=True):
    """(key, value, headers) tuples, for comparing what went in with what
    came out."""
    out = []
    for m in msgs:
        h = tuple((k, v) for k, v in (m.get("headers") or [])) if with_headers else ()
        out.append((m.get("key"), m.get("value"), h))
    return out


def make_messages(tag, n, key_count=7, value_size=120, headers=True):
    """Compressible keyed messages with two headers each."""
    msgs = []
    for i in range(n):
        key = ("key-%d" % (i % key_count)).encode()
        body = ("%s-%05d-" % (tag, i)).encode()
        value = (body * (value_size // len(body) + 1))[:value_size]
        value = body + value[len(body):]
        m = {"key": key, "value": value}
        if headers:
            m["headers"] = [("trace", ("t%05d" % i).encode()), ("source", tag.encode())]
        msgs.append(m)
    return msgs


def safe_name(s):
    return re.sub(r"[^A-Za-z0-9._-]", "-", s)
