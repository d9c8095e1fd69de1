"""The controller snapshot (issue 14): a broker that stops cleanly writes
the metadata it applied to DATA/controller/metadata.snapshot and starts
from it, applying only the controller log after it (here: a deletion and
a creation made while it was down); a damaged snapshot is ignored with a
warning (the whole log is applied again), never a failed start.
"""

import time

import pytest

import cluster
import harness

pytestmark = pytest.mark.cluster

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())


def _last_log(node):
    return node.log_paths[-1].read_text(errors="replace")


def _topics_seen_by(c, node_id, names):
    md = c.metadata(names, node_id)
    if md is None:
        return None
    return {t["Name"] for t in md["Topics"] if t["ErrorCode"] == 0}


def _wait_for(what, cond, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.2)
    raise AssertionError("timed out waiting for " + what)


@needs_cluster
def test_a_restart_starts_from_the_controller_snapshot_and_a_damaged_one_is_ignored():
    from confluent_kafka.admin import AdminClient, NewTopic
    c = cluster.Cluster(3, name="ctlsnap")
    try:
        c.start()
        keep = [harness.unique_topic("keep%d" % i) for i in range(4)]
        for t in keep:
            c.create_topic(t, 2, full_isr=True)
        gone = harness.unique_topic("gone")
        c.create_topic(gone, 2, full_isr=True)
        victim = c.node(3)
        snapshot = victim.data_dir / "controller" / "metadata.snapshot"
        victim.sigterm()
        assert snapshot.is_file(), "no controller snapshot written at a clean stop"

        admin = AdminClient({"bootstrap.servers": c.node(1).bootstrap})
        admin.delete_topics([gone], operation_timeout=20)[gone].result(timeout=30)
        born = harness.unique_topic("born")
        admin.create_topics([NewTopic(born, 1, 3)])[born].result(timeout=30)

        c.start_node(3)
        assert "controller state loaded from its snapshot" in _last_log(victim)
        want = set(keep) | {born}
        _wait_for("node 3 to list the topics",
                  lambda: _topics_seen_by(c, 3, keep + [born, gone]) == want)
        _wait_for("node 3 to remove the deleted topic and open the new one",
                  lambda: not cluster.partition_folders(victim, gone) and len(cluster.partition_folders(victim, born)) == 1)
        for t in keep:
            assert len(cluster.partition_folders(victim, t)) == 2, (t, cluster.partition_folders(victim, t))

        # A damaged snapshot: ignored, the whole log applied instead.
        other = c.node(2)
        damaged = other.data_dir / "controller" / "metadata.snapshot"
        other.sigterm()
        data = bytearray(damaged.read_bytes())
        data[len(data) // 2] ^= 0x55
        damaged.write_bytes(bytes(data))
        c.start_node(2)
        assert "controller snapshot is damaged and ignored" in _last_log(other)
        _wait_for("node 2 to list the topics",
                  lambda: _topics_seen_by(c, 2, keep + [born, gone]) == want)
        # Its next clean stop writes a good one again.
        other.sigterm()
        c.start_node(2)
        assert "controller state loaded from its snapshot" in _last_log(other)
        _wait_for("node 2 to list the topics after the second restart",
                  lambda: _topics_seen_by(c, 2, keep + [born, gone]) == want)
    finally:
        c.close()
