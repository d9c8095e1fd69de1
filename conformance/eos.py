"""An exactly-once pipeline and its checker (issue 16).

The pipeline (`python3 eos.py pipeline SPEC_JSON`, a process of its own so
a test can SIGSTOP or kill it) is the standard consume-transform-produce
loop of confluent-kafka: a consumer in group GROUP reads the input topic
read_committed, and for each poll a transactional producer writes every
record's transform (`out:` + value, same key) to the output topic and
commits the consumed positions with `send_offsets_to_transaction` in the
same transaction. On an abortable error it aborts and rewinds the
consumer to the group's committed offsets; on a fatal one (fenced, or the
producer's epoch bumped by the coordinator after a timeout) it starts a
new producer with the same transactional id and rewinds. It stops once
the committed offsets cover the whole input, or at its deadline. It
prints one JSON line per event on stdout (`{"event": "commit", ...}`) and
a final `{"event": "done", ...}`.

`check()` reads the output read_committed and asserts that every input
record's transform is there exactly once, in per-key order, and nothing
else (no record of an aborted transaction).

Every loop is bounded by a deadline and an iteration count.
With `"client": "tv2"` in the spec the producer speaks transactions v2
(KIP-890) on the raw wire instead (`run_pipeline_v2`).
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def key_of(i, keys):
    return b"k%d" % (i % keys)


def make_input(count, keys):
    """The input records: value `k<key>:<sequence within the key>`."""
    seq = [0] * keys
    out = []
    for i in range(count):
        k = i % keys
        out.append({"key": b"k%d" % k, "value": b"k%d:%d" % (k, seq[k])})
        seq[k] += 1
    return out


def start_pipeline(spec):
    """Starts the pipeline process; returns the Popen (stdout piped)."""
    # Unbuffered: wait_progress reads lines one by one, and a buffered
    # reader would hold lines read ahead that finish()'s communicate()
    # (which reads the pipe itself) never sees, the "done" line included.
    return subprocess.Popen([sys.executable, os.path.join(HERE, "eos.py"), "pipeline",
                             json.dumps(spec)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=HERE, bufsize=0)


def _emit(**kw):
    sys.stdout.write(json.dumps(kw) + "\n")
    sys.stdout.flush()


class _Source:
    """The pipeline's input side, the same for both producers: a
    read_committed consumer in the spec's group, the group's committed
    total, and a rewind to the committed offsets after an abort."""

    def __init__(self, spec):
        from confluent_kafka import Consumer
        self.spec = spec
        self.consumer = Consumer({
            "bootstrap.servers": spec["bootstrap"], "group.id": spec["group"],
            "isolation.level": "read_committed", "enable.auto.commit": False,
            "auto.offset.reset": "earliest", "session.timeout.ms": 10000,
            "heartbeat.interval.ms": 500, "fetch.wait.max.ms": 100,
            "socket.timeout.ms": 5000})
        self.consumer.subscribe([spec["input"]])

    def committed_total(self):
        from confluent_kafka import KafkaException, TopicPartition
        parts = [TopicPartition(self.spec["input"], p) for p in range(self.spec["partitions"])]
        try:
            got = self.consumer.committed(parts, timeout=5)
        except KafkaException:
            return -1
        return sum(max(tp.offset, 0) for tp in got)

    def rewind(self):
        from confluent_kafka import KafkaException
        for _ in range(100):
            try:
                assigned = self.consumer.assignment()
                if not assigned:
                    return
                for tp in self.consumer.committed(assigned, timeout=5):
                    tp.offset = tp.offset if tp.offset >= 0 else -2  # OFFSET_BEGINNING
                    self.consumer.seek(tp)
                return
            except KafkaException as e:
                _emit(event="rewind-failed", error=str(e))
                time.sleep(0.2)


def run_pipeline(spec):
    from confluent_kafka import KafkaException, Producer
    bootstrap, dst = spec["bootstrap"], spec["output"]
    total, deadline = spec["count"], time.monotonic() + spec["timeout_s"]
    pace = spec.get("pace_ms", 0) / 1000.0

    def new_producer():
        for attempt in range(1000):
            if time.monotonic() > deadline:
                raise SystemExit("no producer before the deadline")
            try:
                p = Producer({"bootstrap.servers": bootstrap,
                              "transactional.id": spec["transactional_id"],
                              "transaction.timeout.ms": spec.get("txn_timeout_ms", 10000),
                              "linger.ms": 5,
                              # librdkafka 2.16's re-bootstrap (all brokers
                              # gone, e.g. a one-broker restart) decommissions
                              # the cached group coordinator, and then
                              # send_offsets_to_transaction() hangs for ever,
                              # past its timeout (librdkafka issue #5511).
                              "metadata.recovery.strategy": "none",
                              "socket.timeout.ms": min(5000, spec.get("txn_timeout_ms", 10000)),
                              "message.timeout.ms": spec.get("txn_timeout_ms", 10000),
                              **({"debug": spec["debug"]} if spec.get("debug") else {})})
                p.init_transactions(30)
                _emit(event="producer", attempt=attempt)
                return p
            except KafkaException as e:
                _emit(event="init-failed", error=str(e))
                time.sleep(0.5)
        raise SystemExit("no producer")

    source = _Source(spec)
    consumer, committed_total, rewind = source.consumer, source.committed_total, source.rewind

    producer = new_producer()
    commits = aborts = 0
    for _ in range(1_000_000):
        if time.monotonic() > deadline:
            break
        msgs = [m for m in consumer.consume(num_messages=spec.get("batch", 50), timeout=0.5)
                if not m.error()]
        if not msgs:
            if committed_total() >= total:
                break
            continue
        try:
            producer.begin_transaction()
            for m in msgs:
                producer.produce(dst, key=m.key(), value=b"out:" + m.value())
            if spec.get("hold_at") == commits + 1:
                # A test freezes the process here, inside the transaction.
                producer.flush(30)
                _emit(event="holding", commits=commits)
                time.sleep(spec.get("hold_ms", 1000) / 1000.0)
            positions = consumer.position(consumer.assignment())
            producer.send_offsets_to_transaction(positions, consumer.consumer_group_metadata(),
                                                 30)
            producer.commit_transaction(30)
            commits += 1
            _emit(event="commit", records=len(msgs), commits=commits)
        except KafkaException as e:
            err = e.args[0]
            _emit(event="error", error=str(err), fatal=err.fatal(),
                  abortable=err.txn_requires_abort())
            if err.fatal():
                producer = new_producer()
            else:
                try:
                    producer.abort_transaction(30)
                    aborts += 1
                except KafkaException as e2:
                    _emit(event="abort-failed", error=str(e2))
                    producer = new_producer()
            rewind()
        if pace:
            time.sleep(pace)
    done = committed_total()
    consumer.close()
    _emit(event="done", committed=done, commits=commits, aborts=aborts)
    return 0 if done >= total else 1


def run_pipeline_v2(spec):
    """The same pipeline with a transactions v2 producer
    (txn_v2_client.Tv2Producer on the raw wire, as the Java client 4.x runs
    one): no AddPartitionsToTxn/AddOffsetsToTxn, Produce v12, TxnOffsetCommit
    v5, EndTxn v5 and the epoch it answers. Output partition = input
    partition (the input is partitioned by key, so each key stays in one).
    Any error aborts the transaction (a new producer when the abort fails:
    InitProducerId with the last id and epoch, KIP-360, or a fresh one) and
    rewinds the consumer to the committed offsets."""
    from txn_v2_client import NONE, Tv2Producer
    bootstrap, dst = spec["bootstrap"], spec["output"]
    total, deadline = spec["count"], time.monotonic() + spec["timeout_s"]
    pace = spec.get("pace_ms", 0) / 1000.0

    def new_producer(last=None):
        for attempt in range(1000):
            if time.monotonic() > deadline:
                raise SystemExit("no producer before the deadline")
            p = Tv2Producer(bootstrap, spec["transactional_id"],
                            timeout_ms=spec.get("txn_timeout_ms", 10000), retry_s=10.0)
            if last is not None:
                p.pid, p.epoch = last
            try:
                p.init()
                _emit(event="producer", attempt=attempt)
                return p
            except Exception as e:  # noqa: BLE001 (a broker down: try again)
                p.close()
                last = None
                _emit(event="init-failed", error=repr(e)[:300])
                time.sleep(0.5)
        raise SystemExit("no producer")

    source = _Source(spec)
    consumer, committed_total, rewind = source.consumer, source.committed_total, source.rewind

    producer = new_producer()
    commits = aborts = 0
    for _ in range(1_000_000):
        if time.monotonic() > deadline:
            break
        msgs = [m for m in consumer.consume(num_messages=spec.get("batch", 50), timeout=0.5)
                if not m.error()]
        if not msgs:
            if committed_total() >= total:
                break
            continue
        try:
            by_part = {}
            for m in msgs:
                by_part.setdefault(m.partition(), []).append((m.key(), b"out:" + m.value()))
            for part, recs in sorted(by_part.items()):
                code = producer.send(dst, part, recs)
                if code != NONE:
                    raise RuntimeError("produce to %d: error %d (%s)" % (
                        part, code, producer.last_error))
            positions = consumer.position(consumer.assignment())
            code = producer.send_offsets(spec["group"], {(tp.topic, tp.partition): tp.offset
                                                         for tp in positions if tp.offset >= 0})
            if code != NONE:
                raise RuntimeError("TxnOffsetCommit: error %d" % code)
            code = producer.end(commit=True)[0]
            if code != NONE:
                raise RuntimeError("EndTxn(commit): error %d" % code)
            commits += 1
            _emit(event="commit", records=len(msgs), commits=commits)
        except Exception as e:  # noqa: BLE001 (a broker down or a refusal: abort)
            _emit(event="error", error=repr(e)[:300])
            producer.close()  # dead connections go; the next call reconnects
            try:
                code = producer.end(commit=False)[0]
                if code != NONE:
                    raise RuntimeError("EndTxn(abort): error %d" % code)
                aborts += 1
            except Exception as e2:  # noqa: BLE001
                _emit(event="abort-failed", error=repr(e2)[:300])
                producer.close()
                producer = new_producer((producer.pid, producer.epoch))
            rewind()
        if pace:
            time.sleep(pace)
    done = committed_total()
    consumer.close()
    producer.close()
    _emit(event="done", committed=done, commits=commits, aborts=aborts)
    return 0 if done >= total else 1


def read_output(bootstrap, topic, partitions, expect, timeout=60.0, quiet=3.0):
    """Everything read_committed shows on `topic`: [(partition, key, value)]
    in partition order, once `expect` records came and nothing more for
    `quiet` seconds (or the timeout)."""
    from confluent_kafka import Consumer, OFFSET_BEGINNING, TopicPartition
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "eos-checker",
                  "isolation.level": "read_committed", "enable.auto.commit": False,
                  "fetch.wait.max.ms": 100, "socket.timeout.ms": 5000})
    out = []
    try:
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
        end = time.monotonic() + timeout
        last_new = time.monotonic()
        for _ in range(1_000_000):
            now = time.monotonic()
            if now > end or (len(out) >= expect and now - last_new > quiet):
                break
            for m in c.consume(num_messages=1000, timeout=0.2):
                if not m.error():
                    out.append((m.partition(), m.offset(), m.key(), m.value()))
                    last_new = time.monotonic()
    finally:
        c.close()
    return out


def check(bootstrap, output, partitions, inputs):
    """Exactly once, in key order, nothing aborted: raises AssertionError
    with the first differences."""
    got = read_output(bootstrap, output, partitions, len(inputs))
    want = {b"out:" + m["value"] for m in inputs}
    values = [v for (_, _, _, v) in got]
    seen, dups = set(), []
    for v in values:
        if v in seen:
            dups.append(v)
        seen.add(v)
    missing = sorted(want - seen)
    extra = sorted(seen - want)
    assert not dups, "%d duplicates in the read_committed output, e.g. %s" % (len(dups), dups[:5])
    assert not missing, "%d input records missing from the output, e.g. %s" % (
        len(missing), missing[:5])
    assert not extra, "%d unexpected records, e.g. %s" % (len(extra), extra[:5])
    # Per key: sequences in increasing order along each partition.
    last = {}
    for (p, off, k, v) in sorted(got, key=lambda r: (r[0], r[1])):
        key, seq = v[len(b"out:"):].split(b":")
        seq = int(seq)
        assert seq > last.get(key, -1), "key %s out of order at %d/%d" % (key, p, off)
        last[key] = seq
    return len(got)


def wait_progress(proc, commits, timeout=60.0, event="commit"):
    """Reads the pipeline's events until it reported `commits` commits (or,
    with `event`, the first such event), or until it reported that it is
    done; returns the events read."""
    events = []
    end = time.monotonic() + timeout
    for _ in range(1_000_000):
        if time.monotonic() > end:
            raise AssertionError("pipeline made %d commits of %d within %ss: %s" % (
                sum(1 for e in events if e.get("event") == "commit"), commits, timeout,
                events[-5:]))
        line = proc.stdout.readline()
        if not line:
            raise AssertionError("pipeline ended early: %s / %s" % (
                events[-5:], proc.stderr.read()[-2000:]))
        e = json.loads(line)
        events.append(e)
        if e.get("event") == event and (event != "commit" or e.get("commits", 0) >= commits):
            return events
        if e.get("event") == "done":
            return events
    return events


def finish(proc, timeout=120.0, earlier=()):
    """Waits for the pipeline to end; returns its events (stopping it by PID
    if it overruns). `earlier`: the events wait_progress already read."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError("pipeline still running after %ss: %s" % (timeout, err[-2000:]))
    events = [json.loads(x) for x in out.decode().splitlines() if x.startswith("{")]
    done = [e for e in list(earlier) + events if e.get("event") == "done"]
    assert done, "pipeline printed no result (rc %s): stdout %s stderr %s" % (
        proc.returncode, out[-1500:], err[-1500:])
    return events


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "pipeline":
        spec = json.loads(sys.argv[2])
        sys.exit((run_pipeline_v2 if spec.get("client") == "tv2" else run_pipeline)(spec))
    sys.exit("usage: eos.py pipeline SPEC_JSON")
