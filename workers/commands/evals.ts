/** `npx debugrl evals`: the stored evaluations, newest first. */
import type { Command } from 'commander';
import { Pool } from 'pg';
import { loadConfig } from '../../common/config';
import { pgConnectionString } from '../../common/connections';
import { action, intOption } from '../cli-kit';
import { listEvaluations } from '../viewer/store';

const pct = (v: unknown) => (typeof v === 'number' ? `${(100 * v).toFixed(1)}%` : 'n/a');

async function run(o: { limit: number; json?: boolean }): Promise<number> {
  const pool = new Pool({ connectionString: pgConnectionString(loadConfig()), max: 1 });
  try {
    const rows = await listEvaluations(pool, o.limit);
    if (o.json) {
      console.log(JSON.stringify(rows, null, 2));
      return 0;
    }
    if (!rows.length) console.log('no evaluations yet');
    for (const e of rows) {
      const arms = (e.arms ?? []).map((a) => `${a.arm.label}: pass@1 ${pct(a.summary.passAt1)} pass@k ${pct(a.summary.passAtK)}`).join('; ') || 'running';
      console.log(`${e.evaluationId}  ${new Date(e.startedAt).toISOString().slice(0, 16)}  ${String(e.input.split ?? 'tasks')} n=${String(e.input.episodesPerTask ?? '')}  ${arms}`);
    }
    return 0;
  } finally {
    await pool.end();
  }
}

export function register(program: Command): void {
  program
    .command('evals')
    .summary('list the stored evaluations')
    .option('--limit <n>', 'how many, newest first', intOption('--limit', 1, 10000), 50)
    .option('--json', 'print JSON')
    .action(action(run));
}
