#!/usr/bin/env python3
"""Partition-density benchmark for the tidemark broker: what N partitions
cost in creation time, memory, disk, Metadata latency, stop and restart.
Driven by librdkafka (confluent-kafka), kafka-python (the read-back) and
raw Metadata requests; reuses benches/load/loadbench.py as a module
(machine info, raw figures, /proc helpers), as clusterbench.py does.

For each N in --partitions and each mode in --modes ("single": one broker,
replication factor 1; "three": three brokers on this machine, racks
zone-1/2/3, replication factor 3), on a fresh data folder:

  0 start   - start the broker(s); ready when a Metadata request to every
              broker lists every broker and a controller; base RSS (VmRSS
              from /proc/PID/status, summed over the brokers) and disk
              usage of the empty broker(s);
  1 create  - N partitions as topics of --partitions-per-topic partitions
              (the last topic takes the remainder), CreateTopics through
              AdminClient.create_topics, --create-batch topics per request,
              each batch's futures waited for (operation and request
              timeouts 120 s; failed topics retried twice); then until a
              Metadata request to every broker shows a leader for every
              partition. Creation wall time and partitions/second for both;
  2 empty   - RSS and disk right after creation: totals and per partition
              ((value - base) / N; for three nodes also per replica,
              / (N x 3)). Disk is allocated bytes (sum of st_blocks x 512
              over the data folders, hard links once), as `du` counts them,
              plus the apparent size;
  3 write   - one 100-byte record to every partition (one Producer,
              acks=all, linger.ms=50, produce(topic, partition=p) for every
              partition, flush bounded by the step deadline); delivery
              errors are counted (must be 0). RSS right after ("active") and
              after --idle-seconds without traffic ("idle"), broker CPU
              while idle, disk after the writes;
  4 metadata - AdminClient.list_topics() for all topics, 5 times (min /
              median / max ms, librdkafka and the Python objects included),
              the same as a raw Metadata v1 request on a socket (request
              sent -> last byte of the response read: the broker and the
              wire only), and both for a single topic;
  5 restart - twice on the same data: first SIGTERM to every broker (time
              until each process exits, bounded at --stop-timeout s, then
              SIGKILL, reported), then SIGKILL (kill -9) of every broker.
              After each stop the broker(s) are started again and timed
              from the first Popen: (a) until the Kafka port accepts a TCP
              connection, per broker; (b) until every partition is served:
              a Metadata request to every broker shows a leader for every
              partition, and up to --read-consumers assign()-only consumers
              (kafka-python, group_id=None: librdkafka's consumer needs a
              group.id and its coordinator lookup would create
              __consumer_offsets mid-run; --read-client confluent to use it
              anyway), one per 2,000 partitions, read back every
              acknowledged record of every partition from offset 0
              (missing = partitions with an acknowledged record not read
              back by the deadline, must be 0; client CPU is recorded, as
              the client's own parsing is part of the time). A restart
              that does not serve everything ends the case. Then one more
              record is written to every partition (errors counted), RSS
              once everything was served and again after --idle-seconds,
              against the RSS before the stop;
  6 end     - SIGTERM (then SIGKILL) every broker by its PID; the data
              folder is removed unless --keep-data.

Every wait is bounded: each step has a deadline of --timeout-base +
--timeout-per-partition x N seconds and reports "timeout" when it passes.
A case is skipped when the disk cannot hold it (1.2 MiB per replica until a
case has measured it, then twice the measured figure + 64 KiB), and stopped
(its brokers SIGKILLed) when MemAvailable falls under --min-mem-available-mb
or the free disk under 2 GiB. The broker
binary is copied into the run folder first, so a rebuild during the run
does not change what is measured. Every broker gets --cores (default 1,
as clusterbench; 0 = the broker's default, every core). All traffic goes to
127.0.0.1, on free ports.

Writes JSON to --out (after every case, so a long run that is stopped keeps
what it measured) and a readable summary to stderr. Broker log WARN/ERROR
lines (many are expected around stops and kill -9) are counted as notes,
panics as problems.

Usage:
  python3 benches/load/scalebench.py --broker target/release/tidemark
      [--work-dir /work/bench-tmp] [--partitions 1000,10000,50000]
      [--modes single,three] [--partitions-per-topic 5] [--create-batch 100]
      [--idle-seconds 45] [--phases raw,create,write,metadata,restart]
      [--cores 1] [--read-consumers 4] [--stop-timeout 120]
      [--timeout-base 300] [--timeout-per-partition 0.1]
      [--min-mem-available-mb 3072] [--keep-data] [--out FILE]

Small check (a few minutes):
  python3 benches/load/scalebench.py --broker target/release/tidemark \\
      --partitions 200 --modes single,three --idle-seconds 5 --out /tmp/scale-small.json
"""

import argparse
import hashlib
import json
import logging
import math
import os
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import loadbench as lb  # noqa: E402
from clusterbench import Node, log, wait_binary  # noqa: E402

RECORD_SIZE = 100
MIB = 1 << 20
# librdkafka's and kafka-python's log lines go to clients.log in the run
# folder (counted and sampled in the JSON), not to stderr
CLIENT_LOGGER = logging.getLogger("scalebench.clients")


class StepTimeout(Exception):
    pass


class Guard(Exception):
    """A broker died or the machine ran short of memory: the case stops
    (memory: at once, by SIGKILL)."""

    def __init__(self, msg, kill=False):
        super().__init__(msg)
        self.kill = kill


def proc_mem(pid):
    """VmRSS and its parts (anonymous, file-backed, shmem), VmHWM, threads."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem", "Threads"):
                out[k] = int(v.split()[0])
    return out


# --------------------------------------------------------------------------
# measurements


def mem_available_kb():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    return None


def disk_usage(paths):
    """Allocated bytes (st_blocks x 512, each inode once, as du) and apparent
    bytes under the given folders."""
    seen = set()
    alloc = apparent = files = dirs = 0
    for root in paths:
        if not os.path.exists(root):
            continue
        stack = [root]
        while stack:
            d = stack.pop()
            try:
                it = os.scandir(d)
            except OSError:
                continue
            with it:
                for e in it:
                    try:
                        st = e.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    key = (st.st_dev, st.st_ino)
                    if key in seen:
                        continue
                    seen.add(key)
                    alloc += st.st_blocks * 512
                    if e.is_dir(follow_symlinks=False):
                        dirs += 1
                        stack.append(e.path)
                    else:
                        files += 1
                        apparent += st.st_size
    return {"allocated_bytes": alloc, "allocated_MB": round(alloc / 1e6, 2),
            "apparent_bytes": apparent, "files": files, "dirs": dirs}


def ms_summary(vals_s):
    v = sorted(vals_s)
    if not v:
        return {"count": 0}
    return {"count": len(v), "min_ms": round(v[0] * 1e3, 2),
            "median_ms": round(statistics.median(v) * 1e3, 2),
            "max_ms": round(v[-1] * 1e3, 2)}


# --------------------------------------------------------------------------
# raw Metadata v1 (no client library in the timing)


def _recv_exact(sock, n):
    buf = bytearray(n)
    mv = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(mv[got:], n - got)
        if not k:
            raise ConnectionError("connection closed mid-response")
        got += k
    return bytes(buf)


def raw_metadata(port, topics=None, timeout=30.0):
    """One Metadata v1 request (topics None = all topics) to 127.0.0.1:port.
    Returns (seconds from the request sent to the last byte read, parsed
    response): {"brokers": [ids], "controller": id, "topics": {name:
    (error, {partition: leader})}, "bytes": n}."""
    cid = b"scalebench"
    body = struct.pack(">hhih", 3, 1, 7, len(cid)) + cid
    if topics is None:
        body += struct.pack(">i", -1)
    else:
        body += struct.pack(">i", len(topics))
        for t in topics:
            tb = t.encode()
            body += struct.pack(">h", len(tb)) + tb
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        t0 = time.monotonic()
        s.sendall(struct.pack(">i", len(body)) + body)
        size = struct.unpack(">i", _recv_exact(s, 4))[0]
        resp = _recv_exact(s, size)
        dt = time.monotonic() - t0
    return dt, _parse_metadata_v1(resp)


def _parse_metadata_v1(b):
    o = 4  # correlation id
    u16 = struct.Struct(">h").unpack_from
    u32 = struct.Struct(">i").unpack_from

    def string(o):
        (n,) = u16(b, o)
        o += 2
        if n < 0:
            return None, o
        return b[o:o + n].decode(), o + n

    (nb,) = u32(b, o)
    o += 4
    brokers = []
    for _ in range(nb):
        (nid,) = u32(b, o)
        o += 4
        _, o = string(o)
        o += 4
        _, o = string(o)
        brokers.append(nid)
    (controller,) = u32(b, o)
    o += 4
    (nt,) = u32(b, o)
    o += 4
    topics = {}
    for _ in range(nt):
        (terr,) = u16(b, o)
        o += 2
        name, o = string(o)
        o += 1  # is_internal
        (np_,) = u32(b, o)
        o += 4
        parts = {}
        for _ in range(np_):
            _perr, idx, leader = struct.unpack_from(">hii", b, o)
            o += 10
            (nr,) = u32(b, o)
            o += 4 + 4 * max(nr, 0)
            (ni,) = u32(b, o)
            o += 4 + 4 * max(ni, 0)
            parts[idx] = leader
        topics[name] = (terr, parts)
    return {"brokers": sorted(brokers), "controller": controller, "topics": topics, "bytes": len(b) + 4}


def leaders_status(md, expected):
    """(partitions of `expected` {topic: count} with a leader, total)."""
    ok = 0
    total = 0
    for name, n in expected.items():
        total += n
        t = md["topics"].get(name)
        if t is None or t[0] != 0:
            continue
        ok += sum(1 for p in range(n) if t[1].get(p, -1) >= 0)
    return ok, total


# --------------------------------------------------------------------------
# brokers

LIVE = {}  # pid -> Popen, every broker this process started and has not reaped


class Broker(Node):
    """clusterbench's Node (folders, ports, `alive`), started with the
    broker's defaults where scalebench passes none (`--cores 0`: every
    core; one node: no cluster flags), appending to its log across
    restarts and tracked in LIVE."""

    def __init__(self, node_id, binary, root, cluster, cores):
        super().__init__(node_id, binary, root, f"zone-{node_id}", cores, cluster)
        self.pid = None
        self.starts = 0
        self.stopped_by_us = False

    def cmd(self, seeds):
        c = [self.binary, "--data-dir", self.data_dir, "--admin-addr", "127.0.0.1:0", "--kafka-addr", self.kafka_addr]
        if self.cluster:
            c = [self.binary, "--node-id", str(self.id), "--data-dir", self.data_dir,
                 "--admin-addr", "127.0.0.1:0", "--kafka-addr", self.kafka_addr, "--rpc-addr", f"127.0.0.1:{self.rpc_port}",
                 "--rack", self.rack, "--seeds", seeds]
        if self.cores:
            c += ["--cores", str(self.cores)]
        return c

    def start(self, seeds):
        os.makedirs(self.dir, exist_ok=True)
        self.logf = open(self.log_path, "ab")
        self.starts += 1
        self.stopped_by_us = False
        self.logf.write(f"==== scalebench: start {self.starts} at {time.strftime('%H:%M:%S')}\n".encode())
        self.logf.flush()
        self.proc = subprocess.Popen(self.cmd(seeds), stdout=self.logf, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        LIVE[self.pid] = self.proc

    def reaped(self):
        if self.proc is not None and self.proc.poll() is not None:
            LIVE.pop(self.pid, None)
            if self.logf:
                self.logf.close()
                self.logf = None
            return True
        return False

    def status(self):
        try:
            return proc_mem(self.pid)
        except (FileNotFoundError, ProcessLookupError, TypeError):
            return {}

    def cpu_s(self):
        try:
            return lb.proc_cpu_s(self.pid)
        except (FileNotFoundError, ProcessLookupError, TypeError):
            return None

    def log_summary(self, tail=10):
        try:
            with open(self.log_path, "rb") as f:
                lines = f.read().decode(errors="replace").splitlines()
        except FileNotFoundError:
            lines = []
        bad = [l for l in lines if (" ERROR " in l or " WARN " in l)]
        panics = [l for l in lines if "panicked" in l]
        return {"node": self.id, "lines": len(lines), "warn_error_lines": len(bad),
                "warn_error_sample": [l[:400] for l in bad[:8]],
                "panics": len(panics), "panic_sample": [l[:400] for l in panics[:4]],
                "tail": [l[:400] for l in lines[-tail:]]}


class Group:
    """The broker(s) of one case: one, or three in a cluster."""

    def __init__(self, binary, root, n, cores, min_mem_mb):
        self.n = n
        self.root = root
        os.makedirs(root, exist_ok=True)
        self.nodes = [Broker(i + 1, binary, root, n > 1, cores) for i in range(n)]
        self.seeds = ",".join(f"{b.id}@127.0.0.1:{b.rpc_port}" for b in self.nodes) if n > 1 else None
        self.min_mem_kb = min_mem_mb * 1024
        self.min_mem_seen_kb = None

    @property
    def bootstrap(self):
        return ",".join(b.kafka_addr for b in self.nodes)

    @property
    def data_dirs(self):
        return [b.data_dir for b in self.nodes]

    def commands(self):
        return [" ".join(b.cmd(self.seeds)) for b in self.nodes]

    def start(self):
        for b in self.nodes:
            b.start(self.seeds)

    def check(self):
        """Raises Guard when a broker exited or memory is short."""
        for b in self.nodes:
            if not b.alive():
                rc = b.proc.returncode if b.proc else None
                raise Guard(f"node {b.id} (pid {b.pid}) exited rc={rc}")
        avail = mem_available_kb()
        if avail is not None:
            if self.min_mem_seen_kb is None or avail < self.min_mem_seen_kb:
                self.min_mem_seen_kb = avail
            if avail < self.min_mem_kb:
                raise Guard(f"MemAvailable {avail // 1024} MB < {self.min_mem_kb // 1024} MB "
                            f"(brokers' RSS {self.rss()['rss_MB']} MB)", kill=True)
        st = os.statvfs(self.root)
        if st.f_bavail * st.f_frsize < (2 << 30):
            raise Guard(f"free disk {st.f_bavail * st.f_frsize / 1e9:.2f} GB < 2 GiB", kill=True)

    def sleep(self, seconds):
        end = time.monotonic() + seconds
        while True:
            self.check()
            left = end - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(1.0, left))

    def wait_listen(self, t0, deadline):
        """Seconds from t0 until each broker's Kafka port accepts a TCP
        connection ("timeout" when the deadline passed)."""
        out = {}
        pending = list(self.nodes)
        while pending and time.monotonic() < deadline:
            self.check()
            for b in list(pending):
                try:
                    socket.create_connection(("127.0.0.1", b.kafka_port), timeout=0.5).close()
                    out[str(b.id)] = round(time.monotonic() - t0, 3)
                    pending.remove(b)
                except OSError:
                    pass
            if pending:
                time.sleep(0.02)
        for b in pending:
            out[str(b.id)] = "timeout"
        return out

    def wait_ready(self, deadline):
        """Until a Metadata request to every broker lists n brokers and a
        controller."""
        last = None
        while time.monotonic() < deadline:
            self.check()
            good = 0
            for b in self.nodes:
                try:
                    _, md = raw_metadata(b.kafka_port, topics=[], timeout=5)
                    last = {"node": b.id, "brokers": md["brokers"], "controller": md["controller"]}
                    if len(md["brokers"]) == self.n and md["controller"] >= 0:
                        good += 1
                except Exception as e:  # noqa
                    last = {"node": b.id, "error": repr(e)}
            if good == self.n:
                return
            time.sleep(0.1)
        raise StepTimeout(f"brokers not ready by the deadline; last Metadata {last}")

    def rss(self):
        st = [b.status() for b in self.nodes]
        each = [s.get("VmRSS") for s in st]
        tot = lambda k: sum(s.get(k) or 0 for s in st)
        return {"rss_kb": sum(x or 0 for x in each), "rss_MB": round(sum(x or 0 for x in each) / 1024, 1),
                "anon_MB": round(tot("RssAnon") / 1024, 1), "file_MB": round(tot("RssFile") / 1024, 1),
                "shmem_MB": round(tot("RssShmem") / 1024, 1),
                "rss_kb_each": each, "hwm_kb_each": [s.get("VmHWM") for s in st],
                "threads_each": [s.get("Threads") for s in st]}

    def cpu_s(self):
        v = [b.cpu_s() for b in self.nodes]
        return None if any(x is None for x in v) else sum(v)

    def disk(self):
        return disk_usage(self.data_dirs)

    def stop(self, how, timeout):
        """how: "sigterm" (then SIGKILL after timeout s) or "kill9". Sends the
        signal to every broker at once (by our own Popen's PID) and times
        each exit."""
        sig = signal.SIGTERM if how == "sigterm" else signal.SIGKILL
        t0 = time.monotonic()
        out = {}
        for b in self.nodes:
            if b.alive():
                os.kill(b.pid, sig)  # our own Popen's PID
                b.stopped_by_us = True
            else:
                out[str(b.id)] = {"already_exited": True, "rc": b.proc.returncode if b.proc else None,
                                  "stopped_by_us_before": b.stopped_by_us, "never_started": b.proc is None}
        pending = [b for b in self.nodes if str(b.id) not in out]
        while pending and time.monotonic() - t0 < timeout:
            for b in list(pending):
                if b.proc.poll() is not None:
                    out[str(b.id)] = {"seconds": round(time.monotonic() - t0, 3), "rc": b.proc.returncode}
                    pending.remove(b)
            if pending:
                time.sleep(0.01)
        for b in pending:
            b.proc.kill()
            try:
                b.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            out[str(b.id)] = {"seconds": "timeout", "rc": b.proc.returncode,
                              "problem": f"did not exit within {timeout} s of {sig.name}; SIGKILLed"}
        for b in self.nodes:
            b.reaped()
        secs = [v["seconds"] for v in out.values() if isinstance(v.get("seconds"), (int, float))]
        return {"how": how, "each": out, "max_seconds": max(secs) if len(secs) == len(out) and secs else "timeout"}

    def kill_all(self):
        for b in self.nodes:
            if b.alive():
                b.stopped_by_us = True
                b.proc.kill()
                try:
                    b.proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    pass
            b.reaped()

    def logs(self, tail=10):
        return [b.log_summary(tail) for b in self.nodes]

    def leaders_everywhere(self, expected, deadline, on_poll=None):
        """Until a Metadata request to every broker shows a leader for every
        partition of `expected`. Returns the last status per broker; raises
        StepTimeout at the deadline."""
        interval = 0.1
        status = {}
        last_log = time.monotonic()
        while True:
            self.check()
            all_ok = True
            for b in self.nodes:
                try:
                    dt, md = raw_metadata(b.kafka_port, timeout=max(1.0, min(60.0, deadline - time.monotonic())))
                    ok, total = leaders_status(md, expected)
                    status[str(b.id)] = {"with_leader": ok, "total": total, "request_ms": round(dt * 1e3, 1)}
                    interval = max(0.1, min(2.0, 2 * dt))
                    if ok < total:
                        all_ok = False
                except Exception as e:  # noqa
                    status[str(b.id)] = {"error": repr(e)[:200]}
                    all_ok = False
            if on_poll:
                on_poll(status)
            if not all_ok and time.monotonic() - last_log > 15:
                last_log = time.monotonic()
                log(f"  waiting for leaders: {status}")
            if all_ok:
                return status
            if time.monotonic() + interval >= deadline:
                raise StepTimeout(f"not every partition has a leader on every broker by the deadline: {status}")
            time.sleep(interval)


# --------------------------------------------------------------------------
# client work


def value_of(tag, topic, p):
    return f"{tag}|{topic}|{p}|".encode().ljust(RECORD_SIZE, b".")


def produce_all(bootstrap, parts, tag, deadline, group):
    """One record to every (topic, partition) in `parts`. Returns the figures
    and {(topic, p): [(offset, value)]} of what was acknowledged."""
    from confluent_kafka import Producer

    left_s = max(10.0, deadline - time.monotonic())
    acked = {}
    errs = []
    cerrs = []

    def on_dr(err, msg):
        if err is not None:
            errs.append(f"{msg.topic()}[{msg.partition()}]: {err}")
            return
        acked.setdefault((msg.topic(), msg.partition()), []).append((msg.offset(), msg.value()))

    def on_err(err):
        if len(cerrs) < 20:
            cerrs.append(str(err))

    conf = {"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 50,
            "message.timeout.ms": int(left_s * 1000),
            "request.timeout.ms": 120000,
            "queue.buffering.max.messages": max(100000, len(parts) + 1000),
            "queue.buffering.max.kbytes": 1048576,
            "reconnect.backoff.ms": 50, "reconnect.backoff.max.ms": 1000,
            "on_delivery": on_dr, "error_cb": on_err, "logger": CLIENT_LOGGER}
    prod = Producer(conf)
    cpu0 = lb.client_cpu_self()
    out = {"config": {k: v for k, v in conf.items() if k not in ("on_delivery", "error_cb", "logger")},
           "partitions": len(parts)}
    t0 = time.monotonic()
    sent = 0
    timed_out = False
    try:
        for topic, p in parts:
            while True:
                try:
                    prod.produce(topic, value_of(tag, topic, p), partition=p)
                    sent += 1
                    break
                except BufferError:
                    prod.poll(0.05)
                    if time.monotonic() > deadline:
                        timed_out = True
                        break
            if timed_out:
                break
            if sent % 1000 == 0:
                prod.poll(0)
                group.check()
        t_sent = time.monotonic()
        left = len(prod)
        while left and time.monotonic() < deadline:
            left = prod.flush(min(1.0, max(0.1, deadline - time.monotonic())))
            group.check()
        t1 = time.monotonic()
        if left:
            timed_out = True
            prod.purge()
            prod.flush(5)
    finally:
        prod = None
    n_acked = sum(len(v) for v in acked.values())
    out.update({
        "sent": sent, "acked": n_acked, "delivery_errors": len(errs),
        "delivery_errors_sample": errs[:5], "client_errors_sample": cerrs[:5],
        "left_unacked_at_deadline": left if timed_out else 0,
        "produce_calls_seconds": round(t_sent - t0, 3),
        "seconds": round(t1 - t0, 3),
        "client_cpu_s": round(lb.client_cpu_self() - cpu0, 3),
        "records_per_s": round(n_acked / (t1 - t0), 1) if t1 > t0 else None,
        "result": "timeout" if timed_out else "ok",
    })
    return out, acked


def read_back(bootstrap, expected, deadline, consumers, group, client):
    """Reads every partition of `expected` {(topic, p): {offset: value}}
    from offset 0 with assign()-only consumers in threads, until each
    partition returned its acknowledged records or the deadline. client:
    "kafka-python" (group_id=None: no coordinator, so no
    __consumer_offsets is created) or "confluent" (librdkafka wants a
    group.id and looks up its coordinator even for assign(), which creates
    __consumer_offsets on the broker). Returns (figures, monotonic time the
    last partition completed or None)."""
    keys = sorted(expected)
    k = max(1, min(consumers, math.ceil(len(keys) / 2000)))
    slices = [keys[i::k] for i in range(k)]
    lock = threading.Lock()
    res = {"read": 0, "mismatched": 0, "extra": 0, "errors": 0, "errors_sample": [], "done_at": [],
           "exceptions": [], "missing_keys": []}
    remaining_total = [len(keys)]
    stop = threading.Event()

    def account(remaining, recs, n_err, err_sample):
        n_read = n_bad = n_extra = done = 0
        for topic, part, offset, value in recs:
            n_read += 1
            key = (topic, part)
            want = remaining.get(key)
            if want is None:
                n_extra += 1
                continue
            v = want.pop(offset, None)
            if v is None:
                n_extra += 1
            elif v != value:
                n_bad += 1
            if not want:
                del remaining[key]
                done += 1
        with lock:
            res["read"] += n_read
            res["mismatched"] += n_bad
            res["extra"] += n_extra
            res["errors"] += n_err
            if len(res["errors_sample"]) < 5:
                res["errors_sample"].extend(err_sample[:5 - len(res["errors_sample"])])
            remaining_total[0] -= done
            if done and remaining_total[0] == 0:
                res["done_at"].append(time.monotonic())

    def worker_confluent(i, sl, remaining):
        from confluent_kafka import Consumer, TopicPartition

        c = Consumer({"bootstrap.servers": bootstrap, "group.id": "scalebench-read",
                      "enable.auto.commit": False, "enable.partition.eof": False,
                      "fetch.wait.max.ms": 100, "reconnect.backoff.ms": 50,
                      "reconnect.backoff.max.ms": 1000, "topic.metadata.refresh.interval.ms": 5000,
                      "client.id": f"scalebench-read-{i}", "logger": CLIENT_LOGGER})
        try:
            c.assign([TopicPartition(t, p, 0) for t, p in sl])
            while remaining and time.monotonic() < deadline and not stop.is_set():
                recs = []
                errs = []
                for m in c.consume(10000, 0.5):
                    if m.error():
                        errs.append(str(m.error()))
                    else:
                        recs.append((m.topic(), m.partition(), m.offset(), m.value()))
                account(remaining, recs, len(errs), errs)
        finally:
            c.close()

    def worker_kafka_python(i, sl, remaining):
        from kafka import KafkaConsumer, TopicPartition

        c = None
        last = None
        while c is None and time.monotonic() < deadline and not stop.is_set():
            try:
                c = KafkaConsumer(bootstrap_servers=bootstrap.split(","), group_id=None,
                                  enable_auto_commit=False, auto_offset_reset="earliest",
                                  fetch_max_wait_ms=100, max_poll_records=20000,
                                  reconnect_backoff_ms=50, reconnect_backoff_max_ms=1000,
                                  retry_backoff_ms=100, client_id=f"scalebench-read-{i}")
            except Exception as e:  # noqa (NoBrokersAvailable while the broker starts)
                last = e
                time.sleep(0.2)
        if c is None:
            raise RuntimeError(f"kafka-python consumer not created: {last!r}")
        try:
            tps = [TopicPartition(t, p) for t, p in sl]
            c.assign(tps)
            for tp in tps:
                c.seek(tp, 0)
            while remaining and time.monotonic() < deadline and not stop.is_set():
                got = c.poll(timeout_ms=500, max_records=20000)
                recs = [(r.topic, r.partition, r.offset, r.value) for lst in got.values() for r in lst]
                account(remaining, recs, 0, [])
        finally:
            c.close()

    def worker(i, sl):
        remaining = {key: dict(expected[key]) for key in sl}
        try:
            if client == "confluent":
                worker_confluent(i, sl, remaining)
            else:
                worker_kafka_python(i, sl, remaining)
        except Exception as e:  # noqa
            with lock:
                res["exceptions"].append(repr(e)[:300])
        with lock:
            res["missing_keys"].extend(remaining.keys())

    threads = [threading.Thread(target=worker, args=(i, sl), daemon=True) for i, sl in enumerate(slices)]
    cpu0 = lb.client_cpu_self()
    w0 = time.monotonic()
    for t in threads:
        t.start()
    try:
        while any(t.is_alive() for t in threads):
            if time.monotonic() > deadline + 30:
                break
            try:
                group.check()
            except Guard:
                stop.set()
                raise
            for t in threads:
                t.join(timeout=0.2)
    finally:
        stop.set()
    for t in threads:
        t.join(timeout=30)
    stuck = [t for t in threads if t.is_alive()]
    wall = time.monotonic() - w0
    client_cpu = lb.client_cpu_self() - cpu0
    with lock:
        missing = list(res["missing_keys"])
    out = {"client": client, "consumers": k, "partitions": len(keys),
           "records_expected": sum(len(v) for v in expected.values()),
           "records_read": res["read"], "partitions_missing": len(missing) + (len(keys) if stuck and not missing else 0),
           "partitions_missing_sample": [f"{t}[{p}]" for t, p in missing[:5]],
           "value_mismatches": res["mismatched"], "extra_records": res["extra"],
           "consume_errors": res["errors"], "consume_errors_sample": res["errors_sample"],
           "exceptions": res["exceptions"], "threads_stuck": len(stuck),
           "seconds": round(wall, 3), "client_cpu_s": round(client_cpu, 3),
           "client_cores": round(client_cpu / wall, 3) if wall else None}
    done_at = res["done_at"][0] if (res["done_at"] and not missing and not stuck) else None
    return out, done_at


# --------------------------------------------------------------------------
# one case


def rss_figures(group, base_kb, n, rf):
    r = group.rss()
    r["per_partition_kb"] = round((r["rss_kb"] - base_kb) / n, 2) if n else None
    if rf > 1:
        r["per_replica_kb"] = round((r["rss_kb"] - base_kb) / (n * rf), 2) if n else None
    return r


def disk_figures(group, base, n, rf):
    d = group.disk()
    d["per_partition_kb"] = round((d["allocated_bytes"] - base["allocated_bytes"]) / n / 1024, 2) if n else None
    if rf > 1:
        d["per_replica_kb"] = round((d["allocated_bytes"] - base["allocated_bytes"]) / (n * rf) / 1024, 2) if n else None
    return d


def idle_figures(group, seconds, base_kb, n, rf):
    c0 = group.cpu_s()
    t0 = time.monotonic()
    group.sleep(seconds)
    wall = time.monotonic() - t0
    c1 = group.cpu_s()
    r = rss_figures(group, base_kb, n, rf)
    r["idle_seconds"] = round(wall, 1)
    r["broker_cores_while_idle"] = round((c1 - c0) / wall, 4) if (c0 is not None and c1 is not None and wall) else None
    return r


def run_case(case, n_req, mode, binary, root, args, phases, disk_per_replica_est):
    """Fills `case` (already in the results, so an interrupted run keeps what
    was measured)."""
    from confluent_kafka.admin import AdminClient, NewTopic

    nb = {"single": 1, "three": 3}[mode]
    rf = nb
    ppt = max(1, args.partitions_per_topic)
    ntopics = math.ceil(n_req / ppt)
    specs = [(f"scale-{i:05d}", min(ppt, n_req - i * ppt)) for i in range(ntopics)]
    step_s = args.timeout_base + args.timeout_per_partition * n_req
    case.update({"mode": mode, "partitions_requested": n_req, "brokers": nb, "replication_factor": rf,
                 "topics": ntopics, "partitions_per_topic": ppt, "step_timeout_s": round(step_s, 1),
                 "loadavg_start": lb.loadavg()})

    # ---- disk space
    need = int(n_req * rf * disk_per_replica_est + (1 << 30))
    stv = os.statvfs(root)
    free = stv.f_bavail * stv.f_frsize
    case["disk_free_GB_before"] = round(free / 1e9, 1)
    case["disk_needed_GB_estimate"] = round(need / 1e9, 2)
    case["disk_estimate_per_replica_kb"] = round(disk_per_replica_est / 1024, 1)
    if free < need + args.disk_margin_gb * (1 << 30):
        case["skipped"] = (f"not enough disk: {free / 1e9:.1f} GB free, ~{need / 1e9:.1f} GB needed "
                           f"+ {args.disk_margin_gb} GB margin")
        log(f"[{mode} {n_req}] SKIPPED: {case['skipped']}")
        return case

    cdir = os.path.join(root, f"{mode}-{n_req}")
    group = Group(binary, cdir, nb, args.cores, args.min_mem_available_mb)
    case["commands"] = group.commands()
    admin = None
    topics = {}  # name -> partitions, the ones created
    acked = {}  # (topic, p) -> {offset: value}
    tag = f"[{mode} {n_req}]"
    try:
        # ---- 0: start, base figures
        log(f"{tag} starting {nb} broker(s)")
        t0 = time.monotonic()
        group.start()
        case["pids"] = [b.pid for b in group.nodes]
        listen = group.wait_listen(t0, t0 + 120)
        if "timeout" in listen.values():
            raise StepTimeout(f"brokers did not listen within 120 s: {listen}")
        group.wait_ready(t0 + 120)
        case["start"] = {"listen_s_each": listen, "ready_s": round(time.monotonic() - t0, 3)}
        group.sleep(2)
        base = group.rss()
        base_disk = group.disk()
        case["base"] = {"rss": base, "disk": base_disk}
        log(f"{tag} ready in {case['start']['ready_s']} s; base RSS {base['rss_MB']} MB, disk {base_disk['allocated_MB']} MB")

        # ---- 1: create
        admin = AdminClient({"bootstrap.servers": group.bootstrap, "reconnect.backoff.max.ms": 1000,
                             "logger": CLIENT_LOGGER})
        dl = time.monotonic() + step_s
        cr = {"batch_topics": args.create_batch, "errors": 0, "errors_sample": [], "retried_topics": 0,
              "already_existed_on_retry": 0}
        c_cpu0 = group.cpu_s()
        t0 = time.monotonic()
        last_log = t0
        timed_out = False
        for bi in range(0, len(specs), args.create_batch):
            batch = specs[bi:bi + args.create_batch]
            pending = batch
            for attempt in range(3):
                if time.monotonic() > dl:
                    timed_out = True
                    break
                group.check()
                fs = admin.create_topics([NewTopic(name, p, rf) for name, p in pending],
                                         operation_timeout=120, request_timeout=120)
                failed = []
                for name, p in pending:
                    try:
                        fs[name].result(timeout=max(1.0, min(180.0, dl - time.monotonic())))
                        topics[name] = p
                    except Exception as e:  # noqa
                        msg = str(e) or type(e).__name__
                        if attempt > 0 and ("TOPIC_ALREADY_EXISTS" in msg or "already exists" in msg):
                            topics[name] = p
                            cr["already_existed_on_retry"] += 1
                            continue
                        cr["errors"] += 1
                        if len(cr["errors_sample"]) < 5:
                            cr["errors_sample"].append(f"{name}: {msg[:300]}")
                        failed.append((name, p))
                if not failed:
                    break
                cr["retried_topics"] += len(failed)
                pending = failed
                time.sleep(1)
            if timed_out:
                break
            if time.monotonic() - last_log > 15:
                last_log = time.monotonic()
                done = sum(topics.values())
                log(f"{tag} created {done} partitions in {last_log - t0:.0f} s ({done / (last_log - t0):.0f}/s)")
        t_created = time.monotonic()
        n = sum(topics.values())
        cr.update({"partitions_created": n, "topics_created": len(topics),
                   "topics_failed": len(specs) - len(topics),
                   "create_requests_seconds": round(t_created - t0, 3),
                   "partitions_per_s_requests": round(n / (t_created - t0), 1) if n else None})
        if timed_out:
            cr["result"] = "timeout"
        case["create"] = cr
        if n == 0:
            raise RuntimeError(f"no partition created: {cr['errors_sample']}")
        try:
            st = group.leaders_everywhere(topics, dl)
            t_lead = time.monotonic()
            cr["leaders_everywhere_seconds"] = round(t_lead - t0, 3)
            cr["partitions_per_s_to_leaders"] = round(n / (t_lead - t0), 1)
            cr["leaders_status"] = st
        except StepTimeout as e:
            cr["leaders_everywhere_seconds"] = "timeout"
            cr["leaders_error"] = str(e)[:500]
            raise
        finally:
            c_cpu1 = group.cpu_s()
            cr["broker_cpu_s"] = round(c_cpu1 - c_cpu0, 3) if (c_cpu0 is not None and c_cpu1 is not None) else None
        case["partitions"] = n
        log(f"{tag} {n} partitions ({len(topics)} topics) created in {cr['create_requests_seconds']} s "
            f"({cr['partitions_per_s_requests']}/s), every leader in {cr['leaders_everywhere_seconds']} s; "
            f"errors {cr['errors']}" + (f", e.g. {cr['errors_sample'][:2]}" if cr["errors"] else ""))

        # ---- 2: empty partitions
        case["empty"] = {"rss": rss_figures(group, base["rss_kb"], n, rf),
                         "disk": disk_figures(group, base_disk, n, rf)}
        log(f"{tag} empty: RSS {case['empty']['rss']['rss_MB']} MB "
            f"({case['empty']['rss']['per_partition_kb']} KB/partition), disk "
            f"{case['empty']['disk']['allocated_MB']} MB ({case['empty']['disk']['per_partition_kb']} KB/partition)")

        parts = [(name, p) for name, np_ in sorted(topics.items()) for p in range(np_)]

        # ---- 3: write one record to every partition
        if "write" in phases:
            log(f"{tag} writing one {RECORD_SIZE}-byte record to each of {n} partitions")
            w, got = produce_all(group.bootstrap, parts, "r1", time.monotonic() + step_s, group)
            for key, lst in got.items():
                acked.setdefault(key, {}).update(lst)
            case["write"] = w
            case["write"]["rss_active"] = rss_figures(group, base["rss_kb"], n, rf)
            log(f"{tag} write: {w['acked']}/{n} acked in {w['seconds']} s ({w['records_per_s']}/s), "
                f"errors {w['delivery_errors']}; RSS active {w['rss_active']['rss_MB']} MB; idle {args.idle_seconds} s")
            case["write"]["rss_idle"] = idle_figures(group, args.idle_seconds, base["rss_kb"], n, rf)
            case["write"]["disk_after"] = disk_figures(group, base_disk, n, rf)
            log(f"{tag} idle RSS {case['write']['rss_idle']['rss_MB']} MB "
                f"({case['write']['rss_idle']['per_partition_kb']} KB/partition), "
                f"idle CPU {case['write']['rss_idle']['broker_cores_while_idle']} cores; disk "
                f"{case['write']['disk_after']['allocated_MB']} MB")

        # ---- 4: metadata latency
        if "metadata" in phases:
            md = {}
            one = parts[0][0]
            full, full_raw, single, single_raw = [], [], [], []
            seen = None
            for _ in range(5):
                group.check()
                a = time.monotonic()
                m = admin.list_topics(timeout=max(30.0, min(300.0, step_s)))
                full.append(time.monotonic() - a)
                seen = (len(m.topics), sum(len(t.partitions) for t in m.topics.values()))
                m = None
            for _ in range(5):
                dt, r = raw_metadata(group.nodes[0].kafka_port, timeout=max(30.0, min(300.0, step_s)))
                full_raw.append(dt)
                raw_seen = (len(r["topics"]), sum(len(t[1]) for t in r["topics"].values()), r["bytes"])
                r = None
            for _ in range(5):
                a = time.monotonic()
                admin.list_topics(topic=one, timeout=30)
                single.append(time.monotonic() - a)
            for _ in range(5):
                dt, _r = raw_metadata(group.nodes[0].kafka_port, topics=[one], timeout=30)
                single_raw.append(dt)
            md["all_topics_list_topics"] = ms_summary(full)
            md["all_topics_list_topics"]["topics_partitions_seen"] = list(seen)
            md["all_topics_raw_v1"] = ms_summary(full_raw)
            md["all_topics_raw_v1"]["topics_partitions_bytes_seen"] = list(raw_seen)
            md["one_topic_list_topics"] = ms_summary(single)
            md["one_topic_raw_v1"] = ms_summary(single_raw)
            md["note"] = ("list_topics: confluent-kafka AdminClient, librdkafka and the Python objects "
                          "included; raw_v1: Metadata v1 on a socket to node 1, request sent -> last "
                          "response byte read")
            case["metadata"] = md
            log(f"{tag} metadata all topics: list_topics median {md['all_topics_list_topics']['median_ms']} ms "
                f"(max {md['all_topics_list_topics']['max_ms']}), raw {md['all_topics_raw_v1']['median_ms']} ms "
                f"({raw_seen[2]} bytes); one topic {md['one_topic_list_topics']['median_ms']} / "
                f"raw {md['one_topic_raw_v1']['median_ms']} ms")

        # ---- 5/6: stop + restart, SIGTERM then kill -9
        if "restart" in phases:
            case["restarts"] = []
            admin = None
            for i, how in enumerate(("sigterm", "kill9")):
                r = {"how": how}
                case["restarts"].append(r)
                r["rss_before_stop"] = rss_figures(group, base["rss_kb"], n, rf)
                log(f"{tag} stop ({how})")
                r["stop"] = group.stop(how, args.stop_timeout)
                log(f"{tag} stopped: {r['stop']['each']}")
                t0 = time.monotonic()
                dl = t0 + step_s
                group.start()
                r["pids"] = [b.pid for b in group.nodes]
                r["listen_s_each"] = group.wait_listen(t0, dl)
                lv = [v for v in r["listen_s_each"].values()]
                r["listen_s"] = max(lv) if "timeout" not in lv else "timeout"
                if r["listen_s"] == "timeout":
                    raise StepTimeout(f"{how} restart: not listening: {r['listen_s_each']}")
                # leaders (raw Metadata to every broker) and the read-back,
                # concurrently
                lead = {}

                def leaders():
                    try:
                        lead["status"] = group.leaders_everywhere(topics, dl)
                        lead["at"] = time.monotonic()
                    except Exception as e:  # noqa
                        lead["error"] = repr(e)[:500]

                lt = threading.Thread(target=leaders, daemon=True)
                lt.start()
                if acked:
                    rb, done_at = read_back(group.bootstrap, acked, dl, args.read_consumers, group,
                                                args.read_client)
                else:
                    rb, done_at = {"skipped": "no records written (write phase not run)"}, time.monotonic()
                lt.join(timeout=max(1.0, dl - time.monotonic() + 5))
                r["read_back"] = rb
                r["leaders_everywhere_s"] = round(lead["at"] - t0, 3) if "at" in lead else "timeout"
                if "error" in lead:
                    r["leaders_error"] = lead["error"]
                r["all_read_s"] = round(done_at - t0, 3) if done_at else "timeout"
                if "at" in lead and done_at:
                    r["all_served_s"] = round(max(lead["at"], done_at) - t0, 3)
                else:
                    r["all_served_s"] = "timeout"
                r["partitions_missing"] = rb.get("partitions_missing", 0)
                r["rss_served"] = rss_figures(group, base["rss_kb"], n, rf)
                if r["all_served_s"] == "timeout":
                    log(f"{tag} {how} restart: not every partition served by the deadline; RSS "
                        f"{r['rss_served']['rss_MB']} MB; the case stops here")
                    raise StepTimeout(f"{how} restart: not every partition served within {step_s:.0f} s "
                                      f"(leaders everywhere {r['leaders_everywhere_s']}, "
                                      f"{r['partitions_missing']} partitions missing a record)")
                log(f"{tag} {how} restart: listening {r['listen_s']} s, leaders everywhere "
                    f"{r['leaders_everywhere_s']} s, every record read {r['all_read_s']} s; missing "
                    f"{r['partitions_missing']}; RSS {r['rss_served']['rss_MB']} MB")
                if "write" in phases:
                    w, got = produce_all(group.bootstrap, parts, f"r{i + 2}", time.monotonic() + step_s, group)
                    for key, lst in got.items():
                        acked.setdefault(key, {}).update(lst)
                    r["write_after"] = w
                    log(f"{tag} write after restart: {w['acked']}/{n} acked in {w['seconds']} s, errors {w['delivery_errors']}")
                r["rss_idle"] = idle_figures(group, args.idle_seconds, base["rss_kb"], n, rf)
                log(f"{tag} idle RSS after restart {r['rss_idle']['rss_MB']} MB "
                    f"(before stop {r['rss_before_stop']['rss_MB']} MB)")
            case["disk_end"] = disk_figures(group, base_disk, n, rf)
    except Exception as e:  # noqa (Guard, StepTimeout, client errors: the case stops, the run goes on)
        case["error"] = repr(e)[:1000]
        log(f"{tag} FAILED: {e!r}"[:1000])
        if isinstance(e, Guard) and e.kill:
            case["killed_by_guard"] = True
            group.kill_all()
    finally:
        admin = None
        case["final_stop"] = group.stop("sigterm", args.stop_timeout)
        case["min_mem_available_MB"] = round(group.min_mem_seen_kb / 1024) if group.min_mem_seen_kb else None
        case["broker_logs"] = group.logs(tail=25 if "error" in case else 5)
        case["loadavg_end"] = lb.loadavg()
        if not args.keep_data:
            shutil.rmtree(cdir, ignore_errors=True)
    return case


# --------------------------------------------------------------------------


def _ver(v):
    return v[0] if isinstance(v, tuple) else v


def _kafka_python_version():
    try:
        import kafka

        return kafka.__version__
    except ImportError:
        return None


def git(*a):
    return subprocess.run(["git", "-C", REPO] + list(a), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL).stdout.decode().strip()


def main():
    ap = argparse.ArgumentParser(description="tidemark partition-density benchmark")
    ap.add_argument("--broker", required=True)
    ap.add_argument("--work-dir", default="/work/bench-tmp")
    ap.add_argument("--partitions", default="1000,10000,50000")
    ap.add_argument("--modes", default="single,three")
    ap.add_argument("--partitions-per-topic", type=int, default=5)
    ap.add_argument("--create-batch", type=int, default=100, help="topics per CreateTopics request")
    ap.add_argument("--idle-seconds", type=float, default=45)
    ap.add_argument("--phases", default="raw,create,write,metadata,restart",
                    help="subset of raw,create,write,metadata,restart (create always runs)")
    ap.add_argument("--cores", type=int, default=1, help="--cores of every broker (0: broker default)")
    ap.add_argument("--read-consumers", type=int, default=4, help="at most this many read-back consumers")
    ap.add_argument("--read-client", choices=("kafka-python", "confluent"), default="kafka-python",
                    help="read-back client; confluent's assign()-only consumer still needs a group.id and "
                         "creates __consumer_offsets (FindCoordinator) in the middle of the run")
    ap.add_argument("--stop-timeout", type=float, default=120)
    ap.add_argument("--timeout-base", type=float, default=300)
    ap.add_argument("--timeout-per-partition", type=float, default=0.1)
    ap.add_argument("--min-mem-available-mb", type=int, default=3072,
                    help="stop a case (SIGKILL its brokers) when MemAvailable falls below this")
    ap.add_argument("--disk-margin-gb", type=float, default=5)
    ap.add_argument("--wait-binary-seconds", type=float, default=1800)
    ap.add_argument("--keep-data", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "scalebench_last_run.json"))
    args = ap.parse_args()
    args.create_batch = max(1, args.create_batch)
    args.read_consumers = max(1, min(args.read_consumers, 16))
    sizes = [int(x) for x in args.partitions.split(",") if x.strip()]
    modes = [m for m in args.modes.split(",") if m.strip()]
    for m in modes:
        if m not in ("single", "three"):
            raise SystemExit(f"unknown mode {m!r} (single, three)")
    phases = set(args.phases.split(",")) | {"create"}
    global OUT
    OUT = args.out

    import confluent_kafka

    os.makedirs(args.work_dir, exist_ok=True)
    run_dir = tempfile.mkdtemp(prefix="scalebench-", dir=args.work_dir)
    res = RES
    res.update({
        "benchmark": "tidemark partition density (benches/load/scalebench.py)",
        "command": " ".join(["python3", os.path.relpath(os.path.abspath(sys.argv[0]), REPO)] + sys.argv[1:]),
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": git("rev-parse", "HEAD"),
        "commit_subject": git("log", "-1", "--format=%s")[:200],
        "worktree_changed_files": len([l for l in git("status", "--porcelain").splitlines() if l.strip()]),
        "machine": lb.machine_info(),
        "loadavg_start": lb.loadavg(),
        "clients": {"confluent_kafka": _ver(confluent_kafka.version()), "librdkafka": _ver(confluent_kafka.libversion()),
                    "kafka_python": _kafka_python_version()},
        "settings": {k: getattr(args, k) for k in ("partitions", "modes", "partitions_per_topic", "create_batch",
                                                   "idle_seconds", "phases", "cores", "read_consumers", "read_client",
                                                   "stop_timeout", "timeout_base", "timeout_per_partition")},
        "record_size": RECORD_SIZE,
        "work_dir": run_dir,
        "cases": [],
        "problems": [],
        "notes": [],
    })
    problems = res["problems"]
    notes = res["notes"]
    clog_path = os.path.join(run_dir, "clients.log")
    fh = logging.FileHandler(clog_path)
    fh.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    for name in ("scalebench.clients", "kafka"):
        lg = logging.getLogger(name)
        lg.addHandler(fh)
        lg.setLevel(logging.INFO if name != "kafka" else logging.WARNING)
        lg.propagate = False
    try:
        wait_binary(args.broker, args.wait_binary_seconds)
        st = os.stat(args.broker)
        binary = os.path.join(run_dir, "tidemark")
        shutil.copy2(args.broker, binary)
        h = hashlib.sha256()
        with open(binary, "rb") as f:
            for blk in iter(lambda: f.read(1 << 20), b""):
                h.update(blk)
        res["broker_binary"] = {"path": args.broker, "mtime": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(st.st_mtime)),
                                "size": st.st_size, "sha256": h.hexdigest()[:16]}
        log("broker binary", res["broker_binary"], "commit", res["commit"][:12])

        if "raw" in phases:
            log("raw: fdatasync 4 KiB, loopback TCP")
            res["raw"] = {"fdatasync_4KiB": lb.raw_fdatasync(os.path.join(run_dir, "sync.4k"), 4096, 3000, 3),
                          "loopback_tcp": lb.raw_loopback(3.0)}

        per_replica = 1.2 * MIB  # until a case measured it (some builds preallocated 1 MiB per replica)
        measured = None
        for n in sizes:
            for mode in modes:
                c = {}
                res["cases"].append(c)
                run_case(c, n, mode, binary, run_dir, args, phases, per_replica)
                key = f"{mode} {n}"
                if c.get("skipped"):
                    problems.append(f"{key}: skipped: {c['skipped']}")
                    continue
                if "error" in c:
                    problems.append(f"{key}: {c['error'][:400]}")
                cr = c.get("create") or {}
                if cr.get("errors"):
                    problems.append(f"{key}: {cr['errors']} topic creation errors ({cr.get('topics_failed')} topics "
                                    f"not created after retries), e.g. {cr['errors_sample'][:2]}")
                w = c.get("write") or {}
                if w and (w.get("delivery_errors") or w.get("result") != "ok"):
                    problems.append(f"{key}: write: {w.get('delivery_errors')} delivery errors "
                                    f"{w.get('delivery_errors_sample', [])[:2]}, result {w.get('result')}")
                for r in c.get("restarts", []):
                    if r.get("partitions_missing") or r.get("all_served_s") == "timeout":
                        problems.append(f"{key}: {r['how']} restart: {r.get('partitions_missing')} partitions missing "
                                        f"a record, all served {r.get('all_served_s')}")
                    rb = r.get("read_back") or {}
                    if rb.get("value_mismatches") or rb.get("exceptions"):
                        problems.append(f"{key}: {r['how']} restart read-back: {rb.get('value_mismatches')} "
                                        f"mismatches, exceptions {rb.get('exceptions')}")
                    if r.get("stop", {}).get("max_seconds") == "timeout":
                        problems.append(f"{key}: {r['how']} stop: {r['stop']['each']}")
                    wa = r.get("write_after") or {}
                    if wa and (wa.get("delivery_errors") or wa.get("result") != "ok"):
                        problems.append(f"{key}: write after {r['how']} restart: {wa.get('delivery_errors')} errors "
                                        f"{wa.get('delivery_errors_sample', [])[:2]}, result {wa.get('result')}")
                fs = c.get("final_stop") or {}
                for nid, s in (fs.get("each") or {}).items():
                    if s.get("already_exited") and not s.get("stopped_by_us_before") and not s.get("never_started"):
                        problems.append(f"{key}: node {nid} had exited rc={s.get('rc')} before the end")
                    if s.get("problem"):
                        problems.append(f"{key}: node {nid} {s['problem']}")
                for L in c.get("broker_logs", []):
                    if L["panics"]:
                        problems.append(f"{key}: node {L['node']} panicked: {L['panic_sample'][:2]}")
                    if L["warn_error_lines"]:
                        notes.append(f"{key}: node {L['node']} logged {L['warn_error_lines']} WARN/ERROR lines "
                                     f"(stops and kill -9 included), e.g. {L['warn_error_sample'][0][:250]}")
                # a better disk estimate for the next cases
                d = (c.get("write") or {}).get("disk_after") or (c.get("empty") or {}).get("disk")
                if d and c.get("partitions"):
                    m = d["allocated_bytes"] / (c["partitions"] * c["replication_factor"]) * 2 + 64 * 1024
                    measured = m if measured is None else max(measured, m)
                    per_replica = measured
                with open(args.out, "w") as f:  # what was measured so far
                    f.write(json.dumps(res, indent=2, default=str) + "\n")
    finally:
        res["loadavg_end"] = lb.loadavg()
        fh.flush()
        try:
            with open(clog_path, "rb") as f:
                cl = f.read().decode(errors="replace").splitlines()
            res["client_log"] = {"lines": len(cl), "sample": [l[:300] for l in cl[:10]],
                                 "last": [l[:300] for l in cl[-5:]]}
        except FileNotFoundError:
            pass
        res["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        for pid, p in list(LIVE.items()):  # safety net: no broker outlives the run
            if p.poll() is None:
                p.kill()
                p.wait(timeout=30)
                problems.append(f"broker pid {pid} still running at the end; SIGKILLed")
        if not args.keep_data:
            shutil.rmtree(run_dir, ignore_errors=True)
        res["data_kept"] = bool(args.keep_data)

    res["summary"] = [summary_row(c) for c in res["cases"]]
    with open(args.out, "w") as f:
        f.write(json.dumps(res, indent=2, default=str) + "\n")
    print_summary(res)


def _g(d, *path):
    for k in path:
        if isinstance(d, list):
            if not isinstance(k, int) or k >= len(d):
                return None
        elif not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def summary_row(c):
    row = {"mode": c["mode"], "partitions": c.get("partitions", c["partitions_requested"]),
           "partitions_requested": c["partitions_requested"]}
    if c.get("skipped"):
        row["skipped"] = c["skipped"]
        return row
    row.update({
        "create_s": _g(c, "create", "create_requests_seconds"),
        "create_partitions_per_s": _g(c, "create", "partitions_per_s_requests"),
        "leaders_everywhere_s": _g(c, "create", "leaders_everywhere_seconds"),
        "create_errors": _g(c, "create", "errors"),
        "rss_base_MB": _g(c, "base", "rss", "rss_MB"),
        "rss_empty_MB": _g(c, "empty", "rss", "rss_MB"),
        "rss_idle_anon_file_MB": [_g(c, "write", "rss_idle", "anon_MB"), _g(c, "write", "rss_idle", "file_MB")],
        "rss_empty_kb_per_partition": _g(c, "empty", "rss", "per_partition_kb"),
        "disk_empty_kb_per_partition": _g(c, "empty", "disk", "per_partition_kb"),
        "write_s": _g(c, "write", "seconds"),
        "write_errors": _g(c, "write", "delivery_errors"),
        "rss_active_MB": _g(c, "write", "rss_active", "rss_MB"),
        "rss_active_kb_per_partition": _g(c, "write", "rss_active", "per_partition_kb"),
        "rss_idle_MB": _g(c, "write", "rss_idle", "rss_MB"),
        "rss_idle_kb_per_partition": _g(c, "write", "rss_idle", "per_partition_kb"),
        "idle_broker_cores": _g(c, "write", "rss_idle", "broker_cores_while_idle"),
        "disk_after_write_kb_per_partition": _g(c, "write", "disk_after", "per_partition_kb"),
        "metadata_all_median_ms": _g(c, "metadata", "all_topics_list_topics", "median_ms"),
        "metadata_all_raw_median_ms": _g(c, "metadata", "all_topics_raw_v1", "median_ms"),
        "metadata_one_median_ms": _g(c, "metadata", "one_topic_list_topics", "median_ms"),
        "error": c.get("error"),
    })
    for r in c.get("restarts", []):
        h = r["how"]
        row[f"{h}_stop_s"] = _g(r, "stop", "max_seconds")
        row[f"{h}_listen_s"] = r.get("listen_s")
        row[f"{h}_leaders_s"] = r.get("leaders_everywhere_s")
        row[f"{h}_all_served_s"] = r.get("all_served_s")
        row[f"{h}_missing"] = r.get("partitions_missing")
        row[f"{h}_write_errors"] = _g(r, "write_after", "delivery_errors")
        row[f"{h}_rss_before_MB"] = _g(r, "rss_before_stop", "rss_MB")
        row[f"{h}_rss_served_MB"] = _g(r, "rss_served", "rss_MB")
        row[f"{h}_rss_served_anon_MB"] = _g(r, "rss_served", "anon_MB")
        row[f"{h}_rss_served_file_MB"] = _g(r, "rss_served", "file_MB")
        row[f"{h}_rss_idle_MB"] = _g(r, "rss_idle", "rss_MB")
    return row


def print_summary(res):
    p = lambda *a: print(*a, file=sys.stderr)
    p("")
    p("==== scalebench summary ====")
    p("command:", res["command"])
    p("commit:", res.get("commit"), "| binary:", res.get("broker_binary"))
    m = res["machine"]
    p(f"machine: {m['nproc']} cores, {m['mem_total_kb'] // 1024} MB, kernel {m['kernel']}; "
      f"loadavg start {res['loadavg_start']} end {res.get('loadavg_end')}")
    raw = res.get("raw")
    if raw:
        f = raw["fdatasync_4KiB"]
        p(f"raw: fdatasync 4 KiB p50 {f['p50_ms']} ms p99 {f['p99_ms']} ms; loopback TCP {raw['loopback_tcp']['MBps']} MB/s")
    for s in res["summary"]:
        head = f"{s['mode']:6s} {s['partitions']:>6}:"
        if s["partitions"] != s["partitions_requested"]:
            head = f"{s['mode']:6s} {s['partitions']} of {s['partitions_requested']} created:"
        if s.get("skipped"):
            p(head, "SKIPPED", s["skipped"])
            continue
        p(f"{head} create {s['create_s']} s ({s['create_partitions_per_s']} p/s), leaders everywhere "
          f"{s['leaders_everywhere_s']} s, errors {s['create_errors']}")
        p(f"        RSS base {s['rss_base_MB']} MB, empty {s['rss_empty_MB']} MB ({s['rss_empty_kb_per_partition']} KB/p); "
          f"disk {s['disk_empty_kb_per_partition']} KB/p empty")
        if s.get("write_s") is not None:
            p(f"        write 1 record/partition {s['write_s']} s, errors {s['write_errors']}; RSS active {s['rss_active_MB']} MB "
              f"({s['rss_active_kb_per_partition']} KB/p), idle {s['rss_idle_MB']} MB "
              f"({s['rss_idle_kb_per_partition']} KB/p; anon, file {s['rss_idle_anon_file_MB']}), "
              f"idle CPU {s['idle_broker_cores']} cores; disk {s['disk_after_write_kb_per_partition']} KB/p")
        if s.get("metadata_all_median_ms") is not None:
            p(f"        Metadata all topics median {s['metadata_all_median_ms']} ms (raw {s['metadata_all_raw_median_ms']} ms), "
              f"one topic {s['metadata_one_median_ms']} ms")
        for h in ("sigterm", "kill9"):
            if f"{h}_stop_s" in s:
                p(f"        {h:7s}: stop {s[f'{h}_stop_s']} s, listen {s[f'{h}_listen_s']} s, leaders {s[f'{h}_leaders_s']} s, "
                  f"all served {s[f'{h}_all_served_s']} s, missing {s[f'{h}_missing']}, write errors "
                  f"{s[f'{h}_write_errors']}; RSS before {s[f'{h}_rss_before_MB']} -> served {s[f'{h}_rss_served_MB']} "
                  f"(anon {s[f'{h}_rss_served_anon_MB']}, file {s[f'{h}_rss_served_file_MB']}) "
                  f"-> idle {s[f'{h}_rss_idle_MB']} MB")
        if s.get("error"):
            p(f"        ERROR {s['error'][:300]}")
    for x in res.get("notes", []):
        p("note:", x[:300])
    if res["problems"]:
        p("problems:")
        for x in res["problems"]:
            p("  -", x[:500])
    else:
        p("problems: none")


RES = {}
OUT = os.path.join(HERE, "scalebench_last_run.json")


def _on_signal(signum, frame):
    raise SystemExit(f"scalebench: signal {signum}")


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGHUP, _on_signal)
    try:
        main()
    except BaseException as e:  # write what was measured, then fail
        for pid, p in list(LIVE.items()):
            if p.poll() is None:
                p.kill()
        if RES:
            RES["error"] = repr(e)
            with open(OUT, "w") as f:
                json.dump(RES, f, indent=2, default=str)
        raise
