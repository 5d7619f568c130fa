/** The seed's "targeted starts" (common/metrics.ts namesFailingTest, episodeFacts, summarizeArm): the share of
 * start_debugger calls that name one of the task's failing tests (task.json `failing_tests`), and its row in the
 * evaluation report's debugger-use table. Expected values are counted by hand in the comments. */
import { buildReport, renderMarkdown } from '../activities/report/report';
import { episodeFacts, namesFailingTest, summarizeArm } from '../common/metrics';
import { TRAJECTORY_SCHEMA, type TrajectoryRecord } from '../common/trajectory';

const FAILING = ['test_cache.py::test_eviction', 'test_cache.py::TestTtl::test_expiry', 'test_cache.py::test_sizes[3]'];

/** An episode on task `cache` whose turns are these tool calls (name, arguments). */
function episode(id: string, calls: [string, Record<string, unknown>][]): TrajectoryRecord {
  return {
    schema: TRAJECTORY_SCHEMA, episodeId: id, workflowId: 'w', taskId: 'cache', split: 'train', policy: { spec: 'p', version: 0 },
    toolset: 'full', evaluationId: 'e', arm: 'a', seed: 0, limits: {}, messages: [], recoveries: [],
    turns: calls.map(([tool, args], i) => ({
      turn: i + 1,
      assistant: { message: { role: 'assistant', content: null }, toolCall: { name: tool, arguments: args }, invalidReason: null, promptTokens: 10, completionTokens: 5, tokenCounting: 'server-usage', policyVersion: 0, latencyMs: 1 },
      tool: { tool, ok: true, output: '', stateChanging: false, debugger: tool !== 'edit_file', meta: {}, latencyMs: 1, invalidReply: false },
    })),
    outcome: { passed: false, tests: {}, exitReason: 'done', error: null, gradeNotes: [] },
    tokens: { prompt: 10, completion: 5, finalContext: 0 },
    timings: { startedAt: '2026-12-03T00:00:00Z', finishedAt: '2026-12-03T00:00:01Z', durationMs: 1000 },
  };
}

const targeted = episode('targeted', [['start_debugger', { test_file: 'test_cache.py', test_name: 'test_eviction' }], ['examine_locals', {}]]);
const other = episode('other', [['start_debugger', { test_file: 'test_cache.py', test_name: 'test_put_get' }]]);
const none = episode('none', [['start_debugger', { test_file: 'test_cache.py' }], ['edit_file', {}]]);

describe('namesFailingTest', () => {
  it('matches test_file::test_name against the failing ids, classes and parameters included', () => {
    expect(namesFailingTest({ test_file: 'test_cache.py', test_name: 'test_eviction' }, FAILING)).toBe(true);
    expect(namesFailingTest({ test_file: 'test_cache.py', test_name: 'TestTtl::test_expiry' }, FAILING)).toBe(true);
    expect(namesFailingTest({ test_file: './test_cache.py', test_name: 'test_eviction' }, FAILING)).toBe(true);
    // test_sizes[3] fails; naming test_sizes runs every parameter, the failing one included
    expect(namesFailingTest({ test_file: 'test_cache.py', test_name: 'test_sizes' }, FAILING)).toBe(true);
  });

  it('does not count another test, another file, or a call that names no test', () => {
    expect(namesFailingTest({ test_file: 'test_cache.py', test_name: 'test_put_get' }, FAILING)).toBe(false);
    expect(namesFailingTest({ test_file: 'test_store.py', test_name: 'test_eviction' }, FAILING)).toBe(false);
    expect(namesFailingTest({ test_file: 'test_cache.py', test_name: 'test_expiry' }, FAILING)).toBe(false);
    expect(namesFailingTest({ test_file: 'test_cache.py' }, FAILING)).toBe(false);
    expect(namesFailingTest(undefined, FAILING)).toBe(false);
  });
});

describe('targeted starts', () => {
  it('counts per episode, and is unknown without the task\'s failing tests', () => {
    expect(episodeFacts(targeted, FAILING)).toMatchObject({ debuggerStarts: 1, targetedStarts: 1 });
    expect(episodeFacts(other, FAILING)).toMatchObject({ debuggerStarts: 1, targetedStarts: 0 });
    expect(episodeFacts(none, FAILING)).toMatchObject({ debuggerStarts: 1, targetedStarts: 0 });
    expect(episodeFacts(targeted)).toMatchObject({ debuggerStarts: 1, targetedStarts: null });
  });

  it('pools the calls of an arm: 1 of 3 starts named a failing test', () => {
    const s = summarizeArm([targeted, other, none], 1, new Map([['cache', FAILING]]));
    // starts: 1 + 1 + 1 = 3; targeted: 1 + 0 + 0 = 1 → 1/3
    expect(s.debugger.starts).toBe(3);
    expect(s.debugger.startsWithKnownTests).toBe(3);
    expect(s.debugger.targetedStarts).toBeCloseTo(1 / 3, 12);
    // a task whose failing tests are unknown counts in `starts` only: no share, rather than a wrong 0 %
    const unknown = summarizeArm([targeted, other, none], 1);
    expect(unknown.debugger).toMatchObject({ starts: 3, startsWithKnownTests: 0, targetedStarts: null });
  });

  it('is a row of the report\'s debugger-use table', () => {
    const arms = [{ label: 'a', policy: 'scripted:oracle', toolset: 'full' as const }];
    const md = renderMarkdown(buildReport({ evaluationId: 'e', k: 1, arms, records: [targeted, other, none], failingTests: { cache: FAILING }, generatedAt: 'now' }));
    expect(md).toMatch(/targeted starts \(start_debugger naming a failing test\) \| 33\.3 ?% \(of 3 starts\)/);
  });
});
