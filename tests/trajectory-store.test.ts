/** The trajectory record is stored in PostgreSQL and published to Kafka exactly once, whatever crash interrupts the
 * publishing activity (real PostgreSQL and Kafka). */
import { makeKafka } from '../activities/kafka';
import { buildConversation, partitionFor, storeAndPublish, type EventRow } from '../activities/trajectory-store';
import { TRAJECTORY_SCHEMA, TrajectoryRecord } from '../common/trajectory';
import { openDeps, type OpenDeps } from '../workers/deps';
import { countRolloutsFor } from './helpers/kafka';
import { config } from './helpers/services';

function record(episodeId: string): TrajectoryRecord {
  const now = new Date().toISOString();
  return TrajectoryRecord.parse({
    schema: TRAJECTORY_SCHEMA,
    episodeId,
    workflowId: episodeId.split(':')[0],
    taskId: 'store_test_task',
    split: 'train',
    policy: { spec: 'scripted:x.jsonl', version: 0 },
    toolset: 'full',
    evaluationId: null,
    arm: null,
    seed: 0,
    limits: { maxTurns: 50 },
    messages: [{ role: 'system', content: 's' }],
    turns: [],
    recoveries: [],
    outcome: { passed: false, tests: {}, exitReason: 'done', error: null, gradeNotes: [] },
    tokens: { prompt: 0, completion: 0, finalContext: 0 },
    timings: { startedAt: now, finishedAt: now, durationMs: 0 },
  });
}

describe('storeAndPublish (real PostgreSQL and Kafka)', () => {
  let deps: OpenDeps;
  beforeAll(() => (deps = openDeps(config, 'store-test')));
  afterAll(async () => deps.close());
  const kafka = makeKafka(config.DEBUGRL_KAFKA_BROKERS, 'store-test-check');

  it('is idempotent when called again after success', async () => {
    const id = `store-test-${Date.now()}:a`;
    const first = await storeAndPublish(deps, record(id));
    const second = await storeAndPublish(deps, record(id));
    expect(second).toEqual(first);
    expect(await countRolloutsFor(kafka, first.partition, id)).toBe(1);
  });

  it('does not publish twice when the acknowledgement of the send was lost', async () => {
    const id = `store-test-${Date.now()}:b`;
    const first = await storeAndPublish(deps, record(id));
    // The crash: the message reached Kafka but the offset never reached PostgreSQL.
    await deps.pool.query('update episodes set kafka_offset = null where episode_id = $1', [id]);
    const retried = await storeAndPublish(deps, record(id));
    expect(retried).toEqual(first);
    expect(await countRolloutsFor(kafka, first.partition, id)).toBe(1);
  }, 90_000);

  it('publishes when the crash came before the send', async () => {
    const id = `store-test-${Date.now()}:c`;
    const rec = record(id);
    const first = await storeAndPublish(deps, rec);
    // Pretend this row was written and its scan start noted, but the send never happened: point the scan start past
    // the real message and forget the offset; the retry must find nothing there and send once more.
    await deps.pool.query('update episodes set kafka_offset = null, publish_from = $2 where episode_id = $1', [id, BigInt(first.offset) + 1n]);
    const retried = await storeAndPublish(deps, rec);
    expect(BigInt(retried.offset)).toBeGreaterThan(BigInt(first.offset));
    expect(await countRolloutsFor(kafka, first.partition, id)).toBe(2); // the first (simulated as unsent) and the retry
  }, 90_000);

  it('keeps a task on one partition', () => {
    expect(partitionFor('reentrant_lock_owner', 4)).toBe(partitionFor('reentrant_lock_owner', 4));
    expect(new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((k) => partitionFor(k, 4))).size).toBeGreaterThan(1);
  });
});

describe('buildConversation', () => {
  const start: EventRow = {
    turn: 0,
    kind: 'start',
    payload: { taskId: 't', split: 'train', policy: 'p', toolset: 'full', limits: {}, seed: 0, evaluationId: null, messages: [{ role: 'system', content: 'S' }, { role: 'user', content: 'U' }], startedAt: '' },
  };
  const assistant = (turn: number, withCall: boolean): EventRow => ({
    turn,
    kind: 'assistant',
    payload: {
      message: withCall
        ? { role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] }
        : { role: 'assistant', content: 'thinking…' },
    },
  });
  const tool = (turn: number, output: string, invalidReply = false): EventRow => ({ turn, kind: 'tool', payload: { output, invalidReply } });

  it('answers a tool call with a tool message and an invalid reply with a user message', () => {
    const msgs = buildConversation([start, assistant(1, true), tool(1, 'a.py'), assistant(2, false), tool(2, 'error: no tool call', true)]);
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(msgs[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'a.py' });
    expect(msgs[5]).toEqual({ role: 'user', content: 'error: no tool call' });
  });
});
