"""Partition reassignment on a running cluster, through kafka-python's
KafkaAdminClient (AlterPartitionReassignments and
ListPartitionReassignments, what kafka-reassign-partitions.sh sends),
while a keyed acks=all producer runs.

A fourth broker joins a 3-broker cluster. Bad requests get Kafka's errors.
A reassignment onto the new broker while it is frozen (SIGSTOP) stays in
progress, is listed with its adding and removing replicas, and is
cancelled: the partition keeps its replicas. Then partition 0 moves off
its current leader onto the new broker: the list drains, Metadata shows
the target replicas with all of them in sync, the broker that lost the
replica removes its folder, and, with one of the remaining old replicas
killed, the partition still takes writes and every acknowledged record is
read back (so the new replica holds the data). Retention passes run every
second throughout.
"""

import time

import pytest

import checker
import cluster
import harness
import rawkafka

pytestmark = pytest.mark.cluster

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())

PARTITIONS = 2


def _admin(bootstrap):
    from kafka.admin import KafkaAdminClient
    return KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=30000)


def _alter(admin, moves):
    from kafka import TopicPartition
    res = admin.alter_partition_reassignments(
        {TopicPartition(t, p): r for (t, p), r in moves.items()})
    return {(tp.topic, tp.partition): (None if e is None else e.__name__) for tp, e in res.items()}


def _ongoing(admin, topic):
    from kafka import TopicPartition
    res = admin.list_partition_reassignments(
        [TopicPartition(topic, p) for p in range(PARTITIONS)])
    return {tp.partition: v for tp, v in res.items() if tp.topic == topic}


def _raw_alter(conn, topic, partition, replicas):
    r = conn.request(45, 0, {"TimeoutMs": 30000, "Topics": [
        {"Name": topic, "Partitions": [{"PartitionIndex": partition, "Replicas": replicas}]}]})
    assert r["ErrorCode"] == 0, r
    return r["Responses"][0]["Partitions"][0]["ErrorCode"]


def _raw_ongoing(conn, topic):
    r = conn.request(46, 0, {"TimeoutMs": 30000, "Topics": None})
    assert r["ErrorCode"] == 0, r
    return {p["PartitionIndex"]: p for t in r["Topics"] if t["Name"] == topic
            for p in t["Partitions"]}


def _folders(node, topic, partition):
    logs = node.data_dir / "logs"
    if not logs.is_dir():
        return []
    return sorted(d.name for d in logs.iterdir() if d.name.startswith("%s-%d-" % (topic, partition)))


@needs_cluster
def test_reassign_partitions_onto_a_new_broker_under_load():
    c = cluster.Cluster(3, name="reassign", settings={
        "group.initial.rebalance.delay.ms": "100",
        "auto.leader.rebalance.enable": "false",
        # Retention passes every second: a pass that deletes nothing must
        # leave the Raft log whole, or no new replica could catch up.
        "log.retention.check.interval.ms": "1000",
    })
    run = joiner = admin = None
    try:
        c.start()
        topic = harness.unique_topic("reassign")
        c.create_topic(topic, PARTITIONS, full_isr=True)
        old = {p: c.replicas_of(topic, p) for p in range(PARTITIONS)}
        assert all(sorted(r) == [1, 2, 3] for r in old.values()), old

        joiner = c.join(4, "zone-a")

        run = checker.Run(c.bootstrap, topic, PARTITIONS, "3x-reassign")
        run.start()
        run.load.wait_acks(300, timeout=60)
        admin = _admin(c.bootstrap)

        # Bad requests: Kafka's errors, nothing changes.
        got = _alter(admin, {(topic, 0): [1, 2, 9], (topic, 7): [1, 2, 3]})
        assert got == {(topic, 0): "InvalidReplicationAssignmentError",
                       (topic, 7): "UnknownTopicOrPartitionError"}, got
        got = _alter(admin, {(topic, 1): None})
        assert got == {(topic, 1): "NoReassignmentInProgressError"}, got
        assert _ongoing(admin, topic) == {}

        # Onto a frozen broker: in progress until cancelled. (Sent straight
        # to broker 1: an admin client may pick the frozen broker as its
        # "controller", since every broker names itself, as a KRaft broker
        # names a random live one, and Kafka too counts a frozen broker
        # live until its session times out.)
        c.sigstop(4)
        try:
            keep = old[1][0]  # partition 1's first replica stays; the others make room
            target1 = [keep, 4, [r for r in old[1] if r != keep][0]]
            with rawkafka.KafkaConn(c.node(1).bootstrap) as conn:
                assert _raw_alter(conn, topic, 1, target1) == 0
                time.sleep(2.0)  # several steps of the leader's driver
                ongoing = _raw_ongoing(conn, topic)
                removing = sorted(set(old[1]) - set(target1))
                assert list(ongoing) == [1], ongoing
                assert ongoing[1]["AddingReplicas"] == [4], ongoing
                assert ongoing[1]["RemovingReplicas"] == removing, ongoing
                assert ongoing[1]["Replicas"] == target1 + removing, ongoing
                assert c.replicas_of(topic, 1) == target1 + removing
                assert _raw_alter(conn, topic, 1, None) == 0
                assert _raw_ongoing(conn, topic) == {}
            harness.wait_until(lambda: c.replicas_of(topic, 1) == old[1], timeout=10,
                               interval=0.2, what="partition 1 back on %r" % old[1])
        finally:
            c.sigcont(4)
        # The cancelled replica is removed from the new broker too.
        harness.wait_until(lambda: _folders(joiner, topic, 1) == [], timeout=30, interval=0.2,
                           what="broker 4 to remove its replica of partition 1")

        # Partition 0 moves off its leader onto the new broker.
        leader = c.leader_of(topic, 0, timeout=30.0)
        target0 = [4] + [r for r in old[0] if r != leader]
        t = run.fault("reassign-off-the-leader", partition=0)
        assert _alter(admin, {(topic, 0): target0}) == {(topic, 0): None}
        harness.wait_until(lambda: _ongoing(admin, topic) == {}, timeout=90, interval=0.5,
                           what="the reassignment of partition 0 to finish")

        def moved():
            st = c.partition_state(topic, 0) or {}
            return (st.get("ReplicaNodes") == target0 and sorted(st.get("IsrNodes") or [])
                    == sorted(target0) and st.get("LeaderId") in target0)
        harness.wait_until(moved, timeout=30, interval=0.2,
                           what="partition 0 on %r, all in sync" % target0)
        harness.wait_until(lambda: _folders(c.node(leader), topic, 0) == [], timeout=30,
                           interval=0.2, what="broker %d to remove its replica" % leader)
        assert _folders(joiner, topic, 0), "broker 4 holds partition 0"
        run.load.wait_acks(200, after=t, timeout=60)

        # The new replica carries the data: with one of the others gone,
        # the partition is still written and everything reads back.
        victim = [r for r in target0 if r != 4][0]
        t = run.fault("kill9-old-replica", c.kill9(victim), partition=0)
        c.leader_of(topic, 0, timeout=30.0, exclude=[victim])
        run.load.wait_acks(200, after=t, timeout=60)
    except BaseException:
        if run is not None:
            run.abort()
            run = None
        raise
    finally:
        try:
            if admin is not None:
                admin.close()
            if run is not None:
                run.finish().assert_ok()
        finally:
            c.close()
