"""Listeners in a cluster (issue 15): three brokers, each with a PLAINTEXT
and an SSL listener, register both addresses with the controller; a
client on either listener of any broker is told every broker's address on
that same listener, and can produce and consume through it.
"""

import shutil

import pytest

import cluster
import harness
import rawkafka
from test_tls import Pki, confluent_conf, confluent_roundtrip, ssl_conn

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
