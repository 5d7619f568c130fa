/** Evaluation activities: pick the tasks, record the evaluation, and aggregate its stored trajectories into the report. */
import * as path from 'node:path';
import type { Pool } from 'pg';
import { inTransaction } from './pg';
import { REPO_ROOT, type Config } from '../common/config';
import type { Arm, EvaluationConfig, EvaluationResult } from '../common/evaluation';
import { Failure } from '../common/failures';
import { listTaskDirs, loadTask } from '../taskset/task-loader';
import { ApplicationFailure } from '@temporalio/common';
import { buildReport, writeReport } from './report/report';
import { TrajectoryRecord } from '../common/trajectory';

export interface BeginEvaluationInput {
  /** The id asked for (EvaluationInput.evaluationId or the workflow id). */
  evaluationId: string;
  workflowId: string;
  /** The workflow's first run id: a retry of the same run finds its own row by it. */
  runId: string;
  /** Store a second run of an existing id under a new id instead of refusing it. */
  rerun?: boolean;
  input: EvaluationConfig;
  arms: Arm[];
  taskIds: string[];
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const REPORTS_DIR = path.join(REPO_ROOT, 'reports');

export async function loadEvaluationRecords(pool: Pool, evaluationId: string): Promise<TrajectoryRecord[]> {
  const r = await pool.query('select record from episodes where evaluation_id = $1 order by task_id, episode_id', [evaluationId]);
  return r.rows.map((row) => TrajectoryRecord.parse(row.record));
}

export async function loadEvaluation(pool: Pool, evaluationId: string): Promise<{ input: EvaluationConfig; arms: Arm[]; taskIds: string[] }> {
  const r = await pool.query('select input from evaluations where evaluation_id = $1', [evaluationId]);
  if (!r.rowCount) throw new Error(`no evaluation "${evaluationId}" in the database`);
  return r.rows[0].input;
}

/** Task id → task.json `failing_tests` for the tasks of `records`, read from `tasksDir` (the trajectory record does not
 * carry them). A task no longer there, or unreadable, is left out: its targeted starts show as unknown, not as 0. */
export function loadFailingTests(tasksDir: string, taskIds: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const id of new Set(taskIds)) {
    try {
      out[id] = loadTask(path.join(tasksDir, id)).spec.failing_tests;
    } catch {
      // left out on purpose: see above
    }
  }
  return out;
}

/** Recompute the report from the stored trajectories and write it; used by the workflow and by `debugrl report`.
 * `tasksDir` (DEBUGRL_TASKS_DIR) gives the tasks' failing tests for targeted starts. */
export async function reportEvaluation(pool: Pool, evaluationId: string, k: number, arms: Arm[], outDir = path.join(REPORTS_DIR, evaluationId), tasksDir: string | null = null) {
  const records = await loadEvaluationRecords(pool, evaluationId);
  const failingTests = tasksDir ? loadFailingTests(tasksDir, records.map((r) => r.taskId)) : {};
  // The run's configuration heads the report: read from the evaluation's stored input (a row from before the input
  // was stored whole leaves the header out rather than guessing).
  const stored = await loadEvaluation(pool, evaluationId).catch(() => null);
  const c = stored?.input;
  const config = c && c.policy && c.limits
    ? { policy: c.policy, compare: c.compare ?? null, split: c.split ?? null, taskIds: stored.taskIds ?? c.taskIds ?? null, episodesPerTask: c.episodesPerTask, firstSeed: c.firstSeed ?? 0, toolset: c.toolset, limits: c.limits as Record<string, number> }
    : undefined;
  const report = buildReport({ evaluationId, k, arms, records, failingTests, ...(config ? { config } : {}) });
  const files = writeReport(report, outDir);
  return { report, files, outDir };
}

export function createEvaluationActivities(deps: { pool: Pool; config: Config }) {
  return {
    async listTasks(input: { split: string | null; taskIds: string[] | null; maxTasks: number | null }): Promise<string[]> {
      const all = listTaskDirs(deps.config.DEBUGRL_TASKS_DIR).map((d) => loadTask(d).spec);
      let chosen = input.taskIds
        ? input.taskIds.map((id) => {
            const t = all.find((s) => s.id === id);
            if (!t) throw ApplicationFailure.nonRetryable(`unknown task "${id}" in ${deps.config.DEBUGRL_TASKS_DIR}`, Failure.InvalidInput);
            return t;
          })
        : all.filter((t) => t.split === input.split);
      chosen = chosen.sort((a, b) => a.id.localeCompare(b.id));
      return chosen.slice(0, input.maxTasks ?? undefined).map((t) => t.id);
    },

    /** Records the evaluation and returns the id its episodes and report go under. A retry of the same workflow run
     * finds its own row. Another run under an existing id is refused (its episodes would mix with the first run's in
     * the report) unless it asks for a new run with `rerun`, which is stored as `<id>-run<N>`. */
    async beginEvaluation(input: BeginEvaluationInput): Promise<{ evaluationId: string }> {
      const row = JSON.stringify({ input: input.input, arms: input.arms, taskIds: input.taskIds });
      return inTransaction(deps.pool, async (client) => {
        await client.query('select pg_advisory_xact_lock(hashtext($1))', [`evaluation:${input.evaluationId}`]);
        const mine = await client.query('select evaluation_id from evaluations where run_id = $1', [input.runId]);
        if (mine.rowCount) return { evaluationId: mine.rows[0].evaluation_id as string };
        const existing = await client.query('select workflow_id, started_at from evaluations where evaluation_id = $1', [input.evaluationId]);
        let evaluationId = input.evaluationId;
        if (existing.rowCount) {
          const first = existing.rows[0] as { workflow_id: string; started_at: Date };
          if (!input.rerun) {
            throw ApplicationFailure.nonRetryable(
              `evaluation "${input.evaluationId}" already exists (workflow ${first.workflow_id}, started ${first.started_at.toISOString()}); ` +
                `a second run under the same id would mix its episodes with the first run's. Ask for a new run with rerun: true ` +
                `(CLI: --rerun), stored as "${input.evaluationId}-run<N>", or choose another id`,
              Failure.InvalidInput,
            );
          }
          const taken = await client.query('select evaluation_id from evaluations where evaluation_id like $1', [`${likeEscape(input.evaluationId)}-run%`]);
          const ids = new Set(taken.rows.map((r) => r.evaluation_id as string));
          let n = 2;
          while (ids.has(`${input.evaluationId}-run${n}`)) n++;
          evaluationId = `${input.evaluationId}-run${n}`;
        }
        await client.query('insert into evaluations (evaluation_id, workflow_id, run_id, base_id, input) values ($1, $2, $3, $4, $5)', [
          evaluationId,
          input.workflowId,
          input.runId,
          input.evaluationId,
          row,
        ]);
        return { evaluationId };
      });
    },

    async aggregateEvaluation(input: { evaluationId: string; k: number; arms: Arm[] }): Promise<Omit<EvaluationResult, 'failedEpisodes'>> {
      const { report, outDir } = await reportEvaluation(deps.pool, input.evaluationId, input.k, input.arms, undefined, deps.config.DEBUGRL_TASKS_DIR);
      await deps.pool.query('update evaluations set summary = $2, report_dir = $3, finished_at = now() where evaluation_id = $1', [
        input.evaluationId,
        JSON.stringify(report.arms.map((a) => ({ ...a, summary: { ...a.summary, perTask: undefined } }))),
        outDir,
      ]);
      return {
        evaluationId: input.evaluationId,
        k: input.k,
        reportDir: outDir,
        arms: report.arms.map((a) => ({ label: a.arm.label, policy: a.arm.policy, toolset: a.arm.toolset, passAt1: a.summary.passAt1, passAtK: a.summary.passAtK, episodes: a.summary.episodes })),
      };
    },
  };
}
