/** infra/supervise keeps a worker running (issue 10, bug 2): a SIGKILLed child comes back by itself with backoff, each
 * restart is logged, infra/status reads pid, uptime and restarts from its files, and SIGTERM to the supervisor stops
 * both for good. A throwaway data folder and `sleep` as the worker; nothing of the shared stack is touched. */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
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

async function until<T>(what: string, fn: () => T | undefined | false, ms = 15_000): Promise<T> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(100)) {
    const v = fn();
    if (v) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('infra/supervise', () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-supervise-'));
  const pidOf = (f: string) => (fs.existsSync(path.join(data, f)) ? Number(fs.readFileSync(path.join(data, f), 'utf8')) : 0);

  it('restarts a killed worker with backoff, logs it, and stops with its supervisor', async () => {
    const sup = spawn(path.join(ROOT, 'infra/supervise'), ['demo', 'sleep', '300'], {
      env: { ...process.env, DEBUGRL_DATA_DIR: data },
      stdio: ['ignore', 'ignore', fs.openSync(path.join(data, 'supervisor.err'), 'a')],
      detached: true,
    });
    try {
      const first = await until('the first child', () => pidOf('worker-demo.pid'));
      expect(pidOf('supervisor-demo.pid')).toBe(sup.pid);
      let [row] = workerRows(data);
      expect(row).toMatchObject({ name: 'demo', up: true, supervised: true, pid: first, supervisorPid: sup.pid, restarts: 0 });

      process.kill(first, 'SIGKILL');
      const second = await until('a restarted child', () => {
        const p = pidOf('worker-demo.pid');
        return p && p !== first && alive(p) ? p : false;
      });
      [row] = workerRows(data);
      expect(row).toMatchObject({ up: true, pid: second, restarts: 1, lastExit: 'signal 9' });
      expect(formatWorker(row).join('\n')).toMatch(/worker:demo\s+UP\s+pid \d+, up 0m0\ds, 1 restart \(last: signal 9\)\s+supervisor pid \d+\n\s+log: .*worker-demo\.log/);
      const log = fs.readFileSync(path.join(data, 'logs', 'worker-demo.log'), 'utf8');
      expect(log).toMatch(new RegExp(`pid ${first} ended \\(signal 9 after \\d+s\\); restart #1 in 1s`));
      expect(fs.readFileSync(path.join(data, 'logs', 'worker-demo.log'), 'utf8')).toMatch(new RegExp(`started pid ${second}`));

      // The second quick death waits twice as long: backoff.
      process.kill(second, 'SIGKILL');
      await until('the second restart', () => /restart #2 in 2s/.test(fs.readFileSync(path.join(data, 'logs', 'worker-demo.log'), 'utf8')));
      const third = await until('a third child', () => {
        const p = pidOf('worker-demo.pid');
        return p && p !== second && alive(p) ? p : false;
      });

      process.kill(sup.pid!, 'SIGTERM');
      await until('the supervisor to exit', () => !alive(sup.pid!));
      expect(alive(third)).toBe(false);
      expect(fs.existsSync(path.join(data, 'supervisor-demo.pid'))).toBe(false);
      expect(fs.existsSync(path.join(data, 'worker-demo.pid'))).toBe(false);
      expect(workerRows(data)).toEqual([]);
    } finally {
      if (alive(sup.pid!)) process.kill(-sup.pid!, 'SIGKILL');
    }
  }, 60_000);

  it('lists an unsupervised or dead worker too', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-status-'));
    fs.writeFileSync(path.join(dir, 'worker-main.pid'), String(process.pid));
    const dead = spawnSync('true');
    fs.writeFileSync(path.join(dir, 'worker-gone.pid'), String(dead.pid));
    const rows = workerRows(dir);
    expect(rows.map((r) => [r.name, r.up, r.supervised])).toEqual([
      ['gone', false, false],
      ['main', true, false],
    ]);
    expect(formatWorker(rows[0]).join('\n')).toMatch(/worker:gone\s+DOWN\s+not running/);
  });
});
