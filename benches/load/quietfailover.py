#!/usr/bin/env python3
"""Leader failover of idle (quiet) partitions after a kill -9 (issue 14).

Three brokers, N partitions at replication factor 3 with one record each,
left idle until their Raft groups are quiet (no heartbeats: see
raft/ARCHITECTURE.md, "Quiet groups"). Then the broker leading the most
partitions is killed with SIGKILL. Reported, from Metadata polled on a
survivor every 100 ms: for each partition the dead broker led, the time
until a live broker leads it (p50, p99, max, and how many within 5 s),
then the time for one acks=all record to every partition through the
survivors. (That nothing acknowledged is lost across such a kill is the
fault suite's job: conformance/test_cluster.py and its checker.)

With `--produce-rate R`, a background producer (its own process, acks=all,
100-byte records) writes R records a second round-robin over every
partition from `--load-warmup` seconds before the kill until the
failover is measured: the issue's "light produce load on all of them".
Partitions written more often than they settle stay awake, and awake
groups elect by openraft's own timers, not the quiet path. It reports
what it sent and had acknowledged, delivery errors, and the longest
acknowledgement around the kill.

Reuses scalebench.py's broker handling (every process it starts is
stopped by its PID; every wait is bounded).

Usage:
  python3 benches/load/quietfailover.py --broker target/release/tidemark
      [--partitions 1000] [--idle-seconds 15] [--poll-seconds 0.25] [--out FILE]
"""

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import loadbench as lb  # noqa: E402
import scalebench as sb  # noqa: E402


def log(msg):
    print(time.strftime("[%H:%M:%S] ") + msg, flush=True)


def pct(vals, p):
    if not vals:
        return None
    vals = sorted(vals)
    return vals[min(len(vals) - 1, int(round(p / 100.0 * (len(vals) - 1))))]


def background_load(bootstrap, parts, rate, stop, out):
    """Produces `rate` records/s round-robin over `parts` until `stop` is
    set (bounded: at most 10 minutes), then flushes for at most 60 s and
    puts its figures on `out`. Runs in a child process."""
    from confluent_kafka import Producer
    lat, acked_at, errs = [], [], []
    failed = 0

    def on_dr(err, msg):
        nonlocal failed
        if err is not None:
            failed += 1
            if len(errs) < 5:
                errs.append(f"{msg.topic()}[{msg.partition()}]: {err}")
            return
        now = time.monotonic()
        lat.append(msg.latency())
        acked_at.append(now)

    prod = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5,
                     "message.timeout.ms": 120000, "request.timeout.ms": 30000,
                     "queue.buffering.max.messages": 1000000,
                     "reconnect.backoff.ms": 50, "reconnect.backoff.max.ms": 1000,
                     "on_delivery": on_dr, "logger": sb.CLIENT_LOGGER})
    value = b"x" * 100
    t0 = time.monotonic()
    end = t0 + 600
    sent, i = 0, 0
    tick = 0.01
    while not stop.is_set() and time.monotonic() < end:
        due = int((time.monotonic() - t0) * rate) - sent
        for _ in range(max(0, due)):
            topic, p = parts[i % len(parts)]
            i += 1
            try:
                prod.produce(topic, value, partition=p)
                sent += 1
            except BufferError:
                break
        prod.poll(0)
        time.sleep(tick)
    left = prod.flush(60)
    out.put({"sent": sent, "acked": len(lat), "unflushed": left,
             "delivery_errors": failed, "error_examples": errs,
             "ack_latency_s": {"p50": pct(lat, 50), "p99": pct(lat, 99), "max": max(lat, default=None)},
             "acked_at": acked_at, "started": t0})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--broker", default=os.path.join(sb.REPO, "target/release/tidemark"))
    ap.add_argument("--work-dir", default="/work/bench-tmp")
    ap.add_argument("--partitions", type=int, default=1000)
    ap.add_argument("--partitions-per-topic", type=int, default=5)
    ap.add_argument("--idle-seconds", type=float, default=15)
    ap.add_argument("--timeout", type=float, default=600)
    # Each poll is a Metadata request for every topic, answered by one
    # survivor and parsed here in Python, on the same two cores as the
    # brokers: at 10,000 partitions a 100 ms poll cost the survivors a
    # noticeable share of the CPU the elections need. Times are reported
    # as first seen, so a coarser poll can only make them look later.
    ap.add_argument("--poll-seconds", type=float, default=0.25)
    ap.add_argument("--out", default=None)
    ap.add_argument("--produce-rate", type=float, default=0,
                    help="records/s written round-robin over every partition around the kill (0: none)")
    ap.add_argument("--load-warmup", type=float, default=10)
    # On ext4 without a journal (this VM's disk) a new inode skips those
    # deleted in the last 60-300 s, a scan that made file creation several
    # times slower right after a previous run's data was removed: keep it
    # when runs follow each other, and remove it after the last.
    ap.add_argument("--keep-data", action="store_true")
    args = ap.parse_args()
    from confluent_kafka.admin import AdminClient, NewTopic

    os.makedirs(args.work_dir, exist_ok=True)
    root = tempfile.mkdtemp(prefix="quietfailover-", dir=args.work_dir)
    binary = os.path.join(root, "tidemark")
    shutil.copy2(args.broker, binary)
    group = sb.Group(binary, root, 3, 0, 1024)
    deadline = time.monotonic() + args.timeout
    res = {"args": vars(args), "machine": lb.machine_info(), "loadavg_start": lb.loadavg()}
    signal.signal(signal.SIGTERM, sb._on_signal)
    try:
        group.start()
        t0 = time.monotonic()
        group.wait_listen(t0, t0 + 60)
        group.wait_ready(t0 + 60)
        ppt = args.partitions_per_topic
        tag = "qf%d" % (int(time.time()) % 100000)
        specs = [(f"{tag}-{i:05d}", ppt) for i in range(max(1, args.partitions // ppt))]
        admin = AdminClient({"bootstrap.servers": group.bootstrap})
        for s in range(0, len(specs), 100):
            fs = admin.create_topics([NewTopic(n, p, 3) for n, p in specs[s:s + 100]],
                                     operation_timeout=120, request_timeout=120)
            for n, f in fs.items():
                f.result(timeout=180)
        expected = dict(specs)
        while True:
            _, md = sb.raw_metadata(group.nodes[0].kafka_port)
            ok, total = sb.leaders_status(md, expected)
            if ok == total:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"leaders: {ok}/{total}")
            time.sleep(0.2)
        parts = [(n, p) for n, c in specs for p in range(c)]
        wrote, _ = sb.produce_all(group.bootstrap, parts, tag, deadline, group)
        log(f"{len(parts)} partitions created and written ({wrote['acked']} acked); idle {args.idle_seconds} s")
        group.sleep(args.idle_seconds)
        load = None
        if args.produce_rate > 0:
            import multiprocessing as mp
            # spawn, not fork: this process already runs librdkafka threads.
            ctx = mp.get_context("spawn")
            load_stop, load_out = ctx.Event(), ctx.Queue()
            load = ctx.Process(target=background_load,
                               args=(group.bootstrap, parts, args.produce_rate, load_stop, load_out))
            load.start()
            log(f"background load: {args.produce_rate:.0f} records/s over {len(parts)} partitions "
                f"(each written every {len(parts) / args.produce_rate:.1f} s); {args.load_warmup} s before the kill")
            group.sleep(args.load_warmup)

        _, md = sb.raw_metadata(group.nodes[0].kafka_port)
        led = {}
        for name, (_, ps) in md["topics"].items():
            if name in expected:
                for p, leader in ps.items():
                    led.setdefault(leader, []).append((name, p))
        victim_id = max(led, key=lambda k: len(led[k]))
        victim = next(b for b in group.nodes if b.id == victim_id)
        survivor = next(b for b in group.nodes if b.id != victim_id)
        moved = set(led[victim_id])
        log(f"kill -9 of broker {victim_id}, leader of {len(moved)} partitions")
        victim.stopped_by_us = True
        t_kill = time.monotonic()
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait(timeout=30)
        sb.LIVE.pop(victim.pid, None)
        group.nodes = [b for b in group.nodes if b.id != victim_id]
        first = {}
        new_leader = {}
        cpu0 = lb.client_cpu_self()
        while len(first) < len(moved) and time.monotonic() < deadline:
            try:
                _, md = sb.raw_metadata(survivor.kafka_port, timeout=10)
            except OSError:
                time.sleep(args.poll_seconds)
                continue
            now = time.monotonic() - t_kill
            for name, p in moved:
                if (name, p) in first:
                    continue
                t = md["topics"].get(name)
                leader = t[1].get(p, -1) if t else -1
                if leader >= 0 and leader != victim_id:
                    first[(name, p)] = now
                    new_leader[leader] = new_leader.get(leader, 0) + 1
            time.sleep(args.poll_seconds)
        times = list(first.values())
        res["failover"] = {"victim": victim_id, "partitions_led": len(moved),
                           "new_leader_found": len(times),
                           "p50_s": pct(times, 50), "p99_s": pct(times, 99),
                           "max_s": max(times) if times else None,
                           "within_5s": sum(1 for t in times if t <= 5.0),
                           # How many partitions were first seen led in
                           # each half second after the kill: the shape
                           # says whether elections were paced (a ramp)
                           # or waited on one slow step (a cliff).
                           "led_per_half_second": [
                               sum(1 for t in times if i / 2 <= t < (i + 1) / 2)
                               for i in range(int(max(times, default=0) * 2) + 1)],
                           # Which survivor took the victim's partitions:
                           # whether the elections were shared.
                           "new_leaders": {str(k): v for k, v in sorted(new_leader.items())},
                           "poll_seconds": args.poll_seconds,
                           "poll_client_cpu_s": lb.client_cpu_self() - cpu0}
        log(f"failover: {len(times)}/{len(moved)} led again; p50 {res['failover']['p50_s']:.2f} s, "
            f"p99 {res['failover']['p99_s']:.2f} s, max {res['failover']['max_s']:.2f} s; "
            f"{res['failover']['within_5s']} within 5 s (polled every {args.poll_seconds} s, "
            f"{res['failover']['poll_client_cpu_s']:.1f} CPU-s of this client)")
        log(f"led per half second after the kill: {res['failover']['led_per_half_second']}; "
            f"new leaders by broker: {res['failover']['new_leaders']}")
        if load is not None:
            group.sleep(5)
            load_stop.set()
            try:
                lr = load_out.get(timeout=90)
            except Exception as e:  # noqa: BLE001 - reported, not raised
                lr = {"error": repr(e)}
            load.join(timeout=30)
            if load.is_alive():
                load.kill()
                load.join(timeout=5)
            acked_at = lr.pop("acked_at", [])
            # Which of the victim's partitions the load wrote shortly
            # before the kill (its order is fixed: partition j of `parts`
            # is written at started + (j + k * len(parts)) / rate), and
            # their failover against the others': awake groups elect by
            # openraft's own timers, quiet ones by the ticker's path.
            started = lr.get("started")
            if started is not None:
                index = {pp: j for j, pp in enumerate(parts)}
                n, rate = len(parts), args.produce_rate
                split = {}
                for pp, t in first.items():
                    j = index[pp]
                    k = int(((t_kill - started) * rate - j) // n)
                    since = t_kill - (started + (j + k * n) / rate) if k >= 0 else None
                    recent = since is not None and since <= 2.0
                    split.setdefault("written_2s_before_kill" if recent else "not", []).append(t)
                res["failover"]["by_recent_write"] = {
                    k: {"n": len(v), "p50_s": pct(v, 50), "p99_s": pct(v, 99), "max_s": max(v),
                        "over_5s": sum(1 for x in v if x > 5.0)}
                    for k, v in split.items()}
                log(f"failover by recent write: {res['failover']['by_recent_write']}")
            # The longest stretch without any acknowledgement from the kill on.
            after = sorted(t for t in acked_at if t >= t_kill)
            gaps = [b - a for a, b in zip([t_kill] + after, after)]
            lr["longest_ack_gap_after_kill_s"] = max(gaps, default=None)
            lr["acked_per_second_after_kill"] = [
                sum(1 for t in after if i <= t - t_kill < i + 1)
                for i in range(int(max((t - t_kill for t in after), default=0)) + 1)][:20]
            res["background_load"] = lr
            log(f"background load: sent {lr.get('sent')}, acked {lr.get('acked')}, "
                f"delivery errors {lr.get('delivery_errors')}, ack latency {lr.get('ack_latency_s')}, "
                f"longest gap without an ack after the kill {lr.get('longest_ack_gap_after_kill_s')}")
            log(f"acked per second after the kill: {lr.get('acked_per_second_after_kill')}")
        t = time.monotonic()
        again, _ = sb.produce_all(",".join(b.kafka_addr for b in group.nodes), parts, tag,
                                  deadline, group)
        res["write_after"] = {"seconds_since_kill": time.monotonic() - t_kill,
                              "acked": again["acked"], "errors": again["delivery_errors"],
                              "seconds": time.monotonic() - t}
        log(f"write after the kill: {again['acked']}/{len(parts)} acked in "
            f"{res['write_after']['seconds']:.2f} s ({res['write_after']['seconds_since_kill']:.2f} s "
            f"after the kill), errors {again['delivery_errors']}")
        res["ok"] = (len(times) == len(moved) and again["acked"] == len(parts)
                     and res.get("background_load", {}).get("delivery_errors", 0) == 0)
    finally:
        group.kill_all()
        res["logs"] = group.logs(4)
        res["loadavg_end"] = lb.loadavg()
        if not args.keep_data:
            shutil.rmtree(root, ignore_errors=True)
    text = json.dumps(res, indent=2, default=str)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0 if res.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
