#!/usr/bin/env python3
"""Produce and consume throughput over TLS against plaintext, and new
connections per second (issue 15).

One broker (2 shards) with a PLAINTEXT and an SSL listener, certificates
made by the conformance suite's `Pki` (openssl CLI) in a temporary
folder. One confluent-kafka client: N x 1 KiB records (acks=all, linger
5 ms) to a 6-partition topic, then read back by a consumer group; two
rounds alternating plaintext and SSL, so that the ratio SSL / plaintext
within the run is what to read on a shared machine. Then 5 s of
connect + (TLS handshake) + ApiVersions + close from one thread.

Every loop is bounded in count and time; the broker is stopped by its
PID (conformance harness).

Usage: N=300000 python3 benches/load/tlsbench.py   (after a release build)
       PIN=1 N=300000 python3 benches/load/tlsbench.py   (broker on CPU 1, client on CPU 0)
       CLIENT=tmk N=1000000 python3 benches/load/tlsbench.py
           (`tmk bench produce|consume` as the client: rustls and pre-built
           batches cost far less client CPU than librdkafka's OpenSSL plus
           Python, so on 2 shared cores the ratio is closer to the
           broker's own; TMK_BIN or target/release/tmk)
"""
import os, sys, time, ssl, json, tempfile
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "conformance"))
import harness  # noqa: F401  (sets the broker binary path)
from test_tls import Pki, TlsBroker
from confluent_kafka import Producer, Consumer
from confluent_kafka.admin import AdminClient, NewTopic

root = tempfile.mkdtemp(prefix="tlsbench-")
pki = Pki(root); pki.server = pki.issue("server", "/O=Tidemark/CN=localhost", server=True)
# PIN=1: the broker (one shard) on CPU 1 and this client on CPU 0, so the
# client's own TLS work does not take the broker's core: the ratio is then
# the broker's, not the pair's on 2 shared cores.
PIN = os.environ.get("PIN") == "1"
b = TlsBroker({"ssl.keystore.location": str(pki.server[2])}, name="bench", cores=1 if PIN else 2)
b.start()
if PIN:
    os.sched_setaffinity(0, {0})
    for tid in os.listdir("/proc/%d/task" % b.pid):
        os.sched_setaffinity(int(tid), {1})
N = int(os.environ.get("N", "300000")); SIZE = 1024
val = os.urandom(SIZE)
def conf(secure):
    if secure:
        return {"bootstrap.servers": b.ssl_bootstrap, "security.protocol": "SSL", "ssl.ca.location": str(pki.ca)}
    return {"bootstrap.servers": b.bootstrap}
res = {}
CLIENT = os.environ.get("CLIENT", "confluent")
TMK = os.environ.get("TMK_BIN") or os.path.join(here, "..", "..", "target", "release", "tmk")
def proc_cpu(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def tmk_round(name, secure, topic):
    """One round with `tmk bench produce` then `tmk bench consume` (their
    JSON summaries), broker and client CPU from /proc and rusage."""
    import resource, subprocess
    x = ["-X", "brokers=" + (b.ssl_bootstrap if secure else b.bootstrap)]
    if secure:
        x += ["-X", "tls.enabled=true", "-X", "tls.ca=" + str(pki.ca)]
    env = dict(os.environ, TMK_CONFIG="/nonexistent/tmk.yaml"); env.pop("TMK_BROKERS", None)
    out = {}
    for what, args in (("produce", ["-n", str(N), "-s", str(SIZE), "--acks", "-1"]),
                       ("consume", ["-n", str(N)])):
        b0 = proc_cpu(b.pid); r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        p = subprocess.run([TMK] + x + ["bench", what, topic] + args + ["--format", "json"],
                           capture_output=True, timeout=300, env=env)
        t = time.monotonic() - t0
        assert p.returncode == 0, p.stderr.decode()[-2000:]
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out[what] = {"wall_s": round(t, 2), "broker_cpu_s": round(proc_cpu(b.pid) - b0, 2),
                     "client_cpu_s": round(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, 2),
                     "summary": json.loads(p.stdout)}
    return out
try:
    for rnd in range(2):
        for secure in (False, True):
            name = ("ssl" if secure else "plain") + str(rnd)
            topic = "bench-" + name
            adm = AdminClient(conf(secure)); adm.create_topics([NewTopic(topic, 6, 1)])[topic].result(20)
            if CLIENT == "tmk":
                res[name] = tmk_round(name, secure, topic)
                print(name, json.dumps(res[name]), flush=True)
                continue
            p = Producer(dict(conf(secure), **{"linger.ms": 5, "batch.size": 1 << 20, "acks": "all",
                                                "queue.buffering.max.messages": 500000, "queue.buffering.max.kbytes": 1 << 20}))
            def cpu(pid):
                f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
                return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
            def selfcpu():
                t = os.times(); return t.user + t.system
            b0, s0 = cpu(b.pid), selfcpu()
            t0 = time.monotonic()
            for i in range(N):
                while True:
                    try:
                        p.produce(topic, val); break
                    except BufferError:
                        p.poll(0.01)
            assert p.flush(120) == 0
            tp = time.monotonic() - t0
            bp, sp = cpu(b.pid) - b0, selfcpu() - s0
            b0, s0 = cpu(b.pid), selfcpu()
            c = Consumer(dict(conf(secure), **{"group.id": "g" + name, "auto.offset.reset": "earliest", "fetch.max.bytes": 50 << 20}))
            c.subscribe([topic]); got = 0; t0 = None
            deadline = time.monotonic() + 120
            while got < N and time.monotonic() < deadline:
                ms = c.consume(10000, 1.0)
                if ms and t0 is None: t0 = time.monotonic()
                got += sum(1 for m in ms if m.error() is None)
            tc = time.monotonic() - t0; c.close()
            bc, sc = cpu(b.pid) - b0, selfcpu() - s0
            res[name] = {"produce_mb_s": round(N * SIZE / tp / 1e6, 1), "consume_mb_s": round(got * SIZE / tc / 1e6, 1), "consumed": got, "produce_broker_cpu_s": round(bp, 2), "produce_client_cpu_s": round(sp, 2), "produce_s": round(tp, 2), "consume_broker_cpu_s": round(bc, 2), "consume_client_cpu_s": round(sc, 2)}
            print(name, res[name], flush=True)
    # new TLS connections per second (handshake + ApiVersions), one client thread
    ctx = ssl.create_default_context(cafile=str(pki.ca))
    import rawkafka
    n = 0; t0 = time.monotonic()
    while time.monotonic() - t0 < 5:
        c = rawkafka.KafkaConn(b.ssl_bootstrap); c.sock = ctx.wrap_socket(c.sock, server_hostname="127.0.0.1"); c.api_versions(); c.close(); n += 1
    res["tls_conn_per_s_one_client"] = round(n / (time.monotonic() - t0), 1)
    n = 0; t0 = time.monotonic()
    while time.monotonic() - t0 < 5:
        c = rawkafka.KafkaConn(b.bootstrap); c.api_versions(); c.close(); n += 1
    res["plain_conn_per_s_one_client"] = round(n / (time.monotonic() - t0), 1)
    print(json.dumps(res, indent=1))
finally:
    b.close()
