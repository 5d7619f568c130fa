/**
 * Behavioural filters for SFT trajectories. Pure: each takes a trajectory's steps and its threshold and returns a
 * rejection reason or null.
 *
 * Why filter passing trajectories at all: every assistant token of a kept trajectory gets equal supervision, so an
 * episode that passed while taking bad actions teaches those actions. Outcome-only filtering does more than tolerate
 * that; it can amplify the bad habit that happened to help the episode pass (the seed's "process matters just as much
 * as the outcome"). The seed rejected invalid tool ordering, blind stepping, repeated loops, edits without a prior
 * read, `done` before verification and debugger observations that did not inform the edit, and in its simplified
 * form debugger treadmills, long debugger runs, late
 * source edits and final edits never retested. It also found the stricter filters did not raise pass@k (they remove
 * bad examples without adding better ones), and kept them as quality checks; so do we.
 */
import { z } from 'zod';
import { changedNames, STRING } from './edit-diff';
import type { TrajectoryRecord } from './trajectory';

/** The thresholds. The seed gave the filters but not its numbers, except the 75 % late-edit cut; the others are
 * chosen so that the oracle teacher's long traces pass and a treadmill does not. */
export const SftFilterConfig = z
  .object({
    /** Reject when more than this share of the turns are debugger calls. */
    maxDebuggerShare: z.number().min(0).max(1).default(0.7),
    /** Reject a run of more than this many consecutive debugger calls. */
    maxDebuggerStreak: z.number().int().min(1).default(14),
    /** Reject when the first source edit comes after this fraction of the turns (the seed's 0.75). */
    lateEditFraction: z.number().min(0).max(1).default(0.75),
    /** Reject more than this many step_over/step_into/step_out calls in a row with no inspection between. */
    maxBlindSteps: z.number().int().min(1).default(3),
    /** Reject a block of up to 4 calls repeated this many times in a row with the same observations. */
    maxLoopRepeats: z.number().int().min(2).default(3),
    /** Reject a trajectory whose debugger value reads never touched, at the bug site, a value its edit changes
     * (false: keep them; for corpora from policies whose inspection is judged elsewhere). */
    informedDebuggerUse: z.boolean().default(true),
  })
  .strict();
export type SftFilterConfig = z.infer<typeof SftFilterConfig>;

export const REJECTION_REASONS = [
  'invalid_reply',
  'debugger_treadmill',
  'debugger_streak',
  'late_source_edit',
  'final_edit_not_retested',
  'edit_without_read',
  'done_before_verify',
  'invalid_tool_ordering',
  'blind_stepping',
  'repeated_loop',
  'uninformed_debugger_use',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** One turn, reduced to what the filters look at. */
export interface FilterStep {
  /** null: the reply had no valid tool call. */
  name: string | null;
  arguments: Record<string, unknown>;
  ok: boolean;
  output: string;
  debugger: boolean;
}

export interface Rejection {
  reason: RejectionReason;
  /** The turn (1-based) where it shows, or null for whole-trajectory measures. */
  turn: number | null;
  detail: string;
}

export function stepsOf(record: TrajectoryRecord): FilterStep[] {
  return record.turns.map((t) => ({
    name: t.assistant.toolCall?.name ?? null,
    arguments: (t.assistant.toolCall?.arguments ?? {}) as Record<string, unknown>,
    ok: t.tool?.ok ?? false,
    output: t.tool?.output ?? '',
    debugger: t.tool?.debugger ?? false,
  }));
}

const isTestPath = (p: string) => /(^|\/)(test_[^/]*|[^/]*_test\.py|conftest\.py)$/.test(p);
const normPath = (p: string) => p.replace(/^\.?\//, '').replace(/^\/workspace\//, '');
const editPath = (s: FilterStep) => (s.name === 'edit_file' && typeof s.arguments.path === 'string' ? normPath(s.arguments.path) : null);
/** A successful edit of a source file (not a test): what the grader sees. */
const isSourceEdit = (s: FilterStep) => s.ok && !!editPath(s) && !isTestPath(editPath(s)!);
const isTestRun = (s: FilterStep) => s.name === 'run_tests' || (s.name === 'bash' && /\bpytest\b/.test(String(s.arguments.command ?? '')));
/** A test run that passed every test it ran. */
const isPassingRun = (s: FilterStep) => isTestRun(s) && s.ok;
function lastIndex<T>(xs: T[], pred: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (pred(xs[i]!)) return i;
  return -1;
}
const STEPS = new Set(['step_over', 'step_into', 'step_out']);
const INSPECT = new Set(['examine_locals', 'print_variable', 'run_expression', 'where_am_i']);

/** Replies with no valid tool call: the model failed the format, and that turn would be trained as it stands. */
export function invalidReply(steps: FilterStep[]): Rejection | null {
  const i = steps.findIndex((s) => s.name === null);
  return i < 0 ? null : { reason: 'invalid_reply', turn: i + 1, detail: 'a reply without a valid tool call' };
}

/** Debugger treadmill: the seed's `debugger_share > max_debugger_share`. A trace that is mostly debugger calls
 * teaches stepping for its own sake; the seed's earlier SFT checkpoints failed most often by repeating debugger calls. */
export function debuggerTreadmill(steps: FilterStep[], cfg: SftFilterConfig): Rejection | null {
  if (!steps.length) return null;
  const share = steps.filter((s) => s.debugger).length / steps.length;
  return share > cfg.maxDebuggerShare ? { reason: 'debugger_treadmill', turn: null, detail: `debugger share ${share.toFixed(2)} > ${cfg.maxDebuggerShare}` } : null;
}

/** Consecutive debugger run: the seed's `debugger_streak > max_debugger_run`. A long unbroken debugger run is a
 * session that is not converging on a hypothesis. */
export function debuggerStreak(steps: FilterStep[], cfg: SftFilterConfig): Rejection | null {
  let run = 0;
  for (const [i, s] of steps.entries()) {
    run = s.debugger ? run + 1 : 0;
    if (run > cfg.maxDebuggerStreak) return { reason: 'debugger_streak', turn: i + 1, detail: `more than ${cfg.maxDebuggerStreak} debugger calls in a row` };
  }
  return null;
}

/** Late source edit: the seed's `first_source_edit > 0.75`. A fix that arrives only at the end of the budget is
 * usually a lucky guess after a wandering search, not the outcome of the diagnosis. No source edit at all counts too. */
export function lateSourceEdit(steps: FilterStep[], cfg: SftFilterConfig): Rejection | null {
  const i = steps.findIndex(isSourceEdit);
  if (i < 0) return { reason: 'late_source_edit', turn: null, detail: 'no source file was edited' };
  const at = i / steps.length;
  return at > cfg.lateEditFraction ? { reason: 'late_source_edit', turn: i + 1, detail: `first source edit at ${(at * 100).toFixed(0)} % of the turns` } : null;
}

/** Final source edit never retested: the seed's `require_final_verify and not final_verified`. The last change must
 * be followed by a test run, or the trace teaches submitting untested code. */
export function finalEditNotRetested(steps: FilterStep[]): Rejection | null {
  const last = lastIndex(steps, isSourceEdit);
  if (last < 0) return null;
  return steps.slice(last + 1).some(isTestRun) ? null : { reason: 'final_edit_not_retested', turn: last + 1, detail: 'no test run after the last source edit' };
}

/** Edit without a prior read: the seed rejected "edits without a prior read". Editing a file the trace never looked
 * at teaches blind patching. Reading means read_file on the path, or a bash command naming it (cat, sed -n, grep). */
export function editWithoutRead(steps: FilterStep[]): Rejection | null {
  const seen = new Set<string>();
  for (const [i, s] of steps.entries()) {
    if (s.name === 'read_file' && typeof s.arguments.path === 'string' && s.ok) seen.add(normPath(s.arguments.path));
    if (s.name === 'bash' && s.ok) for (const w of String(s.arguments.command ?? '').split(/[\s'"|;&<>]+/)) seen.add(normPath(w));
    const p = editPath(s);
    if (p && s.arguments.old_text !== '' && !seen.has(p)) return { reason: 'edit_without_read', turn: i + 1, detail: `edited ${p} before reading it` };
  }
  return null;
}

/** `done` before verification: the seed rejected "a done tool call before verification". The last test run before
 * done, after the last edit, must have passed. */
export function doneBeforeVerify(steps: FilterStep[]): Rejection | null {
  const d = steps.findIndex((s) => s.name === 'done');
  if (d < 0) return null;
  const before = steps.slice(0, d);
  const lastEdit = lastIndex(before, isSourceEdit);
  const lastRun = lastIndex(before, isTestRun);
  if (lastRun < 0 || lastRun < lastEdit || !isPassingRun(before[lastRun]!)) {
    return { reason: 'done_before_verify', turn: d + 1, detail: lastRun < 0 || lastRun < lastEdit ? 'done with no test run after the last edit' : 'done right after a failing test run' };
  }
  return null;
}

/** Invalid tool ordering: the seed's first filter. A debugger command while no session runs (before start_debugger,
 * after stop_debugger, or after the program ended) is an action that cannot work, and the model must not learn it. */
export function invalidToolOrdering(steps: FilterStep[]): Rejection | null {
  let running = false;
  for (const [i, s] of steps.entries()) {
    if (s.name === 'start_debugger') running = s.ok;
    // the harness restarts a live or finished session on the edited code after an edit, and says so
    else if (s.name === 'edit_file' && /The debugger was restarted on the edited code/.test(s.output)) running = true;
    else if (s.name === 'stop_debugger') {
      if (!running) return { reason: 'invalid_tool_ordering', turn: i + 1, detail: 'stop_debugger with no session running' };
      running = false;
    } else if (s.debugger && s.name !== 'add_breakpoint' && s.name !== 'remove_breakpoint' && s.name !== 'list_breakpoints') {
      if (!running) return { reason: 'invalid_tool_ordering', turn: i + 1, detail: `${s.name} before the debugger was started` };
      if (/The program finished|The program exited/.test(s.output)) running = false;
    }
  }
  return null;
}

/** Blind stepping: the seed rejected steps taken without looking at what they did. More than N steps in a row with no
 * examine_locals/print_variable/run_expression/where_am_i between them is motion without evidence. */
export function blindStepping(steps: FilterStep[], cfg: SftFilterConfig): Rejection | null {
  let run = 0;
  for (const [i, s] of steps.entries()) {
    if (s.name && STEPS.has(s.name)) run++;
    else if (s.name && INSPECT.has(s.name)) run = 0;
    if (run > cfg.maxBlindSteps) return { reason: 'blind_stepping', turn: i + 1, detail: `more than ${cfg.maxBlindSteps} steps without an inspection` };
  }
  return null;
}

/** Repeated loops: the seed rejected them. The same block of calls (1 to 4 long) repeated with the same observations
 * made no progress; a breakpoint in a loop, with changing values, is not a repeat. */
export function repeatedLoop(steps: FilterStep[], cfg: SftFilterConfig): Rejection | null {
  const keys = steps.map((s) => JSON.stringify([s.name, s.arguments, s.output]));
  for (let k = 1; k <= 4; k++) {
    for (let start = 0; start + k * cfg.maxLoopRepeats <= keys.length; start++) {
      let reps = 1;
      while (start + (reps + 1) * k <= keys.length && keys.slice(start, start + k).every((key, j) => key === keys[start + reps * k + j])) reps++;
      if (reps >= cfg.maxLoopRepeats) return { reason: 'repeated_loop', turn: start + 1, detail: `a block of ${k} call(s) repeated ${reps} times` };
    }
  }
  return null;
}

/** Debugger calls that read runtime values. where_am_i shows the place and the source, not a value. */
const VALUE_READS = new Set(['print_variable', 'examine_locals', 'run_expression']);
/** A stop's headline names the frame: "Stopped at breakpoint 1 (m.py:5 in f)", "Stopped at m.py:6 in f", "Stopped
 * before the test body at test_m.py:3 in test_f", "Interrupted at …" (native/debugrl_native/debugger/formatting.py). */
const STOP = /^(?:Stopped|Interrupted)\b[^\n]*?([\w./-]+\.py):\d+/gm;
const GONE = /The program finished|The program exited|did not reach a test body|The debugger session was stopped/;

/** The file the debugger is paused in after a step, given where it was before (null: no program is paused). The
 * last stop headline of a debugger call, or of an edit's restart on the edited code ("Stopped before the test body
 * at …"), moves it; an ended program or stop_debugger clears it; reads and breakpoints leave it where it was. */
export function pausedFile(before: string | null, s: FilterStep): string | null {
  if (s.name === 'stop_debugger') return null;
  const restarted = s.name === 'edit_file' && /The debugger was restarted on the edited code/.test(s.output);
  if (!s.debugger && !restarted) return before;
  const stop = [...s.output.matchAll(STOP)].at(-1);
  if (stop) return normPath(stop[1]!);
  return GONE.test(s.output) ? null : before;
}

const DOTTED = /(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)/g;

/** Does a successful value read cover `name` (as valueNames gives it: `x`, `x.attr`, `self.attr`)? A read covers a
 * name by its root (the value the trace looked at): print_variable and run_expression read the names in their
 * expression (`order`, `order.total` and `len(order.items)` all cover `order.items`), and examine_locals reads the
 * locals it lists. `self` is in every
 * method's locals, so `self.attr` needs the attribute itself: an expression that reaches it, or a shown value of
 * `self` that mentions it (a dataclass repr does, `<obj at 0x…>` does not). */
export function readCovers(s: FilterStep, name: string): boolean {
  const [root, attr] = name.split('.') as [string, string | undefined];
  const shows = (text: string) => root !== 'self' || !attr || new RegExp(`\\b${attr}\\b`).test(text);
  if (s.name === 'examine_locals') {
    const line = s.output.split('\n').find((l) => l.startsWith(`${root} = `));
    return !!line && shows(line.slice(root.length + 3));
  }
  const expr = String(s.arguments.expression ?? '').replace(STRING, '');
  return [...expr.matchAll(DOTTED)].some(([, p]) => p!.split('.')[0] === root && (root !== 'self' || p === name || p!.startsWith(`${name}.`) || (name.startsWith(`${p}.`) && shows(s.output))));
}

/**
 * Debugger observations that did not inform the edit: the seed's filter, which its simplified pipeline dropped. A
 * trace that opens the debugger, reads some values and then patches code whose values it never looked at teaches
 * the debugger as ritual: the inspection is decoration and the edit came from elsewhere (the fix's text, a guess).
 * Kept traces must show the causal chain the debugger exists for: read the suspect value where the bug is, then
 * change it.
 *
 * Rejected when the trajectory observed values (a successful print_variable, examine_locals or run_expression) and
 * made at least one successful source edit, yet no successful source edit was preceded by such a read, made while
 * the debugger was paused in the file that edit changes, of a value the edit changes (`changedNames`: the names on
 * the lines of old_text that differ from new_text; for an edit whose changed lines name no value, any read in that
 * file counts). A trajectory that observed no value (no debugger, or only failed reads) is left to the other
 * filters, as is one with no source edit.
 */
export function uninformedDebuggerUse(steps: FilterStep[], cfg: SftFilterConfig): Rejection | null {
  if (!cfg.informedDebuggerUse || !steps.some((s) => s.ok && s.name && VALUE_READS.has(s.name))) return null;
  const reads: { file: string; step: FilterStep }[] = [];
  let at: string | null = null;
  let firstEdit = -1;
  for (const [i, s] of steps.entries()) {
    if (s.name && VALUE_READS.has(s.name) && s.ok && at) reads.push({ file: at, step: s });
    if (isSourceEdit(s)) {
      const file = editPath(s)!;
      const names = changedNames(String(s.arguments.old_text ?? ''), String(s.arguments.new_text ?? ''));
      const here = reads.filter((r) => r.file === file);
      if (here.some((r) => !names.length || names.some((n) => readCovers(r.step, n)))) return null;
      if (firstEdit < 0) firstEdit = i;
    }
    at = pausedFile(at, s);
  }
  if (firstEdit < 0) return null;
  const edited = steps[firstEdit]!;
  const names = changedNames(String(edited.arguments.old_text ?? ''), String(edited.arguments.new_text ?? ''));
  return { reason: 'uninformed_debugger_use', turn: firstEdit + 1, detail: `no value read at the bug site before an edit; ${editPath(edited)} changes ${names.slice(0, 4).join(', ') || 'no named value'}` };
}

/** Every filter, in a fixed order; all rejections are reported (the histogram counts each reason). */
export function rejections(steps: FilterStep[], cfg: SftFilterConfig): Rejection[] {
  return [
    invalidReply(steps),
    debuggerTreadmill(steps, cfg),
    debuggerStreak(steps, cfg),
    lateSourceEdit(steps, cfg),
    finalEditNotRetested(steps),
    editWithoutRead(steps),
    doneBeforeVerify(steps),
    invalidToolOrdering(steps),
    blindStepping(steps, cfg),
    repeatedLoop(steps, cfg),
    uninformedDebuggerUse(steps, cfg),
  ].filter((r): r is Rejection => r !== null);
}
