/** `node lib/infra/chaos-audit.js <evaluation id>`: after infra/check-chaos, counts every episode the evaluation was
 * meant to run in PostgreSQL (rows of `episodes`, by child workflow id) and in Kafka (records on the rollouts topic,
 * by their episode-id header and by the record's workflow id). Prints one JSON line and exits 1 on any loss or
 * duplicate: an episode stored zero times or more than once in either place. */
import type { Kafka } from 'kafkajs';
import { z } from 'zod';
import { makeKafka, scanPartition, topicOffsets } from '../activities/kafka';
import { makePool } from '../activities/pg';
import { ROLLOUTS_TOPIC } from '../activities/trajectory-store';
import { loadConfig } from '../common/config';

const StoredInput = z.object({
  input: z.object({ episodesPerTask: z.number().int().min(1) }),
  arms: z.array(z.object({ label: z.string() })).min(1),
  taskIds: z.array(z.string()).min(1),
});

export interface Audit {
  evaluationId: string;
  expected: number;
  postgres: { rows: number; lost: string[]; duplicated: string[] };
  kafka: { records: number; lost: string[]; duplicated: string[] };
  exitReasons: Record<string, number>;
  /** Episodes that ended in a harness error, with the error. */
  errors: { workflowId: string; error: string | null }[];
}

/** The child workflow ids EvaluationWorkflow gives its episodes. */
export function expectedEpisodes(evaluationId: string, stored: z.infer<typeof StoredInput>): string[] {
  const ids: string[] = [];
  for (let i = 0; i < stored.input.episodesPerTask; i++) for (const t of stored.taskIds) for (let a = 0; a < stored.arms.length; a++) ids.push(`${evaluationId}.${a}.${t}.${i}`);
  return ids;
}

/** Ids seen 0 times (lost) and more than once (duplicated). */
export function tally(expected: string[], seen: string[]): { lost: string[]; duplicated: string[] } {
  const n = new Map<string, number>();
  for (const s of seen) n.set(s, (n.get(s) ?? 0) + 1);
  return { lost: expected.filter((e) => !n.get(e)), duplicated: [...n].filter(([, c]) => c > 1).map(([id]) => id) };
}

/** Every rollouts record of one evaluation (or training run: its episodes carry the run id as evaluation id), wherever
 * it landed: counted by its episode-id header, and the workflow id inside each. */
export async function rolloutsOf(kafka: Kafka, evaluationId: string): Promise<{ byHeader: Map<string, number>; workflowsInKafka: string[] }> {
  const byHeader = new Map<string, number>();
  const workflowsInKafka: string[] = [];
  for (const p of await topicOffsets(kafka, ROLLOUTS_TOPIC)) {
    await scanPartition(kafka, { topic: ROLLOUTS_TOPIC, partition: p.partition, timeoutMs: 120_000 }, (m) => {
      const value = m.value ? (JSON.parse(m.value.toString()) as { evaluationId?: string | null; workflowId?: string }) : {};
      if (value.evaluationId !== evaluationId) return;
      const header = m.headers?.['episode-id']?.toString() ?? '(none)';
      byHeader.set(header, (byHeader.get(header) ?? 0) + 1);
      workflowsInKafka.push(value.workflowId ?? '(none)');
    });
  }
  return { byHeader, workflowsInKafka };
}

export async function audit(evaluationId: string): Promise<Audit> {
  const config = loadConfig();
  const pool = makePool(config.DEBUGRL_DATABASE_URL, { max: 2 });
  const kafka = makeKafka(config.DEBUGRL_KAFKA_BROKERS, 'debugrl-chaos-audit');
  try {
    const ev = await pool.query('select input from evaluations where evaluation_id = $1', [evaluationId]);
    if (!ev.rowCount) throw new Error(`no evaluation "${evaluationId}" in PostgreSQL`);
    const expected = expectedEpisodes(evaluationId, StoredInput.parse(ev.rows[0].input));
    const rows = (await pool.query(`select episode_id, workflow_id, exit_reason, record->'outcome'->>'error' as error from episodes where evaluation_id = $1`, [evaluationId])).rows as {
      episode_id: string;
      workflow_id: string;
      exit_reason: string;
      error: string | null;
    }[];
    const exitReasons: Record<string, number> = {};
    for (const r of rows) exitReasons[r.exit_reason] = (exitReasons[r.exit_reason] ?? 0) + 1;

    const { byHeader, workflowsInKafka } = await rolloutsOf(kafka, evaluationId);
    const pg = tally(expected, rows.map((r) => r.workflow_id));
    const kf = tally(expected, workflowsInKafka);
    // An episode id published twice is a duplicate even if its workflow id were somehow unique.
    const headerDupes = [...byHeader].filter(([, c]) => c > 1).map(([id]) => id);
    const pgIds = new Set(rows.map((r) => r.episode_id));
    return {
      evaluationId,
      expected: expected.length,
      postgres: { rows: rows.length, ...pg },
      kafka: {
        records: workflowsInKafka.length,
        lost: [...new Set([...kf.lost, ...[...pgIds].filter((id) => !byHeader.has(id))])],
        duplicated: [...new Set([...kf.duplicated, ...headerDupes])],
      },
      exitReasons,
      errors: rows.filter((r) => r.exit_reason === 'error').map((r) => ({ workflowId: r.workflow_id, error: r.error })),
    };
  } finally {
    await pool.end();
  }
}

if (require.main === module) {
  const id = process.argv[2];
  if (!id) {
    console.error('usage: node lib/infra/chaos-audit.js <evaluation id>');
    process.exit(2);
  }
  audit(id).then(
    (a) => {
      console.log(JSON.stringify(a));
      const bad = a.postgres.lost.length + a.postgres.duplicated.length + a.kafka.lost.length + a.kafka.duplicated.length;
      process.exit(bad ? 1 : 0);
    },
    (err: unknown) => {
      console.error(`chaos-audit: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
