/**
 * TrainingRunWorkflow: the GRPO coordinator (the seed's coordinator, as a durable workflow). Its parts, each a module
 * in workflows/training/:
 *
 *   rollouts.ts       P slots, each a child EpisodeWorkflow; a finished slot starts the next episode at once;
 *   groups.ts         which group an episode joins, sealing (full, or with minToSeal after sealTimeout), zero-signal
 *                     groups dropped and resampled, failing a group past its infrastructure retries, the water marks;
 *   learner-steps.ts  groupsPerStep queued groups -> trainStep on the GPU worker -> publishAdapter (with its canary)
 *                     -> the step's point in PostgreSQL; new episodes use the newest adapter;
 *   run-health.ts     the circuit breaker, continuous attestation of the served adapter, the mismatch alarm, and the
 *                     pause they share (memo + progress query);
 *   run-state.ts      what continue-as-new carries: ids, counters, the curriculum, open groups, the queue, and the
 *                     newest step point only (every point is in training_points).
 *
 * The steps of one execution, in order:
 *   1. begin         register the run (or take the carried state), and with an init adapter publish it as version 0;
 *   2. train         the learner loop and the rollout slots run side by side until this execution's steps are done;
 *   3. drain         in-flight episodes finish (their results land in the open groups and the queue);
 *   4. go on         continue-as-new every K steps or when Temporal suggests it; else return the run's summary.
 *
 * Signals: pause, resume (also ends a pause by the circuit breaker or the mismatch alarm), stop (after the current
 * step). Update: setPoolSize. Query: progress. Memo: trainingState, pauseReason, pauseCause and the guards' counts.
 * Search attribute: PolicyVersion, the served version (`--query 'WorkflowType="TrainingRunWorkflow" AND PolicyVersion >= 2'`).
 *   temporal workflow start --type TrainingRunWorkflow --task-queue debugrl --input '{"steps":10,"groupSize":12}'
 */
import { continueAsNew, defineQuery, defineSignal, defineUpdate, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { parseInput } from '../common/boundary';
import { curriculumSummary } from '../common/curriculum';
import { groupSizeBounds } from '../common/group-size';
import { Failure, NON_RETRYABLE } from '../common/failures';
import { runSettings, servedAdapterName, TrainingRunInput, type StepPoint, type TrainingProgress } from '../common/training';
import { emptyZeroSignalCounts, zeroSignalWarning } from '../common/zero-signal';
import type { AttestationActivities } from '../activities/attestation';
import type { AdapterActivities, LearnerActivities } from '../activities/learner';
import type { RlInitActivities } from '../activities/rl-init';
import type { TrainingActivities } from '../activities/training-coordinator';
import { runLearner, tagPolicyVersion } from './training/learner-steps';
import { policyAt, runRollouts } from './training/rollouts';
import { healthProgress, pauseRun, probeUntilClosed, resumeRun, writeMemo } from './training/run-health';
import { arrivingState, freshLive, freshState, type Run, type RunState } from './training/run-state';

export type { RunState } from './training/run-state';

/** null until the run has registered itself (its first activity). */
export const progressQuery = defineQuery<TrainingProgress | null>('progress');
export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
export const stopSignal = defineSignal('stop');
export const setPoolSizeUpdate = defineUpdate<number, [number]>('setPoolSize');

/** The run's summary; the per-step points are in PostgreSQL (training_points) and the training report. */
export interface TrainingRunResult {
  runId: string;
  steps: number;
  version: number;
  policy: string;
  lastStep: StepPoint | null;
}

const store = proxyActivities<TrainingActivities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 50, nonRetryableErrorTypes: [Failure.InvalidInput] },
});
/** Attestation asks the server a question: a few quick tries, then the answer is "it does not answer". */
const health = proxyActivities<AttestationActivities>({
  startToCloseTimeout: '3m',
  retry: { initialInterval: '2s', maximumInterval: '10s', maximumAttempts: 3, nonRetryableErrorTypes: [Failure.InvalidInput] },
});

export async function TrainingRunWorkflow(rawInput: unknown, carried?: RunState): Promise<TrainingRunResult> {
  const run = setUp(rawInput, carried);
  registerHandlers(run);
  await begin(run, carried);
  await train(run);
  if (!run.live.stopping && run.state.step < run.cfg.steps) {
    await continueAsNew<typeof TrainingRunWorkflow>(run.cfg, { ...run.state, poolSize: run.live.poolSize, adapterScope: run.scope });
  }
  run.live.phase = 'finished';
  return { runId: run.runId, steps: run.state.step, version: run.state.version, policy: policyAt(run, run.state.version), lastStep: run.state.lastStep ?? null };
}

/** The run's settings and which shapes it has. Markers are read here, before any command, in the order they came. */
function setUp(rawInput: unknown, carried: RunState | undefined): Run {
  const cfg = parseInput(TrainingRunInput, rawInput, 'TrainingRunWorkflow');
  const info = workflowInfo();
  const runId = cfg.runId ?? info.workflowId;
  // Adapters are served as `<run>--policy-v<N>` (see servedAdapterName); histories from before that keep the bare name,
  // and a run continued-as-new keeps the names it started with.
  const scope = carried ? (carried.adapterScope ?? null) : patched('per-run-adapter-names') ? runId : null;
  /** RL from an init adapter (2026-12-03): version 0 is that adapter, published under the run's scoped name before any
   * episode runs, so episodes at v0 use it; the learner's KL reference is it too (activities/rl-init.ts). */
  const fromInit = cfg.initAdapter !== undefined && patched('rl-init-adapter');
  /** Dynamic sampling, 2026-12-03: a zero-signal group is not queued and another is sampled in its place. Histories
   * from before queue every group (they are still counted). */
  const dropZeroSignal = cfg.dropZeroSignalGroups && patched('drop-zero-signal-groups');
  /** Dynamic group size, 2026-12-05 (common/group-size.ts): with a range or a hardware profile, each new group is sized
   * for its task. Only such runs record the marker; the others keep groupSize, as before. */
  const bounds = groupSizeBounds(cfg);
  const groupSizes = bounds !== null && patched('dynamic-group-size') ? bounds : null;
  /** Behaviour-cloning replay of an SFT corpus: trainStep picks each step's examples by the seed and the step. */
  const settings = runSettings(cfg);
  const bc = cfg.bcCorpus !== undefined ? { corpus: cfg.bcCorpus, weight: settings.bcWeight, examples: settings.bcExamples, seed: cfg.seed } : undefined;
  const gpu = proxyActivities<LearnerActivities & AdapterActivities & RlInitActivities>({
    taskQueue: cfg.learnerTaskQueue,
    startToCloseTimeout: '2h',
    heartbeatTimeout: '2m',
    retry: { initialInterval: '5s', maximumInterval: '1m', maximumAttempts: 20, nonRetryableErrorTypes: NON_RETRYABLE.learner },
  });
  // Until begin() the state is a placeholder: the query answers null and nothing reads it.
  const state = carried ? arrivingState(carried) : ({} as RunState);
  return {
    cfg, settings, runId, firstExecutionRunId: info.firstExecutionRunId, scope, fromInit, dropZeroSignal, bc, state,
    countSealing: false, queueAccounting: false, guards: false, groupSizes, versionAttribute: false,
    live: freshLive(state, carried?.poolSize ?? cfg.poolSize),
    store, gpu, health,
  };
}

/** Handlers first, before any await: a signal or update sent right after the start must find them. */
function registerHandlers(run: Run): void {
  setHandler(pauseSignal, () => pauseRun(run, 'signal', 'the pause signal; send resume to go on'));
  setHandler(resumeSignal, () => resumeRun(run, true));
  setHandler(stopSignal, () => void (run.live.stopping = true));
  setHandler(setPoolSizeUpdate, (n) => (run.live.poolSize = n), {
    validator: (n) => {
      if (!Number.isInteger(n) || n < 1 || n > 1024) throw new Error(`setPoolSize: must be an integer from 1 to 1024, got ${n}`);
    },
  });
  setHandler(progressQuery, () => (run.live.phase === 'starting' ? null : progressOf(run)));
}

function progressOf(run: Run): TrainingProgress {
  const { state, live, cfg, settings } = run;
  const seconds = Math.max(1, (Date.now() - state.startedAtMs) / 1000);
  const z = state.zeroSignal ?? emptyZeroSignalCounts();
  return {
    runId: run.runId, phase: state.pause && live.phase === 'running' ? 'paused' : live.phase, policyVersion: state.version, step: state.step, steps: cfg.steps,
    poolSize: live.poolSize, running: live.running, episodesDone: state.episodesDone, infraFailures: state.infraFailures, groupsOpen: state.open.length,
    groupsQueued: state.queued.length, groupsFailed: state.groupsFailed, staleGroupsRejected: state.staleGroupsRejected,
    rolloutsPerSecond: state.episodesDone / seconds, lagHistogram: state.lagHistogram, curriculum: curriculumSummary(state.curriculum),
    lastStep: state.lastStep ?? null, startedAtMs: state.startedAtMs,
    zeroSignal: {
      groups: z.groups, zeroSignal: z.zeroSignal, share: z.groups ? z.zeroSignal / z.groups : 0, dropped: z.dropped, trained: z.trained, streak: z.streak,
      patience: settings.zeroSignalPatience, dropEnabled: run.dropZeroSignal,
      warning: zeroSignalWarning(z, settings.zeroSignalPatience, run.dropZeroSignal),
    },
    pause: state.pause ?? null,
    health: healthProgress(run),
  };
}

/** 1. Register the run (a resumed run continues from PostgreSQL) or take the carried state; publish the init adapter. */
async function begin(run: Run, carried: RunState | undefined): Promise<void> {
  const { cfg, runId, scope } = run;
  if (!carried) {
    const begun = await store.beginTrainingRun({ runId, workflowId: workflowInfo().workflowId, input: cfg });
    // A pause signalled before the run registered itself holds.
    const early = run.state.pause;
    run.state = Object.assign(run.state, freshState(begun, cfg, Date.now()), early ? { pause: early, paused: true } : {});
    run.live.firstStep = run.state.step;
  }
  if (run.fromInit && !carried && run.state.step === 0) {
    // The learner starts from the init adapter and writes it as the first version; the server serves it from now on.
    const init = await run.gpu.prepareInitialPolicy({ runId, initAdapter: cfg.initAdapter!, learner: cfg.learner, maxPolicyLag: cfg.maxPolicyLag, ...(run.bc ? { bcWeight: run.bc.weight } : {}) });
    await run.gpu.publishAdapter({ runId, version: init.version, adapterPath: init.adapterPath, keep: cfg.maxPolicyLag + 1, ...(scope ? { name: servedAdapterName(scope, init.version) } : {}) });
    run.state.adapterPath = init.adapterPath;
  }
  /** Groups whose sealGroup activity is in flight count toward the groups the run still needs (infra/check-training-chaos
   * saw 4 groups sealed in a 3-step run). Patched: it changes when a new group's first child starts. */
  run.countSealing = patched('count-sealing-groups');
  /** Queue accounting, 2026-12-02: a trained step counts before its adapter publishes, and a group being sealed counts
   * toward the high mark. */
  run.queueAccounting = patched('queue-accounting-v2');
  /** The circuit breaker, continuous attestation, the mismatch alarm and the memo, 2026-12-03 (run-health.ts). */
  run.guards = patched('training-run-guards');
  /** The PolicyVersion search attribute, 2026-12-05: the version the run starts (or resumes, or continues) at, then
   * every published version, as episodes carry theirs. */
  run.versionAttribute = patched('training-policy-version-attribute');
  tagPolicyVersion(run);
  run.live.phase = 'running';
  run.live.blocked = run.state.queued.length >= run.settings.highWater;
  writeMemo(run);
  if (run.state.pause?.reason === 'circuit-breaker') void probeUntilClosed(run);
}

/** 2-3. The learner loop and the rollout slots side by side; then the in-flight episodes drain. */
async function train(run: Run): Promise<void> {
  const { live } = run;
  const learner = runLearner(run).finally(() => {
    live.chunkOver = true;
    live.learnerDone = true;
  });
  learner.catch((e) => (live.learnerFailed = e));
  const inFlight = await runRollouts(run);
  live.phase = 'stopping';
  await Promise.all(inFlight);
  await learner.catch(() => undefined);
  if (live.learnerFailed !== undefined) {
    live.phase = 'failed';
    throw live.learnerFailed;
  }
}
