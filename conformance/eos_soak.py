#!/usr/bin/env python3
"""Randomized exactly-once soak (issue 16), outside CI.

For each seed: a fresh three-broker cluster, an input of COUNT keyed
records, the eos.py pipeline, and FAULTS faults drawn by the seed (kill -9
of the transaction coordinator, of an output or input partition leader,
of a random broker; SIGSTOP of the pipeline past its transaction timeout;
every broker restarted at once), each after a random number of the
pipeline's commits; then eos.check(). Prints one JSON line per seed
(scenario list, commits, aborts, producer restarts, outcome) and a
summary; exits non-zero if any seed failed (its broker logs are kept).

With `--client tv2` the pipeline's producer speaks transactions v2
(KIP-890) on the raw wire (eos.run_pipeline_v2) instead of librdkafka's v1.

Usage: python3 conformance/eos_soak.py [--seeds 20] [--first 1] [--count 3000]
                                       [--client librdkafka|tv2]
"""

import argparse
import json
import os
import random
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import clients  # noqa: E402
import cluster  # noqa: E402
import eos  # noqa: E402
import harness  # noqa: E402

SETTINGS = {
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": "500",
    "transaction.state.log.num.partitions": "3",
    "offsets.topic.num.partitions": "3",
    "group.initial.rebalance.delay.ms": "100",
}
FAULTS = ["kill-coordinator", "kill-output-leader", "kill-input-leader", "kill-random",
          "sigstop-pipeline", "restart-all"]


def one_seed(seed, count, faults, client="librdkafka"):
    rng = random.Random(seed)
    name = "soak%d-%d" % (seed, int(time.time()))
    c = cluster.Cluster(3, settings=SETTINGS, name=name)
    c.start()
    ok = False
    plan = [rng.choice(FAULTS) for _ in range(faults)]
    try:
        spec = {"bootstrap": c.bootstrap, "input": "in-" + name, "output": "out-" + name,
                "group": "g-" + name, "transactional_id": "tx-" + name, "count": count,
                "partitions": 4, "batch": rng.choice([10, 30, 100]), "timeout_s": 300,
                "pace_ms": 30, "txn_timeout_ms": 3000, "client": client}
        c.create_topic(spec["input"], 4, full_isr=True)
        c.create_topic(spec["output"], 4, full_isr=True)
        inputs = eos.make_input(count, 16)
        clients.confluent_produce(c.bootstrap, spec["input"], inputs,
                                  conf={"enable.idempotence": True})
        proc = eos.start_pipeline(spec)
        events = []
        try:
            commits = 0
            applied = []
            for f in plan:
                commits += rng.randint(3, 15)
                events += eos.wait_progress(proc, commits, timeout=120)
                if any(e.get("event") == "done" for e in events):
                    # The pipeline finished before this fault's turn (a
                    # seed with big batches has few commits): the faults
                    # that came are checked as they are.
                    break
                if f == "kill-coordinator":
                    n = c.coordinator_of(spec["transactional_id"], key_type=1)
                    c.kill9(n)
                    time.sleep(rng.uniform(0.5, 4))
                    c.start_node(n)
                elif f in ("kill-output-leader", "kill-input-leader"):
                    topic = spec["output" if f.startswith("kill-output") else "input"]
                    n = c.leader_of(topic, rng.randrange(4))
                    c.kill9(n)
                    time.sleep(rng.uniform(0.5, 4))
                    c.start_node(n)
                elif f == "kill-random":
                    n = rng.randint(1, 3)
                    c.kill9(n)
                    time.sleep(rng.uniform(0.5, 4))
                    c.start_node(n)
                elif f == "sigstop-pipeline":
                    os.kill(proc.pid, signal.SIGSTOP)
                    time.sleep(rng.uniform(1, 6))
                    os.kill(proc.pid, signal.SIGCONT)
                elif f == "restart-all":
                    c.restart_all(how="kill9")
                applied.append(f)
                # Events in between were consumed by wait_progress.
            events += eos.finish(proc, timeout=300, earlier=events)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        n = eos.check(c.bootstrap, spec["output"], 4, inputs)
        counts = {}
        for e in events:
            counts[e.get("event")] = counts.get(e.get("event"), 0) + 1
        ok = n == count
        return {"seed": seed, "client": client, "faults": plan, "applied": len(applied),
                "events": counts, "ok": ok}
    except Exception as e:  # reported per seed, the soak goes on
        return {"seed": seed, "client": client, "faults": plan, "ok": False,
                "error": str(e)[:2000]}
    finally:
        c.close(keep_data=not ok)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--faults", type=int, default=3)
    ap.add_argument("--client", choices=["librdkafka", "tv2"], default="librdkafka")
    a = ap.parse_args()
    results = []
    t0 = time.time()
    for seed in range(a.first, a.first + a.seeds):
        r = one_seed(seed, a.count, a.faults, a.client)
        results.append(r)
        print(json.dumps(r), flush=True)
    bad = [r["seed"] for r in results if not r["ok"]]
    print(json.dumps({"seeds": len(results), "failed": bad,
                      "minutes": round((time.time() - t0) / 60, 1)}))
    return 1 if bad else 0


if __name__ == "__main__":
    harness.require_binary()
    sys.exit(main())
