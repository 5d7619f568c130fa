/** `npx debugrl compare <a> <b>`: two stored evaluations, b against a, as the viewer's /compare page shows them
 * (workers/viewer/compare.ts): a one-line summary (pass@1 with its paired bootstrap interval, debugger use, turns,
 * guard exits), then one line per task. `--json` prints the comparison itself. */
import type { Command } from 'commander';
import { Pool } from 'pg';
import { loadConfig } from '../../common/config';
import { action } from '../cli-kit';
import { compareEvaluations, comparisonLine } from '../viewer/compare';
import { NotFound } from '../viewer/store';

const rate = (x?: { n: number; c: number }) => (x ? `${x.c}/${x.n}` : '-');

async function run(a: string, b: string, o: { json?: boolean; viewer: string }): Promise<number> {
  const pool = new Pool({ connectionString: loadConfig().DEBUGRL_DATABASE_URL, max: 2 });
  try {
    const c = await compareEvaluations(pool, a, b);
    if (o.json) {
      console.log(JSON.stringify({ a: a, b: b, line: comparisonLine(c), rows: c.rows, diff: c.diff }, null, 2));
      return 0;
    }
    console.log(`${b} against ${a}: ${comparisonLine(c)}`);
    for (const r of c.rows) console.log(`  ${r.taskId}: solved ${rate(r.a)} -> ${rate(r.b)}, median turns ${r.a?.medianTurns ?? '-'} -> ${r.b?.medianTurns ?? '-'}`);
    console.log(`side by side: ${o.viewer.replace(/\/$/, '')}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)} (npx debugrl serve)`);
    return 0;
  } catch (e) {
    if (e instanceof NotFound) {
      console.error(`debugrl compare: ${e.message}`);
      return 2;
    }
    throw e;
  } finally {
    await pool.end();
  }
}

export function register(program: Command): void {
  program
    .command('compare')
    .summary('compare two stored evaluations (pass@1 with a bootstrap interval, debugger use, turns)')
    .description('Evaluation <b> against <a> on the tasks both ran: the paired bootstrap difference in pass@1, behaviour numbers, and each task.')
    .argument('<a>', 'the baseline evaluation id')
    .argument('<b>', 'the evaluation compared with it')
    .option('--json', 'print JSON')
    .option('--viewer <url>', 'the viewer, for the side-by-side link', 'http://127.0.0.1:8300')
    .action(action(run));
}
