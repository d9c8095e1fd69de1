"""Share groups (KIP-932) driven by confluent-kafka's ShareConsumer
(librdkafka 2.16: ShareGroupHeartbeat v1, ShareFetch v1, ShareAcknowledge
v1) and raw requests: several members on one partition receive disjoint
records covering everything; Release redelivers with a higher delivery
count; Reject never redelivers; a killed consumer's records come back to
the others after the acquisition lock times out; the delivery count limit
archives a poison record into the dead-letter topic (with its headers and a
copy of the record) while the records after it keep flowing; delayed
records arrive no earlier than their time; share groups are listed and
described; acknowledgements survive a restart; bad requests get Kafka's
errors.

One broker per module with short acquisition locks (2 s); each test uses
its own topic and group.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from confluent_kafka import (OFFSET_BEGINNING, AcknowledgeType, Consumer, Producer, ShareConsumer,
                             TopicPartition)
from confluent_kafka.admin import AdminClient, NewTopic

import harness
import rawkafka

# Mostly waiting on acquisition locks and delays: run alongside the rest.
pytestmark = pytest.mark.waits

LOCK_MS = 2000
BROKER_SETTINGS = {
    "num.partitions": 1,
    "group.share.min.record.lock.duration.ms": 1000,
    "group.share.record.lock.duration.ms": LOCK_MS,
    "group.share.heartbeat.interval.ms": 1000,
}

API_LIST_GROUPS = 16
API_INCREMENTAL_ALTER = 44
API_SHARE_GROUP_HEARTBEAT = 76
API_SHARE_GROUP_DESCRIBE = 77
API_SHARE_FETCH = 78
API_SHARE_ACKNOWLEDGE = 79
GROUP_RESOURCE = 32

INVALID_RECORD_STATE = 121
SHARE_SESSION_NOT_FOUND = 122
INVALID_SHARE_SESSION_EPOCH = 123
FENCED_MEMBER_EPOCH = 110
UNKNOWN_MEMBER_ID = 25


def set_group_configs(broker, group, configs):
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        r = c.request(API_INCREMENTAL_ALTER, 1, {
            "Resources": [{"ResourceType": GROUP_RESOURCE, "ResourceName": group, "Configs": [
                {"Name": k, "ConfigOperation": 0, "Value": str(v)} for k, v in configs.items()]}],
            "ValidateOnly": False})
    res = r["Responses"][0]
    assert res["ErrorCode"] == 0, res


def new_topic(broker, partitions=1, prefix="share"):
    topic = harness.unique_topic(prefix)
    a = AdminClient({"bootstrap.servers": broker.bootstrap})
    a.create_topics([NewTopic(topic, partitions, 1)])[topic].result(15)
    return topic


def produce(broker, topic, values, one_batch_each=True, headers=None, partition=None):
    p = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 0, "acks": "all"})
    for v in values:
        kw = {}
        if headers is not None:
            kw["headers"] = headers(v)
        if partition is not None:
            kw["partition"] = partition
        p.produce(topic, value=v.encode() if isinstance(v, str) else v, key=v, **kw)
        if one_batch_each:
            p.flush(10)
    assert p.flush(10) == 0


def share_consumer(broker, group, topic, explicit=False, **extra):
    conf = {"bootstrap.servers": broker.bootstrap, "group.id": group}
    if explicit:
        conf["share.acknowledgement.mode"] = "explicit"
    conf.update(extra)
    c = ShareConsumer(conf)
    c.subscribe([topic])
    return c


def poll_until(consumers, want, timeout=20.0, on_message=None):
    """Polls the consumers in turn until `want(collected)` holds; returns
    {index: [message, ...]} (messages without errors)."""
    got = {i: [] for i in range(len(consumers))}
    deadline = time.time() + timeout
    while time.time() < deadline:
        for i, c in enumerate(consumers):
            for m in c.poll(0.2):
                if m.error():
                    continue
                got[i].append(m)
                if on_message:
                    on_message(i, c, m)
        if want(got):
            return got
    return got


def count(got):
    return sum(len(v) for v in got.values())


def close_all(consumers):
    for c in consumers:
        try:
            c.close()
        except Exception:
            pass


def test_members_on_one_partition_get_disjoint_records_covering_all(broker):
    topic = new_topic(broker)
    group = "g-disjoint"
    set_group_configs(broker, group, {"share.auto.offset.reset": "earliest"})
    n = 120
    produce(broker, topic, ["r%d" % i for i in range(n)])
    consumers = [share_consumer(broker, group, topic, **{"max.poll.records": 10}) for _ in range(3)]
    try:
        got = poll_until(consumers, lambda g: count(g) >= n, timeout=30)
        offsets = [[m.offset() for m in v] for v in got.values()]
        everything = sorted(o for v in offsets for o in v)
        assert everything == list(range(n)), "every record exactly once"
        assert sum(1 for v in offsets if v) >= 2, "the partition's records were shared"
        assert all(m.delivery_count() == 1 for v in got.values() for m in v)
    finally:
        close_all(consumers)


def test_release_redelivers_with_a_higher_count_and_reject_never(broker):
    topic = new_topic(broker)
    group = "g-release"
    set_group_configs(broker, group, {"share.auto.offset.reset": "earliest"})
    produce(broker, topic, ["a", "b", "c"], one_batch_each=False)
    c = share_consumer(broker, group, topic, explicit=True)
    try:
        first = poll_until([c], lambda g: count(g) >= 3)[0]
        assert [m.value() for m in first] == [b"a", b"b", b"c"]
        kinds = {b"a": AcknowledgeType.ACCEPT, b"b": AcknowledgeType.RELEASE,
                 b"c": AcknowledgeType.REJECT}
        for m in first:
            c.acknowledge(m, kinds[m.value()])
        result = c.commit_sync(10)
        assert all(v is None for v in result.values()), result
        again = poll_until([c], lambda g: count(g) >= 1, timeout=10)[0]
        assert [(m.value(), m.delivery_count()) for m in again] == [(b"b", 2)]
        for m in again:
            c.acknowledge(m, AcknowledgeType.ACCEPT)
        c.commit_sync(10)
        # Nothing more: "a" accepted, "c" rejected (archived), "b" accepted.
        rest = poll_until([c], lambda g: count(g) >= 1, timeout=2.5 * LOCK_MS / 1000)[0]
        assert rest == []
    finally:
        close_all([c])


CONSUMER_SCRIPT = textwrap.dedent("""
    import sys, time
    from confluent_kafka import ShareConsumer
    bootstrap, group, topic, want = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group,
                       "share.acknowledgement.mode": "explicit"})
    c.subscribe([topic])
    got = 0
    deadline = time.time() + 30
    while got < want and time.time() < deadline:
        for m in c.poll(0.2):
            if not m.error():
                got += 1
    print("ACQUIRED %d" % got, flush=True)
    time.sleep(60)  # holds its records, unacknowledged, until killed
""")


def test_a_killed_consumers_records_come_back_after_the_lock_timeout(broker):
    topic = new_topic(broker)
    group = "g-killed"
    set_group_configs(broker, group, {"share.auto.offset.reset": "earliest"})
    produce(broker, topic, ["k%d" % i for i in range(5)], one_batch_each=False)
    proc = subprocess.Popen(
        [sys.executable, "-c", CONSUMER_SCRIPT, broker.bootstrap, group, topic, "5"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    other = None
    try:
        line = proc.stdout.readline()
        assert line.strip() == "ACQUIRED 5", line
        killed_at = time.time()
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        other = share_consumer(broker, group, topic)
        got = poll_until([other], lambda g: count(g) >= 5, timeout=20)[0]
        assert sorted(m.value() for m in got) == [b"k%d" % i for i in range(5)]
        assert all(m.delivery_count() == 2 for m in got)
        # Not before the lock ran out (less a little for clock reading).
        assert time.time() - killed_at >= LOCK_MS / 1000 - 0.5
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        close_all([other] if other else [])


def test_the_delivery_count_limit_dead_letters_a_poison_record(broker):
    topic = new_topic(broker)
    group = "g-poison"
    dlq = "dlq." + topic
    set_group_configs(broker, group, {
        "share.auto.offset.reset": "earliest",
        "share.delivery.count.limit": 2,
        "errors.deadletterqueue.topic.name": dlq,
        "errors.deadletterqueue.copy.record.enable": "true",
    })
    values = ["ok0", "poison", "ok1", "ok2"]
    produce(broker, topic, values)
    c = share_consumer(broker, group, topic, explicit=True)
    accepted, poison_deliveries = [], []
    try:
        def handle(_i, cons, m):
            if m.value() == b"poison":
                poison_deliveries.append(m.delivery_count())
                cons.acknowledge(m, AcknowledgeType.RELEASE)
            else:
                accepted.append(m.value())
                cons.acknowledge(m, AcknowledgeType.ACCEPT)
            cons.commit_sync(10)

        poll_until([c], lambda g: len(accepted) >= 3 and len(poison_deliveries) >= 2,
                   timeout=20, on_message=handle)
        assert sorted(accepted) == [b"ok0", b"ok1", b"ok2"]
        assert poison_deliveries == [1, 2]
        # Archived now: never delivered again.
        more = poll_until([c], lambda g: count(g) >= 1, timeout=2.5)[0]
        assert more == []
    finally:
        close_all([c])
    reader = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "dlq-reader",
                       "auto.offset.reset": "earliest"})
    try:
        reader.subscribe([dlq])
        dead = []
        deadline = time.time() + 15
        while not dead and time.time() < deadline:
            m = reader.poll(0.5)
            if m is not None and not m.error():
                dead.append(m)
        assert len(dead) == 1
        m = dead[0]
        h = {k: v.decode() for k, v in m.headers()}
        assert m.value() == b"poison" and m.key() == b"poison"
        assert h["__dlq.errors.topic"] == topic
        assert h["__dlq.errors.partition"] == "0"
        assert h["__dlq.errors.offset"] == "1"
        assert h["__dlq.errors.group"] == group
        assert h["__dlq.errors.delivery.count"] == "2"
        assert h["__dlq.errors.message"] == "delivery count exceeded"
    finally:
        reader.close()


def test_a_rejected_record_is_dead_lettered_without_a_copy(broker):
    topic = new_topic(broker)
    group = "g-reject-dlq"
    dlq = "dlq." + topic
    set_group_configs(broker, group, {"share.auto.offset.reset": "earliest",
                                      "errors.deadletterqueue.topic.name": dlq})
    produce(broker, topic, ["x"])
    c = share_consumer(broker, group, topic, explicit=True)
    try:
        got = poll_until([c], lambda g: count(g) >= 1)[0]
        c.acknowledge(got[0], AcknowledgeType.REJECT)
        assert all(v is None for v in c.commit_sync(10).values())
    finally:
        close_all([c])
    reader = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "dlq-reader2",
                       "auto.offset.reset": "earliest"})
    try:
        reader.subscribe([dlq])
        m = None
        deadline = time.time() + 15
        while m is None and time.time() < deadline:
            m = reader.poll(0.5)
            if m is not None and m.error():
                m = None
        assert m is not None
        h = {k: v.decode() for k, v in m.headers()}
        assert m.value() is None and m.key() is None
        assert h["__dlq.errors.message"] == "rejected"
        assert h["__dlq.errors.delivery.count"] == "1"
    finally:
        reader.close()


def test_delayed_records_arrive_no_earlier_than_their_time(broker):
    topic = new_topic(broker)
    group = "g-delay"
    set_group_configs(broker, group, {"share.auto.offset.reset": "earliest"})
    at_ms = int(time.time() * 1000) + 2500
    produce(broker, topic, ["later"], headers=lambda v: [("tidemark.deliver.at.ms", str(at_ms))])
    produce(broker, topic, ["now"])
    c = share_consumer(broker, group, topic)
    try:
        arrivals = {}

        def note(_i, _c, m):
            arrivals[m.value()] = time.time() * 1000

        poll_until([c], lambda g: count(g) >= 2, timeout=15, on_message=note)
        assert set(arrivals) == {b"later", b"now"}
        assert arrivals[b"now"] < at_ms, "an undelayed record is not held behind a delayed one"
        assert arrivals[b"later"] >= at_ms
    finally:
        close_all([c])


def test_share_groups_are_listed_and_described(broker):
    topic = new_topic(broker, partitions=2)
    group = "g-describe"
    c = share_consumer(broker, group, topic)
    try:
        c.poll(1.0)
        with rawkafka.KafkaConn(broker.bootstrap) as k:
            def described():
                r = k.request(API_SHARE_GROUP_DESCRIBE, 1, {
                    "GroupIds": [group], "IncludeAuthorizedOperations": False})
                return r["Groups"][0]
            harness.wait_until(lambda: described()["Members"], timeout=10,
                               what="the member to join")
            g = described()
            assert g["ErrorCode"] == 0 and g["GroupState"] == "Stable"
            m = g["Members"][0]
            assert m["SubscribedTopicNames"] == [topic]
            parts = m["Assignment"]["TopicPartitions"]
            assert parts[0]["TopicName"] == topic and sorted(parts[0]["Partitions"]) == [0, 1]
            r = k.request(API_LIST_GROUPS, 5, {"StatesFilter": [], "TypesFilter": ["share"]})
            listed = {x["GroupId"]: x for x in r["Groups"]}
            assert listed[group]["GroupType"] == "share"
            assert listed[group]["ProtocolType"] == "share"
            r = k.request(API_LIST_GROUPS, 5, {"StatesFilter": [], "TypesFilter": ["classic"]})
            assert group not in {x["GroupId"] for x in r["Groups"]}
            missing = k.request(API_SHARE_GROUP_DESCRIBE, 1, {
                "GroupIds": ["no-such-share-group"], "IncludeAuthorizedOperations": False})
            assert missing["Groups"][0]["ErrorCode"] == 69  # GROUP_ID_NOT_FOUND
    finally:
        close_all([c])


def share_fetch(k, group, member, epoch, topic_id, partition=0, acks=(), max_wait_ms=100):
    return k.request(API_SHARE_FETCH, 1, {
        "GroupId": group, "MemberId": member, "ShareSessionEpoch": epoch,
        "MaxWaitMs": max_wait_ms, "MinBytes": 1, "MaxBytes": 1 << 20, "MaxRecords": 100,
        "BatchSize": 100,
        "Topics": [{"TopicId": topic_id, "Partitions": [{
            "PartitionIndex": partition,
            "AcknowledgementBatches": [
                {"FirstOffset": f, "LastOffset": l, "AcknowledgeTypes": t} for f, l, t in acks]}]}],
        "ForgottenTopicsData": []})


def test_bad_share_requests_get_kafkas_errors(broker):
    topic = new_topic(broker)
    group = "g-raw"
    set_group_configs(broker, group, {"share.auto.offset.reset": "earliest"})
    produce(broker, topic, ["a", "b"], one_batch_each=False)
    with rawkafka.KafkaConn(broker.bootstrap) as k:
        md = k.metadata([topic])
        topic_id = md["Topics"][0]["TopicId"]
        # Heartbeats: join, stale epoch, unknown member.
        hb = k.request(API_SHARE_GROUP_HEARTBEAT, 1, {
            "GroupId": group, "MemberId": "m1", "MemberEpoch": 0, "RackId": None,
            "SubscribedTopicNames": [topic]})
        assert hb["ErrorCode"] == 0 and hb["MemberEpoch"] >= 1
        stale = k.request(API_SHARE_GROUP_HEARTBEAT, 1, {
            "GroupId": group, "MemberId": "m1", "MemberEpoch": hb["MemberEpoch"] + 7,
            "RackId": None, "SubscribedTopicNames": None})
        assert stale["ErrorCode"] == FENCED_MEMBER_EPOCH
        unknown = k.request(API_SHARE_GROUP_HEARTBEAT, 1, {
            "GroupId": group, "MemberId": "nobody", "MemberEpoch": 3, "RackId": None,
            "SubscribedTopicNames": None})
        assert unknown["ErrorCode"] == UNKNOWN_MEMBER_ID
        # Sessions: none yet, then a wrong epoch.
        assert share_fetch(k, group, "m1", 5, topic_id)["ErrorCode"] == SHARE_SESSION_NOT_FOUND
        r = share_fetch(k, group, "m1", 0, topic_id, max_wait_ms=2000)
        assert r["ErrorCode"] == 0
        p = r["Responses"][0]["Partitions"][0]
        assert p["AcquiredRecords"] == [{"FirstOffset": 0, "LastOffset": 1, "DeliveryCount": 1}]
        assert r["AcquisitionLockTimeoutMs"] == LOCK_MS
        assert share_fetch(k, group, "m1", 7, topic_id)["ErrorCode"] == INVALID_SHARE_SESSION_EPOCH
        # Another member cannot acknowledge m1's records; nothing changes.
        r2 = share_fetch(k, group, "m2", 0, topic_id)
        assert r2["ErrorCode"] == 0
        ack = k.request(API_SHARE_ACKNOWLEDGE, 1, {
            "GroupId": group, "MemberId": "m2", "ShareSessionEpoch": 1,
            "Topics": [{"TopicId": topic_id, "Partitions": [{"PartitionIndex": 0,
                        "AcknowledgementBatches": [
                            {"FirstOffset": 0, "LastOffset": 1, "AcknowledgeTypes": [1]}]}]}]})
        assert ack["Responses"][0]["Partitions"][0]["ErrorCode"] == INVALID_RECORD_STATE
        # An offset beyond what m1 holds refuses the whole batch.
        r = share_fetch(k, group, "m1", 1, topic_id, acks=[(0, 2, [1])])
        part = r["Responses"][0]["Partitions"][0]
        assert part["AcknowledgeErrorCode"] == INVALID_RECORD_STATE
        # m1 accepts both: the session goes on at epoch 3.
        r = share_fetch(k, group, "m1", 2, topic_id, acks=[(0, 1, [1])])
        assert r["ErrorCode"] == 0
        assert r["Responses"][0]["Partitions"][0]["AcknowledgeErrorCode"] == 0
        # Accepted records are never acknowledged again.
        again = share_fetch(k, group, "m1", 3, topic_id, acks=[(0, 0, [2])])
        assert again["Responses"][0]["Partitions"][0]["AcknowledgeErrorCode"] == INVALID_RECORD_STATE
        # An acknowledgement on the opening epoch is refused as in Kafka.
        assert share_fetch(k, group, "m3", 0, topic_id, acks=[(0, 0, [1])])["ErrorCode"] == 42


def test_acknowledgements_survive_a_restart(fresh_broker):
    b = fresh_broker
    topic = new_topic(b)
    group = "g-restart"
    set_group_configs(b, group, {"share.auto.offset.reset": "earliest"})
    produce(b, topic, ["r%d" % i for i in range(10)], one_batch_each=False)
    c = share_consumer(b, group, topic, explicit=True)
    try:
        got = poll_until([c], lambda g: count(g) >= 10)[0]
        assert len(got) == 10
        for m in got:
            c.acknowledge(m, AcknowledgeType.ACCEPT if m.offset() < 6 else AcknowledgeType.RELEASE)
        assert all(v is None for v in c.commit_sync(10).values())
    finally:
        close_all([c])
    b.restart("kill9")
    produce(b, topic, ["late"])
    c = share_consumer(b, group, topic)
    try:
        got = poll_until([c], lambda g: count(g) >= 5, timeout=20)[0]
        assert sorted(m.offset() for m in got) == [6, 7, 8, 9, 10]
        counts = {m.offset(): m.delivery_count() for m in got}
        assert counts[6] == 2 and counts[10] == 1
    finally:
        close_all([c])


API_DELETE_GROUPS = 42
API_DESCRIBE_SHARE_OFFSETS = 90
API_ALTER_SHARE_OFFSETS = 91
API_DELETE_SHARE_OFFSETS = 92
NON_EMPTY_GROUP = 68
GROUP_ID_NOT_FOUND = 69


def describe_offsets(k, group, topic=None, partitions=(0,)):
    topics = None if topic is None else [{"TopicName": topic, "Partitions": list(partitions)}]
    r = k.request(API_DESCRIBE_SHARE_OFFSETS, 1, {"Groups": [{"GroupId": group, "Topics": topics}]})
    return r["Groups"][0]


def test_share_group_offsets_are_described_altered_and_deleted(broker):
    topic = new_topic(broker)
    group = "g-admin"
    set_group_configs(broker, group, {"share.auto.offset.reset": "earliest"})
    produce(broker, topic, ["r%d" % i for i in range(6)], one_batch_each=False)
    c = share_consumer(broker, group, topic)
    try:
        got = poll_until([c], lambda g: count(g) >= 6)[0]
        assert len(got) == 6
        c.poll(0.5)  # implicit acceptance of the batch above
        with rawkafka.KafkaConn(broker.bootstrap) as k:
            harness.wait_until(
                lambda: describe_offsets(k, group, topic)["Topics"][0]["Partitions"][0]["StartOffset"] == 6,
                timeout=10, what="the acknowledgements to move the start offset")
            # Not while it has members.
            r = k.request(API_ALTER_SHARE_OFFSETS, 0, {"GroupId": group, "Topics": [
                {"TopicName": topic, "Partitions": [{"PartitionIndex": 0, "StartOffset": 2}]}]})
            assert r["ErrorCode"] == NON_EMPTY_GROUP
    finally:
        close_all([c])
    with rawkafka.KafkaConn(broker.bootstrap) as k:
        whole = describe_offsets(k, group)  # null topics: every partition the group has
        assert whole["ErrorCode"] == 0
        p = whole["Topics"][0]["Partitions"][0]
        assert (whole["Topics"][0]["TopicName"], p["StartOffset"], p["Lag"]) == (topic, 6, 0)
        r = k.request(API_ALTER_SHARE_OFFSETS, 0, {"GroupId": group, "Topics": [
            {"TopicName": topic, "Partitions": [{"PartitionIndex": 0, "StartOffset": 2}]},
            {"TopicName": "no-such-topic", "Partitions": [{"PartitionIndex": 0, "StartOffset": 0}]}]})
        assert r["ErrorCode"] == 0
        assert r["Responses"][0]["Partitions"][0]["ErrorCode"] == 0
        assert r["Responses"][1]["Partitions"][0]["ErrorCode"] == 3  # UNKNOWN_TOPIC_OR_PARTITION
        p = describe_offsets(k, group, topic)["Topics"][0]["Partitions"][0]
        assert (p["StartOffset"], p["Lag"]) == (2, 4)
    # The group reads again from offset 2.
    c = share_consumer(broker, group, topic)
    try:
        got = poll_until([c], lambda g: count(g) >= 4, timeout=15)[0]
        assert sorted(m.offset() for m in got) == [2, 3, 4, 5]
    finally:
        close_all([c])
    with rawkafka.KafkaConn(broker.bootstrap) as k:
        r = k.request(API_DELETE_SHARE_OFFSETS, 0, {"GroupId": group, "Topics": [{"TopicName": topic}]})
        assert r["ErrorCode"] == 0 and r["Responses"][0]["ErrorCode"] == 0
        assert describe_offsets(k, group, topic)["Topics"][0]["Partitions"][0]["StartOffset"] == -1
        r = k.request(API_DELETE_GROUPS, 2, {"GroupsNames": [group]})
        assert r["Results"][0]["ErrorCode"] == 0
        listed = k.request(API_LIST_GROUPS, 5, {"StatesFilter": [], "TypesFilter": []})
        assert group not in {x["GroupId"] for x in listed["Groups"]}
        assert describe_offsets(k, group)["ErrorCode"] == GROUP_ID_NOT_FOUND


def test_a_topic_delay_holds_share_deliveries_but_not_classic_reads(broker):
    topic = harness.unique_topic("delayed")
    a = AdminClient({"bootstrap.servers": broker.bootstrap})
    a.create_topics([NewTopic(topic, 1, 1, config={"share.delivery.delay.ms": "2000"})])[topic].result(15)
    group = "g-topic-delay"
    set_group_configs(broker, group, {"share.auto.offset.reset": "earliest"})
    produced_ms = time.time() * 1000
    produce(broker, topic, ["d0", "d1"], one_batch_each=False)
    classic = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "classic-delay",
                        "auto.offset.reset": "earliest"})
    classic.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    try:
        m, deadline = None, time.time() + 10
        while m is None and time.time() < deadline:
            m = classic.poll(0.2)
            if m is not None and m.error():
                m = None
        assert m is not None and time.time() * 1000 - produced_ms < 2000
    finally:
        classic.close()
    c = share_consumer(broker, group, topic)
    try:
        arrivals = []
        poll_until([c], lambda g: count(g) >= 2, timeout=15,
                   on_message=lambda _i, _c, m: arrivals.append((time.time() * 1000, m.timestamp()[1])))
        assert len(arrivals) == 2
        for arrived, ts in arrivals:
            assert arrived >= ts + 2000 - 50, (arrived, ts)
    finally:
        close_all([c])
