/** The pipeline's pure parts: its input (what it refuses, before any stage runs), the children's ids, the training
 * run's input it derives, and the corpus cut (common/sft-cut.ts). */
import { cutAtTurnEnd, cutPart, derivationOf, type ExampleMeta } from '../common/sft-cut';
import { PipelineInput, pipelineChildIds, pipelineLearner, trainingInputOf } from '../common/pipeline';
import { TrainingRunInput } from '../common/training';
import { pipelineInputFrom, type PipelineOptions } from '../workers/commands/pipeline';

const issues = (raw: unknown) => {
  const r = PipelineInput.safeParse(raw);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('PipelineInput', () => {
  it('defaults to the train split, the oracle teacher and k = every episode', () => {
    const cfg = PipelineInput.parse({ training: { steps: 1 } });
    expect(cfg).toMatchObject({ teacher: 'oracle', toolset: 'full', corpus: { maxTokens: 3584 }, sft: { epochs: 3 }, evaluation: { episodesPerTask: 2 } });
    expect(cfg.evaluation.k).toBeUndefined();
    expect(trainingInputOf(cfg, { runId: 'p-rl', initAdapter: 'sft-v3', bcCorpus: '/c' })).toEqual({ steps: 1, split: 'train', toolset: 'full', learnerTaskQueue: 'gpu', runId: 'p-rl', initAdapter: 'sft-v3', bcCorpus: '/c' });
  });

  it('gives the training run the pipeline tasks, tools and queue, and SFT the run learner', () => {
    const cfg = PipelineInput.parse({ taskIds: ['abc_def'], toolset: 'no-debugger', learnerTaskQueue: 'q', training: { steps: 2, groupSize: 4, learner: { loraRank: 4, modelDir: '/m' }, bcExamples: 1 } });
    const run = TrainingRunInput.parse(trainingInputOf(cfg, { runId: 'p-rl', initAdapter: 'sft-v1', bcCorpus: '/cut' }));
    expect(run).toMatchObject({ runId: 'p-rl', taskIds: ['abc_def'], toolset: 'no-debugger', learnerTaskQueue: 'q', initAdapter: 'sft-v1', bcCorpus: '/cut', bcExamples: 1, steps: 2, groupSize: 4 });
    expect(pipelineLearner(cfg)).toMatchObject({ loraRank: 4, modelDir: '/m' });
  });

  it('refuses fields the pipeline sets, a bad training setting and mixed task choices, naming each', () => {
    expect(issues({ training: { steps: 1, runId: 'x', initAdapter: 'sft-v1', bcCorpus: '/c' } })).toEqual(
      expect.arrayContaining(['training.runId: the pipeline sets this itself', 'training.initAdapter: the pipeline sets this itself', 'training.bcCorpus: the pipeline sets this itself']),
    );
    expect(issues({ training: {} }).join('\n')).toMatch(/^training\.steps: /m);
    expect(issues({ training: { steps: 1, groupSize: 1 } }).join('\n')).toMatch(/^training\.groupSize: /m);
    expect(issues({ taskIds: ['abc_def'], split: 'train', training: { steps: 1 } })).toEqual(['taskIds: give taskIds, or a split (and maxTasks), not both']);
    expect(issues({ evaluation: { episodesPerTask: 2, k: 3 }, training: { steps: 1 } })).toEqual(['evaluation.k: pass@3 needs at least 3 episodes per task, got 2']);
  });

  it('names every child after the pipeline', () => {
    expect(Object.values(pipelineChildIds('main-1'))).toEqual(['main-1-teacher', 'main-1-sft', 'main-1-rl', 'main-1-eval-base', 'main-1-eval-sft', 'main-1-eval-rl']);
  });
});

describe('debugrl pipeline', () => {
  /** infra/main's defaults, as commander hands them to the action. */
  const defaults: PipelineOptions = {
    tools: 'full', episodes: 2, turns: 6, maxContext: 8192, maxNewTokens: 192, concurrency: 2, sftTokens: 3584, sftEpochs: 2, sftLr: 5e-4, sftBatch: 1,
    steps: 1, groupSize: 4, groupsPerStep: 1, trainTurns: 3, trainNewTokens: 128, lr: 1e-4, bcExamples: 1, learnerTokens: 4096,
  };

  it('builds the input infra/main ran as separate commands, the training part with train\'s own code', () => {
    const input = pipelineInputFrom({ ...defaults, split: 'train', maxTasks: 3 });
    expect(input).toEqual({
      split: 'train', maxTasks: 3, toolset: 'full',
      corpus: { maxTokens: 3584 },
      sft: { epochs: 2, lr: 5e-4, batchExamples: 1 },
      training: {
        steps: 1, groupSize: 4, groupsPerStep: 1, poolSize: 4, bcExamples: 1,
        limits: { maxTurns: 3, maxNewTokens: 128, maxContextTokens: 8192 },
        learner: { model: 'smollm2', lr: 1e-4, maxTokens: 4096 },
      },
      evaluation: { episodesPerTask: 2, limits: { maxTurns: 6, maxContextTokens: 8192, maxNewTokens: 192 }, concurrency: 2 },
    });
    expect(PipelineInput.safeParse(input).success).toBe(true);
    expect(pipelineInputFrom({ ...defaults, tasks: 'abc_def, ghi_jkl', tools: 'no-debugger' })).toMatchObject({ taskIds: ['abc_def', 'ghi_jkl'], toolset: 'no-debugger' });
  });
});

describe('the corpus cut', () => {
  //            prompt      reply  tool result  reply
  const mask = [0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1];
  const ids = mask.map((_, i) => 100 + i);

  it('cuts after the last assistant turn that ends within the limit', () => {
    expect(cutAtTurnEnd(ids, mask, 100)).toEqual({ tokenIds: ids, mask });
    expect(cutAtTurnEnd(ids, mask, 10)).toEqual({ tokenIds: ids.slice(0, 5), mask: mask.slice(0, 5) });
    expect(cutAtTurnEnd(ids, mask, 5)).toEqual({ tokenIds: ids.slice(0, 5), mask: mask.slice(0, 5) });
    expect(cutAtTurnEnd(ids, mask, 4)).toBeNull(); // the first reply ends at 5
    expect(() => cutAtTurnEnd(ids, mask.slice(1), 4)).toThrow(/differ in length/);
  });

  it('keeps trajectories only, counts those too long, and records how the cut was made', () => {
    const meta = new Map<string, ExampleMeta>([
      ['a', { kind: 'trajectory', taskId: 'task_a' }],
      ['b', { kind: 'microskill', taskId: 'task_a' }],
      ['c', { kind: 'trajectory', taskId: 'task_c' }],
    ]);
    const rows = [
      { example_id: 'a', token_ids: ids, assistant_mask: mask.map(Boolean) },
      { example_id: 'b', token_ids: ids, assistant_mask: mask.map(Boolean) },
      { example_id: 'c', token_ids: [1, 2, 3, 4, 5, 6], assistant_mask: [false, false, false, false, false, true] },
    ];
    const train = cutPart(rows, meta, 5);
    expect(train.rows).toEqual([{ example_id: 'a', token_ids: ids.slice(0, 5), assistant_mask: [false, false, false, true, true] }]);
    expect(train).toMatchObject({ tasks: ['task_a'], tooLong: 1 });
    const d = derivationOf('/corpus', 5, { train, heldout: cutPart([], meta, 5) });
    expect(d).toEqual({
      from: '/corpus', max_tokens: 5, train_tasks: ['task_a'], heldout_tasks: [],
      tokens: { train: 5, heldout: 0 }, trained_tokens: { train: 2, heldout: 0 }, assistant_turns: { train: [1], heldout: [] }, too_long: { train: 1, heldout: 0 },
    });
    expect(() => cutPart([{ example_id: 'zz', token_ids: [1], assistant_mask: [true] }], meta, 5)).toThrow(/not in examples.jsonl/);
  });
});
