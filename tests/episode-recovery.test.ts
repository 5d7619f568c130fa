/** Integration: killing the worker process that holds an episode's sandbox does not lose the episode. Two real worker
 * processes (node lib/workers/worker.js) share a task queue; we SIGKILL the one holding the sandbox in the middle of
 * a long tool call. The sandbox lives on the worker that runs the workflow (it opens as a local activity, and each
 * call runs as one there: the `local-tool-calls` shape), so the kill also ends the workflow task that was running the
 * call. The workflow task times out and the other worker takes the workflow over. Two ways on from there:
 * - the model policy's turns are regular activities, so every turn's workflow task was recorded: the other worker
 *   finds the sandbox elsewhere, sends the call to the dead worker's queue, whose schedule-to-start timeout starts a
 *   recovery: it rebuilds the sandbox, re-applies the edit, tells the model and finishes;
 * - the scripted policy's turns are local activities, so nothing of the episode was recorded yet: the other worker
 *   runs it again from the start with a new sandbox, which runs the logged calls again (unlogged) as it goes, and the
 *   episode finishes as if nothing had happened, each observation logged once.
 * Either way the grade passes: the edit is on the sandbox that is graded. */
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { Pool } from 'pg';
import { TrajectoryRecord } from '../common/trajectory';
import { EpisodeWorkflow } from '../workflows/episode';
import { FIXTURE_TASKS, fixCalls, writeScript } from './helpers/episodes';
import { startScriptedChatServer } from './helpers/scripted-chat-server';
import { config, temporalClient, uniqueQueue } from './helpers/services';
import { startWorker as startWorkerProcess } from './helpers/worker-process';

const TASK = 'shared_default_tags';
const CALLS = [
  ...fixCalls(path.join(FIXTURE_TASKS, TASK)),
  { name: 'bash', arguments: { command: 'sleep 8; echo slept' } },
  { name: 'run_tests', arguments: {} },
  { name: 'done', arguments: {} },
];

const startWorker = (taskQueue: string) => startWorkerProcess({ DEBUGRL_TASK_QUEUE: taskQueue, DEBUGRL_TASKS_DIR: FIXTURE_TASKS });

describe('EpisodeWorkflow survives the death of the worker holding its sandbox', () => {
  const workers: ChildProcess[] = [];
  const pool = new Pool({ connectionString: config.DEBUGRL_DATABASE_URL });
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await pool.end();
  });

  /** Start the episode on two fresh workers, kill the sandbox's worker once the edit (turn 1) is logged, and return
   * the result with the history as it stood at the kill. */
  async function killMidCall(policy: string) {
    const taskQueue = uniqueQueue('recovery-test');
    const pair = await Promise.all([startWorker(taskQueue), startWorker(taskQueue)]);
    workers.push(...pair);
    const { client, connection } = await temporalClient();
    try {
      const workflowId = `recovery-test-${Date.now()}`;
      const handle: WorkflowHandle<typeof EpisodeWorkflow> = await client.workflow.start(EpisodeWorkflow, {
        taskQueue,
        workflowId,
        args: [{ taskId: TASK, policy, sandboxScheduleToStartSeconds: 5 }],
      });
      // Wait until the edit (turn 1) is logged: the sandbox's worker is now running the sleep of turn 2.
      for (let i = 0; ; i++) {
        const r = await pool.query("select count(*)::int as n from episode_events where episode_id like $1 and turn = 1 and kind = 'tool'", [`${workflowId}:%`]);
        if (r.rows[0].n === 1) break;
        if (i > 240) throw new Error('the edit never ran');
        await new Promise((res) => setTimeout(res, 250));
      }
      // Which process holds the sandbox? The one running the workflow task (sticky to the worker that opened it). Its
      // identity is "<pid>@<host>".
      const history = await handle.fetchHistory();
      const task = history.events!.filter((e) => e.workflowTaskStartedEventAttributes).at(-1)!.workflowTaskStartedEventAttributes!;
      const pid = Number(/^(\d+)@/.exec(task.identity!)![1]);
      const victim = pair.find((w) => w.pid === pid);
      expect(victim).toBeDefined();
      victim!.kill('SIGKILL');
      const result = await handle.result();
      const row = await pool.query('select record from episodes where episode_id = $1', [result.episodeId]);
      const logged = await pool.query("select turn, count(*)::int as n from episode_events where episode_id = $1 and kind = 'tool' group by turn order by turn", [result.episodeId]);
      return { result, record: TrajectoryRecord.parse(row.rows[0].record), historyAtKill: history, toolEventsPerTurn: logged.rows.map((r) => r.n as number) };
    } finally {
      await connection.close();
    }
  }

  it('model policy: rebuilds the sandbox on the other worker, re-applies the edit, tells the model and passes', async () => {
    const server = await startScriptedChatServer(CALLS.slice(0, -1));
    try {
      const { result, record, historyAtKill, toolEventsPerTurn } = await killMidCall(server.policy);
      // The sandbox's opening was recorded before the kill: the other worker knows where the sandbox was.
      expect(historyAtKill.events!.some((e) => e.markerRecordedEventAttributes)).toBe(true);
      expect(result).toMatchObject({ passed: true, exitReason: 'done', recoveries: 1 });
      expect(record.recoveries).toHaveLength(1);
      expect(record.recoveries[0].reappliedCalls).toBeGreaterThanOrEqual(1);
      expect(record.recoveries[0].reason).toMatch(/timeout|Timeout|heartbeat|schedule/i);
      // The model was told, in the observation of the call that ran on the new sandbox.
      expect(record.turns.map((t) => t.tool?.output ?? '').join('\n')).toMatch(/sandbox was lost and rebuilt/);
      expect(toolEventsPerTurn.every((n) => n === 1)).toBe(true);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('scripted policy: runs the episode again on the other worker with a new sandbox that catches up, and passes', async () => {
    const { result, record, historyAtKill, toolEventsPerTurn } = await killMidCall(`scripted:${writeScript(CALLS)}`);
    // Nothing had been recorded: the first workflow task (begin, open, turns 1 and 2) was still running.
    expect(historyAtKill.events!.some((e) => e.workflowTaskCompletedEventAttributes)).toBe(false);
    expect(result).toMatchObject({ passed: true, exitReason: 'done', recoveries: 0, turns: CALLS.length });
    // Each turn's observation is logged once: the edit ran again on the new sandbox, unlogged.
    expect(toolEventsPerTurn).toEqual(CALLS.map(() => 1));
    expect(record.turns.map((t) => t.tool?.output ?? '').join('\n')).not.toMatch(/sandbox was lost/);
  }, 180_000);
});
