/** `node lib/infra/training-chaos-audit.js <run id>`: after infra/check-training-chaos, checks what a TrainingRunWorkflow
 * left in Temporal, PostgreSQL and Kafka against the exactly-once argument of activities/training-store.ts. Prints one
 * JSON line and exits 1 on any violation:
 *  - the workflow completed all its steps, at the version it should;
 *  - steps 1..N are each committed once, and each raised the policy version by exactly one (no step trained twice,
 *    versions contiguous), each with an adapter;
 *  - every sealed group (`training_groups`) but those dropped for zero signal (never sent, never consumed) is consumed by exactly one step, the one its `consumed_step` names, and no
 *    step names a group that was never sealed; group sequence numbers have no gap (a gap is a group opened and lost);
 *  - every sealed group is on the `training-groups` topic, below the run's committed consumer offset;
 *  - every episode a group names is stored, and no episode is stored twice in PostgreSQL or on `rollouts`. */
import { Client, Connection } from '@temporalio/client';
import { z } from 'zod';
import { makeKafka, scanPartition, topicOffsets } from '../activities/kafka';
import { makePool } from '../activities/pg';
import { stepsOf } from '../activities/training-coordinator';
import { loadConfig } from '../common/config';
import { TRAINING_GROUPS_TOPIC, type TrainingProgress } from '../common/training';
import { ZERO_SIGNAL_DROPPED } from '../common/zero-signal';
import { rolloutsOf, tally } from './chaos-audit';

/** The part of the stored run input the audit needs (training_runs.input is the validated TrainingRunConfig). */
const StoredRun = z.object({
  steps: z.number().int().min(1),
  groupsPerStep: z.number().int().min(1),
  learner: z.object({ initialVersion: z.number().int().min(0) }),
});

export interface TrainingAudit {
  runId: string;
  workflow: { status: string; steps: number | null; version: number | null; groupsFailed: number | null; infraFailures: number | null; episodesRun: number | null };
  steps: { expected: number; committed: number; versions: number[] };
  /** sealed counts the groups sent to training; droppedZeroSignal those stored but left out (common/zero-signal.ts). */
  groups: { expected: number; sealed: number; consumed: number; lost: string[]; duplicated: string[]; partial: number; droppedZeroSignal: number };
  kafka: { groupMessages: number; duplicateSends: number; unconsumed: string[]; rolloutRecords: number };
  episodes: { rows: number; lost: string[]; duplicated: string[] };
  violations: string[];
}

interface GroupRow {
  group_id: string;
  consumed_step: string | null;
  publish_partition: number | null;
  kafka_offset: string | null;
  sealed_reason: string;
  rejected_reason: string | null;
  episodes: { episodeId: string }[];
}

/** The workflow's end state; progress is queried too (a worker must be up), for the counters the result lacks. */
async function workflowEnd(runId: string, address: string, namespace: string): Promise<TrainingAudit['workflow']> {
  const connection = await Connection.connect({ address });
  try {
    const handle = new Client({ connection, namespace }).workflow.getHandle(runId);
    const status = (await handle.describe()).status.name;
    if (status !== 'COMPLETED') return { status, steps: null, version: null, groupsFailed: null, infraFailures: null, episodesRun: null };
    const result = (await handle.result()) as { steps: number; version: number };
    const p = await handle.query<TrainingProgress | null>('progress').catch(() => null);
    return { status, steps: result.steps, version: result.version, groupsFailed: p?.groupsFailed ?? null, infraFailures: p?.infraFailures ?? null, episodesRun: p?.episodesDone ?? null };
  } finally {
    await connection.close();
  }
}

export async function auditTraining(runId: string): Promise<TrainingAudit> {
  const config = loadConfig();
  const pool = makePool(config.DEBUGRL_DATABASE_URL, { max: 2 });
  const kafka = makeKafka(config.DEBUGRL_KAFKA_BROKERS, 'debugrl-training-chaos-audit');
  const violations: string[] = [];
  try {
    const run = await pool.query('select input from training_runs where run_id = $1', [runId]);
    if (!run.rowCount) throw new Error(`no training run "${runId}" in PostgreSQL`);
    const cfg = StoredRun.parse(run.rows[0].input);
    const workflow = await workflowEnd(runId, config.DEBUGRL_TEMPORAL_ADDRESS, config.DEBUGRL_TEMPORAL_NAMESPACE);
    if (workflow.status !== 'COMPLETED') violations.push(`workflow ${runId} is ${workflow.status}, not COMPLETED`);
    else if (workflow.steps !== cfg.steps || workflow.version !== cfg.learner.initialVersion + cfg.steps) {
      violations.push(`workflow returned step ${workflow.steps} at version ${workflow.version}, expected ${cfg.steps} at ${cfg.learner.initialVersion + cfg.steps}`);
    }
    if (workflow.groupsFailed) violations.push(`${workflow.groupsFailed} group(s) failed (infrastructure retries ran out)`);

    // Steps: one per number, each exactly one version above the last.
    const steps = await stepsOf(pool, runId);
    steps.forEach((s, i) => {
      const want = cfg.learner.initialVersion + i;
      if (s.step !== i + 1) violations.push(`step row ${i} is step ${s.step}, expected ${i + 1}`);
      if (s.versionBefore !== want || s.versionAfter !== want + 1) violations.push(`step ${s.step} went ${s.versionBefore} -> ${s.versionAfter}, expected ${want} -> ${want + 1}`);
      if (!s.adapterPath) violations.push(`step ${s.step} has no adapter`);
    });
    if (steps.length !== cfg.steps) violations.push(`${steps.length} committed steps, expected ${cfg.steps}`);

    // Groups: sealed rows against the steps that consumed them.
    const groupRows = (await pool.query('select group_id, consumed_step, publish_partition, kafka_offset, sealed_reason, rejected_reason, episodes from training_groups where run_id = $1', [runId])).rows as GroupRow[];
    // A group dropped for zero signal is stored for the record but never sent or consumed: it must stay that way.
    const dropped = groupRows.filter((g) => g.rejected_reason === ZERO_SIGNAL_DROPPED);
    const groups = groupRows.filter((g) => g.rejected_reason !== ZERO_SIGNAL_DROPPED);
    const droppedBad = dropped.filter((g) => g.consumed_step !== null || g.kafka_offset !== null).map((g) => g.group_id);
    if (droppedBad.length) violations.push(`groups dropped for zero signal but sent or consumed: ${droppedBad.join(', ')}`);
    const sealed = new Set(groups.map((g) => g.group_id));
    const consumedBy = new Map<string, string[]>();
    for (const s of steps) for (const g of [...s.trainedGroups, ...s.rejectedGroups.map((r) => r.groupId)]) consumedBy.set(g, [...(consumedBy.get(g) ?? []), s.stepId]);
    const consumption = tally([...sealed], [...consumedBy].flatMap(([g, by]) => by.map(() => g)));
    for (const g of groups) {
      const by = consumedBy.get(g.group_id);
      if (by?.length === 1 && g.consumed_step !== by[0]) violations.push(`group ${g.group_id} was trained by ${by[0]} but is marked consumed by ${g.consumed_step}`);
    }
    const phantom = [...consumedBy.keys()].filter((g) => !sealed.has(g));
    if (phantom.length) violations.push(`steps consumed groups that were never sealed: ${phantom.join(', ')}`);
    if (consumption.lost.length) violations.push(`sealed but never consumed: ${consumption.lost.join(', ')}`);
    if (consumption.duplicated.length) violations.push(`consumed by more than one step: ${consumption.duplicated.join(', ')}`);
    // Group ids end in .g<seq>, numbered from 1 as they open: a missing number is a group that opened and vanished.
    const seqs = groupRows.map((g) => Number(/\.g(\d+)$/.exec(g.group_id)?.[1] ?? NaN)).sort((a, b) => a - b);
    const gaps = seqs.length ? Array.from({ length: seqs[seqs.length - 1] }, (_, i) => i + 1).filter((n) => !seqs.includes(n)) : [];
    if (gaps.length) violations.push(`group numbers missing (opened, never sealed): ${gaps.map((n) => `g${n}`).join(', ')}`);
    const expectedGroups = cfg.steps * cfg.groupsPerStep;
    if (groups.length !== expectedGroups) violations.push(`${groups.length} sealed groups, expected ${expectedGroups}`);

    // Kafka training-groups: every sealed group sent, and below the run's committed consumer position.
    const next = new Map<number, bigint>(
      (await pool.query('select partition, next_offset from training_offsets where run_id = $1 and topic = $2', [runId, TRAINING_GROUPS_TOPIC])).rows.map((r) => [r.partition as number, BigInt(r.next_offset)]),
    );
    const sends = new Map<string, { partition: number; offset: bigint }[]>();
    for (const p of await topicOffsets(kafka, TRAINING_GROUPS_TOPIC)) {
      await scanPartition(kafka, { topic: TRAINING_GROUPS_TOPIC, partition: p.partition, timeoutMs: 120_000 }, (m) => {
        if (m.key?.toString() !== runId) return;
        const id = m.headers?.['group-id']?.toString() ?? '(none)';
        sends.set(id, [...(sends.get(id) ?? []), { partition: p.partition, offset: BigInt(m.offset) }]);
      });
    }
    const notSent = [...sealed].filter((g) => !sends.has(g));
    if (notSent.length) violations.push(`sealed groups missing from ${TRAINING_GROUPS_TOPIC}: ${notSent.join(', ')}`);
    const unsealedSends = [...sends.keys()].filter((g) => !sealed.has(g) && !dropped.some((d) => d.group_id === g));
    const droppedSent = dropped.filter((g) => sends.has(g.group_id)).map((g) => g.group_id);
    if (droppedSent.length) violations.push(`${TRAINING_GROUPS_TOPIC} carries groups dropped for zero signal: ${droppedSent.join(', ')}`);
    if (unsealedSends.length) violations.push(`${TRAINING_GROUPS_TOPIC} carries groups with no row: ${unsealedSends.join(', ')}`);
    // A group is consumed in Kafka terms when its first copy lies below the committed offset of its partition.
    const unconsumed = [...sends].filter(([, at]) => !at.some((a) => a.offset < (next.get(a.partition) ?? 0n))).map(([g]) => g);
    if (unconsumed.length) violations.push(`groups on ${TRAINING_GROUPS_TOPIC} past the committed consumer offset: ${unconsumed.join(', ')}`);
    // Duplicate sends (a retried send after a lost acknowledgement) are allowed: the reader drops them, which the
    // consumption tally above proves. They are reported.
    const duplicateSends = [...sends.values()].reduce((n, at) => n + at.length - 1, 0);

    // Episodes: every one a group names is stored; none is stored twice, here or on rollouts.
    const eps = (await pool.query('select episode_id, workflow_id from episodes where evaluation_id = $1', [runId])).rows as { episode_id: string; workflow_id: string }[];
    const named = groupRows.flatMap((g) => g.episodes.map((e) => e.episodeId)); // dropped groups' episodes too
    const stored = new Set(eps.map((e) => e.episode_id));
    const epLost = named.filter((id) => !stored.has(id));
    const epDup = tally([], eps.map((e) => e.workflow_id)).duplicated;
    const { byHeader, workflowsInKafka } = await rolloutsOf(kafka, runId);
    const kafkaDup = [...byHeader].filter(([, n]) => n > 1).map(([id]) => id);
    const notOnRollouts = [...stored].filter((id) => !byHeader.has(id));
    const reused = tally([], named).duplicated;
    if (epLost.length) violations.push(`episodes named by groups but not stored: ${epLost.join(', ')}`);
    if (epDup.length) violations.push(`episode workflows stored twice: ${epDup.join(', ')}`);
    if (kafkaDup.length) violations.push(`episodes on rollouts more than once: ${kafkaDup.join(', ')}`);
    if (notOnRollouts.length) violations.push(`stored episodes missing from rollouts: ${notOnRollouts.join(', ')}`);
    if (reused.length) violations.push(`episodes in more than one group: ${reused.join(', ')}`);

    return {
      runId,
      workflow,
      steps: { expected: cfg.steps, committed: steps.length, versions: [cfg.learner.initialVersion, ...steps.map((s) => s.versionAfter)] },
      groups: {
        expected: expectedGroups,
        sealed: groups.length,
        consumed: groups.filter((g) => g.consumed_step).length,
        lost: [...new Set([...consumption.lost, ...gaps.map((n) => `g${n}`), ...notSent])],
        duplicated: [...new Set([...consumption.duplicated, ...phantom])],
        partial: groups.filter((g) => g.sealed_reason !== 'full').length,
        droppedZeroSignal: dropped.length,
      },
      kafka: { groupMessages: [...sends.values()].reduce((n, at) => n + at.length, 0), duplicateSends, unconsumed, rolloutRecords: workflowsInKafka.length },
      episodes: { rows: eps.length, lost: [...new Set([...epLost, ...notOnRollouts])], duplicated: [...new Set([...epDup, ...kafkaDup, ...reused])] },
      violations,
    };
  } finally {
    await pool.end();
  }
}

if (require.main === module) {
  const id = process.argv[2];
  if (!id) {
    console.error('usage: node lib/infra/training-chaos-audit.js <training run id>');
    process.exit(2);
  }
  auditTraining(id).then(
    (a) => {
      console.log(JSON.stringify(a));
      process.exit(a.violations.length ? 1 : 0);
    },
    (err: unknown) => {
      console.error(`training-chaos-audit: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
