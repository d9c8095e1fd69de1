"""A work-queue checker for share groups (KIP-932) under faults.

A producer (confluent-kafka, acks=all, idempotent, in a thread of the test
process) writes COUNT records with unique ids (value `wq:<id>`, key
`<id>`) to a topic with a few partitions; K share consumers
(`python3 workqueue.py consumer SPEC_JSON`, each a process of its own so
that one can be killed with SIGKILL) run in explicit acknowledgement mode:
poll, note every record given (`got`), accept it (or reject it when its
id is "poison": id % 97 == 13, only when a dead-letter topic is
configured), `commit_sync`, and then log the outcome per record in their
own log file (line buffered, so a SIGKILL loses nothing written):

    got <id> <partition> <offset> <time> <delivery count>
    accepted <id> <partition> <offset> <time> <delivery count>
    rejected <id> <partition> <offset> <time> <delivery count>
    unsure <id> <partition> <offset> <time> <delivery count> <error>

`accepted` / `rejected` are written only when commit_sync reported success
(None) for that record's partition; `unsure` when it reported an error or
raised (the acknowledgement may or may not have been applied).

The dead-letter topic is read with a normal consumer; each record is
mapped back to its id through its `__dlq.errors.partition` /
`__dlq.errors.offset` headers and the producer's delivery reports.

check() asserts:
- lost: every acknowledged id ends accepted (logged) or dead-lettered;
  an id whose only outcome was `unsure` is reported as ambiguous, not
  lost (the broker may have applied an acknowledgement whose answer was
  lost), and counted;
- dup-accepted: no id is logged accepted twice (a record redelivered
  after its acceptance was answered);
- redelivered-after-accept: no consumer was given an id after another
  logged its acceptance;
- accepted-and-dlq: no id both accepted and dead-lettered;
- dlq-dup: no id is in the dead-letter topic twice, at two offsets (a crash between the
  dead-letter write and the archive must not write it again);
- rejected-not-dlq: every id whose rejection was answered is in the
  dead-letter topic;
- killed-inflight-lost: the records a killed consumer had been given but
  not acknowledged came back and were accepted (or dead-lettered) by
  another consumer.
Delivery counts seen and DLQ reasons are reported, not asserted.

Faults (Run.fault(kind)): "kill-consumer" (SIGKILL one consumer, start a
replacement), "kill-share-leader" (kill -9 the leader of one of the
topic's partitions, i.e. that share-partition's leader, then start it),
"kill-state-leader" (kill -9 the leader of the `__share_group_state`
partition holding the state of the group's share-partition 0, computed
as Kafka does: Java hashCode of `group:topicId:partition` modulo the
partition count), "restart-all" (SIGTERM every broker one after another,
then start them all), "rolling-restart" (SIGTERM and start each broker in
turn), "kill9-broker" (single node: kill -9 and restart).

Every loop is bounded by a deadline and an iteration count; consumers are
stopped by PID."""

import base64
import collections
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

API_INCREMENTAL_ALTER = 44
GROUP_RESOURCE = 32
STATE_TOPIC = "__share_group_state"
POISON_MOD, POISON_REM = 97, 13


def is_poison(i):
    return i % POISON_MOD == POISON_REM


def value_of(i):
    return b"wq:%d" % i


def id_of(value):
    try:
        if value is not None and value.startswith(b"wq:"):
            return int(value[3:])
    except ValueError:
        pass
    return None


# ------------------------------------------------------------------ consumer process

def run_consumer(spec):
    from confluent_kafka import AcknowledgeType, KafkaException, ShareConsumer, TopicPartition
    deadline = time.monotonic() + spec["timeout_s"]
    poison = spec.get("poison", False)
    pace = spec.get("pace_ms", 0) / 1000.0
    conf = {"bootstrap.servers": spec["bootstrap"], "group.id": spec["group"],
            "share.acknowledgement.mode": "explicit", "socket.timeout.ms": 5000,
            "client.id": "wq-%s" % spec["name"]}
    conf.update(spec.get("conf") or {})
    c = ShareConsumer(conf)
    c.subscribe([spec["topic"]])
    log = open(spec["log"], "a", buffering=1)
    polls = batches = errors = 0
    for _ in range(10_000_000):
        if time.monotonic() > deadline or os.path.exists(spec["stop_file"]):
            break
        try:
            msgs = c.poll(0.5)
        except KafkaException as e:
            errors += 1
            log.write("error poll %s\n" % str(e).replace("\n", " ")[:300])
            time.sleep(0.2)
            continue
        polls += 1
        batch = []
        for m in msgs:
            if m.error():
                errors += 1
                log.write("error msg %s\n" % str(m.error()).replace("\n", " ")[:300])
                continue
            batch.append(m)
        if not batch:
            continue
        batches += 1
        now = time.time()
        ids = []
        for m in batch:
            i = id_of(m.value())
            ids.append(i)
            log.write("got %s %d %d %.6f %d\n" % (i, m.partition(), m.offset(), now,
                                                 m.delivery_count()))
        if pace:
            time.sleep(pace)  # "processing": the records stay acquired meanwhile
        kinds = []
        for m, i in zip(batch, ids):
            rej = poison and i is not None and is_poison(i)
            kinds.append("rejected" if rej else "accepted")
            c.acknowledge(m, AcknowledgeType.REJECT if rej else AcknowledgeType.ACCEPT)
        try:
            res = c.commit_sync(spec.get("commit_timeout_s", 10))
            raised = None
        except KafkaException as e:
            res, raised = {}, str(e)
        t = time.time()
        for m, i, kind in zip(batch, ids, kinds):
            r = res.get(TopicPartition(m.topic(), m.partition()), "not in commit_sync's answer")
            if raised is None and r is None:
                log.write("%s %s %d %d %.6f %d\n" % (kind, i, m.partition(), m.offset(), t,
                                                     m.delivery_count()))
            else:
                why = raised or str(r)
                log.write("unsure %s %d %d %.6f %d %s-%s\n" % (
                    i, m.partition(), m.offset(), t, m.delivery_count(), kind,
                    why.replace("\n", " ").replace(" ", "_")[:200]))
    log.write("stopped polls=%d batches=%d errors=%d\n" % (polls, batches, errors))
    log.close()
    try:
        c.close()
    except Exception as e:  # noqa: BLE001 - reported, the process ends anyway
        print("close: %s" % e, file=sys.stderr)
    return 0


# ------------------------------------------------------------------ helpers

def java_hash(s):
    h = 0
    for ch in s.encode("utf-16-be").decode("utf-16-be"):
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= (1 << 31) else h


def state_partition(group, topic_id, partition, partitions):
    """The __share_group_state partition of (group, topic id, partition),
    as Kafka's ShareCoordinatorService.partitionFor computes it."""
    key = "%s:%s:%d" % (group, base64.urlsafe_b64encode(topic_id).rstrip(b"=").decode(),
                        partition)
    h = java_hash(key)
    return (0 if h == -(1 << 31) else abs(h)) % max(1, partitions)


def parse_log(path):
    """[(kind, id, partition, offset, time, dc, extra)] of one consumer log."""
    out = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    for line in lines:
        parts = line.split(" ")
        if parts[0] not in ("got", "accepted", "rejected", "unsure") or len(parts) < 6:
            continue
        if parts[1] == "None":
            out.append((parts[0], None, int(parts[2]), int(parts[3]), float(parts[4]),
                        int(parts[5]), ""))
            continue
        try:
            out.append((parts[0], int(parts[1]), int(parts[2]), int(parts[3]), float(parts[4]),
                        int(parts[5]), " ".join(parts[6:])))
        except ValueError:
            pass  # a line cut by SIGKILL mid-write
    return out


def report(line):
    print(line, flush=True)
    path = os.environ.get("TIDEMARK_CLUSTER_REPORT")
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


# ------------------------------------------------------------------ producer

class Producer:
    """COUNT records, ids 0..COUNT-1, keyed by id, paced over `seconds`,
    in a background thread; every delivery report recorded."""

    def __init__(self, bootstrap, topic, count, seconds=5.0, max_seconds=120.0):
        self.bootstrap, self.topic, self.count = bootstrap, topic, count
        self.seconds, self.max_seconds = seconds, max_seconds
        self.acked = {}  # id -> (partition, offset)
        self.failed = collections.Counter()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.error = None

    def start(self):
        self.thread.start()
        return self

    def _run(self):
        try:
            from confluent_kafka import Producer as P
            p = P({"bootstrap.servers": self.bootstrap, "acks": "all",
                   "enable.idempotence": True, "linger.ms": 5, "message.timeout.ms": 60000,
                   "socket.timeout.ms": 10000})

            def cb(err, msg):
                i = id_of(msg.value())
                if err is not None:
                    self.failed[err.name()] += 1
                else:
                    self.acked[i] = (msg.partition(), msg.offset())

            start = time.monotonic()
            chunk = max(1, self.count // max(1, int(self.seconds * 10)))
            for i in range(self.count):
                for _ in range(1000):
                    try:
                        p.produce(self.topic, key=b"%d" % i, value=value_of(i), on_delivery=cb)
                        break
                    except BufferError:
                        p.poll(0.1)
                if i % chunk == chunk - 1:
                    ahead = start + self.seconds * (i + 1) / self.count - time.monotonic()
                    if ahead > 0:
                        time.sleep(ahead)
                    p.poll(0)
                if time.monotonic() - start > self.max_seconds:
                    break
            p.flush(max(1.0, self.max_seconds - (time.monotonic() - start)))
        except Exception as e:  # noqa: BLE001 - surfaced by join()
            self.error = repr(e)

    def join(self, timeout):
        self.thread.join(timeout)
        if self.thread.is_alive():
            raise AssertionError("producer still running after %ss" % timeout)
        if self.error:
            raise AssertionError("producer failed: %s" % self.error)

    @property
    def done(self):
        return not self.thread.is_alive()


class DlqReader:
    """Reads the dead-letter topic from the beginning (poll() as often as
    wanted); records (id, reason, delivery count, partition, offset).

    kafka-python, not librdkafka: this reader lives through every fault of
    a run, and librdkafka 2.x can deadlock when a broker leaves its
    metadata while an OffsetForLeaderEpoch is in flight (a lock-order
    inversion, confluentinc/librdkafka#5476), which hung a run in close()
    for good. The consumers under test stay on librdkafka."""

    def __init__(self, bootstrap, topic):
        from kafka import KafkaConsumer, TopicPartition
        self.c = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None,
                               enable_auto_commit=False, fetch_max_wait_ms=100,
                               request_timeout_ms=10000, metadata_max_age_ms=1000,
                               reconnect_backoff_max_ms=500)
        tp = TopicPartition(topic, 0)
        self.c.assign([tp])
        self.c.seek_to_beginning(tp)
        self.records = []  # dicts, one per dead-letter offset
        # A client may hand a record out again after a leader change (it
        # fetches from an earlier position): one dead letter is one offset.
        self.offsets = set()

    def poll(self, seconds=0.2):
        end = time.monotonic() + seconds
        for _ in range(1000):
            for msgs in self.c.poll(timeout_ms=100, max_records=500).values():
                for m in msgs:
                    if m.offset in self.offsets:
                        continue
                    self.offsets.add(m.offset)
                    h = {k: (v.decode("utf-8", "replace") if v is not None else None)
                         for k, v in (m.headers or [])}
                    self.records.append({"headers": h, "value_id": id_of(m.value),
                                         "dlq_offset": m.offset})
            if time.monotonic() > end:
                break

    def close(self):
        self.c.close()


# ------------------------------------------------------------------ one run

class Run:
    """A work-queue run on a cluster.Cluster (or Cluster(1, single_node=True)).

    start() creates the topics, sets the group configs, starts the producer
    and the consumers; wait_accepted(n) waits for progress; fault(kind)
    injects one fault; finish() waits until every produced id is accounted
    for (or the deadline), stops the consumers, reads the dead-letter topic
    and returns the Result; Result.assert_ok() raises with the broker logs."""

    def __init__(self, c, name, count=2000, partitions=3, consumers=3, poison=True,
                 lock_ms=3000, delivery_limit=5, pace_ms=100, produce_s=6.0, timeout_s=150,
                 seed=0, workdir=None, warm_up=True):
        self.c, self.name, self.count, self.partitions = c, name, count, partitions
        self.n_consumers, self.poison, self.lock_ms = consumers, poison, lock_ms
        self.delivery_limit, self.pace_ms, self.produce_s = delivery_limit, pace_ms, produce_s
        self.timeout_s = timeout_s
        self.rng = random.Random(seed)
        self.topic = "wq-" + name
        self.dlq = "dlq.wq-" + name if poison else None
        self.group = "g-wq-" + name
        self.workdir = workdir or tempfile.mkdtemp(prefix="wq-%s-" % name[:40])
        self.stop_file = os.path.join(self.workdir, "STOP")
        self.procs = {}  # consumer name -> Popen
        self.killed = []  # (consumer name, time)
        self.faults = []  # (kind, detail, time)
        self.deadline = time.monotonic() + timeout_s
        self.producer = None
        self.dlq_reader = None
        self._seq = 0
        self.warm_up = warm_up
        self.warm_up_s = None

    # -- setup
    def _set_group_configs(self, configs, timeout=30.0):
        import rawkafka
        last = None
        end = time.monotonic() + timeout
        for _ in range(int(timeout / 0.3) + 2):
            conn = self.c._conn()
            if conn is not None:
                try:
                    with conn:
                        r = conn.request(API_INCREMENTAL_ALTER, 1, {
                            "Resources": [{"ResourceType": GROUP_RESOURCE,
                                           "ResourceName": self.group, "Configs": [
                                               {"Name": k, "ConfigOperation": 0, "Value": str(v)}
                                               for k, v in configs.items()]}],
                            "ValidateOnly": False})
                    last = r["Responses"][0]
                    if last["ErrorCode"] == 0:
                        return
                except (OSError, rawkafka.ConnectionClosed, ValueError) as e:
                    last = repr(e)
            if time.monotonic() > end:
                break
            time.sleep(0.3)
        raise AssertionError("IncrementalAlterConfigs on group %s: %s" % (self.group, last))

    def start(self):
        self.c.create_topic(self.topic, self.partitions, full_isr=not self.c.single_node)
        configs = {"share.auto.offset.reset": "earliest",
                   "share.record.lock.duration.ms": self.lock_ms,
                   "share.delivery.count.limit": self.delivery_limit}
        if self.dlq:
            self.c.create_topic(self.dlq, 1, full_isr=not self.c.single_node)
            configs["errors.deadletterqueue.topic.name"] = self.dlq
            configs["errors.deadletterqueue.copy.record.enable"] = "true"
        self._set_group_configs(configs)
        if self.warm_up:
            self.warm_up_s = self._warm_up()
        self.producer = Producer(self.c.bootstrap, self.topic, self.count,
                                 seconds=self.produce_s).start()
        for _ in range(self.n_consumers):
            self.start_consumer()
        if self.dlq:
            self.dlq_reader = DlqReader(self.c.bootstrap, self.dlq)
        return self

    def _warm_up(self, timeout=30.0):
        """Works around a broker bug (see the report): on a cluster, right
        after __share_group_state is created on first use, ShareFetch
        answers COORDINATOR_NOT_AVAILABLE for as long as the client polls
        at an ordinary pace; a client polling in a tight loop gets through
        after a few seconds. One marker record (`warmup:<p>`, no id) per
        partition, accepted by a tight-polling share consumer here, before
        the real consumers start. Returns the seconds it took."""
        from confluent_kafka import AcknowledgeType, KafkaException, ShareConsumer
        from confluent_kafka import Producer as P
        p = P({"bootstrap.servers": self.c.bootstrap, "acks": "all"})
        for part in range(self.partitions):
            p.produce(self.topic, value=b"warmup:%d" % part, partition=part)
        assert p.flush(20) == 0, "warm-up records not acknowledged"
        sc = ShareConsumer({"bootstrap.servers": self.c.bootstrap, "group.id": self.group,
                            "share.acknowledgement.mode": "explicit"})
        sc.subscribe([self.topic])
        seen = set()
        t0 = time.monotonic()
        try:
            for _ in range(1_000_000):
                if len(seen) >= self.partitions or time.monotonic() - t0 > timeout:
                    break
                try:
                    msgs = sc.poll(0.1)
                except KafkaException:
                    continue  # tight: the bug needs it
                for m in msgs:
                    if not m.error():
                        seen.add(m.partition())
                        sc.acknowledge(m, AcknowledgeType.ACCEPT)
                if msgs:
                    sc.commit_sync(10)
        finally:
            sc.close()
        took = time.monotonic() - t0
        assert len(seen) >= self.partitions, (
            "warm-up: share consumer got records of partitions %s only in %.0fs"
            % (sorted(seen), took))
        return took

    def start_consumer(self):
        self._seq += 1
        name = "c%d" % self._seq
        spec = {"bootstrap": self.c.bootstrap, "group": self.group, "topic": self.topic,
                "name": name, "log": os.path.join(self.workdir, name + ".log"),
                "stop_file": self.stop_file, "poison": bool(self.dlq),
                "pace_ms": self.pace_ms, "timeout_s": max(10, self.deadline - time.monotonic())}
        # WQ_RDKAFKA_DEBUG=cgrp,fetch: librdkafka's debug contexts, into cN.out.
        if os.environ.get("WQ_RDKAFKA_DEBUG"):
            spec["conf"] = {"debug": os.environ["WQ_RDKAFKA_DEBUG"]}
        out = open(os.path.join(self.workdir, name + ".out"), "wb")
        self.procs[name] = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "workqueue.py"), "consumer", json.dumps(spec)],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=HERE)
        out.close()
        return name

    # -- progress
    def logs(self):
        """{consumer name: parsed log}."""
        return {n: parse_log(os.path.join(self.workdir, n + ".log")) for n in self.procs}

    def outcome_ids(self, logs=None):
        done = set()
        for entries in (logs or self.logs()).values():
            for kind, i, *_ in entries:
                if kind in ("accepted", "rejected"):
                    done.add(i)
        return done

    def wait_accepted(self, n, timeout=60.0):
        end = time.monotonic() + timeout
        got = 0
        for _ in range(int(timeout / 0.2) + 2):
            got = len(self.outcome_ids())
            if got >= n:
                return got
            self._check_consumers()
            if time.monotonic() > end:
                break
            time.sleep(0.2)
        raise AssertionError("only %d of %d records acknowledged within %ss\n%s"
                             % (got, n, timeout, self._consumer_tails()))

    def _check_consumers(self):
        for n, p in self.procs.items():
            if p.poll() is not None and n not in dict(self.killed) and \
                    not os.path.exists(self.stop_file):
                raise AssertionError("consumer %s exited with %s\n%s"
                                     % (n, p.returncode, self._consumer_tails()))

    def _consumer_tails(self, lines=15):
        out = []
        for n in self.procs:
            for suffix in (".out", ".log"):
                path = os.path.join(self.workdir, n + suffix)
                try:
                    with open(path, "rb") as f:
                        tail = f.read().decode("utf-8", "replace").splitlines()[-lines:]
                except OSError:
                    tail = []
                out.append("--- %s%s ---\n%s" % (n, suffix, "\n".join(tail)))
        return "\n".join(out)

    # -- faults
    def _event(self, kind, detail):
        t = time.time()
        self.faults.append((kind, detail, t))
        return t

    def topic_id(self):
        md = self.c.metadata([self.topic])
        for t in (md or {}).get("Topics", []):
            if t["Name"] == self.topic:
                tid = t.get("TopicId")
                return bytes(tid) if not isinstance(tid, (bytes, bytearray)) else tid
        raise AssertionError("no metadata for %s" % self.topic)

    def state_leader(self, partition=0):
        md = harness_wait(lambda: self.c.metadata([STATE_TOPIC]), 20, "metadata of " + STATE_TOPIC)
        t = md["Topics"][0]
        parts = len(t["Partitions"])
        assert parts > 0, "%s has no partitions yet: %s" % (STATE_TOPIC, t)
        sp = state_partition(self.group, self.topic_id(), partition, parts)
        return sp, self.c.leader_of(STATE_TOPIC, sp)

    def fault(self, kind, down_s=None):
        if down_s is None:
            down_s = self.rng.uniform(1, 4)
        c = self.c
        if kind == "kill-consumer":
            live = [n for n, p in self.procs.items() if p.poll() is None]
            victim = self.rng.choice(live)
            t = self._event(kind, victim)
            self.procs[victim].kill()  # SIGKILL, by PID
            self.procs[victim].wait(10)
            self.killed.append((victim, t))
            self.start_consumer()
        elif kind == "kill-share-leader":
            p = self.rng.randrange(self.partitions)
            lid = c.leader_of(self.topic, p)
            self._event(kind, "partition %d leader node %d" % (p, lid))
            c.kill9(lid)
            time.sleep(down_s)
            c.start_node(lid)
        elif kind == "kill-state-leader":
            sp, lid = self.state_leader(0)
            self._event(kind, "%s-%d leader node %d" % (STATE_TOPIC, sp, lid))
            c.kill9(lid)
            time.sleep(down_s)
            c.start_node(lid)
        elif kind == "restart-all":
            self._event(kind, "SIGTERM every broker one after another, then start all")
            c.restart_all(how="term")
        elif kind == "rolling-restart":
            self._event(kind, "SIGTERM and start each broker in turn")
            for nid in sorted(c.nodes):
                c.restart(nid, how="term")
        elif kind == "kill9-broker":
            nid = self.rng.choice(sorted(c.nodes))
            self._event(kind, "node %d" % nid)
            c.kill9(nid)
            time.sleep(down_s)
            c.start_node(nid)
        else:
            raise ValueError(kind)

    # -- end
    def finish(self, quiet_s=None):
        """Waits until every acknowledged id has an outcome (accepted,
        rejected or dead-lettered), or, failing that, until nothing new has
        happened for `quiet_s` (default 4 lock durations) once the producer
        is done, or the deadline; then stops the consumers and checks."""
        if quiet_s is None and os.environ.get("WQ_QUIET_S"):
            quiet_s = float(os.environ["WQ_QUIET_S"])
        quiet_s = quiet_s if quiet_s is not None else max(8.0, 4 * self.lock_ms / 1000.0)
        self.producer.join(max(5.0, self.deadline - time.monotonic()))
        produced = set(self.producer.acked)
        last_change, last_n = time.monotonic(), -1
        for _ in range(100_000):
            if self.dlq_reader:
                self.dlq_reader.poll(0.2)
            dlq_ids = self._dlq_ids()
            have = self.outcome_ids() | dlq_ids
            if produced <= have:
                break
            n = len(have)
            if n != last_n:
                last_n, last_change = n, time.monotonic()
            if time.monotonic() - last_change > quiet_s or time.monotonic() > self.deadline:
                break
            self._check_consumers()
            time.sleep(0.3)
        # Stop the consumers (they close cleanly), by PID if they overrun.
        with open(self.stop_file, "w"):
            pass
        for n, p in self.procs.items():
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(10)
        if self.dlq_reader:
            self.dlq_reader.poll(1.0)
            # Each rejection's dead letter is durable before the rejection
            # is answered, but the reader may still be catching up (it
            # reconnects after broker restarts): read on (bounded) until
            # it has every rejected id.
            rejected = {i for entries in self.logs().values()
                        for kind, i, *_ in entries if kind == "rejected"}
            for _ in range(150):
                if rejected <= self._dlq_ids():
                    break
                self.dlq_reader.poll(0.2)
            self.dlq_reader.close()
        return self.check()

    def _dlq_ids(self):
        if not self.dlq_reader:
            return set()
        by_pos = {v: k for k, v in self.producer.acked.items()}
        out = set()
        for r in self.dlq_reader.records:
            i = self._dlq_id(r, by_pos)
            if i is not None:
                out.add(i)
        return out

    def _dlq_id(self, r, by_pos):
        h = r["headers"]
        try:
            pos = (int(h.get("__dlq.errors.partition")), int(h.get("__dlq.errors.offset")))
        except (TypeError, ValueError):
            return r["value_id"]
        return by_pos.get(pos, r["value_id"])

    def check(self):
        logs = self.logs()
        produced = dict(self.producer.acked)
        by_pos = {v: k for k, v in produced.items()}
        res = Result(self)
        accepted = collections.defaultdict(list)  # id -> [(consumer, t, dc, p, off)]
        rejected, unsure, got = {}, collections.defaultdict(list), collections.defaultdict(list)
        for cname, entries in logs.items():
            for kind, i, p, off, t, dc, extra in entries:
                if i is None:
                    res.foreign += 1
                    continue
                if kind == "got":
                    got[i].append((cname, t, dc))
                    res.dc[dc] += 1
                elif kind == "accepted":
                    accepted[i].append((cname, t, dc, p, off))
                elif kind == "rejected":
                    rejected[i] = (cname, t)
                else:
                    unsure[i].append((cname, t, extra))
                if kind != "got" and (p, off) != produced.get(i, (p, off)):
                    res.fail("wrong-position", "id %d logged at %d/%d, produced at %s"
                             % (i, p, off, produced[i]))
        dlq = collections.defaultdict(list)
        for r in (self.dlq_reader.records if self.dlq_reader else []):
            i = self._dlq_id(r, by_pos)
            dlq[i].append((r["dlq_offset"], r["headers"].get("__dlq.errors.message")))
            res.dlq_reasons[r["headers"].get("__dlq.errors.message")] += 1
            if r["value_id"] is not None and r["value_id"] != i:
                res.fail("dlq-header-mismatch", "dlq record %d: headers say id %s, copy says %s"
                         % (r["dlq_offset"], i, r["value_id"]))
        res.produced = len(produced)
        res.accepted = len(accepted)
        res.rejected = len(rejected)
        res.dlq = sum(len(v) for v in dlq.values())
        res.dlq_dups = sorted(i for i, v in dlq.items() if len(v) > 1)
        for i in res.dlq_dups:
            res.fail("dlq-dup", "id %d dead-lettered %d times: %s" % (i, len(dlq[i]), dlq[i]))
        res.unsure = len(unsure)
        res.unsure_only = sorted(i for i in unsure
                                 if i not in accepted and i not in dlq and i in produced)
        res.producer_failed = dict(self.producer.failed)
        for i in sorted(produced):
            if i not in accepted and i not in dlq and i not in unsure:
                res.fail("lost", "id %d (%d/%d): given %s, never accepted nor dead-lettered"
                         % ((i,) + produced[i] + (got.get(i, "never"),)))
        for i, acc in sorted(accepted.items()):
            if len(acc) > 1:
                res.fail("dup-accepted", "id %d accepted %d times: %s" % (i, len(acc), acc))
            first = min(a[1] for a in acc)
            later = [g for g in got[i] if g[1] > first]
            if later:
                res.fail("redelivered-after-accept", "id %d accepted at %.3f, given again %s"
                         % (i, first, later))
            if i in dlq:
                res.fail("accepted-and-dlq", "id %d accepted %s and dead-lettered %s"
                         % (i, acc, dlq[i]))
        for i in sorted(rejected):
            if i not in dlq:
                res.fail("rejected-not-dlq", "id %d rejected by %s, not in %s"
                         % (i, rejected[i], self.dlq))
        # What each killed consumer held: given, no outcome logged by it.
        for cname, t in self.killed:
            held = {}
            for kind, i, p, off, _t, dc, _x in logs.get(cname, []):
                if kind == "got":
                    held[i] = dc
                else:
                    held.pop(i, None)
            res.killed_held += len(held)
            for i in held:
                back = [a for a in accepted.get(i, []) if a[0] != cname]
                if back:
                    res.came_back_dc[max(a[2] for a in back)] += 1
                elif i in dlq:
                    res.came_back_dc["dlq"] += 1
                else:
                    res.fail("killed-inflight-lost", "id %d held by killed %s (delivery %d) "
                             "never accepted by another consumer" % (i, cname, held[i]))
        return res


def harness_wait(fn, timeout, what):
    import harness
    return harness.wait_until(fn, timeout=timeout, interval=0.2, what=what)


class Result:
    def __init__(self, run):
        self.run = run
        self.failures = collections.defaultdict(list)
        self.dc = collections.Counter()
        self.came_back_dc = collections.Counter()
        self.dlq_reasons = collections.Counter()
        self.killed_held = 0
        self.foreign = 0

    def fail(self, kind, detail):
        self.failures[kind].append(detail)

    @property
    def ok(self):
        return not self.failures

    def summary(self):
        r = self.run
        return ("workqueue scenario=%s produced=%d accepted=%d rejected=%d dlq=%d dlq_dups=%d "
                "unsure=%d unsure_only=%d delivery_counts=%s dlq_reasons=%s killed_held=%d "
                "came_back=%s faults=%s producer_failed=%s warm_up_s=%s result=%s"
                % (r.name, self.produced, self.accepted, self.rejected, self.dlq,
                   len(self.dlq_dups), self.unsure, len(self.unsure_only),
                   dict(sorted(self.dc.items())), dict(self.dlq_reasons), self.killed_held,
                   dict(self.came_back_dc), [f[0] for f in r.faults], self.producer_failed,
                   None if r.warm_up_s is None else round(r.warm_up_s, 1),
                   "ok" if self.ok else "FAIL(%s)" % ",".join(
                       "%s=%d" % (k, len(v)) for k, v in sorted(self.failures.items()))))

    def assert_ok(self):
        report(self.summary())
        if self.ok:
            return
        detail = "\n".join("%s: %s%s" % (k, v[:8], " ..." if len(v) > 8 else "")
                           for k, v in sorted(self.failures.items()))
        raise AssertionError("%s\n%s\nfaults: %s\nconsumer logs in %s\n%s\n%s"
                             % (self.summary(), detail, self.run.faults, self.run.workdir,
                                self.run._consumer_tails(8), broker_evidence(self.run.c)))


def broker_evidence(c, lines=40):
    """ERROR/WARN/panic lines of every broker log of the run, and the tails."""
    out = []
    for n in c.nodes.values():
        for path in n.log_paths:
            try:
                text = path.read_text("utf-8", "replace")
            except OSError:
                continue
            bad = [ln for ln in text.splitlines()
                   if "ERROR" in ln or "panic" in ln or "WARN" in ln][-lines:]
            out.append("--- node %d %s: %d ERROR/WARN/panic lines (last %d) ---\n%s"
                       % (n.node_id, path, len(bad), len(bad), "\n".join(bad)))
    out.append(c.log_tails(lines))
    return "\n".join(out)


def stop_consumers(run):
    """Teardown: every consumer process still running, killed by PID."""
    for p in run.procs.values():
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                pass
    if run.dlq_reader is not None:
        try:
            run.dlq_reader.close()
        except RuntimeError:
            pass


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "consumer":
        sys.exit(run_consumer(json.loads(sys.argv[2])))
    sys.exit("usage: workqueue.py consumer SPEC_JSON")
