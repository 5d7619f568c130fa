/** The STaR loop's input, per-generation records and its keep rule. Pure (the workflow imports it). */
import { z } from 'zod';
import { EpisodeLimits } from './episode';
import { PolicySpecString } from './policy-spec';
import { SftEpochs, SftHyperparameters } from './sft-settings';
import { SftFilterConfig } from './sft-filters';

const TaskIds = z.array(z.string().regex(/^[a-z][a-z0-9_]{2,63}$/, 'must be a task id (lower_snake_case)')).min(1);

export const StarLoopInput = z
  .object({
    /** Most generations (G). The loop also stops at the first generation whose adapter does not improve validation. */
    generations: z.number().int().min(1).max(50).default(3),
    /** Generation 0's policy on the train split, e.g. `oracle` or `openai:<model>@<url>`; later generations use the
     * current best adapter. Default: the student itself (plain STaR: the model bootstraps from its own successes). */
    teacher: PolicySpecString.optional(),
    /** The adapter the student starts from (null: base SmolLM2). It is the best policy until a generation beats it. */
    startAdapter: z.string().regex(/^[\w.-]+$/).nullable().default(null),
    /** n episodes per train task; each passing one is a candidate for the corpus. */
    episodesPerTask: z.number().int().min(1).max(64).default(4),
    /** The train tasks (default: the whole train split, or its first trainMaxTasks). */
    trainTaskIds: TaskIds.optional(),
    trainMaxTasks: z.number().int().min(1).optional(),
    /** The validation tasks (default: the whole validation split, or its first validationMaxTasks). */
    validationTaskIds: TaskIds.optional(),
    validationMaxTasks: z.number().int().min(1).optional(),
    /** Episodes per validation task; pass@1 is estimated from all of them. */
    validationEpisodesPerTask: z.number().int().min(1).max(64).default(1),
    limits: EpisodeLimits.default(EpisodeLimits.parse({})),
    /** The validation episodes' limits (default: `limits`). */
    validationLimits: EpisodeLimits.optional(),
    concurrency: z.number().int().min(1).max(256).default(4),
    /** Where each generation's fine-tune starts. `base`, as STaR does (Zelikman et al., 2022, Algorithm 1: every
     * iteration fine-tunes the original model, not the last iteration's, to avoid overfitting), trains the base model
     * on the whole running corpus; `best` continues from the current best adapter (its weights, a fresh optimizer). */
    init: z.enum(['base', 'best']).default('base'),
    /** A new adapter is kept only when its validation pass@1 exceeds the best one's by more than this. */
    minImprovement: z.number().min(0).max(1).default(0),
    build: z
      .object({
        perTaskCap: z.number().int().min(1).default(4),
        heldOutFraction: z.number().min(0).max(0.5).default(0.1),
        microskills: z.boolean().default(true),
        filters: SftFilterConfig.default(SftFilterConfig.parse({})),
      })
      .strict()
      .default({ perTaskCap: 4, heldOutFraction: 0.1, microskills: true, filters: SftFilterConfig.parse({}) }),
    /** SftWorkflow's epochs and hyperparameters (common/sft-settings.ts). An absent one is the learner's default
     * (protocol.py SftEpochRequest, config.py LoraConfig), so the loop has no SFT defaults of its own. */
    sft: z.object({ epochs: SftEpochs, ...SftHyperparameters }).strict().prefault({}),
    /** The GPU activity worker's queue (SftWorkflow's activities). */
    learnerTaskQueue: z.string().min(1).default('gpu'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.trainTaskIds && v.trainMaxTasks) ctx.addIssue({ code: 'custom', path: ['trainMaxTasks'], message: 'give trainTaskIds or trainMaxTasks, not both' });
    if (v.validationTaskIds && v.validationMaxTasks) ctx.addIssue({ code: 'custom', path: ['validationMaxTasks'], message: 'give validationTaskIds or validationMaxTasks, not both' });
  });
export type StarLoopInput = z.input<typeof StarLoopInput>;
export type StarLoopConfig = z.infer<typeof StarLoopInput>;

/** The corpus build's summary as the loop keeps it (counts only; the corpus stays on disk). */
export interface StarCorpus {
  outDir: string | null;
  /** Examples in the merged, running corpus after this generation (0: nothing passed the filters). */
  examples: number;
  /** New trajectories and microskills this generation's evaluation contributed. */
  added: number;
  candidates: number;
  /** Examples per source: `<policy> (generation <g>, <kind>)`. */
  bySource: Record<string, number>;
  /** This generation's rejections per filter reason. */
  rejections: Record<string, number>;
}

export interface StarGeneration {
  generation: number;
  /** The policy that ran on the train split. */
  trainPolicy: string;
  trainEvaluationId: string;
  trainPassAt1: number | null;
  corpus: StarCorpus | null;
  sft: { workflowId: string; adapter: string | null; adapterPath: string | null; chosenEpoch: number; heldOutLoss: number | null } | null;
  validationEvaluationId: string | null;
  validationPassAt1: number | null;
  /** The best validation pass@1 before this generation. */
  bestBefore: number | null;
  kept: boolean;
}

export type StarStop = 'generations' | 'no-improvement' | 'empty-corpus';

export interface StarBaseline {
  policy: string;
  evaluationId: string;
  passAt1: number | null;
}

export interface StarProgress {
  loopId: string;
  phase: 'starting' | 'baseline' | 'train-eval' | 'build' | 'sft' | 'val-eval' | 'report' | 'finished';
  generation: number;
  baseline: StarBaseline | null;
  generations: StarGeneration[];
  best: { policy: string; adapter: string | null; adapterPath: string | null; validationPassAt1: number | null };
  stopped: StarStop | null;
}

export interface StarResult {
  loopId: string;
  baseline: StarBaseline;
  generations: StarGeneration[];
  best: StarProgress['best'];
  stopped: StarStop;
  report: { json: string; markdown: string; html: string };
}

/** STaR's keep rule: the new adapter replaces the best one only if its validation pass@1 is higher by more than
 * `minImprovement`. An unmeasured pass@1 (no episode finished) never wins; an unmeasured best is beaten by any number. */
export function improved(best: number | null, next: number | null, minImprovement: number): boolean {
  if (next === null) return false;
  if (best === null) return true;
  return next > best + minImprovement;
}

/** `embedded` or `embedded:<adapter>`: the student served by the embedded server. */
export function studentPolicy(adapter: string | null): string {
  return adapter ? `embedded:${adapter}` : 'embedded';
}
