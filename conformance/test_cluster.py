"""Cluster mode under faults: 3 (and 5) brokers on 127.0.0.1, a keyed
acks=all producer and a consumer running throughout, one fault per test,
then checker.check(): every acknowledged record at its acknowledged offset,
per-key order, nothing a consumer read is lost later.

First, the cluster's shape: Metadata lists every broker with its rack,
replication factor 3 by default on distinct racks, 2 when asked, a
follower answers a produce with NOT_LEADER_OR_FOLLOWER.

Scenarios (3 brokers unless said): kill -9 the leader of the busiest
partition and restart it (idempotent producer, and without idempotence);
SIGSTOP the leader for 5 s (past the ~3 s election timeout) and SIGCONT;
kill -9 every broker and start them all; kill a follower, wipe its data
directory, bring it back (then kill the leader, so the wiped replica's copy
counts); 5 brokers: kill -9 the leader; a consumer group's committed
offsets survive a kill -9 of its coordinator. Each prints a summary line
(scenario, acked, errors, observed-during, window_s: the write
unavailability around the fault), also appended to $TIDEMARK_CLUSTER_REPORT.
Timings are reported, never asserted; the assertions are on data.

The cluster tests are skipped when the binary's --help has no --seeds.
test_single_node_kill9_checker runs the same checker against one broker
(kill -9, restart) and needs no cluster mode.
"""

import time

import pytest

import checker
import clients
import cluster
import harness
import rawkafka

pytestmark = pytest.mark.cluster

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())

CLUSTER_SETTINGS = {"group.initial.rebalance.delay.ms": "100"}

PARTITIONS = 6
WARMUP_ACKS = 1500  # acknowledged before the fault
RESUME_ACKS = 300  # acknowledged after the fault / the heal
RESUME_TIMEOUT = 30.0  # writes must resume within this (generous) bound
SIGSTOP_SECONDS = 5.0  # longer than the ~3 s election timeout


def _start_cluster(size, name, **kw):
    c = cluster.Cluster(size, settings=CLUSTER_SETTINGS, name=name, **kw)
    try:
        c.start()
    except BaseException:
        try:
            c.close(keep_data=True)
        except harness.BrokerError:
            pass
        raise
    return c


@pytest.fixture
def cluster3(request):
    c = _start_cluster(3, request.node.name)
    yield c
    c.close()


@pytest.fixture
def cluster5(request):
    c = _start_cluster(5, request.node.name)
    yield c
    c.close()


def _since(t0):
    return "%.3f" % (time.time() - t0)


def _begin(c, scenario, idempotence=True, partitions=PARTITIONS):
    topic = harness.unique_topic(scenario)
    c.create_topic(topic, partitions, full_isr=not c.single_node)
    run = checker.Run(c.bootstrap, topic, partitions, scenario, idempotence=idempotence)
    run.start()
    run.load.wait_acks(WARMUP_ACKS, timeout=60)
    return run


def _wait_in_isr(c, run, topic, partition, node_id, since, timeout=30.0):
    """Note how long until node_id is back in the partition's ISR (reported only)."""
    try:
        harness.wait_until(
            lambda: node_id in ((c.partition_state(topic, partition) or {}).get("IsrNodes") or []),
            timeout=timeout, interval=0.2, what="node %d back in the ISR" % node_id)
        run.notes.append("rejoin_isr_s=%s" % _since(since))
    except AssertionError:
        run.notes.append("rejoin_isr_s=none(>%.0fs)" % timeout)


def _kill_leader_scenario(c, scenario, idempotence=True):
    run = _begin(c, scenario, idempotence)
    try:
        p = run.load.busiest_partition()
        leader = c.leader_of(run.topic, p)
        t = run.fault("kill9-leader", c.kill9(leader), partition=p)
        new_leader = c.leader_of(run.topic, p, timeout=RESUME_TIMEOUT, exclude=[leader])
        run.notes.append("partition=%d leader=%d->%d new_leader_seen_s=%s"
                         % (p, leader, new_leader, _since(t)))
        run.load.wait_acks(RESUME_ACKS, after=t, timeout=RESUME_TIMEOUT)
        t_back = c.start_node(leader)
        run.load.wait_acks(RESUME_ACKS, after=time.time(), timeout=RESUME_TIMEOUT)
        _wait_in_isr(c, run, run.topic, p, leader, t_back)
    except BaseException:
        run.abort()
        raise
    run.finish().assert_ok()


@needs_cluster
def test_metadata_replicas_racks_and_not_leader(cluster3):
    """Every broker lists all three with their racks; a topic created with
    the default replication factor has 3 replicas on distinct racks, all in
    sync, and a leader epoch; replication_factor 2 is honoured; a produce
    sent to a follower gets NOT_LEADER_OR_FOLLOWER."""
    c = cluster3
    racks = {n.node_id: n.rack for n in c.nodes.values()}
    for n in c.nodes.values():
        md = c.metadata([], n.node_id)
        assert {b["NodeId"]: b.get("Rack") for b in md["Brokers"]} == racks, \
            "node %d lists brokers %s" % (n.node_id, md["Brokers"])
    topic = harness.unique_topic("md")
    with rawkafka.KafkaConn(c.nodes[1].bootstrap) as k:
        res, _ = k.create_topics([{"Name": topic, "NumPartitions": 3, "ReplicationFactor": -1}])
        assert res[topic]["ErrorCode"] == 0, res[topic]
    t = c.create_topic(topic, 3, full_isr=True)  # already exists: waits for leaders and ISR
    for p in t["Partitions"]:
        assert len(set(p["ReplicaNodes"])) == 3, p
        assert sorted(p["IsrNodes"]) == sorted(p["ReplicaNodes"]), p
        assert {racks[r] for r in p["ReplicaNodes"]} == set(racks.values()), p
        assert p["LeaderId"] in p["ReplicaNodes"] and p["LeaderEpoch"] >= 0, p
    two = harness.unique_topic("md-rf2")
    t2 = c.create_topic(two, 2, replication_factor=2, full_isr=True)
    assert all(len(set(p["ReplicaNodes"])) == 2 for p in t2["Partitions"]), t2["Partitions"]
    p0 = c.partition_state(topic, 0)
    follower = next(r for r in p0["ReplicaNodes"] if r != p0["LeaderId"])
    with rawkafka.KafkaConn(c.nodes[follower].bootstrap) as k:
        part, _ = k.produce(topic, 0, rawkafka.build_batch([(b"k", b"v", [])]), acks=-1)
    assert part["ErrorCode"] == cluster.NOT_LEADER_OR_FOLLOWER, part
    with rawkafka.KafkaConn(c.nodes[p0["LeaderId"]].bootstrap) as k:
        part, _ = k.produce(topic, 0, rawkafka.build_batch([(b"k", b"v", [])]), acks=-1)
    assert part["ErrorCode"] == 0 and part["BaseOffset"] == 0, part


@needs_cluster
@pytest.mark.parametrize("idempotence", [True, False], ids=["idempotent", "plain"])
def test_kill9_leader_of_busiest_partition(cluster3, idempotence):
    _kill_leader_scenario(cluster3, "3x-kill9-leader-%s" % ("idem" if idempotence else "plain"),
                          idempotence)


@needs_cluster
def test_sigstop_leader_past_election_timeout(cluster3):
    c = cluster3
    run = _begin(c, "3x-sigstop-leader")
    try:
        p = run.load.busiest_partition()
        leader = c.leader_of(run.topic, p)
        t = run.fault("sigstop-leader", c.sigstop(leader), partition=p)
        new_leader = c.leader_of(run.topic, p, timeout=RESUME_TIMEOUT, exclude=[leader])
        run.notes.append("partition=%d leader=%d->%d new_leader_seen_s=%s"
                         % (p, leader, new_leader, _since(t)))
        # the broker stays frozen for SIGSTOP_SECONDS in all (the scenario itself)
        time.sleep(max(0.0, t + SIGSTOP_SECONDS - time.time()))
        t_cont = c.sigcont(leader)
        run.load.wait_acks(RESUME_ACKS, after=max(t, t_cont - SIGSTOP_SECONDS),
                           timeout=RESUME_TIMEOUT)
        run.load.wait_acks(RESUME_ACKS, after=time.time(), timeout=RESUME_TIMEOUT)
        _wait_in_isr(c, run, run.topic, p, leader, t_cont)
    except BaseException:
        run.abort()
        raise
    run.finish().assert_ok()


@needs_cluster
def test_kill9_every_broker_and_start_all(cluster3):
    c = cluster3
    run = _begin(c, "3x-restart-all")
    try:
        t = run.fault("kill9-all", c.restart_all(how="kill9"))
        run.notes.append("cluster_ready_s=%s" % _since(t))
        run.load.wait_acks(RESUME_ACKS, after=t, timeout=RESUME_TIMEOUT)
    except BaseException:
        run.abort()
        raise
    run.finish().assert_ok()


@needs_cluster
def test_wiped_follower_comes_back(cluster3):
    c = cluster3
    run = _begin(c, "3x-wipe-follower")
    try:
        p = run.load.busiest_partition()
        leader = c.leader_of(run.topic, p)
        follower = next(r for r in c.replicas_of(run.topic, p) if r != leader)
        t = run.fault("kill9-follower", c.kill9(follower), partition=p)
        run.load.wait_acks(RESUME_ACKS, after=t, timeout=RESUME_TIMEOUT)
        t_wipe = c.wipe(follower)
        run.notes.append("partition=%d leader=%d wiped=%d" % (p, leader, follower))
        run.load.wait_acks(RESUME_ACKS, after=time.time(), timeout=RESUME_TIMEOUT)
        _wait_in_isr(c, run, run.topic, p, follower, t_wipe)
        # now the wiped replica's copy matters: the leader goes
        leader = c.leader_of(run.topic, p)
        t2 = run.fault("kill9-leader-after-wipe", c.kill9(leader), partition=p)
        new_leader = c.leader_of(run.topic, p, timeout=RESUME_TIMEOUT, exclude=[leader])
        run.notes.append("then leader=%d->%d" % (leader, new_leader))
        run.load.wait_acks(RESUME_ACKS, after=t2, timeout=RESUME_TIMEOUT)
        c.start_node(leader)
        run.load.wait_acks(RESUME_ACKS, after=time.time(), timeout=RESUME_TIMEOUT)
    except BaseException:
        run.abort()
        raise
    run.finish().assert_ok()


@needs_cluster
def test_five_brokers_kill9_leader(cluster5):
    _kill_leader_scenario(cluster5, "5x-kill9-leader")


@needs_cluster
def test_group_offsets_survive_coordinator_kill9(cluster3):
    """Offsets committed by a group are read back and consumption resumes at
    them after the group's coordinator (FindCoordinator) is killed -9; an
    offset committed to the new coordinator survives the old one's return."""
    from confluent_kafka import KafkaException, TopicPartition
    c = cluster3
    topic = harness.unique_topic("grp-coord")
    c.create_topic(topic, 3, full_isr=True)
    per_part = 10
    for p in range(3):
        msgs = [{"key": b"k%d" % p, "value": b"p%d-%d" % (p, i)} for i in range(per_part)]
        assert clients.confluent_produce(c.bootstrap, topic, msgs, partition=p) == \
            [(p, i) for i in range(per_part)]
    group = harness.unique_topic("g-coord")
    committed = {0: 4, 1: 7, 2: 10}

    def consumer():
        from confluent_kafka import Consumer
        return Consumer({"bootstrap.servers": c.bootstrap, "group.id": group,
                         "auto.offset.reset": "earliest", "enable.auto.commit": False,
                         "fetch.wait.max.ms": 100, "session.timeout.ms": 6000,
                         "heartbeat.interval.ms": 500, "socket.timeout.ms": 5000,
                         "partition.assignment.strategy": "range"})

    def drain(cons, want, timeout=40):
        got = []
        deadline = time.monotonic() + timeout
        for _ in range(100000):
            if len(got) >= want or time.monotonic() > deadline:
                break
            for m in cons.consume(num_messages=100, timeout=0.2):
                if not m.error():
                    got.append((m.partition(), m.offset(), m.value()))
        return got

    def committed_now(cons, timeout=30):
        tps = [TopicPartition(topic, p) for p in range(3)]
        last = {}

        def ask():
            try:
                got = cons.committed(tps, timeout=5)
            except KafkaException as e:
                last["e"] = str(e)
                return None
            return {tp.partition: tp.offset for tp in got}
        return harness.wait_until(ask, timeout=timeout, interval=0.2,
                                  what="OffsetFetch for group %s (last error %s)" % (group, last))

    cons = consumer()
    try:
        cons.subscribe([topic])
        assert len(drain(cons, 3 * per_part)) == 3 * per_part
        cons.commit(offsets=[TopicPartition(topic, p, o) for p, o in committed.items()],
                    asynchronous=False)
    finally:
        cons.close()

    coord = c.coordinator_of(group)
    t = c.kill9(coord)
    cons = consumer()
    try:
        assert committed_now(cons) == committed, "committed offsets changed after kill -9 of " \
            "the coordinator (node %d)" % coord
        readable_s = time.time() - t
        new_coord = c.coordinator_of(group)
        cons.subscribe([topic])
        want = sorted((p, o) for p in range(3) for o in range(committed[p], per_part))
        got = drain(cons, len(want))
        assert sorted((p, o) for p, o, _ in got) == want, \
            "consumption did not resume at the committed offsets"
        assert all(v == b"p%d-%d" % (p, o) for p, o, v in got)
        cons.commit(offsets=[TopicPartition(topic, p, per_part) for p in range(3)],
                    asynchronous=False)
    finally:
        cons.close()
    c.start_node(coord)
    cons = consumer()
    try:
        assert committed_now(cons) == {0: per_part, 1: per_part, 2: per_part}, \
            "an offset committed to the new coordinator was lost when node %d came back" % coord
    finally:
        cons.close()
    checker.report("scenario=3x-group-coordinator-kill9 acked=%d errors=0 observed-during=%d "
                   "window_s=%.3f coordinator=%d->%d result=ok"
                   % (3 * per_part, len(want), readable_s, coord, new_coord))


@pytest.mark.parametrize("idempotence", [True, False], ids=["idempotent", "plain"])
def test_single_node_kill9_checker(idempotence):
    """The checker against today's single broker: kill -9 under acks=all
    load, restart; nothing acknowledged or read is lost."""
    scenario = "1x-kill9-%s" % ("idem" if idempotence else "plain")
    c = _start_cluster(1, scenario, single_node=True)
    try:
        run = _begin(c, scenario, idempotence, partitions=3)
        try:
            t = run.fault("kill9", c.kill9(1))
            c.start_node(1)
            run.notes.append("restarted_s=%s" % _since(t))
            run.load.wait_acks(RESUME_ACKS, after=t, timeout=RESUME_TIMEOUT)
        except BaseException:
            run.abort()
            raise
        run.finish().assert_ok()
    finally:
        c.close()
