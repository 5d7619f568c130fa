/** The EvaluationWorkflow's input, arms and progress. Pure. */
import { z } from 'zod';
import { EpisodeLimits, Toolset } from './episode';
import { PolicySpecString } from './policy-spec';
import { Split } from '../taskset/task-schema';

export const Arm = z.object({
  label: z.string().min(1).max(100),
  policy: PolicySpecString,
  toolset: Toolset,
});
export type Arm = z.infer<typeof Arm>;

export const EvaluationInput = z
  .object({
    /** Names the evaluation in PostgreSQL, in search attributes and in the report folder; default: the workflow id. */
    evaluationId: z.string().regex(/^[\w.-]{1,100}$/).optional(),
    /** The policy under evaluation. */
    policy: PolicySpecString,
    /** `both` runs the policy with and without the debugger tools, side by side (the seed's figures 1–3). */
    toolset: z.enum(['full', 'no-debugger', 'both']).default('full'),
    /** A second policy (e.g. the SFT or RL checkpoint against the base) evaluated on the same tasks. */
    compare: PolicySpecString.optional(),
    split: Split.optional(),
    taskIds: z.array(z.string().regex(/^[a-z][a-z0-9_]{2,63}$/)).min(1).optional(),
    /** Keep only the first N tasks of the split (sorted by id): for quick runs. */
    maxTasks: z.number().int().min(1).optional(),
    /** The seed sampled eight episodes per task. */
    episodesPerTask: z.number().int().min(1).max(64).default(8),
    /** pass@k's k; the seed reported pass@3 estimated from the eight episodes. */
    k: z.number().int().min(1).max(64).default(3),
    /** Episode i of a task samples with seed firstSeed + i. Evaluations that share it share their seeds (paired
     * comparisons); another value gives fresh seeds, e.g. after tasks were chosen by their rates under seeds 0..n-1. */
    firstSeed: z.number().int().min(0).max(1_000_000).default(0),
    limits: EpisodeLimits.default(EpisodeLimits.parse({})),
    /** Episodes running at once, across arms. */
    concurrency: z.number().int().min(1).max(256).default(4),
    /** Passed through to each episode (see EpisodeInput). */
    sandboxScheduleToStartSeconds: z.number().int().min(1).max(3600).default(60),
    /** An evaluation id that exists already is refused, so that two runs never mix in one report; `rerun` asks for a
     * new run of it instead, stored under `<id>-run<N>` (the result's evaluationId). */
    rerun: z.boolean().default(false),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.split && !v.taskIds) ctx.addIssue({ code: 'custom', path: ['split'], message: 'give a split or a list of taskIds' });
    if (v.split && v.taskIds) ctx.addIssue({ code: 'custom', path: ['taskIds'], message: 'give a split or taskIds, not both' });
    if (v.episodesPerTask < v.k) {
      ctx.addIssue({ code: 'custom', path: ['episodesPerTask'], message: `pass@${v.k} needs at least ${v.k} episodes per task, got ${v.episodesPerTask} (lower k or raise episodesPerTask)` });
    }
  });
export type EvaluationInput = z.input<typeof EvaluationInput>;
export type EvaluationConfig = z.infer<typeof EvaluationInput>;

/** The arms an evaluation runs: every policy × every tool set asked for. */
export function armsOf(cfg: EvaluationConfig): Arm[] {
  const toolsets: z.infer<typeof Toolset>[] = cfg.toolset === 'both' ? ['full', 'no-debugger'] : [cfg.toolset];
  const policies = cfg.compare ? [cfg.policy, cfg.compare] : [cfg.policy];
  return policies.flatMap((policy, pi) =>
    toolsets.map((toolset) => ({ label: `${policies.length > 1 ? (pi === 0 ? 'A' : 'B') + ':' : ''}${policy}${toolsets.length > 1 || toolset !== 'full' ? ` [${toolset}]` : ''}`, policy, toolset })),
  );
}

export interface EvaluationProgress {
  evaluationId: string;
  total: number;
  done: number;
  running: number;
  /** Episodes whose workflow failed outright (not episodes that failed their tests). */
  failed: number;
  passed: number;
  /** Workflow time (ms since epoch) when the episodes started. */
  startedAtMs: number;
  phase: 'starting' | 'running' | 'aggregating' | 'finished';
}

export interface EvaluationResult {
  evaluationId: string;
  arms: { label: string; policy: string; toolset: string; passAt1: number | null; passAtK: number | null; episodes: number }[];
  k: number;
  reportDir: string;
  failedEpisodes: number;
}
