/** A real harness worker process (node lib/workers/worker.js, as on a harness host) started by a test on its own task
 * queue. Needs `npx tsc -p .` first (infra/test builds). */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Resolves once the worker polls its queues; rejects with its output if it exits or is not up in time (bundling
 * the workflows takes most of that; a loaded 2-core box needs minutes), and then kills it. */
export function startWorker(env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'lib/workers/worker.js')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker did not start within ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);
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

/** SIGTERM (the worker drains and closes its sandboxes), SIGKILL after `graceMs`; resolves when it has exited. */
export async function stopWorker(child: ChildProcess, graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
