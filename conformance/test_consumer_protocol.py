"""The KIP-848 consumer group protocol (ConsumerGroupHeartbeat,
ConsumerGroupDescribe), driven by confluent-kafka with
`group.protocol=consumer` and by raw requests.

- Three consumers of one group split a 6-partition topic; every message is
  consumed once by the group; a second group reads everything.
- A consumer killed with SIGKILL loses its partitions after the session
  timeout; the survivors resume from its committed offsets, nothing skipped.
- A consumer joining later is given partitions incrementally: the others
  keep what they do not give up.
- Raw protocol: both APIs at every advertised version; fencing
  (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID), INVALID_REGULAR_EXPRESSION,
  UNSUPPORTED_ASSIGNOR, STALE_MEMBER_EPOCH on OffsetCommit, and a group id
  being used by one protocol at a time.
"""

import json
import subprocess
import sys
import threading
import time
import uuid

import pytest

import clients
import harness
import rawkafka
from rawkafka import KafkaConn

# A short session timeout makes the kill test fast; a short heartbeat
# interval makes reconciliation (which advances on heartbeats) quick.
BROKER_SETTINGS = {
    "group.consumer.session.timeout.ms": "6000",
    "group.consumer.heartbeat.interval.ms": "500",
    "group.initial.rebalance.delay.ms": "100",
}

API_OFFSET_COMMIT, API_JOIN_GROUP = 8, 11
API_CG_HEARTBEAT, API_CG_DESCRIBE = 68, 69
NONE, UNKNOWN_MEMBER_ID, INCONSISTENT_GROUP_PROTOCOL = 0, 25, 23
INVALID_REQUEST, GROUP_ID_NOT_FOUND = 42, 69
FENCED_MEMBER_EPOCH, UNSUPPORTED_ASSIGNOR, STALE_MEMBER_EPOCH = 110, 112, 113
INVALID_REGULAR_EXPRESSION = 128


def _consumer(bootstrap, group, **extra):
    from confluent_kafka import Consumer
    conf = {
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "group.protocol": "consumer",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "fetch.wait.max.ms": 100,
        "socket.timeout.ms": 10000,
    }
    conf.update(extra)
    return Consumer(conf)


def _poll_until(consumers, cond, what, timeout=40):
    """Polls every consumer until `cond()`; returns messages per consumer."""
    got = [[] for _ in consumers]
    deadline = time.monotonic() + timeout
    for _ in range(100000):
        if cond():
            return got
        assert time.monotonic() < deadline, "%s: assignments %s" % (
            what, [sorted(tp.partition for tp in c.assignment()) for c in consumers])
        for i, c in enumerate(consumers):
            for m in c.consume(num_messages=1000, timeout=0.05):
                if not m.error():
                    got[i].append(m)
    raise AssertionError("unreachable")


def _parts(c):
    return sorted(tp.partition for tp in c.assignment())


@pytest.mark.parametrize("assignor", [None, "range"])
def test_three_consumers_split_and_second_group(broker, assignor):
    from confluent_kafka import TopicPartition
    topic = harness.unique_topic("cp-split")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=6)
    group = harness.unique_topic("g-cp-split")
    extra = {"group.remote.assignor": assignor} if assignor else {}
    consumers = [_consumer(broker.bootstrap, group, **extra) for _ in range(3)]
    n = 3000
    try:
        for c in consumers:
            c.subscribe([topic])
        early = _poll_until(consumers, lambda: [len(_parts(c)) for c in consumers] == [2, 2, 2],
                            "no 2/2/2 split")
        assert not any(early)
        parts = [_parts(c) for c in consumers]
        assert sorted(p for ps in parts for p in ps) == list(range(6)), parts
        if assignor == "range":
            assert all(ps == [ps[0], ps[0] + 1] for ps in parts), parts
        msgs = clients.make_messages("cp-split", n, key_count=50, value_size=40, headers=False)
        acked = clients.confluent_produce(broker.bootstrap, topic, msgs)
        got = [[] for _ in consumers]
        deadline = time.monotonic() + 60
        for _ in range(100000):
            if sum(len(g) for g in got) >= n or time.monotonic() > deadline:
                break
            for i, c in enumerate(consumers):
                for m in c.consume(num_messages=1000, timeout=0.05):
                    if not m.error():
                        got[i].append(m)
        seen = [(m.partition(), m.offset()) for g in got for m in g]
        assert len(seen) == n, "group read %d of %d" % (len(seen), n)
        assert len(set(seen)) == n, "a message was read twice"
        assert set(seen) == set(acked)
        for i, g in enumerate(got):
            assert {m.partition() for m in g} <= set(parts[i])
        for c in consumers:
            c.commit(asynchronous=False)
        ends = {}
        for p, o in acked:
            ends[p] = max(ends.get(p, -1), o + 1)
        committed = consumers[0].committed([TopicPartition(topic, p) for p in range(6)], timeout=10)
        assert {tp.partition: tp.offset for tp in committed} == {p: ends.get(p, -1001) for p in range(6)}
        # ConsumerGroupDescribe sees the three members, stable.
        with KafkaConn(broker.bootstrap) as conn:
            r = conn.request(API_CG_DESCRIBE, conn.pick(API_CG_DESCRIBE),
                             {"GroupIds": [group], "IncludeAuthorizedOperations": False})
            g = r["Groups"][0]
            assert g["ErrorCode"] == NONE, g
            assert len(g["Members"]) == 3
            assert g["GroupState"] == "Stable", g["GroupState"]
            assert g["AssignorName"] == (assignor or "uniform")
            owned = sorted(p for m in g["Members"] for tp in m["Assignment"]["TopicPartitions"]
                           for p in tp["Partitions"])
            assert owned == list(range(6))
    finally:
        for c in consumers:
            c.close()
    other = _consumer(broker.bootstrap, harness.unique_topic("g-cp-other"))
    try:
        other.subscribe([topic])
        got = [[]]
        deadline = time.monotonic() + 60
        for _ in range(100000):
            if len(got[0]) >= n or time.monotonic() > deadline:
                break
            for m in other.consume(num_messages=1000, timeout=0.1):
                if not m.error():
                    got[0].append(m)
        assert sorted((m.partition(), m.offset()) for m in got[0]) == sorted(acked)
    finally:
        other.close()


_VICTIM = r"""
import json, sys, time
from confluent_kafka import Consumer
bootstrap, group, topic = sys.argv[1:4]
c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
              "auto.offset.reset": "earliest", "enable.auto.commit": False,
              "fetch.wait.max.ms": 100})
c.subscribe([topic])
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    ms = c.consume(num_messages=100, timeout=0.1)
    ms = [m for m in ms if not m.error()]
    out = {"assigned": sorted(tp.partition for tp in c.assignment()),
           "read": [[m.partition(), m.offset()] for m in ms]}
    if ms:
        c.commit(asynchronous=False)
        out["committed"] = {str(m.partition()): m.offset() + 1 for m in ms}
    print(json.dumps(out), flush=True)
"""


def test_killed_consumer_partitions_move_after_session_timeout(broker):
    topic = harness.unique_topic("cp-kill")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=6)
    group = harness.unique_topic("g-cp-kill")
    survivors = [_consumer(broker.bootstrap, group) for _ in range(2)]
    victim = subprocess.Popen([sys.executable, "-c", _VICTIM, broker.bootstrap, group, topic],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines = []
    reader = threading.Thread(target=lambda: [lines.append(json.loads(x)) for x in victim.stdout],
                              daemon=True)
    reader.start()
    seen = []
    try:
        for c in survivors:
            c.subscribe([topic])

        def split():
            v = lines[-1]["assigned"] if lines else []
            return [len(_parts(c)) for c in survivors] == [2, 2] and len(v) == 2

        _poll_until(survivors, split, "no 2/2/2 split")
        victim_parts = set(lines[-1]["assigned"])
        first = clients.make_messages("cp-kill-1", 600, key_count=60, value_size=20, headers=False)
        acked1 = clients.confluent_produce(broker.bootstrap, topic, first)
        victim_share = sum(1 for p, _ in acked1 if p in victim_parts)
        deadline = time.monotonic() + 30
        for _ in range(100000):
            victim_read = {tuple(x) for ln in list(lines) for x in ln["read"]}
            committed = {}
            for ln in list(lines):
                committed.update(ln.get("committed", {}))
            if len(victim_read) >= victim_share and sum(committed.values()) >= victim_share \
                    and len(seen) >= len(acked1) - victim_share:
                break
            assert time.monotonic() < deadline, "first batch not consumed"
            for c in survivors:
                for m in c.consume(num_messages=1000, timeout=0.05):
                    if not m.error():
                        seen.append((m.partition(), m.offset()))
        for c in survivors:
            c.commit(asynchronous=False)
        killed_at = time.monotonic()
        victim.kill()
        victim.wait(timeout=10)
        second = clients.make_messages("cp-kill-2", 600, key_count=60, value_size=20, headers=False)
        acked2 = clients.confluent_produce(broker.bootstrap, topic, second)
        want = set(acked1) | set(acked2)
        deadline = time.monotonic() + 45
        for _ in range(100000):
            if want <= set(seen) | victim_read and sum(len(_parts(c)) for c in survivors) == 6:
                break
            assert time.monotonic() < deadline, "survivors did not take over: %d of %d, %s" % (
                len(set(seen) | victim_read), len(want), [_parts(c) for c in survivors])
            for c in survivors:
                for m in c.consume(num_messages=1000, timeout=0.05):
                    if not m.error():
                        seen.append((m.partition(), m.offset()))
        took = time.monotonic() - killed_at
        assert took >= 4, "partitions moved before the session timeout (%.1fs)" % took
        assert sorted(p for c in survivors for p in _parts(c)) == list(range(6))
        # Each dead member's partition resumed at its committed offset.
        for p in victim_parts:
            after = sorted(o for q, o in seen if q == p)
            assert after and after[0] == int(committed[str(p)]), (p, after[:3], committed)
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait(timeout=10)
        for c in survivors:
            c.close()


def test_late_joiner_gets_partitions_incrementally(broker):
    topic = harness.unique_topic("cp-late")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=6)
    group = harness.unique_topic("g-cp-late")
    first = [_consumer(broker.bootstrap, group) for _ in range(2)]
    late = None
    try:
        for c in first:
            c.subscribe([topic])
        _poll_until(first, lambda: [len(_parts(c)) for c in first] == [3, 3], "no 3/3 split")
        before = [set(_parts(c)) for c in first]
        # Record every assignment each early member goes through: under the
        # incremental protocol each only ever shrinks to a subset.
        history = [[set(b)] for b in before]
        late = _consumer(broker.bootstrap, group)
        late.subscribe([topic])
        everyone = first + [late]
        deadline = time.monotonic() + 40
        for _ in range(100000):
            if [len(_parts(c)) for c in everyone] == [2, 2, 2]:
                break
            assert time.monotonic() < deadline, [_parts(c) for c in everyone]
            for i, c in enumerate(everyone):
                c.poll(0.02)
                if i < 2:
                    history[i].append(set(_parts(c)))
        for i in range(2):
            for snapshot in history[i]:
                assert snapshot <= before[i], "member %d gained %s" % (i, snapshot - before[i])
            assert len(before[i] & set(_parts(first[i]))) == 2, "kept partitions moved"
        assert sorted(p for c in everyone for p in _parts(c)) == list(range(6))
        # Messages still flow to all three, once each.
        msgs = clients.make_messages("cp-late", 600, key_count=60, value_size=20, headers=False)
        acked = clients.confluent_produce(broker.bootstrap, topic, msgs)
        got = [[] for _ in everyone]
        deadline = time.monotonic() + 30
        for _ in range(100000):
            if sum(len(g) for g in got) >= len(acked) or time.monotonic() > deadline:
                break
            for i, c in enumerate(everyone):
                for m in c.consume(num_messages=1000, timeout=0.05):
                    if not m.error():
                        got[i].append((m.partition(), m.offset()))
        flat = [x for g in got for x in g]
        assert sorted(flat) == sorted(acked)
    finally:
        for c in first:
            c.close()
        if late is not None:
            late.close()


def _hb(conn, v, group, member, epoch, **kw):
    body = {"GroupId": group, "MemberId": member, "MemberEpoch": epoch, "InstanceId": None,
            "RackId": None, "RebalanceTimeoutMs": kw.pop("rebalance", -1),
            "SubscribedTopicNames": kw.pop("topics", None), "ServerAssignor": kw.pop("assignor", None),
            "TopicPartitions": kw.pop("owned", None)}
    if v >= 1:
        body["SubscribedTopicRegex"] = kw.pop("regex", None)
    body.update(kw)
    return conn.request(API_CG_HEARTBEAT, v, body)


def test_raw_heartbeat_and_describe_at_every_version(broker):
    topic = harness.unique_topic("cp-raw")
    rawkafka.ensure_topic(broker.bootstrap, topic, 3)
    with KafkaConn(broker.bootstrap) as c:
        adv = c.api_versions()
        assert adv[API_CG_HEARTBEAT] == (0, 1), adv.get(API_CG_HEARTBEAT)
        assert adv[API_CG_DESCRIBE] == (0, 1), adv.get(API_CG_DESCRIBE)
        for v in range(0, 2):
            group = harness.unique_topic("g-raw")
            member = str(uuid.uuid4())
            r = _hb(c, v, group, member, 0, rebalance=30000, topics=[topic], owned=[],
                    **({"regex": ""} if v >= 1 else {}))
            assert r["ErrorCode"] == NONE, r
            assert r["MemberId"] == member and r["MemberEpoch"] > 0
            assert r["HeartbeatIntervalMs"] == 500
            parts = sorted(p for tp in r["Assignment"]["TopicPartitions"] for p in tp["Partitions"])
            assert parts == [0, 1, 2]
            epoch = r["MemberEpoch"]
            # A plain heartbeat: no assignment change, none sent.
            r = _hb(c, v, group, member, epoch)
            assert (r["ErrorCode"], r["MemberEpoch"], r["Assignment"]) == (NONE, epoch, None), r
            # Fencing.
            assert _hb(c, v, group, member, epoch + 7)["ErrorCode"] == FENCED_MEMBER_EPOCH
            assert _hb(c, v, group, "nobody", 3)["ErrorCode"] == UNKNOWN_MEMBER_ID
            assert _hb(c, v, group, str(uuid.uuid4()), 0, topics=[topic],
                       assignor="nope")["ErrorCode"] == UNSUPPORTED_ASSIGNOR
            assert _hb(c, v, "", member, 0, topics=[topic])["ErrorCode"] == INVALID_REQUEST
            # OffsetCommit with member epochs.
            ocv = c.pick(API_OFFSET_COMMIT)
            assert ocv >= 9

            def commit(e):
                t = {"Name": topic, "Partitions": [{"PartitionIndex": 0, "CommittedOffset": 5,
                                                    "CommittedLeaderEpoch": -1,
                                                    "CommittedMetadata": ""}]}
                body = {"GroupId": group, "GenerationIdOrMemberEpoch": e, "MemberId": member,
                        "GroupInstanceId": None, "Topics": [t]}
                return c.request(API_OFFSET_COMMIT, min(ocv, 9), body)["Topics"][0]["Partitions"][0]["ErrorCode"]

            assert commit(epoch) == NONE
            assert commit(epoch - 1) == STALE_MEMBER_EPOCH
            assert commit(epoch + 1) == FENCED_MEMBER_EPOCH
            # The group id is now a consumer group: a classic join is refused.
            jr = c.request(API_JOIN_GROUP, 5, {
                "GroupId": group, "SessionTimeoutMs": 10000, "RebalanceTimeoutMs": 10000,
                "MemberId": "", "GroupInstanceId": None, "ProtocolType": "consumer",
                "Protocols": [{"Name": "range", "Metadata": b""}]})
            assert jr["ErrorCode"] == INCONSISTENT_GROUP_PROTOCOL, jr
            for dv in range(0, 2):
                d = c.request(API_CG_DESCRIBE, dv, {"GroupIds": [group, "no-such-group"],
                                                    "IncludeAuthorizedOperations": False})
                g, missing = d["Groups"]
                assert g["ErrorCode"] == NONE and g["GroupState"] == "Stable", g
                assert g["AssignorName"] == "uniform"
                assert [m["MemberId"] for m in g["Members"]] == [member]
                m = g["Members"][0]
                assert m["SubscribedTopicNames"] == [topic]
                assert m["MemberEpoch"] == epoch
                assert sorted(m["TargetAssignment"]["TopicPartitions"][0]["Partitions"]) == [0, 1, 2]
                assert m["Assignment"]["TopicPartitions"][0]["TopicName"] == topic
                if dv >= 1:
                    assert m["MemberType"] == 1
                assert missing["ErrorCode"] == GROUP_ID_NOT_FOUND
            # Leave: the member is gone.
            r = _hb(c, v, group, member, -1)
            assert (r["ErrorCode"], r["MemberEpoch"]) == (NONE, -1), r
            assert _hb(c, v, group, member, epoch)["ErrorCode"] == UNKNOWN_MEMBER_ID
        # v0: the coordinator makes the member id.
        r = _hb(c, 0, harness.unique_topic("g-raw0"), "", 0, rebalance=30000, topics=[topic])
        assert r["ErrorCode"] == NONE and r["MemberId"], r
        # v1: the client must.
        r = _hb(c, 1, harness.unique_topic("g-raw1"), "", 0, rebalance=30000, topics=[topic])
        assert r["ErrorCode"] == INVALID_REQUEST
        # Regex subscriptions (whole-name match); invalid ones refused.
        group = harness.unique_topic("g-rx")
        r = _hb(c, 1, group, str(uuid.uuid4()), 0, rebalance=30000, topics=[], owned=[],
                regex="(unclosed")
        assert r["ErrorCode"] == INVALID_REGULAR_EXPRESSION, r
        r = _hb(c, 1, group, str(uuid.uuid4()), 0, rebalance=30000, topics=[], owned=[],
                regex="(%s|no-such-topic-.*)" % topic.replace(".", "\\."))
        assert r["ErrorCode"] == NONE, r
        tps = r["Assignment"]["TopicPartitions"]
        assert len(tps) == 1 and sorted(tps[0]["Partitions"]) == [0, 1, 2], tps


def test_member_rejoins_after_broker_kill9(fresh_broker):
    """Consumer-group state is in memory: after a restart the live member's
    heartbeat gets UNKNOWN_MEMBER_ID, it rejoins with epoch 0 and resumes
    from its committed offsets (which are durable)."""
    b = fresh_broker
    topic = harness.unique_topic("cp-restart")
    clients.confluent_create_topic(b.bootstrap, topic, partitions=2)
    first = clients.make_messages("cp-restart-1", 40, key_count=8, value_size=10, headers=False)
    acked1 = clients.confluent_produce(b.bootstrap, topic, first)
    group = harness.unique_topic("g-cp-restart")
    c = _consumer(b.bootstrap, group)
    try:
        c.subscribe([topic])
        seen = []
        deadline = time.monotonic() + 30
        for _ in range(100000):
            if len(seen) >= len(acked1):
                break
            assert time.monotonic() < deadline, "read %d of %d" % (len(seen), len(acked1))
            for m in c.consume(num_messages=1000, timeout=0.1):
                if not m.error():
                    seen.append((m.partition(), m.offset()))
        c.commit(asynchronous=False)
        b.restart(how="kill9")
        second = clients.make_messages("cp-restart-2", 40, key_count=8, value_size=10,
                                       headers=False)
        acked2 = clients.confluent_produce(b.bootstrap, topic, second)
        deadline = time.monotonic() + 45
        for _ in range(100000):
            if set(acked2) <= set(seen) and len(_parts(c)) == 2:
                break
            assert time.monotonic() < deadline, "no resume after restart: %d of %d, %s" % (
                len(set(acked2) & set(seen)), len(acked2), _parts(c))
            for m in c.consume(num_messages=1000, timeout=0.1):
                if not m.error():
                    seen.append((m.partition(), m.offset()))
        assert sorted(seen) == sorted(set(acked1) | set(acked2)), "a message was skipped or repeated"
    finally:
        c.close()
