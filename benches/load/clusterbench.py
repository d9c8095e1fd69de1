#!/usr/bin/env python3
"""Cluster benchmark for the tidemark broker: one node against three, and
write unavailability after kill -9 of a partition leader. Driven by
librdkafka (confluent-kafka); reuses benches/load/loadbench.py as a module
(its producer roles, raw figures and helpers).

One run does, in order:
  raw     - fdatasync of a 4 KiB O_DIRECT write (latency) and loopback TCP
            throughput, measured in this run on this machine, plus machine
            info and the load average;
  modes   - for "single" (one broker, --cores 1, no --seeds, topics with
            replication factor 1) and "three" (three brokers on this
            machine, --cores 1 each, racks zone-a/b/c, topics with
            replication factor 3):
              throughput: loadbench's "producer" role (one process, acks=all,
                1 KiB values, 6 partitions, linger.ms=5, batch.size 1 MB),
                bounded by --tput-seconds and --tput-max-messages;
              latency: loadbench's "lat_producer" role at a fixed rate
                (--rate msg/s for --latency-seconds, linger.ms=1, acks=all,
                6 partitions); publish-ack latency of every message sent
                after the warmup (--warmup-seconds);
            broker CPU (utime+stime from /proc/PID/stat, every broker of the
            mode), client CPU and whole-machine CPU for each phase;
            each mode runs --repeats times (default 3), the modes
            alternating, and the run with the median throughput is
            reported (every run's figure is kept): one run per mode on
            this shared machine gave three-node figures 149-228k msg/s
            for one build;
  kill    - --kill-runs times, each on a fresh three-node cluster: a
            1-partition topic with replication factor 3, a producer in this
            process (acks=all, enable.idempotence=true, librdkafka defaults
            otherwise) sending --kill-rate msg/s with delivery callbacks
            that record the wall time of every ack; after --kill-after-s the
            partition's leader (from Metadata) is sent SIGKILL by the PID of
            our own Popen; production goes on for --kill-produce-after-s.
            window = first ack after the kill - last ack before the kill;
            also kill -> first ack, and the largest gap between consecutive
            acks around the kill (an ack already on its way when the leader
            died would make the first figure small while the real outage
            follows it). Then the partition is read from the beginning up to
            the high watermark and every acknowledged (offset, value) pair is
            checked against the log (lost = acked but absent or different).

The broker binary given with --broker is copied into the run folder first,
so a rebuild during the run does not change what is measured.

Writes JSON to --out and a readable summary to stderr.

Usage:
  python3 benches/load/clusterbench.py --broker /work/main/target/release/tidemark
      [--work-dir /work/bench-tmp] [--tput-seconds 15] [--tput-max-messages 3000000]
      [--rate 5000] [--latency-seconds 10] [--warmup-seconds 1]
      [--kill-runs 5] [--kill-rate 1000] [--kill-after-s 3] [--kill-produce-after-s 12]
      [--quiet-wait-seconds 180] [--quiet-threshold-cores 0.5]
      [--phases raw,modes,kill] [--modes single,three] [--repeats 3] [--keep-data] [--out FILE]
"""

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import loadbench as lb  # noqa: E402


def log(*m):
    print(f"[{time.strftime('%H:%M:%S')}]", *m, file=sys.stderr, flush=True)


def machine_busy_cores(seconds=2.0):
    a = lb.machine_cpu()
    time.sleep(seconds)
    b = lb.machine_cpu()
    return round((b[0] - a[0]) / (b[1] - a[1]) * (os.cpu_count() or 1), 3)


def wait_quiet(max_seconds, threshold):
    """The machine is shared: wait (bounded) until it is nearly idle.
    Returns what was seen; the run goes on either way."""
    t0 = time.monotonic()
    seen = []
    while True:
        busy = machine_busy_cores()
        seen.append(busy)
        if busy < threshold or time.monotonic() - t0 >= max_seconds:
            return {"waited_s": round(time.monotonic() - t0, 1), "busy_cores_last": busy,
                    "quiet": busy < threshold, "threshold_cores": threshold,
                    "busy_cores_samples": seen[-10:]}
        time.sleep(3)


# --------------------------------------------------------------------------
# brokers


def wait_binary(path, timeout):
    """The binary may be being rebuilt: wait until it exists and its size and
    mtime have not changed for 3 s."""
    t0 = time.monotonic()
    last = None
    stable_since = None
    while time.monotonic() - t0 < timeout:
        try:
            st = os.stat(path)
            cur = (st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            cur = None
        if cur is not None and os.access(path, os.X_OK):
            if cur == last:
                if time.monotonic() - stable_since >= 3:
                    return
            else:
                stable_since = time.monotonic()
        last = cur
        time.sleep(1)
    raise SystemExit(f"broker binary {path} missing or changing for {timeout} s")


class Node:
    def __init__(self, node_id, binary, root, rack, cores, cluster):
        self.id = node_id
        self.binary = binary
        self.dir = os.path.join(root, f"node{node_id}")
        self.data_dir = os.path.join(self.dir, "data")
        self.log_path = os.path.join(self.dir, "broker.log")
        self.kafka_port = lb.free_port()
        self.rpc_port = lb.free_port() if cluster else None
        self.rack = rack
        self.cores = cores
        self.cluster = cluster
        self.proc = None
        self.killed = False
        self.logf = None

    @property
    def kafka_addr(self):
        return f"127.0.0.1:{self.kafka_port}"

    def cmd(self, seeds):
        c = [self.binary, "--node-id", str(self.id), "--data-dir", self.data_dir,
             "--admin-addr", "127.0.0.1:0", "--kafka-addr", self.kafka_addr, "--advertise-kafka-addr", self.kafka_addr,
             "--cores", str(self.cores)]
        if self.cluster:
            c += ["--rpc-addr", f"127.0.0.1:{self.rpc_port}", "--rack", self.rack, "--seeds", seeds]
        return c

    def start(self, seeds):
        os.makedirs(self.dir, exist_ok=True)
        self.command = self.cmd(seeds)
        self.logf = open(self.log_path, "wb")
        self.proc = subprocess.Popen(self.command, stdout=self.logf, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)  # our own Popen's PID
        self.killed = True

    def stop(self):
        """SIGTERM, then SIGKILL after 20 s; returns a dict of what happened."""
        out = {"node": self.id, "pid": self.pid if self.proc else None}
        if self.proc is None:
            return out
        if self.proc.poll() is None:
            t = time.monotonic()
            self.proc.terminate()
            try:
                out["rc"] = self.proc.wait(timeout=20)
                out["stop_seconds"] = round(time.monotonic() - t, 3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
                out["rc"] = self.proc.returncode
                out["problem"] = "did not exit within 20 s of SIGTERM; SIGKILLed"
        else:
            out["rc"] = self.proc.returncode
            out["already_exited"] = True
            out["killed_by_us"] = self.killed
        if self.logf:
            self.logf.close()
            self.logf = None
        return out

    def log_lines(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode(errors="replace").splitlines()
        except FileNotFoundError:
            return []

    def log_summary(self, tail=25):
        lines = self.log_lines()
        bad = [l for l in lines if (" ERROR " in l or " WARN " in l or "panicked" in l)]
        return {"node": self.id, "lines": len(lines), "warn_error_lines": len(bad),
                "warn_error_sample": [l[:400] for l in bad[:8]],
                "tail": [l[:400] for l in lines[-tail:]], "path": self.log_path}


class Cluster:
    """n brokers (n == 1: single node, no --seeds)."""

    def __init__(self, binary, root, n, cores=1):
        self.root = root
        self.n = n
        racks = ["zone-a", "zone-b", "zone-c", "zone-d", "zone-e"]
        self.nodes = [Node(i + 1, binary, root, racks[i], cores, n > 1) for i in range(n)]
        self.seeds = ",".join(f"{x.id}@127.0.0.1:{x.rpc_port}" for x in self.nodes) if n > 1 else None
        self.admin = None

    @property
    def bootstrap(self):
        return ",".join(x.kafka_addr for x in self.nodes)

    def node(self, node_id):
        for x in self.nodes:
            if x.id == node_id:
                return x
        return None

    def pids(self):
        return [x.pid for x in self.nodes if x.alive()]

    def start(self, timeout=60):
        """Start every node; ready when Metadata lists n brokers."""
        from confluent_kafka.admin import AdminClient

        t0 = time.monotonic()
        for x in self.nodes:
            x.start(self.seeds)
        for x in self.nodes:
            lb.wait_port(x.kafka_port, x.proc, timeout=timeout)
        self.admin = AdminClient({"bootstrap.servers": self.bootstrap})
        seen = None
        while time.monotonic() - t0 < timeout:
            for x in self.nodes:
                if not x.alive():
                    raise RuntimeError(f"node {x.id} exited rc={x.proc.returncode} during start")
            try:
                md = self.admin.list_topics(timeout=3)
                seen = sorted(md.brokers)
                if len(md.brokers) == self.n:
                    return round(time.monotonic() - t0, 3)
            except Exception as e:  # noqa
                seen = repr(e)
            time.sleep(0.2)
        raise RuntimeError(f"cluster of {self.n} not ready in {timeout} s; Metadata brokers: {seen}")

    def create_topic(self, name, partitions, rf, timeout=60):
        """CreateTopics with a replication factor (retried while the cluster
        answers with a retriable error), then wait until every partition has
        a leader. Returns timing and the partition layout."""
        from confluent_kafka.admin import NewTopic

        t0 = time.monotonic()
        attempts = []
        while True:
            fs = self.admin.create_topics([NewTopic(name, partitions, rf)], operation_timeout=30, request_timeout=30)
            try:
                fs[name].result(timeout=40)
                break
            except Exception as e:  # noqa
                msg = str(e)
                attempts.append(msg[:300])
                if "TOPIC_ALREADY_EXISTS" in msg or "already exists" in msg:
                    break
                if time.monotonic() - t0 > timeout or len(attempts) >= 10:
                    raise RuntimeError(f"create {name} failed: {attempts}")
                time.sleep(0.5)
        created = time.monotonic()
        layout = self.wait_leaders(name, partitions, timeout=max(5, timeout - (created - t0)))
        return {"create_seconds": round(created - t0, 3),
                "leaders_seconds": round(time.monotonic() - created, 3),
                "create_errors_retried": attempts, "layout": layout}

    def layout(self, name, timeout=3):
        md = self.admin.list_topics(name, timeout=timeout)
        t = md.topics.get(name)
        if t is None or t.error is not None:
            return None, (str(t.error) if t is not None else "absent")
        return {p.id: {"leader": p.leader, "replicas": list(p.replicas), "isr": list(p.isrs)}
                for p in t.partitions.values()}, None

    def wait_leaders(self, name, partitions, timeout):
        t0 = time.monotonic()
        last = None
        while time.monotonic() - t0 < timeout:
            try:
                lay, err = self.layout(name)
                last = lay if lay is not None else err
                if lay is not None and len(lay) == partitions and all(v["leader"] >= 0 for v in lay.values()):
                    return lay
            except Exception as e:  # noqa
                last = repr(e)
            time.sleep(0.1)
        raise RuntimeError(f"topic {name}: not every partition has a leader after {timeout:.0f} s; last metadata {last}")

    def stop(self):
        self.admin = None  # let the admin client go before the brokers do
        return [x.stop() for x in self.nodes]

    def logs(self, tail=25):
        return [x.log_summary(tail) for x in self.nodes]


class MultiMeter:
    """loadbench's PhaseMeter for each broker PID of a mode, combined."""

    def __init__(self, pids):
        self.pids = list(pids)

    def __enter__(self):
        self.stack = contextlib.ExitStack()
        self.meters = [self.stack.enter_context(lb.PhaseMeter(p)) for p in self.pids]
        return self

    def __exit__(self, *a):
        return self.stack.__exit__(*a)

    def result(self, client_cpu_s=0.0):
        rs = [m.result() for m in self.meters]
        wall = rs[0]["wall_s"]
        bcpu = sum(r["broker_cpu_s"] for r in rs)
        busy = rs[0]["machine_busy_cores"]
        return {
            "wall_s": wall,
            "broker_cpu_s_total": round(bcpu, 3),
            "broker_cores_total": round(bcpu / wall, 3) if wall else None,
            "broker_cores_each": [r["broker_cores"] for r in rs],
            "client_cpu_s": round(client_cpu_s, 3),
            "client_cores": round(client_cpu_s / wall, 3) if wall else None,
            "machine_busy_cores": busy,
            "other_load_cores": round(busy - (bcpu + client_cpu_s) / wall, 3) if wall else None,
            "loadavg_start": rs[0]["loadavg_start"],
            "loadavg_end": rs[0]["loadavg_end"],
        }


# --------------------------------------------------------------------------
# phases


def run_mode(mode, binary, root, n, args, clog_path, problems, tag=None):
    name = tag or mode
    rf = 3 if n > 1 else 1
    out = {"brokers": n, "cores_each": 1, "replication_factor": rf}
    cl = Cluster(binary, os.path.join(root, name), n)
    out["commands"] = [" ".join(x.cmd(cl.seeds)) for x in cl.nodes]
    log(f"[{name}] starting {n} broker(s)")
    try:
        out["ready_seconds"] = cl.start()
        out["pids"] = [x.pid for x in cl.nodes]
        out["topic_tput"] = cl.create_topic("bench-tput", 6, rf)
        out["topic_lat"] = cl.create_topic("bench-lat", 6, rf)
        leaders = [v["leader"] for v in out["topic_tput"]["layout"].values()]
        out["tput_leaders_per_node"] = {str(x.id): leaders.count(x.id) for x in cl.nodes}
        time.sleep(1)

        log(f"[{name}] throughput, acks=all, 6 partitions, up to {args.tput_seconds} s")
        with MultiMeter(cl.pids()) as mm:
            prod = lb.run_role("producer", {
                "bootstrap": cl.bootstrap, "topic": "bench-tput", "partitions": 6, "size": 1024,
                "linger_ms": 5, "batch_size": 1000000,
                "max_messages": args.tput_max_messages, "seconds": args.tput_seconds,
            }, timeout=args.tput_seconds + 120, log_path=clog_path)
        prod.pop("librdkafka_stats", None)
        prod["phase"] = mm.result(prod["client_cpu_s"])
        out["throughput"] = prod
        if prod["left_in_queue_after_flush"] or prod["error_reports"]:
            problems.append(f"{name} throughput: {prod['left_in_queue_after_flush']} left after flush, "
                            f"{prod['error_reports']} error reports {prod['error_reports_sample'][:3]}")
        log(f"[{name}] throughput {prod['msgs_per_s']:.0f} msg/s ({prod['MBps_values']} MB/s), "
            f"brokers {prod['phase']['broker_cores_total']} cores, client {prod['phase']['client_cores']}")

        log(f"[{name}] latency at {args.rate} msg/s for {args.latency_seconds} s")
        time.sleep(1)
        with MultiMeter(cl.pids()) as mm:
            lp = lb.run_role("lat_producer", {
                "bootstrap": cl.bootstrap, "topic": "bench-lat", "partitions": 6, "size": 1024,
                "linger_ms": 1, "rate": args.rate, "seconds": args.latency_seconds,
                "start_ns": time.monotonic_ns() + 1_000_000_000, "warmup_s": args.warmup_seconds,
            }, timeout=args.latency_seconds + 90, log_path=clog_path)
        lp.pop("librdkafka_stats", None)
        acks = lp.pop("_ack_lat_ns")
        warm = lp["t0_ns"] + int(args.warmup_seconds * 1e9)
        lat = {
            "rate_target": args.rate, "seconds": args.latency_seconds,
            "warmup_excluded_s": args.warmup_seconds,
            "publish_ack": lb.summary_us([d for ts, d in acks if ts >= warm]),
            "publish_ack_all": lb.summary_us([d for _, d in acks]),
            "producer": lp,
            "phase": mm.result(lp["client_cpu_s"]),
        }
        out["latency"] = lat
        if lp["acked"] != lp["sent"] or lp["errors_sample"]:
            problems.append(f"{name} latency: sent {lp['sent']}, acked {lp['acked']}, errors {lp['errors_sample'][:3]}")
        log(f"[{name}] publish-ack p50 {lat['publish_ack'].get('p50_ms')} p99 {lat['publish_ack'].get('p99_ms')} "
            f"p999 {lat['publish_ack'].get('p999_ms')} ms (achieved {lp['achieved_rate']} msg/s)")
        out["rss_peak_MB_each"] = [round(lb.proc_status(p)["VmHWM"] / 1024, 1) for p in cl.pids()]
        out["cpu_s_total_each"] = [round(lb.proc_cpu_s(p), 3) for p in cl.pids()]
    except Exception as e:  # noqa
        out["error"] = repr(e)
        problems.append(f"{name}: {e!r}")
        log(f"[{name}] FAILED: {e!r}")
    finally:
        out["stop"] = cl.stop()
        out["broker_logs"] = cl.logs(tail=25 if "error" in out else 5)
        for s in out["stop"]:
            if s.get("already_exited"):
                problems.append(f"{name}: node {s['node']} had exited rc={s['rc']} before the end")
            if s.get("problem"):
                problems.append(f"{name}: node {s['node']} {s['problem']}")
        if not args.keep_data:
            for x in cl.nodes:
                shutil.rmtree(x.data_dir, ignore_errors=True)
    return out


def kill_run(i, binary, root, args):
    """One kill -9 run on a fresh three-node cluster."""
    from confluent_kafka import Consumer, Producer, TopicPartition, KafkaException

    r = {"run": i + 1}
    topic = "kill-test"
    cl = Cluster(binary, os.path.join(root, f"kill{i + 1}"), 3)
    r["loadavg_start"] = lb.loadavg()
    m0 = lb.machine_cpu()
    cpu0 = {}
    prod = None
    try:
        r["ready_seconds"] = cl.start()
        r["topic"] = cl.create_topic(topic, 1, 3)
        m0 = lb.machine_cpu()
        cpu0 = {x.id: lb.proc_cpu_s(x.pid) for x in cl.nodes}
        w0 = time.monotonic()
        acks = []  # (ack_ns, offset, value)
        errs = []
        client_errs = []

        def on_dr(err, msg):
            t = time.monotonic_ns()
            if err is not None:
                errs.append((t, str(err)))
                return
            acks.append((t, msg.offset(), msg.value()))

        def on_err(err):
            client_errs.append((time.monotonic_ns(), str(err), err.fatal() if hasattr(err, "fatal") else None))

        prod = Producer({"bootstrap.servers": cl.bootstrap, "acks": "all",
                         "enable.idempotence": True, "on_delivery": on_dr, "error_cb": on_err})
        prod.list_topics(topic, timeout=10)
        rate = args.kill_rate
        total = int(rate * (args.kill_after_s + args.kill_produce_after_s))
        pad = b"x" * 90
        t0 = time.monotonic_ns()
        kill_at = t0 + int(args.kill_after_s * 1e9)
        lookup_at = kill_at - 300_000_000
        end_at = t0 + int((args.kill_after_s + args.kill_produce_after_s) * 1e9)
        victim = None
        kill_ns = None
        before_kill_layout = None
        n = 0
        newleader = {}

        def watch_new_leader(old):
            # poll Metadata until another broker is leader (bounded)
            t_end = time.monotonic() + 20
            while time.monotonic() < t_end:
                try:
                    lay, _ = cl.layout(topic, timeout=2)
                    if lay and lay[0]["leader"] >= 0 and lay[0]["leader"] != old:
                        newleader["ns"] = time.monotonic_ns()
                        newleader["layout"] = lay[0]
                        return
                except Exception:  # noqa
                    pass
                time.sleep(0.05)

        watcher = None
        while n < total and time.monotonic_ns() < end_at:
            now = time.monotonic_ns()
            due = min(total, (now - t0) * rate // 1_000_000_000 + 1)
            while n < due:
                try:
                    prod.produce(topic, b"%010d|" % n + pad, partition=0)
                    n += 1
                except BufferError:
                    break
            if victim is None and now >= lookup_at:
                lay, err = cl.layout(topic)
                before_kill_layout = lay[0] if lay else err
                leader_id = lay[0]["leader"] if lay else -1
                victim = cl.node(leader_id)
                if victim is None or not victim.alive():
                    raise RuntimeError(f"no live leader to kill: metadata {before_kill_layout}")
            if kill_ns is None and victim is not None and time.monotonic_ns() >= kill_at:
                kill_ns = time.monotonic_ns()
                victim.kill9()
                kill_ns = (kill_ns + time.monotonic_ns()) // 2
                watcher = threading.Thread(target=watch_new_leader, args=(victim.id,), daemon=True)
                watcher.start()
            prod.poll(0.001)
        sent_end = time.monotonic_ns()
        left = prod.flush(30)
        flushed = time.monotonic_ns()
        if watcher:
            watcher.join(timeout=25)
        m1 = lb.machine_cpu()
        w1 = time.monotonic() - w0
        r["produce_phase_machine_busy_cores"] = round((m1[0] - m0[0]) / w1, 3)
        r["produce_phase_broker_cores_survivors"] = {
            str(x.id): round((lb.proc_cpu_s(x.pid) - cpu0[x.id]) / w1, 3) for x in cl.nodes if x.alive()}
        r["sent"] = n
        r["acked"] = len(acks)
        r["delivery_errors"] = len(errs)
        r["delivery_errors_sample"] = [e for _, e in errs[:5]]
        r["client_errors"] = [(round((t - kill_ns) / 1e9, 3) if kill_ns else None, e, f) for t, e, f in client_errs[:10]]
        r["left_in_queue_after_flush"] = left
        r["flush_seconds"] = round((flushed - sent_end) / 1e9, 3)
        r["achieved_rate"] = round(n / ((sent_end - t0) / 1e9), 1)
        r["killed_node"] = victim.id if victim else None
        r["killed_pid"] = victim.pid if victim else None
        r["layout_before_kill"] = before_kill_layout
        if kill_ns is None:
            raise RuntimeError("the kill did not happen")
        r["kill_at_s"] = round((kill_ns - t0) / 1e9, 3)
        if "ns" in newleader:
            r["metadata_new_leader_after_s"] = round((newleader["ns"] - kill_ns) / 1e9, 3)
            r["layout_after_kill"] = newleader["layout"]
        else:
            r["metadata_new_leader_after_s"] = None
        times = sorted(t for t, _, _ in acks)
        before = [t for t in times if t < kill_ns]
        after = [t for t in times if t >= kill_ns]
        r["acks_before_kill"] = len(before)
        r["acks_after_kill"] = len(after)
        if before and after:
            r["window_s"] = round((after[0] - before[-1]) / 1e9, 3)
            r["kill_to_first_ack_s"] = round((after[0] - kill_ns) / 1e9, 3)
            r["last_ack_before_kill_s"] = round((kill_ns - before[-1]) / 1e9, 3)
            # largest gap between consecutive acks from 1 s before the kill
            near = [t for t in times if t >= kill_ns - 1_000_000_000]
            gaps = [(b - a, a, b) for a, b in zip(near, near[1:])]
            g, ga, gb = max(gaps)
            r["largest_ack_gap_s"] = round(g / 1e9, 3)
            r["largest_ack_gap_from_kill_s"] = [round((ga - kill_ns) / 1e9, 3), round((gb - kill_ns) / 1e9, 3)]
            r["acks_in_first_50ms_after_kill"] = sum(1 for t in after if t - kill_ns < 50_000_000)
        else:
            r["window_s"] = None
            r["kill_to_first_ack_s"] = None
            r["largest_ack_gap_s"] = None
        prod = None  # closes the producer

        # ---- read the partition back and check every acknowledged pair
        c = Consumer({"bootstrap.servers": cl.bootstrap, "group.id": "clusterbench-verify",
                      "enable.auto.commit": False, "auto.offset.reset": "earliest"})
        try:
            lo, hi = c.get_watermark_offsets(TopicPartition(topic, 0), timeout=15)
            r["watermarks"] = [lo, hi]
            c.assign([TopicPartition(topic, 0, lo)])
            log_vals = {}
            read_errs = []
            pos = lo
            deadline = time.monotonic() + 30
            while pos < hi and time.monotonic() < deadline:
                for m in c.consume(1000, 0.5):
                    if m.error():
                        if len(read_errs) < 5:
                            read_errs.append(str(m.error()))
                        continue
                    log_vals[m.offset()] = m.value()
                    pos = max(pos, m.offset() + 1)
        finally:
            c.close()
        r["read_records"] = len(log_vals)
        r["read_complete"] = pos >= hi
        r["read_errors"] = read_errs
        lost = [(o, v[:11]) for _, o, v in acks if log_vals.get(o) != v]
        r["acked_lost_or_changed"] = len(lost)
        r["acked_lost_sample"] = [(o, v.decode(errors="replace")) for o, v in lost[:5]]
        seqs = [v[:10] for v in log_vals.values()]
        r["log_duplicate_values"] = len(seqs) - len(set(seqs))
        acked_offsets = [o for _, o, _ in acks]
        r["acked_offsets_distinct"] = len(set(acked_offsets)) == len(acked_offsets)
        r["max_acked_offset"] = max(acked_offsets) if acked_offsets else None
        r["loadavg_end"] = lb.loadavg()
    except Exception as e:  # noqa
        r["error"] = repr(e)
    finally:
        prod = None
        r["stop"] = cl.stop()
        bad_exit = [s for s in r["stop"] if s.get("already_exited") and not s.get("killed_by_us")]
        r["broker_logs"] = cl.logs(tail=30 if ("error" in r or bad_exit or r.get("acked_lost_or_changed")) else 5)
        if not args.keep_data:
            for x in cl.nodes:
                shutil.rmtree(x.data_dir, ignore_errors=True)
    return r


# --------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--broker", default=os.path.join(REPO, "target/release/tidemark"))
    ap.add_argument("--work-dir", default="/work/bench-tmp")
    ap.add_argument("--tput-seconds", type=float, default=15)
    ap.add_argument("--tput-max-messages", type=int, default=3_000_000)
    ap.add_argument("--rate", type=int, default=5000)
    ap.add_argument("--latency-seconds", type=float, default=10)
    ap.add_argument("--warmup-seconds", type=float, default=1.0)
    ap.add_argument("--kill-runs", type=int, default=5)
    ap.add_argument("--kill-rate", type=int, default=1000)
    ap.add_argument("--kill-after-s", type=float, default=3.0)
    ap.add_argument("--kill-produce-after-s", type=float, default=12.0)
    ap.add_argument("--wait-binary-seconds", type=float, default=900)
    ap.add_argument("--quiet-wait-seconds", type=float, default=180,
                    help="before starting, wait up to this long for the shared machine to be nearly idle")
    ap.add_argument("--quiet-threshold-cores", type=float, default=0.5)
    ap.add_argument("--phases", default="raw,modes,kill")
    ap.add_argument("--modes", default="single,three")
    ap.add_argument("--repeats", type=int, default=3,
                    help="runs of each mode (alternating); the median throughput run is reported")
    ap.add_argument("--keep-data", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "clusterbench_last_run.json"))
    args = ap.parse_args()
    args.kill_runs = max(0, min(args.kill_runs, 20))
    args.repeats = max(1, min(args.repeats, 9))
    phases = set(args.phases.split(","))

    import confluent_kafka

    os.makedirs(args.work_dir, exist_ok=True)
    run_dir = tempfile.mkdtemp(prefix="clusterbench-", dir=args.work_dir)
    res = RES
    res.update({
        "benchmark": "tidemark cluster: one node vs three, kill -9 of a leader (benches/load/clusterbench.py)",
        "command": " ".join(["python3", os.path.relpath(os.path.abspath(sys.argv[0]), REPO)] + sys.argv[1:]),
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": lb.machine_info(),
        "loadavg_start": lb.loadavg(),
        "clients": {"confluent_kafka": confluent_kafka.version()[0], "librdkafka": confluent_kafka.libversion()[0]},
        "work_dir": run_dir,
        "problems": [],
    })
    problems = res["problems"]
    clog_path = os.path.join(run_dir, "clients.log")
    try:
        # ---- disk: throughput data x (1 + 3 replicas), preallocation, margin
        need = args.tput_max_messages * 1100 * 4 + (2 << 30)
        stv = os.statvfs(run_dir)
        free = stv.f_bavail * stv.f_frsize
        res["disk_free_GB_at_start"] = round(free / 1e9, 1)
        res["disk_needed_GB_estimate"] = round(need / 1e9, 1)
        if free < need + (10 << 30):
            raise SystemExit(f"not enough free disk in {run_dir}: {free / 1e9:.1f} GB free, ~{need / 1e9:.1f} GB needed + 10 GB margin")

        if args.quiet_wait_seconds > 0:
            log(f"waiting up to {args.quiet_wait_seconds:.0f} s for the machine to be under {args.quiet_threshold_cores} busy cores")
            res["quiet_wait"] = wait_quiet(args.quiet_wait_seconds, args.quiet_threshold_cores)
            log("quiet wait:", res["quiet_wait"])
            res["loadavg_after_quiet_wait"] = lb.loadavg()

        # ---- the broker binary, copied so a rebuild mid-run changes nothing
        wait_binary(args.broker, args.wait_binary_seconds)
        st = os.stat(args.broker)
        binary = os.path.join(run_dir, "tidemark")
        shutil.copy2(args.broker, binary)
        h = hashlib.sha256()
        with open(binary, "rb") as f:
            for blk in iter(lambda: f.read(1 << 20), b""):
                h.update(blk)
        head = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(args.broker)), "log", "-1", "--format=%h %cI %s"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().strip()
        res["broker_binary"] = {"path": args.broker, "mtime": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(st.st_mtime)),
                                "size": st.st_size, "sha256": h.hexdigest()[:16],
                                "repo_head_at_copy": head[:120]}
        log("broker binary", res["broker_binary"])

        if "raw" in phases:
            log("raw: fdatasync 4 KiB, loopback TCP")
            res["raw"] = {
                "fdatasync_4KiB": lb.raw_fdatasync(os.path.join(run_dir, "sync.4k"), 4096, 3000, 3),
                "loopback_tcp": lb.raw_loopback(3.0),
            }

        if "modes" in phases:
            # Each mode --repeats times, the modes alternating (single,
            # three, single, three, ...) so that a noisy spell on this
            # shared machine hits both; "modes" keeps each mode's run with
            # the median throughput, "mode_runs" every run.
            res["modes"] = {}
            res["mode_runs"] = {}
            for rep in range(args.repeats):
                for name in args.modes.split(","):
                    n = {"single": 1, "three": 3}[name]
                    tag = name if args.repeats == 1 else f"{name}-{rep + 1}"
                    r = run_mode(name, binary, run_dir, n, args, clog_path, problems, tag=tag)
                    res["mode_runs"].setdefault(name, []).append(r)
            for name, runs in res["mode_runs"].items():
                ok = [r for r in runs if (r.get("throughput") or {}).get("msgs_per_s")]
                ok.sort(key=lambda r: r["throughput"]["msgs_per_s"])
                res["modes"][name] = ok[(len(ok) - 1) // 2] if ok else runs[0]
                res["modes"][name]["throughput_all_runs"] = [
                    (r.get("throughput") or {}).get("msgs_per_s") for r in runs]

        if "kill" in phases and args.kill_runs:
            runs = []
            res["kill"] = {"runs": runs, "rate": args.kill_rate, "kill_after_s": args.kill_after_s,
                           "produce_after_kill_s": args.kill_produce_after_s,
                           "producer_config": "acks=all, enable.idempotence=true, librdkafka defaults otherwise"}
            for i in range(args.kill_runs):
                log(f"[kill {i + 1}/{args.kill_runs}] fresh 3-node cluster")
                r = kill_run(i, binary, run_dir, args)
                runs.append(r)
                if "error" in r:
                    problems.append(f"kill run {i + 1}: {r['error']}")
                    log(f"[kill {i + 1}] FAILED: {r['error']}")
                    for L in r["broker_logs"]:
                        log(f"  node {L['node']} log tail:")
                        for line in L["tail"][-12:]:
                            log("    " + line)
                else:
                    if r.get("acked_lost_or_changed") or r.get("log_duplicate_values") or not r.get("read_complete"):
                        problems.append(f"kill run {i + 1}: lost/changed {r.get('acked_lost_or_changed')}, "
                                        f"duplicates {r.get('log_duplicate_values')}, read complete {r.get('read_complete')}")
                    if r.get("delivery_errors") or r.get("left_in_queue_after_flush"):
                        problems.append(f"kill run {i + 1}: {r['delivery_errors']} delivery errors "
                                        f"{r['delivery_errors_sample'][:2]}, {r['left_in_queue_after_flush']} unacked after flush")
                    if r.get("window_s") is None:
                        problems.append(f"kill run {i + 1}: no ack after the kill")
                    log(f"[kill {i + 1}] machine busy {r['produce_phase_machine_busy_cores']} cores; killed node {r['killed_node']} (leader); window {r['window_s']} s, "
                        f"kill->first ack {r['kill_to_first_ack_s']} s, largest gap {r['largest_ack_gap_s']} s, "
                        f"metadata new leader after {r['metadata_new_leader_after_s']} s; acked {r['acked']}/{r['sent']}, "
                        f"lost {r['acked_lost_or_changed']}, log records {r['read_records']}, dups {r['log_duplicate_values']}")
            inf = float("inf")
            ws = [r.get("window_s") if r.get("window_s") is not None else inf for r in runs]
            gs = [r.get("largest_ack_gap_s") if r.get("largest_ack_gap_s") is not None else inf for r in runs]
            ks = [r.get("kill_to_first_ack_s") if r.get("kill_to_first_ack_s") is not None else inf for r in runs]
            fin = lambda x: None if x == inf else round(x, 3)
            res["kill"]["median_window_s"] = fin(statistics.median(ws)) if ws else None
            res["kill"]["median_largest_gap_s"] = fin(statistics.median(gs)) if gs else None
            res["kill"]["median_kill_to_first_ack_s"] = fin(statistics.median(ks)) if ks else None
            res["kill"]["total_acked"] = sum(r.get("acked", 0) for r in runs)
            res["kill"]["total_lost"] = sum(r.get("acked_lost_or_changed", 0) for r in runs)
    finally:
        res["loadavg_end"] = lb.loadavg()
        res["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        if not args.keep_data:
            shutil.rmtree(run_dir, ignore_errors=True)
        res["data_kept"] = bool(args.keep_data)

    # ---- targets and summary
    def g(*path):
        v = res
        for k in path:
            if not isinstance(v, dict) or k not in v or v[k] is None:
                return None
            v = v[k]
        return v

    t1 = g("modes", "single", "throughput", "msgs_per_s")
    t3 = g("modes", "three", "throughput", "msgs_per_s")
    mw = g("kill", "median_window_s")
    nruns = len(g("kill", "runs") or [])
    res["targets"] = {
        "kill9_window_median_under_5s": (mw is not None and mw < 5) if nruns else None,
        "three_node_throughput_at_least_half_single": (t3 >= 0.5 * t1) if (t1 and t3) else None,
        "three_vs_single_throughput_ratio": round(t3 / t1, 3) if (t1 and t3) else None,
    }
    res["summary"] = {m: {
        "throughput_msgs_per_s": g("modes", m, "throughput", "msgs_per_s"),
        "throughput_all_runs": g("modes", m, "throughput_all_runs"),
        "throughput_MBps": g("modes", m, "throughput", "MBps_values"),
        "throughput_broker_cores": g("modes", m, "throughput", "phase", "broker_cores_total"),
        "throughput_client_cores": g("modes", m, "throughput", "phase", "client_cores"),
        "throughput_machine_busy_cores": g("modes", m, "throughput", "phase", "machine_busy_cores"),
        "throughput_other_cores": g("modes", m, "throughput", "phase", "other_load_cores"),
        "latency_rate": g("modes", m, "latency", "producer", "achieved_rate"),
        "publish_ack_ms": {k: g("modes", m, "latency", "publish_ack", k) for k in ("p50_ms", "p99_ms", "p999_ms", "max_ms")},
        "latency_broker_cores": g("modes", m, "latency", "phase", "broker_cores_total"),
        "latency_other_cores": g("modes", m, "latency", "phase", "other_load_cores"),
    } for m in (g("modes") or {})}
    with open(args.out, "w") as f:
        f.write(json.dumps(res, indent=2) + "\n")
    print_summary(res)


def print_summary(res):
    p = lambda *a: print(*a, file=sys.stderr)
    p("")
    p("==== clusterbench summary ====")
    p("command:", res["command"])
    p("binary:", res.get("broker_binary"))
    p("machine:", res["machine"]["nproc"], "cores,", res["machine"]["cpu_model"])
    p("loadavg start", res["loadavg_start"], "end", res.get("loadavg_end"), "quiet wait", res.get("quiet_wait"))
    raw = res.get("raw")
    if raw:
        f = raw["fdatasync_4KiB"]
        p(f"raw fdatasync 4 KiB: p50 {f['p50_ms']} ms p99 {f['p99_ms']} ms; loopback TCP {raw['loopback_tcp']['MBps']} MB/s")
    for m, s in res.get("summary", {}).items():
        a = s["publish_ack_ms"]
        p(f"{m:6s}: acks=all throughput {s['throughput_msgs_per_s']} msg/s ({s['throughput_MBps']} MB/s), "
          f"brokers {s['throughput_broker_cores']} cores, client {s['throughput_client_cores']}, other {s['throughput_other_cores']}"
          f" (median run; all runs: {s['throughput_all_runs']})")
        p(f"        publish-ack @{s['latency_rate']} msg/s: p50 {a['p50_ms']} p99 {a['p99_ms']} p999 {a['p999_ms']} max {a['max_ms']} ms, "
          f"brokers {s['latency_broker_cores']} cores")
    k = res.get("kill")
    if k:
        p("kill -9 of the leader (window / kill->first ack / largest gap, s; acked, lost):")
        for r in k["runs"]:
            if "error" in r:
                p(f"  run {r['run']}: ERROR {r['error']}")
            else:
                p(f"  run {r['run']}: node {r['killed_node']}: {r['window_s']} / {r['kill_to_first_ack_s']} / {r['largest_ack_gap_s']}; "
                  f"acked {r['acked']} of {r['sent']}, lost {r['acked_lost_or_changed']}, dups {r['log_duplicate_values']}")
        p(f"  median window {k.get('median_window_s')} s, kill->first ack {k.get('median_kill_to_first_ack_s')} s, "
          f"largest gap {k.get('median_largest_gap_s')} s; total acked {k.get('total_acked')}, lost {k.get('total_lost')}")
    p("targets:", res.get("targets"))
    if res["problems"]:
        p("problems:")
        for x in res["problems"]:
            p("  -", x[:500])


RES = {}

if __name__ == "__main__":
    try:
        main()
    except BaseException as e:  # write what was measured, then fail
        if RES:
            RES["error"] = repr(e)
            out = os.path.join(HERE, "clusterbench_last_run.json")
            if "--out" in sys.argv:
                out = sys.argv[sys.argv.index("--out") + 1]
            with open(out, "w") as f:
                json.dump(RES, f, indent=2, default=str)
        raise
