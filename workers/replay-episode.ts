/** Re-executes a stored episode's tool calls in a fresh sandbox and reports where the observations differ. This
 * catches harness regressions and tasks that are not deterministic. Volatile details (timings, addresses, sandbox
 * ids) are normalised before comparing. */
import type { Pool } from 'pg';
import { resolveTaskDir } from '../taskset/task-loader';
import { TrajectoryRecord } from '../common/trajectory';
import type { HarnessEnv } from '../harness/env';
import { HarnessSession } from '../harness/session';

export interface ObservationDiff {
  turn: number;
  tool: string;
  stored: string;
  replayed: string;
}

export interface EpisodeReplayReport {
  episodeId: string;
  taskId: string;
  compared: number;
  diffs: ObservationDiff[];
  grade: { stored: boolean; replayed: boolean };
}

const RECOVERY_NOTICE = /^\[harness\] The sandbox was lost and rebuilt[^\n]*\n/;

export function normalizeObservation(text: string): string {
  return text
    .replace(RECOVERY_NOTICE, '')
    .replace(/\b\d+(\.\d+)?\s?(s|ms|sec|seconds)\b/g, '<t>')
    .replace(/0x[0-9a-f]{6,}/gi, '0x…')
    .replace(/\b(sb|ep)-[0-9a-z-]+\b/g, '<id>')
    .replace(/\/tmp\/[\w./-]+/g, '/tmp/…')
    .replace(/\bpid \d+\b/g, 'pid <n>');
}

/** The first line where two texts differ, with a line of context, for the report. */
function firstDifference(a: string, b: string): { stored: string; replayed: string } {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return { stored: `line ${i + 1}: ${la[i] ?? '(missing)'}`, replayed: `line ${i + 1}: ${lb[i] ?? '(missing)'}` };
  }
  return { stored: '', replayed: '' };
}

export async function loadRecord(pool: Pool, episodeId: string): Promise<TrajectoryRecord> {
  const r = await pool.query('select record from episodes where episode_id = $1', [episodeId]);
  if (!r.rowCount) throw new Error(`no stored episode "${episodeId}" (ids look like <workflow id>:<run prefix>; see the episodes table)`);
  return TrajectoryRecord.parse(r.rows[0].record);
}

export async function replayEpisode(record: TrajectoryRecord, env: HarnessEnv, onStep?: (d: { turn: number; tool: string; same: boolean }) => void): Promise<EpisodeReplayReport> {
  const session = await HarnessSession.create({ env, taskDir: resolveTaskDir(record.taskId, env.tasksDir), toolset: record.toolset });
  const diffs: ObservationDiff[] = [];
  let compared = 0;
  try {
    for (const t of record.turns) {
      if (!t.tool || t.tool.invalidReply || !t.assistant.toolCall) continue;
      const result = await session.call({ name: t.assistant.toolCall.name, arguments: t.assistant.toolCall.arguments });
      compared++;
      const same = normalizeObservation(result.output) === normalizeObservation(t.tool.output) && result.ok === t.tool.ok;
      onStep?.({ turn: t.turn, tool: t.tool.tool, same });
      if (!same) diffs.push({ turn: t.turn, tool: t.tool.tool, ...firstDifference(normalizeObservation(t.tool.output), normalizeObservation(result.output)) });
    }
    const grade = await session.grade();
    return { episodeId: record.episodeId, taskId: record.taskId, compared, diffs, grade: { stored: record.outcome.passed, replayed: grade.passed } };
  } finally {
    await session.close();
  }
}
