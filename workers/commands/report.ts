/** `npx debugrl report <evaluation-id> [--out <dir>]`: recompute an evaluation's report from its stored trajectories
 * (PostgreSQL) and write report.html, report.md and report.json. */
import type { Command } from 'commander';
import { Pool } from 'pg';
import { loadEvaluation, reportEvaluation } from '../../activities/evaluation';
import { loadConfig } from '../../common/config';
import { pgConnectionString } from '../../common/connections';
import { action } from '../cli-kit';

async function run(id: string, o: { out?: string }): Promise<number> {
  const config = loadConfig();
  const pool = new Pool({ connectionString: pgConnectionString(config) });
  try {
    const ev = await loadEvaluation(pool, id);
    const { report, files } = await reportEvaluation(pool, id, ev.input.k, ev.arms, o.out, config.DEBUGRL_TASKS_DIR);
    for (const a of report.arms) console.log(`${a.arm.label}: ${a.summary.episodes} episodes, pass@1 ${a.summary.passAt1?.toFixed(3) ?? 'n/a'}, pass@${report.k} ${a.summary.passAtK?.toFixed(3) ?? 'n/a'}`);
    console.log(`wrote ${files.html}\n      ${files.markdown}\n      ${files.json}`);
    return 0;
  } catch (e) {
    console.error(`debugrl report: ${(e as Error).message}`);
    return 1;
  } finally {
    await pool.end();
  }
}

export function register(program: Command): void {
  program
    .command('report')
    .summary('recompute an evaluation report from the stored trajectories')
    .description('Rebuild report.html, report.md and report.json for an evaluation from its trajectories in PostgreSQL.')
    .argument('<evaluation-id>')
    .option('--out <dir>', 'where to write the files (default reports/<evaluation-id>)')
    .action(action(run));
}
