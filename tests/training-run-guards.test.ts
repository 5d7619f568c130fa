/**
 * TrainingRunWorkflow's health guards (issue 22) with fake activities and fake children, in seconds:
 *   - the circuit breaker: groups failing for one infrastructure cause pause the run (memo, progress query), no episode
 *     starts while paused, a probe resumes it once the server answers, and the run finishes;
 *   - attestation: after "the server restarted" (every episode at v1 gets the embedded server's 404), the run asks the
 *     server, re-publishes v1, counts it, and finishes with no failed group and no step trained on a lost adapter;
 *   - the mismatch alarm: lag-0 k3 over the threshold for K steps pauses rollouts and training; the resume signal goes on;
 *   - `train status` reads a terminated run's real state from Temporal's describe().
 * Like training-run-fast.test.ts: TestWorkflowEnvironment.createLocal on the Temporal CLI infra/setup installs, the real
 * coordinator (tests/helpers/training-fake-workflows.ts), fakes under the real activity and child names. The real
 * server's side is tests/training-attestation.test.ts.
 *
 * DEBUGRL_SAVE_HISTORY=1 writes the attestation run's history to tests/histories/ (the replay test's saved shape).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { servedAdapterName, type GroupEpisode, type StepPoint, type StepResult, type TrainingProgress, type TrainingRunInput } from '../common/training';
import { formatRunState, formatTrainingProgress } from '../workers/commands/train';
import { fakeTrainingEnv, type FakeTrainingEnv } from './helpers/fake-training-env';
import type { FakeEpisodePlan } from './helpers/training-fake-workflows';

const TASKS = [{ id: 'task_alpha', debuggerPreference: 'recommended' as const }];
const sleepMs = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runOf = (id: string) => id.slice(0, id.indexOf('.'));
const notServed = (name: string) =>
  `policyReply: policy server answered HTTP 404: {"error": {"message": "model: '${name}' is neither 'default' nor a loaded adapter (loaded: none)"}}`;

/** One fake inference server and learner per run. */
interface Fake {
  /** How an episode at `policy` turns out. */
  episode(policy: string): FakeEpisodePlan;
  /** The server's adapters (served name -> version); a restart empties it. */
  served: Map<string, number>;
  /** The server does not answer at all. */
  down: boolean;
  /** The lag-0 k3 the learner reports for step n. */
  k3?(step: number): number | null;
  episodes: { policy: string; atMs: number }[];
  published: { version: number; name: string }[];
  attestations: { name: string; version: number }[];
  steps: { step: number; groups: string[] }[];
  points: StepPoint[];
  sealed: string[];
  version: number;
}

const fakes = new Map<string, Fake>();

function mismatch(k3: number | null) {
  const none = [null, null, null, null, null];
  return {
    offpolicy_mode: 'seed_clamp', mismatch_k3: k3, mismatch_k3_lag0: k3, offpolicy_ess: 1, masked_token_frac: 0, masked_response_frac: 0, clipped_token_frac: 0,
    mismatch_k3_by_lag: none, masked_frac_by_lag: none, mismatch_k3_by_turn: [...none, null], masked_frac_by_turn: [...none, null], mismatch_k3_by_length: none.slice(1), masked_frac_by_length: none.slice(1),
  };
}

const activities = {
  async beginTrainingRun(input: { runId: string }) {
    return { step: 0, version: fakes.get(input.runId)!.version, queued: [], groupSeq: 0, tasks: TASKS };
  },
  async planEpisode(input: { workflowId: string; policy: string }): Promise<FakeEpisodePlan> {
    const f = fakes.get(runOf(input.workflowId))!;
    f.episodes.push({ policy: input.policy, atMs: Date.now() });
    return f.episode(input.policy);
  },
  async planEvaluation(): Promise<{ passAt1: number }> {
    return { passAt1: 0 };
  },
  async scoreEpisode(input: { episodeId: string }): Promise<{ scorable: boolean; episode: GroupEpisode }> {
    const k = Number(/\.e(\d+)$/.exec(input.episodeId)![1]);
    return { scorable: true, episode: { episodeId: input.episodeId, reward: k % 2 ? -1 : 1, components: {}, passed: k % 2 === 0, usedDebugger: true, minPolicyVersion: 0 } };
  },
  async sealGroup(input: { runId: string; groupId: string; dropped?: string }) {
    fakes.get(input.runId)!.sealed.push(input.groupId);
    return { groupId: input.groupId };
  },
  async trainStep(input: { runId: string; step: number; groups: number }): Promise<StepResult> {
    const f = fakes.get(input.runId)!;
    const groups = f.sealed.splice(0, input.groups);
    const versionBefore = f.version++;
    f.steps.push({ step: input.step, groups });
    return {
      stepId: `${input.runId}/${input.step}`, step: input.step, versionBefore, versionAfter: f.version, adapterPath: `/adapters/${input.runId}/policy-v${f.version}`,
      trainedGroups: groups, rejectedGroups: [], rejectedTrajectories: [], lagHistogram: { '0': groups.length }, meanReward: 0, passRate: 0.5,
      metrics: f.k3 ? mismatch(f.k3(input.step)) : null, lag0: null, busyMs: 1,
    };
  },
  async publishAdapter(input: { runId: string; version: number; name?: string }) {
    const f = fakes.get(input.runId)!;
    if (f.down) throw new Error('fetch failed: connect ECONNREFUSED 127.0.0.1:8765');
    const name = input.name ?? `policy-v${input.version}`;
    f.published.push({ version: input.version, name });
    f.served.set(name, input.version);
    return { adapter: name, version: input.version, canary: { tokens: 0, maxAbsDiff: 0, tolerance: 0 }, unloaded: [] };
  },
  async recordTrainingStep(input: { runId: string; point: StepPoint }) {
    fakes.get(input.runId)!.points.push(input.point);
    return { html: '', json: '' };
  },
  async attestServedAdapter(input: { runId: string; name: string; version: number }) {
    const f = fakes.get(input.runId)!;
    f.attestations.push({ name: input.name, version: input.version });
    if (f.down) throw new Error('attestation: fetch failed: connect ECONNREFUSED 127.0.0.1:8765');
    if (input.name === 'default') return { listed: true, servedVersion: 0, refusal: null, adapterPath: null };
    const v = f.served.get(input.name);
    return v === undefined
      ? { listed: false, servedVersion: null, refusal: `HTTP 404: model: '${input.name}' is neither 'default' nor a loaded adapter (loaded: none)`, adapterPath: `/adapters/${input.runId}/policy-v${input.version}` }
      : { listed: true, servedVersion: v, refusal: null, adapterPath: `/adapters/${input.runId}/policy-v${input.version}` };
  },
};

describe('TrainingRunWorkflow health guards (fake activities)', () => {
  let local: FakeTrainingEnv;
  let env: FakeTrainingEnv['env'];
  const taskQueue = 'guards-train';

  beforeAll(async () => {
    local = await fakeTrainingEnv(taskQueue, activities);
    env = local.env;
  }, 180_000);

  afterAll(() => local?.close());

  let n = 0;
  async function start(fake: Partial<Fake> & Pick<Fake, 'episode'>, input: Partial<TrainingRunInput> & { steps: number }) {
    const runId = `guards${Date.now()}x${n++}`;
    const f: Fake = { served: new Map(), down: false, episodes: [], published: [], attestations: [], steps: [], points: [], sealed: [], version: 0, ...fake };
    fakes.set(runId, f);
    const handle = await env.client.workflow.start('TrainingRunWorkflow', {
      taskQueue, workflowId: runId, args: [{ runId, taskIds: TASKS.map((t) => t.id), learnerTaskQueue: taskQueue, ...input }],
    });
    const progress = () => handle.query('progress') as Promise<TrainingProgress | null>;
    const until = async (what: string, ok: (p: TrainingProgress) => boolean, ms = 60_000) => {
      for (const t0 = Date.now(); Date.now() - t0 < ms; await sleepMs(100)) {
        const p = await progress();
        if (p && ok(p)) return p;
      }
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await progress())}`);
    };
    const memo = async () => (await handle.describe()).memo as Record<string, unknown>;
    return { runId, handle, fake: f, progress, until, memo, result: () => handle.result() as Promise<{ steps: number; version: number }> };
  }
  const ok: FakeEpisodePlan = { exitReason: 'done', delayMs: 0 };

  it('pauses on groups failing for one cause, starts nothing while paused, and resumes when a probe finds the server back', async () => {
    const down: FakeEpisodePlan = { exitReason: 'error', delayMs: 0, error: 'policyReply: fetch failed: connect ECONNREFUSED 127.0.0.1:8765' };
    const { fake, until, memo, result, progress } = await start(
      { episode: () => (fake.down ? down : ok), down: true },
      { steps: 1, groupSize: 2, groupsPerStep: 1, poolSize: 2, infraRetries: 1, breakerGroups: 2, breakerProbeSeconds: 1 },
    );
    const paused = await until('the breaker to pause the run', (p) => p.phase === 'paused');
    expect(paused.pause).toMatchObject({ reason: 'circuit-breaker' });
    expect(paused.pause!.cause).toMatch(/2 group\(s\) in a row failed with policy-server-unreachable .*ECONNREFUSED.*probing the policy server every 1 s/);
    expect(paused).toMatchObject({ groupsFailed: 2, health: { breakerTrips: 1, breakerStreak: 2 } });
    expect(formatTrainingProgress(paused)).toMatch(/· paused \(circuit-breaker: 2 group\(s\) in a row failed/);
    expect(await memo()).toMatchObject({ trainingState: 'paused', pauseReason: 'circuit-breaker' });
    // Two groups of at most 2 tries each (and what was in flight): the run stopped there, however long it stays paused.
    const drained = await until('the running episodes to drain', (p) => p.running === 0);
    expect(drained.episodesDone).toBeLessThanOrEqual(4 + 2);
    await sleepMs(3000);
    expect(await progress()).toMatchObject({ running: 0, episodesDone: drained.episodesDone });
    expect(fake.attestations.length).toBeGreaterThanOrEqual(1); // the probe asked, and the server did not answer

    fake.down = false; // the server is back: the next probe resumes the run, half-open
    const r = await result();
    expect(r).toMatchObject({ steps: 1, version: 1 });
    const after = await memo();
    expect(after).toMatchObject({ trainingState: 'running', breakerTrips: 1 });
    expect(after.pauseReason ?? null).toBeNull(); // a null memo field is removed
    expect(fake.steps.map((s) => s.groups.length)).toEqual([1]);
  }, 120_000);

  it('re-publishes an adapter the server lost, counts it, and trains no group on the lost adapter', async () => {
    let lost = false;
    const { runId, fake, handle, result, memo } = await start(
      {
        episode: (policy) => {
          const name = policy.slice(policy.indexOf(':') + 1);
          // The server restarts right after v1 is published: it holds no adapter until one is published again.
          if (policy.includes('--policy-v1') && !lost && fake.published.length === 1) {
            lost = true;
            fake.served.clear();
          }
          return policy.includes(':') && !fake.served.has(name) ? { exitReason: 'error', delayMs: 0, error: notServed(name) } : ok;
        },
      },
      { steps: 3, groupSize: 2, groupsPerStep: 1, poolSize: 2, highWater: 1, lowWater: 0, infraRetries: 1, attestEvery: 2 },
    );
    const r = await result();
    expect(r).toMatchObject({ steps: 3, version: 3 });
    const v1 = servedAdapterName(runId, 1);
    // v1 published, lost, re-published by the attestation; then v2 and v3.
    expect(fake.published.map((p) => p.version)).toEqual([1, 1, 2, 3]);
    expect(fake.attestations.filter((a) => a.name === v1).length).toBeGreaterThanOrEqual(1);
    const p = (await handle.query('progress')) as TrainingProgress;
    expect(p).toMatchObject({ groupsFailed: 0, pause: null, health: { republished: 1, breakerTrips: 0 } });
    expect(p.health!.lastAttestation).toMatch(/every 2 steps: .*policy-v2 served as v2/); // the scheduled one after step 2
    expect(await memo()).toMatchObject({ republished: 1, trainingState: 'running' });
    // The failed v1 episodes were retried, not counted against their group: every trained group is whole.
    expect(fake.steps.map((s) => s.groups.length)).toEqual([1, 1, 1]);
    const failedAtV1 = fake.episodes.filter((e) => e.policy.endsWith(v1)).length;
    expect(failedAtV1).toBeGreaterThanOrEqual(3); // at least one 404 and the group's two episodes after re-publishing
    if (process.env.DEBUGRL_SAVE_HISTORY) {
      const file = path.join(__dirname, 'histories', `TrainingRunWorkflow@${runId}.json`);
      fs.writeFileSync(file, historyToJSON(await handle.fetchHistory()));
      console.log(`saved ${file}`);
    }
  }, 120_000);

  it('pauses rollouts and training when lag-0 k3 stays over the threshold for K steps; the resume signal goes on', async () => {
    const { fake, handle, until, memo, result, progress } = await start(
      { episode: () => ok, k3: (step) => (step === 1 ? 2e-4 : 0.05) },
      { steps: 4, groupSize: 2, groupsPerStep: 1, poolSize: 1, highWater: 1, lowWater: 0, mismatchAlarmK3: 1e-3, mismatchAlarmSteps: 2 },
    );
    // Step 1 is under the threshold; steps 2 and 3 are over it: the alarm trips after step 3.
    const paused = await until('the alarm to pause the run', (p) => p.phase === 'paused');
    expect(paused).toMatchObject({ step: 3, pause: { reason: 'mismatch-alarm' }, health: { alarmStreak: 2, alarmTrips: 1, lastK3Lag0: 0.05 } });
    expect(paused.pause!.cause).toMatch(/lag-0 mismatch k3 5\.00e-2 above 1\.0e-3 for 2 step\(s\) in a row/);
    expect(await memo()).toMatchObject({ trainingState: 'paused', pauseReason: 'mismatch-alarm' });
    const drained = await until('the running episodes to drain', (p) => p.running === 0);
    await sleepMs(3000);
    expect(fake.steps).toHaveLength(3); // no step trains while paused, although a group may be queued
    expect(fake.published.map((p) => p.version)).toEqual([1, 2]); // step 3's adapter waits for the resume
    expect(await progress()).toMatchObject({ running: 0, episodesDone: drained.episodesDone, step: 3 });
    await handle.signal('resume');
    expect(await result()).toMatchObject({ steps: 4, version: 4 });
    expect(fake.published.map((p) => p.version)).toEqual([1, 2, 3, 4]);
    expect(fake.points.map((p) => p.step)).toEqual([1, 2, 3, 4]);
    expect(await memo()).toMatchObject({ trainingState: 'running', alarmTrips: 1 });
  }, 120_000);

  it('train status says terminated for a terminated run, from describe(), not running', async () => {
    const { handle, until } = await start({ episode: () => ({ exitReason: 'done', delayMs: 60_000 }) }, { steps: 2, groupSize: 2, groupsPerStep: 1, poolSize: 1 });
    await until('the run to start', (p) => p.running === 1);
    const live = await handle.describe();
    expect(formatRunState({ status: live.status.name, memo: live.memo, closeTime: live.closeTime })).toBe('state: running');
    await handle.terminate('by hand, as in issue 22');
    const d = await handle.describe();
    expect(formatRunState({ status: d.status.name, memo: d.memo, closeTime: d.closeTime })).toMatch(/^state: terminated at \d{4}-/);
  }, 60_000);
});
