/** `infra/status`: one line per service with its address, health and log file. Exits 1 when a required service is
 * down. Optional services (started by the main job, not by infra/up) are shown but do not fail the check unless
 * `--require-all` is given. */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { loadConfig } from '../common/config';
import { kafkaClientConfig, pgConnectionString, temporalConnectionOptions } from '../common/connections';

interface Check {
  name: string;
  address: string;
  log: string;
  required: boolean;
  probe(): Promise<string>; // resolves to a short detail when healthy, rejects with the reason otherwise
}

function httpGet(url: string, timeoutMs = 3000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c.length < 4096 ? c : ''));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export function checks(): Check[] {
  const cfg = loadConfig();
  const logs = path.join(cfg.DEBUGRL_DATA_DIR, 'logs');
  const uiPort = process.env.DEBUGRL_TEMPORAL_UI_PORT ?? '8233';
  const embedded = new URL(cfg.DEBUGRL_EMBEDDED_URL);
  return [
    {
      name: 'temporal',
      address: cfg.DEBUGRL_TEMPORAL_ADDRESS,
      log: path.join(logs, 'temporal.log'),
      required: true,
      async probe() {
        const conn = await Connection.connect({ ...temporalConnectionOptions(cfg), connectTimeout: 3000 });
        try {
          const ns = await conn.workflowService.describeNamespace({ namespace: cfg.DEBUGRL_TEMPORAL_NAMESPACE });
          return `namespace ${ns.namespaceInfo?.name} ok`;
        } finally {
          await conn.close();
        }
      },
    },
    {
      name: 'temporal-ui',
      address: `http://127.0.0.1:${uiPort}`,
      log: path.join(logs, 'temporal.log'),
      required: true,
      async probe() {
        const r = await httpGet(`http://127.0.0.1:${uiPort}/`);
        if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
        return 'HTTP 200';
      },
    },
    {
      name: 'kafka',
      address: cfg.DEBUGRL_KAFKA_BROKERS.join(','),
      log: path.join(logs, 'kafka.log'),
      required: true,
      async probe() {
        const admin = new Kafka({ ...kafkaClientConfig(cfg, 'debugrl-status'), logLevel: logLevel.NOTHING, retry: { retries: 1 } }).admin();
        await admin.connect();
        try {
          const c = await admin.describeCluster();
          const topics = await admin.listTopics();
          return `${c.brokers.length} broker(s), topics: ${topics.filter((t) => !t.startsWith('__')).sort().join(', ') || '(none)'}`;
        } finally {
          await admin.disconnect();
        }
      },
    },
    {
      name: 'postgres',
      address: cfg.DEBUGRL_DATABASE_URL.replace(/:[^:@/]*@/, ':***@'),
      log: path.join(logs, 'postgres.log'),
      required: true,
      async probe() {
        const client = new Client({ connectionString: pgConnectionString(cfg), connectionTimeoutMillis: 3000 });
        await client.connect();
        try {
          const r = await client.query('select count(*)::int as n from schema_migrations');
          return `${r.rows[0].n} migration(s) applied`;
        } finally {
          await client.end();
        }
      },
    },
    {
      name: 'embedded-policy',
      address: cfg.DEBUGRL_EMBEDDED_URL,
      log: path.join(logs, 'embedded.log'),
      required: false,
      async probe() {
        const r = await httpGet(`${embedded.origin}/health`);
        if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
        return r.body.trim().slice(0, 80);
      },
    },
  ];
}

export interface WorkerRow {
  name: string;
  up: boolean;
  supervised: boolean;
  pid: number | null;
  supervisorPid: number | null;
  uptimeS: number | null;
  restarts: number;
  lastExit: string | null;
  log: string;
  supervisorLog: string | null;
}

function alive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number | null {
  const n = Number.parseInt(fs.readFileSync(file, { encoding: 'utf8', flag: 'r' }).trim(), 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The processes infra/workers and infra/embedded started, from the files infra/supervise keeps in the data folder:
 * supervisor-NAME.pid, worker-NAME.pid and worker-NAME.state (restarts=, started=, last_exit=, log=). */
export function workerRows(dataDir: string, nowMs = Date.now()): WorkerRow[] {
  const files = fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : [];
  const names = new Set(files.map((f) => /^(?:supervisor|worker)-([a-z][a-z0-9-]*)\.pid$/.exec(f)?.[1]).filter((n): n is string => !!n));
  const logs = path.join(dataDir, 'logs');
  return [...names].sort().map((name) => {
    const at = (f: string) => path.join(dataDir, f);
    const pidOf = (f: string) => (fs.existsSync(at(f)) ? readPid(at(f)) : null);
    const supervisorPid = pidOf(`supervisor-${name}.pid`);
    const pid = pidOf(`worker-${name}.pid`);
    const state = new Map<string, string>();
    if (fs.existsSync(at(`worker-${name}.state`))) {
      for (const line of fs.readFileSync(at(`worker-${name}.state`), 'utf8').split('\n')) {
        const i = line.indexOf('=');
        if (i > 0) state.set(line.slice(0, i), line.slice(i + 1));
      }
    }
    const started = Number(state.get('started') ?? 0);
    const up = alive(pid);
    const supervised = alive(supervisorPid);
    return {
      name,
      up,
      supervised,
      pid: up ? pid : null,
      supervisorPid: supervised ? supervisorPid : null,
      uptimeS: up && started > 0 ? Math.max(0, Math.round(nowMs / 1000 - started)) : null,
      restarts: Number(state.get('restarts') ?? 0),
      lastExit: state.get('last_exit') && state.get('last_exit') !== 'none' ? state.get('last_exit')! : null,
      log: state.get('log') || path.join(logs, `worker-${name}.log`),
      supervisorLog: supervisorPid ? path.join(logs, `supervisor-${name}.log`) : null,
    };
  });
}

function duration(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}

export function formatWorker(w: WorkerRow): string[] {
  const state = w.up ? 'UP' : w.supervised ? 'RESTARTING' : 'DOWN';
  const what = w.up ? `pid ${w.pid}, up ${w.uptimeS === null ? '?' : duration(w.uptimeS)}` : w.supervised ? 'waiting to restart' : 'not running';
  const restarts = `${w.restarts} restart${w.restarts === 1 ? '' : 's'}${w.lastExit ? ` (last: ${w.lastExit})` : ''}`;
  const sup = w.supervisorPid ? `supervisor pid ${w.supervisorPid}` : 'unsupervised';
  const exists = (f: string) => (fs.existsSync(f) ? f : `${f} (not written yet)`);
  return [
    `${`worker:${w.name}`.padEnd(16)} ${state.padEnd(5)} ${`${what}, ${restarts}`.padEnd(46)} ${sup}`,
    `${''.padEnd(22)}log: ${exists(w.log)}${w.supervisorLog ? `; restarts: ${exists(w.supervisorLog)}` : ''}`,
  ];
}

export async function status(requireAll: boolean): Promise<boolean> {
  let ok = true;
  const rows = await Promise.all(
    checks().map(async (c) => {
      try {
        return { c, up: true, detail: await withTimeout(c.probe(), 8000, c.name) };
      } catch (e) {
        return { c, up: false, detail: e instanceof Error ? e.message.split('\n')[0] : String(e) };
      }
    }),
  );
  for (const { c, up, detail } of rows) {
    const state = up ? 'UP' : c.required || requireAll ? 'DOWN' : 'off';
    if (!up && (c.required || requireAll)) ok = false;
    console.log(`${c.name.padEnd(16)} ${state.padEnd(5)} ${c.address.padEnd(46)} ${detail}`);
    if (!up) console.log(`${''.padEnd(22)}log: ${c.log}`);
  }
  const workers = workerRows(loadConfig().DEBUGRL_DATA_DIR);
  if (!workers.length) console.log(`${'workers'.padEnd(16)} ${(requireAll ? 'DOWN' : 'off').padEnd(5)} none started (infra/workers starts them)`);
  if (requireAll && !workers.length) ok = false;
  for (const w of workers) {
    for (const line of formatWorker(w)) console.log(line);
    if (!w.up && requireAll) ok = false;
  }
  return ok;
}

if (require.main === module) {
  status(process.argv.includes('--require-all')).then(
    (ok) => process.exit(ok ? 0 : 1),
    (err: unknown) => {
      console.error(String(err));
      process.exit(1);
    },
  );
}
