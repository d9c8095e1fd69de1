"""Produce and consume with keys, headers and every compression codec, with
every client against every client.

For each producer client (confluent-kafka, kafka-python, kcat, kafkajs) and
each codec (none, gzip, snappy, lz4, zstd) one topic gets 40 keyed messages
with headers. Then:
- test_produce: every message is acknowledged at the next offset, in order,
  and the stored batches (read raw) carry that codec and a valid CRC-32C:
  the broker keeps the producer's batches as they are;
- test_consume: each of the four clients reads them back byte for byte
  (key, value, headers, offsets, timestamps).
"""

import time

import pytest

import clients
import harness
import rawkafka
from clients import CODECS

BROKER_SETTINGS = {"num.partitions": "1", "auto.create.topics.enable": "true"}

CLIENTS = ["confluent", "kafka-python", "kcat", "kafkajs"]
N = 40

_produced = {}


def expected_messages(producer, codec):
    tag = "%s-%s" % (producer, codec)
    msgs = clients.make_messages(tag, N)
    if producer == "kcat":
        # kcat puts the same -H headers on every message it produces
        for m in msgs:
            m["headers"] = [("trace", b"kcat"), ("source", tag.encode())]
    return msgs


def produce(broker, producer, codec):
    """Produce once per (producer, codec) per module; returns the record of it."""
    key = (producer, codec)
    if key in _produced:
        return _produced[key]
    topic = harness.unique_topic("pc-%s-%s" % (producer, codec))
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    msgs = expected_messages(producer, codec)
    t0 = int(time.time() * 1000)
    offsets = None
    if producer == "confluent":
        offsets = clients.confluent_produce(broker.bootstrap, topic, msgs, codec, partition=0)
    elif producer == "kafka-python":
        offsets = clients.kp_produce(broker.bootstrap, topic, msgs, codec, partition=0)
    elif producer == "kcat":
        clients.kcat_produce(broker.bootstrap, topic, msgs, codec, partition=0,
                             headers=msgs[0]["headers"])
    elif producer == "kafkajs":
        res = clients.kafkajs_produce(broker.bootstrap, topic, msgs, codec, partition=0, batches=2)
        assert [r["errorCode"] for r in res] == [0, 0], res
        assert [int(r["baseOffset"]) for r in res] == [0, N // 2], res
        offsets = [(0, i) for i in range(N)]
    t1 = int(time.time() * 1000)
    rec = {"topic": topic, "msgs": msgs, "offsets": offsets, "t0": t0, "t1": t1}
    _produced[key] = rec
    return rec


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("producer", CLIENTS)
def test_produce(broker, producer, codec):
    rec = produce(broker, producer, codec)
    if rec["offsets"] is not None:
        assert rec["offsets"] == [(0, i) for i in range(N)], \
            "acknowledged offsets are not 0..%d in order" % (N - 1)
    batches = rawkafka.fetch_all(broker.bootstrap, rec["topic"], 0, N)
    assert sum(b.count for b in batches) == N
    assert batches[0].base_offset == 0
    want = rawkafka.CODEC_IDS[codec]
    hint = ""
    if codec == "lz4" and producer in ("confluent", "kcat"):
        hint = (" (librdkafka compresses with LZ4 only when the broker's ApiVersions"
                " lists FindCoordinator v0: its LZ4 feature check)")
    assert [b.codec for b in batches] == [want] * len(batches), \
        "stored batches should carry the producer's codec %s%s" % (codec, hint)
    assert all(b.crc_ok for b in batches), "a stored batch fails its CRC-32C"
    assert all(b.magic == 2 for b in batches)
    # offsets are contiguous across batches
    nxt = 0
    for b in batches:
        assert b.base_offset == nxt
        nxt = b.base_offset + b.last_offset_delta + 1
    assert nxt == N
    if codec in ("none", "gzip"):
        recs = [r for b in batches for r in b.records()]
        assert [(r["key"], r["value"]) for r in recs] == \
            [(m["key"], m["value"]) for m in rec["msgs"]]


def consume(broker, consumer, topic):
    if consumer == "confluent":
        return clients.confluent_consume(broker.bootstrap, topic, [0], N)
    if consumer == "kafka-python":
        return clients.kp_consume(broker.bootstrap, topic, [0], N)
    if consumer == "kcat":
        return clients.kcat_consume(broker.bootstrap, topic, 0, N)
    if consumer == "kafkajs":
        return clients.kafkajs_fetch(broker.bootstrap, topic, 0, N)
    raise ValueError(consumer)


@pytest.mark.parametrize("consumer", CLIENTS)
@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("producer", CLIENTS)
def test_consume(broker, producer, codec, consumer):
    rec = produce(broker, producer, codec)
    got = consume(broker, consumer, rec["topic"])
    assert len(got) == N, "read %d messages, produced %d" % (len(got), N)
    assert [m["offset"] for m in got] == list(range(N))
    assert clients.essence(got) == clients.essence(rec["msgs"]), \
        "%s read back different keys/values/headers than %s produced" % (consumer, producer)
    for m in got:
        assert rec["t0"] - 5000 <= m["timestamp"] <= rec["t1"] + 5000, \
            "CreateTime %d outside the produce window [%d, %d]" % (m["timestamp"], rec["t0"], rec["t1"])
