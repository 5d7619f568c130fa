/**
 * Corpus statistics (issue 4): how the tasks spread over split × category × debugger preference, and how big they
 * are next to the seed, whose median task had 132 lines of Python source across 3 files reachable from the failing
 * test. Size is measured the same way: start at the failing tests' files, follow imports that resolve inside the
 * workspace, and count the non-test files reached and their non-blank, non-comment lines.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyCalibration, measuredSolveRate, type Calibration } from './calibration';
import { loadTask, TaskFormatError, type LoadedTask } from './task-loader';
import { DebuggerPreference, SEED_SPLITS, Split, TaskCategory } from './task-schema';

/** The seed's median task (from its section "Tasks that make runtime inspection useful"). */
export const SEED_MEDIAN = { sourceLines: 132, files: 3 } as const;

/** The seed's corpus size and split (issue 13's target). */
export const TARGET_SPLIT = { train: 130, validation: 40, test: 30 } as const;

/** Bugs the seed names, kept (or added, issue 13) as tasks of their own under these ids. */
export const SEED_NAMED_TASKS = ['deepcopy_circular', 'lease_gateway_validation_leak', 'producer_consumer_shutdown', 'toctou_file_check', 'reentrant_lock_owner'] as const;

/** Declared difficulty against measured solve rate (tasks/calibration.json), per difficulty level. */
export interface DifficultyCheck {
  tasks: number;
  /** Tasks with at least one measured episode. */
  measured: number;
  episodes: number;
  /** Mean over measured tasks of each task's pooled solve rate; null when none was measured. */
  meanSolveRate: number | null;
}

export interface Distribution {
  min: number;
  median: number;
  p90: number;
  max: number;
}

export interface TaskSize {
  id: string;
  /** Non-test .py files reachable through imports from the failing tests' files. */
  reachableFiles: string[];
  /** Non-blank, non-comment lines of those files. */
  reachableLines: number;
  /** Non-blank, non-comment lines of every non-test .py file in workspace/. */
  allSourceLines: number;
}

export interface CorpusStats {
  tasks: number;
  /** counts[split][category][debugger]; every combination is present, zeros included. */
  counts: Record<string, Record<string, Record<string, number>>>;
  bySplit: Record<string, number>;
  byCategory: Record<string, number>;
  byDebugger: Record<string, number>;
  byDifficulty: Record<string, number>;
  multiSiteFix: number;
  /** Tasks where patching the symptom leaves other visible tests failing (`obvious_fix_wrong`). */
  obviousFixWrong: number;
  /** Which of SEED_NAMED_TASKS exist. */
  seedNamedTasks: Record<string, boolean>;
  target: typeof TARGET_SPLIT;
  /** Split of each task, by id. */
  splits: Record<string, string>;
  /** Median reachable lines and files per split. */
  medianBySplit: Record<string, { sourceLines: number | null; files: number | null }>;
  difficultyVsMeasured: Record<string, DifficultyCheck>;
  /** Policies (and tool sets) the calibration holds measurements from. */
  calibrationPolicies: string[];
  sourceLines: Distribution | null;
  reachableFiles: Distribution | null;
  seedMedian: typeof SEED_MEDIAN;
  sizes: TaskSize[];
  /** Folders whose task.json did not load, with the reason; they are left out of every number above. */
  unreadable: Array<{ dir: string; reason: string }>;
}

// ---------------------------------------------------------------------------------------------------------------
// Pure helpers.

/** Paths of every regular file under `dir`, relative, with forward slashes; symlinks are reported, not followed. */
export function listFiles(dir: string): { files: string[]; links: string[] } {
  const files: string[] = [];
  const links: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) links.push(r);
      else if (e.isDirectory()) walk(r);
      else if (e.isFile()) files.push(r);
    }
  };
  if (fs.existsSync(dir)) walk('');
  return { files: files.sort(), links: links.sort() };
}

/** Test modules and conftest.py: what pytest collects or loads itself, as opposed to the code under test. */
export function isTestFile(rel: string): boolean {
  const base = path.posix.basename(rel);
  return /^test_.*\.py$/.test(base) || /_test\.py$/.test(base) || base === 'conftest.py';
}

/** Median (mean of the middle two for an even count) and the nearest-rank 90th percentile. */
export function distribution(values: number[]): Distribution | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  const median = v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  // Nearest rank: the smallest value with at least 90% of the values at or below it.
  const p90 = v[Math.ceil(0.9 * v.length) - 1]!;
  return { min: v[0]!, median, p90, max: v[v.length - 1]! };
}

/** Lines that are not blank and not `#` comments. Docstrings count: they are part of what a reader must read. */
export function countSourceLines(text: string): number {
  return text.split('\n').filter((l) => {
    const t = l.trim();
    return t !== '' && !t.startsWith('#');
  }).length;
}

/** Imported module names in Python source, as written: `import a.b as c, d` gives a.b and d; `from .x import y, z`
 * gives `.x` plus `.x.y` and `.x.z` (y may be a submodule). A regex reading, not a parser: good enough for the flat
 * layouts of task workspaces; a line inside a string that looks like an import is counted too. */
export function importedModules(source: string): string[] {
  const text = source.replace(/\\\n/g, ' ').replace(/\(([^)]*)\)/g, (m, inner: string) => (m.includes('\n') ? `(${inner.replace(/\n/g, ' ')})` : m));
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '');
    let m = /^\s*import\s+(.+)$/.exec(line);
    if (m) {
      for (const part of m[1]!.split(',')) {
        const name = part.trim().split(/\s+/)[0];
        if (name && /^[\w.]+$/.test(name)) out.push(name);
      }
      continue;
    }
    m = /^\s*from\s+(\.*[\w.]*)\s+import\s+(.+)$/.exec(line);
    if (m) {
      const base = m[1]!;
      out.push(base);
      for (const part of m[2]!.replace(/[()]/g, '').split(',')) {
        const name = part.trim().split(/\s+/)[0];
        if (name && name !== '*' && /^\w+$/.test(name)) out.push(base.endsWith('.') ? `${base}${name}` : `${base}.${name}`);
      }
    }
  }
  return out;
}

/** The workspace file a module name refers to, or null (standard library, pytest, or not found). `fromFile` is
 * the importing file, for relative imports. Pytest puts the workspace root on sys.path (flat layout). */
export function resolveModule(name: string, fromFile: string, files: Set<string>): string | null {
  let parts: string[];
  const dots = /^\.*/.exec(name)![0].length;
  if (dots > 0) {
    let pkg = path.posix.dirname(fromFile).split('/').filter((p) => p && p !== '.');
    pkg = pkg.slice(0, Math.max(0, pkg.length - (dots - 1)));
    parts = [...pkg, ...name.slice(dots).split('.').filter(Boolean)];
  } else {
    parts = name.split('.');
  }
  if (parts.length === 0) return null;
  const base = parts.join('/');
  for (const candidate of [`${base}.py`, `${base}/__init__.py`]) if (files.has(candidate)) return candidate;
  return null;
}

/** Every workspace file reachable from `roots` through imports (roots included). */
export function reachable(roots: string[], files: Set<string>, read: (rel: string) => string): Set<string> {
  const seen = new Set<string>();
  const queue = roots.filter((r) => files.has(r));
  while (queue.length) {
    const f = queue.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const mod of importedModules(read(f))) {
      const hit = resolveModule(mod, f, files);
      if (hit && !seen.has(hit)) queue.push(hit);
      // `import a.b` also runs a/__init__.py.
      const parts = mod.replace(/^\.+/, '').split('.');
      for (let i = 1; i < parts.length && !mod.startsWith('.'); i++) {
        const init = `${parts.slice(0, i).join('/')}/__init__.py`;
        if (files.has(init) && !seen.has(init)) queue.push(init);
      }
    }
  }
  return seen;
}

// ---------------------------------------------------------------------------------------------------------------
// Tasks.

export function taskSize(task: LoadedTask): TaskSize {
  const py = listFiles(task.workspaceDir).files.filter((f) => f.endsWith('.py'));
  const files = new Set(py);
  const cache = new Map<string, string>();
  const read = (rel: string) => {
    if (!cache.has(rel)) cache.set(rel, fs.readFileSync(path.join(task.workspaceDir, rel), 'utf8'));
    return cache.get(rel)!;
  };
  const testFiles = [...new Set(task.spec.failing_tests.map((id) => id.split('::')[0]!))];
  // pytest imports every conftest.py from the root down to the test's folder before the test module.
  const conftests = py.filter((f) => path.posix.basename(f) === 'conftest.py' && testFiles.some((t) => {
    const d = path.posix.dirname(f);
    return d === '.' || t.startsWith(`${d}/`);
  }));
  const reached = [...reachable([...testFiles, ...conftests], files, read)].filter((f) => !isTestFile(f)).sort();
  const lines = (list: string[]) => list.reduce((n, f) => n + countSourceLines(read(f)), 0);
  return {
    id: task.spec.id,
    reachableFiles: reached,
    reachableLines: lines(reached),
    allSourceLines: lines(py.filter((f) => !isTestFile(f))),
  };
}

function tally(values: string[], keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

export function corpusStats(dirs: string[], calibration: Calibration = emptyCalibration()): CorpusStats {
  const tasks: LoadedTask[] = [];
  const unreadable: CorpusStats['unreadable'] = [];
  for (const dir of dirs) {
    try {
      tasks.push(loadTask(dir));
    } catch (e) {
      if (!(e instanceof TaskFormatError)) throw e;
      unreadable.push({ dir, reason: e.message });
    }
  }
  const counts: CorpusStats['counts'] = {};
  for (const s of Split.options) {
    counts[s] = {};
    for (const c of TaskCategory.options) counts[s]![c] = Object.fromEntries(DebuggerPreference.options.map((d) => [d, 0]));
  }
  for (const t of tasks) counts[t.spec.split]![t.spec.category]![t.spec.debugger]! += 1;
  const sizes = tasks.map(taskSize);
  const sizeOf = new Map(sizes.map((z) => [z.id, z]));
  const ids = new Set(tasks.map((t) => t.spec.id));
  const medianBySplit: CorpusStats['medianBySplit'] = {};
  for (const split of Split.options) {
    const inSplit = tasks.filter((t) => t.spec.split === split).map((t) => sizeOf.get(t.spec.id)!);
    medianBySplit[split] = {
      sourceLines: distribution(inSplit.map((z) => z.reachableLines))?.median ?? null,
      files: distribution(inSplit.map((z) => z.reachableFiles.length))?.median ?? null,
    };
  }
  const difficultyVsMeasured: CorpusStats['difficultyVsMeasured'] = {};
  for (const level of ['easy', 'medium', 'hard'] as const) {
    const rates = tasks.filter((t) => t.spec.difficulty === level).map((t) => measuredSolveRate(calibration, t.spec.id));
    const got = rates.filter((r) => r !== null);
    difficultyVsMeasured[level] = {
      tasks: rates.length,
      measured: got.length,
      episodes: got.reduce((n, r) => n + r.episodes, 0),
      meanSolveRate: got.length ? got.reduce((n, r) => n + r.rate, 0) / got.length : null,
    };
  }
  const policies = new Set<string>();
  for (const [id, t] of Object.entries(calibration.tasks)) if (ids.has(id)) for (const m of t.measurements) policies.add(`${m.policy} (${m.toolset})`);
  return {
    tasks: tasks.length,
    counts,
    bySplit: tally(tasks.map((t) => t.spec.split), Split.options),
    byCategory: tally(tasks.map((t) => t.spec.category), TaskCategory.options),
    byDebugger: tally(tasks.map((t) => t.spec.debugger), DebuggerPreference.options),
    byDifficulty: tally(tasks.map((t) => t.spec.difficulty), ['easy', 'medium', 'hard']),
    multiSiteFix: tasks.filter((t) => t.spec.multi_site_fix).length,
    obviousFixWrong: tasks.filter((t) => t.spec.obvious_fix_wrong).length,
    seedNamedTasks: Object.fromEntries(SEED_NAMED_TASKS.map((id) => [id, ids.has(id)])),
    target: TARGET_SPLIT,
    splits: Object.fromEntries(tasks.map((t) => [t.spec.id, t.spec.split])),
    medianBySplit,
    difficultyVsMeasured,
    calibrationPolicies: [...policies].sort(),
    sourceLines: distribution(sizes.map((s) => s.reachableLines)),
    reachableFiles: distribution(sizes.map((s) => s.reachableFiles.length)),
    seedMedian: SEED_MEDIAN,
    sizes,
    unreadable,
  };
}

/** Human-readable report: the split × category × debugger grid, the marginals, and the size distributions. */
export function formatStats(s: CorpusStats): string {
  const out: string[] = [];
  const debuggers = DebuggerPreference.options;
  const catWidth = Math.max(...TaskCategory.options.map((c) => c.length), 'category'.length);
  const starter = s.bySplit.starter ?? 0;
  out.push(
    `${s.tasks - starter} tasks (target ${Object.values(s.target).reduce((a, b) => a + b, 0)}: ${SEED_SPLITS.map((k) => `${k} ${s.bySplit[k]}/${s.target[k]}`).join(', ')})` +
      (starter ? `, plus ${starter} starter tasks outside the seed's splits` : ''),
  );
  for (const split of Split.options) {
    out.push('', `${split} (${s.bySplit[split]})`);
    out.push(`  ${'category'.padEnd(catWidth)}  ${debuggers.map((d) => d.padStart(11)).join(' ')}  ${'total'.padStart(5)}`);
    for (const c of TaskCategory.options) {
      const row = s.counts[split]![c]!;
      const total = debuggers.reduce((n, d) => n + row[d]!, 0);
      out.push(`  ${c.padEnd(catWidth)}  ${debuggers.map((d) => String(row[d]).padStart(11)).join(' ')}  ${String(total).padStart(5)}`);
    }
  }
  const line = (label: string, rec: Record<string, number>) => `${label.padEnd(12)} ${Object.entries(rec).map(([k, v]) => `${k} ${v}`).join(', ')}`;
  out.push('', line('category:', s.byCategory), line('debugger:', s.byDebugger), line('difficulty:', s.byDifficulty));
  out.push(`${'multi-site:'.padEnd(12)} ${s.multiSiteFix} tasks whose fix changes more than one place`);
  out.push(`${'obvious fix:'.padEnd(12)} ${s.obviousFixWrong} tasks where patching the symptom leaves other tests failing`);
  out.push(`${'seed bugs:'.padEnd(12)} ${Object.entries(s.seedNamedTasks).map(([id, ok]) => `${id} ${ok ? 'yes' : 'MISSING'}`).join(', ')}`);
  const dist = (d: Distribution | null) => (d ? `min ${d.min}, median ${d.median}, p90 ${d.p90}, max ${d.max}` : 'no tasks');
  out.push('', 'reachable from the failing tests (non-test files incl. vendored packages, non-blank non-comment lines):');
  out.push(`  source lines  ${dist(s.sourceLines)}   (seed median ${s.seedMedian.sourceLines})`);
  out.push(`  files         ${dist(s.reachableFiles)}   (seed median ${s.seedMedian.files})`);
  out.push(`  median by split: ${Split.options.map((k) => `${k} ${s.medianBySplit[k]!.sourceLines ?? '-'} lines / ${s.medianBySplit[k]!.files ?? '-'} files`).join(', ')}`);
  out.push('', `declared difficulty vs measured solve rate (tasks/calibration.json${s.calibrationPolicies.length ? `: ${s.calibrationPolicies.join(', ')}` : ', nothing measured yet'}):`);
  for (const [level, d] of Object.entries(s.difficultyVsMeasured)) {
    const rate = d.meanSolveRate === null ? 'no measurement' : `mean solve rate ${d.meanSolveRate.toFixed(2)} over ${d.episodes} episodes`;
    out.push(`  ${level.padEnd(7)} ${String(d.tasks).padStart(3)} tasks, ${String(d.measured).padStart(3)} measured, ${rate}`);
  }
  if (s.unreadable.length) {
    out.push('', `${s.unreadable.length} folders left out (task.json did not load):`);
    for (const u of s.unreadable) out.push(`  ${u.reason}`);
  }
  return out.join('\n');
}
