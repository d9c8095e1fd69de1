"""Share groups (KIP-932) as a work queue under faults (workqueue.py): a
producer writes records with unique ids to a topic with 3 partitions, three
share consumers (separate processes, explicit acknowledgement, ~1% of the
ids rejected into a dead-letter topic) accept everything and log each
acceptance only once commit_sync answered it; then every id must have been
accepted or dead-lettered, no id accepted twice nor given again after its
acceptance, and whatever a killed consumer held must come back (after the
3 s lock) to another consumer.

In CI: single node, a consumer killed and the broker kill -9'd; three
brokers, every broker restarted, a share-partition leader kill -9'd, and
every broker restarted again; and the crash window between a dead letter
and its archive, made certain by freezing the share coordinators. The other three-broker scenarios (a consumer kill -9'd with the
leader, the state partition's leader kill -9'd, rolling restarts, and
random mixes of all of them) are in the randomized soak, outside CI
(`python3 conformance/workqueue_soak.py --seeds N [--kinds ...]`). Each
prints a summary line (delivery counts, dead-letter reasons, what came
back).
"""

import os
import time

import pytest
from confluent_kafka import (AcknowledgeType, Consumer, KafkaException, Producer, ShareConsumer,
                             TopicPartition)

import cluster
import harness
import rawkafka
import workqueue

# Mostly waiting on acquisition locks (one small cluster at a time): run
# alongside the rest of the suite.
pytestmark = pytest.mark.waits

SETTINGS = {
    "group.share.min.record.lock.duration.ms": 1000,
    "group.share.record.lock.duration.ms": 3000,
    "group.share.heartbeat.interval.ms": 1000,
    "group.share.session.timeout.ms": 6000,
    "share.coordinator.state.topic.num.partitions": 3,
    "offsets.topic.num.partitions": 3,
}

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())


def _run(c, name, faults, count, progress, **kw):
    run = workqueue.Run(c, harness.unique_topic(name), count=count, **kw)
    try:
        run.start()
        for f, at in zip(faults, progress):
            run.wait_accepted(at, timeout=60)
            run.fault(f, down_s=2.0)
        res = run.finish()
    finally:
        workqueue.stop_consumers(run)
    res.assert_ok()
    assert res.produced == count
    return res


@pytest.fixture
def make_cluster(request):
    made = []

    def make(size, settings=None, **kw):
        c = cluster.Cluster(size, settings={**SETTINGS, **(settings or {})},
                            name=request.node.name, **kw)
        made.append(c)
        c.start()
        return c
    yield make
    for c in made:
        c.close()


def test_single_node_consumer_kill_and_broker_kill9(make_cluster):
    c = make_cluster(1, single_node=True)
    # The broker kill comes first: records of a consumer killed less than
    # a lock duration before a broker kill -9 were seen stranded (issue 17's
    # notes; the soak covers that order).
    res = _run(c, "wq1", ["kill9-broker", "kill-consumer"], count=600, progress=[100, 300],
               consumers=2, produce_s=3.0, timeout_s=60)
    assert res.killed_held >= 0


@needs_cluster
def test_three_nodes_restart_all_share_leader_kill9_restart_all(make_cluster):
    # Before the share-partition start retried an unavailable coordinator
    # and failed acknowledgements were put back, a full restart left
    # clients spinning on COORDINATOR_NOT_AVAILABLE and records
    # undelivered past the checker's patience (issue 17's notes).
    c = make_cluster(3)
    _run(c, "wq3", ["restart-all", "kill-share-leader", "restart-all"], count=1200,
         progress=[200, 500, 800], consumers=3, produce_s=4.0, timeout_s=120)


def _set_group_configs(bootstrap, group, configs):
    with rawkafka.KafkaConn(bootstrap) as conn:
        r = conn.request(44, 1, {  # IncrementalAlterConfigs on a GROUP resource
            "Resources": [{"ResourceType": 32, "ResourceName": group, "Configs": [
                {"Name": k, "ConfigOperation": 0, "Value": str(v)} for k, v in configs.items()]}],
            "ValidateOnly": False})
    assert r["Responses"][0]["ErrorCode"] == 0, r


def _share_coordinator(c):
    """Creates `__share_group_state` (some share group's first fetch does)
    and returns the leader of its partition 0 once settled."""
    warm = harness.unique_topic("warm")
    c.create_topic(warm, 1)
    w = ShareConsumer({"bootstrap.servers": c.bootstrap, "group.id": "g-" + warm})
    w.subscribe([warm])
    try:
        deadline = time.monotonic() + 30
        while (time.monotonic() < deadline
               and c.partition_state("__share_group_state", 0, {}) is None):
            w.poll(0.2)
    finally:
        w.close()
    return c.settled_leader("__share_group_state", 0)


def _poll_values(consumer, want, timeout_s):
    """Polls until the values in `want` were all given, or the time is up;
    returns {value: message} of everything given."""
    got = {}
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not want <= set(got):
        for m in consumer.poll(0.2):
            if not m.error():
                got[m.value()] = m
    return got


@needs_cluster
def test_a_dead_letter_written_before_a_crash_is_not_written_again(make_cluster):
    """The crash window between a dead letter and its archive: a rejection's
    dead letter is written, the state write that would archive the record
    is refused (the share coordinator has too few in-sync replicas, so
    nothing of it is written), and the share-partition leader is killed -9
    before it writes anything else. The restarted leader reads the
    dead-letter partition from the share-partition's fence, archives the
    record, and neither delivers it again nor dead-letters it twice.
    Before the fence, the record came back to the next consumer."""
    # One state partition on two brokers (min.insync.replicas 2): the
    # third broker leads the share-partition and the dead-letter topic.
    c = make_cluster(3, settings={"share.coordinator.state.topic.num.partitions": 1,
                                  "share.coordinator.state.topic.replication.factor": 2})
    topic = harness.unique_topic("dlq-crash")
    dlq = "dlq." + topic
    group = "g-" + topic
    coordinator = _share_coordinator(c)
    state_replicas = c.replicas_of("__share_group_state", 0)
    assert len(state_replicas) == 2, state_replicas
    follower = next(n for n in state_replicas if n != coordinator)
    leader = next(n for n in (1, 2, 3) if n not in state_replicas)
    # The topic and its dead-letter topic on `leader` alone.
    c.create_placed(topic, [[leader]])
    c.create_placed(dlq, [[leader]])
    b = c.node(leader).bootstrap
    # A lock longer than the wait for the ISR below: b stays acquired by
    # the first consumer until its rejection.
    _set_group_configs(b, group, {"share.auto.offset.reset": "earliest",
                                  "errors.deadletterqueue.topic.name": dlq,
                                  "share.record.lock.duration.ms": 60000})
    # One batch: the share fetch acquires it whole, so one poll gives both
    # (an explicit-mode consumer may not poll again before acknowledging).
    p = Producer({"bootstrap.servers": b, "acks": "all", "linger.ms": 100})
    for v in (b"a", b"b"):
        p.produce(topic, value=v, partition=0)
    assert p.flush(10) == 0

    first = ShareConsumer({"bootstrap.servers": b, "group.id": group,
                           "share.acknowledgement.mode": "explicit"})
    first.subscribe([topic])
    try:
        got = _poll_values(first, {b"a", b"b"}, 30)
        assert set(got) == {b"a", b"b"}, got
        # a: dead-lettered and archived (this also stores the fence).
        first.acknowledge(got[b"a"], AcknowledgeType.REJECT)
        assert all(v is None for v in first.commit_sync(15).values())
        # b: dead-lettered, but its archive is refused: the state
        # partition's follower is frozen until the coordinator refuses
        # writes (its follower out of the ISR, or its leadership lost
        # with the quorum) instead of holding them, so nothing reaches its
        # log to be committed later.
        c.sigstop(follower)

        def refusing():
            v = c.partition_views("__share_group_state", 0).get(coordinator)
            return v is not None and (v["LeaderId"] != coordinator
                                      or follower not in v["IsrNodes"])
        harness.wait_until(refusing, timeout=40, interval=0.5,
                           what="the share coordinator to refuse writes")
        first.acknowledge(got[b"b"], AcknowledgeType.REJECT)
        try:
            answer = first.commit_sync(60)
            failed = any(v is not None for v in answer.values())
        except KafkaException:
            failed = True
        assert failed, "the rejection of b was answered although its state cannot be written"
        c.kill9(leader)
    finally:
        c.sigcont(follower)
    c.start_node(leader)
    try:
        first.close()
    except KafkaException:
        pass

    # c comes after b: a consumer given c would have been given b first
    # (b's lock died with its leader) had b not been archived.
    p = Producer({"bootstrap.servers": b, "acks": "all", "linger.ms": 0})
    p.produce(topic, value=b"c", partition=0)
    assert p.flush(30) == 0
    second = ShareConsumer({"bootstrap.servers": b, "group.id": group})
    second.subscribe([topic])
    try:
        again = _poll_values(second, {b"c"}, 45)
        # Past the 3 s lock, for anything held back.
        again.update(_poll_values(second, {b"never"}, 4))
    finally:
        second.close()
    assert b"c" in again, "the share consumer got nothing after the restart: %s" % again
    assert b"b" not in again, "b was delivered again after its dead letter was written"
    assert b"a" not in again

    reader = Consumer({"bootstrap.servers": c.bootstrap, "group.id": "dlq-crash-reader",
                       "auto.offset.reset": "earliest", "enable.auto.commit": False})
    reader.assign([TopicPartition(dlq, 0, 0)])
    letters = []
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and len(letters) < 3:
            m = reader.poll(0.5)
            if m is not None and not m.error():
                letters.append({k: v.decode() for k, v in m.headers()})
            elif m is None and len(letters) >= 2:
                break
    finally:
        reader.close()
    offsets = sorted(int(h["__dlq.errors.offset"]) for h in letters)
    assert offsets == [0, 1], letters


@needs_cluster
def test_offsets_of_an_empty_share_group_are_described_from_any_coordinator(make_cluster):
    """DescribeShareGroupOffsets without topics at a group coordinator that
    neither holds the group's share state nor leads its partition: the
    partition is listed (its state is at a peer's share coordinator) with
    its lag against the leader's high watermark. Before, an empty group's
    state at a peer was not found (GROUP_ID_NOT_FOUND) and the lag of a
    partition led elsewhere was -1. DeleteGroups then deletes that state
    at the peer too."""
    c = make_cluster(3, settings={"share.coordinator.state.topic.num.partitions": 1})
    state_leader = _share_coordinator(c)
    group = next(g for g in ("g-desc-%d-%d" % (os.getpid(), i) for i in range(200))
                 if c.coordinator_of(g) != state_leader)
    coordinator = c.coordinator_of(group)
    partition_leader = next(n for n in (1, 2, 3) if n != coordinator)
    topic = harness.unique_topic("share-desc")
    c.create_placed(topic, [[partition_leader]])
    _set_group_configs(c.node(coordinator).bootstrap, group, {"share.auto.offset.reset": "earliest"})
    p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 50})
    for i in range(6):
        p.produce(topic, value=b"r%d" % i, partition=0)
    assert p.flush(10) == 0
    consumer = ShareConsumer({"bootstrap.servers": c.bootstrap, "group.id": group})
    consumer.subscribe([topic])
    try:
        got = _poll_values(consumer, {b"r%d" % i for i in range(6)}, 30)
        assert len(got) == 6, got
        consumer.poll(0.5)  # implicit acceptance of what was given
    finally:
        consumer.close()
    for i in range(3):
        p.produce(topic, value=b"s%d" % i, partition=0)
    assert p.flush(10) == 0

    def described():
        with rawkafka.KafkaConn(c.node(coordinator).bootstrap) as k:
            r = k.request(90, 1, {"Groups": [{"GroupId": group, "Topics": None}]})
        return r["Groups"][0]
    last = {}

    def listed_with_lag():
        last["group"] = g = described()
        parts = [(t["TopicName"], q["PartitionIndex"], q["StartOffset"], q["Lag"])
                 for t in g["Topics"] for q in t["Partitions"]]
        return g["ErrorCode"] == 0 and parts == [(topic, 0, 6, 3)]
    try:
        harness.wait_until(listed_with_lag, timeout=15, interval=0.5,
                           what="the group's partition with start 6 and lag 3")
    except AssertionError:
        raise AssertionError("DescribeShareGroupOffsets at broker %d (state at %d, partition "
                             "led by %d): %s" % (coordinator, state_leader, partition_leader,
                                                 last.get("group")))
    # DeleteGroups deletes the state at the peer too: nothing is left to
    # describe anywhere.
    with rawkafka.KafkaConn(c.node(coordinator).bootstrap) as k:
        r = k.request(42, 2, {"GroupsNames": [group]})
    assert r["Results"][0]["ErrorCode"] == 0, r
    assert described()["ErrorCode"] == 69  # GROUP_ID_NOT_FOUND
