/**
 * Sandbox activities. The harness session (the bubblewrap sandbox and the pdb bridge) lives in the memory of the
 * worker process that opened it, so every later activity of the episode must run on that process: `openSandbox`
 * returns this process's own queue, and the workflow schedules the episode's grade and close activities there
 * (Temporal's worker-specific task queue pattern). The workflow opens the sandbox as a local activity, so it lives
 * on the process that runs the workflow, and each tool call is first tried there as a local activity
 * (`runToolIfHere`), with no task-queue hand-off; only when the workflow has moved to another process does the call
 * go to the sandbox's queue (`runTool`). If the process dies, those activities time out waiting to start (or stop
 * heartbeating) and the workflow rebuilds the sandbox where it runs now.
 */
import type { Pool } from 'pg';
import type { Config } from '../common/config';
import { type ToolCallRequest, type ToolTurnResult, type Toolset } from '../common/episode';
import { Failure, failure } from '../common/failures';
import type { AssistantEvent, GradeEvent, ToolEvent } from '../common/trajectory';
import { harnessEnv } from '../harness/env';
import { HarnessInfraError, HarnessSession } from '../harness/session';
import { loadTask, resolveTaskDir } from '../taskset/task-loader';
import { withHeartbeat } from './heartbeat';
import { appendEvent, findEvent } from './trajectory-store';

/** The failure type the workflow treats as "this sandbox is gone: recover". */
export const SANDBOX_LOST = Failure.SandboxLost;

export interface SandboxHandle {
  sessionId: string;
  /** The task queue of the worker process that holds the session. */
  queue: string;
}

/** One turn's tool call on the sandbox: the call itself is read from the event log by (episode, turn). */
export interface ToolTurnInput {
  episodeId: string;
  sessionId: string;
  turn: number;
  notice?: string;
  rebuilt?: boolean;
}

/** Longest debugger location handed to the workflow. */
const LOCATION_CHARS = 80;

/** Where the debugger stands after a call, from the observation's first line ("Stopped at breakpoint 1
 * (articles.py:7 in add_tag)", "Stopped at articles.py:8 in add_tag") or the bridge's state; undefined when the call
 * did not touch the debugger. */
export function debuggerLocation(ev: Pick<ToolEvent, 'debugger' | 'meta' | 'output'>): string | undefined {
  if (!ev.debugger) return undefined;
  const m = ev.meta;
  if (typeof m.file === 'string' && typeof m.line === 'number') return `${m.file}:${m.line}`.slice(0, LOCATION_CHARS);
  if (m.debuggerStopped === true || m.programEnded === true || m.state === 'ended') return 'ended';
  const at = /(?:Stopped|Interrupted)[^\n]*? at ([^\s()]+:\d+(?: in [\w.<>]+)?)|\(([^\s()]+:\d+ in [\w.<>]+)\)/.exec(ev.output.split('\n', 1)[0] ?? '');
  if (at) return (at[1] ?? at[2])!.slice(0, LOCATION_CHARS);
  // Paused, but the observation names no place (print_variable, examine_locals): the last place still holds.
  return m.state === 'running' ? 'running' : undefined;
}

function summarize(ev: ToolEvent): ToolTurnResult {
  const location = debuggerLocation(ev);
  return { ok: ev.ok, stateChanging: ev.stateChanging, debugger: ev.debugger, ended: ev.meta.ended === true, outputChars: ev.output.length, ...(location ? { location } : {}) };
}

/** The harness sessions held by this worker process; the worker closes them all on shutdown. */
export class SessionRegistry extends Map<string, HarnessSession> {
  async closeAll(): Promise<number> {
    const all = [...this.values()];
    this.clear();
    await Promise.all(all.map((s) => s.close().catch(() => undefined)));
    return all.length;
  }
}

export function createSandboxActivities(deps: { pool: Pool; config: Config; hostQueue: string; sessions: SessionRegistry }) {
  const env = harnessEnv(deps.config);
  const { sessions } = deps;
  /** Episode id → its newest session on this worker. */
  const episodes = new Map<string, string>();

  function sessionOf(sessionId: string): HarnessSession {
    const s = sessions.get(sessionId);
    if (!s) throw failure(Failure.SandboxLost, `sandbox session ${sessionId} is not on this worker (was it restarted?)`);
    return s;
  }

  /** The one wrapper for work on the sandbox's host: heartbeats while it runs, and maps what the harness throws to
   * the failure vocabulary. A lost sandbox (HarnessInfraError) is dropped and becomes SandboxLost, so the workflow
   * rebuilds it; anything else the harness throws is a HarnessError, not retried. */
  async function onHost<T>(sessionId: string, what: string, fn: (session: HarnessSession) => Promise<T>): Promise<T> {
    const session = sessionOf(sessionId);
    try {
      return await withHeartbeat(() => fn(session), { everyMs: 2000 });
    } catch (e) {
      if (e instanceof HarnessInfraError) {
        sessions.delete(sessionId);
        await session.close().catch(() => undefined);
        throw failure(Failure.SandboxLost, `${what}: sandbox failed: ${e.message}`);
      }
      throw failure(Failure.HarnessError, `${what}: the harness failed: ${(e as Error)?.message ?? String(e)}`, { cause: e instanceof Error ? e : undefined });
    }
  }

  /** The turn's call from the event log (the claim check) and its observation if it was already written. */
  async function turnEvents(episodeId: string, turn: number): Promise<{ call: ToolCallRequest | null; tool: ToolEvent | null }> {
    const rows = await deps.pool.query("select kind, payload from episode_events where episode_id = $1 and turn = $2 and kind in ('assistant', 'tool')", [episodeId, turn]);
    const of = (kind: string) => rows.rows.find((r) => r.kind === kind)?.payload ?? null;
    const assistant = of('assistant') as AssistantEvent | null;
    return { call: assistant?.toolCall ? { name: assistant.toolCall.name, arguments: assistant.toolCall.arguments } : null, tool: of('tool') as ToolEvent | null };
  }

  async function execute(session: HarnessSession, call: ToolCallRequest, notice?: string): Promise<ToolEvent> {
    const started = Date.now();
    const sessionId = session.id;
    const result = await session.call({ name: call.name, arguments: call.arguments });
    return {
      tool: result.tool,
      ok: result.ok,
      output: notice ? `${notice}\n${result.output}` : result.output,
      stateChanging: result.stateChanging,
      debugger: result.debugger,
      meta: result.meta,
      latencyMs: Date.now() - started,
      invalidReply: false,
      sessionId,
    };
  }

  async function runTool(input: ToolTurnInput): Promise<ToolTurnResult> {
    const { call, tool } = await turnEvents(input.episodeId, input.turn);
    if (tool) {
      // The call ran and was logged on another sandbox; the model keeps the logged observation, and this sandbox is
      // brought to match it by running the call again, unlogged:
      // - on a sandbox rebuilt by a recovery (reapplyTurns re-applied the edits and the debugger set-up before this
      //   turn), a state-changing call;
      // - on a sandbox that is following the episode again from an earlier turn (a workflow task whose local tool
      //   calls were never recorded in the history re-runs on another worker, with a new sandbox, turn by turn), any
      //   call, so the files and the debugger end where they ended on the lost sandbox.
      const elsewhere = tool.sessionId !== undefined && tool.sessionId !== input.sessionId;
      if (call && (input.rebuilt ? tool.stateChanging : elsewhere)) {
        await onHost(input.sessionId, `turn ${input.turn} ${call.name.slice(0, 40)}`, (session) => execute(session, call));
      }
      return summarize(tool);
    }
    if (!call) throw failure(Failure.MissingEvent, `turn ${input.turn} of ${input.episodeId} has no tool call in the event log`);
    const event = await onHost(input.sessionId, `turn ${input.turn} ${call.name.slice(0, 40)}`, (session) => execute(session, call, input.notice));
    const { payload } = await appendEvent(deps.pool, input.episodeId, input.turn, 'tool', event);
    return summarize(payload as ToolEvent);
  }

  return {
    /** Shared queue (or, since the workflow's `local-tool-calls` patch, a local activity of the workflow's worker):
     * create the episode's sandbox on this worker and hand back this worker's own queue. */
    async openSandbox(input: { episodeId: string; taskId: string; toolset: Toolset }): Promise<SandboxHandle> {
      let taskDir: string;
      try {
        taskDir = resolveTaskDir(input.taskId, deps.config.DEBUGRL_TASKS_DIR);
        loadTask(taskDir);
      } catch (e) {
        throw failure(Failure.InvalidInput, (e as Error).message);
      }
      let session: HarnessSession;
      try {
        session = await HarnessSession.create({ env, taskDir, toolset: input.toolset });
      } catch (e) {
        if (e instanceof HarnessInfraError) throw failure(Failure.SandboxUnavailable, e.message, { retryable: true });
        throw e;
      }
      // A workflow holds one sandbox at a time: an older one of this episode on this worker (a workflow task that ran
      // here and was re-run before its open was recorded) is no longer used by anyone.
      const older = episodes.get(input.episodeId);
      if (older && sessions.has(older)) {
        await sessions.get(older)!.close().catch(() => undefined);
        sessions.delete(older);
      }
      sessions.set(session.id, session);
      episodes.set(input.episodeId, session.id);
      return { sessionId: session.id, queue: deps.hostQueue };
    },

    /** Host queue: one tool call, the turn's call read from the event log (the workflow never carries it). The
     * observation goes to the event log; a retry after it was written returns it without running the call again (an
     * edit must not apply twice). `rebuilt`: the first attempt of this turn on a rebuilt sandbox. */
    runTool,

    /** Local activity, on the worker that runs the workflow: the turn's tool call if this process holds the sandbox
     * (`queue`, the sandbox's queue, is this process's own), or null when it does not, and the workflow then sends the
     * call to the sandbox's queue. The common case (one worker runs the workflow and holds the sandbox it opened)
     * costs no task-queue hand-off. */
    async runToolIfHere(input: ToolTurnInput & { queue: string }): Promise<ToolTurnResult | null> {
      const { queue, ...turn } = input;
      return queue === deps.hostQueue ? runTool(turn) : null;
    },

    /** Host queue, after a recovery: re-apply the calls of these turns (read from the event log) on a rebuilt
     * sandbox, in order, without logging them. */
    async reapplyTurns(input: { episodeId: string; sessionId: string; turns: number[] }): Promise<{ reapplied: number }> {
      if (!input.turns.length) return { reapplied: 0 };
      const rows = await deps.pool.query("select turn, payload from episode_events where episode_id = $1 and kind = 'assistant' and turn = any($2::int[])", [input.episodeId, input.turns]);
      const calls = new Map(rows.rows.map((r) => [r.turn as number, (r.payload as AssistantEvent).toolCall]));
      return onHost(input.sessionId, 'reapply', async (session) => {
        for (const turn of input.turns) {
          const call = calls.get(turn);
          if (!call) throw failure(Failure.MissingEvent, `turn ${turn} of ${input.episodeId} has no tool call in the event log`);
          await execute(session, call);
        }
        return { reapplied: input.turns.length };
      });
    },

    /** Host queue: grade the episode's source files in a fresh sandbox (the harness's grader). */
    async gradeSandbox(input: { episodeId: string; sessionId: string; turn: number }): Promise<{ passed: boolean; failing: number }> {
      const stored = (await findEvent(deps.pool, input.episodeId, input.turn, 'grade')) as GradeEvent | null;
      const grade = stored ?? (await onHost(input.sessionId, 'grade', (session) => session.grade()));
      if (!stored) await appendEvent(deps.pool, input.episodeId, input.turn, 'grade', { passed: grade.passed, tests: grade.tests, notes: grade.notes, durationMs: grade.durationMs });
      return { passed: grade.passed, failing: Object.values(grade.tests).filter((t) => t !== 'passed' && t !== 'skipped').length };
    },

    /** Host queue: destroy the sandbox and stop the debugger. Idempotent. */
    async closeSandbox(input: { sessionId: string }): Promise<void> {
      const s = sessions.get(input.sessionId);
      sessions.delete(input.sessionId);
      for (const [episode, id] of episodes) if (id === input.sessionId) episodes.delete(episode);
      if (s) await s.close();
    },
  };
}
