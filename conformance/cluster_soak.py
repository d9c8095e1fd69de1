#!/usr/bin/env python3
"""Soak: random faults on a tidemark cluster for a given number of minutes,
under a keyed acks=all producer and a consumer, then the checker (see
checker.py). Not run in CI.

    python3 conformance/cluster_soak.py --minutes 10 --seed 7 [--size 3|5]
        [--no-idempotence] [--rate 1000] [--partitions 6] [--set name=value ...]

Faults, drawn with the seed: kill -9 the leader of the busiest partition;
kill -9 a random broker; SIGSTOP the leader for 2-8 s; kill -9 every broker
and start them all; kill a follower and wipe its data directory. Each fault
is healed (restart / SIGCONT) before the next, with a pause of a few
seconds of plain load between. Prints one line per fault (with the write
unavailability window around it) and the checker's summary; exit status 0
when the check passed, 1 when it found a problem, 2 when the cluster
could not be driven (a broker would not start, writes did not resume).
TIDEMARK_BIN picks the binary; data directories are kept when it fails.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import checker  # noqa: E402
import cluster  # noqa: E402
import harness  # noqa: E402

RESUME_TIMEOUT = 60.0


def _fault_kill_leader(c, run, rng):
    p = run.load.busiest_partition()
    leader = c.leader_of(run.topic, p)
    t = run.fault("kill9-leader-%d" % leader, c.kill9(leader), partition=p)
    run.load.wait_acks(100, after=t, timeout=RESUME_TIMEOUT)
    c.start_node(leader)
    return "kill -9 node %d (leader of partition %d), restarted" % (leader, p)


def _fault_kill_any(c, run, rng):
    victim = rng.choice(sorted(c.nodes))
    t = run.fault("kill9-%d" % victim, c.kill9(victim))
    if c.size > 1:
        run.load.wait_acks(100, after=t, timeout=RESUME_TIMEOUT)
    c.start_node(victim)
    run.load.wait_acks(100, after=t, timeout=RESUME_TIMEOUT)
    return "kill -9 node %d, restarted" % victim


def _fault_sigstop(c, run, rng):
    p = run.load.busiest_partition()
    leader = c.leader_of(run.topic, p)
    secs = rng.uniform(2.0, 8.0)
    t = run.fault("sigstop-%d" % leader, c.sigstop(leader), partition=p)
    time.sleep(secs)
    c.sigcont(leader)
    run.load.wait_acks(100, after=t, timeout=RESUME_TIMEOUT)
    return "SIGSTOP node %d (leader of partition %d) for %.1fs" % (leader, p, secs)


def _fault_restart_all(c, run, rng):
    t = run.fault("kill9-all", c.restart_all(how="kill9"))
    run.load.wait_acks(100, after=t, timeout=RESUME_TIMEOUT)
    return "kill -9 every broker, started all"


def _fault_wipe_follower(c, run, rng):
    p = run.load.busiest_partition()
    leader = c.leader_of(run.topic, p)
    followers = [r for r in c.replicas_of(run.topic, p) if r != leader]
    if not followers:
        return _fault_kill_any(c, run, rng)
    victim = rng.choice(followers)
    t = run.fault("wipe-%d" % victim, c.kill9(victim), partition=p)
    c.wipe(victim)
    run.load.wait_acks(100, after=t, timeout=RESUME_TIMEOUT)
    return "kill -9 node %d (follower of partition %d), wiped, restarted" % (victim, p)


FAULTS = [_fault_kill_leader, _fault_kill_any, _fault_sigstop, _fault_restart_all,
          _fault_wipe_follower]
# --size 1: today's single broker (no cluster flags), to try the soak itself
SINGLE_NODE_FAULTS = [_fault_kill_any, _fault_sigstop, _fault_restart_all]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--size", type=int, default=3,
                    help="brokers (1: a single broker without cluster flags)")
    ap.add_argument("--partitions", type=int, default=6)
    ap.add_argument("--keys", type=int, default=16)
    ap.add_argument("--rate", type=int, default=1000, help="messages per second offered")
    ap.add_argument("--no-idempotence", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a broker setting for every broker")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    rng = random.Random(seed)
    settings = dict(s.split("=", 1) for s in args.set)
    scenario = "soak-%dx-seed%d-%s" % (args.size, seed,
                                        "plain" if args.no_idempotence else "idem")
    print("%s: %.1f minutes, binary %s" % (scenario, args.minutes, harness.broker_binary()),
          flush=True)
    c = cluster.Cluster(args.size, settings=settings, name=scenario, single_node=args.size == 1)
    faults = SINGLE_NODE_FAULTS if args.size == 1 else FAULTS
    keep = False
    status = 2
    run = None
    try:
        c.start()
        topic = harness.unique_topic("soak")
        c.create_topic(topic, args.partitions, full_isr=args.size > 1)
        run = checker.Run(c.bootstrap, topic, args.partitions, scenario,
                          idempotence=not args.no_idempotence, keys=args.keys, rate=args.rate,
                          max_seconds=args.minutes * 60 + 600)
        run.start()
        run.load.wait_acks(500, timeout=60)
        end = time.monotonic() + args.minutes * 60
        n = 0
        for _ in range(100000):
            if time.monotonic() > end:
                break
            fault = rng.choice(faults)
            n += 1
            t0 = time.time()
            what = fault(c, run, rng)
            w = checker.window(list(run.load.acked), run.faults[-1][1], run.faults[-1][2])
            print("fault %d at +%.0fs: %s; window_s=%s; acked so far %d, errors %d"
                  % (n, max(0.0, t0 - run.faults[0][1]), what, "none" if w is None else "%.3f" % w,
                     len(run.load.acked), run.load.error_count()), flush=True)
            c.check_alive()
            time.sleep(rng.uniform(2.0, 6.0))
        run.load.wait_acks(100, after=time.time(), timeout=RESUME_TIMEOUT)
        r = run.finish()
        run = None
        windows = [w for _, w in r.windows if w is not None]
        if windows:
            print("windows: %d faults, max %.3fs, mean %.3fs"
                  % (len(windows), max(windows), sum(windows) / len(windows)))
        if r.ok:
            status = 0
        else:
            keep = True
            status = 1
            try:
                r.assert_ok()
            except AssertionError as e:
                print(e)
    except Exception as e:  # noqa: BLE001 - any failure keeps the evidence
        keep = True
        print("soak could not go on: %s: %s" % (type(e).__name__, e))
        print(c.log_tails(30))
    finally:
        if run is not None:
            run.abort()
        try:
            c.close(keep_data=keep or None)
        except harness.BrokerError as e:
            status = max(status, 1)
            print("at close: %s" % e)
        if keep:
            print("data and logs kept in %s" % c.root)
    return status


if __name__ == "__main__":
    sys.exit(main())
