"""The KIP-848 consumer group protocol (ConsumerGroupHeartbeat,
ConsumerGroupDescribe), driven by confluent-kafka with
`group.protocol=consumer` and by raw requests.

- Three consumers of one group split a 6-partition topic; every message is
  consumed once by the group; a second group reads everything.
- A consumer killed with SIGKILL loses its partitions after the session
  timeout; the survivors resume from its committed offsets, nothing skipped.
- A consumer joining later is given partitions incrementally: the others
  keep what they do not give up.
- The group's state is durable: after a broker kill -9 or SIGTERM the
  members go on with the same ids, epochs and partitions, no callback, no
  message skipped; offsets of subscribed topics do not expire while the
  group has members, others do; an empty group is deleted once its
  offsets expire.
- Raw protocol: both APIs at every advertised version; fencing
  (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID), INVALID_REGULAR_EXPRESSION,
  UNSUPPORTED_ASSIGNOR, STALE_MEMBER_EPOCH on OffsetCommit and OffsetFetch
  v9+ (UNKNOWN_MEMBER_ID for a stranger), a group id being used by one
  protocol at a time; ListGroups v5 type/state filters, DescribeGroups
  (GROUP_ID_NOT_FOUND for a consumer group, as Kafka 4), DeleteGroups
  (NON_EMPTY_GROUP, then deleted), OffsetDelete (GROUP_SUBSCRIBED_TO_TOPIC);
  an empty consumer group gives way to a classic JoinGroup; confluent
  AdminClient lists and
  describes a consumer group.
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

API_OFFSET_COMMIT, API_OFFSET_FETCH, API_JOIN_GROUP = 8, 9, 11
API_DESCRIBE_GROUPS, API_LIST_GROUPS, API_DELETE_GROUPS, API_OFFSET_DELETE = 15, 16, 42, 47
API_CG_HEARTBEAT, API_CG_DESCRIBE = 68, 69
NONE, UNKNOWN_MEMBER_ID, INCONSISTENT_GROUP_PROTOCOL = 0, 25, 23
NON_EMPTY_GROUP, GROUP_SUBSCRIBED_TO_TOPIC = 68, 86
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
            # Kafka 4: any other epoch is STALE_MEMBER_EPOCH.
            assert commit(epoch - 1) == STALE_MEMBER_EPOCH
            assert commit(epoch + 1) == STALE_MEMBER_EPOCH
            # OffsetFetch v9+ names the member and its epoch.
            ofv = min(c.pick(API_OFFSET_FETCH), 9)
            assert ofv >= 9

            def fetch(mid, e):
                body = {"Groups": [{"GroupId": group, "MemberId": mid, "MemberEpoch": e,
                                    "Topics": [{"Name": topic, "PartitionIndexes": [0]}]}],
                        "RequireStable": False}
                g = c.request(API_OFFSET_FETCH, ofv, body)["Groups"][0]
                if g["ErrorCode"] != NONE:
                    return g["ErrorCode"], None
                return NONE, g["Topics"][0]["Partitions"][0]["CommittedOffset"]

            assert fetch(member, epoch) == (NONE, 5)
            assert fetch(None, -1) == (NONE, 5), "admin fetch (no member) is accepted"
            assert fetch(member, epoch - 1) == (STALE_MEMBER_EPOCH, None)
            assert fetch(member, epoch + 1) == (STALE_MEMBER_EPOCH, None)
            assert fetch("nobody", epoch) == (UNKNOWN_MEMBER_ID, None)
            # ListGroups sees a consumer group (v5 filters by type and state).
            lv = c.pick(API_LIST_GROUPS)
            assert lv >= 5

            def listed(types=(), states=()):
                r = c.request(API_LIST_GROUPS, lv, {"StatesFilter": list(states),
                                                    "TypesFilter": list(types)})
                assert r["ErrorCode"] == NONE
                return {g["GroupId"]: g for g in r["Groups"]}

            g = listed()[group]
            assert (g["ProtocolType"], g["GroupState"], g["GroupType"]) == (
                "consumer", "Stable", "consumer"), g
            assert group in listed(types=["consumer"])
            assert group in listed(types=["Consumer"]), "type filter is case-insensitive"
            assert group not in listed(types=["classic"])
            assert group in listed(states=["stable"])
            assert group not in listed(states=["empty"])
            # DescribeGroups is the classic API: Kafka 4 answers a consumer
            # group with GROUP_ID_NOT_FOUND (v6+) / Dead.
            for dv in range(c.api_versions()[API_DESCRIBE_GROUPS][1] + 1):
                d = c.request(API_DESCRIBE_GROUPS, dv, {"Groups": [group],
                                                        "IncludeAuthorizedOperations": False})
                dg = d["Groups"][0]
                assert dg["GroupState"] == "Dead", (dv, dg)
                assert dg["ErrorCode"] == (GROUP_ID_NOT_FOUND if dv >= 6 else NONE), (dv, dg)
                assert dg["Members"] == []
            # OffsetDelete: not the offsets of a subscribed topic
            # (GROUP_SUBSCRIBED_TO_TOPIC), those of another topic yes.
            other = harness.unique_topic("cp-raw-other")
            rawkafka.ensure_topic(broker.bootstrap, other, 1)
            t2 = {"Name": other, "Partitions": [{"PartitionIndex": 0, "CommittedOffset": 3,
                                                 "CommittedLeaderEpoch": -1, "CommittedMetadata": ""}]}
            cr = c.request(API_OFFSET_COMMIT, min(ocv, 9), {
                "GroupId": group, "GenerationIdOrMemberEpoch": epoch, "MemberId": member,
                "GroupInstanceId": None, "Topics": [t2]})
            assert cr["Topics"][0]["Partitions"][0]["ErrorCode"] == NONE
            od = c.request(API_OFFSET_DELETE, c.pick(API_OFFSET_DELETE), {
                "GroupId": group, "Topics": [{"Name": topic, "Partitions": [{"PartitionIndex": 0}]},
                                             {"Name": other, "Partitions": [{"PartitionIndex": 0}]}]})
            assert od["ErrorCode"] == NONE, od
            assert [t["Partitions"][0]["ErrorCode"] for t in od["Topics"]] == [
                GROUP_SUBSCRIBED_TO_TOPIC, NONE], od
            assert fetch(member, epoch) == (NONE, 5)
            # DeleteGroups refuses while a member is in the group.
            dr = c.request(API_DELETE_GROUPS, c.pick(API_DELETE_GROUPS), {"GroupsNames": [group]})
            assert dr["Results"][0]["ErrorCode"] == NON_EMPTY_GROUP, dr
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
                assert m["ClientHost"] == "/127.0.0.1", m["ClientHost"]
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
            assert fetch(member, epoch) == (UNKNOWN_MEMBER_ID, None)
            g = listed(types=["consumer"])[group]
            assert g["GroupState"] == "Empty", g
            # Now it can be deleted, offsets and all.
            dr = c.request(API_DELETE_GROUPS, c.pick(API_DELETE_GROUPS), {"GroupsNames": [group]})
            assert dr["Results"][0]["ErrorCode"] == NONE, dr
            assert group not in listed()
            d = c.request(API_CG_DESCRIBE, 0, {"GroupIds": [group],
                                                "IncludeAuthorizedOperations": False})
            assert d["Groups"][0]["ErrorCode"] == GROUP_ID_NOT_FOUND
            assert fetch(None, -1) == (NONE, -1)
            dr = c.request(API_DELETE_GROUPS, c.pick(API_DELETE_GROUPS), {"GroupsNames": [group]})
            assert dr["Results"][0]["ErrorCode"] == GROUP_ID_NOT_FOUND, dr
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


def _describe(bootstrap, group):
    with KafkaConn(bootstrap) as conn:
        r = conn.request(API_CG_DESCRIBE, conn.pick(API_CG_DESCRIBE),
                         {"GroupIds": [group], "IncludeAuthorizedOperations": False})
    g = r["Groups"][0]
    assert g["ErrorCode"] == NONE, g
    return {m["MemberId"]: (m["MemberEpoch"],
                            sorted(p for tp in m["Assignment"]["TopicPartitions"]
                                   for p in tp["Partitions"]))
            for m in g["Members"]}


@pytest.mark.parametrize("how", ["kill9", "term"])
def test_members_keep_assignment_across_broker_restart(fresh_broker, how):
    """The group's state is durable (Kafka 4's records in
    __consumer_offsets): after a kill -9 (or SIGTERM) and restart, two
    members heartbeating with their ids and epochs go on without
    rejoining: no assignment or revocation callback, the same member ids,
    epochs and partitions (ConsumerGroupDescribe), and every message,
    before and after the restart, is read exactly once."""
    b = fresh_broker
    topic = harness.unique_topic("cp-restart")
    clients.confluent_create_topic(b.bootstrap, topic, partitions=4)
    group = harness.unique_topic("g-cp-restart")
    events = []
    consumers = []
    for i in range(2):
        c = _consumer(b.bootstrap, group, **{"client.id": "restart-%d" % i})
        c.subscribe([topic],
                    on_assign=lambda c_, ps, i=i: events.append(("assign", i, time.monotonic(),
                                                                 sorted(p.partition for p in ps))),
                    on_revoke=lambda c_, ps, i=i: events.append(("revoke", i, time.monotonic(),
                                                                 sorted(p.partition for p in ps))),
                    on_lost=lambda c_, ps, i=i: events.append(("lost", i, time.monotonic(),
                                                               sorted(p.partition for p in ps))))
        consumers.append(c)
    seen = []

    def consume_until(cond, what, timeout):
        deadline = time.monotonic() + timeout
        for _ in range(100000):
            if cond():
                return
            assert time.monotonic() < deadline, "%s: read %d, %s" % (
                what, len(seen), [_parts(c) for c in consumers])
            for c in consumers:
                for m in c.consume(num_messages=1000, timeout=0.05):
                    if not m.error():
                        seen.append((m.partition(), m.offset()))

    try:
        # Split first (so that no partition changes hands after it was
        # read, which would re-deliver uncommitted messages), then read.
        consume_until(lambda: sorted(_parts(consumers[0]) + _parts(consumers[1])) == [0, 1, 2, 3]
                      and len(_parts(consumers[0])) == 2, "2/2 split", 40)
        first = clients.make_messages("cp-restart-1", 80, key_count=16, value_size=10,
                                      headers=False)
        acked1 = clients.confluent_produce(b.bootstrap, topic, first)
        consume_until(lambda: len(seen) >= len(acked1), "first batch", 40)
        from confluent_kafka import KafkaError, KafkaException
        for c in consumers:
            try:
                c.commit(asynchronous=False)
            except KafkaException as e:
                # The other member may have read everything before the split.
                assert e.args[0].code() == KafkaError._NO_OFFSET, e
        before = _describe(b.bootstrap, group)
        assert len(before) == 2, before
        parts_before = [_parts(c) for c in consumers]
        n_events = len(events)
        b.restart(how=how)
        restarted = time.monotonic()
        second = clients.make_messages("cp-restart-2", 80, key_count=16, value_size=10,
                                       headers=False)
        acked2 = clients.confluent_produce(b.bootstrap, topic, second)
        consume_until(lambda: set(acked2) <= set(seen), "after restart", 45)
        # Several heartbeat intervals after the restart: still the same.
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            consume_until(lambda: False or time.monotonic() > deadline, "settle", 10)
        after = _describe(b.bootstrap, group)
        assert after == before, "members changed across the restart: %s -> %s" % (before, after)
        assert [_parts(c) for c in consumers] == parts_before
        late = [e for e in events[n_events:]]
        assert not late, "callbacks after the restart (at +%s s): %s" % (
            [round(e[2] - restarted, 2) for e in late], late)
        assert sorted(seen) == sorted(set(acked1) | set(acked2)), "a message was skipped or repeated"
    finally:
        for c in consumers:
            c.close()


@pytest.mark.waits
def test_group_consumer_max_size_refuses_a_member_past_it(broker_factory):
    """`group.consumer.max.size` (read-only, as in Kafka 4): a new member
    that would grow a full consumer-protocol group gets
    GROUP_MAX_SIZE_REACHED; members already in keep heartbeating, a static
    member taking its instance's place is let in, and once a member
    leaves a new one can join."""
    GROUP_MAX_SIZE_REACHED = 81
    b = broker_factory(settings=dict(BROKER_SETTINGS, **{"group.consumer.max.size": "2"}))
    topic = harness.unique_topic("cp-max")
    rawkafka.ensure_topic(b.bootstrap, topic, 2)
    group = harness.unique_topic("g-max")
    with KafkaConn(b.bootstrap) as c:
        c.api_versions()
        v = c.pick(API_CG_HEARTBEAT)
        join = dict(rebalance=30000, topics=[topic], owned=[])
        a, bm, x = (str(uuid.uuid4()) for _ in range(3))
        assert _hb(c, v, group, a, 0, **join)["ErrorCode"] == NONE
        r = _hb(c, v, group, bm, 0, InstanceId="static-b", **join)
        assert r["ErrorCode"] == NONE, r
        r = _hb(c, v, group, x, 0, **join)
        assert r["ErrorCode"] == GROUP_MAX_SIZE_REACHED, r
        assert "maximum capacity of 2 members" in r["ErrorMessage"], r
        r = _hb(c, v, group, a, 0, **join)
        assert r["ErrorCode"] == NONE, r
        # static-b comes back under another member id: it replaces itself.
        b2 = str(uuid.uuid4())
        assert _hb(c, v, group, bm, -2, InstanceId="static-b")["ErrorCode"] == NONE
        r = _hb(c, v, group, b2, 0, InstanceId="static-b", **join)
        assert r["ErrorCode"] == NONE, r
        # a leaves: x gets in.
        assert _hb(c, v, group, a, -1)["ErrorCode"] == NONE
        r = _hb(c, v, group, x, 0, **join)
        assert r["ErrorCode"] == NONE, r


def test_offsets_expire_and_empty_group_is_deleted(broker_factory):
    """Kafka's offset cleanup for a consumer group: while a member
    subscribes to topic A, A's committed offset is kept past the retention
    time while B's (not subscribed) expires; once the member leaves, A's
    goes too and the empty group is deleted (tombstones written): it stays
    deleted after a kill -9 and restart."""
    b = broker_factory(settings={"offsets.retention.minutes": "1",
                                 "offsets.retention.check.interval.ms": "500",
                                 "group.consumer.heartbeat.interval.ms": "500"})
    ta, tb = harness.unique_topic("cp-exp-a"), harness.unique_topic("cp-exp-b")
    rawkafka.ensure_topic(b.bootstrap, ta, 1)
    rawkafka.ensure_topic(b.bootstrap, tb, 1)
    group = harness.unique_topic("g-cp-expire")
    member = str(uuid.uuid4())

    def describe(conn):
        r = conn.request(API_CG_DESCRIBE, conn.pick(API_CG_DESCRIBE),
                         {"GroupIds": [group], "IncludeAuthorizedOperations": False})
        return r["Groups"][0]

    def fetch(conn):
        r = conn.request(API_OFFSET_FETCH, 9, {"Groups": [{"GroupId": group, "MemberId": None,
                                                           "MemberEpoch": -1, "Topics": None}],
                                               "RequireStable": False})
        g = r["Groups"][0]
        assert g["ErrorCode"] == NONE, g
        return {t["Name"]: t["Partitions"][0]["CommittedOffset"] for t in g["Topics"]}

    with KafkaConn(b.bootstrap) as c:
        r = _hb(c, 1, group, member, 0, rebalance=30000, topics=[ta], owned=[], regex="")
        assert r["ErrorCode"] == NONE, r
        epoch = r["MemberEpoch"]
        ocv = min(c.pick(API_OFFSET_COMMIT), 9)
        for t, off in ((ta, 5), (tb, 7)):
            cr = c.request(API_OFFSET_COMMIT, ocv, {
                "GroupId": group, "GenerationIdOrMemberEpoch": epoch, "MemberId": member,
                "GroupInstanceId": None,
                "Topics": [{"Name": t, "Partitions": [{"PartitionIndex": 0, "CommittedOffset": off,
                                                       "CommittedLeaderEpoch": -1,
                                                       "CommittedMetadata": ""}]}]})
            assert cr["Topics"][0]["Partitions"][0]["ErrorCode"] == NONE
        committed_at = time.monotonic()
        # Retention is wall-clock time (as Kafka's): the lower bound is checked
        # against the wall clock, which a shared VM may step apart from the
        # monotonic one.
        committed_wall = time.time()
        assert fetch(c) == {ta: 5, tb: 7}
        # Keep the member alive past the retention time (one minute).
        deadline = committed_at + 90
        for _ in range(1000):
            r = _hb(c, 1, group, member, epoch)
            assert r["ErrorCode"] == NONE, r
            if tb not in fetch(c):
                break
            assert time.monotonic() < deadline, "B's offset did not expire: %s" % fetch(c)
            time.sleep(1)
        assert time.time() - committed_wall > 55, "expired before the retention time"
        assert fetch(c) == {ta: 5}, "a subscribed topic's offset expired"
        assert describe(c)["ErrorCode"] == NONE
        # The member leaves: A's offset expires, then the group goes.
        assert _hb(c, 1, group, member, -1)["ErrorCode"] == NONE
        deadline = time.monotonic() + 20
        for _ in range(1000):
            if describe(c)["ErrorCode"] == GROUP_ID_NOT_FOUND:
                break
            assert time.monotonic() < deadline, "empty group not deleted: %s %s" % (
                describe(c), fetch(c))
            time.sleep(0.2)
        assert fetch(c) == {}
    b.restart(how="kill9")
    with KafkaConn(b.bootstrap) as c:
        assert describe(c)["ErrorCode"] == GROUP_ID_NOT_FOUND, describe(c)
        assert fetch(c) == {}


def test_admin_client_lists_and_describes_consumer_group(broker):
    """confluent-kafka's AdminClient sees a group.protocol=consumer group:
    list_consumer_groups (type and state filters) and
    describe_consumer_groups with its members and their partitions."""
    from confluent_kafka import ConsumerGroupState, ConsumerGroupType
    from confluent_kafka.admin import AdminClient
    topic = harness.unique_topic("cp-admin")
    clients.confluent_create_topic(broker.bootstrap, topic, partitions=4)
    group = harness.unique_topic("g-cp-admin")
    consumers = [_consumer(broker.bootstrap, group) for _ in range(2)]
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    try:
        for c in consumers:
            c.subscribe([topic])
        _poll_until(consumers, lambda: [len(_parts(c)) for c in consumers] == [2, 2], "no 2/2 split")
        listed = admin.list_consumer_groups(
            types={ConsumerGroupType.CONSUMER}, request_timeout=10).result(timeout=20)
        mine = [g for g in listed.valid if g.group_id == group]
        assert len(mine) == 1, [g.group_id for g in listed.valid]
        assert mine[0].type == ConsumerGroupType.CONSUMER
        assert mine[0].state == ConsumerGroupState.STABLE
        classic = admin.list_consumer_groups(
            types={ConsumerGroupType.CLASSIC}, request_timeout=10).result(timeout=20)
        assert group not in [g.group_id for g in classic.valid]
        d = admin.describe_consumer_groups([group], request_timeout=10)[group].result(timeout=20)
        assert d.group_id == group
        assert d.type == ConsumerGroupType.CONSUMER
        assert d.state == ConsumerGroupState.STABLE
        assert len(d.members) == 2
        owned = sorted(tp.partition for m in d.members for tp in m.assignment.topic_partitions)
        assert owned == [0, 1, 2, 3]
    finally:
        for c in consumers:
            c.close()


def test_empty_consumer_group_gives_way_to_classic_join(broker):
    """Kafka converts an empty consumer group when a classic member joins
    its id: the consumer group is deleted, the committed offsets stay, and
    the classic group is listed as classic."""
    topic = harness.unique_topic("cp-conv")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    group = harness.unique_topic("g-conv")
    member = str(uuid.uuid4())
    with KafkaConn(broker.bootstrap) as c:
        r = _hb(c, 1, group, member, 0, rebalance=30000, topics=[topic], owned=[], regex="")
        assert r["ErrorCode"] == NONE, r
        cr = c.request(API_OFFSET_COMMIT, 9, {
            "GroupId": group, "GenerationIdOrMemberEpoch": r["MemberEpoch"], "MemberId": member,
            "GroupInstanceId": None,
            "Topics": [{"Name": topic, "Partitions": [{"PartitionIndex": 0, "CommittedOffset": 4,
                                                       "CommittedLeaderEpoch": -1,
                                                       "CommittedMetadata": ""}]}]})
        assert cr["Topics"][0]["Partitions"][0]["ErrorCode"] == NONE
        assert _hb(c, 1, group, member, -1)["ErrorCode"] == NONE
        join = {"GroupId": group, "SessionTimeoutMs": 10000, "RebalanceTimeoutMs": 10000,
                "MemberId": "", "GroupInstanceId": None, "ProtocolType": "consumer",
                "Protocols": [{"Name": "range", "Metadata": b""}]}
        jr = c.request(API_JOIN_GROUP, 5, join)
        assert jr["ErrorCode"] in (NONE, 79), jr  # 79: MEMBER_ID_REQUIRED (KIP-394)
        d = c.request(API_CG_DESCRIBE, 0, {"GroupIds": [group], "IncludeAuthorizedOperations": False})
        assert d["Groups"][0]["ErrorCode"] == GROUP_ID_NOT_FOUND, d["Groups"][0]
        of = c.request(API_OFFSET_FETCH, 9, {"Groups": [{"GroupId": group, "MemberId": None,
                                                         "MemberEpoch": -1, "Topics": None}],
                                             "RequireStable": False})
        assert [(t["Name"], t["Partitions"][0]["CommittedOffset"])
                for t in of["Groups"][0]["Topics"]] == [(topic, 4)]
        lg = c.request(API_LIST_GROUPS, c.pick(API_LIST_GROUPS), {"StatesFilter": [],
                                                                 "TypesFilter": []})
        mine = [g for g in lg["Groups"] if g["GroupId"] == group]
        assert [g["GroupType"] for g in mine] == ["classic"], mine
