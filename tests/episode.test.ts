/** Integration: EpisodeWorkflow with the scripted policy on the real Temporal, PostgreSQL, Kafka, bubblewrap and pdb. */
import * as path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { makeKafka } from '../activities/kafka';
import type { EpisodeResult } from '../common/episode';
import { TrajectoryRecord } from '../common/trajectory';
import { EpisodeWorkflow } from '../workflows/episode';
import { FIXTURE_TASKS, fixCalls, inProcessWorkers, writeScript, type InProcessWorkers } from './helpers/episodes';
import { countRolloutsFor } from './helpers/kafka';
import { quietRuntime, temporalClient } from './helpers/services';

const TASK = 'shared_default_tags';

describe('EpisodeWorkflow (scripted policy, real services)', () => {
  let w: InProcessWorkers;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('episode-test');
  });
  afterAll(async () => w.close());

  async function runEpisode(script: string, extra: Record<string, unknown> = {}, workflowId = `episode-test-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`) {
    const { client, connection } = await temporalClient();
    try {
      const result = await w.run(
        client.workflow.execute(EpisodeWorkflow, { taskQueue: w.taskQueue, workflowId, args: [{ taskId: TASK, policy: `scripted:${script}`, ...extra }] }),
      );
      return { result, workflowId, client };
    } finally {
      await connection.close();
    }
  }

  async function storedRecord(result: EpisodeResult): Promise<TrajectoryRecord> {
    const rows = await w.deps.pool.query('select record from episodes where episode_id = $1', [result.episodeId]);
    expect(rows.rowCount).toBe(1);
    return TrajectoryRecord.parse(rows.rows[0].record);
  }

  it('fixes the bug with a scripted fix, is graded pass, and is stored once in PostgreSQL and Kafka', async () => {
    const script = writeScript([
      { name: 'run_tests', arguments: {} },
      ...fixCalls(path.join(FIXTURE_TASKS, TASK)),
      { name: 'run_tests', arguments: {} },
      { name: 'done', arguments: { summary: 'fixed the shared default' } },
    ]);
    const { result } = await runEpisode(script);
    expect(result).toMatchObject({ taskId: TASK, split: 'train', passed: true, exitReason: 'done', turns: 4, recoveries: 0 });

    const record = await storedRecord(result);
    expect(record.turns.map((t) => t.tool?.tool)).toEqual(['run_tests', 'edit_file', 'run_tests', 'done']);
    expect(record.turns[0].tool?.output).toMatch(/failed/i);
    expect(record.outcome.tests['test_articles.py::test_new_articles_start_untagged']).toBe('passed');
    expect(record.messages[0].role).toBe('system');
    // The conversation carries each observation answering its tool call.
    expect(record.messages.filter((m) => m.role === 'tool')).toHaveLength(4);

    const events = await w.deps.pool.query('select count(*)::int as n from episode_events where episode_id = $1', [result.episodeId]);
    expect(events.rows[0].n).toBe(1 + 4 * 2 + 1); // start, 4 × (assistant, tool), grade

    const kafka = makeKafka(w.deps.config.DEBUGRL_KAFKA_BROKERS, 'episode-test-check');
    expect(await countRolloutsFor(kafka, result.kafka.partition, result.episodeId)).toBe(1);
  });

  it('records a failed episode with its search attributes, findable by Outcome="fail"', async () => {
    const script = writeScript([{ name: 'run_tests', arguments: {} }, { name: 'done', arguments: {} }]);
    const { result, workflowId, client } = await runEpisode(script);
    expect(result).toMatchObject({ passed: false, exitReason: 'done', turns: 2 });
    const { client: c2, connection } = await temporalClient();
    try {
      const handle = c2.workflow.getHandle(workflowId);
      const desc = await handle.describe();
      expect(desc.searchAttributes).toMatchObject({ Outcome: ['fail'], TaskId: [TASK], Split: ['train'], ExitReason: ['done'] });
      let ids: string[] = [];
      for (let i = 0; i < 40 && !ids.includes(workflowId); i++) {
        ids = [];
        for await (const wf of c2.workflow.list({ query: `Outcome="fail" AND TaskId="${TASK}" AND WorkflowId="${workflowId}"` })) ids.push(wf.workflowId);
        if (!ids.includes(workflowId)) await new Promise((r) => setTimeout(r, 250));
      }
      expect(ids).toEqual([workflowId]);
    } finally {
      await connection.close();
    }
    void client;
  });

  it('stops a degenerate episode with a guard exit', async () => {
    const same = { name: 'read_file', arguments: { path: 'articles.py', start_line: 1, end_line: 3 } };
    const script = writeScript([same, same, same, same, same, same, same]);
    const { result } = await runEpisode(script, { limits: { maxRepeatedCalls: 3 } });
    expect(result).toMatchObject({ exitReason: 'guard', passed: false, turns: 3 });
    const record = await storedRecord(result);
    expect(record.turns).toHaveLength(3);
    expect(record.turns[2].tool).toBeNull(); // the repeated call was not executed
  });

  it('counts unknown tools and invalid arguments as invalid replies: four unknown tools in a row trip the guard', async () => {
    const unknown = (i: number) => ({ name: `no_such_tool_${i}`, arguments: {} });
    const { result } = await runEpisode(writeScript([unknown(1), unknown(2), unknown(3), unknown(4)]));
    expect(result).toMatchObject({ exitReason: 'guard', passed: false, turns: 3 }); // maxInvalidReplies defaults to 3
    const record = await storedRecord(result);
    for (const t of record.turns) {
      expect(t.assistant.toolCall).toBeNull();
      expect(t.assistant.invalidReason).toMatch(/There is no tool named "no_such_tool_\d"/);
      expect(t.tool).toMatchObject({ invalidReply: true, ok: false });
    }

    // Invalid arguments count the same; a valid call in between resets the streak.
    const badArgs = { name: 'read_file', arguments: { nope: 1 } };
    const mixed = await runEpisode(writeScript([badArgs, unknown(1), { name: 'bash', arguments: { command: 'true' } }, badArgs, unknown(2), badArgs, unknown(3)]));
    expect(mixed.result).toMatchObject({ exitReason: 'guard', turns: 6 });
    const turns = (await storedRecord(mixed.result)).turns;
    expect(turns.map((t) => t.tool?.invalidReply)).toEqual([true, true, false, true, true, true]);
    expect(turns[0].assistant.invalidReason).toMatch(/invalid arguments for read_file/);
  });

  it('keeps a 300k-character edit out of the workflow history (claim check)', async () => {
    // The largest call the schema allows: 100k characters replaced by 200k (after a call that creates the file).
    const edit = (oldText: string, newText: string) => ({ name: 'edit_file', arguments: { path: 'notes.txt', old_text: oldText, new_text: newText } });
    const script = (n: number) => writeScript([edit('', 'a'.repeat(n)), edit('a'.repeat(n), 'b'.repeat(2 * n)), { name: 'done', arguments: {} }]);
    const historyBytes = async (workflowId: string) => {
      const { client, connection } = await temporalClient();
      try {
        return temporal.api.history.v1.History.encode(await client.workflow.getHandle(workflowId).fetchHistory()).finish().length;
      } finally {
        await connection.close();
      }
    };
    const big = await runEpisode(script(100_000));
    const small = await runEpisode(script(1));
    const record = await storedRecord(big.result);
    expect(record.turns[1].tool).toMatchObject({ tool: 'edit_file', ok: true }); // the edit ran, read from PostgreSQL
    expect(JSON.stringify(record.turns[1].assistant.toolCall).length).toBeGreaterThan(300_000);
    const [bigBytes, smallBytes] = [await historyBytes(big.workflowId), await historyBytes(small.workflowId)];
    // Same shape of history; the 300k characters add nothing but the digits of a few counters.
    expect(bigBytes - smallBytes).toBeLessThan(200);
    expect(bigBytes).toBeLessThan(40_000);
  });

  it('runs a tool call longer than the workflow task timeout (10 s) as a local activity, to its end', async () => {
    // The local call holds the workflow task open; the worker heartbeats the task (80 % of its timeout) until it ends.
    const script = writeScript([
      { name: 'bash', arguments: { command: 'sleep 12; echo slept' } },
      { name: 'done', arguments: {} },
    ]);
    const { result, workflowId } = await runEpisode(script);
    expect(result).toMatchObject({ exitReason: 'done', turns: 2, recoveries: 0 });
    expect((await storedRecord(result)).turns[0].tool?.output).toMatch(/slept/);
    const { client, connection } = await temporalClient();
    try {
      const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events!;
      expect(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool')).toHaveLength(0);
      expect(events.some((e) => e.workflowTaskTimedOutEventAttributes)).toBe(false);
    } finally {
      await connection.close();
    }
  }, 60_000);

  it('ends at the turn cap and still grades', async () => {
    const script = writeScript([
      { name: 'bash', arguments: { command: 'ls' } },
      { name: 'bash', arguments: { command: 'pwd' } },
      { name: 'bash', arguments: { command: 'echo hi' } },
    ]);
    const { result } = await runEpisode(script, { limits: { maxTurns: 2 } });
    expect(result).toMatchObject({ exitReason: 'turn_cap', turns: 2, passed: false });
    const record = await storedRecord(result);
    expect(Object.keys(record.outcome.tests).length).toBeGreaterThan(0);
  });

  it('rejects a bad input with a non-retryable error naming the field', async () => {
    const { client, connection } = await temporalClient();
    try {
      const err = await w
        .run(client.workflow.execute(EpisodeWorkflow, { taskQueue: w.taskQueue, workflowId: `episode-bad-${Date.now()}`, args: [{ taskId: TASK, policy: 'telepathy' }] }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      const cause = (err as WorkflowFailedError).cause as ApplicationFailure;
      expect(cause.nonRetryable).toBe(true);
      expect(cause.message).toMatch(/policy: unknown policy "telepathy"/);
    } finally {
      await connection.close();
    }
  });
});
