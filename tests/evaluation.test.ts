/** End to end: an EvaluationWorkflow with the scripted policy over 3 tasks, with and without the debugger tools, on the
 * real Temporal, PostgreSQL, Kafka, bubblewrap and pdb; then the report, recomputed by the CLI. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import type { EvaluationProgress } from '../common/evaluation';
import { EvaluationWorkflow, progressQuery } from '../workflows/evaluation';
import { FIXTURE_TASKS, fixCalls, inProcessWorkers, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime, temporalClient } from './helpers/services';

const ROOT = path.resolve(__dirname, '..');

/** One script per task: two tasks get fixed (one after using the debugger), one is never edited. */
function scriptsDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-eval-scripts-'));
  const write = (task: string, calls: unknown[]) => fs.writeFileSync(path.join(dir, `${task}.jsonl`), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
  write('shared_default_tags', [{ name: 'run_tests', arguments: {} }, ...fixCalls(path.join(FIXTURE_TASKS, 'shared_default_tags')), { name: 'done', arguments: {} }]);
  write('nested_copy_alias', [
    { name: 'start_debugger', arguments: { test_file: 'test_settings.py', test_name: 'test_clone_is_independent' } },
    { name: 'where_am_i', arguments: {} },
    ...fixCalls(path.join(FIXTURE_TASKS, 'nested_copy_alias')),
    { name: 'run_tests', arguments: {} },
    { name: 'done', arguments: {} },
  ]);
  write('reentrant_lock_hang', [{ name: 'run_tests', arguments: {} }, { name: 'done', arguments: {} }]);
  return dir;
}

describe('EvaluationWorkflow end to end (scripted policy, 3 tasks, real services)', () => {
  let w: InProcessWorkers;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('eval-test');
  });
  afterAll(async () => w.close());

  it('runs n episodes per task and arm, aggregates pass@k and debugger use, and writes a report the CLI can recompute', async () => {
    const { client, connection } = await temporalClient();
    const evaluationId = `eval-test-${Date.now()}`;
    try {
      const handle = await client.workflow.start(EvaluationWorkflow, {
        taskQueue: w.taskQueue,
        workflowId: evaluationId,
        args: [{ policy: `scripted:${scriptsDir()}`, taskIds: ['nested_copy_alias', 'reentrant_lock_hang', 'shared_default_tags'], episodesPerTask: 2, k: 2, toolset: 'both', concurrency: 3 }],
      });
      let seen: EvaluationProgress | undefined;
      for (let i = 0; i < 100 && !seen?.total; i++) {
        seen = await handle.query(progressQuery).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(seen).toMatchObject({ evaluationId, total: 12 });

      const result = await w.run(handle.result());
      expect(result.failedEpisodes).toBe(0);
      const [full, bare] = result.arms;
      expect(full).toMatchObject({ toolset: 'full', episodes: 6 });
      expect(bare).toMatchObject({ toolset: 'no-debugger', episodes: 6 });
      // full: shared_default_tags 2/2, nested_copy_alias 2/2, reentrant_lock_hang 0/2 → pass@1 = pass@2 = 2/3
      expect(full.passAt1).toBeCloseTo(2 / 3, 9);
      expect(full.passAtK).toBeCloseTo(2 / 3, 9);
      // no debugger tools: the nested_copy_alias script still edits after two refused debugger calls, so it passes too
      expect(bare.passAt1).toBeCloseTo(2 / 3, 9);

      const report = JSON.parse(fs.readFileSync(path.join(result.reportDir, 'report.json'), 'utf8'));
      const fullSummary = report.arms[0].summary;
      expect(fullSummary.debugger).toMatchObject({ shareOpened: 2 / 6, medianFirstTurn: 1, episodesWithInspection: 2, inspectionToEdit: 1 });
      expect(fullSummary.failures).toMatchObject({ never_edited: 2 });
      // Without debugger tools the two debugger calls are unknown tools, not debugger command errors.
      expect(report.arms[1].summary.debugger).toMatchObject({ commandErrors: 0, shareOpened: 0 });
      expect(report.arms[0].summary.debugger.commandErrors).toBe(0);
      expect(report.toolsetComparisons).toHaveLength(1);
      // The run's configuration heads the report, and every episode has a row.
      expect(report.config).toMatchObject({ episodesPerTask: 2, toolset: 'both', limits: { maxTurns: 50 } });
      expect(report.episodes).toHaveLength(12);
      expect(report.toolsetComparisons[0].perTask.find((t: { taskId: string }) => t.taskId === 'nested_copy_alias')).toMatchObject({ openedDebugger: true });

      const html = fs.readFileSync(path.join(result.reportDir, 'report.html'), 'utf8');
      expect(html).toContain('<svg');
      expect(html).not.toMatch(/<script|<link|src="http|href="http/); // viewing it needs no network
      expect(fs.readFileSync(path.join(result.reportDir, 'report.md'), 'utf8')).toContain('| pass@2 | 66.7% | 66.7% |');

      // Every number can be recomputed from the stored trajectories.
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-report-'));
      const r = spawnSync(process.execPath, [path.join(ROOT, 'lib/workers/cli.js'), 'report', evaluationId, '--out', out], {
        encoding: 'utf8',
        timeout: 60_000,
        // The same task folder the workers graded against: the report reads each task's failing tests from it.
        env: { ...process.env, DEBUGRL_TASKS_DIR: FIXTURE_TASKS },
      });
      expect(r.status).toBe(0);
      const again = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
      expect(again.arms).toEqual(report.arms);
    } finally {
      await connection.close();
    }
  }, 300_000);

  it('rejects n < k with a clear error', async () => {
    const { client, connection } = await temporalClient();
    try {
      const err = await w
        .run(client.workflow.execute(EvaluationWorkflow, { taskQueue: w.taskQueue, workflowId: `eval-bad-${Date.now()}`, args: [{ policy: 'embedded', split: 'test', episodesPerTask: 2, k: 3 }] }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect((err as WorkflowFailedError).cause?.message).toMatch(/episodesPerTask: pass@3 needs at least 3 episodes per task, got 2/);
    } finally {
      await connection.close();
    }
  });
});
