"""The exactly-once checker (issue 16): a consume-transform-produce pipeline
(eos.py, confluent-kafka's transactional producer and a read_committed
consumer group, offsets committed inside each transaction) runs while a
fault hits, then eos.check() asserts every input record's transform is in
the read_committed output exactly once, in key order, and nothing of an
aborted transaction is visible.

Scenarios: one broker restarted mid-run (SIGTERM and kill -9); on three
brokers: kill -9 of the transaction coordinator, kill -9 of the leader of
an output partition, SIGSTOP of the pipeline past its transaction timeout,
and every broker restarted at once; and a transactions v2 pipeline
(KIP-890, eos.run_pipeline_v2) through kills of its coordinator and of an
output leader. Each prints a summary line (commits,
aborts, producer restarts). A randomized soak over many seeds is
`python3 eos_soak.py` (outside CI)."""

import os
import signal
import time

import pytest

import clients
import cluster
import eos
import harness
import rawkafka

PARTITIONS = 4
KEYS = 16
COUNT = 1200
BATCH = 30

BROKER_SETTINGS = {
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": "500",
    "transaction.state.log.num.partitions": "3",
    "offsets.topic.num.partitions": "3",
    "group.initial.rebalance.delay.ms": "100",
}

needs_cluster = pytest.mark.skipif(
    not cluster.binary_has_cluster_mode(),
    reason="%s --help does not list --seeds (no cluster mode)" % harness.broker_binary())


def _spec(bootstrap, name, **kw):
    spec = {"bootstrap": bootstrap, "input": "in-" + name, "output": "out-" + name,
            "group": "g-" + name, "transactional_id": "tx-" + name, "count": COUNT,
            "partitions": PARTITIONS, "batch": BATCH, "timeout_s": 150, "pace_ms": 50,
            "txn_timeout_ms": 10000}
    spec.update(kw)
    return spec


def _summary(name, events):
    counts = {}
    for e in events:
        counts[e.get("event")] = counts.get(e.get("event"), 0) + 1
    line = "eos %s: %s" % (name, counts)
    print(line)
    report = os.environ.get("TIDEMARK_CLUSTER_REPORT")
    if report:
        with open(report, "a") as f:
            f.write(line + "\n")


def _prepare(create_topic, bootstrap, spec):
    create_topic(spec["input"])
    create_topic(spec["output"])
    inputs = eos.make_input(COUNT, KEYS)
    clients.confluent_produce(bootstrap, spec["input"], inputs, conf={"enable.idempotence": True})
    return inputs


@pytest.mark.parametrize("how", ["term", "kill9"])
def test_single_broker_restart_mid_pipeline(fresh_broker, how):
    b = fresh_broker
    name = harness.unique_topic("eos1-" + how)
    spec = _spec(b.bootstrap, name)
    inputs = _prepare(lambda t: rawkafka.ensure_topic(b.bootstrap, t, PARTITIONS),
                      b.bootstrap, spec)
    proc = eos.start_pipeline(spec)
    try:
        before = eos.wait_progress(proc, 8)
        b.restart(how=how)
        events = before + eos.finish(proc, earlier=before)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _summary(name, events)
    assert eos.check(b.bootstrap, spec["output"], PARTITIONS, inputs) == COUNT


# ---------------------------------------------------------------- three brokers

CLUSTER_SETTINGS = dict(BROKER_SETTINGS)


@pytest.fixture
def cluster3(request):
    c = cluster.Cluster(3, settings=CLUSTER_SETTINGS, name=request.node.name)
    try:
        c.start()
    except BaseException:
        c.close(keep_data=True)
        raise
    yield c
    c.close()


def _cluster_run(c, scenario, fault, **spec_kw):
    name = harness.unique_topic("eos-" + scenario)
    spec = _spec(c.bootstrap, name, **spec_kw)
    inputs = _prepare(lambda t: c.create_topic(t, PARTITIONS, full_isr=True), c.bootstrap, spec)
    proc = eos.start_pipeline(spec)
    try:
        before = eos.wait_progress(proc, 8, event="holding" if "hold_at" in spec else "commit")
        fault(spec, proc)
        events = before + eos.finish(proc, timeout=150, earlier=before)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _summary(scenario, events)
    assert eos.check(c.bootstrap, spec["output"], PARTITIONS, inputs) == COUNT
    return events


@needs_cluster
def test_kill9_transaction_coordinator(cluster3):
    c = cluster3

    def fault(spec, proc):
        coord = c.coordinator_of(spec["transactional_id"], key_type=1)
        c.kill9(coord)
        time.sleep(3)
        c.start_node(coord)

    _cluster_run(c, "kill-coordinator", fault)


@needs_cluster
def test_transactions_v2_pipeline_survives_its_coordinator_and_a_leader_killed(cluster3):
    """The same pipeline with a transactions v2 producer (KIP-890, on the
    raw wire as the Java client 4.x: partitions added by Produce v12 and
    TxnOffsetCommit v5, every EndTxn v5 bumping the epoch): kill -9 of its
    transaction coordinator, then of an output partition's leader."""
    c = cluster3

    def fault(spec, proc):
        coord = c.coordinator_of(spec["transactional_id"], key_type=1)
        c.kill9(coord)
        time.sleep(3)
        c.start_node(coord)
        eos.wait_progress(proc, 14, timeout=90)
        leader = c.leader_of(spec["output"], 1)
        c.kill9(leader)
        time.sleep(3)
        c.start_node(leader)

    _cluster_run(c, "tv2-kills", fault, client="tv2")


@needs_cluster
def test_kill9_output_partition_leader(cluster3):
    c = cluster3

    def fault(spec, proc):
        leader = c.leader_of(spec["output"], 0)
        c.kill9(leader)
        time.sleep(3)
        c.start_node(leader)

    _cluster_run(c, "kill-output-leader", fault)


@needs_cluster
def test_sigstop_pipeline_past_its_transaction_timeout(cluster3):
    c = cluster3

    def fault(spec, proc):
        # Frozen inside its ninth transaction (records written, not
        # committed): the coordinator aborts it after its 3 s timeout and
        # fences the producer's epoch.
        os.kill(proc.pid, signal.SIGSTOP)
        try:
            time.sleep(6)
        finally:
            os.kill(proc.pid, signal.SIGCONT)

    events = _cluster_run(c, "sigstop-pipeline", fault, txn_timeout_ms=3000, hold_at=9,
                          hold_ms=500)
    assert any(e.get("event") == "error" for e in events), \
        "the stopped pipeline's transaction was not aborted by the coordinator"


@needs_cluster
def test_restart_every_broker_at_once(cluster3):
    c = cluster3

    def fault(spec, proc):
        c.restart_all(how="kill9")

    _cluster_run(c, "restart-all", fault)
