#!/usr/bin/env python3
"""What segment rolls and retention deletions of one tenant cost another:
a quiet live pair (`tmk bench e2e`, 1,000 x 1 KiB/s over 12 partitions,
one record per batch), first alone with acks=-1 and acks=1, then four
times (acks -1, 1, -1, 1) while tenant A writes RATE records/s (1 KiB,
acks=all, 2 connections) into 6 partitions for 40 s. With `RET=1`, A's
topic has 64 MiB segments and 1 GiB of retention per partition, so each
of A's partitions rolls and deletes a segment every half second or so;
without it, the defaults (1 GiB segments, no deletion in 40 s).

    RET=1 python3 benches/load/rollprobe.py 600000

Used for the fs_pool change (storage/src/fs_pool.rs): acks=1 as slow as
acks=-1 beside A says the quiet pair's time is not in its own fsyncs.
Bounded: A runs 40 s; the broker is stopped by its PID (harness).
"""
import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "conformance"))
import harness  # noqa: E402

TMK = os.environ.get("TMK", os.path.join(REPO, "target/release/tmk"))
RATE = int(sys.argv[1]) if len(sys.argv) > 1 else 600000


def main():
    b = harness.Broker(cores=2, name="rollprobe").start()

    def tmk(argv, timeout=300):
        p = subprocess.run([TMK, "--brokers", b.bootstrap] + argv, capture_output=True,
                           timeout=timeout)
        if p.returncode:
            raise RuntimeError(p.stderr.decode()[-400:])
        return p.stdout.decode()

    def e2e(acks, secs=8):
        r = json.loads(tmk(["bench", "e2e", "tb", "-n", "0", "--duration", str(secs),
                            "--rate", "1000", "-s", "1024", "--batch-records", "1",
                            "--acks", str(acks), "--format", "json"]))
        return "acks=%s ack p50 %.2f p99 %.2f | e2e p50 %.2f p99 %.2f" % (
            acks, r["publish_ack_ms"]["p50"], r["publish_ack_ms"]["p99"],
            r["publish_to_consume_ms"]["p50"], r["publish_to_consume_ms"]["p99"])

    try:
        tmk(["topic", "create", "tb", "-p", "12"])
        ret = ["-c", "retention.bytes=1073741824", "-c", "segment.bytes=67108864"]
        tmk(["topic", "create", "ta", "-p", "6"] + (ret if os.environ.get("RET") else []))
        for acks in (-1, 1):
            print("solo ", e2e(acks), flush=True)

        def run_a():
            tmk(["bench", "produce", "ta", "-n", "0", "--duration", "40", "-s", "1024",
                 "--connections", "2", "--acks", "-1", "--rate", str(RATE), "--format", "json"])
        t = threading.Thread(target=run_a)
        t.start()
        time.sleep(3)
        for acks in (-1, 1, -1, 1):
            print("beside A", e2e(acks), flush=True)
        t.join(300)
    finally:
        b.close(keep_data=False)


if __name__ == "__main__":
    main()
