/** Bootstrap confidence intervals for pass@k, so that a difference between two evaluations at n = 2 reads as the
 * noise it is. Pure and seeded: the same inputs always give the same interval.
 *
 * The resampling unit is the task (Efron's percentile bootstrap over tasks): pass@k is a mean over tasks, and tasks,
 * not episodes, are what differ most between runs. Each resampled task keeps its own n and c. */
import { passAtK } from './metrics';
import { mulberry32 as rng } from './rng';

export interface TaskCounts {
  taskId: string;
  /** episodes */
  n: number;
  /** passing episodes */
  c: number;
}

export interface Interval {
  estimate: number | null;
  low: number | null;
  high: number | null;
  /** confidence level, e.g. 0.95 */
  level: number;
  resamples: number;
}

const meanPassAtK = (tasks: TaskCounts[], k: number) => tasks.reduce((s, t) => s + passAtK(t.n, t.c, Math.min(k, t.n)), 0) / tasks.length;

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Percentile-bootstrap interval of mean pass@k over tasks. */
export function bootstrapPassAtK(tasks: TaskCounts[], k: number, opts: { resamples?: number; level?: number; seed?: number } = {}): Interval {
  const resamples = opts.resamples ?? 2000;
  const level = opts.level ?? 0.95;
  if (!tasks.length) return { estimate: null, low: null, high: null, level, resamples };
  const rand = rng(opts.seed ?? 20261201);
  const stats: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const sample = tasks.map(() => tasks[Math.floor(rand() * tasks.length)]!);
    stats.push(meanPassAtK(sample, k));
  }
  stats.sort((x, y) => x - y);
  const tail = (1 - level) / 2;
  return { estimate: meanPassAtK(tasks, k), low: quantile(stats, tail), high: quantile(stats, 1 - tail), level, resamples };
}

/** Interval of the difference b − a over the tasks both evaluated (paired by task). */
export function bootstrapDifference(a: TaskCounts[], b: TaskCounts[], k: number, opts: { resamples?: number; level?: number; seed?: number } = {}): Interval & { tasks: number } {
  const resamples = opts.resamples ?? 2000;
  const level = opts.level ?? 0.95;
  const bBy = new Map(b.map((t) => [t.taskId, t]));
  const pairs = a.filter((t) => bBy.has(t.taskId)).map((t) => [t, bBy.get(t.taskId)!] as const);
  if (!pairs.length) return { estimate: null, low: null, high: null, level, resamples, tasks: 0 };
  const diff = (ps: (typeof pairs)[number][]) => meanPassAtK(ps.map((p) => p[1]), k) - meanPassAtK(ps.map((p) => p[0]), k);
  const rand = rng(opts.seed ?? 20261201);
  const stats: number[] = [];
  for (let i = 0; i < resamples; i++) stats.push(diff(pairs.map(() => pairs[Math.floor(rand() * pairs.length)]!)));
  stats.sort((x, y) => x - y);
  const tail = (1 - level) / 2;
  return { estimate: diff(pairs), low: quantile(stats, tail), high: quantile(stats, 1 - tail), level, resamples, tasks: pairs.length };
}
