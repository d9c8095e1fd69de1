"""Topic lifecycle across brokers that come and go: a topic deleted while
one of its replicas' brokers was down leaves no folders behind once that
broker is back (it replays the creation and the deletion together from
the controller log, and must still remove what it had on disk), and a
topic created meanwhile gets its replica there.
"""

import time

import pytest

import cluster
import harness
import rawkafka

pytestmark = pytest.mark.cluster

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())


@needs_cluster
def test_a_topic_deleted_while_a_broker_was_down_leaves_no_folders():
    from confluent_kafka.admin import AdminClient, NewTopic
    c = cluster.Cluster(3, name="orphans")
    try:
        c.start()
        gone = harness.unique_topic("gone")
        c.create_topic(gone, 2, full_isr=True)
        victim = c.node(3)
        assert len(cluster.partition_folders(victim, gone)) == 2, cluster.partition_folders(victim, gone)
        c.kill9(3)
        # Every live broker names a live broker (itself, as KRaft names a
        # random live one) as the controller, so that an admin client never
        # waits for a dead one: it was the controller leader once, and
        # librdkafka's DeleteTopics then did not complete within 30 s.
        for n in (1, 2):
            with rawkafka.KafkaConn(c.node(n).bootstrap) as conn:
                md = conn.request(rawkafka.API_METADATA, 1, {"Topics": []})
            assert md["ControllerId"] == n, md
        admin = AdminClient({"bootstrap.servers": c.node(1).bootstrap})
        admin.delete_topics([gone], operation_timeout=20)[gone].result(timeout=30)
        born = harness.unique_topic("born")
        admin.create_topics([NewTopic(born, 1, 3)])[born].result(timeout=30)
        # A live broker removes a deleted topic's folders when it applies
        # the deletion, after DeleteTopics has been answered (Kafka too
        # deletes log folders asynchronously): soon, not necessarily yet.
        harness.wait_until(lambda: not cluster.partition_folders(c.node(1), gone), timeout=30,
                           what="broker 1 to remove the deleted topic's folders")
        c.start_node(3)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (cluster.partition_folders(victim, gone)
                                               or not cluster.partition_folders(victim, born)):
            time.sleep(0.2)
        assert cluster.partition_folders(victim, gone) == [], "folders of the deleted topic are left"
        assert len(cluster.partition_folders(victim, born)) == 1, "the topic created meanwhile has no replica"
    finally:
        c.close()


@needs_cluster
def test_a_new_leader_asks_an_unknown_producer_to_resend_from_its_first_sequence():
    """A producer with no batch in a partition's (complete) log that sends
    a sequence past 0 just after the leadership began gets a retriable
    NOT_LEADER_OR_FOLLOWER, not a success: its earlier batches are most
    likely still failing on the old leader, and accepting this one would
    let the client count them as written (librdkafka's "implicitly acked"
    messages; 150 acknowledged records were lost that way). Kafka accepts
    any sequence from an unknown producer because retention may have
    removed its state; with nothing removed, that cannot be the reason."""
    c = cluster.Cluster(3, name="unknownpid")
    try:
        c.start()
        topic = harness.unique_topic("seq")
        c.create_topic(topic, 1, full_isr=True)
        leader = c.leader_of(topic, 0)
        with c._conn(leader) as conn:
            r = conn.request(22, 1, {"TransactionalId": None, "TransactionTimeoutMs": 60000})
            assert r["ErrorCode"] == 0, r
        pid, epoch = r["ProducerId"], r["ProducerEpoch"]
        recs = [(b"k", b"v%d" % i) for i in range(5)]

        def send(seq):
            blob = rawkafka.build_batch(recs, producer_id=pid, producer_epoch=epoch,
                                        base_sequence=seq)
            with c._conn(c.leader_of(topic, 0)) as conn:
                part, _ = conn.produce(topic, 0, blob, acks=-1)
            return part

        def send_until_taken(seq):
            # A loaded machine may still move the new partition's
            # leadership (its first leader hands over to the preferred
            # replica) or settle it: NOT_LEADER_OR_FOLLOWER is retriable,
            # and a client retries at the leader it finds next.
            deadline = time.monotonic() + 20
            part = send(seq)
            while part["ErrorCode"] == rawkafka.NOT_LEADER_OR_FOLLOWER and time.monotonic() < deadline:
                time.sleep(0.2)
                part = send(seq)
            return part

        part = send(5)
        assert part["ErrorCode"] == rawkafka.NOT_LEADER_OR_FOLLOWER, part
        # In order, both are taken.
        part = send_until_taken(0)
        assert (part["ErrorCode"], part["BaseOffset"]) == (0, 0), part
        part = send_until_taken(5)
        assert (part["ErrorCode"], part["BaseOffset"]) == (0, 5), part
    finally:
        c.close()
