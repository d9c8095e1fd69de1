#!/usr/bin/env node
// kafkajs transactions against Tidemark (issue 16).
//
// Usage: node txn.js < spec.json
// spec: {brokers, topic, transactionalId, groupId}
// Runs three transactions on `topic` (commit 10 records, abort 5, commit
// 5 with sendOffsets for `groupId` at offset 42 of partition 0), then
// reads the topic with a read_committed consumer (kafkajs's default) and
// a read_uncommitted one, and the group's committed offsets. Prints one
// JSON object: {committed: [values], uncommitted: [values], offsets: [...]}.
'use strict'

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1'

const { Kafka, logLevel } = require('kafkajs')

function readSpec() {
  return new Promise((resolve, reject) => {
    let data = ''
    process.stdin.on('data', c => (data += c))
    process.stdin.on('end', () => {
      try { resolve(JSON.parse(data)) } catch (e) { reject(e) }
    })
  })
}

async function readAll(kafka, topic, readUncommitted, idleMs) {
  const consumer = kafka.consumer({
    groupId: `reader-${readUncommitted ? 'ru' : 'rc'}-${topic}`,
    readUncommitted,
    maxWaitTimeInMs: 100,
  })
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
  const values = []
  let last = Date.now()
  let joined = false
  consumer.on(consumer.events.GROUP_JOIN, () => {
    joined = true
    last = Date.now()
  })
  await consumer.run({
    eachMessage: async ({ message }) => {
      values.push(message.value.toString())
      last = Date.now()
    },
  })
  const deadline = Date.now() + 30000
  // Idle time counts from the group join (the broker's initial
  // rebalance delay comes first).
  while (Date.now() < deadline && (!joined || Date.now() - last < idleMs)) {
    await new Promise(r => setTimeout(r, 100))
  }
  await consumer.disconnect()
  return values
}

async function main() {
  const spec = await readSpec()
  const kafka = new Kafka({
    clientId: 'tidemark-conformance-kafkajs-txn',
    brokers: spec.brokers,
    connectionTimeout: 5000,
    requestTimeout: 30000,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 2000 },
    logLevel: logLevel.WARN,
  })
  const producer = kafka.producer({
    transactionalId: spec.transactionalId,
    idempotent: true,
    maxInFlightRequests: 1,
  })
  await producer.connect()
  const send = async (prefix, n, commit, offsets) => {
    const txn = await producer.transaction()
    await txn.send({
      topic: spec.topic,
      messages: Array.from({ length: n }, (_, i) => ({ key: `k${i % 3}`, value: `${prefix}-${i}` })),
    })
    if (offsets) {
      await txn.sendOffsets({
        consumerGroupId: spec.groupId,
        topics: [{ topic: spec.topic, partitions: [{ partition: 0, offset: '42' }] }],
      })
    }
    if (commit) await txn.commit()
    else await txn.abort()
  }
  await send('one', 10, true, false)
  await send('gone', 5, false, false)
  await send('two', 5, true, true)
  await producer.disconnect()

  const committed = await readAll(kafka, spec.topic, false, 2000)
  const uncommitted = await readAll(kafka, spec.topic, true, 2000)
  const admin = kafka.admin()
  await admin.connect()
  const offsets = await admin.fetchOffsets({ groupId: spec.groupId, topics: [spec.topic] })
  await admin.disconnect()
  process.stdout.write(JSON.stringify({ committed, uncommitted, offsets }) + '\n')
}

main().catch(e => {
  process.stderr.write(`${e.stack || e}\n`)
  process.exit(1)
})
