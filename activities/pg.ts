/** PostgreSQL access shared by activities and tools: a pool that survives a server restart, and a transaction helper.
 *
 * node-postgres emits 'error' on an idle pooled client (and on a checked-out client between queries) when the server
 * goes away, for example "Connection terminated unexpectedly" after `pg_ctl -m immediate stop`. An 'error' event with
 * no listener kills the process, so every pool made here listens on the pool and on each client it creates. The broken
 * client is dropped by the pool; the activity that was using it fails its query, and Temporal retries it. */
import { Pool, type PoolClient, type PoolConfig } from 'pg';

export type PgErrorLog = (message: string) => void;

const defaultLog: PgErrorLog = (m) => console.error(`[pg] ${m}`);

export function makePool(connectionString: string, options: Omit<PoolConfig, 'connectionString'> = {}, log: PgErrorLog = defaultLog): Pool {
  const pool = new Pool({
    connectionString,
    // While the server is down a checkout fails after this long instead of waiting for the activity's timeout.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    ...options,
  });
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
