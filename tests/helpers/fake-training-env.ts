/** A private Temporal dev server (TestWorkflowEnvironment.createLocal on the CLI infra/setup installs; the time-skipping
 * server is a download this machine cannot make) with a worker running the real TrainingRunWorkflow, its children faked
 * (training-fake-workflows.ts), on the given fake activities. Shared by the coordinator's fast suites. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import * as searchAttributes from '../../common/search-attributes';

export interface FakeTrainingEnv {
  env: TestWorkflowEnvironment;
  close(): Promise<void>;
}

export async function fakeTrainingEnv(taskQueue: string, activities: object): Promise<FakeTrainingEnv> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  // The search attributes infra/up registers: the coordinator upserts PolicyVersion.
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: path.resolve(__dirname, '../../.venv/bin/temporal') }, searchAttributes: Object.values(searchAttributes) },
  });
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'training-fake-workflows.ts'), logger: new DefaultLogger('WARN') });
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities });
  const running = worker.run();
  return {
    env,
    async close() {
      worker.shutdown();
      await running;
      await env.teardown();
    },
  };
}

/** With DEBUGRL_SAVE_HISTORY set, writes a run's history to tests/histories/ as the replay test names it: a saved shape
 * for tests/replay.test.ts. */
export async function saveHistoryIfAsked(handle: { workflowId: string; fetchHistory(): Promise<Parameters<typeof historyToJSON>[0]> }): Promise<void> {
  if (!process.env.DEBUGRL_SAVE_HISTORY) return;
  const file = path.join(__dirname, '..', 'histories', `TrainingRunWorkflow@${handle.workflowId}.json`);
  fs.writeFileSync(file, historyToJSON(await handle.fetchHistory()));
  console.log(`saved ${file}`);
}
