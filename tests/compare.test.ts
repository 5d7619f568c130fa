/** The comparison behind the viewer's /compare page and `npx debugrl compare` (workers/viewer/compare.ts), on two
 * evaluations stored in the real PostgreSQL under ids of their own: per-task counts, the paired pass@1 difference,
 * the one-line summary with each run's behaviour numbers, and the built CLI's output and exit status (after `npx tsc`). */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { Pool } from 'pg';
import { compareEvaluations, comparisonLine } from '../workers/viewer/compare';
import { config } from './helpers/services';

const ROOT = path.resolve(__dirname, '..');
const stamp = `cmp-test-${process.pid}-${Date.now().toString(36)}`;
const A = `${stamp}-a`;
const B = `${stamp}-b`;

/** Solved / episodes per task: A solves 0/2, 1/2, 0/2; B solves 2/2, 1/2, 0/2. */
const SOLVED: Record<string, [number, number]> = { alpha_task: [0, 2], beta_task: [1, 1], gamma_task: [0, 0] };

async function store(pool: Pool, id: string, which: 0 | 1, summary: Record<string, unknown>): Promise<void> {
  await pool.query(`insert into evaluations (evaluation_id, workflow_id, input, summary) values ($1, $1, $2, $3)`, [id, JSON.stringify({ k: 1, episodesPerTask: 2 }), JSON.stringify([{ arm: { label: 'embedded', policy: 'embedded', toolset: 'full' }, summary }])]);
  for (const [task, solved] of Object.entries(SOLVED)) {
    for (const i of [0, 1]) {
      await pool.query(
        `insert into episodes (episode_id, workflow_id, task_id, split, policy_spec, toolset, evaluation_id, arm, passed, exit_reason, turns, prompt_tokens, completion_tokens, tests, record, started_at, finished_at)
         values ($1, $1, $2, 'validation', 'embedded', 'full', $3, 'embedded', $4, 'done', $5, 0, 0, '{}', '{}', now(), now())`,
        [`${id}.${task}.${i}`, task, id, i < solved[which], 4 + 2 * i],
      );
    }
  }
}

describe('comparing two evaluations (real PostgreSQL)', () => {
  const pool = new Pool({ connectionString: config.DEBUGRL_DATABASE_URL, max: 2 });
  beforeAll(async () => {
    await store(pool, A, 0, { episodes: 6, passAt1: 1 / 6, turns: { median: 8, shareAtCap: 1 }, debugger: { shareOpened: 0 }, failures: { guard_exit: 2 } });
    await store(pool, B, 1, { episodes: 6, passAt1: 0.5, turns: { median: 5, shareAtCap: 0.5 }, debugger: { shareOpened: 1 / 3 }, failures: { guard_exit: 0 } });
  });
  afterAll(async () => {
    await pool.query('delete from episodes where evaluation_id = any($1)', [[A, B]]);
    await pool.query('delete from evaluations where evaluation_id = any($1)', [[A, B]]);
    await pool.end();
  });

  it('pairs the tasks, estimates B minus A and names both runs’ behaviour in one line', async () => {
    const c = await compareEvaluations(pool, A, B);
    expect(c.rows.map((r) => [r.taskId, r.a?.c, r.b?.c, r.a?.n])).toEqual([['alpha_task', 0, 2, 2], ['beta_task', 1, 1, 2], ['gamma_task', 0, 0, 2]]);
    // pass@1: A (0 + 0.5 + 0) / 3 = 1/6, B (1 + 0.5 + 0) / 3 = 1/2; B - A = 1/3.
    expect(c.diff.p1.estimate).toBeCloseTo(1 / 3, 10);
    expect(c.diff.tasks).toBe(3);
    expect(comparisonLine(c)).toMatch(
      /^pass@1 17% -> 50% \(\+33\.3 pp, 95% CI [+-]\d+\.\d to \+\d+\.\d pp, 3 tasks\) · debugger opened 0% -> 33% · median turns 8 -> 5 · at the turn cap 100% -> 50% · guard exits 2 -> 0$/,
    );
  });

  it('prints the line from the CLI, and exits 2 naming an evaluation that does not exist', () => {
    const cli = (...args: string[]) => spawnSync('node', [path.join(ROOT, 'lib/workers/cli.js'), 'compare', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const ok = cli(A, B);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain(`${B} against ${A}: pass@1 17% -> 50% (+33.3 pp`);
    expect(ok.stdout).toContain('  alpha_task: solved 0/2 -> 2/2, median turns 5 -> 5');
    const missing = cli(A, `${stamp}-nope`);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`no evaluation with id "${stamp}-nope"`);
  }, 150_000);
});
