/** `npx debugrl compare <a> <b>`: two stored evaluations, b against a, as the viewer's /compare page shows them
 * (workers/viewer/compare.ts): a one-line summary (pass@1 with its paired bootstrap interval, debugger use, turns,
 * guard exits), then one line per task. `npx debugrl compare <a> <b> <c> …`: a Markdown table, one column per
 * evaluation, the first the reference (comparisonTable: the seed's Figure 4, e.g. base, SFT and RL). `--json` prints
 * the comparison or the table itself. */
import type { Command } from 'commander';
import { Pool } from 'pg';
import { loadConfig } from '../../common/config';
import { action } from '../cli-kit';
import { compareEvaluations, compareMany, comparisonLine, tableMarkdown } from '../viewer/compare';
import { NotFound } from '../viewer/store';

const rate = (x?: { n: number; c: number }) => (x ? `${x.c}/${x.n}` : '-');

async function run(a: string, b: string, more: string[], o: { json?: boolean; viewer: string }): Promise<number> {
  const pool = new Pool({ connectionString: loadConfig().DEBUGRL_DATABASE_URL, max: 2 });
  try {
    if (more.length) {
      const ids = [a, b, ...more];
      const t = await compareMany(pool, ids);
      console.log(o.json ? JSON.stringify(t, null, 2) : tableMarkdown(t));
      if (!o.json) console.log(`side by side: ${o.viewer.replace(/\/$/, '')}/compare?${ids.map((id, i) => `${'abcdefghij'[i] ?? `e${i}`}=${encodeURIComponent(id)}`).join('&')} (npx debugrl serve)`);
      return 0;
    }
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
    .summary('compare stored evaluations (pass@1 with a bootstrap interval, debugger use, turns; a table for three or more)')
    .description('Evaluation <b> against <a> on the tasks both ran: the paired bootstrap difference in pass@1, behaviour numbers, and each task. With more evaluations (e.g. base, SFT, RL): a table, one column each, with pass@1, pass@k, tasks solved at least once, debugger use, median turns, the failure taxonomy and pass@1 against <a> with its paired bootstrap 95% interval.')
    .argument('<a>', 'the baseline evaluation id (the reference column)')
    .argument('<b>', 'the evaluation compared with it')
    .argument('[more...]', 'further evaluations: print the side-by-side table')
    .option('--json', 'print JSON')
    .option('--viewer <url>', 'the viewer, for the side-by-side link', 'http://127.0.0.1:8300')
    .action(action(run));
}
