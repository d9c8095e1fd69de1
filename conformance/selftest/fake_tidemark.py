#!/usr/bin/env python3
"""A stand-in for the `tidemark` binary, for checking the suite's own plumbing.

It accepts tidemark's command line (--data-dir, --kafka-addr, --set ...) and
runs kafka-protocol's golden-capture fake broker (in-memory, Produce / Fetch /
Metadata / ListOffsets and a toy group coordinator; no admin APIs, nothing
persisted). Use it to check that the harness, the clients' helpers and the
produce/consume tests are wired right before the real broker exists:

    TIDEMARK_BIN=conformance/selftest/fake_tidemark.py pytest conformance/ -k "..."

Most admin, restart and bad-input tests fail against it by design.
"""

import argparse
import os
import signal
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "conformance"))
sys.path.insert(0, str(REPO / "kafka-protocol" / "tests" / "fixtures" / "golden" / "capture"))

import rawkafka  # noqa: E402
import fake_broker  # noqa: E402


def _create_topics(self, v, body, header):
    """Minimal CreateTopics for the stand-in: partitions only, configs ignored."""
    out = []
    with self.state.lock:
        for t in body["Topics"]:
            r = {"Name": t["Name"], "ErrorCode": 0, "ErrorMessage": None, "NumPartitions": -1,
                 "ReplicationFactor": -1, "Configs": None}
            if t["Name"] in self.state.topics:
                r["ErrorCode"] = 36
            elif not body.get("validateOnly"):
                n = t["NumPartitions"] if t["NumPartitions"] > 0 else self.state.default_partitions
                topic = self.state.topics[t["Name"]] = fake_broker.Topic(t["Name"], n)
                r.update(TopicId=topic.id, NumPartitions=n, ReplicationFactor=1)
            out.append(r)
    return {"ThrottleTimeMs": 0, "Topics": out}


def _delete_topics(self, v, body, header):
    out = []
    with self.state.lock:
        names = body.get("TopicNames") or [t["Name"] for t in body.get("Topics") or []]
        for name in names:
            gone = self.state.topics.pop(name, None)
            out.append({"Name": name, "ErrorCode": 0 if gone else 3, "ErrorMessage": None})
    return {"ThrottleTimeMs": 0, "Responses": out}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--kafka-addr", required=True)
    ap.add_argument("--advertise-kafka-addr")
    ap.add_argument("--node-id", type=int, default=1)
    ap.add_argument("--cores", type=int)
    ap.add_argument("--admin-addr")  # tidemark's admin HTTP server; no admin server here
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    settings = dict(s.split("=", 1) for s in args.set)
    host, port = args.kafka_addr.rsplit(":", 1)
    if host != "127.0.0.1":
        sys.exit("fake_tidemark listens on 127.0.0.1 only")
    data = Path(args.data_dir)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    sys.argv = ["fake_broker.py", "--schemas", str(rawkafka.schema_dir()),
                "--capture", str(data / "capture.jsonl"), "--port-file", str(data / "port"),
                "--port", port, "--partitions", settings.get("num.partitions", "1"),
                "--max-seconds", "900",
                # as tidemark (and Kafka 4 since KAFKA-18659): Produce advertised from v0
                "--min", "0=0"]
    fake_broker.Broker.h_19 = _create_topics
    fake_broker.Broker.h_20 = _delete_topics
    fake_broker.IMPLEMENTED.extend([19, 20])
    fake_broker.main()


if __name__ == "__main__":
    main()
