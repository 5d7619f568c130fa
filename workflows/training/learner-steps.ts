/**
 * A training run's learner side: when groupsPerStep sealed groups are queued, one step on the GPU worker (trainStep),
 * then the new adapter's publication with its canary (publishAdapter), an optional validation evaluation, and the
 * step's point in PostgreSQL (recordTrainingStep). The mismatch alarm is read from the step's metrics before the new
 * adapter is published. Between steps the loop serves attestations (run-health.ts), because
 * only then does the learner hold exactly the served version. Deterministic workflow code.
 */
import { condition, executeChild, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { curriculumSummary } from '../../common/curriculum';
import { PolicyVersion } from '../../common/search-attributes';
import { servedAdapterName, type StepPoint, type StepResult } from '../../common/training';
import { EvaluationWorkflow } from '../evaluation';
import { policyAt } from './rollouts';
import { attest, onStepTrained, serveAttestation, trainingPaused, writeMemo } from './run-health';
import type { Run } from './run-state';

/** This execution has trained its share: continue-as-new every K steps, or when Temporal suggests it. */
const chunkDone = (run: Run): boolean =>
  run.state.step - run.live.firstStep >= run.cfg.continueAsNewEvery || (run.state.step > run.live.firstStep && workflowInfo().continueAsNewSuggested);

/** The run's PolicyVersion search attribute (infra/up registers it): its served version, so
 * `temporal workflow list --query 'WorkflowType="TrainingRunWorkflow" AND PolicyVersion >= 2'` finds the runs that got
 * there. Only executions with the 'training-policy-version-attribute' marker set it. */
export function tagPolicyVersion(run: Run): void {
  if (run.versionAttribute) upsertSearchAttributes([{ key: PolicyVersion, value: run.state.version }]);
}

export async function runLearner(run: Run): Promise<void> {
  const { state, cfg, live } = run;
  while (state.step < cfg.steps && !live.stopping && !live.chunkOver) {
    await condition(() => live.stopping || live.attestRequest !== null || (!trainingPaused(run) && state.queued.length >= cfg.groupsPerStep));
    if (live.stopping) break;
    if (live.attestRequest !== null) {
      await serveAttestation(run);
      continue;
    }
    await trainOneStep(run);
    if (run.guards && cfg.attestEvery > 0 && state.step % cfg.attestEvery === 0) await attest(run, `every ${cfg.attestEvery} steps`);
    if (chunkDone(run)) live.chunkOver = true;
  }
}

async function trainOneStep(run: Run): Promise<void> {
  const { state, cfg, live, runId, scope } = run;
  const res: StepResult = await run.gpu.trainStep({
    runId, step: state.step + 1, groups: cfg.groupsPerStep, maxPolicyLag: cfg.maxPolicyLag, learner: cfg.learner,
    ...(run.fromInit ? { initAdapter: cfg.initAdapter } : {}), ...(run.bc ? { bc: run.bc } : {}),
  });
  const consumed = new Set([...res.trainedGroups, ...res.rejectedGroups.map((g) => g.groupId)]);
  state.queued = state.queued.filter((id) => !consumed.has(id));
  const zs = state.zeroSignal!;
  const zeroSignalTrained = res.trainedGroups.filter((id) => zs.queuedIds.includes(id)).length;
  const zeroSignalDropped = zs.droppedSinceStep;
  state.zeroSignal = { ...zs, queuedIds: zs.queuedIds.filter((id) => !consumed.has(id)), droppedSinceStep: 0 };
  // The trained groups have left the queue: count their step at once, or the rollout loop sees one step's groups
  // missing while the adapter publishes and opens a group the run will never train.
  if (run.queueAccounting) state.step = res.step;
  // The step measured how far the served policy is from the learner's: an alarm holds the new version back until the
  // resume signal (publishing onto a server that disagrees would only spread the problem); a stop meanwhile leaves it
  // committed but unpublished, and a resumed run's attestation publishes it.
  onStepTrained(run, res);
  if (trainingPaused(run)) await condition(() => !trainingPaused(run) || live.stopping);
  const publish = !(live.stopping && trainingPaused(run));
  if (publish && res.versionAfter > state.version && res.adapterPath) {
    await run.gpu.publishAdapter({ runId, version: res.versionAfter, adapterPath: res.adapterPath, keep: cfg.maxPolicyLag + 1, ...(scope ? { name: servedAdapterName(scope, res.versionAfter) } : {}) });
    state.version = res.versionAfter;
    state.adapterPath = res.adapterPath;
    tagPolicyVersion(run);
  }
  state.step = res.step;
  state.busyMs += res.busyMs;
  state.staleGroupsRejected += res.rejectedGroups.filter((g) => g.reason === 'policy-lag').length;
  for (const [lag, n] of Object.entries(res.lagHistogram)) state.lagHistogram[lag] = (state.lagHistogram[lag] ?? 0) + n;
  if (state.queued.length <= run.settings.lowWater) live.blocked = false;
  let validationPass1: number | null = null;
  if (cfg.evalEvery && state.step % cfg.evalEvery === 0) {
    const ev = await executeChild(EvaluationWorkflow, {
      workflowId: `${runId}.eval-step${state.step}`,
      args: [{ policy: policyAt(run, state.version), split: 'validation', maxTasks: cfg.evalMaxTasks, episodesPerTask: 1, k: 1, limits: cfg.limits, concurrency: Math.max(1, Math.min(4, live.poolSize)) }],
    });
    validationPass1 = ev.arms[0]?.passAt1 ?? null;
  }
  const point = stepPoint(run, res, { validationPass1, zeroSignalDropped, zeroSignalTrained }, Date.now());
  state.lastStep = point;
  await run.store.recordTrainingStep({ runId, point });
  writeMemo(run);
}

/** The step's point: what the training report and `train status` plot per step. */
function stepPoint(run: Run, res: StepResult, extra: { validationPass1: number | null; zeroSignalDropped: number; zeroSignalTrained: number }, nowMs: number): StepPoint {
  const { state } = run;
  const m = res.metrics;
  const num = (k: string) => (m && typeof m[k] === 'number' ? (m[k] as number) : null);
  const summary = curriculumSummary(state.curriculum);
  return {
    step: state.step, version: state.version, meanReward: res.meanReward, passRate: res.passRate, trained: res.trainedGroups.length,
    staleGroups: res.rejectedGroups.filter((g) => g.reason === 'policy-lag').length, rejectedTrajectories: res.rejectedTrajectories.length,
    klMean: num('kl_mean'), clipLow: num('clip_frac_low'), clipHigh: num('clip_frac_high'), ratioMean: num('ratio_mean'), offpolicyWeightMean: num('offpolicy_weight_mean'),
    busyFraction: state.busyMs / Math.max(1, nowMs - state.startedAtMs), lag0MeanAbsLogRatio: res.lag0?.meanAbsLogRatio ?? null,
    curriculumPhase: summary.phase, share3070: summary.share30to70, validationPass1: extra.validationPass1, zeroSignalDropped: extra.zeroSignalDropped,
    zeroSignalTrained: extra.zeroSignalTrained, bcLoss: num('sft_examples_trained') ? num('loss_bc') : null, atMs: nowMs,
  };
}
