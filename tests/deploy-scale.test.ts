/** What "past one machine" means that can be tested on one (issue 11; docs/deploy.md), on the real Temporal, Kafka and
 * PostgreSQL of infra/up:
 *  - N harness hosts: two worker processes (node lib/workers/worker.js, as on two harness hosts) on one task queue
 *    serve one evaluation, and both open sandboxes for it;
 *  - Kafka with several partitions: the training consumer (readGroups + commitStep) reads one run's groups from every
 *    partition of `training-groups` exactly once, skips other runs' groups and a duplicate send; and infra/topics.ts
 *    creates and grows a topic to DEBUGRL_KAFKA_PARTITIONS, with the replication factor the config asks for.
 * No multi-broker cluster, remote Temporal or second host exists here. */
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeKafka, scanPartition, sharedProducer, topicOffsets } from '../activities/kafka';
import { beginRun, commitStep, readGroups, sealAndPublishGroup, type ReadGroups } from '../activities/training-store';
import { partitionFor } from '../activities/trajectory-store';
import { loadConfig } from '../common/config';
import { GROUP_SCHEMA, TRAINING_GROUPS_TOPIC, type GroupRecord, type StepResult } from '../common/training';
import { REWARD_CONFIG } from '../common/reward';
import { ensureTopics } from '../infra/topics';
import { EvaluationWorkflow } from '../workflows/evaluation';
import { openDeps, type OpenDeps } from '../workers/deps';
import { FIXTURE_TASKS, fixCalls } from './helpers/episodes';
import { config, temporalClient, uniqueQueue } from './helpers/services';
import { startWorker, stopWorker } from './helpers/worker-process';

describe('N harness worker processes serve one evaluation', () => {
  const workers: ChildProcess[] = [];
  const deps = openDeps(config, 'deploy-scale-eval');
  afterAll(async () => {
    await Promise.all(workers.map((w) => stopWorker(w)));
    await deps.close();
  }, 60_000);

  it('runs every episode, with sandboxes opened on both processes', async () => {
    const taskQueue = uniqueQueue('deploy-scale');
    // Each child is kept as soon as it is up, so afterAll stops it even when the other fails to start.
    await Promise.all([1, 2].map(() => startWorker({ DEBUGRL_TASK_QUEUE: taskQueue, DEBUGRL_TASKS_DIR: FIXTURE_TASKS }, 240_000).then((w) => workers.push(w))));
    const scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-deploy-scripts-'));
    const write = (task: string, calls: unknown[]) => fs.writeFileSync(path.join(scripts, `${task}.jsonl`), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
    write('shared_default_tags', [...fixCalls(path.join(FIXTURE_TASKS, 'shared_default_tags')), { name: 'done', arguments: {} }]);
    write('nested_copy_alias', [...fixCalls(path.join(FIXTURE_TASKS, 'nested_copy_alias')), { name: 'done', arguments: {} }]);
    write('reentrant_lock_hang', [{ name: 'done', arguments: {} }]);

    const { client, connection } = await temporalClient();
    const evaluationId = `deploy-scale-${Date.now()}`;
    try {
      // 12 episodes, 6 at a time. Temporal hands each episode's workflow task, and so its sandbox, to whichever poller
      // asks first; that all 12 land on one of two equal processes has probability 2 * 2^-12.
      const result = await client.workflow.execute(EvaluationWorkflow, {
        taskQueue,
        workflowId: evaluationId,
        args: [{ policy: `scripted:${scripts}`, taskIds: ['nested_copy_alias', 'reentrant_lock_hang', 'shared_default_tags'], episodesPerTask: 4, k: 2, toolset: 'full', concurrency: 6 }],
      });
      expect(result.failedEpisodes).toBe(0);
      expect(result.arms[0]).toMatchObject({ episodes: 12 });
      // nested_copy_alias and shared_default_tags are fixed, reentrant_lock_hang never is: pass@1 = 8/12.
      expect(result.arms[0].passAt1).toBeCloseTo(8 / 12, 9);

      // Which process opened each episode's sandbox: openSandbox's result names its host queue, "...-<pid>-<hex>". It
      // is a local activity (the `local-tool-calls` shape): its marker holds the activity type and the result.
      const episodes = (await deps.pool.query('select workflow_id from episodes where evaluation_id = $1', [evaluationId])).rows.map((r) => r.workflow_id as string);
      expect(episodes).toHaveLength(12);
      const pids = new Set<number>();
      const text = (p: { data?: Uint8Array | null } | undefined) => Buffer.from(p?.data ?? []).toString();
      for (const id of episodes) {
        const history = await client.workflow.getHandle(id).fetchHistory();
        for (const e of history.events!) {
          const details = e.markerRecordedEventAttributes?.details;
          if (!details?.data || JSON.parse(text(details.data.payloads![0])).activity_type !== 'openSandbox') continue;
          const queue = JSON.parse(text(details.result!.payloads![0])).queue as string;
          pids.add(Number(/-(\d+)-[0-9a-f]+$/.exec(queue)![1]));
        }
      }
      expect([...pids].sort()).toEqual(workers.map((w) => w.pid!).sort());
    } finally {
      await connection.close();
    }
  }, 600_000);
});

describe('Kafka topics with several partitions', () => {
  let deps: OpenDeps;
  beforeAll(() => (deps = openDeps(config, 'deploy-scale-kafka')));
  afterAll(async () => deps.close());

  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const group = (runId: string, n: number): GroupRecord => ({
    schema: GROUP_SCHEMA,
    groupId: `${runId}:g${n}`,
    runId,
    taskId: 'deploy_scale_task',
    rewardConfig: REWARD_CONFIG.version,
    episodes: [{ episodeId: `${runId}:e${n}`, reward: n, components: {}, passed: false, usedDebugger: false, minPolicyVersion: 0 }],
    sealedReason: 'full',
    infraFailures: 0,
  });
  const step = (runId: string, n: number, read: ReadGroups): StepResult => ({
    stepId: `${runId}:${n}`,
    step: n,
    versionBefore: n - 1,
    versionAfter: n,
    adapterPath: null,
    trainedGroups: read.groups.map((g) => g.groupId),
    rejectedGroups: [],
    rejectedTrajectories: [],
    lagHistogram: {},
    meanReward: 0,
    passRate: 0,
    metrics: null,
    lag0: null,
    busyMs: 0,
  });

  it('the training consumer reads one run\'s groups from every partition exactly once, and nothing of another run', async () => {
    const partitions = (await topicOffsets(deps.kafka, TRAINING_GROUPS_TOPIC)).length;
    expect(partitions).toBeGreaterThanOrEqual(3);
    // Two runs whose groups the project's producer puts on different partitions (keyed by run id).
    const runA = `deploy-scale-a-${stamp}`;
    let runB = '';
    for (let i = 0; !runB; i++) if (partitionFor(`deploy-scale-b${i}-${stamp}`, partitions) !== partitionFor(runA, partitions)) runB = `deploy-scale-b${i}-${stamp}`;
    for (const runId of [runA, runB]) await beginRun(deps, { runId, workflowId: runId, input: {} });

    // Run A: two groups sealed the project's way (PostgreSQL row, then Kafka), on its home partition ...
    const home = [group(runA, 1), group(runA, 2)];
    for (const g of home) expect((await sealAndPublishGroup(deps, g)).partition).toBe(partitionFor(runA, partitions));
    const b = await sealAndPublishGroup(deps, group(runB, 1));
    // ... and one on each other partition, as groups land after the topic grew or from another partitioner; the
    // first of those partitions starts with a second send of group 1 (a lost acknowledgement), ahead of its group.
    const producer = await deps.producer();
    const send = (g: GroupRecord, partition: number) =>
      producer.send({ topic: TRAINING_GROUPS_TOPIC, messages: [{ key: g.runId, partition, value: JSON.stringify(g), headers: { 'group-id': g.groupId, schema: GROUP_SCHEMA } }] });
    const others = Array.from({ length: partitions }, (_, p) => p).filter((p) => p !== partitionFor(runA, partitions));
    await send(home[0], others[0]);
    const spread = others.map((p, i) => ({ g: group(runA, 10 + i), p }));
    for (const { g, p } of spread) await send(g, p);
    const all = [...home, ...spread.map((s) => s.g)].map((g) => g.groupId).sort();

    // Two steps, each committing its groups and offsets in one transaction, read everything once.
    const first = await readGroups(deps, runA, 3);
    await commitStep(deps.pool, runA, step(runA, 1, first), first);
    const second = await readGroups(deps, runA, all.length - 3);
    await commitStep(deps.pool, runA, step(runA, 2, second), second);
    const trained = [...first.groups, ...second.groups].map((g) => g.groupId);
    expect(trained.sort()).toEqual(all);
    expect(first.duplicates + second.duplicates).toBe(1);
    // Every partition was read past where the run began.
    for (let p = 0; p < partitions; p++) expect(BigInt(second.next[p])).toBeGreaterThan(BigInt(first.from[p]));
    const consumed = await deps.pool.query('select group_id, consumed_step from training_groups where run_id = $1 order by group_id', [runA]);
    expect(consumed.rows).toEqual([
      { group_id: home[0].groupId, consumed_step: expect.stringMatching(/^deploy-scale-a-.*:[12]$/) },
      { group_id: home[1].groupId, consumed_step: expect.stringMatching(/^deploy-scale-a-.*:[12]$/) },
    ]);
    // Nothing is left for run A, and run B's group was never run A's.
    await expect(readGroups(deps, runA, 1, 20_000)).rejects.toThrow(/no unconsumed groups|only 0 of 1/);
    const readB = await readGroups(deps, runB, 1);
    expect(readB.groups.map((g) => g.groupId)).toEqual([`${runB}:g1`]);
    expect(readB.next[b.partition]).toBe(String(BigInt(b.offset) + 1n));
  }, 240_000);

  it('infra/topics.ts creates a topic with DEBUGRL_KAFKA_PARTITIONS, grows it, and hands the replication factor to Kafka', async () => {
    const topic = `deploy-scale-${stamp}`;
    const spec = (name: string, partitions: number) => ({ name, partitions, description: 'deploy-scale test topic', config: {} });
    const admin = deps.kafka.admin();
    await admin.connect();
    try {
      expect(await ensureTopics(loadConfig({ ...process.env, DEBUGRL_KAFKA_PARTITIONS: '3' }), [spec(topic, 2)])).toEqual([topic]);
      expect((await topicOffsets(deps.kafka, topic)).length).toBe(3);
      expect(await ensureTopics(loadConfig({ ...process.env, DEBUGRL_KAFKA_PARTITIONS: '5' }), [spec(topic, 2)])).toEqual([]);
      expect((await topicOffsets(deps.kafka, topic)).length).toBe(5);
      // One broker here: a factor of 2 reaches Kafka, which refuses it.
      await expect(ensureTopics(loadConfig({ ...process.env, DEBUGRL_KAFKA_REPLICATION_FACTOR: '2' }), [spec(`${topic}-r2`, 1)])).rejects.toThrow(/Topic creation errors \(deploy-scale-.*-r2: Replication-factor is invalid\)/);

      // Records spread by key over the 5 partitions come back once each through scanPartition.
      const producer = sharedProducer(makeKafka(config, 'deploy-scale-topic'));
      const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
      try {
        const p = await producer.get();
        await p.send({ topic, messages: keys.map((k) => ({ key: k, value: k, partition: partitionFor(k, 5) })) });
      } finally {
        await producer.close();
      }
      const seen: string[] = [];
      const used = new Set<number>();
      for (const o of await topicOffsets(deps.kafka, topic)) {
        await scanPartition(deps.kafka, { topic, partition: o.partition }, (m) => {
          seen.push(m.key!.toString());
          used.add(o.partition);
        });
      }
      expect(seen.sort()).toEqual([...keys].sort());
      expect(used.size).toBe(5);
    } finally {
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  }, 180_000);
});
