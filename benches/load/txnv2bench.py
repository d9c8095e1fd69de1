#!/usr/bin/env python3
"""Transactions v2 (KIP-890) against v1 on the same broker, in one run
(issue 16).

One broker (release binary, `--cores 2` unless CORES is set), started by
the conformance harness on 127.0.0.1 and stopped by its PID. The client is
conformance/txn_v2_client.py on the raw wire (no client that speaks v2
installs here), once as a v1 producer (AddPartitionsToTxn v3, Produce v11,
EndTxn v4) and once as a v2 producer (Produce v12 adds the partition,
EndTxn v5 bumps the epoch), in alternating rounds:

  TXNS back-to-back transactions each, every one a batch of RECORDS 1 KiB
  records to each of PARTITIONS partitions, then a commit; timed per
  transaction: the whole transaction, its first produce (for v2 this
  includes the partition leader's add and any wait for the previous
  transaction's marker there), and EndTxn.

The figures are the client-visible latencies of one synchronous producer,
so the ratios within a round are what to compare; the Python client's own
time is in both.

Usage: python3 benches/load/txnv2bench.py   (TXNS=300 ROUNDS=3 RECORDS=100
PARTITIONS=2 by default; TIDEMARK_BIN selects the binary)
"""
import json
import os
import statistics
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "conformance"))
import harness  # noqa: E402
import rawkafka  # noqa: E402
from txn_v2_client import NONE, Tv2Producer  # noqa: E402

TXNS = int(os.environ.get("TXNS", "300"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
RECORDS = int(os.environ.get("RECORDS", "100"))
PARTITIONS = int(os.environ.get("PARTITIONS", "2"))
CORES = os.environ.get("CORES", "2")
MAX_SECONDS = 300  # any one run


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def run(bootstrap, topic, v1, name):
    p = Tv2Producer(bootstrap, name, v1=v1)
    vals = [os.urandom(1024) for _ in range(RECORDS)]
    whole, first, end = [], [], []
    deadline = time.monotonic() + MAX_SECONDS
    try:
        p.init()
        t_run = time.perf_counter()
        for _ in range(TXNS):
            if time.monotonic() > deadline:
                break
            t0 = time.perf_counter()
            for part in range(PARTITIONS):
                code = p.send(topic, part, vals)
                assert code == NONE, code
                if part == 0:
                    first.append((time.perf_counter() - t0) * 1000)
            t1 = time.perf_counter()
            code = p.end(commit=True)[0]
            assert code == NONE, code
            t2 = time.perf_counter()
            end.append((t2 - t1) * 1000)
            whole.append((t2 - t0) * 1000)
        elapsed = time.perf_counter() - t_run
    finally:
        p.close()
    return {"txn_per_s": len(whole) / elapsed,
            "txn_ms": {"p50": pct(whole, 0.5), "p99": pct(whole, 0.99)},
            "first_produce_ms": {"p50": pct(first, 0.5), "p99": pct(first, 0.99)},
            "end_txn_ms": {"p50": pct(end, 0.5), "p99": pct(end, 0.99)}}


def main():
    b = harness.Broker(settings={}, name="txnv2bench", cores=int(CORES))
    b.start()
    try:
        topic = harness.unique_topic("txnv2bench")
        rawkafka.ensure_topic(b.bootstrap, topic, PARTITIONS)
        rows = {"v1": [], "v2": []}
        for r in range(ROUNDS):
            for name in ("v1", "v2"):
                got = run(b.bootstrap, topic, name == "v1", "txnv2bench-%s-%d" % (name, r))
                rows[name].append(got)
                print("round %d %s %s" % (r, name, json.dumps(got)), flush=True)
        out = {"txns": TXNS, "rounds": ROUNDS, "records": RECORDS, "partitions": PARTITIONS,
               "median_txn_per_s": {k: statistics.median(x["txn_per_s"] for x in v)
                                    for k, v in rows.items()},
               "load_average": os.getloadavg()}
        out["v2_over_v1"] = out["median_txn_per_s"]["v2"] / out["median_txn_per_s"]["v1"]
        print(json.dumps(out, indent=1))
    finally:
        b.close()


if __name__ == "__main__":
    main()
