#!/usr/bin/env python3
"""Regenerates broker/src/settings/kafka_broker.tsv, Kafka's broker config
list (name, ConfigDef type, default, update mode, and what the config does
in Tidemark), from Kafka's generated documentation page.

Usage:
    python3 broker/tools/kafka_broker_configs.py KAFKA_CONFIG_HTML [--kafka-3.9]

KAFKA_CONFIG_HTML is `generated/kafka_config.html` of a Kafka release's
docs (the "Broker Configs" section; in the apache/kafka-site repository it
is `<version>/generated/kafka_config.html`, e.g. `40/generated/...`; a
Kafka build writes it under `docs/generated/`). Each entry there prints
Type, Default, Valid Values, Importance and Update Mode, the last computed
by Kafka from `DynamicBrokerConfig` (read-only, per-broker, cluster-wide).

The table in the repository was made from Kafka 4.0's page. That page was
read through a code-search tool that could not save it, while the 3.9 page
was on disk; so it was generated from 3.9's page with `--kafka-3.9`, which
applies `DELTA_3_9_TO_4_0` below: every difference between the two pages,
transcribed entry by entry (ZooKeeper and the other configs 4.0 removed,
the ones it added, changed defaults and update modes). Given 4.0's page
itself, run without the flag; the script warns where the delta disagrees
with the page, so the delta can be checked against it.

The table was brought to Kafka 4.1 (2026-12-05) by running the script on
4.1's page (apache/kafka-site `41/generated/kafka_config.html`, transcribed
through the code-search tool into the markup `parse` reads): 30 configs
added (`group.streams.*`, the `sasl.oauthbearer.assertion.*` family,
`group.share.assignors`, `group.share.max.share.sessions`,
`transaction.two.phase.commit.enable`, and the two
`add.partitions.to.txn.retry.backoff.*` that the 3.9-to-4.0 delta had
missed), `group.share.max.groups` removed, and 4.1's changed defaults and
ranges taken (`group.coordinator.rebalance.protocols`,
`share.coordinator.append.linger.ms`, `metadata.log.segment.bytes`, the
`controller.quorum.*` timeouts). The warnings it prints about the 4.0
delta are expected on a 4.1 page.

The fourth column (what the config does in Tidemark) is kept from the
existing file by name; a new name gets the note of the first matching rule
in `NOTES` (empty: Tidemark has a setting of that name in
`settings.rs::BROKER_SETTINGS`, whose own doc is shown).
"""

import html
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "src", "settings", "kafka_broker.tsv")

# (removed names, added rows, changed fields) from Kafka 3.9's page to 4.0's.
REMOVED_IN_4_0 = {
    "broker.id.generation.enable", "control.plane.listener.name",
    "controlled.shutdown.max.retries", "controlled.shutdown.retry.backoff.ms",
    "delegation.token.master.key", "eligible.leader.replicas.enable",
    "inter.broker.protocol.version", "leader.imbalance.per.broker.percentage",
    "log.message.downconversion.enable", "log.message.format.version",
    "log.message.timestamp.difference.max.ms", "offsets.commit.required.acks",
    "password.encoder.cipher.algorithm", "password.encoder.iterations",
    "password.encoder.key.length", "password.encoder.keyfactory.algorithm",
    "password.encoder.old.secret", "password.encoder.secret",
    "reserved.broker.max.id", "auto.include.jmx.reporter",
}
ADDED_IN_4_0 = [
    ("group.consumer.migration.policy", "string", "bidirectional", "read-only", "(case insensitive) [DISABLED, DOWNGRADE, UPGRADE, BIDIRECTIONAL]"),
    ("remote.list.offsets.request.timeout.ms", "long", "30000", "cluster-wide", "[1,...]"),
    ("share.coordinator.append.linger.ms", "int", "10", "read-only", "[0,...]"),
    ("share.coordinator.load.buffer.size", "int", "5242880", "read-only", "[1,...]"),
    ("share.coordinator.snapshot.update.records.per.snapshot", "int", "500", "read-only", "[0,...]"),
    ("share.coordinator.state.topic.compression.codec", "int", "0", "read-only", ""),
    ("share.coordinator.state.topic.min.isr", "short", "2", "read-only", "[1,...]"),
    ("share.coordinator.state.topic.num.partitions", "int", "50", "read-only", "[1,...]"),
    ("share.coordinator.state.topic.replication.factor", "short", "3", "read-only", "[1,...]"),
    ("share.coordinator.state.topic.segment.bytes", "int", "104857600", "read-only", "[1,...]"),
    ("share.coordinator.threads", "int", "1", "read-only", "[1,...]"),
    ("share.coordinator.write.timeout.ms", "int", "5000", "read-only", "[1,...]"),
    ("share.fetch.purgatory.purge.interval.requests", "int", "1000", "read-only", ""),
]
CHANGED_IN_4_0 = {  # name: {field: 4.0 value}
    "advertised.listeners": {"mode": "read-only"},
    "group.consumer.assignors": {"default": "uniform,range"},
    "group.coordinator.append.linger.ms": {"default": "5"},
    "group.coordinator.threads": {"default": "4"},
    "group.share.max.size": {"type": "int", "valid": "[1,...,1000]"},
    "group.share.record.lock.duration.ms": {"valid": "[1000,...,3600000]"},
    "group.coordinator.rebalance.protocols": {"default": "classic,consumer", "valid": "[consumer, classic]"},
    "process.roles": {"valid": "[broker, controller]"},
    "log.segment.bytes": {"valid": "[1048576,...]"},
    "log.message.timestamp.after.max.ms": {"default": "3600000"},
    "metric.reporters": {"default": "org.apache.kafka.common.metrics.JmxReporter"},
    "node.id": {"default": ""},
    "num.recovery.threads.per.data.dir": {"default": "2"},
    "remote.log.manager.copier.thread.pool.size": {"default": "10", "mode": "cluster-wide", "valid": "[1,...]"},
    "remote.log.manager.expiration.thread.pool.size": {"default": "10", "mode": "cluster-wide", "valid": "[1,...]"},
    "remote.log.manager.thread.pool.size": {"default": "2"},
    "remote.log.reader.threads": {"mode": "cluster-wide"},
    "ssl.enabled.protocols": {"default": "TLSv1.2,TLSv1.3"},
    "ssl.protocol": {"default": "TLSv1.3"},
}

# What a config Tidemark has no setting for does here: first matching
# (prefix or exact name) rule wins. Accepted, validated and stored either
# way (as the topic configs: DescribeConfigs shows the value in force).
NOTES = [
    ("node.id", "This broker's id: Tidemark's --node-id (shown as its value)."),
    ("broker.id", "This broker's id: Tidemark's --node-id (shown as its value); Kafka 4 uses node.id."),
    ("process.roles", "No effect: every Tidemark node is broker and controller voter (cluster mode: the --seeds voters)."),
    ("controller.", "No effect: Tidemark's controller is a Raft group over the --seeds voters on shard 0, not a KRaft quorum."),
    ("metadata.", "No effect: the metadata log is Tidemark's controller Raft group (single node: metadata.json)."),
    ("initial.broker.registration.timeout.ms", "No effect: a Tidemark broker registers through the controller log and retries until it is applied."),
    ("broker.heartbeat.interval.ms", "No effect: liveness comes from the controller group's Raft acknowledgements (broker.session.timeout.ms)."),
    ("early.start.listeners", "No effect: every listener starts once the metadata is loaded."),
    ("inter.broker.listener.name", "No effect: brokers talk Raft on their own rpc address; security.inter.broker.protocol picks TLS."),
    ("sasl.mechanism.", "No effect: SASL is not used between brokers or to the controller (mutual TLS is)."),
    ("sasl.kerberos.", "No effect: Tidemark has no GSSAPI/Kerberos (PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 only)."),
    ("sasl.oauthbearer.", "No effect: Tidemark has no OAUTHBEARER (PLAIN and SCRAM only)."),
    ("sasl.login.", "No effect: SASL logins are Java JAAS client-side machinery; Tidemark's PLAIN/SCRAM need none."),
    ("sasl.jaas.config", "No effect: no JAAS; SCRAM credentials are kept in the metadata (AlterUserScramCredentials)."),
    ("sasl.", "No effect: Java callback classes; Tidemark loads no classes."),
    ("ssl.keystore.password", "No effect: PEM keystores only, which carry no store password."),
    ("ssl.truststore.password", "No effect: PEM truststores only, which carry no store password."),
    ("ssl.key.password", "No effect: the PEM private key must be unencrypted."),
    ("ssl.keystore.key", "No effect: the key is read from ssl.keystore.location (PEM file)."),
    ("ssl.keystore.certificate.chain", "No effect: the chain is read from ssl.keystore.location (PEM file)."),
    ("ssl.truststore.certificates", "No effect: trusted certificates are read from ssl.truststore.location (PEM file)."),
    ("ssl.cipher.suites", "No effect: rustls' safe default cipher suites are used."),
    ("ssl.protocol", "No effect: ssl.enabled.protocols decides (rustls has no SSLContext protocol)."),
    ("ssl.", "No effect: a Java JSSE/SSLEngine knob; TLS is rustls with the ring provider."),
    ("security.providers", "No effect: Java security providers; TLS is rustls with the ring provider."),
    ("principal.builder.class", "No effect: principals are built as Kafka's default builder does (ssl.principal.mapping.rules, SASL user); no classes are loaded."),
    ("delegation.token.", "No effect: Tidemark has no delegation tokens."),
    ("num.io.threads", "No effect: thread-per-core, one event loop per core (--cores) does the I/O and the request handling."),
    ("num.network.threads", "No effect: thread-per-core, one event loop per core (--cores) owns its connections."),
    ("background.threads", "No effect: background work runs on each core's event loop."),
    ("num.recovery.threads.per.data.dir", "No effect: each core recovers the partitions it owns at start-up."),
    ("num.replica.alter.log.dirs.threads", "No effect: one data directory per broker; no replica moves between directories."),
    ("num.replica.fetchers", "No effect: followers are fed by Raft AppendEntries from the leader, not by fetcher threads."),
    ("replica.fetch.", "No effect: followers are fed by Raft AppendEntries from the leader, not by fetching."),
    ("replica.socket.", "No effect: followers are fed by Raft AppendEntries from the leader, not by fetching."),
    ("replica.lag.time.max.ms", "No effect: the in-sync replicas are the Raft voters that acknowledged recently (the leader's lease)."),
    ("replica.high.watermark.checkpoint.interval.ms", "No effect: the high watermark is the Raft commit index, kept by Raft."),
    ("log.flush.", "No effect: Raft commits are always fsynced before they are acknowledged."),
    ("log.dir", "No effect: the data directory is --data-dir (one directory per broker)."),
    ("log.dirs", "No effect: the data directory is --data-dir (one directory per broker)."),
    ("log.cleaner.", "No effect: compaction runs on each partition's own core; no shared cleaner threads, buffers or throttle."),
    ("log.retention.hours", "Kafka's hours form of log.retention.ms; Tidemark reads log.retention.ms only, so this has no effect."),
    ("log.retention.minutes", "Kafka's minutes form of log.retention.ms; Tidemark reads log.retention.ms only, so this has no effect."),
    ("log.roll.hours", "Kafka's hours form of log.roll.ms; Tidemark reads log.roll.ms only, so this has no effect."),
    ("log.roll.jitter.hours", "Kafka's hours form of log.roll.jitter.ms; Tidemark reads log.roll.jitter.ms only, so this has no effect."),
    ("log.dir.failure.timeout.ms", "No effect: one data directory per broker; a failing disk stops its partitions (see log.dir.min.free.*)."),
    ("remote.", "No effect: Tidemark has no tiered storage (remote.log.storage.system.enable is false)."),
    ("group.coordinator.", "No effect: the group coordinator runs on the core owning the group's __consumer_offsets partition."),
    ("group.consumer.assignors", "Accepted; the consumer protocol's server-side assignment is Tidemark's own (uniform), so other names have no effect."),
    ("group.consumer.migration.policy", "No effect: classic and consumer groups are converted as the default (bidirectional) allows."),
    ("group.share.max.groups", "No effect: share groups are not counted against a limit."),
    ("group.share.max.share.sessions", "No effect: share sessions are not counted against a limit."),
    ("group.share.assignors", "No effect: share groups use Tidemark's built-in assignment (Kafka's only assignor, simple, is the default)."),
    ("group.streams.", "No effect: Tidemark has no streams groups (KIP-1071; StreamsGroupHeartbeat is not offered)."),
    ("transaction.two.phase.commit.enable", "No effect: two-phase commit (KIP-939) is not offered; InitProducerId v6, which asks for it, is not advertised."),
    ("share.coordinator.", "No effect: the share coordinator runs on the core owning the group's __share_group_state partition, writing on Raft's schedule."),
    ("share.fetch.purgatory.purge.interval.requests", "No effect: waiting share fetches are woken by notification, there is no purgatory to purge."),
    ("offsets.topic.replication.factor", "No effect: __consumer_offsets is replicated to every controller voter (one node: 1)."),
    ("offsets.", "No effect: offsets are Raft-committed on __consumer_offsets with Tidemark's own segment and load sizes."),
    ("offset.metadata.max.bytes", "No effect: commit metadata of any size up to the request size is kept."),
    ("transaction.state.log.load.buffer.size", "No effect: the transaction log is loaded by Tidemark's own reader."),
    ("transaction.state.log.segment.bytes", "No effect: __transaction_state uses the broker's log.segment.bytes."),
    ("add.partitions.to.txn.", "No effect: partitions are verified against the coordinator's state in one step, with no retry backoff."),
    ("producer.id.expiration.ms", "No effect: idempotent producer state is kept per partition until retention removes its batches."),
    ("fetch.purgatory.purge.interval.requests", "No effect: waiting fetches are woken by notification, there is no purgatory to purge."),
    ("producer.purgatory.purge.interval.requests", "No effect: acks=all waits on the Raft commit, there is no purgatory to purge."),
    ("delete.records.purgatory.purge.interval.requests", "No effect: DeleteRecords waits on the Raft commit, there is no purgatory to purge."),
    ("delete.topic.enable", "No effect: topics can always be deleted (ACLs decide who may)."),
    ("controlled.shutdown.enable", "No effect: SIGTERM always hands leaderships over to in-sync replicas first (cluster mode)."),
    ("fetch.max.bytes", "No effect: a fetch response is bounded by the request's max_bytes and the partitions' max_bytes."),
    ("max.incremental.fetch.session.cache.slots", "No effect: fetch sessions are kept per core, bounded by Tidemark's own limit."),
    ("max.request.partition.size.limit", "No effect: share fetches are not limited by partition count."),
    ("queued.max.requests", "No effect: each connection has up to 64 requests in flight; queued.max.request.bytes bounds memory."),
    ("request.timeout.ms", "No effect: the broker sends no client requests of its own."),
    ("connections.max.idle.ms", "No effect: idle connections are kept until the client closes them."),
    ("connection.failed.authentication.delay.ms", "No effect: a failed authentication closes the connection at once."),
    ("max.connection.creation.rate", "No effect: use the connection_creation_rate client quota per ip."),
    ("max.connections.per.ip", "No effect: max.connections bounds all connections; per-ip limits are not enforced."),
    ("socket.", "No effect: socket buffers and backlog are the kernel's defaults."),
    ("alter.log.dirs.replication.quota.", "No effect: no replica moves between directories."),
    ("replication.quota.", "No effect: replication is not throttled yet (issue 20)."),
    ("client.quota.callback.class", "No effect: client quotas are Kafka's default ones; no classes are loaded."),
    ("alter.config.policy.class.name", "No effect: no policy classes are loaded."),
    ("create.topic.policy.class.name", "No effect: no policy classes are loaded."),
    ("kafka.metrics.", "No effect: metrics are Prometheus text on the admin server (metrics.enabled)."),
    ("metric.reporters", "No effect: metrics are Prometheus text on the admin server (metrics.enabled)."),
    ("metrics.", "No effect: metrics are Prometheus text on the admin server (metrics.enabled)."),
    ("telemetry.max.bytes", "No effect: client telemetry payloads are bounded by Tidemark's own per-payload limit."),
    ("broker.rack", "This broker's rack: Tidemark's --rack (shown as its value); a static broker.rack is not read."),
    ("group.min.session.timeout.ms", "Kafka's default is the fixed bound of a classic member's session timeout; another value has no effect."),
    ("group.max.session.timeout.ms", "Kafka's default is the fixed bound of a classic member's session timeout; another value has no effect."),
    ("group.consumer.max.size", "No effect: consumer-protocol groups are bounded by group.max.size."),
    ("group.consumer.", "Kafka's default is the fixed bound of a group's override (widened to take in the broker's own setting); another value has no effect."),
    ("group.share.", "Kafka's default is the fixed bound of a group's override (widened to take in the broker's own setting); another value has no effect."),
    ("max.connections.per.ip.overrides", "No effect: per-ip connection limits are not enforced."),
    ("", "No effect in Tidemark."),
]


def parse(path):
    text = open(path, encoding="utf-8").read()
    rows = []
    for name, body in re.findall(r'<li>\s*<h4><a id="([^"]+)"></a>.*?</h4>(.*?)</li>', text, re.S):
        f = dict(re.findall(r"<tr><th>([^<]+):</th><td>(.*?)</td></tr>", body, re.S))
        default = html.unescape(f.get("Default", ""))
        default = re.sub(r" \([^)]*\)$", "", default)  # "60000 (1 minute)"
        if default == '""':
            default = ""
        valid = html.unescape(f.get("Valid Values", "")).strip()
        if not re.fullmatch(r"\(case insensitive\) \[.*\]|\[.*\]|non-empty (string|list)", valid):
            valid = ""  # prose (a default's meaning) or no check: nothing to enforce
        rows.append({"name": name, "type": f["Type"], "default": default,
                     "mode": f["Update Mode"], "valid": valid})
    return rows


def apply_delta(rows):
    by = {r["name"]: r for r in rows if r["name"] not in REMOVED_IN_4_0
          and not r["name"].startswith("zookeeper.")}
    for name, ty, default, mode, valid in ADDED_IN_4_0:
        by[name] = {"name": name, "type": ty, "default": default, "mode": mode, "valid": valid}
    for name, change in CHANGED_IN_4_0.items():
        by[name].update(change)
    return list(by.values())


def check_delta(rows):
    by = {r["name"]: r for r in rows}
    for name in REMOVED_IN_4_0:
        if name in by:
            print(f"warning: {name} is on the page but the delta removes it", file=sys.stderr)
    for name, ty, default, mode, valid in ADDED_IN_4_0:
        if (by.get(name) or {}).get("default") != default:
            print(f"warning: added {name} differs from the page", file=sys.stderr)
    for name, change in CHANGED_IN_4_0.items():
        for k, v in change.items():
            if (by.get(name) or {}).get(k) != v:
                print(f"warning: {name}.{k} is not {v!r} on the page", file=sys.stderr)


def own_settings():
    """Names Tidemark has a setting for (their doc comes from settings.rs)."""
    src = open(os.path.join(HERE, "..", "src", "settings.rs"), encoding="utf-8").read()
    return set(re.findall(r'^    b!\(\s*"([^"]+)"', src, re.M))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    rows = parse(args[0])
    if "--kafka-3.9" in sys.argv:
        rows = apply_delta(rows)
    else:
        check_delta(rows)
    kept = {}
    if os.path.exists(OUT):
        for line in open(OUT, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            kept[parts[0]] = parts[5] if len(parts) > 5 else ""
    own = own_settings()
    rows.sort(key=lambda r: r["name"])
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("# Kafka 4.1's broker configs (generated by broker/tools/kafka_broker_configs.py;\n")
        out.write("# the note column may be edited by hand and is kept on regeneration).\n")
        out.write("# name\ttype\tdefault (null: none)\tupdate mode\tvalid values\twhat it does in Tidemark (empty: a Tidemark setting)\n")
        for r in rows:
            note = kept.get(r["name"])
            if note is None or (not note and r["name"] not in own):
                note = "" if r["name"] in own else next(
                    n for p, n in NOTES if r["name"] == p or (p.endswith(".") or p == "") and r["name"].startswith(p))
            if r["name"] in own:
                note = ""
            out.write("\t".join([r["name"], r["type"].upper(), r["default"], r["mode"], r["valid"], note]) + "\n")
    print(f"{len(rows)} configs written to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
