/** End to end on CPU: a TrainingRunWorkflow with the embedded SmolLM2 server, the real learner service (SmolLM2 +
 * LoRA), Temporal, Kafka, PostgreSQL and bubblewrap sandboxes. 2 tasks, groups of 4, 2 steps, one turn per episode
 * (the 2-core machine's budget). The policy version goes 0 -> 2; every turn of an episode started on a published
 * adapter records that adapter's version; at lag 0 the learner's recomputed logprobs match the stored ones. */
import { Worker } from '@temporalio/worker';
import { WorkflowFailedError } from '@temporalio/client';
import { LearnerHost } from '../activities/learner';
import type { TrainingProgress, StepResult } from '../common/training';
import { learnerActivities } from '../workers/learner-worker';
import { EpisodeWorkflow } from '../workflows/episode';
import { progressQuery, TrainingRunWorkflow } from '../workflows/training-run';
import { fixtureConfig, inProcessWorkers, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime, temporalClient, workerConnection } from './helpers/services';

/** Max |log rho| per token at lag 0 (see docs/deploy.md for the measurement): server and learner run the same float32
 * weights; they differ only in kernel order (KV-cached decoding against one packed forward). */
const LAG0_TOLERANCE = 2e-3;

describe('TrainingRunWorkflow end to end (embedded SmolLM2, real learner, real services)', () => {
  let w: InProcessWorkers;
  let host: LearnerHost;
  let gpuQueue: string;
  let gpu: Worker;
  let gpuRunning: Promise<void>;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('train-e2e');
    gpuQueue = `${w.taskQueue}-gpu`;
    host = new LearnerHost(fixtureConfig);
    gpu = await Worker.create({ connection: await workerConnection(), taskQueue: gpuQueue, activities: learnerActivities(w.deps, fixtureConfig, host), maxConcurrentActivityTaskExecutions: 1 });
    gpuRunning = gpu.run();
  });
  afterAll(async () => {
    gpu.shutdown();
    await gpuRunning;
    await host.close();
    await w.close();
  });

  it('rejects an invalid train input non-retryably, naming the field', async () => {
    const { client, connection } = await temporalClient();
    try {
      const handle = await client.workflow.start(TrainingRunWorkflow, { taskQueue: w.taskQueue, workflowId: `train-bad-${Date.now()}`, args: [{ steps: 2, groupSize: 4, minToSeal: 9 }] });
      const err = await handle.result().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect(String((err as WorkflowFailedError).cause?.message)).toMatch(/minToSeal: must be at most groupSize \(4\)/);
    } finally {
      await connection.close();
    }
  });

  it('trains two steps: version 0 -> 2, adapters served as published, lag-0 logprobs match', async () => {
    const { client, connection } = await temporalClient();
    const runId = `train-e2e-${Date.now()}`;
    try {
      const handle = await client.workflow.start(TrainingRunWorkflow, {
        taskQueue: w.taskQueue,
        workflowId: runId,
        args: [
          {
            runId,
            taskIds: ['shared_default_tags', 'nested_copy_alias'],
            groupSize: 4,
            groupsPerStep: 1,
            steps: 2,
            poolSize: 4,
            highWater: 1,
            lowWater: 0,
            toolset: 'no-debugger',
            limits: { maxTurns: 1, maxNewTokens: 32 },
            learner: { model: 'smollm2', loraRank: 4, lr: 1e-4, klCoef: 0, maxTokens: 1200, checkLogprobs: true },
            learnerTaskQueue: gpuQueue,
          },
        ],
      });
      let seen: TrainingProgress | undefined;
      for (let i = 0; i < 50 && !seen; i++) {
        seen = (await handle.query(progressQuery).catch(() => undefined)) ?? undefined;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(seen).toMatchObject({ runId, steps: 2, poolSize: 4 });

      const result = await w.run(handle.result());
      // Served under the run's own name, so another run's policy-v2 on the same server is never these weights.
      expect(result).toMatchObject({ runId, steps: 2, version: 2, policy: `embedded:${runId}--policy-v2` });
      expect(result.lastStep).toMatchObject({ step: 2, version: 2 }); // the workflow keeps the newest point only
      const points = await w.deps.pool.query('select point from training_points where run_id = $1 order by step', [runId]);
      expect(points.rows.map((r) => (r.point as { version: number }).version)).toEqual([1, 2]);

      const steps = (await w.deps.pool.query('select result from training_steps where run_id = $1 order by step', [runId])).rows.map((r) => r.result as StepResult);
      expect(steps.map((s) => [s.versionBefore, s.versionAfter])).toEqual([[0, 1], [1, 2]]);
      for (const s of steps) {
        expect(s.rejectedTrajectories).toEqual([]);
        expect(s.trainedGroups).toHaveLength(1);
      }
      // Step 1 trains only version-0 rollouts, at lag 0 against the learner.
      const lag0 = steps[0].lag0!;
      expect(lag0.tokens).toBeGreaterThan(0);
      console.log(`lag 0, step 1: mean |log rho| ${lag0.meanAbsLogRatio.toExponential(2)}, max ${lag0.maxAbsLogRatio.toExponential(2)} over ${lag0.tokens} tokens`);
      expect(lag0.maxAbsLogRatio).toBeLessThan(LAG0_TOLERANCE);

      // Each group was consumed exactly once; every episode's turns record the version its adapter was published as.
      // (Groups dropped for zero signal, common/zero-signal.ts, are stored but never consumed.)
      const groups = (await w.deps.pool.query("select consumed_step from training_groups where run_id = $1 and rejected_reason is distinct from 'zero-signal'", [runId])).rows;
      expect(groups.map((g) => g.consumed_step).sort()).toEqual([`${runId}:1`, `${runId}:2`]);
      const eps = (await w.deps.pool.query('select policy_spec, record from episodes where evaluation_id = $1', [runId])).rows;
      expect(eps.length).toBeGreaterThanOrEqual(8);
      for (const e of eps) {
        expect(e.policy_spec === 'embedded' || e.policy_spec.startsWith(`embedded:${runId}--policy-v`)).toBe(true);
        const want = e.policy_spec === 'embedded' ? 0 : Number(/policy-v(\d+)$/.exec(e.policy_spec)![1]);
        for (const t of e.record.turns) expect(t.assistant.policyVersion).toBe(want);
      }

      // After the last publication: a new episode on the run's policy-v2 is served by v2, and the learner (at v2) scores its
      // tokens as the server did: the lag-0 check on a trained, non-zero adapter.
      const ep = await client.workflow.execute(EpisodeWorkflow, {
        taskQueue: w.taskQueue,
        workflowId: `${runId}.after`,
        args: [{ taskId: 'shared_default_tags', policy: result.policy!, toolset: 'no-debugger', limits: { maxTurns: 1, maxNewTokens: 32 }, seed: 99 }],
      });
      const rec = (await w.deps.pool.query('select record from episodes where episode_id = $1', [ep.episodeId])).rows[0].record;
      const turn = rec.turns[0].assistant;
      expect(turn.policyVersion).toBe(2);
      const scored = await host.current()!.request({ type: 'score', sequences: [{ prompt_ids: turn.promptTokenIds, completion_ids: turn.tokenIds }] });
      expect(scored.policy_version).toBe(2);
      const diffs = (scored.logprobs as number[][])[0].map((lp, i) => Math.abs(lp - turn.logprobs[i]));
      const meanAbs = diffs.reduce((a, b) => a + b, 0) / diffs.length;
      console.log(`lag 0 at v2: mean |log rho| ${meanAbs.toExponential(2)}, max ${Math.max(...diffs).toExponential(2)} over ${diffs.length} tokens`);
      expect(Math.max(...diffs)).toBeLessThan(LAG0_TOLERANCE);
    } finally {
      await connection.close();
    }
  }, 900_000);
});
