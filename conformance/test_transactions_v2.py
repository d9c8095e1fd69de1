"""Transactions v2 (KIP-890, issue 16): the broker finalizes
`transaction.version` 2, so a producer that speaks it (the Java client
4.x, franz-go) sends no AddPartitionsToTxn or AddOffsetsToTxn: Produce
v12+ and TxnOffsetCommit v5 add their partitions implicitly, and every
EndTxn v5 bumps the producer epoch and returns it.

No client that speaks transactions v2 installs from the registries this
project reaches (librdkafka, kafka-python, kafkajs, aiokafka and
@platformatic/kafka all speak v1; the Java client and franz-go do not
install here), so `txn_v2_client.Tv2Producer` drives the wire exactly as
the Java client's TransactionManager does with the feature on: no add
requests, Produce v12, TxnOffsetCommit v5, EndTxn v5, and the epoch from
EndTxn's answer (sequences restart at 0 under it). The v1 clients' own tests
(test_transactions.py, test_eos.py) keep running against the same broker.
"""

import pytest

import clients
import cluster
import harness
import rawkafka
from test_transactions import BROKER_SETTINGS, drain, values  # noqa: F401 (settings: module-level)
from txn_v2_client import (API_END_TXN, API_PRODUCE, API_TXN_OFFSET_COMMIT,
                           INVALID_PRODUCER_EPOCH, INVALID_TXN_STATE, NONE, PRODUCER_FENCED,
                           Tv2Producer)

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())


def _offset_of(bootstrap, group, topic, partition):
    """The group's committed offset of topic-partition (-1001: none)."""
    from confluent_kafka import TopicPartition
    c = clients.confluent_consumer(bootstrap, **{"group.id": group})
    try:
        return c.committed([TopicPartition(topic, partition)], timeout=10)[0].offset
    finally:
        c.close()


def _stable(bootstrap, topic, partitions):
    """Whether every partition's last stable offset reached its end."""
    from kafka import KafkaConsumer, TopicPartition as KTP
    tps = [KTP(topic, p) for p in partitions]
    rc = KafkaConsumer(bootstrap_servers=bootstrap, isolation_level="read_committed")
    ru = KafkaConsumer(bootstrap_servers=bootstrap, isolation_level="read_uncommitted")
    try:
        committed, uncommitted = rc.end_offsets(tps), ru.end_offsets(tps)
        return committed == uncommitted
    finally:
        rc.close()
        ru.close()


def test_the_broker_finalizes_transaction_version_2(broker):
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        r = c.request(rawkafka.API_API_VERSIONS, 4, {
            "ClientSoftwareName": "tidemark-conformance", "ClientSoftwareVersion": "1.0"})
    fin = {f["Name"]: f["MaxVersionLevel"] for f in r["FinalizedFeatures"]}
    assert fin["transaction.version"] == 2, fin
    keys = {k["ApiKey"]: k["MaxVersion"] for k in r["ApiKeys"]}
    # What a client needs to run transactions v2.
    assert keys[API_END_TXN] >= 5 and keys[API_TXN_OFFSET_COMMIT] >= 5 and \
        keys[API_PRODUCE] >= 12, keys


def test_a_v2_producer_commits_aborts_and_fences_without_add_requests(broker):
    b = broker.bootstrap
    topic = harness.unique_topic("tv2")
    src = harness.unique_topic("tv2-src")
    group = "g-" + topic
    rawkafka.ensure_topic(b, topic, 2)
    rawkafka.ensure_topic(b, src, 1)
    p = Tv2Producer(b, "tv2-" + topic)
    try:
        p.init()
        pid, e0 = p.pid, p.epoch
        # Transaction 1: the partitions and the group's offsets partition
        # join through Produce v12 and TxnOffsetCommit v5 alone.
        assert p.send(topic, 0, [b"a0", b"a1"]) == NONE
        assert p.send(topic, 1, [b"a2"]) == NONE
        assert p.send(topic, 0, [b"a3"]) == NONE
        assert p.send_offsets(group, {(src, 0): 42}) == NONE
        state, epoch, parts = p.describe()
        assert (state, epoch) == ("Ongoing", e0)
        assert {(topic, 0), (topic, 1)} <= parts, parts
        assert any(t == "__consumer_offsets" for t, _ in parts), parts
        # Nothing is visible to read_committed before the commit.
        assert values(drain(b, topic, [0, 1], "read_committed", quiet=1.0)) == []
        code, got_pid, got_epoch = p.end(commit=True)
        assert (code, got_pid, got_epoch) == (NONE, pid, e0 + 1)
        # The commit's retry (the old epoch) is answered with the new one.
        assert p.end(commit=True, epoch=e0, adopt=False) == (NONE, pid, e0 + 1)
        # ... but an abort under the old epoch is not a retry of it.
        assert p.end(commit=False, epoch=e0, adopt=False)[0] == INVALID_TXN_STATE
        harness.wait_until(lambda: _offset_of(b, group, src, 0) == 42, timeout=10,
                           what="the transaction's group offset is visible")

        # Transaction 2, under the bumped epoch (sequences restart at 0),
        # aborted: its data and offsets never become visible.
        assert p.send(topic, 0, [b"x0"]) == NONE
        assert p.send_offsets(group, {(src, 0): 99}) == NONE
        # A zombie of the first transaction's epoch is fenced.
        assert p.send(topic, 1, [b"zombie"], epoch=e0) == INVALID_PRODUCER_EPOCH
        assert p.end(commit=False)[:3] == (NONE, pid, e0 + 2)

        # An abort with nothing sent (the client cannot know whether a
        # failed produce opened the transaction) bumps the epoch too.
        assert p.end(commit=False)[:3] == (NONE, pid, e0 + 3)
        # A commit with nothing sent is an invalid state.
        assert p.end(commit=True, adopt=False)[0] in (INVALID_TXN_STATE, PRODUCER_FENCED)

        # Transaction 3 commits under the newest epoch.
        assert p.send(topic, 1, [b"c0"]) == NONE
        assert p.end(commit=True)[:3] == (NONE, pid, e0 + 4)
        # The old epochs cannot write or end anything any more.
        assert p.send(topic, 0, [b"late"], epoch=e0 + 1) == INVALID_PRODUCER_EPOCH
        assert p.end(commit=True, epoch=e0 + 1, adopt=False)[0] == PRODUCER_FENCED
    finally:
        p.close()
    committed = drain(b, topic, [0, 1], "read_committed", expect=5)
    assert sorted((part, v) for part, _, _, v in committed) == \
        [(0, b"a0"), (0, b"a1"), (0, b"a3"), (1, b"a2"), (1, b"c0")]
    uncommitted = values(drain(b, topic, [0, 1], "read_uncommitted", expect=6))
    assert sorted(uncommitted) == [b"a0", b"a1", b"a2", b"a3", b"c0", b"x0"]
    assert _offset_of(b, group, src, 0) == 42, "the aborted offsets stay invisible"
    harness.wait_until(lambda: _stable(b, topic, [0, 1]), timeout=10,
                       what="every transaction ended: the last stable offsets reach the end")


def test_a_v2_producers_state_survives_a_restart(fresh_broker):
    """The coordinator stores what v2 needs (the client's transaction
    version) in `__transaction_state`: after a restart, the retry of a
    v2 commit is still recognised and answered with the bumped epoch."""
    b = fresh_broker
    topic = harness.unique_topic("tv2-restart")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    p = Tv2Producer(b.bootstrap, "tv2r-" + topic)
    try:
        p.init()
        pid, e0 = p.pid, p.epoch
        assert p.send(topic, 0, [b"one"]) == NONE
        assert p.end(commit=True)[:3] == (NONE, pid, e0 + 1)
        harness.wait_until(lambda: p.describe()[0] == "CompleteCommit", timeout=10,
                           what="the commit completes")
        assert p.send(topic, 0, [b"open"]) == NONE
    finally:
        p.close()
    b.restart()
    p = Tv2Producer(b.bootstrap, "tv2r-" + topic)
    p.pid, p.epoch = pid, e0 + 1
    p.seqs[(topic, 0)] = 1
    try:
        # The open transaction was reloaded with its partition: it commits.
        state, epoch, parts = p.describe()
        assert (state, epoch, parts) == ("Ongoing", e0 + 1, {(topic, 0)})
        assert p.end(commit=True)[:3] == (NONE, pid, e0 + 2)
        # The retry of that commit, after a second restart.
        harness.wait_until(lambda: p.describe()[0] == "CompleteCommit", timeout=10,
                           what="the commit completes")
    finally:
        p.close()
    b.restart()
    p = Tv2Producer(b.bootstrap, "tv2r-" + topic)
    p.pid, p.epoch = pid, e0 + 2
    try:
        assert p.end(commit=True, epoch=e0 + 1, adopt=False) == (NONE, pid, e0 + 2)
        assert p.send(topic, 0, [b"three"]) == NONE
        assert p.end(commit=True)[:3] == (NONE, pid, e0 + 3)
    finally:
        p.close()
    assert values(drain(b.bootstrap, topic, [0], "read_committed", expect=3)) == \
        [b"one", b"open", b"three"]


@needs_cluster
def test_v2_partitions_on_other_brokers_join_through_their_leaders(request):
    """On three brokers, each partition led by a different one: the
    leaders that are not the transaction coordinator add their partition
    over the node-to-node transport (AddPartitionsToTxn, not verify-only),
    and the group's coordinator adds its offsets partition; the commit's
    markers reach every one of them."""
    c = cluster.Cluster(3, settings=dict(BROKER_SETTINGS), name=request.node.name)
    try:
        c.start()
    except BaseException:
        c.close(keep_data=True)
        raise
    try:
        topic = harness.unique_topic("tv2-cluster")
        c.create_placed(topic, [[1], [2], [3]])
        tid = "tv2c-" + topic
        group = "g-" + topic
        p = Tv2Producer(c.bootstrap, tid)
        try:
            p.init()
            coord = p.coordinator(tid, 1)
            leaders = {p.leader(topic, i) for i in range(3)}
            assert len(leaders - {coord}) >= 2, "two partitions must be led elsewhere"
            for i in range(3):
                assert p.send(topic, i, [b"c%d" % i]) == NONE
            assert p.send_offsets(group, {(topic, 0): 7}) == NONE
            state, _, parts = p.describe()
            assert state == "Ongoing" and {(topic, i) for i in range(3)} <= parts, parts
            e = p.epoch
            assert p.end(commit=True)[2] == e + 1
            # Back-to-back transactions: each starts while the markers of
            # the last are still on their way to the partitions, so its
            # first batch must wait for them, not join the ended one.
            expected = [(i, b"c%d" % i) for i in range(3)]
            for r in range(8):
                commit = r % 2 == 1
                for i in range(3):
                    assert p.send(topic, i, [b"r%d-%d" % (r, i)]) == NONE
                assert p.end(commit=commit)[2] == e + 2 + r
                if commit:
                    expected += [(i, b"r%d-%d" % (r, i)) for i in range(3)]
        finally:
            p.close()
        got = drain(c.bootstrap, topic, [0, 1, 2], "read_committed", expect=len(expected))
        assert sorted((part, v) for part, _, _, v in got) == sorted(expected)
        harness.wait_until(lambda: _offset_of(c.bootstrap, group, topic, 0) == 7,
                           timeout=10, what="the group offset commits with the transaction")
        harness.wait_until(lambda: _stable(c.bootstrap, topic, [0, 1, 2]), timeout=15,
                           what="the markers reached every partition")
    finally:
        c.close()
