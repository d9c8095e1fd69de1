"""A transactional producer on the raw wire that speaks transactions v2
(KIP-890) as the Java client 4.x does when the broker finalizes
`transaction.version` 2: no AddPartitionsToTxn or AddOffsetsToTxn,
Produce v12, TxnOffsetCommit v5, EndTxn v5 and the epoch from its answer
(sequences restart at 0 under it). With `v1=True` it drives the same
transactions as a transactions v1 client (AddPartitionsToTxn v3, Produce
v11, EndTxn v4), for comparisons within one run.

No client that speaks transactions v2 installs from the registries this
project reaches (librdkafka, kafka-python, kafkajs, aiokafka and
@platformatic/kafka speak v1; the Java client and franz-go do not install
here); test_transactions_v2.py and benches/load/txnv2bench.py use this.
"""

import time

import rawkafka

API_PRODUCE = 0
API_FIND_COORDINATOR = 10
API_ADD_PARTITIONS_TO_TXN = 24
API_INIT_PRODUCER_ID = 22
API_END_TXN = 26
API_TXN_OFFSET_COMMIT = 28
API_DESCRIBE_TRANSACTIONS = 65

NONE = 0
NOT_COORDINATOR = 16
COORDINATOR_LOAD_IN_PROGRESS = 14
COORDINATOR_NOT_AVAILABLE = 15
NOT_ENOUGH_REPLICAS = 19
INVALID_PRODUCER_EPOCH = 47
INVALID_TXN_STATE = 48
CONCURRENT_TRANSACTIONS = 51
PRODUCER_FENCED = 90
RETRIABLE = {NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
             NOT_ENOUGH_REPLICAS, CONCURRENT_TRANSACTIONS, 6}  # 6: NOT_LEADER_OR_FOLLOWER


class Tv2Producer:
    """A transactional producer on the wire, as the Java client 4.x runs
    one when the broker finalizes `transaction.version` 2. Every call is
    bounded: retriable errors are retried for at most `retry_s` seconds."""

    def __init__(self, bootstrap, transactional_id, timeout_ms=60000, retry_s=20.0, v1=False):
        self.v1 = v1
        self.in_txn = set()  # v1: the partitions added to the transaction
        self.bootstrap = bootstrap.split(",")
        self.tid = transactional_id
        self.timeout_ms = timeout_ms
        self.retry_s = retry_s
        self.conns = {}
        self.pid, self.epoch = -1, -1
        self.seqs = {}
        self.last_error = None  # the last Produce answer's error message

    def close(self):
        for c in self.conns.values():
            c.close()
        self.conns.clear()

    def _conn(self, addr):
        if addr not in self.conns:
            c = rawkafka.KafkaConn(addr)
            c.api_versions()
            self.conns[addr] = c
        return self.conns[addr]

    def _retry(self, call):
        """call() -> (error code, result); retried while retriable."""
        deadline = time.monotonic() + self.retry_s
        while True:
            code, result = call()
            if code not in RETRIABLE or time.monotonic() > deadline:
                return code, result
            # A dead connection after a coordinator move: open anew.
            time.sleep(0.05)

    def _nodes(self):
        meta = self._conn(self.bootstrap[0]).metadata([])
        return {b["NodeId"]: "%s:%d" % (b["Host"], b["Port"]) for b in meta["Brokers"]}

    def coordinator(self, key, key_type):
        def ask():
            r = self._conn(self.bootstrap[0]).request(API_FIND_COORDINATOR, 4, {
                "KeyType": key_type, "CoordinatorKeys": [key]})
            c = r["Coordinators"][0]
            return c["ErrorCode"], "%s:%d" % (c["Host"], c["Port"])
        code, addr = self._retry(ask)
        assert code == NONE, "FindCoordinator(%s): %d" % (key, code)
        return addr

    def leader(self, topic, partition):
        deadline = time.monotonic() + self.retry_s
        while True:
            meta = self._conn(self.bootstrap[0]).metadata([topic])
            nodes = {b["NodeId"]: "%s:%d" % (b["Host"], b["Port"]) for b in meta["Brokers"]}
            parts = {p["PartitionIndex"]: p for p in meta["Topics"][0]["Partitions"] or []}
            leader = parts.get(partition, {}).get("LeaderId", -1)
            if leader in nodes:
                return nodes[leader]
            assert time.monotonic() < deadline, "no leader for %s-%d" % (topic, partition)
            time.sleep(0.1)

    def init(self):
        def call():
            r = self._conn(self.coordinator(self.tid, 1)).request(API_INIT_PRODUCER_ID, 5, {
                "TransactionalId": self.tid, "TransactionTimeoutMs": self.timeout_ms,
                "ProducerId": self.pid, "ProducerEpoch": self.epoch})
            return r["ErrorCode"], r
        code, r = self._retry(call)
        assert code == NONE, r
        self._became(r["ProducerId"], r["ProducerEpoch"])

    def _became(self, pid, epoch):
        if (pid, epoch) != (self.pid, self.epoch):
            self.seqs.clear()
        self.pid, self.epoch = pid, epoch
        self.in_txn.clear()

    def _add_partition(self, topic, partition):
        """v1: AddPartitionsToTxn v3 before the first batch."""
        def call():
            r = self._conn(self.coordinator(self.tid, 1)).request(API_ADD_PARTITIONS_TO_TXN, 3, {
                "V3AndBelowTransactionalId": self.tid, "V3AndBelowProducerId": self.pid,
                "V3AndBelowProducerEpoch": self.epoch,
                "V3AndBelowTopics": [{"Name": topic, "Partitions": [partition]}]})
            code = r["ResultsByTopicV3AndBelow"][0]["ResultsByPartition"][0]["PartitionErrorCode"]
            return code, r
        code, _ = self._retry(call)
        if code == NONE:
            self.in_txn.add((topic, partition))
        return code

    def send(self, topic, partition, vals, epoch=None):
        """Produce v12 of `vals` (values, or (key, value) pairs),
        transactional, with no AddPartitionsToTxn first (v1:
        AddPartitionsToTxn, then Produce v11). Returns the partition's
        error code."""
        epoch = self.epoch if epoch is None else epoch
        if self.v1 and (topic, partition) not in self.in_txn:
            code = self._add_partition(topic, partition)
            if code != NONE:
                return code
        seq = self.seqs.get((topic, partition), 0)
        recs = [v if isinstance(v, tuple) else (None, v) for v in vals]
        blob = rawkafka.build_batch(recs, producer_id=self.pid,
                                    producer_epoch=epoch, base_sequence=seq,
                                    transactional=True)

        def call():
            pr, _ = self._conn(self.leader(topic, partition)).produce(
                topic, partition, blob, transactional_id=self.tid,
                version=11 if self.v1 else 12)
            return pr["ErrorCode"], pr
        code, pr = self._retry(call)
        self.last_error = (pr or {}).get("ErrorMessage")
        if code == NONE and epoch == self.epoch:
            self.seqs[(topic, partition)] = seq + len(vals)
        return code

    def send_offsets(self, group, offsets):
        """TxnOffsetCommit v5 to the group's coordinator, with no
        AddOffsetsToTxn first. offsets: {(topic, partition): offset}."""
        topics = {}
        for (t, p), o in offsets.items():
            topics.setdefault(t, []).append({"PartitionIndex": p, "CommittedOffset": o,
                                             "CommittedLeaderEpoch": -1,
                                             "CommittedMetadata": ""})

        def call():
            r = self._conn(self.coordinator(group, 0)).request(API_TXN_OFFSET_COMMIT, 5, {
                "TransactionalId": self.tid, "GroupId": group, "ProducerId": self.pid,
                "ProducerEpoch": self.epoch, "GenerationId": -1, "MemberId": "",
                "GroupInstanceId": None,
                "Topics": [{"Name": t, "Partitions": ps} for t, ps in topics.items()]})
            codes = {p["ErrorCode"] for t in r["Topics"] for p in t["Partitions"]}
            assert len(codes) == 1, r
            return codes.pop(), r
        code, _ = self._retry(call)
        return code

    def end(self, commit, epoch=None, adopt=True):
        """EndTxn v5 (v1: v4). Returns (error code, producer id, epoch) as
        answered (v1: the ones it holds); with `adopt`, a success moves the
        producer to the answered id and epoch, as the Java client does."""
        epoch = self.epoch if epoch is None else epoch

        def call():
            r = self._conn(self.coordinator(self.tid, 1)).request(
                API_END_TXN, 4 if self.v1 else 5, {
                "TransactionalId": self.tid, "ProducerId": self.pid, "ProducerEpoch": epoch,
                "Committed": commit})
            return r["ErrorCode"], r
        code, r = self._retry(call)
        if self.v1:
            self.in_txn.clear()
            return code, self.pid, self.epoch
        if code == NONE and adopt:
            self._became(r["ProducerId"], r["ProducerEpoch"])
        return code, r["ProducerId"], r["ProducerEpoch"]

    def describe(self):
        r = self._conn(self.coordinator(self.tid, 1)).request(API_DESCRIBE_TRANSACTIONS, 0, {
            "TransactionalIds": [self.tid]})
        s = r["TransactionStates"][0]
        assert s["ErrorCode"] == NONE, s
        parts = {(t["Topic"], p) for t in s["Topics"] or [] for p in t["Partitions"]}
        return s["TransactionState"], s["ProducerEpoch"], parts
