#!/usr/bin/env python3
"""What HTTPS costs the admin API: the time of one request (connect,
handshake for HTTPS, request, whole response) to `/v1/status/live`,
`/v1/brokers` and `/metrics` of one broker, over HTTP and over HTTPS
(`admin.ssl.enabled`, an ECDSA P-256 certificate from the conformance
suite's `test_tls.Pki`, made with openssl),
the two brokers run side by side, rounds alternating which goes first.
Every request is a new connection: the server answers one request per
connection, as Prometheus' scrapes and tmk do.

    python3 benches/load/adminbench.py --broker target/release/tidemark
"""

import argparse
import os
import shutil
import ssl
import statistics
import sys
import tempfile
import time
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "conformance"))
import harness  # noqa: E402  (the broker process: start, readiness, stop by PID)
from test_tls import Pki  # noqa: E402  (an openssl CA and certificates)


def get(url, ctx):
    t = time.perf_counter()
    with urllib.request.urlopen(url, context=ctx, timeout=10) as r:
        body = r.read()
        assert r.status == 200 and body
    return (time.perf_counter() - t) * 1000.0


def wait_ready(url, ctx, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            get(url, ctx)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--broker", default="target/release/tidemark")
    ap.add_argument("--requests", type=int, default=200, help="per path, scheme and round")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    root = tempfile.mkdtemp(prefix="adminbench-")
    brokers = []
    try:
        pki = Pki(root)
        ks = pki.issue("server", "/CN=localhost", server=True)[2]
        ctx = ssl.create_default_context(cafile=str(pki.ca))
        plain = harness.Broker(cores=1, binary=a.broker, name="http")
        brokers.append(plain.start())
        tls = harness.Broker({"ssl.keystore.location": str(ks), "admin.ssl.enabled": "true"},
                             cores=1, binary=a.broker, name="https")
        brokers.append(tls.start())
        bases = {"http": ("http://127.0.0.1:%d" % plain.admin_port, None),
                 "https": ("https://127.0.0.1:%d" % tls.admin_port, ctx)}
        for base, c in bases.values():
            wait_ready(base + "/v1/status/ready", c)
        paths = ["/v1/status/live", "/v1/brokers", "/metrics"]
        times = {(s, p): [] for s in bases for p in paths}
        for rnd in range(a.rounds):
            order = ["http", "https"] if rnd % 2 == 0 else ["https", "http"]
            for p in paths:
                for s in order:
                    base, c = bases[s]
                    for _ in range(a.requests):
                        times[(s, p)].append(get(base + p, c))
        print("| path | HTTP p50 ms | HTTPS p50 ms | HTTP p99 ms | HTTPS p99 ms | ratio p50 |")
        print("|---|---|---|---|---|---|")
        for p in paths:
            h, s = sorted(times[("http", p)]), sorted(times[("https", p)])
            q = lambda v, f: v[min(len(v) - 1, int(f * len(v)))]
            print("| %s | %.2f | %.2f | %.2f | %.2f | %.1fx |" % (
                p, statistics.median(h), statistics.median(s), q(h, 0.99), q(s, 0.99),
                statistics.median(s) / statistics.median(h)))
    finally:
        for b in brokers:
            b.close(keep_data=False)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
