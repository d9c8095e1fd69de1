#!/usr/bin/env python3
"""Isolation scenario (a) of issue 20: tenant A bursts at 5x its normal
rate for minutes while tenant B produces steadily.

First A's ceiling: `tmk bench produce` at full speed (acks=all, 1 KiB,
`--connections` connections, over A's `--partitions` partitions, both
shards). A's normal rate is `--normal-fraction` of that ceiling, and its
burst is `--burst-factor` times the normal rate (by default 0.2 and 5:
the burst offers the whole broker's ceiling). Then rounds, alternating
the order of two measurements of B's live pair (`tmk bench e2e` at
`--rate` records/s over its own 12-partition topic, acks=all): alone, and
while A bursts (A runs `--burst-seconds`; B is measured inside it). Each
burst also records:

- what A offered and got acknowledged, and that every acknowledged record
  is in A's partitions (the sum of their end offsets moved by exactly the
  acknowledged count): "A loses nothing". `tmk bench` stops with an error
  on any failed produce, which fails the run;
- the broker's resident memory, sampled every 0.5 s for the whole burst
  (its bound: `queued.max.request.bytes` of produce requests plus the tail
  caches, docs/sizing.md);
- B's pair right after the burst (`--after-seconds`): latency back to
  normal once the burst ends (with the retention deletions of the burst's
  tail still running). A's topic is then deleted and created again, as
  after the ceiling, so that the next solo measurement is not taken
  beside those deletions.

    python3 benches/load/burstbench.py --rounds 2 --burst-seconds 120

A's topic keeps at most `--retention-mib` per partition (retention.bytes,
64 MiB segments, retention checked every second), so a burst of minutes
does not fill the disk; every
step is bounded in records and time, and the broker is stopped by its PID
(conformance harness).
"""

import argparse
import json
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "conformance"))
import harness  # noqa: E402  (the broker process: start, readiness, stop by PID)
sys.path.insert(0, HERE)
import isolation  # noqa: E402  (alternating rounds, the solo/beside table)

tmk = isolation.tmk

A_TOPIC = "tenant-a"
B_TOPIC = "tenant-b"


def fresh_a(args, b):
    """(Re)creates A's topic, so that a solo measurement does not run
    beside the deletions of what the last phase wrote (retention)."""
    isolation.fresh(args, b, A_TOPIC, args.partitions,
                    ["retention.bytes=%d" % (args.retention_mib << 20),
                     "segment.bytes=%d" % (64 << 20)])
    time.sleep(2)
def end_offsets(args, b):
    """The sum of A's partitions' high watermarks."""
    d = json.loads(tmk(args, b, ["topic", "describe", A_TOPIC, "-p", "--format", "json"]))
    parts = d["partitions"] if isinstance(d, dict) else d[0]["partitions"]
    return sum(int(p["high_watermark"]) for p in parts)


def produce_a(args, b, seconds, rate):
    """A at `rate` records/s (0: full speed) for `seconds`."""
    argv = ["bench", "produce", A_TOPIC, "-n", "0", "--duration", str(seconds), "-s", "1024",
            "--connections", str(args.connections), "--acks", "-1", "--format", "json"]
    if rate:
        argv += ["--rate", str(int(rate))]
    return json.loads(tmk(args, b, argv, timeout=seconds + 300))


def pair_b(args, b, seconds):
    return json.loads(tmk(args, b, [
        "bench", "e2e", B_TOPIC, "-n", "0", "--duration", str(seconds),
        "--rate", str(args.rate), "-s", "1024", "--batch-records", "1", "--acks", "-1",
        "--format", "json"]))


def quarters(samples):
    """`samples` in four consecutive parts (fewer when there are fewer)."""
    n = len(samples)
    return [samples[i * n // 4:(i + 1) * n // 4] for i in range(4) if (i + 1) * n // 4 > i * n // 4]


def burst(args, b, rate):
    """B's pair inside a burst of A, A's figures, the RSS samples, and B's
    pair right after the burst."""
    out = {}
    before = end_offsets(args, b)
    stop = threading.Event()
    rss = []

    def sample():
        while not stop.wait(0.5):
            kb = b.rss_kb()
            if kb:
                rss.append(kb)

    def run_a():
        try:
            out["a"] = produce_a(args, b, args.burst_seconds, rate)
        except Exception as e:  # reported below: a failed publish fails the run
            out["a_error"] = str(e)

    sampler = threading.Thread(target=sample)
    sampler.start()
    t = threading.Thread(target=run_a)
    t.start()
    try:
        time.sleep(3)  # A is at its burst rate before B's pair starts
        res = pair_b(args, b, max(5, args.burst_seconds - 8))
    finally:
        t.join(args.burst_seconds + 600)
        stop.set()
        sampler.join()
    if "a_error" in out:
        raise RuntimeError("tenant A's burst failed: " + out["a_error"])
    after = pair_b(args, b, args.after_seconds)
    moved = end_offsets(args, b) - before
    a = out["a"]
    what = {"a_offered_rps": rate, "a_acked_rps": a["records_per_sec"],
            "a_acked": a["records"], "a_in_log": moved,
            "rss_max_mib": max(rss) / 1024 if rss else 0,
            # the largest RSS in each quarter of the burst: flat, not growing
            "rss_quarters_mib": [round(max(q) / 1024) for q in quarters(rss)],
            "after_ack_p99": after["publish_ack_ms"]["p99"],
            "after_e2e_p99": after["publish_to_consume_ms"]["p99"]}
    if moved != a["records"]:
        raise RuntimeError("tenant A: %d records acknowledged, %d in the log" % (a["records"], moved))
    fresh_a(args, b)
    return res, what


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--tmk", default=os.path.join(REPO, "target/release/tmk"))
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--partitions", type=int, default=6, help="tenant A's partitions")
    ap.add_argument("--connections", type=int, default=2, help="tenant A's connections")
    ap.add_argument("--rate", type=int, default=1000, help="tenant B's records/s (1 KiB)")
    ap.add_argument("--normal-fraction", type=float, default=0.2,
                    help="tenant A's normal rate, as a fraction of its ceiling")
    ap.add_argument("--burst-factor", type=float, default=5.0)
    ap.add_argument("--burst-seconds", type=int, default=120)
    ap.add_argument("--seconds", type=int, default=20, help="B's solo measurement")
    ap.add_argument("--after-seconds", type=int, default=10)
    ap.add_argument("--ceiling-seconds", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--retention-mib", type=int, default=1024,
                    help="retention.bytes of each of A's partitions")
    ap.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                    help="a broker setting (repeatable)")
    ap.add_argument("--work-dir", default=None)
    args = ap.parse_args()
    # Retention checked every second (Kafka's default is five minutes): at
    # the burst's rate the disk fills in about a minute otherwise, and the
    # full-disk guard (rightly) refuses the producers.
    settings = {"log.retention.check.interval.ms": "1000"}
    settings.update(kv.split("=", 1) for kv in args.setting)
    b = harness.Broker(cores=args.cores, binary=args.broker, tmp_root=args.work_dir,
                       settings=settings, name="burstbench").start()
    try:
        tmk(args, b, ["topic", "create", B_TOPIC, "-p", "12"])
        fresh_a(args, b)
        ceiling = produce_a(args, b, args.ceiling_seconds, 0)["records_per_sec"]
        fresh_a(args, b)
        normal = ceiling * args.normal_fraction
        rate = normal * args.burst_factor
        print(json.dumps({"a_ceiling_rps": ceiling, "a_normal_rps": normal,
                          "a_burst_rps": rate}), flush=True)
        rows = isolation.alternate(
            args.rounds, lambda: (pair_b(args, b, args.seconds), None),
            lambda: burst(args, b, rate), "burst", lambda w: w)
        print()
        print("tenant A, acks=all, 1 KiB: ceiling %.0f rec/s; normal %.0f; burst %.0f rec/s "
              "(%.1fx) for %d s" % (ceiling, normal, rate, args.burst_factor, args.burst_seconds))
        print()
        isolation.print_table(rows, "burst",
                              "tenant B, %d x 1 KiB/s over 12 partitions, acks=all" % args.rate,
                              "during A's burst")
        bursts = [x for x in rows if x["mode"] == "burst"]
        solo_ack = statistics.median(x["ack_p99"] for x in rows if x["mode"] == "solo")
        solo_e2e = statistics.median(x["e2e_p99"] for x in rows if x["mode"] == "solo")
        print()
        for x in bursts:
            print("burst: A offered %.0f rec/s, acknowledged %.0f rec/s (%d records, all in the "
                  "log); broker RSS max %.0f MiB (per quarter of the burst: %s); B right after: "
                  "ack p99 %.2f ms (%.2fx solo), publish-to-consume p99 %.2f ms (%.2fx solo)"
                  % (x["a_offered_rps"], x["a_acked_rps"], x["a_acked"], x["rss_max_mib"],
                     x["rss_quarters_mib"],
                     x["after_ack_p99"], x["after_ack_p99"] / solo_ack,
                     x["after_e2e_p99"], x["after_e2e_p99"] / solo_e2e))
    finally:
        b.close(keep_data=False)


if __name__ == "__main__":
    main()
