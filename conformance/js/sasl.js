// kafkajs over SASL (test_sasl.py): produce spec.values to spec.topic and
// read them back with a group consumer; prints one JSON line.
const fs = require('fs');
const { Kafka, logLevel } = require('kafkajs');

const spec = JSON.parse(fs.readFileSync(0, 'utf8'));

async function main() {
  const kafka = new Kafka({
    clientId: 'tidemark-sasl',
    brokers: spec.brokers,
    logLevel: logLevel.NOTHING,
    ssl: spec.ca ? { ca: [fs.readFileSync(spec.ca, 'utf8')], servername: 'localhost' } : false,
    sasl: { mechanism: spec.mechanism, username: spec.username, password: spec.password },
    connectionTimeout: 5000,
    authenticationTimeout: 5000,
    retry: { retries: 2 },
  });
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic: spec.topic, messages: spec.values.map((v) => ({ value: v })) });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: 'g-' + spec.topic });
  await consumer.connect();
  await consumer.subscribe({ topic: spec.topic, fromBeginning: true });
  const got = [];
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, 20000);
    consumer.run({
      eachMessage: async ({ message }) => {
        got.push(message.value.toString());
        if (got.length >= spec.values.length) {
          clearTimeout(timer);
          resolve();
        }
      },
    });
  });
  await consumer.disconnect();
  return { ok: true, got };
}

main()
  .then((r) => console.log(JSON.stringify(r)))
  .catch((e) => console.log(JSON.stringify({ ok: false, error: String(e) })));
