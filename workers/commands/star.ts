/** `npx debugrl star [options]`: start StarLoopWorkflow (workflows/star-loop.ts), follow its `progress` query, then
 * print one line per generation and where the report is. The same loop can be started with
 *   temporal workflow start --type StarLoopWorkflow --task-queue debugrl --workflow-id star-1 --input '{"teacher":"oracle"}'
 * Exit status: 0 when the loop finished, 1 when it failed, 2 for a usage mistake. */
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Command } from 'commander';
import { describeZodError } from '../../common/boundary';
import { loadConfig } from '../../common/config';
import { temporalConnectionOptions } from '../../common/connections';
import { StarLoopInput, type StarProgress, type StarResult } from '../../common/star';
import { action, choiceOption, describeError, intOption } from '../cli-kit';

interface StarOptions {
  teacher?: string;
  startAdapter?: string;
  generations?: number;
  episodes?: number;
  trainTasks?: string;
  trainMaxTasks?: number;
  validationTasks?: string;
  validationMaxTasks?: number;
  validationEpisodes?: number;
  maxTurns?: number;
  validationMaxTurns?: number;
  concurrency?: number;
  init?: 'base' | 'best';
  epochs?: number;
  lr?: string;
  perTaskCap?: number;
  queue?: string;
  id?: string;
  detach?: boolean;
}

const list = (s: string | undefined) => s?.split(',').map((t) => t.trim()).filter(Boolean);
const given = <T>(key: string, v: T | undefined) => (v === undefined ? {} : { [key]: v });

/** The workflow input from the flags; only what was given, so the workflow's defaults apply to the rest. */
export function starInputFrom(o: StarOptions): StarLoopInput {
  return {
    ...given('teacher', o.teacher),
    ...given('startAdapter', o.startAdapter),
    ...given('generations', o.generations),
    ...given('episodesPerTask', o.episodes),
    ...given('trainTaskIds', list(o.trainTasks)),
    ...given('trainMaxTasks', o.trainMaxTasks),
    ...given('validationTaskIds', list(o.validationTasks)),
    ...given('validationMaxTasks', o.validationMaxTasks),
    ...given('validationEpisodesPerTask', o.validationEpisodes),
    ...given('limits', o.maxTurns === undefined ? undefined : { maxTurns: o.maxTurns }),
    ...given('validationLimits', o.validationMaxTurns === undefined ? undefined : { maxTurns: o.validationMaxTurns }),
    ...given('concurrency', o.concurrency),
    ...given('init', o.init),
    ...given('learnerTaskQueue', o.queue),
    ...given('build', o.perTaskCap === undefined ? undefined : { perTaskCap: o.perTaskCap }),
    ...given('sft', o.epochs === undefined && o.lr === undefined ? undefined : { ...given('epochs', o.epochs), ...given('lr', o.lr === undefined ? undefined : Number(o.lr)) }),
  } as StarLoopInput;
}

const pct = (v: number | null) => (v === null ? '—' : `${(100 * v).toFixed(1)}%`);

async function star(o: StarOptions): Promise<number> {
  const input = starInputFrom(o);
  const parsed = StarLoopInput.safeParse(input);
  if (!parsed.success) {
    console.error(`debugrl star: ${describeZodError(parsed.error)}`);
    return 2;
  }
  const config = loadConfig();
  const workflowId = o.id ?? `star-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`;
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });
    try {
      await client.workflow.start('StarLoopWorkflow', { taskQueue: config.DEBUGRL_TASK_QUEUE, workflowId, args: [input] });
    } catch (e) {
      if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      console.error(`debugrl star: ${workflowId} is running already`);
      return 2;
    }
    console.log(`StarLoopWorkflow ${workflowId} started (SFT on queue "${parsed.data.learnerTaskQueue}")`);
    if (o.detach) return 0;
    const handle = client.workflow.getHandle(workflowId);
    const result = handle.result() as Promise<StarResult>;
    let finished = false;
    result.then(() => (finished = true), () => (finished = true));
    let last = '';
    while (!finished) {
      const p = (await handle.query<StarProgress>('progress').catch(() => null)) as StarProgress | null;
      const line = p ? `generation ${p.generation}: ${p.phase}` : '';
      if (line && line !== last) console.log(`  ${line}`);
      last = line || last;
      await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
    }
    let r: StarResult;
    try {
      r = await result;
    } catch (e) {
      console.error(`debugrl star: ${describeError(e)}`);
      return 1;
    }
    console.log(`baseline ${r.baseline.policy}: validation pass@1 ${pct(r.baseline.passAt1)}`);
    for (const g of r.generations) {
      console.log(
        `generation ${g.generation}: ${g.trainPolicy} train pass@1 ${pct(g.trainPassAt1)}, corpus ${g.corpus?.examples ?? 0} examples (+${g.corpus?.added ?? 0}), ` +
          `${g.sft?.adapter ?? 'no adapter'} validation pass@1 ${pct(g.validationPassAt1)} (best before ${pct(g.bestBefore)}) → ${g.kept ? 'kept' : 'not kept'}`,
      );
    }
    console.log(`best: ${r.best.policy} (${pct(r.best.validationPassAt1)}); stopped: ${r.stopped}`);
    console.log(`report: ${r.report.markdown}`);
    return 0;
  } finally {
    await connection.close();
  }
}

export function register(program: Command): void {
  program
    .command('star')
    .summary('the STaR loop: teacher/best-policy episodes → gated corpus → SFT → validation, kept only if it improves')
    .description(
      'Start StarLoopWorkflow. Each generation evaluates the current best policy (generation 0: --teacher) on the train split, builds a corpus from the passing trajectories that pass the behavioural filters, merges it into the running corpus, fine-tunes SmolLM2 (SftWorkflow on the gpu queue), evaluates the new adapter on the validation split, and keeps it only if validation pass@1 improved; it stops after --generations or at the first generation without improvement. Needs the GPU activity worker (node lib/workers/learner-worker.js). Report: reports/<id>/star.{md,json,html}.',
    )
    .option('--teacher <policy>', "generation 0's policy on the train split, e.g. oracle or openai:<model>@<url> (default: the student)")
    .option('--start-adapter <name>', 'the adapter the student starts from (default: base SmolLM2)')
    .option('--generations <n>', 'most generations (default 3)', intOption('--generations', 1, 50))
    .option('--episodes <n>', 'episodes per train task (default 4)', intOption('--episodes', 1, 64))
    .option('--train-tasks <ids>', 'comma-separated train task ids (default: the train split)')
    .option('--train-max-tasks <n>', 'the first n train tasks', intOption('--train-max-tasks', 1, 10000))
    .option('--validation-tasks <ids>', 'comma-separated validation task ids (default: the validation split)')
    .option('--validation-max-tasks <n>', 'the first n validation tasks', intOption('--validation-max-tasks', 1, 10000))
    .option('--validation-episodes <n>', 'episodes per validation task (default 1)', intOption('--validation-episodes', 1, 64))
    .option('--max-turns <n>', 'turn cap (default 50, the seed)', intOption('--max-turns', 1, 500))
    .option('--validation-max-turns <n>', 'turn cap on validation (default: --max-turns)', intOption('--validation-max-turns', 1, 500))
    .option('--concurrency <n>', 'episodes at once (default 4)', intOption('--concurrency', 1, 256))
    .option('--init <from>', 'each fine-tune starts from base (STaR, default) or best', choiceOption('--init', ['base', 'best'] as const))
    .option('--epochs <n>', 'SFT epochs per generation (default 3)', intOption('--epochs', 1, 100))
    .option('--lr <rate>', "SFT peak learning rate (default: the learner's, 2e-4)")
    .option('--per-task-cap <n>', 'most trajectories per task in a generation (default 4)', intOption('--per-task-cap', 1, 1000))
    .option('--queue <name>', 'the GPU worker queue (default gpu)')
    .option('--id <workflow id>', 'the loop id (names its evaluations, corpora and report)')
    .option('--detach', 'return once started')
    .action(action(star));
}
