#!/usr/bin/env python3
"""Leader takeover cost: how long the first publish to a new partition
leader takes, as a function of how much data the partition holds.

A new leader must know the idempotent producers' last sequences before it
appends anything (else a retried batch would be written twice). Until
stop 14 it read its whole active segment for that (up to segment.bytes,
1 GiB by default) on its first append; now the log keeps that state as it
appends (storage/src/producers.rs). This measures the difference.

For each size in --fill-mb, on a fresh three-node cluster (benches/load/
clusterbench.py's Cluster: --cores 1 per broker, racks zone-a/b/c):
  1. a 1-partition topic with replication factor 3;
  2. fill it with that many MiB of 1 KiB values (acks=all, idempotent);
  3. kill -9 the leader (by the PID of our own Popen);
  4. poll Metadata on the survivors until another broker is leader
     (kill -> leader named);
  5. a new producer (acks=all, not idempotent: see run_one) on the
     survivors fetches metadata, then publishes one message: first_ack_ms
     is produce() to its delivery report; a second message gives
     second_ack_ms (the takeover already paid).

Usage:
  python3 benches/load/takeover.py --broker target/release/tidemark
      [--fill-mb 0,600] [--work-dir /work/bench-tmp] [--out FILE]
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clusterbench as cb  # noqa: E402


def log(*m):
    print(time.strftime("%H:%M:%S"), *m, file=sys.stderr, flush=True)


def timed_publish(producer, topic, value):
    acked = {}

    def on_dr(err, msg):
        acked["t"] = time.monotonic()
        acked["err"] = err
        acked["offset"] = msg.offset()

    t0 = time.monotonic()
    producer.produce(topic, value=value, key=b"takeover", on_delivery=on_dr)
    producer.flush(60)
    if "t" not in acked:
        return {"error": "no delivery report in 60 s"}
    if acked["err"] is not None:
        return {"error": str(acked["err"])}
    return {"ms": round((acked["t"] - t0) * 1000, 1), "offset": acked["offset"]}


def fill(bootstrap, topic, mb):
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                  "linger.ms": 5, "batch.size": 1 << 20, "queue.buffering.max.kbytes": 1 << 20})
    value = b"x" * 1024
    n = mb * 1024
    errors = []

    def on_dr(err, _msg):
        if err is not None and len(errors) < 5:
            errors.append(str(err))

    t0 = time.monotonic()
    for i in range(n):
        while True:
            try:
                p.produce(topic, value=value, key=str(i % 1000).encode(), on_delivery=on_dr)
                break
            except BufferError:
                p.poll(0.05)
        if time.monotonic() - t0 > 600:
            raise RuntimeError("fill took more than 600 s")
    left = p.flush(120)
    if left or errors:
        raise RuntimeError(f"fill: {left} not delivered, errors {errors}")
    return round(time.monotonic() - t0, 1)


def run_one(binary, root, mb, i):
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient

    cl = cb.Cluster(binary, os.path.join(root, f"run{i + 1}-fill{mb}"), 3)
    out = {"fill_mb": mb}
    try:
        cl.start()
        topic = "takeover"
        cl.create_topic(topic, 1, 3)
        if mb:
            out["fill_seconds"] = fill(cl.bootstrap, topic, mb)
        old = cl.layout(topic)[0][0]["leader"]
        survivors = ",".join(x.kafka_addr for x in cl.nodes if x.id != old)
        out["old_leader"] = old
        t_kill = time.monotonic()
        cl.node(old).kill9()
        admin = AdminClient({"bootstrap.servers": survivors})
        new = -1
        while time.monotonic() - t_kill < 60:
            try:
                md = admin.list_topics(topic, timeout=2)
                p = md.topics[topic].partitions[0]
                if p.leader >= 0 and p.leader != old:
                    new = p.leader
                    break
            except Exception:  # noqa
                pass
            time.sleep(0.05)
        out["new_leader"] = new
        out["kill_to_leader_named_s"] = round(time.monotonic() - t_kill, 3)
        # Not idempotent: an idempotent producer's first request asks for
        # a producer id, which waits for the controller if the killed
        # broker led it; the new leader's first append pays the takeover
        # (producer state) either way.
        prod = Producer({"bootstrap.servers": survivors, "acks": "all", "enable.idempotence": False,
                         "linger.ms": 0})
        prod.list_topics(topic, timeout=10)
        out["first_ack"] = timed_publish(prod, topic, b"first")
        out["second_ack"] = timed_publish(prod, topic, b"second")
    finally:
        out["stop"] = cl.stop()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--broker", required=True)
    ap.add_argument("--fill-mb", default="0,600")
    ap.add_argument("--work-dir", default=None)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    root = tempfile.mkdtemp(prefix="takeover-", dir=a.work_dir)
    binary = os.path.join(root, "tidemark")
    shutil.copy2(a.broker, binary)
    res = {"broker": os.path.abspath(a.broker), "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "runs": []}
    try:
        for i, mb in enumerate(int(x) for x in a.fill_mb.split(",")):
            r = run_one(binary, root, mb, i)
            log(f"fill {mb} MiB: kill -> leader named {r.get('kill_to_leader_named_s')} s, "
                f"first ack {r.get('first_ack')}, second ack {r.get('second_ack')}")
            res["runs"].append(r)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    text = json.dumps(res, indent=1)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
