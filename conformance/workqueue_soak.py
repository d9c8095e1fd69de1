#!/usr/bin/env python3
"""Randomized share-group work-queue soak (KIP-932), outside CI.

For each seed: a fresh three-broker cluster (or one broker with --size 1),
a topic of 3 partitions, COUNT records, 2-4 share consumers (workqueue.py:
explicit acknowledgement, ~1% poison rejected into a dead-letter topic),
and FAULTS faults drawn by the seed (kill -9 a consumer and start a
replacement, kill -9 a share-partition leader, kill -9 the leader of the
group's __share_group_state partition, SIGTERM every broker one after
another, rolling restart), each after a random amount of progress; then
workqueue's check(). Prints one JSON line per seed (faults, the summary
figures, outcome) and a summary; exits 1 if any seed failed (its broker
logs and consumer logs are kept), 2 if a seed could not be driven.

Usage: python3 conformance/workqueue_soak.py [--seeds 5] [--first 1] [--count 3000]
       [--faults 3] [--size 3] [--minutes M (stop starting seeds after M minutes)]
       [--kinds restart-all,kill-consumer (draw faults from these only)]
"""

import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cluster  # noqa: E402
import harness  # noqa: E402
import workqueue  # noqa: E402

SETTINGS = {
    "group.share.min.record.lock.duration.ms": 1000,
    "group.share.record.lock.duration.ms": 3000,
    "group.share.heartbeat.interval.ms": 1000,
    "group.share.session.timeout.ms": 6000,
    "share.coordinator.state.topic.num.partitions": 3,
    "offsets.topic.num.partitions": 3,
}
FAULTS = ["kill-consumer", "kill-share-leader", "kill-state-leader", "restart-all",
          "rolling-restart"]


def one_seed(seed, count, faults, size, kinds=None):
    rng = random.Random(seed)
    name = "soak%d-%d" % (seed, int(time.time()))
    kinds = kinds or (FAULTS if size > 1 else ["kill-consumer", "kill9-broker"])
    plan = [rng.choice(kinds) for _ in range(faults)]
    c = cluster.Cluster(size, settings=SETTINGS, name=name, single_node=size == 1)
    run = None
    ok = False
    t0 = time.time()
    try:
        c.start()
        run = workqueue.Run(c, name, count=count, consumers=rng.randint(2, 4),
                            pace_ms=rng.choice([20, 100, 300]), produce_s=rng.uniform(3, 10),
                            lock_ms=rng.choice([2000, 3000, 5000]), timeout_s=240, seed=seed)
        run.start()
        done = 0
        for f in plan:
            done += rng.randint(count // 10, count // 4)
            run.wait_accepted(min(done, int(count * 0.9)), timeout=90)
            run.fault(f)
        res = run.finish()
        ok = res.ok
        out = {"seed": seed, "faults": plan, "ok": ok, "seconds": round(time.time() - t0),
               "summary": res.summary()}
        if not ok:
            out["failures"] = {k: v[:5] for k, v in res.failures.items()}
            out["consumer_logs"] = run.workdir
            out["broker_data"] = str(c.root)
        return out
    except Exception as e:  # reported per seed, the soak goes on
        return {"seed": seed, "faults": plan, "ok": False, "driven": False,
                "error": str(e)[:3000], "consumer_logs": run and run.workdir,
                "broker_data": str(c.root)}
    finally:
        if run is not None:
            workqueue.stop_consumers(run)
        try:
            c.close(keep_data=not ok)
        except harness.BrokerError as e:
            print(json.dumps({"seed": seed, "close_error": str(e)[:2000]}), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--faults", type=int, default=3)
    ap.add_argument("--size", type=int, default=3)
    ap.add_argument("--minutes", type=float, default=None)
    ap.add_argument("--kinds", default=None,
                    help="comma-separated faults to draw from (default: all for the size)")
    a = ap.parse_args()
    kinds = a.kinds.split(",") if a.kinds else None
    results = []
    t0 = time.time()
    for seed in range(a.first, a.first + a.seeds):
        if a.minutes is not None and time.time() - t0 > a.minutes * 60:
            break
        r = one_seed(seed, a.count, a.faults, a.size, kinds)
        results.append(r)
        print(json.dumps(r), flush=True)
    bad = [r["seed"] for r in results if not r["ok"]]
    undriven = [r["seed"] for r in results if r.get("driven") is False]
    print(json.dumps({"seeds": len(results), "failed": bad, "not_driven": undriven,
                      "minutes": round((time.time() - t0) / 60, 1)}))
    return 2 if undriven else (1 if bad else 0)


if __name__ == "__main__":
    harness.require_binary()
    sys.exit(main())
