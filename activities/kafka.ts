/** Kafka access shared by activities, tests and infra checks: one idempotent producer per process that is rebuilt after
 * a failure, a partition's offsets, and `scanPartitions`, the one way this project reads partitions back. */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type KafkaMessage, type Producer } from 'kafkajs';
import type { Config } from '../common/config';
import { kafkaClientConfig } from '../common/connections';

/** A client for the configured cluster (with its TLS and SASL settings), or for a bare broker list (a local stack). */
export function makeKafka(target: Config | string[], clientId: string): Kafka {
  const base = Array.isArray(target) ? { clientId, brokers: target } : kafkaClientConfig(target, clientId);
  return new Kafka({ ...base, logLevel: logLevel.ERROR, retry: { retries: 8 } });
}

/** Idempotent: the broker drops duplicates of a retried send, so a network retry never writes a record twice. */
export async function connectProducer(kafka: Kafka): Promise<Producer> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  return producer;
}

export interface SharedProducer {
  /** The connected producer; connects on first use and again after a failure. */
  get(): Promise<Producer>;
  close(): Promise<void>;
}

/** One lazily connected producer for the process. A failed connect or send (the broker was killed, a restarted broker
 * no longer knows the producer's epoch) drops it, so the next call connects a fresh one instead of reusing a broken
 * one; the failing activity is retried by Temporal. Exactly-once publication does not rest on the producer's
 * idempotence across attempts: see storeAndPublish. */
export function sharedProducer(kafka: Kafka, log: (m: string) => void = (m) => console.error(`[kafka] ${m}`)): SharedProducer {
  let current: Promise<Producer> | undefined;
  const drop = (p: Promise<Producer>, why: string) => {
    if (current !== p) return;
    current = undefined;
    log(`producer dropped (${why}); the next send reconnects`);
    p.then((producer) => producer.disconnect()).catch(() => undefined);
  };
  return {
    get() {
      if (current) return current;
      const p: Promise<Producer> = connectProducer(kafka).then((producer) => {
        const send = producer.send.bind(producer);
        producer.send = async (record) => {
          try {
            return await send(record);
          } catch (e) {
            drop(p, (e as Error).message);
            throw e;
          }
        };
        return producer;
      });
      p.catch((e: Error) => drop(p, `connect failed: ${e.message}`));
      current = p;
      return p;
    },
    async close() {
      const p = current;
      current = undefined;
      if (p) await (await p.catch(() => undefined))?.disconnect();
    },
  };
}

export interface PartitionOffsets {
  partition: number;
  /** First offset still stored. */
  low: string;
  /** One past the last offset written. */
  high: string;
}

export async function topicOffsets(kafka: Kafka, topic: string): Promise<PartitionOffsets[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.map((o) => ({ partition: o.partition, low: o.low, high: o.high })).sort((a, b) => a.partition - b.partition);
  } finally {
    await admin.disconnect();
  }
}

export interface ScanOptions {
  topic: string;
  partition: number;
  /** First offset to read; default and floor: the partition's low watermark. */
  from?: string;
  /** Stop before this offset; default: the partition's high watermark when the scan starts. */
  until?: string;
  timeoutMs?: number;
}

/** One partition's range in a multi-partition scan: [from, until). */
export interface PartitionRange {
  partition: number;
  from: string;
  until: string;
}

/** Reads the messages at [from, until) of one partition in order; see scanPartitions. Resolves to the number of
 * messages visited. */
export async function scanPartition(kafka: Kafka, opts: ScanOptions, visit: (message: KafkaMessage) => boolean | void): Promise<number> {
  let from = opts.from === undefined ? undefined : BigInt(opts.from);
  let until = opts.until === undefined ? undefined : BigInt(opts.until);
  if (from === undefined || until === undefined) {
    const offsets = await topicOffsets(kafka, opts.topic);
    const mine = offsets.find((o) => o.partition === opts.partition);
    if (!mine) throw new Error(`${opts.topic} has no partition ${opts.partition}`);
    from = from === undefined || from < BigInt(mine.low) ? BigInt(mine.low) : from;
    until ??= BigInt(mine.high);
  }
  const range = { partition: opts.partition, from: String(from), until: String(until) };
  return scanPartitions(kafka, { topic: opts.topic, ranges: [range], timeoutMs: opts.timeoutMs }, (_p, m) => visit(m));
}

/** The one way this project reads partitions back: the messages at [from, until) of each given partition, each
 * partition in offset order, with a throwaway consumer group, calling `visit` for each; `visit` returning true ends
 * the whole scan at once (nothing after it is visited). Resolves to the number of messages visited. A consumer crash
 * that kafkajs will not restart from, or the time limit, rejects, so the calling activity fails and is retried. Slow
 * to start (a group join): for a training step's groups, publish checks, replays and audits, not the hot path. */
export async function scanPartitions(
  kafka: Kafka,
  opts: { topic: string; ranges: PartitionRange[]; timeoutMs?: number },
  visit: (partition: number, message: KafkaMessage) => boolean | void,
): Promise<number> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const ranges = new Map(opts.ranges.filter((r) => BigInt(r.from) < BigInt(r.until)).map((r) => [r.partition, { from: BigInt(r.from), until: BigInt(r.until) }]));
  if (!ranges.size) return 0;
  const what = `${opts.topic}/${[...ranges].map(([p, r]) => `${p}[${r.from}, ${r.until})`).join(',')}`;
  const finished = new Set<number>();
  let stopped = false;
  let visited = 0;

  const consumer = kafka.consumer({ groupId: `debugrl-scan-${process.pid}-${randomBytes(6).toString('hex')}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: opts.topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`scanning ${what} timed out after ${timeoutMs} ms`)), timeoutMs);
      const finish = (err?: Error) => {
        stopped = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      // kafkajs restarts the consumer itself after a retriable crash (a fresh group's coordinator moving, a broker
      // coming back), bounded by the time limit; any other crash fails the scan.
      consumer.on(consumer.events.CRASH, (e) => {
        if (!e.payload.restart) finish(new Error(`scanning ${what}: consumer crashed: ${e.payload.error.message}`));
      });
      consumer.on(consumer.events.GROUP_JOIN, (e) => {
        const assigned = e.payload.memberAssignment[opts.topic] ?? [];
        const others = assigned.filter((p) => !ranges.has(p));
        if (others.length) consumer.pause([{ topic: opts.topic, partitions: others }]);
        for (const [partition, r] of ranges) consumer.seek({ topic: opts.topic, partition, offset: String(r.from) });
      });
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const r = ranges.get(partition);
            const offset = BigInt(message.offset);
            if (stopped || !r || offset < r.from || offset >= r.until || finished.has(partition)) return;
            visited++;
            if (visit(partition, message) === true) return finish();
            if (offset + 1n >= r.until) finished.add(partition);
            if (finished.size === ranges.size) finish();
          },
        })
        .catch((e: Error) => finish(e));
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return visited;
}

/** Reads the record at (topic, partition, offset). */
export async function readRecord(
  kafka: Kafka,
  at: { topic: string; partition: number; offset: string },
  timeoutMs = 30_000,
): Promise<{ key: string | null; value: Buffer | null }> {
  let found: { key: string | null; value: Buffer | null } | undefined;
  await scanPartition(kafka, { topic: at.topic, partition: at.partition, from: at.offset, until: String(BigInt(at.offset) + 1n), timeoutMs }, (m) => {
    found = { key: m.key?.toString() ?? null, value: m.value };
    return true;
  });
  if (!found) throw new Error(`no record at ${at.topic}/${at.partition}@${at.offset}`);
  return found;
}
