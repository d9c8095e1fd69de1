#!/usr/bin/env python3
"""`tmk bench produce` against the librdkafka harness (loadbench.py's
producer), one broker, in the same run, with the machine's own limits.

One run does, in order:
  raw     - raw disk write with O_DIRECT (dd, 1 GiB of 1 MiB blocks) and
            loopback TCP (one Python stream), so the broker's figures read
            as fractions of what this machine can do at that moment;
  rounds  - a fresh broker (--cores 2); then, per round, alternating, the
            librdkafka producer of loadbench.py (one process, acks=all,
            1 KiB, 6 partitions, linger.ms=5, batch.size 1 MB) and
            `tmk bench produce` with the same shape (acks=all, 1 KiB, 6
            partitions), each on a fresh topic, bounded by count and time.
            Broker CPU is utime+stime from /proc/PID/stat over each client's
            run; client CPU is the client process's rusage.

The machine is shared and noisy (2 vCPUs): compare the ratios within one
run, and look at the load average recorded at the start and the end.

Usage:
  python3 benches/load/tmkbench.py --tmk /work/target-bench/release/tmk
      [--broker /work/bin/tidemark] [--work-dir /work/bench-tmp]
      [--rounds 2] [--messages 3000000] [--seconds 15]
      [--tmk-args "--connections 2 --inflight 4"] [--out FILE]
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import loadbench as lb  # noqa: E402


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, file=sys.stderr, flush=True)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_tmk_produce(tmk, bootstrap, topic, n, seconds, extra):
    cmd = [tmk, "-X", f"brokers={bootstrap}", "bench", "produce", topic, "-n", str(n),
           "--duration", str(int(seconds)), "-s", "1024", "--acks", "-1", "--format", "json"] + extra
    c0 = children_cpu()
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=seconds + 120)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError(f"tmk failed: {p.stderr.decode()[-2000:]}")
    s = json.loads(p.stdout)
    s["command"] = " ".join(cmd)
    s["client_cpu_s"] = round(children_cpu() - c0, 3)
    s["wall_s"] = round(wall, 3)
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tmk", required=True)
    ap.add_argument("--broker", default="/work/bin/tidemark")
    ap.add_argument("--work-dir", default="/work/bench-tmp")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--messages", type=int, default=3_000_000)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--tmk-args", default="")
    ap.add_argument("--skip-raw", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "tmkbench_last_run.json"))
    args = ap.parse_args()
    extra = args.tmk_args.split()

    os.makedirs(args.work_dir, exist_ok=True)
    run_dir = tempfile.mkdtemp(prefix="tmkbench-", dir=args.work_dir)
    res = {
        "benchmark": "tmk bench produce vs librdkafka (benches/load/tmkbench.py)",
        "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": lb.machine_info(),
        "loadavg_start": lb.loadavg(),
        "rounds": [],
    }
    broker = None
    try:
        if not args.skip_raw:
            log("raw: dd O_DIRECT 1 GiB, loopback 3 s")
            res["raw"] = {
                "disk_dd_1MiB_direct": lb.raw_dd(os.path.join(run_dir, "dd.1m"), "1M", 1024),
                "loopback_tcp": lb.raw_loopback(3.0),
            }
            log("disk", res["raw"]["disk_dd_1MiB_direct"]["MBps"], "MB/s; loopback",
                res["raw"]["loopback_tcp"]["MBps"], "MB/s")
        port = lb.free_port()
        bootstrap = f"127.0.0.1:{port}"
        bcmd = [args.broker, "--data-dir", os.path.join(run_dir, "data"), "--admin-addr", "127.0.0.1:0", "--kafka-addr", bootstrap,
                "--cores", str(args.cores)]
        res["broker_command"] = " ".join(bcmd)
        blog = open(os.path.join(run_dir, "broker.log"), "wb")
        broker = subprocess.Popen(bcmd, stdout=blog, stderr=subprocess.STDOUT)
        lb.wait_port(port, broker)
        from confluent_kafka.admin import AdminClient
        admin = AdminClient({"bootstrap.servers": bootstrap})
        clog = os.path.join(run_dir, "clients.log")
        for r in range(args.rounds):
            for who in ("librdkafka", "tmk"):
                topic = f"tput-{who}-{r}"
                errs = lb.create_topics(admin, [(topic, 6)])
                if errs:
                    raise RuntimeError(f"creating {topic}: {errs}")
                time.sleep(0.5)
                b0 = lb.proc_cpu_s(broker.pid)
                if who == "librdkafka":
                    s = lb.run_role("producer", {
                        "bootstrap": bootstrap, "topic": topic, "partitions": 6, "size": 1024,
                        "linger_ms": 5, "batch_size": 1000000,
                        "max_messages": args.messages, "seconds": args.seconds,
                    }, timeout=args.seconds + 120, log_path=clog)
                    msgs, secs = s["acked"], s["seconds"]
                    row = {"msgs_per_s": s["msgs_per_s"], "acked": msgs, "seconds": secs,
                           "client_cpu_s": s["client_cpu_s"]}
                else:
                    s = run_tmk_produce(args.tmk, bootstrap, topic, args.messages, args.seconds, extra)
                    msgs, secs = s["records"], s["seconds"]
                    row = {"msgs_per_s": round(s["records_per_sec"], 1), "acked": msgs,
                           "seconds": round(secs, 3), "client_cpu_s": s["client_cpu_s"],
                           "publish_ack_ms": s.get("publish_ack_ms"), "command": s["command"]}
                bcpu = lb.proc_cpu_s(broker.pid) - b0
                row.update({
                    "round": r, "client": who, "MBps_values": round(msgs * 1024 / secs / 1e6, 1),
                    "broker_cpu_s": round(bcpu, 3),
                    "broker_cpu_us_per_msg": round(bcpu / max(msgs, 1) * 1e6, 3),
                    "client_cpu_us_per_msg": round(row["client_cpu_s"] / max(msgs, 1) * 1e6, 3),
                    "loadavg_after": lb.loadavg(),
                })
                res["rounds"].append(row)
                log(who, "round", r, row["msgs_per_s"], "msg/s", row["MBps_values"], "MB/s",
                    "broker", row["broker_cpu_us_per_msg"], "us/msg", "client", row["client_cpu_us_per_msg"], "us/msg")
                admin.delete_topics([topic])
                time.sleep(1)
        best = {w: max((x["msgs_per_s"] for x in res["rounds"] if x["client"] == w), default=0)
                for w in ("librdkafka", "tmk")}
        res["best_msgs_per_s"] = best
        res["tmk_over_librdkafka_best"] = round(best["tmk"] / best["librdkafka"], 3) if best["librdkafka"] else None
        if "raw" in res:
            res["tmk_best_MBps_over_loopback"] = round(best["tmk"] * 1024 / 1e6 / res["raw"]["loopback_tcp"]["MBps"], 3)
            res["tmk_best_MBps_over_disk"] = round(best["tmk"] * 1024 / 1e6 / res["raw"]["disk_dd_1MiB_direct"]["MBps"], 3)
    finally:
        if broker is not None:
            broker.terminate()
            try:
                broker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                broker.kill()
        res["loadavg_end"] = lb.loadavg()
        shutil.rmtree(run_dir, ignore_errors=True)
    out = json.dumps(res, indent=1)
    print(out)
    with open(args.out, "w") as f:
        f.write(out + "\n")


if __name__ == "__main__":
    main()
