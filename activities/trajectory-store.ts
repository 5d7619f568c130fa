/**
 * The episode event log in PostgreSQL and the trajectory record's exactly-once publication to Kafka.
 *
 * Events are keyed (episode_id, turn, kind), so an activity that is retried after it wrote its event finds the
 * event there and returns it instead of acting twice. The finished record is stored in `episodes` and published to
 * the `rollouts` topic once: the publish first notes the partition's end offset in the row, so a retry after a send
 * whose acknowledgement was lost scans from there for the record's `episode-id` header instead of sending again.
 */
import type { Kafka, Producer } from 'kafkajs';
import type { Pool, PoolClient } from 'pg';
import { scanPartition, topicOffsets } from './kafka';
import { ChatMessage, TRAJECTORY_SCHEMA, TrajectoryRecord, type AssistantEvent, type GradeEvent, type StartEvent, type ToolEvent } from '../common/trajectory';
import type { ExitReason } from '../common/episode';

export const ROLLOUTS_TOPIC = 'rollouts';

export interface EventRow {
  turn: number;
  kind: string;
  payload: unknown;
}

/** Insert an event unless one with the same key exists; either way return the stored payload. */
export async function appendEvent(pool: Pool, episodeId: string, turn: number, kind: string, payload: unknown): Promise<{ payload: unknown; inserted: boolean }> {
  const ins = await pool.query(
    `insert into episode_events (episode_id, turn, kind, payload) values ($1, $2, $3, $4)
     on conflict (episode_id, turn, kind) do nothing returning payload`,
    [episodeId, turn, kind, JSON.stringify(payload)],
  );
  if (ins.rowCount) return { payload: ins.rows[0].payload, inserted: true };
  const got = await pool.query('select payload from episode_events where episode_id = $1 and turn = $2 and kind = $3', [episodeId, turn, kind]);
  return { payload: got.rows[0].payload, inserted: false };
}

export async function findEvent(pool: Pool, episodeId: string, turn: number, kind: string): Promise<unknown | null> {
  const got = await pool.query('select payload from episode_events where episode_id = $1 and turn = $2 and kind = $3', [episodeId, turn, kind]);
  return got.rowCount ? got.rows[0].payload : null;
}

export async function loadEvents(pool: Pool, episodeId: string): Promise<EventRow[]> {
  const r = await pool.query('select turn, kind, payload from episode_events where episode_id = $1 order by turn, kind', [episodeId]);
  return r.rows as EventRow[];
}

/** Stored trajectory records of the given episodes (`episodes.record`, the claim check behind every group record and
 * corpus), by episode id; an episode with no stored record is absent. */
export async function loadRecords(pool: Pool, episodeIds: string[]): Promise<Map<string, unknown>> {
  const r = await pool.query('select episode_id, record from episodes where episode_id = any($1)', [episodeIds]);
  return new Map(r.rows.map((row) => [row.episode_id as string, row.record]));
}

const byKind = (events: EventRow[], kind: string) => events.filter((e) => e.kind === kind);

export function startEventOf(events: EventRow[]): StartEvent {
  const start = events.find((e) => e.turn === 0 && e.kind === 'start');
  if (!start) throw new Error('episode has no start event');
  return start.payload as StartEvent;
}

/** The conversation the policy sees: the opening messages, then per turn the reply and its observation. An invalid
 * reply is answered by a user message holding the error, since there is no tool call id to answer. */
export function buildConversation(events: EventRow[]): ChatMessage[] {
  const messages: ChatMessage[] = [...startEventOf(events).messages];
  const tools = new Map(byKind(events, 'tool').map((e) => [e.turn, e.payload as ToolEvent]));
  for (const a of byKind(events, 'assistant')) {
    const reply = a.payload as AssistantEvent;
    messages.push(reply.message);
    const obs = tools.get(a.turn);
    if (!obs) continue;
    const callId = reply.message.role === 'assistant' ? reply.message.tool_calls?.[0]?.id : undefined;
    if (obs.invalidReply || !callId) messages.push({ role: 'user', content: obs.output });
    else messages.push({ role: 'tool', tool_call_id: callId, content: obs.output });
  }
  return messages;
}

export interface FinishInfo {
  episodeId: string;
  workflowId: string;
  exitReason: ExitReason;
  error: string | null;
  finishedAt: string;
}

export function buildRecord(events: EventRow[], finish: FinishInfo): TrajectoryRecord {
  const start = startEventOf(events);
  const assistants = byKind(events, 'assistant');
  const tools = new Map(byKind(events, 'tool').map((e) => [e.turn, e.payload as ToolEvent]));
  const grade = events.find((e) => e.kind === 'grade')?.payload as GradeEvent | undefined;
  const turns = assistants.map((a) => ({ turn: a.turn, assistant: a.payload as AssistantEvent, tool: tools.get(a.turn) ?? null }));
  const last = turns.at(-1)?.assistant;
  const record: TrajectoryRecord = {
    schema: TRAJECTORY_SCHEMA,
    episodeId: finish.episodeId,
    workflowId: finish.workflowId,
    taskId: start.taskId,
    split: start.split,
    policy: { spec: start.policy, version: last?.policyVersion ?? 0 },
    toolset: start.toolset,
    evaluationId: start.evaluationId,
    arm: start.arm ?? null,
    seed: start.seed,
    limits: start.limits,
    messages: buildConversation(events),
    turns,
    recoveries: events.filter((e) => e.kind.startsWith('recovery-')).map((e) => e.payload as TrajectoryRecord['recoveries'][number]),
    outcome: {
      passed: grade?.passed ?? false,
      tests: grade?.tests ?? {},
      exitReason: finish.exitReason,
      error: finish.error,
      gradeNotes: grade?.notes ?? (finish.error ? [] : ['no grade was recorded']),
    },
    tokens: {
      prompt: turns.reduce((s, t) => s + t.assistant.promptTokens, 0),
      completion: turns.reduce((s, t) => s + t.assistant.completionTokens, 0),
      finalContext: last ? last.promptTokens + last.completionTokens : 0,
    },
    timings: {
      startedAt: start.startedAt,
      finishedAt: finish.finishedAt,
      durationMs: Date.parse(finish.finishedAt) - Date.parse(start.startedAt),
    },
  };
  return TrajectoryRecord.parse(record);
}

/** A stable partition for a task id, so a task's episodes stay in order on one partition. (FNV-1a.) */
export function partitionFor(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % partitions;
}

/** The offset of this episode's record on the partition at or after `from`, if a send already put it there. */
async function findPublished(kafka: Kafka, partition: number, from: string, episodeId: string): Promise<string | null> {
  let found: string | null = null;
  await scanPartition(kafka, { topic: ROLLOUTS_TOPIC, partition, from }, (message) => {
    if (message.headers?.['episode-id']?.toString() !== episodeId) return false;
    found = message.offset;
    return true;
  });
  return found;
}

export interface StoreDeps {
  pool: Pool;
  kafka: Kafka;
  producer: () => Promise<Producer>;
}

/** Store the record once and publish it once; returns where it is in Kafka. Safe to call again after any crash. */
export async function storeAndPublish(deps: StoreDeps, record: TrajectoryRecord): Promise<{ topic: string; partition: number; offset: string }> {
  const client: PoolClient = await deps.pool.connect();
  // A session-level advisory lock serialises two attempts of the same publish (a timed-out attempt may still run).
  await client.query('select pg_advisory_lock(hashtext($1))', [record.episodeId]);
  try {
    await client.query(
      `insert into episodes (episode_id, workflow_id, task_id, split, policy_spec, policy_version, toolset, evaluation_id, arm,
         passed, exit_reason, turns, prompt_tokens, completion_tokens, recoveries, tests, record, started_at, finished_at)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$19,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18)
       on conflict (episode_id) do nothing`,
      [
        record.episodeId, record.workflowId, record.taskId, record.split, record.policy.spec, record.policy.version, record.toolset,
        record.evaluationId, record.outcome.passed, record.outcome.exitReason, record.turns.length, record.tokens.prompt,
        record.tokens.completion, record.recoveries.length, JSON.stringify(record.outcome.tests), JSON.stringify(record),
        record.timings.startedAt, record.timings.finishedAt, record.arm,
      ],
    );
    const row = (await client.query('select publish_partition, publish_from, kafka_offset, record from episodes where episode_id = $1', [record.episodeId])).rows[0];
    if (row.kafka_offset !== null) return { topic: ROLLOUTS_TOPIC, partition: row.publish_partition, offset: String(row.kafka_offset) };
    const stored = row.record as TrajectoryRecord; // publish what was stored first, even if this attempt rebuilt it
    let partition: number = row.publish_partition;
    if (row.publish_from === null) {
      const offsets = await topicOffsets(deps.kafka, ROLLOUTS_TOPIC);
      partition = partitionFor(stored.taskId, offsets.length);
      const from = offsets.find((o) => o.partition === partition)?.high ?? '0';
      // Saved before the send, so that a crash after the send leaves the scan start behind for the retry.
      await client.query('update episodes set publish_partition = $2, publish_from = $3 where episode_id = $1', [record.episodeId, partition, from]);
    } else {
      const found = await findPublished(deps.kafka, partition, String(row.publish_from), record.episodeId);
      if (found !== null) {
        await client.query('update episodes set kafka_offset = $2 where episode_id = $1', [record.episodeId, found]);
        return { topic: ROLLOUTS_TOPIC, partition, offset: found };
      }
    }
    const producer = await deps.producer();
    const [sent] = await producer.send({
      topic: ROLLOUTS_TOPIC,
      messages: [{ key: stored.taskId, partition, value: JSON.stringify(stored), headers: { 'episode-id': stored.episodeId, schema: TRAJECTORY_SCHEMA } }],
    });
    const offset = sent.baseOffset ?? sent.offset ?? '0';
    await client.query('update episodes set kafka_offset = $2 where episode_id = $1', [record.episodeId, offset]);
    return { topic: ROLLOUTS_TOPIC, partition, offset };
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', [record.episodeId]).catch(() => undefined);
    client.release();
  }
}

export { ChatMessage };
