/**
 * The validated-task manifest (issue 13): a committed record of the tasks that passed the validator, by content hash,
 * so that CI re-runs only what changed. A task's hash covers its task.json, every file under workspace/ and fix/
 * (paths and bytes), and the code that decides a validation (validator, grader, sandbox, pytest runner): a change to
 * any of them makes every hash stale and every task run again.
 *
 * Skipping is never total: a sample of unchanged tasks, drawn afresh each day (or from `--seed`), is re-run anyway,
 * so that drift the hash cannot see (a new Python, a slower machine, a flaky task that passed three times once) still
 * surfaces over a few CI runs.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from '../common/config';
import { readJsonFile, writeJsonFile } from './json-file';
import { listFiles } from './stats';
import type { LoadedTask } from './task-loader';

/** Default manifest path, relative to the tasks root. */
export const MANIFEST_FILE = 'validated-manifest.json';

/** Share of unchanged tasks re-run anyway. At 200 tasks, 20 a run: every task is re-run about every 10 runs. */
export const DEFAULT_SAMPLE = 0.1;

/** The sources whose behaviour a validation depends on, relative to the repository root. */
export const VALIDATION_CODE = ['taskset/validator.ts', 'taskset/task-schema.ts', 'harness/grader.ts', 'harness/sandbox.ts', 'harness/pytest-run.ts'];

const Entry = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** ISO time of the run that passed; for people. */
  validated_at: z.string(),
  runs: z.number().int().min(1),
});
export type ManifestEntry = z.infer<typeof Entry>;

export const Manifest = z
  .object({
    version: z.literal(1),
    /** Hash of VALIDATION_CODE when the manifest was last written; for people (each entry's hash includes it). */
    code: z.string(),
    tasks: z.record(z.string(), Entry),
  })
  .strict();
export type Manifest = z.infer<typeof Manifest>;

/** The debugger check's manifest (tests/tasks-debugger.test.ts): the tasks whose failing tests reached their failure
 * under the real debugger, by the same content hash under the code that check depends on. */
export const DEBUGGER_MANIFEST_FILE = 'debugger-manifest.json';

/** The sources the debugger check's verdict depends on: the check itself, the sandbox, the harness's debugger session
 * and the two tools it calls, and the Python bridge that runs pdb. */
export const DEBUGGER_CODE = [
  'tests/tasks-debugger.test.ts',
  'harness/sandbox.ts',
  'harness/limits.ts',
  'harness/session.ts',
  'harness/debugger-client.ts',
  'harness/debugger-session.ts',
  'harness/tools/start-debugger.ts',
  'harness/tools/continue-execution.ts',
  ...['bridge', 'client', 'formatting', 'lines', 'paths', 'prewarm', 'protocol', 'pytest_report', 'reprs', 'tracer'].map((m) => `native/debugrl_native/debugger/${m}.py`),
];

/** Hash of the code a check depends on (the validator's by default). A missing file hashes as missing, so a moved file
 * changes the version too. */
export function codeVersion(root = REPO_ROOT, files: readonly string[] = VALIDATION_CODE): string {
  const h = createHash('sha256');
  for (const rel of files) {
    const file = path.join(root, rel);
    h.update(`${rel}\0`);
    h.update(fs.existsSync(file) ? fs.readFileSync(file) : Buffer.from('<missing>'));
    h.update('\0');
  }
  return h.digest('hex');
}

/** Content hash of one task under a given code version. */
export function taskHash(task: LoadedTask, code: string): string {
  const h = createHash('sha256');
  h.update(`code\0${code}\0`);
  h.update('task.json\0');
  h.update(fs.readFileSync(path.join(task.dir, 'task.json')));
  for (const [label, dir] of [['workspace', task.workspaceDir], ['fix', task.fixDir]] as const) {
    const { files, links } = listFiles(dir);
    for (const f of files) {
      h.update(`\0${label}/${f}\0`);
      h.update(fs.readFileSync(path.join(dir, f)));
    }
    // A symlink fails the validator; hashing its name keeps such a task from ever matching a stored hash.
    for (const l of links) h.update(`\0${label}/${l}\0<link>`);
  }
  return h.digest('hex');
}

export function emptyManifest(code: string): Manifest {
  return { version: 1, code, tasks: {} };
}

/** Read a manifest; null when the file does not exist. */
export function readManifest(file: string): Manifest | null {
  return readJsonFile(file, Manifest);
}

/** Write with sorted keys, for stable diffs. */
export function writeManifest(file: string, m: Manifest): void {
  writeJsonFile(file, { version: 1, code: m.code, tasks: Object.fromEntries(Object.entries(m.tasks).sort(([a], [b]) => a.localeCompare(b))) });
}

/** A number in [0, 1) from a seed and a task id: the same pair always gives the same draw. */
export function draw(seed: string, id: string): number {
  return createHash('sha256').update(`${seed}\0${id}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** Today's sampling seed (UTC date), so every CI run on one day re-runs the same sample and the next day another. */
export function dailySeed(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export type PlanReason = 'changed' | 'new' | 'sampled' | 'full' | 'named';

export interface PlanItem {
  task: LoadedTask;
  hash: string;
  /** Why it runs, or null when its stored hash matches and it was not sampled. */
  run: PlanReason | null;
}

export interface PlanOptions {
  /** Re-run everything. */
  full?: boolean;
  /** Share of unchanged tasks that still run, 0-1. */
  sample?: number;
  seed?: string;
  /** Tasks named on the command line run whatever their hash. */
  named?: boolean;
}

/** Decide which tasks run. */
export function planValidation(tasks: LoadedTask[], manifest: Manifest | null, code: string, opts: PlanOptions = {}): PlanItem[] {
  const sample = opts.sample ?? DEFAULT_SAMPLE;
  const seed = opts.seed ?? dailySeed();
  return tasks.map((task) => {
    const hash = taskHash(task, code);
    const stored = manifest?.tasks[task.spec.id];
    let run: PlanReason | null;
    if (opts.full) run = 'full';
    else if (opts.named) run = 'named';
    else if (!stored) run = 'new';
    else if (stored.hash !== hash) run = 'changed';
    else run = draw(seed, task.spec.id) < sample ? 'sampled' : null;
    return { task, hash, run };
  });
}

/** The manifest after a run: passed tasks get their hash, failed ones lose their entry, tasks not run keep theirs,
 * and ids whose folder is gone are dropped when `existing` (every id in the corpus) is given. */
export function updatedManifest(
  before: Manifest | null,
  code: string,
  results: Array<{ id: string; hash: string; ok: boolean; runs: number }>,
  existing?: Set<string>,
  now = new Date(),
): Manifest {
  const tasks = { ...(before?.tasks ?? {}) };
  for (const r of results) {
    if (r.ok) tasks[r.id] = { hash: r.hash, validated_at: now.toISOString(), runs: r.runs };
    else delete tasks[r.id];
  }
  if (existing) for (const id of Object.keys(tasks)) if (!existing.has(id)) delete tasks[id];
  return { version: 1, code, tasks };
}
