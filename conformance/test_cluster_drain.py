"""Taking a broker out of service through the admin HTTP API, under a
keyed acks=all confluent-kafka producer and a reader (the checker):

* maintenance mode (PUT/DELETE /v1/brokers/{id}/maintenance): every
  leadership leaves the broker, the leader balancing (every second here)
  does not bring any back while it lasts, and they come back once it is
  turned off;
* decommissioning (PUT /v1/brokers/{id}/decommission) of a broker of a
  four-broker cluster: every replica it held, `__consumer_offsets`
  included, moves to the other brokers, its folders are removed, and the
  cluster no longer lists it; still running, it no longer lists itself
  either, so a client bootstrapped through it (alone or among others)
  reads the group's committed offset from the rest of the cluster;
* decommissioning the controller leader: another broker takes its vote,
  so losing it and one more original voter leaves a quorum.

Throughout, no record fails delivery (the producer sees only retriable
errors, which it retries) and every acknowledged record is read back.
`tmk cluster maintenance` and `tmk cluster brokers` drive the same API.
"""

import json
import os
import subprocess
import time
import urllib.error
import urllib.request

import pytest

import checker
import cluster
import harness
import rawkafka

pytestmark = pytest.mark.cluster

PARTITIONS = 6


def _http(node, method, path):
    """(status, JSON body) of one admin API request."""
    req = urllib.request.Request(node.admin_url + path, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        body = e.read()
        try:
            return e.code, json.loads(body)
        except ValueError:
            return e.code, body.decode(errors="replace")


def _leaders(c, topics, via):
    """{(topic, partition): leader} from one broker's Metadata."""
    md = c.metadata(topics, via)
    return {(t["Name"], p["PartitionIndex"]): p["LeaderId"]
            for t in md["Topics"] for p in t["Partitions"]}


def _tmk(c, *args):
    """Runs the built tmk (TMK_BIN, else target/release/tmk) against the
    cluster's admin API."""
    tmk = os.environ.get("TMK_BIN") or str(harness.REPO_ROOT / "target" / "release" / "tmk")
    assert os.path.exists(tmk), "tmk is not built: %s (cargo build --release)" % tmk
    env = dict(os.environ, TMK_CONFIG="/nonexistent/tmk.yaml")
    admin_hosts = ",".join("%s:%d" % (n.host, n.admin_port) for n in c.nodes.values())
    return subprocess.run([str(tmk), "-X", "brokers=" + c.bootstrap,
                           "-X", "admin.hosts=" + admin_hosts] + list(args),
                          capture_output=True, text=True, timeout=60, env=env)


def _consumer(bootstrap, group):
    from confluent_kafka import Consumer
    return Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                     "enable.auto.commit": False})


def _commit(bootstrap, group, topic, offset):
    """Commits as an application does: a coordinator error (the group
    coordinator moved, as a new `__consumer_offsets` partition's leadership
    goes to its preferred replica) is retried, a few times; anything else,
    or the same error past the tries, fails the test."""
    from confluent_kafka import KafkaError, KafkaException, TopicPartition
    moved = (KafkaError.NOT_COORDINATOR, KafkaError.COORDINATOR_NOT_AVAILABLE,
             KafkaError.COORDINATOR_LOAD_IN_PROGRESS)
    c = _consumer(bootstrap, group)
    try:
        for attempt in range(5):
            try:
                c.commit(offsets=[TopicPartition(topic, 0, offset)], asynchronous=False)
                return
            except KafkaException as e:
                if e.args[0].code() not in moved or attempt == 4:
                    raise
                time.sleep(0.5)
    finally:
        c.close()


def _committed(bootstrap, group, topic):
    from confluent_kafka import TopicPartition
    c = _consumer(bootstrap, group)
    try:
        return c.committed([TopicPartition(topic, 0)], timeout=30)[0].offset
    finally:
        c.close()


class _Scenario:
    """A drain scenario's cluster and checker run: leaving with an
    exception aborts the run; leaving normally checks that the run lost
    nothing and its producer saw no error; the cluster is closed either
    way."""

    def __init__(self, c):
        self.c = c
        self.run = None

    def start_run(self, topic, name):
        self.run = checker.Run(self.c.bootstrap, topic, PARTITIONS, name).start()
        return self.run

    def __enter__(self):
        return self

    def __exit__(self, kind, _value, _tb):
        try:
            if self.run is not None:
                if kind is not None:
                    self.run.abort()
                else:
                    self.run.finish().assert_ok()
                    assert sum(self.run.load.errors.values()) == 0, dict(self.run.load.errors)
        finally:
            self.c.close()
        return False


def test_maintenance_moves_every_leadership_off_and_back():
    c = cluster.Cluster(3, name="maint", settings={
        "auto.leader.rebalance.enable": "true",
        "leader.imbalance.check.interval.seconds": "1",
    })
    with _Scenario(c) as s:
        c.start()
        topic = harness.unique_topic("maint")
        c.create_topic(topic, PARTITIONS, full_isr=True)
        run = s.start_run(topic, "3x-maintenance")
        run.load.wait_acks(300, timeout=60)
        victim = 2
        assert victim in set(_leaders(c, [topic], 1).values()), "broker 2 leads something"

        # Bad input: a broker that does not exist, a path that is not one.
        status, body = _http(c.node(1), "PUT", "/v1/brokers/9/maintenance")
        assert status == 404 and "not registered" in body["error"], (status, body)
        status, _ = _http(c.node(1), "PUT", "/v1/brokers/x/maintenance")
        assert status == 400, status

        t = run.fault("maintenance-on")
        # Asked through another broker: the state is the cluster's.
        status, body = _http(c.node(3), "PUT", "/v1/brokers/%d/maintenance" % victim)
        assert status == 200, (status, body)
        harness.wait_until(
            lambda: _http(c.node(1), "GET", "/v1/brokers/%d/maintenance" % victim)[1]
            .get("finished"), timeout=30, interval=0.2, what="broker 2 to lead nothing")
        led = _leaders(c, [topic], 1)
        assert victim not in led.values(), led
        run.load.wait_acks(300, after=t, timeout=60)
        # Several balancing passes (one a second) later, still nothing on it.
        time.sleep(3.0)
        led = _leaders(c, [topic], 2)
        assert victim not in led.values(), led
        status, body = _http(c.node(victim), "GET", "/v1/brokers/%d/maintenance" % victim)
        assert body == {"node_id": victim, "enabled": True, "leaderships": 0, "leaderless": 0,
                        "finished": True}, body

        r = _tmk(c, "cluster", "maintenance", "status", "--format", "json")
        assert r.returncode == 0, r.stderr
        rows = {m["node_id"]: m for m in json.loads(r.stdout)}
        assert rows[victim]["enabled"] and rows[victim]["finished"], rows
        assert not rows[1]["enabled"] and not rows[3]["enabled"], rows
        r = _tmk(c, "cluster", "maintenance", "enable", "9")
        assert r.returncode != 0 and "not registered" in r.stderr, (r.returncode, r.stderr)

        t = run.fault("maintenance-off")
        r = _tmk(c, "cluster", "maintenance", "disable", str(victim))
        assert r.returncode == 0, r.stderr
        # Its preferred leaderships come back through the balancing.
        harness.wait_until(lambda: victim in _leaders(c, [topic], 1).values(), timeout=30,
                           interval=0.3, what="broker 2 to lead again")
        run.load.wait_acks(200, after=t, timeout=60)


def test_decommission_moves_every_replica_and_removes_the_broker():
    c = cluster.Cluster(3, name="decom", settings={
        "auto.leader.rebalance.enable": "false",
        "offsets.topic.num.partitions": "4",
        "group.initial.rebalance.delay.ms": "100",
    })
    with _Scenario(c) as s:
        c.start()
        c.join(4, "zone-a")
        topic = harness.unique_topic("decom")
        c.create_topic(topic, PARTITIONS, replication_factor=3, full_isr=True, timeout=60)
        run = s.start_run(topic, "4x-decommission")
        run.load.wait_acks(300, timeout=60)
        group = harness.unique_topic("decom-group")
        _commit(c.bootstrap, group, topic, 42)
        victim = 3
        md = c.metadata(None, 1)
        held = [(t["Name"], p["PartitionIndex"]) for t in md["Topics"] for p in t["Partitions"]
                if victim in p["ReplicaNodes"]]
        assert any(t == "__consumer_offsets" for t, _ in held), held
        assert any(t == topic for t, _ in held), held

        t = run.fault("decommission")
        r = _tmk(c, "cluster", "brokers", "decommission", str(victim))
        assert r.returncode == 0, r.stderr

        last = []

        def done():
            s, b = _http(c.node(1), "GET", "/v1/brokers/%d/decommission" % victim)
            last[:] = [s, b]
            return s == 200 and b.get("removed") and b.get("replicas_left") == 0
        try:
            harness.wait_until(done, timeout=120, interval=0.5,
                               what="broker 3 to hold no replica and be removed")
        except AssertionError:
            raise AssertionError("decommission not done; last status %r, partitions on it %r"
                                 % (last, [(t["Name"], p["PartitionIndex"], p["ReplicaNodes"])
                                           for t in (c.metadata(None, 1) or {}).get("Topics", [])
                                           for p in t["Partitions"]
                                           if victim in p["ReplicaNodes"]])) from None
        md = c.metadata(None, 1)
        still = [(t["Name"], p["PartitionIndex"]) for t in md["Topics"]
                 for p in t["Partitions"] if victim in p["ReplicaNodes"]]
        assert still == [], still
        for t_ in md["Topics"]:
            for p in t_["Partitions"]:
                assert len(p["ReplicaNodes"]) == len(set(p["ReplicaNodes"])), p
        harness.wait_until(lambda: victim not in (c.brokers_seen_by(1) or [victim]),
                           timeout=30, interval=0.2, what="the cluster to stop listing broker 3")
        harness.wait_until(lambda: cluster.partition_folders(c.node(victim), topic) == [],
                           timeout=60, interval=0.5, what="broker 3 to remove its folders")
        run.load.wait_acks(300, after=t, timeout=60)
        # Broker 3 still runs and is still in the clients' bootstrap lists.
        # It answers Metadata at once, without itself (Kafka lists only the
        # registered brokers): listing itself, it was kept by librdkafka,
        # which then asked it alone for the group coordinator; it answered
        # COORDINATOR_NOT_AVAILABLE until the 30 s timeout of committed()
        # (its __consumer_offsets replicas gone, no leader reports reaching
        # an unregistered broker), after holding that Metadata for 10 s.
        seen = c.brokers_seen_by(victim)
        assert seen == [1, 2, 4], ("the removed broker's Metadata (None: no answer "
                                   "within 2 s)", seen)
        # The group's offsets moved with __consumer_offsets: read by a
        # client bootstrapped with every broker, and by one that knows
        # only the removed broker (its first connection always goes there).
        for label, bootstrap in (("every broker", c.bootstrap),
                                 ("the removed broker", c.node(victim).bootstrap)):
            try:
                got = _committed(bootstrap, group, topic)
            except Exception as e:
                views = {}
                for n in c.nodes.values():
                    if n.node_id == victim:
                        continue
                    for p in range(4):
                        views["node%d/%d" % (n.node_id, p)] = _http(
                            n, "GET", "/v1/partitions/__consumer_offsets/%d" % p)
                raise AssertionError("committed offset unreadable through %s (%s); "
                                     "__consumer_offsets as the brokers see it: %r"
                                     % (label, e, views)) from None
            assert got == 42, (label, got)

        r = _tmk(c, "cluster", "brokers", "decommission-status", str(victim), "--format", "json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["removed"] is True, r.stdout

        # Three brokers left for replication factor 3: the next one is
        # refused with the reason, and nothing changes.
        status, body = _http(c.node(1), "PUT", "/v1/brokers/4/decommission")
        assert status == 400 and "cannot decommission broker 4" in body["error"], (status, body)
        status, body = _http(c.node(1), "GET", "/v1/brokers/4/decommission")
        assert body["decommissioning"] is False and body["removed"] is False, body


def _quorum(node):
    """One broker's DescribeQuorum view of the controller group (v2):
    (leader, voter ids, observer ids), or None without an answer."""
    try:
        with rawkafka.KafkaConn(node.bootstrap) as conn:
            r = conn.request(55, 2, {"Topics": [{"TopicName": "__cluster_metadata",
                                                 "Partitions": [{"PartitionIndex": 0}]}]})
    except (OSError, rawkafka.ConnectionClosed):
        return None
    [t] = r["Topics"]
    [p] = t["Partitions"]
    if r["ErrorCode"] != 0 or p["ErrorCode"] != 0:
        return None
    return (p["LeaderId"], sorted(v["ReplicaId"] for v in p["CurrentVoters"]),
            sorted(o["ReplicaId"] for o in p["Observers"]))


def _wait_voters(nodes, want, when):
    """Waits until every one of `nodes` reports the controller voters
    `want` (DescribeQuorum); fails with every view otherwise."""
    try:
        harness.wait_until(
            lambda: all((_quorum(n) or (None, None))[1] == want for n in nodes),
            timeout=30, interval=0.2, what="voters %s %s" % (want, when))
    except AssertionError:
        raise AssertionError("quorum views %s: %r, want voters %r"
                             % (when, {n.node_id: _quorum(n) for n in nodes}, want)) from None


def test_decommissioning_the_controller_leader_gives_its_vote_to_another_broker():
    """A decommissioned controller voter stops voting before it is
    removed: here the voter is the controller leader itself, and broker 4
    (a learner) takes its place, so the quorum keeps three voters, also
    after broker 4 restarts. Then
    the decommissioned broker and a second original voter are killed: a
    metadata change still commits, since two of the three voters (the
    remaining seed and broker 4) are alive. With the old fixed voters the
    quorum would be one of three and nothing could change."""
    c = cluster.Cluster(3, name="decomvoter", settings={
        "auto.leader.rebalance.enable": "false",
        "offsets.topic.num.partitions": "2",
    })
    with _Scenario(c):
        c.start()
        c.join(4, "zone-c")
        topic = harness.unique_topic("decomvoter")
        c.create_topic(topic, 3, replication_factor=2, timeout=60)
        views = {}

        def agreed(want_voters):
            for n in c.nodes.values():
                views[n.node_id] = _quorum(n)
            got = set(v and (v[0], tuple(v[1])) for v in views.values())
            return len(got) == 1 and None not in got and list(got)[0][1] == tuple(want_voters)
        harness.wait_until(lambda: agreed([1, 2, 3]), timeout=30, interval=0.2,
                           what="every broker to see voters 1-3 and one leader")
        victim = views[1][0]
        assert views[1][2] == [4], views
        other = next(n for n in c.nodes.values() if n.node_id != victim)
        status, body = _http(other, "PUT", "/v1/brokers/%d/decommission" % victim)
        assert status == 200, (status, body)
        last = []

        def removed():
            st, b = _http(other, "GET", "/v1/brokers/%d/decommission" % victim)
            last[:] = [st, b]
            return st == 200 and b.get("removed") is True and b.get("controller_voter") is False
        try:
            harness.wait_until(removed, timeout=120, interval=0.5,
                               what="broker %d to be removed and no longer vote" % victim)
        except AssertionError:
            raise AssertionError("not removed; last status %r, quorum views %r"
                                 % (last, {n.node_id: _quorum(n) for n in c.nodes.values()})) \
                from None
        want = sorted({1, 2, 3, 4} - {victim})
        survivors = [n for n in c.nodes.values() if n.node_id != victim]
        _wait_voters(survivors, want, "once broker %d is removed" % victim)
        leader_after = _quorum(survivors[0])[0]
        assert leader_after in want, (leader_after, {n.node_id: _quorum(n) for n in c.nodes.values()})

        # The voters are in the controller log, not in the command line:
        # broker 4 (started without being a seed) still votes after a
        # restart. The removed broker still runs but is no broker of the
        # cluster: broker 4 is back once it lists exactly the others.
        c.kill9(4)
        c.start_node(4, rejoin_timeout=None)
        harness.wait_until(
            lambda: all(sorted(c.brokers_seen_by(n.node_id) or []) == want for n in survivors),
            timeout=30, interval=0.2,
            what="every remaining broker to list brokers %s after broker 4 restarted" % want)
        _wait_voters(survivors, want, "after broker 4 restarted")

        # Lose the decommissioned broker and one more original voter.
        second = next(v for v in want if v != 4)
        c.kill9(victim)
        c.kill9(second)
        left = [n for n in c.nodes.values() if n.node_id not in (victim, second)]
        assert sorted(n.node_id for n in left) == sorted(set(want) - {second})
        created = harness.unique_topic("after-quorum-loss")
        answers = []

        def committed():
            for n in left:
                try:
                    with rawkafka.KafkaConn(n.bootstrap) as conn:
                        res, _ = conn.create_topics([{"Name": created, "NumPartitions": 1,
                                                      "ReplicationFactor": 1}],
                                                    timeout_ms=5000)
                except (OSError, rawkafka.ConnectionClosed) as e:
                    answers.append(repr(e))
                    continue
                err = res[created]["ErrorCode"]
                answers.append((n.node_id, err, res[created].get("ErrorMessage")))
                if err in (0, rawkafka.TOPIC_ALREADY_EXISTS):
                    return True
            return False
        try:
            harness.wait_until(committed, timeout=60, interval=0.5,
                               what="a CreateTopics to commit with two of three voters alive")
        except AssertionError:
            raise AssertionError("no metadata change committed; last answers %r"
                                 % (answers[-4:],)) from None
        for n in left:
            harness.wait_until(
                lambda n=n: created in [t["Name"] for t in
                                        (c.metadata(None, n.node_id) or {}).get("Topics", [])],
                timeout=30, interval=0.2,
                what="broker %d to list the topic created after the kills" % n.node_id)


def test_recommission_stops_a_decommission():
    """DELETE on the decommission resource (`tmk cluster brokers
    recommission`) stops a decommission under way: the moves not yet
    finished go back (their new replica, frozen here, never caught up),
    the broker stays and takes replicas again (a replication-factor-4
    topic on four brokers needs it), and the producer loses nothing."""
    c = cluster.Cluster(3, name="recom", settings={
        "auto.leader.rebalance.enable": "false",
        "offsets.topic.num.partitions": "4",
    })
    with _Scenario(c) as s:
        c.start()
        # The topic lives on brokers 1-3 only: every replica on broker 3
        # can only move to broker 4.
        topic = harness.unique_topic("recom")
        c.create_topic(topic, PARTITIONS, replication_factor=3, full_isr=True, timeout=60)
        c.join(4, "zone-a")
        run = s.start_run(topic, "4x-recommission")
        run.load.wait_acks(300, timeout=60)
        victim = 3

        # Only a registered broker can be recommissioned.
        status, body = _http(c.node(1), "DELETE", "/v1/brokers/9/decommission")
        assert status == 404 and "not registered" in body["error"], (status, body)

        t = run.fault("decommission-then-recommission")
        c.sigstop(4)  # the moves to broker 4 cannot finish
        try:
            status, body = _http(c.node(1), "PUT", "/v1/brokers/%d/decommission" % victim)
            assert status == 200, (status, body)
            # Another broker's view follows once it applies the command
            # (the PUT is answered when the controller commits it).
            seen = []

            def decommissioning():
                st, b = _http(c.node(2), "GET", "/v1/brokers/%d/decommission" % victim)
                seen[:] = [st, b]
                return st == 200 and b["decommissioning"] is True and b["replicas_left"] > 0
            try:
                harness.wait_until(decommissioning, timeout=10, interval=0.1,
                                   what="broker 2 to see the decommission")
            except AssertionError:
                raise AssertionError("broker 2 never saw the decommission: %r" % (seen,)) from None
            status, body = _http(c.node(1), "DELETE", "/v1/brokers/%d/decommission" % victim)
            assert status == 200, (status, body)
        finally:
            c.sigcont(4)

        last = []

        def settled():
            s, b = _http(c.node(2), "GET", "/v1/brokers/%d/decommission" % victim)
            last[:] = [s, b]
            return (s == 200 and b["decommissioning"] is False and b["removed"] is False
                    and b["reassignments_in_progress"] == 0)
        try:
            harness.wait_until(settled, timeout=120, interval=0.5, what="the moves to go back")
        except AssertionError:
            raise AssertionError("not settled: %r" % (last,)) from None
        md = c.metadata([topic], 1)
        for p in md["Topics"][0]["Partitions"]:
            assert sorted(p["ReplicaNodes"]) == [1, 2, 3], ("the move went back", p)
        assert victim in (c.brokers_seen_by(1) or [])

        # tmk: recommissioning again changes nothing and says so; the
        # status agrees.
        r = _tmk(c, "cluster", "brokers", "recommission", str(victim))
        assert r.returncode == 0 and "no longer being decommissioned" in r.stdout, r.stderr
        r = _tmk(c, "cluster", "brokers", "decommission-status", str(victim))
        assert r.returncode == 0 and "not being decommissioned" in r.stdout, (r.stdout, r.stderr)
        # Broker 3 takes replicas again.
        wide = harness.unique_topic("recom-rf4")
        c.create_topic(wide, 1, replication_factor=4, timeout=60)
        md = c.metadata([wide], 1)
        assert sorted(md["Topics"][0]["Partitions"][0]["ReplicaNodes"]) == [1, 2, 3, 4], md
        run.load.wait_acks(300, after=t, timeout=60)
