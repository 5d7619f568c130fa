/**
 * Every task's failing tests under the real debugger (issue 4, "Done when"): for each of the task's `failing_tests`,
 * `start_debugger` stops before the test body, then `continue_execution` must reach the failure (the program ends
 * with that test failed) or the hang report ("Still running after N s" with the threads' stacks) within the task's
 * `time_limits.test_seconds`.
 *
 * Why this is not covered by the validator: the validator runs plain pytest. Under the debugger the same test runs
 * traced (bdb on every thread), started by the bridge and stopped at its first line; a task whose failure only shows
 * untraced (a timing margin the trace overhead eats, a thread that never gets the GIL) or whose failing test the
 * bridge cannot start would give an agent a debugger that never shows the bug.
 *
 * Real bubblewrap and real pdb, no Temporal. One session per task (start_debugger again for its next failing test,
 * as an agent would), two sessions at a time (the suite must fit CI on a two-core machine), with the harness's own
 * limits, so each observation is the one a model would read.
 */
import * as path from 'node:path';
import { loadConfig, REPO_ROOT } from '../common/config';
import { harnessEnv } from '../harness/env';
import { HarnessSession, type ToolResult } from '../harness/session';
import { codeVersion, DEBUGGER_CODE, DEBUGGER_MANIFEST_FILE, planValidation, readManifest, updatedManifest, writeManifest } from '../taskset/manifest';
import { listTaskDirs, loadTask } from '../taskset/task-loader';

/** The corpus the CLI uses (DEBUGRL_TASKS_DIR, default tasks/), so the suite can also check a corpus in the making. */
const TASKS_ROOT = loadConfig().DEBUGRL_TASKS_DIR;
const TASK_DIRS = listTaskDirs(TASKS_ROOT);

/** Like the validator, the check runs only what it has not seen pass: tasks that are new or changed since
 * tasks/debugger-manifest.json (a task's hash covers its files and DEBUGGER_CODE, so a change to the bridge, the sandbox
 * or this file runs every task again), plus a sample of unchanged ones drawn afresh each day (taskset/manifest.ts).
 * DEBUGRL_TASKS_DEBUGGER_FULL=1 runs every task; DEBUGRL_TASKS_DEBUGGER_UPDATE=1 runs every task and rewrites the
 * manifest from the results (commit it with the change that needed it). */
const FULL = process.env.DEBUGRL_TASKS_DEBUGGER_FULL === '1' || process.env.DEBUGRL_TASKS_DEBUGGER_UPDATE === '1';
const UPDATE = process.env.DEBUGRL_TASKS_DEBUGGER_UPDATE === '1';
const MANIFEST = path.join(TASKS_ROOT, DEBUGGER_MANIFEST_FILE);
const CODE = codeVersion(REPO_ROOT, DEBUGGER_CODE);
const manifestBefore = readManifest(MANIFEST);
const PLAN = planValidation(TASK_DIRS.map(loadTask), manifestBefore, CODE, { full: FULL });

/** Sessions at once. Each runs a pytest process under bwrap; more than two only queue on the CPUs. */
const JOBS = 2;

/** continue_execution calls before giving up. The first normally ends the run; an interrupt stop of a busy thread
 * (no breakpoints are set, so nothing else stops the program) or a "still running" report after
 * `LIMITS.debuggerWaitS` of a slow test needs another. The task's time limit bounds them anyway. */
const MAX_CONTINUES = 8;

/** At most `n` calls of the returned function run at once; the rest wait in order. */
function limiter(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    if (active < n) active++;
    else await new Promise<void>((wake) => waiting.push(wake)); // the slot is handed over, `active` unchanged
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
const slot = limiter(JOBS);

interface DebugRun {
  nodeId: string;
  start: ToolResult;
  /** Every continue_execution observation, in order, with the seconds from the first continue_execution to it.
   * The clock starts there: start-up (sandbox copy, bwrap, pytest's imports) has its own limit in the harness,
   * `LIMITS.debuggerStartWaitS`; the task's time limit is for running the test. */
  continues: Array<{ r: ToolResult; at: number }>;
}

/** start_debugger on one test, then continue_execution until the program ends or the time limit passes. */
async function runUnderDebugger(s: HarnessSession, nodeId: string, limitS: number): Promise<DebugRun> {
  const [testFile, ...names] = nodeId.split('::');
  const start = await s.call({ name: 'start_debugger', arguments: { test_file: testFile, test_name: names.join('::') } });
  const continues: DebugRun['continues'] = [];
  const t0 = Date.now();
  if (!start.ok) return { nodeId, start, continues };
  for (let i = 0; i < MAX_CONTINUES && Date.now() - t0 < limitS * 1000; i++) {
    const r = await s.call({ name: 'continue_execution', arguments: {} });
    continues.push({ r, at: (Date.now() - t0) / 1000 });
    // Paused (an interrupt stop) or still running: go on while the time limit allows, so a slow test still shows
    // its failure; a real hang ends the loop at the limit with the hang report among the observations.
    if (!r.ok || r.meta.state === 'ended') break;
  }
  return { nodeId, start, continues };
}

/** What the model saw, for a failure message a person can act on. */
function transcript(run: DebugRun): string {
  const show = (name: string, r: ToolResult) => `--- ${name} (ok=${r.ok}, state=${String(r.meta.state)}):\n${r.output}`;
  return [show('start_debugger', run.start), ...run.continues.map((c) => show(`continue_execution at ${c.at.toFixed(1)} s`, c.r))].join('\n');
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How one run reached the failure ("failed after 0.1 s"), or throws with the transcript when it did not. */
function judge(run: DebugRun, limit: number): string {
  const why = `\n${transcript(run)}`;
  // A second start_debugger in the session says first that it stopped the previous one.
  if (!run.start.ok || !/(^|\n)Stopped before the test body at /.test(run.start.output)) throw new Error(`start_debugger did not stop before ${run.nodeId}:${why}`);
  if (run.continues.some((c) => !c.r.ok)) throw new Error(`continue_execution failed on ${run.nodeId}:${why}`);

  const ended = run.continues.find((c) => c.r.meta.state === 'ended');
  if (ended) {
    // The program ended: the debugged test must be reported failed (or errored), with pytest's message.
    const outcome = new RegExp(`^The program finished\\. ${escape(run.nodeId)} (failed|error): \\S`);
    if (!outcome.test(ended.r.output)) throw new Error(`the program ended without ${run.nodeId} failing:${why}`);
    if (ended.at > limit) throw new Error(`${run.nodeId} failed after ${ended.at.toFixed(1)} s, over time_limits.test_seconds = ${limit}:${why}`);
    return `failed after ${ended.at.toFixed(1)} s`;
  }
  // No end within the limit: the program hangs, and the first hang report (still running, with a thread inside
  // project code) must have come within the limit.
  const hang = run.continues.find((c) => c.r.meta.state === 'running');
  if (!hang) throw new Error(`neither the failure nor the hang report for ${run.nodeId} after ${run.continues.length} continue_execution call(s):${why}`);
  if (hang.at > limit) throw new Error(`the hang report for ${run.nodeId} took ${hang.at.toFixed(1)} s, over time_limits.test_seconds = ${limit}:${why}`);
  if (!/^Still running after \d+(\.\d+)? s/.test(hang.r.output) || !/\nThread [^\n]+:\n {2}[\w./-]+\.py:\d+ in /.test(hang.r.output)) {
    throw new Error(`the hang report for ${run.nodeId} shows no thread in project code:${why}`);
  }
  return `hang report after ${hang.at.toFixed(1)} s`;
}

/** How each task reached its answers, printed once at the end (which tests hang rather than fail, how long). */
const reached = new Map<string, string>();

describe('every task reaches its failure under the debugger', () => {
  it('finds the task folders', () => {
    expect(TASK_DIRS.length).toBeGreaterThan(0);
  });

  afterAll(() => {
    const counts = PLAN.reduce<Record<string, number>>((acc, p) => ({ ...acc, [p.run ?? 'unchanged']: (acc[p.run ?? 'unchanged'] ?? 0) + 1 }), {});
    console.log(`Tasks planned (${MANIFEST}): ${JSON.stringify(counts)}`);
    if (UPDATE) {
      const results = PLAN.map((p) => ({ id: p.task.spec.id, hash: p.hash, ok: reached.has(path.basename(p.task.dir)), runs: 1 }));
      writeManifest(MANIFEST, updatedManifest(manifestBefore, CODE, results, new Set(PLAN.map((p) => p.task.spec.id))));
      console.log(`Wrote ${MANIFEST}: ${results.filter((r) => r.ok).length} of ${results.length} tasks reached their failure`);
    }
    if (!reached.size) return;
    const lines = [...reached].sort().map(([id, how]) => `  ${id}: ${how}`);
    console.log(`Under the debugger (${reached.size} tasks):\n${lines.join('\n')}`);
  });

  const cases = PLAN.filter((p) => p.run !== null).map((p) => [path.basename(p.task.dir), p.task.dir] as const);
  it(`plans the new, changed and sampled tasks (${cases.length} of ${PLAN.length})`, () => {
    // A fresh manifest and an unchanged corpus still run the day's sample; none at all would mean nothing was checked.
    expect(cases.length).toBeGreaterThan(0);
  });
  // Jest starts up to 5 concurrent tests (its maxConcurrency) and each waits here for a slot, so a test's clock also
  // counts the tasks queued ahead of it. A task normally takes seconds; 300 s leaves room for a hanging one (per
  // failing test: start-up, test_seconds, the reply slack) behind two others, and a timeout still fails the right task.
  if (cases.length) test.concurrent.each(cases)('%s', (id, dir) =>
    slot(async () => {
      const task = loadTask(dir);
      const s = await HarnessSession.create({ env: harnessEnv(loadConfig()), taskDir: dir });
      const hows: string[] = [];
      try {
        for (const nodeId of task.spec.failing_tests) {
          const run = await runUnderDebugger(s, nodeId, task.spec.time_limits.test_seconds);
          hows.push(`${nodeId.split('::').slice(1).join('::')} ${judge(run, task.spec.time_limits.test_seconds)}`);
        }
      } finally {
        await s.close();
      }
      reached.set(id, hows.join('; '));
    }),
    300_000,
  );
});
