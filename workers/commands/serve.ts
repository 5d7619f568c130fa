/** `npx debugrl serve`: the local rollout viewer (workers/viewer/), reading PostgreSQL read-only and the report files. */
import { serve } from '@hono/node-server';
import type { Command } from 'commander';
import { Pool } from 'pg';
import { loadConfig } from '../../common/config';
import { pgConnectionString } from '../../common/connections';
import { action, intOption } from '../cli-kit';
import { createViewer } from '../viewer/server';

async function run(o: { host: string; port: number; temporalUi: string }): Promise<number> {
  const config = loadConfig();
  const pool = new Pool({ connectionString: pgConnectionString(config), max: 4, connectionTimeoutMillis: 5000 });
  // A PostgreSQL restart must not kill the viewer: an idle client's error is logged, and the next page reconnects.
  pool.on('error', (e) => console.error(`viewer: PostgreSQL connection lost (${e.message}); pages reconnect on the next request`));
  const app = createViewer({ pool, tasksDir: config.DEBUGRL_TASKS_DIR, temporalUi: o.temporalUi, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });
  const server = serve({ fetch: app.fetch, hostname: o.host, port: o.port });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  console.log(`debugrl viewer on http://${o.host}:${o.port} (Ctrl-C stops it)`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await pool.end();
  return 0;
}

export function register(program: Command): void {
  program
    .command('serve')
    .summary('serve the local rollout viewer (evaluations, episodes turn by turn, comparisons, training runs)')
    .description('A local web viewer over the stored evaluations, episodes and training runs. It only reads PostgreSQL.')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on', intOption('--port', 1, 65535), 8300)
    .option('--temporal-ui <url>', 'the Temporal UI, for links to workflows', 'http://127.0.0.1:8233')
    .action(action(run));
}
