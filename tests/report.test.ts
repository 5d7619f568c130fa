/** The report renderer: pure functions over fixed records. */
import { buildReport, renderHtml, renderMarkdown } from '../activities/report/report';
import { fitLabel } from '../activities/report/svg';
import { TRAJECTORY_SCHEMA, type TrajectoryRecord } from '../common/trajectory';

function rec(arm: string, taskId: string, passed: boolean, turns: number, opened: boolean): TrajectoryRecord {
  return {
    schema: TRAJECTORY_SCHEMA, episodeId: `${arm}-${taskId}-${Math.random()}`, workflowId: 'w', taskId, split: 'test', policy: { spec: 'p', version: 0 },
    toolset: arm.includes('no-debugger') ? 'no-debugger' : 'full', evaluationId: 'e', arm, seed: 0, limits: {}, messages: [],
    turns: Array.from({ length: turns }, (_, i) => ({
      turn: i + 1,
      assistant: { message: { role: 'assistant' as const, content: null }, toolCall: null, invalidReason: null, promptTokens: 1, completionTokens: 1, tokenCounting: 'server-usage' as const, policyVersion: 0, latencyMs: 0 },
      tool: { tool: opened && i === 0 ? 'start_debugger' : 'bash', ok: true, output: '', stateChanging: false, debugger: opened && i === 0, meta: {}, latencyMs: 0, invalidReply: false },
    })),
    recoveries: [], outcome: { passed, tests: {}, exitReason: 'done', error: null, gradeNotes: [] },
    tokens: { prompt: turns, completion: turns, finalContext: 0 }, timings: { startedAt: '', finishedAt: '', durationMs: 0 },
  };
}

describe('report', () => {
  const arms = [
    { label: 'p [full]', policy: 'p', toolset: 'full' as const },
    { label: 'p [no-debugger]', policy: 'p', toolset: 'no-debugger' as const },
  ];
  const records = [rec('p [full]', 'a', true, 10, true), rec('p [full]', 'b', false, 20, false), rec('p [no-debugger]', 'a', true, 4, false), rec('p [no-debugger]', 'b', true, 6, false)];
  const report = buildReport({ evaluationId: 'e1', k: 1, arms, records, generatedAt: '2026-11-30T00:00:00Z' });

  it('pairs the arms with and without the debugger for the per-task scatter', () => {
    expect(report.toolsetComparisons).toEqual([
      {
        policy: 'p', withDebugger: 'p [full]', withoutDebugger: 'p [no-debugger]',
        perTask: [
          { taskId: 'a', turnsWith: 10, turnsWithout: 4, openedDebugger: true },
          { taskId: 'b', turnsWith: 20, turnsWithout: 6, openedDebugger: false },
        ],
      },
    ]);
    expect(report.arms.map((a) => a.summary.passAt1)).toEqual([0.5, 1]);
  });

  it('renders self-contained HTML and a Markdown table', () => {
    const html = renderHtml(report);
    expect((html.match(/<svg/g) ?? []).length).toBe(5); // scatter, solve rate, turns, cap share, pass@k
    expect(html).not.toMatch(/<script|<link|<img|src=|href=|url\(/); // nothing to fetch: the only URL is the SVG namespace
    expect(renderMarkdown(report)).toContain('| pass@1 | 50.0% | 100.0% |');
  });

  it('shortens long labels from the front, keeping the tool set', () => {
    expect(fitLabel('scripted:/tmp/very/long/path [no-debugger]', 20)).toBe('…/path [no-debugger]');
    expect(fitLabel('short', 20)).toBe('short');
  });
});
