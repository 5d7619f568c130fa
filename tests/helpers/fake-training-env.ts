/** A private Temporal dev server (TestWorkflowEnvironment.createLocal on the CLI infra/setup installs; the time-skipping
 * server is a download this machine cannot make) with a worker running the real TrainingRunWorkflow, its children faked
 * (training-fake-workflows.ts), on the given fake activities. Shared by the coordinator's fast suites. */
import * as path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';

export interface FakeTrainingEnv {
  env: TestWorkflowEnvironment;
  close(): Promise<void>;
}

export async function fakeTrainingEnv(taskQueue: string, activities: object): Promise<FakeTrainingEnv> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path: path.resolve(__dirname, '../../.venv/bin/temporal') } } });
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
