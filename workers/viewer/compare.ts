/** Two evaluations side by side: per-task solve rates and paired bootstrap intervals over the tasks both ran, plus the
 * behaviour numbers of each one's first arm. One computation behind the viewer's /compare page and
 * `npx debugrl compare` (which infra/main uses for its before/after line). */
import type { Pool } from 'pg';
import { z } from 'zod';
import { bootstrapDifference, type Interval, type TaskCounts } from '../../common/bootstrap';
import { FAILURE_KINDS, type FailureKind } from '../../common/metrics';
import * as store from './store';

type Counts = { n: number; c: number; medianTurns: number };

export interface Comparison {
  a: store.EvaluationRow;
  b: store.EvaluationRow;
  rows: { taskId: string; a?: Counts; b?: Counts }[];
  /** b minus a, paired over the tasks both evaluated. */
  diff: { p1: Interval; pk: Interval; k: number; tasks: number };
}

export async function compareEvaluations(pool: Pool, a: string, b: string): Promise<Comparison> {
  const [ea, eb] = await Promise.all([store.getEvaluation(pool, a), store.getEvaluation(pool, b)]);
  const k = Math.min(Number(ea.input.k ?? 1), Number(eb.input.k ?? 1));
  const [ca, cb] = await Promise.all([store.taskCounts(pool, a), store.taskCounts(pool, b)]);
  const ids = [...new Set([...ca, ...cb].map((t) => t.taskId))].sort();
  const rows = ids.map((taskId) => ({ taskId, a: ca.find((t) => t.taskId === taskId), b: cb.find((t) => t.taskId === taskId) }));
  const p1 = bootstrapDifference(ca, cb, 1);
  return { a: ea, b: eb, rows, diff: { p1, pk: bootstrapDifference(ca, cb, k), k, tasks: p1.tasks } };
}

/** The part of an evaluation's stored summary (common/metrics.ts summarizeArm, its first arm) that comparisons read.
 * Every field may be absent or null: older evaluations stored fewer numbers, and an absent one prints as n/a. */
const num = z.number().refine(Number.isFinite).nullish().catch(null);
const StoredSummary = z
  .object({
    episodes: num,
    tasks: num,
    k: num,
    passAt1: num,
    passAtK: num,
    solvedAtLeastOnce: num,
    turns: z.object({ median: num, shareAtCap: num }).partial().catch({}),
    debugger: z.object({ shareOpened: num, targetedStarts: num }).partial().catch({}),
    failures: z.record(z.string(), num).catch({}),
  })
  .partial();

export interface Behaviour {
  episodes: number | null;
  tasks: number | null;
  k: number | null;
  passAt1: number | null;
  passAtK: number | null;
  solvedAtLeastOnce: number | null;
  shareOpened: number | null;
  targetedStarts: number | null;
  medianTurns: number | null;
  shareAtCap: number | null;
  guardExits: number | null;
  failures: Record<FailureKind, number | null>;
}

/** The numbers the comparisons show, read from an evaluation's stored summary (its first arm); computed once, by
 * summarizeArm, when the evaluation finished. */
export function behaviour(e: store.EvaluationRow): Behaviour {
  const p = StoredSummary.safeParse(e.arms?.[0]?.summary ?? {});
  const s = p.success ? p.data : {};
  const v = (x: number | null | undefined) => x ?? null;
  const failures = Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, v(s.failures?.[kind])])) as Record<FailureKind, number | null>;
  return {
    episodes: v(s.episodes),
    tasks: v(s.tasks),
    k: v(s.k),
    passAt1: v(s.passAt1),
    passAtK: v(s.passAtK),
    solvedAtLeastOnce: v(s.solvedAtLeastOnce),
    shareOpened: v(s.debugger?.shareOpened),
    targetedStarts: v(s.debugger?.targetedStarts),
    medianTurns: v(s.turns?.median),
    shareAtCap: v(s.turns?.shareAtCap),
    guardExits: failures.guard_exit,
    failures,
  };
}

const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(0)}%`);
const pp = (v: number | null) => (v === null ? 'n/a' : `${v >= 0 ? '+' : ''}${(100 * v).toFixed(1)} pp`);
const dec = (v: number | null) => (v === null ? 'n/a' : String(Math.round(v * 10) / 10));

/** `pass@1 0% -> 33% (+33.3 pp, 95% CI +0.0 to +66.7 pp, 3 tasks) · debugger opened 0% -> 17% · median turns 8 -> 6 · …` */
export function comparisonLine(c: Comparison): string {
  const [x, y] = [behaviour(c.a), behaviour(c.b)];
  const d = c.diff.p1;
  const ci = d.low === null || d.high === null ? 'no CI' : `95% CI ${pp(d.low).replace(' pp', '')} to ${pp(d.high)}`;
  return [
    `pass@1 ${pct(x.passAt1)} -> ${pct(y.passAt1)} (${pp(d.estimate)}, ${ci}, ${c.diff.tasks} tasks)`,
    `debugger opened ${pct(x.shareOpened)} -> ${pct(y.shareOpened)}`,
    `median turns ${dec(x.medianTurns)} -> ${dec(y.medianTurns)}`,
    `at the turn cap ${pct(x.shareAtCap)} -> ${pct(y.shareAtCap)}`,
    `guard exits ${dec(x.guardExits)} -> ${dec(y.guardExits)}`,
  ].join(' · ');
}

/** One evaluation of a side-by-side table: its id, its stored numbers and its per-task counts (for the paired
 * interval). */
export interface TableColumn {
  id: string;
  behaviour: Behaviour;
  counts: TaskCounts[];
}

export interface ComparisonTable {
  /** Evaluation ids; the first is the reference the intervals are taken against. */
  ids: string[];
  /** A metric per row: its label, then one cell per evaluation. */
  rows: { metric: string; cells: string[] }[];
}

const ci = (d: Interval & { tasks: number }) =>
  d.estimate === null ? 'no shared tasks' : `${pp(d.estimate)} (95% CI ${d.low === null ? 'n/a' : pp(d.low).replace(' pp', '')} to ${d.high === null ? 'n/a' : pp(d.high)}, ${d.tasks} tasks)`;

/**
 * The seed's Figure 4 as a table, one column per evaluation (the first is the reference): pass@1, pass@k, tasks solved
 * at least once, debugger use, median turns and the failure taxonomy, each as stored by summarizeArm, plus pass@1's
 * paired bootstrap 95% interval against the first column (bootstrapDifference over the tasks both evaluated, the
 * same interval as the two-evaluation line). Pure: the CLI and the viewer render what it returns.
 */
export function comparisonTable(cols: TableColumn[]): ComparisonTable {
  if (cols.length < 2) throw new RangeError(`a comparison table needs at least two evaluations, got ${cols.length}`);
  const [ref] = cols as [TableColumn, ...TableColumn[]];
  const ks = [...new Set(cols.map((c) => c.behaviour.k))];
  const row = (metric: string, cell: (c: TableColumn, i: number) => string) => ({ metric, cells: cols.map(cell) });
  return {
    ids: cols.map((c) => c.id),
    rows: [
      row('episodes (tasks)', (c) => `${dec(c.behaviour.episodes)} (${dec(c.behaviour.tasks)})`),
      row('pass@1', (c) => pct(c.behaviour.passAt1)),
      row(`pass@1 against ${ref.id}`, (c, i) => (i === 0 ? 'reference' : ci(bootstrapDifference(ref.counts, c.counts, 1)))),
      row(ks.length === 1 ? `pass@${dec(ks[0] ?? null)}` : 'pass@k', (c) => (ks.length === 1 ? pct(c.behaviour.passAtK) : `${pct(c.behaviour.passAtK)} (k=${dec(c.behaviour.k)})`)),
      row('solved at least once (tasks)', (c) => `${dec(c.behaviour.solvedAtLeastOnce)}/${dec(c.behaviour.tasks)}`),
      row('opened the debugger (episodes)', (c) => pct(c.behaviour.shareOpened)),
      row('targeted starts (start_debugger naming a failing test)', (c) => pct(c.behaviour.targetedStarts)),
      row('median turns', (c) => dec(c.behaviour.medianTurns)),
      row('at the turn cap (episodes)', (c) => pct(c.behaviour.shareAtCap)),
      ...FAILURE_KINDS.map((kind) => row(`failures: ${kind}`, (c) => dec(c.behaviour.failures[kind]))),
    ],
  };
}

/** The table as Markdown (what `npx debugrl compare a b c` prints and the README quotes). */
export function tableMarkdown(t: ComparisonTable): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(['metric', ...t.ids]), line(['---', ...t.ids.map(() => '---')]), ...t.rows.map((r) => line([r.metric, ...r.cells]))].join('\n');
}

/** Two or more stored evaluations, read for comparisonTable (NotFound names a missing id). */
export async function compareMany(pool: Pool, ids: string[]): Promise<ComparisonTable> {
  const cols = await Promise.all(
    ids.map(async (id) => {
      const [e, counts] = await Promise.all([store.getEvaluation(pool, id), store.taskCounts(pool, id)]);
      return { id, behaviour: behaviour(e), counts };
    }),
  );
  return comparisonTable(cols);
}
