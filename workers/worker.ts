/** The debugrl worker: runs every workflow and the activities on the shared task queue. Start it with
 * `node lib/workers/worker.js` (the main job starts it for you; infra/down stops it). */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { loadConfig } from '../common/config';
import { openDeps } from './deps';

async function main(): Promise<void> {
  const config = loadConfig();
  const connection = await NativeConnection.connect({ address: config.DEBUGRL_TEMPORAL_ADDRESS });
  const deps = openDeps(config);
  const worker = await Worker.create({
    connection,
    namespace: config.DEBUGRL_TEMPORAL_NAMESPACE,
    taskQueue: config.DEBUGRL_TASK_QUEUE,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities(deps),
  });
  console.log(`[worker] polling task queue "${config.DEBUGRL_TASK_QUEUE}" on ${config.DEBUGRL_TEMPORAL_ADDRESS}`);
  try {
    await worker.run(); // returns after SIGINT/SIGTERM (the SDK installs the handlers) once in-flight work drains
  } finally {
    await deps.close();
    await connection.close();
  }
}

main().catch((err) => {
  console.error(`[worker] ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
