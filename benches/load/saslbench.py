#!/usr/bin/env python3
"""New connections per second over SASL_SSL with SCRAM-SHA-256 against
plain TLS and plaintext, and the publish-ack latency of an authenticated
producer (issue 15).

One broker (2 shards) with PLAINTEXT, SSL and SASL_SSL listeners,
certificates made by the conformance suite's `Pki` (openssl CLI) in a
temporary folder, bootstrap user from TIDEMARK_BOOTSTRAP_USER.

1. Connections: for CONN_SECONDS each, one Python thread opens
   connections one after another:
     plaintext  connect, ApiVersions, close
     tls        connect, TLS handshake, ApiVersions, close
     scram      connect, TLS handshake, SaslHandshake, SCRAM-SHA-256
                exchange (RFC 5802, server signature checked; the client
                derives the salted password on every login as Kafka
                clients do), ApiVersions, close
   and the broker's CPU per connection.
2. Publish-ack latency: a confluent-kafka producer (acks=all,
   linger.ms=1, idempotent) at RATE msg/s of 1 KiB for LAT_SECONDS,
   plaintext and SASL_SSL/SCRAM-SHA-256 alternating (ROUNDS rounds);
   latency from the produce() call to the delivery callback.

Every loop is bounded in count and time; 127.0.0.1 only; the broker is
stopped by its PID (conformance harness).

Usage: python3 benches/load/saslbench.py   (after a release build;
TIDEMARK_BIN selects the binary, CONN_SECONDS=5 RATE=2000 LAT_SECONDS=20
ROUNDS=1 by default)
"""
import json
import os
import ssl
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "conformance"))
import harness  # noqa: E402
import rawkafka  # noqa: E402
from test_scram_users import sasl_exchange  # noqa: E402
from test_tls import Pki, TlsBroker  # noqa: E402

USER, PASSWORD = "admin", "adm1n-s3cret"
CONN_SECONDS = float(os.environ.get("CONN_SECONDS", "5"))
RATE = int(os.environ.get("RATE", "2000"))
LAT_SECONDS = float(os.environ.get("LAT_SECONDS", "20"))
ROUNDS = int(os.environ.get("ROUNDS", "1"))
SIZE = 1024
MAX_CONNS = 200_000  # per mode, a bound next to the time bound


class SaslSslBroker(TlsBroker):
    """PLAINTEXT (self.port), SSL (self.ssl_port) and SASL_SSL
    (self.sasl_ssl_port), with the bootstrap user in the environment."""

    def __init__(self, settings, **kw):
        super().__init__(settings, **kw)
        self.sasl_ssl_port = harness.free_port()
        self.listeners = ("PLAINTEXT://127.0.0.1:%%d,SSL://127.0.0.1:%%d,"
                          "SASL_SSL://127.0.0.1:%d" % self.sasl_ssl_port)

    def start(self, *a, **kw):
        os.environ["TIDEMARK_BOOTSTRAP_USER"] = "%s:%s" % (USER, PASSWORD)
        try:
            return super().start(*a, **kw)
        finally:
            os.environ.pop("TIDEMARK_BOOTSTRAP_USER", None)


def scram_sha256(c, user, password):
    """SaslHandshake and a SCRAM-SHA-256 exchange on the open connection
    `c`, the server signature checked (conformance/test_scram_users.py)."""
    r = sasl_exchange(c, "SCRAM-SHA-256", user, password)
    assert r["ErrorCode"] == 0, r


def cpu(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def selfcpu():
    t = os.times()
    return t.user + t.system


def conns_per_s(b, mode, ctx):
    addr = {"plaintext": b.bootstrap, "tls": b.ssl_bootstrap,
            "scram": "127.0.0.1:%d" % b.sasl_ssl_port}[mode]
    n = 0
    b0, s0 = cpu(b.pid), selfcpu()
    t0 = time.monotonic()
    while time.monotonic() - t0 < CONN_SECONDS and n < MAX_CONNS:
        c = rawkafka.KafkaConn(addr)
        try:
            if mode != "plaintext":
                c.sock = ctx.wrap_socket(c.sock, server_hostname="127.0.0.1")
            if mode == "scram":
                scram_sha256(c, USER, PASSWORD)
            c.api_versions()
        finally:
            c.close()
        n += 1
    dt = time.monotonic() - t0
    bc, sc = cpu(b.pid) - b0, selfcpu() - s0
    return {"conn_per_s": round(n / dt, 1), "connections": n,
            "broker_cpu_ms_per_conn": round(bc * 1000 / max(n, 1), 3),
            "client_cpu_ms_per_conn": round(sc * 1000 / max(n, 1), 3)}


def pct(sorted_ms, q):
    if not sorted_ms:
        return None
    return round(sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))], 2)


def publish_ack(b, pki, mode, topic):
    from confluent_kafka import Producer
    if mode == "scram":
        conf = {"bootstrap.servers": "127.0.0.1:%d" % b.sasl_ssl_port,
                "security.protocol": "SASL_SSL", "ssl.ca.location": str(pki.ca),
                "sasl.mechanisms": "SCRAM-SHA-256", "sasl.username": USER,
                "sasl.password": PASSWORD}
    else:
        conf = {"bootstrap.servers": b.bootstrap}
    lat = []
    errs = []

    def on_dr(err, msg, sent):
        if err is not None:
            errs.append(str(err))
            return
        lat.append((time.monotonic_ns() - sent) / 1e6)

    p = Producer(dict(conf, **{"acks": "all", "linger.ms": 1, "enable.idempotence": True}))
    p.list_topics(topic, timeout=10)
    # Warm-up (connections, producer id, metadata), not measured.
    for _ in range(100):
        p.produce(topic, b"w" * SIZE)
    assert p.flush(20) == 0
    val = os.urandom(SIZE)
    total = int(RATE * LAT_SECONDS)
    b0 = cpu(b.pid)
    t0 = time.monotonic_ns()
    end = t0 + int(LAT_SECONDS * 1e9) + 5_000_000_000
    n = 0
    while n < total and time.monotonic_ns() < end:
        due = min(total, (time.monotonic_ns() - t0) * RATE // 1_000_000_000 + 1)
        while n < due:
            sent = time.monotonic_ns()
            try:
                p.produce(topic, val, on_delivery=lambda e, m, s=sent: on_dr(e, m, s))
            except BufferError:
                break
            n += 1
        p.poll(0.0005)
    assert p.flush(30) == 0
    elapsed = (time.monotonic_ns() - t0) / 1e9
    bc = cpu(b.pid) - b0
    lat.sort()
    return {"sent": n, "acked": len(lat), "errors": len(errs),
            "achieved_rate": round(n / elapsed, 1), "p50_ms": pct(lat, 0.5),
            "p99_ms": pct(lat, 0.99), "p999_ms": pct(lat, 0.999),
            "max_ms": round(lat[-1], 2) if lat else None,
            "broker_cpu_s": round(bc, 2)}


def main():
    root = tempfile.mkdtemp(prefix="saslbench-")
    pki = Pki(root)
    pki.server = pki.issue("server", "/O=Tidemark/CN=localhost", server=True)
    b = SaslSslBroker({"ssl.keystore.location": str(pki.server[2]),
                       "sasl.enabled.mechanisms": "SCRAM-SHA-256,SCRAM-SHA-512,PLAIN",
                       "num.partitions": 1}, name="saslbench", cores=2)
    b.start()
    res = {"conn": {}, "publish_ack": {}}
    try:
        ctx = ssl.create_default_context(cafile=str(pki.ca))
        for mode in ("plaintext", "tls", "scram"):
            res["conn"][mode] = conns_per_s(b, mode, ctx)
            print("connections", mode, res["conn"][mode], flush=True)
        from confluent_kafka.admin import AdminClient, NewTopic
        adm = AdminClient({"bootstrap.servers": b.bootstrap})
        for rnd in range(ROUNDS):
            for mode in ("plaintext", "scram"):
                topic = "lat-%s-%d" % (mode, rnd)
                adm.create_topics([NewTopic(topic, 1, 1)])[topic].result(20)
                r = publish_ack(b, pki, mode, topic)
                res["publish_ack"]["%s%d" % (mode, rnd)] = r
                print("publish-ack", mode, rnd, r, flush=True)
        print(json.dumps(res, indent=1))
    finally:
        b.close()


if __name__ == "__main__":
    main()
