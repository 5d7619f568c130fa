/** Two evaluations side by side: per-task solve rates and paired bootstrap intervals over the tasks both ran, plus the
 * behaviour numbers of each one's first arm. One computation behind the viewer's /compare page and
 * `npx debugrl compare` (which infra/main uses for its before/after line). */
import type { Pool } from 'pg';
import { bootstrapDifference, type Interval } from '../../common/bootstrap';
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

/** The numbers the one-line comparison shows, read from an evaluation's stored summary (its first arm). */
export function behaviour(e: store.EvaluationRow): { passAt1: number | null; shareOpened: number | null; medianTurns: number | null; shareAtCap: number | null; guardExits: number | null; episodes: number | null } {
  const s = (e.arms?.[0]?.summary ?? {}) as { passAt1?: unknown; episodes?: unknown; turns?: { median?: unknown; shareAtCap?: unknown }; debugger?: { shareOpened?: unknown }; failures?: { guard_exit?: unknown } };
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return { passAt1: num(s.passAt1), shareOpened: num(s.debugger?.shareOpened), medianTurns: num(s.turns?.median), shareAtCap: num(s.turns?.shareAtCap), guardExits: num(s.failures?.guard_exit), episodes: num(s.episodes) };
}

const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(0)}%`);
const pp = (v: number | null) => (v === null ? 'n/a' : `${v >= 0 ? '+' : ''}${(100 * v).toFixed(1)} pp`);
const num = (v: number | null) => (v === null ? 'n/a' : String(Math.round(v * 10) / 10));

/** `pass@1 0% -> 33% (+33.3 pp, 95% CI +0.0 to +66.7 pp, 3 tasks) · debugger opened 0% -> 17% · median turns 8 -> 6 · …` */
export function comparisonLine(c: Comparison): string {
  const [x, y] = [behaviour(c.a), behaviour(c.b)];
  const d = c.diff.p1;
  const ci = d.low === null || d.high === null ? 'no CI' : `95% CI ${pp(d.low).replace(' pp', '')} to ${pp(d.high)}`;
  return [
    `pass@1 ${pct(x.passAt1)} -> ${pct(y.passAt1)} (${pp(d.estimate)}, ${ci}, ${c.diff.tasks} tasks)`,
    `debugger opened ${pct(x.shareOpened)} -> ${pct(y.shareOpened)}`,
    `median turns ${num(x.medianTurns)} -> ${num(y.medianTurns)}`,
    `at the turn cap ${pct(x.shareAtCap)} -> ${pct(y.shareAtCap)}`,
    `guard exits ${num(x.guardExits)} -> ${num(y.guardExits)}`,
  ].join(' · ');
}
