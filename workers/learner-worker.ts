/** The GPU activity worker: a Temporal worker on the learner's task queue (DEBUGRL_LEARNER_TASK_QUEUE, `gpu`) that
 * owns the Python learner service and runs the training-step and adapter-publishing activities. One step at a time:
 * the learner is one process (or one torchrun job) and every step builds on the last.
 * Start it with `node lib/workers/learner-worker.js` (infra/learner-worker does). */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createAdapterActivities, createLearnerActivities, createSftTrainActivities, LearnerHost } from '../activities/learner';
import { createRlInitActivities } from '../activities/rl-init';
import { loadConfig, type Config } from '../common/config';
import { temporalConnectionOptions } from '../common/connections';
import { openDeps, type OpenDeps } from './deps';

export function learnerActivities(deps: OpenDeps, config: Config, host: LearnerHost) {
  return { ...createLearnerActivities(deps, host), ...createAdapterActivities({ config }, host), ...createRlInitActivities({ config }, host), ...createSftTrainActivities({ config }) };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const connection = await NativeConnection.connect(temporalConnectionOptions(config));
  const deps = openDeps(config, `debugrl-learner-${process.pid}`);
  const host = new LearnerHost(config);
  const worker = await Worker.create({
    connection,
    namespace: config.DEBUGRL_TEMPORAL_NAMESPACE,
    taskQueue: config.DEBUGRL_LEARNER_TASK_QUEUE,
    activities: learnerActivities(deps, config, host),
    maxConcurrentActivityTaskExecutions: 1,
  });
  console.log(`[learner-worker] polling task queue "${config.DEBUGRL_LEARNER_TASK_QUEUE}" on ${config.DEBUGRL_TEMPORAL_ADDRESS}`);
  try {
    await worker.run();
  } finally {
    await host.close();
    await deps.close();
    await connection.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`[learner-worker] ${err instanceof Error ? err.stack : String(err)}`);
    process.exit(1);
  });
}
