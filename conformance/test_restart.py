"""Restarts: a clean SIGTERM shutdown, and kill -9. After either, started
again on the same data directory, the broker has every acknowledged
message (acks=all), at the offset it was acknowledged at, and its topics
with their ids and configs."""

import threading
import time

import pytest

import clients
import harness
import rawkafka

BROKER_SETTINGS = {"num.partitions": "1", "auto.create.topics.enable": "false"}


def topic_ids(addr, topics):
    with rawkafka.KafkaConn(addr) as c:
        md = c.metadata(topics)
        return {t["Name"]: (t["ErrorCode"], t.get("TopicId"), len(t["Partitions"]))
                for t in md["Topics"]}


def high_watermarks(addr, topic, partitions):
    with rawkafka.KafkaConn(addr) as c:
        out = {}
        for p in partitions:
            r = c.list_offset(topic, p, rawkafka.LATEST)
            assert r["ErrorCode"] == 0, r
            out[p] = r["Offset"]
        return out


def test_consume_from_earliest_after_clean_restart(fresh_broker):
    b = fresh_broker
    topic = harness.unique_topic("restart")
    gone = harness.unique_topic("restart-deleted")
    rawkafka.ensure_topic(b.bootstrap, topic, 3, configs={"retention.ms": "123456789"})
    rawkafka.ensure_topic(b.bootstrap, gone, 1)
    msgs = clients.make_messages("restart", 3000, key_count=50)
    acked = clients.confluent_produce(b.bootstrap, topic, msgs, codec="lz4")
    ids_before = topic_ids(b.bootstrap, [topic])
    a = clients.confluent_admin(b.bootstrap)
    a.delete_topics([gone], operation_timeout=30)[gone].result(timeout=30)

    t0 = time.monotonic()
    rc = b.sigterm()
    took = time.monotonic() - t0
    assert rc == 0, "SIGTERM should shut down cleanly with status 0, got %s" % rc
    assert took < 10, "clean shutdown took %.1fs" % took

    b.start()
    assert topic_ids(b.bootstrap, [topic]) == ids_before, "topic id or partitions changed"
    assert topic_ids(b.bootstrap, [gone])[gone][0] == rawkafka.UNKNOWN_TOPIC_OR_PARTITION, \
        "a deleted topic came back after restart"

    got = clients.confluent_consume(b.bootstrap, topic, [0, 1, 2], len(msgs))
    assert len(got) == len(msgs)
    at = {(m["partition"], m["offset"]): m for m in got}
    for m, (p, off) in zip(msgs, acked):
        r = at.get((p, off))
        assert r is not None, "acknowledged message at %d/%d missing after restart" % (p, off)
        assert (r["key"], r["value"], tuple(r["headers"])) == \
            (m["key"], m["value"], tuple(m["headers"]))

    from confluent_kafka.admin import ConfigResource, ResourceType
    res = ConfigResource(ResourceType.TOPIC, topic)
    a = clients.confluent_admin(b.bootstrap)  # keep the handle alive while waiting
    cfg = a.describe_configs([res])[res].result(timeout=30)
    assert cfg["retention.ms"].value == "123456789", "topic config lost on restart"

    # appends continue after the last offset
    hw = high_watermarks(b.bootstrap, topic, [0])[0]
    assert clients.confluent_produce(b.bootstrap, topic, [{"key": b"after", "value": b"restart"}],
                                     partition=0) == [(0, hw)]


def _produce_until_stopped(bootstrap, topic, stop, acked, errors):
    p = clients.confluent_producer(bootstrap, **{
        "linger.ms": 1, "acks": "all", "message.timeout.ms": 5000,
        "max.in.flight.requests.per.connection": 5,
        "reconnect.backoff.ms": 100, "reconnect.backoff.max.ms": 500})

    def cb(err, msg):
        if err is None:
            acked.append((msg.partition(), msg.offset(), msg.key(), msg.value()))
        else:
            errors.append(err)

    i = 0
    deadline = time.monotonic() + 60
    while not stop.is_set() and time.monotonic() < deadline:
        try:
            p.produce(topic, key=b"k%d" % (i % 31), value=b"value-%08d" % i, on_delivery=cb)
            i += 1
        except BufferError:
            pass
        p.poll(0.0005 if i % 50 == 0 else 0)
    p.flush(8)


@pytest.mark.parametrize("how", ["kill9", "term"])
def test_every_acked_message_survives_a_stop_under_load(fresh_broker, how):
    """acks=all producing without pause; the broker is killed (-9) or
    terminated in the middle of it and started again."""
    b = fresh_broker
    topic = harness.unique_topic("crash-%s" % how)
    rawkafka.ensure_topic(b.bootstrap, topic, 3)
    acked, errors = [], []
    stop = threading.Event()
    t = threading.Thread(target=_produce_until_stopped, args=(b.bootstrap, topic, stop, acked, errors),
                         daemon=True)
    t.start()
    harness.wait_until(lambda: len(acked) >= 5000, timeout=30, what="5000 acknowledged messages")
    if how == "kill9":
        b.kill9()
    else:
        rc = b.sigterm()
        assert rc == 0, "SIGTERM under load should still exit 0, got %s" % rc
    time.sleep(0.5)
    stop.set()
    t.join(30)
    assert not t.is_alive()
    # (delivery reports received before the stop may reach the callback
    # later, from the producer's queue: `acked` is complete only now)
    b.start()

    hw = high_watermarks(b.bootstrap, topic, [0, 1, 2])
    by_place = {}
    for p, off, key, value in acked:
        by_place[(p, off)] = (key, value)
        assert off < hw[p], "acknowledged offset %d/%d is above the high watermark %d after restart" % (
            p, off, hw[p])
    total = sum(hw.values())
    got = clients.confluent_consume(b.bootstrap, topic, [0, 1, 2], total, timeout=60)
    seen = {}
    for m in got:
        seen[(m["partition"], m["offset"])] = (m["key"], m["value"])
    missing = [k for k in by_place if k not in seen]
    assert not missing, "%d acknowledged messages missing after %s, e.g. %s" % (
        len(missing), how, sorted(missing)[:5])
    wrong = [k for k, v in by_place.items() if seen[k] != v]
    assert not wrong, "%d acknowledged offsets hold other messages after %s, e.g. %s" % (
        len(wrong), how, sorted(wrong)[:5])
    for p in range(3):
        offs = sorted(off for (q, off) in seen if q == p)
        assert offs == list(range(hw[p])), "partition %d has gaps after restart" % p
    print("%s: %d acknowledged, %d in the log after restart" % (how, len(by_place), total))


def test_kill9_right_after_raw_acks(fresh_broker):
    """Sequential acks=-1 produce requests on one connection, kill -9 the
    moment the last ack arrives: every acknowledged batch is in the log,
    byte for byte."""
    b = fresh_broker
    topic = harness.unique_topic("rawcrash")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    sent = []
    with rawkafka.KafkaConn(b.bootstrap) as c:
        for i in range(200):
            recs = [(b"k%d" % i, b"batch-%d-rec-%d" % (i, j), [("i", b"%d" % i)]) for j in range(5)]
            part, _ = c.produce(topic, 0, rawkafka.build_batch(recs), acks=-1)
            assert part["ErrorCode"] == 0, part
            assert part["BaseOffset"] == i * 5
            sent.append(recs)
        b.kill9()
    b.start()
    batches = rawkafka.fetch_all(b.bootstrap, topic, 0, 1000)
    assert all(x.crc_ok for x in batches)
    recs = [r for x in batches for r in x.records()]
    assert len(recs) >= 1000
    flat = [r for batch in sent for r in batch]
    for off, (k, v, h) in enumerate(flat):
        r = recs[off]
        assert r["offset"] == off and (r["key"], r["value"], r["headers"]) == (k, v, list(h)), \
            "offset %d differs after kill -9" % off


def test_sigterm_does_not_wait_for_parked_fetches(fresh_broker):
    """A long-poll fetch parked with a 30 s max wait must not hold up a clean
    shutdown: it is answered (or its connection closed) and the broker exits
    0 within a few seconds."""
    b = fresh_broker
    topic = harness.unique_topic("parked")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    c = rawkafka.KafkaConn(b.bootstrap)
    try:
        c.api_versions()
        v = c.pick(rawkafka.API_FETCH, cap=12)
        body = {"ReplicaId": -1, "MaxWaitMs": 30000, "MinBytes": 1, "MaxBytes": 1 << 20,
                "IsolationLevel": 0, "SessionId": 0, "SessionEpoch": -1,
                "Topics": [{"Topic": topic, "Partitions": [
                    {"Partition": 0, "CurrentLeaderEpoch": -1, "FetchOffset": 0, "LastFetchedEpoch": -1,
                     "LogStartOffset": -1, "PartitionMaxBytes": 1 << 20}]}],
                "ForgottenTopicsData": [], "RackId": ""}
        c.send(rawkafka.API_FETCH, v, body)
        time.sleep(0.3)
        t0 = time.monotonic()
        rc = b.sigterm(timeout=15)
        took = time.monotonic() - t0
        assert rc == 0
        assert took < 3, "SIGTERM took %.1fs: the broker waited for a parked fetch's max wait" % took
        # the parked fetch got an answer or its connection was closed: no hang
        c.sock.settimeout(5)
        try:
            c.recv_frame()
        except (rawkafka.ConnectionClosed, OSError):
            pass
    finally:
        c.close()
