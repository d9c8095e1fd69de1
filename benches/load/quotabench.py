#!/usr/bin/env python3
"""Isolation scenario (d) of issue 20: quotas. A client id limited to
LIMIT_MB MB/s of produce gets that rate, and another client id producing
at the same time is not slowed by it.

One single-node broker (default quota windows: 11 x 1 s). Three phases of
SECONDS each, in one run:

1. solo: client id `free` alone, as fast as it can (its baseline);
2. limited alone: client id `limited` with producer_byte_rate = LIMIT_MB
   MB/s (AlterClientQuotas), as fast as it can;
3. both at once: `limited` and `free` in two processes.

Rates are acked bytes per second of 10 KiB records (confluent-kafka,
acks=all, linger 5 ms). The limited rate is measured after a warm-up of
WARMUP seconds: Kafka's rate counts a window of at least 10 s, so the
first ~10 s let a burst of up to 10 x the quota through, and the steady
rate is what the quota promises. Every loop is bounded in time; the
broker is stopped by PID (conformance harness).

Usage: LIMIT_MB=2 SECONDS=30 WARMUP=12 python3 benches/load/quotabench.py
"""
import json
import multiprocessing
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "conformance"))
import harness  # noqa: E402
import rawkafka  # noqa: E402

LIMIT_MB = float(os.environ.get("LIMIT_MB", "2"))
SECONDS = float(os.environ.get("SECONDS", "30"))
WARMUP = float(os.environ.get("WARMUP", "12"))


def produce(bootstrap, topic, client_id, seconds, warmup, out):
    from confluent_kafka import Producer
    acked = []  # (time, bytes)
    throttles = []
    p = Producer({"bootstrap.servers": bootstrap, "client.id": client_id, "linger.ms": 5,
                  "acks": "all", "queue.buffering.max.kbytes": 1024,
                  "throttle_cb": lambda ev: throttles.append(ev.throttle_time)})

    def done(err, msg):
        if err is None:
            acked.append((time.monotonic(), len(msg.value())))
    value = b"b" * 10240
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        try:
            p.produce(topic, value, callback=done)
        except BufferError:
            p.poll(0.02)
        p.poll(0)
    p.flush(60)
    start = t0 + warmup
    steady = sum(b for t, b in acked if start <= t <= t0 + seconds)
    total = sum(b for _, b in acked)
    out.put({"client_id": client_id,
             "steady_mb_s": steady / max(seconds - warmup, 1e-9) / 1e6,
             "total_mb_s": total / seconds / 1e6,
             "throttle_reports": len(throttles),
             "max_throttle_s": max(throttles) if throttles else 0})


def run(bootstrap, topic, clients, seconds, warmup):
    q = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=produce, args=(bootstrap, topic, c, seconds, w, q))
             for c, w in clients]
    for p in procs:
        p.start()
    res = [q.get(timeout=seconds + 120) for _ in procs]
    for p in procs:
        p.join(30)
    return {r["client_id"]: r for r in res}


def main():
    limit = LIMIT_MB * 1e6
    b = harness.Broker(settings={"num.partitions": 1}, name="quotabench")
    b.start()
    try:
        topic = "quotabench"
        rawkafka.ensure_topic(b.bootstrap, topic)
        from test_quotas import alter_raw
        codes = alter_raw(b.bootstrap, [({"client-id": "limited"}, {"producer_byte_rate": limit})])
        assert all(c == 0 for _, c, _ in codes), codes
        solo = run(b.bootstrap, topic, [("free", 0)], SECONDS, 0)["free"]
        print("solo free:       %.2f MB/s" % solo["total_mb_s"], flush=True)
        alone = run(b.bootstrap, topic, [("limited", WARMUP)], SECONDS, WARMUP)["limited"]
        print("limited alone:   %.2f MB/s steady (quota %.2f), %.2f MB/s overall, max throttle %.1f s"
              % (alone["steady_mb_s"], LIMIT_MB, alone["total_mb_s"], alone["max_throttle_s"]),
              flush=True)
        both = run(b.bootstrap, topic, [("limited", WARMUP), ("free", 0)], SECONDS, WARMUP)
        print("both: limited %.2f MB/s steady, free %.2f MB/s (solo %.2f)"
              % (both["limited"]["steady_mb_s"], both["free"]["total_mb_s"], solo["total_mb_s"]),
              flush=True)
        print(json.dumps({"limit_mb_s": LIMIT_MB, "seconds": SECONDS, "warmup": WARMUP,
                          "solo": solo, "limited_alone": alone, "both": both}, indent=1))
    finally:
        b.close()


if __name__ == "__main__":
    main()
