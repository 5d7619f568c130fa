/** Measured difficulty: counting episodes into solve rates, merging calibrations, the curriculum's prior, the stats
 * comparison, and `tasks calibrate` against real PostgreSQL rows. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';
import { loadConfig } from '../common/config';
import { emptyCalibration, loadCalibration, measure, mergeCalibration, solveRatePrior, type EpisodeRow } from '../taskset/calibration';
import { corpusStats, formatStats } from '../taskset/stats';
import { calibrateCommand } from '../workers/commands/tasks';

const FIXTURES = path.join(__dirname, 'fixtures', 'bad-tasks');
const NOW = new Date('2026-12-01T00:00:00Z');
const row = (task_id: string, passed: boolean, policy_spec = 'embedded', evaluation_id = 'ev1', toolset = 'debugger'): EpisodeRow => ({ task_id, policy_spec, toolset, evaluation_id, passed });

describe('measure and merge', () => {
  it('pools episodes per task, policy and tool set over evaluations', () => {
    const m = measure([row('a', true), row('a', false, 'embedded', 'ev2'), row('a', false), row('a', true, 'openai:big'), row('b', false)], NOW);
    expect(m.get('a')).toEqual([
      // 1 pass in 3 embedded episodes across ev1 and ev2.
      { policy: 'embedded', toolset: 'debugger', evaluation_ids: ['ev1', 'ev2'], episodes: 3, passed: 1, solve_rate: 1 / 3, measured_at: NOW.toISOString() },
      { policy: 'openai:big', toolset: 'debugger', evaluation_ids: ['ev1'], episodes: 1, passed: 1, solve_rate: 1, measured_at: NOW.toISOString() },
    ]);
    expect(m.get('b')![0]!.solve_rate).toBe(0);
  });

  it('replaces only the same policy and tool set when calibrating again', () => {
    const first = mergeCalibration(emptyCalibration(), measure([row('a', true), row('a', true, 'openai:big')], NOW));
    const second = mergeCalibration(first, measure([row('a', false, 'embedded', 'ev9')], NOW));
    const ms = second.tasks.a!.measurements;
    expect(ms.map((m) => [m.policy, m.evaluation_ids, m.solve_rate])).toEqual([
      ['openai:big', ['ev1'], 1],
      ['embedded', ['ev9'], 0],
    ]);
    expect(first.tasks.a!.measurements).toHaveLength(2); // merge does not mutate its input
  });
});

describe('solveRatePrior', () => {
  it('is the declared guess with no measurement and moves toward the measured rate with episodes', () => {
    const c = mergeCalibration(emptyCalibration(), measure([...Array(4)].map(() => row('t', true)), NOW));
    expect(solveRatePrior(c, { id: 'none', difficulty: 'hard' })).toBe(0.15);
    // (0.15 * 4 + 1 * 4) / (4 + 4) = 4.6 / 8 = 0.575
    expect(solveRatePrior(c, { id: 't', difficulty: 'hard' })).toBeCloseTo(0.575, 10);
    expect(solveRatePrior(c, { id: 't', difficulty: 'hard' }, { policy: 'openai:big' })).toBe(0.15);
  });
});

describe('stats with a calibration', () => {
  it('compares declared difficulty with measured solve rates', () => {
    const c = mergeCalibration(emptyCalibration(), measure([row('valid_control', true), row('valid_control', false)], NOW));
    const s = corpusStats([path.join(FIXTURES, 'valid_control'), path.join(FIXTURES, 'fails_nothing')], c);
    expect(s.difficultyVsMeasured.easy).toEqual({ tasks: 2, measured: 1, episodes: 2, meanSolveRate: 0.5 });
    expect(s.calibrationPolicies).toEqual(['embedded (debugger)']);
    expect(formatStats(s)).toMatch(/easy\s+2 tasks,\s+1 measured, mean solve rate 0\.50 over 2 episodes/);
  });
});

describe('tasks calibrate (PostgreSQL)', () => {
  const pool = new Pool({ connectionString: loadConfig().DEBUGRL_DATABASE_URL });
  const evalId = `calib-test-${process.pid}-${Date.now().toString(36)}`;
  let tmp: string;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calib-'));
    const insert = (i: number, task: string, passed: boolean) =>
      pool.query(
        `insert into episodes (episode_id, workflow_id, task_id, split, policy_spec, toolset, evaluation_id, arm, passed, exit_reason, turns,
           prompt_tokens, completion_tokens, tests, record, started_at, finished_at)
         values ($1, $1, $2, 'train', 'scripted:fixture', 'debugger', $3, 'a', $4, 'done', 1, 1, 1, '{}', '{}', now(), now())`,
        [`${evalId}-${i}`, task, evalId, passed],
      );
    await insert(1, 'valid_control', true);
    await insert(2, 'valid_control', false);
    await insert(3, 'valid_control', true);
  });

  afterAll(async () => {
    await pool.query('delete from episodes where evaluation_id = $1', [evalId]);
    await pool.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('writes the solve rate of each task with its evaluation ids and policy', async () => {
    const file = path.join(tmp, 'calibration.json');
    const log = jest.spyOn(console, 'log').mockImplementation(() => {});
    const err = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await calibrateCommand({ from: [evalId], file }, pool)).toBe(0);
      expect(await calibrateCommand({ from: [`${evalId}-none`], file: path.join(tmp, 'other.json') }, pool)).toBe(1);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
    const c = loadCalibration(file);
    expect(c.tasks.valid_control!.measurements).toEqual([
      expect.objectContaining({ policy: 'scripted:fixture', toolset: 'debugger', evaluation_ids: [evalId], episodes: 3, passed: 2, solve_rate: 2 / 3 }),
    ]);
    expect(fs.existsSync(path.join(tmp, 'other.json'))).toBe(false);
  });
});
