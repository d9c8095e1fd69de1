#!/usr/bin/env python3
"""Share groups (KIP-932) against a classic consumer group, driven by
confluent-kafka's ShareConsumer (librdkafka 2.16). Companion of
loadbench.py / groupbench.py: same helpers (imported from loadbench), same
JSON shape (the machine, raw figures and load averages next to the
results).

One run, one single-node broker (`--cores 2`; `--set
group.share.min.record.lock.duration.ms=1000` so a group may use a 1 s
lock, `group.share.heartbeat.interval.ms=1000`), in order:

  raw        - fdatasync latency (4 KiB O_DIRECT write + fdatasync loop) and
               loopback TCP throughput, on the same machine in the same run
               (every share acknowledgement is one durable write of the
               share-partition's state and a round trip);
  throughput - one 1-partition topic, --records (1,000,000) records of 1 KiB pre-produced
               (acks=all). Then, each with a fresh group reading the same
               records from the start:
                 classic  one confluent Consumer (subscribe, one member)
                 share-K  K ShareConsumer processes (K = 1, 4, 16 by
                          default), implicit acknowledgement,
                          max.poll.records 500
               Every client is its own process and waits for one shared
               start instant (CLOCK_MONOTONIC) before subscribing.
               A member stops once the group as a whole has received every
               record (members publish their counts to files every 0.5 s),
               after 10 s without a record, or at --point-seconds.
               records/s = records received / (first record .. last
               record, over all processes). With implicit acknowledgement
               a poll acknowledges the previous poll's records, so each
               record after a consumer's first batch means its previous
               batch was acknowledged; at the end every consumer is closed
               (its last acknowledgements) and a fresh member of the group
               must get nothing in 3 s (nothing left unacknowledged).
               Broker CPU is sampled every 0.1 s and taken over the same
               first..last window; each client reports its own CPU
               (getrusage, librdkafka's threads included) over its window.
  redelivery - lock expiry to redelivery: a group with
               share.record.lock.duration.ms=1000 on its own 1-partition
               topic; --rounds (50) rounds, each: --redeliver-records (1) records
               produced, a fresh "holder" ShareConsumer (explicit mode)
               acquires them and never acknowledges, a "taker" member of
               the same group (joined before, not polling meanwhile) then
               polls (poll(0.02)); latency = taker's receipt - (holder's
               poll() returning the records + 1000 ms). The holder's
               poll() return is after the broker's acquisition, so the
               figure is an upper bound of the broker's expiry time and a
               lower bound of the latency (the holder's poll call..return
               window is reported). After each round the holder
               acknowledges its expired records (RELEASE) and must be
               refused: the records are the taker's by then.
  dlq        - explicit acknowledgement, commit_sync() after every poll
               batch, one ShareConsumer process, --dlq-records (100,000) each
                 accept      every record ACCEPT
                 reject      every record REJECT, no dead-letter topic
                 reject-dlq  every record REJECT, errors.deadletterqueue.
                             topic.name=dlq.<topic> (auto-created), which
                             then must hold exactly that many records

Prints one JSON document (also written to
benches/load/sharebench_last_run.json) and a markdown table.

Usage:
  python3 benches/load/sharebench.py [--broker target/release/tidemark]
      [--work-dir /work/bench-tmp] [--records 1000000] [--consumers 1,4,16]
      [--rounds 50] [--redeliver-records 1] [--dlq-records 100000]
      [--phases raw,throughput,redelivery,dlq] [--point-seconds 40]
      [--share-conf fetch.max.bytes=1048576]

Note (2026-12-03): with librdkafka's default fetch.max.bytes (50 MB) a
ShareFetch makes the broker read and parse up to that much log to acquire
max.poll.records records, so share throughput on a long backlog is ~20x
below what --share-conf fetch.max.bytes=1048576 gives; see RESULTS.md.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "conformance"))
import loadbench as lb  # noqa: E402  (the shared helpers)

API_INCREMENTAL_ALTER = 44
GROUP_RESOURCE = 32
SIZE = 1024
LOCK_MS = 1000


def set_group_configs(bootstrap, group, configs):
    """IncrementalAlterConfigs on a group (resource type 32), as
    conformance/test_share_groups.py does."""
    import rawkafka
    with rawkafka.KafkaConn(bootstrap) as c:
        r = c.request(API_INCREMENTAL_ALTER, 1, {
            "Resources": [{"ResourceType": GROUP_RESOURCE, "ResourceName": group, "Configs": [
                {"Name": k, "ConfigOperation": 0, "Value": str(v)} for k, v in configs.items()]}],
            "ValidateOnly": False})
    res = r["Responses"][0]
    if res["ErrorCode"] != 0:
        raise RuntimeError(f"IncrementalAlterConfigs {group}: {res}")


def ranges(offsets):
    """Sorted offsets as [first, last] runs (compact JSON)."""
    out = []
    for o in sorted(offsets):
        if out and o == out[-1][1] + 1:
            out[-1][1] = o
        else:
            out.append([o, o])
    return out


def wait_until(t):
    while time.monotonic() < t:
        time.sleep(0.001)


# --------------------------------------------------------------------------
# client roles (each runs in its own process)


def role_share_consumer(a):
    """One share group member, implicit acknowledgement: polls from the
    shared start instant until nothing came for idle_s (or the point's
    time is up), then closes (its last acknowledgements)."""
    from confluent_kafka import ShareConsumer

    conf = {"bootstrap.servers": a["bootstrap"], "group.id": a["group"],
            "max.poll.records": a["max_poll_records"], "client.id": "share-%d" % a["index"]}
    conf.update(a.get("extra_conf", {}))
    c = ShareConsumer(conf)
    mine = os.path.join(a["progress_dir"], str(a["index"]))

    def group_total():
        """Records received by all members so far (each writes its count
        to a file every 0.5 s), so a starved member does not leave early."""
        n = 0
        for f in os.listdir(a["progress_dir"]):
            try:
                with open(os.path.join(a["progress_dir"], f)) as fh:
                    n += int(fh.read() or 0)
            except (OSError, ValueError):
                pass
        return n

    def publish(n):
        with open(mine + ".tmp", "w") as fh:
            fh.write(str(n))
        os.replace(mine + ".tmp", mine)
    wait_until(a["start_at"])
    cpu0 = lb.client_cpu_self()
    c.subscribe([a["topic"]])
    offsets = []
    redelivered = 0
    errors = []
    first = last = None
    cpu_first = cpu_last = None
    polls = 0
    progress = []  # (seconds after start, records so far), every second
    next_mark = a["start_at"] + 1.0
    next_pub = a["start_at"] + 0.5
    end = a["start_at"] + a["max_seconds"]
    while time.monotonic() < end:
        msgs = c.poll(0.2)
        polls += 1
        now = time.monotonic()
        if now >= next_mark:
            progress.append((round(now - a["start_at"], 2), len(offsets)))
            next_mark += 1.0
        if now >= next_pub:
            publish(len(offsets))
            next_pub = now + 0.5
            if group_total() >= a["expected"]:
                break
        got = 0
        for m in msgs:
            if m.error():
                if len(errors) < 5:
                    errors.append(str(m.error()))
                continue
            got += 1
            offsets.append(m.offset())
            if m.delivery_count() != 1:
                redelivered += 1
        if got:
            if first is None:
                first, cpu_first = now, lb.client_cpu_self()
            last, cpu_last = now, lb.client_cpu_self()
        elif last is not None and now - last > a["idle_s"]:
            break
        elif first is None and now - a["start_at"] > a["first_wait_s"]:
            break
    publish(len(offsets))
    t = time.monotonic()
    c.close()
    close_s = time.monotonic() - t
    print(json.dumps({"index": a["index"], "records": len(offsets), "redelivered": redelivered,
                      "first_s": None if first is None else round(first - a["start_at"], 4),
                      "last_s": None if last is None else round(last - a["start_at"], 4),
                      "window_cpu_s": None if cpu_first is None else round(cpu_last - cpu_first, 3),
                      "cpu_s": round(lb.client_cpu_self() - cpu0, 3), "polls": polls,
                      "close_s": round(close_s, 3), "errors": errors, "progress": progress,
                      "offset_ranges": ranges(offsets), "duplicates_within": len(offsets) - len(set(offsets))}))


def role_classic_consumer(a):
    """One classic group member (subscribe) reading the topic from the
    start, consume(500) batches, auto-commit (librdkafka's default)."""
    from confluent_kafka import Consumer

    c = Consumer({"bootstrap.servers": a["bootstrap"], "group.id": a["group"],
                  "auto.offset.reset": "earliest", "client.id": "classic"})
    wait_until(a["start_at"])
    cpu0 = lb.client_cpu_self()
    c.subscribe([a["topic"]])
    n = 0
    errors = []
    first = last = None
    cpu_first = cpu_last = None
    end = a["start_at"] + a["max_seconds"]
    while n < a["expected"] and time.monotonic() < end:
        msgs = c.consume(num_messages=500, timeout=0.2)
        now = time.monotonic()
        got = 0
        for m in msgs:
            if m.error():
                if len(errors) < 5:
                    errors.append(str(m.error()))
                continue
            got += 1
        if got:
            n += got
            if first is None:
                first, cpu_first = now, lb.client_cpu_self()
            last, cpu_last = now, lb.client_cpu_self()
    c.close()
    print(json.dumps({"index": 0, "records": n, "redelivered": 0,
                      "first_s": None if first is None else round(first - a["start_at"], 4),
                      "last_s": None if last is None else round(last - a["start_at"], 4),
                      "window_cpu_s": None if cpu_first is None else round(cpu_last - cpu_first, 3),
                      "cpu_s": round(lb.client_cpu_self() - cpu0, 3), "errors": errors}))


def role_leftover(a):
    """A fresh member of a share group after the measured members closed:
    counts what it gets in a few seconds (should be nothing)."""
    from confluent_kafka import ShareConsumer

    c = ShareConsumer({"bootstrap.servers": a["bootstrap"], "group.id": a["group"]})
    c.subscribe([a["topic"]])
    got = []
    end = time.monotonic() + a["seconds"]
    while time.monotonic() < end:
        for m in c.poll(0.2):
            if not m.error():
                got.append((m.offset(), m.delivery_count()))
    c.close()
    print(json.dumps({"records": len(got), "sample": got[:10]}))


def role_dlq_consumer(a):
    """Explicit acknowledgement: every record ACCEPT or REJECT, commit_sync
    after every poll batch; stops after a["records"] records."""
    from confluent_kafka import AcknowledgeType, ShareConsumer

    kind = AcknowledgeType.ACCEPT if a["ack"] == "accept" else AcknowledgeType.REJECT
    c = ShareConsumer({"bootstrap.servers": a["bootstrap"], "group.id": a["group"],
                       "share.acknowledgement.mode": "explicit",
                       "max.poll.records": a["max_poll_records"]})
    wait_until(a["start_at"])
    cpu0 = lb.client_cpu_self()
    c.subscribe([a["topic"]])
    n = 0
    commits = 0
    commit_errors = []
    commit_lat = []
    first = last = None
    cpu_first = cpu_last = None
    end = a["start_at"] + a["max_seconds"]
    while n < a["records"] and time.monotonic() < end:
        msgs = [m for m in c.poll(0.2) if not m.error()]
        if not msgs:
            continue
        if first is None:
            first, cpu_first = time.monotonic(), lb.client_cpu_self()
        for m in msgs:
            c.acknowledge(m, kind)
        t = time.monotonic_ns()
        r = c.commit_sync(30)
        commit_lat.append(time.monotonic_ns() - t)
        commits += 1
        bad = {str(k): str(v) for k, v in r.items() if v is not None}
        if bad and len(commit_errors) < 5:
            commit_errors.append(bad)
        n += len(msgs)
        last, cpu_last = time.monotonic(), lb.client_cpu_self()
    c.close()
    wall = (last - first) if first is not None and last > first else None
    print(json.dumps({"records": n, "commits": commits, "commit_errors": commit_errors,
                      "first_s": None if first is None else round(first - a["start_at"], 4),
                      "last_s": None if last is None else round(last - a["start_at"], 4),
                      "records_per_s": round(n / wall, 1) if wall else None,
                      "window_s": round(wall, 3) if wall else None,
                      "window_cpu_s": None if cpu_first is None else round(cpu_last - cpu_first, 3),
                      "cpu_s": round(lb.client_cpu_self() - cpu0, 3),
                      "commit_sync": lb.summary_us(commit_lat)}))


def role_redelivery(a):
    """Lock expiry to redelivery, a["rounds"] rounds (see the module doc)."""
    from confluent_kafka import AcknowledgeType, Producer, ShareConsumer

    bs, group, topic = a["bootstrap"], a["group"], a["topic"]
    k = a["records"]
    p = Producer({"bootstrap.servers": bs, "acks": "all", "linger.ms": 0})

    def produce(n, tag):
        for i in range(n):
            p.produce(topic, value=(b"%s-%d-" % (tag, i)).ljust(SIZE, b"r"), partition=0)
        if p.flush(10) != 0:
            raise RuntimeError("produce did not finish")

    rounds = []
    for r in range(a["rounds"]):
        produce(k, b"round%d" % r)
        holder = ShareConsumer({"bootstrap.servers": bs, "group.id": group, "client.id": "holder-%d" % r,
                                "share.acknowledgement.mode": "explicit", "max.poll.records": k})
        holder.subscribe([topic])
        held = []
        acq_call = acq_ret = None
        end = time.monotonic() + 20
        while not held and time.monotonic() < end:
            t0 = time.monotonic()
            msgs = [m for m in holder.poll(0.2) if not m.error()]
            if msgs:
                acq_call, acq_ret = t0, time.monotonic()
                held = msgs
        if not held:
            raise RuntimeError("round %d: holder got nothing" % r)
        # The taker joins only now: a subscribed librdkafka share consumer
        # fetches in the background even while the application is not
        # polling, so a taker joined earlier would acquire the records
        # itself. Joining and its first ShareFetch take ~0.1 s, well
        # inside the 1 s lock (taker_subscribed_ms_before_expiry).
        taker = ShareConsumer({"bootstrap.servers": bs, "group.id": group, "client.id": "taker-%d" % r})
        taker.subscribe([topic])
        sub_at = time.monotonic()
        held_offsets = sorted(m.offset() for m in held)
        expiry = acq_ret + LOCK_MS / 1000
        got = {}
        other = []
        end = acq_ret + 15
        while len(got) < len(held) and time.monotonic() < end:
            msgs = taker.poll(0.02)
            now = time.monotonic()
            for m in msgs:
                if m.error():
                    continue
                if m.offset() in held_offsets and m.offset() not in got:
                    got[m.offset()] = (now, m.delivery_count())
                else:
                    other.append((m.offset(), m.delivery_count()))
        # The holder's stale acknowledgement must be refused: the records
        # are the taker's now (acquired, not yet acknowledged).
        for m in held:
            holder.acknowledge(m, AcknowledgeType.RELEASE)
        stale = holder.commit_sync(10)
        stale_refused = all(v is not None for v in stale.values()) if stale else None
        holder.close()
        # The taker's next poll acknowledges them (implicit); nothing more
        # may come.
        for _ in range(10):
            for m in taker.poll(0.1):
                if not m.error():
                    other.append((m.offset(), m.delivery_count()))
        taker.close()
        rounds.append({
            "round": r, "held": held_offsets, "held_delivery_counts": sorted({m.delivery_count() for m in held}),
            "acquire_poll_window_ms": round((acq_ret - acq_call) * 1000, 1),
            "taker_subscribed_ms_before_expiry": round((expiry - sub_at) * 1000, 1),
            "latency_ms": {str(o): round((t - expiry) * 1000, 1) for o, (t, _) in sorted(got.items())},
            "delivery_counts": sorted({dc for _, dc in got.values()}),
            "missing": [o for o in held_offsets if o not in got],
            "taker_got_otherwise": other,
            "stale_release": {str(k2): (None if v is None else str(v)) for k2, v in stale.items()},
            "stale_release_refused": stale_refused,
        })
    print(json.dumps({"rounds": rounds}))


# --------------------------------------------------------------------------
# orchestration


def run_parallel(roles, timeout, log_path):
    """Start every (role, args) at once; return their JSON outputs."""
    procs = []
    with open(log_path, "ab") as log:
        for role, args in roles:
            cmd = [sys.executable, os.path.abspath(__file__), "--role", role, "--role-args", json.dumps(args)]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log))
        outs = []
        deadline = time.monotonic() + timeout
        for p in procs:
            try:
                out, _ = p.communicate(timeout=max(1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                for q in procs:
                    if q.poll() is None:
                        q.kill()  # our own child, by its handle
                        q.wait()
                raise RuntimeError("client processes did not finish in time; see " + log_path)
            lines = out.decode().strip().splitlines()
            if p.returncode != 0 or not lines:
                raise RuntimeError(f"client rc={p.returncode}; see {log_path}")
            outs.append(json.loads(lines[-1]))
    return outs


class CpuSampler:
    """Broker CPU and machine busy time every `every` s, so a phase's CPU
    can be taken over the window the clients measured."""

    def __init__(self, pid, every=0.1):
        self.pid, self.every = pid, every
        self.samples = []
        self.stop = threading.Event()
        self.t = threading.Thread(target=self.run, daemon=True)

    def run(self):
        for _ in range(100000):
            try:
                self.samples.append((time.monotonic(), lb.proc_cpu_s(self.pid), lb.machine_cpu()[0]))
            except (FileNotFoundError, ProcessLookupError):
                return
            if self.stop.wait(self.every):
                return

    def __enter__(self):
        self.t.start()
        return self

    def __exit__(self, *a):
        self.stop.set()
        self.t.join(5)

    def over(self, t0, t1):
        """(broker cpu s, machine busy s) between the samples nearest t0, t1."""
        if not self.samples or t1 <= t0:
            return None, None
        a = min(self.samples, key=lambda s: abs(s[0] - t0))
        b = min(self.samples, key=lambda s: abs(s[0] - t1))
        if b[0] <= a[0]:
            return None, None
        scale = (t1 - t0) / (b[0] - a[0])
        return (b[1] - a[1]) * scale, (b[2] - a[2]) * scale


def throughput_point(name, members, start_at, sampler, expected):
    have = [m for m in members if m["first_s"] is not None]
    out = {"name": name, "processes": len(members), "records": sum(m["records"] for m in members),
           "expected": expected, "per_process_records": [m["records"] for m in members],
           "redelivered": sum(m["redelivered"] for m in members),
           "client_errors": [e for m in members for e in m["errors"]][:5]}
    if not have:
        out["records_per_s"] = None
        return out
    t0 = start_at + min(m["first_s"] for m in have)
    t1 = start_at + max(m["last_s"] for m in have)
    wall = t1 - t0
    bcpu, mbusy = sampler.over(t0, t1)
    ccpu = sum(m["window_cpu_s"] or 0 for m in have)
    n = out["records"]
    out.update({
        "first_record_s": round(t0 - start_at, 3),
        "window_s": round(wall, 3),
        "records_per_s": round(n / wall, 1) if wall > 0 else None,
        "MBps": round(n * SIZE / wall / 1e6, 1) if wall > 0 else None,
        "broker_cores": round(bcpu / wall, 3) if bcpu is not None else None,
        "clients_cores": round(ccpu / wall, 3) if wall > 0 else None,
        "machine_busy_cores": round(mbusy / wall, 3) if mbusy is not None else None,
        "broker_cpu_us_per_record": round(bcpu / n * 1e6, 2) if bcpu is not None and n else None,
        "clients_cpu_us_per_record": round(ccpu / n * 1e6, 2) if n else None,
        "per_process_window_s": [None if m["first_s"] is None else round(m["last_s"] - m["first_s"], 3) for m in members],
        "close_s_max": max((m.get("close_s", 0) for m in members), default=0),
    })
    if len(members) == 1 and members[0].get("progress"):
        # records/s in each second (does the rate hold as the offset grows?)
        pr = members[0]["progress"]
        out["rate_by_second"] = [round((pr[i][1] - pr[i - 1][1]) / (pr[i][0] - pr[i - 1][0]))
                                 for i in range(1, len(pr))]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--role")
    ap.add_argument("--role-args")
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--work-dir", default="/work/bench-tmp")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--records", type=int, default=1000000, help="pre-produced records (throughput)")
    ap.add_argument("--consumers", default="1,4,16")
    ap.add_argument("--max-poll-records", type=int, default=500)
    ap.add_argument("--point-seconds", type=float, default=40, help="cap per throughput point")
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--redeliver-records", type=int, default=1)
    ap.add_argument("--dlq-records", type=int, default=100000)
    ap.add_argument("--phases", default="raw,throughput,redelivery,dlq")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--share-conf", action="append", default=[], metavar="NAME=VALUE",
                    help="extra ShareConsumer setting for the throughput members, e.g. fetch.max.bytes=1048576")
    ap.add_argument("--keep-data", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "sharebench_last_run.json"))
    args = ap.parse_args()

    if args.role:
        ra = json.loads(args.role_args)
        {"share_consumer": role_share_consumer, "classic_consumer": role_classic_consumer,
         "leftover": role_leftover, "dlq_consumer": role_dlq_consumer,
         "redelivery": role_redelivery}[args.role](ra)
        return

    import confluent_kafka
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient

    phases = set(args.phases.split(","))
    extra_conf = dict(kv.split("=", 1) for kv in args.share_conf)

    def log(*m):
        print(f"[{time.strftime('%H:%M:%S')}]", *m, file=sys.stderr, flush=True)

    os.makedirs(args.work_dir, exist_ok=True)
    run_dir = tempfile.mkdtemp(prefix="sharebench-", dir=args.work_dir)
    res = {
        "benchmark": "tidemark share groups (benches/load/sharebench.py)",
        "command": " ".join([os.path.basename(sys.executable)] + [os.path.relpath(sys.argv[0], REPO)] + sys.argv[1:]),
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": lb.machine_info(),
        "loadavg_start": lb.loadavg(),
        "clients": {"confluent_kafka": confluent_kafka.__version__, "librdkafka": confluent_kafka.libversion()[0]},
        "work_dir": run_dir,
        "problems": [],
    }
    problems = res["problems"]

    if "raw" in phases:
        log("raw fdatasync + loopback")
        res["raw"] = {
            "fdatasync_4KiB": lb.raw_fdatasync(os.path.join(run_dir, "sync.4k"), 4096, 2000, 2),
            "loopback_tcp": lb.raw_loopback(2.0),
        }

    port = lb.free_port()
    data_dir = os.path.join(run_dir, "data")
    blog_path = os.path.join(run_dir, "broker.log")
    clog_path = os.path.join(run_dir, "clients.log")
    settings = ["group.share.min.record.lock.duration.ms=1000",
                "group.share.heartbeat.interval.ms=1000"] + args.set
    bcmd = [args.broker, "--data-dir", data_dir, "--admin-addr", "127.0.0.1:0", "--kafka-addr", f"127.0.0.1:{port}",
            "--advertise-kafka-addr", f"127.0.0.1:{port}", "--cores", str(args.cores)]
    for kv in settings:
        bcmd += ["--set", kv]
    res["broker_command"] = " ".join(bcmd)
    st = os.stat(args.broker)
    res["broker_binary"] = {"path": args.broker, "mtime": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(st.st_mtime))}
    log("starting broker:", " ".join(bcmd))
    blog = open(blog_path, "wb")
    broker = subprocess.Popen(bcmd, stdout=blog, stderr=subprocess.STDOUT)
    bpid = broker.pid
    bootstrap = f"127.0.0.1:{port}"
    try:
        res["broker_start_seconds"] = round(lb.wait_port(port, broker), 3)
        admin = AdminClient({"bootstrap.servers": bootstrap})
        topic = "share-tput"
        errs = lb.create_topics(admin, [(topic, 1)])
        if errs:
            raise RuntimeError(f"create {topic}: {errs}")
        need = args.records if "throughput" in phases else 0
        need = max(need, args.dlq_records if "dlq" in phases else 0)
        if need:
            log("pre-producing", need, "records of 1 KiB")
            p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5,
                          "queue.buffering.max.messages": 500000, "batch.num.messages": 10000})
            value = b"v" * SIZE
            t = time.monotonic()
            for i in range(need):
                for _ in range(100000):
                    try:
                        p.produce(topic, value=value, partition=0)
                        break
                    except BufferError:
                        p.poll(0.01)
                p.poll(0)
            if p.flush(120) != 0:
                raise RuntimeError("pre-produce did not finish")
            res["pre_produce"] = {"records": need, "seconds": round(time.monotonic() - t, 3)}
            del p

        if "throughput" in phases:
            res["throughput"] = {"records": args.records, "max_poll_records": args.max_poll_records,
                                 "points": {}}
            points = [("classic", 1)] + [(f"share-{k}", int(k)) for k in args.consumers.split(",")]
            for name, k in points:
                group = f"g-{name}"
                if name != "classic":
                    set_group_configs(bootstrap, group, {"share.auto.offset.reset": "earliest"})
                log("throughput:", name)
                start_at = time.monotonic() + 2.0 + 0.25 * k
                common = {"bootstrap": bootstrap, "group": group, "topic": topic, "start_at": start_at,
                          "max_seconds": args.point_seconds, "expected": args.records,
                          "max_poll_records": args.max_poll_records, "idle_s": 10.0,
                          "first_wait_s": args.point_seconds, "extra_conf": extra_conf,
                          "progress_dir": os.path.join(run_dir, "progress-" + name)}
                os.makedirs(common["progress_dir"], exist_ok=True)
                role = "classic_consumer" if name == "classic" else "share_consumer"
                roles = [(role, dict(common, index=i)) for i in range(k)]
                with lb.PhaseMeter(bpid) as pm, CpuSampler(bpid) as smp:
                    members = run_parallel(roles, args.point_seconds + 60 + 0.25 * k, clog_path)
                r = throughput_point(name, members, start_at, smp, args.records)
                r["phase"] = pm.result(sum(m["cpu_s"] for m in members))
                if name != "classic":
                    seen = [tuple(x) for m in members for x in m["offset_ranges"]]
                    covered = sum(b - a + 1 for a, b in seen)
                    r["distinct_offsets_ok"] = covered == r["records"] and not any(m["duplicates_within"] for m in members)
                    left = run_parallel([("leftover", {"bootstrap": bootstrap, "group": group, "topic": topic,
                                                       "seconds": 3.0})], 60, clog_path)[0]
                    r["left_unacknowledged"] = left["records"]
                    if left["records"]:
                        problems.append(f"{name}: a fresh member got {left['records']} records after the others closed, e.g. {left['sample']}")
                    if not r["distinct_offsets_ok"]:
                        problems.append(f"{name}: offsets delivered more than once across members")
                if r["records"] < args.records:
                    problems.append(f"{name}: {r['records']} of {args.records} records within {args.point_seconds} s")
                if r["client_errors"]:
                    problems.append(f"{name}: client errors {r['client_errors'][:3]}")
                res["throughput"]["points"][name] = r
                log(name, r.get("records_per_s"), "records/s; broker", r.get("broker_cores"), "cores, clients",
                    r.get("clients_cores"))
            base = res["throughput"]["points"]["classic"].get("records_per_s")
            for name, r in res["throughput"]["points"].items():
                r["ratio_to_classic"] = round(r["records_per_s"] / base, 3) if base and r.get("records_per_s") else None

        if "redelivery" in phases:
            rtopic = "share-redeliver"
            errs = lb.create_topics(admin, [(rtopic, 1)])
            if errs:
                raise RuntimeError(f"create {rtopic}: {errs}")
            group = "g-redeliver"
            set_group_configs(bootstrap, group, {"share.auto.offset.reset": "earliest",
                                                 "share.record.lock.duration.ms": LOCK_MS})
            log("redelivery:", args.rounds, "rounds of", args.redeliver_records, "records, lock", LOCK_MS, "ms")
            with lb.PhaseMeter(bpid) as pm:
                out = run_parallel([("redelivery", {"bootstrap": bootstrap, "group": group, "topic": rtopic,
                                                    "rounds": args.rounds, "records": args.redeliver_records})],
                                   60 + args.rounds * 20, clog_path)[0]
            lat = sorted(v for r in out["rounds"] for v in r["latency_ms"].values())
            f = lambda q: lb.pct(lat, q)
            rr = {"lock_ms": LOCK_MS, "rounds": args.rounds, "records_per_round": args.redeliver_records,
                  "samples": len(lat),
                  "latency_ms": {"p50": f(50), "p90": f(90), "p99": f(99), "min": lat[0] if lat else None,
                                 "max": lat[-1] if lat else None},
                  "acquire_poll_window_ms_max": max(r["acquire_poll_window_ms"] for r in out["rounds"]),
                  "per_round_p50_ms": [lb.pct(sorted(r["latency_ms"].values()), 50) for r in out["rounds"]],
                  "phase": pm.result(), "detail": out["rounds"]}
            res["redelivery"] = rr
            for r in out["rounds"]:
                if r["missing"] or r["taker_got_otherwise"] or r["held_delivery_counts"] != [1]:
                    problems.append(f"redelivery round {r['round']}: missing {r['missing']}, taker got otherwise {r['taker_got_otherwise']}, held counts {r['held_delivery_counts']}")
                if r["delivery_counts"] and r["delivery_counts"] != [2]:
                    problems.append(f"redelivery round {r['round']}: delivery counts {r['delivery_counts']}")
                if r["stale_release_refused"] is False:
                    problems.append(f"redelivery round {r['round']}: the holder's RELEASE after its lock expired was accepted: {r['stale_release']}")
            log("redelivery p50/p99", rr["latency_ms"]["p50"], rr["latency_ms"]["p99"], "ms")

        if "dlq" in phases:
            res["dlq"] = {"records": args.dlq_records, "max_poll_records": args.max_poll_records, "points": {}}
            dlq_topic = "dlq." + topic
            for name, ack, cfg in (("accept", "accept", {}), ("reject", "reject", {}),
                                   ("reject-dlq", "reject", {"errors.deadletterqueue.topic.name": dlq_topic})):
                group = f"g-dlq-{name}"
                set_group_configs(bootstrap, group, dict({"share.auto.offset.reset": "earliest"}, **cfg))
                log("dlq:", name)
                start_at = time.monotonic() + 2.0
                with lb.PhaseMeter(bpid) as pm, CpuSampler(bpid) as smp:
                    o = run_parallel([("dlq_consumer", {"bootstrap": bootstrap, "group": group, "topic": topic,
                                                        "ack": ack, "records": args.dlq_records,
                                                        "max_poll_records": args.max_poll_records,
                                                        "start_at": start_at, "max_seconds": args.point_seconds})],
                                     args.point_seconds + 60, clog_path)[0]
                o["phase"] = pm.result(o["cpu_s"])
                if o["window_s"]:
                    bcpu, _ = smp.over(start_at + o["first_s"], start_at + o["last_s"])
                    n = o["records"]
                    o["broker_cores"] = round(bcpu / o["window_s"], 3) if bcpu is not None else None
                    o["client_cores"] = round(o["window_cpu_s"] / o["window_s"], 3)
                    o["broker_cpu_us_per_record"] = round(bcpu / n * 1e6, 2) if bcpu is not None else None
                    o["client_cpu_us_per_record"] = round(o["window_cpu_s"] / n * 1e6, 2)
                res["dlq"]["points"][name] = o
                if o["commit_errors"]:
                    problems.append(f"dlq {name}: commit_sync errors {o['commit_errors'][:3]}")
                if o["records"] < args.dlq_records:
                    problems.append(f"dlq {name}: {o['records']} of {args.dlq_records} in {args.point_seconds} s")
                log(name, o["records_per_s"], "records/s")
            base = res["dlq"]["points"]["accept"]["records_per_s"]
            for o in res["dlq"]["points"].values():
                o["ratio_to_accept"] = round(o["records_per_s"] / base, 3) if base and o["records_per_s"] else None
            # The dead-letter topic must hold one record per rejection.
            from confluent_kafka import Consumer, TopicPartition
            c = Consumer({"bootstrap.servers": bootstrap, "group.id": "wm"})
            try:
                lo, hi = c.get_watermark_offsets(TopicPartition(dlq_topic, 0), timeout=10)
                md = admin.list_topics(dlq_topic, timeout=10).topics[dlq_topic]
                parts = len(md.partitions)
                total = 0
                for pnum in range(parts):
                    lo, hi = c.get_watermark_offsets(TopicPartition(dlq_topic, pnum), timeout=10)
                    total += hi - lo
            finally:
                c.close()
            res["dlq"]["dead_letter_topic"] = {"name": dlq_topic, "partitions": parts, "records": total}
            want = res["dlq"]["points"]["reject-dlq"]["records"]
            if total != want:
                problems.append(f"dead-letter topic holds {total} records, {want} were rejected")

        del admin
        stp = lb.proc_status(bpid)
        res["broker_final"] = {"peak_rss_MB": round(stp["VmHWM"] / 1024, 1),
                               "cpu_s_total": round(lb.proc_cpu_s(bpid), 3)}
    finally:
        if broker.poll() is None:
            broker.terminate()  # SIGTERM to our broker's PID
            try:
                res["broker_shutdown_rc"] = broker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                broker.kill()
                broker.wait()
                problems.append("broker did not exit within 30 s of SIGTERM; killed")
        else:
            problems.append(f"broker exited during the run rc={broker.returncode}")
        blog.close()
        with open(blog_path, "rb") as f:
            lines = f.read().decode(errors="replace").splitlines()
        bad = [l for l in lines if (" ERROR " in l or " WARN " in l or "panicked" in l)]
        res["broker_log"] = {"lines": len(lines), "warn_error_lines": len(bad), "warn_error_sample": bad[:10]}
        if bad:
            problems.append(f"broker logged {len(bad)} WARN/ERROR lines, e.g. {bad[0][:300]}")
        try:
            with open(clog_path, "rb") as f:
                cl = f.read().decode(errors="replace").splitlines()
        except FileNotFoundError:
            cl = []
        other = [l for l in cl if "Preview" not in l]
        res["client_log"] = {"lines": len(cl), "other_than_preview_warning": len(other), "sample": other[:15]}
        if not args.keep_data:
            shutil.rmtree(run_dir, ignore_errors=True)

    res["loadavg_end"] = lb.loadavg()
    res["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    res["summary"] = summary(res)
    text = json.dumps(res, indent=2)
    with open(args.out, "w") as f:
        f.write(text + "\n")
    print(text)
    print(markdown(res))


def summary(res):
    s = {}
    for name, r in res.get("throughput", {}).get("points", {}).items():
        s[f"throughput_{name}"] = {k: r.get(k) for k in ("records_per_s", "ratio_to_classic", "broker_cores",
                                                         "clients_cores", "broker_cpu_us_per_record")}
    if "redelivery" in res:
        s["redelivery_ms"] = res["redelivery"]["latency_ms"]
    for name, o in res.get("dlq", {}).get("points", {}).items():
        s[f"dlq_{name}"] = {"records_per_s": o["records_per_s"], "ratio_to_accept": o.get("ratio_to_accept"),
                            "commit_sync_p50_ms": o["commit_sync"].get("p50_ms")}
    raw = res.get("raw", {})
    s["raw_fdatasync_4KiB_p50_ms"] = raw.get("fdatasync_4KiB", {}).get("p50_ms")
    s["raw_loopback_MBps"] = raw.get("loopback_tcp", {}).get("MBps")
    s["loadavg_start_end"] = [res["loadavg_start"], res["loadavg_end"]]
    s["problems"] = len(res["problems"])
    return s


def markdown(res):
    out = []
    tp = res.get("throughput", {}).get("points", {})
    if tp:
        out += ["| reader | records/s | x classic | MB/s | broker cores | clients cores | broker us/record | clients us/record |",
                "|---|---|---|---|---|---|---|---|"]
        for name, r in tp.items():
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                name, r.get("records_per_s"), r.get("ratio_to_classic"), r.get("MBps"), r.get("broker_cores"),
                r.get("clients_cores"), r.get("broker_cpu_us_per_record"), r.get("clients_cpu_us_per_record")))
    if "redelivery" in res:
        l = res["redelivery"]["latency_ms"]
        out += ["", "| lock expiry to redelivery (lock %d ms, %d records) | p50 | p90 | p99 | max |" % (
            res["redelivery"]["lock_ms"], res["redelivery"]["samples"]), "|---|---|---|---|---|",
                "| ms | %s | %s | %s | %s |" % (l["p50"], l["p90"], l["p99"], l["max"])]
    dl = res.get("dlq", {}).get("points", {})
    if dl:
        out += ["", "| explicit, commit_sync per batch | records/s | x accept | commit_sync p50 / p99 ms | broker CPU us/record |",
                "|---|---|---|---|---|"]
        for name, o in dl.items():
            out.append("| %s | %s | %s | %s / %s | %s |" % (name, o["records_per_s"], o.get("ratio_to_accept"),
                                                            o["commit_sync"].get("p50_ms"), o["commit_sync"].get("p99_ms"),
                                                            o.get("broker_cpu_us_per_record")))
    raw = res.get("raw", {})
    if raw:
        out += ["", "raw in the same run: fdatasync 4 KiB p50 %s ms, loopback TCP %s MB/s; load average %s -> %s" % (
            raw.get("fdatasync_4KiB", {}).get("p50_ms"), raw.get("loopback_tcp", {}).get("MBps"),
            res["loadavg_start"], res["loadavg_end"])]
    if res["problems"]:
        out += ["", "problems:"] + ["- " + p for p in res["problems"]]
    return "\n".join(out)


if __name__ == "__main__":
    main()
