/** The coordinator's controls on real services (embedded SmolLM2 rollouts, the real learner): setPoolSize validates its
 * argument and takes effect, pause and resume show in `progress`, and stop ends the run after the current step with
 * every committed step published. */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { LearnerHost } from '../activities/learner';
import type { TrainingProgress } from '../common/training';
import { learnerActivities } from '../workers/learner-worker';
import { pauseSignal, progressQuery, resumeSignal, setPoolSizeUpdate, stopSignal, TrainingRunWorkflow } from '../workflows/training-run';
import { fixtureConfig, inProcessWorkers, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime, temporalClient, workerConnection } from './helpers/services';

describe('TrainingRunWorkflow controls (real services)', () => {
  let w: InProcessWorkers;
  let host: LearnerHost;
  let gpu: Worker;
  let gpuRunning: Promise<void>;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('train-run');
    host = new LearnerHost(fixtureConfig);
    gpu = await Worker.create({ connection: await workerConnection(), taskQueue: `${w.taskQueue}-gpu`, activities: learnerActivities(w.deps, fixtureConfig, host), maxConcurrentActivityTaskExecutions: 1 });
    gpuRunning = gpu.run();
  });
  afterAll(async () => {
    gpu.shutdown();
    await gpuRunning;
    await host.close();
    await w.close();
  }, 300_000);

  it('pauses, resumes, resizes the pool and stops after the current step', async () => {
    const { client, connection } = await temporalClient();
    const runId = `train-run-${Date.now()}`;
    try {
      const handle = await client.workflow.start(TrainingRunWorkflow, {
        taskQueue: w.taskQueue,
        workflowId: runId,
        args: [{ runId, taskIds: ['shared_default_tags'], groupSize: 2, groupsPerStep: 1, steps: 5, poolSize: 1, highWater: 1, lowWater: 0, toolset: 'no-debugger',
          limits: { maxTurns: 1, maxNewTokens: 24 }, learner: { model: 'smollm2', loraRank: 2, klCoef: 0, maxTokens: 1200 }, learnerTaskQueue: `${w.taskQueue}-gpu` }],
      });
      const progress = () => handle.query(progressQuery);
      const refused = await handle.executeUpdate(setPoolSizeUpdate, { args: [0] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refused as WorkflowUpdateFailedError).cause?.message).toMatch(/setPoolSize: must be an integer from 1 to 1024, got 0/);
      expect(await handle.executeUpdate(setPoolSizeUpdate, { args: [2] })).toBe(2);
      while (!(await progress())) await new Promise((r) => setTimeout(r, 200)); // null until beginTrainingRun is done
      expect((await progress())?.poolSize).toBe(2);
      await handle.signal(pauseSignal);
      expect((await progress())?.phase).toBe('paused');
      await handle.signal(resumeSignal);
      expect((await progress())?.phase).toBe('running');

      let p: TrainingProgress | null = await progress();
      while ((p?.step ?? 0) < 1) {
        await new Promise((r) => setTimeout(r, 1000));
        p = await progress();
      }
      await handle.signal(stopSignal);
      const result = await w.run(handle.result());
      expect(result.steps).toBeGreaterThanOrEqual(1);
      expect(result.steps).toBeLessThan(5);
      expect(result.version).toBe(result.steps);
      const steps = await w.deps.pool.query('select count(*)::int as n from training_steps where run_id = $1', [runId]);
      expect(steps.rows[0].n).toBe(result.steps);
    } finally {
      await connection.close();
    }
  }, 1_200_000);
});
