#!/usr/bin/env python3
"""What the cluster-wide `/v1/groups` costs with many groups (issue 21).

Three brokers (conformance/cluster.py), one topic of `--partitions`
partitions at replication factor 3 with `--records` records in each,
and `--groups` consumer groups that each committed an offset for every
partition (OffsetCommit with generation -1, as a standalone consumer or
`kafka-consumer-groups --reset-offsets` does, sent to each group's
coordinator). Then `/v1/groups` (the default limit) and `?scope=local`
are timed `--rounds` times on one broker; reported: median and max
time, body size, `groups_total` and whether every group's lag is the
expected one (records minus committed offset, per partition).

    python3 benches/load/groupstatus.py [--groups 5000] [--partitions 8]

Every loop is bounded in count and time; the brokers are stopped by
their PIDs (the cluster module's close).
"""

import argparse
import json
import os
import statistics
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "conformance"))
import cluster  # noqa: E402
import harness  # noqa: E402
import rawkafka  # noqa: E402

API_OFFSET_COMMIT = 8
COMMITTED = 3  # every group commits offset 3 on every partition


def log(msg):
    print(time.strftime("[%H:%M:%S] ") + msg, flush=True)


def coordinators(c, groups, deadline):
    """{group: coordinator node id}, FindCoordinator v4 in batches."""
    found = {}
    left = list(groups)
    while left and time.monotonic() < deadline:
        with rawkafka.KafkaConn(c.node(1).bootstrap) as conn:
            for s in range(0, len(left), 200):
                r = conn.request(rawkafka.API_FIND_COORDINATOR, 4,
                                 {"KeyType": 0, "CoordinatorKeys": left[s:s + 200]})
                for co in r["Coordinators"]:
                    if co["ErrorCode"] == 0:
                        found[co["Key"]] = co["NodeId"]
        left = [g for g in left if g not in found]
        if left:
            time.sleep(0.5)
    if left:
        raise SystemExit("no coordinator for %d groups" % len(left))
    return found


def commit_all(c, topic, partitions, groups, deadline):
    """Commits for every group at its coordinator; a group whose
    coordinator moved (NOT_COORDINATOR, loading, not available) is
    looked up again in the next round."""
    parts = [{"PartitionIndex": p, "CommittedOffset": COMMITTED, "CommittedLeaderEpoch": -1,
              "CommittedMetadata": None} for p in range(partitions)]
    pending = list(groups)
    while pending:
        if time.monotonic() > deadline:
            raise SystemExit("commits did not finish in time (%d left)" % len(pending))
        by_node = {}
        for g, n in coordinators(c, pending, deadline).items():
            by_node.setdefault(n, []).append(g)
        again = []
        for node, gs in by_node.items():
            with rawkafka.KafkaConn(c.node(node).bootstrap) as conn:
                for g in gs:
                    r = conn.request(API_OFFSET_COMMIT, 8, {
                        "GroupId": g, "GenerationIdOrMemberEpoch": -1, "MemberId": "",
                        "GroupInstanceId": None,
                        "Topics": [{"Name": topic, "Partitions": parts}]})
                    errs = {p["ErrorCode"] for t in r["Topics"] for p in t["Partitions"]}
                    if errs <= {14, 15, 16} and errs:
                        again.append(g)
                    elif errs != {0}:
                        raise SystemExit("commit of %s: errors %s" % (g, errs))
        pending = again
        if pending:
            time.sleep(0.5)


def timed_get(url):
    t = time.monotonic()
    with urllib.request.urlopen(url, timeout=60) as r:
        body = r.read()
    return time.monotonic() - t, body


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--groups", type=int, default=5000)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--records", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    deadline = time.monotonic() + args.timeout
    c = cluster.Cluster(3, name="groupstatus", settings={"offsets.topic.num.partitions": "6"})
    res = {"args": vars(args)}
    try:
        c.start()
        topic = harness.unique_topic("gstatus")
        c.create_topic(topic, args.partitions, replication_factor=3, full_isr=True, timeout=60)
        for p in range(args.partitions):
            leader = c.leader_of(topic, p)
            blob = rawkafka.build_batch([(None, b"v%d" % i) for i in range(args.records)])
            with rawkafka.KafkaConn(c.node(leader).bootstrap) as conn:
                part, _ = conn.produce(topic, p, blob)
                if part["ErrorCode"] != 0:
                    raise SystemExit("produce to %s-%d: %r" % (topic, p, part))
        groups = ["gs-%05d" % i for i in range(args.groups)]
        t = time.monotonic()
        commit_all(c, topic, args.partitions, groups, deadline)
        res["commit_s"] = time.monotonic() - t
        log("%d groups committed %d partitions each in %.1f s"
            % (args.groups, args.partitions, res["commit_s"]))
        time.sleep(2)
        url = c.node(1).admin_url + "/v1/groups"
        for name, u in (("cluster", url), ("local", url + "?scope=local")):
            times, size, body = [], 0, None
            for _ in range(args.rounds):
                if time.monotonic() > deadline:
                    break
                dt, body = timed_get(u)
                times.append(dt * 1000)
                size = len(body)
            j = json.loads(body)
            lags = [g.get("lag_sum") for g in j.get("groups", [])]
            want = (args.records - COMMITTED) * args.partitions
            res[name] = {"median_ms": statistics.median(times), "max_ms": max(times),
                         "bytes": size, "groups_total": j.get("groups_total"),
                         "groups_listed": len(j.get("groups", [])),
                         "lags_as_expected": all(x == want for x in lags),
                         "missing_brokers": j.get("missing_brokers")}
            log("%s: median %.1f ms, max %.1f ms, %d bytes, groups_total %s, listed %d, "
                "lags as expected: %s" % (name, res[name]["median_ms"], res[name]["max_ms"],
                                          size, j.get("groups_total"),
                                          res[name]["groups_listed"],
                                          res[name]["lags_as_expected"]))
    finally:
        c.close()
    if args.out:
        with open(args.out, "w") as f:
            json.dump(res, f, indent=1)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
