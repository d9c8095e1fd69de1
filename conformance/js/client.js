#!/usr/bin/env node
// kafkajs driver for the Tidemark conformance suite.
//
// Usage: node client.js COMMAND < spec.json   (or: node client.js COMMAND 'JSON-SPEC')
// Prints one JSON object on stdout; logs go to stderr; exits non-zero on
// any error (with the error on stderr). Keys, values and header values are
// passed base64-encoded (null stays null) so that any bytes round-trip.
//
// Commands:
//   produce   {brokers, topic, codec, partition, acks, batches, messages: [{key, value, headers: [[k, v]]}]}
//   fetch     {brokers, topic, partition, count, startOffset, timeoutMs, maxWaitMs, maxBytes}
//             reads through kafkajs's own Fetch request/response code (the
//             consumer API needs consumer groups, which a broker may not have yet)
//   admin     {brokers, topic, partitions, configs, alter, newPartitions}: create,
//             describe, alter, create partitions, delete; reports every step
//   offsets   {brokers, topic, timestamps: [ms]}: fetchTopicOffsetsByTimestamp and fetchTopicOffsets
//   group     {brokers, topic, groupId, count, timeoutMs, idleMs, light, announce, rackId}: consumer-group
//             consume until `count` messages, or (idleMs) until none came for idleMs;
//             light: messages as [partition, offset]; announce: print
//             `ASSIGNED [partitions]` lines on each join
'use strict'

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1'

const { Kafka, logLevel } = require('kafkajs')
const { byName } = require('./codecs')

const b64 = buf => (buf === null || buf === undefined ? null : Buffer.from(buf).toString('base64'))
const unb64 = s => (s === null || s === undefined ? null : Buffer.from(s, 'base64'))

const stderrLogger = () => ({ namespace, level, log }) => {
  const { message, ...extra } = log
  process.stderr.write(`[kafkajs ${namespace}] ${message} ${JSON.stringify(extra)}\n`)
}

function client(spec) {
  return new Kafka({
    clientId: 'tidemark-conformance-kafkajs',
    brokers: spec.brokers,
    connectionTimeout: 5000,
    requestTimeout: 30000,
    retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2000 },
    logLevel: logLevel.WARN,
    logCreator: stderrLogger,
  })
}

function headersOut(headers) {
  const out = []
  for (const [k, v] of Object.entries(headers || {})) {
    if (Array.isArray(v)) v.forEach(x => out.push([k, b64(x)]))
    else out.push([k, b64(v)])
  }
  return out
}

async function produce(spec) {
  const kafka = client(spec)
  const producer = kafka.producer({ allowAutoTopicCreation: spec.allowAutoTopicCreation !== false })
  await producer.connect()
  try {
    const messages = spec.messages.map(m => {
      const headers = {}
      for (const [k, v] of m.headers || []) headers[k] = unb64(v)
      const msg = { key: unb64(m.key), value: unb64(m.value), headers }
      if (spec.partition !== undefined && spec.partition !== null) msg.partition = spec.partition
      if (m.timestamp !== undefined) msg.timestamp = String(m.timestamp)
      return msg
    })
    const batches = Math.max(1, spec.batches || 1)
    const per = Math.ceil(messages.length / batches)
    const results = []
    for (let i = 0; i < messages.length; i += per) {
      const r = await producer.send({
        topic: spec.topic,
        messages: messages.slice(i, i + per),
        acks: spec.acks === undefined ? -1 : spec.acks,
        timeout: 30000,
        compression: byName[spec.codec || 'none'],
      })
      results.push(...r)
    }
    return { results }
  } finally {
    await producer.disconnect()
  }
}

function findClusterFactory(kafka) {
  const sym = Object.getOwnPropertySymbols(kafka).find(s => String(s).includes('createCluster'))
  if (!sym) throw new Error('kafkajs internals changed: no createCluster')
  return kafka[sym]
}

async function fetch(spec) {
  const kafka = client(spec)
  const cluster = findClusterFactory(kafka)({ allowAutoTopicCreation: false })
  await cluster.connect()
  try {
    await cluster.addTargetTopic(spec.topic)
    const partition = spec.partition || 0
    const leaders = cluster.findLeaderForPartitions(spec.topic, [partition])
    const nodeId = Object.keys(leaders)[0]
    if (nodeId === undefined) throw new Error(`no leader for ${spec.topic}/${partition}`)
    const broker = await cluster.findBroker({ nodeId })
    let offset = BigInt(spec.startOffset || 0)
    const want = spec.count
    const deadline = Date.now() + (spec.timeoutMs || 20000)
    const messages = []
    let highWatermark = null
    for (let round = 0; round < 10000 && messages.length < want && Date.now() < deadline; round++) {
      const resp = await broker.fetch({
        replicaId: -1,
        isolationLevel: 1,
        maxWaitTime: spec.maxWaitMs || 200,
        minBytes: 1,
        maxBytes: spec.maxBytes || 10485760,
        topics: [{ topic: spec.topic, partitions: [{ partition, fetchOffset: offset.toString(), maxBytes: spec.maxBytes || 10485760 }] }],
      })
      for (const t of resp.responses) {
        for (const p of t.partitions) {
          if (p.errorCode) throw new Error(`fetch error code ${p.errorCode}`)
          highWatermark = p.highWatermark
          for (const m of p.messages) {
            if (m.isControlRecord) continue
            const o = BigInt(m.offset)
            if (o < offset) continue
            messages.push({
              offset: Number(o),
              timestamp: Number(m.timestamp),
              key: b64(m.key),
              value: b64(m.value),
              headers: headersOut(m.headers),
              compression: m.batchContext ? m.batchContext.attributes & 7 : null,
            })
            offset = o + 1n
          }
        }
      }
    }
    return { messages, highWatermark }
  } finally {
    await cluster.disconnect()
  }
}

async function step(report, name, fn) {
  try {
    report[name] = { ok: true, value: await fn() }
  } catch (e) {
    report[name] = { ok: false, error: String(e && e.message), type: e && e.type, name: e && e.name }
  }
  return report[name]
}

async function admin(spec) {
  const kafka = client(spec)
  const a = kafka.admin()
  await a.connect()
  const report = {}
  const topic = spec.topic
  try {
    await step(report, 'create', () =>
      a.createTopics({
        waitForLeaders: true,
        timeout: 30000,
        topics: [{
          topic,
          numPartitions: spec.partitions,
          replicationFactor: 1,
          configEntries: Object.entries(spec.configs || {}).map(([name, value]) => ({ name, value })),
        }],
      })
    )
    await step(report, 'createAgain', () =>
      a.createTopics({ waitForLeaders: false, topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] })
    )
    await step(report, 'listTopics', () => a.listTopics())
    await step(report, 'metadata', () => a.fetchTopicMetadata({ topics: [topic] }))
    const RESOURCE_TOPIC = 2
    const describe = async () => {
      const r = await a.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: RESOURCE_TOPIC, name: topic }],
      })
      const entries = {}
      for (const res of r.resources) {
        if (res.errorCode) throw new Error(`describeConfigs error ${res.errorCode}: ${res.errorMessage}`)
        for (const e of res.configEntries) entries[e.configName] = { value: e.configValue, isDefault: e.isDefault, source: e.configSource }
      }
      return entries
    }
    await step(report, 'describe', describe)
    await step(report, 'alter', () =>
      a.alterConfigs({
        validateOnly: false,
        resources: [{
          type: RESOURCE_TOPIC,
          name: topic,
          configEntries: Object.entries(spec.alter || {}).map(([name, value]) => ({ name, value })),
        }],
      })
    )
    await step(report, 'describeAfterAlter', describe)
    if (spec.newPartitions) {
      await step(report, 'createPartitions', () =>
        a.createPartitions({ topicPartitions: [{ topic, count: spec.newPartitions }] })
      )
      await step(report, 'metadataAfterPartitions', () => a.fetchTopicMetadata({ topics: [topic] }))
    }
    await step(report, 'delete', () => a.deleteTopics({ topics: [topic], timeout: 30000 }))
    await step(report, 'listTopicsAfterDelete', () => a.listTopics())
    return report
  } finally {
    await a.disconnect()
  }
}

async function offsets(spec) {
  const kafka = client(spec)
  const a = kafka.admin()
  await a.connect()
  try {
    const byTimestamp = {}
    for (const ts of spec.timestamps) {
      byTimestamp[String(ts)] = await a.fetchTopicOffsetsByTimestamp(spec.topic, ts)
    }
    const latest = await a.fetchTopicOffsets(spec.topic)
    return { byTimestamp, latest }
  } finally {
    await a.disconnect()
  }
}

async function group(spec) {
  const kafka = client(spec)
  // rackId: KIP-392 follower fetching (the leader may send the fetches
  // to the replica in this rack).
  const consumer = kafka.consumer({ groupId: spec.groupId, maxWaitTimeInMs: 200, sessionTimeout: 10000,
    ...(spec.rackId ? { rackId: spec.rackId } : {}) })
  await consumer.connect()
  const messages = []
  const assignments = []
  consumer.on(consumer.events.GROUP_JOIN, e => {
    const parts = (e.payload.memberAssignment || {})[spec.topic] || []
    assignments.push(parts.slice().sort((a, b) => a - b))
    // `ready` mode: tell the suite on stdout that this member is assigned.
    if (spec.announce) process.stdout.write(`ASSIGNED ${JSON.stringify(parts)}\n`)
  })
  try {
    await consumer.subscribe({ topic: spec.topic, fromBeginning: true })
    let resolve
    const done = new Promise(r => { resolve = r })
    let last = 0
    let idle
    if (spec.idleMs) {
      // Stop once messages came and none has for idleMs.
      idle = setInterval(() => {
        if (messages.length > 0 && Date.now() - last >= spec.idleMs) resolve()
      }, 100)
    }
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        last = Date.now()
        if (spec.light) messages.push([partition, Number(message.offset)])
        else messages.push({ partition, offset: Number(message.offset), key: b64(message.key), value: b64(message.value), headers: headersOut(message.headers) })
        if (spec.count && messages.length >= spec.count) resolve()
      },
    })
    await Promise.race([done, new Promise(r => setTimeout(r, spec.timeoutMs || 20000))])
    if (idle) clearInterval(idle)
    return { messages, assignments }
  } finally {
    await consumer.disconnect()
  }
}

const COMMANDS = { produce, fetch, admin, offsets, group }

async function main() {
  const [cmd, json] = process.argv.slice(2)
  const fn = COMMANDS[cmd]
  if (!fn) {
    process.stderr.write(`usage: client.js (${Object.keys(COMMANDS).join('|')}) JSON\n`)
    process.exit(2)
  }
  const spec = JSON.parse(json !== undefined ? json : require('fs').readFileSync(0, 'utf8'))
  const result = await fn(spec)
  // a pipe is written asynchronously: exit only once everything is out
  await new Promise(resolve => process.stdout.write(JSON.stringify(result) + '\n', resolve))
}

// Never hang: the suite also bounds every run from the outside.
const guard = setTimeout(() => {
  process.stderr.write('client.js: overall timeout\n')
  process.exit(3)
}, Number(process.env.KAFKAJS_SCRIPT_TIMEOUT_MS || 120000))
guard.unref()

main().then(
  () => process.exit(0),
  e => {
    process.stderr.write(`client.js error: ${e && e.stack ? e.stack : e}\n`)
    process.exit(1)
  }
)
