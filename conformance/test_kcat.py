"""kcat 1.7 (Debian; librdkafka 2.0.2, an old client with an old ApiVersions
parser): metadata listing, offsets by time, a 1 MiB message, null values,
auto-creation on produce. Produce/consume with every codec is in
test_produce_consume.py."""

import json
import os
import time

import clients
import harness
import rawkafka

BROKER_SETTINGS = {"num.partitions": "2", "auto.create.topics.enable": "true"}

MiB = 1024 * 1024


def kcat(*args, input=None, timeout=60):
    return harness.run([harness.kcat_binary(), *args], input=input, timeout=timeout)


def test_metadata_listing(broker):
    topic = harness.unique_topic("kcat-md")
    rawkafka.ensure_topic(broker.bootstrap, topic, 3)
    md = json.loads(kcat("-b", broker.bootstrap, "-L", "-J", "-t", topic).stdout)
    assert md["brokers"] == [{"id": broker.node_id, "name": broker.bootstrap}]
    assert md["controllerid"] == broker.node_id
    (t,) = md["topics"]
    assert t["topic"] == topic and "error" not in t
    assert sorted(p["partition"] for p in t["partitions"]) == [0, 1, 2]
    for p in t["partitions"]:
        assert p["leader"] == broker.node_id
        assert p["replicas"] == [{"id": broker.node_id}] and p["isrs"] == [{"id": broker.node_id}]
    # and the whole-cluster listing has it too
    md = json.loads(kcat("-b", broker.bootstrap, "-L", "-J").stdout)
    assert topic in [x["topic"] for x in md["topics"]]


def test_query_offsets_by_time(broker):
    topic = harness.unique_topic("kcat-bytime")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    base = int(time.time() * 1000) - 600_000
    msgs = [{"key": b"k%d" % i, "value": b"v%d" % i, "timestamp": base + i * 1000} for i in range(6)]
    clients.confluent_produce(broker.bootstrap, topic, msgs, partition=0, conf={"linger.ms": 0})

    def query(ts):
        out = json.loads(kcat("-b", broker.bootstrap, "-Q", "-J", "-t", "%s:0:%d" % (topic, ts)).stdout)
        return out[topic]["0"]["offset"]
    assert query(base - 5) == 0
    assert query(base + 2500) == 3
    assert query(base + 5000) == 5
    assert query(base + 5001) == -1
    # consume from a timestamp: -o s@ts
    p = kcat("-b", broker.bootstrap, "-C", "-t", topic, "-p", "0", "-o", "s@%d" % (base + 3000),
             "-e", "-q", "-f", "%o:%s\\n")
    assert p.stdout.decode().split() == ["3:v3", "4:v4", "5:v5"]


def test_one_mib_message(broker):
    topic = harness.unique_topic("kcat-1mib")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1, configs={"max.message.bytes": str(2 * MiB)})
    value = os.urandom(MiB // 2).hex().encode()  # 1 MiB of text, no newline
    assert len(value) == MiB
    small = b"x"
    kcat("-b", broker.bootstrap, "-P", "-t", topic, "-p", "0", "-X", "message.max.bytes=4194304",
         input=small + b"\n" + value + b"\n")
    got = clients.kcat_consume(broker.bootstrap, topic, 0, 2,
                               extra=["-X", "fetch.message.max.bytes=4194304",
                                      "-X", "fetch.max.bytes=8388608",
                                      "-X", "receive.message.max.bytes=16777216"])
    assert [m["value"] for m in got] == [small, value]
    assert [m["offset"] for m in got] == [0, 1]


def test_null_values_and_keys(broker):
    topic = harness.unique_topic("kcat-null")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    # -Z: empty input becomes NULL
    kcat("-b", broker.bootstrap, "-P", "-t", topic, "-p", "0", "-K", ":", "-Z",
         input=b"k1:\n:v2\nk3:v3\n")
    got = clients.kcat_consume(broker.bootstrap, topic, 0, 3)
    assert [(m["key"], m["value"]) for m in got] == [(b"k1", None), (None, b"v2"), (b"k3", b"v3")]
    raw = [r for b in rawkafka.fetch_all(broker.bootstrap, topic, 0, 3) for r in b.records()]
    assert [(r["key"], r["value"]) for r in raw] == [(b"k1", None), (None, b"v2"), (b"k3", b"v3")]


def test_auto_create_on_produce(broker):
    topic = harness.unique_topic("kcat-auto")
    kcat("-b", broker.bootstrap, "-P", "-t", topic, "-p", "0", input=b"hello\n")
    md = json.loads(kcat("-b", broker.bootstrap, "-L", "-J", "-t", topic).stdout)
    (t,) = md["topics"]
    assert len(t["partitions"]) == int(BROKER_SETTINGS["num.partitions"])
    got = clients.kcat_consume(broker.bootstrap, topic, 0, 1)
    assert got[0]["value"] == b"hello"
