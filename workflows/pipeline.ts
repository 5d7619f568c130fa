/**
 * PipelineWorkflow: the seed's pipeline in one durable workflow, every stage a child workflow in the Temporal UI (or
 * one activity, where the stage is a single side effect), all on the same tasks:
 *
 *   1. `<id>-teacher`    EvaluationWorkflow: the teacher (the oracle) drives teacherEpisodes episodes per task (1 by
 *                        default; episode i seeded with i);
 *   2. corpus            buildPipelineCorpus: its passing trajectories as an SFT corpus (`sft build`), and a copy cut to
 *                        prefixes CPU training can afford (<data>/sft-corpora/<id> and <id>-cut<tokens>);
 *   3. `<id>-sft`        SftWorkflow on the cut corpus; its published adapter (`sft-v<N>`) is what RL starts from;
 *   4. `<id>-rl`         TrainingRunWorkflow from that adapter (version 0 and the KL reference), replaying the cut
 *                        corpus in its behaviour-cloning term;
 *   5. `<id>-eval-base`, `<id>-eval-sft`, `<id>-eval-rl`
 *                        EvaluationWorkflows of `embedded`, `embedded:<sft adapter>` and the policy the run served last,
 *                        with the same tasks, seeds (episode i is seeded with i) and settings.
 *
 * The children's ids are derived from the pipeline's (common/pipeline.ts pipelineChildIds): a worker that crashes
 * replays the pipeline onto the children already running or finished rather than starting new ones. Temporal carries
 * ids and small summaries only; corpora and adapters stay on disk, episodes in PostgreSQL.
 *
 * Query: progress (the stage, the children's ids, each stage's workflow times). Memo: pipelineStage.
 * `npx debugrl pipeline` starts and follows it and prints the three-way table; or
 *   temporal workflow start --type PipelineWorkflow --task-queue debugrl --workflow-id main-1 \
 *     --input '{"maxTasks":3,"training":{"steps":1,"groupSize":4,"groupsPerStep":1}}'
 */
import { ApplicationFailure, defineQuery, executeChild, proxyActivities, setHandler, upsertMemo, workflowInfo } from '@temporalio/workflow';
import { parseInput } from '../common/boundary';
import type { EvaluationInput } from '../common/evaluation';
import { Failure } from '../common/failures';
import { PipelineInput, pipelineChildIds, pipelineLearner, pipelineTasks, trainingInputOf, type PipelineProgress, type PipelineResult, type PipelineStage } from '../common/pipeline';
import type { PipelineActivities } from '../activities/pipeline';
import { EvaluationWorkflow } from './evaluation';
import { SftWorkflow, type SftInput } from './sft';
import { TrainingRunWorkflow } from './training-run';

export const pipelineProgressQuery = defineQuery<PipelineProgress>('progress');

const corpora = proxyActivities<PipelineActivities>({
  // The build tokenizes the corpus with the Python tokenizer: seconds for a few trajectories, minutes for hundreds.
  startToCloseTimeout: '30m',
  heartbeatTimeout: '1m',
  retry: { initialInterval: '2s', maximumInterval: '1m', maximumAttempts: 5, nonRetryableErrorTypes: [Failure.InvalidInput] },
});

export async function PipelineWorkflow(raw: unknown): Promise<PipelineResult> {
  const cfg = parseInput(PipelineInput, raw, 'PipelineWorkflow');
  const pipelineId = workflowInfo().workflowId;
  // The id names the children, the corpus folders and (through the evaluations) the report folders.
  if (!/^[\w.-]{1,80}$/.test(pipelineId)) throw ApplicationFailure.nonRetryable(`workflow id "${pipelineId}" must be 1-80 letters, digits, '_', '.' or '-' (it names the pipeline's children and folders)`, Failure.InvalidInput);
  const ids = pipelineChildIds(pipelineId);
  const learner = pipelineLearner(cfg);
  const progress: PipelineProgress = { pipelineId, stage: 'starting', children: ids, stages: [], corpus: null, sftAdapter: null, rlPolicy: null };
  setHandler(pipelineProgressQuery, () => progress);
  const memo = { pipeline: pipelineId };

  /** Run one stage, recording its workflow times. */
  const stage = async <T>(name: PipelineStage, run: () => Promise<T>): Promise<T> => {
    const record = { stage: name, childId: name === 'corpus' ? null : ids[name], startedAtMs: Date.now(), finishedAtMs: null as number | null };
    progress.stage = name;
    progress.stages.push(record);
    upsertMemo({ pipelineStage: name });
    const out = await run();
    record.finishedAtMs = Date.now();
    return out;
  };
  const tasks = pipelineTasks(cfg);
  const evaluate = (name: 'teacher' | 'eval-base' | 'eval-sft' | 'eval-rl', input: EvaluationInput) =>
    stage(name, () => executeChild(EvaluationWorkflow, { workflowId: ids[name], args: [input], memo: { ...memo, pipelineStage: name } }));
  // Only when given, so that an input without it makes the children's inputs it always made (saved histories replay).
  const startWait = cfg.evaluation.sandboxScheduleToStartSeconds ? { sandboxScheduleToStartSeconds: cfg.evaluation.sandboxScheduleToStartSeconds } : {};
  const student = (policy: string): EvaluationInput => {
    const e = cfg.evaluation;
    return { policy, ...tasks, toolset: cfg.toolset, episodesPerTask: e.episodesPerTask, k: e.k ?? e.episodesPerTask, limits: e.limits, concurrency: e.concurrency, ...startWait };
  };

  // 1. the teacher, teacherEpisodes episodes per task (k stays 1). With the default 1 this input is what it always was,
  // so histories from before teacherEpisodes replay.
  const teacher = await evaluate('teacher', { policy: cfg.teacher, ...tasks, toolset: cfg.toolset, episodesPerTask: cfg.teacherEpisodes, k: 1, limits: cfg.teacherLimits, concurrency: cfg.evaluation.concurrency, ...startWait });

  // 2. its passing trajectories as a corpus, cut
  const corpus = await stage('corpus', () => corpora.buildPipelineCorpus({ pipelineId, evaluationId: teacher.evaluationId, maxTokens: cfg.corpus.maxTokens, heldOutFraction: cfg.corpus.heldOutFraction }));
  progress.corpus = corpus;

  // 3. SFT on the cut corpus, with the training run's rank and model so the adapter fits it
  const sftInput: SftInput = {
    corpusDir: corpus.cutDir,
    epochs: cfg.sft.epochs,
    ...(cfg.sft.lr !== undefined ? { lr: cfg.sft.lr } : {}),
    ...(cfg.sft.warmupSteps !== undefined ? { warmupSteps: cfg.sft.warmupSteps } : {}),
    ...(cfg.sft.batchExamples !== undefined ? { batchExamples: cfg.sft.batchExamples } : {}),
    loraRank: learner.loraRank,
    ...(learner.modelDir ? { modelDir: learner.modelDir } : {}),
    learnerTaskQueue: cfg.learnerTaskQueue,
    publish: true,
  };
  const sft = await stage('sft', () => executeChild(SftWorkflow, { workflowId: ids.sft, args: [sftInput], memo: { ...memo, pipelineStage: 'sft' } }));
  if (!sft.adapter) throw ApplicationFailure.nonRetryable(`${ids.sft} published no adapter`, Failure.AdapterRejected);
  const sftAdapter = sft.adapter;
  progress.sftAdapter = sftAdapter;

  // 4. RL from the SFT adapter, replaying the cut corpus
  const rlInput = trainingInputOf(cfg, { runId: ids.rl, initAdapter: sftAdapter.name, bcCorpus: corpus.cutDir });
  const rl = await stage('rl', () => executeChild(TrainingRunWorkflow, { workflowId: ids.rl, args: [rlInput], memo: { ...memo, pipelineStage: 'rl' } }));
  progress.rlPolicy = rl.policy;

  // 5. base, SFT and RL on the same tasks, seeds and settings
  const base = await evaluate('eval-base', student('embedded'));
  const sftEval = await evaluate('eval-sft', student(`embedded:${sftAdapter.name}`));
  const rlEval = await evaluate('eval-rl', student(rl.policy));

  progress.stage = 'finished';
  upsertMemo({ pipelineStage: 'finished' });
  return {
    pipelineId,
    children: ids,
    corpus,
    sftAdapter,
    rlPolicy: rl.policy,
    rlSteps: rl.steps,
    evaluations: { base: base.evaluationId, sft: sftEval.evaluationId, rl: rlEval.evaluationId },
    stages: progress.stages,
  };
}
