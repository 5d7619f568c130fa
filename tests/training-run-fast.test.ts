/**
 * TrainingRunWorkflow's control flow with fake activities and fake child workflows, in seconds: partial sealing on
 * timeout, infrastructure failures retried and never scored until the group fails, the queue's water marks, the
 * validation evaluation every E steps, and continue-as-new carrying the run's state.
 *
 * Like episode-workflow-fast.test.ts it runs TestWorkflowEnvironment.createLocal on the Temporal CLI that infra/setup
 * installs (a private in-memory dev server; the time-skipping server is a download this machine cannot make). The
 * coordinator is the real one (tests/helpers/training-fake-workflows.ts re-exports it); its children are fakes under
 * the real type names. The real-service suites (training-e2e, training-run, training-step) cover the activities.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { policySpecFor, type GroupEpisode, type StepPoint, type StepResult, type TrainingRunInput } from '../common/training';
import { fakeTrainingEnv, type FakeTrainingEnv } from './helpers/fake-training-env';
import type { FakeEpisodePlan } from './helpers/training-fake-workflows';

const TASKS = [
  { id: 'task_alpha', debuggerPreference: 'recommended' as const },
  { id: 'task_beta', debuggerPreference: 'recommended' as const },
];

interface Scenario {
  /** How episode k of the n-th group opened by the run turns out. */
  episode(group: number, k: number): FakeEpisodePlan;
  trainDelayMs?: number;
  /** Every training step waits for this before it trains. */
  trainGate?: Promise<void>;
  evalPassAt1?: number;
  /** Episode k of group n's reward; by default +1 for even k and -1 for odd k (every group has signal). */
  reward?(group: number, k: number): number;
}

/** What the fakes saw, per run, with the time of each event. */
interface Seen {
  episodes: { group: number; k: number; policy: string; atMs: number }[];
  scored: string[];
  sealed: { groupId: string; reason: string; episodes: number; infraFailures: number; atMs: number }[];
  /** Groups sealed as dropped for zero signal: stored, never queued for training. */
  dropped: string[];
  queued: string[];
  steps: { step: number; groups: string[]; startMs: number; endMs: number }[];
  published: number[];
  evaluations: { workflowId: string; policy: string }[];
  /** The step points recordTrainingStep stored (the workflow keeps only the newest). */
  points: StepPoint[];
  version: number;
}

const scenarios = new Map<string, Scenario>();
const seen = new Map<string, Seen>();
const runOf = (id: string) => id.slice(0, id.indexOf('.'));
const groupNumber = (id: string) => Number(/\.g(\d+)(\.|$)/.exec(id)![1]);
const sleepMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

const activities = {
  async beginTrainingRun(input: { runId: string; input: { learner: { initialVersion: number } } }) {
    seen.get(input.runId)!.version = input.input.learner.initialVersion;
    return { step: 0, version: input.input.learner.initialVersion, queued: [], groupSeq: 0, tasks: TASKS };
  },
  async planEpisode(input: { workflowId: string; policy: string }): Promise<FakeEpisodePlan> {
    const run = runOf(input.workflowId);
    const group = groupNumber(input.workflowId);
    const k = Number(/\.e(\d+)$/.exec(input.workflowId)![1]);
    seen.get(run)!.episodes.push({ group, k, policy: input.policy, atMs: Date.now() });
    return scenarios.get(run)!.episode(group, k);
  },
  async planEvaluation(input: { workflowId: string; policy: string }) {
    seen.get(runOf(input.workflowId))!.evaluations.push(input);
    return { passAt1: scenarios.get(runOf(input.workflowId))!.evalPassAt1 ?? 0 };
  },
  async scoreEpisode(input: { episodeId: string }): Promise<{ scorable: boolean; episode: GroupEpisode }> {
    seen.get(runOf(input.episodeId))!.scored.push(input.episodeId);
    const k = Number(/\.e(\d+)$/.exec(input.episodeId)![1]);
    const passed = k % 2 === 0;
    const reward = scenarios.get(runOf(input.episodeId))!.reward?.(groupNumber(input.episodeId), k) ?? (passed ? 1 : -1);
    return { scorable: true, episode: { episodeId: input.episodeId, reward, components: {}, passed, usedDebugger: true, minPolicyVersion: 0 } };
  },
  async sealGroup(input: { runId: string; groupId: string; sealedReason: string; episodes: GroupEpisode[]; infraFailures: number; dropped?: string }) {
    const s = seen.get(input.runId)!;
    s.sealed.push({ groupId: input.groupId, reason: input.sealedReason, episodes: input.episodes.length, infraFailures: input.infraFailures, atMs: Date.now() });
    if (input.dropped === 'zero-signal') s.dropped.push(input.groupId);
    else s.queued.push(input.groupId);
    return { groupId: input.groupId };
  },
  async trainStep(input: { runId: string; step: number; groups: number }): Promise<StepResult> {
    const s = seen.get(input.runId)!;
    const startMs = Date.now();
    const sc = scenarios.get(input.runId)!;
    await sc.trainGate;
    await sleepMs(sc.trainDelayMs ?? 0);
    const groups = s.queued.splice(0, input.groups);
    const versionBefore = s.version++;
    s.steps.push({ step: input.step, groups, startMs, endMs: Date.now() });
    return {
      stepId: `${input.runId}/${input.step}`, step: input.step, versionBefore, versionAfter: s.version, adapterPath: `/adapters/policy-v${s.version}`,
      trainedGroups: groups, rejectedGroups: [], rejectedTrajectories: [], lagHistogram: { '0': groups.length }, meanReward: 0, passRate: 0.5,
      metrics: null, lag0: null, busyMs: 1,
    };
  },
  async publishAdapter(input: { runId: string; version: number }) {
    seen.get(input.runId)!.published.push(input.version);
    return { adapter: `policy-v${input.version}`, version: input.version, canary: { tokens: 0, maxAbsDiff: 0, tolerance: 0 }, unloaded: [] };
  },
  async recordTrainingStep(input: { runId: string; point: StepPoint }) {
    seen.get(input.runId)!.points.push(input.point);
    return { html: '', json: '' };
  },
};

describe('TrainingRunWorkflow control flow (fake activities)', () => {
  let local: FakeTrainingEnv;
  let env: FakeTrainingEnv['env'];
  const taskQueue = 'fast-train';

  beforeAll(async () => {
    local = await fakeTrainingEnv(taskQueue, activities);
    env = local.env;
  }, 180_000);

  afterAll(() => local?.close());

  let n = 0;
  async function start(scenario: Scenario, input: Partial<TrainingRunInput> & { steps: number }) {
    const runId = `fasttrain${Date.now()}x${n++}`;
    scenarios.set(runId, scenario);
    const s: Seen = { episodes: [], scored: [], sealed: [], dropped: [], queued: [], steps: [], published: [], evaluations: [], points: [], version: 0 };
    seen.set(runId, s);
    const handle = await env.client.workflow.start('TrainingRunWorkflow', {
      taskQueue, workflowId: runId, args: [{ runId, taskIds: TASKS.map((t) => t.id), learnerTaskQueue: taskQueue, ...input }],
    });
    return { runId, handle, seen: s, result: () => handle.result() as Promise<{ steps: number; version: number; lastStep: StepPoint | null }> };
  }
  async function train(scenario: Scenario, input: Partial<TrainingRunInput> & { steps: number }) {
    const started = await start(scenario, input);
    return { ...started, result: await started.result() };
  }
  const fast: FakeEpisodePlan = { exitReason: 'done', delayMs: 0 };

  it('seals a partial group after the timeout once it has minToSeal episodes, and trains on it', async () => {
    const { result, seen: s } = await train(
      { episode: (_g, k) => (k < 2 ? fast : { exitReason: 'done', delayMs: 6000 }) },
      { steps: 1, groupSize: 4, minToSeal: 2, sealTimeoutSeconds: 2, groupsPerStep: 1, poolSize: 4 },
    );
    expect(s.sealed).toHaveLength(1); // and no second group, although slots were free while the step published
    expect(s.sealed[0]).toMatchObject({ reason: 'partial-timeout', episodes: 2 });
    expect(new Set(s.episodes.map((e) => e.group))).toEqual(new Set([1]));
    expect(s.steps[0].groups).toEqual([s.sealed[0].groupId]);
    expect(result).toMatchObject({ steps: 1, version: 1 });
  }, 60_000);

  it('retries infrastructure failures without scoring them, then fails the group and trains on a fresh one', async () => {
    const { result, seen: s, handle } = await train(
      { episode: (g) => (g === 1 ? { exitReason: 'error', delayMs: 0 } : fast) },
      { steps: 1, groupSize: 3, groupsPerStep: 1, poolSize: 1, infraRetries: 2 },
    );
    const g1 = s.episodes.filter((e) => e.group === 1);
    expect(g1).toHaveLength(3); // the first try and two retries, each in a fresh episode
    expect(s.scored.filter((id) => groupNumber(id) === 1)).toEqual([]); // never scored, so never a 0 reward
    expect(s.sealed.map((x) => groupNumber(x.groupId))).toEqual([2]);
    expect(s.sealed[0]).toMatchObject({ reason: 'full', episodes: 3 });
    expect(result.version).toBe(1);
    const progress = (await handle.query('progress')) as { groupsFailed: number; infraFailures: number };
    expect(progress).toMatchObject({ groupsFailed: 1, infraFailures: 3 });
  }, 60_000);

  it('starts no episode at the high-water mark until the queue drains to the low mark', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { handle, seen: s, result } = await start({ episode: () => fast, trainGate: gate }, { steps: 3, groupSize: 2, groupsPerStep: 1, poolSize: 2, highWater: 1, lowWater: 0 });
    type P = { running: number; groupsQueued: number; step: number; episodesDone: number };
    const progress = () => handle.query('progress') as Promise<P | null>;
    // A sealed group reaches the high mark while the step is held: every slot drains and none refills, although the run
    // still needs another group. (Episodes already running finish, so a second group can seal past the mark.)
    let p = await progress();
    const until = Date.now() + 60_000;
    while (!(p && p.groupsQueued >= 1 && p.running === 0)) {
      if (Date.now() > until) {
        open(); // let the worker shut down
        throw new Error(`the run never reached a full queue with every slot idle: ${JSON.stringify(p)}`);
      }
      await sleepMs(100);
      p = await progress();
    }
    const startedWhileFull = s.episodes.length;
    expect(p.groupsQueued).toBeLessThan(3);
    await sleepMs(2000);
    expect(await progress()).toMatchObject({ running: 0, step: 0 });
    expect(s.episodes).toHaveLength(startedWhileFull);
    open();
    const r = await result();
    expect(r).toMatchObject({ steps: 3, version: 3 });
    expect(s.episodes.length).toBeGreaterThan(startedWhileFull); // assignment resumed at the low mark
    expect(s.steps.map((st) => st.groups.length)).toEqual([1, 1, 1]);
  }, 90_000);

  it('runs the validation evaluation every E steps with the newest adapter, and new episodes use it', async () => {
    // With the high mark at 1, group 2 can only start after step 1 has published, so it must use policy-v1.
    const { seen: s, runId } = await train({ episode: () => fast, evalPassAt1: 0.25 }, { steps: 2, groupSize: 2, groupsPerStep: 1, poolSize: 1, evalEvery: 1, highWater: 1, lowWater: 0 });
    const v = (n: number) => policySpecFor('embedded', n, runId); // served per run: <run>--policy-v<N>
    expect(v(1)).toBe(`embedded:${runId}--policy-v1`);
    expect(s.evaluations.map((e) => e.policy)).toEqual([v(1), v(2)]);
    expect(s.points.map((p) => p.validationPass1)).toEqual([0.25, 0.25]);
    expect(s.published).toEqual([1, 2]);
    expect(s.episodes.filter((e) => e.group === 1).map((e) => e.policy)).toEqual(['embedded', 'embedded']);
    expect(s.episodes.filter((e) => e.group === 2).map((e) => e.policy)).toEqual([v(1), v(1)]);
  }, 60_000);

  it('continues as new every K steps, carrying the version, the newest step point and the curriculum', async () => {
    const { result, seen: s, handle } = await train({ episode: () => fast }, { steps: 3, groupSize: 2, groupsPerStep: 1, poolSize: 1, continueAsNewEvery: 1 });
    expect(result).toMatchObject({ steps: 3, version: 3 });
    expect(s.points.map((p) => p.step)).toEqual([1, 2, 3]);
    expect(result.lastStep).toMatchObject({ step: 3, version: 3 }); // only the newest point crosses continue-as-new
    expect(s.steps.map((st) => st.step)).toEqual([1, 2, 3]);
    const first = await env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    const progress = (await handle.query('progress')) as { curriculum: { groups: number } };
    expect(progress.curriculum.groups).toBe(3);
  }, 60_000);

  type ZeroSignalView = { zeroSignal: { groups: number; zeroSignal: number; share: number; dropped: number; trained: number; streak: number; warning: string | null } };

  it('drops zero-signal groups and samples others until the step has groups with signal (dynamic sampling)', async () => {
    // Groups 1 and 2 all score -1.78 (zero advantage); from group 3 on the rewards differ. The high mark at 1 also
    // checks that a dropped group lifts the block its sealing set: nothing is queued, so no step could lift it.
    const { seen: s, handle } = await train(
      { episode: () => fast, reward: (g, k) => (g <= 2 ? -1.78 : k % 2 ? -1 : 1) },
      { steps: 1, groupSize: 2, groupsPerStep: 1, poolSize: 1, highWater: 1, lowWater: 0, zeroSignalPatience: 10 },
    );
    expect(s.dropped.map(groupNumber)).toEqual([1, 2]);
    expect(s.steps.map((st) => st.groups.map(groupNumber))).toEqual([[3]]);
    expect(s.points[0]).toMatchObject({ zeroSignalDropped: 2, zeroSignalTrained: 0, trained: 1 });
    const p = (await handle.query('progress')) as ZeroSignalView;
    expect(p.zeroSignal).toMatchObject({ groups: 3, zeroSignal: 2, dropped: 2, trained: 0, streak: 0, warning: null });
    expect(p.zeroSignal.share).toBeCloseTo(2 / 3);
  }, 60_000);

  it('trains zero-signal groups anyway once the patience runs out, and says so', async () => {
    const { seen: s, handle } = await train({ episode: () => fast, reward: () => -1.78 }, { steps: 2, groupSize: 2, groupsPerStep: 1, poolSize: 1, zeroSignalPatience: 2 });
    // g1 dropped (streak 1); g2 reaches the patience (streak 2) and is trained, and so is g3 while no signal comes.
    expect(s.dropped.map(groupNumber)).toEqual([1]);
    expect(s.steps.map((st) => st.groups.map(groupNumber))).toEqual([[2], [3]]);
    expect(s.points.map((p) => [p.zeroSignalDropped, p.zeroSignalTrained])).toEqual([[1, 1], [0, 1]]);
    const p = (await handle.query('progress')) as ZeroSignalView;
    expect(p.zeroSignal).toMatchObject({ groups: 3, zeroSignal: 3, dropped: 1, trained: 2, streak: 3 });
    expect(p.zeroSignal.warning).toMatch(/no reward signal in the last 3 groups \(patience 2\)/);
  }, 60_000);

  it('trains zero-signal groups and only counts them when dynamic sampling is off', async () => {
    const { seen: s } = await train({ episode: () => fast, reward: () => 0.5 }, { steps: 1, groupSize: 2, groupsPerStep: 1, poolSize: 1, dropZeroSignalGroups: false });
    expect(s.dropped).toEqual([]);
    expect(s.sealed).toHaveLength(1);
    expect(s.points[0]).toMatchObject({ zeroSignalDropped: 0, zeroSignalTrained: 1 });
  }, 60_000);

  it('fails an invalid input non-retryably, naming the field', async () => {
    const err = await train({ episode: () => fast }, { steps: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(String((err as WorkflowFailedError).cause?.message)).toMatch(/steps/);
  }, 30_000);
});
