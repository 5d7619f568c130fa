/** The pipeline's pure parts: its input (what it refuses, before any stage runs), the children's ids, the training
 * run's input it derives, and the corpus cut (common/sft-cut.ts). */
import { cutAtTurnEnd, cutPart, derivationOf, type ExampleMeta } from '../common/sft-cut';
import { PipelineInput, pipelineChildIds, pipelineLearner, trainingInputOf } from '../common/pipeline';
import { TrainingRunInput } from '../common/training';
import { Command } from 'commander';
import { givenIn, pipelineInputFrom, pipelineUsageError, register as registerPipelineCommand, type PipelineOptions } from '../workers/commands/pipeline';

const issues = (raw: unknown) => {
  const r = PipelineInput.safeParse(raw);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('PipelineInput', () => {
  it('defaults to the train split, the oracle teacher and k = every episode', () => {
    const cfg = PipelineInput.parse({ training: { steps: 1 } });
    expect(cfg).toMatchObject({ teacher: 'oracle', teacherEpisodes: 1, toolset: 'full', corpus: { maxTokens: 3584 }, sft: { epochs: 3 }, evaluation: { episodesPerTask: 2 } });
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
    expect(issues({ teacherEpisodes: 0, training: { steps: 1 } }).join('\n')).toMatch(/^teacherEpisodes: /m);
    expect(issues({ teacherEpisodes: 1.5, training: { steps: 1 } }).join('\n')).toMatch(/^teacherEpisodes: /m);
  });

  it('names every child after the pipeline', () => {
    expect(Object.values(pipelineChildIds('main-1'))).toEqual(['main-1-teacher', 'main-1-sft', 'main-1-rl', 'main-1-eval-base', 'main-1-eval-sft', 'main-1-eval-rl']);
  });
});

describe('debugrl pipeline', () => {
  /** The CLI's defaults (infra/main's run: the 12 starter tasks without the debugger tools), as commander hands them
   * to the action. infra/main passes no flag of its own, so these are its settings too. */
  const defaults: PipelineOptions = {
    split: 'starter', maxTasks: 12, tools: 'no-debugger', teacherEpisodes: 1, episodes: 2, turns: 4, maxContext: 2048, maxNewTokens: 96, concurrency: 8,
    sftTokens: 2048, sftEpochs: 2, sftLr: 1e-3, sftBatch: 2, steps: 2, groupSize: 8, groupsPerStep: 1, trainTurns: 4, trainNewTokens: 96, lr: 3e-4,
    bcExamples: 1, learnerTokens: 2048,
  };

  /** The real command, parsed from these arguments without running: the options and whether each was given. */
  const parse = async (args: string[]) => {
    const program = new Command().exitOverride();
    registerPipelineCommand(program);
    const cmd = program.commands.find((c) => c.name() === 'pipeline')!;
    cmd.configureOutput({ writeErr: () => undefined });
    let options: PipelineOptions | undefined;
    cmd.action((o: PipelineOptions) => void (options = o));
    await program.parseAsync(['pipeline', ...args], { from: 'user' });
    return { options: options!, given: givenIn(cmd) };
  };

  it("has infra/main's settings as its defaults", async () => {
    expect((await parse([])).options).toEqual(defaults);
  });

  it('builds the input from those flags, the training part with train\'s own code', () => {
    const input = pipelineInputFrom(defaults);
    expect(input).toEqual({
      split: 'starter', maxTasks: 12, toolset: 'no-debugger', teacherEpisodes: 1,
      corpus: { maxTokens: 2048 },
      sft: { epochs: 2, lr: 1e-3, batchExamples: 2 },
      training: {
        steps: 2, groupSize: 8, groupsPerStep: 1, poolSize: 8, bcExamples: 1,
        limits: { maxTurns: 4, maxNewTokens: 96, maxContextTokens: 2048 },
        learner: { model: 'smollm2', lr: 3e-4, maxTokens: 2048 },
      },
      evaluation: { episodesPerTask: 2, limits: { maxTurns: 4, maxContextTokens: 2048, maxNewTokens: 96 }, concurrency: 8 },
    });
    expect(PipelineInput.safeParse(input).success).toBe(true);
    expect(pipelineInputFrom({ ...defaults, tasks: 'abc_def, ghi_jkl', tools: 'full' })).toMatchObject({ taskIds: ['abc_def', 'ghi_jkl'], toolset: 'full' });
  });

  it('carries --teacher-episodes (default 1) into the input', async () => {
    expect(PipelineInput.parse(pipelineInputFrom(defaults)).teacherEpisodes).toBe(1);
    const { options } = await parse(['--teacher-episodes', '2']);
    expect(options.teacherEpisodes).toBe(2);
    const input = pipelineInputFrom(options);
    expect(input).toMatchObject({ teacherEpisodes: 2, evaluation: { episodesPerTask: 2 } });
    expect(PipelineInput.parse(input).teacherEpisodes).toBe(2);
    await expect(parse(['--teacher-episodes', '0'])).rejects.toThrow(/--teacher-episodes must be between 1 and 64/);
  });

  it('takes a --tasks list in place of the default split and cap, but not with a --split or --max-tasks given', async () => {
    const tasks = await parse(['--tasks', 'abc_def,ghi_jkl']);
    expect(pipelineUsageError(tasks.options, tasks.given)).toBeNull();
    const input = pipelineInputFrom(tasks.options);
    expect(input).toMatchObject({ taskIds: ['abc_def', 'ghi_jkl'] });
    expect(input).not.toHaveProperty('split');
    expect(input).not.toHaveProperty('maxTasks');
    expect(PipelineInput.safeParse(input).success).toBe(true);
    for (const extra of [['--split', 'train'], ['--max-tasks', '3'], ['--split', 'starter']]) {
      const mixed = await parse(['--tasks', 'abc_def', ...extra]);
      expect(pipelineUsageError(mixed.options, mixed.given)).toBe('give --tasks, or --split (and --max-tasks), not both');
    }
    const split = await parse(['--split', 'train', '--max-tasks', '3']);
    expect(pipelineUsageError(split.options, split.given)).toBeNull();
    expect(pipelineInputFrom(split.options)).toMatchObject({ split: 'train', maxTasks: 3 });
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
