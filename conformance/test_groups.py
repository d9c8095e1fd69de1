"""Consumer groups (classic protocol) and committed offsets.

- Three confluent-kafka consumers of one group on a 6-partition topic split
  the partitions; every message is consumed exactly once by the group, the
  committed offsets are the partitions' ends, and a second group reads
  every message too.
- A consumer killed with SIGKILL (no LeaveGroup) loses its partitions to
  the survivor after the session timeout, which resumes from the dead
  consumer's committed offsets: no message is skipped.
- Committed offsets (by a group member and by a consumer without
  membership) survive a broker kill -9 and restart.
- Raw protocol: JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit
  and OffsetFetch answer at every advertised version, with Kafka's error
  codes for bad input (MEMBER_ID_REQUIRED, UNKNOWN_MEMBER_ID,
  ILLEGAL_GENERATION, INVALID_GROUP_ID, INVALID_SESSION_TIMEOUT,
  UNKNOWN_TOPIC_OR_PARTITION).
- The issue's demonstrations: three consumers of one group (confluent-kafka
  range and cooperative-sticky, kafka-python, kafkajs) split a 6-partition
  topic and process 100,000 messages once, and a second group reads them
  all; a cooperative-sticky member joins and leaves under load without
  revoking partitions that do not move; rewinds (earliest, timestamp, given
  offsets via both admin clients, and seek); every group resumes after a
  kill -9; members are reloaded after a kill -9 (no rebalance).
- offsets.retention.minutes; __consumer_offsets refuses client produce and
  delete; OffsetFetch require_stable.
"""

import json
import os
import subprocess
import sys
import threading
import time

import pytest

import clients
import harness
import rawkafka
from rawkafka import KafkaConn

# A short initial rebalance delay keeps the tests fast (Kafka's default,
# 3000 ms, is what the kafkajs test in test_kafkajs.py runs with).
BROKER_SETTINGS = {"group.initial.rebalance.delay.ms": "100"}

API_OFFSET_COMMIT, API_OFFSET_FETCH = 8, 9
API_HEARTBEAT, API_LEAVE_GROUP, API_SYNC_GROUP = 12, 13, 14

NONE, ILLEGAL_GENERATION, INVALID_GROUP_ID, UNKNOWN_MEMBER_ID = 0, 22, 24, 25
INVALID_SESSION_TIMEOUT, REBALANCE_IN_PROGRESS, MEMBER_ID_REQUIRED = 26, 27, 79
UNKNOWN_TOPIC_OR_PARTITION = 3


def _group_consumer(bootstrap, group, **extra):
    from confluent_kafka import Consumer
    conf = {
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "fetch.wait.max.ms": 100,
        "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 500,
        "socket.timeout.ms": 10000,
        "partition.assignment.strategy": "range",
    }
    conf.update(extra)
    return Consumer(conf)


def _wait_assigned(consumers, want_each, timeout=30):
    """Polls every consumer until each has `want_each` partitions (messages
    polled meanwhile are returned per consumer)."""
    got = [[] for _ in consumers]
    deadline = time.monotonic() + timeout
    for _ in range(100000):
        sizes = [len(c.assignment()) for c in consumers]
        if all(s == w for s, w in zip(sizes, want_each)):
            return got
        if time.monotonic() > deadline:
            raise AssertionError("assignments %s, wanted %s" % (sizes, want_each))
        for i, c in enumerate(consumers):
            m = c.poll(0.05)
            if m is not None and not m.error():
                got[i].append(m)
    raise AssertionError("unreachable")


def _drain(consumers, total, timeout=60):
    """Round-robin polls until the consumers together read `total`."""
    got = [[] for _ in consumers]
    deadline = time.monotonic() + timeout
    for _ in range(1000000):
        if sum(len(g) for g in got) >= total or time.monotonic() > deadline:
            break
        for i, c in enumerate(consumers):
            for m in c.consume(num_messages=1000, timeout=0.05):
                if m.error():
                    if m.topic() is not None:
                        raise AssertionError("consume error: %s" % m.error())
                    continue
                got[i].append(m)
    return got


def test_three_consumers_split_partitions_and_second_group(broker):
    from confluent_kafka import TopicPartition
    topic = harness.unique_topic("grp-split")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=6)
    group = harness.unique_topic("g-split")
    consumers = [_group_consumer(broker.bootstrap, group) for _ in range(3)]
    try:
        for c in consumers:
            c.subscribe([topic])
        early = _wait_assigned(consumers, [2, 2, 2])
        assert not any(early)
        parts = [sorted(tp.partition for tp in c.assignment()) for c in consumers]
        assert sorted(p for ps in parts for p in ps) == list(range(6)), parts
        n = 3000
        msgs = clients.make_messages("grp-split", n, key_count=50, value_size=40, headers=False)
        acked = clients.confluent_produce(broker.bootstrap, topic, msgs)
        got = _drain(consumers, n)
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
    finally:
        for c in consumers:
            c.close()
    # Another group reads everything, independently.
    other = _group_consumer(broker.bootstrap, harness.unique_topic("g-other"))
    try:
        other.subscribe([topic])
        got = _drain([other], n)[0]
        assert sorted((m.partition(), m.offset()) for m in got) == sorted(acked)
    finally:
        other.close()


_VICTIM = r"""
import json, sys, time
from confluent_kafka import Consumer
bootstrap, group, topic = sys.argv[1:4]
c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
              "enable.auto.commit": False, "fetch.wait.max.ms": 100, "session.timeout.ms": 6000,
              "heartbeat.interval.ms": 500, "partition.assignment.strategy": "range"})
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


def test_killed_consumer_partitions_move_to_survivor(broker):
    topic = harness.unique_topic("grp-kill")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=4)
    group = harness.unique_topic("g-kill")
    survivor = _group_consumer(broker.bootstrap, group)
    victim = subprocess.Popen([sys.executable, "-c", _VICTIM, broker.bootstrap, group, topic],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines = []
    reader = threading.Thread(target=lambda: [lines.append(json.loads(x)) for x in victim.stdout],
                              daemon=True)
    reader.start()
    try:
        survivor.subscribe([topic])
        deadline = time.monotonic() + 30
        for _ in range(100000):
            victim_parts = lines[-1]["assigned"] if lines else []
            if len(survivor.assignment()) == 2 and len(victim_parts) == 2:
                break
            assert time.monotonic() < deadline, "no 2+2 split: %s / %s" % (
                survivor.assignment(), victim_parts)
            survivor.poll(0.05)
        victim_parts = set(lines[-1]["assigned"])
        first = clients.make_messages("grp-kill-1", 400, key_count=40, value_size=20, headers=False)
        acked1 = clients.confluent_produce(broker.bootstrap, topic, first)
        victim_share = sum(1 for p, _ in acked1 if p in victim_parts)
        seen_by_survivor = []
        deadline = time.monotonic() + 30
        for _ in range(100000):
            victim_read = {tuple(x) for ln in list(lines) for x in ln["read"]}
            committed = {}
            for ln in list(lines):
                committed.update(ln.get("committed", {}))
            if len(victim_read) >= victim_share and sum(committed.values()) >= victim_share \
                    and len(seen_by_survivor) >= len(acked1) - victim_share:
                break
            assert time.monotonic() < deadline, "first batch not consumed"
            for m in survivor.consume(num_messages=1000, timeout=0.05):
                if not m.error():
                    seen_by_survivor.append((m.partition(), m.offset()))
        # Die without leaving the group.
        victim.kill()
        victim.wait(timeout=10)
        second = clients.make_messages("grp-kill-2", 400, key_count=40, value_size=20, headers=False)
        acked2 = clients.confluent_produce(broker.bootstrap, topic, second)
        want = set(acked1) | set(acked2)
        deadline = time.monotonic() + 40
        for _ in range(100000):
            if want <= set(seen_by_survivor) | victim_read:
                break
            assert time.monotonic() < deadline, "survivor did not take over: %d of %d, assignment %s" % (
                len(set(seen_by_survivor) | victim_read), len(want), survivor.assignment())
            for m in survivor.consume(num_messages=1000, timeout=0.1):
                if not m.error():
                    seen_by_survivor.append((m.partition(), m.offset()))
        assert len(survivor.assignment()) == 4
        # The survivor resumed each dead member's partition at its committed
        # offset: nothing the victim had not committed was skipped.
        for p in victim_parts:
            after = sorted(o for q, o in seen_by_survivor if q == p)
            assert after and after[0] == int(committed[str(p)]), (p, after[:3], committed)
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait(timeout=10)
        survivor.close()


def test_committed_offsets_survive_kill9(fresh_broker):
    from confluent_kafka import TopicPartition
    b = fresh_broker
    topic = harness.unique_topic("grp-restart")
    clients.confluent_create_topic(b.bootstrap, topic, partitions=2)
    msgs = clients.make_messages("grp-restart", 20, key_count=5, value_size=10, headers=False)
    clients.confluent_produce(b.bootstrap, topic, msgs, partition=0)
    group = harness.unique_topic("g-restart")
    c = _group_consumer(b.bootstrap, group)
    try:
        c.subscribe([topic])
        got = _drain([c], 20)[0]
        assert len(got) == 20
        c.commit(offsets=[TopicPartition(topic, 0, 12)], asynchronous=False)
    finally:
        c.close()
    # A consumer without group membership (assign + commit).
    simple_group = harness.unique_topic("g-simple")
    s = _group_consumer(b.bootstrap, simple_group)
    try:
        s.assign([TopicPartition(topic, 1, 0)])
        s.commit(offsets=[TopicPartition(topic, 1, 3, metadata="meta")], asynchronous=False)
    finally:
        s.close()
    b.restart(how="kill9")
    c = _group_consumer(b.bootstrap, group)
    try:
        got = c.committed([TopicPartition(topic, 0), TopicPartition(topic, 1)], timeout=10)
        assert [(tp.partition, tp.offset) for tp in got] == [(0, 12), (1, -1001)]
        c.subscribe([topic])
        again = _drain([c], 8)[0]
        assert [m.offset() for m in again] == list(range(12, 20))
    finally:
        c.close()
    s = _group_consumer(b.bootstrap, simple_group)
    try:
        got = s.committed([TopicPartition(topic, 1)], timeout=10)
        assert (got[0].offset, got[0].metadata) == (3, "meta")
    finally:
        s.close()


# ------------------------------------------------------------ raw protocol

def _versions(c, key):
    lo, hi = c.api_versions()[key]
    return range(lo, hi + 1)


def _join_body(v, group, member_id="", session=10000):
    return {"GroupId": group, "SessionTimeoutMs": session, "RebalanceTimeoutMs": 10000,
            "MemberId": member_id, "GroupInstanceId": None, "ProtocolType": "consumer",
            "Protocols": [{"Name": "range", "Metadata": b"\x00\x01"}], "Reason": None}


def test_group_apis_answer_at_every_advertised_version(broker):
    topic = harness.unique_topic("grp-raw")
    md = rawkafka.ensure_topic(broker.bootstrap, topic, 2)
    with KafkaConn(broker.bootstrap) as c:
        adv = c.api_versions()
        for key in (API_OFFSET_COMMIT, API_OFFSET_FETCH, rawkafka.API_JOIN_GROUP, API_HEARTBEAT,
                    API_LEAVE_GROUP, API_SYNC_GROUP, rawkafka.API_FIND_COORDINATOR):
            assert key in adv, key
        for v in _versions(c, rawkafka.API_FIND_COORDINATOR):
            body = {"Key": "g", "KeyType": 0, "CoordinatorKeys": ["g1", "g2"]}
            r = c.request(rawkafka.API_FIND_COORDINATOR, v, body)
            if v >= 4:
                assert [(x["ErrorCode"], x["NodeId"], x["Port"]) for x in r["Coordinators"]] == \
                    [(0, broker.node_id, broker.port)] * 2
            else:
                assert (r["ErrorCode"], r["NodeId"], r["Port"]) == (0, broker.node_id, broker.port)
        join_versions = list(_versions(c, rawkafka.API_JOIN_GROUP))
        sync_hi = adv[API_SYNC_GROUP][1]
        hb_hi = adv[API_HEARTBEAT][1]
        leave_hi = adv[API_LEAVE_GROUP][1]
        for v in join_versions:
            group = harness.unique_topic("g-raw-v%d" % v)
            r = c.request(rawkafka.API_JOIN_GROUP, v, _join_body(v, group))
            if v >= 4:
                assert r["ErrorCode"] == MEMBER_ID_REQUIRED and r["MemberId"], r
                r = c.request(rawkafka.API_JOIN_GROUP, v, _join_body(v, group, r["MemberId"]))
            assert r["ErrorCode"] == NONE, (v, r)
            me, gen = r["MemberId"], r["GenerationId"]
            assert r["Leader"] == me and gen == 1 and len(r["Members"]) == 1
            sv, hv, lv = min(v, sync_hi), min(v, hb_hi), min(v, leave_hi)
            sync = {"GroupId": group, "GenerationId": gen, "MemberId": me, "GroupInstanceId": None,
                    "ProtocolType": "consumer", "ProtocolName": "range",
                    "Assignments": [{"MemberId": me, "Assignment": b"A%d" % v}]}
            r = c.request(API_SYNC_GROUP, sv, sync)
            assert (r["ErrorCode"], r["Assignment"]) == (NONE, b"A%d" % v), (v, r)
            hb = {"GroupId": group, "GenerationId": gen, "MemberId": me, "GroupInstanceId": None}
            assert c.request(API_HEARTBEAT, hv, hb)["ErrorCode"] == NONE
            assert c.request(API_HEARTBEAT, hv, dict(hb, GenerationId=gen + 1))["ErrorCode"] == ILLEGAL_GENERATION
            assert c.request(API_HEARTBEAT, hv, dict(hb, MemberId="nobody"))["ErrorCode"] == UNKNOWN_MEMBER_ID
            leave = {"GroupId": group, "MemberId": me,
                     "Members": [{"MemberId": me, "GroupInstanceId": None, "Reason": None}]}
            r = c.request(API_LEAVE_GROUP, lv, leave)
            assert r["ErrorCode"] == NONE and all(m["ErrorCode"] == NONE for m in r.get("Members", []))
            assert c.request(API_HEARTBEAT, hv, hb)["ErrorCode"] == UNKNOWN_MEMBER_ID
        # Bad joins.
        jv = join_versions[-1]
        assert c.request(rawkafka.API_JOIN_GROUP, jv, _join_body(jv, ""))["ErrorCode"] == INVALID_GROUP_ID
        assert c.request(rawkafka.API_JOIN_GROUP, jv, _join_body(jv, "g-bad", session=10))["ErrorCode"] \
            == INVALID_SESSION_TIMEOUT
        assert c.request(rawkafka.API_JOIN_GROUP, jv, _join_body(jv, "g-bad", "who"))["ErrorCode"] \
            == UNKNOWN_MEMBER_ID
        # Simple commits (no membership) at every version, read back at every version.
        group = harness.unique_topic("g-raw-offsets")
        for v in _versions(c, API_OFFSET_COMMIT):
            t = {"Partitions": [{"PartitionIndex": 0, "CommittedOffset": 100 + v, "CommittedLeaderEpoch": -1,
                                 "CommittedMetadata": "v%d" % v},
                                {"PartitionIndex": 7, "CommittedOffset": 1, "CommittedLeaderEpoch": -1,
                                 "CommittedMetadata": None}]}
            if v >= 10:
                t["TopicId"] = md["TopicId"]
            else:
                t["Name"] = topic
            body = {"GroupId": group, "GenerationIdOrMemberEpoch": -1, "MemberId": "",
                    "GroupInstanceId": None, "RetentionTimeMs": -1, "Topics": [t]}
            r = c.request(API_OFFSET_COMMIT, v, body)
            codes = [p["ErrorCode"] for p in r["Topics"][0]["Partitions"]]
            assert codes == [NONE, UNKNOWN_TOPIC_OR_PARTITION], (v, r)
            last = 100 + v
        for v in _versions(c, API_OFFSET_FETCH):
            if v >= 8:
                t = {"PartitionIndexes": [0, 1]}
                if v >= 10:
                    t["TopicId"] = md["TopicId"]
                else:
                    t["Name"] = topic
                body = {"Groups": [{"GroupId": group, "MemberId": None, "MemberEpoch": -1, "Topics": [t]}],
                        "RequireStable": False}
                r = c.request(API_OFFSET_FETCH, v, body)
                parts = r["Groups"][0]["Topics"][0]["Partitions"]
            else:
                body = {"GroupId": group, "Topics": [{"Name": topic, "PartitionIndexes": [0, 1]}],
                        "RequireStable": False}
                r = c.request(API_OFFSET_FETCH, v, body)
                parts = r["Topics"][0]["Partitions"]
            assert [(p["PartitionIndex"], p["CommittedOffset"], p["ErrorCode"]) for p in parts] == \
                [(0, last, NONE), (1, -1, NONE)], (v, r)
        # A commit with a generation but no group: ILLEGAL_GENERATION.
        body = {"GroupId": harness.unique_topic("g-none"), "GenerationIdOrMemberEpoch": 3, "MemberId": "m",
                "GroupInstanceId": None, "RetentionTimeMs": -1,
                "Topics": [{"Name": topic, "Partitions": [{"PartitionIndex": 0, "CommittedOffset": 1,
                                                           "CommittedLeaderEpoch": -1,
                                                           "CommittedMetadata": None}]}]}
        r = c.request(API_OFFSET_COMMIT, 9, body)
        assert r["Topics"][0]["Partitions"][0]["ErrorCode"] == ILLEGAL_GENERATION


API_DESCRIBE_GROUPS, API_LIST_GROUPS, API_DELETE_GROUPS, API_OFFSET_DELETE = 15, 16, 42, 47
NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND, GROUP_SUBSCRIBED_TO_TOPIC = 68, 69, 86


def _subscription(topic):
    """ConsumerProtocolSubscription v0: version, [topic], null user data."""
    t = topic.encode()
    return b"\x00\x00" + b"\x00\x00\x00\x01" + len(t).to_bytes(2, "big") + t + b"\xff\xff\xff\xff"


def test_group_admin_apis_at_every_advertised_version(broker):
    topic = harness.unique_topic("grp-admin")
    rawkafka.ensure_topic(broker.bootstrap, topic, 2)
    with KafkaConn(broker.bootstrap) as c:
        adv = c.api_versions()
        jv = adv[rawkafka.API_JOIN_GROUP][1]
        group = harness.unique_topic("g-admin")
        body = _join_body(jv, group)
        body["Protocols"] = [{"Name": "range", "Metadata": _subscription(topic)}]
        r = c.request(rawkafka.API_JOIN_GROUP, jv, body)
        r = c.request(rawkafka.API_JOIN_GROUP, jv, dict(body, MemberId=r["MemberId"]))
        me, gen = r["MemberId"], r["GenerationId"]
        r = c.request(API_SYNC_GROUP, adv[API_SYNC_GROUP][1], {
            "GroupId": group, "GenerationId": gen, "MemberId": me, "GroupInstanceId": None,
            "ProtocolType": "consumer", "ProtocolName": "range",
            "Assignments": [{"MemberId": me, "Assignment": b"asg"}]})
        assert r["ErrorCode"] == NONE
        commit = {"GroupId": group, "GenerationIdOrMemberEpoch": gen, "MemberId": me, "GroupInstanceId": None,
                  "RetentionTimeMs": -1,
                  "Topics": [{"Name": topic, "Partitions": [
                      {"PartitionIndex": p, "CommittedOffset": 5, "CommittedLeaderEpoch": -1,
                       "CommittedMetadata": None} for p in (0, 1)]}]}
        r = c.request(API_OFFSET_COMMIT, 9, commit)
        assert [p["ErrorCode"] for p in r["Topics"][0]["Partitions"]] == [NONE, NONE]
        # A stale generation is refused.
        r = c.request(API_OFFSET_COMMIT, 9, dict(commit, GenerationIdOrMemberEpoch=gen + 5))
        assert r["Topics"][0]["Partitions"][0]["ErrorCode"] == ILLEGAL_GENERATION
        for v in _versions(c, API_LIST_GROUPS):
            r = c.request(API_LIST_GROUPS, v, {"StatesFilter": [], "TypesFilter": []})
            mine = [g for g in r["Groups"] if g["GroupId"] == group]
            assert r["ErrorCode"] == NONE and len(mine) == 1 and mine[0]["ProtocolType"] == "consumer", (v, r)
            if v >= 4:
                assert mine[0]["GroupState"] == "Stable"
                r = c.request(API_LIST_GROUPS, v, {"StatesFilter": ["Empty"], "TypesFilter": []})
                assert not [g for g in r["Groups"] if g["GroupId"] == group]
        for v in _versions(c, API_DESCRIBE_GROUPS):
            r = c.request(API_DESCRIBE_GROUPS, v, {"Groups": [group, "g-never-seen"],
                                                   "IncludeAuthorizedOperations": False})
            g, unknown = r["Groups"]
            assert (g["ErrorCode"], g["GroupState"], g["ProtocolData"]) == (NONE, "Stable", "range"), (v, g)
            assert [(m["MemberId"], m["MemberAssignment"]) for m in g["Members"]] == [(me, b"asg")]
            assert unknown["ErrorCode"] == (GROUP_ID_NOT_FOUND if v >= 6 else NONE)
        od = {"GroupId": group, "Topics": [{"Name": topic, "Partitions": [{"PartitionIndex": 0}]}]}
        r = c.request(API_OFFSET_DELETE, 0, od)
        assert r["ErrorCode"] == NONE and r["Topics"][0]["Partitions"][0]["ErrorCode"] == GROUP_SUBSCRIBED_TO_TOPIC
        dv = list(_versions(c, API_DELETE_GROUPS))
        r = c.request(API_DELETE_GROUPS, dv[0], {"GroupsNames": [group]})
        assert r["Results"][0]["ErrorCode"] == NON_EMPTY_GROUP
        leave = {"GroupId": group, "MemberId": me, "Members": [{"MemberId": me, "GroupInstanceId": None,
                                                                 "Reason": None}]}
        assert c.request(API_LEAVE_GROUP, 0, leave)["ErrorCode"] == NONE
        r = c.request(API_OFFSET_DELETE, 0, od)
        assert r["ErrorCode"] == NONE and r["Topics"][0]["Partitions"][0]["ErrorCode"] == NONE
        fetch = {"GroupId": group, "Topics": [{"Name": topic, "PartitionIndexes": [0, 1]}], "RequireStable": False}
        r = c.request(API_OFFSET_FETCH, 7, fetch)
        assert [p["CommittedOffset"] for p in r["Topics"][0]["Partitions"]] == [-1, 5]
        for v in dv:
            g = harness.unique_topic("g-del-v%d" % v)
            simple = {"GroupId": g, "GenerationIdOrMemberEpoch": -1, "MemberId": "", "GroupInstanceId": None,
                      "RetentionTimeMs": -1, "Topics": commit["Topics"]}
            assert c.request(API_OFFSET_COMMIT, 9, simple)["Topics"][0]["Partitions"][0]["ErrorCode"] == NONE
            r = c.request(API_DELETE_GROUPS, v, {"GroupsNames": [g, g + "-unknown", ""]})
            assert [x["ErrorCode"] for x in r["Results"]] == [NONE, GROUP_ID_NOT_FOUND, INVALID_GROUP_ID]
            r = c.request(API_OFFSET_FETCH, 7, dict(fetch, GroupId=g))
            assert [p["CommittedOffset"] for p in r["Topics"][0]["Partitions"]] == [-1, -1]
        assert c.request(API_DELETE_GROUPS, dv[-1], {"GroupsNames": [group]})["Results"][0]["ErrorCode"] == NONE


def test_admin_clients_see_groups(broker):
    from confluent_kafka import TopicPartition, ConsumerGroupTopicPartitions
    topic = harness.unique_topic("grp-adm")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=3)
    group = harness.unique_topic("g-adm")
    admin = clients.confluent_admin(broker.bootstrap)
    c = _group_consumer(broker.bootstrap, group, **{"client.id": "adm-consumer"})
    try:
        c.subscribe([topic])
        _wait_assigned([c], [3])
        listed = admin.list_consumer_groups(request_timeout=10).result(timeout=20)
        assert group in [g.group_id for g in listed.valid]
        desc = admin.describe_consumer_groups([group], request_timeout=10)[group].result(timeout=20)
        assert str(desc.state).upper().endswith("STABLE"), desc.state
        assert [m.client_id for m in desc.members] == ["adm-consumer"]
        assert [m.host for m in desc.members] == ["/127.0.0.1"]
        assert sorted(tp.partition for tp in desc.members[0].assignment.topic_partitions) == [0, 1, 2]
        f = admin.delete_consumer_groups([group], request_timeout=10)[group]
        with pytest.raises(Exception):
            f.result(timeout=20)
    finally:
        c.close()
    # The admin API sets and reads offsets of the now empty group.
    req = ConsumerGroupTopicPartitions(group, [TopicPartition(topic, 0, 7), TopicPartition(topic, 2, 9)])
    admin.alter_consumer_group_offsets([req], request_timeout=10)[group].result(timeout=20)
    got = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)],
                                            request_timeout=10)[group].result(timeout=20)
    assert sorted((tp.partition, tp.offset) for tp in got.topic_partitions) == [(0, 7), (2, 9)]
    admin.delete_consumer_groups([group], request_timeout=10)[group].result(timeout=20)
    listed = admin.list_consumer_groups(request_timeout=10).result(timeout=20)
    assert group not in [g.group_id for g in listed.valid]


def test_kafka_python_and_cooperative_sticky_groups(broker):
    """kafka-python's group consumer, and librdkafka's cooperative-sticky
    assignor (incremental rebalances), each read every message once."""
    from kafka import KafkaConsumer
    topic = harness.unique_topic("grp-kp")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=4)
    msgs = clients.make_messages("grp-kp", 200, key_count=20, value_size=20, headers=False)
    acked = clients.confluent_produce(broker.bootstrap, topic, msgs)
    kc = KafkaConsumer(topic, bootstrap_servers=broker.bootstrap, group_id=harness.unique_topic("g-kp"),
                       auto_offset_reset="earliest", enable_auto_commit=False, consumer_timeout_ms=1000,
                       session_timeout_ms=6000, heartbeat_interval_ms=500)
    try:
        seen = []
        deadline = time.monotonic() + 40
        while len(seen) < len(acked) and time.monotonic() < deadline:
            for tp, ms in kc.poll(timeout_ms=200).items():
                seen.extend((m.partition, m.offset) for m in ms)
        assert sorted(seen) == sorted(acked)
        kc.commit()
    finally:
        kc.close()
    # Cooperative-sticky: the second member takes half of the first's
    # partitions in an incremental rebalance; messages produced after the
    # split are read once.
    topic = harness.unique_topic("grp-coop")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=4)
    group = harness.unique_topic("g-coop")
    consumers = [_group_consumer(broker.bootstrap, group,
                                 **{"partition.assignment.strategy": "cooperative-sticky"})
                 for _ in range(2)]
    try:
        consumers[0].subscribe([topic])
        _wait_assigned(consumers[:1], [4])
        consumers[1].subscribe([topic])
        _wait_assigned(consumers, [2, 2])
        acked = clients.confluent_produce(broker.bootstrap, topic, msgs)
        got = _drain(consumers, len(acked))
        seen = [(m.partition(), m.offset()) for g in got for m in g]
        assert sorted(seen) == sorted(acked)
    finally:
        for c in consumers:
            c.close()


def test_static_member_restart_causes_no_rebalance(broker):
    """KIP-345: a static member (group.instance.id) that restarts within the
    session timeout gets its partitions back and the other member is not
    rebalanced."""
    topic = harness.unique_topic("grp-static")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=4)
    group = harness.unique_topic("g-static")
    events = {"a": [], "b": []}

    def make(name):
        c = _group_consumer(broker.bootstrap, group, **{"group.instance.id": "inst-" + name})
        c.subscribe([topic],
                    on_assign=lambda _c, ps: events[name].append(("assign", sorted(p.partition for p in ps))),
                    on_revoke=lambda _c, ps: events[name].append(("revoke", sorted(p.partition for p in ps))))
        return c

    a, b = make("a"), make("b")
    a2 = None
    try:
        _wait_assigned([a, b], [2, 2])
        a_parts = sorted(tp.partition for tp in a.assignment())
        b_events = list(events["b"])
        a.close()  # a static member leaves no LeaveGroup behind
        a = None
        events["a"].clear()
        a2 = make("a")
        deadline = time.monotonic() + 20
        for _ in range(100000):
            if len(a2.assignment()) == 2:
                break
            assert time.monotonic() < deadline, "restarted static member got no assignment"
            a2.poll(0.05)
            b.poll(0.05)
        assert sorted(tp.partition for tp in a2.assignment()) == a_parts
        # Give a (wrong) rebalance time to show up at b.
        for _ in range(20):
            b.poll(0.05)
            a2.poll(0.05)
        assert events["b"] == b_events, events["b"]
    finally:
        for c in (a, a2, b):
            if c is not None:
                c.close()


def test_sigterm_is_not_held_up_by_a_parked_join(fresh_broker):
    """A JoinGroup waiting for a rebalance (here: for a member that never
    rejoins, up to a 60 s rebalance timeout) does not hold up shutdown."""
    b = fresh_broker
    group = harness.unique_topic("g-park")
    with KafkaConn(b.bootstrap) as first, KafkaConn(b.bootstrap) as second:
        v = first.api_versions()[rawkafka.API_JOIN_GROUP][1]
        body = dict(_join_body(v, group), RebalanceTimeoutMs=60000)
        r = first.request(rawkafka.API_JOIN_GROUP, v, body)
        r = first.request(rawkafka.API_JOIN_GROUP, v, dict(body, MemberId=r["MemberId"]))
        assert r["ErrorCode"] == NONE and r["GenerationId"] == 1
        second.api_versions()
        r = second.request(rawkafka.API_JOIN_GROUP, v, body)
        assert r["ErrorCode"] == MEMBER_ID_REQUIRED
        second.send(rawkafka.API_JOIN_GROUP, v, dict(body, MemberId=r["MemberId"]))
        time.sleep(0.5)  # parked: the first member has not rejoined
        t0 = time.monotonic()
        assert b.sigterm() == 0
        assert time.monotonic() - t0 < 5


# ------------------------------------------------- the demonstrations

BIG = 100_000


def _produce_big(bootstrap, topic, tag, n=BIG):
    msgs = clients.make_messages(tag, n, key_count=1000, value_size=20, headers=False)
    acked = clients.confluent_produce(bootstrap, topic, msgs, conf={"linger.ms": 20})
    assert len(acked) == n
    return acked


def _check_split_once(per_member, acked, nparts=6):
    """Every acked message was read exactly once by the group, and the
    members read disjoint sets of partitions covering all of them."""
    seen = [x for got in per_member for x in got]
    assert len(seen) == len(acked), "group read %d of %d" % (len(seen), len(acked))
    assert len(set(seen)) == len(seen), "%d messages read twice" % (len(seen) - len(set(seen)))
    assert set(seen) == set(acked)
    parts = [{p for p, _ in got} for got in per_member]
    assert all(parts), "a member read nothing: %s" % parts
    for i in range(len(parts)):
        for j in range(i + 1, len(parts)):
            assert not parts[i] & parts[j], "members %d and %d shared partitions: %s" % (i, j, parts)
    assert set().union(*parts) == set(range(nparts))


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_confluent_three_consumers_process_100k_once(broker, strategy):
    """Three confluent-kafka consumers (range, then cooperative-sticky) of
    one group split a 6-partition topic and process 100,000 messages once
    each; a second group reads all of them too."""
    t0 = time.monotonic()
    topic = harness.unique_topic("grp-100k")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=6)
    group = harness.unique_topic("g-100k")
    conf = {"partition.assignment.strategy": strategy}
    consumers = [_group_consumer(broker.bootstrap, group, **conf) for _ in range(3)]
    try:
        for c in consumers:
            c.subscribe([topic])
        _wait_assigned(consumers, [2, 2, 2])
        acked = _produce_big(broker.bootstrap, topic, "c100k")
        got = _drain(consumers, BIG, timeout=45)
        _check_split_once([[(m.partition(), m.offset()) for m in g] for g in got], acked)
        for c in consumers:
            c.commit(asynchronous=False)
    finally:
        for c in consumers:
            c.close()
    other = _group_consumer(broker.bootstrap, harness.unique_topic("g-100k-other"), **conf)
    try:
        other.subscribe([topic])
        got = _drain([other], BIG, timeout=45)[0]
        seen = [(m.partition(), m.offset()) for m in got]
        assert len(seen) == BIG and set(seen) == set(acked)
    finally:
        other.close()
    assert time.monotonic() - t0 < 60


def test_kafka_python_three_consumers_process_100k_once(broker):
    from kafka import KafkaConsumer
    t0 = time.monotonic()
    topic = harness.unique_topic("grp-kp100k")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=6)
    group = harness.unique_topic("g-kp100k")
    stop = threading.Event()
    produced = threading.Event()
    results = [[] for _ in range(3)]
    assigned = [set() for _ in range(3)]
    errors = []

    def run(i):
        try:
            kc = KafkaConsumer(topic, bootstrap_servers=broker.bootstrap, group_id=group,
                               auto_offset_reset="earliest", enable_auto_commit=False,
                               session_timeout_ms=6000, heartbeat_interval_ms=500,
                               fetch_max_wait_ms=100, max_poll_records=2000)
            try:
                deadline = time.monotonic() + 55
                while not stop.is_set() and time.monotonic() < deadline:
                    for _tp, ms in kc.poll(timeout_ms=100).items():
                        results[i].extend((m.partition, m.offset) for m in ms)
                    assigned[i] = {tp.partition for tp in kc.assignment()}
                    if produced.is_set() and results[i]:
                        try:
                            kc.commit()
                        except Exception:  # noqa: BLE001 - a rebalance while stopping
                            pass
            finally:
                kc.close()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(3)]
    for t in threads:
        t.start()
    try:
        deadline = time.monotonic() + 30
        while [len(a) for a in assigned] != [2, 2, 2]:
            assert not errors, errors
            assert time.monotonic() < deadline, "no 2/2/2 split: %s" % assigned
            time.sleep(0.05)
        assert not any(results)
        acked = _produce_big(broker.bootstrap, topic, "kp100k")
        produced.set()
        deadline = time.monotonic() + 40
        while sum(len(r) for r in results) < BIG and time.monotonic() < deadline:
            assert not errors, errors
            time.sleep(0.1)
        time.sleep(0.5)  # anything read twice would show up now
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=20)
    assert not errors, errors
    _check_split_once(results, acked)
    # A second group (kafka-python, one consumer) reads everything too.
    kc = KafkaConsumer(topic, bootstrap_servers=broker.bootstrap, group_id=group + "-other",
                       auto_offset_reset="earliest", enable_auto_commit=False,
                       consumer_timeout_ms=2000, fetch_max_wait_ms=100, max_poll_records=5000)
    try:
        seen = []
        deadline = time.monotonic() + 40
        while len(seen) < BIG and time.monotonic() < deadline:
            for _tp, ms in kc.poll(timeout_ms=200).items():
                seen.extend((m.partition, m.offset) for m in ms)
        assert len(seen) == BIG and set(seen) == set(acked)
    finally:
        kc.close()
    assert time.monotonic() - t0 < 90


def test_kafkajs_three_consumers_process_100k_once(broker):
    t0 = time.monotonic()
    topic = harness.unique_topic("grp-js100k")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=6)
    group = harness.unique_topic("g-js100k")
    spec = json.dumps({"brokers": [broker.bootstrap], "topic": topic, "groupId": group,
                       "idleMs": 3000, "light": True, "announce": True, "timeoutMs": 60000})
    node = harness.node_binary()
    procs, outs = [], []
    for _ in range(3):
        p = subprocess.Popen([node, str(harness.JS_DIR / "client.js"), "group", spec],
                             cwd=str(harness.JS_DIR), stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        lines = []
        threading.Thread(target=lambda p=p, lines=lines: [lines.append(x) for x in p.stdout],
                         daemon=True).start()
        procs.append(p)
        outs.append(lines)
    try:
        def last_assigned(lines):
            a = [json.loads(x.split(" ", 1)[1]) for x in list(lines) if x.startswith("ASSIGNED ")]
            return a[-1] if a else None
        deadline = time.monotonic() + 40
        while True:
            now = [last_assigned(o) for o in outs]
            if all(a is not None and len(a) == 2 for a in now):
                break
            assert all(p.poll() is None for p in procs), "a kafkajs consumer exited"
            assert time.monotonic() < deadline, "no 2/2/2 split: %s" % now
            time.sleep(0.1)
        acked = _produce_big(broker.bootstrap, topic, "js100k")
        for p in procs:
            assert p.wait(timeout=70) == 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
    results = []
    for o in outs:
        r = [json.loads(x) for x in o if x.startswith("{")]
        assert r, "a kafkajs consumer printed no result"
        results.append([tuple(m) for m in r[-1]["messages"]])
    _check_split_once(results, acked)
    # A second group reads everything too.
    r = clients.kafkajs("group", {"brokers": [broker.bootstrap], "topic": topic,
                                  "groupId": group + "-other", "count": BIG, "light": True,
                                  "timeoutMs": 40000})
    seen = [tuple(m) for m in r["messages"]]
    assert len(seen) == BIG and set(seen) == set(acked)
    assert time.monotonic() - t0 < 120


class _DbgLog:
    def __init__(self, name):
        self.f = open("/tmp/grp-%s.log" % name, "w")

    def log(self, level, fmt, *args):
        self.f.write((fmt % args if args else fmt) + "\n")
        self.f.flush()


class _Producer(threading.Thread):
    """Produces to every partition of `topic` until stopped (load)."""

    def __init__(self, bootstrap, topic, nparts):
        super().__init__(daemon=True)
        from confluent_kafka import Producer
        self.p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
        self.topic, self.nparts = topic, nparts
        self.stop = threading.Event()
        self.acked = []
        self.errors = []

    def _cb(self, err, msg):
        if err is not None:
            self.errors.append(err)
        else:
            self.acked.append((msg.partition(), msg.offset()))

    def run(self):
        for i in range(100000):
            if self.stop.is_set():
                break
            for p in range(self.nparts):
                self.p.produce(self.topic, value=b"load-%d" % i, partition=p, on_delivery=self._cb)
            self.p.poll(0.02)
        self.p.flush(20)


def test_join_and_leave_under_load_cooperative_keeps_unmoved_partitions(broker):
    """Under continuous load, a third cooperative-sticky consumer joins and
    later leaves: partitions that do not move are never revoked and keep
    being consumed during the rebalance; nothing produced is skipped."""
    topic = harness.unique_topic("grp-load")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=6)
    group = harness.unique_topic("g-load")
    events = {}

    def make(name):
        events[name] = []
        extra = {"debug": "cgrp", "logger": _DbgLog(name)} if os.environ.get("GRP_DEBUG") else {}
        c = _group_consumer(broker.bootstrap, group,
                            **{"partition.assignment.strategy": "cooperative-sticky"}, **extra)
        c.subscribe([topic],
                    on_assign=lambda _c, ps: events[name].append(
                        (time.monotonic(), "assign", {p.partition for p in ps})),
                    on_revoke=lambda _c, ps: events[name].append(
                        (time.monotonic(), "revoke", {p.partition for p in ps})))
        return c

    def owned(name):
        s = set()
        for _, kind, ps in events[name]:
            s = (s | ps) if kind == "assign" else (s - ps)
        return s

    from confluent_kafka import KafkaException
    seen = []  # (time, consumer name, partition, offset)

    def pump(named, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for name, c in named.items():
                ms = [m for m in c.consume(num_messages=500, timeout=0.02) if not m.error()]
                now = time.monotonic()
                seen.extend((now, name, m.partition(), m.offset()) for m in ms)
                if ms:
                    # Asynchronous: a synchronous commit would hold this one
                    # thread while a member's rejoin holds its connection
                    # (requests of one connection are served in order, as by
                    # Kafka), and the others could not serve their rebalance.
                    try:
                        c.commit(asynchronous=True)
                    except KafkaException:
                        pass

    prod = _Producer(broker.bootstrap, topic, 6)
    a, b = make("a"), make("b")
    c = None
    named = {"a": a, "b": b}
    try:
        _wait_assigned([a, b], [3, 3])
        prod.start()
        pump(named, 1.0)
        before = {"a": owned("a"), "b": owned("b")}
        n_events = {k: len(v) for k, v in events.items()}
        joined_at = time.monotonic()
        c = make("c")
        named["c"] = c
        deadline = time.monotonic() + 30
        while not (len(owned("c")) == 2 and len(owned("a")) == 2 and len(owned("b")) == 2):
            assert time.monotonic() < deadline, "no 2/2/2 split: %s" % {k: owned(k) for k in events}
            pump(named, 0.1)
        assigned_at = max(t for t, kind, _ in events["c"] if kind == "assign")
        pump(named, 1.0)
        for k in ("a", "b"):
            kept = before[k] & owned(k)
            assert len(kept) == 2, (k, before[k], owned(k))
            revoked = set().union(*[ps for _, kind, ps in events[k][n_events[k]:] if kind == "revoke"])
            assert not revoked & kept, "%s: unmoved partitions %s revoked" % (k, revoked & kept)
            assert revoked == before[k] - kept
            # The kept partitions were consumed while the rebalance ran.
            during = [x for x in seen if x[1] == k and joined_at <= x[0] <= assigned_at and x[2] in kept]
            assert during, "%s read nothing from %s during the rebalance" % (k, kept)
        # The third consumer leaves: only its partitions move.
        before = {"a": owned("a"), "b": owned("b")}
        n_events = {k: len(v) for k, v in events.items()}
        c.close()
        del named["c"]
        c = None
        deadline = time.monotonic() + 30
        while not (len(owned("a")) == 3 and len(owned("b")) == 3):
            assert time.monotonic() < deadline, "c's partitions did not return: %s" % (
                {k: owned(k) for k in ("a", "b")})
            pump(named, 0.1)
        for k in ("a", "b"):
            revoked = set().union(*[ps for _, kind, ps in events[k][n_events[k]:] if kind == "revoke"])
            assert not revoked, "%s: partitions %s revoked when c left" % (k, revoked)
            assert before[k] <= owned(k)
        prod.stop.set()
        prod.join(timeout=30)
        assert not prod.errors, prod.errors[:3]
        want = set(prod.acked)
        deadline = time.monotonic() + 30
        while not want <= {(p, o) for _, _, p, o in seen}:
            assert time.monotonic() < deadline, "%d produced messages never read" % len(
                want - {(p, o) for _, _, p, o in seen})
            pump(named, 0.2)
    finally:
        prod.stop.set()
        for x in (a, b, c):
            if x is not None:
                x.close()


def _first_offsets(c, topic, nparts, timeout=30):
    """Subscribes and returns the first offset read per partition (after
    each partition has produced something)."""
    first = {}
    deadline = time.monotonic() + timeout
    for _ in range(100000):
        if len(first) == nparts or time.monotonic() > deadline:
            break
        for m in c.consume(num_messages=500, timeout=0.05):
            if not m.error():
                first.setdefault(m.partition(), m.offset())
    return first


def _read_all(c, want, timeout=30):
    seen = []
    deadline = time.monotonic() + timeout
    for _ in range(100000):
        if len(seen) >= want or time.monotonic() > deadline:
            break
        seen.extend((m.partition(), m.offset()) for m in c.consume(num_messages=500, timeout=0.05)
                    if not m.error())
    return seen


def test_rewind_group_offsets_by_admin_and_by_seek(broker):
    """Rewind a group to the earliest offsets, to a timestamp and to given
    offsets through the admin APIs (confluent-kafka and kafka-python), and
    through a consumer's seek; the group re-reads from there."""
    from confluent_kafka import TopicPartition, ConsumerGroupTopicPartitions
    from confluent_kafka.admin import OffsetSpec
    from kafka import KafkaAdminClient
    from kafka.structs import TopicPartition as KTP, OffsetAndMetadata
    topic = harness.unique_topic("grp-rewind")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=2)
    first = clients.make_messages("rw1", 50, key_count=5, value_size=10, headers=False)
    for p in (0, 1):
        clients.confluent_produce(broker.bootstrap, topic, first, partition=p)
    time.sleep(0.05)
    ts = int(time.time() * 1000)
    time.sleep(0.05)
    for p in (0, 1):
        clients.confluent_produce(broker.bootstrap, topic, first, partition=p)
    group = harness.unique_topic("g-rewind")
    admin = clients.confluent_admin(broker.bootstrap)

    def consume_all_and_commit(left):
        """Reads the `left` messages after the committed offsets, then
        commits the ends."""
        c = _group_consumer(broker.bootstrap, group)
        try:
            c.subscribe([topic])
            got = _read_all(c, left)
            assert len(got) == left and len(set(got)) == left
            c.commit(asynchronous=False)
        finally:
            c.close()

    def reread():
        """A fresh member of the group: the first offset per partition."""
        c = _group_consumer(broker.bootstrap, group)
        try:
            c.subscribe([topic])
            return _first_offsets(c, topic, 2)
        finally:
            c.close()

    def alter(offsets):
        req = ConsumerGroupTopicPartitions(group, [TopicPartition(topic, p, o) for p, o in offsets.items()])
        admin.alter_consumer_group_offsets([req], request_timeout=10)[group].result(timeout=20)

    def list_offsets(spec):
        fs = admin.list_offsets({TopicPartition(topic, p): spec for p in (0, 1)}, request_timeout=10)
        return {tp.partition: f.result(timeout=20).offset for tp, f in fs.items()}

    consume_all_and_commit(200)
    # To the earliest offsets (what `kafka-consumer-groups --to-earliest` does).
    alter(list_offsets(OffsetSpec.earliest()))
    assert reread() == {0: 0, 1: 0}
    # To a timestamp: the second half of each partition.
    consume_all_and_commit(200)
    at = list_offsets(OffsetSpec.for_timestamp(ts))
    assert at == {0: 50, 1: 50}, at
    alter(at)
    assert reread() == {0: 50, 1: 50}
    # To given offsets, with kafka-python's admin client.
    consume_all_and_commit(100)
    ka = KafkaAdminClient(bootstrap_servers=broker.bootstrap, request_timeout_ms=10000)
    try:
        errs = ka.alter_group_offsets(group, {KTP(topic, 0): OffsetAndMetadata(17, "", -1),
                                              KTP(topic, 1): OffsetAndMetadata(83, "", -1)})
        assert all(e.errno == 0 for e in errs.values()), errs
        got = ka.list_group_offsets(group)[group]
        assert {tp.partition: om.offset for tp, om in got.items()} == {0: 17, 1: 83}
    finally:
        ka.close()
    assert reread() == {0: 17, 1: 83}
    # Through a consumer's seek: commit a rewound position; the group then
    # resumes from it.
    consume_all_and_commit(100)
    c = _group_consumer(broker.bootstrap, group)
    try:
        c.subscribe([topic])
        _wait_assigned([c], [2])
        for p, o in ((0, 5), (1, 60)):
            for _ in range(50):
                try:
                    c.seek(TopicPartition(topic, p, o))
                    break
                except Exception:  # the partition is not fetching yet
                    c.poll(0.05)
        first_after_seek = _first_offsets(c, topic, 2)
        assert first_after_seek == {0: 5, 1: 60}, first_after_seek
        c.commit(offsets=[TopicPartition(topic, 0, 5), TopicPartition(topic, 1, 60)], asynchronous=False)
    finally:
        c.close()
    assert reread() == {0: 5, 1: 60}


def test_every_group_resumes_after_kill9(fresh_broker):
    """Several groups (confluent range, confluent cooperative-sticky,
    kafka-python, a simple commit) commit different positions; after a
    kill -9 and restart each resumes exactly from its committed offsets."""
    from confluent_kafka import TopicPartition
    from kafka import KafkaConsumer
    from kafka.structs import TopicPartition as KTP, OffsetAndMetadata
    b = fresh_broker
    topic = harness.unique_topic("grp-k9")
    clients.confluent_create_topic(b.bootstrap, topic, partitions=3)
    msgs = clients.make_messages("k9", 30, key_count=5, value_size=10, headers=False)
    for p in range(3):
        clients.confluent_produce(b.bootstrap, topic, msgs, partition=p)
    positions = {"range": {0: 3, 1: 4, 2: 5}, "cooperative-sticky": {0: 10, 1: 11, 2: 12},
                 "kafka-python": {0: 20, 1: 21, 2: 22}, "simple": {0: 25, 1: 26, 2: 27}}
    groups = {k: harness.unique_topic("g-k9-" + k.split("-")[0]) for k in positions}
    for k in ("range", "cooperative-sticky"):
        c = _group_consumer(b.bootstrap, groups[k], **{"partition.assignment.strategy": k})
        try:
            c.subscribe([topic])
            assert len(_read_all(c, 90)) == 90
            c.commit(offsets=[TopicPartition(topic, p, o) for p, o in positions[k].items()],
                     asynchronous=False)
        finally:
            c.close()
    kc = KafkaConsumer(topic, bootstrap_servers=b.bootstrap, group_id=groups["kafka-python"],
                       auto_offset_reset="earliest", enable_auto_commit=False,
                       session_timeout_ms=6000, heartbeat_interval_ms=500)
    try:
        n, deadline = 0, time.monotonic() + 30
        while n < 90 and time.monotonic() < deadline:
            n += sum(len(ms) for ms in kc.poll(timeout_ms=200).values())
        assert n == 90
        kc.commit({KTP(topic, p): OffsetAndMetadata(o, "", -1) for p, o in positions["kafka-python"].items()})
    finally:
        kc.close()
    s = _group_consumer(b.bootstrap, groups["simple"])
    try:
        s.assign([TopicPartition(topic, p, 0) for p in range(3)])
        s.commit(offsets=[TopicPartition(topic, p, o) for p, o in positions["simple"].items()],
                 asynchronous=False)
    finally:
        s.close()
    b.restart(how="kill9")
    for k in ("range", "cooperative-sticky", "simple"):
        c = _group_consumer(b.bootstrap, groups[k], **{"partition.assignment.strategy":
                                                       "range" if k == "simple" else k})
        try:
            c.subscribe([topic])
            assert _first_offsets(c, topic, 3) == positions[k], k
        finally:
            c.close()
    kc = KafkaConsumer(topic, bootstrap_servers=b.bootstrap, group_id=groups["kafka-python"],
                       auto_offset_reset="earliest", enable_auto_commit=False,
                       session_timeout_ms=6000, heartbeat_interval_ms=500)
    try:
        first, deadline = {}, time.monotonic() + 30
        while len(first) < 3 and time.monotonic() < deadline:
            for tp, ms in kc.poll(timeout_ms=200).items():
                first.setdefault(tp.partition, ms[0].offset)
        assert first == positions["kafka-python"]
    finally:
        kc.close()


@pytest.mark.waits
def test_offsets_expire_once_group_is_empty(broker_factory):
    """offsets.retention.minutes (1, the smallest Kafka accepts): the
    offsets of an Empty group and of a simple commit expire after it; a
    Stable group's offsets do not; expiry survives a restart."""
    from confluent_kafka import TopicPartition
    b = broker_factory({"group.initial.rebalance.delay.ms": "100", "offsets.retention.minutes": "1",
                        "offsets.retention.check.interval.ms": "500"})
    topic = harness.unique_topic("grp-exp")
    clients.confluent_create_topic(b.bootstrap, topic, partitions=1)
    clients.confluent_produce(b.bootstrap, topic, clients.make_messages("exp", 5, headers=False))
    simple, left, stable = (harness.unique_topic("g-exp-" + x) for x in ("simple", "left", "stable"))
    s = _group_consumer(b.bootstrap, simple)
    s.commit(offsets=[TopicPartition(topic, 0, 2)], asynchronous=False)
    s.close()
    gone = _group_consumer(b.bootstrap, left)
    gone.subscribe([topic])
    _wait_assigned([gone], [1])
    gone.commit(offsets=[TopicPartition(topic, 0, 3)], asynchronous=False)
    gone.close()
    live = _group_consumer(b.bootstrap, stable)
    t0 = time.monotonic()
    t0_wall = time.time()  # retention is wall-clock time, as Kafka's

    def committed(group):
        c = _group_consumer(b.bootstrap, group)
        try:
            return c.committed([TopicPartition(topic, 0)], timeout=10)[0].offset
        finally:
            c.close()

    try:
        live.subscribe([topic])
        _wait_assigned([live], [1])
        live.commit(offsets=[TopicPartition(topic, 0, 4)], asynchronous=False)
        assert (committed(simple), committed(left), committed(stable)) == (2, 3, 4)
        time.sleep(5)
        assert (committed(simple), committed(left)) == (2, 3)  # not before the minute
        deadline = t0 + 90
        while committed(simple) != -1001 or committed(left) != -1001:
            assert time.monotonic() < deadline, "offsets did not expire"
            live.poll(0.5)
        assert time.time() - t0_wall > 50
        live.poll(0.1)
        assert committed(stable) == 4
    finally:
        live.close()
    b.restart(how="kill9")
    assert (committed(simple), committed(left)) == (-1001, -1001)


API_PRODUCE = 0
INVALID_TOPIC_EXCEPTION = 17


def test_offsets_topic_is_protected_and_require_stable_answers(broker):
    """Clients cannot produce to or delete __consumer_offsets
    (INVALID_TOPIC_EXCEPTION, as Kafka); OffsetFetch with require_stable
    answers normally when no transaction is pending."""
    topic = harness.unique_topic("grp-prot")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    group = harness.unique_topic("g-prot")
    with KafkaConn(broker.bootstrap) as c:
        body = {"GroupId": group, "GenerationIdOrMemberEpoch": -1, "MemberId": "", "GroupInstanceId": None,
                "RetentionTimeMs": -1,
                "Topics": [{"Name": topic, "Partitions": [{"PartitionIndex": 0, "CommittedOffset": 9,
                                                           "CommittedLeaderEpoch": -1,
                                                           "CommittedMetadata": None}]}]}
        assert c.request(API_OFFSET_COMMIT, 8, body)["Topics"][0]["Partitions"][0]["ErrorCode"] == NONE
        for v in _versions(c, API_OFFSET_FETCH):
            if v < 7:
                continue
            if v >= 8:
                t = {"PartitionIndexes": [0]}
                if v >= 10:
                    t["TopicId"] = rawkafka.ensure_topic(broker.bootstrap, topic, 1)["TopicId"]
                else:
                    t["Name"] = topic
                r = c.request(API_OFFSET_FETCH, v, {"Groups": [{"GroupId": group, "MemberId": None,
                                                                "MemberEpoch": -1, "Topics": [t]}],
                                                    "RequireStable": True})
                g = r["Groups"][0]
                assert g["ErrorCode"] == NONE
                assert [(p["CommittedOffset"], p["ErrorCode"]) for p in g["Topics"][0]["Partitions"]] == [(9, 0)]
            else:
                r = c.request(API_OFFSET_FETCH, v, {"GroupId": group, "RequireStable": True,
                                                    "Topics": [{"Name": topic, "PartitionIndexes": [0]}]})
                assert r["ErrorCode"] == NONE
                assert [p["CommittedOffset"] for p in r["Topics"][0]["Partitions"]] == [9]
    # Produce to the internal topic: refused per partition.
    from confluent_kafka import KafkaException
    with pytest.raises(KafkaException) as e:
        clients.confluent_produce(broker.bootstrap, "__consumer_offsets", [{"key": b"k", "value": b"v"}],
                                  partition=0, conf={"message.send.max.retries": 0}, timeout=15)
    assert e.value.args[0].code() == INVALID_TOPIC_EXCEPTION, e.value
    # Delete: refused; the group's offsets are still there.
    admin = clients.confluent_admin(broker.bootstrap)
    f = admin.delete_topics(["__consumer_offsets"], request_timeout=10)["__consumer_offsets"]
    with pytest.raises(KafkaException) as e:
        f.result(timeout=20)
    assert e.value.args[0].code() == INVALID_TOPIC_EXCEPTION, e.value
    c = _group_consumer(broker.bootstrap, group)
    try:
        from confluent_kafka import TopicPartition
        assert c.committed([TopicPartition(topic, 0)], timeout=10)[0].offset == 9
    finally:
        c.close()


def test_members_are_reloaded_after_kill9(fresh_broker):
    """Kafka reloads a group's members from its metadata record: after a
    broker kill -9 and restart, members go on heartbeating with their
    member id and generation, and consumers are not rebalanced."""
    b = fresh_broker
    topic = harness.unique_topic("grp-reload")
    clients.confluent_create_topic(b.bootstrap, topic, partitions=4)
    # Raw protocol: one member, then a restart.
    raw_group = harness.unique_topic("g-reload-raw")
    with KafkaConn(b.bootstrap) as c:
        jv = c.api_versions()[rawkafka.API_JOIN_GROUP][1]
        body = dict(_join_body(jv, raw_group, session=30000),
                    Protocols=[{"Name": "range", "Metadata": _subscription(topic)}])
        r = c.request(rawkafka.API_JOIN_GROUP, jv, body)
        r = c.request(rawkafka.API_JOIN_GROUP, jv, dict(body, MemberId=r["MemberId"]))
        me, gen = r["MemberId"], r["GenerationId"]
        r = c.request(API_SYNC_GROUP, c.api_versions()[API_SYNC_GROUP][1], {
            "GroupId": raw_group, "GenerationId": gen, "MemberId": me, "GroupInstanceId": None,
            "ProtocolType": "consumer", "ProtocolName": "range",
            "Assignments": [{"MemberId": me, "Assignment": b"mine"}]})
        assert r["ErrorCode"] == NONE
    # Two confluent consumers.
    group = harness.unique_topic("g-reload")
    events = {"a": [], "b": []}

    def make(name):
        c = _group_consumer(b.bootstrap, group, **{"session.timeout.ms": 15000})
        c.subscribe([topic],
                    on_assign=lambda _c, ps: events[name].append(("assign", sorted(p.partition for p in ps))),
                    on_revoke=lambda _c, ps: events[name].append(("revoke", sorted(p.partition for p in ps))))
        return c

    ca, cb = make("a"), make("b")
    try:
        _wait_assigned([ca, cb], [2, 2])
        before = {k: list(v) for k, v in events.items()}
        b.restart(how="kill9")
        with KafkaConn(b.bootstrap) as c:
            hb = {"GroupId": raw_group, "GenerationId": gen, "MemberId": me, "GroupInstanceId": None}
            assert c.request(API_HEARTBEAT, 0, hb)["ErrorCode"] == NONE
            r = c.request(API_DESCRIBE_GROUPS, 0, {"Groups": [raw_group]})
            g = r["Groups"][0]
            assert (g["GroupState"], [(m["MemberId"], m["MemberAssignment"]) for m in g["Members"]]) == \
                ("Stable", [(me, b"mine")])
        acked = clients.confluent_produce(b.bootstrap, topic,
                                          clients.make_messages("reload", 200, headers=False))
        got = _drain([ca, cb], len(acked), timeout=30)
        seen = [(m.partition(), m.offset()) for g in got for m in g]
        assert sorted(seen) == sorted(acked)
        assert events == before, (before, events)
    finally:
        ca.close()
        cb.close()


GROUP_MAX_SIZE_REACHED = 81


def test_group_max_size(broker_factory):
    """group.max.size: a member beyond it gets GROUP_MAX_SIZE_REACHED; the
    members already in the group are unaffected."""
    b = broker_factory({"group.initial.rebalance.delay.ms": "0", "group.max.size": "1"})
    group = harness.unique_topic("g-max")
    with KafkaConn(b.bootstrap) as c, KafkaConn(b.bootstrap) as d:
        v = c.api_versions()[rawkafka.API_JOIN_GROUP][1]
        d.api_versions()
        body = _join_body(v, group)
        r = c.request(rawkafka.API_JOIN_GROUP, v, body)
        r = c.request(rawkafka.API_JOIN_GROUP, v, dict(body, MemberId=r["MemberId"]))
        assert r["ErrorCode"] == NONE
        me, gen = r["MemberId"], r["GenerationId"]
        assert d.request(rawkafka.API_JOIN_GROUP, v, body)["ErrorCode"] == GROUP_MAX_SIZE_REACHED
        # The member itself may rejoin.
        r = c.request(rawkafka.API_JOIN_GROUP, v, dict(body, MemberId=me))
        assert r["ErrorCode"] == NONE and r["MemberId"] == me


def test_three_consumers_started_together_rebalance_once(broker_factory):
    """Kafka's group.initial.rebalance.delay.ms (default 3000) exists so
    that consumers starting together rebalance once: three classic
    consumers subscribing at once each get exactly one assignment callback
    (and no revocation), the three assignments split the topic, and each
    reads its first message within ~5 s of subscribing."""
    from confluent_kafka import Consumer
    b = broker_factory(settings={})  # the broker's defaults: the delay is 3000 ms
    topic = harness.unique_topic("grp-once")
    clients.confluent_create_topic(b.bootstrap, topic, partitions=6)
    msgs = clients.make_messages("grp-once", 60, key_count=30, value_size=10, headers=False)
    acked = clients.confluent_produce(b.bootstrap, topic, msgs)
    assert {p for p, _ in acked} == set(range(6))
    group = harness.unique_topic("g-once")
    events = [[] for _ in range(3)]
    consumers = [Consumer({"bootstrap.servers": b.bootstrap, "group.id": group,
                           "auto.offset.reset": "earliest", "enable.auto.commit": False,
                           "fetch.wait.max.ms": 100, "session.timeout.ms": 10000})
                 for _ in range(3)]
    started, first = [], [None] * 3
    try:
        for i, c in enumerate(consumers):
            c.subscribe([topic],
                        on_assign=lambda _c, ps, i=i: events[i].append(
                            ("assign", sorted(p.partition for p in ps))),
                        on_revoke=lambda _c, ps, i=i: events[i].append(
                            ("revoke", sorted(p.partition for p in ps))))
            started.append(time.monotonic())
        # Poll well past the first messages, so a second rebalance would show.
        deadline = started[0] + 9
        while time.monotonic() < deadline:
            for i, c in enumerate(consumers):
                for m in c.consume(num_messages=100, timeout=0.02):
                    if not m.error() and first[i] is None:
                        first[i] = time.monotonic() - started[i]
        assigns = [[e for e in ev if e[0] == "assign"] for ev in events]
        assert [len(a) for a in assigns] == [1, 1, 1], "more than one rebalance: %s" % events
        assert all(e[0] == "assign" for ev in events for e in ev), events
        owned = sorted(p for a in assigns for p in a[0][1])
        assert owned == list(range(6)), assigns
        assert all(len(a[0][1]) == 2 for a in assigns), assigns
        assert all(f is not None for f in first), "a consumer read nothing: %s" % first
        assert max(first) < 5.0, "first message after %s s" % [round(f, 2) for f in first]
        # The delay did hold the rebalance back (one join phase for all).
        assert min(first) > 2.5, "no initial rebalance delay: %s" % first
    finally:
        for c in consumers:
            c.close()


def _java_hash(s):
    """Java's String.hashCode (over UTF-16 code units), as Kafka maps a
    group to its __consumer_offsets partition."""
    data = s.encode("utf-16-be")
    h = 0
    for i in range(0, len(data), 2):
        h = (h * 31 + int.from_bytes(data[i:i + 2], "big")) & 0xFFFFFFFF
    return h - (1 << 32) if h >= (1 << 31) else h


def test_admin_client_id_may_produce_to_offsets_topic(fresh_broker):
    """Kafka lets the client id `__admin_client` (and only it) append to
    internal topics. A committed-offset record written that way, in Kafka's
    layout, to the group's partition of __consumer_offsets is read back by
    the coordinator after a restart; any other client id is refused."""
    import struct
    from confluent_kafka import KafkaException, TopicPartition
    b = fresh_broker
    topic = harness.unique_topic("grp-admin-id")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    group = harness.unique_topic("g-admin-id")
    # Creates __consumer_offsets (50 partitions by default).
    c = _group_consumer(b.bootstrap, group)
    try:
        assert c.committed([TopicPartition(topic, 0)], timeout=10)[0].offset < 0
    finally:
        c.close()
    h = _java_hash(group)
    part = (0 if h == -(1 << 31) else abs(h)) % 50
    s = lambda x: struct.pack(">h", len(x)) + x.encode()
    key = struct.pack(">h", 1) + s(group) + s(topic) + struct.pack(">i", 0)
    value = struct.pack(">hqi", 3, 42, -1) + s("via admin") + struct.pack(">q", int(time.time() * 1000))
    with pytest.raises(KafkaException) as e:
        clients.confluent_produce(b.bootstrap, "__consumer_offsets", [{"key": key, "value": value}],
                                  partition=part, conf={"message.send.max.retries": 0}, timeout=15)
    assert e.value.args[0].code() == INVALID_TOPIC_EXCEPTION, e.value
    clients.confluent_produce(b.bootstrap, "__consumer_offsets", [{"key": key, "value": value}],
                              partition=part, conf={"client.id": "__admin_client",
                                                    "message.send.max.retries": 0}, timeout=15)
    b.restart(how="term")
    # Read back over the raw protocol: librdkafka copies a fetched metadata
    # string without its terminating NUL when it hands `committed()` its
    # result, and confluent-kafka then reads the string up to the next NUL
    # on the heap, so a metadata not written by librdkafka itself (which
    # sends the NUL along) comes back with stray bytes now and then.
    with KafkaConn(b.bootstrap) as conn:
        fetch = {"GroupId": group, "Topics": [{"Name": topic, "PartitionIndexes": [0]}], "RequireStable": False}
        got = conn.request(API_OFFSET_FETCH, 7, fetch)["Topics"][0]["Partitions"][0]
    assert (got["ErrorCode"], got["CommittedOffset"], got["Metadata"]) == (NONE, 42, "via admin"), got
