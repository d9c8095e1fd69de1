"""Follower fetching (KIP-392) and rack-aware consumer group assignment
(issue 22), on a three-broker cluster with one broker per rack (zone-a,
zone-b, zone-c) and `replica.selector.class` set to Kafka's
RackAwareReplicaSelector.

What is checked, as Kafka behaves:
- the leader answers a consumer whose `client.rack` holds an in-sync
  follower with that follower as `preferred_read_replica`, no records, at
  once; a consumer in the leader's rack, without a rack or in a rack with
  no replica reads from the leader;
- a follower serves Fetch v11+ up to its own high watermark (never past
  the leader's: no record read from a follower is later missing from the
  log), answers OFFSET_OUT_OF_RANGE past its log end, FENCED/UNKNOWN
  leader epoch for a stale/future epoch, NOT_LEADER_OR_FOLLOWER to a fetch
  older than v11 (no client metadata), and wakes its long polls when its
  high watermark moves;
- a confluent-kafka consumer with `client.rack` reads from the follower
  in its rack (the brokers' own counters say who served), and when that
  follower is killed falls back to another replica without losing or
  repeating a record;
- without the selector every read stays on the leader;
- KIP-848's server-side assignors give each member the partitions whose
  replica is in its rack, and follow the replicas when a reassignment
  moves them to other racks (KIP-1101).
"""

import os
import threading
import time
import urllib.request

import pytest

import clients
import cluster
import harness
import rawkafka

SELECTOR = "org.apache.kafka.common.replica.RackAwareReplicaSelector"
FENCED_LEADER_EPOCH = 74
UNKNOWN_LEADER_EPOCH = 75
API_CG_HEARTBEAT = 68
# COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR
COORDINATOR_MOVED = (14, 15, 16)


@pytest.fixture(scope="module")
def racked():
    c = cluster.Cluster(3, name="follower-fetch", settings={
        "replica.selector.class": SELECTOR,
        "broker.session.timeout.ms": "3000",
        "group.initial.rebalance.delay.ms": "0",
    })
    try:
        c.start()
        yield c
    finally:
        c.close()


def _counter(node, name):
    """A counter from the broker's /metrics (0 when absent)."""
    with urllib.request.urlopen(node.admin_url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    for line in text.splitlines():
        if line.startswith("tidemark_" + name + " "):
            return float(line.split()[1])
    return 0.0


def _produce(bootstrap, topic, values, partition=0):
    from confluent_kafka import Producer
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0,
                  "message.timeout.ms": 20000})
    failed = []
    for v in values:
        p.produce(topic, value=v, partition=partition,
                  on_delivery=lambda err, msg: failed.append(err) if err else None)
    assert p.flush(30) == 0, "records still unacknowledged after 30 s"
    assert not failed, failed


def _raw_fetch(node, topic, offset, **kw):
    with rawkafka.KafkaConn(node.bootstrap) as conn:
        conn.api_versions()
        part, _ = conn.fetch(topic, 0, offset, **kw)
    return part


def _values(part):
    return [r["value"] for b in rawkafka.parse_batches(part["Records"]) for r in b.records()]


def _follower_in_other_rack(c, topic):
    leader = c.settled_leader(topic, 0)
    followers = [r for r in c.replicas_of(topic, 0) if r != leader]
    assert len(followers) == 2, followers
    f = followers[0]
    assert c.node(f).rack != c.node(leader).rack
    return leader, f


def _replicated_topic(c, prefix, values=()):
    """A new one-partition topic at replication factor 3 holding `values`
    (acknowledged by all replicas): (topic, settled leader, a follower in
    another rack)."""
    topic = harness.unique_topic(prefix)
    # A broker an earlier test restarted may still be fenced in the
    # others' view (the module shares one cluster; RF 3 needs all three).
    harness.wait_until(
        lambda: all(set(c.brokers_seen_by(b) or []) == set(c.nodes) for b in c.nodes),
        timeout=30, interval=0.2, what="every broker to list all three")
    c.create_topic(topic, 1, replication_factor=3, full_isr=True)
    if values:
        _produce(c.bootstrap, topic, values)
    leader, f = _follower_in_other_rack(c, topic)
    return topic, leader, f


def test_leader_points_a_racked_consumer_at_its_follower(racked):
    c = racked
    values = [b"r%03d" % i for i in range(50)]
    topic, leader, f = _replicated_topic(c, "ff", values)
    L, F = c.node(leader), c.node(f)
    epoch = c.partition_state(topic, 0)["LeaderEpoch"]
    redirects0 = _counter(L, "fetch_preferred_replica_redirects_total")
    reads0 = _counter(F, "fetch_follower_reads_total")

    # The leader sends a consumer in the follower's rack there, with no
    # records, and at once even with a long max wait.
    t0 = time.monotonic()
    part = _raw_fetch(L, topic, 0, version=12, rack_id=F.rack, max_wait_ms=5000)
    assert part["ErrorCode"] == 0, part
    assert part["PreferredReadReplica"] == f, part
    assert _values(part) == []
    assert part["HighWatermark"] == len(values)
    assert time.monotonic() - t0 < 4.0, "a redirection waited for the long poll"
    # The leader's own rack, no rack, a rack without replicas: the leader.
    for rack in (L.rack, "", "zone-nowhere"):
        part = _raw_fetch(L, topic, 0, version=12, rack_id=rack)
        assert part["ErrorCode"] == 0 and part["PreferredReadReplica"] == -1, (rack, part)
        assert _values(part) == values
    assert _counter(L, "fetch_preferred_replica_redirects_total") > redirects0

    # The follower serves v11+ up to its high watermark, which reaches the
    # leader's once it hears the commit.
    part = harness.wait_until(
        lambda: (lambda p: p if p["HighWatermark"] == len(values) else None)(
            _raw_fetch(F, topic, 0, version=12, rack_id=F.rack)),
        timeout=10, interval=0.1, what="the follower's high watermark")
    assert part["ErrorCode"] == 0 and part["PreferredReadReplica"] == -1, part
    assert _values(part) == values
    assert _counter(F, "fetch_follower_reads_total") > reads0
    # Without client metadata (v10) a follower refuses, as Kafka's.
    part = _raw_fetch(F, topic, 0, version=10)
    assert part["ErrorCode"] == rawkafka.NOT_LEADER_OR_FOLLOWER, part
    # Past its log end: out of range (the client goes back to the leader).
    part = _raw_fetch(F, topic, len(values) + 5, version=12, rack_id=F.rack)
    assert part["ErrorCode"] == rawkafka.OFFSET_OUT_OF_RANGE, part
    # Epoch checks against the epoch the follower knows.
    part = _raw_fetch(F, topic, 0, version=12, rack_id=F.rack, current_leader_epoch=epoch + 1)
    assert part["ErrorCode"] == UNKNOWN_LEADER_EPOCH, part
    if epoch > 0:
        part = _raw_fetch(F, topic, 0, version=12, rack_id=F.rack,
                          current_leader_epoch=epoch - 1)
        assert part["ErrorCode"] == FENCED_LEADER_EPOCH, part

    # A long poll on the follower wakes when new records commit.
    got = {}

    def poll():
        got["part"] = _raw_fetch(F, topic, len(values), version=12, rack_id=F.rack,
                                 max_wait_ms=15000)
        got["at"] = time.monotonic()

    th = threading.Thread(target=poll)
    th.start()
    time.sleep(0.5)
    sent = time.monotonic()
    _produce(c.bootstrap, topic, [b"late"])
    th.join(20)
    assert not th.is_alive()
    assert _values(got["part"]) == [b"late"], got["part"]
    assert got["at"] - sent < 10.0, "the follower's long poll did not wake on new data"


def test_follower_reads_never_pass_the_leaders_high_watermark(racked):
    """Records read from a follower while the leader takes writes and then
    is killed are all, at the same offsets, in the log the new leader
    serves: a follower never hands out a record that could be lost."""
    c = racked
    topic, leader, f = _replicated_topic(c, "ffhw")
    F = c.node(f)
    stop = threading.Event()
    seen = {}  # offset -> value read from the follower
    errors = []
    past_hw = []  # records a follower answered at or past its high watermark

    def follower_reader():
        offset = 0
        deadline = time.monotonic() + 40
        with rawkafka.KafkaConn(F.bootstrap) as conn:
            conn.api_versions()
            while not stop.is_set() and time.monotonic() < deadline:
                part, _ = conn.fetch(topic, 0, offset, version=12, rack_id=F.rack,
                                     max_wait_ms=200)
                if part["ErrorCode"] not in (0, rawkafka.OFFSET_OUT_OF_RANGE):
                    errors.append(part["ErrorCode"])
                    time.sleep(0.05)
                    continue
                for b in rawkafka.parse_batches(part["Records"]):
                    for r in b.records():
                        if r["offset"] >= part["HighWatermark"]:
                            past_hw.append((r["offset"], part["HighWatermark"]))
                        if r["offset"] >= offset:
                            seen[r["offset"]] = r["value"]
                    offset = max(offset, b.base_offset + b.last_offset_delta + 1)

    th = threading.Thread(target=follower_reader)
    th.start()
    from confluent_kafka import Producer
    p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 2,
                  "message.timeout.ms": 30000})
    try:
        for i in range(400):
            p.produce(topic, value=b"v%05d" % i, partition=0)
            if i % 50 == 0:
                p.poll(0)
            if i == 200:
                c.kill9(leader)
            time.sleep(0.005)
        p.flush(40)
        time.sleep(1.0)
    finally:
        stop.set()
        th.join(45)
    assert not th.is_alive()
    assert seen, "nothing was read from the follower (errors: %r)" % errors[:5]
    assert not past_hw, past_hw[:5]
    # Everything read from the follower is in the surviving log, unchanged.
    new_leader = c.leader_of(topic, 0, exclude=(leader,))
    hw = c.high_watermark(topic, 0)
    final = {}
    with rawkafka.KafkaConn(c.node(new_leader).bootstrap) as conn:
        conn.api_versions()
        off = 0
        for _ in range(1000):
            if off >= hw:
                break
            part, _ = conn.fetch(topic, 0, off, version=12)
            assert part["ErrorCode"] == 0, part
            for b in rawkafka.parse_batches(part["Records"]):
                for r in b.records():
                    final[r["offset"]] = r["value"]
                off = max(off, b.base_offset + b.last_offset_delta + 1)
    missing = {o: v for o, v in seen.items() if final.get(o) != v}
    assert not missing, "read from the follower but not in the log: %r" % dict(
        list(missing.items())[:5])
    c.start_node(leader)


def _hb(conn, group, member, epoch, rack, topics=None, assignor=None, owned=None):
    return conn.request(API_CG_HEARTBEAT, 0, {
        "GroupId": group, "MemberId": member, "MemberEpoch": epoch, "InstanceId": None,
        "RackId": rack, "RebalanceTimeoutMs": 30000 if epoch == 0 else -1,
        "SubscribedTopicNames": topics, "ServerAssignor": assignor,
        "TopicPartitions": owned})


@pytest.mark.parametrize("assignor", ["uniform", "range"])
def test_kip848_assignors_match_member_racks(racked, assignor):
    c = racked
    topic = harness.unique_topic("rackasg")
    # Six single-replica partitions, partition i on broker i % 3 + 1, so
    # each rack holds exactly partitions {r, r + 3}.
    c.create_placed(topic, [[i % 3 + 1] for i in range(6)])
    topic_id = None
    with rawkafka.KafkaConn(c.node(1).bootstrap) as conn:
        conn.api_versions()
        md = conn.metadata([topic], version=12)
        topic_id = md["Topics"][0]["TopicId"]
    group = "rack-aware-%s-%d" % (assignor, os.getpid())
    racks = {n: c.node(n).rack for n in (1, 2, 3)}
    members = {}
    # Heartbeat until every member holds two partitions (the members
    # reconcile in steps); a coordinator that moves or loads is found
    # again, as clients do.
    deadline = time.monotonic() + 40
    conn = None
    try:
        while time.monotonic() < deadline:
            if conn is None:
                conn = rawkafka.KafkaConn(c.node(c.coordinator_of(group)).bootstrap)
                conn.api_versions()
            moved = False
            for n in (1, 2, 3):
                m = members.get(n)
                if m is None:
                    r = _hb(conn, group, "", 0, racks[n], topics=[topic], assignor=assignor)
                else:
                    owned = [{"TopicId": topic_id, "Partitions": m[2]}] if m[2] else []
                    r = _hb(conn, group, m[0], m[1], racks[n], owned=owned)
                if r["ErrorCode"] in COORDINATOR_MOVED:
                    moved = True
                    break
                assert r["ErrorCode"] == 0, r
                if m is None:
                    m = members[n] = [r["MemberId"], r["MemberEpoch"], []]
                m[1] = r["MemberEpoch"]
                if r["Assignment"] is not None:
                    m[2] = sorted(p for tp in r["Assignment"]["TopicPartitions"]
                                  for p in tp["Partitions"])
            if moved:
                conn.close()
                conn = None
                time.sleep(0.3)
                continue
            if len(members) == 3 and all(len(m[2]) == 2 for m in members.values()):
                break
            time.sleep(0.2)
    finally:
        if conn is not None:
            conn.close()
    got = {n: m[2] for n, m in members.items()}
    # Broker n (rack zone-?) holds partitions n - 1 and n + 2.
    assert got == {n: [n - 1, n + 2] for n in (1, 2, 3)}, got


def test_kip848_assignment_follows_replicas_moved_to_other_racks(racked):
    """KIP-1101: a reassignment that moves partitions' replicas to other
    racks makes the coordinator compute a new target assignment (a new
    group epoch), and confluent-kafka consumers with `client.rack` and
    `group.protocol=consumer` end up with the partitions now in their
    racks. Partition counts do not change here, so only the racks can
    trigger it."""
    from confluent_kafka import Consumer
    from kafka import TopicPartition
    from kafka.admin import KafkaAdminClient
    c = racked
    topic = harness.unique_topic("rackmove")
    # Six single-replica partitions, partition i on broker i % 3 + 1:
    # broker n (its rack) holds partitions n - 1 and n + 2.
    c.create_placed(topic, [[i % 3 + 1] for i in range(6)])
    group = "rack-move-%d" % os.getpid()
    consumers = {}

    def parts(n):
        return sorted(tp.partition for tp in consumers[n].assignment())

    def poll_until(want, what, timeout):
        deadline = time.monotonic() + timeout
        for _ in range(100000):
            if all(parts(n) == want[n] for n in consumers):
                return
            assert time.monotonic() < deadline, "%s: assignments %s, wanted %s" % (
                what, {n: parts(n) for n in consumers}, want)
            for con in consumers.values():
                con.consume(num_messages=100, timeout=0.05)

    admin = KafkaAdminClient(bootstrap_servers=c.bootstrap, request_timeout_ms=30000)
    try:
        for n in (1, 2, 3):
            consumers[n] = Consumer({
                "bootstrap.servers": c.bootstrap, "group.id": group,
                "group.protocol": "consumer", "client.rack": c.node(n).rack,
                "auto.offset.reset": "earliest", "enable.auto.commit": False,
                "fetch.wait.max.ms": 100, "socket.timeout.ms": 10000,
            })
            consumers[n].subscribe([topic])
        poll_until({n: [n - 1, n + 2] for n in (1, 2, 3)},
                   "members in the racks of their partitions", 60)

        # Swap partitions 0 and 1: 0 (broker 1, zone of consumer 1) moves
        # to broker 2, 1 (broker 2) to broker 1.
        res = admin.alter_partition_reassignments(
            {TopicPartition(topic, 0): [2], TopicPartition(topic, 1): [1]})
        assert all(e is None for e in res.values()), res
        harness.wait_until(
            lambda: c.replicas_of(topic, 0) == [2] and c.replicas_of(topic, 1) == [1],
            timeout=60, interval=0.2, what="the reassignments of partitions 0 and 1")
        # Broker 1 now holds {1, 3}, broker 2 {0, 4}, broker 3 {2, 5}.
        poll_until({1: [1, 3], 2: [0, 4], 3: [2, 5]},
                   "members following the moved replicas", 60)
    finally:
        for con in consumers.values():
            con.close()
        admin.close()


def test_confluent_consumer_reads_in_its_rack_and_falls_back(racked):
    from confluent_kafka import Consumer
    c = racked
    first = [b"a%04d" % i for i in range(200)]
    topic, leader, f = _replicated_topic(c, "ffcons", first)
    other = [r for r in c.replicas_of(topic, 0) if r not in (leader, f)][0]
    L, F, O = c.node(leader), c.node(f), c.node(other)
    reads_f0 = _counter(F, "fetch_follower_reads_total")
    reads_o0 = _counter(O, "fetch_follower_reads_total")
    consumer = Consumer({
        "bootstrap.servers": c.bootstrap, "group.id": "ff-%d" % os.getpid(),
        "client.rack": F.rack, "auto.offset.reset": "earliest",
        "enable.auto.commit": False, "fetch.wait.max.ms": 100,
    })
    got = []

    def consume_until(n, timeout):
        deadline = time.monotonic() + timeout
        while len(got) < n and time.monotonic() < deadline:
            m = consumer.poll(0.5)
            if m is None or m.error():
                continue
            got.append(m.value())

    try:
        consumer.subscribe([topic])
        consume_until(len(first), 30)
        assert got == first
        # Keep consuming new records for a while: served by F.
        more = [b"b%04d" % i for i in range(50)]
        _produce(c.bootstrap, topic, more)
        consume_until(len(first) + len(more), 20)
        assert got == first + more
        assert _counter(F, "fetch_follower_reads_total") > reads_f0, \
            "the consumer in %s did not read from broker %d" % (F.rack, f)
        assert _counter(O, "fetch_follower_reads_total") == reads_o0, \
            "a follower in another rack served the consumer"
        # The follower in the consumer's rack dies: the consumer goes back
        # to the leader (or the leader points it elsewhere) and misses or
        # repeats nothing.
        c.kill9(f)
        rest = [b"c%04d" % i for i in range(100)]
        _produce(c.bootstrap, topic, rest)
        consume_until(len(first) + len(more) + len(rest), 60)
        assert got == first + more + rest, (len(got), got[-3:])
    finally:
        consumer.close()
        c.start_node(f)


def test_tmk_consume_with_rack_reads_from_its_follower_and_falls_back(racked):
    """`tmk topic consume --rack` (rpk's flag; tidemark-client's
    `FetcherConfig::rack`): partition reads and group reads go to the
    follower in that rack, and when it dies the same run goes back to the
    leader and prints every record once, in order."""
    import subprocess
    from test_tmk import ok, run_tmk, tmk_binary
    c = racked
    first = [b"t%04d" % i for i in range(100)]
    topic, leader, f = _replicated_topic(c, "fftmk", first)
    other = [r for r in c.replicas_of(topic, 0) if r not in (leader, f)][0]
    F, O = c.node(f), c.node(other)
    brokers = ["-X", "brokers=" + c.bootstrap]
    want = "".join(v.decode() + "\n" for v in first)

    reads_f, reads_o = _counter(F, "fetch_follower_reads_total"), _counter(O, "fetch_follower_reads_total")
    out = ok(run_tmk(brokers + ["topic", "consume", topic, "--rack", F.rack, "-n", "100", "-f", "%v\n"]))
    assert out == want
    assert _counter(F, "fetch_follower_reads_total") > reads_f, "tmk did not read from its rack"
    assert _counter(O, "fetch_follower_reads_total") == reads_o, "a follower in another rack served tmk"
    # A group member (the client library's Fetcher) too.
    reads_f = _counter(F, "fetch_follower_reads_total")
    out = ok(run_tmk(brokers + ["topic", "consume", topic, "-g", "fftmk-%d" % os.getpid(),
                                "--rack", F.rack, "-n", "100", "-f", "%v\n"]))
    assert out == want
    assert _counter(F, "fetch_follower_reads_total") > reads_f, "the group member did not read from its rack"

    # A long run from offset 100: reading from F, then F is killed.
    more = [b"u%04d" % i for i in range(50)]
    rest = [b"v%04d" % i for i in range(100)]
    env = dict(os.environ, TMK_CONFIG="/nonexistent/tmk.yaml")
    env.pop("TMK_BROKERS", None)
    reads_f = _counter(F, "fetch_follower_reads_total")
    proc = subprocess.Popen([str(tmk_binary())] + brokers + [
        "topic", "consume", topic, "--rack", F.rack, "-o", "100", "-n", "150", "-f", "%v\n",
        "--fetch-max-wait", "200"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        _produce(c.bootstrap, topic, more)
        harness.wait_until(lambda: _counter(F, "fetch_follower_reads_total") > reads_f + 2,
                           timeout=20, interval=0.2, what="tmk reading from its rack's follower")
        c.kill9(f)
        _produce(c.bootstrap, topic, rest)
        stdout, stderr = proc.communicate(timeout=90)
        assert proc.returncode == 0, stderr.decode()
        assert stdout.decode() == "".join(v.decode() + "\n" for v in more + rest), \
            (len(stdout.splitlines()), stderr.decode()[-500:])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        c.start_node(f)


def test_without_a_selector_reads_stay_on_the_leader():
    c = cluster.Cluster(3, name="no-selector")
    try:
        c.start()
        topic, leader, f = _replicated_topic(c, "ffoff", [b"x", b"y"])
        part = _raw_fetch(c.node(leader), topic, 0, version=12, rack_id=c.node(f).rack)
        assert part["ErrorCode"] == 0 and part["PreferredReadReplica"] == -1, part
        assert _values(part) == [b"x", b"y"]
        # A follower still serves v11+ fetches sent to it, as Kafka's do.
        part = harness.wait_until(
            lambda: (lambda p: p if _values(p) == [b"x", b"y"] else None)(
                _raw_fetch(c.node(f), topic, 0, version=12)),
            timeout=10, interval=0.1, what="the follower's records")
        assert part["ErrorCode"] == 0
    finally:
        c.close()


def test_read_committed_from_a_follower(racked):
    """A follower answers read_committed as the leader does: its last
    stable offset, and the aborted transactions meeting what it returns,
    from the transaction markers replicated into its log."""
    from confluent_kafka import Producer
    c = racked
    topic, leader, f = _replicated_topic(c, "fftxn")
    p = Producer({"bootstrap.servers": c.bootstrap, "transactional.id": "fftxn-%d" % os.getpid(),
                  "acks": "all", "linger.ms": 0})
    p.init_transactions(30)
    p.begin_transaction()
    for i in range(3):
        p.produce(topic, value=b"aborted%d" % i, partition=0)
    assert p.flush(30) == 0  # in the log before the abort, not purged
    p.abort_transaction(30)
    p.begin_transaction()
    for i in range(2):
        p.produce(topic, value=b"committed%d" % i, partition=0)
    p.commit_transaction(30)
    end = c.high_watermark(topic, 0)
    assert end == 7, end  # 3 aborted, marker, 2 committed, marker
    F = c.node(f)

    def follower_view():
        part = _raw_fetch(F, topic, 0, version=12, rack_id=F.rack, isolation_level=1)
        return part if part["LastStableOffset"] == end else None

    part = harness.wait_until(follower_view, timeout=10, interval=0.1,
                              what="the follower's last stable offset %d" % end)
    assert part["ErrorCode"] == 0 and part["HighWatermark"] == end, part
    aborted = part["AbortedTransactions"] or []
    assert [a["FirstOffset"] for a in aborted] == [0], part
    # The data batches come back with the markers; the client drops the
    # aborted producer's records up to its abort marker.
    values = [r["value"] for b in rawkafka.parse_batches(part["Records"])
              if not b.attributes & 0x20 for r in b.records()]
    assert values == [b"aborted0", b"aborted1", b"aborted2", b"committed0", b"committed1"]


def test_kafkajs_consumer_with_rack_id_reads_from_its_follower(racked):
    c = racked
    values = [b"js%03d" % i for i in range(100)]
    topic, leader, f = _replicated_topic(c, "ffjs", values)
    F = c.node(f)
    # What this test is about is kafkajs following the leader's pointer,
    # so it starts once the leader gives one to a consumer in F's rack.
    harness.wait_until(
        lambda: _raw_fetch(c.node(leader), topic, 0, version=12,
                           rack_id=F.rack)["PreferredReadReplica"] == f,
        timeout=15, interval=0.2, what="the leader to point zone %s at broker %d" % (F.rack, f))
    reads0 = _counter(F, "fetch_follower_reads_total")
    res = clients.kafkajs("group", {
        "brokers": [n.bootstrap for n in c.nodes.values()], "topic": topic,
        "groupId": "ffjs-%d" % os.getpid(), "count": len(values), "timeoutMs": 30000,
        "rackId": F.rack})
    got = [clients._unb64(m["value"]) for m in res["messages"]]
    assert got == values
    assert _counter(F, "fetch_follower_reads_total") > reads0, \
        "kafkajs in %s did not read from broker %d" % (F.rack, f)
