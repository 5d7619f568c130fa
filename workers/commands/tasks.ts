/**
 * `npx debugrl tasks validate [--task <id or dir>]… [--jobs N] [--runs N] [--all] [--update-manifest] [--sample F] [--seed S]`
 * `npx debugrl tasks stats [--json] [--plot <file.svg>]`
 * `npx debugrl tasks calibrate --from <evaluation id>…`
 *
 * Exit codes: 0 every task valid (or stats printed, or calibration written), 1 some task failed validation (or the
 * calibration found nothing), 2 bad usage.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { Pool } from 'pg';
import { loadConfig } from '../../common/config';
import { pgConnectionString } from '../../common/connections';
import { action, intOption } from '../cli-kit';
import { bwrapAvailable } from '../../harness/sandbox';
import { CALIBRATION_FILE, episodeRows, loadCalibration, measure, mergeCalibration, writeCalibration } from '../../taskset/calibration';
import { figure6 } from '../../taskset/figure';
import { TaskDataError } from '../../taskset/json-file';
import { codeVersion, dailySeed, DEFAULT_SAMPLE, MANIFEST_FILE, planValidation, readManifest, updatedManifest, writeManifest, type PlanItem } from '../../taskset/manifest';
import { corpusStats, formatStats } from '../../taskset/stats';
import { listTaskDirs, loadTask, resolveTaskDir, TaskFormatError, type LoadedTask } from '../../taskset/task-loader';
import { DEFAULT_RUNS, formatTable, validateAll, type TaskResult } from '../../taskset/validator';

export const summary = 'validate the task corpus (validate), print its coverage (stats), measure its difficulty (calibrate)';

function fraction(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`--sample must be a number from 0 to 1, got "${v}"`);
  return n;
}

const collect = (v: string, prev: string[]) => [...prev, v];

export interface ValidateOptions {
  task: string[];
  jobs: number;
  runs: number;
  all: boolean;
  updateManifest: boolean;
  sample: number;
  seed?: string;
  manifest?: string;
}

export function describeFailure(r: TaskResult): string {
  return [`${r.id}:`, ...r.reasons.map((why) => `  - ${why}`)].join('\n');
}

/** Which folders run and why: named tasks always; otherwise changed, new, unreadable and sampled ones (or all). */
function plan(opts: ValidateOptions, root: string, manifestFile: string, code: string) {
  const named = opts.task.length > 0;
  const dirs = named ? opts.task.map((t) => resolveTaskDir(t, root)) : listTaskDirs(root);
  const loaded: LoadedTask[] = [];
  const unreadable: string[] = [];
  for (const dir of dirs) {
    try {
      loaded.push(loadTask(dir));
    } catch (e) {
      if (!(e instanceof TaskFormatError)) throw e;
      unreadable.push(dir); // validateTaskDir reports why
    }
  }
  const manifest = readManifest(manifestFile);
  const items = planValidation(loaded, manifest, code, {
    full: opts.all,
    named,
    sample: opts.sample,
    seed: opts.seed ?? dailySeed(),
  });
  return { dirs, items, unreadable, named, manifest };
}

export async function validateCommand(opts: ValidateOptions): Promise<number> {
  const root = loadConfig().DEBUGRL_TASKS_DIR;
  const manifestFile = opts.manifest ?? path.join(root, MANIFEST_FILE);
  if (opts.updateManifest && opts.runs < DEFAULT_RUNS) {
    console.error(`debugrl tasks validate: --update-manifest records only tasks that passed ${DEFAULT_RUNS} runs; drop --runs ${opts.runs}`);
    return 2;
  }
  const code = codeVersion();
  const { dirs, items, unreadable, named, manifest } = plan(opts, root, manifestFile, code);
  if (dirs.length === 0) {
    console.error(`debugrl tasks validate: no task folders under ${root}`);
    return 1;
  }
  const toRun = items.filter((i) => i.run !== null);
  const skipped = items.length - toRun.length;
  const sampled = toRun.filter((i) => i.run === 'sampled').length;
  if (!named && !opts.all) {
    console.error(
      `${skipped} unchanged task(s) skipped (hash in ${path.relative(process.cwd(), manifestFile) || manifestFile}); running ${toRun.length - sampled} new or changed, ` +
        `${unreadable.length} unreadable, ${sampled} sampled (${Math.round(opts.sample * 100)} % of unchanged, seed ${opts.seed ?? dailySeed()}); --all runs every task`,
    );
  }
  const runDirs = [...toRun.map((i) => i.task.dir), ...unreadable];
  const byDir = new Map<string, PlanItem>(toRun.map((i) => [i.task.dir, i]));
  let results: TaskResult[] = [];
  const started = Date.now();
  if (runDirs.length > 0) {
    if (!bwrapAvailable()) {
      console.error('debugrl tasks validate: bubblewrap (bwrap) is not installed or cannot start; tasks are only run inside the sandbox');
      return 1;
    }
    console.error(`validating ${runDirs.length} task(s): ${opts.runs} buggy + ${opts.runs} fixed runs each, ${opts.jobs} at a time`);
    results = await validateAll(runDirs, {
      jobs: opts.jobs,
      runs: opts.runs,
      onResult: (r, done, total) =>
        console.error(`[${String(done).padStart(String(total).length)}/${total}] ${r.ok ? 'ok  ' : 'FAIL'} ${r.id} (${r.seconds.toFixed(1)} s)`),
    });
    console.log(formatTable(results));
  }
  const failed = results.filter((r) => !r.ok);
  console.log(`\n${results.length - failed.length} of ${results.length} tasks valid in ${((Date.now() - started) / 1000).toFixed(0)} s${skipped ? ` (${skipped} unchanged skipped)` : ''}`);
  if (failed.length) {
    console.log(`\n${failed.length} failing:`);
    for (const r of failed) console.log(describeFailure(r));
  }
  if (opts.updateManifest) {
    const ran = runDirs
      .map((dir, i) => ({ item: byDir.get(dir), r: results[i]! }))
      .filter((x): x is { item: PlanItem; r: TaskResult } => x.item !== undefined)
      .map(({ item, r }) => ({ id: item.task.spec.id, hash: item.hash, ok: r.ok, runs: opts.runs }));
    const existing = named ? undefined : new Set(items.map((i) => i.task.spec.id));
    const next = updatedManifest(manifest, code, ran, existing);
    writeManifest(manifestFile, next);
    console.log(`wrote ${manifestFile}: ${Object.keys(next.tasks).length} validated task hashes`);
  }
  return failed.length ? 1 : 0;
}

export interface StatsOptions {
  json: boolean;
  plot?: string;
  calibration?: string;
}

export function statsCommand(opts: StatsOptions): number {
  const root = loadConfig().DEBUGRL_TASKS_DIR;
  const s = corpusStats(listTaskDirs(root), loadCalibration(opts.calibration ?? path.join(root, CALIBRATION_FILE)));
  console.log(opts.json ? JSON.stringify(s, null, 2) : formatStats(s));
  if (opts.plot) {
    fs.mkdirSync(path.dirname(path.resolve(opts.plot)), { recursive: true });
    fs.writeFileSync(opts.plot, figure6(s));
    console.error(`wrote ${opts.plot}`);
  }
  return 0;
}

export interface CalibrateOptions {
  from: string[];
  file?: string;
}

export async function calibrateCommand(opts: CalibrateOptions, pool?: Pool): Promise<number> {
  const config = loadConfig();
  const file = opts.file ?? path.join(config.DEBUGRL_TASKS_DIR, CALIBRATION_FILE);
  const own = pool ? null : new Pool({ connectionString: pgConnectionString(config) });
  try {
    const rows = await episodeRows(pool ?? own!, opts.from);
    const found = new Set(rows.map((r) => r.evaluation_id));
    const missing = opts.from.filter((id) => !found.has(id));
    if (missing.length) console.error(`debugrl tasks calibrate: no stored episodes for ${missing.join(', ')}`);
    if (rows.length === 0) return 1;
    const measured = measure(rows);
    writeCalibration(file, mergeCalibration(loadCalibration(file), measured));
    const known = new Set(listTaskDirs(config.DEBUGRL_TASKS_DIR).map((d) => path.basename(d)));
    const unknown = [...measured.keys()].filter((id) => !known.has(id));
    for (const [id, ms] of [...measured].sort(([a], [b]) => a.localeCompare(b))) {
      for (const m of ms) console.log(`${id.padEnd(40)} ${m.policy} (${m.toolset})  ${m.passed}/${m.episodes} = ${m.solve_rate.toFixed(2)}`);
    }
    if (unknown.length) console.error(`note: ${unknown.length} measured task(s) are not in the corpus: ${unknown.join(', ')}`);
    console.log(`wrote ${file}: ${measured.size} tasks from ${rows.length} episodes of ${found.size} evaluation(s)`);
    return 0;
  } finally {
    await own?.end();
  }
}

/** Runs a subcommand; unreadable tasks and malformed manifest or calibration files are usage errors (exit 2). */
function guarded<A extends unknown[]>(fn: (...a: A) => Promise<number> | number): (...a: A) => Promise<number> {
  return async (...a: A) => {
    try {
      return await fn(...a);
    } catch (e) {
      if (!(e instanceof TaskFormatError || e instanceof TaskDataError)) throw e;
      console.error(`debugrl tasks: ${e.message}`);
      return 2;
    }
  };
}

export function register(program: Command): void {
  const tasks = program
    .command('tasks')
    .summary(summary)
    .description('The bug-task corpus under DEBUGRL_TASKS_DIR (see tasks/FORMAT.md).')
    .configureOutput({ writeOut: (s) => console.log(s.trimEnd()), writeErr: (s) => console.error(s.trimEnd()) });
  tasks
    .command('validate')
    .description(
      `Run each task buggy and fixed, ${DEFAULT_RUNS} times each, in the sandbox. Without --task, tasks whose content hash is in ` +
        `tasks/${MANIFEST_FILE} are skipped, except a daily random sample.`,
    )
    .option('--task <id or dir>', 'validate only this task (repeatable); named tasks always run', collect, [])
    .option('--jobs <n>', 'tasks at a time', intOption('--jobs', 1, 16), 2)
    .option('--runs <n>', 'runs of each variant', intOption('--runs', 1, 10), DEFAULT_RUNS)
    .option('--all, --full', 're-validate every task, ignoring the manifest', false)
    .option('--update-manifest', 'record the hashes of the tasks that passed', false)
    .option('--sample <fraction>', 'share of unchanged tasks re-run anyway', fraction, DEFAULT_SAMPLE)
    .option('--seed <seed>', 'seed of the sample (default: the UTC date)')
    .option('--manifest <file>', `manifest path (default <tasks dir>/${MANIFEST_FILE})`)
    .action(action(guarded((o: ValidateOptions) => validateCommand(o))));
  tasks
    .command('stats')
    .description('Counts by split x category x debugger, task sizes against the seed, declared vs measured difficulty.')
    .option('--json', 'print the statistics as JSON', false)
    .option('--plot <file.svg>', "also draw the seed's Figure 6 (reachable lines vs files, log axes, by split)")
    .option('--calibration <file>', `calibration path (default <tasks dir>/${CALIBRATION_FILE})`)
    .action(action(guarded((o: StatsOptions) => statsCommand(o))));
  tasks
    .command('calibrate')
    .description(`Write each task's measured solve rate in the given evaluations to <tasks dir>/${CALIBRATION_FILE}.`)
    .requiredOption('--from <evaluation-id...>', 'evaluations whose stored episodes to count')
    .option('--file <file>', `calibration path (default <tasks dir>/${CALIBRATION_FILE})`)
    .action(action(guarded((o: CalibrateOptions) => calibrateCommand(o))));
}

/** Run `debugrl tasks <args>` in-process and return the exit status (for tests, and for the legacy CLI). */
export async function run(args: string[]): Promise<number> {
  const program = new Command('debugrl').exitOverride().configureOutput({ writeOut: (s) => console.log(s.trimEnd()), writeErr: (s) => console.error(s.trimEnd()) });
  register(program);
  const before = process.exitCode;
  process.exitCode = 0;
  try {
    await program.parseAsync(['tasks', ...args], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    // `tasks --help` is 'commander.helpDisplayed'; a missing subcommand prints help as an error ('commander.help').
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' ? 0 : 2;
    throw e;
  } finally {
    process.exitCode = before;
  }
}
