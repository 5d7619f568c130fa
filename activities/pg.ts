/** PostgreSQL access shared by activities and tools: a pool that survives a server restart, and a transaction helper.
 *
 * node-postgres emits 'error' on an idle pooled client (and on a checked-out client between queries) when the server
 * goes away, for example "Connection terminated unexpectedly" after `pg_ctl -m immediate stop`. An 'error' event with
 * no listener kills the process, so every pool made here listens on the pool and on each client it creates. The broken
 * client is dropped by the pool; the activity that was using it fails its query, and Temporal retries it. New
 * checkouts wait out the restart itself (connection refused, "the database system is starting up") for a while, so a
 * short outage costs a delay rather than an activity attempt: activities with few attempts (a sandbox's grade) would
 * otherwise spend them all inside one restart. */
import { Pool, type PoolClient, type PoolConfig } from 'pg';

export type PgErrorLog = (message: string) => void;

const defaultLog: PgErrorLog = (m) => console.error(`[pg] ${m}`);

/** Errors of a connection attempt that a moment's wait can cure: the server is down, restarting, recovering from a
 * crash ("the database system is starting up") or full. A failed connect sent no query, so retrying it is always safe;
 * errors in the middle of a query are not retried here (the activity is). */
const TRANSIENT_CONNECT = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '53300']);

export function isTransientConnectError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return TRANSIENT_CONNECT.has(e?.code ?? '') || /timeout exceeded when trying to connect|Connection terminated/i.test(e?.message ?? '');
}

type ConnectCallback = (err: Error | undefined, client?: PoolClient, done?: (release?: unknown) => void) => void;

/** A pool whose checkouts (and so every pool.query) wait out a server restart for up to `connectRetryMs`. */
class RestartTolerantPool extends Pool {
  constructor(
    config: PoolConfig,
    private readonly connectRetryMs: number,
    // Not `log`: pg-pool uses this.log for its own debug lines.
    private readonly report: PgErrorLog,
  ) {
    super(config);
  }

  private async connectRetrying(): Promise<PoolClient> {
    const deadline = Date.now() + this.connectRetryMs;
    for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
      try {
        return await super.connect();
      } catch (err) {
        if (!isTransientConnectError(err) || Date.now() + wait > deadline || this.ending) throw err;
        this.report(`connect failed (${(err as Error).message}); retrying in ${wait} ms`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  override connect(): Promise<PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<PoolClient> | void {
    const p = this.connectRetrying();
    if (!callback) return p;
    p.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (err: Error) => callback(err),
    );
  }
}

export function makePool(
  connectionString: string,
  options: Omit<PoolConfig, 'connectionString'> = {},
  log: PgErrorLog = defaultLog,
  /** How long a checkout keeps trying while the server is unreachable or starting up. */
  connectRetryMs = 30_000,
): Pool {
  const pool = new RestartTolerantPool({
    connectionString,
    // While the server is down a checkout fails after this long instead of waiting for the activity's timeout.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    ...options,
  }, connectRetryMs, log);
  pool.on('error', (err) => log(`idle client lost: ${err.message}`));
  pool.on('connect', (client) => {
    client.on('error', (err) => log(`client lost: ${err.message}`));
  });
  return pool;
}

/** Run fn inside begin/commit on one client; roll back and rethrow on any error. */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => (broken = true));
    throw err;
  } finally {
    // A client whose connection broke must not go back to the pool.
    client.release(broken || undefined);
  }
}
