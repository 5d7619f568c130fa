/**
 * StarLoopWorkflow: STaR (Zelikman et al., 2022) on our harness. The student is SmolLM2 on the embedded server.
 *
 *   baseline   the starting policy on the validation split (child `<loop>-baseline-val-eval`): the pass@1 to beat.
 *   generation N, each step a child workflow or an activity named after it:
 *     1. `<loop>-g<N>-train-eval`  EvaluationWorkflow: the current best policy on the train split, n episodes per
 *                                  task (generation 0 may use a teacher instead, e.g. `oracle`);
 *     2-3. buildStarCorpus         the passing trajectories through the behavioural filters, merged into the
 *                                  running corpus with their provenance (<data>/star/<loop>/g<N>);
 *     4. `<loop>-g<N>-sft`         SftWorkflow on the gpu queue, from the base model or the best adapter;
 *     5. `<loop>-g<N>-val-eval`    EvaluationWorkflow: the new adapter on the validation split;
 *     6. keep the adapter only if validation pass@1 improved, and stop otherwise (or after G generations).
 *   report     reports/<loop>/star.{json,md,html}, rewritten after every generation.
 *
 * Query: progress. Memo: the generation, the best policy and its pass@1, updated as the loop goes.
 *   temporal workflow start --type StarLoopWorkflow --task-queue debugrl --workflow-id star-1 \
 *     --input '{"teacher":"oracle","generations":2,"episodesPerTask":2,"trainMaxTasks":10,"validationMaxTasks":10}'
 */
import { ApplicationFailure, defineQuery, executeChild, proxyActivities, setHandler, upsertMemo, workflowInfo } from '@temporalio/workflow';
import { parseInput } from '../common/boundary';
import type { EvaluationInput, EvaluationResult } from '../common/evaluation';
import { Failure } from '../common/failures';
import { improved, StarLoopInput, studentPolicy, type StarBaseline, type StarGeneration, type StarProgress, type StarResult } from '../common/star';
import type { StarActivities } from '../activities/star';
import { EvaluationWorkflow } from './evaluation';
import { SftWorkflow, type SftInput } from './sft';

export const starProgressQuery = defineQuery<StarProgress>('progress');

const store = proxyActivities<StarActivities>({
  // The build tokenizes the corpus with the Python tokenizer: seconds for a few hundred examples, minutes for more.
  startToCloseTimeout: '30m',
  retry: { initialInterval: '2s', maximumInterval: '1m', maximumAttempts: 5, nonRetryableErrorTypes: [Failure.InvalidInput] },
});

export async function StarLoopWorkflow(raw: unknown): Promise<StarResult> {
  const cfg = parseInput(StarLoopInput, raw, 'StarLoopWorkflow');
  const loopId = workflowInfo().workflowId;
  // The loop's id names its evaluations, corpus folders and report folder.
  if (!/^[\w.-]{1,80}$/.test(loopId)) throw ApplicationFailure.nonRetryable(`workflow id "${loopId}" must be 1-80 letters, digits, '_', '.' or '-' (it names the loop's evaluations and folders)`, Failure.InvalidInput);

  const startPolicy = studentPolicy(cfg.startAdapter);
  const progress: StarProgress = {
    loopId,
    phase: 'starting',
    generation: 0,
    baseline: null,
    generations: [],
    best: { policy: startPolicy, adapter: cfg.startAdapter, adapterPath: null, validationPassAt1: null },
    stopped: null,
  };
  setHandler(starProgressQuery, () => progress);
  const memo = () => upsertMemo({ starGeneration: progress.generation, starPhase: progress.phase, bestPolicy: progress.best.policy, bestValidationPassAt1: progress.best.validationPassAt1 });
  const phase = (p: StarProgress['phase']) => {
    progress.phase = p;
    memo();
  };

  const shared = { concurrency: cfg.concurrency, k: 1 };
  const trainTasks = cfg.trainTaskIds ? { taskIds: cfg.trainTaskIds } : { split: 'train' as const, ...(cfg.trainMaxTasks ? { maxTasks: cfg.trainMaxTasks } : {}) };
  const valTasks = cfg.validationTaskIds ? { taskIds: cfg.validationTaskIds } : { split: 'validation' as const, ...(cfg.validationMaxTasks ? { maxTasks: cfg.validationMaxTasks } : {}) };
  const evaluate = async (workflowId: string, policy: string, onTrain: boolean, generation: number | null, role: string): Promise<EvaluationResult> => {
    const input: EvaluationInput = onTrain
      ? { policy, ...trainTasks, episodesPerTask: cfg.episodesPerTask, limits: cfg.limits, ...shared }
      : { policy, ...valTasks, episodesPerTask: cfg.validationEpisodesPerTask, limits: cfg.validationLimits ?? cfg.limits, ...shared };
    return executeChild(EvaluationWorkflow, { workflowId, args: [input], memo: { starLoop: loopId, starGeneration: generation, starRole: role } });
  };
  const report = () =>
    store.writeStarReport({ loopId, baseline: progress.baseline!, generations: progress.generations, best: progress.best, stopped: progress.stopped });

  phase('baseline');
  const base = await evaluate(`${loopId}-baseline-val-eval`, startPolicy, false, null, 'baseline-val-eval');
  const baseline: StarBaseline = { policy: startPolicy, evaluationId: base.evaluationId, passAt1: base.arms[0]?.passAt1 ?? null };
  progress.baseline = baseline;
  progress.best.validationPassAt1 = baseline.passAt1;

  let runningCorpus: string | null = null;
  for (let g = 0; g < cfg.generations && !progress.stopped; g++) {
    progress.generation = g;
    const trainPolicy = g === 0 && cfg.teacher ? cfg.teacher : progress.best.policy;
    const gen: StarGeneration = {
      generation: g,
      trainPolicy,
      trainEvaluationId: `${loopId}-g${g}-train-eval`,
      trainPassAt1: null,
      corpus: null,
      sft: null,
      validationEvaluationId: null,
      validationPassAt1: null,
      bestBefore: progress.best.validationPassAt1,
      kept: false,
    };
    progress.generations.push(gen);

    // 1. the current best policy (or generation 0's teacher) on the train split
    phase('train-eval');
    const train = await evaluate(gen.trainEvaluationId, trainPolicy, true, g, 'train-eval');
    gen.trainEvaluationId = train.evaluationId;
    gen.trainPassAt1 = train.arms[0]?.passAt1 ?? null;

    // 2-3. the passing, gated trajectories, merged into the running corpus with their provenance
    phase('build');
    gen.corpus = await store.buildStarCorpus({ loopId, generation: g, evaluationId: train.evaluationId, mergeFrom: runningCorpus, build: cfg.build });
    if (!gen.corpus.outDir || !gen.corpus.added) {
      // Nothing new passed the filters: the running corpus is the one the best adapter was already trained on.
      progress.stopped = 'empty-corpus';
      break;
    }
    runningCorpus = gen.corpus.outDir;

    // 4. fine-tune from the chosen initialisation
    phase('sft');
    const sftId = `${loopId}-g${g}-sft`;
    const initAdapter = cfg.init === 'best' ? (progress.best.adapterPath ?? progress.best.adapter) : null;
    const sftInput: SftInput = { corpusDir: runningCorpus, ...cfg.sft, learnerTaskQueue: cfg.learnerTaskQueue, publish: true, ...(initAdapter ? { initAdapter } : {}) };
    const sft = await executeChild(SftWorkflow, { workflowId: sftId, args: [sftInput], memo: { starLoop: loopId, starGeneration: g, starRole: 'sft' } });
    const chosen = sft.epochs.find((e) => e.epoch === sft.chosenEpoch);
    gen.sft = { workflowId: sftId, adapter: sft.adapter?.name ?? null, adapterPath: sft.adapter?.path ?? null, chosenEpoch: sft.chosenEpoch, heldOutLoss: chosen?.heldOutLoss ?? null };
    if (!sft.adapter) throw ApplicationFailure.nonRetryable(`${sftId} published no adapter`, Failure.AdapterRejected);

    // 5. the new adapter on the validation split
    phase('val-eval');
    const val = await evaluate(`${loopId}-g${g}-val-eval`, studentPolicy(sft.adapter.name), false, g, 'val-eval');
    gen.validationEvaluationId = val.evaluationId;
    gen.validationPassAt1 = val.arms[0]?.passAt1 ?? null;

    // 6. keep it only if validation pass@1 improved; otherwise stop
    gen.kept = improved(progress.best.validationPassAt1, gen.validationPassAt1, cfg.minImprovement);
    if (gen.kept) progress.best = { policy: studentPolicy(sft.adapter.name), adapter: sft.adapter.name, adapterPath: sft.adapter.path, validationPassAt1: gen.validationPassAt1 };
    else progress.stopped = 'no-improvement';
    phase('report');
    await report();
  }
  progress.stopped ??= 'generations';
  phase('report');
  const files = await report();
  phase('finished');
  return { loopId, baseline, generations: progress.generations, best: progress.best, stopped: progress.stopped, report: files };
}
