/**
 * TrainingRunWorkflow: the GRPO coordinator (the seed's coordinator, as a durable workflow).
 *
 *   rollouts:  P slots, each a child EpisodeWorkflow; a finished slot starts the next episode at once (no batch
 *              barrier). The next episode goes to the open group nearest completion, counting episodes in flight;
 *              a new group (task from the curriculum) opens only when no open group can take one more
 *              (`assignment: 'fill-nearest'`, the default; 'round-robin' deals in turn, see common/assignment.ts).
 *   groups:    n episodes of one task. Sealed when n scored trajectories are in, or, after sealTimeout, with at least
 *              minToSeal (the seed: 8 of 12). An infrastructure failure is retried in a fresh sandbox and never
 *              scored; past its retries the whole group fails rather than train on a biased partial group.
 *   signal:    a group whose rewards are all equal has zero advantage (common/zero-signal.ts). With
 *              dropZeroSignalGroups (the default) it is stored but neither sent to Kafka nor queued, and the run samples
 *              another group in its place (DAPO's dynamic sampling), until zeroSignalPatience such groups in a row: then
 *              they are trained anyway and the progress query says so. Each step point counts them.
 *   training:  a sealed group is a record in PostgreSQL and Kafka (activity sealGroup); Temporal carries its id.
 *              When groupsPerStep are queued, trainStep runs on the GPU worker, then publishAdapter; new episodes use
 *              the newest adapter. At the queue's high-water mark no new episode starts; below the low mark (at or
 *              under it) assignment resumes.
 *   lifetime:  continue-as-new every K steps or when Temporal suggests it, after in-flight episodes drain, carrying
 *              the version, step, curriculum, open groups and queue.
 *
 * Signals: pause, resume, stop (after the current step). Update: setPoolSize. Query: progress.
 *   temporal workflow start --type TrainingRunWorkflow --task-queue debugrl --input '{"steps":10,"groupSize":12}'
 */
import {
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  defineUpdate,
  executeChild,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { nextGroup } from '../common/assignment';
import { parseInput } from '../common/boundary';
import { curriculumSummary, foldGroupEpisodes, initialCurriculum, pickTask } from '../common/curriculum';
import { emptyZeroSignalCounts, foldSealedGroup, zeroSignalWarning, type ZeroSignalCounts } from '../common/zero-signal';
import { policySpecFor, runSettings, servedAdapterName, TrainingRunInput, type GroupEpisode, type StepPoint, type StepResult, type TrainingProgress } from '../common/training';
import type { AdapterActivities } from '../activities/adapters';
import type { LearnerActivities } from '../activities/learner';
import type { RlInitActivities } from '../activities/rl-init';
import type { TrainingActivities } from '../activities/training-store';
import { EpisodeWorkflow } from './episode';
import { EvaluationWorkflow } from './evaluation';

/** null until the run has registered itself (its first activity). */
export const progressQuery = defineQuery<TrainingProgress | null>('progress');
export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
export const stopSignal = defineSignal('stop');
export const setPoolSizeUpdate = defineUpdate<number, [number]>('setPoolSize');

const store = proxyActivities<TrainingActivities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 50, nonRetryableErrorTypes: ['InvalidInput'] },
});

type CurriculumState = ReturnType<typeof initialCurriculum>;

interface OpenGroup {
  groupId: string;
  taskId: string;
  done: GroupEpisode[];
  inFlight: number;
  infraFailures: number;
  nextEpisode: number;
  openedAtMs: number;
}

/** Everything continue-as-new carries. */
export interface RunState {
  version: number;
  step: number;
  groupSeq: number;
  open: OpenGroup[];
  queued: string[];
  curriculum: CurriculumState;
  rng: number;
  perStep: StepPoint[];
  episodesDone: number;
  infraFailures: number;
  groupsFailed: number;
  staleGroupsRejected: number;
  lagHistogram: Record<string, number>;
  poolSize: number;
  paused: boolean;
  startedAtMs: number;
  busyMs: number;
  /** The served adapters' run scope (servedAdapterName); absent in state carried from before the scoped names. */
  adapterScope?: string | null;
  /** Zero-signal group counters; absent in state carried from before they were counted. */
  zeroSignal?: ZeroSignalCounts;
}

/** mulberry32: a small deterministic PRNG whose state survives continue-as-new (workflow code may not use Math.random). */
function nextRandom(state: RunState): number {
  let t = (state.rng = (state.rng + 0x6d2b79f5) >>> 0);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export async function TrainingRunWorkflow(rawInput: unknown, carried?: RunState): Promise<{ runId: string; steps: number; version: number; perStep: StepPoint[]; policy?: string }> {
  const cfg = parseInput(TrainingRunInput, rawInput, 'TrainingRunWorkflow');
  const { minToSeal, highWater, lowWater, zeroSignalPatience } = runSettings(cfg);
  const info = workflowInfo();
  const runId = cfg.runId ?? info.workflowId;
  // Adapters are served as `<run>.policy-v<N>` (see servedAdapterName); histories from before that keep the bare name,
  // and a run continued-as-new keeps the names it started with.
  const scope = carried ? (carried.adapterScope ?? null) : patched('per-run-adapter-names') ? runId : null;
  /** RL from an init adapter (2026-12-03): version 0 is that adapter, published under the run's scoped name before any
   * episode runs, so episodes at v0 use it; the learner's KL reference is it too (activities/rl-init.ts). */
  const fromInit = cfg.initAdapter !== undefined && patched('rl-init-adapter');
  const policyAt = (version: number) => policySpecFor(cfg.policy, version, scope, fromInit);
  /** Behaviour-cloning replay of an SFT corpus: trainStep picks each step's examples by the seed and the step. */
  const { bcWeight, bcExamples } = runSettings(cfg);
  const bc = cfg.bcCorpus !== undefined ? { corpus: cfg.bcCorpus, weight: bcWeight, examples: bcExamples, seed: cfg.seed } : undefined;
  /** Dynamic sampling, 2026-12-03: a zero-signal group is not queued and another is sampled in its place. Histories
   * from before queue every group (they are still counted). */
  const dropZeroSignal = cfg.dropZeroSignalGroups && patched('drop-zero-signal-groups');
  const gpu = proxyActivities<LearnerActivities & AdapterActivities & RlInitActivities>({
    taskQueue: cfg.learnerTaskQueue,
    startToCloseTimeout: '2h',
    heartbeatTimeout: '2m',
    retry: { initialInterval: '5s', maximumInterval: '1m', maximumAttempts: 20, nonRetryableErrorTypes: ['InvalidInput', 'InvalidBatch', 'StepOutOfOrder', 'AdapterMismatch', 'AdapterRejected', 'AdapterNotServed'] },
  });

  // Handlers first, before any await: a signal or update sent right after the start must find them.
  let state!: RunState;
  let started = false;
  let poolSize = carried?.poolSize ?? cfg.poolSize;
  let paused = carried?.paused ?? false;
  let running = 0;
  let stopping = false;
  let phase: TrainingProgress['phase'] = 'starting';
  setHandler(pauseSignal, () => void (paused = true));
  setHandler(resumeSignal, () => void (paused = false));
  setHandler(stopSignal, () => void (stopping = true));
  setHandler(setPoolSizeUpdate, (n) => (poolSize = n), {
    validator: (n) => {
      if (!Number.isInteger(n) || n < 1 || n > 1024) throw new Error(`setPoolSize: must be an integer from 1 to 1024, got ${n}`);
    },
  });
  setHandler(progressQuery, (): TrainingProgress | null => {
    if (!started) return null;
    const seconds = Math.max(1, (Date.now() - state.startedAtMs) / 1000);
    return {
      runId, phase: paused && phase === 'running' ? 'paused' : phase, policyVersion: state.version, step: state.step, steps: cfg.steps,
      poolSize, running, episodesDone: state.episodesDone, infraFailures: state.infraFailures, groupsOpen: state.open.length,
      groupsQueued: state.queued.length, groupsFailed: state.groupsFailed, staleGroupsRejected: state.staleGroupsRejected,
      rolloutsPerSecond: state.episodesDone / seconds, lagHistogram: state.lagHistogram, curriculum: curriculumSummary(state.curriculum),
      perStep: state.perStep, startedAtMs: state.startedAtMs, zeroSignal: zeroSignalProgress(),
    };
  });
  const zeroSignalProgress = () => {
    const z = state.zeroSignal ?? emptyZeroSignalCounts();
    return {
      groups: z.groups, zeroSignal: z.zeroSignal, share: z.groups ? z.zeroSignal / z.groups : 0, dropped: z.dropped, trained: z.trained, streak: z.streak,
      patience: zeroSignalPatience, dropEnabled: dropZeroSignal, warning: zeroSignalWarning(z, zeroSignalPatience, dropZeroSignal),
    };
  };

  if (carried) state = carried;
  else {
    const begun = await store.beginTrainingRun({ runId, workflowId: info.workflowId, input: cfg });
    state = {
      version: begun.version,
      step: begun.step,
      groupSeq: begun.groupSeq,
      open: [],
      queued: begun.queued,
      // A resumed run continues its curriculum (rebuilt from its sealed groups) and its random stream: mulberry32's
      // state after n draws is seed + n * 0x6d2b79f5, and each group it sealed drew once. Histories from before
      // beginTrainingRun returned the curriculum start afresh, as they did then.
      curriculum: begun.curriculum ?? initialCurriculum(begun.tasks),
      rng: (cfg.seed + (begun.curriculum ? Math.imul(begun.groupSeq, 0x6d2b79f5) : 0)) >>> 0,
      perStep: [],
      episodesDone: 0,
      infraFailures: 0,
      groupsFailed: 0,
      staleGroupsRejected: 0,
      lagHistogram: {},
      poolSize: cfg.poolSize,
      paused: false,
      startedAtMs: Date.now(),
      busyMs: 0,
    };
  }
  state.zeroSignal ??= emptyZeroSignalCounts();
  if (fromInit && !carried && state.step === 0) {
    // The learner starts from the init adapter and writes it as the first version; the server serves it from now on.
    const init = await gpu.prepareInitialPolicy({ runId, initAdapter: cfg.initAdapter!, learner: cfg.learner, maxPolicyLag: cfg.maxPolicyLag, ...(bc ? { bcWeight: bc.weight } : {}) });
    await gpu.publishAdapter({ runId, version: init.version, adapterPath: init.adapterPath, keep: cfg.maxPolicyLag + 1, ...(scope ? { name: servedAdapterName(scope, init.version) } : {}) });
  }
  started = true;
  phase = 'running';
  let blocked = state.queued.length >= highWater;
  const firstStep = state.step;

  /** Groups whose sealGroup activity is in flight: no longer open, not yet queued. Counted, or the rollout loop opens a
   * group the run does not need while one seals (infra/check-training-chaos saw 4 groups sealed in a 3-step run).
   * Zero at continue-as-new (in-flight episodes drain first). Patched: it changes when a new group's first child starts. */
  let sealing = 0;
  const countSealing = patched('count-sealing-groups');
  /** Queue accounting, 2026-12-02: a trained step counts before its adapter publishes, and a group being sealed counts
   * toward the high mark. */
  const queueAccounting = patched('queue-accounting-v2');
  /** Groups the remaining steps still need, beyond those queued, sealing or open: none are opened past the run's end. */
  const needsNewGroup = () => state.queued.length + (countSealing ? sealing : 0) + state.open.length < (cfg.steps - state.step) * cfg.groupsPerStep;
  const stepsLeft = () => state.step < cfg.steps && !stopping;
  const chunkDone = () => state.step - firstStep >= cfg.continueAsNewEvery || (state.step > firstStep && workflowInfo().continueAsNewSuggested);
  let chunkOver = false;

  // --- groups ---------------------------------------------------------------------------------------------------

  /** Round-robin's cursor: the group that got the last episode (not carried: after continue-as-new the turn restarts
   * at the oldest open group). Fill-nearest ignores it. */
  let lastAssigned: string | null = null;
  const pickGroup = () =>
    nextGroup(cfg.assignment, {
      groups: state.open.map((g) => ({ done: g.done.length, inFlight: g.inFlight })),
      groupSize: cfg.groupSize,
      mayOpen: needsNewGroup(),
      poolSize,
      last: state.open.findIndex((g) => g.groupId === lastAssigned),
    });

  /** The open group that takes the next episode (by default the one nearest completion, counting in-flight
   * episodes, that can take one more); else a new group, if the run still needs one. */
  function groupForNextEpisode(): OpenGroup | null {
    const pick = pickGroup();
    if (pick === null) return null;
    if (pick !== 'new') {
      lastAssigned = state.open[pick].groupId;
      return state.open[pick];
    }
    const { taskId } = pickTask(state.curriculum, nextRandom(state));
    const g: OpenGroup = { groupId: `${runId}.${info.firstExecutionRunId.slice(0, 6)}.g${++state.groupSeq}`, taskId, done: [], inFlight: 0, infraFailures: 0, nextEpisode: 0, openedAtMs: Date.now() };
    state.open.push(g);
    lastAssigned = g.groupId;
    return g;
  }

  async function seal(g: OpenGroup, reason: 'full' | 'partial-timeout'): Promise<void> {
    state.open = state.open.filter((x) => x !== g);
    sealing++;
    // A group being sealed already counts toward the high mark: no episode starts while its record is written.
    const wasBlocked = blocked;
    if (queueAccounting && state.queued.length + sealing >= highWater) blocked = true;
    // Decided as the group seals, in sealing order, so the streak is the order groups came in.
    const signal = foldSealedGroup(state.zeroSignal!, { groupId: g.groupId, rewards: g.done.map((e) => e.reward), dropEnabled: dropZeroSignal, patience: zeroSignalPatience });
    state.zeroSignal = signal.counts;
    const dropped = signal.action === 'drop';
    await store.sealGroup({ runId, groupId: g.groupId, taskId: g.taskId, episodes: g.done, sealedReason: reason, infraFailures: g.infraFailures, ...(dropped ? { dropped: 'zero-signal' as const } : {}) }).finally(() => sealing--);
    state.curriculum = foldGroupEpisodes(state.curriculum, g.taskId, g.done);
    if (dropped) {
      // Stored for the record and the curriculum; the rollout loop opens another group in its place. The mark this
      // group reached while sealing was never a queued group: lift the block it set, or a run whose queue is empty
      // would wait forever for a step.
      if (!wasBlocked && state.queued.length + sealing < highWater) blocked = false;
      return;
    }
    state.queued.push(g.groupId);
    if (state.queued.length >= highWater) blocked = true;
  }

  function failGroup(g: OpenGroup): void {
    state.open = state.open.filter((x) => x !== g);
    state.groupsFailed++;
  }

  async function runEpisode(g: OpenGroup): Promise<void> {
    const k = g.nextEpisode++;
    g.inFlight++;
    running++;
    const policy = policyAt(state.version);
    let outcome: GroupEpisode | null = null;
    try {
      const child = await startChild(EpisodeWorkflow, {
        workflowId: `${g.groupId}.e${k}`,
        args: [{ taskId: g.taskId, policy, toolset: cfg.toolset, limits: cfg.limits, seed: state.groupSeq * 1000 + k, evaluationId: runId, arm: g.groupId, sandboxScheduleToStartSeconds: cfg.sandboxScheduleToStartSeconds }],
      });
      const result = await child.result();
      if (result.exitReason !== 'error') {
        const scored = await store.scoreEpisode({ episodeId: result.episodeId, taskId: g.taskId });
        if (scored.scorable) outcome = scored.episode;
      }
    } catch {
      outcome = null; // the child failed: infrastructure, never a 0 reward
    } finally {
      g.inFlight--;
      running--;
      state.episodesDone++;
    }
    if (!state.open.includes(g)) return; // sealed on timeout or failed meanwhile
    if (!outcome) {
      state.infraFailures++;
      if (++g.infraFailures > cfg.infraRetries) failGroup(g);
      return;
    }
    g.done.push(outcome);
    if (g.done.length >= cfg.groupSize) await seal(g, 'full');
  }

  // --- learner --------------------------------------------------------------------------------------------------

  async function learnerLoop(): Promise<void> {
    while (stepsLeft() && !chunkOver) {
      await condition(() => state.queued.length >= cfg.groupsPerStep || stopping);
      if (stopping) break;
      const res: StepResult = await gpu.trainStep({
        runId, step: state.step + 1, groups: cfg.groupsPerStep, maxPolicyLag: cfg.maxPolicyLag, learner: cfg.learner,
        ...(fromInit ? { initAdapter: cfg.initAdapter } : {}), ...(bc ? { bc } : {}),
      });
      const consumed = new Set([...res.trainedGroups, ...res.rejectedGroups.map((g) => g.groupId)]);
      state.queued = state.queued.filter((id) => !consumed.has(id));
      const zs = state.zeroSignal!;
      const zeroSignalTrained = res.trainedGroups.filter((id) => zs.queuedIds.includes(id)).length;
      const zeroSignalDropped = zs.droppedSinceStep;
      state.zeroSignal = { ...zs, queuedIds: zs.queuedIds.filter((id) => !consumed.has(id)), droppedSinceStep: 0 };
      // The trained groups have left the queue: count their step at once, or the rollout loop sees one step's groups
      // missing while the adapter publishes and opens a group the run will never train.
      if (queueAccounting) state.step = res.step;
      if (res.versionAfter > state.version && res.adapterPath) {
        await gpu.publishAdapter({ runId, version: res.versionAfter, adapterPath: res.adapterPath, keep: cfg.maxPolicyLag + 1, ...(scope ? { name: servedAdapterName(scope, res.versionAfter) } : {}) });
        state.version = res.versionAfter;
      }
      state.step = res.step;
      state.busyMs += res.busyMs;
      state.staleGroupsRejected += res.rejectedGroups.filter((g) => g.reason === 'policy-lag').length;
      for (const [lag, n] of Object.entries(res.lagHistogram)) state.lagHistogram[lag] = (state.lagHistogram[lag] ?? 0) + n;
      if (state.queued.length <= lowWater) blocked = false;
      let validationPass1: number | null = null;
      if (cfg.evalEvery && state.step % cfg.evalEvery === 0) {
        const ev = await executeChild(EvaluationWorkflow, {
          workflowId: `${runId}.eval-step${state.step}`,
          args: [{ policy: policyAt(state.version), split: 'validation', maxTasks: cfg.evalMaxTasks, episodesPerTask: 1, k: 1, limits: cfg.limits, concurrency: Math.max(1, Math.min(4, poolSize)) }],
        });
        validationPass1 = ev.arms[0]?.passAt1 ?? null;
      }
      const m = res.metrics;
      const num = (k: string) => (m && typeof m[k] === 'number' ? (m[k] as number) : null);
      const summary = curriculumSummary(state.curriculum);
      state.perStep.push({
        step: state.step, version: state.version, meanReward: res.meanReward, passRate: res.passRate, trained: res.trainedGroups.length,
        staleGroups: res.rejectedGroups.filter((g) => g.reason === 'policy-lag').length, rejectedTrajectories: res.rejectedTrajectories.length,
        klMean: num('kl_mean'), clipLow: num('clip_frac_low'), clipHigh: num('clip_frac_high'), ratioMean: num('ratio_mean'), offpolicyWeightMean: num('offpolicy_weight_mean'),
        busyFraction: state.busyMs / Math.max(1, Date.now() - state.startedAtMs), lag0MeanAbsLogRatio: res.lag0?.meanAbsLogRatio ?? null,
        curriculumPhase: summary.phase, share3070: summary.share30to70, validationPass1, zeroSignalDropped, zeroSignalTrained,
        bcLoss: num('sft_examples_trained') ? num('loss_bc') : null, atMs: Date.now(),
      });
      if (state.perStep.length > 500) state.perStep.shift();
      await store.recordTrainingStep({ runId, point: state.perStep[state.perStep.length - 1] });
      if (chunkDone()) chunkOver = true;
    }
  }

  // --- rollouts -------------------------------------------------------------------------------------------------

  const inFlight = new Set<Promise<void>>();
  const learner = learnerLoop().finally(() => (chunkOver = true));
  let learnerFailed: unknown;
  learner.catch((e) => (learnerFailed = e));

  const rolloutsWanted = () => !stopping && !chunkOver && stepsLeft() && learnerFailed === undefined;
  const mayStart = () => rolloutsWanted() && !paused && !blocked && running < poolSize;
  while (rolloutsWanted()) {
    const now = Date.now();
    const deadlines = state.open.filter((g) => g.done.length >= minToSeal).map((g) => g.openedAtMs + cfg.sealTimeoutSeconds * 1000 - now);
    const wait = deadlines.length ? Math.max(0, Math.min(...deadlines)) : undefined;
    const wake = () => !rolloutsWanted() || (mayStart() && groupForNextEpisodeAvailable()) || expiredGroup() !== null;
    const woke = wait === undefined ? (await condition(wake), true) : await condition(wake, wait);
    const late = expiredGroup();
    if (late) {
      await seal(late, 'partial-timeout');
      continue;
    }
    if (!woke || !mayStart()) continue;
    const g = groupForNextEpisode();
    if (!g) continue;
    const p: Promise<void> = runEpisode(g).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  function groupForNextEpisodeAvailable(): boolean {
    return pickGroup() !== null;
  }
  function expiredGroup(): OpenGroup | null {
    const now = Date.now();
    return state.open.find((g) => g.done.length >= minToSeal && now - g.openedAtMs >= cfg.sealTimeoutSeconds * 1000) ?? null;
  }

  phase = 'stopping';
  await Promise.all(inFlight);
  await learner.catch(() => undefined);
  if (learnerFailed !== undefined) {
    phase = 'failed';
    throw learnerFailed;
  }
  if (!stopping && state.step < cfg.steps) {
    // drained: the episodes that finished meanwhile are in the open groups and the queue
    await continueAsNew<typeof TrainingRunWorkflow>(cfg, { ...state, poolSize, paused, adapterScope: scope });
  }
  phase = 'finished';
  return { runId, steps: state.step, version: state.version, perStep: state.perStep, policy: policyAt(state.version) };
}
