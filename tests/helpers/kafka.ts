import type { Kafka } from 'kafkajs';
import { scanPartition } from '../../activities/kafka';
import { ROLLOUTS_TOPIC } from '../../activities/trajectory-store';

/** Count the records on one rollouts partition whose episode-id header matches (reads the whole partition). */
export async function countRolloutsFor(kafka: Kafka, partition: number, episodeId: string): Promise<number> {
  let count = 0;
  await scanPartition(kafka, { topic: ROLLOUTS_TOPIC, partition }, (message) => {
    if (message.headers?.['episode-id']?.toString() === episodeId) count++;
  });
  return count;
}
