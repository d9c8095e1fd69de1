"""A follower behind its leader's purge point catches up by a log reset.

Retention deletes the start of a partition's log while all three replicas
are in sync, so the leader releases that part of its Raft log. Then a
follower's data folder is wiped: the entries it needs from the beginning
are gone from the leader's Raft log, and it can only catch up by taking
the leader's log from its log start (Kafka's truncateFullyAndStartAt).

The test proves the wiped replica holds the data afterwards, not just that
it answers: the third replica is killed, so every acks=all write needs the
wiped one; then the leader is killed and the third replica comes back, so
the wiped one must lead (only it has the latest writes). Every record the
producer had acknowledged, from the new leader's log start on, is read
back from it, and the log start is where retention left it. On the way,
the killed broker is fenced (left out of Metadata, listed fenced by
DescribeCluster v2 when asked, given no new replicas: a topic with
replication factor 3 is refused with INVALID_REPLICATION_FACTOR) and
unfenced when it comes back.
"""

import time

import pytest

import clients
import cluster
import harness
import rawkafka

pytestmark = pytest.mark.cluster

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())


def _produce(c, topic, first, n):
    msgs = [{"key": b"k%d" % (i % 7), "value": b"v%06d-" % i + b"x" * 200}
            for i in range(first, first + n)]
    acked = clients.confluent_produce(c.bootstrap, topic, msgs, partition=0,
                                      conf={"enable.idempotence": True, "batch.size": 4000},
                                      timeout=60)
    return {off: m["value"] for (_, off), m in zip(acked, msgs)}


def _earliest(c, node_id, topic):
    with c._conn(node_id) as conn:
        r = conn.list_offset(topic, 0, rawkafka.EARLIEST)
    assert r["ErrorCode"] == 0, r
    return r["Offset"]


@needs_cluster
def test_wiped_follower_resets_its_log_after_retention():
    c = cluster.Cluster(3, name="reset", settings={
        "log.retention.check.interval.ms": "500",
        "auto.leader.rebalance.enable": "false",
    })
    try:
        c.start()
        topic = harness.unique_topic("reset")
        c.create_topic(topic, 1, full_isr=True,
                       configs={"internal.segment.bytes": "16384", "retention.bytes": "49152",
                                "max.message.bytes": "8192"})
        acked = _produce(c, topic, 0, 600)
        leader = c.leader_of(topic, 0)
        wiped, third = [r for r in c.replicas_of(topic, 0) if r != leader]
        # Retention deletes whole segments once all three have them.
        harness.wait_until(lambda: _earliest(c, leader, topic) > 0, timeout=30, interval=0.3,
                           what="retention to move the log start")
        start_before = _earliest(c, leader, topic)

        c.wipe(wiped)
        acked.update(_produce(c, topic, 600, 100))
        # With the third replica gone, every commit needs the wiped one.
        c.kill9(third)
        acked.update(_produce(c, topic, 700, 100))
        # Now only the wiped replica has the newest writes: it must lead.
        c.kill9(leader)
        c.start_node(third, rejoin_timeout=None)
        assert c.leader_of(topic, 0, timeout=30, exclude=[leader, third]) == wiped
        acked.update(_produce(c, topic, 800, 50))

        # The dead broker is fenced once the controller has not heard from
        # it for broker.session.timeout.ms (9 s): Metadata leaves it out and
        # names its replica offline; DescribeCluster v2 lists it, fenced,
        # only when asked to.
        harness.wait_until(lambda: (c.brokers_seen_by(wiped) or [leader]) == sorted([wiped, third]),
                           timeout=30, interval=0.3, what="broker %d to be fenced" % leader)
        md = c.metadata([topic], wiped)
        assert md["Topics"][0]["Partitions"][0]["OfflineReplicas"] == [leader], md
        with c._conn(wiped) as conn:
            body = {"IncludeClusterAuthorizedOperations": False, "EndpointType": 1}
            r = conn.request(60, 2, dict(body, IncludeFencedBrokers=True))
            assert sorted((b["BrokerId"], b["IsFenced"]) for b in r["Brokers"]) == \
                sorted([(wiped, False), (third, False), (leader, True)]), r
            r = conn.request(60, 2, dict(body, IncludeFencedBrokers=False))
            assert sorted(b["BrokerId"] for b in r["Brokers"]) == sorted([wiped, third]), r
            # New replicas go to unfenced brokers only, as in Kafka: three
            # cannot be placed, two can, away from the fenced broker.
            t3, t2 = topic + "-rf3", topic + "-rf2"
            res, _ = conn.create_topics([{"Name": t3, "NumPartitions": 1, "ReplicationFactor": 3}])
            assert res[t3]["ErrorCode"] == rawkafka.INVALID_REPLICATION_FACTOR, res
            assert "unfenced" in (res[t3].get("ErrorMessage") or ""), res
            res, _ = conn.create_topics([{"Name": t2, "NumPartitions": 4, "ReplicationFactor": 2}])
            assert res[t2]["ErrorCode"] == 0, res
        for p in range(4):
            assert sorted(c.replicas_of(t2, p)) == sorted([wiped, third]), (p, c.replicas_of(t2, p))

        start = _earliest(c, wiped, topic)
        assert start >= start_before, (start, start_before)
        end = c.high_watermark(topic, 0)
        assert end == max(acked) + 1, (end, max(acked))
        want = {o: v for o, v in acked.items() if o >= start}
        got = clients.confluent_consume(c.bootstrap, topic, [0], len(want), timeout=60,
                                        start_offsets={0: start})
        assert {m["offset"]: m["value"] for m in got} == want
        # Back: unfenced (start_node waits until it lists all three, and
        # the others list it again).
        c.start_node(leader)
        harness.wait_until(lambda: c.brokers_seen_by(wiped) == [1, 2, 3], timeout=30,
                           interval=0.3, what="broker %d to be unfenced" % leader)
    finally:
        c.close()


@needs_cluster
def test_a_restarted_broker_lists_itself_only_once_its_view_has_it_unfenced():
    """A broker the controller fenced while it was down replays that
    fencing on restart before its new registration reaches it. Its
    Metadata must not list itself meanwhile (Kafka lists its metadata
    image's unfenced brokers, itself included): it did, so a client or a
    test waiting for "every broker lists every broker" took it as back,
    and a CreateTopics at replication factor 3 sent to it was refused
    with INVALID_REPLICATION_FACTOR ("1 fenced") for up to seconds (2 of
    6 restarts before the fix; a conformance flake in CI). Here: from the
    moment the restarted broker answers, whenever its Metadata lists all
    three brokers, a CreateTopics at replication factor 3 through it
    succeeds."""
    c = cluster.Cluster(3, name="refence", settings={
        "broker.session.timeout.ms": "3000",
        "auto.leader.rebalance.enable": "false",
    })
    try:
        c.start()
        for victim in (1, 2, 3):
            others = [b for b in c.nodes if b != victim]
            c.kill9(victim)
            harness.wait_until(
                lambda: all(c.brokers_seen_by(b) == others for b in others),
                timeout=30, interval=0.2, what="broker %d to be fenced" % victim)
            node = c.nodes[victim]
            node.start(wait=False)
            created = 0
            deadline = time.monotonic() + 60
            while created < 3 and time.monotonic() < deadline:
                conn = cluster._conn_quiet(node.bootstrap, 15.0)
                if conn is None:
                    time.sleep(0.02)
                    continue
                with conn:
                    listed = sorted(b["NodeId"] for b in conn.metadata([])["Brokers"])
                    assert victim not in listed or listed == [1, 2, 3], listed
                    if listed != [1, 2, 3]:
                        continue
                    topic = harness.unique_topic("refence")
                    res, _ = conn.create_topics([{"Name": topic, "NumPartitions": 1,
                                                  "ReplicationFactor": 3}], timeout_ms=10000)
                    assert res[topic]["ErrorCode"] == 0, (victim, res[topic])
                    created += 1
            assert created == 3, "broker %d never listed all three brokers" % victim
            c.wait_rejoined(victim)
    finally:
        c.close()
