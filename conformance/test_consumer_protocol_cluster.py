"""KIP-848 consumer groups across a coordinator move (three brokers).

A group's target assignment is computed against the subscribed topics'
partitions; the coordinator writes a fingerprint of them with the group
epoch (Kafka 4.1's MetadataHash). Partitions added while the group's
coordinator has not acted on them must still reach the members once another
broker loads the group: the loading broker compares the fingerprint with
the metadata it loads against and bumps the group epoch.

A coordinator notices added partitions only at a heartbeat. The members
here are raw ConsumerGroupHeartbeat requests, so the test decides when
they heartbeat: none between adding the partitions and killing the
coordinator, which makes "added while no coordinator acted on them"
deterministic (a frozen coordinator, by contrast, loses its partitions'
leadership within the ~3 s election timeout, racing the addition).
"""

import os
import time

import pytest

import cluster
import harness
import rawkafka

pytestmark = pytest.mark.cluster

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())

API_CG_HEARTBEAT = 68
# COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR
COORDINATOR_MOVED = (14, 15, 16)


def _hb(conn, group, member, epoch, topics=None, owned=None):
    return conn.request(API_CG_HEARTBEAT, 0, {
        "GroupId": group, "MemberId": member, "MemberEpoch": epoch, "InstanceId": None,
        "RackId": None, "RebalanceTimeoutMs": 30000 if epoch == 0 else -1,
        "SubscribedTopicNames": topics, "ServerAssignor": None,
        "TopicPartitions": owned})


@needs_cluster
def test_kip848_partitions_added_before_a_coordinator_move_are_assigned():
    """Two members share four partitions; two partitions are added and,
    before any member heartbeats again, the group's coordinator is killed
    -9: once another broker has loaded the group, the members are given
    all six partitions. Before the fingerprint was persisted, the loading
    broker took the six partitions as what the target had been computed
    against, and partitions 4 and 5 stayed unassigned (checked against
    that build: assignments stayed at four partitions)."""
    from confluent_kafka.admin import AdminClient, NewPartitions
    c = cluster.Cluster(3, name="cg-move", settings={
        "broker.session.timeout.ms": "3000",
        "group.initial.rebalance.delay.ms": "0",
        "offsets.topic.num.partitions": "1",
    })
    conn = None
    try:
        c.start()
        group = "cg-move-%d" % os.getpid()
        coord = c.coordinator_of(group)
        others = [n for n in (1, 2, 3) if n != coord]
        topic = harness.unique_topic("cgmove")
        c.create_placed(topic, [[others[i % 2]] for i in range(4)])
        with rawkafka.KafkaConn(c.node(others[0]).bootstrap) as m:
            m.api_versions()
            topic_id = m.metadata([topic], version=12)["Topics"][0]["TopicId"]
        members = {}  # name -> [member id, epoch, sorted partitions]

        def settle(want, what, timeout):
            """Heartbeat every member (finding the coordinator again when
            it moved) until they hold `want` between them, each some."""
            nonlocal conn
            deadline = time.monotonic() + timeout
            for _ in range(100000):
                got = {n: m[2] for n, m in members.items()}
                if (len(members) == 2 and all(got.values())
                        and sorted(p for ps in got.values() for p in ps) == want):
                    return got
                assert time.monotonic() < deadline, "%s: assignments %s" % (what, got)
                try:
                    if conn is None:
                        conn = rawkafka.KafkaConn(c.node(c.coordinator_of(group)).bootstrap)
                        conn.api_versions()
                    for n in ("a", "b"):
                        m = members.get(n)
                        if m is None:
                            r = _hb(conn, group, "", 0, topics=[topic])
                        else:
                            owned = [{"TopicId": topic_id, "Partitions": m[2]}] if m[2] else []
                            r = _hb(conn, group, m[0], m[1], owned=owned)
                        if r["ErrorCode"] in COORDINATOR_MOVED:
                            raise ConnectionError("coordinator moved: %s" % r["ErrorCode"])
                        assert r["ErrorCode"] == 0, r
                        if m is None:
                            m = members[n] = [r["MemberId"], r["MemberEpoch"], []]
                        m[1] = r["MemberEpoch"]
                        if r["Assignment"] is not None:
                            m[2] = sorted(p for tp in r["Assignment"]["TopicPartitions"]
                                          for p in tp["Partitions"])
                except (OSError, ConnectionError, rawkafka.ConnectionClosed):
                    # The killed coordinator, until Metadata names another.
                    if conn is not None:
                        conn.close()
                    conn = None
                time.sleep(0.2)

        settle(list(range(4)), "two members sharing four partitions", 40)
        epoch = max(m[1] for m in members.values())

        # No heartbeat from here to the kill: the coordinator never
        # compares the group with the added partitions.
        admin = AdminClient({"bootstrap.servers": c.node(others[0]).bootstrap})
        fut = admin.create_partitions(
            [NewPartitions(topic, 6, replica_assignment=[[others[0]], [others[1]]])],
            request_timeout=30)
        fut[topic].result(timeout=40)
        for p in (4, 5):
            c.leader_of(topic, p)
        conn.close()
        conn = None
        c.kill9(coord)

        got = settle(list(range(6)), "members given the partitions added before the move", 45)
        assert c.coordinator_of(group) in others
        assert sorted(len(ps) for ps in got.values()) == [3, 3], got
        assert min(m[1] for m in members.values()) > epoch
    finally:
        if conn is not None:
            conn.close()
        c.close()
