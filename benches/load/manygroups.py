#!/usr/bin/env python3
"""Many consumer groups on one node (issue 14): N groups (default 5,000),
each with one KIP-848 member (ConsumerGroupHeartbeat) subscribed to one of
T topics, heartbeating and committing offsets as a consumer with
auto-commit does, then a restart of the broker.

Reported: time to join every group, broker resident memory before the
groups, after they joined and after the steady phase (per group),
heartbeats and commits per second and their errors during the steady
phase, broker CPU, ListGroups of all groups, and after a SIGTERM restart:
time to listening, every group's committed offsets read back (OffsetFetch)
and every member still accepted with its epoch (a plain heartbeat), and
memory after the restart.

The clients speak the wire with conformance/rawkafka.py, pipelining
requests on a few connections per worker process (a librdkafka consumer
per group would need 5,000 processes on this 2-core machine). Every loop
is bounded in count and time; the broker is stopped by its PID.

Usage:
  python3 benches/load/manygroups.py --broker target/release/tidemark
      [--groups 5000] [--topics 100] [--partitions 4] [--workers 2]
      [--conns 8] [--steady-seconds 30] [--interval-s 5] [--out FILE]
"""

import argparse
import json
import multiprocessing as mp
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "conformance"))
import loadbench as lb  # noqa: E402
import rawkafka  # noqa: E402
from rawkafka import KafkaConn  # noqa: E402

API_OFFSET_COMMIT, API_OFFSET_FETCH, API_LIST_GROUPS = 8, 9, 16
API_CG_HEARTBEAT = 68
WINDOW = 64  # requests in flight per connection


def log(msg):
    print(time.strftime("[%H:%M:%S] ") + msg, flush=True)


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def topic_of(tag, i, topics):
    return f"{tag}-t{i % topics}"


def group_of(tag, i):
    return f"{tag}-g{i}"


def pipelined(conn, reqs):
    """Sends (api, version, body) requests WINDOW at a time on one
    connection; returns the responses in order."""
    out = []
    for start in range(0, len(reqs), WINDOW):
        chunk = reqs[start:start + WINDOW]
        cids = [conn.send(a, v, b) for a, v, b in chunk]
        for (a, v, _), cid in zip(chunk, cids):
            out.append(conn.recv(a, v, cid))
    return out


def heartbeat_req(group, member, epoch, topic=None):
    body = {"GroupId": group, "MemberId": member, "MemberEpoch": epoch, "InstanceId": None,
            "RackId": None, "RebalanceTimeoutMs": 30000 if epoch == 0 else -1,
            "SubscribedTopicNames": [topic] if epoch == 0 else None, "ServerAssignor": None,
            "TopicPartitions": [] if epoch == 0 else None}
    return (API_CG_HEARTBEAT, 0, body)


def commit_req(group, member, epoch, topic, parts, offset):
    t = {"Name": topic, "Partitions": [{"PartitionIndex": p, "CommittedOffset": offset,
                                        "CommittedLeaderEpoch": -1, "CommittedMetadata": ""}
                                       for p in parts]}
    return (API_OFFSET_COMMIT, 9, {"GroupId": group, "GenerationIdOrMemberEpoch": epoch,
                                   "MemberId": member, "GroupInstanceId": None, "Topics": [t]})


def fetch_req(group, member, epoch, topic, parts):
    return (API_OFFSET_FETCH, 9, {"Groups": [{"GroupId": group, "MemberId": member,
                                              "MemberEpoch": epoch,
                                              "Topics": [{"Name": topic, "PartitionIndexes": parts}]}],
                                  "RequireStable": False})


def worker(args, w, phase, state, q):
    """One worker process: the groups i with i % workers == w, over
    `args.conns` connections. `state`: {group index: (member, epoch,
    parts)} from the join phase."""
    mine = [i for i in range(args.groups) if i % args.workers == w]
    conns = [KafkaConn(args.bootstrap, timeout=60.0) for _ in range(args.conns)]
    res = {"errors": {}, "requests": 0}

    def err(kind, code):
        k = f"{kind}:{code}"
        res["errors"][k] = res["errors"].get(k, 0) + 1

    def by_conn(items):
        per = [[] for _ in conns]
        for n, it in enumerate(items):
            per[n % len(conns)].append(it)
        return per

    try:
        if phase == "join":
            t0 = time.monotonic()
            out = {}
            for conn, idx in zip(conns, by_conn(mine)):
                members = {i: str(uuid.uuid4()) for i in idx}
                resps = pipelined(conn, [heartbeat_req(group_of(args.tag, i), members[i], 0,
                                                       topic_of(args.tag, i, args.topics))
                                         for i in idx])
                for i, r in zip(idx, resps):
                    if r["ErrorCode"] != 0:
                        err("join", r["ErrorCode"])
                        continue
                    parts = sorted(p for tp in (r["Assignment"] or {}).get("TopicPartitions", [])
                                   for p in tp["Partitions"])
                    out[i] = (members[i], r["MemberEpoch"], parts)
            res["seconds"] = time.monotonic() - t0
            res["state"] = out
        elif phase == "steady":
            # Every interval: one heartbeat and one commit per group (a
            # consumer with auto-commit at its default 5 s), for a bounded
            # time and number of rounds.
            deadline = time.monotonic() + args.steady_seconds
            rounds = 0
            lat = []
            while time.monotonic() < deadline and rounds < 10_000:
                rounds += 1
                start = time.monotonic()
                for conn, idx in zip(conns, by_conn([i for i in mine if i in state])):
                    reqs = []
                    for i in idx:
                        member, epoch, parts = state[i]
                        reqs.append(heartbeat_req(group_of(args.tag, i), member, epoch))
                        if parts:
                            reqs.append(commit_req(group_of(args.tag, i), member, epoch,
                                                   topic_of(args.tag, i, args.topics), parts, rounds))
                    t = time.monotonic()
                    resps = pipelined(conn, reqs)
                    lat.append((time.monotonic() - t) / max(1, len(reqs)))
                    res["requests"] += len(reqs)
                    for r in resps:
                        if "Topics" in r:
                            for tp in r["Topics"]:
                                for p in tp["Partitions"]:
                                    if p["ErrorCode"] != 0:
                                        err("commit", p["ErrorCode"])
                            res["commits"] = res.get("commits", 0) + 1
                        else:
                            if r["ErrorCode"] != 0:
                                err("heartbeat", r["ErrorCode"])
                            res["heartbeats"] = res.get("heartbeats", 0) + 1
                res["round_s"] = max(res.get("round_s", 0), time.monotonic() - start)
                left = args.interval_s - (time.monotonic() - start)
                if left > 0:
                    time.sleep(min(left, max(0.0, deadline - time.monotonic())))
            res["rounds"] = rounds
            res["last_offset"] = rounds
        elif phase == "verify":
            # Committed offsets read back, members still accepted.
            want = args.expect_offset
            bad = 0
            for conn, idx in zip(conns, by_conn([i for i in mine if i in state])):
                reqs = []
                for i in idx:
                    member, epoch, parts = state[i]
                    reqs.append(fetch_req(group_of(args.tag, i), member, epoch,
                                          topic_of(args.tag, i, args.topics), parts))
                    reqs.append(heartbeat_req(group_of(args.tag, i), member, epoch))
                resps = pipelined(conn, reqs)
                for n, r in enumerate(resps):
                    if n % 2 == 0:
                        g = r["Groups"][0]
                        offs = [p["CommittedOffset"] for t in g["Topics"] for p in t["Partitions"]]
                        if g["ErrorCode"] != 0 or any(o != want for o in offs):
                            bad += 1
                    elif r["ErrorCode"] != 0:
                        err("heartbeat-after-restart", r["ErrorCode"])
            res["offsets_wrong"] = bad
    finally:
        for c in conns:
            c.close()
    q.put((w, res))


def run_workers(args, phase, state):
    q = mp.Queue()
    procs = [mp.Process(target=worker, args=(args, w, phase, state, q)) for w in range(args.workers)]
    for p in procs:
        p.start()
    out = {}
    deadline = time.monotonic() + args.steady_seconds + 600
    for _ in procs:
        w, r = q.get(timeout=max(1.0, deadline - time.monotonic()))
        out[w] = r
    for p in procs:
        p.join(timeout=30)
        if p.is_alive():
            p.kill()
    return out


def merge_errors(results):
    errs = {}
    for r in results.values():
        for k, v in r["errors"].items():
            errs[k] = errs.get(k, 0) + v
    return errs


def start_broker(args, data_dir, port, logf):
    proc = subprocess.Popen([args.broker, "--data-dir", data_dir,
                             "--admin-addr", "127.0.0.1:0", "--kafka-addr", f"127.0.0.1:{port}"],
                            stdout=logf, stderr=subprocess.STDOUT)
    t = lb.wait_port(port, proc, timeout=300)
    return proc, t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--work-dir", default="/work/bench-tmp")
    ap.add_argument("--groups", type=int, default=5000)
    ap.add_argument("--topics", type=int, default=100)
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--conns", type=int, default=8)
    ap.add_argument("--steady-seconds", type=float, default=30)
    ap.add_argument("--interval-s", type=float, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    args.tag = "mg%d" % (int(time.time()) % 100000)
    os.makedirs(args.work_dir, exist_ok=True)
    root = tempfile.mkdtemp(prefix="manygroups-", dir=args.work_dir)
    data_dir = os.path.join(root, "data")
    port = lb.free_port()
    args.bootstrap = f"127.0.0.1:{port}"
    logf = open(os.path.join(root, "broker.log"), "ab")
    result = {"args": {k: v for k, v in vars(args).items()}, "machine": lb.machine_info(),
              "loadavg_start": lb.loadavg()}
    proc = None
    try:
        log(f"raw: fdatasync 4 KiB and loopback TCP")
        result["raw"] = {"fdatasync": lb.raw_fdatasync(os.path.join(root, "raw.dat"), 4096, 2000, 2.0),
                         "loopback": lb.raw_loopback(2.0)}
        proc, t = start_broker(args, data_dir, port, logf)
        log(f"broker pid {proc.pid} listening in {t:.2f} s")
        with KafkaConn(args.bootstrap) as c:
            c.api_versions()
            specs = [{"Name": f"{args.tag}-t{i}", "NumPartitions": args.partitions}
                     for i in range(args.topics)]
            for s in range(0, len(specs), 100):
                res, _ = c.create_topics(specs[s:s + 100])
                bad = {n: t["ErrorCode"] for n, t in res.items() if t["ErrorCode"] != 0}
                assert not bad, bad
        rawkafka.ensure_topic(args.bootstrap, specs[-1]["Name"], args.partitions)
        time.sleep(1)
        base = rss_kb(proc.pid)
        log(f"{args.topics} topics x {args.partitions}; broker RSS {base / 1024:.1f} MB")

        cpu0 = lb.proc_cpu_s(proc.pid)
        join = run_workers(args, "join", {})
        state = {}
        for r in join.values():
            state.update(r["state"])
        join_s = max(r["seconds"] for r in join.values())
        after_join = rss_kb(proc.pid)
        result["join"] = {"groups": args.groups, "joined": len(state), "seconds": join_s,
                          "errors": merge_errors(join),
                          "rss_mb": after_join / 1024,
                          "kb_per_group": (after_join - base) / max(1, len(state)),
                          "broker_cpu_s": lb.proc_cpu_s(proc.pid) - cpu0}
        log(f"join: {len(state)}/{args.groups} groups in {join_s:.2f} s "
            f"({len(state) / join_s:.0f}/s); errors {result['join']['errors']}; "
            f"RSS {after_join / 1024:.1f} MB ({result['join']['kb_per_group']:.1f} KB/group)")

        cpu0 = lb.proc_cpu_s(proc.pid)
        t0 = time.monotonic()
        steady = run_workers(args, "steady", state)
        wall = time.monotonic() - t0
        hb = sum(r.get("heartbeats", 0) for r in steady.values())
        cm = sum(r.get("commits", 0) for r in steady.values())
        rounds = min(r["rounds"] for r in steady.values())
        after = rss_kb(proc.pid)
        result["steady"] = {"seconds": wall, "heartbeats": hb, "commits": cm,
                            "heartbeats_per_s": hb / wall, "commits_per_s": cm / wall,
                            "rounds": rounds,
                            "slowest_round_s": max(r.get("round_s", 0) for r in steady.values()),
                            "errors": merge_errors(steady),
                            "broker_cpu_cores": (lb.proc_cpu_s(proc.pid) - cpu0) / wall,
                            "rss_mb": after / 1024,
                            "kb_per_group": (after - base) / max(1, len(state))}
        log(f"steady: {hb / wall:.0f} heartbeats/s, {cm / wall:.0f} commits/s over {wall:.1f} s "
            f"({rounds} rounds, slowest {result['steady']['slowest_round_s']:.2f} s); "
            f"errors {result['steady']['errors']}; broker CPU "
            f"{result['steady']['broker_cpu_cores']:.2f} cores; RSS {after / 1024:.1f} MB "
            f"({result['steady']['kb_per_group']:.1f} KB/group)")

        with KafkaConn(args.bootstrap) as c:
            t = time.monotonic()
            r = c.request(API_LIST_GROUPS, 5, {"StatesFilter": [], "TypesFilter": []})
            listed = sum(1 for g in r["Groups"] if g["GroupId"].startswith(args.tag + "-g"))
            result["list_groups"] = {"listed": listed, "ms": (time.monotonic() - t) * 1000}
        log(f"ListGroups: {listed} groups in {result['list_groups']['ms']:.1f} ms")

        t = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)
        stop_s = time.monotonic() - t
        proc, listen_s = start_broker(args, data_dir, port, logf)
        args.expect_offset = rounds
        t = time.monotonic()
        ver = run_workers(args, "verify", state)
        verify_s = time.monotonic() - t
        wrong = sum(r.get("offsets_wrong", 0) for r in ver.values())
        restarted = rss_kb(proc.pid)
        result["restart"] = {"stop_s": stop_s, "listening_s": listen_s, "verify_s": verify_s,
                             "offsets_wrong": wrong, "errors": merge_errors(ver),
                             "rss_mb": restarted / 1024}
        log(f"SIGTERM: stopped in {stop_s:.2f} s, listening in {listen_s:.2f} s; "
            f"every group's offsets and member checked in {verify_s:.2f} s: {wrong} wrong, "
            f"errors {result['restart']['errors']}; RSS {restarted / 1024:.1f} MB")
        result["ok"] = (wrong == 0 and not result["restart"]["errors"]
                        and len(state) == args.groups and listed == args.groups)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        logf.close()
        result["loadavg_end"] = lb.loadavg()
        shutil.rmtree(root, ignore_errors=True)
    text = json.dumps(result, indent=2, default=str)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text)
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
