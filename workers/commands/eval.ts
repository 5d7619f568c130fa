/**
 * `npx debugrl eval --policy <spec> (--split <split> | --tasks a,b) [options]`: check the configuration, start an
 * EvaluationWorkflow, show a live progress line (from the workflow's `progress` query), then print the summary and
 * where the report is. `--detach` returns once it has started; `eval --attach <id>` (or `eval attach <id>`) watches
 * it again. Exit status: 0 when every episode ran, 1 when the workflow failed or episodes ended in harness errors or
 * crashed, 2 for a usage or configuration mistake. The same evaluation can be started with
 *   temporal workflow start --type EvaluationWorkflow --task-queue debugrl --input '{"policy":"…","split":"test"}'
 */
import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import type { Command } from 'commander';
import { Pool } from 'pg';
import { describeZodError } from '../../common/boundary';
import { loadConfig, type Config } from '../../common/config';
import { pgConnectionString, temporalConnectionOptions } from '../../common/connections';
import { EvaluationInput, type EvaluationProgress, type EvaluationResult } from '../../common/evaluation';
import { action, choiceOption, describeError, intOption, uiUrl, workflowResult } from '../cli-kit';
import { ConfigError, preflight } from '../eval-checks';
import { Split } from '../../taskset/task-schema';

/** pass@k's default k: the seed reported pass@3. With fewer episodes per task than that, k drops to n. */
const DEFAULT_K = 3;

export interface EvalOptions {
  policy?: string;
  split?: string;
  tasks?: string;
  episodes?: number;
  k?: number;
  compare?: string;
  tools?: string;
  maxTasks?: number;
  maxTurns?: number;
  maxContext?: number;
  maxNewTokens?: number;
  concurrency?: number;
  firstSeed?: number;
  id?: string;
  rerun?: boolean;
  detach?: boolean;
  attach?: string;
  preflight: boolean;
}

export function formatProgress(p: EvaluationProgress, nowMs: number): string {
  const width = 30;
  const frac = p.total ? p.done / p.total : 0;
  const bar = '█'.repeat(Math.round(frac * width)).padEnd(width, '░');
  const elapsed = (nowMs - p.startedAtMs) / 1000;
  const eta = p.done > 0 && p.done < p.total ? (elapsed / p.done) * (p.total - p.done) : null;
  const fmt = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.round(s)}s`);
  // `failed` counts episode workflows that crashed; the rest of the finished episodes that did not pass failed their tests.
  const failedTests = Math.max(0, p.done - p.passed - p.failed);
  const tail = p.phase === 'running' ? `ETA ${eta === null ? '…' : fmt(eta)}` : p.phase;
  return `[${bar}] ${p.done}/${p.total} done · ${p.running} running · ${p.passed} passed · ${failedTests} failed tests · ${p.failed} crashed · ${tail}`;
}

/** The workflow input from the flags; k defaults to min(3, episodes). */
export function evaluationInputFrom(o: EvalOptions): EvaluationInput {
  const taskIds = o.tasks?.split(',').map((t) => t.trim()).filter(Boolean);
  const limits = {
    ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
    ...(o.maxContext !== undefined ? { maxContextTokens: o.maxContext } : {}),
    ...(o.maxNewTokens !== undefined ? { maxNewTokens: o.maxNewTokens } : {}),
  };
  const k = o.k ?? (o.episodes !== undefined ? Math.min(DEFAULT_K, o.episodes) : undefined);
  return {
    policy: o.policy ?? '',
    ...(o.split !== undefined ? { split: o.split as Split } : {}),
    ...(taskIds !== undefined ? { taskIds } : {}),
    ...(o.episodes !== undefined ? { episodesPerTask: o.episodes } : {}),
    ...(k !== undefined ? { k } : {}),
    ...(o.compare !== undefined ? { compare: o.compare } : {}),
    ...(o.tools !== undefined ? { toolset: o.tools as 'full' | 'no-debugger' | 'both' } : {}),
    ...(o.maxTasks !== undefined ? { maxTasks: o.maxTasks } : {}),
    ...(Object.keys(limits).length ? { limits } : {}),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.firstSeed !== undefined ? { firstSeed: o.firstSeed } : {}),
    ...(o.id !== undefined ? { evaluationId: o.id } : {}),
    // Passed only when asked for, so the input stays valid for a workflow that predates the field.
    ...(o.rerun ? { rerun: true } : {}),
  } as EvaluationInput;
}

async function startEvaluation(o: EvalOptions): Promise<number> {
  if (!o.policy) return usage('--policy is required (scripted:<file.jsonl>, embedded[:<adapter>] or openai:<model>@<base url>)');
  const raw = evaluationInputFrom(o);
  const parsed = EvaluationInput.safeParse(raw);
  if (!parsed.success) return usage(describeZodError(parsed.error));
  const config = loadConfig();
  let input: EvaluationInput = raw;
  if (o.preflight) {
    let checked;
    try {
      checked = await preflight(parsed.data, { config, contextGiven: o.maxContext !== undefined });
    } catch (e) {
      if (e instanceof ConfigError) {
        console.error(`debugrl eval: ${e.message}`);
        return 2;
      }
      throw e;
    }
    if (o.id !== undefined && !o.rerun && (await evaluationExists(config, o.id))) {
      console.error(`debugrl eval: evaluation "${o.id}" exists already; add --rerun for a new run of it (stored as "${o.id}-run<N>"), or choose another --id`);
      return 2;
    }
    for (const n of checked.notes) console.error(`note: ${n}`);
    input = {
      ...raw,
      policy: checked.policy,
      ...(checked.compare !== undefined ? { compare: checked.compare } : {}),
      ...(checked.maxContextTokens !== parsed.data.limits.maxContextTokens ? { limits: { ...raw.limits, maxContextTokens: checked.maxContextTokens } } : {}),
    };
    console.error(`checked: ${checked.taskIds.length} task(s), policy ${checked.policy}${checked.compare ? ` and ${checked.compare}` : ''}`);
  }
  const workflowId = o.id ?? `eval-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`;
  return withClient(config, async (client) => {
    try {
      await client.workflow.start('EvaluationWorkflow', { taskQueue: config.DEBUGRL_TASK_QUEUE, workflowId, args: [input] });
    } catch (e) {
      if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      console.error(`debugrl eval: evaluation ${workflowId} is running already; follow it with: npx debugrl eval --attach ${workflowId}`);
      return 2;
    }
    console.log(`evaluation ${workflowId} started — Temporal UI: ${uiUrl(config, workflowId)}`);
    if (o.detach) {
      console.log(`re-attach with: npx debugrl eval --attach ${workflowId}`);
      return 0;
    }
    return watch(client, config, workflowId);
  });
}

async function withClient(config: Config, fn: (client: Client) => Promise<number>): Promise<number> {
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    return await fn(new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE }));
  } finally {
    await connection.close();
  }
}

/** Follow a running (or finished) evaluation: the progress line, then the summary and the exit status. */
async function watch(client: Client, config: Config, workflowId: string): Promise<number> {
  const handle = client.workflow.getHandle(workflowId);
  const tty = process.stdout.isTTY;
  let lastLine = 0;
  const done = workflowResult<EvaluationResult>(handle);
  let finished = false;
  done.then(
    () => (finished = true),
    () => (finished = true),
  );
  while (!finished) {
    await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
    if (finished) break;
    try {
      const line = formatProgress(await handle.query<EvaluationProgress>('progress'), Date.now());
      if (tty) process.stdout.write(`\r${line}`);
      else if (Date.now() - lastLine > 10_000) {
        console.log(line);
        lastLine = Date.now();
      }
    } catch {
      // the workflow may not have started its handler yet, or the server is restarting: try again next tick
    }
  }
  if (tty) process.stdout.write('\n');
  let result: EvaluationResult;
  try {
    result = await done;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) {
      console.error(`debugrl eval: no evaluation workflow "${workflowId}" in namespace ${config.DEBUGRL_TEMPORAL_NAMESPACE}`);
      return 2;
    }
    console.error(`evaluation ${workflowId} failed\n${describeError(e instanceof WorkflowFailedError && e.cause ? e.cause : e)}`);
    console.error(`Temporal UI: ${uiUrl(config, workflowId)}`);
    return 1;
  }
  const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)}%`);
  for (const a of result.arms) console.log(`  ${a.label.padEnd(40)} pass@1 ${pct(a.passAt1).padStart(6)}  pass@${result.k} ${pct(a.passAtK).padStart(6)}  (${a.episodes} episodes)`);
  const errors = await harnessErrors(config, result.evaluationId);
  if (errors.count) {
    console.log(`  ${errors.count} episode(s) ended in a harness error (exit reason "error"); they are not failures of the policy:`);
    for (const e of errors.examples) console.log(`    ${e.episodeId}: ${e.error}`);
  }
  if (result.failedEpisodes) console.log(`  ${result.failedEpisodes} episode workflow(s) crashed; see the Temporal UI`);
  console.log(`report: ${result.reportDir}/report.html (also report.md, report.json)`);
  console.log(`Temporal UI: ${uiUrl(config, workflowId)}`);
  return errors.count || result.failedEpisodes ? 1 : 0;
}

async function evaluationExists(config: Config, evaluationId: string): Promise<boolean> {
  const pool = new Pool({ connectionString: pgConnectionString(config) });
  try {
    return ((await pool.query('select 1 from evaluations where evaluation_id = $1', [evaluationId])).rowCount ?? 0) > 0;
  } finally {
    await pool.end();
  }
}

/** Episodes of the evaluation whose exit reason is "error" (PostgreSQL holds every record). */
async function harnessErrors(config: Config, evaluationId: string): Promise<{ count: number; examples: { episodeId: string; error: string }[] }> {
  const pool = new Pool({ connectionString: pgConnectionString(config) });
  try {
    const r = await pool.query<{ episode_id: string; error: string | null }>(
      `select episode_id, record->'outcome'->>'error' as error from episodes where evaluation_id = $1 and exit_reason = 'error' order by episode_id`,
      [evaluationId],
    );
    return { count: r.rowCount ?? 0, examples: r.rows.slice(0, 5).map((row) => ({ episodeId: row.episode_id, error: (row.error ?? 'no message').slice(0, 300) })) };
  } finally {
    await pool.end();
  }
}

function usage(message: string): number {
  console.error(`debugrl eval: ${message}\n(add --help for usage)`);
  return 2;
}

async function attach(workflowId: string): Promise<number> {
  const config = loadConfig();
  return withClient(config, (client) => watch(client, config, workflowId));
}

export function register(program: Command): void {
  const evalCmd = program
    .command('eval')
    .summary('evaluate a policy (pass@k, turns, debugger use, failures) and write the report')
    .description(
      'Check the configuration (tasks, scripts, policy server, context), start an EvaluationWorkflow, follow its progress and print the summary.\n' +
        'Exit status: 0 every episode ran; 1 the workflow failed, or episodes crashed or ended in harness errors; 2 a usage or configuration mistake.',
    )
    .option('--policy <spec>', 'scripted:<file.jsonl>, embedded[:<adapter>] or openai:<model>@<base url>')
    .option('--split <split>', 'evaluate every task of a split', choiceOption('--split', Split.options))
    .option('--tasks <ids>', 'comma-separated task ids instead of a split')
    .option('--episodes <n>', 'episodes per task (the seed: 8)', intOption('--episodes', 1, 64))
    .option('-k, --k <k>', `pass@k's k (default ${DEFAULT_K}, at most --episodes)`, intOption('--k', 1, 64))
    .option('--compare <spec>', 'a second policy on the same tasks')
    .option('--tools <set>', 'full, no-debugger, or both (each policy with and without the debugger)', choiceOption('--tools', ['full', 'no-debugger', 'both'] as const))
    .option('--max-tasks <n>', 'only the first N tasks (by id)', intOption('--max-tasks', 1, 100_000))
    .option('--max-turns <n>', 'turn cap per episode (default 50)', intOption('--max-turns', 1, 500))
    .option('--max-context <tokens>', "context limit (default 30000, or the server's maximum if lower)", intOption('--max-context', 512, 1_000_000))
    .option('--max-new-tokens <n>', 'most tokens per model reply (default 1024)', intOption('--max-new-tokens', 16, 32_768))
    .option('--concurrency <n>', 'episodes at once (default 4)', intOption('--concurrency', 1, 256))
    .option('--first-seed <n>', "episode i samples with seed n + i (default 0): another n gives fresh seeds, the same n pairs two evaluations' episodes", intOption('--first-seed', 0, 1_000_000))
    .option('--id <evaluation id>', 'name the evaluation (and its workflow)')
    .option('--rerun', 'run again under an --id that already exists (a new run, stored under its own id)')
    .option('--detach', 'return once the workflow has started')
    .option('--attach <workflow id>', 'follow an evaluation started earlier (with --detach) instead of starting one')
    .option('--no-preflight', 'skip the checks before the start (when the worker sees files or servers this machine does not)')
    .action(action((o: EvalOptions) => (o.attach ? attach(o.attach) : startEvaluation(o))));
  evalCmd
    .command('attach')
    .description('follow an evaluation started earlier (with --detach): its progress, summary and exit status')
    .argument('<workflow-id>')
    .action(action((workflowId: string) => attach(workflowId)));
}
