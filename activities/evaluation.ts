/** Evaluation activities: pick the tasks, record the evaluation, and aggregate its stored trajectories into the report. */
import * as path from 'node:path';
import type { Pool } from 'pg';
import { REPO_ROOT, type Config } from '../common/config';
import type { Arm, EvaluationConfig, EvaluationResult } from '../common/evaluation';
import { listTaskDirs, loadTask } from '../tasks/task-loader';
import { ApplicationFailure } from '@temporalio/common';
import { buildReport, writeReport } from './report/report';
import { TrajectoryRecord } from '../common/trajectory';

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

/** Recompute the report from the stored trajectories and write it; used by the workflow and by `debugrl report`. */
export async function reportEvaluation(pool: Pool, evaluationId: string, k: number, arms: Arm[], outDir = path.join(REPORTS_DIR, evaluationId)) {
  const records = await loadEvaluationRecords(pool, evaluationId);
  const report = buildReport({ evaluationId, k, arms, records });
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
            if (!t) throw ApplicationFailure.nonRetryable(`unknown task "${id}" in ${deps.config.DEBUGRL_TASKS_DIR}`, 'InvalidInput');
            return t;
          })
        : all.filter((t) => t.split === input.split);
      chosen = chosen.sort((a, b) => a.id.localeCompare(b.id));
      return chosen.slice(0, input.maxTasks ?? undefined).map((t) => t.id);
    },

    async beginEvaluation(input: { evaluationId: string; workflowId: string; input: EvaluationConfig; arms: Arm[]; taskIds: string[] }): Promise<void> {
      await deps.pool.query(
        `insert into evaluations (evaluation_id, workflow_id, input) values ($1, $2, $3) on conflict (evaluation_id) do nothing`,
        [input.evaluationId, input.workflowId, JSON.stringify({ input: input.input, arms: input.arms, taskIds: input.taskIds })],
      );
    },

    async aggregateEvaluation(input: { evaluationId: string; k: number; arms: Arm[] }): Promise<Omit<EvaluationResult, 'failedEpisodes'>> {
      const { report, outDir } = await reportEvaluation(deps.pool, input.evaluationId, input.k, input.arms);
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
