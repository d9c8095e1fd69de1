"""Availability zones (issue 22): six brokers, two per rack (cluster.py
gives node ids 1,4 zone-a, 2,5 zone-b, 3,6 zone-c), a topic at
replication factor 3 with min.insync.replicas=2 (rack-aware placement: one
replica per zone, checked), a keyed acks=all producer and a consumer
running (checker.Run) while one whole zone fails. The zone is the one
leading the most partitions (ties: the first rack).

- test_zone_loss: kill -9 both brokers of the zone at the same instant
  (Cluster.kill9_many). Writes must resume on every partition within
  RESUME_LIMIT s; the consumer must read, on every partition, records
  acknowledged after the kill while the zone is down; the zone stays down
  ZONE_DOWN_SECONDS (past broker.session.timeout.ms, so the dead brokers
  are fenced) and no partition may stop being written for RESUME_LIMIT s
  in that time. Then both brokers start again: their replicas must be
  back in the ISR of every partition (Metadata, Cluster.partition_state)
  and the preferred leaders (first replicas) must lead again
  (leader.imbalance.check.interval.seconds is REBALANCE_EVERY_S here).
- test_zone_split: the zone cut off from the other two by the RPC proxies
  (Cluster.split: its two brokers still reach each other, clients still
  reach all six). The same resume, consumer and pause bounds while the
  split lasts (at least SPLIT_MIN_SECONDS); after the heal the cut-off
  replicas must be back in every ISR and the preferred leaders lead again.

Both end with checker.check(): nothing acknowledged (or read) is lost.
The scenario's own failures are collected and asserted after the check
(so a late resume still gets its data checked); a failure copies every
broker's log to the evidence folder (test_cluster._save_evidence) and the
split's failure message has every broker's Metadata view of every
partition.

The producer runs with librdkafka's default request.timeout.ms,
socket.timeout.ms, metadata refresh and retry/reconnect backoffs
(CLIENT_DEFAULTS; the checker's own settings are faster), so the
measured windows are what a default client sees. message.timeout.ms stays
the checker's 20 s so that the run is bounded. The consumer is the
checker's (metadata refresh every 2 s).

Resume window of a partition: from the fault to the ack that ends the
pause the fault caused in that partition's acks (the longest gap starting
within STRAY_S of the fault: answers already on their way at the fault do
not count as "resumed"); the scenario's window is the largest over the
partitions. Every figure is printed and in the summary line (also
appended to $TIDEMARK_CLUSTER_REPORT).
"""

import collections
import time

import pytest

import checker
import harness
from test_cluster import _save_evidence, _since, _start_cluster, needs_cluster

pytestmark = pytest.mark.cluster

SIZE = 6  # two brokers per zone
PARTITIONS = 6
RATE = 300  # messages/s, over all partitions
WARMUP_ACKS = 600
RESUME_LIMIT = 10.0  # writes must resume within this (the bound)
MEASURE_TIMEOUT = 30.0  # how long the test waits to see them resume at all
RESUMED_ACKS = 25  # per partition after the fault: the partition has resumed
STRAY_S = 1.0  # acks within this of a fault can be answers already on their way
CATCH_UP_TIMEOUT = 40.0  # restarted / healed replicas back in every ISR
REBALANCE_TIMEOUT = 30.0  # preferred leaders lead again
SPLIT_MIN_SECONDS = 8.0  # the split lasts at least this long
ZONE_DOWN_SECONDS = 12.0  # the zone stays down this long (past broker.session.timeout.ms, 9 s)
REBALANCE_EVERY_S = 2  # leader.imbalance.check.interval.seconds (default 30)
ZONE_SETTINGS = {"leader.imbalance.check.interval.seconds": str(REBALANCE_EVERY_S)}
TOPIC_CONFIGS = {"min.insync.replicas": "2"}
# librdkafka's defaults for what decides how fast a producer finds a new leader
CLIENT_DEFAULTS = {
    "request.timeout.ms": 30000,
    "socket.timeout.ms": 60000,
    "topic.metadata.refresh.interval.ms": 300000,
    "retry.backoff.ms": 100,
    "retry.backoff.max.ms": 1000,
    "reconnect.backoff.ms": 100,
    "reconnect.backoff.max.ms": 10000,
}


@pytest.fixture
def cluster6(request):
    c = _start_cluster(SIZE, request.node.name, settings=ZONE_SETTINGS)
    yield c
    c.close()


@pytest.fixture
def cluster6_proxied(request):
    c = _start_cluster(SIZE, request.node.name, settings=ZONE_SETTINGS, proxied=True)
    yield c
    c.close()


def _states(c, topic):
    """{partition: Metadata view with the highest leader epoch} (Cluster.partition_state)."""
    return {p: c.partition_state(topic, p) for p in range(PARTITIONS)}


def _wait_states(c, topic, ok, timeout, what):
    """Wait (bounded) until ok(states) holds; returns the states."""
    last = {}

    def check():
        st = _states(c, topic)
        last["states"] = {p: None if s is None else {k: s[k] for k in (
            "LeaderId", "LeaderEpoch", "ReplicaNodes", "IsrNodes")} for p, s in st.items()}
        return st if all(s is not None for s in st.values()) and ok(st) else None
    try:
        return harness.wait_until(check, timeout=timeout, interval=0.5, what=what)
    except AssertionError as e:
        raise AssertionError("%s; last seen: %s" % (e, last.get("states"))) from None


def _preferred_lead(st):
    return all(s["LeaderId"] == s["ReplicaNodes"][0] for s in st.values())


def _full_isr(st):
    return all(set(s["ReplicaNodes"]) <= set(s["IsrNodes"]) for s in st.values())


def _begin(c, scenario):
    """The topic (RF 3, min.insync.replicas=2, full ISR, one replica per
    zone, preferred leaders leading), then the load and the observer."""
    topic = harness.unique_topic(scenario)
    c.create_topic(topic, PARTITIONS, replication_factor=3, configs=TOPIC_CONFIGS, full_isr=True)
    st = _wait_states(c, topic, lambda s: _full_isr(s) and _preferred_lead(s), 30.0,
                      "full ISR and preferred leaders for %s" % topic)
    for p, s in st.items():
        racks = [c.nodes[r].rack for r in s["ReplicaNodes"]]
        assert len(racks) == 3 and len(set(racks)) == 3, \
            "partition %d: replicas %s on racks %s, not one per zone" % (p, s["ReplicaNodes"], racks)
    run = checker.Run(c.bootstrap, topic, PARTITIONS, scenario, rate=RATE, max_seconds=120.0,
                      producer_conf=CLIENT_DEFAULTS)
    run.start()
    run.load.wait_acks(WARMUP_ACKS, timeout=60)
    return run, st


def _busiest_zone(c, st):
    """(rack, its node ids, the partitions it leads): the zone leading the most partitions."""
    led = collections.defaultdict(list)
    for p, s in st.items():
        led[c.nodes[s["LeaderId"]].rack].append(p)
    zone = max(sorted(led), key=lambda r: len(led[r]))
    nodes = sorted(n.node_id for n in c.nodes.values() if n.rack == zone)
    assert len(nodes) == 2, "zone %s has brokers %s" % (zone, nodes)
    return zone, nodes, sorted(led[zone])


def _pause(acked, t, partition, until):
    """(start, end), in seconds from the fault t, of the pause the fault
    caused in this partition's acks: the longest gap between consecutive
    acks (from its last ack at or before t, up to `until`) that starts
    within STRAY_S of t (acks already on their way at the fault may
    arrive just after it); (None, None) if it has no ack after t."""
    times = sorted(a.t for a in acked if a.partition == partition and a.t <= until)
    before = [x for x in times if x <= t]
    after = [x for x in times if x > t]
    if not after:
        return None, None
    seq = before[-1:] + after
    gaps = [(b - a, a, b) for a, b in zip(seq, seq[1:]) if a <= t + STRAY_S]
    if not gaps:
        return after[0] - t, after[0] - t
    _, a, b = max(gaps)
    return a - t, b - t


def _wait_resumed(run, t, timeout=MEASURE_TIMEOUT):
    """Wait until every partition has RESUMED_ACKS acks after t (bounded),
    then return ({partition: resume seconds or None}, the time measured to)."""
    def resumed():
        counts = collections.Counter(a.partition for a in list(run.load.acked) if a.t > t)
        return all(counts[p] >= RESUMED_ACKS for p in range(PARTITIONS))
    try:
        harness.wait_until(resumed, timeout=timeout, interval=0.1,
                           what="%d acks on every partition after the fault" % RESUMED_ACKS)
    except AssertionError:
        pass  # the per-partition figures (None: never resumed) make the failure below
    until = time.time()
    acked = list(run.load.acked)
    return {p: _pause(acked, t, p, until) for p in range(PARTITIONS)}, until


def _fmt_resume(res):
    """partition:resume_s(pause from..to) for each partition."""
    return ",".join("%d:%s" % (p, "none" if b is None else "%.2f(%.2f..)" % (b, a))
                    for p, (a, b) in sorted(res.items()))


def _resumed(run, res, what, problems):
    """Notes the resume window (the largest over the partitions); a
    problem if it is not under RESUME_LIMIT. Returns it (None: never)."""
    ends = [b for _, b in res.values()]
    worst = None if any(b is None for b in ends) else max(ends)
    run.notes.append("%s_resume_s=%s per_partition=[%s]" % (
        what, "none" if worst is None else "%.3f" % worst, _fmt_resume(res)))
    print("%s: writes resumed on every partition after %s s (per partition: resume(pause "
          "start..), s after the fault: %s)"
          % (what, "never" if worst is None else "%.3f" % worst, _fmt_resume(res)))
    if worst is None or worst >= RESUME_LIMIT:
        problems.append("%s: writes did not resume on every partition within %.0f s: per "
                        "partition %s (producer errors %s, first %s)"
                        % (what, RESUME_LIMIT, _fmt_resume(res), dict(run.load.errors),
                           run.load.first_errors[:3]))
    return worst


def _longest_pauses(run, t, until, what, problems):
    """checker.longest_gap per partition from the fault t to `until`: no
    partition may stop being written for RESUME_LIMIT s or more."""
    acked = list(run.load.acked)
    gaps = {p: checker.longest_gap(acked, t, until, p) for p in range(PARTITIONS)}
    worst = None if any(g is None for g in gaps.values()) else max(gaps.values())
    text = ",".join("%d:%s" % (p, "none" if g is None else "%.2f" % g)
                    for p, g in sorted(gaps.items()))
    run.notes.append("%s_longest_pause_s=%s per_partition=[%s]"
                     % (what, "none" if worst is None else "%.3f" % worst, text))
    print("%s: longest pause in acks per partition over %.1f s: %s"
          % (what, until - t, text))
    if worst is None or worst >= RESUME_LIMIT:
        problems.append("%s: a partition was not written for %.0f s or more between the fault "
                        "and %.1f s after it: %s" % (what, RESUME_LIMIT, until - t, text))


def _consumed_after(run, t, what, problems, timeout=15.0):
    """The observer reads, on every partition written after t, a record
    acknowledged after t: seconds from t until it has (a problem if not
    within timeout)."""
    want = {}
    for a in list(run.load.acked):
        if a.t > t and a.offset is not None:
            want[a.partition] = max(want.get(a.partition, -1), a.offset)

    def read():
        got = {}
        for s in list(run.observer.seen):
            got[s.partition] = max(got.get(s.partition, -1), s.offset)
        return all(got.get(p, -1) >= o for p, o in want.items())
    try:
        harness.wait_until(read, timeout=timeout, interval=0.1, what="")
    except AssertionError:
        got = {}
        for s in list(run.observer.seen):
            got[s.partition] = max(got.get(s.partition, -1), s.offset)
        short = {p: "read %d of %d" % (got.get(p, -1), o) for p, o in sorted(want.items())
                 if got.get(p, -1) < o}
        problems.append("%s: the consumer did not read, within %.0f s, the records acknowledged "
                        "after the fault: highest offset read vs acknowledged %s"
                        % (what, timeout, short))
        return None
    s = time.time() - t
    run.notes.append("%s_consumed_s=%.3f" % (what, s))
    return s


def _until(c, run, topic, ok, since, label, timeout, problems, what):
    """Seconds from `since` until ok(states) (noted), or a problem."""
    try:
        _wait_states(c, topic, ok, timeout, what)
    except AssertionError as e:
        problems.append("%s: %s" % (label, e))
        run.notes.append("%s=none(>%.0fs)" % (label, timeout))
        return None
    s = time.time() - since
    run.notes.append("%s=%.3f" % (label, s))
    print("%s: %s after %.3f s" % (label, what, s))
    return s


def _catch_up(c, run, topic, since, label, problems):
    return _until(c, run, topic, _full_isr, since, label + "_catch_up_s", CATCH_UP_TIMEOUT,
                  problems, "every replica back in the ISR of every partition")


def _rebalance(c, run, topic, since, label, problems):
    return _until(c, run, topic, _preferred_lead, since, label + "_rebalance_s",
                  REBALANCE_TIMEOUT, problems,
                  "the preferred leader (first replica) leading every partition")


def _moved_off(c, run, led, gone, what, problems):
    """The partitions `gone` led have leaders elsewhere now."""
    new = _states(c, run.topic)
    moved = {p: new[p]["LeaderId"] if new[p] else None for p in led}
    run.notes.append("new_leaders=%s" % str(moved).replace(" ", ""))
    if not all(m is not None and m not in gone for m in moved.values()):
        problems.append("%s: the partitions led by nodes %s before the fault are led by %s"
                        % (what, gone, moved))


def _views(c, topic):
    """Every serving broker's Metadata view of every partition, compact:
    {partition: {node: (error code, leader, leader epoch)}}."""
    out = {}
    for p in range(PARTITIONS):
        out[p] = {n: (v["ErrorCode"], v["LeaderId"], v.get("LeaderEpoch"))
                  for n, v in sorted(c.partition_views(topic, p).items())}
    return str(out).replace(" ", "")


def _during_outage(c, run, t, label, zone, nodes, led, problems):
    """What both faults must show while they last (from `t`): writes
    resumed on every partition, the consumer reading what was acknowledged
    after the fault, the zone's leaderships moved off; with every broker's
    Metadata view in the problems when something failed."""
    run.notes.append("zone=%s nodes=%s led=%s" % (zone, nodes, led))
    res, _ = _wait_resumed(run, t)
    _resumed(run, res, label, problems)
    _consumed_after(run, t, label, problems)
    if problems:
        problems.append("%s: Metadata views {partition: {node: (error, leader, epoch)}}"
                        " %.1f s after the fault: %s" % (label, time.time() - t, _views(c, run.topic)))
    _moved_off(c, run, led, nodes, label, problems)


def _abort(c, run, scenario):
    """A scenario that failed before the check: stop the load, keep the
    evidence."""
    run.abort()
    print("notes: %s" % " ".join(run.notes))
    print("evidence: %s" % _save_evidence(c, scenario, "scenario failed before the check"))


def _finish(c, run, scenario, problems, t_test):
    """The checker (always), then every problem the scenario noted."""
    r = run.finish()
    print("%s: %.1f s from the topic to the check" % (scenario, time.time() - t_test))
    if not r.ok or problems:
        print("evidence: %s" % _save_evidence(c, scenario, "\n".join([r.summary()] + problems)))
    r.assert_ok()
    assert not problems, "\n".join(problems)


@needs_cluster
def test_zone_loss(cluster6):
    c = cluster6
    scenario = "6x-zone-loss"
    t_test = time.time()
    problems = []
    run, st = _begin(c, scenario)
    try:
        zone, victims, led = _busiest_zone(c, st)
        assert led, "zone %s leads no partition" % zone
        t = run.fault("kill9-%s" % zone, c.kill9_many(victims))
        _during_outage(c, run, t, "zone_loss", zone, victims, led, problems)
        # down past broker.session.timeout.ms (9 s): the dead brokers are fenced too
        time.sleep(max(0.0, t + ZONE_DOWN_SECONDS - time.time()))
        t_start = time.time()
        _longest_pauses(run, t, t_start, "zone_down", problems)
        for nid in victims:
            c.nodes[nid].start(wait=False)
        run.fault("start-%s" % zone, t_start)
        for nid in victims:
            c.nodes[nid].wait_ready(harness.READY_TIMEOUT)
        for nid in victims:
            c.wait_rejoined(nid, 30.0)
        run.notes.append("down_s=%.3f rejoined_s=%s" % (t_start - t, _since(t_start)))
        _catch_up(c, run, run.topic, t_start, "zone_loss", problems)
        _rebalance(c, run, run.topic, t_start, "zone_loss", problems)
        run.load.wait_acks(100, after=time.time(), timeout=30)
        _longest_pauses(run, t_start, time.time(), "zone_back", problems)
        c.check_alive()
    except BaseException:
        _abort(c, run, scenario)
        raise
    _finish(c, run, scenario, problems, t_test)


@needs_cluster
def test_zone_split(cluster6_proxied):
    c = cluster6_proxied
    scenario = "6x-zone-split"
    t_test = time.time()
    problems = []
    run, st = _begin(c, scenario)
    try:
        zone, cut, led = _busiest_zone(c, st)
        assert led, "zone %s leads no partition" % zone
        t = run.fault("split-%s" % zone, c.split(cut))
        _during_outage(c, run, t, "split", zone, cut, led, problems)
        time.sleep(max(0.0, t + SPLIT_MIN_SECONDS - time.time()))
        _longest_pauses(run, t, time.time(), "split_held", problems)
        t_heal = run.fault("heal", c.heal())
        run.notes.append("split_s=%.3f" % (t_heal - t))
        _catch_up(c, run, run.topic, t_heal, "split", problems)
        _rebalance(c, run, run.topic, t_heal, "split", problems)
        run.load.wait_acks(100, after=time.time(), timeout=30)
        _longest_pauses(run, t_heal, time.time(), "healed", problems)
        c.check_alive()
        run.notes.append(c.proxy_summary())
    except BaseException:
        _abort(c, run, scenario)
        raise
    _finish(c, run, scenario, problems, t_test)
