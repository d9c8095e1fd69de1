"""ACLs in a cluster (issue 15): an ACL created through one broker is
enforced by every broker within seconds (it travels in the controller
log), and survives a restart of every broker. The brokers' PLAINTEXT
listener is the operators' (its ANONYMOUS principal is a super user, as the
harness needs); tenants come in on the SSL listener with certificates.
"""

import shutil
import time

import pytest

import cluster
import harness
from test_acl import AUTHORIZER, TAF, binding, produce, wait_all
from test_tls import Pki
from test_tls_cluster import with_listeners

pytestmark = [pytest.mark.cluster,
              pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl CLI missing")]


def tenant_conf(node, pki, user):
    key, crt = pki.users[user][0], pki.users[user][1]
    return {"bootstrap.servers": "127.0.0.1:%d" % node.ssl_port, "security.protocol": "SSL",
            "ssl.ca.location": str(pki.ca), "ssl.certificate.location": str(crt),
            "ssl.key.location": str(key)}


def wait_until(pred, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return time.monotonic()
        time.sleep(0.1)
    raise AssertionError("not within %.0fs: %s" % (timeout, what))


def test_acl_enforced_by_every_broker_and_survives_restarts(tmp_path):
    from confluent_kafka.admin import AdminClient
    pki = Pki(tmp_path)
    pki.server = pki.issue("server", "/O=Tidemark/CN=localhost", server=True)
    pki.users = {u: pki.issue(u, "/O=Tidemark/CN=" + u, server=False) for u in ("alice",)}
    c = cluster.Cluster(3, name="aclcluster", settings={
        "ssl.keystore.location": str(pki.server[2]),
        "ssl.truststore.location": str(pki.ca),
        "ssl.client.auth": "requested",
        "ssl.principal.mapping.rules": "RULE:^CN=([^,]*),O=.*$/$1/,DEFAULT",
        "authorizer.class.name": AUTHORIZER,
        "super.users": "User:ANONYMOUS"})
    try:
        for n in c.nodes.values():
            with_listeners(n)
        c.start()
        c.wait_ready()
        topic = harness.unique_topic("team-a.acl")
        c.create_topic(topic, 3)
        # No ACL yet: alice is refused everywhere.
        for n in c.nodes.values():
            left, errors = produce(tenant_conf(n, pki, "alice"), topic, 1)
            assert errors and errors[0].code() == TAF, (n, errors)
        # Granted through broker 1 ...
        a = AdminClient({"bootstrap.servers": c.node(1).bootstrap})
        t0 = time.monotonic()
        res = wait_all(a.create_acls([binding("TOPIC", "team-a.", "PREFIXED", "User:alice",
                                              "WRITE")]))
        assert all(v is None for v in res.values()), res
        # ... every broker lets her write within a few seconds.
        for n in c.nodes.values():
            wait_until(lambda n=n: not produce(tenant_conf(n, pki, "alice"), topic, 1)[1],
                       15, "broker %d enforces the new ACL" % n.node_id)
        print("ACL in force on every broker %.2fs after CreateAcls" % (time.monotonic() - t0))
        # Every broker restarted: the ACL is still there.
        c.restart_all(how="term")
        c.wait_ready()
        for n in c.nodes.values():
            wait_until(lambda n=n: not produce(tenant_conf(n, pki, "alice"), topic, 1)[1],
                       30, "broker %d enforces the ACL after the restart" % n.node_id)
        c.check_alive()
    finally:
        c.close()
