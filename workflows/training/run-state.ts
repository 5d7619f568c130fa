/**
 * TrainingRunWorkflow's state: what continue-as-new carries (RunState, small: ids, counters, the curriculum, the open
 * groups), what lives only in one execution (RunLive), and the run's fixed settings (Run). Every step's point is in
 * PostgreSQL (training_points, written by recordTrainingStep); the state keeps only the newest one, for the progress
 * line. Deterministic workflow code.
 */
import type { ActivityInterfaceFor } from '@temporalio/workflow';
import type { AttestationActivities } from '../../activities/attestation';
import type { AdapterActivities, LearnerActivities } from '../../activities/learner';
import type { RlInitActivities } from '../../activities/rl-init';
import type { TrainingActivities } from '../../activities/training-coordinator';
import { closedBreaker, type BreakerState, type FailureCause } from '../../common/circuit-breaker';
import { initialCurriculum, type CurriculumState } from '../../common/curriculum';
import type { GroupSizeBounds } from '../../common/group-size';
import { quietAlarm, type AlarmState } from '../../common/mismatch-alarm';
import type { GroupEpisode, RunPause, runSettings, StepPoint, TrainingProgress, TrainingRunConfig } from '../../common/training';
import { emptyZeroSignalCounts, type ZeroSignalCounts } from '../../common/zero-signal';

export interface OpenGroup {
  groupId: string;
  taskId: string;
  done: GroupEpisode[];
  inFlight: number;
  infraFailures: number;
  nextEpisode: number;
  openedAtMs: number;
  /** Episodes it seals full at (common/group-size.ts), chosen when it opened; absent: the run's groupSize (fixed-size
   * runs, and groups carried from before dynamic sizing). */
  size?: number;
  /** The newest infrastructure failure's cause: what the circuit breaker counts when the group fails. */
  lastFailure?: FailureCause | null;
}

/** Attestations of the served adapter (workflows/training/run-health.ts). */
export interface AttestationCounts {
  checks: number;
  republished: number;
  last: string | null;
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
  episodesDone: number;
  infraFailures: number;
  groupsFailed: number;
  staleGroupsRejected: number;
  lagHistogram: Record<string, number>;
  poolSize: number;
  /** The pause signal's flag, as runs from before the run-health guards carry it; `pause` says why. */
  paused: boolean;
  startedAtMs: number;
  busyMs: number;
  /** The served adapters' run scope (servedAdapterName); absent in state carried from before the scoped names. */
  adapterScope?: string | null;
  /** Zero-signal group counters; absent in state carried from before they were counted. */
  zeroSignal?: ZeroSignalCounts;
  /** The newest step's point (all of them are in training_points). */
  lastStep?: StepPoint | null;
  /** The folder of the current version's adapter, for a re-publication (null at the base model). */
  adapterPath?: string | null;
  /** Why the run is paused (the signal, the circuit breaker or the mismatch alarm); null while it runs. */
  pause?: RunPause | null;
  breaker?: BreakerState;
  alarm?: AlarmState;
  attestation?: AttestationCounts;
}

/** State as runs from before 2026-12-03 carried it: every step point, up to 500 (about 225 KB). */
type LegacyRunState = RunState & { perStep?: StepPoint[] };

/** The carried state without the per-step history (its newest point is kept), with the guards' counters. */
export function arrivingState(carried: LegacyRunState): RunState {
  const { perStep, ...state } = carried;
  return withCounters({ ...state, lastStep: state.lastStep ?? perStep?.at(-1) ?? null });
}

/** A new run's state, from what beginTrainingRun found in PostgreSQL (a resumed run continues its step and curriculum). */
export function freshState(begun: Awaited<ReturnType<TrainingActivities['beginTrainingRun']>>, cfg: TrainingRunConfig, nowMs: number): RunState {
  return withCounters({
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
    episodesDone: 0,
    infraFailures: 0,
    groupsFailed: 0,
    staleGroupsRejected: 0,
    lagHistogram: {},
    poolSize: cfg.poolSize,
    paused: false,
    startedAtMs: nowMs,
    busyMs: 0,
    lastStep: null,
  });
}

function withCounters(s: RunState): RunState {
  return {
    ...s,
    zeroSignal: s.zeroSignal ?? emptyZeroSignalCounts(),
    breaker: s.breaker ?? closedBreaker(),
    alarm: s.alarm ?? quietAlarm(),
    attestation: s.attestation ?? { checks: 0, republished: 0, last: null },
    pause: s.pause ?? (s.paused ? { reason: 'signal', cause: 'the pause signal', sinceMs: s.startedAtMs } : null),
  };
}

/** mulberry32: a small deterministic PRNG whose state survives continue-as-new (workflow code may not use Math.random). */
export function nextRandom(state: RunState): number {
  let t = (state.rng = (state.rng + 0x6d2b79f5) >>> 0);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** What one execution knows besides the carried state; reset by continue-as-new. */
export interface RunLive {
  phase: TrainingProgress['phase'];
  poolSize: number;
  /** Child episodes running now. */
  running: number;
  stopping: boolean;
  /** At the queue's high mark: no episode starts until the queue drains to the low mark. */
  blocked: boolean;
  /** Groups whose sealGroup activity is in flight: no longer open, not yet queued. */
  sealing: number;
  /** This execution's steps are done (continue-as-new follows once in-flight episodes drain). */
  chunkOver: boolean;
  /** The learner loop has ended (attestations are served there). */
  learnerDone: boolean;
  learnerFailed: unknown;
  firstStep: number;
  /** Round-robin's cursor: the group that got the last episode. */
  lastAssigned: string | null;
  /** An attestation the learner loop is asked to run (the reason), and how many it has finished, with the last one's
   * answer: requestAttestation waits for the count to move. */
  attestRequest: string | null;
  attestSeq: number;
  attestOk: boolean;
  /** Episodes in a row that got a 404 for the run's current adapter (retried without counting against their group
   * while an attestation re-publishes it; past a bound they count like any failure). */
  unservedStreak: number;
  /** A breaker probe is running. */
  probing: boolean;
}

/** The run: its settings, which shapes it has (patched markers), its activities, and its state. */
export interface Run {
  cfg: TrainingRunConfig;
  settings: ReturnType<typeof runSettings>;
  runId: string;
  /** The first execution's run id: group ids carry six characters of it. */
  firstExecutionRunId: string;
  scope: string | null;
  fromInit: boolean;
  dropZeroSignal: boolean;
  countSealing: boolean;
  queueAccounting: boolean;
  /** Circuit breaker, attestation, mismatch alarm and memo (patched 'training-run-guards', 2026-12-03). */
  guards: boolean;
  /** The run's dynamic group-size range (patched 'dynamic-group-size', 2026-12-05); null: every group has groupSize. */
  groupSizes: GroupSizeBounds | null;
  /** The PolicyVersion search attribute follows the run's version (patched 'training-policy-version-attribute'). */
  versionAttribute: boolean;
  bc: { corpus: string; weight: number; examples: number; seed: number } | undefined;
  state: RunState;
  live: RunLive;
  store: ActivityInterfaceFor<TrainingActivities>;
  gpu: ActivityInterfaceFor<LearnerActivities & AdapterActivities & RlInitActivities>;
  health: ActivityInterfaceFor<AttestationActivities>;
}

export function freshLive(state: RunState, poolSize: number): RunLive {
  return {
    phase: 'starting', poolSize, running: 0, stopping: false, blocked: false, sealing: 0, chunkOver: false, learnerDone: false, learnerFailed: undefined,
    firstStep: state.step, lastAssigned: null, attestRequest: null, attestSeq: 0, attestOk: false, unservedStreak: 0, probing: false,
  };
}
