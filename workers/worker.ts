/** The debugrl worker process. It runs two Temporal workers on one connection:
 *  - the shared queue (DEBUGRL_TASK_QUEUE): every workflow, and activities that may run anywhere;
 *  - this process's own queue: the tool, grade and close activities of the sandboxes it holds in memory
 *    (the worker-specific task queue pattern).
 * Start it with `node lib/workers/worker.js` (infra/workers does; infra/down stops it). */
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { SessionRegistry } from '../activities/sandbox';
import { loadConfig } from '../common/config';
import { temporalConnectionOptions } from '../common/connections';
import { openDeps } from './deps';

async function main(): Promise<void> {
  const config = loadConfig();
  const connection = await NativeConnection.connect(temporalConnectionOptions(config));
  const deps = openDeps(config);
  const hostQueue = `${config.DEBUGRL_TASK_QUEUE}-host-${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const sessions = new SessionRegistry();
  const activities = createActivities(deps, { hostQueue, sessions });
  const shared = await Worker.create({
    connection,
    namespace: config.DEBUGRL_TEMPORAL_NAMESPACE,
    taskQueue: config.DEBUGRL_TASK_QUEUE,
    workflowsPath: require.resolve('../workflows'),
    activities,
    // Policy calls are slow and mostly waiting; sandbox creation is short.
    maxConcurrentActivityTaskExecutions: 32,
    // An episode's tool call runs as a local activity inside its workflow task, which holds a workflow task slot for
    // the call's length (a bash call may take a minute): the SDK's default of 40 slots would cap a worker at 40
    // episodes in a tool call at once and make every other workflow task wait behind them.
    maxConcurrentWorkflowTaskExecutions: 128,
    maxConcurrentLocalActivityExecutions: 128,
  });
  const host = await Worker.create({
    connection,
    namespace: config.DEBUGRL_TEMPORAL_NAMESPACE,
    taskQueue: hostQueue,
    activities,
    maxConcurrentActivityTaskExecutions: 32,
  });
  console.log(`[worker] polling task queue "${config.DEBUGRL_TASK_QUEUE}" and "${hostQueue}" on ${config.DEBUGRL_TEMPORAL_ADDRESS}`);
  try {
    // Both return after SIGINT/SIGTERM (the SDK installs the handlers) once in-flight work drains.
    await Promise.all([shared.run(), host.run()]);
  } finally {
    await sessions.closeAll();
    await deps.close();
    await connection.close();
  }
}

main().catch((err) => {
  console.error(`[worker] ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
