#!/usr/bin/env python3
"""Transactional produce against idempotent produce, commit latency and
read_committed publish-to-consume latency (issue 16).

One broker (release binary, `--cores 2` unless CORES is set), started by
the conformance harness on 127.0.0.1 and stopped by its PID.

1. Throughput: confluent-kafka producers of 1 KiB records, acks=all,
   linger.ms=5, to a 6-partition topic, N records each:
     idempotent      enable.idempotence=true, no transactions
     txn-10/100/1000 transactional, a commit every 10 / 100 / 1,000 records
   (ROUNDS rounds, in alternation, so each ratio compares neighbours).
2. Commit latency: the time commit_transaction() takes for transactions of
   100 records, COMMITS of them (p50/p99), after a flush (so what is
   timed is EndTxn, the markers and the coordinator's two writes, not the
   records' own produce).
3. read_committed publish-to-consume latency: a producer commits a
   transaction of 10 records every 20 ms (each value carries its produce
   time) while a read_committed consumer reads; latency = read time -
   produce time (p50/p99 over LAT_SECONDS).

Usage: python3 benches/load/txnbench.py   (N=200000 ROUNDS=2 COMMITS=300
LAT_SECONDS=10 by default; TIDEMARK_BIN selects the binary)
"""
import json
import os
import statistics
import struct
import sys
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "conformance"))
import harness  # noqa: E402
import rawkafka  # noqa: E402

N = int(os.environ.get("N", "200000"))
ROUNDS = int(os.environ.get("ROUNDS", "2"))
COMMITS = int(os.environ.get("COMMITS", "300"))
LAT_SECONDS = float(os.environ.get("LAT_SECONDS", "10"))
CORES = os.environ.get("CORES", "2")
SIZE = 1024
PARTITIONS = 6
MAX_SECONDS = 300  # any one phase


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def producer(bootstrap, **extra):
    from confluent_kafka import Producer
    conf = {"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5,
            "queue.buffering.max.messages": 500000, "batch.num.messages": 10000}
    conf.update(extra)
    return Producer(conf)


def throughput(bootstrap, topic, txn_size, tag):
    if txn_size:
        p = producer(bootstrap, **{"transactional.id": "bench-%s" % tag})
        p.init_transactions(30)
    else:
        p = producer(bootstrap, **{"enable.idempotence": True})
    value = b"x" * SIZE
    errors = []

    def cb(err, _msg):
        if err is not None:
            errors.append(err)

    t0 = time.monotonic()
    deadline = t0 + MAX_SECONDS
    i = 0
    while i < N and time.monotonic() < deadline:
        if txn_size:
            p.begin_transaction()
        n = min(txn_size or N, N - i)
        for j in range(n):
            for _ in range(100000):
                try:
                    p.produce(topic, value=value, key=b"%d" % ((i + j) % 64), on_delivery=cb)
                    break
                except BufferError:
                    p.poll(0.01)
            p.poll(0)
        i += n
        if txn_size:
            p.commit_transaction(60)
    p.flush(60)
    dt = time.monotonic() - t0
    assert not errors, errors[:3]
    return i / dt


def commit_latency(bootstrap, topic):
    p = producer(bootstrap, **{"transactional.id": "bench-commit"})
    p.init_transactions(30)
    value = b"y" * SIZE
    lat = []
    deadline = time.monotonic() + MAX_SECONDS
    for _ in range(COMMITS):
        if time.monotonic() > deadline:
            break
        p.begin_transaction()
        for j in range(100):
            p.produce(topic, value=value, key=b"%d" % j)
        p.flush(30)
        t = time.monotonic()
        p.commit_transaction(30)
        lat.append((time.monotonic() - t) * 1000)
    return lat


def rc_latency(bootstrap, topic):
    from confluent_kafka import Consumer, OFFSET_END, TopicPartition
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "bench-rc",
                  "isolation.level": "read_committed", "fetch.wait.max.ms": 10,
                  "enable.auto.commit": False})
    c.assign([TopicPartition(topic, p, OFFSET_END) for p in range(PARTITIONS)])
    lat = []
    stop = threading.Event()

    def read():
        end = time.monotonic() + LAT_SECONDS + 30
        while not stop.is_set() and time.monotonic() < end:
            # poll() returns at the first message (consume(n, t) waits for
            # n messages or t: that wait would be measured as latency).
            m = c.poll(0.1)
            if m is not None and not m.error():
                sent = struct.unpack(">d", m.value()[:8])[0]
                lat.append((time.time() - sent) * 1000)

    t = threading.Thread(target=read)
    t.start()
    time.sleep(2)  # the consumer has its positions
    p = producer(bootstrap, **{"transactional.id": "bench-rc", "linger.ms": 1})
    p.init_transactions(30)
    end = time.monotonic() + LAT_SECONDS
    while time.monotonic() < end:
        p.begin_transaction()
        for j in range(10):
            p.produce(topic, value=struct.pack(">d", time.time()) + b"z" * (SIZE - 8),
                      key=b"%d" % j)
        p.commit_transaction(30)
        time.sleep(0.02)
    time.sleep(2)
    stop.set()
    t.join(60)
    c.close()
    return lat


def main():
    b = harness.Broker(settings={"num.partitions": str(PARTITIONS)}, name="txnbench",
                       cores=int(CORES))
    b.start()
    try:
        topic = harness.unique_topic("txnbench")
        rawkafka.ensure_topic(b.bootstrap, topic, PARTITIONS)
        rows = {"idempotent": [], "txn-10": [], "txn-100": [], "txn-1000": []}
        for r in range(ROUNDS):
            for name, size in (("idempotent", 0), ("txn-10", 10), ("txn-100", 100),
                               ("txn-1000", 1000)):
                rate = throughput(b.bootstrap, topic, size, "%s-%d" % (name, r))
                rows[name].append(rate)
                print("round %d %-11s %9.0f msg/s" % (r, name, rate), flush=True)
        commits = commit_latency(b.bootstrap, topic)
        rc_topic = harness.unique_topic("txnrc")
        rawkafka.ensure_topic(b.bootstrap, rc_topic, PARTITIONS)
        rc = rc_latency(b.bootstrap, rc_topic)
        base = statistics.median(rows["idempotent"])
        out = {
            "n": N, "rounds": ROUNDS, "size": SIZE,
            "throughput": {k: statistics.median(v) for k, v in rows.items()},
            "ratio_to_idempotent": {k: statistics.median(v) / base for k, v in rows.items()},
            "commit_ms": {"n": len(commits), "p50": pct(commits, 0.5),
                          "p99": pct(commits, 0.99)},
            "read_committed_ms": {"n": len(rc), "p50": pct(rc, 0.5), "p99": pct(rc, 0.99)},
            "load_average": os.getloadavg(),
        }
        print(json.dumps(out, indent=1))
    finally:
        b.close()


if __name__ == "__main__":
    main()
