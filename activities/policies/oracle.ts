/**
 * The `oracle` teacher: an offline policy that knows the answer. It runs only on the worker, reads the task's
 * held-back fix (which never enters the sandbox) and acts through the real harness like a disciplined debugger user,
 * so its episodes are SFT demonstrations for this machine and for tests (the seed used MiniMax M2.5 as its teacher):
 *
 *   inventory ─► run_tests ─► grep + read a bounded range ─► start_debugger on a failing test ─► breakpoint on an
 *   executable line of the function the fix changes ─► continue ─► inspect, step ─► the fix's hunks as edit_file ─►
 *   rerun the tests ─► done
 *
 * A seeded variation gives short and long traces: extra reads, a wrong first hypothesis and then a recovery, a failed
 * edit and then a recovery. Each turn is recomputed from the conversation so far (the policy keeps no state between
 * activities): the plan is a list of steps, and a step may look at the observations before it (a breakpoint that was
 * not reached, the locals that were shown) to decide its call or to be skipped.
 *
 * Only train-split tasks: a teacher that read the fix of a validation or test task would leak it into training data.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ApplicationFailure } from '@temporalio/common';
import type { Config } from '../../common/config';
import { Failure } from '../../common/failures';
import type { ChatMessage } from '../../common/trajectory';
import { loadTask, resolveTaskDir, type LoadedTask } from '../../taskset/task-loader';
import type { ParsedReply } from './chat-client';
import { approxTokens, type Policy, type PolicyContext } from './policy';
import { mulberry32 } from '../../common/rng';
import { changedNames, diffHunks, type Hunk } from '../../common/edit-diff';

const run = promisify(execFile);

// ----- diffs -----------------------------------------------------------------------------------------------------

const countOf = (text: string, sub: string) => {
  let c = 0;
  for (let k = text.indexOf(sub); k !== -1; k = text.indexOf(sub, k + 1)) c++;
  return c;
};

/** An edit_file call for a hunk: the changed lines plus as much context as makes old_text occur exactly once in
 * `current` (the file as the earlier edits left it). Null if no amount of context makes it unique. */
export function hunkEdit(current: string, oldLines: string[], newLines: string[], h: Hunk): { old_text: string; new_text: string } | null {
  for (let ctx = h.oldStart === h.oldEnd || h.newStart === h.newEnd ? 1 : 0; ctx <= oldLines.length; ctx++) {
    const a = Math.max(0, h.oldStart - ctx);
    const b = Math.min(oldLines.length, h.oldEnd + ctx);
    if (a === b) continue;
    const oldText = oldLines.slice(a, b).join('\n');
    if (countOf(current, oldText) !== 1) continue;
    const before = oldLines.slice(a, h.oldStart);
    const after = oldLines.slice(h.oldEnd, b);
    const newText = [...before, ...newLines.slice(h.newStart, h.newEnd), ...after].join('\n');
    return { old_text: oldText, new_text: newText };
  }
  return null;
}

// ----- what the oracle knows about a task -------------------------------------------------------------------------

interface FileFacts {
  path: string;
  oldText: string;
  hunks: { hunk: Hunk; edit: { old_text: string; new_text: string }; lines: number[] }[];
  /** 1-based executable lines inside functions, with the innermost function's qualified name. */
  functionOf: Map<number, string>;
}

export interface TaskFacts {
  taskId: string;
  split: string;
  testFile: string;
  testName: string;
  failingTest: string;
  files: FileFacts[];
  /** Source files the fix does not touch (candidates for a wrong first hypothesis). */
  otherSources: string[];
}

function listFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

/** The real line table (native/debugrl_native/debugger/lines.py, the same one the breakpoint tool checks against). */
const LINE_TABLE_PY = `
import json, sys
from debugrl_native.debugger.lines import line_table
out = {}
for p in sys.argv[1:]:
    t = line_table(open(p).read(), p)
    out[p] = {str(k): v for k, v in t.function_of.items() if k in t.executable}
print(json.dumps(out))
`;

async function functionTables(config: Config, files: string[]): Promise<Record<string, Record<string, string>>> {
  // The venv has native/ installed (infra/setup), so debugrl_native imports without a PYTHONPATH.
  const { stdout } = await run(config.DEBUGRL_PYTHON, ['-c', LINE_TABLE_PY, ...files], { maxBuffer: 16 << 20 });
  return JSON.parse(stdout) as Record<string, Record<string, string>>;
}

/** Read the fix and the workspace (host side, outside any sandbox) and work out every edit and line the plan needs. */
export async function taskFacts(task: LoadedTask, config: Config): Promise<TaskFacts> {
  const fixFiles = listFiles(task.fixDir);
  const tables = await functionTables(config, fixFiles.map((f) => path.join(task.workspaceDir, f)));
  const files: FileFacts[] = fixFiles.map((rel) => {
    const oldText = fs.readFileSync(path.join(task.workspaceDir, rel), 'utf8');
    const newText = fs.readFileSync(path.join(task.fixDir, rel), 'utf8');
    const oldLines = oldText.split('\n');
    const newLines = newText.split('\n');
    let current = oldText;
    const hunks = diffHunks(oldLines, newLines).map((hunk) => {
      const edit = hunkEdit(current, oldLines, newLines, hunk);
      if (!edit) throw new Error(`oracle: cannot make a unique edit for ${rel} lines ${hunk.oldStart + 1}-${hunk.oldEnd}`);
      current = current.replace(edit.old_text, () => edit.new_text);
      const lines = hunk.oldEnd > hunk.oldStart ? range(hunk.oldStart + 1, hunk.oldEnd + 1) : [hunk.oldStart];
      return { hunk, edit, lines };
    });
    if (current !== newText) throw new Error(`oracle: the hunks of ${rel} do not reproduce the fix`);
    const table = tables[path.join(task.workspaceDir, rel)] ?? {};
    return { path: rel, oldText, hunks, functionOf: new Map(Object.entries(table).map(([k, v]) => [Number(k), v])) };
  });
  const failing = task.spec.failing_tests[0]!;
  const sep = failing.indexOf('::');
  return {
    taskId: task.spec.id,
    split: task.spec.split,
    testFile: failing.slice(0, sep),
    testName: failing.slice(sep + 2),
    failingTest: failing,
    files,
    otherSources: task.spec.source_files.filter((f) => !fixFiles.includes(f)),
  };
}

const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k);

// ----- the plan ----------------------------------------------------------------------------------------------------

/** One earlier turn as the oracle sees it: its call and the observation the harness returned. */
export interface Turn {
  name: string;
  arguments: Record<string, unknown>;
  output: string;
}

export interface Call {
  name: string;
  arguments: Record<string, unknown>;
  /** Short reasoning shown as the assistant message's text (the seed interleaved reasoning with tool calls). */
  thought: string;
}

/** A plan step: its call given the turns so far, or null to skip it. */
type Step = (history: Turn[]) => Call | null;

function hashString(s: string): number {
  let h = 2166136261;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 16777619);
  return h >>> 0;
}

export interface Variation {
  /** Extra inventory and reads (a long trace). */
  long: boolean;
  /** First suspect a file the fix does not touch, read it, and recover. */
  wrongHypothesis: boolean;
  /** The first edit's old_text is mis-indented; the harness refuses it; reread and redo. */
  failedEdit: boolean;
}

export function variationFor(taskId: string, seed: number): Variation {
  const r = mulberry32(hashString(taskId) ^ Math.imul(seed + 1, 0x9e3779b1));
  return { long: r() < 0.5, wrongHypothesis: r() < 0.3, failedEdit: r() < 0.3 };
}

const stoppedAtBreakpoint = (out: string) => out.startsWith('Stopped at breakpoint') || /\nStopped at breakpoint/.test(out);
const last = (h: Turn[], name: string) => [...h].reverse().find((t) => t.name === name);

/** Where to break for one hunk: the first executable line of the changed function (its first statement runs on
 * every call), else the first changed line itself. */
function breakpointFor(f: FileFacts, hunkLines: number[]): { file: string; line: number; fn: string | null } {
  const fn = hunkLines.map((l) => f.functionOf.get(l)).find(Boolean) ?? f.functionOf.get(hunkLines[0]! - 1) ?? null;
  if (!fn) return { file: f.path, line: hunkLines[0]!, fn: null };
  const body = [...f.functionOf.entries()].filter(([, q]) => q === fn).map(([l]) => l).sort((a, b) => a - b);
  return { file: f.path, line: body[0]!, fn };
}

/** Breakpoint candidates, best first: functions the test body calls come before constructors and module-level code,
 * which usually run in fixtures or at import, before the debugger's first stop. */
function breakpointCandidates(facts: TaskFacts): { file: string; line: number; fn: string | null }[] {
  const all = facts.files.flatMap((f) => f.hunks.map((h) => breakpointFor(f, h.lines)));
  const rank = (c: { fn: string | null }) => (!c.fn ? 2 : /(^|\.)__init__$/.test(c.fn) ? 1 : 0);
  const seen = new Set<string>();
  return all
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c)
    .filter((c) => !seen.has(`${c.file}:${c.line}`) && !!seen.add(`${c.file}:${c.line}`));
}

function functionSpan(f: FileFacts, fn: string | null, around: number): [number, number] {
  const lines = f.oldText.split('\n');
  const body = fn ? [...f.functionOf.entries()].filter(([, q]) => q === fn).map(([l]) => l) : [around];
  let start = Math.min(...body);
  while (start > 1 && !/^\s*(async\s+)?def\s/.test(lines[start - 1] ?? '')) start--;
  const end = Math.max(...body, ...f.hunks.flatMap((h) => h.lines).filter((l) => Math.abs(l - around) < 60));
  return [Math.max(1, start - 2), Math.min(lines.length, end + 2, start + 150)];
}

/** The parameter names of the function `fn` whose body holds `line`: always locals in its frame, even those
 * examine_locals hides (a class or a function passed in). */
function parametersOf(source: string, fn: string | null, line: number): string[] {
  if (!fn) return [];
  const lines = source.split('\n');
  const name = fn.split('.').at(-1)!;
  let d = line - 1;
  while (d >= 0 && !new RegExp(`^\\s*(async\\s+)?def\\s+${name}\\s*\\(`).test(lines[d]!)) d--;
  if (d < 0) return [];
  const text = lines.slice(d, d + 20).join('\n');
  // split the parameter list at its top-level commas, up to the closing parenthesis
  let depth = 0;
  let cut = text.indexOf('(') + 1;
  const pieces: string[] = [];
  for (let k = cut; k < text.length && depth >= 0; k++) {
    const ch = text[k]!;
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if ((ch === ',' && depth === 0) || depth < 0) {
      pieces.push(text.slice(cut, k));
      cut = k + 1;
    }
  }
  return pieces.map((p) => /^\s*\*{0,2}([A-Za-z_]\w*)/.exec(p)?.[1]).filter((n): n is string => !!n);
}

/** A bug site: the file and hunk a breakpoint candidate stands for, the values that hunk's edit changes (what to read
 * there; `changedNames`, the same names the SFT filter checks), the function's parameters and the first changed line
 * after the breakpoint, in its function, where the debugger can stop (null: none). */
function bugSite(facts: TaskFacts, c: { file: string; line: number; fn: string | null }): { file: string; suspects: string[]; kept: string[]; params: string[]; line: number | null } {
  const f = facts.files.find((x) => x.path === c.file)!;
  const hunk = f.hunks.find((h) => breakpointFor(f, h.lines).line === c.line) ?? f.hunks[0]!;
  const line = c.fn ? hunk.lines.find((l) => l > c.line && f.functionOf.get(l) === c.fn) ?? null : null;
  const suspects = changedNames(hunk.edit.old_text, hunk.edit.new_text);
  // the suspects the fixed code still has (the check on the fixed code cannot print a name the fix removed)
  const kept = suspects.filter((n) => new RegExp(`(?<![\\w.])${n.replace(/\./g, '\\.')}(?!\\w)`).test(hunk.edit.new_text));
  return { file: f.path, suspects, kept, params: parametersOf(f.oldText, c.fn, c.line), line };
}

export function buildPlan(facts: TaskFacts, v: Variation): Step[] {
  const [bp, fallback] = breakpointCandidates(facts);
  const primary = facts.files.find((f) => f.path === bp!.file)!;
  const files = [primary, ...facts.files.filter((f) => f !== primary)];
  const fnName = bp!.fn?.split('.').at(-1) ?? null;
  const [readFrom, readTo] = functionSpan(primary, bp!.fn, bp!.line);
  const bpSite = bugSite(facts, bp!);
  const suspects = bpSite.suspects;
  const wrong = v.wrongHypothesis ? facts.otherSources[0] : undefined;
  const steps: Step[] = [];
  const call = (name: string, args: Record<string, unknown>, thought: string): Step => () => ({ name, arguments: args, thought });

  // 1. inventory
  steps.push(call('bash', { command: 'ls' }, 'Start with an inventory of the workspace.'));
  if (v.long) steps.push(call('bash', { command: 'wc -l *.py' }, 'Size the files before reading any of them.'));
  // 2. reproduce
  steps.push(call('run_tests', {}, 'Reproduce the failure: run the visible tests.'));
  if (v.long) steps.push(call('run_tests', { target: facts.failingTest }, `Run only ${facts.failingTest} to see its traceback on its own.`));
  // wrong first hypothesis: read a file the fix does not touch, then recover
  if (wrong) {
    steps.push(call('read_file', { path: wrong, start_line: 1, end_line: 60 }, `My first guess is that ${wrong} mishandles the value the failing test checks; read it.`));
  }
  // 3. locate and read a bounded range
  if (fnName) {
    const thought = wrong ? `${wrong} looks correct, so that hypothesis is wrong. The traceback goes through ${fnName}; locate it.` : `Locate ${fnName}, which the failing test exercises.`;
    steps.push(call('bash', { command: `grep -n "def ${fnName}" ${primary.path}` }, thought));
  }
  steps.push(call('read_file', { path: primary.path, start_line: readFrom, end_line: readTo }, `Read a bounded range of ${primary.path} around ${fnName ?? 'the suspect code'}.`));
  if (v.long) steps.push(call('read_file', { path: facts.testFile, start_line: 1, end_line: 80 }, `Read the test to see exactly what ${facts.testName} expects.`));
  // 4-6. the debugger
  const hypothesis = suspects.length ? `the values of ${suspects.slice(0, 2).join(' and ')}` : 'the state at that point';
  steps.push(call('start_debugger', { test_file: facts.testFile, test_name: facts.testName }, `Hypothesis: ${hypothesis} in ${fnName ?? primary.path} are wrong for this test. Run only the failing test under the debugger.`));
  steps.push(call('add_breakpoint', { file: bp!.file, line: bp!.line }, `Break at line ${bp!.line}, in ${bp!.fn ?? bp!.file}, where the hypothesis can be checked.`));
  steps.push(call('continue_execution', {}, 'Run to the breakpoint.'));
  // recovery: the breakpoint was not reached (the program ended): break at the next changed function, restart the
  // test and continue once more
  const missed = (h: Turn[]) => {
    const c = h.filter((t) => t.name === 'continue_execution');
    return c.length === 1 && !stoppedAtBreakpoint(c[0]!.output);
  };
  if (fallback) {
    steps.push((h) => (missed(h) ? { name: 'add_breakpoint', arguments: { file: fallback.file, line: fallback.line }, thought: `The test ended without reaching that line. Break in ${fallback.fn ?? fallback.file} instead.` } : null));
  }
  steps.push((h) => (missed(h) ? { name: 'start_debugger', arguments: { test_file: facts.testFile, test_name: facts.testName }, thought: 'Restart the failing test under the debugger; breakpoints are kept.' } : null));
  steps.push((h) => (missed(h) && last(h, 'start_debugger') && h.at(-1)?.name === 'start_debugger' ? { name: 'continue_execution', arguments: {}, thought: 'Run to the breakpoint again.' } : null));
  const paused = (h: Turn[]) => {
    const c = last(h, 'continue_execution');
    return !!c && stoppedAtBreakpoint(c.output);
  };
  // where the debugger stands: the fallback's site once the first breakpoint was missed
  const fallbackSite = fallback ? bugSite(facts, fallback) : bpSite;
  const site = (h: Turn[]) => (h.filter((t) => t.name === 'continue_execution').length > 1 && h.some((t) => t.name === 'add_breakpoint' && t.arguments.line === fallback?.line && t.arguments.file === fallback.file) ? fallbackSite : bpSite);
  steps.push((h) => (paused(h) ? { name: 'examine_locals', arguments: {}, thought: 'Inspect the runtime evidence: the locals of this frame.' } : null));
  // a suspect can be printed only if its root name is one of the locals shown (lines "name = value"), by the last
  // examine_locals or, for the check on the fixed code (which stops where the debugger first stopped), the first;
  // or a parameter of the function, which examine_locals may hide (a class passed in)
  const shown = (h: Turn[], which: 'first' | 'last' = 'last') => {
    const seen = which === 'last' ? last(h, 'examine_locals') : h.find((t) => t.name === 'examine_locals');
    const names = new Set([...(seen?.output ?? '').matchAll(/^\s*([A-Za-z_]\w*) = /gm)].map((m) => m[1]));
    if (seen) for (const p of site(h).params) names.add(p);
    return site(h).suspects.filter((s) => names.has(s.split('.')[0]!));
  };
  steps.push((h) => {
    const s = paused(h) ? shown(h)[0] : undefined;
    return s ? { name: 'print_variable', arguments: { expression: s }, thought: `Read the value the hypothesis is about, ${s}.` } : null;
  });
  // None of the values the fix changes is set yet at the function's first line (they are assigned further down, or
  // in a loop): run on to the first changed line, where they are in use, and read one there. What the debugger
  // showed must be what the edit then changes, or the inspection did not inform the fix (the SFT filter
  // uninformed_debugger_use). A call that returns before that line stops at the first breakpoint again: continue
  // once more.
  /** The calls since the run-on breakpoint was set, or null when it was not. */
  const sinceRunOn = (h: Turn[]) => {
    const { file, line } = site(h);
    const i = line === null ? -1 : h.findIndex((t) => t.name === 'add_breakpoint' && t.arguments.file === file && t.arguments.line === line);
    return i < 0 ? null : h.slice(i + 1);
  };
  const atRunOn = (h: Turn[], out: string) => stoppedAtBreakpoint(out) && out.split('\n', 1)[0]!.includes(`(${site(h).file}:${site(h).line} in `);
  steps.push((h) => {
    const l = site(h).line;
    if (!paused(h) || shown(h).length || l === null || sinceRunOn(h)) return null;
    const names = site(h).suspects.slice(0, 2).join(' and ') || 'the values it changes';
    return { name: 'add_breakpoint', arguments: { file: site(h).file, line: l }, thought: `${names} are not set yet here. Break at line ${l}, where the suspect code uses them.` };
  });
  for (const thought of ['Run on to the changed line.', 'That call returned before the changed line; continue to the next one.']) {
    steps.push((h) => {
      const r = sinceRunOn(h);
      return r && r.every((t) => t.name === 'continue_execution' && stoppedAtBreakpoint(t.output) && !atRunOn(h, t.output)) ? { name: 'continue_execution', arguments: {}, thought } : null;
    });
  }
  const atChangedLine = (h: Turn[]) => {
    const r = sinceRunOn(h);
    return !!r && r.at(-1)?.name === 'continue_execution' && atRunOn(h, r.at(-1)!.output);
  };
  steps.push((h) => (atChangedLine(h) ? { name: 'examine_locals', arguments: {}, thought: 'The locals at the changed line.' } : null));
  steps.push((h) => {
    const s = h.at(-1)?.name === 'examine_locals' && atChangedLine(h.slice(0, -1)) ? shown(h)[0] : undefined;
    return s ? { name: 'print_variable', arguments: { expression: s }, thought: `Read ${s}, which the suspect line uses.` } : null;
  });
  // after a run-on the debugger already stands at the changed line: no step (it would only push the edit later)
  steps.push((h) => (paused(h) && !sinceRunOn(h) ? { name: 'step_over', arguments: {}, thought: 'Advance one statement.' } : null));
  // the step may have run the program to its end, or into a comprehension or lambda, whose frame has none of the
  // function's locals: inspect only a program still stopped in the frame the locals came from
  const frameOf = (out: string | undefined) => /:\d+ in ([\w.<>]+)/.exec(out?.split('\n', 1)[0] ?? '')?.[1];
  const stillStopped = (h: Turn[]) =>
    paused(h) && !sinceRunOn(h) && (h.at(-1)?.output ?? '').startsWith('Stopped at') && frameOf(h.at(-1)?.output) === frameOf(last(h, 'continue_execution')?.output);
  if (v.long) {
    steps.push((h) => (stillStopped(h) ? { name: 'where_am_i', arguments: {}, thought: 'Confirm where the step left me.' } : null));
    steps.push((h) => {
      const s = stillStopped(h) ? shown(h)[1] ?? shown(h)[0] : undefined;
      return s ? { name: 'print_variable', arguments: { expression: s }, thought: `See what that statement did to ${s}.` } : null;
    });
  }
  // 7. the fix, hunk by hunk; every file is read before it is edited
  files.forEach((f, fi) => {
    if (fi > 0) {
      const [a, b] = functionSpan(f, breakpointFor(f, f.hunks[0]!.lines).fn, f.hunks[0]!.lines[0]!);
      steps.push(call('read_file', { path: f.path, start_line: a, end_line: b }, `The same mistake has a second site in ${f.path}; read it before editing.`));
    }
    f.hunks.forEach((h, hi) => {
      if (v.failedEdit && fi === 0 && hi === 0) {
        const bad = misindent(h.edit.old_text, f.oldText);
        if (bad) {
          steps.push(call('edit_file', { path: f.path, old_text: bad, new_text: h.edit.new_text }, `The evidence confirms it. Fix ${f.path}.`));
          steps.push(call('read_file', { path: f.path, start_line: Math.max(1, h.lines[0]! - 3), end_line: h.lines.at(-1)! + 3 }, 'The edit did not match: reread the exact lines, indentation included.'));
        }
      }
      const first = fi === 0 && hi === 0;
      steps.push(call('edit_file', { path: f.path, ...h.edit }, first ? `The evidence confirms the hypothesis. Make a focused fix in ${f.path}.` : `Apply the same correction at the next site in ${f.path}.`));
    });
  });
  // confirm on the fixed code: the harness restarted the debugger after the edit, with the breakpoint kept
  const restarted = (h: Turn[]) => paused(h) && h.at(-1)?.name === 'edit_file' && /The debugger was restarted on the edited code/.test(h.at(-1)!.output);
  steps.push((h) => (restarted(h) ? { name: 'continue_execution', arguments: {}, thought: 'The debugger restarted on the fixed code; run to the same breakpoint.' } : null));
  steps.push((h) => {
    const c = h.at(-1);
    const s = c?.name === 'continue_execution' && stoppedAtBreakpoint(c.output) && h.filter((t) => t.name === 'edit_file').length ? shown(h, 'first').find((n) => site(h).kept.includes(n)) : undefined;
    return s ? { name: 'print_variable', arguments: { expression: s }, thought: `Check ${s} on the fixed code.` } : null;
  });
  // 8. verify, 9. done
  steps.push(call('run_tests', { target: facts.failingTest }, 'Rerun the failing test first.'));
  steps.push(call('run_tests', {}, 'Verify: rerun every visible test.'));
  steps.push(doneAfterTests(facts));
  return steps;
}

/** The last step of both plans: done, saying whether the last full test run passed. */
function doneAfterTests(facts: TaskFacts): Step {
  return (h) => {
    const t = last(h, 'run_tests');
    if (t && /^Result: \d+ passed(, \d+ skipped)?\s*$/m.test(t.output.split('\n')[0]!)) return { name: 'done', arguments: { summary: `Fixed ${facts.files.map((f) => f.path).join(', ')}; all visible tests pass.` }, thought: 'All tests pass.' };
    return { name: 'done', arguments: { summary: 'The fix is applied but some tests still fail.' }, thought: 'The tests still fail; stop here.' };
  };
}

/** Files up to this many lines are read whole in the no-debugger plan. */
const SHORT_FILE_LINES = 60;

/** The plan when the episode has no debugger tools (toolset `no-debugger`): read the changed function, apply the fix's
 * hunks, rerun the tests, done. A long variation reproduces the failure first. The learnable tier (the `starter`
 * split) trains on these short traces: a 135M model on a CPU can afford four turns, not the debugger plan's fifteen. */
export function buildNoDebuggerPlan(facts: TaskFacts, v: Variation): Step[] {
  const call = (name: string, args: Record<string, unknown>, thought: string): Step => () => ({ name, arguments: args, thought });
  const steps: Step[] = [];
  if (v.long) steps.push(call('run_tests', {}, 'Reproduce the failure: run the visible tests.'));
  for (const f of facts.files) {
    const first = f.hunks[0]!;
    const [a, b] = functionSpan(f, breakpointFor(f, first.lines).fn, first.lines[0]!);
    // a file this short is read whole: nothing to gain from a range, and a call with no line numbers to guess
    const whole = f.oldText.split('\n').length <= SHORT_FILE_LINES;
    steps.push(call('read_file', whole ? { path: f.path } : { path: f.path, start_line: a, end_line: b }, whole ? `Read ${f.path}.` : `Read ${f.path} around the code the failing test exercises.`));
    f.hunks.forEach((h, hi) => steps.push(call('edit_file', { path: f.path, ...h.edit }, hi === 0 ? `Make a focused fix in ${f.path}.` : `Apply the same correction at the next site in ${f.path}.`)));
  }
  steps.push(call('run_tests', {}, 'Verify: rerun every visible test.'));
  steps.push(doneAfterTests(facts));
  return steps;
}

/** old_text with the first line's indentation removed (or a stray space added): a realistic copy mistake that the
 * harness refuses. Null if the mangled text happens to occur in the file. */
function misindent(oldText: string, file: string): string | null {
  const [head, ...rest] = oldText.split('\n');
  const bad = [/^\s+/.test(head!) ? head!.trimStart() : ` ${head}`, ...rest].join('\n');
  return file.includes(bad) ? null : bad;
}

/** The next call, replaying the plan over the turns so far: each earlier turn consumed the first step that was not
 * skipped at that point. Past the end of the plan the oracle calls done. */
export function nextCall(plan: Step[], history: Turn[]): Call {
  let cursor = 0;
  const advance = (h: Turn[]): Call | null => {
    while (cursor < plan.length) {
      const c = plan[cursor++]!(h);
      if (c) return c;
    }
    return null;
  };
  for (let t = 0; t < history.length; t++) advance(history.slice(0, t));
  return advance(history) ?? { name: 'done', arguments: { summary: 'nothing left to do' }, thought: 'Done.' };
}

/** The earlier turns of an episode, from its conversation. */
export function turnsOf(messages: ChatMessage[]): Turn[] {
  const out: Turn[] = [];
  for (let k = 0; k < messages.length; k++) {
    const m = messages[k]!;
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const fn = m.tool_calls[0]!.function;
    const next = messages[k + 1];
    let args: Record<string, unknown> = {};
    try {
      args = JSON.parse(fn.arguments || '{}') as Record<string, unknown>;
    } catch {
      // the oracle's own calls are always JSON; anything else counts as no arguments
    }
    out.push({ name: fn.name, arguments: args, output: next?.role === 'tool' ? next.content.replace(/^\[harness\][^\n]*\n/, '') : '' });
  }
  return out;
}

// ----- the policy ----------------------------------------------------------------------------------------------------

export const ORACLE_REFUSAL = Failure.InvalidPolicy;

/** The splits whose fixes the teacher may read: what training sees, never validation or test. */
const TEACHER_SPLITS: readonly string[] = ['train', 'starter'];

export function oraclePolicy(config: Config): Policy {
  const facts = new Map<string, Promise<TaskFacts>>();
  const factsOf = (taskId: string) => {
    let p = facts.get(taskId);
    if (!p) {
      p = (async () => {
        let task: LoadedTask;
        try {
          task = loadTask(resolveTaskDir(taskId, config.DEBUGRL_TASKS_DIR));
        } catch (e) {
          throw ApplicationFailure.nonRetryable(`oracle: ${(e as Error).message}`, ORACLE_REFUSAL);
        }
        if (!TEACHER_SPLITS.includes(task.spec.split)) {
          throw ApplicationFailure.nonRetryable(
            `the oracle teacher reads the held-back fix, so it only runs on train-split tasks; ${taskId} is in the ${task.spec.split} split (starter tasks are allowed too: they are training data)`,
            ORACLE_REFUSAL,
          );
        }
        return taskFacts(task, config);
      })();
      p.catch(() => facts.delete(taskId));
      facts.set(taskId, p);
    }
    return p;
  };
  return {
    tokenCounting: 'approx-chars/4',
    async next(ctx: PolicyContext): Promise<ParsedReply> {
      const f = await factsOf(ctx.taskId);
      // The activity passes seed * 1000 + turn; the variation is per episode, so take the episode's seed back out.
      const episodeSeed = Math.floor((ctx.seed - ctx.turn) / 1000);
      const variation = variationFor(ctx.taskId, episodeSeed);
      const hasDebugger = ctx.tools.some((t) => t.function.name === 'start_debugger');
      const c = nextCall(hasDebugger ? buildPlan(f, variation) : buildNoDebuggerPlan(f, variation), turnsOf(ctx.messages));
      const args = JSON.stringify(c.arguments);
      return {
        message: { role: 'assistant', content: c.thought, tool_calls: [{ id: `call_${ctx.turn}`, type: 'function', function: { name: c.name, arguments: args } }] },
        toolCall: { name: c.name, arguments: c.arguments },
        invalidReason: null,
        promptTokens: approxTokens(JSON.stringify(ctx.messages)),
        completionTokens: approxTokens(c.thought + c.name + args),
        policyVersion: 0,
      };
    },
  };
}
