/** Helpers for episode tests: scripts built from a task's held-back fix, and an in-process worker pair (shared
 * queue + host queue) wired to the real services. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { SessionRegistry } from '../../activities/sandbox';
import { loadConfig } from '../../common/config';
import { openDeps, type OpenDeps } from '../../workers/deps';
import { uniqueQueue, workerConnection, workflowBundle } from './services';

export const FIXTURE_TASKS = path.resolve(__dirname, '../fixtures/tasks');
export const fixtureConfig = loadConfig({ ...process.env, DEBUGRL_TASKS_DIR: FIXTURE_TASKS });

/** edit_file calls that turn each buggy source file into its fixed version. */
export function fixCalls(taskDir: string): { name: string; arguments: Record<string, unknown> }[] {
  const fixDir = path.join(taskDir, 'fix');
  return fs.readdirSync(fixDir).map((f) => ({
    name: 'edit_file',
    arguments: { path: f, old_text: fs.readFileSync(path.join(taskDir, 'workspace', f), 'utf8'), new_text: fs.readFileSync(path.join(fixDir, f), 'utf8') },
  }));
}

export function writeScript(calls: { name: string; arguments: unknown }[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-script-')), 'script.jsonl');
  fs.writeFileSync(file, calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
  return file;
}

export interface InProcessWorkers {
  taskQueue: string;
  deps: OpenDeps;
  /** Await p while the workers run (they run from creation until close()). */
  run<T>(p: Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** `config` defaults to the fixture tasks; pass `loadConfig()` for the vendored tasks and their splits. */
export async function inProcessWorkers(prefix: string, config = fixtureConfig): Promise<InProcessWorkers> {
  const taskQueue = uniqueQueue(prefix);
  const hostQueue = `${taskQueue}-host`;
  const deps = openDeps(config, prefix);
  const sessions = new SessionRegistry();
  const activities = createActivities(deps, { hostQueue, sessions });
  const connection = await workerConnection();
  const shared = await Worker.create({ connection, taskQueue, workflowBundle: await workflowBundle(), activities });
  const host = await Worker.create({ connection, taskQueue: hostQueue, activities });
  const running = Promise.all([shared.run(), host.run()]);
  let failed: unknown;
  running.catch((e) => (failed = e));
  return {
    taskQueue,
    deps,
    run: async (p) => {
      const result = await p;
      if (failed) throw failed;
      return result;
    },
    async close() {
      shared.shutdown();
      host.shutdown();
      await running;
      await sessions.closeAll();
      await deps.close();
      await connection.close();
    },
  };
}
