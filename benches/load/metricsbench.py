#!/usr/bin/env python3
"""What the metrics cost: produce throughput of one broker with
`metrics.enabled=true` against `false` in the same run (rounds
alternating which goes first, the medians compared), and the time of a
`/metrics` scrape with 10,000 partitions, with per-partition series
(`metrics.partition.series.max=20000`) and without (the default 1000:
per-topic series only).

    python3 benches/load/metricsbench.py --broker target/release/tidemark \
        --tmk target/release/tmk

Small batches (`--batch-records 16` of 100-byte records) so that the
per-request counting is as large a share of the work as it gets.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("%s not ready in %.0fs" % (url, timeout))


class Broker:
    def __init__(self, binary, data_dir, cores, settings):
        self.port, self.admin = free_port(), free_port()
        argv = [binary, "--data-dir", data_dir, "--kafka-addr", "127.0.0.1:%d" % self.port,
                "--admin-addr", "127.0.0.1:%d" % self.admin, "--cores", str(cores)]
        for k, v in settings.items():
            argv += ["--set", "%s=%s" % (k, v)]
        self.log = open(os.path.join(data_dir + ".log"), "ab")
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT)
        wait_http("http://127.0.0.1:%d/v1/status/ready" % self.admin)

    @property
    def bootstrap(self):
        return "127.0.0.1:%d" % self.port

    def stop(self):
        os.kill(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.log.close()


def tmk(args, argv, timeout=600):
    p = subprocess.run([args.tmk] + argv, capture_output=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError("tmk %s: %s" % (" ".join(argv), p.stderr.decode()[-500:]))
    return p.stdout.decode()


def throughput(args, enabled, root, round_no):
    data = os.path.join(root, "tp-%s-%d" % (enabled, round_no))
    os.makedirs(data)
    b = Broker(args.broker, data, args.cores, {"metrics.enabled": str(enabled).lower()})
    try:
        tmk(args, ["topic", "create", "bench", "-p", "4", "--brokers", b.bootstrap])
        out = tmk(args, ["bench", "produce", "bench", "--brokers", b.bootstrap,
                         "-n", str(args.records), "-s", "100", "--batch-records", "16",
                         "--connections", "4", "--format", "json"])
        return json.loads(out)
    finally:
        b.stop()
        shutil.rmtree(data, ignore_errors=True)


def scrape_times(url, n=5):
    times, size = [], 0
    for _ in range(n):
        t = time.monotonic()
        with urllib.request.urlopen(url, timeout=60) as r:
            size = len(r.read())
        times.append(time.monotonic() - t)
    return times, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--tmk", default=os.path.join(REPO, "target/release/tmk"))
    ap.add_argument("--cores", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--records", type=int, default=300_000)
    ap.add_argument("--partitions", type=int, default=10_000)
    ap.add_argument("--work-dir", default=None)
    ap.add_argument("--no-scrape", action="store_true", help="throughput rounds only")
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="metricsbench-", dir=args.work_dir)
    res = {"rounds": []}
    try:
        for r in range(args.rounds):
            order = [True, False] if r % 2 == 0 else [False, True]
            for enabled in order:
                out = throughput(args, enabled, root, r)
                rate = out.get("records_per_sec") or out.get("records_per_second")
                res["rounds"].append({"metrics": enabled, "records_per_sec": rate, "raw": out})
                print("round %d metrics=%s: %s records/s" % (r, enabled, rate), flush=True)
        for enabled in (True, False):
            rates = [x["records_per_sec"] for x in res["rounds"] if x["metrics"] == enabled]
            res["median_on" if enabled else "median_off"] = statistics.median(rates)
        res["on_vs_off_percent"] = round(
            100.0 * (res["median_on"] - res["median_off"]) / res["median_off"], 2)
        # Each round's pair ran back to back: their ratio is less exposed
        # to a machine whose load changes between rounds.
        ratios = []
        for r in range(args.rounds):
            pair = {x["metrics"]: x["records_per_sec"] for x in res["rounds"][2 * r:2 * r + 2]}
            ratios.append(pair[True] / pair[False])
        res["pair_ratios"] = [round(x, 4) for x in ratios]
        res["median_pair_percent"] = round(100.0 * (statistics.median(ratios) - 1.0), 2)
        print("median on %.0f, off %.0f records/s: %+.2f%%; median of the rounds' on/off: %+.2f%%"
              % (res["median_on"], res["median_off"], res["on_vs_off_percent"],
                 res["median_pair_percent"]), flush=True)
        if args.no_scrape:
            print(json.dumps({k: v for k, v in res.items() if k != "rounds"}, indent=1))
            return

        data = os.path.join(root, "scrape")
        os.makedirs(data)
        for series_max in (1000, 20000):
            b = Broker(args.broker, data, args.cores,
                       {"metrics.partition.series.max": series_max})
            try:
                if series_max == 1000:
                    t = time.monotonic()
                    tmk(args, ["topic", "create", "many", "-p", str(args.partitions),
                               "--brokers", b.bootstrap], timeout=900)
                    res["create_partitions_seconds"] = round(time.monotonic() - t, 1)
                    wait_http("http://127.0.0.1:%d/v1/status/ready" % b.admin, timeout=300)
                times, size = scrape_times("http://127.0.0.1:%d/metrics" % b.admin)
                key = "scrape_series_max_%d" % series_max
                res[key] = {"seconds": [round(x, 4) for x in times],
                            "median_seconds": round(statistics.median(times), 4),
                            "bytes": size}
                print("%d partitions, metrics.partition.series.max=%d: scrape median %.1f ms, %d bytes"
                      % (args.partitions, series_max, 1000 * statistics.median(times), size),
                      flush=True)
            finally:
                b.stop()
        print(json.dumps({k: v for k, v in res.items() if k != "rounds"}, indent=1))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
