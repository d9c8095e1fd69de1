#!/usr/bin/env python3
"""What the authorizer costs (issue 15): the same broker workload with
and without `authorizer.class.name`, in one run.

Two single-node brokers (2 shards), one plain and one with the
StandardAuthorizer, TOPICS topics (1 partition each) and, on the second,
ACLS tenants each with a PREFIXED topic ACL and a PREFIXED group ACL; the
client's principal (ANONYMOUS over PLAINTEXT) is granted through one of
those prefixes, so every check walks real ACLs. Measured per broker:

- Metadata for all topics: median and p99 of REPS requests (raw protocol);
- produce throughput: N x 1 KiB records, acks=all, to one topic
  (confluent-kafka, linger 5 ms).

The ratio authorizer/plain within the run is what to read on a shared
machine. Every loop is bounded in count and time; brokers are stopped by
PID (conformance harness).

Usage: TOPICS=5000 ACLS=500 N=200000 python3 benches/load/aclbench.py
"""
import os
import statistics
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "conformance"))
import harness  # noqa: E402
import rawkafka  # noqa: E402
from confluent_kafka import Producer  # noqa: E402
from confluent_kafka.admin import (AclBinding, AclOperation, AclPermissionType,  # noqa: E402
                                   AdminClient, NewTopic, ResourcePatternType, ResourceType)

TOPICS = int(os.environ.get("TOPICS", "5000"))
ACLS = int(os.environ.get("ACLS", "500"))
N = int(os.environ.get("N", "200000"))
REPS = int(os.environ.get("REPS", "50"))
AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"


def setup(b, with_acls):
    a = AdminClient({"bootstrap.servers": b.bootstrap})
    names = ["team-%04d.t%d" % (i % max(ACLS, 1), i) for i in range(TOPICS)]
    for i in range(0, len(names), 1000):
        fs = a.create_topics([NewTopic(n, 1, 1) for n in names[i:i + 1000]])
        for f in fs.values():
            f.result(120)
    if with_acls:
        acls = []
        for t in range(ACLS):
            # Other tenants' principals; ANONYMOUS gets tenant 0's prefix.
            who = "User:ANONYMOUS" if t == 0 else "User:tenant%d" % t
            acls.append(AclBinding(ResourceType.TOPIC, "team-%04d." % t, ResourcePatternType.PREFIXED,
                                   who, "*", AclOperation.ALL, AclPermissionType.ALLOW))
            acls.append(AclBinding(ResourceType.GROUP, "team-%04d." % t, ResourcePatternType.PREFIXED,
                                   who, "*", AclOperation.ALL, AclPermissionType.ALLOW))
        # ANONYMOUS may also describe every topic, so both brokers list
        # the same topics and only the checks differ.
        acls.append(AclBinding(ResourceType.TOPIC, "*", ResourcePatternType.LITERAL,
                               "User:ANONYMOUS", "*", AclOperation.DESCRIBE,
                               AclPermissionType.ALLOW))
        for i in range(0, len(acls), 500):
            for f in a.create_acls(acls[i:i + 500]).values():
                f.result(60)
    return names


def metadata_ms(b):
    out = []
    with rawkafka.KafkaConn(b.bootstrap, timeout=60) as c:
        for _ in range(REPS):
            t0 = time.perf_counter()
            md = c.metadata(None)
            out.append((time.perf_counter() - t0) * 1000)
    return out, len(md["Topics"])


def produce_mbs(b, topic):
    p = Producer({"bootstrap.servers": b.bootstrap, "linger.ms": 5, "acks": "all",
                  "batch.size": 1 << 20, "queue.buffering.max.messages": 500000})
    val = os.urandom(1024)
    t0 = time.monotonic()
    for i in range(N):
        while True:
            try:
                p.produce(topic, val)
                break
            except BufferError:
                p.poll(0.01)
        if time.monotonic() - t0 > 120:
            break
    assert p.flush(120) == 0
    return i + 1, (i + 1) * 1024 / (time.monotonic() - t0) / 1e6


def main():
    results = {}
    for name, settings in (("plain", {}),
                           ("authorizer", {"authorizer.class.name": AUTHORIZER,
                                           "super.users": "User:admin"})):
        # The authorizer broker lets ANONYMOUS create topics and ACLs
        # while it is set up: super user first, then restarted without.
        b = harness.Broker(settings=dict(settings, **({"super.users": "User:ANONYMOUS"}
                                                      if settings else {})),
                           name="aclbench-" + name, cores=2)
        b.start()
        try:
            names = setup(b, bool(settings))
            if settings:
                b.settings = settings
                b.restart()
            ms, listed = metadata_ms(b)
            sent, mbs = produce_mbs(b, names[0])
            results[name] = {"metadata_median_ms": statistics.median(ms),
                             "metadata_p99_ms": sorted(ms)[int(len(ms) * 0.99) - 1],
                             "topics_listed": listed, "produce_mb_s": mbs, "sent": sent}
            print(name, results[name], flush=True)
        finally:
            b.close()
    p, a = results["plain"], results["authorizer"]
    print("TOPICS=%d ACLS=%d: Metadata(all) median %.1f ms plain vs %.1f ms authorizer "
          "(listed %d vs %d); produce %.0f vs %.0f MB/s (%.2fx)"
          % (TOPICS, ACLS, p["metadata_median_ms"], a["metadata_median_ms"], p["topics_listed"],
             a["topics_listed"], p["produce_mb_s"], a["produce_mb_s"],
             a["produce_mb_s"] / p["produce_mb_s"]))


if __name__ == "__main__":
    main()
