/**
 * EpisodeWorkflow's control flow with fake activities, in seconds: the guard exits (repeat, invalid replies), context
 * exhaustion, the turn cap, sandbox recovery and its limit, the `state` query and the activity summaries.
 *
 * The environment is @temporalio/testing's TestWorkflowEnvironment. Its time-skipping server is a download, and this
 * machine reaches no network but package registries, so it runs `createLocal` on the Temporal CLI that infra/setup
 * installs (.venv/bin/temporal): a private in-memory dev server on a free port, not the shared one. Nothing here
 * waits on a timer (the fakes fail fast, non-retryably), so time skipping would buy nothing.
 * The real-service suites (episode.test.ts, episode-recovery.test.ts) still cover the activities themselves.
 */
import * as path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { EpisodeResult, EpisodeState, PolicyReplyClaim, ToolTurnResult } from '../common/episode';
import { Failure } from '../common/failures';
import { EvaluationId, ExitReasonKey, Outcome, PolicySpecKey, PolicyVersion, Split, TaskId } from '../common/search-attributes';
import { EpisodeWorkflow, MAX_RECOVERIES, stateQuery } from '../workflows/episode';
import { workflowBundle } from './helpers/services';

const ROOT = path.resolve(__dirname, '..');

/** What the fakes do for one workflow: the policy's claim per turn, the tool's result per turn (or a throw). */
interface Scenario {
  reply(turn: number): Partial<PolicyReplyClaim>;
  tool?(turn: number, attempt: number): ToolTurnResult | Promise<ToolTurnResult>;
  /** The workflow runs on a worker that does not hold the sandbox (runToolIfHere answers null). */
  elsewhere?: boolean;
}

interface Calls {
  policy: number[];
  tool: { turn: number; notice?: string; local: boolean }[];
  /** runToolIfHere calls that found the sandbox on another worker. */
  missed: number;
  opened: number;
  reapplied: number[][];
  graded: number;
  recoveries: { beforeTurn: number; reason: string }[];
  finish?: { exitReason: string; error: string | null };
}

const scenarios = new Map<string, Scenario>();
const calls = new Map<string, Calls>();
const workflowOf = (episodeId: string) => episodeId.slice(0, episodeId.indexOf(':'));
const callsOf = (episodeId: string) => calls.get(workflowOf(episodeId))!;
const ok = (extra: Partial<ToolTurnResult> = {}): ToolTurnResult => ({ ok: true, stateChanging: false, debugger: false, ended: false, outputChars: 10, ...extra });
const sandboxLost = () => ApplicationFailure.create({ type: Failure.SandboxLost, message: 'the sandbox went away', nonRetryable: true });

/** Fake activities with the real names and shapes. */
const activities = {
  async beginEpisode(_: { episodeId: string }) {
    return { split: 'train' };
  },
  async openSandbox(input: { episodeId: string }) {
    const c = callsOf(input.episodeId);
    c.opened++;
    return { sessionId: `s${c.opened}`, queue: 'fast-host' };
  },
  async policyReply(input: { episodeId: string; turn: number }): Promise<PolicyReplyClaim> {
    callsOf(input.episodeId).policy.push(input.turn);
    const r = scenarios.get(workflowOf(input.episodeId))!.reply(input.turn);
    const invalid = r.invalid ?? false;
    return {
      turn: input.turn,
      tool: invalid || r.contextExhausted ? null : 'read_file',
      digest: invalid || r.contextExhausted ? null : `d${input.turn}`,
      summary: invalid ? 'invalid reply: no tool named x' : `read_file a.py ${input.turn}`,
      invalid,
      contextExhausted: false,
      promptTokens: 1,
      completionTokens: 1,
      ...r,
    };
  },
  async runTool(input: { episodeId: string; turn: number; notice?: string }, local = false): Promise<ToolTurnResult> {
    const c = callsOf(input.episodeId);
    c.tool.push({ turn: input.turn, notice: input.notice, local });
    const s = scenarios.get(workflowOf(input.episodeId))!;
    return s.tool ? s.tool(input.turn, c.tool.filter((t) => t.turn === input.turn).length) : ok();
  },
  async runToolIfHere(input: { episodeId: string; turn: number; notice?: string; queue: string }): Promise<ToolTurnResult | null> {
    expect(input.queue).toBe('fast-host');
    if (scenarios.get(workflowOf(input.episodeId))!.elsewhere) {
      callsOf(input.episodeId).missed++;
      return null;
    }
    return activities.runTool(input, true);
  },
  async reapplyTurns(input: { episodeId: string; turns: number[] }) {
    callsOf(input.episodeId).reapplied.push(input.turns);
    return { reapplied: input.turns.length };
  },
  async gradeSandbox(input: { episodeId: string }) {
    callsOf(input.episodeId).graded++;
    return { passed: false, failing: 1 };
  },
  async closeSandbox() {},
  async recordRecovery(input: { episodeId: string; beforeTurn: number; reason: string }) {
    callsOf(input.episodeId).recoveries.push({ beforeTurn: input.beforeTurn, reason: input.reason });
  },
  async finishEpisode(input: { episodeId: string; exitReason: string; error: string | null }) {
    const c = callsOf(input.episodeId);
    c.finish = { exitReason: input.exitReason, error: input.error };
    const turns = new Set([...c.policy]).size;
    return { kafka: { topic: 'rollouts', partition: 0, offset: '0' }, passed: false, turns, promptTokens: turns, completionTokens: turns, policyVersion: 0, recoveries: c.recoveries.length };
  },
};

describe('EpisodeWorkflow control flow (fake activities, private dev server)', () => {
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let host: Worker;
  let running: Promise<void>;
  const taskQueue = 'fast-episode';

  beforeAll(async () => {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: path.join(ROOT, '.venv/bin/temporal') },
        searchAttributes: [TaskId, Split, Outcome, ExitReasonKey, PolicySpecKey, EvaluationId, PolicyVersion],
      },
    });
    const bundle = await workflowBundle();
    worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: bundle, activities });
    // The sandbox's "own" queue: the same fakes, polled by a second worker, as workers/worker.ts runs them.
    host = await Worker.create({ connection: env.nativeConnection, taskQueue: 'fast-host', activities });
    running = Promise.all([worker.run(), host.run()]).then(() => undefined);
  }, 120_000);

  afterAll(async () => {
    worker?.shutdown();
    host?.shutdown();
    await running;
    await env?.teardown();
  });

  let n = 0;
  async function episode(scenario: Scenario, limits: Record<string, number> = {}, policy = 'scripted:x.jsonl') {
    const workflowId = `fast-${Date.now()}-${n++}`;
    scenarios.set(workflowId, scenario);
    const c: Calls = { policy: [], tool: [], missed: 0, opened: 0, reapplied: [], graded: 0, recoveries: [] };
    calls.set(workflowId, c);
    const handle = await env.client.workflow.start(EpisodeWorkflow, { taskQueue, workflowId, args: [{ taskId: 'fast_task', policy, limits }] });
    return { handle, calls: c, result: () => handle.result() as Promise<EpisodeResult> };
  }

  it('repeat guard: the same call (digest) maxRepeatedCalls times in a row ends the episode before running it again', async () => {
    const e = await episode({ reply: () => ({ digest: 'same' }) }, { maxRepeatedCalls: 3 });
    const result = await e.result();
    expect(result).toMatchObject({ exitReason: 'guard', turns: 3 });
    expect(e.calls.tool.map((t) => t.turn)).toEqual([1, 2]); // the third repeat is not run
    expect(e.calls.graded).toBe(1);
  });

  it('invalid-reply guard: maxInvalidReplies in a row without a valid call; a valid call resets the streak', async () => {
    const allBad = await episode({ reply: () => ({ invalid: true }) });
    expect(await allBad.result()).toMatchObject({ exitReason: 'guard', turns: 3 });
    expect(allBad.calls.tool).toEqual([]);

    const mixed = await episode({ reply: (t) => ({ invalid: t !== 3 }) });
    expect(await mixed.result()).toMatchObject({ exitReason: 'guard', turns: 6 });
    expect(mixed.calls.tool.map((t) => t.turn)).toEqual([3]);
  });

  it('context exhaustion ends the episode without counting the turn that produced no reply', async () => {
    const e = await episode({ reply: (t) => ({ contextExhausted: t === 4 }) });
    expect(await e.result()).toMatchObject({ exitReason: 'context_exhausted' });
    expect(e.calls.tool.map((t) => t.turn)).toEqual([1, 2, 3]);
    expect((await e.handle.query(stateQuery)).turn).toBe(3);
    expect(e.calls.graded).toBe(1);
  });

  it.each(['scripted:x.jsonl', 'embedded'])('turn cap: maxTurns calls, then grading (%s: a local or a regular policy activity)', async (policy) => {
    const e = await episode({ reply: () => ({}) }, { maxTurns: 4 }, policy);
    expect(await e.result()).toMatchObject({ exitReason: 'turn_cap', turns: 4 });
    expect(e.calls.tool).toHaveLength(4);
    expect(e.calls.graded).toBe(1);
    const history = await e.handle.fetchHistory();
    const scheduled = history.events!.filter((ev) => ev.activityTaskScheduledEventAttributes?.activityType?.name === 'policyReply').length;
    expect(scheduled).toBe(policy === 'embedded' ? 4 : 0); // a script's turns run as local activities (markers)
  });

  it('done ends the episode', async () => {
    const e = await episode({ reply: () => ({}), tool: (t) => ok({ ended: t === 2 }) });
    expect(await e.result()).toMatchObject({ exitReason: 'done', turns: 2 });
  });

  it('a tool call runs as a local activity on the worker that holds the sandbox, and on the sandbox queue from anywhere else', async () => {
    const runToolTasks = async (e: Awaited<ReturnType<typeof episode>>) =>
      (await e.handle.fetchHistory()).events!.filter((ev) => ev.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool').length;
    const here = await episode({ reply: () => ({}), tool: (t) => ok({ ended: t === 3 }) });
    expect(await here.result()).toMatchObject({ exitReason: 'done', turns: 3 });
    expect(here.calls.tool.map((t) => t.local)).toEqual([true, true, true]);
    expect(await runToolTasks(here)).toBe(0);

    const away = await episode({ elsewhere: true, reply: () => ({}), tool: (t) => ok({ ended: t === 3 }) });
    expect(await away.result()).toMatchObject({ exitReason: 'done', turns: 3 });
    expect(away.calls.tool.map((t) => t.local)).toEqual([false, false, false]);
    expect(await runToolTasks(away)).toBe(3);
    // Asked once; the workflow remembers that this sandbox is elsewhere.
    expect(away.calls.missed).toBe(1);
  });

  it('a lost sandbox is rebuilt: the state-changing turns are re-applied by number and the model is told', async () => {
    const e = await episode({
      reply: () => ({}),
      tool: (t, attempt) => {
        if (t === 3 && attempt === 1) throw sandboxLost();
        return ok({ stateChanging: t === 1, ended: t === 4 });
      },
    });
    expect(await e.result()).toMatchObject({ exitReason: 'done', recoveries: 1, turns: 4 });
    expect(e.calls.opened).toBe(2);
    expect(e.calls.reapplied).toEqual([[1]]);
    expect(e.calls.recoveries).toEqual([{ beforeTurn: 3, reason: expect.stringMatching(/^(runTool: )?the sandbox went away/) }]);
    expect(e.calls.tool.filter((t) => t.turn === 3).map((t) => Boolean(t.notice))).toEqual([false, true]);
    expect(e.calls.tool.find((t) => t.turn === 4)!.notice).toBeUndefined();
  });

  it(`gives up after ${MAX_RECOVERIES} recoveries and still grades`, async () => {
    const e = await episode({
      reply: () => ({}),
      tool: () => {
        throw sandboxLost();
      },
    });
    const result = await e.result();
    expect(result.exitReason).toBe('error');
    expect(result.error).toMatch(/the sandbox went away/);
    expect(e.calls.recoveries).toHaveLength(MAX_RECOVERIES);
    expect(e.calls.opened).toBe(1 + MAX_RECOVERIES);
    expect(e.calls.tool).toHaveLength(1 + MAX_RECOVERIES);
    expect(e.calls.graded).toBe(1);
  });

  it('a harness error is not retried and ends the episode in error', async () => {
    const e = await episode({
      reply: () => ({}),
      tool: () => {
        throw ApplicationFailure.create({ type: Failure.HarnessError, message: 'boom', nonRetryable: true });
      },
    });
    expect(await e.result()).toMatchObject({ exitReason: 'error', error: expect.stringMatching(/boom/) });
    expect(e.calls.tool).toHaveLength(1);
    expect(e.calls.recoveries).toHaveLength(0);
  });

  it('the state query, the activity summaries and the current details tell the story', async () => {
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    // The held call runs on the sandbox's queue (elsewhere): a query during a local call waits for its workflow task,
    // which heartbeats every 8 s (80 % of the task timeout), and this test would wait that long.
    const e = await episode({
      elsewhere: true,
      reply: (t) => (t === 1 ? { tool: 'add_breakpoint', summary: 'add_breakpoint importers.py:16' } : {}),
      tool: async (t) => {
        if (t === 2) await blocked;
        return ok(t === 1 ? { debugger: true, location: 'importers.py:16 in load' } : { ended: t === 2 });
      },
    });
    let state: EpisodeState | undefined;
    const waiting = () => state?.phase !== 'tool' || state.turn !== 2;
    for (let i = 0; i < 400 && waiting(); i++) {
      state = await e.handle.query(stateQuery);
      if (waiting()) await new Promise((r) => setTimeout(r, 25));
    }
    expect(state).toMatchObject({ phase: 'tool', turn: 2, lastCall: { turn: 2, summary: 'read_file a.py 2', result: 'pending' }, debuggerLocation: 'importers.py:16 in load' });
    release();
    await e.result();
    expect(await e.handle.query(stateQuery)).toMatchObject({ phase: 'finished', passed: false, exitReason: 'done', lastCall: { turn: 2, result: 'ok' } });

    const history = await e.handle.fetchHistory();
    const summaries = await Promise.all(
      history.events!.filter((ev) => ev.activityTaskScheduledEventAttributes || ev.markerRecordedEventAttributes?.markerName === 'core_local_activity').map(async (ev) => {
        const p = ev.userMetadata?.summary;
        return p ? (env.client.options.loadedDataConverter.payloadConverter.fromPayload(p) as string) : '';
      }),
    );
    expect(summaries).toEqual(
      expect.arrayContaining([
        'open sandbox · fast_task',
        'turn 1 · policy',
        'turn 1 · add_breakpoint importers.py:16',
        'turn 2 · policy (after turn 1 · add_breakpoint importers.py:16 → ok · importers.py:16 in load)',
        'turn 2 · read_file a.py 2',
        'grade · after 2 turns (done)',
      ]),
    );
    const meta = (await e.handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
    expect(meta.currentDetails).toMatch(/\*\*FAIL\*\* · done after 2 turns/);
    expect(meta.currentDetails).toMatch(/turn 1 · add_breakpoint importers\.py:16 → ok/);
  });
});
