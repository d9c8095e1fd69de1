"""SASL (issue 15): SASL_PLAINTEXT and SASL_SSL listeners with PLAIN,
SCRAM-SHA-256 and SCRAM-SHA-512 for the user TIDEMARK_BOOTSTRAP_USER
creates, through unchanged clients (confluent-kafka, kafka-python); wrong
passwords, unknown users, unknown mechanisms and requests before
authentication get Kafka's errors and a closed connection, logged without
the password.
"""

import json
import os
import shutil
import struct
import time

import pytest

import harness
import rawkafka
from test_tls import Pki, TlsBroker, confluent_roundtrip

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl CLI missing")

USER, PASSWORD = "admin", "adm1n-s3cret"
API_SASL_HANDSHAKE, API_SASL_AUTHENTICATE = 17, 36


class SaslBroker(TlsBroker):
    """PLAINTEXT (self.port), SASL_PLAINTEXT (self.sasl_port) and SASL_SSL
    (self.ssl_port) listeners, and the bootstrap user in the environment."""

    def __init__(self, settings, **kw):
        super().__init__(settings, **kw)
        self.sasl_port = harness.free_port()
        self.listeners = ("PLAINTEXT://127.0.0.1:%%d,SASL_SSL://127.0.0.1:%%d,"
                          "SASL_PLAINTEXT://127.0.0.1:%d" % self.sasl_port)

    def start(self, *a, **kw):
        os.environ["TIDEMARK_BOOTSTRAP_USER"] = "%s:%s" % (USER, PASSWORD)
        try:
            return super().start(*a, **kw)
        finally:
            os.environ.pop("TIDEMARK_BOOTSTRAP_USER", None)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    p = Pki(tmp_path_factory.mktemp("pki"))
    p.server = p.issue("server", "/O=Tidemark/CN=localhost", server=True)
    return p


@pytest.fixture(scope="module")
def sasl_broker(pki):
    b = SaslBroker({"ssl.keystore.location": str(pki.server[2]),
                    "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
                    "num.partitions": 1},
                   name="sasl", log_filter="info,tidemark_broker::connection=debug")
    b.start()
    yield b
    b.close()


def conf(b, pki, mechanism, tls, password=PASSWORD, user=USER):
    c = {"bootstrap.servers": "127.0.0.1:%d" % (b.ssl_port if tls else b.sasl_port),
         "security.protocol": "SASL_SSL" if tls else "SASL_PLAINTEXT",
         "sasl.mechanisms": mechanism, "sasl.username": user, "sasl.password": password}
    if tls:
        c["ssl.ca.location"] = str(pki.ca)
    return c


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
@pytest.mark.parametrize("tls", [False, True], ids=["SASL_PLAINTEXT", "SASL_SSL"])
def test_confluent(sasl_broker, pki, mechanism, tls):
    topic = harness.unique_topic("sasl-%s-%s" % (mechanism.lower(), "ssl" if tls else "plain"))
    confluent_roundtrip(conf(sasl_broker, pki, mechanism, tls), topic, n=10)
    assert "principal=User:%s" % USER in sasl_broker.all_logs()


# kafka-python idles ~18 s in its own timeouts here (1 s of CPU): run
# alongside the rest (test.sh's "waits" lane).
@pytest.mark.waits
@pytest.mark.parametrize("mechanism,tls", [("SCRAM-SHA-512", True), ("SCRAM-SHA-256", False),
                                           ("PLAIN", True)])
def test_kafka_python(sasl_broker, pki, mechanism, tls):
    from kafka import KafkaConsumer, KafkaProducer
    topic = harness.unique_topic("kpsasl")
    common = dict(bootstrap_servers="127.0.0.1:%d" % (sasl_broker.ssl_port if tls
                                                      else sasl_broker.sasl_port),
                  security_protocol="SASL_SSL" if tls else "SASL_PLAINTEXT",
                  sasl_mechanism=mechanism, sasl_plain_username=USER,
                  sasl_plain_password=PASSWORD)
    if tls:
        common["ssl_cafile"] = str(pki.ca)
    p = KafkaProducer(**common)
    try:
        for i in range(5):
            p.send(topic, b"m%d" % i).get(timeout=20)
    finally:
        p.close()
    c = KafkaConsumer(topic, group_id="kp-" + topic, auto_offset_reset="earliest",
                      consumer_timeout_ms=15000, **common)
    try:
        got = [m.value for m in c]
    finally:
        c.close()
    assert got == [b"m%d" % i for i in range(5)]


def kafkajs_sasl(b, pki, mechanism, tls, password=PASSWORD, values=("a", "b", "c")):
    spec = {"brokers": ["127.0.0.1:%d" % (b.ssl_port if tls else b.sasl_port)],
            "mechanism": mechanism.lower(), "username": USER, "password": password,
            "topic": harness.unique_topic("jssasl"), "values": list(values)}
    if tls:
        spec["ca"] = str(pki.ca)
    p = harness.run([harness.node_binary(), str(harness.JS_DIR / "sasl.js")],
                    input=json.dumps(spec).encode(), timeout=90, cwd=str(harness.JS_DIR))
    lines = [x for x in p.stdout.decode().splitlines() if x.startswith("{")]
    assert lines, p.stderr[-2000:]
    return json.loads(lines[-1])


@pytest.mark.parametrize("mechanism,tls", [("SCRAM-SHA-512", True), ("SCRAM-SHA-256", False),
                                           ("PLAIN", False)])
def test_kafkajs(sasl_broker, pki, mechanism, tls):
    r = kafkajs_sasl(sasl_broker, pki, mechanism, tls)
    assert r == {"ok": True, "got": ["a", "b", "c"]}, r
    r = kafkajs_sasl(sasl_broker, pki, mechanism, tls, password="not-it")
    assert r["ok"] is False and "SASL" in r["error"], r


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_wrong_password_and_unknown_user_refused(sasl_broker, pki, mechanism):
    from confluent_kafka.admin import AdminClient
    for user, password in [(USER, "wrong-password-xyz"), ("nobody", PASSWORD)]:
        admin = AdminClient(conf(sasl_broker, pki, mechanism, False, password=password, user=user))
        with pytest.raises(Exception):
            admin.list_topics(timeout=5)
    logs = sasl_broker.all_logs()
    assert "SASL authentication failed" in logs
    assert "wrong-password-xyz" not in logs and PASSWORD not in logs
    sasl_broker.check_alive()


def handshake(c, mechanism):
    return c.request(API_SASL_HANDSHAKE, 1, {"Mechanism": mechanism})


def test_raw_sasl_state_machine(sasl_broker):
    addr = "127.0.0.1:%d" % sasl_broker.sasl_port
    # A request before authentication closes the connection.
    with rawkafka.KafkaConn(addr, timeout=5) as c:
        c.api_versions()  # allowed
        c.send(rawkafka.API_METADATA, 1, {"Topics": []})
        assert c.wait_closed(timeout=5) == b""
    # An unknown mechanism: UNSUPPORTED_SASL_MECHANISM with the enabled
    # list, then closed.
    with rawkafka.KafkaConn(addr, timeout=5) as c:
        r = handshake(c, "GSSAPI")
        assert r["ErrorCode"] == 33, r
        assert sorted(r["Mechanisms"]) == ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
        c.wait_closed(timeout=5)
    # SaslAuthenticate before SaslHandshake: closed.
    with rawkafka.KafkaConn(addr, timeout=5) as c:
        c.send(API_SASL_AUTHENTICATE, 2, {"AuthBytes": b"\0a\0b"})
        c.wait_closed(timeout=5)
    # PLAIN with a wrong password: SASL_AUTHENTICATION_FAILED, then closed.
    with rawkafka.KafkaConn(addr, timeout=5) as c:
        assert handshake(c, "PLAIN")["ErrorCode"] == 0
        r = c.request(API_SASL_AUTHENTICATE, 2,
                      {"AuthBytes": b"\0" + USER.encode() + b"\0nope"})
        assert r["ErrorCode"] == 58, r
        c.wait_closed(timeout=5)
    # PLAIN with the right one, then Metadata works; a second handshake
    # after authentication gets ILLEGAL_SASL_STATE.
    with rawkafka.KafkaConn(addr, timeout=5) as c:
        assert handshake(c, "PLAIN")["ErrorCode"] == 0
        r = c.request(API_SASL_AUTHENTICATE, 2,
                      {"AuthBytes": b"\0" + USER.encode() + b"\0" + PASSWORD.encode()})
        assert r["ErrorCode"] == 0, r
        md = c.metadata([])
        assert [b["Port"] for b in md["Brokers"]] == [sasl_broker.sasl_port]
        assert handshake(c, "PLAIN")["ErrorCode"] == 34
    # Garbage and an oversized SCRAM message: refused, closed, and the
    # broker serves others.
    with rawkafka.KafkaConn(addr, timeout=5) as c:
        assert handshake(c, "SCRAM-SHA-256")["ErrorCode"] == 0
        r = c.request(API_SASL_AUTHENTICATE, 2, {"AuthBytes": os.urandom(200_000)})
        assert r["ErrorCode"] == 58, r
        c.wait_closed(timeout=5)
    # A frame over sasl.server.max.receive.size (512 KiB) before
    # authentication: closed without being read.
    with rawkafka.KafkaConn(addr, timeout=5) as c:
        assert handshake(c, "PLAIN")["ErrorCode"] == 0
        c.send_raw(struct.pack(">i", 600_000) + b"\0" * 1000)
        c.wait_closed(timeout=5)
    # On a plaintext listener the SASL APIs get ILLEGAL_SASL_STATE.
    with rawkafka.KafkaConn(sasl_broker.bootstrap, timeout=5) as c:
        assert handshake(c, "PLAIN")["ErrorCode"] == 34
        c.metadata([])
    sasl_broker.check_alive()


def test_failed_authentication_closes_after_the_delay(pki):
    """connection.failed.authentication.delay.ms (read-only, as in Kafka):
    a wrong password is answered at once with SASL_AUTHENTICATION_FAILED
    and the connection is closed that much later; a right one is not
    delayed."""
    b = SaslBroker({"ssl.keystore.location": str(pki.server[2]),
                    "sasl.enabled.mechanisms": "PLAIN",
                    "connection.failed.authentication.delay.ms": "1500"}, name="sasldelay")
    b.start()
    try:
        addr = "127.0.0.1:%d" % b.sasl_port
        with rawkafka.KafkaConn(addr, timeout=10) as c:
            assert handshake(c, "PLAIN")["ErrorCode"] == 0
            t0 = time.monotonic()
            r = c.request(API_SASL_AUTHENTICATE, 2, {"AuthBytes": b"\0" + USER.encode() + b"\0nope"})
            assert r["ErrorCode"] == 58, r
            answered = time.monotonic() - t0
            c.wait_closed(timeout=10)
            closed = time.monotonic() - t0
        assert answered < 1.0 and closed >= 1.2, (answered, closed)
        with rawkafka.KafkaConn(addr, timeout=10) as c:
            assert handshake(c, "PLAIN")["ErrorCode"] == 0
            r = c.request(API_SASL_AUTHENTICATE, 2,
                          {"AuthBytes": b"\0" + USER.encode() + b"\0" + PASSWORD.encode()})
            assert r["ErrorCode"] == 0, r
            c.metadata([])
        b.check_alive()
    finally:
        b.close()


def test_no_user_no_login(pki):
    """Without TIDEMARK_BOOTSTRAP_USER there is nobody to log in as: the
    broker starts (and warns), every authentication fails."""
    from confluent_kafka.admin import AdminClient
    b = TlsBroker({"ssl.keystore.location": str(pki.server[2]),
                   "sasl.enabled.mechanisms": "SCRAM-SHA-256"},
                  name="nouser", listeners="PLAINTEXT://127.0.0.1:%d,SASL_SSL://127.0.0.1:%d")
    b.start()
    try:
        assert "every authentication will fail" in b.all_logs()
        c = conf(b, pki, "SCRAM-SHA-256", True)
        with pytest.raises(Exception):
            AdminClient(c).list_topics(timeout=5)
    finally:
        b.close()
