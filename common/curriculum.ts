/**
 * The training curriculum: which task the next GRPO group gets. Pure and deterministic (the caller passes the random
 * number), so it runs inside TrainingRunWorkflow; its state is plain JSON that continue-as-new carries, and replay
 * recomputes it exactly.
 *
 * From the seed write-up ("Choosing training tasks"):
 *   - Two phases. *Acquisition* samples 80 % debugger-recommended and 20 % optional tasks and no avoid tasks;
 *     *abstention* then adds the avoid tasks, to teach when to leave the debugger closed.
 *   - Advancement depends on successful fixes and appropriate debugger use, not on mean reward: a policy can raise
 *     its mean reward with process credit while fixing nothing (see common/reward.ts).
 *   - Favour tasks the policy solves sometimes but not always: those give a GRPO group both successes and failures to
 *     compare. Tasks with an estimated success of 30–70 % drew 46 % of the seed's rollouts; `curriculumSummary`
 *     reports the same figure.
 *   - Repeatedly unsolved tasks are sampled less often, with occasional retries as the model improves.
 *
 * Each task's success rate is a Beta posterior over its episodes' outcomes. Its evidence decays by a factor on every
 * finished group (of any task), so old results fade as the policy changes, and an unsolved task left alone drifts back
 * toward the prior and gets retried.
 */
import { z } from 'zod';

const Preference = z.enum(['recommended', 'optional', 'avoid']);
type Preference = z.infer<typeof Preference>;
const share = z.number().min(0).max(1);
const Mix = z.object({ recommended: share, optional: share, avoid: share }).strict();

export const CurriculumConfig = z
  .object({
    /** Beta(1, 1): a task nothing is known about is estimated at 50 %, squarely in the band, so it gets tried. */
    priorAlpha: z.number().positive().max(100).default(1),
    priorBeta: z.number().positive().max(100).default(1),
    /** Evidence kept per finished group: 0.98 halves a result's weight after about 34 groups, 8–9 optimizer steps at the
     * seed's 4 groups per step; fast enough to follow a changing policy, slow enough not to chase noise. */
    decay: z.number().min(0.5).max(1).default(0.98),
    /** The seed's 30–70 % band of estimated success. */
    band: z.object({ low: share, high: share }).strict().default({ low: 0.3, high: 0.7 }),
    /** A task in the band is this many times as likely to be picked as one outside it, within its category. */
    bandWeight: z.number().min(1).max(100).default(3),
    /** Seed: 80 % recommended, 20 % optional, no avoid tasks while the debugger is being learnt. */
    acquisitionMix: Mix.default({ recommended: 0.8, optional: 0.2, avoid: 0 }),
    /** The seed does not give its second-phase mix; ours keeps most picks on debugger tasks and gives avoid tasks 30 %. */
    abstentionMix: Mix.default({ recommended: 0.5, optional: 0.2, avoid: 0.3 }),
    /** Groups in a row with no success before a task counts as repeatedly unsolved. */
    unsolvedAfterGroups: z.number().int().min(1).max(100).default(2),
    /** Its weight is multiplied by this for every unsolved group from then on … */
    unsolvedFactor: z.number().min(0).max(1).default(0.5),
    /** … but never drops below this share of a normal weight: the occasional retry. */
    retryFloor: z.number().min(0.001).max(1).default(0.1),
    advancement: z
      .object({
        /** Acquisition episodes before the phase can end: one optimizer step of the seed (4 groups × 12). */
        minEpisodes: z.number().int().min(1).default(48),
        /** Decay of the recent rates below, per group: about the last 10 groups count. */
        decay: z.number().min(0.5).max(1).default(0.9),
        /** Recent share of episodes that fixed the bug. */
        minSuccessRate: share.default(0.5),
        /** Recent share of episodes on recommended tasks that opened the debugger. */
        minDebuggerOnRecommended: share.default(0.7),
      })
      .strict()
      .default({ minEpisodes: 48, decay: 0.9, minSuccessRate: 0.5, minDebuggerOnRecommended: 0.7 }),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.band.low >= c.band.high) ctx.addIssue({ code: 'custom', path: ['band'], message: 'low must be below high' });
    for (const key of ['acquisitionMix', 'abstentionMix'] as const) {
      const m = c[key];
      if (m.recommended + m.optional + m.avoid <= 0) ctx.addIssue({ code: 'custom', path: [key], message: 'needs a positive share somewhere' });
    }
  });
export type CurriculumConfig = z.infer<typeof CurriculumConfig>;

const count = z.number().min(0);
const TaskState = z
  .object({
    id: z.string().min(1),
    debuggerPreference: Preference,
    /** Decayed evidence: the posterior is Beta(priorAlpha + successes, priorBeta + failures). */
    successes: count,
    failures: count,
    groups: z.number().int().min(0),
    episodes: z.number().int().min(0),
    /** Finished groups in a row with no success. */
    unsolvedStreak: z.number().int().min(0),
  })
  .strict();
export type CurriculumTaskState = z.infer<typeof TaskState>;

export const CurriculumState = z
  .object({
    schema: z.literal('debugrl.curriculum/v1'),
    config: CurriculumConfig,
    phase: z.enum(['acquisition', 'abstention']),
    /** The group count at which abstention began. */
    advancedAtGroup: z.number().int().min(0).nullable(),
    groups: z.number().int().min(0),
    /** Sorted by id, so a pick depends only on the state and the random number. */
    tasks: z.array(TaskState).min(1),
    /** Decayed counts behind the advancement rule. */
    recent: z
      .object({
        episodes: count,
        successes: count,
        recommendedEpisodes: count,
        debuggerOpenedOnRecommended: count,
        avoidEpisodes: count,
        debuggerClosedOnAvoid: count,
      })
      .strict(),
    acquisitionEpisodes: z.number().int().min(0),
    /** Rollouts trained so far, and those whose task was estimated in the band when its group finished. */
    rollouts: z.object({ total: z.number().int().min(0), inBand: z.number().int().min(0) }).strict(),
  })
  .strict();
export type CurriculumState = z.infer<typeof CurriculumState>;

/** One finished GRPO group. `episodes` are its scored episodes (successes + failures); infrastructure failures are left
 * out, as they are from the group's statistics. */
export const CurriculumGroup = z
  .object({
    taskId: z.string().min(1),
    successes: z.number().int().min(0),
    failures: z.number().int().min(0),
    /** Episodes that opened the debugger, counted on a recommended task (else 0). */
    debuggerOpenedOnRecommended: z.number().int().min(0),
    /** Episodes that left the debugger closed, counted on an avoid task (else 0). */
    debuggerClosedOnAvoid: z.number().int().min(0),
    episodes: z.number().int().min(1),
  })
  .strict()
  .superRefine((g, ctx) => {
    if (g.successes + g.failures !== g.episodes) ctx.addIssue({ code: 'custom', path: ['episodes'], message: `must equal successes + failures (${g.successes} + ${g.failures})` });
    for (const k of ['debuggerOpenedOnRecommended', 'debuggerClosedOnAvoid'] as const) {
      if (g[k] > g.episodes) ctx.addIssue({ code: 'custom', path: [k], message: `cannot exceed episodes (${g.episodes})` });
    }
  });
export type CurriculumGroup = z.infer<typeof CurriculumGroup>;

export interface CurriculumTask {
  id: string;
  debuggerPreference: Preference;
  /** Earlier evidence, e.g. the base model's calibration runs. */
  prior?: { successes: number; failures: number };
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new RangeError(`invalid ${what}: ${z.prettifyError(r.error)}`);
  return r.data;
}

export function initialCurriculum(tasks: CurriculumTask[], config?: z.input<typeof CurriculumConfig>): CurriculumState {
  const cfg = parseOrThrow(CurriculumConfig, config ?? {}, 'curriculum config');
  const ids = new Set(tasks.map((t) => t.id));
  if (ids.size !== tasks.length) throw new RangeError('curriculum tasks: duplicate task ids');
  const state = parseOrThrow(
    CurriculumState,
    {
      schema: 'debugrl.curriculum/v1',
      config: cfg,
      phase: 'acquisition',
      advancedAtGroup: null,
      groups: 0,
      tasks: [...tasks]
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((t) => ({ id: t.id, debuggerPreference: t.debuggerPreference, successes: t.prior?.successes ?? 0, failures: t.prior?.failures ?? 0, groups: 0, episodes: 0, unsolvedStreak: 0 })),
      recent: { episodes: 0, successes: 0, recommendedEpisodes: 0, debuggerOpenedOnRecommended: 0, avoidEpisodes: 0, debuggerClosedOnAvoid: 0 },
      acquisitionEpisodes: 0,
      rollouts: { total: 0, inBand: 0 },
    },
    'curriculum tasks',
  );
  if (!pickable(state).length) throw new RangeError('curriculum tasks: there is no task to pick');
  return state;
}

/** The posterior mean of a task's success rate. */
export function estimatedSuccess(task: CurriculumTaskState, c: CurriculumConfig): number {
  return (c.priorAlpha + task.successes) / (c.priorAlpha + c.priorBeta + task.successes + task.failures);
}

const inBand = (p: number, c: CurriculumConfig) => p >= c.band.low && p <= c.band.high;

/** Fold one finished group in: decay every task's evidence, add the group's, and check advancement. */
export function updateCurriculum(state: CurriculumState, group: CurriculumGroup): CurriculumState {
  const g = parseOrThrow(CurriculumGroup, group, 'curriculum group');
  const c = state.config;
  const target = state.tasks.find((t) => t.id === g.taskId);
  if (!target) throw new RangeError(`curriculum group: unknown task "${g.taskId}"`);
  const wasInBand = inBand(estimatedSuccess(target, c), c);
  const tasks = state.tasks.map((t) => {
    const decayed = { ...t, successes: t.successes * c.decay, failures: t.failures * c.decay };
    if (t.id !== g.taskId) return decayed;
    return {
      ...decayed,
      successes: decayed.successes + g.successes,
      failures: decayed.failures + g.failures,
      groups: t.groups + 1,
      episodes: t.episodes + g.episodes,
      unsolvedStreak: g.successes > 0 ? 0 : t.unsolvedStreak + 1,
    };
  });
  const d = c.advancement.decay;
  const pref = target.debuggerPreference;
  const r = state.recent;
  const recent = {
    episodes: r.episodes * d + g.episodes,
    successes: r.successes * d + g.successes,
    recommendedEpisodes: r.recommendedEpisodes * d + (pref === 'recommended' ? g.episodes : 0),
    debuggerOpenedOnRecommended: r.debuggerOpenedOnRecommended * d + (pref === 'recommended' ? g.debuggerOpenedOnRecommended : 0),
    avoidEpisodes: r.avoidEpisodes * d + (pref === 'avoid' ? g.episodes : 0),
    debuggerClosedOnAvoid: r.debuggerClosedOnAvoid * d + (pref === 'avoid' ? g.debuggerClosedOnAvoid : 0),
  };
  const next: CurriculumState = {
    ...state,
    groups: state.groups + 1,
    tasks,
    recent,
    acquisitionEpisodes: state.acquisitionEpisodes + (state.phase === 'acquisition' ? g.episodes : 0),
    rollouts: { total: state.rollouts.total + g.episodes, inBand: state.rollouts.inBand + (wasInBand ? g.episodes : 0) },
  };
  if (next.phase === 'acquisition' && advancement(next).ready) {
    next.phase = 'abstention';
    next.advancedAtGroup = next.groups;
  }
  return next;
}

/** Fold in a finished group from its scored episodes: what the coordinator does at each seal, and what a resumed run
 * replays over its stored groups (activities/training-store.ts) so that its curriculum carries over. */
export function foldGroupEpisodes(state: CurriculumState, taskId: string, episodes: { passed: boolean; usedDebugger: boolean }[]): CurriculumState {
  const pref = state.tasks.find((t) => t.id === taskId)?.debuggerPreference;
  const successes = episodes.filter((e) => e.passed).length;
  return updateCurriculum(state, {
    taskId,
    successes,
    failures: episodes.length - successes,
    debuggerOpenedOnRecommended: pref === 'recommended' ? episodes.filter((e) => e.usedDebugger).length : 0,
    debuggerClosedOnAvoid: pref === 'avoid' ? episodes.filter((e) => !e.usedDebugger).length : 0,
    episodes: episodes.length,
  });
}

/** Whether acquisition may end: enough episodes, recent fixes, and the debugger opened where it is recommended. Mean
 * reward plays no part. */
export function advancement(state: CurriculumState): { ready: boolean; acquisitionEpisodes: number; successRate: number | null; debuggerOnRecommended: number | null; debuggerClosedOnAvoid: number | null } {
  const a = state.config.advancement;
  const r = state.recent;
  const rate = (num: number, den: number) => (den > 0 ? num / den : null);
  const successRate = rate(r.successes, r.episodes);
  const debuggerOnRecommended = rate(r.debuggerOpenedOnRecommended, r.recommendedEpisodes);
  return {
    ready: state.acquisitionEpisodes >= a.minEpisodes && (successRate ?? 0) >= a.minSuccessRate && (debuggerOnRecommended ?? 0) >= a.minDebuggerOnRecommended,
    acquisitionEpisodes: state.acquisitionEpisodes,
    successRate,
    debuggerOnRecommended,
    debuggerClosedOnAvoid: rate(r.debuggerClosedOnAvoid, r.avoidEpisodes),
  };
}

interface Candidate {
  task: CurriculumTaskState;
  probability: number;
  estimate: number;
  band: boolean;
  multiplier: number;
  categoryShare: number;
}

/** Every task the current phase can pick, with its probability (they sum to 1). */
function pickable(state: CurriculumState): Candidate[] {
  const c = state.config;
  const phaseMix = state.phase === 'acquisition' ? c.acquisitionMix : c.abstentionMix;
  // A task set the phase's mix cannot pick from at all (the starter split is all `avoid` tasks, which acquisition
  // leaves out) is picked from as a whole, each category equally: a phase with nothing to pick would stop the run.
  const mix = state.tasks.some((t) => phaseMix[t.debuggerPreference] > 0) ? phaseMix : { recommended: 1, optional: 1, avoid: 1 };
  const byPref = new Map<Preference, CurriculumTaskState[]>();
  for (const t of state.tasks) if (mix[t.debuggerPreference] > 0) byPref.set(t.debuggerPreference, [...(byPref.get(t.debuggerPreference) ?? []), t]);
  // A category with no tasks gives its share to the others.
  const totalShare = [...byPref.keys()].reduce((s, p) => s + mix[p], 0);
  const out: Candidate[] = [];
  for (const [pref, tasks] of byPref) {
    const scored = tasks.map((task) => {
      const estimate = estimatedSuccess(task, c);
      const band = inBand(estimate, c);
      const over = task.unsolvedStreak - c.unsolvedAfterGroups + 1;
      const multiplier = over > 0 ? Math.max(c.retryFloor, c.unsolvedFactor ** over) : 1;
      return { task, estimate, band, multiplier, weight: (band ? c.bandWeight : 1) * multiplier };
    });
    const sum = scored.reduce((s, x) => s + x.weight, 0);
    const categoryShare = mix[pref] / totalShare;
    for (const { weight, ...x } of scored) out.push({ ...x, categoryShare, probability: categoryShare * (weight / sum) });
  }
  return out.sort((a, b) => (a.task.id < b.task.id ? -1 : a.task.id > b.task.id ? 1 : 0));
}

/** The task for the next group, from one uniform random number in [0, 1) (the workflow's deterministic RNG). */
export function pickTask(state: CurriculumState, rand: number): { taskId: string; reason: string; estimate: number; inBand: boolean; probability: number } {
  if (!(rand >= 0 && rand < 1)) throw new RangeError(`pickTask needs a random number in [0, 1), got ${rand}`);
  const candidates = pickable(state);
  if (!candidates.length) throw new RangeError(`the ${state.phase} phase has no task to pick`);
  let acc = 0;
  const chosen = candidates.find((x) => (acc += x.probability) > rand) ?? candidates[candidates.length - 1]!;
  const c = state.config;
  const pct = (v: number) => `${Math.round(100 * v)} %`;
  const notes = [
    `${state.phase}: ${chosen.task.debuggerPreference} tasks get ${pct(chosen.categoryShare)} of picks`,
    `estimated success ${pct(chosen.estimate)}${chosen.band ? `, in the ${pct(c.band.low)}–${pct(c.band.high)} band (×${c.bandWeight})` : ''}`,
    ...(chosen.multiplier < 1 ? [`unsolved ${chosen.task.unsolvedStreak} groups in a row (×${chosen.multiplier.toFixed(3)}, a retry)`] : []),
  ];
  return { taskId: chosen.task.id, reason: notes.join('; '), estimate: chosen.estimate, inBand: chosen.band, probability: chosen.probability };
}

export interface CurriculumSummary {
  phase: 'acquisition' | 'abstention';
  /** Share of the trained rollouts whose task was estimated at 30–70 % success when its group finished (the seed: 46 %).
   * 0 before the first group. */
  share30to70: number;
  rollouts: number;
  groups: number;
  advancedAtGroup: number | null;
  advancement: ReturnType<typeof advancement>;
  /** Tasks whose estimate is in the band now. */
  tasksInBand: number;
  /** Tasks sampled less because they stayed unsolved. */
  repeatedlyUnsolved: number;
  /** Mean estimated success per debugger preference. */
  meanEstimate: Record<Preference, number | null>;
}

export function curriculumSummary(state: CurriculumState): CurriculumSummary {
  const c = state.config;
  const estimates = state.tasks.map((t) => ({ t, p: estimatedSuccess(t, c) }));
  const mean = (pref: Preference) => {
    const ps = estimates.filter((e) => e.t.debuggerPreference === pref).map((e) => e.p);
    return ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : null;
  };
  return {
    phase: state.phase,
    share30to70: state.rollouts.total ? state.rollouts.inBand / state.rollouts.total : 0,
    rollouts: state.rollouts.total,
    groups: state.groups,
    advancedAtGroup: state.advancedAtGroup,
    advancement: advancement(state),
    tasksInBand: estimates.filter((e) => inBand(e.p, c)).length,
    repeatedlyUnsolved: state.tasks.filter((t) => t.unsolvedStreak >= c.unsolvedAfterGroups).length,
    meanEstimate: { recommended: mean('recommended'), optional: mean('optional'), avoid: mean('avoid') },
  };
}
