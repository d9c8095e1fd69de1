"""Transactions (issue 16) with unchanged clients: confluent-kafka's
transactional producer and read_committed consumer, kafka-python's
transactional producer, send_offsets_to_transaction, zombie fencing, a
transaction abandoned past its timeout, the coordinator's state across a
restart, the operators' DescribeTransactions / ListTransactions on the
wire, and compaction removing markers past the delete horizon."""

import json
import time

import pytest

import clients
import harness
import rawkafka

BROKER_SETTINGS = {
    "num.partitions": "3",
    "auto.create.topics.enable": "true",
    # Abandoned transactions are found within half a second here (Kafka's
    # default looks every 10 s).
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": "500",
    "transaction.state.log.num.partitions": "5",
    "offsets.topic.num.partitions": "5",
}

API_DESCRIBE_TRANSACTIONS = 65
API_LIST_TRANSACTIONS = 66
API_DESCRIBE_PRODUCERS = 61
API_INIT_PRODUCER_ID = 22
API_ADD_PARTITIONS_TO_TXN = 24
API_END_TXN = 26
INVALID_TXN_STATE = 48


def txn_producer(bootstrap, tid, **extra):
    from confluent_kafka import Producer
    conf = {
        "bootstrap.servers": bootstrap,
        "transactional.id": tid,
        "linger.ms": 5,
        "socket.timeout.ms": 10000,
        "message.timeout.ms": 30000,
    }
    conf.update(extra)
    # librdkafka: socket.timeout.ms must not exceed the transaction timeout.
    if "transaction.timeout.ms" in extra:
        conf["socket.timeout.ms"] = min(10000, int(extra["transaction.timeout.ms"]))
        conf["message.timeout.ms"] = int(extra["transaction.timeout.ms"])
    p = Producer(conf)
    p.init_transactions(30)
    return p


def drain(bootstrap, topic, partitions, isolation, expect=None, quiet=2.0, timeout=30):
    """Every message a consumer with `isolation` reads from the start of
    `partitions`: until `expect` messages came, or nothing new came for
    `quiet` seconds. Returns [(partition, offset, key, value)]."""
    from confluent_kafka import OFFSET_BEGINNING, TopicPartition
    c = clients.confluent_consumer(bootstrap, **{"isolation.level": isolation})
    out = []
    try:
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions])
        deadline = time.monotonic() + timeout
        last_new = time.monotonic()
        while time.monotonic() < deadline:
            if expect is not None and len(out) >= expect:
                break
            if expect is None and time.monotonic() - last_new > quiet:
                break
            for m in c.consume(num_messages=1000, timeout=0.2):
                if m.error():
                    continue
                out.append((m.partition(), m.offset(), m.key(), m.value()))
                last_new = time.monotonic()
    finally:
        c.close()
    return out


def values(msgs):
    return [m[3] for m in msgs]


def produce_all(p, topic, msgs, partition=None):
    for k, v in msgs:
        kw = {"key": k, "value": v}
        if partition is not None:
            kw["partition"] = partition
        p.produce(topic, **kw)
    assert p.flush(30) == 0


def test_commit_and_abort_are_seen_only_as_committed(broker):
    topic = harness.unique_topic("txn")
    rawkafka.ensure_topic(broker.bootstrap, topic, 3)
    p = txn_producer(broker.bootstrap, "tx-" + topic)
    first = [(b"k%d" % (i % 5), b"c1-%d" % i) for i in range(30)]
    aborted = [(b"k%d" % (i % 5), b"ab-%d" % i) for i in range(20)]
    second = [(b"k%d" % (i % 5), b"c2-%d" % i) for i in range(10)]
    p.begin_transaction()
    produce_all(p, topic, first)
    p.commit_transaction(30)
    p.begin_transaction()
    produce_all(p, topic, aborted)
    p.abort_transaction(30)
    p.begin_transaction()
    produce_all(p, topic, second)
    p.commit_transaction(30)

    committed = drain(broker.bootstrap, topic, [0, 1, 2], "read_committed", expect=40)
    time.sleep(1)
    committed += drain(broker.bootstrap, topic, [0, 1, 2], "read_committed", quiet=1.0)[40:]
    assert sorted(values(committed)) == sorted(v for _, v in first + second)
    # Same key, same order: within a partition the committed records keep
    # the order they were produced in.
    for part in range(3):
        got = [v for (pp, _, _, v) in sorted(committed) if pp == part]
        want = [v for _, v in first + second if v in got]
        assert got == want
    everything = drain(broker.bootstrap, topic, [0, 1, 2], "read_uncommitted", expect=60)
    # read_uncommitted sees the aborted records too, and never a marker.
    assert sorted(values(everything)) == sorted(v for _, v in first + aborted + second)


def test_an_open_transaction_holds_back_read_committed_at_the_lso(broker):
    from kafka import KafkaConsumer, TopicPartition as KTP
    topic = harness.unique_topic("lso")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    p1 = txn_producer(broker.bootstrap, "open-" + topic)
    p2 = txn_producer(broker.bootstrap, "after-" + topic)
    p1.begin_transaction()
    produce_all(p1, topic, [(None, b"open-%d" % i) for i in range(5)], partition=0)
    p2.begin_transaction()
    produce_all(p2, topic, [(None, b"after-%d" % i) for i in range(5)], partition=0)
    p2.commit_transaction(30)

    # p1's first record is at offset 0: nothing is stable yet.
    assert drain(broker.bootstrap, topic, [0], "read_committed", quiet=2.0) == []
    assert len(drain(broker.bootstrap, topic, [0], "read_uncommitted", expect=10)) == 10
    # ListOffsets with the isolation level (kafka-python's end_offsets).
    tp = KTP(topic, 0)
    rc = KafkaConsumer(bootstrap_servers=broker.bootstrap, isolation_level="read_committed")
    ru = KafkaConsumer(bootstrap_servers=broker.bootstrap, isolation_level="read_uncommitted")
    try:
        assert rc.end_offsets([tp])[tp] == 0
        assert ru.end_offsets([tp])[tp] == 11  # 10 records and p2's marker
        p1.commit_transaction(30)
        harness.wait_until(lambda: rc.end_offsets([tp])[tp] == 12, timeout=10,
                           what="the LSO moves to the end once p1 commits")
    finally:
        rc.close()
        ru.close()
    got = values(drain(broker.bootstrap, topic, [0], "read_committed", expect=10))
    assert sorted(got) == sorted([b"open-%d" % i for i in range(5)] +
                                 [b"after-%d" % i for i in range(5)])


def test_a_second_producer_with_the_same_id_fences_the_first(broker):
    from confluent_kafka import KafkaException
    topic = harness.unique_topic("zombie")
    rawkafka.ensure_topic(broker.bootstrap, topic, 3)
    tid = "zombie-" + topic
    zombie = txn_producer(broker.bootstrap, tid)
    zombie.begin_transaction()
    produce_all(zombie, topic, [(b"k", b"zombie-%d" % i) for i in range(10)])
    # The new instance's init aborts the zombie's open transaction.
    fresh = txn_producer(broker.bootstrap, tid)
    fresh.begin_transaction()
    produce_all(fresh, topic, [(b"k", b"real-%d" % i) for i in range(10)])
    fresh.commit_transaction(30)
    with pytest.raises(KafkaException) as e:
        zombie.commit_transaction(10)
    assert e.value.args[0].fatal() or "fenced" in str(e.value).lower() or \
        "epoch" in str(e.value).lower(), str(e.value)
    got = values(drain(broker.bootstrap, topic, [0, 1, 2], "read_committed", expect=10))
    time.sleep(1)
    more = drain(broker.bootstrap, topic, [0, 1, 2], "read_committed", quiet=1.0)
    assert sorted(got) == sorted(b"real-%d" % i for i in range(10))
    assert len(more) == 10, "nothing of the zombie's transaction is ever visible"


def test_a_transaction_past_its_timeout_is_aborted_and_the_lso_moves_on(broker):
    from confluent_kafka import KafkaException
    topic = harness.unique_topic("timeout")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    late = txn_producer(broker.bootstrap, "late-" + topic, **{"transaction.timeout.ms": 2000})
    late.begin_transaction()
    produce_all(late, topic, [(None, b"late-%d" % i) for i in range(5)], partition=0)
    time.sleep(4)
    other = txn_producer(broker.bootstrap, "other-" + topic)
    other.begin_transaction()
    produce_all(other, topic, [(None, b"after-%d" % i) for i in range(5)], partition=0)
    other.commit_transaction(30)
    got = values(drain(broker.bootstrap, topic, [0], "read_committed", expect=5))
    assert got == [b"after-%d" % i for i in range(5)]
    with pytest.raises(KafkaException):
        late.commit_transaction(10)


def test_send_offsets_to_transaction_commits_the_group_offsets_with_it(broker):
    from confluent_kafka import TopicPartition
    src = harness.unique_topic("eos-in")
    dst = harness.unique_topic("eos-out")
    group = "eos-" + src
    rawkafka.ensure_topic(broker.bootstrap, src, 2)
    rawkafka.ensure_topic(broker.bootstrap, dst, 2)
    clients.confluent_produce(broker.bootstrap, src,
                              [{"key": b"k%d" % i, "value": b"%d" % i} for i in range(20)])
    consumer = clients.confluent_consumer(broker.bootstrap, **{
        "group.id": group, "isolation.level": "read_committed",
        "session.timeout.ms": 6000})
    p = txn_producer(broker.bootstrap, "pipe-" + src)

    def round_trip(n, commit):
        seen = []
        deadline = time.monotonic() + 30
        while len(seen) < n and time.monotonic() < deadline:
            for m in consumer.consume(num_messages=100, timeout=0.5):
                if not m.error():
                    seen.append(m)
        assert len(seen) == n
        p.begin_transaction()
        for m in seen:
            p.produce(dst, key=m.key(), value=b"x" + m.value())
        positions = consumer.position(consumer.assignment())
        p.send_offsets_to_transaction(positions, consumer.consumer_group_metadata(), 30)
        if commit:
            p.commit_transaction(30)
        else:
            p.abort_transaction(30)
        return positions

    try:
        consumer.subscribe([src])
        positions = round_trip(20, commit=True)
        committed = consumer.committed([TopicPartition(src, tp.partition) for tp in positions],
                                       timeout=10)
        assert {(c.partition, c.offset) for c in committed} == \
            {(tp.partition, tp.offset) for tp in positions}
        assert sum(tp.offset for tp in positions) == 20
        # An aborted round leaves the group's offsets where they were.
        clients.confluent_produce(broker.bootstrap, src,
                                  [{"key": b"k", "value": b"%d" % i} for i in range(20, 25)])
        round_trip(5, commit=False)
        again = consumer.committed([TopicPartition(src, tp.partition) for tp in positions],
                                   timeout=10)
        assert {(c.partition, c.offset) for c in again} == \
            {(tp.partition, tp.offset) for tp in positions}
    finally:
        consumer.close()
    out = values(drain(broker.bootstrap, dst, [0, 1], "read_committed", expect=20))
    time.sleep(1)
    out_all = values(drain(broker.bootstrap, dst, [0, 1], "read_committed", quiet=1.0))
    assert sorted(out) == sorted(b"x%d" % i for i in range(20))
    assert len(out_all) == 20, "the aborted round's output is never visible"


def test_kafka_python_transactional_producer(broker):
    from kafka import KafkaProducer
    topic = harness.unique_topic("kp-txn")
    rawkafka.ensure_topic(broker.bootstrap, topic, 2)
    p = KafkaProducer(bootstrap_servers=broker.bootstrap, transactional_id="kp-" + topic)
    try:
        p.init_transactions()
        p.begin_transaction()
        for i in range(10):
            p.send(topic, key=b"k%d" % (i % 3), value=b"kp-%d" % i)
        p.commit_transaction()
        p.begin_transaction()
        for i in range(5):
            p.send(topic, value=b"gone-%d" % i)
        p.abort_transaction()
    finally:
        p.close(timeout=10)
    got = values(drain(broker.bootstrap, topic, [0, 1], "read_committed", expect=10))
    time.sleep(1)
    assert len(drain(broker.bootstrap, topic, [0, 1], "read_committed", quiet=1.0)) == 10
    assert sorted(got) == sorted(b"kp-%d" % i for i in range(10))


def test_describe_and_list_transactions_on_the_wire(broker):
    topic = harness.unique_topic("admin-txn")
    rawkafka.ensure_topic(broker.bootstrap, topic, 2)
    done_id, open_id = "done-" + topic, "open-" + topic
    done = txn_producer(broker.bootstrap, done_id)
    done.begin_transaction()
    produce_all(done, topic, [(None, b"a")], partition=0)
    done.commit_transaction(30)
    opened = txn_producer(broker.bootstrap, open_id)
    opened.begin_transaction()
    produce_all(opened, topic, [(None, b"b")], partition=1)
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        # Both ids hash to partitions this single broker coordinates.
        def describe():
            r = c.request(API_DESCRIBE_TRANSACTIONS, 0,
                          {"TransactionalIds": [done_id, open_id, "never-" + topic]})
            return {s["TransactionalId"]: s for s in r["TransactionStates"]}
        harness.wait_until(lambda: describe()[done_id]["TransactionState"] == "CompleteCommit",
                           timeout=10, what="the commit completes")
        d = describe()
        assert d[done_id]["ErrorCode"] == 0 and d[done_id]["Topics"] == []
        assert d[open_id]["TransactionState"] == "Ongoing"
        assert [(t["Topic"], t["Partitions"]) for t in d[open_id]["Topics"]] == [(topic, [1])]
        assert d[open_id]["TransactionTimeoutMs"] == 60000
        assert d[open_id]["TransactionStartTimeMs"] > 0
        assert d["never-" + topic]["ErrorCode"] == 105  # TRANSACTIONAL_ID_NOT_FOUND
        r = c.request(API_LIST_TRANSACTIONS, 1, {"StateFilters": ["Ongoing", "Nope"],
                                                 "ProducerIdFilters": [], "DurationFilter": -1})
        assert r["ErrorCode"] == 0 and r["UnknownStateFilters"] == ["Nope"]
        listed = {s["TransactionalId"]: s["TransactionState"] for s in r["TransactionStates"]}
        assert listed.get(open_id) == "Ongoing" and done_id not in listed
        r = c.request(API_LIST_TRANSACTIONS, 1, {"StateFilters": [], "ProducerIdFilters": [],
                                                 "DurationFilter": -1})
        listed = {s["TransactionalId"]: s["TransactionState"] for s in r["TransactionStates"]}
        assert listed.get(done_id) == "CompleteCommit"
        # DescribeProducers: the open transaction's first offset on
        # partition 1; none open on partition 0.
        r = c.request(API_DESCRIBE_PRODUCERS, 0, {"Topics": [
            {"Name": topic, "PartitionIndexes": [0, 1, 7]}]})
        parts = {p["PartitionIndex"]: p for p in r["Topics"][0]["Partitions"]}
        assert parts[7]["ErrorCode"] == 3  # UNKNOWN_TOPIC_OR_PARTITION
        p0, p1 = parts[0]["ActiveProducers"], parts[1]["ActiveProducers"]
        assert [x["ProducerId"] for x in p0] == [d[done_id]["ProducerId"]]
        assert p0[0]["CurrentTxnStartOffset"] == -1 and p0[0]["LastSequence"] == 0
        assert [x["ProducerId"] for x in p1] == [d[open_id]["ProducerId"]]
        assert p1[0]["CurrentTxnStartOffset"] == 0
        assert p1[0]["ProducerEpoch"] == d[open_id]["ProducerEpoch"]
    opened.abort_transaction(30)


def test_transactions_survive_a_restart(fresh_broker):
    b = fresh_broker
    topic = harness.unique_topic("txn-restart")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    p = txn_producer(b.bootstrap, "restart-" + topic)
    p.begin_transaction()
    produce_all(p, topic, [(None, b"ok-%d" % i) for i in range(5)], partition=0)
    p.commit_transaction(30)
    p.begin_transaction()
    produce_all(p, topic, [(None, b"gone-%d" % i) for i in range(5)], partition=0)
    p.abort_transaction(30)
    p.begin_transaction()
    produce_all(p, topic, [(None, b"open-%d" % i) for i in range(5)], partition=0)
    b.restart()
    # The aborted transaction stays aborted and the open one stays open
    # across the restart: read_committed sees the first five only.
    assert values(drain(b.bootstrap, topic, [0], "read_committed", quiet=2.0)) == \
        [b"ok-%d" % i for i in range(5)]
    # The producer carries on with the coordinator's reloaded state.
    p.commit_transaction(30)
    got = values(drain(b.bootstrap, topic, [0], "read_committed", expect=10))
    assert got == [b"ok-%d" % i for i in range(5)] + [b"open-%d" % i for i in range(5)]


def test_kafkajs_transactions(broker):
    topic = harness.unique_topic("js-txn")
    rawkafka.ensure_topic(broker.bootstrap, topic, 2)
    node = harness.node_binary()
    spec = {"brokers": [broker.bootstrap], "topic": topic,
            "transactionalId": "js-" + topic, "groupId": "js-group-" + topic}
    p = harness.run([node, str(harness.JS_DIR / "txn.js")], input=json.dumps(spec).encode(),
                    timeout=120, cwd=str(harness.JS_DIR))
    lines = [x for x in p.stdout.decode().splitlines() if x.startswith("{")]
    assert lines, p.stderr[-3000:].decode("utf-8", "replace")
    r = json.loads(lines[-1])
    want = ["one-%d" % i for i in range(10)] + ["two-%d" % i for i in range(5)]
    assert sorted(r["committed"]) == sorted(want)
    assert sorted(r["uncommitted"]) == sorted(want + ["gone-%d" % i for i in range(5)])
    parts = {p["partition"]: p["offset"] for t in r["offsets"] for p in t["partitions"]}
    assert parts[0] == "42"


def test_a_late_batch_of_an_ended_transaction_cannot_leave_it_open(broker):
    """KIP-890 verification: a transactional batch that no ongoing
    transaction of its producer covers (sent before AddPartitionsToTxn, or a
    late retry after the commit) is refused with INVALID_TXN_STATE, so no
    transaction is left open that no marker would end, and the last stable
    offset keeps up with the high watermark."""
    from kafka import KafkaConsumer, TopicPartition as KTP
    topic = harness.unique_topic("late")
    rawkafka.ensure_topic(broker.bootstrap, topic, 1)
    tid = "late-" + topic
    with rawkafka.KafkaConn(broker.bootstrap) as c:
        r = c.request(API_INIT_PRODUCER_ID, 3, {"TransactionalId": tid,
                                                 "TransactionTimeoutMs": 60000,
                                                 "ProducerId": -1, "ProducerEpoch": -1})
        assert r["ErrorCode"] == 0, r
        pid, epoch = r["ProducerId"], r["ProducerEpoch"]

        def send(seq, value):
            blob = rawkafka.build_batch([(None, value)], producer_id=pid, producer_epoch=epoch,
                                        base_sequence=seq, transactional=True)
            # Produce v11: a transactions v1 producer (v12+ is v2's,
            # which adds the partition instead of verifying it).
            pr, _ = c.produce(topic, 0, blob, transactional_id=tid, version=11)
            return pr["ErrorCode"]

        assert send(0, b"too-early") == INVALID_TXN_STATE
        r = c.request(API_ADD_PARTITIONS_TO_TXN, 3, {
            "V3AndBelowTransactionalId": tid, "V3AndBelowProducerId": pid,
            "V3AndBelowProducerEpoch": epoch,
            "V3AndBelowTopics": [{"Name": topic, "Partitions": [0]}]})
        assert r["ResultsByTopicV3AndBelow"][0]["ResultsByPartition"][0][
            "PartitionErrorCode"] == 0, r
        assert send(0, b"in-the-transaction") == 0
        r = c.request(API_END_TXN, 3, {"TransactionalId": tid, "ProducerId": pid,
                                        "ProducerEpoch": epoch, "Committed": True})
        assert r["ErrorCode"] == 0, r

        def describe_state():
            r = c.request(API_DESCRIBE_TRANSACTIONS, 0, {"TransactionalIds": [tid]})
            return r["TransactionStates"][0]["TransactionState"]
        harness.wait_until(lambda: describe_state() == "CompleteCommit", timeout=10,
                           what="the commit completes")
        # A late batch of the committed transaction (its next sequence).
        assert send(1, b"late") == INVALID_TXN_STATE
    tp = KTP(topic, 0)
    rc = KafkaConsumer(bootstrap_servers=broker.bootstrap, isolation_level="read_committed")
    ru = KafkaConsumer(bootstrap_servers=broker.bootstrap, isolation_level="read_uncommitted")
    try:
        assert ru.end_offsets([tp])[tp] == 2  # the record and its marker
        assert rc.end_offsets([tp])[tp] == 2, "the last stable offset is stuck"
    finally:
        rc.close()
        ru.close()
    assert values(drain(broker.bootstrap, topic, [0], "read_committed", expect=1)) == \
        [b"in-the-transaction"]


CONTROL = 0x20


def raw_log(bootstrap, topic, isolation=0):
    """The batches of partition 0 from its log start to its end (or the
    last stable offset), the last partition response, and the aborted
    transactions (producer id, first offset) the responses named."""
    batches, part, aborted = [], None, []
    with rawkafka.KafkaConn(bootstrap) as c:
        c.api_versions()
        part, _ = c.fetch(topic, 0, 0, isolation_level=isolation)
        offset = part["LogStartOffset"]
        for _ in range(10000):
            part, _ = c.fetch(topic, 0, offset, isolation_level=isolation)
            assert part["ErrorCode"] == 0, part
            aborted += [(a["ProducerId"], a["FirstOffset"])
                        for a in part.get("AbortedTransactions") or []]
            got = [b for b in rawkafka.parse_batches(part["Records"])
                   if b.base_offset + b.last_offset_delta >= offset]
            if not got:
                break
            batches += got
            offset = got[-1].base_offset + got[-1].last_offset_delta + 1
    return batches, part, aborted


def markers_of(batches):
    return [b.base_offset for b in batches if b.attributes & CONTROL]


@pytest.mark.waits
def test_compaction_removes_transaction_markers_after_the_delete_horizon(broker_factory):
    """A compacted topic written transactionally: the cleaner removes the
    aborted records at once; once no record of a marker's transaction is
    left, a pass stamps its delete horizon (KIP-534, now +
    delete.retention.ms) into it and a pass past that removes it; a marker
    whose transaction still has a record, and the producer's last marker,
    stay.
    Both isolation levels read the right records before and after a
    restart, and the last stable offset stays at the high watermark."""
    settings = dict(BROKER_SETTINGS)
    # The cleaner looks every 200 ms (retention and compaction share it).
    settings["log.retention.check.interval.ms"] = "200"
    b = broker_factory(settings)
    topic = harness.unique_topic("txn-compact")
    rawkafka.ensure_topic(b.bootstrap, topic, 1, configs={
        "cleanup.policy": "compact",
        # One filler record (700 bytes) per segment (a batch may not
        # exceed a segment).
        "internal.segment.bytes": "1024",
        "max.message.bytes": "1000",
        "delete.retention.ms": "2000",
        "min.cleanable.dirty.ratio": "0.01",
    })
    p = txn_producer(b.bootstrap, "compact-" + topic)

    def txn(msgs, commit=True):
        p.begin_transaction()
        produce_all(p, topic, msgs, partition=0)
        if commit:
            p.commit_transaction(30)
        else:
            p.abort_transaction(30)

    txn([(b"k1", b"a1"), (b"k2", b"a2")])            # all superseded by C
    txn([(b"k3", b"aborted")], commit=False)          # removed at once
    txn([(b"k1", b"c1"), (b"k2", b"c2"), (b"k4", b"c4")])
    txn([(b"k5", b"d5")])                             # the producer's last
    # EndTxn answers before the markers are written.
    harness.wait_until(lambda: len(markers_of(raw_log(b.bootstrap, topic)[0])) == 4,
                       timeout=10, what="the four markers")
    before, part, _ = raw_log(b.bootstrap, topic)
    m_a, m_b, m_c, m_d = markers_of(before)
    assert part["LastStableOffset"] == part["HighWatermark"]
    _, _, aborted = raw_log(b.bootstrap, topic, isolation=1)
    assert [first for (_, first) in aborted] == [m_a + 1]

    filler = clients.confluent_producer(b.bootstrap)

    def fill(n):
        for _ in range(n):
            filler.produce(topic, key=b"f", value=b"f" * 700, partition=0)
            assert filler.flush(30) == 0

    expected = {b"k1": b"c1", b"k2": b"c2", b"k4": b"c4", b"k5": b"d5"}

    def latest(msgs):
        return {k: v for (_, _, k, v) in sorted(msgs) if k != b"f"}

    # Segments roll and the cleaner runs until both markers are gone (each
    # pass needs new data: the dirty ratio).
    deadline = time.monotonic() + 40
    while True:
        fill(2)
        batches, part, _ = raw_log(b.bootstrap, topic)
        markers = markers_of(batches)
        # Rewritten batches (stamped markers among them) carry valid CRCs.
        assert all(x.crc_ok for x in batches)
        if m_a not in markers and m_b not in markers:
            break
        assert time.monotonic() < deadline, "markers %s still in %s" % ([m_a, m_b], markers)
        time.sleep(0.3)
    assert markers == [m_c, m_d]
    assert part["LastStableOffset"] == part["HighWatermark"]
    # No record of the aborted transaction is left, so no aborted
    # transaction is named any more.
    assert raw_log(b.bootstrap, topic, isolation=1)[2] == []
    for isolation in ("read_committed", "read_uncommitted"):
        msgs = drain(b.bootstrap, topic, [0], isolation, quiet=2.0)
        assert latest(msgs) == expected, isolation
        assert b"aborted" not in values(msgs) and b"a1" not in values(msgs)
        offsets = [m[1] for m in msgs]
        assert m_a not in offsets and m_b not in offsets

    # A restart rebuilds the same state: nothing open, the same markers.
    b.restart()
    batches, part, _ = raw_log(b.bootstrap, topic)
    assert markers_of(batches) == [m_c, m_d]
    assert part["LastStableOffset"] == part["HighWatermark"]
    assert raw_log(b.bootstrap, topic, isolation=1)[2] == []
    assert latest(drain(b.bootstrap, topic, [0], "read_committed", quiet=2.0)) == expected
    # The producer carries on after it.
    p2 = txn_producer(b.bootstrap, "compact-" + topic)
    p2.begin_transaction()
    produce_all(p2, topic, [(b"k6", b"e6")], partition=0)
    p2.commit_transaction(30)
    expected[b"k6"] = b"e6"
    assert latest(drain(b.bootstrap, topic, [0], "read_committed", quiet=2.0)) == expected
