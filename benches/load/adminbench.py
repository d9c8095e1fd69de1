#!/usr/bin/env python3
"""What HTTPS costs the admin API: the time of one request (connect,
handshake for HTTPS, request, whole response) to `/v1/status/live`,
`/v1/brokers` and `/metrics` of one broker, over HTTP and over HTTPS
(`admin.ssl.enabled`, an ECDSA P-256 certificate made with openssl),
the two brokers run side by side, rounds alternating which goes first.
Every request is a new connection: the server answers one request per
connection, as Prometheus' scrapes and tmk do.

    python3 benches/load/adminbench.py --broker target/release/tidemark
"""

import argparse
import os
import shutil
import socket
import ssl
import statistics
import subprocess
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_pki(root):
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=bench CA", cwd=root)
    with open(os.path.join(root, "srv.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                "extendedKeyUsage=serverAuth\n")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=localhost", cwd=root)
    openssl("x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-set_serial", "7", "-days", "2", "-extfile", "srv.ext", "-out", "srv.crt", cwd=root)
    ks = os.path.join(root, "srv.keystore.pem")
    with open(ks, "wb") as out:
        for n in ("srv.key", "srv.crt"):
            with open(os.path.join(root, n), "rb") as f:
                out.write(f.read())
    return os.path.join(root, "ca.pem"), ks


class Broker:
    def __init__(self, binary, root, name, settings):
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        self.port, self.admin = free_port(), free_port()
        argv = [binary, "--data-dir", self.dir, "--kafka-addr", "127.0.0.1:%d" % self.port,
                "--admin-addr", "127.0.0.1:%d" % self.admin, "--cores", "1"]
        for k, v in settings.items():
            argv += ["--set", "%s=%s" % (k, v)]
        self.log = open(self.dir + ".log", "ab")
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


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
        ca, ks = make_pki(root)
        ctx = ssl.create_default_context(cafile=ca)
        plain = Broker(a.broker, root, "http", {})
        brokers.append(plain)
        tls = Broker(a.broker, root, "https", {"ssl.keystore.location": ks,
                                               "admin.ssl.enabled": "true"})
        brokers.append(tls)
        bases = {"http": ("http://127.0.0.1:%d" % plain.admin, None),
                 "https": ("https://127.0.0.1:%d" % tls.admin, ctx)}
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
            b.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
