/**
 * Training pipeline efficiency and group assignment (issue 11, "Benchmarks"). Not a timed test: run it and copy the
 * output into benchmarks/training-pipeline.md.
 *
 *   npx tsc -p tsconfig.json && node lib/benchmarks/training-pipeline.js [phase=all|alone|compare|sim] [steps=8] [pool=4]
 *
 * The real coordinator (TrainingRunWorkflow on the Temporal dev server, PostgreSQL, Kafka, child EpisodeWorkflows in
 * real sandboxes that grade with pytest) trains the real learner service on the tiny random Qwen3-MoE (`tiny-moe`,
 * 128-token vocabulary). The policy is a benchmark-only fake OpenAI-compatible server in this process: it answers
 * every turn at once with a `done` call, 64 prompt token ids hashed from the conversation, 16 completion ids from the
 * episode's seed (all < 128) and fixed made-up logprobs (so the lag-0 logprob check is off). It "loads" any adapter
 * and answers for `[<run>.]policy-v<N>` with policy version N. Its canary reply asks this arm's learner to score its own tokens,
 * so publishAdapter's canary runs its real code path but cannot fail: the fake has no model to compare.
 *
 * - alone:   one run, fill-nearest: learner busy fraction, rollouts per second, queue depth over time against the
 *            water marks.
 * - compare: a fill-nearest and a round-robin run at the same time (each with its own workers, fake server and learner
 *            process), so the machine's load hits both: time to the first trainable batch (the first trainStep
 *            scheduled) and mean policy lag of the trained trajectories.
 * - sim:     a discrete-event simulation of the pool with the same pure assignment function (common/assignment.ts),
 *            episode times drawn from the real runs' child workflows, the learner's cycle from the real steps; many
 *            seeds, so the comparison does not rest on one noisy run.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import { createActivities } from '../activities';
import { LearnerHost } from '../activities/learner';
import { SessionRegistry } from '../activities/sandbox';
import { nextGroup, type Assignment } from '../common/assignment';
import { loadConfig, REPO_ROOT } from '../common/config';
import { mulberry32 } from '../common/rng';
import { runSettings, TrainingRunInput, versionOfAdapter, type TrainingProgress } from '../common/training';
import { openDeps } from '../workers/deps';
import { learnerActivities } from '../workers/learner-worker';
import { progressQuery, TrainingRunWorkflow } from '../workflows/training-run';

const phase = process.argv[2] ?? 'all';
const steps = Number(process.argv[3] ?? 8);
const pool = Number(process.argv[4] ?? 4);
const TASKS = path.join(REPO_ROOT, 'tests/fixtures/tasks');
const TASK_IDS = ['shared_default_tags', 'nested_copy_alias'];
const PROMPT_TOKENS = 64;
const COMPLETION_TOKENS = 16;
const VOCAB = 128; // tiny-moe's vocabulary
const SAMPLE_MS = 500;

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

// --- the fake policy server --------------------------------------------------------------------------------------------

/** FNV-1a over a string, then a mulberry32 stream: `n` deterministic token ids below the vocabulary. */
function tokenIds(text: string, n: number): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  const r = mulberry32(h);
  return Array.from({ length: n }, () => Math.floor(r() * VOCAB));
}

interface FakeServer {
  url: string;
  chats: number;
  close(): Promise<void>;
}

function fakePolicyServer(host: LearnerHost): Promise<FakeServer> {
  const loaded = new Set<string>();
  const state = { chats: 0 };
  const reply = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      void (async () => {
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        const route = (req.url ?? '').replace(/^\/v1/, '');
        if (route === '/models') return reply(res, 200, { data: [{ id: 'default' }, ...[...loaded].map((id) => ({ id }))] });
        if (route === '/load_lora_adapter') return loaded.add(String(body.lora_name)), reply(res, 200, { loaded: body.lora_name });
        if (route === '/unload_lora_adapter') return loaded.delete(String(body.lora_name)), reply(res, 200, { unloaded: body.lora_name });
        if (route !== '/chat/completions') return reply(res, 404, { error: `no route ${route}` });
        state.chats++;
        const model = String(body.model);
        const version = model === 'default' ? 0 : versionOfAdapter(model);
        if (version === null) return reply(res, 404, { error: `unknown model ${model}` });
        const prompt = tokenIds(JSON.stringify(body.messages), PROMPT_TOKENS);
        const canary = !body.tools; // publishAdapter's canary sends no tools
        const completion = tokenIds(`${model}:${String(body.seed)}`, canary ? Number(body.max_tokens) : COMPLETION_TOKENS);
        let logprobs = completion.map((t) => -0.05 - (t % 40) / 10);
        if (canary) {
          const learner = host.current();
          if (!learner) return reply(res, 503, { error: 'no learner to score the canary' });
          logprobs = ((await learner.request({ type: 'score', sequences: [{ prompt_ids: prompt, completion_ids: completion }] })).logprobs as number[][])[0];
        }
        reply(res, 200, {
          choices: [
            {
              message: canary ? { content: 'canary' } : { content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'done', arguments: '{}' } }] },
              logprobs: { content: logprobs.map((logprob) => ({ logprob })) },
              token_ids: completion,
            },
          ],
          usage: { prompt_tokens: prompt.length, completion_tokens: completion.length },
          prompt_token_ids: prompt,
          policy_version: version,
        });
      })().catch((e: unknown) => reply(res, 500, { error: String(e) }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({ url: `http://127.0.0.1:${port}/v1`, get chats() { return state.chats; }, close: () => new Promise<void>((r) => server.close(() => r())) });
    }),
  );
}

// --- one arm: its own fake server, workers and learner process ---------------------------------------------------------

interface Sample {
  t: number; // seconds since the run started
  queued: number;
  running: number;
  open: number;
  step: number;
  episodes: number;
}

interface ArmResult {
  assignment: Assignment;
  runId: string;
  wallS: number;
  samples: Sample[];
  progress: TrainingProgress;
  input: ReturnType<typeof TrainingRunInput.parse>;
  firstBatchS: number;
  episodeS: number[];
  trainStepS: number[];
  publishS: number[];
  busyS: number[];
}

type Event = temporal.api.history.v1.IHistoryEvent;
const ms = (e: Event) => tsToMs(e.eventTime!);

async function arm(bundle: WorkflowBundleWithSourceMap, client: Client, assignment: Assignment, tag: string): Promise<ArmResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, DEBUGRL_TASKS_DIR: TASKS };
  delete env.DEBUGRL_EMBEDDED_PORT;
  delete env.DEBUGRL_PUBLISH_URL;
  const base = loadConfig(env);
  const host = new LearnerHost(base);
  const fake = await fakePolicyServer(host);
  const config = loadConfig({ ...env, DEBUGRL_EMBEDDED_URL: fake.url });
  const deps = openDeps(config, `training-pipeline-${tag}`);
  const taskQueue = `training-pipeline-${tag}-${process.pid}-${Date.now().toString(36)}`;
  const sessions = new SessionRegistry();
  const activities = createActivities(deps, { hostQueue: `${taskQueue}-host`, sessions });
  const wconn = await NativeConnection.connect({ address: config.DEBUGRL_TEMPORAL_ADDRESS });
  const workers = [
    await Worker.create({ connection: wconn, taskQueue, workflowBundle: bundle, activities, maxConcurrentActivityTaskExecutions: 32 }),
    await Worker.create({ connection: wconn, taskQueue: `${taskQueue}-host`, activities, maxConcurrentActivityTaskExecutions: 32 }),
    await Worker.create({ connection: wconn, taskQueue: `${taskQueue}-gpu`, activities: learnerActivities(deps, config, host), maxConcurrentActivityTaskExecutions: 1 }),
  ];
  const running = Promise.all(workers.map((w) => w.run()));
  const runId = `bench-pipe-${tag}-${Date.now().toString(36)}`;
  const raw = {
    runId, taskIds: TASK_IDS, groupSize: 4, groupsPerStep: 1, steps, poolSize: pool, assignment, toolset: 'no-debugger' as const,
    limits: { maxTurns: 1, maxNewTokens: 16 }, learner: { model: 'tiny-moe' as const, loraRank: 4, lr: 1e-3, klCoef: 0, maxTokens: 1024 },
    learnerTaskQueue: `${taskQueue}-gpu`, seed: 11,
  };
  const input = TrainingRunInput.parse(raw);
  try {
    const t0 = Date.now();
    const handle: WorkflowHandle<typeof TrainingRunWorkflow> = await client.workflow.start(TrainingRunWorkflow, { taskQueue, workflowId: runId, args: [raw] });
    const samples: Sample[] = [];
    let done = false;
    const result = handle.result().finally(() => (done = true));
    while (!done) {
      const p = await handle.query(progressQuery).catch(() => null);
      if (p) samples.push({ t: (Date.now() - p.startedAtMs) / 1000, queued: p.groupsQueued, running: p.running, open: p.groupsOpen, step: p.step, episodes: p.episodesDone });
      await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, SAMPLE_MS))]);
    }
    await result;
    const wallS = (Date.now() - t0) / 1000;
    const progress = (await handle.query(progressQuery))!;
    const events = (await handle.fetchHistory()).events ?? [];
    const startMs = ms(events[0]);
    const scheduled = (type: string) => events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === type);
    const closedAfter = (s: Event) => events.find((e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === String(s.eventId));
    const activitySeconds = (type: string) => scheduled(type).map((s) => (ms(closedAfter(s)!) - ms(s)) / 1000);
    const children = events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    const episodeS = children.flatMap((c) => {
      const end = events.find((e) => String(e.childWorkflowExecutionCompletedEventAttributes?.initiatedEventId) === String(c.eventId));
      return end ? [(ms(end) - ms(c)) / 1000] : [];
    });
    const busy = await deps.pool.query<{ b: number }>("select (result->>'busyMs')::float / 1000 as b from training_steps where run_id = $1 order by step", [runId]);
    return {
      assignment, runId, wallS, samples, progress, input, firstBatchS: (ms(scheduled('trainStep')[0]) - startMs) / 1000, episodeS,
      trainStepS: activitySeconds('trainStep'), publishS: activitySeconds('publishAdapter'), busyS: busy.rows.map((r) => Number(r.b)),
    };
  } finally {
    workers.forEach((w) => w.shutdown());
    await running;
    await host.close();
    await sessions.closeAll();
    await deps.close();
    await wconn.close();
    await fake.close();
  }
}

// --- reports -----------------------------------------------------------------------------------------------------------

function meanLag(h: Record<string, number>): number {
  const n = Object.values(h).reduce((s, x) => s + x, 0);
  return Object.entries(h).reduce((s, [lag, k]) => s + Number(lag) * k, 0) / Math.max(1, n);
}

function queueTable(r: ArmResult, rows = 16): string[] {
  const { highWater, lowWater } = runSettings(r.input);
  const out = [`queue depth of ${r.assignment} (high water ${highWater}, low water ${lowWater}); one row per ${f1(r.samples.at(-1)!.t / rows)} s, the max over its samples:`, '', '| t s | queued (max) | running | open groups | step |', '|---:|---:|---:|---:|---:|'];
  const end = r.samples.at(-1)!.t;
  for (let i = 0; i < rows; i++) {
    const inRow = r.samples.filter((s) => s.t >= (end * i) / rows && s.t < (end * (i + 1)) / rows + (i === rows - 1 ? 1 : 0));
    if (!inRow.length) continue;
    const last = inRow.at(-1)!;
    out.push(`| ${f1(last.t)} | ${Math.max(...inRow.map((s) => s.queued))} | ${last.running} | ${last.open} | ${last.step} |`);
  }
  return out;
}

/** The queue depth over time as a small SVG step plot with the water marks. */
function queueSvg(arms: ArmResult[]): string {
  const W = 640, H = 220, pad = 34;
  const tMax = Math.max(...arms.map((a) => a.samples.at(-1)!.t));
  const { highWater, lowWater } = runSettings(arms[0].input);
  const qMax = Math.max(highWater + 1, ...arms.flatMap((a) => a.samples.map((s) => s.queued)));
  const x = (t: number) => pad + ((W - 2 * pad) * t) / tMax;
  const y = (q: number) => H - pad - ((H - 2 * pad) * q) / qMax;
  const colors = ['#1f77b4', '#d62728', '#2ca02c'];
  const lines = arms.map((a, i) => {
    const pts = a.samples.flatMap((s, j) => (j ? [`${f1(x(s.t))},${f1(y(a.samples[j - 1].queued))}`, `${f1(x(s.t))},${f1(y(s.queued))}`] : [`${f1(x(s.t))},${f1(y(s.queued))}`]));
    return `<polyline fill="none" stroke="${colors[i]}" stroke-width="1.5" points="${pts.join(' ')}"/><text x="${W - pad - 150}" y="${pad + 14 * i}" fill="${colors[i]}" font-size="11">${a.assignment}</text>`;
  });
  const mark = (q: number, label: string) => `<line x1="${pad}" x2="${W - pad}" y1="${f1(y(q))}" y2="${f1(y(q))}" stroke="#888" stroke-dasharray="4 3"/><text x="${pad + 2}" y="${f1(y(q) - 3)}" font-size="10" fill="#555">${label} ${q}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<line x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}" stroke="black"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${H - pad}" stroke="black"/>`,
    `<text x="${W / 2}" y="${H - 8}" font-size="11" text-anchor="middle">seconds since the run started (0–${f1(tMax)})</text>`,
    `<text x="10" y="${pad - 10}" font-size="11">sealed, untrained groups (queue depth)</text>`,
    mark(highWater, 'high water'),
    mark(lowWater, 'low water'),
    ...lines,
    '</svg>',
  ].join('\n');
}

function armSummary(r: ArmResult): string[] {
  const { highWater, lowWater } = runSettings(r.input);
  const p = r.progress;
  const lastStepAt = p.lastStep!.atMs;
  const activeS = (lastStepAt - p.startedAtMs) / 1000;
  const busy = r.busyS.reduce((s, x) => s + x, 0);
  const busyNoFirst = r.busyS.slice(1).reduce((s, x) => s + x, 0);
  const afterFirst = r.samples.filter((s) => s.step >= 1);
  const over = afterFirst.filter((s) => s.queued > highWater).length;
  return [
    `${r.assignment} (${r.runId}): ${p.step} steps, ${p.episodesDone} episodes (${p.infraFailures} infra failures), wall ${f1(r.wallS)} s, run active ${f1(activeS)} s (start → last step committed)`,
    `- rollouts/s ${f2(p.episodesDone / activeS)} (the coordinator's own figure: ${f2(p.rolloutsPerSecond)}); episode (child workflow) s mean ${f2(mean(r.episodeS))}, min ${f2(Math.min(...r.episodeS))}, max ${f2(Math.max(...r.episodeS))}`,
    `- learner busy fraction ${f2(busy / activeS)} (${f1(busy)} s of trainStep work in ${f1(activeS)} s; the coordinator's own figure ${f2(p.lastStep!.busyFraction)}); without step 1 (the learner process starting: ${f1(r.busyS[0])} s) ${f2(busyNoFirst / (activeS - (r.busyS[0] ?? 0)))}`,
    `- trainStep activity s (schedule → complete) mean ${f2(mean(r.trainStepS))}, busyMs per step s ${r.busyS.map(f2).join(', ')}; publishAdapter s mean ${f2(mean(r.publishS))}`,
    `- time to the first trainable batch (first trainStep scheduled, from the workflow's start) ${f1(r.firstBatchS)} s`,
    `- policy lag of trained trajectories: histogram ${JSON.stringify(p.lagHistogram)}, mean ${f2(meanLag(p.lagHistogram))}; stale groups refused ${p.staleGroupsRejected}`,
    `- queue depth (${r.samples.length} samples every ${SAMPLE_MS} ms): max ${Math.max(...r.samples.map((s) => s.queued))}, water marks ${lowWater}–${highWater}; after step 1, ${over} of ${afterFirst.length} samples above the high mark; mean running episodes ${f2(mean(r.samples.map((s) => s.running)))} of ${pool} slots`,
  ];
}

// --- the discrete-event simulation ---------------------------------------------------------------------------------------

interface SimResult {
  firstBatch: number;
  meanLag: number;
  end: number;
  maxQueue: number;
}

/** The coordinator's pool, water marks and learner loop as a discrete-event simulation; the assignment decision is the
 * workflow's own nextGroup. Times are in seconds: episodes draw from `episodeS`, each learner cycle takes `cycleS`. */
function simulate(assignment: Assignment, o: { episodeS: number[]; cycleS: number; seed: number; groupSize: number; groupsPerStep: number; steps: number; pool: number; highWater: number; lowWater: number }): SimResult {
  const rnd = mulberry32(o.seed);
  type G = { id: number; done: number; inFlight: number; versions: number[] };
  const open: G[] = [];
  const queue: G[] = [];
  const finishing: { at: number; g: G; version: number }[] = [];
  let now = 0, version = 0, step = 0, seq = 0, last: number | null = null, blocked = false, learnerFreeAt = -1, running = 0;
  let firstBatch = NaN, maxQueue = 0;
  const lags: number[] = [];
  const needsNew = () => queue.length + open.length < (o.steps - step) * o.groupsPerStep;
  const assign = () => {
    while (!blocked && running < o.pool) {
      const pick = nextGroup(assignment, { groups: open, groupSize: o.groupSize, mayOpen: needsNew(), poolSize: o.pool, last: open.findIndex((g) => g.id === last) });
      if (pick === null) return;
      const g = pick === 'new' ? (open.push({ id: ++seq, done: 0, inFlight: 0, versions: [] }), open.at(-1)!) : open[pick];
      last = g.id;
      g.inFlight++;
      running++;
      finishing.push({ at: now + o.episodeS[Math.floor(rnd() * o.episodeS.length)], g, version });
    }
  };
  const learn = () => {
    if (learnerFreeAt >= 0 || queue.length < o.groupsPerStep || step >= o.steps) return;
    if (Number.isNaN(firstBatch)) firstBatch = now;
    for (const g of queue.splice(0, o.groupsPerStep)) lags.push(...g.versions.map((v) => version - v));
    learnerFreeAt = now + o.cycleS;
  };
  assign();
  while (step < o.steps) {
    finishing.sort((a, b) => a.at - b.at);
    const nextEp = finishing[0]?.at ?? Infinity;
    if (learnerFreeAt >= 0 && learnerFreeAt <= nextEp) {
      now = learnerFreeAt;
      learnerFreeAt = -1;
      version++;
      step++;
      if (queue.length <= o.lowWater) blocked = false;
    } else {
      const e = finishing.shift()!;
      now = e.at;
      running--;
      e.g.inFlight--;
      e.g.done++;
      e.g.versions.push(e.version);
      if (e.g.done >= o.groupSize) {
        open.splice(open.indexOf(e.g), 1);
        queue.push(e.g);
        maxQueue = Math.max(maxQueue, queue.length);
        if (queue.length >= o.highWater) blocked = true;
      }
    }
    learn();
    assign();
  }
  return { firstBatch, meanLag: mean(lags), end: now, maxQueue };
}

function simulationReport(episodeS: number[], cycleS: number, input: ReturnType<typeof TrainingRunInput.parse>, seeds = 500): string[] {
  const { highWater, lowWater } = runSettings(input);
  const o = { episodeS, cycleS, groupSize: input.groupSize, groupsPerStep: input.groupsPerStep, steps: input.steps, pool: input.poolSize, highWater, lowWater };
  const out = [
    `simulation: ${seeds} seeds, pool ${o.pool}, groups of ${o.groupSize}, ${o.groupsPerStep} per step, ${o.steps} steps, water marks ${lowWater}–${highWater}; episode times drawn from ${episodeS.length} real ones (mean ${f2(mean(episodeS))} s), learner cycle ${f2(cycleS)} s`,
    '',
    '| assignment | first trainable batch s | mean policy lag | run s | max queue |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const a of ['fill-nearest', 'round-robin'] as const) {
    const rs = Array.from({ length: seeds }, (_, s) => simulate(a, { ...o, seed: s + 1 }));
    out.push(`| ${a} | ${f2(mean(rs.map((r) => r.firstBatch)))} | ${f2(mean(rs.map((r) => r.meanLag)))} | ${f1(mean(rs.map((r) => r.end)))} | ${Math.max(...rs.map((r) => r.maxQueue))} |`);
  }
  return out;
}

// --- main ----------------------------------------------------------------------------------------------------------------

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const outDir = path.join(REPO_ROOT, '.data', 'bench-training-pipeline');
  fs.mkdirSync(outDir, { recursive: true });
  const say = (lines: string[]) => console.log(lines.join('\n'));
  say([`training-pipeline ${phase}: steps ${steps}, pool ${pool}, tasks ${TASK_IDS.join(', ')}; ${os.cpus().length} CPUs, load average ${os.loadavg().map(f2).join(' ')}; ${new Date().toISOString()}`, '']);
  const bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: new DefaultLogger('WARN') });
  const connection = await Connection.connect({ address: loadConfig().DEBUGRL_TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: loadConfig().DEBUGRL_TEMPORAL_NAMESPACE });
  const real: ArmResult[] = [];
  try {
    if (phase === 'all' || phase === 'alone') {
      const r = await arm(bundle, client, 'fill-nearest', 'alone');
      real.push(r);
      say(['## alone', ...armSummary(r), '', ...queueTable(r), '', `load average after: ${os.loadavg().map(f2).join(' ')}`, '']);
      fs.writeFileSync(path.join(outDir, 'alone.json'), JSON.stringify(r, null, 1));
      fs.writeFileSync(path.join(outDir, 'queue-alone.svg'), queueSvg([r]));
    }
    if (phase === 'all' || phase === 'compare') {
      const both = await Promise.all([arm(bundle, client, 'fill-nearest', 'fn'), arm(bundle, client, 'round-robin', 'rr')]);
      real.push(...both);
      say(['## compare (both runs at the same time)', '', '| assignment | first trainable batch s | mean policy lag | rollouts/s | run s |', '|---|---:|---:|---:|---:|']);
      for (const r of both) say([`| ${r.assignment} | ${f1(r.firstBatchS)} | ${f2(meanLag(r.progress.lagHistogram))} | ${f2(r.progress.episodesDone / ((r.progress.lastStep!.atMs - r.progress.startedAtMs) / 1000))} | ${f1(r.wallS)} |`]);
      say(['']);
      for (const r of both) say([...armSummary(r), '', ...queueTable(r, 12), '']);
      say([`load average after: ${os.loadavg().map(f2).join(' ')}`, '']);
      fs.writeFileSync(path.join(outDir, 'compare.json'), JSON.stringify(both, null, 1));
      fs.writeFileSync(path.join(outDir, 'queue-compare.svg'), queueSvg(both));
    }
    if (phase === 'sim') for (const f of ['alone.json', 'compare.json']) if (fs.existsSync(path.join(outDir, f))) real.push(...([] as ArmResult[]).concat(JSON.parse(fs.readFileSync(path.join(outDir, f), 'utf8'))));
    if (real.length) {
      const episodeS = real.flatMap((r) => r.episodeS);
      const cycleS = mean(real.flatMap((r) => r.trainStepS.slice(1).map((t, i) => t + (r.publishS[i + 1] ?? 0))));
      say(['## simulation', ...simulationReport(episodeS, cycleS, real[0].input)]);
    }
    console.log(`\nfiles: ${outDir}`);
  } finally {
    await connection.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
