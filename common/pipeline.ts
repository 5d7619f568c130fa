/** The seed's pipeline as one workflow (workflows/pipeline.ts): its input, the ids of its children, the training
 * run's input it derives, its progress and its result. Pure (the workflow imports it). */
import { z } from 'zod';
import { EpisodeLimits, Toolset } from './episode';
import { EvaluationInput } from './evaluation';
import { PolicySpecString } from './policy-spec';
import { SftEpochs, SftHyperparameters } from './sft-settings';
import { TrainingRunInput, type TrainingRunConfig } from './training';

/** The stages in the order they run. `corpus` is an activity; every other stage is a child workflow. */
export const PIPELINE_STAGES = ['teacher', 'corpus', 'sft', 'rl', 'eval-base', 'eval-sft', 'eval-rl'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];
type ChildStage = Exclude<PipelineStage, 'corpus'>;

/** Each child's workflow id, derived from the pipeline's: a pipeline that restarts (a worker crash replays it) finds
 * its children under the same ids instead of starting them again. The evaluations are named after them too. */
export const pipelineChildIds = (pipelineId: string): Record<ChildStage, string> => ({
  teacher: `${pipelineId}-teacher`,
  sft: `${pipelineId}-sft`,
  rl: `${pipelineId}-rl`,
  'eval-base': `${pipelineId}-eval-base`,
  'eval-sft': `${pipelineId}-eval-sft`,
  'eval-rl': `${pipelineId}-eval-rl`,
});

/** Fields of the training run the pipeline itself sets: its id, tasks, tool set, learner queue, the SFT adapter it
 * starts from and the cut corpus it replays. */
const SET_BY_PIPELINE = ['runId', 'split', 'taskIds', 'maxTasks', 'toolset', 'learnerTaskQueue', 'initAdapter', 'bcCorpus'] as const;

const TaskIds = z.array(z.string().regex(/^[a-z][a-z0-9_]{2,63}$/, 'must be a task id (lower_snake_case)')).min(1);

export const PipelineInput = z
  .object({
    /** The tasks every stage uses (the teacher's, the training run's, every evaluation's): a split, or its first
     * maxTasks, or a list. Default: the train split. */
    split: EvaluationInput.shape.split,
    maxTasks: z.number().int().min(1).optional(),
    taskIds: TaskIds.optional(),
    /** The tool set of every episode: teacher, training and evaluations. */
    toolset: Toolset.default('full'),
    /** The teacher (the seed's: the oracle, which reads the held-back fix), teacherEpisodes episodes per task. */
    teacher: PolicySpecString.default('oracle'),
    /** The teacher's episodes per task (episode i seeded with i; the oracle's trajectories differ by seed, so more
     * than one gives the SFT corpus more distinct examples). Default 1, what the pipeline always ran. */
    teacherEpisodes: z.number().int().min(1).max(64).default(1),
    teacherLimits: EpisodeLimits.default(EpisodeLimits.parse({})),
    corpus: z
      .object({
        /** Tokens each SFT example is cut to (common/sft-cut.ts). */
        maxTokens: z.number().int().min(64).max(1_000_000).default(3584),
        /** Share of the teacher's trajectories held out for SftWorkflow's held-out loss. */
        heldOutFraction: z.number().min(0).max(0.5).default(0.1),
      })
      .strict()
      .prefault({}),
    /** SftWorkflow's epochs and schedule (an absent one is the learner's default). Its LoRA rank and model are the
     * training run's learner's (training.learner), so the adapter fits the run that starts from it. */
    sft: z.object({ epochs: SftEpochs, lr: SftHyperparameters.lr, warmupSteps: SftHyperparameters.warmupSteps, batchExamples: SftHyperparameters.batchExamples }).strict().prefault({}),
    /** The training run's settings as `debugrl train` builds them (workers/commands/train.ts trainingInputFrom):
     * steps, groups, limits, learner, BC weight and examples. The pipeline adds the fields it sets itself. */
    training: z.record(z.string(), z.unknown()),
    /** The three evaluations' settings, the same for base, SFT and RL; episode i is seeded with i in each. */
    evaluation: z
      .object({
        episodesPerTask: z.number().int().min(1).max(64).default(2),
        /** pass@k's k; default: every episode (k = episodesPerTask). */
        k: z.number().int().min(1).max(64).optional(),
        limits: EpisodeLimits.default(EpisodeLimits.parse({})),
        concurrency: z.number().int().min(1).max(256).default(2),
        /** How long a sandbox's queue may leave a call waiting before the episode treats its worker as dead and
         * rebuilds the sandbox (the teacher's and the three evaluations' episodes); absent: the evaluation's default. */
        sandboxScheduleToStartSeconds: z.number().int().min(1).max(3600).optional(),
      })
      .strict()
      .prefault({}),
    /** The GPU activity worker's queue (SftWorkflow's and the training run's learner activities). */
    learnerTaskQueue: z.string().min(1).default('gpu'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.taskIds && (v.split || v.maxTasks)) ctx.addIssue({ code: 'custom', path: ['taskIds'], message: 'give taskIds, or a split (and maxTasks), not both' });
    if (v.evaluation.k !== undefined && v.evaluation.k > v.evaluation.episodesPerTask) {
      ctx.addIssue({ code: 'custom', path: ['evaluation', 'k'], message: `pass@${v.evaluation.k} needs at least ${v.evaluation.k} episodes per task, got ${v.evaluation.episodesPerTask}` });
    }
    for (const k of SET_BY_PIPELINE) if (k in v.training) ctx.addIssue({ code: 'custom', path: ['training', k], message: 'the pipeline sets this itself' });
    // The training settings must make a valid run once the pipeline fills in its fields: checked now, not after SFT.
    const probe = TrainingRunInput.safeParse(trainingInputOf(v, { runId: 'pipeline-check', initAdapter: 'sft-check', bcCorpus: '/sft-check' }));
    if (!probe.success) for (const issue of probe.error.issues) ctx.addIssue({ code: 'custom', path: ['training', ...issue.path.map(String)], message: issue.message });
  });
export type PipelineInput = z.input<typeof PipelineInput>;
export type PipelineConfig = z.infer<typeof PipelineInput>;

/** The pipeline's tasks, as an evaluation or a training run takes them. */
export function pipelineTasks(cfg: Pick<PipelineConfig, 'split' | 'maxTasks' | 'taskIds'>): { taskIds: string[] } | { split: NonNullable<PipelineConfig['split']>; maxTasks?: number } {
  if (cfg.taskIds) return { taskIds: cfg.taskIds };
  return { split: cfg.split ?? 'train', ...(cfg.maxTasks ? { maxTasks: cfg.maxTasks } : {}) };
}

/** The training run's input: the given settings plus what the pipeline sets (unparsed: TrainingRunWorkflow parses). */
export function trainingInputOf(cfg: Pick<PipelineConfig, 'split' | 'maxTasks' | 'taskIds' | 'toolset' | 'training' | 'learnerTaskQueue'>, run: { runId: string; initAdapter: string; bcCorpus: string }): Record<string, unknown> {
  return { ...cfg.training, ...pipelineTasks(cfg), toolset: cfg.toolset, learnerTaskQueue: cfg.learnerTaskQueue, ...run };
}

/** The training run's learner (its LoRA rank and model), which SftWorkflow must train with for the adapter to fit. */
export function pipelineLearner(cfg: PipelineConfig): TrainingRunConfig['learner'] {
  return TrainingRunInput.parse(trainingInputOf(cfg, { runId: 'pipeline-check', initAdapter: 'sft-check', bcCorpus: '/sft-check' })).learner;
}

/** A stage that started, with its child's workflow id (null for the corpus activity) and workflow times. */
export interface PipelineStageRecord {
  stage: PipelineStage;
  childId: string | null;
  startedAtMs: number;
  finishedAtMs: number | null;
}

/** The corpus stage's summary: the built corpus, its cut copy (what SFT trains on and RL replays), and counts. */
export interface PipelineCorpus {
  corpusDir: string;
  cutDir: string;
  examples: number;
  trainExamples: number;
  heldOutExamples: number;
  /** Trajectories with no assistant turn within the limit, left out of the cut. */
  tooLong: number;
}

export interface PipelineProgress {
  pipelineId: string;
  stage: PipelineStage | 'starting' | 'finished';
  children: Record<ChildStage, string>;
  stages: PipelineStageRecord[];
  corpus: PipelineCorpus | null;
  sftAdapter: { name: string; path: string } | null;
  /** The policy the training run served last (`embedded:<adapter>`). */
  rlPolicy: string | null;
}

export interface PipelineResult {
  pipelineId: string;
  children: Record<ChildStage, string>;
  corpus: PipelineCorpus;
  sftAdapter: { name: string; path: string };
  rlPolicy: string;
  rlSteps: number;
  /** The three evaluations' ids, in the table's order (base, SFT, RL). */
  evaluations: { base: string; sft: string; rl: string };
  stages: PipelineStageRecord[];
}
