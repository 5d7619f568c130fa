/** `npx debugrl report <evaluation-id> [--out <dir>]`: recompute an evaluation's report from its stored trajectories
 * (PostgreSQL) and write report.html, report.md and report.json. */
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { loadEvaluation, reportEvaluation } from '../../activities/evaluation';
import { loadConfig } from '../../common/config';

export const summary = 'recompute an evaluation report from the stored trajectories';

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string' } } });
  } catch (e) {
    console.error(`debugrl report: ${(e as Error).message}\nusage: npx debugrl report <evaluation-id> [--out <dir>]`);
    return 2;
  }
  if (parsed.positionals.length !== 1) {
    console.error('usage: npx debugrl report <evaluation-id> [--out <dir>]');
    return 2;
  }
  const id = parsed.positionals[0];
  const pool = new Pool({ connectionString: loadConfig().DEBUGRL_DATABASE_URL });
  try {
    const ev = await loadEvaluation(pool, id);
    const { report, files } = await reportEvaluation(pool, id, ev.input.k, ev.arms, parsed.values.out);
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
