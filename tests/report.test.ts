/** The report renderer: pure functions over fixed records. */
import { buildReport, renderHtml, renderMarkdown } from '../activities/report/report';
import { fitLabel, niceRange, niceTicks, scatter } from '../activities/report/svg';
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
    expect((html.match(/<svg/g) ?? []).length).toBe(6); // scatter, solve rate (pass@1, pass@k), turns, cap share, debugger use, failures
    const titles = [...html.matchAll(/<svg[^>]*aria-label="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(titles).size).toBe(titles.length); // no chart twice
    expect(titles).toEqual(expect.arrayContaining(['Debugger use', 'Failures by kind (episodes)']));
    expect(html).not.toMatch(/<script|<link|<img|src=|href=|url\(/); // nothing to fetch: the only URL is the SVG namespace
    expect(renderMarkdown(report)).toContain('| pass@1 | 50.0% | 100.0% |');
  });

  it('shortens long labels from the front, keeping the tool set', () => {
    expect(fitLabel('scripted:/tmp/very/long/path [no-debugger]', 20)).toBe('…/path [no-debugger]');
    expect(fitLabel('short', 20)).toBe('short');
  });

  it('heads the report with the run configuration and lists every episode', () => {
    const withConfig = buildReport({
      evaluationId: 'e2', k: 1, arms, records, generatedAt: '2026-12-01T00:00:00Z',
      config: { policy: 'p', split: 'test', episodesPerTask: 1, toolset: 'both', limits: { maxTurns: 50, maxContextTokens: 30000, maxNewTokens: 1024 } },
    });
    const html = renderHtml(withConfig);
    expect(html).toContain('<td>turn cap</td><td>50</td>');
    expect(html).toContain('<td>max new tokens per reply</td><td>1024</td>');
    expect(renderMarkdown(withConfig)).toContain('| context tokens | 30000 |');
    expect(withConfig.episodes).toHaveLength(records.length);
    for (const r of records) expect(html).toContain(`<code>${r.episodeId}</code>`);
    expect(report.config).toBeNull(); // built without one: no header is invented
  });

  it('explains debugger calls without an open session', () => {
    const noSession = rec('p [full]', 'a', false, 2, false);
    noSession.turns[0]!.tool = { ...noSession.turns[0]!.tool!, tool: 'step_over', ok: false, debugger: true, meta: { debuggerError: true } };
    const r = buildReport({ evaluationId: 'e3', k: 1, arms: [arms[0]!], records: [noSession] });
    const s = r.arms[0]!.summary.debugger;
    expect(s.shareOpened).toBe(0);
    expect(s.callsPerEpisode).toBeGreaterThan(0);
    expect(renderMarkdown(r)).toMatch(/Debugger tools can be called without a running session; each such call is a command error/);
    expect(renderMarkdown(report)).not.toContain('## Notes');
  });

  it('puts axis ticks at round values', () => {
    expect(niceRange(0, 9.2)).toEqual([0, 10]);
    expect(niceTicks(0, 10)).toEqual([0, 5, 10]); // step 5 for a span of 10 (10/4 = 2.5 → 5)
    expect(niceTicks(0, 1)).toEqual([0, 0.5, 1]);
    expect(niceRange(0.13, 0.87)).toEqual([0, 1]);
    const html = renderHtml(report);
    expect(html).not.toMatch(/>4\.6</); // the old 0 / 4.6 / 9.2 ticks
  });

  it('draws overlapping scatter points once, with their count', () => {
    const svg = scatter({ title: 't', xLabel: 'x', yLabel: 'y', highlightLabel: 'h', points: [
      { x: 3, y: 3, label: 'a', highlight: false }, { x: 3, y: 3, label: 'b', highlight: false }, { x: 3, y: 3, label: 'c', highlight: false }, { x: 5, y: 1, label: 'd', highlight: false },
    ] });
    expect((svg.match(/<circle/g) ?? []).length).toBe(2 + 2); // two stacks + two legend dots
    expect(svg).toContain('<title>a, b, c: 3 → 3</title>');
    expect(svg).toMatch(/font-weight="bold">3<\/text>/);
  });
});
