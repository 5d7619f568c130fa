/**
 * `npx debugrl pipeline [options]`: the seed's pipeline as one PipelineWorkflow (workflows/pipeline.ts): teacher data
 * (the oracle), the SFT corpus and its cut, SFT, GRPO from the SFT adapter with BC replay, then base, SFT and RL
 * evaluated on the same tasks and seeds. It starts the workflow (or follows it, when `--id` names one that runs), prints
 * each stage as it starts with its child's Temporal UI link, waits, then prints the three-way table (`compare`'s),
 * where the reports are and each stage's time. Its defaults are infra/main's run (the 12 starter tasks without the
 * debugger tools); infra/main passes a flag only for a DEBUGRL_MAIN_* variable that is set. The same pipeline can be
 * started with
 *   temporal workflow start --type PipelineWorkflow --task-queue debugrl --workflow-id main-1 \
 *     --input '{"split":"train","maxTasks":3,"training":{"steps":1,"groupSize":4,"groupsPerStep":1,"poolSize":4}}'
 */
import * as path from 'node:path';
import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowFailedError } from '@temporalio/client';
import type { Command } from 'commander';
import { Pool } from 'pg';
import { describeZodError } from '../../common/boundary';
import { loadConfig, REPO_ROOT, type Config } from '../../common/config';
import { pgConnectionString, temporalConnectionOptions } from '../../common/connections';
import { PipelineInput, type PipelineProgress, type PipelineResult, type PipelineStageRecord } from '../../common/pipeline';
import { Split } from '../../taskset/task-schema';
import { action, choiceOption, describeError, intOption, positiveNumberOption, uiUrl, workflowResult } from '../cli-kit';
import { compareMany, tableMarkdown } from '../viewer/compare';
import { trainingInputFrom } from './train';

export interface PipelineOptions {
  split?: string;
  tasks?: string;
  maxTasks?: number;
  tools: 'full' | 'no-debugger';
  teacherEpisodes: number;
  episodes: number;
  turns: number;
  maxContext: number;
  maxNewTokens: number;
  concurrency: number;
  sftTokens: number;
  sftEpochs: number;
  sftLr: number;
  sftBatch: number;
  steps: number;
  groupSize: number;
  groupsPerStep: number;
  trainTurns: number;
  trainNewTokens: number;
  lr: number;
  bcExamples: number;
  learnerTokens: number;
  model?: string;
  id?: string;
}

/** The workflow's input from the flags; the training run's part is built by `train`'s own code. */
export function pipelineInputFrom(o: PipelineOptions): PipelineInput {
  const taskIds = o.tasks?.split(',').map((t) => t.trim()).filter(Boolean);
  const training = trainingInputFrom({
    groupSize: o.groupSize,
    groupsPerStep: o.groupsPerStep,
    steps: o.steps,
    poolSize: o.groupSize,
    maxTurns: o.trainTurns,
    maxNewTokens: o.trainNewTokens,
    maxContext: o.maxContext,
    learnerModel: 'smollm2',
    ...(o.model ? { model: o.model } : {}),
    lr: String(o.lr),
    learnerMaxTokens: o.learnerTokens,
    bcExamples: o.bcExamples,
  });
  return {
    // A task list replaces the split and its cap (their defaults included).
    ...(taskIds ? { taskIds } : { split: (o.split ?? 'starter') as Split, ...(o.maxTasks ? { maxTasks: o.maxTasks } : {}) }),
    toolset: o.tools,
    teacherEpisodes: o.teacherEpisodes,
    corpus: { maxTokens: o.sftTokens },
    sft: { epochs: o.sftEpochs, lr: o.sftLr, batchExamples: o.sftBatch },
    training,
    evaluation: { episodesPerTask: o.episodes, limits: { maxTurns: o.turns, maxContextTokens: o.maxContext, maxNewTokens: o.maxNewTokens }, concurrency: o.concurrency },
  };
}

const seconds = (s: PipelineStageRecord) => (s.finishedAtMs === null ? null : Math.round((s.finishedAtMs - s.startedAtMs) / 1000));

/** `teacher 41 s, corpus 6 s, …`: each stage's workflow time. */
export function formatStageTimes(stages: PipelineStageRecord[]): string {
  return stages.map((s) => `${s.stage} ${seconds(s) ?? '…'} s`).join(', ');
}

/** Follow the pipeline: a line per stage as it starts (with its child's UI link) and as it ends. */
async function follow(client: Client, config: Config, workflowId: string): Promise<PipelineResult | null> {
  const handle = client.workflow.getHandle(workflowId);
  let finished = false;
  const done = workflowResult<PipelineResult>(handle).finally(() => (finished = true));
  done.catch(() => undefined);
  const said = new Set<string>();
  const say = (key: string, line: string) => {
    if (said.has(key)) return;
    said.add(key);
    console.log(line);
  };
  while (!finished) {
    await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 3000))]);
    const p = await handle.query<PipelineProgress>('progress').catch(() => null);
    for (const s of p?.stages ?? []) {
      say(`${s.stage}:start`, `stage ${s.stage} started${s.childId ? `: ${s.childId} (${uiUrl(config, s.childId)})` : ''}`);
      if (s.finishedAtMs !== null) say(`${s.stage}:end`, `stage ${s.stage} done in ${seconds(s)} s`);
    }
  }
  try {
    return await done;
  } catch (e) {
    console.error(`pipeline ${workflowId} failed\n${describeError(e instanceof WorkflowFailedError && e.cause ? e.cause : e)}`);
    console.error(`Temporal UI: ${uiUrl(config, workflowId)}`);
    return null;
  }
}

/** What the pipeline made and where to look: reports, the corpus, the adapters, the UI, the times, then the table. */
async function summary(config: Config, r: PipelineResult): Promise<void> {
  const report = (id: string, file = 'report.html') => path.join(REPO_ROOT, 'reports', id, file);
  const e = r.evaluations;
  console.log(`
Teacher data:      ${report(r.children.teacher)}
SFT corpus:        ${r.corpus.corpusDir} (cut: ${r.corpus.cutDir}; ${r.corpus.trainExamples} train, ${r.corpus.heldOutExamples} held out, ${r.corpus.tooLong} too long to cut)
SFT adapter:       ${r.sftAdapter.name} (SftWorkflow ${r.children.sft})
Training report:   ${report(r.children.rl, 'training.html')}  (npx debugrl train status ${r.children.rl}; served last as ${r.rlPolicy})
Base report:       ${report(e.base)}  (embedded)
SFT report:        ${report(e.sft)}  (embedded:${r.sftAdapter.name})
RL report:         ${report(e.rl)}  (${r.rlPolicy})
Temporal UI:       ${uiUrl(config, r.pipelineId)}
${Object.values(r.children).map((id) => `                   ${uiUrl(config, id)}`).join('\n')}
Stage times:       ${formatStageTimes(r.stages)}
`);
  const pool = new Pool({ connectionString: pgConnectionString(config), max: 2 });
  try {
    console.log('Base, SFT and RL on the same tasks, seeds and settings:');
    console.log(tableMarkdown(await compareMany(pool, [e.base, e.sft, e.rl])));
    console.log(`(per task: npx debugrl compare ${e.base} ${e.rl}; side by side: npx debugrl serve, then /compare)`);
  } finally {
    await pool.end();
  }
}

/** A usage mistake in the flags, or null. `given` says whether a flag was given (not its default): --tasks replaces the
 * default split and cap, but conflicts with a --split or --max-tasks given with it. */
export function pipelineUsageError(o: PipelineOptions, given: (option: 'split' | 'maxTasks') => boolean): string | null {
  if (o.tasks && (given('split') || given('maxTasks'))) return 'give --tasks, or --split (and --max-tasks), not both';
  return null;
}

/** Whether the user gave the option (on the command line), rather than commander filling in its default. */
export const givenIn = (cmd: Command) => (option: string): boolean => {
  const source = cmd.getOptionValueSource(option);
  return source !== undefined && source !== 'default';
};

async function run(o: PipelineOptions, cmd: Command): Promise<number> {
  const usage = pipelineUsageError(o, givenIn(cmd));
  if (usage) {
    console.error(`debugrl pipeline: ${usage}`);
    return 2;
  }
  const config = loadConfig();
  const input = { ...pipelineInputFrom(o), learnerTaskQueue: config.DEBUGRL_LEARNER_TASK_QUEUE };
  const parsed = PipelineInput.safeParse(input);
  if (!parsed.success) {
    console.error(`debugrl pipeline: ${describeZodError(parsed.error)}`);
    return 2;
  }
  const workflowId = o.id ?? `pipeline-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`;
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });
    try {
      // An id used before is never run again (its children's ids are taken): it is followed, or its result shown.
      await client.workflow.start('PipelineWorkflow', { taskQueue: config.DEBUGRL_TASK_QUEUE, workflowId, args: [input], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
      console.log(`pipeline ${workflowId} started — Temporal UI: ${uiUrl(config, workflowId)}`);
    } catch (e) {
      if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      console.log(`pipeline ${workflowId} exists already; following it (its own settings, not these) — Temporal UI: ${uiUrl(config, workflowId)}`);
    }
    const r = await follow(client, config, workflowId);
    if (!r) return 1;
    await summary(config, r);
    return 0;
  } finally {
    await connection.close();
  }
}

export function register(program: Command): void {
  program
    .command('pipeline')
    .summary("the seed's pipeline as one workflow: teacher data, SFT, RL from SFT, then base, SFT and RL side by side")
    .description(
      'Start a PipelineWorkflow (each stage a child workflow in the Temporal UI, resumable after a crash), follow it, and print the three-way table of base, SFT and RL on the same tasks and seeds, the reports and each stage\'s time. The defaults are infra/main\'s run on the embedded SmolLM2: the 12 starter tasks without the debugger tools.\n' +
        'Exit status: 0 the pipeline finished; 1 it failed; 2 a usage mistake.',
    )
    .option('--split <split>', 'the tasks of every stage: this split', choiceOption('--split', Split.options), 'starter')
    .option('--max-tasks <n>', 'only its first N tasks (raise it for all of a bigger split)', intOption('--max-tasks', 1, 10_000), 12)
    .option('--tasks <ids>', 'comma-separated task ids instead of a split (replaces the default --split and --max-tasks)')
    .option('--tools <set>', 'full or no-debugger, for every stage', choiceOption('--tools', ['full', 'no-debugger'] as const), 'no-debugger')
    .option('--teacher-episodes <n>', "the teacher's episodes per task (its trajectories differ by seed: more SFT examples)", intOption('--teacher-episodes', 1, 64), 1)
    .option('--episodes <n>', 'evaluation episodes per task (pass@k with k = n)', intOption('--episodes', 1, 64), 2)
    .option('--turns <n>', 'evaluation turn cap', intOption('--turns', 1, 500), 4)
    .option('--max-context <n>', 'context window in tokens, evaluation and training (the embedded SmolLM2 serves 8192)', intOption('--max-context', 512, 1_000_000), 2048)
    .option('--max-new-tokens <n>', 'tokens per model reply in the evaluations', intOption('--max-new-tokens', 16, 32_768), 96)
    .option('--concurrency <n>', 'evaluation episodes at once', intOption('--concurrency', 1, 256), 8)
    .option('--sft-tokens <n>', 'tokens each SFT example is cut to (its last whole assistant turn within them)', intOption('--sft-tokens', 64, 1_000_000), 2048)
    .option('--sft-epochs <n>', 'SFT epochs', intOption('--sft-epochs', 1, 100), 2)
    .option('--sft-lr <x>', 'SFT peak learning rate', positiveNumberOption('--sft-lr', 1), 1e-3)
    .option('--sft-batch <n>', 'SFT examples per optimizer step', intOption('--sft-batch', 1, 1024), 2)
    .option('--steps <n>', 'GRPO steps', intOption('--steps', 1, 1_000_000), 2)
    .option('--group-size <n>', 'episodes per GRPO group (also the rollout pool)', intOption('--group-size', 2, 64), 8)
    .option('--groups-per-step <n>', 'groups per optimizer step', intOption('--groups-per-step', 1, 64), 1)
    .option('--train-turns <n>', 'turn cap of a training episode', intOption('--train-turns', 1, 500), 4)
    .option('--train-new-tokens <n>', 'tokens per model reply in training', intOption('--train-new-tokens', 16, 32_768), 96)
    .option('--lr <x>', 'GRPO learning rate', positiveNumberOption('--lr', 1), 3e-4)
    .option('--bc-examples <n>', 'SFT examples replayed per GRPO step', intOption('--bc-examples', 1, 1024), 1)
    .option('--learner-tokens <n>', "tokens per learner microbatch (one 3-turn chain is about 2,600; SmolLM2's logits take ~0.8 GB per 4k tokens)", intOption('--learner-tokens', 64, 262_144), 2048)
    .option('--model <dir>', 'train this local checkpoint directory instead of the embedded SmolLM2 (the server must serve it)')
    .option('--id <pipeline>', 'the pipeline id, which names its children (default pipeline-<timestamp>); an existing pipeline is followed (or its result shown), never run again')
    .action(action((o: PipelineOptions, cmd: Command) => run(o, cmd)));
}
