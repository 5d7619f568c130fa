/**
 * `npx debugrl tasks validate [--task <id or dir>]… [--jobs N] [--runs N]`
 * `npx debugrl tasks stats [--json]`
 *
 * Exit codes: 0 every task valid (or stats printed), 1 some task failed validation, 2 bad usage.
 */
import { z } from 'zod';
import { loadConfig } from '../../common/config';
import { bwrapAvailable } from '../../harness/sandbox';
import { corpusStats, formatStats } from '../../tasks/stats';
import { listTaskDirs, resolveTaskDir, TaskFormatError } from '../../tasks/task-loader';
import { DEFAULT_RUNS, formatTable, validateAll, type TaskResult } from '../../tasks/validator';

export const summary = 'validate the task corpus in the sandbox (validate) or print its coverage (stats)';

const USAGE = `usage:
  debugrl tasks validate [--task <id or dir>]... [--jobs N] [--runs N]
      run every task (or the named ones) buggy and fixed, ${DEFAULT_RUNS} times each, in the sandbox
  debugrl tasks stats [--json]
      counts by split x category x debugger, and task sizes against the seed`;

class UsageError extends Error {}

const positiveInt = (flag: string, max: number) =>
  z.coerce.number({ error: `${flag} needs a number` }).int(`${flag} must be a whole number`).min(1, `${flag} must be at least 1`).max(max, `${flag} must be at most ${max}`);

export interface ValidateArgs {
  tasks: string[];
  jobs: number;
  runs: number;
}

/** Parse `validate`'s flags. Exported for tests. */
export function parseValidateArgs(args: string[]): ValidateArgs {
  const out: ValidateArgs = { tasks: [], jobs: 2, runs: DEFAULT_RUNS };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const num = (max: number) => {
      const r = positiveInt(flag, max).safeParse(value());
      if (!r.success) throw new UsageError(r.error.issues[0]!.message);
      return r.data;
    };
    if (flag === '--task') out.tasks.push(value());
    else if (flag === '--jobs') out.jobs = num(16);
    else if (flag === '--runs') out.runs = num(10);
    else throw new UsageError(`unknown option "${flag}" for validate`);
  }
  return out;
}

async function validate(args: string[]): Promise<number> {
  const opts = parseValidateArgs(args);
  const root = loadConfig().DEBUGRL_TASKS_DIR;
  if (!bwrapAvailable()) {
    console.error('debugrl tasks validate: bubblewrap (bwrap) is not installed or cannot start; tasks are only run inside the sandbox');
    return 1;
  }
  const dirs = opts.tasks.length ? opts.tasks.map((t) => resolveTaskDir(t, root)) : listTaskDirs(root);
  if (dirs.length === 0) {
    console.error(`debugrl tasks validate: no task folders under ${root}`);
    return 1;
  }
  console.error(`validating ${dirs.length} task(s): ${opts.runs} buggy + ${opts.runs} fixed runs each, ${opts.jobs} at a time`);
  const started = Date.now();
  const results = await validateAll(dirs, {
    jobs: opts.jobs,
    runs: opts.runs,
    onResult: (r, done, total) =>
      console.error(`[${String(done).padStart(String(total).length)}/${total}] ${r.ok ? 'ok  ' : 'FAIL'} ${r.id} (${r.seconds.toFixed(1)} s)`),
  });
  console.log(formatTable(results));
  const failed = results.filter((r) => !r.ok);
  console.log(`\n${results.length - failed.length} of ${results.length} tasks valid in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failed.length) {
    console.log(`\n${failed.length} failing:`);
    for (const r of failed) console.log(describeFailure(r));
  }
  return failed.length ? 1 : 0;
}

export function describeFailure(r: TaskResult): string {
  return [`${r.id}:`, ...r.reasons.map((why) => `  - ${why}`)].join('\n');
}

function stats(args: string[]): number {
  const unknown = args.filter((a) => a !== '--json');
  if (unknown.length) throw new UsageError(`unknown option "${unknown[0]}" for stats`);
  const s = corpusStats(listTaskDirs(loadConfig().DEBUGRL_TASKS_DIR));
  console.log(args.includes('--json') ? JSON.stringify(s, null, 2) : formatStats(s));
  return 0;
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === 'validate') return await validate(rest);
    if (sub === 'stats') return stats(rest);
    if (sub === undefined || sub === '--help' || sub === '-h') {
      console.log(USAGE);
      return sub === undefined ? 2 : 0;
    }
    throw new UsageError(`unknown subcommand "${sub}"`);
  } catch (e) {
    if (e instanceof UsageError || e instanceof TaskFormatError) {
      console.error(`debugrl tasks: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}
