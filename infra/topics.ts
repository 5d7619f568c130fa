/** Creates the Kafka topics named in infra/topics.json (the single place that names them), with the partitions and
 * replicas the config asks for (DEBUGRL_KAFKA_PARTITIONS, DEBUGRL_KAFKA_REPLICATION_FACTOR). Existing topics are left
 * alone, and a topic with fewer partitions than configured is grown (Kafka cannot shrink one). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';
import { loadConfig, REPO_ROOT, type Config } from '../common/config';
import { kafkaClientConfig, topicPartitions } from '../common/connections';

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

async function untilReadable(probe: () => Promise<unknown>, topic: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await probe();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`${topic}: new partitions have no leader after ${timeoutMs} ms: ${(e as Error).message}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

type TopicSpec = z.infer<typeof TopicsFile>['topics'][number];

export async function ensureTopics(config: Config, topics: TopicSpec[] = readTopics()): Promise<string[]> {
  const admin = new Kafka({ ...kafkaClientConfig(config, 'debugrl-topics'), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const wanted = topics.map((t) => ({ ...t, partitions: topicPartitions(config, t.partitions) }));
    const existing = new Set(await admin.listTopics());
    const created = wanted.filter((t) => !existing.has(t.name));
    if (created.length) {
      await admin
        .createTopics({
          waitForLeaders: true,
          topics: created.map((t) => ({
            topic: t.name,
            numPartitions: t.partitions,
            replicationFactor: config.DEBUGRL_KAFKA_REPLICATION_FACTOR,
            configEntries: Object.entries(t.config).map(([name, value]) => ({ name, value })),
          })),
        })
        .catch((e: Error & { errors?: { topic?: string; message: string }[] }) => {
          // kafkajs says only "Topic creation errors"; the broker's reason per topic is in `errors`.
          const why = (e.errors ?? []).map((x) => `${x.topic ?? '?'}: ${x.message}`);
          throw new Error(`${e.message}${why.length ? ` (${why.join('; ')})` : ''}`);
        });
    }
    const meta = await admin.fetchTopicMetadata({ topics: wanted.map((t) => t.name) });
    const grow = wanted.filter((t) => (meta.topics.find((m) => m.name === t.name)?.partitions.length ?? 0) < t.partitions);
    if (grow.length) {
      await admin.createPartitions({ topicPartitions: grow.map((t) => ({ topic: t.name, count: t.partitions })) });
      // The new partitions have no leader for a moment; a producer or reader that comes right after must find one.
      for (const t of grow) await untilReadable(() => admin.fetchTopicOffsets(t.name), t.name);
    }
    return created.map((t) => t.name);
  } finally {
    await admin.disconnect();
  }
}

if (require.main === module) {
  ensureTopics(loadConfig()).then(
    (created) => console.error(`[infra] kafka topics ok${created.length ? ` (created ${created.join(', ')})` : ''}`),
    (err: unknown) => {
      console.error(`[infra] creating kafka topics failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
