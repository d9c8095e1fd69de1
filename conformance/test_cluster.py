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
offsets survive a kill -9 of its coordinator; network partition (every
broker-to-broker connection through rpcproxy): the leader cut off from the
other brokers for 8 s while clients still reach it, then healed; full disk
on a follower (a loop-mounted 64 MiB ext4 data directory, skipped where
mounting is not permitted). Each prints a summary line
(scenario, acked, errors, observed-during, window_s: the write
unavailability around the fault), also appended to $TIDEMARK_CLUSTER_REPORT.
Timings are reported, never asserted; the assertions are on data.

The cluster tests are skipped when the binary's --help has no --seeds.
test_single_node_kill9_checker runs the same checker against one broker
(kill -9, restart) and needs no cluster mode.
"""

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

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
CUT_SECONDS = 8.0  # a leader cut off from the other brokers (clients still reach it)
SMALL_DISK_MIB = 64  # the follower's loop-mounted ext4 data directory
FULL_BELOW = 2 << 20  # the small disk counts as full below this many bytes available
FULL_HOLD_SECONDS = 6.0  # producing on after the disk is full
ISR_SHRINK_WAIT = 8.0  # how long the full-disk scenario waits for the ISR to drop the node
LOAD_SEGMENT_BYTES = 65536  # the load topic's internal.segment.bytes in the full-disk scenario
FILL_TIMEOUT = 40.0  # the filler must fill the small disk within this
# broker logs of a failed scenario are copied here (and of every full-disk
# run when TIDEMARK_EVIDENCE_DIR is set)
EVIDENCE_DIR = os.environ.get("TIDEMARK_EVIDENCE_DIR", "/tmp/cluster-evidence2")
FILL_RATE = 32 << 20  # bytes/s the filler writes (bounded: the other brokers write it too)


def _start_cluster(size, name, settings=None, **kw):
    """Cluster(size) with CLUSTER_SETTINGS (and `settings` on top), started."""
    c = cluster.Cluster(size, settings=dict(CLUSTER_SETTINGS, **(settings or {})), name=name,
                        **kw)
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
def cluster3_proxied(request):
    c = _start_cluster(3, request.node.name, proxied=True)
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


def _local_partition(node, topic, partition):
    """The admin API's view of `topic`/`partition` on `node` (its own
    replica's offsets), or None while it does not answer."""
    import json
    import urllib.request
    try:
        with urllib.request.urlopen("%s/v1/partitions/%s/%d" % (node.admin_url, topic, partition),
                                    timeout=5) as r:
            return json.loads(r.read())
    except (OSError, ValueError):
        return None


def _wait_refilled(c, topic, partition, node_id, leader_id, timeout=60.0):
    """Waits until node_id's own log reaches what the leader had
    committed once node_id was back. Being listed in the ISR is not that:
    a follower killed and restarted within the lag limit never left it
    (in Kafka too), and a wiped replica that has heard nothing from a
    leader rightly refuses to elect anyone with a longer log."""
    hw = None

    def refilled():
        nonlocal hw
        if hw is None:
            lead = _local_partition(c.node(leader_id), topic, partition) or {}
            hw = lead.get("high_watermark") if lead.get("is_leader_here") else None
            return False
        mine = _local_partition(c.node(node_id), topic, partition) or {}
        return (mine.get("log_end_offset") or -1) >= hw
    harness.wait_until(refilled, timeout=timeout, interval=0.2,
                       what="node %d's log to reach the leader's high watermark" % node_id)


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
        _wait_refilled(c, run.topic, p, follower, leader)
        run.notes.append("refilled_s=%s" % _since(t_wipe))
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


def _save_evidence(c, scenario, why):
    """Copy every broker's logs to EVIDENCE_DIR/<scenario>-<time>/ (kept
    after the cluster's directories are removed). Returns the folder."""
    dest = Path(EVIDENCE_DIR) / ("%s-%s" % (scenario, time.strftime("%Y%m%d-%H%M%S")))
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for n in c.nodes.values():
            for i, lp in enumerate(n.log_paths):
                if lp.exists():
                    shutil.copy(lp, dest / ("node%d.%d.log" % (n.node_id, i)))
        lines = ["%s" % why, c.describe(), ""]
        lines += ["%.3f %s" % (t, e) for t, e in c.events]
        (dest / "README.txt").write_text("\n".join(lines) + "\n")
    except OSError as e:
        print("could not save evidence to %s: %s" % (dest, e))
    return dest


class LeaderProbe:
    """Raw acks=-1 produces of one record (key b"probe") sent straight to
    one broker's Kafka port for one partition, one at a time, every
    `interval` s: what that broker answered, and when. Bounded by
    max_seconds; each request by timeout_ms (+ a socket timeout)."""

    def __init__(self, addr, topic, partition, interval=0.25, timeout_ms=2000, max_seconds=60.0):
        self.addr = addr
        self.topic = topic
        self.partition = partition
        self.interval = interval
        self.timeout_ms = timeout_ms
        self.max_seconds = max_seconds
        self.results = []  # (t_sent, t_answered, error code or exception name, base offset, value)
        self._stop = threading.Event()
        self._thread = None

    def start(self):
        self._thread = threading.Thread(target=self._run, daemon=True, name="leader-probe")
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.timeout_ms / 1000.0 + 15)

    def _run(self):
        conn = None
        deadline = time.monotonic() + self.max_seconds
        for i in range(int(self.max_seconds / self.interval) + 10):
            if self._stop.is_set() or time.monotonic() > deadline:
                break
            value = b"probe:%09d" % i
            t0 = time.time()
            try:
                if conn is None:
                    conn = rawkafka.KafkaConn(self.addr, timeout=self.timeout_ms / 1000.0 + 10)
                part, _ = conn.produce(self.topic, self.partition,
                                       rawkafka.build_batch([(b"probe", value, [])]),
                                       acks=-1, timeout_ms=self.timeout_ms)
                self.results.append((t0, time.time(), part["ErrorCode"], part["BaseOffset"],
                                     value))
            except (OSError, rawkafka.ConnectionClosed, ValueError, AssertionError) as e:
                self.results.append((t0, time.time(), type(e).__name__, None, value))
                if conn is not None:
                    conn.close()
                conn = None
            self._stop.wait(self.interval)
        if conn is not None:
            conn.close()


@needs_cluster
def test_partition_leader_from_other_brokers(cluster3_proxied):
    """Network partition: the leader of the busiest partition is cut off
    from the other two brokers (every broker-to-broker connection goes
    through a proxy; clients still reach it on its Kafka port) for
    CUT_SECONDS, then healed. The majority elects a new leader and acks go
    on; nothing acknowledged or read is lost. A probe sends raw acks=-1
    produces straight to the cut-off leader throughout: every one it
    acknowledged must be in the final log (it cannot commit alone)."""
    c = cluster3_proxied
    scenario = "3x-partition-leader"
    run = _begin(c, scenario)
    probe = None
    try:
        p = run.load.busiest_partition()
        leader = c.leader_of(run.topic, p)
        probe = LeaderProbe(c.nodes[leader].bootstrap, run.topic, p,
                            max_seconds=CUT_SECONDS + RESUME_TIMEOUT + 10).start()
        time.sleep(0.5)  # a few probes acknowledged before the cut
        t = run.fault("cut-leader", c.cut(leader), partition=p)
        new_leader = c.leader_of(run.topic, p, timeout=RESUME_TIMEOUT, exclude=[leader])
        run.notes.append("partition=%d leader=%d->%d new_leader_seen_s=%s"
                         % (p, leader, new_leader, _since(t)))
        run.load.wait_acks(RESUME_ACKS, after=t, timeout=RESUME_TIMEOUT)
        time.sleep(max(0.0, t + CUT_SECONDS - time.time()))
        t_heal = run.fault("heal", c.heal(), partition=p)
        run.notes.append("cut_s=%.3f" % (t_heal - t))
        run.load.wait_acks(RESUME_ACKS, after=t_heal, timeout=RESUME_TIMEOUT)
        _wait_in_isr(c, run, run.topic, p, leader, t_heal)
        time.sleep(1.0)  # probes answered by the old leader after the heal
        probe.stop()
        run.notes.append("leader_at_end=%d" % c.leader_of(run.topic, p))
        c.check_alive()
        run.notes.append(c.proxy_summary())
    except BaseException:
        if probe is not None:
            probe.stop()
        run.abort()
        _save_evidence(c, scenario, "scenario failed before the check")
        raise

    def probes_check(r, log):
        final = {(s.partition, s.offset): s.value for s in log}
        ok = [x for x in probe.results if x[2] == 0]
        during = [x for x in ok if x[0] > t and x[1] < t_heal]
        outcomes = {}
        for x in probe.results:
            when = "before" if x[0] < t else ("cut" if x[0] < t_heal else "after")
            outcomes.setdefault(when, {}).setdefault(str(x[2]), 0)
            outcomes[when][str(x[2])] += 1
        for t0, t1, _, off, value in ok:
            if final.get((p, off)) != value:
                r.add("cut-leader-ack-lost",
                      "node %d acknowledged the probe %r at %d/%d (sent %+.3f s after the "
                      "cut, answered %+.3f s), the final log has %r there"
                      % (leader, value, p, off, t0 - t, t1 - t, final.get((p, off))))
        slowest = max(probe.results, key=lambda x: x[1] - x[0], default=None)
        r.notes.append("probes=%d probe_acks=%d probe_acks_during_cut=%d probe_outcomes=%s"
                       % (len(probe.results), len(ok), len(during),
                          str(outcomes).replace(" ", "")))
        if slowest is not None:
            # Produce TimeoutMs is probe.timeout_ms: a longer answer is the broker's doing
            r.notes.append("probe_slowest=%s:sent%+.3fs,took%.3fs" % (
                slowest[2], slowest[0] - t, slowest[1] - slowest[0]))
        acks_p = [a for a in run.load.acked if a.partition == p and t < a.t < t_heal]
        r.notes.append("load_acks_on_p_during_cut=%d" % len(acks_p))

    r = run.finish(extra_check=probes_check)
    slow = [x for x in probe.results
            if x[1] - x[0] > probe.timeout_ms / 1000.0 + 1.0 and not isinstance(x[2], str)]
    if not r.ok or slow:
        # a Produce answered long after its TimeoutMs is reported, not failed
        _save_evidence(c, scenario, r.summary())
    r.assert_ok()


def _run_quiet(argv, timeout=60):
    """(ok, text): one command, its output on failure."""
    try:
        p = subprocess.run(argv, capture_output=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, "%s: %s" % (" ".join(argv), e)
    if p.returncode != 0:
        return False, "%s: exit status %d: %s" % (
            " ".join(argv), p.returncode,
            (p.stderr or p.stdout).decode("utf-8", "replace").strip()[-500:])
    return True, ""


def _mount_small_disk(image, mountpoint, mib):
    """truncate + mkfs.ext4 (no reserved blocks) + mount -o loop. None if
    mounted, else why not."""
    for argv in (["truncate", "-s", "%dM" % mib, str(image)],
                 ["mkfs.ext4", "-q", "-F", "-m", "0", str(image)],
                 ["mount", "-o", "loop", str(image), str(mountpoint)]):
        ok, text = _run_quiet(argv)
        if not ok:
            return text
    return None


def _unmount_small_disk(image, mountpoint):
    """umount (lazily if busy), remove the image; returns problems as text."""
    problems = []
    if os.path.ismount(str(mountpoint)):
        ok, text = _run_quiet(["umount", str(mountpoint)])
        if not ok:
            problems.append(text)
            ok, text = _run_quiet(["umount", "-l", str(mountpoint)])
            if not ok:
                problems.append(text)
    try:
        os.unlink(str(image))
    except FileNotFoundError:
        pass
    except OSError as e:
        problems.append("rm %s: %s" % (image, e))
    return "; ".join(problems)


def _disk_available(path):
    st = os.statvfs(str(path))
    return st.f_bavail * st.f_frsize


def _create_with_assignment(c, topic, assignment, configs=None, timeout=30.0):
    """CreateTopics with an explicit replica list per partition (the first
    is the preferred leader), retried while retriable; then wait for
    leaders and full ISR."""
    last = None
    deadline = time.monotonic() + timeout
    for _ in range(int(timeout / 0.2) + 2):
        k = c._conn()
        if k is not None:
            try:
                with k:
                    v = k.pick(rawkafka.API_CREATE_TOPICS)
                    resp = k.request(rawkafka.API_CREATE_TOPICS, v, {
                        "Topics": [{"Name": topic, "NumPartitions": -1, "ReplicationFactor": -1,
                                    "Assignments": [{"PartitionIndex": i, "BrokerIds": list(r)}
                                                    for i, r in enumerate(assignment)],
                                    "Configs": [{"Name": k_, "Value": v_}
                                                for k_, v_ in (configs or {}).items()]}],
                        "timeoutMs": 10000, "validateOnly": False})
                last = resp["Topics"][0]
                if last["ErrorCode"] in (0, rawkafka.TOPIC_ALREADY_EXISTS):
                    break
                if last["ErrorCode"] not in cluster.RETRIABLE_CREATE:
                    raise AssertionError("CreateTopics %s with assignments: %r" % (topic, last))
            except (OSError, rawkafka.ConnectionClosed) as e:
                last = repr(e)
        if time.monotonic() > deadline:
            raise AssertionError("CreateTopics %s did not succeed: %r" % (topic, last))
        time.sleep(0.2)
    return c.create_topic(topic, len(assignment), timeout=timeout, full_isr=True)


class Filler:
    """acks=all producer of large incompressible values to one topic in a
    background thread, as fast as the cluster takes them (bounded queue,
    bounded time)."""

    def __init__(self, bootstrap, topic, value_bytes=256 * 1024, rate=FILL_RATE,
                 max_seconds=90.0):
        self.bootstrap = bootstrap
        self.interval = value_bytes / float(rate)
        self.topic = topic
        self.value = os.urandom(value_bytes)
        self.max_seconds = max_seconds
        self.acked = 0
        self.acked_bytes = 0
        self.ack_times = []
        self.last_ack = None
        self.errors = {}
        self._stop = threading.Event()
        self._thread = None
        self.exception = None

    def start(self):
        self._thread = threading.Thread(target=self._run, daemon=True, name="filler")
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(40)

    def _cb(self, err, msg):
        if err is None:
            self.acked += 1
            self.acked_bytes += len(msg.value())
            self.last_ack = time.time()
            self.ack_times.append(self.last_ack)
        else:
            self.errors[err.name()] = self.errors.get(err.name(), 0) + 1

    def _run(self):
        from confluent_kafka import Producer
        try:
            prod = Producer({"bootstrap.servers": self.bootstrap, "acks": "all",
                             "linger.ms": 5, "queue.buffering.max.kbytes": 16 * 1024,
                             "message.timeout.ms": 15000, "request.timeout.ms": 5000,
                             "socket.timeout.ms": 5000, "log_level": 2,
                             "client.id": "tidemark-checker-filler"})
            deadline = time.monotonic() + self.max_seconds
            next_due = time.monotonic()
            for i in range(int(self.max_seconds / self.interval) + 10):
                if self._stop.is_set() or time.monotonic() > deadline:
                    break
                try:
                    # unique values: the same bytes twice would look like a duplicate
                    prod.produce(self.topic, value=b"fill%09d:" % i + self.value,
                                 on_delivery=self._cb)
                except BufferError:
                    pass
                next_due = max(next_due + self.interval, time.monotonic() - 1.0)
                prod.poll(max(0.0, next_due - time.monotonic()))
            prod.flush(20)
        except BaseException as e:  # noqa: BLE001 - reported by the test
            self.exception = e


def _is_enospc(line):
    return "No space left" in line or "os error 28" in line or "ENOSPC" in line


def _log_time(line):
    """time.time() of a broker log line (tracing's RFC 3339 UTC stamp), or None."""
    import datetime
    try:
        stamp = line.split(" ", 1)[0]
        return datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
            tzinfo=datetime.timezone.utc).timestamp()
    except (ValueError, IndexError):
        return None


def _first_enospc(node):
    """time.time() of the broker's first log line about a full disk, or None."""
    for line in node.all_logs().splitlines():
        if _is_enospc(line):
            return _log_time(line)
    return None


def _full_disk_log_summary(node, topics):
    """Counts of what the broker logged about the full disk (and in which
    topic's directories a log was marked failed), and a few lines."""
    lines = node.all_logs().splitlines()
    enospc = [x for x in lines if _is_enospc(x)]
    errors = [x for x in lines if " ERROR " in x[:40]]
    warns = [x for x in lines if " WARN " in x[:40]]
    panics = [x for x in lines if "panicked" in x]
    # a replica whose log write failed: its Raft group stops
    failed = {x.split("dir=", 1)[1].split(" ", 1)[0] for x in lines
              if "raft log flush failed dir=" in x or "the log is now failed dir=" in x}
    counts = {"enospc": len(enospc), "error": len(errors), "warn": len(warns),
              "panic": len(panics), "raft_stopped": sum("RaftCore::main error" in x
                                                        for x in lines)}
    for label, t in topics.items():
        counts["failed_replicas_" + label] = sum(1 for d in failed if "/%s-" % t in d)
    failed_at = {}  # topic label -> [time.time() of each replica's first failed write]
    for x in lines:
        if "raft log flush failed dir=" in x or "the log is now failed dir=" in x:
            d = x.split("dir=", 1)[1].split(" ", 1)[0]
            for label, t in topics.items():
                if "/%s-" % t in d and d not in failed_at.setdefault("_dirs", set()):
                    failed_at["_dirs"].add(d)
                    failed_at.setdefault(label, []).append(_log_time(x))
    failed_at.pop("_dirs", None)
    counts["failed_at"] = failed_at
    kinds = {}
    for x in errors:  # one example per distinct message (target + first words)
        key = " ".join(x.split()[2:6])
        kinds.setdefault(key, x)
    return counts, panics[:2] + list(kinds.values())[:8]


@needs_cluster
def test_follower_disk_full(request):
    """Full disk on a follower: one broker's data directory is a small
    loop-mounted ext4 image (the broker uses O_DIRECT, so tmpfs will not
    do). It is made a follower of every partition of the load topic and of
    a filler topic (explicit replica assignments, it comes last); the
    filler writes large values until its disk is full, the acks=all load
    goes on for FULL_HOLD_SECONDS more: the other two replicas are a
    majority, so acks must continue, and the checker must pass. Skipped
    (with the error) if the image cannot be made or mounted here. What the
    full broker logs, and whether it exits, is reported (an exit is
    tolerated)."""
    scenario = "3x-follower-disk-full"
    full_id = 3
    # 50 __consumer_offsets replicas would preallocate 50 MiB of the small disk
    settings = dict(CLUSTER_SETTINGS, **{"offsets.topic.num.partitions": "3"})
    c = cluster.Cluster(3, settings=settings, name=request.node.name)
    node = c.nodes[full_id]
    image = Path(c.root) / "small-disk.img"
    mountpoint = node.data_dir
    filler = None
    problem = None
    try:
        why = _mount_small_disk(image, mountpoint, SMALL_DISK_MIB)
        if why is not None:
            msg = "cannot mount a small ext4 image for the follower's data dir: %s" % why
            # CI (.ci/run) sets this: there the scenario must run, never skip.
            if os.environ.get("TIDEMARK_REQUIRE_LOOP_MOUNT") == "1":
                pytest.fail(msg)
            pytest.skip(msg)
        c.start()
        a, b = [i for i in sorted(c.nodes) if i != full_id]
        topic = harness.unique_topic(scenario)
        # small segments: the load topic's replicas on the full disk need new
        # files (and blocks) soon after it is full, not only the filler's
        _create_with_assignment(c, topic, [[a, b, full_id] if i % 2 == 0 else [b, a, full_id]
                                           for i in range(PARTITIONS)],
                                configs={"internal.segment.bytes": str(LOAD_SEGMENT_BYTES),
                                         "max.message.bytes": str(LOAD_SEGMENT_BYTES // 2)})
        fill_topic = harness.unique_topic("filler")
        _create_with_assignment(c, fill_topic, [[a, b, full_id], [b, a, full_id]])

        def led_by_full():
            return [(t_, pp) for t_, n_ in ((topic, PARTITIONS), (fill_topic, 2))
                    for pp in range(n_)
                    if (c.partition_state(t_, pp) or {}).get("LeaderId") == full_id]
        # the first leader of a new partition is whoever wins the election;
        # a controlled shutdown hands node 3's leaderships to the others and
        # as the last replica it is never the preferred leader after that
        led = handed_off = led_by_full()
        if led:
            c.restart(full_id, how="term")
            c.create_topic(topic, PARTITIONS, full_isr=True)
            c.create_topic(fill_topic, 2, full_isr=True)
            led = led_by_full()
        run = checker.Run(c.bootstrap, topic, PARTITIONS, scenario)
        run.start()
        try:
            run.load.wait_acks(WARMUP_ACKS, timeout=60)
            avail0 = _disk_available(mountpoint)
            filler = Filler(c.bootstrap, fill_topic).start()
            t_fill = time.time()
            t_full = None
            for _ in range(int(FILL_TIMEOUT / 0.1) + 10):
                if _disk_available(mountpoint) < FULL_BELOW:
                    t_full = time.time()
                    break
                if time.time() - t_fill > FILL_TIMEOUT or filler.exception is not None:
                    break
                time.sleep(0.1)
            # df shows full as soon as a fallocate ran out (ext4 keeps what it
            # got); the writes themselves fail later: the broker's first ENOSPC
            t_enospc = None
            for _ in range(int(FILL_TIMEOUT / 0.1) + 10):
                if t_full is None:
                    break
                t_enospc = _first_enospc(node)
                if t_enospc is not None or time.time() - t_fill > FILL_TIMEOUT:
                    break
                time.sleep(0.1)
            if t_full is None or t_enospc is None:
                raise AssertionError(
                    "the %d MiB disk of node %d was not full after %.0fs (%d bytes available, "
                    "df full at %s, first ENOSPC logged at %s, filler acked %d, errors %s, "
                    "exception %r)"
                    % (SMALL_DISK_MIB, full_id, time.time() - t_fill,
                       _disk_available(mountpoint), t_full, t_enospc, filler.acked,
                       filler.errors, filler.exception))
            t_df = t_full
            t_full = max(t_df, t_enospc)
            run.fault("disk-full", t_full)
            run.notes.append("full_node=%d avail_before_fill_mib=%.1f df_full_s=%.3f "
                             "first_enospc_s=%.3f"
                             % (full_id, avail0 / 2**20, t_df - t_fill, t_enospc - t_fill))
            if handed_off:
                run.notes.append("full_node_restarted_before_load(led=%s)"
                                 % str(handed_off).replace(" ", ""))
            if led:
                run.notes.append("full_node_still_leads=%s" % str(led).replace(" ", ""))
            time.sleep(max(0.0, t_full + FULL_HOLD_SECONDS - time.time()))
            # the other two replicas are a majority: acks go on
            run.load.wait_acks(RESUME_ACKS, after=t_full, timeout=RESUME_TIMEOUT)
            acked_full = run.load.acks_after(t_full)
            time.sleep(1.0)
            filler.stop()
            run.notes.append("acks_after_full=%d filler_acked=%d filler_mib=%.1f "
                             "filler_acks_after_full=%d filler_errors=%s avail_end_kib=%d"
                             % (acked_full, filler.acked, filler.acked_bytes / 2**20,
                                sum(1 for x in filler.ack_times if x > t_full),
                                str(filler.errors).replace(" ", ""),
                                _disk_available(mountpoint) // 1024))
            # does the full node leave the ISR (as the leaders report it)?
            isr_seen = {}

            def full_node_out_of_isr():
                for t_, n_ in ((topic, PARTITIONS), (fill_topic, 2)):
                    for pp in range(n_):
                        views = c.partition_views(t_, pp)
                        lead = [v for v in views.values() if v.get("LeaderId") in views
                                and v is views[v["LeaderId"]]]
                        isr_seen[(t_ == topic and "load" or "filler", pp)] = \
                            lead[0].get("IsrNodes") if lead else None
                return all(i is not None and full_id not in i for i in isr_seen.values())
            try:
                harness.wait_until(full_node_out_of_isr, timeout=ISR_SHRINK_WAIT, interval=0.5,
                                   what="node %d out of every ISR" % full_id)
                run.notes.append("full_node_out_of_isr_s=%s" % _since(t_full))
            except AssertionError:
                still = sorted("%s/%d" % k_ for k_, i in isr_seen.items()
                               if i is None or full_id in i)
                run.notes.append("full_node_still_in_isr_after_%.0fs=%s"
                                 % (time.time() - t_full, ",".join(still)))
        except BaseException:
            if filler is not None:
                filler.stop()
            run.abort()
            raise
        alive = node.running()
        counts, sample = _full_disk_log_summary(node, {"load": topic, "filler": fill_topic})
        for label, times in sorted(counts.pop("failed_at").items()):
            times = sorted(x - t_full for x in times if x is not None)
            if times:
                run.notes.append("%s_replicas_failed_s=%.1f..%.1f" % (label, times[0], times[-1]))
        if not alive:
            node._expect_exit = True  # tolerated: reported, not failed
            rc = node.proc.returncode if node.proc is not None else None
            run.notes.append("full_node_exited=%s" % rc)
        else:
            run.notes.append("full_node_running=yes")
        run.notes.append("full_node_log=%s" % str(counts).replace(" ", ""))
        r = run.finish()
        for line in sample:
            print("node %d: %s" % (full_id, line[:300]))
        if not r.ok or not alive or counts["panic"]:
            problem = r.summary()
        if problem is not None or os.environ.get("TIDEMARK_EVIDENCE_DIR"):
            print("evidence: %s" % _save_evidence(c, scenario, r.summary()))
        for nid in c.nodes:
            if nid != full_id:
                c.nodes[nid].check_alive()
        r.assert_ok()
    finally:
        if filler is not None:
            filler.stop()
        try:
            if problem is not None or not node.running():
                node._expect_exit = True
            c.close(keep_data=False)
        finally:
            leftover = _unmount_small_disk(image, mountpoint)
            shutil.rmtree(c.root, ignore_errors=True)
            if leftover:
                print("small disk cleanup: %s" % leftover)


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
