"""ElectLeaders on a 3-broker cluster, through confluent-kafka's
AdminClient.elect_leaders (what kafka-leader-election.sh sends), with the
automatic rebalance off so that only the request moves leaders back: a
broker restarted by kill -9 loses its leaderships, ElectLeaders(PREFERRED)
gives each partition back to its first replica while a keyed acks=all
producer runs (the checker then finds every acknowledged record), a
partition already led by its preferred replica answers
ELECTION_NOT_NEEDED, an unknown one UNKNOWN_TOPIC_OR_PARTITION, an unclean
election of a partition that has a leader ELECTION_NOT_NEEDED, and the
all-partitions form (no list) leaves out those that need nothing.
"""

import time

import pytest

import checker
import cluster
import harness

pytestmark = pytest.mark.cluster

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())

PARTITIONS = 3


def _leaders(c, topic):
    return {p: c.leader_of(topic, p, timeout=30.0) for p in range(PARTITIONS)}


def _elect(bootstrap, election_type, partitions):
    from confluent_kafka.admin import AdminClient
    admin = AdminClient({"bootstrap.servers": bootstrap})
    # (confluent-kafka 2.16 refuses the timeout keyword arguments)
    fut = admin.elect_leaders(election_type, partitions)
    return fut.result(timeout=60)


def _code(err):
    """The Kafka error name of one partition's result (None: success)."""
    if err is None:
        return None
    if hasattr(err, "name"):  # a KafkaError
        return err.name()
    return err.args[0].name()  # a KafkaException


@needs_cluster
def test_elect_preferred_leaders_on_request():
    from confluent_kafka import ElectionType, TopicPartition
    c = cluster.Cluster(3, name="elect", settings={
        "group.initial.rebalance.delay.ms": "100",
        "auto.leader.rebalance.enable": "false",
    })
    run = None
    try:
        c.start()
        topic = harness.unique_topic("elect")
        c.create_topic(topic, PARTITIONS, full_isr=True)
        preferred = {p: c.replicas_of(topic, p)[0] for p in range(PARTITIONS)}
        run = checker.Run(c.bootstrap, topic, PARTITIONS, "3x-elect-leaders")
        run.start()
        run.load.wait_acks(500, timeout=60)

        # The preferred leader of partition 0 restarts: its partitions move.
        victim = preferred[0]
        t = run.fault("kill9-preferred-leader", c.kill9(victim), partition=0)
        c.leader_of(topic, 0, timeout=30.0, exclude=[victim])
        run.load.wait_acks(200, after=t, timeout=30)
        c.start_node(victim)
        # A leader counts a follower in sync for up to 10 s after its last
        # acknowledgement (Kafka's replica.lag.time.max.ms, 30 s there), so
        # right after a restart the in-sync set may still show the victim
        # from before its death: only from 10 s after the kill on does it
        # mean the restarted replica caught up. (Electing earlier could
        # meet PREFERRED_LEADER_NOT_AVAILABLE, as Kafka would.)
        time.sleep(max(0.0, t + 11.0 - time.time()))
        harness.wait_until(
            lambda: all(victim in ((c.partition_state(topic, p) or {}).get("IsrNodes") or [])
                        for p in range(PARTITIONS)),
            timeout=30, interval=0.2, what="broker %d back in every ISR" % victim)
        time.sleep(1.0)
        before = _leaders(c, topic)
        moved = [p for p in range(PARTITIONS) if before[p] != preferred[p]]
        assert 0 in moved, "with the rebalance off, partition 0 stays away: %r" % before

        t = run.fault("elect-leaders", time.time(), partition=0)
        asked = [TopicPartition(topic, p) for p in range(PARTITIONS)]
        asked.append(TopicPartition(topic, PARTITIONS + 5))
        res = _elect(c.bootstrap, ElectionType.PREFERRED, asked)
        got = {(tp.topic, tp.partition): _code(e) for tp, e in res.items()}
        for p in range(PARTITIONS):
            want = None if p in moved else "ELECTION_NOT_NEEDED"
            assert got[(topic, p)] == want, (p, got, before, preferred)
        assert got[(topic, PARTITIONS + 5)] == "UNKNOWN_TOPIC_OR_PART", got  # librdkafka's name
        harness.wait_until(lambda: _leaders(c, topic) == preferred, timeout=10, interval=0.1,
                           what="every partition led by its preferred replica %r" % preferred)
        run.load.wait_acks(200, after=t, timeout=30)

        # Nothing left to do: named partitions say so, "all" lists nothing of this topic.
        res = _elect(c.bootstrap, ElectionType.PREFERRED, [TopicPartition(topic, 1)])
        assert {tp.partition: _code(e) for tp, e in res.items()} == {1: "ELECTION_NOT_NEEDED"}
        res = _elect(c.bootstrap, ElectionType.PREFERRED, None)
        assert not [tp for tp in res if tp.topic == topic], res
        res = _elect(c.bootstrap, ElectionType.UNCLEAN, [TopicPartition(topic, 2)])
        assert {tp.partition: _code(e) for tp, e in res.items()} == {2: "ELECTION_NOT_NEEDED"}
    except BaseException:
        if run is not None:
            run.abort()
            run = None
        raise
    finally:
        try:
            if run is not None:
                run.finish().assert_ok()
        finally:
            c.close()
