#!/usr/bin/env python3
"""Where tenant B's latency goes during tenant A's burst (issue 20,
scenario a), over time: A produces at a fixed rate for `--seconds`, and B's
live pair (`tmk bench e2e`, 1,000 x 1 KiB/s, one record per batch,
acks=all, 12 partitions) is measured in consecutive `--window` second
windows meanwhile. Each window prints B's publish-ack p50/p99 beside what
the data device did in it (/proc/diskstats: writes, MB/s, write await,
utilisation, discards, cache flushes and their await) and, with `--cpu`,
each broker thread group's CPU and minor faults.

burstbench.py gives one p99 per burst; this shows when in a burst it
rises. With A's default retention (1 GiB per partition, checked every
second, as burstbench.py) the retention deletions start about 15 s in, at
the burst's rate; `--retention-mib 100000` keeps them out of the window.

    python3 benches/load/burstwindows.py --rate 400000 --seconds 40
    python3 benches/load/burstwindows.py --rate 400000 --seconds 40 --retention-mib 100000

Bounded: A runs `--seconds` (tmk stops it), B's windows end before A does;
the broker is stopped by its PID (conformance harness).
"""

import argparse
import json
import os
import re
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "conformance"))
import harness  # noqa: E402  (the broker process: start, readiness, stop by PID)
sys.path.insert(0, HERE)
import isolation  # noqa: E402  (tmk, fresh)


def data_device(path):
    """The /proc/diskstats name of the block device holding `path`."""
    dev = os.stat(path).st_dev
    major, minor = os.major(dev), os.minor(dev)
    for line in open("/proc/diskstats"):
        f = line.split()
        if int(f[0]) == major and int(f[1]) == minor:
            return f[2]
    raise RuntimeError("no /proc/diskstats entry for %s (%d:%d)" % (path, major, minor))


def disk(name):
    for line in open("/proc/diskstats"):
        f = line.split()
        if f[2] == name:
            return [int(x) for x in f[3:]]
    raise RuntimeError("device %s left /proc/diskstats" % name)


def threads(pid):
    """CPU ticks and minor faults per thread group (shards, io_uring
    workers, fs helpers, the rest by name)."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            st = open("/proc/%d/task/%s/stat" % (pid, tid)).read()
        except OSError:
            continue
        name = st[st.index("(") + 1:st.rindex(")")]
        f = st.rsplit(")", 1)[1].split()
        key = "iou-wrk" if name.startswith("iou-wrk") else (
            "fs" if name.startswith("tidemark-fs") else name)
        c = out.setdefault(key, [0, 0])
        c[0] += int(f[11]) + int(f[12])
        c[1] += int(f[7])
    return out


def scrape(b):
    """The broker's /metrics as {(name, labels): value}."""
    text = urllib.request.urlopen(b.admin_url + "/metrics", timeout=10).read().decode()
    out = {}
    for line in text.splitlines():
        m = re.match(r'^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$', line)
        if m:
            out[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return out


def quantiles(m0, m1, name, labels=""):
    """p50 and p99 (upper bucket bounds, ms) of histogram `name` between
    two scrapes, and how many observations."""
    buckets = []
    for (n, lab), v in m1.items():
        if n != name + "_bucket" or (labels and labels not in lab):
            continue
        le = re.search(r'le="([^"]+)"', lab).group(1)
        buckets.append((float("inf") if le == "+Inf" else float(le), v - m0.get((n, lab), 0)))
    buckets.sort()
    total = buckets[-1][1] if buckets else 0

    def q(f):
        for le, c in buckets:
            if c >= f * total:
                return le * 1e3
        return float("nan")
    return (q(0.5), q(0.99), total) if total else (float("nan"), float("nan"), 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--tmk", default=os.path.join(REPO, "target/release/tmk"))
    ap.add_argument("--rate", type=int, default=400000, help="tenant A's records/s (1 KiB)")
    ap.add_argument("--seconds", type=int, default=40, help="tenant A's burst")
    ap.add_argument("--window", type=int, default=4, help="seconds per window of B")
    ap.add_argument("--partitions", type=int, default=6, help="tenant A's partitions")
    ap.add_argument("--connections", type=int, default=2, help="tenant A's connections")
    ap.add_argument("--retention-mib", type=int, default=1024,
                    help="retention.bytes of each of A's partitions")
    ap.add_argument("--segment-mib", type=int, default=64,
                    help="segment.bytes of A's topic (burstbench.py: 64; Kafka's default 1024)")
    ap.add_argument("--cpu", action="store_true", help="per-window CPU of the broker's threads")
    ap.add_argument("--metrics", action="store_true",
                    help="per-window fdatasync and Produce latency (bucket bounds) and the "
                    "largest produce memory held, from the broker's /metrics")
    ap.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--work-dir", default=None)
    args = ap.parse_args()
    settings = {"log.retention.check.interval.ms": "1000"}
    settings.update(kv.split("=", 1) for kv in args.setting)
    b = harness.Broker(cores=2, binary=args.broker, settings=settings, name="burstwindows",
                       tmp_root=args.work_dir).start()
    dev = data_device(str(b.data_dir))
    try:
        isolation.tmk(args, b, ["topic", "create", "tenant-b", "-p", "12"])
        isolation.fresh(args, b, "tenant-a", args.partitions,
                        ["retention.bytes=%d" % (args.retention_mib << 20),
                         "segment.bytes=%d" % (args.segment_mib << 20)])
        time.sleep(2)

        def pair(seconds):
            r = json.loads(isolation.tmk(args, b, [
                "bench", "e2e", "tenant-b", "-n", "0", "--duration", str(seconds),
                "--rate", "1000", "-s", "1024", "--batch-records", "1", "--acks", "-1",
                "--format", "json"]))
            return r["publish_ack_ms"]

        r = pair(args.window)
        print("solo: ack p50 %.2f p99 %.2f ms (device %s)" % (r["p50"], r["p99"], dev), flush=True)
        out = {}

        def run_a():
            try:
                out["a"] = json.loads(isolation.tmk(args, b, [
                    "bench", "produce", "tenant-a", "-n", "0", "--duration", str(args.seconds),
                    "-s", "1024", "--connections", str(args.connections), "--acks", "-1",
                    "--format", "json", "--rate", str(args.rate)], timeout=args.seconds + 300))
            except Exception as e:  # reported below
                out["error"] = str(e)

        a = threading.Thread(target=run_a)
        a.start()
        t0 = time.monotonic()
        time.sleep(2)  # A at its rate before B's first window
        while time.monotonic() - t0 < args.seconds - args.window - 2:
            d0, th0, w0 = disk(dev), threads(b.pid), time.monotonic()
            m0 = scrape(b) if args.metrics else None
            held = []
            stop = threading.Event()

            def sample_held():
                while not stop.wait(0.2):
                    held.append(scrape(b).get(("tidemark_produce_memory_bytes", ""), 0))
            sampler = threading.Thread(target=sample_held)
            if args.metrics:
                sampler.start()
            r = pair(args.window)
            stop.set()
            d1, th1 = disk(dev), threads(b.pid)
            dt = time.monotonic() - w0
            d = [x - y for x, y in zip(d1, d0)]
            # diskstats after the name: 0 reads ... 4 writes, 6 sectors
            # written, 7 ms writing, 9 ms doing I/O, 11 discards, 14 ms
            # discarding, 15 flushes, 16 ms flushing
            print("t=%4.1f s  B ack p50 %6.2f p99 %6.2f ms | writes/s %5.0f MB/s %4.0f "
                  "await %.2f ms util %3.0f%% discards/s %3.0f (%3.0f ms/s) flushes/s %4.0f "
                  "await %.2f ms" % (
                      w0 - t0, r["p50"], r["p99"], d[4] / dt, d[6] * 512 / 1e6 / dt,
                      d[7] / max(d[4], 1), d[9] / dt / 10, d[11] / dt, d[14] / dt, d[15] / dt,
                      d[16] / max(d[15], 1)), flush=True)
            if args.metrics:
                sampler.join()
                m1 = scrape(b)
                f = quantiles(m0, m1, "tidemark_fdatasync_seconds")
                pr = quantiles(m0, m1, "tidemark_request_latency_seconds", 'api="Produce"')
                print("          fdatasync p50 <=%.2f p99 <=%.2f ms (%d) | Produce p50 <=%.2f "
                      "p99 <=%.2f ms (%d) | produce memory max %.0f MiB" % (
                          f[0], f[1], f[2], pr[0], pr[1], pr[2], max(held or [0]) / 2**20),
                      flush=True)
            if args.cpu:
                tick = os.sysconf("SC_CLK_TCK")
                print("          cpu % (minor faults/s): " + " ".join(
                    "%s %.0f (%d)" % (k, 100 * (v[0] - th0.get(k, [0, 0])[0]) / tick / dt,
                                      (v[1] - th0.get(k, [0, 0])[1]) / dt)
                    for k, v in sorted(th1.items()) if v[0] > th0.get(k, [0, 0])[0]), flush=True)
        a.join(args.seconds + 600)
        if "error" in out:
            raise RuntimeError("tenant A failed: " + out["error"])
        print("tenant A: %.0f rec/s acknowledged" % out["a"]["records_per_sec"])
        r = pair(args.window)
        print("after: ack p50 %.2f p99 %.2f ms" % (r["p50"], r["p99"]), flush=True)
    finally:
        b.close(keep_data=False)


if __name__ == "__main__":
    main()
