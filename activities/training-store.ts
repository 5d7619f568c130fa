/**
 * The training data path in PostgreSQL and Kafka: runs, sealed groups, and committed steps.
 *
 * Exactly once, end to end:
 *  - A sealed group is stored in `training_groups` (keyed by group id, so a retried seal writes nothing new) and sent
 *    to the `training-groups` topic by the idempotent producer. A retry after a lost acknowledgement may send it
 *    again; the reader drops a group id it has already consumed or already taken in this batch. So every group is
 *    trained at most once, and (the row exists before the send) none is lost.
 *  - The learner's consumer position is not Kafka's consumer-group offset but a row per (run, partition) in
 *    `training_offsets`. A step writes its result, marks the groups it consumed and advances those offsets in ONE
 *    transaction, conditional on the offsets it started from. A step either happened (all three) or did not (none),
 *    across any crash of the learner, the worker, Kafka or PostgreSQL.
 */
import type { Kafka, Producer } from 'kafkajs';
import type { Pool } from 'pg';
import { GROUP_SCHEMA, GroupRecord, TRAINING_GROUPS_TOPIC, type StepResult } from '../common/training';
import { ZERO_SIGNAL_DROPPED } from '../common/zero-signal';
import { scanPartitions, topicOffsets } from './kafka';
import { partitionFor } from './trajectory-store';

export interface TrainingStoreDeps {
  pool: Pool;
  kafka: Kafka;
  producer: () => Promise<Producer>;
}

/** Register the run once; a new run's consumer starts at the topic's current end (older runs' groups are not its own). */
export async function beginRun(deps: TrainingStoreDeps, run: { runId: string; workflowId: string; input: unknown }): Promise<{ input: unknown; created: boolean }> {
  const ins = await deps.pool.query('insert into training_runs (run_id, workflow_id, input) values ($1, $2, $3) on conflict (run_id) do nothing', [run.runId, run.workflowId, JSON.stringify(run.input)]);
  const offsets = await topicOffsets(deps.kafka, TRAINING_GROUPS_TOPIC);
  for (const o of offsets) {
    await deps.pool.query('insert into training_offsets (run_id, topic, partition, next_offset) values ($1, $2, $3, $4) on conflict do nothing', [run.runId, TRAINING_GROUPS_TOPIC, o.partition, o.high]);
  }
  const row = (await deps.pool.query('select input from training_runs where run_id = $1', [run.runId])).rows[0];
  return { input: row.input, created: (ins.rowCount ?? 0) > 0 };
}

async function insertGroup(deps: TrainingStoreDeps, record: GroupRecord, rejectedReason: string | null): Promise<void> {
  GroupRecord.parse(record);
  const minVersion = Math.min(...record.episodes.map((e) => e.minPolicyVersion));
  await deps.pool.query(
    `insert into training_groups (group_id, run_id, task_id, reward_config, episodes, min_policy_version, sealed_reason, infra_failures, rejected_reason)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (group_id) do nothing`,
    [record.groupId, record.runId, record.taskId, record.rewardConfig, JSON.stringify(record.episodes), minVersion, record.sealedReason, record.infraFailures, rejectedReason],
  );
}

/** Store a group dropped for zero signal: the row only (rejected_reason 'zero-signal'), for the record and a resumed
 * run's curriculum; never on Kafka, so no step reads it. */
export async function storeDroppedGroup(deps: TrainingStoreDeps, record: GroupRecord): Promise<{ dropped: typeof ZERO_SIGNAL_DROPPED }> {
  await insertGroup(deps, record, ZERO_SIGNAL_DROPPED);
  return { dropped: ZERO_SIGNAL_DROPPED };
}

/** Store the sealed group and send it to Kafka (see the header for why a duplicate send is harmless). */
export async function sealAndPublishGroup(deps: TrainingStoreDeps, record: GroupRecord): Promise<{ partition: number; offset: string }> {
  await insertGroup(deps, record, null);
  const row = (await deps.pool.query('select publish_partition, kafka_offset from training_groups where group_id = $1', [record.groupId])).rows[0];
  if (row.kafka_offset !== null) return { partition: row.publish_partition, offset: String(row.kafka_offset) };
  const partitions = (await topicOffsets(deps.kafka, TRAINING_GROUPS_TOPIC)).length;
  const partition = partitionFor(record.runId, partitions);
  const producer = await deps.producer();
  const [sent] = await producer.send({
    topic: TRAINING_GROUPS_TOPIC,
    messages: [{ key: record.runId, partition, value: JSON.stringify(record), headers: { 'group-id': record.groupId, schema: GROUP_SCHEMA } }],
  });
  const offset = sent.baseOffset ?? sent.offset ?? '0';
  await deps.pool.query('update training_groups set publish_partition = $2, kafka_offset = $3 where group_id = $1', [record.groupId, partition, offset]);
  return { partition, offset };
}

export interface ReadGroups {
  groups: GroupRecord[];
  /** Where each partition's reading started and where the next step's must start. */
  from: Record<number, string>;
  next: Record<number, string>;
  duplicates: number;
}

/** Read this run's next `want` unconsumed groups from Kafka, starting at the committed offsets, in one scan of the
 * partitions that have anything new (activities/kafka.ts). A group id already consumed, or already taken in this
 * batch, is counted as a duplicate and skipped (a retried send). Throws (retryable) when fewer are there: the
 * coordinator only asks once it has sealed enough. */
export async function readGroups(deps: TrainingStoreDeps, runId: string, want: number, timeoutMs = 60_000): Promise<ReadGroups> {
  const rows = (await deps.pool.query('select partition, next_offset from training_offsets where run_id = $1 and topic = $2', [runId, TRAINING_GROUPS_TOPIC])).rows;
  if (!rows.length) throw new Error(`training run ${runId} has no consumer offsets (was beginRun called?)`);
  const from: Record<number, string> = Object.fromEntries(rows.map((r) => [r.partition as number, String(r.next_offset)]));
  const high = new Map((await topicOffsets(deps.kafka, TRAINING_GROUPS_TOPIC)).map((o) => [o.partition, o.high]));
  const ranges = Object.keys(from)
    .map(Number)
    .filter((p) => BigInt(from[p]) < BigInt(high.get(p) ?? '0'))
    .map((p) => ({ partition: p, from: from[p], until: high.get(p)! }));
  if (!ranges.length) throw new Error(`training run ${runId}: no unconsumed groups in Kafka yet (wanted ${want})`);
  const consumed = new Set<string>(
    (await deps.pool.query('select group_id from training_groups where run_id = $1 and consumed_step is not null', [runId])).rows.map((r) => r.group_id as string),
  );
  const next: Record<number, string> = { ...from };
  const groups: GroupRecord[] = [];
  let duplicates = 0;
  await scanPartitions(deps.kafka, { topic: TRAINING_GROUPS_TOPIC, ranges, timeoutMs }, (partition, message) => {
    next[partition] = (BigInt(message.offset) + 1n).toString();
    if (message.key?.toString() === runId && message.value) {
      const rec = GroupRecord.parse(JSON.parse(message.value.toString()));
      if (consumed.has(rec.groupId) || groups.some((g) => g.groupId === rec.groupId)) duplicates++;
      else groups.push(rec);
    }
    return groups.length >= want; // the next step starts right after the last group taken
  });
  if (groups.length < want) throw new Error(`training run ${runId}: only ${groups.length} of ${want} groups in Kafka yet`);
  return { groups, from, next, duplicates };
}

export async function findStep(pool: Pool, stepId: string): Promise<StepResult | null> {
  const r = await pool.query('select result from training_steps where step_id = $1', [stepId]);
  return r.rowCount ? (r.rows[0].result as StepResult) : null;
}

/** The learner state to resume from: the last committed step's version and adapter (version 0 and none before any). */
export async function lastCommitted(pool: Pool, runId: string): Promise<{ step: number; version: number; adapterPath: string | null }> {
  const r = await pool.query('select step, version_after, adapter_path from training_steps where run_id = $1 order by step desc limit 1', [runId]);
  if (!r.rowCount) return { step: 0, version: 0, adapterPath: null };
  return { step: r.rows[0].step, version: r.rows[0].version_after, adapterPath: r.rows[0].adapter_path };
}

export class OffsetConflict extends Error {}

/** The step's one transaction: result, consumed groups, offsets. Returns the stored result when the step id already
 * committed (a retry), and throws OffsetConflict if another attempt moved the offsets meanwhile. */
export async function commitStep(pool: Pool, runId: string, result: StepResult, offsets: { from: Record<number, string>; next: Record<number, string> }): Promise<StepResult> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const ins = await client.query(
      `insert into training_steps (step_id, run_id, step, version_before, version_after, adapter_path, group_ids, result)
       values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (step_id) do nothing`,
      [result.stepId, runId, result.step, result.versionBefore, result.versionAfter, result.adapterPath, [...result.trainedGroups, ...result.rejectedGroups.map((g) => g.groupId)], JSON.stringify(result)],
    );
    if (!ins.rowCount) {
      await client.query('rollback');
      return (await findStep(pool, result.stepId)) as StepResult;
    }
    for (const [p, n] of Object.entries(offsets.next)) {
      const u = await client.query('update training_offsets set next_offset = $4 where run_id = $1 and topic = $2 and partition = $3 and next_offset = $5', [runId, TRAINING_GROUPS_TOPIC, Number(p), n, offsets.from[Number(p)]]);
      if (!u.rowCount) throw new OffsetConflict(`training offsets of run ${runId} partition ${p} moved during step ${result.stepId}`);
    }
    await client.query('update training_groups set consumed_step = $2 where group_id = any($1)', [result.trainedGroups, result.stepId]);
    for (const g of result.rejectedGroups) await client.query('update training_groups set consumed_step = $2, rejected_reason = $3 where group_id = $1', [g.groupId, result.stepId, g.reason]);
    await client.query('commit');
    return result;
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
