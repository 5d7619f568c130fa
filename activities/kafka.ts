/** Kafka access shared by activities: one idempotent producer per process, and reading one record back by offset. */
import { Kafka, logLevel, type Producer } from 'kafkajs';

export function makeKafka(brokers: string[], clientId: string): Kafka {
  return new Kafka({ clientId, brokers, logLevel: logLevel.ERROR, retry: { retries: 8 } });
}

/** Idempotent: the broker drops duplicates of a retried send, so a network retry never writes a record twice. */
export async function connectProducer(kafka: Kafka): Promise<Producer> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  return producer;
}

/** Reads the record at (topic, partition, offset) with a throwaway consumer group. Slow (a group join), so it is for
 * checks and replays, not the hot path. */
export async function readRecord(
  kafka: Kafka,
  at: { topic: string; partition: number; offset: string },
  timeoutMs = 30_000,
): Promise<{ key: string | null; value: Buffer | null }> {
  const consumer = kafka.consumer({ groupId: `debugrl-read-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: at.topic, fromBeginning: true });
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no record at ${at.topic}/${at.partition}@${at.offset} within ${timeoutMs} ms`)), timeoutMs);
      consumer.on(consumer.events.GROUP_JOIN, () => consumer.seek({ topic: at.topic, partition: at.partition, offset: at.offset }));
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            if (partition === at.partition && message.offset === at.offset) {
              clearTimeout(timer);
              resolve({ key: message.key?.toString() ?? null, value: message.value });
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
}
