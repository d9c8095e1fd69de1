"""Listeners in a cluster (issue 15): three brokers, each with a PLAINTEXT
and an SSL listener, register both addresses with the controller; a
client on either listener of any broker is told every broker's address on
that same listener, and can produce and consume through it.
"""

import shutil
import time

import pytest

import cluster
import harness
import rawkafka
from test_tls import Pki, confluent_conf, confluent_roundtrip, serial_and_subject, ssl_conn

pytestmark = [pytest.mark.cluster,
              pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl CLI missing")]


def with_listeners(node):
    """Replaces the node's --kafka-addr by a PLAINTEXT listener on the same
    port and an SSL listener on a port of its own."""
    node.advertise = False
    node.ssl_port = harness.free_port()
    orig = node.argv

    def argv():
        a = orig()
        i = a.index("--kafka-addr")
        del a[i:i + 2]
        return a + ["--set", "listeners=PLAINTEXT://%s,SSL://127.0.0.1:%d"
                    % (node.bootstrap, node.ssl_port)]
    node.argv = argv


def test_every_broker_advertised_on_the_clients_listener(tmp_path):
    pki = Pki(tmp_path)
    pki.server = pki.issue("server", "/O=Tidemark/CN=localhost", server=True)
    c = cluster.Cluster(3, name="tlscluster",
                        settings={"ssl.keystore.location": str(pki.server[2])})
    try:
        for n in c.nodes.values():
            with_listeners(n)
        c.start()
        c.wait_ready()
        ssl_ports = {n.node_id: n.ssl_port for n in c.nodes.values()}
        plain_ports = {n.node_id: n.port for n in c.nodes.values()}
        for n in c.nodes.values():
            ssl_addr = "127.0.0.1:%d" % n.ssl_port
            with ssl_conn(ssl_addr, pki) as conn:
                md = conn.metadata([])
                assert {b["NodeId"]: b["Port"] for b in md["Brokers"]} == ssl_ports, md
            with rawkafka.KafkaConn(n.bootstrap) as conn:
                md = conn.metadata([])
                assert {b["NodeId"]: b["Port"] for b in md["Brokers"]} == plain_ports, md
        # Clients bootstrapped on one broker's SSL listener reach the
        # partition leaders and the group coordinator on theirs.
        topic = harness.unique_topic("tlscl")
        c.create_topic(topic, 3)
        confluent_roundtrip(confluent_conf("127.0.0.1:%d" % c.node(1).ssl_port, pki), topic, n=30,
                            ordered=False)
        c.check_alive()
    finally:
        c.close()


def test_tls_between_brokers(tmp_path):
    """security.inter.broker.protocol=SSL: the brokers' Raft and controller
    traffic runs over mutual TLS. The cluster forms and replicates; the rpc
    port refuses a plaintext peer, a TLS client without a certificate, and
    (with an authorizer) a certificate whose principal may not do
    CLUSTER_ACTION."""
    import socket
    import ssl
    import struct
    pki = Pki(tmp_path)
    pki.server = pki.issue("broker", "/O=Tidemark/CN=broker", server=True, client_too=True)
    pki.client = pki.issue("alice", "/O=Tidemark/CN=alice", server=False)
    c = cluster.Cluster(3, name="rpctls", settings={
        "security.inter.broker.protocol": "SSL",
        "ssl.keystore.location": str(pki.server[2]),
        "ssl.truststore.location": str(pki.ca),
        "ssl.principal.mapping.rules": "RULE:^CN=([^,]*),O=.*$/$1/,DEFAULT",
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": "User:ANONYMOUS;User:broker"})
    try:
        c.start()
        c.wait_ready()
        topic = harness.unique_topic("rpctls")
        c.create_topic(topic, 3, full_isr=True)
        # Replicated over TLS: acks=all needs every replica's follower.
        from confluent_kafka import Consumer, Producer, TopicPartition
        p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all",
                      "message.timeout.ms": 15000})
        errors = []
        for i in range(30):
            p.produce(topic, b"v%d" % i, partition=i % 3,
                      on_delivery=lambda e, m: errors.append(e) if e else None)
        assert p.flush(20) == 0 and not errors, errors
        cons = Consumer({"bootstrap.servers": c.bootstrap, "group.id": "unused",
                         "enable.auto.commit": False})
        cons.assign([TopicPartition(topic, i, 0) for i in range(3)])
        got = []
        deadline = time.monotonic() + 20
        while len(got) < 30 and time.monotonic() < deadline:
            m = cons.poll(0.5)
            if m is not None and m.error() is None:
                got.append(m.value())
        cons.close()
        assert sorted(got) == sorted(b"v%d" % i for i in range(30))
        node = c.node(2)
        host, port = "127.0.0.1", node.rpc_port

        def closed_without_answer(sock):
            sock.settimeout(10)
            try:
                return sock.recv(1) == b""
            except (ConnectionResetError, ssl.SSLError):
                return True

        # A plaintext peer: its "hello" frame is not a TLS ClientHello; the
        # answer is at most a TLS alert record (type 21), then the close.
        with socket.create_connection((host, port), timeout=5) as s:
            s.sendall(struct.pack(">i", 9) + b"\x00" * 9)
            s.settimeout(10)
            got = b""
            for _ in range(100):
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
            assert got == b"" or got[0] == 21, got
        # TLS without a client certificate: the handshake fails.
        ctx = ssl.create_default_context(cafile=str(pki.ca))
        with socket.create_connection((host, port), timeout=5) as raw:
            with pytest.raises((ssl.SSLError, ConnectionResetError, OSError)):
                with ctx.wrap_socket(raw, server_hostname=host) as s:
                    s.sendall(b"\x00" * 4)
                    s.recv(1)
                    raise ssl.SSLError("no failure")
        # A broker's certificate: the rpc port speaks TLS.
        bctx = ssl.create_default_context(cafile=str(pki.ca))
        bctx.load_cert_chain(str(pki.server[1]), str(pki.server[0]))
        with socket.create_connection((host, port), timeout=5) as raw:
            with bctx.wrap_socket(raw, server_hostname=host) as s:
                assert s.version() in ("TLSv1.2", "TLSv1.3"), s.version()
        # A tenant's certificate from the same CA: not a broker.
        ctx.load_cert_chain(str(pki.client[1]), str(pki.client[0]))
        with socket.create_connection((host, port), timeout=5) as raw:
            try:
                with ctx.wrap_socket(raw, server_hostname=host) as s:
                    assert closed_without_answer(s)
            except (ssl.SSLError, ConnectionResetError):
                pass
        deadline = time.monotonic() + 10
        while "User:alice" not in node.all_logs() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "not allowed CLUSTER_ACTION" in node.all_logs()

        # Certificates are reloaded: a new broker certificate in the same
        # file is presented on the next rpc connection, and the cluster
        # keeps replicating with it.
        def rpc_serial():
            ctx = ssl.create_default_context(cafile=str(pki.ca))
            ctx.load_cert_chain(str(pki.server[1]), str(pki.server[0]))
            with socket.create_connection((host, port), timeout=5) as raw:
                with ctx.wrap_socket(raw, server_hostname=host) as s:
                    return serial_and_subject(s.getpeercert(binary_form=True))
        before = rpc_serial()
        time.sleep(1.1)  # a modification time the reload can tell apart
        pki.server = pki.issue("broker", "/O=Tidemark/CN=broker", server=True, client_too=True)
        deadline = time.monotonic() + 10
        while rpc_serial() == before and time.monotonic() < deadline:
            time.sleep(0.2)
        import re
        now = rpc_serial()
        assert int(re.search(r"serial=([0-9A-Fa-f]+)", now).group(1), 16) == pki.server[3], (
            before, now)
        topic2 = harness.unique_topic("rpctls-reload")
        c.create_topic(topic2, 3, full_isr=True)
        c.check_alive()
    finally:
        c.close()
