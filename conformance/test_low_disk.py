"""The full-disk guard (`log.dir.min.free.bytes`, broker/src/disk_space.rs)
on a real small file system: a broker whose data folder is a 64 MiB tmpfs
(root only; tmpfs takes O_DIRECT since Linux 6.6, else the broker falls back
to buffered writes by itself).

One idempotent confluent-kafka producer fills the disk until produce is
refused (a second producer without retries sees KAFKA_STORAGE_ERROR, which
is retriable); reads, a group's offset commit and DescribeLogDirs (KIP-827
TotalBytes/UsableBytes) keep working; deleting another topic (DeleteTopics,
or DeleteRecords up to its end) frees space; the first producer's pending
records are then delivered by its own retries and the whole topic reads
back exactly as sent: nothing acknowledged lost, nothing duplicated.

The settings apply live (`test_guard_settings_apply_live`, no mount
needed). In a cluster (`test_follower_out_of_space_...`): a follower whose
small disk fills is not protected by the guard (replicated writes are not
refused); its copy of the partition fails at ENOSPC and falls behind while
the leader goes on with the other voter; once its disk is bigger it reopens
the failed log by itself and catches up, without a restart.
"""

import os
import shutil
import subprocess
import time

import pytest

import clients
import harness
import rawkafka

MiB = 1024 * 1024
FS_BYTES = 64 * MiB
MIN_FREE_BYTES = 24 * MiB
VALUE_BYTES = 16 * 1024


def _mount_tmpfs(path, size):
    # A real full file system is the point of these tests: they need root
    # to mount one (CI and ./test.sh run as root, as install.sh needs).
    assert os.geteuid() == 0, "mounting a small tmpfs needs root: run the suite as root"
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%d" % size, "tidemark-lowdisk",
                        str(path)], capture_output=True, text=True, timeout=20)
    assert r.returncode == 0, "cannot mount a tmpfs at %s: %s" % (path, r.stderr.strip())


@pytest.fixture
def small_disk_broker():
    b = harness.Broker(settings={
        "log.dir.min.free.bytes": str(MIN_FREE_BYTES),
        # the fixed size decides (the smaller of the two applies)
        "log.dir.min.free.percent": "100",
        "log.dir.free.alert.percent": "50",
        "log.segment.bytes": str(2 * MiB),
        "auto.create.topics.enable": "false",
        "offsets.topic.num.partitions": "1",
    }, name="low-disk")
    _mount_tmpfs(b.data_dir, FS_BYTES)
    try:
        b.start()
        yield b
    finally:
        try:
            b.close()
        finally:
            subprocess.run(["umount", "-l", str(b.data_dir)], capture_output=True, timeout=20)
            shutil.rmtree(b.root, ignore_errors=True)


def _fill_producer(bootstrap, delivered):
    p = clients.confluent_producer(
        bootstrap,
        **{"enable.idempotence": True, "linger.ms": 5, "message.timeout.ms": 120000,
           "retry.backoff.ms": 100, "retry.backoff.max.ms": 500,
           "batch.size": 256 * 1024})

    def on_delivery(err, msg):
        delivered.append((err, msg.key(), msg.offset()))
    return p, on_delivery


@pytest.mark.parametrize("free_by", ["delete_topics", "delete_records"])
def test_produce_refused_when_disk_low_then_resumes_without_loss(small_disk_broker, free_by):
    from confluent_kafka import KafkaError, TopicPartition
    b = small_disk_broker
    fill, ballast = harness.unique_topic("lowdisk-fill"), harness.unique_topic("lowdisk-ballast")
    rawkafka.ensure_topic(b.bootstrap, fill, 1)
    rawkafka.ensure_topic(b.bootstrap, ballast, 1)

    # 16 MiB in another topic: what the operator deletes later.
    bp = clients.confluent_producer(b.bootstrap)
    for i in range(16 * MiB // (64 * 1024)):
        bp.produce(ballast, os.urandom(64 * 1024), partition=0)
        bp.poll(0)
    assert bp.flush(30) == 0

    delivered = []
    p, on_delivery = _fill_producer(b.bootstrap, delivered)
    sent = 0
    blocked = False
    deadline = time.monotonic() + 30
    # Bounded by the file system's size: it fills long before.
    while sent * VALUE_BYTES < 2 * FS_BYTES and time.monotonic() < deadline:
        for _ in range(32):
            p.produce(fill, os.urandom(VALUE_BYTES), key=b"%d" % sent, partition=0,
                      on_delivery=on_delivery)
            sent += 1
            p.poll(0)
        if p.flush(2.0) > 0:
            blocked = True
            break
    assert blocked, "produce never blocked after %d records (%d MiB)" % (
        sent, sent * VALUE_BYTES // MiB)
    acked_before = [d for d in delivered if d[0] is None]
    assert [d for d in delivered if d[0] is not None] == [], "a delivery failed while retrying"
    assert len(acked_before) < sent
    pending = sent - len(delivered)
    assert pending > 0

    # A producer without retries hears the retriable error itself.
    probe_errs = []
    probe = clients.confluent_producer(b.bootstrap, **{"retries": 0,
                                                       "message.timeout.ms": 10000})
    probe.produce(fill, b"probe", partition=0,
                  on_delivery=lambda err, msg: probe_errs.append(err))
    assert probe.flush(15) == 0
    assert len(probe_errs) == 1 and probe_errs[0] is not None
    assert probe_errs[0].code() == KafkaError.KAFKA_STORAGE_ERROR, probe_errs[0]
    import kafka.errors
    assert kafka.errors.for_code(56).retriable

    # Reads are served and a group commit works.
    got = clients.confluent_consume(b.bootstrap, fill, [0], 10)
    assert [m["key"] for m in got] == [b"%d" % i for i in range(10)]
    group = harness.unique_topic("lowdisk-group")
    c = clients.confluent_consumer(b.bootstrap, **{"group.id": group})
    try:
        c.commit(offsets=[TopicPartition(fill, 0, 7)], asynchronous=False)
        committed = c.committed([TopicPartition(fill, 0)], timeout=10)
        assert committed[0].offset == 7 and committed[0].error is None
    finally:
        c.close()

    # DescribeLogDirs v4 (KIP-827): the file system's size and what is left.
    a = clients.kp_admin(b.bootstrap)
    try:
        dirs = a.describe_log_dirs([fill])
        ld = dirs[0]["log_dirs"][0]
        assert ld["error_code"] == 0
        assert 0 < ld["total_bytes"] <= FS_BYTES
        assert 0 <= ld["usable_bytes"] < MIN_FREE_BYTES
    finally:
        a.close()

    # Still refused a few seconds on: nothing was delivered meanwhile.
    p.poll(1.0)
    assert len([d for d in delivered if d[0] is None]) == len(acked_before)

    # Free space: delete the other topic, or its records (whole segments
    # below the new log start go at once). The producer's own retries then
    # deliver everything it held.
    ca = clients.confluent_admin(b.bootstrap)
    if free_by == "delete_topics":
        ca.delete_topics([ballast], operation_timeout=30)[ballast].result(timeout=30)
    else:
        from confluent_kafka import OFFSET_END
        tp = TopicPartition(ballast, 0, OFFSET_END)
        res = list(ca.delete_records([tp], operation_timeout=30).values())[0].result(timeout=30)
        assert res.low_watermark > 0, res
    assert p.flush(60) == 0, "pending records not delivered after space was freed"
    errs = [d for d in delivered if d[0] is not None]
    assert errs == [], errs[:3]
    assert len(delivered) == sent

    # Everything acknowledged is there, once, in order.
    got = clients.confluent_consume(b.bootstrap, fill, [0], sent, timeout=60, conf={
        "fetch.max.bytes": 8 * MiB})
    assert [m["key"] for m in got] == [b"%d" % i for i in range(sent)]
    assert [m["offset"] for m in got] == list(range(sent))
    with rawkafka.KafkaConn(b.bootstrap) as conn:
        assert conn.list_offset(fill, 0, rawkafka.LATEST)["Offset"] == sent
    log = open(b.log_paths[-1], errors="replace").read()
    assert "below its free-space minimum" in log
    assert "previous=low" in log, "no log line for leaving the low state"


@pytest.fixture
def cluster_small_follower(request):
    """Three brokers; node 3's data folder is a 48 MiB tmpfs."""
    import cluster
    c = cluster.Cluster(3, settings={"log.segment.bytes": str(2 * MiB),
                                     "auto.leader.rebalance.enable": "false"},
                        name=request.node.name)
    small = c.node(3)
    try:
        _mount_tmpfs(small.data_dir, 48 * MiB)
    except BaseException:
        c.close()
        raise
    try:
        c.start()
        yield c
    finally:
        try:
            c.close()
        finally:
            subprocess.run(["umount", "-l", str(small.data_dir)], capture_output=True,
                           timeout=20)
            shutil.rmtree(small.root, ignore_errors=True)
            shutil.rmtree(c.root, ignore_errors=True)


def _partition_sizes(c, topic, part):
    """{node id: bytes of the partition's log} by DescribeLogDirs."""
    a = clients.kp_admin(c.bootstrap)
    try:
        out = {}
        for d in a.describe_log_dirs({topic: [part]}):
            for ld in d["log_dirs"]:
                for t in ld["topics"]:
                    for p in t["partitions"]:
                        if t["name"] == topic and p["partition_index"] == part:
                            out[d["broker"]] = p["partition_size"]
        return out
    finally:
        a.close()


def test_follower_out_of_space_falls_behind_and_the_leader_goes_on(cluster_small_follower):
    """A follower's replicated writes are not refused by the guard (its own
    clients' produce is): when its disk fills, that partition's log fails
    at ENOSPC on the follower only, the follower falls behind, and the
    leader goes on acknowledging acks=all with the other voter. The
    follower process stays up; once its disk is bigger it reopens the
    failed log by itself and catches up, without a restart."""
    c = cluster_small_follower
    small = c.node(3)
    topic = harness.unique_topic("lowdisk-follower")
    c.create_topic(topic, 3, replication_factor=3, full_isr=True)
    # A partition whose preferred replica (where a new partition's
    # leadership settles) is not node 3, once it is led from there.
    preferred = {p: c.partition_state(topic, p)["ReplicaNodes"][0] for p in range(3)}
    part = next(p for p in range(3) if preferred[p] != 3)
    leader = preferred[part]
    harness.wait_until(lambda: c.leader_of(topic, part) == leader, timeout=20,
                       what="%s/%d led by its preferred replica %d" % (topic, part, leader))
    p = clients.confluent_producer(c.node(leader).bootstrap, **{
        "enable.idempotence": True, "message.timeout.ms": 60000, "batch.size": 256 * 1024})
    errs, acked = [], [0]

    def on_delivery(err, msg):
        if err is None:
            acked[0] += 1
        else:
            errs.append(err)
    # 64 MiB: more than the follower's 48 MiB disk can hold.
    total = 64 * MiB // VALUE_BYTES
    deadline = time.monotonic() + 60
    for i in range(total):
        p.produce(topic, os.urandom(VALUE_BYTES), key=b"%d" % i, partition=part,
                  on_delivery=on_delivery)
        if i % 64 == 63:
            p.flush(30)
        assert time.monotonic() < deadline, "producing 64 MiB took over 60 s"
    assert p.flush(30) == 0
    assert errs == [], errs[:3]
    assert acked[0] == total
    small.check_alive()
    log = open(small.log_paths[-1], errors="replace").read()
    assert "No space left" in log, "the follower never hit ENOSPC"
    with rawkafka.KafkaConn(c.node(leader).bootstrap) as conn:
        assert conn.list_offset(topic, part, rawkafka.LATEST)["Offset"] == total
    sizes = _partition_sizes(c, topic, part)
    assert sizes[3] < sizes[leader], "the full follower did not fall behind: %s" % sizes

    # A bigger disk (tmpfs grows in place), no restart: the broker reopens
    # the failed log by itself once it sees the space, and the follower
    # catches up.
    r = subprocess.run(["mount", "-o", "remount,size=%d" % (256 * MiB), str(small.data_dir)],
                       capture_output=True, text=True, timeout=20)
    assert r.returncode == 0, r.stderr
    last = {}

    def caught_up():
        last.update(_partition_sizes(c, topic, part))
        return last.get(3) == last[leader]
    harness.wait_until(caught_up, timeout=60,
                       what="node 3 to hold as much of %s/%d as the leader" % (topic, part))
    assert last[leader] == sizes[leader]
    small.check_alive()
    log = open(small.log_paths[-1], errors="replace").read()
    assert "reopening a partition whose log failed for want of space" in log


def _produce_once(bootstrap, topic):
    """One record without retries: its delivery error (None when stored)."""
    errs = []
    p = clients.confluent_producer(bootstrap, **{"retries": 0, "message.timeout.ms": 10000})
    p.produce(topic, b"x", partition=0, on_delivery=lambda err, msg: errs.append(err))
    assert p.flush(15) == 0
    return errs[0]


def test_guard_settings_apply_live(broker_factory):
    """The guard's settings are dynamic (no mount needed): a minimum above
    the disk's free space refuses produce within the periodic check, and
    deleting it lets produce through again."""
    from confluent_kafka import KafkaError
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType
    b = broker_factory({"auto.create.topics.enable": "false"})
    topic = harness.unique_topic("lowdisk-live")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    assert _produce_once(b.bootstrap, topic) is None
    a = clients.confluent_admin(b.bootstrap)

    # a minimum no disk has (the fixed size decides at 100%)
    impossible = {"log.dir.min.free.bytes": str(1 << 62), "log.dir.min.free.percent": "100"}

    def alter(op):
        res = ConfigResource(ResourceType.BROKER, str(b.node_id), incremental_configs=[
            ConfigEntry(name, value if op == AlterConfigOpType.SET else None,
                        incremental_operation=op)
            for name, value in impossible.items()])
        a.incremental_alter_configs([res])[res].result(timeout=30)

    alter(AlterConfigOpType.SET)
    harness.wait_until(
        lambda: (e := _produce_once(b.bootstrap, topic)) is not None
        and e.code() == KafkaError.KAFKA_STORAGE_ERROR,
        timeout=10, interval=0.2, what="produce refused under an impossible minimum")
    alter(AlterConfigOpType.DELETE)
    harness.wait_until(lambda: _produce_once(b.bootstrap, topic) is None, timeout=10,
                       interval=0.2, what="produce accepted again")
    log = open(b.log_paths[-1], errors="replace").read()
    assert "below its free-space minimum" in log
