#!/usr/bin/env python3
"""What follower fetching (KIP-392) costs: publish-to-consume latency of a
consumer reading a partition from a follower against one reading it from
the leader, in the same run, on a three-broker cluster (one broker per
rack zone-a/b/c, `replica.selector.class` = RackAwareReplicaSelector).

    python3 benches/load/followerbench.py [--seconds 20] [--rate 500]
        [--repeats 2] [--json out.json]

Per repeat: a fresh topic (1 partition, replication factor 3); two
consumers in their own groups, assigned partition 0 at its end, with
librdkafka's defaults but `client.rack`: one in the leader's rack (reads
from the leader), one in a follower's rack (sent to that follower by the
leader); a producer (acks=all, linger.ms=1, 1 KiB values carrying the send
time) at --rate msg/s for --seconds. Latency = receive time - send time
(one clock: same machine), every record after a 2 s warm-up. The brokers'
own counters (`tidemark_fetch_follower_reads_total` on the follower,
`tidemark_fetch_preferred_replica_redirects_total` on the leader) show the
second consumer really read from the follower. The follower's extra
latency is how long it takes to learn the high watermark (the next Raft
append or heartbeat after the commit) plus its own long-poll wake-up.

Raw figures of this run for comparison: fdatasync of 4 KiB O_DIRECT and
loopback TCP throughput (loadbench's). TIDEMARK_BIN picks the binary.
"""

import argparse
import json
import os
import struct
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "conformance"))
import loadbench as lb  # noqa: E402
import cluster  # noqa: E402
import harness  # noqa: E402

SELECTOR = "org.apache.kafka.common.replica.RackAwareReplicaSelector"
WARMUP_S = 2.0
VALUE_BYTES = 1024


def counter(node, name):
    with urllib.request.urlopen(node.admin_url + "/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith("tidemark_" + name + " "):
                return float(line.split()[1])
    return 0.0


def consume(bootstrap, topic, rack, stop, lat_ns, ready):
    from confluent_kafka import Consumer, TopicPartition, OFFSET_END
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "fb-%s-%d" % (rack, os.getpid()),
                  "client.rack": rack, "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(topic, 0, OFFSET_END)])
        deadline = time.monotonic() + 600
        while not stop.is_set() and time.monotonic() < deadline:
            m = c.poll(0.2)
            ready.set()
            if m is None or m.error():
                continue
            now = time.time_ns()
            sent, = struct.unpack_from(">q", m.value())
            lat_ns.append((sent, now - sent))
    finally:
        c.close()


def one_run(c, args, i):
    from confluent_kafka import Producer
    topic = harness.unique_topic("followerbench%d" % i)
    c.create_topic(topic, 1, replication_factor=3, full_isr=True)
    leader = c.settled_leader(topic, 0)
    follower = [r for r in c.replicas_of(topic, 0) if r != leader][0]
    L, F = c.node(leader), c.node(follower)
    before = (counter(F, "fetch_follower_reads_total"),
              counter(L, "fetch_preferred_replica_redirects_total"))
    stop = threading.Event()
    lat = {"leader": [], "follower": []}
    threads = []
    for name, rack in (("leader", L.rack), ("follower", F.rack)):
        ready = threading.Event()
        t = threading.Thread(target=consume, args=(c.bootstrap, topic, rack, stop, lat[name], ready))
        t.start()
        threads.append(t)
        ready.wait(30)
    time.sleep(2.0)  # both consumers positioned at the end
    p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 1})
    pad = b"x" * (VALUE_BYTES - 8)
    t0 = time.monotonic()
    start_ns = time.time_ns()
    sent = 0
    interval = 1.0 / args.rate
    while time.monotonic() - t0 < args.seconds:
        p.produce(topic, value=struct.pack(">q", time.time_ns()) + pad, partition=0)
        sent += 1
        p.poll(0)
        next_at = t0 + sent * interval
        delay = next_at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    p.flush(30)
    time.sleep(2.0)
    stop.set()
    for t in threads:
        t.join(30)
    after = (counter(F, "fetch_follower_reads_total"),
             counter(L, "fetch_preferred_replica_redirects_total"))
    warm_ns = start_ns + int(WARMUP_S * 1e9)
    out = {"sent": sent, "leader_node": leader, "follower_node": follower,
           "follower_reads": after[0] - before[0], "redirects": after[1] - before[1]}
    for name, v in lat.items():
        vals = [d for s, d in v if s >= warm_ns]
        out[name] = lb.summary_us(vals)
        out[name]["received"] = len(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--rate", type=float, default=500.0)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    assert args.seconds <= 300 and args.rate <= 20000 and args.repeats <= 10
    tmp = tempfile.mkdtemp(prefix="followerbench-")
    report = {"machine": lb.machine_info(), "load_before": lb.loadavg(),
              "raw": {"fdatasync_4k": lb.raw_fdatasync(os.path.join(tmp, "raw"), 4096, 2000, 3.0),
                      "loopback": lb.raw_loopback(2.0)},
              "runs": []}
    c = cluster.Cluster(3, name="followerbench", settings={"replica.selector.class": SELECTOR})
    try:
        c.start()
        for i in range(args.repeats):
            r = one_run(c, args, i)
            report["runs"].append(r)
            print("run %d: leader p50 %.2f p99 %.2f ms | follower p50 %.2f p99 %.2f ms "
                  "(follower reads %d, redirects %d)" % (
                      i, r["leader"]["p50_ms"], r["leader"]["p99_ms"],
                      r["follower"]["p50_ms"], r["follower"]["p99_ms"],
                      r["follower_reads"], r["redirects"]), flush=True)
    finally:
        c.close()
        os.rmdir(tmp) if os.path.isdir(tmp) and not os.listdir(tmp) else None
    report["load_after"] = lb.loadavg()
    print(json.dumps(report, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
