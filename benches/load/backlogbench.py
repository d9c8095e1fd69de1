#!/usr/bin/env python3
"""Isolation scenario (b) of issue 20: a reader catching up on a backlog
read from disk while producers and a tail-reading consumer run. The live
pair's publish-ack and publish-to-consume latency (`tmk bench e2e` at a
fixed rate, acks=all) is measured alone and beside a `tmk bench consume`
reading the backlog topic from its start (pass after pass, for the whole
live run), in the same run, rounds
alternating which goes first; the catch-up reader's rate is reported too.

    python3 benches/load/backlogbench.py --backlog-mb 2048 --rounds 2

The backlog is written once (acks=1, 1 KiB records, 4 partitions) before
the rounds; the broker's data folder is on this machine's disk (direct
I/O reads, so the page cache does not serve the catch-up).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "conformance"))
import harness  # noqa: E402  (the broker process: start, readiness, stop by PID)
sys.path.insert(0, HERE)
import isolation  # noqa: E402  (alternating rounds, the solo/beside table)

tmk = isolation.tmk


def live(args, b):
    out = tmk(args, b, ["bench", "e2e", "live", "-n", "0", "--duration", str(args.seconds),
                        "--rate", str(args.rate), "-s", "1024", "--batch-records", "20",
                        "--acks", "-1", "--format", "json"])
    return json.loads(out)


def catch_up_beside_live(args, b):
    """The live pair while readers consume the backlog from its start,
    one pass after another (a pass of a few GiB takes seconds), for the
    whole of the live run; returns the live result and the readers' rate."""
    import threading
    done = threading.Event()
    passes = []

    def read():
        while not done.is_set():
            nice = ["nice", "-n", str(args.reader_nice)] if args.reader_nice else []
            p = subprocess.Popen(nice + [args.tmk, "--brokers", b.bootstrap, "bench", "consume",
                                  "backlog", "--duration", str(args.seconds + 60),
                                  "--format", "json"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            while p.poll() is None and not done.is_set():
                time.sleep(0.05)
            if p.poll() is None:
                p.send_signal(signal.SIGINT)  # tmk prints what it read so far
            out, _ = p.communicate(timeout=60)
            try:
                passes.append(json.loads(out))
            except ValueError:
                pass

    readers = [threading.Thread(target=read) for _ in range(args.readers)]
    for t in readers:
        t.start()
    try:
        time.sleep(2)  # the readers are reading before the live pair starts
        res = live(args, b)
    finally:
        done.set()
        for t in readers:
            t.join(90)
    mib = sum(x["bytes"] for x in passes) / 2**20
    secs = sum(x["seconds"] for x in passes) / max(1, args.readers)
    return res, {"mib_per_sec": mib / max(secs, 1e-9), "records": sum(x["records"] for x in passes),
                 "passes": len(passes)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--tmk", default=os.path.join(REPO, "target/release/tmk"))
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--backlog-mb", type=int, default=2048)
    ap.add_argument("--rate", type=int, default=5000, help="live records/s (1 KiB)")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--readers", type=int, default=1, help="catch-up readers at once")
    ap.add_argument("--reader-nice", type=int, default=0,
                    help="run the reader under nice -n N (19: the client's CPU use yields to the broker's)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--work-dir", default=None)
    args = ap.parse_args()
    b = harness.Broker(cores=args.cores, binary=args.broker, tmp_root=args.work_dir,
                       name="backlogbench").start()
    try:
        tmk(args, b, ["topic", "create", "backlog", "-p", "4"])
        tmk(args, b, ["topic", "create", "live", "-p", "4"])
        t = time.monotonic()
        fill = json.loads(tmk(args, b, [
            "bench", "produce", "backlog", "-n", str(args.backlog_mb * 1024), "-s", "1024",
            "--connections", "2", "--acks", "1", "--format", "json"], timeout=1800))
        print("backlog: %d records, %.0f MiB in %.1f s" % (
            fill["records"], fill["bytes"] / 2**20, time.monotonic() - t), flush=True)
        rows = isolation.alternate(
            args.rounds, lambda: (live(args, b), None), lambda: catch_up_beside_live(args, b),
            "catch-up", lambda reader: {"reader_mib_s": reader["mib_per_sec"],
                                        "reader_records": reader["records"],
                                        "reader_passes": reader["passes"]})
        print()
        isolation.print_table(rows, "catch-up",
                              "live pair at %d x 1 KiB/s, acks=all" % args.rate,
                              "beside the catch-up reader")
        rates = [x["reader_mib_s"] for x in rows if x["mode"] == "catch-up"]
        print("\ncatch-up reader: %s MiB/s" % ", ".join("%.0f" % x for x in rates))
    finally:
        b.close(keep_data=False)


if __name__ == "__main__":
    main()
