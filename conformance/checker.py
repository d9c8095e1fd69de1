"""Load under faults, then check what the log kept.

- Load: a confluent-kafka producer (acks=all; enable.idempotence on, or off
  with one request in flight so that per-key order still holds) in a
  background thread, bounded in time and count, sending keyed messages:
  key = one of K keys, value = key + ":" + that key's sequence number. Every
  delivery report is recorded: the acknowledged ones as Ack(topic,
  partition, offset, key, value, t) with t the wall-clock ack time, the
  failed ones counted by error name.
- Observer: a consumer reading every partition from the beginning while the
  faults happen, recording every (partition, offset, key, value) it was
  given.
- read_back(): after the scenario, a fresh consumer reads every partition
  from the beginning up to its high watermark.
- check(): every acknowledged record is at exactly its acknowledged
  (partition, offset) with the same key and value; per key, the
  acknowledged sequence numbers appear in increasing offset order; every
  record the observer was given is in the final log, identically (no read
  returned a record that was later lost); with idempotence, no key's
  sequence number is in the log twice.
- window(): the write-unavailability window around a fault: (first ack
  after the fault) - (last ack before it), in seconds (over the faulted
  partition's acks when the fault names one); longest_gap(): the longest
  pause in acks after it.

Run ties these together for one scenario: start(), fault(label) at each
fault, finish() -> Result with summary() and assert_ok().

Everything is bounded: the producer by max_seconds / max_count, the
observer by max_seconds, the read-back by its timeout.
"""

import collections
import os
import threading
import time

import harness

Ack = collections.namedtuple("Ack", "topic partition offset key value t")
Seen = collections.namedtuple("Seen", "partition offset key value")

REPORT_ENV = "TIDEMARK_CLUSTER_REPORT"


def key_name(i):
    return b"key-%03d" % i


def make_value(key, seq):
    return b"%s:%09d" % (key, seq)


def parse_seq(value):
    """The sequence number in a value made by make_value (None if foreign)."""
    try:
        return int(value.rsplit(b":", 1)[1])
    except (AttributeError, IndexError, ValueError):
        return None


def report(line):
    """Print a summary line, and append it to $TIDEMARK_CLUSTER_REPORT if set."""
    print(line, flush=True)
    path = os.environ.get(REPORT_ENV)
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


# ------------------------------------------------------------------ producer

class Load:
    """A keyed acks=all producer in a background thread."""

    def __init__(self, bootstrap, topic, keys=16, idempotence=True, rate=1000,
                 max_seconds=120.0, max_count=None, conf=None, name="load"):
        self.bootstrap = bootstrap
        self.topic = topic
        self.keys = [key_name(i) for i in range(keys)]
        self.idempotence = idempotence
        self.rate = rate
        self.max_seconds = max_seconds
        self.max_count = max_count
        self.name = name
        self.conf = {
            "bootstrap.servers": bootstrap,
            "client.id": "tidemark-checker-%s" % name,
            "acks": "all",
            "enable.idempotence": idempotence,
            "linger.ms": 5,
            "message.timeout.ms": 20000,
            "request.timeout.ms": 5000,
            "socket.timeout.ms": 5000,
            "retry.backoff.ms": 100,
            "retry.backoff.max.ms": 500,
            "reconnect.backoff.ms": 100,
            "reconnect.backoff.max.ms": 1000,
            "topic.metadata.refresh.interval.ms": 2000,
            "partitioner": "murmur2_random",
            "log_level": 2,  # connection refused etc. are expected here
        }
        if not idempotence:
            # retries may reorder with several requests in flight
            self.conf["max.in.flight.requests.per.connection"] = 1
        self.conf.update(conf or {})
        self.acked = []  # Ack, in the order the reports arrived
        self.errors = collections.Counter()  # error name -> count
        self.first_errors = []  # (t, partition, name, text), the first 20
        self.client_errors = collections.Counter()  # error_cb: connection-level, not losses
        self.fatal = None
        self.sent = 0
        self.undelivered = 0  # still queued when the producer gave up at the end
        self.next_seq = {k: 0 for k in self.keys}
        self._stop = threading.Event()
        self._thread = None
        self.exception = None

    # -- thread
    def start(self):
        self._thread = threading.Thread(target=self._run, name="load-%s" % self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout=40.0):
        """Stop producing, wait for the outstanding delivery reports (bounded
        by message.timeout.ms) and join. `acked` is complete only after this."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                raise AssertionError("producer thread still running %.0fs after stop" % timeout)
        if self.exception is not None:
            raise self.exception

    def _on_error(self, err):
        self.client_errors[err.name()] += 1
        if err.fatal():
            self.fatal = "%s: %s" % (err.name(), err.str())

    def _cb(self, err, msg):
        now = time.time()
        if err is None:
            self.acked.append(Ack(msg.topic(), msg.partition(), msg.offset(), msg.key(),
                                  msg.value(), now))
        else:
            self.errors[err.name()] += 1
            if len(self.first_errors) < 20:
                self.first_errors.append((now, msg.partition(), err.name(), err.str()))

    def _run(self):
        try:
            self._produce()
        except BaseException as e:  # noqa: BLE001 - re-raised by stop()
            self.exception = e

    def _produce(self):
        from confluent_kafka import KafkaException, Producer
        p = Producer({**self.conf, "error_cb": self._on_error})
        tick = 0.01
        per_tick = max(1, int(self.rate * tick))
        started = time.monotonic()
        deadline = started + self.max_seconds
        next_due = started
        nkeys = len(self.keys)
        i = 0
        for _ in range(int(self.max_seconds / tick) + 10):
            if self._stop.is_set() or self.fatal or time.monotonic() > deadline:
                break
            if self.max_count is not None and i >= self.max_count:
                break
            for _ in range(per_tick):
                if self.max_count is not None and i >= self.max_count:
                    break
                key = self.keys[i % nkeys]
                value = make_value(key, self.next_seq[key])
                try:
                    p.produce(self.topic, key=key, value=value, on_delivery=self._cb)
                except BufferError:
                    break
                except KafkaException as e:
                    err = e.args[0]
                    self.errors["produce:" + err.name()] += 1
                    if err.fatal():
                        self.fatal = "%s: %s" % (err.name(), err.str())
                    break
                self.next_seq[key] += 1
                self.sent += 1
                i += 1
            p.poll(0)
            next_due = max(next_due + tick, time.monotonic() - 0.5)
            for _ in range(100):
                left = next_due - time.monotonic()
                if left <= 0:
                    break
                p.poll(left)
        # outstanding reports arrive within message.timeout.ms
        flush_for = self.conf.get("message.timeout.ms", 20000) / 1000.0 + 5
        self.undelivered = p.flush(flush_for)

    # -- views (safe while running: lists only grow)
    def acks_after(self, t):
        n = 0
        for a in reversed(self.acked):
            if a.t <= t:
                break
            n += 1
        return n

    def per_partition(self):
        return collections.Counter(a.partition for a in list(self.acked))

    def busiest_partition(self):
        counts = self.per_partition()
        if not counts:
            raise AssertionError("no acknowledged messages yet")
        return counts.most_common(1)[0][0]

    def wait_acks(self, n, after=None, timeout=30.0):
        """Wait until n messages were acknowledged (after time `after`, if given)."""
        def enough():
            if self.exception is not None:
                raise self.exception
            got = self.acks_after(after) if after is not None else len(self.acked)
            return got >= n
        try:
            harness.wait_until(enough, timeout=timeout, interval=0.05,
                               what="%d acknowledged messages%s" % (
                                   n, "" if after is None else " after the fault"))
        except AssertionError as e:
            raise AssertionError("%s; producer: %d sent, %d acked (%d after), errors %s, "
                                 "fatal %s, first errors %s" % (
                                     e, self.sent, len(self.acked),
                                     self.acks_after(after) if after is not None else -1,
                                     dict(self.errors), self.fatal,
                                     self.first_errors[:3])) from None

    def error_count(self):
        return sum(self.errors.values())


# ------------------------------------------------------------------ consumers

def _consumer(bootstrap, name, **extra):
    from confluent_kafka import Consumer
    conf = {
        "bootstrap.servers": bootstrap,
        # librdkafka wants a group id even for assign(); nothing is committed
        "group.id": "tidemark-checker-unused",
        "client.id": "tidemark-checker-%s" % name,
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,
        "auto.offset.reset": "earliest",
        "fetch.wait.max.ms": 100,
        "socket.timeout.ms": 5000,
        "topic.metadata.refresh.interval.ms": 2000,
        "reconnect.backoff.ms": 100,
        "reconnect.backoff.max.ms": 1000,
        "log_level": 2,
    }
    conf.update(extra)
    return Consumer(conf)


class Observer:
    """Reads every partition from the beginning in a background thread while
    the scenario runs; records every record it was given."""

    def __init__(self, bootstrap, topic, partitions, max_seconds=120.0, name="observer"):
        self.bootstrap = bootstrap
        self.topic = topic
        self.partitions = list(partitions)
        self.max_seconds = max_seconds
        self.name = name
        self.seen = []
        self.errors = collections.Counter()
        self._stop = threading.Event()
        self._thread = None
        self.exception = None

    def start(self):
        self._thread = threading.Thread(target=self._run, name="observer-%s" % self.name,
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout=20.0):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                raise AssertionError("observer thread still running %.0fs after stop" % timeout)
        if self.exception is not None:
            raise self.exception

    def _run(self):
        try:
            self._consume()
        except BaseException as e:  # noqa: BLE001 - re-raised by stop()
            self.exception = e

    def _consume(self):
        from confluent_kafka import OFFSET_BEGINNING, TopicPartition
        c = _consumer(self.bootstrap, self.name)
        try:
            c.assign([TopicPartition(self.topic, p, OFFSET_BEGINNING) for p in self.partitions])
            deadline = time.monotonic() + self.max_seconds
            for _ in range(int(self.max_seconds / 0.2) + 10):
                if self._stop.is_set() or time.monotonic() > deadline:
                    break
                for m in c.consume(num_messages=5000, timeout=0.2):
                    if m.error():
                        self.errors[m.error().name()] += 1
                        continue
                    self.seen.append(Seen(m.partition(), m.offset(), m.key(), m.value()))
        finally:
            c.close()


def read_back(bootstrap, topic, partitions, timeout=60.0, at_least=None, log_starts=None):
    """Every record of every partition from the beginning up to its high
    watermark. at_least maps partition -> offset the high watermark is
    waited for (bounded; e.g. 1 + the highest acknowledged offset), since a
    new leader may still be committing its term's first entry.
    Returns ({partition: high watermark}, [Seen], {partition: error} for
    the partitions with no high watermark after the wait, which are not read).
    log_starts, if given, is filled with each partition's log start offset
    (the low watermark: retention may have deleted what is below it)."""
    from confluent_kafka import OFFSET_BEGINNING, KafkaException, TopicPartition
    deadline = time.monotonic() + timeout
    c = _consumer(bootstrap, "read-back")
    try:
        hw, errors = {}, {}
        for p in partitions:
            want = (at_least or {}).get(p, 0)
            last = None
            hw_deadline = min(deadline, time.monotonic() + 20)
            for _ in range(400):
                try:
                    low, last = c.get_watermark_offsets(TopicPartition(topic, p), timeout=5,
                                                        cached=False)
                    if log_starts is not None:
                        log_starts[p] = low
                except KafkaException as e:
                    last = e
                if isinstance(last, int) and last >= want:
                    break
                if time.monotonic() > hw_deadline:
                    break
                time.sleep(0.1)
            if isinstance(last, int):
                hw[p] = last
            else:
                errors[p] = str(last)
        readable = [p for p in partitions if p in hw]
        out = []
        pos = {p: 0 for p in readable}
        if readable:
            c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in readable])
        for _ in range(int(timeout / 0.2) + 10):
            if all(pos[p] >= hw[p] for p in readable) or time.monotonic() > deadline:
                break
            for m in c.consume(num_messages=10000, timeout=0.2):
                if m.error():
                    continue
                out.append(Seen(m.partition(), m.offset(), m.key(), m.value()))
                pos[m.partition()] = max(pos[m.partition()], m.offset() + 1)
        short = {p: (pos[p], hw[p]) for p in readable if pos[p] < hw[p]}
        if short:
            raise AssertionError("read-back of %s stopped short of the high watermark after "
                                 "%.0fs: {partition: (read up to, high watermark)} %s"
                                 % (topic, timeout, short))
        return hw, out, errors
    finally:
        c.close()


# ------------------------------------------------------------------ the check

def window(acked, fault_t, partition=None):
    """(first ack after fault_t) - (last ack at or before it), seconds, over
    one partition's acks if given; None when there is no ack on one side."""
    if partition is not None:
        acked = [a for a in acked if a.partition == partition]
    before = [a.t for a in acked if a.t <= fault_t]
    after = [a.t for a in acked if a.t > fault_t]
    if not before or not after:
        return None
    return min(after) - max(before)


def longest_gap(acked, fault_t, until=None, partition=None):
    """The longest pause between consecutive acks (of one partition, if
    given) from the last ack at or before fault_t up to `until` (the next
    fault, or the end), seconds. window() can be near zero when responses
    already on their way at the fault arrive just after it; this shows the
    pause that followed."""
    times = sorted(a.t for a in acked if (until is None or a.t <= until)
                   and (partition is None or a.partition == partition))
    start = None
    for i, x in enumerate(times):
        if x <= fault_t:
            start = i
    if start is None:
        return None
    gaps = [b - a for a, b in zip(times[start:], times[start + 1:])]
    return max(gaps) if gaps else None


class Result:
    def __init__(self, scenario):
        self.scenario = scenario
        self.problems = []  # (kind, text)
        self.acked = 0
        self.errors = 0
        self.error_names = {}
        self.observed = 0
        self.log_records = 0
        self.duplicates = 0
        self.gaps = 0
        self.windows = []  # (label, seconds or None)
        self.gaps_after = []  # (label, longest pause in acks after that fault, or None)
        self.fatal = None
        self.notes = []

    def add(self, kind, text):
        self.problems.append((kind, text))

    @property
    def ok(self):
        return not self.problems

    def window_s(self):
        """The first fault's window (the scenario's main fault)."""
        return self.windows[0][1] if self.windows else None

    def summary(self):
        def fmt(w):
            return "none" if w is None else "%.3f" % w
        extra = ""
        if self.gaps_after:
            extra += " max_pause_s=%s" % fmt(self.gaps_after[0][1])
        if len(self.windows) > 1:
            extra += " windows=[%s]" % ",".join("%s:%s" % (lbl, fmt(w)) for lbl, w in self.windows)
            extra += " max_pauses=[%s]" % ",".join("%s:%s" % (lbl, fmt(w))
                                                   for lbl, w in self.gaps_after)
        if self.fatal:
            extra += " fatal=%r" % self.fatal
        if self.error_names:
            extra += " error_names=%s" % dict(self.error_names)
        for n in self.notes:
            extra += " " + n
        return ("scenario=%s acked=%d errors=%d observed-during=%d window_s=%s log=%d dups=%d "
                "gaps=%d result=%s%s" % (self.scenario, self.acked, self.errors, self.observed,
                                         fmt(self.window_s()), self.log_records, self.duplicates,
                                         self.gaps, "ok" if self.ok else "FAIL(%s)" % ",".join(
                                             sorted({k for k, _ in self.problems})), extra))

    def assert_ok(self):
        if self.problems:
            by_kind = collections.defaultdict(list)
            for kind, text in self.problems:
                by_kind[kind].append(text)
            lines = []
            for kind, texts in sorted(by_kind.items()):
                lines.append("%s: %d, e.g." % (kind, len(texts)))
                lines.extend("    " + t for t in texts[:3])
            raise AssertionError("scenario %s: %d problems\n%s\n%s"
                                 % (self.scenario, len(self.problems), "\n".join(lines),
                                    self.summary()))


def check(scenario, acked, observed, log, faults=(), idempotence=True, errors=None, fatal=None,
          hw=None, log_start=None):
    """Compare what the producer was told and what a reader was given with
    the final log. acked: [Ack]; observed: [Seen] read during the scenario;
    log: [Seen] from read_back(); faults: [(label, t)] or [(label, t,
    partition)] (window and pause over that partition); log_start:
    {partition: log start offset}, below which records were deleted by
    retention (counted in a note, not as lost). Returns a Result."""
    log_start = log_start or {}

    def retained_away(partition, offset):
        return offset < log_start.get(partition, 0)
    r = Result(scenario)
    r.acked = len(acked)
    r.observed = len(observed)
    r.log_records = len(log)
    r.fatal = fatal
    if errors:
        r.errors = sum(errors.values())
        r.error_names = dict(errors)
    if fatal:
        r.add("producer-fatal", "the producer stopped on a fatal error: %s" % fatal)
    final = {}
    for s in log:
        prev = final.get((s.partition, s.offset))
        if prev is not None and prev != (s.key, s.value):
            r.add("unstable-read", "%d/%d read twice with different contents: %r then %r"
                  % (s.partition, s.offset, prev, (s.key, s.value)))
        final[(s.partition, s.offset)] = (s.key, s.value)

    # 0. librdkafka acknowledges some records without an offset: when a
    # later batch of an idempotent producer succeeds, earlier messages
    # whose own request failed or timed out are "implicitly acked"
    # (persisted, offset unknown). Those must be in the log too; their
    # place is where the log holds their (unique) value.
    where_is = {}
    for (p, off), (_, v) in final.items():
        where_is.setdefault((p, v), off)
    resolved = []
    no_offset = 0
    for a in acked:
        if a.offset is None:
            no_offset += 1
            off = where_is.get((a.partition, a.value))
            if off is None:
                r.add("lost", "acknowledged %r (no offset reported) on partition %d is not "
                      "in the log" % (a.value, a.partition))
                continue
            a = a._replace(offset=off)
        resolved.append(a)
    if no_offset:
        r.notes.append("acked_without_offset=%d" % no_offset)
    acked = resolved
    below = sum(1 for a in acked if retained_away(a.partition, a.offset))
    if below:
        r.notes.append("acked_below_log_start=%d (deleted by retention; log starts %s)"
                       % (below, dict(sorted(log_start.items()))))

    # 1. every acknowledged record at its acknowledged place, unchanged
    places = {}
    for a in acked:
        where = (a.partition, a.offset)
        if where in places and places[where] != (a.key, a.value):
            r.add("double-ack", "two different records acknowledged at %d/%d: %r and %r"
                  % (a.partition, a.offset, places[where], (a.key, a.value)))
        places[where] = (a.key, a.value)
        got = final.get(where)
        if got is None and retained_away(a.partition, a.offset):
            continue
        if got is None:
            where_hw = (hw or {}).get(a.partition)
            r.add("lost", "acknowledged %r at %d/%d is not in the log%s"
                  % (a.value, a.partition, a.offset,
                     " (high watermark %s)" % where_hw
                     if where_hw is None or a.offset >= where_hw else ""))
        elif got != (a.key, a.value):
            r.add("changed", "acknowledged %r at %d/%d, the log has %r there"
                  % (a.value, a.partition, a.offset, got[1]))

    # 2. per key, the acknowledged sequence numbers in increasing offset order
    by_key = collections.defaultdict(list)
    for a in acked:
        by_key[a.key].append((a.partition, a.offset, parse_seq(a.value)))
    for key, entries in by_key.items():
        entries.sort()
        parts = {p for p, _, _ in entries}
        if len(parts) > 1:
            r.notes.append("key %r acknowledged on partitions %s" % (key, sorted(parts)))
            continue
        prev = None
        for p, off, seq in entries:
            if prev is not None and seq <= prev[2]:
                r.add("order", "key %r: sequence %d at %d/%d after sequence %d at %d/%d"
                      % (key, seq, p, off, prev[2], prev[0], prev[1]))
            prev = (p, off, seq)

    # 3. nothing a reader was given is gone or different later
    for s in observed:
        got = final.get((s.partition, s.offset))
        if got is None and retained_away(s.partition, s.offset):
            continue
        if got is None:
            r.add("read-then-lost", "a consumer read %r at %d/%d during the scenario; "
                  "not in the final log" % (s.value, s.partition, s.offset))
        elif got != (s.key, s.value):
            r.add("read-then-changed", "a consumer read %r at %d/%d during the scenario; "
                  "the final log has %r" % (s.value, s.partition, s.offset, got[1]))

    # 4. duplicates (a retried message written twice) and offset gaps
    seen_vals = collections.Counter(v for (_, v) in final.values())
    r.duplicates = sum(n - 1 for n in seen_vals.values() if n > 1)
    if r.duplicates:
        where = collections.defaultdict(list)
        for (p, off), (_, v) in final.items():
            if seen_vals[v] > 1:
                where[v].append((p, off))
        per_part = collections.Counter(p for places_ in where.values() for p, _ in places_[1:])
        first = sorted(where.items(), key=lambda kv: min(kv[1]))[:3]
        r.notes.append("dups_per_partition=%s" % dict(sorted(per_part.items())))
        if idempotence:
            r.add("duplicate", "%d records are in the log more than once with an idempotent "
                  "producer (per partition %s), e.g. %s" % (
                      r.duplicates, dict(sorted(per_part.items())),
                      "; ".join("%r at %s" % (v, sorted(pl)) for v, pl in first)))
    per_part = collections.defaultdict(list)
    for (p, off) in final:
        per_part[p].append(off)
    for p, offs in per_part.items():
        offs.sort()
        r.gaps += (offs[-1] - offs[0] + 1 - len(offs)) + max(0, offs[0] - log_start.get(p, 0))

    faults = sorted(faults, key=lambda f: f[1])
    for i, f in enumerate(faults):
        label, t = f[0], f[1]
        part = f[2] if len(f) > 2 else None
        r.windows.append((label, window(acked, t, part)))
        until = faults[i + 1][1] if i + 1 < len(faults) else None
        r.gaps_after.append((label, longest_gap(acked, t, until, part)))
    return r


# ------------------------------------------------------------------ one scenario

class Run:
    """Load + observer over one topic, faults marked with fault(), then the
    read-back and the check."""

    def __init__(self, bootstrap, topic, partitions, scenario, idempotence=True, keys=16,
                 rate=1000, max_seconds=150.0, producer_conf=None):
        self.bootstrap = bootstrap
        self.topic = topic
        self.partitions = list(range(partitions)) if isinstance(partitions, int) else partitions
        self.scenario = scenario
        self.idempotence = idempotence
        self.load = Load(bootstrap, topic, keys=keys, idempotence=idempotence, rate=rate,
                         max_seconds=max_seconds, conf=producer_conf, name=scenario)
        self.observer = Observer(bootstrap, topic, self.partitions, max_seconds=max_seconds + 30,
                                 name="observer-" + scenario)
        self.faults = []
        self.notes = []  # "name=value" words added to the summary line
        self.hw, self.log = None, None  # the read-back, after finish()

    def start(self):
        self.observer.start()
        self.load.start()
        return self

    def fault(self, label, t=None, partition=None):
        """Mark a fault (t defaults to now); returns t. With a partition, the
        fault's window and pause are measured on that partition's acks."""
        t = time.time() if t is None else t
        self.faults.append((label, t, partition))
        return t

    def abort(self):
        """Stop both threads without checking (a scenario that failed midway)."""
        self.load._stop.set()
        self.observer._stop.set()
        for t in (self.load._thread, self.observer._thread):
            if t is not None:
                t.join(30)

    def finish(self, read_timeout=60.0, extra_check=None):
        """Stop the load, wait for the observer to catch up (bounded), read
        everything back and check. Returns the Result (also reported).
        extra_check(result, log), if given, runs before the report: a
        scenario's own checks against the final log ([Seen]), through
        result.add(kind, text) and result.notes."""
        try:
            self.load.stop()
        finally:
            acked = list(self.load.acked)
            # give the observer a moment to reach what was acknowledged last
            want = collections.Counter()
            for a in acked:
                if a.offset is not None:
                    want[a.partition] = max(want[a.partition], a.offset + 1)

            def caught_up():
                got = {}
                for s in list(self.observer.seen):
                    got[s.partition] = max(got.get(s.partition, 0), s.offset + 1)
                return all(got.get(p, 0) >= o for p, o in want.items())
            try:
                harness.wait_until(caught_up, timeout=10, interval=0.1,
                                   what="the observer to reach the last acknowledged offsets")
            except AssertionError:
                pass  # reported through the check if a record is really missing
            self.observer.stop()
        at_least = {p: o for p, o in want.items()}
        log_start = {}
        hw, log, hw_errors = read_back(self.bootstrap, self.topic, self.partitions,
                                       timeout=read_timeout, at_least=at_least,
                                       log_starts=log_start)
        self.hw, self.log = hw, log  # for a scenario's own checks after finish()
        r = check(self.scenario, acked, list(self.observer.seen), log, self.faults,
                  idempotence=self.idempotence, errors=self.load.errors, fatal=self.load.fatal,
                  hw=hw, log_start=log_start)
        for p, e in sorted(hw_errors.items()):
            r.add("unreadable", "no high watermark for %s/%d at the end: %s" % (self.topic, p, e))
        r.notes.extend(self.notes)
        if self.load.undelivered:
            r.notes.append("undelivered=%d" % self.load.undelivered)
        if self.observer.errors:
            r.notes.append("observer_errors=%s" % dict(self.observer.errors))
        if extra_check is not None:
            extra_check(r, log)
        report(r.summary())
        return r
