"""Adding a broker to a running cluster: a fourth broker that is not in
--seeds registers through the seeds, becomes a learner of the controller
group, receives the metadata, and new topics place replicas on it; it
leads some of them and serves produce and fetch for them.
"""

import os
import time

import pytest

import clients
import cluster
import harness

pytestmark = pytest.mark.cluster

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())


def _wait(pred, timeout, what):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(0.2)
    raise AssertionError("timed out after %.0fs waiting for %s (last: %r)" % (timeout, what, last))


@needs_cluster
def test_a_broker_outside_the_seeds_joins_and_gets_replicas():
    c = cluster.Cluster(3, name="join")
    joiner = None
    try:
        c.start()
        seeds = c.seeds  # the three voters only
        joiner = cluster.Node(c, 4, "zone-a",
                              cores=int(os.environ.get("TIDEMARK_CLUSTER_CORES", "1")),
                              tmp_root=str(c.root))
        joiner.argv_seeds = seeds
        # The joiner is not in c.nodes, so c.seeds stays the three voters.
        joiner.start()
        # Every broker, the joiner included, lists four brokers.
        c.nodes[4] = joiner
        _wait(lambda: all(set(c.brokers_seen_by(n) or []) == {1, 2, 3, 4} for n in (1, 2, 3, 4)),
              30, "every broker to list brokers 1-4")
        assert "4@" not in c.seeds.split(",")[0]
        topic = harness.unique_topic("joined")
        c.create_topic(topic, partitions=8, replication_factor=3, full_isr=True, timeout=60)
        md = c.metadata([topic], 4)
        parts = md["Topics"][0]["Partitions"]
        with_joiner = [p for p in parts if 4 in p["ReplicaNodes"]]
        # 8 partitions x 3 replicas over 4 brokers: the joiner holds some.
        assert len(with_joiner) >= 4, parts
        for p in with_joiner:
            assert 4 in p["IsrNodes"], p
        # Keyed records through the joiner's listener only, read back.
        msgs = clients.make_messages("join", 40)
        acked = clients.confluent_produce(joiner.bootstrap, topic, msgs)
        assert len(acked) == len(msgs) and all(a is not None for a in acked), acked
        got = clients.confluent_consume(joiner.bootstrap, topic, range(8), len(msgs))
        assert sorted(clients.essence(got)) == sorted(clients.essence(msgs))
    finally:
        try:
            if joiner is not None and joiner.running():
                joiner.close()
        finally:
            c.nodes.pop(4, None)
            c.close()
