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
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { Kafka, Producer } from 'kafkajs';
import type { Pool } from 'pg';
import { REPO_ROOT, type Config } from '../common/config';
import { foldGroupEpisodes, initialCurriculum, type CurriculumState } from '../common/curriculum';
import { episodeReward, isScorable, REWARD_CONFIG, rewardInputsFromRecord } from '../common/reward';
import { GROUP_SCHEMA, GroupEpisode, GroupRecord, TRAINING_GROUPS_TOPIC, type StepPoint, type StepResult, type TrainingRunConfig } from '../common/training';
import { TrajectoryRecord } from '../common/trajectory';
import { ZERO_SIGNAL_DROPPED } from '../common/zero-signal';
import { listTaskDirs, loadTask, resolveTaskDir } from '../tasks/task-loader';
import { checkRlInputs, rlInputFailure } from './rl-init';
import { buildTrainingReport, writeTrainingReport } from './training-report';
import { partitionFor } from './trajectory-store';

export interface TrainingStoreDeps {
  pool: Pool;
  kafka: Kafka;
  producer: () => Promise<Producer>;
}

async function topicOffsets(kafka: Kafka, topic: string): Promise<{ partition: number; high: string }[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(topic)).map((o) => ({ partition: o.partition, high: o.high }));
  } finally {
    await admin.disconnect();
  }
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

/** Read this run's next `want` unconsumed groups from Kafka, starting at the committed offsets. Throws (retryable)
 * when fewer are there: the coordinator only asks once it has sealed enough. */
export async function readGroups(deps: TrainingStoreDeps, runId: string, want: number, timeoutMs = 60_000, onProgress: () => void = () => undefined): Promise<ReadGroups> {
  const rows = (await deps.pool.query('select partition, next_offset from training_offsets where run_id = $1 and topic = $2', [runId, TRAINING_GROUPS_TOPIC])).rows;
  if (!rows.length) throw new Error(`training run ${runId} has no consumer offsets (was beginRun called?)`);
  const from: Record<number, string> = Object.fromEntries(rows.map((r) => [r.partition as number, String(r.next_offset)]));
  const high = Object.fromEntries((await topicOffsets(deps.kafka, TRAINING_GROUPS_TOPIC)).map((o) => [o.partition, BigInt(o.high)]));
  const next: Record<number, string> = { ...from };
  const pending = Object.keys(from).map(Number).filter((p) => BigInt(from[p]) < (high[p] ?? 0n));
  const consumed = new Set<string>(
    (await deps.pool.query('select group_id from training_groups where run_id = $1 and consumed_step is not null', [runId])).rows.map((r) => r.group_id as string),
  );
  const groups: GroupRecord[] = [];
  let duplicates = 0;
  if (!pending.length) throw new Error(`training run ${runId}: no unconsumed groups in Kafka yet (wanted ${want})`);
  const consumer = deps.kafka.consumer({ groupId: `debugrl-train-${runId}-${Date.now()}-${Math.random().toString(36).slice(2)}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: TRAINING_GROUPS_TOPIC, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const done = new Set<number>();
      const finish = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => reject(new Error(`reading ${TRAINING_GROUPS_TOPIC} for run ${runId} timed out with ${groups.length} of ${want} groups`)), timeoutMs);
      consumer.on(consumer.events.GROUP_JOIN, () => {
        for (const p of pending) consumer.seek({ topic: TRAINING_GROUPS_TOPIC, partition: p, offset: from[p] });
      });
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            onProgress();
            if (groups.length >= want || !pending.includes(partition) || BigInt(message.offset) < BigInt(from[partition])) return;
            if (BigInt(message.offset) !== BigInt(next[partition])) return; // only ever advance contiguously
            next[partition] = (BigInt(message.offset) + 1n).toString();
            if (message.key?.toString() === runId && message.value) {
              const rec = GroupRecord.parse(JSON.parse(message.value.toString()));
              if (consumed.has(rec.groupId) || groups.some((g) => g.groupId === rec.groupId)) duplicates++;
              else groups.push(rec);
            }
            if (BigInt(next[partition]) >= high[partition]) done.add(partition);
            if (groups.length >= want || done.size === pending.length) finish();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
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

/** Trajectory records of the given episodes, from PostgreSQL (the claim check behind each group record). */
export async function loadRecords(pool: Pool, episodeIds: string[]): Promise<Map<string, unknown>> {
  const r = await pool.query('select episode_id, record from episodes where episode_id = any($1)', [episodeIds]);
  return new Map(r.rows.map((row) => [row.episode_id as string, row.record]));
}

export async function stepsOf(pool: Pool, runId: string): Promise<StepResult[]> {
  const r = await pool.query('select result from training_steps where run_id = $1 order by step', [runId]);
  return r.rows.map((row) => row.result as StepResult);
}

export async function pointsOf(pool: Pool, runId: string): Promise<StepPoint[]> {
  const r = await pool.query('select point from training_points where run_id = $1 order by step', [runId]);
  return r.rows.map((row) => row.point as StepPoint);
}

// --- the coordinator's activities (shared queue) ---------------------------------------------------------------------

export function createTrainingActivities(deps: TrainingStoreDeps & { config: Config }) {
  return {
    /** Register the run (idempotent) and return where it stands: a resumed run continues from its last committed step
     * with its sealed, untrained groups still queued, and with its curriculum: every group it sealed folded in again,
     * in the order sealed (the coordinator's own update, common/curriculum.ts), not a fresh start. */
    async beginTrainingRun(input: { runId: string; workflowId: string; input: TrainingRunConfig }) {
      try {
        checkRlInputs(input.input, deps.config.DEBUGRL_DATA_DIR, input.runId); // a bad init adapter or BC corpus: before anything starts
      } catch (e) {
        throw rlInputFailure(e);
      }
      await beginRun(deps, input);
      const last = await lastCommitted(deps.pool, input.runId);
      const queued = await deps.pool.query(
        'select group_id from training_groups where run_id = $1 and consumed_step is null and rejected_reason is distinct from $2 order by sealed_at',
        [input.runId, ZERO_SIGNAL_DROPPED],
      );
      const seq = await deps.pool.query('select count(*)::int as n from training_groups where run_id = $1', [input.runId]);
      const cfg = input.input;
      let ids: string[];
      try {
        ids = cfg.taskIds ?? listTaskDirs(deps.config.DEBUGRL_TASKS_DIR).map((d) => loadTask(d).spec).filter((t) => t.split === cfg.split).map((t) => t.id);
      } catch (e) {
        throw ApplicationFailure.nonRetryable(`cannot list tasks: ${(e as Error).message}`, 'InvalidInput');
      }
      if (cfg.maxTasks) ids = ids.slice(0, cfg.maxTasks);
      if (!ids.length) throw ApplicationFailure.nonRetryable(`no training tasks matched (split ${cfg.split}, taskIds ${cfg.taskIds?.join(',') ?? '-'})`, 'InvalidInput');
      const tasks = ids.map((id) => {
        try {
          const t = loadTask(resolveTaskDir(id, deps.config.DEBUGRL_TASKS_DIR)).spec;
          return { id: t.id, debuggerPreference: t.debugger };
        } catch (e) {
          throw ApplicationFailure.nonRetryable(`taskIds: ${(e as Error).message}`, 'InvalidInput');
        }
      });
      const version = last.step > 0 ? last.version : cfg.learner.initialVersion;
      let curriculum: CurriculumState;
      try {
        curriculum = initialCurriculum(tasks);
      } catch (e) {
        throw ApplicationFailure.nonRetryable(`training tasks: ${(e as Error).message}`, 'InvalidInput');
      }
      const sealed = await deps.pool.query('select task_id, episodes from training_groups where run_id = $1 order by sealed_at, group_id', [input.runId]);
      for (const g of sealed.rows) {
        // A task dropped from the run's list since (a changed corpus) has no estimate to carry.
        if (curriculum.tasks.some((t) => t.id === g.task_id)) curriculum = foldGroupEpisodes(curriculum, g.task_id, GroupEpisode.array().parse(g.episodes));
      }
      return { step: last.step, version, queued: queued.rows.map((r) => r.group_id as string), groupSeq: seq.rows[0].n as number, tasks, curriculum };
    },

    /** The episode's reward from its stored record. Unscorable episodes (infrastructure failures) get none. */
    async scoreEpisode(input: { episodeId: string; taskId: string }): Promise<{ scorable: boolean; episode: GroupEpisode }> {
      const raw = (await loadRecords(deps.pool, [input.episodeId])).get(input.episodeId);
      if (!raw) throw new Error(`episode ${input.episodeId} has no stored record yet`);
      const record = TrajectoryRecord.parse(raw);
      const task = loadTask(resolveTaskDir(input.taskId, deps.config.DEBUGRL_TASKS_DIR));
      const fixFiles = (fs.readdirSync(task.fixDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
        .filter((d) => d.isFile())
        .map((d) => path.relative(task.fixDir, path.join(d.parentPath, d.name)));
      const inputs = rewardInputsFromRecord(record, { debuggerPreference: task.spec.debugger, fixFiles, failingTests: task.spec.failing_tests });
      const versions = record.turns.map((t) => t.assistant.policyVersion);
      const minPolicyVersion = versions.length ? Math.min(...versions) : record.policy.version;
      const base = { episodeId: input.episodeId, passed: record.outcome.passed, usedDebugger: inputs.usedDebugger, minPolicyVersion };
      if (!isScorable(inputs)) return { scorable: false, episode: { ...base, reward: 0, components: {} } };
      const r = episodeReward(inputs);
      return { scorable: true, episode: { ...base, reward: r.total, components: r.components } };
    },

    async sealGroup(input: { runId: string; groupId: string; taskId: string; episodes: GroupEpisode[]; sealedReason: 'full' | 'partial-timeout'; infraFailures: number; dropped?: typeof ZERO_SIGNAL_DROPPED }) {
      const { dropped, ...group } = input;
      const record: GroupRecord = { schema: GROUP_SCHEMA, rewardConfig: REWARD_CONFIG.version, ...group };
      return dropped ? storeDroppedGroup(deps, record) : sealAndPublishGroup(deps, record);
    },

    /** Store the step's point and rewrite the run's report (reports/<run>/training.{html,json}). */
    async recordTrainingStep(input: { runId: string; point: StepPoint }): Promise<{ html: string; json: string }> {
      await deps.pool.query('insert into training_points (run_id, step, point) values ($1, $2, $3) on conflict do nothing', [input.runId, input.point.step, JSON.stringify(input.point)]);
      const report = buildTrainingReport(input.runId, await pointsOf(deps.pool, input.runId), await stepsOf(deps.pool, input.runId));
      return writeTrainingReport(report, path.join(REPO_ROOT, 'reports', input.runId));
    },
  };
}

export type TrainingActivities = ReturnType<typeof createTrainingActivities>;
