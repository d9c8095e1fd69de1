"""Listeners changed at run time (issue 19): `listeners` and
`listener.security.protocol.map` are per-broker dynamic configs, as in
Kafka. A listener added with IncrementalAlterConfigs starts accepting and
is advertised to its clients; a removed one stops and its connections
close; one moved to another port accepts there; the change survives a
restart. What Kafka refuses is refused with its words (a listener's
security protocol cannot change; the cluster-wide default cannot hold
them), and so is what cannot work (an unmapped listener, a port in use).
In a cluster the broker registers its new listeners with the controller
(Kafka 4 refuses such a change under KRaft), so every broker's clients on
that listener are told of it.
"""

import socket
import time

import pytest

import clients
import cluster
import harness
from rawkafka import ConnectionClosed, KafkaConn
from test_broker_configs import raw_alter
from test_tls import confluent_conf, confluent_roundtrip, pki, ssl_conn  # noqa: F401 (fixture)

INVALID_REQUEST = 42


def alter(b, configs, resource=None, validate_only=False):
    """IncrementalAlterConfigs on `b`'s BROKER resource (or `resource`)."""
    return raw_alter(b, str(b.node_id) if resource is None else resource, configs,
                     validate_only=validate_only)


def set_listeners(b, listeners, protocol_map=None):
    configs = [("listeners", 0, listeners)]
    if protocol_map is not None:
        configs.append(("listener.security.protocol.map", 0, protocol_map))
    return alter(b, configs)


def broker_ports(addr):
    with KafkaConn(addr) as c:
        md = c.metadata([])
    return {x["NodeId"]: (x["Host"], x["Port"]) for x in md["Brokers"]}


def refused(addr):
    try:
        socket.create_connection(("127.0.0.1", int(addr.rsplit(":", 1)[1])), timeout=2).close()
    except OSError:
        return True
    return False


def wait_until(check, what):
    harness.wait_until(check, timeout=15, interval=0.1, what=what)


MAP = "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL,INTERNAL:PLAINTEXT"


def test_a_listener_added_serves_clients_and_a_removed_one_closes_its_connections(broker_factory):
    b = broker_factory()
    internal = "127.0.0.1:%d" % harness.free_port()
    assert refused(internal)
    # validate_only changes nothing.
    code, msg = alter(b, [
        ("listeners", 0, "PLAINTEXT://%s,INTERNAL://%s" % (b.bootstrap, internal)),
        ("listener.security.protocol.map", 0, MAP)], validate_only=True)
    assert (code, msg) == (0, None)
    assert refused(internal)

    assert set_listeners(b, "PLAINTEXT://%s,INTERNAL://%s" % (b.bootstrap, internal), MAP) == (0, None)
    wait_until(lambda: not refused(internal), "the new listener to accept")
    # Its clients are told its address; the old listener's, the old one.
    assert broker_ports(internal) == {b.node_id: ("127.0.0.1", int(internal.split(":")[1]))}
    assert broker_ports(b.bootstrap) == {b.node_id: ("127.0.0.1", b.port)}
    # A real client through it: kafka-python produces, confluent-kafka reads.
    topic = harness.unique_topic("dynlst")
    admin = clients.confluent_admin(internal)
    from confluent_kafka.admin import NewTopic
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(timeout=30)
    from kafka import KafkaProducer
    p = KafkaProducer(bootstrap_servers=internal, acks="all")
    for i in range(20):
        p.send(topic, key=b"k", value=b"v%d" % i)
    p.flush(timeout=30)
    p.close()
    from confluent_kafka import Consumer
    c = Consumer({"bootstrap.servers": internal, "group.id": topic,
                  "auto.offset.reset": "earliest"})
    c.subscribe([topic])
    got = []
    deadline = time.monotonic() + 30
    while len(got) < 20 and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            got.append(m.value())
    c.close()
    assert got == [b"v%d" % i for i in range(20)]

    # Described as this broker's dynamic value, not read-only.
    from confluent_kafka.admin import ConfigResource
    res = ConfigResource("broker", str(b.node_id))
    entries = admin.describe_configs([res])[res].result(timeout=30)
    e = entries["listeners"]
    assert e.value == "PLAINTEXT://%s,INTERNAL://%s" % (b.bootstrap, internal)
    assert not e.is_read_only and e.source == 2  # DYNAMIC_BROKER_CONFIG

    # Removed: an open connection on it is closed, new ones are refused,
    # the other listener serves on.
    conn = KafkaConn(internal)
    conn.api_versions()
    assert set_listeners(b, "PLAINTEXT://%s" % b.bootstrap) == (0, None)
    with pytest.raises((ConnectionClosed, OSError)):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            conn.api_versions()
            time.sleep(0.2)
    conn.close()
    wait_until(lambda: refused(internal), "the removed listener to stop accepting")
    assert broker_ports(b.bootstrap) == {b.node_id: ("127.0.0.1", b.port)}


def test_a_listener_moves_and_survives_a_restart(broker_factory):
    b = broker_factory()
    first = "127.0.0.1:%d" % harness.free_port()
    second = "127.0.0.1:%d" % harness.free_port()
    assert set_listeners(b, "PLAINTEXT://%s,INTERNAL://%s" % (b.bootstrap, first), MAP) == (0, None)
    wait_until(lambda: not refused(first), "the new listener to accept")
    kept = KafkaConn(first)
    kept.api_versions()
    # Moved: the new port accepts, the old one does not; a connection made
    # before the move stays (its listener still exists).
    assert set_listeners(b, "PLAINTEXT://%s,INTERNAL://%s" % (b.bootstrap, second)) == (0, None)
    wait_until(lambda: not refused(second) and refused(first), "the listener to move")
    kept.api_versions()
    kept.close()
    assert broker_ports(second) == {b.node_id: ("127.0.0.1", int(second.split(":")[1]))}
    b.restart()
    assert broker_ports(second) == {b.node_id: ("127.0.0.1", int(second.split(":")[1]))}
    assert refused(first)
    # DELETE: back to the start-up listeners.
    assert alter(b, [("listeners", 1, None)]) == (0, None)
    wait_until(lambda: refused(second), "the listener to go")
    assert broker_ports(b.bootstrap) == {b.node_id: ("127.0.0.1", b.port)}


def test_listener_changes_kafka_refuses_or_that_cannot_work(broker_factory):
    b = broker_factory()
    me = str(b.node_id)
    # A listener's security protocol cannot change.
    code, msg = alter(b, [("listener.security.protocol.map", 0, "PLAINTEXT:SSL,SSL:SSL")])
    assert code == INVALID_REQUEST
    assert "Security protocol cannot be updated for existing listener PLAINTEXT" in msg
    # Per broker only, as Kafka.
    code, msg = alter(b, [("listeners", 0, "PLAINTEXT://%s" % b.bootstrap)], resource="")
    assert code == INVALID_REQUEST and "broker id must be specified" in msg, msg
    # A listener without a security protocol.
    code, msg = set_listeners(b, "PLAINTEXT://%s,OTHER://127.0.0.1:%d" % (b.bootstrap, harness.free_port()))
    assert code == INVALID_REQUEST and "OTHER" in msg and "listener.security.protocol.map" in msg, msg
    # Bad syntax, and no listener at all.
    code, msg = set_listeners(b, "PLAINTEXT:/nowhere")
    assert code == INVALID_REQUEST and "NAME://HOST:PORT" in msg, msg
    code, msg = set_listeners(b, " ")
    assert code == INVALID_REQUEST, msg
    # A port something else holds.
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        code, msg = set_listeners(b, "PLAINTEXT://%s,INTERNAL://127.0.0.1:%d" % (b.bootstrap, port), MAP)
        assert code == INVALID_REQUEST and "cannot listen" in msg, msg
    finally:
        taken.close()
    # Nothing changed: the broker serves on its one listener.
    assert broker_ports(b.bootstrap) == {b.node_id: ("127.0.0.1", b.port)}
    from confluent_kafka.admin import ConfigResource
    admin = clients.confluent_admin(b.bootstrap)
    res = ConfigResource("broker", me)
    entries = admin.describe_configs([res])[res].result(timeout=30)
    # --kafka-addr's listener, described as the static value in force.
    assert (entries["listeners"].value, entries["listeners"].source) == \
        ("PLAINTEXT://%s" % b.bootstrap, 4)  # STATIC_BROKER_CONFIG


def test_an_ssl_listener_added_with_its_certificate(broker_factory, pki):
    """A TLS listener added at run time, its keystore given in the same
    request with the listener prefix (as Kafka takes it); without a
    keystore it is refused before anything changes."""
    b = broker_factory()
    ssl_addr = "127.0.0.1:%d" % harness.free_port()
    listeners = "PLAINTEXT://%s,SSL://%s" % (b.bootstrap, ssl_addr)
    code, msg = set_listeners(b, listeners)
    assert code == INVALID_REQUEST and "SSL" in msg and "keystore" in msg, msg
    assert refused(ssl_addr)
    # With its own settings, mutual TLS included: a listener not in force
    # yet takes any listener-prefixed setting, as in Kafka.
    code, msg = alter(b, [
        ("listeners", 0, listeners),
        ("listener.name.ssl.ssl.keystore.location", 0, str(pki.server[2])),
        ("listener.name.ssl.ssl.truststore.location", 0, str(pki.ca)),
        ("listener.name.ssl.ssl.client.auth", 0, "required")])
    assert (code, msg) == (0, None)
    wait_until(lambda: not refused(ssl_addr), "the SSL listener to accept")
    with ssl_conn(ssl_addr, pki, cert=True) as c:
        md = c.metadata([])
    assert [(x["Host"], x["Port"]) for x in md["Brokers"]] == [("127.0.0.1", int(ssl_addr.split(":")[1]))]
    with pytest.raises((OSError, ConnectionClosed, ValueError)):
        with ssl_conn(ssl_addr, pki, cert=False) as c:
            c.api_versions()
    confluent_roundtrip(confluent_conf(ssl_addr, pki, cert=True), harness.unique_topic("dynssl"))
    # Once it runs, only its certificates change (Kafka's words).
    code, msg = alter(b, [("listener.name.ssl.ssl.client.auth", 0, "none")])
    assert code == INVALID_REQUEST, (code, msg)
    assert "Configs cannot be updated dynamically for existing listener SSL" in msg, msg
    with ssl_conn(ssl_addr, pki, cert=True) as c:
        c.api_versions()


@pytest.mark.cluster
def test_a_listener_added_in_a_cluster_is_registered_and_advertised(tmp_path):
    c = cluster.Cluster(3, name="dynlisteners")
    try:
        c.start()
        c.wait_ready()
        internal = {n.node_id: harness.free_port() for n in c.nodes.values()}
        for n in c.nodes.values():
            code, msg = set_listeners(
                n, "PLAINTEXT://%s,INTERNAL://127.0.0.1:%d" % (n.bootstrap, internal[n.node_id]), MAP)
            assert (code, msg) == (0, None)
        want = {i: ("127.0.0.1", p) for i, p in internal.items()}
        # A client on any broker's INTERNAL listener is told every broker's
        # INTERNAL address: the registrations changed.
        for i, p in internal.items():
            addr = "127.0.0.1:%d" % p
            wait_until(lambda: not refused(addr), "broker %d's INTERNAL listener" % i)
            wait_until(lambda: broker_ports(addr) == want, "every INTERNAL address from broker %d" % i)
        topic = harness.unique_topic("dynlstcl")
        c.create_topic(topic, 3)
        from confluent_kafka import Producer
        p = Producer({"bootstrap.servers": "127.0.0.1:%d" % internal[1], "acks": "all"})
        for i in range(30):
            p.produce(topic, key=b"k%d" % i, value=b"v%d" % i)
        assert p.flush(30) == 0
        # Removed on broker 2: its clients on the other listener no longer
        # see INTERNAL there, and broker 1's INTERNAL clients no longer
        # see broker 2.
        n2 = c.node(2)
        assert set_listeners(n2, "PLAINTEXT://%s" % n2.bootstrap) == (0, None)
        want.pop(2)
        wait_until(lambda: broker_ports("127.0.0.1:%d" % internal[1]) == want,
                   "broker 2 to leave the INTERNAL listener's brokers")
        c.check_alive()
    finally:
        c.close()
