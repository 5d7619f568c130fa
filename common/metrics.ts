/** Evaluation metrics, computed from stored trajectory records. Pure functions: the EvaluationWorkflow's aggregation
 * activity and `npx debugrl report` call the same code, so every number in a report can be recomputed. */
import type { TrajectoryRecord } from './trajectory';

/**
 * Unbiased pass@k estimator (Chen et al. 2021, "Evaluating Large Language Models Trained on Code"):
 *   pass@k = 1 − C(n−c, k) / C(n, k)
 * for n samples of which c passed. Computed as 1 − ∏_{i=n−c+1}^{n} (1 − k/i), which never forms the binomials.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || k < 1 || c < 0 || c > n) {
    throw new RangeError(`pass@k needs integers n ≥ 1, 0 ≤ c ≤ n, k ≥ 1 (got n=${n}, c=${c}, k=${k})`);
  }
  if (n < k) throw new RangeError(`pass@${k} needs at least ${k} episodes per task, got n=${n}`);
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

export function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const share = (num: number, den: number) => (den ? num / den : null);

/** Tools that read runtime state from a paused program. */
export const INSPECTIONS = new Set(['examine_locals', 'print_variable', 'run_expression', 'where_am_i']);

export const FAILURE_KINDS = ['harness_error', 'guard_exit', 'context_exhausted', 'test_timeout', 'never_edited', 'wrong_fix_turns_exhausted', 'wrong_fix_gave_up'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Why a failed episode failed: the first matching kind in FAILURE_KINDS order. */
export function failureKind(r: TrajectoryRecord): FailureKind {
  const edited = r.turns.some((t) => t.tool?.tool === 'edit_file' && t.tool.ok);
  if (r.outcome.exitReason === 'error') return 'harness_error';
  if (r.outcome.exitReason === 'guard') return 'guard_exit';
  if (r.outcome.exitReason === 'context_exhausted') return 'context_exhausted';
  if (Object.values(r.outcome.tests).includes('timeout') || r.outcome.gradeNotes.some((n) => /killed after/.test(n))) return 'test_timeout';
  if (!edited) return 'never_edited';
  return r.outcome.exitReason === 'turn_cap' ? 'wrong_fix_turns_exhausted' : 'wrong_fix_gave_up';
}

/** The headline of a debugger stop at a breakpoint, as the bridge writes it (debugger/formatting.py describe_stop):
 * "Stopped at breakpoint <file>:<line> (<where>)", first on its line. */
const BREAKPOINT_STOP = /^Stopped at breakpoint (\S+) \(/gm;

/** The distinct breakpoints (file:line) at which the program stopped, read from the observations the model saw. Stops
 * after an edit's restart count too; an observation that failed does not. */
export function breakpointsHit(r: TrajectoryRecord): string[] {
  const hit = new Set<string>();
  for (const t of r.turns) if (t.tool?.ok && !t.tool.invalidReply) for (const m of t.tool.output.matchAll(BREAKPOINT_STOP)) hit.add(m[1]!);
  return [...hit].sort();
}

/** A reply counts as a valid tool call when the harness parsed a known tool with schema-valid arguments and ran it. */
export function isValidCall(t: TrajectoryRecord['turns'][number]): boolean {
  return t.assistant.invalidReason === null && t.assistant.toolCall !== null && !t.tool?.invalidReply;
}

/** True when a start_debugger call's arguments name one of the task's failing tests (task.json `failing_tests`, ids
 * like `test_x.py::test_y` or `test_x.py::TestC::test_y`): `test_file::test_name` equals one, or equals one with its
 * pytest parameters (`[...]`) left off. A call that names no test (the whole file) names none. */
export function namesFailingTest(args: unknown, failingTests: readonly string[]): boolean {
  if (!args || typeof args !== 'object') return false;
  const { test_file: file, test_name: name } = args as { test_file?: unknown; test_name?: unknown };
  if (typeof file !== 'string' || typeof name !== 'string') return false;
  const id = `${file.replace(/^\.\//, '')}::${name}`;
  return failingTests.some((f) => f === id || f.replace(/\[.*\]$/, '') === id);
}

export interface EpisodeFacts {
  taskId: string;
  passed: boolean;
  turns: number;
  /** Replies that were a valid tool call (isValidCall). */
  validCalls: number;
  /** Successful edit_file calls. */
  edits: number;
  hitTurnCap: boolean;
  openedDebugger: boolean;
  firstDebuggerTurn: number | null;
  debuggerCalls: number;
  debuggerErrors: number;
  /** Valid start_debugger calls (run or refused), and how many named one of the task's failing tests (null when the
   * task's failing tests are not known). The seed's "targeted starts". */
  debuggerStarts: number;
  targetedStarts: number | null;
  inspected: boolean;
  inspectedThenEdited: boolean;
  breakpointsNeverHit: number;
  /** Distinct breakpoints the program stopped at (breakpointsHit). */
  breakpointsHit: number;
  tokens: number;
  failure: FailureKind | null;
}

/** `failingTests`: the task's `failing_tests` (task.json); the trajectory record does not carry them. */
export function episodeFacts(r: TrajectoryRecord, failingTests: readonly string[] | null = null): EpisodeFacts {
  const calls = r.turns.filter((t) => t.tool && !t.tool.invalidReply);
  const dbg = calls.filter((t) => t.tool!.debugger);
  const opened = calls.find((t) => t.tool!.tool === 'start_debugger' && t.tool!.ok);
  const starts = r.turns.filter((t) => isValidCall(t) && t.assistant.toolCall!.name === 'start_debugger');
  const firstInspection = calls.find((t) => INSPECTIONS.has(t.tool!.tool) && t.tool!.ok);
  const editAfter = firstInspection ? calls.some((t) => t.turn > firstInspection.turn && t.tool!.tool === 'edit_file' && t.tool!.ok) : false;
  const neverHit = new Set<string>();
  for (const t of dbg) for (const b of (t.tool!.meta.breakpointsNeverHit as unknown[] | undefined) ?? []) neverHit.add(JSON.stringify(b));
  return {
    taskId: r.taskId,
    passed: r.outcome.passed,
    turns: r.turns.length,
    validCalls: r.turns.filter(isValidCall).length,
    edits: calls.filter((t) => t.tool!.tool === 'edit_file' && t.tool!.ok).length,
    hitTurnCap: r.outcome.exitReason === 'turn_cap',
    openedDebugger: Boolean(opened),
    firstDebuggerTurn: opened ? opened.turn : null,
    debuggerCalls: dbg.length,
    debuggerErrors: dbg.filter((t) => !t.tool!.ok || t.tool!.meta.debuggerError === true).length,
    debuggerStarts: starts.length,
    targetedStarts: failingTests ? starts.filter((t) => namesFailingTest(t.assistant.toolCall!.arguments, failingTests)).length : null,
    inspected: Boolean(firstInspection),
    inspectedThenEdited: editAfter,
    breakpointsNeverHit: neverHit.size,
    breakpointsHit: breakpointsHit(r).length,
    tokens: r.tokens.prompt + r.tokens.completion,
    failure: r.outcome.passed ? null : failureKind(r),
  };
}

export interface TaskSummary {
  taskId: string;
  n: number;
  c: number;
  passAt1: number;
  passAtK: number;
  medianTurns: number | null;
  openedDebugger: number;
}

export interface ArmSummary {
  episodes: number;
  tasks: number;
  k: number;
  passAt1: number | null;
  passAtK: number | null;
  solvedAtLeastOnce: number;
  solvedEveryEpisode: number;
  /** Valid tool calls over all replies, pooled over the arm's turns. */
  validCallRate: number | null;
  edits: { perEpisode: number | null; shareEdited: number | null };
  turns: { median: number | null; medianSuccess: number | null; medianFailure: number | null; shareAtCap: number | null; shareAtCapSuccess: number | null; shareAtCapFailure: number | null };
  debugger: {
    shareOpened: number | null;
    medianFirstTurn: number | null;
    callsPerEpisode: number | null;
    inspectionToEdit: number | null;
    episodesWithInspection: number;
    breakpointsNeverHit: number;
    /** Distinct breakpoints stopped at, summed over episodes, and the share of episodes with at least one. */
    breakpointsHit: number;
    shareBreakpointHit: number | null;
    commandErrors: number;
    /** Valid start_debugger calls, those of episodes whose task's failing tests are known, and the share of the
     * latter that named a failing test (the seed's "targeted starts"; null with no such call). */
    starts: number;
    startsWithKnownTests: number;
    targetedStarts: number | null;
  };
  failures: Record<FailureKind, number>;
  tokens: { meanPerEpisode: number | null; medianPerEpisode: number | null };
  perTask: TaskSummary[];
}

/** Aggregate one arm (one policy and tool set) over its episodes. pass@k is per task, then averaged over tasks.
 * `failingTests`: task id → its `failing_tests`, for targeted starts (a task not in it counts as unknown). */
export function summarizeArm(records: TrajectoryRecord[], k: number, failingTests: ReadonlyMap<string, readonly string[]> = new Map()): ArmSummary {
  const facts = records.map((r) => episodeFacts(r, failingTests.get(r.taskId) ?? null));
  const known = facts.filter((f) => f.targetedStarts !== null);
  const byTask = new Map<string, EpisodeFacts[]>();
  for (const f of facts) byTask.set(f.taskId, [...(byTask.get(f.taskId) ?? []), f]);
  const perTask: TaskSummary[] = [...byTask.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([taskId, fs]) => {
      const c = fs.filter((f) => f.passed).length;
      return {
        taskId,
        n: fs.length,
        c,
        passAt1: passAtK(fs.length, c, 1),
        passAtK: passAtK(fs.length, c, k),
        medianTurns: median(fs.map((f) => f.turns)),
        openedDebugger: fs.filter((f) => f.openedDebugger).length,
      };
    });
  const ok = facts.filter((f) => f.passed);
  const bad = facts.filter((f) => !f.passed);
  const inspected = facts.filter((f) => f.inspected);
  const failures = Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, bad.filter((f) => f.failure === kind).length])) as Record<FailureKind, number>;
  return {
    episodes: facts.length,
    tasks: perTask.length,
    k,
    passAt1: mean(perTask.map((t) => t.passAt1)),
    passAtK: mean(perTask.map((t) => t.passAtK)),
    solvedAtLeastOnce: perTask.filter((t) => t.c > 0).length,
    solvedEveryEpisode: perTask.filter((t) => t.c === t.n).length,
    validCallRate: share(facts.reduce((s, f) => s + f.validCalls, 0), facts.reduce((s, f) => s + f.turns, 0)),
    edits: { perEpisode: mean(facts.map((f) => f.edits)), shareEdited: share(facts.filter((f) => f.edits > 0).length, facts.length) },
    turns: {
      median: median(facts.map((f) => f.turns)),
      medianSuccess: median(ok.map((f) => f.turns)),
      medianFailure: median(bad.map((f) => f.turns)),
      shareAtCap: share(facts.filter((f) => f.hitTurnCap).length, facts.length),
      shareAtCapSuccess: share(ok.filter((f) => f.hitTurnCap).length, ok.length),
      shareAtCapFailure: share(bad.filter((f) => f.hitTurnCap).length, bad.length),
    },
    debugger: {
      shareOpened: share(facts.filter((f) => f.openedDebugger).length, facts.length),
      medianFirstTurn: median(facts.flatMap((f) => (f.firstDebuggerTurn === null ? [] : [f.firstDebuggerTurn]))),
      callsPerEpisode: mean(facts.map((f) => f.debuggerCalls)),
      inspectionToEdit: share(inspected.filter((f) => f.inspectedThenEdited).length, inspected.length),
      episodesWithInspection: inspected.length,
      breakpointsNeverHit: facts.reduce((s, f) => s + f.breakpointsNeverHit, 0),
      breakpointsHit: facts.reduce((s, f) => s + f.breakpointsHit, 0),
      shareBreakpointHit: share(facts.filter((f) => f.breakpointsHit > 0).length, facts.length),
      commandErrors: facts.reduce((s, f) => s + f.debuggerErrors, 0),
      starts: facts.reduce((s, f) => s + f.debuggerStarts, 0),
      startsWithKnownTests: known.reduce((s, f) => s + f.debuggerStarts, 0),
      targetedStarts: share(known.reduce((s, f) => s + f.targetedStarts!, 0), known.reduce((s, f) => s + f.debuggerStarts, 0)),
    },
    failures,
    tokens: { meanPerEpisode: mean(facts.map((f) => f.tokens)), medianPerEpisode: median(facts.map((f) => f.tokens)) },
    perTask,
  };
}
