/** A real harness worker process (node lib/workers/worker.js, as on a harness host) started by a test on its own task
 * queue. Needs `npx tsc -p .` first (infra/test builds). */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Resolves once the worker polls its queues; rejects with its output if it exits or is not up within 90 s. */
export function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'lib/workers/worker.js')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${log}`)), 90_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      if (log.includes('polling task queue')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}:\n${log}`)));
  });
}
