/**
 * PipelineWorkflow end to end on real Temporal, Kafka, PostgreSQL, bubblewrap sandboxes and the Python learner, with a
 * private tiny model (the learning test's random Llama with the SmolLM2 tokenizer, served niced on its own port and
 * trained by the learner as `modelDir`), on one train task with tiny settings: the oracle teacher, the corpus and its
 * cut, SFT, one GRPO step from the SFT adapter with BC replay, and the three evaluations.
 *
 * The workflows (and the local activities they run in-line: an episode's bookkeeping, its sandbox and tool calls, the
 * oracle's turns) run in a worker PROCESS of their own, which also polls its own host queue as workers/worker.ts does.
 * The test SIGKILLs it and starts it again once in every stage while that stage runs, so a kill also takes the
 * sandboxes of the episodes running then, which recover. The other activities run in this process, on the same queue
 * and the gpu queue. The pipeline must finish with its children under the derived ids, each started
 * once (one execution per id in Temporal, one evaluation per id in PostgreSQL, one training run), and return them.
 * Then `debugrl pipeline --id <it>` (in-process) follows the finished pipeline, never runs it again, and prints the
 * three-way table and the stage times. DEBUGRL_PIPELINE_SAVE_HISTORY=1 writes the run's history to tests/histories/ for the replay test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection } from '@temporalio/worker';
import { Command } from 'commander';
import { LearnerHost } from '../activities/learner';
import { createActivities } from '../activities';
import { SessionRegistry } from '../activities/sandbox';
import { loadConfig } from '../common/config';
import { PIPELINE_STAGES, type PipelineProgress, type PipelineResult, type PipelineStage } from '../common/pipeline';
import { openDeps, type OpenDeps } from '../workers/deps';
import { learnerActivities } from '../workers/learner-worker';
import { pipelineProgressQuery, PipelineWorkflow } from '../workflows/pipeline';
import { workflowResult } from '../workers/cli-kit';
import { register as registerPipelineCommand } from '../workers/commands/pipeline';
import { startTinyModelServer, type ModelServer } from './helpers/model-server';
import { quietRuntime, temporalClient, uniqueQueue, workerConnection, workflowBundle } from './helpers/services';

const ROOT = path.resolve(__dirname, '..');
const PORT = Number(process.env.DEBUGRL_PIPELINE_PORT ?? 18767);
// Both the port and the address: ./infra/test exports DEBUGRL_EMBEDDED_URL (the shared server), which would win.
const url = `http://127.0.0.1:${PORT}/v1`;
const config = loadConfig({ ...process.env, DEBUGRL_EMBEDDED_PORT: String(PORT), DEBUGRL_EMBEDDED_URL: url, DEBUGRL_PUBLISH_URL: url });
const TASKS = (process.env.DEBUGRL_PIPELINE_TASKS ?? 'trading_dashboard_tickers').split(',');
const CUT_TOKENS = 2560;

/** The killable worker: a process that runs the workflows (the cached bundle, so it starts in seconds), the local
 * activities they run in-line, and the sandbox activities on its own host queue, from the built lib/ (`npx tsc -p .`,
 * as ./infra/test builds first). The other activities run in this test's process. */
const WORKER_JS = `
const path = require('node:path');
const { NativeConnection, Worker, Runtime, DefaultLogger } = require('@temporalio/worker');
const lib = (m) => require(path.join(process.env.PIPELINE_LIB, m));
Runtime.install({ logger: new DefaultLogger('ERROR') });
(async () => {
  const config = lib('common/config').loadConfig();
  const deps = lib('workers/deps').openDeps(config, 'pipeline-test-workflows');
  const hostQueue = process.env.PIPELINE_QUEUE + '-host-' + process.pid;
  const activities = lib('activities').createActivities(deps, { hostQueue, sessions: new (lib('activities/sandbox').SessionRegistry)() });
  const connection = await NativeConnection.connect(lib('common/connections').temporalConnectionOptions(config));
  const namespace = config.DEBUGRL_TEMPORAL_NAMESPACE;
  const worker = await Worker.create({ connection, namespace, taskQueue: process.env.PIPELINE_QUEUE, workflowBundle: { codePath: process.env.PIPELINE_BUNDLE }, activities, enableNonLocalActivities: false });
  const host = await Worker.create({ connection, namespace, taskQueue: hostQueue, activities });
  console.log('polling');
  await Promise.all([worker.run(), host.run()]);
})().catch((e) => { console.error(e); process.exit(1); });`;

async function startWorkflowWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', WORKER_JS], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const up = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`workflow worker not up in 120 s:\n${log}`)), 120_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      if (log.includes('polling')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') console.error(`the pipeline test's workflow worker exited (${code ?? signal}):\n${log.slice(-3000)}`);
      reject(new Error(`workflow worker exited with ${code ?? signal}:\n${log}`));
    });
  });
  await up;
  return child;
}

/** How many executions Temporal holds under a workflow id (a child started again would be a second). */
async function executions(client: Client, workflowId: string): Promise<number> {
  const runs: string[] = [];
  for await (const w of client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) runs.push(w.runId);
  return runs.length;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

describe('PipelineWorkflow (real services, a private tiny model, a workflow worker killed in every stage)', () => {
  const taskQueue = uniqueQueue('pipeline');
  let server: ModelServer;
  let deps: OpenDeps;
  let sessions: SessionRegistry;
  let host: LearnerHost;
  let workers: Worker[] = [];
  let connection: NativeConnection;
  let running: Promise<unknown>;
  let workflowWorker: ChildProcess | undefined;
  let workerEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    quietRuntime();
    server = await startTinyModelServer(config, PORT, { name: 'pipeline' });

    // activities on the pipeline's queue and the gpu queue; workflows and sandboxes in the killable process
    deps = openDeps(config, 'pipeline-test');
    sessions = new SessionRegistry();
    const activities = createActivities(deps, { hostQueue: `${taskQueue}-host-unused`, sessions });
    host = new LearnerHost(config);
    connection = await workerConnection();
    workers = [
      await Worker.create({ connection, taskQueue, activities, maxConcurrentActivityTaskExecutions: 16 }),
      await Worker.create({ connection, taskQueue: `${taskQueue}-gpu`, activities: learnerActivities(deps, config, host), maxConcurrentActivityTaskExecutions: 1 }),
    ];
    running = Promise.all(workers.map((w) => w.run()));
    const bundle = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-bundle-')), 'workflows.js');
    fs.writeFileSync(bundle, (await workflowBundle()).code);
    workerEnv = {
      DEBUGRL_EMBEDDED_PORT: String(PORT), DEBUGRL_EMBEDDED_URL: url, DEBUGRL_PUBLISH_URL: url,
      PIPELINE_LIB: process.env.DEBUGRL_PIPELINE_LIB ?? path.join(ROOT, 'lib'), PIPELINE_QUEUE: taskQueue, PIPELINE_BUNDLE: bundle,
    };
    workflowWorker = await startWorkflowWorker(workerEnv);
  }, 300_000);

  afterAll(async () => {
    if (workflowWorker) await kill(workflowWorker);
    for (const w of workers) w.shutdown();
    await running;
    await sessions?.closeAll();
    await host?.close();
    await deps?.close();
    await connection?.close();
    await server?.stop();
  }, 120_000);

  it('runs every stage, survives a worker kill in each, and starts each child once', async () => {
    const { client, connection: clientConnection } = await temporalClient();
    const pipelineId = `pipeline-test-${Date.now()}`;
    try {
      const handle = await client.workflow.start(PipelineWorkflow, {
        taskQueue,
        workflowId: pipelineId,
        args: [
          {
            taskIds: TASKS,
            // no debugger: short prompts for the tiny model, and a teacher trajectory that only the edit filters judge
            toolset: 'no-debugger',
            teacherLimits: { maxTurns: 40 },
            corpus: { maxTokens: CUT_TOKENS, heldOutFraction: 0 },
            sft: { epochs: 1, lr: 1e-3, warmupSteps: 0, batchExamples: 1 },
            training: {
              steps: 1, groupSize: 2, groupsPerStep: 1, poolSize: 2, dropZeroSignalGroups: false, bcExamples: 1,
              // A kill takes the sandboxes of the running episodes: their recovery waits this long on the dead queue.
              sandboxScheduleToStartSeconds: 10,
              limits: { maxTurns: 1, maxNewTokens: 48, maxContextTokens: 8192 },
              learner: { model: 'smollm2', modelDir: server.modelDir, loraRank: 4, lr: 1e-3, maxTokens: 8192 },
            },
            evaluation: { episodesPerTask: 1, limits: { maxTurns: 2, maxNewTokens: 48, maxContextTokens: 8192 }, sandboxScheduleToStartSeconds: 10 },
            learnerTaskQueue: `${taskQueue}-gpu`,
          },
        ],
      });

      // Kill the workflow worker once in each stage, while the stage runs (its record has no finish time yet).
      const killedIn: PipelineStage[] = [];
      const done = workflowResult(handle).then(() => true, () => true);
      let finished = false;
      void done.then(() => (finished = true));
      while (!finished) {
        const p: PipelineProgress | null = await handle.query(pipelineProgressQuery).catch(() => null);
        const current = p?.stages.at(-1);
        if (current && current.finishedAtMs === null && !killedIn.includes(current.stage)) {
          await kill(workflowWorker!);
          killedIn.push(current.stage);
          workflowWorker = await startWorkflowWorker(workerEnv);
        }
        await Promise.race([done, new Promise((r) => setTimeout(r, 500))]);
      }
      const r = await workflowResult<PipelineResult>(handle);
      expect(killedIn).toEqual([...PIPELINE_STAGES]);

      // every child under its derived id, each started exactly once
      const ids = { teacher: `${pipelineId}-teacher`, sft: `${pipelineId}-sft`, rl: `${pipelineId}-rl`, 'eval-base': `${pipelineId}-eval-base`, 'eval-sft': `${pipelineId}-eval-sft`, 'eval-rl': `${pipelineId}-eval-rl` };
      expect(r.children).toEqual(ids);
      expect(r.evaluations).toEqual({ base: ids['eval-base'], sft: ids['eval-sft'], rl: ids['eval-rl'] });
      for (const id of Object.values(ids)) expect({ id, runs: await executions(client, id) }).toEqual({ id, runs: 1 });
      const evals = await deps.pool.query<{ evaluation_id: string }>('select evaluation_id from evaluations where evaluation_id like $1 order by 1', [`${pipelineId}%`]);
      expect(evals.rows.map((x) => x.evaluation_id)).toEqual([ids['eval-base'], ids['eval-rl'], ids['eval-sft'], ids.teacher]);
      const runsStored = await deps.pool.query<{ input: { initAdapter: string; bcCorpus: string } }>('select input from training_runs where run_id like $1', [`${pipelineId}%`]);
      expect(runsStored.rows).toHaveLength(1);
      expect(runsStored.rows[0]!.input).toMatchObject({ initAdapter: r.sftAdapter.name, bcCorpus: r.corpus.cutDir });
      expect(r.rlSteps).toBe(1);

      // the teacher's trajectory, cut to whole assistant turns within the limit
      expect(r.corpus).toMatchObject({ corpusDir: path.join(config.DEBUGRL_DATA_DIR, 'sft-corpora', pipelineId), cutDir: path.join(config.DEBUGRL_DATA_DIR, 'sft-corpora', `${pipelineId}-cut${CUT_TOKENS}`), trainExamples: 1 });
      const rows = fs.readFileSync(path.join(r.corpus.cutDir, 'train.tokens.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { token_ids: number[]; assistant_mask: boolean[] });
      for (const row of rows) {
        expect(row.token_ids.length).toBeLessThanOrEqual(CUT_TOKENS);
        expect(row.assistant_mask.at(-1)).toBe(true);
      }
      expect(r.sftAdapter.name).toMatch(/^sft-v\d+$/);

      // the three evaluations: the same task and seed, the three policies
      const episodes = await deps.pool.query<{ evaluation_id: string; policy: string; seed: number; task: string }>(
        `select evaluation_id, record->'policy'->>'spec' as policy, (record->>'seed')::int as seed, record->>'taskId' as task from episodes where evaluation_id = any($1) order by evaluation_id`,
        [[ids['eval-base'], ids['eval-sft'], ids['eval-rl']]],
      );
      expect(episodes.rows).toEqual([
        { evaluation_id: ids['eval-base'], policy: 'embedded', seed: 0, task: TASKS[0] },
        { evaluation_id: ids['eval-rl'], policy: r.rlPolicy, seed: 0, task: TASKS[0] },
        { evaluation_id: ids['eval-sft'], policy: `embedded:${r.sftAdapter.name}`, seed: 0, task: TASKS[0] },
      ]);
      expect(r.rlPolicy).toBe(`embedded:${ids.rl}--policy-v1`);
      expect(r.stages.map((s) => s.stage)).toEqual([...PIPELINE_STAGES]);
      for (const s of r.stages) expect(s.finishedAtMs).toBeGreaterThanOrEqual(s.startedAtMs);
      console.log(`PIPELINE_TEST_WORKFLOW_ID=${pipelineId} stages: ${r.stages.map((s) => `${s.stage} ${((s.finishedAtMs! - s.startedAtMs) / 1000).toFixed(0)} s`).join(', ')}`);

      // `debugrl pipeline --id <it>` follows the finished pipeline (never runs it again) and prints the table
      const out: string[] = [];
      const log = jest.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
      try {
        const program = new Command().exitOverride();
        registerPipelineCommand(program);
        await program.parseAsync(['pipeline', '--id', pipelineId], { from: 'user' });
        expect(process.exitCode).toBe(0);
      } finally {
        log.mockRestore();
        process.exitCode = undefined;
      }
      const printed = out.join('\n');
      expect(printed).toContain(`pipeline ${pipelineId} exists already; following it`);
      expect(printed).toContain(`| metric | ${ids['eval-base']} | ${ids['eval-sft']} | ${ids['eval-rl']} |`);
      expect(printed).toMatch(/^Stage times: +teacher \d+ s, corpus \d+ s, sft \d+ s, rl \d+ s, eval-base \d+ s, eval-sft \d+ s, eval-rl \d+ s$/m);
      expect(await executions(client, pipelineId)).toBe(1);

      if (process.env.DEBUGRL_PIPELINE_SAVE_HISTORY === '1') {
        const history = await handle.fetchHistory();
        fs.writeFileSync(path.join(__dirname, 'histories', `PipelineWorkflow@${pipelineId}.json`), historyToJSON(history));
      }
    } finally {
      await clientConnection.close();
    }
  }, 900_000);
});
