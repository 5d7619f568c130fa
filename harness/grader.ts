/**
 * The grader: the only source of an episode's reward. It never asks the model.
 *
 * A fresh sandbox starts from the task's pristine workspace (its tests, conftest.py, pytest.ini …) and takes only
 * the episode's versions of the files the task declares in `source_files`. Whatever else the model changed or added
 * (tests, a conftest.py that passes everything, sitecustomize.py, .pth files) is simply not there.
 *
 * Known limit: the source files run inside the pytest process, so a model that writes code to tamper with pytest
 * from a source module is not stopped by this design alone; the per-test report plus pytest's exit status must
 * agree, which catches the simple forms (e.g. `os._exit(0)` at import).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LoadedTask } from '../taskset/task-loader';
import type { HarnessEnv } from './env';
import { runPytest, type TestOutcome } from './pytest-run';
import { Sandbox, WORKSPACE } from './sandbox';
import { WorkspaceFs, WorkspaceFsError } from './workspace-fs';

export type { TestOutcome } from './pytest-run';

export interface Grade {
  /** Every visible test passed (skips allowed), at least one ran, and every one of the task's failing_tests passed. */
  passed: boolean;
  tests: Record<string, TestOutcome>;
  durationMs: number;
  /** Why a grade is not a plain pass: collection errors, a timeout, failing tests that never ran. */
  notes: string[];
}

export class GraderInputError extends Error {}

/** Largest source file the grader takes from an episode. */
const MAX_SOURCE_BYTES = 1024 * 1024;

export interface GradeFilesOptions {
  task: LoadedTask;
  /** The host's interpreter, data and tasks folders (env.ts), for the grading sandbox. */
  env: HarnessEnv;
  /** Episode versions of source files, by path relative to workspace/. `null` means the episode deleted it.
   * Source files not listed keep their pristine text. Keys must be in `source_files`. */
  files: Record<string, string | null>;
  /** Wall-clock limit for the pytest run; default the task's test_seconds plus 10 s of start-up slack. */
  timeoutSec?: number;
}

export async function gradeFiles(opts: GradeFilesOptions): Promise<Grade> {
  const { task } = opts;
  const declared = new Set(task.spec.source_files);
  for (const f of Object.keys(opts.files)) {
    if (!declared.has(f)) throw new GraderInputError(`${task.spec.id}: ${f} is not one of the task's source_files (${[...declared].join(', ')})`);
  }
  const started = Date.now();
  const sandbox = await Sandbox.create({ harnessEnv: opts.env, workspaceFrom: task.workspaceDir, hide: [task.dir] });
  try {
    for (const [rel, text] of Object.entries(opts.files)) {
      const host = path.join(sandbox.workspaceHostDir, rel);
      if (text === null) {
        fs.rmSync(host, { force: true });
      } else {
        fs.mkdirSync(path.dirname(host), { recursive: true });
        fs.writeFileSync(host, text);
      }
    }
    const timeoutSec = opts.timeoutSec ?? task.spec.time_limits.test_seconds + 10;
    const run = await runPytest(sandbox, { timeoutMs: timeoutSec * 1000 });
    const notes: string[] = [];
    if (run.exec.killed === 'timeout') notes.push(`the test run was killed after ${timeoutSec} s`);
    if (run.exec.killed === 'output') notes.push('the test run was killed for endless output');
    for (const e of run.collectErrors) notes.push(`collection error: ${clipCollectError(e)}`);
    const ids = Object.keys(run.tests);
    const allOk = ids.length > 0 && ids.every((id) => run.tests[id] === 'passed' || run.tests[id] === 'skipped');
    const missing = task.spec.failing_tests.filter((id) => run.tests[id] !== 'passed');
    for (const id of missing) notes.push(`${id}: ${run.tests[id] ?? 'not collected'}`);
    if (allOk && run.exitCode !== 0) notes.push(`pytest exited with status ${run.exitCode} although every test reported a pass`);
    return { passed: allOk && missing.length === 0 && run.exitCode === 0, tests: run.tests, durationMs: Date.now() - started, notes };
  } finally {
    await sandbox.destroy();
  }
}

/** A collection error kept short for a note: its first line (which module) and its end (the exception itself, e.g.
 * "E   ImportError: cannot import name 'triple'"), joined by " … ". The middle is pytest's import traceback. At most
 * `max` characters, so the validator's one-line reasons (cut at 300) still show the end. */
export function clipCollectError(message: string, max = 260): string {
  const text = message.trimEnd();
  if (text.length <= max) return text;
  const head = text.split('\n', 1)[0]!.slice(0, Math.floor(max / 2));
  let tail = text.slice(-(max - head.length - 3));
  const cut = tail.indexOf('\n'); // start the end at a whole line when one fits
  if (cut >= 0 && cut < tail.length - 1) tail = tail.slice(cut + 1);
  return `${head} … ${tail.trimStart()}`;
}

/** Read the episode's versions of the task's source files from its workspace (host path) and grade them.
 * A source file that is a symlink or not a regular file counts as deleted: following a link planted by the model
 * could read files outside the workspace, the held-back fix among them. */
export async function gradeWorkspace(opts: { task: LoadedTask; env: HarnessEnv; workspaceDir: string; timeoutSec?: number }): Promise<Grade> {
  const files: Record<string, string | null> = {};
  // No-follow on every component and O_NONBLOCK: the episode's processes may swap a file for a link or a FIFO.
  const ws = new WorkspaceFs(opts.workspaceDir, WORKSPACE, null, false);
  for (const rel of opts.task.spec.source_files) {
    try {
      files[rel] = ws.readFile(rel, MAX_SOURCE_BYTES).data.toString('utf8');
    } catch (e) {
      if (!(e instanceof WorkspaceFsError)) throw e;
      files[rel] = null;
    }
  }
  return gradeFiles({ task: opts.task, env: opts.env, files, timeoutSec: opts.timeoutSec });
}

/** Read a task's held-back fix as a `files` overlay (for the task validator). */
export function fixOverlay(task: LoadedTask): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of task.spec.source_files) {
    const p = path.join(task.fixDir, rel);
    if (fs.existsSync(p)) out[rel] = fs.readFileSync(p, 'utf8');
  }
  return out;
}
