#!/usr/bin/env python3
"""What one metadata change costs: times --count CreateTopics requests of
one single-partition topic each against a running broker and prints the
median, min and max (ms). Run it against a broker holding many topics and
against an empty one, in the same session: a change should cost the same
(issue 14). The topics it creates are named metachange-<tag>-<i>.

Usage:
  python3 benches/load/metachange.py --bootstrap 127.0.0.1:9092 --tag big [--count 10]
"""

import argparse
import statistics
import sys
import time

from confluent_kafka.admin import AdminClient, NewTopic


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--tag", default=str(int(time.time())))
    ap.add_argument("--count", type=int, default=10)
    args = ap.parse_args()
    if not 1 <= args.count <= 1000:
        sys.exit("--count must be between 1 and 1000")
    admin = AdminClient({"bootstrap.servers": args.bootstrap})
    admin.list_topics(timeout=30)
    took_ms = []
    for i in range(args.count):
        name = "metachange-%s-%d" % (args.tag, i)
        t0 = time.perf_counter()
        admin.create_topics([NewTopic(name, 1, 1)], request_timeout=60)[name].result(timeout=60)
        took_ms.append((time.perf_counter() - t0) * 1000)
    print("create one topic (%d requests): median %.1f ms, min %.1f, max %.1f"
          % (args.count, statistics.median(took_ms), min(took_ms), max(took_ms)))


if __name__ == "__main__":
    main()
