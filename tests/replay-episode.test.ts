/** Replay both ways: a stored episode re-executed in a fresh sandbox, and its workflow history replayed against the
 * current code through the CLI (real services). */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { TrajectoryRecord } from '../common/trajectory';
import { EpisodeWorkflow } from '../workflows/episode';
import { loadConfig } from '../common/config';
import { harnessEnv } from '../harness/env';
import { loadRecord, normalizeObservation, replayEpisode } from '../workers/replay-episode';
import { FIXTURE_TASKS, fixCalls, inProcessWorkers, writeScript, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime, temporalClient } from './helpers/services';

const ROOT = path.resolve(__dirname, '..');
const TASK = 'shared_default_tags';

describe('replay of a stored episode', () => {
  let w: InProcessWorkers;
  let workflowId: string;
  let record: TrajectoryRecord;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('replay-test');
    const script = writeScript([
      { name: 'run_tests', arguments: {} },
      { name: 'read_file', arguments: { path: 'articles.py' } },
      { name: 'start_debugger', arguments: { test_file: 'test_articles.py', test_name: 'test_new_articles_start_untagged' } },
      { name: 'where_am_i', arguments: {} },
      ...fixCalls(path.join(FIXTURE_TASKS, TASK)),
      { name: 'run_tests', arguments: {} },
      { name: 'done', arguments: {} },
    ]);
    workflowId = `replay-test-${Date.now()}`;
    const { client, connection } = await temporalClient();
    try {
      const result = await w.run(client.workflow.execute(EpisodeWorkflow, { taskQueue: w.taskQueue, workflowId, args: [{ taskId: TASK, policy: `scripted:${script}` }] }));
      expect(result.passed).toBe(true);
      record = await loadRecord(w.deps.pool, result.episodeId);
    } finally {
      await connection.close();
    }
  }, 120_000);
  afterAll(async () => w.close());

  it('re-executes the tool calls and finds the same observations and grade', async () => {
    const report = await replayEpisode(record, harnessEnv(loadConfig({ ...process.env, DEBUGRL_TASKS_DIR: FIXTURE_TASKS })));
    expect(report.compared).toBe(7);
    expect(report.diffs).toEqual([]);
    expect(report.grade).toEqual({ stored: true, replayed: true });
  }, 120_000);

  it('reports an observation that differs', async () => {
    const tampered = structuredClone(record);
    tampered.turns[1].tool!.output = tampered.turns[1].tool!.output.replace('class', 'klass');
    const report = await replayEpisode(tampered, harnessEnv(loadConfig({ ...process.env, DEBUGRL_TASKS_DIR: FIXTURE_TASKS })));
    expect(report.diffs).toHaveLength(1);
    expect(report.diffs[0]).toMatchObject({ turn: 2, tool: 'read_file' });
    expect(report.diffs[0].stored).toMatch(/klass/);
  }, 120_000);

  it('replays the workflow history through the CLI without determinism errors', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'lib/workers/cli.js'), 'replay', '--workflow', workflowId], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ workflowId, deterministic: true });
  }, 120_000);

  it('normalises volatile details only', () => {
    expect(normalizeObservation('1 failed in 0.03s at 0x7f12ab34cd56')).toBe('1 failed in <t> at 0x…');
    expect(normalizeObservation('x = 1')).toBe('x = 1');
  });
});
