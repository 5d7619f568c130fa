/** Issue 10, bug 1: runs under one id never mix. Two runs of one EpisodeWorkflow id within a minute get distinct
 * episode ids (the id holds the whole run id, not its time-ordered first 8 digits), and a second EvaluationWorkflow
 * under an existing evaluation id is refused unless it asks for a new run, which is stored under an id of its own.
 * Real Temporal, PostgreSQL, Kafka and sandboxes. */
import { WorkflowFailedError } from '@temporalio/client';
import { episodeIdFor } from '../common/episode';
import { TrajectoryRecord } from '../common/trajectory';
import { EpisodeWorkflow } from '../workflows/episode';
import { EvaluationWorkflow } from '../workflows/evaluation';
import { inProcessWorkers, writeScript, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime, temporalClient } from './helpers/services';

const TASK = 'reentrant_lock_hang';

describe('episode and evaluation ids across runs (real services)', () => {
  let w: InProcessWorkers;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('rerun-test');
  });
  afterAll(async () => w.close());

  it('derives the episode id from the whole run id', () => {
    const a = '019a1b2c-0000-7000-8000-000000000001';
    const b = '019a1b2c-0000-7000-8000-000000000002'; // same first 8 digits: minted within the same ~65 s
    expect(episodeIdFor('wf', a)).toBe(`wf:${a}`);
    expect(episodeIdFor('wf', a)).not.toBe(episodeIdFor('wf', b));
  });

  it('gives two runs of one episode workflow id their own episode and turns', async () => {
    const script = writeScript([{ name: 'run_tests', arguments: {} }, { name: 'done', arguments: {} }]);
    const workflowId = `rerun-episode-${Date.now()}`;
    const { client, connection } = await temporalClient();
    try {
      const results = [];
      for (let i = 0; i < 2; i++) {
        const handle = await client.workflow.start(EpisodeWorkflow, { taskQueue: w.taskQueue, workflowId, args: [{ taskId: TASK, policy: `scripted:${script}` }] });
        const result = await w.run(handle.result());
        expect(result.episodeId).toBe(`${workflowId}:${handle.firstExecutionRunId}`);
        results.push(result);
      }
      expect(results[0].episodeId).not.toBe(results[1].episodeId);
      for (const r of results) {
        const rows = await w.deps.pool.query('select record from episodes where episode_id = $1', [r.episodeId]);
        expect(rows.rowCount).toBe(1);
        expect(TrajectoryRecord.parse(rows.rows[0].record).turns.map((t) => t.tool?.tool)).toEqual(['run_tests', 'done']);
      }
      const all = await w.deps.pool.query('select count(*)::int as n from episodes where workflow_id = $1', [workflowId]);
      expect(all.rows[0].n).toBe(2);
    } finally {
      await connection.close();
    }
  }, 180_000);

  it('refuses an existing evaluation id, and stores an explicit rerun under a new id', async () => {
    const script = writeScript([{ name: 'run_tests', arguments: {} }, { name: 'done', arguments: {} }]);
    const evaluationId = `rerun-eval-${Date.now()}`;
    const input = { policy: `scripted:${script}`, taskIds: [TASK], episodesPerTask: 1, k: 1, concurrency: 1 };
    const { client, connection } = await temporalClient();
    try {
      const first = await w.run(client.workflow.execute(EvaluationWorkflow, { taskQueue: w.taskQueue, workflowId: evaluationId, args: [input] }));
      expect(first.evaluationId).toBe(evaluationId);
      expect(first.arms[0].episodes).toBe(1);

      const refused = await w
        .run(client.workflow.execute(EvaluationWorkflow, { taskQueue: w.taskQueue, workflowId: evaluationId, args: [input] }))
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowFailedError);
      const chain: string[] = [];
      for (let e: Error | undefined = refused as Error; e; e = (e as { cause?: Error }).cause) chain.push(`${e.name}: ${e.message}`);
      expect(chain.join('\n')).toMatch(/ApplicationFailure: /);
      expect(chain.join(' ')).toMatch(new RegExp(`evaluation "${evaluationId}" already exists.*rerun: true`));

      const again = await w.run(client.workflow.execute(EvaluationWorkflow, { taskQueue: w.taskQueue, workflowId: evaluationId, args: [{ ...input, rerun: true }] }));
      expect(again.evaluationId).toBe(`${evaluationId}-run2`);
      expect(again.arms[0].episodes).toBe(1); // its own episode only, not the first run's as well
      expect(again.reportDir).toMatch(new RegExp(`${evaluationId}-run2$`));

      const third = await w.run(client.workflow.execute(EvaluationWorkflow, { taskQueue: w.taskQueue, workflowId: evaluationId, args: [{ ...input, rerun: true }] }));
      expect(third.evaluationId).toBe(`${evaluationId}-run3`);

      const counts = await w.deps.pool.query(
        `select evaluation_id, count(*)::int as n from episodes where evaluation_id like $1 group by evaluation_id order by evaluation_id`,
        [`${evaluationId}%`],
      );
      expect(counts.rows).toEqual([
        { evaluation_id: evaluationId, n: 1 },
        { evaluation_id: `${evaluationId}-run2`, n: 1 },
        { evaluation_id: `${evaluationId}-run3`, n: 1 },
      ]);
      const evals = await w.deps.pool.query('select evaluation_id, base_id from evaluations where evaluation_id like $1 order by evaluation_id', [`${evaluationId}%`]);
      expect(evals.rows).toEqual([
        { evaluation_id: evaluationId, base_id: evaluationId },
        { evaluation_id: `${evaluationId}-run2`, base_id: evaluationId },
        { evaluation_id: `${evaluationId}-run3`, base_id: evaluationId },
      ]);
    } finally {
      await connection.close();
    }
  }, 300_000);
});
