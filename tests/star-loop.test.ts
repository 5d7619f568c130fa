/** StarLoopWorkflow on real services: one generation with the oracle teacher on two tasks and the embedded SmolLM2 on
 * a third. Temporal (its child evaluations and SftWorkflow, the gpu queue served by an in-process learner worker),
 * PostgreSQL and Kafka (the episodes), bubblewrap and pdb (the oracle's harness, with the debugger tools), the learner
 * service (LoRA on SmolLM2, CPU) and the embedded server at 8765 (the new adapter). Kept small: starter tasks (one short
 * module each, so the oracle's debugger trajectories are short and the SFT epoch is cheap; the loop does not care which
 * split its task ids come from), 1 episode per task, 1 epoch, a 3-turn cap on validation. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ServiceError, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { createSftTrainActivities } from '../activities/learner';
import { loadConfig } from '../common/config';
import type { StarProgress, StarResult } from '../common/star';
import { starProgressQuery, StarLoopWorkflow } from '../workflows/star-loop';
import { inProcessWorkers, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime, temporalClient, workerConnection } from './helpers/services';

const config = loadConfig();
const TRAIN = ['starter_clamp', 'starter_mean'];
const VALIDATION = ['starter_evens'];

/** The workflow's result. On a loaded machine the server can miss the client's long-poll deadline while the workflow
 * is still running; that is the client's wait, not the workflow, so it waits again. */
async function resultOf<T>(h: WorkflowHandle): Promise<T> {
  for (;;) {
    try {
      return (await h.result()) as T;
    } catch (e) {
      if (e instanceof ServiceError && (e.cause as { code?: number } | undefined)?.code === 4) continue; // DEADLINE_EXCEEDED
      throw e;
    }
  }
}

describe('StarLoopWorkflow (oracle teacher, embedded SmolLM2, real services)', () => {
  let w: InProcessWorkers;
  let gpu: Worker;
  let gpuRun: Promise<void>;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('star', config);
    gpu = await Worker.create({ connection: await workerConnection(), taskQueue: `${w.taskQueue}-gpu`, activities: createSftTrainActivities({ config }), maxConcurrentActivityTaskExecutions: 1 });
    gpuRun = gpu.run();
  });
  afterAll(async () => {
    gpu.shutdown();
    await gpuRun;
    await w.close();
  }, 600_000);

  it('runs one generation: teacher episodes, a gated corpus with provenance, SFT, validation, and the keep rule', async () => {
    const { client, connection } = await temporalClient();
    const loopId = `star-test-${Date.now()}`;
    try {
      const handle = await client.workflow.start(StarLoopWorkflow, {
        taskQueue: w.taskQueue,
        workflowId: loopId,
        args: [
          {
            generations: 1,
            teacher: 'oracle',
            episodesPerTask: 1,
            trainTaskIds: TRAIN,
            validationTaskIds: VALIDATION,
            limits: { maxTurns: 40 },
            validationLimits: { maxTurns: 3, maxNewTokens: 128 },
            concurrency: 2,
            build: { perTaskCap: 1, heldOutFraction: 0, microskills: false },
            sft: { epochs: 1, lr: 1e-4, warmupSteps: 0, batchExamples: 1, loraRank: 4 }, // one trajectory per step: both in one microbatch took 11 GB and was once OOM-killed on a loaded 23 GB box
            learnerTaskQueue: `${w.taskQueue}-gpu`,
          },
        ],
      });
      let seen: StarProgress | undefined;
      for (let i = 0; i < 100 && !seen; i++) {
        seen = await handle.query(starProgressQuery).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(seen).toMatchObject({ loopId, best: { policy: 'embedded', adapter: null }, stopped: null });
      expect(['baseline', 'train-eval']).toContain(seen!.phase);

      const r = await w.run(resultOf<StarResult>(handle));
      expect(r.generations).toHaveLength(1);
      expect(r.baseline).toMatchObject({ policy: 'embedded', evaluationId: `${loopId}-baseline-val-eval` });
      const [g] = r.generations;
      expect(g).toMatchObject({ generation: 0, trainPolicy: 'oracle', trainEvaluationId: `${loopId}-g0-train-eval` });
      // every passing oracle episode that no filter rejected is in the corpus (one per task, the cap), all from generation 0
      const passed = await w.deps.pool.query(`select 1 from episodes where evaluation_id = $1 and (record->'outcome'->>'passed')::boolean`, [g!.trainEvaluationId]);
      expect(g!.trainPassAt1).toBe(passed.rowCount! / TRAIN.length);
      expect(g!.corpus!.candidates).toBe(TRAIN.length);
      const rejected = Object.values(g!.corpus!.rejections).reduce((a, n) => a + n, 0);
      expect(g!.corpus!.bySource).toEqual({ 'oracle (generation 0, trajectory)': passed.rowCount! - rejected });
      expect(g!.corpus!.added).toBe(g!.corpus!.examples);
      const examples = fs.readFileSync(path.join(g!.corpus!.outDir!, 'examples.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(examples).toHaveLength(g!.corpus!.examples);
      for (const e of examples) expect(e.provenance).toMatchObject({ policy: 'oracle', generation: 0, evaluationId: `${loopId}-g0-train-eval` });
      // SFT published an adapter, which ran on validation under its own name
      expect(g!.sft).toMatchObject({ workflowId: `${loopId}-g0-sft`, chosenEpoch: 1, adapter: expect.stringMatching(/^sft-v\d+$/) });
      expect(fs.existsSync(path.join(g!.sft!.adapterPath!, 'adapter_model.safetensors'))).toBe(true);
      expect(g!.validationEvaluationId).toBe(`${loopId}-g0-val-eval`);
      const val = await w.deps.pool.query<{ policy: string }>(`select record->'policy'->>'spec' as policy from episodes where evaluation_id = $1`, [g!.validationEvaluationId]);
      expect(val.rows.map((x) => x.policy)).toEqual([`embedded:${g!.sft!.adapter}`]);
      // the keep rule, whichever way a 135M model moves: kept exactly when validation pass@1 beat the baseline
      expect(g!.bestBefore).toBe(r.baseline.passAt1);
      const better = g!.validationPassAt1! > r.baseline.passAt1!;
      expect(g!.kept).toBe(better);
      expect(r.best.adapter).toBe(better ? g!.sft!.adapter : null);
      expect(r.stopped).toBe(better ? 'generations' : 'no-improvement');

      // the report: corpus per source, rejections, validation pass@1 and debugger use, per generation
      const report = JSON.parse(fs.readFileSync(r.report.json, 'utf8'));
      expect(report).toMatchObject({ schema: 'debugrl.star-report/v1', loopId, stopped: r.stopped });
      expect(report.generations[0].corpus.bySource).toEqual(g!.corpus!.bySource);
      expect(report.generations[0].validation).toMatchObject({ episodes: 1, commandErrors: expect.any(Number), breakpointsNeverHit: expect.any(Number) });
      expect(report.baseline.validation).toMatchObject({ episodes: 1 });
      const md = fs.readFileSync(r.report.markdown, 'utf8');
      expect(md).toContain('| oracle (generation 0, trajectory) |');
      expect(md).toContain('## Debugger use on validation');
      expect(fs.readFileSync(r.report.html, 'utf8')).toContain('<svg');

      // each step is its own workflow in the Temporal UI, tagged with the loop and generation
      const child = await client.workflow.getHandle(`${loopId}-g0-train-eval`).describe();
      expect(child.memo).toMatchObject({ starLoop: loopId, starGeneration: 0, starRole: 'train-eval' });
      expect((await handle.describe()).memo).toMatchObject({ starPhase: 'finished', bestPolicy: r.best.policy });
      console.log(`STAR_TEST_WORKFLOW_ID=${loopId}`);
    } finally {
      await connection.close();
    }
  }, 1_500_000);

  it('fails an invalid input at once, non-retryably, naming the field', async () => {
    const { client, connection } = await temporalClient();
    try {
      const err = await w
        .run(client.workflow.execute(StarLoopWorkflow, { taskQueue: w.taskQueue, workflowId: `star-bad-${Date.now()}`, args: [{ generations: 0, teacher: 'nonsense', init: 'middle' }] }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      const cause = (err as WorkflowFailedError).cause as { message: string; type?: string; nonRetryable?: boolean };
      expect(cause).toMatchObject({ type: 'InvalidInput', nonRetryable: true });
      expect(cause.message).toMatch(/^invalid StarLoopWorkflow input: /);
      expect(cause.message).toMatch(/generations: /);
      expect(cause.message).toMatch(/teacher: unknown policy "nonsense"/);
      expect(cause.message).toMatch(/init: /);
    } finally {
      await connection.close();
    }
  });
});
