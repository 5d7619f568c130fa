/** infra/embedded runs the inference server under infra/supervise (issue 19): a SIGKILLed server comes back by itself
 * and answers /health again, infra/status's rows show its pid, uptime, restarts and log, and infra/down stops it for
 * good. A private data folder and port, and the tiny random model (the shared stack's server is not touched); the
 * SmolLM2 tokenizer comes from the checkout's model cache, linked in as infra/check-training-chaos does. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatWorker, workerRows } from '../infra/health';

const ROOT = path.resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/health', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

async function until<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, ms: number): Promise<T> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(250)) {
    const v = await fn();
    if (v) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('infra/embedded under infra/supervise', () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-embedded-'));
  const port = 20000 + (process.pid % 20000);
  const env = { ...process.env, DEBUGRL_DATA_DIR: data, DEBUGRL_EMBEDDED_PORT: String(port), DEBUGRL_EMBEDDED_URL: `http://127.0.0.1:${port}/v1`, DEBUGRL_EMBEDDED_MODEL: 'tiny-random' };
  const script = (name: string, ...args: string[]) => spawnSync(path.join(ROOT, 'infra', name), args, { env, encoding: 'utf8', timeout: 300_000 });
  const pidOf = (f: string) => (fs.existsSync(path.join(data, f)) ? Number(fs.readFileSync(path.join(data, f), 'utf8')) : 0);

  beforeAll(() => {
    fs.mkdirSync(path.join(data, 'models'), { recursive: true });
    const cache = path.join(ROOT, '.data', 'models');
    for (const m of fs.existsSync(cache) ? fs.readdirSync(cache) : []) fs.symlinkSync(path.join(cache, m), path.join(data, 'models', m));
  });

  afterAll(() => {
    // Whatever happened, nothing of this test keeps running.
    const sup = pidOf('supervisor-embedded.pid');
    if (sup && alive(sup)) process.kill(-sup, 'SIGKILL');
  });

  it('comes back healthy after a SIGKILL, shows in infra/status, and stops with infra/down', async () => {
    const up = script('embedded');
    expect({ status: up.status, stderr: up.stderr }).toMatchObject({ status: 0 });
    expect(up.stderr).toMatch(/under infra\/supervise/);
    expect(await healthy(port)).toBe(true);
    // Idempotent: a second call finds it supervised and starts nothing.
    expect(script('embedded').stderr).toMatch(/already up .*supervisor pid \d+/);

    const first = pidOf('worker-embedded.pid');
    let [row] = workerRows(data);
    expect(row).toMatchObject({ name: 'embedded', up: true, supervised: true, pid: first, restarts: 0, log: path.join(data, 'logs', 'embedded.log') });

    process.kill(first, 'SIGKILL');
    const second = await until('a restarted server', () => {
      const p = pidOf('worker-embedded.pid');
      return p && p !== first && alive(p) ? p : false;
    }, 30_000);
    await until('the restarted server to answer /health', () => healthy(port), 120_000);
    [row] = workerRows(data);
    expect(row).toMatchObject({ up: true, pid: second, restarts: 1, lastExit: 'signal 9' });
    expect(formatWorker(row).join('\n')).toMatch(/worker:embedded\s+UP\s+pid \d+, up \d+m\d+s, 1 restart \(last: signal 9\)\s+supervisor pid \d+\n\s+log: .*embedded\.log/);
    const log = fs.readFileSync(path.join(data, 'logs', 'embedded.log'), 'utf8');
    expect(log).toMatch(new RegExp(`pid ${first} ended \\(signal 9 after \\d+s\\); restart #1`));

    const down = script('down');
    expect(down.status).toBe(0);
    expect(alive(second)).toBe(false);
    expect(await healthy(port)).toBe(false);
    expect(workerRows(data)).toEqual([]);
  }, 600_000);
});
