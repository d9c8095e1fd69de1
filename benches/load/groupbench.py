#!/usr/bin/env python3
"""Consumer-group benchmark for the tidemark broker, driven by librdkafka
(confluent-kafka). Companion of loadbench.py (same helpers, same JSON
shape: the machine, raw figures and load averages next to the results).

One run does, in order:
  raw        - fdatasync latency (4 KiB O_DIRECT write + fdatasync loop) and
               loopback TCP throughput on the same machine in the same run
               (a commit is one fsync'd append and one loopback round trip);
  rebalance  - for each mode (classic range, classic cooperative-sticky,
               group.protocol=consumer): a fresh 100-partition topic with 5
               messages per partition, then N consumer processes (default
               10) subscribe to one new group at one shared instant (a
               barrier on CLOCK_MONOTONIC, so process start-up is not
               counted). Each records its assignment callbacks and its first
               message. Reported: time from the first subscribe to every
               partition assigned (the last assignment change, once the
               final assignment covers all partitions, disjoint, every
               consumer with some), and from each consumer's subscribe to
               its first message (p50 / max), plus the number of assignment
               callbacks per consumer (1 = one rebalance);
  commit     - OffsetCommit throughput: one client and N clients (separate
               processes, one group each, assign() without membership),
               synchronous (one commit in flight per client) and
               asynchronous (up to --async-window in flight), each for a
               fixed time; commits/s counts acknowledged commits without
               error.
Broker CPU and whole-machine CPU are taken per phase (loadbench's
PhaseMeter), with load averages at start and end, so other builders' load
on the machine shows.

Prints one JSON document and writes it to benches/load/groupbench_last_run.json.
The data dir must be on the real disk (not tmpfs); it is deleted at the end.

Usage:
  python3 benches/load/groupbench.py [--broker target/release/tidemark]
      [--work-dir /work/bench-tmp] [--consumers 10] [--partitions 100]
      [--modes range,cooperative-sticky,consumer] [--commit-seconds 5]
      [--phases raw,rebalance,commit] [--set NAME=VALUE ...] [--out FILE]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import loadbench as lb  # noqa: E402  (the shared helpers)


# --------------------------------------------------------------------------
# client roles (each runs in its own process)


def role_rb_consumer(a):
    """One member: waits for the shared start instant, subscribes, polls
    until the window ends; reports its assignment events and first
    message, times relative to the start instant."""
    from confluent_kafka import Consumer

    conf = {
        "bootstrap.servers": a["bootstrap"],
        "group.id": a["group"],
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "fetch.wait.max.ms": 100,
        "client.id": "rb-%d" % a["index"],
    }
    if a["mode"] == "consumer":
        conf["group.protocol"] = "consumer"
    else:
        conf["partition.assignment.strategy"] = a["mode"]
    c = Consumer(conf)
    t0 = a["start_at"]
    events = []

    def ev(kind):
        return lambda _c, ps: events.append(
            (kind, round(time.monotonic() - t0, 4), sorted(p.partition for p in ps)))

    while time.monotonic() < t0:
        time.sleep(0.001)
    subscribed = time.monotonic() - t0
    c.subscribe([a["topic"]], on_assign=ev("assign"), on_revoke=ev("revoke"), on_lost=ev("lost"))
    first = None
    n = 0
    end = t0 + a["window_s"]
    while time.monotonic() < end:
        for m in c.consume(num_messages=500, timeout=0.05):
            if m.error():
                continue
            n += 1
            if first is None:
                first = time.monotonic() - t0
    # Callbacks from here on come from leaving the group: not counted.
    close_at = time.monotonic() - t0
    c.close()
    events = [e for e in events if e[1] < close_at]
    print(json.dumps({"index": a["index"], "subscribed_s": round(subscribed, 4),
                      "close_s": round(close_at, 4),
                      "first_message_s": None if first is None else round(first, 4),
                      "messages": n, "events": events, "cpu_s": round(lb.client_cpu_self(), 3)}))


def role_committer(a):
    """Commits one partition's offset (increasing) as fast as it can for a
    fixed time: synchronous, or asynchronous with a bounded window."""
    from confluent_kafka import Consumer, TopicPartition

    done = {"ok": 0, "err": 0}
    lat = []

    def cb(err, _parts):
        done["err" if err else "ok"] += 1

    conf = {"bootstrap.servers": a["bootstrap"], "group.id": a["group"], "enable.auto.commit": False}
    if a["async"]:
        conf["on_commit"] = cb
    c = Consumer(conf)
    tp = lambda off: [TopicPartition(a["topic"], a["partition"], off)]
    # The first commit finds the coordinator (not timed, not counted).
    c.commit(offsets=tp(0), asynchronous=False)
    c.poll(0.1)
    done.update(ok=0, err=0)
    while time.monotonic() < a["start_at"]:
        time.sleep(0.001)
    t0 = time.monotonic()
    end = t0 + a["seconds"]
    sent = 0
    off = 1
    while time.monotonic() < end:
        if a["async"]:
            if sent - done["ok"] - done["err"] >= a["window"]:
                c.poll(0.001)
                continue
            c.commit(offsets=tp(off), asynchronous=True)
            sent += 1
            c.poll(0)
        else:
            s = time.monotonic_ns()
            c.commit(offsets=tp(off), asynchronous=False)
            lat.append(time.monotonic_ns() - s)
            done["ok"] += 1
            sent += 1
        off += 1
    wall = time.monotonic() - t0
    # Drain what is still in flight (not counted in the rate).
    drain_end = time.monotonic() + 10
    while a["async"] and sent > done["ok"] + done["err"] and time.monotonic() < drain_end:
        c.poll(0.01)
    got = c.committed(tp(0), timeout=10)[0].offset
    c.close()
    print(json.dumps({"sent": sent, "ok_in_window": done["ok"], "errors": done["err"],
                      "wall_s": round(wall, 3), "last_committed_read_back": got,
                      "last_offset_sent": off - 1, "sync_latency": lb.summary_us(lat),
                      "cpu_s": round(lb.client_cpu_self(), 3)}))


# --------------------------------------------------------------------------
# analysis


def analyse_rebalance(members, partitions):
    """From the members' callbacks: when the final assignment was reached
    and whether it is complete."""
    owned = {m["index"]: set() for m in members}
    changes = []
    # Once the first member leaves, the others are rebalanced again: only
    # what happened before is the start-up rebalance.
    first_close = min(m["close_s"] for m in members)
    for m in members:
        m["events"] = [e for e in m["events"] if e[1] < first_close]
        for kind, t, ps in m["events"]:
            changes.append((t, m["index"], kind, ps))
    changes.sort()
    last_change = None
    for t, i, kind, ps in changes:
        if kind == "assign":
            owned[i] |= set(ps)
        else:
            owned[i] -= set(ps)
        if ps:
            last_change = t
    union = set().union(*owned.values()) if owned else set()
    total = sum(len(v) for v in owned.values())
    complete = union == set(range(partitions)) and total == partitions and all(owned.values())
    subs = [m["subscribed_s"] for m in members]
    firsts = [m["first_message_s"] - m["subscribed_s"] for m in members if m["first_message_s"] is not None]
    assigns = [sum(1 for e in m["events"] if e[0] == "assign") for m in members]
    revokes = [sum(1 for e in m["events"] if e[0] in ("revoke", "lost")) for m in members]
    fs = sorted(firsts)
    return {
        "final_assignment_complete": complete,
        "final_partition_counts": sorted(len(v) for v in owned.values()),
        "subscribe_spread_s": round(max(subs) - min(subs), 4) if subs else None,
        "all_partitions_assigned_s": None if last_change is None else round(last_change - min(subs), 3),
        "first_message_s": {
            "consumers_with_message": len(firsts),
            "p50": round(lb.pct(fs, 50), 3) if fs else None,
            "max": round(fs[-1], 3) if fs else None,
        },
        "every_consumer_first_message_s": round(max(m["first_message_s"] for m in members) - min(subs), 3)
        if len(firsts) == len(members) else None,
        "assign_callbacks_per_consumer": assigns,
        "revoke_callbacks_per_consumer": revokes,
        "messages_consumed": sum(m["messages"] for m in members),
        # (member, kind, seconds after the shared start, partition count)
        "events": sorted((m["index"], e[0], e[1], len(e[2])) for m in members for e in m["events"]),
    }


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
                raise RuntimeError("client processes did not finish in time; see " + log_path)
            lines = out.decode().strip().splitlines()
            if p.returncode != 0 or not lines:
                raise RuntimeError(f"client rc={p.returncode}; see {log_path}")
            outs.append(json.loads(lines[-1]))
    return outs


# --------------------------------------------------------------------------
# orchestration


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--role")
    ap.add_argument("--role-args")
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--work-dir", default="/work/bench-tmp")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--consumers", type=int, default=10)
    ap.add_argument("--partitions", type=int, default=100)
    ap.add_argument("--modes", default="range,cooperative-sticky,consumer")
    ap.add_argument("--window-seconds", type=float, default=25,
                    help="how long each member stays in the group")
    ap.add_argument("--commit-seconds", type=float, default=5)
    ap.add_argument("--commit-clients", type=int, default=10)
    ap.add_argument("--async-window", type=int, default=500)
    ap.add_argument("--phases", default="raw,rebalance,commit")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a broker setting (passed as --set), e.g. group.consumer.heartbeat.interval.ms=500")
    ap.add_argument("--keep-data", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "groupbench_last_run.json"))
    args = ap.parse_args()

    if args.role:
        ra = json.loads(args.role_args)
        {"rb_consumer": role_rb_consumer, "committer": role_committer}[args.role](ra)
        return

    import confluent_kafka
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient

    phases = set(args.phases.split(","))

    def log(*m):
        print(f"[{time.strftime('%H:%M:%S')}]", *m, file=sys.stderr, flush=True)

    os.makedirs(args.work_dir, exist_ok=True)
    run_dir = tempfile.mkdtemp(prefix="groupbench-", dir=args.work_dir)
    res = {
        "benchmark": "tidemark consumer groups (benches/load/groupbench.py)",
        "command": " ".join([os.path.basename(sys.executable)] + [os.path.relpath(sys.argv[0], REPO)] + sys.argv[1:]),
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": lb.machine_info(),
        "loadavg_start": lb.loadavg(),
        "uptime_start": subprocess.run(["uptime"], stdout=subprocess.PIPE).stdout.decode().strip(),
        "clients": {"confluent_kafka": confluent_kafka.version()[0], "librdkafka": confluent_kafka.libversion()[0]},
        "work_dir": run_dir,
        "problems": [],
    }
    problems = res["problems"]

    if "raw" in phases:
        log("raw fdatasync + loopback")
        res["raw"] = {
            "fdatasync_4KiB": lb.raw_fdatasync(os.path.join(run_dir, "sync.4k"), 4096, 3000, 3),
            "loopback_tcp": lb.raw_loopback(2.0),
        }

    port = lb.free_port()
    data_dir = os.path.join(run_dir, "data")
    blog_path = os.path.join(run_dir, "broker.log")
    clog_path = os.path.join(run_dir, "clients.log")
    bcmd = [args.broker, "--data-dir", data_dir, "--admin-addr", "127.0.0.1:0", "--kafka-addr", f"127.0.0.1:{port}", "--cores", str(args.cores)]
    for kv in args.set:
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

        if "rebalance" in phases:
            res["rebalance"] = {"consumers": args.consumers, "partitions": args.partitions,
                                "broker_settings": args.set or "defaults (group.initial.rebalance.delay.ms 3000, "
                                                               "group.consumer.heartbeat.interval.ms 5000)",
                                "modes": {}}
            for mode in args.modes.split(","):
                topic = f"rb-{mode}"
                errs = lb.create_topics(admin, [(topic, args.partitions)])
                if errs:
                    raise RuntimeError(f"create {topic}: {errs}")
                p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
                for part in range(args.partitions):
                    for k in range(5):
                        p.produce(topic, value=b"x" * 100, partition=part)
                if p.flush(30) != 0:
                    raise RuntimeError("produce did not finish")
                del p
                log("rebalance:", mode, args.consumers, "consumers,", args.partitions, "partitions")
                start_at = time.monotonic() + 3.0
                roles = [("rb_consumer", {"bootstrap": bootstrap, "group": f"g-rb-{mode}", "topic": topic,
                                          "mode": mode, "index": i, "start_at": start_at,
                                          "window_s": args.window_seconds})
                         for i in range(args.consumers)]
                with lb.PhaseMeter(bpid) as pm:
                    members = run_parallel(roles, args.window_seconds + 60, clog_path)
                r = analyse_rebalance(members, args.partitions)
                r["phase"] = pm.result(sum(m["cpu_s"] for m in members))
                res["rebalance"]["modes"][mode] = r
                if not r["final_assignment_complete"]:
                    problems.append(f"rebalance {mode}: final assignment incomplete {r['final_partition_counts']}")
                if r["messages_consumed"] != 5 * args.partitions:
                    problems.append(f"rebalance {mode}: consumed {r['messages_consumed']} of {5 * args.partitions}")
                log(mode, "all assigned", r["all_partitions_assigned_s"], "s; first message p50/max",
                    r["first_message_s"]["p50"], r["first_message_s"]["max"], "s")

        if "commit" in phases:
            topic = "commit-bench"
            errs = lb.create_topics(admin, [(topic, max(args.commit_clients, 1))])
            if errs:
                raise RuntimeError(f"create {topic}: {errs}")
            res["commit"] = {"seconds": args.commit_seconds, "async_window": args.async_window}
            for clients in (1, args.commit_clients):
                for is_async in (False, True):
                    name = f"{'async' if is_async else 'sync'}_{clients}_client{'s' if clients > 1 else ''}"
                    log("commit:", name)
                    start_at = time.monotonic() + 2.0
                    roles = [("committer", {"bootstrap": bootstrap, "group": f"g-commit-{name}-{i}",
                                            "topic": topic, "partition": i, "async": is_async,
                                            "window": args.async_window, "seconds": args.commit_seconds,
                                            "start_at": start_at})
                             for i in range(clients)]
                    with lb.PhaseMeter(bpid) as pm:
                        outs = run_parallel(roles, args.commit_seconds + 60, clog_path)
                    ok = sum(o["ok_in_window"] for o in outs)
                    wall = max(o["wall_s"] for o in outs)
                    r = {
                        "clients": clients,
                        "commits_per_s": round(ok / wall, 1),
                        "errors": sum(o["errors"] for o in outs),
                        "per_client": outs,
                        "phase": pm.result(sum(o["cpu_s"] for o in outs)),
                    }
                    bad = [o for o in outs if o["last_committed_read_back"] != o["last_offset_sent"]]
                    if bad or r["errors"]:
                        problems.append(f"commit {name}: errors {r['errors']}, read back below last sent: {len(bad)}")
                    res["commit"][name] = r
                    log(name, r["commits_per_s"], "commits/s")

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
        if not args.keep_data:
            shutil.rmtree(run_dir, ignore_errors=True)

    res["loadavg_end"] = lb.loadavg()
    res["uptime_end"] = subprocess.run(["uptime"], stdout=subprocess.PIPE).stdout.decode().strip()
    res["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    summ = {}
    for mode, r in res.get("rebalance", {}).get("modes", {}).items():
        summ[f"rebalance_{mode}"] = {
            "all_assigned_s": r["all_partitions_assigned_s"],
            "first_message_p50_max_s": [r["first_message_s"]["p50"], r["first_message_s"]["max"]],
            "assign_callbacks": r["assign_callbacks_per_consumer"],
        }
    for name, r in res.get("commit", {}).items():
        if isinstance(r, dict):
            summ[f"commit_{name}_per_s"] = r["commits_per_s"]
    summ["raw_fdatasync_4KiB_p50_ms"] = res.get("raw", {}).get("fdatasync_4KiB", {}).get("p50_ms")
    summ["loadavg_start_end"] = [res["loadavg_start"], res["loadavg_end"]]
    res["summary"] = summ
    text = json.dumps(res, indent=2)
    with open(args.out, "w") as f:
        f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
