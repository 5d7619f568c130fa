/**
 * EvaluationWorkflow: n episodes per task for each arm (a policy and a tool set), run as child EpisodeWorkflows with
 * bounded concurrency, then one aggregation activity that computes pass@k, turn, debugger-use and failure metrics from
 * the stored trajectories and writes the report. Progress is exposed through the `progress` query.
 * Start it with the CLI (`npx debugrl eval …`) or directly:
 *   temporal workflow start --type EvaluationWorkflow --task-queue debugrl --input '{"policy":"embedded","split":"test"}'
 */
import { ApplicationFailure, defineQuery, proxyActivities, setHandler, startChild, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { parseInput } from '../common/boundary';
import { armsOf, EvaluationInput, type EvaluationProgress, type EvaluationResult } from '../common/evaluation';
import { Failure } from '../common/failures';
import { EvaluationId } from '../common/search-attributes';
import type { Activities } from '../activities';
import { EpisodeWorkflow } from './episode';

export const progressQuery = defineQuery<EvaluationProgress>('progress');

const short = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 10, nonRetryableErrorTypes: [Failure.InvalidInput] },
});

export async function EvaluationWorkflow(rawInput: unknown): Promise<EvaluationResult> {
  const cfg = parseInput(EvaluationInput, rawInput, 'EvaluationWorkflow');
  const requestedId = cfg.evaluationId ?? workflowInfo().workflowId;
  const arms = armsOf(cfg);
  const progress: EvaluationProgress = { evaluationId: requestedId, total: 0, done: 0, running: 0, failed: 0, passed: 0, startedAtMs: Date.now(), phase: 'starting' };
  setHandler(progressQuery, () => progress);
  upsertSearchAttributes([{ key: EvaluationId, value: requestedId }]);

  const taskIds = await short.listTasks({ split: cfg.split ?? null, taskIds: cfg.taskIds ?? null, maxTasks: cfg.maxTasks ?? null });
  if (!taskIds.length) throw ApplicationFailure.nonRetryable(`no tasks matched (split ${cfg.split ?? '-'}, taskIds ${cfg.taskIds?.join(',') ?? '-'})`, Failure.InvalidInput);
  const { workflowId, firstExecutionRunId } = workflowInfo();
  // Refuses an existing id unless cfg.rerun, which gets a new one.
  const { evaluationId } = await short.beginEvaluation({ evaluationId: requestedId, workflowId, runId: firstExecutionRunId, rerun: cfg.rerun, input: cfg, arms, taskIds });
  if (evaluationId !== requestedId) {
    progress.evaluationId = evaluationId;
    upsertSearchAttributes([{ key: EvaluationId, value: evaluationId }]);
  }

  // Interleave arms and tasks so a partial run already compares like with like.
  const jobs = [];
  for (let i = 0; i < cfg.episodesPerTask; i++) for (const taskId of taskIds) for (const [a, arm] of arms.entries()) jobs.push({ i, taskId, a, arm });
  progress.total = jobs.length;
  progress.phase = 'running';
  progress.startedAtMs = Date.now();

  const inFlight = new Set<Promise<void>>();
  for (const job of jobs) {
    while (inFlight.size >= cfg.concurrency) await Promise.race(inFlight);
    const child = await startChild(EpisodeWorkflow, {
      workflowId: `${evaluationId}.${job.a}.${job.taskId}.${job.i}`,
      args: [
        {
          taskId: job.taskId,
          policy: job.arm.policy,
          toolset: job.arm.toolset,
          limits: cfg.limits,
          seed: cfg.firstSeed + job.i,
          evaluationId,
          arm: job.arm.label,
          sandboxScheduleToStartSeconds: cfg.sandboxScheduleToStartSeconds,
        },
      ],
    });
    progress.running++;
    const p: Promise<void> = child.result().then(
      (r) => {
        if (r.passed) progress.passed++;
      },
      () => {
        progress.failed++;
      },
    ).finally(() => {
      progress.running--;
      progress.done++;
      inFlight.delete(p);
    });
    inFlight.add(p);
  }
  await Promise.all(inFlight);

  progress.phase = 'aggregating';
  const summary = await short.aggregateEvaluation({ evaluationId, k: cfg.k, arms });
  progress.phase = 'finished';
  return { ...summary, failedEpisodes: progress.failed };
}
