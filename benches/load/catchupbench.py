#!/usr/bin/env python3
"""What a catch-up read costs the broker, round after round (issues 15, 20).

One broker (2 shards) with a PLAINTEXT and an SSL listener. Each round
writes `--records` x 1 KiB records (acks=all, 6 partitions) to a topic of
its own with `tmk bench produce`, then reads them back from the start with
`tmk bench consume`, over plaintext (`p`) or TLS (`s`) as `--rounds` says.
The topic is newer than the tail cache holds, so the read comes from the
segment files: this is a catch-up read. Per step it prints the client's
rate, the broker's CPU seconds (/proc), the bytes the broker read from the
device (/proc/PID/io read_bytes; io_uring reads do not show in rchar) and
its resident memory.

Why rounds after rounds: with buffered reads the broker's cost of a
catch-up read grew from 0.5 to 2-2.5 CPU-s per GB after about 3 GB had
been read (fresh page-cache pages; see benches/RESULTS.md, "Catch-up
reads: O_DIRECT"), which one round never shows.

    python3 benches/load/catchupbench.py --rounds p,p,p,p,p
    python3 benches/load/catchupbench.py --rounds p,s,p,s,p,s
    TIDEMARK_BIN=/other/tidemark python3 benches/load/catchupbench.py ...

Every step is bounded (120 s); the broker is stopped by its PID (the
conformance harness).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "conformance"))
import harness  # noqa: E402,F401  (the broker binary; stop by PID)
from test_tls import Pki, TlsBroker  # noqa: E402


def cpu_s(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def device_read_bytes(pid):
    for line in open("/proc/%d/io" % pid):
        if line.startswith("read_bytes:"):
            return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", default="p,p,p,p,p",
                    help="comma-separated p (plaintext) or s (TLS), one per round")
    ap.add_argument("--records", type=int, default=1_000_000, help="1 KiB records per round")
    ap.add_argument("--tmk", default=os.environ.get("TMK_BIN")
                    or os.path.join(REPO, "target", "release", "tmk"))
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="catchupbench-")
    pki = Pki(root)
    pki.server = pki.issue("server", "/O=Tidemark/CN=localhost", server=True)
    b = TlsBroker({"ssl.keystore.location": str(pki.server[2])}, name="catchup", cores=2)
    b.start()
    env = dict(os.environ, TMK_CONFIG="/nonexistent/tmk.yaml")
    env.pop("TMK_BROKERS", None)

    def conn(secure):
        if secure:
            return ["-X", "brokers=" + b.ssl_bootstrap, "-X", "tls.enabled=true",
                    "-X", "tls.ca=" + str(pki.ca)]
        return ["-X", "brokers=" + b.bootstrap]

    rows = []
    try:
        for i, mode in enumerate(args.rounds.split(",")):
            secure = mode == "s"
            topic = "catchup-%d" % i
            p = subprocess.run([args.tmk] + conn(secure) + ["topic", "create", topic, "-p", "6"],
                               capture_output=True, env=env, timeout=60)
            assert p.returncode == 0, p.stderr.decode()[-500:]
            for what, extra in (("produce", ["-n", str(args.records), "--acks", "-1"]),
                                ("consume", ["-n", str(args.records)])):
                c0, d0 = cpu_s(b.pid), device_read_bytes(b.pid)
                t0 = time.monotonic()
                p = subprocess.run([args.tmk] + conn(secure) + ["bench", what, topic] + extra
                                   + ["--format", "json"], capture_output=True, env=env, timeout=120)
                wall = time.monotonic() - t0
                assert p.returncode == 0, p.stderr.decode()[-500:]
                s = json.loads(p.stdout)
                row = {"round": i, "tls": secure, "step": what, "mib_s": round(s["mib_per_sec"]),
                       "wall_s": round(wall, 2), "broker_cpu_s": round(cpu_s(b.pid) - c0, 2),
                       "device_read_mb": (device_read_bytes(b.pid) - d0) >> 20,
                       "rss_mb": (b.rss_kb() or 0) // 1024}
                rows.append(row)
                print(json.dumps(row), flush=True)
    finally:
        b.close()
    print("\n| round | listener | step | MiB/s | broker CPU-s | device read MB | RSS MB |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %d | %s | %s | %d | %.2f | %d | %d |" % (
            r["round"], "SSL" if r["tls"] else "PLAINTEXT", r["step"], r["mib_s"],
            r["broker_cpu_s"], r["device_read_mb"], r["rss_mb"]))


if __name__ == "__main__":
    main()
