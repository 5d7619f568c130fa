/**
 * The task validator (issue 4): a task is only a task when its buggy source fails exactly the declared tests, its
 * held-back fix makes every test pass, both hold on repeated runs inside the sandbox, and nothing the model will see
 * gives the fix away.
 *
 * Tests run through the harness grader, so the validator sees what an episode's grade would see: a fresh bubblewrap
 * sandbox per run, no network (a task that needs the network fails its fixed run), and only `source_files` taken
 * from the overlay. The static checks below read the task folder directly and never run task code.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../common/config';
import { harnessEnv } from '../harness/env';
import { fixOverlay, gradeFiles, type Grade } from '../harness/grader';
import { isTestFile, listFiles } from './stats';
import { loadTask, TaskFormatError, type LoadedTask } from './task-loader';

/** Runs of each variant. The seed required the same outcome every time; three runs catch most timing-dependent tasks. */
export const DEFAULT_RUNS = 3;

/** Extra wall clock the grader allows beyond `test_seconds` before it kills a run. Runs that use this slack still
 * fail the runtime check; the slack only lets us report how long an over-limit run took instead of a bare kill. */
const KILL_SLACK_SECONDS = 5;

export interface TaskResult {
  /** Folder name when task.json could not be loaded. */
  id: string;
  split: string;
  category: string;
  ok: boolean;
  seconds: number;
  reasons: string[];
}

/** Runs the task's tests in a sandbox with `files` overlaid on the pristine workspace. */
export type GradeFn = (task: LoadedTask, files: Record<string, string>, timeoutSec: number) => Promise<Grade>;

export const sandboxGrade: GradeFn = (task, files, timeoutSec) => gradeFiles({ task, env: harnessEnv(loadConfig()), files, timeoutSec });

export interface ValidateOptions {
  runs?: number;
  grade?: GradeFn;
}

// ---------------------------------------------------------------------------------------------------------------
// Static checks: the folder itself.

/** Words that point at the bug when they appear anywhere the model can read. Matched as whole words so `debug`,
 * `DEBUG` and `bugle` stay legal; `buggy_total` is caught because `_` is not a letter. */
const TELLTALE_ANYWHERE: Array<[RegExp, string]> = [
  [/(?<![a-z])(bugs?|buggy|bugfix)(?![a-z])/i, '"bug"'],
  [/(?<![a-z])fix[ _-]?me(?![a-z])/i, '"fix me"'],
  [/(?<![a-z])todo\b.*\bfix/i, '"TODO … fix"'],
];
/** Words that are fine in code and strings ("wrong password") but give the game away in a comment. */
const TELLTALE_IN_COMMENT: Array<[RegExp, string]> = [
  [/\b(wrong|careful|broken|incorrect|intentional(ly)?)\b/i, 'a warning word'],
  [/\boff[- ]by[- ]one\b/i, '"off by one"'],
];

/** Consecutive words of the task's `bug` line that, found together in the workspace, count as leaking it. */
export const BUG_SHINGLE_WORDS = 6;

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9_]+/).filter(Boolean);
}

/** Every run of `n` consecutive words of `text`, joined by spaces. */
export function shingles(text: string, n: number): Set<string> {
  const w = words(text);
  const out = new Set<string>();
  for (let i = 0; i + n <= w.length; i++) out.add(w.slice(i, i + n).join(' '));
  return out;
}

/** The first telltale found in a file's text, as "line N: <what>", or null. */
export function findTelltale(text: string): string | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    for (const [re, what] of TELLTALE_ANYWHERE) if (re.test(line)) return `line ${i + 1}: ${what} (${line.trim().slice(0, 60)})`;
    const hash = line.indexOf('#');
    if (hash >= 0) {
      const comment = line.slice(hash);
      for (const [re, what] of TELLTALE_IN_COMMENT) if (re.test(comment)) return `line ${i + 1}: ${what} in a comment (${comment.trim().slice(0, 60)})`;
    }
  }
  return null;
}

/** Problems visible without running anything. Each string is a complete reason a person can act on. */
export function staticProblems(task: LoadedTask): string[] {
  const problems: string[] = [];
  const { spec } = task;
  const declared = new Set(spec.source_files);
  const ws = listFiles(task.workspaceDir);
  const fix = listFiles(task.fixDir);

  for (const l of [...ws.links.map((l) => `workspace/${l}`), ...fix.links.map((l) => `fix/${l}`)]) problems.push(`${l} is a symlink; tasks hold plain files only`);
  for (const f of spec.source_files.filter(isTestFile)) problems.push(`source_files lists ${f}, a test or conftest file: the grader would take it from the episode, so a model could edit the tests`);
  for (const id of spec.failing_tests) {
    const file = id.split('::')[0]!;
    if (!ws.files.includes(file)) problems.push(`failing test ${id}: ${file} is not in workspace/`);
  }

  // The fix: non-empty, only declared files, and each file actually changes its twin.
  if (fix.files.length === 0) problems.push('fix/ is empty: there is no held-back fix');
  const wsTexts = new Map(ws.files.map((f) => [f, fs.readFileSync(path.join(task.workspaceDir, f))]));
  for (const f of fix.files) {
    if (!declared.has(f)) problems.push(`fix/${f} is not listed in source_files, so the grader would never take that change from an episode`);
    const text = fs.readFileSync(path.join(task.fixDir, f));
    const twin = wsTexts.get(f);
    if (twin && twin.equals(text)) problems.push(`fix/${f} is identical to workspace/${f}: that file's fix changes nothing`);
    for (const [wf, wtext] of wsTexts) {
      if (wf !== f && wtext.equals(text)) problems.push(`workspace/${wf} is identical to fix/${f}: the sandbox would hold the fixed code`);
    }
  }

  // Leaks: anything in the sandbox copy that reveals the fix.
  for (const f of ws.files) {
    const top = f.split('/')[0]!;
    if (top === 'fix' || top === 'task.json') problems.push(`workspace/${f}: the held-back fix or task.json must never be inside workspace/`);
    if (f.includes('__pycache__/') || f.endsWith('.pyc')) problems.push(`workspace/${f}: compiled Python may carry the fixed code; delete __pycache__ folders`);
  }
  const bugShingles = shingles(spec.bug, BUG_SHINGLE_WORDS);
  for (const [f, buf] of wsTexts) {
    if (buf.includes(0)) continue; // binary: nothing readable to leak
    const text = buf.toString('utf8');
    const tell = findTelltale(text);
    if (tell) problems.push(`workspace/${f} ${tell} points at the bug`);
    const normalized = ` ${words(text).join(' ')} `;
    const leaked = [...bugShingles].find((s) => normalized.includes(` ${s} `));
    if (leaked) problems.push(`workspace/${f} repeats the task's bug description ("${leaked}")`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Dynamic checks: the test outcomes.

const passes = (o: string | undefined) => o === 'passed' || o === 'skipped';

/** Tests that did not pass (skips count as passing, as in the grader). */
export function failingSet(tests: Grade['tests']): string[] {
  return Object.keys(tests)
    .filter((id) => !passes(tests[id]))
    .sort();
}

/** Why a buggy run does not match the declared failing set, or null when it does. */
export function buggyRunProblem(declared: string[], grade: Grade): string | null {
  const actual = failingSet(grade.tests);
  if (Object.keys(grade.tests).length === 0) return `no test was collected${notesSuffix(grade)}`;
  if (actual.length === 0) return 'the buggy source fails no visible test';
  const want = new Set(declared);
  const extra = actual.filter((id) => !want.has(id)).map((id) => `${id} (${grade.tests[id]})`);
  const passing = declared.filter((id) => id in grade.tests && passes(grade.tests[id]));
  const absent = declared.filter((id) => !(id in grade.tests));
  if (!extra.length && !passing.length && !absent.length) return null;
  const parts: string[] = [];
  if (extra.length) parts.push(`also fails ${extra.join(', ')}`);
  if (passing.length) parts.push(`passes declared ${passing.join(', ')}`);
  if (absent.length) parts.push(`never ran declared ${absent.join(', ')}`);
  return `failing set differs from failing_tests: ${parts.join('; ')}`;
}

/** Why a run with the fix overlaid is not a clean pass, or null. */
export function fixedRunProblem(grade: Grade): string | null {
  if (grade.passed) return null;
  const bad = failingSet(grade.tests).map((id) => `${id} (${grade.tests[id]})`);
  const why = bad.length ? `still fails ${bad.join(', ')}` : grade.notes.join('; ').replace(/\s+/g, ' ').slice(0, 300) || 'the grader did not pass it';
  return `with fix/ applied: ${why}`;
}

function notesSuffix(grade: Grade): string {
  // One line per reason: pytest's notes carry tracebacks.
  return grade.notes.length ? ` (${grade.notes.join('; ').replace(/\s+/g, ' ').slice(0, 300)})` : '';
}

function outcomeKey(tests: Grade['tests']): string {
  return JSON.stringify(Object.keys(tests).sort().map((id) => [id, tests[id]]));
}

/** Run both variants `runs` times (interleaved, so a slow machine affects both alike) and report every problem. */
export async function dynamicProblems(task: LoadedTask, opts: ValidateOptions = {}): Promise<string[]> {
  const runs = opts.runs ?? DEFAULT_RUNS;
  const grade = opts.grade ?? sandboxGrade;
  const limit = task.spec.time_limits.test_seconds;
  const overlay = fixOverlay(task);
  const problems = new Set<string>(); // the same problem on every run is reported once
  const seen = { buggy: new Set<string>(), fixed: new Set<string>() };
  for (let run = 1; run <= runs; run++) {
    for (const variant of ['buggy', 'fixed'] as const) {
      const g = await grade(task, variant === 'buggy' ? {} : overlay, limit + KILL_SLACK_SECONDS);
      seen[variant].add(outcomeKey(g.tests));
      const p = variant === 'buggy' ? buggyRunProblem(task.spec.failing_tests, g) : fixedRunProblem(g);
      if (p) problems.add(variant === 'buggy' ? `buggy source: ${p}` : p);
      const seconds = g.durationMs / 1000;
      if (seconds > limit) problems.add(`${variant} run took ${seconds.toFixed(1)} s, over time_limits.test_seconds = ${limit}`);
    }
  }
  for (const variant of ['buggy', 'fixed'] as const) {
    if (seen[variant].size > 1) problems.add(`${variant} outcomes differ between the ${runs} runs: the task is not deterministic`);
  }
  return [...problems];
}

// ---------------------------------------------------------------------------------------------------------------
// One task, and many.

export async function validateTaskDir(dir: string, opts: ValidateOptions = {}): Promise<TaskResult> {
  const started = Date.now();
  let task: LoadedTask;
  try {
    task = loadTask(dir);
  } catch (e) {
    if (!(e instanceof TaskFormatError)) throw e;
    return { id: path.basename(dir), split: '?', category: '?', ok: false, seconds: 0, reasons: [e.message] };
  }
  const reasons = [...staticProblems(task), ...(await dynamicProblems(task, opts))];
  return {
    id: task.spec.id,
    split: task.spec.split,
    category: task.spec.category,
    ok: reasons.length === 0,
    seconds: (Date.now() - started) / 1000,
    reasons,
  };
}

/** Validate folders with at most `jobs` at a time; `onResult` fires as each one finishes (for progress). Results come
 * back in the order of `dirs`. */
export async function validateAll(
  dirs: string[],
  opts: ValidateOptions & { jobs?: number; onResult?: (r: TaskResult, done: number, total: number) => void } = {},
): Promise<TaskResult[]> {
  const jobs = Math.max(1, opts.jobs ?? 2);
  const results: TaskResult[] = new Array(dirs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < dirs.length) {
      const i = next++;
      results[i] = await validateTaskDir(dirs[i]!, opts);
      opts.onResult?.(results[i]!, ++done, dirs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, dirs.length) }, worker));
  return results;
}

/** The result table: one row per task, fixed-width columns. */
export function formatTable(results: TaskResult[]): string {
  const header = ['task', 'split', 'category', 'result', 'seconds', 'reason'];
  const rows = results.map((r) => [
    r.id,
    r.split,
    r.category,
    r.ok ? 'ok' : 'FAIL',
    r.seconds.toFixed(1),
    r.reasons.length === 0 ? '' : r.reasons.length === 1 ? r.reasons[0]!.slice(0, 70) : `${r.reasons[0]!.slice(0, 60)} (+${r.reasons.length - 1} more)`,
  ]);
  const widths = header.slice(0, 5).map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c < 5 ? cell.padEnd(widths[c]!) : cell)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w)).concat('------')), ...rows.map(line)].join('\n');
}
