/**
 * Temporal overhead per turn (issues 10 and 19). Not a timed test: run it on a quiet machine and copy the output into
 * benchmarks/episode-overhead.md.
 *
 *   npx tsc -p tsconfig.json && node lib/benchmarks/episode-overhead.js [reps=3] [calls=40]
 *
 * The same scripted calls go three ways in one run, interleaved rep by rep so the machine's load hits them alike:
 * - straight through the harness: HarnessSession.create, then `calls` × session.call (no Temporal, no PostgreSQL);
 * - through EpisodeWorkflow on the real Temporal, PostgreSQL and Kafka, with in-process workers (a shared queue and a
 *   host queue, as workers/worker.ts runs them), twice: "before", whose policy turn reads the whole episode from
 *   PostgreSQL every turn (the policy activities built with eventCache: null), and "after", whose turn reads only the
 *   events since the last turn (activities/policies/event-cache.ts, the default). Each arm has its own workflow worker
 *   (the scripted policy's turn is a local activity there); both share the host worker. Per arm: one episode with the
 *   `calls` calls and then done, and one with only done. Their difference divided by `calls` is the cost of one turn
 *   beyond the episode's fixed cost.
 * Temporal overhead per turn = workflow cost per turn − harness cost per call.
 *
 * It then splits one workflow run's turns by the history's event times: the wait for each activity to be picked up
 * (schedule → start), its execution, and the workflow task between one activity's completion and the next one's
 * schedule; and the activities' execution into the policy or tool itself (latencyMs in the event log) and the rest
 * (PostgreSQL reads and writes, conversation building).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { createActivities } from '../activities';
import { createPolicyActivities } from '../activities/policies';
import { EpisodeEventCache } from '../activities/policies/event-cache';
import { buildConversation, loadEvents } from '../activities/trajectory-store';
import { SessionRegistry } from '../activities/sandbox';
import { loadConfig, REPO_ROOT } from '../common/config';
import { temporalConnectionOptions } from '../common/connections';
import { harnessEnv } from '../harness/env';
import { HarnessSession } from '../harness/session';
import { openDeps } from '../workers/deps';
import { EpisodeWorkflow } from '../workflows/episode';

const reps = Number(process.argv[2] ?? 3);
const nCalls = Number(process.argv[3] ?? 40);
const TASKS = path.join(REPO_ROOT, 'tests/fixtures/tasks');
const TASK = 'shared_default_tags';
const config = loadConfig({ ...process.env, DEBUGRL_TASKS_DIR: TASKS });

/** Cheap, varied calls (no two alike in a row, so the repeat guard never fires). */
function calls(n: number): { name: string; arguments: Record<string, unknown> }[] {
  return Array.from({ length: n }, (_, i) => {
    switch (i % 3) {
      case 0:
        return { name: 'read_file', arguments: { path: 'articles.py', start_line: 1, end_line: 2 + (i % 7) } };
      case 1:
        return { name: 'bash', arguments: { command: `echo turn ${i}` } };
      default:
        return { name: 'list_breakpoints', arguments: {} };
    }
  });
}

function writeScript(list: { name: string; arguments: unknown }[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-overhead-')), 'script.jsonl');
  fs.writeFileSync(file, list.map((c) => JSON.stringify(c)).join('\n') + '\n');
  return file;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const f1 = (x: number) => x.toFixed(1);

async function direct(list: ReturnType<typeof calls>): Promise<number> {
  const session = await HarnessSession.create({ env: harnessEnv(config), taskDir: path.join(TASKS, TASK), toolset: 'full' });
  try {
    const t = now();
    for (const c of list) await session.call(c);
    return now() - t;
  } finally {
    await session.close();
  }
}

type Event = temporal.api.history.v1.IHistoryEvent;
const ms = (e: Event) => tsToMs(e.eventTime!);

/** Per activity type: schedule→start, start→complete, and complete→next schedule (the workflow task in between). */
function breakdown(events: Event[]) {
  const byId = new Map(events.map((e) => [String(e.eventId), e]));
  const rows = new Map<string, { dispatch: number[]; run: number[]; after: number[] }>();
  const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes);
  for (const s of scheduled) {
    const type = s.activityTaskScheduledEventAttributes!.activityType!.name!;
    const started = events.find((e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === String(s.eventId));
    const done = events.find((e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === String(s.eventId));
    if (!started || !done) continue;
    const next = events.find((e) => Number(e.eventId) > Number(done.eventId) && (e.activityTaskScheduledEventAttributes || e.workflowExecutionCompletedEventAttributes));
    const row = rows.get(type) ?? { dispatch: [], run: [], after: [] };
    row.dispatch.push(ms(started) - ms(s));
    row.run.push(ms(done) - ms(started));
    if (next) row.after.push(ms(next) - ms(done));
    rows.set(type, row);
  }
  const markers = events.filter((e) => e.markerRecordedEventAttributes).length;
  // Workflow tasks: scheduled → started (the server hands it to the worker) and started → completed (the worker runs
  // the workflow code and replies; the server stores the result).
  const wft = { dispatch: [] as number[], run: [] as number[] };
  for (const s of events.filter((e) => e.workflowTaskScheduledEventAttributes)) {
    const started = events.find((e) => String(e.workflowTaskStartedEventAttributes?.scheduledEventId) === String(s.eventId));
    const done = events.find((e) => String(e.workflowTaskCompletedEventAttributes?.scheduledEventId) === String(s.eventId));
    if (!started || !done) continue;
    wft.dispatch.push(ms(started) - ms(s));
    wft.run.push(ms(done) - ms(started));
  }
  void byId;
  return { rows, markers, events: events.length, wft };
}

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const deps = openDeps(config, 'episode-overhead');
  const taskQueue = `episode-overhead-${process.pid}-${Date.now().toString(36)}`;
  const hostQueue = `${taskQueue}-host`;
  const sessions = new SessionRegistry();
  const activities = createActivities(deps, { hostQueue, sessions });
  const cache = new EpisodeEventCache();
  // The policy activities are built with their own event cache ("after") or none ("before": the whole episode per turn).
  const afterActivities = { ...activities, ...createPolicyActivities({ ...deps, eventCache: cache }) };
  const beforeActivities = { ...activities, ...createPolicyActivities({ ...deps, eventCache: null }) };
  const wconn = await NativeConnection.connect(temporalConnectionOptions(config));
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: new DefaultLogger('WARN') });
  const shared = await Worker.create({ connection: wconn, taskQueue, workflowBundle, activities: afterActivities, maxConcurrentActivityTaskExecutions: 32 });
  const host = await Worker.create({ connection: wconn, taskQueue: hostQueue, activities, maxConcurrentActivityTaskExecutions: 32 });
  const beforeQueue = `${taskQueue}-before`;
  const before = await Worker.create({ connection: wconn, taskQueue: beforeQueue, workflowBundle, activities: beforeActivities, maxConcurrentActivityTaskExecutions: 32 });
  const running = Promise.all([shared.run(), host.run(), before.run()]);
  const connection = await Connection.connect(temporalConnectionOptions(config));
  const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });

  const list = calls(nCalls);
  const fullScript = writeScript(list);
  const doneScript = writeScript([]);
  const episode = async (script: string, turns: number, queue = taskQueue) => {
    const workflowId = `episode-overhead-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
    const t = now();
    const result = await client.workflow.execute(EpisodeWorkflow, {
      taskQueue: queue,
      workflowId,
      args: [{ taskId: TASK, policy: `scripted:${script}`, limits: { maxTurns: turns + 1, maxContextTokens: 1_000_000 } }],
    });
    const wall = now() - t;
    if (result.exitReason !== 'done' || result.turns !== turns + 1) throw new Error(`unexpected episode result ${JSON.stringify(result)}`);
    return { wall, workflowId, episodeId: result.episodeId };
  };

  // Warm-up: bundle loaded, connections open, Python's caches warm.
  await direct(calls(3));
  await episode(writeScript(calls(3)), 3);
  await episode(writeScript(calls(3)), 3, beforeQueue);

  const d: number[] = [];
  const arms = { before: { queue: beforeQueue, w: [] as number[], w0: [] as number[], last: '' }, after: { queue: taskQueue, w: [] as number[], w0: [] as number[], last: '' } };
  let lastEpisode = '';
  for (let r = 0; r < reps; r++) {
    d.push(await direct(list));
    for (const arm of r % 2 ? [arms.after, arms.before] : [arms.before, arms.after]) {
      const full = await episode(fullScript, nCalls, arm.queue);
      arm.w.push(full.wall);
      arm.last = full.workflowId;
      if (arm === arms.after) lastEpisode = full.episodeId;
      arm.w0.push((await episode(doneScript, 0, arm.queue)).wall);
    }
  }
  const directPerCall = median(d) / nCalls;
  const perTurn = (arm: typeof arms.before) => (median(arm.w) - median(arm.w0)) / nCalls;

  const out: string[] = [];
  out.push(`${nCalls} calls, ${reps} reps (medians), interleaved; task ${TASK}; before = the policy turn reads the whole episode, after = only the events since its last turn; load average ${os.loadavg().map(f1).join(' ')}`);
  out.push('');
  out.push('| path | per turn ms | Temporal overhead per turn ms |');
  out.push('|---|---:|---:|');
  out.push(`| harness straight (HarnessSession.call) | ${f1(directPerCall)} | |`);
  for (const [name, arm] of Object.entries(arms)) out.push(`| EpisodeWorkflow ${name}, beyond the fixed cost | ${f1(perTurn(arm))} | **${f1(perTurn(arm) - directPerCall)}** |`);
  out.push('');
  out.push(`episode walls ms: harness ${d.map(f1).join(', ')}`);
  for (const [name, arm] of Object.entries(arms)) out.push(`- ${name}: ${nCalls} calls ${arm.w.map(f1).join(', ')}; done only ${arm.w0.map(f1).join(', ')}`);

  for (const [name, arm] of Object.entries(arms)) {
    const history = await client.workflow.getHandle(arm.last).fetchHistory();
    const b = breakdown(history.events ?? []);
    const historyBytes = temporal.api.history.v1.History.encode(history).finish().length;
    out.push('');
    out.push(`${name}: the last ${nCalls}-call episode's history has ${b.events} events, ${historyBytes} bytes, ${b.markers} markers (local activities, patches). Mean ms:`);
    out.push('');
    out.push('| activity | n | schedule → start | start → complete | complete → next command |');
    out.push('|---|---:|---:|---:|---:|');
    for (const [type, r] of b.rows) out.push(`| ${type} | ${r.run.length} | ${f1(mean(r.dispatch))} | ${f1(mean(r.run))} | ${f1(mean(r.after))} |`);
    out.push(`| (workflow tasks) | ${b.wft.run.length} | ${f1(mean(b.wft.dispatch))} | ${f1(mean(b.wft.run))} | |`);
  }
  const ev = await deps.pool.query("select kind, payload->>'latencyMs' as l from episode_events where episode_id = $1", [lastEpisode]);
  const lat = (kind: string) => mean(ev.rows.filter((r) => r.kind === kind).map((r) => Number(r.l)));
  out.push('');
  out.push(`Inside the activities (after), mean ms: policy.next ${f1(lat('assistant'))}, harness call ${f1(lat('tool'))}.`);
  out.push(`Event cache (after): ${cache.stats.hits} hits, ${cache.stats.misses} misses, ${f1(cache.stats.rowsRead / Math.max(1, cache.stats.hits + cache.stats.misses))} rows read per turn.`);
  // The policy turn's own read, timed apart from Temporal: the last after-episode read whole, and read incrementally.
  const timeRead = async (fn: () => Promise<unknown>, n = 50) => {
    const t = now();
    for (let i = 0; i < n; i++) await fn();
    return (now() - t) / n;
  };
  const fullMs = await timeRead(() => loadEvents(deps.pool, lastEpisode).then((ev) => buildConversation(ev)));
  const probe = new EpisodeEventCache();
  await probe.read(deps.pool, lastEpisode);
  const incMs = await timeRead(() => probe.read(deps.pool, lastEpisode).then((r) => buildConversation(r.events)));
  out.push(`Reading the ${nCalls}-call episode and building its conversation, mean of 50: whole ${f1(fullMs)} ms, incremental (cache hit) ${f1(incMs)} ms.`);
  console.log(out.join('\n'));

  await connection.close();
  shared.shutdown();
  host.shutdown();
  before.shutdown();
  await running;
  await sessions.closeAll();
  await deps.close();
  await wconn.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
