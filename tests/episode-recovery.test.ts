/** Integration: killing the worker process that holds an episode's sandbox does not lose the episode. Two real worker
 * processes (node lib/workers/worker.js) share a task queue; we SIGKILL the one holding the sandbox in the middle of
 * a long tool call. The workflow notices (heartbeat or schedule-to-start timeout), rebuilds the sandbox on the other
 * worker, re-applies the edit, and finishes with a passing grade and a recorded recovery. */
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { Pool } from 'pg';
import { TrajectoryRecord } from '../common/trajectory';
import { EpisodeWorkflow } from '../workflows/episode';
import { FIXTURE_TASKS, fixCalls, writeScript } from './helpers/episodes';
import { config, temporalClient, uniqueQueue } from './helpers/services';
import { startWorker as startWorkerProcess } from './helpers/worker-process';

const TASK = 'shared_default_tags';

const startWorker = (taskQueue: string) => startWorkerProcess({ DEBUGRL_TASK_QUEUE: taskQueue, DEBUGRL_TASKS_DIR: FIXTURE_TASKS });

describe('EpisodeWorkflow survives the death of the worker holding its sandbox', () => {
  const workers: ChildProcess[] = [];
  const pool = new Pool({ connectionString: config.DEBUGRL_DATABASE_URL });
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await pool.end();
  });

  it('rebuilds the sandbox on another worker, re-applies the edit and passes', async () => {
    const taskQueue = uniqueQueue('recovery-test');
    workers.push(...(await Promise.all([startWorker(taskQueue), startWorker(taskQueue)])));

    const script = writeScript([
      ...fixCalls(path.join(FIXTURE_TASKS, TASK)),
      { name: 'bash', arguments: { command: 'sleep 8; echo slept' } },
      { name: 'run_tests', arguments: {} },
      { name: 'done', arguments: {} },
    ]);
    const { client, connection } = await temporalClient();
    try {
      const workflowId = `recovery-test-${Date.now()}`;
      const handle = await client.workflow.start(EpisodeWorkflow, {
        taskQueue,
        workflowId,
        args: [{ taskId: TASK, policy: `scripted:${script}`, sandboxScheduleToStartSeconds: 5 }],
      });

      // Wait until the edit (turn 1) is logged: the sandbox's worker is now running the sleep of turn 2.
      for (let i = 0; ; i++) {
        const r = await pool.query("select count(*)::int as n from episode_events where episode_id like $1 and turn = 1 and kind = 'tool'", [`${workflowId}:%`]);
        if (r.rows[0].n === 1) break;
        if (i > 240) throw new Error('the edit never ran');
        await new Promise((res) => setTimeout(res, 250));
      }
      // Which process holds the sandbox? openSandbox's result names its host queue, which ends in "-<pid>-<hex>".
      const history = await handle.fetchHistory();
      const scheduled = history.events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'openSandbox')!;
      const opened = history.events!.find((e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === String(scheduled.eventId))!
        .activityTaskCompletedEventAttributes!;
      const payload = JSON.parse(Buffer.from(opened.result!.payloads![0].data!).toString());
      const pid = Number(/-(\d+)-[0-9a-f]+$/.exec(payload.queue)![1]);
      const victim = workers.find((w) => w.pid === pid);
      expect(victim).toBeDefined();
      victim!.kill('SIGKILL');

      const result = await handle.result();
      expect(result).toMatchObject({ passed: true, exitReason: 'done', recoveries: 1 });
      const row = await pool.query('select record from episodes where episode_id = $1', [result.episodeId]);
      const record = TrajectoryRecord.parse(row.rows[0].record);
      expect(record.recoveries).toHaveLength(1);
      expect(record.recoveries[0].reappliedCalls).toBeGreaterThanOrEqual(1);
      expect(record.recoveries[0].reason).toMatch(/timeout|Timeout|heartbeat|schedule/i);
      // The model was told, in the observation of the call that ran on the new sandbox.
      expect(record.turns.map((t) => t.tool?.output ?? '').join('\n')).toMatch(/sandbox was lost and rebuilt/);
    } finally {
      await connection.close();
    }
  }, 180_000);
});
