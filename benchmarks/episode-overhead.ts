/**
 * Temporal overhead per turn (issues 10 and 19). Not a timed test: run it on a quiet machine and copy the output into
 * benchmarks/episode-overhead.md.
 *
 *   npx tsc -p tsconfig.json && node lib/benchmarks/episode-overhead.js [reps=3] [calls=40] [before=c58710b]
 *
 * The same calls go five ways in one run, interleaved rep by rep so the machine's load hits them alike:
 * - straight through the harness: HarnessSession.create, then `calls` × session.call (no Temporal, no PostgreSQL);
 * - through EpisodeWorkflow on the real Temporal, PostgreSQL and Kafka, with in-process workers (a shared queue and a
 *   host queue, as workers/worker.ts runs them), in two shapes: "before", the workflow code of commit `before` (from
 *   git, bundled on its own: the sandbox opens on the shared queue and every tool call is a regular activity on the
 *   sandbox's queue), and "after", the current one (the `local-tool-calls` patch: the sandbox opens as a local
 *   activity and each call runs as one on the worker that holds it). Each shape runs two policy paths: the scripted
 *   policy (its turn is a local activity), and a model policy (`openai:` against tests/helpers/scripted-chat-server.ts in
 *   this process, which answers the same calls at once: its turn is a regular activity, as the embedded and vLLM
 *   policies' are).
 * Per arm: one episode with the `calls` calls and then done, and one with only done. Their difference divided by
 * `calls` is the cost of one turn beyond the episode's fixed cost. Temporal overhead per turn = workflow cost per turn
 * − harness cost per call (the model arms' stub reply costs under a millisecond and is counted as overhead).
 *
 * It then splits each arm's last run by the history's event times: the wait for each activity to be picked up
 * (schedule → start), its execution, and the workflow task between one activity's completion and the next one's
 * schedule.
 */
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { createActivities } from '../activities';
import { SessionRegistry } from '../activities/sandbox';
import { loadConfig, REPO_ROOT } from '../common/config';
import { temporalConnectionOptions } from '../common/connections';
import { harnessEnv } from '../harness/env';
import { HarnessSession } from '../harness/session';
import { startScriptedChatServer } from '../tests/helpers/scripted-chat-server';
import { openDeps } from '../workers/deps';
import { EpisodeWorkflow } from '../workflows/episode';

const reps = Number(process.argv[2] ?? 3);
const nCalls = Number(process.argv[3] ?? 40);
/** The commit whose EpisodeWorkflow is "before": the last one before the `local-tool-calls` patch. */
const beforeRev = process.argv[4] ?? 'c58710b';
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

/** The "before" EpisodeWorkflow, from git, bundled on its own. The activities it calls (openSandbox, runTool) are still
 * registered, for workflows started before the patch, so the same workers serve both shapes. */
async function beforeBundle() {
  const dir = path.join(REPO_ROOT, '.data', `bench-before-${beforeRev}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execSync(`git -C ${JSON.stringify(REPO_ROOT)} archive ${beforeRev} workflows common | tar -x -C ${JSON.stringify(dir)}`);
  fs.writeFileSync(path.join(dir, 'workflows', 'index.ts'), "export { EpisodeWorkflow } from './episode';\n");
  return bundleWorkflowCode({ workflowsPath: path.join(dir, 'workflows', 'index.ts'), logger: new DefaultLogger('WARN') });
}

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const deps = openDeps(config, 'episode-overhead');
  const taskQueue = `episode-overhead-${process.pid}-${Date.now().toString(36)}`;
  const hostQueue = `${taskQueue}-host`;
  const beforeQueue = `${taskQueue}-before`;
  const sessions = new SessionRegistry();
  const activities = createActivities(deps, { hostQueue, sessions });
  const wconn = await NativeConnection.connect(temporalConnectionOptions(config));
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: new DefaultLogger('WARN') });
  const workers = [
    await Worker.create({ connection: wconn, taskQueue, workflowBundle, activities, maxConcurrentActivityTaskExecutions: 32 }),
    await Worker.create({ connection: wconn, taskQueue: beforeQueue, workflowBundle: await beforeBundle(), activities, maxConcurrentActivityTaskExecutions: 32 }),
    await Worker.create({ connection: wconn, taskQueue: hostQueue, activities, maxConcurrentActivityTaskExecutions: 32 }),
  ];
  const running = Promise.all(workers.map((w) => w.run()));
  const connection = await Connection.connect(temporalConnectionOptions(config));
  const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });

  const list = calls(nCalls);
  const fullScript = writeScript(list);
  const doneScript = writeScript([]);
  const stubFull = await startScriptedChatServer(list);
  const stubDone = await startScriptedChatServer([]);
  type Arm = { name: string; queue: string; full: string; done: string; w: number[]; w0: number[]; last: string };
  const arm = (name: string, queue: string, full: string, done: string): Arm => ({ name, queue, full, done, w: [], w0: [], last: '' });
  const arms = [
    arm(`before (${beforeRev}), scripted policy`, beforeQueue, `scripted:${fullScript}`, `scripted:${doneScript}`),
    arm('after (local tool calls), scripted policy', taskQueue, `scripted:${fullScript}`, `scripted:${doneScript}`),
    arm(`before (${beforeRev}), model policy`, beforeQueue, stubFull.policy, stubDone.policy),
    arm('after (local tool calls), model policy', taskQueue, stubFull.policy, stubDone.policy),
  ];
  const episode = async (policy: string, turns: number, queue: string) => {
    const workflowId = `episode-overhead-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
    const t = now();
    const result = await client.workflow.execute(EpisodeWorkflow, {
      taskQueue: queue,
      workflowId,
      args: [{ taskId: TASK, policy, limits: { maxTurns: turns + 1, maxContextTokens: 1_000_000 } }],
    });
    const wall = now() - t;
    if (result.exitReason !== 'done' || result.turns !== turns + 1) throw new Error(`unexpected episode result ${JSON.stringify(result)}`);
    return { wall, workflowId };
  };

  // Warm-up: bundles loaded, connections open, Python's caches warm.
  await direct(calls(3));
  for (const a of arms) await episode(a.done, 0, a.queue);

  const d: number[] = [];
  for (let r = 0; r < reps; r++) {
    d.push(await direct(list));
    for (const a of r % 2 ? [...arms].reverse() : arms) {
      const full = await episode(a.full, nCalls, a.queue);
      a.w.push(full.wall);
      a.last = full.workflowId;
      a.w0.push((await episode(a.done, 0, a.queue)).wall);
    }
  }
  const directPerCall = median(d) / nCalls;
  const perTurn = (a: Arm) => (median(a.w) - median(a.w0)) / nCalls;

  const out: string[] = [];
  out.push(`${nCalls} calls, ${reps} reps (medians), interleaved; task ${TASK}; load average ${os.loadavg().map(f1).join(' ')}`);
  out.push('');
  out.push('| path | per turn ms | Temporal overhead per turn ms |');
  out.push('|---|---:|---:|');
  out.push(`| harness straight (HarnessSession.call) | ${f1(directPerCall)} | |`);
  for (const a of arms) out.push(`| EpisodeWorkflow ${a.name}, beyond the fixed cost | ${f1(perTurn(a))} | **${f1(perTurn(a) - directPerCall)}** |`);
  out.push('');
  out.push(`episode walls ms: harness ${d.map(f1).join(', ')}`);
  for (const a of arms) out.push(`- ${a.name}: ${nCalls} calls ${a.w.map(f1).join(', ')}; done only ${a.w0.map(f1).join(', ')}`);

  for (const a of arms) {
    const history = await client.workflow.getHandle(a.last).fetchHistory();
    const b = breakdown(history.events ?? []);
    const historyBytes = temporal.api.history.v1.History.encode(history).finish().length;
    out.push('');
    out.push(`${a.name}: the last ${nCalls}-call episode's history has ${b.events} events, ${historyBytes} bytes, ${b.markers} markers (local activities, patches). Mean ms:`);
    out.push('');
    out.push('| activity | n | schedule → start | start → complete | complete → next command |');
    out.push('|---|---:|---:|---:|---:|');
    for (const [type, r] of b.rows) out.push(`| ${type} | ${r.run.length} | ${f1(mean(r.dispatch))} | ${f1(mean(r.run))} | ${f1(mean(r.after))} |`);
    out.push(`| (workflow tasks) | ${b.wft.run.length} | ${f1(mean(b.wft.dispatch))} | ${f1(mean(b.wft.run))} | |`);
  }
  console.log(out.join('\n'));

  await stubFull.close();
  await stubDone.close();
  await connection.close();
  for (const w of workers) w.shutdown();
  await running;
  await sessions.closeAll();
  await deps.close();
  await wconn.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
