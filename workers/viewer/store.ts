/** What the rollout viewer reads: PostgreSQL, read-only (every query runs in a READ ONLY transaction), and the report
 * files. A finished episode is its trajectory record; a live one is rebuilt from its event log, so the page can follow
 * it turn by turn. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Pool } from 'pg';
import type { EpisodeLine } from '../../activities/report/report';
import type { AssistantEvent, GradeEvent, StartEvent, ToolEvent, TrajectoryRecord } from '../../common/trajectory';

export class NotFound extends Error {
  constructor(readonly what: string, readonly id: string) {
    super(`no ${what} with id "${id}"`);
  }
}

/** PostgreSQL cannot be reached: refused, reset, timed out, or shutting down. The viewer shows a 503 page. */
export class DatabaseUnavailable extends Error {}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '08006', '08001', '08003']);

/** Re-raise a lost connection as DatabaseUnavailable. Not by `instanceof Error`: errors raised inside Node's own
 * modules can come from another realm (jest's vm contexts), and hono's error handler only sees this realm's Errors. */
function classify(e: unknown): unknown {
  const code = (e as { code?: unknown })?.code;
  const msg = String((e as { message?: unknown })?.message ?? e);
  if ((typeof code === 'string' && CONNECTION_ERRORS.has(code)) || /connect|Connection terminated|the database system is/i.test(msg)) return new DatabaseUnavailable(msg);
  return e instanceof Error ? e : new Error(msg);
}

async function readOnly<T>(pool: Pool, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = await pool.connect().catch((e: unknown) => {
    throw classify(e);
  });
  try {
    await client.query('begin read only');
    const r = await client.query(sql, params);
    await client.query('commit');
    return r.rows as T[];
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw classify(e);
  } finally {
    client.release();
  }
}

export interface EvaluationRow {
  evaluationId: string;
  workflowId: string;
  input: Record<string, unknown>;
  arms: { arm: { label: string; policy: string; toolset: string }; summary: Record<string, unknown> }[] | null;
  reportDir: string | null;
  startedAt: string;
  finishedAt: string | null;
}

const evalCols = `evaluation_id as "evaluationId", workflow_id as "workflowId", coalesce(input->'input', input) as input, summary as arms, report_dir as "reportDir",
  started_at as "startedAt", finished_at as "finishedAt"`;

export async function listEvaluations(pool: Pool, limit = 200): Promise<EvaluationRow[]> {
  return readOnly<EvaluationRow>(pool, `select ${evalCols} from evaluations order by started_at desc limit $1`, [limit]);
}

export async function getEvaluation(pool: Pool, id: string): Promise<EvaluationRow> {
  const [row] = await readOnly<EvaluationRow>(pool, `select ${evalCols} from evaluations where evaluation_id = $1`, [id]);
  if (!row) throw new NotFound('evaluation', id);
  return row;
}

/** The report.json written beside the HTML report, when it exists. */
export function readReportJson(reportDir: string | null): Record<string, unknown> | null {
  if (!reportDir) return null;
  const file = path.join(reportDir, 'report.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : null;
}

/** The report's per-episode line, plus where the episode sits. */
export interface EpisodeRow extends EpisodeLine {
  workflowId: string;
  split: string;
  evaluationId: string | null;
  policySpec: string;
  policyVersion: number;
  finishedAt: string;
}

const episodeCols = `episode_id as "episodeId", workflow_id as "workflowId", task_id as "taskId", split, arm, evaluation_id as "evaluationId",
  policy_spec as "policySpec", policy_version as "policyVersion", (record->>'seed')::int as seed, passed, exit_reason as "exitReason", turns,
  prompt_tokens + completion_tokens as tokens, record->'outcome'->>'error' as error, finished_at as "finishedAt"`;

export async function episodesOfEvaluation(pool: Pool, evaluationId: string): Promise<EpisodeRow[]> {
  return readOnly<EpisodeRow>(pool, `select ${episodeCols} from episodes where evaluation_id = $1 order by task_id, arm, seed, episode_id`, [evaluationId]);
}

export async function episodesOfTask(pool: Pool, taskId: string): Promise<EpisodeRow[]> {
  return readOnly<EpisodeRow>(pool, `select ${episodeCols} from episodes where task_id = $1 order by finished_at desc limit 500`, [taskId]);
}

/** Episodes that have started (an event log) but have no finished record yet. */
export async function liveEpisodes(pool: Pool, evaluationId: string): Promise<{ episodeId: string; taskId: string; turns: number }[]> {
  return readOnly(
    pool,
    `select s.episode_id as "episodeId", s.payload->>'taskId' as "taskId",
       (select count(*)::int from episode_events a where a.episode_id = s.episode_id and a.kind = 'assistant') as turns
     from episode_events s
     where s.kind = 'start' and s.payload->>'evaluationId' = $1
       and not exists (select 1 from episodes e where e.episode_id = s.episode_id)
     order by s.episode_id`,
    [evaluationId],
  );
}

export interface EpisodeView {
  episodeId: string;
  /** true while the episode has no finished record: the page refreshes itself */
  live: boolean;
  workflowId: string | null;
  start: Pick<StartEvent, 'taskId' | 'split' | 'policy' | 'toolset' | 'limits' | 'seed' | 'evaluationId' | 'arm' | 'startedAt'>;
  turns: { turn: number; assistant: AssistantEvent; tool: ToolEvent | null }[];
  recoveries: TrajectoryRecord['recoveries'];
  outcome: TrajectoryRecord['outcome'] | null;
  grade: GradeEvent | null;
}

export async function getEpisode(pool: Pool, episodeId: string): Promise<EpisodeView> {
  const [row] = await readOnly<{ record: TrajectoryRecord }>(pool, 'select record from episodes where episode_id = $1', [episodeId]);
  if (row) {
    const r = row.record;
    return {
      episodeId,
      live: false,
      workflowId: r.workflowId,
      start: { taskId: r.taskId, split: r.split, policy: r.policy.spec, toolset: r.toolset, limits: r.limits, seed: r.seed, evaluationId: r.evaluationId, arm: r.arm, startedAt: r.timings.startedAt },
      turns: r.turns,
      recoveries: r.recoveries,
      outcome: r.outcome,
      grade: { passed: r.outcome.passed, tests: r.outcome.tests, notes: r.outcome.gradeNotes, durationMs: 0 },
    };
  }
  const events = await readOnly<{ turn: number; kind: string; payload: unknown }>(pool, 'select turn, kind, payload from episode_events where episode_id = $1 order by turn, kind', [episodeId]);
  const start = events.find((e) => e.kind === 'start')?.payload as StartEvent | undefined;
  if (!start) throw new NotFound('episode', episodeId);
  const tools = new Map(events.filter((e) => e.kind === 'tool').map((e) => [e.turn, e.payload as ToolEvent]));
  return {
    episodeId,
    live: true,
    workflowId: null,
    start,
    turns: events.filter((e) => e.kind === 'assistant').map((e) => ({ turn: e.turn, assistant: e.payload as AssistantEvent, tool: tools.get(e.turn) ?? null })),
    recoveries: events.filter((e) => e.kind.startsWith('recovery-')).map((e) => e.payload as TrajectoryRecord['recoveries'][number]),
    outcome: null,
    grade: (events.find((e) => e.kind === 'grade')?.payload as GradeEvent | undefined) ?? null,
  };
}

/** Per-task (n, c) for one arm of an evaluation: the input of the bootstrap intervals. */
export async function taskCounts(pool: Pool, evaluationId: string, arm?: string): Promise<{ taskId: string; n: number; c: number; medianTurns: number }[]> {
  return readOnly(
    pool,
    `select task_id as "taskId", count(*)::int as n, count(*) filter (where passed)::int as c,
       percentile_cont(0.5) within group (order by turns)::float as "medianTurns"
     from episodes where evaluation_id = $1 and ($2::text is null or arm = $2) group by task_id order by task_id`,
    [evaluationId, arm ?? null],
  );
}

export interface TrainingRunRow {
  runId: string;
  workflowId: string;
  createdAt: string;
  steps: number;
}

/** Training runs, when the training tables exist (an older schema has none: an empty list, not an error). */
export async function listTrainingRuns(pool: Pool): Promise<TrainingRunRow[]> {
  const [t] = await readOnly<{ exists: boolean }>(pool, `select to_regclass('training_runs') is not null as exists`);
  if (!t?.exists) return [];
  return readOnly<TrainingRunRow>(
    pool,
    `select r.run_id as "runId", r.workflow_id as "workflowId", r.created_at as "createdAt",
       (select count(*)::int from training_steps s where s.run_id = r.run_id) as steps
     from training_runs r order by r.created_at desc limit 100`,
  );
}

export async function getTrainingRun(pool: Pool, runId: string) {
  const [run] = await readOnly<{ runId: string; workflowId: string; input: unknown; createdAt: string }>(
    pool,
    `select run_id as "runId", workflow_id as "workflowId", input, created_at as "createdAt" from training_runs where run_id = $1`,
    [runId],
  );
  if (!run) throw new NotFound('training run', runId);
  const points = await readOnly<{ step: number; point: Record<string, unknown> }>(pool, 'select step, point from training_points where run_id = $1 order by step', [runId]);
  const groups = await readOnly<{ groupId: string; taskId: string; step: string | null; episodes: { episodeId: string; reward: number; passed: boolean }[]; rejectedReason: string | null }>(
    pool,
    `select group_id as "groupId", task_id as "taskId", consumed_step as step, episodes, rejected_reason as "rejectedReason"
     from training_groups where run_id = $1 order by sealed_at`,
    [runId],
  );
  // The learner's length weight needs each trajectory's generated tokens: they live on the episode's row.
  const tokens = await readOnly<{ episodeId: string; completionTokens: number }>(
    pool,
    `select episode_id as "episodeId", completion_tokens as "completionTokens" from episodes
     where episode_id in (select jsonb_array_elements(g.episodes)->>'episodeId' from training_groups g where g.run_id = $1)`,
    [runId],
  );
  const tokensOf = new Map(tokens.map((t) => [t.episodeId, t.completionTokens]));
  return { run, points, groups: groups.map((g) => ({ ...g, episodes: g.episodes.map((e) => ({ ...e, completionTokens: tokensOf.get(e.episodeId) ?? null })) })) };
}
