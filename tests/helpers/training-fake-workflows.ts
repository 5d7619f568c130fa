/**
 * The workflow bundle of tests/training-run-fast.test.ts: the real TrainingRunWorkflow with fake children under the
 * real type names, so the coordinator's control flow runs in seconds. Each fake asks the test (through an activity)
 * how its episode or evaluation turns out.
 */
import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';

export { TrainingRunWorkflow } from '../../workflows/training-run';

export interface FakeEpisodePlan {
  /** 'error' is an infrastructure failure; the coordinator must neither score nor count it. */
  exitReason: 'done' | 'error';
  delayMs: number;
  /** The error an 'error' episode reports (EpisodeResult.error), e.g. the policy server's 404. */
  error?: string;
}

const fake = proxyActivities<{
  planEpisode(input: { workflowId: string; taskId: string; policy: string }): Promise<FakeEpisodePlan>;
  planEvaluation(input: { workflowId: string; policy: string }): Promise<{ passAt1: number }>;
}>({ startToCloseTimeout: '1m', retry: { maximumAttempts: 1 } });

export async function EpisodeWorkflow(input: { taskId: string; policy: string }): Promise<{ episodeId: string; exitReason: string; error?: string }> {
  const { workflowId } = workflowInfo();
  const plan = await fake.planEpisode({ workflowId, taskId: input.taskId, policy: input.policy });
  if (plan.delayMs > 0) await sleep(plan.delayMs);
  return { episodeId: workflowId, exitReason: plan.exitReason, ...(plan.error ? { error: plan.error } : {}) };
}

export async function EvaluationWorkflow(input: { policy: string }): Promise<{ arms: { passAt1: number }[] }> {
  const r = await fake.planEvaluation({ workflowId: workflowInfo().workflowId, policy: input.policy });
  return { arms: [{ passAt1: r.passAt1 }] };
}
