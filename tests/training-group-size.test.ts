/**
 * Dynamic group size and the PolicyVersion search attribute in the real TrainingRunWorkflow, with fake activities and
 * children (tests/helpers/fake-training-env.ts, as tests/training-run-fast.test.ts): each group seals full at the size
 * common/group-size.ts gives its task from the curriculum's estimate when it opened, partially at two thirds of its own
 * size, a hardware profile fixes the size, and the run's PolicyVersion follows its version from the start.
 *
 * DEBUGRL_SAVE_HISTORY=1 writes the partial-seal run's history to tests/histories/ (the replay test's saved shape, with
 * the 'dynamic-group-size' and 'training-policy-version-attribute' markers, a dynamic group's partial seal and two
 * PolicyVersion upserts).
 */
import { foldGroupEpisodes, initialCurriculum, type CurriculumTask } from '../common/curriculum';
import { dynamicGroupSize, successEstimate } from '../common/group-size';
import type { GroupEpisode, StepPoint, StepResult, TrainingRunInput } from '../common/training';
import { fakeTrainingEnv, saveHistoryIfAsked, type FakeTrainingEnv } from './helpers/fake-training-env';
import type { FakeEpisodePlan } from './helpers/training-fake-workflows';

/** task_easy: calibrated at 18 of 20 (estimate 86 %); task_fresh: nothing known. The fakes pass every even episode. */
const TASKS: CurriculumTask[] = [
  { id: 'task_easy', debuggerPreference: 'recommended', prior: { successes: 18, failures: 2 } },
  { id: 'task_fresh', debuggerPreference: 'recommended' },
];
const passed = (k: number) => k % 2 === 0;

interface Scenario {
  episode(k: number): FakeEpisodePlan;
  trainGate?: Promise<void>;
}
interface Seen {
  episodes: { groupId: string; taskId: string }[];
  sealed: { groupId: string; reason: string; episodes: GroupEpisode[] }[];
  queued: string[];
  version: number;
}

const scenarios = new Map<string, Scenario>();
const seen = new Map<string, Seen>();
const runOf = (id: string) => id.slice(0, id.indexOf('.'));
const groupOf = (id: string) => id.slice(0, id.lastIndexOf('.e'));
const episodeNo = (id: string) => Number(/\.e(\d+)$/.exec(id)![1]);
const sleepMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

const activities = {
  async beginTrainingRun(input: { runId: string; input: { learner: { initialVersion: number } } }) {
    seen.get(input.runId)!.version = input.input.learner.initialVersion;
    return { step: 0, version: input.input.learner.initialVersion, queued: [], groupSeq: 0, tasks: TASKS };
  },
  async planEpisode(input: { workflowId: string; taskId: string }): Promise<FakeEpisodePlan> {
    seen.get(runOf(input.workflowId))!.episodes.push({ groupId: groupOf(input.workflowId), taskId: input.taskId });
    return scenarios.get(runOf(input.workflowId))!.episode(episodeNo(input.workflowId));
  },
  async planEvaluation() {
    return { passAt1: 0 };
  },
  async scoreEpisode(input: { episodeId: string }): Promise<{ scorable: boolean; episode: GroupEpisode }> {
    const ok = passed(episodeNo(input.episodeId));
    return { scorable: true, episode: { episodeId: input.episodeId, reward: ok ? 1 : -1, components: {}, passed: ok, usedDebugger: true, minPolicyVersion: 0 } };
  },
  async sealGroup(input: { runId: string; groupId: string; sealedReason: string; episodes: GroupEpisode[]; dropped?: string }) {
    const s = seen.get(input.runId)!;
    s.sealed.push({ groupId: input.groupId, reason: input.sealedReason, episodes: input.episodes });
    if (!input.dropped) s.queued.push(input.groupId);
    return { groupId: input.groupId };
  },
  async trainStep(input: { runId: string; step: number; groups: number }): Promise<StepResult> {
    const s = seen.get(input.runId)!;
    await scenarios.get(input.runId)!.trainGate;
    const groups = s.queued.splice(0, input.groups);
    const versionBefore = s.version++;
    return {
      stepId: `${input.runId}/${input.step}`, step: input.step, versionBefore, versionAfter: s.version, adapterPath: `/adapters/policy-v${s.version}`,
      trainedGroups: groups, rejectedGroups: [], rejectedTrajectories: [], lagHistogram: { '0': groups.length }, meanReward: 0, passRate: 0.5,
      metrics: null, lag0: null, busyMs: 1,
    };
  },
  async publishAdapter(input: { version: number }) {
    return { adapter: `policy-v${input.version}`, version: input.version, canary: { tokens: 0, maxAbsDiff: 0, tolerance: 0 }, unloaded: [] };
  },
  async recordTrainingStep() {
    return { html: '', json: '' };
  },
};

describe('TrainingRunWorkflow: dynamic group size and the PolicyVersion search attribute (fake activities)', () => {
  let local: FakeTrainingEnv;
  const taskQueue = 'group-size-train';
  let n = 0;

  beforeAll(async () => {
    local = await fakeTrainingEnv(taskQueue, activities);
  }, 180_000);
  afterAll(() => local?.close());

  async function start(scenario: Scenario, input: Partial<TrainingRunInput> & { steps: number }) {
    const runId = `gsize${Date.now()}x${n++}`;
    scenarios.set(runId, scenario);
    const s: Seen = { episodes: [], sealed: [], queued: [], version: 0 };
    seen.set(runId, s);
    const handle = await local.env.client.workflow.start('TrainingRunWorkflow', {
      taskQueue, workflowId: runId, args: [{ runId, taskIds: TASKS.map((t) => t.id), learnerTaskQueue: taskQueue, ...input }],
    });
    return { runId, handle, seen: s, result: () => handle.result() as Promise<{ steps: number; version: number; lastStep: StepPoint | null }> };
  }
  const fast: FakeEpisodePlan = { exitReason: 'done', delayMs: 0 };
  const policyVersionOf = async (handle: { describe(): Promise<{ searchAttributes: Record<string, unknown> }> }) =>
    ((await handle.describe()).searchAttributes.PolicyVersion as number[] | undefined)?.[0];

  it("sizes each group for its task from the curriculum's estimate when it opens, and seals it full at that size", async () => {
    const range = { min: 2, max: 16 };
    // One slot and the high mark at 1: a group opens only after the previous one is sealed, folded and trained, so the
    // estimate it was sized with is the curriculum after the groups before it.
    const { runId, handle, seen: s, result } = await start({ episode: () => fast }, { steps: 3, groupSizeRange: range, groupsPerStep: 1, poolSize: 1, highWater: 1, lowWater: 0 });
    expect(await result()).toMatchObject({ steps: 3, version: 3 });
    let curriculum = initialCurriculum(TASKS);
    const expected: number[] = [];
    for (const g of s.sealed) {
      const taskId = s.episodes.find((e) => e.groupId === g.groupId)!.taskId;
      expected.push(dynamicGroupSize(range, successEstimate(curriculum, taskId)));
      curriculum = foldGroupEpisodes(curriculum, taskId, g.episodes);
    }
    expect(s.sealed.map((g) => g.reason)).toEqual(['full', 'full', 'full']);
    expect(s.sealed.map((g) => g.episodes.length)).toEqual(expected);
    // Two tasks, three groups: a task comes back with evidence, and its size moves (86 % -> 16, 71 % -> 7; none -> 16,
    // 50 % -> 5).
    expect(new Set(expected).size).toBeGreaterThan(1);
    // Every started episode was in a group that sealed with it: no group took more than its size.
    expect(s.episodes).toHaveLength(expected.reduce((a, b) => a + b, 0));

    expect(await policyVersionOf(handle)).toBe(3);
    const query = `WorkflowType="TrainingRunWorkflow" AND PolicyVersion >= 2 AND WorkflowId="${runId}"`;
    let found: string[] = [];
    for (const until = Date.now() + 20_000; !found.length && Date.now() < until; await sleepMs(200)) {
      found = [];
      for await (const w of local.env.client.workflow.list({ query })) found.push(w.workflowId);
    }
    expect(found).toEqual([runId]);
  }, 120_000);

  it('seals a dynamic group partially at two thirds of its own size, not of groupSize', async () => {
    // The group gets max = 6 (task_fresh has no evidence; task_easy at 86 % would need 16) and seals partially at 4
    // (two thirds of groupSize 12 would be 8, more than the group has).
    const { seen: s, result, handle } = await start(
      { episode: (k) => (k < 4 ? fast : { exitReason: 'done', delayMs: 8000 }) },
      { steps: 1, taskIds: ['task_fresh'], groupSizeRange: { min: 2, max: 6 }, sealTimeoutSeconds: 2, groupsPerStep: 1, poolSize: 6 },
    );
    expect(await result()).toMatchObject({ steps: 1, version: 1 });
    expect(s.sealed.map((g) => [g.reason, g.episodes.length])).toEqual([['partial-timeout', 4]]);
    expect(s.episodes).toHaveLength(6);
    await saveHistoryIfAsked(handle);
  }, 60_000);

  it('takes the size from a hardware profile: 3xh200 fixes it at 12 whatever the estimate and groupSize', async () => {
    const { seen: s, result } = await start({ episode: () => fast }, { steps: 2, profile: '3xh200', groupSize: 4, groupsPerStep: 1, poolSize: 4, highWater: 1, lowWater: 0 });
    expect(await result()).toMatchObject({ steps: 2 });
    expect(s.sealed.map((g) => [g.reason, g.episodes.length])).toEqual([['full', 12], ['full', 12]]);
  }, 90_000);

  it('sets PolicyVersion at the start from the version the run starts at, before any step', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { handle, result } = await start({ episode: () => fast, trainGate: gate }, { steps: 1, groupSize: 2, groupsPerStep: 1, poolSize: 1, learner: { initialVersion: 5 } });
    let v: number | undefined;
    for (const until = Date.now() + 20_000; v === undefined && Date.now() < until; await sleepMs(200)) v = await policyVersionOf(handle);
    open();
    expect(v).toBe(5);
    expect(await result()).toMatchObject({ version: 6 });
    expect(await policyVersionOf(handle)).toBe(6);
  }, 60_000);
});
