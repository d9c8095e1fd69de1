"""Listeners and TLS (issue 15, first part): a broker with a PLAINTEXT and
an SSL listener, certificates made here with the openssl CLI, unchanged
clients (confluent-kafka, kafka-python, kcat) over SSL, mutual TLS with
the principal taken from the client certificate, per-listener advertised
addresses, certificate reload without a restart, and bad input (the wrong
protocol on either port, a silent TLS client) closing only that
connection.
"""

import os
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest

import clients
import harness
import rawkafka

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None,
                                reason="openssl CLI missing (conformance/install.sh installs it)")

CLIENT_DN = "/C=DE/O=Acme/OU=Payments/CN=alice"
# Kafka prints the subject in RFC 2253 order: last RDN first.
CLIENT_RFC2253 = "CN=alice,OU=Payments,O=Acme,C=DE"


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


class Pki:
    """A CA and certificates signed by it, in a temporary folder."""

    def __init__(self, root):
        self.root = Path(root)
        self.ca = self.root / "ca.pem"
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                "-subj", "/CN=Tidemark Test CA", cwd=self.root)
        self.serial = 1000

    def issue(self, name, subject, server, client_too=False):
        """Signs a new key's certificate; returns (key path, cert path,
        keystore path: key and cert in one PEM file). `client_too`: a
        server certificate that may also authenticate as a client (a
        broker's, for TLS between brokers)."""
        self.serial += 1
        ext = self.root / (name + ".ext")
        if server:
            usage = "serverAuth,clientAuth" if client_too else "serverAuth"
            ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                           "basicConstraints=CA:FALSE\nextendedKeyUsage=%s\n" % usage)
        else:
            ext.write_text("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n"
                           "extendedKeyUsage=clientAuth\n")
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", name + ".key", "-out", name + ".csr", "-subj", subject, cwd=self.root)
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-set_serial", str(self.serial), "-days", "2", "-extfile", ext.name,
                "-out", name + ".crt", cwd=self.root)
        key, crt = self.root / (name + ".key"), self.root / (name + ".crt")
        keystore = self.root / (name + ".keystore.pem")
        keystore.write_bytes(key.read_bytes() + crt.read_bytes())
        return key, crt, keystore, self.serial


class TlsBroker(harness.Broker):
    """A broker with a PLAINTEXT listener (self.port, probed for
    readiness) and an SSL listener (self.ssl_port), given by `listeners`
    instead of --kafka-addr."""

    def __init__(self, settings, log_filter=None,
                 listeners="PLAINTEXT://127.0.0.1:%d,SSL://127.0.0.1:%d", **kw):
        super().__init__(settings=settings, **kw)
        self.ssl_port = harness.free_port()
        self.log_filter = log_filter
        self.listeners = listeners

    @property
    def ssl_bootstrap(self):
        return "127.0.0.1:%d" % self.ssl_port

    def argv(self):
        argv = [str(self.binary), "--data-dir", str(self.data_dir), "--node-id", str(self.node_id),
                "--cores", str(self.cores),
                "--admin-addr", "127.0.0.1:%d" % self.admin_port,
                "--set", "listeners=" + self.listeners % (self.port, self.ssl_port)]
        for k, v in self.settings.items():
            argv += ["--set", "%s=%s" % (k, v)]
        return argv + self.extra_args

    def start(self, *a, **kw):
        old = os.environ.get("TIDEMARK_LOG")
        if self.log_filter:
            os.environ["TIDEMARK_LOG"] = self.log_filter
        try:
            return super().start(*a, **kw)
        finally:
            if self.log_filter:
                if old is None:
                    os.environ.pop("TIDEMARK_LOG", None)
                else:
                    os.environ["TIDEMARK_LOG"] = old


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    p = Pki(tmp_path_factory.mktemp("pki"))
    p.server = p.issue("server", "/O=Tidemark/CN=localhost", server=True)
    p.client = p.issue("client", CLIENT_DN, server=False)
    return p


def start(settings, name, **kw):
    b = TlsBroker(settings, name=name, **kw)
    try:
        b.start()
    except BaseException:
        b.close(keep_data=True)
        raise
    return b


@pytest.fixture(scope="module")
def tls_broker(pki):
    b = start({"ssl.keystore.location": str(pki.server[2]), "num.partitions": 1}, "tls")
    yield b
    b.close()


@pytest.fixture(scope="module")
def mtls_broker(pki):
    b = start({"ssl.keystore.location": str(pki.server[2]),
               "ssl.truststore.location": str(pki.ca),
               "ssl.client.auth": "required",
               "ssl.principal.mapping.rules":
                   "RULE:^CN=(.*?),OU=(.*?),O=.*$/$1@$2/L,DEFAULT"},
              "mtls", log_filter="info,tidemark_broker::acceptors=debug")
    yield b
    b.close()


def confluent_conf(bootstrap, pki, cert=False):
    conf = {"bootstrap.servers": bootstrap, "security.protocol": "SSL",
            "ssl.ca.location": str(pki.ca)}
    if cert:
        conf["ssl.certificate.location"] = str(pki.client[1])
        conf["ssl.key.location"] = str(pki.client[0])
    return conf


def confluent_roundtrip(conf, topic, n=20, ordered=True):
    """Produces n records and reads them back with a group consumer (in
    order on one partition; as a set across several)."""
    from confluent_kafka import Consumer, Producer
    p = Producer(dict(conf, **{"message.timeout.ms": 15000}))
    errors = []
    for i in range(n):
        p.produce(topic, value=b"v%d" % i, key=b"k%d" % i,
                  on_delivery=lambda err, msg: errors.append(err) if err else None)
    left = p.flush(20)
    assert left == 0 and not errors, (left, errors)
    c = Consumer(dict(conf, **{"group.id": "g-" + topic, "auto.offset.reset": "earliest",
                               "enable.auto.commit": False}))
    c.subscribe([topic])
    got = []
    deadline = time.monotonic() + 30
    try:
        while len(got) < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is None:
                continue
            assert m.error() is None, m.error()
            got.append(m.value())
        c.commit(asynchronous=False)
    finally:
        c.close()
    want = [b"v%d" % i for i in range(n)]
    if ordered:
        assert got == want
    else:
        assert sorted(got) == sorted(want)


def test_confluent_over_ssl(tls_broker, pki):
    confluent_roundtrip(confluent_conf(tls_broker.ssl_bootstrap, pki), harness.unique_topic("ssl"))


def test_large_messages_over_ssl(tls_broker, pki):
    """Values of 900 KiB: requests and responses span many TLS records and
    several of the broker's 256 KiB encryption pieces."""
    from confluent_kafka import Consumer, Producer
    topic = harness.unique_topic("bigssl")
    conf = confluent_conf(tls_broker.ssl_bootstrap, pki)
    values = [os.urandom(900 * 1024) for _ in range(6)]
    p = Producer(dict(conf, **{"message.max.bytes": 2 << 20}))
    for v in values:
        p.produce(topic, value=v)
    assert p.flush(30) == 0
    c = Consumer(dict(conf, **{"group.id": "g-" + topic, "auto.offset.reset": "earliest"}))
    c.subscribe([topic])
    got = []
    deadline = time.monotonic() + 30
    try:
        while len(got) < len(values) and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None:
                assert m.error() is None, m.error()
                got.append(m.value())
    finally:
        c.close()
    assert got == values


# kafka-python idles ~18 s in its own timeouts here (1 s of CPU): run
# alongside the rest (test.sh's "waits" lane).
@pytest.mark.waits
def test_kafka_python_over_ssl(tls_broker, pki):
    from kafka import KafkaConsumer, KafkaProducer
    topic = harness.unique_topic("kpssl")
    common = dict(bootstrap_servers=tls_broker.ssl_bootstrap, security_protocol="SSL",
                  ssl_cafile=str(pki.ca), ssl_check_hostname=True)
    p = KafkaProducer(**common)
    try:
        for i in range(10):
            p.send(topic, b"m%d" % i).get(timeout=20)
    finally:
        p.close()
    c = KafkaConsumer(topic, group_id="kp-" + topic, auto_offset_reset="earliest",
                      consumer_timeout_ms=15000, **common)
    try:
        got = [m.value for m in c]
    finally:
        c.close()
    assert got == [b"m%d" % i for i in range(10)]


def kcat(broker_addr, pki, args, cert=False, input=None, timeout=40):
    argv = [harness.kcat_binary(), "-b", broker_addr, "-X", "security.protocol=SSL",
            "-X", "ssl.ca.location=%s" % pki.ca]
    if cert:
        argv += ["-X", "ssl.certificate.location=%s" % pki.client[1],
                 "-X", "ssl.key.location=%s" % pki.client[0]]
    return subprocess.run(argv + args, input=input, capture_output=True, timeout=timeout)


def test_kcat_over_ssl(tls_broker, pki):
    topic = harness.unique_topic("kcatssl")
    lines = b"".join(b"line-%d\n" % i for i in range(5))
    r = kcat(tls_broker.ssl_bootstrap, pki, ["-P", "-t", topic], input=lines)
    assert r.returncode == 0, r.stderr
    r = kcat(tls_broker.ssl_bootstrap, pki, ["-C", "-t", topic, "-o", "beginning", "-e", "-q"])
    assert r.returncode == 0, r.stderr
    assert r.stdout == lines


def ssl_conn(addr, pki, cert=False):
    """A rawkafka connection over TLS (hostname and CA checked)."""
    c = rawkafka.KafkaConn(addr)
    ctx = ssl.create_default_context(cafile=str(pki.ca))
    if cert:
        ctx.load_cert_chain(str(pki.client[1]), str(pki.client[0]))
    c.sock = ctx.wrap_socket(c.sock, server_hostname="127.0.0.1")
    return c


def test_metadata_advertises_the_listener_of_the_connection(tls_broker, pki):
    from confluent_kafka.admin import AdminClient
    topic = harness.unique_topic("adv")
    for addr, port, secure in [(tls_broker.ssl_bootstrap, tls_broker.ssl_port, True),
                               (tls_broker.bootstrap, tls_broker.port, False)]:
        conn = ssl_conn(addr, pki) if secure else rawkafka.KafkaConn(addr)
        with conn as c:
            md = c.metadata([topic], allow_auto_create=True)
            assert [(b["Host"], b["Port"]) for b in md["Brokers"]] == [("127.0.0.1", port)], md
            # The group coordinator too (the first call may create
            # __consumer_offsets: retry until it answers).
            fc = None
            for _ in range(100):
                fc = c.request(rawkafka.API_FIND_COORDINATOR, 3,
                               {"Key": "g-" + topic, "KeyType": 0})
                if fc["ErrorCode"] == 0:
                    break
                time.sleep(0.1)
            assert fc["ErrorCode"] == 0 and (fc["Host"], fc["Port"]) == ("127.0.0.1", port), fc
        conf = {"bootstrap.servers": addr}
        if secure:
            conf = confluent_conf(addr, pki)
        admin = AdminClient(conf)
        cluster = admin.describe_cluster().result(timeout=20)
        assert [n.port for n in cluster.nodes] == [port]
        md = admin.list_topics(timeout=20)
        assert [b.port for b in md.brokers.values()] == [port]


def peer_certificate(addr):
    """The DER certificate the broker presents on a new connection."""
    host, port = addr.rsplit(":", 1)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with socket.create_connection((host, int(port)), timeout=10) as s:
        with ctx.wrap_socket(s) as t:
            return t.getpeercert(binary_form=True)


def serial_and_subject(der):
    r = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-serial", "-subject",
                        "-nameopt", "RFC2253"], input=der, capture_output=True, check=True)
    return r.stdout.decode()


def test_mutual_tls_required(mtls_broker, pki):
    from confluent_kafka.admin import AdminClient
    # Without a certificate the handshake is refused: no metadata.
    admin = AdminClient(dict(confluent_conf(mtls_broker.ssl_bootstrap, pki),
                             **{"socket.timeout.ms": 3000}))
    with pytest.raises(Exception):
        admin.list_topics(timeout=5)
    r = kcat(mtls_broker.ssl_bootstrap, pki, ["-L", "-m", "5"], timeout=20)
    assert r.returncode != 0
    # The plaintext listener is unaffected.
    assert harness.probe(mtls_broker.bootstrap)
    # With one, everything works, and the principal is the mapped subject.
    confluent_roundtrip(confluent_conf(mtls_broker.ssl_bootstrap, pki, cert=True),
                        harness.unique_topic("mtls"))
    topic = harness.unique_topic("kcatmtls")
    r = kcat(mtls_broker.ssl_bootstrap, pki, ["-P", "-t", topic], cert=True, input=b"a\nb\n")
    assert r.returncode == 0, r.stderr
    r = kcat(mtls_broker.ssl_bootstrap, pki, ["-C", "-t", topic, "-o", "beginning", "-e", "-q"],
             cert=True)
    assert r.returncode == 0 and r.stdout == b"a\nb\n", r.stderr
    harness.wait_until(lambda: "User:alice@payments" in mtls_broker.all_logs(), timeout=5,
                       what="the mapped principal in the broker's debug log")
    # A raw TLS client without a certificate gets the connection closed.
    c = rawkafka.KafkaConn(mtls_broker.ssl_bootstrap)
    ctx = ssl.create_default_context(cafile=str(pki.ca))
    with pytest.raises((ssl.SSLError, ConnectionError, rawkafka.ConnectionClosed, OSError)):
        c.sock = ctx.wrap_socket(c.sock, server_hostname="127.0.0.1")
        c.api_versions()
    c.close()


def test_requested_auth_tls12_only_and_advertised_listeners(pki):
    """ssl.client.auth=requested: a client without a certificate is
    User:ANONYMOUS, one with a certificate is its subject in RFC 2253 form
    (DEFAULT rule); ssl.enabled.protocols=TLSv1.2 refuses a TLS 1.3-only
    client; advertised.listeners renames the SSL listener's address."""
    b = TlsBroker({"ssl.keystore.location": str(pki.server[2]),
                   "ssl.truststore.location": str(pki.ca),
                   "ssl.client.auth": "requested",
                   "ssl.enabled.protocols": "TLSv1.2"},
                  name="requested", log_filter="info,tidemark_broker::acceptors=debug")
    b.settings["advertised.listeners"] = "SSL://localhost:%d" % b.ssl_port
    b.start()
    try:
        with ssl_conn(b.ssl_bootstrap, pki) as c:
            assert c.sock.version() == "TLSv1.2"
            md = c.metadata([])
            assert [(x["Host"], x["Port"]) for x in md["Brokers"]] == [("localhost", b.ssl_port)]
        with ssl_conn(b.ssl_bootstrap, pki, cert=True) as c:
            c.api_versions()
        with rawkafka.KafkaConn(b.bootstrap) as c:
            md = c.metadata([])
            assert [(x["Host"], x["Port"]) for x in md["Brokers"]] == [("127.0.0.1", b.port)]
        harness.wait_until(lambda: "principal=User:ANONYMOUS" in b.all_logs(), timeout=5,
                           what="an anonymous TLS principal in the debug log")
        harness.wait_until(lambda: "principal=User:" + CLIENT_RFC2253 in b.all_logs(), timeout=5,
                           what="the certificate subject, RFC 2253, as the principal")
        # A client that insists on TLS 1.3 is refused.
        ctx = ssl.create_default_context(cafile=str(pki.ca))
        ctx.minimum_version = ssl.TLSVersion.TLSv1_3
        with socket.create_connection(("127.0.0.1", b.ssl_port), timeout=5) as s:
            with pytest.raises((ssl.SSLError, ConnectionError, OSError)):
                ctx.wrap_socket(s, server_hostname="127.0.0.1")
        b.check_alive()
    finally:
        b.close()


def s_client_suite(port, pki, *args):
    """The cipher suite `openssl s_client` (offering `args`) agrees on with
    the broker at `port`, or None when the handshake fails."""
    r = subprocess.run(["openssl", "s_client", "-connect", "127.0.0.1:%d" % port,
                        "-CAfile", str(pki.ca), "-verify_return_error", "-brief", *args],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    for line in (r.stdout + r.stderr).splitlines():
        if line.startswith("Ciphersuite: "):
            return line.split(": ", 1)[1].strip()
    return None


def test_cipher_suites_the_broker_order_decides(tls_broker, pki):
    """Without ssl.cipher.suites the broker picks AES-128-GCM even for a
    client that lists AES-256 first; with it, the broker offers only the
    listed suites and its order wins over the client's, in TLS 1.3 and
    1.2; a client with none of them is refused and the broker carries on;
    real clients work over the chosen suite."""
    aes256_first = "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256"
    assert s_client_suite(tls_broker.ssl_port, pki, "-ciphersuites", aes256_first) == \
        "TLS_AES_128_GCM_SHA256"
    b = start({"ssl.keystore.location": str(pki.server[2]), "num.partitions": 1,
               "ssl.cipher.suites": "TLS_CHACHA20_POLY1305_SHA256, TLS_AES_256_GCM_SHA384,"
                                    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"}, "ciphers")
    try:
        assert s_client_suite(b.ssl_port, pki, "-ciphersuites", aes256_first) == \
            "TLS_CHACHA20_POLY1305_SHA256"
        assert s_client_suite(b.ssl_port, pki, "-ciphersuites", "TLS_AES_256_GCM_SHA384") == \
            "TLS_AES_256_GCM_SHA384"
        assert s_client_suite(b.ssl_port, pki, "-ciphersuites", "TLS_AES_128_GCM_SHA256") is None
        tls12 = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES256-GCM-SHA384"
        assert s_client_suite(b.ssl_port, pki, "-tls1_2", "-cipher", tls12) == \
            "ECDHE-ECDSA-AES256-GCM-SHA384"
        assert s_client_suite(b.ssl_port, pki, "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256") is None
        with ssl_conn(b.ssl_bootstrap, pki) as c:
            assert c.sock.cipher()[0] == "TLS_CHACHA20_POLY1305_SHA256"
            c.api_versions()
        confluent_roundtrip(confluent_conf(b.ssl_bootstrap, pki), harness.unique_topic("chacha"))
        b.check_alive()
    finally:
        b.close()


def test_principal_subject_matches_openssl_rfc2253(pki):
    # The subject Kafka would print is what openssl prints with RFC2253.
    r = subprocess.run(["openssl", "x509", "-in", str(pki.client[1]), "-noout", "-subject",
                        "-nameopt", "RFC2253"], capture_output=True, check=True, text=True)
    assert r.stdout.strip() == "subject=" + CLIENT_RFC2253


def test_certificate_reload(pki, tmp_path):
    keystore = tmp_path / "keystore.pem"
    shutil.copy(pki.server[2], keystore)
    b = start({"ssl.keystore.location": str(keystore)}, "reload")
    try:
        first = serial_and_subject(peer_certificate(b.ssl_bootstrap))
        assert "serial=%X" % pki.server[3] in first.replace("serial=0", "serial="), first
        # A new certificate from the same CA, written atomically.
        _, _, new_keystore, new_serial = pki.issue("server2", "/O=Tidemark Reloaded/CN=localhost",
                                                   server=True)
        tmp = tmp_path / "keystore.pem.new"
        shutil.copy(new_keystore, tmp)
        os.replace(tmp, keystore)
        second = serial_and_subject(peer_certificate(b.ssl_bootstrap))
        assert "O=Tidemark Reloaded" in second, second
        assert ("%X" % new_serial) in second, second
        # Clients verifying against the CA keep working on new connections.
        confluent_roundtrip(confluent_conf(b.ssl_bootstrap, pki), harness.unique_topic("reload"),
                            n=5)
        # A broken keystore is not loaded: the last good certificate stays.
        keystore.write_text("not a pem file\n")
        third = serial_and_subject(peer_certificate(b.ssl_bootstrap))
        assert "O=Tidemark Reloaded" in third, third
        assert "cannot reload the TLS certificates" in b.all_logs()
        b.check_alive()
    finally:
        b.close()


def timed_ssl_metadata(addr, pki):
    t0 = time.monotonic()
    with ssl_conn(addr, pki) as c:
        c.metadata([])
    return time.monotonic() - t0


def test_wrong_protocol_on_each_port_closes_only_that_connection(tls_broker, pki):
    # A plaintext Kafka client on the TLS port: closed, quickly.
    with rawkafka.KafkaConn(tls_broker.ssl_bootstrap, timeout=5) as c:
        t0 = time.monotonic()
        c.send(rawkafka.API_API_VERSIONS, 0, {})
        c.wait_closed(timeout=5)
        assert time.monotonic() - t0 < 5
    # A TLS client on the plaintext port: the handshake fails, quickly.
    ctx = ssl.create_default_context(cafile=str(pki.ca))
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", tls_broker.port), timeout=5) as s:
        with pytest.raises((ssl.SSLError, ConnectionError, OSError)):
            ctx.wrap_socket(s, server_hostname="127.0.0.1")
    assert time.monotonic() - t0 < 5
    # A record that does not decrypt, after a good handshake: closed (the
    # broker must neither panic nor keep the connection).
    c = ssl_conn(tls_broker.ssl_bootstrap, pki)
    c.api_versions()
    raw = socket.socket(fileno=os.dup(c.sock.fileno()))
    try:
        raw.sendall(b"\x17\x03\x03\x00\x20" + b"\x00" * 32)
        raw.settimeout(5)
        t0 = time.monotonic()
        for _ in range(100):
            try:
                if raw.recv(4096) == b"":
                    break
            except ConnectionResetError:
                break
        assert time.monotonic() - t0 < 5
    finally:
        raw.close()
        c.close()
    # Silent clients on the TLS port (no ClientHello): they hold only their
    # sockets; the others are served without delay, and the broker closes
    # them once the handshake timeout (10 s) passes.
    silent = [socket.create_connection(("127.0.0.1", tls_broker.ssl_port), timeout=20)
              for _ in range(20)]
    try:
        partial = socket.create_connection(("127.0.0.1", tls_broker.ssl_port), timeout=20)
        partial.sendall(b"\x16\x03\x01\x02\x00\x01\x00")  # the start of a ClientHello
        silent.append(partial)
        took = [timed_ssl_metadata(tls_broker.ssl_bootstrap, pki) for _ in range(5)]
        assert max(took) < 2.0, took
        confluent_roundtrip(confluent_conf(tls_broker.ssl_bootstrap, pki),
                            harness.unique_topic("busy"), n=5)
        t0 = time.monotonic()
        for s in silent:
            s.settimeout(max(0.1, 20 - (time.monotonic() - t0)))
            try:
                assert s.recv(100) == b""
            except ConnectionResetError:
                pass
        assert time.monotonic() - t0 < 15
    finally:
        for s in silent:
            s.close()
    tls_broker.check_alive()
    assert harness.probe(tls_broker.bootstrap)
    assert timed_ssl_metadata(tls_broker.ssl_bootstrap, pki) < 2.0


def test_refused_configurations(pki):
    def refused(listeners, extra, needle):
        b = TlsBroker(extra, name="refused", listeners=listeners)
        with pytest.raises(harness.BrokerError) as e:
            b.start(timeout=15)
        b.close()
        assert needle in str(e.value), str(e.value)

    refused("PLAINTEXT://127.0.0.1:%d,SASL_SSL://127.0.0.1:%d",
            {"ssl.keystore.location": str(pki.server[2]), "sasl.enabled.mechanisms": "GSSAPI"},
            "GSSAPI is not supported")
    refused("PLAINTEXT://127.0.0.1:%d,SASL_SSL://127.0.0.1:%d", {},
            "ssl.keystore.location is required")
    refused("PLAINTEXT://127.0.0.1:%d,SSL://127.0.0.1:%d", {},
            "ssl.keystore.location is required")
    refused("PLAINTEXT://127.0.0.1:%d,SSL://127.0.0.1:%d",
            {"ssl.keystore.location": str(pki.server[2]), "ssl.client.auth": "required"},
            "needs ssl.truststore.location")
    refused("PLAINTEXT://127.0.0.1:%d,SSL://127.0.0.1:%d",
            {"ssl.keystore.location": str(pki.ca) + ".missing"}, "cannot read")
    refused("PLAINTEXT://127.0.0.1:%d,SSL://127.0.0.1:%d",
            {"ssl.keystore.location": str(pki.server[2]),
             "ssl.principal.mapping.rules": "RULE:^CN=(.*)$/$1/X"},
            "ssl.principal.mapping.rules")
    refused("PLAINTEXT://127.0.0.1:%d,SSL://127.0.0.1:%d",
            {"ssl.keystore.location": str(pki.server[2]),
             "ssl.cipher.suites": "TLS_AES_128_GCM_SHA256,TLS_RSA_WITH_RC4_128_SHA"},
            "TLS_RSA_WITH_RC4_128_SHA is not a cipher suite")
    # --kafka-addr and listeners together are ambiguous.
    b = TlsBroker({}, name="refused")
    b.extra_args = ["--kafka-addr", "127.0.0.1:%d" % b.port]
    with pytest.raises(harness.BrokerError) as e:
        b.start(timeout=15)
    b.close()
    assert "listeners setting both given" in str(e.value)


def test_encrypted_private_key_with_ssl_key_password(pki, tmp_path):
    """A PEM keystore whose private key is encrypted (PKCS#8 with PBES2,
    `-----BEGIN ENCRYPTED PRIVATE KEY-----`, as `openssl pkcs8 -topk8
    -v2 aes-256-cbc` writes it) is read with `ssl.key.password`, as Kafka
    reads PEM keystores (KIP-651); without the password, or with a wrong
    one, the broker does not start and says why, never showing the
    password; DescribeConfigs reports the password as sensitive with no
    value."""
    key, crt, _, _ = pki.server
    password = "s3cret-pw"
    openssl("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", str(key),
            "-out", "server.enc.key", "-passout", "pass:" + password, cwd=tmp_path)
    enc = tmp_path / "server.enc.key"
    assert b"ENCRYPTED PRIVATE KEY" in enc.read_bytes()
    keystore = tmp_path / "server.enc.keystore.pem"
    keystore.write_bytes(enc.read_bytes() + crt.read_bytes())

    def refused(extra, needle):
        b = TlsBroker(dict({"ssl.keystore.location": str(keystore)}, **extra),
                      name="enckey-refused")
        with pytest.raises(harness.BrokerError) as e:
            b.start(timeout=15)
        b.close()
        assert needle in str(e.value), str(e.value)
        # The broker's own words (the harness also prints the command line).
        assert "wrong-pw" not in str(e.value).split("--- log tail ---")[-1]

    refused({}, "the private key is encrypted and ssl.key.password is not set")
    refused({"ssl.key.password": "wrong-pw"},
            "cannot be decrypted with ssl.key.password")

    b = start({"ssl.keystore.location": str(keystore), "ssl.key.password": password,
               "num.partitions": 1}, "enckey")
    try:
        confluent_roundtrip(confluent_conf(b.ssl_bootstrap, pki), harness.unique_topic("enckey"))
        from confluent_kafka.admin import ConfigResource
        admin = clients.confluent_admin(b.bootstrap)
        res = ConfigResource("broker", str(b.node_id))
        e = admin.describe_configs([res])[res].result(timeout=30)["ssl.key.password"]
        assert e.is_sensitive and e.value is None and not e.is_read_only, (e.is_sensitive, e.value)
        assert all(s.value is None for s in e.synonyms.values()), e.synonyms
    finally:
        b.close()


def test_admin_api_over_https(pki):
    """admin.ssl.enabled: the admin API speaks HTTPS only, with the SSL
    listeners' certificate (and their client-certificate rule); a client
    trusting the CA reads it, plain HTTP and an untrusting client get
    nothing, and tmk reaches it with -X admin.tls.enabled and the tls.*
    settings."""
    import json
    import ssl
    import urllib.error
    import urllib.request
    import test_tmk
    b = start({"ssl.keystore.location": str(pki.server[2]), "admin.ssl.enabled": "true"},
              "admin-https")
    try:
        https = "https://127.0.0.1:%d" % b.admin_port
        ctx = ssl.create_default_context(cafile=str(pki.ca))
        with urllib.request.urlopen(https + "/v1/brokers", context=ctx, timeout=10) as r:
            assert r.status == 200
            assert [x["node_id"] for x in json.loads(r.read())] == [b.node_id]
        with urllib.request.urlopen(https + "/metrics", context=ctx, timeout=10) as r:
            assert b"tidemark_" in r.read()
        # The certificate is checked: a client that does not trust the CA
        # fails the handshake.
        with pytest.raises(urllib.error.URLError) as e:
            urllib.request.urlopen(https + "/v1/status/live", context=ssl.create_default_context(),
                                   timeout=10)
        assert isinstance(e.value.reason, ssl.SSLCertVerificationError), e.value
        # Plain HTTP gets no HTTP answer (at most a TLS alert).
        import http.client
        with pytest.raises((urllib.error.URLError, OSError, http.client.HTTPException)):
            urllib.request.urlopen("http://127.0.0.1:%d/v1/status/live" % b.admin_port, timeout=3)

        tmk = str(test_tmk.tmk_binary())
        env = dict(os.environ, TMK_CONFIG="/nonexistent/tmk.yaml")
        base = [tmk, "--brokers", b.ssl_bootstrap, "-X", "admin.hosts=127.0.0.1:%d" % b.admin_port]
        args = ["cluster", "maintenance", "status", "--format", "json"]
        r = subprocess.run(base + ["-X", "admin.tls.enabled=true", "-X", "tls.ca=%s" % pki.ca]
                           + args, capture_output=True, text=True, timeout=60, env=env)
        # Through TLS to the API: a single node has no maintenance mode,
        # and the broker says so.
        assert "HTTP 400" in r.stderr and "single-node" in r.stderr, r.stderr
        # Without admin.tls.enabled tmk's plain HTTP gets no answer from
        # the HTTPS server (its Kafka connection over TLS still works).
        r = subprocess.run(base + ["-X", "tls.ca=%s" % pki.ca] + args,
                           capture_output=True, text=True, timeout=60, env=env)
        assert r.returncode == 1 and "admin API" in r.stderr, r.stderr
        assert "HTTP 400" not in r.stderr, r.stderr
    finally:
        b.close()
