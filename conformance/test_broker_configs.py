"""Kafka's complete broker config list (Kafka 4.1's "Broker Configs" page:
name, ConfigDef type, default, update mode), kept here as data, walked with
confluent-kafka's and kafka-python's admin clients and raw requests:
DescribeConfigs lists every name once with Kafka's read-only flag, type and
default; per-broker and cluster-wide dynamic configs are set, described and
survive a restart; read-only, per-broker-at-default and bad values are
refused with Kafka's errors and messages; PASSWORD configs are sensitive.

Where Tidemark has its own setting of a Kafka name, its own rules stand
(listed below with the reason), as the topic configs' precedent."""

import os
import time

import pytest

import clients
import harness
import rawkafka
from rawkafka import ConnectionClosed, KafkaConn

BROKER_SETTINGS = {"num.partitions": "1", "auto.create.topics.enable": "false"}

# Kafka's ConfigType codes and ConfigSource codes (DescribeConfigs v3+).
TYPES = {"boolean": 1, "string": 2, "int": 3, "short": 4, "long": 5, "double": 6,
         "list": 7, "class": 8, "password": 9}
DYNAMIC_BROKER, DYNAMIC_DEFAULT_BROKER, STATIC_BROKER, DEFAULT_CONFIG = 2, 3, 4, 5
INVALID_REQUEST, INVALID_CONFIG = 42, 40

# name type default update-mode ("null": Kafka's default is null).
KAFKA_BROKER_CONFIGS = """
add.partitions.to.txn.retry.backoff.max.ms int 100 read-only
add.partitions.to.txn.retry.backoff.ms int 20 read-only
advertised.listeners string null read-only
alter.config.policy.class.name class null read-only
alter.log.dirs.replication.quota.window.num int 11 read-only
alter.log.dirs.replication.quota.window.size.seconds int 1 read-only
authorizer.class.name string "" read-only
auto.create.topics.enable boolean true read-only
auto.leader.rebalance.enable boolean true read-only
background.threads int 10 cluster-wide
broker.heartbeat.interval.ms int 2000 read-only
broker.id int -1 read-only
broker.rack string null read-only
broker.session.timeout.ms int 9000 read-only
client.quota.callback.class class null read-only
compression.gzip.level int -1 cluster-wide
compression.lz4.level int 9 cluster-wide
compression.type string producer cluster-wide
compression.zstd.level int 3 cluster-wide
connection.failed.authentication.delay.ms int 100 read-only
connections.max.idle.ms long 600000 read-only
connections.max.reauth.ms long 0 read-only
controlled.shutdown.enable boolean true read-only
controller.listener.names string null read-only
controller.quorum.append.linger.ms int 25 read-only
controller.quorum.bootstrap.servers list "" read-only
controller.quorum.election.backoff.max.ms int 1000 read-only
controller.quorum.election.timeout.ms int 1000 read-only
controller.quorum.fetch.timeout.ms int 2000 read-only
controller.quorum.request.timeout.ms int 2000 read-only
controller.quorum.retry.backoff.ms int 20 read-only
controller.quorum.voters list "" read-only
controller.quota.window.num int 11 read-only
controller.quota.window.size.seconds int 1 read-only
controller.socket.timeout.ms int 30000 read-only
create.topic.policy.class.name class null read-only
default.replication.factor int 1 read-only
delegation.token.expiry.check.interval.ms long 3600000 read-only
delegation.token.expiry.time.ms long 86400000 read-only
delegation.token.max.lifetime.ms long 604800000 read-only
delegation.token.secret.key password null read-only
delete.records.purgatory.purge.interval.requests int 1 read-only
delete.topic.enable boolean true read-only
early.start.listeners string null read-only
fetch.max.bytes int 57671680 read-only
fetch.purgatory.purge.interval.requests int 1000 read-only
group.consumer.assignors list uniform,range read-only
group.consumer.heartbeat.interval.ms int 5000 read-only
group.consumer.max.heartbeat.interval.ms int 15000 read-only
group.consumer.max.session.timeout.ms int 60000 read-only
group.consumer.max.size int 2147483647 read-only
group.consumer.migration.policy string bidirectional read-only
group.consumer.min.heartbeat.interval.ms int 5000 read-only
group.consumer.min.session.timeout.ms int 45000 read-only
group.consumer.session.timeout.ms int 45000 read-only
group.coordinator.append.linger.ms int 5 read-only
group.coordinator.rebalance.protocols list classic,consumer,streams read-only
group.coordinator.threads int 4 read-only
group.initial.rebalance.delay.ms int 3000 read-only
group.max.session.timeout.ms int 1800000 read-only
group.max.size int 2147483647 read-only
group.min.session.timeout.ms int 6000 read-only
group.share.assignors list simple read-only
group.share.delivery.count.limit int 5 read-only
group.share.heartbeat.interval.ms int 5000 read-only
group.share.max.heartbeat.interval.ms int 15000 read-only
group.share.max.record.lock.duration.ms int 60000 read-only
group.share.max.session.timeout.ms int 60000 read-only
group.share.max.share.sessions int 2000 read-only
group.share.max.size int 200 read-only
group.share.min.heartbeat.interval.ms int 5000 read-only
group.share.min.record.lock.duration.ms int 15000 read-only
group.share.min.session.timeout.ms int 45000 read-only
group.share.partition.max.record.locks int 2000 read-only
group.share.record.lock.duration.ms int 30000 read-only
group.share.session.timeout.ms int 45000 read-only
group.streams.heartbeat.interval.ms int 5000 read-only
group.streams.max.heartbeat.interval.ms int 15000 read-only
group.streams.max.session.timeout.ms int 60000 read-only
group.streams.max.size int 2147483647 read-only
group.streams.max.standby.replicas int 2 read-only
group.streams.min.heartbeat.interval.ms int 5000 read-only
group.streams.min.session.timeout.ms int 45000 read-only
group.streams.num.standby.replicas int 0 read-only
group.streams.session.timeout.ms int 45000 read-only
initial.broker.registration.timeout.ms int 60000 read-only
inter.broker.listener.name string null read-only
kafka.metrics.polling.interval.secs int 10 read-only
kafka.metrics.reporters list "" read-only
leader.imbalance.check.interval.seconds long 300 read-only
listener.security.protocol.map string SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT per-broker
listeners string PLAINTEXT://:9092 per-broker
log.cleaner.backoff.ms long 15000 cluster-wide
log.cleaner.dedupe.buffer.size long 134217728 cluster-wide
log.cleaner.delete.retention.ms long 86400000 cluster-wide
log.cleaner.enable boolean true read-only
log.cleaner.io.buffer.load.factor double 0.9 cluster-wide
log.cleaner.io.buffer.size int 524288 cluster-wide
log.cleaner.io.max.bytes.per.second double 1.7976931348623157E308 cluster-wide
log.cleaner.max.compaction.lag.ms long 9223372036854775807 cluster-wide
log.cleaner.min.cleanable.ratio double 0.5 cluster-wide
log.cleaner.min.compaction.lag.ms long 0 cluster-wide
log.cleaner.threads int 1 cluster-wide
log.cleanup.policy list delete cluster-wide
log.dir string /tmp/kafka-logs read-only
log.dir.failure.timeout.ms long 30000 read-only
log.dirs string null read-only
log.flush.interval.messages long 9223372036854775807 cluster-wide
log.flush.interval.ms long null cluster-wide
log.flush.offset.checkpoint.interval.ms int 60000 read-only
log.flush.scheduler.interval.ms long 9223372036854775807 read-only
log.flush.start.offset.checkpoint.interval.ms int 60000 read-only
log.index.interval.bytes int 4096 cluster-wide
log.index.size.max.bytes int 10485760 cluster-wide
log.local.retention.bytes long -2 cluster-wide
log.local.retention.ms long -2 cluster-wide
log.message.timestamp.after.max.ms long 3600000 cluster-wide
log.message.timestamp.before.max.ms long 9223372036854775807 cluster-wide
log.message.timestamp.type string CreateTime cluster-wide
log.preallocate boolean false cluster-wide
log.retention.bytes long -1 cluster-wide
log.retention.check.interval.ms long 300000 read-only
log.retention.hours int 168 read-only
log.retention.minutes int null read-only
log.retention.ms long null cluster-wide
log.roll.hours int 168 read-only
log.roll.jitter.hours int 0 read-only
log.roll.jitter.ms long null cluster-wide
log.roll.ms long null cluster-wide
log.segment.bytes int 1073741824 cluster-wide
log.segment.delete.delay.ms long 60000 cluster-wide
max.connection.creation.rate int 2147483647 cluster-wide
max.connections int 2147483647 cluster-wide
max.connections.per.ip int 2147483647 cluster-wide
max.connections.per.ip.overrides string "" cluster-wide
max.incremental.fetch.session.cache.slots int 1000 read-only
max.request.partition.size.limit int 2000 read-only
message.max.bytes int 1048588 cluster-wide
metadata.log.dir string null read-only
metadata.log.max.record.bytes.between.snapshots long 20971520 read-only
metadata.log.max.snapshot.interval.ms long 3600000 read-only
metadata.log.segment.bytes int 1073741824 read-only
metadata.log.segment.ms long 604800000 read-only
metadata.max.idle.interval.ms int 500 read-only
metadata.max.retention.bytes long 104857600 read-only
metadata.max.retention.ms long 604800000 read-only
metric.reporters list org.apache.kafka.common.metrics.JmxReporter cluster-wide
metrics.num.samples int 2 read-only
metrics.recording.level string INFO read-only
metrics.sample.window.ms long 30000 read-only
min.insync.replicas int 1 cluster-wide
node.id int "" read-only
num.io.threads int 8 cluster-wide
num.network.threads int 3 cluster-wide
num.partitions int 1 read-only
num.recovery.threads.per.data.dir int 2 cluster-wide
num.replica.alter.log.dirs.threads int null read-only
num.replica.fetchers int 1 cluster-wide
offset.metadata.max.bytes int 4096 read-only
offsets.commit.timeout.ms int 5000 read-only
offsets.load.buffer.size int 5242880 read-only
offsets.retention.check.interval.ms long 600000 read-only
offsets.retention.minutes int 10080 read-only
offsets.topic.compression.codec int 0 read-only
offsets.topic.num.partitions int 50 read-only
offsets.topic.replication.factor short 3 read-only
offsets.topic.segment.bytes int 104857600 read-only
principal.builder.class class org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder per-broker
process.roles list "" read-only
producer.id.expiration.ms int 86400000 cluster-wide
producer.purgatory.purge.interval.requests int 1000 read-only
queued.max.request.bytes long -1 read-only
queued.max.requests int 500 read-only
quota.window.num int 11 read-only
quota.window.size.seconds int 1 read-only
remote.fetch.max.wait.ms int 500 cluster-wide
remote.list.offsets.request.timeout.ms long 30000 cluster-wide
remote.log.index.file.cache.total.size.bytes long 1073741824 cluster-wide
remote.log.manager.copier.thread.pool.size int 10 cluster-wide
remote.log.manager.copy.max.bytes.per.second long 9223372036854775807 cluster-wide
remote.log.manager.copy.quota.window.num int 11 read-only
remote.log.manager.copy.quota.window.size.seconds int 1 read-only
remote.log.manager.expiration.thread.pool.size int 10 cluster-wide
remote.log.manager.fetch.max.bytes.per.second long 9223372036854775807 cluster-wide
remote.log.manager.fetch.quota.window.num int 11 read-only
remote.log.manager.fetch.quota.window.size.seconds int 1 read-only
remote.log.manager.task.interval.ms long 30000 read-only
remote.log.manager.thread.pool.size int 2 read-only
remote.log.metadata.custom.metadata.max.bytes int 128 read-only
remote.log.metadata.manager.class.name string org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager read-only
remote.log.metadata.manager.class.path string null read-only
remote.log.metadata.manager.impl.prefix string rlmm.config. read-only
remote.log.metadata.manager.listener.name string null read-only
remote.log.reader.max.pending.tasks int 100 read-only
remote.log.reader.threads int 10 cluster-wide
remote.log.storage.manager.class.name string null read-only
remote.log.storage.manager.class.path string null read-only
remote.log.storage.manager.impl.prefix string rsm.config. read-only
remote.log.storage.system.enable boolean false read-only
replica.fetch.backoff.ms int 1000 read-only
replica.fetch.max.bytes int 1048576 read-only
replica.fetch.min.bytes int 1 read-only
replica.fetch.response.max.bytes int 10485760 read-only
replica.fetch.wait.max.ms int 500 read-only
replica.high.watermark.checkpoint.interval.ms long 5000 read-only
replica.lag.time.max.ms long 30000 read-only
replica.selector.class string null read-only
replica.socket.receive.buffer.bytes int 65536 read-only
replica.socket.timeout.ms int 30000 read-only
replication.quota.window.num int 11 read-only
replication.quota.window.size.seconds int 1 read-only
request.timeout.ms int 30000 read-only
sasl.client.callback.handler.class class null read-only
sasl.enabled.mechanisms list GSSAPI per-broker
sasl.jaas.config password null per-broker
sasl.kerberos.kinit.cmd string /usr/bin/kinit per-broker
sasl.kerberos.min.time.before.relogin long 60000 per-broker
sasl.kerberos.principal.to.local.rules list DEFAULT per-broker
sasl.kerberos.service.name string null per-broker
sasl.kerberos.ticket.renew.jitter double 0.05 per-broker
sasl.kerberos.ticket.renew.window.factor double 0.8 per-broker
sasl.login.callback.handler.class class null read-only
sasl.login.class class null read-only
sasl.login.connect.timeout.ms int null read-only
sasl.login.read.timeout.ms int null read-only
sasl.login.refresh.buffer.seconds short 300 per-broker
sasl.login.refresh.min.period.seconds short 60 per-broker
sasl.login.refresh.window.factor double 0.8 per-broker
sasl.login.refresh.window.jitter double 0.05 per-broker
sasl.login.retry.backoff.max.ms long 10000 read-only
sasl.login.retry.backoff.ms long 100 read-only
sasl.mechanism.controller.protocol string GSSAPI read-only
sasl.mechanism.inter.broker.protocol string GSSAPI per-broker
sasl.oauthbearer.assertion.algorithm string RS256 read-only
sasl.oauthbearer.assertion.claim.aud string null read-only
sasl.oauthbearer.assertion.claim.exp.seconds int 300 read-only
sasl.oauthbearer.assertion.claim.iss string null read-only
sasl.oauthbearer.assertion.claim.jti.include boolean false read-only
sasl.oauthbearer.assertion.claim.nbf.seconds int 60 read-only
sasl.oauthbearer.assertion.claim.sub string null read-only
sasl.oauthbearer.assertion.file string null read-only
sasl.oauthbearer.assertion.private.key.file string null read-only
sasl.oauthbearer.assertion.private.key.passphrase password null read-only
sasl.oauthbearer.assertion.template.file string null read-only
sasl.oauthbearer.client.credentials.client.id string null read-only
sasl.oauthbearer.client.credentials.client.secret password null read-only
sasl.oauthbearer.clock.skew.seconds int 30 read-only
sasl.oauthbearer.expected.audience list null read-only
sasl.oauthbearer.expected.issuer string null read-only
sasl.oauthbearer.jwks.endpoint.refresh.ms long 3600000 read-only
sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms long 10000 read-only
sasl.oauthbearer.jwks.endpoint.retry.backoff.ms long 100 read-only
sasl.oauthbearer.jwks.endpoint.url string null read-only
sasl.oauthbearer.jwt.retriever.class class org.apache.kafka.common.security.oauthbearer.DefaultJwtRetriever read-only
sasl.oauthbearer.jwt.validator.class class org.apache.kafka.common.security.oauthbearer.DefaultJwtValidator read-only
sasl.oauthbearer.scope string null read-only
sasl.oauthbearer.scope.claim.name string scope read-only
sasl.oauthbearer.sub.claim.name string sub read-only
sasl.oauthbearer.token.endpoint.url string null read-only
sasl.server.callback.handler.class class null read-only
sasl.server.max.receive.size int 524288 read-only
security.inter.broker.protocol string PLAINTEXT read-only
security.providers string null read-only
share.coordinator.append.linger.ms int 5 read-only
share.coordinator.load.buffer.size int 5242880 read-only
share.coordinator.snapshot.update.records.per.snapshot int 500 read-only
share.coordinator.state.topic.compression.codec int 0 read-only
share.coordinator.state.topic.min.isr short 2 read-only
share.coordinator.state.topic.num.partitions int 50 read-only
share.coordinator.state.topic.replication.factor short 3 read-only
share.coordinator.state.topic.segment.bytes int 104857600 read-only
share.coordinator.threads int 1 read-only
share.coordinator.write.timeout.ms int 5000 read-only
share.fetch.purgatory.purge.interval.requests int 1000 read-only
socket.connection.setup.timeout.max.ms long 30000 read-only
socket.connection.setup.timeout.ms long 10000 read-only
socket.listen.backlog.size int 50 read-only
socket.receive.buffer.bytes int 102400 read-only
socket.request.max.bytes int 104857600 read-only
socket.send.buffer.bytes int 102400 read-only
ssl.allow.dn.changes boolean false read-only
ssl.allow.san.changes boolean false read-only
ssl.cipher.suites list "" per-broker
ssl.client.auth string none per-broker
ssl.enabled.protocols list TLSv1.2,TLSv1.3 per-broker
ssl.endpoint.identification.algorithm string https per-broker
ssl.engine.factory.class class null per-broker
ssl.key.password password null per-broker
ssl.keymanager.algorithm string SunX509 per-broker
ssl.keystore.certificate.chain password null per-broker
ssl.keystore.key password null per-broker
ssl.keystore.location string null per-broker
ssl.keystore.password password null per-broker
ssl.keystore.type string JKS per-broker
ssl.principal.mapping.rules string DEFAULT read-only
ssl.protocol string TLSv1.3 per-broker
ssl.provider string null per-broker
ssl.secure.random.implementation string null per-broker
ssl.trustmanager.algorithm string PKIX per-broker
ssl.truststore.certificates password null per-broker
ssl.truststore.location string null per-broker
ssl.truststore.password password null per-broker
ssl.truststore.type string JKS per-broker
telemetry.max.bytes int 1048576 read-only
transaction.abort.timed.out.transaction.cleanup.interval.ms int 10000 read-only
transaction.max.timeout.ms int 900000 read-only
transaction.partition.verification.enable boolean true cluster-wide
transaction.remove.expired.transaction.cleanup.interval.ms int 3600000 read-only
transaction.state.log.load.buffer.size int 5242880 read-only
transaction.state.log.min.isr int 2 read-only
transaction.state.log.num.partitions int 50 read-only
transaction.state.log.replication.factor short 3 read-only
transaction.state.log.segment.bytes int 104857600 read-only
transaction.two.phase.commit.enable boolean false read-only
transactional.id.expiration.ms int 604800000 read-only
unclean.leader.election.enable boolean false cluster-wide
"""


def kafka_list():
    out = {}
    for line in KAFKA_BROKER_CONFIGS.strip().splitlines():
        name, ty, default, mode = line.split(" ")
        assert name not in out, name
        out[name] = (TYPES[ty], None if default == "null" else default.strip('"'), mode)
    return out


KAFKA = kafka_list()

# Tidemark's own settings of these names keep their own rules:
# dynamic in Tidemark though read-only in Kafka (Tidemark applies them live).
OWN_DYNAMIC = {
    "auto.create.topics.enable", "auto.leader.rebalance.enable", "default.replication.factor",
    "leader.imbalance.check.interval.seconds", "num.partitions",
    "log.retention.check.interval.ms", "transaction.max.timeout.ms",
    "transactional.id.expiration.ms",
    "group.consumer.heartbeat.interval.ms", "group.consumer.session.timeout.ms",
    "group.initial.rebalance.delay.ms",
}
# Read-only in Tidemark though "per-broker" in Kafka: Kafka takes these
# four only for a listener added at run time (on a running one they are
# not reconfigurable, SslConfigs.NON_RECONFIGURABLE_CONFIGS). The keystore
# and truststore settings are dynamic with a listener prefix, as in Kafka;
# `listeners` and `listener.security.protocol.map` are dynamic per broker
# (test_dynamic_listeners.py).
OWN_STATIC = {
    "sasl.enabled.mechanisms", "ssl.client.auth", "ssl.enabled.protocols", "ssl.cipher.suites",
}
# Tidemark's own defaults that differ from Kafka's, each said in its doc.
OWN_DEFAULTS = {
    "leader.imbalance.check.interval.seconds": "30",  # Kafka: 300
    "log.preallocate": "true",  # measured faster on this disk
    "queued.max.request.bytes": "268435456",  # memory bound on (Kafka: -1, none)
    "sasl.enabled.mechanisms": "SCRAM-SHA-256,SCRAM-SHA-512",  # no GSSAPI
    "ssl.keystore.type": "PEM",  # PEM only
    "ssl.truststore.type": "PEM",
    # Kafka's map in another order (the same four entries)
    "listener.security.protocol.map":
        "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL",
    # the listeners follow --kafka-addr when not set
    "listeners": "",
    # Kafka's null defaults, computed from the hours form (168 h) and
    # log.flush.scheduler.interval.ms: Tidemark shows the value in force.
    "log.retention.ms": "604800000",
    "log.roll.ms": "604800000",
    "log.roll.jitter.ms": "0",
    "log.flush.interval.ms": "9223372036854775807",
}


def raw_describe(b, names=None, synonyms=False, docs=False, resource=None):
    with KafkaConn(b.bootstrap) as c:
        c.api_versions()
        v = c.pick(32)
        resp = c.request(32, v, {
            "Resources": [{"ResourceType": 4,
                           "ResourceName": str(b.node_id) if resource is None else resource,
                           "ConfigurationKeys": names}],
            "IncludeSynonyms": synonyms, "IncludeDocumentation": docs})
    (res,) = resp["Results"]
    assert res["ErrorCode"] == 0, res
    return v, res["Configs"]


def raw_alter(b, resource, configs, validate_only=False, addr=None):
    """IncrementalAlterConfigs on the BROKER resource `resource` ("" is the
    cluster-wide default, which confluent-kafka's ConfigResource refuses),
    through `b`'s bootstrap address or `addr`."""
    with KafkaConn(addr or b.bootstrap) as c:
        c.api_versions()
        resp = c.request(44, c.pick(44), {
            "Resources": [{"ResourceType": 4, "ResourceName": resource, "Configs": [
                {"Name": n, "ConfigOperation": op, "Value": v} for n, op, v in configs]}],
            "ValidateOnly": validate_only})
    (r,) = resp["Responses"]
    return r["ErrorCode"], r["ErrorMessage"]


def confluent_broker_configs(admin, b):
    from confluent_kafka.admin import ConfigResource
    res = ConfigResource("broker", str(b.node_id))
    return admin.describe_configs([res])[res].result(timeout=30)


def confluent_alter(admin, b, name, value, op="SET"):
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource
    res = ConfigResource("broker", str(b.node_id), incremental_configs=[
        ConfigEntry(name, value, incremental_operation=getattr(AlterConfigOpType, op))])
    return admin.incremental_alter_configs([res])[res].result(timeout=30)


def test_every_kafka_broker_config_is_described_once_as_kafka_marks_it(broker):
    assert len(KAFKA) == 316
    version, configs = raw_describe(broker)
    names = [c["Name"] for c in configs]
    assert len(names) == len(set(names)), "a config listed twice"
    by = {c["Name"]: c for c in configs}
    missing = sorted(set(KAFKA) - set(by))
    assert not missing, missing
    admin = clients.confluent_admin(broker.bootstrap)
    entries = confluent_broker_configs(admin, broker)
    wrong = []
    for name, (ty, default, mode) in KAFKA.items():
        e, raw = entries[name], by[name]
        if name in OWN_DYNAMIC:
            want_ro = False
        elif name in OWN_STATIC:
            want_ro = True
        else:
            want_ro = mode == "read-only"
        if e.is_read_only != want_ro:
            wrong.append((name, "read_only", e.is_read_only))
        sensitive = ty == TYPES["password"]
        if e.is_sensitive != sensitive or (sensitive and e.value is not None):
            wrong.append((name, "sensitive", e.is_sensitive, e.value))
        if name in ("node.id", "broker.id"):
            if (e.value, e.source) != (str(broker.node_id), STATIC_BROKER):
                wrong.append((name, "node id", e.value, e.source))
            continue
        if e.source == DEFAULT_CONFIG and not sensitive:
            want = OWN_DEFAULTS.get(name, default)
            if (e.value or None) != (want or None):
                wrong.append((name, "default", e.value, want))
        if version >= 3 and raw["ConfigType"] != ty:
            wrong.append((name, "type", raw["ConfigType"], ty))
    assert not wrong, "\n".join(map(repr, wrong))
    # Tidemark-only settings are still listed.
    assert "metrics.partition.series.max" in by


def test_named_describe_with_synonyms_and_documentation(broker):
    names = ["num.io.threads", "ssl.key.password", "log.flush.interval.ms", "broker.id"]
    version, configs = raw_describe(broker, names, synonyms=True, docs=True)
    by = {c["Name"]: c for c in configs}
    assert sorted(by) == sorted(names)
    io = by["num.io.threads"]
    assert (io["Value"], io["ConfigSource"], io["ReadOnly"]) == ("8", DEFAULT_CONFIG, False)
    assert [(s["Value"], s["Source"]) for s in io["Synonyms"]] == [("8", DEFAULT_CONFIG)]
    if version >= 3:
        assert io["ConfigType"] == TYPES["int"]
        assert "thread-per-core" in io["Documentation"], io
        assert "syncs every batch" in by["log.flush.interval.ms"]["Documentation"]
    pw = by["ssl.key.password"]
    # Changed at run time with a listener prefix (not read-only, as in
    # Kafka); never shown.
    assert pw["IsSensitive"] and pw["Value"] is None and not pw["ReadOnly"], pw
    assert all(s["Value"] is None for s in pw["Synonyms"]), pw
    # kafka-python's admin client reads the same list.
    from kafka.admin import ConfigResource, ConfigResourceType
    from kafka.admin import KafkaAdminClient
    a = KafkaAdminClient(bootstrap_servers=broker.bootstrap, request_timeout_ms=30000)
    try:
        res = a.describe_configs([ConfigResource(ConfigResourceType.BROKER,
                                                 str(broker.node_id))], config_filter="all")
        kp = res["broker"][str(broker.node_id)]
        assert set(KAFKA) <= set(kp), sorted(set(KAFKA) - set(kp))
        io, pw = kp["num.io.threads"], kp["ssl.key.password"]
        assert (io["value"], io["read_only"], io["config_type"]) == ("8", False, "INT"), io
        assert (pw["value"], pw["is_sensitive"], pw["config_type"]) == (None, True, "PASSWORD")
        assert kp["delete.topic.enable"]["read_only"] is True
    finally:
        a.close()


def test_dynamic_configs_per_broker_and_cluster_wide_survive_a_restart(broker_factory):
    b = broker_factory(dict(BROKER_SETTINGS))
    admin = clients.confluent_admin(b.bootstrap)
    # per-broker only (Kafka's update mode "per-broker"), through confluent-kafka.
    confluent_alter(admin, b, "sasl.kerberos.min.time.before.relogin", "120000")
    # a cluster-wide config set for this broker, and cluster-wide defaults.
    confluent_alter(admin, b, "log.cleaner.threads", "2")
    assert raw_alter(b, "", [("num.io.threads", 0, "16"),
                             ("log.cleaner.threads", 0, "3")]) == (0, None)
    # a PASSWORD per-broker config: stored, never shown.
    confluent_alter(admin, b, "sasl.jaas.config", "x required;")

    def check():
        e = confluent_broker_configs(admin, b)
        assert (e["sasl.kerberos.min.time.before.relogin"].value,
                e["sasl.kerberos.min.time.before.relogin"].source) == ("120000", DYNAMIC_BROKER)
        assert (e["num.io.threads"].value, e["num.io.threads"].source) == (
            "16", DYNAMIC_DEFAULT_BROKER)
        # this broker's value wins over the cluster-wide default
        assert (e["log.cleaner.threads"].value, e["log.cleaner.threads"].source) == (
            "2", DYNAMIC_BROKER)
        jaas = e["sasl.jaas.config"]
        assert (jaas.value, jaas.source, jaas.is_sensitive) == (None, DYNAMIC_BROKER, True)
        _, configs = raw_describe(b, ["log.cleaner.threads"], synonyms=True)
        assert [(s["Value"], s["Source"]) for s in configs[0]["Synonyms"]] == [
            ("2", DYNAMIC_BROKER), ("3", DYNAMIC_DEFAULT_BROKER), ("1", DEFAULT_CONFIG)]
        # The cluster-wide default resource shows only what is set there,
        # at that level (as Kafka's ConfigHelper): not this broker's "2".
        _, configs = raw_describe(b, resource="", synonyms=True)
        assert sorted((c["Name"], c["Value"], c["ConfigSource"]) for c in configs) == [
            ("log.cleaner.threads", "3", DYNAMIC_DEFAULT_BROKER),
            ("num.io.threads", "16", DYNAMIC_DEFAULT_BROKER)], configs
        cleaner = [c for c in configs if c["Name"] == "log.cleaner.threads"][0]
        assert [(s["Value"], s["Source"]) for s in cleaner["Synonyms"]] == [
            ("3", DYNAMIC_DEFAULT_BROKER), ("1", DEFAULT_CONFIG)]

    check()
    b.restart()
    admin = clients.confluent_admin(b.bootstrap)
    check()
    # DELETE goes back to the default (then the cluster-wide one).
    confluent_alter(admin, b, "log.cleaner.threads", None, op="DELETE")
    e = confluent_broker_configs(admin, b)["log.cleaner.threads"]
    assert (e.value, e.source) == ("3", DYNAMIC_DEFAULT_BROKER)
    assert raw_alter(b, "", [("log.cleaner.threads", 1, None)]) == (0, None)
    e = confluent_broker_configs(admin, b)["log.cleaner.threads"]
    assert (e.value, e.source) == ("1", DEFAULT_CONFIG)


def _open_until_refused(b, most, source=None):
    """Opens connections (from the local address `source`), each
    answering ApiVersions, until one is closed at accept (or `most` are
    open). Returns the open ones."""
    conns = []
    for _ in range(most):
        try:
            c = KafkaConn(b.bootstrap, timeout=5.0, source=source)
        except OSError:
            break
        try:
            c.api_versions()
        except (OSError, ConnectionClosed):
            c.close()
            break
        conns.append(c)
    return conns


def test_max_connections_is_dynamic(broker_factory):
    """`max.connections` changes at run time as in Kafka: set for this
    broker (and as the cluster-wide default), it bounds the next accepts;
    deleted, the limit is gone again."""
    b = broker_factory(dict(BROKER_SETTINGS))
    assert raw_alter(b, str(b.node_id), [("max.connections", 0, "3")]) == (0, None)
    # Once the broker saw the altering connection close: three accepted,
    # the fourth closed at accept.
    held = harness.wait_until(lambda: _exactly(_open_until_refused(b, 10), 3), timeout=10,
                              what="exactly three connections accepted")
    try:
        # The open ones keep working while a fourth is refused.
        for c in held:
            c.api_versions()
    finally:
        for c in held:
            c.close()
    # The broker's own value wins over a cluster-wide default.
    harness.wait_until(lambda: _try_alter(b, "", [("max.connections", 0, "5")]) == (0, None),
                       timeout=10, what="an admin connection is accepted again")
    harness.wait_until(lambda: _count_and_close(_open_until_refused(b, 10)) == 3, timeout=10,
                       what="still three with a larger cluster-wide default")
    harness.wait_until(
        lambda: _try_alter(b, str(b.node_id), [("max.connections", 1, None)]) == (0, None),
        timeout=10, what="an admin connection is accepted again")
    harness.wait_until(lambda: _count_and_close(_open_until_refused(b, 10)) == 5, timeout=10,
                       what="the cluster-wide default of five in force")
    harness.wait_until(lambda: _try_alter(b, "", [("max.connections", 1, None)]) == (0, None),
                       timeout=10, what="an admin connection is accepted again")
    assert _count_and_close(_open_until_refused(b, 20)) == 20


def test_connections_per_ip_and_per_listener_are_limited_as_in_kafka(broker_factory):
    """`max.connections.per.ip` and `max.connections.per.ip.overrides`
    (host:count, IP addresses or names) bound the connections of one
    client address, and `listener.name.<l>.max.connections` those of one
    listener, as Kafka's ConnectionQuotas do; all change at run time, and
    other addresses keep their own limit. Bad values are refused."""
    b = broker_factory(dict(BROKER_SETTINGS))
    # Cluster-wide (Kafka's update mode for both): two per address.
    assert raw_alter(b, "", [("max.connections.per.ip", 0, "2")]) == (0, None)
    held = harness.wait_until(lambda: _exactly(_open_until_refused(b, 6, source="127.0.0.1"), 2), timeout=10,
                              what="exactly two connections from 127.0.0.1")
    try:
        # Another address is not held back by 127.0.0.1's connections.
        assert _count_and_close(_open_until_refused(b, 6, source="127.0.0.2")) == 2
        for c in held:
            c.api_versions()
    finally:
        _count_and_close(held)
    # An override for 127.0.0.2 (by address), and one by name.
    harness.wait_until(
        lambda: _try_alter(b, "", [("max.connections.per.ip.overrides", 0,
                                    "127.0.0.2:4,localhost:3")]) == (0, None),
        timeout=10, what="an admin connection is accepted again")
    harness.wait_until(lambda: _count_and_close(_open_until_refused(b, 8, source="127.0.0.2")) == 4,
                       timeout=10, what="four from 127.0.0.2")
    harness.wait_until(lambda: _count_and_close(_open_until_refused(b, 8, source="127.0.0.1")) == 3,
                       timeout=10, what="three from localhost")
    assert _count_and_close(_open_until_refused(b, 8, source="127.0.0.3")) == 2
    # Kafka's checks: host:count pairs, and 0 only with overrides.
    for configs in ([("max.connections.per.ip.overrides", 0, "127.0.0.2")],
                    [("max.connections.per.ip.overrides", 0, "127.0.0.2:many")],
                    [("max.connections.per.ip.overrides", 0, "bad host:1")],
                    [("max.connections.per.ip.overrides", 0, ""),
                     ("max.connections.per.ip", 0, "0")]):
        code, msg = harness.wait_until(lambda: _try_alter(b, "", configs), timeout=10,
                                       what="an admin connection")
        assert code == rawkafka.INVALID_CONFIG, (configs, code, msg)
    harness.wait_until(
        lambda: _try_alter(b, "", [("max.connections.per.ip", 1, None),
                                   ("max.connections.per.ip.overrides", 1, None)]) == (0, None),
        timeout=10, what="an admin connection is accepted again")
    # One listener's own limit, per broker and as the cluster-wide default.
    key = "listener.name.plaintext.max.connections"
    assert raw_alter(b, str(b.node_id), [(key, 0, "3")]) == (0, None)
    harness.wait_until(lambda: _count_and_close(_open_until_refused(b, 8, source="127.0.0.1")) == 3,
                       timeout=10, what="three on the PLAINTEXT listener")
    harness.wait_until(lambda: _try_alter(b, "", [(key, 0, "5")]) == (0, None),
                       timeout=10, what="an admin connection is accepted again")
    _, cfgs = raw_describe(b, [key])
    got = {c["Name"]: c for c in cfgs}[key]
    assert (got["Value"], got["ConfigSource"], got["ReadOnly"]) == ("3", DYNAMIC_BROKER, False), got
    harness.wait_until(lambda: _try_alter(b, str(b.node_id), [(key, 1, None)]) == (0, None),
                       timeout=10, what="an admin connection is accepted again")
    harness.wait_until(lambda: _count_and_close(_open_until_refused(b, 8, source="127.0.0.1")) == 5,
                       timeout=10, what="the cluster-wide five in force")
    harness.wait_until(lambda: _try_alter(b, "", [(key, 1, None)]) == (0, None),
                       timeout=10, what="an admin connection is accepted again")
    assert _count_and_close(_open_until_refused(b, 12, source="127.0.0.1")) == 12


def _timed_connections(b, n):
    """Opens n connections one after the other, each answering
    ApiVersions; returns (how many were served, seconds taken)."""
    t0 = time.monotonic()
    conns = _open_until_refused(b, n)
    took = time.monotonic() - t0
    return _count_and_close(conns), took


def test_connection_creation_rate_slows_accepts_as_in_kafka(broker_factory):
    """KIP-612: `max.connection.creation.rate` (cluster-wide) and
    `listener.name.<l>.max.connection.creation.rate` (per broker here)
    bound new connections per second; past them the acceptor waits, so
    connections are served late, never refused. The rate is measured over
    quota.window.num one-second windows, so with 1/s the first ten of a
    burst pass and each later one waits about a second."""
    b = broker_factory(dict(BROKER_SETTINGS))
    for resource, key in (("", "max.connection.creation.rate"),
                          (str(b.node_id), "listener.name.plaintext.max.connection.creation.rate")):
        assert raw_alter(b, resource, [(key, 0, "1")]) == (0, None)
        served, took = _timed_connections(b, 14)
        assert served == 14, (key, served)
        assert took >= 2.0, (key, took)
        assert raw_alter(b, resource, [(key, 1, None)]) == (0, None)
    # Without a limit nothing waits: the same burst is served at once.
    served, took = _timed_connections(b, 14)
    assert served == 14
    assert took < 2.0, took


def test_idle_connections_are_closed_after_connections_max_idle_ms(broker_factory):
    """`connections.max.idle.ms` (read-only, as in Kafka): a connection
    with nothing read, written or in flight for that long is closed; one
    in use stays, and one whose request is still waiting (a long-poll
    fetch longer than the limit) gets its answer and stays."""
    b = broker_factory(dict(BROKER_SETTINGS, **{"connections.max.idle.ms": "1000"}))
    topic = harness.unique_topic("idle")
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    with KafkaConn(b.bootstrap) as poll:
        poll.api_versions()
        t0 = time.monotonic()
        part, _ = poll.fetch(topic, 0, 0, max_wait_ms=2500)
        assert part["ErrorCode"] == 0 and time.monotonic() - t0 >= 2.0, part
        poll.api_versions()
    idle, busy = KafkaConn(b.bootstrap), KafkaConn(b.bootstrap)
    try:
        idle.api_versions()
        busy.api_versions()
        for _ in range(6):
            time.sleep(0.4)
            busy.api_versions()
        with pytest.raises((OSError, ConnectionClosed)):
            idle.api_versions()
    finally:
        idle.close()
        busy.close()


def test_offset_metadata_max_bytes_bounds_commit_metadata(broker_factory):
    """`offset.metadata.max.bytes` (read-only, as in Kafka): a commit with
    longer metadata gets OFFSET_METADATA_TOO_LARGE for that partition and
    changes nothing; one at the limit is kept, metadata included."""
    from confluent_kafka import Consumer, TopicPartition
    b = broker_factory(dict(BROKER_SETTINGS, **{"offset.metadata.max.bytes": "100"}))
    topic = harness.unique_topic("ommb")
    group = "ommb-%d" % os.getpid()
    rawkafka.ensure_topic(b.bootstrap, topic, 1)
    with KafkaConn(b.bootstrap) as c:
        c.api_versions()
        v = min(c.pick(8), 9)

        def commit(metadata, offset):
            body = {"GroupId": group, "GenerationIdOrMemberEpoch": -1, "MemberId": "",
                    "GroupInstanceId": None, "Topics": [{"Name": topic, "Partitions": [
                        {"PartitionIndex": 0, "CommittedOffset": offset,
                         "CommittedLeaderEpoch": -1, "CommittedMetadata": metadata}]}]}
            return c.request(8, v, body)["Topics"][0]["Partitions"][0]["ErrorCode"]

        assert commit("m" * 100, 5) == 0
        assert commit("m" * 101, 6) == 12  # OFFSET_METADATA_TOO_LARGE
    consumer = Consumer({"bootstrap.servers": b.bootstrap, "group.id": group})
    try:
        (tp,) = consumer.committed([TopicPartition(topic, 0)], timeout=30)
        assert (tp.offset, tp.metadata) == (5, "m" * 100), (tp.offset, tp.metadata)
    finally:
        consumer.close()


def test_delete_topic_enable_false_refuses_deletes(broker_factory):
    """`delete.topic.enable=false` (read-only, as in Kafka): DeleteTopics
    answers TOPIC_DELETION_DISABLED and the topic stays."""
    from confluent_kafka import KafkaError, KafkaException
    b = broker_factory(dict(BROKER_SETTINGS, **{"delete.topic.enable": "false"}))
    topic = clients.confluent_create_topic(b.bootstrap, harness.unique_topic("nodelete"))
    admin = clients.confluent_admin(b.bootstrap)
    with pytest.raises(KafkaException) as e:
        admin.delete_topics([topic], operation_timeout=30)[topic].result(timeout=30)
    assert e.value.args[0].code() == KafkaError.TOPIC_DELETION_DISABLED, e.value.args[0]
    assert topic in admin.list_topics(timeout=10).topics


def test_fetch_max_bytes_bounds_a_fetch_response(broker_factory):
    """`fetch.max.bytes` (read-only, as in Kafka) caps a fetch response
    below the request's max_bytes; the first batch still goes out whole
    (KIP-74), and a consumer reads everything in more fetches."""
    b = broker_factory(dict(BROKER_SETTINGS, **{"fetch.max.bytes": "4096"}))
    topic = clients.confluent_create_topic(b.bootstrap, harness.unique_topic("fetchmax"))
    msgs = [{"key": b"k%d" % i, "value": b"%02d" % i + b"v" * 1498} for i in range(20)]
    clients.confluent_produce(b.bootstrap, topic, msgs,
                              conf={"batch.num.messages": 1, "linger.ms": 0})
    with KafkaConn(b.bootstrap) as c:
        c.api_versions()
        part, _ = c.fetch(topic, 0, 0, max_bytes=10 << 20, partition_max_bytes=10 << 20)
        assert part["ErrorCode"] == 0, part
        batches = list(rawkafka.parse_batches(part["Records"]))
        assert 1 <= len(batches) < 4 and len(part["Records"]) <= 4096, len(part["Records"])
        # A first batch larger than the bound still comes whole.
        big = [{"key": b"big", "value": b"B" * 6000}]
        clients.confluent_produce(b.bootstrap, topic, big)
        part, _ = c.fetch(topic, 0, 20)
        (batch,) = list(rawkafka.parse_batches(part["Records"]))
        assert [r["value"] for r in batch.records()] == [b"B" * 6000]
    got = clients.confluent_consume(b.bootstrap, topic, [0], 21)
    assert [m["value"][:2] for m in got[:20]] == [b"%02d" % i for i in range(20)]


def _new_fetch_session(b, topic):
    """A Fetch (v7+) asking for a new incremental session (KIP-227):
    the session id the broker answers (0: none created)."""
    with KafkaConn(b.bootstrap) as c:
        c.api_versions()
        v = c.pick(rawkafka.API_FETCH, cap=12)
        assert v >= 7, v
        body = {"ReplicaId": -1, "MaxWaitMs": 0, "MinBytes": 1, "MaxBytes": 1 << 20,
                "IsolationLevel": 0, "SessionId": 0, "SessionEpoch": 0,
                "Topics": [{"Topic": topic, "Partitions": [
                    {"Partition": 0, "CurrentLeaderEpoch": -1, "FetchOffset": 0,
                     "LastFetchedEpoch": -1, "LogStartOffset": -1,
                     "PartitionMaxBytes": 1 << 20}]}],
                "ForgottenTopicsData": [], "RackId": ""}
        resp = c.request(rawkafka.API_FETCH, v, body)
        assert resp["ErrorCode"] == 0, resp
        return resp["SessionId"]


@pytest.mark.parametrize("slots", ["1000", "0"])
def test_fetch_session_cache_slots(broker_factory, slots):
    """`max.incremental.fetch.session.cache.slots` (read-only, as in
    Kafka): with slots a new incremental fetch session gets an id; with 0
    none is kept (session id 0) and a consumer still reads everything."""
    b = broker_factory(dict(BROKER_SETTINGS, **{
        "max.incremental.fetch.session.cache.slots": slots}))
    topic = clients.confluent_create_topic(b.bootstrap, harness.unique_topic("fsess"))
    clients.confluent_produce(b.bootstrap, topic, [{"key": b"k", "value": b"v%d" % i}
                                                   for i in range(5)])
    session = _new_fetch_session(b, topic)
    assert (session != 0) == (slots != "0"), session
    got = clients.confluent_consume(b.bootstrap, topic, [0], 5)
    assert [m["value"] for m in got] == [b"v%d" % i for i in range(5)]


def test_a_broker_config_change_reopens_only_the_topics_it_concerns(broker_factory):
    """A dynamic broker config that no topic config follows reopens no
    partition; a broker default that topics follow reopens those topics
    (and not one with its own value)."""
    b = broker_factory(dict(BROKER_SETTINGS))
    follows = [harness.unique_topic("follows") for _ in range(2)]
    own = harness.unique_topic("own")
    for t in follows:
        rawkafka.ensure_topic(b.bootstrap, t, 2)
    rawkafka.ensure_topic(b.bootstrap, own, 2, configs={"retention.ms": "3600000"})

    def reopened():
        text = "".join(open(p, errors="replace").read() for p in b.log_paths)
        return [line for line in text.splitlines() if "with new configs" in line]

    before = len(reopened())
    assert raw_alter(b, str(b.node_id), [("max.connections", 0, "1000")]) == (0, None)
    assert raw_alter(b, "", [("num.io.threads", 0, "16")]) == (0, None)
    # Give a (wrong) reopen time to show in the log.
    time.sleep(1)
    assert reopened()[before:] == [], "a change no topic follows reopened partitions"
    assert raw_alter(b, str(b.node_id), [("log.retention.ms", 0, "7200000")]) == (0, None)
    harness.wait_until(lambda: len(reopened()) - before >= 2, timeout=10,
                       what="the topics that follow the default reopened")
    time.sleep(1)
    lines = reopened()[before:]
    assert sorted(t for t in follows + [own] if any(t in x for x in lines)) == sorted(follows), \
        lines
    # The new default is in force for the topics that follow it.
    with KafkaConn(b.bootstrap) as c:
        c.api_versions()
        resp = c.request(32, c.pick(32), {"Resources": [
            {"ResourceType": 2, "ResourceName": follows[0],
             "ConfigurationKeys": ["retention.ms"]}],
            "IncludeSynonyms": False, "IncludeDocumentation": False})
    assert resp["Results"][0]["Configs"][0]["Value"] == "7200000", resp


def _try_alter(b, resource, configs):
    """raw_alter, or None when the connection was closed at accept."""
    try:
        return raw_alter(b, resource, configs)
    except (OSError, ConnectionClosed):
        return None


def _exactly(conns, n):
    """The connections if there are n of them; else closes them."""
    if len(conns) == n:
        return conns
    _count_and_close(conns)
    return None


def _count_and_close(conns):
    for c in conns:
        c.close()
    return len(conns)


def test_refusals_use_kafkas_errors_and_messages(broker):
    from confluent_kafka import KafkaException
    admin = clients.confluent_admin(broker.bootstrap)

    def refused(name, value):
        with pytest.raises(KafkaException) as e:
            confluent_alter(admin, broker, name, value)
        return e.value.args[0]

    # read-only in Kafka: INVALID_REQUEST with Kafka's message, as Kafka
    err = refused("delete.topic.enable", "false")
    assert err.code() == INVALID_REQUEST, err
    assert "Cannot update these configs dynamically: Set(delete.topic.enable)" in err.str()
    # a bad value: INVALID_CONFIG
    for name, value in [("num.io.threads", "0"), ("num.io.threads", "x"),
                        ("log.cleaner.io.buffer.load.factor", "most"),
                        ("sasl.login.refresh.buffer.seconds", "40000")]:  # SHORT
        err = refused(name, value)
        assert err.code() == INVALID_CONFIG, (name, value, err)
    # keystore/truststore configs only with a listener prefix (Kafka's words)
    err = refused("ssl.truststore.password", "secret")
    assert err.code() == INVALID_REQUEST, err
    assert ("These security configs can be dynamically updated only per-listener using the "
            "listener prefix: Set(ssl.truststore.password)") in err.str()
    # a per-broker config at the cluster-wide default
    code, msg = raw_alter(broker, "", [("sasl.kerberos.min.time.before.relogin", 0, "1000")])
    assert code == INVALID_REQUEST, (code, msg)
    assert msg == ("Cannot update these configs at default cluster level, broker id must be "
                   "specified: Set(sasl.kerberos.min.time.before.relogin)"), msg
    # nothing was stored
    e = confluent_broker_configs(admin, broker)
    assert e["num.io.threads"].value == "8"
    assert e["sasl.kerberos.min.time.before.relogin"].source == DEFAULT_CONFIG
