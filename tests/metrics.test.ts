/** Metrics against hand-computed values. */
import { breakpointsHit, episodeFacts, failureKind, median, passAtK, summarizeArm } from '../common/metrics';
import { TRAJECTORY_SCHEMA, type TrajectoryRecord } from '../common/trajectory';

describe('passAtK (unbiased estimator 1 − C(n−c,k)/C(n,k))', () => {
  it('matches hand-computed values', () => {
    // n=8, c=2, k=3: C(6,3)/C(8,3) = 20/56 = 0.357142…, so pass@3 = 36/56 = 0.642857…
    expect(passAtK(8, 2, 3)).toBeCloseTo(36 / 56, 12);
    // n=8, c=1, k=3: C(7,3)/C(8,3) = 35/56, so pass@3 = 21/56 = 0.375 (= k/n when c=1)
    expect(passAtK(8, 1, 3)).toBeCloseTo(0.375, 12);
    // pass@1 is the plain success rate: 5/8
    expect(passAtK(8, 5, 1)).toBeCloseTo(0.625, 12);
    // n=8, c=6, k=3: n−c=2 < k, every 3-subset holds a success
    expect(passAtK(8, 6, 3)).toBe(1);
  });
  it('handles c=0 and c=n', () => {
    expect(passAtK(8, 0, 3)).toBe(0);
    expect(passAtK(8, 8, 3)).toBe(1);
    expect(passAtK(3, 0, 3)).toBe(0);
    expect(passAtK(3, 3, 3)).toBe(1);
  });
  it('rejects n < k and nonsense with a clear error', () => {
    expect(() => passAtK(2, 1, 3)).toThrow('pass@3 needs at least 3 episodes per task, got n=2');
    expect(() => passAtK(8, 9, 3)).toThrow(RangeError);
    expect(() => passAtK(8, 1.5, 3)).toThrow(RangeError);
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

type Call = [tool: string, ok?: boolean, meta?: Record<string, unknown>, output?: string];
function rec(taskId: string, passed: boolean, calls: Call[], exitReason: TrajectoryRecord['outcome']['exitReason'] = 'done', tests: Record<string, string> = {}): TrajectoryRecord {
  const dbgTools = new Set(['start_debugger', 'add_breakpoint', 'continue_execution', 'examine_locals', 'print_variable', 'where_am_i', 'step_over', 'run_expression']);
  return {
    schema: TRAJECTORY_SCHEMA,
    episodeId: `${taskId}-${Math.random()}`,
    workflowId: 'w',
    taskId,
    split: 'test',
    policy: { spec: 'p', version: 0 },
    toolset: 'full',
    evaluationId: 'e',
    arm: 'a',
    seed: 0,
    limits: {},
    messages: [],
    turns: calls.map(([tool, ok = true, meta = {}, output = ''], i) => ({
      turn: i + 1,
      assistant: { message: { role: 'assistant', content: null }, toolCall: { name: tool, arguments: {} }, invalidReason: null, promptTokens: 100, completionTokens: 10, tokenCounting: 'server-usage', policyVersion: 0, latencyMs: 1 },
      tool: { tool, ok, output, stateChanging: tool === 'edit_file', debugger: dbgTools.has(tool), meta, latencyMs: 1, invalidReply: false },
    })),
    recoveries: [],
    outcome: { passed, tests, exitReason, error: null, gradeNotes: [] },
    tokens: { prompt: 100 * calls.length, completion: 10 * calls.length, finalContext: 0 },
    timings: { startedAt: '', finishedAt: '', durationMs: 0 },
  };
}

describe('episode facts and failure taxonomy', () => {
  it('reads debugger use from the turns', () => {
    const f = episodeFacts(
      rec('t', true, [['bash'], ['start_debugger'], ['add_breakpoint'], ['continue_execution', true, { breakpointsNeverHit: [{ file: 'a.py', line: 3 }] }], ['print_variable', false, { debuggerError: true }], ['examine_locals'], ['edit_file'], ['done']]),
    );
    expect(f).toMatchObject({ openedDebugger: true, firstDebuggerTurn: 2, debuggerCalls: 5, debuggerErrors: 1, inspected: true, inspectedThenEdited: true, breakpointsNeverHit: 1, turns: 8, tokens: 880, failure: null });
  });
  it('classifies failures', () => {
    expect(failureKind(rec('t', false, [['bash'], ['done']]))).toBe('never_edited');
    expect(failureKind(rec('t', false, [['edit_file'], ['bash']], 'turn_cap'))).toBe('wrong_fix_turns_exhausted');
    expect(failureKind(rec('t', false, [['edit_file'], ['done']]))).toBe('wrong_fix_gave_up');
    expect(failureKind(rec('t', false, [['edit_file']], 'guard'))).toBe('guard_exit');
    expect(failureKind(rec('t', false, [['edit_file']], 'context_exhausted'))).toBe('context_exhausted');
    expect(failureKind(rec('t', false, [['edit_file']], 'error'))).toBe('harness_error');
    expect(failureKind(rec('t', false, [['edit_file'], ['done']], 'done', { 'test_a.py::test_x': 'timeout' }))).toBe('test_timeout');
  });
});

describe('behaviour facts: valid calls, breakpoints hit, edits', () => {
  const stop = (bp: string) => `Stopped at breakpoint ${bp} (${bp} in f)\n  3 ->     x = 1`;
  it('counts distinct breakpoints stopped at, including after an edit restart, and not in failed observations', () => {
    const r = rec('t', false, [
      ['start_debugger', true, {}, 'Stopped before the test body at test_a.py:4 in test_x'],
      ['continue_execution', true, {}, stop('app/a.py:10')],
      ['continue_execution', true, {}, stop('app/a.py:10')],
      ['edit_file', true, {}, `Edited app/a.py.\nThe debugger was restarted on the edited code (no breakpoint needed shifting; breakpoints restored):\n${stop('app/b.py:3')}`],
      ['continue_execution', false, { debuggerError: true }, stop('app/c.py:1')],
      // program output that merely mentions the phrase mid-line is not a stop
      ['step_over', true, {}, 'Stopped at app/a.py:11 in f\nprint: we Stopped at breakpoint x.py:1 (fake)'],
    ]);
    expect(breakpointsHit(r)).toEqual(['app/a.py:10', 'app/b.py:3']);
    expect(episodeFacts(r)).toMatchObject({ breakpointsHit: 2, edits: 1, validCalls: 6, turns: 6 });
  });
  it('counts invalid replies and failed edits apart', () => {
    const r = rec('t', false, [['edit_file', false], ['edit_file'], ['bash'], ['bash']]);
    r.turns[2]!.assistant = { ...r.turns[2]!.assistant, toolCall: null, invalidReason: 'no tool call' };
    r.turns[2]!.tool = { ...r.turns[2]!.tool!, invalidReply: true };
    r.turns[3]!.assistant = { ...r.turns[3]!.assistant, invalidReason: 'unknown tool bsh' };
    expect(episodeFacts(r)).toMatchObject({ validCalls: 2, edits: 1, turns: 4 });
    const s = summarizeArm([r, rec('u', true, [['edit_file'], ['done']])], 1);
    // 4 valid of 6 replies; edits 1 and 1 → 1 per episode, both episodes edited; no breakpoint hit
    expect(s.validCallRate).toBeCloseTo(4 / 6, 12);
    expect(s.edits).toEqual({ perEpisode: 1, shareEdited: 1 });
    expect(s.debugger).toMatchObject({ breakpointsHit: 0, shareBreakpointHit: 0 });
  });
});

describe('summarizeArm', () => {
  it('aggregates per task, then over tasks', () => {
    // task a: 3 of 4 pass; task b: 0 of 4 pass. n=4, k=3.
    const a = [true, true, true, false].map((p) => rec('a', p, p ? [['edit_file'], ['done']] : [['bash'], ['bash']], p ? 'done' : 'turn_cap'));
    const b = [0, 1, 2, 3].map(() => rec('b', false, [['start_debugger'], ['where_am_i'], ['bash']], 'turn_cap'));
    const s = summarizeArm([...a, ...b], 3);
    // pass@1: (3/4 + 0)/2 = 0.375; pass@3: task a: n−c=1 < 3 → 1; task b: 0 → mean 0.5
    expect(s.passAt1).toBeCloseTo(0.375, 12);
    expect(s.passAtK).toBeCloseTo(0.5, 12);
    expect(s).toMatchObject({ episodes: 8, tasks: 2, solvedAtLeastOnce: 1, solvedEveryEpisode: 0 });
    // turns: a → 2,2,2,2; b → 3,3,3,3: median 2.5; 5 of 8 episodes hit the cap (1 of a, 4 of b)
    expect(s.turns.median).toBe(2.5);
    expect(s.turns.shareAtCap).toBeCloseTo(5 / 8, 12);
    expect(s.turns.shareAtCapSuccess).toBe(0);
    expect(s.turns.shareAtCapFailure).toBe(1);
    // debugger: opened in the 4 b episodes at turn 1; inspected 4 times, never followed by an edit
    expect(s.debugger).toMatchObject({ shareOpened: 0.5, medianFirstTurn: 1, callsPerEpisode: 1, inspectionToEdit: 0, episodesWithInspection: 4 });
    expect(s.failures).toMatchObject({ never_edited: 5, wrong_fix_turns_exhausted: 0 });
    expect(s.perTask.map((t) => [t.taskId, t.c, t.n])).toEqual([['a', 3, 4], ['b', 0, 4]]);
  });
});
