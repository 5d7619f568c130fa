/** Creates the Kafka topics named in infra/topics.json (the single place that names them). Existing topics are left
 * alone, and a topic with fewer partitions than configured is grown. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';
import { loadConfig, REPO_ROOT } from '../common/config';

export const TopicsFile = z.object({
  topics: z
    .array(
      z.object({
        name: z.string().regex(/^[a-zA-Z0-9._-]+$/),
        partitions: z.number().int().min(1).max(64),
        description: z.string(),
        config: z.record(z.string(), z.string()),
      }),
    )
    .min(1),
});

export function readTopics(file = path.join(REPO_ROOT, 'infra', 'topics.json')): z.infer<typeof TopicsFile>['topics'] {
  return TopicsFile.parse(JSON.parse(fs.readFileSync(file, 'utf8'))).topics;
}

export async function ensureTopics(brokers: string[]): Promise<string[]> {
  const admin = new Kafka({ clientId: 'debugrl-topics', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const wanted = readTopics();
    const existing = new Set(await admin.listTopics());
    const created = wanted.filter((t) => !existing.has(t.name));
    if (created.length) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: created.map((t) => ({
          topic: t.name,
          numPartitions: t.partitions,
          replicationFactor: 1,
          configEntries: Object.entries(t.config).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    const meta = await admin.fetchTopicMetadata({ topics: wanted.map((t) => t.name) });
    const grow = wanted.filter((t) => (meta.topics.find((m) => m.name === t.name)?.partitions.length ?? 0) < t.partitions);
    if (grow.length) await admin.createPartitions({ topicPartitions: grow.map((t) => ({ topic: t.name, count: t.partitions })) });
    return created.map((t) => t.name);
  } finally {
    await admin.disconnect();
  }
}

if (require.main === module) {
  ensureTopics(loadConfig().DEBUGRL_KAFKA_BROKERS).then(
    (created) => console.error(`[infra] kafka topics ok${created.length ? ` (created ${created.join(', ')})` : ''}`),
    (err: unknown) => {
      console.error(`[infra] creating kafka topics failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
