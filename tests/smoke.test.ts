/** Integration: SmokeWorkflow on the real Temporal, PostgreSQL and Kafka started by infra/up. */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { SmokeWorkflow } from '../workflows/smoke';
import { openDeps, type OpenDeps } from '../workers/deps';
import { config, quietRuntime, temporalClient, uniqueQueue, workerConnection, workflowBundle } from './helpers/services';

describe('SmokeWorkflow on the real services', () => {
  let deps: OpenDeps;
  beforeAll(() => {
    quietRuntime();
    deps = openDeps(config, 'smoke-test');
  });
  afterAll(async () => deps.close());

  async function withWorker<T>(fn: (taskQueue: string) => Promise<T>): Promise<T> {
    const taskQueue = uniqueQueue('smoke-test');
    const connection = await workerConnection();
    const worker = await Worker.create({ connection, taskQueue, workflowBundle: await workflowBundle(), activities: createActivities(deps) });
    try {
      return await worker.runUntil(fn(taskQueue));
    } finally {
      await connection.close();
    }
  }

  it('writes to PostgreSQL and Kafka and reads both back', async () => {
    const { client, connection } = await temporalClient();
    const workflowId = `smoke-test-${Date.now()}`;
    const message = `hello from ${workflowId}`;
    const result = await withWorker((taskQueue) =>
      client.workflow.execute(SmokeWorkflow, { taskQueue, workflowId, args: [{ message }] }),
    );
    expect(result.readBack).toEqual({ postgres: message, kafka: message });
    expect(result.kafka.topic).toBe('smoke');

    // The rows really are in PostgreSQL, once.
    const rows = await deps.pool.query('select workflow_id, message from smoke_events where workflow_id = $1', [workflowId]);
    expect(rows.rows).toEqual([{ workflow_id: workflowId, message }]);

    // The workflow is visible to `temporal workflow list` (visibility is eventually consistent: poll briefly).
    let listed: string[] = [];
    for (let i = 0; i < 40 && !listed.includes(workflowId); i++) {
      listed = [];
      for await (const w of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) listed.push(w.workflowId);
      if (!listed.includes(workflowId)) await new Promise((r) => setTimeout(r, 250));
    }
    expect(listed).toContain(workflowId);
    await connection.close();
  });

  it('fails a bad input with a non-retryable error that names the field', async () => {
    const { client, connection } = await temporalClient();
    const err = await withWorker((taskQueue) =>
      client.workflow.execute(SmokeWorkflow, { taskQueue, workflowId: `smoke-bad-${Date.now()}`, args: [{ message: '' } as never] }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).nonRetryable).toBe(true);
    expect((cause as ApplicationFailure).message).toMatch(/message: must not be empty/);

    const err2 = await withWorker((taskQueue) =>
      client.workflow.execute(SmokeWorkflow, { taskQueue, workflowId: `smoke-bad2-${Date.now()}`, args: [{ mesage: 'typo' } as never] }),
    ).catch((e: unknown) => e);
    expect(((err2 as WorkflowFailedError).cause as ApplicationFailure).message).toMatch(/message/);
    await connection.close();
  });
});
