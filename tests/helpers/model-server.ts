/** A private embedded model server for a test: the tiny random Llama with the SmolLM2 tokenizer (written once under
 * <data>/models), served niced on the test's own port, so a test never sends requests to the shared server at 8765
 * and never competes with it for the CPU. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from '../../common/config';

export interface ModelServer {
  /** The checkpoint folder: the learner trains it as `modelDir`. */
  modelDir: string;
  url: string;
  stop(): Promise<void>;
}

/** Write the tiny model (once, atomically) and serve it on `port`; resolves once /health answers. */
export async function startTinyModelServer(config: Config, port: number, opts: { name: string; context?: number; initStd?: number }): Promise<ModelServer> {
  const context = opts.context ?? 8192;
  const initStd = opts.initStd ?? 0.1;
  const modelDir = path.resolve(config.DEBUGRL_DATA_DIR, 'models', `tiny-random-${context / 1024}k-std${initStd}`);
  const env = { ...process.env, DEBUGRL_DATA_DIR: config.DEBUGRL_DATA_DIR };
  execFileSync(config.DEBUGRL_PYTHON, ['-c', `from pathlib import Path\nfrom debugrl_native.inference.models import write_tiny_random\nwrite_tiny_random(Path(${JSON.stringify(modelDir)}), ${context}, init_std=${initStd})`], { env, stdio: 'inherit' });
  const log = path.join(config.DEBUGRL_DATA_DIR, 'logs', `${opts.name}-embedded-${port}.log`);
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const out = fs.openSync(log, 'w');
  // `nice` execs the server, so the child is the server itself
  const server = spawn('nice', ['-n', '19', config.DEBUGRL_PYTHON, '-m', 'debugrl_native.inference.server', '--host', '127.0.0.1', '--port', String(port), '--model', modelDir], { env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const gone = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  };
  try {
    await waitForHealth(server, `http://127.0.0.1:${port}/health`, log, 180);
  } catch (e) {
    await stop();
    throw e;
  }
  return { modelDir, url: `http://127.0.0.1:${port}/v1`, stop };
}

async function waitForHealth(server: ChildProcess, url: string, log: string, seconds: number): Promise<void> {
  for (let i = 0; i < seconds * 4; i++) {
    if (server.exitCode !== null) throw new Error(`the test's model server exited (${server.exitCode}):\n${fs.readFileSync(log, 'utf8').slice(-3000)}`);
    if (await fetch(url).then((r) => r.ok).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the test's model server did not answer ${url} within ${seconds} s; see ${log}`);
}
