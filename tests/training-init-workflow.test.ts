/**
 * TrainingRunWorkflow from an init adapter, with fake activities and children (the bundle of training-run-fast): the
 * init adapter is prepared and published as version 0 under the run's scoped name before any episode starts, the
 * episodes at v0 ask for it, every step gets the init adapter and the BC replay settings and records the BC loss, a
 * resumed run past step 0 publishes nothing again, and a run without an init adapter is unchanged.
 */
import * as path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import * as searchAttributes from '../common/search-attributes';
import type { GroupEpisode, StepPoint, StepResult, TrainingRunInput } from '../common/training';
import type { FakeEpisodePlan } from './helpers/training-fake-workflows';

const ROOT = path.resolve(__dirname, '..');
const TASKS = [{ id: 'task_alpha', debuggerPreference: 'recommended' as const }];
type Event = { kind: string; detail: unknown };
const events = new Map<string, Event[]>();
const resumeAt = new Map<string, number>();
const runOf = (id: string) => id.slice(0, id.indexOf('.'));
const log = (run: string, kind: string, detail: unknown) => events.get(run)!.push({ kind, detail });

const activities = {
  async beginTrainingRun(input: { runId: string }) {
    const step = resumeAt.get(input.runId) ?? 0;
    log(input.runId, 'begin', step);
    return { step, version: step, queued: [], groupSeq: 0, tasks: TASKS };
  },
  async prepareInitialPolicy(input: { runId: string; initAdapter: string; bcWeight?: number }) {
    log(input.runId, 'prepare', input);
    return { version: 0, adapterPath: `/data/training/${input.runId}/adapters/v0` };
  },
  async publishAdapter(input: { runId: string; version: number; name?: string; adapterPath: string }) {
    log(input.runId, 'publish', { version: input.version, name: input.name, adapterPath: input.adapterPath });
    return { adapter: input.name, version: input.version, canary: { tokens: 0, maxAbsDiff: 0, tolerance: 0 }, unloaded: [] };
  },
  async planEpisode(input: { workflowId: string; policy: string }): Promise<FakeEpisodePlan> {
    log(runOf(input.workflowId), 'episode', input.policy);
    return { exitReason: 'done', delayMs: 0 };
  },
  async planEvaluation() {
    return { passAt1: 0 };
  },
  async scoreEpisode(input: { episodeId: string }): Promise<{ scorable: boolean; episode: GroupEpisode }> {
    const k = Number(/\.e(\d+)$/.exec(input.episodeId)![1]);
    return { scorable: true, episode: { episodeId: input.episodeId, reward: k % 2 ? -1 : 1, components: {}, passed: k % 2 === 0, usedDebugger: true, minPolicyVersion: 0 } };
  },
  async sealGroup(input: { runId: string; groupId: string }) {
    return { groupId: input.groupId };
  },
  async trainStep(input: { runId: string; step: number; initAdapter?: string; bc?: unknown }): Promise<StepResult> {
    log(input.runId, 'train', { step: input.step, initAdapter: input.initAdapter, bc: input.bc });
    const groups = events.get(input.runId)!.filter((e) => e.kind === 'train').length;
    return {
      stepId: `${input.runId}:${input.step}`, step: input.step, versionBefore: input.step - 1, versionAfter: input.step, adapterPath: `/adapters/v${input.step}`,
      trainedGroups: [`${input.runId}.g${groups}`], rejectedGroups: [], rejectedTrajectories: [], lagHistogram: {}, meanReward: 0, passRate: 0.5,
      metrics: input.bc ? { loss_bc: 2.5 - input.step, sft_examples_trained: 4, kl_mean: 0 } : { loss_bc: 0, sft_examples_trained: 0, kl_mean: 0 }, lag0: null, busyMs: 1,
    };
  },
  async recordTrainingStep(input: { runId: string; point: StepPoint }) {
    log(input.runId, 'point', input.point);
    return { html: '', json: '' };
  },
};

describe('TrainingRunWorkflow from an init adapter (fake activities)', () => {
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  const taskQueue = 'init-train';

  beforeAll(async () => {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    // The search attributes infra/up registers: TrainingRunWorkflow sets PolicyVersion, and an unregistered attribute
    // fails its workflow task (every test here timed out that way in CI on 2026-12-06).
    env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: path.join(ROOT, '.venv/bin/temporal') }, searchAttributes: Object.values(searchAttributes) },
    });
    const workflowBundle = await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'helpers/training-fake-workflows.ts'), logger: new DefaultLogger('WARN') });
    worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities });
    running = worker.run();
  }, 180_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  let n = 0;
  async function train(input: Partial<TrainingRunInput> & { steps: number }, resumeStep = 0): Promise<Event[]> {
    const runId = `inittrain${Date.now()}x${n++}`;
    events.set(runId, []);
    if (resumeStep) resumeAt.set(runId, resumeStep);
    await env.client.workflow.execute('TrainingRunWorkflow', {
      taskQueue, workflowId: runId, args: [{ runId, taskIds: TASKS.map((t) => t.id), learnerTaskQueue: taskQueue, groupSize: 2, groupsPerStep: 1, poolSize: 2, dropZeroSignalGroups: false, ...input }],
    });
    return events.get(runId)!.map((e) => ({ ...e, detail: JSON.parse(JSON.stringify(e.detail).replaceAll(runId, 'RUN')) }));
  }

  it('publishes the init adapter as v0 before any episode; v0 episodes ask for it; steps replay the corpus', async () => {
    const ev = await train({ steps: 2, initAdapter: 'sft-v1', bcCorpus: '/corpus', bcWeight: 0.5 });
    expect(ev.slice(0, 3)).toEqual([
      { kind: 'begin', detail: 0 },
      { kind: 'prepare', detail: { runId: 'RUN', initAdapter: 'sft-v1', learner: expect.any(Object), maxPolicyLag: 4, bcWeight: 0.5 } },
      { kind: 'publish', detail: { version: 0, name: 'RUN--policy-v0', adapterPath: '/data/training/RUN/adapters/v0' } },
    ]);
    const firstTrain = ev.findIndex((e) => e.kind === 'train');
    const before = ev.slice(3, firstTrain).filter((e) => e.kind === 'episode').map((e) => e.detail);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(new Set(before)).toEqual(new Set(['embedded:RUN--policy-v0']));
    const trains = ev.filter((e) => e.kind === 'train').map((e) => e.detail);
    expect(trains).toEqual([1, 2].map((step) => ({ step, initAdapter: 'sft-v1', bc: { corpus: '/corpus', weight: 0.5, examples: 4, seed: 0 } })));
    expect(ev.filter((e) => e.kind === 'point').map((e) => (e.detail as StepPoint).bcLoss)).toEqual([1.5, 0.5]);
    expect(ev.filter((e) => e.kind === 'publish').map((e) => (e.detail as { version: number }).version)).toEqual([0, 1, 2]);
  }, 120_000);

  it('a run resumed past step 0 does not publish v0 again', async () => {
    const ev = await train({ steps: 2, initAdapter: 'sft-v1' }, 1);
    expect(ev.some((e) => e.kind === 'prepare')).toBe(false);
    expect(ev.filter((e) => e.kind === 'publish').map((e) => (e.detail as { version: number }).version)).toEqual([2]);
    expect(new Set(ev.filter((e) => e.kind === 'episode').map((e) => e.detail))).toEqual(new Set(['embedded:RUN--policy-v1']));
    expect(ev.filter((e) => e.kind === 'train').map((e) => e.detail)).toEqual([{ step: 2, initAdapter: 'sft-v1' }]);
  }, 120_000);

  it('without an init adapter v0 is the base model and the steps carry no replay', async () => {
    const ev = await train({ steps: 1 });
    expect(ev.some((e) => e.kind === 'prepare')).toBe(false);
    expect(new Set(ev.filter((e) => e.kind === 'episode').map((e) => e.detail))).toEqual(new Set(['embedded']));
    expect(ev.filter((e) => e.kind === 'train').map((e) => e.detail)).toEqual([{ step: 1 }]);
    expect(ev.filter((e) => e.kind === 'point').map((e) => (e.detail as StepPoint).bcLoss)).toEqual([null]);
  }, 120_000);
});
