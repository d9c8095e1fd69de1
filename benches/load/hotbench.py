#!/usr/bin/env python3
"""Isolation scenario (c) of issue 20: one hot partition at full speed
beside 100 quiet ones on the same broker.

First the ceilings, acks=all, 1 KiB records, `tmk bench produce` for
`--ceiling-seconds`: one partition (all of one key's events land in one
partition) against six (the whole broker's, both shards). Then rounds
alternating the order of two measurements of the quiet partitions' live
pair (`tmk bench e2e` at `--rate` records/s spread over a 100-partition
topic, acks=all): alone, and while a producer writes the hot partition as
fast as it can (`--hot-connections` connections, one partition). Reported:
the quiet pair's publish-ack and publish-to-consume p50/p99, solo against
beside the hot partition (the target is within 2x), and what the hot
producer achieved meanwhile.

    python3 benches/load/hotbench.py --rounds 2

Every step is bounded in records and time (a full-speed phase writes at
most `--max-gib` GiB and its topic is deleted after it, so the disk does
not fill); the broker is stopped by its PID (conformance harness).
"""

import argparse
import json
import os
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
fresh = isolation.fresh


def produce(args, b, topic, seconds, connections):
    """At full speed for `seconds`, but at most `--max-gib` GiB: a producer
    at the device's rate fills a disk within a minute."""
    return json.loads(tmk(args, b, [
        "bench", "produce", topic, "-n", str(args.max_gib << 20), "--duration", str(seconds),
        "-s", "1024", "--connections", str(connections), "--acks", "-1", "--format", "json"]))


def quiet(args, b):
    return json.loads(tmk(args, b, [
        "bench", "e2e", "quiet", "-n", "0", "--duration", str(args.seconds),
        "--rate", str(args.rate), "-s", "1024", "--batch-records", "1", "--acks", "-1",
        "--format", "json"]))


def quiet_beside_hot(args, b):
    hot = {}

    def run():
        hot.update(produce(args, b, "hot", args.seconds + 4, args.hot_connections))

    fresh(args, b, "hot", 1)
    t = threading.Thread(target=run)
    t.start()
    try:
        time.sleep(2)  # the hot producer is at full speed before the pair starts
        res = quiet(args, b)
    finally:
        t.join(args.seconds + 120)
    return res, hot


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--tmk", default=os.path.join(REPO, "target/release/tmk"))
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--rate", type=int, default=1000, help="quiet records/s (1 KiB), all partitions")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--ceiling-seconds", type=int, default=10)
    ap.add_argument("--hot-connections", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--max-gib", type=int, default=8,
                    help="at most this much per full-speed phase (the hot topic is recreated between)")
    ap.add_argument("--work-dir", default=None)
    args = ap.parse_args()
    b = harness.Broker(cores=args.cores, binary=args.broker, tmp_root=args.work_dir,
                       name="hotbench").start()
    try:
        tmk(args, b, ["topic", "create", "quiet", "-p", "100"])
        fresh(args, b, "hot", 1)
        one = produce(args, b, "hot", args.ceiling_seconds, args.hot_connections)
        fresh(args, b, "wide", 6)
        six = produce(args, b, "wide", args.ceiling_seconds, args.hot_connections)
        fresh(args, b, "wide", 6)
        ceiling = {"one_partition_rps": one["records_per_sec"],
                   "six_partitions_rps": six["records_per_sec"],
                   "one_over_six": one["records_per_sec"] / six["records_per_sec"]}
        print(json.dumps({"ceiling": ceiling}), flush=True)
        rows = isolation.alternate(
            args.rounds, lambda: (quiet(args, b), None), lambda: quiet_beside_hot(args, b),
            "hot", lambda hot: {"hot_rps": hot["records_per_sec"]})
        print()
        print("ceiling, acks=all, 1 KiB: one partition %.0f rec/s, six partitions %.0f rec/s (%.2fx)"
              % (ceiling["one_partition_rps"], ceiling["six_partitions_rps"], ceiling["one_over_six"]))
        print()
        isolation.print_table(rows, "hot",
                              "quiet pair, %d x 1 KiB/s over 100 partitions, acks=all" % args.rate,
                              "beside the hot partition")
        hot = [x["hot_rps"] for x in rows if x["mode"] == "hot"]
        print("\nhot partition meanwhile: %s rec/s" % ", ".join("%.0f" % x for x in hot))
    finally:
        b.close(keep_data=False)


if __name__ == "__main__":
    main()
