/** The training step on real PostgreSQL, Kafka and the Python learner service (the tiny random Qwen3-MoE, whose
 * vocabulary is 128 tokens): stale groups and trajectories (the learner's lag rule, which it reports) and misaligned
 * trajectories are refused and counted while the rest trains,
 * a retried step never trains twice, a duplicate Kafka send is consumed once, a dead learner restarts from the last
 * committed checkpoint, and a bad input fails non-retryably naming its field. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createLearnerActivities, LearnerHost, learnerSteps } from '../activities/learner';
import { beginRun, sealAndPublishGroup } from '../activities/training-store';
import { GROUP_SCHEMA, LearnerSpec, type GroupRecord, type StepResult } from '../common/training';
import { TRAJECTORY_SCHEMA, type TrajectoryRecord } from '../common/trajectory';
import { openDeps, type OpenDeps } from '../workers/deps';
import { config } from './helpers/services';

const runId = `train-step-test-${Date.now()}`;
const spec = LearnerSpec.parse({ model: 'tiny-moe', loraRank: 4, lr: 1e-3, initialVersion: 5, checkLogprobs: true });

function record(episodeId: string, version: number, seed: number, opts: { dropLogprob?: boolean } = {}): TrajectoryRecord {
  const rnd = (i: number) => (seed * 31 + i * 17) % 128;
  const prompt = Array.from({ length: 12 }, (_, i) => rnd(i));
  const completion = Array.from({ length: 6 }, (_, i) => rnd(i + 40));
  const turn2Prompt = [...prompt, ...completion, 3, 4];
  const completion2 = Array.from({ length: 5 }, (_, i) => rnd(i + 80));
  const assistant = (p: number[], c: number[]) => ({
    message: { role: 'assistant' as const, content: null },
    toolCall: null,
    invalidReason: null,
    promptTokens: p.length,
    completionTokens: c.length,
    tokenCounting: 'server-usage' as const,
    policyVersion: version,
    promptTokenIds: p,
    tokenIds: c,
    logprobs: c.map(() => -2.5),
    latencyMs: 1,
  });
  const turns = [
    { turn: 1, assistant: assistant(prompt, completion), tool: null },
    { turn: 2, assistant: assistant(turn2Prompt, completion2), tool: null },
  ];
  if (opts.dropLogprob) turns[1].assistant.logprobs = turns[1].assistant.logprobs.slice(1);
  const now = new Date().toISOString();
  return {
    schema: TRAJECTORY_SCHEMA, episodeId, workflowId: episodeId, taskId: 'fake_task', split: 'train', policy: { spec: 'embedded', version },
    toolset: 'full', evaluationId: null, arm: null, seed, limits: {}, messages: [], turns, recoveries: [],
    outcome: { passed: seed % 2 === 0, tests: {}, exitReason: 'done', error: null, gradeNotes: [] },
    tokens: { prompt: 0, completion: 0, finalContext: 0 }, timings: { startedAt: now, finishedAt: now, durationMs: 0 },
  };
}

async function storeEpisode(deps: OpenDeps, r: TrajectoryRecord): Promise<void> {
  await deps.pool.query(
    `insert into episodes (episode_id, workflow_id, task_id, split, policy_spec, policy_version, toolset, passed, exit_reason, turns,
       prompt_tokens, completion_tokens, tests, record, started_at, finished_at)
     values ($1,$1,'fake_task','train','embedded',$2,'full',$3,'done',2,0,0,'{}',$4,now(),now()) on conflict do nothing`,
    [r.episodeId, r.policy.version, r.outcome.passed, JSON.stringify(r)],
  );
}

function group(groupId: string, episodes: { id: string; version: number; reward: number }[]): GroupRecord {
  return {
    schema: GROUP_SCHEMA, groupId, runId, taskId: 'fake_task', rewardConfig: 'test', sealedReason: 'full', infraFailures: 0,
    episodes: episodes.map((e) => ({ episodeId: e.id, reward: e.reward, components: {}, passed: e.reward > 0, usedDebugger: false, minPolicyVersion: e.version })),
  };
}

describe('trainStep (real PostgreSQL, Kafka and learner service)', () => {
  let deps: OpenDeps;
  let host: LearnerHost;
  let acts: ReturnType<typeof createLearnerActivities>;
  const env = new MockActivityEnvironment();
  const trainStep = (input: unknown) => env.run(acts.trainStep, input as Parameters<typeof acts.trainStep>[0]) as Promise<StepResult>;
  beforeAll(async () => {
    deps = openDeps(config, 'train-step-test');
    host = new LearnerHost(config);
    acts = createLearnerActivities(deps, host);
    await beginRun(deps, { runId, workflowId: runId, input: {} });
  });
  afterAll(async () => {
    await host.close();
    await deps.close();
  });

  it('refuses a misaligned trajectory with a reason naming the turn', () => {
    const bad = learnerSteps(record('x', 0, 1, { dropLogprob: true }));
    expect(bad).toEqual({ ok: false, reason: 'misaligned-logprobs', detail: 'turn 2: 5 completion tokens but 4 logprobs' });
    const missing = record('y', 0, 1);
    delete missing.turns[0].assistant.logprobs;
    expect(learnerSteps(missing)).toMatchObject({ ok: false, reason: 'missing-logprobs' });
    expect(learnerSteps(record('z', 0, 1))).toMatchObject({ ok: true, minVersion: 0 });
  });

  it('trains fresh groups, refuses the stale one and the misaligned trajectory, exactly once', async () => {
    const fresh = [0, 1, 2, 3].map((i) => ({ id: `${runId}-a${i}`, version: 5, reward: i % 2 }));
    const stale = [0, 1].map((i) => ({ id: `${runId}-b${i}`, version: 0, reward: i })); // v-5 against the learner's v5
    for (const [i, e] of fresh.entries()) await storeEpisode(deps, record(e.id, 5, i, { dropLogprob: i === 3 }));
    for (const [i, e] of stale.entries()) await storeEpisode(deps, record(e.id, 0, 10 + i));
    const ga = group(`${runId}-ga`, fresh);
    await sealAndPublishGroup(deps, ga);
    // A send whose acknowledgement was lost is sent again: the step must still consume the group once.
    await deps.pool.query('update training_groups set kafka_offset = null where group_id = $1', [ga.groupId]);
    await sealAndPublishGroup(deps, ga);
    await sealAndPublishGroup(deps, group(`${runId}-gb`, stale));

    const input = { runId, step: 1, groups: 2, maxPolicyLag: 4, learner: spec };
    const r1 = await trainStep(input);
    expect(r1.versionBefore).toBe(5);
    expect(r1.versionAfter).toBe(6);
    expect(r1.trainedGroups).toEqual([ga.groupId]);
    expect(r1.rejectedGroups).toEqual([{ groupId: `${runId}-gb`, reason: 'policy-lag', lag: 5 }]);
    expect(r1.rejectedTrajectories).toEqual([{ episodeId: `${runId}-a3`, reason: 'misaligned-logprobs', detail: 'turn 2: 5 completion tokens but 4 logprobs' }]);
    expect(r1.lagHistogram).toEqual({ '0': 4, '5': 2 });
    expect(r1.metrics?.trajectories_trained).toBe(3);
    expect(r1.lag0?.tokens).toBe(33); // 3 trajectories x (6 + 5) completion tokens, scored at version 5
    expect(r1.adapterPath).toMatch(/v6$/);

    // A retried step returns the committed result and trains nothing.
    const pid = host.current()?.pid;
    const again = await trainStep(input);
    expect(again).toEqual(r1);
    expect(host.current()?.pid).toBe(pid);
    const rows = await deps.pool.query('select group_id, consumed_step, rejected_reason from training_groups where run_id = $1 order by group_id', [runId]);
    expect(rows.rows).toEqual([
      { group_id: `${runId}-ga`, consumed_step: `${runId}:1`, rejected_reason: null },
      { group_id: `${runId}-gb`, consumed_step: `${runId}:1`, rejected_reason: 'policy-lag' },
    ]);
  }, 240_000);

  it('restarts a dead learner from the committed checkpoint: the version rises by exactly one', async () => {
    const eps = [0, 1, 2].map((i) => ({ id: `${runId}-c${i}`, version: 6, reward: i / 2 }));
    for (const [i, e] of eps.entries()) await storeEpisode(deps, record(e.id, 6, 20 + i));
    await sealAndPublishGroup(deps, group(`${runId}-gc`, eps));
    const before = host.current();
    before?.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    const r2 = await trainStep({ runId, step: 2, groups: 1, maxPolicyLag: 4, learner: spec });
    expect(host.current()?.pid).not.toBe(before?.pid);
    expect([r2.versionBefore, r2.versionAfter]).toEqual([6, 7]);
    expect(r2.rejectedGroups).toEqual([]);
    expect(r2.trainedGroups).toEqual([`${runId}-gc`]);
  }, 240_000);

  it('survives the learner dying mid-step: the retry trains once, from the checkpoint, and consumes the group once', async () => {
    const eps = [0, 1].map((i) => ({ id: `${runId}-d${i}`, version: 7, reward: i }));
    for (const [i, e] of eps.entries()) await storeEpisode(deps, record(e.id, 7, 30 + i));
    await sealAndPublishGroup(deps, group(`${runId}-gd`, eps));
    const input = { runId, step: 3, groups: 1, maxPolicyLag: 4, learner: spec };
    const batchFile = path.join(host.runDir(runId), 'batches', 'step-3.json');
    const first = trainStep(input).then(() => 'completed', (e: unknown) => String(e));
    while (!fs.existsSync(batchFile)) await new Promise((r) => setTimeout(r, 20)); // written just before the train request
    host.current()?.kill('SIGKILL');
    expect(await first).toMatch(/learner service exited/);
    const r3 = await trainStep(input);
    expect([r3.versionBefore, r3.versionAfter]).toEqual([7, 8]);
    const n = await deps.pool.query('select count(*)::int as n from training_steps where run_id = $1 and step = 3', [runId]);
    expect(n.rows[0].n).toBe(1);
    const g = await deps.pool.query('select consumed_step from training_groups where group_id = $1', [`${runId}-gd`]);
    expect(g.rows[0].consumed_step).toBe(`${runId}:3`);
  }, 240_000);

  it("applies the learner's lag rule per trajectory: a stale one is dropped and counted, its group still trains", async () => {
    const eps = [{ id: `${runId}-e0`, version: 8, reward: 0 }, { id: `${runId}-e1`, version: 8, reward: 1 }, { id: `${runId}-e2`, version: 3, reward: 1 }];
    for (const [i, e] of eps.entries()) await storeEpisode(deps, record(e.id, e.version, 40 + i));
    await sealAndPublishGroup(deps, group(`${runId}-ge`, eps));
    const r4 = await trainStep({ runId, step: 4, groups: 1, maxPolicyLag: 4, learner: spec });
    expect([r4.versionBefore, r4.versionAfter]).toEqual([8, 9]);
    expect(r4.trainedGroups).toEqual([`${runId}-ge`]);
    expect(r4.rejectedGroups).toEqual([]);
    expect(r4.rejectedTrajectories).toEqual([{ episodeId: `${runId}-e2`, reason: 'policy-lag', detail: 'lag 5 > 4 versions' }]);
    expect(r4.metrics?.trajectories_trained).toBe(2);
    expect(r4.metrics?.stale_trajectories_dropped).toBe(1);
  }, 240_000);

  it('fails a bad input non-retryably, naming the field', async () => {
    const err = await trainStep({ runId, step: 3, groups: 0, maxPolicyLag: 4, learner: spec }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expect((err as ApplicationFailure).message).toMatch(/groups: Too small/);
  });
});
