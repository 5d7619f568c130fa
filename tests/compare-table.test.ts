/** The side-by-side table of three or more evaluations (workers/viewer/compare.ts comparisonTable), pure: columns
 * built from stored summaries as summarizeArm writes them, and per-task counts for the paired interval. */
import type { TaskCounts } from '../common/bootstrap';
import { bootstrapDifference } from '../common/bootstrap';
import { behaviour, comparisonTable, tableMarkdown, type TableColumn } from '../workers/viewer/compare';
import type { EvaluationRow } from '../workers/viewer/store';

function evaluation(id: string, summary: Record<string, unknown>): EvaluationRow {
  return { evaluationId: id, workflowId: id, input: {}, arms: [{ arm: { label: 'embedded', policy: 'embedded', toolset: 'full' }, summary }], reportDir: null, startedAt: '', finishedAt: null };
}

const counts = (solved: number[]): TaskCounts[] => solved.map((c, i) => ({ taskId: `task_${i}`, n: 2, c }));

function column(id: string, solved: number[], extra: Record<string, unknown>): TableColumn {
  const perTask = solved.map((c) => c / 2);
  const summary = {
    episodes: 2 * solved.length,
    tasks: solved.length,
    k: 2,
    passAt1: perTask.reduce((a, b) => a + b, 0) / solved.length,
    solvedAtLeastOnce: solved.filter((c) => c > 0).length,
    ...extra,
  };
  return { id, behaviour: behaviour(evaluation(id, summary)), counts: counts(solved) };
}

const base = column('base', [0, 0, 1, 0], { passAtK: 0.25, turns: { median: 8, shareAtCap: 1 }, debugger: { shareOpened: 0, targetedStarts: null }, failures: { guard_exit: 3, never_edited: 4, wrong_fix_turns_exhausted: 0 } });
const sft = column('sft', [1, 0, 2, 0], { passAtK: 0.5, turns: { median: 7, shareAtCap: 0.75 }, debugger: { shareOpened: 0.5, targetedStarts: 0.25 }, failures: { guard_exit: 0, never_edited: 3, wrong_fix_turns_exhausted: 2 } });
// An older evaluation stored fewer numbers: what it lacks prints as n/a, and nothing else breaks.
const rl = column('rl', [2, 1, 2, 0], { turns: { median: 5.5 }, debugger: 'not an object' });

const cell = (t: ReturnType<typeof comparisonTable>, metric: string) => t.rows.find((r) => r.metric === metric)?.cells;

describe('comparisonTable', () => {
  const t = comparisonTable([base, sft, rl]);

  it('has one column per evaluation, the first the reference', () => {
    expect(t.ids).toEqual(['base', 'sft', 'rl']);
    for (const r of t.rows) expect(r.cells).toHaveLength(3);
    expect(cell(t, 'episodes (tasks)')).toEqual(['8 (4)', '8 (4)', '8 (4)']);
  });

  it('reads pass@1, pass@k, tasks solved at least once, debugger use and median turns from the stored summaries', () => {
    expect(cell(t, 'pass@1')).toEqual(['13%', '38%', '63%']);
    expect(cell(t, 'pass@2')).toEqual(['25%', '50%', 'n/a']);
    expect(cell(t, 'solved at least once (tasks)')).toEqual(['1/4', '2/4', '3/4']);
    expect(cell(t, 'opened the debugger (episodes)')).toEqual(['0%', '50%', 'n/a']);
    expect(cell(t, 'targeted starts (start_debugger naming a failing test)')).toEqual(['n/a', '25%', 'n/a']);
    expect(cell(t, 'median turns')).toEqual(['8', '7', '5.5']);
    expect(cell(t, 'at the turn cap (episodes)')).toEqual(['100%', '75%', 'n/a']);
  });

  it('lists every failure kind, n/a where an evaluation did not store it', () => {
    expect(cell(t, 'failures: guard_exit')).toEqual(['3', '0', 'n/a']);
    expect(cell(t, 'failures: never_edited')).toEqual(['4', '3', 'n/a']);
    expect(cell(t, 'failures: wrong_fix_turns_exhausted')).toEqual(['0', '2', 'n/a']);
    expect(cell(t, 'failures: harness_error')).toEqual(['n/a', 'n/a', 'n/a']);
  });

  it("gives pass@1 against the first column with the two-evaluation comparison's paired bootstrap interval", () => {
    const row = cell(t, 'pass@1 against base')!;
    expect(row[0]).toBe('reference');
    // sft − base over 4 paired tasks: (0.5 + 0 + 1 + 0)/4 − (0 + 0 + 0.5 + 0)/4 = +25 pp
    const d = bootstrapDifference(base.counts, sft.counts, 1);
    expect(d.estimate).toBeCloseTo(0.25, 12);
    const pp = (v: number) => `${v >= 0 ? '+' : ''}${(100 * v).toFixed(1)}`;
    expect(row[1]).toBe(`${pp(d.estimate!)} pp (95% CI ${pp(d.low!)} to ${pp(d.high!)} pp, 4 tasks)`);
    expect(row[2]).toMatch(/^\+50\.0 pp \(95% CI [+-]\d+\.\d to \+\d+\.\d pp, 4 tasks\)$/);
  });

  it('says so when an evaluation shares no task with the reference, and labels pass@k per column when k differs', () => {
    const other: TableColumn = { ...column('elsewhere', [1], {}), counts: [{ taskId: 'unrelated', n: 2, c: 1 }] };
    const k4: TableColumn = { ...sft, id: 'k4', behaviour: { ...sft.behaviour, k: 4 } };
    const u = comparisonTable([base, other, k4]);
    expect(cell(u, 'pass@1 against base')![1]).toBe('no shared tasks');
    expect(cell(u, 'pass@k')).toEqual(['25% (k=2)', 'n/a (k=2)', '50% (k=4)']);
  });

  it('refuses fewer than two evaluations', () => {
    expect(() => comparisonTable([base])).toThrow(/at least two evaluations, got 1/);
  });

  it('renders as a Markdown table', () => {
    const md = tableMarkdown(t).split('\n');
    expect(md[0]).toBe('| metric | base | sft | rl |');
    expect(md[1]).toBe('| --- | --- | --- | --- |');
    expect(md).toContain('| pass@1 | 13% | 38% | 63% |');
    expect(md).toHaveLength(2 + t.rows.length);
  });
});
