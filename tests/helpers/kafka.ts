import type { Kafka } from 'kafkajs';
import { ROLLOUTS_TOPIC } from '../../activities/trajectory-store';

/** Count the records on one rollouts partition whose episode-id header matches (reads the whole partition). */
export async function countRolloutsFor(kafka: Kafka, partition: number, episodeId: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(ROLLOUTS_TOPIC).finally(() => admin.disconnect());
  const high = BigInt(offsets.find((o) => o.partition === partition)?.high ?? '0');
  const low = BigInt(offsets.find((o) => o.partition === partition)?.low ?? '0');
  if (high === low) return 0;
  const consumer = kafka.consumer({ groupId: `count-${episodeId}-${Date.now()}` });
  await consumer.connect();
  let count = 0;
  try {
    await consumer.subscribe({ topic: ROLLOUTS_TOPIC, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out reading rollouts')), 60_000);
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition: p, message }) => {
            if (p !== partition) return;
            if (message.headers?.['episode-id']?.toString() === episodeId) count++;
            if (BigInt(message.offset) + 1n >= high) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return count;
}
