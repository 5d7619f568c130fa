/**
 * Measured task difficulty (issue 13): each task's solve rate in stored evaluations, by policy, in
 * tasks/calibration.json. The declared `difficulty` in task.json is a guess made while writing the task; this file
 * holds what policies actually did, with the evaluation ids to check it against.
 *
 * A task can carry several measurements, one per (policy, tool set): the weak policies this machine runs (scripted,
 * embedded SmolLM2) today, a strong one from a GPU run later. Calibrating again from new evaluations replaces the
 * measurement of that policy and tool set only.
 *
 * The curriculum reads it through `loadCalibration()` and `solveRatePrior()`.
 */
import * as path from 'node:path';
import type { Pool } from 'pg';
import { z } from 'zod';
import { loadConfig } from '../common/config';
import { readJsonFile, writeJsonFile } from './json-file';

/** Default calibration path, relative to the tasks root. */
export const CALIBRATION_FILE = 'calibration.json';

/** Prior solve rate by declared difficulty, for tasks no policy has been measured on. The seed's base model solved
 * most easy tasks and few hard ones; these are deliberately round guesses, replaced by measurements when present. */
export const DECLARED_PRIOR = { easy: 0.7, medium: 0.4, hard: 0.15 } as const;

export const Measurement = z
  .object({
    policy: z.string().min(1),
    toolset: z.string().min(1),
    evaluation_ids: z.array(z.string().min(1)).min(1),
    episodes: z.number().int().min(1),
    passed: z.number().int().min(0),
    solve_rate: z.number().min(0).max(1),
    measured_at: z.string(),
  })
  .strict()
  .refine((m) => m.passed <= m.episodes, { message: 'passed exceeds episodes', path: ['passed'] });
export type Measurement = z.infer<typeof Measurement>;

export const Calibration = z
  .object({
    version: z.literal(1),
    /** By task id. */
    tasks: z.record(z.string(), z.object({ measurements: z.array(Measurement) }).strict()),
  })
  .strict();
export type Calibration = z.infer<typeof Calibration>;

/** One stored episode, as far as calibration cares. */
export interface EpisodeRow {
  task_id: string;
  policy_spec: string;
  toolset: string;
  evaluation_id: string;
  passed: boolean;
}

export function emptyCalibration(): Calibration {
  return { version: 1, tasks: {} };
}

/** In the tasks root the CLI uses (DEBUGRL_TASKS_DIR), so the curriculum and the CLI agree on where the file is. */
function defaultFile(): string {
  return path.join(loadConfig().DEBUGRL_TASKS_DIR, CALIBRATION_FILE);
}

/**
 * Read the calibration file (default `<DEBUGRL_TASKS_DIR>/calibration.json`). A missing file is an empty calibration:
 * a corpus nobody has measured yet still has its declared difficulties. A malformed file is an error naming it.
 */
export function loadCalibration(file = defaultFile()): Calibration {
  return readJsonFile(file, Calibration) ?? emptyCalibration();
}

export function writeCalibration(file: string, c: Calibration): void {
  const sorted: Calibration = {
    version: 1,
    tasks: Object.fromEntries(
      Object.entries(c.tasks)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, t]) => [id, { measurements: [...t.measurements].sort((a, b) => `${a.policy}\0${a.toolset}`.localeCompare(`${b.policy}\0${b.toolset}`)) }]),
    ),
  };
  writeJsonFile(file, sorted);
}

/** Measurements from episode rows: one per task × policy × tool set, counting every episode of the given
 * evaluations. */
export function measure(rows: EpisodeRow[], now = new Date()): Map<string, Measurement[]> {
  const groups = new Map<string, { task: string; policy: string; toolset: string; evals: Set<string>; episodes: number; passed: number }>();
  for (const r of rows) {
    const key = JSON.stringify([r.task_id, r.policy_spec, r.toolset]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { task: r.task_id, policy: r.policy_spec, toolset: r.toolset, evals: new Set(), episodes: 0, passed: 0 }));
    g.evals.add(r.evaluation_id);
    g.episodes += 1;
    if (r.passed) g.passed += 1;
  }
  const out = new Map<string, Measurement[]>();
  for (const g of groups.values()) {
    const m: Measurement = {
      policy: g.policy,
      toolset: g.toolset,
      evaluation_ids: [...g.evals].sort(),
      episodes: g.episodes,
      passed: g.passed,
      solve_rate: g.passed / g.episodes,
      measured_at: now.toISOString(),
    };
    out.set(g.task, [...(out.get(g.task) ?? []), m]);
  }
  return out;
}

/** `before` with the new measurements: each replaces the task's measurement of the same policy and tool set. */
export function mergeCalibration(before: Calibration, measured: Map<string, Measurement[]>): Calibration {
  const tasks = structuredClone(before.tasks);
  for (const [id, ms] of measured) {
    const kept = (tasks[id]?.measurements ?? []).filter((old) => !ms.some((m) => m.policy === old.policy && m.toolset === old.toolset));
    tasks[id] = { measurements: [...kept, ...ms] };
  }
  return { version: 1, tasks };
}

/** The finished episodes of the given evaluations. */
export async function episodeRows(pool: Pool, evaluationIds: string[]): Promise<EpisodeRow[]> {
  const r = await pool.query<EpisodeRow>(
    'select task_id, policy_spec, toolset, evaluation_id, passed from episodes where evaluation_id = any($1::text[]) order by episode_id',
    [evaluationIds],
  );
  return r.rows;
}

/** Pooled solve rate of one task: all measurements, or only `policy`'s; null when nothing was measured. */
export function measuredSolveRate(c: Calibration, taskId: string, policy?: string): { rate: number; episodes: number } | null {
  const ms = (c.tasks[taskId]?.measurements ?? []).filter((m) => policy === undefined || m.policy === policy);
  const episodes = ms.reduce((n, m) => n + m.episodes, 0);
  if (episodes === 0) return null;
  return { rate: ms.reduce((n, m) => n + m.passed, 0) / episodes, episodes };
}

/**
 * The curriculum's prior for a task's solve rate: a Beta-style blend of the declared-difficulty guess (worth
 * `priorWeight` pseudo-episodes) with the measured episodes, so one lucky episode does not make a hard task easy.
 */
export function solveRatePrior(
  c: Calibration,
  task: { id: string; difficulty: keyof typeof DECLARED_PRIOR },
  opts: { policy?: string; priorWeight?: number } = {},
): number {
  const w = opts.priorWeight ?? 4;
  const base = DECLARED_PRIOR[task.difficulty];
  const m = measuredSolveRate(c, task.id, opts.policy);
  if (!m) return base;
  return (base * w + m.rate * m.episodes) / (w + m.episodes);
}
