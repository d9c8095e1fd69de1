"""aiokafka (an asyncio Kafka client with its own protocol implementation,
from PyPI) against Tidemark: topics administered with its admin client,
every codec produced and consumed through a consumer group with committed
offsets, idempotent and transactional producers with read_committed
readers, and records it wrote read back by kafka-python."""

import asyncio

import pytest

import clients
import harness

BROKER_SETTINGS = {"num.partitions": "1", "auto.create.topics.enable": "false"}

CODECS = [None, "gzip", "snappy", "lz4", "zstd"]


def run(coro, timeout=90):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def create_topics(bootstrap, names, partitions=1, configs=None):
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        await admin.create_topics([NewTopic(n, partitions, 1, topic_configs=configs or {})
                                   for n in names])
        for _ in range(100):
            if set(names) <= set(await admin.list_topics()):
                return
            await asyncio.sleep(0.1)
        raise AssertionError("topics %s not listed" % names)
    finally:
        await admin.close()


async def produce(bootstrap, topic, msgs, **conf):
    from aiokafka import AIOKafkaProducer
    p = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=5, **conf)
    await p.start()
    try:
        futs = [await p.send(topic, key=m["key"], value=m["value"],
                             headers=list(m.get("headers") or []), partition=0)
                for m in msgs]
        return [(await f).offset for f in futs]
    finally:
        await p.stop()


async def consume(bootstrap, topic, count, group=None, **conf):
    from aiokafka import AIOKafkaConsumer
    c = AIOKafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=group,
                         auto_offset_reset="earliest", enable_auto_commit=False, **conf)
    await c.start()
    out = []
    try:
        for _ in range(200):
            if len(out) >= count:
                break
            batch = await c.getmany(timeout_ms=500)
            for records in batch.values():
                out.extend({"key": r.key, "value": r.value, "offset": r.offset,
                            "headers": [(k, v) for k, v in r.headers]} for r in records)
        if group is not None:
            await c.commit()
        return out
    finally:
        await c.stop()


@pytest.mark.parametrize("codec", CODECS)
def test_every_codec_through_a_group_with_committed_offsets(broker, codec):
    topic = harness.unique_topic("aio")
    group = harness.unique_topic("aiog")
    msgs = clients.make_messages("aio-%s" % codec, 200)

    async def go():
        await create_topics(broker.bootstrap, [topic])
        offsets = await produce(broker.bootstrap, topic, msgs, compression_type=codec)
        assert offsets == list(range(len(msgs)))
        got = await consume(broker.bootstrap, topic, len(msgs), group=group)
        assert clients.essence(got) == clients.essence(msgs)
        # The group resumes after its committed offset.
        more = clients.make_messages("aio-more", 5)
        await produce(broker.bootstrap, topic, more, compression_type=codec)
        again = await consume(broker.bootstrap, topic, len(more), group=group)
        assert clients.essence(again) == clients.essence(more)

    run(go())
    # Another implementation reads what aiokafka wrote.
    got = clients.kp_consume(broker.bootstrap, topic, [0], len(msgs) + 5)
    assert clients.essence(got[:len(msgs)]) == clients.essence(msgs)


def test_admin_configs_and_delete(broker):
    from aiokafka.admin import AIOKafkaAdminClient
    from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType
    topic = harness.unique_topic("aioadm")

    async def go():
        await create_topics(broker.bootstrap, [topic], partitions=3,
                            configs={"retention.ms": "86400000",
                                     "compression.type": "zstd"})
        admin = AIOKafkaAdminClient(bootstrap_servers=broker.bootstrap)
        await admin.start()
        try:
            res = ConfigResource(ConfigResourceType.TOPIC, topic)
            (resp,) = await admin.describe_configs([res])
            entries = {e[0]: e[1] for e in resp.resources[0][4]}
            assert entries["retention.ms"] == "86400000"
            assert entries["compression.type"] == "zstd"
            assert entries["cleanup.policy"] == "delete"
            await admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic,
                                                      {"retention.ms": "3600000"})])
            (resp,) = await admin.describe_configs([res])
            entries = {e[0]: e[1] for e in resp.resources[0][4]}
            assert entries["retention.ms"] == "3600000"
            # AlterConfigs replaced the whole set: compression.type is back
            # to its default.
            assert entries["compression.type"] == "producer"
            described = await admin.describe_topics([topic])
            assert len(described[0]["partitions"]) == 3
            await admin.delete_topics([topic])
            for _ in range(100):
                if topic not in await admin.list_topics():
                    return
                await asyncio.sleep(0.1)
            raise AssertionError("topic still listed after delete")
        finally:
            await admin.close()

    run(go())


def test_idempotent_and_transactional_producers(broker):
    from aiokafka import AIOKafkaProducer
    topic = harness.unique_topic("aiotxn")
    committed = clients.make_messages("commit", 20)
    aborted = clients.make_messages("abort", 20)

    async def go():
        await create_topics(broker.bootstrap, [topic])
        await produce(broker.bootstrap, topic, committed[:10], enable_idempotence=True)
        p = AIOKafkaProducer(bootstrap_servers=broker.bootstrap,
                             transactional_id=harness.unique_topic("aiotid"))
        await p.start()
        try:
            async with p.transaction():
                for m in committed[10:]:
                    await p.send(topic, key=m["key"], value=m["value"],
                                 headers=list(m["headers"]), partition=0)
            await p.begin_transaction()
            for m in aborted:
                await p.send(topic, key=m["key"], value=m["value"],
                             headers=list(m["headers"]), partition=0)
            await p.abort_transaction()
            async with p.transaction():
                await p.send(topic, key=b"last", value=b"last", partition=0)
        finally:
            await p.stop()
        got = await consume(broker.bootstrap, topic, len(committed) + 1,
                            isolation_level="read_committed")
        assert clients.essence(got, with_headers=False) == clients.essence(
            committed + [{"key": b"last", "value": b"last"}], with_headers=False)
        # read_uncommitted sees the aborted records too.
        everything = await consume(broker.bootstrap, topic, len(committed) + len(aborted) + 1)
        assert {m["value"] for m in aborted} <= {m["value"] for m in everything}

    run(go())
