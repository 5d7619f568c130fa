/** GRPO training: the run's input, the group record (the claim check on Kafka `training-groups`), the step result and
 * the coordinator's progress. Pure: shared by the workflow, the activities and the CLI. */
import { z } from 'zod';
import { Assignment } from './assignment';
import type { CurriculumSummary } from './curriculum';
import { EpisodeLimits, Toolset } from './episode';
import { GroupSizeRange } from './group-size';
import { HardwareProfileName } from './hardware-profiles';
import type { TokenChainCounts } from './token-chain';
import { Split } from '../taskset/task-schema';

export const TRAINING_GROUPS_TOPIC = 'training-groups';
export const GROUP_SCHEMA = 'debugrl.training-group/v1';

/** The adapter name the learner publishes for a policy version (its folder in the run). Version 0 is the base model
 * (`embedded`), or, in a run started from an adapter (`initAdapter`), that adapter served as `<run>--policy-v0`. */
export const adapterName = (version: number) => `policy-v${version}`;
/** The name the inference server serves a run's adapter under: `<run>--policy-v<N>`. Every run shares one server, and
 * a bare `policy-v1` loaded by a second run (the main command run twice, or two runs at once) would replace the first
 * run's weights under its feet, with the same version number, so no check could notice. A null scope is the bare name
 * (runs started before the scoped names). The separator is not a "." because peft refuses dots in adapter names, and
 * an embedded server older than its fix for that still runs on machines that keep their services up. */
export const servedAdapterName = (scope: string | null, version: number) => `${scope ? `${scope}--` : ''}${adapterName(version)}`;
export const policySpecFor = (base: string, version: number, scope: string | null = null, adapterAtZero = false) =>
  version === 0 && !adapterAtZero ? base : `${base}:${servedAdapterName(scope, version)}`;
const SERVED = /^(?:([\w.-]+)--)?policy-v(\d+)$/;
/** The policy version a chat reply was served with. Our embedded server says so (`policy_version`, read from the
 * adapter's weights); vLLM does not, but names the served LoRA in `model`, which carries the version in its name.
 * Null when the reply shows neither. */
export function servedPolicyVersion(reply: { policy_version?: unknown; model?: unknown }): number | null {
  if (typeof reply.policy_version === 'number' && Number.isInteger(reply.policy_version)) return reply.policy_version;
  return typeof reply.model === 'string' ? versionOfAdapter(reply.model) : null;
}
/** The version a published adapter name (scoped or bare) encodes, or null for any other policy spec. */
export function versionOfAdapter(adapter: string | null): number | null {
  const m = adapter ? SERVED.exec(adapter) : null;
  return m ? Number(m[2]) : null;
}
/** Of the adapters a server lists, those a publication of `name` (version `version`) retires: the same run's versions
 * at or below version - keep. Other runs' adapters and anything not published by training are left alone. */
export function adaptersToRetire(listed: string[], name: string, version: number, keep: number): string[] {
  const scope = SERVED.exec(name)?.[1] ?? null;
  return listed.filter((id) => {
    const m = SERVED.exec(id);
    return m !== null && (m[1] ?? null) === scope && Number(m[2]) <= version - keep;
  });
}

export const LearnerSpec = z
  .object({
    /** `smollm2`: the embedded server's SmolLM2-135M (its cached HF folder); `tiny-moe`: the random Qwen3-MoE. */
    model: z.enum(['smollm2', 'tiny-moe']).default('smollm2'),
    /** With `smollm2`: train this transformers checkpoint folder (absolute path; config.json + safetensors + the SmolLM2
     * tokenizer) instead of the cached SmolLM2, e.g. the tiny random model the embedded server serves with `--model DIR`
     * in the learning test (tests/learning.test.ts). Server and learner must load the same folder. */
    modelDir: z.string().regex(/^\//, 'must be an absolute path').optional(),
    /** Python's default (config.py LoraConfig.rank, alpha 2 x rank); tests/learner-schema.test.ts holds them equal. */
    loraRank: z.number().int().min(1).max(256).default(16),
    /** 0 is allowed: the control arm of a learning measurement (and a mutation the learning test must fail under). */
    lr: z.number().min(0).max(1).default(1e-5),
    /** The learner's weights and compute: absent, config.py's float32 (CPU, and the canary's exact match with the
     * embedded float32 server); `bfloat16` for a GPU learner beside a bf16 vLLM (docs/recipe-3xH200.md). */
    dtype: z.enum(['float32', 'bfloat16']).optional(),
    /** Tokens per microbatch: the seed's 16,384 (what FSDP over two H200s made room for). */
    maxTokens: z.number().int().min(64).max(262_144).default(16_384),
    klCoef: z.number().min(0).default(0.01),
    /** Off-policy correction (native learner/loss.py; compared in benchmarks/offpolicy.md), with the mode's default
     * bounds. Absent: `seed_clamp`, the learner's default. */
    offpolicyMode: z.enum(['seed_clamp', 'token_tis', 'token_mask', 'seq_mask', 'geo_rs']).optional(),
    /** Policy version of the fresh adapter (tests start a learner "ahead" to exercise the lag check). */
    initialVersion: z.number().int().min(0).default(0),
    /** Score every lag-0 trajectory before training and report mean |log rho| (one extra forward, no backward). */
    checkLogprobs: z.boolean().default(false),
    /** TEST MUTATION ONLY: the learner trains on minus each advantage. tests/learning.test.ts sets it to show that the
     * learning test fails when the update's sign is wrong; never set it in a real run. */
    debugNegateAdvantages: z.boolean().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.modelDir !== undefined && v.model !== 'smollm2') ctx.addIssue({ code: 'custom', path: ['modelDir'], message: 'only with model "smollm2" (the checkpoint must use its tokenizer)' });
  });
export type LearnerSpec = z.infer<typeof LearnerSpec>;

export const TrainingRunInput = z
  .object({
    runId: z.string().regex(/^[\w.-]{1,80}$/, 'letters, digits, ".", "_" and "-" only').optional(),
    /** Base policy; published adapters are served as `<policy>:policy-v<N>`. Only the embedded server takes adapters. */
    policy: z.literal('embedded').default('embedded'),
    split: Split.default('train'),
    taskIds: z.array(z.string().regex(/^[a-z][a-z0-9_]{2,63}$/)).min(1).optional(),
    maxTasks: z.number().int().min(1).optional(),
    /** The seed's groups of 12 trajectories of one task, 4 groups per optimizer step (48 trajectories). */
    groupSize: z.number().int().min(2).max(64).default(12),
    groupsPerStep: z.number().int().min(1).max(64).default(4),
    /** Dynamic group size (common/group-size.ts): each new group gets the fewest episodes in [min, max] that make a
     * zero-signal group unlikely for its task; `min` defaults to groupSize, `max` to 16. Absent: every group has
     * groupSize. CLI `--group-size-max`. */
    groupSizeRange: GroupSizeRange.optional(),
    /** A hardware profile (common/hardware-profiles.ts) fixes the group-size range: `3xh200` at 12, as the seed. */
    profile: HardwareProfileName.optional(),
    /** A group open this long is sealed with what it has, if that is at least `minToSeal` (the seed: 8 of 12). */
    minToSeal: z.number().int().min(2).optional(),
    sealTimeoutSeconds: z.number().int().min(1).default(1800),
    steps: z.number().int().min(1).max(1_000_000),
    /** P environment slots: running child episodes. */
    poolSize: z.number().int().min(1).max(1024).default(8),
    /** Which open group the next episode joins (common/assignment.ts); round-robin is the benchmark's baseline. */
    assignment: Assignment.default('fill-nearest'),
    /** Backpressure on sealed, untrained groups: no new episode at the high mark, resume below the low mark. */
    highWater: z.number().int().min(1).optional(),
    lowWater: z.number().int().min(0).optional(),
    /** The seed's limit on async drift: groups whose oldest step is more than 4 versions behind are refused. */
    maxPolicyLag: z.number().int().min(0).max(100).default(4),
    /** Infrastructure failures retried per group before the whole group fails (never scored as 0). */
    infraRetries: z.number().int().min(0).max(100).default(3),
    limits: EpisodeLimits.default(EpisodeLimits.parse({})),
    toolset: Toolset.default('full'),
    learner: LearnerSpec.default(LearnerSpec.parse({})),
    learnerTaskQueue: z.string().min(1).default('gpu'),
    /** Every E steps a validation EvaluationWorkflow with the current adapter; 0 = never. */
    evalEvery: z.number().int().min(0).default(0),
    evalMaxTasks: z.number().int().min(1).default(5),
    /** Continue-as-new after this many steps in one run (or when Temporal suggests it). */
    continueAsNewEvery: z.number().int().min(1).default(50),
    seed: z.number().int().min(0).default(0),
    sandboxScheduleToStartSeconds: z.number().int().min(1).max(3600).default(60),
    /** RL from an adapter: `sft-v<N>` (a name under <data>/adapters, what `sft train` publishes) or a PEFT folder's
     * absolute path. The run's first version is that adapter, served as `<run>--policy-v<initialVersion>`, and the
     * learner's KL reference is it, frozen on the shared base (without it: the base model, adapters off). */
    initAdapter: z.string().min(1).optional(),
    /** Behaviour-cloning replay: an SFT corpus folder (`sft build --out`, absolute path). Each step replays `bcExamples`
     * of its train examples, chosen by the run's seed and the step, in the learner's BC term weighted `bcWeight`. */
    bcCorpus: z.string().min(1).optional(),
    bcWeight: z.number().min(0).max(100).optional(),
    bcExamples: z.number().int().min(1).max(1024).optional(),
    /** DAPO's dynamic sampling: a sealed group whose rewards are all equal (zero advantage, common/zero-signal.ts) is
     * stored but not trained, and the run samples another; CLI `--keep-zero-signal-groups` turns it off. */
    dropZeroSignalGroups: z.boolean().default(true),
    /** After this many zero-signal groups in a row, they are trained anyway until one with signal comes (the run never
     * samples forever; the progress query says so). Default 2 × groupsPerStep. */
    zeroSignalPatience: z.number().int().min(1).max(100_000).optional(),
    /** Continuous attestation (workflows/training/run-health.ts): every N steps, and whenever an episode fails with a 404
     * for the run's current adapter, the run asks the server whether it still serves that adapter and re-publishes it
     * if not. 0: only on a 404. */
    attestEvery: z.number().int().min(0).max(100_000).default(5),
    /** The circuit breaker (common/circuit-breaker.ts): this many failed groups in a row with the same infrastructure
     * cause pause the run; while paused it probes every `breakerProbeSeconds` and resumes when the cause is gone. */
    breakerGroups: z.number().int().min(1).max(1000).default(2),
    breakerProbeSeconds: z.number().int().min(1).max(86_400).default(30),
    /** The mismatch alarm (common/mismatch-alarm.ts): lag-0 k3 KL(served || learner) above `mismatchAlarmK3` for
     * `mismatchAlarmSteps` steps in a row pauses the run (rollouts and training) until the resume signal. 0 steps: off.
     * 1e-3 is where NeMo-RL stops calling serving healthy; the embedded server in float32 measures ~1e-11. */
    mismatchAlarmK3: z.number().positive().default(1e-3),
    mismatchAlarmSteps: z.number().int().min(0).max(1000).default(3),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.minToSeal !== undefined && v.minToSeal > v.groupSize) ctx.addIssue({ code: 'custom', path: ['minToSeal'], message: `must be at most groupSize (${v.groupSize})` });
    const range = v.groupSizeRange;
    if (range && v.profile) ctx.addIssue({ code: 'custom', path: ['groupSizeRange'], message: `profile "${v.profile}" fixes the group-size range; give one or the other` });
    if (range && range.min === undefined && v.groupSize > range.max) ctx.addIssue({ code: 'custom', path: ['groupSizeRange', 'max'], message: `must be at least groupSize (${v.groupSize}), the range's min` });
    const high = v.highWater ?? 2 * v.groupsPerStep;
    const low = v.lowWater ?? v.groupsPerStep;
    if (high < v.groupsPerStep) ctx.addIssue({ code: 'custom', path: ['highWater'], message: `must be at least groupsPerStep (${v.groupsPerStep}), or no step can ever start` });
    if (low >= high) ctx.addIssue({ code: 'custom', path: ['lowWater'], message: `must be below highWater (${high})` });
    for (const k of ['bcWeight', 'bcExamples'] as const) {
      if (v[k] !== undefined && v.bcCorpus === undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'only with bcCorpus (the SFT corpus to replay)' });
    }
  });
export type TrainingRunInput = z.input<typeof TrainingRunInput>;
export type TrainingRunConfig = z.infer<typeof TrainingRunInput>;

/** Derived settings: the seed sealed at 8 of 12, i.e. two thirds of the group. */
export function runSettings(cfg: TrainingRunConfig) {
  return {
    minToSeal: cfg.minToSeal ?? Math.min(cfg.groupSize, Math.ceil((2 * cfg.groupSize) / 3)),
    highWater: cfg.highWater ?? 2 * cfg.groupsPerStep,
    lowWater: cfg.lowWater ?? cfg.groupsPerStep,
    zeroSignalPatience: cfg.zeroSignalPatience ?? 2 * cfg.groupsPerStep,
    /** The learner's BC coefficient when none is given (native learner config.py `bc_coef`), and examples per step. */
    bcWeight: cfg.bcWeight ?? 0.1,
    bcExamples: cfg.bcExamples ?? 4,
  };
}

/** One scored trajectory of a group, as the group record carries it. */
export const GroupEpisode = z.object({
  episodeId: z.string(),
  reward: z.number(),
  components: z.record(z.string(), z.number()),
  passed: z.boolean(),
  /** The debugger was opened (the curriculum's "appropriate debugger use"). */
  usedDebugger: z.boolean(),
  /** Oldest policy version among its turns: what the lag check looks at. */
  minPolicyVersion: z.number().int().min(0),
});
export type GroupEpisode = z.infer<typeof GroupEpisode>;

export const GroupRecord = z.object({
  schema: z.literal(GROUP_SCHEMA),
  groupId: z.string(),
  runId: z.string(),
  taskId: z.string(),
  rewardConfig: z.string(),
  episodes: z.array(GroupEpisode).min(1),
  sealedReason: z.enum(['full', 'partial-timeout']),
  infraFailures: z.number().int().min(0),
});
export type GroupRecord = z.infer<typeof GroupRecord>;

/** Why a trajectory or group was left out of a step; each is counted in the step result. `policy-lag` and `too-long`
 * are the learner's own rules (it names what it dropped); the others are found before the batch is sent. */
export type RejectReason = 'policy-lag' | 'too-long' | 'missing-token-ids' | 'missing-logprobs' | 'misaligned-logprobs' | 'no-turns' | 'duplicate-group';

export interface StepResult {
  stepId: string;
  step: number;
  versionBefore: number;
  versionAfter: number;
  adapterPath: string | null;
  trainedGroups: string[];
  rejectedGroups: { groupId: string; reason: RejectReason; lag: number }[];
  rejectedTrajectories: { episodeId: string; reason: RejectReason; detail: string }[];
  /** Trajectories per lag (versionBefore - oldest step version), over the groups read. */
  lagHistogram: Record<string, number>;
  meanReward: number;
  passRate: number;
  /** The learner's TrainMetrics (snake_case, as the service sends them), null when nothing was trainable. */
  metrics: Record<string, number | string | null | (number | null)[]> | null;
  /** Mean and max |log rho| between the learner's logprobs and the stored rollout logprobs at lag 0. */
  lag0: { tokens: number; meanAbsLogRatio: number; maxAbsLogRatio: number } | null;
  /** Token-chain breaks and stale-KV turns over the trained episodes (common/token-chain.ts); absent in steps stored
   * before they were counted. */
  tokenChain?: TokenChainCounts;
  /** Learner wall time of the step (reading, scoring, training) in ms. */
  busyMs: number;
}

export interface PublishResult {
  adapter: string;
  version: number;
  canary: { tokens: number; maxAbsDiff: number; tolerance: number };
  unloaded: string[];
}

export interface StepPoint {
  step: number;
  version: number;
  meanReward: number;
  passRate: number;
  trained: number;
  staleGroups: number;
  rejectedTrajectories: number;
  klMean: number | null;
  clipLow: number | null;
  clipHigh: number | null;
  ratioMean: number | null;
  offpolicyWeightMean: number | null;
  busyFraction: number;
  lag0MeanAbsLogRatio: number | null;
  curriculumPhase: string;
  share3070: number | null;
  validationPass1: number | null;
  /** The behaviour-cloning loss (mean NLL of the replayed SFT tokens) before its weight; null when the step replayed
   * none, absent in points stored before BC replay. */
  bcLoss?: number | null;
  /** Zero-signal groups (common/zero-signal.ts): sampled since the previous step and left out of training, and among
   * this step's trained groups. Absent in points stored before they were counted. */
  zeroSignalDropped?: number;
  zeroSignalTrained?: number;
  atMs: number;
}

export interface TrainingProgress {
  runId: string;
  phase: 'starting' | 'running' | 'paused' | 'stopping' | 'finished' | 'failed';
  policyVersion: number;
  step: number;
  steps: number;
  poolSize: number;
  running: number;
  episodesDone: number;
  infraFailures: number;
  groupsOpen: number;
  groupsQueued: number;
  groupsFailed: number;
  staleGroupsRejected: number;
  rolloutsPerSecond: number;
  lagHistogram: Record<string, number>;
  curriculum: CurriculumSummary;
  /** The newest step's point; every point is in PostgreSQL (training_points), which `train status` reads. */
  lastStep: StepPoint | null;
  startedAtMs: number;
  /** Zero-signal groups so far (absent from workflows older than the count). */
  zeroSignal?: ZeroSignalProgress;
  /** Why the run is paused, or null; absent from workflows older than the run-health guards. */
  pause?: RunPause | null;
  health?: RunHealth;
}

/** Why a run stopped opening groups: the pause signal, the circuit breaker or the mismatch alarm. */
export interface RunPause {
  reason: 'signal' | 'circuit-breaker' | 'mismatch-alarm';
  /** What a person reads: the infrastructure cause or the k3 values, and how it ends. */
  cause: string;
  sinceMs: number;
}

/** The run-health counters (workflows/training/run-health.ts). */
export interface RunHealth {
  /** Attestations run, and those that found the adapter gone and re-published it. */
  attestations: number;
  republished: number;
  lastAttestation: string | null;
  /** Failed groups in a row with one cause, that cause, and how often the breaker tripped. */
  breakerStreak: number;
  breakerCause: string | null;
  breakerTrips: number;
  /** Steps in a row with lag-0 k3 over the threshold, the newest k3, and how often the alarm paused the run. */
  alarmStreak: number;
  lastK3Lag0: number | null;
  alarmTrips: number;
}

export interface ZeroSignalProgress {
  /** Sealed groups, and those of them whose rewards were all equal. */
  groups: number;
  zeroSignal: number;
  /** zeroSignal / groups (0 before any group). */
  share: number;
  dropped: number;
  trained: number;
  /** Consecutive zero-signal groups up to the newest, and the patience after which they are trained anyway. */
  streak: number;
  patience: number;
  dropEnabled: boolean;
  /** Set while the guard is training zero-signal groups because none with signal came. */
  warning: string | null;
}
