#!/usr/bin/env python3
"""End-to-end load benchmark for the tidemark broker, driven by librdkafka
(confluent-kafka).

One run does, in order:
  raw     - raw disk (dd O_DIRECT + fdatasync, and a write+fdatasync latency
            loop) and loopback TCP throughput, measured on the same machine in
            the same run, so the broker figures can be read as ratios;
  idle    - a fresh broker; RSS at start, then 1,000 partitions (100 topics x
            10) created, a few seconds idle, RSS and idle CPU; the idle topics
            are then deleted so they do not weigh on the load phases;
  produce - one producer process, acks=all, 1 KiB values, 6 partitions,
            linger.ms=5, batch.size 1 MB, no compression, bounded by count
            and time; throughput = acknowledged messages / (first produce ..
            flush() returned);
  consume - one consumer process, assign() all 6 partitions from offset 0,
            reads everything back; checks the count against the high
            watermarks and the producer's acknowledged count;
  latency - fixed rate (20,000 msg/s, linger.ms=1, acks=all) for a fixed time;
            publish-ack latency per message (delivery report - send) in the
            producer process, publish-to-consume latency (consume - send, the
            send time embedded in the value, CLOCK_MONOTONIC is shared by all
            processes) in a separate consumer process.
Broker CPU (utime+stime from /proc/PID/stat) and client CPU (getrusage in each
client process, librdkafka threads included) are taken for every phase, along
with whole-machine CPU from /proc/stat (so other load on the machine shows).

Each client also reports librdkafka's own statistics (requests sent, request
round-trip time rtt, time queued in the client), which separate broker time
from client time.

Prints one JSON document and writes it to benches/load/last_run.json.
The data dir must be on the real disk (not tmpfs); it is deleted at the end.

Usage:
  python3 benches/load/loadbench.py [--broker target/release/tidemark]
      [--work-dir /work/bench-tmp] [--produce-seconds 20]
      [--produce-max-messages 5000000] [--rate 20000] [--latency-seconds 15]
      [--phases raw,idle,produce,consume,latency] [--out FILE]
"""

import argparse
import json
import mmap
import os
import platform
import resource
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# --------------------------------------------------------------------------
# helpers


def pct(sorted_vals, p):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_vals:
        return None
    k = max(0, min(len(sorted_vals) - 1, int(-(-p * len(sorted_vals) // 100)) - 1))
    return sorted_vals[k]


def summary_us(vals_ns):
    """Percentiles in milliseconds (3 decimals) of a list of ns values."""
    v = sorted(vals_ns)
    if not v:
        return {"count": 0}
    f = lambda x: round(x / 1e6, 3)
    return {
        "count": len(v),
        "p50_ms": f(pct(v, 50)),
        "p90_ms": f(pct(v, 90)),
        "p99_ms": f(pct(v, 99)),
        "p999_ms": f(pct(v, 99.9)),
        "max_ms": f(v[-1]),
        "mean_ms": f(sum(v) / len(v)),
    }


def proc_cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        s = f.read()
    fields = s[s.rindex(")") + 2 :].split()
    # fields[0] is state (field 3); utime is field 14, stime field 15
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def thread_cpu_s(pid):
    """CPU seconds per thread name of a process (io_uring workers, whose
    names carry the owning thread's id, are summed as "iou-wrk")."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return out
    for t in tids:
        try:
            with open(f"/proc/{pid}/task/{t}/stat") as f:
                s = f.read()
        except FileNotFoundError:
            continue
        name = s[s.index("(") + 1 : s.rindex(")")]
        if name.startswith("iou-wrk") or name.startswith("iou-sqp"):
            name = name.split("-")[0] + "-" + name.split("-")[1]
        f = s[s.rindex(")") + 2 :].split()
        out[name] = out.get(name, 0.0) + (int(f[11]) + int(f[12])) / CLK_TCK
    return out


def proc_status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "VmSize", "Threads"):
                out[k] = int(v.split()[0])
    return out


def machine_cpu():
    """(busy_s, total_s) for the whole machine from /proc/stat."""
    with open("/proc/stat") as f:
        parts = f.readline().split()[1:]
    vals = [int(x) for x in parts[:8]]
    idle = vals[3] + vals[4]
    return (sum(vals) - idle) / CLK_TCK, sum(vals) / CLK_TCK


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


class PhaseMeter:
    """Broker CPU + machine CPU + wall time around a phase."""

    def __init__(self, pid):
        self.pid = pid

    def __enter__(self):
        self.t0 = time.monotonic()
        self.c0 = proc_cpu_s(self.pid)
        self.th0 = thread_cpu_s(self.pid)
        self.m0 = machine_cpu()
        self.l0 = loadavg()
        return self

    def __exit__(self, *a):
        self.t1 = time.monotonic()
        self.c1 = proc_cpu_s(self.pid)
        self.th1 = thread_cpu_s(self.pid)
        self.m1 = machine_cpu()
        self.l1 = loadavg()

    def result(self, client_cpu_s=0.0):
        wall = self.t1 - self.t0
        bcpu = self.c1 - self.c0
        mbusy = self.m1[0] - self.m0[0]
        return {
            "wall_s": round(wall, 3),
            "broker_cpu_s": round(bcpu, 3),
            "broker_cores": round(bcpu / wall, 3) if wall else None,
            "client_cpu_s": round(client_cpu_s, 3),
            "client_cores": round(client_cpu_s / wall, 3) if wall else None,
            "machine_busy_cores": round(mbusy / wall, 3) if wall else None,
            "other_load_cores": round((mbusy - bcpu - client_cpu_s) / wall, 3) if wall else None,
            # per broker thread, in cores (threads that exited during the
            # phase are missing; io_uring workers come and go, so their sum
            # is a lower bound)
            "broker_thread_cores": {k: round((v - self.th0.get(k, 0.0)) / wall, 3)
                                    for k, v in sorted(self.th1.items())
                                    if wall and v - self.th0.get(k, 0.0) > 0},
            "loadavg_start": self.l0,
            "loadavg_end": self.l1,
        }


def client_cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run_role(role, args, timeout, log_path):
    """Run this script in another process with --role; return its JSON."""
    cmd = [sys.executable, os.path.abspath(__file__), "--role", role, "--role-args", json.dumps(args)]
    with open(log_path, "ab") as log:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=log, timeout=timeout)
    out = p.stdout.decode().strip().splitlines()
    if p.returncode != 0 or not out:
        raise RuntimeError(f"role {role} failed rc={p.returncode}; see {log_path}")
    return json.loads(out[-1])


# --------------------------------------------------------------------------
# raw figures


def _dd_read(path, bs, direct):
    cmd = ["dd", f"if={path}", "of=/dev/null", f"bs={bs}"] + (["iflag=direct"] if direct else [])
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    wall = time.monotonic() - t0
    nbytes = int(p.stderr.decode().strip().splitlines()[-1].split()[0])
    return {"command": " ".join(cmd), "bytes": nbytes, "seconds": round(wall, 3),
            "MBps": round(nbytes / wall / 1e6, 1)}


def raw_dd(path, bs, count, read_back=False):
    cmd = ["dd", "if=/dev/zero", f"of={path}", f"bs={bs}", f"count={count}", "oflag=direct", "conv=fdatasync"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    wall = time.monotonic() - t0
    nbytes = int(p.stderr.decode().strip().splitlines()[-1].split()[0])
    out = {
        "command": " ".join(cmd),
        "bytes": nbytes,
        "seconds": round(wall, 3),
        "MBps": round(nbytes / wall / 1e6, 1),
        "dd_says": p.stderr.decode().strip().splitlines()[-1],
    }
    if read_back:
        # the file was written with O_DIRECT, so it is not in the page cache:
        # both reads go to the device (the buffered one with readahead)
        out["read_direct"] = _dd_read(path, bs, True)
        out["read_buffered"] = _dd_read(path, bs, False)
    os.unlink(path)
    return out


def raw_fdatasync(path, size, max_count, max_seconds):
    """O_DIRECT pwrite of `size` bytes at increasing offsets into a
    preallocated file, then fdatasync, one at a time (like a log that
    preallocates its segment and syncs before ack)."""
    total = size * max_count
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_DIRECT, 0o644)
    try:
        os.posix_fallocate(fd, 0, total)
        os.fsync(fd)
        buf = mmap.mmap(-1, size)  # page aligned
        buf.write(os.urandom(size))
        lat = []
        t0 = time.monotonic()
        off = 0
        while len(lat) < max_count and time.monotonic() - t0 < max_seconds:
            a = time.monotonic_ns()
            os.pwrite(fd, buf, off)
            os.fdatasync(fd)
            lat.append(time.monotonic_ns() - a)
            off += size
        wall = time.monotonic() - t0
    finally:
        os.close(fd)
        os.unlink(path)
    s = summary_us(lat)
    s["write_size"] = size
    s["MBps"] = round(off / wall / 1e6, 1)
    s["syncs_per_s"] = round(len(lat) / wall, 1)
    return s


def raw_loopback(seconds=3.0, chunk=1 << 20):
    """One TCP stream over 127.0.0.1 between two processes (sendall of 1 MiB
    buffers / recv_into a 1 MiB buffer)."""
    code_rx = r"""
import socket, sys, time, resource
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True)
c, _ = s.accept()
buf = bytearray(1 << 20); mv = memoryview(buf)
n = 0; t0 = None
while True:
    k = c.recv_into(mv)
    if not k: break
    if t0 is None: t0 = time.monotonic()
    n += k
t1 = time.monotonic()
r = resource.getrusage(resource.RUSAGE_SELF)
print(n, t1 - t0, r.ru_utime + r.ru_stime, flush=True)
"""
    code_tx = r"""
import socket, sys, time, resource
port, secs, chunk = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
c = socket.create_connection(("127.0.0.1", port))
buf = b"\0" * chunk
t0 = time.monotonic(); n = 0
while time.monotonic() - t0 < secs:
    for _ in range(16):
        c.sendall(buf); n += chunk
c.close()
r = resource.getrusage(resource.RUSAGE_SELF)
print(n, r.ru_utime + r.ru_stime, flush=True)
"""
    rx = subprocess.Popen([sys.executable, "-c", code_rx], stdout=subprocess.PIPE)
    port = int(rx.stdout.readline())
    tx = subprocess.run([sys.executable, "-c", code_tx, str(port), str(seconds), str(chunk)],
                        stdout=subprocess.PIPE, timeout=seconds + 30)
    out = rx.stdout.readline().split()
    rx.wait(timeout=30)
    n, secs, rx_cpu = int(out[0]), float(out[1]), float(out[2])
    tx_n, tx_cpu = tx.stdout.split()
    return {
        "bytes": n,
        "seconds": round(secs, 3),
        "MBps": round(n / secs / 1e6, 1),
        "sender_cpu_s": round(float(tx_cpu), 3),
        "receiver_cpu_s": round(rx_cpu, 3),
        "how": "one TCP stream, python sendall(1 MiB) -> recv_into(1 MiB), 2 processes",
    }


# --------------------------------------------------------------------------
# client roles (run in their own processes)


class Stats:
    """Keeps librdkafka's latest statistics (statistics.interval.ms) and
    reduces them to the per-broker request figures: requests sent, request
    round trip (rtt: from the request written to the response read, i.e.
    the broker's time plus the loopback), time in librdkafka's own queue
    (int_latency) and output buffer (outbuf_latency); microseconds."""

    def __init__(self):
        self.last = None

    def cb(self, js):
        self.last = js

    def reduce(self):
        if not self.last:
            return None
        d = json.loads(self.last)
        out = {}
        for b in d.get("brokers", {}).values():
            if b.get("nodeid", -1) < 0:
                continue
            w = lambda k: {q: b.get(k, {}).get(q) for q in ("p50", "p99", "p99_99", "max", "cnt")}
            out[b["name"]] = {
                "requests_sent": b.get("tx"), "bytes_sent": b.get("txbytes"),
                "responses": b.get("rx"), "bytes_received": b.get("rxbytes"),
                "rtt_us": w("rtt"), "int_latency_us": w("int_latency"),
                "outbuf_latency_us": w("outbuf_latency"),
                "req": {k: v for k, v in b.get("req", {}).items() if v},
            }
        return {"brokers": out, "note": "rtt/int_latency windows cover the last statistics interval only"}


def role_producer(a):
    from confluent_kafka import Producer

    errors = []
    nerr = [0]

    def on_err(err, msg):
        if err is not None:
            nerr[0] += 1
            if len(errors) < 20:
                errors.append(str(err))

    conf = {
        "bootstrap.servers": a["bootstrap"],
        "acks": "all",
        "linger.ms": a["linger_ms"],
        "batch.size": a["batch_size"],
        "compression.type": "none",
        "queue.buffering.max.messages": 200000,
        "queue.buffering.max.kbytes": 262144,
        "delivery.report.only.error": True,
        "on_delivery": on_err,
        "message.max.bytes": 1048576,
        "statistics.interval.ms": 1000,
    }
    stats = Stats()
    conf["stats_cb"] = stats.cb
    p = Producer(conf)
    topic, parts = a["topic"], a["partitions"]
    value = os.urandom(a["size"])
    max_n, max_s = a["max_messages"], a["seconds"]
    # warm the connection + metadata
    p.list_topics(topic, timeout=10)
    cpu0 = client_cpu_self()
    t0 = time.monotonic()
    n = 0
    full_waits = 0
    deadline = t0 + max_s
    produce = p.produce
    while n < max_n:
        if (n & 0x3FF) == 0:
            if time.monotonic() >= deadline:
                break
            p.poll(0)
        try:
            produce(topic, value, partition=n % parts)
            n += 1
        except BufferError:
            full_waits += 1
            p.poll(0.001)
    t_sent = time.monotonic()
    left = p.flush(60)
    t1 = time.monotonic()
    cpu1 = client_cpu_self()
    # delivery.report.only.error: every message not reported as failed and
    # not left in the queue was acknowledged.
    acked = n - left - nerr[0]
    print(json.dumps({
        "sent": n,
        "left_in_queue_after_flush": left,
        "error_reports_sample": errors,
        "error_reports": nerr[0],
        "acked": acked,
        "seconds": round(t1 - t0, 3),
        "produce_loop_seconds": round(t_sent - t0, 3),
        "flush_seconds": round(t1 - t_sent, 3),
        "msgs_per_s": round(acked / (t1 - t0), 1),
        "MBps_values": round(acked * a["size"] / (t1 - t0) / 1e6, 1),
        "queue_full_waits": full_waits,
        "client_cpu_s": round(cpu1 - cpu0, 3),
        "client_cores": round((cpu1 - cpu0) / (t1 - t0), 3),
        "config": {k: v for k, v in conf.items() if k not in ("on_delivery", "stats_cb")},
        "librdkafka_stats": stats.reduce(),
    }), flush=True)


def role_consumer(a):
    from confluent_kafka import Consumer, TopicPartition

    conf = {
        "bootstrap.servers": a["bootstrap"],
        "group.id": "loadbench-unused",
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,
        "fetch.max.bytes": 52428800,
        "max.partition.fetch.bytes": 4194304,
        "queued.max.messages.kbytes": 262144,
        "fetch.wait.max.ms": 100,
        "statistics.interval.ms": 1000,
    }
    stats = Stats()
    c = Consumer(dict(conf, stats_cb=stats.cb))
    topic, parts = a["topic"], a["partitions"]
    hw = [c.get_watermark_offsets(TopicPartition(topic, i), timeout=10) for i in range(parts)]
    expected = sum(h - l for l, h in hw)
    cpu0 = client_cpu_self()
    t0 = time.monotonic()
    c.assign([TopicPartition(topic, i, 0) for i in range(parts)])
    n = 0
    errs = []
    t_first = None
    deadline = t0 + a["max_seconds"]
    consume = c.consume
    while n < expected and time.monotonic() < deadline:
        msgs = consume(10000, 0.5)
        if not msgs:
            continue
        if t_first is None:
            t_first = time.monotonic()
        for m in msgs:
            if m.error():
                if len(errs) < 20:
                    errs.append(str(m.error()))
                n -= 1
        n += len(msgs)
    t1 = time.monotonic()
    cpu1 = client_cpu_self()
    pos = c.position([TopicPartition(topic, i) for i in range(parts)])
    positions = [tp.offset for tp in pos]
    c.poll(0)  # serve a pending stats callback
    c.close()
    wall = t1 - t0
    print(json.dumps({
        "expected_from_watermarks": expected,
        "watermarks": hw,
        "consumed": n,
        "positions_at_end": positions,
        "positions_match_high_watermarks": positions == [h for _, h in hw],
        "errors_sample": errs,
        "seconds": round(wall, 3),
        "seconds_from_first_message": round(t1 - t_first, 3) if t_first else None,
        "msgs_per_s": round(n / wall, 1),
        "MBps_values": round(n * a["size"] / wall / 1e6, 1),
        "client_cpu_s": round(cpu1 - cpu0, 3),
        "client_cores": round((cpu1 - cpu0) / wall, 3),
        "timed_out": n < expected,
        "config": conf,
        "librdkafka_stats": stats.reduce(),
    }), flush=True)


def role_lat_producer(a):
    from confluent_kafka import Producer

    acks = []  # (send_ns, ack_latency_ns)
    errors = []
    now = time.monotonic_ns
    unpack = struct.unpack_from

    def on_dr(err, msg):
        t = now()
        if err is not None:
            if len(errors) < 20:
                errors.append(str(err))
            return
        ts = unpack("<q", msg.value(), 0)[0]
        acks.append((ts, t - ts))

    conf = {
        "bootstrap.servers": a["bootstrap"],
        "acks": "all",
        "linger.ms": a["linger_ms"],
        "compression.type": "none",
        "on_delivery": on_dr,
        "statistics.interval.ms": int(a["seconds"] * 1000) - 500,
    }
    stats = Stats()
    conf["stats_cb"] = stats.cb
    p = Producer(conf)
    topic, parts, rate, secs = a["topic"], a["partitions"], a["rate"], a["seconds"]
    total = int(rate * secs)
    pad = os.urandom(a["size"] - 16)
    p.list_topics(topic, timeout=10)
    # start at the time the parent chose, so the consumer is surely ready
    while time.monotonic_ns() < a["start_ns"]:
        time.sleep(0.001)
    cpu0 = client_cpu_self()
    t0 = now()
    warm_end = t0 + int(a["warmup_s"] * 1e9)
    lags = []
    n = 0
    hard_deadline = t0 + int((secs + 10) * 1e9)
    tick = 1_000_000  # 1 ms
    next_tick = t0
    while n < total and now() < hard_deadline:
        # send everything due by now
        due = min(total, (now() - t0) * rate // 1_000_000_000 + 1)
        while n < due:
            sched = t0 + n * 1_000_000_000 // rate
            ts = now()
            lags.append(ts - sched)
            try:
                p.produce(topic, struct.pack("<qq", ts, n) + pad, partition=n % parts)
            except BufferError:
                p.poll(0.001)
                continue
            n += 1
        next_tick += tick
        # serve delivery reports until the next tick (poll wakes on reports;
        # its timeout is whole milliseconds, so never ask for less than 1 ms,
        # which would be a 0 ms poll and a busy loop)
        while True:
            rem = next_tick - now()
            if rem <= 0:
                break
            p.poll(max(rem / 1e9, 0.001))
    t_sent = now()
    left = p.flush(30)
    t1 = now()
    cpu1 = client_cpu_self()
    # acks are appended in ack order; select steady state by send time
    print(json.dumps({
        "sent": n,
        "target_total": total,
        "acked": len(acks),
        "left_in_queue_after_flush": left,
        "errors_sample": errors,
        "t0_ns": t0,
        "send_seconds": round((t_sent - t0) / 1e9, 3),
        "achieved_rate": round(n / ((t_sent - t0) / 1e9), 1),
        "send_lag_behind_schedule": summary_us(lags),
        "client_cpu_s": round(cpu1 - cpu0, 3),
        "client_cores": round((cpu1 - cpu0) / ((t1 - t0) / 1e9), 3),
        "config": {k: v for k, v in conf.items() if k not in ("on_delivery", "stats_cb")},
        "librdkafka_stats": stats.reduce(),
        "_ack_lat_ns": acks,
    }), flush=True)


def role_lat_consumer(a):
    from confluent_kafka import Consumer, TopicPartition

    conf = {
        "bootstrap.servers": a["bootstrap"],
        "group.id": "loadbench-unused",
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,
        "fetch.wait.max.ms": 500,
        "fetch.min.bytes": 1,
        "statistics.interval.ms": int(a["stats_interval_s"] * 1000),
    }
    stats = Stats()
    c = Consumer(dict(conf, stats_cb=stats.cb))
    topic, parts, expected = a["topic"], a["partitions"], a["expected"]
    c.assign([TopicPartition(topic, i, 0) for i in range(parts)])
    c.consume(100, 0.5)  # connect + first fetch
    print("READY", flush=True)
    cpu0 = client_cpu_self()
    t0 = time.monotonic()
    deadline = t0 + a["max_seconds"]
    now = time.monotonic_ns
    unpack = struct.unpack_from
    lat = []  # (send_ns, e2e_ns)
    errs = []
    seen = 0
    dup = 0
    seqs = bytearray(expected)
    while seen < expected and time.monotonic() < deadline:
        # take whatever is already fetched without waiting (consume() with a
        # timeout waits for the full count or the timeout, which would add
        # its own delay); when nothing is there, block for the next message.
        msgs = c.consume(1000, 0)
        if not msgs:
            m = c.poll(0.1)
            if m is None:
                continue
            msgs = [m]
        t = now()
        for m in msgs:
            if m.error():
                if len(errs) < 20:
                    errs.append(str(m.error()))
                continue
            ts, seq = unpack("<qq", m.value(), 0)
            lat.append((ts, t - ts))
            if 0 <= seq < expected:
                if seqs[seq]:
                    dup += 1
                else:
                    seqs[seq] = 1
                    seen += 1
    t1 = time.monotonic()
    cpu1 = client_cpu_self()
    c.poll(0)
    c.close()
    missing = expected - seen
    print(json.dumps({
        "expected": expected,
        "received_distinct": seen,
        "duplicates": dup,
        "missing": missing,
        "missing_first_seqs": [i for i in range(expected) if not seqs[i]][:20] if missing else [],
        "errors_sample": errs,
        "client_cpu_s": round(cpu1 - cpu0, 3),
        "seconds": round(t1 - t0, 3),
        "client_cores": round((cpu1 - cpu0) / (t1 - t0), 3),
        "config": conf,
        "librdkafka_stats": stats.reduce(),
        "_lat": lat,
    }), flush=True)


# --------------------------------------------------------------------------
# orchestration


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, proc, timeout=30):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"broker exited rc={proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return time.monotonic() - t0
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("broker did not open its port")


def create_topics(admin, specs, timeout=60, config=None):
    from confluent_kafka.admin import NewTopic

    fs = admin.create_topics([NewTopic(n, p, 1, config=config or {}) for n, p in specs], operation_timeout=30, request_timeout=timeout)
    errs = {}
    for t, f in fs.items():
        try:
            f.result(timeout=timeout)
        except Exception as e:  # noqa
            errs[t] = str(e)
    return errs


def machine_info():
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem = f.readline().split()[1]
    return {
        "nproc": os.cpu_count(),
        "cpu_model": model,
        "kernel": platform.release(),
        "mem_total_kb": int(mem),
        "python": platform.python_version(),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--role")
    ap.add_argument("--role-args")
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--work-dir", default="/work/bench-tmp")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--produce-seconds", type=float, default=20)
    ap.add_argument("--produce-max-messages", type=int, default=5_000_000)
    ap.add_argument("--rate", type=int, default=20000)
    ap.add_argument("--latency-seconds", type=float, default=15)
    ap.add_argument("--warmup-seconds", type=float, default=1.0)
    ap.add_argument("--idle-topics", type=int, default=100)
    ap.add_argument("--idle-partitions-per-topic", type=int, default=10)
    ap.add_argument("--idle-wait-seconds", type=float, default=5)
    ap.add_argument("--idle-segment-bytes", type=int, default=0,
                    help="segment.bytes of the idle topics (0: broker default). Brokers "
                         "before 60a874a preallocated every active segment to segment.bytes "
                         "(1,000 partitions x 1 GiB = 1 TB); since then 1 MiB, growing")
    ap.add_argument("--keep-data", action="store_true")
    ap.add_argument("--phases", default="raw,idle,produce,consume,latency",
                    help="comma-separated subset of raw,idle,produce,consume,latency")
    ap.add_argument("--out", default=os.path.join(HERE, "last_run.json"))
    args = ap.parse_args()

    if args.role:
        ra = json.loads(args.role_args)
        {"producer": role_producer, "consumer": role_consumer,
         "lat_producer": role_lat_producer, "lat_consumer": role_lat_consumer}[args.role](ra)
        return

    import confluent_kafka
    from confluent_kafka.admin import AdminClient

    phases = set(args.phases.split(","))

    def log(*m):
        print(f"[{time.strftime('%H:%M:%S')}]", *m, file=sys.stderr, flush=True)

    os.makedirs(args.work_dir, exist_ok=True)
    run_dir = tempfile.mkdtemp(prefix="loadbench-", dir=args.work_dir)
    fs_type = subprocess.run(["stat", "-f", "-c", "%T", run_dir], stdout=subprocess.PIPE).stdout.decode().strip()
    res = RES
    res.update({
        "benchmark": "tidemark end-to-end load (benches/load/loadbench.py)",
        "command": " ".join([os.path.basename(sys.executable)] + [os.path.relpath(sys.argv[0], REPO)] + sys.argv[1:]),
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine_info(),
        "loadavg_start": loadavg(),
        "uptime_start": subprocess.run(["uptime"], stdout=subprocess.PIPE).stdout.decode().strip(),
        "clients": {"confluent_kafka": confluent_kafka.version()[0], "librdkafka": confluent_kafka.libversion()[0]},
        "work_dir": run_dir,
        "work_dir_fs": fs_type,
        "problems": [],
    })
    problems = res["problems"]

    # ---- disk space: the broker preallocates each active segment (1 GiB by
    # default) and the produce phase writes up to max-messages x ~1 KiB.
    # (growing preallocation: 1 MiB per idle partition, <= 64 MiB ahead per
    # active one; the free space is checked again after the idle topics exist)
    need = 12 * (64 << 20) + args.produce_max_messages * 1100 + args.idle_topics * args.idle_partitions_per_topic * (args.idle_segment_bytes or (1 << 20)) + (2 << 30)
    stv = os.statvfs(run_dir)
    free = stv.f_bavail * stv.f_frsize
    res["disk_free_GB_at_start"] = round(free / 1e9, 1)
    res["disk_needed_GB_estimate"] = round(need / 1e9, 1)
    if free < need + (10 << 30):
        raise SystemExit(f"not enough free disk in {run_dir}: {free / 1e9:.1f} GB free, ~{need / 1e9:.1f} GB needed + 10 GB margin")

    if "raw" in phases:
        # ---- raw figures
        log("raw disk + loopback")
        raw = {}
        raw["disk_dd_1MiB"] = raw_dd(os.path.join(run_dir, "dd.1m"), "1M", 512, read_back=True)
        raw["disk_dd_64KiB"] = raw_dd(os.path.join(run_dir, "dd.64k"), "64k", 4096)
        raw["fdatasync_4KiB"] = raw_fdatasync(os.path.join(run_dir, "sync.4k"), 4096, 3000, 3)
        raw["fdatasync_64KiB"] = raw_fdatasync(os.path.join(run_dir, "sync.64k"), 65536, 2000, 3)
        raw["fdatasync_1MiB"] = raw_fdatasync(os.path.join(run_dir, "sync.1m"), 1 << 20, 500, 3)
        raw["loopback_tcp"] = raw_loopback(3.0)
        res["raw"] = raw

    # ---- broker
    port = free_port()
    data_dir = os.path.join(run_dir, "data")
    blog_path = os.path.join(run_dir, "broker.log")
    clog_path = os.path.join(run_dir, "clients.log")
    bcmd = [args.broker, "--data-dir", data_dir, "--admin-addr", "127.0.0.1:0", "--kafka-addr", f"127.0.0.1:{port}", "--cores", str(args.cores)]
    res["broker_command"] = " ".join(bcmd)
    st = os.stat(args.broker)
    res["broker_binary"] = {"path": args.broker, "mtime": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(st.st_mtime)), "size": st.st_size}
    log("starting broker:", " ".join(bcmd))
    blog = open(blog_path, "wb")
    broker = subprocess.Popen(bcmd, stdout=blog, stderr=subprocess.STDOUT)
    bpid = broker.pid
    bootstrap = f"127.0.0.1:{port}"
    try:
        res["broker_start_seconds"] = round(wait_port(port, broker), 3)
        admin = AdminClient({"bootstrap.servers": bootstrap})
        time.sleep(0.5)
        idle = {"rss_kb_fresh": proc_status(bpid)["VmRSS"]}

        if "idle" in phases:
            # ---- idle with 1,000 partitions
            log("idle: creating", args.idle_topics, "x", args.idle_partitions_per_topic, "partitions")
            t = time.monotonic()
            icfg = {}
            if args.idle_segment_bytes:
                icfg = {"segment.bytes": str(args.idle_segment_bytes),
                        "max.message.bytes": str(min(1000000, args.idle_segment_bytes))}
            idle["topic_config"] = icfg
            errs = create_topics(admin, [(f"idle-{i:03d}", args.idle_partitions_per_topic) for i in range(args.idle_topics)], config=icfg)
            idle["create_seconds"] = round(time.monotonic() - t, 3)
            stv = os.statvfs(run_dir)
            idle["disk_free_GB_after_create"] = round(stv.f_bavail * stv.f_frsize / 1e9, 1)
            if stv.f_bavail * stv.f_frsize < (10 << 30):
                admin.delete_topics([f"idle-{i:03d}" for i in range(args.idle_topics)], operation_timeout=30)
                raise RuntimeError(f"idle topics left only {idle['disk_free_GB_after_create']} GB free; deleted them, stopping")
            if errs:
                problems.append(f"idle topic creation errors: {dict(list(errs.items())[:5])} ({len(errs)} total)")
            md = admin.list_topics(timeout=30)
            idle["partitions_in_metadata"] = sum(len(tp.partitions) for tp in md.topics.values())
            time.sleep(1)
            with PhaseMeter(bpid) as pm:
                time.sleep(args.idle_wait_seconds)
            st = proc_status(bpid)
            idle.update({"rss_kb_1000_partitions": st["VmRSS"], "threads": st["Threads"], "vmsize_kb": st["VmSize"]})
            idle["rss_MB_1000_partitions"] = round(st["VmRSS"] / 1024, 1)
            idle["idle_meter"] = pm.result()
            t = time.monotonic()
            fs = admin.delete_topics([f"idle-{i:03d}" for i in range(args.idle_topics)], operation_timeout=30)
            derr = {}
            for tname, f in fs.items():
                try:
                    f.result(timeout=60)
                except Exception as e:  # noqa
                    derr[tname] = str(e)
            idle["delete_seconds"] = round(time.monotonic() - t, 3)
            if derr:
                problems.append(f"idle topic deletion errors: {dict(list(derr.items())[:5])} ({len(derr)} total)")
            time.sleep(1)
            idle["rss_kb_after_delete"] = proc_status(bpid)["VmRSS"]
            res["idle"] = idle
            log("idle RSS with 1000 partitions:", idle["rss_MB_1000_partitions"], "MB")

        # ---- produce throughput
        errs = create_topics(admin, [("bench-tput", 6), ("bench-lat", 6)])
        if errs:
            problems.append(f"bench topic creation errors: {errs}")
            raise RuntimeError(f"bench topic creation failed: {errs}")
        if "produce" in phases:
            log("produce throughput")
            with PhaseMeter(bpid) as pm:
                prod = run_role("producer", {
                    "bootstrap": bootstrap, "topic": "bench-tput", "partitions": 6, "size": 1024,
                    "linger_ms": 5, "batch_size": 1000000,
                    "max_messages": args.produce_max_messages, "seconds": args.produce_seconds,
                }, timeout=args.produce_seconds + 120, log_path=clog_path)
            prod["phase"] = pm.result(prod["client_cpu_s"])
            prod["broker_cores_during_measured"] = round(pm.result()["broker_cpu_s"] / prod["seconds"], 3)
            res["produce"] = prod
            if prod["left_in_queue_after_flush"] or prod["error_reports_sample"]:
                problems.append(f"producer: {prod['left_in_queue_after_flush']} left after flush, errors {prod['error_reports_sample'][:3]}")
            log("produce:", prod["msgs_per_s"], "msg/s", prod["acked"], "acked")

        # ---- consume throughput
        if "consume" in phases:
            log("consume throughput")
            with PhaseMeter(bpid) as pm:
                cons = run_role("consumer", {
                    "bootstrap": bootstrap, "topic": "bench-tput", "partitions": 6, "size": 1024,
                    "max_seconds": 90,
                }, timeout=150, log_path=clog_path)
            cons["phase"] = pm.result(cons["client_cpu_s"])
            res["consume"] = cons
            if "produce" in phases and cons["expected_from_watermarks"] != prod["acked"]:
                problems.append(f"high watermarks total {cons['expected_from_watermarks']} != producer acked {prod['acked']}")
            if cons["consumed"] != cons["expected_from_watermarks"] or not cons["positions_match_high_watermarks"]:
                problems.append(f"consumer read {cons['consumed']} of {cons['expected_from_watermarks']}, positions {cons['positions_at_end']} vs watermarks {cons['watermarks']}")
            if cons["errors_sample"]:
                problems.append(f"consumer errors: {cons['errors_sample'][:3]}")
            log("consume:", cons["msgs_per_s"], "msg/s", cons["consumed"], "read")

        if "latency" in phases:
            # ---- fixed-rate latency
            log("latency at", args.rate, "msg/s for", args.latency_seconds, "s")
            expected = int(args.rate * args.latency_seconds)
            lc_cmd = [sys.executable, os.path.abspath(__file__), "--role", "lat_consumer", "--role-args", json.dumps({
                "bootstrap": bootstrap, "topic": "bench-lat", "partitions": 6, "expected": expected,
                "max_seconds": args.latency_seconds + 40,
                "stats_interval_s": args.latency_seconds + 1,
            })]
            clog = open(clog_path, "ab")
            with PhaseMeter(bpid) as pm:
                lc = subprocess.Popen(lc_cmd, stdout=subprocess.PIPE, stderr=clog)
                line = lc.stdout.readline().decode().strip()
                if line != "READY":
                    raise RuntimeError(f"latency consumer did not start: {line!r}")
                start_ns = time.monotonic_ns() + 1_500_000_000
                lp = run_role("lat_producer", {
                    "bootstrap": bootstrap, "topic": "bench-lat", "partitions": 6, "size": 1024,
                    "linger_ms": 1, "rate": args.rate, "seconds": args.latency_seconds,
                    "start_ns": start_ns, "warmup_s": args.warmup_seconds,
                }, timeout=args.latency_seconds + 90, log_path=clog_path)
                out, _ = lc.communicate(timeout=args.latency_seconds + 60)
            lcr = json.loads(out.decode().strip().splitlines()[-1])
            t0 = lp["t0_ns"]
            warm = t0 + int(args.warmup_seconds * 1e9)
            ack_all = lp.pop("_ack_lat_ns")
            e2e = lcr.pop("_lat")
            e2e_steady = [d for ts, d in e2e if ts >= warm]
            lat = {
                "rate_target": args.rate,
                "seconds": args.latency_seconds,
                "warmup_excluded_s": args.warmup_seconds,
                "publish_ack": summary_us([d for ts, d in ack_all if ts >= warm]),
                "publish_ack_all": summary_us([d for _, d in ack_all]),
                "publish_to_consume_steady": summary_us(e2e_steady),
                "publish_to_consume_all": summary_us([d for _, d in e2e]),
                "producer": lp,
                "consumer": lcr,
            }
            # Whether slow acks are spread out or come in a burst (a device
            # stall shows up as one or two bad seconds): per second of the
            # phase (by send time), acks over 5 ms and the worst one.
            per_sec = {}
            for ts, d in ack_all:
                sec = int((ts - t0) // 1_000_000_000)
                n_slow, worst = per_sec.get(sec, (0, 0))
                per_sec[sec] = (n_slow + (d > 5_000_000), max(worst, d))
            lat["publish_ack_by_second"] = [
                {"second": k, "acks_over_5ms": v[0], "max_ms": round(v[1] / 1e6, 2)}
                for k, v in sorted(per_sec.items())
            ]
            lat["phase"] = pm.result(lp["client_cpu_s"] + lcr["client_cpu_s"])
            res["latency"] = lat
            if lcr["missing"] or lcr["duplicates"] or lp["acked"] != lp["sent"]:
                problems.append(f"latency phase: sent {lp['sent']}, acked {lp['acked']}, consumed distinct {lcr['received_distinct']}, missing {lcr['missing']} (first {lcr['missing_first_seqs'][:5]}), duplicates {lcr['duplicates']}")
            log("latency: ack p99", lat["publish_ack"].get("p99_ms"), "e2e p99", lat["publish_to_consume_steady"].get("p99_ms"))

        del admin  # close the admin client before the broker goes away
        st = proc_status(bpid)
        res["broker_final"] = {
            "peak_rss_kb_VmHWM": st["VmHWM"], "peak_rss_MB": round(st["VmHWM"] / 1024, 1),
            "rss_kb_end": st["VmRSS"], "threads": st["Threads"],
            "cpu_s_total": round(proc_cpu_s(bpid), 3),
        }
    finally:
        if broker.poll() is None:
            t = time.monotonic()
            broker.terminate()  # SIGTERM to our broker's PID
            try:
                rc = broker.wait(timeout=30)
                res["broker_shutdown"] = {"rc": rc, "seconds": round(time.monotonic() - t, 3)}
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
        res["broker_log"] = {"lines": len(lines), "warn_error_lines": len(bad), "warn_error_sample": bad[:10], "path": blog_path}
        if bad:
            problems.append(f"broker logged {len(bad)} WARN/ERROR lines, e.g. {bad[0][:300]}")
        try:
            with open(clog_path, "rb") as f:
                cl = f.read().decode(errors="replace").splitlines()
            res["client_log"] = {"lines": len(cl), "sample": cl[:10], "path": clog_path}
        except FileNotFoundError:
            pass
        if not args.keep_data:
            shutil.rmtree(data_dir, ignore_errors=True)

    res["loadavg_end"] = loadavg()
    res["uptime_end"] = subprocess.run(["uptime"], stdout=subprocess.PIPE).stdout.decode().strip()
    res["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())

    # ---- targets and ratios (each only where its phases ran)
    def g(*path):
        v = res
        for k in path:
            if not isinstance(v, dict) or k not in v or v[k] is None:
                return None
            v = v[k]
        return v

    def ratio(a, b, nd=3):
        return round(a / b, nd) if a is not None and b else None

    def below(a, lim):
        return None if a is None else a < lim

    def atleast(a, lim):
        return None if a is None else a >= lim

    prod_MBps = g("produce", "MBps_values")
    res["ratios"] = {
        "produce_MBps_vs_raw_dd_1MiB": ratio(prod_MBps, g("raw", "disk_dd_1MiB", "MBps")),
        "produce_MBps_vs_raw_fdatasync_1MiB_loop": ratio(prod_MBps, g("raw", "fdatasync_1MiB", "MBps")),
        "consume_MBps_vs_loopback": ratio(g("consume", "MBps_values"), g("raw", "loopback_tcp", "MBps")),
        "consume_MBps_vs_raw_disk_read_buffered_1MiB": ratio(g("consume", "MBps_values"), g("raw", "disk_dd_1MiB", "read_buffered", "MBps")),
        "consume_MBps_vs_raw_disk_read_direct_1MiB": ratio(g("consume", "MBps_values"), g("raw", "disk_dd_1MiB", "read_direct", "MBps")),
        "publish_ack_p99_vs_raw_fdatasync_64KiB_p99": ratio(g("latency", "publish_ack", "p99_ms"), g("raw", "fdatasync_64KiB", "p99_ms"), 2),
        "publish_ack_p50_vs_raw_fdatasync_64KiB_p50": ratio(g("latency", "publish_ack", "p50_ms"), g("raw", "fdatasync_64KiB", "p50_ms"), 2),
        "produce_vs_librdkafka_ceiling_400k": ratio(g("produce", "msgs_per_s"), 400000),
        "consume_vs_librdkafka_ceiling_700k": ratio(g("consume", "msgs_per_s"), 700000),
    }
    res["targets"] = {
        "publish_ack_p99_under_5ms": below(g("latency", "publish_ack", "p99_ms"), 5),
        "publish_to_consume_p99_under_10ms": below(g("latency", "publish_to_consume_steady", "p99_ms"), 10),
        "produce_at_least_300k_msgs_per_s": atleast(g("produce", "msgs_per_s"), 300000),
        "consume_at_least_500k_msgs_per_s": atleast(g("consume", "msgs_per_s"), 500000),
        "idle_rss_under_100MB_with_1000_partitions": below(g("idle", "rss_kb_1000_partitions"), 100 * 1024),
    }
    lat_keys = ("p50_ms", "p99_ms", "p999_ms", "max_ms")
    res["summary"] = {
        "produce_msgs_per_s": g("produce", "msgs_per_s"),
        "produce_broker_cores": g("produce", "phase", "broker_cores"),
        "produce_client_cores": g("produce", "client_cores"),
        "produce_other_load_cores": g("produce", "phase", "other_load_cores"),
        "consume_msgs_per_s": g("consume", "msgs_per_s"),
        "consume_broker_cores": g("consume", "phase", "broker_cores"),
        "consume_client_cores": g("consume", "client_cores"),
        "consume_other_load_cores": g("consume", "phase", "other_load_cores"),
        "latency_rate": g("latency", "rate_target"),
        "publish_ack_ms": {k: g("latency", "publish_ack", k) for k in lat_keys},
        "publish_to_consume_ms": {k: g("latency", "publish_to_consume_steady", k) for k in lat_keys},
        "latency_broker_cores": g("latency", "phase", "broker_cores"),
        "latency_client_cores": g("latency", "phase", "client_cores"),
        "latency_other_load_cores": g("latency", "phase", "other_load_cores"),
        "broker_peak_rss_MB": g("broker_final", "peak_rss_MB"),
        "idle_rss_MB_1000_partitions": g("idle", "rss_MB_1000_partitions"),
        "raw_dd_1MiB_MBps": g("raw", "disk_dd_1MiB", "MBps"),
        "raw_read_1MiB_buffered_MBps": g("raw", "disk_dd_1MiB", "read_buffered", "MBps"),
        "raw_fdatasync_4KiB_p50_p99_ms": [g("raw", "fdatasync_4KiB", "p50_ms"), g("raw", "fdatasync_4KiB", "p99_ms")],
        "raw_fdatasync_64KiB_p50_p99_ms": [g("raw", "fdatasync_64KiB", "p50_ms"), g("raw", "fdatasync_64KiB", "p99_ms")],
        "raw_loopback_MBps": g("raw", "loopback_tcp", "MBps"),
        "loadavg_start_end": [res["loadavg_start"], res["loadavg_end"]],
    }
    text = json.dumps(res, indent=2)
    with open(args.out, "w") as f:
        f.write(text + "\n")
    print(text)


RES = {}

if __name__ == "__main__":
    try:
        main()
    except BaseException as e:  # write what was measured, then fail
        if RES and "--role" not in sys.argv:
            RES["error"] = repr(e)
            out = os.path.join(HERE, "last_run.json")
            if "--out" in sys.argv:
                out = sys.argv[sys.argv.index("--out") + 1]
            with open(out, "w") as f:
                json.dump(RES, f, indent=2)
        raise
