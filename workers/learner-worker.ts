/** The GPU activity worker: a Temporal worker on the learner's task queue (DEBUGRL_LEARNER_TASK_QUEUE, `gpu`) that
 * owns the Python learner service and runs the training-step and adapter-publishing activities. One step at a time:
 * the learner is one process (or one torchrun job) and every step builds on the last.
 * Start it with `node lib/workers/learner-worker.js` (infra/learner-worker does). */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createAdapterActivities, createLearnerActivities, createSftTrainActivities, fetchServingFacts, LearnerHost, learnerModelDir, probeConversation, publishUrl } from '../activities/learner';
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
  // the learner checks its tokenizer against the server's at start-up (tokenizer-agreement.ts); a server that reports
  // no tokenizer facts leaves the check to the CLI's
  const host = new LearnerHost(config, async (spec) => {
    if (!learnerModelDir(spec, config.DEBUGRL_DATA_DIR)) return undefined;
    return (await fetchServingFacts(publishUrl(config), () => probeConversation(config.DEBUGRL_PYTHON))) ?? undefined;
  });
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
