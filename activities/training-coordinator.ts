/**
 * The training coordinator's activities on the shared queue: register a run and say where it stands (its last
 * committed step, its queued groups, its curriculum rebuilt from every group it sealed), score an episode, seal a
 * group, and record a step's point with the run's report. The exactly-once bookkeeping they rest on is
 * activities/training-store.ts; episode records come from their owner, activities/trajectory-store.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import { REPO_ROOT, type Config } from '../common/config';
import { Failure } from '../common/failures';
import { foldGroupEpisodes, initialCurriculum, type CurriculumState } from '../common/curriculum';
import { episodeReward, isScorable, REWARD_CONFIG, rewardInputsFromRecord } from '../common/reward';
import { GROUP_SCHEMA, GroupEpisode, type GroupRecord, type StepPoint, type StepResult, type TrainingRunConfig } from '../common/training';
import { TrajectoryRecord } from '../common/trajectory';
import { ZERO_SIGNAL_DROPPED } from '../common/zero-signal';
import { listTaskDirs, loadTask, resolveTaskDir } from '../taskset/task-loader';
import { checkRlInputs, rlInputFailure } from './rl-init';
import { buildTrainingReport, writeTrainingReport } from './training-report';
import { beginRun, lastCommitted, sealAndPublishGroup, storeDroppedGroup, type TrainingStoreDeps } from './training-store';
import { loadRecords } from './trajectory-store';

export async function stepsOf(pool: Pool, runId: string): Promise<StepResult[]> {
  const r = await pool.query('select result from training_steps where run_id = $1 order by step', [runId]);
  return r.rows.map((row) => row.result as StepResult);
}

export async function pointsOf(pool: Pool, runId: string): Promise<StepPoint[]> {
  const r = await pool.query('select point from training_points where run_id = $1 order by step', [runId]);
  return r.rows.map((row) => row.point as StepPoint);
}

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
        throw ApplicationFailure.nonRetryable(`cannot list tasks: ${(e as Error).message}`, Failure.InvalidInput);
      }
      if (cfg.maxTasks) ids = ids.slice(0, cfg.maxTasks);
      if (!ids.length) throw ApplicationFailure.nonRetryable(`no training tasks matched (split ${cfg.split}, taskIds ${cfg.taskIds?.join(',') ?? '-'})`, Failure.InvalidInput);
      const tasks = ids.map((id) => {
        try {
          const t = loadTask(resolveTaskDir(id, deps.config.DEBUGRL_TASKS_DIR)).spec;
          return { id: t.id, debuggerPreference: t.debugger };
        } catch (e) {
          throw ApplicationFailure.nonRetryable(`taskIds: ${(e as Error).message}`, Failure.InvalidInput);
        }
      });
      const version = last.step > 0 ? last.version : cfg.learner.initialVersion;
      let curriculum: CurriculumState;
      try {
        curriculum = initialCurriculum(tasks);
      } catch (e) {
        throw ApplicationFailure.nonRetryable(`training tasks: ${(e as Error).message}`, Failure.InvalidInput);
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
