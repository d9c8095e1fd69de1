#!/usr/bin/env python3
"""How long a restarted follower takes to catch up while producers write
(issue 20's read budget applies to the leader's reads for replication
too: a follower behind the tail cache is sent the log from the segment
files, one read at a time while appends run).

Three brokers (`conformance/cluster.py`, one core each), one topic of 3
partitions at RF 3; `tmk bench produce` at a fixed rate (1 KiB, acks=all)
for the whole run; broker 3 is killed (-9) after --kill-after seconds,
started again --down seconds later, and the partitions' ISR is polled
(Metadata) until broker 3 is back in every one: that is the catch-up
time reported, with the bytes it missed. Bounded: the producer runs at
most --max-seconds, and every broker is stopped by PID at the end.

    python3 benches/load/followercatchup.py --rate 50000 --down 40
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "conformance"))
import cluster as clusterlib  # noqa: E402  (three brokers; stop by PID)

from confluent_kafka.admin import AdminClient, NewTopic  # noqa: E402

TOPIC = "catchup"


def isr_has(admin, node_id):
    md = admin.list_topics(TOPIC, timeout=5)
    parts = md.topics[TOPIC].partitions
    return bool(parts) and all(node_id in p.isrs for p in parts.values()), {
        p.id: sorted(p.isrs) for p in parts.values()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--broker", default=os.path.join(REPO, "target", "release", "tidemark"))
    ap.add_argument("--tmk", default=os.path.join(REPO, "target", "release", "tmk"))
    ap.add_argument("--rate", type=int, default=100000, help="records/s of 1 KiB")
    ap.add_argument("--kill-after", type=float, default=5.0)
    ap.add_argument("--down", type=float, default=40.0,
                    help="seconds broker 3 stays down (longer than replica.lag.time.max.ms,\n                    30 s, so that it has left the ISR and rejoins only once caught up)")
    ap.add_argument("--max-seconds", type=float, default=150.0, help="producer's whole run")
    args = ap.parse_args()

    c = clusterlib.Cluster(size=3, binary=args.broker, name="catchup").start()
    prod = None
    try:
        admin = AdminClient({"bootstrap.servers": c.bootstrap})
        admin.create_topics([NewTopic(TOPIC, 3, 3)])[TOPIC].result(30)
        deadline = time.monotonic() + 30
        while not isr_has(admin, 3)[0]:
            if time.monotonic() > deadline:
                raise SystemExit("the topic never had a full ISR")
            time.sleep(0.2)
        # tmk's bench client stops at a broken connection (it does not
        # fail over): run it again whenever it ends, for the whole run.
        stop_at = time.monotonic() + args.max_seconds
        runs = []

        def produce():
            while time.monotonic() < stop_at - 1:
                p = subprocess.Popen(
                    [args.tmk, "--brokers", c.bootstrap, "bench", "produce", TOPIC, "-n", "0",
                     "--duration", str(max(1, int(stop_at - time.monotonic()))),
                     "--rate", str(args.rate), "--acks", "-1", "--connections", "2",
                     "--format", "json"],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                procs.append(p)
                _, err = p.communicate()
                # Its progress lines: "[  1.0s]  49972 records acked, ..."
                acked = [int(line.split("]")[1].split()[0]) for line in err.splitlines()
                         if "records acked" in line]
                runs.append(acked[-1] if acked else 0)
                if not acked:
                    time.sleep(0.2)  # it failed at once (no leader yet)

        procs = []
        prod = threading.Thread(target=produce, daemon=True)
        prod.start()
        t0 = time.monotonic()
        time.sleep(args.kill_after)
        c.kill9(3)
        killed = time.monotonic()
        time.sleep(args.down)
        c.start_node(3)
        started = time.monotonic()
        caught, isrs = None, {}
        while time.monotonic() - t0 < args.max_seconds - 2:
            ok, isrs = isr_has(admin, 3)
            if ok:
                caught = time.monotonic()
                break
            time.sleep(0.25)
        stop_at = time.monotonic()
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)  # tmk prints what it sent so far
        prod.join(timeout=30)
        res = {"runs": len(runs), "records_acked": sum(runs)}
        report = {
            "rate_target": args.rate,
            "down_s": round(started - killed, 2),
            "catch_up_s": None if caught is None else round(caught - started, 2),
            "last_isrs": isrs,
            "producer": res,
            "missed_mib_est": round(args.rate * 1024 * (started - killed) / 2**20),
        }
        print(json.dumps(report))
    finally:
        for p in procs if prod is not None else []:
            if p.poll() is None:
                p.kill()
                p.wait()
        c.close(keep_data=False)


if __name__ == "__main__":
    main()
